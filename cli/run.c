/* cordon run — run ARGV in the sandbox and report how much was enforced.
 *
 * Exit status: the command's; 124 when the time-out killed it; 125 when
 * cordon failed before the command started (a usage or configuration error
 * included, as env(1) and timeout(1) do: 2 could be the command's own);
 * 126 when the command could not be executed or --argv-only blocked it;
 * 127 when it was not found.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "envfilter.h"
#include "proxy.h"
#include "sandbox.h"

#include "banned.h"

#define RUN_EXIT_SETUP 125
#define RUN_EXIT_BLOCKED 126
#define RUN_MAX_LIST 256
#define RUN_ARGV_ONLY_TIMEOUT 30
#define RUN_ARGV_ONLY_CAP (1024 * 1024)
#define RUN_MAX_TIMEOUT (7UL * 24 * 3600) /* a week */
#define RUN_MAX_MEMORY_MB (1UL << 30) /* an exbibyte */
#define RUN_MAX_PIDS 4194304UL /* the kernel's pid_max ceiling */
#define RUN_MAX_CAP (1UL << 30)

void cli_run_usage(FILE *out)
{
	fputs("usage: cordon run [OPTIONS] -- ARGV...\n"
	      "       cordon run --probe\n"
	      "\n"
	      "Run ARGV with kernel-enforced limits: the host read-only "
	      "except\n"
	      "the writable roots, credentials masked, a private /tmp and "
	      "/proc,\n"
	      "no network, a filtered environment, Landlock and seccomp.\n"
	      "\n"
	      "options:\n"
	      "  --workspace DIR       the writable workspace (default: the "
	      "current\n"
	      "                        directory)\n"
	      "  --write PATH          another writable root (repeatable)\n"
	      "  --deny-read PATH|GLOB hide a path, or every match of a glob "
	      "such as\n"
	      "                        '**/*.pem' (repeatable; relative to the "
	      "workspace)\n"
	      "  --no-read-home        hide $HOME except the workspace, "
	      "toolchains and\n"
	      "                        shell rc files\n"
	      "  --cache-writes        make package caches (~/.cache, ~/.npm, "
	      "~/.cargo/registry\n"
	      "                        …) writable\n"
	      "  --network MODE        none (default: loopback only), host, "
	      "or proxy (only\n"
	      "                        the egress proxy, through "
	      "HTTP_PROXY, HTTPS_PROXY\n"
	      "                        and ALL_PROXY)\n"
	      "  --allow-host HOST     a host the proxy lets through: host, "
	      "*.domain,\n"
	      "                        host:port, an IP literal "
	      "(repeatable; implies\n"
	      "                        --network proxy; with "
	      "network.allowedDomains)\n"
	      "  --deny-host HOST      a host the proxy refuses, over any "
	      "allow (repeatable;\n"
	      "                        with network.deniedDomains)\n"
	      "  --control-port P      the proxy's control endpoint on the "
	      "host's\n"
	      "                        127.0.0.1:P, outside the sandbox: "
	      "POST /allow\n"
	      "                        (body: one host entry) adds a host "
	      "for this run,\n"
	      "                        GET /status lists the lists (implies "
	      "--network\n"
	      "                        proxy; needs --control-token-env)\n"
	      "  --control-token-env VAR\n"
	      "                        the bearer token is in $VAR (at least "
	      "16 bytes);\n"
	      "                        VAR is removed from the command's "
	      "environment\n"
	      "  --inject-host H       credential injection (implies "
	      "--network proxy):\n"
	      "                        plain HTTP to http://H/ leaves as "
	      "HTTPS to H with\n"
	      "                        the certificate checked, client "
	      "credentials dropped\n"
	      "                        and the secret added; CONNECT to H "
	      "is refused\n"
	      "  --inject-secret-env VAR\n"
	      "                        the secret is in $VAR (required); VAR "
	      "is removed\n"
	      "                        from the command's environment\n"
	      "  --inject-header NAME  its header (default Authorization)\n"
	      "  --inject-format F     its value, %s for the secret (default "
	      "'Bearer %s')\n"
	      "  --inject-cacert FILE  also trust the CAs in FILE (PEM)\n"
	      "  --inject-port P       the HTTPS port of H (default 443)\n"
	      "  --inject-allow-loopback\n"
	      "                        DANGEROUS, tests only: H may resolve "
	      "to loopback\n"
	      "  --memory MB           memory cap (default 4096; 0: none)\n"
	      "  --cpu SEC             CPU time cap\n"
	      "  --pids N              process cap (default 1024)\n"
	      "  --timeout SEC         kill the whole tree after SEC seconds "
	      "(status 124)\n"
	      "  --mode MODE           off, auto (default: best available, "
	      "warns when\n"
	      "                        degraded) or strict (refuse unless "
	      "fully enforced)\n"
	      "  --backend NAME        namespaces or landlock (default: the "
	      "best that\n"
	      "                        works here)\n"
	      "  --no-unix-sockets     forbid new unix sockets\n"
	      "  --report FILE|-       write the run report (JSON) to FILE, or "
	      "stdout\n"
	      "  --argv-only           the lesson-6 shell: ARGV[0] must be in "
	      "--allow-cmd,\n"
	      "                        stdin is /dev/null, 30 s time-out, "
	      "1 MiB "
	      "of output\n"
	      "  --allow-cmd LIST      commands allowed with --argv-only "
	      "(comma-separated,\n"
	      "                        repeatable)\n"
	      "  --output-cap BYTES    keep at most BYTES of output (0: no "
	      "cap)\n"
	      "  --config FILE         a configuration file, applied after the "
	      "user and\n"
	      "                        project files\n"
	      "  --probe               try each backend now and say which "
	      "works "
	      "and why\n"
	      "  --help                this text\n"
	      "\n"
	      "Exit status: the command's; 124 time-out; 125 cordon failed "
	      "before the\n"
	      "command started; 126 not executable or blocked; 127 not "
	      "found.\n",
	      out);
}

struct run_opts {
	struct sbx_opts sbx;
	const char *config;
	const char *report;
	const char *write[RUN_MAX_LIST];
	size_t nwrite;
	const char *deny[RUN_MAX_LIST];
	size_t ndeny;
	const char *allow[RUN_MAX_LIST];
	size_t nallow;
	char *allow_buf[RUN_MAX_LIST]; /* the --allow-cmd arguments, split */
	size_t nallow_buf;
	/* the proxy's lists: the options, then the configuration's */
	const char *hosts[2 * RUN_MAX_LIST];
	size_t nhosts;
	const char *deny_hosts[2 * RUN_MAX_LIST];
	size_t ndeny_hosts;
	bool network_set;
	/* the control endpoint */
	unsigned long control_port;
	bool control_set;
	const char *token_env;
	const char *secret_env; /* --inject-secret-env */
	unsigned long inject_port;
	char control_listen[32];
	struct cfg_strlist env_deny; /* the deny list, token_env, secret_env */
	bool mode_set, memory_set, timeout_set, cpu_set, cap_set, probe;
};

enum {
	OPT_WORKSPACE = 256,
	OPT_WRITE,
	OPT_DENY_READ,
	OPT_NO_READ_HOME,
	OPT_CACHE_WRITES,
	OPT_NETWORK,
	OPT_ALLOW_HOST,
	OPT_DENY_HOST,
	OPT_CONTROL_PORT,
	OPT_CONTROL_TOKEN,
	OPT_INJ_HOST,
	OPT_INJ_ENV,
	OPT_INJ_HEADER,
	OPT_INJ_FORMAT,
	OPT_INJ_CACERT,
	OPT_INJ_PORT,
	OPT_INJ_LOOPBACK,
	OPT_MEMORY,
	OPT_CPU,
	OPT_PIDS,
	OPT_TIMEOUT,
	OPT_MODE,
	OPT_BACKEND,
	OPT_REPORT,
	OPT_ARGV_ONLY,
	OPT_ALLOW_CMD,
	OPT_NO_UNIX,
	OPT_OUTPUT_CAP,
	OPT_CONFIG,
	OPT_PROBE,
	OPT_HELP,
};

static const struct option run_longopts[] = {
	{ "workspace", required_argument, NULL, OPT_WORKSPACE },
	{ "write", required_argument, NULL, OPT_WRITE },
	{ "deny-read", required_argument, NULL, OPT_DENY_READ },
	{ "no-read-home", no_argument, NULL, OPT_NO_READ_HOME },
	{ "cache-writes", no_argument, NULL, OPT_CACHE_WRITES },
	{ "network", required_argument, NULL, OPT_NETWORK },
	{ "allow-host", required_argument, NULL, OPT_ALLOW_HOST },
	{ "deny-host", required_argument, NULL, OPT_DENY_HOST },
	{ "control-port", required_argument, NULL, OPT_CONTROL_PORT },
	{ "control-token-env", required_argument, NULL, OPT_CONTROL_TOKEN },
	{ "inject-host", required_argument, NULL, OPT_INJ_HOST },
	{ "inject-secret-env", required_argument, NULL, OPT_INJ_ENV },
	{ "inject-header", required_argument, NULL, OPT_INJ_HEADER },
	{ "inject-format", required_argument, NULL, OPT_INJ_FORMAT },
	{ "inject-cacert", required_argument, NULL, OPT_INJ_CACERT },
	{ "inject-port", required_argument, NULL, OPT_INJ_PORT },
	{ "inject-allow-loopback", no_argument, NULL, OPT_INJ_LOOPBACK },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "pids", required_argument, NULL, OPT_PIDS },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "argv-only", no_argument, NULL, OPT_ARGV_ONLY },
	{ "allow-cmd", required_argument, NULL, OPT_ALLOW_CMD },
	{ "no-unix-sockets", no_argument, NULL, OPT_NO_UNIX },
	{ "output-cap", required_argument, NULL, OPT_OUTPUT_CAP },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "probe", no_argument, NULL, OPT_PROBE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt,
							     ...)
{
	va_list ap;

	fputs("cordon run: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(cordon run --help for the options)\n", stderr);
	return RUN_EXIT_SETUP;
}

/* A decimal in [0, max]; the option's name is in the message. */
static int parse_ulong(const char *opt, const char *s, unsigned long max,
		       unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return usage_error("%s: '%s' is not a number", opt, s);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end)
		return usage_error("%s: '%s' is not a number", opt, s);
	if (v > max)
		return usage_error("%s: %lu is over the limit %lu", opt, v,
				   max);
	*out = v;
	return 0;
}

static int add_list(const char **list, size_t *n, const char *opt,
		    const char *v)
{
	if (*n >= RUN_MAX_LIST)
		return usage_error("%s: more than %d entries", opt,
				   RUN_MAX_LIST);
	if (!*v)
		return usage_error("%s: empty value", opt);
	list[(*n)++] = v;
	return 0;
}

/* The configuration's network lists after the options' (at most
 * 2 * RUN_MAX_LIST in all). */
static int add_cfg_hosts(const char **list, size_t *n,
			 const struct cfg_strlist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++) {
		if (*n >= 2 * RUN_MAX_LIST) {
			fprintf(stderr,
				"cordon run: %s: more than %d hosts in all\n",
				name, 2 * RUN_MAX_LIST);
			return -1;
		}
		if (l->v[i][0])
			list[(*n)++] = l->v[i];
	}
	return 0;
}

/* Splits a comma-separated --allow-cmd into names (the copy is kept). */
static int add_allow(struct run_opts *r, const char *v)
{
	char *copy, *s, *save = NULL;

	if (r->nallow_buf >= RUN_MAX_LIST)
		return usage_error("--allow-cmd: more than %d entries",
				   RUN_MAX_LIST);
	copy = strdup(v);
	if (!copy) {
		fputs("cordon run: out of memory\n", stderr);
		return RUN_EXIT_SETUP;
	}
	r->allow_buf[r->nallow_buf++] = copy;
	for (s = strtok_r(copy, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		while (*s == ' ')
			s++;
		if (strchr(s, '/'))
			return usage_error("--allow-cmd: '%s': names only, "
					   "not paths",
					   s);
		if (*s && add_list(r->allow, &r->nallow, "--allow-cmd", s))
			return RUN_EXIT_SETUP;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct run_opts *r)
{
	unsigned long v;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", run_longopts, NULL)) != -1) {
		rc = 0;
		switch (c) {
		case OPT_WORKSPACE:
			r->sbx.workspace = optarg;
			break;
		case OPT_WRITE:
			rc = add_list(r->write, &r->nwrite, "--write", optarg);
			break;
		case OPT_DENY_READ:
			rc = add_list(r->deny, &r->ndeny, "--deny-read",
				      optarg);
			break;
		case OPT_NO_READ_HOME:
			r->sbx.no_read_home = true;
			break;
		case OPT_CACHE_WRITES:
			r->sbx.cache_writes = true;
			break;
		case OPT_NETWORK:
			r->network_set = true;
			if (strcmp(optarg, "none") == 0)
				r->sbx.network = SBX_NET_NONE;
			else if (strcmp(optarg, "host") == 0)
				r->sbx.network = SBX_NET_HOST;
			else if (strcmp(optarg, "proxy") == 0)
				r->sbx.network = SBX_NET_PROXY;
			else
				rc = usage_error("--network: '%s' is not none, "
						 "host or proxy",
						 optarg);
			break;
		case OPT_ALLOW_HOST:
			rc = add_list(r->hosts, &r->nhosts, "--allow-host",
				      optarg);
			break;
		case OPT_DENY_HOST:
			rc = add_list(r->deny_hosts, &r->ndeny_hosts,
				      "--deny-host", optarg);
			break;
		case OPT_CONTROL_PORT:
			rc = parse_ulong("--control-port", optarg, 65535,
					 &r->control_port);
			if (!rc && r->control_port == 0)
				rc = usage_error("--control-port: 0 is not a "
						 "port");
			r->control_set = true;
			break;
		case OPT_CONTROL_TOKEN:
			r->token_env = optarg;
			break;
		case OPT_INJ_HOST:
			r->sbx.inject_host = optarg;
			break;
		case OPT_INJ_ENV:
			r->secret_env = optarg;
			break;
		case OPT_INJ_HEADER:
			r->sbx.inject_header = optarg;
			break;
		case OPT_INJ_FORMAT:
			r->sbx.inject_format = optarg;
			break;
		case OPT_INJ_CACERT:
			r->sbx.inject_cacert = optarg;
			break;
		case OPT_INJ_PORT:
			rc = parse_ulong("--inject-port", optarg, 65535,
					 &r->inject_port);
			if (!rc && r->inject_port == 0)
				rc = usage_error("--inject-port: 0 is not a "
						 "port");
			r->sbx.inject_port = (unsigned)r->inject_port;
			break;
		case OPT_INJ_LOOPBACK:
			r->sbx.inject_allow_loopback = true;
			break;
		case OPT_MEMORY:
			rc = parse_ulong("--memory", optarg, RUN_MAX_MEMORY_MB,
					 &r->sbx.memory_mb);
			r->memory_set = true;
			break;
		case OPT_CPU:
			rc = parse_ulong("--cpu", optarg, RUN_MAX_TIMEOUT,
					 &r->sbx.cpu_s);
			r->cpu_set = true;
			break;
		case OPT_PIDS:
			rc = parse_ulong("--pids", optarg, RUN_MAX_PIDS,
					 &r->sbx.pids);
			break;
		case OPT_TIMEOUT:
			rc = parse_ulong("--timeout", optarg, RUN_MAX_TIMEOUT,
					 &r->sbx.timeout_s);
			r->timeout_set = true;
			break;
		case OPT_MODE:
			r->mode_set = true;
			if (strcmp(optarg, "off") == 0)
				r->sbx.mode = SBX_MODE_OFF;
			else if (strcmp(optarg, "auto") == 0)
				r->sbx.mode = SBX_MODE_AUTO;
			else if (strcmp(optarg, "strict") == 0)
				r->sbx.mode = SBX_MODE_STRICT;
			else
				rc = usage_error("--mode: '%s' is not off, "
						 "auto or strict",
						 optarg);
			break;
		case OPT_BACKEND:
			if (strcmp(optarg, "namespaces") == 0)
				r->sbx.backend = SBX_BACKEND_NAMESPACES;
			else if (strcmp(optarg, "landlock") == 0)
				r->sbx.backend = SBX_BACKEND_LANDLOCK;
			else
				rc = usage_error("--backend: '%s' is not "
						 "namespaces or landlock",
						 optarg);
			break;
		case OPT_REPORT:
			r->report = optarg;
			break;
		case OPT_ARGV_ONLY:
			r->sbx.argv_only = true;
			break;
		case OPT_ALLOW_CMD:
			rc = add_allow(r, optarg);
			break;
		case OPT_NO_UNIX:
			r->sbx.no_unix_sockets = true;
			break;
		case OPT_OUTPUT_CAP:
			rc = parse_ulong("--output-cap", optarg, RUN_MAX_CAP,
					 &v);
			r->sbx.output_cap = v;
			r->cap_set = true;
			break;
		case OPT_CONFIG:
			r->config = optarg;
			break;
		case OPT_PROBE:
			r->probe = true;
			break;
		case OPT_HELP:
		case 'h':
			cli_run_usage(stdout);
			return -1;
		default:
			if (optopt && optopt < 256)
				rc = usage_error("unknown option '-%c'",
						 optopt);
			else
				rc = usage_error("unknown or incomplete option "
						 "'%s'",
						 argv[optind - 1]);
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* The report to FILE or stdout ("-"). */
static int write_report(const char *where, const struct sbx_report *rep)
{
	char *json = sbx_report_json(rep);
	FILE *f;
	int rc = 0;

	if (!json) {
		fputs("cordon run: out of memory writing the report\n", stderr);
		return -1;
	}
	if (strcmp(where, "-") == 0) {
		fflush(stdout);
		if (printf("%s\n", json) < 0 || fflush(stdout) != 0)
			rc = -1;
	} else {
		f = fopen(where, "we");
		if (!f || fprintf(f, "%s\n", json) < 0)
			rc = -1;
		if (f && fclose(f) != 0)
			rc = -1;
	}
	if (rc)
		fprintf(stderr, "cordon run: --report %s: %s\n", where,
			strerror(errno));
	free(json);
	return rc;
}

static int run_probe(void)
{
	char why[1024];
	int best = sbx_probe(true, why, sizeof(why));

	fputs(why, stdout);
	if (best < 0) {
		puts("best: none");
		return RUN_EXIT_SETUP;
	}
	printf("best: %s\n",
	       best == SBX_BACKEND_NAMESPACES ? "namespaces" : "landlock");
	return CLI_EXIT_OK;
}

/* The warning of auto mode, printed before the command starts. */
static void warn_degraded(const struct sbx_report *rep, void *arg)
{
	(void)arg;
	if (strcmp(rep->enforcement, "full") == 0)
		return;
	fprintf(stderr, "cordon run: warning: enforcement is %s (%s backend):",
		rep->enforcement, rep->backend);
	for (size_t i = 0; i < rep->nnot_enforced; i++)
		fprintf(stderr, "%s %s", i ? ";" : "", rep->not_enforced[i]);
	fputc('\n', stderr);
}

static enum sbx_mode mode_from_cfg(enum cfg_sandbox_mode m)
{
	switch (m) {
	case CFG_SANDBOX_OFF:
		return SBX_MODE_OFF;
	case CFG_SANDBOX_STRICT:
		return SBX_MODE_STRICT;
	case CFG_SANDBOX_AUTO:
	default:
		return SBX_MODE_AUTO;
	}
}

/* --control-port and --control-token-env: the proxy mode, the token
 * from the environment (never argv). */
static int control_setup(struct run_opts *r)
{
	const char *t;

	if (r->network_set && r->sbx.network != SBX_NET_PROXY)
		return usage_error("--control-port needs --network proxy");
	r->sbx.network = SBX_NET_PROXY;
	if (!*r->token_env || strspn(r->token_env,
				     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "abcdefghijklmnopqrstuvwxyz"
				     "0123456789_") != strlen(r->token_env))
		return usage_error("--control-token-env: '%s' is not a "
				   "variable name",
				   r->token_env);
	t = getenv(r->token_env);
	if (!t)
		return usage_error("--control-token-env: $%s is not set",
				   r->token_env);
	if (strlen(t) < PX_CONTROL_TOKEN_MIN)
		return usage_error("--control-token-env: $%s is shorter than "
				   "%d bytes",
				   r->token_env, PX_CONTROL_TOKEN_MIN);
	(void)snprintf(r->control_listen, sizeof(r->control_listen),
		       "127.0.0.1:%lu", r->control_port);
	r->sbx.control_listen = r->control_listen;
	r->sbx.control_token = t;
	return 0;
}

/* The token's and the secret's variables join the environment deny-list
 * of this run, so the command never sees them, whatever the allow-list
 * says. */
static int add_token_deny(struct run_opts *r)
{
	const struct cfg_strlist *d =
		r->sbx.env_deny ? r->sbx.env_deny : envf_default_deny();
	size_t n = d ? d->n : 0;

	r->env_deny.v = calloc(n + 2, sizeof(char *));
	if (!r->env_deny.v) {
		fputs("cordon run: out of memory\n", stderr);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		r->env_deny.v[i] = d->v[i];
	if (r->token_env)
		r->env_deny.v[n++] = (char *)r->token_env;
	if (r->secret_env)
		r->env_deny.v[n++] = (char *)r->secret_env;
	r->env_deny.n = n;
	r->sbx.env_deny = &r->env_deny;
	return 0;
}

/* --inject-*: the proxy mode, the secret from the environment (never
 * argv). */
static int inject_setup(struct run_opts *r)
{
	const char *v = r->secret_env;

	if ((r->sbx.inject_host != NULL) != (v != NULL))
		return usage_error("--inject-host and --inject-secret-env go "
				   "together");
	if (!v) {
		if (r->sbx.inject_header || r->sbx.inject_format ||
		    r->sbx.inject_cacert || r->sbx.inject_port ||
		    r->sbx.inject_allow_loopback)
			return usage_error("the --inject-* options need "
					   "--inject-host");
		return 0;
	}
	if (r->network_set && r->sbx.network != SBX_NET_PROXY)
		return usage_error("--inject-host needs --network proxy");
	r->sbx.network = SBX_NET_PROXY;
	if (!*v || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "abcdefghijklmnopqrstuvwxyz"
			     "0123456789_") != strlen(v))
		return usage_error("--inject-secret-env: '%s' is not a "
				   "variable name",
				   v);
	r->sbx.inject_secret = getenv(v);
	if (!r->sbx.inject_secret)
		return usage_error("--inject-secret-env: $%s is not set", v);
	return 0;
}

int cli_run(int argc, char **argv)
{
	struct run_opts r;
	struct cordon_config *cfg = NULL;
	struct sbx_report rep;
	struct cordon_diag diag;
	int rc;

	memset(&r, 0, sizeof(r));
	r.sbx.memory_mb = 4096;
	r.sbx.mode = SBX_MODE_AUTO;
	rc = parse_options(argc, argv, &r);
	if (rc < 0) {
		rc = CLI_EXIT_OK;
		goto out;
	}
	if (rc)
		goto out;
	if (r.probe) {
		rc = run_probe();
		goto out;
	}
	if (optind >= argc) {
		rc = usage_error("no command given (cordon run [OPTIONS] -- "
				 "ARGV...)");
		goto out;
	}
	if (r.nhosts || r.ndeny_hosts) {
		/* --allow-host implies the proxy; with another mode asked
		 * for explicitly it would silently do nothing. */
		if (r.network_set && r.sbx.network != SBX_NET_PROXY) {
			rc = usage_error("--allow-host and --deny-host need "
					 "--network proxy");
			goto out;
		}
		r.sbx.network = SBX_NET_PROXY;
	}
	if (r.control_set != (r.token_env != NULL)) {
		rc = usage_error("--control-port and --control-token-env go "
				 "together");
		goto out;
	}
	if (r.control_set) {
		rc = control_setup(&r);
		if (rc)
			goto out;
	}
	rc = inject_setup(&r);
	if (rc)
		goto out;
	if (r.sbx.argv_only && r.nallow == 0) {
		rc = usage_error("--argv-only needs --allow-cmd LIST");
		goto out;
	}

	if (cli_load_config(&cfg, r.config, r.sbx.workspace) != 0) {
		rc = RUN_EXIT_SETUP;
		goto out;
	}
	if (cfg) {
		if (!r.mode_set)
			r.sbx.mode = mode_from_cfg(cfg->sandbox_mode);
		if (!r.memory_set)
			r.sbx.memory_mb = cfg->max_memory_mb;
		else if (cfg->max_memory_mb &&
			 (r.sbx.memory_mb == 0 ||
			  r.sbx.memory_mb > cfg->max_memory_mb))
			r.sbx.memory_mb = cfg->max_memory_mb;
		if (!r.sbx.workspace && cfg->workspace)
			r.sbx.workspace = cfg->workspace;
		r.sbx.env_allow = cfg->restricted_env ? &cfg->allowed_env_vars :
							NULL;
		r.sbx.env_deny = &cfg->env_denylist_patterns;
		r.sbx.deny_ranges =
			(const char *const *)cfg->denied_resolved_addresses.v;
		r.sbx.ndeny_ranges = cfg->denied_resolved_addresses.n;
		if (add_cfg_hosts(r.hosts, &r.nhosts, &cfg->allowed_domains,
				  "network.allowedDomains") ||
		    add_cfg_hosts(r.deny_hosts, &r.ndeny_hosts,
				  &cfg->denied_domains,
				  "network.deniedDomains")) {
			rc = RUN_EXIT_SETUP;
			goto out;
		}
	} else {
		r.sbx.env_allow = envf_default_allow();
		r.sbx.env_deny = envf_default_deny();
	}

	if ((r.control_set || r.secret_env) && add_token_deny(&r) != 0) {
		rc = RUN_EXIT_SETUP;
		goto out;
	}
	r.sbx.write = r.write;
	r.sbx.nwrite = r.nwrite;
	r.sbx.deny_read = r.deny;
	r.sbx.ndeny_read = r.ndeny;
	r.sbx.allow_cmds = r.allow;
	r.sbx.nallow_cmds = r.nallow;
	r.sbx.allow_hosts = r.hosts;
	r.sbx.nallow_hosts = r.nhosts;
	r.sbx.deny_hosts = r.deny_hosts;
	r.sbx.ndeny_hosts = r.ndeny_hosts;
	if (r.sbx.argv_only) {
		r.sbx.stdin_null = 1;
		if (!r.timeout_set)
			r.sbx.timeout_s = RUN_ARGV_ONLY_TIMEOUT;
		/* CPU time never beyond the wall-clock time-out. */
		if (!r.cpu_set)
			r.sbx.cpu_s = r.sbx.timeout_s;
		if (!r.cap_set)
			r.sbx.output_cap = RUN_ARGV_ONLY_CAP;
	}
	/* A forced backend is what the user asked for: no warning. */
	if (r.sbx.mode == SBX_MODE_AUTO && r.sbx.backend == SBX_BACKEND_BEST)
		r.sbx.on_start = warn_degraded;

	if (sbx_run(&r.sbx, argv + optind, &rep, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon run: %s\n", diag.message);
		rc = RUN_EXIT_SETUP;
		goto out;
	}
	if (rep.error[0]) {
		if (strncmp(rep.error, "blocked:", 8) == 0)
			fprintf(stderr, "%s\n", rep.error);
		else
			fprintf(stderr, "cordon run: %s\n", rep.error);
	}
	rc = rep.status;
	if (r.report && write_report(r.report, &rep) != 0 && rc == 0)
		rc = CLI_EXIT_FAILURE;
out:
	for (size_t i = 0; i < r.nallow_buf; i++)
		free(r.allow_buf[i]);
	free(r.env_deny.v);
	cordon_config_free(cfg);
	return rc;
}
