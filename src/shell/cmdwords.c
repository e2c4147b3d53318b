/* cmdwords — see cmdwords.h. */
#include <stdint.h>
#include <string.h>

#include "cmdlist.h"
#include "cmdwords.h"
#include "sh.h"
#include "banned.h"

/* Scratch arena ceiling for cmdwords_matches_prefix: examples are single
 * command lines, already capped by max_input_bytes. */
#define CW_EXAMPLE_ARENA (64u * 1024 * 1024)

/* Does every part of w hold literal text? Words with $x, $( ), backticks,
 * arithmetic or process substitutions are only known when they run. */
static bool word_is_literal(const struct sh_word *w)
{
	for (const struct sh_wpart *p = w->parts; p; p = p->next)
		if (p->kind != SH_WP_LIT)
			return false;
	return true;
}

/* Does an unquoted part hold a character that makes the shell expand the
 * word into something else: a glob (* ? [) or a brace expansion ({)? */
static bool word_is_glob(const struct sh_word *w)
{
	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		if (p->quoted)
			continue;
		for (size_t i = 0; i < p->len; i++) {
			char c = p->s[i];
			if (c == '*' || c == '?' || c == '[' || c == '{')
				return true;
		}
	}
	return false;
}

/* Joins the literal parts of w into a NUL-terminated string in a. NULL when
 * out of memory or when the text holds a NUL byte (the word a program would
 * see is not the word a rule would compare). */
static char *word_join(struct arena *a, const struct sh_word *w, size_t *lenp)
{
	size_t n = 0;
	char *s, *o;

	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		if (p->len > SIZE_MAX - 1 - n)
			return NULL;
		n += p->len;
	}
	s = arena_alloc_raw(a, n + 1);
	if (!s)
		return NULL;
	o = s;
	for (const struct sh_wpart *p = w->parts; p; p = p->next) {
		if (p->len)
			memcpy(o, p->s, p->len);
		o += p->len;
	}
	*o = '\0';
	if (memchr(s, '\0', n))
		return NULL;
	if (lenp)
		*lenp = n;
	return s;
}

/* 2>&1, >&2, <&0, 2>&- : duplicating or closing a descriptor. */
static bool is_fd_target(const char *s, size_t n)
{
	if (n == 1 && s[0] == '-')
		return true;
	if (n == 0 || n > 9)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Redirections that cannot change what a command does to files: fd
 * duplications and /dev/null. Here-docs, here-strings and real files are
 * not plain. */
static bool redir_is_plain(struct arena *a, const struct sh_redir *r)
{
	const char *t;
	size_t n = 0;

	if (!r->target || !word_is_literal(r->target))
		return false;
	t = word_join(a, r->target, &n);
	if (!t)
		return false;
	switch (r->op) {
	case SH_R_DUP_IN:
	case SH_R_DUP_OUT:
		return is_fd_target(t, n);
	case SH_R_IN:
	case SH_R_OUT:
	case SH_R_APPEND:
	case SH_R_CLOBBER:
	case SH_R_RDWR:
	case SH_R_ALL:
	case SH_R_ALL_APPEND:
		return strcmp(t, "/dev/null") == 0;
	case SH_R_HEREDOC:
	case SH_R_HERESTRING:
		return false;
	}
	return false;
}

/* Is n a simple command with plain words and redirections only? */
static bool simple_is_plain(struct arena *a, const struct sh_node *n)
{
	if (n->kind != SH_SIMPLE || n->incomplete || n->assigns || !n->words)
		return false;
	for (const struct sh_word *w = n->words; w; w = w->next)
		if (!word_is_literal(w))
			return false;
	for (const struct sh_redir *r = n->redirs; r; r = r->next)
		if (!redir_is_plain(a, r))
			return false;
	return true;
}

/* Fills seg from the simple command n (already checked plain). */
static bool fill_seg(struct arena *a, const struct sh_node *n,
		     struct cw_seg *seg)
{
	size_t argc = 0, i = 0;

	for (const struct sh_word *w = n->words; w; w = w->next)
		argc++;
	if (argc > SIZE_MAX / sizeof(*seg->argv) - 1)
		return false;
	seg->argv = arena_alloc(a, (argc + 1) * sizeof(*seg->argv));
	seg->glob = arena_alloc(a, argc * sizeof(*seg->glob));
	if (!seg->argv || !seg->glob)
		return false;
	for (const struct sh_word *w = n->words; w; w = w->next, i++) {
		seg->argv[i] = word_join(a, w, NULL);
		if (!seg->argv[i])
			return false;
		seg->glob[i] = word_is_glob(w);
	}
	seg->argv[argc] = NULL;
	seg->argc = argc;
	return true;
}

/* The first command of a list item: the item itself when it is a bare
 * simple command, else the first command of its pipeline. */
static const struct sh_node *item_first(const struct sh_node *item)
{
	return item->kind == SH_PIPELINE ? item->child : item;
}

/* Is a list item plain? Adds its number of commands to *count. */
static bool item_is_plain(struct arena *a, const struct sh_node *item,
			  size_t *count)
{
	if (item->incomplete)
		return false;
	if (item->kind == SH_PIPELINE) {
		/* "! cmd" is not in the plain grammar: it changes what
		 * && and || after it run. */
		if (item->negated || !item->child)
			return false;
		for (const struct sh_node *c = item->child; c; c = c->next) {
			if (!simple_is_plain(a, c))
				return false;
			(*count)++;
		}
		return true;
	}
	if (!simple_is_plain(a, item))
		return false;
	(*count)++;
	return true;
}

static bool from_tree(struct arena *a, const struct sh_result *res,
		      struct cmdwords *out);

bool cmdwords_split(struct arena *a, const struct cordon_limits *lim,
		    const char *cmd, size_t len, struct cmdwords *out)
{
	struct cordon_limits deflim;
	struct sh_result res;

	out->seg = NULL;
	out->nseg = 0;
	if (!lim) {
		cordon_limits_default(&deflim);
		lim = &deflim;
	}
	if (!cmd || sh_parse(a, lim, cmd, len, &res) != CORDON_OK)
		return false;
	return from_tree(a, &res, out);
}

bool cmdwords_from_list(struct arena *a, const struct cmdlist *list,
			struct cmdwords *out)
{
	out->seg = NULL;
	out->nseg = 0;
	if (!list || list->incomplete || !list->tree.root)
		return false;
	return from_tree(a, &list->tree, out);
}

static bool from_tree(struct arena *a, const struct sh_result *res,
		      struct cmdwords *out)
{
	size_t count = 0, k = 0;

	out->seg = NULL;
	out->nseg = 0;
	if (res->err != CORDON_OK || !res->root ||
	    res->root->kind != SH_LIST || res->root->incomplete)
		return false;
	for (const struct sh_node *it = res->root->child; it; it = it->next)
		if (!item_is_plain(a, it, &count))
			return false;
	if (count == 0)
		return true;
	if (count > SIZE_MAX / sizeof(*out->seg))
		return false;
	out->seg = arena_alloc(a, count * sizeof(*out->seg));
	if (!out->seg)
		return false;
	for (const struct sh_node *it = res->root->child; it; it = it->next)
		for (const struct sh_node *c = item_first(it); c; c = c->next) {
			if (!fill_seg(a, c, &out->seg[k]))
				goto fail;
			k++;
			if (it->kind != SH_PIPELINE)
				break;
		}
	out->nseg = k;
	return true;
fail:
	out->seg = NULL;
	out->nseg = 0;
	return false;
}

bool cmdwords_seg_has_prefix(const struct cw_seg *s,
			     const struct strlist *prefix)
{
	if (!s || !prefix || prefix->n == 0 || s->argc < prefix->n)
		return false;
	for (size_t i = 0; i < prefix->n; i++) {
		if (s->glob[i] || !prefix->v[i] ||
		    strcmp(s->argv[i], prefix->v[i]) != 0)
			return false;
	}
	return true;
}

bool cmdwords_matches_prefix(const struct strlist *prefix,
			     const char *example)
{
	struct arena a;
	struct cmdwords cw;
	bool ok = false;

	if (!prefix || !example)
		return false;
	arena_init(&a, CW_EXAMPLE_ARENA);
	if (cmdwords_split(&a, NULL, example, strlen(example), &cw) &&
	    cw.nseg > 0) {
		ok = true;
		for (size_t i = 0; i < cw.nseg && ok; i++)
			ok = cmdwords_seg_has_prefix(&cw.seg[i], prefix);
	}
	arena_release(&a);
	return ok;
}
