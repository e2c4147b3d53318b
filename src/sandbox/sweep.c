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
 * was moved aside. The walk has no depth bound (a stack of its own, not
 * recursion) but SANDBOX_WALK_MAX_ENTRIES entries read and
 * SANDBOX_SWEEP_OPEN directories open at once. What it cannot look into
 * (unreadable, too deep, a name past PATH_MAX, past the budget) is never
 * passed over in silence: after the run such a directory is moved aside
 * whole unless it was so at the start, and either way the report's
 * notEnforced says the sweep did not see everything (enforcement
 * "partial"; before the run, so strict mode refuses). A .git file is
 * recorded with the digest of its text: one rewritten to point elsewhere
 * is new. A directory git would take for a git directory under another
 * name (a bare repository) is one too.
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
#include "gitexec.h"
#include "sha256.h"
#include "text.h"
#include "banned.h"

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
	char *blind[SANDBOX_SWEEP_BLIND]; /* not looked into at launch */
	size_t nblind;
	size_t moved_blind; /* moved aside unseen by the scan after */
	size_t entries; /* read by this scan */
	bool launch; /* the scan before the run */
	bool over; /* a bound was reached: some entry was not looked at */
	bool launch_over; /* and so at the start */
	char unseen[160]; /* the first one, and why */
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
	/* names are the command's bytes: what no reader is shown raw (a
	 * newline, a terminal escape, a byte that is not UTF-8, one cut
	 * short) is '?' in the report and on stderr */
	for (char *t = rep->quarantined[rep->nquarantined];;) {
		size_t n = strlen(t), at = text_unshowable_at(t, n), l;
		uint32_t cp;

		if (at == n)
			break;
		l = text_utf8_decode((const unsigned char *)t + at, n - at,
				     &cp);
		memset(t + at, '?', l ? l : 1);
		t += at + (l ? l : 1);
	}
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

/* The first entry the sweep could not look at, for notEnforced. */
static void sweep_unseen(struct sandbox_sweep *s, const char *path,
			 const char *why)
{
	if (!s->over)
		(void)snprintf(s->unseen, sizeof(s->unseen), "%.120s (%.36s)",
			       path, why);
	s->over = true;
}

/* One entry of the scan: recorded before the run; after it, an entry not
 * recorded then is quarantined. dfd holds name; path is its absolute
 * name; key what is recorded (its path, or more: sweep_dotgit). */
static void sweep_entry_key(struct sandbox_plan *p, struct sandbox_report *rep,
			    int dfd, const char *name, const char *path,
			    const char *key, const char *what)
{
	struct sandbox_sweep *s = p->sweep;
	char moved[NAME_MAX + 1];
	struct stat st;

	if (s->launch) {
		char *dup;

		if (s->nseen >= s->cap) {
			sweep_unseen(s, path,
				     "more git entries than "
				     "SANDBOX_SWEEP_MAX");
			return;
		}
		dup = sandbox_plan_strdup(p, key);
		if (dup)
			s->seen[s->nseen++] = dup;
		else
			sweep_unseen(s, path, "out of memory");
		return;
	}
	if (sweep_known(s, s->cap, key))
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
	else {
		sandbox_sweep_note(rep,
				   "%s %s: new during the run, could not be "
				   "moved aside (%s)",
				   what, path, strerror(errno));
		sweep_unseen(s, path, "could not be moved aside");
	}
}

static void sweep_entry(struct sandbox_plan *p, struct sandbox_report *rep,
			int dfd, const char *name, const char *path,
			const char *what)
{
	sweep_entry_key(p, rep, dfd, name, path, path, what);
}

/* A directory the sweep could not look into (unreadable, too deep, its
 * name too long, past the entry budget). Before the run it is named in
 * notEnforced (the run is partial). After it, one that was not so at the
 * start is moved aside whole: a repository in it would be trusted on the
 * host unseen. One that can be neither is named in notEnforced. */
static void sweep_blind(struct sandbox_plan *p, struct sandbox_report *rep,
			int dfd, const char *name, const char *path,
			const char *why)
{
	struct sandbox_sweep *s = p->sweep;
	char moved[NAME_MAX + 1];

	if (s->launch) {
		char *dup = s->nblind < SANDBOX_SWEEP_BLIND ?
				    sandbox_plan_strdup(p, path) :
				    NULL;

		if (dup)
			s->blind[s->nblind++] = dup;
		sweep_unseen(s, path, why);
		return;
	}
	for (size_t i = 0; i < s->nblind; i++)
		if (strcmp(s->blind[i], path) == 0) {
			sweep_unseen(s, path, why);
			return;
		}
	if (s->moved_blind >= SANDBOX_SWEEP_BLIND) {
		sweep_unseen(s, path, why);
		return;
	}
	s->moved_blind++;
	/* moved or not, the sweep did not see it whole: the run is partial */
	sweep_unseen(s, path, why);
	if (sandbox_sweep_quarantine(dfd, name, moved, sizeof(moved)) == 0) {
		sandbox_sweep_note(rep,
				   "directory not looked at (%s), moved to "
				   "%s: %s",
				   why, moved, path);
		return;
	}
	sandbox_sweep_note(rep,
			   "directory not looked at (%s), could not be "
			   "moved aside (%s): %s",
			   why, strerror(errno), path);
}

/* Opens dfd/name as a directory below dfd, not following a symlink. A
 * name that is no directory (a file, a symlink, gone) is -1 with *blind
 * false; one that is but cannot be opened is -1 with *blind true. */
static int sweep_open_dir(int dfd, const char *name, bool *blind)
{
	int fd = openat(dfd, name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	*blind = fd < 0 && errno != ENOENT && errno != ENOTDIR &&
		 errno != ELOOP;
	return fd;
}

/* Does a git config text hold a key that executes (gitexec.h, the one
 * list the classifier reads too)? Sections as git writes them: [section],
 * [section "sub"], and the old [section.sub], a key after the header on
 * its line too. Bytes, not a string: NULs and unterminated lines are
 * data. */
bool sandbox_sweep_config_executes(const char *text, size_t len)
{
	char sec[64] = "", sub[64] = "";
	size_t subn = 0;
	bool has_sub = false;
	size_t i = 0;

	while (i < len) {
		size_t e = i, k = 0;
		const char *l;
		size_t ll;
		enum gitexec_kind kind;

		while (e < len && text[e] != '\n')
			e++;
		l = text + i;
		ll = e - i;
		i = e + 1;
		while (ll && (*l == ' ' || *l == '\t')) {
			l++;
			ll--;
		}
		if (ll && *l == '[') {
			const char *close = memchr(l, ']', ll);
			size_t n = 1, sn;

			while (n < ll &&
			       (isalnum((unsigned char)l[n]) || l[n] == '-'))
				n++;
			sn = n - 1 < sizeof(sec) ? n - 1 : sizeof(sec) - 1;
			memcpy(sec, l + 1, sn);
			sec[sn] = '\0';
			has_sub = n < ll && (l[n] == ' ' || l[n] == '.');
			subn = 0;
			if (has_sub) {
				size_t b = n + 1, q;

				while (b < ll && l[b] == ' ')
					b++;
				if (b < ll && l[b] == '"')
					b++;
				for (q = b;
				     q < ll && l[q] != '"' && l[q] != ']'; q++)
					if (l[q] == '\\')
						q++;
				if (q > ll)
					q = ll;
				subn = q - b < sizeof(sub) ? q - b : 0;
				memcpy(sub, l + b, subn);
			}
			if (!close)
				continue;
			/* "[core] pager = x": a key may follow on the line */
			ll -= (size_t)(close + 1 - l);
			l = close + 1;
			while (ll && (*l == ' ' || *l == '\t')) {
				l++;
				ll--;
			}
		}
		if (!ll || *l == '#' || *l == ';')
			continue;
		while (k < ll && (isalnum((unsigned char)l[k]) || l[k] == '-'))
			k++;
		kind = gitexec_match(sec, strlen(sec), sub, subn, has_sub, l,
				     k);
		if (kind == GITEXEC_NONE)
			continue;
		while (k < ll && (l[k] == ' ' || l[k] == '\t'))
			k++;
		if (kind != GITEXEC_BANG ||
		    (k < ll && l[k] == '=' &&
		     gitexec_value_runs(kind, l + k + 1, ll - k - 1)))
			return true;
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
		sweep_unseen(s, path, "out of memory");
		return;
	}
	n = read_at(gfd, "config", buf, SANDBOX_GIT_FILE_MAX, &st);
	if (s->launch) {
		if (n < 0) {
			free(buf);
			return;
		}
		if (s->ncfg >= SANDBOX_SWEEP_CONFIGS) {
			sweep_unseen(
				s, path,
				"more git configs than SANDBOX_SWEEP_CONFIGS");
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
				sweep_unseen(s, path, "out of memory");
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
		    (n < SANDBOX_GIT_FILE_MAX && /* else maybe cut short */
		     !sandbox_sweep_config_executes(buf, (size_t)n)))
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
	bool blind;
	int dfd = sweep_open_dir(gfd, dir, &blind);
	DIR *d;
	struct dirent *de;

	if (dfd < 0) {
		if (blind && snprintf(path, sizeof(path), "%s/%s", gitdir,
				      dir) < (int)sizeof(path))
			sweep_blind(p, rep, gfd, dir, path, strerror(errno));
		return;
	}
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		sweep_unseen(p->sweep, gitdir, strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strstr(de->d_name, SWEEP_SUFFIX))
			continue;
		if (++p->sweep->entries > SANDBOX_WALK_MAX_ENTRIES) {
			sweep_unseen(p->sweep, gitdir,
				     "SANDBOX_WALK_MAX_ENTRIES entries read");
			break;
		}
		if (snprintf(path, sizeof(path), "%s/%s/%s", gitdir, dir,
			     de->d_name) >= (int)sizeof(path)) {
			sweep_blind(p, rep, dirfd(d), de->d_name, gitdir,
				    "its name is too long");
			continue;
		}
		/* a new one goes aside whole */
		if (gitdirs && (p->sweep->launch ||
				sweep_known(p->sweep, p->sweep->cap, path))) {
			int sub = depth > 0 ?
					  sweep_open_dir(dirfd(d), de->d_name,
							 &blind) :
					  -1;

			if (sub >= 0) {
				sweep_gitdir(p, rep, sub, path, depth - 1);
				close(sub);
			} else if (depth <= 0) {
				sweep_unseen(p->sweep, path,
					     "git directories nested deeper "
					     "than SANDBOX_WALK_MAX_DEPTH / 2");
			} else if (blind) {
				sweep_blind(p, rep, dirfd(d), de->d_name, path,
					    strerror(errno));
				continue;
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

/* dfd/.git (name ".git"), directory or gitdir: file: a known directory is
 * looked into, a new one goes aside whole. A file is recorded with the
 * digest of its text: a gitdir: file rewritten during the run to point
 * elsewhere is a new one. path is its absolute name. */
static void sweep_dotgit_at(struct sandbox_plan *p, struct sandbox_report *rep,
			    int dfd, const char *path)
{
	char key[PATH_MAX + SHA256_HEX + 2];
	struct stat st;
	bool blind;
	int sub;

	if (fstatat(dfd, ".git", &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	(void)snprintf(key, sizeof(key), "%s", path);
	if (S_ISREG(st.st_mode)) {
		char *buf = cordon__malloc(SANDBOX_GIT_FILE_MAX);
		ssize_t n = buf ? read_at(dfd, ".git", buf,
					  SANDBOX_GIT_FILE_MAX, &st) :
				  -1;
		size_t kl = strlen(key);

		key[kl++] = '\n';
		if (n >= 0 && n < SANDBOX_GIT_FILE_MAX)
			sha256_hex(buf, (size_t)n, key + kl);
		else /* unread or too long: never the same */
			(void)snprintf(key + kl, sizeof(key) - kl, "?");
		free(buf);
	} else if (S_ISDIR(st.st_mode) &&
		   (p->sweep->launch ||
		    sweep_known(p->sweep, p->sweep->cap, path))) {
		sub = sweep_open_dir(dfd, ".git", &blind);
		if (sub >= 0) {
			sweep_gitdir(p, rep, sub, path,
				     SANDBOX_WALK_MAX_DEPTH / 2);
			close(sub);
		} else if (blind) {
			sweep_blind(p, rep, dfd, ".git", path, strerror(errno));
			return;
		}
	}
	sweep_entry_key(p, rep, dfd, ".git", path, key, "git repository");
}

/* Would git take dfd for a git directory (setup.c's is_git_directory)?
 * A HEAD, and refs/ and objects/ or a commondir that stands for them; a
 * HEAD that is a symlink counts, whatever its text. */
static bool sweep_is_gitdir(int dfd)
{
	struct stat st;

	if (fstatat(dfd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    S_ISDIR(st.st_mode))
		return false;
	if (fstatat(dfd, "commondir", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return true;
	return fstatat(dfd, "refs", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       fstatat(dfd, "objects", &st, AT_SYMLINK_NOFOLLOW) == 0;
}

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
		bool blind;
		int sub;

		if (name[0] == '.' || strstr(name, SWEEP_SUFFIX) ||
		    (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (++p->sweep->entries > SANDBOX_WALK_MAX_ENTRIES) {
			sweep_unseen(p->sweep, path,
				     "SANDBOX_WALK_MAX_ENTRIES entries read");
			break;
		}
		if (plen + 1 + nl + 5 >= PATH_MAX) {
			sweep_blind(p, rep, dirfd(d), name, path,
				    "its name is too long");
			continue;
		}
		path[plen] = '/';
		memcpy(path + plen + 1, name, nl + 1);
		sub = sweep_open_dir(dirfd(d), name, &blind);
		if (sub < 0) {
			if (blind)
				sweep_blind(p, rep, dirfd(d), name, path,
					    strerror(errno));
			continue;
		}
		if (name[0] == '@' && depth > 0) {
			sweep_deps(p, rep, sub, path, plen + 1 + nl, depth - 1);
			continue;
		}
		memcpy(path + plen + 1 + nl, "/.git", 6);
		sweep_dotgit_at(p, rep, sub, path);
		close(sub);
	}
	path[plen] = '\0';
	closedir(d);
}

/* The directories of a writable root, for .git entries (dependency
 * directories only one package deep), walked with a stack of its own: no
 * depth bound but SANDBOX_SWEEP_OPEN directories open at once, and
 * SANDBOX_WALK_MAX_ENTRIES entries read in all. What cannot be looked
 * into is sweep_blind's; past the entry budget every directory left
 * unread is, when the scan at the start was within it. */
static void sweep_tree(struct sandbox_plan *p, struct sandbox_report *rep,
		       int rootfd, char *path, size_t rootlen)
{
	struct {
		DIR *d;
		size_t plen;
	} st[SANDBOX_SWEEP_OPEN];
	size_t n = 0;
	bool tail = false; /* past the budget: what is left is blind */
	DIR *d = fdopendir(rootfd);

	if (!d) {
		close(rootfd);
		sweep_unseen(p->sweep, path, strerror(errno));
		return;
	}
	st[n].d = d;
	st[n++].plen = rootlen;
	while (n) {
		DIR *cur = st[n - 1].d;
		size_t plen = st[n - 1].plen, nl;
		struct dirent *de;
		const char *name;
		bool blind;
		int sub;

		errno = 0;
		de = readdir(cur);
		if (!de) {
			if (errno) {
				path[plen] = '\0';
				sweep_unseen(p->sweep, path, strerror(errno));
			}
			closedir(cur);
			n--;
			continue;
		}
		name = de->d_name;
		nl = strlen(name);
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
		    strstr(name, SWEEP_SUFFIX))
			continue;
		if (!tail && ++p->sweep->entries > SANDBOX_WALK_MAX_ENTRIES) {
			path[plen] = '\0';
			if (p->sweep->launch || p->sweep->launch_over) {
				/* as it was at the start: named, and left */
				sweep_unseen(p->sweep, path,
					     "SANDBOX_WALK_MAX_ENTRIES entries "
					     "read");
				break;
			}
			/* what is left of the directories open is read
			 * (up to the budget again), not descended into */
			sweep_unseen(p->sweep, path,
				     "past SANDBOX_WALK_MAX_ENTRIES");
			tail = true;
		} else if (tail &&
			   ++p->sweep->entries > 2 * SANDBOX_WALK_MAX_ENTRIES) {
			break;
		}
		if (tail && strcmp(name, ".git") != 0 && de->d_type != DT_DIR &&
		    de->d_type != DT_UNKNOWN)
			continue;
		if (plen + 1 + nl + 5 >= PATH_MAX) {
			path[plen] = '\0';
			sweep_blind(p, rep, dirfd(cur), name, path,
				    "its name is too long");
			continue;
		}
		path[plen] = '/';
		memcpy(path + plen + 1, name, nl + 1);
		if (tail && strcmp(name, ".git") != 0) {
			sweep_blind(p, rep, dirfd(cur), name, path,
				    "past SANDBOX_WALK_MAX_ENTRIES");
			continue;
		}
		if (strcmp(name, ".git") == 0) {
			path[plen] = '\0';
			memcpy(path + plen, "/.git", 6);
			sweep_dotgit_at(p, rep, dirfd(cur), path);
			continue;
		}
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		sub = sweep_open_dir(dirfd(cur), name, &blind);
		if (sub < 0) {
			if (blind)
				sweep_blind(p, rep, dirfd(cur), name, path,
					    strerror(errno));
			continue;
		}
		if (sweep_is_gitdir(sub)) {
			/* a bare repository (or a git directory under another
			 * name): git takes it for one in any directory below
			 * it; known, it is looked into, new, it goes aside */
			if (p->sweep->launch ||
			    sweep_known(p->sweep, p->sweep->cap, path))
				sweep_gitdir(p, rep, sub, path,
					     SANDBOX_WALK_MAX_DEPTH / 2);
			close(sub);
			sweep_entry(p, rep, dirfd(cur), name, path,
				    "git directory");
			continue;
		}
		if (sandbox_walk_skipped(name)) {
			sweep_deps(p, rep, sub, path, plen + 1 + nl, 1);
			continue;
		}
		if (n >= SANDBOX_SWEEP_OPEN) {
			close(sub);
			sweep_blind(p, rep, dirfd(cur), name, path,
				    "deeper than SANDBOX_SWEEP_OPEN levels");
			continue;
		}
		d = fdopendir(sub);
		if (!d) {
			close(sub);
			sweep_blind(p, rep, dirfd(cur), name, path,
				    strerror(errno));
			continue;
		}
		st[n].d = d;
		st[n++].plen = plen + 1 + nl;
	}
	while (n)
		closedir(st[--n].d);
	path[rootlen] = '\0';
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
		sweep_tree(p, rep, fd, path, strcmp(root, "/") == 0 ? 0 : len);
	}
}

int sandbox_sweep_plan(struct sandbox_plan *p, struct sandbox_report *rep)
{
	struct sandbox_sweep *s;

	s = arena_alloc(&p->arena, sizeof(*s)); /* zeroed */
	if (!s)
		return sandbox_plan_fail(p, "out of memory");
	s->cap = SANDBOX_SWEEP_MAX;
	/* Not zeroed: only seen[0..nseen) is read, and zeroing room for
	 * SANDBOX_SWEEP_MAX pointers faulted in 32 KB a run. */
	s->seen = arena_alloc_raw(&p->arena, sizeof(s->seen[0]) * s->cap);
	if (!s->seen)
		return sandbox_plan_fail(p, "out of memory");
	s->launch = true;
	p->sweep = s;
	sweep_roots(p, NULL);
	/* After the run, seen[0..nseen) is what was there. */
	s->cap = s->nseen;
	s->launch = false;
	s->launch_over = s->over;
	if (s->over) {
		/* notEnforced's lines are short: the detail is a note */
		sandbox_report_lost(rep, "sweep: the writable roots not seen "
					 "whole before the run");
		sandbox_sweep_note(rep,
				   "not looked at before the run, so not "
				   "checked after it: %s",
				   s->unseen);
		rep->enforcement = "partial";
	}
	return 0;
}

void sandbox_sweep_after(struct sandbox_plan *p, struct sandbox_report *rep)
{
	if (!p->sweep)
		return;
	p->sweep->over = false;
	sweep_roots(p, rep);
	if (p->sweep->over) {
		sandbox_report_lost(rep, "sweep: the writable roots not seen "
					 "whole after the run");
		sandbox_sweep_note(rep,
				   "not looked at after the run (what git "
				   "runs there is not to be trusted): %s",
				   p->sweep->unseen);
		rep->enforcement = "partial";
	}
}
