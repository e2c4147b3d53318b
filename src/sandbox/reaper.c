/* reaper — who waits for the command (sandbox_int.h).
 *
 * Namespaces backend: the child is PID 1 of the new PID namespace; it
 * sets up, forks the command, reaps and forwards signals; when the command
 * exits it kills and reaps every process left in the namespace, sends the
 * command's status and exits, and the parent takes the status as the
 * run's end and reaps PID 1 after its own work at the end. Landlock
 * backend: a sub-reaper forks the command and kills every descendant at
 * the end. The parent waits with the time-out, forwards SIGINT, SIGTERM
 * and SIGHUP, and pumps the output of an argv-only run under its cap.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#if defined(__SANITIZE_ADDRESS__)
#define INIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INIT_ASAN 1
#endif
#endif
#ifdef INIT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#include "sandbox_int.h"
#include "ttyfilter.h"

#include "alloc.h"
#include "banned.h"

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

/* The command has exited: every other process of the namespace is killed
 * and reaped, and only then does its wait status go to the parent, which
 * takes it as the run's confirmed end (nothing of the command runs or
 * writes any more) and sweeps and records while this process's exit takes
 * the namespaces down on the other core. kill(-1) from PID 1 reaches every
 * process of the namespace but itself, nested namespaces included, and
 * one forking under it either forks before (its child is killed too) or
 * fails; an orphan is re-parented to us (or to a sub-reaper inside, killed
 * in turn), so ECHILD means no process of the run is left. Without a
 * status (a write that failed) the parent waits for this process's end,
 * which the kernel makes the namespace's, and says the command's status
 * is unknown. PID 1 cannot die of the command's signal: the status goes
 * over the pipe. */
__attribute__((noreturn)) static void init_end(const struct sandbox_plan *p,
					       int st)
{
	for (;;) {
		pid_t r;

		(void)kill(-1, SIGKILL);
		r = waitpid(-1, NULL, 0);
		if (r < 0 && errno == ECHILD)
			break;
		if (r < 0 && errno != EINTR)
			_exit(ST_SETUP);
	}
	if (write(p->st_w, &st, sizeof(st)) != sizeof(st)) {
		/* No status: the parent says so. */
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

/* PID 1's loop: reap everything until the command exits. */
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
		if (r == cmd)
			init_end(p, st);
	}
}

/* AddressSanitizer keeps one record of the thread's stack, and the
 * command runs on another in the same memory: the switch there and back
 * is announced to it (sanitizer builds only). */
#ifdef INIT_ASAN
static const void *init_stack_bottom; /* PID 1's, noted by the command */
static size_t init_stack_size;
#endif

/* The command until its exec, in PID 1's memory on a stack of its own. */
static int init_cmd_main(void *arg)
{
	const struct sandbox_plan *p = arg;

#ifdef INIT_ASAN
	__sanitizer_finish_switch_fiber(NULL, &init_stack_bottom,
					&init_stack_size);
#endif
	(void)setpgid(0, 0);
	sandbox_pty_foreground(p, getpid());
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* No PR_SET_DUMPABLE here: dumpability belongs to the memory, which
	 * is PID 1's until the exec, and PID 1 stays non-dumpable; the exec
	 * gives the command's new memory its own (dumpable, unless the
	 * binary is unreadable or changes credentials). */
	close(p->st_w);
	sandbox_child_exec(p, true);
}

/* Starts the command as posix_spawn does: CLONE_VM | CLONE_VFORK, so no
 * copy of PID 1's page tables and no copy-on-write fault for each page
 * either touches before the exec (about forty fewer faults a run here),
 * PID 1 waiting until the command has exec'd or died. Until then the
 * command writes only its own stack, its seccomp buffer and environ,
 * none of which PID 1 reads; its descriptors, signal handlers,
 * credentials, Landlock domain, seccomp filter and rlimits are its own
 * (no CLONE_FILES, CLONE_SIGHAND or CLONE_THREAD). A raw clone: no
 * atfork handlers, no malloc (this process is a clone of a host that may
 * have other threads, and a lock one of them held is held here for
 * ever). The stack is the size of a main thread's, with a guard page. */
static pid_t init_start_cmd(const struct sandbox_plan *p)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const size_t size = SANDBOX_CMD_STACK + page;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	pid_t cmd;

	if (stack == MAP_FAILED || mprotect(stack, page, PROT_NONE) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "fork the command: its stack");
#ifdef INIT_ASAN
	void *fake = NULL;

	__sanitizer_start_switch_fiber(&fake, stack + page, SANDBOX_CMD_STACK);
#endif
	cmd = clone(init_cmd_main, stack + size,
		    CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)p);
	if (cmd < 0)
		sandbox_child_die(p, ST_SETUP, errno, "fork the command");
#ifdef INIT_ASAN
	__sanitizer_start_switch_fiber(NULL, init_stack_bottom,
				       init_stack_size);
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	(void)munmap(stack, size);
	return cmd;
}

__attribute__((noreturn)) void sandbox_reaper_pid1(struct sandbox_plan *p)
{
	struct sigaction sa;
	static const int fwd[] = { SIGINT,  SIGTERM, SIGHUP,
				   SIGQUIT, SIGUSR1, SIGUSR2 };
	pid_t cmd;

	sandbox_child_join_cgroup(p);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = init_forward;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++)
		sigaction(fwd[i], &sa, NULL);
	close(p->err_r);
	close(p->st_r);
	if (p->in_w >= 0)
		close(p->in_w);
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
		sandbox_child_die(p, ST_SETUP, errno, "setsid");
	sandbox_pty_child(p);
	sandbox_child_pdeathsig(p, true);
	sandbox_mountns_idmaps(p);
	sandbox_mountns_ucounts(p);
	p->old_umask = umask(0);
	sandbox_mountns_tree(p, p->ops);
	if (p->netns)
		sandbox_mountns_loopback(p);
	if (p->pxs_w >= 0)
		sandbox_netproxy_child_socket(p);
	if (chdir(p->cwd) != 0 && chdir(p->ws) != 0 && chdir("/") != 0)
		sandbox_child_die(p, ST_SETUP, errno, "chdir %s", p->cwd);
	sandbox_child_drop_caps(p);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

	sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
	cmd = init_start_cmd(p);
	(void)setpgid(cmd, cmd);
	sandbox_pty_foreground(p, cmd);
	if (p->pty_s >= 0)
		close(p->pty_s);
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
bool sandbox_reaper_available(void)
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
		ssize_t n = sandbox_read_small(path, buf, sizeof(buf));
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
__attribute__((noreturn)) void sandbox_reaper_run(struct sandbox_plan *p)
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
		sandbox_child_die(p, ST_SETUP, errno, "sub-reaper");
	if (prctl(PR_SET_PDEATHSIG, SIGALRM, 0, 0, 0) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "parent-death signal");
	if (getppid() != p->parent_pid)
		_exit(ST_SETUP);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	cmd = _Fork();
	if (cmd < 0)
		sandbox_child_die(p, ST_SETUP, errno, "fork the command");
	if (cmd == 0) {
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		close(p->st_w);
		sandbox_child_exec(p, true);
	}
	close(p->err_w);
	if (p->sync_r >= 0)
		close(p->sync_r);
	if (p->null_fd >= 0)
		close(p->null_fd);
	if (p->pty_s >= 0)
		close(p->pty_s);
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

/* Output of an argv-only run: copied up to the cap, then a note, then the
 * pipes are closed (the command sees EPIPE, as under `head -c`). */
struct sandbox_output {
	const struct sandbox_opts *o;
	int to[2]; /* the caller's fds (a terminal relayed: maybe fd 0) */
	size_t kept;
	bool truncated;
	char *buf; /* capture (C API) */
	size_t len, cap;
	struct ttyfilter tty; /* the pty master's output (ttyfilter.h) */
};

static void out_put(struct sandbox_output *out, int which, const char *s,
		    size_t n)
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
		ssize_t w = write(out->to[which], s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Reads one chunk from a pipe; false at EOF or when the cap closed it. */
static bool out_pump(struct sandbox_output *out, struct sandbox_plan *p,
		     int which)
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
	if (p->pty_on && which == p->pty_slot) {
		unsigned char keep[sizeof(buf) + TTYFILTER_HOLD];
		size_t k = ttyfilter_feed(&out->tty, (unsigned char *)buf,
					  (size_t)n, keep);

		out_put(out, which, (const char *)keep, k);
		return true;
	}
	out_put(out, which, buf, (size_t)n);
	return true;
}

/* The caller's stdin relayed into the command's (run_stdio in
 * sandbox.c): one chunk read when the last is written, written as far as
 * the pipe takes it (non-blocking; the parent holds the read end too, so a
 * command that stopped reading is EAGAIN, not SIGPIPE). EOF or an error
 * closes the relay (the command then reads EOF). */
struct sandbox_input {
	char buf[16384];
	size_t off, len;
};

static void in_pump(struct sandbox_input *in, struct sandbox_plan *p)
{
	ssize_t n;

	if (in->off == in->len) {
		n = read(0, in->buf, sizeof(in->buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		if (n <= 0)
			goto done;
		in->off = 0;
		in->len = (size_t)n;
	}
	n = write(p->in_w, in->buf + in->off, in->len - in->off);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n < 0)
		goto done;
	in->off += (size_t)n;
	return;
done:
	close(p->in_w);
	p->in_w = -1;
}

/* Kills the tree: PID 1 of the namespace; the landlock backend's reaper
 * is asked to (SIGALRM) while it lives, its process group is killed
 * once it is gone or when hard is set (it did not finish in time). */
void sandbox_reaper_kill_tree(struct sandbox_plan *p, pid_t pid, int pidfd,
			      bool hard)
{
	if (p->backend == SANDBOX_BACKEND_NAMESPACES)
		(void)syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	else if (p->reaper && !hard)
		(void)syscall(SYS_pidfd_send_signal, pidfd, SIGALRM, NULL, 0);
	else
		(void)kill(-pid, SIGKILL);
	sandbox_cgroup_kill(&p->cg);
}

/* Reaps the child once the run's end is confirmed (sandbox_reaper_wait):
 * after the parent's own work at the end, so that PID 1's exit (the mount,
 * PID and user namespaces' teardown) overlaps it; before the cgroup leaf
 * is let go, which then holds no process of this run. */
void sandbox_reaper_reap(int pidfd, bool *got)
{
	siginfo_t info;

	if (pidfd < 0 || *got)
		return;
	while (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED) != 0 &&
	       errno == EINTR)
		;
	*got = true;
}

/* SIGTSTP while a terminal is relayed: the caller's terminal as it was,
 * stopped, and on SIGCONT raw again with the size it has now. */
static void wait_stop(struct sandbox_plan *p)
{
	bool raw = p->pty_raw;

	sandbox_pty_restore(p);
	(void)kill(getpid(), SIGSTOP);
	if (raw)
		sandbox_pty_raw(p);
	sandbox_pty_winsize(p);
}

/* PID 1's status pipe (namespaces backend): true once the command's wait
 * status is read, PID 1 having killed and reaped the rest of the run
 * (init_end); *open goes false at EOF, PID 1 gone without one. */
static bool wait_status(struct sandbox_plan *p, bool *open)
{
	ssize_t n = read(p->st_r, &p->st_status, sizeof(p->st_status));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return false;
	/* A pipe writes the four bytes at once or not at all. */
	if (n == (ssize_t)sizeof(p->st_status)) {
		p->st_have = true;
		return true;
	}
	*open = false;
	return false;
}

/* Waits for the child: the time-out, forwarded signals, the output cap.
 * The namespaces backend's run ends when PID 1 reports the command's
 * status (PID 1 itself is reaped later, sandbox_reaper_reap) or when PID 1
 * is gone; the other backends' when the child is reaped (*got). */
void sandbox_reaper_wait(struct sandbox_plan *p, pid_t pid, int pidfd,
			 struct sandbox_report *rep, int *wstatus, bool *got)
{
	const struct sandbox_opts *o = p->o;
	unsigned long long start = sandbox_now_ms(), deadline = 0, hard = 0;
	unsigned long long owner_at = 0; /* when the owner's end ends the run */
	int owner = o->owner_pidfd > 2 ? o->owner_pidfd : -1;
	struct sandbox_output out = { .o = o,
				      .to = { p->out_to[0], p->out_to[1] } };
	struct sandbox_input in = { .off = 0 };
	sigset_t fwd;
	int sfd;
	bool exited = false;
	bool st_open = p->backend == SANDBOX_BACKEND_NAMESPACES && p->st_r >= 0;

	if (o->timeout_s)
		deadline = start + (unsigned long long)o->timeout_s * 1000ULL;
	sigemptyset(&fwd);
	sigaddset(&fwd, SIGINT);
	sigaddset(&fwd, SIGTERM);
	sigaddset(&fwd, SIGHUP);
	sandbox_pty_signals(p, &fwd);
	sfd = signalfd(-1, &fwd, SFD_CLOEXEC | SFD_NONBLOCK);

	while (!exited || p->out_r[0] >= 0 || p->out_r[1] >= 0) {
		struct pollfd pf[8];
		int nf = 0, timeout = -1, r;
		int idx_out[2] = { -1, -1 }, idx_sig = -1, idx_pid = -1;
		int idx_in = -1, idx_st = -1, idx_own = -1;
		unsigned long long next = 0;

		if (!exited) {
			idx_pid = nf;
			pf[nf++] = (struct pollfd){ .fd = pidfd,
						    .events = POLLIN };
			if (sfd >= 0) {
				idx_sig = nf;
				pf[nf++] = (struct pollfd){ .fd = sfd,
							    .events = POLLIN };
			}
			if (st_open) {
				idx_st = nf;
				pf[nf++] = (struct pollfd){ .fd = p->st_r,
							    .events = POLLIN };
			}
			if (owner >= 0 && !owner_at) {
				idx_own = nf;
				pf[nf++] = (struct pollfd){ .fd = owner,
							    .events = POLLIN };
			}
		}
		if (!exited && p->in_w >= 0) {
			idx_in = nf;
			pf[nf++] =
				in.off < in.len ?
					(struct pollfd){ .fd = p->in_w,
							 .events = POLLOUT } :
					(struct pollfd){ .fd = 0,
							 .events = POLLIN };
		}
		for (int i = 0; i < 2; i++) {
			if (p->out_r[i] < 0)
				continue;
			idx_out[i] = nf;
			pf[nf++] = (struct pollfd){ .fd = p->out_r[i],
						    .events = POLLIN };
		}
		if (!exited && deadline && !rep->timed_out)
			next = deadline;
		if (!exited && hard && (!next || hard < next))
			next = hard;
		if (!exited && owner_at && !p->owner_killed &&
		    (!next || owner_at < next))
			next = owner_at;
		if (next) {
			unsigned long long t = sandbox_now_ms();

			timeout = t >= next ? 0 : (int)(next - t);
		} else if (exited) {
			/* Leftovers holding the pipes were killed: a short
			 * grace for the last bytes. */
			timeout = 200;
		}
		r = poll(pf, (nfds_t)nf, timeout);
		if (r < 0 && errno == EINTR)
			continue;
		if (!exited && owner_at && !p->owner_killed &&
		    sandbox_now_ms() >= owner_at) {
			/* The owner went and the run did not end in its
			 * grace: ended as a time-out ends it (swept after). */
			p->owner_killed = true;
			sandbox_reaper_kill_tree(p, pid, pidfd, false);
			if (p->reaper)
				hard = sandbox_now_ms() + 2000;
			continue;
		}
		if (r == 0) {
			if (exited)
				break;
			if (hard && sandbox_now_ms() >= hard) {
				/* The reaper did not finish: by force. */
				sandbox_reaper_kill_tree(p, pid, pidfd, true);
				hard = 0;
				continue;
			}
			if (!deadline || rep->timed_out ||
			    sandbox_now_ms() < deadline)
				continue;
			rep->timed_out = true;
			sandbox_reaper_kill_tree(p, pid, pidfd, false);
			if (p->reaper)
				hard = sandbox_now_ms() + 2000;
			continue;
		}
		if (idx_own >= 0 && pf[idx_own].revents)
			owner_at = sandbox_now_ms() + o->owner_grace_ms;
		if (idx_in >= 0 && pf[idx_in].revents && p->in_w >= 0)
			in_pump(&in, p);
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
				if (si.ssi_signo == SIGWINCH) {
					sandbox_pty_winsize(p);
					continue;
				}
				if (si.ssi_signo == SIGTSTP) {
					wait_stop(p);
					continue;
				}
				if (p->backend == SANDBOX_BACKEND_NAMESPACES)
					(void)syscall(SYS_pidfd_send_signal,
						      pidfd, (int)si.ssi_signo,
						      NULL, 0);
				else
					(void)kill(-pid, (int)si.ssi_signo);
			}
		}
		if (idx_st >= 0 && pf[idx_st].revents &&
		    wait_status(p, &st_open)) {
			exited = true;
			continue;
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
				sandbox_reaper_kill_tree(p, pid, pidfd, true);
		}
	}
	if (sfd >= 0)
		close(sfd);
	if (p->in_w >= 0)
		close(p->in_w);
	p->in_w = -1;
	if (o->capture_out) {
		*o->capture_out = out.buf;
		if (o->capture_len)
			*o->capture_len = out.len;
	} else {
		free(out.buf);
	}
	rep->output_truncated = out.truncated;
}
