/* path — lexical path normalisation and judgement, for the classifier.
 *
 * Paths are never looked up on disk (the classifier is pure): "." and ".."
 * are collapsed lexically, relative paths are joined to the cwd, and the
 * result is placed in one class relative to the workspace, the home
 * directory and the system directories.
 */
#ifndef CORDON_PATH_H
#define CORDON_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

enum path_class {
	PATH_WORKSPACE,      /* inside the workspace */
	PATH_WORKSPACE_ROOT, /* the workspace itself */
	PATH_TMP,            /* /tmp, /var/tmp, /dev/shm, $TMPDIR */
	PATH_OUTSIDE,        /* anywhere else that is not special */
	PATH_HOME,           /* under $HOME, outside the workspace */
	PATH_HOME_ROOT,      /* $HOME itself */
	PATH_SYSTEM,         /* /etc, /usr, /bin, … and below */
	PATH_ROOT,           /* / */
	PATH_DEVICE,         /* a block or raw device: /dev/sda, /dev/nvme0n1 */
	PATH_DEV_HARMLESS,   /* /dev/null, /dev/zero, /dev/stdout, /dev/fd/N … */
};

struct path_ctx {
	const char *cwd;       /* absolute, normalised */
	const char *workspace; /* absolute, normalised */
	const char *home;      /* absolute, normalised */
	const char *tmpdir;    /* absolute, normalised */
};

/* A malloc'd "a/b" (one '/' between them: none added when a ends in one),
 * released with free(); NULL when out of memory. */
char *path_join(const char *a, const char *b);

/* Normalises p[0..n) against cwd (absolute already if it starts with '/').
 * Returns an arena string, or NULL when out of memory. */
char *path_normalize(struct arena *a, const char *cwd, const char *p, size_t n);

/* Classifies an absolute normalised path. */
enum path_class path_classify(const struct path_ctx *pc, const char *abs);

/* Is abs equal to dir or below it? Both normalised. */
bool path_under(const char *abs, const char *dir);

/* A file that holds credentials: ~/.ssh/…, ~/.aws/…, .env, *.pem, id_rsa,
 * .netrc, /etc/shadow … (by name, wherever it is). */
bool path_is_secret(const char *abs);

/* A shell startup file or other file run later on the user's behalf:
 * ~/.bashrc, ~/.profile, ~/.zshrc, … Returns 1 for shell rc files, 2 for
 * other persistence places (.git/hooks, crontabs, systemd and launchd
 * units, autostart, authorized_keys), 0 otherwise. */
int path_runs_later(const struct path_ctx *pc, const char *abs);

/* Git's own records in a .git directory, which only git should write:
 * HEAD, ORIG_HEAD, index, packed-refs, and refs/, objects/ and logs/
 * (the reflogs) with what is under them. Overwriting or removing one
 * loses commits, branches or staged work. Lock files (index.lock) and
 * the rest (info/exclude, config, hooks) are not. */
bool path_is_repo_db(const char *abs);

/* ---- paths from tool calls (the policy engine) ---------------------------- */

/* The one place a path from a tool call is normalised:
 *   - every '\' becomes '/';
 *   - a Windows drive path ("C:\x", "c:/x", "C:x") gets a lower-case drive
 *     letter and is never prefixed with the cwd: "c:/x";
 *   - a UNC path ("\\server\share\x", "//server/share/x") keeps its two
 *     leading slashes and is never resolved against the cwd;
 *   - "~" and "~/…" expand to home when home is given;
 *   - a relative path is joined to cwd (absolute, normalised);
 *   - "." and ".." are collapsed lexically ("/.." is "/"; a drive or UNC
 *     root is never climbed above).
 * Returns an arena string, or NULL when out of memory. home may be NULL. */
char *path_normalize_call(struct arena *a, const char *cwd, const char *home,
			  const char *p, size_t n);

/* Resolves symlinks in an absolute normalised path on disk: the longest
 * prefix that exists is passed through realpath(3) and the rest appended
 * (so a link inside the workspace to ~/.ssh/id_rsa comes back as the key's
 * path, and a new file under a linked directory lands where the link
 * points). Writes into out[0..cap); returns false when the result does not
 * fit or nothing could be resolved (then out is untouched). This is the one
 * function in path.c that touches the file system. */
bool path_resolve(const char *abs, char *out, size_t cap);

/* The cheap question first: is abs (absolute, normalised) reached without
 * following any symlink? One openat2(RESOLVE_NO_SYMLINKS) of the path, or,
 * when it does not exist, of its parent directory. Returns true only when
 * the kernel walked it link-free, so path_resolve() would return abs
 * itself; false means "maybe not": call path_resolve(). */
bool path_link_free(const char *abs);

#endif
