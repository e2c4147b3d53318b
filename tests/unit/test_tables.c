/* The classifier's lookup tables: bisection needs them sorted, and the
 * lookups must find what the tables hold; the name index (names.h) must
 * give for every name exactly what searching each table gives. */
#include <string.h>

#include "classify_int.h"
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

	ok(names_ready(), "the name index was built (every table fits)");
	for (size_t i = 0; i < nw; i++) {
		const struct name_roles *r =
			names_find(w[i].name, strlen(w[i].name));
		if (!r || r->wrapper != &w[i])
			bad++;
		same_interp(w[i].name, strlen(w[i].name));
	}
	ok(bad == 0, "each of the %zu wrapper rows is its name's wrapper", nw);
	bad = 0;
	nh = commands_handler_count();
	for (size_t i = 0; i < nh; i++) {
		size_t len;
		handler_fn *fn;
		const char *name = commands_handler_row(i, &len, &fn);
		const struct name_roles *r = names_find(name, len);

		if (!r || r->handler != fn ||
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
	return tap_done();
}
