/* agents — the coding agents cordon knows: where each keeps the settings
 * that install a hook, how cordon's hook command is spelt there, and the
 * doors added after Claude Code and Gemini CLI (hook_door.c: Cursor,
 * GitHub Copilot CLI). Read by `cordon doctor`, `cordon hook` and `cordon
 * init`. */
#ifndef CORDON_CLI_AGENTS_H
#define CORDON_CLI_AGENTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#define CLI_AGENT_MAX_FILES 3

struct cli_agent {
	const char *name;  /* the operand: "claude" */
	const char *title; /* "Claude Code" */
	/* The settings files that may hold the hook, relative to $HOME
	 * (user) and to the workspace (project); NULL-terminated. A name
	 * ending in '/' is a directory whose *.json files all count. */
	const char *user_files[CLI_AGENT_MAX_FILES];
	const char *project_files[CLI_AGENT_MAX_FILES];
	bool jsonc;	    /* the files may hold // and block comments */
	bool has_hook;	    /* cordon hook NAME exists */
	const char *sandbox; /* how a call it allows can be sandboxed */
	bool script; /* the files are hook scripts, not JSON settings */
};

/* Every agent, terminated by an entry whose name is NULL. */
extern const struct cli_agent cli_agents[];

/* The agent called name, or NULL. */
const struct cli_agent *cli_agent_find(const char *name);

/* One command found in a settings file that runs cordon's hook for an
 * agent: "/usr/bin/cordon hook claude" (the binary shell-unquoted). */
struct cli_hook_cmd {
	char binary[4096];
	char command[512]; /* the command as written, cut to fit */
};

/* Whether s runs "BINARY hook AGENT …" with a binary named cordon*
 * (out filled). */
bool cli_is_hook_cmd(const char *s, const char *agent,
		     struct cli_hook_cmd *out);

/* `cordon init AGENT` for cursor and copilot (init_door.c). */
bool cli_init_door_owns(int argc, char **argv);
int cli_init_door(int argc, char **argv);

/* The cordon hook commands for agent in the settings text (JSON, or JSONC
 * when the agent's files may hold comments; text is modified: comments
 * are blanked; a hook script's lines, NUL-cut). Returns how many were found (at most cap are stored), or
 * -1 when the text is not JSON (why says where). */
int cli_agent_hook_cmds(const struct cli_agent *agent, char *text, size_t len,
			struct cli_hook_cmd *out, size_t cap, char *why,
			size_t whycap);

/* Why the hook's binary is not one an agent can rely on for every call
 * (not absolute, missing, not executable, in a temporary directory,
 * writable by others), or NULL when it is. buf holds the sentence. */
const char *cli_binary_problem(const char *path, char *buf, size_t cap);

/* `cordon hook AGENT` for the agents of hook_door.c (not claude or
 * gemini): 1 when argv[1] names one, so cli_hook() hands over. */
bool cli_hook_door_owns(int argc, char **argv);
int cli_hook_door(int argc, char **argv);

/* The audit log's "door" of the hook call in progress when a door of
 * hook_door.c runs the Claude Code pipeline ("cursor-hook"); NULL
 * otherwise. */
extern const char *cli_hook_door_name;

/* ---- the options of `cordon hook AGENT` and `cordon init AGENT` ----------
 * One parser for every agent (hookopts.c): hook.c, init.c and the doors
 * of hook_door.c and init_door.c hand it their argv. */

#define CLI_HOOK_MAX_SETTINGS 8

struct cli_hook_opts {
	const char *name; /* the agent operand: "claude", "cline" */
	int agent; /* the pipeline that decides: 0 Claude Code, 1 Gemini CLI */
	const char *config;
	const char *audit_log;
	const char *workspace;
	const char *mode;
	int fail_open;
	const char *claude_settings[CLI_HOOK_MAX_SETTINGS];
	size_t nclaude_settings;
	bool claude_scopes;
	const char *sandbox; /* --sandbox MODE, or NULL */
	bool no_rewrite; /* --no-rewrite: the agent cannot take a new command */
	/* Set by a door, not by an option: the agent's own bookkeeping tools
	 * (NULL-terminated), mapped as the Claude door maps its own. */
	const char *const *internal_tools;
};

/* 0 parsed, 1 help printed (usage), -1 usage error (reported). */
int cli_hook_parse_options(int argc, char **argv, struct cli_hook_opts *o,
			   void (*usage)(FILE *));

/* Decides one call read from stdin with the options parsed (hook.c): the
 * Claude Code or Gemini CLI door, as o->agent says. The exit status. */
int cli_hook_run(struct cli_hook_opts *o);

struct cli_init_opts {
	const char *name; /* the agent operand */
	bool user, dry_run, remove;
	const char *sandbox; /* --sandbox[=MODE] / --no-sandbox, or NULL */
	const char *settings;
};

/* What an agent's init takes beyond the common options. */
#define CLI_INIT_USER 1u    /* --user: the agent has a user file */
#define CLI_INIT_SANDBOX 2u /* --sandbox, --no-sandbox */

/* 0 parsed, 1 help printed, -1 usage error (reported). */
int cli_init_parse_options(int argc, char **argv, struct cli_init_opts *o,
			   void (*usage)(FILE *), unsigned accepts);

#endif
