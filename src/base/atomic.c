/* atomic — see atomic.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "buf.h"
#include "banned.h"

int atomic_dir_of(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');
	const char *from = slash ? path : ".";
	size_t n = slash && slash != path ? (size_t)(slash - path) : 1;

	if (n >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, from, n);
	dir[n] = '\0';
	if (!(slash ? slash[1] : path[0])) {
		errno = EISDIR;
		return -1;
	}
	return 0;
}

int atomic_mkdirs(const char *dir, mode_t mode)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		char c;
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		c = buf[i];
		buf[i] = '\0';
		if (mkdir(buf, mode) != 0 && errno != EEXIST)
			return -1;
		buf[i] = c;
	}
	return 0;
}

int atomic_write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t k = write(fd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

int atomic_read_all(int fd, struct buf *out)
{
	for (;;) {
		size_t left = out->max - out->len;
		size_t room = left < 65536 ? left : 65536;
		char *w, more;
		ssize_t k;

		if (room == 0) {
			/* Full: one byte more is one byte too many. */
			do
				k = read(fd, &more, 1);
			while (k < 0 && errno == EINTR);
			if (k <= 0)
				return k < 0 ? -1 : 0;
			buf_fail(out);
			errno = EFBIG;
			return -1;
		}
		w = buf_space(out, room);
		if (!w) {
			errno = ENOMEM;
			return -1;
		}
		k = read(fd, w, room);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			return 0;
		(void)buf_commit(out, (size_t)k);
	}
}

int atomic_lock(const char *lockpath, int wait_ms)
{
	const struct timespec nap = { 0, 10 * 1000 * 1000 };
	int fd =
		open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	int saved;

	if (fd < 0)
		return -1;
	for (int waited = 0;; waited += 10) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		if (waited >= wait_ms) {
			errno = ETIMEDOUT;
			break;
		}
		nanosleep(&nap, NULL);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int atomic_resolve_link(const char *path, char *out, size_t cap)
{
	char real[PATH_MAX];
	struct stat st;
	const char *from = path;
	size_t n;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, real))
			return -1;
		from = real;
	}
	n = strlen(from);
	if (n >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(out, from, n + 1);
	return 0;
}

int atomic_write_file(const char *path_in, const char *data, size_t len,
		      mode_t mode)
{
	char dir[4096], tmp[4096], path[4096];
	const char *base;
	int fd, saved, dfd;

	if (atomic_resolve_link(path_in, path, sizeof(path)) != 0 ||
	    atomic_dir_of(path, dir, sizeof(dir)) != 0)
		return -1;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.XXXXXX", dir, base) >=
	    (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	if (fchmod(fd, mode & 07777) != 0 ||
	    atomic_write_all(fd, data, len) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		/* The rename is done; a directory that cannot be synced
		 * still holds the new file. */
		(void)fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

/* The XDG base directories and their defaults below the home. */
static const struct {
	const char *var, *fallback;
} xdg_dirs[] = {
	[ATOMIC_XDG_STATE] = { "XDG_STATE_HOME", ".local/state" },
	[ATOMIC_XDG_CONFIG] = { "XDG_CONFIG_HOME", ".config" },
	[ATOMIC_XDG_CACHE] = { "XDG_CACHE_HOME", ".cache" },
	[ATOMIC_XDG_DATA] = { "XDG_DATA_HOME", ".local/share" },
};

const char *atomic_xdg_default(enum atomic_xdg kind)
{
	return xdg_dirs[kind].fallback;
}

int atomic_xdg_dir(enum atomic_xdg kind, const char *home, char *buf,
		   size_t cap)
{
	const char *xdg = getenv(xdg_dirs[kind].var);
	int n;

	/* The XDG spec: a relative $XDG_*_HOME is to be ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, cap, "%s", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, cap, "%s/%s", home, xdg_dirs[kind].fallback);
	else
		return -1;
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int atomic_xdg_path(enum atomic_xdg kind, const char *home, const char *name,
		    char *buf, size_t cap)
{
	const char *xdg = getenv(xdg_dirs[kind].var);
	const char *sep = name ? "/" : "", *tail = name ? name : "";
	int n;

	if (!home)
		home = getenv("HOME");
	/* The XDG spec: a relative $XDG_*_HOME is to be ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, cap, "%s/cordon%s%s", xdg, sep, tail);
	else if (home && home[0] == '/')
		n = snprintf(buf, cap, "%s/%s/cordon%s%s", home,
			     xdg_dirs[kind].fallback, sep, tail);
	else
		return -1;
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int atomic_state_path(const char *home, const char *name, char *buf, size_t cap)
{
	return atomic_xdg_path(ATOMIC_XDG_STATE, home, name, buf, cap);
}
