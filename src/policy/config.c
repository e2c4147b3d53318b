/* config — the configuration: built-in defaults, JSON layers, sources.
 *
 * One table (keys[]) lists every leaf key: its path, its type, where it
 * lives in struct cordon_config and what a project file may do with it.
 * Loading walks a document against that table into a copy of the
 * configuration, and the copy replaces the original only when the whole
 * document was valid, so an error changes nothing. Printing walks the same
 * table, so every key that loads also prints, in the DESIGN.md order.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <pcre2.h>

#include "cmdwords.h"
#include "config.h"
#include "cordon.h"
#include "credentials.h"
#include "diag.h"
#include "json.h"
#include "userrules.h"

#include "alloc.h"
#include "banned.h"

/* Key paths in messages are cut at this many bytes. */
#define KEYPATH_MAX 512
/* A source's origin grows by " + LAYER:FILE" as layers add to a list. */
#define ORIGIN_MAX 4096
/* Integers in JSON are exact up to 2^53 (the ceiling of max_length). */
#if ULONG_MAX >= 9007199254740992ULL && SIZE_MAX >= 9007199254740992ULL
#define MAX_LENGTH_CEILING 9007199254740992UL
#else
#define MAX_LENGTH_CEILING                                                     \
	((unsigned long)(SIZE_MAX < ULONG_MAX ? SIZE_MAX : ULONG_MAX))
#endif

/* ---- the built-in defaults ---------------------------------------------- */

/* The built-in denied paths that are no location below the home: system
 * files, and names that hold a secret wherever they are. The user's
 * credentials and histories below the home come from the one credential
 * table the sandbox masks (credentials.c), first in the default list
 * (config_default_denied_fill), so that a path in one is reported by the
 * place it is in (~/.ssh before id_rsa). */
const char *const config_default_denied_paths[] = {
	"/etc/shadow",
	"/etc/passwd",
	"/etc/sudoers",
	"/etc/sudoers.d/**",
	"**/.env",
	"**/.env.*",
	"**/credentials",
	"**/credentials.*",
	"**/secrets",
	"**/secrets.*",
	"**/*.pem",
	"**/*.key",
	"**/*.p12",
	"**/*.pfx",
	"**/id_rsa",
	"**/id_dsa",
	"**/id_ecdsa",
	"**/id_ed25519",
	/* Beyond the list: the same kinds of secret in other
	 * places. */
	"/etc/gshadow",
	"/etc/shadow-",
	"/etc/gshadow-",
	"/proc/*/environ",
	NULL,
};

bool config_default_denied_fill(struct strlist *l)
{
	size_t nfixed = 0, n = 0;

	strlist_clear(l);
	while (config_default_denied_paths[nfixed])
		nfixed++;
	/* the array at once: growing it a string at a time was a realloc a
	 * string, ~150 in every process (a hook call) */
	l->v = cordon__calloc(credentials_count + nfixed, sizeof(*l->v));
	if (!l->v)
		return false;
	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *r = &credentials_table[i];
		const char *mid = credentials_base_default(
			(enum credentials_base)r->base);
		size_t ml = mid ? strlen(mid) : 0, pl = strlen(r->path);
		/* "**" "/", mid and "/", the path, "/" "**" for a directory,
		 * NUL; no snprintf: this runs in every process, a hook call */
		char *pat = cordon__malloc(3 + ml + 1 + pl + 3 + 1), *w = pat;

		if (!pat)
			goto fail;
		l->v[n++] = pat;
		memcpy(w, "**/", 3);
		w += 3;
		if (mid) {
			memcpy(w, mid, ml);
			w += ml;
			*w++ = '/';
		}
		memcpy(w, r->path, pl);
		w += pl;
		if (r->dir) {
			memcpy(w, "/**", 3);
			w += 3;
		}
		*w = '\0';
	}
	for (size_t i = 0; i < nfixed; i++) {
		l->v[n] = cordon__strdup(config_default_denied_paths[i]);
		if (!l->v[n++])
			goto fail;
	}
	l->n = n;
	return true;
fail:
	l->n = n;
	strlist_clear(l);
	return false;
}

static const char *const default_env_denylist[] = {
	"*_API_KEY",  "*_TOKEN", "*SECRET*",
	"*PASSWORD*", "AWS_*",	 "GOOGLE_APPLICATION_CREDENTIALS",
	NULL,
};

static const char *const default_env_vars[] = {
	"PATH", "HOME", "TERM", "LANG",	 "LC_*", "TMPDIR",
	"TMP",	"TEMP", "USER", "SHELL", NULL,
};

struct builtin_tool {
	const char *name;
	enum cordon_kind kind;
	const char *args[4]; /* NULL-terminated */
};

/* The tool names agents use: Gemini CLI and the seeds' snake_case names,
 * then Claude Code's. A name ending in '*' matches by prefix. */
static const struct builtin_tool builtin_tools[] = {
	{ "read_file",
	  CORDON_KIND_READ,
	  { "path", "file_path", "absolute_path" } },
	{ "write_file", CORDON_KIND_WRITE, { "path", "file_path" } },
	{ "edit_file", CORDON_KIND_WRITE, { "path", "file_path" } },
	{ "replace", CORDON_KIND_WRITE, { "file_path", "path" } },
	{ "delete_file", CORDON_KIND_DELETE, { "path", "file_path" } },
	{ "list_directory", CORDON_KIND_READ, { "path", "dir_path" } },
	/* Gemini CLI 0.61 names the files and globs "include". */
	{ "read_many_files", CORDON_KIND_READ, { "include", "paths" } },
	{ "glob", CORDON_KIND_READ, { "path", "dir_path" } },
	{ "search_file_content", CORDON_KIND_READ, { "path", "dir_path" } },
	/* include_pattern is a glob of files: judged like a path. */
	{ "grep_search",
	  CORDON_KIND_READ,
	  { "dir_path", "path", "include_pattern" } },
	{ "bash", CORDON_KIND_EXECUTE, { "command" } },
	{ "shell", CORDON_KIND_EXECUTE, { "command" } },
	{ "run_shell_command", CORDON_KIND_EXECUTE, { "command" } },
	{ "web_fetch", CORDON_KIND_FETCH, { "url", "prompt" } },
	{ "google_web_search", CORDON_KIND_FETCH, { "query" } },
	{ "Read", CORDON_KIND_READ, { "file_path" } },
	{ "Write", CORDON_KIND_WRITE, { "file_path" } },
	{ "Edit", CORDON_KIND_WRITE, { "file_path" } },
	{ "MultiEdit", CORDON_KIND_WRITE, { "file_path" } },
	{ "NotebookEdit", CORDON_KIND_WRITE, { "notebook_path" } },
	{ "Glob", CORDON_KIND_READ, { "path" } },
	{ "Grep", CORDON_KIND_READ, { "path" } },
	{ "LS", CORDON_KIND_READ, { "path" } },
	{ "Bash", CORDON_KIND_EXECUTE, { "command" } },
	/* Claude Code's other tools that run commands, classified like Bash:
	 * Monitor streams a command's output, PowerShell runs one on
	 * Windows, REPL runs code that calls tools. */
	{ "Monitor", CORDON_KIND_EXECUTE, { "command" } },
	{ "PowerShell", CORDON_KIND_EXECUTE, { "command" } },
	{ "REPL", CORDON_KIND_EXECUTE, { "code" } },
	{ "WebFetch", CORDON_KIND_FETCH, { "url" } },
	{ "WebSearch", CORDON_KIND_FETCH, { "query" } },
	{ "mcp__*", CORDON_KIND_MCP, { NULL } },
};

#define NBUILTIN_TOOLS (sizeof(builtin_tools) / sizeof(builtin_tools[0]))

/* ---- names -------------------------------------------------------------- */

static const char *const mode_names[] = { "supervised", "auto-accept-edits",
					  "auto", "full-access" };
/* off, auto, strict, then Aar's names for off and auto. */
static const char *const sandbox_names[] = { "off", "auto", "strict", "local",
					     "linux" };
static const int sandbox_values[] = { CONFIG_SANDBOX_OFF, CONFIG_SANDBOX_AUTO,
				      CONFIG_SANDBOX_STRICT, CONFIG_SANDBOX_OFF,
				      CONFIG_SANDBOX_AUTO };
static const char *const decision_names[] = { "allow", "deny", "ask" };
static const char *const access_names[] = { "read", "write", "any" };
static const char *const kind_names[] = { "read",  "write", "delete", "execute",
					  "fetch", "mcp",   "other" };

#define NAMES(a) (a), (sizeof(a) / sizeof((a)[0]))

/* ---- the key table ------------------------------------------------------ */

enum key_type {
	KT_BOOL, /* bool */
	KT_TRI, /* enum config_tri: null, true, false */
	KT_MODE, /* enum cordon_mode */
	KT_SANDBOX, /* enum config_sandbox_mode */
	KT_UINT, /* unsigned */
	KT_ULONG, /* unsigned long */
	KT_STR, /* char *, null allowed */
	KT_LIST, /* struct strlist */
	KT_PATH_RULES,
	KT_CMD_RULES,
	KT_ARG_LIMITS,
	KT_RULES, /* classifier rules: JSON text */
	KT_TOOLS,
};

/* What a project file may do with a key. */
enum proj_rule {
	PR_IGNORE, /* nothing: ignored with a warning */
	PR_TRUE_ONLY, /* turn on, never off */
	PR_LOWER, /* lower a mode, a cap or a number */
	PR_HIGHER, /* raise (sandbox mode) */
	PR_ADD, /* add entries to the list */
	PR_ADD_EXTRA, /* add entries to the key named by `extra` */
	PR_INTERSECT, /* allowed_tools: intersect, or set when unset */
	PR_SET_IF_UNSET, /* allowed_paths: set only when unset */
	PR_DENY_RULES, /* path and command rules: take the "deny" ones */
};

/* What each list entry must be, beyond a string. */
enum entry_check {
	EC_NONEMPTY, /* a non-empty string */
	EC_REGEX, /* a PCRE2 pattern that compiles */
	EC_COMMAND, /* a command line that is not blank */
};

struct key_def {
	const char *path;
	enum key_type type;
	enum proj_rule proj;
	size_t off; /* the field in struct cordon_config */
	bool has_set; /* KT_LIST: a *_set flag at set_off */
	size_t set_off;
	bool null_unsets; /* KT_LIST: null means unset, not the default */
	const char *const *dflt_list; /* KT_LIST default; NULL: empty */
	bool dflt_creds; /* KT_LIST default: config_default_denied_fill */
	enum entry_check check;
	unsigned long dflt; /* scalars */
	unsigned long min, max; /* KT_UINT, KT_ULONG */
	const char *extra; /* PR_ADD_EXTRA: the key additions go to */
	const char *const *choices; /* KT_STR: the values allowed (NULL: any) */
	const char *choices_text; /* those values, for the message */
};

#define OFF(f) offsetof(struct cordon_config, f)

static const char *const audit_fsync_choices[] = {"every", "batch", "never",
						  NULL};
static const char *const mcp_pending_choices[] = {"hide", "warn", NULL};
static const char *const mcp_new_tools_choices[] = {"pending", "trust", NULL};

/* 1 when s is one of the NULL-terminated list. */
static bool str_in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}
#define SETF(f) .has_set = true, .set_off = OFF(f)

/* In the DESIGN.md order; config_to_json prints them in this order. */
static const struct key_def keys[] = {
	{ .path = "safety.read_only",
	  .type = KT_BOOL,
	  .proj = PR_TRUE_ONLY,
	  .off = OFF(read_only) },
	{ .path = "safety.permission_mode",
	  .type = KT_MODE,
	  .proj = PR_LOWER,
	  .off = OFF(permission_mode),
	  .dflt = CORDON_MODE_SUPERVISED },
	{ .path = "safety.max_permission_mode",
	  .type = KT_MODE,
	  .proj = PR_LOWER,
	  .off = OFF(max_permission_mode),
	  .dflt = CORDON_MODE_FULL_ACCESS },
	{ .path = "safety.require_approval_for_writes",
	  .type = KT_TRI,
	  .proj = PR_TRUE_ONLY,
	  .off = OFF(require_approval_for_writes) },
	{ .path = "safety.require_approval_for_execute",
	  .type = KT_TRI,
	  .proj = PR_TRUE_ONLY,
	  .off = OFF(require_approval_for_execute) },
	{ .path = "safety.denied_paths",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(denied_paths),
	  .dflt_creds = true },
	{ .path = "safety.allowed_paths",
	  .type = KT_LIST,
	  .proj = PR_SET_IF_UNSET,
	  .off = OFF(allowed_paths),
	  SETF(allowed_paths_set),
	  .null_unsets = true },
	{ .path = "safety.read_only_paths",
	  .type = KT_LIST,
	  .proj = PR_IGNORE,
	  .off = OFF(read_only_paths) },
	{ .path = "safety.path_rules",
	  .type = KT_PATH_RULES,
	  .proj = PR_DENY_RULES },
	{ .path = "safety.command_rules",
	  .type = KT_CMD_RULES,
	  .proj = PR_DENY_RULES },
	{ .path = "safety.denied_commands",
	  .type = KT_LIST,
	  .proj = PR_ADD_EXTRA,
	  .off = OFF(denied_commands),
	  SETF(denied_commands_set),
	  .null_unsets = true,
	  .check = EC_COMMAND,
	  .extra = "safety.extra_denied_commands" },
	{ .path = "safety.denied_command_patterns",
	  .type = KT_LIST,
	  .proj = PR_ADD_EXTRA,
	  .off = OFF(denied_command_patterns),
	  SETF(denied_command_patterns_set),
	  .null_unsets = true,
	  .check = EC_REGEX,
	  .extra = "safety.extra_denied_command_patterns" },
	{ .path = "safety.extra_denied_commands",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(extra_denied_commands),
	  .check = EC_COMMAND },
	{ .path = "safety.extra_denied_command_patterns",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(extra_denied_command_patterns),
	  .check = EC_REGEX },
	{ .path = "safety.allowed_tools",
	  .type = KT_LIST,
	  .proj = PR_INTERSECT,
	  .off = OFF(allowed_tools),
	  SETF(allowed_tools_set),
	  .null_unsets = true },
	{ .path = "safety.denied_tools",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(denied_tools) },
	{ .path = "safety.require_confirm",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(require_confirm) },
	{ .path = "safety.arg_limits", .type = KT_ARG_LIMITS, .proj = PR_ADD },
	{ .path = "safety.log_all_commands",
	  .type = KT_BOOL,
	  .proj = PR_TRUE_ONLY,
	  .off = OFF(log_all_commands) },
	{ .path = "safety.sandbox.mode",
	  .type = KT_SANDBOX,
	  .proj = PR_HIGHER,
	  .off = OFF(sandbox_mode),
	  .dflt = CONFIG_SANDBOX_AUTO },
	{ .path = "safety.sandbox.env_denylist_patterns",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(env_denylist_patterns),
	  SETF(env_denylist_set),
	  .dflt_list = default_env_denylist },
	{ .path = "safety.sandbox.local.restricted_env",
	  .type = KT_BOOL,
	  .proj = PR_TRUE_ONLY,
	  .off = OFF(restricted_env),
	  .dflt = 1 },
	{ .path = "safety.sandbox.local.allowed_env_vars",
	  .type = KT_LIST,
	  .proj = PR_IGNORE,
	  .off = OFF(allowed_env_vars),
	  SETF(allowed_env_vars_set),
	  .dflt_list = default_env_vars },
	{ .path = "safety.sandbox.linux.workspace",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(workspace) },
	{ .path = "safety.sandbox.linux.max_memory_mb",
	  .type = KT_ULONG,
	  .proj = PR_LOWER,
	  .off = OFF(max_memory_mb),
	  .dflt = 4096,
	  .min = 1,
	  .max = 1024UL * 1024 },
	{ .path = "safety.sandbox.deny_read",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(sandbox_deny_read) },
	{ .path = "safety.sandbox.allow_write",
	  .type = KT_LIST,
	  .proj = PR_IGNORE,
	  .off = OFF(sandbox_allow_write) },
	{ .path = "safety.sandbox.deny_write",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(sandbox_deny_write) },
	{ .path = "network.allowUnixSockets",
	  .type = KT_LIST,
	  .proj = PR_IGNORE,
	  .has_set = true,
	  .set_off = OFF(allow_unix_sockets_set),
	  .null_unsets = true,
	  .off = OFF(allow_unix_sockets) },
	{ .path = "network.allowLocalBinding",
	  .type = KT_BOOL,
	  .proj = PR_IGNORE,
	  .off = OFF(allow_local_binding) },
	{ .path = "permissions.allow",
	  .type = KT_LIST,
	  .proj = PR_IGNORE,
	  .off = OFF(perm_allow) },
	{ .path = "permissions.ask",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(perm_ask) },
	{ .path = "permissions.deny",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(perm_deny) },
	{ .path = "permissions.root",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(perm_root) },
	{ .path = "network.allowedDomains",
	  .type = KT_LIST,
	  .proj = PR_IGNORE,
	  .off = OFF(allowed_domains) },
	{ .path = "network.deniedDomains",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(denied_domains) },
	{ .path = "network.deniedResolvedAddresses",
	  .type = KT_LIST,
	  .proj = PR_ADD,
	  .off = OFF(denied_resolved_addresses) },
	{ .path = "classifier.rules", .type = KT_RULES, .proj = PR_ADD },
	{ .path = "classifier.max_depth",
	  .type = KT_UINT,
	  .proj = PR_IGNORE,
	  .off = OFF(classifier_max_depth),
	  .dflt = 4,
	  .min = 0,
	  .max = 100 },
	{ .path = "audit.path",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_path) },
	{ .path = "audit.syslog",
	  .type = KT_BOOL,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_syslog) },
	{ .path = "audit.stderr",
	  .type = KT_BOOL,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_stderr) },
	{ .path = "audit.fsync",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_fsync),
	  .choices = audit_fsync_choices,
	  .choices_text = "\"every\", \"batch\", \"never\"" },
	{ .path = "audit.rotate_bytes",
	  .type = KT_ULONG,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_rotate_bytes),
	  .dflt = 64ul << 20,
	  .min = 4096,
	  .max = 1ul << 40 },
	{ .path = "audit.rotate_keep",
	  .type = KT_UINT,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_rotate_keep),
	  .dflt = 10,
	  .min = 1,
	  .max = CORDON_AUDIT_MAX_KEEP },
	{ .path = "audit.key_file",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(audit_key_file) },
	{ .path = "approvals.path",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(approvals_path) },
	{ .path = "approvals.timeout_s",
	  .type = KT_UINT,
	  .proj = PR_LOWER,
	  .off = OFF(approvals_timeout_s),
	  .dflt = 120,
	  .min = 1,
	  .max = 86400 },
	/* Hand an ASK to the running console (cordon console) instead of
	 * denying where there is no terminal. The user's choice: a project
	 * file may not route its asks elsewhere. */
	{ .path = "approvals.broker",
	  .type = KT_BOOL,
	  .proj = PR_IGNORE,
	  .off = OFF(approvals_broker) },
	{ .path = "mcp.pins_path",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(mcp_pins_path) },
	{ .path = "mcp.pending_tools",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(mcp_pending_tools),
	  .choices = mcp_pending_choices,
	  .choices_text = "\"hide\", \"warn\"" },
	{ .path = "mcp.new_tools",
	  .type = KT_STR,
	  .proj = PR_IGNORE,
	  .off = OFF(mcp_new_tools),
	  .choices = mcp_new_tools_choices,
	  .choices_text = "\"pending\", \"trust\"" },
	{ .path = "tools", .type = KT_TOOLS, .proj = PR_IGNORE },
	/* hooks: what `cordon hook` does with the commands it lets through */
	{ .path = "hooks.sandbox",
	  .type = KT_SANDBOX,
	  .proj = PR_HIGHER,
	  .off = OFF(hooks_sandbox),
	  .dflt = CONFIG_SANDBOX_AUTO },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const sections[] = {
	"safety",
	"safety.sandbox",
	"safety.sandbox.local",
	"safety.sandbox.linux",
	"network",
	"classifier",
	"audit",
	"approvals",
	"mcp",
	"permissions",
	"hooks",
};

/* Aar's other top-level keys: accepted, not read. */
static const char *const aar_keys[] = { "provider", "max_steps", "timeout" };

static const struct key_def *key_find(const char *path)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].path, path) == 0)
			return &keys[i];
	return NULL;
}

static bool in_names(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return true;
	return false;
}

/* ---- small helpers ------------------------------------------------------ */

/* A malloc'd formatted string, or NULL when out of memory. */
__attribute__((format(printf, 1, 2))) static char *str_printf(const char *fmt,
							      ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	s = cordon__malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static bool str_copy(char **dst, const char *src)
{
	*dst = src ? cordon__strdup(src) : NULL;
	return !src || *dst;
}

static void path_rule_release(struct config_path_rule *r)
{
	free(r->pattern);
}

static void command_rule_release(struct config_command_rule *r)
{
	strlist_clear(&r->prefix);
	strlist_clear(&r->match);
	strlist_clear(&r->not_match);
}

static void arg_limit_release(struct config_arg_limit *l)
{
	free(l->tool);
	free(l->arg);
	free(l->pattern);
	strlist_clear(&l->choices);
}

static void tool_release(struct config_tool *t)
{
	free(t->name);
	strlist_clear(&t->args);
	free(t->schema_json);
}

static void path_rules_free(struct config_path_rule *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		path_rule_release(&r[i]);
	free(r);
}

static void command_rules_free(struct config_command_rule *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		command_rule_release(&r[i]);
	free(r);
}

static void arg_limits_free(struct config_arg_limit *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		arg_limit_release(&l[i]);
	free(l);
}

static void tools_free(struct config_tool *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tool_release(&t[i]);
	free(t);
}

/* Grows an array of n elements of size sz by one zeroed element. */
static void *array_grow(void *arr, size_t n, size_t sz)
{
	char *p;

	if (n >= SIZE_MAX / sz - 1)
		return NULL;
	p = cordon__realloc(arr, (n + 1) * sz);
	if (p)
		memset(p + n * sz, 0, sz);
	return p;
}

/* ---- owned fields, for copying and freeing ------------------------------ */

static const size_t strlist_fields[] = {
	OFF(denied_paths),
	OFF(allowed_paths),
	OFF(read_only_paths),
	OFF(denied_commands),
	OFF(denied_command_patterns),
	OFF(extra_denied_commands),
	OFF(extra_denied_command_patterns),
	OFF(allowed_tools),
	OFF(denied_tools),
	OFF(require_confirm),
	OFF(env_denylist_patterns),
	OFF(allowed_env_vars),
	OFF(sandbox_deny_read),
	OFF(sandbox_allow_write),
	OFF(sandbox_deny_write),
	OFF(allow_unix_sockets),
	OFF(perm_allow),
	OFF(perm_ask),
	OFF(perm_deny),
	OFF(allowed_domains),
	OFF(denied_domains),
	OFF(denied_resolved_addresses),
};

static const size_t string_fields[] = {
	OFF(workspace),	     OFF(classifier_rules_json), OFF(audit_path),
	OFF(approvals_path), OFF(mcp_pins_path), OFF(audit_fsync),
	OFF(mcp_pending_tools), OFF(mcp_new_tools), OFF(perm_root),
	OFF(audit_key_file),
};

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

static struct strlist *list_at(struct cordon_config *cfg, size_t off)
{
	return (struct strlist *)((char *)cfg + off);
}

static const struct strlist *clist_at(const struct cordon_config *cfg,
					  size_t off)
{
	return (const struct strlist *)((const char *)cfg + off);
}

static char **str_at(struct cordon_config *cfg, size_t off)
{
	return (char **)((char *)cfg + off);
}

static void source_release(struct config_source *s);

static void sources_free(struct config_source *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		source_release(&s[i]);
	free(s);
}

static void warnings_free(struct config_warning *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i].text);
	free(w);
}

/* Frees everything cfg owns, not cfg itself. */
static void config_release(struct cordon_config *cfg)
{
	for (size_t i = 0; i < NFIELDS(strlist_fields); i++)
		strlist_clear(list_at(cfg, strlist_fields[i]));
	for (size_t i = 0; i < NFIELDS(string_fields); i++) {
		free(*str_at(cfg, string_fields[i]));
		*str_at(cfg, string_fields[i]) = NULL;
	}
	path_rules_free(cfg->path_rules, cfg->npath_rules);
	command_rules_free(cfg->command_rules, cfg->ncommand_rules);
	arg_limits_free(cfg->arg_limits, cfg->narg_limits);
	tools_free(cfg->tools, cfg->ntools);
	sources_free(cfg->sources, cfg->nsources);
	warnings_free(cfg->warnings, cfg->nwarnings);
	cfg->path_rules = NULL;
	cfg->command_rules = NULL;
	cfg->arg_limits = NULL;
	cfg->tools = NULL;
	cfg->sources = NULL;
	cfg->warnings = NULL;
	cfg->npath_rules = cfg->ncommand_rules = cfg->narg_limits = 0;
	cfg->ntools = cfg->nsources = cfg->nwarnings = 0;
}

void config_free(struct cordon_config *cfg)
{
	if (!cfg)
		return;
	config_release(cfg);
	free(cfg);
}

static bool path_rule_copy(struct config_path_rule *d,
			   const struct config_path_rule *s)
{
	*d = *s;
	return str_copy(&d->pattern, s->pattern);
}

static bool command_rule_copy(struct config_command_rule *d,
			      const struct config_command_rule *s)
{
	*d = *s;
	return strlist_copy(&d->prefix, &s->prefix) &&
	       strlist_copy(&d->match, &s->match) &&
	       strlist_copy(&d->not_match, &s->not_match);
}

static bool arg_limit_copy(struct config_arg_limit *d,
			   const struct config_arg_limit *s)
{
	*d = *s;
	d->tool = d->arg = d->pattern = NULL;
	d->choices.v = NULL;
	d->choices.n = 0;
	return str_copy(&d->tool, s->tool) && str_copy(&d->arg, s->arg) &&
	       str_copy(&d->pattern, s->pattern) &&
	       strlist_copy(&d->choices, &s->choices);
}

static bool tool_copy(struct config_tool *d, const struct config_tool *s)
{
	*d = *s;
	d->name = d->schema_json = NULL;
	d->args.v = NULL;
	d->args.n = 0;
	return str_copy(&d->name, s->name) &&
	       str_copy(&d->schema_json, s->schema_json) &&
	       strlist_copy(&d->args, &s->args);
}

/* Copies n elements with copy(); on failure everything copied is released
 * and *out is NULL. The zeroed array lets a half-copied element be released
 * safely. */
#define COPY_ARRAY(out, src, n, copy, release)                                 \
	do {                                                                   \
		(out) = NULL;                                                  \
		if ((n) == 0)                                                  \
			break;                                                 \
		(out) = cordon__calloc((n), sizeof(*(out)));                           \
		if (!(out))                                                    \
			goto fail;                                             \
		for (size_t i_ = 0; i_ < (n); i_++) {                          \
			if (!copy(&(out)[i_], &(src)[i_])) {                   \
				for (size_t j_ = 0; j_ <= i_; j_++)            \
					release(&(out)[j_]);                   \
				free(out);                                     \
				(out) = NULL;                                  \
				goto fail;                                     \
			}                                                      \
		}                                                              \
	} while (0)

/* The static strings stay shared; the owned ones are copied. */
static bool source_copy(struct config_source *d, const struct config_source *s)
{
	*d = *s;
	d->key = s->key_owned ? cordon__strdup(s->key) : s->key;
	d->origin = s->origin_owned ? cordon__strdup(s->origin) : s->origin;
	if (!d->key)
		d->key_owned = false;
	if (!d->origin)
		d->origin_owned = false;
	return d->key && d->origin;
}

static void source_release(struct config_source *s)
{
	if (s->key_owned)
		free((char *)s->key);
	if (s->origin_owned)
		free((char *)s->origin);
}

static bool warning_copy(struct config_warning *d, const struct config_warning *s)
{
	d->text = cordon__strdup(s->text);
	return d->text != NULL;
}

static void warning_release(struct config_warning *w)
{
	free(w->text);
}

/* A deep copy of src, or NULL when out of memory. */
static struct cordon_config *config_clone(const struct cordon_config *src)
{
	struct cordon_config *d = cordon__malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *src;
	/* Detach every owned pointer first: a failure half-way then frees
	 * only what was copied. */
	for (size_t i = 0; i < NFIELDS(strlist_fields); i++) {
		list_at(d, strlist_fields[i])->v = NULL;
		list_at(d, strlist_fields[i])->n = 0;
	}
	for (size_t i = 0; i < NFIELDS(string_fields); i++)
		*str_at(d, string_fields[i]) = NULL;
	d->path_rules = NULL;
	d->command_rules = NULL;
	d->arg_limits = NULL;
	d->tools = NULL;
	d->sources = NULL;
	d->warnings = NULL;
	d->npath_rules = d->ncommand_rules = d->narg_limits = 0;
	d->ntools = d->nsources = d->nwarnings = 0;

	for (size_t i = 0; i < NFIELDS(strlist_fields); i++)
		if (!strlist_copy(list_at(d, strlist_fields[i]),
				  clist_at(src, strlist_fields[i])))
			goto fail;
	for (size_t i = 0; i < NFIELDS(string_fields); i++) {
		const char *s =
			*(char *const *)((const char *)src + string_fields[i]);

		if (!str_copy(str_at(d, string_fields[i]), s))
			goto fail;
	}
	COPY_ARRAY(d->path_rules, src->path_rules, src->npath_rules,
		   path_rule_copy, path_rule_release);
	d->npath_rules = src->npath_rules;
	COPY_ARRAY(d->command_rules, src->command_rules, src->ncommand_rules,
		   command_rule_copy, command_rule_release);
	d->ncommand_rules = src->ncommand_rules;
	COPY_ARRAY(d->arg_limits, src->arg_limits, src->narg_limits,
		   arg_limit_copy, arg_limit_release);
	d->narg_limits = src->narg_limits;
	COPY_ARRAY(d->tools, src->tools, src->ntools, tool_copy, tool_release);
	d->ntools = src->ntools;
	COPY_ARRAY(d->sources, src->sources, src->nsources, source_copy,
		   source_release);
	d->nsources = src->nsources;
	COPY_ARRAY(d->warnings, src->warnings, src->nwarnings, warning_copy,
		   warning_release);
	d->nwarnings = src->nwarnings;
	return d;
fail:
	config_free(d);
	return NULL;
}

/* ---- sources and warnings ----------------------------------------------- */

static struct config_source *source_find(const struct cordon_config *cfg,
				      const char *key)
{
	for (size_t i = 0; i < cfg->nsources; i++)
		if (strcmp(cfg->sources[i].key, key) == 0)
			return &cfg->sources[i];
	return NULL;
}

/* Records that origin set key (add: added to its value, so the origin is
 * appended to the one before). */
static bool source_note(struct cordon_config *cfg, const char *key,
			const char *origin, bool add)
{
	struct config_source *s = source_find(cfg, key);
	struct config_source *ns;
	char *o;

	if (s) {
		size_t ol = strlen(s->origin), nl = strlen(origin);

		if (add) {
			/* Already the last contributor, or too long to grow. */
			if ((ol >= nl &&
			     strcmp(s->origin + ol - nl, origin) == 0 &&
			     (ol == nl || s->origin[ol - nl - 1] == ' ')) ||
			    ol + nl + 3 > ORIGIN_MAX)
				return true;
			o = str_printf("%s + %s", s->origin, origin);
		} else {
			o = cordon__strdup(origin);
		}
		if (!o)
			return false;
		if (s->origin_owned)
			free((char *)s->origin);
		s->origin = o;
		s->origin_owned = true;
		return true;
	}
	ns = array_grow(cfg->sources, cfg->nsources, sizeof(*ns));
	if (!ns)
		return false;
	cfg->sources = ns;
	ns[cfg->nsources].key = cordon__strdup(key);
	ns[cfg->nsources].origin = cordon__strdup(origin);
	ns[cfg->nsources].key_owned = ns[cfg->nsources].key != NULL;
	ns[cfg->nsources].origin_owned = ns[cfg->nsources].origin != NULL;
	if (!ns[cfg->nsources].key || !ns[cfg->nsources].origin) {
		source_release(&ns[cfg->nsources]);
		return false;
	}
	cfg->nsources++;
	return true;
}

/* Drops the sources whose key starts with prefix. */
static void source_drop_prefix(struct cordon_config *cfg, const char *prefix)
{
	size_t k = 0, pl = strlen(prefix);

	for (size_t i = 0; i < cfg->nsources; i++) {
		if (strncmp(cfg->sources[i].key, prefix, pl) == 0) {
			source_release(&cfg->sources[i]);
			continue;
		}
		cfg->sources[k++] = cfg->sources[i];
	}
	cfg->nsources = k;
}

/* Adds a warning (taking text); past the limit, the last one says so. */
static bool warning_take(struct cordon_config *cfg, char *text,
			 const char *name)
{
	struct config_warning *nw;

	if (!text)
		return false;
	if (cfg->nwarnings >= CONFIG_MAX_WARNINGS) {
		free(text);
		return true;
	}
	if (cfg->nwarnings == CONFIG_MAX_WARNINGS - 1) {
		free(text);
		text = str_printf("%s: more warnings were dropped (limit %d "
				  "warnings)",
				  name, CONFIG_MAX_WARNINGS);
		if (!text)
			return false;
	}
	nw = array_grow(cfg->warnings, cfg->nwarnings, sizeof(*nw));
	if (!nw) {
		free(text);
		return false;
	}
	cfg->warnings = nw;
	nw[cfg->nwarnings++].text = text;
	return true;
}

/* ---- defaults ----------------------------------------------------------- */

static bool tool_from_builtin(struct config_tool *t, const struct builtin_tool *b)
{
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->kind = b->kind;
	t->name = cordon__strdup(b->name);
	if (!t->name)
		return false;
	while (n < 4 && b->args[n])
		n++;
	return strlist_fill_n(&t->args, b->args, n);
}

/* Sets cfg->tools to the built-in map after the first nuser entries (which
 * are kept). */
static bool tools_builtin_after(struct cordon_config *cfg, size_t nuser)
{
	struct config_tool *t;

	for (size_t i = nuser; i < cfg->ntools; i++)
		tool_release(&cfg->tools[i]);
	cfg->ntools = nuser;
	t = cordon__realloc(cfg->tools, (nuser + NBUILTIN_TOOLS) * sizeof(*t));
	if (!t)
		return false;
	cfg->tools = t;
	for (size_t i = 0; i < NBUILTIN_TOOLS; i++) {
		bool ok = tool_from_builtin(&t[nuser + i], &builtin_tools[i]);

		cfg->ntools++;
		if (!ok)
			return false;
	}
	return true;
}

/* Sets the key's value to its built-in default. */
static bool key_reset(struct cordon_config *cfg, const struct key_def *d)
{
	void *f = (char *)cfg + d->off;

	switch (d->type) {
	case KT_BOOL:
		*(bool *)f = d->dflt != 0;
		return true;
	case KT_TRI:
		*(enum config_tri *)f = CONFIG_UNSET;
		return true;
	case KT_MODE:
		*(enum cordon_mode *)f = (enum cordon_mode)d->dflt;
		return true;
	case KT_SANDBOX:
		*(enum config_sandbox_mode *)f = (enum config_sandbox_mode)d->dflt;
		return true;
	case KT_UINT:
		*(unsigned *)f = (unsigned)d->dflt;
		return true;
	case KT_ULONG:
		*(unsigned long *)f = d->dflt;
		return true;
	case KT_STR:
		free(*(char **)f);
		*(char **)f = NULL;
		return true;
	case KT_LIST:
		if (d->has_set)
			*(bool *)((char *)cfg + d->set_off) = false;
		if (d->null_unsets) {
			strlist_clear(f);
			return true;
		}
		if (d->dflt_creds)
			return config_default_denied_fill(f);
		return strlist_fill(f, d->dflt_list);
	case KT_PATH_RULES:
		path_rules_free(cfg->path_rules, cfg->npath_rules);
		cfg->path_rules = NULL;
		cfg->npath_rules = 0;
		return true;
	case KT_CMD_RULES:
		command_rules_free(cfg->command_rules, cfg->ncommand_rules);
		cfg->command_rules = NULL;
		cfg->ncommand_rules = 0;
		return true;
	case KT_ARG_LIMITS:
		arg_limits_free(cfg->arg_limits, cfg->narg_limits);
		cfg->arg_limits = NULL;
		cfg->narg_limits = 0;
		return true;
	case KT_RULES:
		free(cfg->classifier_rules_json);
		cfg->classifier_rules_json = NULL;
		return true;
	case KT_TOOLS:
		source_drop_prefix(cfg, "tools.");
		return tools_builtin_after(cfg, 0);
	}
	return false;
}

struct cordon_config *config_new(void)
{
	struct cordon_config *cfg = cordon__calloc(1, sizeof(*cfg));

	if (!cfg)
		return NULL;
	/* Every key's origin is "default": one array for them all and no
	 * search for a key already noted (the table's paths are distinct;
	 * test_config checks the sources strictly sorted), pointing at the
	 * table's path and a static "default". Every process that reads a
	 * configuration, one per hook call, starts here: source_note() one
	 * key at a time cost 96,000 instructions, copying the strings
	 * 40,000 more. */
	cfg->sources = cordon__calloc(NKEYS, sizeof(*cfg->sources));
	if (!cfg->sources)
		goto fail;
	for (size_t i = 0; i < NKEYS; i++) {
		struct config_source *src = &cfg->sources[i];

		if (!key_reset(cfg, &keys[i]))
			goto fail;
		src->key = keys[i].path;
		src->origin = "default";
		cfg->nsources++;
	}
	return cfg;
fail:
	config_free(cfg);
	return NULL;
}

/* ---- loading: context and messages -------------------------------------- */

struct actx {
	struct cordon_config *cfg; /* the copy being changed */
	const char *name; /* the file name, for messages */
	enum config_layer layer;
	char *origin; /* "user:NAME" … */
	struct cordon_diag *diag;
	char path[KEYPATH_MAX]; /* the key path being read */
	size_t plen;
};

static bool is_project(const struct actx *x)
{
	return x->layer == CONFIG_PROJECT;
}

/* Appends s to the NUL-terminated buf[0..cap), cutting it to fit. */
static void msg_append(char *buf, size_t cap, const char *s)
{
	size_t have = strnlen(buf, cap - 1);
	size_t n = strlen(s);

	if (n > cap - 1 - have)
		n = cap - 1 - have;
	memcpy(buf + have, s, n);
	buf[have + n] = '\0';
}

/* Fills d with "NAME: PATH: what" (or "NAME: what" without a path), cut
 * to fit. */
static void diag_fill(struct cordon_diag *d, enum cordon_err code,
		      const char *name, const char *path, const char *what)
{
	bool with_path = path && path[0];

	diag_set(d, code, "%s: %s%s%s", name, with_path ? path : "",
		 with_path ? ": " : "", what);
}

/* Reports "NAME: KEY.PATH: what" and returns code. */
__attribute__((format(printf, 3, 4))) static enum cordon_err
fail(struct actx *x, enum cordon_err code, const char *fmt, ...)
{
	char what[224];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	diag_fill(x->diag, code, x->name, x->path, what);
	return code;
}

static enum cordon_err nomem(struct actx *x)
{
	return fail(x, CORDON_E_NOMEM, "out of memory");
}

static enum cordon_err too_many(struct actx *x)
{
	return fail(x, CORDON_E_LIMIT, "more than %d entries (limit)",
		    CONFIG_MAX_LIST);
}

/* Appends key to the path ("a.b"), control characters shown as '?' so a
 * file cannot drive the terminal through an error message. Returns the
 * length to restore. */
static size_t path_push(struct actx *x, const char *key)
{
	size_t old = x->plen;
	size_t cap = sizeof(x->path) - 1;

	if (x->plen && x->plen < cap)
		x->path[x->plen++] = '.';
	if (!*key)
		key = "\"\"";
	for (const unsigned char *p = (const unsigned char *)key;
	     *p && x->plen < cap; p++)
		x->path[x->plen++] = (*p < 0x20 || *p == 0x7f) ? '?' : (char)*p;
	x->path[x->plen] = '\0';
	return old;
}

static size_t path_index(struct actx *x, size_t i)
{
	size_t old = x->plen;
	int n = snprintf(x->path + x->plen, sizeof(x->path) - x->plen, "[%zu]",
			 i);

	if (n > 0)
		x->plen += (size_t)n < sizeof(x->path) - x->plen ?
				   (size_t)n :
				   sizeof(x->path) - x->plen - 1;
	return old;
}

static void path_pop(struct actx *x, size_t old)
{
	x->plen = old;
	x->path[old] = '\0';
}

/* A warning at the current key path: the project file may not do this. */
static enum cordon_err warn_ignored(struct actx *x)
{
	char *t = str_printf("%s: %s: a project file may only tighten; ignored",
			     x->name, x->path);

	return warning_take(x->cfg, t, x->name) ? CORDON_OK : nomem(x);
}

static enum cordon_err note(struct actx *x, const char *key, bool add)
{
	return source_note(x->cfg, key, x->origin, add) ? CORDON_OK : nomem(x);
}

/* ---- loading: values ---------------------------------------------------- */

/* Checks obj is an object with at most CONFIG_MAX_LIST members and no name
 * twice (sorted, so large objects stay cheap). */
static int cmp_member(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a;
	const cJSON *y = *(const cJSON *const *)b;

	return strcmp(x->string ? x->string : "", y->string ? y->string : "");
}

static enum cordon_err check_object(struct actx *x, const cJSON *obj)
{
	const cJSON **v;
	size_t n = 0, i = 0;
	enum cordon_err err = CORDON_OK;

	if (!cJSON_IsObject(obj))
		return fail(x, CORDON_E_CONFIG, "expected an object");
	for (const cJSON *c = obj->child; c; c = c->next)
		if (++n > CONFIG_MAX_LIST)
			return fail(x, CORDON_E_LIMIT,
				    "more than %d keys (limit)", CONFIG_MAX_LIST);
	if (n < 2)
		return CORDON_OK;
	v = cordon__malloc(n * sizeof(*v));
	if (!v)
		return nomem(x);
	for (const cJSON *c = obj->child; c; c = c->next)
		v[i++] = c;
	qsort(v, n, sizeof(*v), cmp_member);
	for (i = 1; i < n; i++) {
		if (cmp_member(&v[i - 1], &v[i]) == 0) {
			size_t old =
				path_push(x, v[i]->string ? v[i]->string : "");

			err = fail(x, CORDON_E_CONFIG, "duplicate key");
			path_pop(x, old);
			break;
		}
	}
	free(v);
	return err;
}

/* Checks a string value: at most CONFIG_MAX_STRING bytes, non-empty unless
 * allow_empty. */
static enum cordon_err check_string(struct actx *x, const cJSON *it,
				    bool allow_empty)
{
	size_t n;

	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(x, CORDON_E_CONFIG, "expected a string");
	n = strlen(it->valuestring);
	if (n > CONFIG_MAX_STRING)
		return fail(x, CORDON_E_LIMIT, "longer than %d bytes (limit)",
			    CONFIG_MAX_STRING);
	if (n == 0 && !allow_empty)
		return fail(x, CORDON_E_CONFIG, "expected a non-empty string");
	return CORDON_OK;
}

/* Compiles pattern to check it; PCRE2 options as the user of the list
 * compiles it. */
static enum cordon_err check_regex(struct actx *x, const char *pattern,
				   uint32_t options)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern,
				       PCRE2_ZERO_TERMINATED, options, &code,
				       &off, NULL);
	PCRE2_UCHAR msg[120];

	if (re) {
		pcre2_code_free(re);
		return CORDON_OK;
	}
	if (code == PCRE2_ERROR_HEAP_FAILED)
		return nomem(x);
	if (pcre2_get_error_message(code, msg, sizeof(msg)) < 0)
		snprintf((char *)msg, sizeof(msg), "error %d", code);
	return fail(x, CORDON_E_CONFIG,
		    "invalid regular expression: %s at offset %zu",
		    (const char *)msg, (size_t)off);
}

static enum cordon_err check_entry(struct actx *x, const char *s,
				   enum entry_check check)
{
	switch (check) {
	case EC_NONEMPTY:
		return CORDON_OK;
	case EC_REGEX:
		/* As the classifier compiles its deny patterns. */
		return check_regex(x, s, PCRE2_NEVER_UTF);
	case EC_COMMAND:
		if (strspn(s, " \t\n") == strlen(s))
			return fail(x, CORDON_E_CONFIG,
				    "expected a command, not blanks");
		return CORDON_OK;
	}
	return CORDON_OK;
}

/* Reads an array of strings into *out (empty first). */
static enum cordon_err parse_strlist(struct actx *x, const cJSON *arr,
				     enum entry_check check, bool allow_empty,
				     struct strlist *out)
{
	size_t i = 0;
	enum cordon_err err = CORDON_OK;

	out->v = NULL;
	out->n = 0;
	if (!cJSON_IsArray(arr))
		return fail(x, CORDON_E_CONFIG, "expected a list of strings");
	for (const cJSON *el = arr->child; el; el = el->next, i++) {
		size_t old;

		if (i >= CONFIG_MAX_LIST) {
			err = too_many(x);
			break;
		}
		old = path_index(x, i);
		err = check_string(x, el, allow_empty);
		if (err == CORDON_OK)
			err = check_entry(x, el->valuestring, check);
		if (err == CORDON_OK && !strlist_push(out, el->valuestring))
			err = nomem(x);
		if (err != CORDON_OK)
			break;
		path_pop(x, old);
	}
	if (err != CORDON_OK)
		strlist_clear(out);
	return err;
}

/* One of names (as given in JSON); the message lists them all. */
static enum cordon_err parse_name(struct actx *x, const cJSON *it,
				  const char *const *names, size_t n, int *out)
{
	char list[160];
	size_t len = 0;

	if (cJSON_IsString(it) && it->valuestring) {
		for (size_t i = 0; i < n; i++) {
			if (strcmp(it->valuestring, names[i]) == 0) {
				*out = (int)i;
				return CORDON_OK;
			}
		}
	}
	list[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(list + len, sizeof(list) - len, "%s%s",
				 i ? ", " : "", names[i]);

		if (k < 0 || (size_t)k >= sizeof(list) - len)
			break;
		len += (size_t)k;
	}
	return fail(x, CORDON_E_CONFIG, "expected one of %s", list);
}

/* An integer in [min, max]. */
static enum cordon_err parse_uint(struct actx *x, const cJSON *it,
				  unsigned long min, unsigned long max,
				  unsigned long *out)
{
	double d;

	if (!cJSON_IsNumber(it))
		goto bad;
	d = it->valuedouble;
	if (!(d >= (double)min && d <= (double)max) ||
	    d != (double)(unsigned long)d)
		goto bad;
	*out = (unsigned long)d;
	return CORDON_OK;
bad:
	return fail(x, CORDON_E_CONFIG, "expected an integer from %lu to %lu",
		    min, max);
}

/* The members of obj, each checked against names[0..n): found[i] gets the
 * member named names[i] (NULL when absent or null). */
static enum cordon_err parse_fields(struct actx *x, const cJSON *obj,
				    const char *const *names, size_t n,
				    const cJSON **found)
{
	enum cordon_err err = check_object(x, obj);

	if (err != CORDON_OK)
		return err;
	for (size_t i = 0; i < n; i++)
		found[i] = NULL;
	for (const cJSON *c = obj->child; c; c = c->next) {
		const char *k = c->string ? c->string : "";
		size_t i;

		for (i = 0; i < n; i++)
			if (strcmp(k, names[i]) == 0)
				break;
		if (i == n) {
			path_push(x, k);
			return fail(x, CORDON_E_CONFIG, "unknown key");
		}
		found[i] = cJSON_IsNull(c) ? NULL : c;
	}
	return CORDON_OK;
}

static enum cordon_err missing(struct actx *x, const char *key)
{
	size_t old = path_push(x, key);
	enum cordon_err err =
		fail(x, CORDON_E_CONFIG, "required key is missing");

	path_pop(x, old);
	return err;
}

/* ---- loading: scalar keys ----------------------------------------------- */

static enum cordon_err apply_bool(struct actx *x, const struct key_def *d,
				  const cJSON *it)
{
	bool *f = (bool *)((char *)x->cfg + d->off);
	bool v;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		v = d->dflt != 0;
	} else if (cJSON_IsBool(it)) {
		v = cJSON_IsTrue(it);
	} else {
		return fail(x, CORDON_E_CONFIG, "expected true or false");
	}
	if (is_project(x)) {
		if (d->proj == PR_IGNORE)
			return warn_ignored(x);
		if (v == *f)
			return CORDON_OK;
		if (!v)
			return warn_ignored(x);
	}
	*f = v;
	return note(x, d->path, false);
}

static enum cordon_err apply_tri(struct actx *x, const struct key_def *d,
				 const cJSON *it)
{
	enum config_tri *f = (enum config_tri *)((char *)x->cfg + d->off);
	enum config_tri v;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		v = CONFIG_UNSET;
	} else if (cJSON_IsBool(it)) {
		v = cJSON_IsTrue(it) ? CONFIG_TRUE : CONFIG_FALSE;
	} else {
		return fail(x, CORDON_E_CONFIG, "expected true, false or null");
	}
	if (is_project(x)) {
		if (v == *f)
			return CORDON_OK;
		/* Only "ask" may be forced: false (or back to the mode's
		 * say) would loosen. */
		if (v != CONFIG_TRUE)
			return warn_ignored(x);
	}
	*f = v;
	return note(x, d->path, false);
}

/* Modes, the sandbox mode and numbers: a project file may move them one
 * way only (d->proj). */
static enum cordon_err apply_ordered(struct actx *x, const struct key_def *d,
				     unsigned long v, unsigned long cur,
				     void (*store)(void *, unsigned long))
{
	void *f = (char *)x->cfg + d->off;

	if (is_project(x)) {
		if (d->proj == PR_IGNORE)
			return warn_ignored(x);
		if (v == cur)
			return CORDON_OK;
		if ((d->proj == PR_LOWER && v > cur) ||
		    (d->proj == PR_HIGHER && v < cur))
			return warn_ignored(x);
	}
	store(f, v);
	return note(x, d->path, false);
}

static void store_mode(void *f, unsigned long v)
{
	*(enum cordon_mode *)f = (enum cordon_mode)v;
}

static void store_sandbox(void *f, unsigned long v)
{
	*(enum config_sandbox_mode *)f = (enum config_sandbox_mode)v;
}

static void store_uint(void *f, unsigned long v)
{
	*(unsigned *)f = (unsigned)v;
}

static void store_ulong(void *f, unsigned long v)
{
	*(unsigned long *)f = v;
}

static enum cordon_err apply_scalar(struct actx *x, const struct key_def *d,
				    const cJSON *it)
{
	void *f = (char *)x->cfg + d->off;
	unsigned long v = d->dflt, cur;
	void (*store)(void *, unsigned long);
	enum cordon_err err = CORDON_OK;
	int k = 0;

	switch (d->type) {
	case KT_MODE:
		cur = (unsigned long)*(enum cordon_mode *)f;
		store = store_mode;
		if (!cJSON_IsNull(it)) {
			err = parse_name(x, it, NAMES(mode_names), &k);
			v = (unsigned long)k;
		}
		break;
	case KT_SANDBOX:
		cur = (unsigned long)*(enum config_sandbox_mode *)f;
		store = store_sandbox;
		if (!cJSON_IsNull(it)) {
			err = parse_name(x, it, NAMES(sandbox_names), &k);
			v = err == CORDON_OK ?
				    (unsigned long)sandbox_values[k] :
				    0;
		}
		break;
	case KT_UINT:
		cur = *(unsigned *)f;
		store = store_uint;
		if (!cJSON_IsNull(it))
			err = parse_uint(x, it, d->min, d->max, &v);
		break;
	default:
		cur = *(unsigned long *)f;
		store = store_ulong;
		if (!cJSON_IsNull(it))
			err = parse_uint(x, it, d->min, d->max, &v);
		break;
	}
	if (err != CORDON_OK)
		return err;
	if (cJSON_IsNull(it) && is_project(x))
		return CORDON_OK;
	return apply_ordered(x, d, v, cur, store);
}

static enum cordon_err apply_str(struct actx *x, const struct key_def *d,
				 const cJSON *it)
{
	char **f = (char **)((char *)x->cfg + d->off);
	char *v = NULL;
	enum cordon_err err;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
	} else {
		err = check_string(x, it, false);
		if (err != CORDON_OK)
			return err;
		if (d->choices && !str_in(d->choices, it->valuestring))
			return fail(x, CORDON_E_CONFIG, "expected one of %s",
				    d->choices_text);
		if (is_project(x))
			return warn_ignored(x);
		v = cordon__strdup(it->valuestring);
		if (!v)
			return nomem(x);
	}
	free(*f);
	*f = v;
	return note(x, d->path, false);
}

/* ---- loading: lists ----------------------------------------------------- */

/* Appends the entries of add not yet in l (taking them from add). */
static enum cordon_err list_add(struct actx *x, struct strlist *l,
				struct strlist *add, const char *key,
				bool *set)
{
	size_t added = 0;

	for (size_t i = 0; i < add->n; i++) {
		if (strlist_has(l, add->v[i]))
			continue;
		if (l->n >= CONFIG_MAX_LIST)
			return fail(x, CORDON_E_LIMIT,
				    "more than %d entries after adding "
				    "(limit)",
				    CONFIG_MAX_LIST);
		if (!strlist_take(l, add->v[i])) {
			add->v[i] = NULL;
			return nomem(x);
		}
		add->v[i] = NULL;
		added++;
	}
	if (!added)
		return CORDON_OK;
	if (set)
		*set = true;
	return note(x, key, true);
}

/* allowed_tools in a project file: the tools both allow. */
static enum cordon_err list_intersect(struct actx *x, const struct key_def *d,
				      struct strlist *cur,
				      const struct strlist *want)
{
	size_t k = 0;
	bool removed = false;
	enum cordon_err err = CORDON_OK;

	for (size_t i = 0; i < want->n && err == CORDON_OK; i++) {
		if (!strlist_has(cur, want->v[i])) {
			size_t old = path_index(x, i);

			err = warn_ignored(x);
			path_pop(x, old);
		}
	}
	if (err != CORDON_OK)
		return err;
	for (size_t i = 0; i < cur->n; i++) {
		if (strlist_has(want, cur->v[i])) {
			cur->v[k++] = cur->v[i];
		} else {
			free(cur->v[i]);
			removed = true;
		}
	}
	cur->n = k;
	return removed ? note(x, d->path, true) : CORDON_OK;
}

static enum cordon_err apply_list(struct actx *x, const struct key_def *d,
				  const cJSON *it)
{
	struct strlist *cur = list_at(x->cfg, d->off);
	bool *set = d->has_set ? (bool *)((char *)x->cfg + d->set_off) : NULL;
	struct strlist nl;
	const struct key_def *ex;
	enum cordon_err err;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		if (!key_reset(x->cfg, d))
			return nomem(x);
		return note(x, d->path, false);
	}
	if (!cJSON_IsArray(it))
		return fail(x, CORDON_E_CONFIG,
			    "expected a list of strings or null");
	err = parse_strlist(x, it, d->check, false, &nl);
	if (err != CORDON_OK)
		return err;
	if (!is_project(x)) {
		strlist_clear(cur);
		*cur = nl;
		if (set)
			*set = true;
		return note(x, d->path, false);
	}
	switch (d->proj) {
	case PR_ADD:
		err = list_add(x, cur, &nl, d->path, set);
		break;
	case PR_ADD_EXTRA:
		ex = key_find(d->extra);
		err = list_add(x, list_at(x->cfg, ex->off), &nl, ex->path,
			       NULL);
		break;
	case PR_INTERSECT:
		if (!*set) {
			strlist_clear(cur);
			*cur = nl;
			*set = true;
			return note(x, d->path, false);
		}
		err = list_intersect(x, d, cur, &nl);
		break;
	case PR_SET_IF_UNSET:
		if (!*set) {
			strlist_clear(cur);
			*cur = nl;
			*set = true;
			return note(x, d->path, false);
		}
		err = warn_ignored(x);
		break;
	default:
		err = warn_ignored(x);
		break;
	}
	strlist_clear(&nl);
	return err;
}

/* ---- loading: path and command rules ------------------------------------ */

static enum cordon_err parse_path_rule(struct actx *x, const cJSON *obj,
				       struct config_path_rule *r)
{
	static const char *const names[] = { "pattern", "access", "decision" };
	const cJSON *f[3];
	enum cordon_err err = parse_fields(x, obj, NAMES(names), f);
	int k = CONFIG_ACCESS_ANY;
	size_t old;

	if (err != CORDON_OK)
		return err;
	if (!f[0])
		return missing(x, "pattern");
	if (!f[2])
		return missing(x, "decision");
	old = path_push(x, "pattern");
	err = check_string(x, f[0], false);
	path_pop(x, old);
	if (err != CORDON_OK)
		return err;
	if (f[1]) {
		old = path_push(x, "access");
		err = parse_name(x, f[1], NAMES(access_names), &k);
		path_pop(x, old);
		if (err != CORDON_OK)
			return err;
	}
	r->access = (enum config_access)k;
	old = path_push(x, "decision");
	err = parse_name(x, f[2], NAMES(decision_names), &k);
	path_pop(x, old);
	if (err != CORDON_OK)
		return err;
	r->decision = (enum cordon_decision)k;
	r->pattern = cordon__strdup(f[0]->valuestring);
	return r->pattern ? CORDON_OK : nomem(x);
}

/* Checks the rule's match / not_match examples against its prefix. */
static enum cordon_err check_examples(struct actx *x,
				      const struct config_command_rule *r)
{
	for (int want = 1; want >= 0; want--) {
		const struct strlist *l = want ? &r->match : &r->not_match;
		size_t old = path_push(x, want ? "match" : "not_match");

		for (size_t i = 0; i < l->n; i++) {
			bool got = cmdwords_matches_prefix(&r->prefix, l->v[i]);

			if (got != (want == 1)) {
				path_index(x, i);
				return fail(x, CORDON_E_CONFIG,
					    want ? "the example does not match "
						   "the rule's prefix" :
						   "the example matches the "
						   "rule's prefix");
			}
		}
		path_pop(x, old);
	}
	return CORDON_OK;
}

static enum cordon_err parse_command_rule(struct actx *x, const cJSON *obj,
					  struct config_command_rule *r)
{
	static const char *const names[] = { "prefix", "decision", "match",
					     "not_match" };
	const cJSON *f[4];
	enum cordon_err err = parse_fields(x, obj, NAMES(names), f);
	int k = 0;
	size_t old;

	if (err != CORDON_OK)
		return err;
	if (!f[0])
		return missing(x, "prefix");
	if (!f[1])
		return missing(x, "decision");
	old = path_push(x, "prefix");
	err = parse_strlist(x, f[0], EC_NONEMPTY, false, &r->prefix);
	if (err == CORDON_OK && r->prefix.n == 0)
		err = fail(x, CORDON_E_CONFIG, "expected at least one word");
	path_pop(x, old);
	if (err != CORDON_OK)
		return err;
	old = path_push(x, "decision");
	err = parse_name(x, f[1], NAMES(decision_names), &k);
	path_pop(x, old);
	if (err != CORDON_OK)
		return err;
	r->decision = (enum cordon_decision)k;
	for (int i = 2; i < 4; i++) {
		if (!f[i])
			continue;
		old = path_push(x, names[i]);
		err = parse_strlist(x, f[i], EC_NONEMPTY, false,
				    i == 2 ? &r->match : &r->not_match);
		path_pop(x, old);
		if (err != CORDON_OK)
			return err;
	}
	return check_examples(x, r);
}

/* safety.path_rules and safety.command_rules: read every element, then
 * replace (user, --config) or take the "deny" ones (project). */
static enum cordon_err apply_rules(struct actx *x, const struct key_def *d,
				   const cJSON *it)
{
	bool paths = d->type == KT_PATH_RULES;
	size_t sz = paths ? sizeof(struct config_path_rule) :
			    sizeof(struct config_command_rule);
	size_t n = 0,
	       have = paths ? x->cfg->npath_rules : x->cfg->ncommand_rules;
	char *v = NULL;
	size_t kept = 0;
	enum cordon_err err = CORDON_OK;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		key_reset(x->cfg, d);
		return note(x, d->path, false);
	}
	if (!cJSON_IsArray(it))
		return fail(x, CORDON_E_CONFIG, "expected a list of rules");
	for (const cJSON *el = it->child; el; el = el->next, n++) {
		size_t old;
		void *nv;

		if (n >= CONFIG_MAX_LIST) {
			err = too_many(x);
			break;
		}
		nv = array_grow(v, n, sz);
		if (!nv) {
			err = nomem(x);
			break;
		}
		v = nv;
		old = path_index(x, n);
		if (paths)
			err = parse_path_rule(x, el,
					      (struct config_path_rule *)v + n);
		else
			err = parse_command_rule(
				x, el, (struct config_command_rule *)v + n);
		if (err != CORDON_OK) {
			n++; /* release the half-read element too */
			break;
		}
		path_pop(x, old);
	}
	if (err == CORDON_OK && is_project(x)) {
		/* Keep the deny rules, appended after the current ones;
		 * every other element is released, even after an error. */
		for (size_t i = 0; i < n; i++) {
			enum cordon_decision dec =
				paths ? ((struct config_path_rule *)v)[i].decision :
					((struct config_command_rule *)v)[i]
						.decision;

			if (dec == CORDON_DENY) {
				memmove((char *)v + kept * sz,
					(char *)v + i * sz, sz);
				kept++;
			} else {
				size_t old = path_index(x, i);

				if (err == CORDON_OK)
					err = warn_ignored(x);
				path_pop(x, old);
				if (paths)
					path_rule_release(
						(struct config_path_rule *)v + i);
				else
					command_rule_release(
						(struct config_command_rule *)v +
						i);
			}
		}
		if (err == CORDON_OK && have + kept > CONFIG_MAX_LIST)
			err = fail(x, CORDON_E_LIMIT,
				   "more than %d entries after adding (limit)",
				   CONFIG_MAX_LIST);
		n = kept;
	}
	if (err != CORDON_OK)
		goto out;
	if (is_project(x)) {
		char *base = paths ? (char *)x->cfg->path_rules :
				     (char *)x->cfg->command_rules;
		char *nb;

		if (n == 0)
			goto out;
		nb = cordon__realloc(base, (have + n) * sz);
		if (!nb) {
			err = nomem(x);
			goto out;
		}
		memcpy(nb + have * sz, v, n * sz);
		if (paths) {
			x->cfg->path_rules = (struct config_path_rule *)nb;
			x->cfg->npath_rules = have + n;
		} else {
			x->cfg->command_rules = (struct config_command_rule *)nb;
			x->cfg->ncommand_rules = have + n;
		}
		free(v);
		return note(x, d->path, true);
	}
	key_reset(x->cfg, d);
	if (paths) {
		x->cfg->path_rules = (struct config_path_rule *)v;
		x->cfg->npath_rules = n;
	} else {
		x->cfg->command_rules = (struct config_command_rule *)v;
		x->cfg->ncommand_rules = n;
	}
	return note(x, d->path, false);
out:
	for (size_t i = 0; i < n; i++) {
		if (paths)
			path_rule_release((struct config_path_rule *)v + i);
		else
			command_rule_release((struct config_command_rule *)v + i);
	}
	free(v);
	return err;
}

/* ---- loading: argument limits ------------------------------------------- */

static enum cordon_err parse_limit(struct actx *x, const cJSON *obj,
				   struct config_arg_limit *l)
{
	static const char *const names[] = { "max_length", "min_value",
					     "max_value", "pattern",
					     "choices" };
	const cJSON *f[5];
	enum cordon_err err = parse_fields(x, obj, NAMES(names), f);
	size_t old;

	if (err != CORDON_OK)
		return err;
	if (f[0]) {
		unsigned long v = 0;

		old = path_push(x, "max_length");
		err = parse_uint(x, f[0], 0, MAX_LENGTH_CEILING, &v);
		path_pop(x, old);
		if (err != CORDON_OK)
			return err;
		l->has_max_length = true;
		l->max_length = v;
	}
	for (int i = 1; i <= 2; i++) {
		if (!f[i])
			continue;
		if (!cJSON_IsNumber(f[i])) {
			old = path_push(x, names[i]);
			return fail(x, CORDON_E_CONFIG, "expected a number");
		}
		if (i == 1) {
			l->has_min_value = true;
			l->min_value = f[i]->valuedouble;
		} else {
			l->has_max_value = true;
			l->max_value = f[i]->valuedouble;
		}
	}
	if (l->has_min_value && l->has_max_value && l->min_value > l->max_value)
		return fail(x, CORDON_E_CONFIG,
			    "min_value is greater than max_value");
	if (f[3]) {
		old = path_push(x, "pattern");
		err = check_string(x, f[3], false);
		if (err == CORDON_OK)
			err = check_regex(x, f[3]->valuestring, 0);
		path_pop(x, old);
		if (err != CORDON_OK)
			return err;
		l->pattern = cordon__strdup(f[3]->valuestring);
		if (!l->pattern)
			return nomem(x);
	}
	if (f[4]) {
		old = path_push(x, "choices");
		err = parse_strlist(x, f[4], EC_NONEMPTY, true, &l->choices);
		path_pop(x, old);
		if (err != CORDON_OK)
			return err;
		l->has_choices = true;
	}
	return CORDON_OK;
}

/* Reads {"tool": {"arg": {limits} | [{limits}, …]}} into *out / *nout. */
static enum cordon_err parse_arg_limits(struct actx *x, const cJSON *it,
					struct config_arg_limit **out,
					size_t *nout)
{
	struct config_arg_limit *v = NULL;
	size_t n = 0;
	enum cordon_err err = check_object(x, it);

	for (const cJSON *t = it->child; t && err == CORDON_OK; t = t->next) {
		size_t old_t = path_push(x, t->string ? t->string : "");

		if (!t->string || !t->string[0]) {
			err = fail(x, CORDON_E_CONFIG, "expected a tool name");
			break;
		}
		err = check_object(x, t);
		for (const cJSON *a = t->child; a && err == CORDON_OK;
		     a = a->next) {
			size_t old_a = path_push(x, a->string ? a->string : "");
			bool many = cJSON_IsArray(a);
			const cJSON *one = many ? a->child : a;
			size_t i = 0;

			if (!a->string || !a->string[0]) {
				err = fail(x, CORDON_E_CONFIG,
					   "expected an argument name");
				break;
			}
			for (; one && err == CORDON_OK;
			     one = many ? one->next : NULL, i++) {
				struct config_arg_limit *nv;
				size_t old_i = many ? path_index(x, i) :
						      x->plen;

				if (n >= CONFIG_MAX_LIST) {
					err = too_many(x);
					break;
				}
				nv = array_grow(v, n, sizeof(*v));
				if (!nv) {
					err = nomem(x);
					break;
				}
				v = nv;
				n++;
				err = parse_limit(x, one, &v[n - 1]);
				if (err == CORDON_OK) {
					v[n - 1].tool = cordon__strdup(t->string);
					v[n - 1].arg = cordon__strdup(a->string);
					if (!v[n - 1].tool || !v[n - 1].arg)
						err = nomem(x);
				}
				if (err == CORDON_OK)
					path_pop(x, old_i);
			}
			if (err == CORDON_OK)
				path_pop(x, old_a);
		}
		if (err == CORDON_OK)
			path_pop(x, old_t);
	}
	if (err != CORDON_OK) {
		arg_limits_free(v, n);
		return err;
	}
	*out = v;
	*nout = n;
	return CORDON_OK;
}

static enum cordon_err apply_arg_limits(struct actx *x, const struct key_def *d,
					const cJSON *it)
{
	struct config_arg_limit *v = NULL, *nv;
	size_t n = 0, have = x->cfg->narg_limits;
	enum cordon_err err;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		key_reset(x->cfg, d);
		return note(x, d->path, false);
	}
	err = parse_arg_limits(x, it, &v, &n);
	if (err != CORDON_OK)
		return err;
	if (!is_project(x)) {
		key_reset(x->cfg, d);
		x->cfg->arg_limits = v;
		x->cfg->narg_limits = n;
		return note(x, d->path, false);
	}
	if (n == 0) {
		free(v);
		return CORDON_OK;
	}
	if (have + n > CONFIG_MAX_LIST) {
		arg_limits_free(v, n);
		return fail(x, CORDON_E_LIMIT,
			    "more than %d entries after adding (limit)",
			    CONFIG_MAX_LIST);
	}
	nv = cordon__realloc(x->cfg->arg_limits, (have + n) * sizeof(*nv));
	if (!nv) {
		arg_limits_free(v, n);
		return nomem(x);
	}
	memcpy(nv + have, v, n * sizeof(*nv));
	free(v);
	x->cfg->arg_limits = nv;
	x->cfg->narg_limits = have + n;
	return note(x, d->path, true);
}

/* ---- loading: classifier rules ------------------------------------------ */

static enum cordon_err
apply_classifier_rules(struct actx *x, const struct key_def *d, const cJSON *it)
{
	struct cordon_limits lim;
	struct cordon_diag ud;
	struct urules *u;
	cJSON *merged = NULL;
	char *text = NULL;
	size_t n = 0;
	enum cordon_err err = CORDON_OK;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		key_reset(x->cfg, d);
		return note(x, d->path, false);
	}
	if (!cJSON_IsArray(it))
		return fail(x, CORDON_E_CONFIG, "expected a list of rules");
	for (const cJSON *el = it->child; el; el = el->next)
		if (++n > CONFIG_MAX_LIST)
			return too_many(x);
	if (n == 0 && is_project(x))
		return CORDON_OK;
	cordon_limits_default(&lim);
	u = userrules_new(lim.max_rules);
	if (!u)
		return nomem(x);
	/* A project's rules come after the current ones and are checked
	 * with them (ids must stay unique). */
	if (is_project(x) && x->cfg->classifier_rules_json) {
		merged = cJSON_Parse(x->cfg->classifier_rules_json);
		if (!merged ||
		    userrules_add_json(u, x->cfg->classifier_rules_json,
				    strlen(x->cfg->classifier_rules_json),
				    SIZE_MAX, &ud) != CORDON_OK) {
			err = nomem(x);
			goto out;
		}
	}
	text = cJSON_PrintUnformatted(it);
	if (!text) {
		err = nomem(x);
		goto out;
	}
	memset(&ud, 0, sizeof(ud));
	err = userrules_add_json(u, text, strlen(text), SIZE_MAX, &ud);
	/* cJSON printed the text: failing to parse it again is memory. */
	if (err == CORDON_E_JSON)
		err = CORDON_E_NOMEM;
	if (err == CORDON_E_NOMEM) {
		err = nomem(x);
		goto out;
	}
	if (err != CORDON_OK) {
		/* urules names the element as "[3].severity". */
		if (x->diag) {
			char what[sizeof(ud.message)];

			memcpy(what, ud.message, sizeof(what));
			memset(x->diag, 0, sizeof(*x->diag));
			x->diag->code = err == CORDON_E_LIMIT ? err :
								CORDON_E_CONFIG;
			msg_append(x->diag->message, sizeof(x->diag->message),
				   x->name);
			msg_append(x->diag->message, sizeof(x->diag->message),
				   ": ");
			msg_append(x->diag->message, sizeof(x->diag->message),
				   x->path);
			msg_append(x->diag->message, sizeof(x->diag->message),
				   what[0] == '[' ? "" : ": ");
			msg_append(x->diag->message, sizeof(x->diag->message),
				   what);
		}
		err = err == CORDON_E_LIMIT ? err : CORDON_E_CONFIG;
		goto out;
	}
	if (merged) {
		for (const cJSON *el = it->child; el; el = el->next) {
			cJSON *c = cJSON_Duplicate(el, 1);

			if (!c || !cJSON_AddItemToArray(merged, c)) {
				cJSON_Delete(c);
				err = nomem(x);
				goto out;
			}
		}
		free(text);
		text = cJSON_PrintUnformatted(merged);
		if (!text) {
			err = nomem(x);
			goto out;
		}
	}
	if (strlen(text) > lim.max_rules_bytes) {
		err = fail(x, CORDON_E_LIMIT,
			   "the rules take more than %zu bytes "
			   "(max_rules_bytes)",
			   lim.max_rules_bytes);
		goto out;
	}
	free(x->cfg->classifier_rules_json);
	x->cfg->classifier_rules_json = NULL;
	if (n || merged) {
		x->cfg->classifier_rules_json = text;
		text = NULL;
	}
	err = note(x, d->path, is_project(x));
out:
	free(text);
	cJSON_Delete(merged);
	userrules_free(u);
	return err;
}

/* ---- loading: the tool map ---------------------------------------------- */

static enum cordon_err parse_tool(struct actx *x, const cJSON *t,
				  struct config_tool *out)
{
	static const char *const names[] = { "kind", "arg", "schema" };
	const cJSON *f[3];
	enum cordon_err err = parse_fields(x, t, NAMES(names), f);
	int k = 0;
	size_t old;

	if (err != CORDON_OK)
		return err;
	if (!f[0])
		return missing(x, "kind");
	old = path_push(x, "kind");
	err = parse_name(x, f[0], NAMES(kind_names), &k);
	path_pop(x, old);
	if (err != CORDON_OK)
		return err;
	out->kind = (enum cordon_kind)k;
	if (f[1]) {
		old = path_push(x, "arg");
		if (cJSON_IsString(f[1])) {
			err = check_string(x, f[1], false);
			if (err == CORDON_OK &&
			    !strlist_push(&out->args, f[1]->valuestring))
				err = nomem(x);
		} else if (cJSON_IsArray(f[1])) {
			err = parse_strlist(x, f[1], EC_NONEMPTY, false,
					    &out->args);
		} else {
			err = fail(x, CORDON_E_CONFIG,
				   "expected a string or a list of strings");
		}
		path_pop(x, old);
		if (err != CORDON_OK)
			return err;
	}
	if (f[2]) {
		if (!cJSON_IsObject(f[2])) {
			path_push(x, "schema");
			return fail(x, CORDON_E_CONFIG,
				    "expected a JSON Schema object");
		}
		out->schema_json = cJSON_PrintUnformatted(f[2]);
		if (!out->schema_json)
			return nomem(x);
	}
	out->name = cordon__strdup(t->string);
	return out->name ? CORDON_OK : nomem(x);
}

/* tools: the file's entries go first, then the earlier user entries they
 * do not rename, then the built-in map. */
static enum cordon_err apply_tools(struct actx *x, const struct key_def *d,
				   const cJSON *it)
{
	struct cordon_config *cfg = x->cfg;
	size_t nuser = cfg->ntools - NBUILTIN_TOOLS;
	struct config_tool *v = NULL;
	size_t n = 0, total;
	enum cordon_err err;

	if (cJSON_IsNull(it)) {
		if (is_project(x))
			return CORDON_OK;
		if (!key_reset(cfg, d))
			return nomem(x);
		return note(x, d->path, false);
	}
	err = check_object(x, it);
	if (err != CORDON_OK)
		return err;
	if (is_project(x))
		return warn_ignored(x);
	for (const cJSON *t = it->child; t; t = t->next)
		n++;
	if (n == 0)
		return CORDON_OK;
	v = cordon__calloc(n, sizeof(*v));
	if (!v)
		return nomem(x);
	n = 0;
	for (const cJSON *t = it->child; t; t = t->next) {
		size_t old = path_push(x, t->string ? t->string : "");

		n++;
		if (!t->string || !t->string[0])
			err = fail(x, CORDON_E_CONFIG, "expected a tool name");
		else if (strlen(t->string) > CONFIG_MAX_STRING)
			err = fail(x, CORDON_E_LIMIT,
				   "name longer than %d bytes (limit)",
				   CONFIG_MAX_STRING);
		else
			err = parse_tool(x, t, &v[n - 1]);
		if (err != CORDON_OK)
			goto out;
		path_pop(x, old);
	}
	total = n;
	for (size_t i = 0; i < nuser; i++) {
		bool renamed = false;

		for (size_t j = 0; j < n && !renamed; j++)
			renamed = strcmp(cfg->tools[i].name, v[j].name) == 0;
		if (!renamed)
			total++;
	}
	if (total > CONFIG_MAX_LIST) {
		err = fail(x, CORDON_E_LIMIT,
			   "more than %d tools after adding (limit)",
			   CONFIG_MAX_LIST);
		goto out;
	}
	{
		struct config_tool *nt =
			cordon__calloc(total + NBUILTIN_TOOLS, sizeof(*nt));
		size_t k = n, nfile = n;

		if (!nt) {
			err = nomem(x);
			goto out;
		}
		memcpy(nt, v, n * sizeof(*nt));
		for (size_t i = 0; i < cfg->ntools; i++) {
			bool renamed = i >= nuser;

			for (size_t j = 0; j < n && !renamed; j++)
				renamed = strcmp(cfg->tools[i].name,
						 v[j].name) == 0;
			if (renamed)
				tool_release(&cfg->tools[i]);
			else
				nt[k++] = cfg->tools[i];
		}
		free(cfg->tools);
		free(v);
		cfg->tools = nt;
		cfg->ntools = k;
		if (!tools_builtin_after(cfg, k))
			return nomem(x);
		for (size_t i = 0; i < nfile; i++) {
			char *key = str_printf("tools.%s", cfg->tools[i].name);

			err = key ? note(x, key, false) : nomem(x);
			free(key);
			if (err != CORDON_OK)
				return err;
		}
	}
	return CORDON_OK;
out:
	tools_free(v, n);
	return err;
}

/* ---- loading: the walk -------------------------------------------------- */

static enum cordon_err apply_key(struct actx *x, const struct key_def *d,
				 const cJSON *it)
{
	switch (d->type) {
	case KT_BOOL:
		return apply_bool(x, d, it);
	case KT_TRI:
		return apply_tri(x, d, it);
	case KT_MODE:
	case KT_SANDBOX:
	case KT_UINT:
	case KT_ULONG:
		return apply_scalar(x, d, it);
	case KT_STR:
		return apply_str(x, d, it);
	case KT_LIST:
		return apply_list(x, d, it);
	case KT_PATH_RULES:
	case KT_CMD_RULES:
		return apply_rules(x, d, it);
	case KT_ARG_LIMITS:
		return apply_arg_limits(x, d, it);
	case KT_RULES:
		return apply_classifier_rules(x, d, it);
	case KT_TOOLS:
		return apply_tools(x, d, it);
	}
	return fail(x, CORDON_E_CONFIG, "unknown key");
}

/* Walks the members of a section (prefix "" for the top level). */
static enum cordon_err walk(struct actx *x, const cJSON *obj,
			    const char *prefix)
{
	enum cordon_err err = check_object(x, obj);

	for (const cJSON *it = obj->child; it && err == CORDON_OK;
	     it = it->next) {
		const char *name = it->string ? it->string : "";
		char full[96];
		int k = snprintf(full, sizeof(full), "%s%s%s", prefix,
				 prefix[0] ? "." : "", name);
		bool known = k > 0 && (size_t)k < sizeof(full);
		const struct key_def *d = known ? key_find(full) : NULL;
		size_t old;

		if (!prefix[0] && in_names(name, NAMES(aar_keys)))
			continue;
		old = path_push(x, name);
		if (known && in_names(full, NAMES(sections)))
			err = cJSON_IsObject(it) ? walk(x, it, full) :
						   fail(x, CORDON_E_CONFIG,
							"expected an object");
		else if (d)
			err = apply_key(x, d, it);
		else
			err = fail(x, CORDON_E_CONFIG, "unknown key");
		if (err == CORDON_OK)
			path_pop(x, old);
	}
	return err;
}

/* ---- loading: entry points ---------------------------------------------- */

/* Fills diag for a problem at byte offset off of the text. */
static enum cordon_err text_error(struct cordon_diag *diag,
				  enum cordon_err code, const char *name,
				  const char *json, size_t len, size_t off,
				  const char *what)
{
	unsigned line = 1, col = 1;

	if (!diag)
		return code;
	for (size_t i = 0; i < off && i < len; i++) {
		if (json[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	diag_at(diag, code, off, "%s: line %u, column %u: %s", name, line, col,
		what);
	diag->line = line;
	diag->column = col;
	return code;
}

/* What cJSON would take silently or refuse without saying why: NUL bytes
 * (raw, or \u0000 escapes that would cut a string short) and nesting
 * deeper than cJSON's limit. */
static enum cordon_err prescan(const char *json, size_t len, const char *name,
			       struct cordon_diag *diag)
{
	const char *nul = memchr(json, '\0', len);
	size_t esc = json_nul_escape_at(json, len);
	bool in_str = false;
	size_t depth = 0;
	char what[64];

	if (nul)
		return text_error(diag, CORDON_E_JSON, name, json, len,
				  (size_t)(nul - json),
				  "NUL byte in the input");
	for (size_t i = 0; i < len; i++) {
		char c = json[i];

		if (i == esc)
			return text_error(diag, CORDON_E_CONFIG, name, json,
					  len, i,
					  "\\u0000 in a string (NUL "
					  "characters are refused)");
		if (in_str) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				in_str = false;
			}
		} else if (c == '"') {
			in_str = true;
		} else if (c == '[' || c == '{') {
			if (++depth > CJSON_NESTING_LIMIT) {
				snprintf(what, sizeof(what),
					 "nested deeper than %d (limit)",
					 CJSON_NESTING_LIMIT);
				return text_error(diag, CORDON_E_LIMIT, name,
						  json, len, i, what);
			}
		} else if ((c == ']' || c == '}') && depth) {
			depth--;
		}
	}
	return CORDON_OK;
}

static const char *layer_prefix(enum config_layer layer)
{
	switch (layer) {
	case CONFIG_USER:
		return "user";
	case CONFIG_PROJECT:
		return "project";
	case CONFIG_EXPLICIT:
		return "config";
	case CONFIG_DEFAULT:
		return "default";
	case CONFIG_FLAG:
		return "flag";
	}
	return "?";
}

enum cordon_err config_apply_json(struct cordon_config *cfg, const char *json,
			       size_t len, const char *name,
			       enum config_layer layer, struct cordon_diag *diag)
{
	struct actx x;
	struct cordon_config *copy;
	const char *end = NULL;
	cJSON *root;
	enum cordon_err err;
	char what[64];

	if (!name)
		name = "config";
	if (!cfg || (!json && len) ||
	    (layer != CONFIG_USER && layer != CONFIG_PROJECT &&
	     layer != CONFIG_EXPLICIT)) {
		diag_fill(diag, CORDON_E_INVAL, name, NULL, "invalid argument");
		return CORDON_E_INVAL;
	}
	if (!json)
		json = "";
	if (len > CONFIG_MAX_FILE_BYTES) {
		snprintf(what, sizeof(what),
			 "input is larger than %d bytes "
			 "(limit)",
			 CONFIG_MAX_FILE_BYTES);
		diag_fill(diag, CORDON_E_LIMIT, name, NULL, what);
		return CORDON_E_LIMIT;
	}
	err = prescan(json, len, name, diag);
	if (err != CORDON_OK)
		return err;
	root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	if (!root) {
		size_t off = end && end >= json ? (size_t)(end - json) : 0;

		return text_error(diag, CORDON_E_JSON, name, json, len, off,
				  "malformed JSON");
	}
	for (size_t off = (size_t)(end - json); off < len; off++) {
		if (json[off] != ' ' && json[off] != '\t' &&
		    json[off] != '\n' && json[off] != '\r') {
			cJSON_Delete(root);
			return text_error(diag, CORDON_E_JSON, name, json, len,
					  off,
					  "unexpected data after the JSON "
					  "value");
		}
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		diag_fill(diag, CORDON_E_CONFIG, name, NULL,
			  "expected a JSON object at the top level");
		return CORDON_E_CONFIG;
	}

	memset(&x, 0, sizeof(x));
	x.name = name;
	x.layer = layer;
	x.diag = diag;
	x.origin = str_printf("%s:%s", layer_prefix(layer), name);
	copy = x.origin ? config_clone(cfg) : NULL;
	if (!copy) {
		free(x.origin);
		cJSON_Delete(root);
		diag_fill(diag, CORDON_E_NOMEM, name, NULL, "out of memory");
		return CORDON_E_NOMEM;
	}
	x.cfg = copy;
	err = walk(&x, root, "");
	if (err == CORDON_OK) {
		config_release(cfg);
		*cfg = *copy;
		free(copy);
		if (diag) {
			memset(diag, 0, sizeof(*diag));
			diag->code = CORDON_OK;
		}
	} else {
		config_free(copy);
	}
	free(x.origin);
	cJSON_Delete(root);
	return err;
}

enum cordon_err config_apply_file(struct cordon_config *cfg, const char *path,
			       enum config_layer layer, struct cordon_diag *diag)
{
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	enum cordon_err err;
	char what[96];
	int fd, saved;

	if (!cfg || !path) {
		diag_fill(diag, CORDON_E_INVAL, path ? path : "config", NULL,
			  "invalid argument");
		return CORDON_E_INVAL;
	}
	/* Links are followed (dotfile managers link config files), but only
	 * a regular file is read; O_NONBLOCK keeps a FIFO from hanging the
	 * open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		goto io_error;
	if (fstat(fd, &st) < 0)
		goto io_error;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		diag_fill(diag, CORDON_E_IO, path, NULL, "not a regular file");
		return CORDON_E_IO;
	}
	if (st.st_size > CONFIG_MAX_FILE_BYTES)
		goto too_large;
	/* One byte more than the limit tells a file that grew. */
	buf = cordon__malloc(CONFIG_MAX_FILE_BYTES + 1);
	if (!buf) {
		close(fd);
		diag_fill(diag, CORDON_E_NOMEM, path, NULL, "out of memory");
		return CORDON_E_NOMEM;
	}
	while (n < CONFIG_MAX_FILE_BYTES + 1) {
		ssize_t r = read(fd, buf + n, CONFIG_MAX_FILE_BYTES + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto io_error;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	fd = -1;
	if (n > CONFIG_MAX_FILE_BYTES)
		goto too_large;
	err = config_apply_json(cfg, buf, n, path, layer, diag);
	free(buf);
	return err;
too_large:
	if (fd >= 0)
		close(fd);
	free(buf);
	snprintf(what, sizeof(what), "file is larger than %d bytes (limit)",
		 CONFIG_MAX_FILE_BYTES);
	diag_fill(diag, CORDON_E_LIMIT, path, NULL, what);
	return CORDON_E_LIMIT;
io_error:
	saved = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	diag_fill(diag, CORDON_E_IO, path, NULL, strerror(saved));
	if (diag)
		diag->sys_errno = saved;
	return CORDON_E_IO;
}

/* ---- flags -------------------------------------------------------------- */

enum cordon_err config_flag_mode(struct cordon_config *cfg, enum cordon_mode m)
{
	if (!cfg || (unsigned)m > (unsigned)CORDON_MODE_FULL_ACCESS)
		return CORDON_E_INVAL;
	cfg->permission_mode = m;
	return source_note(cfg, "safety.permission_mode", "flag", false) ?
		       CORDON_OK :
		       CORDON_E_NOMEM;
}

enum cordon_err config_flag_read_only(struct cordon_config *cfg)
{
	if (!cfg)
		return CORDON_E_INVAL;
	cfg->read_only = true;
	return source_note(cfg, "safety.read_only", "flag", false) ?
		       CORDON_OK :
		       CORDON_E_NOMEM;
}

enum cordon_err config_flag_add(struct cordon_config *cfg, const char *key,
			     const char *value)
{
	static const char *const flag_keys[] = {
		"safety.denied_paths",	"safety.denied_commands",
		"safety.denied_tools",	"safety.read_only_paths",
		"safety.allowed_paths",
	};
	const struct key_def *d;
	struct strlist *l;
	size_t n;

	if (!cfg || !key || !value || !in_names(key, NAMES(flag_keys)))
		return CORDON_E_INVAL;
	n = strlen(value);
	if (n == 0 || strspn(value, " \t\n") == n)
		return CORDON_E_INVAL;
	if (n > CONFIG_MAX_STRING)
		return CORDON_E_LIMIT;
	d = key_find(key);
	/* Adding to denied_commands must not turn the built-in list off. */
	if (d->proj == PR_ADD_EXTRA)
		d = key_find(d->extra);
	l = list_at(cfg, d->off);
	if (strlist_has(l, value))
		return CORDON_OK;
	if (l->n >= CONFIG_MAX_LIST)
		return CORDON_E_LIMIT;
	if (!strlist_push(l, value))
		return CORDON_E_NOMEM;
	if (d->has_set)
		*(bool *)((char *)cfg + d->set_off) = true;
	return source_note(cfg, d->path, "flag", true) ? CORDON_OK :
							 CORDON_E_NOMEM;
}

/* ---- lookups ------------------------------------------------------------ */

enum cordon_mode config_effective_mode(const struct cordon_config *cfg)
{
	if (!cfg)
		return CORDON_MODE_SUPERVISED;
	return cfg->permission_mode < cfg->max_permission_mode ?
		       cfg->permission_mode :
		       cfg->max_permission_mode;
}

enum cordon_kind config_tool_kind(const struct cordon_config *cfg,
			       const char *name, const struct config_tool **tool)
{
	if (tool)
		*tool = NULL;
	if (!cfg || !name)
		return CORDON_KIND_OTHER;
	for (size_t i = 0; i < cfg->ntools; i++) {
		const struct config_tool *t = &cfg->tools[i];
		size_t n = strlen(t->name);
		bool hit = n && t->name[n - 1] == '*' ?
				   strncmp(t->name, name, n - 1) == 0 :
				   strcmp(t->name, name) == 0;

		if (hit) {
			if (tool)
				*tool = t;
			return t->kind;
		}
	}
	return CORDON_KIND_OTHER;
}

/* ---- printing ----------------------------------------------------------- */

static cJSON *strlist_json(const struct strlist *l)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a && i < l->n; i++) {
		cJSON *s = cJSON_CreateString(l->v[i]);

		if (!s || !cJSON_AddItemToArray(a, s)) {
			cJSON_Delete(s);
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

/* Adds item to obj under key; item may be NULL (then false). */
static bool add(cJSON *obj, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObject(obj, key, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static bool push(cJSON *arr, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToArray(arr, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static cJSON *path_rules_json(const struct cordon_config *cfg)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a && i < cfg->npath_rules; i++) {
		const struct config_path_rule *r = &cfg->path_rules[i];
		cJSON *o = cJSON_CreateObject();

		if (!push(a, o) ||
		    !add(o, "pattern", cJSON_CreateString(r->pattern)) ||
		    !add(o, "access",
			 cJSON_CreateString(access_names[r->access])) ||
		    !add(o, "decision",
			 cJSON_CreateString(decision_names[r->decision]))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static cJSON *command_rules_json(const struct cordon_config *cfg)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a && i < cfg->ncommand_rules; i++) {
		const struct config_command_rule *r = &cfg->command_rules[i];
		cJSON *o = cJSON_CreateObject();

		if (!push(a, o) ||
		    !add(o, "prefix", strlist_json(&r->prefix)) ||
		    !add(o, "decision",
			 cJSON_CreateString(decision_names[r->decision])) ||
		    !add(o, "match", strlist_json(&r->match)) ||
		    !add(o, "not_match", strlist_json(&r->not_match))) {
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static cJSON *limit_json(const struct config_arg_limit *l)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	if ((l->has_max_length &&
	     !add(o, "max_length",
		  cJSON_CreateNumber((double)l->max_length))) ||
	    (l->has_min_value &&
	     !add(o, "min_value", cJSON_CreateNumber(l->min_value))) ||
	    (l->has_max_value &&
	     !add(o, "max_value", cJSON_CreateNumber(l->max_value))) ||
	    (l->pattern &&
	     !add(o, "pattern", cJSON_CreateString(l->pattern))) ||
	    (l->has_choices && !add(o, "choices", strlist_json(&l->choices)))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Grouped by tool, then argument, in the order they first appear; several
 * limits on one argument print as a list. */
static cJSON *arg_limits_json(const struct cordon_config *cfg)
{
	cJSON *root = cJSON_CreateObject();

	for (size_t i = 0; root && i < cfg->narg_limits; i++) {
		const struct config_arg_limit *l = &cfg->arg_limits[i];
		cJSON *t = cJSON_GetObjectItemCaseSensitive(root, l->tool);
		cJSON *lim, *have, *arr;

		if (!t) {
			t = cJSON_CreateObject();
			if (!add(root, l->tool, t))
				goto fail;
		}
		/* add() and push() free the item when they fail. */
		lim = limit_json(l);
		if (!lim)
			goto fail;
		have = cJSON_GetObjectItemCaseSensitive(t, l->arg);
		if (!have) {
			if (!add(t, l->arg, lim))
				goto fail;
			continue;
		}
		if (cJSON_IsArray(have)) {
			if (!push(have, lim))
				goto fail;
			continue;
		}
		arr = cJSON_CreateArray();
		if (!arr || !push(arr, cJSON_Duplicate(have, 1))) {
			cJSON_Delete(lim);
			cJSON_Delete(arr);
			goto fail;
		}
		if (!push(arr, lim) ||
		    !cJSON_ReplaceItemInObjectCaseSensitive(t, l->arg, arr)) {
			cJSON_Delete(arr);
			goto fail;
		}
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* The effective tool map; a name shadowed by an earlier entry is left
 * out (it can never be found). */
static cJSON *tools_json(const struct cordon_config *cfg)
{
	cJSON *root = cJSON_CreateObject();

	for (size_t i = 0; root && i < cfg->ntools; i++) {
		const struct config_tool *t = &cfg->tools[i];
		cJSON *o;

		if (cJSON_GetObjectItemCaseSensitive(root, t->name))
			continue;
		o = cJSON_CreateObject();
		if (!add(root, t->name, o) ||
		    !add(o, "kind", cJSON_CreateString(kind_names[t->kind])) ||
		    !add(o, "arg", strlist_json(&t->args)))
			goto fail;
		if (t->schema_json) {
			cJSON *s = cJSON_Parse(t->schema_json);

			if (!add(o, "schema", s))
				goto fail;
		}
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

static cJSON *key_json(const struct cordon_config *cfg, const struct key_def *d)
{
	const void *f = (const char *)cfg + d->off;
	const struct strlist *l;

	switch (d->type) {
	case KT_BOOL:
		return cJSON_CreateBool(*(const bool *)f);
	case KT_TRI:
		if (*(const enum config_tri *)f == CONFIG_UNSET)
			return cJSON_CreateNull();
		return cJSON_CreateBool(*(const enum config_tri *)f == CONFIG_TRUE);
	case KT_MODE:
		return cJSON_CreateString(
			mode_names[*(const enum cordon_mode *)f]);
	case KT_SANDBOX:
		return cJSON_CreateString(
			sandbox_names[*(const enum config_sandbox_mode *)f]);
	case KT_UINT:
		return cJSON_CreateNumber(*(const unsigned *)f);
	case KT_ULONG:
		return cJSON_CreateNumber((double)*(const unsigned long *)f);
	case KT_STR:
		if (!*(char *const *)f)
			return cJSON_CreateNull();
		return cJSON_CreateString(*(char *const *)f);
	case KT_LIST:
		l = f;
		if (d->null_unsets &&
		    !*(const bool *)((const char *)cfg + d->set_off))
			return cJSON_CreateNull();
		return strlist_json(l);
	case KT_PATH_RULES:
		return path_rules_json(cfg);
	case KT_CMD_RULES:
		return command_rules_json(cfg);
	case KT_ARG_LIMITS:
		return arg_limits_json(cfg);
	case KT_RULES:
		if (!cfg->classifier_rules_json)
			return cJSON_CreateArray();
		return cJSON_Parse(cfg->classifier_rules_json);
	case KT_TOOLS:
		return tools_json(cfg);
	}
	return NULL;
}

/* The object for the section that holds path's last component, made on
 * the way. */
static cJSON *section_for(cJSON *root, const char *path, const char **leaf)
{
	cJSON *obj = root;
	const char *p = path, *dot;

	while ((dot = strchr(p, '.'))) {
		char name[64];
		size_t n = (size_t)(dot - p);
		cJSON *next;

		if (n >= sizeof(name))
			return NULL;
		memcpy(name, p, n);
		name[n] = '\0';
		next = cJSON_GetObjectItemCaseSensitive(obj, name);
		if (!next) {
			next = cJSON_CreateObject();
			if (!add(obj, name, next))
				return NULL;
		}
		obj = next;
		p = dot + 1;
	}
	*leaf = p;
	return obj;
}

static int cmp_source(const void *a, const void *b)
{
	const struct config_source *x = *(const struct config_source *const *)a;
	const struct config_source *y = *(const struct config_source *const *)b;

	return strcmp(x->key, y->key);
}

static cJSON *sources_json(const struct cordon_config *cfg)
{
	const struct config_source **v;
	cJSON *o = cJSON_CreateObject();

	if (!o || cfg->nsources == 0)
		return o;
	v = cordon__malloc(cfg->nsources * sizeof(*v));
	if (!v) {
		cJSON_Delete(o);
		return NULL;
	}
	for (size_t i = 0; i < cfg->nsources; i++)
		v[i] = &cfg->sources[i];
	qsort(v, cfg->nsources, sizeof(*v), cmp_source);
	for (size_t i = 0; i < cfg->nsources; i++) {
		if (!add(o, v[i]->key, cJSON_CreateString(v[i]->origin))) {
			cJSON_Delete(o);
			o = NULL;
			break;
		}
	}
	free(v);
	return o;
}

char *config_to_json(const struct cordon_config *cfg, bool with_sources)
{
	cJSON *conf, *top = NULL, *warn;
	char *out = NULL;

	if (!cfg)
		return NULL;
	conf = cJSON_CreateObject();
	for (size_t i = 0; conf && i < NKEYS; i++) {
		const char *leaf = NULL;
		cJSON *sec = section_for(conf, keys[i].path, &leaf);

		if (!sec || !add(sec, leaf, key_json(cfg, &keys[i])))
			goto out;
	}
	if (!conf)
		return NULL;
	if (!with_sources) {
		out = cJSON_Print(conf);
		goto out;
	}
	top = cJSON_CreateObject();
	if (!top)
		goto out;
	/* add() frees conf when it fails. */
	if (!add(top, "config", conf)) {
		conf = NULL;
		goto out;
	}
	conf = NULL;
	if (!add(top, "sources", sources_json(cfg)))
		goto out;
	warn = cJSON_CreateArray();
	if (!add(top, "warnings", warn))
		goto out;
	for (size_t i = 0; i < cfg->nwarnings; i++)
		if (!push(warn, cJSON_CreateString(cfg->warnings[i].text)))
			goto out;
	out = cJSON_Print(top);
out:
	cJSON_Delete(conf);
	cJSON_Delete(top);
	return out;
}

/* ---- the public API ----------------------------------------------------- */

struct cordon_config *cordon_config_new(void)
{
	return config_new();
}

void cordon_config_free(struct cordon_config *cfg)
{
	config_free(cfg);
}

static bool public_layer(enum cordon_config_layer layer, enum config_layer *out)
{
	switch (layer) {
	case CORDON_CONFIG_USER:
		*out = CONFIG_USER;
		return true;
	case CORDON_CONFIG_PROJECT:
		*out = CONFIG_PROJECT;
		return true;
	case CORDON_CONFIG_EXPLICIT:
		*out = CONFIG_EXPLICIT;
		return true;
	}
	return false;
}

enum cordon_err cordon_config_load_json(struct cordon_config *cfg,
					const char *json, size_t len,
					const char *name,
					enum cordon_config_layer layer,
					struct cordon_diag *diag)
{
	enum config_layer l;

	if (!public_layer(layer, &l)) {
		diag_fill(diag, CORDON_E_INVAL, name ? name : "config", NULL,
			  "invalid layer");
		return CORDON_E_INVAL;
	}
	return config_apply_json(cfg, json, len, name, l, diag);
}

enum cordon_err cordon_config_load_file(struct cordon_config *cfg,
					const char *path,
					enum cordon_config_layer layer,
					struct cordon_diag *diag)
{
	enum config_layer l;

	if (!public_layer(layer, &l)) {
		diag_fill(diag, CORDON_E_INVAL, path ? path : "config", NULL,
			  "invalid layer");
		return CORDON_E_INVAL;
	}
	return config_apply_file(cfg, path, l, diag);
}

size_t cordon_config_warning_count(const struct cordon_config *cfg)
{
	return cfg ? cfg->nwarnings : 0;
}

const char *cordon_config_warning(const struct cordon_config *cfg, size_t i)
{
	if (!cfg || i >= cfg->nwarnings)
		return NULL;
	return cfg->warnings[i].text;
}

char *cordon_config_to_json(const struct cordon_config *cfg, int with_sources)
{
	return config_to_json(cfg, with_sources != 0);
}
