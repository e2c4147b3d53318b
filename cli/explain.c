/* cordon explain — how a verdict or a decision was reached.
 *
 * For a shell command: the parse tree, every simple command the walk
 * judged (its evaluated words, how it is nested, the wrapper or runner
 * that started it, where it runs), every rule that fired in the order it
 * fired (id, tier, labels, why, the segment it raised), the segments, and
 * how the tiers combined. For a tool call (the input of `cordon check`):
 * every policy step visited, in order, with what it found, and the
 * decision. Nothing is run, no approval is read or written and nothing is
 * audited: the steps are the policy's own (cordon_policy_evaluate).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "classify_int.h"
#include "cli.h"
#include "cmdlist.h"
#include "config.h"
#include "cordon.h"
#include "policy.h"
#include "sh.h"

#include "banned.h"

void cli_explain_usage(FILE *out)
{
	fputs("usage: cordon explain [OPTIONS] [--] CMD...\n"
	      "       cordon explain --call [OPTIONS] < CALL.json\n"
	      "\n"
	      "Shows how cordon reached its verdict on a shell command: the\n"
	      "parse tree, each simple command with its evaluated words and\n"
	      "the wrappers it was found behind, each rule that fired (id,\n"
	      "tier, why) and how the tiers combined. With --call, reads a\n"
	      "tool call as `cordon check` does and shows each policy step\n"
	      "visited, in order, with what it found. Nothing is run, and no\n"
	      "approval or audit record is read or written.\n"
	      "\n"
	      "options:\n"
	      "  --call           explain a tool call read on stdin\n"
	      "  --cwd DIR        directory the command runs in (default: .)\n"
	      "  --workspace DIR  the workspace root (default: the cwd)\n"
	      "  --home DIR       the home directory (default: $HOME)\n"
	      "  --config FILE    configuration file (--call; as check)\n"
	      "  --json           print one JSON object\n"
	      "  -h, --help       this help\n"
	      "\n"
	      "exit status: 0 explained, 2 usage or input error, 1 failure\n",
	      out);
}

struct explain_opts {
	int call;
	int json;
	const char *cwd, *workspace, *home, *config;
};

/* ---- the shell part -------------------------------------------------------- */

static const char *kind_name(enum sh_kind k)
{
	switch (k) {
	case SH_LIST: return "list";
	case SH_PIPELINE: return "pipeline";
	case SH_SIMPLE: return "simple";
	case SH_SUBSHELL: return "subshell";
	case SH_GROUP: return "group";
	case SH_IF: return "if";
	case SH_WHILE: return "while";
	case SH_FUNC: return "function";
	default: return "compound";
	}
}

static cJSON *tree_json(const struct sh_node *n, unsigned depth)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "kind", kind_name(n->kind));
	if (n->text) {
		char *t = strndup(n->text, n->len);
		if (t) {
			cJSON_AddStringToObject(o, "text", t);
			free(t);
		}
	}
	if (n->name) {
		char *t = strndup(n->name, n->name_len);
		if (t) {
			cJSON_AddStringToObject(o, "name", t);
			free(t);
		}
	}
	if (n->incomplete)
		cJSON_AddBoolToObject(o, "incomplete", 1);
	if (n->child && depth < 32) {
		cJSON *c = cJSON_AddArrayToObject(o, "children");
		for (const struct sh_node *k = n->child; c && k; k = k->next)
			cJSON_AddItemToArray(c, tree_json(k, depth + 1));
	}
	return o;
}

static void tree_text(const struct sh_node *n, unsigned depth)
{
	for (; n; n = n->next) {
		printf("  %*s%s", (int)depth * 2, "", kind_name(n->kind));
		if (n->name) {
			fputs(" ", stdout);
			cli_print_escaped(stdout, n->name, n->name_len);
		}
		if (n->kind == SH_SIMPLE && n->text) {
			fputs(": ", stdout);
			cli_print_escaped(stdout, n->text, n->len);
		}
		if (n->incomplete)
			fputs(" (cut short by a syntax error)", stdout);
		fputc('\n', stdout);
		if (depth < 32)
			tree_text(n->child, depth + 1);
	}
}

static const char *from_text(unsigned from)
{
	if (from & CMD_FROM_PAYLOAD)
		return "payload";
	if (from & CMD_FROM_SUBST)
		return "substitution";
	if (from & CMD_FROM_RUNNER)
		return "runner";
	return "line";
}

static char *word_dup(const struct cmd_word *w)
{
	return strndup(w->s ? w->s : "", w->n);
}

static cJSON *labels_json(uint64_t l)
{
	cJSON *a = cJSON_CreateArray();

	for (unsigned b = 0; a && b < 64; b++) {
		const char *name = cordon_label_name(b);
		if (name && (l & (UINT64_C(1) << b)))
			cJSON_AddItemToArray(a, cJSON_CreateString(name));
	}
	return a;
}

static int explain_shell_json(const struct cordon_verdict *v, const char *cmd)
{
	const struct cmdlist *cl = cmdlist_of(v);
	cJSON *o = cJSON_CreateObject();
	cJSON *cmds, *rules, *segs;
	char *js;

	if (!o)
		return -1;
	cJSON_AddStringToObject(o, "command", cmd);
	cJSON_AddBoolToObject(o, "parsed", v->parsed);
	if (cl->tree.root)
		cJSON_AddItemToObject(o, "parse", tree_json(cl->tree.root, 0));
	if (cl->tree.err)
		cJSON_AddStringToObject(o, "parseError", cl->tree.err_msg);
	cmds = cJSON_AddArrayToObject(o, "commands");
	for (size_t i = 0; cmds && i < cl->n; i++) {
		const struct cmd_run *r = &cl->v[i];
		cJSON *c = cJSON_CreateObject(), *w;
		if (!c)
			break;
		w = cJSON_AddArrayToObject(c, "words");
		for (size_t k = 0; w && k < r->argc; k++) {
			cJSON *e = cJSON_CreateObject();
			char *t = word_dup(&r->w[k]);
			if (e && t) {
				cJSON_AddStringToObject(e, "text", t);
				cJSON_AddBoolToObject(e, "known", r->w[k].known);
				if (r->w[k].glob)
					cJSON_AddBoolToObject(e, "glob", 1);
			}
			free(t);
			cJSON_AddItemToArray(w, e);
		}
		cJSON_AddStringToObject(c, "from", from_text(r->from));
		cJSON_AddNumberToObject(c, "depth", r->depth);
		if (r->parent)
			cJSON_AddNumberToObject(c, "startedBy", (double)r->parent);
		if (r->cwd)
			cJSON_AddStringToObject(c, "cwd", r->cwd);
		cJSON_AddItemToArray(cmds, c);
	}
	rules = cJSON_AddArrayToObject(o, "rules");
	for (size_t i = 0; rules && i < v->nhits; i++) {
		const struct vhit *h = &v->hits[i];
		cJSON *r = cJSON_CreateObject();
		if (!r)
			break;
		cJSON_AddStringToObject(r, "id", h->rule ? h->rule : "");
		cJSON_AddStringToObject(r, "tier", cordon_risk_name(h->tier));
		cJSON_AddItemToObject(r, "labels", labels_json(h->labels));
		cJSON_AddStringToObject(r, "why", h->reason ? h->reason : "");
		if (h->seg != SIZE_MAX)
			cJSON_AddNumberToObject(r, "segment", (double)h->seg + 1);
		cJSON_AddItemToArray(rules, r);
	}
	segs = cJSON_AddArrayToObject(o, "segments");
	for (size_t i = 0; segs && i < v->nsegs; i++) {
		cJSON *s = cJSON_CreateObject();
		char *t = strndup(v->text + v->segs[i].off, v->segs[i].len);
		if (s && t) {
			cJSON_AddStringToObject(s, "text", t);
			cJSON_AddStringToObject(s, "risk",
						cordon_risk_name(v->segs[i].risk));
			cJSON_AddItemToObject(s, "labels",
					      labels_json(v->segs[i].labels));
		}
		free(t);
		cJSON_AddItemToArray(segs, s);
	}
	cJSON_AddStringToObject(o, "risk", cordon_risk_name(v->risk));
	cJSON_AddItemToObject(o, "labels", labels_json(v->labels));
	cJSON_AddStringToObject(
		o, "combine",
		"each segment's tier is the highest of the rules that fired in "
		"it; the command's tier is the highest of every rule, and its "
		"labels the union");
	js = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!js)
		return -1;
	puts(js);
	free(js);
	return 0;
}

static void explain_shell_text(const struct cordon_verdict *v)
{
	const struct cmdlist *cl = cmdlist_of(v);
	enum cordon_risk top = CORDON_RISK_SAFE;
	const char *top_rule = NULL;

	puts("parse:");
	if (cl->tree.root)
		tree_text(cl->tree.root->child, 0);
	if (cl->tree.err) {
		fputs("  error: ", stdout);
		cli_print_escaped(stdout, cl->tree.err_msg, strlen(cl->tree.err_msg));
		fputc('\n', stdout);
	}
	puts("commands:");
	for (size_t i = 0; i < cl->n; i++) {
		const struct cmd_run *r = &cl->v[i];
		printf("  %zu. [%s", i + 1, from_text(r->from));
		if (r->parent)
			printf(" of %zu", r->parent);
		fputs("]", stdout);
		for (size_t k = 0; k < r->argc; k++) {
			fputs(" ", stdout);
			if (!r->w[k].known)
				fputs("?", stdout);
			fputc('\'', stdout);
			cli_print_escaped(stdout, r->w[k].s ? r->w[k].s : "",
					  r->w[k].n);
			fputc('\'', stdout);
		}
		if (r->cwd) {
			fputs("  (cwd ", stdout);
			cli_print_escaped(stdout, r->cwd, strlen(r->cwd));
			fputs(")", stdout);
		}
		fputc('\n', stdout);
	}
	puts("rules, in the order they fired:");
	for (size_t i = 0; i < v->nhits; i++) {
		const struct vhit *h = &v->hits[i];
		printf("  %-28s %-11s ", h->rule ? h->rule : "-",
		       cordon_risk_name(h->tier));
		if (h->seg != SIZE_MAX)
			printf("seg %-3zu ", h->seg + 1);
		else
			fputs("        ", stdout);
		cli_print_escaped(stdout, h->reason ? h->reason : "",
				  h->reason ? strlen(h->reason) : 0);
		fputc('\n', stdout);
		if (h->tier > top || !top_rule) {
			if (h->tier >= top) {
				top = h->tier;
				top_rule = h->rule;
			}
		}
	}
	puts("segments:");
	for (size_t i = 0; i < v->nsegs; i++) {
		printf("  %zu. %-11s ", i + 1, cordon_risk_name(v->segs[i].risk));
		cli_print_escaped(stdout, v->text + v->segs[i].off, v->segs[i].len);
		fputc('\n', stdout);
	}
	printf("verdict: %s", cordon_risk_name(v->risk));
	if (v->nhits && top_rule)
		printf(" — the highest tier of the %zu rule hits (first at that "
		       "tier: %s); each segment takes the highest of its own",
		       v->nhits, top_rule);
	else if (!v->nhits)
		fputs(" — no rule fired", stdout);
	fputs("\nlabels: ", stdout);
	cli_print_labels(stdout, v->labels);
	fputc('\n', stdout);
}

static int explain_shell(const struct explain_opts *o, int argc, char **argv)
{
	struct cordon_classifier *cls = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	struct cordon_context ctx = { o->cwd, o->workspace, o->home, NULL };
	struct cordon_diag diag = { 0 };
	char cwdbuf[4096];
	size_t len = 0;
	char *cmd;
	int rc = CLI_EXIT_FAILURE;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	cmd = malloc(len + 1);
	if (!cls || !v || !cmd) {
		fputs("cordon explain: out of memory\n", stderr);
		goto out;
	}
	cmd[0] = '\0';
	for (size_t i = 0, at = 0; i < (size_t)argc; i++) {
		size_t n = strlen(argv[i]);
		memcpy(cmd + at, argv[i], n);
		at += n;
		cmd[at++] = i + 1 < (size_t)argc ? ' ' : '\0';
	}
	if (!ctx.cwd)
		ctx.cwd = getcwd(cwdbuf, sizeof(cwdbuf));
	if (!ctx.workspace)
		ctx.workspace = ctx.cwd;
	if (!ctx.home)
		ctx.home = getenv("HOME");
	verdict_set_trace(v, true);
	if (cordon_classify(cls, &ctx, cmd, strlen(cmd), v, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon explain: %s\n", diag.message);
		goto out;
	}
	if (o->json) {
		if (explain_shell_json(v, cmd) != 0) {
			fputs("cordon explain: out of memory\n", stderr);
			goto out;
		}
	} else {
		fputs("command: ", stdout);
		cli_print_escaped(stdout, cmd, strlen(cmd));
		fputc('\n', stdout);
		explain_shell_text(v);
	}
	rc = 0;
out:
	free(cmd);
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return rc;
}

/* ---- the tool-call part ----------------------------------------------------- */

static int explain_call(const struct explain_opts *o)
{
	struct cordon_config *cfg = NULL;
	struct cordon_policy *pol = NULL;
	struct cordon_result *res = NULL;
	struct cordon_call call = { 0 };
	struct cordon_diag diag = { 0 };
	struct cordon_context ctx = { 0 };
	struct policy_trace *tr = calloc(1, sizeof(*tr));
	char *input = NULL, *args_text = NULL;
	cJSON *root = NULL;
	char wsbuf[4096];
	size_t len = 0;
	int status = CLI_EXIT_USAGE;
	const char *ws = o->workspace;

	if (!tr) {
		fputs("cordon explain: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	if (!ws)
		ws = getcwd(wsbuf, sizeof(wsbuf));
	if (cli_load_config(&cfg, o->config, ws) != 0)
		goto out;
	input = cli_check_read_stdin(&len);
	if (!input)
		goto out;
	if (cli_check_call_from_json(input, len, &root, &call, &args_text) != 0)
		goto out;
	if (o->cwd)
		call.cwd = o->cwd;
	ctx.workspace = ws;
	ctx.home = o->home;
	status = CLI_EXIT_FAILURE;
	if (cordon_policy_new(cfg, &ctx, &pol, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon explain: %s\n", diag.message);
		goto out;
	}
	res = cordon_result_new();
	if (!res) {
		fputs("cordon explain: out of memory\n", stderr);
		goto out;
	}
	policy_trace_set(pol, tr);
	if (cordon_policy_evaluate(pol, &call, res, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon explain: %s\n", diag.message);
		goto out;
	}
	policy_trace_set(pol, NULL);
	if (o->json) {
		cJSON *j = cJSON_CreateObject(), *steps;
		char *js;
		if (!j)
			goto out;
		cJSON_AddStringToObject(j, "tool", call.tool);
		steps = cJSON_AddArrayToObject(j, "steps");
		for (size_t i = 0; steps && i < tr->n; i++) {
			cJSON *s = cJSON_CreateObject();
			if (!s)
				break;
			cJSON_AddStringToObject(s, "step",
						policy_step_name(tr->e[i].step));
			cJSON_AddStringToObject(s, "found", tr->e[i].what);
			cJSON_AddItemToArray(steps, s);
		}
		cJSON_AddStringToObject(j, "decision",
					cordon_decision_name(cordon_result_decision(res)));
		cJSON_AddStringToObject(j, "step", cordon_result_step(res));
		cJSON_AddStringToObject(j, "reason", cordon_result_reason(res));
		js = cJSON_PrintUnformatted(j);
		cJSON_Delete(j);
		if (!js)
			goto out;
		puts(js);
		free(js);
	} else {
		printf("tool: %s\nsteps, in the order visited:\n", call.tool);
		for (size_t i = 0; i < tr->n; i++) {
			printf("  %2zu. %-16s ", i + 1, policy_step_name(tr->e[i].step));
			cli_print_escaped(stdout, tr->e[i].what, strlen(tr->e[i].what));
			fputc('\n', stdout);
		}
		printf("decision: %s (step: %s)\n",
		       cordon_decision_name(cordon_result_decision(res)),
		       cordon_result_step(res));
	}
	status = 0;
out:
	cordon_result_free(res);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
	cJSON_Delete(root);
	free(args_text);
	free(input);
	free(tr);
	return status;
}

int cli_explain(int argc, char **argv)
{
	struct explain_opts o = { 0 };
	enum { OPT_CALL = 256, OPT_CWD, OPT_WS, OPT_HOME, OPT_CONFIG, OPT_JSON };
	static const struct option longopts[] = {
		{ "call", no_argument, NULL, OPT_CALL },
		{ "cwd", required_argument, NULL, OPT_CWD },
		{ "workspace", required_argument, NULL, OPT_WS },
		{ "home", required_argument, NULL, OPT_HOME },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CALL: o.call = 1; break;
		case OPT_CWD: o.cwd = optarg; break;
		case OPT_WS: o.workspace = optarg; break;
		case OPT_HOME: o.home = optarg; break;
		case OPT_CONFIG: o.config = optarg; break;
		case OPT_JSON: o.json = 1; break;
		case 'h':
			cli_explain_usage(stdout);
			return 0;
		default:
			cli_getopt_error("explain", c, argv);
			fputs("Try 'cordon explain --help'.\n", stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (o.call) {
		if (optind < argc) {
			cli_unexpected_arg("explain", argv[optind]);
			fputs("Try 'cordon explain --help'.\n", stderr);
			return CLI_EXIT_USAGE;
		}
		return explain_call(&o);
	}
	if (optind >= argc) {
		fputs("cordon explain: no command given\n"
		      "Try 'cordon explain --help'.\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	return explain_shell(&o, argc - optind, argv + optind);
}
