/* sandbox_int.h — what the pieces of the sandbox share (not installed).
 *
 * sandbox.c runs sandbox_run as a sequence of phases. The plan is made
 * in the parent before the clone (plan.c, mask.c, runlater.c,
 * placeholder.c, walk.c, cgroup.c); the child only makes system calls
 * (child.c, mountns.c, reaper.c); report.c, probe.c and netproxy.c serve
 * the parent. A function shared between the files is named
 * sandbox_<file>_* (sandbox.c: sandbox_*); its comment is at its
 * definition.
 */
#ifndef CORDON_SANDBOX_INT_H
#define CORDON_SANDBOX_INT_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <termios.h>

#include "arena.h"
#include "sandbox.h"

struct px;
struct sandbox_sweep;
struct sandbox_unixnotif;
struct landlock_policy;

/* The entries of sandbox_plan_ws_run_later (plan.c). */
#define SANDBOX_NWS_RUN_LATER 20

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* Ceilings. Exceeding one is a setup error naming it. */
#define SANDBOX_MAX_LIST 256 /* --write, --deny-read, --allow-cmd */
#define SANDBOX_MAX_MOUNTS 2048 /* mounts planned for one run */
#define SANDBOX_MAX_WALK_ROOTS 16 /* directories walked for globs */
#define SANDBOX_WALK_MAX_DEPTH 12 /* levels below a walked directory */
#define SANDBOX_WALK_MAX_ENTRIES 50000 /* directory entries read per run */
#define SANDBOX_GIT_FILE_MAX 65536 /* bytes read of a .git file or config */
#define SANDBOX_CAPTURE_MAX (64u << 20) /* bytes captured for the C API */
#define SANDBOX_ARENA_MAX (64u << 20)
#define SANDBOX_CG_POOL 64 /* cgroup leaves, one per concurrent run */
#define SANDBOX_CANON_CACHE 64 /* canonical paths remembered while planning */
#define SANDBOX_BPF_MAX (4096 * 8) /* BPF_MAXINSNS instructions */
#define SANDBOX_CMD_STACK (8u << 20) /* the command's until its exec */
#define SANDBOX_MAX_SOCKETS 512 /* host unix sockets masked one by one */
#define SANDBOX_MAX_HARDLINKS 1024 /* hardlinked files made read-only */
#define SANDBOX_SWEEP_MAX 4096 /* git entries recorded for the sweep */
#define SANDBOX_SWEEP_CONFIGS 64 /* git configs kept for the sweep */
#define SANDBOX_SWEEP_OPEN 256 /* directories open at once in the sweep */
#define SANDBOX_SWEEP_BLIND 64 /* unreadable directories named or moved */

/* Resource defaults. */
#define SANDBOX_DEFAULT_PIDS 1024
#define SANDBOX_FSIZE_MAX (64ULL << 30) /* one file: 64 GiB */
#define SANDBOX_NOFILE_MAX 65536

/* Exit statuses (DESIGN.md). */
#define ST_TIMEOUT 124
#define ST_SETUP 125
#define ST_NOEXEC 126
#define ST_NOTFOUND 127

enum sandbox_op_kind {
	OP_TMPFS, /* a writable tmpfs over a directory ($HOME) */
	OP_BIND_RW, /* host source bound writable at target */
	OP_BIND_RO, /* host source bound read-only at target */
	OP_RELOCK, /* target bound onto itself read-only */
	OP_MASK_DIR, /* an empty read-only tmpfs over a directory */
	OP_MASK_FILE, /* /dev/null, read-only, over a file */
	OP_SYMLINK, /* a symlink (source: its text) inside our tmpfs */
	OP_PIN, /* target bound onto itself, writable: it cannot be
			 renamed or removed (a .git directory) */
};

#define OPF_CREATE 1u /* make the mount point when missing */
#define OPF_OPTIONAL 2u /* skip when the target is gone */
#define OPF_FILE 4u /* the mount point is not a directory */

struct sandbox_op {
	enum sandbox_op_kind kind;
	unsigned flags;
	const char *target; /* absolute and canonical */
	const char *source; /* host path (binds) or link text (symlink) */
	const char *step; /* for messages: "writable root" … */
	int src_fd; /* child only: the cloned source tree */
};

struct sandbox_cgroup {
	char path[PATH_MAX]; /* the leaf; "" when none */
	int join_fd; /* v1: its tasks file, for the child to write "0" to;
			v2: its cgroup.procs (only checked: born there) */
	int lock_fd; /* the leaf, flock'ed while this run uses it */
	bool v2;
};

/* A path given to realpath while planning and its canonical form. */
struct sandbox_canon {
	const char *in, *out;
};

struct sandbox_plan {
	const struct sandbox_opts *o;
	struct arena arena;
	/* realpath results while planning (plan.c), so that no directory is
	 * walked twice; emptied before the command starts, which could
	 * change them */
	struct sandbox_canon canon[SANDBOX_CANON_CACHE];
	size_t ncanon;
	enum sandbox_backend backend;
	bool netns;
	uid_t uid;
	gid_t gid;
	pid_t parent_pid;

	const char *cwd;
	const char *ws;
	const char *home;

	struct sandbox_op *ops;
	size_t nops;
	const char **rw; /* Landlock writable roots */
	size_t nrw;

	/* walking */
	size_t walk_entries;
	bool walk_truncated;
	bool masked_last; /* the last entry walked was masked */
	bool walk_hl; /* the root walked is writable: look for hard links */
	size_t nhardlinks; /* files with other names, made read-only */
	bool hardlinks_over; /* more than SANDBOX_MAX_HARDLINKS of them */
	char *walk_bufs; /* one getdents buffer per level */
	const char *walk_glob_abs[SANDBOX_MAX_LIST + 8];
	size_t nwalk_glob;
	size_t nwalk_default; /* the first ones: cordon's default globs */
	/* deny_write globs, and the run-later family's own (plan.c) */
	const char *walk_dw_abs[SANDBOX_MAX_LIST + 8];
	size_t nwalk_dw;
	const char *dw_dir; /* the last directory a deny_write glob matched */
	const char *walk_roots[SANDBOX_MAX_WALK_ROOTS];
	size_t nwalk_roots;

	/* placeholders created in the host tree, listed in a registry that
	 * the last run to finish empties (ph_fd: flock'ed shared meanwhile) */
	int ph_fd;
	bool ph_last; /* ph_fd's exclusive lock taken: this is the last run */
	bool ph_missed; /* a missing run-later path went unprotected */
	bool dw_missed; /* ... a missing deny_write path */
	bool home_nocreate; /* Landlock: no new entries directly in $HOME */
	bool home_read; /* Landlock: files read under $HOME only beneath what
			   was there at launch, credential names excepted */
	struct sandbox_cred *creds; /* sandbox_plan_creds */
	size_t ncreds;
	bool cred_unguarded; /* one exists where the Landlock read layer
				cannot leave it out (outside $HOME) */
	bool sock_missed; /* a runtime directory holds a writable root */
	bool sock_over; /* more bound sockets than SANDBOX_MAX_SOCKETS */
	bool sock_unlisted; /* /proc/net/unix could not be read */
	size_t nsock_masked;
	bool reaper; /* landlock backend: a sub-reaper runs the command */

	/* what git runs later, recorded before the run (sweep.c) */
	struct sandbox_sweep *sweep;

	/* resources */
	struct sandbox_cgroup cg;
	bool mem_by_cgroup;
	bool pids_by_cgroup;

	/* the child's fds and state */
	char **envp;
	char *const *argv;
	const char *exec_path; /* argv-only: argv[0] resolved in the parent */
	int err_r, err_w; /* error text from the child (CLOEXEC) */
	int st_r, st_w; /* PID 1 reports the command's wait status */
	int sync_r, sync_w; /* parent -> child: the seccomp program (built
				 while the child sets up its namespaces) */
	int st_status; /* that status */
	bool st_have;
	bool owner_killed; /* ended because owner_pidfd's process went */
	int out_r[2], out_w[2];
	int null_fd; /* the command's stdin when not the caller's: the read
			end of a pipe cordon made (empty, or fed from the
			caller's stdin through in_w) */
	int in_w; /* parent: the caller's stdin relayed into null_fd */
	bool relay[3]; /* fds 0-2 relayed through what cordon made */
	char stdio_tty[3][64]; /* fds 0-2 that are the caller's terminal,
				  passed through (named in a caveat) */
	/* the terminal relay (pty.c): the fds 0-2 that are the caller's
	 * terminal get the slave of a pty cordon made instead; the parent
	 * relays its master through in_w and out_r[pty_slot] */
	bool pty_fd[3];
	bool pty_on;
	int pty_m, pty_s; /* master (parent), slave (child's stdio, ctty) */
	int pty_host; /* the caller's terminal fd: size and mode */
	int pty_slot; /* the output slot the master's output takes */
	int out_to[2]; /* the caller's fds the output slots go to */
	bool pty_raw; /* the caller's terminal is raw: pty_saved restores */
	struct termios pty_saved;
	char pty_name[64]; /* the caller's terminal, for the report */
	int parent_pidfd;
	/* network proxy: the port the command is told about, the socket
	 * pair the child hands the listening socket over (namespaces), the
	 * proxy and the thread that runs it */
	unsigned short proxy_port;
	int pxs_r, pxs_w;
	struct px *px;
	/* the connect supervisor (unixnotif.c): asked for at plan time
	 * (the kernel has what it needs), running, or refused a listener
	 * at run time (unotif_err: the kernel's errno) */
	bool unotif_asked;
	char unotif_why[96]; /* why not asked */
	struct sandbox_unixnotif *unotif;
	int unotif_err;
	pthread_t proxy_thread;
	bool proxy_running;
	char proxy_diag[320];
	sigset_t oldmask;
	mode_t old_umask;

	char error[512]; /* a planning failure */
};

#define RL_PLACEHOLDER 1u /* missing: keep it from being created */
#define RL_DIR 2u /* ... with a directory placeholder */
#define RL_FOLLOW 4u /* a final symlink: protect what it points to */
#define RL_DENY_WRITE 8u /* a deny_write path: named so, its way pinned */

/* A credential location: absolute, and below $HOME (NULL when it is not
 * there, or deeper than the Landlock read layer goes). */
struct sandbox_cred {
	const char *abs;
	const char *rel;
};

/* How many components below $HOME the read layer enters (child.c). */
#define SANDBOX_READ_DEPTH 8

struct sandbox_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* plan.c */

struct sandbox_run_later_name {
	const char *name;
	bool hold; /* a placeholder when missing (else: the sweep's) */
};

extern const struct sandbox_run_later_name
	sandbox_plan_ws_run_later[SANDBOX_NWS_RUN_LATER];

__attribute__((format(printf, 2, 3))) int
sandbox_plan_fail(struct sandbox_plan *p, const char *fmt, ...);

char *sandbox_plan_strdup(struct sandbox_plan *p, const char *s);

/* The credential table's locations for this run (credentials.c): each
 * row below its base directory's default place and, when $XDG_..._HOME
 * names another existing directory, there too. Made for every backend
 * before the mounts. */
int sandbox_plan_creds(struct sandbox_plan *p);
/* The namespaces backend's masks over those that exist. */
int sandbox_plan_cred_masks(struct sandbox_plan *p);

char *sandbox_plan_join(struct sandbox_plan *p, const char *a, const char *b);

char *sandbox_plan_canon(struct sandbox_plan *p, const char *path);
/* sandbox_plan_canon, and in *st what path reaches (one lstat when path
 * is no symlink, else a stat of the canonical form too); NULL with errno
 * when either fails. */
char *sandbox_plan_canon_stat(struct sandbox_plan *p, const char *path,
			      struct stat *st);
/* Forgets the realpath results of the plan (before the command runs). */
void sandbox_plan_canon_forget(struct sandbox_plan *p);

bool sandbox_plan_path_under(const char *path, const char *root);

bool sandbox_plan_host_writable(const struct sandbox_plan *p, const char *path);

int sandbox_plan_add_op(struct sandbox_plan *p, enum sandbox_op_kind kind,
			unsigned flags, const char *target, const char *source,
			const char *step);

int sandbox_plan_add_rw(struct sandbox_plan *p, const char *path);

char *sandbox_plan_canon_parent(struct sandbox_plan *p, const char *path);

char *sandbox_plan_canon_loose(struct sandbox_plan *p, const char *path);

int sandbox_plan_writable(struct sandbox_plan *p, const char *path,
			  const char *step, bool optional, const char **out);

int sandbox_plan_mounts(struct sandbox_plan *p);

/* mask.c */

int sandbox_mask_path(struct sandbox_plan *p, const char *path,
		      const char *step);

int sandbox_mask_host_sockets(struct sandbox_plan *p);

const char *sandbox_mask_unix_path(const char *line);

int sandbox_mask_root_files(struct sandbox_plan *p);

/* runlater.c */

int sandbox_runlater_pin_down(struct sandbox_plan *p, const char *root,
			      const char *dir, const char *step);

int sandbox_runlater_path(struct sandbox_plan *p, const char *path,
			  unsigned fl);

int sandbox_runlater_repo(struct sandbox_plan *p, const char *dir);

/* placeholder.c */

int sandbox_placeholder_make(struct sandbox_plan *p, const char *path,
			     bool is_file, struct stat *st);

int sandbox_placeholder_open(const struct sandbox_plan *p);

/* When this is the last run (the registry's exclusive lock, kept): each
 * registered file placeholder that was written meanwhile is quarantined
 * and named in rep; the empty ones stay for the cleanup. Before the
 * report is final, while the child may still be exiting. */
void sandbox_placeholder_check(struct sandbox_plan *p,
			       struct sandbox_report *rep);

/* Removes the registered placeholders that are still empty when this is
 * the last run (one written since the check is quarantined and named in
 * rep), and empties the registry. After the child is reaped: a name
 * that is still a mount point in its dying mount namespace costs an RCU
 * grace period to remove. */
void sandbox_placeholder_cleanup(struct sandbox_plan *p,
				 struct sandbox_report *rep);

/* walk.c */

int sandbox_walk_root(struct sandbox_plan *p, const char *root, bool repos);

int sandbox_walk_deny_entry(struct sandbox_plan *p, const char *entry);

int sandbox_walk_deny_write_entry(struct sandbox_plan *p, const char *entry);

bool sandbox_walk_dw_writable(struct sandbox_plan *p, const char *entry);

bool sandbox_walk_skipped(const char *name);

/* sweep.c */

int sandbox_sweep_plan(struct sandbox_plan *p, struct sandbox_report *rep);

void sandbox_sweep_after(struct sandbox_plan *p, struct sandbox_report *rep);

bool sandbox_sweep_config_executes(const char *text, size_t len);

/* Renames dfd/name to name.cordon-quarantined (.1 … .9 when taken); the
 * new name in out. 0 or -1. */
int sandbox_sweep_quarantine(int dfd, const char *name, char *out, size_t cap);

/* One line of the report's "quarantined" list. */
__attribute__((format(printf, 2, 3))) void
sandbox_sweep_note(struct sandbox_report *rep, const char *fmt, ...);

/* cgroup.c */

void sandbox_cgroup_clear(struct sandbox_cgroup *cg);

void sandbox_cgroup_release(struct sandbox_cgroup *cg);

void sandbox_cgroup_plan(struct sandbox_plan *p, unsigned long long mem,
			 unsigned long long pids);

void sandbox_cgroup_kill(const struct sandbox_cgroup *cg);

/* child.c */

__attribute__((noreturn, format(printf, 4, 5))) void
sandbox_child_die(const struct sandbox_plan *p, int status, int err,
		  const char *fmt, ...);

void sandbox_child_drop_caps(const struct sandbox_plan *p);

void sandbox_child_join_cgroup(struct sandbox_plan *p);

__attribute__((noreturn)) void sandbox_child_exec(const struct sandbox_plan *p,
						  bool sandboxed);

void sandbox_child_pdeathsig(const struct sandbox_plan *p, bool in_pidns);

__attribute__((noreturn)) void sandbox_child_landlock(struct sandbox_plan *p);

void sandbox_child_policy(const struct sandbox_plan *p,
			  struct landlock_policy *llp);

/* unixnotif.c */

bool sandbox_unixnotif_available(char *why, size_t whycap);

/* What one connect address asks of the supervisor, for a socket of this
 * domain and type: nothing to check (PASS: UDP, netlink, a disconnect,
 * a family the kernel refuses itself), a TCP port (host order), an
 * abstract unix name, or a unix pathname (NUL-terminated). */
enum sandbox_unixnotif_kind {
	UNOTIF_ADDR_PASS,
	UNOTIF_ADDR_TCP,
	UNOTIF_ADDR_ABSTRACT,
	UNOTIF_ADDR_PATH,
};
struct sandbox_unixnotif_addr {
	enum sandbox_unixnotif_kind kind;
	unsigned port;
	char path[109]; /* sun_path and a NUL */
};
/* Parses len bytes at addr (the command's, copied): 0, or the errno the
 * kernel would give for a malformed address (EINVAL). Pure. */
int sandbox_unixnotif_parse(int domain, int type, const void *addr, size_t len,
			    struct sandbox_unixnotif_addr *out);

void sandbox_unixnotif_start(struct sandbox_plan *p, pid_t pid);

void sandbox_unixnotif_end(struct sandbox_plan *p);

/* mountns.c */

void sandbox_mountns_idmaps(const struct sandbox_plan *p);

void sandbox_mountns_loopback(const struct sandbox_plan *p);

/* Halves the user's inotify limits for the sandbox's user namespace. */
void sandbox_mountns_ucounts(const struct sandbox_plan *p);

void sandbox_mountns_tree(const struct sandbox_plan *p, struct sandbox_op *ops);

/* reaper.c */

__attribute__((noreturn)) void sandbox_reaper_pid1(struct sandbox_plan *p);

bool sandbox_reaper_available(void);

__attribute__((noreturn)) void sandbox_reaper_run(struct sandbox_plan *p);

void sandbox_reaper_kill_tree(struct sandbox_plan *p, pid_t pid, int pidfd,
			      bool hard);

void sandbox_reaper_wait(struct sandbox_plan *p, pid_t pid, int pidfd,
			 struct sandbox_report *rep, int *wstatus, bool *got);
void sandbox_reaper_reap(int pidfd, bool *got);

/* report.c */

__attribute__((format(printf, 2, 3))) void
sandbox_report_lost(struct sandbox_report *rep, const char *fmt, ...);

void sandbox_report_deny_write(struct sandbox_plan *p,
			       struct sandbox_report *rep, const char *why);

void sandbox_report_plan(struct sandbox_plan *p, struct sandbox_report *rep);

void sandbox_report_init(struct sandbox_report *rep);

__attribute__((format(printf, 3, 4))) void
sandbox_report_refuse(struct sandbox_report *rep, int status, const char *fmt,
		      ...);

void sandbox_report_status(struct sandbox_plan *p, struct sandbox_report *rep,
			   int wstatus, bool got);

void sandbox_report_unotif(struct sandbox_plan *p, struct sandbox_report *rep);

/* pty.c */

bool sandbox_pty_plan(struct sandbox_plan *p);

int sandbox_pty_open(struct sandbox_plan *p);

void sandbox_pty_raw(struct sandbox_plan *p);

void sandbox_pty_restore(struct sandbox_plan *p);

void sandbox_pty_winsize(const struct sandbox_plan *p);

void sandbox_pty_child(const struct sandbox_plan *p);

void sandbox_pty_foreground(const struct sandbox_plan *p, pid_t pgrp);

void sandbox_pty_signals(const struct sandbox_plan *p, sigset_t *set);

bool sandbox_pty_modes_allowed(const struct sandbox_plan *p);

/* netproxy.c */

void sandbox_netproxy_child_socket(struct sandbox_plan *p);

int sandbox_netproxy_prepare(struct sandbox_plan *p);

char **sandbox_netproxy_env(struct sandbox_plan *p);

int sandbox_netproxy_start(struct sandbox_plan *p);

void sandbox_netproxy_end(struct sandbox_plan *p);

/* sandbox.c */

ssize_t sandbox_read_small(const char *path, char *buf, size_t cap);

int sandbox_write_str(const char *path, const char *s);

int sandbox_openat2(int dfd, const char *path, int flags,
		    unsigned long long res);

unsigned long long sandbox_now_ms(void);

#endif
