/* runrelay — the plumbing `cordon run`'s relays for the doors inside its
 * sandbox share (the audit relay, cli/auditlog.c; the broker relay,
 * cli/broker.c): a SOCK_SEQPACKET socketpair whose one end the command
 * inherits above its stdio, named by NAME=N in its environment (past the
 * filters, in sandbox_opts.extra_env), a stop pipe, and a serving thread
 * that takes no signal (thread_nosig, src/base/thread.h).
 */
#ifndef CORDON_CLI_RUNRELAY_H
#define CORDON_CLI_RUNRELAY_H

#include <pthread.h>
#include <stddef.h>

struct sandbox_opts;

struct cli_runrelay {
	int fds[2]; /* [0] cordon's end, [1] the command's */
	int stop[2]; /* a byte on [1]: the thread stops */
	char env[48]; /* NAME=N */
	/* o->extra_env, then env, then `more` NULL slots from extra[next] */
	char **extra;
	size_t next;
	char *const *orig; /* the caller's extra_env */
	void *(*fn)(void *); /* the serving thread, started by _run() */
	void *arg;
	pthread_t th;
	int started; /* the thread runs */
};

/* Opens rr for a relay named by the variable env_name: the socketpair, the
 * stop pipe, extra. 0, or -1 after saying why on stderr ("WHAT: …"); then
 * cli_runrelay_close() frees what was made. */
int cli_runrelay_open(struct cli_runrelay *rr, const char *what,
		      const char *env_name, const struct sandbox_opts *o,
		      size_t more);

/* Hands o the command's end (in pass_fds[slot]) and extra, and notes
 * fn(arg), the serving thread that cli_runrelay_run() starts once the
 * sandbox's child is cloned (its creation then overlaps the child's
 * set-up; until it runs, what the doors send waits in the socket). 0. */
int cli_runrelay_start(struct cli_runrelay *rr, const char *what,
		       void *(*fn)(void *), void *arg, struct sandbox_opts *o,
		       int slot);

/* Starts the thread with every signal blocked. The run's parent blocks
 * SIGINT/TERM/HUP (and the pty's) to read them from a signalfd and
 * forward them; a thread that left them open would take them instead and
 * die by their default action, the caller's terminal left raw. 0 (also
 * when it runs already), or -1 after saying why on stderr: then the
 * command must not run (sandbox_opts.before_exec). */
int cli_runrelay_run(struct cli_runrelay *rr, const char *what);

/* Tells the thread to stop, waits for it (when it was started), and puts
 * o (may be NULL) back. */
void cli_runrelay_stop(struct cli_runrelay *rr, struct sandbox_opts *o,
		       int slot);

/* Closes and frees what cli_runrelay_open() made. */
void cli_runrelay_close(struct cli_runrelay *rr);

#endif
