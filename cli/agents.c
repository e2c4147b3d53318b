/* agents — the table of coding agents and what `cordon doctor` asks of
 * their settings files (see agents.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agents.h"

#include "banned.h"

/* Where each agent reads its hooks, from its own documentation: Claude
 * Code's settings scopes, Gemini CLI's settings.json (JSONC), Cursor's
 * hooks.json (user and project), GitHub Copilot CLI's .github/hooks/
 * directory (every .json in it), Codex CLI's hooks.json (Claude Code's
 * shape; its PreToolUse schema is shipped in the codex binary), Qwen
 * Code's settings.json (PreToolUse groups, Claude's shape; read from the
 * shipped cli.js of @qwen-code/qwen-code 0.15.10 and its bundled
 * docs/features/hooks.md), Kiro CLI's agent files (hooks.preToolUse,
 * kiro.dev/docs/cli/hooks), Cline's PreToolUse hook file (the
 * extension's src/core/hooks and the CLI's @cline/core 0.0.86). */
const struct cli_agent cli_agents[] = {
	{ "claude",
	  "Claude Code",
	  { ".claude/settings.json", NULL },
	  { ".claude/settings.json", ".claude/settings.local.json", NULL },
	  false,
	  true,
	  "the hook can send a command back rewritten to run under 'cordon "
	  "run' (hooks.sandbox); else run the agent whole: cordon run "
	  "--agent claude -- claude",
	  false },
	{ "gemini",
	  "Gemini CLI",
	  { ".gemini/settings.json", NULL },
	  { ".gemini/settings.json", NULL },
	  true,
	  true,
	  "run the agent whole: cordon run --agent gemini -- gemini",
	  false },
	{ "cursor",
	  "Cursor",
	  { ".cursor/hooks.json", NULL },
	  { ".cursor/hooks.json", NULL },
	  false,
	  true,
	  "Cursor's hooks cannot change a command: allowed commands run as "
	  "Cursor runs them, outside cordon's sandbox",
	  false },
	{ "copilot",
	  "GitHub Copilot CLI",
	  { NULL },
	  { ".github/hooks/", NULL },
	  false,
	  true,
	  "Copilot CLI's hook cannot change a command; run the agent "
	  "whole: cordon run -- copilot",
	  false },
	{ "codex",
	  "Codex CLI",
	  { ".codex/hooks.json", NULL },
	  { ".codex/hooks.json", NULL },
	  false,
	  true,
	  "Codex's PreToolUse hook takes a rewritten command back "
	  "(updatedInput); else run it whole: cordon run --agent codex -- "
	  "codex",
	  false },
	{ "windsurf",
	  "Windsurf",
	  { ".codeium/windsurf/hooks.json", NULL },
	  { ".windsurf/hooks.json", NULL },
	  false,
	  true,
	  "Windsurf's hooks cannot change a command: allowed commands run as "
	  "Cascade runs them, outside cordon's sandbox",
	  false },
	{ "qwen",
	  "Qwen Code",
	  { ".qwen/settings.json", NULL },
	  { ".qwen/settings.json", NULL },
	  true,
	  true,
	  "Qwen Code's PreToolUse hook cannot change a command: allowed "
	  "commands run as Qwen runs them; else run it whole: cordon run -- "
	  "qwen",
	  false },
	{ "kiro",
	  "Kiro CLI",
	  { ".kiro/agents/", NULL },
	  { ".kiro/agents/", NULL },
	  false,
	  true,
	  "Kiro's hooks cannot change a command: allowed commands run as Kiro "
	  "runs them; else run it whole: cordon run -- kiro-cli",
	  false },
	/* No door: what the user can do instead (README, "Agents without
	 * a door"). */
	{ "amp",
	  "Amp",
	  { NULL },
	  { NULL },
	  false,
	  false,
	  "no cordon hook door: Amp's amp.permissions rules can only be "
	  "allow, ask, reject or delegate, and its delegate protocol was not "
	  "checked; run it whole: cordon run -- amp, and its MCP servers "
	  "through cordon mcp",
	  false },
	{ "opencode",
	  "OpenCode",
	  { NULL },
	  { NULL },
	  false,
	  false,
	  "no cordon hook door: OpenCode's tool.execute.before is a "
	  "JavaScript plugin, not a command; run it whole: cordon run -- "
	  "opencode, and its MCP servers through cordon mcp",
	  false },
	/* Cline: an executable file named after the event, read by the VS
	 * Code extension and the CLI (the project's .clinerules/hooks/, the
	 * user's ~/Documents/Cline/Hooks/ and ~/.cline/hooks/). */
	{ "cline",
	  "Cline",
	  { "Documents/Cline/Hooks/PreToolUse", ".cline/hooks/PreToolUse",
	    NULL },
	  { ".clinerules/hooks/PreToolUse", ".cline/hooks/PreToolUse", NULL },
	  false,
	  true,
	  "the Cline CLI takes a shell command back rewritten to run under "
	  "'cordon run' (overrideInput); the VS Code extension's hook cannot "
	  "change a command, so there allowed commands run as Cline runs "
	  "them, outside cordon's sandbox. A refusal cancels Cline's task "
	  "(its hooks have no per-call block)",
	  true },
	{ NULL, NULL, { NULL }, { NULL }, false, false, NULL, false },
};

const struct cli_agent *cli_agent_find(const char *name)
{
	for (const struct cli_agent *a = cli_agents; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

/* Blanks // and block comments outside strings (JSONC), keeping every
 * offset. 0, or -1 for a comment left open. */
static int blank_comments(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\' && i + 1 < n)
					i++;
			continue;
		}
		if (s[i] != '/' || i + 1 >= n)
			continue;
		if (s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				s[i++] = ' ';
		} else if (s[i + 1] == '*') {
			size_t j = i + 2;

			while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'))
				j++;
			if (j + 1 >= n)
				return -1;
			for (; i <= j + 1; i++)
				if (s[i] != '\n')
					s[i] = ' ';
			i--;
		}
	}
	return 0;
}

/* The first word of a hook command, undoing the single quotes `cordon
 * init` writes around a path that needs them. Returns what follows the
 * word, or NULL when it does not fit or a quote is left open. */
static const char *first_word(const char *s, char *word, size_t cap)
{
	size_t n = 0;

	while (*s && *s != ' ' && *s != '\t') {
		if (*s == '\'') {
			for (s++; *s && *s != '\''; s++) {
				if (n + 1 >= cap)
					return NULL;
				word[n++] = *s;
			}
			if (!*s)
				return NULL;
			s++;
			continue;
		}
		if (n + 1 >= cap)
			return NULL;
		word[n++] = *s++;
	}
	word[n] = '\0';
	return s;
}

bool cli_is_hook_cmd(const char *s, const char *agent,
		     struct cli_hook_cmd *out)
{
	const char *rest, *base;
	size_t an = strlen(agent);

	rest = first_word(s, out->binary, sizeof(out->binary));
	if (!rest)
		return false;
	base = strrchr(out->binary, '/');
	base = base ? base + 1 : out->binary;
	if (strncmp(base, "cordon", 6) != 0)
		return false;
	rest += strspn(rest, " \t");
	if (strncmp(rest, "hook", 4) != 0 || (rest[4] != ' ' && rest[4] != '\t'))
		return false;
	rest += 4;
	rest += strspn(rest, " \t");
	if (strncmp(rest, agent, an) != 0 ||
	    (rest[an] && rest[an] != ' ' && rest[an] != '\t'))
		return false;
	snprintf(out->command, sizeof(out->command), "%s", s);
	return true;
}

static void walk_strings(const cJSON *v, const char *agent,
			 struct cli_hook_cmd *out, size_t cap, int *count)
{
	const cJSON *c;

	if (cJSON_IsString(v)) {
		struct cli_hook_cmd one;

		if (cli_is_hook_cmd(v->valuestring, agent, &one)) {
			if ((size_t)*count < cap)
				out[*count] = one;
			(*count)++;
		}
		return;
	}
	cJSON_ArrayForEach (c, v)
		walk_strings(c, agent, out, cap, count);
}

int cli_agent_hook_cmds(const struct cli_agent *agent, char *text, size_t len,
			struct cli_hook_cmd *out, size_t cap, char *why,
			size_t whycap)
{
	cJSON *root;
	int count = 0;

	if (agent->script) {
		/* A hook script: each line that runs cordon's hook. */
		for (char *line = text; line && line < text + len;) {
			char *nl = memchr(line, '\n', len - (size_t)(line - text));
			struct cli_hook_cmd one;

			if (nl)
				*nl = '\0';
			if (cli_is_hook_cmd(line + strspn(line, " \t"),
					    agent->name, &one)) {
				if ((size_t)count < cap)
					out[count] = one;
				count++;
			}
			line = nl ? nl + 1 : NULL;
		}
		return count;
	}
	if (agent->jsonc && blank_comments(text, len) != 0) {
		snprintf(why, whycap, "a comment is not closed");
		return -1;
	}
	root = cJSON_ParseWithLength(text, len);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();

		snprintf(why, whycap, "not valid JSON (at byte %zu)",
			 at && at >= text && at <= text + len ?
				 (size_t)(at - text) :
				 len);
		return -1;
	}
	walk_strings(root, agent->name, out, cap, &count);
	cJSON_Delete(root);
	return count;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' || !path[n]);
}

const char *cli_binary_problem(const char *path, char *buf, size_t cap)
{
	static const char *const temp_dirs[] = { "/tmp", "/var/tmp",
						 "/dev/shm", NULL };
	char real[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	if (path[0] != '/') {
		snprintf(buf, cap,
			 "'%s' is not an absolute path: the agent finds it "
			 "through its own PATH, or not at all",
			 path);
		return buf;
	}
	if (stat(path, &st) != 0) {
		snprintf(buf, cap, "%s: %s", path, strerror(errno));
		return buf;
	}
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
		snprintf(buf, cap, "%s is not an executable file", path);
		return buf;
	}
	if (!realpath(path, real)) {
		snprintf(buf, cap, "%s: %s", path, strerror(errno));
		return buf;
	}
	for (size_t i = 0; temp_dirs[i]; i++)
		if (under(real, temp_dirs[i])) {
			snprintf(buf, cap,
				 "%s is in a temporary directory (%s): it can "
				 "vanish, or be replaced by another user",
				 real, temp_dirs[i]);
			return buf;
		}
	/* The binary and every directory above it: writable by others
	 * means another user can swap the program every call runs. */
	snprintf(dir, sizeof(dir), "%s", real);
	for (;;) {
		char *slash;

		if (stat(dir, &st) == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) &&
		    !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX))) {
			snprintf(buf, cap,
				 "%s is writable by other users, so the hook "
				 "program can be replaced",
				 dir);
			return buf;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	return NULL;
}
