/* ccperm — Claude Code permission rules; see ccperm.h (the importers are
 * in import.c).
 *
 * A rule is compiled once (parse_rule). A Bash call is not parsed or walked
 * here: the classifier's walk lists every command that would run
 * (cmdlist.h): the simple commands of the line and of every substitution,
 * of every payload it reads (sh -c and every other shell it knows, eval,
 * su -c, watch, env -S, flock -c, here-docs and text piped into a shell,
 * the shell calls of inline code), the commands of find -exec and xargs,
 * and the command behind every wrapper hop. read_line() turns that list
 * into segments, one per command, except that the command behind a wrapper
 * Claude Code strips (the wrappers table's WF_CLAUDE) is another form of
 * its wrapper's segment, the one allow rules see. A segment carries text
 * forms (struct form). Deny and ask rules match any form of any segment,
 * and the whole line or any payload's text; allow rules match only the form
 * Claude Code matches, must cover every segment, and apply only when the
 * line holds nothing cordon refuses to let a rule allow (struct
 * line.refusal).
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
#include "cmdlist.h"
#include "diag.h"
#include "glob.h"
#include "hostlist.h"
#include "json.h"
#include "path.h"
#include "sh.h"
#include "wrappers.h"

#include "alloc.h"
#include "banned.h"

#define CCP_MAX_RULE 4096 /* bytes of one rule */
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
	/* for a Bash call that comes without the classifier's command list:
	 * made on first use */
	struct ccp_own {
		struct cordon_classifier *cls;
		struct cordon_verdict *v;
	} *own;
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
	if (s->own) {
		cordon_verdict_free(s->own->v);
		cordon_classifier_free(s->own->cls);
		free(s->own);
	}
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
		diag_set(diag, CORDON_E_NOMEM, "out of memory");
		return CORDON_E_NOMEM;
	}
	cordon_limits_default(&s->lim);
	s->own = cordon__calloc(1, sizeof(*s->own));
	if (!s->own) {
		diag_set(diag, CORDON_E_NOMEM, "out of memory");
		ccperm_free(s);
		return CORDON_E_NOMEM;
	}
	if ((root && root[0] && !(s->root = norm_dir(root))) ||
	    (home && home[0] && !(s->home = norm_dir(home)))) {
		if ((root && root[0] && root[0] != '/') ||
		    (home && home[0] && home[0] != '/')) {
			diag_set(diag, CORDON_E_INVAL,
				 "permissions: the project root and the home "
				 "directory must be absolute");
			ccperm_free(s);
			return CORDON_E_INVAL;
		}
		diag_set(diag, CORDON_E_NOMEM, "out of memory");
		ccperm_free(s);
		return CORDON_E_NOMEM;
	}
	for (int l = 0; l < 3; l++) {
		const struct strlist *src = lists[l];
		size_t n = src ? src->n : 0;

		if (n > CCPERM_MAX_RULES) {
			diag_set(diag, CORDON_E_LIMIT,
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
			diag_set(diag, CORDON_E_NOMEM, "out of memory");
			ccperm_free(s);
			return CORDON_E_NOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			const char *t = src->v[i] ? src->v[i] : "";

			if (parse_rule(t, (enum ccperm_list)l, i, &s->r[l][i],
				       &e)) {
				rule_release(&s->r[l][i]);
				diag_set(diag, e.code,
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

struct line {
	struct arena *a;
	const struct ccperm_set *s;
	struct seg *segs, **tail;
	struct text *texts;
	const char *refusal; /* why no allow rule may cover the line */
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

/* The last path component of a command name. */
static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

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

/* The literal text of a parsed word (quote removal done), or NULL when a
 * part is only known when it runs. *nul tells whether it holds a NUL. */
static char *literal_text(struct line *L, const struct sh_word *w, bool *nul)
{
	size_t n = 0, o = 0;
	char *s;

	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		if (p->kind != SH_WP_LIT)
			return NULL;
		if (p->len > SIZE_MAX - 1 - n)
			return NULL;
		n += p->len;
	}
	s = arena_alloc_raw(L->a, n + 1);
	if (!s) {
		L->oom = true;
		return NULL;
	}
	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		if (p->len)
			memcpy(s + o, p->s, p->len);
		o += p->len;
	}
	s[o] = '\0';
	if (nul)
		*nul = memchr(s, '\0', o) != NULL;
	return s;
}

/* The word views of one command of the list (arena), or NULL. Words the
 * classifier made up and cannot know (xargs' appended operand) are left
 * out: Claude Code's rules are about what is written. */
static struct wv *word_views(struct line *L, const struct cmd_run *c,
			     size_t *argcp)
{
	size_t argc = 0;
	struct wv *w;

	if (c->argc == 0 || c->argc > SIZE_MAX / sizeof(*w))
		return NULL;
	w = arena_alloc(L->a, c->argc * sizeof(*w));
	if (!w) {
		L->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < c->argc; i++) {
		const struct cmd_word *cw = &c->w[i];
		char *ev = arena_strndup(L->a, cw->s, cw->n);
		struct wv *v = &w[argc];
		bool nul = false;
		char *lit;

		if (!ev) {
			L->oom = true;
			return NULL;
		}
		if (!cw->src) {
			if (!cw->known)
				continue;
			v->plain = v->raw = ev;
			v->literal = true;
			v->nul = strlen(ev) != cw->n;
			v->glob = cw->glob;
			argc++;
			continue;
		}
		lit = literal_text(L, cw->src, &nul);
		v->raw = arena_strndup(L->a, cw->src->raw ? cw->src->raw : "",
				       cw->src->raw ? cw->src->raw_len : 0);
		if (!v->raw) {
			L->oom = true;
			return NULL;
		}
		v->literal = lit != NULL;
		v->nul = nul;
		v->glob = cw->glob;
		if (lit && (cw->tilde || strcmp(lit, ev) == 0)) {
			/* as written: "~/x" stays "~/x" */
			v->plain = lit;
			if (!cw->src->quoted)
				v->plain = brace_words(L, lit);
		} else if (lit) {
			/* one word of a brace expansion or an IFS split:
			 * the word that runs */
			v->plain = v->raw = ev;
		} else {
			v->plain = cw->known ? ev : v->raw;
		}
		argc++;
	}
	if (argc == 0)
		return NULL;
	*argcp = argc;
	return w;
}

/* Redirections: an output redirection to anything but /dev/null,
 * /dev/stdout and /dev/stderr, or a descriptor copy to something not a
 * descriptor, is refused for allow. */
static void redirs_refusal(struct line *L, const struct sh_redir *r)
{
	for (; r; r = r->next) {
		const char *t =
			r->target ? literal_text(L, r->target, NULL) : NULL;

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

/* A shell (the classifier read its command line already): with -c, or
 * reading commands from its input (no script operand), no rule allows it. */
static void shell_refusal(struct line *L, const struct wv *w, size_t k,
			  size_t argc)
{
	size_t i;

	for (i = k + 1; i < argc; i++) {
		const char *o = w[i].plain;

		if (!w[i].literal) {
			refuse(L, R_SHELL);
			return;
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
		if (o[0] == '-' && strchr(o + 1, 'c')) {
			refuse(L, R_SHELL);
			return;
		}
	}
	if (i >= argc)
		refuse(L, R_STDIN_SHELL);
}

/* Is the command of word view w a wrapper Claude Code strips before
 * matching (timeout, nice, nohup, stdbuf, time)? */
static bool claude_strips(const struct wv *w)
{
	const char *name;

	if (!w->literal)
		return false;
	name = base_name(w->plain);
	const struct wrapper *wr = wrappers_find(name, strlen(name), NULL, 0);
	return wr && (wr->flags & WF_CLAUDE);
}

/* One command of the list: a segment of its own, or, when the command
 * that started it is a wrapper Claude Code strips, a further form of that
 * command's segment, the one allow rules see. What no rule may allow is
 * noted in L->refusal. */
static void command(struct line *L, const struct cmdlist *cl, size_t i,
		    struct seg **segof, bool *strips)
{
	const struct cmd_run *c = &cl->v[i];
	struct seg *seg = NULL;
	const char *name;
	struct wv *w;
	size_t argc = 0;

	redirs_refusal(L, c->redirs);
	w = word_views(L, c, &argc);
	if (!w)
		return;
	if (c->parent && c->parent - 1 < i && strips[c->parent - 1] &&
	    segof[c->parent - 1] && cl->v[c->parent - 1].depth == c->depth) {
		seg = segof[c->parent - 1];
		seg->allow = add_forms(L, seg, w, 0, argc);
	} else {
		seg = new_seg(L);
		if (!seg)
			return;
		seg->allow = add_forms(L, seg, w, 0, argc);
	}
	segof[i] = seg;
	strips[i] = claude_strips(&w[0]);
	if (!w[0].literal) {
		refuse(L, R_DYNAMIC);
		return;
	}
	if (w[0].nul)
		refuse(L, R_NUL);
	if (w[0].glob) {
		refuse(L, R_DYNAMIC);
		glob_name_forms(L, seg, w, 0, argc);
	}
	name = base_name(w[0].plain);
	if (wrappers_is_shell(name, strlen(name)))
		shell_refusal(L, w, 0, argc);
	else if (strcmp(name, "eval") == 0)
		refuse(L, R_EVAL);
	else if (strcmp(name, "git") == 0)
		git_opts(L, w, 0, argc);
}

/* The line as the rules see it, from the classifier's list of the
 * commands it runs (cmdlist.h): one segment per command, the line and
 * every payload as whole texts, and why no allow rule may cover it. */
static void read_line(struct line *L, const char *cmd, size_t len,
		      const struct cmdlist *cl)
{
	struct seg **segof;
	bool *strips;

	add_text(L, cmd, len);
	if (!cl || cl->incomplete || !cl->tree.root) {
		/* not read (out of memory, over a limit): every deny and
		 * ask rule for Bash applies */
		L->oom = true;
		return;
	}
	if (cl->tree.err != CORDON_OK || cl->unparsed)
		refuse(L, R_PARSE);
	for (size_t i = 0; i < cl->ntexts; i++)
		add_text(L, cl->texts[i].s, cl->texts[i].n);
	if (cl->n && cl->n > SIZE_MAX / sizeof(*segof))
		return;
	segof = arena_alloc(L->a, (cl->n + 1) * sizeof(*segof));
	strips = arena_alloc(L->a, (cl->n + 1) * sizeof(*strips));
	if (!segof || !strips) {
		L->oom = true;
		return;
	}
	for (size_t i = 0; i < cl->n && !L->oom; i++)
		command(L, cl, i, segof, strips);
	for (size_t i = 0; i < cl->nvars; i++)
		if (var_is_risky(cl->vars[i].name, cl->vars[i].n))
			refuse(L, R_RISKY_VAR);
	if (cl->subst)
		refuse(L, R_SUBST);
	if (cl->procsub)
		refuse(L, R_PROCSUB);
	if (cl->test)
		refuse(L, R_TEST);
	if (cl->ntexts)
		refuse(L, R_SHELL);
	if (cl->too_deep)
		refuse(L, R_DEEP);
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
static int decide_bash(const struct ccperm_set *s, const cJSON *args,
		       const char *cwd, const struct cmdlist *cl, char *why,
		       size_t cap)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(args, "command");
	const char *cmd = cJSON_IsString(c) ? c->valuestring : NULL;
	struct arena a;
	struct line L;
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
	if (!cl) {
		/* called on its own (tests, the fuzz target): classify here */
		struct cordon_context ctx = { cwd, NULL, s->home, NULL };
		struct ccp_own *o = s->own;

		if (!o->cls)
			o->cls = cordon_classifier_new(&s->lim);
		if (!o->v)
			o->v = cordon_verdict_new();
		if (o->cls && o->v &&
		    cordon_classify(o->cls, &ctx, cmd, len, o->v, NULL) !=
			    CORDON_E_NOMEM)
			cl = cmdlist_of(o->v);
	}
	read_line(&L, cmd, len, cl);
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
	} else if (L.refusal && why && cap &&
		   (all || (L.segs && seg_allow_rule(s, L.segs)))) {
		/* a rule covers the line's command (all of it, or its first
		 * command when what it runs needs rules of its own) */
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
		return decide_bash(s, args, cwd, NULL, why, why_cap);
	return decide_other(s, tool, args, cwd, why, why_cap);
}

int ccperm_decide_cmds(const struct ccperm_set *s, const cJSON *args,
		       const char *cwd, const struct cmdlist *cmds, char *why,
		       size_t why_cap)
{
	if (why && why_cap)
		why[0] = '\0';
	if (!s)
		return -1;
	if (!cwd || cwd[0] != '/')
		cwd = "/";
	return decide_bash(s, args, cwd, cmds, why, why_cap);
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
		diag_set(diag, e.code, "permissions.%s[%zu]: %s in '%.80s'",
			 list_key[list], index, e.msg, text);
		return e.code;
	}
	if (note)
		*note = r.note;
	rule_release(&r);
	return CORDON_OK;
}
