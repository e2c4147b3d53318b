/* runopts — the options of `cordon run`, shared with `cordon mcp --sandbox`
 * (see runopts.h for the order of use).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cli.h"
#include "config.h"
#include "import.h"
#include "cordon.h"
#include "envfilter.h"
#include "proxy.h"
#include "runopts.h"
#include "sandbox.h"

#include "banned.h"

#define RUN_MAX_LIST CLI_RUNOPTS_MAX_LIST
#define RUN_EXIT_SETUP CLI_RUNOPTS_EXIT_SETUP
#define RUN_ARGV_ONLY_TIMEOUT 30
#define RUN_ARGV_ONLY_CAP (1024 * 1024)
#define RUN_MAX_TIMEOUT (7UL * 24 * 3600) /* a week */
#define RUN_MAX_MEMORY_MB (1UL << 30) /* an exbibyte */
#define RUN_MAX_PIDS 4194304UL /* the kernel's pid_max ceiling */
#define RUN_MAX_CAP (1UL << 30)

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
	OPT_SRT_SETTINGS,
	OPT_AUDIT_LOG,
	OPT_NO_PTY,
	OPT_LAST = OPT_NO_PTY,
};

const struct option cli_runopts_longopts[] = {
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
	{ "srt-settings", required_argument, NULL, OPT_SRT_SETTINGS },
	{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
	{ "no-pty", no_argument, NULL, OPT_NO_PTY },
	{ "help", no_argument, NULL, CLI_RUNOPTS_HELP },
	{ NULL, 0, NULL, 0 },
};

void cli_runopts_init(struct cli_runopts *r, const char *prog, const char *help)
{
	memset(r, 0, sizeof(*r));
	r->prog = prog;
	r->help = help;
	r->report_fd = -1;
	r->sbx.memory_mb = 4096;
	r->sbx.mode = SANDBOX_MODE_AUTO;
}

void cli_runopts_free(struct cli_runopts *r)
{
	for (size_t i = 0; i < r->nallow_buf; i++)
		free(r->allow_buf[i]);
	r->nallow_buf = 0;
	free(r->env_deny.v);
	r->env_deny.v = NULL;
	r->env_deny.n = 0;
	if (r->report_fd >= 0)
		close(r->report_fd);
	r->report_fd = -1;
}

bool cli_runopts_owns(int c)
{
	return c >= OPT_WORKSPACE && c <= OPT_LAST;
}

int cli_runopts_usage_error(const struct cli_runopts *r, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", r->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(%s for the options)\n", r->help);
	return RUN_EXIT_SETUP;
}

/* A decimal in [0, max]; the option's name is in the message. */
static int parse_ulong(const struct cli_runopts *r, const char *opt,
		       const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return cli_runopts_usage_error(r, "%s: '%s' is not a number",
					       opt, s);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end)
		return cli_runopts_usage_error(r, "%s: '%s' is not a number",
					       opt, s);
	if (v > max)
		return cli_runopts_usage_error(
			r, "%s: %lu is over the limit %lu", opt, v, max);
	*out = v;
	return 0;
}

static int add_list(const struct cli_runopts *r, const char **list, size_t *n,
		    const char *opt, const char *v)
{
	if (*n >= RUN_MAX_LIST)
		return cli_runopts_usage_error(r, "%s: more than %d entries",
					       opt, RUN_MAX_LIST);
	if (!*v)
		return cli_runopts_usage_error(r, "%s: empty value", opt);
	list[(*n)++] = v;
	return 0;
}

/* The configuration's path lists after the options' (at most
 * RUN_MAX_LIST in all). */
static int add_cfg_paths(const struct cli_runopts *r, const char **list,
			 size_t *n, const struct strlist *l,
			 const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (add_list(r, list, n, name, l->v[i]))
			return RUN_EXIT_SETUP;
	return 0;
}

/* The configuration's network lists after the options' (at most
 * 2 * RUN_MAX_LIST in all). */
static int add_cfg_hosts(const struct cli_runopts *r, const char **list,
			 size_t *n, const struct strlist *l,
			 const char *name)
{
	for (size_t i = 0; i < l->n; i++) {
		if (*n >= 2 * RUN_MAX_LIST) {
			fprintf(stderr, "%s: %s: more than %d hosts in all\n",
				r->prog, name, 2 * RUN_MAX_LIST);
			return -1;
		}
		if (l->v[i][0])
			list[(*n)++] = l->v[i];
	}
	return 0;
}

/* Splits a comma-separated --allow-cmd into names (the copy is kept). */
static int add_allow(struct cli_runopts *r, const char *v)
{
	char *copy, *s, *save = NULL;

	if (r->nallow_buf >= RUN_MAX_LIST)
		return cli_runopts_usage_error(
			r, "--allow-cmd: more than %d entries", RUN_MAX_LIST);
	copy = strdup(v);
	if (!copy) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return RUN_EXIT_SETUP;
	}
	r->allow_buf[r->nallow_buf++] = copy;
	for (s = strtok_r(copy, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		while (*s == ' ')
			s++;
		if (strchr(s, '/'))
			return cli_runopts_usage_error(
				r, "--allow-cmd: '%s': names only, not paths",
				s);
		if (*s && add_list(r, r->allow, &r->nallow, "--allow-cmd", s))
			return RUN_EXIT_SETUP;
	}
	return 0;
}

int cli_runopts_option(struct cli_runopts *r, int c, const char *arg)
{
	unsigned long v = 0;
	int rc = 0;

	switch (c) {
	case OPT_WORKSPACE:
		r->sbx.workspace = arg;
		break;
	case OPT_WRITE:
		rc = add_list(r, r->write, &r->nwrite, "--write", arg);
		break;
	case OPT_DENY_READ:
		rc = add_list(r, r->deny, &r->ndeny, "--deny-read", arg);
		break;
	case OPT_NO_READ_HOME:
		r->sbx.no_read_home = true;
		break;
	case OPT_CACHE_WRITES:
		r->sbx.cache_writes = true;
		break;
	case OPT_NETWORK:
		r->network_set = true;
		if (strcmp(arg, "none") == 0)
			r->sbx.network = SANDBOX_NET_NONE;
		else if (strcmp(arg, "host") == 0)
			r->sbx.network = SANDBOX_NET_HOST;
		else if (strcmp(arg, "proxy") == 0)
			r->sbx.network = SANDBOX_NET_PROXY;
		else
			rc = cli_runopts_usage_error(
				r, "--network: '%s' is not none, host or proxy",
				arg);
		break;
	case OPT_ALLOW_HOST:
		rc = add_list(r, r->hosts, &r->nhosts, "--allow-host", arg);
		break;
	case OPT_DENY_HOST:
		rc = add_list(r, r->deny_hosts, &r->ndeny_hosts, "--deny-host",
			      arg);
		break;
	case OPT_CONTROL_PORT:
		rc = parse_ulong(r, "--control-port", arg, 65535,
				 &r->control_port);
		if (!rc && r->control_port == 0)
			rc = cli_runopts_usage_error(
				r, "--control-port: 0 is not a port");
		r->control_set = true;
		break;
	case OPT_CONTROL_TOKEN:
		r->token_env = arg;
		break;
	case OPT_INJ_HOST:
		r->sbx.inject_host = arg;
		break;
	case OPT_INJ_ENV:
		r->secret_env = arg;
		break;
	case OPT_INJ_HEADER:
		r->sbx.inject_header = arg;
		break;
	case OPT_INJ_FORMAT:
		r->sbx.inject_format = arg;
		break;
	case OPT_INJ_CACERT:
		r->sbx.inject_cacert = arg;
		break;
	case OPT_INJ_PORT:
		rc = parse_ulong(r, "--inject-port", arg, 65535,
				 &r->inject_port);
		if (!rc && r->inject_port == 0)
			rc = cli_runopts_usage_error(
				r, "--inject-port: 0 is not a port");
		r->sbx.inject_port = (unsigned)r->inject_port;
		break;
	case OPT_INJ_LOOPBACK:
		r->sbx.inject_allow_loopback = true;
		break;
	case OPT_MEMORY:
		rc = parse_ulong(r, "--memory", arg, RUN_MAX_MEMORY_MB,
				 &r->sbx.memory_mb);
		r->memory_set = true;
		break;
	case OPT_CPU:
		rc = parse_ulong(r, "--cpu", arg, RUN_MAX_TIMEOUT,
				 &r->sbx.cpu_s);
		r->cpu_set = true;
		break;
	case OPT_PIDS:
		rc = parse_ulong(r, "--pids", arg, RUN_MAX_PIDS, &r->sbx.pids);
		break;
	case OPT_TIMEOUT:
		rc = parse_ulong(r, "--timeout", arg, RUN_MAX_TIMEOUT,
				 &r->sbx.timeout_s);
		r->timeout_set = true;
		break;
	case OPT_MODE:
		r->mode_set = true;
		if (strcmp(arg, "off") == 0)
			r->sbx.mode = SANDBOX_MODE_OFF;
		else if (strcmp(arg, "auto") == 0)
			r->sbx.mode = SANDBOX_MODE_AUTO;
		else if (strcmp(arg, "strict") == 0)
			r->sbx.mode = SANDBOX_MODE_STRICT;
		else
			rc = cli_runopts_usage_error(
				r, "--mode: '%s' is not off, auto or strict",
				arg);
		break;
	case OPT_BACKEND:
		if (strcmp(arg, "namespaces") == 0)
			r->sbx.backend = SANDBOX_BACKEND_NAMESPACES;
		else if (strcmp(arg, "landlock") == 0)
			r->sbx.backend = SANDBOX_BACKEND_LANDLOCK;
		else
			rc = cli_runopts_usage_error(
				r,
				"--backend: '%s' is not namespaces or "
				"landlock",
				arg);
		break;
	case OPT_REPORT:
		r->report = arg;
		break;
	case OPT_ARGV_ONLY:
		r->sbx.argv_only = true;
		break;
	case OPT_ALLOW_CMD:
		rc = add_allow(r, arg);
		break;
	case OPT_NO_UNIX:
		r->sbx.no_unix_sockets = true;
		break;
	case OPT_NO_PTY:
		r->sbx.no_pty = true;
		break;
	case OPT_OUTPUT_CAP:
		rc = parse_ulong(r, "--output-cap", arg, RUN_MAX_CAP, &v);
		r->sbx.output_cap = v;
		r->cap_set = true;
		break;
	case OPT_CONFIG:
		r->config = arg;
		break;
	case OPT_PROBE:
		r->probe = true;
		break;
	case OPT_SRT_SETTINGS:
		r->srt_settings = arg;
		break;
	case OPT_AUDIT_LOG:
		r->audit_log = arg;
		break;
	default:
		rc = cli_runopts_usage_error(r, "unknown option code %d", c);
		break;
	}
	return rc;
}

/* --report FILE is opened before the run, and written through that
 * descriptor after it: a symlink or another file the command puts at
 * FILE's place in a writable root while it runs is not followed (cordon
 * would write there with the caller's rights). The final name is not
 * followed either (O_NOFOLLOW), and only a regular file with one link is
 * taken. 0, or a setup error (reported). */
static int open_report(struct cli_runopts *r)
{
	struct stat st;
	int fd;

	if (!r->report || strcmp(r->report, "-") == 0 || r->report_fd >= 0)
		return 0;
	fd = open(r->report,
		  O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		fprintf(stderr, "%s: --report %s: %s%s\n", r->prog, r->report,
			strerror(errno),
			errno == ELOOP ? " (a symlink: refused)" : "");
		return RUN_EXIT_SETUP;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink > 1) {
		fprintf(stderr,
			"%s: --report %s: not a regular file with one link: "
			"refused\n",
			r->prog, r->report);
		close(fd);
		return RUN_EXIT_SETUP;
	}
	r->report_fd = fd;
	return 0;
}

/* Does FILE still name the file opened before the run? */
static bool report_replaced(const struct cli_runopts *r)
{
	struct stat a, b;

	if (fstat(r->report_fd, &a) != 0 || lstat(r->report, &b) != 0)
		return true;
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

/* The report to FILE (through the descriptor opened before the run,
 * emptied first) or stdout ("-"). */
int cli_runopts_write_report(const struct cli_runopts *r,
			     const struct sandbox_report *rep)
{
	char *json;
	int rc = 0;

	if (!r->report)
		return 0;
	json = sandbox_report_json(rep);
	if (!json) {
		fprintf(stderr, "%s: out of memory writing the report\n",
			r->prog);
		return -1;
	}
	if (strcmp(r->report, "-") == 0) {
		fflush(stdout);
		if (printf("%s\n", json) < 0 || fflush(stdout) != 0)
			rc = -1;
	} else if (r->report_fd < 0) {
		errno = EBADF; /* cli_runopts_check did not open it */
		rc = -1;
	} else {
		size_t len = strlen(json), off = 0;

		json[len] = '\n'; /* written with its newline, no NUL */
		if (ftruncate(r->report_fd, 0) != 0 ||
		    lseek(r->report_fd, 0, SEEK_SET) != 0)
			rc = -1;
		while (rc == 0 && off < len + 1) {
			ssize_t n =
				write(r->report_fd, json + off, len + 1 - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				rc = -1;
				break;
			}
			off += (size_t)n;
		}
		if (rc == 0 && report_replaced(r)) {
			fprintf(stderr,
				"%s: --report %s: replaced during the run (a "
				"symlink or another file now): the report went "
				"to the file opened before it, not there\n",
				r->prog, r->report);
			free(json);
			return -1;
		}
	}
	if (rc)
		fprintf(stderr, "%s: --report %s: %s\n", r->prog, r->report,
			strerror(errno));
	free(json);
	return rc;
}

int cli_runopts_probe(void)
{
	char why[1024];
	int best = sandbox_probe(true, why, sizeof(why));

	fputs(why, stdout);
	if (best < 0) {
		puts("best: none");
		return RUN_EXIT_SETUP;
	}
	printf("best: %s\n",
	       best == SANDBOX_BACKEND_NAMESPACES ? "namespaces" : "landlock");
	return CLI_EXIT_OK;
}

/* The warning of auto mode, printed before the command starts (arg: the
 * program name for the prefix). */
static void warn_degraded(const struct sandbox_report *rep, void *arg)
{
	const char *prog = arg;

	if (strcmp(rep->enforcement, "full") == 0)
		return;
	fprintf(stderr, "%s: warning: enforcement is %s (%s backend):", prog,
		rep->enforcement, rep->backend);
	for (size_t i = 0; i < rep->nnot_enforced; i++)
		fprintf(stderr, "%s %s", i ? ";" : "", rep->not_enforced[i]);
	fputc('\n', stderr);
}

static enum sandbox_mode mode_from_cfg(enum config_sandbox_mode m)
{
	switch (m) {
	case CONFIG_SANDBOX_OFF:
		return SANDBOX_MODE_OFF;
	case CONFIG_SANDBOX_STRICT:
		return SANDBOX_MODE_STRICT;
	case CONFIG_SANDBOX_AUTO:
	default:
		return SANDBOX_MODE_AUTO;
	}
}

/* --control-port and --control-token-env: the proxy mode, the token
 * from the environment (never argv). */
static int control_setup(struct cli_runopts *r)
{
	const char *t;

	if (r->network_set && r->sbx.network != SANDBOX_NET_PROXY)
		return cli_runopts_usage_error(
			r, "--control-port needs --network proxy");
	r->sbx.network = SANDBOX_NET_PROXY;
	if (!*r->token_env ||
	    strspn(r->token_env, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "abcdefghijklmnopqrstuvwxyz"
				 "0123456789_") != strlen(r->token_env))
		return cli_runopts_usage_error(
			r, "--control-token-env: '%s' is not a variable name",
			r->token_env);
	t = getenv(r->token_env);
	if (!t)
		return cli_runopts_usage_error(
			r, "--control-token-env: $%s is not set", r->token_env);
	if (strlen(t) < PROXY_CONTROL_TOKEN_MIN)
		return cli_runopts_usage_error(
			r, "--control-token-env: $%s is shorter than %d bytes",
			r->token_env, PROXY_CONTROL_TOKEN_MIN);
	(void)snprintf(r->control_listen, sizeof(r->control_listen),
		       "127.0.0.1:%lu", r->control_port);
	r->sbx.control_listen = r->control_listen;
	r->sbx.control_token = t;
	return 0;
}

/* The token's and the secret's variables join the environment deny-list
 * of this run, so the command never sees them, whatever the allow-list
 * says. */
static int add_token_deny(struct cli_runopts *r)
{
	const struct strlist *d = r->sbx.env_deny ? r->sbx.env_deny :
							envfilter_default_deny();
	size_t n = d ? d->n : 0;

	free(r->env_deny.v);
	r->env_deny.v = calloc(n + 2, sizeof(char *));
	if (!r->env_deny.v) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
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
static int inject_setup(struct cli_runopts *r)
{
	const char *v = r->secret_env;

	if ((r->sbx.inject_host != NULL) != (v != NULL))
		return cli_runopts_usage_error(
			r, "--inject-host and --inject-secret-env go together");
	if (!v) {
		if (r->sbx.inject_header || r->sbx.inject_format ||
		    r->sbx.inject_cacert || r->sbx.inject_port ||
		    r->sbx.inject_allow_loopback)
			return cli_runopts_usage_error(
				r, "the --inject-* options need --inject-host");
		return 0;
	}
	if (r->network_set && r->sbx.network != SANDBOX_NET_PROXY)
		return cli_runopts_usage_error(
			r, "--inject-host needs --network proxy");
	r->sbx.network = SANDBOX_NET_PROXY;
	if (!*v || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "abcdefghijklmnopqrstuvwxyz"
			     "0123456789_") != strlen(v))
		return cli_runopts_usage_error(
			r, "--inject-secret-env: '%s' is not a variable name",
			v);
	r->sbx.inject_secret = getenv(v);
	if (!r->sbx.inject_secret)
		return cli_runopts_usage_error(
			r, "--inject-secret-env: $%s is not set", v);
	return 0;
}

int cli_runopts_check(struct cli_runopts *r)
{
	int rc;

	if (r->nhosts || r->ndeny_hosts) {
		/* --allow-host implies the proxy; with another mode asked
		 * for explicitly it would silently do nothing. */
		if (r->network_set && r->sbx.network != SANDBOX_NET_PROXY)
			return cli_runopts_usage_error(
				r, "--allow-host and --deny-host need "
				   "--network proxy");
		r->sbx.network = SANDBOX_NET_PROXY;
	}
	if (r->control_set != (r->token_env != NULL))
		return cli_runopts_usage_error(
			r, "--control-port and --control-token-env go "
			   "together");
	if (r->control_set) {
		rc = control_setup(r);
		if (rc)
			return rc;
	}
	rc = inject_setup(r);
	if (rc)
		return rc;
	if (r->sbx.argv_only && r->nallow == 0)
		return cli_runopts_usage_error(
			r, "--argv-only needs --allow-cmd LIST");
	return open_report(r);
}

int cli_runopts_load_config(struct cli_runopts *r,
			    struct cordon_config **cfg)
{
	struct cordon_diag diag = { 0 };
	char *text = NULL, *doc = NULL, *warnings = NULL;
	size_t len = 0;
	int rc = RUN_EXIT_SETUP;

	if (cli_load_config(cfg, r->config, r->sbx.workspace) != 0)
		return RUN_EXIT_SETUP;
	if (!r->srt_settings)
		return 0;
	text = cli_read_file(r->srt_settings, CLI_SETTINGS_MAX, &len);
	if (!text) {
		fprintf(stderr, "%s: --srt-settings %s: %s\n", r->prog,
			r->srt_settings, strerror(errno));
		goto out;
	}
	if (import_srt_settings(text, len, &doc, &warnings, &diag) !=
		    CORDON_OK ||
	    cordon_config_load_json(*cfg, doc, strlen(doc), r->srt_settings,
				    CORDON_CONFIG_EXPLICIT,
				    &diag) != CORDON_OK) {
		fprintf(stderr, "%s: --srt-settings %s: %s\n", r->prog,
			r->srt_settings, diag.message);
		goto out;
	}
	if (warnings)
		fprintf(stderr, "%s: --srt-settings: %s", r->prog, warnings);
	rc = 0;
out:
	if (rc) {
		cordon_config_free(*cfg);
		*cfg = NULL;
	}
	free(text);
	free(doc);
	free(warnings);
	return rc;
}

int cli_runopts_apply_config(struct cli_runopts *r,
			     const struct cordon_config *cfg)
{
	if (cfg) {
		if (!r->mode_set)
			r->sbx.mode = mode_from_cfg(cfg->sandbox_mode);
		if (!r->memory_set)
			r->sbx.memory_mb = cfg->max_memory_mb;
		else if (cfg->max_memory_mb &&
			 (r->sbx.memory_mb == 0 ||
			  r->sbx.memory_mb > cfg->max_memory_mb))
			r->sbx.memory_mb = cfg->max_memory_mb;
		if (!r->sbx.workspace && cfg->workspace)
			r->sbx.workspace = cfg->workspace;
		r->sbx.env_allow =
			cfg->restricted_env ? &cfg->allowed_env_vars : NULL;
		r->sbx.env_deny = &cfg->env_denylist_patterns;
		r->sbx.deny_ranges =
			(const char *const *)cfg->denied_resolved_addresses.v;
		r->sbx.ndeny_ranges = cfg->denied_resolved_addresses.n;
		if (add_cfg_hosts(r, r->hosts, &r->nhosts,
				  &cfg->allowed_domains,
				  "network.allowedDomains") ||
		    add_cfg_hosts(r, r->deny_hosts, &r->ndeny_hosts,
				  &cfg->denied_domains,
				  "network.deniedDomains") ||
		    add_cfg_paths(r, r->deny, &r->ndeny,
				  &cfg->sandbox_deny_read,
				  "safety.sandbox.deny_read") ||
		    add_cfg_paths(r, r->write, &r->nwrite,
				  &cfg->sandbox_allow_write,
				  "safety.sandbox.allow_write"))
			return RUN_EXIT_SETUP;
		r->sbx.deny_write =
			(const char *const *)cfg->sandbox_deny_write.v;
		r->sbx.ndeny_write = cfg->sandbox_deny_write.n;
		/* An empty list allows no unix socket; a list cannot be
		 * held to its paths (seccomp sees no path), so any entry
		 * leaves them allowed, as srt does on Linux. */
		if (cfg->allow_unix_sockets_set &&
		    cfg->allow_unix_sockets.n == 0)
			r->sbx.no_unix_sockets = true;
	} else {
		r->sbx.env_allow = envfilter_default_allow();
		r->sbx.env_deny = envfilter_default_deny();
	}

	if ((r->control_set || r->secret_env) && add_token_deny(r) != 0)
		return RUN_EXIT_SETUP;
	r->sbx.write = r->write;
	r->sbx.nwrite = r->nwrite;
	r->sbx.deny_read = r->deny;
	r->sbx.ndeny_read = r->ndeny;
	r->sbx.allow_cmds = r->allow;
	r->sbx.nallow_cmds = r->nallow;
	r->sbx.allow_hosts = r->hosts;
	r->sbx.nallow_hosts = r->nhosts;
	r->sbx.deny_hosts = r->deny_hosts;
	r->sbx.ndeny_hosts = r->ndeny_hosts;
	if (r->sbx.argv_only) {
		r->sbx.stdin_null = 1;
		if (!r->timeout_set)
			r->sbx.timeout_s = RUN_ARGV_ONLY_TIMEOUT;
		/* CPU time never beyond the wall-clock time-out. */
		if (!r->cpu_set)
			r->sbx.cpu_s = r->sbx.timeout_s;
		if (!r->cap_set)
			r->sbx.output_cap = RUN_ARGV_ONLY_CAP;
	}
	/* A forced backend is what the user asked for: no warning. */
	if (r->sbx.mode == SANDBOX_MODE_AUTO &&
	    r->sbx.backend == SANDBOX_BACKEND_BEST) {
		r->sbx.on_start = warn_degraded;
		r->sbx.on_start_arg = (void *)r->prog;
	}
	return 0;
}
