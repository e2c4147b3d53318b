/* The classifier's lookup tables: bisection needs them sorted, and the
 * lookups must find what the tables hold; the name index (names.h) must
 * give for every name exactly what searching each table gives. */
#include <string.h>

#include "classify_int.h"
#include "cmdtab.h"
#include "commands_int.h"
#include "names.h"
#include "wrappers.h"
#include "tap.h"

/* The interpreter lookup through the index against the plain scan. */
static void same_interp(const char *name, size_t n)
{
	if (wrappers_find_interp(name, n) != wrappers_interp_scan(name, n))
		ok(0,
		   "the index and the scan differ on the interpreter of "
		   "\"%.*s\"",
		   (int)n, name);
}

static void name_index(void)
{
	size_t nw, nh, bad = 0;
	const struct wrapper *w = wrappers_table(&nw);
	static const char *const interp_names[] = {
		"python", "python3", "python3.12", "python.", "pythonic",
		"pypy3",  "perl",    "perl5.36",   "node",    "nodejs",
		"nodex",  "bun",     "deno",	   "ruby",    "ruby3.2",
		"rubyx",  "php",     "php8.2",	   "lua",     "lua5.4",
		"luajit", "p",	     "3",	   "sh",      "bash5.2",
		"rm",
	};

	ok(names_ready(), "the name index is there");
	for (size_t i = 0; i < nw; i++) {
		const char *name = wrappers_str(w[i].name);
		const struct name_roles *r = names_find(name, strlen(name));
		if (!r || names_wrapper(r) != &w[i])
			bad++;
		same_interp(name, strlen(name));
	}
	ok(bad == 0, "each of the %zu wrapper rows is its name's wrapper", nw);
	bad = 0;
	nh = commands_handler_count();
	for (size_t i = 0; i < nh; i++) {
		size_t len;
		handler_fn *fn;
		const char *name = commands_handler_row(i, &len, &fn);
		const struct name_roles *r = names_find(name, len);

		if (!r || names_handler(r) != fn ||
		    commands_find_handler(name, len) != fn)
			bad++;
		same_interp(name, len);
	}
	ok(bad == 0, "each of the %zu handler rows is its name's handler", nh);
	for (size_t i = 0; i < sizeof(interp_names) / sizeof(*interp_names);
	     i++)
		same_interp(interp_names[i], strlen(interp_names[i]));
	same_interp("", 0);
	ok(1, "interpreters found through the index are the scan's");
	ok(!names_find("rmx", 3) && !names_find("r", 1) && !names_find("", 0) &&
		   !names_find("rm\0x", 4),
	   "names no table holds are not in the index");
	ok(wrappers_find_interp("python3.12", 10) != NULL &&
		   wrappers_find_interp("pythonic", 8) == NULL,
	   "python3.12 is python, pythonic is not");
}

/* Every name of the list has the flag, and only the list's names do. */
static void same_flags(const char *const *list, size_t n, unsigned flag,
		       const char *what)
{
	size_t bad = 0, with = 0;

	for (size_t i = 0; i < n; i++) {
		const struct name_roles *r =
			names_find(list[i], strlen(list[i]));
		if (!r || !(r->flags & flag))
			bad++;
	}
	for (size_t i = 0; i < names_index_cap; i++)
		with += names_index[i].len && (names_index[i].flags & flag);
	ok(bad == 0 && with == n, "the %zu %s are flagged, nothing else", n,
	   what);
}

/* The index's family rows are the table's: each family name of each rule
 * of cmdtab_rules, in table order, and nothing more. */
static void family_index(void)
{
	size_t bad = 0, pairs = 0, listed = 0, fams = 0;

	for (size_t r = 0; r < cmdtab_rules_count; r++) {
		const char *f = cmdtab_str(cmdtab_rules[r].family);
		while (*f) {
			size_t n = strcspn(f, "|");
			const struct name_roles *e = n ? names_find(f, n) :
							 NULL;
			bool found = false;
			for (size_t k = 0; e && k < e->fam_n; k++)
				found = found ||
					names_fam_rules[e->fam_first + k] == r;
			bad += n && !found;
			pairs += n != 0;
			f += n;
			if (*f == '|')
				f++;
		}
	}
	for (size_t i = 0; i < names_index_cap; i++) {
		const struct name_roles *e = &names_index[i];
		if (!e->len || !e->fam)
			continue;
		fams++;
		listed += e->fam_n;
		for (size_t k = 1; k < e->fam_n; k++)
			bad += names_fam_rules[e->fam_first + k - 1] >=
			       names_fam_rules[e->fam_first + k];
		bad += e->fam > names_fam_count;
	}
	ok(bad == 0 && listed == pairs && fams == names_fam_count,
	   "the %zu families hold each (name, rule) pair of the %zu rules, "
	   "in table order",
	   fams, cmdtab_rules_count);
	ok(names_find("git", 3) && names_find("git", 3)->fam &&
		   !names_find("mkfs.ext4", 9),
	   "git is a family; mkfs.ext4 is no name of the index (the "
	   "classifier falls back to mkfs)");
}

static void short_lists(void)
{
	size_t n, bad = 0, bits = 0;
	const char *const *l = commands_builtins(&n);

	same_flags(l, n, NAMES_F_BUILTIN, "builtins");
	l = filecmds_readers(&n);
	same_flags(l, n, NAMES_F_READS_FILES, "file readers");
	l = filecmds_never_readers(&n);
	same_flags(l, n, NAMES_F_NEVER_READS, "never readers");
	n = commands_exec_opt_count();
	for (size_t i = 0; i < n; i++) {
		const char *c = commands_exec_opt_cmd(i);
		const struct name_roles *r = names_find(c, strlen(c));
		bad += !r || i < r->exec_first || i - r->exec_first >= 64 ||
		       !(r->exec_rows >> (i - r->exec_first) & 1);
	}
	for (size_t i = 0; i < names_index_cap; i++)
		bits += (size_t)__builtin_popcountll(names_index[i].exec_rows);
	ok(bad == 0 && bits == n, "the %zu exec_opts rows are their names'", n);
}

int main(void)
{
	tap_no_plan();
	ok(commands_tables_sorted(),
	   "handler and wrapper tables are sorted with unique names");
	static const char *const known[] = { "rm",  "sh",  "xargs", "find",
					     "ssh", "git", "zsh",   "7z",
					     ".",   "cd" };
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		ok(commands_known(known[i], strlen(known[i])), "%s is known",
		   known[i]);
	ok(!commands_known("rmx", 3), "rmx is not known");
	ok(!commands_known("r", 1), "a prefix of rm is not known");
	ok(!commands_known("", 0), "the empty name is not known");
	ok(commands_script_suffix("deploy.sh", 9), "deploy.sh is a script");
	ok(commands_script_suffix("x.PS1", 5), "suffixes ignore case");
	ok(!commands_script_suffix("mkfs.ext4", 9),
	   "mkfs.ext4 is not a script");
	ok(!commands_script_suffix(".sh", 3), "a bare .sh has no name");
	name_index();
	family_index();
	short_lists();
	return tap_done();
}
