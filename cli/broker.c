/* broker — how a door hands its ASKs to the running console when
 * approvals.broker is on, and `cordon run`'s relay for the doors inside
 * its sandbox (the protocol is src/policy/broker.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "broker.h"
#include "buf.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "policy.h"
#include "runrelay.h"
#include "sandbox.h"
#include "text.h"
#include "unixmsg.h"

#include "banned.h"

static void broker_prompt(void *ud, const struct cordon_result *asked,
			  struct cordon_reply *reply)
{
	struct cli_broker *b = ud;
	struct broker_ask a = {
		.door = b->door,
		.asked = asked,
		.sandbox = b->sandbox,
		.timeout_ms = b->timeout_s * 1000u,
	};

	bool family = false;

	/* inside `cordon run` the console's socket is masked: its relay */
	reply->answer = b->relay_fd >= 0 ?
				broker_ask_relay(b->relay_fd, &a, &family,
						 b->why, sizeof(b->why)) :
				broker_ask(b->path, &a, &family, b->why,
					   sizeof(b->why));
	if (family)
		reply->amend_prefix =
			cordon_result_family(asked, &reply->amend_len);
	reply->by = reply->answer == POLICY_ANSWER_NOBODY ? b->why : "console";
}

int cli_broker_attach(struct cli_broker *b, struct cordon_policy *pol,
		      const struct cordon_config *cfg, const char *door,
		      const char *sandbox)
{
	memset(b, 0, sizeof(*b));
	if (!cfg->approvals_broker)
		return 0;
	b->door = door;
	b->sandbox = sandbox;
	b->timeout_s = cfg->approvals_timeout_s;
	b->relay_fd = unixmsg_env_fd(getenv(BROKER_RELAY_ENV));
	if (broker_path(BROKER_SOCKET_NAME, b->path, sizeof(b->path)) != 0)
		b->path[0] = '\0'; /* broker_ask: no console */
	cordon_policy_set_prompt(pol, broker_prompt, b);
	return 1;
}

int cli_random_hex(char *out, size_t nbytes)
{
	unsigned char r[32];

	if (nbytes > sizeof(r) || getrandom(r, nbytes, 0) != (ssize_t)nbytes)
		return -1;
	text_hex_encode(r, nbytes, out);
	return 0;
}

/* ---- the relay: `cordon run`'s side (src/policy/broker.h) -------------- */

/* One ask on its way: the console's connection and the door's answer
 * socket. */
struct relay_ask {
	int console, door;
	long deadline; /* monotonic ms: the console's, and a little more */
	size_t got;
	char ans[128];
};

struct cli_broker_relay {
	struct broker_relay_run run;
	char id[BROKER_RELAY_ID_LEN + 1];
	char *command; /* redacted */
	_Atomic int enforcement; /* 0 unknown, else 1 + enforcement_names */
	char sock[PATH_MAX]; /* the console's socket */
	struct cli_runrelay rr;
	void (*on_start)(const struct sandbox_report *rep, void *arg);
	void *on_start_arg;
	struct relay_ask asks[BROKER_RELAY_INFLIGHT];
	size_t nasks;
	uint64_t total, bytes, refused;
	char buf[BROKER_RELAY_MAX + 1];
};

static const char *const enforcement_names[] = { "full", "partial", "none" };

/* The run's enforcement, known just before the command starts; then the
 * caller's own on_start. */
static void relay_on_start(const struct sandbox_report *rep, void *arg)
{
	struct cli_broker_relay *r = arg;

	for (int i = 0; i < 3; i++)
		if (rep->enforcement &&
		    strcmp(rep->enforcement, enforcement_names[i]) == 0)
			r->enforcement = 1 + i;
	if (r->on_start)
		r->on_start(rep, r->on_start_arg);
}

static void relay_send(int fd, const char *text, size_t n)
{
	(void)send(fd, text, n, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* Refuses an ask: "refused: WHY" to the door, its socket closed. */
static void relay_refuse(struct cli_broker_relay *r, int door, const char *why)
{
	char line[320];
	int n = snprintf(line, sizeof(line), "refused: %s\n", why);

	if (n > 0)
		relay_send(door, line,
			   (size_t)n < sizeof(line) ? (size_t)n :
						      sizeof(line) - 1);
	close(door);
	r->refused++;
}

/* Hands a judged line to the console; the ask waits there. */
static void relay_forward(struct cli_broker_relay *r, int door,
			  const char *line, size_t len, unsigned timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { 5, 0 };
	char why[200];
	size_t off = 0;
	int c;

	if (strlen(r->sock) >= sizeof(sa.sun_path)) {
		relay_refuse(r, door,
			     "no console: the socket path does not "
			     "fit");
		return;
	}
	memcpy(sa.sun_path, r->sock, strlen(r->sock) + 1);
	c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* before connect too: a console whose backlog is full (hung) makes
	 * connect wait, and this thread serves every ask of the run */
	if (c >= 0)
		(void)setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (c < 0 || connect(c, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		(void)snprintf(why, sizeof(why),
			       "no console is running (cordon console): %s",
			       strerror(errno));
		if (c >= 0)
			close(c);
		relay_refuse(r, door, why);
		return;
	}
	while (off < len) {
		ssize_t w = send(c, line + off, len - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(c);
			relay_refuse(r, door,
				     "the console did not take the "
				     "call");
			return;
		}
		off += (size_t)w;
	}
	r->asks[r->nasks++] = (struct relay_ask){
		.console = c,
		.door = door,
		.deadline = unixmsg_mono_ms() + (long)timeout_ms + 1000,
	};
}

/* 1 when every holder of the relay's socket inside is gone (its hang-up;
 * a SEQPACKET read of 0 bytes is that or an empty message). */
static int relay_inside_gone(int fd)
{
	struct pollfd p = { .fd = fd };

	return poll(&p, 1, 0) > 0 &&
	       (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

/* Reads one message from inside, judges it and forwards it. 1 when one
 * was read, 0 when none was waiting, -1 when every holder inside is
 * gone. */
static int relay_take(struct cli_broker_relay *r)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = r->buf, .iov_len = sizeof(r->buf) };
	struct msghdr mh = { 0 };
	char why[200], *line = NULL;
	size_t len = 0;
	unsigned timeout_ms = 0;
	ssize_t n;
	int door;

	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	do
		n = recvmsg(r->rr.fds[0], &mh,
			    MSG_DONTWAIT | MSG_CMSG_CLOEXEC | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	unixmsg_take_fd(&mh, &door);
	if (door < 0) {
		/* the end: nothing read, every holder inside gone (a message
		 * of no bytes is one more refused, not the end) */
		if (n == 0 && mh.msg_controllen == 0 &&
		    relay_inside_gone(r->rr.fds[0]))
			return -1;
		/* nobody to answer: the door (if one) fails closed */
		r->refused++;
		return 1;
	}
	if (!unixmsg_is_seqpacket(door)) {
		/* a pipe, a file, a stream socket: nothing is written to
		 * it, it is not a door's */
		close(door);
		r->refused++;
		return 1;
	}
	if (mh.msg_flags & MSG_CTRUNC) {
		relay_refuse(r, door, "descriptors cut");
		return 1;
	}
	if (r->nasks == BROKER_RELAY_INFLIGHT) {
		relay_refuse(r, door,
			     "8 calls from inside the sandbox are already "
			     "waiting (BROKER_RELAY_INFLIGHT)");
		return 1;
	}
	if (r->total >= BROKER_RELAY_MAX_ASKS ||
	    r->bytes + (uint64_t)n > BROKER_RELAY_MAX_BYTES) {
		relay_refuse(r, door,
			     "the broker relay's ceiling for one run is "
			     "reached (BROKER_RELAY_MAX_ASKS, "
			     "BROKER_RELAY_MAX_BYTES)");
		return 1;
	}
	r->total++;
	r->bytes += (uint64_t)n;
	r->run.sandbox =
		r->enforcement ? enforcement_names[r->enforcement - 1] : NULL;
	if ((size_t)n > BROKER_RELAY_MAX || (mh.msg_flags & MSG_TRUNC))
		(void)broker_relay_judge(r->buf, BROKER_RELAY_MAX + 1, &r->run,
					 &line, &len, &timeout_ms, why,
					 sizeof(why));
	else if (broker_relay_judge(r->buf, (size_t)n, &r->run, &line, &len,
				    &timeout_ms, why,
				    sizeof(why)) == CORDON_OK) {
		relay_forward(r, door, line, len, timeout_ms);
		free(line);
		return 1;
	}
	relay_refuse(r, door, why);
	return 1;
}

/* The console's answer to ask i, when it has come: relayed rebuilt (never
 * a durable one), or the ask refused. 1 when the ask is done. */
static int relay_answer(struct cli_broker_relay *r, struct relay_ask *a)
{
	char line[96];
	ssize_t k;
	char *nl;
	bool family = false;
	int v;
	size_t n;

	do
		k = recv(a->console, a->ans + a->got,
			 sizeof(a->ans) - 1 - a->got, MSG_DONTWAIT);
	while (k < 0 && errno == EINTR);
	if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (k <= 0) {
		relay_refuse(r, a->door,
			     "the console went away before it answered");
		return 1;
	}
	a->got += (size_t)k;
	nl = memchr(a->ans, '\n', a->got);
	if (!nl && a->got < sizeof(a->ans) - 1)
		return 0;
	v = broker_parse_answer(a->ans, nl ? (size_t)(nl - a->ans) : a->got,
				&family);
	if (v == CORDON_ANSWER_ALLOW_ALWAYS || v == CORDON_ANSWER_DENY_ALWAYS)
		relay_refuse(r, a->door,
			     "a durable answer for a call from inside the "
			     "sandbox");
	else if (v < 0 ||
		 !(n = broker_answer_line(v, family, line, sizeof(line))))
		relay_refuse(r, a->door,
			     "the console's answer was not one of the "
			     "answers");
	else {
		relay_send(a->door, line, n);
		close(a->door);
	}
	return 1;
}

static void relay_drop(struct cli_broker_relay *r, size_t i)
{
	close(r->asks[i].console);
	r->asks[i] = r->asks[--r->nasks];
}

/* Serves the relay until told to stop; what still waits then is dropped
 * (its doors are gone with the run). */
static void *relay_thread(void *arg)
{
	struct cli_broker_relay *r = arg;
	struct pollfd pf[2 + 2 * BROKER_RELAY_INFLIGHT];
	bool inside = true;

	for (;;) {
		long now = unixmsg_mono_ms(), wait = -1;
		size_t na = r->nasks;
		int k;

		pf[0] = (struct pollfd){ .fd = inside ? r->rr.fds[0] : -1,
					 .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = r->rr.stop[0],
					 .events = POLLIN };
		for (size_t i = 0; i < na; i++) {
			long left = r->asks[i].deadline - now;

			pf[2 + 2 * i] =
				(struct pollfd){ .fd = r->asks[i].console,
						 .events = POLLIN };
			/* only its hang-up: the door went away */
			pf[3 + 2 * i] =
				(struct pollfd){ .fd = r->asks[i].door };
			if (wait < 0 || left < wait)
				wait = left < 0 ? 0 : left;
		}
		k = poll(pf, 2 + 2 * na, wait > INT_MAX ? INT_MAX : (int)wait);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 || pf[1].revents)
			break;
		now = unixmsg_mono_ms();
		/* from the last, so that a drop moves only seen ones */
		for (size_t i = na; i-- > 0;) {
			struct relay_ask *a = &r->asks[i];

			if (pf[2 + 2 * i].revents && relay_answer(r, a)) {
				relay_drop(r, i);
			} else if (pf[3 + 2 * i].revents) {
				close(a->door); /* the console sees it gone */
				relay_drop(r, i);
			} else if (a->deadline <= now) {
				char line[64];
				size_t n = broker_answer_line(
					CORDON_ANSWER_TIMED_OUT, false, line,
					sizeof(line));

				relay_send(a->door, line, n);
				close(a->door);
				relay_drop(r, i);
			}
		}
		/* bounded per wake-up, so a stop is seen between bursts */
		for (int i = 0; inside && i < 64 && (pf[0].revents & POLLIN);
		     i++) {
			int t = relay_take(r);

			if (t < 0)
				inside = false;
			if (t <= 0)
				break;
		}
		if (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			inside = false;
	}
	while (r->nasks) {
		close(r->asks[0].door);
		relay_drop(r, 0);
	}
	return NULL;
}

/* "cordon run -- ARGV", redacted, cut to BROKER_RELAY_COMMAND_MAX bytes
 * (malloc'd; NULL when out of memory). */
static char *relay_command(char *const *argv)
{
	struct buf b = BUF_INIT(BROKER_RELAY_COMMAND_MAX);
	char *text, *out = NULL;
	size_t n = 0, m = 0;

	if (!buf_add(&b, "cordon run --", 13)) {
		buf_free(&b);
		return NULL;
	}
	for (size_t i = 0; argv && argv[i]; i++)
		if (!buf_add(&b, " ", 1) ||
		    !buf_add(&b, argv[i], strlen(argv[i])))
			break; /* at the ceiling: the rest is cut */
	text = buf_take(&b, &n);
	if (!text)
		return NULL;
	if (cordon_redact(text, n, &out, &m, NULL) != CORDON_OK)
		out = NULL;
	free(text);
	if (out && m > BROKER_RELAY_COMMAND_MAX)
		out[BROKER_RELAY_COMMAND_MAX] = '\0';
	return out;
}

/* Frees r (its relay closed, or never opened). */
static void relay_free(struct cli_broker_relay *r)
{
	cordon_verdict_free(r->run.verdict);
	cordon_classifier_free(r->run.cls);
	free(r->command);
	free(r);
}

int cli_broker_relay_start(const struct cordon_config *cfg,
			   struct sandbox_opts *o, char *const *argv,
			   struct cli_broker_relay **out)
{
	static const char what[] = "cordon run: broker relay";
	struct cli_broker_relay *r;

	*out = NULL;
	if (!cfg->approvals_broker)
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->command = relay_command(argv))) {
		fprintf(stderr, "%s: out of memory\n", what);
		free(r);
		return -1;
	}
	if (cli_random_hex(r->id, BROKER_RELAY_ID_LEN / 2) != 0) {
		fprintf(stderr, "%s: getrandom failed\n", what);
		relay_free(r);
		return -1;
	}
	r->run.id = r->id;
	r->run.command = r->command;
	r->run.max_timeout_ms = cfg->approvals_timeout_s * 1000u;
	r->run.cls = cordon_classifier_new(NULL);
	r->run.verdict = cordon_verdict_new();
	if (!r->run.cls || !r->run.verdict) {
		fprintf(stderr, "%s: out of memory\n", what);
		relay_free(r);
		return -1;
	}
	if (broker_path(BROKER_SOCKET_NAME, r->sock, sizeof(r->sock)) != 0)
		r->sock[0] = '\0'; /* every ask: no console */
	if (cli_runrelay_open(&r->rr, what, BROKER_RELAY_ENV, o, 0) != 0 ||
	    cli_runrelay_start(&r->rr, what, relay_thread, r, o,
			       SANDBOX_PASS_BROKER) != 0) {
		cli_runrelay_close(&r->rr);
		relay_free(r);
		return -1;
	}
	r->on_start = o->on_start;
	r->on_start_arg = o->on_start_arg;
	o->on_start = relay_on_start;
	o->on_start_arg = r;
	*out = r;
	return 0;
}

int cli_broker_relay_run(struct cli_broker_relay *r)
{
	return r ? cli_runrelay_run(&r->rr, "cordon run: broker relay") : 0;
}

void cli_broker_relay_stop(struct cli_broker_relay *r, struct sandbox_opts *o)
{
	if (!r)
		return;
	cli_runrelay_stop(&r->rr, o, SANDBOX_PASS_BROKER);
	if (r->refused)
		fprintf(stderr,
			"cordon run: broker relay: %llu ask(s) from inside "
			"the sandbox refused (denied at no_prompt)\n",
			(unsigned long long)r->refused);
	if (o) {
		o->on_start = r->on_start;
		o->on_start_arg = r->on_start_arg;
	}
	cli_runrelay_close(&r->rr);
	relay_free(r);
}
