/* sh — a parser for POSIX sh plus the bash syntax agents emit.
 *
 * sh_parse() turns a command line into a tree of nodes (lists, pipelines,
 * simple commands, compound commands) whose words are lists of parts
 * (literal text after quote removal, parameter expansions, command and
 * process substitutions, arithmetic). It never executes or expands anything;
 * the classifier decides what the tree means.
 *
 * On a syntax error the tree holds everything parsed before the error (the
 * recoverable prefix), partial commands included, and the error is reported
 * with its offset. Everything is allocated in the caller's arena.
 */
#ifndef CORDON_SH_H
#define CORDON_SH_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "cordon.h"

enum sh_wpart_kind {
	SH_WP_LIT,         /* text after quote removal */
	SH_WP_PARAM,       /* $x, ${x…} */
	SH_WP_CMDSUB,      /* $(…) */
	SH_WP_BACKTICK,    /* `…` */
	SH_WP_ARITH,       /* $((…)) */
	SH_WP_PROCSUB_IN,  /* <(…) */
	SH_WP_PROCSUB_OUT, /* >(…) */
};

struct sh_node;
struct sh_word;

struct sh_wpart {
	enum sh_wpart_kind kind;
	bool quoted;    /* LIT: came from quotes or an escape (globs inert) */
	bool in_dq;     /* inside double quotes (no field splitting) */
	bool param_op;  /* PARAM: an operator follows the name (${x:-y}) */
	bool nul;       /* LIT: s is the parser's own copy, s[len] == '\0' */
	bool plain;     /* LIT: letters, digits and -_./,:=%^# only: no glob,
			 * no '~', no quote (the parser's plain word) */
	const char *s;  /* LIT: the text; PARAM: the name ("" if none) */
	size_t len;
	struct sh_word *sub;  /* PARAM: the operator's word; ARITH: expression */
	struct sh_node *body; /* CMDSUB, BACKTICK, PROCSUB_*: the program */
	struct sh_wpart *next;
};

struct sh_word {
	struct sh_wpart *parts;
	struct sh_wpart *parts_tail; /* the last part, for appending */
	const char *raw; /* the source text of the word */
	size_t raw_len;
	bool quoted;     /* some part of it was quoted or escaped */
	struct sh_word *next;
};

enum sh_redir_op {
	SH_R_IN,         /* <  */
	SH_R_OUT,        /* >  */
	SH_R_APPEND,     /* >> */
	SH_R_CLOBBER,    /* >| */
	SH_R_RDWR,       /* <> */
	SH_R_ALL,        /* &> and >& with a file */
	SH_R_ALL_APPEND, /* &>> */
	SH_R_DUP_IN,     /* <& */
	SH_R_DUP_OUT,    /* >& */
	SH_R_HEREDOC,    /* << and <<- */
	SH_R_HERESTRING, /* <<< */
};

struct sh_redir {
	enum sh_redir_op op;
	int fd;                  /* -1: the operator's default */
	struct sh_word *target;  /* file, fd, string, or here-doc delimiter */
	bool strip_tabs;         /* <<- */
	bool delim_quoted;       /* here-doc body is literal */
	bool body_unterminated;  /* here-doc ran to the end of input */
	const char *body;        /* here-doc body, raw */
	size_t body_len;
	struct sh_word *body_word; /* unquoted here-doc: body with expansions */
	struct sh_redir *next;
};

enum sh_kind {
	SH_LIST,     /* child: items, each with sep */
	SH_PIPELINE, /* child: commands; negated */
	SH_SIMPLE,   /* assigns, words, redirs */
	SH_SUBSHELL, /* child: the body list */
	SH_GROUP,    /* child: the body list */
	SH_IF,       /* child: cond, then, [cond, then]…, [else] */
	SH_WHILE,    /* child: cond, body */
	SH_UNTIL,    /* child: cond, body */
	SH_FOR,      /* name, words (in-list), child: body; arith for: words */
	SH_SELECT,   /* as for */
	SH_CASE,     /* words: subject then every pattern; child: arm bodies */
	SH_FUNC,     /* name, child: body */
	SH_COND,     /* [[ … ]]: words */
	SH_ARITH,    /* (( … )): words (one expression word) */
};

enum sh_sep {
	SH_SEP_NONE,
	SH_SEP_SEMI,    /* ; or newline */
	SH_SEP_ASYNC,   /* & */
	SH_SEP_AND,     /* && */
	SH_SEP_OR,      /* || */
};

struct sh_node {
	enum sh_kind kind;
	enum sh_sep sep;        /* what follows this node inside a list */
	bool negated;           /* ! pipeline */
	bool pipe_stderr;       /* followed by |& in its pipeline */
	bool incomplete;        /* cut short by a syntax error */
	const char *text;       /* source slice */
	size_t len;
	const char *name;       /* FUNC, FOR, SELECT */
	size_t name_len;
	struct sh_word *assigns; /* SIMPLE: NAME=value words (array elements follow) */
	struct sh_word *words;   /* SIMPLE: argv; see enum sh_kind for others */
	struct sh_redir *redirs;
	struct sh_node *child;
	struct sh_node *next;
	/* the last element of child, words and assigns, for appending */
	struct sh_node *child_tail;
	struct sh_word *words_tail, *assigns_tail;
};

struct sh_result {
	struct sh_node *root;   /* an SH_LIST; never NULL unless out of memory */
	enum cordon_err err;    /* CORDON_OK, E_PARSE, E_LIMIT or E_NOMEM */
	size_t err_offset;
	char err_msg[160];
};

/* Parses src[0..len) into *res. Returns res->err. */
enum cordon_err sh_parse(struct arena *a, const struct cordon_limits *lim,
			 const char *src, size_t len, struct sh_result *res);

/* True when the word is a single unquoted literal equal to s. */
bool sh_word_is(const struct sh_word *w, const char *s);

#endif
