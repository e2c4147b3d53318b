/* runlater — paths that something outside the sandbox runs later,
 * re-bound read-only inside the writable roots (sandbox_int.h).
 *
 * The hooks and config of the workspace's repository (and of nested ones,
 * submodules and worktrees, following "gitdir:" and "commondir" files and
 * core.hooksPath), cordon's own directories, shell rc files and deny_write
 * paths. A missing one gets a placeholder (placeholder.c) to mount over;
 * the directories on the way down from its writable root are pinned.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "sandbox_int.h"

#include "alloc.h"
#include "banned.h"

/* The host writable root that holds path (the deepest); NULL when none. */
static const char *host_root_of(const struct sandbox_plan *p, const char *path)
{
	const char *best = NULL;

	for (size_t i = 0; i < p->nrw; i++) {
		if (strcmp(p->rw[i], "/tmp") == 0 ||
		    (p->o->no_read_home && strcmp(p->rw[i], p->home) == 0))
			continue;
		if (sandbox_plan_path_under(path, p->rw[i]) &&
		    (!best || strlen(p->rw[i]) > strlen(best)))
			best = p->rw[i];
	}
	return best;
}

/* Pins every directory below root down to dir (included): moving one of
 * them aside would take a read-only mount below it along and leave room
 * for a fresh file at the old path. */
int sandbox_runlater_pin_down(struct sandbox_plan *p, const char *root,
			      const char *dir, const char *step)
{
	size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
	size_t dl = strlen(dir);

	if (!sandbox_plan_path_under(dir, root) || dl <= rl)
		return 0;
	for (size_t i = rl + 1; i <= dl; i++) {
		char *anc;

		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		anc = arena_strndup(&p->arena, dir, i);
		if (!anc)
			return sandbox_plan_fail(p, "out of memory");
		if (sandbox_plan_add_op(p, OP_PIN, OPF_OPTIONAL, anc, NULL,
					step))
			return -1;
	}
	return 0;
}

/* The directories from target's writable root down to its parent. */
static int plan_pin_way(struct sandbox_plan *p, const char *target)
{
	const char *root = host_root_of(p, target);
	const char *slash = strrchr(target, '/');
	char *parent;

	if (!root || !slash || slash == target)
		return 0;
	parent = arena_strndup(&p->arena, target, (size_t)(slash - target));
	if (!parent)
		return sandbox_plan_fail(p, "out of memory");
	return sandbox_runlater_pin_down(p, root, parent, "protected path pin");
}

/* A missing run-later path: an empty placeholder at its first missing
 * component (a file, or a directory with RL_DIR), read-only inside, keeps
 * the whole path from being created. A file has no data block: creating
 * and removing it is cheap, and inside the sandbox `mkdir -p a/b` through
 * it fails with ENOTDIR. */
static int plan_missing(struct sandbox_plan *p, const char *path,
			const char *canon, unsigned fl)
{
	bool dw = fl & RL_DENY_WRITE;
	const char *what = dw ? "deny_write path" : "run-later path";
	char buf[PATH_MAX];
	size_t len = strlen(path);
	struct stat st;
	const char *first = canon;

	if (len >= sizeof(buf) || path[0] != '/')
		return 0;
	memcpy(buf, path, len + 1);
	/* canon (its parent resolved, itself missing): the first missing
	 * component is the last one, no component needs a look */
	for (char *s = buf + 1; !canon; s++) {
		char *slash = strchr(s, '/');

		if (slash)
			*slash = '\0';
		if (lstat(buf, &st) != 0)
			break;
		if (!slash)
			return 0; /* it appeared meanwhile */
		*slash = '/';
		s = slash;
	}
	if (!canon)
		first = sandbox_plan_canon_parent(p, buf);
	if (!first || !sandbox_plan_host_writable(p, first))
		return 0;
	/* Directly in $HOME, the Landlock layer already refuses it. */
	if (p->home_nocreate && strrchr(first, '/') &&
	    (size_t)(strrchr(first, '/') - first) == strlen(p->home) &&
	    strncmp(first, p->home, strlen(p->home)) == 0)
		return 0;
	/* A directory only for the path itself, with RL_DIR. Another run
	 * may have made the same placeholder a moment ago: it is there to
	 * be protected all the same. */
	if (sandbox_placeholder_make(p, first,
				     !((fl & RL_DIR) && strcmp(buf, path) == 0),
				     &st) != 0 &&
	    lstat(first, &st) != 0) {
		/* No registry: said in the report. */
		if (p->ph_fd < 0 && dw)
			p->dw_missed = true;
		else if (p->ph_fd < 0)
			p->ph_missed = true;
		return 0;
	}
	if (S_ISLNK(st.st_mode))
		return sandbox_plan_fail(
			p,
			"%s %s became a symlink: refusing to mount "
			"over it",
			what, first);
	if (plan_pin_way(p, first))
		return -1;
	return sandbox_plan_add_op(
		p, OP_RELOCK,
		OPF_OPTIONAL | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE), first,
		NULL,
		dw ? "deny_write path (missing)" : "run-later path (missing)");
}

/* Protects path read-only when it lies in a writable root that shows the
 * host. A symlink is refused (it would redirect the mount) unless
 * RL_FOLLOW, where what it points to is protected instead. */
int sandbox_runlater_path(struct sandbox_plan *p, const char *path, unsigned fl)
{
	const char *what = fl & RL_DENY_WRITE ? "deny_write path" :
						"run-later path";
	struct stat st;
	char *canon;

	if (!sandbox_plan_host_writable(p, path))
		return 0;
	canon = sandbox_plan_canon_parent(p, path);
	if (!canon || lstat(canon, &st) != 0) {
		if ((errno == ENOENT || errno == ENOTDIR) &&
		    (fl & RL_PLACEHOLDER))
			return plan_missing(
				p, path,
				canon && errno == ENOENT ? canon : NULL, fl);
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!(fl & RL_FOLLOW))
			return sandbox_plan_fail(
				p,
				"%s %s is a symlink: refusing to "
				"mount over it (replace it with the "
				"file or directory it points to)",
				what, path);
		canon = sandbox_plan_canon(p, path);
		if (!canon || stat(canon, &st) != 0 ||
		    !sandbox_plan_host_writable(p, canon))
			return 0;
	}
	/* Pinned on the way down, or `mv dir dir2; mkdir -p dir/...`
	 * would make a fresh, writable path in its place. */
	if (plan_pin_way(p, canon))
		return -1;
	return sandbox_plan_add_op(p, OP_RELOCK,
				   OPF_OPTIONAL |
					   (S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
				   canon, NULL, what);
}

/* core.hooksPath from a git config file, resolved against worktree. */
static int plan_hooks_path(struct sandbox_plan *p, const char *config,
			   const char *worktree)
{
	char val[PATH_MAX], full[PATH_MAX];
	bool in_core = false;
	char *buf = cordon__malloc(SANDBOX_GIT_FILE_MAX), *line, *save = NULL;
	ssize_t n;
	int rc = 0;

	if (!buf)
		return sandbox_plan_fail(p, "out of memory");
	n = sandbox_read_small(config, buf, SANDBOX_GIT_FILE_MAX);
	if (n <= 0)
		goto out;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *s = line, *e;
		size_t len;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[') {
			in_core = strncasecmp(s, "[core]", 6) == 0;
			continue;
		}
		if (!in_core || strncasecmp(s, "hookspath", 9) != 0)
			continue;
		s += 9;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '=')
			continue;
		s++;
		while (*s == ' ' || *s == '\t' || *s == '"')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' ||
				 e[-1] == '"' || e[-1] == '\r'))
			e--;
		len = (size_t)(e - s);
		if (len == 0 || len >= sizeof(val))
			continue;
		memcpy(val, s, len);
		val[len] = '\0';
		if (strncmp(val, "~/", 2) == 0)
			n = snprintf(full, sizeof(full), "%s/%s", p->home,
				     val + 2);
		else if (val[0] == '/')
			n = snprintf(full, sizeof(full), "%s", val);
		else
			n = snprintf(full, sizeof(full), "%s/%s", worktree,
				     val);
		if (n < 0 || (size_t)n >= sizeof(full))
			continue;
		{
			char *canon = sandbox_plan_canon(p, full);

			if (canon)
				rc = sandbox_runlater_path(p, canon, 0);
			else
				rc = sandbox_runlater_path(p, full,
							   RL_PLACEHOLDER);
			if (rc)
				goto out;
		}
	}
out:
	free(buf);
	return rc;
}

/* The hooks and config of a git directory (and of its common directory,
 * for worktrees). */
static int plan_gitdir(struct sandbox_plan *p, const char *gitdir,
		       const char *worktree)
{
	char buf[PATH_MAX];
	const char *dirs[2] = { gitdir, NULL };
	char *cd, *commondir;
	ssize_t n;

	cd = sandbox_plan_join(p, gitdir, "commondir");
	if (!cd)
		return sandbox_plan_fail(p, "git directory %s: path too long",
					 gitdir);
	n = sandbox_read_small(cd, buf, sizeof(buf));
	if (n > 0) {
		char full[PATH_MAX];
		int m;

		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = '\0';
		if (buf[0] == '/')
			m = snprintf(full, sizeof(full), "%s", buf);
		else
			m = snprintf(full, sizeof(full), "%s/%s", gitdir, buf);
		if (m > 0 && (size_t)m < sizeof(full)) {
			commondir = sandbox_plan_canon(p, full);
			if (commondir && strcmp(commondir, gitdir) != 0)
				dirs[1] = commondir;
		}
	}
	/* A worktree's pointer to its common directory (and back). */
	if (dirs[1]) {
		char *gd = sandbox_plan_join(p, gitdir, "gitdir");

		if (!gd || sandbox_runlater_path(p, cd, 0) ||
		    sandbox_runlater_path(p, gd, 0))
			return gd ? -1 : sandbox_plan_fail(p, "path too long");
	}
	for (size_t i = 0; i < 2 && dirs[i]; i++) {
		char *hooks = sandbox_plan_join(p, dirs[i], "hooks");
		char *config = sandbox_plan_join(p, dirs[i], "config");
		char *wt = sandbox_plan_join(p, dirs[i], "config.worktree");

		if (!hooks || !config || !wt)
			return sandbox_plan_fail(
				p, "git directory %s: path too long", dirs[i]);
		if (sandbox_runlater_path(p, hooks, RL_PLACEHOLDER) ||
		    sandbox_runlater_path(p, config, 0) ||
		    sandbox_runlater_path(p, wt, 0) ||
		    plan_hooks_path(p, config, worktree) ||
		    plan_hooks_path(p, wt, worktree))
			return -1;
	}
	return 0;
}

/* The nearest ancestor of dir with a .git (directory or "gitdir:" file),
 * as git finds it: not across a filesystem boundary. NULL when none, and
 * when the nearest .git is a file that is not a "gitdir:" file (another
 * run's empty placeholder, say): git stops there with an error, so there
 * is no repository to protect, and the workspace's own .git gets its
 * placeholder instead of being left free to create. */
static char *enclosing_repo(struct sandbox_plan *p, const char *dir)
{
	char buf[PATH_MAX];
	struct stat st;
	size_t len = strlen(dir);
	dev_t dev;

	if (len >= sizeof(buf) || stat(dir, &st) != 0)
		return NULL;
	dev = st.st_dev;
	memcpy(buf, dir, len + 1);
	while (len > 1) {
		char *slash = strrchr(buf, '/');
		char *dotgit;

		if (!slash)
			return NULL;
		len = slash == buf ? 1 : (size_t)(slash - buf);
		buf[len] = '\0';
		if (stat(buf, &st) != 0 || st.st_dev != dev)
			return NULL;
		dotgit = sandbox_plan_join(p, buf, ".git");
		if (!dotgit || lstat(dotgit, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			return sandbox_plan_strdup(p, buf);
		if (S_ISREG(st.st_mode)) {
			char head[8];

			if (sandbox_read_small(dotgit, head, sizeof(head)) ==
				    (ssize_t)sizeof(head) - 1 &&
			    strncmp(head, "gitdir:", 7) == 0)
				return sandbox_plan_strdup(p, buf);
			return NULL;
		}
	}
	return NULL;
}

/* The repository whose work tree is dir: .git as a directory, or as a
 * "gitdir:" file (submodules, worktrees), which is protected too. */
int sandbox_runlater_repo(struct sandbox_plan *p, const char *dir)
{
	char buf[PATH_MAX + 16];
	struct stat st;
	char *dotgit = sandbox_plan_join(p, dir, ".git");
	ssize_t n;

	if (!dotgit)
		return sandbox_plan_fail(p, "repository %s: path too long",
					 dir);
	if (lstat(dotgit, &st) != 0) {
		/* A workspace inside a repository: that repository's hooks
		 * and config are protected where they are writable, and no
		 * placeholder breaks git in the workspace. */
		if (errno != ENOENT || strcmp(dir, p->ws) != 0)
			return 0;
		{
			char *enc = enclosing_repo(p, dir);

			if (enc)
				return sandbox_runlater_repo(p, enc);
		}
		/* A workspace without a repository: no `git init` with hooks
		 * that a later git would run (.git stays an empty file). */
		return sandbox_runlater_path(p, dotgit, RL_PLACEHOLDER);
	}
	if (S_ISDIR(st.st_mode)) {
		/* Pinned first: `mv .git elsewhere` would otherwise take the
		 * read-only hooks along and leave room for a new .git. */
		if (sandbox_plan_host_writable(p, dotgit) &&
		    sandbox_plan_add_op(p, OP_PIN, OPF_OPTIONAL, dotgit, NULL,
					"git directory pin"))
			return -1;
		return plan_gitdir(p, dotgit, dir);
	}
	if (!S_ISREG(st.st_mode))
		return sandbox_runlater_path(p, dotgit, 0);
	if (sandbox_runlater_path(p, dotgit, 0))
		return -1;
	n = sandbox_read_small(dotgit, buf, sizeof(buf));
	if (n > 8 && strncmp(buf, "gitdir:", 7) == 0) {
		char full[PATH_MAX];
		char *g = buf + 7, *canon;
		int m;

		while (*g == ' ' || *g == '\t')
			g++;
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
				 buf[n - 1] == ' '))
			buf[--n] = '\0';
		if (g[0] == '/')
			m = snprintf(full, sizeof(full), "%s", g);
		else
			m = snprintf(full, sizeof(full), "%s/%s", dir, g);
		if (m < 0 || (size_t)m >= sizeof(full))
			return 0;
		canon = sandbox_plan_canon(p, full);
		if (canon)
			return plan_gitdir(p, canon, dir);
	}
	return 0;
}
