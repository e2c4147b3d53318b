/* prompt — see prompt.h. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "prompt.h"
#include "text.h"
#include "banned.h"

/* Display caps: what the agent controls is shown, but never a screenful. */
#define PR_ARGS_MAX 2000
#define PR_FIELD_MAX 400
/* One answer line; anything longer is not an answer. */
#define PR_LINE_MAX 128
/* Writes go out in pieces no larger than a pipe guarantees to take at once
 * after poll() says writable, so a write never blocks past the deadline. */
#define PR_WRITE_CHUNK 512

struct outbuf {
	char s[8192];
	size_t n;
};

static void ob_put(struct outbuf *o, const char *s, size_t n)
{
	if (n > sizeof(o->s) - o->n)
		n = sizeof(o->s) - o->n;
	memcpy(o->s + o->n, s, n);
	o->n += n;
}

static void ob_str(struct outbuf *o, const char *s)
{
	ob_put(o, s, strlen(s));
}

/* Code points a terminal acts on or that reorder what is shown: C1
 * controls (0x9b is CSI on some terminals) and the bidirectional
 * overrides and isolates (a command that reads differently than it runs). */
static bool cp_is_control(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e ||
	       c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

/* Appends s with every control byte, invalid UTF-8 byte and control code
 * point shown as '?', at most max input bytes, then "… (N more bytes)". */
static void ob_clean(struct outbuf *o, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n && i < max) {
		uint32_t cp = 0;
		size_t k;
		if (u[i] >= 0x20 && u[i] < 0x7f) {
			ob_put(o, s + i, 1);
			i++;
			continue;
		}
		k = u[i] >= 0x80 ? text_utf8_decode(u + i, n - i, &cp) : 0;
		if (k > 0 && i + k > max)
			break;
		if (k == 0 || cp_is_control(cp)) {
			ob_put(o, "?", 1);
			i += k ? k : 1;
			continue;
		}
		ob_put(o, s + i, k);
		i += k;
	}
	if (i < n) {
		char more[64];
		snprintf(more, sizeof(more), "\xe2\x80\xa6 (%zu more bytes)",
			 n - i);
		ob_str(o, more);
	}
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining(int64_t deadline)
{
	int64_t r = deadline - now_ms();

	if (r <= 0)
		return 0;
	return r > INT32_MAX ? INT32_MAX : (int)r;
}

enum io_res {
	IO_OK,
	IO_TIMEOUT,
	IO_FAIL,
};

/* Writes all of s to fd before the deadline; with best_effort (after the
 * deadline) it only writes what fd takes at once. SIGPIPE is blocked around
 * the write and a SIGPIPE it raised is consumed, so a closed terminal or
 * pipe is an error here, not the death of the host program. */
static enum io_res write_deadline(int fd, const char *s, size_t n,
				  int64_t deadline, bool best_effort)
{
	sigset_t pipe_set, old, pending;
	bool was_pending;
	enum io_res res = IO_OK;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE) == 1;
	while (n > 0) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int ms = remaining(deadline);
		/* Checked here, not only by poll(): a peer that is always
		 * ready must not keep the prompt going past its deadline. */
		if (ms == 0 && !best_effort) {
			res = IO_TIMEOUT;
			break;
		}
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (r > 0 && (p.revents & (POLLERR | POLLNVAL)))) {
			res = IO_FAIL;
			break;
		}
		if (r == 0) {
			res = IO_TIMEOUT;
			break;
		}
		ssize_t k =
			write(fd, s, n < PR_WRITE_CHUNK ? n : PR_WRITE_CHUNK);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0) {
			res = IO_FAIL;
			break;
		}
		s += k;
		n -= (size_t)k;
	}
	if (!was_pending) {
		const struct timespec zero = { 0, 0 };
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE) == 1)
			(void)sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return res;
}

enum line_res {
	LINE_OK,
	LINE_TOO_LONG,
	LINE_EOF,
	LINE_TIMEOUT,
	LINE_FAIL,
};

/* Reads one line from fd, a byte at a time so nothing after the answer is
 * consumed, waiting for each byte no longer than the deadline. A line over
 * cap - 1 bytes is read to its end and reported as too long. */
static enum line_res read_line(int fd, char *buf, size_t cap, int64_t deadline)
{
	size_t n = 0;
	bool too_long = false;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char c;
		int ms = remaining(deadline);
		/* An input that never runs dry (yes | …) must not keep the
		 * prompt reading past its deadline. */
		if (ms == 0)
			return LINE_TIMEOUT;
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (r > 0 && (p.revents & POLLNVAL)))
			return LINE_FAIL;
		if (r == 0)
			return LINE_TIMEOUT;
		ssize_t k = read(fd, &c, 1);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			return LINE_FAIL;
		if (k == 0)
			return LINE_EOF;
		if (c == '\n')
			break;
		if (n + 1 < cap)
			buf[n++] = c;
		else
			too_long = true;
	}
	buf[n] = '\0';
	return too_long ? LINE_TOO_LONG : LINE_OK;
}

/* The answer a line names, or -1; *exact: the answer asks for the exact
 * command only. Case and surrounding blanks ignored. */
static int parse_answer(const char *line, bool *exact)
{
	static const struct {
		const char *word;
		enum cordon_answer a;
		bool exact;
	} words[] = {
		{ "y", CORDON_ANSWER_ALLOW_ONCE, false },
		{ "yes", CORDON_ANSWER_ALLOW_ONCE, false },
		{ "n", CORDON_ANSWER_DENY_ONCE, false },
		{ "no", CORDON_ANSWER_DENY_ONCE, false },
		{ "s", CORDON_ANSWER_ALLOW_SESSION, false },
		{ "session", CORDON_ANSWER_ALLOW_SESSION, false },
		{ "a", CORDON_ANSWER_ALLOW_ALWAYS, false },
		{ "always", CORDON_ANSWER_ALLOW_ALWAYS, false },
		{ "e", CORDON_ANSWER_ALLOW_SESSION, true },
		{ "exact", CORDON_ANSWER_ALLOW_SESSION, true },
		{ "ea", CORDON_ANSWER_ALLOW_ALWAYS, true },
		{ "exact always", CORDON_ANSWER_ALLOW_ALWAYS, true },
		{ "d", CORDON_ANSWER_DENY_ALWAYS, false },
		{ "never", CORDON_ANSWER_DENY_ALWAYS, false },
		{ "q", CORDON_ANSWER_ABORT, false },
		{ "abort", CORDON_ANSWER_ABORT, false },
	};
	size_t b = 0, e = strlen(line);

	while (b < e && (line[b] == ' ' || line[b] == '\t'))
		b++;
	while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t' ||
			 line[e - 1] == '\r'))
		e--;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (strlen(words[i].word) == e - b &&
		    strncasecmp(words[i].word, line + b, e - b) == 0) {
			*exact = words[i].exact;
			return (int)words[i].a;
		}
	return -1;
}

/* Appends a family word, in single quotes when it holds anything but
 * the characters a shell word needs none for. */
static void ob_word(struct outbuf *o, const char *w)
{
	bool plain = w[0] != '\0';

	for (const char *c = w; *c && plain; c++)
		plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || strchr("._/:=@%+,-", *c);
	if (!plain)
		ob_str(o, "'");
	ob_clean(o, w, PR_FIELD_MAX);
	if (!plain)
		ob_str(o, "'");
}

/* What a session or always grant covers, for shell commands. */
static void describe_grant(struct outbuf *o, const struct prompt_info *info)
{
	if (!info->family || info->family_len == 0) {
		if (info->kind && strcmp(info->kind, "execute") == 0)
			ob_str(o, "  [s]ession and [a]lways cover this exact "
				  "command only\n");
		return;
	}
	ob_str(o, "  [s]ession and [a]lways cover `");
	for (size_t i = 0; i < info->family_len; i++) {
		if (i)
			ob_str(o, " ");
		ob_word(o, info->family[i]);
	}
	ob_str(o, " \xe2\x80\xa6` (commands starting with these words; "
		  "destructive ones still ask);\n  [e]xact and [ea] exact "
		  "always cover this exact command only\n");
}

static void describe(struct outbuf *o, const struct prompt_info *info)
{
	ob_str(o, "\ncordon: the agent wants to call ");
	ob_clean(o, info->tool ? info->tool : "(unnamed tool)", PR_FIELD_MAX);
	if (info->kind) {
		ob_str(o, " (");
		ob_clean(o, info->kind, PR_FIELD_MAX);
		ob_str(o, ")");
	}
	ob_str(o, "\n  arguments: ");
	ob_clean(o, info->args_json ? info->args_json : "{}", PR_ARGS_MAX);
	if (info->risk) {
		ob_str(o, "\n  risk: ");
		ob_clean(o, info->risk, PR_FIELD_MAX);
	}
	if (info->labels && info->labels[0]) {
		ob_str(o, "\n  labels: ");
		ob_clean(o, info->labels, PR_FIELD_MAX);
	}
	if (info->reason && info->reason[0]) {
		ob_str(o, "\n  why it asks: ");
		ob_clean(o, info->reason, PR_FIELD_MAX);
	}
	ob_str(o, "\n");
	describe_grant(o, info);
}

static const char question[] =
	"Allow? [y]es once, [n]o, [s]ession, [a]lways, [d] never, "
	"[q] abort: ";
static const char question_family[] =
	"Allow? [y]es once, [n]o, [s]ession, [a]lways, [e]xact session, "
	"[ea] exact always, [d] never, [q] abort: ";

enum cordon_answer prompt_ask(int in_fd, int out_fd,
			      const struct prompt_info *info,
			      unsigned timeout_ms, bool *family)
{
	bool has_family = info && info->family && info->family_len > 0;

	struct outbuf o;
	char line[PR_LINE_MAX];
	int64_t deadline = now_ms() + (int64_t)timeout_ms;
	enum io_res w;

	/* poll() ignores negative descriptors: it would wait out the
	 * deadline instead of failing. */
	if (family)
		*family = false;
	if (in_fd < 0 || out_fd < 0)
		return CORDON_ANSWER_DENY_ONCE;
	o.n = 0;
	if (info)
		describe(&o, info);
	ob_str(&o, has_family ? question_family : question);
	w = write_deadline(out_fd, o.s, o.n, deadline, false);
	if (w == IO_TIMEOUT)
		return CORDON_ANSWER_TIMED_OUT;
	if (w != IO_OK)
		return CORDON_ANSWER_DENY_ONCE;
	for (;;) {
		static const char again[] =
			"Please answer y, n, s, a, d or q: ";
		static const char again_family[] =
			"Please answer y, n, s, a, e, ea, d or q: ";
		static const char late[] = "\n(no answer in time: denied)\n";
		bool exact = false;
		int a;

		switch (read_line(in_fd, line, sizeof(line), deadline)) {
		case LINE_OK:
			a = parse_answer(line, &exact);
			if (a < 0)
				break;
			if (family && has_family && !exact &&
			    (a == CORDON_ANSWER_ALLOW_SESSION ||
			     a == CORDON_ANSWER_ALLOW_ALWAYS))
				*family = true;
			return (enum cordon_answer)a;
		case LINE_TOO_LONG:
			break;
		case LINE_TIMEOUT:
			/* Best effort: the user learns why nothing happened. */
			write_deadline(out_fd, late, sizeof(late) - 1, now_ms(),
				       true);
			return CORDON_ANSWER_TIMED_OUT;
		case LINE_EOF:
		case LINE_FAIL:
			return CORDON_ANSWER_DENY_ONCE;
		}
		w = has_family ?
			    write_deadline(out_fd, again_family,
					   sizeof(again_family) - 1, deadline,
					   false) :
			    write_deadline(out_fd, again, sizeof(again) - 1,
					   deadline, false);
		if (w == IO_TIMEOUT)
			return CORDON_ANSWER_TIMED_OUT;
		if (w != IO_OK)
			return CORDON_ANSWER_DENY_ONCE;
	}
}
