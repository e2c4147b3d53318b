/* cordon console — the approval broker and the local web console.
 *
 * One process: a unix socket ($XDG_RUNTIME_DIR/cordon/console.sock, 0600,
 * its directory 0700) where doors hand over their ASKs (src/policy/
 * broker.h), and an HTTP server (libmicrohttpd) on loopback serving the
 * JSON API and the page (cli/console_page/, embedded at build time).
 *
 * Threads: the broker's accept thread, one thread per waiting door (at
 * most CONSOLE_MAX_PENDING), and libmicrohttpd's thread per connection
 * (at most CONSOLE_MAX_CONNECTIONS). Everything they share is under one
 * mutex (struct console.lock): the pending list, the events ring, the
 * session grants; the classifier has its own.
 *
 * Security (issue 17): the listening address must be loopback; every API
 * call needs the token (console.token, 256 bits, 0600), as
 * "Authorization: Bearer TOKEN" or the HttpOnly cookie set by the one-time
 * login URL printed at start; Host must name this listener (DNS
 * rebinding); a present Origin must be this listener, and a call by
 * cookie that changes something must carry it (CSRF); no CORS header is
 * ever sent; a strict Content-Security-Policy (no inline script, nothing
 * from elsewhere); request bodies at most CONSOLE_BODY_MAX.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cjson/cJSON.h>

#include "approvals.h"
#include "atomic.h"
#include "arena.h"
#include "broker.h"
#include "buf.h"
#include "cli.h"
#include "cmdwords.h"
#include "config.h"
#include "cordon.h"
#include "json.h"
#include "pins.h"
#include "policy.h"
#include "sandbox.h"
#include "text.h"

#ifdef CORDON_HAVE_MICROHTTPD
#include <microhttpd.h>
#include <openssl/crypto.h>
#endif

#include "banned.h"

void cli_console_usage(FILE *out)
{
	fputs("usage: cordon console [--listen 127.0.0.1:PORT] [--config FILE]\n"
	      "                      [--audit-log FILE] [--pins FILE]\n"
	      "\n"
	      "Run the approval broker and the local web console. Doors with\n"
	      "approvals.broker on (cordon mcp, cordon hook, cordon check)\n"
	      "hand their ASKs to it; a person answers them in the browser.\n"
	      "\n"
	      "It listens on loopback only (a random port unless --listen)\n"
	      "and on the socket $XDG_RUNTIME_DIR/cordon/console.sock; the\n"
	      "API token is in $XDG_RUNTIME_DIR/cordon/console.token (0600;\n"
	      "$XDG_STATE_HOME/cordon/ without a runtime directory), sent as\n"
	      "'Authorization: Bearer TOKEN'. It prints a one-time login URL\n"
	      "for the browser. Stop it with Ctrl-C.\n"
	      "\n"
	      "options:\n"
	      "  --listen ADDR:PORT  a loopback address (127.0.0.0/8 or ::1)\n"
	      "  --config FILE       another configuration layer\n"
	      "  --audit-log FILE    the log /api/audit reads and /api/check\n"
	      "                      writes\n"
	      "  --pins FILE         the MCP pins file (default: mcp.pins_path)\n",
	      out);
}

#ifndef CORDON_HAVE_MICROHTTPD

int cli_console(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("cordon console: this cordon was built without libmicrohttpd "
	      "(Debian: libmicrohttpd-dev), so it has no console; doors with "
	      "approvals.broker on deny what they would ask\n",
	      stderr);
	return CLI_EXIT_FAILURE;
}

#else

#define CONSOLE_MAX_PENDING 256
#define CONSOLE_MAX_CONNECTIONS 64
#define CONSOLE_BODY_MAX (64u << 10)
#define CONSOLE_EVENTS 512
#define CONSOLE_AUDIT_TAIL (4u << 20)
#define CONSOLE_AUDIT_MAX 1000

/* The page, embedded (console_page.c, made from cli/console_page/ by
 * scripts/embed-files). */
struct console_file {
	const char *name;
	const char *type;
	const unsigned char *data;
	size_t len;
};
extern const struct console_file console_files[];
extern const size_t console_nfiles;

struct pending {
	char id[33];
	struct broker_request req;
	cJSON *segments;
	struct arena arena; /* words */
	struct cmdwords words; /* the command's, when plain */
	bool plain;
	struct strlist family; /* what a family grant covers, or empty */
	/* relayed by a cordon run: its session grants are kept apart, in
	 * C.relay_grants under "RUN/SESSION" */
	char *relay_session;
	const char *family_why; /* static: why there is none */
	int fd;
	long created; /* wall clock, ms */
	long deadline; /* monotonic, ms */
	int answer; /* -1: not yet */
	bool answer_family; /* the answer grants the family */
	struct pending *next;
};

struct event {
	unsigned long seq;
	char *line; /* "event: NAME\ndata: JSON\n\n" */
};

struct console {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* an answer, an event, stopping */
	struct pending *pending;
	size_t npending;
	size_t ndoors; /* door threads */
	struct event events[CONSOLE_EVENTS];
	unsigned long next_seq;
	struct approvals_store grants; /* session grants given here */
	/* those given on items relayed from inside a cordon run's sandbox:
	 * never looked up for a host door's call (src/policy/broker.h) */
	struct approvals_store relay_grants;
	bool stopping;

	pthread_mutex_t cls_lock;
	struct cordon_classifier *cls;
	struct cordon_verdict *verdict;

	const char *config_file;
	const char *audit_log;
	const char *pins_path;
	char audit_path[PATH_MAX];
	char sock_path[PATH_MAX];
	char token_path[PATH_MAX];
	char token[65];
	char login[33]; /* one-time; "" once used */
	char host_a[128], host_b[128], origin_a[160], origin_b[160];
	int sock_fd;
	int http_fd;
	unsigned port;
	unsigned timeout_s;
};

static struct console C;
static volatile sig_atomic_t stop_signal;

static long wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- events -------------------------------------------------------------- */

/* Adds an event (name, data: a JSON object, consumed) under the lock. */
static void event_locked(const char *name, cJSON *data)
{
	char *js = data ? cJSON_PrintUnformatted(data) : NULL;
	struct event *e = &C.events[C.next_seq % CONSOLE_EVENTS];
	size_t n;

	cJSON_Delete(data);
	if (!js)
		return;
	n = strlen(name) + strlen(js) + 32;
	free(e->line);
	e->line = malloc(n);
	if (e->line)
		(void)snprintf(e->line, n, "event: %s\ndata: %s\n\n", name, js);
	e->seq = C.next_seq++;
	free(js);
	pthread_cond_broadcast(&C.changed);
}

/* ---- pending items ------------------------------------------------------- */

static cJSON *pending_json(const struct pending *p)
{
	const struct broker_request *q = &p->req;
	cJSON *o = cJSON_CreateObject();
	cJSON *reasons = cJSON_CreateArray();
	long left = p->deadline - mono_ms();

	if (!o || !reasons) {
		cJSON_Delete(o);
		cJSON_Delete(reasons);
		return NULL;
	}
	cJSON_AddStringToObject(o, "id", p->id);
	cJSON_AddStringToObject(o, "door", q->door);
	cJSON_AddStringToObject(o, "tool", q->tool);
	cJSON_AddStringToObject(o, "kind", q->kind);
	cJSON_AddItemToObject(o, "args", cJSON_Duplicate(q->args, 1));
	if (q->command)
		cJSON_AddStringToObject(o, "command", q->command);
	else
		cJSON_AddNullToObject(o, "command");
	if (q->path)
		cJSON_AddStringToObject(o, "path", q->path);
	else
		cJSON_AddNullToObject(o, "path");
	if (q->risk)
		cJSON_AddStringToObject(o, "risk", q->risk);
	else
		cJSON_AddNullToObject(o, "risk");
	cJSON_AddItemToObject(o, "labels", json_labels_array(q->labels));
	cJSON_AddItemToArray(reasons, cJSON_CreateString(q->reason));
	cJSON_AddItemToObject(o, "reasons", reasons);
	cJSON_AddItemToObject(o, "segments",
			      p->segments ? cJSON_Duplicate(p->segments, 1) :
					    cJSON_CreateArray());
	if (q->session)
		cJSON_AddStringToObject(o, "session", q->session);
	else
		cJSON_AddNullToObject(o, "session");
	cJSON_AddStringToObject(o, "sandboxed", q->sandbox);
	/* from inside the sandbox of a cordon run: no durable answer */
	if (q->relay_run) {
		cJSON *rel = cJSON_AddObjectToObject(o, "relayed");
		if (rel) {
			cJSON_AddStringToObject(rel, "run", q->relay_run);
			cJSON_AddStringToObject(rel, "command",
						q->relay_command);
		}
	} else {
		cJSON_AddNullToObject(o, "relayed");
	}
	cJSON_AddBoolToObject(o, "exactOnly", q->exact_only);
	/* what allow_session / allow_always with "scope": "prefix" covers;
	 * without it (or with "exact") they cover the exact command */
	if (p->family.n) {
		cJSON *f = cJSON_CreateArray();
		for (size_t i = 0; f && i < p->family.n; i++)
			cJSON_AddItemToArray(
				f, json_clean_string(p->family.v[i],
						     strlen(p->family.v[i])));
		cJSON_AddItemToObject(o, "prefix", f);
		cJSON_AddNullToObject(o, "prefixRefused");
	} else {
		cJSON_AddNullToObject(o, "prefix");
		if (p->family_why)
			cJSON_AddStringToObject(o, "prefixRefused",
						p->family_why);
		else
			cJSON_AddNullToObject(o, "prefixRefused");
	}
	cJSON_AddNumberToObject(o, "created", (double)p->created);
	cJSON_AddNumberToObject(o, "expiresInMs",
				(double)(left > 0 ? left : 0));
	return o;
}

/* The segments of a command, from the console's classifier. */
static cJSON *segments_of(const char *cmd)
{
	cJSON *arr = cJSON_CreateArray();
	struct cordon_diag diag = { 0 };

	if (!arr || !cmd)
		return arr;
	pthread_mutex_lock(&C.cls_lock);
	if (cordon_classify(C.cls, NULL, cmd, strlen(cmd), C.verdict, &diag) ==
	    CORDON_OK) {
		size_t n = cordon_verdict_segment_count(C.verdict);
		for (size_t i = 0; i < n && i < 64; i++) {
			size_t len = 0;
			enum cordon_risk risk;
			uint64_t labels;
			const char *t = cordon_verdict_segment(
				C.verdict, i, &len, &risk, &labels);
			cJSON *s = cJSON_CreateObject();
			if (!s)
				break;
			cJSON_AddItemToObject(s, "text",
					      json_clean_string(t, len));
			cJSON_AddStringToObject(s, "risk",
						cordon_risk_name(risk));
			cJSON_AddItemToObject(s, "labels",
					      json_labels_array(labels));
			cJSON_AddItemToArray(arr, s);
		}
	}
	pthread_mutex_unlock(&C.cls_lock);
	return arr;
}

/* Where p's session grants are: a relayed item's apart. */
static struct approvals_store *grants_of(const struct pending *p)
{
	return p->req.relay_run ? &C.relay_grants : &C.grants;
}

/* The query of p's call, with the words of its command when they are
 * plain, so that this console's family grants apply to it. */
static void query_of(const struct pending *p, struct approvals_query *aq)
{
	const struct broker_request *q = &p->req;

	memset(aq, 0, sizeof(*aq));
	aq->session = q->relay_run ? p->relay_session : q->session;
	aq->tool = q->tool;
	aq->kind = (enum cordon_kind)cordon_kind_from_name(q->kind);
	aq->command = q->command;
	aq->words = p->plain ? &p->words : NULL;
	aq->exact_only = q->exact_only;
	aq->labels = q->labels;
	aq->path = q->path;
}

static void send_answer(int fd, int answer, bool family)
{
	char line[96];
	size_t n = broker_answer_line(answer, family, line, sizeof(line));

	if (n)
		(void)send(fd, line, n, MSG_NOSIGNAL);
}

static cJSON *answered_json(const char *id, int answer, bool family,
			    const char *by)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "id", id);
	cJSON_AddStringToObject(o, "answer",
				cordon_answer_name((enum cordon_answer)answer));
	cJSON_AddStringToObject(o, "scope", family ? "prefix" : "exact");
	cJSON_AddStringToObject(o, "by", by);
	return o;
}

/* Reads one request line from a door (at most BROKER_LINE_MAX). */
static char *read_line(int fd, size_t *len)
{
	struct buf b = BUF_INIT(BROKER_LINE_MAX + 1);
	char chunk[4096];

	for (;;) {
		ssize_t r = recv(fd, chunk, sizeof(chunk), 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (!buf_add(&b, chunk, (size_t)r))
			break;
		if (memchr(chunk, '\n', (size_t)r))
			return buf_take(&b, len);
	}
	buf_free(&b);
	return NULL;
}

static void unlink_pending(struct pending *p)
{
	for (struct pending **pp = &C.pending; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			C.npending--;
			return;
		}
}

/* One door's ASK, on its own thread: an earlier session grant given here
 * answers at once; otherwise the item waits for an answer, the deadline,
 * or the door going away. */
static void *door_thread(void *arg)
{
	int fd = (int)(intptr_t)arg;
	struct timeval tv = { 5, 0 };
	struct pending *p = NULL;
	struct approvals_query aq;
	char why[256];
	size_t len = 0;
	char *line;
	int g;

	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	line = read_line(fd, &len);
	p = calloc(1, sizeof(*p));
	if (p)
		arena_init(&p->arena, BROKER_LINE_MAX * 8);
	if (!line || !p ||
	    broker_parse_request(line, len, &p->req, why, sizeof(why)) !=
		    CORDON_OK) {
		/* the door reads no answer: it fails closed */
		free(line);
		if (p)
			arena_release(&p->arena);
		free(p);
		goto out;
	}
	free(line);
	p->fd = fd;
	p->answer = -1;
	p->created = wall_ms();
	/* a little before the door's own deadline, so that the door reads
	 * this console's timed_out rather than giving up on its own */
	p->deadline = mono_ms() + (long)p->req.timeout_ms -
		      (p->req.timeout_ms >= 1000 ? 100 : 0);
	if (cli_random_hex(p->id, 16) != 0) {
		broker_request_free(&p->req);
		arena_release(&p->arena);
		free(p);
		goto out;
	}
	if (p->req.relay_run &&
	    asprintf(&p->relay_session, "%s/%s", p->req.relay_run,
		     p->req.session ? p->req.session : "") < 0)
		p->relay_session = NULL;
	if (p->req.relay_run && !p->relay_session) {
		broker_request_free(&p->req);
		arena_release(&p->arena);
		free(p);
		goto out;
	}
	p->segments = segments_of(p->req.command);
	if (p->req.command)
		p->plain = cmdwords_split(&p->arena, NULL, p->req.command,
					  strlen(p->req.command), &p->words);
	query_of(p, &aq);
	/* out of memory: no family, the exact command only */
	(void)approvals_family(&aq, &p->family, &p->family_why);

	pthread_mutex_lock(&C.lock);
	g = approvals_lookup(grants_of(p), &aq, NULL);
	if (g != -1) {
		int a = g == CORDON_ALLOW ? CORDON_ANSWER_ALLOW_SESSION :
					    CORDON_ANSWER_DENY_SESSION;
		send_answer(fd, a, false);
		event_locked("answered",
			     answered_json(p->id, a, false, "session-grant"));
		pthread_mutex_unlock(&C.lock);
		goto done;
	}
	p->next = C.pending;
	C.pending = p;
	C.npending++;
	event_locked("pending", pending_json(p));
	for (;;) {
		long left = p->deadline - mono_ms();
		struct pollfd pf = { .fd = fd, .events = POLLIN | POLLRDHUP };
		struct timespec ts;

		if (p->answer >= 0 || left <= 0 || C.stopping)
			break;
		clock_gettime(CLOCK_REALTIME, &ts);
		long slice = left < 250 ? left : 250;
		ts.tv_nsec += (slice % 1000) * 1000000;
		ts.tv_sec += slice / 1000 + ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&C.changed, &C.lock, &ts);
		if (p->answer >= 0)
			break;
		/* the door gone (it timed out itself, or was killed) */
		if (poll(&pf, 1, 0) > 0) {
			unlink_pending(p);
			cJSON *o = cJSON_CreateObject();
			if (o)
				cJSON_AddStringToObject(o, "id", p->id);
			event_locked("gone", o);
			pthread_mutex_unlock(&C.lock);
			goto done;
		}
	}
	unlink_pending(p);
	if (p->answer >= 0) {
		char note[256];
		send_answer(fd, p->answer, p->answer_family);
		/* the family was checked when the answer came; the
		 * approvals code checks it once more */
		if (p->answer == CORDON_ANSWER_ALLOW_SESSION ||
		    p->answer == CORDON_ANSWER_DENY_SESSION)
			(void)approvals_record(grants_of(p), &aq,
					       (enum cordon_answer)p->answer,
					       p->answer_family ? &p->family :
								  NULL,
					       note, sizeof(note));
	} else {
		/* the deadline, or the console stopping: fail closed */
		send_answer(fd, CORDON_ANSWER_TIMED_OUT, false);
		event_locked("timed_out",
			     answered_json(p->id, CORDON_ANSWER_TIMED_OUT,
					   false, "deadline"));
	}
	pthread_mutex_unlock(&C.lock);
done:
	cJSON_Delete(p->segments);
	broker_request_free(&p->req);
	free(p->relay_session);
	strlist_clear(&p->family);
	arena_release(&p->arena);
	free(p);
out:
	close(fd);
	pthread_mutex_lock(&C.lock);
	C.ndoors--;
	pthread_cond_broadcast(&C.changed);
	pthread_mutex_unlock(&C.lock);
	return NULL;
}

static void *broker_thread(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd pf = { .fd = C.sock_fd, .events = POLLIN };
		pthread_attr_t at;
		pthread_t t;
		int fd;

		if (stop_signal)
			break;
		if (poll(&pf, 1, 200) <= 0)
			continue;
		fd = accept4(C.sock_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		pthread_mutex_lock(&C.lock);
		if (C.ndoors >= CONSOLE_MAX_PENDING || C.stopping) {
			pthread_mutex_unlock(&C.lock);
			close(fd); /* the door fails closed */
			continue;
		}
		C.ndoors++;
		pthread_mutex_unlock(&C.lock);
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &at, door_thread,
				   (void *)(intptr_t)fd)) {
			close(fd);
			pthread_mutex_lock(&C.lock);
			C.ndoors--;
			pthread_mutex_unlock(&C.lock);
		}
		pthread_attr_destroy(&at);
	}
	return NULL;
}

/* ---- HTTP ---------------------------------------------------------------- */

struct request {
	struct buf body;
	bool too_big;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *type, const char *data, size_t len,
			     bool copy)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		len, (void *)data,
		copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(
		r, "Content-Security-Policy",
		"default-src 'none'; script-src 'self'; style-src 'self'; "
		"img-src 'self'; connect-src 'self'; base-uri 'none'; "
		"form-action 'none'; frame-ancestors 'none'");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "Cross-Origin-Resource-Policy",
				"same-origin");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, unsigned status,
				  cJSON *o)
{
	char *js = o ? cJSON_PrintUnformatted(o) : NULL;
	enum MHD_Result ret;

	cJSON_Delete(o);
	if (!js)
		return reply(c, 500, "application/json",
			     "{\"error\":\"out of memory\"}", 25, false);
	ret = reply(c, status, "application/json", js, strlen(js), true);
	free(js);
	return ret;
}

static enum MHD_Result reply_error(struct MHD_Connection *c, unsigned status,
				   const char *msg)
{
	cJSON *o = cJSON_CreateObject();

	if (o)
		cJSON_AddStringToObject(o, "error", msg);
	return reply_json(c, status, o);
}

static bool same_secret(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	return blen && alen == blen && CRYPTO_memcmp(a, b, blen) == 0;
}

/* The token from the Authorization header (*by_cookie false) or the
 * cookie (*by_cookie true); false when neither holds it. */
static bool authorized(struct MHD_Connection *c, bool *by_cookie)
{
	const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						    "Authorization");
	const char *k = MHD_lookup_connection_value(c, MHD_COOKIE_KIND,
						    "cordon_console");

	*by_cookie = false;
	if (h && strncmp(h, "Bearer ", 7) == 0 &&
	    same_secret(h + 7, strlen(h + 7), C.token))
		return true;
	if (k && same_secret(k, strlen(k), C.token)) {
		*by_cookie = true;
		return true;
	}
	return false;
}

/* Host must name this listener; a present Origin too. */
static bool host_ok(struct MHD_Connection *c)
{
	const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");

	return h && (strcmp(h, C.host_a) == 0 || strcmp(h, C.host_b) == 0);
}

static int origin_state(struct MHD_Connection *c)
{
	const char *o =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	const char *s = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						    "Sec-Fetch-Site");

	if (s && strcmp(s, "same-origin") && strcmp(s, "none"))
		return -1;
	if (!o)
		return 0;
	return strcmp(o, C.origin_a) == 0 || strcmp(o, C.origin_b) == 0 ? 1 :
									  -1;
}

static cJSON *parse_body(const struct request *rq)
{
	if (json_nul_escape_at(rq->body.p ? rq->body.p : "", rq->body.len) !=
	    rq->body.len)
		return NULL;
	return cJSON_ParseWithLength(rq->body.p ? rq->body.p : "",
				     rq->body.len);
}

static const char *str_member(const cJSON *o, const char *name)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(m) ? m->valuestring : NULL;
}

/* GET /api/approvals/pending */
static enum MHD_Result api_pending(struct MHD_Connection *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_CreateArray();

	if (!o || !arr) {
		cJSON_Delete(o);
		cJSON_Delete(arr);
		return reply_error(c, 500, "out of memory");
	}
	pthread_mutex_lock(&C.lock);
	for (const struct pending *p = C.pending; p; p = p->next)
		if (p->answer < 0)
			cJSON_AddItemToArray(arr, pending_json(p));
	pthread_mutex_unlock(&C.lock);
	cJSON_AddItemToObject(o, "pending", arr);
	return reply_json(c, 200, o);
}

/* Why p's call cannot be granted for its family, or NULL: the family
 * this console derived, checked again with the approvals code's own
 * refusal. */
static const char *family_refusal(const struct pending *p)
{
	struct approvals_query aq;

	if (!p->family.n)
		return p->family_why ? p->family_why : "there is no family";
	query_of(p, &aq);
	return approvals_amendment_refusal(&p->family, &aq);
}

/* POST /api/approvals/{id} {"answer": NAME, "scope"?: "prefix" | "exact"}.
 * "prefix" (allow_session and allow_always only) grants the family the
 * item shows; without a scope, or with "exact", the exact command. The
 * page names no words: the family is the one this console derived, and
 * it is checked again here (approvals_amendment_refusal) and when it is
 * recorded. */
static enum MHD_Result api_answer(struct MHD_Connection *c, const char *id,
				  const struct request *rq)
{
	cJSON *b = parse_body(rq);
	const char *name = str_member(b, "answer");
	const char *scope = str_member(b, "scope");
	int a = name ? broker_answer_from_name(name, strlen(name)) : -1;
	int members = cJSON_IsObject(b) ? cJSON_GetArraySize(b) : 0;
	bool family = scope && strcmp(scope, "prefix") == 0;
	unsigned status = 404;
	const char *msg = "no such pending approval";
	const char *refused;
	char why[320];
	struct pending *p;

	if (!cJSON_IsObject(b) || members != 1 + (scope != NULL) || a < 0 ||
	    a == CORDON_ANSWER_TIMED_OUT ||
	    (cJSON_GetObjectItemCaseSensitive(b, "scope") && !scope) ||
	    (scope && !family && strcmp(scope, "exact") != 0)) {
		cJSON_Delete(b);
		return reply_error(c, 400,
				   "the body must be {\"answer\": NAME, "
				   "\"scope\"?: \"prefix\" | \"exact\"}, NAME "
				   "one of allow_once, allow_session, "
				   "allow_always, deny_once, deny_session, "
				   "deny_always, abort");
	}
	cJSON_Delete(b);
	if (family && a != CORDON_ANSWER_ALLOW_SESSION &&
	    a != CORDON_ANSWER_ALLOW_ALWAYS)
		return reply_error(c, 400,
				   "\"scope\": \"prefix\" goes with "
				   "allow_session or allow_always only");
	pthread_mutex_lock(&C.lock);
	for (p = C.pending; p; p = p->next)
		if (strcmp(p->id, id) == 0)
			break;
	if (p && p->answer >= 0) {
		status = 409;
		msg = "already answered";
	} else if (p && p->req.risk && strcmp(p->req.risk, "blocked") == 0 &&
		   a <= CORDON_ANSWER_ALLOW_ALWAYS) {
		status = 400;
		msg = "a blocked call cannot be allowed";
	} else if (p && p->req.relay_run &&
		   (a == CORDON_ANSWER_ALLOW_ALWAYS ||
		    a == CORDON_ANSWER_DENY_ALWAYS)) {
		/* a rule written for a sandboxed door would also answer the
		 * host's doors: relayed items last for their run at most */
		status = 400;
		msg = "a call from inside the sandbox of a cordon run takes "
		      "no durable answer: allow_session and deny_session last "
		      "for that run";
	} else if (p && family && (refused = family_refusal(p))) {
		(void)snprintf(why, sizeof(why),
			       "this call can only be granted for the exact "
			       "command: %s",
			       refused);
		status = 400;
		msg = why;
	} else if (p) {
		p->answer = a;
		p->answer_family = family;
		status = 200;
		event_locked("answered",
			     answered_json(p->id, a, family, "console"));
	}
	pthread_mutex_unlock(&C.lock);
	if (status != 200)
		return reply_error(c, status, msg);
	cJSON *o = answered_json(id, a, family, "console");
	return reply_json(c, 200, o);
}

/* POST /api/classify {"command": "...", "cwd"?: "/abs"} */
static enum MHD_Result api_classify(struct MHD_Connection *c,
				    const struct request *rq)
{
	cJSON *b = parse_body(rq);
	const char *cmd = str_member(b, "command");
	const char *cwd = str_member(b, "cwd");
	struct cordon_context ctx = { .cwd = cwd };
	struct cordon_diag diag = { 0 };
	char *js = NULL;
	enum MHD_Result ret;

	if (!cmd || (cwd && cwd[0] != '/')) {
		cJSON_Delete(b);
		return reply_error(c, 400,
				   "the body must be {\"command\": TEXT} "
				   "(and an absolute \"cwd\")");
	}
	pthread_mutex_lock(&C.cls_lock);
	if (cordon_classify(C.cls, &ctx, cmd, strlen(cmd), C.verdict, &diag) ==
	    CORDON_OK)
		js = cordon_verdict_to_json(C.verdict);
	pthread_mutex_unlock(&C.cls_lock);
	cJSON_Delete(b);
	if (!js)
		return reply_error(c, 400,
				   diag.message[0] ? diag.message :
						     "out of memory");
	ret = reply(c, 200, "application/json", js, strlen(js), true);
	free(js);
	return ret;
}

/* The per-request safety settings of /api/check: they may only tighten. */
static int tighten(struct cordon_config *cfg, const cJSON *s, char *why,
		   size_t cap)
{
	static const char *const lists[] = { "denied_paths", "denied_commands",
					     "denied_tools" };
	const cJSON *m;

	if (!s)
		return 0;
	if (!cJSON_IsObject(s)) {
		(void)snprintf(why, cap, "safety: not an object");
		return -1;
	}
	cJSON_ArrayForEach (m, s) {
		size_t i;
		for (i = 0; i < 3; i++)
			if (strcmp(m->string, lists[i]) == 0)
				break;
		if (i < 3) {
			const cJSON *e;
			char key[64];
			if (!cJSON_IsArray(m))
				goto bad;
			(void)snprintf(key, sizeof(key), "safety.%s", lists[i]);
			cJSON_ArrayForEach (e, m) {
				if (!cJSON_IsString(e) ||
				    config_flag_add(cfg, key, e->valuestring))
					goto bad;
			}
		} else if (strcmp(m->string, "read_only") == 0) {
			if (!cJSON_IsBool(m))
				goto bad;
			if (cJSON_IsTrue(m) && config_flag_read_only(cfg))
				goto bad;
		} else if (strcmp(m->string, "permission_mode") == 0) {
			int mode =
				cJSON_IsString(m) ?
					cordon_mode_from_name(m->valuestring) :
					-1;
			if (mode < 0)
				goto bad;
			/* a looser mode than the configuration's is ignored:
			 * the request may only tighten */
			if (mode < (int)config_effective_mode(cfg) &&
			    config_flag_mode(cfg, (enum cordon_mode)mode))
				goto bad;
		} else {
			(void)snprintf(why, cap,
				       "safety.%s: unknown (permission_mode, "
				       "read_only, denied_paths, "
				       "denied_commands, denied_tools)",
				       m->string);
			return -1;
		}
	}
	return 0;
bad:
	(void)snprintf(why, cap, "safety.%s: not a valid value", m->string);
	return -1;
}

/* POST /api/check {"tool", "args"?, "cwd"?, "session"?, "safety"?} */
static enum MHD_Result api_check(struct MHD_Connection *c,
				 const struct request *rq)
{
	cJSON *b = parse_body(rq);
	const char *tool = str_member(b, "tool");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(b, "args");
	struct cordon_config *cfg = NULL;
	struct cordon_policy *pol = NULL;
	struct cordon_result *res = NULL;
	struct cordon_audit *audit = NULL;
	struct cordon_diag diag = { 0 };
	struct cordon_call call = { 0 };
	char *args_text = NULL, *js = NULL;
	char why[256], ap[PATH_MAX];
	unsigned status = 500;
	enum MHD_Result ret;

	if (!tool || (args && !cJSON_IsObject(args))) {
		cJSON_Delete(b);
		return reply_error(c, 400,
				   "the body must be {\"tool\": NAME, "
				   "\"args\": {...}}");
	}
	if (cli_load_config(&cfg, C.config_file, NULL) != 0) {
		(void)snprintf(why, sizeof(why), "the configuration failed");
		goto out;
	}
	if (tighten(cfg, cJSON_GetObjectItemCaseSensitive(b, "safety"), why,
		    sizeof(why)) != 0) {
		status = 400;
		goto out;
	}
	if (args)
		args_text = cJSON_PrintUnformatted(args);
	call.tool = tool;
	call.args_json = args_text;
	call.cwd = str_member(b, "cwd");
	call.session = str_member(b, "session");
	res = cordon_result_new();
	if (!res || cordon_policy_new(cfg, NULL, &pol, &diag) != CORDON_OK) {
		(void)snprintf(why, sizeof(why), "%s", diag.message);
		goto out;
	}
	if (cordon_policy_open_approvals(
		    pol, !cfg->approvals_path && cli_approvals_default_path(
							 ap, sizeof(ap)) == 0 ?
				 ap :
				 NULL) != CORDON_OK) {
		(void)snprintf(why, sizeof(why), "out of memory");
		goto out;
	}
	if (cordon_policy_decide(pol, &call, CORDON_DECIDE_NO_PROMPT, res,
				 &diag) != CORDON_OK) {
		(void)snprintf(why, sizeof(why), "%s", diag.message);
		goto out;
	}
	/* a decision that cannot be recorded is not given */
	if (cli_open_audit(cfg, C.audit_log, &audit) != 0 ||
	    cordon_audit_decision(audit, res, "{\"door\":\"console\"}",
				  &diag) != CORDON_OK) {
		(void)snprintf(why, sizeof(why), "the audit log failed");
		goto out;
	}
	js = cordon_result_to_json(res);
	if (!js)
		goto out;
	status = 200;
	pthread_mutex_lock(&C.lock);
	event_locked("decision", cJSON_Parse(js));
	pthread_mutex_unlock(&C.lock);
out:
	cordon_audit_close(audit);
	cordon_result_free(res);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
	cJSON_Delete(b);
	free(args_text);
	if (status != 200) {
		free(js);
		return reply_error(c, status, why);
	}
	ret = reply(c, 200, "application/json", js, strlen(js), true);
	free(js);
	return ret;
}

static bool field_is(const cJSON *rec, const char *name, const char *want)
{
	const char *v = want ? str_member(rec, name) : NULL;

	return !want || (v && strcmp(v, want) == 0);
}

/* GET /api/audit?limit=N&tool=&decision=&session=&event= */
static enum MHD_Result api_audit(struct MHD_Connection *c)
{
	const char *lim =
		MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "limit");
	const char *f_tool =
		MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "tool");
	const char *f_dec = MHD_lookup_connection_value(
		c, MHD_GET_ARGUMENT_KIND, "decision");
	const char *f_ses = MHD_lookup_connection_value(
		c, MHD_GET_ARGUMENT_KIND, "session");
	const char *f_ev =
		MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "event");
	const char *files[1] = { C.audit_path };
	struct cordon_audit_report rep;
	struct cordon_diag diag = { 0 };
	cJSON *o = cJSON_CreateObject(), *v = cJSON_CreateObject();
	cJSON *recs = cJSON_CreateArray();
	unsigned long limit = 100;
	struct buf b = BUF_INIT(CONSOLE_AUDIT_TAIL + 1);
	int fd;

	if (lim) {
		char *end;
		errno = 0;
		limit = strtoul(lim, &end, 10);
		if (errno || *end || !lim[0] || limit < 1 ||
		    limit > CONSOLE_AUDIT_MAX) {
			cJSON_Delete(o);
			cJSON_Delete(v);
			cJSON_Delete(recs);
			return reply_error(c, 400, "limit: 1 to 1000");
		}
	}
	if (!o || !v || !recs) {
		cJSON_Delete(o);
		cJSON_Delete(v);
		cJSON_Delete(recs);
		return reply_error(c, 500, "out of memory");
	}
	memset(&rep, 0, sizeof(rep));
	cJSON_AddStringToObject(o, "path", C.audit_path);
	if (access(C.audit_path, F_OK) != 0) {
		cJSON_AddBoolToObject(v, "exists", false);
	} else if (cordon_audit_verify(files, 1, &rep, &diag) != CORDON_OK) {
		cJSON_AddBoolToObject(v, "exists", true);
		cJSON_AddStringToObject(v, "error", diag.message);
	} else {
		cJSON_AddBoolToObject(v, "exists", true);
		cJSON_AddBoolToObject(v, "intact", rep.intact);
		cJSON_AddNumberToObject(v, "records", (double)rep.records);
		cJSON_AddStringToObject(v, "head", rep.head);
		cJSON_AddStringToObject(v, "why", rep.why);
		cJSON_AddNumberToObject(v, "badLine", (double)rep.bad_line);
		cJSON_AddStringToObject(v, "notes", rep.notes);
	}
	cJSON_AddItemToObject(o, "verify", v);
	fd = open(C.audit_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			if (st.st_size > (off_t)CONSOLE_AUDIT_TAIL)
				(void)lseek(fd, st.st_size - CONSOLE_AUDIT_TAIL,
					    SEEK_SET);
			(void)atomic_read_all(fd, &b);
		}
		close(fd);
	}
	/* newest first: walk the lines backwards */
	size_t end = b.len, n = 0;
	while (end > 0 && n < limit) {
		size_t start = end;
		while (start > 0 && b.p[start - 1] != '\n')
			start--;
		if (end > start) {
			cJSON *rec =
				cJSON_ParseWithLength(b.p + start, end - start);
			if (cJSON_IsObject(rec) &&
			    field_is(rec, "tool", f_tool) &&
			    field_is(rec, "decision", f_dec) &&
			    field_is(rec, "session", f_ses) &&
			    field_is(rec, "event", f_ev)) {
				cJSON_AddItemToArray(recs, rec);
				n++;
			} else {
				cJSON_Delete(rec);
			}
		}
		end = start ? start - 1 : 0;
	}
	buf_free(&b);
	cJSON_AddItemToObject(o, "records", recs);
	return reply_json(c, 200, o);
}

static const char *pins_file(char *buf, size_t cap)
{
	if (C.pins_path)
		return C.pins_path;
	return pins_default_path(buf, cap) == 0 ? buf : NULL;
}

/* GET /api/mcp/pins: the pending changes with both definitions. */
static enum MHD_Result api_pins_get(struct MHD_Connection *c)
{
	char pb[PATH_MAX];
	const char *path = pins_file(pb, sizeof(pb));
	struct mcp_pins *p = NULL;
	struct cordon_diag diag = { 0 };
	cJSON *o, *arr, *root, *srv;
	char *js;

	if (!path)
		return reply_error(c, 500, "no pins file (mcp.pins_path)");
	if (pins_open(path, &p, &diag) != CORDON_OK)
		return reply_error(c, 500, diag.message);
	js = pins_to_json(p);
	root = js ? cJSON_Parse(js) : NULL;
	free(js);
	o = cJSON_CreateObject();
	arr = cJSON_CreateArray();
	if (!o || !arr || !root) {
		cJSON_Delete(o);
		cJSON_Delete(arr);
		cJSON_Delete(root);
		pins_free(p);
		return reply_error(c, 500, "out of memory");
	}
	cJSON_ArrayForEach (srv,
			    cJSON_GetObjectItemCaseSensitive(root, "servers")) {
		const cJSON *t;
		cJSON_ArrayForEach (
			t, cJSON_GetObjectItemCaseSensitive(srv, "tools")) {
			const cJSON *pend =
				cJSON_GetObjectItemCaseSensitive(t, "pending");
			cJSON *e;
			if (!pend)
				continue;
			e = cJSON_CreateObject();
			if (!e)
				break;
			cJSON_AddStringToObject(e, "server", srv->string);
			cJSON_AddStringToObject(e, "tool", t->string);
			cJSON_AddStringToObject(e, "reason",
						str_member(t, "reason") ?
							str_member(t,
								   "reason") :
							"");
			cJSON_AddItemToObject(
				e, "flags",
				cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
							t, "flags"),
						1));
			cJSON_AddItemToObject(
				e, "approved",
				cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
							t, "definition"),
						1));
			cJSON_AddItemToObject(
				e, "pending",
				cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
							pend, "definition"),
						1));
			cJSON_AddItemToArray(arr, e);
		}
	}
	cJSON_Delete(root);
	pins_free(p);
	cJSON_AddStringToObject(o, "path", path);
	cJSON_AddItemToObject(o, "pending", arr);
	return reply_json(c, 200, o);
}

/* POST /api/mcp/pins {"server": NAME, "tool": TOOL}: approve. */
static enum MHD_Result api_pins_post(struct MHD_Connection *c,
				     const struct request *rq)
{
	cJSON *b = parse_body(rq);
	const char *server = str_member(b, "server");
	const char *tool = str_member(b, "tool");
	char pb[PATH_MAX];
	const char *path = pins_file(pb, sizeof(pb));
	struct mcp_pins *p = NULL;
	struct cordon_diag diag = { 0 };
	size_t n = 0;
	enum cordon_err e;
	cJSON *o;

	if (!server || !tool) {
		cJSON_Delete(b);
		return reply_error(c, 400,
				   "the body must be {\"server\": NAME, "
				   "\"tool\": TOOL}");
	}
	if (!path || pins_open(path, &p, &diag) != CORDON_OK) {
		cJSON_Delete(b);
		return reply_error(c, 500,
				   path ? diag.message : "no pins file");
	}
	e = pins_approve(p, server, tool, &n, &diag);
	pins_free(p);
	if (e != CORDON_OK || n == 0) {
		cJSON_Delete(b);
		return reply_error(c, e == CORDON_E_INVAL || n == 0 ? 404 : 500,
				   diag.message[0] ? diag.message :
						     "nothing pending");
	}
	o = cJSON_CreateObject();
	if (o) {
		cJSON_AddStringToObject(o, "server", server);
		cJSON_AddStringToObject(o, "tool", tool);
		cJSON_AddNumberToObject(o, "approved", (double)n);
	}
	cJSON_Delete(b);
	return reply_json(c, 200, o);
}

/* GET /api/status */
static enum MHD_Result api_status(struct MHD_Connection *c)
{
	char why[2048] = "";
	int best = sandbox_probe(false, why, sizeof(why));
	struct cordon_config *cfg = NULL;
	cJSON *o = cJSON_CreateObject(), *sb = cJSON_CreateObject();
	cJSON *cf = NULL;
	char *cj;

	if (!o || !sb) {
		cJSON_Delete(o);
		cJSON_Delete(sb);
		return reply_error(c, 500, "out of memory");
	}
	cJSON_AddStringToObject(o, "version", CORDON_VERSION);
	cJSON_AddItemToObject(o, "sandbox", sb);
	if (best == SANDBOX_BACKEND_NAMESPACES ||
	    best == SANDBOX_BACKEND_LANDLOCK)
		cJSON_AddStringToObject(sb, "backend",
					best == SANDBOX_BACKEND_NAMESPACES ?
						"namespaces" :
						"landlock");
	else
		cJSON_AddNullToObject(sb, "backend");
	cJSON_AddStringToObject(sb, "enforcement",
				best == SANDBOX_BACKEND_NAMESPACES ? "full" :
				best == SANDBOX_BACKEND_LANDLOCK   ? "partial" :
								     "none");
	cJSON_AddStringToObject(sb, "probe", why);
	pthread_mutex_lock(&C.lock);
	cJSON_AddNumberToObject(o, "pending", (double)C.npending);
	pthread_mutex_unlock(&C.lock);
	cJSON_AddStringToObject(o, "socket", C.sock_path);
	cJSON_AddStringToObject(o, "auditLog", C.audit_path);
	cJSON_AddNumberToObject(o, "timeoutS", C.timeout_s);
	if (cli_load_config(&cfg, C.config_file, NULL) == 0) {
		cj = cordon_config_to_json(cfg, 1);
		cf = cj ? cJSON_Parse(cj) : NULL;
		free(cj);
		cordon_config_free(cfg);
	}
	if (cf) {
		cJSON_AddItemToObject(
			o, "sources",
			cJSON_DetachItemFromObjectCaseSensitive(cf, "sources"));
		cJSON_AddItemToObject(o, "warnings",
				      cJSON_DetachItemFromObjectCaseSensitive(
					      cf, "warnings"));
		cJSON_Delete(cf);
	}
	return reply_json(c, 200, o);
}

/* GET /api/events: Server-Sent Events from the ring, blocking. */
struct sse {
	unsigned long next;
	char *pending; /* what is left of the current event */
	size_t off, len;
};

static ssize_t sse_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct sse *s = cls;

	(void)pos;
	if (!s->pending) {
		struct timespec ts;
		pthread_mutex_lock(&C.lock);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 15;
		while (!C.stopping && s->next >= C.next_seq) {
			if (pthread_cond_timedwait(&C.changed, &C.lock, &ts) ==
			    ETIMEDOUT)
				break;
		}
		if (C.stopping) {
			pthread_mutex_unlock(&C.lock);
			return MHD_CONTENT_READER_END_OF_STREAM;
		}
		if (s->next + CONSOLE_EVENTS < C.next_seq)
			s->next = C.next_seq - CONSOLE_EVENTS;
		if (s->next < C.next_seq) {
			struct event *e = &C.events[s->next % CONSOLE_EVENTS];
			s->pending = e->line ? strdup(e->line) : NULL;
			s->next++;
		}
		pthread_mutex_unlock(&C.lock);
		if (!s->pending)
			s->pending = strdup(": keep-alive\n\n");
		if (!s->pending)
			return MHD_CONTENT_READER_END_WITH_ERROR;
		s->off = 0;
		s->len = strlen(s->pending);
	}
	size_t n = s->len - s->off < max ? s->len - s->off : max;
	memcpy(out, s->pending + s->off, n);
	s->off += n;
	if (s->off == s->len) {
		free(s->pending);
		s->pending = NULL;
	}
	return (ssize_t)n;
}

static void sse_free(void *cls)
{
	struct sse *s = cls;

	free(s->pending);
	free(s);
}

static enum MHD_Result api_events(struct MHD_Connection *c)
{
	struct sse *s = calloc(1, sizeof(*s));
	struct MHD_Response *r;
	enum MHD_Result ret;

	/* A comment at once: Firefox fires the EventSource's open (where the
	 * page loads the list and says "live") at the first bytes of the
	 * body, not at the headers, and the first event may be minutes away. */
	if (s)
		s->pending = strdup(": open\n\n");
	if (!s || !s->pending) {
		free(s);
		return reply_error(c, 500, "out of memory");
	}
	s->len = strlen(s->pending);
	pthread_mutex_lock(&C.lock);
	s->next = C.next_seq; /* from now on: the page loads the list first */
	pthread_mutex_unlock(&C.lock);
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read,
					      s, sse_free);
	if (!r) {
		sse_free(s);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", "text/event-stream");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	ret = MHD_queue_response(c, 200, r);
	MHD_destroy_response(r);
	return ret;
}

/* GET /login?code=ONE-TIME: the cookie, then the page. */
static enum MHD_Result login(struct MHD_Connection *c)
{
	static const char used[] = "this login link is not valid (or was "
				   "used): restart cordon console for a new "
				   "one\n";
	const char *code =
		MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "code");
	char cookie[160];
	struct MHD_Response *r;
	enum MHD_Result ret;
	bool ok;

	pthread_mutex_lock(&C.lock);
	ok = code && same_secret(code, strlen(code), C.login);
	if (ok)
		C.login[0] = '\0'; /* one time */
	pthread_mutex_unlock(&C.lock);
	if (!ok)
		return reply(c, 403, "text/plain; charset=utf-8", used,
			     sizeof(used) - 1, false);
	(void)snprintf(cookie, sizeof(cookie),
		       "cordon_console=%s; HttpOnly; SameSite=Strict; Path=/",
		       C.token);
	r = MHD_create_response_from_buffer(0, (void *)"",
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Set-Cookie", cookie);
	MHD_add_response_header(r, "Location", "/");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	ret = MHD_queue_response(c, 303, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result serve_file(struct MHD_Connection *c, const char *url)
{
	const char *name = strcmp(url, "/") == 0 ? "index.html" : url + 1;

	for (size_t i = 0; i < console_nfiles; i++)
		if (strcmp(console_files[i].name, name) == 0)
			return reply(c, 200, console_files[i].type,
				     (const char *)console_files[i].data,
				     console_files[i].len, false);
	return reply_error(c, 404, "not found");
}

/* The id in /api/approvals/ID (32 characters, no further path), or NULL.
 * Not inlined: GCC at -O2 with ASan reads the inlined bounds against the
 * string literals route() compares url with and warns of an overread. */
static __attribute__((noinline)) const char *approval_id(const char *url)
{
	static const char prefix[] = "/api/approvals/";
	size_t pl = sizeof(prefix) - 1;

	if (strncmp(url, prefix, pl) != 0 || strlen(url + pl) != 32 ||
	    strchr(url + pl, '/'))
		return NULL;
	return url + pl;
}

static enum MHD_Result route(struct MHD_Connection *c, const char *url,
			     const char *method, const struct request *rq)
{
	bool get = strcmp(method, "GET") == 0;
	bool post = strcmp(method, "POST") == 0;
	bool by_cookie;
	int origin;

	if (!host_ok(c))
		return reply_error(c, 403, "Host is not this console");
	origin = origin_state(c);
	if (origin < 0)
		return reply_error(c, 403, "Origin is not this console");
	if (!get && !post)
		return reply_error(c, 405, "only GET and POST");
	if (strncmp(url, "/api/", 5) != 0) {
		if (!get)
			return reply_error(c, 405, "only GET");
		if (strcmp(url, "/login") == 0)
			return login(c);
		if (strcmp(url, "/favicon.ico") == 0)
			return reply(c, 204, "text/plain", "", 0, false);
		return serve_file(c, url);
	}
	if (!authorized(c, &by_cookie))
		return reply_error(c, 401,
				   "needs the token (Authorization: Bearer, "
				   "from console.token) or the login cookie");
	/* a browser's change must say where it comes from */
	if (post && by_cookie && origin != 1)
		return reply_error(c, 403, "a POST by cookie needs Origin");
	if (rq->too_big)
		return reply_error(c, 413, "the body is over 65536 bytes");
	if (get && strcmp(url, "/api/approvals/pending") == 0)
		return api_pending(c);
	if (post && approval_id(url))
		return api_answer(c, approval_id(url), rq);
	if (post && strcmp(url, "/api/classify") == 0)
		return api_classify(c, rq);
	if (post && strcmp(url, "/api/check") == 0)
		return api_check(c, rq);
	if (get && strcmp(url, "/api/events") == 0)
		return api_events(c);
	if (get && strcmp(url, "/api/audit") == 0)
		return api_audit(c);
	if (get && strcmp(url, "/api/mcp/pins") == 0)
		return api_pins_get(c);
	if (post && strcmp(url, "/api/mcp/pins") == 0)
		return api_pins_post(c, rq);
	if (get && strcmp(url, "/api/status") == 0)
		return api_status(c);
	return reply_error(c, 404, "no such endpoint");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct request *rq = *con_cls;

	(void)cls;
	(void)version;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		rq->body = (struct buf)BUF_INIT(CONSOLE_BODY_MAX);
		*con_cls = rq;
		return MHD_YES;
	}
	if (*upload_size) {
		if (!rq->too_big && !buf_add(&rq->body, upload, *upload_size)) {
			rq->too_big = true;
			buf_free(&rq->body);
			rq->body = (struct buf)BUF_INIT(CONSOLE_BODY_MAX);
		}
		*upload_size = 0;
		return MHD_YES;
	}
	return route(c, url, method, rq);
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
		    enum MHD_RequestTerminationCode why)
{
	struct request *rq = *con_cls;

	(void)cls;
	(void)c;
	(void)why;
	if (rq) {
		buf_free(&rq->body);
		free(rq);
		*con_cls = NULL;
	}
}

/* ---- start-up ----------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	stop_signal = 1;
}

/* ADDR:PORT, loopback only, into a bound listening socket. */
static int listen_on(const char *spec)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char host[64];
	const char *colon;
	unsigned long port = 0;
	int fd, one = 1;

	memset(&ss, 0, sizeof(ss));
	if (!spec)
		spec = "127.0.0.1:0";
	colon = strrchr(spec, ':');
	if (!colon || (size_t)(colon - spec) >= sizeof(host)) {
		fprintf(stderr,
			"cordon console: --listen: ADDR:PORT, not '%s'\n",
			spec);
		return -2;
	}
	memcpy(host, spec, (size_t)(colon - spec));
	host[colon - spec] = '\0';
	{
		char *end;
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (errno || *end || !colon[1] || port > 65535) {
			fprintf(stderr,
				"cordon console: --listen: a port 0 to 65535, "
				"not '%s'\n",
				colon + 1);
			return -2;
		}
	}
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		if ((ntohl(s4->sin_addr.s_addr) >> 24) != 127)
			goto not_loopback;
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		sl = sizeof(*s4);
	} else if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		if (!IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr))
			goto not_loopback;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*s6);
	} else {
		goto not_loopback;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* the event stream is small writes: no Nagle delay on them (the
	 * accepted sockets inherit it) */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
		fprintf(stderr, "cordon console: --listen %s: %s\n", spec,
			strerror(errno));
		close(fd);
		return -1;
	}
	C.port = ntohs(ss.ss_family == AF_INET ? s4->sin_port : s6->sin6_port);
	if (ss.ss_family == AF_INET) {
		(void)snprintf(C.host_a, sizeof(C.host_a), "%s:%u", host,
			       C.port);
		(void)snprintf(C.origin_a, sizeof(C.origin_a), "http://%s:%u",
			       host, C.port);
	} else {
		(void)snprintf(C.host_a, sizeof(C.host_a), "[%s]:%u", host,
			       C.port);
		(void)snprintf(C.origin_a, sizeof(C.origin_a), "http://[%s]:%u",
			       host, C.port);
	}
	(void)snprintf(C.host_b, sizeof(C.host_b), "localhost:%u", C.port);
	(void)snprintf(C.origin_b, sizeof(C.origin_b), "http://localhost:%u",
		       C.port);
	return fd;
not_loopback:
	fprintf(stderr,
		"cordon console: --listen: '%s' is not a loopback address "
		"(127.0.0.0/8 or ::1): the console is for this machine only\n",
		host);
	return -2;
}

/* The directory of the socket and the token: made 0700, and it must be
 * ours and not open to others. */
static int own_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		char parent[PATH_MAX];
		char *slash;
		(void)snprintf(parent, sizeof(parent), "%s", dir);
		slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = '\0';
			(void)mkdir(parent, 0700);
		}
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return -1;
	}
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 0077)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

static int open_socket(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd;

	if (strlen(C.sock_path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, C.sock_path, strlen(C.sock_path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* a console already running answers a connect: do not steal its
	 * socket; a stale one (nobody listening) is replaced */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		close(fd);
		errno = EADDRINUSE;
		return -1;
	}
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	(void)unlink(C.sock_path);
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		umask(old);
		close(fd);
		return -1;
	}
	umask(old);
	if (chmod(C.sock_path, 0600) != 0 || listen(fd, 128) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int parse_options(int argc, char **argv, const char **listen_spec)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "config", required_argument, NULL, 'c' },
		{ "audit-log", required_argument, NULL, 'a' },
		{ "pins", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			*listen_spec = optarg;
			break;
		case 'c':
			C.config_file = optarg;
			break;
		case 'a':
			C.audit_log = optarg;
			break;
		case 'p':
			C.pins_path = optarg;
			break;
		case 'h':
			cli_console_usage(stdout);
			return -1;
		default:
			return cli_getopt_error("console", ch, argv);
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("console", argv[optind]);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

int cli_console(int argc, char **argv)
{
	const char *listen_spec = NULL;
	struct cordon_config *cfg = NULL;
	struct MHD_Daemon *d = NULL;
	struct sigaction sa;
	pthread_t bt;
	bool broker_started = false;
	char dir[PATH_MAX], tok[80];
	int rc, status = CLI_EXIT_FAILURE;

	memset(&C, 0, sizeof(C));
	C.sock_fd = C.http_fd = -1;
	pthread_mutex_init(&C.lock, NULL);
	pthread_cond_init(&C.changed, NULL);
	pthread_mutex_init(&C.cls_lock, NULL);
	rc = parse_options(argc, argv, &listen_spec);
	if (rc)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (cli_load_config(&cfg, C.config_file, NULL) != 0)
		return CLI_EXIT_USAGE;
	C.timeout_s = cfg->approvals_timeout_s;
	if (C.audit_log)
		(void)snprintf(C.audit_path, sizeof(C.audit_path), "%s",
			       C.audit_log);
	else if (cfg->audit_path)
		(void)snprintf(C.audit_path, sizeof(C.audit_path), "%s",
			       cfg->audit_path);
	else if (cli_audit_default_path(C.audit_path, sizeof(C.audit_path)))
		C.audit_path[0] = '\0';
	if (!C.pins_path && cfg->mcp_pins_path)
		C.pins_path = strdup(cfg->mcp_pins_path);
	cordon_config_free(cfg);
	cfg = NULL;

	C.http_fd = listen_on(listen_spec);
	if (C.http_fd < 0) {
		status = C.http_fd == -2 ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
		goto out;
	}
	if (broker_path(NULL, dir, sizeof(dir)) != 0 ||
	    broker_path(BROKER_SOCKET_NAME, C.sock_path, sizeof(C.sock_path)) !=
		    0 ||
	    broker_path(BROKER_TOKEN_NAME, C.token_path,
			sizeof(C.token_path)) != 0) {
		fputs("cordon console: no place for the socket and the token "
		      "(XDG_RUNTIME_DIR, XDG_STATE_HOME and HOME are unset or "
		      "relative)\n",
		      stderr);
		goto out;
	}
	if (own_dir(dir) != 0) {
		fprintf(stderr,
			"cordon console: %s: %s (it must be a directory of "
			"this user, mode 0700)\n",
			dir, strerror(errno));
		goto out;
	}
	if (cli_random_hex(C.token, 32) != 0 ||
	    cli_random_hex(C.login, 16) != 0) {
		fputs("cordon console: getrandom failed\n", stderr);
		goto out;
	}
	(void)snprintf(tok, sizeof(tok), "%s\n", C.token);
	if (atomic_write_file(C.token_path, tok, strlen(tok), 0600) != 0) {
		fprintf(stderr, "cordon console: %s: %s\n", C.token_path,
			strerror(errno));
		goto out;
	}
	C.sock_fd = open_socket();
	if (C.sock_fd < 0) {
		fprintf(stderr, "cordon console: %s: %s\n", C.sock_path,
			errno == EADDRINUSE ? "another console is running" :
					      strerror(errno));
		(void)unlink(C.token_path);
		goto out;
	}
	C.cls = cordon_classifier_new(NULL);
	C.verdict = cordon_verdict_new();
	if (!C.cls || !C.verdict ||
	    approvals_open(&C.grants, NULL) != CORDON_OK ||
	    approvals_open(&C.relay_grants, NULL) != CORDON_OK) {
		fputs("cordon console: out of memory\n", stderr);
		goto out_files;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	d = MHD_start_daemon(
		MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD,
		0, NULL, NULL, on_request, NULL, MHD_OPTION_LISTEN_SOCKET,
		C.http_fd, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)CONSOLE_MAX_CONNECTIONS,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128u << 10),
		MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL, MHD_OPTION_END);
	if (!d) {
		fputs("cordon console: the HTTP server did not start\n",
		      stderr);
		goto out_files;
	}
	if (pthread_create(&bt, NULL, broker_thread, NULL) != 0) {
		fputs("cordon console: no broker thread\n", stderr);
		goto out_files;
	}
	broker_started = true;
	printf("cordon console: listening on http://%s/\n", C.host_a);
	printf("cordon console: open http://%s/login?code=%s\n", C.host_a,
	       C.login);
	printf("cordon console: broker socket %s\n", C.sock_path);
	printf("cordon console: token in %s\n", C.token_path);
	fflush(stdout);
	while (!stop_signal)
		pause();
	status = CLI_EXIT_OK;
out_files:
	pthread_mutex_lock(&C.lock);
	C.stopping = true;
	pthread_cond_broadcast(&C.changed);
	pthread_mutex_unlock(&C.lock);
	if (broker_started)
		pthread_join(bt, NULL);
	/* the doors still waiting get timed_out (they fail closed) */
	pthread_mutex_lock(&C.lock);
	while (C.ndoors > 0)
		pthread_cond_wait(&C.changed, &C.lock);
	pthread_mutex_unlock(&C.lock);
	if (d)
		MHD_stop_daemon(d);
	(void)unlink(C.sock_path);
	(void)unlink(C.token_path);
out:
	if (C.sock_fd >= 0)
		close(C.sock_fd);
	if (C.http_fd >= 0 && !d)
		close(C.http_fd);
	approvals_close(&C.grants);
	approvals_close(&C.relay_grants);
	cordon_verdict_free(C.verdict);
	cordon_classifier_free(C.cls);
	for (size_t i = 0; i < CONSOLE_EVENTS; i++)
		free(C.events[i].line);
	return status;
}

#endif
