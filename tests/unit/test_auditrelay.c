/* The audit relay (src/audit/relay.h): what the run side accepts from a
 * door inside the sandbox and what it refuses, a door's records landing
 * in the host log as "nested" (redacted, chained, verifying), forged,
 * garbage, oversized and descriptor-less messages refused and recorded as
 * "nested_refused", and a door whose run side is gone failing (a call
 * that cannot be recorded does not run).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "cordon.h"
#include "relay.h"
#include "table.h"
#include "tap.h"

static char root[256];
static char logpath[300];

static const char ghp[] = "ghp_Zq3Xw9Lk2Mn7Bv5Cx8Hj4Gf6Ds1Ap0Ty9Ur3";

/* ---- judging ------------------------------------------------------------- */

static void test_judge(void)
{
	static const struct {
		const char *msg;
		const char *why; /* NULL: accepted */
	} rows[] = {
		{ "{\"event\":\"decision\",\"decision\":\"allow\"}", NULL },
		{ "{\"event\":\"run\"}", NULL },
		{ "  {\"event\":\"mcp\",\"a\":{\"b\":[1,{\"c\":2}]}}\t", NULL },
		{ "", "empty" },
		{ "not json", "not one JSON value" },
		{ "{\"event\":\"decision\"} trailing", "not one JSON value" },
		{ "[1,2]", "not a JSON object" },
		{ "\"event\"", "not a JSON object" },
		{ "{\"decision\":\"allow\"}", "no event" },
		{ "{\"event\":7}", "no event" },
		{ "{\"event\":\"\"}", "no event" },
		{ "{\"event\":\"a b\"}", "no event" },
		{ "{\"event\":\"0123456789012345678901234567890123\"}",
		  "no event" },
		{ "{\"event\":\"rotated\"}", "owns" },
		{ "{\"event\":\"recovered\"}", "owns" },
		/* a cordon run inside a sandbox relays its own doors' */
		{ "{\"event\":\"nested\",\"inner_event\":\"decision\"}", NULL },
		{ "{\"event\":\"nested_refused\"}", NULL },
		{ "{\"event\":\"decision\",\"seq\":9}", "\"seq\" belongs" },
		{ "{\"event\":\"decision\",\"hash\":\"00\"}",
		  "\"hash\" belongs" },
		{ "{\"event\":\"decision\",\"prev\":\"00\"}",
		  "\"prev\" belongs" },
		{ "{\"event\":\"decision\",\"time\":\"x\"}",
		  "\"time\" belongs" },
		{ "{\"event\":\"decision\",\"host\":\"x\"}",
		  "\"host\" belongs" },
		{ "{\"event\":\"decision\",\"pid\":1}", "\"pid\" belongs" },
		{ "{\"event\":\"decision\",\"hmac\":\"x\"}",
		  "\"hmac\" belongs" },
		{ "{\"event\":\"decision\",\"v\":1}", "\"v\" belongs" },
		{ "{\"event\":\"decision\",\"event\":\"run\"}", "twice" },
		{ "{\"event\":\"decision\",\"a\":{\"x\":1,\"x\":2}}", "twice" },
		{ "{\"event\":\"decision\",\"a\":[{\"x\":1,\"x\":2}]}",
		  "twice" },
		{ "{\"event\":\"decision\",\"a\":\"\xff\"}", "UTF-8" },
	};
	char why[160];
	char *out;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum cordon_err rc;

		why[0] = '\0';
		rc = audit_relay_judge(rows[i].msg, strlen(rows[i].msg), &out,
				       why, sizeof(why));
		if (!rows[i].why)
			ok(rc == CORDON_OK && out &&
				   strstr(out, "\"inner_event\":") &&
				   strstr(out, "\"inner\":{"),
			   "judge accepts %s: %s", rows[i].msg,
			   out ? out : why);
		else
			ok(rc != CORDON_OK && !out &&
				   strstr(why, rows[i].why) != NULL,
			   "judge refuses %s: %s", rows[i].msg, why);
		free(out);
	}
	/* a NUL byte inside */
	ok(audit_relay_judge("{\"event\":\"x\"}\0", 14, &out, why,
			     sizeof(why)) != CORDON_OK,
	   "judge refuses a NUL byte: %s", why);
	ok(audit_relay_judge("{}", AUDIT_RELAY_MAX + 1, &out, why,
			     sizeof(why)) == CORDON_E_LIMIT,
	   "judge refuses a message over AUDIT_RELAY_MAX: %s", why);
}

/* ---- the descriptor in the environment ----------------------------------- */

static void test_env_fd(void)
{
	int sp[2], st[2], pp[2];
	char v[32];

	ok(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == 0 &&
		   socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, st) ==
			   0 &&
		   pipe2(pp, O_CLOEXEC) == 0,
	   "sockets and a pipe");
	snprintf(v, sizeof(v), "%d", sp[1]);
	ok(audit_relay_env_fd(v) == sp[1], "a SEQPACKET unix socket is taken");
	snprintf(v, sizeof(v), "%d", st[1]);
	ok(audit_relay_env_fd(v) == -1, "a stream socket is not");
	snprintf(v, sizeof(v), "%d", pp[1]);
	ok(audit_relay_env_fd(v) == -1, "a pipe is not");
	ok(audit_relay_env_fd(NULL) == -1 && audit_relay_env_fd("") == -1 &&
		   audit_relay_env_fd("1") == -1 &&
		   audit_relay_env_fd("-5") == -1 &&
		   audit_relay_env_fd(" 5") == -1 &&
		   audit_relay_env_fd("5x") == -1 &&
		   audit_relay_env_fd("99999999999") == -1 &&
		   audit_relay_env_fd("1000000") == -1,
	   "stdio, signs, spaces, junk, overflow and a closed fd are not");
	for (int i = 0; i < 2; i++) {
		close(sp[i]);
		close(st[i]);
		close(pp[i]);
	}
}

/* ---- end to end ---------------------------------------------------------- */

struct server {
	struct audit_relay_server srv;
	int fd;
	int stop[2];
	pthread_t th;
};

static void *serve(void *arg)
{
	struct server *s = arg;
	struct pollfd pf[2] = { { .fd = s->fd, .events = POLLIN },
				{ .fd = s->stop[0], .events = POLLIN } };

	while (poll(pf, 2, -1) > 0 && !pf[1].revents)
		if ((pf[0].revents & POLLIN) &&
		    audit_relay_serve(&s->srv, s->fd, false) < 0)
			break;
	return NULL;
}

static struct cordon_audit *open_host(void)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_audit *a = NULL;
	struct cordon_diag d = { 0 };

	o.path = logpath;
	o.fsync_policy = CORDON_AUDIT_FSYNC_NEVER;
	if (cordon_audit_open(&o, &a, &d) != CORDON_OK)
		ok(0, "open %s: %s", logpath, d.message);
	return a;
}

/* Sends msg[0..len) with nfd reply sockets and returns the answer (of
 * the first), "" for none. */
static void raw_send(int fd, const char *msg, size_t len, int nfd, char *ans,
		     size_t cap)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { 0 };
	int a[2], b[2], fds[2];
	ssize_t n;

	memset(&u, 0, sizeof(u));
	ans[0] = '\0';
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, a) != 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, b) != 0)
		return;
	fds[0] = a[1];
	fds[1] = b[1];
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfd) {
		struct cmsghdr *c;

		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE((size_t)nfd * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nfd * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)nfd * sizeof(int));
	}
	n = sendmsg(fd, &mh, MSG_NOSIGNAL);
	if (n < 0)
		diag("sendmsg: %s", strerror(errno));
	close(a[1]);
	close(b[1]);
	if (n >= 0 && nfd) {
		struct pollfd pf = { .fd = a[0], .events = POLLIN };

		if (poll(&pf, 1, -1) == 1) {
			n = recv(a[0], ans, cap - 1, MSG_DONTWAIT);
			ans[n > 0 ? n : 0] = '\0';
		}
	}
	close(a[0]);
	close(b[0]);
}

/* The host log's records of event ev, as parsed objects (count in *n). */
static cJSON *records(const char *ev, size_t *n)
{
	size_t len;
	char *text = table_read(logpath, &len);
	cJSON *arr = cJSON_CreateArray();
	char *save = NULL;

	*n = 0;
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		cJSON *o = cJSON_Parse(l);
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "event");

		if (cJSON_IsString(e) && strcmp(e->valuestring, ev) == 0) {
			cJSON_AddItemToArray(arr, o);
			(*n)++;
		} else {
			cJSON_Delete(o);
		}
	}
	free(text);
	return arr;
}

static const char *path_str(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);

	if (b)
		v = cJSON_GetObjectItemCaseSensitive(v, b);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static void test_relay(void)
{
	struct server s = { 0 };
	struct cordon_audit *host = open_host(), *door = NULL;
	struct cordon_audit_opts o = { 0 };
	struct cordon_diag d = { 0 };
	struct cordon_audit_report rep;
	const char *files[] = { logpath };
	int sp[2];
	char fields[256], ans[256];
	char *big;
	cJSON *recs;
	size_t n;
	ssize_t k;

	ok(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == 0,
	   "the relay's socketpair");
	s.fd = sp[0];
	ok(audit_relay_server_init(&s.srv, host) == CORDON_OK &&
		   pipe2(s.stop, O_CLOEXEC) == 0 &&
		   pthread_create(&s.th, NULL, serve, &s) == 0,
	   "the run's side serves");

	/* a door's records */
	o.fsync_policy = CORDON_AUDIT_FSYNC_EVERY;
	ok(audit_open_relay(&o, sp[1], NULL, &door, &d) == CORDON_OK,
	   "a door opens the relay: %s", d.message);
	snprintf(fields, sizeof(fields),
		 "{\"decision\":\"allow\",\"tool\":\"Bash\",\"door\":"
		 "\"codex\",\"note\":\"token %s\"}",
		 ghp);
	ok(cordon_audit_event(door, "decision", fields, &d) == CORDON_OK,
	   "a decision through the relay is acknowledged: %s", d.message);
	ok(cordon_audit_event(door, "mcp", "{\"server\":\"s\"}", &d) ==
		   CORDON_OK,
	   "a second record too: %s", d.message);
	recs = records("nested", &n);
	ok(n == 2, "the host log has two nested records (%zu)", n);
	{
		const cJSON *r0 = cJSON_GetArrayItem(recs, 0);
		char *txt = cJSON_PrintUnformatted(r0);

		ok(strcmp(path_str(r0, "inner_event", NULL), "decision") == 0 &&
			   strcmp(path_str(r0, "inner", "decision"), "allow") ==
				   0 &&
			   strcmp(path_str(r0, "inner", "door"), "codex") == 0,
		   "marked nested: inner_event decision, inner.decision "
		   "allow: %s",
		   txt ? txt : "");
		ok(!cJSON_GetObjectItemCaseSensitive(r0, "decision"),
		   "the inner decision is not the record's own");
		ok(txt && !strstr(txt, ghp), "the token is redacted");
		free(txt);
	}
	cJSON_Delete(recs);

	/* forged, garbage, oversized, no descriptor, two descriptors */
	big = "{\"event\":\"decision\",\"seq\":1,\"hash\":\"0\"}";
	raw_send(sp[1], big, strlen(big), 1, ans, sizeof(ans));
	ok(strncmp(ans, "refused: ", 9) == 0 && strstr(ans, "seq"),
	   "a forged seq is refused: %s", ans);
	big = "{\"event\":\"rotated\",\"previous_head\":\"0\"}";
	raw_send(sp[1], big, strlen(big), 1, ans, sizeof(ans));
	ok(strncmp(ans, "refused: ", 9) == 0,
	   "a forged rotation is refused: %s", ans);
	raw_send(sp[1], "\x01\x02garbage\xff", 11, 1, ans, sizeof(ans));
	ok(strncmp(ans, "refused: ", 9) == 0, "garbage is refused: %s", ans);
	big = malloc(AUDIT_RELAY_MAX + 4096);
	memset(big, ' ', AUDIT_RELAY_MAX + 4096);
	memcpy(big, "{\"event\":\"x\"}", 13);
	raw_send(sp[1], big, AUDIT_RELAY_MAX + 4096, 1, ans, sizeof(ans));
	ok(strncmp(ans, "refused: ", 9) == 0 && strstr(ans, "KiB"),
	   "an oversized message is refused: %s", ans);
	free(big);
	raw_send(sp[1], "{\"event\":\"x\"}", 13, 0, ans, sizeof(ans));
	raw_send(sp[1], "{\"event\":\"x\"}", 13, 2, ans, sizeof(ans));
	ok(ans[0] == '\0' || strncmp(ans, "refused", 7) == 0,
	   "two descriptors: no ok (%s)", ans);
	/* a round trip so that the thread has read everything */
	ok(cordon_audit_event(door, "decision", "{\"decision\":\"deny\"}",
			      &d) == CORDON_OK,
	   "the relay still serves after the refusals: %s", d.message);
	recs = records("nested_refused", &n);
	ok(n == 6, "six refusals recorded (%zu)", n);
	{
		char *txt = cJSON_PrintUnformatted(recs);

		ok(txt && strstr(txt, "belongs to the log") &&
			   strstr(txt, "owns") && strstr(txt, "UTF-8") &&
			   strstr(txt, "KiB") &&
			   strstr(txt, "no reply descriptor") &&
			   strstr(txt, "more than one descriptor") &&
			   strstr(txt, "\"sha256\":") &&
			   !strstr(txt, "garbage"),
		   "each names why, bytes and sha256, never the bytes: %s",
		   txt ? txt : "");
		free(txt);
	}
	cJSON_Delete(recs);
	recs = records("nested", &n);
	ok(n == 3, "nothing refused became a nested record (%zu)", n);
	cJSON_Delete(recs);

	/* the run side stops reading and goes */
	k = write(s.stop[1], "x", 1);
	(void)k;
	pthread_join(s.th, NULL);
	close(sp[0]);
	ok(cordon_audit_event(door, "decision", "{\"decision\":\"allow\"}",
			      &d) != CORDON_OK,
	   "with the run side gone the door's record fails: %s", d.message);
	ok(cordon_audit_failed(door) == 1, "and the door knows it failed");

	ok(cordon_audit_verify(files, 1, &rep, &d) == CORDON_OK && rep.intact &&
		   rep.records == 9,
	   "the host log verifies: %s %s (%llu records)",
	   rep.intact ? "intact" : "broken", rep.why,
	   (unsigned long long)rep.records);
	ok(cordon_audit_close(door) == CORDON_OK &&
		   cordon_audit_close(host) == CORDON_OK,
	   "both close");
	close(sp[1]);
	close(s.stop[0]);
	close(s.stop[1]);
	audit_relay_server_free(&s.srv);
}

/* A run side that answers anything but "ok" is a failed record. */
static void *bad_answer(void *arg)
{
	int fd = *(int *)arg;
	char buf[4096];
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr mh = { 0 };
	int rfd;

	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.b;
	mh.msg_controllen = sizeof(u.b);
	if (recvmsg(fd, &mh, MSG_CMSG_CLOEXEC) < 0 || !CMSG_FIRSTHDR(&mh))
		return NULL;
	memcpy(&rfd, CMSG_DATA(CMSG_FIRSTHDR(&mh)), sizeof(int));
	(void)send(rfd, "okay", 4, MSG_NOSIGNAL);
	close(rfd);
	return NULL;
}

static void test_bad_answer(void)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_audit *door = NULL;
	struct cordon_diag d = { 0 };
	pthread_t th;
	int sp[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0 ||
	    pthread_create(&th, NULL, bad_answer, &sp[0]) != 0) {
		ok(0, "socketpair and thread");
		return;
	}
	ok(audit_open_relay(&o, sp[1], NULL, &door, &d) == CORDON_OK &&
		   cordon_audit_event(door, "decision", "{}", &d) != CORDON_OK,
	   "an answer other than ok fails the record: %s", d.message);
	pthread_join(th, NULL);
	/* a run side that closes the reply socket unanswered */
	close(sp[0]);
	ok(cordon_audit_event(door, "decision", "{}", &d) != CORDON_OK,
	   "no run side: %s", d.message);
	cordon_audit_close(door);
	close(sp[1]);
}

/* ---- by path ------------------------------------------------------------- */

struct acceptor {
	struct audit_relay_server srv;
	int lfd;
	int n; /* connections to serve */
};

static void *accept_serve(void *arg)
{
	struct acceptor *a = arg;

	for (int i = 0; i < a->n; i++) {
		int c = accept4(a->lfd, NULL, NULL, SOCK_CLOEXEC);
		struct pollfd pf = { .fd = c, .events = POLLIN };

		if (c < 0)
			break;
		if (poll(&pf, 1, -1) == 1)
			(void)audit_relay_serve(&a->srv, c, true);
		close(c);
	}
	return NULL;
}

static void test_path(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct cordon_audit_opts o = { 0 };
	struct cordon_audit *host = open_host(), *door = NULL;
	struct cordon_diag d = { 0 };
	struct acceptor acc = { .n = 2 };
	char sock[300], file[300], missing[300];
	pthread_t th;
	size_t n;
	cJSON *recs;

	snprintf(sock, sizeof(sock), "%s/s", root);
	snprintf(file, sizeof(file), "%s/f", root);
	snprintf(missing, sizeof(missing), "%s/none", root);
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	acc.lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ok(acc.lfd >= 0 &&
		   bind(acc.lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
		   listen(acc.lfd, 4) == 0 &&
		   audit_relay_server_init(&acc.srv, host) == CORDON_OK &&
		   pthread_create(&th, NULL, accept_serve, &acc) == 0,
	   "a relay listening on a path");
	close(open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
	ok(audit_relay_env_path(sock) == 0, "the socket path is taken");
	ok(audit_relay_env_path(file) == -1 &&
		   audit_relay_env_path("s") == -1 &&
		   audit_relay_env_path(missing) == -1 &&
		   audit_relay_env_path(NULL) == -1,
	   "a file, a relative path, a missing one are not");
	ok(audit_open_relay(&o, -1, sock, &door, &d) == CORDON_OK &&
		   cordon_audit_event(door, "decision",
				      "{\"decision\":\"allow\"}",
				      &d) == CORDON_OK,
	   "a record by path is acknowledged: %s", d.message);
	ok(cordon_audit_event(door, "decision", "{\"seq\":3}", &d) ==
		   CORDON_E_INVAL,
	   "the door's own writer refuses a reserved member before sending");
	ok(cordon_audit_event(door, "rotated", NULL, &d) != CORDON_OK,
	   "and the log's own events");
	ok(cordon_audit_event(door, "mcp", "{}", &d) == CORDON_OK,
	   "a second connection: %s", d.message);
	pthread_join(th, NULL);
	recs = records("nested", &n);
	ok(n == 5, "both are nested records in the host log (%zu)", n);
	cJSON_Delete(recs);
	cordon_audit_close(door);
	door = NULL;
	ok(audit_open_relay(&o, -1, missing, &door, &d) == CORDON_OK &&
		   cordon_audit_event(door, "decision", "{}", &d) !=
			   CORDON_OK &&
		   strstr(d.message, "cannot reach"),
	   "no socket there: the record fails: %s", d.message);
	cordon_audit_close(door);
	cordon_audit_close(host);
	close(acc.lfd);
	audit_relay_server_free(&acc.srv);
	unlink(sock);
	unlink(file);
}

/* The byte budget: past max_bytes of nested messages, one
 * nested_refused says so and later messages are refused unrecorded. */
static void test_byte_budget(void)
{
	static const char head[] = "{\"event\":\"run\",\"note\":\"";
	struct server s = { 0 };
	struct cordon_audit *host = open_host();
	char msg[1100], ans[256];
	const cJSON *r;
	cJSON *recs;
	size_t n, before;
	int sp[2], okays = 0;
	ssize_t k;

	recs = records("nested_refused", &before);
	cJSON_Delete(recs);
	ok(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == 0,
	   "the relay's socketpair");
	s.fd = sp[0];
	ok(audit_relay_server_init(&s.srv, host) == CORDON_OK &&
		   pipe2(s.stop, O_CLOEXEC) == 0,
	   "a relay with a 4 KiB byte budget");
	s.srv.max_bytes = 4096;
	ok(pthread_create(&s.th, NULL, serve, &s) == 0, "it serves");
	memset(msg, 'x', sizeof(msg));
	memcpy(msg, head, sizeof(head) - 1);
	memcpy(msg + sizeof(msg) - 2, "\"}", 2);
	for (int i = 0; i < 6; i++) {
		raw_send(sp[1], msg, sizeof(msg), 1, ans, sizeof(ans));
		if (!strcmp(ans, "ok"))
			okays++;
		else if (i < 3)
			diag("message %d: %s", i, ans);
	}
	k = write(s.stop[1], "x", 1);
	(void)k;
	pthread_join(s.th, NULL);
	recs = records("nested_refused", &n);
	ok(okays == 3 && n == before + 1,
	   "three of 1100 bytes fit in 4 KiB, one refusal says so, the rest "
	   "go unrecorded (%d ok, %zu refusals)",
	   okays, n - before);
	r = n > before ? cJSON_GetArrayItem(recs, (int)n - 1) : NULL;
	ok(r && strstr(path_str(r, "reason", NULL), "AUDIT_RELAY_MAX_BYTES"),
	   "the refusal names the limit: %s",
	   r ? path_str(r, "reason", NULL) : "(none)");
	cJSON_Delete(recs);
	close(sp[0]);
	close(sp[1]);
	close(s.stop[0]);
	close(s.stop[1]);
	ok(cordon_audit_close(host) == CORDON_OK, "the host log closes");
	audit_relay_server_free(&s.srv);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	tap_no_plan();
	snprintf(root, sizeof(root), "%s/cordon-relay-XXXXXX",
		 tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(logpath, sizeof(logpath), "%s/audit.jsonl", root);
	test_judge();
	test_env_fd();
	test_relay();
	test_bad_answer();
	test_path();
	test_byte_budget();
	unlink(logpath);
	rmdir(root);
	return tap_done();
}
