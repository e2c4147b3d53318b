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
 * command. PID 1 reaps and forwards signals; when the command exits it
 * kills and reaps every process left in the namespace, then sends the
 * command's status (the run's end: the parent sweeps and hands the report
 * over, on_end, while PID 1's exit ends the namespaces) and exits.
 *
 * Backend "landlock": no namespaces; the child is the command, in its own
 * session; Landlock, seccomp and rlimits only.
 *
 * The child moves itself into a cgroup v1 leaf first thing (v2: it is
 * born there with CLONE_INTO_CGROUP; cgroup.c says why the child does
 * it). While it sets up, the parent compiles the seccomp program, which
 * reaches the child over a socket. Leaves come from a pool
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
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/openat2.h>

#include "diag.h"
#include "envfilter.h"
#include "landlock.h"
#include "sandbox_int.h"
#include "syscallfilter.h"

#include "banned.h"

/* Package caches made writable with --cache-writes. */
static const char *const home_caches[] = {
	".cache",     ".npm",		".cargo/registry",
	".cargo/git", ".m2/repository", ".gradle/caches",
	"go/pkg/mod", ".pnpm-store",	".bun/install/cache",
};

/* Reads at most SANDBOX_GIT_FILE_MAX bytes of a regular file (no symlink) into
 * buf; returns the length or -1. */
ssize_t sandbox_read_small(const char *path, char *buf, size_t cap)
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

int sandbox_write_str(const char *path, const char *s)
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

int sandbox_openat2(int dfd, const char *path, int flags,
		    unsigned long long res)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)flags;
	how.resolve = res;
	return (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
}

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

unsigned long long sandbox_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ULL +
	       (unsigned long long)ts.tv_nsec / 1000000ULL;
}

/* While the child sets up its namespaces: hands it the seccomp program
 * (built with cordon, syscallfilter_get) over the sync pipe. */
static void parent_feed_child(struct sandbox_plan *p, pid_t pid)
{
	struct syscallfilter_prog prog;
	uint32_t len = 0;

	if (p->sync_w < 0)
		return;
	if (syscallfilter_get(p->o->no_unix_sockets,
				  sandbox_pty_modes_allowed(p), p->unotif_asked,
				  &prog, p->error, sizeof(p->error)) == 0) {
		if (prog.len <= SANDBOX_BPF_MAX)
			len = (uint32_t)prog.len;
		else
			(void)snprintf(p->error, sizeof(p->error),
				       "seccomp: the filter has more than %d "
				       "instructions (BPF_MAXINSNS)",
				       SANDBOX_BPF_MAX / 8);
	}
	/* Overlapped with the child's set-up; without its program the
	 * child never execs. */
	if (len && p->o->before_exec &&
	    p->o->before_exec(p->o->before_exec_ctx, p->error,
			      sizeof(p->error)) != 0) {
		syscallfilter_prog_free(&prog);
		len = 0;
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
	/* The child answers with its listener (unixnotif.c). */
	if (len)
		sandbox_unixnotif_start(p, pid);
	close(p->sync_w);
	p->sync_w = -1;
}

static void plan_close(struct sandbox_plan *p)
{
	int *fds[] = { &p->err_r,	 &p->err_w,    &p->st_r,
		       &p->st_w,	 &p->out_r[0], &p->out_r[1],
		       &p->out_w[0],	 &p->out_w[1], &p->null_fd,
		       &p->parent_pidfd, &p->sync_r,   &p->sync_w,
		       &p->in_w,	 &p->pty_m,    &p->pty_s };

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

	if (stat(argv0, &want) != 0 ||
	    !argv0_lookup(base, cand, sizeof(cand), &st))
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

/* A CLOEXEC pipe whose read end does not block (the parent reads it only
 * once the child is gone). */
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

/* One run across its phases: the plan, where the report and the
 * diagnostic go, and the child once it is cloned. */
struct run {
	struct sandbox_plan p;
	const struct sandbox_opts *o;
	char *const *argv;
	struct sandbox_report *rep;
	struct cordon_diag *diag;
	enum cordon_err err;
	char cwd[PATH_MAX];
	char exec_path[PATH_MAX]; /* argv-only: argv[0] found on PATH */
	pid_t pid;
	int pidfd;
	int wstatus;
	bool got;
};

/* A planning failure: refused with the plan's message. Returns -1. */
static int run_refuse(struct run *r)
{
	sandbox_report_refuse(r->rep, ST_SETUP, "%s", r->p.error);
	return -1;
}

/* The arguments and the ceilings on the lists, before anything else. */
static enum cordon_err run_check(const struct sandbox_opts *o,
				 char *const argv[], struct sandbox_report *rep,
				 struct cordon_diag *diag)
{
	if (!o || !argv || !argv[0] || !rep)
		return diag_set(diag, CORDON_E_INVAL,
				"sandbox_run: no options, report or command");
	sandbox_report_init(rep);
	if (o->nallow_hosts > SANDBOX_MAX_HOSTS ||
	    o->ndeny_hosts > SANDBOX_MAX_HOSTS)
		return diag_set(diag, CORDON_E_LIMIT,
				"more than 1024 allowed or denied hosts "
				"(SANDBOX_MAX_HOSTS)");
	if (o->nwrite > SANDBOX_MAX_LIST || o->ndeny_read > SANDBOX_MAX_LIST ||
	    o->nallow_cmds > SANDBOX_MAX_LIST ||
	    o->ndeny_write > SANDBOX_MAX_LIST)
		return diag_set(diag, CORDON_E_LIMIT,
				"more than 256 --write, --deny-read, "
				"deny_write or --allow-cmd entries "
				"(SANDBOX_MAX_LIST)");
	return CORDON_OK;
}

/* argv-only: argv[0] must be on the allowlist (else 126), and the file a
 * PATH lookup finds for it is what the child execs (none: 127). True
 * when the run is refused. */
static bool run_argv_only(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_report *rep = r->rep;
	const char *base;
	struct stat st;

	if (!o->argv_only)
		return false;
	if (!argv0_allowed(o, r->argv[0], rep->error, sizeof(rep->error))) {
		rep->status = ST_NOEXEC;
		rep->exit_code = ST_NOEXEC;
		return true;
	}
	/* Exec the very file checked here (by path: no second PATH lookup
	 * by the child, no swap of a path argv[0] between the check and the
	 * exec). */
	base = strrchr(r->argv[0], '/');
	base = base ? base + 1 : r->argv[0];
	if (!argv0_lookup(base, r->exec_path, sizeof(r->exec_path), &st)) {
		sandbox_report_refuse(rep, ST_NOTFOUND,
				      "exec %s: not found on PATH", r->argv[0]);
		return true;
	}
	return false;
}

/* An empty plan: no descriptor open, no cgroup, the arena, our ids. */
static void run_init(struct run *r)
{
	struct sandbox_plan *p = &r->p;

	memset(p, 0, sizeof(*p));
	p->o = r->o;
	p->argv = r->argv;
	if (r->o->argv_only)
		p->exec_path = r->exec_path;
	p->err_r = p->err_w = p->st_r = p->st_w = -1;
	p->sync_r = p->sync_w = -1;
	p->out_r[0] = p->out_r[1] = p->out_w[0] = p->out_w[1] = -1;
	p->null_fd = p->parent_pidfd = p->ph_fd = p->in_w = -1;
	p->pxs_r = p->pxs_w = -1;
	p->pty_m = p->pty_s = p->pty_host = -1;
	p->out_to[0] = 1;
	p->out_to[1] = 2;
	sandbox_cgroup_clear(&p->cg);
	arena_init(&p->arena, SANDBOX_ARENA_MAX);
	p->uid = geteuid();
	p->gid = getegid();
	p->parent_pid = getpid();
}

/* Which backend: none in mode off, the one asked for, or the probe's
 * best; a network namespace with the namespaces backend unless the
 * network is the host's. */
static int run_backend(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;

	if (o->mode == SANDBOX_MODE_OFF) {
		p->backend = SANDBOX_BACKEND_BEST; /* none */
	} else if (o->backend != SANDBOX_BACKEND_BEST) {
		p->backend = o->backend;
	} else {
		int best = sandbox_probe(false, NULL, 0);

		if (best < 0) {
			sandbox_report_refuse(
				r->rep, ST_SETUP,
				"no sandbox backend works here (cordon run "
				"--probe says why)");
			return -1;
		}
		p->backend = (enum sandbox_backend)best;
	}
	p->netns = p->backend == SANDBOX_BACKEND_NAMESPACES &&
		   (o->network == SANDBOX_NET_NONE ||
		    o->network == SANDBOX_NET_PROXY);
	return 0;
}

/* The cwd, $HOME (canonical when it can be), and room for the mounts and
 * the writable roots. */
static int run_paths(struct run *r)
{
	struct sandbox_plan *p = &r->p;
	const char *home;

	if (!getcwd(r->cwd, sizeof(r->cwd))) {
		sandbox_report_refuse(r->rep, ST_SETUP, "getcwd: %s",
				      strerror(errno));
		return -1;
	}
	p->cwd = sandbox_plan_strdup(p, r->cwd);
	home = getenv("HOME");
	p->home = home && home[0] == '/' ? sandbox_plan_canon(p, home) : NULL;
	if (!p->home)
		p->home = home && home[0] == '/' ?
				  sandbox_plan_strdup(p, home) :
				  "/";
	/* Not zeroed: sandbox_plan_add_op fills each op it hands out, and
	 * zeroing room for SANDBOX_MAX_MOUNTS cost 80 KB of page faults. */
	p->ops = arena_alloc_raw(&p->arena,
				 sizeof(p->ops[0]) * SANDBOX_MAX_MOUNTS);
	p->rw = arena_alloc(&p->arena,
			    sizeof(p->rw[0]) * (SANDBOX_MAX_LIST + 33));
	if (!p->cwd || !p->home || !p->ops || !p->rw) {
		r->err = diag_set(r->diag, CORDON_E_NOMEM, "out of memory");
		return -1;
	}
	if (p->backend != SANDBOX_BACKEND_BEST && sandbox_plan_creds(p))
		return run_refuse(r);
	return 0;
}

/* The writable roots: the workspace, --write, the caches with
 * --cache-writes, /tmp. None in mode off. */
static int run_roots(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;

	if (p->backend == SANDBOX_BACKEND_BEST)
		return 0;
	if (sandbox_plan_writable(p, o->workspace ? o->workspace : r->cwd,
				  "workspace", false, &p->ws))
		return run_refuse(r);
	for (size_t i = 0; i < o->nwrite; i++)
		if (sandbox_plan_writable(p, o->write[i], "writable root",
					  false, NULL))
			return run_refuse(r);
	if (o->cache_writes) {
		for (size_t i = 0;
		     i < sizeof(home_caches) / sizeof(home_caches[0]); i++) {
			char *c = sandbox_plan_join(p, p->home, home_caches[i]);

			if (!c ||
			    sandbox_plan_writable(p, c, "cache", true, NULL))
				return run_refuse(r);
		}
	}
	if (sandbox_plan_add_rw(p, "/tmp"))
		return run_refuse(r);
	return 0;
}

/* Namespaces backend: the placeholder registry and the mounts (plan.c). */
static int run_mounts(struct run *r)
{
	struct sandbox_plan *p = &r->p;

	if (p->backend != SANDBOX_BACKEND_NAMESPACES)
		return 0;
	p->ph_fd = sandbox_placeholder_open(p);
	if (sandbox_plan_mounts(p))
		return run_refuse(r);
	return 0;
}

/* The cgroup leaf, the landlock backend's reaper, and the report of what
 * is enforced. */
static void run_limits(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;

	if (p->backend != SANDBOX_BACKEND_BEST) {
		unsigned long long mem = (unsigned long long)o->memory_mb << 20;
		unsigned long pids = o->pids ? o->pids : SANDBOX_DEFAULT_PIDS;

		/* The $HOME read layer (child.c), unless $HOME is a tmpfs,
		 * is / or lies in a writable root (the workspace is read
		 * whole). */
		p->home_read = landlock_abi() >= 1 && !o->no_read_home &&
			       strcmp(p->home, "/") != 0;
		for (size_t i = 0; i < p->nrw; i++)
			if (sandbox_plan_path_under(p->home, p->rw[i]))
				p->home_read = false;

		/* connect() checked at call time (unixnotif.c) */
		p->unotif_asked = sandbox_unixnotif_available(
			p->unotif_why, sizeof(p->unotif_why));
		sandbox_cgroup_plan(p, mem, pids);
		p->reaper = p->backend == SANDBOX_BACKEND_LANDLOCK &&
			    sandbox_reaper_available();
		sandbox_report_plan(p, r->rep);
	} else {
		sandbox_report_lost(r->rep, "mode off: no sandbox");
		sandbox_report_deny_write(p, r->rep, "mode off: no sandbox");
	}
}

/* Strict mode refuses a run whose enforcement would not be full, listing
 * what would be missing. */
static int run_strict(struct run *r)
{
	struct sandbox_report *rep = r->rep;
	char list[sizeof(rep->error)];
	size_t len = 0;

	if (r->o->mode != SANDBOX_MODE_STRICT ||
	    strcmp(rep->enforcement, "full") == 0)
		return 0;
	list[0] = '\0';
	for (size_t i = 0; i < rep->nnot_enforced && len < sizeof(list); i++) {
		int n = snprintf(list + len, sizeof(list) - len, "%s%s",
				 i ? "; " : "", rep->not_enforced[i]);

		len += n < 0 ? 0 : (size_t)n;
	}
	sandbox_report_refuse(rep, ST_SETUP,
			      "strict mode: enforcement would be %s: %s",
			      rep->enforcement, list);
	return -1;
}

/* The proxy's port (netproxy.c) and the command's environment. */
static int run_env(struct run *r)
{
	struct sandbox_plan *p = &r->p;

	if (sandbox_netproxy_prepare(p) != 0)
		return run_refuse(r);
	p->envp = sandbox_netproxy_env(p);
	if (!p->envp) {
		r->err = diag_set(r->diag, CORDON_E_NOMEM, "out of memory");
		return -1;
	}
	return 0;
}

enum stdio_kind {
	STDIO_CLOSED, /* not open */
	STDIO_OWN, /* an anonymous pipe or socket: nothing on disk behind it */
	STDIO_TTY, /* a terminal: a pty cordon made instead (pty.c), or with
		      no_pty passed through, its mode locked (seccomp) */
	STDIO_RELAY, /* a file, device or named FIFO: relayed */
	STDIO_DIR, /* a directory: refused */
};

/* What the caller's descriptor fd is; name gets what /proc says it is.
 * Without /proc a pipe cannot be told from a named FIFO: relayed. */
static enum stdio_kind stdio_kind(int fd, char *name, size_t cap)
{
	struct stat st;
	char link[32];
	ssize_t n;

	name[0] = '\0';
	if (fstat(fd, &st) != 0)
		return STDIO_CLOSED;
	(void)snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, cap - 1);
	name[n > 0 ? n : 0] = '\0';
	if (S_ISDIR(st.st_mode))
		return STDIO_DIR;
	if (isatty(fd))
		return STDIO_TTY;
	if ((S_ISFIFO(st.st_mode) && strncmp(name, "pipe:", 5) == 0) ||
	    (S_ISSOCK(st.st_mode) && strncmp(name, "socket:", 7) == 0))
		return STDIO_OWN;
	return STDIO_RELAY;
}

/* The command's stdin when it is not the caller's: the read end of a
 * pipe (a pipe: /dev/stdin opens, a socket's does not). The parent keeps
 * the write end in *w (non-blocking), or closes it at once: an empty
 * stdin. The parent holds the read end too until the run ends, so that
 * relaying into a command that stopped reading is EAGAIN, never a SIGPIPE
 * for the caller. */
static int stdin_pipe(struct sandbox_plan *p, int *w)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	p->null_fd = fds[0];
	if (w) {
		*w = fds[1];
		return fcntl(fds[1], F_SETFL, O_NONBLOCK);
	}
	close(fds[1]);
	return 0;
}

/* The caller's stdio (fds 0-2): a descriptor of a file, a device or a
 * directory outside the writable roots would let the command change its
 * metadata (fchmod, fchown, futimens, fsetxattr: Landlock has no right
 * for them and the host's mount is writable) or, for a directory, reach
 * beneath it with *at calls. The command gets only what cordon made: a
 * file or device is relayed through a pipe, a
 * directory is refused, anonymous pipes and sockets pass, a terminal
 * is replaced by a pty cordon relays (pty.c) or, when the caller asks
 * (no_pty) or no output slot is free, passes with its mode locked
 * (seccomp) and is named in the report. */
static int run_stdio(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;
	static const char *const names[] = { "stdin", "stdout", "stderr" };
	bool empty_in = o->argv_only || o->stdin_null;
	bool *relay = p->relay;

	for (int fd = 0; fd < 3; fd++) {
		char name[PATH_MAX];
		enum stdio_kind k;

		if (p->backend == SANDBOX_BACKEND_BEST || (fd == 0 && empty_in))
			continue;
		k = stdio_kind(fd, name, sizeof(name));
		if (k == STDIO_DIR) {
			sandbox_report_refuse(
				r->rep, ST_SETUP,
				"%s is a directory (%s): refused, a directory "
				"descriptor reaches beneath it from inside "
				"the sandbox",
				names[fd], name);
			return -1;
		}
		if (k == STDIO_TTY)
			(void)snprintf(p->stdio_tty[fd],
				       sizeof(p->stdio_tty[fd]), "%.63s",
				       name[0] ? name : "?");
		relay[fd] = k == STDIO_RELAY;
	}
	(void)sandbox_pty_plan(p);
	return 0;
}

/* What git runs later, recorded in the writable roots for the sweep after
 * the run (sweep.c); not in mode off. */
static int run_sweep_plan(struct run *r)
{
	if (r->p.backend == SANDBOX_BACKEND_BEST)
		return 0;
	if (sandbox_sweep_plan(&r->p, r->rep))
		return run_refuse(r);
	return 0;
}

/* The descriptors between parent and child: the error pipe, PID 1's
 * status pipe, the sync socket, the proxy's socket pair, /dev/null for
 * stdin, the output pipes, and our own pidfd for the parent-death check
 * across the PID namespace. */
static int run_channels(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;
	struct sandbox_report *rep = r->rep;
	const bool *relay = p->relay;

	if (open_pipe(&p->err_r, &p->err_w) != 0 ||
	    (p->backend != SANDBOX_BACKEND_BEST &&
	     open_pipe(&p->st_r, &p->st_w) != 0)) {
		sandbox_report_refuse(rep, ST_SETUP, "pipe: %s",
				      strerror(errno));
		return -1;
	}
	if (p->backend != SANDBOX_BACKEND_BEST) {
		int fds[2];

		/* A socket, so that writing to a child that died early is an
		 * EPIPE (MSG_NOSIGNAL), never a SIGPIPE for the caller. */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) !=
		    0) {
			sandbox_report_refuse(rep, ST_SETUP, "socketpair: %s",
					      strerror(errno));
			return -1;
		}
		p->sync_r = fds[0];
		p->sync_w = fds[1];
	}
	if (p->netns && o->network == SANDBOX_NET_PROXY) {
		int fds[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) !=
		    0) {
			sandbox_report_refuse(rep, ST_SETUP, "socketpair: %s",
					      strerror(errno));
			return -1;
		}
		p->pxs_r = fds[0];
		p->pxs_w = fds[1];
	}
	if ((o->argv_only || o->stdin_null || relay[0]) &&
	    stdin_pipe(p, relay[0] ? &p->in_w : NULL) != 0) {
		sandbox_report_refuse(rep, ST_SETUP, "stdin: pipe: %s",
				      strerror(errno));
		return -1;
	}
	if (o->output_cap || o->capture_out || relay[1] || relay[2]) {
		for (int i = 0; i < 2; i++) {
			if (!o->output_cap && !o->capture_out && !relay[i + 1])
				continue;
			if (open_pipe(&p->out_r[i], &p->out_w[i]) != 0) {
				sandbox_report_refuse(rep, ST_SETUP, "pipe: %s",
						      strerror(errno));
				return -1;
			}
		}
	}
	if (p->pty_on && sandbox_pty_open(p) != 0) {
		sandbox_report_refuse(rep, ST_SETUP, "pty: %s",
				      strerror(errno));
		return -1;
	}
	if (p->backend == SANDBOX_BACKEND_NAMESPACES)
		p->parent_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	return 0;
}

/* The caller's signals stay blocked until the child restores them; the
 * parent takes SIGINT/TERM/HUP from a signalfd and forwards them. The
 * umask is read for the child to restore. */
static void run_block_signals(struct run *r)
{
	struct sandbox_plan *p = &r->p;
	sigset_t all;

	sigemptyset(&all);
	sigaddset(&all, SIGINT);
	sigaddset(&all, SIGTERM);
	sigaddset(&all, SIGHUP);
	sandbox_pty_signals(p, &all);
	sigprocmask(SIG_BLOCK, &all, &p->oldmask);
	p->old_umask = umask(022);
	umask(p->old_umask);
}

/* User namespaces refused after the probe said yes: the landlock backend,
 * reported as such (the proxy moves to the host's loopback). */
static int run_fall_back(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;

	sandbox_report_init(r->rep);
	p->backend = SANDBOX_BACKEND_LANDLOCK;
	p->netns = false;
	p->nops = 0;
	p->reaper = sandbox_reaper_available();
	sandbox_report_plan(p, r->rep);
	if (o->network == SANDBOX_NET_PROXY) {
		if (p->pxs_w >= 0)
			close(p->pxs_w);
		p->pxs_w = -1;
		envfilter_free(p->envp);
		p->envp = NULL;
		if (sandbox_netproxy_prepare(p) != 0) {
			sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
			return run_refuse(r);
		}
		p->envp = sandbox_netproxy_env(p);
		if (!p->envp) {
			sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
			r->err = diag_set(r->diag, CORDON_E_NOMEM,
					  "out of memory");
			return -1;
		}
	}
	if (o->on_start)
		o->on_start(r->rep, o->on_start_arg);
	return 0;
}

/* Tells the caller the run starts, and clones the child into its
 * namespaces (v2: born in the cgroup leaf); falls back to the landlock
 * backend when the kernel refuses the namespaces of a probed backend. */
static int run_clone(struct run *r)
{
	const struct sandbox_opts *o = r->o;
	struct sandbox_plan *p = &r->p;
	int e;

	/* No channel to hold the child back at (mode off): before it. */
	if (o->before_exec && p->sync_w < 0 &&
	    o->before_exec(o->before_exec_ctx, p->error, sizeof(p->error))) {
		sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
		return run_refuse(r);
	}
	if (o->on_start)
		o->on_start(r->rep, o->on_start_arg);
	/* What the command can change is looked up again after it. */
	sandbox_plan_canon_forget(p);
	r->pid = sandbox_clone(clone_flags(p), &r->pidfd,
			       p->cg.v2 ? p->cg.lock_fd : -1);
	if (r->pid < 0 && p->backend == SANDBOX_BACKEND_NAMESPACES &&
	    o->backend == SANDBOX_BACKEND_BEST &&
	    o->mode != SANDBOX_MODE_STRICT &&
	    (errno == EPERM || errno == EINVAL || errno == ENOSPC ||
	     errno == EACCES)) {
		if (run_fall_back(r))
			return -1;
		r->pid = sandbox_clone(0, &r->pidfd,
				       p->cg.v2 ? p->cg.lock_fd : -1);
	}
	if (r->pid >= 0)
		return 0;
	e = errno;
	sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
	sandbox_report_refuse(r->rep, ST_SETUP, "clone (%s backend): %s",
			      p->backend == SANDBOX_BACKEND_NAMESPACES ?
				      "namespaces" :
				      "landlock",
			      strerror(e));
	return -1;
}

/* The child: the backend's set-up, or in mode off only a session of its
 * own and the exec. */
__attribute__((noreturn)) static void run_child(struct run *r)
{
	struct sandbox_plan *p = &r->p;

	if (p->backend == SANDBOX_BACKEND_NAMESPACES)
		sandbox_reaper_pid1(p);
	if (p->backend == SANDBOX_BACKEND_LANDLOCK)
		sandbox_child_landlock(p);
	/* mode off */
	close(p->err_r);
	if (setsid() < 0)
		sandbox_child_die(p, ST_SETUP, errno, "setsid");
	sandbox_child_pdeathsig(p, false);
	sandbox_child_exec(p, false);
}

/* The parent after the clone: keeps only the read ends, starts the proxy,
 * then feeds the child its seccomp program. The command cannot exec
 * without the program, so a proxy that cannot start (a CA file that does
 * not parse, libssl that cannot be loaded) kills the tree before the
 * command has run at all, not after it started with a dead endpoint. */
static void run_parent(struct run *r)
{
	struct sandbox_plan *p = &r->p;

	close(p->err_w);
	p->err_w = -1;
	if (p->sync_r >= 0)
		close(p->sync_r);
	p->sync_r = -1;
	if (p->pxs_w >= 0)
		close(p->pxs_w);
	p->pxs_w = -1;
	if (r->o->network == SANDBOX_NET_PROXY &&
	    sandbox_netproxy_start(p) != 0) {
		sandbox_reaper_kill_tree(p, r->pid, r->pidfd, true);
		if (p->sync_w >= 0)
			close(p->sync_w); /* no program: no exec */
		p->sync_w = -1;
	}
	parent_feed_child(p, r->pid);
	sandbox_report_unotif(p, r->rep);
	if (p->st_w >= 0)
		close(p->st_w);
	p->st_w = -1;
	for (int i = 0; i < 2; i++) {
		if (p->out_w[i] >= 0)
			close(p->out_w[i]);
		p->out_w[i] = -1;
	}
	if (p->cg.join_fd >= 0)
		close(p->cg.join_fd);
	p->cg.join_fd = -1;
	if (p->pty_s >= 0)
		close(p->pty_s);
	p->pty_s = -1;
	sandbox_pty_raw(p);
	if (p->backend == SANDBOX_BACKEND_BEST)
		p->backend =
			SANDBOX_BACKEND_LANDLOCK; /* kill by process group */
}

/* Waits for the run's end (reaper.c), stops the proxy, gives the caller
 * its signals back and decodes how the command ended. The child is reaped
 * in run_end. */
static void run_wait(struct run *r)
{
	struct sandbox_plan *p = &r->p;

	sandbox_reaper_wait(p, r->pid, r->pidfd, r->rep, &r->wstatus, &r->got);
	sandbox_pty_restore(p);
	sandbox_netproxy_end(p);
	sandbox_unixnotif_end(p);
	sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
	sandbox_report_status(p, r->rep, r->wstatus, r->got);
	if (p->proxy_diag[0])
		sandbox_report_refuse(r->rep, ST_SETUP, "%s", p->proxy_diag);
}

/* Releases what the run holds: the proxy, the placeholders' check (when
 * this is the last run), then hands the final report to the caller
 * (on_end), and only then reaps the child (PID 1's exit, the namespaces'
 * teardown, overlaps all of this), removes the empty placeholders (no
 * longer mount points anywhere) and lets go of the cgroup leaf; the
 * descriptors, the environment and the arena. */
static void run_end(struct run *r, unsigned long long t0)
{
	struct sandbox_plan *p = &r->p;

	sandbox_pty_restore(p);
	sandbox_netproxy_end(p);
	sandbox_unixnotif_end(p);
	if (p->pxs_r >= 0)
		close(p->pxs_r);
	if (p->pxs_w >= 0)
		close(p->pxs_w);
	sandbox_placeholder_check(p, r->rep);
	r->rep->duration_ms = (unsigned long)(sandbox_now_ms() - t0);
	if (r->o->on_end && r->err == CORDON_OK)
		r->o->on_end(r->rep, r->o->on_end_arg);
	sandbox_reaper_reap(r->pidfd, &r->got);
	if (r->pidfd >= 0)
		close(r->pidfd);
	sandbox_placeholder_cleanup(p, r->rep);
	sandbox_cgroup_release(&p->cg);
	plan_close(p);
	envfilter_free(p->envp);
	arena_release(&p->arena);
}

/* The phases in order. A phase that ends the run has refused it in rep
 * (or set r.err); the checks before the plan exists return at once. */
enum cordon_err sandbox_run(const struct sandbox_opts *o, char *const argv[],
			    struct sandbox_report *rep,
			    struct cordon_diag *diag)
{
	struct run r;
	unsigned long long t0 = sandbox_now_ms();
	enum cordon_err err;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	err = run_check(o, argv, rep, diag);
	if (err != CORDON_OK)
		return err;
	memset(&r, 0, sizeof(r));
	r.o = o;
	r.argv = argv;
	r.rep = rep;
	r.diag = diag;
	r.pidfd = -1;
	if (run_argv_only(&r))
		return CORDON_OK;

	run_init(&r);
	if (run_backend(&r) || run_paths(&r) || run_roots(&r) ||
	    run_mounts(&r) || run_stdio(&r) || run_sweep_plan(&r))
		goto out;
	run_limits(&r);
	if (run_strict(&r) || run_env(&r) || run_channels(&r))
		goto out;
	run_block_signals(&r);
	if (run_clone(&r))
		goto out;
	if (r.pid == 0)
		run_child(&r);
	run_parent(&r);
	run_wait(&r);
	sandbox_sweep_after(&r.p, r.rep);
out:
	run_end(&r, t0);
	return r.err;
}
