/* broker — the door's side of the console broker, and the request parser
 * the console uses (see broker.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/un.h>

#include "alloc.h"
#include "atomic.h"
#include "broker.h"
#include "json.h"
#include "policy.h"
#include "text.h"
#include "unixmsg.h"

#include "banned.h"

int broker_path(const char *name, char *buf, size_t cap)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	int w;

	if (rt && rt[0] == '/') {
		w = name ? snprintf(buf, cap, "%s/cordon/%s", rt, name) :
			   snprintf(buf, cap, "%s/cordon", rt);
		return w < 0 || (size_t)w >= cap ? -1 : 0;
	}
	return atomic_state_path(NULL, name, buf, cap);
}

/* ---- the request line --------------------------------------------------- */

/* s redacted as a JSON string item (NULL s: JSON null). */
static cJSON *redacted_string(const char *s)
{
	char *out = NULL;
	size_t n = 0;
	cJSON *item;

	if (!s)
		return cJSON_CreateNull();
	if (cordon_redact(s, strlen(s), &out, &n, NULL) != CORDON_OK)
		return NULL;
	item = json_clean_string(out, n);
	free(out);
	return item;
}

/* The arguments, redacted: the JSON again when redaction kept it JSON, else
 * the redacted text as a string. */
static cJSON *redacted_args(const char *args)
{
	char *out = NULL;
	size_t n = 0;
	cJSON *item;

	if (!args)
		args = "{}";
	if (cordon_redact(args, strlen(args), &out, &n, NULL) != CORDON_OK)
		return NULL;
	item = cJSON_ParseWithLength(out, n);
	if (!item)
		item = json_clean_string(out, n);
	free(out);
	return item;
}

static bool add(cJSON *o, const char *name, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObject(o, name, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static cJSON *string_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* o as one line: unformatted JSON, a newline, a NUL (malloc'd); *len
 * (may be NULL) its length without the NUL. NULL when out of memory. */
static char *print_line(const cJSON *o, size_t *len)
{
	char *text = cJSON_PrintUnformatted(o), *line = NULL;
	size_t n;

	if (!text)
		return NULL;
	n = strlen(text);
	line = cordon__malloc(n + 2);
	if (line) {
		memcpy(line, text, n);
		line[n] = '\n';
		line[n + 1] = '\0';
		if (len)
			*len = n + 1;
	}
	free(text);
	return line;
}

char *broker_request_line(const struct broker_ask *a, size_t *len)
{
	const struct cordon_result *r = a->asked;
	int risk = cordon_result_risk(r);
	cJSON *o = cJSON_CreateObject();
	char *line;
	bool ok;

	if (!o)
		return NULL;
	ok = add(o, "v", cJSON_CreateNumber(1)) &&
	     add(o, "door", cJSON_CreateString(a->door ? a->door : "")) &&
	     add(o, "tool",
		 json_clean_string(cordon_result_tool(r),
				   strlen(cordon_result_tool(r)))) &&
	     add(o, "kind",
		 cJSON_CreateString(cordon_kind_name(cordon_result_kind(r)))) &&
	     add(o, "args", redacted_args(cordon_result_args(r))) &&
	     add(o, "command", redacted_string(cordon_result_command(r))) &&
	     add(o, "path",
		 r->path && r->path[0] ?
			 json_clean_string(r->path, strlen(r->path)) :
			 cJSON_CreateNull()) &&
	     add(o, "risk",
		 risk >= 0 ? cJSON_CreateString(
				     cordon_risk_name((enum cordon_risk)risk)) :
			     cJSON_CreateNull()) &&
	     add(o, "labels",
		 json_labels_array(risk >= 0 ? cordon_result_labels(r) : 0)) &&
	     add(o, "reason", redacted_string(cordon_result_reason(r))) &&
	     add(o, "session", string_or_null(cordon_result_session(r))) &&
	     add(o, "exactOnly", cJSON_CreateBool(r->exact_only)) &&
	     add(o, "sandbox",
		 cJSON_CreateString(a->sandbox ? a->sandbox : "unknown")) &&
	     add(o, "timeoutMs", cJSON_CreateNumber(a->timeout_ms));
	line = ok ? print_line(o, len) : NULL;
	cJSON_Delete(o);
	return line;
}

/* ---- asking ------------------------------------------------------------- */

/* why = what + detail. */
static enum cordon_answer nobody(char *why, size_t cap, const char *what,
				 const char *detail)
{
	if (why && cap)
		(void)snprintf(why, cap, "%s%s", what, detail);
	return POLICY_ANSWER_NOBODY;
}

/* Waits on fd for the answer line until deadline (monotonic ms). A
 * relay's refusal ("refused: WHY") is said in why. */
static enum cordon_answer await_answer(int fd, long deadline, bool *family,
				       char *why, size_t whycap)
{
	char reply[512];
	size_t got = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long left = deadline - unixmsg_mono_ms();
		ssize_t r;
		int pr;
		char *nl;

		if (left <= 0)
			return CORDON_ANSWER_TIMED_OUT;
		pr = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return nobody(why, whycap, "waiting for the console: ",
				      strerror(errno));
		if (pr == 0)
			continue;
		r = recv(fd, reply + got, sizeof(reply) - 1 - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return nobody(why, whycap,
				      "the console went away before it "
				      "answered",
				      "");
		got += (size_t)r;
		nl = memchr(reply, '\n', got);
		if (!nl && got < sizeof(reply) - 1)
			continue;
		reply[nl ? (size_t)(nl - reply) : got] = '\0';
		if (strncmp(reply, "refused: ", 9) == 0) {
			char q[TEXT_QUOTE_CAP];
			size_t n = strlen(reply + 9);

			return nobody(why, whycap,
				      "the cordon run outside the sandbox "
				      "refused the call: ",
				      text_quote(reply + 9, n, q));
		}
		int v = broker_parse_answer(
			reply, nl ? (size_t)(nl - reply) : got, family);
		if (v < 0)
			return nobody(why, whycap,
				      "the console's answer was not one of "
				      "the answers",
				      "");
		return (enum cordon_answer)v;
	}
}

enum cordon_answer broker_ask(const char *sock_path, const struct broker_ask *a,
			      bool *family, char *why, size_t whycap)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = 0, off = 0;
	long deadline = unixmsg_mono_ms() + (long)a->timeout_ms;
	char *line = NULL;
	enum cordon_answer ans;
	int fd;

	if (family)
		*family = false;
	if (!sock_path || strlen(sock_path) >= sizeof(sa.sun_path))
		return nobody(why, whycap,
			      "no console: the socket path does not fit", "");
	memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return nobody(why, whycap, "no console: ", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		ans = nobody(why, whycap,
			     "no console is running (cordon console): ",
			     strerror(errno));
		goto out;
	}
	line = broker_request_line(a, &len);
	if (!line) {
		ans = nobody(why, whycap, "out of memory", "");
		goto out;
	}
	while (off < len) {
		ssize_t w = send(fd, line + off, len - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ans = nobody(why, whycap,
				     "the console did not take the call: ",
				     strerror(errno));
			goto out;
		}
		off += (size_t)w;
	}
	ans = await_answer(fd, deadline, family, why, whycap);
out:
	free(line);
	close(fd);
	return ans;
}

enum cordon_answer broker_ask_relay(int fd, const struct broker_ask *a,
				    bool *family, char *why, size_t whycap)
{
	long deadline = unixmsg_mono_ms() + (long)a->timeout_ms;
	size_t len = 0;
	char *line;
	enum cordon_answer ans;
	int sp[2], e;

	if (family)
		*family = false;
	line = broker_request_line(a, &len);
	if (!line)
		return nobody(why, whycap, "out of memory", "");
	if (len > BROKER_RELAY_MAX) {
		free(line);
		return nobody(why, whycap,
			      "the call is over the broker relay's 128 KiB "
			      "(BROKER_RELAY_MAX)",
			      "");
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0) {
		free(line);
		return nobody(why, whycap,
			      "broker relay: socketpair: ", strerror(errno));
	}
	/* bounded by the deadline: whoever else holds the relay's socket
	 * inside can fill its queue */
	e = unixmsg_send_until(fd, line, len, sp[1], deadline);
	close(sp[1]);
	free(line);
	if (e == ETIMEDOUT)
		ans = CORDON_ANSWER_TIMED_OUT;
	else if (e)
		ans = nobody(why, whycap,
			     "cannot reach the cordon run outside the "
			     "sandbox (broker relay): ",
			     strerror(e));
	else
		ans = await_answer(sp[0], deadline, family, why, whycap);
	close(sp[0]);
	return ans;
}

/* ---- reading ------------------------------------------------------------ */

int broker_answer_from_name(const char *name, size_t n)
{
	for (int a = 0; a <= CORDON_ANSWER_TIMED_OUT; a++) {
		const char *s = cordon_answer_name((enum cordon_answer)a);
		if (strlen(s) == n && memcmp(s, name, n) == 0)
			return a;
	}
	return -1;
}

size_t broker_answer_line(int answer, bool family, char *buf, size_t cap)
{
	int n;

	if (answer < 0 || answer > CORDON_ANSWER_TIMED_OUT)
		return 0;
	n = snprintf(buf, cap, "{\"answer\":\"%s\"%s}\n",
		     cordon_answer_name((enum cordon_answer)answer),
		     family ? ",\"scope\":\"prefix\"" : "");
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

int broker_parse_answer(const char *s, size_t n, bool *family)
{
	const cJSON *ans = NULL, *scope = NULL;
	cJSON *o;
	int v = -1;

	if (family)
		*family = false;
	if (n > 4096 || json_nul_escape_at(s, n) != n)
		return -1;
	o = cJSON_ParseWithLength(s, n);
	if (!cJSON_IsObject(o))
		goto out;
	for (const cJSON *c = o->child; c; c = c->next) {
		const cJSON **slot = strcmp(c->string, "answer") == 0 ? &ans :
				     strcmp(c->string, "scope") == 0  ? &scope :
									NULL;
		if (!slot || *slot || !cJSON_IsString(c))
			goto out; /* unknown, duplicate, not a string */
		*slot = c;
	}
	if (!ans)
		goto out;
	v = broker_answer_from_name(ans->valuestring, strlen(ans->valuestring));
	if (v < 0 || !scope)
		goto out;
	if (strcmp(scope->valuestring, "prefix") == 0 &&
	    (v == CORDON_ANSWER_ALLOW_SESSION ||
	     v == CORDON_ANSWER_ALLOW_ALWAYS)) {
		if (family)
			*family = true;
	} else if (strcmp(scope->valuestring, "exact") != 0) {
		v = -1; /* a scope that is not one, or a family for a no */
	}
out:
	cJSON_Delete(o);
	return v;
}

void broker_request_free(struct broker_request *r)
{
	free(r->door);
	free(r->tool);
	free(r->kind);
	free(r->command);
	free(r->path);
	free(r->risk);
	free(r->reason);
	free(r->session);
	free(r->sandbox);
	free(r->relay_run);
	free(r->relay_command);
	cJSON_Delete(r->args);
	memset(r, 0, sizeof(*r));
}

enum member_type { M_STR, M_STR_NULL, M_BOOL, M_NUM, M_ANY, M_LABELS, M_RELAY };

/* The tier called name, or -1. */
static int risk_from_name(const char *name)
{
	for (int t = CORDON_RISK_SAFE; t <= CORDON_RISK_BLOCKED; t++)
		if (strcmp(name, cordon_risk_name((enum cordon_risk)t)) == 0)
			return t;
	return -1;
}

static const struct member {
	const char *name;
	enum member_type type;
	size_t off; /* char * members; (size_t)-1 for the others */
	size_t max; /* strings: bytes */
	bool optional; /* false: required */
} members[] = {
#define SOFF(f) offsetof(struct broker_request, f)
	{ "v", M_NUM, (size_t)-1, 0, false },
	{ "door", M_STR, SOFF(door), 32, false },
	{ "tool", M_STR, SOFF(tool), 1024, false },
	{ "kind", M_STR, SOFF(kind), 16, false },
	{ "args", M_ANY, (size_t)-1, 0, false },
	{ "command", M_STR_NULL, SOFF(command), BROKER_LINE_MAX, false },
	{ "path", M_STR_NULL, SOFF(path), 4096, false },
	{ "risk", M_STR_NULL, SOFF(risk), 16, false },
	{ "labels", M_LABELS, (size_t)-1, 0, false },
	{ "reason", M_STR, SOFF(reason), 4096, false },
	{ "session", M_STR_NULL, SOFF(session), 256, false },
	{ "exactOnly", M_BOOL, (size_t)-1, 0, false },
	{ "sandbox", M_STR, SOFF(sandbox), 16, false },
	{ "timeoutMs", M_NUM, (size_t)-1, 0, false },
	{ "relay", M_RELAY, (size_t)-1, 0, true },
#undef SOFF
};
#define NMEMBERS (sizeof(members) / sizeof(members[0]))

static enum cordon_err bad(char *why, size_t cap, const char *what,
			   const char *name)
{
	if (why && cap)
		(void)snprintf(why, cap, "%s%s%s", name ? name : "",
			       name ? ": " : "", what);
	return CORDON_E_PARSE;
}

/* The "relay" member: {"run": ID, "command": "..."}, nothing else. */
static enum cordon_err take_relay(const cJSON *c, struct broker_request *r,
				  char *why, size_t cap)
{
	const cJSON *run = NULL, *cmd = NULL;

	if (!cJSON_IsObject(c))
		return bad(why, cap, "not an object", "relay");
	for (const cJSON *m = c->child; m; m = m->next) {
		const cJSON **slot = strcmp(m->string, "run") == 0     ? &run :
				     strcmp(m->string, "command") == 0 ? &cmd :
									 NULL;
		if (!slot || *slot || !cJSON_IsString(m))
			return bad(why, cap,
				   "must be {\"run\": ID, \"command\": "
				   "TEXT}",
				   "relay");
		*slot = m;
	}
	if (!run || !cmd || strlen(run->valuestring) != BROKER_RELAY_ID_LEN ||
	    strspn(run->valuestring, "0123456789abcdef") !=
		    BROKER_RELAY_ID_LEN ||
	    strlen(cmd->valuestring) > BROKER_RELAY_COMMAND_MAX)
		return bad(why, cap,
			   "must be {\"run\": 32 hex digits, \"command\": "
			   "at most 1024 bytes}",
			   "relay");
	r->relay_run = cordon__strndup(run->valuestring, BROKER_RELAY_ID_LEN);
	r->relay_command =
		cordon__strndup(cmd->valuestring, strlen(cmd->valuestring));
	return r->relay_run && r->relay_command ? CORDON_OK : CORDON_E_NOMEM;
}

/* One member into r; CORDON_OK or an error with why. */
static enum cordon_err take(const struct member *m, const cJSON *c,
			    struct broker_request *r, char *why, size_t cap)
{
	switch (m->type) {
	case M_NUM:
		if (!cJSON_IsNumber(c))
			return bad(why, cap, "not a number", m->name);
		if (strcmp(m->name, "v") == 0) {
			if (c->valuedouble != 1)
				return bad(why, cap, "version must be 1",
					   m->name);
		} else {
			if (!(c->valuedouble >= 0 &&
			      c->valuedouble <= 86400000.0))
				return bad(why, cap,
					   "out of range (0 to 86400000)",
					   m->name);
			r->timeout_ms = (unsigned)c->valuedouble;
		}
		return CORDON_OK;
	case M_BOOL:
		if (!cJSON_IsBool(c))
			return bad(why, cap, "not a boolean", m->name);
		r->exact_only = cJSON_IsTrue(c);
		return CORDON_OK;
	case M_RELAY:
		return take_relay(c, r, why, cap);
	case M_ANY:
		r->args = cJSON_Duplicate(c, 1);
		return r->args ? CORDON_OK : CORDON_E_NOMEM;
	case M_LABELS: {
		const cJSON *e;
		if (!cJSON_IsArray(c))
			return bad(why, cap, "not an array", m->name);
		cJSON_ArrayForEach (e, c) {
			int b;
			if (!cJSON_IsString(e))
				return bad(why, cap, "not a label name",
					   m->name);
			b = cordon_label_from_name(e->valuestring,
						   strlen(e->valuestring));
			if (b < 0)
				return bad(why, cap, "unknown label", m->name);
			r->labels |= UINT64_C(1) << b;
		}
		return CORDON_OK;
	}
	case M_STR:
	case M_STR_NULL: {
		char **dst = (char **)((char *)r + m->off);
		size_t n;
		if (m->type == M_STR_NULL && cJSON_IsNull(c))
			return CORDON_OK;
		if (!cJSON_IsString(c))
			return bad(why, cap, "not a string", m->name);
		n = strlen(c->valuestring);
		if (n > m->max)
			return bad(why, cap, "too long", m->name);
		*dst = cordon__strndup(c->valuestring, n);
		return *dst ? CORDON_OK : CORDON_E_NOMEM;
	}
	}
	return CORDON_E_PARSE;
}

enum cordon_err broker_parse_request(const char *s, size_t n,
				     struct broker_request *out, char *why,
				     size_t whycap)
{
	bool seen[NMEMBERS] = { false };
	enum cordon_err e = CORDON_OK;
	cJSON *o;

	memset(out, 0, sizeof(*out));
	if (why && whycap)
		why[0] = '\0';
	if (n > BROKER_LINE_MAX) {
		if (why && whycap)
			(void)snprintf(why, whycap,
				       "the request is over %u bytes",
				       BROKER_LINE_MAX);
		return CORDON_E_LIMIT;
	}
	if (n && s[n - 1] == '\n')
		n--;
	if (json_nul_escape_at(s, n) != n || memchr(s, '\0', n))
		return bad(why, whycap, "a NUL in the request", NULL);
	o = cJSON_ParseWithLength(s, n);
	if (!o) {
		/* cJSON fails on allocation too: tell them apart as the
		 * other readers do, by a second look being pointless; call
		 * it a parse error, which fails closed all the same. */
		return bad(why, whycap, "not JSON", NULL);
	}
	if (!cJSON_IsObject(o)) {
		e = bad(why, whycap, "not a JSON object", NULL);
		goto out;
	}
	for (const cJSON *c = o->child; c && !e; c = c->next) {
		size_t i;
		for (i = 0; i < NMEMBERS; i++)
			if (strcmp(c->string, members[i].name) == 0)
				break;
		if (i == NMEMBERS) {
			e = bad(why, whycap, "unknown member", c->string);
			break;
		}
		if (seen[i]) {
			e = bad(why, whycap, "duplicate member", c->string);
			break;
		}
		seen[i] = true;
		e = take(&members[i], c, out, why, whycap);
	}
	for (size_t i = 0; !e && i < NMEMBERS; i++)
		if (!seen[i] && !members[i].optional)
			e = bad(why, whycap, "missing", members[i].name);
	if (!e && cordon_kind_from_name(out->kind) < 0)
		e = bad(why, whycap, "unknown kind", "kind");
	if (!e && out->risk && risk_from_name(out->risk) < 0)
		e = bad(why, whycap, "unknown tier", "risk");
	if (!e && strcmp(out->sandbox, "full") &&
	    strcmp(out->sandbox, "partial") && strcmp(out->sandbox, "none") &&
	    strcmp(out->sandbox, "unknown"))
		e = bad(why, whycap, "not full, partial, none or unknown",
			"sandbox");
out:
	cJSON_Delete(o);
	if (e)
		broker_request_free(out);
	return e;
}

/* ---- the relay's judge -------------------------------------------------- */

/* The doors that hand over ASKs (cli_broker_attach's callers). */
static const char *const relay_doors[] = { "mcp", "hook", "check" };

static enum cordon_err refuse(char *why, size_t cap, enum cordon_err e,
			      const char *msg)
{
	if (why && cap)
		(void)snprintf(why, cap, "%s", msg);
	return e;
}

/* o's member name set to item (taken, as add takes it): removed and
 * added, not replaced (cJSON's replace does not check the copy of the
 * name it makes: a member named NULL, printed ""). */
static bool replace_member(cJSON *o, const char *name, cJSON *item)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, name);
	return add(o, name, item);
}

/* A tool's name: letters, digits and _ - . : / @ + (what the doors name
 * tools with: Bash, mcp__server__tool), 1 to 256 bytes. */
static bool relay_tool_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 256)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && !memchr("_-.:/@+", c, 7))
			return false;
	}
	return true;
}

/* What the card shows of q as text that is not to be shown: the member
 * that holds a control, a bidi control or a line separator, or NULL. */
static const char *relay_unshowable(const struct broker_request *q)
{
	if (q->session && text_unshowable_at(q->session, strlen(q->session)) !=
				  strlen(q->session))
		return "session";
	if (text_unshowable_at(q->reason, strlen(q->reason)) !=
	    strlen(q->reason))
		return "reason";
	return NULL;
}

/* The tier and labels the card shows for q: the run's classification of
 * the command (a door's claim can raise the tier and add labels, never
 * lower or take away); without a command (or a classifier) none: the
 * claim is dropped. */
static enum cordon_err relay_judged(cJSON *o, const struct broker_request *q,
				    const struct broker_relay_run *run)
{
	cJSON *risk, *labels;
	uint64_t l = 0;

	if (q->command && run->cls && run->verdict) {
		struct cordon_diag diag = { 0 };
		int t, claim = q->risk ? risk_from_name(q->risk) : -1;

		if (cordon_classify(run->cls, NULL, q->command,
				    strlen(q->command), run->verdict,
				    &diag) == CORDON_E_NOMEM)
			return CORDON_E_NOMEM;
		t = (int)cordon_verdict_risk(run->verdict);
		l = cordon_verdict_labels(run->verdict) | q->labels;
		risk = cJSON_CreateString(cordon_risk_name(
			(enum cordon_risk)(claim > t ? claim : t)));
	} else {
		risk = cJSON_CreateNull();
	}
	labels = json_labels_array(l);
	bool a = replace_member(o, "risk", risk);
	bool b = replace_member(o, "labels", labels);

	return a && b ? CORDON_OK : CORDON_E_NOMEM;
}

/* The request o (checked) as the console gets it: the run's sandbox, the
 * deadline cut, "relay" added. */
static enum cordon_err relay_rewrite(cJSON *o, unsigned t,
				     const struct broker_relay_run *run)
{
	cJSON *rel = cJSON_CreateObject();

	if (rel &&
	    (!add(rel, "run", cJSON_CreateString(run->id)) ||
	     !add(rel, "command",
		  json_clean_string(run->command,
				    strnlen(run->command,
					    BROKER_RELAY_COMMAND_MAX))))) {
		cJSON_Delete(rel);
		rel = NULL;
	}
	bool a = replace_member(o, "sandbox",
				cJSON_CreateString(run->sandbox ? run->sandbox :
								  "unknown"));
	bool b = replace_member(o, "timeoutMs", cJSON_CreateNumber(t));
	bool c = add(o, "relay", rel);

	return a && b && c ? CORDON_OK : CORDON_E_NOMEM;
}

enum cordon_err broker_relay_judge(const char *msg, size_t len,
				   const struct broker_relay_run *run,
				   char **out, size_t *outlen,
				   unsigned *timeout_ms, char *why,
				   size_t whycap)
{
	struct broker_request q;
	enum cordon_err e;
	bool door = false;
	const char *bad;
	cJSON *o = NULL;

	*out = NULL;
	*outlen = 0;
	*timeout_ms = 0;
	if (len == 0)
		return refuse(why, whycap, CORDON_E_PARSE, "empty");
	if (len > BROKER_RELAY_MAX)
		return refuse(why, whycap, CORDON_E_LIMIT,
			      "over the broker relay's 128 KiB "
			      "(BROKER_RELAY_MAX)");
	if (!text_utf8_valid(msg, len, false))
		return refuse(why, whycap, CORDON_E_PARSE, "not UTF-8 text");
	e = broker_parse_request(msg, len, &q, why, whycap);
	if (e)
		return e;
	for (size_t i = 0; i < sizeof(relay_doors) / sizeof(relay_doors[0]);
	     i++)
		if (strcmp(q.door, relay_doors[i]) == 0)
			door = true;
	if (!door)
		e = refuse(why, whycap, CORDON_E_INVAL,
			   "door: not mcp, hook or check");
	else if (q.relay_run)
		e = refuse(why, whycap, CORDON_E_INVAL,
			   "relay: a call from inside the sandbox cannot say "
			   "which run relays it");
	else if (!relay_tool_name(q.tool))
		e = refuse(why, whycap, CORDON_E_INVAL,
			   "tool: not a name (1 to 256 letters, digits and "
			   "_ - . : / @ +)");
	else if ((bad = relay_unshowable(&q))) {
		text_setf(why, whycap,
			  "%s: a control, bidi control or line separator "
			  "character",
			  bad);
		e = CORDON_E_INVAL;
	}
	if (!e) {
		o = cJSON_ParseWithLength(msg, len);
		*timeout_ms = q.timeout_ms < run->max_timeout_ms ?
				      q.timeout_ms :
				      run->max_timeout_ms;
		e = o ? relay_rewrite(o, *timeout_ms, run) : CORDON_E_NOMEM;
		if (!e)
			e = relay_judged(o, &q, run);
	}
	if (!e && !(*out = print_line(o, outlen)))
		e = CORDON_E_NOMEM;
	if (e == CORDON_E_NOMEM)
		(void)refuse(why, whycap, e, "out of memory");
	cJSON_Delete(o);
	broker_request_free(&q);
	return e;
}
