/* cordon sandbox — inspect the sandbox without running anything.
 *
 *   cordon sandbox profile --format seatbelt [options]
 *
 * prints the macOS Seatbelt profile cordon would use for the same options
 * as `cordon run` (on paper: it cannot be enforced on Linux).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sandbox.h"
#include "seatbelt.h"

#include "banned.h"

/* Ceiling on repeated --write / --deny-read options. */
#define SANDBOX_MAX_PATHS 4096

void cli_sandbox_usage(FILE *out)
{
	fputs("usage: cordon sandbox profile --format seatbelt [OPTIONS]\n"
	      "\n"
	      "Prints the macOS Seatbelt profile `cordon run` would use with\n"
	      "the same options: deny by default; reads open except the\n"
	      "credential locations and --deny-read; writes only to the\n"
	      "writable roots and the temp dirs, run-later paths (.git/hooks,\n"
	      ".git/config, .cordon, .claude, .codex, .vscode, .idea, shell\n"
	      "rc files) never; network none, host, or only the proxy's\n"
	      "localhost port. Nothing is run. Home is $HOME.\n"
	      "\n"
	      "options:\n"
	      "  --format seatbelt     the profile language (the only one)\n"
	      "  --workspace DIR       the writable workspace (default: the\n"
	      "                        current directory)\n"
	      "  --write PATH          another writable root (repeatable;\n"
	      "                        relative to the workspace, ~/ to home)\n"
	      "  --deny-read PATH|GLOB unreadable (repeatable; a glob without\n"
	      "                        '/' matches at any depth of the\n"
	      "                        workspace: '*.pem')\n"
	      "  --network MODE        none (default), host or proxy\n"
	      "  --proxy-port N        the proxy's localhost port (with\n"
	      "                        --network proxy)\n"
	      "  --no-read-home        nothing under home readable but the\n"
	      "                        writable roots, toolchains, rc files\n"
	      "  -h, --help            show this help\n"
	      "\n"
	      "Exit status: 0 printed, 1 out of memory, 2 usage error.\n",
	      out);
}

struct profile_args {
	struct sandbox_opts o;
	const char **write;
	const char **deny_read;
	unsigned short proxy_port;
	bool has_port;
};

/* Appends s to *v (n entries); -1 past SANDBOX_MAX_PATHS, -2 out of
 * memory (both reported). */
static int push(const char ***v, size_t *n, const char *s, const char *opt)
{
	const char **nv;

	if (*n >= SANDBOX_MAX_PATHS) {
		fprintf(stderr,
			"cordon sandbox: more than %d %s options "
			"(SANDBOX_MAX_PATHS)\n",
			SANDBOX_MAX_PATHS, opt);
		return -1;
	}
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		fputs("cordon sandbox: out of memory\n", stderr);
		return -2;
	}
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

static int parse_port(const char *s, unsigned short *port)
{
	unsigned long v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v == 0 || v > 65535)
		return -1;
	*port = (unsigned short)v;
	return 0;
}

/* Returns 0 with *a filled, 1 when --help was printed, -1 on a usage error
 * or past a limit, -2 out of memory (all reported). */
static int parse_profile(int argc, char **argv, struct profile_args *a)
{
	enum {
		OPT_FORMAT = 256,
		OPT_WORKSPACE,
		OPT_WRITE,
		OPT_DENY_READ,
		OPT_NETWORK,
		OPT_PROXY_PORT,
		OPT_NO_READ_HOME,
	};
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "workspace", required_argument, NULL, OPT_WORKSPACE },
		{ "write", required_argument, NULL, OPT_WRITE },
		{ "deny-read", required_argument, NULL, OPT_DENY_READ },
		{ "network", required_argument, NULL, OPT_NETWORK },
		{ "proxy-port", required_argument, NULL, OPT_PROXY_PORT },
		{ "no-read-home", no_argument, NULL, OPT_NO_READ_HOME },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool has_format = false;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (strcmp(optarg, "seatbelt") != 0) {
				fprintf(stderr,
					"cordon sandbox profile: --format: "
					"expected 'seatbelt', got '%s'\n",
					optarg);
				goto usage;
			}
			has_format = true;
			break;
		case OPT_WORKSPACE:
			a->o.workspace = optarg;
			break;
		case OPT_WRITE:
			rc = push(&a->write, &a->o.nwrite, optarg, "--write");
			if (rc)
				return rc;
			break;
		case OPT_DENY_READ:
			rc = push(&a->deny_read, &a->o.ndeny_read, optarg,
				  "--deny-read");
			if (rc)
				return rc;
			break;
		case OPT_NETWORK:
			if (strcmp(optarg, "none") == 0) {
				a->o.network = SANDBOX_NET_NONE;
			} else if (strcmp(optarg, "host") == 0) {
				a->o.network = SANDBOX_NET_HOST;
			} else if (strcmp(optarg, "proxy") == 0) {
				a->o.network = SANDBOX_NET_PROXY;
			} else {
				fprintf(stderr,
					"cordon sandbox profile: --network: "
					"expected none, host or proxy, got "
					"'%s'\n",
					optarg);
				goto usage;
			}
			break;
		case OPT_PROXY_PORT:
			if (parse_port(optarg, &a->proxy_port) != 0) {
				fprintf(stderr,
					"cordon sandbox profile: --proxy-port: "
					"expected a port from 1 to 65535, got "
					"'%s'\n",
					optarg);
				goto usage;
			}
			a->has_port = true;
			break;
		case OPT_NO_READ_HOME:
			a->o.no_read_home = true;
			break;
		case 'h':
			cli_sandbox_usage(stdout);
			return 1;
		case ':':
		default:
			cli_getopt_error("sandbox profile", c, argv);
			goto usage;
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("sandbox profile", argv[optind]);
		goto usage;
	}
	if (!has_format) {
		fputs("cordon sandbox profile: --format seatbelt is required\n",
		      stderr);
		goto usage;
	}
	if (a->o.network == SANDBOX_NET_PROXY && !a->has_port) {
		fputs("cordon sandbox profile: --network proxy needs "
		      "--proxy-port\n",
		      stderr);
		goto usage;
	}
	if (a->has_port && a->o.network != SANDBOX_NET_PROXY) {
		fputs("cordon sandbox profile: --proxy-port goes with "
		      "--network proxy\n",
		      stderr);
		goto usage;
	}
	a->o.write = a->write;
	a->o.deny_read = a->deny_read;
	return 0;
usage:
	fputs("Try 'cordon sandbox --help'.\n", stderr);
	return -1;
}

static int cmd_profile(int argc, char **argv)
{
	struct profile_args a;
	const char *home = getenv("HOME");
	char *text;
	int rc;

	memset(&a, 0, sizeof(a));
	a.o.network = SANDBOX_NET_NONE;
	rc = parse_profile(argc, argv, &a);
	if (rc != 0) {
		free(a.write);
		free(a.deny_read);
		return rc == 1	? CLI_EXIT_OK :
		       rc == -1 ? CLI_EXIT_USAGE :
				  CLI_EXIT_FAILURE;
	}
	text = seatbelt_profile(&a.o, home && home[0] ? home : NULL,
				a.proxy_port);
	free(a.write);
	free(a.deny_read);
	if (!text) {
		fprintf(stderr,
			"cordon sandbox profile: out of memory, or the profile "
			"is past SEATBELT_MAX_BYTES (%zu bytes)\n",
			SEATBELT_MAX_BYTES);
		return CLI_EXIT_FAILURE;
	}
	rc = fputs(text, stdout) < 0 || fflush(stdout) != 0;
	free(text);
	if (rc) {
		fputs("cordon sandbox profile: cannot write the profile\n",
		      stderr);
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

int cli_sandbox(int argc, char **argv)
{
	if (argc < 2) {
		cli_sandbox_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		cli_sandbox_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "profile") == 0)
		return cmd_profile(argc - 1, argv + 1);
	fprintf(stderr,
		"cordon sandbox: unknown subcommand '%s'\n"
		"Try 'cordon sandbox --help'.\n",
		argv[1]);
	return CLI_EXIT_USAGE;
}
