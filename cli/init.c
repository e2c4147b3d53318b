/* cordon init — install the cordon hook in an agent's settings file.
 *
 * `cordon init claude` adds a PreToolUse entry running `<this cordon> hook
 * claude --claude-scopes || exit 2` to .claude/settings.json (--user:
 * ~/.claude/settings.json): the user's Claude Code rules in every settings
 * scope apply at each call, and a binary that is gone blocks the call (both
 * agents take exit status 2 as a block, 127 as "go on"). `cordon init
 * gemini` adds a BeforeTool entry running `<this cordon> hook gemini --mode
 * auto || exit 2` to .gemini/settings.json (--user: ~/.gemini/…).
 * --sandbox[=strict|auto] / --no-sandbox add `--sandbox MODE` to the hook;
 * --remove takes out the matcher groups that run only cordon's hook (any
 * binary), splicing them out of the text the same way. A binary outside an
 * install location is warned about.
 *
 * The file is edited as text, not re-serialised: the new entry is spliced
 * in after the last member of the object (or element of the array) it
 * joins, so every other byte (key order, spacing, number spellings such
 * as 1e400, escapes, comments in Gemini's JSONC) stays as the user wrote
 * it. An entry running this cordon's hook already there: nothing changes
 * (idempotent). Before an existing file changes, a copy is kept beside it
 * (settings.json.bak-YYYYMMDDTHHMMSSZ); the new text is written to a temp
 * file in the same directory, fsync'd and renamed over the old one (a
 * symlinked settings file is written through to its target). A file that
 * is not valid JSON, whose top level is not an object, or whose "hooks" or
 * event key has another type or appears twice is refused (exit 2) and left
 * untouched, with the key path named.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
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
#include "buf.h"
#include "cli.h"
#include "cordon.h"

#include "banned.h"

#define INIT_MAX_FILE (4 * 1024 * 1024)
#define INIT_MAX_DEPTH 1000

enum init_agent {
	INIT_CLAUDE = 0,
	INIT_GEMINI = 1,
};

/* What init knows of each agent: one row per agent (another agent's door
 * adds its row here and its hook in its own file). */
struct init_agent_def {
	const char *name; /* `cordon init NAME`, and "cordon hook NAME" */
	const char *dir; /* the settings directory under the project/$HOME */
	const char *event; /* the hook event of the entry */
	const char *hook_args; /* after the binary */
	bool named; /* the hook entry carries "name": "cordon" */
};

static const struct init_agent_def init_defs[] = {
	[INIT_CLAUDE] = { "claude", ".claude", "PreToolUse",
			  "hook claude --claude-scopes", false },
	[INIT_GEMINI] = { "gemini", ".gemini", "BeforeTool",
			  "hook gemini --mode auto", true },
};

/* Where a hook binary outlives the checkout that built it. */
static const char *const stable_prefixes[] = {
	"/usr/bin/", "/usr/local/bin/", "/bin/",  "/usr/sbin/",
	"/opt/",     "/nix/store/",	"/snap/", NULL,
};

void cli_init_usage(FILE *out)
{
	fputs("usage: cordon init claude [--project|--user] [--settings FILE] "
	      "[--dry-run]\n"
	      "                          [--sandbox[=auto|strict]|--no-sandbox] "
	      "[--remove]\n"
	      "       cordon init gemini [--project|--user] [--settings FILE] "
	      "[--dry-run]\n"
	      "                          [--sandbox[=auto|strict]|--no-sandbox] "
	      "[--remove]\n"
	      "\n"
	      "Add cordon's hook to an agent's settings file, keeping "
	      "everything else\n"
	      "in it as it is:\n"
	      "  claude: a PreToolUse entry (matcher \"*\") running "
	      "'CORDON hook claude\n"
	      "          --claude-scopes' in .claude/settings.json (the "
	      "user's Claude Code\n"
	      "          rules in every settings scope apply)\n"
	      "  gemini: a BeforeTool entry (matcher \"*\") running "
	      "'CORDON hook gemini\n"
	      "          --mode auto' in .gemini/settings.json\n"
	      "where CORDON is the absolute path of this cordon, followed by "
	      "'|| exit 2'\n"
	      "so that a missing binary blocks the call instead of letting "
	      "it run. Running it again changes\n"
	      "nothing. An existing file is copied to "
	      "FILE.bak-YYYYMMDDTHHMMSSZ first.\n"
	      "\n"
	      "options:\n"
	      "  --project        the project's file, under the current "
	      "directory (default)\n"
	      "  --user           the user's file, under $HOME\n"
	      "  --settings FILE  this settings file instead\n"
	      "  --dry-run        print the file as it would be; change "
	      "nothing\n"
	      "  --sandbox[=MODE] the hook runs every shell command it lets "
	      "through in\n"
	      "                   cordon's sandbox: strict (the default "
	      "here) refuses the\n"
	      "                   command when the sandbox does not work, "
	      "auto lets the\n"
	      "                   agent run it then (without either option: "
	      "hooks.sandbox)\n"
	      "  --no-sandbox     the agent runs the commands itself "
	      "(hooks.sandbox off)\n"
	      "  --remove         take cordon's hook entries out again (a "
	      "backup first)\n"
	      "  -h, --help       this help\n"
	      "\n"
	      "exit status: 0 added or already there, 1 on an I/O error, 2 on "
	      "a usage\n"
	      "error or a settings file cordon will not edit (not valid JSON, "
	      "or \"hooks\"\n"
	      "of an unexpected type; the file is left untouched).\n",
	      out);
}

struct init_opts {
	enum init_agent agent;
	bool user;
	bool dry_run;
	bool remove; /* --remove: take cordon's hook out again */
	const char *sandbox; /* --sandbox[=MODE] / --no-sandbox, or NULL */
	const char *settings;
};

/* The options, parsed as for every agent (hookopts.c). 0 parsed, 1
 * help printed, -1 usage error (reported). */
static int parse_options(int argc, char **argv, struct init_opts *o)
{
	struct cli_init_opts co = { 0 };
	int rc = cli_init_parse_options(argc, argv, &co, cli_init_usage,
					CLI_INIT_USER | CLI_INIT_SANDBOX);

	if (rc)
		return rc;
	o->agent = strcmp(co.name, "gemini") == 0 ? INIT_GEMINI : INIT_CLAUDE;
	o->user = co.user;
	o->dry_run = co.dry_run;
	o->remove = co.remove;
	o->sandbox = co.sandbox;
	o->settings = co.settings;
	return 0;
}

/* ---- reading the settings text ------------------------------------------- */

/* A view of the settings text for the splice: the JSON grammar (checked
 * by cJSON first) plus JSONC comments, which count as white space. */
struct scan {
	const char *s;
	size_t n;
	size_t i;
};

static void skip_ws(struct scan *j)
{
	while (j->i < j->n) {
		char c = j->s[j->i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			j->i++;
		} else if (c == '/' && j->i + 1 < j->n &&
			   j->s[j->i + 1] == '/') {
			while (j->i < j->n && j->s[j->i] != '\n')
				j->i++;
		} else if (c == '/' && j->i + 1 < j->n &&
			   j->s[j->i + 1] == '*') {
			const char *e = memmem(j->s + j->i + 2, j->n - j->i - 2,
					       "*/", 2);
			j->i = e ? (size_t)(e - j->s) + 2 : j->n;
		} else {
			return;
		}
	}
}

/* Moves past one string token (at its opening quote). */
static int skip_string(struct scan *j)
{
	if (j->i >= j->n || j->s[j->i] != '"')
		return -1;
	for (j->i++; j->i < j->n; j->i++) {
		if (j->s[j->i] == '\\')
			j->i++;
		else if (j->s[j->i] == '"') {
			j->i++;
			return 0;
		}
	}
	return -1;
}

/* Moves past one value; the text is valid JSON(C), so this only finds
 * where things end. */
static int skip_value(struct scan *j, unsigned depth)
{
	char c;

	if (depth > INIT_MAX_DEPTH)
		return -1;
	skip_ws(j);
	if (j->i >= j->n)
		return -1;
	c = j->s[j->i];
	if (c == '"')
		return skip_string(j);
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		j->i++;
		skip_ws(j);
		if (j->i < j->n && j->s[j->i] == close) {
			j->i++;
			return 0;
		}
		for (;;) {
			if (c == '{') {
				skip_ws(j);
				if (skip_string(j))
					return -1;
				skip_ws(j);
				if (j->i >= j->n || j->s[j->i] != ':')
					return -1;
				j->i++;
			}
			if (skip_value(j, depth + 1))
				return -1;
			skip_ws(j);
			if (j->i >= j->n)
				return -1;
			if (j->s[j->i] == close) {
				j->i++;
				return 0;
			}
			if (j->s[j->i] != ',')
				return -1;
			j->i++;
		}
	}
	while (j->i < j->n && j->s[j->i] != ',' && j->s[j->i] != '}' &&
	       j->s[j->i] != ']' && j->s[j->i] != ' ' && j->s[j->i] != '\t' &&
	       j->s[j->i] != '\n' && j->s[j->i] != '\r' && j->s[j->i] != '/')
		j->i++;
	return 0;
}

/* Blanks the JSONC comments of s[0..n) (slash-slash to the end of the
 * line, slash-star to star-slash) with spaces, keeping newlines and every offset;
 * strings are skipped with their escapes. -1 when a comment is not
 * closed. (cJSON_Minify cannot be trusted with this: it loses track of a
 * string that ends in an escaped backslash.) */
static int blank_comments(char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			i++;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				s[i++] = ' ';
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			s[i++] = ' ';
			s[i++] = ' ';
			while (i < n &&
			       !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
				if (s[i] != '\n')
					s[i] = ' ';
				i++;
			}
			if (i >= n)
				return -1;
			s[i++] = ' ';
			s[i++] = ' ';
		} else {
			i++;
		}
	}
	return 0;
}

static bool only_space(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return false;
	return true;
}

/* Where a container's parts are: open is its '[' or '{', close its
 * closing bracket, last_start where its last member (or element) begins
 * and last_end where its value ends (open + 1 when it is empty). For
 * an object, the member named key (when found): its value from val to
 * val_end; dup counts further members of that name. */
struct span {
	size_t open, close, last_start, last_end;
	size_t count;
	bool found;
	size_t val, val_end;
	unsigned dup;
};

/* Whether the key token s[0..n) (with its quotes) decodes to name. */
static bool key_is(const char *s, size_t n, const char *name)
{
	cJSON *k = cJSON_ParseWithLength(s, n);
	bool same = k && cJSON_IsString(k) && strcmp(k->valuestring, name) == 0;

	cJSON_Delete(k);
	return same;
}

/* Scans the container at j->i; key (may be NULL) is looked for in an
 * object. */
static int scan_container(struct scan *j, const char *key, struct span *sp)
{
	char c, close;

	memset(sp, 0, sizeof(*sp));
	skip_ws(j);
	if (j->i >= j->n || (j->s[j->i] != '{' && j->s[j->i] != '['))
		return -1;
	c = j->s[j->i];
	close = c == '{' ? '}' : ']';
	sp->open = j->i;
	sp->last_end = j->i + 1;
	j->i++;
	skip_ws(j);
	if (j->i < j->n && j->s[j->i] == close) {
		sp->close = j->i;
		return 0;
	}
	for (;;) {
		size_t k0 = 0, k1 = 0;

		if (c == '{') {
			skip_ws(j);
			k0 = j->i;
			if (skip_string(j))
				return -1;
			k1 = j->i;
			skip_ws(j);
			if (j->i >= j->n || j->s[j->i] != ':')
				return -1;
			j->i++;
		}
		skip_ws(j);
		size_t v0 = j->i;
		if (skip_value(j, 1))
			return -1;
		sp->count++;
		sp->last_start = c == '{' ? k0 : v0;
		sp->last_end = j->i;
		if (key && c == '{' && key_is(j->s + k0, k1 - k0, key)) {
			if (sp->found) {
				sp->dup++;
			} else {
				sp->found = true;
				sp->val = v0;
				sp->val_end = j->i;
			}
		}
		skip_ws(j);
		if (j->i >= j->n)
			return -1;
		if (j->s[j->i] == close) {
			sp->close = j->i;
			j->i++;
			return 0;
		}
		if (j->s[j->i] != ',')
			return -1;
		j->i++;
	}
}

/* ---- the new entry ------------------------------------------------------- */

/* The offset where the line holding at begins. */
static size_t line_start(const char *s, size_t at)
{
	while (at > 0 && s[at - 1] != '\n')
		at--;
	return at;
}

/* The indentation of the line holding offset at. */
static void line_indent(const char *s, size_t at, struct buf *out)
{
	size_t b = line_start(s, at), e = b;

	while (e < at && (s[e] == ' ' || s[e] == '\t'))
		e++;
	buf_add(out, s + b, e - b);
}

/* The file's indentation unit: the leading white space of its first
 * indented line ("  " when there is none). */
static void indent_unit(const char *s, size_t n, struct buf *out)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\n' || i + 1 >= n)
			continue;
		size_t e = i + 1;
		while (e < n && (s[e] == ' ' || s[e] == '\t'))
			e++;
		if (e > i + 1 && e < n && s[e] != '\n' && s[e] != '\r') {
			if (s[i + 1] == '\t')
				buf_add(out, "\t", 1);
			else
				buf_add(out, s + i + 1, e - i - 1);
			return;
		}
	}
	buf_add(out, "  ", 2);
}

/* Appends JSON text of item (a tree the caller built) in the file's
 * style: one line when compact, else indented by unit from base. */
static void put_json(struct buf *b, const cJSON *item, const char *base,
		     const char *unit, bool compact, unsigned level)
{
	if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
		bool obj = cJSON_IsObject(item);
		const cJSON *c;

		buf_adds(b, obj ? "{" : "[");
		for (c = item->child; c; c = c->next) {
			if (!compact) {
				buf_adds(b, "\n");
				buf_adds(b, base);
				for (unsigned l = 0; l <= level; l++)
					buf_adds(b, unit);
			}
			if (obj) {
				char *k = cJSON_PrintUnformatted(
					&(cJSON){ .type = cJSON_String,
						  .valuestring = c->string });
				if (!k) {
					buf_fail(b);
					return;
				}
				buf_adds(b, k);
				buf_adds(b, compact ? ":" : ": ");
				free(k);
			}
			put_json(b, c, base, unit, compact, level + 1);
			if (c->next)
				buf_adds(b, ",");
		}
		if (!compact && item->child) {
			buf_adds(b, "\n");
			buf_adds(b, base);
			for (unsigned l = 0; l < level; l++)
				buf_adds(b, unit);
		}
		buf_adds(b, obj ? "}" : "]");
		return;
	}
	char *t = cJSON_PrintUnformatted(item);
	if (!t) {
		buf_fail(b);
		return;
	}
	buf_adds(b, t);
	free(t);
}

/* A binary in a build directory or a checkout disappears with it; the hook
 * then blocks every call (exit 2) until init runs again. Said, not
 * refused: tests and trials run from a build. */
static void warn_unstable(const char *exe)
{
	const char *home = getenv("HOME");
	size_t hl = home ? strlen(home) : 0;

	for (size_t i = 0; stable_prefixes[i]; i++)
		if (strncmp(exe, stable_prefixes[i],
			    strlen(stable_prefixes[i])) == 0)
			return;
	if (home && home[0] == '/' && hl > 1 && strncmp(exe, home, hl) == 0 &&
	    strncmp(exe + hl, "/.local/bin/", 12) == 0)
		return;
	fputs("cordon init: warning: ", stderr);
	cli_print_escaped(stderr, exe, strlen(exe));
	fputs(" is not in an install location (/usr/bin, /usr/local/bin, "
	      "/opt, ~/.local/bin); if it goes away, the hook refuses every "
	      "tool call (exit 2) until 'cordon init' runs again from an "
	      "installed cordon\n",
	      stderr);
}

/* The hook command: this binary's absolute path, quoted for the shell the
 * agent runs it with when it needs quoting. NULL (reported) on failure. */
static char *hook_command(enum init_agent agent, const struct init_opts *o)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct buf b = BUF_INIT(SIZE_MAX);
	bool plain = true;

	if (n <= 0 || (size_t)n >= sizeof(exe) - 1) {
		fprintf(stderr,
			"cordon init: cannot find this program's path "
			"(/proc/self/exe): %s\n",
			n < 0 ? strerror(errno) : "too long");
		return NULL;
	}
	exe[n] = '\0';
	warn_unstable(exe);
	for (const char *p = exe; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/._+-,:=@%", *p))
			plain = false;
	if (plain) {
		buf_adds(&b, exe);
	} else {
		buf_adds(&b, "'");
		for (const char *p = exe; *p; p++) {
			if (*p == '\'')
				buf_adds(&b, "'\\''");
			else
				buf_add(&b, p, 1);
		}
		buf_adds(&b, "'");
	}
	buf_adds(&b, " ");
	buf_adds(&b, init_defs[agent].hook_args);
	if (o->sandbox) {
		buf_adds(&b, " --sandbox ");
		buf_adds(&b, o->sandbox);
	}
	/* Both agents take a hook's exit status 2 as a block, and any other
	 * failure (127: the binary is gone) as "go on": fail closed. */
	buf_adds(&b, " || exit 2");
	if (buf_failed(&b)) {
		buf_free(&b);
		fputs("cordon init: out of memory\n", stderr);
		return NULL;
	}
	return buf_take(&b, NULL);
}

/* The matcher group: {"matcher": "*", "hooks": [{"type": "command",
 * "command": CMD}]} (Gemini's also names the hook). */
static cJSON *new_entry(enum init_agent agent, const char *cmd)
{
	cJSON *e = cJSON_CreateObject(), *hooks, *h;

	if (!e || !cJSON_AddStringToObject(e, "matcher", "*"))
		goto fail;
	hooks = cJSON_AddArrayToObject(e, "hooks");
	h = cJSON_CreateObject();
	if (!hooks || !h) {
		cJSON_Delete(h);
		goto fail;
	}
	cJSON_AddItemToArray(hooks, h);
	if (init_defs[agent].named &&
	    !cJSON_AddStringToObject(h, "name", "cordon"))
		goto fail;
	if (!cJSON_AddStringToObject(h, "type", "command") ||
	    !cJSON_AddStringToObject(h, "command", cmd))
		goto fail;
	return e;
fail:
	cJSON_Delete(e);
	return NULL;
}

/* Whether the event's array already holds a hook running cmd. *other gets
 * the command of a cordon hook of this agent that runs another cordon
 * binary ("/old/path/cordon hook claude"). */
static bool has_hook(const cJSON *arr, const char *cmd, const char *agent,
		     const char **other)
{
	const cJSON *g, *h;
	char tail[32];

	snprintf(tail, sizeof(tail), "cordon hook %s", agent);
	*other = NULL;
	cJSON_ArrayForEach (g, arr) {
		const cJSON *hs = cJSON_GetObjectItemCaseSensitive(g, "hooks");
		cJSON_ArrayForEach (h, hs) {
			const cJSON *c =
				cJSON_GetObjectItemCaseSensitive(h, "command");
			if (!cJSON_IsString(c))
				continue;
			if (strcmp(c->valuestring, cmd) == 0)
				return true;
			if (strstr(c->valuestring, tail))
				*other = c->valuestring;
		}
	}
	return false;
}

/* ---- the splice ---------------------------------------------------------- */

/* Refusals name the key path; they leave the file alone. */
__attribute__((format(printf, 2, 3))) static int refuse(const char *file,
							const char *fmt, ...)
{
	va_list ap;

	fputs("cordon init: ", stderr);
	cli_print_escaped(stderr, file, strlen(file));
	fputs(": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; the file is left as it is\n", stderr);
	return CLI_EXIT_USAGE;
}

/* Builds the new text into out. Returns 0 (out set), 1 when the hook is
 * already there, or an exit status after reporting. */
static int add_entry(enum init_agent agent, const char *file, const char *text,
		     size_t len, const char *cmd, struct buf *out)
{
	const char *event = init_defs[agent].event;
	size_t start = 0;
	struct scan j;
	struct span root, hooks, arr;
	struct buf unit = BUF_INIT(SIZE_MAX), base = BUF_INIT(SIZE_MAX);
	cJSON *parsed = NULL, *member = NULL, *entry = NULL;
	const char *other = NULL;
	char *copy = NULL;
	const char *end = NULL;
	bool compact;
	size_t at;
	int rc = CLI_EXIT_FAILURE;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		start = 3; /* a byte-order mark stays where it is */
	/* Validate: cJSON on a copy with the JSONC comments blanked. */
	copy = malloc(len - start + 1);
	if (!copy)
		goto nomem;
	memcpy(copy, text + start, len - start);
	copy[len - start] = '\0';
	if (memchr(copy, '\0', len - start)) {
		rc = refuse(file, "not valid JSON (a NUL byte)");
		goto out;
	}
	if (blank_comments(copy, len - start) != 0) {
		rc = refuse(file, "not valid JSON (a comment is not closed)");
		goto out;
	}
	parsed = cJSON_ParseWithOpts(copy, &end, 0);
	if (parsed && end && !only_space(end)) {
		cJSON_Delete(parsed);
		parsed = NULL;
	}
	if (!parsed) {
		rc = refuse(file, "not valid JSON");
		goto out;
	}
	if (!cJSON_IsObject(parsed)) {
		rc = refuse(file, "the top level: expected an object");
		goto out;
	}

	j = (struct scan){ text, len, start };
	if (scan_container(&j, "hooks", &root)) {
		rc = refuse(file, "not valid JSON");
		goto out;
	}
	if (root.dup) {
		rc = refuse(file, "hooks: the key appears more than once");
		goto out;
	}
	const cJSON *ph = cJSON_GetObjectItemCaseSensitive(parsed, "hooks");
	const cJSON *pe = NULL;
	if (root.found) {
		if (!cJSON_IsObject(ph)) {
			rc = refuse(file, "hooks: expected an object");
			goto out;
		}
		j.i = root.val;
		if (scan_container(&j, event, &hooks)) {
			rc = refuse(file, "not valid JSON");
			goto out;
		}
		if (hooks.dup) {
			rc = refuse(file,
				    "hooks.%s: the key appears more than "
				    "once",
				    event);
			goto out;
		}
		pe = cJSON_GetObjectItemCaseSensitive(ph, event);
		if (hooks.found && !cJSON_IsArray(pe)) {
			rc = refuse(file, "hooks.%s: expected an array", event);
			goto out;
		}
		if (hooks.found) {
			if (has_hook(pe, cmd, init_defs[agent].name, &other)) {
				rc = 1;
				goto out;
			}
			if (other) {
				fputs("cordon init: ", stderr);
				cli_print_escaped(stderr, file, strlen(file));
				fprintf(stderr,
					": hooks.%s already runs another "
					"cordon: '",
					event);
				cli_print_escaped(stderr, other, strlen(other));
				fputs("'; left as it is (run 'cordon init ",
				      stderr);
				fputs(init_defs[agent].name, stderr);
				fputs(" --remove' first to switch)\n", stderr);
				rc = 1;
				goto out;
			}
			j.i = hooks.val;
			if (scan_container(&j, NULL, &arr)) {
				rc = refuse(file, "not valid JSON");
				goto out;
			}
		}
	}

	/* What goes in, and where: the entry into the array, the event's
	 * member into "hooks", or "hooks" into the top level. */
	entry = new_entry(agent, cmd);
	if (!entry)
		goto nomem;
	const struct span *into;
	const char *name = NULL;
	if (root.found && hooks.found) {
		into = &arr;
		member = entry;
		entry = NULL;
	} else if (root.found) {
		into = &hooks;
		name = event;
		member = cJSON_CreateArray();
		if (!member)
			goto nomem;
		cJSON_AddItemToArray(member, entry);
		entry = NULL;
	} else {
		into = &root;
		name = "hooks";
		member = cJSON_CreateObject();
		cJSON *a = cJSON_CreateArray();
		if (!member || !a) {
			cJSON_Delete(a);
			goto nomem;
		}
		cJSON_AddItemToObject(member, event, a);
		cJSON_AddItemToArray(a, entry);
		entry = NULL;
	}

	/* One line when the container, or the whole document, is written on
	 * one line; else the member goes on its own line, indented like its
	 * siblings. */
	compact = (into->count && !memchr(text + into->open, '\n',
					  into->close - into->open)) ||
		  (root.count &&
		   !memchr(text + root.open, '\n', root.close - root.open));
	indent_unit(text + start, len - start, &unit);
	if (into->count && line_start(text, into->last_start) !=
				   line_start(text, into->open)) {
		line_indent(text, into->last_start, &base);
	} else {
		line_indent(text, into->open, &base);
		buf_adds(&base, buf_str(&unit));
	}
	if (buf_failed(&unit) || buf_failed(&base))
		goto nomem;

	/* The last value of the container as the anchor: for a non-empty
	 * container the member goes right after it; for an empty one the
	 * inside is replaced. */
	at = into->count ? into->last_end : into->open + 1;
	buf_add(out, text, at);
	if (into->count)
		buf_adds(out, ",");
	if (!compact) {
		buf_adds(out, "\n");
		buf_adds(out, buf_str(&base));
	}
	if (name) {
		char *k = cJSON_PrintUnformatted(&(cJSON){
			.type = cJSON_String, .valuestring = (char *)name });
		if (!k)
			goto nomem;
		buf_adds(out, k);
		buf_adds(out, compact ? ":" : ": ");
		free(k);
	}
	put_json(out, member, buf_str(&base), buf_str(&unit), compact, 0);
	if (into->count) {
		buf_add(out, text + at, len - at);
	} else {
		if (!compact) {
			struct buf ci = BUF_INIT(SIZE_MAX);
			line_indent(text, into->open, &ci);
			buf_adds(out, "\n");
			buf_adds(out, buf_str(&ci));
			buf_free(&ci);
		}
		buf_add(out, text + into->close, len - into->close);
	}
	if (buf_failed(out))
		goto nomem;
	rc = 0;
	goto out;
nomem:
	fputs("cordon init: out of memory\n", stderr);
	rc = CLI_EXIT_FAILURE;
out:
	cJSON_Delete(parsed);
	cJSON_Delete(member);
	cJSON_Delete(entry);
	free(copy);
	buf_free(&unit);
	buf_free(&base);
	return rc;
}

/* ---- --remove ------------------------------------------------------------ */

#define INIT_MAX_GROUPS 1024

/* Whether a hook command is cordon's hook for this agent, any binary. */
static bool is_cordon_hook(const cJSON *h, const char *agent)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(h, "command");
	char tail[32];

	snprintf(tail, sizeof(tail), "cordon hook %s", agent);
	return cJSON_IsString(c) && strstr(c->valuestring, tail);
}

/* Builds the text without the event's matcher groups that run only
 * cordon's hook. Returns 0 (out set), 1 when there is none, or an exit
 * status after reporting (a group that mixes cordon's hook with others is
 * left for the user to edit). */
static int remove_entries(enum init_agent agent, const char *file,
			  const char *text, size_t len, struct buf *out)
{
	const char *event = init_defs[agent].event;
	size_t start = 0, starts[INIT_MAX_GROUPS], ends[INIT_MAX_GROUPS];
	bool drop[INIT_MAX_GROUPS];
	size_t n = 0, kept = 0, ndrop = 0;
	struct span root, hooks, arr;
	struct scan j;
	cJSON *parsed = NULL;
	const cJSON *pe, *g;
	const char *end = NULL;
	char *copy = NULL;
	int rc = CLI_EXIT_FAILURE;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		start = 3;
	copy = malloc(len - start + 1);
	if (!copy) {
		fputs("cordon init: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	memcpy(copy, text + start, len - start);
	copy[len - start] = '\0';
	if (memchr(copy, '\0', len - start) ||
	    blank_comments(copy, len - start) != 0 ||
	    !(parsed = cJSON_ParseWithOpts(copy, &end, 0)) ||
	    (end && !only_space(end)) || !cJSON_IsObject(parsed)) {
		rc = refuse(file, "not a JSON object");
		goto out;
	}
	pe = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(parsed, "hooks"), event);
	if (!cJSON_IsArray(pe)) {
		rc = 1;
		goto out;
	}
	cJSON_ArrayForEach (g, pe) {
		const cJSON *hs = cJSON_GetObjectItemCaseSensitive(g, "hooks");
		const cJSON *h;
		size_t ours = 0, all = 0;

		if (n == INIT_MAX_GROUPS) {
			rc = refuse(file, "hooks.%s: more than %d entries",
				    event, INIT_MAX_GROUPS);
			goto out;
		}
		cJSON_ArrayForEach (h, hs) {
			all++;
			ours += is_cordon_hook(h, init_defs[agent].name);
		}
		if (ours && ours != all) {
			rc = refuse(file,
				    "hooks.%s[%zu] runs cordon's hook beside "
				    "others; remove it by hand",
				    event, n);
			goto out;
		}
		drop[n] = ours > 0;
		ndrop += drop[n];
		n++;
	}
	if (!ndrop) {
		rc = 1;
		goto out;
	}
	/* The element spans of the event's array, in the text. */
	j = (struct scan){ text, len, start };
	if (scan_container(&j, "hooks", &root) || !root.found)
		goto bad;
	j.i = root.val;
	if (scan_container(&j, event, &hooks) || !hooks.found)
		goto bad;
	j.i = hooks.val;
	skip_ws(&j);
	if (j.i >= len || text[j.i] != '[')
		goto bad;
	arr.open = j.i++;
	for (size_t k = 0; k < n; k++) {
		skip_ws(&j);
		starts[k] = j.i;
		if (skip_value(&j, 1))
			goto bad;
		ends[k] = j.i;
		skip_ws(&j);
		if (j.i < len && text[j.i] == ',')
			j.i++;
	}
	skip_ws(&j);
	if (j.i >= len || text[j.i] != ']')
		goto bad;
	arr.close = j.i;
	/* Kept elements keep their own text and the separator before
	 * them; the first kept one takes the text that led the array. */
	buf_add(out, text, arr.open + 1);
	for (size_t k = 0; k < n; k++) {
		if (drop[k])
			continue;
		if (kept == 0)
			buf_add(out, text + arr.open + 1,
				starts[0] - arr.open - 1);
		else
			buf_add(out, text + ends[k - 1],
				starts[k] - ends[k - 1]);
		buf_add(out, text + starts[k], ends[k] - starts[k]);
		kept++;
	}
	if (kept)
		buf_add(out, text + ends[n - 1], arr.close - ends[n - 1]);
	buf_add(out, text + arr.close, len - arr.close);
	rc = buf_failed(out) ? CLI_EXIT_FAILURE : 0;
	if (rc)
		fputs("cordon init: out of memory\n", stderr);
	goto out;
bad:
	rc = refuse(file, "not valid JSON");
out:
	cJSON_Delete(parsed);
	free(copy);
	return rc;
}

/* ---- files --------------------------------------------------------------- */

#define INIT_MISSING (-1)

/* Reads path whole. Returns 0 (*text malloc'd), INIT_MISSING when it does
 * not exist, or an exit status after reporting (a file that exists but
 * cannot be read is never taken for a missing one: it would be replaced
 * without a backup). */
static int read_file(const char *path, char **text, size_t *len)
{
	/* cli_read_file takes "-" for stdin; here it is a file's name. */
	*text = cli_read_file(strcmp(path, "-") == 0 ? "./-" : path,
			      INIT_MAX_FILE, len);
	if (*text)
		return 0;
	if (errno == ENOENT)
		return INIT_MISSING;
	if (errno == EFBIG)
		return refuse(path, "over the limit of %d bytes",
			      INIT_MAX_FILE);
	if (errno == ENOMEM) {
		fputs("cordon init: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	fprintf(stderr, "cordon init: %s: %s\n", path, strerror(errno));
	return CLI_EXIT_FAILURE;
}

/* A copy of the old text beside path, never overwriting one: PATH.bak-
 * YYYYMMDDTHHMMSSZ (then -2, -3 …). bak gets its name. */
static int backup(const char *path, const char *text, size_t len, mode_t mode,
		  char *bak, size_t cap)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!gmtime_r(&ts.tv_sec, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return -1;
	for (unsigned k = 1; k < 100; k++) {
		int n = k == 1 ? snprintf(bak, cap, "%s.bak-%s", path, stamp) :
				 snprintf(bak, cap, "%s.bak-%s-%u", path, stamp,
					  k);
		if (n < 0 || (size_t)n >= cap)
			return -1;
		int fd = open(bak, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			      mode & 07777);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -1;
		if (atomic_write_all(fd, text, len) || fsync(fd)) {
			close(fd);
			unlink(bak);
			return -1;
		}
		close(fd);
		return 0;
	}
	errno = EEXIST;
	return -1;
}

/* The settings file: --settings, else the project's or the user's. */
static int settings_path(const struct init_opts *o, char *buf, size_t cap)
{
	const char *base;
	char cwd[PATH_MAX];
	int n;

	if (o->settings) {
		n = snprintf(buf, cap, "%s", o->settings);
	} else {
		if (o->user) {
			base = getenv("HOME");
			if (!base || base[0] != '/') {
				fputs("cordon init: --user: HOME is unset or "
				      "not absolute\n",
				      stderr);
				return CLI_EXIT_USAGE;
			}
		} else {
			base = getcwd(cwd, sizeof(cwd));
			if (!base) {
				fprintf(stderr,
					"cordon init: the current directory: "
					"%s\n",
					strerror(errno));
				return CLI_EXIT_FAILURE;
			}
		}
		n = snprintf(buf, cap, "%s/%s/settings.json",
			     strcmp(base, "/") == 0 ? "" : base,
			     init_defs[o->agent].dir);
	}
	if (n < 0 || (size_t)n >= cap) {
		fputs("cordon init: the settings path is too long\n", stderr);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

int cli_init(int argc, char **argv)
{
	struct init_opts o = { 0 };
	struct buf out = BUF_INIT(SIZE_MAX);
	struct stat st;
	char path[PATH_MAX], real[PATH_MAX], bak[PATH_MAX + 64];
	char dir[PATH_MAX];
	const char *target;
	char *text = NULL, *cmd = NULL;
	size_t len = 0;
	bool exists;
	mode_t mode = 0644;
	int rc, status = CLI_EXIT_FAILURE;

	/* cursor, copilot: init_door.c. */
	if (cli_init_door_owns(argc, argv))
		return cli_init_door(argc, argv);
	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	status = settings_path(&o, path, sizeof(path));
	if (status)
		return status;
	status = CLI_EXIT_FAILURE;
	cmd = o.remove ? NULL : hook_command(o.agent, &o);
	if (!o.remove && !cmd)
		return CLI_EXIT_FAILURE;

	/* A symlinked settings file (dotfile managers) is edited where it
	 * points, so the link stays a link. */
	target = path;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, real)) {
			fprintf(stderr, "cordon init: %s: %s\n", path,
				strerror(errno));
			goto out;
		}
		target = real;
	}
	rc = read_file(target, &text, &len);
	if (rc > 0) {
		status = rc;
		goto out;
	}
	exists = rc == 0;
	if (exists && stat(target, &st) == 0)
		mode = st.st_mode;
	if (o.remove) {
		rc = exists ? remove_entries(o.agent, target, text, len, &out) :
			      1;
		if (rc == 1) {
			printf("cordon: no cordon hook in %s (nothing "
			       "changed)\n",
			       path);
			status = fflush(stdout) == 0 ? CLI_EXIT_OK :
						       CLI_EXIT_FAILURE;
			goto out;
		}
	} else if (exists) {
		if (stat(target, &st) == 0)
			mode = st.st_mode;
		rc = add_entry(o.agent, target, text, len, cmd, &out);
	} else {
		const char *fresh = "{\n}\n";
		rc = add_entry(o.agent, target, fresh, strlen(fresh), cmd,
			       &out);
	}
	if (rc == 1) {
		printf("cordon: the hook is already in %s (nothing changed)\n",
		       path);
		status = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
		goto out;
	}
	if (rc != 0) {
		status = rc;
		goto out;
	}
	if (o.dry_run) {
		fwrite(buf_str(&out), 1, buf_len(&out), stdout);
		fprintf(stderr, "cordon init: dry run: %s was not %s\n", path,
			exists ? "changed" : "created");
		status = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
		goto out;
	}
	/* New directories 0755, like the agents make them. */
	if (!exists && (atomic_dir_of(target, dir, sizeof(dir)) != 0 ||
			atomic_mkdirs(dir, 0755) != 0)) {
		fprintf(stderr,
			"cordon init: %s: cannot create its directory: "
			"%s\n",
			path, strerror(errno));
		goto out;
	}
	if (exists && backup(target, text, len, mode, bak, sizeof(bak)) != 0) {
		fprintf(stderr,
			"cordon init: %s: cannot write a backup: %s; "
			"nothing changed\n",
			path, strerror(errno));
		goto out;
	}
	if (atomic_write_file(target, buf_str(&out), buf_len(&out), mode) !=
	    0) {
		fprintf(stderr, "cordon init: %s: %s; nothing changed\n", path,
			strerror(errno));
		goto out;
	}
	if (o.remove)
		printf("cordon: removed the %s hook from %s",
		       init_defs[o.agent].event, path);
	else
		printf("cordon: added the %s hook to %s",
		       init_defs[o.agent].event, path);
	if (exists)
		printf(" (the old file is in %s)", bak);
	if (cmd)
		printf("\n  command: %s", cmd);
	printf("\n");
	status = fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
out:
	buf_free(&out);
	free(text);
	free(cmd);
	return status;
}
