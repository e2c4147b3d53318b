/* runrelay — the socketpair, stop pipe and thread of `cordon run`'s
 * relays (runrelay.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>

#include "runrelay.h"
#include "sandbox.h"
#include "thread.h"

#include "banned.h"

int cli_runrelay_open(struct cli_runrelay *rr, const char *what,
		      const char *env_name, const struct sandbox_opts *o,
		      size_t more)
{
	size_t n = 0;

	memset(rr, 0, sizeof(*rr));
	rr->fds[0] = rr->fds[1] = rr->stop[0] = rr->stop[1] = -1;
	while (o->extra_env && o->extra_env[n])
		n++;
	rr->extra = calloc(n + 2 + more, sizeof(char *));
	if (!rr->extra) {
		fprintf(stderr, "%s: out of memory\n", what);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, rr->fds) !=
		    0 ||
	    pipe2(rr->stop, O_CLOEXEC) != 0) {
		fprintf(stderr, "%s: %s\n", what, strerror(errno));
		return -1;
	}
	/* fd 0-2 are the command's stdio, never the relay */
	if (rr->fds[1] <= 2) {
		int d = fcntl(rr->fds[1], F_DUPFD_CLOEXEC, 3);

		if (d < 0) {
			fprintf(stderr, "%s: %s\n", what, strerror(errno));
			return -1;
		}
		close(rr->fds[1]);
		rr->fds[1] = d;
	}
	(void)snprintf(rr->env, sizeof(rr->env), "%s=%d", env_name, rr->fds[1]);
	if (n)
		memcpy(rr->extra, o->extra_env, n * sizeof(char *));
	rr->extra[n] = rr->env;
	rr->next = n + 1;
	return 0;
}

int cli_runrelay_start(struct cli_runrelay *rr, const char *what,
		       void *(*fn)(void *), void *arg, struct sandbox_opts *o,
		       int slot)
{
	(void)what;
	rr->fn = fn;
	rr->arg = arg;
	rr->orig = o->extra_env;
	o->extra_env = rr->extra;
	o->pass_fds[slot] = rr->fds[1];
	return 0;
}

int cli_runrelay_run(struct cli_runrelay *rr, const char *what)
{
	if (rr->started)
		return 0;
	if (!rr->fn || thread_nosig(&rr->th, false, rr->fn, rr->arg) != 0) {
		fprintf(stderr, "%s: no thread\n", what);
		return -1;
	}
	rr->started = 1;
	return 0;
}

void cli_runrelay_stop(struct cli_runrelay *rr, struct sandbox_opts *o,
		       int slot)
{
	ssize_t k;

	if (rr->started) {
		do
			k = write(rr->stop[1], "x", 1);
		while (k < 0 && errno == EINTR);
		pthread_join(rr->th, NULL);
		rr->started = 0;
	}
	if (o) {
		o->extra_env = rr->orig;
		o->pass_fds[slot] = 0;
	}
}

void cli_runrelay_close(struct cli_runrelay *rr)
{
	for (int i = 0; i < 2; i++) {
		if (rr->fds[i] >= 0)
			close(rr->fds[i]);
		if (rr->stop[i] >= 0)
			close(rr->stop[i]);
	}
	free(rr->extra);
	rr->extra = NULL;
}
