/* glob: every construct of the gitignore-style matcher, the built-in denied
 * path patterns of the policy against real-looking paths, and patterns that
 * would take exponential time in a naive backtracking matcher. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glob.h"
#include "tap.h"

struct row {
	const char *pattern;
	const char *path;
	bool want;
};

static const struct row rows[] = {
	/* literals: anchored, whole-string, case-sensitive */
	{"abc", "abc", true},
	{"abc", "abd", false},
	{"abc", "ab", false},
	{"ab", "abc", false},
	{"/etc/shadow", "/etc/shadow", true},
	{"/etc/shadow", "/etc/shadow.bak", false},
	{"/etc/shadow", "/etc/gshadow", false},
	{"/etc/shadow", "/x/etc/shadow", false},
	{"/etc/shadow", "/etc", false},
	{"a/b", "a/b", true},
	{"a/b", "x/a/b", false},
	{"a/b", "/a/b", false},
	{"*.PEM", "/w/a.pem", false},
	{"", "", true},
	{"", "/a", false},

	/* a pattern without '/' matches the last component at any depth */
	{"*.pem", "/w/a.pem", true},
	{"*.pem", "/w/sub/dir/b.pem", true},
	{"*.pem", "a.pem", true},
	{"*.pem", "/w/.pem", true},
	{"*.pem", "/w/a.pem.bak", false},
	{"*.pem", "/w/a.pem/x", false},
	{"*.pem", "/w/apem", false},
	{"id_rsa", "/home/u/.ssh/id_rsa", true},
	{"id_rsa", "/id_rsa", true},
	{"id_rsa", "/home/u/.ssh/id_rsa.pub", false},
	{"id_rsa", "/home/u/id_rsa/x", false},
	{"\\*.pem", "/w/*.pem", true},
	{"\\*.pem", "/w/x.pem", false},
	{"[/]x", "/a/x", false},

	/* '*' */
	{"/a/*", "/a/b", true},
	{"/a/*", "/a/", true},
	{"/a/*", "/a", false},
	{"/a/*", "/a/b/c", false},
	{"/a/*", "/a/.env", true},
	{"/a/*c", "/a/bc", true},
	{"/a/*c", "/a/c", true},
	{"/a/*c", "/a/bcx", false},
	{"/a/b*d*f", "/a/bxxdyyf", true},
	{"/a/b*d*f", "/a/bdf", true},
	{"/a/b*d*f", "/a/bxxdyyfz", false},
	{"/a/b*d*f", "/a/bxx/dyyf", false},
	{"/a*/b", "/ax/b", true},
	{"/a*/b", "/a/x/b", false},
	{"/x*z", "/x/z", false},
	{"/a*b*c", "/aXbYbZc", true},
	{"/a*b*c", "/aXbYbZcX", false},
	{"/*/*/c", "/a/b/c", true},
	{"/*/*/c", "/a/c", false},

	/* '?' */
	{"/a?c", "/abc", true},
	{"/a?c", "/a.c", true},
	{"/a?c", "/a/c", false},
	{"/a?c", "/ac", false},
	{"/a?c", "/abbc", false},
	{"/??", "/ab", true},
	{"/??", "/a", false},

	/* '**' */
	{"a/**", "a", true},
	{"a/**", "a/b", true},
	{"a/**", "a/b/c", true},
	{"a/**", "ab", false},
	{"a/**", "b/a", false},
	{"**/x", "x", true},
	{"**/x", "a/x", true},
	{"**/x", "a/b/x", true},
	{"**/x", "/a/x", true},
	{"**/x", "a/xy", false},
	{"**/x", "a/x/y", false},
	{"a/**/b", "a/b", true},
	{"a/**/b", "a/x/b", true},
	{"a/**/b", "a/x/y/b", true},
	{"a/**/b", "a/b/c", false},
	{"a/**/b", "a/xb", false},
	{"a/**/b", "ab", false},
	{"a/**/b", "a/x/y/bc", false},
	{"a/**/b", "x/a/b", false},
	{"a/**/**/b", "a/b", true},
	{"a/**/**/b", "a/x/y/b", true},
	{"a/**/b/**/c", "a/b/c", true},
	{"a/**/b/**/c", "a/x/b/y/b/z/c", true},
	{"a/**/b/**/c", "a/c/b", false},
	{"**/a/**/b/**", "/q/a/w/e/b", true},
	{"**/a/**/b/**", "/q/a/b/z", true},
	{"**/a/**/b/**", "/q/b/a", false},
	{"**", "any/thing/at/all", true},
	{"**", "", true},
	{"**", "/", true},
	{"/**", "/etc/x", true},
	{"/**", "rel", false},
	{"a/**/**", "a", true},
	{"**/.git/hooks/*", "/w/.git/hooks/pre-commit", true},
	{"**/.git/hooks/*", "/w/.git/hooks/x/y", false},
	/* '**' not a whole component is two '*' */
	{"x/a**b", "x/aqqb", true},
	{"x/a**b", "x/a/b", false},
	{"x/**a", "x/ba", true},
	{"x/**a", "x/b/a", false},
	{"x/***", "x/y", true},
	{"x/***", "x/y/z", false},
	{"/a/b**", "/a/b/c", false},

	/* a trailing '/' is the directory and everything below it */
	{"/w/dir/", "/w/dir", true},
	{"/w/dir/", "/w/dir/x/y", true},
	{"/w/dir/", "/w/dirx", false},
	{"/w/d*/", "/w/dx/y", true},
	{"/w/d*/", "/w/x/y", false},
	{"a/**/", "a", true},
	{"a/**/", "a/b", true},
	{"a//", "a/b", true},
	{"a//", "ab", false},
	{"build/", "/x/build", true},
	{"build/", "/x/build/o.o", true},
	{"build/", "/x/builds", false},
	{"/", "/etc/passwd", true},

	/* classes */
	{"/[abc]", "/b", true},
	{"/[abc]", "/d", false},
	{"/[abc]", "/", false},
	{"/[a-c]x", "/bx", true},
	{"/[a-c]x", "/dx", false},
	{"/[a-cx-z]", "/y", true},
	{"/[a-cx-z]", "/m", false},
	{"/[!a-c]", "/d", true},
	{"/[!a-c]", "/a", false},
	{"/[^a-c]", "/d", true},
	{"/[^a-c]", "/b", false},
	{"/[]]", "/]", true},
	{"/[]a]", "/a", true},
	{"/[]a]", "/b", false},
	{"/[!]]", "/]", false},
	{"/[!]]", "/x", true},
	{"/[]-a]", "/^", true},
	{"/x[/]y", "/x/y", false},
	{"/x[!a]y", "/x/y", false},
	{"/x[!a]y", "/xby", true},
	{"/[a-]", "/-", true},
	{"/[a-]", "/a", true},
	{"/[-a]", "/-", true},
	{"/[a\\]]", "/]", true},
	{"/[a\\]]", "/a", true},
	{"/[a\\]]", "/\\", false},
	{"/[\\!a]", "/!", true},
	{"/[z-a]", "/m", false},
	{"/[*]", "/*", true},
	{"/[*]", "/x", false},
	{"/[?]", "/?", true},
	{"/[?]", "/x", false},
	{"/[\x80-\xff]", "/\xe9", true},
	{"/[\x80-\xff]", "/e", false},
	{"/[!\x80-\xff]", "/e", true},
	/* an unclosed '[' is a literal */
	{"/[ab", "/[ab", true},
	{"/[ab", "/a", false},
	{"/a[", "/a[", true},
	{"/[!", "/[!", true},
	{"/[]", "/[]", true},
	{"/[a*", "/[axyz", true},

	/* '\' escapes */
	{"/\\*", "/*", true},
	{"/\\*", "/x", false},
	{"/\\?", "/?", true},
	{"/\\?", "/x", false},
	{"/\\[a]", "/[a]", true},
	{"/\\[a]", "/a", false},
	{"/\\a", "/a", true},
	{"/\\\\", "/\\", true},
	{"/a\\", "/a\\", true},
	{"/a\\", "/a", false},
	{"a\\/b", "a/b", true},
	{"a\\/**", "a/b/c", true},
	{"/a/\\**", "/a/*x", true},
	{"/a/\\**", "/a/x", false},

	/* the built-in denied paths of the policy */
	{"/etc/sudoers", "/etc/sudoers", true},
	{"/etc/sudoers", "/etc/sudoers.d/x", false},
	{"/etc/sudoers.d/**", "/etc/sudoers.d/90-cloud-init", true},
	{"/etc/sudoers.d/**", "/etc/sudoers.d", true},
	{"/etc/sudoers.d/**", "/etc/sudoers", false},
	{"/etc/sudoers.d/**", "/etc/sudoers.dx", false},
	{"/etc/sudoers.d/**", "/x/etc/sudoers.d/y", false},
	{"**/.env", "/w/.env", true},
	{"**/.env", "/w/a/b/.env", true},
	{"**/.env", "/w/.envrc", false},
	{"**/.env", "/w/x.env", false},
	{"**/.env.*", "/w/.env.local", true},
	{"**/.env.*", "/w/sub/.env.production", true},
	{"**/.env.*", "/w/.envrc", false},
	{"**/.env.*", "/w/.env", false},
	{"**/credentials", "/home/u/.aws/credentials", true},
	{"**/credentials", "/w/credentials.json", false},
	{"**/credentials.*", "/w/credentials.json", true},
	{"**/secrets", "/w/config/secrets", true},
	{"**/secrets.*", "/w/secrets.yaml", true},
	{"**/secrets.*", "/w/secretsyaml", false},
	{"**/*.pem", "/w/certs/server.pem", true},
	{"**/*.pem", "/w/server.pem.txt", false},
	{"**/*.key", "/w/server.key", true},
	{"**/*.key", "/w/a/b/.key", true},
	{"**/*.key", "/w/keyboard.c", false},
	{"**/*.key", "/w/key", false},
	{"**/*.key", "/w/x.key/readme", false},
	{"**/*.p12", "/w/cert.p12", true},
	{"**/*.pfx", "/w/cert.pfx", true},
	{"**/.ssh/**", "/home/u/.ssh/id_rsa", true},
	{"**/.ssh/**", "/home/u/.ssh", true},
	{"**/.ssh/**", "/home/u/.ssh/keys/old/id_ed25519", true},
	{"**/.ssh/**", "/.ssh", true},
	{"**/.ssh/**", "/home/u/.sshx/a", false},
	{"**/.ssh/**", "/home/u/x.ssh/a", false},
	{"**/.ssh/**", "c:/Users/x/.ssh/id_rsa", true},
	{"**/.ssh/**", "//srv/share/.ssh/k", true},
	{"**/id_rsa", "/home/u/.ssh/id_rsa", true},
	{"**/id_rsa", "/home/u/.ssh/id_rsa.pub", false},
	{"**/id_ed25519", "/root/.ssh/id_ed25519", true},
	{"**/.aws/**", "/home/u/.aws/config", true},
	{"**/.azure/**", "/home/u/.azure/accessTokens.json", true},
	{"**/.config/gcloud/**", "/home/u/.config/gcloud/credentials.db", true},
	{"**/.config/gcloud/**", "/home/u/.config/gcloudx", false},
	{"**/.config/gcloud/**", "/home/u/gcloud/x", false},
	{"**/.netrc", "/home/u/.netrc", true},
	{"**/.npmrc", "/w/.npmrc", true},
	{"**/.pypirc", "/home/u/.pypirc", true},
	{"**/.pypirc", "/home/u/.pypirc~", false},
};

/* Seconds since t0: a matcher that backtracks exponentially would not
 * return for hours on the inputs below. */
static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void pathological(void)
{
	const size_t n = 10000;
	char *as = malloc(n + 1);
	char *comps = malloc(2 * n + 1);
	struct timespec t0;
	double t;
	bool got;

	if (!as || !comps) {
		ok(0, "out of memory");
		free(as);
		free(comps);
		return;
	}
	memset(as, 'a', n);
	as[n] = '\0';
	/* "/a/a/a/…/a": n components */
	for (size_t i = 0; i < n; i++) {
		comps[2 * i] = '/';
		comps[2 * i + 1] = 'a';
	}
	comps[2 * n] = '\0';

	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = glob_matchz("*a*a*a*a*a*a*a*a*b", as);
	t = seconds_since(&t0);
	ok(!got, "*a*a*a*a*a*a*a*a*b does not match 10000 'a's");
	ok(t < 2.0, "... and answers at once (%.3f s)", t);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = glob_matchz("*a*a*a*a*a*a*a*a*a", as);
	t = seconds_since(&t0);
	ok(got, "*a*a*a*a*a*a*a*a*a matches 10000 'a's (%.3f s)", t);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = glob_matchz("**/a/**/a/**/a/**/a/**/b", comps);
	t = seconds_since(&t0);
	ok(!got, "**/a/**/a/**/a/**/a/**/b does not match /a/a/…/a");
	ok(t < 2.0, "... and answers at once (%.3f s)", t);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = glob_matchz("**/*a*a*a*a*b", comps);
	t = seconds_since(&t0);
	ok(!got && t < 2.0, "**/*a*a*a*a*b on 10000 components (%.3f s)",
	   t);

	/* one long component per retried start of '**' */
	for (size_t i = 0; i < 2 * n; i++)
		comps[i] = (i % 100 == 0) ? '/' : 'a';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = glob_matchz("**/*a*a*a*a*a*a*b/**", comps);
	t = seconds_since(&t0);
	ok(!got && t < 2.0, "**/*a*a*a*a*a*a*b/** on 200 long components "
			    "(%.3f s)", t);
	free(as);
	free(comps);
}

int main(void)
{
	tap_no_plan();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		ok(glob_matchz(r->pattern, r->path) == r->want,
		   "\"%s\" %s \"%s\"", r->pattern,
		   r->want ? "matches" : "does not match", r->path);
	}

	/* lengths, not NUL bytes, delimit both strings */
	ok(glob_match("a\0b", 3, "a\0b", 3), "an embedded NUL is a byte");
	ok(glob_match("a?b", 3, "a\0b", 3), "'?' matches a NUL byte");
	ok(!glob_match("a\0b", 3, "a", 1), "the pattern does not stop at NUL");
	ok(glob_match("/etc/shadowXX", 11, "/etc/shadow", 11),
	   "patlen limits the pattern");
	ok(!glob_match("/etc/shadow", 11, "/etc/shadowXX", 13),
	   "plen limits the path");
	ok(glob_match("a/**", 2, "a/b/c", 5),
	   "a pattern cut after its '/' is a directory pattern");

	pathological();
	return tap_done();
}
