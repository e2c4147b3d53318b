/* cordon check — decide one tool call; run nothing.
 *
 * The call comes from flags (--tool, --args) or as a call object on stdin:
 * {"tool": "Bash", "args": {"command": "ls"}, "cwd": "/w", "session": "s1"}.
 * The decision is printed (text, or the check object with --json) and is
 * the exit status: 0 allow, 1 deny, 3 ask, 2 usage or configuration error.
 * Durable approvals are consulted; nobody is asked unless --prompt is given
 * and a terminal is there to ask on.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "buf.h"
#include "cli.h"
#include "config.h"
#include "json.h"
#include "cordon.h"

#include "banned.h"

#define CHECK_EXIT_DENY 1
#define CHECK_EXIT_ASK 3
#define CHECK_MAX_STDIN (1024 * 1024 + 4096)

void cli_check_usage(FILE *out)
{
	fputs("usage: cordon check [OPTIONS] --tool NAME [--args JSON]\n"
	      "       cordon check [OPTIONS] < CALL.json\n"
	      "\n"
	      "Decide one tool call (allow, deny or ask) and run nothing.\n"
	      "CALL.json is {\"tool\": NAME, \"args\": {...}, \"cwd\": DIR, "
	      "\"session\": ID}.\n"
	      "\n"
	      "options:\n"
	      "  --tool NAME         the tool (Bash, Write, read_file, "
	      "mcp__srv__tool …)\n"
	      "  --args JSON         its arguments, a JSON object "
	      "(default {})\n"
	      "  --cwd DIR           the directory the call runs in "
	      "(default: workspace)\n"
	      "  --workspace DIR     the workspace (default: the current "
	      "directory)\n"
	      "  --session ID        the session, for session grants\n"
	      "  --mode MODE         supervised, auto-accept-edits, auto, "
	      "full-access\n"
	      "                      (clamped to max_permission_mode)\n"
	      "  --config FILE       a configuration file, applied after the "
	      "user and\n"
	      "                      project files\n"
	      "  --audit-log FILE    where the decision is recorded (default: "
	      "audit.path,\n"
	      "                      or $XDG_STATE_HOME/cordon/audit.jsonl; "
	      "- for none)\n"
	      "  --read-only         deny every write and execute\n"
	      "  --deny-path GLOB    add a denied path (repeatable)\n"
	      "  --deny-command CMD  add a denied command (repeatable)\n"
	      "  --deny-tool NAME    add a denied tool (repeatable)\n"
	      "  --approvals FILE    the approvals file (default: "
	      "approvals.path, or\n"
	      "                      $XDG_CONFIG_HOME/cordon/approvals.json)\n"
	      "  --no-approvals      ignore durable approvals\n"
	      "  --prompt            ask on the terminal when the decision is "
	      "ask\n"
	      "  --json              print the check object as JSON\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "exit status: 0 allow, 1 deny, 3 ask, 2 usage or configuration "
	      "error.\n",
	      out);
}

struct check_opts {
	const char *tool;
	const char *args;
	const char *cwd;
	const char *workspace;
	const char *session;
	const char *mode;
	const char *config;
	const char *approvals;
	const char *audit_log;
	int no_approvals;
	int prompt;
	int json;
	int read_only;
	const char **deny_paths;
	size_t ndeny_paths;
	const char **deny_cmds;
	size_t ndeny_cmds;
	const char **deny_tools;
	size_t ndeny_tools;
};

static int push(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

/* --args must be one JSON object: anything else is the caller's mistake
 * (exit 2), not a call for the policy to refuse. 1 after saying why. */
static int args_not_object(const char *text)
{
	size_t len = strlen(text);
	const char *end = NULL;
	cJSON *v = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	int bad = 0;

	if (!v) {
		const char *at = cJSON_GetErrorPtr();

		fprintf(stderr,
			"cordon check: --args: not valid JSON (at byte %zu)\n",
			at && at >= text && at <= text + len ?
				(size_t)(at - text) : len);
		bad = 1;
	} else if (end && strspn(end, " \t\r\n") != strlen(end)) {
		fprintf(stderr,
			"cordon check: --args: text after the JSON value at "
			"byte %zu\n",
			(size_t)(end - text));
		bad = 1;
	} else if (!cJSON_IsObject(v)) {
		fputs("cordon check: --args: expected a JSON object\n", stderr);
		bad = 1;
	}
	cJSON_Delete(v);
	return bad;
}

/* 0 parsed, 1 help printed, -1 usage error (reported). */
static int parse_options(int argc, char **argv, struct check_opts *o)
{
	enum {
		OPT_TOOL = 256,
		OPT_ARGS,
		OPT_CWD,
		OPT_WORKSPACE,
		OPT_SESSION,
		OPT_MODE,
		OPT_CONFIG,
		OPT_APPROVALS,
		OPT_NO_APPROVALS,
		OPT_PROMPT,
		OPT_JSON,
		OPT_READ_ONLY,
		OPT_DENY_PATH,
		OPT_DENY_CMD,
		OPT_DENY_TOOL,
		OPT_AUDIT_LOG,
	};
	static const struct option longopts[] = {
		{"tool", required_argument, NULL, OPT_TOOL},
		{"args", required_argument, NULL, OPT_ARGS},
		{"cwd", required_argument, NULL, OPT_CWD},
		{"workspace", required_argument, NULL, OPT_WORKSPACE},
		{"session", required_argument, NULL, OPT_SESSION},
		{"mode", required_argument, NULL, OPT_MODE},
		{"config", required_argument, NULL, OPT_CONFIG},
		{"approvals", required_argument, NULL, OPT_APPROVALS},
		{"no-approvals", no_argument, NULL, OPT_NO_APPROVALS},
		{"prompt", no_argument, NULL, OPT_PROMPT},
		{"json", no_argument, NULL, OPT_JSON},
		{"read-only", no_argument, NULL, OPT_READ_ONLY},
		{"deny-path", required_argument, NULL, OPT_DENY_PATH},
		{"deny-command", required_argument, NULL, OPT_DENY_CMD},
		{"deny-tool", required_argument, NULL, OPT_DENY_TOOL},
		{"audit-log", required_argument, NULL, OPT_AUDIT_LOG},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, bad = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TOOL: o->tool = optarg; break;
		case OPT_ARGS: o->args = optarg; break;
		case OPT_CWD: o->cwd = optarg; break;
		case OPT_WORKSPACE: o->workspace = optarg; break;
		case OPT_SESSION: o->session = optarg; break;
		case OPT_MODE: o->mode = optarg; break;
		case OPT_CONFIG: o->config = optarg; break;
		case OPT_APPROVALS: o->approvals = optarg; break;
		case OPT_AUDIT_LOG: o->audit_log = optarg; break;
		case OPT_NO_APPROVALS: o->no_approvals = 1; break;
		case OPT_PROMPT: o->prompt = 1; break;
		case OPT_JSON: o->json = 1; break;
		case OPT_READ_ONLY: o->read_only = 1; break;
		case OPT_DENY_PATH:
			bad |= push(&o->deny_paths, &o->ndeny_paths, optarg);
			break;
		case OPT_DENY_CMD:
			bad |= push(&o->deny_cmds, &o->ndeny_cmds, optarg);
			break;
		case OPT_DENY_TOOL:
			bad |= push(&o->deny_tools, &o->ndeny_tools, optarg);
			break;
		case 'h':
			cli_check_usage(stdout);
			return 1;
		case ':':
		default:
			cli_getopt_error("check", c, argv);
			goto usage;
		}
	}
	if (bad) {
		fputs("cordon check: out of memory\n", stderr);
		return -1;
	}
	if (optind < argc) {
		cli_unexpected_arg("check", argv[optind]);
		goto usage;
	}
	if (o->args && !o->tool) {
		fputs("cordon check: --args needs --tool\n", stderr);
		goto usage;
	}
	if (o->args && args_not_object(o->args))
		goto usage;
	if (o->mode && cordon_mode_from_name(o->mode) < 0) {
		fprintf(stderr,
			"cordon check: --mode: expected one of supervised, "
			"auto-accept-edits, auto, full-access, got '%s'\n",
			o->mode);
		goto usage;
	}
	return 0;
usage:
	fputs("Try 'cordon check --help'.\n", stderr);
	return -1;
}

/* Reads all of stdin up to the limit; NULL (reported) when over it. */
static char *read_stdin(size_t *len)
{
	struct buf b = BUF_INIT(CHECK_MAX_STDIN);

	if (atomic_read_all(STDIN_FILENO, &b) != 0) {
		if (errno == EFBIG)
			fprintf(stderr,
				"cordon check: the call on stdin is over the "
				"limit of %d bytes\n",
				CHECK_MAX_STDIN);
		else if (errno != ENOMEM)
			fprintf(stderr, "cordon check: reading stdin: %s\n",
				strerror(errno));
		buf_free(&b);
		return NULL;
	}
	return buf_take(&b, len);
}

/* The call from a stdin object; strings point into *root. */
static int call_from_json(const char *text, size_t len, cJSON **root,
			  struct cordon_call *call, char **args_text)
{
	cJSON *o = cJSON_ParseWithLength(text, len);
	const cJSON *t, *a, *c, *s;

	*root = o;
	if (!o || !cJSON_IsObject(o)) {
		fputs("cordon check: stdin: expected a call object "
		      "{\"tool\", \"args\", \"cwd\", \"session\"}\n",
		      stderr);
		return -1;
	}
	t = cJSON_GetObjectItemCaseSensitive(o, "tool");
	a = cJSON_GetObjectItemCaseSensitive(o, "args");
	c = cJSON_GetObjectItemCaseSensitive(o, "cwd");
	s = cJSON_GetObjectItemCaseSensitive(o, "session");
	if (!cJSON_IsString(t)) {
		fputs("cordon check: stdin: tool: expected a string\n", stderr);
		return -1;
	}
	if (a && !cJSON_IsObject(a)) {
		fputs("cordon check: stdin: args: expected an object\n", stderr);
		return -1;
	}
	if ((c && !cJSON_IsString(c)) || (s && !cJSON_IsString(s))) {
		fprintf(stderr, "cordon check: stdin: %s: expected a string\n",
			c && !cJSON_IsString(c) ? "cwd" : "session");
		return -1;
	}
	for (const cJSON *k = o->child; k; k = k->next) {
		if (strcmp(k->string, "tool") && strcmp(k->string, "args") &&
		    strcmp(k->string, "cwd") && strcmp(k->string, "session")) {
			fprintf(stderr, "cordon check: stdin: %s: unknown key\n",
				k->string);
			return -1;
		}
	}
	call->tool = t->valuestring;
	/* cJSON cut every string at a \u0000 escape, anywhere in the call
	 * (tool, args, cwd): hand the policy arguments that still hold one,
	 * so it refuses the call as it refuses such --args. */
	if (json_nul_escape_at(text, len) < len) {
		call->args_json = "{\"\\u0000\": 0}";
		call->cwd = NULL;
		call->session = NULL;
		return 0;
	}
	if (a) {
		*args_text = cJSON_PrintUnformatted(a);
		if (!*args_text)
			return -1;
		call->args_json = *args_text;
	}
	call->cwd = c ? c->valuestring : NULL;
	call->session = s ? s->valuestring : NULL;
	return 0;
}

static int apply_flags(struct cordon_config *cfg, const struct check_opts *o)
{
	enum cordon_err err = CORDON_OK;

	if (o->mode)
		err = config_flag_mode(cfg, (enum cordon_mode)cordon_mode_from_name(o->mode));
	if (!err && o->read_only)
		err = config_flag_read_only(cfg);
	for (size_t i = 0; !err && i < o->ndeny_paths; i++)
		err = config_flag_add(cfg, "safety.denied_paths", o->deny_paths[i]);
	for (size_t i = 0; !err && i < o->ndeny_cmds; i++)
		err = config_flag_add(cfg, "safety.denied_commands", o->deny_cmds[i]);
	for (size_t i = 0; !err && i < o->ndeny_tools; i++)
		err = config_flag_add(cfg, "safety.denied_tools", o->deny_tools[i]);
	if (err) {
		fprintf(stderr, "cordon check: %s\n", cordon_strerror(err));
		return -1;
	}
	return 0;
}

static void print_text(const struct cordon_result *r)
{
	int risk = cordon_result_risk(r);
	const char *reason = cordon_result_reason(r);

	printf("%s (step: %s)\n", cordon_decision_name(cordon_result_decision(r)),
	       cordon_result_step(r));
	fputs("reason: ", stdout);
	cli_print_escaped(stdout, reason, strlen(reason));
	fputc('\n', stdout);
	if (risk >= 0) {
		printf("risk: %s\nlabels: ",
		       cordon_risk_name((enum cordon_risk)risk));
		cli_print_labels(stdout, cordon_result_labels(r));
		fputc('\n', stdout);
	}
}

int cli_check(int argc, char **argv)
{
	struct check_opts o = {0};
	struct cordon_config *cfg = NULL;
	struct cordon_policy *pol = NULL;
	struct cordon_result *res = NULL;
	struct cordon_audit *audit = NULL;
	struct cordon_call call = {0};
	struct cordon_diag diag = {0};
	struct cordon_context ctx = {0};
	struct cli_tty_prompt tp = { -1, 0 };
	struct cli_broker broker;
	char *input = NULL, *args_text = NULL;
	cJSON *root = NULL;
	int status = CLI_EXIT_USAGE, rc;
	char wsbuf[PATH_MAX], apbuf[PATH_MAX];

	rc = parse_options(argc, argv, &o);
	if (rc)
		goto out_opts;
	if (!o.workspace)
		o.workspace = getcwd(wsbuf, sizeof(wsbuf));
	if (cli_load_config(&cfg, o.config, o.workspace) != 0)
		goto out;
	if (apply_flags(cfg, &o) != 0)
		goto out;
	rc = cli_open_audit(cfg, o.audit_log, &audit);
	if (rc) {
		status = rc;
		rc = 0;
		goto out;
	}
	if (o.tool) {
		call.tool = o.tool;
		call.args_json = o.args;
		call.cwd = o.cwd;
		call.session = o.session;
	} else {
		size_t len = 0;
		input = read_stdin(&len);
		if (!input)
			goto out;
		if (call_from_json(input, len, &root, &call, &args_text) != 0)
			goto out;
		if (o.cwd)
			call.cwd = o.cwd;
		if (o.session)
			call.session = o.session;
	}
	ctx.workspace = o.workspace;
	if (cordon_policy_new(cfg, &ctx, &pol, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon check: %s\n", diag.message);
		goto out;
	}
	if (!o.no_approvals) {
		const char *ap = o.approvals;
		if (!ap && !cfg->approvals_path &&
		    cli_approvals_default_path(apbuf, sizeof(apbuf)) == 0)
			ap = apbuf;
		if (cordon_policy_open_approvals(pol, ap) != CORDON_OK) {
			fputs("cordon check: out of memory\n", stderr);
			status = CLI_EXIT_FAILURE;
			goto out;
		}
		for (size_t i = 0; i < cordon_policy_warning_count(pol); i++)
			fprintf(stderr, "cordon check: warning: %s\n",
				cordon_policy_warning(pol, i));
	}
	unsigned flags = CORDON_DECIDE_NO_PROMPT;
	if (!o.prompt && cli_broker_attach(&broker, pol, cfg, "check", NULL))
		flags = 0;
	if (o.prompt) {
		flags = 0;
		tp.fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
		tp.timeout_s = cfg->approvals_timeout_s;
		if (tp.fd >= 0)
			cordon_policy_set_prompt(pol, cli_tty_ask, &tp);
	}
	res = cordon_result_new();
	if (!res) {
		fputs("cordon check: out of memory\n", stderr);
		status = CLI_EXIT_FAILURE;
		goto out;
	}
	if (cordon_policy_decide(pol, &call, flags, res, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon check: %s\n", diag.message);
		status = CLI_EXIT_FAILURE;
		goto out;
	}
	/* A decision that cannot be recorded is not given. */
	if (cordon_audit_decision(audit, res, "{\"door\":\"check\"}", &diag) !=
	    CORDON_OK) {
		fprintf(stderr, "cordon check: %s\n", diag.message);
		status = CLI_EXIT_FAILURE;
		goto out;
	}
	if (o.json) {
		char *js = cordon_result_to_json(res);
		if (!js) {
			fputs("cordon check: out of memory\n", stderr);
			status = CLI_EXIT_FAILURE;
			goto out;
		}
		puts(js);
		free(js);
	} else {
		print_text(res);
	}
	switch (cordon_result_decision(res)) {
	case CORDON_ALLOW:
		status = CLI_EXIT_OK;
		break;
	case CORDON_ASK:
		status = CHECK_EXIT_ASK;
		break;
	default:
		status = CHECK_EXIT_DENY;
		break;
	}
	if (fflush(stdout) != 0)
		status = CLI_EXIT_FAILURE;
out:
	if (tp.fd >= 0)
		close(tp.fd);
	if (cordon_audit_close(audit) != CORDON_OK && status == CLI_EXIT_OK) {
		fputs("cordon check: audit log: fsync failed\n", stderr);
		status = CLI_EXIT_FAILURE;
	}
	cordon_result_free(res);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
	cJSON_Delete(root);
	free(args_text);
	free(input);
out_opts:
	free(o.deny_paths);
	free(o.deny_cmds);
	free(o.deny_tools);
	return rc > 0 ? CLI_EXIT_OK : status;
}

/* `cordon explain --call` reads the same input as check. */
char *cli_check_read_stdin(size_t *len)
{
	return read_stdin(len);
}

int cli_check_call_from_json(const char *text, size_t len, cJSON **root,
			     struct cordon_call *call, char **args_text)
{
	return call_from_json(text, len, root, call, args_text);
}
