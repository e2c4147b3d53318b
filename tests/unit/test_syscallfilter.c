/* The seccomp filter, for real: each probe runs in a fresh child, once
 * under syscallfilter_apply() and once without it (the control), and reports the
 * errno it saw through its exit status. A denied call must fail with EPERM
 * (clone3: ENOSYS) under the filter and must not without it, so the filter
 * and not the environment is what refused. Probes pass bad pointers or
 * descriptors where they can (bubblewrap's try-syscall trick), so a call
 * that gets through does no harm.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <asm/termbits.h> /* the kernel's struct termios, termios2 */
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syscallfilter.h"
#include "tap.h"

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

#define BAD_PTR ((void *)1)

/* Exit statuses a probe child uses besides errno values (< 200). */
#define PROBE_OK 0 /* the call succeeded */
#define PROBE_FILTER_FAIL 250 /* syscallfilter_apply itself failed */
#define PROBE_ODD 251 /* the call returned something unexpected */

/* Each probe returns 0 when the call succeeded, else the errno. */
typedef int (*probe_fn)(void);

static int result(long rc)
{
	return rc < 0 ? errno : 0;
}

static int p_ptrace_traceme(void)
{
	return result(ptrace(PTRACE_TRACEME, 0, NULL, NULL));
}

static int p_ptrace_attach_parent(void)
{
	/* Only run under the filter: without it this would stop the test. */
	return result(ptrace(PTRACE_ATTACH, getppid(), NULL, NULL));
}

static int p_process_vm_readv(void)
{
	return result(process_vm_readv(getppid(), NULL, 0, NULL, 0, 0));
}

static int p_process_vm_writev(void)
{
	return result(process_vm_writev(getppid(), NULL, 0, NULL, 0, 0));
}

static int p_io_uring_setup(void)
{
	return result(syscall(SYS_io_uring_setup, 1, BAD_PTR));
}

static int p_io_uring_enter(void)
{
	return result(syscall(SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0));
}

static int p_io_uring_register(void)
{
	return result(syscall(SYS_io_uring_register, -1, 0, NULL, 0));
}

static int p_bpf(void)
{
	return result(syscall(SYS_bpf, 0, BAD_PTR, 64));
}

static int p_perf_event_open(void)
{
	return result(syscall(SYS_perf_event_open, BAD_PTR, 0, -1, -1, 0));
}

static int p_userfaultfd(void)
{
	return result(syscall(SYS_userfaultfd, 0x7fffffff));
}

static int p_keyctl(void)
{
	return result(syscall(SYS_keyctl, 9999, 0, 0, 0, 0));
}

static int p_add_key(void)
{
	return result(syscall(SYS_add_key, BAD_PTR, BAD_PTR, NULL, 0, 0));
}

static int p_request_key(void)
{
	return result(syscall(SYS_request_key, BAD_PTR, BAD_PTR, NULL, 0));
}

static int p_mount(void)
{
	return result(syscall(SYS_mount, BAD_PTR, BAD_PTR, BAD_PTR, 0, NULL));
}

static int p_umount2(void)
{
	return result(syscall(SYS_umount2, BAD_PTR, 0));
}

static int p_pivot_root(void)
{
	return result(syscall(SYS_pivot_root, BAD_PTR, BAD_PTR));
}

static int p_unshare_user(void)
{
	return result(unshare(CLONE_NEWUSER));
}

static int p_setns(void)
{
	return result(setns(-1, 0));
}

static int p_move_mount(void)
{
	return result(syscall(SYS_move_mount, -1, BAD_PTR, -1, BAD_PTR, 0));
}

static int p_open_tree(void)
{
	return result(syscall(SYS_open_tree, -1, BAD_PTR, 0));
}

static int p_fsopen(void)
{
	return result(syscall(SYS_fsopen, BAD_PTR, 0));
}

static int p_fsmount(void)
{
	return result(syscall(SYS_fsmount, -1, 0, 0));
}

static int p_fspick(void)
{
	return result(syscall(SYS_fspick, -1, BAD_PTR, 0));
}

static int p_mount_setattr(void)
{
	return result(syscall(SYS_mount_setattr, -1, BAD_PTR, 0, NULL, 0));
}

static int p_kexec_load(void)
{
	/* Invalid flags, so an unfiltered call loads nothing. */
	return result(syscall(SYS_kexec_load, 0, 0, NULL, 0xdead0000UL));
}

static int p_kexec_file_load(void)
{
	return result(
		syscall(SYS_kexec_file_load, -1, -1, 0, NULL, 0xdead0000UL));
}

/* Raw clone with a namespace flag and no new stack: the child side runs on
 * a copy of this stack and leaves at once. */
static int clone_with(unsigned long flag)
{
	long rc = syscall(SYS_clone, flag | SIGCHLD, NULL, NULL, NULL, 0);

	if (rc == 0)
		_exit(0);
	if (rc < 0)
		return errno;
	waitpid((pid_t)rc, NULL, 0);
	return 0;
}

static int p_clone_newns(void)
{
	return clone_with(CLONE_NEWNS);
}

static int p_clone_newuser(void)
{
	return clone_with(CLONE_NEWUSER);
}

static int p_clone_newnet(void)
{
	return clone_with(CLONE_NEWNET);
}

static int p_clone3(void)
{
	return result(syscall(SYS_clone3, NULL, 0));
}

static int p_socket(int family, int type, int protocol)
{
	int fd = socket(family, type, protocol);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int p_socket_packet(void)
{
	return p_socket(AF_PACKET, SOCK_RAW, 0);
}

static int p_socket_vsock(void)
{
	return p_socket(AF_VSOCK, SOCK_STREAM, 0);
}

static int p_socket_netlink_audit(void)
{
	return p_socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
}

static int p_socket_netlink_route(void)
{
	return p_socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
}

static int p_socket_inet(void)
{
	return p_socket(AF_INET, SOCK_STREAM, 0);
}

static int p_socket_inet6(void)
{
	return p_socket(AF_INET6, SOCK_DGRAM, 0);
}

/* Inet stream sockets Landlock's TCP rules do not see: MPTCP (262) and
 * SCTP (132, seqpacket too); and TCP Fast Open, which connects from
 * sendto. */
static int p_socket_mptcp(void)
{
	return p_socket(AF_INET, SOCK_STREAM, 262);
}

static int p_socket_sctp6(void)
{
	return p_socket(AF_INET6, SOCK_SEQPACKET | SOCK_CLOEXEC, 132);
}

static int p_socket_tcp(void)
{
	return p_socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, IPPROTO_TCP);
}

static int p_sendto_fastopen(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(1),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (s < 0)
		return PROBE_ODD;
	return result(sendto(s, "x", 1, MSG_FASTOPEN, (struct sockaddr *)&sa,
			     sizeof(sa)));
}

/* prlimit64 setting the parent's limits (to what they are: harmless
 * without the filter), and reading them or setting our own. */
static int p_prlimit_parent(void)
{
	struct rlimit rl;

	if (prlimit(getppid(), RLIMIT_NOFILE, NULL, &rl) != 0)
		return PROBE_ODD;
	return result(prlimit(getppid(), RLIMIT_NOFILE, &rl, NULL));
}

static int p_prlimit_read_self(void)
{
	struct rlimit rl;

	if (prlimit(getppid(), RLIMIT_NOFILE, NULL, &rl) != 0)
		return errno;
	return result(prlimit(0, RLIMIT_NOFILE, &rl, NULL));
}

static int p_socket_unix(void)
{
	return p_socket(AF_UNIX, SOCK_STREAM, 0);
}

static int p_socketpair_unix(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return errno;
	close(sv[0]);
	close(sv[1]);
	return 0;
}

static int p_socketpair_type(int type)
{
	int sv[2];

	if (socketpair(AF_UNIX, type, 0, sv) != 0)
		return errno;
	close(sv[0]);
	close(sv[1]);
	return 0;
}

/* AF_UNIX datagram sockets reach any path with sendto (unixnotif.c). */
static int p_socket_unix_dgram(void)
{
	return p_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
}

static int p_socket_unix_raw(void)
{
	return p_socket(AF_UNIX, SOCK_RAW, 0); /* a datagram socket */
}

static int p_socketpair_unix_dgram(void)
{
	return p_socketpair_type(SOCK_DGRAM | SOCK_CLOEXEC);
}

static int p_socketpair_unix_seqpacket(void)
{
	return p_socketpair_type(SOCK_SEQPACKET);
}

/* The family in the upper half of the register: the kernel truncates it
 * to AF_PACKET's int, the filter must not let it through. */
static int p_socket_packet_high_bits(void)
{
	long fd = syscall(SYS_socket, (1UL << 32) | AF_PACKET, SOCK_RAW, 0);

	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

/* A private pty: TIOCSTI on it only reaches our own input queue. */
static int pty_pair(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0)
		return -1;
	if (grantpt(*master) != 0 || unlockpt(*master) != 0)
		return -1;
	*slave = open(ptsname(*master), O_RDWR | O_NOCTTY);
	return *slave < 0 ? -1 : 0;
}

static int p_ioctl_tiocsti(void)
{
	int m, s;
	char c = 'x';

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TIOCSTI, &c));
}

/* TIOCSTI with junk in the upper 32 bits of the request (the kernel
 * truncates the request to 32 bits: CVE-2019-10063). */
static int p_ioctl_tiocsti_high_bits(void)
{
	int m, s;
	char c = 'x';

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(syscall(SYS_ioctl, s, (0x123UL << 32) | TIOCSTI, &c));
}

static int p_ioctl_tioclinux(void)
{
	int m, s;

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TIOCLINUX, BAD_PTR));
}

/* The terminal's mode: TCSETS (tcsetattr), its TCSETS2 and old TCSETA
 * spellings, the line discipline; TCGETS (reading) stays allowed. */
static int p_ioctl_tcsets(void)
{
	int m, s;
	struct termios t;

	if (pty_pair(&m, &s) != 0 || ioctl(s, TCGETS, &t) != 0)
		return PROBE_ODD;
	t.c_lflag &= ~(tcflag_t)ECHO;
	return result(ioctl(s, TCSETS, &t));
}

static int p_ioctl_tcsets2(void)
{
	int m, s;
	struct termios2 t;

	if (pty_pair(&m, &s) != 0 || ioctl(s, TCGETS2, &t) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TCSETSW2, &t));
}

static int p_ioctl_tcseta(void)
{
	int m, s;
	struct termio t;

	if (pty_pair(&m, &s) != 0 || ioctl(s, TCGETA, &t) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TCSETAF, &t));
}

static int p_ioctl_tiocsetd(void)
{
	int m, s, ldisc = 0;

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TIOCSETD, &ldisc));
}

static int p_ioctl_tiocexcl(void)
{
	int m, s;

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TIOCEXCL));
}

static int p_ioctl_tcgets_mode(void)
{
	int m, s;
	struct termios t;

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(ioctl(s, TCGETS, &t));
}

/* A lease on a file of our own (the owner may take one). */
static int p_fcntl_setlease(void)
{
	char path[] = "/var/tmp/cordon-lease-XXXXXX";
	int fd = mkstemp(path), rd, r;

	if (fd < 0)
		return PROBE_ODD;
	close(fd);
	rd = open(path, O_RDONLY);
	unlink(path);
	if (rd < 0)
		return PROBE_ODD;
	r = fcntl(rd, F_SETLEASE, F_RDLCK);
	return result(r);
}

/* A lock stays allowed (build tools take them on their own files). */
static int p_fcntl_setlk(void)
{
	char path[] = "/var/tmp/cordon-lock-XXXXXX";
	int fd = mkstemp(path);
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fd < 0)
		return PROBE_ODD;
	unlink(path);
	return result(fcntl(fd, F_SETLK, &fl));
}

/* An ordinary terminal ioctl still works. */
static int p_ioctl_tcgets(void)
{
	int m, s, n = 0;

	if (pty_pair(&m, &s) != 0)
		return PROBE_ODD;
	return result(ioctl(s, FIONREAD, &n));
}

static int p_fork_exec(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return errno;
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : PROBE_ODD;
}

static void *thread_main(void *arg)
{
	return arg;
}

/* glibc tries clone3 first and must fall back to clone on ENOSYS. */
static int p_pthread(void)
{
	pthread_t t;
	void *ret = NULL;
	int rc = pthread_create(&t, NULL, thread_main, &ret);

	if (rc != 0)
		return rc;
	pthread_join(t, &ret);
	return ret == &ret ? 0 : PROBE_ODD;
}

#if defined(__x86_64__)
/* An i386 system call through int $0x80: the compat architecture the
 * filter must cover. Returns the raw result (-errno on failure). */
static long int80(long nr, long a1)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a1)
			 : "memory", "rcx", "r8", "r9", "r10", "r11");
	return ret;
}

static int p_i386_unshare(void)
{
	long r = int80(310 /* i386 unshare */, CLONE_NEWUSER);

	return r < 0 ? (int)-r : 0;
}

static int p_i386_getpid(void)
{
	long r = int80(20 /* i386 getpid */, 0);

	return r == (long)getpid() ? 0 : PROBE_ODD;
}

/* An x32 system call: x86-64's arch token with bit 30 set in the number;
 * the filter must still see unshare there (ENOSYS without the filter when
 * the kernel has no x32 support). */
static int p_x32_unshare(void)
{
	return result(syscall(0x40000000L | 272 /* unshare */, CLONE_NEWUSER));
}
#endif

/* Runs fn in a child, with the filter when filtered; returns what the
 * probe returned, or PROBE_FILTER_FAIL / 128 + signal. */
static int run_probe(probe_fn fn, int filtered, bool no_unix)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char why[256];
		int r;

		if (filtered && syscallfilter_apply(no_unix, why, sizeof(why)) != 0) {
			fprintf(stderr, "# %s\n", why);
			_exit(PROBE_FILTER_FAIL);
		}
		r = fn();
		_exit(r > 249 ? PROBE_ODD : r);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

struct denied_case {
	const char *name;
	probe_fn fn;
	int want; /* errno under the filter */
	int control; /* 1: assert the unfiltered call does not give want */
};

static const struct denied_case denied[] = {
	{ "ptrace(PTRACE_TRACEME)", p_ptrace_traceme, EPERM, 1 },
	{ "ptrace(PTRACE_ATTACH, parent)", p_ptrace_attach_parent, EPERM, 0 },
	{ "process_vm_readv", p_process_vm_readv, EPERM, 1 },
	{ "process_vm_writev", p_process_vm_writev, EPERM, 1 },
	{ "io_uring_setup", p_io_uring_setup, EPERM, 1 },
	{ "io_uring_enter", p_io_uring_enter, EPERM, 1 },
	{ "io_uring_register", p_io_uring_register, EPERM, 1 },
	{ "bpf", p_bpf, EPERM, 1 },
	{ "perf_event_open", p_perf_event_open, EPERM, 1 },
	{ "userfaultfd", p_userfaultfd, EPERM, 1 },
	{ "keyctl", p_keyctl, EPERM, 1 },
	{ "add_key", p_add_key, EPERM, 1 },
	{ "request_key", p_request_key, EPERM, 1 },
	{ "mount", p_mount, EPERM, 1 },
	{ "umount2", p_umount2, EPERM, 1 },
	{ "pivot_root", p_pivot_root, EPERM, 1 },
	{ "unshare(CLONE_NEWUSER)", p_unshare_user, EPERM, 1 },
	{ "setns", p_setns, EPERM, 1 },
	{ "move_mount", p_move_mount, EPERM, 1 },
	{ "open_tree", p_open_tree, EPERM, 1 },
	{ "fsopen", p_fsopen, EPERM, 1 },
	{ "fsmount", p_fsmount, EPERM, 1 },
	{ "fspick", p_fspick, EPERM, 1 },
	{ "mount_setattr", p_mount_setattr, EPERM, 1 },
	/* kexec may be disabled by the host (EPERM without the filter too):
	 * no control. */
	{ "kexec_load", p_kexec_load, EPERM, 0 },
	{ "kexec_file_load", p_kexec_file_load, EPERM, 0 },
	{ "clone(CLONE_NEWNS) via syscall", p_clone_newns, EPERM, 1 },
	{ "clone(CLONE_NEWUSER) via syscall", p_clone_newuser, EPERM, 1 },
	{ "clone(CLONE_NEWNET) via syscall", p_clone_newnet, EPERM, 1 },
	{ "clone3", p_clone3, ENOSYS, 1 },
	{ "socket(AF_PACKET)", p_socket_packet, EPERM, 1 },
	{ "socket(AF_PACKET) with junk in the upper 32 bits",
	  p_socket_packet_high_bits, EPERM, 1 },
	{ "socket(AF_VSOCK)", p_socket_vsock, EPERM, 1 },
	{ "socket(AF_UNIX, SOCK_DGRAM|SOCK_NONBLOCK)", p_socket_unix_dgram,
	  EPERM, 1 },
	{ "socket(AF_UNIX, SOCK_RAW)", p_socket_unix_raw, EPERM, 1 },
	{ "socketpair(AF_UNIX, SOCK_DGRAM)", p_socketpair_unix_dgram, EPERM,
	  1 },
	{ "socket(AF_NETLINK, NETLINK_AUDIT)", p_socket_netlink_audit, EPERM,
	  1 },
	{ "ioctl(TIOCSTI) on a pty", p_ioctl_tiocsti, EPERM, 1 },
	{ "ioctl(TIOCSTI) with junk in the upper 32 bits",
	  p_ioctl_tiocsti_high_bits, EPERM, 1 },
	{ "ioctl(TIOCLINUX)", p_ioctl_tioclinux, EPERM, 1 },
	{ "ioctl(TCSETS) (tcsetattr) on a pty", p_ioctl_tcsets, EPERM, 1 },
	{ "ioctl(TCSETSW2) on a pty", p_ioctl_tcsets2, EPERM, 1 },
	{ "ioctl(TCSETAF) on a pty", p_ioctl_tcseta, EPERM, 1 },
	{ "ioctl(TIOCSETD) on a pty", p_ioctl_tiocsetd, EPERM, 1 },
	{ "ioctl(TIOCEXCL) on a pty", p_ioctl_tiocexcl, EPERM, 1 },
	{ "fcntl(F_SETLEASE)", p_fcntl_setlease, EPERM, 1 },
	{ "socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP)", p_socket_mptcp, EPERM,
	  1 },
	{ "socket(AF_INET6, SOCK_SEQPACKET, IPPROTO_SCTP)", p_socket_sctp6,
	  EPERM, 1 },
	{ "sendto(MSG_FASTOPEN)", p_sendto_fastopen, EPERM, 1 },
	{ "prlimit64 setting the parent's RLIMIT_NOFILE", p_prlimit_parent,
	  EPERM, 1 },
#if defined(__x86_64__)
	{ "i386 unshare(CLONE_NEWUSER) via int $0x80", p_i386_unshare, EPERM,
	  1 },
	{ "x32 unshare(CLONE_NEWUSER)", p_x32_unshare, EPERM, 1 },
#endif
};

struct allowed_case {
	const char *name;
	probe_fn fn;
};

static const struct allowed_case allowed[] = {
	{ "socket(AF_NETLINK, NETLINK_ROUTE)", p_socket_netlink_route },
	{ "socket(AF_INET)", p_socket_inet },
	{ "socket(AF_INET6)", p_socket_inet6 },
	{ "socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP)", p_socket_tcp },
	{ "prlimit64: reading the parent's, setting our own",
	  p_prlimit_read_self },
	{ "socket(AF_UNIX) without no_unix_sockets", p_socket_unix },
	{ "socketpair(AF_UNIX)", p_socketpair_unix },
	{ "socketpair(AF_UNIX, SOCK_SEQPACKET)", p_socketpair_unix_seqpacket },
	{ "ioctl(FIONREAD) on a pty", p_ioctl_tcgets },
	{ "ioctl(TCGETS) (tcgetattr) on a pty", p_ioctl_tcgets_mode },
	{ "fcntl(F_SETLK) on a file", p_fcntl_setlk },
	{ "fork and exec /bin/true", p_fork_exec },
	{ "pthread_create (clone3 falls back to clone)", p_pthread },
#if defined(__x86_64__)
	{ "i386 getpid via int $0x80", p_i386_getpid },
#endif
};

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	char why[256];
	int got;

	tap_no_plan();

	for (size_t i = 0; i < LEN(denied); i++) {
		const struct denied_case *c = &denied[i];

		int control = c->control ? run_probe(c->fn, 0, false) : 0;

		/* A probe the machine cannot run at all (int $0x80 with the
		 * ia32 emulation off dies by a signal) proves nothing. */
		if (control >= 128) {
			diag("%s: killed by signal %d without the filter",
			     c->name, control - 128);
			skip(2, "not supported on this machine");
			continue;
		}
		got = run_probe(c->fn, 1, false);
		is_int(got, c->want, c->name);
		if (!c->control)
			continue;
		ok(control != c->want && control != PROBE_ODD,
		   "%s: without the filter it is not refused that way "
		   "(got %d)",
		   c->name, control);
	}
	for (size_t i = 0; i < LEN(allowed); i++)
		is_int(run_probe(allowed[i].fn, 1, false), 0, allowed[i].name);

	is_int(run_probe(p_socket_unix, 1, true), EPERM,
	       "socket(AF_UNIX) with no_unix_sockets");
	is_int(run_probe(p_socketpair_unix, 1, true), 0,
	       "socketpair(AF_UNIX) with no_unix_sockets (nothing to reach)");
	is_int(run_probe(p_socket_inet, 1, true), 0,
	       "socket(AF_INET) with no_unix_sockets");

	/* tty_modes (the command's terminal is a pty cordon relays): the
	 * mode setters pass, typing into the queue and the console's and
	 * line discipline's requests do not. */
	{
		static const struct {
			const char *name;
			probe_fn fn;
			int want;
		} modes[] = {
			{ "TCSETS", p_ioctl_tcsets, 0 },
			{ "TCSETSW2", p_ioctl_tcsets2, 0 },
			{ "TCSETAF", p_ioctl_tcseta, 0 },
			{ "TIOCSTI", p_ioctl_tiocsti, EPERM },
			{ "TIOCSTI, upper bits", p_ioctl_tiocsti_high_bits,
			  EPERM },
			{ "TIOCLINUX", p_ioctl_tioclinux, EPERM },
			{ "TIOCSETD", p_ioctl_tiocsetd, EPERM },
		};
		struct syscallfilter_prog prog;

		if (syscallfilter_compile(false, true, false, &prog, why,
					  sizeof(why)) != 0) {
			ok(0, "syscallfilter_compile with tty_modes: %s", why);
		} else {
			for (size_t i = 0; i < LEN(modes); i++) {
				pid_t pid;
				int status;

				fflush(stdout);
				pid = fork();
				if (pid == 0) {
					if (syscallfilter_load(&prog, why,
							       sizeof(why)))
						_exit(PROBE_FILTER_FAIL);
					_exit(modes[i].fn());
				}
				waitpid(pid, &status, 0);
				ok(WIFEXITED(status) &&
					   WEXITSTATUS(status) == modes[i].want,
				   "tty_modes: ioctl(%s) on a pty gets %d "
				   "(got %d)",
				   modes[i].name, modes[i].want,
				   WIFEXITED(status) ? WEXITSTATUS(status) :
						       -1);
			}
			syscallfilter_prog_free(&prog);
		}
	}

	/* Compiled in the parent, loaded in the child without allocating. */
	{
		struct syscallfilter_prog prog;
		pid_t pid;
		int status, rc;

		rc = syscallfilter_compile(false, false, false, &prog, why, sizeof(why));
		ok(rc == 0 && prog.len > 0 && prog.len % 8 == 0,
		   "syscallfilter_compile gives a BPF program (%zu bytes)", prog.len);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			if (syscallfilter_load(&prog, why, sizeof(why)) != 0)
				_exit(PROBE_FILTER_FAIL);
			_exit(p_unshare_user());
		}
		waitpid(pid, &status, 0);
		is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, EPERM,
		       "syscallfilter_load of the compiled program: unshare gets EPERM");
		syscallfilter_prog_free(&prog);
		ok(prog.insns == NULL && prog.len == 0,
		   "syscallfilter_prog_free clears the program");
	}

	/* The programs built with cordon (syscallfilter_gen) are, byte for
	 * byte, what syscallfilter_compile makes here, for every choice. */
	for (unsigned i = 0; i < SYSCALLFILTER_CHOICES; i++) {
		bool nu = i & 4, tty = i & 2, notify = i & 1;
		struct syscallfilter_prog bp, cp;
		int rg, rw;

		ok(syscallfilter_choice(nu, tty, notify) == i,
		   "syscallfilter_choice %u", i);
		ok(syscallfilter_built[i].len > 0,
		   "choice %u: a program was built with cordon", i);
		rg = syscallfilter_get(nu, tty, notify, &bp, why, sizeof(why));
		rw = syscallfilter_compile(nu, tty, notify, &cp, why,
					   sizeof(why));
		ok(rg == 0 && rw == 0 && bp.len == cp.len &&
			   memcmp(bp.insns, cp.insns, bp.len) == 0 &&
			   bp.insns != syscallfilter_built[i].insns,
		   "choice %u: syscallfilter_get gives a copy of the compiled "
		   "program (%zu and %zu bytes)",
		   i, bp.len, cp.len);
		if (rg == 0)
			syscallfilter_prog_free(&bp);
		if (rw == 0)
			syscallfilter_prog_free(&cp);
	}

	/* why is cleared on success. */
	memcpy(why, "junk", 5);
	{
		pid_t pid;
		int status;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			int rc = syscallfilter_apply(false, why, sizeof(why));

			_exit(rc == 0 && why[0] == '\0' ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "syscallfilter_apply returns 0 and clears why");
	}
	return tap_done();
}
