/* redteam3 — the third red team's attempts, for tests/escape/redteam3.sh.
 *
 *	redteam3 NAME ARGS...
 *
 * Same contract as attempt.c: one line on stdout, "ok ..." when the
 * attempt succeeded (on the host that proves it is real; inside `cordon
 * run` it is an escape), else "[step:]ENAME ..." naming the refused step.
 * Exit 0 for ok, 1 for a refusal, 2 for a usage or setup error. These were
 * written from the outside (README, --help), not from the sandbox's code:
 * a second way to each wall the first suite tests one way.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef SOCK_PACKET
#define SOCK_PACKET 10
#endif

#define ATTEMPT_PROG "redteam3"
#include "attempt.h"

/* ---- writes outside the writable roots, by other doors ---- */

/* An unnamed file in a directory outside (O_TMPFILE). */
static int at_tmpfile(char **a)
{
	int fd = open(a[0], O_TMPFILE | O_RDWR, 0600);

	if (fd < 0)
		return refused(NULL, errno, NULL);
	return okay("tmpfile in %s", a[0]);
}

/* An unnamed file made where writes are allowed, then given a name
 * outside through /proc/self/fd (linkat AT_SYMLINK_FOLLOW). */
static int at_tmplink(char **a)
{
	char p[64];
	int fd = open(a[0], O_TMPFILE | O_RDWR, 0644);

	if (fd < 0)
		return refused("tmpfile", errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, p, AT_FDCWD, a[1], AT_SYMLINK_FOLLOW) < 0)
		return refused("linkat", errno, NULL);
	return okay("linked %s", a[1]);
}

/* RENAME_EXCHANGE of a file inside with one outside. */
static int at_exchange(char **a)
{
	if (syscall(SYS_renameat2, AT_FDCWD, a[0], AT_FDCWD, a[1],
		    2 /* RENAME_EXCHANGE */) < 0)
		return refused(NULL, errno, NULL);
	return okay("exchanged %s and %s", a[0], a[1]);
}

/* An O_PATH descriptor on a file outside, reopened for writing through
 * /proc/self/fd. */
static int at_opath(char **a)
{
	char p[64];
	int fd = open(a[0], O_PATH), w;

	if (fd < 0)
		return refused("opath", errno, NULL);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	w = open(p, O_WRONLY | O_APPEND);
	if (w < 0)
		return refused("reopen", errno, NULL);
	if (write(w, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	return okay("wrote %s through O_PATH", a[0]);
}

static int at_bindmount(char **a)
{
	if (syscall(SYS_mount, a[0], a[1], NULL, MS_BIND, NULL) < 0)
		return refused(NULL, errno, NULL);
	return okay("bound %s on %s", a[0], a[1]);
}

/* mount_setattr: clear read-only on the whole tree. */
static int at_mount_setattr(char **a)
{
	struct mount_attr attr = { .attr_clr = MOUNT_ATTR_RDONLY };

	if (syscall(SYS_mount_setattr, AT_FDCWD, a[0], AT_RECURSIVE, &attr,
		    sizeof(attr)) < 0)
		return refused(NULL, errno, NULL);
	return okay("cleared MOUNT_ATTR_RDONLY on %s", a[0]);
}

static int at_move_mount(char **a)
{
	if (syscall(SYS_move_mount, AT_FDCWD, a[0], AT_FDCWD, a[1], 0) < 0)
		return refused(NULL, errno, NULL);
	return okay("moved %s to %s", a[0], a[1]);
}

/* The classic chroot break: chroot into a subdirectory, climb out of it
 * with chdir(".."), chroot("."), write. */
static int at_chroot(char **a)
{
	int i;

	if (chroot(a[0]) < 0)
		return refused("chroot", errno, NULL);
	for (i = 0; i < 64; i++)
		if (chdir("..") < 0)
			break;
	if (chroot(".") < 0)
		return refused("chroot2", errno, NULL);
	return okay("chrooted");
}

static int at_utimes(char **a)
{
	if (utimensat(AT_FDCWD, a[0], NULL, 0) < 0)
		return refused(NULL, errno, NULL);
	return okay("touched %s", a[0]);
}

static int at_mkfifo(char **a)
{
	if (mkfifo(a[0], 0666) < 0)
		return refused(NULL, errno, NULL);
	return okay("made fifo %s", a[0]);
}

static int at_symlink(char **a)
{
	if (symlink("/", a[0]) < 0)
		return refused(NULL, errno, NULL);
	return okay("made symlink %s", a[0]);
}

/* bind(2) of a unix socket makes a file at the path. */
static int at_sockfile(char **a)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	if (s < 0)
		return refused("socket", errno, NULL);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", a[0]);
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return refused("bind", errno, NULL);
	return okay("bound a socket file at %s", a[0]);
}

/* A copy of this program in a memfd, executed with "write PATH": the
 * sandbox must follow an exec that has no path. */
static int at_memfdexec(char **a)
{
	static char buf[1 << 16];
	char *argv[] = { "redteam3", "openw", a[0], NULL };
	int in = open("/proc/self/exe", O_RDONLY), m;
	ssize_t r;

	if (in < 0)
		return refused("exe", errno, NULL);
	m = memfd_create("x", 0);
	if (m < 0)
		return refused("memfd", errno, NULL);
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(m, buf, r) != r)
			return refused("copy", errno, NULL);
	fflush(stdout);
	syscall(SYS_execveat, m, "", argv, (char *[]){ NULL }, AT_EMPTY_PATH);
	return refused("execveat", errno, NULL);
}

static int at_openw(char **a)
{
	int fd = open(a[0], O_WRONLY | O_APPEND);

	if (fd < 0)
		return refused(NULL, errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	return okay("wrote %s", a[0]);
}

/* setns(2) on a descriptor the caller may have left open. */
static int at_setnsfd(char **a)
{
	int fd = (int)number(a[0]);

	if (fcntl(fd, F_GETFD) < 0)
		return refused("fd", errno, NULL);
	if (setns(fd, 0) < 0)
		return refused("setns", errno, NULL);
	return okay("joined the namespace of fd %d", fd);
}

/* ---- a host helper that hands out a directory fd over a socket ---- */

static int at_fdserve(char **a)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0), d = open(a[1], O_RDONLY |
							 O_DIRECTORY), c;
	FILE *f;

	if (s < 0 || d < 0)
		return 2;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", a[0]);
	unlink(a[0]);
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(s, 8) < 0)
		return 2;
	f = fopen(a[2], "w");
	if (!f)
		return 2;
	fputs("ready\n", f);
	fclose(f);
	alarm(900);
	while ((c = accept(s, NULL, NULL)) >= 0) {
		char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
		struct iovec iov = { .iov_base = "d", .iov_len = 1 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = cbuf,
				    .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &d, sizeof(int));
		(void)!sendmsg(c, &m, 0);
		close(c);
	}
	return 0;
}

static int at_fdrecv(char **a)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char cbuf[CMSG_SPACE(sizeof(int))], b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), d, w;

	if (s < 0)
		return refused("socket", errno, NULL);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", a[0]);
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return refused("connect", errno, NULL);
	if (recvmsg(s, &m, 0) <= 0)
		return refused("recvmsg", errno ? errno : EPIPE, NULL);
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return refused("recvmsg", EBADF, "no descriptor");
	memcpy(&d, CMSG_DATA(cm), sizeof(int));
	w = openat(d, a[1], O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (w < 0)
		return refused("openat", errno, NULL);
	return okay("created %s beneath a passed descriptor", a[1]);
}

/* ---- reading what is masked ---- */

static int at_read(char **a)
{
	char buf[256];
	int fd = open(a[0], O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return refused(NULL, errno, NULL);
	r = read(fd, buf, sizeof(buf) - 1);
	if (r < 0)
		return refused("read", errno, NULL);
	buf[r] = 0;
	for (ssize_t i = 0; i < r; i++)
		if (buf[i] == '\n')
			buf[i] = ' ';
	return okay("read %zd: %s", r, buf);
}

/* link(2) of a masked file to a new name, then reads the new name. */
static int at_linkread(char **a)
{
	if (link(a[0], a[1]) < 0)
		return refused("link", errno, NULL);
	return at_read(a + 1);
}

/* rename(2) of a masked file to a new name, then reads the new name. */
static int at_renameread(char **a)
{
	if (rename(a[0], a[1]) < 0)
		return refused("rename", errno, NULL);
	return at_read(a + 1);
}

static int at_symread(char **a)
{
	if (symlink(a[0], a[1]) < 0)
		return refused("symlink", errno, NULL);
	return at_read(a + 1);
}

/* syslog(2) READ_ALL: the kernel's log. */
static int at_klog(char **a)
{
	char buf[512];
	long r;

	(void)a;
	r = syscall(SYS_syslog, 3 /* SYSLOG_ACTION_READ_ALL */, buf,
		    (int)sizeof(buf));
	if (r < 0)
		return refused(NULL, errno, NULL);
	return okay("read %ld bytes of the kernel log", r);
}

/* KEYCTL_READ of the user keyring (keys the host's user holds). */
static int at_keyread(char **a)
{
	char buf[256];

	(void)a;
	if (syscall(SYS_keyctl, 11 /* KEYCTL_READ */, -4 /* @u */, buf,
		    sizeof(buf)) < 0)
		return refused(NULL, errno, NULL);
	return okay("read the user keyring");
}

/* /dev/userfaultfd: a userfaultfd without the userfaultfd(2) call. */
static int at_uffddev(char **a)
{
	int fd = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC), u;

	(void)a;
	if (fd < 0)
		return refused("open", errno, NULL);
	u = ioctl(fd, USERFAULTFD_IOC_NEW, O_CLOEXEC);
	if (u < 0)
		return refused("ioctl", errno, NULL);
	return okay("userfaultfd %d from /dev/userfaultfd", u);
}

/* ---- other ABIs for calls the filter refuses ---- */

/* One i386 call through int 0x80, six arguments at most. */
static long int80(long nr, long b, long c, long d)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(b), "c"(c), "d"(d)
			 : "memory");
	return r;
}

/* i386 numbers: io_uring_setup 425, add_key 286, ptrace 26, bpf 357,
 * userfaultfd 374, setns 346, keyctl 288. */
static int at_int80(char **a)
{
	static const struct {
		const char *name;
		long nr;
	} calls[] = { { "io_uring_setup", 425 }, { "keyctl", 288 },
		      { "ptrace", 26 }, { "bpf", 357 },
		      { "userfaultfd", 374 }, { "perf_event_open", 336 } };
	uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	long r = -ENOSYS;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(a[0], calls[i].name))
			break;
	if (i == sizeof(calls) / sizeof(calls[0]))
		return 2;
	switch (calls[i].nr) {
	case 425: /* io_uring_setup(4, p): p in the low 4 GiB */
		if (p == MAP_FAILED)
			return 2;
		memset(p, 0, 4096);
		r = int80(425, 4, (long)(uintptr_t)p, 0);
		break;
	case 288: /* keyctl(KEYCTL_GET_KEYRING_ID, @s, 1) */
		r = int80(288, 0, -3, 1);
		break;
	case 26: /* ptrace(PTRACE_ATTACH, pid) */
		r = int80(26, 16, number(a[1]), 0);
		break;
	case 357: /* bpf(BPF_PROG_LOAD, NULL, 0): an error of its own */
		r = int80(357, 5, 0, 0);
		break;
	case 374:
		r = int80(374, 0, 0, 0);
		break;
	case 336: /* perf_event_open(NULL, ...): an error of its own */
		r = int80(336, 0, 0, -1);
		break;
	}
	/* the filter answers EPERM (or kills); any other error is the
	 * call's own, so it got through */
	if (r < 0 && r != -EPERM && r != -ENOSYS && r != -EACCES)
		return okay("%s reached the kernel (%s)", a[0],
			    strerrorname_np((int)-r));
	if (r < 0)
		return refused(NULL, (int)-r, NULL);
	return okay("%s through int 0x80: %ld", a[0], r);
}

/* socket(2) through the i386 table: the socketcall(2) multiplexer, whose
 * arguments are in memory where a filter cannot read them (how=mux), or
 * the direct i386 socket call (how=direct). */
static int at_int80_socket(char **a)
{
	uint32_t *args = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	long r;

	if (args == MAP_FAILED)
		return 2;
	args[0] = (uint32_t)number(a[1]);
	args[1] = (uint32_t)number(a[2]);
	args[2] = (uint32_t)number(a[3]);
	if (!strcmp(a[0], "mux"))
		r = int80(102 /* socketcall */, 1 /* SYS_SOCKET */,
			  (long)(uintptr_t)args, 0);
	else
		r = int80(359 /* socket */, args[0], args[1], args[2]);
	if (r < 0)
		return refused(NULL, (int)-r, NULL);
	return okay("i386 %s socket(%s, %s, %s)", a[0], a[1], a[2], a[3]);
}

/* The x32 ABI: the call number with bit 30 set. */
static int at_x32(char **a)
{
	long nr = strcmp(a[0], "unshare") ? -1 : 272;
	long r;

	if (nr < 0)
		return 2;
	r = syscall(0x40000000L | nr, CLONE_NEWUSER);
	if (r < 0)
		return refused(NULL, errno, NULL);
	return okay("x32 %s", a[0]);
}

/* ---- host processes ---- */

static int at_prlimit(char **a)
{
	struct rlimit rl = { 1, 1 };

	if (prlimit(number(a[0]), RLIMIT_NOFILE, &rl, NULL) < 0)
		return refused(NULL, errno, NULL);
	return okay("set pid %s's RLIMIT_NOFILE to 1", a[0]);
}

static int at_renice(char **a)
{
	if (setpriority(PRIO_PROCESS, number(a[0]), 19) < 0)
		return refused(NULL, errno, NULL);
	return okay("reniced pid %s", a[0]);
}

static int at_affinity(char **a)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(number(a[0]), sizeof(set), &set) < 0)
		return refused(NULL, errno, NULL);
	return okay("pinned pid %s to cpu 0", a[0]);
}

static int at_sched(char **a)
{
	struct sched_param sp = { 0 };

	if (sched_setscheduler(number(a[0]), SCHED_IDLE, &sp) < 0)
		return refused(NULL, errno, NULL);
	return okay("SCHED_IDLE for pid %s", a[0]);
}

static int at_ioprio(char **a)
{
	/* IOPRIO_WHO_PROCESS 1; class IDLE 3 << 13 */
	if (syscall(SYS_ioprio_set, 1, (int)number(a[0]), 3 << 13) < 0)
		return refused(NULL, errno, NULL);
	return okay("idle I/O priority for pid %s", a[0]);
}

/* SIGIO (default action: terminate) to a pid through F_SETOWN. */
static int at_sigio(char **a)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return refused("socketpair", errno, NULL);
	if (fcntl(sv[0], F_SETOWN, (int)number(a[0])) < 0)
		return refused("setown", errno, NULL);
	if (fcntl(sv[0], F_SETFL, O_ASYNC) < 0)
		return refused("async", errno, NULL);
	if (write(sv[1], "x", 1) != 1)
		return refused("write", errno, NULL);
	usleep(100000);
	return okay("queued SIGIO for pid %s", a[0]);
}

static int at_pidfd(char **a)
{
	int fd = (int)syscall(SYS_pidfd_open, number(a[0]), 0);

	if (fd < 0)
		return refused("pidfd_open", errno, NULL);
	if (syscall(SYS_pidfd_send_signal, fd, SIGTERM, NULL, 0) < 0)
		return refused("send", errno, NULL);
	return okay("SIGTERM to pid %s through a pidfd", a[0]);
}

static int at_pidfd_getfd(char **a)
{
	int fd = (int)syscall(SYS_pidfd_open, number(a[0]), 0), g;

	if (fd < 0)
		return refused("pidfd_open", errno, NULL);
	g = (int)syscall(SYS_pidfd_getfd, fd, (int)number(a[1]), 0);
	if (g < 0)
		return refused("getfd", errno, NULL);
	return okay("took fd %s of pid %s", a[1], a[0]);
}

static int at_killpg(char **a)
{
	if (kill(-number(a[0]), SIGTERM) < 0)
		return refused(NULL, errno, NULL);
	return okay("SIGTERM to process group %s", a[0]);
}

/* A process that sits with its pid in READY; for the host's controls. */
static int at_sit(char **a)
{
	FILE *f = fopen(a[0], "w");

	if (!f)
		return 2;
	fprintf(f, "%d\n", getpid());
	fclose(f);
	alarm(900);
	for (;;)
		pause();
}

static int inet_addr_of(const char *addr, long port, struct sockaddr_storage *ss,
			socklen_t *len)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		*len = sizeof(*s4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, addr, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*s6);
		return AF_INET6;
	}
	fprintf(stderr, "redteam3: not an address: %s\n", addr);
	exit(2);
}

/* A TCP listener on ADDR (port 0: any), its port in PORTFILE, what each
 * connection sends appended to LOG; for the host's side. */
static int at_listen(char **a)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = inet_addr_of(a[0], 0, &ss, &len), s = socket(fam, SOCK_STREAM, 0),
	    one = 1, c;
	FILE *f;

	if (s < 0)
		return 2;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&ss, len) < 0 || listen(s, 64) < 0 ||
	    getsockname(s, (struct sockaddr *)&ss, &len) < 0)
		return 2;
	f = fopen(a[1], "w");
	if (!f)
		return 2;
	fprintf(f, "%u\n", ntohs(fam == AF_INET ?
				      ((struct sockaddr_in *)&ss)->sin_port :
				      ((struct sockaddr_in6 *)&ss)->sin6_port));
	fclose(f);
	alarm(900);
	while ((c = accept(s, NULL, NULL)) >= 0) {
		char buf[256];
		struct timeval tv = { 1, 0 };
		ssize_t r;
		FILE *l = fopen(a[2], "a");

		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		r = recv(c, buf, sizeof(buf) - 1, 0);
		buf[r > 0 ? r : 0] = 0;
		if (l) {
			fprintf(l, "connection: %s\n", buf);
			fclose(l);
		}
		close(c);
	}
	return 0;
}

/* ---- resources ---- */

static void *thread_sit(void *p)
{
	(void)p;
	pause();
	return NULL;
}

static int at_threadbomb(char **a)
{
	long max = number(a[0]), n;
	pthread_attr_t at;
	pthread_t t;
	int e = 0;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 << 10);
	for (n = 0; n < max; n++) {
		e = pthread_create(&t, &at, thread_sit, NULL);
		if (e)
			break;
	}
	if (e)
		return refused(NULL, e, "after %ld threads", n);
	return okay("%ld threads", n);
}

/* memfd pages written with write(2): memory no mapping counts. */
static int at_memfdfill(char **a)
{
	static char chunk[1 << 20];
	long mb = number(a[0]), i, n = 0;
	int fd = -1, e = 0;

	memset(chunk, 'x', sizeof(chunk));
	for (i = 0; i < mb; i++) {
		if (i % 16 == 0) {	/* a new memfd every 16 MiB (FSIZE) */
			fd = memfd_create("fill", 0);
			if (fd < 0) {
				e = errno;
				break;
			}
		}
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
			e = errno ? errno : ENOSPC;
			break;
		}
		n++;
	}
	if (e)
		return refused(NULL, e, "after %ld MiB", n);
	return okay("held %ld MiB in memfds", n);
}

/* System V shared memory, filled then detached: the pages stay with the
 * segment, mapped by nobody. */
static int at_shmfill(char **a)
{
	long mb = number(a[0]), n = 0;
	int e = 0;

	while (n < mb) {
		int id = shmget(IPC_PRIVATE, 16 << 20, IPC_CREAT | 0600);
		char *p;

		if (id < 0) {
			e = errno;
			break;
		}
		p = shmat(id, NULL, 0);
		if (p == (void *)-1) {
			e = errno;
			shmctl(id, IPC_RMID, NULL);
			break;
		}
		memset(p, 'x', 16 << 20);
		shmdt(p);
		n += 16;
	}
	if (e)
		return refused(NULL, e, "after %ld MiB", n);
	return okay("held %ld MiB in detached shm segments", n);
}

/* Removes every segment this user made (the host's control cleans up). */
static int at_shmclean(char **a)
{
	struct shm_info info;
	int max = shmctl(0, SHM_INFO, (struct shmid_ds *)&info), i;

	(void)a;
	for (i = 0; i <= max; i++) {
		struct shmid_ds ds;
		int id = shmctl(i, SHM_STAT, &ds);

		if (id >= 0 && ds.shm_perm.cuid == getuid() &&
		    ds.shm_nattch == 0 && ds.shm_segsz == 16 << 20)
			shmctl(id, IPC_RMID, NULL);
	}
	return okay("cleaned");
}

/* Empty files in DIR until MAX or a refusal, then removed. */
static int at_inodes(char **a)
{
	long max = number(a[1]), n;
	char p[PATH_MAX];
	int e = 0, d = open(a[0], O_DIRECTORY | O_RDONLY);

	if (d < 0)
		return refused("open", errno, NULL);
	for (n = 0; n < max; n++) {
		int fd;

		snprintf(p, sizeof(p), "i%ld", n);
		fd = openat(d, p, O_CREAT | O_WRONLY | O_EXCL, 0600);
		if (fd < 0) {
			e = errno;
			break;
		}
		close(fd);
	}
	for (long i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "i%ld", i);
		unlinkat(d, p, 0);
	}
	if (e)
		return refused(NULL, e, "after %ld files", n);
	return okay("%ld empty files in %s", n, a[0]);
}

/* Takes inotify instances until refused (MAX at most), says how many in
 * READY, holds them until GO exists. */
static int at_inotify(char **a)
{
	long max = number(a[0]), n;
	int e = 0;
	FILE *f;

	for (n = 0; n < max; n++)
		if (inotify_init1(IN_CLOEXEC) < 0) {
			e = errno;
			break;
		}
	f = fopen(a[1], "w");
	if (!f)
		return 2;
	fprintf(f, "%ld\n", n);
	fclose(f);
	for (int i = 0; i < 600 && access(a[2], F_OK) < 0; i++)
		usleep(50000);
	if (e)
		return refused(NULL, e, "after %ld instances", n);
	return okay("%ld inotify instances", n);
}

static int at_inotify1(char **a)
{
	(void)a;
	if (inotify_init1(IN_CLOEXEC) < 0)
		return refused(NULL, errno, NULL);
	return okay("an inotify instance");
}

/* ---- network ---- */

/* TCP-like connects that are not plain IPPROTO_TCP connect(2): MPTCP, and
 * TCP Fast Open (sendto with MSG_FASTOPEN connects). Sends a marker. */
static int at_tcpish(char **a)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = inet_addr_of(a[1], number(a[2]), &ss, &len), s;
	static const char msg[] = "ESCAPED redteam3\n";

	if (!strcmp(a[0], "mptcp")) {
		s = socket(fam, SOCK_STREAM, IPPROTO_MPTCP);
		if (s < 0)
			return refused("socket", errno, NULL);
		if (connect(s, (struct sockaddr *)&ss, len) < 0)
			return refused("connect", errno, NULL);
		if (write(s, msg, sizeof(msg) - 1) < 0)
			return refused("write", errno, NULL);
	} else if (!strcmp(a[0], "fastopen")) {
		s = socket(fam, SOCK_STREAM, 0);
		if (s < 0)
			return refused("socket", errno, NULL);
		if (sendto(s, msg, sizeof(msg) - 1, MSG_FASTOPEN,
			   (struct sockaddr *)&ss, len) < 0)
			return refused("sendto", errno, NULL);
		/* without a cookie the data waits for the handshake */
		char b;
		struct timeval tv = { 1, 0 };
		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (recv(s, &b, 1, 0) < 0 && errno != EAGAIN)
			return refused("recv", errno, NULL);
	} else if (!strcmp(a[0], "connectx")) {
		/* TCP_FASTOPEN_CONNECT: connect(2) that returns at once */
		int one = 1;

		s = socket(fam, SOCK_STREAM, 0);
		if (s < 0)
			return refused("socket", errno, NULL);
		setsockopt(s, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, &one,
			   sizeof(one));
		if (connect(s, (struct sockaddr *)&ss, len) < 0)
			return refused("connect", errno, NULL);
		if (write(s, msg, sizeof(msg) - 1) < 0)
			return refused("write", errno, NULL);
	} else {
		return 2;
	}
	usleep(200000);
	return okay("%s reached %s port %s", a[0], a[1], a[2]);
}

/* socket(FAMILY, TYPE, PROTO): the numbers themselves. */
static int at_sock(char **a)
{
	int s = socket((int)number(a[0]), (int)number(a[1]),
		       (int)number(a[2]));

	if (s < 0)
		return refused(NULL, errno, NULL);
	return okay("socket(%s, %s, %s)", a[0], a[1], a[2]);
}

static const struct {
	const char *name;
	int nargs;
	int (*fn)(char **);
	const char *usage;
} table[] = {
	{ "tmpfile", 1, at_tmpfile, "DIR" },
	{ "tmplink", 2, at_tmplink, "DIR NEWPATH" },
	{ "exchange", 2, at_exchange, "A B" },
	{ "opath", 1, at_opath, "PATH" },
	{ "openw", 1, at_openw, "PATH" },
	{ "bindmount", 2, at_bindmount, "FROM TO" },
	{ "mount_setattr", 1, at_mount_setattr, "PATH" },
	{ "move_mount", 2, at_move_mount, "FROM TO" },
	{ "chroot", 1, at_chroot, "DIR" },
	{ "utimes", 1, at_utimes, "PATH" },
	{ "mkfifo", 1, at_mkfifo, "PATH" },
	{ "symlink", 1, at_symlink, "PATH" },
	{ "sockfile", 1, at_sockfile, "PATH" },
	{ "memfdexec", 1, at_memfdexec, "PATH" },
	{ "setnsfd", 1, at_setnsfd, "FD" },
	{ "fdserve", 3, at_fdserve, "SOCK DIR READY" },
	{ "fdrecv", 2, at_fdrecv, "SOCK NAME" },
	{ "read", 1, at_read, "PATH" },
	{ "linkread", 2, at_linkread, "MASKED NEW" },
	{ "renameread", 2, at_renameread, "MASKED NEW" },
	{ "symread", 2, at_symread, "TARGET LINK" },
	{ "klog", 0, at_klog, "" },
	{ "keyread", 0, at_keyread, "" },
	{ "uffddev", 0, at_uffddev, "" },
	{ "int80", 1, at_int80, "CALL [PID]" },
	{ "x32", 1, at_x32, "unshare" },
	{ "int80-socket", 4, at_int80_socket, "mux|direct FAMILY TYPE PROTO" },
	{ "prlimit", 1, at_prlimit, "PID" },
	{ "renice", 1, at_renice, "PID" },
	{ "affinity", 1, at_affinity, "PID" },
	{ "sched", 1, at_sched, "PID" },
	{ "ioprio", 1, at_ioprio, "PID" },
	{ "sigio", 1, at_sigio, "PID" },
	{ "pidfd", 1, at_pidfd, "PID" },
	{ "pidfd_getfd", 2, at_pidfd_getfd, "PID FD" },
	{ "killpg", 1, at_killpg, "PGID" },
	{ "sit", 1, at_sit, "PIDFILE" },
	{ "listen", 3, at_listen, "ADDR PORTFILE LOG" },
	{ "threadbomb", 1, at_threadbomb, "MAX" },
	{ "memfdfill", 1, at_memfdfill, "MB" },
	{ "shmfill", 1, at_shmfill, "MB" },
	{ "shmclean", 0, at_shmclean, "" },
	{ "inodes", 2, at_inodes, "DIR MAX" },
	{ "inotify", 3, at_inotify, "MAX READY GO" },
	{ "inotify1", 0, at_inotify1, "" },
	{ "tcpish", 3, at_tcpish, "mptcp|fastopen|connectx ADDR PORT" },
	{ "sock", 3, at_sock, "FAMILY TYPE PROTO" },
};

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2)
		for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
			if (!strcmp(argv[1], table[i].name)) {
				if (argc - 2 < table[i].nargs)
					break;
				return table[i].fn(argv + 2);
			}
	fprintf(stderr, "usage: redteam3 NAME ARGS...; NAMEs:\n");
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		fprintf(stderr, "  %s %s\n", table[i].name, table[i].usage);
	return 2;
}
