/* config — cordon's configuration: built-in defaults, files, layering.
 *
 * The effective configuration is built in layers: the built-in defaults,
 * the user file ($XDG_CONFIG_HOME/cordon/config.json), the project file
 * (.cordon/config.json in the workspace, which may only tighten), a file
 * given with --config, and command-line flags (which extend lists, never
 * shrink them). Each JSON file is validated whole before any of it is
 * applied: an unknown key or a wrong type is an error naming the key path
 * and the file, and the configuration is left as it was.
 *
 * For lists, JSON null means "the built-in default", a list replaces the
 * current value and [] disables it (user and --config layers). The project
 * layer can only add to deny-type lists, lower modes and caps, and turn
 * checks on; anything that would loosen is ignored with a warning naming the
 * file and the key path (a cloned repository cannot open the gate, and
 * cannot lock its user out either).
 *
 * Every leaf value remembers which layer set it, for `cordon config show
 * --sources`.
 */
#ifndef CORDON_CONFIG_H
#define CORDON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"
#include "strlist.h"

/* Ceilings on what a configuration file can grow; exceeding one is an
 * error naming the limit and the key path. */
#define CONFIG_MAX_FILE_BYTES (1024 * 1024) /* one file or JSON text */
#define CONFIG_MAX_LIST 4096   /* entries in one list or object (also after adding) */
#define CONFIG_MAX_STRING 4096 /* bytes in one string */
#define CONFIG_MAX_WARNINGS 4096

enum config_layer {
	CONFIG_DEFAULT = 0, /* built in */
	CONFIG_USER,        /* $XDG_CONFIG_HOME/cordon/config.json */
	CONFIG_PROJECT,     /* <workspace>/.cordon/config.json: may only tighten */
	CONFIG_EXPLICIT,    /* --config FILE */
	CONFIG_FLAG,        /* command-line flags */
};

enum config_access {
	CONFIG_ACCESS_READ = 0,
	CONFIG_ACCESS_WRITE = 1,
	CONFIG_ACCESS_ANY = 2,
};

/* safety.path_rules[i]: {"pattern", "access", "decision"} */
struct config_path_rule {
	char *pattern; /* a glob (see glob.h); "~/" expanded at match time */
	enum config_access access;
	enum cordon_decision decision;
};

/* safety.command_rules[i]: {"prefix": [...], "decision", "match", "not_match"} */
struct config_command_rule {
	struct strlist prefix;
	enum cordon_decision decision;
	struct strlist match;     /* examples that must match (checked at load) */
	struct strlist not_match; /* examples that must not match */
};

/* safety.arg_limits.<tool>.<arg> */
struct config_arg_limit {
	char *tool;
	char *arg;
	bool has_max_length;
	size_t max_length; /* in bytes of the JSON string value */
	bool has_min_value;
	double min_value;
	bool has_max_value;
	double max_value;
	char *pattern; /* PCRE2, anchored: matched against the whole string */
	struct strlist choices; /* n == 0 and v == NULL: no choices limit */
	bool has_choices;
};

/* tools.<name>: {"kind": "read|write|delete|execute|fetch|mcp", "arg":
 * "path" | ["path", "file_path"], "schema": {...}}. Names ending in '*'
 * match by prefix ("mcp__*"). */
struct config_tool {
	char *name;
	enum cordon_kind kind;
	struct strlist args; /* argument names tried in order */
	char *schema_json;       /* JSON Schema text, or NULL */
};

enum config_sandbox_mode {
	CONFIG_SANDBOX_OFF = 0,    /* also Aar's "local" */
	CONFIG_SANDBOX_AUTO = 1,   /* also Aar's "linux" */
	CONFIG_SANDBOX_STRICT = 2,
};

/* A tri-state for "null means the mode decides". */
enum config_tri {
	CONFIG_UNSET = -1,
	CONFIG_FALSE = 0,
	CONFIG_TRUE = 1,
};

/* A source's strings are allocated when their flag says so; otherwise key
 * is the key table's path and origin the static "default" (every key of
 * every configuration starts so, one per hook call: copying them was 108
 * allocations a process). */
struct config_source {
	const char *key;    /* key path, "safety.denied_paths" */
	const char *origin; /* "default", "user:/home/u/.config/cordon/config.json",
			       "project:…", "config:…", "flag:--mode" */
	bool key_owned;
	bool origin_owned;
};

struct config_warning {
	char *text; /* "FILE: safety.read_only: a project file may only tighten (ignored)" */
};

struct cordon_config {
	/* safety */
	bool read_only;
	enum cordon_mode permission_mode;
	enum cordon_mode max_permission_mode;
	enum config_tri require_approval_for_writes;
	enum config_tri require_approval_for_execute;
	struct strlist denied_paths;     /* defaults: the built-in list */
	bool allowed_paths_set;              /* false: no allowed-paths step */
	struct strlist allowed_paths;    /* may start with "<cwd>" */
	struct strlist read_only_paths;
	struct config_path_rule *path_rules;
	size_t npath_rules;
	struct config_command_rule *command_rules;
	size_t ncommand_rules;
	bool denied_commands_set;            /* false: the classifier's built-in list */
	struct strlist denied_commands;
	bool denied_command_patterns_set;    /* false: the classifier's built-in list */
	struct strlist denied_command_patterns;
	/* safety.extra_denied_commands / extra_denied_command_patterns:
	 * denied on top of the two lists above, whatever they are (the
	 * classifier's built-in lists while *_set is false). A project file's
	 * and a flag's additions to denied_commands / denied_command_patterns
	 * land here, so adding never turns the built-in list off. */
	struct strlist extra_denied_commands;
	struct strlist extra_denied_command_patterns;
	bool allowed_tools_set;              /* false: every tool allowed */
	struct strlist allowed_tools;
	struct strlist denied_tools;
	struct strlist require_confirm;
	struct config_arg_limit *arg_limits;    /* all that apply are checked */
	size_t narg_limits;
	bool log_all_commands;
	/* safety.sandbox */
	enum config_sandbox_mode sandbox_mode;
	bool env_denylist_set;
	struct strlist env_denylist_patterns;
	bool restricted_env;
	bool allowed_env_vars_set;
	struct strlist allowed_env_vars;
	char *workspace;                     /* safety.sandbox.linux.workspace */
	unsigned long max_memory_mb;
	struct strlist sandbox_deny_read;  /* like --deny-read */
	struct strlist sandbox_allow_write; /* like --write */
	struct strlist sandbox_deny_write; /* read-only inside writable roots */
	/* network (srt names) */
	struct strlist allowed_domains;
	struct strlist denied_domains;
	struct strlist denied_resolved_addresses;
	bool allow_unix_sockets_set;          /* false: the sandbox default */
	struct strlist allow_unix_sockets; /* [] : none (--no-unix-sockets) */
	bool allow_local_binding;
	/* permissions: Claude Code permission rules, verbatim (ccperm.h) */
	struct strlist perm_allow;
	struct strlist perm_ask;
	struct strlist perm_deny;
	char *perm_root;                      /* the project root for "/x" rules */
	/* classifier */
	char *classifier_rules_json;         /* the "rules" array as JSON text, or NULL */
	unsigned classifier_max_depth;
	/* audit, approvals, mcp */
	char *audit_path;
	bool audit_syslog;
	bool audit_stderr;
	char *audit_fsync;                   /* "every", "batch", "never"; NULL: every */
	unsigned long audit_rotate_bytes;
	unsigned audit_rotate_keep;
	char *audit_key_file;                /* HMAC key; NULL: plain SHA-256 */
	char *approvals_path;
	unsigned approvals_timeout_s;
	bool approvals_broker;               /* ask the running console */
	char *mcp_pins_path;
	char *mcp_pending_tools;             /* "hide", "warn"; NULL: hide */
	char *mcp_new_tools;                 /* "pending", "trust"; NULL: pending */
	/* hooks: "off", "auto", "strict" (hooks.sandbox): whether the
	 * shell commands a hook lets through run in `cordon run` */
	enum config_sandbox_mode hooks_sandbox;
	/* tools: the user's entries first, then the built-in map */
	struct config_tool *tools;
	size_t ntools;

	/* bookkeeping */
	struct config_source *sources;
	size_t nsources;
	struct config_warning *warnings;
	size_t nwarnings;
};

/* The built-in defaults (denied paths and the default tool map included).
 * NULL when out of memory. */
struct cordon_config *config_new(void);
void config_free(struct cordon_config *cfg);

/* Validates json[0..len) completely, then applies it as `layer`. name is the
 * file name used in messages and sources. On error nothing is applied and
 * diag->message reads "NAME: KEY.PATH: what is wrong". */
enum cordon_err config_apply_json(struct cordon_config *cfg, const char *json,
			       size_t len, const char *name,
			       enum config_layer layer, struct cordon_diag *diag);

/* Reads path (refusing files over 1 MiB, with the limit in the message) and
 * applies it. A missing file is CORDON_E_IO with sys_errno ENOENT (callers
 * skip missing optional files). */
enum cordon_err config_apply_file(struct cordon_config *cfg, const char *path,
			       enum config_layer layer, struct cordon_diag *diag);

/* Flags (layer CONFIG_FLAG): extend, never shrink. */
enum cordon_err config_flag_mode(struct cordon_config *cfg, enum cordon_mode m);
enum cordon_err config_flag_add(struct cordon_config *cfg, const char *key,
			     const char *value); /* "safety.denied_paths" … */
enum cordon_err config_flag_read_only(struct cordon_config *cfg);

/* The mode a call runs in: permission_mode clamped to max_permission_mode. */
enum cordon_mode config_effective_mode(const struct cordon_config *cfg);

/* The built-in tool kind for name (after the user's map), or
 * CORDON_KIND_OTHER; *tool gets the entry or NULL. */
enum cordon_kind config_tool_kind(const struct cordon_config *cfg,
			       const char *name, const struct config_tool **tool);

/* The effective configuration as JSON in the DESIGN.md shape; with
 * sources, an object {"config": {...}, "sources": {"key.path": "origin"},
 * "warnings": [...]}. malloc'd; NULL when out of memory. */
char *config_to_json(const struct cordon_config *cfg, bool with_sources);

/* The built-in denied paths that are no place below the home
 * (NULL-terminated). */
extern const char *const config_default_denied_paths[];
/* Replaces *l with the whole built-in denied_paths: a glob a row of the
 * credential table (credentials.h: "**" "/" the row below its base's
 * default place, "/" "**" after a directory's), then those. Empty on
 * failure. */
bool config_default_denied_fill(struct strlist *l);

#endif
