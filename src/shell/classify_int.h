/* classify_int — what classify.c, the command handlers (commands.c and its
 * neighbours, commands_int.h) and verdict.c share.
 *
 * The classifier walks a parse tree (sh.h) and, for every simple command,
 * evaluates its words as far as they can be known statically, strips
 * wrappers, recurses into payloads and applies the knowledge tables. Hits
 * raise the tier of the current segment and add labels, reasons and rule
 * ids to the verdict.
 */
#ifndef CORDON_CLASSIFY_INT_H
#define CORDON_CLASSIFY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "cmdlist.h"
#include "cordon.h"
#include "path.h"
#include "rules.h"
#include "sh.h"

/* ---- the verdict ---------------------------------------------------------- */

struct vsegment {
	size_t off, len; /* into cordon_verdict.text */
	enum cordon_risk risk;
	uint64_t labels;
};

struct cordon_verdict {
	enum cordon_risk risk;
	uint64_t labels;
	bool parsed;
	char *text; /* a copy of the command; segments point into it */
	size_t text_cap;
	const char **reasons;
	size_t nreasons, reasons_cap;
	const char **rules;
	size_t nrules, rules_cap;
	struct vsegment *segs;
	size_t nsegs, segs_cap;
	struct arena strings; /* formatted reasons and rule ids */
	bool oom;             /* an allocation failed: rated blocked */
	struct cmdlist cmds;  /* every command the line runs (cmdlist.h) */
	bool no_cmds;         /* the caller reads no command list (the batch
				 of `cordon classify --jsonl`): its commands
				 are not recorded */
	/* `cordon explain`: every rule hit in order, when trace is set */
	bool trace;
	struct vhit *hits;
	size_t nhits, hits_cap;
};

/* One rule hit: what classify_hit() was told, and the segment (index into
 * segs, or SIZE_MAX outside segments) it raised. */
struct vhit {
	const char *rule;
	const char *reason;
	enum cordon_risk tier;
	uint64_t labels;
	size_t seg;
};

/* Turns the hit trace on or off for the next classifications into v. */
void verdict_set_trace(struct cordon_verdict *v, bool on);
/* Whether the next classifications into v record the command list
 * (v->cmds: on from cordon_verdict_new()). Off, nothing but the list
 * changes: the verdict is the same. */
void verdict_set_commands(struct cordon_verdict *v, bool on);
void verdict_add_hit(struct cordon_verdict *v, const struct vhit *h);

void verdict_reset(struct cordon_verdict *v);
bool verdict_set_text(struct cordon_verdict *v, const char *s, size_t n);
/* s must outlive v's next reset (static, or from v->strings). */
void verdict_add_reason(struct cordon_verdict *v, const char *s);
void verdict_add_rule(struct cordon_verdict *v, const char *id);
void verdict_add_segment(struct cordon_verdict *v, size_t off, size_t len,
			 enum cordon_risk risk, uint64_t labels);
/* printf into v->strings; NULL when out of memory. */
const char *verdict_printf(struct cordon_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- evaluated words ------------------------------------------------------ */

#define WV_DYNAMIC (1u << 0)  /* holds an expansion whose value is unknown */
#define WV_SUBST (1u << 1)    /* holds a command or process substitution */
#define WV_GLOB (1u << 2)     /* unquoted * ? [ */
#define WV_QUOTED (1u << 3)   /* some part quoted or escaped */
#define WV_IFS (1u << 4)      /* holds $IFS: splits where it stands */
#define WV_SPLIT (1u << 11)   /* an unquoted expansion or "$@": splits into words */
#define WV_PLAIN (1u << 12)   /* letters, digits and -_./,:=%^# only (the
			       * parser's plain word, or a piece of one): no
			       * blank, quote, glob, '@' or brace */
#define WV_LINEVAR (1u << 5)  /* uses a variable assigned on this line */
#define WV_PROCSUB (1u << 6)  /* is a process substitution */
#define WV_DECODED (1u << 7)  /* a substitution was evaluated statically */
#define WV_TILDE (1u << 8)    /* began with ~ */
#define WV_ESCAPED (1u << 9)  /* $'…' spelled letters as \x or octal escapes */
#define WV_SECRET (1u << 10)  /* holds a secret: $AWS_SECRET_ACCESS_KEY, a
				 variable set from a credential file */

struct wv {
	const char *s; /* static text; unknown parts contribute nothing */
	size_t n;
	unsigned f;
	size_t dyn_at; /* offset of the first unknown part (n if none) */
	const struct sh_word *w; /* the source word, NULL if synthesised */
};

/* ---- what a command is, for its neighbours -------------------------------- */

#define CI_NETWORK (1u << 0)     /* fetches from the network */
#define CI_RUNS_STDIN (1u << 1)  /* a shell that runs what arrives on stdin */
#define CI_CODE_STDIN (1u << 2)  /* an interpreter reading code on stdin */
#define CI_DECODE (1u << 3)      /* base64 -d, xxd -r … */
#define CI_SECRETS (1u << 4)     /* reads a credential */
#define CI_ENVDUMP (1u << 5)     /* prints the environment */
#define CI_TEXT (1u << 6)        /* prints static text (echo, printf) */
#define CI_HISTORY (1u << 7)     /* prints shell history */
#define CI_NETSEND (1u << 8)     /* sends stdin or files to the network */
#define CI_FIFO (1u << 9)        /* mkfifo */
#define CI_NETCAT (1u << 10)     /* nc, ncat, telnet, socat */
#define CI_SQL_STDIN (1u << 11)  /* a database client reading stdin */
#define CI_IDENTITY (1u << 12)   /* whoami, id, hostname, uname */
#define CI_EXEC_ARGS (1u << 13)  /* runs its arguments as code (sh -c, eval) */
#define CI_STDIN_SECRET (1u << 14) /* its stdin is redirected from a credential */
#define CI_EDIT_STDIN                                                          \
	(1u << 15) /* an editor reading commands on stdin (ed, ex) */

/* How a filter changes the text that passes through it. */
enum xform {
	XF_NONE,
	XF_BASE64, /* base64 -d, openssl base64 -d */
	XF_HEX,    /* xxd -r -p */
	XF_REV,    /* rev */
	XF_TR,     /* tr SET1 SET2 */
};

struct cinfo {
	unsigned f;
	const char *text; /* CI_TEXT: what it prints */
	size_t tlen;
	int lang; /* CI_CODE_STDIN: enum code_lang */
	enum xform xf;    /* what it does to its input */
	const char *tr1, *tr2; /* XF_TR: the two sets, as written */
	size_t tr1n, tr2n;
};

/* Applies a filter to text (arena result); false when it does not apply
 * (the text is not base64, say). */
struct cx;
bool classify_transform(struct cx *x, const struct cinfo *ci, const char *in,
		  size_t n, const char **out, size_t *outn);

/* ---- the walk -------------------------------------------------------------- */

struct cordon_classifier;

#define CLASSIFY_MAX_VARS 64
#define CLASSIFY_MAX_FUNCS 32

struct cx {
	struct cordon_classifier *cls;
	struct cordon_verdict *v;
	struct arena *a;
	struct path_ctx pc;
	unsigned depth;       /* payload recursion depth */
	unsigned max_depth;
	bool in_segment;
	enum cordon_risk seg_risk;
	uint64_t seg_labels;
	unsigned line_ci;     /* union of every command's cinfo flags */
	bool batch;           /* inside xargs / find -exec: operands are many */
	bool b64;             /* static_output decoded base64 */
	int tcp_fds[8];       /* fds opened on /dev/tcp by exec */
	const char *downloads[8]; /* files curl/wget wrote on this line */
	unsigned ndownloads;
	struct {
		const char *path; /* a file written on this line … */
		const char *text; /* … with this static content */
		size_t len;
	} written[8];
	unsigned nwritten;
	const char *secret_files[8]; /* files that now hold a copy of a secret */
	unsigned nsecret_files;
	unsigned pso;         /* what >( … ) bodies of the current command do */
	unsigned hops;        /* nested commands_classify calls (wrappers) */
	unsigned nsubst;      /* substitution bodies being walked */
	size_t cur_cmd;       /* 1 + the command list index of the command
				 being judged, 0: none */
	const char *ifs;      /* the field separators: IFS as set on the line */
	unsigned ntcp;
	bool tcp_seen;        /* a /dev/tcp redirection or ztcp earlier on the
				 line: a command read at run time may come
				 from the network */
	/* a call of a function defined on the line: its positional
	 * parameters ($1 … $9, $@, $*, $#) while its body is judged */
	const struct wv *pos;
	size_t npos;
	bool pos_set;
	unsigned calls; /* nesting of those calls */
	/* the text the previous element of a pipeline prints (echo, printf),
	 * for the batch runners that read their items from stdin */
	const char *feed;
	size_t feedn;
	/* hash -p PATH NAME earlier on the line: NAME runs PATH */
	struct {
		const char *name;
		size_t nlen;
		const char *path;
		size_t plen;
	} hashed[4];
	unsigned nhashed;
	/* ---- not zeroed by cordon_classify: vars and funcs are read up to
	 * nvars and nfuncs ---- */
	struct {
		const char *name;
		size_t nlen;
		const char *val; /* NULL: unknown */
		size_t vlen;
		bool secret;     /* set from a credential */
	} vars[CLASSIFY_MAX_VARS];
	unsigned nvars;
	struct {
		const char *name;
		size_t nlen;
		const struct sh_node *body;
	} funcs[CLASSIFY_MAX_FUNCS];
	unsigned nfuncs;
};

/* Judges the body of function i (x->funcs) as called with argv[1..argc),
 * with $@ and $1… bound to those words. */
void classify_call_function(struct cx *x, unsigned i, struct wv *argv,
			    size_t argc);

/* Raises the current segment (or the whole verdict outside segments). */
void classify_hit(struct cx *x, enum cordon_risk tier, uint64_t labels,
	    const char *rule, const char *reason);

/* Reports rule r of the catalog (rules.def) through classify_hit(): its
 * tier, labels and reason. */
void classify_rule(struct cx *x, enum rule_id r);
/* The same, with more labels besides the catalog's. */
void classify_rule_plus(struct cx *x, enum rule_id r, uint64_t more);
/* The same, with the tier the call site decided and more labels. */
void classify_rule_at(struct cx *x, enum rule_id r, enum cordon_risk tier,
		      uint64_t more);
/* The same, with a reason of the call site's (NULL: none, as when filling
 * in a format ran out of memory). */
void classify_rule_why(struct cx *x, enum rule_id r, enum cordon_risk tier,
		       uint64_t more, const char *why);
/* The reason of rule NAME whose catalog reason is the format RULE_FMT_NAME,
 * filled in (in the verdict's memory; NULL when out of memory). The
 * format is a literal here, so the arguments are checked against it. */
#define classify_rule_text(v, NAME, ...)                                       \
	verdict_printf((v), RULE_FMT_##NAME, __VA_ARGS__)
/* Reports rule NAME with its format filled in; _plus adds labels. */
#define classify_rulef(x, NAME, ...)                                           \
	classify_rule_why((x), RULE_##NAME, rules_catalog[RULE_##NAME].tier,   \
			  0, classify_rule_text((x)->v, NAME, __VA_ARGS__))
#define classify_rulef_plus(x, NAME, more, ...)                                \
	classify_rule_why((x), RULE_##NAME, rules_catalog[RULE_##NAME].tier,   \
			  (more),                                              \
			  classify_rule_text((x)->v, NAME, __VA_ARGS__))

/* Evaluates a word statically. */
struct wv classify_eval(struct cx *x, const struct sh_word *w);
/* A synthesised word: static text. */
struct wv classify_lit(const char *s, size_t n);
/* A synthesised word whose value is unknown (xargs' appended operand). */
struct wv classify_unknown(void);

/* Classifies a shell program given as text (sh -c, eval, ssh …), one level
 * deeper. extra labels are added to every hit it makes. Returns the union
 * of its commands' cinfo flags. */
unsigned classify_payload(struct cx *x, const char *s, size_t n, uint64_t labels,
		    const char *why);

/* Classifies an argv (after the caller evaluated the words). redirs may be
 * NULL. Fills *ci. */
void classify_command(struct cx *x, struct wv *argv, size_t argc,
		const struct sh_redir *redirs, struct cinfo *ci);

/* Records the variables assigned by NAME=value words. */
void classify_assign(struct cx *x, const struct sh_word *w);

/* Normalises a static path word against the cwd and classifies it. */
enum path_class classify_path(struct cx *x, const struct wv *w, const char **abs);

/* Normalises a static path word against the cwd, nothing more. */
const char *classify_abs(struct cx *x, const struct wv *w);

/* Judges a write to a path (redirection, tee, cp/mv destination …). */
void filecmds_write_target(struct cx *x, const struct wv *w, bool truncates,
		     const char *how);

/* Scans inline code (enum code_lang) and classifies what it runs. */
void classify_code(struct cx *x, int lang, const char *code, size_t n);
/* Scans SQL handed to a database client. */
void classify_sql(struct cx *x, const char *sql, size_t n);

/* The static output of a substitution body (echo, printf, base64 -d). */
bool classify_static_output(struct cx *x, const struct sh_node *body,
		      const char **out, size_t *outn);
/* Script-file names (x.sh, y.py) are not dotted command families. */
bool commands_script_suffix(const char *s, size_t n);

/* What echo/printf with static arguments print; NULL if not static. */
const char *classify_echo_text(struct cx *x, struct wv *argv, size_t argc,
			 bool printf_, size_t *n);

/* Adds the command argv[0..argc) (or, with argc 0, the redirections of
 * a compound command) to the verdict's command list, as it runs here. */
void classify_note_command(struct cx *x, const struct wv *argv, size_t argc,
			   const struct sh_redir *redirs);

/* From commands.c. */
void commands_classify(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci);

/* The handler and wrapper tables are searched by bisection: true when
 * both are sorted and their names unique (a unit test checks it). */
bool commands_tables_sorted(void);

/* Is name a builtin or a command cordon has a handler for? */
bool commands_known(const char *name, size_t n);

/* Is the variable one whose value is a command some program runs later
 * (GIT_SSH_COMMAND, PAGER, CC, CARGO_TARGET_<TRIPLE>_RUNNER …)? */
bool classify_is_command_var(const char *name, size_t n);

/* GIT_CONFIG_PARAMETERS=VALUE (families.c): its 'key'='value' pairs read
 * as git -c reads them. */
void families_git_config_params(struct cx *x, const struct wv *v);
/* An editor's commands (ed, ex, vim -e), a line each: those that run a
 * shell command ('!cmd', 'w !cmd', ':silent !cmd') are judged as command
 * lines. */
void commands_editor_lines(struct cx *x, const char *s, size_t n);
/* rustc's flags (RUSTFLAGS, cargo rustc -- …, build.rustflags) in one
 * word: each -C linker=PROG names a program the build runs. */
void families_rustc_flags(struct cx *x, const struct wv *v);
/* The variables whose value is rustc's or rustdoc's flags. */
bool families_is_rustflags_var(const char *name, size_t n);

/* The classifier's table lookups (classify.c). */
/* Does the family table hold rows for the command name (git, docker …)? */
bool classify_family_known(const struct cx *x, const char *name, size_t n);
void classify_apply_table(struct cx *x, struct wv *argv, size_t argc);
void classify_apply_denylist(struct cx *x, struct wv *argv, size_t argc);
/* The rule ids of the built-in deny list and deny patterns, the i-th;
 * NULL past the end. For the test that every id has a case row. */
const char *classify_table_id(size_t i);
/* Has c built its family index (the first cordon_classify() builds it,
 * not cordon_classifier_new())? For the tests. */
bool classify_index_built(const struct cordon_classifier *c);

/* Is c one of the field separators (IFS) in force? */
bool classify_is_ifs(const struct cx *x, char c);

/* Small helpers shared by the files, inline: they are called with
 * string constants dozens of times a command, and inlined the length of
 * the constant is known and the compare is a few instructions. */
static inline bool classify_word_static(const struct wv *w)
{
	return !(w->f & (WV_DYNAMIC | WV_SUBST));
}

static inline bool classify_word_is(const struct wv *w, const char *s)
{
	if (!w->n || w->s[0] != s[0])
		return false;
	size_t n = strlen(s);
	return w->n == n && memcmp(w->s, s, n) == 0 && classify_word_static(w);
}
/* The command name with any directory removed. */
const char *classify_cmd_base(const struct wv *w, size_t *n);

#endif
