/* cordon doctor — is cordon set up the way the user thinks it is?
 *
 * Looks, in order, at: the sandbox backends (each tried now with a no-op,
 * and what it enforces), the effective configuration and the files it
 * came from, every agent's settings in the user and project scopes (is
 * cordon's hook there, does its program exist and stay put, can allowed
 * calls be sandboxed), the audit log (its path and whether the chain
 * holds), the MCP pins waiting for approval, the approvals file, and the
 * approval broker (on or off, a console listening, the broker relay).
 * Every problem is printed with the command that fixes it; exit 0 when
 * there is none, 1 when there is one, 2 on a usage or configuration
 * error. --json prints one object with the same facts.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agentpresets.h"
#include "agents.h"
#include "approvals.h"
#include "broker.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "json.h"
#include "pins.h"
#include "sandbox.h"
#include "unixmsg.h"

#include "banned.h"

#define DOCTOR_MAX_CMDS 8

void cli_doctor_usage(FILE *out)
{
	fputs("usage: cordon doctor [--json] [--workspace DIR] [--config FILE]\n"
	      "                     [--audit-log FILE] [--no-probe]\n"
	      "\n"
	      "Checks cordon's set-up and names each problem with the command "
	      "that fixes\n"
	      "it: the sandbox backends (tried now) and what each enforces; "
	      "the effective\n"
	      "configuration and its files; for every agent, whether "
	      "cordon's hook is in\n"
	      "its user and project settings, whether the hook's program "
	      "exists and stays\n"
	      "put (absolute, not in a temporary directory, not writable by "
	      "others), and\n"
	      "whether allowed calls can be sandboxed; the audit log's path "
	      "and whether\n"
	      "its chain holds; MCP tools waiting for approval; the approvals "
	      "file;\n"
	      "approvals.broker, whether a console listens, and how doors "
	      "inside cordon run\n"
	      "reach it (the run's broker relay).\n"
	      "\n"
	      "options:\n"
	      "  --json            one JSON object instead of text\n"
	      "  --workspace DIR   the project whose settings are read "
	      "(default: the\n"
	      "                    current directory)\n"
	      "  --config FILE     a configuration file, after the user and "
	      "project files\n"
	      "  --audit-log FILE  the audit log to check (default: "
	      "audit.path, or\n"
	      "                    $XDG_STATE_HOME/cordon/audit.jsonl)\n"
	      "  --no-probe        use the cached backend probe instead of "
	      "trying now\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "exit status: 0 no problem, 1 one or more problems (each "
	      "printed with its\n"
	      "fix), 2 on a usage or configuration error.\n",
	      out);
}

struct doctor_opts {
	bool json;
	bool no_probe;
	const char *workspace;
	const char *config;
	const char *audit_log;
};

/* 0 parsed, 1 help printed, -1 usage error (reported). */
static int parse_options(int argc, char **argv, struct doctor_opts *o)
{
	enum {
		OPT_JSON = 256,
		OPT_WORKSPACE,
		OPT_CONFIG,
		OPT_AUDIT_LOG,
		OPT_NO_PROBE,
	};
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "workspace", required_argument, NULL, OPT_WORKSPACE },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
		{ "no-probe", no_argument, NULL, OPT_NO_PROBE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_WORKSPACE:
			o->workspace = optarg;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_AUDIT_LOG:
			o->audit_log = optarg;
			break;
		case OPT_NO_PROBE:
			o->no_probe = true;
			break;
		case 'h':
			cli_doctor_usage(stdout);
			return 1;
		default:
			cli_getopt_error("doctor", c, argv);
			goto usage;
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("doctor", argv[optind]);
		goto usage;
	}
	return 0;
usage:
	fputs("Try 'cordon doctor --help'.\n", stderr);
	return -1;
}

/* What doctor found: the JSON it prints, with the problems list that
 * decides the exit status. */
struct doctor {
	cJSON *root;
	cJSON *problems;
	bool oom;
};

/* Adds {"check", "problem", "fix"} to the problems. */
__attribute__((format(printf, 4, 5))) static void
problem(struct doctor *d, const char *check, const char *fix,
	const char *fmt, ...)
{
	char text[1024];
	cJSON *p = cJSON_CreateObject();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!p || !cJSON_AddStringToObject(p, "check", check) ||
	    !cJSON_AddItemToObject(p, "problem",
				   json_clean_string(text, strlen(text))) ||
	    !cJSON_AddItemToObject(p, "fix",
				   json_clean_string(fix, strlen(fix))) ||
	    !cJSON_AddItemToArray(d->problems, p)) {
		cJSON_Delete(p);
		d->oom = true;
	}
}

static void add_str(struct doctor *d, cJSON *o, const char *k, const char *v)
{
	cJSON *s = v ? json_clean_string(v, strlen(v)) : cJSON_CreateNull();

	if (!s || !cJSON_AddItemToObject(o, k, s)) {
		cJSON_Delete(s);
		d->oom = true;
	}
}

static void add_num(struct doctor *d, cJSON *o, const char *k, double v)
{
	if (!cJSON_AddNumberToObject(o, k, v))
		d->oom = true;
}

static void add_bool(struct doctor *d, cJSON *o, const char *k, bool v)
{
	if (!cJSON_AddBoolToObject(o, k, v))
		d->oom = true;
}

static cJSON *add_obj(struct doctor *d, cJSON *parent, const char *k)
{
	cJSON *o = k ? cJSON_AddObjectToObject(parent, k) : cJSON_CreateObject();

	if (!o) {
		d->oom = true;
		return NULL;
	}
	if (!k && !cJSON_AddItemToArray(parent, o)) {
		cJSON_Delete(o);
		d->oom = true;
		return NULL;
	}
	return o;
}

static cJSON *add_arr(struct doctor *d, cJSON *parent, const char *k)
{
	cJSON *a = cJSON_AddArrayToObject(parent, k);

	if (!a)
		d->oom = true;
	return a;
}

/* ---- the sandbox backends ----------------------------------------------- */

/* What each backend enforces when it works (README "cordon run"). */
static const struct {
	const char *name;
	const char *enforces;
} backend_facts[] = {
	{ "namespaces",
	  "user, mount, PID, network, IPC and UTS namespaces; a read-only "
	  "root with writable roots; Landlock as a second wall; seccomp; "
	  "rlimits and a cgroup; a filtered environment" },
	{ "landlock",
	  "Landlock file and TCP rules, seccomp, rlimits and a filtered "
	  "environment, without namespaces: UDP is not restricted and the "
	  "proxy listens on the host's loopback (enforcement partial)" },
};

static void check_backends(struct doctor *d, bool cached)
{
	int best;
	cJSON *arr = cli_probe_backends(!cached, &best), *b;

	if (!arr || !cJSON_AddItemToObject(d->root, "backends", arr)) {
		cJSON_Delete(arr);
		d->oom = true;
		return;
	}
	cJSON_ArrayForEach (b, arr) {
		const char *name = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(b, "name"));

		for (size_t i = 0; i < 2; i++)
			if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				    b, "works")) &&
			    strcmp(name, backend_facts[i].name) == 0)
				add_str(d, b, "enforces",
					backend_facts[i].enforces);
	}
	add_str(d, d->root, "bestBackend",
		best == SANDBOX_BACKEND_NAMESPACES ? "namespaces" :
		best == SANDBOX_BACKEND_LANDLOCK   ? "landlock" :
						     NULL);
	if (best < 0)
		problem(d, "sandbox",
			"run 'cordon run --probe' for each backend's error; "
			"user namespaces may be disabled (sysctl "
			"kernel.unprivileged_userns_clone=1) or the kernel "
			"lacks Landlock",
			"no sandbox backend works: 'cordon run' refuses every "
			"command");
}

/* ---- the configuration --------------------------------------------------- */

/* The effective configuration with its sources, and the files it came
 * from (the distinct sources other than the defaults). */
static void check_config(struct doctor *d, const struct cordon_config *cfg)
{
	char *text = cordon_config_to_json(cfg, 1);
	cJSON *c = text ? cJSON_Parse(text) : NULL, *files, *src, *s;

	free(text);
	if (!c) {
		d->oom = true;
		return;
	}
	files = cJSON_AddArrayToObject(c, "files");
	src = cJSON_GetObjectItemCaseSensitive(c, "sources");
	cJSON_ArrayForEach (s, src) {
		bool seen = false;
		const cJSON *f;

		if (!cJSON_IsString(s) || strcmp(s->valuestring, "default") == 0)
			continue;
		cJSON_ArrayForEach (f, files)
			seen = seen || strcmp(f->valuestring, s->valuestring) == 0;
		if (!seen && files)
			cJSON_AddItemToArray(files,
					     cJSON_CreateString(s->valuestring));
	}
	if (!files || !cJSON_AddItemToObject(d->root, "config", c)) {
		cJSON_Delete(c);
		d->oom = true;
	}
}

/* ---- the agents ---------------------------------------------------------- */

/* One settings file: whether it exists and which cordon hooks it holds,
 * each with its program checked. Returns the number of hooks found. */
static int check_file(struct doctor *d, cJSON *files,
		      const struct cli_agent *a, const char *scope,
		      const char *path)
{
	struct cli_hook_cmd cmds[DOCTOR_MAX_CMDS];
	cJSON *f = add_obj(d, files, NULL), *arr;
	char why[256], fix[512];
	size_t len = 0;
	char *text;
	int n;

	if (!f)
		return 0;
	add_str(d, f, "scope", scope);
	add_str(d, f, "file", path);
	text = cli_read_file(path, CLI_SETTINGS_MAX, &len);
	add_bool(d, f, "exists", text || errno != ENOENT);
	if (!text) {
		if (errno != ENOENT) {
			add_str(d, f, "error", strerror(errno));
			problem(d, a->name, "fix the file's permissions",
				"%s: %s", path, strerror(errno));
		}
		return 0;
	}
	n = cli_agent_hook_cmds(a, text, len, cmds, DOCTOR_MAX_CMDS, why,
				sizeof(why));
	free(text);
	if (n < 0) {
		add_str(d, f, "error", why);
		snprintf(fix, sizeof(fix),
			 "correct the file, then 'cordon init %s%s'", a->name,
			 strcmp(scope, "user") == 0 ? " --user" : "");
		problem(d, a->name, fix, "%s: %s: %s cannot read its hooks",
			path, why, a->title);
		return 0;
	}
	add_bool(d, f, "installed", n > 0);
	arr = add_arr(d, f, "hooks");
	for (int i = 0; arr && i < n && i < DOCTOR_MAX_CMDS; i++) {
		cJSON *h = add_obj(d, arr, NULL);
		char buf[640];
		const char *bad = cli_binary_problem(cmds[i].binary, buf,
						     sizeof(buf));

		if (!h)
			break;
		add_str(d, h, "command", cmds[i].command);
		add_str(d, h, "binary", cmds[i].binary);
		add_bool(d, h, "binaryOk", bad == NULL);
		if (!bad)
			continue;
		add_str(d, h, "why", bad);
		snprintf(fix, sizeof(fix),
			 "install cordon where it stays (e.g. /usr/local/bin) "
			 "and run 'that/cordon init %s%s' from it",
			 a->name, strcmp(scope, "user") == 0 ? " --user" : "");
		problem(d, a->name, fix, "the hook in %s runs %s", path, bad);
	}
	return n;
}

/* A settings name ending in '/': every *.json file in that directory. */
static int check_dir(struct doctor *d, cJSON *files,
		     const struct cli_agent *a, const char *scope,
		     const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];
	int n = 0;

	if (!dh)
		return 0;
	while ((e = readdir(dh))) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 ||
		    e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		n += check_file(d, files, a, scope, path);
	}
	closedir(dh);
	return n;
}

static int check_scope(struct doctor *d, cJSON *files,
		       const struct cli_agent *a, const char *scope,
		       const char *base, const char *const *names)
{
	char path[PATH_MAX];
	int n = 0;

	if (!base || base[0] != '/')
		return 0;
	for (size_t i = 0; i < CLI_AGENT_MAX_FILES && names[i]; i++) {
		size_t l = strlen(names[i]);

		if (snprintf(path, sizeof(path), "%s/%s", base, names[i]) >=
		    (int)sizeof(path))
			continue;
		n += l && names[i][l - 1] == '/' ?
			     check_dir(d, files, a, scope, path) :
			     check_file(d, files, a, scope, path);
	}
	return n;
}

static void check_agents(struct doctor *d, const char *workspace)
{
	cJSON *arr = add_arr(d, d->root, "agents");
	const char *home = getenv("HOME");

	for (const struct cli_agent *a = cli_agents; arr && a->name; a++) {
		cJSON *o = add_obj(d, arr, NULL), *files;
		int n;

		if (!o)
			return;
		add_str(d, o, "name", a->name);
		add_str(d, o, "title", a->title);
		add_bool(d, o, "hookDoor", a->has_hook);
		files = add_arr(d, o, "files");
		if (!files)
			return;
		n = check_scope(d, files, a, "user", home, a->user_files);
		n += check_scope(d, files, a, "project", workspace,
				 a->project_files);
		add_bool(d, o, "installed", n > 0);
		add_str(d, o, "sandbox", a->sandbox);
	}
}

/* ---- the stores ---------------------------------------------------------- */

static void check_audit(struct doctor *d, const struct cordon_config *cfg,
			const char *flag)
{
	char buf[PATH_MAX];
	const char *path = flag ? flag : cfg->audit_path;
	cJSON *o = add_obj(d, d->root, "audit");
	struct cordon_audit_report rep;
	struct cordon_diag diag = { 0 };
	struct stat st;
	char fix[PATH_MAX + 128];

	if (!o)
		return;
	if (!path && cli_audit_default_path(buf, sizeof(buf)) == 0)
		path = buf;
	add_str(d, o, "path", path);
	if (!path || strcmp(path, "-") == 0) {
		add_bool(d, o, "exists", false);
		problem(d, "audit",
			"set audit.path in the configuration, or leave it unset "
			"for the default",
			"no audit log: decisions are not recorded");
		return;
	}
	if (stat(path, &st) != 0) {
		add_bool(d, o, "exists", false);
		return; /* nothing recorded yet */
	}
	add_bool(d, o, "exists", true);
	memset(&rep, 0, sizeof(rep));
	if (cordon_audit_verify(&path, 1, &rep, &diag) != CORDON_OK) {
		add_str(d, o, "error", diag.message);
		snprintf(fix, sizeof(fix), "check the file's permissions: ls -l %s",
			 path);
		problem(d, "audit", fix, "the audit log cannot be read: %s",
			diag.message);
		return;
	}
	add_bool(d, o, "intact", rep.intact);
	add_num(d, o, "records", (double)rep.records);
	if (rep.notes[0])
		add_str(d, o, "notes", rep.notes);
	if (rep.intact)
		return;
	add_str(d, o, "why", rep.why);
	snprintf(fix, sizeof(fix),
		 "'cordon audit verify %s' shows where; keep the file as "
		 "evidence and move it aside (mv %s %s.broken) to start a new "
		 "chain",
		 path, path, path);
	problem(d, "audit", fix, "the audit log's chain is broken: %s:%llu: %s",
		rep.bad_file, (unsigned long long)rep.bad_line, rep.why);
}

static void check_pins(struct doctor *d, const struct cordon_config *cfg)
{
	char buf[PATH_MAX];
	const char *path = cfg->mcp_pins_path;
	struct mcp_pins *p = NULL;
	struct cordon_diag diag = { 0 };
	cJSON *o = add_obj(d, d->root, "mcpPins"), *j = NULL, *pend, *srv;
	char *text;
	int pending = 0, servers = 0;

	if (!o)
		return;
	if (!path && pins_default_path(buf, sizeof(buf)) == 0)
		path = buf;
	add_str(d, o, "path", path);
	if (!path)
		return;
	if (pins_open(path, &p, &diag) != CORDON_OK) {
		add_str(d, o, "error", diag.message);
		problem(d, "mcp-pins",
			"correct or move the file aside; 'cordon mcp pins list' "
			"names the key",
			"the MCP pins file cannot be used: %s", diag.message);
		return;
	}
	text = pins_to_json(p);
	pins_free(p);
	j = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!j) {
		d->oom = true;
		return;
	}
	pend = add_arr(d, o, "pending");
	cJSON_ArrayForEach (srv, cJSON_GetObjectItemCaseSensitive(j, "servers")) {
		const cJSON *t;

		servers++;
		cJSON_ArrayForEach (t, cJSON_GetObjectItemCaseSensitive(srv,
									"tools")) {
			const cJSON *st =
				cJSON_GetObjectItemCaseSensitive(t, "state");
			cJSON *e;

			if (!cJSON_IsString(st) ||
			    strcmp(st->valuestring, "pending") != 0)
				continue;
			pending++;
			e = pend ? add_obj(d, pend, NULL) : NULL;
			if (e) {
				add_str(d, e, "server", srv->string);
				add_str(d, e, "tool", t->string);
			}
		}
	}
	cJSON_Delete(j);
	add_num(d, o, "servers", servers);
	add_num(d, o, "pendingCount", pending);
	if (pending)
		problem(d, "mcp-pins",
			"review with 'cordon mcp pins diff SERVER TOOL', then "
			"'cordon mcp pins approve SERVER TOOL'",
			"%d MCP tool%s wait%s for approval (calls to them are "
			"refused)",
			pending, pending == 1 ? "" : "s", pending == 1 ? "s" : "");
}

static void check_approvals(struct doctor *d, const struct cordon_config *cfg)
{
	char buf[PATH_MAX];
	const char *path = cfg->approvals_path;
	struct approvals_store st;
	cJSON *o = add_obj(d, d->root, "approvals"), *w;

	if (!o)
		return;
	if (!path && cli_approvals_default_path(buf, sizeof(buf)) == 0)
		path = buf;
	add_str(d, o, "path", path);
	memset(&st, 0, sizeof(st));
	if (approvals_open(&st, path) == CORDON_E_NOMEM) {
		approvals_close(&st);
		d->oom = true;
		return;
	}
	add_num(d, o, "rules", (double)st.nrules);
	add_bool(d, o, "corrupt", st.corrupt);
	w = add_arr(d, o, "warnings");
	for (size_t i = 0; w && i < st.nwarnings; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(st.warnings[i]));
	if (st.corrupt || st.nwarnings)
		problem(d, "approvals",
			"'cordon approvals list' shows what loads; correct the "
			"file or 'cordon approvals clear' to start again",
			"the approvals file %s: %s", path ? path : "",
			st.nwarnings ? st.warnings[0] : "cannot be used");
	approvals_close(&st);
}

/* approvals.broker: on or off, the console's socket and whether a console
 * listens there, and whether this process is inside a `cordon run` that
 * relays its doors' asks (CORDON_BROKER_FD, src/policy/broker.h). */
static void check_broker(struct doctor *d, const struct cordon_config *cfg)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	cJSON *o = add_obj(d, d->root, "broker");
	char path[PATH_MAX];
	bool have = broker_path(BROKER_SOCKET_NAME, path, sizeof(path)) == 0 &&
		    strlen(path) < sizeof(sa.sun_path);
	bool listening = false;
	int fd;

	if (!o)
		return;
	if (have) {
		memcpy(sa.sun_path, path, strlen(path) + 1);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		listening = fd >= 0 && connect(fd, (struct sockaddr *)&sa,
					       sizeof(sa)) == 0;
		if (fd >= 0)
			close(fd);
	}
	add_bool(d, o, "on", cfg->approvals_broker);
	add_str(d, o, "socket", have ? path : NULL);
	add_bool(d, o, "console", listening);
	add_bool(d, o, "insideRelay",
		 unixmsg_env_fd(getenv(BROKER_RELAY_ENV)) >= 0);
}

/* ---- output -------------------------------------------------------------- */

static void print_text(const struct doctor *d)
{
	const cJSON *r = d->root, *it, *f, *h;
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(r, "config");
	const cJSON *aud = cJSON_GetObjectItemCaseSensitive(r, "audit");
	const cJSON *pins = cJSON_GetObjectItemCaseSensitive(r, "mcpPins");
	const cJSON *apr = cJSON_GetObjectItemCaseSensitive(r, "approvals");
	const cJSON *brk = cJSON_GetObjectItemCaseSensitive(r, "broker");
	int n = cJSON_GetArraySize(d->problems);

#define S(o, k) cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k))
#define B(o, k) cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, k))
#define N(o, k) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k))
	puts("sandbox backends:");
	cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive(r, "backends")) {
		if (B(it, "works"))
			printf("  %-10s works, enforcement %s: %s\n",
			       S(it, "name"), S(it, "enforcement"),
			       S(it, "enforces"));
		else
			printf("  %-10s unavailable: %s\n", S(it, "name"),
			       S(it, "why"));
	}
	puts("configuration:");
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cfg, "files")) == 0)
		puts("  built-in defaults only (cordon config show prints them)");
	cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive(cfg, "files"))
		printf("  from %s\n", it->valuestring);
	puts("agents:");
	cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive(r, "agents")) {
		printf("  %s (%s): %s\n", S(it, "title"), S(it, "name"),
		       !B(it, "hookDoor") ? "no hook door" :
		       B(it, "installed") ? "cordon's hook installed" :
					    "cordon's hook not installed");
		cJSON_ArrayForEach (f, cJSON_GetObjectItemCaseSensitive(it,
									"files")) {
			if (!B(f, "exists"))
				continue;
			printf("    %s %s: %s\n", S(f, "scope"), S(f, "file"),
			       S(f, "error") ? S(f, "error") :
			       B(f, "installed") ? "hook present" :
						   "no cordon hook");
			cJSON_ArrayForEach (h, cJSON_GetObjectItemCaseSensitive(
						       f, "hooks"))
				printf("      runs %s%s%s\n", S(h, "binary"),
				       B(h, "binaryOk") ? "" : ": ",
				       B(h, "binaryOk") ? "" : S(h, "why"));
		}
		printf("    sandbox: %s\n", S(it, "sandbox"));
	}
	printf("audit log: %s", S(aud, "path") ? S(aud, "path") : "none");
	if (!B(aud, "exists"))
		puts(" (no records yet)");
	else if (B(aud, "intact"))
		printf(" (%.0f records, chain intact)\n", N(aud, "records"));
	else
		puts(" (chain broken)");
	printf("MCP pins: %s, %.0f server(s), %.0f tool(s) pending\n",
	       S(pins, "path") ? S(pins, "path") : "none", N(pins, "servers"),
	       N(pins, "pendingCount"));
	printf("approvals: %s, %.0f rule(s)%s\n",
	       S(apr, "path") ? S(apr, "path") : "none", N(apr, "rules"),
	       B(apr, "corrupt") ? ", unusable" : "");
	if (!B(brk, "on"))
		puts("approval broker: off (approvals.broker): a door without a "
		     "terminal denies what would ask");
	else
		printf("approval broker: on, %s %s; doors inside cordon run ask "
		       "it through the run's relay (CORDON_BROKER_FD)%s\n",
		       B(brk, "console") ? "a console listens on" :
					   "no console running at",
		       S(brk, "socket") ? S(brk, "socket") : "(no socket path)",
		       B(brk, "insideRelay") ? ", as this process is" : "");
	if (!n) {
		puts("\nno problems found");
		return;
	}
	printf("\n%d problem%s:\n", n, n == 1 ? "" : "s");
	cJSON_ArrayForEach (it, d->problems)
		printf("  - %s: %s\n    fix: %s\n", S(it, "check"),
		       S(it, "problem"), S(it, "fix"));
#undef S
#undef B
#undef N
}

int cli_doctor(int argc, char **argv)
{
	struct doctor_opts o = { 0 };
	struct doctor d = { 0 };
	struct cordon_config *cfg = NULL;
	char wsbuf[PATH_MAX];
	const char *ws;
	char *text = NULL;
	int rc = parse_options(argc, argv, &o);

	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	ws = o.workspace ? o.workspace : getcwd(wsbuf, sizeof(wsbuf));
	rc = cli_load_config(&cfg, o.config, ws);
	if (rc)
		return rc;
	d.root = cJSON_CreateObject();
	d.problems = cJSON_CreateArray();
	if (!d.root || !d.problems) {
		rc = CLI_EXIT_FAILURE;
		goto oom;
	}
	add_str(&d, d.root, "version", CORDON_VERSION);
	add_str(&d, d.root, "workspace", ws);
	check_backends(&d, o.no_probe);
	check_config(&d, cfg);
	check_agents(&d, ws);
	check_audit(&d, cfg, o.audit_log);
	check_pins(&d, cfg);
	check_approvals(&d, cfg);
	check_broker(&d, cfg);
	add_bool(&d, d.root, "ok", cJSON_GetArraySize(d.problems) == 0);
	if (cJSON_AddItemToObject(d.root, "problems", d.problems))
		d.problems = NULL;
	else
		d.oom = true;
	if (d.oom)
		goto oom;
	if (o.json) {
		text = json_print_indented(d.root);
		if (!text)
			goto oom;
		puts(text);
	} else {
		d.problems = cJSON_DetachItemFromObjectCaseSensitive(d.root,
								     "problems");
		print_text(&d);
	}
	rc = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d.root, "ok")) ?
		     CLI_EXIT_OK :
		     CLI_EXIT_FAILURE;
	if (fflush(stdout) != 0) {
		cli_report("doctor", "write error", strerror(errno));
		rc = CLI_EXIT_FAILURE;
	}
	goto out;
oom:
	cli_report("doctor", NULL, "out of memory");
	rc = CLI_EXIT_FAILURE;
out:
	free(text);
	cJSON_Delete(d.problems);
	cJSON_Delete(d.root);
	cordon_config_free(cfg);
	return rc;
}
