/* cordon — a safety layer between AI agents and the tools they call.
 *
 * This is the one public header of libcordon. Every exported name carries the
 * cordon_ prefix; every handle is opaque. Functions that can fail return a
 * cordon_err (CORDON_OK is zero) and fill an optional struct cordon_diag.
 * Decisions and verdicts are values, not errors.
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

/* Fills *lim with the built-in defaults. */
CORDON_API void cordon_limits_default(struct cordon_limits *lim);

/* ---- risk tiers and labels --------------------------------------------- */

enum cordon_risk {
	CORDON_RISK_SAFE = 0,
	CORDON_RISK_CAUTION = 1,
	CORDON_RISK_DESTRUCTIVE = 2,
	CORDON_RISK_BLOCKED = 3,
};

/* "safe", "caution", "destructive", "blocked". */
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

/* The stable name of label bit `bit`, or NULL when out of range. */
CORDON_API const char *cordon_label_name(unsigned bit);
/* The bit for a label name, or -1 when unknown. */
CORDON_API int cordon_label_from_name(const char *name, size_t len);

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
 * the defaults (it is copied). Returns NULL when out of memory. */
CORDON_API CORDON_NODISCARD struct cordon_classifier *
cordon_classifier_new(const struct cordon_limits *lim);
/* Accepts NULL. */
CORDON_API void cordon_classifier_free(struct cordon_classifier *cls);

/* Recursion depth for payloads (sh -c, eval, xargs …); default 4. Going
 * deeper rates the command at least caution with label depth-limit. */
CORDON_API void cordon_classifier_set_max_depth(struct cordon_classifier *cls,
						unsigned depth);

/* Replaces the structural deny list. entries == NULL restores the built-in
 * list; n == 0 with non-NULL entries disables it. Each entry is a command
 * line such as "rm -rf /" or "nc -e". Copies the strings. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_set_denied_commands(struct cordon_classifier *cls,
				      const char *const *entries, size_t n,
				      struct cordon_diag *diag);

/* Replaces the raw-line deny regexes (PCRE2) the same way. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_set_denied_patterns(struct cordon_classifier *cls,
				      const char *const *patterns, size_t n,
				      struct cordon_diag *diag);

/* Adds user rules from JSON text (an array of rule objects, or an object
 * {"rules": [...]}) in the CommandSafetyPattern shape: id, label,
 * description, pattern, category, severity (critical|warning), platform
 * (all|unix|windows). On error nothing is added and diag names the key path
 * (e.g. "rules[2].severity") or the regex offset. */
CORDON_API CORDON_NODISCARD enum cordon_err
cordon_classifier_add_rules_json(struct cordon_classifier *cls,
				 const char *json, size_t len,
				 struct cordon_diag *diag);

/* Adds one user rule. */
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

/* A verdict to fill; reuse it across calls. Returns NULL when out of memory. */
CORDON_API CORDON_NODISCARD struct cordon_verdict *cordon_verdict_new(void);
/* Accepts NULL. */
CORDON_API void cordon_verdict_free(struct cordon_verdict *v);

/* Classifies cmd[0..len) (it may contain NUL bytes). ctx may be NULL.
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
 * freed. */
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
/* Segment i: its text (a slice of the input, *len bytes), risk and labels. */
CORDON_API const char *cordon_verdict_segment(const struct cordon_verdict *v,
					      size_t i, size_t *len,
					      enum cordon_risk *risk,
					      uint64_t *labels);

/* The verdict as the JSON object of DESIGN.md ("risk", "labels", "reasons",
 * "segments", "matchedRules", "parsed"), NUL-terminated, malloc'd: the caller
 * frees it. NULL when out of memory. */
CORDON_API CORDON_NODISCARD char *
cordon_verdict_to_json(const struct cordon_verdict *v);

#ifdef __cplusplus
}
#endif
#endif
