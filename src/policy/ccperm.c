/* ccperm — Claude Code permission rules; see ccperm.h (the importers are
 * in import.c).
 *
 * A rule is compiled once (parse_rule). A Bash call is parsed with
 * sh_parse() and walked into segments, one per command that would run: the
 * simple commands of the line and of every substitution, the payloads of
 * sh -c, eval, su -c, watch, env -S and flock -c (parsed in turn, up to
 * max_payload_depth), the commands of find -exec, and the command behind
 * every runner cordon reads (sudo, env, xargs, command, exec …), which is
 * a segment of its own. A segment carries text forms (struct form). Deny
 * and ask rules match any form of any segment, and the whole line; allow
 * rules match only the form Claude Code matches (its own wrappers
 * stripped), must cover every segment, and apply only when the line holds
 * nothing cordon refuses to let a rule allow (struct line.refusal).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "ccperm.h"
#include "glob.h"
#include "hostlist.h"
#include "json.h"
#include "path.h"
#include "sh.h"

#include "alloc.h"
#include "banned.h"

#define CCP_MAX_RULE 4096 /* bytes of one rule */
#define CCP_MAX_HOPS 32 /* wrappers in front of one command */
#define CCP_MAX_NEST 16 /* find -exec inside find -exec … */
#define CCP_MAX_VARS 64 /* assignments remembered on one line */
#define CCP_ARENA_BASE (32u << 20)

static const char *const list_key[] = { "deny", "ask", "allow" };

const char *ccperm_list_key(enum ccperm_list l)
{
	return (unsigned)l < 3 ? list_key[l] : "?";
}

enum ccp_kind {
	RK_TOOL, /* every call of the tool (or family) */
	RK_BASH_EXACT,
	RK_BASH_PREFIX, /* legacy "prefix:*" */
	RK_BASH_GLOB,
	RK_PATH,
	RK_DOMAIN,
	RK_MCP_SERVER, /* mcp__server, mcp__server__* */
	RK_MCP_ALL, /* mcp__* */
	RK_ANY_CALL, /* a specifier cordon cannot read: every call */
};

enum ccp_family { FAM_NAME, FAM_READ, FAM_EDIT };

enum ccp_base { PB_ABS, PB_HOME, PB_ROOT, PB_CWD };

struct ccp_rule {
	char *text; /* as written */
	size_t index;
	enum ccperm_list list;
	enum ccp_kind kind;
	enum ccp_family fam;
	char *tool; /* FAM_NAME: the tool name; MCP: the server */
	char *spec; /* Bash text, path pattern, domain */
	size_t speclen;
	char **lit; /* RK_BASH_GLOB: the text between stars */
	size_t *litlen;
	size_t nlit;
	bool trail_opt; /* "cmd *": the trailing " *" may be absent */
	enum ccp_base base;
	bool unanchored; /* path pattern without '/': any depth below */
	bool subonly; /* "domain:*.x": subdomains only */
	bool never_allow; /* Claude Code ignores it in the allow list */
	const char *note; /* how cordon reads a rule Claude Code reads
			     differently (static), or NULL */
};

struct ccperm_set {
	struct ccp_rule *r[3];
	size_t n[3];
	char *root;
	char *home;
	struct cordon_limits lim;
};

static const char *const read_tools[] = {
	"Read", "Glob", "Grep", "LS", "NotebookRead", NULL,
};
static const char *const edit_tools[] = {
	"Edit", "Write", "MultiEdit", "NotebookEdit", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

static void set_diag(struct cordon_diag *diag, enum cordon_err code,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_diag(struct cordon_diag *diag, enum cordon_err code,
		     const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return;
	memset(diag, 0, sizeof(*diag));
	diag->code = code;
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
}

static char *dup_n(const char *s, size_t n)
{
	char *d;

	if (n == SIZE_MAX)
		return NULL;
	d = cordon__malloc(n + 1);
	if (!d)
		return NULL;
	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* ---- parsing rules ------------------------------------------------------- */

/* What parse_rule found wrong, for the caller's message. */
struct rule_err {
	enum cordon_err
		code; /* CORDON_E_CONFIG, CORDON_E_LIMIT, CORDON_E_NOMEM */
	char msg[200];
};

static int rule_fail(struct rule_err *e, enum cordon_err code, const char *fmt,
		     ...) __attribute__((format(printf, 3, 4)));

static int rule_fail(struct rule_err *e, enum cordon_err code, const char *fmt,
		     ...)
{
	va_list ap;

	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static bool tool_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* Splits a Bash wildcard specifier at its unescaped stars ("\*" is a
 * literal star, "\\" a literal backslash). */
static int split_stars(struct ccp_rule *r, const char *spec, size_t n,
		       struct rule_err *e)
{
	size_t stars = 0;

	for (size_t i = 0; i < n; i++) {
		if (spec[i] == '\\' && i + 1 < n &&
		    (spec[i + 1] == '*' || spec[i + 1] == '\\'))
			i++;
		else if (spec[i] == '*')
			stars++;
	}
	r->nlit = stars + 1;
	r->lit = cordon__calloc(r->nlit, sizeof(*r->lit));
	r->litlen = cordon__calloc(r->nlit, sizeof(*r->litlen));
	if (!r->lit || !r->litlen)
		return rule_fail(e, CORDON_E_NOMEM, "out of memory");
	for (size_t k = 0, i = 0; k < r->nlit; k++) {
		char *piece = cordon__malloc(n + 1);
		size_t o = 0;

		if (!piece)
			return rule_fail(e, CORDON_E_NOMEM, "out of memory");
		for (; i < n; i++) {
			if (spec[i] == '\\' && i + 1 < n &&
			    (spec[i + 1] == '*' || spec[i + 1] == '\\')) {
				piece[o++] = spec[++i];
				continue;
			}
			if (spec[i] == '*') {
				i++;
				break;
			}
			piece[o++] = spec[i];
		}
		piece[o] = '\0';
		r->lit[k] = piece;
		r->litlen[k] = o;
	}
	/* Claude Code: a single trailing " *" may match nothing, so "ls *"
	 * matches "ls" as well as "ls -la" (and never "lsof"). */
	r->trail_opt = r->nlit == 2 && r->litlen[1] == 0 && r->litlen[0] > 0 &&
		       r->lit[0][r->litlen[0] - 1] == ' ';
	return 0;
}

/* Bash(specifier): the legacy "prefix:*", a wildcard pattern, or exact. */
static int parse_bash(struct ccp_rule *r, const char *spec, size_t n,
		      struct rule_err *e)
{
	bool star = false;
	const char *colon;

	if (n == 1 && spec[0] == '*') {
		r->kind = RK_TOOL;
		return 0;
	}
	if (n > 2 && spec[n - 2] == ':' && spec[n - 1] == '*') {
		r->kind = RK_BASH_PREFIX;
		r->spec = dup_n(spec, n - 2);
		r->speclen = n - 2;
		return r->spec ? 0 :
				 rule_fail(e, CORDON_E_NOMEM, "out of memory");
	}
	colon = memmem(spec, n, ":*", 2);
	if (colon)
		return rule_fail(e, CORDON_E_CONFIG,
				 "':*' may only end a Bash rule");
	for (size_t i = 0; i < n; i++) {
		if (spec[i] == '\\' && i + 1 < n &&
		    (spec[i + 1] == '*' || spec[i + 1] == '\\'))
			i++;
		else if (spec[i] == '*')
			star = true;
	}
	if (star) {
		r->kind = RK_BASH_GLOB;
		return split_stars(r, spec, n, e);
	}
	/* exact: the escapes of a literal star still apply */
	r->kind = RK_BASH_EXACT;
	if (split_stars(r, spec, n, e))
		return -1;
	r->spec = r->lit[0];
	r->speclen = r->litlen[0];
	r->lit[0] = NULL;
	return 0;
}

/* Read(…) and Edit(…): the four path forms. */
static int parse_path(struct ccp_rule *r, const char *spec, size_t n,
		      struct rule_err *e)
{
	const char *p = spec;
	size_t pn = n;
	bool has_slash;

	if (n >= 2 && spec[0] == '/' && spec[1] == '/') {
		r->base = PB_ABS;
		p = spec + 1; /* keep one slash: the absolute pattern */
		pn = n - 1;
	} else if (spec[0] == '~') {
		if (n > 1 && spec[1] != '/')
			return rule_fail(e, CORDON_E_CONFIG,
					 "'~user' paths are not supported "
					 "(write '~/' or '//')");
		r->base = PB_HOME;
		p = n > 1 ? spec + 2 : spec + 1;
		pn = n > 1 ? n - 2 : 0;
	} else if (spec[0] == '/') {
		r->base = PB_ROOT;
		p = spec + 1;
		pn = n - 1;
	} else {
		r->base = PB_CWD;
		has_slash = false;
		for (size_t i = 0; i + 1 < n; i++)
			if (spec[i] == '/')
				has_slash = true;
		/* gitignore: a pattern with no '/' but at its end matches at
		 * any depth below its base; "./x" is anchored */
		r->unanchored = !has_slash;
		if (n >= 2 && spec[0] == '.' && spec[1] == '/') {
			p = spec + 2;
			pn = n - 2;
		} else if (n == 1 && spec[0] == '.') {
			p = spec + 1;
			pn = 0;
			r->unanchored = false;
		}
	}
	r->spec = dup_n(p, pn);
	r->speclen = pn;
	return r->spec ? 0 : rule_fail(e, CORDON_E_NOMEM, "out of memory");
}

/* WebFetch(domain:HOST): the host normalised like the proxy's lists. */
static int parse_domain(struct ccp_rule *r, const char *spec, size_t n,
			struct rule_err *e)
{
	char out[HOSTLIST_MAX_NAME + 1];
	struct netaddr_addr addr;
	const char *why = NULL;

	if (n < 7 || memcmp(spec, "domain:", 7) != 0)
		return rule_fail(e, CORDON_E_CONFIG,
				 "WebFetch rules take 'domain:HOST'");
	spec += 7;
	n -= 7;
	if (n >= 2 && spec[0] == '*' && spec[1] == '.') {
		r->subonly = true;
		spec += 2;
		n -= 2;
	}
	if (n == 0)
		return rule_fail(e, CORDON_E_CONFIG, "empty domain");
	if (hostlist_normalize_host(spec, n, out, &addr, &why) == NETADDR_HOST_INVALID)
		return rule_fail(e, CORDON_E_CONFIG, "bad domain: %s",
				 why ? why : "invalid");
	r->kind = RK_DOMAIN;
	r->spec = dup_n(out, strlen(out));
	r->speclen = strlen(out);
	return r->spec ? 0 : rule_fail(e, CORDON_E_NOMEM, "out of memory");
}

/* mcp__server, mcp__server__*, mcp__server__tool, mcp__*. */
static int parse_mcp(struct ccp_rule *r, const char *name, size_t n,
		     struct rule_err *e)
{
	const char *rest = name + 5, *sep;
	size_t rn = n - 5;

	if (rn == 1 && rest[0] == '*') {
		r->kind = RK_MCP_ALL;
		r->never_allow = true;
		r->note = "cordon reads 'mcp__*' as every MCP tool in deny and "
			  "ask; in allow it is ignored";
		return 0;
	}
	if (rn == 0)
		return rule_fail(e, CORDON_E_CONFIG, "empty MCP server name");
	sep = memmem(rest, rn, "__", 2);
	if (memchr(rest, '*', sep ? (size_t)(sep - rest) : rn))
		return rule_fail(e, CORDON_E_CONFIG,
				 "'*' may only stand for the whole tool "
				 "part (mcp__server__*)");
	if (!sep) {
		r->kind = RK_MCP_SERVER;
		r->tool = dup_n(rest, rn);
		return r->tool ? 0 :
				 rule_fail(e, CORDON_E_NOMEM, "out of memory");
	}
	if (sep == rest)
		return rule_fail(e, CORDON_E_CONFIG, "empty MCP server name");
	if ((size_t)(sep - rest) + 2 == rn)
		return rule_fail(e, CORDON_E_CONFIG, "empty MCP tool name");
	if (sep[2] == '*' && (size_t)(sep - rest) + 3 == rn) {
		r->kind = RK_MCP_SERVER;
		r->tool = dup_n(rest, (size_t)(sep - rest));
		return r->tool ? 0 :
				 rule_fail(e, CORDON_E_NOMEM, "out of memory");
	}
	if (memchr(sep + 2, '*', rn - (size_t)(sep + 2 - rest)))
		return rule_fail(e, CORDON_E_CONFIG,
				 "'*' may only stand for the whole tool "
				 "part (mcp__server__*)");
	r->kind = RK_TOOL;
	r->fam = FAM_NAME;
	r->tool = dup_n(name, n);
	return r->tool ? 0 : rule_fail(e, CORDON_E_NOMEM, "out of memory");
}

static void rule_release(struct ccp_rule *r)
{
	free(r->text);
	free(r->tool);
	free(r->spec);
	if (r->lit)
		for (size_t i = 0; i < r->nlit; i++)
			free(r->lit[i]);
	free(r->lit);
	free(r->litlen);
	memset(r, 0, sizeof(*r));
}

/* Parses one rule of list `list` into *r (zeroed first). Returns 0, or -1
 * with e filled. */
static int parse_rule(const char *text, enum ccperm_list list, size_t index,
		      struct ccp_rule *r, struct rule_err *e)
{
	size_t len = strlen(text), b = 0, end, tn, sn = 0;
	const char *open, *spec = NULL;
	bool has_spec;

	memset(r, 0, sizeof(*r));
	r->list = list;
	r->index = index;
	if (len > CCP_MAX_RULE)
		return rule_fail(e, CORDON_E_LIMIT,
				 "rule of %zu bytes, over the limit of %u", len,
				 CCP_MAX_RULE);
	end = len;
	while (b < end && is_space(text[b]))
		b++;
	while (end > b && is_space(text[end - 1]))
		end--;
	if (b == end)
		return rule_fail(e, CORDON_E_CONFIG, "empty rule");
	r->text = dup_n(text, len);
	if (!r->text)
		return rule_fail(e, CORDON_E_NOMEM, "out of memory");
	open = memchr(text + b, '(', end - b);
	has_spec = open != NULL;
	if (has_spec) {
		if (text[end - 1] != ')')
			return rule_fail(e, CORDON_E_CONFIG,
					 "unbalanced parenthesis");
		tn = (size_t)(open - (text + b));
		spec = open + 1;
		sn = (size_t)(text + end - 1 - spec);
	} else {
		if (memchr(text + b, ')', end - b))
			return rule_fail(e, CORDON_E_CONFIG,
					 "unbalanced parenthesis");
		tn = end - b;
	}
	if (tn == 0)
		return rule_fail(e, CORDON_E_CONFIG, "missing tool name");
	for (size_t i = 0; i < tn; i++)
		if (!tool_char_ok(text[b + i]) &&
		    !(text[b + i] == '*' && tn > 5 &&
		      memcmp(text + b, "mcp__", 5) == 0))
			return rule_fail(e, CORDON_E_CONFIG,
					 "bad character in the tool name");
	if (has_spec && sn == 0)
		return rule_fail(e, CORDON_E_CONFIG, "empty specifier");

	if (tn > 5 && memcmp(text + b, "mcp__", 5) == 0) {
		if (has_spec)
			return rule_fail(e, CORDON_E_CONFIG,
					 "MCP rules take no specifier");
		return parse_mcp(r, text + b, tn, e);
	}
	r->tool = dup_n(text + b, tn);
	if (!r->tool)
		return rule_fail(e, CORDON_E_NOMEM, "out of memory");
	r->fam = FAM_NAME;
	if (strcmp(r->tool, "Read") == 0)
		r->fam = FAM_READ;
	else if (strcmp(r->tool, "Edit") == 0)
		r->fam = FAM_EDIT;
	if (!has_spec) {
		r->kind = RK_TOOL;
		return 0;
	}
	if (strcmp(r->tool, "Bash") == 0)
		return parse_bash(r, spec, sn, e);
	if (r->fam != FAM_NAME) {
		r->kind = RK_PATH;
		return parse_path(r, spec, sn, e);
	}
	if (in_list(edit_tools, r->tool) || in_list(read_tools, r->tool)) {
		/* Claude Code matches file paths with Read(…) and Edit(…)
		 * only and ignores these; cordon reads them as the family's
		 * rule where that is stricter (deny, ask) and ignores them in
		 * allow */
		bool edit = in_list(edit_tools, r->tool);

		r->fam = edit ? FAM_EDIT : FAM_READ;
		r->kind = RK_PATH;
		r->never_allow = true;
		if (list == CCPERM_ALLOW)
			r->note = "Claude Code matches file paths only with "
				  "Read(...) and Edit(...): ignored in allow";
		else if (edit)
			r->note = "read as Edit(...): every file-editing tool";
		else
			r->note = "read as Read(...): every file-reading tool";
		return parse_path(r, spec, sn, e);
	}
	if (strcmp(r->tool, "WebFetch") == 0)
		return parse_domain(r, spec, sn, e);
	if (sn == 1 && spec[0] == '*') {
		r->kind = RK_TOOL;
		return 0;
	}
	r->kind = RK_ANY_CALL;
	r->never_allow = true;
	r->note = list == CCPERM_ALLOW ? "cordon cannot read this tool's specifier: "
				    "ignored in allow" :
				    "cordon cannot read this tool's specifier: "
				    "it applies to every call of the tool";
	return 0;
}

/* ---- compiling ----------------------------------------------------------- */

/* A normalised copy of an absolute directory ("/a/b/" → "/a/b"), or NULL. */
static char *norm_dir(const char *d)
{
	struct arena a;
	char *n, *out = NULL;

	if (!d || d[0] != '/')
		return NULL;
	arena_init(&a, 1u << 20);
	n = path_normalize_call(&a, "/", NULL, d, strlen(d));
	if (n)
		out = dup_n(n, strlen(n));
	arena_release(&a);
	return out;
}

void ccperm_free(struct ccperm_set *s)
{
	if (!s)
		return;
	for (int l = 0; l < 3; l++) {
		for (size_t i = 0; i < s->n[l]; i++)
			rule_release(&s->r[l][i]);
		free(s->r[l]);
	}
	free(s->root);
	free(s->home);
	free(s);
}

enum cordon_err ccperm_compile(const struct strlist *allow,
			       const struct strlist *ask,
			       const struct strlist *deny, const char *root,
			       const char *home, struct ccperm_set **out,
			       struct cordon_diag *diag)
{
	const struct strlist *lists[3] = { deny, ask, allow };
	struct ccperm_set *s;
	struct rule_err e;

	if (!out)
		return CORDON_E_INVAL;
	*out = NULL;
	s = cordon__calloc(1, sizeof(*s));
	if (!s) {
		set_diag(diag, CORDON_E_NOMEM, "out of memory");
		return CORDON_E_NOMEM;
	}
	cordon_limits_default(&s->lim);
	if ((root && root[0] && !(s->root = norm_dir(root))) ||
	    (home && home[0] && !(s->home = norm_dir(home)))) {
		if ((root && root[0] && root[0] != '/') ||
		    (home && home[0] && home[0] != '/')) {
			set_diag(diag, CORDON_E_INVAL,
				 "permissions: the project root and the home "
				 "directory must be absolute");
			ccperm_free(s);
			return CORDON_E_INVAL;
		}
		set_diag(diag, CORDON_E_NOMEM, "out of memory");
		ccperm_free(s);
		return CORDON_E_NOMEM;
	}
	for (int l = 0; l < 3; l++) {
		const struct strlist *src = lists[l];
		size_t n = src ? src->n : 0;

		if (n > CCPERM_MAX_RULES) {
			set_diag(diag, CORDON_E_LIMIT,
				 "permissions.%s: %zu rules, over the limit of "
				 "%u",
				 list_key[l], n, CCPERM_MAX_RULES);
			ccperm_free(s);
			return CORDON_E_LIMIT;
		}
		if (n == 0)
			continue;
		s->r[l] = cordon__calloc(n, sizeof(*s->r[l]));
		if (!s->r[l]) {
			set_diag(diag, CORDON_E_NOMEM, "out of memory");
			ccperm_free(s);
			return CORDON_E_NOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			const char *t = src->v[i] ? src->v[i] : "";

			if (parse_rule(t, (enum ccperm_list)l, i, &s->r[l][i],
				       &e)) {
				rule_release(&s->r[l][i]);
				set_diag(diag, e.code,
					 "permissions.%s[%zu]: %s in '%.80s'",
					 list_key[l], i, e.msg, t);
				ccperm_free(s);
				return e.code;
			}
			s->n[l] = i + 1;
		}
	}
	*out = s;
	return CORDON_OK;
}

/* ---- matching text ------------------------------------------------------- */

/* s[0..n) against the pieces of a wildcard rule: lit[0] must start it, the
 * last piece end it, and the middle pieces follow in order (leftmost
 * first, which is exact for patterns whose only wildcard is '*'). */
static bool star_match(const struct ccp_rule *r, const char *s, size_t n)
{
	size_t first = r->litlen[0], last = r->litlen[r->nlit - 1], pos, end;

	if (r->trail_opt && n == first - 1 && memcmp(s, r->lit[0], n) == 0)
		return true;
	if (n < first || memcmp(s, r->lit[0], first) != 0)
		return false;
	if (n - first < last ||
	    memcmp(s + n - last, r->lit[r->nlit - 1], last) != 0)
		return false;
	pos = first;
	end = n - last;
	for (size_t i = 1; i + 1 < r->nlit; i++) {
		const char *hit;

		if (r->litlen[i] == 0)
			continue;
		hit = memmem(s + pos, end - pos, r->lit[i], r->litlen[i]);
		if (!hit)
			return false;
		pos = (size_t)(hit - s) + r->litlen[i];
	}
	return true;
}

/* Does a Bash specifier rule match the command text s? */
static bool bash_text_match(const struct ccp_rule *r, const char *s)
{
	size_t n;

	if (!s)
		return false;
	n = strlen(s);
	switch (r->kind) {
	case RK_BASH_EXACT:
		return n == r->speclen && memcmp(s, r->spec, n) == 0;
	case RK_BASH_PREFIX:
		return n >= r->speclen && memcmp(s, r->spec, r->speclen) == 0 &&
		       (n == r->speclen || s[r->speclen] == ' ');
	case RK_BASH_GLOB:
		return star_match(r, s, n);
	default:
		return false;
	}
}

/* ---- reading a Bash line ------------------------------------------------- */

/* One word of a command, as the rules see it. */
struct wv {
	const char *plain; /* quote removal done, known variables expanded */
	const char *raw; /* as written */
	bool literal; /* every part is literal text */
	bool nul; /* the literal text holds a NUL byte */
	bool glob; /* an unquoted '*', '?' or '[': the shell expands it */
};

/* One way to write a command: canon (quote removal, words that need it
 * single-quoted again), plain (quote removal, words joined by spaces) and
 * raw (the words as written). */
struct form {
	const char *canon;
	const char *plain;
	const char *raw;
	struct form *next;
};

/* One command that would run. */
struct seg {
	struct form *forms; /* every form: for deny and ask */
	const struct form *allow; /* the form allow rules match */
	struct seg *next;
};

struct text {
	const char *s; /* a whole line or payload, trimmed */
	const char *squeezed; /* with runs of blanks made one space */
	struct text *next;
};

struct var {
	const char *name;
	size_t nlen;
	const char *val;
};

struct line {
	struct arena *a;
	const struct ccperm_set *s;
	struct seg *segs, **tail;
	struct text *texts;
	const char *refusal; /* why no allow rule may cover the line */
	struct var vars[CCP_MAX_VARS];
	size_t nvars;
	unsigned depth; /* payload parsing */
	unsigned nest; /* find -exec */
	bool oom;
};

static void refuse(struct line *L, const char *why)
{
	if (!L->refusal)
		L->refusal = why;
}

static const char R_SUBST[] = "a command substitution ($( ) or backticks)";
static const char R_PROCSUB[] = "a process substitution (<( ) or >( ))";
static const char R_EVAL[] = "eval";
static const char R_SHELL[] = "a nested shell (sh -c)";
static const char R_STDIN_SHELL[] = "a shell reading commands from its input";
static const char R_REDIR[] = "an output redirection to a file";
static const char R_DYNAMIC[] = "a command name only known when it runs";
static const char R_PARSE[] = "a command line that does not parse";
static const char R_RISKY_VAR[] = "an assignment to a variable that changes "
				  "what runs (PATH, LD_PRELOAD ...)";
static const char R_TEST[] = "a [[ ... ]] or (( ... )) expression";
static const char R_DEEP[] = "commands nested deeper than cordon reads";
static const char R_NUL[] = "a word holding a NUL byte";
static const char R_GIT_OPT[] = "a git option that can name a program to "
				"run (-c, --config-env, --exec-path)";

static const char *const shells[] = {
	"sh",	"bash", "dash", "zsh",	"ksh",	 "mksh",  "ash", "yash",
	"fish", "csh",	"tcsh", "posh", "rbash", "pdksh", NULL,
};

/* Variables whose value changes which program runs or what it loads. */
static const char *const risky_vars[] = {
	"PATH",		 "BASH_ENV",
	"ENV",		 "IFS",
	"PS4",		 "SHELLOPTS",
	"BASHOPTS",	 "PROMPT_COMMAND",
	"CDPATH",	 "GLOBIGNORE",
	"NODE_OPTIONS",	 "NODE_PATH",
	"PYTHONPATH",	 "PYTHONSTARTUP",
	"PYTHONHOME",	 "PYTHONINSPECT",
	"PERL5OPT",	 "PERL5LIB",
	"PERLLIB",	 "RUBYOPT",
	"RUBYLIB",	 "JAVA_TOOL_OPTIONS",
	"_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
	"LESSOPEN",	 "LESSCLOSE",
	"PAGER",	 "EDITOR",
	"VISUAL",	 "BROWSER",
	"SSH_ASKPASS",	 "SUDO_ASKPASS",
	"MANPAGER",	 "GCONV_PATH",
	"HOSTALIASES",	 "NLSPATH",
	"TMPDIR",	 NULL,
};
static const char *const risky_prefixes[] = {
	"LD_", "DYLD_", "GIT_", "BASH_FUNC_", "NPM_CONFIG_", "npm_config_", NULL
};

static bool var_is_risky(const char *name, size_t n)
{
	for (const char *const *v = risky_vars; *v; v++)
		if (strlen(*v) == n && memcmp(*v, name, n) == 0)
			return true;
	for (const char *const *p = risky_prefixes; *p; p++)
		if (n >= strlen(*p) && memcmp(*p, name, strlen(*p)) == 0)
			return true;
	return false;
}

/* The length of NAME in "NAME=value" (0 when s is not an assignment). */
static size_t assign_name_len(const char *s)
{
	size_t i = 0;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
	      s[0] == '_'))
		return 0;
	while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	       (s[i] >= '0' && s[i] <= '9') || s[i] == '_')
		i++;
	if (s[i] == '+' && s[i + 1] == '=')
		return i;
	return s[i] == '=' ? i : 0;
}

static void remember_var(struct line *L, const char *name, size_t n,
			 const char *val)
{
	for (size_t i = 0; i < L->nvars; i++)
		if (L->vars[i].nlen == n &&
		    memcmp(L->vars[i].name, name, n) == 0) {
			L->vars[i].val = val;
			return;
		}
	if (L->nvars < CCP_MAX_VARS) {
		L->vars[L->nvars].name = name;
		L->vars[L->nvars].nlen = n;
		L->vars[L->nvars].val = val;
		L->nvars++;
	}
}

static const char *lookup_var(const struct line *L, const char *name, size_t n)
{
	if (n == 3 && memcmp(name, "IFS", 3) == 0)
		return " ";
	for (size_t i = 0; i < L->nvars; i++)
		if (L->vars[i].nlen == n &&
		    memcmp(L->vars[i].name, name, n) == 0)
			return L->vars[i].val;
	if (n == 4 && memcmp(name, "HOME", 4) == 0)
		return L->s->home;
	return NULL;
}

/* Joins the text of w's parts; a part cordon cannot know makes the result
 * NULL (with expand, $IFS and the variables set earlier on the line count
 * as known). *nul tells whether the text held a NUL byte. */
static char *word_text(struct line *L, const struct sh_word *w, bool expand,
		       bool *nul)
{
	size_t n = 0, o = 0;
	char *s;

	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		size_t pn;

		if (p->kind == SH_WP_LIT) {
			pn = p->len;
		} else if (expand && p->kind == SH_WP_PARAM && !p->param_op &&
			   !p->sub && lookup_var(L, p->s, p->len)) {
			pn = strlen(lookup_var(L, p->s, p->len));
		} else {
			return NULL;
		}
		if (pn > SIZE_MAX - 1 - n)
			return NULL;
		n += pn;
	}
	s = arena_alloc_raw(L->a, n + 1);
	if (!s) {
		L->oom = true;
		return NULL;
	}
	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		const char *t = p->s;
		size_t pn = p->len;

		if (p->kind != SH_WP_LIT) {
			t = lookup_var(L, p->s, p->len);
			pn = strlen(t);
		}
		if (pn)
			memcpy(s + o, t, pn);
		o += pn;
	}
	s[o] = '\0';
	if (nul)
		*nul = memchr(s, '\0', o) != NULL;
	return s;
}

static void walk(struct line *L, const struct sh_node *n);
static void walk_word(struct line *L, const struct sh_word *w);
static void payload(struct line *L, const char *text, size_t len,
		    const char *what);

/* Substitutions inside the words of a list (w and the words after it):
 * cordon reads the commands they run, and no allow rule covers a line
 * that has one. */
static void walk_word(struct line *L, const struct sh_word *w)
{
	for (; w; w = w->next) {
		for (const struct sh_wpart *p = w->parts; p; p = p->next) {
			switch (p->kind) {
			case SH_WP_CMDSUB:
			case SH_WP_BACKTICK:
				refuse(L, R_SUBST);
				walk(L, p->body);
				break;
			case SH_WP_PROCSUB_IN:
			case SH_WP_PROCSUB_OUT:
				refuse(L, R_PROCSUB);
				walk(L, p->body);
				break;
			case SH_WP_PARAM:
			case SH_WP_ARITH:
				if (p->sub)
					walk_word(L, p->sub);
				break;
			case SH_WP_LIT:
				break;
			}
		}
	}
}

/* Walks one word only (not the words after it). */
static void walk_one(struct line *L, const struct sh_word *w)
{
	struct sh_word copy;

	if (!w)
		return;
	copy = *w;
	copy.next = NULL;
	walk_word(L, &copy);
}

static bool is_fd_word(const char *s)
{
	if (strcmp(s, "-") == 0)
		return true;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Redirections: substitutions in targets and here-docs are read; an
 * output redirection to anything but /dev/null, /dev/stdout and
 * /dev/stderr is refused for allow. */
static void walk_redirs(struct line *L, const struct sh_redir *r)
{
	for (; r; r = r->next) {
		const char *t = NULL;

		walk_one(L, r->target);
		if (r->body_word)
			walk_one(L, r->body_word);
		if (r->target)
			t = word_text(L, r->target, false, NULL);
		switch (r->op) {
		case SH_R_OUT:
		case SH_R_APPEND:
		case SH_R_CLOBBER:
		case SH_R_RDWR:
		case SH_R_ALL:
		case SH_R_ALL_APPEND:
			if (!t || (strcmp(t, "/dev/null") != 0 &&
				   strcmp(t, "/dev/stdout") != 0 &&
				   strcmp(t, "/dev/stderr") != 0))
				refuse(L, R_REDIR);
			break;
		case SH_R_DUP_OUT:
		case SH_R_DUP_IN:
			if (!t || !is_fd_word(t))
				refuse(L, R_REDIR);
			break;
		case SH_R_IN:
		case SH_R_HEREDOC:
		case SH_R_HERESTRING:
			break;
		}
	}
}

/* Does word s (plain text) need quotes to be read back as one word? */
static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c >= 0x80 ||
		    strchr("_@%+=:,./-~^", c))
			continue;
		return true;
	}
	return false;
}

enum render { RD_CANON, RD_PLAIN, RD_RAW };

/* The words w[k..argc) joined by single spaces in one rendering; the
 * first word replaced by first when it is not NULL. The first pass
 * measures, the second writes. */
static char *render(struct line *L, const struct wv *w, size_t k, size_t argc,
		    enum render how, const char *first)
{
	size_t n = 0, o = 0;
	char *s = NULL;

	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t i = k; i < argc; i++) {
			const char *t = i == k && first ? first :
					how == RD_RAW || (how == RD_CANON &&
							  !w[i].literal) ?
							  w[i].raw :
							  w[i].plain;
			bool q = how == RD_CANON && w[i].literal &&
				 needs_quotes(t);
			size_t tn = strlen(t);

			if (pass == 0) {
				size_t add = tn + 1;

				if (q) {
					for (size_t j = 0; j < tn; j++)
						if (t[j] == '\'')
							add += 3;
					add += 2;
				}
				if (add > SIZE_MAX - 1 - n)
					return NULL;
				n += add;
				continue;
			}
			if (i > k)
				s[o++] = ' ';
			if (!q) {
				memcpy(s + o, t, tn);
				o += tn;
				continue;
			}
			s[o++] = '\'';
			for (size_t j = 0; j < tn; j++) {
				if (t[j] == '\'') {
					memcpy(s + o, "'\\''", 4);
					o += 4;
				} else {
					s[o++] = t[j];
				}
			}
			s[o++] = '\'';
		}
		if (pass == 0) {
			s = arena_alloc_raw(L->a, n + 1);
			if (!s) {
				L->oom = true;
				return NULL;
			}
		}
	}
	s[o] = '\0';
	return s;
}

static struct form *new_form(struct line *L, const struct wv *w, size_t k,
			     size_t argc, const char *first)
{
	struct form *f = arena_alloc(L->a, sizeof(*f));

	if (!f) {
		L->oom = true;
		return NULL;
	}
	f->canon = render(L, w, k, argc, RD_CANON, first);
	f->plain = render(L, w, k, argc, RD_PLAIN, first);
	f->raw = render(L, w, k, argc, RD_RAW, first);
	if (!f->canon || !f->plain || !f->raw)
		return NULL;
	return f;
}

/* Adds the forms of w[k..argc) to seg: as written and, when the command
 * is named by a path (/bin/rm), by its last component too. Returns the
 * first (the form allow rules may match), or NULL. */
static const struct form *add_forms(struct line *L, struct seg *seg,
				    const struct wv *w, size_t k, size_t argc)
{
	struct form *f = new_form(L, w, k, argc, NULL), *b;
	const char *slash;

	if (!f)
		return NULL;
	f->next = seg->forms;
	seg->forms = f;
	slash = w[k].literal ? strrchr(w[k].plain, '/') : NULL;
	if (slash && slash[1]) {
		b = new_form(L, w, k, argc, slash + 1);
		if (b) {
			b->next = seg->forms;
			seg->forms = b;
		}
	}
	return f;
}

static struct seg *new_seg(struct line *L)
{
	struct seg *seg = arena_alloc(L->a, sizeof(*seg));

	if (!seg) {
		L->oom = true;
		return NULL;
	}
	*L->tail = seg;
	L->tail = &seg->next;
	return seg;
}

/* Wrappers: programs that run the command named by their operands. */
struct wrapper {
	const char *name;
	bool claude; /* Claude Code strips it before matching */
	const char *short_val; /* short options that take a value */
	const char *long_val; /* " --a --b ": long options with a value */
	unsigned operands; /* operands before the command */
	bool assigns; /* NAME=value operands before the command (env) */
	bool dash_num; /* -N is an option (nice -5) */
	char payload; /* the short option whose value is a command line */
	const char *payload_long;
};

static const struct wrapper wrappers[] = {
	{ "builtin", false, "", " ", 0, false, false, 0, NULL },
	{ "busybox", false, "", " ", 0, false, false, 0, NULL },
	{ "caffeinate", false, "tw", " ", 0, false, false, 0, NULL },
	{ "catchsegv", false, "", " ", 0, false, false, 0, NULL },
	{ "cgexec", false, "g", " ", 0, false, false, 0, NULL },
	{ "chroot", false, "", " --userspec --groups ", 1, false, false, 0,
	  NULL },
	{ "chrt", false, "TPD",
	  " --sched-runtime --sched-period --sched-deadline ", 1, false, false,
	  0, NULL },
	{ "command", false, "", " ", 0, false, false, 0, NULL },
	{ "coproc", false, "", " ", 0, false, false, 0, NULL },
	{ "doas", false, "uC", " ", 0, false, false, 0, NULL },
	{ "env", false, "uCS", " --unset --chdir --split-string ", 0, true,
	  false, 'S', "--split-string" },
	{ "exec", false, "a", " ", 0, false, false, 0, NULL },
	{ "fakeroot", false, "lsi", " --lib --faked ", 0, false, false, 0,
	  NULL },
	{ "faketime", false, "", " ", 1, false, false, 0, NULL },
	{ "firejail", false, "", " ", 0, false, false, 0, NULL },
	{ "flock", false, "wEc", " --timeout --conflict-exit-code --command ",
	  1, false, false, 'c', "--command" },
	{ "ionice", false, "cnpPu", " --class --classdata --pid --pgid --uid ",
	  0, false, false, 0, NULL },
	{ "gtimeout", false, "sk", " --signal --kill-after ", 1, false, false,
	  0, NULL },
	{ "ltrace", false, "aAeFlnopsuwxX", " --output --align --library ", 0,
	  false, false, 0, NULL },
	{ "nice", true, "n", " --adjustment ", 0, false, true, 0, NULL },
	{ "nohup", true, "", " ", 0, false, false, 0, NULL },
	{ "nsenter", false, "tSGrwe",
	  " --target --setuid --setgid --root --wd --env ", 0, false, false, 0,
	  NULL },
	{ "numactl", false, "CmNiPp",
	  " --membind --cpunodebind --physcpubind --preferred --interleave ", 0,
	  false, false, 0, NULL },
	{ "pkexec", false, "u", " --user ", 0, false, false, 0, NULL },
	{ "prlimit", false, "p", " --pid ", 0, false, false, 0, NULL },
	{ "proxychains", false, "f", " ", 0, false, false, 0, NULL },
	{ "proxychains4", false, "f", " ", 0, false, false, 0, NULL },
	{ "run0", false, "uDg",
	  " --user --group --chdir --unit --property --description --slice"
	  " --setenv ",
	  0, false, false, 0, NULL },
	{ "setsid", false, "", " ", 0, false, false, 0, NULL },
	{ "stdbuf", true, "ioe", " --input --output --error ", 0, false, false,
	  0, NULL },
	{ "sudo", false, "ugChpRrtUTD",
	  " --user --group --close-from --host --prompt --role --type"
	  " --other-user --command-timeout --chdir --chroot ",
	  0, false, false, 0, NULL },
	{ "strace", false, "oepsuEabIPSXO",
	  " --output --trace --signal --status ", 0, false, false, 0, NULL },
	{ "systemd-run", false, "pEu",
	  " --unit --property --description --slice --setenv --uid --gid"
	  " --working-directory ",
	  0, false, false, 0, NULL },
	{ "taskset", false, "", " ", 1, false, false, 0, NULL },
	{ "time", true, "fo", " --format --output ", 0, false, false, 0, NULL },
	{ "timeout", true, "sk", " --signal --kill-after ", 1, false, false, 0,
	  NULL },
	{ "torsocks", false, "uapP", " ", 0, false, false, 0, NULL },
	{ "unbuffer", false, "", " ", 0, false, false, 0, NULL },
	{ "unshare", false, "SGRw",
	  " --setuid --setgid --root --wd --map-user --map-group"
	  " --propagation --setgroups ",
	  0, false, false, 0, NULL },
	{ "valgrind", false, "", " ", 0, false, false, 0, NULL },
	{ "xargs", false, "adEILnPs",
	  " --arg-file --delimiter --eof --replace --max-lines --max-args"
	  " --max-procs --max-chars --process-slot-var ",
	  0, false, false, 0, NULL },
};

static const struct wrapper *find_wrapper(const char *name)
{
	for (size_t i = 0; i < sizeof(wrappers) / sizeof(*wrappers); i++)
		if (strcmp(wrappers[i].name, name) == 0)
			return &wrappers[i];
	return NULL;
}

/* The last path component of a command name. */
static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

static bool long_takes_value(const char *list, const char *opt)
{
	size_t n = strlen(opt);
	const char *hit;

	for (hit = strstr(list, opt); hit; hit = strstr(hit + 1, opt))
		if (hit[-1] == ' ' && hit[n] == ' ')
			return true;
	return false;
}

/* The words w[i..argc) joined by spaces (plain), for a payload. */
static char *join_plain(struct line *L, const struct wv *w, size_t i,
			size_t argc)
{
	if (i >= argc)
		return NULL;
	return render(L, w, i, argc, RD_PLAIN, NULL);
}

/* Skips a wrapper's options, assignments and operands at w[k]; returns the
 * index of the command it runs, argc when there is none or it was a
 * payload (already read), or 0 when cordon cannot tell (an option that is
 * only known when it runs). */
static size_t skip_wrapper(struct line *L, const struct wrapper *wr,
			   const struct wv *w, size_t k, size_t argc)
{
	size_t i = k + 1;

	while (i < argc) {
		const char *o = w[i].plain;

		if (!w[i].literal)
			return 0;
		if (strcmp(o, "--") == 0) {
			i++;
			break;
		}
		if (o[0] != '-' || o[1] == '\0')
			break;
		if (wr->dash_num && o[1] >= '0' && o[1] <= '9') {
			i++;
			continue;
		}
		if (o[1] == '-') {
			const char *eq = strchr(o, '=');

			if (wr->payload_long &&
			    strncmp(o, wr->payload_long,
				    strlen(wr->payload_long)) == 0) {
				const char *v =
					eq ? eq + 1 :
					i + 1 < argc && w[i + 1].literal ?
					     w[i + 1].plain :
					     NULL;

				if (v)
					payload(L, v, strlen(v), R_SHELL);
				else
					refuse(L, R_SHELL);
				return argc;
			}
			if (!eq && long_takes_value(wr->long_val, o))
				i += 2;
			else
				i++;
			continue;
		}
		for (size_t c = 1; o[c]; c++) {
			if (!strchr(wr->short_val, o[c]))
				continue;
			if (wr->payload && o[c] == wr->payload) {
				const char *v =
					o[c + 1] ? o + c + 1 :
					i + 1 < argc && w[i + 1].literal ?
						   w[i + 1].plain :
						   NULL;
				/* env -S 'cmd args' extra args: the
				 * words after the string follow it */
				size_t rest = o[c + 1] ? i + 1 : i + 2;
				char *tail = join_plain(L, w, rest, argc);

				if (v && tail) {
					size_t vn = strlen(v),
					       tn = strlen(tail);
					char *all = arena_alloc_raw(
						L->a, vn + tn + 2);

					if (all) {
						memcpy(all, v, vn);
						all[vn] = ' ';
						memcpy(all + vn + 1, tail,
						       tn + 1);
						payload(L, all, vn + tn + 1,
							R_SHELL);
					}
				} else if (v) {
					payload(L, v, strlen(v), R_SHELL);
				} else {
					refuse(L, R_SHELL);
				}
				return argc;
			}
			if (!o[c + 1])
				i++; /* the value is the next word */
			break;
		}
		i++;
	}
	while (wr->assigns && i < argc && w[i].literal &&
	       assign_name_len(w[i].plain)) {
		if (var_is_risky(w[i].plain, assign_name_len(w[i].plain)))
			refuse(L, R_RISKY_VAR);
		i++;
	}
	if (i > argc || argc - i < wr->operands)
		return argc;
	i += wr->operands;
	if (strcmp(wr->name, "flock") == 0 && i < argc && w[i].literal &&
	    (strcmp(w[i].plain, "-c") == 0 ||
	     strcmp(w[i].plain, "--command") == 0)) {
		if (i + 1 < argc && w[i + 1].literal)
			payload(L, w[i + 1].plain, strlen(w[i + 1].plain),
				R_SHELL);
		else
			refuse(L, R_SHELL);
		return argc;
	}
	return i;
}

/* A shell at w[k]: its -c string is read as a command line; without -c and
 * without a script operand it reads commands from its input. Returns true
 * in that last case. */
static bool shell_payload(struct line *L, const struct wv *w, size_t k,
			  size_t argc)
{
	bool has_c = false;
	size_t i;

	for (i = k + 1; i < argc; i++) {
		const char *o = w[i].plain;

		if (!w[i].literal) {
			refuse(L, R_SHELL);
			return false;
		}
		if (strcmp(o, "--") == 0 || strcmp(o, "-") == 0) {
			i++;
			break;
		}
		if ((o[0] != '-' && o[0] != '+') || o[1] == '\0')
			break;
		if (o[1] == '-')
			continue; /* --login, --norc … */
		if (strcmp(o + 1, "o") == 0 || strcmp(o + 1, "O") == 0) {
			i++;
			continue;
		}
		if (o[0] == '-' && strchr(o + 1, 'c'))
			has_c = true;
	}
	if (has_c) {
		refuse(L, R_SHELL);
		if (i < argc) {
			if (w[i].literal)
				payload(L, w[i].plain, strlen(w[i].plain),
					R_SHELL);
		}
		return false;
	}
	if (i >= argc) {
		refuse(L, R_STDIN_SHELL);
		return true;
	}
	return false;
}

/* su, runuser, script: "-c CMD" / "--command=CMD" / "--command CMD". */
static bool dash_c_payload(struct line *L, const struct wv *w, size_t k,
			   size_t argc)
{
	for (size_t i = k + 1; i < argc; i++) {
		const char *o = w[i].plain;
		const char *v = NULL;

		if (!w[i].literal)
			continue;
		if (strcmp(o, "-c") == 0 || strcmp(o, "--command") == 0)
			v = i + 1 < argc && w[i + 1].literal ? w[i + 1].plain :
							       "";
		else if (strncmp(o, "--command=", 10) == 0)
			v = o + 10;
		if (v) {
			payload(L, v, strlen(v), R_SHELL);
			return true;
		}
	}
	return false;
}

static void command(struct line *L, const struct wv *w, size_t argc,
		    bool *reads_stdin);

/* git's options before its subcommand: -c and --config-env set a
 * configuration value (core.pager, core.sshCommand, alias.x='!cmd' run
 * programs) and --exec-path=DIR chooses where git's commands come from, so
 * "Bash(git * main)" would cover "git -c core.pager='sh -c x' log main". */
static void git_opts(struct line *L, const struct wv *w, size_t k, size_t argc)
{
	for (size_t i = k + 1; i < argc; i++) {
		const char *o = w[i].plain;

		if (!w[i].literal || o[0] != '-' || strcmp(o, "--") == 0)
			return;
		if (strncmp(o, "-c", 2) == 0 ||
		    strncmp(o, "--config-env", 12) == 0 ||
		    strncmp(o, "--exec-path=", 12) == 0) {
			refuse(L, R_GIT_OPT);
			return;
		}
		if (strcmp(o, "-C") == 0 || strcmp(o, "--git-dir") == 0 ||
		    strcmp(o, "--work-tree") == 0 ||
		    strcmp(o, "--namespace") == 0 ||
		    strcmp(o, "--super-prefix") == 0 ||
		    strcmp(o, "--list-cmds") == 0)
			i++; /* the value is the next word */
	}
}

/* A command name the shell expands as a glob ("/bin/r?"): for deny and
 * ask, one more form per Bash rule whose first word the glob could be. */
static void glob_name_forms(struct line *L, struct seg *seg, const struct wv *w,
			    size_t k, size_t argc)
{
	const char *pat = base_name(w[k].plain);

	for (int l = CCPERM_DENY; l <= CCPERM_ASK; l++)
		for (size_t i = 0; i < L->s->n[l]; i++) {
			const struct ccp_rule *r = &L->s->r[l][i];
			const char *t = r->kind == RK_BASH_GLOB ? r->lit[0] :
								  r->spec;
			size_t fn;
			char *first;
			struct form *f;

			if (r->kind != RK_BASH_EXACT &&
			    r->kind != RK_BASH_PREFIX &&
			    r->kind != RK_BASH_GLOB)
				continue;
			fn = strcspn(t, " \t");
			if (fn == 0 || (r->kind == RK_BASH_GLOB && !t[fn]))
				continue; /* the first word holds a star */
			first = arena_strndup(L->a, t, fn);
			if (!first) {
				L->oom = true;
				return;
			}
			if (!glob_matchz(pat, first))
				continue;
			f = new_form(L, w, k, argc, first);
			if (!f)
				return;
			f->next = seg->forms;
			seg->forms = f;
		}
}

/* find ... -exec CMD ... ; (and -execdir, -ok, -okdir): each CMD runs. */
static void find_exec(struct line *L, const struct wv *w, size_t k, size_t argc)
{
	for (size_t i = k + 1; i < argc; i++) {
		size_t j;

		if (!w[i].literal || (strcmp(w[i].plain, "-exec") != 0 &&
				      strcmp(w[i].plain, "-execdir") != 0 &&
				      strcmp(w[i].plain, "-ok") != 0 &&
				      strcmp(w[i].plain, "-okdir") != 0))
			continue;
		for (j = i + 1; j < argc; j++)
			if (w[j].literal && (strcmp(w[j].plain, ";") == 0 ||
					     strcmp(w[j].plain, "+") == 0))
				break;
		if (j > i + 1) {
			if (L->nest >= CCP_MAX_NEST) {
				refuse(L, R_DEEP);
				return;
			}
			L->nest++;
			command(L, w + i + 1, j - i - 1, NULL);
			L->nest--;
		}
		i = j;
	}
}

/* One command w[0..argc): a segment with its forms, Claude Code's
 * wrappers stripped for the allow form; a runner cordon reads starts a
 * segment for the command it runs; shells, eval and the like have their
 * command lines read. *reads_stdin (may be NULL) is set when the command
 * is a shell reading commands from its input. */
static void command(struct line *L, const struct wv *w, size_t argc,
		    bool *reads_stdin)
{
	struct seg *seg = NULL;
	size_t k = 0;

	for (unsigned hops = 0; k < argc && !L->oom; hops++) {
		const struct wrapper *wr;
		const char *name;
		size_t k2;

		if (!seg) {
			seg = new_seg(L);
			if (!seg)
				return;
			seg->allow = add_forms(L, seg, w, k, argc);
		}
		if (hops > CCP_MAX_HOPS) {
			refuse(L, R_DEEP);
			return;
		}
		if (!w[k].literal) {
			refuse(L, R_DYNAMIC);
			return;
		}
		if (w[k].nul)
			refuse(L, R_NUL);
		if (w[k].glob) {
			refuse(L, R_DYNAMIC);
			glob_name_forms(L, seg, w, k, argc);
		}
		name = base_name(w[k].plain);
		wr = find_wrapper(name);
		if (wr) {
			k2 = skip_wrapper(L, wr, w, k, argc);
			if (k2 == 0 || k2 >= argc)
				return;
			k = k2;
			if (wr->claude) {
				/* Claude Code strips it: same segment; the
				 * stripped command is what allow rules see */
				seg->allow = add_forms(L, seg, w, k, argc);
				continue;
			}
			/* a runner cordon reads: its command is a segment of
			 * its own, which allow rules must cover too */
			seg = NULL;
			continue;
		}
		if (in_list(shells, name)) {
			bool in = shell_payload(L, w, k, argc);

			if (reads_stdin)
				*reads_stdin = in;
		} else if (strcmp(name, "eval") == 0) {
			char *p = join_plain(L, w, k + 1, argc);

			refuse(L, R_EVAL);
			for (size_t i = k + 1; i < argc; i++)
				if (!w[i].literal)
					p = NULL;
			if (p)
				payload(L, p, strlen(p), R_EVAL);
		} else if (strcmp(name, "su") == 0 ||
			   strcmp(name, "runuser") == 0 ||
			   strcmp(name, "script") == 0) {
			dash_c_payload(L, w, k, argc);
		} else if (strcmp(name, "watch") == 0) {
			size_t i = k + 1;

			while (i < argc && w[i].literal &&
			       w[i].plain[0] == '-') {
				if (strcmp(w[i].plain, "-n") == 0 ||
				    strcmp(w[i].plain, "--interval") == 0)
					i++;
				i++;
			}
			if (i < argc) {
				char *p = join_plain(L, w, i, argc);

				if (p)
					payload(L, p, strlen(p), R_SHELL);
			}
		} else if (strcmp(name, "find") == 0) {
			find_exec(L, w, k, argc);
		} else if (strcmp(name, "git") == 0) {
			git_opts(L, w, k, argc);
		}
		return;
	}
}

/* An unquoted brace list "{rm,-rf,x}" is several words once the shell
 * expands it: its plain text becomes "rm -rf x" (one level, no nesting;
 * anything else is returned as is). */
static char *brace_words(struct line *L, char *t)
{
	size_t n = strlen(t);
	char *o;

	if (n < 4 || t[0] != '{' || t[n - 1] != '}' ||
	    !memchr(t + 1, ',', n - 2) || memchr(t + 1, '{', n - 2) ||
	    memchr(t + 1, '}', n - 2))
		return t;
	o = arena_strndup(L->a, t + 1, n - 2);
	if (!o)
		return t;
	for (char *c = o; *c; c++)
		if (*c == ',')
			*c = ' ';
	return o;
}

/* The word views of a simple command's words (arena), or NULL. */
static struct wv *word_views(struct line *L, const struct sh_word *words,
			     size_t *argcp)
{
	size_t argc = 0, i = 0;
	struct wv *w;

	for (const struct sh_word *x = words; x; x = x->next)
		argc++;
	if (argc == 0 || argc > SIZE_MAX / sizeof(*w))
		return NULL;
	w = arena_alloc(L->a, argc * sizeof(*w));
	if (!w) {
		L->oom = true;
		return NULL;
	}
	for (const struct sh_word *x = words; x; x = x->next, i++) {
		bool nul = false;
		char *lit = word_text(L, x, false, &nul);
		char *raw = arena_strndup(L->a, x->raw ? x->raw : "",
					  x->raw ? x->raw_len : 0);

		if (!raw) {
			L->oom = true;
			return NULL;
		}
		w[i].raw = raw;
		w[i].literal = lit != NULL;
		w[i].nul = nul;
		w[i].glob = false;
		for (const struct sh_wpart *p = x->parts; p; p = p->next)
			for (size_t c = 0;
			     p->kind == SH_WP_LIT && !p->quoted && c < p->len;
			     c++)
				if (memchr("*?[", p->s[c], 3))
					w[i].glob = true;
		if (lit && !x->quoted)
			lit = brace_words(L, lit);
		w[i].plain = lit ? lit : word_text(L, x, true, NULL);
		if (!w[i].plain)
			w[i].plain = raw;
	}
	*argcp = argc;
	return w;
}

/* A here-doc or here-string fed to a shell: its text is a command line. */
static void stdin_payload(struct line *L, const struct sh_redir *r)
{
	for (; r; r = r->next) {
		if (r->op == SH_R_HEREDOC) {
			if (r->delim_quoted && r->body)
				payload(L, r->body, r->body_len, R_STDIN_SHELL);
			else if (r->body_word) {
				char *t =
					word_text(L, r->body_word, false, NULL);

				if (t)
					payload(L, t, strlen(t), R_STDIN_SHELL);
			}
		} else if (r->op == SH_R_HERESTRING && r->target) {
			char *t = word_text(L, r->target, false, NULL);

			if (t)
				payload(L, t, strlen(t), R_STDIN_SHELL);
		}
	}
}

/* Builtins whose NAME=value operands assign variables. */
static const char *const declarers[] = { "export",   "declare", "local",
					 "readonly", "typeset", NULL };

/* A simple command: its assignments, substitutions, redirections and the
 * command itself. Returns true when it is a shell reading commands from its
 * input. */
static bool simple(struct line *L, const struct sh_node *n)
{
	struct wv *w;
	size_t argc = 0;
	bool reads_stdin = false;

	for (const struct sh_word *a = n->assigns; a; a = a->next) {
		char *known, *t;
		size_t nl;

		walk_one(L, a);
		known = word_text(L, a, true, NULL);
		t = known ? known :
			    arena_strndup(L->a, a->raw ? a->raw : "",
					  a->raw ? a->raw_len : 0);
		if (!t) {
			L->oom = true;
			return false;
		}
		nl = assign_name_len(t);
		if (nl == 0)
			continue;
		if (var_is_risky(t, nl))
			refuse(L, R_RISKY_VAR);
		/* a value only known when it runs makes the variable
		 * unknown */
		remember_var(L, t, nl,
			     known ? t + nl + (t[nl] == '+' ? 2 : 1) : NULL);
	}
	walk_word(L, n->words);
	walk_redirs(L, n->redirs);
	if (!n->words)
		return false;
	w = word_views(L, n->words, &argc);
	if (!w)
		return false;
	if (w[0].literal && in_list(declarers, w[0].plain))
		for (size_t i = 1; i < argc; i++) {
			size_t nl = w[i].literal ? assign_name_len(w[i].plain) :
						   0;

			if (nl == 0)
				continue;
			if (var_is_risky(w[i].plain, nl))
				refuse(L, R_RISKY_VAR);
			remember_var(L, w[i].plain, nl,
				     w[i].plain + nl +
					     (w[i].plain[nl] == '+' ? 2 : 1));
		}
	command(L, w, argc, &reads_stdin);
	if (reads_stdin)
		stdin_payload(L, n->redirs);
	return reads_stdin;
}

/* A pipeline: a shell reading its input from echo or printf with literal
 * words reads them as a command line. */
static void pipeline(struct line *L, const struct sh_node *n)
{
	const struct sh_node *prev = NULL;

	for (const struct sh_node *c = n->child; c && !L->oom; c = c->next) {
		if (c->incomplete)
			refuse(L, R_PARSE);
		if (c->kind != SH_SIMPLE) {
			struct sh_node one = *c;

			one.next = NULL;
			walk(L, &one);
			prev = NULL;
			continue;
		}
		if (simple(L, c) && prev && prev->words) {
			struct wv *pw;
			size_t pc = 0;

			pw = word_views(L, prev->words, &pc);
			if (pw && pc > 1 && pw[0].literal &&
			    (strcmp(pw[0].plain, "echo") == 0 ||
			     strcmp(pw[0].plain, "printf") == 0)) {
				size_t k = 1;
				char *p;

				while (k < pc && pw[k].literal &&
				       pw[k].plain[0] == '-')
					k++;
				p = join_plain(L, pw, k, pc);
				if (p)
					payload(L, p, strlen(p), R_STDIN_SHELL);
			}
		}
		prev = c;
	}
}

static void walk(struct line *L, const struct sh_node *n)
{
	for (; n && !L->oom; n = n->next) {
		if (n->incomplete)
			refuse(L, R_PARSE);
		switch (n->kind) {
		case SH_SIMPLE:
			simple(L, n);
			continue;
		case SH_PIPELINE:
			walk_redirs(L, n->redirs);
			pipeline(L, n);
			continue;
		case SH_COND:
		case SH_ARITH:
			refuse(L, R_TEST);
			walk_word(L, n->words);
			break;
		case SH_FOR:
		case SH_SELECT:
		case SH_CASE:
			walk_word(L, n->words);
			break;
		case SH_LIST:
		case SH_SUBSHELL:
		case SH_GROUP:
		case SH_IF:
		case SH_WHILE:
		case SH_UNTIL:
		case SH_FUNC:
			break;
		}
		walk_redirs(L, n->redirs);
		walk(L, n->child);
	}
}

/* The trimmed text and its blank-squeezed copy, for whole-line rules. */
static void add_text(struct line *L, const char *s, size_t n)
{
	struct text *t;
	char *c, *q;
	size_t o = 0;

	while (n && is_space(*s)) {
		s++;
		n--;
	}
	while (n && is_space(s[n - 1]))
		n--;
	t = arena_alloc(L->a, sizeof(*t));
	c = arena_strndup(L->a, s, n);
	q = arena_alloc_raw(L->a, n + 1);
	if (!t || !c || !q) {
		L->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (is_space(s[i])) {
			if (o && q[o - 1] == ' ')
				continue;
			q[o++] = ' ';
		} else {
			q[o++] = s[i];
		}
	}
	q[o] = '\0';
	t->s = c;
	t->squeezed = q;
	t->next = L->texts;
	L->texts = t;
}

/* A command line inside the line (sh -c, eval …): read like the line. */
static void payload(struct line *L, const char *text, size_t len,
		    const char *what)
{
	struct sh_result res;

	refuse(L, what);
	add_text(L, text, len);
	if (L->oom || L->depth >= L->s->lim.max_payload_depth) {
		refuse(L, R_DEEP);
		return;
	}
	memset(&res, 0, sizeof(res));
	if (sh_parse(L->a, &L->s->lim, text, len, &res) == CORDON_E_NOMEM &&
	    !res.root) {
		L->oom = true;
		return;
	}
	if (res.err != CORDON_OK)
		refuse(L, R_PARSE);
	L->depth++;
	walk(L, res.root);
	L->depth--;
}

/* ---- deciding ------------------------------------------------------------ */

static void put_why(char *why, size_t cap, const struct ccp_rule *r)
{
	if (why && cap)
		snprintf(why, cap, "permissions.%s[%zu] '%s'",
			 list_key[r->list], r->index, r->text);
}

/* Appends ", rule" (or the first rule) to why. */
static void add_why(char *why, size_t cap, const struct ccp_rule *r)
{
	size_t used;

	if (!why || !cap)
		return;
	used = strnlen(why, cap);
	if (used + 1 >= cap)
		return;
	snprintf(why + used, cap - used, "%spermissions.%s[%zu] '%s'",
		 used ? ", " : "", list_key[r->list], r->index, r->text);
}

static bool tool_in_family(const struct ccp_rule *r, const char *tool)
{
	switch (r->fam) {
	case FAM_READ:
		return in_list(read_tools, tool);
	case FAM_EDIT:
		return in_list(edit_tools, tool);
	case FAM_NAME:
		return r->tool && strcmp(r->tool, tool) == 0;
	}
	return false;
}

static bool form_match(const struct ccp_rule *r, const struct form *f,
		       bool deny)
{
	if (bash_text_match(r, f->canon) || bash_text_match(r, f->raw))
		return true;
	return deny && bash_text_match(r, f->plain);
}

/* Deny and ask: does a Bash rule match any form of any segment, or a
 * whole line? */
static bool bash_rule_hits(const struct line *L, const struct ccp_rule *r)
{
	for (const struct seg *g = L->segs; g; g = g->next)
		for (const struct form *f = g->forms; f; f = f->next)
			if (form_match(r, f, true))
				return true;
	for (const struct text *t = L->texts; t; t = t->next)
		if (bash_text_match(r, t->s) || bash_text_match(r, t->squeezed))
			return true;
	return false;
}

/* The first allow rule covering segment g, or NULL. */
static const struct ccp_rule *seg_allow_rule(const struct ccperm_set *s,
					     const struct seg *g)
{
	for (size_t i = 0; i < s->n[CCPERM_ALLOW]; i++) {
		const struct ccp_rule *r = &s->r[CCPERM_ALLOW][i];

		if (!tool_in_family(r, "Bash") || r->never_allow)
			continue;
		if (r->kind == RK_TOOL ||
		    (g->allow && form_match(r, g->allow, false)))
			return r;
	}
	return NULL;
}

/* Bash: deny and ask rules on any part or the whole line, then allow
 * rules on every part (or an exact rule on the whole line), unless the
 * line holds something no rule may allow. */
static int decide_bash(const struct ccperm_set *s, const cJSON *args, char *why,
		       size_t cap)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(args, "command");
	const char *cmd = cJSON_IsString(c) ? c->valuestring : NULL;
	struct arena a;
	struct line L;
	struct sh_result res;
	const struct text *top;
	size_t len, ceiling;
	int verdict = -1;
	bool all = true;

	memset(&L, 0, sizeof(L));
	if (!cmd) {
		/* no command string: rules about commands cannot be read,
		 * so a deny or ask rule for Bash applies (fail closed) */
		for (int l = CCPERM_DENY; l <= CCPERM_ASK; l++)
			for (size_t i = 0; i < s->n[l]; i++) {
				const struct ccp_rule *r = &s->r[l][i];

				if (tool_in_family(r, "Bash")) {
					put_why(why, cap, r);
					return l == CCPERM_DENY ? CORDON_DENY :
							     CORDON_ASK;
				}
			}
		return -1;
	}
	len = strlen(cmd);
	ceiling = len > (SIZE_MAX - CCP_ARENA_BASE) / 64 ?
			  SIZE_MAX :
			  CCP_ARENA_BASE + len * 64;
	arena_init(&a, ceiling);
	L.a = &a;
	L.s = s;
	L.tail = &L.segs;
	memset(&res, 0, sizeof(res));
	add_text(&L, cmd, len);
	(void)sh_parse(&a, &s->lim, cmd, len, &res);
	if (res.err != CORDON_OK)
		refuse(&L, R_PARSE);
	walk(&L, res.root);
	if (L.oom)
		refuse(&L, R_DEEP);

	for (int l = CCPERM_DENY; l <= CCPERM_ASK && verdict < 0; l++)
		for (size_t i = 0; i < s->n[l]; i++) {
			const struct ccp_rule *r = &s->r[l][i];

			if (!tool_in_family(r, "Bash"))
				continue;
			if (r->kind == RK_TOOL || r->kind == RK_ANY_CALL ||
			    L.oom || bash_rule_hits(&L, r)) {
				put_why(why, cap, r);
				verdict = l == CCPERM_DENY ? CORDON_DENY :
							CORDON_ASK;
				break;
			}
		}
	if (verdict >= 0)
		goto out;

	/* allow: the whole line as one exact rule, or every segment */
	if (why && cap)
		why[0] = '\0';
	top = L.texts;
	while (top && top->next)
		top = top->next; /* the line itself was added first */
	for (size_t i = 0; i < s->n[CCPERM_ALLOW] && top; i++) {
		const struct ccp_rule *r = &s->r[CCPERM_ALLOW][i];

		if (!tool_in_family(r, "Bash"))
			continue;
		if (r->kind == RK_TOOL ||
		    (r->kind == RK_BASH_EXACT &&
		     (bash_text_match(r, top->s) ||
		      bash_text_match(r, top->squeezed)))) {
			if (L.refusal)
				break;
			put_why(why, cap, r);
			verdict = CORDON_ALLOW;
			goto out;
		}
	}
	if (!L.segs)
		all = false;
	for (const struct seg *g = L.segs; g && all; g = g->next)
		if (!seg_allow_rule(s, g))
			all = false;
	if (all && !L.refusal) {
		for (const struct seg *g = L.segs; g; g = g->next) {
			const struct ccp_rule *r = seg_allow_rule(s, g);

			if (why && cap && !strstr(why, r->text))
				add_why(why, cap, r);
		}
		verdict = CORDON_ALLOW;
	} else if (all && why && cap) {
		snprintf(why, cap,
			 "permissions.allow: not applied: cordon never lets "
			 "a rule allow %s",
			 L.refusal);
	}
out:
	arena_release(&a);
	return verdict;
}

/* The paths of a file tool's call (normalised, absolute), at most two;
 * returns the count, or -1 when the argument is missing or not a string. */
static int call_paths(struct arena *a, const struct ccperm_set *s,
		      const char *tool, const cJSON *args, const char *cwd,
		      const char *out[2])
{
	static const struct {
		const char *tool;
		const char *arg;
		bool dflt_cwd;
	} map[] = {
		{ "Read", "file_path", false },
		{ "Write", "file_path", false },
		{ "Edit", "file_path", false },
		{ "MultiEdit", "file_path", false },
		{ "NotebookEdit", "notebook_path", false },
		{ "NotebookRead", "notebook_path", false },
		{ "Glob", "path", true },
		{ "Grep", "path", true },
		{ "LS", "path", true },
	};
	const cJSON *v = NULL;
	const char *p = NULL;
	int n = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++) {
		if (strcmp(map[i].tool, tool) != 0)
			continue;
		v = cJSON_GetObjectItemCaseSensitive(args, map[i].arg);
		if (cJSON_IsString(v))
			p = v->valuestring;
		else if (map[i].dflt_cwd && (!v || cJSON_IsNull(v)))
			p = cwd;
		break;
	}
	if (!p)
		return -1;
	out[n] = path_normalize_call(a, cwd, s->home, p, strlen(p));
	if (!out[n])
		return -1;
	n++;
	if (strcmp(tool, "Glob") == 0) {
		/* the directory part of the pattern before its first glob
		 * character: "../../.ssh/x*" searches outside path */
		const cJSON *pat =
			cJSON_GetObjectItemCaseSensitive(args, "pattern");
		const char *t = cJSON_IsString(pat) ? pat->valuestring : "";
		size_t g = strcspn(t, "*?[{"), d = 0;

		for (size_t i = 0; i < g; i++)
			if (t[i] == '/')
				d = i + 1;
		if (d) {
			const char *q =
				path_normalize_call(a, out[0], s->home, t, d);
			if (q && strcmp(q, out[0]) != 0)
				out[n++] = q;
		}
	}
	return n;
}

/* Copies s escaping the glob characters, for the base of a rule. */
static size_t esc_copy(char *o, const char *s)
{
	size_t k = 0;

	for (; *s; s++) {
		if (strchr("*?[]\\{", *s))
			o[k++] = '\\';
		o[k++] = *s;
	}
	return k;
}

/* The absolute glob of a path rule for a call from cwd, or NULL. */
static char *rule_glob(struct arena *a, const struct ccperm_set *s,
		       const struct ccp_rule *r, const char *cwd,
		       bool unanchored)
{
	const char *base = "";
	size_t bn, n;
	char *g, *o;

	switch (r->base) {
	case PB_ABS:
		return arena_strndup(a, r->spec, r->speclen);
	case PB_HOME:
		base = s->home;
		break;
	case PB_ROOT:
		base = s->root ? s->root : cwd;
		break;
	case PB_CWD:
		base = cwd;
		break;
	}
	if (!base)
		return NULL;
	if (strcmp(base, "/") == 0)
		base = "";
	bn = strlen(base);
	if (bn > (SIZE_MAX - r->speclen - 8) / 2)
		return NULL;
	n = bn * 2 + r->speclen + 8;
	g = arena_alloc_raw(a, n);
	if (!g)
		return NULL;
	o = g + esc_copy(g, base);
	if (r->speclen || !bn)
		*o++ = '/';
	if (unanchored && r->speclen) {
		memcpy(o, "**/", 3);
		o += 3;
	}
	memcpy(o, r->spec, r->speclen);
	o[r->speclen] = '\0';
	return g;
}

/* Deny and ask: the path or any directory above it matches (gitignore: a
 * matched directory covers what is inside it). Allow: the path itself. */
bool ccperm_path_matches(const char *glob, const char *p, bool deny)
{
	size_t n = strlen(p);

	if (glob_match(glob, strlen(glob), p, n))
		return true;
	if (!deny)
		return false;
	while (n > 1) {
		while (n > 1 && p[n - 1] != '/')
			n--;
		if (n > 1)
			n--; /* drop the slash */
		if (glob_match(glob, strlen(glob), p, n ? n : 1))
			return true;
	}
	return false;
}

/* The host of an http(s) URL, normalised into out; NULL when there is
 * none (a URL without "://" included). */
static const char *url_host(const char *url, char out[HOSTLIST_MAX_NAME + 1])
{
	struct netaddr_addr addr;

	return hostlist_url_host(url, false, out, &addr) == NETADDR_HOST_INVALID ? NULL :
									 out;
}

static bool domain_hits(const struct ccp_rule *r, const char *host)
{
	size_t hn = strlen(host);

	if (!r->subonly && hn == r->speclen && memcmp(host, r->spec, hn) == 0)
		return true;
	return hn > r->speclen && host[hn - r->speclen - 1] == '.' &&
	       memcmp(host + hn - r->speclen, r->spec, r->speclen) == 0;
}

/* Does rule r apply to a non-Bash call? paths/npaths: the call's paths
 * (npaths -1: missing); host: the URL's host (NULL: none). deny selects
 * the deny/ask reading. For allow, path rules are checked per path by
 * the caller (only == index of the path, or -1 for all). */
static bool rule_hits(const struct ccperm_set *s, struct arena *a,
		      const struct ccp_rule *r, const char *tool,
		      const char *const *paths, int npaths, const char *host,
		      const char *cwd, bool deny, int only)
{
	size_t tn = strlen(tool), sn;

	if (!deny && r->never_allow)
		return false;
	switch (r->kind) {
	case RK_TOOL:
		return tool_in_family(r, tool);
	case RK_ANY_CALL:
		return deny && tool_in_family(r, tool);
	case RK_MCP_ALL:
		return deny && tn > 5 && memcmp(tool, "mcp__", 5) == 0;
	case RK_MCP_SERVER:
		sn = strlen(r->tool);
		if (tn < 5 + sn || memcmp(tool, "mcp__", 5) != 0 ||
		    memcmp(tool + 5, r->tool, sn) != 0)
			return false;
		return tool[5 + sn] == '\0' ||
		       (tool[5 + sn] == '_' && tool[6 + sn] == '_');
	case RK_DOMAIN:
		if (strcmp(tool, "WebFetch") != 0)
			return false;
		if (!host)
			return deny;
		return domain_hits(r, host);
	case RK_PATH:
		if (!tool_in_family(r, tool))
			return false;
		if (npaths < 0)
			return deny;
		for (int i = 0; i < npaths; i++) {
			char *g;

			if (only >= 0 && i != only)
				continue;
			g = rule_glob(a, s, r, cwd, deny && r->unanchored);
			if (g && ccperm_path_matches(g, paths[i], deny))
				return true;
		}
		return false;
	case RK_BASH_EXACT:
	case RK_BASH_PREFIX:
	case RK_BASH_GLOB:
		return false;
	}
	return false;
}

static int decide_other(const struct ccperm_set *s, const char *tool,
			const cJSON *args, const char *cwd, char *why,
			size_t cap)
{
	struct arena a;
	const char *paths[2] = { NULL, NULL };
	int npaths = -1, verdict = -1;
	const char *host = NULL;
	char hbuf[HOSTLIST_MAX_NAME + 1];

	arena_init(&a, CCP_ARENA_BASE);
	if (in_list(read_tools, tool) || in_list(edit_tools, tool))
		npaths = call_paths(&a, s, tool, args, cwd, paths);
	if (strcmp(tool, "WebFetch") == 0) {
		const cJSON *u = cJSON_GetObjectItemCaseSensitive(args, "url");

		if (cJSON_IsString(u))
			host = url_host(u->valuestring, hbuf);
	}
	for (int l = CCPERM_DENY; l <= CCPERM_ASK && verdict < 0; l++)
		for (size_t i = 0; i < s->n[l]; i++) {
			const struct ccp_rule *r = &s->r[l][i];

			if (rule_hits(s, &a, r, tool, paths, npaths, host, cwd,
				      true, -1)) {
				put_why(why, cap, r);
				verdict = l == CCPERM_DENY ? CORDON_DENY :
							CORDON_ASK;
				break;
			}
		}
	if (verdict >= 0)
		goto out;
	if (npaths <= 0) {
		/* allow: the first rule that covers the whole call */
		for (size_t i = 0; i < s->n[CCPERM_ALLOW]; i++)
			if (rule_hits(s, &a, &s->r[CCPERM_ALLOW][i], tool, paths,
				      npaths, host, cwd, false, -1)) {
				put_why(why, cap, &s->r[CCPERM_ALLOW][i]);
				verdict = CORDON_ALLOW;
				break;
			}
		goto out;
	}
	/* allow, for a file tool: every path covered by some rule */
	for (int p = 0; p < npaths; p++) {
		const struct ccp_rule *hit = NULL;

		for (size_t i = 0; i < s->n[CCPERM_ALLOW] && !hit; i++)
			if (rule_hits(s, &a, &s->r[CCPERM_ALLOW][i], tool, paths,
				      npaths, host, cwd, false, p))
				hit = &s->r[CCPERM_ALLOW][i];
		if (!hit)
			goto out;
		if (why && cap && !strstr(why, hit->text))
			add_why(why, cap, hit);
	}
	verdict = CORDON_ALLOW;
out:
	if (verdict < 0 && why && cap)
		why[0] = '\0';
	arena_release(&a);
	return verdict;
}

int ccperm_decide(const struct ccperm_set *s, const char *tool,
		  const cJSON *args, const char *cwd, char *why, size_t why_cap)
{
	if (why && why_cap)
		why[0] = '\0';
	if (!s || !tool)
		return -1;
	if (!cwd || cwd[0] != '/')
		cwd = "/";
	if (strcmp(tool, "Bash") == 0)
		return decide_bash(s, args, why, why_cap);
	return decide_other(s, tool, args, cwd, why, why_cap);
}

enum cordon_err ccperm_check_rule(const char *text, enum ccperm_list list,
				  size_t index, const char **note,
				  struct cordon_diag *diag)
{
	struct ccp_rule r;
	struct rule_err e;

	if (note)
		*note = NULL;
	if (parse_rule(text, list, index, &r, &e)) {
		rule_release(&r);
		set_diag(diag, e.code, "permissions.%s[%zu]: %s in '%.80s'",
			 list_key[list], index, e.msg, text);
		return e.code;
	}
	if (note)
		*note = r.note;
	rule_release(&r);
	return CORDON_OK;
}
