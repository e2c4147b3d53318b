/* pathset: the compiled shapes must agree with glob_match() on every
 * pattern and path, and report the first matching pattern. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "glob.h"
#include "pathset.h"
#include "tap.h"

static const char *const extra_patterns[] = {
	"/etc/**", "/etc/hosts", "**/node_modules/**", "**/*.log",
	"**/build*", "src/*.c", "**/a/b/**", "/srv/data/**", "*.tmp",
	"**/x?z", "/", "**/.git/hooks/**", "<cwd>/**", "**/[ab]c",
};

static const char *const paths[] = {
	"/", "/etc", "/etc/hosts", "/etc/ssh/sshd_config", "/home/u/.ssh",
	"/home/u/.ssh/id_rsa", "/home/u/.sshx/id", "/w/.env", "/w/.env.local",
	"/w/.envrc", "/w/x.env", "/w/credentials", "/w/credentials.json",
	"/w/my-credentials", "/w/secrets", "/w/secrets.yaml", "/w/a.pem",
	"/w/pem", "/w/a.key", "/w/keyboard.c", "/w/id_rsa", "/w/id_rsa.pub",
	"/home/u/.aws/config", "/home/u/.config/gcloud/creds.json",
	"/home/u/.config/gcloud", "/home/u/.netrc", "/w/node_modules/x/y.js",
	"/w/app.log", "/w/build", "/w/build.sh", "/w/builder/x", "/w/src/a.c",
	"src/a.c", "/w/q/a/b/c", "/w/a/b", "/srv/data", "/srv/database",
	"/w/x.tmp", "/w/xyz", "/w/xz", "/w/.git/hooks/pre-commit",
	"/work/proj/file", "/w/ac", "/w/cc", "/etc/sudoers.d/x",
	"/etc/sudoers.dx", "/w/.azure/t", "/w/.npmrc", "/w/.pypirc",
	"/w/a.p12", "/w/a.pfx", "/w/id_ed25519", "/w/id_ecdsa", "/w/id_dsa",
};

int main(void)
{
	const char *pats[80];
	size_t np = 0;
	struct pathset ps;

	tap_no_plan();
	for (size_t i = 0; config_default_denied_paths[i]; i++)
		pats[np++] = config_default_denied_paths[i];
	size_t ndef = np;
	ok(ndef == 43, "43 built-in denied paths (%zu)", ndef);
	for (size_t i = 0; i < sizeof(extra_patterns) / sizeof(*extra_patterns);
	     i++)
		pats[np++] = extra_patterns[i];
	is_int(pathset_init(&ps, pats, np, "/home/u"), CORDON_OK, "init");

	size_t shaped = 0;
	for (size_t i = 0; i < np; i++)
		if (ps.pat[i].shape != PS_GLOB && ps.pat[i].shape != PS_CWD)
			shaped++;
	ok(shaped >= 36, "the built-in patterns take a fast shape (%zu)",
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
	pathset_init(&ps, config_default_denied_paths, ndef, "/home/u");
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
	return tap_done();
}
