/* callpath: path_normalize_call for every shape of path a tool call can
 * carry (Unix, Windows drive, UNC, relative, "~"), and path_resolve on a
 * real directory tree with symbolic links made under /tmp. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "path.h"
#include "tap.h"

struct row {
	const char *cwd;
	const char *home;
	const char *in;
	const char *want;
};

static const struct row rows[] = {
	/* Unix absolute: "." and ".." collapse, "/.." is "/" */
	{"/w", NULL, "/a/./b/../c", "/a/c"},
	{"/w", NULL, "/", "/"},
	{"/w", NULL, "/..", "/"},
	{"/w", NULL, "/../..", "/"},
	{"/w", NULL, "/../etc/./passwd", "/etc/passwd"},
	{"/w", NULL, "/a/b/../../../../c", "/c"},
	{"/w", NULL, "/a//b///c/", "/a/b/c"},
	{"/w", NULL, "/a/.", "/a"},
	{"/w", NULL, "/a/..", "/"},
	{"/w", NULL, "/.../x", "/.../x"},
	{"/w", NULL, "/a/..b/.c", "/a/..b/.c"},
	/* three or more slashes are the Unix root, not UNC */
	{"/w", NULL, "///etc/passwd", "/etc/passwd"},
	{"/w", NULL, "//", "/"},
	{"/w", NULL, "////", "/"},
	/* backslashes are separators */
	{"/w", NULL, "\\a\\b", "/a/b"},
	{"/w", NULL, "/a\\..\\etc/shadow", "/etc/shadow"},
	{"/w", NULL, "a\\b", "/w/a/b"},

	/* Windows drive paths: lower-case letter, never joined to the cwd */
	{"/w", NULL, "C:\\Users\\X\\..\\y", "c:/Users/y"},
	{"/w", NULL, "c:/x", "c:/x"},
	{"/w", NULL, "Z:/A/B", "z:/A/B"},
	{"/w", NULL, "c:", "c:/"},
	{"/w", NULL, "C:\\", "c:/"},
	{"/w", NULL, "C:relative", "c:/relative"},
	{"/w", NULL, "C:relative\\..\\..\\x", "c:/x"},
	{"/w", NULL, "C:/../..", "c:/"},
	{"/w", NULL, "c:/a/../../../b", "c:/b"},
	{"/w", NULL, "c://a//b", "c:/a/b"},
	/* a name with a colon that is not a drive is relative */
	{"/w", NULL, "ab:c", "/w/ab:c"},
	{"/w", NULL, "1:x", "/w/1:x"},
	{"/w", NULL, ":x", "/w/:x"},

	/* UNC: two leading slashes kept, never climbed above //srv/share */
	{"/w", NULL, "\\\\srv\\share\\a\\..\\b", "//srv/share/b"},
	{"/w", NULL, "\\\\srv\\share\\..\\..\\x", "//srv/share/x"},
	{"/w", NULL, "//srv/share/a/b", "//srv/share/a/b"},
	{"/w", NULL, "//srv/share", "//srv/share"},
	{"/w", NULL, "//srv/share/", "//srv/share"},
	{"/w", NULL, "//srv/share/..", "//srv/share"},
	{"/w", NULL, "//srv", "//srv"},
	{"/w", NULL, "//srv/", "//srv"},
	{"/w", NULL, "//srv/../x", "//srv/x"},
	{"/w", NULL, "//srv/./../x/y", "//srv/x/y"},
	{"/w", NULL, "//srv//share//a", "//srv/share/a"},
	{"/w", NULL, "\\/srv\\share", "//srv/share"},
	/* the Win32 namespaces are unwrapped to what they name */
	{"/w", NULL, "\\\\?\\C:\\x\\..\\y", "c:/y"},
	{"/w", NULL, "\\\\.\\D:", "d:/"},
	{"/w", NULL, "\\\\?\\UNC\\srv\\share\\x", "//srv/share/x"},
	{"/w", NULL, "//?/unc/srv/share/../x", "//srv/share/x"},
	{"/w", NULL, "//?/UNC", "//?/UNC"},
	{"/w", NULL, "//./pipe/x", "//./pipe/x"},
	{"/w", NULL, "//?/Volume{1}/x", "//?/Volume{1}/x"},
	/* dots before the namespace's drive or "UNC" are skipped like dots
	 * before a share, so a second pass finds nothing new to unwrap */
	{"/w", NULL, "//?/../UNC/srv/x", "//srv/x"},
	{"/w", NULL, "//?/./c:/x", "c:/x"},
	{"/w", NULL, "//?/UNC/../srv/share", "//srv/share"},
	{"/w", NULL, "//?/UNC/..", "//?/UNC"},
	{"/w", NULL, "//../x", "//../x"},

	/* relative paths are joined to the cwd */
	{"/w", NULL, "a/b", "/w/a/b"},
	{"/w", NULL, "./a/./b", "/w/a/b"},
	{"/w", NULL, "../x", "/x"},
	{"/w/p", NULL, "../../../../x", "/x"},
	{"/w", NULL, ".", "/w"},
	{"/w", NULL, "..", "/"},
	{"/w", NULL, "", "/w"},
	{"/w/", NULL, "a", "/w/a"},
	{"/w//p/./q/..", NULL, "a", "/w/p/a"},
	{"/", NULL, "srv/share", "/srv/share"},
	{"/", NULL, "", "/"},
	{"C:\\proj", NULL, "a\\b", "c:/proj/a/b"},
	{"c:/", NULL, "a", "c:/a"},
	{"C:\\proj", NULL, "..\\..\\..", "c:/"},
	{"//srv/share/p", NULL, "../../../x", "//srv/share/x"},
	{"\\\\srv\\share", NULL, "x", "//srv/share/x"},
	/* an empty, missing or relative cwd is taken from "/" */
	{"", NULL, "a", "/a"},
	{NULL, NULL, "a", "/a"},
	{NULL, NULL, "", "/"},
	{"rel/dir", NULL, "a", "/rel/dir/a"},
	/* absolute-looking paths are never joined to the cwd */
	{"/w", NULL, "/x", "/x"},
	{"/w", NULL, "c:x", "c:/x"},
	{"/w", NULL, "//srv/s", "//srv/s"},
	{"c:/proj", NULL, "/x", "/x"},

	/* "~" and "~/x" with and without a home */
	{"/w", "/home/u", "~", "/home/u"},
	{"/w", "/home/u", "~/x", "/home/u/x"},
	{"/w", "/home/u", "~\\.ssh\\id_rsa", "/home/u/.ssh/id_rsa"},
	{"/w", "/home/u", "~/../../etc/shadow", "/etc/shadow"},
	{"/w", "/home/u/", "~/x", "/home/u/x"},
	{"/w", "C:\\Users\\u", "~/x", "c:/Users/u/x"},
	{"/w", "rel", "~/x", "/w/rel/x"},
	{"/w", NULL, "~", "/w/~"},
	{"/w", NULL, "~/x", "/w/~/x"},
	{"/w", "", "~/x", "/w/~/x"},
	{"/w", "/home/u", "~user/x", "/w/~user/x"},
	{"/w", "/home/u", "~x", "/w/~x"},
	{"/w", "/home/u", "a/~/x", "/w/a/~/x"},
	{"/w", "/home/u", "/~/x", "/~/x"},
};

static void normalize_rows(void)
{
	struct arena a;

	arena_init(&a, 1 << 20);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		char *got = path_normalize_call(&a, r->cwd, r->home, r->in,
						strlen(r->in));
		char name[256];

		snprintf(name, sizeof(name), "\"%s\" in %s%s%s -> %s", r->in,
			 r->cwd ? r->cwd : "(no cwd)",
			 r->home ? " home " : "", r->home ? r->home : "",
			 r->want);
		is_str(got, r->want, name);
		if (got) {
			/* a normalised path normalises to itself */
			char *again = path_normalize_call(&a, "/other", NULL,
							  got, strlen(got));
			is_str(again, got, "... and is a fixed point");
		}
	}
	arena_release(&a);
}

static void normalize_bytes(void)
{
	struct arena a;
	char *got;

	arena_init(&a, 1 << 20);
	got = path_normalize_call(&a, "/w", NULL, "/w/a\0/../../etc/shadow",
				  22);
	is_str(got, "/w/a", "only the bytes before a NUL count");
	got = path_normalize_call(&a, "/w", NULL, "/a/bXYZ", 4);
	is_str(got, "/a/b", "n limits the input");
	got = path_normalize_call(&a, "/w", NULL, "~", 0);
	is_str(got, "/w", "n == 0 is the cwd");
	got = path_normalize_call(&a, "/w", "/home/u", "~/x", 1);
	is_str(got, "/home/u", "\"~\" cut by n is home");
	arena_release(&a);

	/* past the arena's ceiling the answer is NULL, not a short path */
	arena_init(&a, 64);
	{
		char big[512];

		memset(big, 'a', sizeof(big));
		big[0] = '/';
		got = path_normalize_call(&a, "/w", NULL, big, sizeof(big));
		ok(got == NULL, "out of memory is NULL");
	}
	arena_release(&a);
}

/* ---- path_resolve ------------------------------------------------------ */

/* the canonical temp dir, e.g. /tmp/cordon-callpath.AbC123 */
static char root[PATH_MAX];

static const char *at(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;
	char *b = buf[k++ & 3];

	if (snprintf(b, PATH_MAX, "%s/%s", root, rel) >= PATH_MAX)
		abort();
	return b;
}

static int mk_link(const char *target, const char *rel)
{
	if (symlink(target, at(rel)) != 0) {
		diag("symlink %s -> %s: %s", at(rel), target, strerror(errno));
		return -1;
	}
	return 0;
}

static void resolves(const char *in, const char *want, const char *name)
{
	char out[PATH_MAX];
	bool r = path_resolve(in, out, sizeof(out));

	is_str(r ? out : NULL, want, name);
}

static int rm_entry(const char *p, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int build_tree(void)
{
	char tmpl[] = "/tmp/cordon-callpath.XXXXXX";
	FILE *f;

	if (!mkdtemp(tmpl) || !realpath(tmpl, root))
		return -1;
	if (mkdir(at("home"), 0700) || mkdir(at("home/.ssh"), 0700) ||
	    mkdir(at("ws"), 0700) || mkdir(at("ws/sub"), 0700))
		return -1;
	f = fopen(at("home/.ssh/id_rsa"), "w");
	if (!f)
		return -1;
	fputs("not a key\n", f);
	fclose(f);
	f = fopen(at("ws/file"), "w");
	if (!f)
		return -1;
	fclose(f);
	if (mk_link(at("home/.ssh/id_rsa"), "ws/key") ||
	    mk_link("../home/.ssh/id_rsa", "ws/relkey") ||
	    mk_link("../../home/.ssh/id_rsa", "ws/sub/deepkey") ||
	    mk_link(at("home/.ssh"), "ws/sshdir") ||
	    mk_link(at("home/.ssh/not_yet"), "ws/dangling") ||
	    mk_link("../home/.ssh/rel_not_yet", "ws/reldangling") ||
	    mk_link("dangling", "ws/chain") ||
	    mk_link(at("nowhere/deeper/file"), "ws/danglingdeep") ||
	    mk_link(at("nowhere"), "ws/danglingdir") ||
	    mk_link("nonexist/../../home/.ssh/k", "ws/dotdot") ||
	    mk_link("l2", "ws/l1") || mk_link("l1", "ws/l2") ||
	    mk_link("self", "ws/self") || mk_link("/", "ws/rootlink"))
		return -1;
	return 0;
}

/* n links, each to the next, the last dangling: "hopN" -> "hopN-1" … */
static int link_chain(const char *prefix, int n)
{
	char name[64], end[64];

	snprintf(end, sizeof(end), "ws/%s-end", prefix);
	for (int i = 1; i <= n; i++) {
		char target[64];

		snprintf(name, sizeof(name), "ws/%s%d", prefix, i);
		snprintf(target, sizeof(target), "%s%d", prefix, i - 1);
		if (mk_link(i == 1 ? at(end) : target, name))
			return -1;
	}
	return 0;
}

static void resolve_tests(void)
{
	char out[PATH_MAX], want[PATH_MAX], name[64];
	char small[8];

	if (build_tree() != 0 || link_chain("c", 40) != 0 ||
	    link_chain("d", 41) != 0) {
		diag("cannot build the test tree under /tmp: %s",
		     strerror(errno));
		ok(0, "test tree");
		return;
	}
	diag("tree in %s", root);

	resolves(at("ws/file"), at("ws/file"), "a plain file is itself");
	resolves(root, root, "a directory is itself");
	resolves("/", "/", "/ is itself");
	resolves(at("ws/key"), at("home/.ssh/id_rsa"),
		 "a link in the workspace resolves to the key it points at");
	resolves(at("ws/relkey"), at("home/.ssh/id_rsa"),
		 "... also through a relative link");
	resolves(at("ws/sub/deepkey"), at("home/.ssh/id_rsa"),
		 "... also from a subdirectory");
	resolves(at("ws/sshdir/id_rsa"), at("home/.ssh/id_rsa"),
		 "a file under a linked directory");
	resolves(at("ws/sshdir/new/file"), at("home/.ssh/new/file"),
		 "a new path under a linked directory lands where it points");
	resolves(at("ws/dangling"), at("home/.ssh/not_yet"),
		 "a dangling link resolves to its target");
	resolves(at("ws/reldangling"), at("home/.ssh/rel_not_yet"),
		 "a relative dangling link resolves to its target");
	resolves(at("ws/chain"), at("home/.ssh/not_yet"),
		 "a link to a dangling link resolves to the last target");
	resolves(at("ws/danglingdeep"), at("nowhere/deeper/file"),
		 "a dangling link into a directory that does not exist");
	resolves(at("ws/danglingdir/x/y"), at("nowhere/x/y"),
		 "a path under a dangling directory link");
	resolves(at("ws/dotdot"), at("home/.ssh/k"),
		 "a dangling target with '..' after a missing directory");
	resolves(at("ws/nope/a/b"), at("ws/nope/a/b"),
		 "a path that does not exist is appended as it is");
	resolves(at("ws/file/x"), at("ws/file/x"),
		 "a path under a regular file");
	resolves(at("ws/rootlink/etc"), "/etc", "a link to /");

	snprintf(name, sizeof(name), "ws/c%d", 40);
	resolves(at(name), at("ws/c-end"), "40 dangling links are followed");

	memset(out, 'x', sizeof(out));
	snprintf(name, sizeof(name), "ws/d%d", 41);
	ok(!path_resolve(at(name), out, sizeof(out)) && out[0] == 'x',
	   "41 dangling links are a loop: false, out untouched");
	ok(!path_resolve(at("ws/l1"), out, sizeof(out)) && out[0] == 'x',
	   "a two-link loop: false, out untouched");
	ok(!path_resolve(at("ws/l1/x/y"), out, sizeof(out)) && out[0] == 'x',
	   "a path under a loop: false");
	ok(!path_resolve(at("ws/self"), out, sizeof(out)) && out[0] == 'x',
	   "a link to itself: false");

	ok(!path_resolve("relative/path", out, sizeof(out)) && out[0] == 'x',
	   "a relative path: false");
	ok(!path_resolve("", out, sizeof(out)), "an empty path: false");
	memset(small, 'x', sizeof(small));
	ok(!path_resolve(at("ws/key"), small, sizeof(small)) &&
		   small[0] == 'x',
	   "a result that does not fit: false, out untouched");
	snprintf(want, sizeof(want), "%s", at("home/.ssh/id_rsa"));
	ok(path_resolve(at("ws/key"), out, strlen(want) + 1) &&
		   strcmp(out, want) == 0,
	   "a result that fits exactly");
	ok(!path_resolve(at("ws/key"), out, strlen(want)),
	   "one byte short: false");
	{
		char longp[PATH_MAX + 16];

		memset(longp, 'a', sizeof(longp) - 1);
		longp[0] = '/';
		longp[sizeof(longp) - 1] = '\0';
		ok(!path_resolve(longp, out, sizeof(out)),
		   "an input longer than PATH_MAX: false");
	}
	/* the Unix view of a UNC-looking path: Linux reads "//x" as "/x" */
	snprintf(want, sizeof(want), "/%s", at("ws/key"));
	resolves(want, at("home/.ssh/id_rsa"), "a leading \"//\" on disk");
}

/* path_join: one '/' between the parts, none added after a trailing
 * one. */
static void join_tests(void)
{
	static const char *const joins[][3] = {
		{ "/w", "sub", "/w/sub" },
		{ "/w/", ".cordon/config.json", "/w/.cordon/config.json" },
		{ "/", "etc", "/etc" },
		{ "", "x", "/x" },
	};

	for (size_t i = 0; i < sizeof(joins) / sizeof(joins[0]); i++) {
		char *j = path_join(joins[i][0], joins[i][1]);

		is_str(j, joins[i][2], joins[i][2]);
		free(j);
	}
}

int main(void)
{
	tap_no_plan();
	normalize_rows();
	normalize_bytes();
	resolve_tests();
	join_tests();
	if (root[0] && nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		diag("could not remove %s", root);
	return tap_done();
}
