/* pathset: the compiled shapes must agree with glob_match() on every
 * pattern and path, and report the first matching pattern; the built-in
 * denied paths hold every row of the credential table. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "credentials.h"
#include "glob.h"
#include "pathset.h"
#include "tap.h"

static const char *const extra_patterns[] = {
	"/etc/**",
	"/etc/hosts",
	"**/node_modules/**",
	"**/*.log",
	"**/build*",
	"src/*.c",
	"**/a/b/**",
	"/srv/data/**",
	"*.tmp",
	"**/x?z",
	"/",
	"**/.git/hooks/**",
	"<cwd>/**",
	"**/[ab]c",
	"**/a/b",
	"**/a//b/**",
	"**//a",
	"**/a/",
};

static const char *const paths[] = {
	"/",
	"/etc",
	"/etc/hosts",
	"/etc/ssh/sshd_config",
	"/home/u/.ssh",
	"/home/u/.ssh/id_rsa",
	"/home/u/.sshx/id",
	"/w/.env",
	"/w/.env.local",
	"/w/.envrc",
	"/w/x.env",
	"/w/credentials",
	"/w/credentials.json",
	"/w/my-credentials",
	"/w/secrets",
	"/w/secrets.yaml",
	"/w/a.pem",
	"/w/pem",
	"/w/a.key",
	"/w/keyboard.c",
	"/w/id_rsa",
	"/w/id_rsa.pub",
	"/home/u/.aws/config",
	"/home/u/.config/gcloud/creds.json",
	"/home/u/.config/gcloud",
	"/home/u/.netrc",
	"/w/node_modules/x/y.js",
	"/w/app.log",
	"/w/build",
	"/w/build.sh",
	"/w/builder/x",
	"/w/src/a.c",
	"src/a.c",
	"/w/q/a/b/c",
	"/w/a/b",
	"/srv/data",
	"/srv/database",
	"/w/x.tmp",
	"/w/xyz",
	"/w/xz",
	"/w/.git/hooks/pre-commit",
	"/work/proj/file",
	"/w/ac",
	"/w/cc",
	"/etc/sudoers.d/x",
	"/etc/sudoers.dx",
	"/w/.azure/t",
	"/w/.npmrc",
	"/w/.pypirc",
	"/w/a.p12",
	"/w/a.pfx",
	"/w/id_ed25519",
	"/w/id_ecdsa",
	"/w/id_dsa",
	"/home/u/x.config/gcloud/a",
	"/home/u/.config//gcloud/a",
	"/home/u/.config/gcloudx/a",
	".config/gcloud/a",
	"/home/u/.config/gcloud/",
	"/home/u/.cargo/credentials",
	"/home/u/x.cargo/credentials",
	"/home/u/.cargo/credentials/x",
	".cargo/credentials",
	"/w/a/b/",
	"/home/u/Library/Application Support/Firefox/p",
	"//a/b",
	"a//b",
};

int main(void)
{
	const char *pats[320];
	struct strlist dflt = { 0 };
	size_t np = 0;
	struct pathset ps;

	tap_no_plan();
	ok(config_default_denied_fill(&dflt), "the built-in denied paths");
	for (size_t i = 0; i < dflt.n && np < 280; i++)
		pats[np++] = dflt.v[i];
	size_t ndef = np;
	ok(ndef == dflt.n && ndef == credentials_count + 22,
	   "the credential table's rows and 22 more (%zu)", ndef);
	for (size_t i = 0; i < sizeof(extra_patterns) / sizeof(*extra_patterns);
	     i++)
		pats[np++] = extra_patterns[i];
	is_int(pathset_init(&ps, pats, np, "/home/u"), CORDON_OK, "init");

	size_t shaped = 0;
	for (size_t i = 0; i < np; i++)
		if (ps.pat[i].shape != PS_GLOB && ps.pat[i].shape != PS_CWD)
			shaped++;
	ok(shaped >= ndef - 4, "the built-in patterns take a fast shape (%zu)",
	   shaped);

	/* One pattern at a time: the shape answers as glob_match does. */
	for (size_t i = 0; i < np; i++) {
		struct pathset one;
		if (pathset_init(&one, &pats[i], 1, "/home/u") != CORDON_OK)
			continue;
		int agree = 1;
		for (size_t k = 0; k < sizeof(paths) / sizeof(*paths); k++) {
			const char *p = paths[k];
			bool want = strstr(pats[i], "<cwd>")
					    ? glob_matchz("/work/proj/**", p)
					    : glob_matchz(one.pat[0].glob, p);
			bool got = pathset_match(&one, p, strlen(p),
						 "/work/proj") == 0;
			if (want != got) {
				agree = 0;
				diag("%s vs %s: glob %d, pathset %d", pats[i], p,
				     want, got);
			}
		}
		ok(agree, "pattern %s agrees with glob_match", pats[i]);
		pathset_free(&one);
	}

	/* The first pattern in order is reported. */
	long hit = pathset_match(&ps, "/home/u/.ssh/id_rsa", 19, NULL);
	ok(hit >= 0 && strcmp(ps.pat[hit].pattern, "**/.ssh/**") == 0,
	   "first match for ~/.ssh/id_rsa is **/.ssh/** (%s)",
	   hit >= 0 ? ps.pat[hit].pattern : "none");
	pathset_free(&ps);

	/* Every row of the credential table, in its default place below a
	 * home, is denied by the default list, and reported by its own glob
	 * (a file itself, a directory below it). */
	pathset_init(&ps, pats, ndef, "/home/u");
	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *r = &credentials_table[i];
		static const char *const base[CREDENTIALS_NBASE] = {
			"", ".config/", ".local/share/", ".local/state/"
		};
		char path[256];
		int n = snprintf(path, sizeof(path), "/home/u/%s%s%s",
				 base[r->base], r->path, r->dir ? "/x/y" : "");
		long m = pathset_match(&ps, path, (size_t)n, "/w");

		ok(m == (long)i, "%s is denied by its row's glob (%s)", path,
		   m >= 0 ? ps.pat[m].pattern : "none");
	}
	pathset_free(&ps);
	pathset_init(&ps, pats, ndef, "/home/u");
	is_int((int)pathset_match(&ps, "/w/src/main.c", 13, NULL), -1,
	       "an ordinary file matches no built-in denied path");
	pathset_free(&ps);

	/* ~ expands to home for every shape. */
	const char *tilde[] = {"~/.config/app/**", "~/notes.txt"};
	pathset_init(&ps, tilde, 2, "/home/u");
	is_int((int)pathset_match(&ps, "/home/u/.config/app/x", 21, NULL), 0,
	       "~/dir/** under home");
	is_int((int)pathset_match(&ps, "/home/u/notes.txt", 17, NULL), 1,
	       "~/file");
	is_int((int)pathset_match(&ps, "/root/notes.txt", 15, NULL), -1,
	       "not another home");
	pathset_free(&ps);

	/* Expanded and plain patterns mixed: each keeps its own text as
	 * given and its own glob (the set is one block, so a wrong offset
	 * would hand one pattern's text to another). */
	const char *mixed[] = {"**/.env", "~", "/etc/**", "~/.aws/**", "~x"};
	const char *globs[] = {"**/.env", "/home/u", "/etc/**",
			       "/home/u/.aws/**", "~x"};
	is_int(pathset_init(&ps, mixed, 5, "/home/u"), CORDON_OK,
	       "mixed set compiles");
	for (size_t i = 0; i < 5; i++) {
		is_str(ps.pat[i].pattern, mixed[i], "pattern as given");
		is_str(ps.pat[i].glob, globs[i], "its glob");
	}
	is_int((int)pathset_match(&ps, "/home/u", 7, NULL), 1, "~ is home");
	is_int((int)pathset_match(&ps, "/home/u/.aws/credentials", 24, NULL),
	       3, "~/.aws/** under home");
	pathset_free(&ps);
	pathset_free(&ps);
	is_int((int)ps.n, 0, "a freed set is empty and frees again");
	strlist_clear(&dflt);
	return tap_done();
}
