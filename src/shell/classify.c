/* classify — the walk over a parse tree, the table matcher, the deny list
 * and the public classifier API. Command-specific judgement (rm, wrappers,
 * shells, interpreters …) is in commands.c.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "classify_int.h"
#include "cmdtab.h"
#include "codescan.h"
#include "diag.h"
#include "text.h"
#include "userrules.h"
#include "wrappers.h"
#include "alloc.h"
#include "codeshape.h"
#include "names.h"
#include "banned.h"

/* ---- the structural deny list --------------------------------------------- */

struct deny_entry {
	const char *id;
	const char *text;   /* as given */
	const char *name;   /* command name */
	char shorts[32];    /* required short flags */
	const char *longs[4];
	size_t nlongs;
	const char *ops[6]; /* required operands (fnmatch patterns) */
	const char *ops_abs[6]; /* ops[k] normalised when it starts with "/" */
	size_t nops;
	const char *unless[4]; /* "!-c": flags that make the entry not apply */
	size_t nunless;
	size_t next; /* the next entry whose name has the same first byte, in
		      * list order, or SIZE_MAX (deny_lead_set) */
};

static const struct {
	const char *id;
	const char *text;
} default_denied[] = {
	{"deny.rm-root", "rm -rf /"},
	{"deny.rm-root-glob", "rm -rf /*"},
	{"deny.rm-home", "rm -rf ~"},
	{"deny.rm-home-glob", "rm -rf ~/*"},
	{"deny.rm-no-preserve-root", "rm --no-preserve-root"},
	{"deny.mkfs", "mkfs"},
	{"deny.shutdown", "shutdown !-c !--show"},
	{"deny.reboot", "reboot"},
	{"deny.halt", "halt"},
	{"deny.poweroff", "poweroff"},
	{"deny.init-0", "init 0"},
	{"deny.init-6", "init 6"},
	{"deny.chmod-777-root", "chmod -R 777 /"},
	{"deny.chown-root", "chown -R * /"},
	{"deny.nc-e", "nc -e"},
	{"deny.nc-c", "nc -c"},
	{"deny.ncat-e", "ncat -e"},
	{"deny.ncat-c", "ncat -c"},
	{"deny.netcat-e", "netcat -e"},
	{"deny.history-c", "history -c"},
	{"deny.dd-device", "dd of=/dev/sd*"},
	{"deny.dd-nvme", "dd of=/dev/nvme*"},
};

/* SHELLS in a pattern stands for the shells of the wrapper table
 * (wrappers_shell_alternation), put in when the pattern is compiled. */
#define SHELLS "@SHELLS@"

static const struct {
	const char *id;
	const char *pattern;
	const char *reason;
	/* literal text the pattern cannot match without (one of them):
	 * a line that holds none of any pattern's is not matched at all */
	const char *need[4];
} default_patterns[] = {
	{"deny.pattern.curl-pipe-shell",
	 "\\b(curl|wget|fetch)\\b[^|;&]*\\|\\s*(sudo\\s+(-\\S+\\s+)*)?"
	 "(\\S*/)?(" SHELLS ")\\b",
	 "downloads a script and pipes it into a shell",
	 {"curl", "wget", "fetch"}},
	{"deny.pattern.curl-pipe-interpreter",
	 "\\b(curl|wget)\\b[^|;&]*\\|\\s*(sudo\\s+(-\\S+\\s+)*)?"
	 "(\\S*/)?(python[0-9.]*|perl|ruby|node|php)\\b\\s*(-\\s*)?($|[;&|)])",
	 "downloads code and pipes it into an interpreter",
	 {"curl", "wget"}},
	{"deny.pattern.shell-procsub-download",
	 "\\b(" SHELLS ")\\s+<\\(\\s*(curl|wget)\\b",
	 "runs a script straight from a download",
	 {"curl", "wget"}},
	{"deny.pattern.eval-download",
	 "\\beval\\s+[\"']?\\$\\(\\s*(curl|wget)\\b",
	 "evaluates a downloaded script",
	 {"curl", "wget"}},
	{"deny.pattern.fork-bomb",
	 ":\\s*\\(\\s*\\)\\s*\\{\\s*:\\s*\\|\\s*:\\s*&\\s*\\}\\s*;\\s*:",
	 "the classic fork bomb",
	 {"{"}},
};

/* ---- the family index -------------------------------------------------------- */

/* A family's rows (cmdtab_rules' indices, in table order) are found in the
 * name index (names.h), made at build time from the table: a command name
 * is one probe for every role it has. What a classifier makes of a family
 * when it first meets it: */

/* A rule row's fields split once into (pointer, length) words, so matching
 * a command does no string scanning of the table: each subcommand word's
 * '|' alternatives folded to lower case, and the flag, unless and glob
 * words. A row is split the first time its family is looked up (a hook
 * process classifies one command and uses one or two families). */
struct rspan {
	const char *s;
	size_t n;
};

struct crow {
	bool ready;
	uint8_t nsub;            /* subcommand words */
	uint8_t nalt[4];         /* each word's alternatives, in alts */
	const struct rspan *alts;
	const struct rspan *flags, *unless, *args;
	size_t nflags, nunless, nargs;
	const char *args_lit0;   /* per glob: its literal first byte, or 0 */
};

struct fam_slot {
	/* Made on first use (index_slot): rows[i] is rule rules[i] split.
	 * For a family of at most 64 rows bit i stands for rules[i]:
	 * nosub: the rows without a subcommand; sub[b]: the rows with a
	 * first subcommand word whose word_bucket() is b; submax: the
	 * longest such word. */
	bool indexed;
	struct crow *rows;
	size_t submax;
	uint64_t nosub;
	uint64_t *sub;
};

/* A family found by name: its rules and where its slot goes. */
struct fam {
	const uint16_t *rules;
	size_t nrules;
	struct fam_slot **sl; /* NULL until its first use */
};

struct cordon_classifier {
	struct cordon_limits lim;
	unsigned max_depth;
	struct arena arena;
	struct urules *user;
	struct urules *deny_rx;
	struct deny_entry *deny;
	size_t ndeny;
	/* by the first byte of the name: the first entry, or SIZE_MAX; the
	 * rest follow deny_entry.next */
	size_t deny_first[256];
	struct arena deny_arena;
	bool deny_rx_builtin; /* deny_rx holds the built-in patterns */
	struct urules *deny_rx_extra; /* patterns added to the list in force */
	/* per family of the name index (names_fam_count), its slot, made
	 * in row_arena on first use: a hook process uses one or two */
	struct fam_slot **fam;
	struct arena row_arena; /* the split rows and the masks */
	bool indexed; /* fam is made (index_ready) */
	struct cx *x;   /* the walk in progress, for callbacks */
	/* the last context seen, raw and normalised: callers pass the
	 * same one again and again */
	char *ctx_raw[4];
	const char *ctx_norm[4];
	struct arena ctx_arena;
};

/* The family named s[0..n); false when there is none. Only after
 * index_ready(). */
static bool fam_find(const struct cordon_classifier *c, const char *s,
		     size_t n, struct fam *out)
{
	const struct name_roles *r = names_find(s, n);

	if (!r || !r->fam)
		return false;
	out->rules = names_fam_rules + r->fam_first;
	out->nrules = r->fam_n;
	out->sl = &c->fam[r->fam - 1];
	return true;
}

/* One of 64 buckets for a word, folded to lower case as word_alt_eq
 * compares. */
static unsigned word_bucket(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (unsigned char)(ch - 'A' + 'a');
		h = (h ^ ch) * 16777619u;
	}
	return (h ^ (h >> 16)) & 63;
}

/* The words of a space-separated field, in the row arena. */
static bool split_words(struct arena *a, const char *f, const struct rspan **out,
			size_t *nout)
{
	size_t n = 0;
	struct rspan *w;

	*out = NULL;
	*nout = 0;
	if (!f)
		return true;
	for (const char *t = f; *t;) {
		size_t k = strcspn(t, " ");
		n += k != 0;
		t += k;
		while (*t == ' ')
			t++;
	}
	if (!n)
		return true;
	w = arena_alloc(a, n * sizeof(*w));
	if (!w)
		return false;
	n = 0;
	for (const char *t = f; *t;) {
		size_t k = strcspn(t, " ");
		if (k)
			w[n++] = (struct rspan){ t, k };
		t += k;
		while (*t == ' ')
			t++;
	}
	*out = w;
	*nout = n;
	return true;
}

static bool split_row(struct cordon_classifier *c, size_t ri, struct crow *row)
{
	const struct cmd_rule *r = &cmdtab_rules[ri];
	const char *sub = cmdtab_str(r->sub);
	struct arena *a = &c->row_arena;

	memset(row, 0, sizeof(*row)); /* a split cut short is redone */
	if (sub) {
		/* every word's alternatives, lower-cased: "s3 rm|rb" */
		size_t total = 0, nw = 0;
		for (const char *t = sub; *t; t++)
			total += *t == '|' || *t == ' ';
		struct rspan *alts = arena_alloc(a, (total + 1) * sizeof(*alts));
		char *low = arena_strndup(a, sub, strlen(sub));
		if (!alts || !low)
			return false;
		for (char *t = low; *t; t++)
			*t = (char)tolower((unsigned char)*t);
		size_t na = 0;
		const char *t = low;
		while (*t == ' ')
			t++;
		while (*t) {
			/* a sub of more than four words would not fit nalt:
			 * the table has three at most */
			if (nw == sizeof(row->nalt))
				return false;
			size_t wn = strcspn(t, " ");
			const char *we = t + wn;
			uint8_t k = 0;
			for (;;) {
				const char *bar = memchr(t, '|', (size_t)(we - t));
				size_t n = bar ? (size_t)(bar - t) : (size_t)(we - t);
				alts[na++] = (struct rspan){ t, n };
				k++;
				if (!bar)
					break;
				t = bar + 1;
			}
			row->nalt[nw++] = k;
			t = we;
			while (*t == ' ')
				t++;
		}
		row->alts = alts;
		row->nsub = (uint8_t)nw;
	}
	if (!split_words(a, cmdtab_str(r->flags), &row->flags, &row->nflags) ||
	    !split_words(a, cmdtab_str(r->unless), &row->unless,
			 &row->nunless) ||
	    !split_words(a, cmdtab_str(r->args), &row->args, &row->nargs))
		return false;
	if (row->nargs) {
		char *lit = arena_alloc(a, row->nargs);
		if (!lit)
			return false;
		for (size_t k = 0; k < row->nargs; k++) {
			char ch = row->args[k].s[0];
			lit[k] = strchr("*?[\\", ch) ? 0 : ch;
		}
		row->args_lit0 = lit;
	}
	row->ready = true;
	return true;
}

/* Splits a family's rows and makes its masks (struct fam_slot). A split
 * cut short is redone on the next call. */
static bool index_slot(struct cordon_classifier *c, const struct fam *f)
{
	struct fam_slot *sl = *f->sl;

	if (!sl) {
		sl = arena_alloc(&c->row_arena, sizeof(*sl));
		if (!sl)
			return false;
		memset(sl, 0, sizeof(*sl));
		*f->sl = sl;
	}
	if (!sl->rows) {
		sl->rows = arena_alloc(&c->row_arena,
				       f->nrules * sizeof(*sl->rows));
		if (!sl->rows)
			return false;
		memset(sl->rows, 0, f->nrules * sizeof(*sl->rows));
	}
	for (size_t i = 0; i < f->nrules; i++)
		if (!sl->rows[i].ready &&
		    !split_row(c, f->rules[i], &sl->rows[i]))
			return false;
	if (f->nrules <= 64) {
		sl->sub = arena_alloc(&c->row_arena, 64 * sizeof(*sl->sub));
		if (!sl->sub)
			return false;
		memset(sl->sub, 0, 64 * sizeof(*sl->sub));
		sl->nosub = 0;
		sl->submax = 0;
		for (size_t i = 0; i < f->nrules; i++) {
			const struct crow *row = &sl->rows[i];
			uint64_t bit = UINT64_C(1) << i;
			if (!row->nsub) {
				sl->nosub |= bit;
				continue;
			}
			for (size_t k = 0; k < row->nalt[0]; k++) {
				const struct rspan *a = &row->alts[k];
				sl->sub[word_bucket(a->s, a->n)] |= bit;
				if (a->n > sl->submax)
					sl->submax = a->n;
			}
		}
	}
	sl->indexed = true;
	return true;
}

/* The classifier's slots of the family index, made by the first
 * classification rather than by cordon_classifier_new(): a hook process
 * builds a classifier for every tool call and classifies only the shell
 * ones. Without the name index (only in indexgen) nothing is classified:
 * the families would go unseen. */
static bool index_ready(struct cordon_classifier *c)
{
	if (c->indexed)
		return true;
	if (!names_ready())
		return false;
	c->fam = cordon__calloc(names_fam_count ? names_fam_count : 1,
				sizeof(*c->fam));
	if (!c->fam)
		return false;
	c->indexed = true;
	return true;
}

bool classify_index_built(const struct cordon_classifier *c)
{
	return c->indexed;
}

/* ---- matching a table row ------------------------------------------------------ */

static bool is_flag(const struct wv *w)
{
	return w->n > 1 && w->s[0] == '-';
}

/* Does argv (from index 1, up to "--") carry the flag spec word f[0..fn)? */
static bool has_flag(struct wv *argv, size_t argc, const char *f, size_t fn)
{
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (w->n == 2 && w->s[0] == '-' && w->s[1] == '-')
			return fn == 2 && f[0] == '-' && f[1] == '-';
		if (fn == 1 && f[0] == '+') {
			if (w->n > 1 && w->s[0] == '+')
				return true;
			continue;
		}
		if (!is_flag(w))
			continue;
		if (fn == 2 && f[0] == '-' && f[1] != '-') {
			/* short flag, also inside a cluster "-fdx" */
			if (w->s[1] == '-')
				continue;
			if (w->n == 2 && w->s[1] == f[1])
				return true;
			bool cluster = w->n <= 7;
			for (size_t k = 1; cluster && k < w->n; k++)
				if (!isalpha((unsigned char)w->s[k]))
					cluster = false;
			if (cluster && memchr(w->s + 1, f[1], w->n - 1))
				return true;
			continue;
		}
		/* "--long" or "-single-dash-long": exact or with "=" */
		if (w->n >= fn && memcmp(w->s, f, fn) == 0 &&
		    (w->n == fn || w->s[fn] == '='))
			return true;
		/* GNU-style tools accept an unambiguous prefix: git push
		 * --mirr is --mirror. Five characters at least ("--for"). */
		if (fn > 2 && f[1] == '-' && w->s[1] == '-' && !memchr(f, '=', fn)) {
			const char *eq = memchr(w->s, '=', w->n);
			size_t wn = eq ? (size_t)(eq - w->s) : w->n;
			if (wn >= 5 && wn < fn && memcmp(w->s, f, wn) == 0)
				return true;
		}
	}
	return false;
}

static bool any_flag(struct wv *argv, size_t argc, const struct rspan *spec,
		     size_t nspec)
{
	for (size_t k = 0; k < nspec; k++)
		if (has_flag(argv, argc, spec[k].s, spec[k].n))
			return true;
	return false;
}

/* Is w one of the n alternatives (lower case)? ASCII case folding, as
 * strncasecmp does in the C locale. */
static bool word_alt_eq(const struct rspan *alts, size_t n, const struct wv *w)
{
	for (size_t k = 0; k < n; k++) {
		if (alts[k].n != w->n)
			continue;
		size_t i = 0;
		while (i < w->n) {
			unsigned char ch = (unsigned char)w->s[i];
			if (ch >= 'A' && ch <= 'Z')
				ch = (unsigned char)(ch - 'A' + 'a');
			if (ch != (unsigned char)alts[k].s[i])
				break;
			i++;
		}
		if (i == w->n)
			return true;
	}
	return false;
}

/* The operands: arguments that are not flags, up to the end. */
static size_t operands(struct wv *argv, size_t argc, size_t *idx, size_t max,
		       size_t *lead)
{
	size_t n = 0;
	bool dashdash = false;

	*lead = SIZE_MAX;
	for (size_t i = 1; i < argc && n < max; i++) {
		if (!dashdash && argv[i].n == 2 && memcmp(argv[i].s, "--", 2) == 0) {
			dashdash = true;
			*lead = n;
			continue;
		}
		if (!dashdash && is_flag(&argv[i]))
			continue;
		idx[n++] = i;
	}
	return n;
}

/* fnmatch(3) without flags for the patterns of the rule table, on
 * (ptr, len) strings: '*', '?', bracket expressions and backslash escapes.
 * Backtracks only to the last '*', so it is linear in practice. */
static bool glob_match(const char *p, size_t pn, const char *s, size_t sn)
{
	size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0;

	while (si < sn) {
		if (pi < pn && p[pi] == '*') {
			star_p = pi++;
			star_s = si;
			continue;
		}
		if (pi < pn && p[pi] == '[') {
			/* [abc], [a-z], [!x] */
			size_t q = pi + 1;
			bool neg = q < pn && (p[q] == '!' || p[q] == '^');
			bool hit = false;
			if (neg)
				q++;
			size_t first = q;
			while (q < pn && (p[q] != ']' || q == first)) {
				if (q + 2 < pn && p[q + 1] == '-' && p[q + 2] != ']') {
					if (s[si] >= p[q] && s[si] <= p[q + 2])
						hit = true;
					q += 3;
				} else {
					if (s[si] == p[q])
						hit = true;
					q++;
				}
			}
			if (q < pn && hit != neg) {
				pi = q + 1;
				si++;
				continue;
			}
		} else if (pi < pn && (p[pi] == '?' ||
				       (p[pi] == '\\' && pi + 1 < pn && p[pi + 1] == s[si]) ||
				       p[pi] == s[si])) {
			pi += p[pi] == '\\' ? 2 : 1;
			si++;
			continue;
		}
		if (star_p == (size_t)-1)
			return false;
		pi = star_p + 1;
		si = ++star_s;
	}
	while (pi < pn && p[pi] == '*')
		pi++;
	return pi == pn;
}

/* flagged: argv carries a word a flag spec can match (one starting
 * with '-' or '+'); without one no flags or unless spec matches. */
static bool rule_matches(const struct crow *r, bool flagged, struct wv *argv,
			 size_t argc, const size_t *ops, size_t nops,
			 size_t nfirst)
{
	size_t after = 0; /* operands consumed by sub */

	if (r->nsub) {
		bool found = false;
		for (size_t start = 0; start < nfirst && start < nops && !found;
		     start++) {
			if (!word_alt_eq(r->alts, r->nalt[0], &argv[ops[start]]))
				continue;
			const struct rspan *a = r->alts + r->nalt[0];
			size_t k = start + 1;
			bool ok = true;
			for (size_t wi = 1; wi < r->nsub; wi++) {
				if (k >= nops ||
				    !word_alt_eq(a, r->nalt[wi], &argv[ops[k]])) {
					ok = false;
					break;
				}
				a += r->nalt[wi];
				k++;
			}
			if (ok) {
				found = true;
				after = k;
			}
		}
		if (!found)
			return false;
	}
	if (r->nflags &&
	    (!flagged || !any_flag(argv, argc, r->flags, r->nflags)))
		return false;
	if (r->nunless && flagged && any_flag(argv, argc, r->unless, r->nunless))
		return false;
	if (r->nargs) {
		bool any = false;
		for (size_t k = after; k < nops && !any; k++) {
			const struct wv *w = &argv[ops[k]];
			for (size_t g = 0; g < r->nargs && !any; g++) {
				char lit = r->args_lit0[g];
				if (lit && (!w->n || w->s[0] != lit))
					continue;
				if (glob_match(r->args[g].s, r->args[g].n, w->s,
					       w->n))
					any = true;
			}
		}
		if (!any)
			return false;
	}
	return true;
}

/* Is this invocation a question the tool answers without acting: a help
 * option before "--" (--help, -help; -h too when the row has a
 * subcommand, since "shutdown -h" halts), "help SUB" ("docker help rm",
 * "npm help uninstall"), or "auth can-i VERB" (kubectl asks the API
 * server whether it may)? The rows that name a subcommand then do not
 * apply, and a row without one still does unless its flags name -h. */
enum table_query { TQ_NONE, TQ_HELP_H, TQ_HELP };

static enum table_query table_query(struct wv *argv, size_t argc,
				    const size_t *ops, size_t nops)
{
	enum table_query q = TQ_NONE;

	for (size_t i = 1; i < argc; i++) {
		if (!classify_word_static(&argv[i]))
			continue;
		if (classify_word_is(&argv[i], "--"))
			break;
		if (classify_word_is(&argv[i], "--help") ||
		    classify_word_is(&argv[i], "-help"))
			return TQ_HELP;
		if (classify_word_is(&argv[i], "-h"))
			q = TQ_HELP_H;
	}
	if (nops >= 1 && classify_word_is(&argv[ops[0]], "help") && nops >= 2)
		return TQ_HELP;
	/* the AWS CLI's help is its last word: aws s3 rm help */
	if (nops >= 2 && classify_word_is(&argv[0], "aws") &&
	    classify_word_is(&argv[argc - 1], "help"))
		return TQ_HELP;
	for (size_t k = 0; k + 2 < nops && k < 2; k++)
		if (classify_word_is(&argv[ops[k]], "auth") &&
		    classify_word_is(&argv[ops[k + 1]], "can-i"))
			return TQ_HELP;
	return q;
}

/* Does this row stand when the invocation is a query (table_query)? */
static bool row_stands_query(const struct cmd_rule *r, enum table_query q)
{
	if (q == TQ_NONE)
		return true;
	if (q == TQ_HELP_H)
		return !r->sub ||
		       (r->flags && strstr(cmdtab_str(r->flags), "-h"));
	return false;
}

bool classify_family_known(const struct cx *x, const char *name, size_t n)
{
	struct fam f;

	return fam_find(x->cls, name, n, &f);
}

void classify_apply_table(struct cx *x, struct wv *argv, size_t argc)
{
	size_t n;
	const char *name = classify_cmd_base(&argv[0], &n);
	struct fam f;
	bool found = fam_find(x->cls, name, n, &f);

	if (!found) {
		/* A dotted name falls back to its family: mkfs.ext4 -> mkfs. */
		const char *dot = memchr(name, '.', n);
		if (dot && dot > name && !commands_script_suffix(name, n))
			found = fam_find(x->cls, name, (size_t)(dot - name),
					 &f);
	}
	if (!found)
		return;
	size_t ops[64];
	size_t lead;
	size_t nops = operands(argv, argc, ops, 64, &lead);
	/* A subcommand comes before a "--": what follows it is the
	 * operands' (npm test -- --grep x is not npm x). */
	size_t nfirst = lead < 3 ? lead : 3;
	bool flagged = false;
	for (size_t i = 1; i < argc && !flagged; i++)
		flagged = argv[i].n > 1 &&
			  (argv[i].s[0] == '-' || argv[i].s[0] == '+');
	if ((!*f.sl || !(*f.sl)->indexed) && !index_slot(x->cls, &f)) {
		/* out of memory: the verdict says so, as the walk's other
		 * allocations do */
		x->v->oom = true;
		return;
	}
	const struct fam_slot *sl = *f.sl;
	/* The rows that can match: those without a subcommand and those
	 * whose first subcommand word falls in the bucket of one of the
	 * first three operands (rule_matches looks no further). A family
	 * of more than 64 rows, which the table does not have, tries all. */
	uint64_t cand = f.nrules < 64 ? (UINT64_C(1) << f.nrules) - 1
					 : ~UINT64_C(0);
	if (sl->sub) {
		cand = sl->nosub;
		for (size_t k = 0; k < nfirst && k < nops; k++)
			if (argv[ops[k]].n <= sl->submax)
				cand |= sl->sub[word_bucket(argv[ops[k]].s,
							    argv[ops[k]].n)];
	}
	/* read only when a row matches: most commands match none */
	int q = -1;
	bool held = false;
	for (size_t i = 0; i < f.nrules;) {
		if (i < 64) {
			uint64_t rest = cand >> i;
			if (!rest) {
				if (sl->sub)
					break;
				i = 64;
				continue;
			}
			i += (size_t)__builtin_ctzll(rest);
		}
		const struct crow *row = &sl->rows[i];
		const struct cmd_rule *r = &cmdtab_rules[f.rules[i++]];
		if (!rule_matches(row, flagged, argv, argc, ops,
				  nops, nfirst))
			continue;
		if (q < 0)
			q = (int)table_query(argv, argc, ops, nops);
		if (row_stands_query(r, (enum table_query)q))
			classify_hit(x, r->tier, r->labels, cmdtab_str(r->id),
				     cmdtab_str(r->reason));
		else
			held = true;
	}
	if (held)
		classify_rule(x, RULE_HELP_QUERY);
}

/* ---- deny list ------------------------------------------------------------------- */

/* rm -R is rm -r, --recursive and --force are -r and -f; chmod/chown/chgrp
 * spell recursion -R. */
static char flag_alias(const char *cmd, const char *longf, size_t n, char c)
{
	bool rm = strcmp(cmd, "rm") == 0;
	bool ch = strcmp(cmd, "chmod") == 0 || strcmp(cmd, "chown") == 0 ||
		  strcmp(cmd, "chgrp") == 0;

	if (longf) {
		if (n == 9 && memcmp(longf, "recursive", 9) == 0)
			return rm ? 'r' : ch ? 'R' : 0;
		if (n == 5 && memcmp(longf, "force", 5) == 0)
			return 'f';
		return 0;
	}
	if (rm && c == 'R')
		return 'r';
	return c;
}

static bool deny_parse(struct cordon_classifier *c, struct deny_entry *e,
		       const char *id, const char *text)
{
	char *copy = arena_strndup(&c->deny_arena, text, strlen(text));
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->text = arena_strndup(&c->deny_arena, text, strlen(text));
	if (!copy || !e->text)
		return false;
	char *save = NULL;
	(void)save;
	char *p = copy;
	bool first = true;
	while (*p) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		char *tok = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
		if (first) {
			e->name = tok;
			first = false;
		} else if (tok[0] == '!' && tok[1] == '-') {
			if (e->nunless < 4)
				e->unless[e->nunless++] = tok + 1;
		} else if (tok[0] == '-' && tok[1] == '-' && tok[2]) {
			char a = flag_alias(e->name, tok + 2, strlen(tok + 2), 0);
			size_t sl = strlen(e->shorts);
			if (a && sl < sizeof(e->shorts) - 1) {
				e->shorts[sl] = a;
			} else if (e->nlongs < 4) {
				e->longs[e->nlongs++] = tok;
			}
		} else if (tok[0] == '-' && tok[1] && !(tok[1] >= '0' && tok[1] <= '9' && tok[0] == '-' && strcmp(e->name, "kill") == 0 && tok[2] == '\0' && false)) {
			for (char *q = tok + 1; *q; q++) {
				size_t sl = strlen(e->shorts);
				char a = flag_alias(e->name, NULL, 0, *q);
				if (sl < sizeof(e->shorts) - 1 && !strchr(e->shorts, a))
					e->shorts[sl] = a;
			}
		} else if (e->nops < 6) {
			e->ops[e->nops++] = tok;
		}
	}
	/* "kill -9 -1": a numeric "-1" is an operand of kill, not a flag. */
	if (e->name && strcmp(e->name, "kill") == 0) {
		/* rebuild from text: flags that are digits are operands */
		e->shorts[0] = '\0';
		e->nops = 0;
		const char *t = text + strlen("kill");
		char *dup = arena_strndup(&c->deny_arena, t, strlen(t));
		if (!dup)
			return false;
		for (char *q = strtok_r(dup, " ", &save); q;
		     q = strtok_r(NULL, " ", &save))
			if (e->nops < 6)
				e->ops[e->nops++] = q;
	}
	/* an operand that is an absolute path is the same path for every
	 * command: normalised once here, not at every match */
	for (size_t k = 0; k < e->nops; k++) {
		if (e->ops[k][0] != '/')
			continue;
		e->ops_abs[k] = path_normalize(&c->deny_arena, "/", e->ops[k],
					       strlen(e->ops[k]));
		if (!e->ops_abs[k])
			return false;
	}
	return e->name != NULL;
}

/* Recomputes the first-byte chains (deny_first) after the entries
 * changed. */
static void deny_lead_set(struct cordon_classifier *c)
{
	for (size_t b = 0; b < 256; b++)
		c->deny_first[b] = SIZE_MAX;
	for (size_t i = c->ndeny; i-- > 0;) {
		unsigned char b = (unsigned char)c->deny[i].name[0];
		c->deny[i].next = c->deny_first[b];
		c->deny_first[b] = i;
	}
}

static bool set_denied(struct cordon_classifier *c, const char *const *ids,
		       const char *const *texts, size_t n)
{
	struct deny_entry *d = n ? cordon__calloc(n, sizeof(*d)) : NULL;

	if (n && !d)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!deny_parse(c, &d[i], ids[i], texts[i])) {
			free(d);
			return false;
		}
	free(c->deny);
	c->deny = d;
	c->ndeny = n;
	deny_lead_set(c);
	return true;
}

/* Does the command carry short flag f (with aliases)? */
static bool cmd_has_short(const char *name, struct wv *argv, size_t argc, char f)
{
	for (size_t i = 1; i < argc; i++) {
		const struct wv *w = &argv[i];
		if (w->n == 2 && memcmp(w->s, "--", 2) == 0)
			break;
		if (!is_flag(w))
			continue;
		if (w->s[1] == '-') {
			if (flag_alias(name, w->s + 2, w->n - 2, 0) == f)
				return true;
			continue;
		}
		if (w->s[1] >= '0' && w->s[1] <= '9')
			continue;
		for (size_t k = 1; k < w->n; k++)
			if (flag_alias(name, NULL, 0, w->s[k]) == f)
				return true;
	}
	return false;
}

/* The command's operands as absolute paths, each normalised at most once
 * for all the entries of one command: abs[i] for argv[i], NULL until
 * asked. */
struct deny_paths {
	const char **abs;
	bool *done;
};

static const char *deny_operand_abs(struct cx *x, struct deny_paths *dp,
				    struct wv *argv, size_t argc, size_t i)
{
	if (!dp->abs) {
		dp->abs = arena_alloc(x->a, argc * sizeof(*dp->abs));
		dp->done = arena_alloc(x->a, argc * sizeof(*dp->done));
		if (!dp->abs || !dp->done) {
			dp->abs = NULL;
			return path_normalize(x->a, x->pc.cwd, argv[i].s,
					      argv[i].n);
		}
	}
	if (!dp->done[i]) {
		dp->abs[i] = path_normalize(x->a, x->pc.cwd, argv[i].s,
					    argv[i].n);
		dp->done[i] = dp->abs[i] != NULL;
	}
	return dp->abs[i];
}

/* Path-like entry operands (starting with "/" or "~") compare with the
 * command's operands after both are normalised, literally: an entry that
 * ends in a glob is that glob itself, not every path it would match.
 * Other operands are fnmatch patterns. */
static bool cmd_has_operand(struct cx *x, const char *name, struct wv *argv,
			    size_t argc, const struct deny_entry *e, size_t k,
			    struct deny_paths *dp)
{
	const char *pat = e->ops[k];
	bool kill = strcmp(name, "kill") == 0;
	bool pathy = pat[0] == '/' || pat[0] == '~';
	const char *want = pat;

	if (pathy) {
		if (pat[0] == '~') {
			/* the home of this context, then the rest */
			size_t hl = strlen(x->pc.home), tl = strlen(pat + 1);
			char *h = arena_alloc_raw(x->a, hl + tl + 1);

			if (!h)
				return false;
			memcpy(h, x->pc.home, hl);
			memcpy(h + hl, pat + 1, tl + 1);
			want = path_normalize(x->a, "/", h, hl + tl);
		} else {
			want = e->ops_abs[k];
		}
		if (!want)
			return false;
	}
	for (size_t i = 1; i < argc; i++) {
		struct wv *w = &argv[i];
		if (!kill && is_flag(w))
			continue;
		if (w->f & (WV_DYNAMIC | WV_SUBST))
			continue;
		if (pathy) {
			const char *abs = deny_operand_abs(x, dp, argv, argc, i);
			if (abs && strcmp(abs, want) == 0)
				return true;
			continue;
		}
		char val[1024];
		size_t vn = w->n < sizeof(val) - 1 ? w->n : sizeof(val) - 1;
		memcpy(val, w->s, vn);
		val[vn] = '\0';
		if (fnmatch(want, val, 0) == 0)
			return true;
	}
	return false;
}

void classify_apply_denylist(struct cx *x, struct wv *argv, size_t argc)
{
	size_t n;
	const char *base = classify_cmd_base(&argv[0], &n);
	char name[64];
	struct deny_paths dp = { NULL, NULL };

	if (n == 0 || n >= sizeof(name))
		return;
	/* only the entries whose name starts with this byte can match */
	size_t first = x->cls->deny_first[(unsigned char)base[0]];
	if (first == SIZE_MAX)
		return;
	memcpy(name, base, n);
	name[n] = '\0';
	for (size_t i = first; i != SIZE_MAX; i = x->cls->deny[i].next) {
		const struct deny_entry *e = &x->cls->deny[i];
		size_t en = strlen(e->name);
		if (!(strcmp(e->name, name) == 0 ||
		      (strncmp(name, e->name, en) == 0 && name[en] == '.' &&
		       !commands_script_suffix(name, n))))
			continue;
		bool ok = true;
		for (const char *f = e->shorts; *f && ok; f++)
			ok = cmd_has_short(name, argv, argc, *f);
		for (size_t k = 0; k < e->nlongs && ok; k++)
			ok = has_flag(argv, argc, e->longs[k],
				      strlen(e->longs[k]));
		for (size_t k = 0; k < e->nops && ok; k++)
			ok = cmd_has_operand(x, name, argv, argc, e, k, &dp);
		for (size_t k = 0; k < e->nunless && ok; k++)
			ok = !has_flag(argv, argc, e->unless[k],
				       strlen(e->unless[k]));
		if (ok)
			classify_hit(x, CORDON_RISK_BLOCKED, CORDON_L(DENYLISTED),
			       e->id,
			       verdict_printf(x->v, "matches the deny list entry \"%s\"",
					      e->text));
	}
}

/* ---- words --------------------------------------------------------------------------- */

bool classify_is_ifs(const struct cx *x, char c)
{
	const char *ifs = x->ifs ? x->ifs : " \t\n";
	return c && strchr(ifs, c) != NULL;
}


const char *classify_cmd_base(const struct wv *w, size_t *n)
{
	const char *s = w->s;
	size_t len = w->n;
	const char *slash = NULL;

	for (size_t i = 0; i < len; i++)
		if (s[i] == '/')
			slash = s + i;
	if (slash && slash + 1 < s + len) {
		len -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	/* sc.exe is sc, powershell.exe is powershell (the '.' first: this
	 * runs several times for every command) */
	if (len > 4 && s[len - 4] == '.' &&
	    strncasecmp(s + len - 3, "exe", 3) == 0)
		len -= 4;
	*n = len;
	return s;
}

struct wv classify_lit(const char *s, size_t n)
{
	struct wv w = {s, n, 0, n, NULL};
	return w;
}

struct wv classify_unknown(void)
{
	struct wv w = {"", 0, WV_DYNAMIC, 0, NULL};
	return w;
}

/* A variable whose name says it holds a secret. */
static bool secret_var_name(const char *s, size_t n)
{
	static const char *const parts[] = {"TOKEN", "SECRET", "PASSWORD", "PASSWD",
					    "API_KEY", "APIKEY", "ACCESS_KEY",
					    "PRIVATE_KEY", "CREDENTIAL"};
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		if (memmem(s, n, parts[i], strlen(parts[i])))
			return true;
	return false;
}

static bool var_is_secret(struct cx *x, const char *name, size_t n)
{
	for (unsigned i = x->nvars; i-- > 0;)
		if (x->vars[i].nlen == n && memcmp(x->vars[i].name, name, n) == 0)
			return x->vars[i].secret;
	return secret_var_name(name, n);
}

static const char *var_lookup(struct cx *x, const char *name, size_t n,
			      size_t *vlen, bool *known, bool *line)
{
	*line = false;
	for (unsigned i = x->nvars; i-- > 0;) {
		if (x->vars[i].nlen == n && memcmp(x->vars[i].name, name, n) == 0) {
			*line = true;
			*known = x->vars[i].val != NULL;
			*vlen = x->vars[i].vlen;
			return x->vars[i].val;
		}
	}
	*known = true;
	if (n == 4 && memcmp(name, "HOME", 4) == 0) {
		*vlen = strlen(x->pc.home);
		return x->pc.home;
	}
	if (n == 3 && memcmp(name, "PWD", 3) == 0) {
		*vlen = strlen(x->pc.cwd);
		return x->pc.cwd;
	}
	if (n == 6 && memcmp(name, "TMPDIR", 6) == 0) {
		*vlen = strlen(x->pc.tmpdir);
		return x->pc.tmpdir;
	}
	*known = false;
	return NULL;
}

static unsigned walk(struct cx *x, const struct sh_node *n);

void classify_call_function(struct cx *x, unsigned i, struct wv *argv,
			    size_t argc)
{
	const struct wv *pos = x->pos;
	size_t npos = x->npos;
	bool set = x->pos_set;

	/* f calls f: the fork-bomb rule judges that; one level of
	 * expansion is what a forwarding function needs */
	if (i >= x->nfuncs || !x->funcs[i].body || x->calls >= 4)
		return;
	x->calls++;
	x->pos = argv + 1;
	x->npos = argc ? argc - 1 : 0;
	x->pos_set = true;
	walk(x, x->funcs[i].body);
	x->pos = pos;
	x->npos = npos;
	x->pos_set = set;
	x->calls--;
}

/* $1 … $9, $@, $*, $# inside a call of a function defined on the line. */
static bool positional(struct cx *x, const char *s, size_t n, struct buf *b,
		       struct wv *r)
{
	if (!x->pos_set || n != 1)
		return false;
	if (s[0] == '#') {
		char num[24];
		int k = snprintf(num, sizeof(num), "%zu", x->npos);
		if (k > 0)
			buf_add(b, num, (size_t)k);
		return true;
	}
	if (s[0] == '@' || s[0] == '*') {
		for (size_t k = 0; k < x->npos; k++) {
			if (k)
				buf_add(b, " ", 1);
			if (!classify_word_static(&x->pos[k])) {
				if (!(r->f & WV_DYNAMIC))
					r->dyn_at = buf_len(b);
				r->f |= WV_DYNAMIC;
			}
			buf_add(b, x->pos[k].s, x->pos[k].n);
		}
		r->f |= WV_SPLIT;
		return true;
	}
	if (s[0] >= '1' && s[0] <= '9') {
		size_t k = (size_t)(s[0] - '1');
		if (k < x->npos) {
			if (!classify_word_static(&x->pos[k])) {
				if (!(r->f & WV_DYNAMIC))
					r->dyn_at = buf_len(b);
				r->f |= WV_DYNAMIC;
			}
			buf_add(b, x->pos[k].s, x->pos[k].n);
		}
		return true;
	}
	return false;
}

/* ${name@P} expands the variable's value as a prompt string: its
 * substitutions run. A value known on the line is judged as the words
 * of ": VALUE" (its ';' and '|' do not separate commands in a prompt,
 * so this reads more than runs); one that is not is text from elsewhere
 * evaluated. */
static void prompt_expand(struct cx *x, const char *name, size_t n)
{
	size_t vl = 0;
	bool known = false, line = false;
	const char *val = var_lookup(x, name, n, &vl, &known, &line);
	char *t;

	if (!known || !val) {
		classify_rule(x, RULE_EVAL_DYNAMIC);
		return;
	}
	t = vl < SIZE_MAX - 2 ? arena_alloc_raw(x->a, vl + 2) : NULL;
	if (!t) {
		x->v->oom = true;
		return;
	}
	memcpy(t, ": ", 2);
	memcpy(t + 2, val, vl);
	classify_payload(x, t, vl + 2, CORDON_L(NESTED_SHELL),
			 "a value expanded as a prompt (${x@P})");
}

/* ${x%suffix} ${x%%suffix} ${x#prefix} ${x##prefix} with a literal
 * pattern: the value with it removed. False when the pattern has glob
 * characters (then the word is not known). */
static bool trim_literal(const char *val, size_t vl, const char *op, size_t on,
			 const char **out, size_t *outn)
{
	bool suffix = op[0] == '%';
	size_t skip = on >= 2 && op[1] == op[0] ? 2 : 1;
	const char *p = op + skip;
	size_t pn = on - skip;

	for (size_t k = 0; k < pn; k++)
		if (p[k] == '*' || p[k] == '?' || p[k] == '[' || p[k] == '\\')
			return false;
	*out = val;
	*outn = vl;
	if (pn > vl)
		return true;
	if (suffix && memcmp(val + vl - pn, p, pn) == 0)
		*outn = vl - pn;
	else if (!suffix && memcmp(val, p, pn) == 0) {
		*out = val + pn;
		*outn = vl - pn;
	}
	return true;
}

/* The static output of a substitution made only of echo/printf (and
 * base64 -d), so that $(echo rm) and $(echo cm0= | base64 -d) read as
 * what they produce. */
static bool static_output(struct cx *x, const struct sh_node *body,
			  const char **out, size_t *outn);

static void eval_parts(struct cx *x, const struct sh_wpart *pt, struct buf *b,
		       struct wv *r, bool first)
{
	for (; pt; pt = pt->next) {
		switch (pt->kind) {
		case SH_WP_LIT:
			if (pt->quoted)
				r->f |= WV_QUOTED;
			if (!pt->quoted && memchr(pt->s, '*', pt->len))
				r->f |= WV_GLOB;
			if (!pt->quoted && memchr(pt->s, '?', pt->len))
				r->f |= WV_GLOB;
			/* "[" alone is the test command; "[ab]" is a glob */
			if (!pt->quoted) {
				const char *ob = memchr(pt->s, '[', pt->len);
				if (ob && memchr(ob, ']', pt->len - (size_t)(ob - pt->s)))
					r->f |= WV_GLOB;
			}
			if (first && buf_len(b) == 0 && !pt->quoted &&
			    pt->len && pt->s[0] == '~') {
				/* ~ and ~/x: the home directory; ~user stays */
				if (pt->len == 1 || pt->s[1] == '/') {
					r->f |= WV_TILDE;
					buf_add(b, x->pc.home,
						strlen(x->pc.home));
					buf_add(b, pt->s + 1, pt->len - 1);
					break;
				}
			}
			buf_add(b, pt->s, pt->len);
			break;
		case SH_WP_PARAM: {
			size_t vl = 0;
			bool known = false, line = false;
			const char *val = NULL;
			if (pt->len == 3 && memcmp(pt->s, "IFS", 3) == 0 &&
			    !pt->param_op) {
				r->f |= WV_IFS;
				buf_add(b, x->ifs && *x->ifs ? x->ifs : " ", 1);
				break;
			}
			if (!pt->param_op && positional(x, pt->s, pt->len, b, r))
				break;
			if (!pt->param_op) {
				val = var_lookup(x, pt->s, pt->len, &vl, &known,
						 &line);
			} else if (pt->sub) {
				/* ${x:-word}, ${x:=word}: unless x is known
				 * to be set, the word is what the shell
				 * uses — and the author chooses whether x is
				 * set. */
				struct wv sub = classify_eval(x, pt->sub);
				size_t skip = 0;
				if (sub.n >= 2 && sub.s[0] == ':' &&
				    (sub.s[1] == '-' || sub.s[1] == '='))
					skip = 2;
				else if (sub.n >= 1 && (sub.s[0] == '-' || sub.s[0] == '='))
					skip = 1;
				size_t qskip = 0, pskip = 0;
				if (sub.n >= 2 && sub.s[0] == ':' &&
				    (sub.s[1] == '?' || sub.s[1] == '+')) {
					if (sub.s[1] == '?')
						qskip = 2;
					else
						pskip = 2;
				}
				else if (sub.n >= 1 && sub.s[0] == '?')
					qskip = 1;
				else if (sub.n >= 1 && sub.s[0] == '+')
					pskip = 1;
				if (skip) {
					val = var_lookup(x, pt->s, pt->len, &vl, &known,
							 &line);
					if (!(known && val && vl)) {
						val = sub.s + skip;
						vl = sub.n - skip;
						known = classify_word_static(&sub);
						line = true;
					}
				} else if (qskip) {
					/* ${x:?msg}: x, or the shell stops */
					val = var_lookup(x, pt->s, pt->len, &vl, &known,
							 &line);
				} else if (pskip) {
					/* ${x:+word}: word when x is set (and, with
					 * ':', not empty); else nothing */
					const char *xv = var_lookup(x, pt->s, pt->len,
								    &vl, &known, &line);
					if (known && xv && (vl || pskip == 1)) {
						val = sub.s + pskip;
						vl = sub.n - pskip;
						known = classify_word_static(&sub);
					} else if (known) {
						val = "";
						vl = 0;
					}
				} else if (sub.n >= 1 && classify_word_static(&sub) &&
					   (sub.s[0] == '%' || sub.s[0] == '#')) {
					const char *xv = var_lookup(x, pt->s, pt->len,
								    &vl, &known, &line);
					if (!(known && xv &&
					      trim_literal(xv, vl, sub.s, sub.n, &val, &vl)))
						known = false;
				} else if (sub.n == 2 && sub.s[0] == '@' &&
					   sub.s[1] == 'P') {
					/* ${x@P}: the value expanded as a prompt,
					 * whose $( ) and `…` run */
					prompt_expand(x, pt->s, pt->len);
				} else if (sub.n >= 3 && sub.s[0] == '[' && sub.s[sub.n - 1] == ']') {
					/* ${a[@]}, ${a[0]}: an array assigned on the
					 * line holds its elements joined */
					val = var_lookup(x, pt->s, pt->len, &vl, &known,
							 &line);
					if (sub.s[1] == '@' || sub.s[1] == '*')
						r->f |= WV_SPLIT;
				}
			}
			if (line)
				r->f |= WV_LINEVAR;
			if (pt->len && var_is_secret(x, pt->s, pt->len))
				r->f |= WV_SECRET;
			/* $@ and unquoted expansions split into words */
			if (pt->len == 1 && (pt->s[0] == '@' || pt->s[0] == '*'))
				r->f |= WV_SPLIT;
			for (size_t k = 0; !pt->in_dq && known && val && k < vl; k++)
				if (classify_is_ifs(x, val[k])) {
					r->f |= WV_SPLIT;
					break;
				}
			if (known && val) {
				buf_add(b, val, vl);
			} else {
				if (!(r->f & WV_DYNAMIC))
					r->dyn_at = buf_len(b);
				r->f |= WV_DYNAMIC;
			}
			break;
		}
		case SH_WP_ARITH:
			if (pt->sub) {
				struct wv sub = classify_eval(x, pt->sub);
				(void)sub;
			}
			if (!(r->f & WV_DYNAMIC))
				r->dyn_at = buf_len(b);
			r->f |= WV_DYNAMIC;
			break;
		case SH_WP_CMDSUB:
		case SH_WP_BACKTICK:
		case SH_WP_PROCSUB_IN:
		case SH_WP_PROCSUB_OUT: {
			const char *o;
			size_t on;
			r->f |= WV_SUBST;
			if (pt->kind == SH_WP_PROCSUB_IN ||
			    pt->kind == SH_WP_PROCSUB_OUT)
				r->f |= WV_PROCSUB;
			if ((pt->kind == SH_WP_CMDSUB ||
			     pt->kind == SH_WP_BACKTICK) &&
			    static_output(x, pt->body, &o, &on)) {
				r->f |= WV_DECODED;
				if (x->b64)
					r->f |= WV_ESCAPED;
				x->b64 = false;
				buf_add(b, o, on);
				break;
			}
			if (!(r->f & WV_DYNAMIC))
				r->dyn_at = buf_len(b);
			r->f |= WV_DYNAMIC;
			break;
		}
		}
		first = false;
	}
}

/* Does the source of a word spell letters with $'\x72' or $'\162'?
 * Agents have no reason to; hiding a command name does. */
static bool ansi_c_escapes(const char *raw, size_t n)
{
	bool in = false;

	for (size_t i = 0; i + 1 < n; i++) {
		if (!in && raw[i] == '$' && raw[i + 1] == '\'') {
			in = true;
			i++;
			continue;
		}
		if (in && raw[i] == '\'') {
			in = false;
			continue;
		}
		if (in && raw[i] == '\\') {
			char c = raw[i + 1];
			unsigned v = 0;
			size_t j = i + 2, k = 0;
			if (c == 'x' || c == 'u' || c == 'U') {
				while (j < n && k < (c == 'x' ? 2u : 4u) &&
				       text_hex_value((unsigned char)raw[j]) >=
					       0) {
					v = v * 16 +
					    (unsigned)text_hex_value(
						    (unsigned char)raw[j++]);
					k++;
				}
			} else if (c >= '0' && c <= '7') {
				j = i + 1;
				while (j < n && k < 3 && raw[j] >= '0' && raw[j] <= '7') {
					v = v * 8 + (unsigned)(raw[j++] - '0');
					k++;
				}
			}
			/* colours (\033) and control bytes are not hiding words */
			if (k && v > 0x20 && v < 0x7f)
				return true;
			i++;
		}
	}
	return false;
}

struct wv classify_eval(struct cx *x, const struct sh_word *w)
{
	struct buf b;
	struct wv r = {"", 0, 0, 0, w};

	if (!w)
		return r;
	const struct sh_wpart *pt = w->parts;
	if (pt && !pt->next && pt->kind == SH_WP_LIT &&
	    (pt->quoted || !pt->len || pt->s[0] != '~')) {
		/* one literal, the common word: its flags as eval_parts()
		 * sets them, its text the parser's own copy when it made one
		 * (nothing writes through a wv), else copied once */
		const char *t = pt->nul ? pt->s
					: arena_strndup(x->a, pt->s, pt->len);
		size_t tn = pt->len;
		if (!t) {
			x->v->oom = true;
			t = "";
			tn = 0;
		}
		if (pt->quoted) {
			r.f |= WV_QUOTED;
		} else if (pt->plain) {
			/* none of the glob characters */
			r.f |= WV_PLAIN;
		} else {
			const char *ob = memchr(pt->s, '[', pt->len);
			if (memchr(pt->s, '*', pt->len) ||
			    memchr(pt->s, '?', pt->len) ||
			    (ob && memchr(ob, ']',
					  pt->len - (size_t)(ob - pt->s))))
				r.f |= WV_GLOB;
		}
		r.s = t;
		r.n = tn;
		r.dyn_at = tn;
		if (w->quoted)
			r.f |= WV_QUOTED;
		if (w->quoted && ansi_c_escapes(w->raw, w->raw_len))
			r.f |= WV_ESCAPED;
		return r;
	}
	buf_init_arena(&b, x->a, SIZE_MAX);
	eval_parts(x, w->parts, &b, &r, true);
	/* a word that cannot be built is not judged: the whole verdict
	 * fails closed */
	if (buf_failed(&b))
		x->v->oom = true;
	r.s = buf_str(&b);
	r.n = buf_len(&b);
	if (!(r.f & WV_DYNAMIC))
		r.dyn_at = r.n;
	if (w->quoted)
		r.f |= WV_QUOTED;
	if (w->quoted && ansi_c_escapes(w->raw, w->raw_len))
		r.f |= WV_ESCAPED;
	return r;
}

/* Substitution bodies are classified where they stand: they run. */
static unsigned walk_word_substs(struct cx *x, const struct sh_word *w);

static unsigned walk_part_substs(struct cx *x, const struct sh_wpart *pt)
{
	unsigned f = 0;

	for (; pt; pt = pt->next) {
		if (pt->sub)
			f |= walk_word_substs(x, pt->sub);
		if (pt->body) {
			classify_rule(
				x,
				pt->kind == SH_WP_PROCSUB_IN ||
						pt->kind == SH_WP_PROCSUB_OUT ?
					RULE_SUBST_PROCESS :
					RULE_SUBST);
			if (pt->kind == SH_WP_PROCSUB_IN ||
			    pt->kind == SH_WP_PROCSUB_OUT)
				x->v->cmds.procsub = true;
			else
				x->v->cmds.subst = true;
			x->nsubst++;
			unsigned bf = walk(x, pt->body);
			x->nsubst--;
			if (pt->kind == SH_WP_PROCSUB_OUT)
				x->pso |= bf;
			f |= bf;
		}
	}
	return f;
}

static unsigned walk_word_substs(struct cx *x, const struct sh_word *w)
{
	unsigned f = 0;
	for (; w; w = w->next)
		f |= walk_part_substs(x, w->parts);
	return f;
}

/* ---- static output of echo / printf / base64 -d ------------------------- */

/* Decodes base64 text as `base64 -d` would read it (text_b64_decode's lax
 * mode); false when it is not base64. */
static bool b64_decode(struct cx *x, const char *s, size_t n, const char **out,
		       size_t *outn)
{
	char *d = arena_alloc(x->a, n + 1);
	size_t o = 0;

	if (!d ||
	    !text_b64_decode(s, n, TEXT_B64_LAX, (unsigned char *)d, n, &o))
		return false;
	d[o] = '\0';
	*out = d;
	*outn = o;
	return true;
}

/* echo's output for static arguments (-n, -e, -E handled). */
static bool echo_text(struct cx *x, struct wv *argv, size_t argc, bool printf_,
		      const char **out, size_t *outn)
{
	struct buf b;
	size_t i = 1;
	bool esc = printf_;

	buf_init_arena(&b, x->a, SIZE_MAX);

	if (!printf_) {
		while (i < argc && argv[i].n >= 2 && argv[i].s[0] == '-' &&
		       strspn(argv[i].s + 1, "neE") == argv[i].n - 1) {
			if (memchr(argv[i].s, 'e', argv[i].n))
				esc = true;
			i++;
		}
	}
	size_t fmt_i = i;
	/* printf FORMAT ARGS: the arguments, roughly where %s or %b stand;
	 * %b decodes escapes in them. What matters is the text that
	 * results. */
	bool pf_args = printf_ && argc > fmt_i + 1;
	bool pf_b = pf_args && fmt_i < argc &&
		    memmem(argv[fmt_i].s, argv[fmt_i].n, "%b", 2);
	for (; i < argc; i++) {
		if (!classify_word_static(&argv[i]))
			return false;
		if (pf_args && i == fmt_i)
			continue;
		if (buf_len(&b) && (!printf_ || pf_args))
			buf_add(&b, " ", 1);
		if (pf_args && !pf_b) {
			buf_add(&b, argv[i].s, argv[i].n);
			continue;
		}
		const char *s = argv[i].s;
		size_t n = argv[i].n;
		for (size_t k = 0; k < n; k++) {
			if (esc && s[k] == '\\' && k + 1 < n) {
				char c = s[k + 1];
				if (c == 'x' && k + 2 < n) {
					int v = 0, d = 0;
					size_t j = k + 2;
					while (d < 2 && j < n &&
					       text_hex_value(
						       (unsigned char)s[j]) >=
						       0) {
						v = v * 16 +
						    text_hex_value((
							    unsigned char)s[j]);
						j++;
						d++;
					}
					char ch = (char)v;
					buf_add(&b, &ch, 1);
					k = j - 1;
					continue;
				}
				if (c == 'u' && k + 2 < n) {
					unsigned v = 0;
					int d = 0;
					size_t j = k + 2;
					while (d < 4 && j < n &&
					       text_hex_value(
						       (unsigned char)s[j]) >=
						       0) {
						v = v * 16 +
						    (unsigned)text_hex_value((
							    unsigned char)s[j]);
						j++;
						d++;
					}
					if (v < 0x80) {
						char ch = (char)v;
						buf_add(&b, &ch, 1);
					}
					k = j - 1;
					continue;
				}
				if (c >= '0' && c <= '7') {
					int v = 0, d = 0;
					size_t j = k + 1;
					if (s[j] == '0')
						j++;
					while (d < 3 && j < n && s[j] >= '0' && s[j] <= '7') {
						v = v * 8 + (s[j] - '0');
						j++;
						d++;
					}
					char ch = (char)v;
					buf_add(&b, &ch, 1);
					k = j - 1;
					continue;
				}
				if (c == 'n') {
					buf_add(&b, "\n", 1);
					k++;
					continue;
				}
				if (c == 't') {
					buf_add(&b, "\t", 1);
					k++;
					continue;
				}
			}
			if (printf_ && s[k] == '%' && k + 1 < n) {
				k++;
				continue;
			}
			buf_add(&b, s + k, 1);
		}
	}
	if (buf_failed(&b))
		x->v->oom = true;
	*out = buf_str(&b);
	*outn = buf_len(&b);
	return true;
}

const char *classify_echo_text(struct cx *x, struct wv *argv, size_t argc,
			 bool printf_, size_t *n)
{
	const char *out;
	if (!echo_text(x, argv, argc, printf_, &out, n))
		return NULL;
	return out;
}

/* Brace expansion of unquoted static words: {a,b} and pre{a,b}post become
 * one word per alternative (the first group of a word, up to 16); so
 * "rm -rf /{etc,boot}" deletes /etc and /boot, and "{rm,-rf,/}" is a
 * command of three words. */
static size_t brace_expand(struct cx *x, struct wv **argvp, size_t argc)
{
	struct wv *in = *argvp;
	size_t cap = argc * 16 + 1;
	struct wv *out = arena_alloc(x->a, cap * sizeof(*out));
	size_t n = 0;

	if (!out)
		return argc;
	for (size_t i = 0; i < argc; i++) {
		const struct wv *w = &in[i];
		const char *o = NULL, *c = NULL;
		if (w->w && !w->w->quoted && classify_word_static(w)) {
			o = memchr(w->s, '{', w->n);
			c = o ? memchr(o, '}', w->n - (size_t)(o - w->s)) : NULL;
		}
		if (!o || !c || !memchr(o, ',', (size_t)(c - o))) {
			out[n++] = *w;
			continue;
		}
		size_t pre = (size_t)(o - w->s), post = w->n - (size_t)(c + 1 - w->s);
		const char *p = o + 1;
		for (unsigned alt = 0; p <= c && alt < 16; alt++) {
			const char *e = p;
			while (e < c && *e != ',')
				e++;
			size_t an = (size_t)(e - p);
			char *t = arena_alloc_raw(x->a, pre + an + post + 1);
			if (!t)
				break;
			memcpy(t, w->s, pre);
			memcpy(t + pre, p, an);
			memcpy(t + pre + an, c + 1, post);
			t[pre + an + post] = '\0';
			out[n] = *w;
			out[n].s = t;
			out[n].n = pre + an + post;
			out[n].dyn_at = out[n].n;
			/* an alternative is a plain word now */
			out[n].f &= ~WV_GLOB;
			for (size_t k = 0; k < out[n].n; k++)
				if (t[k] == '*' || t[k] == '?' || t[k] == '[')
					out[n].f |= WV_GLOB;
			n++;
			p = e + 1;
		}
	}
	*argvp = out;
	return n;
}

static bool hex_decode(struct cx *x, const char *s, size_t n, const char **out,
		       size_t *outn)
{
	char *d = arena_alloc_raw(x->a, n / 2 + 1);
	size_t o = 0;
	int hi = -1;

	if (!d)
		return false;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == ' ' || c == '\n' || c == '\r')
			continue;
		int v = text_hex_value((unsigned char)c);
		if (v < 0)
			return false;
		if (hi < 0) {
			hi = v;
		} else {
			d[o++] = (char)(hi * 16 + v);
			hi = -1;
		}
	}
	d[o] = '\0';
	*out = d;
	*outn = o;
	return true;
}

/* tr's SET: a-z ranges and the common escapes, expanded into out. */
static size_t tr_set(const char *s, size_t n, unsigned char *out, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\' && i + 1 < n) {
			char e = s[++i];
			c = e == 'n' ? '\n' : e == 't' ? '\t' : (unsigned char)e;
		}
		if (i + 2 < n && s[i + 1] == '-') {
			unsigned char to = (unsigned char)s[i + 2];
			for (unsigned v = c; v <= to && o < cap; v++)
				out[o++] = (unsigned char)v;
			i += 2;
			continue;
		}
		out[o++] = c;
	}
	return o;
}

bool classify_transform(struct cx *x, const struct cinfo *ci, const char *in,
		  size_t n, const char **out, size_t *outn)
{
	switch (ci->xf) {
	case XF_BASE64:
		return b64_decode(x, in, n, out, outn);
	case XF_HEX:
		return hex_decode(x, in, n, out, outn);
	case XF_REV: {
		/* rev reverses each line */
		char *d = arena_alloc_raw(x->a, n + 1);
		if (!d)
			return false;
		size_t ls = 0;
		for (size_t i = 0; i <= n; i++) {
			if (i == n || in[i] == '\n') {
				for (size_t k = ls; k < i; k++)
					d[k] = in[i - 1 - (k - ls)];
				if (i < n)
					d[i] = '\n';
				ls = i + 1;
			}
		}
		d[n] = '\0';
		*out = d;
		*outn = n;
		return true;
	}
	case XF_TR: {
		unsigned char a[256], b[256], map[256];
		size_t an = tr_set(ci->tr1, ci->tr1n, a, sizeof(a));
		size_t bn = tr_set(ci->tr2, ci->tr2n, b, sizeof(b));
		char *d = arena_alloc_raw(x->a, n + 1);
		if (!d || !an || !bn)
			return false;
		for (unsigned v = 0; v < 256; v++)
			map[v] = (unsigned char)v;
		for (size_t i = 0; i < an; i++)
			map[a[i]] = b[i < bn ? i : bn - 1];
		for (size_t i = 0; i < n; i++)
			d[i] = (char)map[(unsigned char)in[i]];
		d[n] = '\0';
		*out = d;
		*outn = n;
		return true;
	}
	case XF_NONE:
		break;
	}
	return false;
}

/* Evaluates the words of a simple command without classifying it. */
static size_t eval_argv(struct cx *x, const struct sh_node *n, struct wv **out)
{
	size_t argc = 0;
	for (const struct sh_word *w = n->words; w; w = w->next)
		argc++;
	struct wv *argv = arena_alloc(x->a, (argc + 1) * sizeof(*argv));
	if (!argv) {
		x->v->oom = true;
		*out = NULL;
		return 0;
	}
	size_t i = 0;
	bool braces = false;
	for (const struct sh_word *w = n->words; w; w = w->next) {
		argv[i] = classify_eval(x, w);
		if (!w->quoted && !(argv[i].f & WV_PLAIN) &&
		    classify_word_static(&argv[i]) && memchr(argv[i].s, '{', argv[i].n) &&
		    memchr(argv[i].s, ',', argv[i].n))
			braces = true;
		i++;
	}
	*out = argv;
	return braces ? brace_expand(x, out, argc) : argc;
}

static bool static_output(struct cx *x, const struct sh_node *body,
			  const char **out, size_t *outn)
{
	const struct sh_node *n = body;

	if (n && n->kind == SH_LIST && !n->child) {
		/* $() prints nothing: r$()m is rm */
		*out = "";
		*outn = 0;
		return true;
	}
	if (!n || n->kind != SH_LIST || !n->child || n->child->next)
		return false;
	n = n->child;
	const struct sh_node *first = n, *second = NULL;
	if (n->kind == SH_PIPELINE) {
		first = n->child;
		second = first ? first->next : NULL;
		if (second && second->next)
			return false;
	}
	if (!first || first->kind != SH_SIMPLE)
		return false;
	struct wv *argv;
	size_t argc;
	if (first->redirs) {
		/* $(cat <<EOF … EOF), $(cat <<< 'text'): the here-doc's text,
		 * when it is known (a quoted delimiter, or no expansions) */
		const struct sh_redir *r = first->redirs;
		if (second || r->next || r->fd > 0 ||
		    (r->op != SH_R_HEREDOC && r->op != SH_R_HERESTRING))
			return false;
		argc = eval_argv(x, first, &argv);
		if (argc != 1 || !classify_word_is(&argv[0], "cat"))
			return false;
		struct wv t = r->op == SH_R_HERESTRING ? classify_eval(x, r->target)
			      : r->body_word && !r->delim_quoted
				      ? classify_eval(x, r->body_word)
				      : classify_lit(r->body ? r->body : "", r->body_len);
		if (!classify_word_static(&t) || r->body_unterminated)
			return false;
		*out = t.s;
		*outn = t.n;
		return true;
	}
	argc = eval_argv(x, first, &argv);
	if (argc == 0)
		return false;
	/* $(which rm), $(command -v rm), $(type -P rm): the path of rm,
	 * which is rm wherever it lives. */
	if (!second && argc == 2 && classify_word_is(&argv[0], "which") &&
	    classify_word_static(&argv[1]) && argv[1].n && argv[1].s[0] != '-') {
		*out = argv[1].s;
		*outn = argv[1].n;
		return true;
	}
	if (!second && argc == 3 && classify_word_static(&argv[2]) && argv[2].n &&
	    argv[2].s[0] != '-' &&
	    ((classify_word_is(&argv[0], "command") && classify_word_is(&argv[1], "-v")) ||
	     (classify_word_is(&argv[0], "type") &&
	      (classify_word_is(&argv[1], "-P") || classify_word_is(&argv[1], "-p"))))) {
		*out = argv[2].s;
		*outn = argv[2].n;
		return true;
	}
	bool pf = classify_word_is(&argv[0], "printf");
	if (!pf && !classify_word_is(&argv[0], "echo"))
		return false;
	if (!echo_text(x, argv, argc, pf, out, outn))
		return false;
	if (!second)
		return true;
	if (second->kind != SH_SIMPLE || second->redirs)
		return false;
	struct wv *a2;
	size_t c2 = eval_argv(x, second, &a2);
	if (c2 < 2 || !classify_word_is(&a2[0], "base64"))
		return false;
	bool dec = false;
	for (size_t i = 1; i < c2; i++)
		if (classify_word_is(&a2[i], "-d") || classify_word_is(&a2[i], "--decode") ||
		    classify_word_is(&a2[i], "-D"))
			dec = true;
	if (dec && b64_decode(x, *out, *outn, out, outn)) {
		x->b64 = true;
		return true;
	}
	return false;
}

bool classify_static_output(struct cx *x, const struct sh_node *body,
		      const char **out, size_t *outn)
{
	return static_output(x, body, out, outn);
}

/* ---- hits and segments ------------------------------------------------------ */

/* cordon explain's record of one hit, out of classify_hit's way. */
static __attribute__((noinline)) void trace_hit(struct cx *x,
						enum cordon_risk tier,
						uint64_t labels,
						const char *rule,
						const char *reason)
{
	struct vhit h = { rule, reason, tier, labels,
			  x->in_segment ? x->v->nsegs : SIZE_MAX };

	verdict_add_hit(x->v, &h);
}

void classify_hit(struct cx *x, enum cordon_risk tier, uint64_t labels,
	    const char *rule, const char *reason)
{
	struct cordon_verdict *v = x->v;

	if (x->in_segment) {
		if (tier > x->seg_risk)
			x->seg_risk = tier;
		x->seg_labels |= labels;
	}
	if (tier > v->risk)
		v->risk = tier;
	v->labels |= labels;
	if (reason)
		verdict_add_reason(v, reason);
	if (rule)
		verdict_add_rule(v, rule);
	if (v->trace)
		trace_hit(x, tier, labels, rule, reason);
}

void classify_rule(struct cx *x, enum rule_id r)
{
	const struct rule *e = &rules_catalog[r];

	classify_hit(x, e->tier, e->labels, rules_id(r), rules_reason(r));
}

void classify_rule_plus(struct cx *x, enum rule_id r, uint64_t more)
{
	const struct rule *e = &rules_catalog[r];

	classify_hit(x, e->tier, e->labels | more, rules_id(r),
		     rules_reason(r));
}

void classify_rule_why(struct cx *x, enum rule_id r, enum cordon_risk tier,
		       uint64_t more, const char *why)
{
	const struct rule *e = &rules_catalog[r];

	classify_hit(x, tier, e->labels | more, rules_id(r), why);
}

void classify_rule_at(struct cx *x, enum rule_id r, enum cordon_risk tier,
		      uint64_t more)
{
	classify_rule_why(x, r, tier, more, rules_reason(r));
}

/* ---- variables ---------------------------------------------------------------- */

/* Variables whose value is a command some program runs later: git, man,
 * less, editors, the shell's own prompt hooks, npm's script shell, the
 * compilers and wrappers make and cargo run. */
static const char *const command_vars[] = {
	"GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
	"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
	"GIT_SSH", "GIT_PROXY_COMMAND", "EDITOR", "VISUAL", "PAGER",
	"MANPAGER", "SYSTEMD_PAGER", "BROWSER", "PROMPT_COMMAND", "LESSOPEN",
	"LESSCLOSE", "PS0", "PS1", "PS2", "PS4", "FCEDIT", "TERMINAL",
	"DIFFTOOL", "MERGETOOL", "CVS_RSH", "RSYNC_RSH",
	"npm_config_script_shell", "SUDO_EDITOR", "SYSTEMD_EDITOR",
	"KUBE_EDITOR", "GH_EDITOR", "GH_PAGER", "SVN_EDITOR", "HGEDITOR",
	"BAT_PAGER", "DELTA_PAGER", "AWS_PAGER", "PSQL_PAGER", "PSQL_EDITOR",
	/* the compilers and tools make, cc and cargo run */
	"CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "RUSTC", "RUSTDOC",
	"RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC",
	"CARGO_BUILD_RUSTDOC", "CARGO_BUILD_RUSTC_WRAPPER",
	"CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "CARGO_HOST_LINKER",
	"CARGO_REGISTRY_CREDENTIAL_PROVIDER",
};

/* Variables that make an interpreter or shell load code of the value's
 * choosing. */
static const char *const loader_vars[] = {
	"BASH_ENV", "ENV", "ZDOTDIR", "PYTHONSTARTUP", "PYTHONPATH",
	"PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB",
	"RUBYOPT", "RUBYLIB", "GIT_CONFIG_GLOBAL",
	"GIT_CONFIG_SYSTEM", "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH",
	"SHELLOPTS", "BASHOPTS", "GCONV_PATH", "LD_AUDIT",
};

static bool name_in(const char *name, size_t n, const char *const *list,
		    size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (list[i][0] == name[0] && strlen(list[i]) == n &&
		    memcmp(list[i], name, n) == 0)
			return true;
	return false;
}

bool classify_is_command_var(const char *name, size_t n)
{
	/* CARGO_TARGET_<TRIPLE>_RUNNER and _LINKER */
	if (n > 20 && memcmp(name, "CARGO_TARGET_", 13) == 0 &&
	    (memcmp(name + n - 7, "_RUNNER", 7) == 0 ||
	     memcmp(name + n - 7, "_LINKER", 7) == 0))
		return true;
	return n && name_in(name, n, command_vars,
			    sizeof(command_vars) / sizeof(*command_vars));
}

static void assign_runs_later(struct cx *x, const char *name, size_t n,
			      const struct wv *val)
{
	bool config_value = n > 17 && memcmp(name, "GIT_CONFIG_VALUE_", 17) == 0;

	if (n == 21 && memcmp(name, "GIT_CONFIG_PARAMETERS", 21) == 0) {
		families_git_config_params(x, val);
		return;
	}
	/* LESS='+!cmd': less's options, whose +COMMAND runs at start */
	if (n == 4 && memcmp(name, "LESS", 4) == 0 &&
	    classify_word_static(val)) {
		const char *bang = memmem(val->s, val->n, "+!", 2);
		if (bang)
			classify_payload(x, bang + 2,
					 val->n - (size_t)(bang + 2 - val->s),
					 CORDON_L(NESTED_SHELL),
					 "a command less runs at start");
		return;
	}
	if (config_value || classify_is_command_var(name, n)) {
		/* judged by the command it names: PAGER=less is harmless */
		struct wv v = *val;
		/* LESSOPEN='|cmd %s' and '||cmd' */
		while (v.n && v.s[0] == '|') {
			v.s++;
			v.n--;
		}
		if (v.n)
			classify_payload(x, v.s, v.n, CORDON_L(NESTED_SHELL),
				   "a command named by a variable");
	} else if (families_is_rustflags_var(name, n)) {
		families_rustc_flags(x, val);
	} else if (name_in(name, n, loader_vars,
			   sizeof(loader_vars) / sizeof(*loader_vars))) {
		classify_rulef(x, ENV_LOADER, (int)n, name);
	}
}

void classify_assign(struct cx *x, const struct sh_word *w)
{
	const struct sh_wpart *pt = w ? w->parts : NULL;
	if (!pt || pt->kind != SH_WP_LIT)
		return;
	size_t i = 0;
	while (i < pt->len && (isalnum((unsigned char)pt->s[i]) || pt->s[i] == '_'))
		i++;
	if (i == 0 || i >= pt->len)
		return;
	size_t nlen = i;
	bool append = false;
	if (pt->s[i] == '[')
		return; /* array element: leave the array unknown */
	if (pt->s[i] == '+') {
		append = true;
		i++;
	}
	if (i >= pt->len || pt->s[i] != '=')
		return;
	cmdlist_push_var(&x->v->cmds, x->a, pt->s, nlen);
	/* The value: evaluate the word minus "NAME=". */
	struct sh_wpart head = *pt;
	head.s = pt->s + i + 1;
	head.len = pt->len - i - 1;
	struct sh_word vw = *w;
	vw.parts = &head;
	struct wv val = classify_eval(x, &vw);
	if (x->nvars >= CLASSIFY_MAX_VARS)
		return;
	unsigned k = x->nvars++;
	x->vars[k].name = pt->s;
	x->vars[k].secret = false;
	x->vars[k].nlen = nlen;
	if (append || !classify_word_static(&val)) {
		x->vars[k].val = NULL;
		x->vars[k].vlen = 0;
	} else {
		x->vars[k].val = val.s;
		x->vars[k].vlen = val.n;
	}
	if (nlen == 3 && memcmp(pt->s, "IFS", 3) == 0) {
		classify_rule(x, RULE_IFS_ASSIGN);
		if (classify_word_static(&val))
			x->ifs = val.s;
	}
	if ((nlen == 8 && memcmp(pt->s, "HISTFILE", 8) == 0) ||
	    (nlen == 8 && memcmp(pt->s, "HISTSIZE", 8) == 0) ||
	    (nlen == 12 && memcmp(pt->s, "HISTFILESIZE", 12) == 0))
		classify_rule(x, RULE_HISTORY_VAR);
	if (nlen == 4 && memcmp(pt->s, "PATH", 4) == 0)
		classify_rule(x, RULE_PATH_ASSIGN);
	assign_runs_later(x, pt->s, nlen, &val);
	/* x='a[$(cmd)]' runs cmd when $(( x )) evaluates it */
	if (classify_word_static(&val) && memmem(val.s, val.n, "[$(", 3)) {
		const char *o = memmem(val.s, val.n, "[$(", 3);
		const char *c = memchr(o, ']', val.n - (size_t)(o - val.s));
		size_t e = c ? (size_t)(c - o) : val.n - (size_t)(o - val.s);
		classify_payload(x, o + 1, e - 1, 0, "a command in an array subscript");
	}
	if ((nlen == 10 && memcmp(pt->s, "LD_PRELOAD", 10) == 0) ||
	    (nlen == 15 && memcmp(pt->s, "LD_LIBRARY_PATH", 15) == 0))
		classify_rule(x, RULE_LD_PRELOAD);
}

/* ---- paths ---------------------------------------------------------------------- */

const char *classify_abs(struct cx *x, const struct wv *w)
{
	char *a = path_normalize(x->a, x->pc.cwd, w->s, w->n);
	if (!a)
		x->v->oom = true;
	return a;
}

enum path_class classify_path(struct cx *x, const struct wv *w, const char **abs)
{
	size_t n = w->n;
	const char *s = w->s;

	/* A trailing glob is judged by the directory it expands in:
	 * "/" followed by "*" is the root's children. */
	if (w->f & WV_GLOB) {
		const char *slash = NULL;
		for (size_t i = 0; i < n; i++)
			if (s[i] == '/')
				slash = s + i;
		const char *g = NULL;
		for (size_t i = 0; i < n; i++)
			if (s[i] == '*' || s[i] == '?' || s[i] == '[') {
				g = s + i;
				break;
			}
		if (g) {
			/* the directory part before the first glob */
			const char *cut = NULL;
			for (const char *q = s; q < g; q++)
				if (*q == '/')
					cut = q;
			(void)slash;
			if (cut)
				n = (size_t)(cut - s) + (cut == s ? 1 : 0);
			else
				n = 0;
		}
	}
	char *a = path_normalize(x->a, x->pc.cwd, s, n);
	if (!a) {
		x->v->oom = true;
		*abs = NULL;
		return PATH_OUTSIDE;
	}
	*abs = a;
	enum path_class pc = path_classify(&x->pc, a);
	/* a glob in /tmp is what is in /tmp, not /tmp itself */
	if ((w->f & WV_GLOB) && pc == PATH_SYSTEM &&
	    (strcmp(a, "/tmp") == 0 || strcmp(a, "/var/tmp") == 0))
		return PATH_TMP;
	return pc;
}

/* ---- the walk ------------------------------------------------------------------------ */

static void begin_segment(struct cx *x)
{
	x->in_segment = true;
	x->seg_risk = CORDON_RISK_SAFE;
	x->seg_labels = 0;
}

static void end_segment(struct cx *x, const struct sh_node *n)
{
	const char *base = x->v->text;
	size_t off = (size_t)(n->text - x->v->text);

	(void)base;
	x->in_segment = false;
	/* a command cut short by a syntax error is never safe */
	if (n->incomplete) {
		if (x->seg_risk < CORDON_RISK_CAUTION)
			x->seg_risk = CORDON_RISK_CAUTION;
		x->seg_labels |= CORDON_L(UNPARSED);
	}
	/* Trailing blanks are not part of a command's text. */
	size_t len = n->len;
	while (len && (n->text[len - 1] == ' ' || n->text[len - 1] == '\t' ||
		       n->text[len - 1] == '\n' || n->text[len - 1] == '\r'))
		len--;
	verdict_add_segment(x->v, off, len, x->seg_risk, x->seg_labels);
}

static bool func_calls(const struct sh_node *n, const char *name, size_t nl,
		       unsigned *calls, bool *piped, bool *async, bool in_pipe)
{
	for (; n; n = n->next) {
		if (n->kind == SH_FUNC)
			continue;
		if (n->kind == SH_SIMPLE && n->words) {
			const struct sh_word *w = n->words;
			if (w->raw_len == nl && memcmp(w->raw, name, nl) == 0) {
				(*calls)++;
				if (in_pipe)
					*piped = true;
				if (n->sep == SH_SEP_ASYNC)
					*async = true;
			}
		}
		bool pipe = n->kind == SH_PIPELINE;
		bool before = *calls > 0;
		func_calls(n->child, name, nl, calls, piped, async, pipe || in_pipe);
		if (n->sep == SH_SEP_ASYNC && *calls > 0 && (!before || pipe))
			*async = true;
	}
	return *calls > 0;
}

static void walk_func(struct cx *x, const struct sh_node *n)
{
	unsigned calls = 0;
	bool piped = false, async = false;

	if (!n->name) {
		walk(x, n->child);
		return;
	}
	if (x->nfuncs < CLASSIFY_MAX_FUNCS) {
		x->funcs[x->nfuncs].name = n->name;
		x->funcs[x->nfuncs].nlen = n->name_len;
		x->funcs[x->nfuncs].body = n->child;
		x->nfuncs++;
	}
	func_calls(n->child, n->name, n->name_len, &calls, &piped, &async, false);
	if (commands_known(n->name, n->name_len) ||
	    classify_family_known(x, n->name, n->name_len))
		classify_rulef(x, FUNCTION_SHADOWS,
			       (int)(n->name_len > 64 ? 64 : n->name_len),
			       n->name);
	/* A function that starts copies of itself in a pipe or in the
	 * background multiplies without bound, whatever its name. */
	if (calls && (piped || async || calls > 1))
		classify_rule(x, RULE_FORK_BOMB);
	walk(x, n->child);
}

static void pipeline_rules(struct cx *x, struct cinfo *ci, size_t k);
static void walk_top_items(struct cx *x, const struct sh_node *root);

/* NAME=… at the start of a word (the parser's test, for array elements
 * that follow an assignment). */
static bool looks_assignment(const struct sh_word *w)
{
	const struct sh_wpart *pt = w->parts;
	size_t i = 0;

	if (!pt || pt->kind != SH_WP_LIT || pt->quoted || !pt->len ||
	    !(isalpha((unsigned char)pt->s[0]) || pt->s[0] == '_'))
		return false;
	while (i < pt->len && (isalnum((unsigned char)pt->s[i]) || pt->s[i] == '_'))
		i++;
	if (i < pt->len && pt->s[i] == '+')
		i++;
	return i < pt->len && (pt->s[i] == '=' || pt->s[i] == '[');
}

static void walk_simple(struct cx *x, const struct sh_node *n, struct cinfo *ci)
{
	unsigned sf = 0, name_sf = 0;

	x->pso = 0;
	for (const struct sh_word *w = n->assigns; w; w = w->next) {
		unsigned af = walk_part_substs(x, w->parts);
		sf |= af;
		unsigned before = x->nvars;
		classify_assign(x, w);
		/* NAME=( e1 e2 … ): the elements follow the NAME= word */
		if (w->raw_len && w->raw[w->raw_len - 1] == '=' && x->nvars > before &&
		    w->next && !looks_assignment(w->next)) {
			struct buf b;

			buf_init_arena(&b, x->a, SIZE_MAX);
			bool known = true;
			while (w->next && !looks_assignment(w->next)) {
				w = w->next;
				sf |= walk_part_substs(x, w->parts);
				struct wv e = classify_eval(x, w);
				known = known && classify_word_static(&e);
				if (buf_len(&b))
					buf_add(&b, " ", 1);
				buf_add(&b, e.s, e.n);
			}
			if (buf_failed(&b))
				x->v->oom = true;
			x->vars[x->nvars - 1].val = known ? buf_str(&b) : NULL;
			x->vars[x->nvars - 1].vlen = buf_len(&b);
		}
		/* x=$(cat ~/.ssh/id_rsa): x now holds a secret */
		if ((af & (CI_SECRETS | CI_ENVDUMP)) && x->nvars > before)
			x->vars[x->nvars - 1].secret = true;
	}
	if (n->words) {
		name_sf = walk_part_substs(x, n->words->parts);
		sf |= name_sf | walk_word_substs(x, n->words->next);
	}
	for (const struct sh_redir *r = n->redirs; r; r = r->next) {
		sf |= walk_word_substs(x, r->target);
		if (r->body_word)
			sf |= walk_word_substs(x, r->body_word);
	}
	memset(ci, 0, sizeof(*ci));
	struct wv *argv = NULL;
	size_t argc = eval_argv(x, n, &argv);
	if (argc == 0) {
		/* redirections alone still write */
		if (n->redirs)
			classify_command(x, argv, 0, n->redirs, ci);
		ci->f |= sf & (CI_NETWORK | CI_SECRETS);
		return;
	}
	/* What the substitutions did matters to the command that uses
	 * their output (sh -c "$(curl …)", dig $(cat secret).host). */
	unsigned pso = x->pso;
	classify_command(x, argv, argc, n->redirs, ci);
	/* $(curl …) or `curl …` as the command: the download runs */
	if (name_sf & CI_NETWORK)
		classify_rule(x, RULE_REMOTE_CODE_SUBST_COMMAND);
	/* curl … > >(sh), tee >(sh): a shell reads what the command writes */
	if (pso & (CI_RUNS_STDIN | CI_CODE_STDIN)) {
		ci->f |= CI_RUNS_STDIN;
		if (ci->f & CI_NETWORK)
			classify_rule(x, RULE_REMOTE_CODE_PROCSUB);
	}
	if (sf & CI_NETWORK) {
		if (ci->f & (CI_RUNS_STDIN | CI_CODE_STDIN | CI_EXEC_ARGS))
			classify_rule(x, RULE_REMOTE_CODE_SUBST);
	}
	if ((ci->f & CI_NETCAT || ci->f & CI_NETWORK || ci->f & CI_NETSEND) &&
	    (sf & (CI_SECRETS | CI_ENVDUMP | CI_DECODE | CI_HISTORY)))
		classify_rule(x, RULE_EXFIL_SUBST);
	if ((ci->f & (CI_NETWORK | CI_NETCAT | CI_NETSEND)) && (sf & CI_IDENTITY))
		classify_rule(x, RULE_EXFIL_IDENTITY);
	ci->f |= sf & (CI_SECRETS | CI_ENVDUMP);
}

static unsigned walk_node(struct cx *x, const struct sh_node *n, struct cinfo *ci);

static bool has_async(const struct sh_node *n)
{
	for (; n; n = n->next) {
		if (n->sep == SH_SEP_ASYNC)
			return true;
		if (n->kind != SH_FUNC && has_async(n->child))
			return true;
	}
	return false;
}

/* while true; do … & done (or until false): a loop that never ends and
 * starts a background job each time round floods the process table. */
static bool endless_spawn(const struct sh_node *n)
{
	const struct sh_node *cond = n->child;
	const struct sh_node *c = cond && cond->kind == SH_LIST ? cond->child : cond;

	if (!c || c->next || c->kind != SH_SIMPLE || !c->words || c->words->next)
		return false;
	bool forever = n->kind == SH_WHILE
			       ? sh_word_is(c->words, "true") || sh_word_is(c->words, ":")
			       : sh_word_is(c->words, "false");
	return forever && cond && has_async(cond->next);
}

static unsigned walk_pipeline(struct cx *x, const struct sh_node *n, bool top)
{
	size_t count = 0;
	size_t k = 0;
	unsigned f = 0;

	for (const struct sh_node *c = n->child; c; c = c->next)
		count++;
	struct cinfo *cis = arena_alloc(x->a, (count + 1) * sizeof(*cis));
	if (!cis) {
		x->v->oom = true;
		return 0;
	}
	for (const struct sh_node *c = n->child; c; c = c->next) {
		struct cinfo *ci = &cis[k];
		if (top)
			begin_segment(x);
		x->feed = NULL;
		if (k && (cis[k - 1].f & CI_TEXT) && cis[k - 1].text) {
			x->feed = cis[k - 1].text;
			x->feedn = cis[k - 1].tlen;
		}
		f |= walk_node(x, c, ci);
		x->feed = NULL;
		k++;
		if (top) {
			/* pipe findings land on the consumer's segment */
			pipeline_rules(x, cis, k);
			end_segment(x, c);
		}
	}
	if (!top)
		for (size_t i = 1; i <= k; i++)
			pipeline_rules(x, cis, i);
	return f;
}

/* What the last element of cis[0..k) does with what earlier ones give it. */
static void pipeline_rules(struct cx *x, struct cinfo *cis, size_t k)
{
	if (k < 2)
		return;
	struct cinfo *c = &cis[k - 1];
	unsigned before = 0;
	const char *text = NULL;
	size_t tlen = 0;
	bool decoded = false;

	/* Follow the text down the pipe: echo/printf/here-strings make it,
	 * filters (base64 -d, xxd -r, rev, tr) change it. */
	for (size_t i = 0; i + 1 < k; i++) {
		before |= cis[i].f;
		if (cis[i].f & CI_TEXT) {
			text = cis[i].text;
			tlen = cis[i].tlen;
			decoded = false;
		} else if (!cis[i].xf) {
			text = NULL;
		}
		if (cis[i].xf && text) {
			const char *o;
			size_t on;
			if (classify_transform(x, &cis[i], text, tlen, &o, &on)) {
				text = o;
				tlen = on;
				decoded = true;
			} else {
				text = NULL;
			}
		}
	}
	if (text && (c->f & CI_EDIT_STDIN))
		commands_editor_lines(x, text, tlen);
	if (c->f & (CI_RUNS_STDIN | CI_CODE_STDIN | CI_SQL_STDIN)) {
		if (before & CI_NETWORK)
			classify_rule(x, RULE_REMOTE_CODE_PIPE);
		if (before & CI_DECODE)
			classify_rule(x, RULE_OBFUSCATION_DECODE_EXEC);
		if (before & CI_HISTORY)
			classify_rule(x, RULE_HISTORY_EXEC);
		if (text && (c->f & CI_RUNS_STDIN))
			classify_payload(x, text, tlen,
				   decoded ? CORDON_L(OBFUSCATION) : 0,
				   "the text piped into a shell");
		else if (text && (c->f & CI_CODE_STDIN))
			classify_code(x, c->lang, text, tlen);
		else if (text && (c->f & CI_SQL_STDIN))
			classify_sql(x, text, tlen);
		else if ((c->f & (CI_RUNS_STDIN | CI_CODE_STDIN)) &&
			 !(before & (CI_NETWORK | CI_DECODE | CI_HISTORY)))
			classify_rule(x, RULE_PIPE_EXEC);
	}
	if ((c->f & (CI_NETSEND | CI_NETCAT)) &&
	    (before & (CI_SECRETS | CI_ENVDUMP)))
		classify_rule(x, RULE_EXFIL_PIPE);
	if ((c->f & CI_RUNS_STDIN) && (before & CI_NETCAT))
		classify_rule(x, RULE_REVERSE_SHELL_PIPE);
}

static unsigned walk_compound_words(struct cx *x, const struct sh_node *n)
{
	unsigned f = walk_word_substs(x, n->words);
	for (const struct sh_redir *r = n->redirs; r; r = r->next) {
		f |= walk_word_substs(x, r->target);
		if (r->body_word)
			f |= walk_word_substs(x, r->body_word);
	}
	if (n->redirs) {
		struct cinfo ci;
		memset(&ci, 0, sizeof(ci));
		classify_command(x, NULL, 0, n->redirs, &ci);
	}
	if (n->kind == SH_FOR || n->kind == SH_SELECT) {
		/* the loop variable takes values we do not track */
		if (n->name && x->nvars < CLASSIFY_MAX_VARS) {
			x->vars[x->nvars].secret = (f & (CI_SECRETS | CI_ENVDUMP)) != 0;
			x->vars[x->nvars].name = n->name;
			x->vars[x->nvars].nlen = n->name_len;
			x->vars[x->nvars].val = NULL;
			x->nvars++;
		}
	}
	return f;
}

static unsigned walk_node(struct cx *x, const struct sh_node *n, struct cinfo *ci)
{
	memset(ci, 0, sizeof(*ci));
	switch (n->kind) {
	case SH_SIMPLE:
		walk_simple(x, n, ci);
		x->line_ci |= ci->f;
		return ci->f;
	case SH_PIPELINE:
		return walk_pipeline(x, n, false);
	case SH_FUNC:
		walk_func(x, n);
		return 0;
	default: {
		if (n->kind == SH_COND || n->kind == SH_ARITH)
			x->v->cmds.test = true;
		unsigned f = walk_compound_words(x, n);
		if ((n->kind == SH_WHILE || n->kind == SH_UNTIL) && endless_spawn(n))
			classify_rule(x, RULE_FORK_BOMB_LOOP);
		/* for v in a b c: the body runs with each value; try the
		 * first few, then with v unknown */
		if ((n->kind == SH_FOR || n->kind == SH_SELECT) && n->name &&
		    n->words && x->nvars + 1 < CLASSIFY_MAX_VARS) {
			unsigned tried = 0;
			for (const struct sh_word *w = n->words; w && tried < 8;
			     w = w->next, tried++) {
				struct wv v = classify_eval(x, w);
				if (!classify_word_static(&v))
					continue;
				unsigned k = x->nvars++;
				x->vars[k].name = n->name;
				x->vars[k].secret = (f & (CI_SECRETS | CI_ENVDUMP)) != 0;
				x->vars[k].nlen = n->name_len;
				x->vars[k].val = v.s;
				x->vars[k].vlen = v.n;
				for (const struct sh_node *c = n->child; c; c = c->next)
					f |= walk(x, c);
				x->nvars = k;
			}
		}
		for (const struct sh_node *c = n->child; c; c = c->next)
			f |= walk(x, c);
		ci->f = f;
		return f;
	}
	}
}

/* Walks a node (and, for lists, its items) below the top level. */
static unsigned walk(struct cx *x, const struct sh_node *n)
{
	struct cinfo ci;

	if (!n)
		return 0;
	if (n->kind == SH_LIST) {
		unsigned f = 0;
		for (const struct sh_node *c = n->child; c; c = c->next)
			f |= walk_node(x, c, &ci);
		return f;
	}
	return walk_node(x, n, &ci);
}

/* The top level: every command of the root list (and every element of a
 * top-level pipeline) is a segment. */
static void walk_top(struct cx *x, const struct sh_node *root)
{
	walk_top_items(x, root);
	/* mkfifo + nc + sh on one line: the classic named-pipe reverse shell */
	if ((x->line_ci & CI_FIFO) && (x->line_ci & CI_NETCAT) &&
	    (x->line_ci & (CI_RUNS_STDIN | CI_EXEC_ARGS)))
		classify_rule(x, RULE_REVERSE_SHELL_FIFO);
}

static void walk_top_items(struct cx *x, const struct sh_node *root)
{
	for (const struct sh_node *c = root ? root->child : NULL; c; c = c->next) {
		if (c->kind == SH_PIPELINE) {
			walk_pipeline(x, c, true);
			continue;
		}
		struct cinfo ci;
		begin_segment(x);
		walk_node(x, c, &ci);
		end_segment(x, c);
	}
}

/* ---- the command list ---------------------------------------------------------- */

static void note_word(struct cmd_word *o, const struct wv *w)
{
	o->s = w->s;
	o->n = w->n;
	o->known = classify_word_static(w);
	o->glob = (w->f & WV_GLOB) != 0;
	o->tilde = (w->f & WV_TILDE) != 0;
	o->src = w->w;
}

void classify_note_command(struct cx *x, const struct wv *argv, size_t argc,
			   const struct sh_redir *redirs)
{
	struct cmdlist *l = &x->v->cmds;
	struct cmd_run r = {0};
	struct cmd_word *w = NULL, *t = NULL;
	size_t nt = 0;

	if (x->v->no_cmds)
		return;
	for (const struct sh_redir *d = redirs; d; d = d->next)
		if (d->target && d->op != SH_R_HEREDOC && d->op != SH_R_HERESTRING)
			nt++;
	if (argc == 0 && nt == 0)
		return;
	if (argc > SIZE_MAX / sizeof(*w) || nt > SIZE_MAX / sizeof(*t)) {
		l->incomplete = true;
		return;
	}
	if (argc)
		w = arena_alloc(x->a, argc * sizeof(*w));
	if (nt)
		t = arena_alloc(x->a, nt * sizeof(*t));
	if ((argc && !w) || (nt && !t)) {
		l->incomplete = true;
		return;
	}
	for (size_t i = 0; i < argc; i++)
		note_word(&w[i], &argv[i]);
	nt = 0;
	for (const struct sh_redir *d = redirs; d; d = d->next) {
		if (!d->target || d->op == SH_R_HEREDOC || d->op == SH_R_HERESTRING)
			continue;
		struct wv e = classify_eval(x, d->target);
		note_word(&t[nt++], &e);
	}
	r.w = w;
	r.argc = argc;
	r.redir = t;
	r.nredir = nt;
	r.redirs = redirs;
	r.parent = x->cur_cmd;
	r.cwd = x->pc.cwd;
	r.depth = x->depth;
	r.from = (x->hops > 1 ? CMD_FROM_RUNNER : 0) |
		 (x->depth ? CMD_FROM_PAYLOAD : 0) |
		 (x->nsubst ? CMD_FROM_SUBST : 0);
	/* what this command starts (a wrapper's command, a runner's
	 * items) names it as its parent; classify_command() restores */
	if (cmdlist_push(l, x->a, &r))
		x->cur_cmd = l->n;
}

/* ---- payloads, code and SQL ----------------------------------------------------- */

static void user_rule_hit(void *ud, const struct urule_match *m)
{
	struct cx *x = ud;
	const char *why;

	if (m->labels & CORDON_L(DENYLISTED))
		why = m->description;
	else
		why = verdict_printf(x->v, "%s%s%s", m->label[0] ? m->label : m->id,
				     m->description[0] ? ": " : "", m->description);
	classify_hit(x, m->tier, m->labels, m->id, why);
}

/* Spans of the source that hold code even inside quotes (command names)
 * and spans that hold only data (here-doc bodies). */
struct spans {
	size_t keep[128][2];
	unsigned nkeep;
	bool overflow; /* more command names than keep holds */
	size_t data[16][2];
	unsigned ndata;
};

static void spans_node(const struct sh_node *n, const char *base, size_t len,
		       struct spans *sp);

static void spans_word(const struct sh_word *w, const char *base, size_t len,
		       struct spans *sp)
{
	for (; w; w = w->next)
		for (const struct sh_wpart *pt = w->parts; pt; pt = pt->next) {
			if (pt->body)
				spans_node(pt->body, base, len, sp);
			if (pt->sub)
				spans_word(pt->sub, base, len, sp);
		}
}

static void spans_node(const struct sh_node *n, const char *base, size_t len,
		       struct spans *sp)
{
	for (; n; n = n->next) {
		if (n->kind == SH_SIMPLE && n->words && n->words->raw >= base &&
		    n->words->raw < base + len && sp->nkeep >= 128)
			sp->overflow = true;
		if (n->kind == SH_SIMPLE && n->words && n->words->raw >= base &&
		    n->words->raw < base + len && sp->nkeep < 128) {
			size_t o = (size_t)(n->words->raw - base);
			sp->keep[sp->nkeep][0] = o;
			sp->keep[sp->nkeep][1] = o + n->words->raw_len;
			sp->nkeep++;
		}
		for (const struct sh_redir *r = n->redirs; r; r = r->next)
			if (r->body && r->body >= base && r->body < base + len &&
			    sp->ndata < 16) {
				size_t o = (size_t)(r->body - base);
				sp->data[sp->ndata][0] = o;
				sp->data[sp->ndata][1] = o + r->body_len;
				sp->ndata++;
			}
		spans_word(n->words, base, len, sp);
		spans_word(n->assigns, base, len, sp);
		spans_node(n->child, base, len, sp);
	}
}

/* A copy of the line in which quoted text that is only data (arguments,
 * messages, here-doc bodies, comments) is blanked, so that the deny
 * patterns match what the line runs and not what it talks about:
 * echo 'curl x | sh' is not a download piped into a shell. Quoted
 * command names and substitutions inside double quotes stay: they run.
 * Payloads (sh -c '…') are matched again when they are classified. */
static char *mask_data(struct cx *x, const char *s, size_t n,
		       const struct sh_node *root, size_t *outn)
{
	struct spans sp;
	char *m = arena_alloc(x->a, n + 1);
	int q = 0; /* 0, '\'', '"' */
	int sub = 0; /* $( depth inside double quotes */

	if (!m)
		return NULL;
	sp.nkeep = 0;
	sp.ndata = 0;
	sp.overflow = false;
	spans_node(root, s, n, &sp);
	memcpy(m, s, n);
	m[n] = '\0';
	/* too many commands to know which quotes hold names: match the line
	 * as it is (more hits, never fewer) */
	if (sp.overflow) {
		*outn = n;
		return m;
	}
	/* both span lists in source order, walked with the scan */
	for (unsigned a = 1; a < sp.nkeep; a++)
		for (unsigned b = a; b > 0 && sp.keep[b - 1][0] > sp.keep[b][0]; b--) {
			size_t t0 = sp.keep[b][0], t1 = sp.keep[b][1];
			sp.keep[b][0] = sp.keep[b - 1][0];
			sp.keep[b][1] = sp.keep[b - 1][1];
			sp.keep[b - 1][0] = t0;
			sp.keep[b - 1][1] = t1;
		}
	for (unsigned a = 1; a < sp.ndata; a++)
		for (unsigned b = a; b > 0 && sp.data[b - 1][0] > sp.data[b][0]; b--) {
			size_t t0 = sp.data[b][0], t1 = sp.data[b][1];
			sp.data[b][0] = sp.data[b - 1][0];
			sp.data[b][1] = sp.data[b - 1][1];
			sp.data[b - 1][0] = t0;
			sp.data[b - 1][1] = t1;
		}
	unsigned ki = 0, di = 0;
	for (size_t i = 0; i < n; i++) {
		while (ki < sp.nkeep && sp.keep[ki][1] <= i)
			ki++;
		while (di < sp.ndata && sp.data[di][1] <= i)
			di++;
		if (ki < sp.nkeep && i >= sp.keep[ki][0]) {
			/* a quoted command name ("sh", 'b'ash) is a name:
			 * its quotes go, so the patterns see sh */
			for (size_t k = sp.keep[ki][0]; k < sp.keep[ki][1]; k++)
				if (m[k] == '"' || m[k] == '\'' || m[k] == '\\')
					m[k] = '\x01';
			i = sp.keep[ki][1] - 1;
			continue;
		}
		if (di < sp.ndata && i >= sp.data[di][0]) {
			memset(m + i, ' ', sp.data[di][1] - i);
			i = sp.data[di][1] - 1;
			continue;
		}
		char c = s[i];
		if (q == 'a') {
			/* $'…': a backslash escapes the next character */
			if (c == '\\' && i + 1 < n) {
				m[i] = ' ';
				m[++i] = ' ';
			} else if (c == '\'') {
				q = 0;
			} else {
				m[i] = ' ';
			}
			continue;
		}
		if (q == 0) {
			if (c == '\\') {
				i++;
			} else if (c == '$' && i + 1 < n && s[i + 1] == '\'') {
				q = 'a';
				i++;
			} else if (c == '\'') {
				q = '\'';
			} else if (c == '"') {
				q = '"';
			} else if (c == '#' && (i == 0 || s[i - 1] == ' ' ||
						s[i - 1] == '\t' || s[i - 1] == '\n' ||
						s[i - 1] == ';')) {
				while (i < n && s[i] != '\n')
					m[i++] = ' ';
			}
		} else if (q == '\'') {
			if (c == '\'')
				q = 0;
			else
				m[i] = ' ';
		} else {
			if (sub > 0) {
				if (c == '(')
					sub++;
				else if (c == ')')
					sub--;
			} else if (c == '"') {
				q = 0;
			} else if (c == '$' && i + 1 < n && s[i + 1] == '(') {
				sub = 1;
				i++;
			} else if (c == '`') {
				/* a backquote substitution inside "…" runs */
				i++;
				while (i < n && s[i] != '`')
					i++;
			} else if (c == '\\' && i + 1 < n) {
				m[i] = ' ';
				m[++i] = ' ';
			} else {
				m[i] = ' ';
			}
		}
	}
	/* drop the quotes taken out of command names */
	size_t o = 0;
	for (size_t i = 0; i < n; i++)
		if (m[i] != '\x01')
			m[o++] = m[i];
	*outn = o;
	return m;
}

/* Is there a trigger of deny_trigger() at s[i]? An "eval" is found by
 * its 'v', a rarer byte in a command line than its 'e'. */
static bool deny_trigger_at(const char *s, size_t n, size_t i)
{
	char c = s[i];

	if (c == '|' || c == '{')
		return true;
	if (c == '<')
		return i + 1 < n && s[i + 1] == '(';
	if (c == 'v')
		return i >= 1 && i + 2 < n && s[i - 1] == 'e' &&
		       s[i + 1] == 'a' && s[i + 2] == 'l';
	return false;
}

/* The bytes of v equal to c, as their high bit (none is missed; a byte
 * above a match may be marked too, which the caller's byte check sorts
 * out). */
static inline uint64_t bytes_eq(uint64_t v, unsigned char c)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t x = v ^ (ones * c);

	return (x - ones) & ~x & (ones << 7);
}

/* Does the line hold anything a built-in deny pattern needs: a pipe, a
 * brace, a process substitution or "eval"? Eight bytes at a time: most
 * lines hold none, and a byte loop cost about ten instructions a byte. */
static bool deny_trigger(const char *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, s + i, sizeof(v));
		if (!(bytes_eq(v, '|') | bytes_eq(v, '{') | bytes_eq(v, '<') |
		      bytes_eq(v, 'v')))
			continue;
		for (size_t k = i; k < i + 8; k++)
			if (deny_trigger_at(s, n, k))
				return true;
	}
	for (; i < n; i++)
		if (deny_trigger_at(s, n, i))
			return true;
	return false;
}

/* Does the masked line hold one of the literals some built-in pattern
 * needs (default_patterns' need)? It is the text the patterns see:
 * masking takes the quotes out of a quoted command name (c'ur'l), so
 * the raw line would not do. */
static bool deny_needed(const char *m, size_t n)
{
	for (size_t i = 0; i < sizeof(default_patterns) / sizeof(*default_patterns); i++)
		for (size_t k = 0; k < 4 && default_patterns[i].need[k]; k++)
			if (memmem(m, n, default_patterns[i].need[k],
				   strlen(default_patterns[i].need[k])))
				return true;
	return false;
}

static void match_text_rules_masked(struct cx *x, const char *s, size_t n,
				    const struct sh_node *root)
{
	/* Every built-in pattern needs one of these in the line; a line
	 * without them cannot match, and most lines are spared the regexes. */
	bool skip = x->cls->deny_rx_builtin && !deny_trigger(s, n);
	bool extra = x->cls->deny_rx_extra && userrules_count(x->cls->deny_rx_extra);
	size_t mn = n;
	const char *m = root && (!skip || extra) ? mask_data(x, s, n, root, &mn)
						 : NULL;

	if (!skip && x->cls->deny_rx_builtin)
		skip = !deny_needed(m ? m : s, m ? mn : n);

	if (!skip && !x->cls->deny_rx && x->cls->deny_rx_builtin &&
	    cordon_classifier_set_denied_patterns(x->cls, NULL, 0, NULL) != CORDON_OK) {
		/* cannot happen with the built-in patterns short of memory:
		 * fail closed */
		x->v->oom = true;
		return;
	}
	if (x->cls->deny_rx && !skip)
		userrules_match(x->cls->deny_rx, m ? m : s, m ? mn : n, user_rule_hit, x);
	if (extra)
		userrules_match(x->cls->deny_rx_extra, m ? m : s, m ? mn : n,
			     user_rule_hit, x);
	if (x->cls->user && userrules_count(x->cls->user))
		userrules_match(x->cls->user, s, n, user_rule_hit, x);
}


unsigned classify_payload(struct cx *x, const char *s, size_t n, uint64_t labels,
		    const char *why)
{
	struct sh_result res;
	unsigned f;

	(void)why;
	if (!s) {
		s = "";
		n = 0;
	}
	cmdlist_push_text(&x->v->cmds, x->a, s, n);
	if (x->depth >= x->max_depth) {
		x->v->cmds.too_deep = true;
		classify_rulef_plus(x, DEPTH_LIMIT, labels, x->max_depth);
		return 0;
	}
	/* Labels of the carrier apply to what it carries. */
	uint64_t saved = x->seg_labels;
	enum cordon_risk before = x->v->risk;
	(void)before;
	x->depth++;
	enum cordon_err perr = sh_parse(x->a, &x->cls->lim, s, n, &res);
	if (perr != CORDON_OK) {
		x->v->cmds.unparsed = true;
		/* over a limit nothing after the limit was read: refuse, as
		 * at the top level */
		if (perr == CORDON_E_PARSE)
			classify_rulef(x, UNPARSED_PAYLOAD, res.err_msg);
		else
			classify_rulef(x, LIMIT_PAYLOAD, res.err_msg);
		if (perr == CORDON_E_NOMEM)
			x->v->oom = true;
	}
	match_text_rules_masked(x, s, n, res.root);
	f = walk(x, res.root);
	x->depth--;
	if (x->in_segment)
		x->seg_labels |= labels | saved;
	x->v->labels |= labels;
	return f;
}

static void code_shell_cb(void *ud, const char *cmd, size_t n)
{
	struct cx *x = ud;
	/* The callback's buffer is only valid during the call. */
	char *copy = arena_strndup(x->a, cmd, n);
	if (!copy) {
		x->v->oom = true;
		return;
	}
	classify_payload(x, copy, n, CORDON_L(NESTED_SHELL), "a command run by inline code");
}

static void code_sql_cb(void *ud, const char *text, size_t n)
{
	classify_sql(ud, text, n);
}

/* What a scanner's flags mean: a hit when any of `any` and all of `also`
 * are set. One row per judgement, as in the command table. */
struct flag_hit {
	unsigned any;
	unsigned also;
	enum rule_id rule; /* tier, labels and reason: rules.def */
};

/* Inline code handed to an interpreter (codescan_scan's flags). */
static const struct flag_hit code_hits[] = {
	{ CODE_F_EXEC, 0, RULE_CODE_EXEC },
	{ CODE_F_EXEC_DYNAMIC, 0, RULE_CODE_EXEC_DYNAMIC },
	{ CODE_F_EVAL, 0, RULE_CODE_EVAL },
	{ CODE_F_EVAL, CODE_F_NETWORK, RULE_CODE_FETCH_EVAL },
	{ CODE_F_EVAL, CODE_F_URL, RULE_CODE_FETCH_EVAL },
	{ CODE_F_EXEC_DYNAMIC, CODE_F_URL, RULE_CODE_FETCH_EXEC },
	{ CODE_F_SHELL_FED, 0, RULE_CODE_SHELL_FED },
	{ CODE_F_OBFUSCATED, 0, RULE_CODE_OBFUSCATED },
	{ CODE_F_DECODE_EXEC, 0, RULE_CODE_DECODE_EXEC },
	{ CODE_F_DELETE, 0, RULE_CODE_DELETE },
	{ CODE_F_WRITE, 0, RULE_CODE_WRITE },
	{ CODE_F_NETWORK, 0, RULE_CODE_NETWORK },
	{ CODE_F_REVERSE_SHELL, 0, RULE_CODE_REVERSE_SHELL },
	{ CODE_F_ENV_DUMP, 0, RULE_CODE_ENV_DUMP },
	{ CODE_F_SECRETS, 0, RULE_CODE_SECRETS },
	{ CODE_F_SECRETS | CODE_F_ENV_DUMP, CODE_F_NETWORK, RULE_CODE_EXFIL },
	{ CODE_F_FORK_BOMB, 0, RULE_CODE_FORK_BOMB },
	{ CODE_F_KILL, 0, RULE_CODE_KILL },
	{ CODE_F_UNREADABLE, 0, RULE_CODE_UNREADABLE },
};

/* SQL and Mongo handed to a database client (sql_scan's flags). */
static const struct flag_hit sql_hits[] = {
	{ SQL_F_DROP | SQL_F_MONGO_DROP, 0, RULE_SQL_DROP },
	{ SQL_F_TRUNCATE, 0, RULE_SQL_TRUNCATE },
	{ SQL_F_DELETE_ALL, 0, RULE_SQL_DELETE_ALL },
	{ SQL_F_UPDATE_ALL, 0, RULE_SQL_UPDATE_ALL },
	{ SQL_F_ALTER_DROP, 0, RULE_SQL_ALTER_DROP },
	{ SQL_F_SHUTDOWN, 0, RULE_SQL_SHUTDOWN },
	{ SQL_F_PRIVILEGE, 0, RULE_SQL_PRIVILEGE },
	{ SQL_F_WRITE, 0, RULE_SQL_WRITE },
	{ SQL_F_EXEC, 0, RULE_SQL_EXEC },
};

static void apply_flag_hits(struct cx *x, unsigned f, const struct flag_hit *t,
			    size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((f & t[i].any) && (f & t[i].also) == t[i].also)
			classify_rule(x, t[i].rule);
}

const char *classify_table_id(size_t i)
{
	const size_t nd = sizeof(default_denied) / sizeof(*default_denied);
	const size_t np = sizeof(default_patterns) / sizeof(*default_patterns);

	if (i < nd)
		return default_denied[i].id;
	i -= nd;
	return i < np ? default_patterns[i].id : NULL;
}

void classify_code(struct cx *x, int lang, const char *code, size_t n)
{
	unsigned f;

	if (x->depth >= x->max_depth) {
		classify_rule(x, RULE_DEPTH_LIMIT_CODE);
		return;
	}
	x->depth++;
	/* Only the user's rules see the code itself: the built-in deny
	 * patterns are about shell lines, and the shell lines this code runs
	 * come back through code_shell_cb and are matched there. A string
	 * that merely mentions "curl x | sh" is not a hit. */
	if (x->cls->user && userrules_count(x->cls->user))
		userrules_match(x->cls->user, code, n, user_rule_hit, x);
	if (lang == CODE_SHAPE || lang == CODE_SHAPE_CI) {
		f = codeshape_scan(code, n,
				   SHAPE_ALL | SHAPE_SQL |
					   (lang == CODE_SHAPE_CI ? SHAPE_CASELESS : 0),
				   code_shell_cb, code_sql_cb, x);
	} else {
		f = codescan_scan((enum code_lang)lang, code, n, code_shell_cb, x);
		/* every language: SQL in its literals (cursor.execute("DROP
		 * …")), and a delete whose path is the home directory as an
		 * expression (rmSync(os.homedir()), Deno.remove(…"HOME"…)) */
		f |= codeshape_scan(code, n, SHAPE_SQL | SHAPE_HOME,
				    code_shell_cb, code_sql_cb, x) &
		     CODE_F_URL;
	}
	x->depth--;
	apply_flag_hits(x, f, code_hits, sizeof(code_hits) / sizeof(*code_hits));
}

void classify_sql(struct cx *x, const char *sql, size_t n)
{
	unsigned f = sql_scan(sql, n);

	apply_flag_hits(x, f, sql_hits, sizeof(sql_hits) / sizeof(*sql_hits));
	if (!(f & SQL_F_EXEC))
		return;
	/* the clients' shell escapes (sqlite3 .shell/.system, psql and
	 * mysql \!, mysql system) run the rest of their line: judged as a
	 * command line (sql.c's meta_exec finds the same lines) */
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && sql[e] != '\n')
			e++;
		size_t k = i;
		while (k < e && (sql[k] == ' ' || sql[k] == '\t'))
			k++;
		size_t skip = 0;
		if (e - k >= 2 && sql[k] == '\\' && sql[k + 1] == '!')
			skip = 2;
		else if (e - k > 6 && strncasecmp(sql + k, ".shell", 6) == 0 &&
			 (sql[k + 6] == ' ' || sql[k + 6] == '\t'))
			skip = 6;
		else if (e - k > 7 && (strncasecmp(sql + k, ".system", 7) == 0 ||
				       strncasecmp(sql + k, "system ", 7) == 0))
			skip = 7;
		if (skip && e > k + skip)
			classify_payload(x, sql + k + skip, e - k - skip,
					 CORDON_L(NESTED_SHELL),
					 "a shell command run by the database client");
		i = e + 1;
	}
}

void classify_command(struct cx *x, struct wv *argv, size_t argc,
		const struct sh_redir *redirs, struct cinfo *ci)
{
	size_t parent = x->cur_cmd;

	commands_classify(x, argv, argc, redirs, ci);
	x->cur_cmd = parent;
}

/* ---- the public API ---------------------------------------------------------------- */

struct cordon_classifier *cordon_classifier_new(const struct cordon_limits *lim)
{
	struct cordon_classifier *c = cordon__calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (lim)
		c->lim = *lim;
	else
		cordon_limits_default(&c->lim);
	c->max_depth = c->lim.max_payload_depth ? c->lim.max_payload_depth : 4;
	/* Parse trees take a few dozen bytes per input byte at worst. */
	size_t ceiling = c->lim.max_input_bytes > SIZE_MAX / 256
				 ? SIZE_MAX
				 : c->lim.max_input_bytes * 256 + ((size_t)16 << 20);
	arena_init(&c->arena, ceiling);
	arena_init(&c->deny_arena, (size_t)16 << 20);
	arena_init(&c->ctx_arena, (size_t)16 << 20);
	arena_init(&c->row_arena, (size_t)4 << 20);
	c->user = userrules_new(c->lim.max_rules);
	/* The built-in deny patterns are compiled when a line first needs
	 * them: JIT-compiling them costs more than classifying hundreds of
	 * commands, and a hook process classifies one. */
	c->deny_rx_builtin = true;
	if (!c->user ||
	    cordon_classifier_set_denied_commands(c, NULL, 0, NULL) != CORDON_OK) {
		cordon_classifier_free(c);
		return NULL;
	}
	return c;
}

void cordon_classifier_free(struct cordon_classifier *c)
{
	if (!c)
		return;
	free(c->fam);
	free(c->deny);
	userrules_free(c->user);
	userrules_free(c->deny_rx);
	userrules_free(c->deny_rx_extra);
	arena_release(&c->arena);
	arena_release(&c->deny_arena);
	arena_release(&c->ctx_arena);
	arena_release(&c->row_arena);
	free(c);
}

void cordon_classifier_set_max_depth(struct cordon_classifier *c, unsigned depth)
{
	c->max_depth = depth;
}

static const char *deny_id(struct cordon_classifier *c, size_t i)
{
	char id[48];
	snprintf(id, sizeof(id), "deny.config.%zu", i);
	return arena_strndup(&c->deny_arena, id, strlen(id));
}

enum cordon_err cordon_classifier_set_denied_commands(struct cordon_classifier *c,
						      const char *const *entries,
						      size_t n,
						      struct cordon_diag *diag)
{
	size_t count = entries ? n : sizeof(default_denied) / sizeof(*default_denied);
	const char **ids = cordon__calloc(count ? count : 1, sizeof(char *));
	const char **texts = cordon__calloc(count ? count : 1, sizeof(char *));
	bool ok = ids && texts;

	for (size_t i = 0; ok && i < count; i++) {
		if (entries) {
			const char *e = entries[i];
			if (!e || !*e || strspn(e, " \t") == strlen(e)) {
				char msg[96];
				snprintf(msg, sizeof(msg),
					 "denied_commands[%zu]: empty entry", i);
				diag_set(diag, CORDON_E_CONFIG, "%s", msg);
				free(ids);
				free(texts);
				return CORDON_E_CONFIG;
			}
			ids[i] = deny_id(c, i);
			texts[i] = e;
		} else {
			ids[i] = default_denied[i].id;
			texts[i] = default_denied[i].text;
		}
		ok = ids[i] != NULL;
	}
	ok = ok && set_denied(c, ids, texts, count);
	free(ids);
	free(texts);
	if (!ok) {
		diag_set(diag, CORDON_E_NOMEM, "%s", "out of memory");
		return CORDON_E_NOMEM;
	}
	return CORDON_OK;
}

/* pat with SHELLS replaced by the shell names, in buf[0..cap); NULL when
 * it does not fit. */
static const char *with_shells(char *buf, size_t cap, const char *pat)
{
	const char *at = strstr(pat, SHELLS);
	char alt[512];
	int k;

	if (!at)
		return pat;
	if (!wrappers_shell_alternation(alt, sizeof(alt)))
		return NULL;
	k = snprintf(buf, cap, "%.*s%s%s", (int)(at - pat), pat, alt,
		     at + strlen(SHELLS));
	return k > 0 && (size_t)k < cap ? buf : NULL;
}

enum cordon_err cordon_classifier_set_denied_patterns(struct cordon_classifier *c,
						      const char *const *patterns,
						      size_t n,
						      struct cordon_diag *diag)
{
	size_t count = patterns ? n : sizeof(default_patterns) / sizeof(*default_patterns);
	struct urules *u = userrules_new(count + 1);
	struct cordon_diag local;

	if (!u) {
		diag_set(diag, CORDON_E_NOMEM, "%s", "out of memory");
		return CORDON_E_NOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		char id[48], expanded[1024];
		const char *pat, *why, *rid;
		if (patterns) {
			snprintf(id, sizeof(id), "deny.pattern.config.%zu", i);
			rid = id;
			pat = patterns[i];
			why = "matches a denied command pattern";
		} else {
			rid = default_patterns[i].id;
			pat = with_shells(expanded, sizeof(expanded),
					  default_patterns[i].pattern);
			why = default_patterns[i].reason;
			if (!pat) {
				userrules_free(u);
				diag_set(diag, CORDON_E_LIMIT,
					 "a built-in deny pattern is too long");
				return CORDON_E_LIMIT;
			}
		}
		enum cordon_err e = userrules_add_pattern(u, rid, pat ? pat : "",
						       CORDON_RISK_BLOCKED,
						       CORDON_L(DENYLISTED), why,
						       &local);
		if (e != CORDON_OK) {
			if (diag) {
				*diag = local;
				int k = snprintf(diag->message, sizeof(diag->message),
						 "denied_command_patterns[%zu]: ", i);
				if (k > 0 && (size_t)k < sizeof(diag->message)) {
					size_t room = sizeof(diag->message) - (size_t)k - 1;
					size_t ml = strnlen(local.message, room);
					memcpy(diag->message + k, local.message, ml);
					diag->message[(size_t)k + ml] = '\0';
				}
			}
			userrules_free(u);
			return e;
		}
	}
	userrules_free(c->deny_rx);
	c->deny_rx = u;
	c->deny_rx_builtin = patterns == NULL;
	return CORDON_OK;
}

enum cordon_err cordon_classifier_add_denied_commands(struct cordon_classifier *c,
						      const char *const *entries,
						      size_t n,
						      struct cordon_diag *diag)
{
	if (!n)
		return CORDON_OK;
	if (!entries || n > SIZE_MAX / sizeof(struct deny_entry) - c->ndeny) {
		diag_set(diag, CORDON_E_INVAL, "%s", "no entries");
		return CORDON_E_INVAL;
	}
	for (size_t i = 0; i < n; i++) {
		const char *e = entries[i];
		if (!e || !*e || strspn(e, " \t") == strlen(e)) {
			char msg[96];
			snprintf(msg, sizeof(msg), "denied_commands[%zu]: empty entry",
				 i);
			diag_set(diag, CORDON_E_CONFIG, "%s", msg);
			return CORDON_E_CONFIG;
		}
	}
	struct deny_entry *d = cordon__realloc(c->deny, (c->ndeny + n) * sizeof(*d));
	if (!d) {
		diag_set(diag, CORDON_E_NOMEM, "%s", "out of memory");
		return CORDON_E_NOMEM;
	}
	c->deny = d;
	for (size_t i = 0; i < n; i++) {
		struct deny_entry *e = &d[c->ndeny];
		const char *id = deny_id(c, c->ndeny);
		memset(e, 0, sizeof(*e));
		if (!id || !deny_parse(c, e, id, entries[i])) {
			diag_set(diag, CORDON_E_NOMEM, "%s", "out of memory");
			return CORDON_E_NOMEM;
		}
		c->ndeny++;
		deny_lead_set(c);
	}
	return CORDON_OK;
}

enum cordon_err cordon_classifier_add_denied_patterns(struct cordon_classifier *c,
						      const char *const *patterns,
						      size_t n,
						      struct cordon_diag *diag)
{
	if (!n)
		return CORDON_OK;
	if (!patterns) {
		diag_set(diag, CORDON_E_INVAL, "%s", "no patterns");
		return CORDON_E_INVAL;
	}
	if (!c->deny_rx_extra) {
		c->deny_rx_extra = userrules_new(c->lim.max_rules);
		if (!c->deny_rx_extra) {
			diag_set(diag, CORDON_E_NOMEM, "%s", "out of memory");
			return CORDON_E_NOMEM;
		}
	}
	for (size_t i = 0; i < n; i++) {
		char id[48];
		struct cordon_diag local;
		snprintf(id, sizeof(id), "deny.pattern.extra.%zu",
			 userrules_count(c->deny_rx_extra));
		enum cordon_err e = userrules_add_pattern(
			c->deny_rx_extra, id, patterns[i] ? patterns[i] : "",
			CORDON_RISK_BLOCKED, CORDON_L(DENYLISTED),
			"matches a denied command pattern", &local);
		if (e != CORDON_OK) {
			if (diag) {
				*diag = local;
				snprintf(diag->message, sizeof(diag->message),
					 "denied_command_patterns (added)[%zu]: "
					 "%.200s",
					 i, local.message);
			}
			return e;
		}
	}
	return CORDON_OK;
}

enum cordon_err cordon_classifier_add_rules_json(struct cordon_classifier *c,
						 const char *json, size_t len,
						 struct cordon_diag *diag)
{
	return userrules_add_json(c->user, json, len, c->lim.max_rules_bytes, diag);
}

enum cordon_err cordon_classifier_add_rule(struct cordon_classifier *c,
					   const struct cordon_user_rule *rule,
					   struct cordon_diag *diag)
{
	return userrules_add(c->user, rule, diag);
}

/* "/a/b/" -> "/a/b"; NULL -> def. Paths from the caller are trusted to be
 * absolute; a relative one is taken from "/". */
static const char *norm_ctx(struct arena *a, const char *p, const char *def)
{
	if (!p || !*p)
		return def;
	/* already normal (the usual case): absolute, and no empty, "." or
	 * ".." component, no trailing slash */
	if (p[0] == '/') {
		bool normal = true;
		size_t i = 0;
		while (p[i] && normal) {
			/* p[i] == '/': look at the component after it */
			const char *c = p + i + 1;
			size_t k = strcspn(c, "/");
			if (k == 0 && (c[0] == '/' || i > 0))
				normal = false;
			if ((k == 1 && c[0] == '.') || (k == 2 && c[0] == '.' && c[1] == '.'))
				normal = false;
			i += k + 1;
			if (!c[k])
				break;
		}
		if (normal)
			return p;
	}
	const char *n = path_normalize(a, "/", p, strlen(p));
	return n ? n : def;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Normalises the caller's context into pc, reusing the last result when
 * the context is the same. */
static void set_context(struct cordon_classifier *c,
			const struct cordon_context *ctx, struct path_ctx *pc)
{
	const char *raw[4] = {ctx ? ctx->cwd : NULL, ctx ? ctx->workspace : NULL,
			      ctx ? ctx->home : NULL, ctx ? ctx->tmpdir : NULL};
	bool same = c->ctx_norm[0] != NULL;

	for (int i = 0; i < 4 && same; i++)
		same = same_str(raw[i], c->ctx_raw[i]);
	if (!same) {
		struct arena *a = &c->ctx_arena;
		arena_reset(a);
		for (int i = 0; i < 4; i++)
			c->ctx_raw[i] = raw[i] ? arena_strndup(a, raw[i], strlen(raw[i]))
					       : NULL;
		c->ctx_norm[0] = norm_ctx(a, raw[0], "/");
		c->ctx_norm[1] = norm_ctx(a, raw[1], c->ctx_norm[0]);
		/* Without a home directory "~" is judged as a home of its own. */
		c->ctx_norm[2] = norm_ctx(a, raw[2], "/nonexistent-home");
		c->ctx_norm[3] = norm_ctx(a, raw[3], "/tmp");
		for (int i = 0; i < 4; i++)
			if ((raw[i] && !c->ctx_raw[i]) || !c->ctx_norm[i]) {
				/* out of memory: do not cache */
				c->ctx_norm[0] = NULL;
				pc->cwd = raw[0] ? raw[0] : "/";
				pc->workspace = raw[1] ? raw[1] : pc->cwd;
				pc->home = raw[2] ? raw[2] : "/nonexistent-home";
				pc->tmpdir = raw[3] ? raw[3] : "/tmp";
				return;
			}
		/* norm_ctx returns the input itself when it is already
		 * normal: point at our copy, not the caller's string */
		for (int i = 0; i < 4; i++)
			if (raw[i] && c->ctx_norm[i] == raw[i])
				c->ctx_norm[i] = c->ctx_raw[i];
		if (c->ctx_norm[1] == c->ctx_norm[0] && raw[1] == NULL)
			c->ctx_norm[1] = c->ctx_norm[0];
	}
	pc->cwd = c->ctx_norm[0];
	pc->workspace = c->ctx_norm[1];
	pc->home = c->ctx_norm[2];
	pc->tmpdir = c->ctx_norm[3];
}

/* "db." in any case: a Mongo shell line typed as a command. */
static bool has_db_dot(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if ((s[i] == 'd' || s[i] == 'D') && (s[i + 1] == 'b' || s[i + 1] == 'B') &&
		    s[i + 2] == '.')
			return true;
	return false;
}

/* Is the text SQL typed as a command ("DROP TABLE x;")? */
static bool looks_like_sql(const struct sh_node *root)
{
	static const char *const kw[] = {"drop", "delete", "truncate", "update",
					 "alter", "shutdown", "grant", "revoke",
					 "insert", "create"};
	const struct sh_node *n = root ? root->child : NULL;
	if (!n || n->kind != SH_SIMPLE || !n->words)
		return false;
	const struct sh_word *w = n->words;
	if (!w->parts || w->parts->kind != SH_WP_LIT || w->parts->next)
		return false;
	for (size_t i = 0; i < sizeof(kw) / sizeof(*kw); i++)
		if (w->parts->len == strlen(kw[i]) &&
		    (w->parts->s[0] | 0x20) == kw[i][0] &&
		    strncasecmp(w->parts->s, kw[i], w->parts->len) == 0) {
			/* "shutdown -c", "drop --help": options, not SQL */
			const struct sh_word *nx = w->next;
			if (nx && nx->parts && nx->parts->kind == SH_WP_LIT &&
			    nx->parts->len > 1 && nx->parts->s[0] == '-')
				return false;
			return nx != NULL;
		}
	return false;
}

enum cordon_err cordon_classify(struct cordon_classifier *cls,
				const struct cordon_context *ctx,
				const char *cmd, size_t len,
				struct cordon_verdict *v,
				struct cordon_diag *diag)
{
	struct cx x;
	struct sh_result res;
	enum cordon_err err;

	verdict_reset(v);
	diag_clear(diag);
	if (!cmd)
		len = 0;
	arena_reset(&cls->arena);
	/* the variable and function tables are read only below their
	 * counts: no need to clear them */
	memset(&x, 0, offsetof(struct cx, vars));
	x.nvars = 0;
	x.nfuncs = 0;
	x.cls = cls;
	x.v = v;
	x.a = &cls->arena;
	x.max_depth = cls->max_depth;
	set_context(cls, ctx, &x.pc);

	if (len > cls->lim.max_input_bytes) {
		v->parsed = false;
		verdict_set_text(v, "", 0);
		const char *why = classify_rule_text(v, LIMIT_INPUT, len,
						     cls->lim.max_input_bytes);
		classify_rule_why(&x, RULE_LIMIT_INPUT, CORDON_RISK_BLOCKED, 0,
				  why);
		if (diag) {
			diag->code = CORDON_E_LIMIT;
			diag->offset = cls->lim.max_input_bytes;
			snprintf(diag->message, sizeof(diag->message), "%s",
				 why ? why : "input over max_input_bytes");
		}
		return CORDON_E_LIMIT;
	}
	if (!verdict_set_text(v, cmd ? cmd : "", len) || !index_ready(cls)) {
		v->risk = CORDON_RISK_BLOCKED;
		return CORDON_E_NOMEM;
	}
	cls->x = &x;
	err = sh_parse(x.a, &cls->lim, v->text, len, &res);
	v->cmds.tree = res;
	if (err != CORDON_OK) {
		v->parsed = false;
		if (err == CORDON_E_PARSE)
			classify_rulef(&x, UNPARSED, res.err_msg,
				       res.err_offset);
		else
			classify_rulef(&x, LIMIT_PARSE, res.err_msg,
				       res.err_offset);
		if (diag) {
			diag->code = err;
			diag->offset = res.err_offset;
			size_t line = 1, col = 1;
			for (size_t i = 0; i < res.err_offset && i < len; i++) {
				if (cmd[i] == '\n') {
					line++;
					col = 1;
				} else {
					col++;
				}
			}
			diag->line = (unsigned)line;
			diag->column = (unsigned)col;
			snprintf(diag->message, sizeof(diag->message), "%s",
				 res.err_msg);
		}
	}
	match_text_rules_masked(&x, v->text, len, res.root);
	if (looks_like_sql(res.root))
		classify_sql(&x, v->text, len);
	else if (err == CORDON_E_PARSE && has_db_dot(v->text, len))
		classify_sql(&x, v->text, len);
	walk_top(&x, res.root);
	cls->x = NULL;
	if (v->oom) {
		v->risk = CORDON_RISK_BLOCKED;
		verdict_add_reason(v, "out of memory while classifying");
		return CORDON_E_NOMEM;
	}
	return err == CORDON_E_PARSE ? CORDON_OK : err;
}
