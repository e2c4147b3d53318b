/* syscallfilter — the seccomp filter (libseccomp), applied last.
 *
 * Denied with EPERM (never a kill, so tests can see the errno): ptrace,
 * process_vm_readv/writev, io_uring_setup/enter/register, kexec_load,
 * kexec_file_load, bpf, perf_event_open, userfaultfd, keyctl, add_key,
 * request_key, mount, umount2, pivot_root, unshare, setns, move_mount,
 * open_tree, fsopen, fsmount, fspick, mount_setattr, clone with any
 * CLONE_NEW* flag, clone3 (ENOSYS, so libcs fall back to clone, whose flags
 * can be inspected), ioctl TIOCSTI, TIOCLINUX and the terminal-mode setters
 * (TCSETS*, TCSETA*, TIOCSETD, TIOCCONS, TIOCSLCKTRMIOS, TIOCEXCL), fcntl
 * F_SETLEASE
 * (fcntl64 on 32-bit ABIs too), prlimit64, setpriority, ioprio_set,
 * sched_setaffinity, sched_setscheduler, sched_setparam and sched_setattr
 * of another process (setpriority and ioprio_set of a group or of the
 * user too), socket() of families other
 * than AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK with NETLINK_ROUTE (AF_VSOCK,
 * AF_PACKET, other netlink protocols …), and with no_unix_sockets
 * socket(AF_UNIX) too; socket() and socketpair() of AF_UNIX datagram
 * sockets (SOCK_DGRAM, SOCK_RAW). Every native and compat architecture of the host is
 * covered (x86-64 with x32 and i386); an unknown architecture is killed.
 */
#ifndef CORDON_SYSCALLFILTER_H
#define CORDON_SYSCALLFILTER_H

#include <stdbool.h>
#include <stddef.h>

/* Loads the filter into the calling thread. Returns 0, or -1 with why. */
int syscallfilter_apply(bool no_unix_sockets, char *why, size_t whycap);

/* The same in two steps, for a child made by a raw clone() of a possibly
 * multi-threaded process, where malloc is not safe: syscallfilter_compile (in the
 * parent, before the clone) builds the classic BPF program with libseccomp;
 * syscallfilter_load (in the child) sets no_new_privs and loads it without
 * allocating. */
struct syscallfilter_prog {
	unsigned char *insns; /* struct sock_filter[], malloc'd */
	size_t len;           /* bytes */
};
/* tty_modes: the terminal-mode setters are allowed (the command's
 * terminal is a pty cordon made and relays; TIOCSTI and TIOCLINUX stay
 * refused). notify_connect: connect() answers SECCOMP_RET_USER_NOTIF,
 * for the supervisor (unixnotif.c). */
int syscallfilter_compile(bool no_unix_sockets, bool tty_modes,
			  bool notify_connect, struct syscallfilter_prog *out,
			  char *why, size_t whycap);
int syscallfilter_load(const struct syscallfilter_prog *p, char *why, size_t whycap);
/* Loads with SECCOMP_FILTER_FLAG_NEW_LISTENER: *listener gets the
 * notification fd. When the kernel refuses a listener (*listen_err: its
 * errno; EBUSY under an enclosing filter that has one), the program is
 * loaded with its notifications turned into allow (p is changed in
 * place) and *listener is -1. Returns 0, or -1 with why when no filter
 * could be loaded. */
int syscallfilter_load_listen(struct syscallfilter_prog *p, int *listener,
			      int *listen_err, char *why, size_t whycap);
void syscallfilter_prog_free(struct syscallfilter_prog *p);

/* The programs of syscallfilter_compile, made at build time by
 * syscallfilter_gen (src/meson.build) and indexed by syscallfilter_choice;
 * an empty row (len 0) did not compile on the build machine, and every
 * row is empty in a cross build. */
#define SYSCALLFILTER_CHOICES 8
struct syscallfilter_built {
	const unsigned char *insns;
	size_t len;
};
extern const struct syscallfilter_built
	syscallfilter_built[SYSCALLFILTER_CHOICES];
unsigned syscallfilter_choice(bool no_unix_sockets, bool tty_modes,
			      bool notify_connect);
/* What syscallfilter_compile gives, as a malloc'd copy of the built row
 * (no libseccomp: about 0.65 ms of CPU less a run), or compiled now when
 * the row is empty. */
int syscallfilter_get(bool no_unix_sockets, bool tty_modes, bool notify_connect,
		      struct syscallfilter_prog *out, char *why, size_t whycap);

#endif
