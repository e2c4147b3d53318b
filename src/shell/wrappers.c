/* wrappers — the one table of commands that run other commands; see
 * wrappers.h. Its rows are in wrappers_table.c (the library reads them as
 * wrappers_rows, which indexgen writes from them); the interpreters' rows
 * are here.
 */
#include <ctype.h>
#include <string.h>

#include "wrappers.h"
#include "names.h"

#include "banned.h"

/* The interpreters whose operands can be code; names ending in '*' also
 * match with a version (python3, python3.11, perl5.36). */
static const struct wrappers_interp interps[] = {
	{ "python*", CODE_PYTHON, " -c ", " -W -X -Q ", " -m ", NULL },
	{ "pypy*", CODE_PYTHON, " -c ", " -W -X ", " -m ", NULL },
	{ "node", CODE_NODE, " -e -p --eval --print ",
	  " -r --require --import --loader --env-file ", NULL, NULL },
	{ "nodejs", CODE_NODE, " -e -p --eval --print ", " -r --require ",
	  NULL, NULL },
	{ "bun", CODE_NODE, " -e -p --eval --print ", " -r ", NULL, NULL },
	{ "deno", CODE_NODE, " eval ", " ", NULL, NULL },
	{ "perl*", CODE_PERL, " -e -E ", " -I -M -m -x ", NULL, NULL },
	{ "ruby*", CODE_RUBY, " -e ", " -r -I -C ", NULL, NULL },
	{ "php*", CODE_PHP, " -r -B -R -E ", " -c -d -z ", NULL, NULL },
	{ "lua*", CODE_LUA, " -e ", " -l ", NULL, NULL },
	{ "luajit", CODE_LUA, " -e ", " -l -b ", NULL, NULL },
	/* read by shape (codeshape.c); options from each tool's --help */
	{ "R", CODE_SHAPE, " -e ", " -f --file ", NULL, NULL },
	{ "Rscript", CODE_SHAPE, " -e ", " ", NULL, NULL },
	{ "crystal", CODE_SHAPE, " eval ", " -o -D --define ", NULL,
	  " run build i interactive " },
	{ "expect", CODE_SHAPE, " -c ", " -f ", NULL, NULL },
	{ "gccgo", CODE_SHAPE, NULL, " -o ", NULL, " " },
	{ "go", CODE_SHAPE, NULL,
	  " -o -C -p -ldflags -gcflags -asmflags -tags -mod -modfile "
	  "-exec -overlay -pkgdir -toolexec -buildmode -compiler ",
	  NULL, " run build " },
	{ "groovy", CODE_SHAPE, " -e ", " -cp -classpath --classpath -D ",
	  NULL, NULL },
	{ "jrunscript", CODE_SHAPE, " -e ", " -cp -classpath -l -J -f ",
	  NULL, NULL },
	{ "julia", CODE_SHAPE, " -e -E --eval --print ",
	  " -L --load -J --sysimage -p --procs -t --threads --project ",
	  NULL, NULL },
	{ "rustc", CODE_SHAPE, NULL,
	  " -o --out-dir -C --codegen --edition --crate-type --crate-name "
	  "-L -l --cfg --target --emit ",
	  NULL, " " },
	{ "tclsh*", CODE_SHAPE, NULL, " ", NULL, NULL },
	{ "v", CODE_SHAPE, " -e ", " -o ", NULL, " run crun " },
	{ "wish*", CODE_SHAPE, NULL, " ", NULL, NULL },
};

/* memcmp order, shorter first on a tie, without a strlen per probe: the
 * lookup runs for every command word. b may hold NUL bytes; a ends at
 * its terminator. */
static int cmp_name(const char *a, const char *b, size_t bn)
{
	for (size_t i = 0; i < bn; i++) {
		unsigned char ca = (unsigned char)a[i], cb = (unsigned char)b[i];

		if (ca == 0)
			return -1;
		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return a[bn] ? 1 : 0;
}

/* Is the word (s, n) one of the words of list (" a b ")? */
static bool in_words(const char *list, const char *s, size_t n)
{
	if (!list || n == 0)
		return false;
	for (const char *p = strstr(list, " "); p; p = strstr(p + 1, " ")) {
		if (strncmp(p + 1, s, n) == 0 && p[1 + n] == ' ')
			return true;
	}
	return false;
}

static const struct wrapper *find_name(const char *name, size_t n)
{
	size_t lo = 0, hi = wrappers_rows_count;

	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);
		return r && r->wrapper ? &wrappers_rows[r->wrapper - 1] : NULL;
	}

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_name(wrappers_str(wrappers_rows[mid].name), name,
				 n);

		if (c < 0)
			lo = mid + 1;
		else if (c > 0)
			hi = mid;
		else
			return &wrappers_rows[mid];
	}
	return NULL;
}

const struct wrapper *wrappers_find(const char *name, size_t n, const char *sub,
				    size_t subn)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	if (w && w->sub && !(sub && in_words(wrappers_str(w->sub), sub, subn)))
		return NULL;
	return w;
}

const char *wrappers_subs(const char *name, size_t n)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	return w ? wrappers_str(w->sub) : NULL;
}

bool wrappers_is_shell(const char *name, size_t n)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	return w && w->kind == WRAPPER_SHELL;
}

bool wrappers_is_any_shell(const char *name, size_t n)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	return w && (w->kind == WRAPPER_SHELL || w->kind == WRAPPER_FOREIGN);
}

/* The first letters of the interpreters' names, so that most command
 * words are turned away with one look (test_wrappers checks it against
 * interps). */
static const char interp_firsts[] = "Rbcdegjlnprtvw";

bool wrappers_interp_firsts_cover(void)
{
	for (size_t i = 0; i < sizeof(interps) / sizeof(*interps); i++)
		if (!strchr(interp_firsts, interps[i].name[0]))
			return false;
	return true;
}

const struct wrappers_interp *wrappers_find_interp(const char *name, size_t n)
{
	/* every exact name and every stem ("python") is in the index; only
	 * a versioned name (python3.12) can match past it */
	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);

		if (r)
			return r->interp ? &interps[r->interp - 1] : NULL;
		if (!n || !(isdigit((unsigned char)name[n - 1]) ||
			    name[n - 1] == '.'))
			return NULL;
	}
	return wrappers_interp_scan(name, n);
}

const struct wrappers_interp *wrappers_interps(size_t *n)
{
	*n = sizeof(interps) / sizeof(*interps);
	return interps;
}

const struct wrappers_interp *wrappers_interp_scan(const char *name, size_t n)
{
	if (!n || !name[0] ||
	    !memchr(interp_firsts, name[0], sizeof(interp_firsts) - 1))
		return NULL;
	for (size_t i = 0; i < sizeof(interps) / sizeof(*interps); i++) {
		const char *p = interps[i].name;
		size_t pl;

		if (!n || p[0] != name[0])
			continue;
		pl = strlen(p);
		if (p[pl - 1] != '*') {
			if (pl == n && memcmp(name, p, n) == 0)
				return &interps[i];
			continue;
		}
		pl--;
		if (n < pl || memcmp(name, p, pl) != 0)
			continue;
		/* python3, python3.11, perl5.36 — not pythonic-tool */
		bool ok = true;
		for (size_t k = pl; k < n; k++)
			if (!isdigit((unsigned char)name[k]) && name[k] != '.')
				ok = false;
		if (ok)
			return &interps[i];
	}
	return NULL;
}

bool wrappers_opens_code(const char *name, size_t n)
{
	const struct wrapper *w;

	if (!name || n == 0)
		return true;
	if (wrappers_find_interp(name, n))
		return true;
	/* "npm" alone is not a wrapper: only "npm exec" is, and a rule on
	 * "npm test" allows no other subcommand */
	w = find_name(name, n);
	return w && !w->sub && w->kind != WRAPPER_NAMES;
}

/* A long option (s, n) without its "=value": does list hold it, or hold
 * exactly one option it is a prefix of (getopt_long takes "--sig" for
 * "--signal")? Prefixes shorter than "--xx" are not taken. */
/* The word of list (" --a --b ") that long option s[0..n) names, exactly
 * or as a unique prefix of at least "--xy" (getopt_long's rule), or NULL;
 * an ambiguous prefix names none (getopt refuses it). */
static const char *long_find(const char *list, const char *s, size_t n)
{
	const char *hit = NULL;
	bool ambiguous = false;

	if (!list || n < 3)
		return NULL;
	for (const char *p = strstr(list, " "); p; p = strstr(p + 1, " ")) {
		if (strncmp(p + 1, s, n) != 0)
			continue;
		if (p[1 + n] == ' ')
			return p + 1; /* exact */
		if (n < 4)
			continue;
		ambiguous = hit != NULL;
		hit = p + 1;
	}
	return ambiguous ? NULL : hit;
}

static bool long_in(const char *list, const char *s, size_t n)
{
	return long_find(list, s, n) != NULL;
}

/* Does long option s[0..n) name word (a list word, ending at a space)? */
static bool long_names(const char *word, const char *name)
{
	size_t k = strlen(name);

	return word && strncmp(word, name, k) == 0 && word[k] == ' ';
}

static bool is_assignment(const char *s, size_t n)
{
	size_t k = 0;

	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
		k++;
	return k < n && s[k] == '=';
}

/* Is word i (s, n) one of the row's prog_opts (--exec PROG, --exec=PROG,
 * -x PROG, -xPROG)? Then out->prog and prog_off say where PROG is. */
static bool prog_option(const struct wrapper *w, size_t i, const char *s,
			size_t n, struct wrapper_scan *out)
{
	if (s[1] == '-') {
		const char *eq = memchr(s, '=', n);
		size_t kn = eq ? (size_t)(eq - s) : n;

		if (!long_find(wrappers_str(w->prog_opts), s, kn) ||
		    in_words(wrappers_str(w->long_flags), s, kn))
			return false;
		out->prog = eq ? i : i + 1;
		out->prog_off = eq ? kn + 1 : 0;
		return true;
	}
	if (!in_words(wrappers_str(w->prog_opts), s, 2))
		return false;
	out->prog = n > 2 ? i : i + 1;
	out->prog_off = n > 2 ? 2 : 0;
	return true;
}

/* Reads options from word i on; returns the first word after them. */
static size_t scan_options(const struct wrapper *w, size_t i, size_t argc,
			   wrapper_word_fn *get, const void *ctx,
			   struct wrapper_scan *out)
{
	const char *short_val = wrappers_str(w->short_val);
	const char *short_opt = wrappers_str(w->short_opt);
	const char *long_val = wrappers_str(w->long_val);
	const char *long_val2 = wrappers_str(w->long_val2);
	const char *payload_long = wrappers_str(w->payload_long);
	const char *chdir_long = wrappers_str(w->chdir_long);

	while (i < argc) {
		const char *s;
		size_t n;

		if (!get(ctx, i, &s, &n)) {
			out->dynamic = true;
			return i;
		}
		if (w->cmd_opts && in_words(wrappers_str(w->cmd_opts), s, n)) {
			out->cmd = i + 1;
			return argc;
		}
		if (n == 2 && s[0] == '-' && s[1] == '-')
			return i + 1;
		if (w->prog_opts && n >= 2 && s[0] == '-' &&
		    prog_option(w, i, s, n, out)) {
			/* --exec=PROG, -xPROG, or PROG next */
			i += out->prog_off ? 1 : 2;
			continue;
		}
		if (n < 2 || s[0] != '-') {
			/* getopt permutes: fd PATTERN -x CMD */
			if (!w->cmd_opts)
				return i;
			i++;
			continue;
		}
		if ((w->flags & WF_DASH_NUM) && isdigit((unsigned char)s[1])) {
			i++;
			continue;
		}
		if (s[1] == '-') {
			const char *eq = memchr(s, '=', n);
			size_t kn = eq ? (size_t)(eq - s) : n;

			if (payload_long && kn <= strlen(payload_long) &&
			    kn >= 4 && memcmp(s, payload_long, kn) == 0) {
				out->payload = eq ? i : i + 1;
				out->payload_off = eq ? kn + 1 : 0;
				return argc;
			}
			if (chdir_long &&
			    (long_names(long_find(long_val, s, kn),
					chdir_long) ||
			     (kn == strlen(chdir_long) &&
			      memcmp(s, chdir_long, kn) == 0))) {
				/* --chdir=DIR, or DIR next when it takes one */
				if (eq) {
					out->chdir = i;
					out->chdir_off = kn + 1;
				} else if (long_in(long_val, s, kn) &&
					   i + 1 < argc) {
					out->chdir = i + 1;
					out->chdir_off = 0;
				}
			}
			if (eq)
				i++;
			else if (long_in(long_val2, s, kn))
				i += 3;
			else if (long_in(long_val, s, kn))
				i += 2;
			else
				i++;
			continue;
		}
		/* a cluster: the first option that takes a value takes the
		 * rest of it, or (a required value) the next word */
		size_t next = i + 1;
		for (size_t k = 1; k < n; k++) {
			char c = s[k];
			if (w->payload_short && c == w->payload_short) {
				out->payload = k + 1 < n ? i : i + 1;
				out->payload_off = k + 1 < n ? k + 1 : 0;
				return argc;
			}
			if (short_val && strchr(short_val, c) && c) {
				if (c == w->chdir_short &&
				    (k + 1 < n || i + 1 < argc)) {
					out->chdir = k + 1 < n ? i : i + 1;
					out->chdir_off = k + 1 < n ? k + 1 : 0;
				}
				if (k + 1 == n)
					next = i + 2;
				break;
			}
			if (short_opt && strchr(short_opt, c) && c) {
				if (c == w->chdir_short && k + 1 < n) {
					out->chdir = i;
					out->chdir_off = k + 1;
				}
				break;
			}
		}
		i = next;
	}
	return i;
}

void wrappers_scan(const struct wrapper *w, size_t argc, wrapper_word_fn *get,
		   const void *ctx, struct wrapper_scan *out)
{
	size_t i = w->sub ? 2 : 1;

	memset(out, 0, sizeof(*out));
	out->payload = argc;
	out->chdir = argc;
	out->cmd = argc;
	out->prog = argc;
	if (w->flags & WF_OPERANDS_FIRST)
		i += w->operands;
	/* a word known only at run time is taken for an operand, as the
	 * first word that is not an option */
	i = scan_options(w, i, argc, get, ctx, out);
	out->opt_end = i < argc ? i : argc;
	if (out->payload < argc) {
		out->assigns = out->cmd = argc;
		return;
	}
	if (w->cmd_opts) {
		/* after the option, else from a word known only at run time
		 * (it may be the option) */
		if (out->cmd == argc && out->dynamic)
			out->cmd = out->opt_end;
		out->assigns = out->cmd;
		return;
	}
	if (!(w->flags & WF_OPERANDS_FIRST))
		i += w->operands;
	if (i > argc)
		i = argc;
	out->assigns = i;
	while ((w->flags & WF_ASSIGNS) && i < argc) {
		const char *s;
		size_t n;
		if (!get(ctx, i, &s, &n) || !is_assignment(s, n))
			break;
		i++;
	}
	out->cmd = w->prog_opts && out->prog >= argc ? argc : i;
}

const struct wrapper *wrappers_table(size_t *n)
{
	*n = wrappers_rows_count;
	return wrappers_rows;
}

bool wrappers_table_sorted(void)
{
	for (size_t i = 1; i < wrappers_rows_count; i++)
		if (strcmp(wrappers_str(wrappers_rows[i - 1].name),
			   wrappers_str(wrappers_rows[i].name)) >= 0)
			return false;
	return true;
}

size_t wrappers_shell_alternation(char *buf, size_t cap)
{
	size_t o = 0;

	/* longest first, so that an alternation tried left to right takes
	 * "bash" before "ash" */
	for (size_t len = 16; len > 0; len--)
		for (size_t i = 0; i < wrappers_rows_count; i++) {
			const char *name = wrappers_str(wrappers_rows[i].name);
			size_t n = strlen(name);
			if (wrappers_rows[i].kind != WRAPPER_SHELL || n != len)
				continue;
			if (o + n + 2 > cap)
				return 0;
			if (o)
				buf[o++] = '|';
			memcpy(buf + o, name, n);
			o += n;
		}
	if (o >= cap)
		return 0;
	buf[o] = '\0';
	return o;
}
