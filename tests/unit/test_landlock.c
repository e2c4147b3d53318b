/* Landlock, for real: a forked child sets no_new_privs, applies landlock_apply()
 * with one writable root, tries writes and escapes, and sends the errno of
 * each attempt to the parent through a pipe; the parent asserts them and
 * checks on disk that nothing outside the root changed. Network (ABI 4+)
 * and scope (ABI 6+) are tried against listeners the parent opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <string.h>
#include <linux/random.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock.h"
#include "tap.h"

/* What the child tried; each slot gets 0 for success or the errno. */
enum attempt {
	A_APPLY, /* landlock_apply itself (0 or 1) */
	A_LOST, /* the lost mask */
	A_WRITE_INSIDE,
	A_MKDIR_INSIDE,
	A_RENAME_INSIDE,
	A_CREATE_OUTSIDE,
	A_WRITE_OUTSIDE,
	A_TRUNCATE_OUTSIDE,
	A_OTRUNC_OUTSIDE,
	A_UNLINK_OUTSIDE,
	A_MKDIR_OUTSIDE,
	A_SYMLINK_OUTSIDE,
	A_RENAME_OUT,
	A_LINK_OUT,
	A_RENAME_IN,
	A_DEV_NULL,
	A_READ_OUTSIDE,
	A_PTY_IOCTL, /* a new pty's terminal ioctls */
	A_DEVICE_IOCTL, /* an ioctl on a device not in the list */
	A_TCP_CONNECT_DENIED,
	A_TCP_BIND,
	A_TCP_CONNECT_ALLOWED,
	A_ABSTRACT_UNIX,
	A_KILL_PARENT,
	A_COUNT
};

struct fixture {
	char root[256]; /* the temp dir */
	char in[300]; /* the writable root */
	char out[300]; /* beside it, read-only */
	unsigned short port_denied, port_allowed;
	char abstract[64];
};

static int err_of(int rc)
{
	return rc < 0 ? errno : 0;
}

static void path_in(char *buf, size_t cap, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, cap, "%s/%s", dir, name) >= cap)
		abort();
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : EIO;
}

static int read_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int tcp_connect(unsigned short port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc;

	if (fd < 0)
		return errno;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = err_of(connect(fd, (struct sockaddr *)&sa, sizeof(sa)));
	close(fd);
	return rc;
}

static int tcp_bind_any(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc;

	if (fd < 0)
		return errno;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = err_of(bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	close(fd);
	return rc;
}

/* A loopback listener on an ephemeral port; returns the fd. */
static int tcp_listen(unsigned short *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(fd, 8) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		close(fd);
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

static socklen_t abstract_addr(struct sockaddr_un *sa, const char *name)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n + 1 > sizeof(sa->sun_path))
		abort();
	memcpy(sa->sun_path + 1, name, n); /* sun_path[0] = 0: abstract */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static int unix_listen_abstract(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(&sa, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, len) != 0 || listen(fd, 8) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int unix_connect_abstract(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(&sa, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc;

	if (fd < 0)
		return errno;
	rc = err_of(connect(fd, (struct sockaddr *)&sa, len));
	close(fd);
	return rc;
}

/* Opens a new pty through /dev/ptmx and asks the slave for its termios:
 * what a shell or `script` does. */
static int pty_ioctl(void)
{
	struct termios t;
	int m, s, rc;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return errno;
	if (grantpt(m) != 0 || unlockpt(m) != 0) {
		rc = errno;
		close(m);
		return rc;
	}
	s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0) {
		rc = errno;
		close(m);
		return rc;
	}
	rc = err_of(tcgetattr(s, &t));
	close(s);
	close(m);
	return rc;
}

/* The child's side: every attempt, results into r[]. */
static void child_attempts(const struct fixture *fx,
			   const struct landlock_policy *pol, int r[A_COUNT])
{
	char why[256], a[512], b[512], buf[64];
	unsigned lost = 0;
	int fd;

	for (int i = 0; i < A_COUNT; i++)
		r[i] = -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		r[A_APPLY] = 2;
		return;
	}
	r[A_APPLY] = landlock_apply(pol, &lost, why, sizeof(why)) == 0 ? 0 : 1;
	r[A_LOST] = (int)lost;
	if (r[A_APPLY] != 0) {
		fprintf(stderr, "# %s\n", why);
		return;
	}

	path_in(a, sizeof(a), fx->in, "new");
	r[A_WRITE_INSIDE] = write_file(a, "inside");
	path_in(a, sizeof(a), fx->in, "newdir");
	r[A_MKDIR_INSIDE] = err_of(mkdir(a, 0755));
	path_in(a, sizeof(a), fx->in, "new");
	path_in(b, sizeof(b), fx->in, "newdir/moved");
	r[A_RENAME_INSIDE] = err_of(rename(a, b));

	path_in(a, sizeof(a), fx->out, "created");
	fd = open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	r[A_CREATE_OUTSIDE] = err_of(fd);
	if (fd >= 0)
		close(fd);
	path_in(a, sizeof(a), fx->out, "victim");
	fd = open(a, O_WRONLY | O_APPEND | O_CLOEXEC);
	r[A_WRITE_OUTSIDE] = err_of(fd);
	if (fd >= 0) {
		(void)!write(fd, "X", 1);
		close(fd);
	}
	r[A_TRUNCATE_OUTSIDE] = err_of(truncate(a, 0));
	fd = open(a, O_RDONLY | O_TRUNC | O_CLOEXEC);
	r[A_OTRUNC_OUTSIDE] = err_of(fd);
	if (fd >= 0)
		close(fd);
	r[A_UNLINK_OUTSIDE] = err_of(unlink(a));
	path_in(a, sizeof(a), fx->out, "dir");
	r[A_MKDIR_OUTSIDE] = err_of(mkdir(a, 0755));
	path_in(a, sizeof(a), fx->out, "link");
	r[A_SYMLINK_OUTSIDE] = err_of(symlink("/etc/passwd", a));

	path_in(a, sizeof(a), fx->in, "a");
	path_in(b, sizeof(b), fx->out, "a");
	r[A_RENAME_OUT] = err_of(rename(a, b));
	path_in(b, sizeof(b), fx->out, "hardlink");
	r[A_LINK_OUT] = err_of(link(a, b));
	path_in(a, sizeof(a), fx->out, "victim");
	path_in(b, sizeof(b), fx->in, "stolen");
	r[A_RENAME_IN] = err_of(rename(a, b));

	fd = open("/dev/null", O_WRONLY | O_TRUNC | O_CLOEXEC);
	r[A_DEV_NULL] = err_of(fd);
	if (fd >= 0)
		close(fd);
	r[A_READ_OUTSIDE] = read_file(a, buf, sizeof(buf)) == 0 &&
					    strcmp(buf, "keep") == 0 ?
				    0 :
				    EIO;

	r[A_PTY_IOCTL] = pty_ioctl();
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		int cnt;

		r[A_DEVICE_IOCTL] = err_of(ioctl(fd, RNDGETENTCNT, &cnt));
		close(fd);
	}

	if (fx->port_denied) {
		r[A_TCP_CONNECT_DENIED] = tcp_connect(fx->port_denied);
		r[A_TCP_BIND] = tcp_bind_any();
		r[A_TCP_CONNECT_ALLOWED] = tcp_connect(fx->port_allowed);
	}
	if (fx->abstract[0]) {
		r[A_ABSTRACT_UNIX] = unix_connect_abstract(fx->abstract);
		r[A_KILL_PARENT] = err_of(kill(getppid(), 0));
	}
}

/* Forks, runs the attempts under pol, reads the results into r[]. */
static int run_child(const struct fixture *fx, const struct landlock_policy *pol,
		     int r[A_COUNT])
{
	int p[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int res[A_COUNT];

		close(p[0]);
		child_attempts(fx, pol, res);
		_exit(write(p[1], res, sizeof(res)) == (ssize_t)sizeof(res) ?
			      0 :
			      1);
	}
	close(p[1]);
	n = read(p[0], r, sizeof(int) * A_COUNT);
	close(p[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (n != (ssize_t)(sizeof(int) * A_COUNT) || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}

static int setup_fixture(struct fixture *fx)
{
	char p[512];

	memset(fx, 0, sizeof(*fx));
	if ((size_t)snprintf(fx->root, sizeof(fx->root), "%s/cordon-ll-XXXXXX",
			     getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >=
	    sizeof(fx->root))
		return -1;
	if (!mkdtemp(fx->root))
		return -1;
	path_in(fx->in, sizeof(fx->in), fx->root, "in");
	path_in(fx->out, sizeof(fx->out), fx->root, "out");
	if (mkdir(fx->in, 0755) != 0 || mkdir(fx->out, 0755) != 0)
		return -1;
	path_in(p, sizeof(p), fx->in, "a");
	if (write_file(p, "a") != 0)
		return -1;
	path_in(p, sizeof(p), fx->out, "victim");
	return write_file(p, "keep");
}

/* Resets the files the filesystem child may have touched. */
static void reset_fixture(const struct fixture *fx)
{
	char cmd[700];

	if ((size_t)snprintf(cmd, sizeof(cmd),
			     "rm -rf '%s/in' '%s/out' && mkdir '%s/in' "
			     "'%s/out' && printf a > '%s/in/a' && printf keep "
			     "> '%s/out/victim'",
			     fx->root, fx->root, fx->root, fx->root, fx->root,
			     fx->root) >= sizeof(cmd) ||
	    system(cmd) != 0)
		abort();
}

static void remove_fixture(const struct fixture *fx)
{
	char cmd[400];

	if ((size_t)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->root) <
	    sizeof(cmd))
		(void)!system(cmd);
}

static void check_outside_untouched(const struct fixture *fx, const char *when)
{
	char p[512], buf[64];

	path_in(p, sizeof(p), fx->out, "victim");
	ok(read_file(p, buf, sizeof(buf)) == 0 && strcmp(buf, "keep") == 0,
	   "%s: the outside file is unchanged", when);
	path_in(p, sizeof(p), fx->out, "created");
	ok(!exists(p), "%s: no file was created outside", when);
	path_in(p, sizeof(p), fx->out, "dir");
	ok(!exists(p), "%s: no directory was made outside", when);
	path_in(p, sizeof(p), fx->out, "link");
	ok(!exists(p), "%s: no symlink was planted outside", when);
	path_in(p, sizeof(p), fx->out, "a");
	ok(!exists(p), "%s: nothing was renamed out", when);
	path_in(p, sizeof(p), fx->out, "hardlink");
	ok(!exists(p), "%s: no hard link was made outside", when);
	path_in(p, sizeof(p), fx->in, "a");
	ok(exists(p), "%s: the renamed-out file is still inside", when);
	path_in(p, sizeof(p), fx->in, "stolen");
	ok(!exists(p), "%s: nothing was renamed in from outside", when);
}

/* What landlock_apply must report lost on each ABI. */
static unsigned lost_for_abi(int abi, bool tcp_and_scope)
{
	unsigned lost = 0;

	if (abi < 2)
		lost |= LANDLOCK_LOST_REFER;
	if (abi < 3)
		lost |= LANDLOCK_LOST_TRUNCATE;
	if (abi < 4 && tcp_and_scope)
		lost |= LANDLOCK_LOST_TCP;
	if (abi < 5)
		lost |= LANDLOCK_LOST_IOCTL_DEV;
	if (abi < 6 && tcp_and_scope)
		lost |= LANDLOCK_LOST_SCOPE;
	return lost;
}

static void test_filesystem(const struct fixture *fx, int abi)
{
	const char *rw[] = { fx->in };
	struct landlock_policy pol = { .rw = rw, .nrw = 1 };
	int r[A_COUNT];
	char p[512];

	if (run_child(fx, &pol, r) != 0) {
		ok(0, "filesystem child ran");
		return;
	}
	is_int(r[A_APPLY], 0, "landlock_apply succeeds");
	is_int(r[A_LOST], (long long)lost_for_abi(abi, false),
	       "what is lost on this ABI for a filesystem-only policy");
	is_int(r[A_WRITE_INSIDE], 0, "a write inside the root succeeds");
	is_int(r[A_MKDIR_INSIDE], 0, "mkdir inside the root succeeds");
	is_int(r[A_RENAME_INSIDE], 0, "rename within the root succeeds");
	is_int(r[A_CREATE_OUTSIDE], EACCES,
	       "open(O_WRONLY|O_CREAT) outside fails with EACCES");
	is_int(r[A_WRITE_OUTSIDE], EACCES,
	       "opening an outside file for writing fails with EACCES");
	is_int(r[A_TRUNCATE_OUTSIDE], EACCES,
	       "truncate() of an outside file fails with EACCES");
	is_int(r[A_OTRUNC_OUTSIDE], EACCES,
	       "open(O_RDONLY|O_TRUNC) of an outside file fails with EACCES");
	is_int(r[A_UNLINK_OUTSIDE], EACCES, "unlink outside fails with EACCES");
	is_int(r[A_MKDIR_OUTSIDE], EACCES, "mkdir outside fails with EACCES");
	is_int(r[A_SYMLINK_OUTSIDE], EACCES,
	       "symlink outside fails with EACCES");
	ok(r[A_RENAME_OUT] == EXDEV || r[A_RENAME_OUT] == EACCES,
	   "rename from inside to outside fails (errno %d)", r[A_RENAME_OUT]);
	ok(r[A_LINK_OUT] == EXDEV || r[A_LINK_OUT] == EACCES,
	   "link() into outside fails (errno %d)", r[A_LINK_OUT]);
	ok(r[A_RENAME_IN] == EXDEV || r[A_RENAME_IN] == EACCES,
	   "rename from outside to inside fails (errno %d)", r[A_RENAME_IN]);
	is_int(r[A_DEV_NULL], 0, "/dev/null stays writable (with O_TRUNC)");
	is_int(r[A_READ_OUTSIDE], 0, "reading outside still works");
	is_int(r[A_PTY_IOCTL], 0,
	       "a new pty (/dev/ptmx, /dev/pts) keeps its terminal ioctls");
	if (abi >= 5)
		is_int(r[A_DEVICE_IOCTL], EACCES,
		       "ABI 5+: an ioctl on another device (/dev/urandom) "
		       "fails with EACCES");
	else
		skip(1, "Landlock ABI < 5: device ioctls not handled");

	check_outside_untouched(fx, "after the filesystem child");
	path_in(p, sizeof(p), fx->in, "newdir/moved");
	ok(exists(p), "the file written inside is there");
}

/* The downgrade table, for every ABI (only the running one can be tried
 * for real). */
static void test_downgrades(void)
{
	struct landlock_policy fs = { 0 };
	struct landlock_policy all = { .restrict_tcp = true, .scope = true };

	is_int(landlock_would_lose(0, &all), LANDLOCK_LOST_ALL, "ABI 0: everything lost");
	for (int abi = 1; abi <= 8; abi++) {
		ok(landlock_would_lose(abi, &fs) == lost_for_abi(abi, false),
		   "ABI %d, filesystem only: lost 0x%x", abi,
		   landlock_would_lose(abi, &fs));
		ok(landlock_would_lose(abi, &all) == lost_for_abi(abi, true),
		   "ABI %d with TCP and scope asked: lost 0x%x", abi,
		   landlock_would_lose(abi, &all));
	}
	is_int(landlock_would_lose(3, &all),
	       LANDLOCK_LOST_TCP | LANDLOCK_LOST_IOCTL_DEV | LANDLOCK_LOST_SCOPE,
	       "ABI 3: TCP, device ioctls and scope lost");
	is_int(landlock_would_lose(5, &all), LANDLOCK_LOST_SCOPE, "ABI 5: scope lost");
	is_int(landlock_would_lose(4, &fs), LANDLOCK_LOST_IOCTL_DEV,
	       "ABI 4: device ioctls lost");
}

/* A writable root that is a file: only that file is writable beside the
 * directory root (the kernel refuses directory rights on a file rule). */
static void test_file_root(const struct fixture *fx)
{
	char victim[512], created[512], buf[64];
	const char *rw[] = { fx->in, victim };
	struct landlock_policy pol = { .rw = rw, .nrw = 2 };
	int status;
	pid_t pid;

	path_in(victim, sizeof(victim), fx->out, "victim");
	path_in(created, sizeof(created), fx->out, "created");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char why[256];
		unsigned lost;
		int fd;

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (landlock_apply(&pol, &lost, why, sizeof(why)) != 0)
			_exit(2);
		fd = open(victim, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0 || write(fd, "!", 1) != 1)
			_exit(3);
		close(fd);
		fd = open(created, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		_exit(fd < 0 && errno == EACCES ? 0 : 4);
	}
	waitpid(pid, &status, 0);
	is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "a file as writable root: it is writable, its directory is "
	       "not");
	ok(read_file(victim, buf, sizeof(buf)) == 0 &&
		   strcmp(buf, "keep!") == 0 && !exists(created),
	   "the file root was appended to, nothing created beside it");
}

static void test_errors(const struct fixture *fx)
{
	char missing[512];
	const char *rw[] = { missing };
	struct landlock_policy pol = { .rw = rw, .nrw = 1 };
	char why[256] = "";
	unsigned lost = 99;
	int status, p[2];
	pid_t pid;
	ssize_t n;

	path_in(missing, sizeof(missing), fx->root, "no-such-dir");
	if (pipe(p) != 0)
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int rc;

		close(p[0]);
		/* no_new_privs unset: refused before anything is built. */
		rc = landlock_apply(&pol, &lost, why, sizeof(why));
		if (rc != -1 || !strstr(why, "no_new_privs"))
			_exit(3);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		rc = landlock_apply(&pol, &lost, why, sizeof(why));
		(void)!write(p[1], why, strlen(why) + 1);
		_exit(rc == -1 ? 0 : 4);
	}
	close(p[1]);
	n = read(p[0], why, sizeof(why) - 1);
	close(p[0]);
	why[n > 0 ? n : 0] = '\0';
	waitpid(pid, &status, 0);
	is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "landlock_apply refuses without no_new_privs and fails on a missing "
	       "root");
	{
		char want[600];

		snprintf(want, sizeof(want),
			 "landlock: add rule for %s: No such file or directory",
			 missing);
		is_str(why, want, "the reason names the path and the error");
	}
}

static void test_network(struct fixture *fx, int abi)
{
	const char *rw[] = { fx->in };
	unsigned short ports[1];
	struct landlock_policy pol = { .rw = rw, .nrw = 1, .restrict_tcp = true };
	int l1, l2, r[A_COUNT];

	if (abi < 4) {
		skip(4, "Landlock ABI < 4: no TCP rules");
		return;
	}
	l1 = tcp_listen(&fx->port_denied);
	l2 = tcp_listen(&fx->port_allowed);
	if (l1 < 0 || l2 < 0) {
		ok(0, "loopback listeners");
		return;
	}
	/* No port allowed. */
	if (run_child(fx, &pol, r) != 0) {
		ok(0, "network child ran");
	} else {
		is_int(r[A_TCP_CONNECT_DENIED], EACCES,
		       "restrict_tcp, no ports: connect to the parent's "
		       "listener fails with EACCES");
		is_int(r[A_TCP_BIND], EACCES,
		       "restrict_tcp: bind fails with EACCES");
		is_int(r[A_TCP_CONNECT_ALLOWED], EACCES,
		       "restrict_tcp, no ports: the other port fails too");
	}
	reset_fixture(fx);
	/* One port allowed. */
	ports[0] = fx->port_allowed;
	pol.tcp_ports = ports;
	pol.ntcp_ports = 1;
	if (run_child(fx, &pol, r) != 0) {
		ok(0, "network child ran");
	} else {
		is_int(r[A_TCP_CONNECT_ALLOWED], 0,
		       "restrict_tcp with the port allowed: connect works");
		is_int(r[A_TCP_CONNECT_DENIED], EACCES,
		       "restrict_tcp with another port allowed: connect fails");
	}
	reset_fixture(fx);
	/* Without restrict_tcp the same connect works (the control). */
	pol.restrict_tcp = false;
	if (run_child(fx, &pol, r) == 0)
		is_int(r[A_TCP_CONNECT_DENIED], 0,
		       "without restrict_tcp the connect works");
	else
		ok(0, "network control child ran");
	reset_fixture(fx);
	close(l1);
	close(l2);
	fx->port_denied = fx->port_allowed = 0;
}

static void test_scope(struct fixture *fx, int abi)
{
	const char *rw[] = { fx->in };
	struct landlock_policy pol = {
		.rw = rw, .nrw = 1, .scope = true, .restrict_tcp = true
	};
	int l, r[A_COUNT];

	if (abi < 6) {
		skip(4, "Landlock ABI < 6: no scoping");
		return;
	}
	snprintf(fx->abstract, sizeof(fx->abstract), "cordon-test-ll-%ld",
		 (long)getpid());
	l = unix_listen_abstract(fx->abstract);
	if (l < 0) {
		ok(0, "abstract unix listener");
		return;
	}
	if (run_child(fx, &pol, r) != 0) {
		ok(0, "scope child ran");
	} else {
		is_int(r[A_ABSTRACT_UNIX], EPERM,
		       "scope: connect to the parent's abstract unix socket "
		       "fails with EPERM");
		is_int(r[A_KILL_PARENT], EPERM,
		       "scope: kill(getppid(), 0) fails with EPERM");
		is_int(r[A_LOST], (long long)lost_for_abi(abi, true),
		       "what is lost on this ABI with scope and TCP asked");
	}
	reset_fixture(fx);
	pol.scope = false;
	if (run_child(fx, &pol, r) != 0) {
		ok(0, "scope control child ran");
	} else {
		is_int(r[A_ABSTRACT_UNIX], 0,
		       "without scope the abstract socket is reachable");
		is_int(r[A_KILL_PARENT], 0, "without scope kill() works");
	}
	reset_fixture(fx);
	close(l);
	fx->abstract[0] = '\0';
}

int main(void)
{
	struct fixture fx;
	int abi;

	tap_no_plan();
	abi = landlock_abi();
	diag("Landlock ABI %d", abi);
	if (abi < 1) {
		skip(1, "Landlock is not available");
		return tap_done();
	}
	if (setup_fixture(&fx) != 0) {
		ok(0, "temp dir fixture");
		return tap_done();
	}
	test_filesystem(&fx, abi);
	reset_fixture(&fx);
	test_errors(&fx);
	test_downgrades();
	test_file_root(&fx);
	reset_fixture(&fx);
	test_network(&fx, abi);
	test_scope(&fx, abi);
	remove_fixture(&fx);
	return tap_done();
}
