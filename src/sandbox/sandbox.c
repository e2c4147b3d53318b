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

#include "envfilter.h"
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

enum cordon_err sandbox_run(const struct sandbox_opts *o, char *const argv[],
			    struct sandbox_report *rep,
			    struct cordon_diag *diag)
{
	struct sandbox_plan p;
	char cwd[PATH_MAX], exec_path[PATH_MAX];
	const char *home;
	enum cordon_err err = CORDON_OK;
	unsigned long long t0 = sandbox_now_ms();
	int pidfd = -1, wstatus = 0;
	pid_t pid;
	bool got = false;
	extern char **environ;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!o || !argv || !argv[0] || !rep)
		return diag_set(diag, CORDON_E_INVAL, 0,
				"sandbox_run: no options, report or command");
	sandbox_report_init(rep);
	if (o->nallow_hosts > SANDBOX_MAX_HOSTS ||
	    o->ndeny_hosts > SANDBOX_MAX_HOSTS)
		return diag_set(diag, CORDON_E_LIMIT, 0,
				"more than 1024 allowed or denied hosts "
				"(SANDBOX_MAX_HOSTS)");
	if (o->nwrite > SANDBOX_MAX_LIST || o->ndeny_read > SANDBOX_MAX_LIST ||
	    o->nallow_cmds > SANDBOX_MAX_LIST ||
	    o->ndeny_write > SANDBOX_MAX_LIST)
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
			sandbox_report_refuse(rep, ST_NOTFOUND,
					      "exec %s: not found on PATH",
					      argv[0]);
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
	sandbox_cgroup_clear(&p.cg);
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
			sandbox_report_refuse(
				rep, ST_SETUP,
				"no sandbox backend works here (cordon run "
				"--probe says why)");
			goto out;
		}
		p.backend = (enum sandbox_backend)best;
	}
	p.netns = p.backend == SANDBOX_BACKEND_NAMESPACES &&
		  (o->network == SANDBOX_NET_NONE ||
		   o->network == SANDBOX_NET_PROXY);

	/* Paths. */
	if (!getcwd(cwd, sizeof(cwd))) {
		sandbox_report_refuse(rep, ST_SETUP, "getcwd: %s",
				      strerror(errno));
		goto out;
	}
	p.cwd = sandbox_plan_strdup(&p, cwd);
	home = getenv("HOME");
	p.home = home && home[0] == '/' ? sandbox_plan_canon(&p, home) : NULL;
	if (!p.home)
		p.home = home && home[0] == '/' ?
				 sandbox_plan_strdup(&p, home) :
				 "/";
	p.ops = arena_alloc(&p.arena, sizeof(p.ops[0]) * SANDBOX_MAX_MOUNTS);
	p.rw = arena_alloc(&p.arena, sizeof(p.rw[0]) * (SANDBOX_MAX_LIST + 33));
	if (!p.cwd || !p.home || !p.ops || !p.rw) {
		err = diag_set(diag, CORDON_E_NOMEM, 0, "out of memory");
		goto out;
	}
	if (p.backend != SANDBOX_BACKEND_BEST) {
		if (sandbox_plan_writable(&p, o->workspace ? o->workspace : cwd,
					  "workspace", false, &p.ws))
			goto refuse;
		for (size_t i = 0; i < o->nwrite; i++)
			if (sandbox_plan_writable(&p, o->write[i],
						  "writable root", false, NULL))
				goto refuse;
		if (o->cache_writes) {
			for (size_t i = 0;
			     i < sizeof(home_caches) / sizeof(home_caches[0]);
			     i++) {
				char *c = sandbox_plan_join(&p, p.home,
							    home_caches[i]);

				if (!c || sandbox_plan_writable(&p, c, "cache",
								true, NULL))
					goto refuse;
			}
		}
		if (sandbox_plan_add_rw(&p, "/tmp"))
			goto refuse;
	}
	if (p.backend == SANDBOX_BACKEND_NAMESPACES) {
		p.ph_fd = sandbox_placeholder_open(&p);
		if (sandbox_plan_mounts(&p))
			goto refuse;
	}
	if (p.backend != SANDBOX_BACKEND_BEST) {
		unsigned long long mem = (unsigned long long)o->memory_mb << 20;
		unsigned long pids = o->pids ? o->pids : SANDBOX_DEFAULT_PIDS;

		sandbox_cgroup_plan(&p, mem, pids);
		p.reaper = p.backend == SANDBOX_BACKEND_LANDLOCK &&
			   sandbox_reaper_available();
		sandbox_report_plan(&p, rep);
	} else {
		sandbox_report_lost(rep, "mode off: no sandbox");
		sandbox_report_deny_write(&p, rep, "mode off: no sandbox");
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
		sandbox_report_refuse(
			rep, ST_SETUP,
			"strict mode: enforcement would be %s: %s",
			rep->enforcement, list);
		goto out;
	}

	if (sandbox_netproxy_prepare(&p) != 0)
		goto refuse;
	p.envp = sandbox_netproxy_env(&p);
	if (!p.envp) {
		err = diag_set(diag, CORDON_E_NOMEM, 0, "out of memory");
		goto out;
	}
	if (open_pipe(&p.err_r, &p.err_w) != 0 ||
	    (p.backend != SANDBOX_BACKEND_BEST &&
	     open_pipe(&p.st_r, &p.st_w) != 0)) {
		sandbox_report_refuse(rep, ST_SETUP, "pipe: %s",
				      strerror(errno));
		goto out;
	}
	if (p.backend != SANDBOX_BACKEND_BEST) {
		int fds[2];

		/* A socket, so that writing to a child that died early is an
		 * EPIPE (MSG_NOSIGNAL), never a SIGPIPE for the caller. */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) !=
		    0) {
			sandbox_report_refuse(rep, ST_SETUP, "socketpair: %s",
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
			sandbox_report_refuse(rep, ST_SETUP, "socketpair: %s",
					      strerror(errno));
			goto out;
		}
		p.pxs_r = fds[0];
		p.pxs_w = fds[1];
	}
	if (o->argv_only || o->stdin_null) {
		p.null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (p.null_fd < 0) {
			sandbox_report_refuse(rep, ST_SETUP,
					      "open /dev/null: %s",
					      strerror(errno));
			goto out;
		}
	}
	if (o->output_cap || o->capture_out) {
		for (int i = 0; i < 2; i++) {
			if (open_pipe(&p.out_r[i], &p.out_w[i]) != 0) {
				sandbox_report_refuse(rep, ST_SETUP, "pipe: %s",
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
	pid = sandbox_clone(clone_flags(&p), &pidfd,
			    p.cg.v2 ? p.cg.lock_fd : -1);
	if (pid < 0 && p.backend == SANDBOX_BACKEND_NAMESPACES &&
	    o->backend == SANDBOX_BACKEND_BEST &&
	    o->mode != SANDBOX_MODE_STRICT &&
	    (errno == EPERM || errno == EINVAL || errno == ENOSPC ||
	     errno == EACCES)) {
		/* User namespaces refused after the probe said yes: the
		 * landlock backend, reported as such. */
		sandbox_report_init(rep);
		p.backend = SANDBOX_BACKEND_LANDLOCK;
		p.netns = false;
		p.nops = 0;
		p.reaper = sandbox_reaper_available();
		sandbox_report_plan(&p, rep);
		if (o->network == SANDBOX_NET_PROXY) {
			/* The proxy moves to the host's loopback. */
			if (p.pxs_w >= 0)
				close(p.pxs_w);
			p.pxs_w = -1;
			envfilter_free(p.envp);
			p.envp = NULL;
			if (sandbox_netproxy_prepare(&p) != 0) {
				sigprocmask(SIG_SETMASK, &p.oldmask, NULL);
				goto refuse;
			}
			p.envp = sandbox_netproxy_env(&p);
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
		sandbox_report_refuse(rep, ST_SETUP, "clone (%s backend): %s",
				      p.backend == SANDBOX_BACKEND_NAMESPACES ?
					      "namespaces" :
					      "landlock",
				      strerror(e));
		goto out;
	}
	if (pid == 0) {
		if (p.backend == SANDBOX_BACKEND_NAMESPACES)
			sandbox_reaper_pid1(&p);
		if (p.backend == SANDBOX_BACKEND_LANDLOCK)
			sandbox_child_landlock(&p);
		/* mode off */
		close(p.err_r);
		if (setsid() < 0)
			sandbox_child_die(&p, ST_SETUP, errno, "setsid");
		sandbox_child_pdeathsig(&p, false);
		sandbox_child_exec(&p, false);
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
	if (o->network == SANDBOX_NET_PROXY && sandbox_netproxy_start(&p) != 0)
		sandbox_reaper_kill_tree(&p, pid, pidfd, true);
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
		p.backend =
			SANDBOX_BACKEND_LANDLOCK; /* kill by process group */
	sandbox_reaper_wait(&p, pid, pidfd, rep, &wstatus, &got);
	sandbox_netproxy_end(&p);
	sigprocmask(SIG_SETMASK, &p.oldmask, NULL);
	sandbox_report_status(&p, rep, wstatus, got);
	if (p.proxy_diag[0])
		sandbox_report_refuse(rep, ST_SETUP, "%s", p.proxy_diag);
	close(pidfd);
	goto out;

refuse:
	sandbox_report_refuse(rep, ST_SETUP, "%s", p.error);
out:
	sandbox_netproxy_end(&p);
	if (p.pxs_r >= 0)
		close(p.pxs_r);
	if (p.pxs_w >= 0)
		close(p.pxs_w);
	sandbox_cgroup_release(&p.cg);
	sandbox_placeholder_cleanup(&p);
	plan_close(&p);
	envfilter_free(p.envp);
	arena_release(&p.arena);
	rep->duration_ms = (unsigned long)(sandbox_now_ms() - t0);
	return err;
}
