/* The classifier's lookup tables: bisection needs them sorted, and the
 * lookups must find what the tables hold. */
#include <string.h>

#include "classify_int.h"
#include "tap.h"

int main(void)
{
	tap_no_plan();
	ok(commands_tables_sorted(),
	   "handler and wrapper tables are sorted with unique names");
	static const char *const known[] = {"rm", "sh", "xargs", "find", "ssh",
					    "git", "zsh", "7z", ".", "cd"};
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		ok(commands_known(known[i], strlen(known[i])), "%s is known",
		   known[i]);
	ok(!commands_known("rmx", 3), "rmx is not known");
	ok(!commands_known("r", 1), "a prefix of rm is not known");
	ok(!commands_known("", 0), "the empty name is not known");
	ok(commands_script_suffix("deploy.sh", 9), "deploy.sh is a script");
	ok(commands_script_suffix("x.PS1", 5), "suffixes ignore case");
	ok(!commands_script_suffix("mkfs.ext4", 9), "mkfs.ext4 is not a script");
	ok(!commands_script_suffix(".sh", 3), "a bare .sh has no name");
	return tap_done();
}
