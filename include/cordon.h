/* cordon — a safety layer between AI agents and the tools they call.
 *
 * This is the one public header of libcordon. A host program (an agent, an
 * IDE, a gateway) asks cordon before each tool call it is about to make.
 * The policy engine answers ALLOW, DENY or ASK from the configuration and,
 * for a shell command, the classifier's verdict; an ASK goes to the host's
 * prompt callback; every decision is written to a hash-chained audit log;
 * an allowed command runs in the argv-only sandboxed shell; what goes back
 * to the model is redacted first. Every exported name carries the cordon_
 * prefix; every handle is opaque.
 *
 * The typical embedding, in the order an agent loop uses it (error checks
 * shortened; examples/agent_loop.c is a whole program):
 *
 * 1. The configuration: the built-in defaults, then the host's layers
 *    (cordon_config_new, cordon_config_load_file or _load_json).
 *
 *	struct cordon_diag diag;
 *	struct cordon_config *cfg = cordon_config_new();
 *
 *	err = cordon_config_load_file(cfg, "/etc/myagent/cordon.json",
 *				      CORDON_CONFIG_EXPLICIT, &diag);
 *
 * 2. The policy, with the host's prompt for ASK and the audit log as the
 *    sink that sees every decision (cordon_policy_new, cordon_audit_open,
 *    cordon_policy_set_prompt, cordon_policy_set_on_decision with
 *    cordon_audit_on_decision), and one result to reuse
 *    (cordon_result_new).
 *
 *	static void ask_user(void *ud, const struct cordon_result *asked,
 *			     struct cordon_reply *reply)
 *	{
 *		int yes = my_terminal_ask(ud, cordon_result_reason(asked));
 *
 *		reply->answer = yes ? CORDON_ANSWER_ALLOW_ONCE
 *				    : CORDON_ANSWER_DENY_ONCE;
 *		reply->by = "terminal";
 *	}
 *
 *	struct cordon_context ctx = { .workspace = "/home/me/project" };
 *	struct cordon_audit_opts ao = { .path = "/home/me/audit.jsonl" };
 *	struct cordon_policy *pol;
 *	struct cordon_audit *audit;
 *	struct cordon_result *res = cordon_result_new();
 *
 *	err = cordon_policy_new(cfg, &ctx, &pol, &diag);
 *	err = cordon_audit_open(&ao, &audit, &diag);
 *	cordon_policy_set_prompt(pol, ask_user, NULL);
 *	cordon_policy_set_on_decision(pol, cordon_audit_on_decision, audit);
 *
 * 3. Each tool call the model asks for: decide (cordon_policy_decide:
 *    the rules, earlier grants, then the prompt), make sure the sink
 *    recorded it (cordon_audit_failed), and give a refused call's reason
 *    back to the model (cordon_result_decision, cordon_result_reason).
 *
 *	struct cordon_call call = {
 *		.tool = "Bash",
 *		.args_json = "{\"command\": \"git status\"}",
 *		.session = "s1",
 *	};
 *
 *	if (cordon_policy_decide(pol, &call, 0, res, &diag) ||
 *	    cordon_audit_failed(audit))
 *		return refuse("cannot decide or record the decision");
 *	if (cordon_result_decision(res) != CORDON_ALLOW)
 *		return refuse(cordon_result_reason(res));
 *
 * 4. Run the allowed command without a shell, in the sandbox
 *    (cordon_shell_run), and record the run (cordon_audit_run). The host
 *    splits the command into argv; no shell ever reads it.
 *
 *	static const char *const allow[] = { "git", "ls" };
 *	struct cordon_shell_opts so = { .allow = allow, .nallow = 2 };
 *	struct cordon_shell_result sr;
 *	char *argv[] = { "git", "status", NULL };
 *
 *	if (cordon_shell_run(&so, argv, &sr, &diag))
 *		return refuse(diag.message);
 *	if (cordon_audit_run(audit, "s1", (const char *const *)argv,
 *			     sr.report_json, &diag))
 *		return refuse(diag.message);
 *
 * 5. Redact the output before the model sees it (cordon_redact), then
 *    free the run's output (cordon_shell_result_free).
 *
 *	char *clean;
 *	size_t clean_len;
 *
 *	if (cordon_redact(sr.output, sr.output_len, &clean, &clean_len,
 *			  NULL) == CORDON_OK) {
 *		tell_model(clean, clean_len);
 *		free(clean);
 *	}
 *	cordon_shell_result_free(&sr);
 *
 * 6. At the end: the policy before the configuration it borrows, the
 *    audit log after the last decision (the policy's sink writes to it).
 *
 *	cordon_result_free(res);
 *	cordon_policy_free(pol);
 *	cordon_config_free(cfg);
 *	err = cordon_audit_close(audit);
 *
 * Errors. A function that can fail returns enum cordon_err (CORDON_OK is
 * zero; cordon_strerror() names the others) and, when diag is not NULL,
 * fills struct cordon_diag: the code, where (offset, line, column), the
 * saved errno and a message naming what failed. diag may be NULL in every
 * call. Decisions and verdicts are values, not errors: a denied call is
 * CORDON_OK with a DENY result. A host should treat an error as a deny.
 *
 * Ownership. The caller owns each handle it creates and frees it with the
 * matching function (cordon_X_new and cordon_X_free, cordon_audit_open and
 * cordon_audit_close); every free and close function accepts NULL. A
 * char * handed to the caller (the *_to_json functions, cordon_redact's
 * *out) is malloc'd: free() it. Some are printed by libcjson, so a host
 * that gives cJSON another allocator (cJSON_InitHooks) must keep it
 * free()-compatible. The structures cordon fills for the caller (struct
 * cordon_shell_result, struct cordon_fetch_result) own their pointers and
 * are emptied with their *_free function. A const char * from a getter is
 * owned by the object it came from and valid until that object is reused
 * or freed, as each comment says; the *_name functions return static
 * strings. Pointer arguments are borrowed for the call and copied when
 * kept, with two exceptions: a policy borrows its configuration for its
 * whole life, and a callback's ud is borrowed for as long as the callback
 * is set. Strings are NUL-terminated unless they come with a length;
 * (ptr, len) inputs may hold NUL bytes. A handle argument must not be NULL
 * unless the comment says it accepts NULL.
 *
 * Threads. struct cordon_audit has a mutex: one handle may be shared by
 * every thread of a process (and appends from several processes are
 * serialised by a lock on the file). The other handles have no lock and
 * are not thread-safe: one per thread. A classifier reuses its arena and
 * caches in every cordon_classify(); a policy holds its own classifier, a
 * per-call arena and the approvals store; a verdict or a result is
 * overwritten by each call. A configuration is only read once loaded:
 * policies in several threads may share one while nothing loads into it.
 * The functions that take no handle (the names, cordon_redact,
 * cordon_fetch, cordon_shell_run, cordon_audit_verify) keep no state
 * between calls; cordon_shell_run blocks SIGINT, SIGTERM and SIGHUP in the
 * calling thread while the command runs and forwards them to it.
 */
#ifndef CORDON_H
#define CORDON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CORDON_BUILDING) && defined(__GNUC__)
#define CORDON_API __attribute__((visibility("default")))
#else
#define CORDON_API
#endif

#if defined(__GNUC__)
#define CORDON_NODISCARD __attribute__((warn_unused_result))
#else
#define CORDON_NODISCARD
#endif

#define CORDON_VERSION "0.1.0"

/* ---- errors ------------------------------------------------------------ */

/* One table: the enum and cordon_strerror() are both made from it. */
#define CORDON_ERR_MAP(X)                                                      \
	X(OK, 0, "success")                                                    \
	X(E_NOMEM, 1, "out of memory")                                         \
	X(E_INVAL, 2, "invalid argument")                                      \
	X(E_LIMIT, 3, "input limit exceeded")                                  \
	X(E_PARSE, 4, "syntax error")                                          \
	X(E_CONFIG, 5, "invalid configuration")                                \
	X(E_REGEX, 6, "invalid regular expression")                            \
	X(E_IO, 7, "input/output error")                                       \
	X(E_JSON, 8, "malformed JSON")

enum cordon_err {
#define CORDON_ERR_ENUM(name, val, msg) CORDON_##name = (val),
	CORDON_ERR_MAP(CORDON_ERR_ENUM)
#undef CORDON_ERR_ENUM
};

/* A static string describing err; never NULL. */
CORDON_API const char *cordon_strerror(enum cordon_err err);

/* Where and why something failed. offset is a byte offset into the input,
 * line and column are 1-based (0 when not applicable), sys_errno is the saved
 * errno for I/O failures (0 otherwise). message is NUL-terminated. */
struct cordon_diag {
	enum cordon_err code;
	size_t offset;
	unsigned line;
	unsigned column;
	int sys_errno;
	char message[256];
};

/* ---- limits ------------------------------------------------------------ */

/* A ceiling on everything input can grow. Exceeding one is an error
 * (CORDON_E_LIMIT) whose diagnostic names the limit; nothing is truncated. */
struct cordon_limits {
	size_t max_input_bytes;   /* one command line */
	size_t max_tokens;        /* tokens in one command line */
	unsigned max_nesting;     /* parser nesting: substitutions, groups */
	unsigned max_heredocs;    /* here-documents in one command line */
	unsigned max_payload_depth; /* sh -c / eval / xargs … recursion */
	size_t max_rules;         /* user rules loaded into one classifier */
	size_t max_rules_bytes;   /* size of one rules file */
	size_t max_batch_line;    /* one line of `classify --jsonl` input */
};

/* Fills *lim with the built-in defaults. Accepts NULL (does nothing). */
CORDON_API void cordon_limits_default(struct cordon_limits *lim);

/* ---- risk tiers and labels --------------------------------------------- */

enum cordon_risk {
	CORDON_RISK_SAFE = 0,
	CORDON_RISK_CAUTION = 1,
	CORDON_RISK_DESTRUCTIVE = 2,
	CORDON_RISK_BLOCKED = 3,
};

/* "safe", "caution", "destructive", "blocked" (static strings; "unknown"
 * out of range). */
CORDON_API const char *cordon_risk_name(enum cordon_risk risk);

/* Stable labels. The names are part of the interface; bits are not (they may
 * be renumbered between versions, the names will not). */
#define CORDON_LABEL_MAP(X)                                                    \
	X(DELETE, "delete")                                                    \
	X(DELETE_RECURSIVE, "delete-recursive")                                \
	X(FORCE, "force")                                                      \
	X(WILDCARD, "wildcard")                                                \
	X(OUTSIDE_WORKSPACE, "outside-workspace")                              \
	X(ROOT_PATH, "root-path")                                              \
	X(HOME_PATH, "home-path")                                              \
	X(SYSTEM_PATH, "system-path")                                          \
	X(VCS_DESTRUCTIVE, "vcs-destructive")                                  \
	X(DISCARD_CHANGES, "discard-changes")                                  \
	X(REMOTE_CODE, "remote-code")                                          \
	X(SECRETS, "secrets")                                                  \
	X(SECRETS_READ, "secrets-read")                                        \
	X(NETWORK, "network")                                                  \
	X(INSTALLS, "installs")                                                \
	X(RUNS_REMOTE_PACKAGE, "runs-remote-package")                          \
	X(PRIVILEGE, "privilege")                                              \
	X(NESTED_SHELL, "nested-shell")                                        \
	X(EVAL, "eval")                                                        \
	X(COMMAND_SUBSTITUTION, "command-substitution")                        \
	X(BATCH_EXEC, "batch-exec")                                            \
	X(INFRA_DESTRUCTIVE, "infra-destructive")                              \
	X(DATA_LOSS, "data-loss")                                              \
	X(CONTAINER_DESTRUCTIVE, "container-destructive")                      \
	X(SHELL_RC, "shell-rc")                                                \
	X(WRITES_OUTSIDE_WORKSPACE, "writes-outside-workspace")                \
	X(KILLS_PROCESSES, "kills-processes")                                  \
	X(DISK, "disk")                                                        \
	X(SYSTEM_POWER, "system-power")                                        \
	X(FORK_BOMB, "fork-bomb")                                              \
	X(REVERSE_SHELL, "reverse-shell")                                      \
	X(PERSISTENCE, "persistence")                                          \
	X(OBFUSCATION, "obfuscation")                                          \
	X(REMOTE, "remote")                                                    \
	X(UNPARSED, "unparsed")                                                \
	X(DENYLISTED, "denylisted")                                            \
	X(DYNAMIC_COMMAND, "dynamic-command")                                  \
	X(HISTORY_WIPE, "history-wipe")                                        \
	X(EXFILTRATION, "exfiltration")                                        \
	X(OVERWRITE, "overwrite")                                              \
	X(PERMISSIONS, "permissions")                                          \
	X(NETWORK_CONFIG, "network-config")                                    \
	X(SERVICE, "service")                                                  \
	X(PUBLISH, "publish")                                                  \
	X(USER_RULE, "user-rule")                                              \
	X(RUNS_SCRIPT, "runs-script")                                          \
	X(DEPTH_LIMIT, "depth-limit")

enum cordon_label_bit {
#define CORDON_LABEL_ENUM(name, str) CORDON_LABEL_BIT_##name,
	CORDON_LABEL_MAP(CORDON_LABEL_ENUM)
#undef CORDON_LABEL_ENUM
	CORDON_LABEL_COUNT
};

#define CORDON_L(name) (UINT64_C(1) << CORDON_LABEL_BIT_##name)

/* The stable name of label bit `bit` (a static string), or NULL when out
 * of range. */
CORDON_API const char *cordon_label_name(unsigned bit);
/* The bit for the label name[0..len) (no NUL needed), or -1 when unknown
 * or name is NULL. */
CORDON_API int cordon_label_from_name(const char *name, size_t len);

/* ---- decisions: the policy engine ---------------------------------------- */

enum cordon_decision {
	CORDON_ALLOW = 0,
	CORDON_DENY = 1,
	CORDON_ASK = 2,
};

/* "allow", "deny", "ask" (static strings; "unknown" out of range). */
CORDON_API const char *cordon_decision_name(enum cordon_decision d);

/* Permission modes, from least to most permissive (the order is used to
 * clamp a requested mode to max_permission_mode). */
enum cordon_mode {
	CORDON_MODE_SUPERVISED = 0,
	CORDON_MODE_AUTO_EDITS = 1, /* "auto-accept-edits" */
	CORDON_MODE_AUTO = 2,
	CORDON_MODE_FULL_ACCESS = 3,
};

/* "supervised", "auto-accept-edits", "auto", "full-access" (static
 * strings; "unknown" out of range). */
CORDON_API const char *cordon_mode_name(enum cordon_mode m);
/* The mode for a NUL-terminated name, or -1 when unknown or NULL. */
CORDON_API int cordon_mode_from_name(const char *name);

/* What a tool does, from the tool map. */
enum cordon_kind {
	CORDON_KIND_READ = 0,
	CORDON_KIND_WRITE = 1,
	CORDON_KIND_DELETE = 2,
	CORDON_KIND_EXECUTE = 3,
	CORDON_KIND_FETCH = 4,
	CORDON_KIND_MCP = 5,
	CORDON_KIND_OTHER = 6, /* not in the map: asks in every mode but full-access */
};

/* "read", "write", "delete", "execute", "fetch", "mcp", "other" (static
 * strings; "unknown" out of range). */
CORDON_API const char *cordon_kind_name(enum cordon_kind k);
/* The kind for a NUL-terminated name, or -1 when unknown or NULL. */
CORDON_API int cordon_kind_from_name(const char *name);

/* Answers to an ASK. */
enum cordon_answer {
	CORDON_ANSWER_ALLOW_ONCE = 0,
	CORDON_ANSWER_ALLOW_SESSION = 1,
	CORDON_ANSWER_ALLOW_ALWAYS = 2,
	CORDON_ANSWER_DENY_ONCE = 3,
	CORDON_ANSWER_DENY_SESSION = 4,
	CORDON_ANSWER_DENY_ALWAYS = 5,
	CORDON_ANSWER_ABORT = 6,     /* deny, and the caller should stop the agent */
	CORDON_ANSWER_TIMED_OUT = 7, /* not answered in time: deny */
};

/* "allow_once", "allow_session", …, "abort", "timed_out" (static
 * strings; "unknown" out of range). */
CORDON_API const char *cordon_answer_name(enum cordon_answer a);

/* ---- configuration ------------------------------------------------------ */

/* The effective configuration (JSON, the shape in doc/DESIGN.md), built in
 * layers: built-in defaults, the user file, the project file (may only
 * tighten), an explicit file. */
struct cordon_config;

enum cordon_config_layer {
	CORDON_CONFIG_USER = 1,     /* $XDG_CONFIG_HOME/cordon/config.json */
	CORDON_CONFIG_PROJECT = 2,  /* <workspace>/.cordon/config.json */
	CORDON_CONFIG_EXPLICIT = 3, /* --config FILE, or a host program's file */
};

/* The built-in defaults; free with cordon_config_free(). NULL when out of
 * memory. */
CORDON_API CORDON_NODISCARD struct cordon_config *cordon_config_new(void);
/* Accepts NULL. Free it only after every policy made from it. */
CORDON_API void cordon_config_free(struct cordon_config *cfg);

/* Validates a JSON document completely and applies it as layer; on error
 * nothing is applied and diag names the file and the key path
 * ("cfg.json: safety.denied_paths[2]: expected a string"). json[0..len)
 * needs no NUL; json and name (NULL: "config") are borrowed for the call.
 * Not while a policy uses cfg: a load replaces what the policy reads, and
 * the strings cordon_config_warning() returned before. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_config_load_json(struct cordon_config *cfg, const char *json,
			size_t len, const char *name,
			enum cordon_config_layer layer, struct cordon_diag *diag);
/* The same from a file (at most 1 MiB; a link is followed, only a
 * regular file is read). path is borrowed for the call. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_config_load_file(struct cordon_config *cfg, const char *path,
			enum cordon_config_layer layer,
			struct cordon_diag *diag);

/* Warnings from loading (values a project file was not allowed to set).
 * The strings are owned by cfg, valid until its next successful load or
 * cordon_config_free(); NULL when i is out of range. Accept a NULL cfg
 * (0, NULL). */
CORDON_API size_t cordon_config_warning_count(const struct cordon_config *cfg);
CORDON_API const char *cordon_config_warning(const struct cordon_config *cfg,
					     size_t i);

/* The effective configuration as JSON; with_sources wraps it as
 * {"config": …, "sources": {"key.path": "origin"}, "warnings": […]}.
 * malloc'd, the caller frees it with free(); NULL when out of memory or
 * cfg is NULL. */
CORDON_API CORDON_NODISCARD char *
cordon_config_to_json(const struct cordon_config *cfg, int with_sources);

/* ---- the classifier ---------------------------------------------------- */

struct cordon_classifier;
struct cordon_verdict;

/* Where a command runs. All paths are absolute; NULL fields take defaults
 * (cwd "/", workspace = cwd, home from nothing: "~" stays unexpanded and is
 * judged as the home directory, tmpdir "/tmp"). The strings are borrowed for
 * the duration of one cordon_classify() call. */
struct cordon_context {
	const char *cwd;
	const char *workspace;
	const char *home;
	const char *tmpdir;
};

/* A classifier with the built-in tables and deny list. lim may be NULL for
 * the defaults (it is copied). Returns NULL when out of memory; free it
 * with cordon_classifier_free(). Not thread-safe: one per thread. */
CORDON_API CORDON_NODISCARD struct cordon_classifier *
cordon_classifier_new(const struct cordon_limits *lim);
/* Accepts NULL. Verdicts it filled point into it (see below). */
CORDON_API void cordon_classifier_free(struct cordon_classifier *cls);

/* Recursion depth for payloads (sh -c, eval, xargs …); default 4. Going
 * deeper rates the command at least caution with label depth-limit. */
CORDON_API void cordon_classifier_set_max_depth(struct cordon_classifier *cls,
						unsigned depth);

/* Replaces the structural deny list. entries == NULL restores the built-in
 * list; n == 0 with non-NULL entries disables it. Each entry is a command
 * line such as "rm -rf /" or "nc -e". Copies the strings. On error (an
 * empty entry: CORDON_E_CONFIG) the list in force stays. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_set_denied_commands(struct cordon_classifier *cls,
				      const char *const *entries, size_t n,
				      struct cordon_diag *diag);

/* Replaces the raw-line deny regexes (PCRE2) the same way; a pattern
 * that does not compile leaves the list in force. The old patterns are
 * freed: verdicts filled before lose their rule ids and reasons. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_set_denied_patterns(struct cordon_classifier *cls,
				      const char *const *patterns, size_t n,
				      struct cordon_diag *diag);

/* Add to the deny list and the deny regexes in force (built-in or
 * replaced) without replacing them: what a project file or a flag adds.
 * Both copy the strings. An empty command entry (CORDON_E_CONFIG) adds none of
 * them, but a pattern that does not compile leaves the patterns before it
 * added. entries or patterns NULL with n > 0: CORDON_E_INVAL. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_add_denied_commands(struct cordon_classifier *cls,
				      const char *const *entries, size_t n,
				      struct cordon_diag *diag);
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_add_denied_patterns(struct cordon_classifier *cls,
				      const char *const *patterns, size_t n,
				      struct cordon_diag *diag);

/* Adds user rules from JSON text (an array of rule objects, or an object
 * {"rules": [...]}) in the CommandSafetyPattern shape: id, label,
 * description, pattern, category, severity (critical|warning), platform
 * (all|unix|windows). On error nothing is added and diag names the key path
 * (e.g. "rules[2].severity") or the regex offset. json[0..len) (no NUL
 * needed, at most max_rules_bytes) is borrowed for the call. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_add_rules_json(struct cordon_classifier *cls,
				 const char *json, size_t len,
				 struct cordon_diag *diag);

/* Adds one user rule; rule and its strings are borrowed for the call
 * (copied). On error nothing is added. */
struct cordon_user_rule {
	const char *id;
	const char *label;
	const char *description;
	const char *pattern;
	const char *category;
	const char *severity; /* "critical" -> blocked, "warning" -> caution */
	const char *platform; /* "all", "unix", "windows"; NULL = all */
};
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_add_rule(struct cordon_classifier *cls,
			   const struct cordon_user_rule *rule,
			   struct cordon_diag *diag);

/* A verdict to fill; reuse it across calls. Returns NULL when out of memory.
 * Free it with cordon_verdict_free(). */
CORDON_API CORDON_NODISCARD struct cordon_verdict *cordon_verdict_new(void);
/* Accepts NULL. */
CORDON_API void cordon_verdict_free(struct cordon_verdict *v);

/* Classifies cmd[0..len) (it may contain NUL bytes; NULL is the empty
 * line). cmd and ctx are borrowed for the call (v keeps a copy of cmd);
 * ctx may be NULL. v is overwritten.
 * Always fills v: a command that does not parse is rated at least caution
 * with label unparsed. Returns CORDON_OK; CORDON_E_LIMIT when the input is
 * over a limit (v is then rated blocked with label unparsed: what cannot be
 * read is refused, and diag names the limit); CORDON_E_NOMEM (v rated
 * blocked: fail closed). */
CORDON_API enum cordon_err cordon_classify(struct cordon_classifier *cls,
					   const struct cordon_context *ctx,
					   const char *cmd, size_t len,
					   struct cordon_verdict *v,
					   struct cordon_diag *diag);

/* Reading a verdict. Strings are owned by v and valid until it is reused or
 * freed. Rule ids, and the reasons of deny-pattern hits, point into the
 * classifier: they also end when it is freed or its deny patterns are
 * replaced. reason() and rule() return NULL when i is out of range. */
CORDON_API enum cordon_risk cordon_verdict_risk(const struct cordon_verdict *v);
CORDON_API uint64_t cordon_verdict_labels(const struct cordon_verdict *v);
CORDON_API int cordon_verdict_parsed(const struct cordon_verdict *v);
CORDON_API size_t cordon_verdict_reason_count(const struct cordon_verdict *v);
CORDON_API const char *cordon_verdict_reason(const struct cordon_verdict *v,
					     size_t i);
CORDON_API size_t cordon_verdict_rule_count(const struct cordon_verdict *v);
CORDON_API const char *cordon_verdict_rule(const struct cordon_verdict *v,
					   size_t i);
CORDON_API size_t cordon_verdict_segment_count(const struct cordon_verdict *v);
/* Segment i: its text (a slice of v's copy of the input, *len bytes, no
 * NUL after it), risk and labels; NULL when i is out of range. len, risk
 * and labels may be NULL. */
CORDON_API const char *cordon_verdict_segment(const struct cordon_verdict *v,
					      size_t i, size_t *len,
					      enum cordon_risk *risk,
					      uint64_t *labels);

/* The verdict as the JSON object of doc/DESIGN.md ("risk", "labels", "reasons",
 * "segments", "matchedRules", "parsed"), NUL-terminated, malloc'd: the caller
 * frees it with free(). NULL when out of memory or v is NULL. */
CORDON_API CORDON_NODISCARD char *
cordon_verdict_to_json(const struct cordon_verdict *v);

/* ---- the policy engine --------------------------------------------------- */

/* One tool call, as every door hands it over. The strings are borrowed for
 * one cordon_policy_evaluate() or cordon_policy_decide() call; the result
 * keeps copies of what it reports. */
struct cordon_call {
	const char *tool;        /* "Bash", "read_file", "mcp__github__create_issue" */
	const char *args_json;   /* a JSON object; NULL is {} */
	size_t args_len;         /* 0: args_json is NUL-terminated */
	const char *cwd;         /* absolute; NULL: the workspace */
	const char *session;     /* session id for session grants; may be NULL */
	const char *schema_json; /* the tool's JSON Schema (MCP inputSchema), or NULL */
};

struct cordon_policy;
struct cordon_result;

/* A policy from a configuration (borrowed: cfg must outlive the policy,
 * and must not be loaded into while the policy lives: every decision reads
 * it). ctx gives the workspace, home and tmpdir (cwd is ignored; NULL fields:
 * workspace from the config's safety.sandbox.linux.workspace or the
 * process's cwd, home from $HOME, tmpdir from $TMPDIR or /tmp). Checks what
 * a file could not: denied_command_patterns compile, command_rules examples
 * (match / not_match) hold; on error diag names the key path. ctx (may be
 * NULL) is borrowed for the call. *out gets the policy (free it with
 * cordon_policy_free()), NULL on error. Not thread-safe: one per thread. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_policy_new(const struct cordon_config *cfg,
		  const struct cordon_context *ctx, struct cordon_policy **out,
		  struct cordon_diag *diag);
/* Accepts NULL. */
CORDON_API void cordon_policy_free(struct cordon_policy *p);

/* Whether the sandbox that will run shell commands enforces writes (the
 * forced-ASK step). Default: yes unless safety.sandbox.mode is off. */
CORDON_API void cordon_policy_set_sandbox_enforces_writes(struct cordon_policy *p,
							  int enforces);

/* Durable approvals: the approvals file (NULL: the config's approvals.path;
 * when that is unset too, only session grants). A corrupt file never fails
 * this call: it gives no durable grants and a warning. path is copied.
 * Returns CORDON_OK or CORDON_E_NOMEM. Opening again drops the session
 * grants given so far. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_policy_open_approvals(struct cordon_policy *p, const char *path);
/* Warnings from building the policy and opening approvals; the strings are
 * owned by p until it is freed. NULL when i is out of range. */
CORDON_API size_t cordon_policy_warning_count(const struct cordon_policy *p);
CORDON_API const char *cordon_policy_warning(const struct cordon_policy *p,
					     size_t i);

/* What the host answers to an ASK. amend_prefix (optional) is an amendment:
 * "allow, and keep allowing commands that start with these words".
 * amend_prefix and by are read after the callback returns: they must stay
 * valid until cordon_policy_decide() returns (not the callback's locals).
 * Both are copied; by is cut at 63 bytes. */
struct cordon_reply {
	enum cordon_answer answer;
	const char *const *amend_prefix;
	size_t amend_len;
	const char *by; /* who answered, for the audit log ("terminal",
			 * "mcp-client", a user name); NULL: "callback" */
};

/* The prompt callback: asked is the ASK result (tool, arguments, reason,
 * risk and labels), borrowed for the callback; fill reply. It should
 * return before the deadline (approvals.timeout_s); an answer that comes
 * later counts as timed_out (the callback is not interrupted). It runs on
 * the thread that called cordon_policy_decide(). ud is borrowed for as
 * long as the callback is set; prompt NULL removes it. */
CORDON_API void cordon_policy_set_prompt(
	struct cordon_policy *p,
	void (*prompt)(void *ud, const struct cordon_result *asked,
		       struct cordon_reply *reply),
	void *ud);

/* The decision sink: sees every final decision of cordon_policy_decide()
 * (not of cordon_policy_evaluate()), allowed or denied, on the calling
 * thread; res is borrowed for the callback. ud is borrowed for as long as
 * the sink is set; on_decision NULL removes it. */
CORDON_API void cordon_policy_set_on_decision(
	struct cordon_policy *p,
	void (*on_decision)(void *ud, const struct cordon_result *res),
	void *ud);

/* A result to fill; reuse it across calls. It reads DENY until filled.
 * Free it with cordon_result_free(). NULL when out of memory. */
CORDON_API CORDON_NODISCARD struct cordon_result *cordon_result_new(void);
/* Accepts NULL. */
CORDON_API void cordon_result_free(struct cordon_result *r);

/* The ten steps, pure: call + configuration (+ the classifier's verdict for
 * shell commands) -> ALLOW, DENY or ASK with the step that decided. No
 * approvals, no prompt, no sink. Errors (out of memory) leave r a DENY.
 * call is borrowed for the call; r is overwritten. p, call or r NULL:
 * CORDON_E_INVAL. */
CORDON_API enum cordon_err cordon_policy_evaluate(struct cordon_policy *p,
						  const struct cordon_call *call,
						  struct cordon_result *r,
						  struct cordon_diag *diag);

/* Leave ASK as ASK instead of prompting (cordon check). */
#define CORDON_DECIDE_NO_PROMPT 1u

/* The whole decision: evaluate, then grants (session, then the approvals
 * file), then the prompt callback with the deadline; answers are recorded.
 * Without a callback (and without CORDON_DECIDE_NO_PROMPT) ASK denies. The
 * sink sees the final result. call is borrowed for the call; r is
 * overwritten, and an error (out of memory) leaves it a DENY. p, call and
 * r must not be NULL (unlike cordon_policy_evaluate, a NULL p crashes). */
CORDON_API enum cordon_err cordon_policy_decide(struct cordon_policy *p,
						const struct cordon_call *call,
						unsigned flags,
						struct cordon_result *r,
						struct cordon_diag *diag);

/* Reading a result. Strings are owned by r and valid until r is passed to
 * the next evaluate or decide call, or freed. */
CORDON_API enum cordon_decision cordon_result_decision(const struct cordon_result *r);
/* The step that decided: "read_only", "path_rules", "denied_paths",
 * "read_only_paths", "allowed_paths", "command_rules", "denied_commands",
 * "classifier", "sandbox", "mode", "default", "fetch_target" (a fetch
 * of this host or a private network asks), "permissions" (imported
 * Claude Code rules, the config's "permissions" section), the guardrails
 * "denied_tools", "allowed_tools", "arg_limits", "schema",
 * "require_confirm", and after approvals "session_grant",
 * "approvals_rule", "user", "timed_out", "no_prompt". */
CORDON_API const char *cordon_result_step(const struct cordon_result *r);
/* Why, one sentence. For a DENY it starts with "blocked: " (or
 * "validation error: " for a schema failure): the text an agent reads. */
CORDON_API const char *cordon_result_reason(const struct cordon_result *r);
/* 1 when no approval can change the decision. */
CORDON_API int cordon_result_hard(const struct cordon_result *r);
CORDON_API const char *cordon_result_tool(const struct cordon_result *r);
CORDON_API enum cordon_kind cordon_result_kind(const struct cordon_result *r);
/* The arguments as compact JSON ("{}" when there were none). */
CORDON_API const char *cordon_result_args(const struct cordon_result *r);
/* Shell commands: the verdict's tier (else -1) and labels (else 0). */
CORDON_API int cordon_result_risk(const struct cordon_result *r);
CORDON_API uint64_t cordon_result_labels(const struct cordon_result *r);
/* The answer when someone was asked, else -1. */
CORDON_API int cordon_result_answer(const struct cordon_result *r);
/* Who gave the answer: the reply's `by` ("callback" when it was NULL),
 * "session-grant" or "approvals-file" for a recorded grant; NULL when
 * nobody was asked. */
CORDON_API const char *cordon_result_answered_by(const struct cordon_result *r);
/* The call's session id, or NULL. */
CORDON_API const char *cordon_result_session(const struct cordon_result *r);
/* The shell command judged (execute kinds), else NULL. For the audit log,
 * which records it only when asked to and then redacted. */
CORDON_API const char *cordon_result_command(const struct cordon_result *r);
/* An ASK handed to the prompt callback: the words of the command family
 * a session or always grant covers when the user takes cordon's proposal
 * ({"npm", "test"} for `npm test -- --watch`); the callback passes them
 * back as reply->amend_prefix for that answer. NULL (*n 0) when only the
 * exact command can be granted (destructive, not plain, a shell or
 * wrapper, several families). Owned by r, valid until r is next filled. */
CORDON_API const char *const *cordon_result_family(const struct cordon_result *r,
						   size_t *n);
/* The check object of doc/DESIGN.md: {"decision", "step", "reason", "risk",
 * "labels", "tool", "kind", "hard", "answer"?}. malloc'd: the caller frees
 * it with free(); NULL on OOM. */
CORDON_API CORDON_NODISCARD char *cordon_result_to_json(const struct cordon_result *r);

/* ---- the argv-only sandboxed shell ------------------------------------- */

/* Runs one command without a shell: argv[0] must be on the allow-list
 * (its base name; a path must be the file a PATH lookup finds), ";", "|",
 * "$( )" are plain bytes of the arguments, stdin is /dev/null, the
 * environment is filtered (env entries from the host are added
 * unfiltered), in a new session, inside the sandbox (namespaces when they
 * work, else Landlock), with a wall-clock timeout, RLIMIT_CPU and an
 * output cap (the output is cut with a note). The command runs in the
 * caller's current directory (chdir first to run it in the workspace).
 * allow, workspace and env are borrowed for the call; nallow 0 blocks
 * every command. */
struct cordon_shell_opts {
	const char *const *allow;  /* allowed command names */
	size_t nallow;
	const char *workspace;     /* writable root; NULL: the cwd */
	unsigned timeout_s;        /* 0: 30 */
	size_t output_cap;         /* bytes of stdout+stderr kept; 0: 1 MiB */
	unsigned long cpu_s;       /* 0: the timeout */
	char *const *env;          /* "NAME=value" from the host, unfiltered */
	int strict;                /* refuse unless enforcement is full */
};

struct cordon_shell_result {
	int status;        /* what `cordon run` would exit with */
	int exit_code;     /* -1 when killed by a signal or never started */
	int signal;        /* 0 when none */
	int timed_out;
	int blocked;       /* argv[0] not on the allow-list: nothing ran */
	int truncated;     /* the output was cut at output_cap */
	char *output;      /* stdout and stderr, NUL-terminated; malloc'd */
	size_t output_len;
	char *report_json; /* the run report of doc/DESIGN.md; malloc'd */
	char message[256]; /* "blocked: command 'rm' is not in the allowlist [...]" */
};

/* Returns CORDON_OK with res filled (the command ran, or was refused with
 * res->blocked or status 125 and res->message), or an error before
 * anything ran. o and argv (NULL-terminated) are borrowed for the call.
 * res is zeroed first (free an earlier result before reusing it); after
 * CORDON_OK it holds output ("" when there was none) and report_json even
 * when blocked: free them with cordon_shell_result_free(). After an error
 * it holds nothing to free. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_shell_run(const struct cordon_shell_opts *o, char *const argv[],
		 struct cordon_shell_result *res, struct cordon_diag *diag);
/* Frees output and report_json; accepts a zeroed result and NULL. */
CORDON_API void cordon_shell_result_free(struct cordon_shell_result *res);

/* ---- SSRF-safe fetch --------------------------------------------------- */

/* What a web_fetch tool should call: http and https only; every hop's host
 * resolved once and its addresses in denied classes (loopback, private,
 * link-local, cloud metadata, this host's own …) dropped, the connection
 * pinned to an address that passed; redirects capped, https to http
 * refused; body and time caps. Zero fields take the defaults (5
 * redirects, 10 MiB, 30 s). */
struct cordon_fetch_opts {
	unsigned max_redirects; /* 0: 5; the cap is 100 */
	int no_redirects;       /* follow none */
	size_t max_body;        /* bytes; 0: 10 MiB */
	unsigned timeout_ms;    /* total; 0: 30 s */
	const char *ca_file;    /* extra trusted CAs (PEM), or NULL; borrowed */
};

struct cordon_fetch_result {
	int status;          /* the answer's HTTP status; 0 when none */
	char *final_url;     /* malloc'd, or NULL */
	char *content_type;  /* malloc'd, or NULL */
	unsigned char *body; /* malloc'd, body_len bytes and a NUL after */
	size_t body_len;
	int truncated;       /* the body was cut at max_body */
	int refused;         /* a rule refused the URL or an address */
	char error[512];     /* why it failed; "" when an answer was read */
};

/* Returns CORDON_OK when an answer was read (any status), CORDON_E_INVAL
 * when refused (res->refused), CORDON_E_LIMIT, CORDON_E_PARSE, CORDON_E_IO
 * or CORDON_E_NOMEM otherwise, with res->error saying why. url and o (NULL:
 * the defaults) are borrowed for the call. res is zeroed first and may
 * hold allocations even after an error (final_url): call
 * cordon_fetch_result_free() whatever this returns. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_fetch(const char *url, const struct cordon_fetch_opts *o,
	     struct cordon_fetch_result *res);
/* Frees what res holds and zeroes it; accepts a zeroed result and NULL. */
CORDON_API void cordon_fetch_result_free(struct cordon_fetch_result *res);

/* ---- redaction --------------------------------------------------------- */

/* Replaces secrets in text[0..len) with "[REDACTED]" or
 * "[REDACTED:<kind>]" ("github-pat", "aws-access-key", "jwt",
 * "private-key" …); the key name of key=value, a flag or a header stays.
 * Linear in len, no backtracking; best effort (see the README for what it
 * finds and what it leaves). text is borrowed for the call (NULL with len
 * 0 is the empty text). *out is malloc'd and NUL-terminated (the caller
 * frees it with free(); NULL after an error), *out_len its length; count
 * receives the number of values replaced (out_len and count may be NULL).
 * CORDON_E_NOMEM, CORDON_E_LIMIT over 1 GiB, CORDON_E_INVAL when out is
 * NULL or text is NULL with len > 0. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_redact(const char *text, size_t len, char **out, size_t *out_len,
	      size_t *count);

/* ---- the audit log ------------------------------------------------------ */

/* One JSON object a line, each carrying the SHA-256 of the record before
 * it ("prev") and of itself ("hash"), so that an edited, deleted, swapped
 * or cut record is found by cordon_audit_verify(). Appends from many
 * processes are serialised with a lock on the file and O_APPEND, from
 * many threads by a mutex in the handle: one handle may be shared. Every
 * string is redacted before it is written. */
struct cordon_audit;

enum cordon_audit_fsync {
	CORDON_AUDIT_FSYNC_EVERY = 0, /* fsync after every record */
	CORDON_AUDIT_FSYNC_BATCH = 1, /* every fsync_batch records and on close */
	CORDON_AUDIT_FSYNC_NEVER = 2, /* leave it to the kernel */
};

struct cordon_audit_opts {
	const char *path;        /* the log file; NULL: no file sink */
	enum cordon_audit_fsync fsync_policy;
	unsigned fsync_batch;    /* BATCH: records between fsyncs; 0: 64 */
	uint64_t rotate_bytes;   /* rotate when a record would pass it; 0: 64 MiB */
	unsigned rotate_keep;    /* rotated files kept (path.1 … path.N); 0: 10 */
	int syslog;              /* also send each record as RFC 5424 */
	const char *syslog_path; /* the datagram socket; NULL: /dev/log */
	int to_stderr;           /* also write each record to stderr */
	int log_all_commands;    /* record shell command text (redacted) */
	const char *key_file;    /* HMAC-SHA-256 key (a file of 16 to 4096
				  * bytes, one trailing newline ignored);
				  * NULL: plain SHA-256 */
};

/* The most rotated files a log keeps (rotate_keep) and verify looks for:
 * the one limit the configuration, the writer and the readers share. */
#define CORDON_AUDIT_MAX_KEEP 1000u

/* Opens the sinks (creating the file and its directory, mode 0600/0700).
 * Refused with CORDON_E_INVAL: a log that is a symlink or not a regular
 * file, a file of another user or writable by others, a directory of
 * another user or writable by others (a shared sticky one owned by root
 * is a warning, cordon_audit_warning()), and a bad key_file. diag names
 * the path and the step that failed. o is borrowed for the
 * call (the paths are copied). *out gets the handle (close it with
 * cordon_audit_close()), NULL on error. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_audit_open(const struct cordon_audit_opts *o, struct cordon_audit **out,
		  struct cordon_diag *diag);
/* Flushes a batched fsync, closes and frees a; accepts NULL. Returns the
 * first error a batched fsync met. No other thread may be using a. */
CORDON_API enum cordon_err cordon_audit_close(struct cordon_audit *a);
/* A warning cordon_audit_open() found but did not refuse (the log's
 * directory is a shared, sticky location such as /tmp), or NULL. The
 * text belongs to a. */
CORDON_API const char *cordon_audit_warning(const struct cordon_audit *a);

/* Records one decision of the policy engine (event "decision"): session,
 * tool, kind, the redacted arguments (a shell command only with
 * log_all_commands), decision, step, reason, hard, risk, labels, answer,
 * answeredBy. extra_json (NULL: none) is a JSON object of more members
 * added after redaction, as cordon_audit_event() takes them (the MCP
 * gateway adds "server", "mcpTool", "pin"; a hook adds "door"). r and
 * extra_json are borrowed for the call. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_audit_decision(struct cordon_audit *a, const struct cordon_result *r,
		      const char *extra_json, struct cordon_diag *diag);
/* A function for cordon_policy_set_on_decision() (ud is the audit log,
 * which must stay open while the sink is set). It cannot report an error:
 * check cordon_audit_failed() after deciding. With ud NULL it records
 * nothing, and nothing says so. */
CORDON_API void cordon_audit_on_decision(void *ud,
					 const struct cordon_result *r);
/* 1 when a record could not be written since the last call (and clears
 * it): a door that cannot audit a decision should not act on it. Accepts
 * NULL (0). */
CORDON_API int cordon_audit_failed(struct cordon_audit *a);

/* Records a finished run (event "run"): the program name, the argv only
 * with log_all_commands (redacted), and from report_json (the run report)
 * backend, enforcement, notEnforced, exitCode, signal, timedOut,
 * durationMs. session, argv (NULL-terminated) and report_json are borrowed
 * for the call; each may be NULL. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_audit_run(struct cordon_audit *a, const char *session,
		 const char *const argv[], const char *report_json,
		 struct cordon_diag *diag);

/* Records any other event ("proxy", "mcp", "pin", …): fields_json is a
 * JSON object whose members are added to the record after redaction; the
 * reserved names (v, seq, time, host, pid, event, hmac, prev, hash) are
 * refused with CORDON_E_INVAL, and so is an event name that is not 1 to
 * 31 of [A-Za-z0-9_.-] or is "recovered" or "rotated" (the log's own).
 * event and fields_json (NULL: no members) are borrowed for the call. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_audit_event(struct cordon_audit *a, const char *event,
		   const char *fields_json, struct cordon_diag *diag);

/* What cordon_audit_verify() found. */
struct cordon_audit_report {
	int intact;              /* 1: every record chains to the one before */
	uint64_t records;        /* records checked */
	unsigned files;          /* files checked */
	char head[65];           /* the hash of the last good record */
	char bad_file[4096];     /* where the first problem is ("" when none) */
	uint64_t bad_line;       /* its 1-based line (0 when none, or when
				  * no line is at fault: the chain reads
				  * whole but FILE.syncfail, the sync mark,
				  * names the file: an fsync of it failed) */
	char why[512];           /* "line 7: a record was deleted before it
				  * (seq 9 where 8 was expected)" … */
	char notes[1024];        /* what is not a break ("the chain starts in a
				  * rotated file: older files were removed") */
	uint64_t head_seq;       /* the seq of head (0 when none) */
};

/* How cordon_audit_verify_ex() judges a log. Zero: the strict defaults. */
struct cordon_audit_verify_opts {
	/* Accept a chain whose oldest file starts with a rotation record
	 * (the files before it were rotated away past rotate_keep). A start
	 * that is neither seq 1 nor a rotation record is a break even so. */
	int allow_missing_start;
	/* A head kept elsewhere (64 hex, from `cordon audit head`): the log
	 * must hold a record with this hash, else it was cut back or
	 * rewritten. NULL: none. */
	const char *expect_head;
	/* The HMAC key the log was written with (see key_file above): every
	 * record must carry its MAC. NULL: records must be plain SHA-256
	 * (a keyed record is then a failure: it cannot be checked). */
	const char *key_file;
};

/* Checks the chain across files[0..n) in order (oldest first). With one
 * path whose rotated siblings exist (path.N … path.1), those are checked
 * first, oldest first. Returns CORDON_OK when the files could be read
 * (rep->intact says whether the chain holds), CORDON_E_IO otherwise.
 * files is borrowed for the call; n must be at least 1. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_audit_verify(const char *const *files, size_t n,
		    struct cordon_audit_report *rep, struct cordon_diag *diag);
/* cordon_audit_verify() with options (o NULL: the defaults, which are
 * what cordon_audit_verify() uses). A key file that cannot be read is
 * CORDON_E_IO (or CORDON_E_INVAL for a bad one) with diag saying why. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_audit_verify_ex(const char *const *files, size_t n,
		       const struct cordon_audit_verify_opts *o,
		       struct cordon_audit_report *rep,
		       struct cordon_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
