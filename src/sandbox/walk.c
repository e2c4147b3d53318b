/* walk — one bounded walk of the workspace (and of the directories globs
 * outside it name) that finds nested repositories, --deny-read and
 * deny_write glob matches and hardlinked files (sandbox_int.h).
 *
 * getdents64 into a buffer per level, at most SANDBOX_WALK_MAX_ENTRIES entries
 * and SANDBOX_WALK_MAX_DEPTH levels; the report says when it stopped early.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/syscall.h>

#include "glob.h"
#include "sandbox_int.h"

#include "banned.h"

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

/* Dependency and cache directories the walk does not enter: packages do
 * not ship repositories or the user's secrets, and their test fixtures
 * (thousands of *.pem in node_modules) would each cost a mount. */
static const char *const walk_skip[] = {
	"node_modules", ".venv",	 "venv",    "__pycache__", ".tox",
	".mypy_cache",	".pytest_cache", ".gradle", ".terraform",
};

bool sandbox_walk_skipped(const char *name)
{
	for (size_t i = 0; i < sizeof(walk_skip) / sizeof(walk_skip[0]); i++)
		if (strcmp(name, walk_skip[i]) == 0)
			return true;
	return false;
}

/* Pins every directory from the workspace down to a nested repository:
 * moving one of them aside would take the read-only hooks along and leave
 * room for a fresh repository at the old path. */
static int plan_pin_chain(struct sandbox_plan *p, const char *dir)
{
	return sandbox_runlater_pin_down(p, p->ws, dir,
					 "nested repository pin");
}

/* Handles one directory entry found by the walk at path (absolute). */
static int walk_entry(struct sandbox_plan *p, const char *path,
		      const char *name, unsigned char type, bool repos,
		      bool in_skip, bool *descend)
{
	*descend = type == DT_DIR;
	p->masked_last = false;
	if (repos && !in_skip && strcmp(name, ".git") == 0) {
		char dir[PATH_MAX];
		size_t len = strlen(path) - 5;

		*descend = false;
		if (len >= sizeof(dir))
			return 0;
		memcpy(dir, path, len);
		dir[len] = '\0';
		if (strcmp(len == 0 ? "/" : dir, p->ws) == 0)
			/* The workspace's own: done before the walk. */
			return 0;
		if (plan_pin_chain(p, dir))
			return -1;
		return sandbox_runlater_repo(p, len == 0 ? "/" : dir);
	}
	/* Below a dependency directory only the user's own globs. */
	for (size_t i = in_skip ? p->nwalk_default : 0; i < p->nwalk_glob;
	     i++) {
		if (glob_matchz(p->walk_glob_abs[i], path)) {
			*descend = false;
			p->masked_last = true;
			return sandbox_mask_path(p, path, "--deny-read mask");
		}
	}
	/* deny_write: the walk goes on below a matched directory (nested
	 * repositories, masks) without matching again inside it. */
	if (p->dw_dir && sandbox_plan_path_under(path, p->dw_dir))
		return 0;
	for (size_t i = 0; i < p->nwalk_dw; i++) {
		if (!glob_matchz(p->walk_dw_abs[i], path))
			continue;
		if (type == DT_DIR) {
			p->dw_dir = sandbox_plan_strdup(p, path);
			if (!p->dw_dir)
				return sandbox_plan_fail(p, "out of memory");
		}
		return sandbox_runlater_path(p, path, RL_DENY_WRITE);
	}
	return 0;
}

#define SANDBOX_WALK_BUF 16384

/* A file with more than one link may have its other name outside every
 * writable root (planted before the run): writing through the workspace's
 * name would change it, so it is made read-only. */
static int walk_hardlink(struct sandbox_plan *p, int dfd, const char *name,
			 const char *path)
{
	struct stat st;
	char *dup;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_nlink < 2)
		return 0;
	/* Each costs a mount: past the ceiling, reported instead. */
	if (p->nhardlinks >= SANDBOX_MAX_HARDLINKS) {
		p->hardlinks_over = true;
		return 0;
	}
	p->nhardlinks++;
	dup = sandbox_plan_strdup(p, path);
	if (!dup)
		return sandbox_plan_fail(p, "out of memory");
	return sandbox_plan_add_op(p, OP_RELOCK, OPF_OPTIONAL | OPF_FILE, dup,
				   NULL, "hardlinked file");
}

/* Walks the directory open at dfd (path is its absolute name), depth
 * levels left, within the entry budget. getdents64 straight into a buffer
 * per level: no stat of directories, one fstatat per regular file (for
 * the link count) in a writable root (p->walk_hl). Every regular file of
 * a writable root is looked at, dependency directories and .git (its
 * objects: `git clone --local` hard-links them) included; below .git
 * (hl_only) nothing else. */
static int walk_dir(struct sandbox_plan *p, int dfd, char *path, size_t plen,
		    int depth, bool repos, bool in_skip, bool hl_only)
{
	char *buf = p->walk_bufs + (size_t)depth * SANDBOX_WALK_BUF;
	int rc = 0;

	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, SANDBOX_WALK_BUF);

		if (n <= 0)
			break;
		for (long off = 0; off < n && rc == 0;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			const char *name = de->d_name;
			unsigned char type = de->d_type;
			size_t nl;
			bool descend;

			off += de->d_reclen;
			if (name[0] == '.' &&
			    (name[1] == '\0' ||
			     (name[1] == '.' && name[2] == '\0')))
				continue;
			if (++p->walk_entries > SANDBOX_WALK_MAX_ENTRIES) {
				p->walk_truncated = true;
				rc = 1;
				break;
			}
			nl = strlen(name);
			if (plen + 1 + nl >= PATH_MAX)
				continue;
			if (plen == 1) {
				memcpy(path + 1, name, nl + 1);
			} else {
				path[plen] = '/';
				memcpy(path + plen + 1, name, nl + 1);
			}
			if (type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(dfd, name, &st,
					    AT_SYMLINK_NOFOLLOW) != 0)
					continue;
				type = S_ISDIR(st.st_mode) ? DT_DIR :
				       S_ISLNK(st.st_mode) ? DT_LNK :
				       S_ISREG(st.st_mode) ? DT_REG :
							     DT_UNKNOWN;
			}
			if (hl_only) {
				descend = type == DT_DIR;
				p->masked_last = false;
			} else {
				rc = walk_entry(p, path, name, type, repos,
						in_skip, &descend);
			}
			if (rc)
				break;
			if (type == DT_REG && p->walk_hl && !descend &&
			    !p->masked_last) {
				rc = walk_hardlink(p, dfd, name, path);
				continue;
			}
			/* A repository's .git: its hooks and config were
			 * planned by walk_entry; its files are looked at for
			 * hard links only. */
			bool into_git = !hl_only && p->walk_hl &&
					type == DT_DIR && !descend &&
					strcmp(name, ".git") == 0;
			/* Dependency directories: entered for the hard
			 * links of a writable root and the user's
			 * --deny-read and deny_write globs, never skipped
			 * silently. */
			if ((descend || into_git) && type == DT_DIR &&
			    (in_skip || hl_only || into_git ||
			     !sandbox_walk_skipped(name) || p->walk_hl ||
			     p->nwalk_glob > p->nwalk_default ||
			     p->nwalk_dw > 0)) {
				bool sub_skip = in_skip ||
						sandbox_walk_skipped(name);
				int sub;

				if (depth <= 0) {
					p->walk_truncated = true;
					continue;
				}
				sub = openat(dfd, name,
					     O_RDONLY | O_DIRECTORY |
						     O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					continue;
				rc = walk_dir(p, sub, path,
					      plen == 1 ? 1 + nl :
							  plen + 1 + nl,
					      depth - 1, repos, sub_skip,
					      hl_only || into_git);
			}
		}
		if (rc)
			break;
	}
	path[plen] = '\0';
	if (plen == 1)
		path[1] = '\0';
	close(dfd);
	/* 1 only stops the walk (the budget is spent); -1 is an error. */
	return rc;
}

int sandbox_walk_root(struct sandbox_plan *p, const char *root, bool repos)
{
	char path[PATH_MAX];
	size_t len = strlen(root);
	int fd;

	if (len >= sizeof(path))
		return 0;
	memcpy(path, root, len + 1);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (!p->walk_bufs) {
		p->walk_bufs = arena_alloc_raw(
			&p->arena, (size_t)(SANDBOX_WALK_MAX_DEPTH + 1) *
					   SANDBOX_WALK_BUF);
		if (!p->walk_bufs) {
			close(fd);
			return sandbox_plan_fail(p, "out of memory");
		}
	}
	p->walk_hl = sandbox_plan_host_writable(p, root);
	return walk_dir(p, fd, path, len, SANDBOX_WALK_MAX_DEPTH, repos, false,
			false) < 0 ?
		       -1 :
		       0;
}

/* The absolute form of a --deny-read or deny_write entry: "~/" is $HOME,
 * a relative entry is the workspace's, and a name without '/' matches at
 * any depth below it (gitignore). Returns 0, or -1 when too long. */
static int entry_abs(const struct sandbox_plan *p, const char *entry,
		     char *full, size_t cap)
{
	const char *ws = strcmp(p->ws, "/") == 0 ? "" : p->ws;
	int n;

	if (strncmp(entry, "~/", 2) == 0)
		n = snprintf(full, cap, "%s/%s", p->home, entry + 2);
	else if (entry[0] == '/')
		n = snprintf(full, cap, "%s", entry);
	else if (!strchr(entry, '/'))
		n = snprintf(full, cap, "%s/**/%s", ws, entry);
	else
		n = snprintf(full, cap, "%s/%s", ws, entry);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* A directory for the walk to visit (canonical), once. */
static int plan_walk_root(struct sandbox_plan *p, const char *canon,
			  const char *what, const char *entry)
{
	for (size_t i = 0; i < p->nwalk_roots; i++)
		if (strcmp(p->walk_roots[i], canon) == 0)
			return 0;
	if (p->nwalk_roots >= SANDBOX_MAX_WALK_ROOTS)
		return sandbox_plan_fail(
			p,
			"%s %s: more than %d directories to walk "
			"(SANDBOX_MAX_WALK_ROOTS)",
			what, entry, SANDBOX_MAX_WALK_ROOTS);
	p->walk_roots[p->nwalk_roots++] = canon;
	return 0;
}

/* The length of a glob's literal directory: full[0..len) ("" is "/"). */
static size_t glob_prefix_len(const char *full)
{
	size_t plen = (size_t)(strpbrk(full, "*?[\\") - full);

	while (plen > 0 && full[plen - 1] != '/')
		plen--;
	return plen > 0 ? plen - 1 : 0;
}

/* Turns a --deny-read entry into a mask (a path) or a glob to match during
 * the walk; globs outside the workspace add a walk root at their literal
 * prefix. */
int sandbox_walk_deny_entry(struct sandbox_plan *p, const char *entry)
{
	char full[PATH_MAX], prefix[PATH_MAX];
	char *abs, *canon;
	size_t plen;

	if (entry_abs(p, entry, full, sizeof(full)) != 0)
		return sandbox_plan_fail(p, "--deny-read %s: path too long",
					 entry);
	if (!has_wildcard(full))
		return sandbox_mask_path(p, full, "--deny-read mask");

	abs = sandbox_plan_strdup(p, full);
	if (!abs)
		return sandbox_plan_fail(p, "out of memory");
	p->walk_glob_abs[p->nwalk_glob++] = abs;

	/* The literal prefix: the directory to walk. */
	plen = glob_prefix_len(full);
	memcpy(prefix, full, plen);
	prefix[plen] = '\0';
	canon = sandbox_plan_canon(p, plen ? prefix : "/");
	if (!canon || sandbox_plan_path_under(canon, p->ws))
		return 0;
	return plan_walk_root(p, canon, "--deny-read", entry);
}

/* Collapses "//", "/./" and "NAME/../" of an absolute path in place,
 * lexically (a configured "./a" or "a/../b" means what it says); a final
 * '/' stays. */
static void path_normalise(char *s)
{
	size_t len = strlen(s);
	bool slash = len > 1 && s[len - 1] == '/';
	const char *in = s + 1, *end = s + len;
	char *out = s; /* the result is s[0..out): "/a/b", "" for "/" */

	while (in < end) {
		const char *e = memchr(in, '/', (size_t)(end - in));
		size_t n = e ? (size_t)(e - in) : (size_t)(end - in);
		const char *c = in;

		in = e ? e + 1 : end;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			while (out > s && *--out != '/')
				;
		} else if (n > 0 && !(n == 1 && c[0] == '.')) {
			/* out stays before c: the copy never overtakes */
			*out++ = '/';
			memmove(out, c, n);
			out += n;
		}
	}
	if (out == s || slash)
		*out++ = '/';
	*out = '\0';
}

/* A deny_write glob, its literal directory made canonical (the walk sees
 * canonical names), and the directories to walk for it: its literal
 * directory when that is writable, else the writable roots below it (the
 * workspace is walked anyway). */
static int plan_deny_write_glob(struct sandbox_plan *p, const char *entry,
				const char *full)
{
	char prefix[PATH_MAX], pat[PATH_MAX];
	size_t plen = glob_prefix_len(full);
	const char *rest = full + plen + (full[plen] == '/');
	char *canon, *abs;
	int n;

	memcpy(prefix, full, plen);
	prefix[plen] = '\0';
	canon = sandbox_plan_canon(p, plen ? prefix : "/");
	if (!canon)
		return 0; /* nothing there to match */
	n = snprintf(pat, sizeof(pat), "%s/%s",
		     strcmp(canon, "/") == 0 ? "" : canon, rest);
	if (n < 0 || (size_t)n >= sizeof(pat))
		return sandbox_plan_fail(p, "deny_write %s: path too long",
					 entry);
	if (p->nwalk_dw >= SANDBOX_MAX_LIST + 8)
		return sandbox_plan_fail(p,
					 "deny_write %s: more than %d globs "
					 "(SANDBOX_MAX_LIST)",
					 entry, SANDBOX_MAX_LIST);
	abs = sandbox_plan_strdup(p, pat);
	if (!abs)
		return sandbox_plan_fail(p, "out of memory");
	p->walk_dw_abs[p->nwalk_dw++] = abs;
	if (sandbox_plan_path_under(canon, p->ws))
		return 0;
	if (sandbox_plan_host_writable(p, canon))
		return plan_walk_root(p, canon, "deny_write", entry);
	for (size_t i = 0; i < p->nrw; i++) {
		const char *r = p->rw[i];

		if (strcmp(r, "/tmp") == 0 ||
		    (p->o->no_read_home && strcmp(r, p->home) == 0) ||
		    !sandbox_plan_path_under(r, canon) ||
		    sandbox_plan_path_under(r, p->ws))
			continue;
		if (plan_walk_root(p, r, "deny_write", entry))
			return -1;
	}
	return 0;
}

/* A deny_write entry: a path re-bound read-only (or, missing, kept from
 * being created), or a glob matched by the walk; a bare name both matches
 * at any depth and is protected at the top of the workspace. Paths outside
 * every writable root are read-only already. */
int sandbox_walk_deny_write_entry(struct sandbox_plan *p, const char *entry)
{
	char full[PATH_MAX];
	char *canon;
	int n;

	if (!entry[0])
		return sandbox_plan_fail(p, "deny_write: an empty entry");
	if (entry_abs(p, entry, full, sizeof(full)) != 0)
		return sandbox_plan_fail(p, "deny_write %s: path too long",
					 entry);
	path_normalise(full);
	if (has_wildcard(full)) {
		if (plan_deny_write_glob(p, entry, full))
			return -1;
		if (strchr(entry, '/') || has_wildcard(entry))
			return 0;
		n = snprintf(full, sizeof(full), "%s/%s",
			     strcmp(p->ws, "/") == 0 ? "" : p->ws, entry);
		if (n < 0 || (size_t)n >= sizeof(full))
			return sandbox_plan_fail(
				p, "deny_write %s: path too long", entry);
		path_normalise(full);
	}
	canon = sandbox_plan_canon_loose(p, full);
	if (!canon)
		return sandbox_plan_fail(p, "deny_write %s: path too long",
					 entry);
	return sandbox_runlater_path(p, canon, RL_PLACEHOLDER | RL_DENY_WRITE);
}

/* Does a deny_write entry name something inside a writable root (for a
 * glob: can it match there)? When unsure, yes. */
bool sandbox_walk_dw_writable(struct sandbox_plan *p, const char *entry)
{
	char full[PATH_MAX];
	const char *c;

	if (!entry[0] || entry_abs(p, entry, full, sizeof(full)) != 0)
		return true;
	path_normalise(full);
	if (has_wildcard(full)) {
		size_t plen = glob_prefix_len(full);

		full[plen] = '\0';
		c = sandbox_plan_canon(p, plen ? full : "/");
		if (!c)
			return false; /* nothing there to match */
		for (size_t i = 0; i < p->nrw; i++)
			if (sandbox_plan_path_under(c, p->rw[i]) ||
			    sandbox_plan_path_under(p->rw[i], c))
				return true;
		return false;
	}
	c = sandbox_plan_canon_loose(p, full);
	if (!c)
		return true;
	for (size_t i = 0; i < p->nrw; i++)
		if (sandbox_plan_path_under(c, p->rw[i]))
			return true;
	return false;
}
