/* cordon proxy — run the egress proxy in the foreground until SIGINT or
 * SIGTERM. Decisions are printed on stderr with --verbose.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cordon.h"
#include "proxy.h"

#include "banned.h"

#define LIST_MAX 10000

void cli_proxy_usage(FILE *out)
{
	fputs("usage: cordon proxy --listen ADDR:PORT [OPTIONS]\n"
	      "\n"
	      "Serves an allow-listing egress proxy: HTTP CONNECT, plain-HTTP\n"
	      "forward requests and SOCKS5 CONNECT on one port. A permitted\n"
	      "name is resolved once; addresses in denied classes (loopback,\n"
	      "private, link-local, metadata, this host's own ...) are refused\n"
	      "unless the allow-list names the IP literal. Without --allow-host\n"
	      "everything is denied.\n"
	      "\n"
	      "options:\n"
	      "  --listen ADDR:PORT    where to listen ([V6]:PORT; port 0 picks\n"
	      "                        one and prints it on stderr)\n"
	      "  --allow-host H        allow H: host (ports 80, 443), host:port,\n"
	      "                        *.domain, IP literal, [v6]:port\n"
	      "  --deny-host H         deny H (wins over --allow-host)\n"
	      "  --deny-range CIDR     also refuse addresses in CIDR\n"
	      "  --resolve HOST:ADDR   HOST resolves to ADDR (no lookup; repeat\n"
	      "                        for more addresses)\n"
	      "  --max-conns N         connections at once (default 10000;\n"
	      "                        beyond: 503)\n"
	      "  --idle-timeout S      close a quiet tunnel after S seconds\n"
	      "                        (default 300)\n"
	      "  --pipe-budget MIB     what all tunnels' splice pipes may hold\n"
	      "                        together (default 64; past it tunnels\n"
	      "                        copy through a small buffer)\n"
	      "  --handshake-timeout S close a client whose request is not\n"
	      "                        served within S seconds (default 10)\n"
	      "  --control-port P      serve the control endpoint on\n"
	      "                        127.0.0.1:P (0 picks a port and\n"
	      "                        prints it): POST /allow with one host\n"
	      "                        entry as the plain-text body adds it\n"
	      "                        for this run; GET /status lists the\n"
	      "                        allow, deny and session lists\n"
	      "  --control-token-env VAR\n"
	      "                        the control endpoint's bearer token is\n"
	      "                        in $VAR (at least 16 bytes; required\n"
	      "                        with --control-port)\n"
	      "  --public-suffix-list FILE\n"
	      "                        the Public Suffix List that POST /allow\n"
	      "                        checks wildcards against (default\n"
	      "                        " PROXY_PSL_DEFAULT ";\n"
	      "                        without it only *.TLD is refused)\n"
	      "  --inject-host H       credential injection: plain HTTP to\n"
	      "                        http://H/ goes out as HTTPS to H with\n"
	      "                        the certificate checked, the client's\n"
	      "                        Authorization, Proxy-Authorization,\n"
	      "                        Cookie and X-Api-Key dropped and the\n"
	      "                        secret added; CONNECT to H is refused\n"
	      "  --inject-secret-env VAR\n"
	      "                        the secret is in $VAR (required with\n"
	      "                        --inject-host; never on the command\n"
	      "                        line)\n"
	      "  --inject-header NAME  the header it goes in (default\n"
	      "                        Authorization)\n"
	      "  --inject-format F     its value, %s standing for the secret\n"
	      "                        (default 'Bearer %s')\n"
	      "  --inject-cacert FILE  also trust the CAs in FILE (PEM)\n"
	      "  --inject-port P       the HTTPS port of H (default 443)\n"
	      "  --inject-allow-loopback\n"
	      "                        DANGEROUS, for tests only: H may\n"
	      "                        resolve to a loopback address\n"
	      "  --config FILE         a configuration file (for audit.*)\n"
	      "  --audit-log FILE      where decisions are recorded (default:\n"
	      "                        audit.path, or $XDG_STATE_HOME/cordon/\n"
	      "                        audit.jsonl; - for none)\n"
	      "  -v, --verbose         print every decision on stderr\n"
	      "  -h, --help            show this help\n"
	      "\n"
	      "exit status: 0 after SIGINT or SIGTERM, 1 on an I/O error, 2 on\n"
	      "a usage or configuration error.\n",
	      out);
}

static struct px *running;

static void on_signal(int sig)
{
	(void)sig;
	if (running)
		proxy_stop(running);
}

struct list {
	const char **v;
	size_t n;
};

static int list_add(struct list *l, const char *s, const char *what)
{
	const char **nv;

	if (l->n >= LIST_MAX) {
		fprintf(stderr, "cordon proxy: more than %d %s\n", LIST_MAX,
			what);
		return CLI_EXIT_USAGE;
	}
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv) {
		fputs("cordon proxy: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	l->v = nv;
	l->v[l->n++] = s;
	return 0;
}

/* A whole number in [min, max]; -1 when it is not one. */
static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	return v;
}

int cli_proxy(int argc, char **argv)
{
	enum {
		O_LISTEN = 256,
		O_ALLOW,
		O_DENY,
		O_RANGE,
		O_RESOLVE,
		O_MAXCONNS,
		O_IDLE,
		O_HANDSHAKE,
		O_CTL_PORT,
		O_CTL_TOKEN,
		O_PSL,
		O_PIPE_BUDGET,
		O_INJ_HOST,
		O_INJ_ENV,
		O_INJ_HEADER,
		O_INJ_FORMAT,
		O_INJ_CACERT,
		O_INJ_PORT,
		O_INJ_LOOPBACK,
		O_CONFIG,
		O_AUDIT_LOG,
	};
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, O_LISTEN },
		{ "allow-host", required_argument, NULL, O_ALLOW },
		{ "deny-host", required_argument, NULL, O_DENY },
		{ "deny-range", required_argument, NULL, O_RANGE },
		{ "resolve", required_argument, NULL, O_RESOLVE },
		{ "max-conns", required_argument, NULL, O_MAXCONNS },
		{ "idle-timeout", required_argument, NULL, O_IDLE },
		{ "handshake-timeout", required_argument, NULL, O_HANDSHAKE },
		{ "control-port", required_argument, NULL, O_CTL_PORT },
		{ "control-token-env", required_argument, NULL, O_CTL_TOKEN },
		{ "public-suffix-list", required_argument, NULL, O_PSL },
		{ "pipe-budget", required_argument, NULL, O_PIPE_BUDGET },
		{ "inject-host", required_argument, NULL, O_INJ_HOST },
		{ "inject-secret-env", required_argument, NULL, O_INJ_ENV },
		{ "inject-header", required_argument, NULL, O_INJ_HEADER },
		{ "inject-format", required_argument, NULL, O_INJ_FORMAT },
		{ "inject-cacert", required_argument, NULL, O_INJ_CACERT },
		{ "inject-port", required_argument, NULL, O_INJ_PORT },
		{ "inject-allow-loopback", no_argument, NULL, O_INJ_LOOPBACK },
		{ "config", required_argument, NULL, O_CONFIG },
		{ "audit-log", required_argument, NULL, O_AUDIT_LOG },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct list allow = { 0 }, deny = { 0 }, ranges = { 0 },
		    resolve = { 0 };
	struct proxy_options o;
	struct cordon_diag diag;
	struct px *p = NULL;
	struct sigaction sa;
	const char *listen = NULL, *token_env = NULL, *secret_env = NULL;
	const char *config = NULL, *audit_log = NULL;
	struct cordon_config *cfg = NULL;
	struct cli_proxy_audit pa = { 0 };
	char addr[80], ctl[40];
	long ctl_port = -1;
	int opt, rc = CLI_EXIT_OK;
	long v;

	proxy_options_default(&o);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+vh", longopts, NULL)) != -1) {
		switch (opt) {
		case O_LISTEN:
			listen = optarg;
			break;
		case O_ALLOW:
			rc = list_add(&allow, optarg, "--allow-host");
			break;
		case O_DENY:
			rc = list_add(&deny, optarg, "--deny-host");
			break;
		case O_RANGE:
			rc = list_add(&ranges, optarg, "--deny-range");
			break;
		case O_RESOLVE:
			rc = list_add(&resolve, optarg, "--resolve");
			break;
		case O_MAXCONNS:
			v = parse_num(optarg, 1, PROXY_CONNS_CEILING);
			if (v < 0) {
				fprintf(stderr,
					"cordon proxy: --max-conns wants 1 to "
					"%d\n",
					PROXY_CONNS_CEILING);
				rc = CLI_EXIT_USAGE;
			}
			o.max_conns = (size_t)v;
			break;
		case O_IDLE:
		case O_HANDSHAKE:
			v = parse_num(optarg, 1, 86400);
			if (v < 0) {
				fprintf(stderr,
					"cordon proxy: %s wants seconds, 1 to "
					"86400\n",
					opt == O_IDLE ? "--idle-timeout" :
							"--handshake-timeout");
				rc = CLI_EXIT_USAGE;
			} else if (opt == O_IDLE) {
				o.idle_timeout_ms = (unsigned)v * 1000;
			} else {
				o.handshake_timeout_ms = (unsigned)v * 1000;
			}
			break;
		case O_CTL_PORT:
			ctl_port = parse_num(optarg, 0, 65535);
			if (ctl_port < 0) {
				fputs("cordon proxy: --control-port wants 0 to "
				      "65535\n",
				      stderr);
				rc = CLI_EXIT_USAGE;
			}
			break;
		case O_CTL_TOKEN:
			token_env = optarg;
			break;
		case O_PSL:
			o.public_suffix_list = optarg;
			break;
		case O_PIPE_BUDGET:
			v = parse_num(optarg, 1, 65536);
			if (v < 0) {
				fputs("cordon proxy: --pipe-budget wants MiB, 1 "
				      "to 65536\n",
				      stderr);
				rc = CLI_EXIT_USAGE;
			}
			o.pipe_budget = (size_t)v << 20;
			break;
		case O_INJ_HOST:
			o.inject_host = optarg;
			break;
		case O_INJ_ENV:
			secret_env = optarg;
			break;
		case O_INJ_HEADER:
			o.inject_header = optarg;
			break;
		case O_INJ_FORMAT:
			o.inject_format = optarg;
			break;
		case O_INJ_CACERT:
			o.inject_cacert = optarg;
			break;
		case O_INJ_PORT:
			v = parse_num(optarg, 1, 65535);
			if (v < 0) {
				fputs("cordon proxy: --inject-port wants 1 to "
				      "65535\n",
				      stderr);
				rc = CLI_EXIT_USAGE;
			}
			o.inject_port = (unsigned)v;
			break;
		case O_INJ_LOOPBACK:
			o.inject_allow_loopback = true;
			break;
		case O_CONFIG:
			config = optarg;
			break;
		case O_AUDIT_LOG:
			audit_log = optarg;
			break;
		case 'v':
			pa.verbose = 1;
			break;
		case 'h':
			cli_proxy_usage(stdout);
			goto out;
		default: {
			char ob[3];

			fprintf(stderr, "cordon proxy: bad option '%s'\n",
				cli_bad_option(argv, ob));
		}
			cli_proxy_usage(stderr);
			rc = CLI_EXIT_USAGE;
			break;
		}
		if (rc != CLI_EXIT_OK)
			goto out;
	}
	if (optind < argc) {
		cli_unexpected_arg("proxy", argv[optind]);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (!listen) {
		fputs("cordon proxy: --listen ADDR:PORT is required\n", stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if ((ctl_port >= 0) != (token_env != NULL)) {
		fputs("cordon proxy: --control-port and --control-token-env "
		      "go together\n",
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if ((o.inject_host != NULL) != (secret_env != NULL) ||
	    (!o.inject_host &&
	     (o.inject_header || o.inject_format || o.inject_cacert ||
	      o.inject_port || o.inject_allow_loopback))) {
		fputs("cordon proxy: --inject-host and --inject-secret-env go "
		      "together; the other --inject-* options need them\n",
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (secret_env) {
		o.inject_secret = getenv(secret_env);
		if (!o.inject_secret) {
			fprintf(stderr,
				"cordon proxy: --inject-secret-env: $%s is "
				"not set\n",
				secret_env);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (token_env) {
		const char *t = getenv(token_env);

		if (!t) {
			fprintf(stderr,
				"cordon proxy: --control-token-env: $%s is "
				"not set\n",
				token_env);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		if (strlen(t) < PROXY_CONTROL_TOKEN_MIN) {
			fprintf(stderr,
				"cordon proxy: --control-token-env: $%s is "
				"shorter than %d bytes\n",
				token_env, PROXY_CONTROL_TOKEN_MIN);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		snprintf(ctl, sizeof(ctl), "127.0.0.1:%ld", ctl_port);
		o.control_listen = ctl;
		o.control_token = t;
	}
	rc = cli_load_config(&cfg, config, NULL);
	if (rc)
		goto out;
	rc = cli_open_audit(cfg, audit_log, &pa.audit);
	if (rc)
		goto out;
	o.on_decision = cli_audit_proxy_decision;
	o.ctx = &pa;
	o.listen = listen;
	o.allow = allow.v;
	o.nallow = allow.n;
	o.deny = deny.v;
	o.ndeny = deny.n;
	o.deny_ranges = ranges.v;
	o.ndeny_ranges = ranges.n;
	o.resolve = resolve.v;
	o.nresolve = resolve.n;
	memset(&diag, 0, sizeof(diag));
	switch (proxy_new(&o, &p, &diag)) {
	case CORDON_OK:
		break;
	case CORDON_E_IO:
	case CORDON_E_NOMEM:
		fprintf(stderr, "cordon proxy: %s\n",
			diag.message[0] ? diag.message : "out of memory");
		rc = CLI_EXIT_FAILURE;
		goto out;
	default:
		fprintf(stderr, "cordon proxy: %s\n", diag.message);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (allow.n == 0)
		fputs("cordon proxy: no --allow-host: every request is "
		      "denied\n",
		      stderr);
	proxy_local_addr(p, addr, sizeof(addr));
	{
		size_t ll = strlen(listen);

		if (ll >= 2 && strcmp(listen + ll - 2, ":0") == 0)
			fprintf(stderr, "cordon proxy: listening on %s\n",
				addr);
	}
	if (ctl_port == 0)
		fprintf(stderr, "cordon proxy: control endpoint on %s\n",
			proxy_control_addr(p, addr, sizeof(addr)));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	running = p;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	if (proxy_run(p) != CORDON_OK) {
		fprintf(stderr, "cordon proxy: event loop: %s\n",
			strerror(errno));
		rc = CLI_EXIT_FAILURE;
	}
	running = NULL;
out:
	proxy_free(p);
	if (cordon_audit_close(pa.audit) != CORDON_OK && rc == CLI_EXIT_OK)
		rc = CLI_EXIT_FAILURE;
	cordon_config_free(cfg);
	free(allow.v);
	free(deny.v);
	free(ranges.v);
	free(resolve.v);
	return rc;
}
