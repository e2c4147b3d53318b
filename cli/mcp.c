/* cordon mcp — the MCP stdio gateway, and `cordon mcp pins …`.
 *
 *   cordon mcp [OPTIONS] [--sandbox [RUN OPTIONS]] -- SERVER ARGV...
 *
 * Loads the configuration, the policy (with the approvals file), the
 * audit log and the pins, then relays between our stdin/stdout (the
 * client) and SERVER (src/mcp/mcp.c). Exit status: the server's; 125 when the
 * gateway could not start it (a usage or configuration error included:
 * 2 could be the server's own, as for `cordon run`).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "mcp.h"
#include "pins.h"
#include "runopts.h"
#include "sandbox.h"
#include "text.h"

#include "banned.h"

#define MCP_EXIT_SETUP CLI_RUNOPTS_EXIT_SETUP
#define MCP_MAX_NAME 64

void cli_mcp_usage(FILE *out)
{
	fputs("usage: cordon mcp [OPTIONS] [--sandbox [RUN OPTIONS]] -- "
	      "SERVER [ARGS...]\n"
	      "       cordon mcp pins list|diff|approve|reset ...\n"
	      "\n"
	      "Run the stdio MCP server SERVER and relay JSON-RPC between it "
	      "and the\n"
	      "client on stdin/stdout. Every tools/call is decided by the "
	      "policy as\n"
	      "tool mcp__NAME__TOOL; tool definitions are pinned on first "
	      "use, and a\n"
	      "tool that changes, appears later or hides text aimed at the "
	      "model is\n"
	      "pending until approved (cordon mcp pins approve NAME TOOL). "
	      "Blocked\n"
	      "calls never reach the server: the client gets a tool result "
	      "with\n"
	      "isError true and text starting \"blocked: \".\n"
	      "\n"
	      "In .mcp.json:\n"
	      "  {\"mcpServers\": {\"fs\": {\"command\": \"cordon\", \"args\": "
	      "[\"mcp\", \"--name\",\n"
	      "    \"fs\", \"--\", \"npx\", \"-y\",\n"
	      "    \"@modelcontextprotocol/server-filesystem\", \"/srv\"]}}}\n"
	      "\n"
	      "options:\n"
	      "  --name NAME        the server's name in pins, tool names and "
	      "the log\n"
	      "                     (default: from SERVER: the package of "
	      "npx/uvx/pipx,\n"
	      "                     the script of node/python, else SERVER's "
	      "base name)\n"
	      "  --config FILE      a configuration file, applied after the "
	      "user and\n"
	      "                     project files\n"
	      "  --audit-log FILE   where audit records go (default: "
	      "audit.path, else\n"
	      "                     $XDG_STATE_HOME/cordon/audit.jsonl; - for "
	      "none)\n"
	      "  --pins FILE        the pins file (default: mcp.pins_path, "
	      "else\n"
	      "                     $XDG_STATE_HOME/cordon/mcp-pins.json)\n"
	      "  --session ID       the session for session grants and the "
	      "log\n"
	      "                     (default: a new random one)\n"
	      "  --warn-pending     keep pending tools in tools/list with a "
	      "warning in\n"
	      "                     their description (mcp.pending_tools "
	      "\"warn\"); they\n"
	      "                     stay blocked. Default: hidden\n"
	      "  --trust-new-tools  a tool that appears on an approved "
	      "server is pinned\n"
	      "                     as on first use (mcp.new_tools "
	      "\"trust\"). Default:\n"
	      "                     pending\n"
	      "  --prompt           ask on the terminal (/dev/tty) when the "
	      "policy says\n"
	      "                     ask; without it, ask is denied\n"
	      "  --sandbox          run SERVER in the sandbox; the options "
	      "after it are\n"
	      "                     those of cordon run (--workspace, "
	      "--write,\n"
	      "                     --network, --allow-host, --memory, "
	      "--report …;\n"
	      "                     see cordon run --help), except "
	      "--argv-only,\n"
	      "                     --allow-cmd and --output-cap\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "Exit status: the server's; 125 when the gateway could not "
	      "start.\n",
	      out);
}

enum {
	OPT_NAME = 2000,
	OPT_CONFIG,
	OPT_AUDIT_LOG,
	OPT_PINS,
	OPT_SESSION,
	OPT_WARN_PENDING,
	OPT_TRUST_NEW,
	OPT_PROMPT,
	OPT_SANDBOX,
	OPT_HELP,
};

static const struct option mcp_own_opts[] = {
	{ "name", required_argument, NULL, OPT_NAME },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
	{ "pins", required_argument, NULL, OPT_PINS },
	{ "session", required_argument, NULL, OPT_SESSION },
	{ "warn-pending", no_argument, NULL, OPT_WARN_PENDING },
	{ "trust-new-tools", no_argument, NULL, OPT_TRUST_NEW },
	{ "prompt", no_argument, NULL, OPT_PROMPT },
	{ "sandbox", no_argument, NULL, OPT_SANDBOX },
	{ "help", no_argument, NULL, OPT_HELP },
};

#define MCP_NOWN (sizeof(mcp_own_opts) / sizeof(mcp_own_opts[0]))
#define MCP_MAX_OPTS 64

struct mcp_cli {
	const char *name;
	const char *config;
	const char *audit_log;
	const char *pins;
	const char *session;
	bool warn_pending, trust_new, prompt, sandbox;
	struct cli_runopts run;
	char name_buf[MCP_MAX_NAME + 1];
	char session_buf[64];
};

/* The table: ours, then the run options after --sandbox (theirs named
 * like ours are left out: --config and --help are ours, --probe makes no
 * sense here). */
static size_t build_table(struct option *t)
{
	size_t n = 0;

	for (size_t i = 0; i < MCP_NOWN; i++)
		t[n++] = mcp_own_opts[i];
	for (const struct option *o = cli_runopts_longopts; o->name; o++) {
		if (strcmp(o->name, "config") == 0 ||
		    strcmp(o->name, "help") == 0 ||
		    strcmp(o->name, "probe") == 0 ||
		    strcmp(o->name, "audit-log") == 0)
			continue;
		if (n + 1 >= MCP_MAX_OPTS)
			break;
		t[n++] = *o;
	}
	t[n] = (struct option){ NULL, 0, NULL, 0 };
	return n;
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "cordon mcp: %s%s%s%s\n", what, arg ? " '" : "",
		arg ? arg : "", arg ? "'" : "");
	fputs("(cordon mcp --help for the options)\n", stderr);
	return MCP_EXIT_SETUP;
}

/* 0 parsed, -1 help printed, else the exit status (reported). */
static int parse_options(int argc, char **argv, struct mcp_cli *m)
{
	struct option table[MCP_MAX_OPTS];
	int c, rc;

	build_table(table);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", table, NULL)) != -1) {
		if (cli_runopts_owns(c)) {
			if (!m->sandbox)
				return usage_error(
					"run options come after --sandbox:",
					argv[optind - 1]);
			rc = cli_runopts_option(&m->run, c, optarg);
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case OPT_NAME:
			m->name = optarg;
			break;
		case OPT_CONFIG:
			m->config = optarg;
			break;
		case OPT_AUDIT_LOG:
			m->audit_log = optarg;
			break;
		case OPT_PINS:
			m->pins = optarg;
			break;
		case OPT_SESSION:
			m->session = optarg;
			break;
		case OPT_WARN_PENDING:
			m->warn_pending = true;
			break;
		case OPT_TRUST_NEW:
			m->trust_new = true;
			break;
		case OPT_PROMPT:
			m->prompt = true;
			break;
		case OPT_SANDBOX:
			m->sandbox = true;
			break;
		case OPT_HELP:
		case 'h':
			cli_mcp_usage(stdout);
			return -1;
		default:
			if (optopt && optopt < 256) {
				char o[3] = { '-', (char)optopt, '\0' };
				return usage_error("unknown option", o);
			}
			return usage_error("unknown or incomplete option",
					   argv[optind - 1]);
		}
	}
	return 0;
}

/* Whether a name is usable: 1 to MCP_MAX_NAME of [A-Za-z0-9_.-], no "__"
 * (the separator of mcp__NAME__TOOL). */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > MCP_MAX_NAME || strstr(s, "__"))
		return false;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_.-") == n;
}

/* s[0..n) into out as a usable name: other bytes become '-', runs of '_'
 * one '_'. "" when nothing is left. */
static void sanitize(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < cap && o < MCP_MAX_NAME; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			c = '-';
		if (c == '_' && o && out[o - 1] == '_')
			continue;
		out[o++] = c;
	}
	out[o] = '\0';
	while (o && (out[o - 1] == '-' || out[o - 1] == '.'))
		out[--o] = '\0';
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* A package spec to its name: "@scope/pkg@1.2" → "pkg", "npm:x" → "x",
 * "mcp-server-git==1.0" → "mcp-server-git", "git+https://…/repo" →
 * "repo". Returns the start and sets *len. */
static const char *package_name(const char *spec, size_t *len)
{
	const char *s = spec, *e, *at;

	if (strncmp(s, "npm:", 4) == 0 || strncmp(s, "jsr:", 4) == 0)
		s += 4;
	e = s + strlen(s);
	at = strchr(s + 1, '@');
	if (at && at < e)
		e = at;
	for (const char *p = s; p < e; p++) {
		if (*p == '=' || *p == '<' || *p == '>' || *p == '[' ||
		    *p == '~' || *p == '!') {
			e = p;
			break;
		}
	}
	while (e > s && e[-1] == '/')
		e--;
	for (const char *p = e; p > s; p--) {
		if (p[-1] == '/') {
			s = p;
			break;
		}
	}
	if (e - s > 4 && strncmp(e - 4, ".git", 4) == 0)
		e -= 4;
	*len = (size_t)(e - s);
	return s;
}

/* The default --name, from the server's argv (see the README):
 *   npx/bunx/pnpx/uvx/pipx run/npm exec/pnpm dlx/yarn dlx/bun x: the
 *     package (-p/--package/--from name it when given);
 *   node/python/deno/bun/ruby/perl SCRIPT: the script's name without its
 *     extension, and for a generic one (index, main, server, cli …) the
 *     nearest directory above it that is not dist, build, src, lib, bin;
 *     python -m MODULE: the module;
 *   anything else: the base name of SERVER. */
static void derive_name(char *const *argv, char *out, size_t cap)
{
	static const char *const runners[] = { "npx", "bunx", "pnpx", "uvx",
					       NULL };
	static const char *const sub_runners[] = { "pipx", "npm", "pnpm",
						   "yarn", "bun", "uv",
						   NULL };
	static const char *const subs[] = { "run", "exec", "dlx", "x", NULL };
	static const char *const interps[] = { "node", "nodejs",  "deno",
					       "bun",  "ruby",	  "perl",
					       "tsx",  "ts-node", NULL };
	static const char *const generic[] = { "index", "main",	    "server",
					       "cli",	"__main__", "app",
					       "mcp",	"run",	    "start",
					       "bin",	NULL };
	static const char *const skip_dirs[] = { "dist", "build", "src",
						 "lib",	 "bin",	  "out",
						 ".",	 "..",	  NULL };
	const char *b = base_name(argv[0]), *pick = NULL;
	size_t i = 1, len;
	bool runner = in_list(b, runners);
	bool python = strncmp(b, "python", 6) == 0;

	if (!runner && in_list(b, sub_runners) && argv[1] &&
	    in_list(argv[1], subs)) {
		runner = true;
		i = 2;
	}
	if (runner) {
		for (; argv[i]; i++) {
			const char *a = argv[i];
			if (strcmp(a, "-p") == 0 ||
			    strcmp(a, "--package") == 0 ||
			    strcmp(a, "--from") == 0 ||
			    strcmp(a, "--spec") == 0) {
				pick = argv[i + 1];
				break;
			}
			if (strncmp(a, "--package=", 10) == 0) {
				pick = a + 10;
				break;
			}
			if (strncmp(a, "--from=", 7) == 0) {
				pick = a + 7;
				break;
			}
			if (strcmp(a, "--") == 0)
				continue;
			if (a[0] != '-') {
				pick = a;
				break;
			}
		}
		if (pick) {
			const char *s = package_name(pick, &len);
			sanitize(s, len, out, cap);
			if (out[0])
				return;
		}
	} else if (python || in_list(b, interps)) {
		for (; argv[i]; i++) {
			const char *a = argv[i];
			if (python && strcmp(a, "-m") == 0 && argv[i + 1]) {
				sanitize(argv[i + 1], strlen(argv[i + 1]), out,
					 cap);
				if (out[0])
					return;
				break;
			}
			if (strcmp(a, "run") == 0 && strcmp(b, "deno") == 0)
				continue;
			if (a[0] != '-') {
				pick = a;
				break;
			}
		}
		if (pick) {
			const char *end = pick + strlen(pick);
			while (end > pick && end[-1] == '/')
				end--;
			/* walk up from the script while the name says
			 * nothing */
			for (int up = 0; up < 4 && end > pick; up++) {
				const char *s = end;
				char comp[MCP_MAX_NAME + 1];
				size_t cl;
				const char *dot;

				while (s > pick && s[-1] != '/')
					s--;
				cl = (size_t)(end - s);
				dot = up == 0 ? memrchr(s, '.', cl) : NULL;
				if (dot && dot > s)
					cl = (size_t)(dot - s);
				if (cl && cl <= MCP_MAX_NAME) {
					memcpy(comp, s, cl);
					comp[cl] = '\0';
					if (!in_list(comp, up == 0 ?
								   generic :
								   skip_dirs)) {
						sanitize(comp, cl, out, cap);
						if (out[0])
							return;
					}
				}
				end = s;
				while (end > pick && end[-1] == '/')
					end--;
			}
		}
	}
	sanitize(b, strlen(b), out, cap);
	if (!out[0])
		(void)snprintf(out, cap, "%s", "server");
}


/* approvals.broker: what the console's card says of the server's sandbox
 * (the probe's verdict, cached). */
static const char *sandbox_enforcement(void)
{
	char why[1024];
	int best = sandbox_probe(false, why, sizeof(why));

	return best == SANDBOX_BACKEND_NAMESPACES ? "full" :
	       best == SANDBOX_BACKEND_LANDLOCK   ? "partial" :
						    "none";
}

/* A fresh session id: "mcp-NAME-<16 hex>". */
static void new_session(const char *name, char *buf, size_t cap)
{
	unsigned char r[8] = { 0 };
	char hex[17];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		uint64_t t = (uint64_t)getpid() ^ (uint64_t)time(NULL);
		memcpy(r, &t, sizeof(r));
	}
	text_hex_encode(r, sizeof(r), hex);
	(void)snprintf(buf, cap, "mcp-%s-%s", name, hex);
}

/* In the process that ran the sandbox: its error and --report. */
static void sandbox_done(const struct sandbox_report *rep, void *arg)
{
	const struct cli_runopts *r = arg;

	if (rep->error[0]) {
		if (strncmp(rep->error, "blocked:", 8) == 0)
			fprintf(stderr, "%s\n", rep->error);
		else
			fprintf(stderr, "cordon mcp: %s\n", rep->error);
	}
	(void)cli_runopts_write_report(r, rep);
	fflush(stderr);
}

int cli_mcp(int argc, char **argv)
{
	struct mcp_cli m;
	struct mcp_gateway_opts go;
	struct cordon_config *cfg = NULL;
	struct cordon_policy *pol = NULL;
	struct cordon_audit *audit = NULL;
	struct mcp_pins *pins = NULL;
	struct cordon_context ctx = { 0 };
	struct cordon_diag diag = { 0 };
	struct cli_tty_prompt tp = { -1, 0 };
	struct cli_broker broker;
	struct cli_proxy_audit proxy_audit = { 0 };
	char pins_buf[PATH_MAX], ap_buf[PATH_MAX];
	const char *pins_path, *ap;
	int rc, status = MCP_EXIT_SETUP;

	if (argc >= 2 && strcmp(argv[1], "pins") == 0)
		return cli_mcp_pins(argc - 1, argv + 1);

	memset(&m, 0, sizeof(m));
	cli_runopts_init(&m.run, "cordon mcp", "cordon run --help");
	rc = parse_options(argc, argv, &m);
	if (rc) {
		status = rc < 0 ? CLI_EXIT_OK : rc;
		goto out;
	}
	if (optind >= argc) {
		status = usage_error("no server given (cordon mcp [OPTIONS] "
				     "-- SERVER ...)",
				     NULL);
		goto out;
	}
	if (m.run.sbx.argv_only || m.run.nallow || m.run.cap_set) {
		status = usage_error("--argv-only, --allow-cmd and "
				     "--output-cap do not apply to an MCP "
				     "server (its stdin and stdout are the "
				     "protocol)",
				     NULL);
		goto out;
	}
	if (m.name) {
		if (!name_ok(m.name)) {
			status = usage_error(
				"--name: 1 to 64 of A-Z a-z 0-9 _ . - without "
				"\"__\", not",
				m.name);
			goto out;
		}
	} else {
		derive_name(argv + optind, m.name_buf, sizeof(m.name_buf));
		m.name = m.name_buf;
	}
	if (m.run.report && strcmp(m.run.report, "-") == 0) {
		status = usage_error("--report -: stdout is the protocol; "
				     "name a file",
				     NULL);
		goto out;
	}
	if (m.sandbox) {
		rc = cli_runopts_check(&m.run);
		if (rc) {
			status = rc;
			goto out;
		}
	}

	m.run.config = m.config;
	if (m.sandbox ? cli_runopts_load_config(&m.run, &cfg) != 0
		      : cli_load_config(&cfg, m.config, NULL) != 0)
		goto out;
	if (m.sandbox && cli_runopts_apply_config(&m.run, cfg) != 0)
		goto out;

	ctx.workspace = m.sandbox ? m.run.sbx.workspace : NULL;
	if (cordon_policy_new(cfg, &ctx, &pol, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon mcp: %s\n", diag.message);
		goto out;
	}
	ap = NULL;
	if (!cfg->approvals_path &&
	    cli_approvals_default_path(ap_buf, sizeof(ap_buf)) == 0)
		ap = ap_buf;
	if (cordon_policy_open_approvals(pol, ap) != CORDON_OK) {
		fputs("cordon mcp: out of memory\n", stderr);
		goto out;
	}
	for (size_t i = 0; i < cordon_policy_warning_count(pol); i++)
		fprintf(stderr, "cordon mcp: warning: %s\n",
			cordon_policy_warning(pol, i));
	if (!m.prompt)
		(void)cli_broker_attach(&broker, pol, cfg, "mcp",
					m.sandbox ? sandbox_enforcement() :
						    "none");
	if (m.prompt) {
		tp.fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
		tp.timeout_s = cfg->approvals_timeout_s;
		if (tp.fd >= 0)
			cordon_policy_set_prompt(pol, cli_tty_ask, &tp);
		else
			fprintf(stderr,
				"cordon mcp: --prompt: no terminal (%s): "
				"calls that ask are denied\n",
				strerror(errno));
	}

	if (cli_open_audit(cfg, m.audit_log, &audit) != 0)
		goto out;

	pins_path = m.pins ? m.pins : cfg->mcp_pins_path;
	if (!pins_path) {
		if (pins_default_path(pins_buf, sizeof(pins_buf)) != 0) {
			fputs("cordon mcp: mcp.pins_path: no default place for "
			      "the pins file (HOME and XDG_STATE_HOME are "
			      "unset or relative); set mcp.pins_path or "
			      "--pins\n",
			      stderr);
			goto out;
		}
		pins_path = pins_buf;
	}
	if (pins_open(pins_path, &pins, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon mcp: %s\n", diag.message);
		goto out;
	}

	if (!m.session) {
		new_session(m.name, m.session_buf, sizeof(m.session_buf));
		m.session = m.session_buf;
	}
	/* the sandbox's egress proxy (--network proxy) records its decisions
	 * too, from the process that runs the sandbox */
	proxy_audit.audit = audit;
	proxy_audit.session = m.session;
	m.run.sbx.proxy_decision = cli_audit_proxy_decision;
	m.run.sbx.proxy_decision_ctx = &proxy_audit;
	memset(&go, 0, sizeof(go));
	go.name = m.name;
	go.argv = argv + optind;
	go.policy = pol;
	go.decide_flags = 0;
	go.audit = audit;
	go.pins = pins;
	go.warn_pending = m.warn_pending ||
			  (cfg->mcp_pending_tools &&
			   strcmp(cfg->mcp_pending_tools, "warn") == 0);
	go.new_tools_trusted = m.trust_new ||
			       (cfg->mcp_new_tools &&
				strcmp(cfg->mcp_new_tools, "trust") == 0);
	go.session = m.session;
	go.sandbox = m.sandbox ? &m.run.sbx : NULL;
	go.sandbox_done = sandbox_done;
	go.sandbox_done_arg = &m.run;
	go.client_in = 0;
	go.client_out = 1;
	/* stdout is the protocol: nothing else may be written to it */
	fflush(stdout);
	status = mcp_gateway_run(&go, &diag);
	if (status == MCP_EXIT_SETUP && diag.message[0])
		fprintf(stderr, "cordon mcp: %s\n", diag.message);
out:
	if (audit && cordon_audit_close(audit) != CORDON_OK && status == 0)
		status = CLI_EXIT_FAILURE;
	if (tp.fd >= 0)
		close(tp.fd);
	pins_free(pins);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
	cli_runopts_free(&m.run);
	return status;
}
