/* hookopts — the options of `cordon hook AGENT` and `cordon init AGENT`,
 * parsed in one place for every agent (agents.h).
 *
 * The doors of hook_door.c and init_door.c hand their argv here as
 * hook.c and init.c do, so an option is spelt, checked and refused with
 * the same words whichever agent it is given for. What an option means
 * for one agent only is said here too (--claude-scopes reads Claude
 * Code's scopes; init's --sandbox writes a flag only the claude and gemini
 * entries carry; --user needs a user file).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "agents.h"
#include "cli.h"
#include "cordon.h"

#include "banned.h"

/* The agent operand, argv[1]: an agent of cli_agents with a hook door.
 * NULL after saying, as "cordon CMD: …", that it is missing or unknown
 * (naming the agents that have one). */
static const struct cli_agent *agent_operand(const char *cmd, int argc,
					     char **argv)
{
	const struct cli_agent *a = argc >= 2 ? cli_agent_find(argv[1]) : NULL;
	size_t n = 0, k = 0;

	if (a && a->has_hook)
		return a;
	if (argc < 2) {
		fprintf(stderr, "cordon %s: which agent? ", cmd);
	} else {
		fprintf(stderr, "cordon %s: unknown agent '", cmd);
		cli_print_escaped(stderr, argv[1], strlen(argv[1]));
		fputs("' (expected ", stderr);
	}
	for (a = cli_agents; a->name; a++)
		n += a->has_hook;
	for (a = cli_agents; a->name; a++) {
		if (!a->has_hook)
			continue;
		k++;
		fprintf(stderr, "%s%s", a->name,
			k + 1 < n ? ", " : k + 1 == n ? " or " : "");
	}
	fputs(argc < 2 ? "\n" : ")\n", stderr);
	return NULL;
}

/* What cordon hook and cordon init read before their options: --help as
 * the first word (1, usage printed), then the agent operand (-1 when it is
 * missing or unknown, with "Try …"), which *argc / *argv then step past,
 * getopt set to start on them. */
static int agent_start(const char *cmd, int *argc, char ***argv,
		       const struct cli_agent **a, void (*usage)(FILE *))
{
	if (*argc >= 2 && (strcmp((*argv)[1], "-h") == 0 ||
			   strcmp((*argv)[1], "--help") == 0)) {
		usage(stdout);
		return 1;
	}
	*a = agent_operand(cmd, *argc, *argv);
	if (!*a) {
		fprintf(stderr, "Try 'cordon %s --help'.\n", cmd);
		return -1;
	}
	(*argc)--;
	(*argv)++;
	opterr = 0;
	optind = 1;
	return 0;
}

int cli_hook_parse_options(int argc, char **argv, struct cli_hook_opts *o,
			   void (*usage)(FILE *))
{
	enum {
		OPT_CONFIG = 256,
		OPT_AUDIT_LOG,
		OPT_WORKSPACE,
		OPT_MODE,
		OPT_FAIL_OPEN,
		OPT_CLAUDE_SETTINGS,
		OPT_CLAUDE_SCOPES,
		OPT_SANDBOX,
		OPT_NO_REWRITE,
	};
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
		{ "workspace", required_argument, NULL, OPT_WORKSPACE },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "fail-open", no_argument, NULL, OPT_FAIL_OPEN },
		{ "claude-settings", required_argument, NULL,
		  OPT_CLAUDE_SETTINGS },
		{ "claude-scopes", no_argument, NULL, OPT_CLAUDE_SCOPES },
		{ "sandbox", required_argument, NULL, OPT_SANDBOX },
		{ "no-rewrite", no_argument, NULL, OPT_NO_REWRITE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cli_agent *a;
	int rc;
	int c;

	rc = agent_start("hook", &argc, &argv, &a, usage);
	if (rc)
		return rc;
	o->name = a->name;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_AUDIT_LOG:
			o->audit_log = optarg;
			break;
		case OPT_WORKSPACE:
			o->workspace = optarg;
			break;
		case OPT_MODE:
			o->mode = optarg;
			break;
		case OPT_FAIL_OPEN:
			o->fail_open = 1;
			break;
		case OPT_CLAUDE_SETTINGS:
			if (o->nclaude_settings == CLI_HOOK_MAX_SETTINGS) {
				fprintf(stderr,
					"cordon hook: --claude-settings: more "
					"than %d files\n",
					CLI_HOOK_MAX_SETTINGS);
				goto usage;
			}
			o->claude_settings[o->nclaude_settings++] = optarg;
			break;
		case OPT_CLAUDE_SCOPES:
			/* The scopes are Claude Code's own files, found
			 * through $CLAUDE_PROJECT_DIR: another agent's hook
			 * has none (--claude-settings names a file). */
			if (strcmp(o->name, "claude") != 0) {
				fprintf(stderr,
					"cordon hook: --claude-scopes: only for "
					"'cordon hook claude' (give the files "
					"with --claude-settings)\n");
				goto usage;
			}
			o->claude_scopes = true;
			break;
		case OPT_SANDBOX:
			if (strcmp(optarg, "off") != 0 &&
			    strcmp(optarg, "auto") != 0 &&
			    strcmp(optarg, "strict") != 0) {
				fprintf(stderr,
					"cordon hook: --sandbox: expected off, "
					"auto or strict, got '%s'\n",
					optarg);
				goto usage;
			}
			o->sandbox = optarg;
			break;
		case OPT_NO_REWRITE:
			o->no_rewrite = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
		default:
			cli_getopt_error("hook", c, argv);
			goto usage;
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("hook", argv[optind]);
		goto usage;
	}
	if (o->mode && cordon_mode_from_name(o->mode) < 0) {
		fprintf(stderr,
			"cordon hook: --mode: expected one of supervised, "
			"auto-accept-edits, auto, full-access, got '%s'\n",
			o->mode);
		goto usage;
	}
	if (o->workspace && o->workspace[0] != '/') {
		fputs("cordon hook: --workspace: expected an absolute path\n",
		      stderr);
		goto usage;
	}
	return 0;
usage:
	fputs("Try 'cordon hook --help'.\n", stderr);
	return -1;
}

int cli_init_parse_options(int argc, char **argv, struct cli_init_opts *o,
			   void (*usage)(FILE *), unsigned accepts)
{
	enum {
		OPT_PROJECT = 256,
		OPT_USER,
		OPT_SETTINGS,
		OPT_DRY_RUN,
		OPT_REMOVE,
		OPT_SANDBOX,
		OPT_NO_SANDBOX,
	};
	static const struct option longopts[] = {
		{ "project", no_argument, NULL, OPT_PROJECT },
		{ "user", no_argument, NULL, OPT_USER },
		{ "settings", required_argument, NULL, OPT_SETTINGS },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "remove", no_argument, NULL, OPT_REMOVE },
		{ "sandbox", optional_argument, NULL, OPT_SANDBOX },
		{ "no-sandbox", no_argument, NULL, OPT_NO_SANDBOX },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cli_agent *a;
	int rc;
	bool project = false;
	int c;

	rc = agent_start("init", &argc, &argv, &a, usage);
	if (rc)
		return rc;
	o->name = a->name;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PROJECT:
			project = true;
			break;
		case OPT_USER:
			o->user = true;
			break;
		case OPT_SETTINGS:
			o->settings = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_REMOVE:
			o->remove = true;
			break;
		case OPT_SANDBOX:
		case OPT_NO_SANDBOX:
			if (!(accepts & CLI_INIT_SANDBOX)) {
				fprintf(stderr,
					"cordon init: --sandbox and --no-sandbox "
					"are for claude and gemini; %s's hook "
					"follows hooks.sandbox\n",
					o->name);
				goto usage;
			}
			if (c == OPT_NO_SANDBOX) {
				o->sandbox = "off";
				break;
			}
			if (optarg && strcmp(optarg, "auto") != 0 &&
			    strcmp(optarg, "strict") != 0) {
				fprintf(stderr,
					"cordon init: --sandbox: expected auto "
					"or strict, got '%s'\n",
					optarg);
				goto usage;
			}
			o->sandbox = optarg ? optarg : "strict";
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
		default:
			cli_getopt_error("init", c, argv);
			goto usage;
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("init", argv[optind]);
		goto usage;
	}
	if (project + o->user + (o->settings != NULL) > 1) {
		fputs("cordon init: --project, --user and --settings exclude "
		      "each other\n",
		      stderr);
		goto usage;
	}
	if (o->settings && !o->settings[0]) {
		fputs("cordon init: --settings: expected a file name\n",
		      stderr);
		goto usage;
	}
	if (o->user && !(accepts & CLI_INIT_USER)) {
		fprintf(stderr,
			"cordon init: %s reads its hooks from the repository "
			"only: no --user\n",
			o->name);
		goto usage;
	}
	return 0;
usage:
	fputs("Try 'cordon init --help'.\n", stderr);
	return -1;
}
