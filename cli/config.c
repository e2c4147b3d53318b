/* cordon config — the effective configuration: `cordon config show` loads
 * the layers (built-in defaults, the user file, the project file, --config)
 * and prints the result as JSON, with --sources also where each value came
 * from. cli_load_config() is the layer loading every command shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "cli.h"
#include "cordon.h"
#include "json.h"
#include "path.h"

#include "banned.h"

void cli_config_usage(FILE *out)
{
	fputs("usage: cordon config show [--config FILE] [--workspace DIR] "
	      "[--sources] [--json]\n"
	      "       cordon config import --from claude|srt [FILE]\n"
	      "\n"
	      "`import` prints the cordon configuration for Claude Code's\n"
	      "permission rules or srt's sandbox settings (see `cordon config\n"
	      "import --help`).\n"
	      "\n"
	      "Prints the effective configuration as JSON. The layers, each\n"
	      "over the one before:\n"
	      "  1. the built-in defaults\n"
	      "  2. the user file: $XDG_CONFIG_HOME/cordon/config.json (or\n"
	      "     ~/.config/cordon/config.json), when it exists\n"
	      "  3. the project file: DIR/.cordon/config.json, when it exists;\n"
	      "     it may only tighten (what would loosen is ignored with a\n"
	      "     warning on stderr)\n"
	      "  4. --config FILE\n"
	      "\n"
	      "options:\n"
	      "  --config FILE    a configuration file applied last\n"
	      "  --workspace DIR  the workspace holding .cordon/config.json\n"
	      "                   (default: the current directory)\n"
	      "  --sources        also print where each value came from and\n"
	      "                   the warnings: {\"config\", \"sources\",\n"
	      "                   \"warnings\"}\n"
	      "  --json           print one line of JSON (default: two spaces a "
	      "level)\n"
	      "  -h, --help       show this help\n"
	      "\n"
	      "exit status: 0 when printed, 1 on an I/O error or out of\n"
	      "memory, 2 on a usage or configuration error (an unknown key or\n"
	      "a wrong type, named with the file and the key path).\n",
	      out);
}

/* The user file's path, malloc'd; NULL (with *oom clear) when neither
 * $XDG_CONFIG_HOME nor $HOME is an absolute path. */
static char *user_file(int *oom)
{
	char path[PATH_MAX];
	char *p;

	*oom = 0;
	if (atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "config.json", path,
			    sizeof(path)) != 0)
		return NULL;
	p = strdup(path);
	*oom = p == NULL;
	return p;
}

/* Loads path as layer. optional: a missing file is skipped. Returns 0 or
 * an exit status (reported). */
static int load_layer(struct cordon_config *cfg, const char *path,
		      enum cordon_config_layer layer, int optional)
{
	struct cordon_diag diag;
	enum cordon_err rc;

	memset(&diag, 0, sizeof(diag));
	rc = cordon_config_load_file(cfg, path, layer, &diag);
	if (rc == CORDON_OK)
		return 0;
	if (optional && rc == CORDON_E_IO &&
	    (diag.sys_errno == ENOENT || diag.sys_errno == ENOTDIR))
		return 0;
	cli_report(NULL, NULL,
		   diag.message[0] ? diag.message : cordon_strerror(rc));
	return rc == CORDON_E_NOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
}

int cli_load_config(struct cordon_config **out, const char *config_file,
		    const char *workspace)
{
	struct cordon_config *cfg = cordon_config_new();
	char *path = NULL, *cwd = NULL;
	int oom = 0, status = 0;

	*out = NULL;
	if (!cfg) {
		cli_report(NULL, NULL, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	path = user_file(&oom);
	if (oom)
		goto nomem;
	if (path)
		status = load_layer(cfg, path, CORDON_CONFIG_USER, 1);
	free(path);
	path = NULL;
	if (status)
		goto fail;

	if (!workspace) {
		cwd = getcwd(NULL, 0);
		if (!cwd) {
			cli_report(NULL,
				   "cannot determine the directory (pass "
				   "--workspace)",
				   strerror(errno));
			status = CLI_EXIT_USAGE;
			goto fail;
		}
		workspace = cwd;
	}
	path = path_join(workspace, ".cordon/config.json");
	if (!path)
		goto nomem;
	status = load_layer(cfg, path, CORDON_CONFIG_PROJECT, 1);
	if (status)
		goto fail;

	if (config_file) {
		status =
			load_layer(cfg, config_file, CORDON_CONFIG_EXPLICIT, 0);
		if (status)
			goto fail;
	}
	for (size_t i = 0; i < cordon_config_warning_count(cfg); i++)
		cli_report(NULL, "warning", cordon_config_warning(cfg, i));
	free(path);
	free(cwd);
	*out = cfg;
	return 0;
nomem:
	cli_report(NULL, NULL, "out of memory");
	status = CLI_EXIT_FAILURE;
fail:
	free(path);
	free(cwd);
	cordon_config_free(cfg);
	return status;
}

struct show_opts {
	const char *config;
	const char *workspace;
	int sources;
	int json;
};

/* Returns 0 with *o filled, 1 when --help was printed, -1 on a usage
 * error (already reported). */
static int parse_show(int argc, char **argv, struct show_opts *o)
{
	enum { OPT_CONFIG = 256, OPT_WORKSPACE, OPT_SOURCES, OPT_JSON };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "workspace", required_argument, NULL, OPT_WORKSPACE },
		{ "sources", no_argument, NULL, OPT_SOURCES },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_WORKSPACE:
			o->workspace = optarg;
			break;
		case OPT_SOURCES:
			o->sources = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case 'h':
			cli_config_usage(stdout);
			return 1;
		case ':':
		default:
			cli_getopt_error("config show", c, argv);
			goto usage;
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("config show", argv[optind]);
		goto usage;
	}
	if (o->workspace && !o->workspace[0]) {
		fputs("cordon config show: --workspace: empty directory name\n",
		      stderr);
		goto usage;
	}
	return 0;
usage:
	fputs("Try 'cordon config --help'.\n", stderr);
	return -1;
}

/* Prints text, as one line when compact, else two spaces a level. */
static int print_json(const char *text, int compact)
{
	cJSON *root = cJSON_Parse(text);
	char *out = NULL;

	if (root)
		out = compact ? cJSON_PrintUnformatted(root) :
				json_print_indented(root);
	cJSON_Delete(root);
	if (!out)
		return -1;
	fputs(out, stdout);
	fputc('\n', stdout);
	free(out);
	return 0;
}

static int config_show(int argc, char **argv)
{
	struct show_opts o;
	struct cordon_config *cfg;
	char *text;
	int rc = parse_show(argc, argv, &o);

	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	rc = cli_load_config(&cfg, o.config, o.workspace);
	if (rc)
		return rc;
	text = cordon_config_to_json(cfg, o.sources);
	cordon_config_free(cfg);
	if (!text || print_json(text, o.json) < 0) {
		free(text);
		cli_report(NULL, NULL, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	free(text);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_report(NULL, "write error", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

int cli_config(int argc, char **argv)
{
	if (argc < 2) {
		fputs("cordon config: no subcommand given\n", stderr);
		cli_config_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cli_config_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "show") == 0)
		return config_show(argc - 1, argv + 1);
	if (strcmp(argv[1], "import") == 0)
		return cli_config_import(argc - 1, argv + 1);
	fprintf(stderr, "cordon config: unknown subcommand '%s'\n", argv[1]);
	fputs("Try 'cordon config --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}
