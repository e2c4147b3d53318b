/* sweep — the backstop for run-later paths (sandbox_int.h): what git
 * will execute later, looked at in the writable roots before the run and
 * again after it, on the host, before sandbox_run returns.
 *
 * The masks hold the git directories and configs that exist at launch;
 * what the command makes during the run (a run-later name of the
 * workspace that no placeholder holds, a nested `git init`, a
 * submodule's .git/modules/NAME, a worktree, a commondir pointer, a hook,
 * a config line that runs a program) is found here: every such entry
 * that was not there before is renamed to NAME.cordon-quarantined, and a
 * git config that was there but now holds a key that executes is put
 * aside the same way and its launch-time text written back. Each one is
 * named in the report's "quarantined" list.
 *
 * The tree is the command's: every step is an openat(O_NOFOLLOW) below a
 * directory descriptor, renames stay within their directory, and a
 * config is rewritten only as a fresh file (O_EXCL) after the one there
 * was moved aside. Bounded like the walk (SANDBOX_SWEEP_MAX entries
 * recorded, SANDBOX_WALK_MAX_ENTRIES read, SANDBOX_WALK_MAX_DEPTH
 * levels); past a bound the report says so.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sys/stat.h>

#include "sandbox_int.h"

#include "alloc.h"
#include "banned.h"

/* git config keys whose value git runs (or loads more config from):
 * section, subsection ("*": any, "": none), key ("*": any). */
static const struct {
	const char *section, *sub, *key;
} exec_keys[] = {
	{ "core", "", "fsmonitor" },
	{ "core", "", "hookspath" },
	{ "core", "", "sshcommand" },
	{ "core", "", "pager" },
	{ "core", "", "editor" },
	{ "core", "", "askpass" },
	{ "core", "", "gitproxy" },
	{ "core", "", "worktree" },
	{ "pager", "", "*" },
	{ "pager", "*", "*" },
	{ "filter", "*", "*" },
	{ "diff", "", "external" },
	{ "diff", "*", "textconv" },
	{ "diff", "*", "command" },
	{ "merge", "*", "driver" },
	{ "credential", "", "helper" },
	{ "credential", "*", "helper" },
	{ "include", "", "path" },
	{ "includeif", "*", "path" },
	{ "sequence", "", "editor" },
	{ "gpg", "", "program" },
	{ "gpg", "*", "program" },
	{ "uploadpack", "", "packobjectshook" },
	{ "remote", "*", "uploadpack" },
	{ "remote", "*", "receivepack" },
	{ "alias", "", "*" },
	{ "web", "", "browser" },
	{ "browser", "*", "cmd" },
	{ "man", "*", "cmd" },
};

#define SWEEP_SUFFIX ".cordon-quarantined"

struct sweep_cfg {
	char *path; /* absolute */
	char *text; /* at launch */
	size_t len;
	struct timespec times[2]; /* its atime and mtime, put back too */
};

struct sandbox_sweep {
	char **seen; /* the entries at launch (absolute), then after */
	size_t nseen, cap;
	struct sweep_cfg cfg[SANDBOX_SWEEP_CONFIGS];
	size_t ncfg;
	size_t entries; /* read by this scan */
	bool launch; /* the scan before the run */
	bool over; /* a bound was reached */
};

static bool sweep_known(const struct sandbox_sweep *s, size_t n,
			const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s->seen[i], path) == 0)
			return true;
	return false;
}

/* Says what the sweep did, in the report (at most its list's length). */
void sandbox_sweep_note(struct sandbox_report *rep, const char *fmt, ...)
{
	size_t cap = sizeof(rep->quarantined) / sizeof(rep->quarantined[0]);
	va_list ap;

	if (rep->nquarantined >= cap) {
		rep->quarantined_more++;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(rep->quarantined[rep->nquarantined],
			sizeof(rep->quarantined[0]), fmt, ap);
	va_end(ap);
	rep->nquarantined++;
}

/* Renames dfd/name to name.cordon-quarantined (or .1 … .9 when taken). */
int sandbox_sweep_quarantine(int dfd, const char *name, char *out, size_t cap)
{
	for (int i = 0; i < 10; i++) {
		int n = i ? snprintf(out, cap, "%s" SWEEP_SUFFIX ".%d", name,
				     i) :
			    snprintf(out, cap, "%s" SWEEP_SUFFIX, name);

		if (n < 0 || (size_t)n >= cap)
			return -1;
		if (renameat2(dfd, name, dfd, out, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* One entry of the scan: recorded before the run; after it, an entry not
 * recorded then is quarantined. dfd holds name; path is its absolute
 * name. */
static void sweep_entry(struct sandbox_plan *p, struct sandbox_report *rep,
			int dfd, const char *name, const char *path,
			const char *what)
{
	struct sandbox_sweep *s = p->sweep;
	char moved[NAME_MAX + 1];
	struct stat st;

	if (s->launch) {
		char *dup;

		if (s->nseen >= s->cap) {
			s->over = true;
			return;
		}
		dup = sandbox_plan_strdup(p, path);
		if (dup)
			s->seen[s->nseen++] = dup;
		else
			s->over = true;
		return;
	}
	if (sweep_known(s, s->cap, path))
		return;
	/* An empty file runs nothing and names no repository: another run's
	 * placeholder (a workspace nested in this one), left for its owner
	 * to remove. */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size == 0)
		return;
	if (sandbox_sweep_quarantine(dfd, name, moved, sizeof(moved)) == 0)
		sandbox_sweep_note(rep,
				   "%s %s: new during the run, moved to %s",
				   what, path, moved);
	else
		sandbox_sweep_note(rep,
				   "%s %s: new during the run, could not be "
				   "moved aside (%s)",
				   what, path, strerror(errno));
}

static bool section_is(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && strncasecmp(s, want, n) == 0;
}

/* Does a git config text hold a key that executes? Sections as git
 * writes them: [section], [section "sub"], and the old [section.sub].
 * Bytes, not a string: NULs and unterminated lines are data. */
bool sandbox_sweep_config_executes(const char *text, size_t len)
{
	char sec[64] = "";
	bool has_sub = false;
	size_t i = 0;

	while (i < len) {
		size_t e = i;
		const char *l;
		size_t ll;

		while (e < len && text[e] != '\n')
			e++;
		l = text + i;
		ll = e - i;
		i = e + 1;
		while (ll && (*l == ' ' || *l == '\t')) {
			l++;
			ll--;
		}
		if (!ll || *l == '#' || *l == ';')
			continue;
		if (*l == '[') {
			size_t k = 1;

			while (k < ll &&
			       (isalnum((unsigned char)l[k]) || l[k] == '-'))
				k++;
			if (k - 1 >= sizeof(sec))
				k = sizeof(sec);
			memcpy(sec, l + 1, k - 1);
			sec[k - 1] = '\0';
			has_sub = k < ll && (l[k] == ' ' || l[k] == '.');
			continue;
		}
		{
			size_t k = 0;

			while (k < ll &&
			       (isalnum((unsigned char)l[k]) || l[k] == '-'))
				k++;
			for (size_t r = 0;
			     r < sizeof(exec_keys) / sizeof(exec_keys[0]);
			     r++) {
				const char *sub = exec_keys[r].sub;

				if (strcasecmp(sec, exec_keys[r].section) != 0)
					continue;
				if ((sub[0] == '*') != has_sub)
					continue;
				if (strcmp(exec_keys[r].key, "*") == 0 ||
				    section_is(l, k, exec_keys[r].key))
					return true;
			}
		}
	}
	return false;
}

/* Reads dfd/name (a regular file, no symlink) into buf; the length, or
 * -1. st gets its status. */
static ssize_t read_at(int dfd, const char *name, char *buf, size_t cap,
		       struct stat *st)
{
	int fd = openat(dfd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t total = 0, n;

	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -1;
	}
	while ((size_t)total < cap &&
	       (n = read(fd, buf + total, cap - (size_t)total)) > 0)
		total += n;
	close(fd);
	return total;
}

/* A git directory's config: kept before the run; after it, a changed one
 * that executes is moved aside and the kept text written back. */
static void sweep_config(struct sandbox_plan *p, struct sandbox_report *rep,
			 int gfd, const char *gitdir)
{
	struct sandbox_sweep *s = p->sweep;
	char path[PATH_MAX], moved[NAME_MAX + 1];
	struct stat st;
	char *buf;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/config", gitdir) >=
	    (int)sizeof(path))
		return;
	buf = cordon__malloc(SANDBOX_GIT_FILE_MAX);
	if (!buf) {
		s->over = true;
		return;
	}
	n = read_at(gfd, "config", buf, SANDBOX_GIT_FILE_MAX, &st);
	if (s->launch) {
		if (n < 0) {
			free(buf);
			return;
		}
		if (s->ncfg >= SANDBOX_SWEEP_CONFIGS) {
			s->over = true;
		} else {
			struct sweep_cfg *c = &s->cfg[s->ncfg];

			c->path = sandbox_plan_strdup(p, path);
			c->text = arena_strndup(&p->arena, buf, (size_t)n);
			c->len = (size_t)n;
			c->times[0] = st.st_atim;
			c->times[1] = st.st_mtim;
			if (c->path && c->text)
				s->ncfg++;
			else
				s->over = true;
		}
		free(buf);
		return;
	}
	for (size_t i = 0; i < s->ncfg; i++) {
		struct sweep_cfg *c = &s->cfg[i];

		if (strcmp(c->path, path) != 0)
			continue;
		if (n < 0 ||
		    ((size_t)n == c->len &&
		     memcmp(buf, c->text, c->len) == 0) ||
		    !sandbox_sweep_config_executes(buf, (size_t)n))
			break;
		if (sandbox_sweep_quarantine(gfd, "config", moved,
					     sizeof(moved)) != 0) {
			sandbox_sweep_note(
				rep,
				"git config %s: a key that executes was "
				"added, could not be moved aside (%s)",
				path, strerror(errno));
			break;
		}
		fd = openat(gfd, "config",
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
		if (fd >= 0 && write(fd, c->text, c->len) == (ssize_t)c->len &&
		    futimens(fd, c->times) == 0)
			sandbox_sweep_note(
				rep,
				"git config %s: a key that executes was "
				"added: moved to %s, the launch-time text "
				"restored",
				path, moved);
		else
			sandbox_sweep_note(
				rep,
				"git config %s: a key that executes was "
				"added: moved to %s (not restored)",
				path, moved);
		if (fd >= 0)
			close(fd);
		break;
	}
	/* A config new since the launch is found as its directory's entry
	 * (a new .git, module or worktree) and quarantined with it. */
	free(buf);
}

static void sweep_gitdir(struct sandbox_plan *p, struct sandbox_report *rep,
			 int gfd, const char *gitdir, int depth);

/* Every entry of dir (below gfd) is recorded, or quarantined when new;
 * with gitdirs, each is a git directory of its own (modules/NAME,
 * worktrees/NAME). */
static void sweep_list(struct sandbox_plan *p, struct sandbox_report *rep,
		       int gfd, const char *gitdir, const char *dir,
		       const char *what, bool gitdirs, int depth)
{
	char path[PATH_MAX];
	int dfd = openat(gfd, dir,
			 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strstr(de->d_name, SWEEP_SUFFIX))
			continue;
		if (++p->sweep->entries > SANDBOX_WALK_MAX_ENTRIES) {
			p->sweep->over = true;
			break;
		}
		if (snprintf(path, sizeof(path), "%s/%s/%s", gitdir, dir,
			     de->d_name) >= (int)sizeof(path))
			continue;
		if (gitdirs && depth > 0) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

			if (sub >= 0) {
				/* a new one goes aside whole */
				if (p->sweep->launch ||
				    sweep_known(p->sweep, p->sweep->cap, path))
					sweep_gitdir(p, rep, sub, path,
						     depth - 1);
				close(sub);
			}
		}
		sweep_entry(p, rep, dirfd(d), de->d_name, path, what);
	}
	closedir(d);
}

/* A git directory: its hooks, commondir, config, worktrees and modules
 * (submodules' git directories, nested to any depth). */
static void sweep_gitdir(struct sandbox_plan *p, struct sandbox_report *rep,
			 int gfd, const char *gitdir, int depth)
{
	char path[PATH_MAX];
	struct stat st;

	if (fstatat(gfd, "commondir", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    snprintf(path, sizeof(path), "%s/commondir", gitdir) <
		    (int)sizeof(path))
		sweep_entry(p, rep, gfd, "commondir", path, "git commondir");
	sweep_list(p, rep, gfd, gitdir, "hooks", "git hook", false, 0);
	sweep_list(p, rep, gfd, gitdir, "worktrees", "git worktree", true,
		   depth);
	sweep_list(p, rep, gfd, gitdir, "modules", "git submodule", true,
		   depth);
	sweep_config(p, rep, gfd, gitdir);
}

static void sweep_dotgit(struct sandbox_plan *p, struct sandbox_report *rep,
			 int dfd, char *path, size_t plen);

/* A dependency directory (node_modules …) is too big to walk twice per
 * run: only the .git of each package in it (NAME/.git, @scope/NAME/.git),
 * where a git dependency keeps its clone. */
static void sweep_deps(struct sandbox_plan *p, struct sandbox_report *rep,
		       int dfd, char *path, size_t plen, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		size_t nl = strlen(name);
		int sub;

		if (name[0] == '.' || strstr(name, SWEEP_SUFFIX) ||
		    (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (++p->sweep->entries > SANDBOX_WALK_MAX_ENTRIES) {
			p->sweep->over = true;
			break;
		}
		if (plen + 1 + nl >= PATH_MAX)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, name, nl + 1);
		sub = openat(dirfd(d), name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		if (name[0] == '@' && depth > 0) {
			sweep_deps(p, rep, sub, path, plen + 1 + nl, depth - 1);
			continue;
		}
		sweep_dotgit(p, rep, sub, path, plen + 1 + nl);
		close(sub);
	}
	path[plen] = '\0';
	closedir(d);
}

/* dfd/.git when there is one: a known one is looked into, a new one goes
 * aside whole. path is dfd's name (room for "/.git" after plen). */
static void sweep_dotgit(struct sandbox_plan *p, struct sandbox_report *rep,
			 int dfd, char *path, size_t plen)
{
	struct stat st;
	int sub;

	if (fstatat(dfd, ".git", &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    plen + 5 >= PATH_MAX)
		return;
	memcpy(path + plen, "/.git", 6);
	sub = p->sweep->launch || sweep_known(p->sweep, p->sweep->cap, path) ?
		      openat(dfd, ".git",
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) :
		      -1;
	if (sub >= 0) {
		sweep_gitdir(p, rep, sub, path, SANDBOX_WALK_MAX_DEPTH / 2);
		close(sub);
	}
	sweep_entry(p, rep, dfd, ".git", path, "git repository");
	path[plen] = '\0';
}

/* The directories of a writable root, for .git entries (dependency
 * directories only one package deep). */
static void sweep_dir(struct sandbox_plan *p, struct sandbox_report *rep,
		      int dfd, char *path, size_t plen, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		size_t nl = strlen(name);
		int sub;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
		    strstr(name, SWEEP_SUFFIX))
			continue;
		if (++p->sweep->entries > SANDBOX_WALK_MAX_ENTRIES) {
			p->sweep->over = true;
			break;
		}
		if (plen + 1 + nl >= PATH_MAX)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, name, nl + 1);
		if (strcmp(name, ".git") == 0) {
			/* A new one goes aside whole; a known one is looked
			 * into. */
			sub = p->sweep->launch ||
					      sweep_known(p->sweep,
							  p->sweep->cap, path) ?
				      openat(dirfd(d), name,
					     O_RDONLY | O_DIRECTORY |
						     O_NOFOLLOW | O_CLOEXEC) :
				      -1;
			if (sub >= 0) {
				sweep_gitdir(p, rep, sub, path,
					     SANDBOX_WALK_MAX_DEPTH / 2);
				close(sub);
			}
			/* the .git (directory or gitdir: file) itself */
			sweep_entry(p, rep, dirfd(d), name, path,
				    "git repository");
			continue;
		}
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (sandbox_walk_skipped(name)) {
			sub = openat(dirfd(d), name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
			if (sub >= 0)
				sweep_deps(p, rep, sub, path, plen + 1 + nl, 1);
			continue;
		}
		if (depth <= 0) {
			p->sweep->over = true;
			continue;
		}
		sub = openat(dirfd(d), name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			sweep_dir(p, rep, sub, path, plen + 1 + nl, depth - 1);
	}
	path[plen] = '\0';
	closedir(d);
}

/* The workspace's run-later names that no placeholder holds (plan.c):
 * one that appears during the run is moved aside. */
static void sweep_ws_names(struct sandbox_plan *p, struct sandbox_report *rep)
{
	char path[PATH_MAX];
	struct stat st;
	int dfd;

	if (!sandbox_plan_host_writable(p, p->ws))
		return;
	dfd = open(p->ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	for (size_t i = 0; i < SANDBOX_NWS_RUN_LATER; i++) {
		const char *name = sandbox_plan_ws_run_later[i].name;

		if (sandbox_plan_ws_run_later[i].hold ||
		    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    snprintf(path, sizeof(path), "%s/%s",
			     strcmp(p->ws, "/") == 0 ? "" : p->ws,
			     name) >= (int)sizeof(path))
			continue;
		sweep_entry(p, rep, dfd, name, path, "run-later path");
	}
	close(dfd);
}

/* One scan of every root that shows the host's files. */
static void sweep_roots(struct sandbox_plan *p, struct sandbox_report *rep)
{
	char path[PATH_MAX];

	p->sweep->entries = 0;
	sweep_ws_names(p, rep);
	for (size_t i = 0; i < p->nrw; i++) {
		const char *root = p->rw[i];
		size_t len = strlen(root);
		bool nested = false;
		int fd;

		if (!sandbox_plan_host_writable(p, root) || len >= PATH_MAX)
			continue;
		/* a root inside another is scanned with it */
		for (size_t k = 0; k < p->nrw; k++)
			if (k != i && sandbox_plan_host_writable(p, p->rw[k]) &&
			    strcmp(p->rw[k], root) != 0 &&
			    sandbox_plan_path_under(root, p->rw[k]))
				nested = true;
		if (nested)
			continue;
		fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		memcpy(path, root, len + 1);
		sweep_dir(p, rep, fd, path, strcmp(root, "/") == 0 ? 0 : len,
			  SANDBOX_WALK_MAX_DEPTH);
	}
}

int sandbox_sweep_plan(struct sandbox_plan *p)
{
	struct sandbox_sweep *s;

	s = arena_alloc(&p->arena, sizeof(*s));
	if (!s)
		return sandbox_plan_fail(p, "out of memory");
	memset(s, 0, sizeof(*s));
	s->cap = SANDBOX_SWEEP_MAX;
	s->seen = arena_alloc(&p->arena, sizeof(s->seen[0]) * s->cap);
	if (!s->seen)
		return sandbox_plan_fail(p, "out of memory");
	s->launch = true;
	p->sweep = s;
	sweep_roots(p, NULL);
	/* After the run, seen[0..nseen) is what was there. */
	s->cap = s->nseen;
	s->launch = false;
	return 0;
}

void sandbox_sweep_after(struct sandbox_plan *p, struct sandbox_report *rep)
{
	if (!p->sweep)
		return;
	sweep_roots(p, rep);
	if (p->sweep->over)
		sandbox_sweep_note(
			rep, "the sweep of the writable roots stopped at a "
			     "bound: deeper entries were not looked at");
}
