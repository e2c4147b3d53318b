/* init_door — `cordon init cursor|copilot|codex|windsurf|qwen|kiro|cline
 * [--remove]`:
 * cordon's hook in Cursor's hooks.json, GitHub Copilot CLI's repository
 * hooks, Codex CLI's hooks.json (Claude Code's matcher groups under
 * PreToolUse) and Windsurf's hooks.json (pre_run_command, pre_read_code,
 * pre_write_code, pre_mcp_tool_use: {"command": …}).
 *
 *   cursor:  .cursor/hooks.json (--user: ~/.cursor/hooks.json), version 1,
 *            {"command": "CORDON hook cursor"} in each of
 *            beforeShellExecution, beforeMCPExecution and beforeReadFile
 *   copilot: .github/hooks/cordon.json, version 1, preToolUse
 *            {"type": "command", "bash": "CORDON hook copilot",
 *             "timeoutSec": 30}
 * where CORDON is this binary's absolute path. An entry that runs another
 * cordon's hook for the agent (a moved or rebuilt binary) is replaced, so
 * running init again from the installed cordon fixes what `cordon doctor`
 * reports; an entry already right changes nothing. --remove takes out
 * every entry running a cordon hook for the agent (and an event list it
 * leaves empty). These files are JSON without comments: the file is read
 * whole, changed and written back with two-space indentation, keeping
 * every other key and entry; one that is not valid JSON, whose "hooks" or
 * event lists have another type, or that is not a regular file is refused
 * and left untouched. Before an existing file changes, a copy is kept
 * beside it (FILE.bak-YYYYMMDDTHHMMSSZ); the new text is written to a temp
 * file in the same directory, fsync'd and renamed over it (a symlinked
 * file is written where it points).
 *
 * Cline (cline_init) reads no settings file: its hook is an executable
 * file named after the event, so init writes that file whole (mode 0755,
 * marked as cordon's on its second line), never over one it did not
 * write and never through a symlink, and --remove deletes it and the
 * directories init made when they are left empty.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agents.h"
#include "atomic.h"
#include "cli.h"
#include "json.h"

#include "banned.h"

static const struct door_init {
	const char *agent;
	const char *user_file;	  /* under $HOME, or NULL: project only */
	const char *project_file; /* under the current directory */
	const char *events[5];
	bool copilot_shape; /* {"type", "bash", "timeoutSec"} */
	bool nested; /* Claude Code's {"matcher", "hooks": [entry]} groups */
	bool no_version; /* the file has no "version" key */
	const char *seed; /* a new file's other keys (JSON), or NULL */
	bool script; /* the hook is an executable file of its own (Cline) */
} inits[] = {
	{ "cursor",
	  ".cursor/hooks.json",
	  ".cursor/hooks.json",
	  { "beforeShellExecution", "beforeMCPExecution", "beforeReadFile",
	    NULL },
	  false,
	  false,
	  false,
	  NULL,
	  false },
	{ "copilot",
	  NULL,
	  ".github/hooks/cordon.json",
	  { "preToolUse", NULL },
	  true,
	  false,
	  false,
	  NULL,
	  false },
	{ "codex",
	  ".codex/hooks.json",
	  ".codex/hooks.json",
	  { "PreToolUse", NULL },
	  false,
	  true,
	  true,
	  NULL,
	  false },
	{ "windsurf",
	  ".codeium/windsurf/hooks.json",
	  ".windsurf/hooks.json",
	  { "pre_run_command", "pre_read_code", "pre_write_code",
	    "pre_mcp_tool_use" },
	  false,
	  false,
	  true,
	  NULL,
	  false },
	/* Qwen Code: Claude's matcher groups in its settings.json. */
	{ "qwen",
	  ".qwen/settings.json",
	  ".qwen/settings.json",
	  { "PreToolUse", NULL },
	  false,
	  true,
	  true,
	  NULL,
	  false },
	/* Kiro CLI: hooks belong to an agent; a new agent file gets every
	 * tool (an agent without "tools" has none), and Kiro still asks
	 * before the tools it does not trust. Use it with `kiro-cli chat
	 * --agent cordon`, or give --settings another agent's file. */
	{ "kiro",
	  ".kiro/agents/cordon.json",
	  ".kiro/agents/cordon.json",
	  { "preToolUse", NULL },
	  false,
	  false,
	  true,
	  "{\"name\": \"cordon\", \"description\": \"Kiro's tools, each "
	  "call decided by cordon's preToolUse hook\", \"tools\": [\"*\"]}",
	  false },
	/* Cline: an executable file named after the event, read by the VS
	 * Code extension and the CLI alike (.clinerules/hooks/ in the
	 * project; ~/Documents/Cline/Hooks/ for the user). */
	{ "cline",
	  "Documents/Cline/Hooks/PreToolUse",
	  ".clinerules/hooks/PreToolUse",
	  { NULL },
	  false,
	  false,
	  true,
	  NULL,
	  true },
};

/* The directories init may have made for a Cline hook file, under the
 * current directory or $HOME: --remove takes them out again once empty,
 * deepest first. */
static const char *const cline_dirs_project[] = { ".clinerules/hooks",
						  ".clinerules", NULL };
static const char *const cline_dirs_user[] = { "Documents/Cline/Hooks",
					       "Documents/Cline", NULL };

bool cli_init_door_owns(int argc, char **argv)
{
	if (argc < 2)
		return false;
	for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++)
		if (strcmp(argv[1], inits[i].agent) == 0)
			return true;
	return false;
}

static void usage(FILE *out)
{
	fputs("usage: cordon init cursor [--project|--user] [--settings FILE] "
	      "[--dry-run] [--remove]\n"
	      "       cordon init codex [--project|--user] [--settings FILE] "
	      "[--dry-run] [--remove]\n"
	      "       cordon init windsurf [--project|--user] [--settings FILE] "
	      "[--dry-run] [--remove]\n"
	      "       cordon init copilot [--settings FILE] [--dry-run] "
	      "[--remove]\n"
	      "       cordon init qwen [--project|--user] [--settings FILE] "
	      "[--dry-run] [--remove]\n"
	      "       cordon init kiro [--project|--user] [--settings FILE] "
	      "[--dry-run] [--remove]\n"
	      "       cordon init cline [--project|--user] [--settings FILE] "
	      "[--dry-run] [--remove]\n"
	      "\n"
	      "Add cordon's hook to Cursor's hooks.json (beforeShellExecution, "
	      "beforeMCPExecution\n"
	      "and beforeReadFile, in .cursor/hooks.json; --user: "
	      "~/.cursor/hooks.json) or to\n"
	      "GitHub Copilot CLI's repository hooks (preToolUse, in "
	      ".github/hooks/cordon.json),\n"
	      "to Codex CLI's hooks (PreToolUse, in .codex/hooks.json; "
	      "--user: ~/.codex/hooks.json),\n"
	      "or to Windsurf's (the four pre_ hooks, in .windsurf/hooks.json; "
	      "--user:\n"
	      "~/.codeium/windsurf/hooks.json), to Qwen Code's settings "
	      "(PreToolUse, in\n"
	      ".qwen/settings.json; --user: ~/.qwen/settings.json) or to a "
	      "Kiro CLI agent\n"
	      "(preToolUse, in .kiro/agents/cordon.json, made with every tool "
	      "when new;\n"
	      "--user: ~/.kiro/agents/cordon.json; --settings: another "
	      "agent's file),\n"
	      "or Cline's hook file (PreToolUse, executable, in "
	      ".clinerules/hooks/; --user:\n"
	      "~/Documents/Cline/Hooks/; a file cordon did not write is "
	      "never replaced),\n"
	      "running this cordon by its absolute path; --remove takes it "
	      "out again. An\n"
	      "existing file is copied to FILE.bak-YYYYMMDDTHHMMSSZ first.\n"
	      "\n"
	      "options:\n"
	      "  --project        the project's file, under the current "
	      "directory (default)\n"
	      "  --user           the user's file, under $HOME (cursor)\n"
	      "  --settings FILE  this file instead\n"
	      "  --dry-run        print the file as it would be; change "
	      "nothing\n"
	      "  --remove         remove cordon's hook instead of adding it\n"
	      "  -h, --help       this help\n"
	      "\n"
	      "exit status: 0 done (or nothing to do), 1 on an I/O error, 2 "
	      "on a usage\n"
	      "error or a file cordon will not edit (left untouched).\n",
	      out);
}

struct door_init_opts {
	const struct door_init *in;
	bool user, dry_run, remove;
	const char *settings;
};

/* The options, parsed as for every agent (hookopts.c). */
static int parse_options(int argc, char **argv, struct door_init_opts *o)
{
	struct cli_init_opts co = { 0 };
	const struct door_init *in = NULL;
	int rc;

	for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++)
		if (argc >= 2 && strcmp(argv[1], inits[i].agent) == 0)
			in = &inits[i];
	rc = cli_init_parse_options(argc, argv, &co, usage,
				    in && in->user_file ? CLI_INIT_USER : 0);
	if (rc)
		return rc;
	o->in = in;
	o->user = co.user;
	o->dry_run = co.dry_run;
	o->remove = co.remove;
	o->settings = co.settings;
	return 0;
}

/* This binary's "PATH hook AGENT", the path single-quoted when it holds
 * anything but plain characters. NULL (reported) on failure. */
static char *hook_cmd(const char *agent)
{
	char exe[PATH_MAX], *out;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t cap;
	bool plain = true;
	char *w;

	if (n <= 0 || (size_t)n >= sizeof(exe) - 1) {
		fputs("cordon init: cannot find this program's path "
		      "(/proc/self/exe)\n",
		      stderr);
		return NULL;
	}
	exe[n] = '\0';
	for (const char *p = exe; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789/._+-,:=@%",
			    *p))
			plain = false;
	cap = 4 * (size_t)n + 32 + strlen(agent);
	out = malloc(cap);
	if (!out) {
		fputs("cordon init: out of memory\n", stderr);
		return NULL;
	}
	w = out;
	if (!plain)
		*w++ = '\'';
	for (const char *p = exe; *p; p++) {
		if (*p == '\'' && !plain) {
			memcpy(w, "'\\''", 4);
			w += 4;
		} else {
			*w++ = *p;
		}
	}
	if (!plain)
		*w++ = '\'';
	snprintf(w, cap - (size_t)(w - out), " hook %s", agent);
	return out;
}

static const char *entry_cmd(const struct door_init *in, const cJSON *e)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		e, in->copilot_shape ? "bash" : "command"));
}

static cJSON *new_entry(const struct door_init *in, const char *cmd)
{
	cJSON *e = cJSON_CreateObject();

	if (!e)
		return NULL;
	if (in->nested) {
		cJSON *hooks = cJSON_AddArrayToObject(e, "hooks");
		cJSON *h = cJSON_CreateObject();

		if (!cJSON_AddStringToObject(e, "matcher", "*") || !hooks || !h ||
		    !cJSON_AddItemToArray(hooks, h) ||
		    !cJSON_AddStringToObject(h, "type", "command") ||
		    !cJSON_AddStringToObject(h, "command", cmd)) {
			if (h && !h->prev)
				cJSON_Delete(h);
			cJSON_Delete(e);
			return NULL;
		}
		return e;
	}
	if (in->copilot_shape ?
		    (!cJSON_AddStringToObject(e, "type", "command") ||
		     !cJSON_AddStringToObject(e, "bash", cmd) ||
		     !cJSON_AddNumberToObject(e, "timeoutSec", 30)) :
		    !cJSON_AddStringToObject(e, "command", cmd)) {
		cJSON_Delete(e);
		return NULL;
	}
	return e;
}

/* Entry e of arr: ours (the first is kept, *have set, unless removing),
 * another cordon's hook for the agent (dropped), or the user's (kept).
 * 1 when e was dropped. */
static int drop_one(const struct door_init *in, cJSON *arr, cJSON *e,
		    const char *cmd, bool remove, bool *have)
{
	const char *c = in->nested ?
				cJSON_GetStringValue(
					cJSON_GetObjectItemCaseSensitive(
						e, "command")) :
				entry_cmd(in, e);
	struct cli_hook_cmd hc;

	if (!c)
		return 0;
	if (!remove && strcmp(c, cmd) == 0 && !*have) {
		*have = true;
		return 0;
	}
	/* Another cordon's hook for this agent (or a second copy of
	 * ours): replaced or removed. */
	if (!cli_is_hook_cmd(c, in->agent, &hc))
		return 0;
	cJSON_DetachItemViaPointer(arr, e);
	cJSON_Delete(e);
	return 1;
}

/* The same over one matcher group's hooks. */
static int drop_cmds(const struct door_init *in, cJSON *hs, const char *cmd,
		     bool remove, bool *have)
{
	cJSON *h, *next;
	int changed = 0;

	for (h = hs->child; h; h = next) {
		next = h->next;
		changed |= drop_one(in, hs, h, cmd, remove, have);
	}
	return changed;
}

/* Changes root in place. Returns 1 changed, 0 nothing to do, or -1 with
 * why set (a shape cordon will not edit) or oom set. */
static int edit(const struct door_init *in, cJSON *root, const char *cmd,
		bool remove, char *why, size_t cap, bool *oom)
{
	cJSON *hooks;
	int changed = 0;

	*oom = false;
	if (!cJSON_IsObject(root)) {
		snprintf(why, cap, "the top level is not an object");
		return -1;
	}
	for (const cJSON *a = root->child; a; a = a->next)
		for (const cJSON *b = a->next; b; b = b->next)
			if (strcmp(a->string, b->string) == 0) {
				snprintf(why, cap, "key '%.64s' appears twice",
					 a->string);
				return -1;
			}
	hooks = cJSON_GetObjectItemCaseSensitive(root, "hooks");
	if (hooks && !cJSON_IsObject(hooks)) {
		snprintf(why, cap, "\"hooks\" is not an object");
		return -1;
	}
	if (!in->no_version &&
	    !cJSON_GetObjectItemCaseSensitive(root, "version") && !remove) {
		if (!cJSON_AddNumberToObject(root, "version", 1))
			goto oom;
		changed = 1;
	}
	if (!hooks) {
		if (remove)
			return 0;
		hooks = cJSON_AddObjectToObject(root, "hooks");
		if (!hooks)
			goto oom;
	}
	for (size_t i = 0; in->events[i]; i++) {
		cJSON *arr = cJSON_GetObjectItemCaseSensitive(hooks,
							      in->events[i]);
		bool have = false;
		cJSON *e, *next;

		if (arr && !cJSON_IsArray(arr)) {
			snprintf(why, cap, "hooks.%s is not an array",
				 in->events[i]);
			return -1;
		}
		if (!arr) {
			if (remove)
				continue;
			arr = cJSON_AddArrayToObject(hooks, in->events[i]);
			if (!arr)
				goto oom;
		}
		for (e = arr->child; e; e = next) {
			next = e->next;
			if (in->nested) {
				cJSON *hs = cJSON_GetObjectItemCaseSensitive(
					e, "hooks");

				if (!cJSON_IsArray(hs))
					continue;
				changed |= drop_cmds(in, hs, cmd, remove,
						     &have);
				if (!cJSON_GetArraySize(hs)) {
					cJSON_DetachItemViaPointer(arr, e);
					cJSON_Delete(e);
					changed = 1;
				}
				continue;
			}
			changed |= drop_one(in, arr, e, cmd, remove, &have);
		}
		if (!remove && !have) {
			cJSON *ne = new_entry(in, cmd);

			if (!ne || !cJSON_AddItemToArray(arr, ne)) {
				cJSON_Delete(ne);
				goto oom;
			}
			changed = 1;
		}
		if (remove && cJSON_GetArraySize(arr) == 0) {
			cJSON_DeleteItemFromObjectCaseSensitive(hooks,
								in->events[i]);
			changed = 1;
		}
	}
	return changed;
oom:
	*oom = true;
	return -1;
}

static int backup(const char *path, const char *text, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32], bak[PATH_MAX + 64];
	int fd;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!gmtime_r(&ts.tv_sec, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return -1;
	for (unsigned k = 1; k < 100; k++) {
		int n = k == 1 ? snprintf(bak, sizeof(bak), "%s.bak-%s", path,
					  stamp) :
				 snprintf(bak, sizeof(bak), "%s.bak-%s-%u",
					  path, stamp, k);

		if (n < 0 || (size_t)n >= sizeof(bak))
			return -1;
		fd = open(bak, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -1;
		if (atomic_write_all(fd, text, len) || fsync(fd)) {
			close(fd);
			unlink(bak);
			return -1;
		}
		return close(fd);
	}
	errno = EEXIST;
	return -1;
}

/* ---- Cline: a hook file of its own -------------------------------------- */

/* The first line after the shebang marks a file cordon init wrote. */
#define CLINE_MARK "# cordon: Cline's PreToolUse hook, written by 'cordon init cline'."

/* The hook file: cordon's answer, or a refusal when cordon cannot run or
 * says nothing (Cline lets the call run when its hook fails). NULL on
 * out of memory. */
static char *cline_script(const char *cmd)
{
	static const char fmt[] =
		"#!/bin/sh\n" CLINE_MARK "\n"
		"# Each tool call is decided by cordon's policy; when cordon cannot "
		"run or\n"
		"# answer, the call is refused (Cline runs a call whose hook "
		"fails).\n"
		"out=$(\n"
		"\t%s\n"
		") && [ -n \"$out\" ] && printf '%%s\\n' \"$out\" && exit 0\n"
		"printf '%%s\\n' '{\"cancel\": true, \"errorMessage\": \"cordon: "
		"the cordon hook did not run or did not answer; the call is "
		"refused. Instead: tell the user to run cordon doctor, then "
		"cordon init cline again\"}'\n";
	size_t cap = sizeof(fmt) + strlen(cmd);
	char *out = malloc(cap);

	if (out)
		snprintf(out, cap, fmt, cmd);
	return out;
}

/* Whether text is a hook file cordon init wrote (any cordon's). */
static bool cline_ours(const char *text)
{
	const char *nl = strchr(text, '\n');

	return nl && strncmp(nl + 1, CLINE_MARK "\n",
			     strlen(CLINE_MARK) + 1) == 0;
}

/* Takes out the directories init may have made, when empty. */
static void cline_rmdirs(const char *base, bool user)
{
	const char *const *d = user ? cline_dirs_user : cline_dirs_project;
	char path[PATH_MAX];

	for (; *d; d++) {
		int n = snprintf(path, sizeof(path), "%s%s%s", base ? base : "",
				 base ? "/" : "", *d);

		if (n < 0 || (size_t)n >= sizeof(path) ||
		    (rmdir(path) != 0 && errno != ENOENT))
			return;
	}
}

/* `cordon init cline`: the hook file written whole (mode 0755), never
 * over a file cordon did not write; --remove deletes the file cordon
 * wrote, and the directories it made when they are left empty. */
static int cline_init(const struct door_init_opts *o, const char *path,
		      const char *home)
{
	char *cmd = NULL, *text = NULL, *want = NULL, dir[PATH_MAX];
	struct stat st;
	size_t len = 0;
	int status = CLI_EXIT_FAILURE;
	bool exists = lstat(path, &st) == 0;

	if (exists && !S_ISREG(st.st_mode)) {
		cli_report("init", path,
			   S_ISLNK(st.st_mode) ?
				   "a symbolic link; a hook file Cline runs "
				   "is written only as a regular file, so it "
				   "is left as it is" :
				   "not a regular file; it is left as it is");
		return CLI_EXIT_USAGE;
	}
	if (exists) {
		text = cli_read_file(path, CLI_SETTINGS_MAX, &len);
		if (!text) {
			cli_report("init", path, strerror(errno));
			return CLI_EXIT_FAILURE;
		}
		if (strlen(text) != len || !cline_ours(text)) {
			fprintf(stderr,
				"cordon init: %s: a hook file cordon did not "
				"write; it is left as it is (move it away, "
				"or give --settings another file)\n",
				path);
			free(text);
			return o->remove ? CLI_EXIT_OK : CLI_EXIT_USAGE;
		}
	}
	if (o->remove) {
		if (!exists) {
			printf("%s: no cordon hook to remove\n", path);
			return CLI_EXIT_OK;
		}
		if (o->dry_run) {
			printf("%s: would be removed\n", path);
			free(text);
			return CLI_EXIT_OK;
		}
		free(text);
		if (unlink(path) != 0) {
			cli_report("init", path, strerror(errno));
			return CLI_EXIT_FAILURE;
		}
		if (!o->settings)
			cline_rmdirs(o->user ? home : NULL, o->user);
		printf("%s: cordon's hook removed\n", path);
		return CLI_EXIT_OK;
	}
	cmd = hook_cmd(o->in->agent);
	want = cmd ? cline_script(cmd) : NULL;
	if (!want) {
		if (cmd)
			fputs("cordon init: out of memory\n", stderr);
		goto out;
	}
	if (text && strcmp(text, want) == 0 && (st.st_mode & 0777) == 0755) {
		printf("%s: cordon's hook is already there\n", path);
		status = CLI_EXIT_OK;
		goto out;
	}
	if (o->dry_run) {
		fputs(want, stdout);
		status = CLI_EXIT_OK;
		goto out;
	}
	/* The file was cordon's own: rewritten without a copy. */
	if (atomic_dir_of(path, dir, sizeof(dir)) != 0 ||
	    atomic_mkdirs(dir, 0755) != 0) {
		cli_report("init", dir, strerror(errno));
		goto out;
	}
	if (atomic_write_file(path, want, strlen(want), 0755) != 0) {
		cli_report("init", path, strerror(errno));
		goto out;
	}
	printf("%s: cordon's hook %s (%s)\n", path,
	       text ? "updated" : "added", cmd);
	status = CLI_EXIT_OK;
out:
	free(cmd);
	free(want);
	free(text);
	return status;
}

int cli_init_door(int argc, char **argv)
{
	struct door_init_opts o = { 0 };
	char path[PATH_MAX], real[PATH_MAX], dir[PATH_MAX], why[256] = "";
	const char *target, *home = getenv("HOME");
	char *text = NULL, *cmd = NULL, *out = NULL;
	cJSON *root = NULL;
	struct stat st;
	size_t len = 0;
	bool oom;
	int rc, status = CLI_EXIT_FAILURE;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (o.settings)
		rc = snprintf(path, sizeof(path), "%s", o.settings);
	else if (o.user)
		rc = home && home[0] == '/' ?
			     snprintf(path, sizeof(path), "%s/%s", home,
				      o.in->user_file) :
			     -1;
	else
		rc = snprintf(path, sizeof(path), "%s", o.in->project_file);
	if (rc < 0 || (size_t)rc >= sizeof(path)) {
		fputs("cordon init: no usable path (HOME unset or too long)\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	if (o.in->script)
		return cline_init(&o, path, home);
	target = path;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, real)) {
			cli_report("init", path, strerror(errno));
			return CLI_EXIT_FAILURE;
		}
		target = real;
	}
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		cli_report("init", target,
			   "not a regular file; the file is left as it is");
		return CLI_EXIT_USAGE;
	}
	cmd = hook_cmd(o.in->agent);
	if (!cmd)
		return CLI_EXIT_FAILURE;
	text = cli_read_file(target, CLI_SETTINGS_MAX, &len);
	if (!text && errno != ENOENT) {
		cli_report("init", target, strerror(errno));
		goto out;
	}
	root = text	     ? cJSON_ParseWithLength(text, len) :
	       o.in->seed && !o.remove ? cJSON_Parse(o.in->seed) :
				       cJSON_CreateObject();
	if (!root) {
		if (!text)
			goto oom;
		fprintf(stderr,
			"cordon init: %s: not valid JSON; the file is left as "
			"it is\n",
			target);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	rc = edit(o.in, root, cmd, o.remove, why, sizeof(why), &oom);
	if (rc < 0) {
		if (oom)
			goto oom;
		fprintf(stderr, "cordon init: %s: %s; the file is left as it "
			"is\n", target, why);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (rc == 0 || (o.remove && !text)) {
		printf("%s: %s\n", path,
		       o.remove ? "no cordon hook to remove" :
				  "cordon's hook is already there");
		status = CLI_EXIT_OK;
		goto out;
	}
	out = json_print_indented(root);
	if (!out)
		goto oom;
	if (o.dry_run) {
		puts(out);
		status = CLI_EXIT_OK;
		goto out;
	}
	if (atomic_dir_of(target, dir, sizeof(dir)) != 0 ||
	    atomic_mkdirs(dir, 0755) != 0) {
		cli_report("init", dir, strerror(errno));
		goto out;
	}
	if (text && backup(target, text, len) != 0) {
		cli_report("init", "cannot keep a copy", strerror(errno));
		goto out;
	}
	{
		size_t n = strlen(out);

		out[n] = '\n';
		if (atomic_write_file(target, out, n + 1,
				      text ? st.st_mode & 0777 : 0644) != 0) {
			out[n] = '\0';
			cli_report("init", target, strerror(errno));
			goto out;
		}
		out[n] = '\0';
	}
	printf("%s: cordon's hook %s (%s)\n", path,
	       o.remove ? "removed" : "added", cmd);
	status = CLI_EXIT_OK;
	goto out;
oom:
	fputs("cordon init: out of memory\n", stderr);
out:
	cJSON_Delete(root);
	free(text);
	free(cmd);
	free(out);
	return status;
}
