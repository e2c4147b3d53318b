/* pty — the terminal relay (sandbox_int.h).
 *
 * When fds 0-2 of the caller include a terminal, the command does not get
 * it: it gets the slave of a new pty as those fds and as its controlling
 * terminal, and the parent relays the master with the same pumps that
 * relay files (reaper.c). The caller's terminal is put in raw mode by the
 * parent (when stdin is the terminal) and restored on every way out of
 * the run; its window size is copied to the pty at the start and on
 * SIGWINCH. The command may then change its own terminal's mode (seccomp
 * allows the mode setters again, sandbox_pty_modes_allowed): the
 * caller's terminal stays out of reach (namespaces: a private devpts and
 * no descriptor of it; landlock: /dev/pts not writable and, ABI 5+, no
 * device ioctl on a terminal opened by path). The master's output passes
 * ttyfilter.h on its way (the clipboard, the terminal's reports).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <sys/ioctl.h>

#include "landlock.h"
#include "sandbox_int.h"

#include "banned.h"

/* Decides the relay for the fds run_stdio found to be the terminal
 * (stdio_tty[] filled): which fds get the slave, the output slot the
 * master's output takes and the caller's fd it is written to. Returns
 * false (stdio_tty[] kept: passed through) when the caller asked so, the
 * run captures its output, or no output slot is free. */
bool sandbox_pty_plan(struct sandbox_plan *p)
{
	const struct sandbox_opts *o = p->o;
	bool tty[3];
	int slot = -1, to = -1, host = -1;

	for (int fd = 0; fd < 3; fd++) {
		tty[fd] = p->stdio_tty[fd][0] != '\0';
		if (tty[fd] && host < 0)
			host = fd;
	}
	if (host < 0 || o->no_pty || o->argv_only || o->capture_out ||
	    o->output_cap)
		return false;
	if (tty[1]) {
		slot = 0;
		to = 1;
	} else if (tty[2]) {
		slot = 1;
		to = 2;
	} else if (!p->relay[1]) {
		slot = 0;
		to = 0;
	} else if (!p->relay[2]) {
		slot = 1;
		to = 0;
	} else {
		return false;
	}
	for (int fd = 0; fd < 3; fd++) {
		p->pty_fd[fd] = tty[fd];
		if (tty[fd] && !p->pty_name[0])
			(void)snprintf(p->pty_name, sizeof(p->pty_name), "%s",
				       p->stdio_tty[fd]);
		p->stdio_tty[fd][0] = '\0';
	}
	p->pty_on = true;
	p->pty_host = tty[0] ? 0 : host;
	p->pty_slot = slot;
	p->out_to[slot] = to;
	return true;
}

/* Opens the pty: the master for the parent (non-blocking, shared by the
 * input relay and the output slot), the slave for the child with the
 * caller's terminal's mode and size. Returns 0 or -1 with errno. */
int sandbox_pty_open(struct sandbox_plan *p)
{
	struct termios t;
	struct winsize ws;
	char name[64];
	int m, e;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return -1;
	if (grantpt(m) != 0 || unlockpt(m) != 0 ||
	    ptsname_r(m, name, sizeof(name)) != 0)
		goto fail;
	p->pty_s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->pty_s < 0)
		goto fail;
	if (tcgetattr(p->pty_host, &t) == 0)
		(void)tcsetattr(p->pty_s, TCSANOW, &t);
	if (ioctl(p->pty_host, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(p->pty_s, TIOCSWINSZ, &ws);
	if (fcntl(m, F_SETFL, O_NONBLOCK) != 0)
		goto fail;
	p->pty_m = m;
	p->out_r[p->pty_slot] = fcntl(m, F_DUPFD_CLOEXEC, 3);
	if (p->out_r[p->pty_slot] < 0)
		return -1;
	if (p->pty_fd[0]) {
		p->in_w = fcntl(m, F_DUPFD_CLOEXEC, 3);
		if (p->in_w < 0)
			return -1;
	}
	return 0;
fail:
	e = errno;
	close(m);
	errno = e;
	return -1;
}

/* The caller's terminal in raw mode (only when stdin is the terminal:
 * then every key, ^C and ^Z included, is the command's, and the pty's
 * line discipline makes the signals for the command's foreground group).
 * TCSADRAIN, here and in the restore: what was typed ahead is kept. */
void sandbox_pty_raw(struct sandbox_plan *p)
{
	struct termios t;

	if (!p->pty_on || !p->pty_fd[0] || p->pty_raw ||
	    tcgetattr(0, &p->pty_saved) != 0)
		return;
	t = p->pty_saved;
	cfmakeraw(&t);
	if (tcsetattr(0, TCSADRAIN, &t) == 0)
		p->pty_raw = true;
}

/* The caller's terminal as it was; idempotent (every way out calls it). */
void sandbox_pty_restore(struct sandbox_plan *p)
{
	if (!p->pty_raw)
		return;
	while (tcsetattr(0, TCSADRAIN, &p->pty_saved) != 0 && errno == EINTR)
		;
	p->pty_raw = false;
}

/* The caller's window size onto the pty (the kernel sends the command's
 * foreground group SIGWINCH when it changes). */
void sandbox_pty_winsize(const struct sandbox_plan *p)
{
	struct winsize ws;

	if (p->pty_on && p->pty_m >= 0 &&
	    ioctl(p->pty_host, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(p->pty_m, TIOCSWINSZ, &ws);
}

/* Child, a session leader (after setsid): the slave becomes its
 * controlling terminal, before any wall is up; the master is not its. */
void sandbox_pty_child(const struct sandbox_plan *p)
{
	if (!p->pty_on)
		return;
	if (p->pty_m >= 0)
		close(p->pty_m);
	if (ioctl(p->pty_s, TIOCSCTTY, 0) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "the pty as controlling terminal");
}

/* Makes pgrp the pty's foreground process group (PID 1 and the command
 * both ask, whichever runs first; SIGTTOU is ignored meanwhile). */
void sandbox_pty_foreground(const struct sandbox_plan *p, pid_t pgrp)
{
	struct sigaction sa, old;

	if (!p->pty_on)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTTOU, &sa, &old);
	(void)tcsetpgrp(p->pty_s, pgrp);
	sigaction(SIGTTOU, &old, NULL);
}

/* The signals the parent takes from its signalfd besides SIGINT, SIGTERM
 * and SIGHUP while it relays a terminal: the window size, a stop (the
 * caller's terminal is restored first) and SIGQUIT (forwarded, so cordon
 * does not die with the terminal raw). */
void sandbox_pty_signals(const struct sandbox_plan *p, sigset_t *set)
{
	if (!p->pty_on)
		return;
	sigaddset(set, SIGWINCH);
	sigaddset(set, SIGTSTP);
	sigaddset(set, SIGQUIT);
}

/* Whether the command may change its terminal's mode: only its terminal
 * is cordon's pty and the caller's cannot be reached. Namespaces: a
 * private devpts, and /proc shows no process of the host. Landlock: the
 * host's /dev/pts is not writable and (ABI 5+) a terminal opened there by
 * path gets no device ioctl; below ABI 5 the setters stay refused. */
bool sandbox_pty_modes_allowed(const struct sandbox_plan *p)
{
	if (!p->pty_on)
		return false;
	for (int fd = 0; fd < 3; fd++)
		if (p->stdio_tty[fd][0])
			return false;
	if (p->backend == SANDBOX_BACKEND_NAMESPACES)
		return true;
	return p->backend == SANDBOX_BACKEND_LANDLOCK && landlock_abi() >= 5;
}
