/* attempt — one escape attempt per run, for tests/escape/escape.sh.
 *
 *	attempt NAME ARGS...
 *
 * Prints one line on stdout. "ok ..." means the attempt succeeded: run on
 * the host that proves the attempt is real, run inside `cordon run` it is
 * an escape. Otherwise the line starts with the errno name of the refused
 * step (EROFS, EPERM …), prefixed by the step when an attempt has several
 * ("remount:EPERM"); more words may follow. Exit status 0 for ok, 1 for a
 * refusal, 2 for a usage or setup error.
 *
 * The same binary holds the host-side helpers the suite needs: listeners
 * that log every connection or datagram they get, a process that sits, the
 * file handle of a path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define ATTEMPT_PROG "attempt"
#include "attempt.h"

#define MAX_FORKS 4096

/* Prints up to n bytes of buf with non-printable bytes as '.'. */
static void print_safe(const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		putchar(c >= 0x20 && c < 0x7f ? c : '.');
	}
}

/* ---- the filesystem ---- */

static int at_write(char **a)
{
	int fd = open(a[0], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return refused(NULL, errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	close(fd);
	return okay("wrote %s", a[0]);
}

/* Makes the missing parent directories of PATH (an existing one is fine),
 * then writes PATH. */
static int at_mkwrite(char **a)
{
	char dir[PATH_MAX];
	size_t n = strlen(a[0]);

	if (n >= sizeof(dir))
		return 2;
	memcpy(dir, a[0], n + 1);
	for (char *p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return refused("mkdir", errno, "%s", dir);
		*p = '/';
	}
	return at_write(a);
}

/* Opens for writing and writes nothing: for targets where a write would
 * do harm if the sandbox failed (/etc/passwd, /proc/sys/...). */
static int at_openw(char **a)
{
	int fd = open(a[0], O_WRONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return refused(NULL, errno, NULL);
	close(fd);
	return okay("opened %s for writing", a[0]);
}

static int at_read(char **a)
{
	char buf[256];
	ssize_t n;
	int fd = open(a[0], O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return refused(NULL, errno, NULL);
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return refused("read", errno, NULL);
	close(fd);
	printf("ok read %zd:", n);
	print_safe(buf, (size_t)n);
	putchar('\n');
	return 0;
}

/* waitread READY GO PATH: says it runs (creates READY), waits up to 20 s
 * for GO (made by the host once PATH exists), then reads PATH: a file
 * that appeared on the host during the run. */
static int at_waitread(char **a)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int fd = open(a[0], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return refused("ready", errno, NULL);
	close(fd);
	for (int i = 0; i < 1000 && access(a[1], F_OK) != 0; i++)
		nanosleep(&ts, NULL);
	if (access(a[1], F_OK) != 0)
		return refused("go", ETIMEDOUT, NULL);
	return at_read(a + 2);
}

static int at_list(char **a)
{
	DIR *d = opendir(a[0]);
	struct dirent *e;
	int n = 0;

	if (!d)
		return refused(NULL, errno, NULL);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return okay("list %d", n);
}

static int at_mkdir(char **a)
{
	if (mkdir(a[0], 0755))
		return refused(NULL, errno, NULL);
	return okay("made %s", a[0]);
}

static int at_unlink(char **a)
{
	if (unlink(a[0]))
		return refused(NULL, errno, NULL);
	return okay("unlinked %s", a[0]);
}

static int at_rename(char **a)
{
	if (rename(a[0], a[1]))
		return refused(NULL, errno, NULL);
	return okay("renamed %s to %s", a[0], a[1]);
}

static int at_link(char **a)
{
	if (link(a[0], a[1]))
		return refused(NULL, errno, NULL);
	return okay("linked %s to %s", a[1], a[0]);
}

/* plant TARGET LINK: LINK (removed first) becomes a symlink to TARGET. */
static int at_plant(char **a)
{
	if (unlink(a[1]) && errno != ENOENT)
		return refused("unlink", errno, NULL);
	if (symlink(a[0], a[1]))
		return refused(NULL, errno, NULL);
	return okay("planted %s -> %s", a[1], a[0]);
}

static int at_truncate(char **a)
{
	if (truncate(a[0], 0))
		return refused(NULL, errno, NULL);
	return okay("truncated %s", a[0]);
}

static int at_chmod(char **a)
{
	if (chmod(a[0], 04777))
		return refused(NULL, errno, NULL);
	return okay("chmod 4777 %s", a[0]);
}

static int at_chown(char **a)
{
	if (chown(a[0], 65534, 65534))
		return refused(NULL, errno, NULL);
	return okay("chown 65534 %s", a[0]);
}

static int at_setxattr(char **a)
{
	if (setxattr(a[0], "user.cordon-escape", "x", 1, 0))
		return refused(NULL, errno, NULL);
	return okay("setxattr %s", a[0]);
}

/* Makes a block device node for MAJOR:MINOR and, when that works, opens
 * it for reading (a raw disk read bypasses every file permission). */
static int at_mknod(char **a)
{
	dev_t dev = makedev((unsigned)number(a[1]), (unsigned)number(a[2]));
	int fd;

	if (mknod(a[0], S_IFBLK | 0600, dev))
		return refused(NULL, errno, NULL);
	fd = open(a[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return okay("mknod %s, open %s", a[0], strerrorname_np(errno));
	close(fd);
	return okay("mknod %s, opened", a[0]);
}

/* Moves FROM aside to TO, then makes PATH with its parents and writes it:
 * a read-only mount inside a writable root must not be moved out of the
 * way (rename .git, or a directory above it, and plant a new hook). */
static int at_mvwrite(char **a)
{
	if (rename(a[0], a[1]))
		return refused("rename", errno, NULL);
	return at_mkwrite(a + 2);
}

/* ---- mounts and namespaces ---- */

static int at_mount(char **a)
{
	if (mount("cordon", a[0], "tmpfs", 0, "size=64k"))
		return refused(NULL, errno, NULL);
	return okay("mounted tmpfs on %s", a[0]);
}

/* Remounts the root read-write, then writes PATH. */
static int at_remount(char **a)
{
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL))
		return refused("remount", errno, NULL);
	return at_write(a);
}

static int at_fsopen(char **a)
{
	(void)a;
	if (syscall(SYS_fsopen, "tmpfs", 0) < 0)
		return refused(NULL, errno, NULL);
	return okay("fsopen tmpfs");
}

static int at_open_tree(char **a)
{
	(void)a;
	if (syscall(SYS_open_tree, AT_FDCWD, "/", 1 /* OPEN_TREE_CLONE */) < 0)
		return refused(NULL, errno, NULL);
	return okay("open_tree / clone");
}

/* umount2 and pivot_root on paths that do not exist: the permission check
 * comes before the lookup, so ENOENT means "allowed" and nothing moves. */
static int at_umount(char **a)
{
	(void)a;
	if (umount2("/cordon-escape-nonexistent", MNT_DETACH) == 0)
		return okay("umount2");
	if (errno == ENOENT || errno == EINVAL)
		return okay("umount2 permitted (%s)", strerrorname_np(errno));
	return refused(NULL, errno, NULL);
}

static int at_pivot_root(char **a)
{
	(void)a;
	if (syscall(SYS_pivot_root, "/cordon-escape-nonexistent-a",
		    "/cordon-escape-nonexistent-b") == 0)
		return okay("pivot_root");
	if (errno == ENOENT)
		return okay("pivot_root permitted (ENOENT)");
	return refused(NULL, errno, NULL);
}

static int ns_flag(const char *s)
{
	static const struct {
		const char *name;
		int flag;
	} t[] = {
		{"user", CLONE_NEWUSER}, {"mnt", CLONE_NEWNS},
		{"net", CLONE_NEWNET},	 {"pid", CLONE_NEWPID},
		{"uts", CLONE_NEWUTS},	 {"ipc", CLONE_NEWIPC},
		{"cgroup", CLONE_NEWCGROUP},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name))
			return t[i].flag;
	fprintf(stderr, "attempt: unknown namespace %s\n", s);
	exit(2);
}

static int at_unshare(char **a)
{
	if (unshare(ns_flag(a[0])))
		return refused(NULL, errno, NULL);
	return okay("unshare %s", a[0]);
}

/* clone(2) with a new-namespace flag; the child exits at once. */
static int at_clone(char **a)
{
	long pid = syscall(SYS_clone, ns_flag(a[0]) | SIGCHLD, NULL, NULL,
			   NULL, NULL);

	if (pid < 0)
		return refused(NULL, errno, NULL);
	if (pid == 0)
		_exit(0);
	waitpid((pid_t)pid, NULL, 0);
	return okay("clone new %s", a[0]);
}

static int at_clone3(char **a)
{
	struct clone_args ca;
	long pid;

	memset(&ca, 0, sizeof(ca));
	ca.flags = (uint64_t)ns_flag(a[0]);
	ca.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid < 0)
		return refused(NULL, errno, NULL);
	if (pid == 0)
		_exit(0);
	waitpid((pid_t)pid, NULL, 0);
	return okay("clone3 new %s", a[0]);
}

static int at_setns(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return refused("open", errno, NULL);
	if (setns(fd, 0))
		return refused("setns", errno, NULL);
	return okay("setns %s", a[0]);
}

/* unshare(CLONE_NEWUSER) through the i386 system call table (int $0x80):
 * a seccomp filter that covers only x86-64 misses it. */
static int at_int80_unshare(char **a)
{
#if defined(__x86_64__)
	long r;

	(void)a;
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(310L /* i386 unshare */), "b"((long)CLONE_NEWUSER)
			 : "memory");
	if (r < 0)
		return refused(NULL, (int)-r, NULL);
	return okay("i386 unshare(CLONE_NEWUSER)");
#else
	(void)a;
	printf("skip not x86-64\n");
	return 2;
#endif
}

/* ---- other processes ---- */

static int at_ptrace(char **a)
{
	pid_t pid = (pid_t)number(a[0]);

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return refused(NULL, errno, NULL);
	waitpid(pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return okay("attached to %d", (int)pid);
}

/* Reads 8 bytes at an address of PID: EFAULT means the permission check
 * passed (only the address was wrong). */
static int at_vmread(char **a)
{
	pid_t pid = (pid_t)number(a[0]);
	char buf[8];
	struct iovec l = {buf, sizeof(buf)};
	struct iovec r = {(void *)(uintptr_t)0x10000, sizeof(buf)};

	if (process_vm_readv(pid, &l, 1, &r, 1, 0) >= 0)
		return okay("read the memory of %d", (int)pid);
	if (errno == EFAULT)
		return okay("process_vm_readv permitted (EFAULT)");
	return refused(NULL, errno, NULL);
}

static int at_kill(char **a)
{
	if (kill((pid_t)number(a[0]), (int)number(a[1])))
		return refused(NULL, errno, NULL);
	return okay("signalled %s", a[0]);
}

/* Lowers the priority, CPUs, scheduler or I/O class of processes that
 * may be the host's: WHICH is proc, pgrp or user (setpriority, ioprio),
 * WHO their id (0: the caller's own). */
static int prio_which(const char *w, int *which, int *iowhich)
{
	static const struct {
		const char *name;
		int which, iowhich;
	} t[] = { { "proc", PRIO_PROCESS, 1 },
		  { "pgrp", PRIO_PGRP, 2 },
		  { "user", PRIO_USER, 3 } };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(w, t[i].name) == 0) {
			*which = t[i].which;
			*iowhich = t[i].iowhich;
			return 0;
		}
	return -1;
}

static int at_prio(char **a)
{
	int which, iowhich;

	if (prio_which(a[0], &which, &iowhich))
		return 2;
	if (setpriority(which, (id_t)number(a[1]), 19))
		return refused(NULL, errno, NULL);
	return okay("nice 19 for %s %s", a[0], a[1]);
}

static int at_ioprio(char **a)
{
	int which, iowhich;

	if (prio_which(a[0], &which, &iowhich))
		return 2;
	/* IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT */
	if (syscall(SYS_ioprio_set, iowhich, (int)number(a[1]), 3 << 13))
		return refused(NULL, errno, NULL);
	return okay("idle I/O class for %s %s", a[0], a[1]);
}

static int at_setaffinity(char **a)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity((pid_t)number(a[0]), sizeof(set), &set))
		return refused(NULL, errno, NULL);
	return okay("pid %s pinned to cpu 0", a[0]);
}

static int at_setsched(char **a)
{
	struct sched_param sp = { 0 };

	if (sched_setscheduler((pid_t)number(a[0]), SCHED_IDLE, &sp))
		return refused(NULL, errno, NULL);
	return okay("pid %s made SCHED_IDLE", a[0]);
}

/* Pushes 'Z' into the input queue of the terminal on FD. */
static int at_tiocsti(char **a)
{
	char c = 'Z';

	if (ioctl((int)number(a[0]), TIOCSTI, &c))
		return refused(NULL, errno, NULL);
	return okay("TIOCSTI pushed a byte");
}

/* The same through the i386 table (ioctl is 54 there); the byte must sit
 * below 4 GiB for a 32-bit pointer. */
static int at_int80_tiocsti(char **a)
{
#if defined(__x86_64__)
	char *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	long r;

	if (c == MAP_FAILED)
		return refused("mmap", errno, NULL);
	*c = 'Z';
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(54L /* i386 ioctl */), "b"(number(a[0])),
			   "c"((long)TIOCSTI), "d"((long)(uintptr_t)c)
			 : "memory");
	if (r < 0)
		return refused(NULL, (int)-r, NULL);
	return okay("i386 TIOCSTI pushed a byte");
#else
	(void)a;
	printf("skip not x86-64\n");
	return 2;
#endif
}

static int at_euid(char **a)
{
	(void)a;
	return okay("euid %d ruid %d", (int)geteuid(), (int)getuid());
}

static int at_nnp(char **a)
{
	(void)a;
	return okay("nnp %d", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
}

/* Core dumps: prints the limit, then tries to raise it. */
static int at_core(char **a)
{
	struct rlimit rl, inf = {RLIM_INFINITY, RLIM_INFINITY};

	(void)a;
	if (getrlimit(RLIMIT_CORE, &rl))
		return refused("getrlimit", errno, NULL);
	if (setrlimit(RLIMIT_CORE, &inf))
		return refused("raise", errno, "core %llu/%llu",
			       (unsigned long long)rl.rlim_cur,
			       (unsigned long long)rl.rlim_max);
	return okay("raised core from %llu/%llu",
		    (unsigned long long)rl.rlim_cur,
		    (unsigned long long)rl.rlim_max);
}

static int resource_of(const char *s)
{
	static const struct {
		const char *name;
		int res;
	} t[] = {
		{"as", RLIMIT_AS},	   {"cpu", RLIMIT_CPU},
		{"nproc", RLIMIT_NPROC},   {"core", RLIMIT_CORE},
		{"fsize", RLIMIT_FSIZE},   {"nofile", RLIMIT_NOFILE},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name))
			return t[i].res;
	fprintf(stderr, "attempt: unknown resource %s\n", s);
	exit(2);
}

/* Raises a resource limit's hard and soft values to unlimited. */
static int at_raise(char **a)
{
	struct rlimit inf = {RLIM_INFINITY, RLIM_INFINITY};

	if (setrlimit(resource_of(a[0]), &inf))
		return refused(NULL, errno, NULL);
	return okay("raised %s to unlimited", a[0]);
}

/* Capability probes that do nothing when permitted: each call fails on
 * its arguments right after the capability check, so EPERM means
 * "refused" and the other error means "the capability is there". */
static int at_reboot(char **a)
{
	(void)a;
	if (syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, 0 /* bad magic */,
		    LINUX_REBOOT_CMD_CAD_OFF, NULL) == 0 ||
	    errno == EINVAL)
		return okay("reboot permitted (CAP_SYS_BOOT)");
	return refused(NULL, errno, NULL);
}

static int at_sethostname(char **a)
{
	char name[80];

	(void)a;
	memset(name, 'x', sizeof(name));
	if (sethostname(name, 65 /* > __NEW_UTS_LEN */) == 0 ||
	    errno == EINVAL)
		return okay("sethostname permitted (CAP_SYS_ADMIN)");
	return refused(NULL, errno, NULL);
}

static int at_ifflags(char **a)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	(void)a;
	if (fd < 0)
		return refused("socket", errno, NULL);
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "cordonnoif0", sizeof("cordonnoif0"));
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) == 0 || errno == ENODEV)
		return okay("SIOCSIFFLAGS permitted (CAP_NET_ADMIN)");
	return refused(NULL, errno, NULL);
}

static int at_caps(char **a)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	(void)a;
	if (!f)
		return refused(NULL, errno, NULL);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			fclose(f);
			line[strcspn(line, "\n")] = '\0';
			return okay("%s", line);
		}
	fclose(f);
	return 2;
}

static int at_env(char **a)
{
	extern char **environ;

	(void)a;
	fputs("ok env", stdout);
	for (char **e = environ; *e; e++)
		printf(" %.*s", (int)strcspn(*e, "="), *e);
	putchar('\n');
	return 0;
}

/* ---- kernel interfaces ---- */

static int at_bpf(char **a)
{
	union bpf_attr attr;

	(void)a;
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	if (syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr)) < 0)
		return refused(NULL, errno, NULL);
	return okay("bpf map created");
}

static int at_io_uring(char **a)
{
	struct io_uring_params p;

	(void)a;
	memset(&p, 0, sizeof(p));
	if (syscall(SYS_io_uring_setup, 4, &p) < 0)
		return refused(NULL, errno, NULL);
	return okay("io_uring set up");
}

static int at_keyctl(char **a)
{
	(void)a;
	if (syscall(SYS_add_key, "user", "cordon-escape", "x", (size_t)1,
		    KEY_SPEC_PROCESS_KEYRING) < 0)
		return refused("add_key", errno, NULL);
	return okay("key added");
}

static int at_userfaultfd(char **a)
{
	(void)a;
	if (syscall(SYS_userfaultfd, O_CLOEXEC) < 0)
		return refused(NULL, errno, NULL);
	return okay("userfaultfd");
}

static int at_perf(char **a)
{
	struct perf_event_attr pe;

	(void)a;
	memset(&pe, 0, sizeof(pe));
	pe.type = PERF_TYPE_SOFTWARE;
	pe.size = sizeof(pe);
	pe.config = PERF_COUNT_SW_CPU_CLOCK;
	pe.disabled = 1;
	if (syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0) < 0)
		return refused(NULL, errno, NULL);
	return okay("perf event opened");
}

/* finit_module with a bad fd: EPERM is the capability check, EBADF
 * means it was passed. */
static int at_finit_module(char **a)
{
	(void)a;
	if (syscall(SYS_finit_module, -1, "", 0) == 0 || errno == EBADF)
		return okay("finit_module permitted");
	return refused(NULL, errno, NULL);
}

/* Prints the file handle of PATH as TYPE:HEX (a host-side helper). */
static int at_handle(char **a)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h;
	int mnt;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, a[0], &h.fh, &mnt, 0))
		return refused(NULL, errno, NULL);
	printf("%d:", h.fh.handle_type);
	for (unsigned i = 0; i < h.fh.handle_bytes; i++)
		printf("%02x", (unsigned char)h.fh.f_handle[i]);
	putchar('\n');
	return 0;
}

/* Opens a file by the handle from `attempt handle` (the "shocker"
 * escape: it needs no path, so no mount can hide the file) and reads it;
 * by-handle-at opens a directory by its handle and reads NAME beneath it
 * (a masked directory's real contents). */
static int by_handle(const char *hex, const char *name)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h;
	const char *p = strchr(hex, ':');
	char buf[256];
	ssize_t n;
	int root, fd;
	unsigned i;

	if (!p)
		return 2;
	h.fh.handle_type = (int)strtol(hex, NULL, 10);
	for (i = 0, p++; p[0] && p[1] && i < MAX_HANDLE_SZ; i++, p += 2) {
		char two[3] = {p[0], p[1], '\0'};

		h.fh.f_handle[i] = (unsigned char)strtoul(two, NULL, 16);
	}
	h.fh.handle_bytes = i;
	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return refused("open-root", errno, NULL);
	fd = open_by_handle_at(root, &h.fh, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return refused(NULL, errno, NULL);
	if (name) {
		int dfd = fd;

		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return refused("openat", errno, NULL);
	}
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return refused("read", errno, NULL);
	printf("ok read %zd:", n);
	print_safe(buf, (size_t)n);
	putchar('\n');
	return 0;
}

static int at_by_handle(char **a)
{
	return by_handle(a[0], NULL);
}

static int at_by_handle_at(char **a)
{
	return by_handle(a[0], a[1]);
}

static int at_socket(char **a)
{
	static const struct {
		const char *name;
		int family, type, proto;
	} t[] = {
		{"vsock", AF_VSOCK, SOCK_STREAM, 0},
		{"packet", AF_PACKET, SOCK_RAW, 0x0300 /* htons(ETH_P_ALL) */},
		{"netlink-uevent", AF_NETLINK, SOCK_RAW,
		 NETLINK_KOBJECT_UEVENT},
		{"netlink-audit", AF_NETLINK, SOCK_RAW, NETLINK_AUDIT},
		{"netlink-route", AF_NETLINK, SOCK_RAW, NETLINK_ROUTE},
		{"raw", AF_INET, SOCK_RAW, IPPROTO_ICMP},
		{"unix", AF_UNIX, SOCK_STREAM, 0},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (strcmp(a[0], t[i].name))
			continue;
		if (socket(t[i].family, t[i].type | SOCK_CLOEXEC,
			   t[i].proto) < 0)
			return refused(NULL, errno, NULL);
		return okay("%s socket", a[0]);
	}
	fprintf(stderr, "attempt: unknown socket kind %s\n", a[0]);
	return 2;
}

/* ---- the network ---- */

/* Fills ss from ADDR (IPv4 or IPv6) and PORT; returns its length. */
static socklen_t inet_addr_of(const char *addr, const char *port,
			      struct sockaddr_storage *ss)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)number(port));
		return sizeof(*in4);
	}
	if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)number(port));
		return sizeof(*in6);
	}
	fprintf(stderr, "attempt: not an address: %s\n", addr);
	exit(2);
}

static int at_tcp(char **a)
{
	struct sockaddr_storage ss;
	socklen_t len = inet_addr_of(a[0], a[1], &ss);
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return refused("socket", errno, NULL);
	if (connect(fd, (struct sockaddr *)&ss, len))
		return refused(NULL, errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	close(fd);
	return okay("connected to %s:%s", a[0], a[1]);
}

static int at_udp(char **a)
{
	struct sockaddr_storage ss;
	socklen_t len = inet_addr_of(a[0], a[1], &ss);
	int fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return refused("socket", errno, NULL);
	for (int i = 0; i < 3; i++) {
		if (sendto(fd, "ESCAPED\n", 8, 0, (struct sockaddr *)&ss,
			   len) != 8)
			return refused(NULL, errno, "after %d datagrams", i);
		usleep(20000);
	}
	return okay("sent 3 datagrams to %s:%s", a[0], a[1]);
}

/* Fills un with a path, or with an abstract name when abstract is set;
 * returns its length. */
static socklen_t unix_addr_of(const char *name, int abstract,
			      struct sockaddr_un *un)
{
	size_t n = strlen(name);

	memset(un, 0, sizeof(*un));
	un->sun_family = AF_UNIX;
	if (n + 1 >= sizeof(un->sun_path)) {
		fprintf(stderr, "attempt: socket name too long: %s\n", name);
		exit(2);
	}
	memcpy(un->sun_path + (abstract ? 1 : 0), name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			   (abstract ? 1 : 0));
}

static int unix_connect(const char *name, int abstract)
{
	struct sockaddr_un un;
	socklen_t len = unix_addr_of(name, abstract, &un);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return refused("socket", errno, NULL);
	if (connect(fd, (struct sockaddr *)&un, len))
		return refused(NULL, errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	close(fd);
	return okay("connected to %s%s", abstract ? "@" : "", name);
}

static int at_abstract(char **a)
{
	return unix_connect(a[0], 1);
}

/* unixdgram PATH: one datagram to a host's datagram socket. */
static int at_unixdgram(char **a)
{
	struct sockaddr_un un;
	socklen_t len = unix_addr_of(a[0], 0, &un);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return refused("socket", errno, NULL);
	if (sendto(fd, "ESCAPED\n", 8, 0, (struct sockaddr *)&un, len) != 8)
		return refused(NULL, errno, NULL);
	close(fd);
	return okay("sent to %s", a[0]);
}

static int at_unixpath(char **a)
{
	return unix_connect(a[0], 0);
}

/* ---- inherited descriptors ---- */

static int at_fdwrite(char **a)
{
	if (write((int)number(a[0]), "ESCAPED\n", 8) != 8)
		return refused(NULL, errno, NULL);
	return okay("wrote to fd %s", a[0]);
}

static int at_fdopenat(char **a)
{
	int fd = openat((int)number(a[0]), a[1],
			O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return refused(NULL, errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	return okay("created %s beneath fd %s", a[1], a[0]);
}

static int at_procfd(char **a)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", (int)number(a[0]));
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return refused(NULL, errno, NULL);
	if (write(fd, "ESCAPED\n", 8) != 8)
		return refused("write", errno, NULL);
	return okay("wrote through %s", path);
}

/* fdmeta FD PATH chmod|chown|utimes|xattr: metadata through a descriptor
 * the caller handed in (stdin on PATH, a file outside): no path is
 * resolved, only the descriptor decides. When the call works on a
 * descriptor that is not PATH (cordon relayed stdio through its own pipe
 * or socket), the line is "relayed": nothing reached PATH. */
static int at_fdmeta(char **a)
{
	int fd = (int)number(a[0]);
	struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
	struct stat fs, ps;
	int r;

	if (!strcmp(a[2], "chmod"))
		r = fchmod(fd, 0606);
	else if (!strcmp(a[2], "chown"))
		r = fchown(fd, 65534, 65534);
	else if (!strcmp(a[2], "utimes"))
		r = futimens(fd, ts);
	else if (!strcmp(a[2], "xattr"))
		r = fsetxattr(fd, "user.cordon-escape", "x", 1, 0);
	else
		return refused("usage", EINVAL, "%s", a[2]);
	if (r)
		return refused(NULL, errno, NULL);
	if (fstat(fd, &fs) || stat(a[1], &ps) || fs.st_dev != ps.st_dev ||
	    fs.st_ino != ps.st_ino) {
		printf("relayed %s on fd %s, which is not %s\n", a[2], a[0],
		       a[1]);
		return 1;
	}
	return okay("%s of %s through fd %s", a[2], a[1], a[0]);
}

/* A read lease on a host file: every host process that opens it for
 * writing then waits for the holder (lease-break-time). */
static int at_lease(char **a)
{
	int fd = open(a[0], O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return refused("open", errno, NULL);
	if (fcntl(fd, F_SETLEASE, F_RDLCK))
		return refused(NULL, errno, NULL);
	(void)fcntl(fd, F_SETLEASE, F_UNLCK);
	return okay("lease on %s", a[0]);
}

/* Turns echo off on the terminal at FD (and back on when that worked). */
static int at_tcsets(char **a)
{
	int fd = (int)number(a[0]);
	struct termios t, o;

	if (tcgetattr(fd, &t))
		return refused("tcgetattr", errno, NULL);
	o = t;
	t.c_lflag &= ~(tcflag_t)(ECHO | ICANON);
	if (tcsetattr(fd, TCSANOW, &t))
		return refused(NULL, errno, NULL);
	(void)tcsetattr(fd, TCSANOW, &o);
	return okay("echo off on fd %s", a[0]);
}

/* Opens the terminal at PATH (rw: for reading and writing, ro: for
 * reading) and turns echo off on it (back on when that worked): the
 * caller's terminal reached by path, not by an inherited descriptor. */
static int at_ttyopen(char **a)
{
	int fd = open(a[0], (strcmp(a[1], "ro") == 0 ? O_RDONLY : O_RDWR) |
				    O_NOCTTY | O_CLOEXEC);
	struct termios t, o;

	if (fd < 0)
		return refused("open", errno, NULL);
	if (tcgetattr(fd, &t)) {
		int e = errno;

		close(fd);
		return refused("tcgetattr", e, NULL);
	}
	o = t;
	t.c_lflag &= ~(tcflag_t)ECHO;
	if (tcsetattr(fd, TCSANOW, &t)) {
		int e = errno;

		close(fd);
		return refused("tcsetattr", e, NULL);
	}
	(void)tcsetattr(fd, TCSANOW, &o);
	close(fd);
	return okay("echo off on %s", a[0]);
}

/* ---- resources ---- */

/* tmpfill DIR MB: writes MB MiB into a file in DIR (a tmpfs is memory
 * that RLIMIT_AS does not count); removes it again. */
static int at_tmpfill(char **a)
{
	static char chunk[1 << 20];
	long mb = number(a[1]), i;
	char path[PATH_MAX];
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/cordon-escape-fill", a[0]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return refused("open", errno, NULL);
	memset(chunk, 'x', sizeof(chunk));
	for (i = 0; i < mb; i++)
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
			e = errno ? errno : ENOSPC;
			break;
		}
	close(fd);
	unlink(path);
	if (e)
		return refused(NULL, e, "after %ld", i);
	return okay("wrote %ld MiB to %s", mb, a[0]);
}

/* Forks children that wait for their parent's death, until fork fails or
 * MAX are running; then kills them. */
static int at_forkbomb(char **a)
{
	static pid_t kids[MAX_FORKS];
	long max = number(a[0]);
	pid_t self = getpid();
	int n = 0, err = 0;

	if (max < 1 || max > MAX_FORKS)
		return 2;
	while (n < max) {
		pid_t pid = fork();

		if (pid < 0) {
			err = errno;
			break;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != self)
				_exit(0);
			alarm(60);
			for (;;)
				pause();
		}
		kids[n++] = pid;
	}
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	if (err)
		return refused(NULL, err, "after %d", n);
	return okay("forked %d", n);
}

/* Maps and touches 1 MiB at a time, up to MAX MiB. */
static int at_memhog(char **a)
{
	long max = number(a[0]);
	long mb;

	for (mb = 0; mb < max; mb++) {
		char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return refused(NULL, errno, "after %ld MB", mb);
		memset(p, 0xa5, 1 << 20);
	}
	return okay("allocated %ld MB", mb);
}

/* Burns CPU for up to MAX seconds of wall time. */
static int at_spin(char **a)
{
	long max = number(a[0]);
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < max);
	return okay("spun %ld s (%lu)", max, x);
}

/* Sits until killed (at most 900 s), with TOKEN in its command line so the
 * suite can find it from the host. */
static int at_sit(char **a)
{
	(void)a;
	alarm(900);
	while (pause() < 0 || 1)
		;
	return 2;
}

static void exec_sit(const char *token)
{
	execl("/proc/self/exe", "attempt", "sit", token, (char *)NULL);
	_exit(2);
}

/* Double-forks a grandchild that leaves the session (setsid), takes a lock
 * on DIR/grandchild.lock, writes its pid (as it sees it) to
 * DIR/grandchild.pid and sits with TOKEN in its command line; the caller
 * sits too. Whether the tree died can be checked from the host by the
 * token, by the lock, and (without a PID namespace) by the pid. */
static int at_doublefork(char **a)
{
	char lock[PATH_MAX], pidf[PATH_MAX], tmp[PATH_MAX];
	pid_t pid;

	if (snprintf(lock, sizeof(lock), "%s/grandchild.lock", a[1]) >=
		    (int)sizeof(lock) ||
	    snprintf(pidf, sizeof(pidf), "%s/grandchild.pid", a[1]) >=
		    (int)sizeof(pidf) ||
	    snprintf(tmp, sizeof(tmp), "%s/grandchild.tmp", a[1]) >=
		    (int)sizeof(tmp))
		return 2;
	pid = fork();
	if (pid < 0)
		return refused("fork", errno, NULL);
	if (pid == 0) {
		setsid();
		pid = fork();
		if (pid != 0)
			_exit(pid < 0);
		int fd = open(lock, O_RDWR | O_CREAT, 0644);
		FILE *f;

		if (fd < 0 || flock(fd, LOCK_EX))
			_exit(2);
		f = fopen(tmp, "w");
		if (!f)
			_exit(2);
		fprintf(f, "%d\n", (int)getpid());
		if (fclose(f) || rename(tmp, pidf))
			_exit(2);
		exec_sit(a[0]);
	}
	waitpid(pid, NULL, 0);
	printf("ok double-forked\n");
	fflush(stdout);
	exec_sit(a[0]);
	return 2;
}

/* ---- host-side listeners ---- */

/* Appends a line to LOG. */
static void log_line(const char *log, const char *what, const char *buf,
		     ssize_t n)
{
	FILE *f = fopen(log, "a");

	if (!f)
		return;
	fprintf(f, "%s %zd:", what, n);
	for (ssize_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		fputc(c >= 0x20 && c < 0x7f ? c : '.', f);
	}
	fputc('\n', f);
	fclose(f);
}

/* Writes s to PATH atomically (PATH.tmp, then rename). */
static void write_atomic(const char *path, const char *s)
{
	char tmp[PATH_MAX];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		exit(2);
	f = fopen(tmp, "w");
	if (!f || fputs(s, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(2);
	}
}

/* Accepts connections (stream) or reads datagrams on fd forever, logging
 * each to LOG. */
static int serve(int fd, int stream, const char *log)
{
	char buf[256];
	ssize_t n;

	alarm(900);
	while (fd >= 0) {
		if (!stream) {
			n = recv(fd, buf, sizeof(buf), 0);
			if (n >= 0)
				log_line(log, "datagram", buf, n);
			continue;
		}
		int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0)
			continue;
		n = read(c, buf, sizeof(buf));
		log_line(log, "connection", buf, n < 0 ? 0 : n);
		close(c);
	}
	return 2;
}

/* listen-tcp ADDR PORTFILE LOG / listen-udp ADDR PORTFILE LOG: binds an
 * ephemeral port, writes it to PORTFILE, serves. */
static int listen_inet(char **a, int stream)
{
	struct sockaddr_storage ss;
	socklen_t len = inet_addr_of(a[0], "0", &ss);
	int fd = socket(ss.ss_family,
			(stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	char port[16];
	int one = 1;

	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
				 sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, len) ||
	    (stream && listen(fd, 16)) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		perror("listen");
		return 2;
	}
	snprintf(port, sizeof(port), "%u\n",
		 ss.ss_family == AF_INET
			 ? ntohs(((struct sockaddr_in *)&ss)->sin_port)
			 : ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	write_atomic(a[1], port);
	return serve(fd, stream, a[2]);
}

static int at_listen_tcp(char **a)
{
	return listen_inet(a, 1);
}

static int at_listen_udp(char **a)
{
	return listen_inet(a, 0);
}

/* listen-unix NAME READYFILE LOG / listen-abstract NAME READYFILE LOG */
static int listen_unix(char **a, int abstract)
{
	struct sockaddr_un un;
	socklen_t len = unix_addr_of(a[0], abstract, &un);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&un, len) ||
	    listen(fd, 16)) {
		perror("listen");
		return 2;
	}
	write_atomic(a[1], "ready\n");
	return serve(fd, 1, a[2]);
}

static int at_listen_unix(char **a)
{
	return listen_unix(a, 0);
}

static int at_listen_abstract(char **a)
{
	return listen_unix(a, 1);
}

/* listen-unixdgram PATH READYFILE LOG */
static int at_listen_unixdgram(char **a)
{
	struct sockaddr_un un;
	socklen_t len = unix_addr_of(a[0], 0, &un);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&un, len)) {
		perror("listen");
		return 2;
	}
	write_atomic(a[1], "ready\n");
	return serve(fd, 0, a[2]);
}

static const struct attempt {
	const char *name;
	int nargs;
	int (*fn)(char **args);
	const char *args;
} attempts[] = {
	{"write", 1, at_write, "PATH"},
	{"mkwrite", 1, at_mkwrite, "PATH"},
	{"openw", 1, at_openw, "PATH"},
	{"read", 1, at_read, "PATH"},
	{"waitread", 3, at_waitread, "READY GO PATH"},
	{"list", 1, at_list, "DIR"},
	{"mkdir", 1, at_mkdir, "PATH"},
	{"unlink", 1, at_unlink, "PATH"},
	{"rename", 2, at_rename, "FROM TO"},
	{"link", 2, at_link, "EXISTING NEW"},
	{"truncate", 1, at_truncate, "PATH"},
	{"plant", 2, at_plant, "TARGET LINK"},
	{"chmod", 1, at_chmod, "PATH"},
	{"chown", 1, at_chown, "PATH"},
	{"setxattr", 1, at_setxattr, "PATH"},
	{"mknod", 3, at_mknod, "PATH MAJOR MINOR"},
	{"mvwrite", 3, at_mvwrite, "FROM TO PATH"},
	{"mount", 1, at_mount, "TARGET"},
	{"remount", 1, at_remount, "PATH"},
	{"fsopen", 0, at_fsopen, ""},
	{"open_tree", 0, at_open_tree, ""},
	{"umount", 0, at_umount, ""},
	{"pivot_root", 0, at_pivot_root, ""},
	{"unshare", 1, at_unshare, "user|mnt|net|pid|uts|ipc|cgroup"},
	{"clone", 1, at_clone, "NAMESPACE"},
	{"clone3", 1, at_clone3, "NAMESPACE"},
	{"setns", 1, at_setns, "NSFILE"},
	{"int80-unshare", 0, at_int80_unshare, ""},
	{"ptrace", 1, at_ptrace, "PID"},
	{"vmread", 1, at_vmread, "PID"},
	{"kill", 2, at_kill, "PID SIGNAL"},
	{"prio", 2, at_prio, "proc|pgrp|user ID"},
	{"ioprio", 2, at_ioprio, "proc|pgrp|user ID"},
	{"setaffinity", 1, at_setaffinity, "PID"},
	{"setsched", 1, at_setsched, "PID"},
	{"tiocsti", 1, at_tiocsti, "FD"},
	{"int80-tiocsti", 1, at_int80_tiocsti, "FD"},
	{"euid", 0, at_euid, ""},
	{"nnp", 0, at_nnp, ""},
	{"core", 0, at_core, ""},
	{"raise", 1, at_raise, "as|cpu|nproc|core|fsize|nofile"},
	{"reboot", 0, at_reboot, ""},
	{"sethostname", 0, at_sethostname, ""},
	{"ifflags", 0, at_ifflags, ""},
	{"caps", 0, at_caps, ""},
	{"env", 0, at_env, ""},
	{"bpf", 0, at_bpf, ""},
	{"io_uring", 0, at_io_uring, ""},
	{"keyctl", 0, at_keyctl, ""},
	{"userfaultfd", 0, at_userfaultfd, ""},
	{"perf", 0, at_perf, ""},
	{"finit_module", 0, at_finit_module, ""},
	{"handle", 1, at_handle, "PATH"},
	{"by-handle", 1, at_by_handle, "TYPE:HEX"},
	{"by-handle-at", 2, at_by_handle_at, "TYPE:HEX NAME"},
	{"socket", 1, at_socket,
	 "vsock|packet|netlink-uevent|netlink-audit|netlink-route|raw|unix"},
	{"tcp", 2, at_tcp, "ADDR PORT"},
	{"udp", 2, at_udp, "ADDR PORT"},
	{"abstract", 1, at_abstract, "NAME"},
	{"unixpath", 1, at_unixpath, "PATH"},
	{"unixdgram", 1, at_unixdgram, "PATH"},
	{"fdwrite", 1, at_fdwrite, "FD"},
	{"fdopenat", 2, at_fdopenat, "DIRFD NAME"},
	{"procfd", 1, at_procfd, "FD"},
	{"fdmeta", 3, at_fdmeta, "FD PATH chmod|chown|utimes|xattr"},
	{"lease", 1, at_lease, "PATH"},
	{"tcsets", 1, at_tcsets, "FD"},
	{"ttyopen", 2, at_ttyopen, "PATH rw|ro"},
	{"forkbomb", 1, at_forkbomb, "MAX"},
	{"tmpfill", 2, at_tmpfill, "DIR MB"},
	{"memhog", 1, at_memhog, "MAX_MB"},
	{"spin", 1, at_spin, "MAX_SECONDS"},
	{"sit", 1, at_sit, "TOKEN"},
	{"doublefork", 2, at_doublefork, "TOKEN DIR"},
	{"listen-tcp", 3, at_listen_tcp, "ADDR PORTFILE LOG"},
	{"listen-udp", 3, at_listen_udp, "ADDR PORTFILE LOG"},
	{"listen-unix", 3, at_listen_unix, "PATH READYFILE LOG"},
	{"listen-abstract", 3, at_listen_abstract, "NAME READYFILE LOG"},
	{"listen-unixdgram", 3, at_listen_unixdgram, "PATH READYFILE LOG"},
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2)
		for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]);
		     i++)
			if (!strcmp(argv[1], attempts[i].name) &&
			    argc - 2 == attempts[i].nargs)
				return attempts[i].fn(argv + 2);
	fprintf(stderr, "usage: attempt NAME ARGS...\n");
	for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++)
		fprintf(stderr, "  %s %s\n", attempts[i].name,
			attempts[i].args);
	return 2;
}
