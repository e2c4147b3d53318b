/* sandbox — cordon run: an argv under namespaces, Landlock, seccomp,
 * rlimits and a filtered environment, with an honest report (sandbox.h).
 *
 * The parent plans everything before it clones: canonical paths, the list
 * of mounts (writable roots, credential masks, --deny-read matches, "run
 * later" paths, deny_write paths and matches, hardlinked files, pins), the
 * environment, the cgroup leaf and the report's notEnforced list. One
 * bounded walk of the workspace finds nested repositories, glob matches
 * and hardlinks. The child then only makes system calls.
 *
 * Backend "namespaces": the child is PID 1 of a new PID namespace (also
 * user, mount, IPC, UTS and, for network none or proxy, network). It
 * writes its own uid/gid maps, clones "/" with the new mount API and
 * makes the whole clone read-only, nosuid and nodev with one recursive
 * mount_setattr (no remount per line of mountinfo), attaches it, mounts
 * /tmp, /proc and a minimal /dev, binds the writable roots and the masks,
 * pivots into it, (network proxy) makes the proxy's listening socket and
 * hands it to the parent, drops every capability, and forks the
 * command. PID 1 reaps, forwards signals, and exits when the command
 * does, which ends the namespace and kills every process left in it.
 *
 * Backend "landlock": no namespaces; the child is the command, in its own
 * session; Landlock, seccomp and rlimits only.
 *
 * While the child sets up, the parent moves it into a cgroup v1 leaf (v2:
 * it is born there with CLONE_INTO_CGROUP) and compiles the seccomp
 * program; both reach the child over a socket. Leaves come from a pool
 * (creating and removing a cgroup per run costs more than the rest).
 *
 * A missing "run later" path gets an empty placeholder to mount over,
 * listed in a registry that the last run to finish empties; a missing rc
 * file directly in a writable $HOME is kept from being created by a
 * second Landlock layer instead, so nothing shows in the home.
 *
 * Mount targets are opened with openat2(RESOLVE_IN_ROOT |
 * RESOLVE_NO_SYMLINKS) and mounted by file descriptor, so a symlink planted
 * in the workspace cannot redirect a mount: it is refused and named.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <linux/capability.h>
#include <linux/landlock.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <linux/securebits.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "atomic.h"
#include "envfilter.h"
#include "glob.h"
#include "landlock.h"
#include "proxy.h"
#include "sandbox.h"
#include "syscallfilter.h"

#include "alloc.h"
#include "banned.h"

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
#define SANDBOX_BPF_MAX (4096 * 8) /* BPF_MAXINSNS instructions */

/* Resource defaults. */
#define SANDBOX_DEFAULT_PIDS 1024
#define SANDBOX_FSIZE_MAX (64ULL << 30) /* one file: 64 GiB */
#define SANDBOX_NOFILE_MAX 65536

/* Exit statuses (DESIGN.md). */
#define ST_TIMEOUT 124
#define ST_SETUP 125
#define ST_NOEXEC 126
#define ST_NOTFOUND 127

/* Credential locations under $HOME, masked in every run. */
static const char *const cred_paths[] = {
	".ssh",
	".aws",
	".gnupg",
	".azure",
	".kube",
	".config/gcloud",
	".config/gh",
	".docker",
	".netrc",
	".npmrc",
	".pypirc",
	".git-credentials",
	".cargo/credentials",
	".cargo/credentials.toml",
	".vault-token",
	".config/hub",
	".config/op",
	".password-store",
	".terraform.d/credentials.tfrc.json",
	".local/share/keyrings",
};

/* Secrets in the workspace, masked in every run (glob.h syntax, relative
 * to the workspace, floating at any depth). */
static const char *const default_deny_globs[] = {
	".env",
	".env.*",
	"*.pem",
	"*.key",
};

/* Sockets of root daemons that would hand out root (the sandbox's uid may
 * be the caller's root): masked when present. */
static const char *const daemon_sockets[] = {
	"/run/docker.sock",	     "/run/containerd/containerd.sock",
	"/run/podman/podman.sock",   "/run/dbus/system_bus_socket",
	"/run/systemd/private",	     "/run/snapd.socket",
	"/run/libvirt/libvirt-sock",
};

/* Workspace entries that something outside the sandbox runs later. */
static const char *const ws_run_later[] = {
	".cordon", ".claude", ".codex", ".vscode", ".idea",
};

/* Shell rc and git configuration in $HOME: run later by every shell. */
static const char *const home_run_later[] = {
	".bashrc",
	".bash_profile",
	".bash_login",
	".bash_logout",
	".profile",
	".zshrc",
	".zshenv",
	".zprofile",
	".zlogin",
	".zlogout",
	".gitconfig",
	".config/git/config",
	".config/fish/config.fish",
};

/* Toolchains kept readable with --no-read-home. */
static const char *const home_toolchains[] = {
	".cargo/bin",
	".rustup",
	".nvm",
	".local/bin",
	".local/lib",
	".pyenv",
	".rbenv",
	"go",
	".deno",
	".bun",
	".volta",
	".sdkman",
	".npm-global",
	".asdf",
	".ghcup",
	".opam",
	".nix-profile",
	".local/share/pnpm",
	".local/share/mise",
	"bin",
};

/* Package caches made writable with --cache-writes. */
static const char *const home_caches[] = {
	".cache",     ".npm",		".cargo/registry",
	".cargo/git", ".m2/repository", ".gradle/caches",
	"go/pkg/mod", ".pnpm-store",	".bun/install/cache",
};

/* ---- the plan ----------------------------------------------------------- */

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
	int procs_fd; /* its cgroup.procs, for the child */
	int lock_fd; /* the leaf, flock'ed while this run uses it */
	bool v2;
};

struct sandbox_plan {
	const struct sandbox_opts *o;
	struct arena arena;
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
	char *walk_bufs; /* one getdents buffer per level */
	const char *walk_glob_abs[SANDBOX_MAX_LIST + 8];
	size_t nwalk_glob;
	size_t nwalk_default; /* the first ones: cordon's default globs */
	const char *walk_dw_abs[SANDBOX_MAX_LIST]; /* deny_write globs */
	size_t nwalk_dw;
	const char *dw_dir; /* the last directory a deny_write glob matched */
	const char *walk_roots[SANDBOX_MAX_WALK_ROOTS];
	size_t nwalk_roots;

	/* placeholders created in the host tree, listed in a registry that
	 * the last run to finish empties (ph_fd: flock'ed shared meanwhile) */
	int ph_fd;
	bool ph_missed; /* a missing run-later path went unprotected */
	bool dw_missed; /* ... a missing deny_write path */
	bool home_nocreate; /* Landlock: no new entries directly in $HOME */
	bool sock_missed; /* a runtime directory holds a writable root */
	bool reaper; /* landlock backend: a sub-reaper runs the command */

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
	int sync_r, sync_w; /* parent -> child: cgroup joined, then the
				 seccomp program (built while the child sets
				 up its namespaces) */
	int st_status; /* that status */
	bool st_have;
	int out_r[2], out_w[2];
	int null_fd;
	int parent_pidfd;
	/* network proxy: the port the command is told about, the socket
	 * pair the child hands the listening socket over (namespaces), the
	 * proxy and the thread that runs it */
	unsigned short proxy_port;
	int pxs_r, pxs_w;
	struct px *px;
	pthread_t proxy_thread;
	bool proxy_running;
	char proxy_diag[320];
	sigset_t oldmask;
	mode_t old_umask;

	char error[512]; /* a planning failure */
};

__attribute__((format(printf, 2, 3))) static int plan_fail(struct sandbox_plan *p,
							   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* A truncated message still names the step. */
	(void)vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	return -1;
}

static char *plan_strdup(struct sandbox_plan *p, const char *s)
{
	return arena_strndup(&p->arena, s, strlen(s));
}

/* a + "/" + b in the arena; NULL when too long or out of memory. */
static char *plan_join(struct sandbox_plan *p, const char *a, const char *b)
{
	char buf[PATH_MAX];
	int n;

	if (strcmp(a, "/") == 0)
		n = snprintf(buf, sizeof(buf), "/%s", b);
	else
		n = snprintf(buf, sizeof(buf), "%s/%s", a, b);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return NULL;
	return plan_strdup(p, buf);
}

/* The canonical form of path in the arena; NULL with errno. */
static char *plan_canon(struct sandbox_plan *p, const char *path)
{
	char buf[PATH_MAX];

	if (!realpath(path, buf))
		return NULL;
	return plan_strdup(p, buf);
}

static bool path_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return path[0] == '/';
	return strncmp(path, root, n) == 0 &&
	       (path[n] == '\0' || path[n] == '/');
}

/* Under a writable root that shows the host's files: not the private /tmp
 * or the --no-read-home tmpfs of the namespaces backend. */
static bool under_host_writable(const struct sandbox_plan *p, const char *path)
{
	for (size_t i = 0; i < p->nrw; i++) {
		if (strcmp(p->rw[i], "/tmp") == 0 ||
		    (p->o->no_read_home && strcmp(p->rw[i], p->home) == 0))
			continue;
		if (path_under(path, p->rw[i]))
			return true;
	}
	return false;
}

static size_t path_depth(const char *path)
{
	size_t d = 0;

	for (const char *s = path; *s; s++)
		d += *s == '/';
	return d;
}

static int plan_add_op(struct sandbox_plan *p, enum sandbox_op_kind kind,
		       unsigned flags, const char *target, const char *source,
		       const char *step)
{
	struct sandbox_op *op;

	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].kind == kind &&
		    strcmp(p->ops[i].target, target) == 0)
			return 0;
	if (p->nops >= SANDBOX_MAX_MOUNTS)
		return plan_fail(p,
				 "%s %s: more than %d mounts (SANDBOX_MAX_MOUNTS)",
				 step, target, SANDBOX_MAX_MOUNTS);
	op = &p->ops[p->nops++];
	op->kind = kind;
	op->flags = flags;
	op->target = target;
	op->source = source;
	op->step = step;
	op->src_fd = -1;
	return 0;
}

static int plan_add_rw(struct sandbox_plan *p, const char *path)
{
	for (size_t i = 0; i < p->nrw; i++)
		if (strcmp(p->rw[i], path) == 0)
			return 0;
	if (p->nrw >= SANDBOX_MAX_LIST + 32)
		return plan_fail(
			p, "writable root %s: more than %d (SANDBOX_MAX_LIST)",
			path, SANDBOX_MAX_LIST);
	p->rw[p->nrw++] = path;
	return 0;
}

/* Masks path (canonicalised first: the mask lands on what a read through
 * any symlink reaches). Missing paths are skipped. */
static int plan_mask(struct sandbox_plan *p, const char *path, const char *step)
{
	struct stat st;
	char *canon;

	/* Most credential locations do not exist: one lstat says so. */
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	canon = plan_canon(p, path);
	if (!canon) {
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES ||
		    errno == ELOOP)
			return 0;
		return plan_fail(p, "%s %s: %s", step, path, strerror(errno));
	}
	if (stat(canon, &st) != 0)
		return 0;
	if (strcmp(canon, "/") == 0)
		return plan_fail(p, "%s %s: refusing to hide /", step, path);
	return plan_add_op(p, S_ISDIR(st.st_mode) ? OP_MASK_DIR : OP_MASK_FILE,
			   OPF_OPTIONAL | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
			   canon, NULL, step);
}

/* ---- run-later paths ----------------------------------------------------- */

/* Reads at most SANDBOX_GIT_FILE_MAX bytes of a regular file (no symlink) into
 * buf; returns the length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	while ((size_t)total < cap - 1) {
		n = read(fd, buf + total, cap - 1 - (size_t)total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	return total;
}

/* Creates an empty directory (or file) where a missing run-later path
 * goes, so that a read-only mount can sit there, and lists it in the
 * registry: the last run to finish removes it again. Returns 0 or -1. */
static int plan_placeholder(struct sandbox_plan *p, const char *path, bool is_file)
{
	char line[PATH_MAX + 64];
	size_t len = strlen(path);
	struct stat st;
	int n;

	if (p->ph_fd < 0 || len + 48 >= sizeof(line) || strchr(path, '\n'))
		return -1;
	if (is_file) {
		int fd = open(path,
			      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				      O_CLOEXEC,
			      0644);

		if (fd < 0)
			return -1;
		close(fd);
	} else if (mkdir(path, 0755) != 0) {
		return -1;
	}
	if (lstat(path, &st) != 0)
		n = -1;
	else
		n = snprintf(line, sizeof(line), "%llu %llu %s\n",
			     (unsigned long long)st.st_dev,
			     (unsigned long long)st.st_ino, path);
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

#define RL_PLACEHOLDER 1u /* missing: keep it from being created */
#define RL_DIR 2u /* ... with a directory placeholder */
#define RL_FOLLOW 4u /* a final symlink: protect what it points to */
#define RL_DENY_WRITE 8u /* a deny_write path: named so, its way pinned */

/* parent's canonical form + "/" + path's last name, in the arena; NULL
 * with errno when the parent does not exist. */
static char *canon_parent(struct sandbox_plan *p, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t dl;

	if (!slash || slash[1] == '\0')
		return plan_canon(p, path);
	dl = (size_t)(slash - path);
	if (dl >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(dir, path, dl);
	dir[dl] = '\0';
	if (!realpath(dl ? dir : "/", real))
		return NULL;
	return plan_join(p, real, slash + 1);
}

/* path with its longest existing ancestor canonical and the names after
 * it kept as they are (its last name, the missing ones); NULL when too
 * long. */
static char *canon_loose(struct sandbox_plan *p, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX], out[PATH_MAX];
	size_t k = strlen(path);
	char *c = canon_parent(p, path);
	int n;

	if (c || path[0] != '/' || k >= sizeof(dir))
		return c;
	memcpy(dir, path, k + 1);
	while (k > 0) {
		while (k > 0 && dir[k] != '/')
			k--;
		dir[k] = '\0';
		if (!realpath(k ? dir : "/", real))
			continue;
		n = snprintf(out, sizeof(out), "%s%s",
			     strcmp(real, "/") == 0 ? "" : real, path + k);
		if (n < 0 || (size_t)n >= sizeof(out))
			return NULL;
		return plan_strdup(p, out);
	}
	return NULL;
}

/* The host writable root that holds path (the deepest); NULL when none. */
static const char *host_root_of(const struct sandbox_plan *p, const char *path)
{
	const char *best = NULL;

	for (size_t i = 0; i < p->nrw; i++) {
		if (strcmp(p->rw[i], "/tmp") == 0 ||
		    (p->o->no_read_home && strcmp(p->rw[i], p->home) == 0))
			continue;
		if (path_under(path, p->rw[i]) &&
		    (!best || strlen(p->rw[i]) > strlen(best)))
			best = p->rw[i];
	}
	return best;
}

/* Pins every directory below root down to dir (included): moving one of
 * them aside would take a read-only mount below it along and leave room
 * for a fresh file at the old path. */
static int plan_pin_down(struct sandbox_plan *p, const char *root, const char *dir,
			 const char *step)
{
	size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
	size_t dl = strlen(dir);

	if (!path_under(dir, root) || dl <= rl)
		return 0;
	for (size_t i = rl + 1; i <= dl; i++) {
		char *anc;

		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		anc = arena_strndup(&p->arena, dir, i);
		if (!anc)
			return plan_fail(p, "out of memory");
		if (plan_add_op(p, OP_PIN, OPF_OPTIONAL, anc, NULL, step))
			return -1;
	}
	return 0;
}

/* The directories from target's writable root down to its parent. */
static int plan_pin_way(struct sandbox_plan *p, const char *target)
{
	const char *root = host_root_of(p, target);
	const char *slash = strrchr(target, '/');
	char *parent;

	if (!root || !slash || slash == target)
		return 0;
	parent = arena_strndup(&p->arena, target, (size_t)(slash - target));
	if (!parent)
		return plan_fail(p, "out of memory");
	return plan_pin_down(p, root, parent, "protected path pin");
}

/* A missing run-later path: an empty placeholder at its first missing
 * component (a file, or a directory with RL_DIR), read-only inside, keeps
 * the whole path from being created. A file has no data block: creating
 * and removing it is cheap, and inside the sandbox `mkdir -p a/b` through
 * it fails with ENOTDIR. */
static int plan_missing(struct sandbox_plan *p, const char *path, unsigned fl)
{
	bool dw = fl & RL_DENY_WRITE;
	const char *what = dw ? "deny_write path" : "run-later path";
	char buf[PATH_MAX];
	size_t len = strlen(path);
	struct stat st;
	char *first;

	if (len >= sizeof(buf) || path[0] != '/')
		return 0;
	memcpy(buf, path, len + 1);
	for (char *s = buf + 1;; s++) {
		char *slash = strchr(s, '/');

		if (slash)
			*slash = '\0';
		if (lstat(buf, &st) != 0)
			break;
		if (!slash)
			return 0; /* it appeared meanwhile */
		*slash = '/';
		s = slash;
	}
	first = canon_parent(p, buf);
	if (!first || !under_host_writable(p, first))
		return 0;
	/* Directly in $HOME, the Landlock layer already refuses it. */
	if (p->home_nocreate && strrchr(first, '/') &&
	    (size_t)(strrchr(first, '/') - first) == strlen(p->home) &&
	    strncmp(first, p->home, strlen(p->home)) == 0)
		return 0;
	/* A directory only for the path itself, with RL_DIR. Another run
	 * may have made the same placeholder a moment ago: it is there to
	 * be protected all the same. */
	if (plan_placeholder(p, first,
			     !((fl & RL_DIR) && strcmp(buf, path) == 0)) != 0 &&
	    lstat(first, &st) != 0) {
		/* No registry: said in the report. */
		if (p->ph_fd < 0 && dw)
			p->dw_missed = true;
		else if (p->ph_fd < 0)
			p->ph_missed = true;
		return 0;
	}
	if (lstat(first, &st) != 0)
		return 0;
	if (S_ISLNK(st.st_mode))
		return plan_fail(p,
				 "%s %s became a symlink: refusing to mount "
				 "over it",
				 what, first);
	if (plan_pin_way(p, first))
		return -1;
	return plan_add_op(p, OP_RELOCK,
			   OPF_OPTIONAL | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
			   first, NULL,
			   dw ? "deny_write path (missing)" :
				"run-later path (missing)");
}

/* Protects path read-only when it lies in a writable root that shows the
 * host. A symlink is refused (it would redirect the mount) unless
 * RL_FOLLOW, where what it points to is protected instead. */
static int plan_run_later(struct sandbox_plan *p, const char *path, unsigned fl)
{
	const char *what = fl & RL_DENY_WRITE ? "deny_write path" :
						"run-later path";
	struct stat st;
	char *canon;

	if (!under_host_writable(p, path))
		return 0;
	canon = canon_parent(p, path);
	if (!canon || lstat(canon, &st) != 0) {
		if ((errno == ENOENT || errno == ENOTDIR) &&
		    (fl & RL_PLACEHOLDER))
			return plan_missing(p, path, fl);
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!(fl & RL_FOLLOW))
			return plan_fail(p,
					 "%s %s is a symlink: refusing to "
					 "mount over it (replace it with the "
					 "file or directory it points to)",
					 what, path);
		canon = plan_canon(p, path);
		if (!canon || stat(canon, &st) != 0 ||
		    !under_host_writable(p, canon))
			return 0;
	}
	/* Pinned on the way down, or `mv dir dir2; mkdir -p dir/...`
	 * would make a fresh, writable path in its place. */
	if (plan_pin_way(p, canon))
		return -1;
	return plan_add_op(p, OP_RELOCK,
			   OPF_OPTIONAL | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
			   canon, NULL, what);
}

/* core.hooksPath from a git config file, resolved against worktree. */
static int plan_hooks_path(struct sandbox_plan *p, const char *config,
			   const char *worktree)
{
	char val[PATH_MAX], full[PATH_MAX];
	bool in_core = false;
	char *buf = cordon__malloc(SANDBOX_GIT_FILE_MAX), *line, *save = NULL;
	ssize_t n;
	int rc = 0;

	if (!buf)
		return plan_fail(p, "out of memory");
	n = read_small(config, buf, SANDBOX_GIT_FILE_MAX);
	if (n <= 0)
		goto out;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *s = line, *e;
		size_t len;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[') {
			in_core = strncasecmp(s, "[core]", 6) == 0;
			continue;
		}
		if (!in_core || strncasecmp(s, "hookspath", 9) != 0)
			continue;
		s += 9;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '=')
			continue;
		s++;
		while (*s == ' ' || *s == '\t' || *s == '"')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' ||
				 e[-1] == '"' || e[-1] == '\r'))
			e--;
		len = (size_t)(e - s);
		if (len == 0 || len >= sizeof(val))
			continue;
		memcpy(val, s, len);
		val[len] = '\0';
		if (strncmp(val, "~/", 2) == 0)
			n = snprintf(full, sizeof(full), "%s/%s", p->home,
				     val + 2);
		else if (val[0] == '/')
			n = snprintf(full, sizeof(full), "%s", val);
		else
			n = snprintf(full, sizeof(full), "%s/%s", worktree,
				     val);
		if (n < 0 || (size_t)n >= sizeof(full))
			continue;
		{
			char *canon = plan_canon(p, full);

			if (canon)
				rc = plan_run_later(p, canon, 0);
			else
				rc = plan_run_later(p, full, RL_PLACEHOLDER);
			if (rc)
				goto out;
		}
	}
out:
	free(buf);
	return rc;
}

/* The hooks and config of a git directory (and of its common directory,
 * for worktrees). */
static int plan_gitdir(struct sandbox_plan *p, const char *gitdir,
		       const char *worktree)
{
	char buf[PATH_MAX];
	const char *dirs[2] = { gitdir, NULL };
	char *cd, *commondir;
	ssize_t n;

	cd = plan_join(p, gitdir, "commondir");
	if (!cd)
		return plan_fail(p, "git directory %s: path too long", gitdir);
	n = read_small(cd, buf, sizeof(buf));
	if (n > 0) {
		char full[PATH_MAX];
		int m;

		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = '\0';
		if (buf[0] == '/')
			m = snprintf(full, sizeof(full), "%s", buf);
		else
			m = snprintf(full, sizeof(full), "%s/%s", gitdir, buf);
		if (m > 0 && (size_t)m < sizeof(full)) {
			commondir = plan_canon(p, full);
			if (commondir && strcmp(commondir, gitdir) != 0)
				dirs[1] = commondir;
		}
	}
	/* A worktree's pointer to its common directory (and back). */
	if (dirs[1]) {
		char *gd = plan_join(p, gitdir, "gitdir");

		if (!gd || plan_run_later(p, cd, 0) || plan_run_later(p, gd, 0))
			return gd ? -1 : plan_fail(p, "path too long");
	}
	for (size_t i = 0; i < 2 && dirs[i]; i++) {
		char *hooks = plan_join(p, dirs[i], "hooks");
		char *config = plan_join(p, dirs[i], "config");
		char *wt = plan_join(p, dirs[i], "config.worktree");

		if (!hooks || !config || !wt)
			return plan_fail(p, "git directory %s: path too long",
					 dirs[i]);
		if (plan_run_later(p, hooks, RL_PLACEHOLDER) ||
		    plan_run_later(p, config, 0) || plan_run_later(p, wt, 0) ||
		    plan_hooks_path(p, config, worktree) ||
		    plan_hooks_path(p, wt, worktree))
			return -1;
	}
	return 0;
}

/* The nearest ancestor of dir with a .git (directory or "gitdir:" file),
 * as git finds it: not across a filesystem boundary. NULL when none. */
static char *enclosing_repo(struct sandbox_plan *p, const char *dir)
{
	char buf[PATH_MAX];
	struct stat st;
	size_t len = strlen(dir);
	dev_t dev;

	if (len >= sizeof(buf) || stat(dir, &st) != 0)
		return NULL;
	dev = st.st_dev;
	memcpy(buf, dir, len + 1);
	while (len > 1) {
		char *slash = strrchr(buf, '/');
		char *dotgit;

		if (!slash)
			return NULL;
		len = slash == buf ? 1 : (size_t)(slash - buf);
		buf[len] = '\0';
		if (stat(buf, &st) != 0 || st.st_dev != dev)
			return NULL;
		dotgit = plan_join(p, buf, ".git");
		if (dotgit && lstat(dotgit, &st) == 0 &&
		    (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			return plan_strdup(p, buf);
	}
	return NULL;
}

/* The repository whose work tree is dir: .git as a directory, or as a
 * "gitdir:" file (submodules, worktrees), which is protected too. */
static int plan_repo(struct sandbox_plan *p, const char *dir)
{
	char buf[PATH_MAX + 16];
	struct stat st;
	char *dotgit = plan_join(p, dir, ".git");
	ssize_t n;

	if (!dotgit)
		return plan_fail(p, "repository %s: path too long", dir);
	if (lstat(dotgit, &st) != 0) {
		/* A workspace inside a repository: that repository's hooks
		 * and config are protected where they are writable, and no
		 * placeholder breaks git in the workspace. */
		if (errno != ENOENT || strcmp(dir, p->ws) != 0)
			return 0;
		{
			char *enc = enclosing_repo(p, dir);

			if (enc)
				return plan_repo(p, enc);
		}
		/* A workspace without a repository: no `git init` with hooks
		 * that a later git would run (.git stays an empty file). */
		return plan_run_later(p, dotgit, RL_PLACEHOLDER);
	}
	if (S_ISDIR(st.st_mode)) {
		/* Pinned first: `mv .git elsewhere` would otherwise take the
		 * read-only hooks along and leave room for a new .git. */
		if (under_host_writable(p, dotgit) &&
		    plan_add_op(p, OP_PIN, OPF_OPTIONAL, dotgit, NULL,
				"git directory pin"))
			return -1;
		return plan_gitdir(p, dotgit, dir);
	}
	if (!S_ISREG(st.st_mode))
		return plan_run_later(p, dotgit, 0);
	if (plan_run_later(p, dotgit, 0))
		return -1;
	n = read_small(dotgit, buf, sizeof(buf));
	if (n > 8 && strncmp(buf, "gitdir:", 7) == 0) {
		char full[PATH_MAX];
		char *g = buf + 7, *canon;
		int m;

		while (*g == ' ' || *g == '\t')
			g++;
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
				 buf[n - 1] == ' '))
			buf[--n] = '\0';
		if (g[0] == '/')
			m = snprintf(full, sizeof(full), "%s", g);
		else
			m = snprintf(full, sizeof(full), "%s/%s", dir, g);
		if (m < 0 || (size_t)m >= sizeof(full))
			return 0;
		canon = plan_canon(p, full);
		if (canon)
			return plan_gitdir(p, canon, dir);
	}
	return 0;
}

/* ---- the walk: nested repositories and --deny-read globs ----------------- */

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

/* Dependency and cache directories the walk does not enter: packages do
 * not ship repositories or the user's secrets, and their test fixtures
 * (thousands of *.pem in node_modules) would each cost a mount. */
static const char *const walk_skip[] = {
	"node_modules", ".venv",	 "venv",    "__pycache__", ".tox",
	".mypy_cache",	".pytest_cache", ".gradle", ".terraform",
};

static bool walk_skipped(const char *name)
{
	for (size_t i = 0; i < sizeof(walk_skip) / sizeof(walk_skip[0]); i++)
		if (strcmp(name, walk_skip[i]) == 0)
			return true;
	return false;
}

/* Pins every directory from the workspace down to a nested repository:
 * moving one of them aside would take the read-only hooks along and leave
 * room for a fresh repository at the old path. */
static int plan_pin_chain(struct sandbox_plan *p, const char *dir)
{
	return plan_pin_down(p, p->ws, dir, "nested repository pin");
}

/* Handles one directory entry found by the walk at path (absolute). */
static int walk_entry(struct sandbox_plan *p, const char *path, const char *name,
		      unsigned char type, bool repos, bool in_skip,
		      bool *descend)
{
	*descend = type == DT_DIR;
	p->masked_last = false;
	if (repos && !in_skip && strcmp(name, ".git") == 0) {
		char dir[PATH_MAX];
		size_t len = strlen(path) - 5;

		*descend = false;
		if (len >= sizeof(dir))
			return 0;
		memcpy(dir, path, len);
		dir[len] = '\0';
		if (strcmp(len == 0 ? "/" : dir, p->ws) == 0)
			/* The workspace's own: done before the walk. */
			return 0;
		if (plan_pin_chain(p, dir))
			return -1;
		return plan_repo(p, len == 0 ? "/" : dir);
	}
	/* Below a dependency directory only the user's own globs. */
	for (size_t i = in_skip ? p->nwalk_default : 0; i < p->nwalk_glob;
	     i++) {
		if (glob_matchz(p->walk_glob_abs[i], path)) {
			*descend = false;
			p->masked_last = true;
			return plan_mask(p, path, "--deny-read mask");
		}
	}
	/* deny_write: the walk goes on below a matched directory (nested
	 * repositories, masks) without matching again inside it. */
	if (p->dw_dir && path_under(path, p->dw_dir))
		return 0;
	for (size_t i = 0; i < p->nwalk_dw; i++) {
		if (!glob_matchz(p->walk_dw_abs[i], path))
			continue;
		if (type == DT_DIR) {
			p->dw_dir = plan_strdup(p, path);
			if (!p->dw_dir)
				return plan_fail(p, "out of memory");
		}
		return plan_run_later(p, path, RL_DENY_WRITE);
	}
	return 0;
}

struct sandbox_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define SANDBOX_WALK_BUF 16384

/* A file with more than one link may have its other name outside every
 * writable root (planted before the run): writing through the workspace's
 * name would change it, so it is made read-only. */
static int walk_hardlink(struct sandbox_plan *p, int dfd, const char *name,
			 const char *path)
{
	struct stat st;
	char *dup;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_nlink < 2)
		return 0;
	dup = plan_strdup(p, path);
	if (!dup)
		return plan_fail(p, "out of memory");
	return plan_add_op(p, OP_RELOCK, OPF_OPTIONAL | OPF_FILE, dup, NULL,
			   "hardlinked file");
}

/* Walks the directory open at dfd (path is its absolute name), depth
 * levels left, within the entry budget. getdents64 straight into a buffer
 * per level: no stat of directories, one fstatat per regular file (for
 * the link count) in the workspace only. */
static int walk_dir(struct sandbox_plan *p, int dfd, char *path, size_t plen,
		    int depth, bool repos, bool in_skip)
{
	char *buf = p->walk_bufs + (size_t)depth * SANDBOX_WALK_BUF;
	int rc = 0;

	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, SANDBOX_WALK_BUF);

		if (n <= 0)
			break;
		for (long off = 0; off < n && rc == 0;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			const char *name = de->d_name;
			unsigned char type = de->d_type;
			size_t nl;
			bool descend;

			off += de->d_reclen;
			if (name[0] == '.' &&
			    (name[1] == '\0' ||
			     (name[1] == '.' && name[2] == '\0')))
				continue;
			if (++p->walk_entries > SANDBOX_WALK_MAX_ENTRIES) {
				p->walk_truncated = true;
				rc = 1;
				break;
			}
			nl = strlen(name);
			if (plen + 1 + nl >= PATH_MAX)
				continue;
			if (plen == 1) {
				memcpy(path + 1, name, nl + 1);
			} else {
				path[plen] = '/';
				memcpy(path + plen + 1, name, nl + 1);
			}
			if (type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(dfd, name, &st,
					    AT_SYMLINK_NOFOLLOW) != 0)
					continue;
				type = S_ISDIR(st.st_mode) ? DT_DIR :
				       S_ISLNK(st.st_mode) ? DT_LNK :
				       S_ISREG(st.st_mode) ? DT_REG :
							     DT_UNKNOWN;
			}
			rc = walk_entry(p, path, name, type, repos, in_skip,
					&descend);
			if (rc)
				break;
			if (type == DT_REG && repos && !in_skip &&
			    descend == false && p->masked_last == false) {
				rc = walk_hardlink(p, dfd, name, path);
				continue;
			}
			/* Dependency directories: entered only for the
			 * user's --deny-read and deny_write globs, never
			 * skipped silently. */
			if (descend && type == DT_DIR &&
			    (in_skip || !walk_skipped(name) ||
			     p->nwalk_glob > p->nwalk_default ||
			     p->nwalk_dw > 0)) {
				bool sub_skip = in_skip || walk_skipped(name);
				int sub;

				if (depth <= 0) {
					p->walk_truncated = true;
					continue;
				}
				sub = openat(dfd, name,
					     O_RDONLY | O_DIRECTORY |
						     O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					continue;
				rc = walk_dir(p, sub, path,
					      plen == 1 ? 1 + nl :
							  plen + 1 + nl,
					      depth - 1, repos, sub_skip);
			}
		}
		if (rc)
			break;
	}
	path[plen] = '\0';
	if (plen == 1)
		path[1] = '\0';
	close(dfd);
	/* 1 only stops the walk (the budget is spent); -1 is an error. */
	return rc;
}

static int walk_root(struct sandbox_plan *p, const char *root, bool repos)
{
	char path[PATH_MAX];
	size_t len = strlen(root);
	int fd;

	if (len >= sizeof(path))
		return 0;
	memcpy(path, root, len + 1);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (!p->walk_bufs) {
		p->walk_bufs = arena_alloc_raw(
			&p->arena,
			(size_t)(SANDBOX_WALK_MAX_DEPTH + 1) * SANDBOX_WALK_BUF);
		if (!p->walk_bufs) {
			close(fd);
			return plan_fail(p, "out of memory");
		}
	}
	return walk_dir(p, fd, path, len, SANDBOX_WALK_MAX_DEPTH, repos, false) <
			       0 ?
		       -1 :
		       0;
}

/* The absolute form of a --deny-read or deny_write entry: "~/" is $HOME,
 * a relative entry is the workspace's, and a name without '/' matches at
 * any depth below it (gitignore). Returns 0, or -1 when too long. */
static int entry_abs(const struct sandbox_plan *p, const char *entry, char *full,
		     size_t cap)
{
	const char *ws = strcmp(p->ws, "/") == 0 ? "" : p->ws;
	int n;

	if (strncmp(entry, "~/", 2) == 0)
		n = snprintf(full, cap, "%s/%s", p->home, entry + 2);
	else if (entry[0] == '/')
		n = snprintf(full, cap, "%s", entry);
	else if (!strchr(entry, '/'))
		n = snprintf(full, cap, "%s/**/%s", ws, entry);
	else
		n = snprintf(full, cap, "%s/%s", ws, entry);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* A directory for the walk to visit (canonical), once. */
static int plan_walk_root(struct sandbox_plan *p, const char *canon,
			  const char *what, const char *entry)
{
	for (size_t i = 0; i < p->nwalk_roots; i++)
		if (strcmp(p->walk_roots[i], canon) == 0)
			return 0;
	if (p->nwalk_roots >= SANDBOX_MAX_WALK_ROOTS)
		return plan_fail(p,
				 "%s %s: more than %d directories to walk "
				 "(SANDBOX_MAX_WALK_ROOTS)",
				 what, entry, SANDBOX_MAX_WALK_ROOTS);
	p->walk_roots[p->nwalk_roots++] = canon;
	return 0;
}

/* The length of a glob's literal directory: full[0..len) ("" is "/"). */
static size_t glob_prefix_len(const char *full)
{
	size_t plen = (size_t)(strpbrk(full, "*?[\\") - full);

	while (plen > 0 && full[plen - 1] != '/')
		plen--;
	return plen > 0 ? plen - 1 : 0;
}

/* Turns a --deny-read entry into a mask (a path) or a glob to match during
 * the walk; globs outside the workspace add a walk root at their literal
 * prefix. */
static int plan_deny_entry(struct sandbox_plan *p, const char *entry)
{
	char full[PATH_MAX], prefix[PATH_MAX];
	char *abs, *canon;
	size_t plen;

	if (entry_abs(p, entry, full, sizeof(full)) != 0)
		return plan_fail(p, "--deny-read %s: path too long", entry);
	if (!has_wildcard(full))
		return plan_mask(p, full, "--deny-read mask");

	abs = plan_strdup(p, full);
	if (!abs)
		return plan_fail(p, "out of memory");
	p->walk_glob_abs[p->nwalk_glob++] = abs;

	/* The literal prefix: the directory to walk. */
	plen = glob_prefix_len(full);
	memcpy(prefix, full, plen);
	prefix[plen] = '\0';
	canon = plan_canon(p, plen ? prefix : "/");
	if (!canon || path_under(canon, p->ws))
		return 0;
	return plan_walk_root(p, canon, "--deny-read", entry);
}

/* Collapses "//", "/./" and "NAME/../" of an absolute path in place,
 * lexically (a configured "./a" or "a/../b" means what it says); a final
 * '/' stays. */
static void path_normalise(char *s)
{
	size_t len = strlen(s);
	bool slash = len > 1 && s[len - 1] == '/';
	const char *in = s + 1, *end = s + len;
	char *out = s; /* the result is s[0..out): "/a/b", "" for "/" */

	while (in < end) {
		const char *e = memchr(in, '/', (size_t)(end - in));
		size_t n = e ? (size_t)(e - in) : (size_t)(end - in);
		const char *c = in;

		in = e ? e + 1 : end;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			while (out > s && *--out != '/')
				;
		} else if (n > 0 && !(n == 1 && c[0] == '.')) {
			/* out stays before c: the copy never overtakes */
			*out++ = '/';
			memmove(out, c, n);
			out += n;
		}
	}
	if (out == s || slash)
		*out++ = '/';
	*out = '\0';
}

/* A deny_write glob, its literal directory made canonical (the walk sees
 * canonical names), and the directories to walk for it: its literal
 * directory when that is writable, else the writable roots below it (the
 * workspace is walked anyway). */
static int plan_deny_write_glob(struct sandbox_plan *p, const char *entry,
				const char *full)
{
	char prefix[PATH_MAX], pat[PATH_MAX];
	size_t plen = glob_prefix_len(full);
	const char *rest = full + plen + (full[plen] == '/');
	char *canon, *abs;
	int n;

	memcpy(prefix, full, plen);
	prefix[plen] = '\0';
	canon = plan_canon(p, plen ? prefix : "/");
	if (!canon)
		return 0; /* nothing there to match */
	n = snprintf(pat, sizeof(pat), "%s/%s",
		     strcmp(canon, "/") == 0 ? "" : canon, rest);
	if (n < 0 || (size_t)n >= sizeof(pat))
		return plan_fail(p, "deny_write %s: path too long", entry);
	if (p->nwalk_dw >= SANDBOX_MAX_LIST)
		return plan_fail(p,
				 "deny_write %s: more than %d globs "
				 "(SANDBOX_MAX_LIST)",
				 entry, SANDBOX_MAX_LIST);
	abs = plan_strdup(p, pat);
	if (!abs)
		return plan_fail(p, "out of memory");
	p->walk_dw_abs[p->nwalk_dw++] = abs;
	if (path_under(canon, p->ws))
		return 0;
	if (under_host_writable(p, canon))
		return plan_walk_root(p, canon, "deny_write", entry);
	for (size_t i = 0; i < p->nrw; i++) {
		const char *r = p->rw[i];

		if (strcmp(r, "/tmp") == 0 ||
		    (p->o->no_read_home && strcmp(r, p->home) == 0) ||
		    !path_under(r, canon) || path_under(r, p->ws))
			continue;
		if (plan_walk_root(p, r, "deny_write", entry))
			return -1;
	}
	return 0;
}

/* A deny_write entry: a path re-bound read-only (or, missing, kept from
 * being created), or a glob matched by the walk; a bare name both matches
 * at any depth and is protected at the top of the workspace. Paths outside
 * every writable root are read-only already. */
static int plan_deny_write_entry(struct sandbox_plan *p, const char *entry)
{
	char full[PATH_MAX];
	char *canon;
	int n;

	if (!entry[0])
		return plan_fail(p, "deny_write: an empty entry");
	if (entry_abs(p, entry, full, sizeof(full)) != 0)
		return plan_fail(p, "deny_write %s: path too long", entry);
	path_normalise(full);
	if (has_wildcard(full)) {
		if (plan_deny_write_glob(p, entry, full))
			return -1;
		if (strchr(entry, '/') || has_wildcard(entry))
			return 0;
		n = snprintf(full, sizeof(full), "%s/%s",
			     strcmp(p->ws, "/") == 0 ? "" : p->ws, entry);
		if (n < 0 || (size_t)n >= sizeof(full))
			return plan_fail(p, "deny_write %s: path too long",
					 entry);
		path_normalise(full);
	}
	canon = canon_loose(p, full);
	if (!canon)
		return plan_fail(p, "deny_write %s: path too long", entry);
	return plan_run_later(p, canon, RL_PLACEHOLDER | RL_DENY_WRITE);
}

/* ---- building the plan -------------------------------------------------- */

static int cmp_depth(const void *a, const void *b)
{
	const struct sandbox_op *x = a, *y = b;
	size_t dx = path_depth(x->target), dy = path_depth(y->target);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->target, y->target);
}

/* A writable root given by the user: must exist; canonicalised. */
static int plan_writable(struct sandbox_plan *p, const char *path, const char *step,
			 bool optional, const char **out)
{
	struct stat st;
	char *canon = plan_canon(p, path);

	if (out)
		*out = NULL;
	if (!canon) {
		if (optional)
			return 0;
		return plan_fail(p, "%s %s: %s", step, path, strerror(errno));
	}
	if (stat(canon, &st) != 0)
		return plan_fail(p, "%s %s: %s", step, path, strerror(errno));
	if (strcmp(canon, "/") == 0 && p->backend == SANDBOX_BACKEND_NAMESPACES)
		return plan_fail(p,
				 "%s %s: / cannot be a writable root "
				 "(use --mode off)",
				 step, path);
	if (out)
		*out = canon;
	return plan_add_rw(p, canon);
}

/* The binds of $HOME under --no-read-home: toolchains and rc files
 * read-only. */
static int plan_home_binds(struct sandbox_plan *p)
{
	char link[PATH_MAX];
	size_t n = sizeof(home_toolchains) / sizeof(home_toolchains[0]);
	size_t m = sizeof(home_run_later) / sizeof(home_run_later[0]);

	for (size_t i = 0; i < n + m; i++) {
		const char *rel = i < n ? home_toolchains[i] :
					  home_run_later[i - n];
		char *path = plan_join(p, p->home, rel);
		struct stat st;

		if (!path)
			return plan_fail(p, "$HOME/%s: path too long", rel);
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			ssize_t len = readlink(path, link, sizeof(link) - 1);
			char *canon, *text;

			if (len <= 0)
				continue;
			link[len] = '\0';
			text = plan_strdup(p, link);
			if (!text ||
			    plan_add_op(p, OP_SYMLINK, OPF_CREATE, path, text,
					"toolchain symlink"))
				return text ? -1 :
					      plan_fail(p, "out of memory");
			canon = plan_canon(p, path);
			if (canon && path_under(canon, p->home) &&
			    stat(canon, &st) == 0 &&
			    plan_add_op(p, OP_BIND_RO,
					OPF_CREATE | (S_ISDIR(st.st_mode) ?
							      0 :
							      OPF_FILE),
					canon, canon, "toolchain"))
				return -1;
			continue;
		}
		if (plan_add_op(p, OP_BIND_RO,
				OPF_CREATE |
					(S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
				path, path, i < n ? "toolchain" : "rc file"))
			return -1;
	}
	return 0;
}

/* cordon's own configuration and caches (the probe's verdict) are "run
 * later" too: a sandboxed command must not loosen the next run. */
static int plan_cordon_dirs(struct sandbox_plan *p)
{
	static const struct {
		const char *env, *fallback;
	} dirs[] = {
		{ "XDG_CONFIG_HOME", ".config" },
		{ "XDG_CACHE_HOME", ".cache" },
		{ "XDG_STATE_HOME", ".local/state" },
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		const char *v = getenv(dirs[i].env);
		char full[PATH_MAX];
		int n;

		if (v && v[0] == '/')
			n = snprintf(full, sizeof(full), "%s/cordon", v);
		else
			n = snprintf(full, sizeof(full), "%s/%s/cordon",
				     p->home, dirs[i].fallback);
		if (n < 0 || (size_t)n >= sizeof(full))
			continue;
		if (plan_run_later(p, full, RL_PLACEHOLDER | RL_DIR))
			return -1;
	}
	return 0;
}

/* True when a writable root lies at or below dir: a mask over dir would
 * hide it (the masks are mounted after the binds). */
static bool covers_writable(const struct sandbox_plan *p, const char *dir)
{
	for (size_t i = 0; i < p->nrw; i++)
		if (path_under(p->rw[i], dir))
			return true;
	return path_under(p->ws, dir);
}

/* The socket a variable names ("unix:path=P", "unix://P", "P:pid:1" or a
 * plain path), masked when it is one. */
static int plan_env_socket(struct sandbox_plan *p, const char *name)
{
	const char *v = getenv(name), *s, *e;
	char path[PATH_MAX];
	struct stat st;
	char *canon;
	size_t len;

	if (!v)
		return 0;
	s = strstr(v, "unix:path=");
	if (s)
		s += 10;
	else if (strncmp(v, "unix://", 7) == 0)
		s = v + 7;
	else if (strncmp(v, "unix:", 5) == 0)
		s = v + 5;
	else
		s = v;
	if (s[0] != '/')
		return 0;
	e = s + strcspn(s, ",;:");
	len = (size_t)(e - s);
	if (len >= sizeof(path))
		return 0;
	memcpy(path, s, len);
	path[len] = '\0';
	canon = plan_canon(p, path);
	if (!canon || stat(canon, &st) != 0 || !S_ISSOCK(st.st_mode))
		return 0;
	return plan_add_op(p, OP_MASK_FILE, OPF_OPTIONAL | OPF_FILE, canon,
			   NULL, "agent socket mask");
}

/* Sockets of the user's session: connect(2) to a socket file is not a
 * write, so a read-only mount does not stop it, and behind them are the
 * session bus (systemd-run --user runs anything outside), the agents
 * whose keys the credential masks hide, rootless docker and podman. The
 * runtime directory ($XDG_RUNTIME_DIR, /run/user/UID; all of /run/user
 * for root) gets the empty read-only tmpfs, and the sockets named by
 * SSH_AUTH_SOCK and the like are masked wherever they are. */
static int plan_host_sockets(struct sandbox_plan *p)
{
	static const char *const vars[] = {
		"SSH_AUTH_SOCK",	   "DBUS_SESSION_BUS_ADDRESS",
		"DOCKER_HOST",		   "CONTAINER_HOST",
		"GPG_AGENT_INFO",	   "PULSE_SERVER",
	};
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char own[64];
	const char *dirs[3];
	size_t nd = 0;

	(void)snprintf(own, sizeof(own), "/run/user/%u", (unsigned)p->uid);
	if (p->uid == 0)
		dirs[nd++] = "/run/user";
	dirs[nd++] = own;
	if (rt && rt[0] == '/')
		dirs[nd++] = rt;
	for (size_t i = 0; i < nd; i++) {
		struct stat st;
		char *canon;

		if (lstat(dirs[i], &st) != 0)
			continue;
		canon = plan_canon(p, dirs[i]);
		if (!canon || stat(canon, &st) != 0 || !S_ISDIR(st.st_mode) ||
		    strcmp(canon, "/") == 0)
			continue;
		if (covers_writable(p, canon) || path_under(p->home, canon)) {
			p->sock_missed = true;
			continue;
		}
		if (plan_add_op(p, OP_MASK_DIR, OPF_OPTIONAL, canon, NULL,
				"runtime directory mask"))
			return -1;
	}
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (plan_env_socket(p, vars[i]))
			return -1;
	return 0;
}

/* Running as root, the sandbox's uid is 0 without capabilities: the owner
 * bits still open root's own files. The well-known secrets among them are
 * masked; the rest is said in the report. /root is masked unless it is the
 * home (then it is the home, as readable as any); a writable root below
 * it keeps its way in (the other entries of /root are masked one by
 * one). */
static int plan_root_masks(struct sandbox_plan *p)
{
	static const char *const files[] = {
		"/etc/shadow",	"/etc/gshadow",	   "/etc/shadow-",
		"/etc/gshadow-", "/etc/sudoers",   "/etc/sudoers.d",
		"/etc/ssl/private",
	};
	char buf[4096];
	int dfd;

	if (p->uid != 0)
		return 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (plan_mask(p, files[i], "root-only file mask"))
			return -1;
	/* /etc/ssh/ssh_host_*_key (the public halves stay). */
	dfd = open("/etc/ssh", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		for (;;) {
			long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

			if (n <= 0)
				break;
			for (long off = 0; off < n;) {
				struct sandbox_dirent64 *de =
					(struct sandbox_dirent64 *)(void *)(buf +
									off);
				size_t nl = strlen(de->d_name);
				char *path;

				off += de->d_reclen;
				if (nl < 4 ||
				    strcmp(de->d_name + nl - 4, "_key") != 0)
					continue;
				path = plan_join(p, "/etc/ssh", de->d_name);
				if (!path) {
					close(dfd);
					return plan_fail(p, "out of memory");
				}
				if (plan_mask(p, path, "root-only file mask")) {
					close(dfd);
					return -1;
				}
			}
		}
		close(dfd);
	}
	if (path_under(p->home, "/root") || path_under("/root", p->home))
		return 0;
	if (!covers_writable(p, "/root"))
		return plan_mask(p, "/root", "root-only file mask");
	dfd = open("/root", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			char *path;

			off += de->d_reclen;
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			path = plan_join(p, "/root", de->d_name);
			if (!path) {
				close(dfd);
				return plan_fail(p, "out of memory");
			}
			if (covers_writable(p, path))
				continue;
			if (plan_mask(p, path, "root-only file mask")) {
				close(dfd);
				return -1;
			}
		}
	}
	close(dfd);
	return 0;
}

/* Rounds up the mounts, in the order the child applies them. */
static int plan_mounts(struct sandbox_plan *p)
{
	const struct sandbox_opts *o = p->o;
	size_t first_bind;

	if (o->no_read_home) {
		if (strcmp(p->home, "/") == 0)
			return plan_fail(p, "--no-read-home: $HOME is /");
		if (plan_add_op(p, OP_TMPFS, 0, p->home, NULL,
				"--no-read-home tmpfs") ||
		    plan_add_rw(p, p->home))
			return -1;
	}
	first_bind = p->nops;
	if (o->no_read_home && plan_home_binds(p))
		return -1;
	for (size_t i = 0; i < p->nrw; i++) {
		struct stat st;

		if (strcmp(p->rw[i], "/tmp") == 0 ||
		    (o->no_read_home && strcmp(p->rw[i], p->home) == 0))
			continue;
		if (stat(p->rw[i], &st) != 0)
			return plan_fail(p, "writable root %s: %s", p->rw[i],
					 strerror(errno));
		if (plan_add_op(p, OP_BIND_RW,
				OPF_CREATE |
					(S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
				p->rw[i], p->rw[i], "writable root"))
			return -1;
	}
	/* Parents before children, so a nested root lands on top. */
	qsort(p->ops + first_bind, p->nops - first_bind, sizeof(p->ops[0]),
	      cmp_depth);

	for (size_t i = 0;
	     i < sizeof(daemon_sockets) / sizeof(daemon_sockets[0]); i++) {
		struct stat st;
		char *canon;

		if (lstat(daemon_sockets[i], &st) != 0)
			continue;
		canon = plan_canon(p, daemon_sockets[i]);
		if (canon && stat(canon, &st) == 0 && S_ISSOCK(st.st_mode) &&
		    plan_add_op(p, OP_MASK_FILE, OPF_OPTIONAL | OPF_FILE, canon,
				NULL, "daemon socket mask"))
			return -1;
	}
	if (plan_host_sockets(p) || plan_root_masks(p))
		return -1;
	for (size_t i = 0; i < sizeof(cred_paths) / sizeof(cred_paths[0]);
	     i++) {
		char *path = plan_join(p, p->home, cred_paths[i]);

		if (!path)
			return plan_fail(p, "$HOME/%s: path too long",
					 cred_paths[i]);
		if (plan_mask(p, path, "credential mask"))
			return -1;
	}

	/* --deny-read and the default secret globs; then one walk of the
	 * workspace finds their matches and the nested repositories. */
	for (size_t i = 0;
	     i < sizeof(default_deny_globs) / sizeof(default_deny_globs[0]);
	     i++)
		if (plan_deny_entry(p, default_deny_globs[i]))
			return -1;
	p->nwalk_default = p->nwalk_glob;
	for (size_t i = 0; i < o->ndeny_read; i++)
		if (plan_deny_entry(p, o->deny_read[i]))
			return -1;

	if (plan_repo(p, p->ws))
		return -1;
	for (size_t i = 0; i < sizeof(ws_run_later) / sizeof(ws_run_later[0]);
	     i++) {
		char *path = plan_join(p, p->ws, ws_run_later[i]);

		if (!path || plan_run_later(p, path, RL_PLACEHOLDER))
			return path ? -1 : plan_fail(p, "path too long");
	}
	/* A missing rc file directly in $HOME is kept from being created by
	 * a Landlock layer (no new entries directly in $HOME), not by a
	 * placeholder the host would see; unless $HOME is (inside) the
	 * workspace, whose top level must stay open: placeholders then. */
	if (!o->no_read_home && under_host_writable(p, p->home))
		p->home_nocreate = landlock_abi() >= 1 && !path_under(p->home, p->ws);
	if (plan_cordon_dirs(p))
		return -1;
	if (!o->no_read_home && under_host_writable(p, p->home)) {
		for (size_t i = 0;
		     i < sizeof(home_run_later) / sizeof(home_run_later[0]);
		     i++) {
			const char *rel = home_run_later[i];
			char *path = plan_join(p, p->home, rel);
			bool top = !strchr(rel, '/');

			/* Dotfile managers symlink rc files: protect the
			 * file they point to. */
			if (!path ||
			    plan_run_later(p, path,
					   RL_FOLLOW |
						   (top && p->home_nocreate ?
							    0 :
							    RL_PLACEHOLDER)))
				return path ? -1 :
					      plan_fail(p, "path too long");
		}
	}
	for (size_t i = 0; i < o->ndeny_write; i++)
		if (plan_deny_write_entry(p, o->deny_write[i]))
			return -1;
	if (walk_root(p, p->ws, true))
		return -1;
	for (size_t i = 0; i < p->nwalk_roots; i++)
		if (walk_root(p, p->walk_roots[i], false))
			return -1;
	return 0;
}

/* ---- cgroups ------------------------------------------------------------ */

static int write_str(const char *path, const char *s)
{
	size_t len = strlen(s);
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* Our cgroup path for a hierarchy: "0::" (v2) or the v1 controller name. */
static bool own_cgroup(const char *controller, char *out, size_t cap)
{
	char buf[4096];
	ssize_t n = read_small("/proc/self/cgroup", buf, sizeof(buf));
	char *line, *save = NULL;

	if (n <= 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2;
		size_t len;

		if (!c1)
			continue;
		c2 = strchr(c1 + 1, ':');
		if (!c2)
			continue;
		*c2 = '\0';
		if (controller ? strcmp(c1 + 1, controller) != 0 :
				 strcmp(line, "0:") != 0)
			continue;
		len = strlen(c2 + 1);
		if (len >= cap)
			return false;
		memcpy(out, c2 + 1, len + 1);
		return true;
	}
	return false;
}

static int cg_open_procs(const char *leaf)
{
	char path[PATH_MAX + 16];
	int n = snprintf(path, sizeof(path), "%s/cgroup.procs", leaf);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	return open(path, O_WRONLY | O_CLOEXEC);
}

static bool cg_write_leaf(const char *leaf, const char *file,
			  unsigned long long v)
{
	char path[PATH_MAX + 32], num[32];
	int n = snprintf(path, sizeof(path), "%s/%s", leaf, file);

	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	if (v)
		(void)snprintf(num, sizeof(num), "%llu", v);
	else
		memcpy(num, "max", 4);
	return write_str(path, num) == 0;
}

/* The cgroup v2 mount: /sys/fs/cgroup, or /sys/fs/cgroup/unified. */
static const char *cg2_mount(void)
{
	static const char *const cands[] = { "/sys/fs/cgroup",
					     "/sys/fs/cgroup/unified" };
	struct statfs sf;

	for (size_t i = 0; i < 2; i++)
		if (statfs(cands[i], &sf) == 0 &&
		    (unsigned long)sf.f_type ==
			    (unsigned long)CGROUP2_SUPER_MAGIC)
			return cands[i];
	return NULL;
}

/* Does our v2 cgroup hand the memory and pids controllers to its
 * children? (Enabling them is the system's business, not ours.) */
static bool cg2_delegates(const char *m2, const char *own)
{
	char path[PATH_MAX + 64], buf[512];
	bool mem = false, pids = false;
	char *w, *save = NULL;
	int n = snprintf(path, sizeof(path), "%s%s/cgroup.subtree_control", m2,
			 strcmp(own, "/") == 0 ? "" : own);

	if (n < 0 || (size_t)n >= sizeof(path) ||
	    read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	for (w = strtok_r(buf, " \n", &save); w;
	     w = strtok_r(NULL, " \n", &save)) {
		mem |= strcmp(w, "memory") == 0;
		pids |= strcmp(w, "pids") == 0;
	}
	return mem && pids;
}

static void cg_clear(struct sandbox_cgroup *cg)
{
	cg->path[0] = '\0';
	cg->procs_fd = -1;
	cg->lock_fd = -1;
	cg->v2 = false;
}

static void cg_release(struct sandbox_cgroup *cg)
{
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->lock_fd >= 0)
		close(cg->lock_fd);
	cg_clear(cg);
}

static void cg_kill(const struct sandbox_cgroup *cg);

/* Nothing charged to the leaf? pids.current, not cgroup.procs: a task
 * that has exited leaves the list before its pid is uncharged. */
static bool cg_empty(const struct sandbox_cgroup *cg)
{
	char path[PATH_MAX + 16], buf[32];
	int n = snprintf(path, sizeof(path), "%s/pids.current", cg->path);

	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	return read_small(path, buf, sizeof(buf)) > 0 && buf[0] == '0' &&
	       (buf[1] == '\n' || buf[1] == '\0');
}

/* Takes a free leaf of the pool below base+own: cordon-UID-N, created on
 * first use and kept (creating and removing a cgroup per run costs more
 * than the rest of the set-up), owned by whoever holds its flock. */
static bool cg_pool_take(const char *base, const char *own,
			 struct sandbox_cgroup *cg)
{
	const char *sep = own[0] && own[strlen(own) - 1] == '/' ? "" : "/";

	for (unsigned i = 0; i < SANDBOX_CG_POOL; i++) {
		int n = snprintf(cg->path, sizeof(cg->path),
				 "%s%s%scordon-%u-%u", base, own, sep,
				 (unsigned)geteuid(), i);
		int fd;

		if (n < 0 || (size_t)n >= sizeof(cg->path))
			break;
		if (mkdir(cg->path, 0755) != 0 && errno != EEXIST)
			break;
		fd = open(cg->path,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			break;
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			close(fd);
			continue;
		}
		cg->lock_fd = fd;
		/* The last run's processes may still be dying (PID 1 lets go
		 * of the lock before its namespace is reaped): they would
		 * count against pids.max. Finish them, use another leaf. */
		if (!cg_empty(cg)) {
			cg_kill(cg);
			close(fd);
			cg->lock_fd = -1;
			continue;
		}
		return true;
	}
	cg_clear(cg);
	return false;
}

/* A leaf with memory.max and pids.max: cgroup v2 when our cgroup can
 * delegate both controllers; else the v1 pids hierarchy (memory is then
 * capped by RLIMIT_AS: joining a v1 memory cgroup costs ~10 ms). */
static void plan_cgroup(struct sandbox_plan *p, unsigned long long mem,
			unsigned long long pids)
{
	char own[PATH_MAX];
	const char *m2 = cg2_mount();
	struct sandbox_cgroup *cg = &p->cg;

	cg_clear(cg);
	if (m2 && own_cgroup(NULL, own, sizeof(own)) &&
	    cg2_delegates(m2, own) && cg_pool_take(m2, own, cg)) {
		if (cg_write_leaf(cg->path, "memory.max", mem) &&
		    cg_write_leaf(cg->path, "pids.max", pids) &&
		    (cg->procs_fd = cg_open_procs(cg->path)) >= 0) {
			cg->v2 = true;
			p->mem_by_cgroup = mem != 0;
			p->pids_by_cgroup = true;
			return;
		}
		cg_release(cg);
	}
	if (own_cgroup("pids", own, sizeof(own)) &&
	    cg_pool_take("/sys/fs/cgroup/pids", own, cg)) {
		if (cg_write_leaf(cg->path, "pids.max", pids) &&
		    (cg->procs_fd = cg_open_procs(cg->path)) >= 0) {
			p->pids_by_cgroup = true;
			return;
		}
		cg_release(cg);
	}
}

/* Kills every process left in the leaf (bounded passes: a fork bomb in it
 * is capped by pids.max). */
static void cg_kill(const struct sandbox_cgroup *cg)
{
	char path[PATH_MAX + 32];
	char buf[16384];
	int n;

	if (!cg->path[0])
		return;
	if (cg->v2) {
		n = snprintf(path, sizeof(path), "%s/cgroup.kill", cg->path);
		if (n > 0 && (size_t)n < sizeof(path) &&
		    write_str(path, "1") == 0)
			return;
	}
	n = snprintf(path, sizeof(path), "%s/cgroup.procs", cg->path);
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	for (int pass = 0; pass < 64; pass++) {
		ssize_t len = read_small(path, buf, sizeof(buf));
		char *s, *save = NULL;
		bool any = false;

		if (len <= 0)
			return;
		for (s = strtok_r(buf, "\n", &save); s;
		     s = strtok_r(NULL, "\n", &save)) {
			char *end;
			long pid;

			errno = 0;
			pid = strtol(s, &end, 10);
			if (errno || end == s || pid <= 1)
				continue;
			(void)kill((pid_t)pid, SIGKILL);
			any = true;
		}
		if (!any)
			return;
	}
}

/* ---- the child: common steps -------------------------------------------- */

__attribute__((noreturn, format(printf, 4, 5))) static void
child_die(const struct sandbox_plan *p, int status, int err, const char *fmt, ...)
{
	char buf[sizeof(((struct sandbox_report *)0)->error) + 8];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), "%d ", status);
	size_t len;

	va_start(ap, fmt);
	(void)vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	/* strerrordesc_np: no locale, no lock (strerror may take the
	 * gettext lock, which another thread of the host may have held at
	 * the clone). */
	if (err && len < sizeof(buf)) {
		const char *desc = strerrordesc_np(err);

		if (desc)
			(void)snprintf(buf + len, sizeof(buf) - len, ": %s",
				       desc);
		else
			(void)snprintf(buf + len, sizeof(buf) - len,
				       ": errno %d", err);
	}
	len = strlen(buf);
	if (write(p->err_w, buf, len) < 0) {
		/* The parent is gone; the status says enough. */
	}
	_exit(status);
}

/* Drops every capability and keeps them from coming back on exec (the
 * sandbox's uid may be 0). */
static void child_drop_caps(const struct sandbox_plan *p)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		child_die(p, ST_SETUP, errno, "capget");
	if (data[0].permitted & (1u << CAP_SETPCAP)) {
		unsigned long bits =
			SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
			SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
			SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
			SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;

		if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0)
			child_die(p, ST_SETUP, errno,
				  "drop capabilities: "
				  "securebits");
		for (int cap = 0; cap <= 63; cap++)
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 &&
			    errno != EINVAL)
				child_die(p, ST_SETUP, errno,
					  "drop capabilities: bounding set");
	}
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data) != 0)
		child_die(p, ST_SETUP, errno, "drop capabilities: capset");
}

static void child_rlimit(const struct sandbox_plan *p, int res, const char *name,
			 rlim_t soft, rlim_t hard)
{
	struct rlimit cur, rl;

	if (getrlimit(res, &cur) != 0)
		child_die(p, ST_SETUP, errno, "rlimit %s", name);
	rl.rlim_cur = soft;
	rl.rlim_max = hard;
	/* Never raise what the caller already capped. */
	if (cur.rlim_max != RLIM_INFINITY && rl.rlim_max > cur.rlim_max)
		rl.rlim_max = cur.rlim_max;
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	if (setrlimit(res, &rl) != 0)
		child_die(p, ST_SETUP, errno, "rlimit %s", name);
}

static void child_rlimits(const struct sandbox_plan *p)
{
	const struct sandbox_opts *o = p->o;
	unsigned long pids = o->pids ? o->pids : SANDBOX_DEFAULT_PIDS;

	if (o->cpu_s)
		child_rlimit(p, RLIMIT_CPU, "RLIMIT_CPU", o->cpu_s,
			     o->cpu_s + 1);
	child_rlimit(p, RLIMIT_NPROC, "RLIMIT_NPROC", pids, pids);
	child_rlimit(p, RLIMIT_FSIZE, "RLIMIT_FSIZE", SANDBOX_FSIZE_MAX,
		     SANDBOX_FSIZE_MAX);
	child_rlimit(p, RLIMIT_NOFILE, "RLIMIT_NOFILE", SANDBOX_NOFILE_MAX,
		     SANDBOX_NOFILE_MAX);
	child_rlimit(p, RLIMIT_CORE, "RLIMIT_CORE", 0, 0);
}

/* Reads exactly n bytes from the parent's sync pipe. */
static bool child_read_sync(const struct sandbox_plan *p, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(p->sync_r, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* Waits until the parent has moved us into the cgroup leaf (cgroup v1: a
 * migration can wait for an RCU grace period, so the parent does it while
 * we set up). Every process forked after this is counted. The leaf's lock
 * fd stays open here: the leaf is not handed to another run until this
 * process is gone. */
static void child_wait_cgroup(const struct sandbox_plan *p)
{
	char c = 0;

	if (p->sync_r < 0)
		return;
	if (!child_read_sync(p, &c, 1) || c != 'J')
		child_die(p, ST_SETUP, 0,
			  "cgroup %s: the parent could not "
			  "move the sandbox into it",
			  p->cg.path);
}

/* The seccomp program the parent compiled (length, then instructions). */
static void child_read_prog(const struct sandbox_plan *p, struct syscallfilter_prog *prog)
{
	static unsigned char buf[SANDBOX_BPF_MAX];
	uint32_t len = 0;

	if (!child_read_sync(p, &len, sizeof(len)) || len == 0 ||
	    len > sizeof(buf) || !child_read_sync(p, buf, len))
		child_die(p, ST_SETUP, 0,
			  "seccomp: the parent could not build the filter");
	prog->insns = buf;
	prog->len = len;
}

#define SANDBOX_MAKE_RIGHTS                                                        \
	(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |          \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |          \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |        \
	 LANDLOCK_ACCESS_FS_MAKE_SYM)
#define SANDBOX_NOCREATE_MAX_RULES 4096

/* Grants the make rights beneath every directory entry of dir except
 * `except` (one rule each). */
static void nocreate_dir(const struct sandbox_plan *p, int ruleset, const char *dir,
			 const char *except, unsigned *count)
{
	char buf[8192];
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		child_die(p, ST_SETUP, errno, "landlock: $HOME layer: open %s",
			  dir);
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			struct landlock_path_beneath_attr pb;
			int fd;

			off += de->d_reclen;
			if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
				continue;
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    (except && strcmp(de->d_name, except) == 0))
				continue;
			fd = openat(dfd, de->d_name,
				    O_PATH | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
			if (fd < 0)
				continue; /* not a directory: nothing to make */
			if (++*count > SANDBOX_NOCREATE_MAX_RULES)
				child_die(
					p, ST_SETUP, 0,
					"landlock: $HOME layer: more than %d "
					"directories (SANDBOX_NOCREATE_MAX_RULES)",
					SANDBOX_NOCREATE_MAX_RULES);
			memset(&pb, 0, sizeof(pb));
			pb.allowed_access = SANDBOX_MAKE_RIGHTS;
			pb.parent_fd = fd;
			if (syscall(SYS_landlock_add_rule, ruleset,
				    LANDLOCK_RULE_PATH_BENEATH, &pb,
				    (uint32_t)0) != 0)
				child_die(p, ST_SETUP, errno,
					  "landlock: $HOME layer: rule for "
					  "%s/%s",
					  dir, de->d_name);
			close(fd);
		}
	}
	close(dfd);
}

/* A second Landlock layer for a writable $HOME: nothing new may be made
 * directly in $HOME (a missing ~/.zshrc or ~/.ssh stays missing) or in
 * its ancestors; everywhere else the first layer decides. */
static void child_home_nocreate(const struct sandbox_plan *p)
{
	struct landlock_ruleset_attr attr;
	char anc[PATH_MAX];
	size_t len = strlen(p->home);
	unsigned count = 0;
	int rs;

	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = SANDBOX_MAKE_RIGHTS;
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
			  (uint32_t)0);
	if (rs < 0)
		child_die(p, ST_SETUP, errno, "landlock: $HOME layer");
	if (len >= sizeof(anc))
		child_die(p, ST_SETUP, ENAMETOOLONG, "landlock: $HOME layer");
	/* Each ancestor: every entry but the next step towards $HOME. */
	for (size_t i = 0; i < len; i++) {
		const char *next;
		char name[NAME_MAX + 1];
		size_t nl;

		if (p->home[i] != '/')
			continue;
		memcpy(anc, p->home, i ? i : 1);
		anc[i ? i : 1] = '\0';
		next = p->home + i + 1;
		nl = strcspn(next, "/");
		if (nl == 0 || nl > NAME_MAX)
			continue;
		memcpy(name, next, nl);
		name[nl] = '\0';
		nocreate_dir(p, rs, anc, name, &count);
	}
	nocreate_dir(p, rs, p->home, NULL, &count);
	if (syscall(SYS_landlock_restrict_self, rs, (uint32_t)0) != 0)
		child_die(p, ST_SETUP, errno,
			  "landlock: $HOME layer: restrict");
	close(rs);
}

/* The last steps of the command's process: rlimits, stdio, environment,
 * no_new_privs, Landlock, seccomp, exec. */
__attribute__((noreturn)) static void child_exec(const struct sandbox_plan *p,
						 bool sandboxed)
{
	const struct sandbox_opts *o = p->o;
	struct landlock_policy llp;
	struct syscallfilter_prog prog;
	char why[256];
	unsigned lost = 0;
	int err;
	extern char **environ;

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
	umask(p->old_umask);
	if (sandboxed)
		child_rlimits(p);
	if (p->null_fd >= 0 && dup2(p->null_fd, 0) < 0)
		child_die(p, ST_SETUP, errno, "stdin /dev/null");
	if (p->out_w[0] >= 0 && dup2(p->out_w[0], 1) < 0)
		child_die(p, ST_SETUP, errno, "stdout pipe");
	if (p->out_w[1] >= 0 && dup2(p->out_w[1], 2) < 0)
		child_die(p, ST_SETUP, errno, "stderr pipe");

	if (!sandboxed)
		goto exec;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		child_die(p, ST_SETUP, errno, "no_new_privs");
	memset(&llp, 0, sizeof(llp));
	llp.rw = p->rw;
	llp.nrw = p->nrw;
	llp.restrict_tcp = o->network == SANDBOX_NET_NONE ||
			   o->network == SANDBOX_NET_PROXY;
	if (o->network == SANDBOX_NET_PROXY) {
		llp.tcp_ports = &p->proxy_port;
		llp.ntcp_ports = 1;
	}
	llp.scope = true;
	if (landlock_apply(&llp, &lost, why, sizeof(why)) != 0)
		child_die(p, ST_SETUP, 0, "%s", why);
	if (o->mode == SANDBOX_MODE_STRICT && (lost & LANDLOCK_LOST_ALL))
		child_die(p, ST_SETUP, 0, "strict mode: %s", why);
	if (p->home_nocreate)
		child_home_nocreate(p);
	child_read_prog(p, &prog);
	if (syscallfilter_load(&prog, why, sizeof(why)) != 0)
		child_die(p, ST_SETUP, 0, "%s", why);
	/* Last: an address-space cap would starve the set-up itself. */
	if (o->memory_mb && !p->mem_by_cgroup) {
		rlim_t as = (rlim_t)o->memory_mb << 20;

		child_rlimit(p, RLIMIT_AS, "RLIMIT_AS", as, as);
	}
	/* Descriptors inherited from the caller (a file or directory outside
	 * the writable roots) must not reach the command. */
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
		child_die(p, ST_SETUP, errno, "close inherited descriptors");
exec:
	environ = p->envp;
	if (p->exec_path)
		execv(p->exec_path, p->argv);
	else
		execvp(p->argv[0], p->argv);
	err = errno;
	child_die(p, err == ENOENT ? ST_NOTFOUND : ST_NOEXEC, err, "exec %s",
		  p->argv[0]);
}

/* ---- the child: the mount namespace ------------------------------------- */

static int xopenat2(int dfd, const char *path, int flags,
		    unsigned long long res)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)flags;
	how.resolve = res;
	return (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
}

#define RES_TREE (RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

static void child_write_file(const struct sandbox_plan *p, const char *path,
			     const char *s)
{
	if (write_str(path, s) != 0)
		child_die(p, ST_SETUP, errno, "user namespace: write %s", path);
}

static void child_idmaps(const struct sandbox_plan *p)
{
	char buf[64];

	(void)snprintf(buf, sizeof(buf), "%u %u 1\n", (unsigned)p->uid,
		       (unsigned)p->uid);
	child_write_file(p, "/proc/self/uid_map", buf);
	child_write_file(p, "/proc/self/setgroups", "deny\n");
	(void)snprintf(buf, sizeof(buf), "%u %u 1\n", (unsigned)p->gid,
		       (unsigned)p->gid);
	child_write_file(p, "/proc/self/gid_map", buf);
}

static void child_setattr(const struct sandbox_plan *p, int fd,
			  unsigned long long set, const char *what,
			  const char *path)
{
	struct mount_attr a;

	memset(&a, 0, sizeof(a));
	a.attr_set = set;
	if (mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a,
			  sizeof(a)) != 0)
		child_die(p, ST_SETUP, errno, "mount %s (%s): set attributes",
			  path, what);
}

/* A fresh filesystem (tmpfs, proc, devpts) as a detached mount. */
static int child_fsmount(const char *type, const char *const *opts,
			 unsigned attrs)
{
	int fs = fsopen(type, FSOPEN_CLOEXEC), m, err;

	if (fs < 0)
		return -1;
	for (size_t i = 0; opts && opts[i]; i += 2)
		if (fsconfig(fs, FSCONFIG_SET_STRING, opts[i], opts[i + 1],
			     0) != 0)
			goto fail;
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0)
		goto fail;
	m = fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	err = errno;
	close(fs);
	errno = err;
	return m;
fail:
	err = errno;
	close(fs);
	errno = err;
	return -1;
}

/* Creates the missing components of rel below rootfd (directories, and a
 * file last when is_file), never through a symlink. */
static void child_mkpath(const struct sandbox_plan *p, int rootfd, const char *rel,
			 bool is_file, const struct sandbox_op *op)
{
	char buf[PATH_MAX];
	size_t len = strlen(rel);
	int cur;
	char *s, *slash;

	if (len >= sizeof(buf))
		child_die(p, ST_SETUP, ENAMETOOLONG, "mount %s (%s)",
			  op->target, op->step);
	memcpy(buf, rel, len + 1);
	cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	if (cur < 0)
		child_die(p, ST_SETUP, errno, "dup");
	for (s = buf; *s; s = slash + 1) {
		bool last;
		int next;

		slash = strchr(s, '/');
		last = !slash;
		if (slash)
			*slash = '\0';
		next = openat(cur, s,
			      O_PATH | O_NOFOLLOW | O_CLOEXEC |
				      (last && is_file ? 0 : O_DIRECTORY));
		if (next < 0 && errno == ENOENT) {
			if (last && is_file) {
				int fd = openat(cur, s,
						O_WRONLY | O_CREAT | O_EXCL |
							O_NOFOLLOW | O_CLOEXEC,
						0644);

				if (fd < 0)
					child_die(p, ST_SETUP, errno,
						  "create mount point %s (%s)",
						  op->target, op->step);
				close(fd);
			} else if (mkdirat(cur, s, 0755) != 0) {
				child_die(p, ST_SETUP, errno,
					  "create mount point %s (%s)",
					  op->target, op->step);
			}
			next = openat(cur, s,
				      O_PATH | O_NOFOLLOW | O_CLOEXEC |
					      (last && is_file ? 0 :
								 O_DIRECTORY));
		}
		if (next < 0)
			child_die(p, ST_SETUP, errno == ENOTDIR ? ELOOP : errno,
				  "create mount point %s (%s)", op->target,
				  op->step);
		close(cur);
		cur = next;
		if (last)
			break;
	}
	close(cur);
}

/* The mount point of op below rootfd, as an O_PATH fd; -1 when an optional
 * target is gone. A symlink anywhere on the way is refused. */
static int child_target(const struct sandbox_plan *p, int rootfd,
			const struct sandbox_op *op)
{
	const char *rel = op->target + 1;
	struct stat st;
	int fd;

	if (*rel == '\0')
		return fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	fd = xopenat2(rootfd, rel, O_PATH | O_NOFOLLOW | O_CLOEXEC, RES_TREE);
	if (fd < 0 && errno == ENOENT && (op->flags & OPF_CREATE)) {
		child_mkpath(p, rootfd, rel, op->flags & OPF_FILE, op);
		fd = xopenat2(rootfd, rel, O_PATH | O_NOFOLLOW | O_CLOEXEC,
			      RES_TREE);
	}
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR) &&
	    (op->flags & OPF_OPTIONAL))
		return -1;
	if (fd < 0 && errno == ELOOP)
		child_die(p, ST_SETUP, 0,
			  "mount %s (%s): a symlink is on the way; refusing "
			  "to follow it",
			  op->target, op->step);
	if (fd < 0)
		child_die(p, ST_SETUP, errno, "mount %s (%s)", op->target,
			  op->step);
	if (fstat(fd, &st) != 0)
		child_die(p, ST_SETUP, errno, "mount %s (%s)", op->target,
			  op->step);
	if (S_ISLNK(st.st_mode))
		child_die(p, ST_SETUP, 0,
			  "mount %s (%s): it is a symlink; refusing to follow "
			  "it",
			  op->target, op->step);
	if (!!S_ISDIR(st.st_mode) == !!(op->flags & OPF_FILE)) {
		if (op->flags & OPF_OPTIONAL) {
			close(fd);
			return -1;
		}
		child_die(p, ST_SETUP, 0,
			  "mount %s (%s): it changed type since the launch",
			  op->target, op->step);
	}
	return fd;
}

static void child_attach(const struct sandbox_plan *p, int src, int tfd,
			 const char *target, const char *step)
{
	if (move_mount(src, "", tfd, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		child_die(p, ST_SETUP, errno, "mount %s (%s)", target, step);
	close(src);
}

/* A detached clone of a host path, resolved without symlinks. */
static int child_clone_host(const struct sandbox_plan *p, const char *path,
			    const char *step, bool recursive)
{
	int fd = xopenat2(AT_FDCWD, path, O_PATH | O_NOFOLLOW | O_CLOEXEC,
			  RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	int t;

	if (fd < 0)
		child_die(p, ST_SETUP, errno == ELOOP ? 0 : errno,
			  "mount %s (%s)%s", path, step,
			  errno == ELOOP ?
				  ": a symlink is on the way; refusing "
				  "to follow it" :
				  "");
	t = open_tree(fd, "",
		      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
			      (recursive ? AT_RECURSIVE : 0));
	if (t < 0)
		child_die(p, ST_SETUP, errno, "mount %s (%s): clone", path,
			  step);
	close(fd);
	return t;
}

static const char *const dev_nodes[] = { "null",   "zero",    "full",
					 "random", "urandom", "tty" };
#define DEV_NODES (sizeof(dev_nodes) / sizeof(dev_nodes[0]))

/* /dev: a tmpfs with the host's harmless nodes bound in, a private devpts,
 * shm, and the usual symlinks. */
static void child_dev(const struct sandbox_plan *p, int rootfd, const int *nodes)
{
	static const char *const tmpfs_opts[] = { "mode", "0755", NULL };
	static const char *const pts_opts[] = { "ptmxmode", "0666", "mode",
						"0620", NULL };
	static const char *const links[][2] = {
		{ "fd", "/proc/self/fd" },
		{ "stdin", "/proc/self/fd/0" },
		{ "stdout", "/proc/self/fd/1" },
		{ "stderr", "/proc/self/fd/2" },
		{ "ptmx", "pts/ptmx" },
	};
	int dev, t, pts;

	dev = child_fsmount("tmpfs", tmpfs_opts,
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (dev < 0)
		child_die(p, ST_SETUP, errno, "mount /dev (tmpfs)");
	t = xopenat2(rootfd, "dev",
		     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, RES_TREE);
	if (t < 0)
		child_die(p, ST_SETUP, errno, "mount /dev");
	if (move_mount(dev, "", t, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		child_die(p, ST_SETUP, errno, "mount /dev");
	close(t);
	for (size_t i = 0; i < DEV_NODES; i++) {
		int fd = openat(dev, dev_nodes[i],
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					O_CLOEXEC,
				0666);

		if (fd < 0)
			child_die(p, ST_SETUP, errno, "create /dev/%s",
				  dev_nodes[i]);
		close(fd);
		if (nodes[i] < 0) {
			/* Not on this host: no node rather than a file. */
			(void)unlinkat(dev, dev_nodes[i], 0);
			continue;
		}
		fd = openat(dev, dev_nodes[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			child_die(p, ST_SETUP, errno, "mount /dev/%s",
				  dev_nodes[i]);
		child_attach(p, nodes[i], fd, dev_nodes[i], "/dev node");
		close(fd);
	}
	if (mkdirat(dev, "shm", 01777) != 0 ||
	    fchmodat(dev, "shm", 01777, 0) != 0)
		child_die(p, ST_SETUP, errno, "create /dev/shm");
	if (mkdirat(dev, "pts", 0755) != 0)
		child_die(p, ST_SETUP, errno, "create /dev/pts");
	/* A private devpts; without one (it needs root mapped on some
	 * kernels) there are simply no terminals to open. */
	pts = child_fsmount("devpts", pts_opts,
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (pts >= 0) {
		t = openat(dev, "pts",
			   O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (t < 0)
			child_die(p, ST_SETUP, errno, "mount /dev/pts");
		child_attach(p, pts, t, "/dev/pts", "devpts");
		close(t);
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlinkat(links[i][1], dev, links[i][0]) != 0)
			child_die(p, ST_SETUP, errno, "create /dev/%s",
				  links[i][0]);
	close(dev);
}

/* A fresh /proc for the new PID namespace, with the knobs that write to the
 * kernel read-only. */
static void child_proc(const struct sandbox_plan *p, int rootfd)
{
	static const char *const covers[] = { "sys", "sysrq-trigger", "irq",
					      "bus" };
	int m, t;

	m = child_fsmount("proc", NULL,
			  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				  MOUNT_ATTR_NOEXEC);
	if (m < 0)
		child_die(p, ST_SETUP, errno, "mount /proc");
	t = xopenat2(rootfd, "proc",
		     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, RES_TREE);
	if (t < 0)
		child_die(p, ST_SETUP, errno, "mount /proc");
	if (move_mount(m, "", t, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		child_die(p, ST_SETUP, errno, "mount /proc");
	close(t);
	for (size_t i = 0; i < sizeof(covers) / sizeof(covers[0]); i++) {
		int fd = openat(m, covers[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		int c;

		if (fd < 0)
			continue;
		c = open_tree(fd, "",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
				      AT_EMPTY_PATH | AT_RECURSIVE);
		if (c < 0)
			child_die(p, ST_SETUP, errno,
				  "mount /proc/%s read-only", covers[i]);
		child_setattr(p, c,
			      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				      MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
			      "read-only /proc", covers[i]);
		child_attach(p, c, fd, covers[i], "read-only /proc");
		close(fd);
	}
	close(m);
}

/* Applies the planned mounts, in order, below rootfd. */
static void child_ops(const struct sandbox_plan *p, struct sandbox_op *ops, int rootfd)
{
	static const char *const mask_opts[] = { "mode", "0555", "size", "4k",
						 NULL };
	static const char *const home_opts[] = { "mode", "0755", NULL };
	int empty = -1, devnull = -1;

	for (size_t i = 0; i < p->nops; i++) {
		struct sandbox_op *op = &ops[i];
		int tfd, src;

		if (op->kind == OP_SYMLINK) {
			char dir[PATH_MAX];
			const char *base = strrchr(op->target, '/');
			size_t dl = (size_t)(base - op->target);
			struct sandbox_op parent = *op;
			int dfd;

			if (dl == 0 || dl >= sizeof(dir))
				continue;
			memcpy(dir, op->target, dl);
			dir[dl] = '\0';
			parent.target = dir;
			parent.flags = OPF_CREATE;
			dfd = child_target(p, rootfd, &parent);
			if (symlinkat(op->source, dfd, base + 1) != 0 &&
			    errno != EEXIST)
				child_die(p, ST_SETUP, errno, "symlink %s (%s)",
					  op->target, op->step);
			close(dfd);
			continue;
		}
		tfd = child_target(p, rootfd, op);
		if (tfd < 0) {
			if (op->src_fd >= 0)
				close(op->src_fd);
			continue;
		}
		switch (op->kind) {
		case OP_TMPFS:
			src = child_fsmount("tmpfs", home_opts,
					    MOUNT_ATTR_NOSUID |
						    MOUNT_ATTR_NODEV);
			if (src < 0)
				child_die(p, ST_SETUP, errno, "mount %s (%s)",
					  op->target, op->step);
			break;
		case OP_BIND_RW:
		case OP_BIND_RO:
			src = op->src_fd;
			op->src_fd = -1;
			break;
		case OP_PIN:
			src = open_tree(tfd, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH | AT_RECURSIVE);
			if (src < 0)
				child_die(p, ST_SETUP, errno,
					  "mount %s (%s): clone", op->target,
					  op->step);
			child_setattr(p, src,
				      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
				      op->step, op->target);
			break;
		case OP_RELOCK:
			src = open_tree(tfd, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH | AT_RECURSIVE);
			if (src < 0)
				child_die(p, ST_SETUP, errno,
					  "mount %s (%s): clone", op->target,
					  op->step);
			child_setattr(p, src,
				      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					      MOUNT_ATTR_NODEV,
				      op->step, op->target);
			break;
		case OP_MASK_DIR:
			if (empty < 0) {
				empty = child_fsmount(
					"tmpfs", mask_opts,
					MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
						MOUNT_ATTR_NODEV |
						MOUNT_ATTR_NOEXEC);
				if (empty < 0)
					child_die(p, ST_SETUP, errno,
						  "mount %s (%s): tmpfs",
						  op->target, op->step);
			}
			src = open_tree(empty, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH);
			if (src < 0)
				child_die(p, ST_SETUP, errno, "mount %s (%s)",
					  op->target, op->step);
			break;
		case OP_MASK_FILE:
			if (devnull < 0) {
				devnull = xopenat2(rootfd, "dev/null",
						   O_PATH | O_NOFOLLOW |
							   O_CLOEXEC,
						   RES_TREE);
				if (devnull < 0)
					child_die(p, ST_SETUP, errno,
						  "mount %s (%s): /dev/null",
						  op->target, op->step);
			}
			src = open_tree(devnull, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH);
			if (src < 0)
				child_die(p, ST_SETUP, errno, "mount %s (%s)",
					  op->target, op->step);
			child_setattr(p, src,
				      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					      MOUNT_ATTR_NOEXEC,
				      op->step, op->target);
			break;
		default:
			child_die(p, ST_SETUP, 0, "mount %s: unknown step",
				  op->target);
		}
		child_attach(p, src, tfd, op->target, op->step);
		close(tfd);
	}
	if (empty >= 0)
		close(empty);
	if (devnull >= 0)
		close(devnull);
}

static void child_loopback(const struct sandbox_plan *p)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		child_die(p, ST_SETUP, errno, "network namespace: socket");
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) != 0)
		child_die(p, ST_SETUP, errno, "network namespace: lo flags");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0)
		child_die(p, ST_SETUP, errno, "network namespace: bring lo up");
	close(s);
}

/* network proxy: the listening socket on 127.0.0.1:proxy_port of the new
 * network namespace, handed to the parent (SCM_RIGHTS), which serves it
 * from outside with the proxy. */
static void child_proxy_socket(struct sandbox_plan *p)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct sockaddr_in sin;
	struct msghdr msg;
	struct cmsghdr *cm;
	struct iovec iov;
	char c = 'L';
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		child_die(p, ST_SETUP, errno, "network proxy: socket");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(p->proxy_port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof(sin)) != 0)
		child_die(p, ST_SETUP, errno,
			  "network proxy: bind 127.0.0.1:%u",
			  (unsigned)p->proxy_port);
	if (listen(s, SOMAXCONN) != 0)
		child_die(p, ST_SETUP, errno, "network proxy: listen");
	memset(&msg, 0, sizeof(msg));
	memset(&u, 0, sizeof(u));
	iov.iov_base = &c;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = u.buf;
	msg.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &s, sizeof(int));
	if (sendmsg(p->pxs_w, &msg, MSG_NOSIGNAL) != 1)
		child_die(p, ST_SETUP, errno,
			  "network proxy: hand the socket out");
	close(s);
	close(p->pxs_w);
	p->pxs_w = -1;
}

/* The new root: "/" cloned read-only, /tmp, /proc, /dev, the planned
 * mounts; then pivot_root into it and let go of the old root. */
static void child_mount_tree(const struct sandbox_plan *p, struct sandbox_op *ops)
{
	static const char *const tmp_opts[] = { "mode", "1777", NULL };
	int nodes[DEV_NODES];
	int root, stage, m, t;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		child_die(p, ST_SETUP, errno,
			  "mount namespace: make / private");
	root = open_tree(AT_FDCWD, "/",
			 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (root < 0)
		child_die(p, ST_SETUP, errno,
			  "mount / (read-only root): clone");
	child_setattr(p, root,
		      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
		      "read-only root", "/");

	/* Host sources are cloned before the new tree covers /tmp. */
	for (size_t i = 0; i < p->nops; i++) {
		struct sandbox_op *op = &ops[i];

		if (op->kind != OP_BIND_RW && op->kind != OP_BIND_RO)
			continue;
		op->src_fd = child_clone_host(p, op->source, op->step, true);
		child_setattr(p, op->src_fd,
			      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				      (op->kind == OP_BIND_RO ?
					       MOUNT_ATTR_RDONLY :
					       0),
			      op->step, op->target);
	}
	for (size_t i = 0; i < DEV_NODES; i++) {
		char path[32];

		(void)snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		nodes[i] = open_tree(AT_FDCWD, path,
				     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	}

	stage = open("/tmp", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (stage < 0)
		child_die(p, ST_SETUP, errno,
			  "mount namespace: staging at /tmp");
	if (move_mount(root, "", stage, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		child_die(p, ST_SETUP, errno, "mount / (read-only root)");
	close(stage);

	m = child_fsmount("tmpfs", tmp_opts,
			  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (m < 0)
		child_die(p, ST_SETUP, errno, "mount /tmp (tmpfs)");
	t = xopenat2(root, "tmp", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		     RES_TREE);
	if (t < 0)
		child_die(p, ST_SETUP, errno, "mount /tmp");
	child_attach(p, m, t, "/tmp", "tmpfs");
	close(t);
	child_proc(p, root);
	child_dev(p, root, nodes);
	child_ops(p, ops, root);

	if (fchdir(root) != 0)
		child_die(p, ST_SETUP, errno, "pivot_root: chdir");
	if (syscall(SYS_pivot_root, ".", ".") != 0)
		child_die(p, ST_SETUP, errno, "pivot_root");
	if (umount2(".", MNT_DETACH) != 0)
		child_die(p, ST_SETUP, errno,
			  "pivot_root: detach the old root");
	if (chdir("/") != 0)
		child_die(p, ST_SETUP, errno, "pivot_root: chdir /");
	close(root);
}

/* ---- the child: PID 1 --------------------------------------------------- */

static volatile sig_atomic_t init_cmd_pid;
static volatile sig_atomic_t init_pending_sig;

static void init_forward(int sig)
{
	pid_t pid = (pid_t)init_cmd_pid;

	if (pid > 0)
		(void)kill(-pid, sig);
	else
		init_pending_sig = sig;
}

/* PID 1's loop: reap everything, and when the command exits hand its wait
 * status to the parent and exit (which kills whatever it left behind). */
__attribute__((noreturn)) static void init_reap(const struct sandbox_plan *p,
						pid_t cmd)
{
	for (;;) {
		int st;
		pid_t r = waitpid(-1, &st, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			_exit(ST_SETUP);
		if (r == cmd) {
			/* PID 1 cannot die of the command's signal: the
			 * status goes over the pipe. */
			if (write(p->st_w, &st, sizeof(st)) != sizeof(st)) {
				/* The parent falls back on our exit code. */
			}
			_exit(WIFEXITED(st) ? WEXITSTATUS(st) :
					      128 + WTERMSIG(st));
		}
	}
}

/* The parent-death signal, and the check for a parent that died before it
 * was set. */
static void child_pdeathsig(const struct sandbox_plan *p, bool in_pidns)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
		child_die(p, ST_SETUP, errno, "parent-death signal");
	if (in_pidns) {
		/* getppid() is 0 across a PID namespace: poll the parent's
		 * pidfd instead. */
		struct pollfd pf = { .fd = p->parent_pidfd, .events = POLLIN };

		if (p->parent_pidfd >= 0 && poll(&pf, 1, 0) > 0)
			_exit(ST_SETUP);
	} else if (getppid() != p->parent_pid) {
		_exit(ST_SETUP);
	}
	if (p->parent_pidfd >= 0)
		close(p->parent_pidfd);
}

__attribute__((noreturn)) static void child_namespaces(struct sandbox_plan *p)
{
	struct sigaction sa;
	static const int fwd[] = { SIGINT,  SIGTERM, SIGHUP,
				   SIGQUIT, SIGUSR1, SIGUSR2 };
	pid_t cmd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = init_forward;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++)
		sigaction(fwd[i], &sa, NULL);
	close(p->err_r);
	close(p->st_r);
	if (p->sync_w >= 0)
		close(p->sync_w);
	if (p->ph_fd >= 0)
		close(p->ph_fd);
	if (p->out_r[0] >= 0)
		close(p->out_r[0]);
	if (p->out_r[1] >= 0)
		close(p->out_r[1]);
	if (p->pxs_r >= 0)
		close(p->pxs_r);
	if (setsid() < 0)
		child_die(p, ST_SETUP, errno, "setsid");
	child_pdeathsig(p, true);
	child_idmaps(p);
	p->old_umask = umask(0);
	child_mount_tree(p, p->ops);
	if (p->netns)
		child_loopback(p);
	if (p->pxs_w >= 0)
		child_proxy_socket(p);
	if (chdir(p->cwd) != 0 && chdir(p->ws) != 0 && chdir("/") != 0)
		child_die(p, ST_SETUP, errno, "chdir %s", p->cwd);
	child_drop_caps(p);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

	sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
	child_wait_cgroup(p);
	/* _Fork, not fork: no atfork handlers, no malloc arena locks. This
	 * process is a raw clone of a host that may have other threads, and
	 * a lock one of them held at the clone is held here for ever. */
	cmd = _Fork();
	if (cmd < 0)
		child_die(p, ST_SETUP, errno, "fork the command");
	if (cmd == 0) {
		(void)setpgid(0, 0);
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		close(p->st_w);
		child_exec(p, true);
	}
	(void)setpgid(cmd, cmd);
	init_cmd_pid = cmd;
	if (init_pending_sig)
		(void)kill(-cmd, init_pending_sig);
	close(p->err_w);
	close(p->sync_r);
	if (p->null_fd >= 0)
		close(p->null_fd);
	if (p->out_w[0] >= 0)
		close(p->out_w[0]);
	if (p->out_w[1] >= 0)
		close(p->out_w[1]);
	init_reap(p, cmd);
}

/* The reaper's children, from /proc (CONFIG_PROC_CHILDREN). */
static void reaper_path(char *out, size_t cap)
{
	(void)snprintf(out, cap, "/proc/%ld/task/%ld/children", (long)getpid(),
		       (long)getpid());
}

/* Can this kernel list a process's children? (The reaper needs it.) */
static bool reaper_available(void)
{
	char path[80];

	reaper_path(path, sizeof(path));
	return access(path, R_OK) == 0;
}

/* Kills every descendant: the children listed, then those re-parented to
 * us as their parents die (we are their sub-reaper), until none is left. */
static void reaper_kill_all(void)
{
	char path[80], buf[4096];

	reaper_path(path, sizeof(path));
	for (;;) {
		ssize_t n = read_small(path, buf, sizeof(buf));
		char *s, *save = NULL;

		for (s = n > 0 ? strtok_r(buf, " \n", &save) : NULL; s;
		     s = strtok_r(NULL, " \n", &save)) {
			char *end;
			long pid;

			errno = 0;
			pid = strtol(s, &end, 10);
			if (!errno && end != s && pid > 1)
				(void)kill((pid_t)pid, SIGKILL);
		}
		if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
			return;
	}
}

/* The landlock backend's first process: a sub-reaper that forks the
 * command and, when the command exits, when the parent asks (SIGALRM, on
 * the time-out) or when the parent dies (the parent-death signal is
 * SIGALRM too), kills every descendant, also those that left the process
 * group and the session (no PID namespace and no cgroup would catch
 * them). Signals for the command reach it through the process group. */
__attribute__((noreturn)) static void child_reaper(struct sandbox_plan *p)
{
	static const int sigs[] = { SIGCHLD, SIGALRM, SIGINT,  SIGTERM,
				    SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2 };
	sigset_t set;
	int st = 0;
	bool done = false;
	pid_t cmd;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
		child_die(p, ST_SETUP, errno, "sub-reaper");
	if (prctl(PR_SET_PDEATHSIG, SIGALRM, 0, 0, 0) != 0)
		child_die(p, ST_SETUP, errno, "parent-death signal");
	if (getppid() != p->parent_pid)
		_exit(ST_SETUP);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	cmd = _Fork();
	if (cmd < 0)
		child_die(p, ST_SETUP, errno, "fork the command");
	if (cmd == 0) {
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		close(p->st_w);
		child_exec(p, true);
	}
	close(p->err_w);
	if (p->sync_r >= 0)
		close(p->sync_r);
	if (p->null_fd >= 0)
		close(p->null_fd);
	for (int i = 0; i < 2; i++)
		if (p->out_w[i] >= 0)
			close(p->out_w[i]);
	while (!done) {
		int sig = sigwaitinfo(&set, NULL), ws;
		pid_t r;

		if (sig == SIGALRM)
			break;
		if (sig != SIGCHLD)
			continue;
		while ((r = waitpid(-1, &ws, WNOHANG)) > 0)
			if (r == cmd) {
				st = ws;
				done = true;
			}
	}
	reaper_kill_all();
	if (!done)
		_exit(ST_TIMEOUT);
	if (write(p->st_w, &st, sizeof(st)) != sizeof(st)) {
		/* The parent falls back on our exit code. */
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

__attribute__((noreturn)) static void child_landlock(struct sandbox_plan *p)
{
	close(p->err_r);
	if (p->st_r >= 0)
		close(p->st_r);
	if (p->sync_w >= 0)
		close(p->sync_w);
	if (p->out_r[0] >= 0)
		close(p->out_r[0]);
	if (p->out_r[1] >= 0)
		close(p->out_r[1]);
	if (setsid() < 0)
		child_die(p, ST_SETUP, errno, "setsid");
	child_pdeathsig(p, false);
	child_wait_cgroup(p);
	child_drop_caps(p);
	if (p->reaper)
		child_reaper(p);
	child_exec(p, true);
}

/* ---- the parent --------------------------------------------------------- */

struct sandbox_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;
};

/* fork(2) with namespace flags and a pidfd. */
static pid_t sandbox_clone(uint64_t flags, int *pidfd, int cgroup_fd)
{
	struct sandbox_clone_args ca;
	long r;

	memset(&ca, 0, sizeof(ca));
	ca.flags = flags | CLONE_PIDFD;
	ca.pidfd = (uint64_t)(uintptr_t)pidfd;
	ca.exit_signal = SIGCHLD;
	if (cgroup_fd >= 0) {
		/* Born in the leaf: no migration, no grace period. */
		ca.flags |= CLONE_INTO_CGROUP;
		ca.cgroup = (uint64_t)cgroup_fd;
	}
	r = syscall(SYS_clone3, &ca, sizeof(ca));
	if (r < 0 && (errno == ENOSYS || errno == EPERM) && !flags &&
	    cgroup_fd < 0) {
		/* clone3 filtered (older container runtimes): clone(2), whose
		 * third argument receives the pidfd. */
		r = syscall(SYS_clone, (unsigned long)(CLONE_PIDFD | SIGCHLD),
			    NULL, pidfd, NULL, NULL);
	}
	return (pid_t)r;
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ULL +
	       (unsigned long long)ts.tv_nsec / 1000000ULL;
}

__attribute__((format(printf, 2, 3))) static void
rep_lost(struct sandbox_report *rep, const char *fmt, ...)
{
	va_list ap;
	size_t cap = sizeof(rep->not_enforced) / sizeof(rep->not_enforced[0]);

	if (rep->nnot_enforced >= cap)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(rep->not_enforced[rep->nnot_enforced],
			sizeof(rep->not_enforced[0]), fmt, ap);
	va_end(ap);
	rep->nnot_enforced++;
}

__attribute__((format(printf, 2, 3))) static void
rep_caveat(struct sandbox_report *rep, const char *fmt, ...)
{
	va_list ap;
	size_t cap = sizeof(rep->caveats) / sizeof(rep->caveats[0]);

	if (rep->ncaveats >= cap)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(rep->caveats[rep->ncaveats], sizeof(rep->caveats[0]),
			fmt, ap);
	va_end(ap);
	rep->ncaveats++;
}

/* Output of an argv-only run: copied up to the cap, then a note, then the
 * pipes are closed (the command sees EPIPE, as under `head -c`). */
struct sandbox_output {
	const struct sandbox_opts *o;
	size_t kept;
	bool truncated;
	char *buf; /* capture (C API) */
	size_t len, cap;
};

static void out_put(struct sandbox_output *out, int which, const char *s, size_t n)
{
	if (out->o->capture_out) {
		/* +1: the terminating NUL needs its byte too. */
		if (out->len + n + 1 > out->cap) {
			size_t ncap = out->cap ? out->cap : 4096;
			char *nb;

			while (ncap < out->len + n + 1 &&
			       ncap < SANDBOX_CAPTURE_MAX)
				ncap *= 2;
			/* Past the ceiling or out of memory: what is kept
			 * is not the whole output, and the report says so. */
			if (ncap < out->len + n + 1) {
				out->truncated = true;
				return;
			}
			nb = cordon__realloc(out->buf, ncap);
			if (!nb) {
				out->truncated = true;
				return;
			}
			out->buf = nb;
			out->cap = ncap;
		}
		memcpy(out->buf + out->len, s, n);
		out->len += n;
		out->buf[out->len] = '\0';
		return;
	}
	while (n > 0) {
		ssize_t w = write(which ? 2 : 1, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Reads one chunk from a pipe; false at EOF or when the cap closed it. */
static bool out_pump(struct sandbox_output *out, struct sandbox_plan *p, int which)
{
	char buf[16384];
	ssize_t n = read(p->out_r[which], buf, sizeof(buf));
	size_t cap = out->o->output_cap;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (cap && out->kept + (size_t)n > cap) {
		char note[96];
		size_t room = cap - out->kept;
		int len;

		out_put(out, which, buf, room);
		out->kept = cap;
		out->truncated = true;
		len = snprintf(note, sizeof(note),
			       "\n[cordon: output truncated after %zu bytes]\n",
			       cap);
		out_put(out, 1, note, (size_t)len);
		for (int i = 0; i < 2; i++) {
			if (p->out_r[i] >= 0)
				close(p->out_r[i]);
			p->out_r[i] = -1;
		}
		return false;
	}
	out->kept += (size_t)n;
	out_put(out, which, buf, (size_t)n);
	return true;
}

/* While the child sets up its namespaces: moves it into a cgroup v1 leaf
 * and compiles the seccomp program, then hands both over the sync pipe. */
static void parent_feed_child(struct sandbox_plan *p, pid_t pid)
{
	struct syscallfilter_prog prog;
	uint32_t len = 0;
	char c = 'J';

	if (p->sync_w < 0)
		return;
	if (p->cg.procs_fd >= 0 && !p->cg.v2) {
		char num[24];
		int n = snprintf(num, sizeof(num), "%ld", (long)pid);

		if (write(p->cg.procs_fd, num, (size_t)n) != n)
			c = 'N';
	}
	if (send(p->sync_w, &c, 1, MSG_NOSIGNAL) != 1)
		goto out;
	if (syscallfilter_compile(p->o->no_unix_sockets, &prog, p->error,
			sizeof(p->error)) == 0) {
		if (prog.len <= SANDBOX_BPF_MAX)
			len = (uint32_t)prog.len;
		else
			(void)snprintf(p->error, sizeof(p->error),
				       "seccomp: the filter has more than %d "
				       "instructions (BPF_MAXINSNS)",
				       SANDBOX_BPF_MAX / 8);
	}
	/* The program is far smaller than a pipe's buffer: no blocking. */
	if (send(p->sync_w, &len, sizeof(len), MSG_NOSIGNAL) ==
		    (ssize_t)sizeof(len) &&
	    len &&
	    send(p->sync_w, prog.insns, len, MSG_NOSIGNAL) != (ssize_t)len) {
		/* The child reports the short read. */
	}
	if (len)
		syscallfilter_prog_free(&prog);
out:
	close(p->sync_w);
	p->sync_w = -1;
}

/* Kills the tree: PID 1 of the namespace; the landlock backend's reaper
 * is asked to (SIGALRM) while it lives, its process group is killed
 * once it is gone or when hard is set (it did not finish in time). */
static void kill_tree(struct sandbox_plan *p, pid_t pid, int pidfd, bool hard)
{
	if (p->backend == SANDBOX_BACKEND_NAMESPACES)
		(void)syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	else if (p->reaper && !hard)
		(void)syscall(SYS_pidfd_send_signal, pidfd, SIGALRM, NULL, 0);
	else
		(void)kill(-pid, SIGKILL);
	cg_kill(&p->cg);
}

/* Waits for the child: the time-out, forwarded signals, the output cap. */
static void parent_wait(struct sandbox_plan *p, pid_t pid, int pidfd,
			struct sandbox_report *rep, int *wstatus, bool *got)
{
	const struct sandbox_opts *o = p->o;
	unsigned long long start = now_ms(), deadline = 0, hard = 0;
	struct sandbox_output out = { .o = o };
	sigset_t fwd;
	int sfd;
	bool exited = false;

	if (o->timeout_s)
		deadline = start + (unsigned long long)o->timeout_s * 1000ULL;
	sigemptyset(&fwd);
	sigaddset(&fwd, SIGINT);
	sigaddset(&fwd, SIGTERM);
	sigaddset(&fwd, SIGHUP);
	sfd = signalfd(-1, &fwd, SFD_CLOEXEC | SFD_NONBLOCK);

	while (!exited || p->out_r[0] >= 0 || p->out_r[1] >= 0) {
		struct pollfd pf[5];
		int nf = 0, timeout = -1, r;
		int idx_out[2] = { -1, -1 }, idx_sig = -1, idx_pid = -1;

		if (!exited) {
			idx_pid = nf;
			pf[nf++] = (struct pollfd){ .fd = pidfd,
						    .events = POLLIN };
			if (sfd >= 0) {
				idx_sig = nf;
				pf[nf++] = (struct pollfd){ .fd = sfd,
							    .events = POLLIN };
			}
		}
		for (int i = 0; i < 2; i++) {
			if (p->out_r[i] < 0)
				continue;
			idx_out[i] = nf;
			pf[nf++] = (struct pollfd){ .fd = p->out_r[i],
						    .events = POLLIN };
		}
		if (!exited && deadline && !rep->timed_out) {
			unsigned long long t = now_ms();

			timeout = t >= deadline ? 0 : (int)(deadline - t);
		} else if (!exited && hard) {
			unsigned long long t = now_ms();

			timeout = t >= hard ? 0 : (int)(hard - t);
		} else if (exited) {
			/* Leftovers holding the pipes were killed: a short
			 * grace for the last bytes. */
			timeout = 200;
		}
		r = poll(pf, (nfds_t)nf, timeout);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			if (exited)
				break;
			if (rep->timed_out) {
				/* The reaper did not finish: by force. */
				kill_tree(p, pid, pidfd, true);
				hard = 0;
				continue;
			}
			rep->timed_out = true;
			kill_tree(p, pid, pidfd, false);
			if (p->reaper)
				hard = now_ms() + 2000;
			continue;
		}
		for (int i = 0; i < 2; i++)
			if (idx_out[i] >= 0 && pf[idx_out[i]].revents &&
			    p->out_r[i] >= 0 && !out_pump(&out, p, i)) {
				if (p->out_r[i] >= 0)
					close(p->out_r[i]);
				p->out_r[i] = -1;
			}
		if (idx_sig >= 0 && (pf[idx_sig].revents & POLLIN)) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (p->backend == SANDBOX_BACKEND_NAMESPACES)
					(void)syscall(SYS_pidfd_send_signal,
						      pidfd, (int)si.ssi_signo,
						      NULL, 0);
				else
					(void)kill(-pid, (int)si.ssi_signo);
			}
		}
		if (idx_pid >= 0 && (pf[idx_pid].revents & POLLIN)) {
			siginfo_t info;

			memset(&info, 0, sizeof(info));
			if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info,
				   WEXITED) == 0) {
				*got = true;
				*wstatus = info.si_code == CLD_EXITED ?
						   (info.si_status & 0xff)
							   << 8 :
						   info.si_status & 0x7f;
			}
			exited = true;
			/* Whatever the command left behind goes with it. */
			if (p->backend == SANDBOX_BACKEND_LANDLOCK)
				kill_tree(p, pid, pidfd, true);
		}
	}
	if (sfd >= 0)
		close(sfd);
	if (o->capture_out) {
		*o->capture_out = out.buf;
		if (o->capture_len)
			*o->capture_len = out.len;
	} else {
		free(out.buf);
	}
	rep->output_truncated = out.truncated;
}

/* Does a deny_write entry name something inside a writable root (for a
 * glob: can it match there)? When unsure, yes. */
static bool dw_reaches_writable(struct sandbox_plan *p, const char *entry)
{
	char full[PATH_MAX];
	const char *c;

	if (!entry[0] || entry_abs(p, entry, full, sizeof(full)) != 0)
		return true;
	path_normalise(full);
	if (has_wildcard(full)) {
		size_t plen = glob_prefix_len(full);

		full[plen] = '\0';
		c = plan_canon(p, plen ? full : "/");
		if (!c)
			return false; /* nothing there to match */
		for (size_t i = 0; i < p->nrw; i++)
			if (path_under(c, p->rw[i]) || path_under(p->rw[i], c))
				return true;
		return false;
	}
	c = canon_loose(p, full);
	if (!c)
		return true;
	for (size_t i = 0; i < p->nrw; i++)
		if (path_under(c, p->rw[i]))
			return true;
	return false;
}

/* The deny_write entries not applied, one line each for the first two,
 * then how many more (notEnforced has 16 lines for everything). */
static void rep_deny_write(struct sandbox_plan *p, struct sandbox_report *rep,
			   const char *why)
{
	const struct sandbox_opts *o = p->o;
	size_t lost = 0;

	for (size_t i = 0; i < o->ndeny_write; i++) {
		if (p->backend == SANDBOX_BACKEND_LANDLOCK &&
		    !dw_reaches_writable(p, o->deny_write[i]))
			continue;
		if (lost < 2)
			rep_lost(rep, "deny_write: %s (%s)", o->deny_write[i],
				 why);
		lost++;
	}
	if (lost > 2)
		rep_lost(rep, "deny_write: and %zu more (%s)", lost - 2, why);
}

/* Fills enforcement and notEnforced from what the plan could apply. */
static void plan_report(struct sandbox_plan *p, struct sandbox_report *rep)
{
	const struct sandbox_opts *o = p->o;
	int abi = landlock_abi();
	bool root = geteuid() == 0;

	if (p->backend == SANDBOX_BACKEND_NAMESPACES) {
		rep->backend = "namespaces";
		if (abi == 0)
			rep_lost(rep, "landlock: not available (the mount "
				      "namespace is the only write wall)");
		else if (abi < 6 && o->network == SANDBOX_NET_HOST)
			rep_lost(rep, "landlock: abstract unix sockets not "
				      "scoped (ABI < 6)");
		if (!p->home_nocreate && !o->no_read_home && abi == 0 &&
		    under_host_writable(p, p->home))
			rep_lost(rep, "landlock: not available: rc files "
				      "missing from a writable $HOME can be "
				      "created");
		if (p->ph_missed)
			rep_lost(rep, "run-later paths missing before the run "
				      "can be created (no placeholder "
				      "registry)");
		if (p->dw_missed)
			rep_lost(rep,
				 "deny_write: paths missing before the run "
				 "can be created (no placeholder "
				 "registry)");
		if (p->sock_missed)
			rep_lost(rep, "unix sockets: a runtime directory holds "
				      "a writable root: its sockets stay "
				      "reachable");
		if (root)
			rep_caveat(rep, "root: files readable by root stay "
					"readable (shadow, sudoers, ssh host "
					"keys and /root are hidden)");
		if (p->walk_truncated)
			rep_lost(rep,
				 "workspace walk stopped at %d entries or "
				 "depth %d: deeper repos and globs not "
				 "covered",
				 SANDBOX_WALK_MAX_ENTRIES, SANDBOX_WALK_MAX_DEPTH);
	} else {
		rep->backend = "landlock";
		rep_lost(rep, "mount namespace: credential masks and "
			      "--deny-read (files stay readable)");
		rep_lost(rep, "mount namespace: run-later paths in writable "
			      "roots stay writable");
		rep_lost(rep, "mount namespace: hardlinks in the workspace to "
			      "files outside stay writable");
		rep_lost(rep, "mount namespace: private /tmp and /dev/shm (the "
			      "host's are writable)");
		rep_lost(rep, "landlock: metadata (chmod, chown, xattr) of "
			      "files outside not restricted");
		if (o->no_read_home)
			rep_lost(rep, "mount namespace: --no-read-home");
		if (!o->no_unix_sockets)
			rep_lost(rep, "unix sockets: host socket files stay "
				      "reachable (session bus, agents)");
		if (root)
			rep_caveat(rep, "root: files readable by root stay "
					"readable");
		if (!p->reaper)
			rep_lost(rep, "pid namespace: the tree outlives cordon "
				      "if cordon is killed");
		if (!p->reaper && !p->cg.path[0])
			rep_lost(rep, "time-out and exit: processes that leave "
				      "the process group survive (no cgroup)");
		rep_lost(rep, "ipc namespace: host SysV IPC and message "
			      "queues reachable");
		if (o->network == SANDBOX_NET_PROXY) {
			if (abi >= 4)
				rep_lost(rep, "network: UDP and other "
					      "protocols not restricted "
					      "(landlock only)");
			if (abi >= 4)
				rep_lost(rep, "network: TCP connect to the "
					      "proxy's port allowed on every "
					      "address (landlock only)");
			else
				rep_lost(rep, "network: proxy not enforced "
					      "(Landlock ABI < 4): the proxy "
					      "variables are advisory");
		}
		if (o->network == SANDBOX_NET_NONE) {
			if (abi >= 4)
				rep_lost(rep, "network namespace: network none "
					      "(Landlock TCP rules only; UDP "
					      "open)");
			else
				rep_lost(rep, "network namespace: network none "
					      "(not enforced: Landlock ABI < "
					      "4)");
		}
		if (abi == 0)
			rep_lost(rep, "landlock: not available (writes "
				      "outside the workspace are allowed)");
		else if (abi < 3)
			rep_lost(rep, "landlock: truncate not restricted "
				      "(ABI < 3)");
		if (abi > 0 && abi < 6)
			rep_lost(rep, "landlock: abstract unix sockets and "
				      "signals not scoped (ABI < 6)");
		rep_deny_write(p, rep,
			       "landlock cannot make a path read-only inside "
			       "a writable root");
	}
	/* --memory asks for RLIMIT_AS (the issue's cap); the cgroup is a
	 * second, tree-wide limit where one can be had. */
	if (o->memory_mb && !p->mem_by_cgroup)
		rep_caveat(rep, "memory: per process (RLIMIT_AS), not for the "
				"whole tree (no cgroup v2 memory controller)");
	if (!p->pids_by_cgroup && root)
		rep_lost(rep,
			 "pids: no writable cgroup with the pids "
			 "controller, and RLIMIT_NPROC does not bind root");
	rep->enforcement = rep->nnot_enforced ? "partial" : "full";
}

/* The probe's verdict, cached per kernel release and binary version, in
 * cordon's cache directory (made, mode 0700, when mkdirs). */
static int cache_path(char *out, size_t cap, bool mkdirs)
{
	char dir[PATH_MAX];

	if (atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, NULL, dir, sizeof(dir)) !=
	    0)
		return -1;
	if (mkdirs)
		(void)atomic_mkdirs(dir, 0700);
	return atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "probe.json", out, cap);
}

static int backend_from_name(const char *s)
{
	if (!s)
		return -1;
	if (strcmp(s, "namespaces") == 0)
		return SANDBOX_BACKEND_NAMESPACES;
	if (strcmp(s, "landlock") == 0)
		return SANDBOX_BACKEND_LANDLOCK;
	return -1;
}

/* Reads the cached verdict; -2 when there is none for this kernel and
 * version. */
static int probe_cached(char *why, size_t whycap)
{
	char path[PATH_MAX], buf[8192];
	struct utsname u;
	cJSON *j, *k, *v, *b, *w;
	int best = -2;

	if (cache_path(path, sizeof(path), false) != 0 || uname(&u) != 0)
		return -2;
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -2;
	j = cJSON_Parse(buf);
	if (!j)
		return -2;
	k = cJSON_GetObjectItemCaseSensitive(j, "kernel");
	v = cJSON_GetObjectItemCaseSensitive(j, "version");
	b = cJSON_GetObjectItemCaseSensitive(j, "best");
	w = cJSON_GetObjectItemCaseSensitive(j, "why");
	if (cJSON_IsString(k) && cJSON_IsString(v) &&
	    strcmp(k->valuestring, u.release) == 0 &&
	    strcmp(v->valuestring, CORDON_VERSION) == 0) {
		best = cJSON_IsString(b) ? backend_from_name(b->valuestring) :
					   -1;
		if (why && whycap)
			(void)snprintf(why, whycap, "%s",
				       cJSON_IsString(w) ? w->valuestring : "");
	}
	cJSON_Delete(j);
	return best;
}

static void probe_store(int best, const char *why)
{
	char path[PATH_MAX];
	struct utsname u;
	cJSON *j;
	char *text;

	if (cache_path(path, sizeof(path), true) != 0 || uname(&u) != 0)
		return;
	j = cJSON_CreateObject();
	if (!j)
		return;
	cJSON_AddStringToObject(j, "kernel", u.release);
	cJSON_AddStringToObject(j, "version", CORDON_VERSION);
	if (best < 0)
		cJSON_AddNullToObject(j, "best");
	else
		cJSON_AddStringToObject(j, "best",
					best == SANDBOX_BACKEND_NAMESPACES ?
						"namespaces" :
						"landlock");
	cJSON_AddStringToObject(j, "why", why);
	text = cJSON_Print(j);
	cJSON_Delete(j);
	if (!text)
		return;
	/* A cache: a write that fails leaves the old verdict or none. */
	(void)atomic_write_file(path, text, strlen(text), 0600);
	free(text);
}

/* Removes the probe's workspace and the empty placeholders in it. */
static void probe_remove_ws(const char *ws)
{
	int dfd = open(ws, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (dfd >= 0) {
		for (size_t i = 0;
		     i < sizeof(ws_run_later) / sizeof(ws_run_later[0]); i++)
			(void)unlinkat(dfd, ws_run_later[i], AT_REMOVEDIR);
		close(dfd);
	}
	(void)rmdir(ws);
}

int sandbox_probe(bool fresh, char *why, size_t whycap)
{
	static const int backends[2] = { SANDBOX_BACKEND_NAMESPACES,
					 SANDBOX_BACKEND_LANDLOCK };
	static const char *const names[2] = { "namespaces", "landlock" };
	char text[1024] = "";
	char ws[] = "/tmp/cordon-probe-XXXXXX";
	size_t len = 0;
	int best = -1, cached;

	if (!fresh) {
		cached = probe_cached(why, whycap);
		if (cached != -2)
			return cached;
	}
	/* An empty workspace of its own: the no-op must not depend on (or
	 * leave placeholders in) the caller's directory. */
	if (!mkdtemp(ws)) {
		if (why && whycap)
			(void)snprintf(why, whycap, "probe: mkdtemp: %s\n",
				       strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < 2; i++) {
		struct sandbox_opts o;
		struct sandbox_report rep;
		struct cordon_diag diag;
		char *argv[] = { "/bin/true", NULL };
		enum cordon_err err;
		int n;

		memset(&o, 0, sizeof(o));
		o.workspace = ws;
		o.network = SANDBOX_NET_NONE;
		o.memory_mb = 4096;
		o.timeout_s = 20;
		o.mode = SANDBOX_MODE_AUTO;
		o.backend = backends[i];
		o.stdin_null = 1;
		err = sandbox_run(&o, argv, &rep, &diag);
		if (err != CORDON_OK)
			n = snprintf(text + len, sizeof(text) - len,
				     "%s: unavailable: %s\n", names[i],
				     diag.message);
		else if (rep.status != 0)
			n = snprintf(text + len, sizeof(text) - len,
				     "%s: unavailable: %s\n", names[i],
				     rep.error[0] ? rep.error :
						    "the no-op failed");
		else
			n = snprintf(text + len, sizeof(text) - len,
				     "%s: works (enforcement %s)\n", names[i],
				     rep.enforcement);
		if (n > 0 && (size_t)n < sizeof(text) - len)
			len += (size_t)n;
		if (err == CORDON_OK && rep.status == 0 && best < 0)
			best = backends[i];
	}
	probe_remove_ws(ws);
	probe_store(best, text);
	if (why && whycap)
		(void)snprintf(why, whycap, "%s", text);
	return best;
}

/* The directory of cordon's state (atomicfile.h); without a home, or
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
static int ph_open(const struct sandbox_plan *p)
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
 * symlinks. */
static void ph_remove(char *line)
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
	dfd = xopenat2(AT_FDCWD, slash == path ? "/" : path,
		       O_PATH | O_DIRECTORY | O_CLOEXEC,
		       RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	*slash = '/';
	if (dfd < 0)
		return;
	if (fstatat(dfd, slash + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino) {
		if (S_ISDIR(st.st_mode))
			(void)unlinkat(dfd, slash + 1, AT_REMOVEDIR);
		else if (S_ISREG(st.st_mode) && st.st_size == 0)
			(void)unlinkat(dfd, slash + 1, 0);
	}
	close(dfd);
}

/* Removes every registered placeholder that is still empty, when no
 * other run is under way (and then empties the registry). */
static void ph_cleanup(struct sandbox_plan *p)
{
	char *buf, *line, *save = NULL;
	ssize_t n;

	if (p->ph_fd < 0)
		return;
	if (flock(p->ph_fd, LOCK_EX | LOCK_NB) != 0)
		goto out;
	buf = cordon__malloc(SANDBOX_GIT_FILE_MAX);
	if (!buf)
		goto out;
	n = pread(p->ph_fd, buf, SANDBOX_GIT_FILE_MAX - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ph_remove(line);
		/* Whatever is left was filled by its owner: forget it. */
		(void)ftruncate(p->ph_fd, 0);
	}
	free(buf);
out:
	close(p->ph_fd);
	p->ph_fd = -1;
}

static void plan_close(struct sandbox_plan *p)
{
	int *fds[] = { &p->err_r,	 &p->err_w,    &p->st_r,
		       &p->st_w,	 &p->out_r[0], &p->out_r[1],
		       &p->out_w[0],	 &p->out_w[1], &p->null_fd,
		       &p->parent_pidfd, &p->sync_r,   &p->sync_w };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

static void blocked_message(const struct sandbox_opts *o, const char *argv0,
			    char *out, size_t cap);

static bool argv0_listed(const struct sandbox_opts *o, const char *base)
{
	for (size_t i = 0; i < o->nallow_cmds; i++)
		if (strcmp(o->allow_cmds[i], base) == 0)
			return true;
	return false;
}

/* argv-only: the file a PATH lookup of name finds, into out. Only
 * absolute PATH entries count: ".", "" or "bin" would let the workspace
 * stand in for a PATH directory. */
static bool argv0_lookup(const char *name, char *out, size_t cap,
			 struct stat *st)
{
	const char *path = getenv("PATH"), *s;

	if (!path)
		path = "/bin:/usr/bin"; /* glibc's execvp default */
	for (s = path; *s;) {
		size_t len = strcspn(s, ":");
		int n = snprintf(out, cap, "%.*s/%s", (int)len, s, name);

		if (len > 0 && *s == '/' && n > 0 && (size_t)n < cap &&
		    stat(out, st) == 0 && S_ISREG(st->st_mode) &&
		    access(out, X_OK) == 0)
			return true;
		s += len;
		if (*s == ':')
			s++;
	}
	return false;
}

/* A path for argv[0] (./uname) passes only when it is the very file that
 * a PATH lookup of its name finds: a planted ./uname is not uname. */
static bool argv0_is_path_lookup(const char *argv0, const char *base)
{
	char cand[PATH_MAX];
	struct stat want, st;

	if (stat(argv0, &want) != 0 || !argv0_lookup(base, cand, sizeof(cand),
						     &st))
		return false;
	return st.st_dev == want.st_dev && st.st_ino == want.st_ino;
}

/* argv-only: is argv[0] on the allowlist? The message says why not. */
static bool argv0_allowed(const struct sandbox_opts *o, const char *argv0,
			  char *why, size_t whycap)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	if (!argv0_listed(o, base)) {
		blocked_message(o, argv0, why, whycap);
		return false;
	}
	if (base != argv0 && !argv0_is_path_lookup(argv0, base)) {
		(void)snprintf(why, whycap,
			       "blocked: command '%s' is not the '%s' found "
			       "on PATH",
			       argv0, base);
		return false;
	}
	return true;
}

/* "blocked: command 'rm' is not in the allowlist [uname, date, echo]" */
static void blocked_message(const struct sandbox_opts *o, const char *argv0,
			    char *out, size_t cap)
{
	const char *base = strrchr(argv0, '/');
	size_t len;
	int n;

	base = base ? base + 1 : argv0;
	n = snprintf(out, cap,
		     "blocked: command '%s' is not in the allowlist [", base);
	len = n < 0 ? 0 : (size_t)n;
	for (size_t i = 0; i < o->nallow_cmds && len < cap; i++) {
		n = snprintf(out + len, cap - len, "%s%s", i ? ", " : "",
			     o->allow_cmds[i]);
		len += n < 0 ? 0 : (size_t)n;
	}
	if (len < cap)
		(void)snprintf(out + len, cap - len, "]");
}

static void rep_init(struct sandbox_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->backend = "none";
	rep->enforcement = "none";
	rep->exit_code = -1;
}

__attribute__((format(printf, 3, 4))) static void
rep_refuse(struct sandbox_report *rep, int status, const char *fmt, ...)
{
	va_list ap;

	rep->status = status;
	rep->exit_code = status == ST_SETUP ? -1 : status;
	va_start(ap, fmt);
	(void)vsnprintf(rep->error, sizeof(rep->error), fmt, ap);
	va_end(ap);
}

static enum cordon_err diag_set(struct cordon_diag *diag, enum cordon_err err,
				int sys, const char *msg)
{
	if (diag) {
		memset(diag, 0, sizeof(*diag));
		diag->code = err;
		diag->sys_errno = sys;
		(void)snprintf(diag->message, sizeof(diag->message), "%s", msg);
	}
	return err;
}

/* Decodes the status: the time-out, the child's own error text, the
 * command's wait status. */
static void parent_status(struct sandbox_plan *p, struct sandbox_report *rep,
			  int wstatus, bool got)
{
	char buf[sizeof(rep->error) + 8];
	ssize_t n = read(p->err_r, buf, sizeof(buf) - 1);
	int status;

	if (p->st_r >= 0 &&
	    read(p->st_r, &p->st_status, sizeof(p->st_status)) ==
		    (ssize_t)sizeof(p->st_status))
		p->st_have = true;
	if (p->st_have) {
		wstatus = p->st_status;
		got = true;
	}
	if (n > 4) {
		char *end;
		long code;

		buf[n] = '\0';
		errno = 0;
		code = strtol(buf, &end, 10);
		if (!errno && end != buf && *end == ' ' &&
		    (code == ST_SETUP || code == ST_NOEXEC ||
		     code == ST_NOTFOUND)) {
			if (p->error[0] &&
			    strstr(end + 1, "could not build the filter"))
				rep_refuse(rep, (int)code, "%s", p->error);
			else
				rep_refuse(rep, (int)code, "%s", end + 1);
			if (rep->timed_out)
				rep->status = ST_TIMEOUT;
			return;
		}
	}
	if (!got) {
		rep_refuse(rep, ST_SETUP, "the sandbox's process vanished");
		return;
	}
	if (WIFEXITED(wstatus)) {
		rep->exit_code = WEXITSTATUS(wstatus);
		rep->signal = 0;
		status = rep->exit_code;
	} else {
		rep->exit_code = -1;
		rep->signal = WTERMSIG(wstatus);
		status = 128 + rep->signal;
	}
	rep->status = rep->timed_out ? ST_TIMEOUT : status;
}

/* A CLOEXEC pipe whose read end does not block (the parent reads it only
 * once the child is gone). */
/* ---- network proxy: the parent's side ---------------------------------- */

static enum cordon_err plan_proxy_new(struct sandbox_plan *p, int fd,
				 struct cordon_diag *d)
{
	const struct sandbox_opts *o = p->o;
	struct proxy_options po;

	proxy_options_default(&po);
	po.listen = "127.0.0.1:0";
	po.listen_fd = fd;
	po.allow = o->allow_hosts;
	po.nallow = o->nallow_hosts;
	po.deny = o->deny_hosts;
	po.ndeny = o->ndeny_hosts;
	po.deny_ranges = o->deny_ranges;
	po.ndeny_ranges = o->ndeny_ranges;
	po.control_listen = o->control_listen;
	po.control_token = o->control_token;
	po.inject_host = o->inject_host;
	po.inject_secret = o->inject_secret;
	po.inject_header = o->inject_header;
	po.inject_format = o->inject_format;
	po.inject_cacert = o->inject_cacert;
	po.inject_port = o->inject_port;
	po.inject_allow_loopback = o->inject_allow_loopback;
	po.on_decision = o->proxy_decision;
	po.ctx = o->proxy_decision_ctx;
	return proxy_new(&po, &p->px, d);
}

/* Before the clone: the port the command is told about. Namespaces: a
 * fixed port of the sandbox's own network namespace (nothing else
 * listens there), the socket comes from the child; otherwise the proxy
 * listens on the host's loopback now, on a port of the kernel's choice. */
static int proxy_prepare(struct sandbox_plan *p)
{
	struct cordon_diag d;
	char addr[64], *colon, *end;
	unsigned long port;

	if (p->o->network != SANDBOX_NET_PROXY)
		return 0;
	if (p->netns) {
		p->proxy_port = SANDBOX_PROXY_PORT;
		return 0;
	}
	memset(&d, 0, sizeof(d));
	if (plan_proxy_new(p, -1, &d) != CORDON_OK)
		return plan_fail(p, "network proxy: %s", d.message);
	proxy_local_addr(p->px, addr, sizeof(addr));
	colon = strrchr(addr, ':');
	errno = 0;
	port = colon ? strtoul(colon + 1, &end, 10) : 0;
	if (!colon || errno || *end || port == 0 || port > 65535)
		return plan_fail(p, "network proxy: no port in '%s'", addr);
	p->proxy_port = (unsigned short)port;
	return 0;
}

/* The command's environment: the filtered one, and in proxy mode the
 * proxy variables (NO_PROXY emptied: nothing goes around the proxy). */
static char **plan_env(struct sandbox_plan *p)
{
	static const char *const names[] = { "HTTP_PROXY", "http_proxy",
					     "HTTPS_PROXY", "https_proxy",
					     "ALL_PROXY", "all_proxy",
					     "NO_PROXY", "no_proxy" };
	const size_t nn = sizeof(names) / sizeof(names[0]);
	const struct sandbox_opts *o = p->o;
	extern char **environ;
	char **extra;
	size_t nx = 0, n = 0;

	if (o->network != SANDBOX_NET_PROXY)
		return envfilter_build(environ, o->env_allow, o->env_deny,
				  o->extra_env);
	while (o->extra_env && o->extra_env[nx])
		nx++;
	if (nx > SIZE_MAX / sizeof(char *) - nn - 1)
		return NULL;
	extra = arena_alloc(&p->arena, (nx + nn + 1) * sizeof(char *));
	if (!extra)
		return NULL;
	for (size_t i = 0; i < nx; i++) {
		const char *e = o->extra_env[i];
		const char *eq = strchr(e, '=');
		size_t nl = eq ? (size_t)(eq - e) : strlen(e);
		bool ours = false;

		for (size_t j = 0; j < nn; j++)
			if (strlen(names[j]) == nl &&
			    memcmp(names[j], e, nl) == 0)
				ours = true;
		if (!ours)
			extra[n++] = (char *)e;
	}
	for (size_t j = 0; j < nn; j++) {
		char buf[96];

		if (j >= 6)
			(void)snprintf(buf, sizeof(buf), "%s=", names[j]);
		else
			(void)snprintf(buf, sizeof(buf), "%s=%s://127.0.0.1:%u",
				       names[j], j >= 4 ? "socks5h" : "http",
				       (unsigned)p->proxy_port);
		extra[n] = plan_strdup(p, buf);
		if (!extra[n])
			return NULL;
		n++;
	}
	extra[n] = NULL;
	return envfilter_build(environ, o->env_allow, o->env_deny, extra);
}

static void *proxy_thread(void *arg)
{
	(void)proxy_run(arg);
	return NULL;
}

/* Receives the listening socket from the child (namespaces backend);
 * -1 when the child died first (its own error says why). */
static int proxy_recv_socket(struct sandbox_plan *p)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg;
	struct cmsghdr *cm;
	struct iovec iov;
	char c;
	int fd = -1;
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = &c;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = u.buf;
	msg.msg_controllen = sizeof(u.buf);
	do
		n = recvmsg(p->pxs_r, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* After the clone: the proxy serves its socket on a thread of its own
 * until proxy_end(). -1 with proxy_diag set when it cannot: the caller
 * kills the child (no command runs with a dead proxy endpoint). */
static int proxy_start(struct sandbox_plan *p)
{
	struct cordon_diag d;
	int fd, e;

	if (!p->px) {
		fd = proxy_recv_socket(p);
		close(p->pxs_r);
		p->pxs_r = -1;
		if (fd < 0)
			return 0; /* the child failed and says why */
		memset(&d, 0, sizeof(d));
		if (plan_proxy_new(p, fd, &d) != CORDON_OK) {
			(void)snprintf(p->proxy_diag, sizeof(p->proxy_diag),
				       "network proxy: %s", d.message);
			return -1;
		}
	}
	e = pthread_create(&p->proxy_thread, NULL, proxy_thread, p->px);
	if (e != 0) {
		(void)snprintf(p->proxy_diag, sizeof(p->proxy_diag),
			       "network proxy: thread: %s", strerror(e));
		return -1;
	}
	p->proxy_running = true;
	return 0;
}

static void proxy_end(struct sandbox_plan *p)
{
	if (p->proxy_running) {
		proxy_stop(p->px);
		(void)pthread_join(p->proxy_thread, NULL);
		p->proxy_running = false;
	}
	proxy_free(p->px);
	p->px = NULL;
}

static int open_pipe(int *r, int *w)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	*r = fds[0];
	*w = fds[1];
	return fcntl(*r, F_SETFL, O_NONBLOCK);
}

/* The namespaces the child is cloned into. */
static uint64_t clone_flags(const struct sandbox_plan *p)
{
	uint64_t f = 0;

	if (p->backend == SANDBOX_BACKEND_NAMESPACES) {
		f = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
		    CLONE_NEWUTS;
		if (p->netns)
			f |= CLONE_NEWNET;
	}
	return f;
}

enum cordon_err sandbox_run(const struct sandbox_opts *o, char *const argv[],
			struct sandbox_report *rep, struct cordon_diag *diag)
{
	struct sandbox_plan p;
	char cwd[PATH_MAX], exec_path[PATH_MAX];
	const char *home;
	enum cordon_err err = CORDON_OK;
	unsigned long long t0 = now_ms();
	int pidfd = -1, wstatus = 0;
	pid_t pid;
	bool got = false;
	extern char **environ;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!o || !argv || !argv[0] || !rep)
		return diag_set(diag, CORDON_E_INVAL, 0,
				"sandbox_run: no options, report or command");
	rep_init(rep);
	if (o->nallow_hosts > SANDBOX_MAX_HOSTS || o->ndeny_hosts > SANDBOX_MAX_HOSTS)
		return diag_set(diag, CORDON_E_LIMIT, 0,
				"more than 1024 allowed or denied hosts "
				"(SANDBOX_MAX_HOSTS)");
	if (o->nwrite > SANDBOX_MAX_LIST || o->ndeny_read > SANDBOX_MAX_LIST ||
	    o->nallow_cmds > SANDBOX_MAX_LIST || o->ndeny_write > SANDBOX_MAX_LIST)
		return diag_set(diag, CORDON_E_LIMIT, 0,
				"more than 256 --write, --deny-read, "
				"deny_write or --allow-cmd entries "
				"(SANDBOX_MAX_LIST)");
	if (o->argv_only &&
	    !argv0_allowed(o, argv[0], rep->error, sizeof(rep->error))) {
		rep->status = ST_NOEXEC;
		rep->exit_code = ST_NOEXEC;
		return CORDON_OK;
	}
	/* argv-only: exec the very file checked here (by path: no second
	 * PATH lookup by the child, no swap of a path argv[0] between the
	 * check and the exec). */
	if (o->argv_only) {
		const char *base = strrchr(argv[0], '/');
		struct stat st;

		base = base ? base + 1 : argv[0];
		if (!argv0_lookup(base, exec_path, sizeof(exec_path), &st)) {
			rep_refuse(rep, ST_NOTFOUND,
				   "exec %s: not found on PATH", argv[0]);
			return CORDON_OK;
		}
	}

	memset(&p, 0, sizeof(p));
	p.o = o;
	p.argv = argv;
	if (o->argv_only)
		p.exec_path = exec_path;
	p.err_r = p.err_w = p.st_r = p.st_w = -1;
	p.sync_r = p.sync_w = -1;
	p.out_r[0] = p.out_r[1] = p.out_w[0] = p.out_w[1] = -1;
	p.null_fd = p.parent_pidfd = p.ph_fd = -1;
	p.pxs_r = p.pxs_w = -1;
	cg_clear(&p.cg);
	arena_init(&p.arena, SANDBOX_ARENA_MAX);
	p.uid = geteuid();
	p.gid = getegid();
	p.parent_pid = getpid();

	/* Which backend. */
	if (o->mode == SANDBOX_MODE_OFF) {
		p.backend = SANDBOX_BACKEND_BEST; /* none */
	} else if (o->backend != SANDBOX_BACKEND_BEST) {
		p.backend = o->backend;
	} else {
		int best = sandbox_probe(false, NULL, 0);

		if (best < 0) {
			rep_refuse(rep, ST_SETUP,
				   "no sandbox backend works here (cordon run "
				   "--probe says why)");
			goto out;
		}
		p.backend = (enum sandbox_backend)best;
	}
	p.netns = p.backend == SANDBOX_BACKEND_NAMESPACES &&
		  (o->network == SANDBOX_NET_NONE || o->network == SANDBOX_NET_PROXY);

	/* Paths. */
	if (!getcwd(cwd, sizeof(cwd))) {
		rep_refuse(rep, ST_SETUP, "getcwd: %s", strerror(errno));
		goto out;
	}
	p.cwd = plan_strdup(&p, cwd);
	home = getenv("HOME");
	p.home = home && home[0] == '/' ? plan_canon(&p, home) : NULL;
	if (!p.home)
		p.home = home && home[0] == '/' ? plan_strdup(&p, home) : "/";
	p.ops = arena_alloc(&p.arena, sizeof(p.ops[0]) * SANDBOX_MAX_MOUNTS);
	p.rw = arena_alloc(&p.arena, sizeof(p.rw[0]) * (SANDBOX_MAX_LIST + 33));
	if (!p.cwd || !p.home || !p.ops || !p.rw) {
		err = diag_set(diag, CORDON_E_NOMEM, 0, "out of memory");
		goto out;
	}
	if (p.backend != SANDBOX_BACKEND_BEST) {
		if (plan_writable(&p, o->workspace ? o->workspace : cwd,
				  "workspace", false, &p.ws))
			goto refuse;
		for (size_t i = 0; i < o->nwrite; i++)
			if (plan_writable(&p, o->write[i], "writable root",
					  false, NULL))
				goto refuse;
		if (o->cache_writes) {
			for (size_t i = 0;
			     i < sizeof(home_caches) / sizeof(home_caches[0]);
			     i++) {
				char *c = plan_join(&p, p.home, home_caches[i]);

				if (!c ||
				    plan_writable(&p, c, "cache", true, NULL))
					goto refuse;
			}
		}
		if (plan_add_rw(&p, "/tmp"))
			goto refuse;
	}
	if (p.backend == SANDBOX_BACKEND_NAMESPACES) {
		p.ph_fd = ph_open(&p);
		if (plan_mounts(&p))
			goto refuse;
	}
	if (p.backend != SANDBOX_BACKEND_BEST) {
		unsigned long long mem = (unsigned long long)o->memory_mb << 20;
		unsigned long pids = o->pids ? o->pids : SANDBOX_DEFAULT_PIDS;

		plan_cgroup(&p, mem, pids);
		p.reaper = p.backend == SANDBOX_BACKEND_LANDLOCK &&
			   reaper_available();
		plan_report(&p, rep);
	} else {
		rep_lost(rep, "mode off: no sandbox");
		rep_deny_write(&p, rep, "mode off: no sandbox");
	}
	if (o->mode == SANDBOX_MODE_STRICT &&
	    strcmp(rep->enforcement, "full") != 0) {
		char list[sizeof(rep->error)];
		size_t len = 0;

		list[0] = '\0';
		for (size_t i = 0; i < rep->nnot_enforced && len < sizeof(list);
		     i++) {
			int n = snprintf(list + len, sizeof(list) - len, "%s%s",
					 i ? "; " : "", rep->not_enforced[i]);

			len += n < 0 ? 0 : (size_t)n;
		}
		rep_refuse(rep, ST_SETUP,
			   "strict mode: enforcement would be %s: %s",
			   rep->enforcement, list);
		goto out;
	}

	if (proxy_prepare(&p) != 0)
		goto refuse;
	p.envp = plan_env(&p);
	if (!p.envp) {
		err = diag_set(diag, CORDON_E_NOMEM, 0, "out of memory");
		goto out;
	}
	if (open_pipe(&p.err_r, &p.err_w) != 0 ||
	    (p.backend != SANDBOX_BACKEND_BEST &&
	     open_pipe(&p.st_r, &p.st_w) != 0)) {
		rep_refuse(rep, ST_SETUP, "pipe: %s", strerror(errno));
		goto out;
	}
	if (p.backend != SANDBOX_BACKEND_BEST) {
		int fds[2];

		/* A socket, so that writing to a child that died early is an
		 * EPIPE (MSG_NOSIGNAL), never a SIGPIPE for the caller. */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) !=
		    0) {
			rep_refuse(rep, ST_SETUP, "socketpair: %s",
				   strerror(errno));
			goto out;
		}
		p.sync_r = fds[0];
		p.sync_w = fds[1];
	}
	if (p.netns && o->network == SANDBOX_NET_PROXY) {
		int fds[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) !=
		    0) {
			rep_refuse(rep, ST_SETUP, "socketpair: %s",
				   strerror(errno));
			goto out;
		}
		p.pxs_r = fds[0];
		p.pxs_w = fds[1];
	}
	if (o->argv_only || o->stdin_null) {
		p.null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (p.null_fd < 0) {
			rep_refuse(rep, ST_SETUP, "open /dev/null: %s",
				   strerror(errno));
			goto out;
		}
	}
	if (o->output_cap || o->capture_out) {
		for (int i = 0; i < 2; i++) {
			if (open_pipe(&p.out_r[i], &p.out_w[i]) != 0) {
				rep_refuse(rep, ST_SETUP, "pipe: %s",
					   strerror(errno));
				goto out;
			}
		}
	}
	if (p.backend == SANDBOX_BACKEND_NAMESPACES)
		p.parent_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	/* The caller's signals stay blocked until the child restores them;
	 * the parent takes SIGINT/TERM/HUP from a signalfd and forwards. */
	{
		sigset_t all;

		sigemptyset(&all);
		sigaddset(&all, SIGINT);
		sigaddset(&all, SIGTERM);
		sigaddset(&all, SIGHUP);
		sigprocmask(SIG_BLOCK, &all, &p.oldmask);
	}
	p.old_umask = umask(022);
	umask(p.old_umask);

	if (o->on_start)
		o->on_start(rep, o->on_start_arg);
	pid = sandbox_clone(clone_flags(&p), &pidfd, p.cg.v2 ? p.cg.lock_fd : -1);
	if (pid < 0 && p.backend == SANDBOX_BACKEND_NAMESPACES &&
	    o->backend == SANDBOX_BACKEND_BEST && o->mode != SANDBOX_MODE_STRICT &&
	    (errno == EPERM || errno == EINVAL || errno == ENOSPC ||
	     errno == EACCES)) {
		/* User namespaces refused after the probe said yes: the
		 * landlock backend, reported as such. */
		rep_init(rep);
		p.backend = SANDBOX_BACKEND_LANDLOCK;
		p.netns = false;
		p.nops = 0;
		p.reaper = reaper_available();
		plan_report(&p, rep);
		if (o->network == SANDBOX_NET_PROXY) {
			/* The proxy moves to the host's loopback. */
			if (p.pxs_w >= 0)
				close(p.pxs_w);
			p.pxs_w = -1;
			envfilter_free(p.envp);
			p.envp = NULL;
			if (proxy_prepare(&p) != 0) {
				sigprocmask(SIG_SETMASK, &p.oldmask, NULL);
				goto refuse;
			}
			p.envp = plan_env(&p);
			if (!p.envp) {
				sigprocmask(SIG_SETMASK, &p.oldmask, NULL);
				err = diag_set(diag, CORDON_E_NOMEM, 0,
					       "out of memory");
				goto out;
			}
		}
		if (o->on_start)
			o->on_start(rep, o->on_start_arg);
		pid = sandbox_clone(0, &pidfd, p.cg.v2 ? p.cg.lock_fd : -1);
	}
	if (pid < 0) {
		int e = errno;

		sigprocmask(SIG_SETMASK, &p.oldmask, NULL);
		rep_refuse(rep, ST_SETUP, "clone (%s backend): %s",
			   p.backend == SANDBOX_BACKEND_NAMESPACES ? "namespaces" :
								 "landlock",
			   strerror(e));
		goto out;
	}
	if (pid == 0) {
		if (p.backend == SANDBOX_BACKEND_NAMESPACES)
			child_namespaces(&p);
		if (p.backend == SANDBOX_BACKEND_LANDLOCK)
			child_landlock(&p);
		/* mode off */
		close(p.err_r);
		if (setsid() < 0)
			child_die(&p, ST_SETUP, errno, "setsid");
		child_pdeathsig(&p, false);
		child_exec(&p, false);
	}

	/* The parent keeps only the read ends. */
	close(p.err_w);
	p.err_w = -1;
	if (p.sync_r >= 0)
		close(p.sync_r);
	p.sync_r = -1;
	if (p.pxs_w >= 0)
		close(p.pxs_w);
	p.pxs_w = -1;
	parent_feed_child(&p, pid);
	if (o->network == SANDBOX_NET_PROXY && proxy_start(&p) != 0)
		kill_tree(&p, pid, pidfd, true);
	if (p.st_w >= 0)
		close(p.st_w);
	p.st_w = -1;
	for (int i = 0; i < 2; i++) {
		if (p.out_w[i] >= 0)
			close(p.out_w[i]);
		p.out_w[i] = -1;
	}
	if (p.cg.procs_fd >= 0)
		close(p.cg.procs_fd);
	p.cg.procs_fd = -1;
	if (p.backend == SANDBOX_BACKEND_BEST)
		p.backend = SANDBOX_BACKEND_LANDLOCK; /* kill by process group */
	parent_wait(&p, pid, pidfd, rep, &wstatus, &got);
	proxy_end(&p);
	sigprocmask(SIG_SETMASK, &p.oldmask, NULL);
	parent_status(&p, rep, wstatus, got);
	if (p.proxy_diag[0])
		rep_refuse(rep, ST_SETUP, "%s", p.proxy_diag);
	close(pidfd);
	goto out;

refuse:
	rep_refuse(rep, ST_SETUP, "%s", p.error);
out:
	proxy_end(&p);
	if (p.pxs_r >= 0)
		close(p.pxs_r);
	if (p.pxs_w >= 0)
		close(p.pxs_w);
	cg_release(&p.cg);
	ph_cleanup(&p);
	plan_close(&p);
	envfilter_free(p.envp);
	arena_release(&p.arena);
	rep->duration_ms = (unsigned long)(now_ms() - t0);
	return err;
}

/* ---- the report --------------------------------------------------------- */

char *sandbox_report_json(const struct sandbox_report *rep)
{
	cJSON *j = cJSON_CreateObject(), *arr;
	char *text;

	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "backend",
				rep->backend ? rep->backend : "none");
	cJSON_AddStringToObject(j, "enforcement",
				rep->enforcement ? rep->enforcement : "none");
	arr = cJSON_AddArrayToObject(j, "notEnforced");
	for (size_t i = 0; arr && i < rep->nnot_enforced; i++)
		cJSON_AddItemToArray(arr,
				     cJSON_CreateString(rep->not_enforced[i]));
	arr = cJSON_AddArrayToObject(j, "caveats");
	for (size_t i = 0; arr && i < rep->ncaveats; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(rep->caveats[i]));
	if (rep->exit_code >= 0)
		cJSON_AddNumberToObject(j, "exitCode", rep->exit_code);
	else
		cJSON_AddNullToObject(j, "exitCode");
	if (rep->signal > 0) {
		char name[32];
		const char *abbrev = sigabbrev_np(rep->signal);

		if (abbrev)
			(void)snprintf(name, sizeof(name), "SIG%s", abbrev);
		else
			(void)snprintf(name, sizeof(name), "%d", rep->signal);
		cJSON_AddStringToObject(j, "signal", name);
	} else {
		cJSON_AddNullToObject(j, "signal");
	}
	cJSON_AddBoolToObject(j, "timedOut", rep->timed_out);
	cJSON_AddNumberToObject(j, "durationMs", (double)rep->duration_ms);
	cJSON_AddNumberToObject(j, "status", rep->status);
	if (rep->error[0])
		cJSON_AddStringToObject(j, "error", rep->error);
	if (rep->output_truncated)
		cJSON_AddBoolToObject(j, "outputTruncated", true);
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return text;
}
