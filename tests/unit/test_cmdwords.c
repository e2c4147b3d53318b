/* cmdwords: which command lines are plain, their words, prefix matching. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmdwords.h"
#include "cordon.h"
#include "tap.h"

static struct arena A;

static bool split(const char *cmd, struct cmdwords *cw)
{
	arena_reset(&A);
	return cmdwords_split(&A, NULL, cmd, strlen(cmd), cw);
}

/* "a b | c d" style rendering of the segments, for comparing. */
static const char *render(const struct cmdwords *cw)
{
	static char buf[1024];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < cw->nseg; i++) {
		for (size_t j = 0; j < cw->seg[i].argc; j++) {
			int k = snprintf(buf + o, sizeof(buf) - o, "%s%s%s",
					 j ? " " : (i ? " | " : ""),
					 cw->seg[i].argv[j],
					 cw->seg[i].glob[j] ? "*G" : "");
			if (k < 0 || (size_t)k >= sizeof(buf) - o)
				return buf;
			o += (size_t)k;
		}
		if (cw->seg[i].argv[cw->seg[i].argc] != NULL)
			return "argv not NULL-terminated";
	}
	return buf;
}

/* cmd with newlines shown as \n, so a TAP line stays one line. */
static const char *shown(const char *cmd)
{
	static char buf[256];
	size_t o = 0;

	for (; *cmd && o + 3 < sizeof(buf); cmd++) {
		if (*cmd == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *cmd;
		}
	}
	buf[o] = '\0';
	return buf;
}

static const struct {
	const char *cmd;
	const char *want; /* rendering, or NULL: not plain */
} cases[] = {
	{ "git status", "git status" },
	{ "  git   status  ", "git status" },
	{ "git status | wc -l", "git status | wc -l" },
	{ "git status && git push", "git status | git push" },
	{ "make || echo failed; ls &", "make | echo failed | ls" },
	{ "ls\npwd", "ls | pwd" },
	{ "git status |& tee", "git status | tee" },
	{ "echo 'a b' \"c d\"", "echo a b c d" },
	{ "git commit -m 'fix: a \"b\"'", "git commit -m fix: a \"b\"" },
	{ "echo a\\ b", "echo a b" },
	{ "g\"i\"t status", "git status" },
	{ "echo ''", "echo " },
	{ "echo $'a\\x41'", "echo aA" },
	{ "make 2>&1", "make" },
	{ "make >&2", "make" },
	{ "make 2>&-", "make" },
	{ "make >/dev/null 2>&1", "make" },
	{ "make &>/dev/null", "make" },
	{ "make </dev/null", "make" },
	{ "make >>/dev/null", "make" },
	{ "make > \"/dev/null\"", "make" },
	{ "git status # a comment", "git status" },
	{ "ls *.c", "ls *.c*G" },
	{ "ls a?", "ls a?*G" },
	{ "ls [ab]", "ls [ab]*G" },
	{ "echo x{a,b}", "echo x{a,b}*G" },
	{ "ls '*.c'", "ls *.c" },
	{ "ls \\*", "ls *" },
	{ "ls \"*\".c", "ls *.c" },
	{ "ls *\".c\"", "ls *.c*G" },
	{ "/usr/bin/git status", "/usr/bin/git status" },
	{ "", "" },
	{ "# only a comment", "" },
	/* not plain */
	{ "echo $x", NULL },
	{ "echo ${x}", NULL },
	{ "echo \"$x\"", NULL },
	{ "echo $(id)", NULL },
	{ "echo `id`", NULL },
	{ "echo $((1+2))", NULL },
	{ "diff <(ls a) <(ls b)", NULL },
	{ "tee >(wc)", NULL },
	{ "FOO=1 make", NULL },
	{ "FOO=1", NULL },
	{ "make > out.txt", NULL },
	{ "make >> log", NULL },
	{ "make 2> err", NULL },
	{ "make < input", NULL },
	{ "make &> all.log", NULL },
	{ "make >&out.log", NULL },
	{ "make > /dev/nullx", NULL },
	{ "make > $OUT", NULL },
	{ "make 2>&$fd", NULL },
	{ "cat <<EOF\nhi\nEOF\n", NULL },
	{ "cat <<< hi", NULL },
	{ "(git status)", NULL },
	{ "{ git status; }", NULL },
	{ "if true; then ls; fi", NULL },
	{ "for f in a b; do rm $f; done", NULL },
	{ "for f in a b; do ls; done", NULL },
	{ "while true; do ls; done", NULL },
	{ "case x in x) ls;; esac", NULL },
	{ "f() { ls; }", NULL },
	{ "function f { ls; }", NULL },
	{ "[[ -f x ]]", NULL },
	{ "(( x++ ))", NULL },
	{ "! git push", NULL },
	{ "git status && (rm -rf x)", NULL },
	{ "git status; echo $HOME", NULL },
	{ "ls | while read f; do rm \"$f\"; done", NULL },
	{ "echo 'unterminated", NULL },
	{ "git status &&", NULL },
	{ "ls )", NULL },
	{ "> file", NULL },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct cmdwords cw = { 0 };
		bool plain = split(cases[i].cmd, &cw);
		if (!cases[i].want) {
			ok(!plain && cw.nseg == 0 && cw.seg == NULL,
			   "not plain: %s", shown(cases[i].cmd));
			continue;
		}
		if (ok(plain, "plain: %s", shown(cases[i].cmd)))
			is_str(render(&cw), cases[i].want, "its words");
	}
}

static void test_nul(void)
{
	static const char cmd[] = "git sta\0tus";
	struct cmdwords cw;

	arena_reset(&A);
	ok(!cmdwords_split(&A, NULL, cmd, sizeof(cmd) - 1, &cw),
	   "a NUL byte inside a word is not plain");
}

static void test_limits(void)
{
	struct cordon_limits lim;
	struct cmdwords cw;
	const char *cmd = "git status && git push";

	cordon_limits_default(&lim);
	lim.max_input_bytes = 5;
	arena_reset(&A);
	ok(!cmdwords_split(&A, &lim, cmd, strlen(cmd), &cw),
	   "over max_input_bytes: not plain");
	lim.max_input_bytes = 1024;
	arena_reset(&A);
	ok(cmdwords_split(&A, &lim, cmd, strlen(cmd), &cw) && cw.nseg == 2,
	   "within the limits: plain");
}

static struct strlist list(char **v, size_t n)
{
	struct strlist l = { v, n };
	return l;
}

static void test_seg_prefix(void)
{
	struct cmdwords cw;
	char *gp[] = { "git", "push" };
	char *g[] = { "git" };
	char *gpx[] = { "git", "push", "--force" };
	char *ls[] = { "ls", "*.c" };
	char *ub[] = { "/usr/bin/git" };
	struct strlist l_gp = list(gp, 2), l_g = list(g, 1),
			   l_gpx = list(gpx, 3), l_ls = list(ls, 2),
			   l_ub = list(ub, 1), empty = list(NULL, 0);

	ok(split("git push origin main", &cw), "split git push");
	ok(cmdwords_seg_has_prefix(&cw.seg[0], &l_gp), "[git push] prefix");
	ok(cmdwords_seg_has_prefix(&cw.seg[0], &l_g), "[git] prefix");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_gpx),
	   "[git push --force] is not a prefix of git push origin main");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &empty),
	   "an empty prefix matches nothing");
	ok(!cmdwords_seg_has_prefix(NULL, &l_g), "NULL segment");

	ok(split("git", &cw), "split git");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_gp),
	   "a prefix longer than the segment does not match");

	ok(split("git pushx", &cw), "split git pushx");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_gp),
	   "words compare whole: pushx is not push");

	ok(split("/usr/bin/git push", &cw), "split /usr/bin/git");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_g),
	   "the command name compares as written");
	ok(cmdwords_seg_has_prefix(&cw.seg[0], &l_ub), "written path matches");

	ok(split("ls *.c", &cw), "split ls *.c");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_ls),
	   "a glob word never matches a prefix word");
	ok(split("ls '*.c'", &cw), "split ls '*.c'");
	ok(cmdwords_seg_has_prefix(&cw.seg[0], &l_ls),
	   "a quoted star is literal and matches");
	ok(split("g* push", &cw), "split g* push");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_g),
	   "a glob command name never matches");
	ok(split("git pu{sh,ll}", &cw), "split brace word");
	ok(!cmdwords_seg_has_prefix(&cw.seg[0], &l_gp),
	   "a brace word never matches");
}

static void test_matches_prefix(void)
{
	char *gp[] = { "git", "push" };
	struct strlist l = list(gp, 2), empty = list(NULL, 0);

	ok(cmdwords_matches_prefix(&l, "git push origin main"),
	   "example matches");
	ok(cmdwords_matches_prefix(&l, "git push && git push --tags"),
	   "every segment matches");
	ok(!cmdwords_matches_prefix(&l, "git push && rm -rf x"),
	   "one segment does not match");
	ok(!cmdwords_matches_prefix(&l, "git pull"), "git pull does not match");
	ok(!cmdwords_matches_prefix(&l, "git push $(id)"),
	   "a not-plain example never matches");
	ok(!cmdwords_matches_prefix(&l, ""), "an empty example never matches");
	ok(!cmdwords_matches_prefix(&l, NULL), "NULL example");
	ok(!cmdwords_matches_prefix(&empty, "git push"),
	   "an empty prefix never matches");
	ok(cmdwords_matches_prefix(&l, "'git' \"push\" 2>&1"),
	   "quotes and fd duplication are fine");
}

int main(void)
{
	tap_no_plan();
	arena_init(&A, 16u * 1024 * 1024);
	test_cases();
	test_nul();
	test_limits();
	test_seg_prefix();
	test_matches_prefix();
	arena_release(&A);
	return tap_done();
}
