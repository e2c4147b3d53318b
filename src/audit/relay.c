/* relay — a sandboxed door's records through the run outside (relay.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "diag.h"
#include "relay.h"
#include "sha256.h"
#include "text.h"
#include "unixmsg.h"

#include "alloc.h"
#include "banned.h"

/* The members the log writes itself, which no record may bring. */
static const char *const owned_members[] = {
	"v", "seq", "time", "host", "pid", "event", "hmac", "prev", "hash",
};

/* Event names a door inside may not use: the log's own. ("nested" and
 * "nested_refused" pass: a `cordon run` inside a sandbox relays its own
 * doors' records, and the wrapping record says whose they are.) */
static const char *const owned_events[] = {
	"recovered",
	"rotated",
};

int audit_relay_env_fd(const char *value)
{
	return unixmsg_env_fd(value);
}

int audit_relay_env_path(const char *value)
{
	return unixmsg_env_path(value);
}

/* ---- the door's side ----------------------------------------------------- */

static enum cordon_err send_msg(int fd, const char *msg, size_t len, int pass,
				struct cordon_diag *diag)
{
	int e = unixmsg_send(fd, msg, len, pass);

	if (e)
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit relay: cannot reach the cordon run "
				  "outside the sandbox: %s",
				  strerror(e));
	return CORDON_OK;
}

static enum cordon_err wait_answer(int fd, struct cordon_diag *diag)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	char ans[256], q[TEXT_QUOTE_CAP];
	ssize_t n;
	int k;

	do
		k = poll(&pf, 1, AUDIT_RELAY_ACK_MS);
	while (k < 0 && errno == EINTR);
	if (k == 0)
		return diag_errno(diag, CORDON_E_IO, ETIMEDOUT,
				  "audit relay: no answer from the cordon run "
				  "outside the sandbox in %d s",
				  AUDIT_RELAY_ACK_MS / 1000);
	do
		n = recv(fd, ans, sizeof(ans) - 1, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (k < 0 || n <= 0)
		return diag_errno(diag, CORDON_E_IO, n < 0 ? errno : EPIPE,
				  "audit relay: the cordon run outside the "
				  "sandbox did not answer");
	if (n == 2 && memcmp(ans, "ok", 2) == 0)
		return CORDON_OK;
	return diag_errno(diag, CORDON_E_IO, 0,
			  "audit relay: the cordon run outside the sandbox "
			  "did not record it: %s",
			  text_quote(ans, (size_t)n, q));
}

static enum cordon_err connect_path(const char *path, int *out,
				    struct cordon_diag *diag)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = path ? strlen(path) : 0;
	int s, e;

	*out = -1;
	if (n == 0 || n >= sizeof(sa.sun_path))
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit relay: no socket path");
	memcpy(sa.sun_path, path, n + 1);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		e = errno;
		if (s >= 0)
			close(s);
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit relay: cannot reach the cordon run "
				  "outside the sandbox: %s",
				  strerror(e));
	}
	*out = s;
	return CORDON_OK;
}

enum cordon_err audit_relay_send(int fd, const char *path, const char *event,
				 const char *fields, size_t flen,
				 struct cordon_diag *diag)
{
	size_t el = strlen(event), len;
	char *msg;
	int sp[2];
	enum cordon_err rc;

	/* {"event":"E","f…"} ; the event name is checked by the caller */
	if (flen > AUDIT_RELAY_MAX || el > 64 ||
	    (len = 11 + el + (flen ? 1 + flen : 0) + 1) > AUDIT_RELAY_MAX)
		return diag_errno(diag, CORDON_E_LIMIT, 0,
				  "audit relay: the record is over the "
				  "relay's %zu KiB limit (AUDIT_RELAY_MAX)",
				  AUDIT_RELAY_MAX / 1024);
	msg = cordon__malloc(len + 1);
	if (!msg)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit relay: out of memory");
	(void)snprintf(msg, len + 1, "{\"event\":\"%s\"%s", event,
		       flen ? "," : "");
	memcpy(msg + 11 + el + (flen ? 1 : 0), fields, flen);
	msg[len - 1] = '}';
	msg[len] = '\0';
	if (fd < 0) {
		/* the path: one connection per record, answered on it */
		rc = connect_path(path, &sp[0], diag);
		if (rc == CORDON_OK)
			rc = send_msg(sp[0], msg, len, -1, diag);
		free(msg);
		if (rc == CORDON_OK)
			rc = wait_answer(sp[0], diag);
		if (sp[0] >= 0)
			close(sp[0]);
		return rc;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0) {
		int e = errno;

		free(msg);
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit relay: socketpair: %s", strerror(e));
	}
	rc = send_msg(fd, msg, len, sp[1], diag);
	close(sp[1]);
	free(msg);
	if (rc == CORDON_OK)
		rc = wait_answer(sp[0], diag);
	close(sp[0]);
	return rc;
}

/* ---- judging a message --------------------------------------------------- */

static bool in_list(const char *s, const char *const *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, l[i]) == 0)
			return true;
	return false;
}

static bool event_name_ok(const char *e)
{
	size_t n = strlen(e);

	return n >= 1 && n <= 31 &&
	       strspn(e, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

/* A member name twice in any object of the tree. */
static bool has_duplicate(const cJSON *v)
{
	for (const cJSON *c = v ? v->child : NULL; c; c = c->next) {
		if (cJSON_IsObject(v) && c->string)
			for (const cJSON *d = c->next; d; d = d->next)
				if (d->string &&
				    strcmp(c->string, d->string) == 0)
					return true;
		if (has_duplicate(c))
			return true;
	}
	return false;
}

static enum cordon_err refuse(char *why, size_t cap, enum cordon_err rc,
			      const char *msg)
{
	(void)snprintf(why, cap, "%s", msg);
	return rc;
}

enum cordon_err audit_relay_judge(const char *msg, size_t len, char **out,
				  char *why, size_t why_cap)
{
	cJSON *o, *ev, *inner, *rec = NULL;
	const char *end = NULL;
	enum cordon_err rc = CORDON_OK;

	*out = NULL;
	if (len == 0)
		return refuse(why, why_cap, CORDON_E_PARSE, "empty");
	if (len > AUDIT_RELAY_MAX)
		return refuse(why, why_cap, CORDON_E_LIMIT,
			      "over the relay's limit (AUDIT_RELAY_MAX)");
	if (!text_utf8_valid(msg, len, false))
		return refuse(why, why_cap, CORDON_E_PARSE, "not UTF-8 text");
	o = cJSON_ParseWithLengthOpts(msg, len, &end, false);
	if (!o) {
		/* cJSON says nothing of why: out of memory is not a syntax
		 * error (a memory that came back gets a second parse) */
		void *probe = cordon__malloc(len + 1024);

		if (!probe) {
			(void)snprintf(why, why_cap, "out of memory");
			return CORDON_E_NOMEM;
		}
		free(probe);
		o = cJSON_ParseWithLengthOpts(msg, len, &end, false);
	}
	while (o && end && end < msg + len &&
	       (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	if (o && end && (size_t)(end - msg) != len) {
		cJSON_Delete(o);
		o = NULL;
	}
	if (!o)
		return refuse(why, why_cap, CORDON_E_PARSE,
			      "not one JSON value");
	if (!cJSON_IsObject(o)) {
		rc = refuse(why, why_cap, CORDON_E_PARSE, "not a JSON object");
		goto out;
	}
	if (has_duplicate(o)) {
		rc = refuse(why, why_cap, CORDON_E_INVAL,
			    "a member name appears twice");
		goto out;
	}
	ev = cJSON_DetachItemFromObjectCaseSensitive(o, "event");
	if (!cJSON_IsString(ev) || !event_name_ok(ev->valuestring) ||
	    in_list(ev->valuestring, owned_events,
		    sizeof(owned_events) / sizeof(owned_events[0]))) {
		rc = refuse(why, why_cap, CORDON_E_INVAL,
			    "no event, or an event name the log owns");
		cJSON_Delete(ev);
		goto out;
	}
	for (cJSON *c = o->child; c; c = c->next)
		if (in_list(c->string, owned_members,
			    sizeof(owned_members) / sizeof(owned_members[0]))) {
			(void)snprintf(why, why_cap,
				       "member \"%s\" belongs to the log",
				       c->string);
			rc = CORDON_E_INVAL;
			cJSON_Delete(ev);
			goto out;
		}
	rec = cJSON_CreateObject();
	inner = o;
	o = NULL;
	if (!rec || !cJSON_AddItemToObject(rec, "inner_event", ev)) {
		cJSON_Delete(ev);
		cJSON_Delete(inner);
		rc = CORDON_E_NOMEM;
		goto out;
	}
	if (!cJSON_AddItemToObject(rec, "inner", inner)) {
		cJSON_Delete(inner);
		rc = CORDON_E_NOMEM;
		goto out;
	}
	*out = cJSON_PrintUnformatted(rec);
	if (!*out)
		rc = CORDON_E_NOMEM;
out:
	if (rc == CORDON_E_NOMEM)
		(void)snprintf(why, why_cap, "out of memory");
	cJSON_Delete(o);
	cJSON_Delete(rec);
	return rc;
}

/* ---- the run's side ------------------------------------------------------ */

enum cordon_err audit_relay_server_init(struct audit_relay_server *s,
					struct cordon_audit *a)
{
	memset(s, 0, sizeof(*s));
	s->audit = a;
	s->max_bytes = AUDIT_RELAY_MAX_BYTES;
	s->buf = cordon__malloc(AUDIT_RELAY_MAX + 1);
	return s->buf ? CORDON_OK : CORDON_E_NOMEM;
}

void audit_relay_server_free(struct audit_relay_server *s)
{
	free(s->buf);
	s->buf = NULL;
}

/* Records a refused message: why, its length and SHA-256. */
static enum cordon_err record_refusal(struct audit_relay_server *s,
				      const char *why, const char *msg,
				      size_t len, size_t real_len)
{
	char hex[AUDIT_HASH_HEX + 1];
	char *js = NULL;
	cJSON *o = cJSON_CreateObject();
	struct cordon_diag diag = { 0 };
	enum cordon_err rc = CORDON_E_NOMEM;

	sha256_hex(msg, len, hex);
	if (o && cJSON_AddStringToObject(o, "reason", why) &&
	    cJSON_AddNumberToObject(o, "bytes", (double)real_len) &&
	    cJSON_AddStringToObject(o, "sha256", hex))
		js = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (js)
		rc = cordon_audit_event(s->audit, "nested_refused", js, &diag);
	free(js);
	s->records++;
	s->refused++;
	return rc;
}

static void answer(int rfd, const char *text)
{
	struct stat st;

	if (rfd < 0 || fstat(rfd, &st) != 0 || !S_ISSOCK(st.st_mode))
		return;
	(void)send(rfd, text, strlen(text), MSG_DONTWAIT | MSG_NOSIGNAL);
}

int audit_relay_serve(struct audit_relay_server *s, int fd, bool conn)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = s->buf,
			     .iov_len = AUDIT_RELAY_MAX + 1 };
	struct msghdr mh = { 0 };
	struct cordon_diag diag = { 0 };
	char why[160], ans[200];
	char *fields = NULL;
	ssize_t n;
	size_t len;
	int rfd;
	bool capped = s->records >= AUDIT_RELAY_MAX_RECORDS;

	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	do
		n = recvmsg(fd, &mh,
			    MSG_DONTWAIT | MSG_CMSG_CLOEXEC | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	if (n == 0 && mh.msg_controllen == 0) {
		/* the peer is gone (or sent nothing, with no one to answer) */
		errno = EPIPE;
		return -1;
	}
	unixmsg_take_fd(&mh, &rfd);
	if (conn) {
		/* a connection is answered on itself; what it passed is
		 * closed */
		if (rfd >= 0)
			close(rfd);
		rfd = fd;
	}
	len = (size_t)n > AUDIT_RELAY_MAX + 1 ? AUDIT_RELAY_MAX + 1 : (size_t)n;
	if (capped) {
		answer(rfd, "refused: the relay's record limit is reached");
		goto done;
	}
	if (s->records + 1 == AUDIT_RELAY_MAX_RECORDS) {
		(void)snprintf(why, sizeof(why),
			       "the relay's limit of %llu records in one run "
			       "is reached (AUDIT_RELAY_MAX_RECORDS)",
			       (unsigned long long)AUDIT_RELAY_MAX_RECORDS);
		(void)record_refusal(s, why, s->buf, len, (size_t)n);
		answer(rfd, "refused: the relay's record limit is reached");
		goto done;
	}
	if (s->bytes + len > s->max_bytes) {
		(void)snprintf(why, sizeof(why),
			       "the relay's limit of %llu KiB of records in "
			       "one run is reached (AUDIT_RELAY_MAX_BYTES)",
			       (unsigned long long)(s->max_bytes >> 10));
		(void)record_refusal(s, why, s->buf, len, (size_t)n);
		/* every later message is refused unrecorded */
		s->records = AUDIT_RELAY_MAX_RECORDS;
		answer(rfd, "refused: the relay's record limit is reached");
		goto done;
	}
	if (rfd < 0)
		(void)snprintf(why, sizeof(why), "%s",
			       rfd == -1 ? "no reply descriptor" :
					   "more than one descriptor");
	else if ((mh.msg_flags & MSG_CTRUNC) != 0)
		(void)snprintf(why, sizeof(why), "descriptors cut");
	else if ((size_t)n > AUDIT_RELAY_MAX || (mh.msg_flags & MSG_TRUNC))
		(void)snprintf(why, sizeof(why),
			       "over the relay's %zu KiB limit "
			       "(AUDIT_RELAY_MAX)",
			       AUDIT_RELAY_MAX / 1024);
	else if (audit_relay_judge(s->buf, len, &fields, why, sizeof(why)) ==
		 CORDON_OK) {
		enum cordon_err rc =
			cordon_audit_event(s->audit, "nested", fields, &diag);

		free(fields);
		s->records++;
		s->bytes += len;
		if (rc == CORDON_OK) {
			s->nested++;
			answer(rfd, "ok");
		} else {
			(void)snprintf(ans, sizeof(ans), "refused: %.180s",
				       diag.message);
			answer(rfd, ans);
		}
		goto done;
	}
	(void)record_refusal(s, why, s->buf, len, (size_t)n);
	(void)snprintf(ans, sizeof(ans), "refused: %s", why);
	answer(rfd, ans);
done:
	if (rfd >= 0 && rfd != fd)
		close(rfd);
	return 1;
}
