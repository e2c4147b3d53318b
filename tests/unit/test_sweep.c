/* The sandbox's small parsers (sandbox_int.h): the git config keys that
 * execute, which the post-run sweep looks for (sweep.c), and the path of
 * a /proc/net/unix line, which the socket masks come from (mask.c). Rows
 * from git-config(1)'s spellings: sections in any case, subsections
 * quoted or in the old dotted form, keys with spaces around "=", and
 * look-alikes that must not fire. */
#include <stdio.h>
#include <string.h>

#include "sandbox_int.h"
#include "tap.h"

static const struct {
	const char *text;
	bool executes;
} configs[] = {
	{ "[core]\n\tfsmonitor = touch /tmp/x\n", true },
	{ "[CORE]\n\tFsMonitor=x\n", true },
	{ "[core]\nhooksPath = .hooks\n", true },
	{ "[core]\n\tsshCommand = ssh -o ProxyCommand=x\n", true },
	{ "[core]\n\tpager = less; x\n", true },
	{ "[core]\n\teditor = x\n", true },
	{ "[pager]\n\tlog = x\n", true }, /* pager.<cmd>: no subsection */
	{ "[pager \"log\"]\n\tx = y\n", true },
	{ "[filter \"lfs\"]\n\tclean = git-lfs clean\n", true },
	{ "[filter.lfs]\n\tsmudge = x\n", true },
	{ "[diff]\n\texternal = x\n", true },
	{ "[diff \"bin\"]\n\ttextconv = x\n", true },
	{ "[merge \"m\"]\n\tdriver = x %A\n", true },
	{ "[credential]\n\thelper = store\n", true },
	{ "[credential \"https://x\"]\n\thelper = !x\n", true },
	{ "[include]\n\tpath = ../evil\n", true },
	{ "[includeIf \"gitdir:/x/\"]\n\tpath = y\n", true },
	{ "[alias]\n\tst = !sh -c x\n", true },
	{ "[gpg]\n\tprogram = x\n", true },
	{ "[uploadpack]\n\tpackObjectsHook = x\n", true },
	{ "[remote \"origin\"]\n\tuploadpack = x\n", true },
	{ "[sequence]\n\teditor = x\n", true },
	/* a key on its header's line, as git reads it */
	{ "[core] pager = x\n", true },
	{ "[user]\n[alias]st=\"!x\"\n", true },
	{ "[gpg \"ssh\"]\n\tdefaultKeyCommand = x\n", true },
	{ "[trailer \"s\"]\n\tcommand = x\n", true },
	{ "[submodule \"s\"]\n\tupdate = !x\n", true },
	/* look-alikes */
	{ "[core]\n\tbare = false\n\tfilemode = true\n", false },
	{ "[user]\n\tname = fsmonitor\n", false },
	{ "# [core]\n# fsmonitor = x\n", false },
	{ "[core]\n\t; fsmonitor = x\n", false },
	{ "[remote \"origin\"]\n\turl = x\n\tfetch = +refs/*\n", false },
	{ "[diff]\n\tcolorMoved = zebra\n", false },
	{ "[branch \"fsmonitor\"]\n\tremote = origin\n", false },
	{ "[core]\n\tfsmonitorHookVersion = 2\n", false },
	{ "", false },
	{ "[core", false },
	{ "[alias]\n\tst = status\n", false }, /* a git command's alias */
	{ "[core] bare = false\n", false },
};

static const struct {
	const char *line;
	const char *path; /* NULL: none */
} lines[] = {
	{ "0000000000000000: 00000002 00000000 00010000 0001 01 12345 "
	  "/run/user/1000/bus",
	  "/run/user/1000/bus" },
	{ "0000000000000000: 00000002 00000000 00010000 0001 01 12345 "
	  "/tmp/a b/sock",
	  "/tmp/a b/sock" },
	{ "0000000000000000: 00000002 00000000 00000000 0002 01 23456 "
	  "@/tmp/.X11-unix/X0",
	  NULL },
	{ "0000000000000000: 00000003 00000000 00000000 0001 03 34567", NULL },
	{ "Num       RefCount Protocol Flags    Type St Inode Path", NULL },
	{ "", NULL },
	{ "/a /b /c", NULL },
	{ "1 2 3 4 5 6 7 relative/path", NULL },
	{ "1 2 3 4 5 6 7   /spaced", "/spaced" },
};

int main(void)
{
	tap_no_plan();
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
		ok(sandbox_sweep_config_executes(configs[i].text,
						 strlen(configs[i].text)) ==
			   configs[i].executes,
		   "config %s: %.40s",
		   configs[i].executes ? "executes" : "does not",
		   configs[i].text);
	/* NUL bytes are data, and a line may end the text unterminated */
	ok(sandbox_sweep_config_executes("[x]\n\0\n[core]\nfsmonitor=1", 24),
	   "config: a NUL before the section does not end the text");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *got = sandbox_mask_unix_path(lines[i].line);

		ok(lines[i].path ? got && strcmp(got, lines[i].path) == 0 :
				   got == NULL,
		   "/proc/net/unix: %.50s -> %s", lines[i].line,
		   lines[i].path ? lines[i].path : "none");
	}
	return tap_done();
}
