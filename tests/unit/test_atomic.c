/* atomic: the XDG directories (cordon's state, configuration and cache,
 * a relative $XDG_*_HOME ignored), reading a file whole under a
 * ceiling, and writing a file through a symlink. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "buf.h"
#include "tap.h"

/* A pipe holding n bytes of 'x', its write end closed: the read end. */
static int pipe_of(size_t n)
{
	int fds[2];
	char chunk[1024];

	memset(chunk, 'x', sizeof(chunk));
	if (pipe(fds) != 0)
		return -1;
	while (n > 0) {
		size_t k = n < sizeof(chunk) ? n : sizeof(chunk);

		if (write(fds[1], chunk, k) != (ssize_t)k)
			break;
		n -= k;
	}
	close(fds[1]);
	return fds[0];
}

static void test_read_all(void)
{
	struct buf b;
	int fd;

	buf_init(&b, 4096);
	fd = pipe_of(4096);
	ok(atomic_read_all(fd, &b) == 0 && buf_len(&b) == 4096,
	   "exactly the ceiling is read whole");
	close(fd);
	buf_free(&b);
	buf_init(&b, 4096);
	fd = pipe_of(4097);
	errno = 0;
	ok(atomic_read_all(fd, &b) == -1 && errno == EFBIG && buf_failed(&b),
	   "one byte over the ceiling is EFBIG");
	close(fd);
	buf_free(&b);
	buf_init(&b, SIZE_MAX);
	fd = pipe_of(0);
	ok(atomic_read_all(fd, &b) == 0 && buf_len(&b) == 0 &&
		   buf_str(&b)[0] == '\0',
	   "an empty file reads as nothing");
	close(fd);
	buf_free(&b);
	buf_init(&b, SIZE_MAX);
	ok(atomic_read_all(-1, &b) == -1 && errno == EBADF,
	   "a read error is passed on");
	buf_free(&b);
}

/* A write through a symlink lands at its target, the link kept; a link
 * to nothing is refused. */
static void test_write_link(void)
{
	char dir[] = "/tmp/cordon-atomic-XXXXXX";
	char target[128], link[128], got[64] = "", out[256];
	struct stat st;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(target, sizeof(target), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	if (symlink("real", link) != 0)
		ok(0, "symlink");
	ok(atomic_resolve_link(link, out, sizeof(out)) != 0 && errno == ENOENT,
	   "a link to nothing: ENOENT");
	ok(atomic_write_file(link, "x", 1, 0600) != 0 &&
		   access(target, F_OK) != 0,
	   "a link to nothing: not written, nothing made");
	f = fopen(target, "w");
	if (f)
		fclose(f);
	ok(atomic_resolve_link(link, out, sizeof(out)) == 0 &&
		   strcmp(out, target) == 0,
	   "resolves to the target (%s)", out);
	ok(atomic_write_file(link, "hello", 5, 0600) == 0, "written");
	ok(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link stays");
	f = fopen(target, "r");
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		fclose(f);
	}
	is_str(got, "hello", "the target holds the text");
	ok(atomic_resolve_link(target, out, sizeof(out)) == 0 &&
		   strcmp(out, target) == 0,
	   "a plain file resolves to itself");
	unlink(link);
	unlink(target);
	rmdir(dir);
}

int main(void)
{
	char buf[256];

	tap_no_plan();
	test_read_all();
	test_write_link();
	setenv("HOME", "/home/u", 1);
	unsetenv("XDG_STATE_HOME");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_CACHE_HOME");
	ok(atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "config.json", buf,
			   sizeof(buf)) == 0,
	   "config under HOME");
	is_str(buf, "/home/u/.config/cordon/config.json", "~/.config/cordon");
	atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "probe.json", buf, sizeof(buf));
	is_str(buf, "/home/u/.cache/cordon/probe.json", "~/.cache/cordon");
	atomic_state_path(NULL, NULL, buf, sizeof(buf));
	is_str(buf, "/home/u/.local/state/cordon", "state, no name");
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "approvals.json", buf,
			sizeof(buf));
	is_str(buf, "/x/cfg/cordon/approvals.json", "an absolute XDG wins");
	setenv("XDG_CONFIG_HOME", "rel/cfg", 1);
	atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "a", buf, sizeof(buf));
	is_str(buf, "/home/u/.config/cordon/a", "a relative XDG is ignored");
	atomic_xdg_path(ATOMIC_XDG_CONFIG, "/other", "a", buf, sizeof(buf));
	is_str(buf, "/other/.config/cordon/a", "an explicit home");
	ok(atomic_xdg_path(ATOMIC_XDG_CONFIG, "", "a", buf, sizeof(buf)) != 0,
	   "an empty home and no absolute XDG: none");
	setenv("HOME", "relative", 1);
	ok(atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "a", buf, sizeof(buf)) != 0,
	   "a relative HOME: none");
	setenv("HOME", "/home/u", 1);
	ok(atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "a", buf, 10) != 0,
	   "a path that does not fit: none");
	return tap_done();
}
