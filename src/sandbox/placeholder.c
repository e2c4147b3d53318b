/* placeholder — the registry of empty files and directories made for
 * missing run-later paths (sandbox_int.h).
 *
 * A run creates a placeholder, appends "DEV INO PATH" to the registry in
 * cordon's state directory and holds the registry's shared lock; the last
 * run to finish (the one that gets the exclusive lock) removes the
 * placeholders that are still the same empty entries.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/file.h>
#include <sys/stat.h>

#include <linux/openat2.h>

#include "atomic.h"
#include "sandbox_int.h"

#include "alloc.h"
#include "banned.h"

/* A new empty file at path, *st what it is. Each placeholder is an inode
 * of its own: names that shared one would let a write through a name
 * that one run does not protect (another run's placeholder in a
 * workspace nested in it) reach one that it does. Returns 0 or -1. */
static int ph_file(const char *path, struct stat *st)
{
	int fd, rc;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -1;
	rc = fstat(fd, st);
	close(fd);
	if (rc != 0) {
		(void)unlink(path);
		return -1;
	}
	return 0;
}

/* Creates an empty directory (or file) where a missing run-later path
 * goes, so that a read-only mount can sit there, and lists it in the
 * registry: the last run to finish removes it again. *st is what was
 * made. Returns 0 or -1. */
int sandbox_placeholder_make(struct sandbox_plan *p, const char *path,
			     bool is_file, struct stat *st)
{
	char line[PATH_MAX + 64];
	size_t len = strlen(path);
	int n;

	if (p->ph_fd < 0 || len + 48 >= sizeof(line) || strchr(path, '\n'))
		return -1;
	if (is_file) {
		if (ph_file(path, st) != 0)
			return -1;
	} else if (mkdir(path, 0755) != 0) {
		return -1;
	}
	if (!is_file && lstat(path, st) != 0)
		n = -1;
	else
		n = snprintf(line, sizeof(line), "%llu %llu %s\n",
			     (unsigned long long)st->st_dev,
			     (unsigned long long)st->st_ino, path);
	/* O_APPEND: one short write per line, whole even among runs. */
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    write(p->ph_fd, line, (size_t)n) != (ssize_t)n) {
		if (is_file)
			(void)unlink(path);
		else
			(void)rmdir(path);
		return -1;
	}
	return 0;
}

/* The directory of cordon's state (atomic.h); without a home, or
 * with "/" as one, only $XDG_STATE_HOME names it. */
static int state_dir(const char *home, char *out, size_t cap)
{
	if (!home || strcmp(home, "/") == 0)
		home = "";
	return atomic_state_path(home, NULL, out, cap);
}

/* Opens the placeholder registry and takes its shared lock: while any run
 * holds it, nobody removes a placeholder another run mounted over
 * (removing it would detach that run's mount). It is on disk, in cordon's
 * state directory (0700), so that placeholders left by a run that was
 * killed are still removed after a reboot; the namespaces backend mounts
 * that directory read-only when it lies in a writable root, and each
 * entry carries the placeholder's device and inode: only that very empty
 * file or directory is ever removed. */
int sandbox_placeholder_open(const struct sandbox_plan *p)
{
	char dir[PATH_MAX], reg[PATH_MAX + 32];
	struct stat st;
	int fd, n;

	if (state_dir(p->home, dir, sizeof(dir)) != 0)
		return -1;
	if (mkdir(dir, 0700) != 0 && errno == ENOENT) {
		/* mkdir -p, each new level private */
		for (char *s = dir + 1; *s; s++) {
			if (*s != '/')
				continue;
			*s = '\0';
			if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
				*s = '/';
				return -1;
			}
			*s = '/';
		}
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return -1;
	}
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 0022))
		return -1;
	n = snprintf(reg, sizeof(reg), "%s/placeholders", dir);
	if (n < 0 || (size_t)n >= sizeof(reg))
		return -1;
	fd = open(reg, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() ||
	    !S_ISREG(st.st_mode) || flock(fd, LOCK_SH) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Removes one registered placeholder "DEV INO PATH" when it is still the
 * same empty file or directory; the parent is opened without following
 * symlinks. The same file with bytes in it was written while a run held
 * it, through a sandbox that could (a landlock-backend run in the same
 * workspace) or by the host: nothing the user meant to make there (what
 * expects a directory at a run-later name cannot write a file), and what
 * a repository or an editor would read and run later (a "gitdir:" .git).
 * It is quarantined as the sweep quarantines, and named in rep. */
static void ph_remove(char *line, struct sandbox_report *rep, bool empty)
{
	char *end, *path, *slash;
	unsigned long long dev, ino;
	struct stat st;
	int dfd;

	errno = 0;
	dev = strtoull(line, &end, 10);
	if (errno || end == line || *end != ' ')
		return;
	ino = strtoull(end + 1, &path, 10);
	if (errno || path == end + 1 || *path != ' ' || path[1] != '/')
		return;
	path++;
	slash = strrchr(path, '/');
	if (!slash || slash[1] == '\0')
		return;
	*slash = '\0';
	dfd = sandbox_openat2(AT_FDCWD, slash == path ? "/" : path,
			      O_PATH | O_DIRECTORY | O_CLOEXEC,
			      RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	*slash = '/';
	if (dfd < 0)
		return;
	if (fstatat(dfd, slash + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino) {
		if (S_ISDIR(st.st_mode)) {
			if (empty)
				(void)unlinkat(dfd, slash + 1, AT_REMOVEDIR);
		} else if (S_ISREG(st.st_mode) && st.st_size == 0) {
			if (empty)
				(void)unlinkat(dfd, slash + 1, 0);
		} else if (S_ISREG(st.st_mode)) {
			char moved[NAME_MAX + 32];

			if (sandbox_sweep_quarantine(dfd, slash + 1, moved,
						     sizeof(moved)) == 0)
				sandbox_sweep_note(rep,
						   "placeholder %s: written "
						   "during a run, moved to %s",
						   path, moved);
			else
				sandbox_sweep_note(rep,
						   "placeholder %s: written "
						   "during a run, could not be "
						   "moved aside (%s)",
						   path, strerror(errno));
		}
	}
	close(dfd);
}

/* Each registered placeholder through ph_remove (empty: the empty ones
 * removed too), when this is the last run; the exclusive lock is taken
 * once and kept until the registry is closed. True when it is held. */
static bool ph_each(struct sandbox_plan *p, struct sandbox_report *rep,
		    bool empty)
{
	char *buf, *line, *save = NULL;
	ssize_t n;

	if (!p->ph_last && flock(p->ph_fd, LOCK_EX | LOCK_NB) != 0)
		return false;
	p->ph_last = true;
	buf = cordon__malloc(SANDBOX_GIT_FILE_MAX);
	if (!buf)
		return false;
	n = pread(p->ph_fd, buf, SANDBOX_GIT_FILE_MAX - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ph_remove(line, rep, empty);
	}
	free(buf);
	return n > 0;
}

void sandbox_placeholder_check(struct sandbox_plan *p,
			       struct sandbox_report *rep)
{
	if (p->ph_fd < 0)
		return;
	if (!ph_each(p, rep, false) && !p->ph_last) {
		/* Another run is under way: it cleans up. */
		close(p->ph_fd);
		p->ph_fd = -1;
	}
}

/* Removes every registered placeholder that is still empty, when no
 * other run is under way (and then empties the registry). */
void sandbox_placeholder_cleanup(struct sandbox_plan *p,
				 struct sandbox_report *rep)
{
	if (p->ph_fd < 0)
		return;
	if (ph_each(p, rep, true)) {
		/* Whatever is left (a directory filled meanwhile) is its
		 * owner's now: forget it. */
		(void)ftruncate(p->ph_fd, 0);
	}
	close(p->ph_fd);
	p->ph_fd = -1;
	p->ph_last = false;
}
