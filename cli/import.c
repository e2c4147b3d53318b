/* cordon config import — Claude Code permission rules or srt sandbox
 * settings as cordon configuration (import.h), printed as JSON.
 *
 * For Claude Code several settings files are merged: the rule lists are
 * concatenated (project, local, then user; a rule given twice is kept
 * once), defaultMode comes from the most specific file that sets it, and
 * disableBypassPermissionsMode in any file caps the mode. The result is
 * loaded into a cordon configuration before it is printed, so what is
 * printed is known to load.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "import.h"
#include "import_codex.h"
#include "cli.h"
#include "cordon.h"
#include "json.h"

#include "banned.h"

#define IMPORT_MAX_FILE (1u << 20) /* bytes of one settings file */
#define IMPORT_MAX_FILES 64

static void import_usage(FILE *out)
{
	fputs("usage: cordon config import --from claude|srt|codex [FILE...]\n"
	      "\n"
	      "Prints the cordon configuration (JSON) for settings written\n"
	      "for Claude Code, for srt (Anthropic's sandbox-runtime) or\n"
	      "Codex CLI's rules files.\n"
	      "What is not imported, or is imported stricter than written,\n"
	      "is said on stderr as warnings. FILE \"-\" reads stdin.\n"
	      "\n"
	      "--from claude  Claude Code's permission rules\n"
	      "               (\"permissions\": allow, ask, deny,\n"
	      "               defaultMode) into\n"
	      "               \"permissions\" and safety.permission_mode.\n"
	      "               Without FILE: ./.claude/settings.json,\n"
	      "               ./.claude/settings.local.json and\n"
	      "               ~/.claude/settings.json, those that exist,\n"
	      "               merged: the rule lists are concatenated in\n"
	      "               that order (a rule given twice is kept once);\n"
	      "               defaultMode comes from the most specific file\n"
	      "               (local, then project, then user). With several\n"
	      "               FILEs, later files are more specific.\n"
	      "--from srt     srt's settings (filesystem.denyRead,\n"
	      "               allowRead, allowWrite, denyWrite;\n"
	      "               network.allowedDomains, deniedDomains,\n"
	      "               allowUnixSockets, allowLocalBinding) into\n"
	      "               safety.sandbox and network. Without FILE:\n"
	      "               ~/.srt-settings.json. One file.\n"
	      "--from codex   Codex CLI's execpolicy rules (FILE.rules:\n"
	      "               prefix_rule(pattern, decision, match,\n"
	      "               not_match)) into safety.command_rules: prompt\n"
	      "               is ask, forbidden is deny, alternatives in a\n"
	      "               pattern become one rule each; every match and\n"
	      "               not_match example is checked. One or more\n"
	      "               files (~/.codex/rules/*.rules).\n"
	      "\n"
	      "options:\n"
	      "  --from KIND   claude, srt or codex (required)\n"
	      "  -h, --help    show this help\n"
	      "\n"
	      "exit status: 0 when printed; 1 when a file cannot be read\n"
	      "(or no settings file was found) or out of memory; 2 on a\n"
	      "usage error, malformed JSON or a rule cordon cannot read\n"
	      "(named with the file and the key path).\n",
	      out);
}

/* Each line of warnings as "cordon: warning: FILE: LINE". */
static void report_warnings(const char *file, const char *warnings)
{
	const char *p = warnings;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		fputs("cordon: warning: ", stderr);
		cli_print_escaped(stderr, file, strlen(file));
		fputs(": ", stderr);
		cli_print_escaped(stderr, p, n);
		fputc('\n', stderr);
		p = nl ? nl + 1 : p + n;
	}
}

/* Reads path ("-": stdin), at most IMPORT_MAX_FILE bytes. Returns 0, or
 * the exit status after reporting (1: cannot read, 2: too large). A
 * missing file is reported only when !quiet_missing (then *missing). */
static int read_settings(const char *path, bool quiet_missing, bool *missing,
			 char **text, size_t *len)
{
	*missing = false;
	*text = cli_read_file(path, IMPORT_MAX_FILE, len);
	if (*text)
		return 0;
	if (errno == ENOENT && quiet_missing) {
		*missing = true;
		return 0;
	}
	if (errno == EFBIG) {
		cli_report(NULL, path, "larger than the limit of 1 MiB");
		return CLI_EXIT_USAGE;
	}
	if (errno == ENOMEM)
		cli_report(NULL, NULL, "out of memory");
	else if (errno == EISDIR)
		cli_report(NULL, path, "is a directory");
	else
		cli_report(NULL, path, strerror(errno));
	return CLI_EXIT_FAILURE;
}

/* The exit status for an importer's error. */
static int import_status(enum cordon_err err)
{
	return err == CORDON_E_NOMEM || err == CORDON_E_IO ? CLI_EXIT_FAILURE :
							     CLI_EXIT_USAGE;
}

/* Loads the document into a fresh configuration, so only text cordon reads
 * is printed; then prints it. */
static int print_checked(const char *from, cJSON *doc)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_diag d;
	char *text = doc ? json_print_indented(doc) : NULL;
	int rc = CLI_EXIT_OK;

	if (!cfg || !text) {
		cli_report(NULL, NULL, "out of memory");
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	if (cordon_config_load_json(cfg, text, strlen(text), from,
				    CORDON_CONFIG_EXPLICIT, &d) != CORDON_OK) {
		cli_report(NULL, "the imported configuration does not load",
			   d.message);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF ||
	    fflush(stdout) != 0) {
		cli_report(NULL, "write error", strerror(errno));
		rc = CLI_EXIT_FAILURE;
	}
out:
	free(text);
	cordon_config_free(cfg);
	return rc;
}

static int import_srt(const char *path)
{
	char *text = NULL, *out = NULL, *warn = NULL;
	size_t len = 0;
	bool missing;
	struct cordon_diag d;
	enum cordon_err err;
	cJSON *doc;
	int rc;

	rc = read_settings(path, false, &missing, &text, &len);
	if (rc)
		return rc;
	memset(&d, 0, sizeof(d));
	err = import_srt_settings(text, len, &out, &warn, &d);
	free(text);
	if (err != CORDON_OK) {
		cli_report(NULL, path, d.message);
		free(warn);
		return import_status(err);
	}
	report_warnings(path, warn);
	free(warn);
	doc = cJSON_Parse(out);
	free(out);
	rc = print_checked(path, doc);
	cJSON_Delete(doc);
	return rc;
}

/* The "/path" rules of a file without a project root (the user's settings,
 * stdin) are read relative to the project root once merged with a
 * project's files: said as a warning. */
static void warn_root_relative(const char *file, const cJSON *perms,
			       const char *root)
{
	static const char *const lists[] = { "allow", "ask", "deny" };

	for (size_t l = 0; l < 3; l++) {
		const cJSON *it;
		size_t i = 0;

		cJSON_ArrayForEach (
			it, cJSON_GetObjectItemCaseSensitive(perms, lists[l])) {
			const char *r = it->valuestring, *open;
			char msg[512];

			open = r ? strchr(r, '(') : NULL;
			if (open && open[1] == '/' && open[2] != '/' &&
			    strncmp(r, "Bash(", 5) != 0) {
				snprintf(msg, sizeof(msg),
					 "permissions.%s[%zu] '%.200s': this "
					 "file has no project root; merged, "
					 "'/path' is read under %.200s",
					 lists[l], i, r, root);
				report_warnings(file, msg);
			}
			i++;
		}
	}
}

/* Appends the strings of src not already in dst. */
static bool merge_list(cJSON *dst, const cJSON *src)
{
	const cJSON *it, *have;

	cJSON_ArrayForEach (it, src) {
		bool dup = false;
		cJSON *v;

		if (!cJSON_IsString(it))
			continue;
		cJSON_ArrayForEach (have, dst)
			if (strcmp(have->valuestring, it->valuestring) == 0)
				dup = true;
		if (dup)
			continue;
		v = cJSON_CreateString(it->valuestring);
		if (!v || !cJSON_AddItemToArray(dst, v)) {
			cJSON_Delete(v);
			return false;
		}
	}
	return true;
}

struct claude_file {
	const char *path;
	int rank; /* higher: more specific (its defaultMode wins) */
	bool optional; /* a default location: skipped when missing */
};

static int import_claude(struct claude_file *files, size_t nfiles)
{
	cJSON *doc = cJSON_CreateObject(), *perms, *lists[3];
	cJSON *mode_safety = NULL, *root = NULL;
	static const char *const keys[] = { "allow", "ask", "deny" };
	cJSON *rootless[IMPORT_MAX_FILES]; /* permissions of files without a
					      project root */
	const char *rootless_path[IMPORT_MAX_FILES];
	size_t nrootless = 0;
	int best_rank = -1, rc = CLI_EXIT_OK;
	bool capped = false, any = false;

	perms = doc ? cJSON_AddObjectToObject(doc, "permissions") : NULL;
	for (int l = 0; l < 3; l++)
		lists[l] = perms ? cJSON_AddArrayToObject(perms, keys[l]) :
				   NULL;
	if (!lists[0] || !lists[1] || !lists[2]) {
		cJSON_Delete(doc);
		cli_report(NULL, NULL, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	for (size_t f = 0; f < nfiles; f++) {
		char *text = NULL, *out = NULL, *warn = NULL;
		size_t len = 0;
		bool missing = false;
		struct cordon_diag d;
		enum cordon_err err;
		cJSON *one;
		const cJSON *p, *s;

		rc = read_settings(files[f].path, files[f].optional, &missing,
				   &text, &len);
		if (rc)
			goto out;
		if (missing)
			continue;
		any = true;
		memset(&d, 0, sizeof(d));
		err = import_claude_settings(
			text, len,
			strcmp(files[f].path, "-") == 0 ? NULL : files[f].path,
			&out, &warn, &d);
		free(text);
		if (err != CORDON_OK) {
			cli_report(NULL, files[f].path, d.message);
			free(warn);
			rc = import_status(err);
			goto out;
		}
		report_warnings(files[f].path, warn);
		free(warn);
		one = cJSON_Parse(out);
		free(out);
		if (!one) {
			cli_report(NULL, NULL, "out of memory");
			rc = CLI_EXIT_FAILURE;
			goto out;
		}
		p = cJSON_GetObjectItemCaseSensitive(one, "permissions");
		for (int l = 0; l < 3; l++)
			if (!merge_list(lists[l],
					cJSON_GetObjectItemCaseSensitive(
						p, keys[l]))) {
				cJSON_Delete(one);
				cli_report(NULL, NULL, "out of memory");
				rc = CLI_EXIT_FAILURE;
				goto out;
			}
		if (!root &&
		    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, "root")))
			root = cJSON_Duplicate(
				cJSON_GetObjectItemCaseSensitive(p, "root"), 0);
		if (!cJSON_IsString(
			    cJSON_GetObjectItemCaseSensitive(p, "root")) &&
		    nrootless < IMPORT_MAX_FILES) {
			rootless[nrootless] = cJSON_Duplicate(p, 1);
			rootless_path[nrootless++] = files[f].path;
		}
		s = cJSON_GetObjectItemCaseSensitive(one, "safety");
		if (cJSON_GetObjectItemCaseSensitive(s, "max_permission_mode"))
			capped = true;
		if ((cJSON_GetObjectItemCaseSensitive(s, "permission_mode") ||
		     cJSON_GetObjectItemCaseSensitive(s, "read_only")) &&
		    files[f].rank > best_rank) {
			best_rank = files[f].rank;
			cJSON_Delete(mode_safety);
			mode_safety = cJSON_Duplicate(s, 1);
		}
		cJSON_Delete(one);
	}
	for (size_t i = 0; i < nrootless && root; i++)
		warn_root_relative(rootless_path[i], rootless[i],
				   root->valuestring);
	if (!any) {
		cli_report(NULL, NULL,
			   "no Claude Code settings found (looked for "
			   "./.claude/settings.json, "
			   "./.claude/settings.local.json, "
			   "~/.claude/settings.json)");
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	if (root) {
		cJSON_AddItemToObject(perms, "root", root);
		root = NULL;
	} else {
		cJSON_AddNullToObject(perms, "root");
	}
	if (mode_safety || capped) {
		cJSON *safety = cJSON_AddObjectToObject(doc, "safety");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(
			mode_safety, "permission_mode");

		if (safety && m)
			cJSON_AddStringToObject(safety, "permission_mode",
						m->valuestring);
		if (safety && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				      mode_safety, "read_only")))
			cJSON_AddTrueToObject(safety, "read_only");
		if (safety && capped)
			cJSON_AddStringToObject(safety, "max_permission_mode",
						"auto");
	}
	rc = print_checked("claude", doc);
out:
	for (size_t i = 0; i < nrootless; i++)
		cJSON_Delete(rootless[i]);
	cJSON_Delete(root);
	cJSON_Delete(mode_safety);
	cJSON_Delete(doc);
	return rc;
}

/* ~/NAME, or NULL when HOME is unset. malloc'd. */
static char *home_path(const char *name)
{
	const char *home = getenv("HOME");
	size_t n;
	char *p;

	if (!home || !home[0])
		return NULL;
	n = strlen(home) + strlen(name) + 2;
	p = malloc(n);
	if (p && snprintf(p, n, "%s/%s", home, name) >= (int)n) {
		free(p);
		return NULL;
	}
	return p;
}

/* --from codex FILE.rules...: Codex's execpolicy rules as command rules
 * (import_codex.h), the files' rules merged, deny first, then ask, then
 * allow (Codex applies the strictest matching rule). */
static int import_codex(int nfiles, char **files)
{
	static const char *const order[] = { "deny", "ask", "allow" };
	cJSON *lists[3] = { cJSON_CreateArray(), cJSON_CreateArray(),
			    cJSON_CreateArray() };
	cJSON *doc = NULL, *all;
	int rc = CLI_EXIT_FAILURE;

	if (nfiles < 1) {
		fputs("cordon config import: --from codex takes the .rules "
		      "files (~/.codex/rules/*.rules)\n",
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	for (int f = 0; f < nfiles; f++) {
		struct cordon_diag d = { 0 };
		char *text, *out = NULL, *warn = NULL;
		size_t len = 0;
		cJSON *one, *r;
		enum cordon_err err;

		text = cli_read_file(files[f], CLI_SETTINGS_MAX, &len);
		if (!text) {
			cli_report(NULL, files[f], strerror(errno));
			rc = errno == ENOENT || errno == EISDIR ||
					     errno == EFBIG ?
				     CLI_EXIT_USAGE :
				     CLI_EXIT_FAILURE;
			goto out;
		}
		err = import_codex_rules(text, len, &out, &warn, &d);
		free(text);
		if (err != CORDON_OK) {
			cli_report(NULL, files[f], d.message);
			free(out);
			free(warn);
			rc = err == CORDON_E_NOMEM ? CLI_EXIT_FAILURE :
						     CLI_EXIT_USAGE;
			goto out;
		}
		if (warn)
			fprintf(stderr, "cordon config import: %s: %s",
				files[f], warn);
		free(warn);
		one = cJSON_Parse(out);
		free(out);
		if (!one)
			goto oom;
		while ((r = cJSON_DetachItemFromArray(
				cJSON_GetObjectItemCaseSensitive(
					cJSON_GetObjectItemCaseSensitive(
						one, "safety"),
					"command_rules"),
				0))) {
			const char *dec = cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(r,
								 "decision"));

			for (int k = 0; k < 3; k++)
				if (dec && strcmp(dec, order[k]) == 0) {
					cJSON_AddItemToArray(lists[k], r);
					r = NULL;
					break;
				}
			cJSON_Delete(r);
		}
		cJSON_Delete(one);
	}
	doc = cJSON_CreateObject();
	all = doc ? cJSON_AddArrayToObject(
			    cJSON_AddObjectToObject(doc, "safety"),
			    "command_rules") :
		    NULL;
	if (!all || !lists[0] || !lists[1] || !lists[2])
		goto oom;
	for (int k = 0; k < 3; k++) {
		cJSON *r;

		while ((r = cJSON_DetachItemFromArray(lists[k], 0)))
			cJSON_AddItemToArray(all, r);
	}
	rc = print_checked("codex", doc);
	goto out;
oom:
	cli_report(NULL, NULL, "out of memory");
	rc = CLI_EXIT_FAILURE;
out:
	for (int k = 0; k < 3; k++)
		cJSON_Delete(lists[k]);
	cJSON_Delete(doc);
	return rc;
}

enum { OPT_FROM = 256 };

static const struct option import_longopts[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cli_config_import(int argc, char **argv)
{
	const char *from = NULL;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", import_longopts, NULL)) !=
	       -1) {
		switch (c) {
		case OPT_FROM:
			from = optarg;
			break;
		case 'h':
			import_usage(stdout);
			return CLI_EXIT_OK;
		default: {
			char o[3];

			fprintf(stderr,
				"cordon config import: unknown or "
				"incomplete option '%s'\n",
				cli_bad_option(argv, o));
		}
			fputs("Try 'cordon config import --help'.\n", stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (from && strcmp(from, "codex") == 0)
		return import_codex(argc - optind, argv + optind);
	if (!from ||
	    (strcmp(from, "claude") != 0 && strcmp(from, "srt") != 0)) {
		fputs("cordon config import: --from claude, srt or codex is "
		      "required\n",
		      stderr);
		fputs("Try 'cordon config import --help'.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(from, "srt") == 0) {
		char *dflt;

		if (argc - optind > 1) {
			fputs("cordon config import: --from srt takes one "
			      "FILE\n",
			      stderr);
			return CLI_EXIT_USAGE;
		}
		if (optind < argc)
			return import_srt(argv[optind]);
		dflt = home_path(".srt-settings.json");
		if (!dflt) {
			cli_report(NULL, NULL,
				   "HOME is not set: give the srt settings "
				   "FILE");
			return CLI_EXIT_FAILURE;
		}
		rc = import_srt(dflt);
		free(dflt);
		return rc;
	}
	if (optind < argc) {
		struct claude_file files[IMPORT_MAX_FILES];
		size_t n = (size_t)(argc - optind);

		if (n > IMPORT_MAX_FILES) {
			fprintf(stderr,
				"cordon config import: at most %d "
				"files\n",
				IMPORT_MAX_FILES);
			return CLI_EXIT_USAGE;
		}
		for (size_t i = 0; i < n; i++) {
			files[i].path = argv[optind + (int)i];
			files[i].rank = (int)i;
			files[i].optional = false;
		}
		return import_claude(files, n);
	}
	{
		char *user = home_path(".claude/settings.json");
		struct claude_file files[3] = {
			{ "./.claude/settings.json", 1, true },
			{ "./.claude/settings.local.json", 2, true },
			{ user, 0, true },
		};

		rc = import_claude(files, user ? 3 : 2);
		free(user);
		return rc;
	}
}
