/* cordon approvals — the rules the user's answers left in the approvals
 * file: list them, revoke some, clear them all.
 *
 * list reads the file as the doors do (approvals_open: its warnings, the
 * rules that load) and shows every rule of the file by its index, with
 * whether it is in force. revoke and clear go through approvals_edit
 * (under the store's lock, atomic replacement; a file cordon cannot read
 * as a whole is refused, never rewritten).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "approvals.h"
#include "approvals_edit.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "json.h"

#include "banned.h"

#define APPROVALS_MAX_ARGS 1000

void cli_approvals_usage(FILE *out)
{
	fputs("usage: cordon approvals list [--json] [OPTIONS]\n"
	      "       cordon approvals revoke INDEX... [OPTIONS]\n"
	      "       cordon approvals clear [OPTIONS]\n"
	      "\n"
	      "The approvals file holds the rules your \"always\" answers "
	      "left (allow or\n"
	      "deny a command, a command prefix, a path or a whole tool). "
	      "list shows each\n"
	      "with its index and whether it is in force; revoke removes the "
	      "rules with\n"
	      "those indexes; clear removes them all. The file is changed "
	      "under its lock\n"
	      "and replaced atomically; a file cordon cannot read is left "
	      "alone.\n"
	      "\n"
	      "options:\n"
	      "  --file FILE    the approvals file (default: approvals.path, "
	      "or\n"
	      "                 $XDG_CONFIG_HOME/cordon/approvals.json)\n"
	      "  --config FILE  a configuration file, after the user and "
	      "project files\n"
	      "  --json         list: one JSON object\n"
	      "  -h, --help     this help\n"
	      "\n"
	      "exit status: 0 done, 1 the file cannot be read or written, 2 "
	      "on a usage\n"
	      "error (an index the file does not have, a file cordon will "
	      "not edit).\n",
	      out);
}

struct approvals_opts {
	const char *sub;
	const char *file;
	const char *config;
	bool json;
	size_t idx[APPROVALS_MAX_ARGS];
	size_t nidx;
};

/* An index as list prints it: decimal, no sign. */
static int parse_index(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > 1000000)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* 0 parsed, 1 help printed, -1 usage error (reported). */
static int parse_options(int argc, char **argv, struct approvals_opts *o)
{
	enum { OPT_FILE = 256, OPT_CONFIG, OPT_JSON };
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, OPT_FILE },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	if (argc < 2) {
		fputs("cordon approvals: which? list, revoke or clear\n",
		      stderr);
		goto usage;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		cli_approvals_usage(stdout);
		return 1;
	}
	o->sub = argv[1];
	if (strcmp(o->sub, "list") && strcmp(o->sub, "revoke") &&
	    strcmp(o->sub, "clear")) {
		cli_report("approvals", "unknown subcommand", o->sub);
		goto usage;
	}
	argc--;
	argv++;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FILE:
			o->file = optarg;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'h':
			cli_approvals_usage(stdout);
			return 1;
		default:
			cli_getopt_error("approvals", c, argv);
			goto usage;
		}
	}
	for (; optind < argc; optind++) {
		if (strcmp(o->sub, "revoke") != 0) {
			cli_unexpected_arg("approvals", argv[optind]);
			goto usage;
		}
		if (o->nidx == APPROVALS_MAX_ARGS) {
			fprintf(stderr,
				"cordon approvals: more than %d indexes\n",
				APPROVALS_MAX_ARGS);
			goto usage;
		}
		if (parse_index(argv[optind], &o->idx[o->nidx]) != 0) {
			cli_report("approvals", "not an index (see 'cordon "
				   "approvals list')", argv[optind]);
			goto usage;
		}
		o->nidx++;
	}
	if (strcmp(o->sub, "revoke") == 0 && o->nidx == 0) {
		fputs("cordon approvals: revoke: which rules? give their "
		      "indexes from 'cordon approvals list'\n",
		      stderr);
		goto usage;
	}
	if (o->json && strcmp(o->sub, "list") != 0) {
		fputs("cordon approvals: --json is for list\n", stderr);
		goto usage;
	}
	return 0;
usage:
	fputs("Try 'cordon approvals --help'.\n", stderr);
	return -1;
}

/* Whether rules[i] is named by a warning (it was dropped, or the file is
 * unusable). */
static bool warned(const struct approvals_store *st, size_t i)
{
	char tag[32];

	if (st->corrupt)
		return true;
	snprintf(tag, sizeof(tag), "rules[%zu]", i);
	for (size_t w = 0; w < st->nwarnings; w++) {
		const char *at = strstr(st->warnings[w], tag);

		if (at && (at[strlen(tag)] == ']' || at[strlen(tag)] == '.' ||
			   at[strlen(tag)] == ':' || at[strlen(tag)] == ' ' ||
			   !at[strlen(tag)]))
			return true;
	}
	return false;
}

/* What a rule covers, in words: "Bash: commands starting git push". */
static void describe(const cJSON *r, char *buf, size_t cap)
{
	const char *tool = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(r, "tool"));
	const cJSON *pre = cJSON_GetObjectItemCaseSensitive(r, "commandPrefix");
	const char *cmd = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(r, "command"));
	const char *path = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(r, "path"));
	size_t n;
	const cJSON *w;

	n = (size_t)snprintf(buf, cap, "%s: ",
			     tool ? (strcmp(tool, "*") ? tool : "every tool") :
				    "?");
	if (n >= cap)
		return;
	if (cJSON_IsArray(pre)) {
		n += (size_t)snprintf(buf + n, cap - n, "commands starting");
		cJSON_ArrayForEach (w, pre)
			if (n < cap && cJSON_IsString(w))
				n += (size_t)snprintf(buf + n, cap - n, " %s",
						      w->valuestring);
	} else if (cmd) {
		snprintf(buf + n, cap - n, "exactly '%s'", cmd);
	} else if (path) {
		snprintf(buf + n, cap - n, "the path %s", path);
	} else {
		snprintf(buf + n, cap - n, "every call");
	}
}

static int list(const struct approvals_opts *o, const char *path)
{
	struct approvals_store st;
	size_t len = 0;
	char *text = NULL, *out = NULL;
	cJSON *root = NULL, *doc = NULL, *arr, *warn;
	const cJSON *rules = NULL, *r;
	int rc = CLI_EXIT_FAILURE;
	size_t i = 0;

	memset(&st, 0, sizeof(st));
	if (approvals_open(&st, path) == CORDON_E_NOMEM)
		goto oom;
	text = cli_read_file(path, CLI_SETTINGS_MAX, &len);
	if (text) {
		root = cJSON_ParseWithLength(text, len);
		rules = root ? cJSON_GetObjectItemCaseSensitive(root, "rules") :
			       NULL;
	}
	doc = cJSON_CreateObject();
	arr = doc ? cJSON_AddArrayToObject(doc, "rules") : NULL;
	warn = doc ? cJSON_AddArrayToObject(doc, "warnings") : NULL;
	if (!arr || !warn || !cJSON_AddStringToObject(doc, "path", path) ||
	    !cJSON_AddBoolToObject(doc, "exists", text != NULL) ||
	    !cJSON_AddBoolToObject(doc, "usable", !st.corrupt))
		goto oom;
	for (size_t w = 0; w < st.nwarnings; w++)
		if (!cJSON_AddItemToArray(warn,
					  cJSON_CreateString(st.warnings[w])))
			goto oom;
	if (!cJSON_IsArray(rules))
		rules = NULL;
	cJSON_ArrayForEach (r, rules) {
		cJSON *e = cJSON_Duplicate(r, 1);
		char what[1024];

		if (!e || !cJSON_IsObject(e) ||
		    !cJSON_AddItemToArray(arr, e)) {
			cJSON_Delete(e);
			if (!e)
				goto oom;
			i++;
			continue;
		}
		describe(r, what, sizeof(what));
		if (!cJSON_AddNumberToObject(e, "index", (double)i) ||
		    !cJSON_AddBoolToObject(e, "inForce", !warned(&st, i)) ||
		    !cJSON_AddItemToObject(e, "covers",
					   json_clean_string(what,
							     strlen(what))))
			goto oom;
		i++;
	}
	if (o->json) {
		out = json_print_indented(doc);
		if (!out)
			goto oom;
		puts(out);
	} else {
		printf("%s: %zu rule%s%s\n", path, i, i == 1 ? "" : "s",
		       text ? "" : " (no file yet)");
		cJSON_ArrayForEach (r, arr) {
			const char *dec = cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(r, "decision"));
			const char *cov = cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(r, "covers"));

			printf("  [%.0f] %-5s ", cJSON_GetNumberValue(
				       cJSON_GetObjectItemCaseSensitive(r,
									"index")),
			       dec ? dec : "?");
			cli_print_escaped(stdout, cov, strlen(cov));
			fputs(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				      r, "inForce")) ?
				      "\n" :
				      "  (not in force)\n",
			      stdout);
		}
		for (size_t w = 0; w < st.nwarnings; w++) {
			fputs("warning: ", stdout);
			cli_print_escaped(stdout, st.warnings[w],
					  strlen(st.warnings[w]));
			fputc('\n', stdout);
		}
	}
	rc = st.corrupt ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
	if (fflush(stdout) != 0)
		rc = CLI_EXIT_FAILURE;
	goto out;
oom:
	cli_report("approvals", NULL, "out of memory");
out:
	approvals_close(&st);
	cJSON_Delete(root);
	cJSON_Delete(doc);
	free(text);
	free(out);
	return rc;
}

int cli_approvals(int argc, char **argv)
{
	static struct approvals_opts o; /* 8 KB of indexes: not on the stack */
	struct cordon_config *cfg = NULL;
	char buf[PATH_MAX], why[512];
	const char *path;
	size_t removed = 0;
	enum cordon_err err;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	rc = cli_load_config(&cfg, o.config, NULL);
	if (rc)
		return rc;
	path = o.file ? o.file : cfg->approvals_path;
	if (!path && cli_approvals_default_path(buf, sizeof(buf)) == 0)
		path = buf;
	if (!path) {
		cli_report("approvals", NULL,
			   "no approvals file: set approvals.path or HOME");
		cordon_config_free(cfg);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(o.sub, "list") == 0) {
		rc = list(&o, path);
		cordon_config_free(cfg);
		return rc;
	}
	err = approvals_edit_remove(path,
				    strcmp(o.sub, "clear") == 0 ? NULL : o.idx,
				    o.nidx, &removed, why, sizeof(why));
	if (err == CORDON_OK) {
		printf("%s: %zu rule%s removed\n", path, removed,
		       removed == 1 ? "" : "s");
		rc = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
	} else {
		cli_report("approvals", path, why);
		rc = err == CORDON_E_IO || err == CORDON_E_NOMEM ?
			     CLI_EXIT_FAILURE :
			     CLI_EXIT_USAGE;
	}
	cordon_config_free(cfg);
	return rc;
}
