/* syscallfilter — the seccomp filter, built with libseccomp and loaded last.
 *
 * Default allow, with a deny list: every denied call fails with EPERM
 * (clone3 with ENOSYS) instead of killing, so a program can tell and tests
 * can see. The rules are tables, one row per call or per argument test.
 * Every comparison is fail-closed against junk in the upper 32 bits of an
 * int argument: such a value either fails the EQ of an allowed value or
 * lands in a denied range, and ioctl requests are masked to 32 bits the way
 * the kernel truncates them (CVE-2019-10063 in flatpak).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <asm/termbits.h> /* struct termios2, for TCSETS2 */
#include <netinet/in.h>
#include <sched.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "atomic.h"
#include "buf.h"
#include "syscallfilter.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

/* Ceiling on an exported filter; ours is a few KiB. */
#define SYSCALLFILTER_MAX_BYTES ((size_t)1 << 20)

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

/* Calls denied whatever their arguments. umount is i386's old umount. */
static const struct {
	const char *name;
	int nr;
} syscallfilter_denied[] = {
	{ "ptrace", SCMP_SYS(ptrace) },
	{ "process_vm_readv", SCMP_SYS(process_vm_readv) },
	{ "process_vm_writev", SCMP_SYS(process_vm_writev) },
	{ "io_uring_setup", SCMP_SYS(io_uring_setup) },
	{ "io_uring_enter", SCMP_SYS(io_uring_enter) },
	{ "io_uring_register", SCMP_SYS(io_uring_register) },
	{ "kexec_load", SCMP_SYS(kexec_load) },
	{ "kexec_file_load", SCMP_SYS(kexec_file_load) },
	{ "bpf", SCMP_SYS(bpf) },
	{ "perf_event_open", SCMP_SYS(perf_event_open) },
	{ "userfaultfd", SCMP_SYS(userfaultfd) },
	{ "keyctl", SCMP_SYS(keyctl) },
	{ "add_key", SCMP_SYS(add_key) },
	{ "request_key", SCMP_SYS(request_key) },
	{ "mount", SCMP_SYS(mount) },
	{ "umount", SCMP_SYS(umount) },
	{ "umount2", SCMP_SYS(umount2) },
	{ "pivot_root", SCMP_SYS(pivot_root) },
	{ "unshare", SCMP_SYS(unshare) },
	{ "setns", SCMP_SYS(setns) },
	{ "move_mount", SCMP_SYS(move_mount) },
	{ "open_tree", SCMP_SYS(open_tree) },
	{ "fsopen", SCMP_SYS(fsopen) },
	{ "fsmount", SCMP_SYS(fsmount) },
	{ "fspick", SCMP_SYS(fspick) },
	{ "mount_setattr", SCMP_SYS(mount_setattr) },
};

/* clone() flags that make a namespace (CLONE_NEWTIME is not among them:
 * in clone() that bit belongs to the exit signal). One rule per flag,
 * since the comparisons of one rule are ANDed. */
static const struct {
	const char *name;
	uint64_t flag;
} syscallfilter_clone_flags[] = {
	{ "CLONE_NEWNS", CLONE_NEWNS },
	{ "CLONE_NEWCGROUP", CLONE_NEWCGROUP },
	{ "CLONE_NEWUTS", CLONE_NEWUTS },
	{ "CLONE_NEWIPC", CLONE_NEWIPC },
	{ "CLONE_NEWUSER", CLONE_NEWUSER },
	{ "CLONE_NEWPID", CLONE_NEWPID },
	{ "CLONE_NEWNET", CLONE_NEWNET },
};

/* ioctl requests denied: typing into a terminal's input queue, the Linux
 * console's selection/paste commands, and changing a terminal's mode, line
 * discipline or console redirection. A terminal that reaches the sandbox
 * is the caller's (stdio is relayed through pipes otherwise): the command
 * must not leave it raw, without echo, with another line discipline, or
 * exclusive (no one else could open it).
 * Reading the mode (TCGETS) stays allowed. When the command's terminal is
 * a pty cordon made and relays (pty.c), the mode setters (mode) are
 * allowed: raw mode and echo are the command's own business there; typing
 * into the queue, another line discipline and console redirection never
 * are. */
static const struct {
	const char *name;
	uint64_t request;
	bool mode; /* a mode setter: allowed on a pty cordon relays */
} syscallfilter_ioctls[] = {
	{ "TIOCSTI", TIOCSTI, false },
	{ "TIOCLINUX", TIOCLINUX, false },
	{ "TCSETS", TCSETS, true },
	{ "TCSETSW", TCSETSW, true },
	{ "TCSETSF", TCSETSF, true },
	{ "TCSETA", TCSETA, true },
	{ "TCSETAW", TCSETAW, true },
	{ "TCSETAF", TCSETAF, true },
	{ "TCSETS2", TCSETS2, true },
	{ "TCSETSW2", TCSETSW2, true },
	{ "TCSETSF2", TCSETSF2, true },
	{ "TIOCSETD", TIOCSETD, false },
	{ "TIOCCONS", TIOCCONS, false },
	{ "TIOCSLCKTRMIOS", TIOCSLCKTRMIOS, true },
	{ "TIOCEXCL", TIOCEXCL, true }, /* no open of the terminal but root's */
};

/* fcntl commands denied: a lease on a host file lets the command stall
 * every host process that opens it (the opener waits up to
 * lease-break-time for the holder to let go). */
static const struct {
	const char *name;
	uint64_t cmd;
} syscallfilter_fcntls[] = {
	{ "F_SETLEASE", F_SETLEASE },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The clone flags argument: the second on s390 and CRIS, the first
 * elsewhere. */
#if defined(__s390__) || defined(__s390x__) || defined(__CRIS__)
#define SYSCALLFILTER_CLONE_FLAGS_ARG 1
#else
#define SYSCALLFILTER_CLONE_FLAGS_ARG 0
#endif

/* One argument comparison. libseccomp's SCMP_A0(op, x) leaves datum_b to
 * the compound literal's zero fill, which clang's
 * -Wmissing-field-initializers rejects: spell every field. */
static struct scmp_arg_cmp syscallfilter_cmp(unsigned arg, enum scmp_compare op,
				   scmp_datum_t a, scmp_datum_t b)
{
	struct scmp_arg_cmp c = {
		.arg = arg, .op = op, .datum_a = a, .datum_b = b
	};

	return c;
}

/* Adds the host's compat architectures to ctx (the native one is there
 * from seccomp_init). Returns 0 or a negative errno. */
static int syscallfilter_add_arches(scmp_filter_ctx ctx, const char **failed)
{
	static const struct {
		uint32_t native;
		uint32_t compat;
		const char *name;
	} compat[] = {
		{ SCMP_ARCH_X86_64, SCMP_ARCH_X86, "the x86 architecture" },
		{ SCMP_ARCH_X86_64, SCMP_ARCH_X32, "the x32 architecture" },
		{ SCMP_ARCH_AARCH64, SCMP_ARCH_ARM, "the arm architecture" },
		{ SCMP_ARCH_S390X, SCMP_ARCH_S390, "the s390 architecture" },
	};
	uint32_t native = seccomp_arch_native();
	int rc;

	for (size_t i = 0; i < ARRAY_LEN(compat); i++) {
		if (compat[i].native != native)
			continue;
		rc = seccomp_arch_add(ctx, compat[i].compat);
		if (rc != 0 && rc != -EEXIST) {
			*failed = compat[i].name;
			return rc;
		}
	}
	return 0;
}

/* AF_UNIX datagram sockets, from socket() and socketpair(): sendto and
 * sendmsg with a destination reach any bound path without a connect(),
 * out of the connect supervisor's sight (unixnotif.c), and a connected
 * datagram socket still takes a destination. SOCK_RAW is a datagram
 * socket for AF_UNIX; the type is masked of SOCK_NONBLOCK and
 * SOCK_CLOEXEC (the kernel's SOCK_TYPE_MASK), the family compared on its
 * low 32 bits as the kernel reads it. Stream sockets refuse a destination
 * (EOPNOTSUPP) and seqpacket ones ignore it. */
static int syscallfilter_add_dgram_rules(scmp_filter_ctx ctx,
					 const char **failed)
{
	const int nrs[] = { SCMP_SYS(socket), SCMP_SYS(socketpair) };
	const int types[] = { SOCK_DGRAM, SOCK_RAW };
	int rc;

	for (size_t i = 0; i < ARRAY_LEN(nrs); i++)
		for (size_t t = 0; t < ARRAY_LEN(types); t++) {
			rc = seccomp_rule_add(
				ctx, SCMP_ACT_ERRNO(EPERM), nrs[i], 2,
				syscallfilter_cmp(0, SCMP_CMP_MASKED_EQ,
						  0xffffffffu, AF_UNIX),
				syscallfilter_cmp(1, SCMP_CMP_MASKED_EQ, 0xfu,
						  (scmp_datum_t)types[t]));
			if (rc != 0) {
				*failed = "socket (AF_UNIX datagram)";
				return rc;
			}
		}
	return 0;
}

/* Landlock's TCP rules see IPPROTO_TCP only, and only connect(2) and
 * bind(2): an inet stream socket of another protocol (MPTCP, SCTP) and a
 * sendto/sendmsg with MSG_FASTOPEN (TCP Fast Open connects from inside
 * the send) reach any port past them, so both are refused: a stream
 * socket's protocol must be 0 or IPPROTO_TCP, no seqpacket inet socket
 * (SCTP), no MSG_FASTOPEN. The type is masked to SOCK_TYPE_MASK as the
 * kernel does; a protocol with junk above 32 bits is above IPPROTO_TCP. */
static int syscallfilter_add_inet_rules(scmp_filter_ctx ctx,
					const char **failed)
{
	const int families[] = { AF_INET, AF_INET6 };
	const struct {
		int nr;
		unsigned flags_arg;
	} sends[] = {
		{ SCMP_SYS(sendto), 3 },
		{ SCMP_SYS(sendmsg), 2 },
		{ SCMP_SYS(sendmmsg), 3 },
	};
	int rc;

	for (size_t i = 0; i < ARRAY_LEN(families); i++) {
		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 3,
			syscallfilter_cmp(0, SCMP_CMP_EQ,
					  (scmp_datum_t)families[i], 0),
			syscallfilter_cmp(1, SCMP_CMP_MASKED_EQ, 0xf,
					  SOCK_STREAM),
			syscallfilter_cmp(2, SCMP_CMP_GT, IPPROTO_TCP, 0));
		if (rc != 0) {
			*failed = "socket (inet stream protocols)";
			return rc;
		}
		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 2,
			syscallfilter_cmp(0, SCMP_CMP_EQ,
					  (scmp_datum_t)families[i], 0),
			syscallfilter_cmp(1, SCMP_CMP_MASKED_EQ, 0xf,
					  SOCK_SEQPACKET));
		if (rc != 0) {
			*failed = "socket (inet seqpacket)";
			return rc;
		}
	}
	for (size_t i = 0; i < ARRAY_LEN(sends); i++) {
		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), sends[i].nr, 1,
			syscallfilter_cmp(sends[i].flags_arg,
					  SCMP_CMP_MASKED_EQ, MSG_FASTOPEN,
					  MSG_FASTOPEN));
		if (rc != 0) {
			*failed = "MSG_FASTOPEN";
			return rc;
		}
	}
	return 0;
}

/* socket(): families other than AF_UNIX (unless no_unix), AF_INET,
 * AF_INET6 and AF_NETLINK are denied by one rule per value in the gaps
 * below the highest allowed family and one for everything above it;
 * AF_NETLINK only with protocol NETLINK_ROUTE. */
static int syscallfilter_add_socket_rules(scmp_filter_ctx ctx, bool no_unix,
				const char **failed)
{
	const int allowed[] = { AF_UNIX, AF_INET, AF_INET6, AF_NETLINK };
	int last = -1, rc;

	for (size_t i = 0; i < ARRAY_LEN(allowed); i++) {
		int family = allowed[i];

		if (family == AF_UNIX && no_unix)
			continue;
		for (int f = last + 1; f < family; f++) {
			rc = seccomp_rule_add(
				ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1,
				syscallfilter_cmp(0, SCMP_CMP_EQ, (scmp_datum_t)f, 0));
			if (rc != 0) {
				*failed = "socket (family)";
				return rc;
			}
		}
		last = family;
	}
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1,
			      syscallfilter_cmp(0, SCMP_CMP_GE, (scmp_datum_t)(last + 1),
				      0));
	if (rc != 0) {
		*failed = "socket (families above AF_NETLINK)";
		return rc;
	}
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 2,
			      syscallfilter_cmp(0, SCMP_CMP_EQ, AF_NETLINK, 0),
			      syscallfilter_cmp(2, SCMP_CMP_NE, NETLINK_ROUTE, 0));
	if (rc != 0) {
		*failed = "socket (AF_NETLINK protocols)";
		return rc;
	}
	rc = syscallfilter_add_dgram_rules(ctx, failed);
	if (rc != 0)
		return rc;
	return syscallfilter_add_inet_rules(ctx, failed);
}

/* Builds the whole filter into ctx. Returns 0 or a negative errno with
 * *failed naming the rule. */
static int syscallfilter_build(scmp_filter_ctx ctx, bool no_unix,
			       bool tty_modes, bool notify_connect,
			       const char **failed)
{
	int rc;

	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			      SCMP_ACT_KILL_PROCESS);
	if (rc != 0) {
		*failed = "the bad-architecture action";
		return rc;
	}
	rc = syscallfilter_add_arches(ctx, failed);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < ARRAY_LEN(syscallfilter_denied); i++) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
				      syscallfilter_denied[i].nr, 0);
		if (rc != 0) {
			*failed = syscallfilter_denied[i].name;
			return rc;
		}
	}
	for (size_t i = 0; i < ARRAY_LEN(syscallfilter_clone_flags); i++) {
		uint64_t f = syscallfilter_clone_flags[i].flag;

		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
			syscallfilter_cmp(SYSCALLFILTER_CLONE_FLAGS_ARG, SCMP_CMP_MASKED_EQ, f, f));
		if (rc != 0) {
			*failed = syscallfilter_clone_flags[i].name;
			return rc;
		}
	}
	/* clone3 passes its flags in memory, out of the filter's sight:
	 * ENOSYS makes glibc and others fall back to clone(). */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (rc != 0) {
		*failed = "clone3";
		return rc;
	}
	for (size_t i = 0; i < ARRAY_LEN(syscallfilter_ioctls); i++) {
		if (tty_modes && syscallfilter_ioctls[i].mode)
			continue;
		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
			syscallfilter_cmp(1, SCMP_CMP_MASKED_EQ, 0xffffffffu,
				syscallfilter_ioctls[i].request));
		if (rc != 0) {
			*failed = syscallfilter_ioctls[i].name;
			return rc;
		}
	}
	for (size_t i = 0; i < ARRAY_LEN(syscallfilter_fcntls); i++) {
		const int nrs[] = { SCMP_SYS(fcntl), SCMP_SYS(fcntl64) };

		for (size_t k = 0; k < ARRAY_LEN(nrs); k++) {
			rc = seccomp_rule_add(
				ctx, SCMP_ACT_ERRNO(EPERM), nrs[k], 1,
				syscallfilter_cmp(1, SCMP_CMP_MASKED_EQ,
						  0xffffffffu,
						  syscallfilter_fcntls[i].cmd));
			if (rc != 0) {
				*failed = syscallfilter_fcntls[i].name;
				return rc;
			}
		}
	}
	/* connect() goes to the supervisor in cordon's parent, which makes
	 * the call itself (unixnotif.c): every architecture's connect,
	 * and i386's socketcall(SYS_CONNECT) (libseccomp adds it). */
	if (notify_connect) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(connect),
				      0);
		if (rc != 0) {
			*failed = "connect (user notification)";
			return rc;
		}
	}
	/* prlimit64 setting another process's limits: on the landlock
	 * backend that process may be the host's (same user, no PID
	 * namespace), crippled by RLIMIT_NOFILE 1 or RLIMIT_CPU 0. The
	 * command's own (pid 0) and reading stay allowed. */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prlimit64),
			      2, syscallfilter_cmp(0, SCMP_CMP_NE, 0, 0),
			      syscallfilter_cmp(2, SCMP_CMP_NE, 0, 0));
	if (rc != 0) {
		*failed = "prlimit64 (another process)";
		return rc;
	}
	/* setpriority of another process or group, or of every process of
	 * the user (PRIO_USER, whoever is named): the same host processes,
	 * left at nice 19 (an unprivileged user cannot raise them again).
	 * The command's own (who 0) stays allowed, so nice(1) works. */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpriority),
			      1, syscallfilter_cmp(1, SCMP_CMP_NE, 0, 0));
	if (rc == 0)
		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpriority), 1,
			syscallfilter_cmp(0, SCMP_CMP_MASKED_EQ, 0xffffffffu,
					  PRIO_USER));
	if (rc != 0) {
		*failed = "setpriority (another process)";
		return rc;
	}
	/* Likewise the I/O class (ioprio_set: who, or IOPRIO_WHO_USER), the
	 * CPUs and the scheduler of another process or thread (taskset,
	 * ionice and chrt of a command, pid 0, stay allowed). */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioprio_set),
			      1, syscallfilter_cmp(1, SCMP_CMP_NE, 0, 0));
	if (rc == 0)
		rc = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioprio_set), 1,
			syscallfilter_cmp(0, SCMP_CMP_MASKED_EQ, 0xffffffffu,
					  3 /* IOPRIO_WHO_USER */));
	if (rc != 0) {
		*failed = "ioprio_set (another process)";
		return rc;
	}
	{
		static const struct {
			const char *name;
			int nr;
		} by_pid[] = {
			{ "sched_setaffinity", SCMP_SYS(sched_setaffinity) },
			{ "sched_setscheduler", SCMP_SYS(sched_setscheduler) },
			{ "sched_setparam", SCMP_SYS(sched_setparam) },
			{ "sched_setattr", SCMP_SYS(sched_setattr) },
		};

		for (size_t i = 0; i < ARRAY_LEN(by_pid); i++) {
			rc = seccomp_rule_add(
				ctx, SCMP_ACT_ERRNO(EPERM), by_pid[i].nr, 1,
				syscallfilter_cmp(0, SCMP_CMP_NE, 0, 0));
			if (rc != 0) {
				*failed = by_pid[i].name;
				return rc;
			}
		}
	}
	return syscallfilter_add_socket_rules(ctx, no_unix, failed);
}

/* Reads the whole of fd (from offset 0) into a malloc'd buffer, at most
 * SYSCALLFILTER_MAX_BYTES. Returns 0 or an errno value. */
static int syscallfilter_slurp(int fd, unsigned char **out, size_t *len)
{
	struct buf b = BUF_INIT(SYSCALLFILTER_MAX_BYTES);

	if (lseek(fd, 0, SEEK_SET) != 0)
		return errno;
	if (atomic_read_all(fd, &b) != 0) {
		int err = errno;

		buf_free(&b);
		return err;
	}
	*out = (unsigned char *)buf_take(&b, len);
	return *out ? 0 : ENOMEM;
}

int syscallfilter_compile(bool no_unix_sockets, bool tty_modes,
			  bool notify_connect, struct syscallfilter_prog *out,
			  char *why, size_t whycap)
{
	scmp_filter_ctx ctx;
	const char *failed = "?";
	int rc, fd;

	out->insns = NULL;
	out->len = 0;
	text_setf(why, whycap, "%s", "");
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		text_setf(why, whycap, "seccomp: init: out of memory");
		return -1;
	}
	rc = syscallfilter_build(ctx, no_unix_sockets, tty_modes,
				 notify_connect, &failed);
	if (rc != 0) {
		text_setf(why, whycap, "seccomp: add rule for %s: %s", failed,
			  strerror(-rc));
		seccomp_release(ctx);
		return -1;
	}
	fd = memfd_create("cordon-seccomp", MFD_CLOEXEC);
	if (fd < 0) {
		text_setf(why, whycap, "seccomp: memfd_create: %s",
			  strerror(errno));
		seccomp_release(ctx);
		return -1;
	}
	rc = seccomp_export_bpf(ctx, fd);
	seccomp_release(ctx);
	if (rc != 0) {
		text_setf(why, whycap, "seccomp: export the filter: %s",
			  strerror(-rc));
		close(fd);
		return -1;
	}
	rc = syscallfilter_slurp(fd, &out->insns, &out->len);
	close(fd);
	if (rc != 0 || out->len == 0 ||
	    out->len % sizeof(struct sock_filter) != 0 ||
	    out->len / sizeof(struct sock_filter) > USHRT_MAX) {
		text_setf(why, whycap, "seccomp: read the exported filter: %s",
			  rc ? strerror(rc) : "bad length");
		syscallfilter_prog_free(out);
		return -1;
	}
	return 0;
}

int syscallfilter_load(const struct syscallfilter_prog *p, char *why, size_t whycap)
{
	struct sock_fprog prog = {
		.len = (unsigned short)(p->len / sizeof(struct sock_filter)),
		.filter = (struct sock_filter *)p->insns,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		text_setf(why, whycap, "seccomp: set no_new_privs: %s",
			  strerror(errno));
		return -1;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		text_setf(why, whycap, "seccomp: load the filter: %s",
			  strerror(errno));
		return -1;
	}
	return 0;
}

/* Every return of SECCOMP_RET_USER_NOTIF becomes SECCOMP_RET_ALLOW: the
 * filter without its supervisor (a connect to a listener that is not
 * there would fail with ENOSYS). In place, no allocation. */
static void syscallfilter_drop_notify(struct syscallfilter_prog *p)
{
	struct sock_filter *f = (struct sock_filter *)(void *)p->insns;
	size_t n = p->len / sizeof(*f);

	for (size_t i = 0; i < n; i++)
		if (f[i].code == (BPF_RET | BPF_K) &&
		    (f[i].k & SECCOMP_RET_ACTION_FULL) ==
			    SECCOMP_RET_USER_NOTIF)
			f[i].k = SECCOMP_RET_ALLOW;
}

int syscallfilter_load_listen(struct syscallfilter_prog *p, int *listener,
			      int *listen_err, char *why, size_t whycap)
{
	struct sock_fprog prog = {
		.len = (unsigned short)(p->len / sizeof(struct sock_filter)),
		.filter = (struct sock_filter *)p->insns,
	};
	long fd;

	*listener = -1;
	*listen_err = 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		text_setf(why, whycap, "seccomp: set no_new_privs: %s",
			  strerror(errno));
		return -1;
	}
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd >= 0) {
		*listener = (int)fd;
		return 0;
	}
	/* EBUSY: an enclosing filter has a listener already (cordon inside
	 * cordon); EINVAL: no such flag. */
	*listen_err = errno;
	syscallfilter_drop_notify(p);
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		text_setf(why, whycap, "seccomp: load the filter: %s",
			  strerror(errno));
		return -1;
	}
	return 0;
}

void syscallfilter_prog_free(struct syscallfilter_prog *p)
{
	if (!p)
		return;
	free(p->insns);
	p->insns = NULL;
	p->len = 0;
}

int syscallfilter_apply(bool no_unix_sockets, char *why, size_t whycap)
{
	struct syscallfilter_prog prog;
	int rc;

	if (syscallfilter_compile(no_unix_sockets, false, false, &prog, why,
				  whycap) != 0)
		return -1;
	rc = syscallfilter_load(&prog, why, whycap);
	syscallfilter_prog_free(&prog);
	return rc;
}
