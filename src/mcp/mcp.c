/* mcp — the MCP stdio gateway (see mcp.h for what it inspects).
 *
 * One process, one poll loop, no threads: the client is our stdin and
 * stdout, the server a child with two pipes (its stderr is ours). Lines
 * are cut by two framers; each line is parsed once, handled, and either
 * passed on as the bytes that came in, answered by the gateway, changed
 * (a tools/list answer with pending tools hidden), consumed (the answers
 * to the gateway's own tools/list) or dropped. Requests in flight are
 * kept by id (the id's exact bytes) so their answers are recognised and so
 * that, when the server dies, each gets an error answer. What each side
 * is sent waits in a bounded queue: over MCP_OUT_HIGH the side that feeds
 * it is not read until it drains, so a client that does not read cannot
 * make the gateway buffer the server's output without end.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "diag.h"
#include "jsonrpc.h"
#include "json.h"
#include "mcp.h"
#include "pins.h"
#include "mcpscan.h"
#include "sandbox.h"

#include "alloc.h"
#include "banned.h"

#define MCP_OUT_HIGH ((size_t)4 << 20) /* a queue over this pauses reads */
#define MCP_READ_CHUNK 65536
#define MCP_MAX_PENDING 10000 /* requests in flight */
#define MCP_MAX_GW_PAGES 1000 /* pages of one gateway tools/list */
#define MCP_MAX_NOTED 4096 /* pending pins audited once a session */
#define MCP_KILL_AFTER_MS 5000 /* after the client's EOF, or a SIGTERM */
#define MCP_SWEEP_MS 30000 /* a sandboxed run's end, once its tree is killed */
#define MCP_HOLD_MS 10000 /* calls wait this long for a re-list */
#define MCP_MAX_HELD 1000 /* calls waiting for it */
#define MCP_MAX_HELD_BYTES ((size_t)16 << 20) /* their lines' bytes */
#define MCP_BUCKETS 4096
#define MCP_ERR_SERVER_GONE (-32000)

/* A queue of bytes for one side. */
struct obuf {
	char *buf;
	size_t off; /* sent up to here */
	size_t len; /* filled up to here */
	size_t cap;
};

enum req_kind {
	REQ_OTHER = 0,
	REQ_INITIALIZE,
	REQ_TOOLS_LIST,
	REQ_GW_LIST, /* the gateway's own tools/list */
};

/* A request in flight to the server. */
struct req {
	struct req *hnext; /* hash chain */
	struct req *prev, *next; /* all requests, oldest first */
	enum req_kind kind;
	bool first_page; /* tools/list without a cursor */
	/* REQ_GW_LIST: the server was known at page 1 (from page 2 on), and
	 * the pages so far */
	bool known;
	unsigned page;
	unsigned long gen; /* REQ_GW_LIST: of listing gw_gen */
	char key[sizeof(((struct jsonrpc_msg *)0)->id_key)];
	size_t id_raw_len;
	char id_raw[]; /* the id's bytes as the client wrote */
};

/* A client line held back while the gateway re-lists the tools. */
struct held {
	struct held *next;
	size_t len;
	char line[];
};

struct gw {
	const struct mcp_gateway_opts *o;
	struct jsonrpc_limits lim;
	struct cordon_diag *diag;
	int cin, cout; /* the client */
	int sin, sout; /* the server's stdin (we write), stdout (we read) */
	pid_t pid;
	int pidfd;
	int cout_flags; /* restored at the end; -1: untouched */
	bool cout_nb; /* cout is non-blocking */
	struct jsonrpc_framer cf, sf;
	struct obuf to_client, to_server;
	struct req *tab[MCP_BUCKETS];
	struct req *oldest, *newest;
	size_t npending;
	unsigned long gw_seq;
	bool gw_listing; /* a gateway tools/list is in flight */
	unsigned long gw_gen; /* the gateway's listings so far */
	long hold_until; /* while it is, calls wait until then (ms) */
	struct held *held, *held_tail;
	size_t nheld, held_bytes;
	bool gw_relist; /* list_changed came during it */
	bool client_known; /* the client's listing: server known at page 1 */
	bool client_known_set;
	/* Until one listing has been seen whole, every listing of the session
	 * counts as what the server was when the first page came (the
	 * gateway's own listing and the client's overlap at the start; the
	 * pages of both are one first use). */
	bool first_done;
	bool start_known, start_known_set;
	/* The client sent notifications/initialized: the gateway lists the
	 * tools itself, so pins are checked even if the client never lists. */
	bool want_list;
	bool no_tools; /* initialize said the server has no tools */
	bool client_eof, client_gone, server_eof, exited;
	int status;
	long kill_at_ms; /* after the client's EOF; 0: not armed */
	bool killed;
	long hard_kill_at_ms; /* a sandboxed run that did not end; 0: none */
	int sfd; /* SIGTERM, SIGINT, SIGHUP of the gateway; -1: none */
	int stop_sig; /* the first of them taken: the gateway exits so */
	sigset_t oldmask; /* the caller's, for the server */
	struct mcp_pins *pins; /* o->pins */
	struct cordon_result *res;
	char **noted; /* "tool\n<fingerprint>" audited as pending */
	size_t nnoted;
};

/* ---- small things -------------------------------------------------------- */

__attribute__((format(printf, 2, 3))) static void note(const struct gw *g,
						       const char *fmt, ...)
{
	char buf[768];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "cordon mcp (%s): ", g->o->name);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	(void)vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	n = (int)strlen(buf);
	if ((size_t)n + 1 >= sizeof(buf))
		n = (int)sizeof(buf) - 2; /* cut: room for the newline */
	buf[n++] = '\n';
	(void)!write(2, buf, (size_t)n);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Appends data[0..n) to q; false when out of memory. */
static bool obuf_add(struct obuf *q, const char *data, size_t n)
{
	if (q->off && q->off == q->len)
		q->off = q->len = 0;
	if (n > q->cap - q->len) {
		size_t live = q->len - q->off, cap = q->cap ? q->cap : 4096;
		char *nb;

		if (q->off && live + n <= q->cap) {
			memmove(q->buf, q->buf + q->off, live);
			q->off = 0;
			q->len = live;
		} else {
			while (cap < live + n) {
				if (cap > SIZE_MAX / 2)
					return false;
				cap *= 2;
			}
			nb = cordon__malloc(cap);
			if (!nb)
				return false;
			if (live)
				memcpy(nb, q->buf + q->off, live);
			free(q->buf);
			q->buf = nb;
			q->cap = cap;
			q->off = 0;
			q->len = live;
		}
	}
	memcpy(q->buf + q->len, data, n);
	q->len += n;
	return true;
}

static size_t obuf_live(const struct obuf *q)
{
	return q->len - q->off;
}

/* The line and its '\n' to q. */
static bool queue_line(struct obuf *q, const char *line, size_t len)
{
	return obuf_add(q, line, len) && obuf_add(q, "\n", 1);
}

/* An answer the gateway made (a malloc'd line ending in '\n', may be
 * NULL when out of memory) to the client; takes it. */
static void answer(struct gw *g, char *line)
{
	if (!line) {
		note(g, "out of memory: an answer to the client was lost");
		return;
	}
	if (!g->client_gone && !obuf_add(&g->to_client, line, strlen(line)))
		note(g, "out of memory: an answer to the client was lost");
	free(line);
}

static void answer_error(struct gw *g, const char *id_raw, size_t id_len,
			 int code, const char *msg)
{
	answer(g, jsonrpc_error_response(id_raw, id_len, code, msg));
}

/* ---- requests in flight -------------------------------------------------- */

static unsigned key_hash(const char *k)
{
	uint32_t h = 2166136261u;

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h % MCP_BUCKETS;
}

static struct req *req_find(const struct gw *g, const char *key)
{
	for (struct req *r = g->tab[key_hash(key)]; r; r = r->hnext)
		if (strcmp(r->key, key) == 0)
			return r;
	return NULL;
}

static struct req *req_add(struct gw *g, const char *key, const char *id_raw,
			   size_t id_len, enum req_kind kind)
{
	struct req *r, **pp;

	if (id_len > SIZE_MAX - sizeof(*r) - 1)
		return NULL;
	r = cordon__calloc(1, sizeof(*r) + id_len + 1);
	if (!r)
		return NULL;
	r->kind = kind;
	(void)snprintf(r->key, sizeof(r->key), "%s", key);
	memcpy(r->id_raw, id_raw, id_len);
	r->id_raw_len = id_len;
	/* at the chain's end: a repeated id is answered oldest first */
	for (pp = &g->tab[key_hash(key)]; *pp; pp = &(*pp)->hnext)
		;
	*pp = r;
	r->prev = g->newest;
	if (g->newest)
		g->newest->next = r;
	else
		g->oldest = r;
	g->newest = r;
	g->npending++;
	return r;
}

/* Unlinks r (the caller frees it). */
static void req_remove(struct gw *g, struct req *r)
{
	struct req **pp;

	for (pp = &g->tab[key_hash(r->key)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == r) {
			*pp = r->hnext;
			break;
		}
	}
	if (r->prev)
		r->prev->next = r->next;
	else
		g->oldest = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		g->newest = r->prev;
	g->npending--;
}

/* ---- audit --------------------------------------------------------------- */

static const char *scan_flag_names[] = {
	"hidden-tag-characters", "zero-width-characters", "bidi-controls",
	"tool-poisoning",	 "invalid-utf8",
};

static cJSON *flags_array(unsigned flags)
{
	cJSON *a = cJSON_CreateArray();

	for (unsigned i = 0; a && i < 5; i++)
		if (flags & (1u << i))
			cJSON_AddItemToArray(
				a, cJSON_CreateString(scan_flag_names[i]));
	return a;
}

/* Writes one event; false (and a note) when it could not be written. */
static bool audit_event(struct gw *g, const char *event, cJSON *fields)
{
	struct cordon_diag d = { 0 };
	char *json;
	bool ok;

	if (!g->o->audit) {
		cJSON_Delete(fields);
		return true;
	}
	if (g->o->session)
		cJSON_AddStringToObject(fields, "session", g->o->session);
	json = cJSON_PrintUnformatted(fields);
	cJSON_Delete(fields);
	if (!json) {
		note(g, "out of memory writing the audit log");
		return false;
	}
	ok = cordon_audit_event(g->o->audit, event, json, &d) == CORDON_OK;
	if (!ok)
		note(g, "audit log: %s", d.message);
	free(json);
	return ok;
}

/* A tools/call the gateway refuses before the policy (malformed, its id
 * in use, too many in flight, no id, no room to hold it): audited as a
 * decision of step "gateway" with why. node: the message's object when m
 * is not a valid message (NULL: m->root). False when it is no tools/call
 * (nothing written). */
static bool refused_call(struct gw *g, const struct jsonrpc_msg *m,
			 const cJSON *node, const char *why)
{
	const cJSON *method, *params, *nm;
	char full[256], reason[320];
	cJSON *f;

	if (!node)
		node = m->root;
	if (m->method) {
		if (strcmp(m->method, "tools/call") != 0)
			return false;
		params = m->params;
	} else {
		method = cJSON_IsObject(node) ?
				 cJSON_GetObjectItemCaseSensitive(node,
								  "method") :
				 NULL;
		if (!cJSON_IsString(method) ||
		    strcmp(method->valuestring, "tools/call") != 0)
			return false;
		params = cJSON_GetObjectItemCaseSensitive(node, "params");
	}
	nm = cJSON_IsObject(params) ?
		     cJSON_GetObjectItemCaseSensitive(params, "name") :
		     NULL;
	if (cJSON_IsString(nm))
		(void)snprintf(full, sizeof(full), "mcp__%s__%.128s",
			       g->o->name, nm->valuestring);
	else
		(void)snprintf(full, sizeof(full), "mcp__%s", g->o->name);
	(void)snprintf(reason, sizeof(reason), "blocked: %s", why);
	f = cJSON_CreateObject();
	if (!f) {
		note(g, "out of memory writing the audit log");
		return true;
	}
	cJSON_AddStringToObject(f, "tool", full);
	cJSON_AddStringToObject(f, "kind", "mcp");
	cJSON_AddStringToObject(f, "decision", "deny");
	cJSON_AddStringToObject(f, "step", "gateway");
	cJSON_AddStringToObject(f, "reason", reason);
	cJSON_AddBoolToObject(f, "hard", 1);
	cJSON_AddStringToObject(f, "server", g->o->name);
	if (cJSON_IsString(nm))
		cJSON_AddStringToObject(f, "mcpTool", nm->valuestring);
	(void)audit_event(g, "decision", f);
	return true;
}

/* A client line refused that is not (or not known to be) a tools/call:
 * over a limit, not JSON, not JSON-RPC. */
static void refused_line(struct gw *g, size_t len, const char *why)
{
	cJSON *f = cJSON_CreateObject();

	if (!f) {
		note(g, "out of memory writing the audit log");
		return;
	}
	cJSON_AddStringToObject(f, "server", g->o->name);
	cJSON_AddStringToObject(f, "refused", why);
	cJSON_AddNumberToObject(f, "bytes", (double)len);
	(void)audit_event(g, "mcp", f);
}

/* A pin event: a tool (or the instructions, tool NULL) observed. */
static void audit_pin(struct gw *g, const char *tool,
		      const struct pin_event *ev)
{
	cJSON *f = cJSON_CreateObject();

	if (!f) {
		note(g, "out of memory writing the audit log");
		return;
	}
	cJSON_AddStringToObject(f, "server", g->o->name);
	if (tool)
		cJSON_AddStringToObject(f, "mcpTool", tool);
	else
		cJSON_AddBoolToObject(f, "instructions", 1);
	cJSON_AddStringToObject(f, "pin", pins_state_name(ev->state));
	cJSON_AddBoolToObject(f, "firstUse", ev->first_use);
	cJSON_AddBoolToObject(f, "written", ev->changed_file);
	if (ev->fingerprint[0])
		cJSON_AddStringToObject(f, "sha256", ev->fingerprint);
	if (ev->scan_flags)
		cJSON_AddItemToObject(f, "flags", flags_array(ev->scan_flags));
	if (ev->detail[0])
		cJSON_AddStringToObject(f, "detail", ev->detail);
	(void)audit_event(g, "pin", f);
}

/* A pending pin is audited when the file changed and otherwise once a
 * session for each fingerprint: a client listing every few seconds does
 * not fill the log. */
static bool pending_noted(struct gw *g, const char *tool, const char *fp)
{
	size_t tl = strlen(tool), fl = strlen(fp);
	char *k, **nv;

	for (size_t i = 0; i < g->nnoted; i++) {
		const char *s = g->noted[i];
		if (strncmp(s, tool, tl) == 0 && s[tl] == '\n' &&
		    strcmp(s + tl + 1, fp) == 0)
			return true;
	}
	if (g->nnoted >= MCP_MAX_NOTED)
		return false;
	k = cordon__malloc(tl + fl + 2);
	nv = cordon__realloc(g->noted, (g->nnoted + 1) * sizeof(*nv));
	if (!k || !nv) {
		free(k);
		if (nv)
			g->noted = nv;
		return false;
	}
	g->noted = nv;
	memcpy(k, tool, tl);
	k[tl] = '\n';
	memcpy(k + tl + 1, fp, fl + 1);
	g->noted[g->nnoted++] = k;
	return false;
}

/* ---- pins ---------------------------------------------------------------- */

static const char *pending_why(enum pin_state s)
{
	switch (s) {
	case PIN_PENDING_NEW:
		return "it is new since the server was approved";
	case PIN_PENDING_CHANGED:
		return "its definition changed since it was approved";
	case PIN_PENDING_FLAGGED:
		return "its text hides characters or instructions aimed at "
		       "the model";
	case PIN_UNKNOWN:
		return "it was never listed by the server";
	case PIN_APPROVED:
	default:
		return "it is approved";
	}
}

/* Re-reads the pins file if it changed on disk, so a tool approved by
 * `cordon mcp pins approve` during the session is callable at once. */
static void pins_fresh(struct gw *g)
{
	struct cordon_diag d = { 0 };

	if (pins_refresh(g->pins, NULL, &d) != CORDON_OK)
		note(g, "pins: %s", d.message);
}

/* The warning put in front of a pending tool's description, or of the
 * server's instructions (tool NULL), in warn mode. */
static char *warn_text(const struct gw *g, const char *tool, enum pin_state s,
		       const char *desc)
{
	char head[512];
	size_t hl, dl = desc ? strlen(desc) : 0;
	char *out;
	int n;

	if (tool)
		n = snprintf(head, sizeof(head),
			     "[cordon: this tool is blocked until approved "
			     "(%s); the user can run: cordon mcp pins approve "
			     "%s %s]%s",
			     pending_why(s), g->o->name, tool, dl ? " " : "");
	else
		n = snprintf(head, sizeof(head),
			     "[cordon: these instructions changed since they "
			     "were approved and are not trusted; the user can "
			     "run: cordon mcp pins approve %s]%s",
			     g->o->name, dl ? " " : "");
	if (n < 0)
		return NULL;
	hl = (size_t)n < sizeof(head) ? (size_t)n : sizeof(head) - 1;
	out = cordon__malloc(hl + dl + 1);
	if (!out)
		return NULL;
	memcpy(out, head, hl);
	if (dl)
		memcpy(out + hl, desc, dl);
	out[hl + dl] = '\0';
	return out;
}

/* Whether the server counts as known for a listing whose first page
 * comes now. */
static bool known_now(struct gw *g)
{
	if (g->first_done)
		return pins_server_known(g->pins, g->o->name);
	if (!g->start_known_set) {
		g->start_known = pins_server_known(g->pins, g->o->name);
		g->start_known_set = true;
	}
	return g->start_known;
}

/* Observes the tools of one tools/list answer (result may be anything)
 * and hides or marks the pending ones in it. *changed: result was
 * modified. known: the server was known at the listing's first page. */
static void observe_tools(struct gw *g, cJSON *result, bool known,
			  bool *changed)
{
	struct pin_event *ev = NULL;
	size_t nev = 0, ntools;
	struct cordon_diag d = { 0 };
	cJSON *tools, *t, *next;
	size_t i = 0;

	*changed = false;
	tools = cJSON_IsObject(result) ?
			cJSON_GetObjectItemCaseSensitive(result, "tools") :
			NULL;
	if (!cJSON_IsArray(tools))
		return;
	ntools = (size_t)cJSON_GetArraySize(tools);
	if (pins_observe(g->pins, g->o->name, tools, known,
			 g->o->new_tools_trusted, &ev, &nev, &d) != CORDON_OK ||
	    nev != ntools) {
		/* Fail closed: nothing of this page is shown, and its tools
		 * stay as the pins file says (unknown ones are blocked). */
		note(g, "pins: %s; the tools of this listing are hidden",
		     d.message[0] ? d.message : "observation failed");
		cJSON *f = cJSON_CreateObject();
		if (f) {
			cJSON_AddStringToObject(f, "server", g->o->name);
			cJSON_AddStringToObject(f, "error", d.message);
			(void)audit_event(g, "pin", f);
		}
		while (tools->child) {
			cJSON_Delete(cJSON_DetachItemViaPointer(tools,
								tools->child));
		}
		*changed = true;
		free(ev);
		return;
	}
	for (t = tools->child; t; t = next, i++) {
		const struct pin_event *e = &ev[i];
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(t, "name");
		const char *tool = cJSON_IsString(nm) ? nm->valuestring : "";

		next = t->next;
		if (e->changed_file ||
		    (e->state != PIN_APPROVED &&
		     !pending_noted(g, tool, e->fingerprint)))
			audit_pin(g, tool, e);
		if (e->state == PIN_APPROVED)
			continue;
		if (e->changed_file || e->first_use)
			note(g,
			     "tool '%s' is pending approval: %s (cordon mcp "
			     "pins diff %s %s)",
			     tool, pending_why(e->state), g->o->name, tool);
		*changed = true;
		if (!g->o->warn_pending) {
			cJSON_Delete(cJSON_DetachItemViaPointer(tools, t));
			continue;
		}
		const cJSON *desc =
			cJSON_GetObjectItemCaseSensitive(t, "description");
		char *w = warn_text(g, tool, e->state,
				    cJSON_IsString(desc) ? desc->valuestring :
							   NULL);
		cJSON *ns = w ? cJSON_CreateString(w) : NULL;
		free(w);
		if (!ns) {
			/* cannot mark it: hide it */
			cJSON_Delete(cJSON_DetachItemViaPointer(tools, t));
			continue;
		}
		if (cJSON_GetObjectItemCaseSensitive(t, "description"))
			cJSON_ReplaceItemInObjectCaseSensitive(t, "description",
							       ns);
		else
			cJSON_AddItemToObject(t, "description", ns);
	}
	free(ev);
}

/* The initialize answer: the server's name, version and instructions are
 * recorded; the instructions are pinned, and hidden (or marked) while
 * pending. */
static void observe_initialize(struct gw *g, cJSON *result, bool *changed)
{
	const cJSON *info, *nm, *ver, *pv, *ins;
	struct pin_event ev;
	struct cordon_diag d = { 0 };
	cJSON *f;

	*changed = false;
	if (!cJSON_IsObject(result))
		return;
	g->no_tools = !cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(result, "capabilities"),
		"tools");
	info = cJSON_GetObjectItemCaseSensitive(result, "serverInfo");
	nm = cJSON_GetObjectItemCaseSensitive(info, "name");
	ver = cJSON_GetObjectItemCaseSensitive(info, "version");
	pv = cJSON_GetObjectItemCaseSensitive(result, "protocolVersion");
	ins = cJSON_GetObjectItemCaseSensitive(result, "instructions");
	f = cJSON_CreateObject();
	if (f) {
		cJSON_AddStringToObject(f, "server", g->o->name);
		if (cJSON_IsString(nm))
			cJSON_AddStringToObject(f, "serverName",
						nm->valuestring);
		if (cJSON_IsString(ver))
			cJSON_AddStringToObject(f, "serverVersion",
						ver->valuestring);
		if (cJSON_IsString(pv))
			cJSON_AddStringToObject(f, "protocolVersion",
						pv->valuestring);
		cJSON_AddBoolToObject(f, "instructions", cJSON_IsString(ins));
		(void)audit_event(g, "mcp", f);
	}
	memset(&ev, 0, sizeof(ev));
	if (pins_observe_instructions(g->pins, g->o->name,
				      cJSON_IsString(ins) ? ins->valuestring :
							    NULL,
				      &ev, &d) != CORDON_OK) {
		note(g, "pins: %s; the server's instructions are hidden",
		     d.message);
		ev.state = PIN_PENDING_CHANGED;
	} else {
		if (ev.changed_file || (ev.state != PIN_APPROVED &&
					!pending_noted(g, "", ev.fingerprint)))
			audit_pin(g, NULL, &ev);
	}
	if (ev.state == PIN_APPROVED || !cJSON_IsString(ins))
		return;
	note(g,
	     "the server's instructions are pending approval (%s): %s "
	     "(cordon mcp pins approve %s)",
	     ev.detail[0] ? ev.detail : "changed",
	     g->o->warn_pending ? "marked" : "hidden", g->o->name);
	*changed = true;
	if (!g->o->warn_pending) {
		cJSON_DeleteItemFromObjectCaseSensitive(result, "instructions");
		return;
	}
	char *w = warn_text(g, NULL, ev.state, ins->valuestring);
	cJSON *ns = w ? cJSON_CreateString(w) : NULL;
	free(w);
	if (ns)
		cJSON_ReplaceItemInObjectCaseSensitive(result, "instructions",
						       ns);
	else
		cJSON_DeleteItemFromObjectCaseSensitive(result, "instructions");
}

/* ---- the gateway's own tools/list ---------------------------------------- */

/* Sends tools/list (cursor NULL: the first page) with a fresh id
 * "cordon-gw-<n>" that no request in flight uses. */
static void gw_list(struct gw *g, const char *cursor, bool known, unsigned page)
{
	char head[96];
	cJSON *o = NULL;
	char *line = NULL;
	struct jsonrpc_msg m;
	char why[128];
	struct req *r;

	for (;;) {
		memset(&m, 0, sizeof(m));
		o = cJSON_CreateObject();
		(void)snprintf(head, sizeof(head), "cordon-gw-%lu",
			       ++g->gw_seq);
		if (!o)
			goto oom;
		cJSON_AddStringToObject(o, "jsonrpc", "2.0");
		cJSON_AddStringToObject(o, "id", head);
		cJSON_AddStringToObject(o, "method", "tools/list");
		if (cursor) {
			cJSON *p = cJSON_AddObjectToObject(o, "params");
			if (!p || !cJSON_AddStringToObject(p, "cursor", cursor))
				goto oom;
		}
		line = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
		o = NULL;
		if (!line)
			goto oom;
		if (jsonrpc_parse(line, strlen(line), &g->lim, &m, why,
			       sizeof(why)) != CORDON_OK ||
		    m.kind != JSONRPC_REQUEST) {
			note(g, "cannot make a tools/list request: %s", why);
			jsonrpc_msg_free(&m);
			free(line);
			return;
		}
		if (!req_find(g, m.id_key))
			break;
		jsonrpc_msg_free(&m);
		free(line);
	}
	r = req_add(g, m.id_key, m.id_raw, m.id_raw_len, REQ_GW_LIST);
	jsonrpc_msg_free(&m);
	if (!r || !queue_line(&g->to_server, line, strlen(line))) {
		if (r) {
			req_remove(g, r);
			free(r);
		}
		free(line);
		goto oom;
	}
	free(line);
	r->first_page = cursor == NULL;
	r->known = known;
	r->page = page;
	r->gen = g->gw_gen;
	g->gw_listing = true;
	return;
oom:
	cJSON_Delete(o);
	note(g, "out of memory: the tools were not re-listed");
}

/* A listing the server has not answered within MCP_HOLD_MS is given up
 * (its answer, if it comes, is still observed): else a server that never
 * answers one would turn the re-check after list_changed off for the
 * rest of the session. */
static void gw_list_start(struct gw *g)
{
	if (g->gw_listing && now_ms() < g->hold_until) {
		g->gw_relist = true;
		return;
	}
	if (g->client_eof || g->server_eof || g->sin < 0)
		return;
	g->gw_relist = false;
	g->gw_listing = false;
	g->gw_gen++;
	g->hold_until = now_ms() + MCP_HOLD_MS;
	gw_list(g, NULL, false, 1);
}

/* The answer to one of the gateway's pages. */
static void gw_list_answer(struct gw *g, const struct req *r, cJSON *root)
{
	cJSON *result = cJSON_GetObjectItemCaseSensitive(root, "result");
	const cJSON *nc;
	bool changed, known = r->known;
	bool current = r->gen == g->gw_gen; /* not a listing given up */

	if (current)
		g->gw_listing = false;
	if (r->first_page)
		known = known_now(g);
	if (!result) {
		note(g, "the server refused the gateway's tools/list");
	} else {
		observe_tools(g, result, known, &changed);
		nc = cJSON_GetObjectItemCaseSensitive(result, "nextCursor");
		if (cJSON_IsString(nc) && nc->valuestring[0]) {
			if (!current)
				return;
			if (r->page >= MCP_MAX_GW_PAGES)
				note(g,
				     "tools/list: over %d pages; the rest "
				     "was not listed",
				     MCP_MAX_GW_PAGES);
			else {
				gw_list(g, nc->valuestring, known, r->page + 1);
				return;
			}
		} else {
			g->first_done = true;
		}
	}
	if (current && g->gw_relist)
		gw_list_start(g);
}

/* ---- tools/call ---------------------------------------------------------- */

/* A call blocked before the policy (pending or unknown pin): audited as a
 * decision of step "pin". */
static char *blocked_by_pin(struct gw *g, const struct jsonrpc_msg *m,
			    const char *tool, const char *full,
			    enum pin_state st)
{
	char text[640];
	cJSON *f;

	if (st == PIN_UNKNOWN)
		(void)snprintf(text, sizeof(text),
			       "blocked: MCP tool '%s' of server '%s' is not "
			       "known to cordon (%s); calls are refused",
			       tool, g->o->name, pending_why(st));
	else
		(void)snprintf(text, sizeof(text),
			       "blocked: MCP tool '%s' of server '%s' is "
			       "pending approval (%s); the user can review it "
			       "with `cordon mcp pins diff %s %s` and allow it "
			       "with `cordon mcp pins approve %s %s`",
			       tool, g->o->name, pending_why(st), g->o->name,
			       tool, g->o->name, tool);
	f = cJSON_CreateObject();
	if (f) {
		cJSON_AddStringToObject(f, "tool", full);
		cJSON_AddStringToObject(f, "kind", "mcp");
		cJSON_AddStringToObject(f, "decision", "deny");
		cJSON_AddStringToObject(f, "step", "pin");
		cJSON_AddStringToObject(f, "reason", text);
		cJSON_AddBoolToObject(f, "hard", 0);
		cJSON_AddStringToObject(f, "server", g->o->name);
		cJSON_AddStringToObject(f, "mcpTool", tool);
		cJSON_AddStringToObject(f, "pin", pins_state_name(st));
	}
	if (!f)
		note(g, "out of memory writing the audit log");
	else
		(void)audit_event(g, "decision", f);
	return jsonrpc_tool_error_result(m->id_raw, m->id_raw_len, text);
}

/* The answer to a blocked call: "blocked: " and the policy's reason. */
static char *blocked_text(const struct jsonrpc_msg *m, const char *reason)
{
	char *text, *ans;
	size_t rl = strlen(reason);

	if (strncmp(reason, "blocked: ", 9) == 0)
		return jsonrpc_tool_error_result(m->id_raw, m->id_raw_len, reason);
	text = cordon__malloc(rl + 10);
	if (!text)
		return NULL;
	memcpy(text, "blocked: ", 9);
	memcpy(text + 9, reason, rl + 1);
	ans = jsonrpc_tool_error_result(m->id_raw, m->id_raw_len, text);
	free(text);
	return ans;
}

/* Decides one tools/call request: true when it goes on to the server;
 * else *ans is the answer (a malloc'd line; NULL when out of memory). */
static bool decide_call(struct gw *g, const struct jsonrpc_msg *m, char **ans)
{
	const cJSON *params = m->params, *nm, *args;
	const cJSON *approved = NULL, *schema = NULL;
	char *full = NULL, *args_text = NULL, *schema_text = NULL;
	char *extra = NULL;
	struct cordon_call call = { 0 };
	struct cordon_diag d = { 0 };
	enum pin_state st;
	bool allow = false;
	size_t fl;
	cJSON *x;

	*ans = NULL;
	nm = cJSON_IsObject(params) ?
		     cJSON_GetObjectItemCaseSensitive(params, "name") :
		     NULL;
	if (!cJSON_IsString(nm) || !nm->valuestring[0]) {
		*ans = jsonrpc_error_response(m->id_raw, m->id_raw_len, -32602,
					   "tools/call: params.name: expected "
					   "a tool name");
		refused_call(g, m, NULL, "params.name: expected a tool name");
		return false;
	}
	args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	if (args && !cJSON_IsObject(args) && !cJSON_IsNull(args)) {
		*ans = jsonrpc_error_response(m->id_raw, m->id_raw_len, -32602,
					   "tools/call: params.arguments: "
					   "expected an object");
		refused_call(g, m, NULL,
			     "params.arguments: expected an object");
		return false;
	}
	fl = strlen(g->o->name) + strlen(nm->valuestring) + 8;
	full = cordon__malloc(fl);
	if (!full)
		goto oom;
	(void)snprintf(full, fl, "mcp__%s__%s", g->o->name, nm->valuestring);

	st = pins_lookup(g->pins, g->o->name, nm->valuestring, &approved);
	if (st != PIN_APPROVED) {
		pins_fresh(g);
		st = pins_lookup(g->pins, g->o->name, nm->valuestring,
				 &approved);
	}
	if (st != PIN_APPROVED) {
		*ans = blocked_by_pin(g, m, nm->valuestring, full, st);
		goto out;
	}

	/* jsonrpc_parse() refused a request with a \u0000 escape or a member
	 * twice: what cJSON holds is what the server will read. */
	if (cJSON_IsObject(args)) {
		args_text = cJSON_PrintUnformatted(args);
		if (!args_text)
			goto oom;
		call.args_json = args_text;
	}
	schema = cJSON_IsObject(approved) ?
			 cJSON_GetObjectItemCaseSensitive(approved,
							  "inputSchema") :
			 NULL;
	if (schema) {
		schema_text = cJSON_PrintUnformatted(schema);
		if (!schema_text)
			goto oom;
		call.schema_json = schema_text;
	}
	call.tool = full;
	call.session = g->o->session;
	if (cordon_policy_decide(g->o->policy, &call, g->o->decide_flags,
				 g->res, &d) != CORDON_OK) {
		note(g, "policy: %s", d.message);
		*ans = blocked_text(m, "the policy could not decide this call");
		goto out;
	}

	x = cJSON_CreateObject();
	if (!x)
		goto oom;
	cJSON_AddStringToObject(x, "server", g->o->name);
	cJSON_AddStringToObject(x, "mcpTool", nm->valuestring);
	cJSON_AddStringToObject(x, "pin", pins_state_name(st));
	extra = cJSON_PrintUnformatted(x);
	cJSON_Delete(x);
	if (!extra)
		goto oom;
	if (g->o->audit && cordon_audit_decision(g->o->audit, g->res, extra,
						 &d) != CORDON_OK) {
		note(g, "audit log: %s; the call is blocked", d.message);
		*ans = blocked_text(m, "the audit log cannot be written");
		goto out;
	}
	if (cordon_result_decision(g->res) == CORDON_ALLOW)
		allow = true;
	else
		*ans = blocked_text(m, cordon_result_reason(g->res));
	goto out;
oom:
	note(g, "out of memory deciding a tools/call: refused");
	*ans = jsonrpc_tool_error_result(m->id_raw, m->id_raw_len,
				      "blocked: cordon ran out of memory");
out:
	free(full);
	free(args_text);
	free(schema_text);
	free(extra);
	return allow;
}

/* ---- client → server ----------------------------------------------------- */

enum fate {
	FATE_FORWARD = 0, /* the bytes go on */
	FATE_ANSWERED, /* the gateway answered (in *ans) */
	FATE_DROP,
};

/* One message from the client (a line, or an element of a batch: node
 * is then its object, else NULL). *ans gets the gateway's answer for
 * FATE_ANSWERED (may be NULL: out of memory, or nothing to say). len: the
 * line's bytes, for the audit log. */
static enum fate client_msg(struct gw *g, const struct jsonrpc_msg *m,
			    const cJSON *node, bool json, const char *why,
			    size_t len, char **ans)
{
	enum req_kind kind = REQ_OTHER;
	char msg[224];
	struct req *r, *dup;

	*ans = NULL;
	switch (m->kind) {
	case JSONRPC_INVALID:
		if (!why || !why[0])
			why = "not a JSON-RPC 2.0 message";
		(void)snprintf(msg, sizeof(msg), "%s: %s",
			       json ? "Invalid Request" : "Parse error", why);
		*ans = jsonrpc_error_response(m->id_raw, m->id_raw_len,
					   json ? -32600 : -32700, msg);
		if (!refused_call(g, m, node, msg))
			refused_line(g, len, msg);
		return FATE_ANSWERED;
	case JSONRPC_RESPONSE:
		return FATE_FORWARD; /* to a request of the server */
	case JSONRPC_NOTIFICATION:
		if (m->method && strcmp(m->method, "tools/call") == 0) {
			/* cannot be answered, so cannot be refused: it
			 * never reaches the server */
			note(g, "dropped a tools/call without an id");
			refused_call(g, m, NULL,
				     "a tools/call without an id cannot be "
				     "answered");
			return FATE_DROP;
		}
		if (m->method &&
		    strcmp(m->method, "notifications/initialized") == 0)
			g->want_list = true;
		return FATE_FORWARD;
	case JSONRPC_REQUEST:
		break;
	case JSONRPC_BATCH:
	default:
		*ans = jsonrpc_error_response(m->id_raw, m->id_raw_len, -32600,
					   "Invalid Request: a batch inside "
					   "a batch");
		return FATE_ANSWERED;
	}

	/* One id, one request in flight: the answers could not be told
	 * apart, and one to a tools/list taken for the other's would reach
	 * the client unseen. 1 and 1.0 are one id (jsonrpc_msg.id_key). */
	dup = req_find(g, m->id_key);
	if (dup) {
		*ans = jsonrpc_error_response(
			m->id_raw, m->id_raw_len, -32600,
			dup->kind == REQ_GW_LIST ?
				"Invalid Request: the id is in use by the "
				"cordon gateway" :
				"Invalid Request: the id is in use by a "
				"request in flight");
		refused_call(g, m, NULL,
			     "its id is in use by a request in "
			     "flight");
		return FATE_ANSWERED;
	}
	if (g->npending >= MCP_MAX_PENDING) {
		(void)snprintf(msg, sizeof(msg),
			       "too many requests in flight (limit %d)",
			       MCP_MAX_PENDING);
		*ans = jsonrpc_error_response(m->id_raw, m->id_raw_len, -32600,
					   msg);
		refused_call(g, m, NULL, msg);
		return FATE_ANSWERED;
	}
	if (strcmp(m->method, "tools/call") == 0) {
		if (!decide_call(g, m, ans))
			return FATE_ANSWERED;
	} else if (strcmp(m->method, "tools/list") == 0) {
		kind = REQ_TOOLS_LIST;
	} else if (strcmp(m->method, "initialize") == 0) {
		kind = REQ_INITIALIZE;
	}
	r = req_add(g, m->id_key, m->id_raw ? m->id_raw : "null",
		    m->id_raw ? m->id_raw_len : 4, kind);
	if (!r) {
		*ans = jsonrpc_error_response(m->id_raw, m->id_raw_len, -32603,
					   "cordon gateway: out of memory");
		return FATE_ANSWERED;
	}
	if (kind == REQ_TOOLS_LIST) {
		const cJSON *c = cJSON_IsObject(m->params) ?
					 cJSON_GetObjectItemCaseSensitive(
						 m->params, "cursor") :
					 NULL;
		r->first_page = c == NULL || cJSON_IsNull(c);
	}
	return FATE_FORWARD;
}

/* Joins answer lines ("…\n" each) into one batch line. */
static char *join_batch(char **items, size_t n)
{
	size_t total = 3;
	char *out, *p;

	for (size_t i = 0; i < n; i++)
		total += strlen(items[i]) + 1;
	out = cordon__malloc(total);
	if (!out)
		return NULL;
	p = out;
	*p++ = '[';
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(items[i]);
		while (l && items[i][l - 1] == '\n')
			l--;
		if (i)
			*p++ = ',';
		memcpy(p, items[i], l);
		p += l;
	}
	*p++ = ']';
	*p++ = '\n';
	*p = '\0';
	return out;
}

/* Prints a batch element (its node el) for a rebuilt batch. */
static char *element_text(const cJSON *el, const struct jsonrpc_msg *e)
{
	return e->id_raw ? jsonrpc_print_with_id(el, e->id_raw, e->id_raw_len) :
			   cJSON_PrintUnformatted(el);
}

static void client_batch(struct gw *g, const struct jsonrpc_msg *m,
			 const char *line, size_t len)
{
	char **fwd = cordon__calloc(m->nitems ? m->nitems : 1, sizeof(char *));
	char **ans = cordon__calloc(m->nitems ? m->nitems : 1, sizeof(char *));
	bool *go = cordon__calloc(m->nitems ? m->nitems : 1, sizeof(bool));
	const cJSON *el = m->root->child;
	size_t nf = 0, na = 0;
	char *joined;

	if (!fwd || !ans || !go) {
		answer_error(g, NULL, 0, -32603,
			     "cordon gateway: out of memory");
		goto out;
	}
	for (size_t i = 0; i < m->nitems; i++, el = el->next) {
		char *a = NULL;
		enum fate f =
			client_msg(g, &m->items[i], el, true, NULL, len, &a);
		if (f == FATE_FORWARD) {
			go[i] = true;
			nf++;
		} else if (f == FATE_ANSWERED && a) {
			ans[na++] = a;
		}
	}
	if (nf == m->nitems) {
		if (!queue_line(&g->to_server, line, len))
			note(g, "out of memory: a batch was lost");
	} else if (nf) {
		size_t k = 0;
		el = m->root->child;
		for (size_t i = 0; i < m->nitems; i++, el = el->next) {
			if (!go[i])
				continue;
			fwd[k] = element_text(el, &m->items[i]);
			if (!fwd[k]) {
				note(g, "out of memory: a batch was lost");
				goto out_fwd;
			}
			k++;
		}
		/* element texts have no '\n': join adds one */
		joined = join_batch(fwd, k);
		if (!joined || !obuf_add(&g->to_server, joined, strlen(joined)))
			note(g, "out of memory: a batch was lost");
		free(joined);
out_fwd:
		for (size_t i = 0; i < k; i++)
			free(fwd[i]);
	}
	if (na) {
		joined = join_batch(ans, na);
		answer(g, joined);
	}
out:
	for (size_t i = 0; i < na; i++)
		free(ans[i]);
	free(fwd);
	free(ans);
	free(go);
}

static bool is_call(const struct jsonrpc_msg *m)
{
	return m->kind == JSONRPC_REQUEST && strcmp(m->method, "tools/call") == 0;
}

/* A tools/call, or a batch holding one. */
static bool has_call(const struct jsonrpc_msg *m)
{
	if (m->kind != JSONRPC_BATCH)
		return is_call(m);
	for (size_t i = 0; i < m->nitems; i++)
		if (is_call(&m->items[i]))
			return true;
	return false;
}

/* Calls wait while the gateway re-lists the tools after the server said
 * they changed: none goes on before the new definitions are checked. */
static void hold(struct gw *g, const struct jsonrpc_msg *m, const char *line,
		 size_t len)
{
	struct held *h;

	if (g->nheld >= MCP_MAX_HELD || len > MCP_MAX_HELD_BYTES ||
	    g->held_bytes > MCP_MAX_HELD_BYTES - len ||
	    !(h = cordon__malloc(sizeof(*h) + len))) {
		char msg[200];

		(void)snprintf(msg, sizeof(msg),
			       "the gateway is re-checking the server's tools "
			       "and holds %d calls or %zu MiB already: try "
			       "again",
			       MCP_MAX_HELD, MCP_MAX_HELD_BYTES >> 20);
		if (m->kind == JSONRPC_BATCH) {
			const cJSON *el = m->root->child;
			for (size_t i = 0; i < m->nitems; i++, el = el->next)
				if (m->items[i].kind == JSONRPC_REQUEST) {
					answer_error(g, m->items[i].id_raw,
						     m->items[i].id_raw_len,
						     -32000, msg);
					refused_call(g, &m->items[i], el, msg);
				}
		} else {
			answer_error(g, m->id_raw, m->id_raw_len, -32000, msg);
			refused_call(g, m, NULL, msg);
		}
		return;
	}
	h->next = NULL;
	h->len = len;
	memcpy(h->line, line, len);
	if (g->held_tail)
		g->held_tail->next = h;
	else
		g->held = h;
	g->held_tail = h;
	g->nheld++;
	g->held_bytes += len;
}

static int on_client_line(void *ud, const char *line, size_t len,
			  bool too_long);

/* The held lines, in order, as if they came now. */
static void release_held(struct gw *g)
{
	struct held *h = g->held;

	g->held = g->held_tail = NULL;
	g->nheld = 0;
	g->held_bytes = 0;
	while (h) {
		struct held *next = h->next;
		(void)on_client_line(g, h->line, h->len, false);
		free(h);
		h = next;
	}
}

static int on_client_line(void *ud, const char *line, size_t len, bool too_long)
{
	struct gw *g = ud;
	struct jsonrpc_msg m;
	char why[160], msg[224];
	enum cordon_err err;
	char *ans = NULL;

	if (too_long) {
		(void)snprintf(msg, sizeof(msg),
			       "Invalid Request: the message is over the "
			       "limit of %zu bytes (max_message)",
			       g->lim.max_message);
		answer_error(g, NULL, 0, -32600, msg);
		refused_line(g, len, msg);
		return 0;
	}
	memset(&m, 0, sizeof(m));
	why[0] = '\0';
	err = jsonrpc_parse(line, len, &g->lim, &m, why, sizeof(why));
	if (err == CORDON_OK &&
	    (g->nheld || (g->gw_listing && now_ms() < g->hold_until)) &&
	    has_call(&m)) {
		hold(g, &m, line, len);
	} else if (err == CORDON_E_LIMIT) {
		(void)snprintf(msg, sizeof(msg), "Invalid Request: %s", why);
		answer_error(g, m.id_raw, m.id_raw_len, -32600, msg);
		refused_line(g, len, msg);
	} else if (err != CORDON_OK) {
		answer_error(g, m.id_raw, m.id_raw_len, -32603,
			     "cordon gateway: out of memory");
	} else if (m.kind == JSONRPC_BATCH) {
		client_batch(g, &m, line, len);
	} else {
		switch (client_msg(g, &m, NULL, m.root != NULL, why, len,
				   &ans)) {
		case FATE_FORWARD:
			if (!queue_line(&g->to_server, line, len))
				note(g, "out of memory: a message was lost");
			break;
		case FATE_ANSWERED:
			if (ans)
				answer(g, ans);
			break;
		case FATE_DROP:
		default:
			break;
		}
	}
	jsonrpc_msg_free(&m);
	if (g->want_list) {
		g->want_list = false;
		if (!g->no_tools)
			gw_list_start(g);
	}
	return 0;
}

/* ---- server → client ----------------------------------------------------- */

/* line[0..len) with the id's bytes (m->id_raw, in the line) replaced by
 * id[0..id_len), and a '\n'. */
static char *splice_id(const char *line, size_t len, const struct jsonrpc_msg *m,
		       const char *id, size_t id_len)
{
	size_t off = (size_t)(m->id_raw - line);
	size_t rest = len - off - m->id_raw_len;
	char *out;

	if (id_len > SIZE_MAX - len - 2)
		return NULL;
	out = cordon__malloc(len - m->id_raw_len + id_len + 2);
	if (!out)
		return NULL;
	memcpy(out, line, off);
	memcpy(out + off, id, id_len);
	memcpy(out + off + id_len, m->id_raw + m->id_raw_len, rest);
	out[off + id_len + rest] = '\n';
	out[off + id_len + rest + 1] = '\0';
	return out;
}

static int name_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Why an answer the gateway inspects (tools/list, initialize) cannot be
 * trusted to say to the client what it says to cordon, or NULL: a \u0000
 * escape in text[0..len) (cJSON ends the string there: the rest would
 * reach the client unpinned), a member name twice in one object (cJSON
 * reads the first, a client the last), a tool listed twice (pinned as
 * one, shown as two). */
static const char *answer_unsafe(const cJSON *node, const char *text,
				 size_t len, char *buf, size_t cap)
{
	const cJSON *tools, *t, *nm;
	const char **v, *dup;
	bool nomem;
	size_t n = 0, k = 0;

	if (json_nul_escape_at(text, len) < len)
		return "it holds a \\u0000 escape (cJSON ends the string "
		       "there: the client would read text that was not "
		       "pinned)";
	if (memchr(text, '\0', len))
		return "it holds a NUL byte (cJSON ends the string there: the "
		       "client would read text that was not pinned)";
	dup = jsonrpc_dup_member(node, &nomem);
	if (nomem)
		return "out of memory checking it";
	if (dup) {
		(void)snprintf(buf, cap,
			       "member \"%.60s\" appears twice in one object "
			       "(the client may read another one than the one "
			       "pinned)",
			       dup);
		return buf;
	}
	tools = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(node, "result"), "tools");
	if (!cJSON_IsArray(tools))
		return NULL;
	for (t = tools->child; t; t = t->next)
		n++;
	if (n < 2)
		return NULL;
	v = cordon__calloc(n, sizeof(*v));
	if (!v)
		return "out of memory checking it";
	for (t = tools->child; t; t = t->next) {
		nm = cJSON_GetObjectItemCaseSensitive(t, "name");
		if (cJSON_IsString(nm))
			v[k++] = nm->valuestring;
	}
	qsort(v, k, sizeof(*v), name_ptr_cmp);
	dup = NULL;
	for (size_t i = 1; i < k && !dup; i++)
		if (strcmp(v[i - 1], v[i]) == 0)
			dup = v[i];
	if (dup)
		(void)snprintf(buf, cap,
			       "tool \"%.60s\" is listed twice (one pin, two "
			       "definitions shown)",
			       dup);
	free(v);
	return dup ? buf : NULL;
}

/* An inspected answer refused (answer_unsafe): reported and audited; the
 * client's request gets an error answer in *out, the gateway's own
 * listing ends as if the server refused it. Takes r. */
static enum fate refuse_answer(struct gw *g, struct req *r, const char *why,
			       char **out)
{
	char msg[400];
	cJSON *f;

	note(g, "refused the server's answer to %s: %s",
	     r->kind == REQ_INITIALIZE ? "initialize" : "tools/list", why);
	f = cJSON_CreateObject();
	if (f) {
		cJSON_AddStringToObject(f, "server", g->o->name);
		cJSON_AddStringToObject(f, "error", why);
		(void)audit_event(g, "pin", f);
	}
	if (r->kind == REQ_GW_LIST) {
		gw_list_answer(g, r, NULL);
		free(r);
		return FATE_DROP;
	}
	(void)snprintf(msg, sizeof(msg),
		       "cordon gateway: the server's answer was refused: %s",
		       why);
	*out = jsonrpc_error_response(r->id_raw, r->id_raw_len, -32603, msg);
	free(r);
	return *out ? FATE_ANSWERED : FATE_DROP;
}

/* One message from the server (its node; line: its text when it is the
 * whole line, NULL in a batch; text: the line, or the batch's line, for
 * answer_unsafe()). FATE_ANSWERED here means "changed": *out is the text
 * to send instead. An answer goes back with the id exactly as the client
 * wrote it (a server may echo 1e3 as 1000, or a big number rounded). */
static enum fate server_msg(struct gw *g, const struct jsonrpc_msg *m, cJSON *node,
			    const char *line, size_t len, const char *text,
			    size_t text_len, char **out)
{
	const char *bad;
	char buf[200];
	struct req *r;
	bool changed = false;
	cJSON *result;

	*out = NULL;
	switch (m->kind) {
	case JSONRPC_NOTIFICATION:
		if (m->method &&
		    strcmp(m->method, "notifications/tools/list_changed") == 0)
			gw_list_start(g);
		return FATE_FORWARD;
	case JSONRPC_REQUEST:
		return FATE_FORWARD; /* sampling, roots, elicitation … */
	case JSONRPC_RESPONSE:
		break;
	case JSONRPC_INVALID:
	case JSONRPC_BATCH:
	default:
		note(g, "dropped an invalid message from the server");
		return FATE_DROP;
	}
	r = m->id_raw ? req_find(g, m->id_key) : NULL;
	if (!r && (!m->id_raw || cJSON_IsNull(m->id)) &&
	    cJSON_GetObjectItemCaseSensitive(node, "error"))
		return FATE_FORWARD; /* an error about no request at all */
	if (!r) {
		/* Nothing asked for it: a second answer to one tools/list
		 * would reach the client unseen. */
		note(g, "dropped an answer to no request in flight (id %.*s)",
		     (int)(m->id_raw_len > 64 ? 64 : m->id_raw_len), m->id_raw);
		return FATE_DROP;
	}
	req_remove(g, r);
	if (r->kind != REQ_OTHER &&
	    (bad = answer_unsafe(node, text, text_len, buf, sizeof(buf))))
		return refuse_answer(g, r, bad, out);
	result = cJSON_GetObjectItemCaseSensitive(node, "result");
	switch (r->kind) {
	case REQ_GW_LIST:
		gw_list_answer(g, r, node);
		free(r);
		return FATE_DROP;
	case REQ_TOOLS_LIST: {
		const cJSON *nc;
		if (r->first_page || !g->client_known_set) {
			g->client_known = known_now(g);
			g->client_known_set = true;
		}
		if (result)
			observe_tools(g, result, g->client_known, &changed);
		nc = cJSON_GetObjectItemCaseSensitive(result, "nextCursor");
		if (result && !(cJSON_IsString(nc) && nc->valuestring[0]))
			g->first_done = true;
		break;
	}
	case REQ_INITIALIZE:
		if (result)
			observe_initialize(g, result, &changed);
		break;
	case REQ_OTHER:
	default:
		break;
	}
	if (!changed && r->id_raw_len == m->id_raw_len &&
	    memcmp(r->id_raw, m->id_raw, m->id_raw_len) == 0) {
		free(r);
		return FATE_FORWARD;
	}
	/* the id as the client wrote it */
	if (changed || !line)
		*out = jsonrpc_print_with_id(node, r->id_raw, r->id_raw_len);
	else
		*out = splice_id(line, len, m, r->id_raw, r->id_raw_len);
	free(r);
	if (!*out) {
		note(g, "out of memory: an answer was lost");
		return FATE_DROP;
	}
	return FATE_ANSWERED;
}

static void strip_nl(char *s)
{
	size_t l = strlen(s);

	while (l && s[l - 1] == '\n')
		s[--l] = '\0';
}

static void server_batch(struct gw *g, const struct jsonrpc_msg *m,
			 const char *line, size_t len)
{
	char **txt = cordon__calloc(m->nitems ? m->nitems : 1, sizeof(char *));
	cJSON *el = m->root->child;
	size_t nt = 0, nf = 0;
	bool same = true;

	if (!txt) {
		note(g, "out of memory: a batch from the server was lost");
		return;
	}
	for (size_t i = 0; i < m->nitems; i++, el = el->next) {
		char *out = NULL;
		switch (server_msg(g, &m->items[i], el, NULL, 0, line, len,
				   &out)) {
		case FATE_FORWARD:
			nf++;
			txt[nt] = element_text(el, &m->items[i]);
			if (txt[nt])
				nt++;
			break;
		case FATE_ANSWERED:
			same = false;
			strip_nl(out);
			txt[nt++] = out;
			break;
		case FATE_DROP:
		default:
			same = false;
			break;
		}
	}
	if (same && nf == m->nitems) {
		if (!g->client_gone && !queue_line(&g->to_client, line, len))
			note(g, "out of memory: a batch was lost");
	} else if (nt) {
		answer(g, join_batch(txt, nt));
	}
	for (size_t i = 0; i < nt; i++)
		free(txt[i]);
	free(txt);
}

static int on_server_line(void *ud, const char *line, size_t len, bool too_long)
{
	struct gw *g = ud;
	struct jsonrpc_msg m;
	char why[160];
	char *out = NULL;
	enum cordon_err err;

	if (too_long) {
		note(g,
		     "dropped a message from the server over the limit of "
		     "%zu bytes (max_message)",
		     g->lim.max_message);
		return 0;
	}
	memset(&m, 0, sizeof(m));
	why[0] = '\0';
	err = jsonrpc_parse(line, len, &g->lim, &m, why, sizeof(why));
	if (err != CORDON_OK || m.kind == JSONRPC_INVALID) {
		note(g,
		     "dropped a malformed message from the server (%zu "
		     "bytes): %s",
		     len, why[0] ? why : cordon_strerror(err));
	} else if (m.kind == JSONRPC_BATCH) {
		server_batch(g, &m, line, len);
	} else {
		switch (server_msg(g, &m, m.root, line, len, line, len, &out)) {
		case FATE_FORWARD:
			if (!g->client_gone &&
			    !queue_line(&g->to_client, line, len))
				note(g, "out of memory: a message was lost");
			break;
		case FATE_ANSWERED:
			answer(g, out);
			break;
		case FATE_DROP:
		default:
			break;
		}
	}
	jsonrpc_msg_free(&m);
	return 0;
}

/* ---- the server process -------------------------------------------------- */

/* Every descriptor from 3 up closes on exec: the server gets its pipes
 * and stderr, not the audit log, the pins lock or the terminal. */
static void cloexec_from_3(void)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */) ==
	    0)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);

	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = 3; fd < (int)max; fd++) {
		int fl = fcntl(fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC))
			(void)fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
	}
}

/* In the child: the pipes become stdin and stdout, then the server runs
 * (directly, or through sandbox_run). Never returns. */
static void child_run(const struct mcp_gateway_opts *o, int in_r, int out_w,
		      int err_w, pid_t parent, const sigset_t *mask)
{
	struct sigaction sa;
	int owner;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &sa, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* The server goes when the gateway goes. A gateway stopped by a
	 * signal it can take stops the server itself (stop_server); this is
	 * for one that died otherwise (SIGKILL, a crash): a plain server is
	 * killed with it, a sandboxed run is asked to end (SIGTERM, which
	 * it forwards to the server) and, MCP_KILL_AFTER_MS after the
	 * gateway's end, ended by its own watch of this pidfd, swept as
	 * every run is (a server that ignores SIGTERM, or left children). */
	(void)prctl(PR_SET_PDEATHSIG, o->sandbox ? SIGTERM : SIGKILL);
	if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0) {
		int e = errno;
		(void)!write(err_w, &e, sizeof(e));
		_exit(125);
	}
	owner = o->sandbox ? (int)syscall(SYS_pidfd_open, parent, 0) : -1;
	if (owner >= 0 && owner < 3)
		owner = fcntl(owner, F_DUPFD_CLOEXEC, 3); /* 0-2: stdio's */
	/* after the open: the pidfd is the gateway's, not a reused pid's */
	if (getppid() != parent || (o->sandbox && owner < 0))
		_exit(125);
	cloexec_from_3();
	if (!o->sandbox) {
		execvp(o->argv[0], o->argv);
		int e = errno;
		(void)!write(err_w, &e, sizeof(e));
		_exit(e == ENOENT ? 127 : 126);
	}
	close(err_w);

	struct sandbox_opts s = *o->sandbox;
	struct sandbox_report rep;
	struct cordon_diag d = { 0 };

	s.stdin_null = 0;
	s.argv_only = false;
	s.capture_out = NULL;
	s.capture_len = NULL;
	s.output_cap = 0;
	s.owner_pidfd = owner;
	s.owner_grace_ms = MCP_KILL_AFTER_MS;
	memset(&rep, 0, sizeof(rep));
	if (sandbox_run(&s, o->argv, &rep, &d) != CORDON_OK) {
		memset(&rep, 0, sizeof(rep));
		rep.status = 125;
		rep.exit_code = -1;
		rep.backend = "none";
		rep.enforcement = "none";
		(void)snprintf(rep.error, sizeof(rep.error), "%s", d.message);
	}
	if (o->sandbox_done)
		o->sandbox_done(&rep, o->sandbox_done_arg);
	_exit(rep.status);
}

static int spawn_server(struct gw *g)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ep[2] = { -1, -1 };
	pid_t parent = getpid(), pid;
	ssize_t n;
	int e = 0;

	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
	    pipe2(ep, O_CLOEXEC) != 0) {
		diag_errno(g->diag, CORDON_E_IO, errno, "pipe: %s",
			   strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		diag_errno(g->diag, CORDON_E_IO, errno, "fork: %s",
			   strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		close(in[1]);
		close(out[0]);
		close(ep[0]);
		child_run(g->o, in[0], out[1], ep[1], parent, &g->oldmask);
	}
	close(in[0]);
	close(out[1]);
	close(ep[1]);
	in[0] = out[1] = ep[1] = -1;
	do
		n = read(ep[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	ep[0] = -1;
	if (n == (ssize_t)sizeof(e)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		diag_errno(g->diag, CORDON_E_IO, e, "cannot run '%s': %s",
			   g->o->argv[0], strerror(e));
		goto fail;
	}
	g->pid = pid;
	g->sin = in[1];
	g->sout = out[0];
	(void)fcntl(g->sin, F_SETFL, fcntl(g->sin, F_GETFL) | O_NONBLOCK);
	(void)fcntl(g->sout, F_SETFL, fcntl(g->sout, F_GETFL) | O_NONBLOCK);
	g->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	return -1;
}

/* Reaps the server if it has exited (block: wait for it). */
static void reap(struct gw *g, bool block)
{
	int st;
	pid_t r;

	if (g->exited)
		return;
	do
		r = waitpid(g->pid, &st, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r != g->pid)
		return;
	g->exited = true;
	if (WIFEXITED(st))
		g->status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		g->status = 128 + WTERMSIG(st);
	else
		g->status = 125;
}

/* Kills what the sandboxed run started (its children: cordon's reaper, or
 * the command on the landlock backend), as a run's own time-out does.
 * The run then ends as every run ends, its sweep included: a SIGKILL of
 * the run itself would leave what the server planted (a repository whose
 * core.fsmonitor runs when the user's git looks, an .envrc) and the
 * placeholders. Each child is checked to be the run's after its pidfd
 * is held, so a reused pid is never hit. Returns how many were hit. */
static int kill_run_tree(pid_t run)
{
	char path[64], buf[4096], *p, *end;
	int fd, hit = 0;
	ssize_t n;

	(void)snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
		       (int)run, (int)run);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (p = buf;; p = end) {
		long c = strtol(p, &end, 10);
		char st[512], *rp;
		int pfd, sfd;
		ssize_t m;

		if (end == p || c <= 0 || c > INT_MAX)
			break;
		pfd = (int)syscall(SYS_pidfd_open, (pid_t)c, 0);
		if (pfd < 0)
			continue;
		(void)snprintf(path, sizeof(path), "/proc/%ld/stat", c);
		sfd = open(path, O_RDONLY | O_CLOEXEC);
		m = sfd >= 0 ? read(sfd, st, sizeof(st) - 1) : -1;
		if (sfd >= 0)
			close(sfd);
		if (m > 0) {
			st[m] = '\0';
			rp = strrchr(st, ')');
			/* ") S PPID ..." */
			if (rp && strtol(rp + 4, NULL, 10) == (long)run &&
			    syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL,
				    0) == 0)
				hit++;
		}
		close(pfd);
	}
	return hit;
}

/* Stops the server: a sandboxed one by its tree first, the run itself
 * only when it has not ended MCP_SWEEP_MS later. */
static void kill_server(struct gw *g)
{
	if (g->o->sandbox && !g->hard_kill_at_ms) {
		(void)kill_run_tree(g->pid);
		g->hard_kill_at_ms = now_ms() + MCP_SWEEP_MS;
		return;
	}
	kill(g->pid, SIGKILL);
}

/* ---- the loop ------------------------------------------------------------ */

/* Writes what q holds to fd; false when the reader is gone. nb: fd is
 * non-blocking (else at most PIPE_BUF bytes, which a pipe that polled
 * writable takes without blocking). */
static bool flush_some(int fd, struct obuf *q, bool nb)
{
	while (obuf_live(q)) {
		size_t n = obuf_live(q);
		ssize_t w;

		if (!nb && n > PIPE_BUF)
			n = PIPE_BUF;
		w = write(fd, q->buf + q->off, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (w < 0)
			return false;
		q->off += (size_t)w;
		if (!nb)
			return true;
	}
	q->off = q->len = 0;
	return true;
}

static void client_gone(struct gw *g)
{
	g->client_gone = true;
	g->client_eof = true;
	free(g->to_client.buf);
	memset(&g->to_client, 0, sizeof(g->to_client));
}

/* Reads what the server wrote (until EAGAIN, EOF or the queue is full). */
static void read_server(struct gw *g)
{
	char buf[MCP_READ_CHUNK];

	while (!g->server_eof && obuf_live(&g->to_client) < MCP_OUT_HIGH) {
		ssize_t n = read(g->sout, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			if (jsonrpc_framer_pending(&g->sf))
				note(g,
				     "the server's last message was cut "
				     "short (%zu bytes dropped)",
				     jsonrpc_framer_pending(&g->sf));
			g->server_eof = true;
			return;
		}
		if (jsonrpc_framer_feed(&g->sf, buf, (size_t)n, on_server_line,
				     g) != CORDON_OK)
			note(g, "out of memory reading the server");
	}
}

static void read_client(struct gw *g)
{
	char buf[MCP_READ_CHUNK];
	ssize_t n;

	do
		n = read(g->cin, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		if (jsonrpc_framer_pending(&g->cf))
			note(g,
			     "the client's last message was cut short "
			     "(%zu bytes dropped)",
			     jsonrpc_framer_pending(&g->cf));
		g->client_eof = true;
		return;
	}
	if (jsonrpc_framer_feed(&g->cf, buf, (size_t)n, on_client_line, g) !=
	    CORDON_OK)
		answer_error(g, NULL, 0, -32603,
			     "cordon gateway: out of memory");
}

/* The server is gone: every request of the client still in flight gets
 * an error answer, oldest first. */
static void answer_orphans(struct gw *g)
{
	char msg[128];

	(void)snprintf(msg, sizeof(msg),
		       "the MCP server exited (status %d) before answering",
		       g->status);
	while (g->held) {
		struct held *h = g->held;
		struct jsonrpc_msg m;
		char why[32];

		g->held = h->next;
		if (jsonrpc_parse(h->line, h->len, &g->lim, &m, why,
			       sizeof(why)) == CORDON_OK) {
			if (m.kind == JSONRPC_REQUEST)
				answer_error(g, m.id_raw, m.id_raw_len,
					     MCP_ERR_SERVER_GONE, msg);
			for (size_t i = 0; i < m.nitems; i++)
				if (m.items[i].kind == JSONRPC_REQUEST)
					answer_error(g, m.items[i].id_raw,
						     m.items[i].id_raw_len,
						     MCP_ERR_SERVER_GONE, msg);
		}
		jsonrpc_msg_free(&m);
		free(h);
	}
	g->held_tail = NULL;
	g->nheld = 0;
	g->held_bytes = 0;
	while (g->oldest) {
		struct req *r = g->oldest;
		req_remove(g, r);
		if (r->kind != REQ_GW_LIST)
			answer_error(g, r->id_raw, r->id_raw_len,
				     MCP_ERR_SERVER_GONE, msg);
		free(r);
	}
}

/* Closes the server's stdin: it should exit now; it is killed if it has
 * not MCP_KILL_AFTER_MS later. */
static void close_server_stdin(struct gw *g)
{
	if (g->sin >= 0) {
		close(g->sin);
		g->sin = -1;
	}
	free(g->to_server.buf);
	memset(&g->to_server, 0, sizeof(g->to_server));
	if (!g->kill_at_ms)
		g->kill_at_ms = now_ms() + MCP_KILL_AFTER_MS;
}

/* SIGTERM, SIGINT or SIGHUP of the gateway (how agents stop MCP
 * servers): the server is asked to stop as the gateway was (SIGTERM; a
 * sandboxed run forwards it to the command) and its input closed, and is
 * killed MCP_KILL_AFTER_MS later as after the client's EOF (a sandboxed
 * run by its tree, then swept). The client is read no more; the gateway
 * then exits as the signal would have made it. */
static void stop_server(struct gw *g)
{
	struct signalfd_siginfo si;

	while (read(g->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (g->stop_sig)
			continue;
		g->stop_sig = (int)si.ssi_signo;
		note(g, "got signal %d: stopping the server", g->stop_sig);
		if (!g->exited)
			(void)kill(g->pid, SIGTERM);
		g->client_eof = true;
		g->nheld = 0; /* freed at the end, never sent */
		close_server_stdin(g);
	}
}

static void loop(struct gw *g)
{
	for (;;) {
		struct pollfd p[6];
		int np = 0, icin = -1, isout = -1, icout = -1, isin = -1;
		int ipid = -1, isig = -1, timeout = -1;
		bool full = obuf_live(&g->to_client) >= MCP_OUT_HIGH ||
			    obuf_live(&g->to_server) >= MCP_OUT_HIGH;

		/* the client closed and everything it sent is delivered, or
		 * the server closed its stdout: it should exit */
		if ((g->client_eof && !obuf_live(&g->to_server) && !g->nheld) ||
		    g->server_eof)
			close_server_stdin(g);
		if (g->nheld && (!g->gw_listing || now_ms() >= g->hold_until)) {
			if (g->gw_listing)
				note(g,
				     "the server did not answer the "
				     "gateway's tools/list in %d s: held "
				     "calls are decided on the pins as they "
				     "are",
				     MCP_HOLD_MS / 1000);
			release_held(g);
			continue;
		}
		if (g->exited && g->server_eof)
			return;
		if (g->server_eof && !g->exited && g->pidfd < 0)
			reap(g, false);
		if (g->exited) {
			/* what it wrote before exiting is in the pipe */
			read_server(g);
			if (g->server_eof ||
			    obuf_live(&g->to_client) < MCP_OUT_HIGH)
				return;
		}

		if (!g->client_eof && !full) {
			icin = np;
			p[np++] = (struct pollfd){ g->cin, POLLIN, 0 };
		}
		if (!g->server_eof && obuf_live(&g->to_client) < MCP_OUT_HIGH) {
			isout = np;
			p[np++] = (struct pollfd){ g->sout, POLLIN, 0 };
		}
		if (!g->client_gone && obuf_live(&g->to_client)) {
			icout = np;
			p[np++] = (struct pollfd){ g->cout, POLLOUT, 0 };
		}
		if (g->sin >= 0 && obuf_live(&g->to_server)) {
			isin = np;
			p[np++] = (struct pollfd){ g->sin, POLLOUT, 0 };
		}
		if (g->sfd >= 0 && !g->stop_sig) {
			isig = np;
			p[np++] = (struct pollfd){ g->sfd, POLLIN, 0 };
		}
		if (g->pidfd >= 0 && !g->exited) {
			ipid = np;
			p[np++] = (struct pollfd){ g->pidfd, POLLIN, 0 };
		} else if (!g->exited) {
			timeout = 100; /* no pidfd: look now and then */
		}
		if (g->nheld) {
			long left = g->hold_until - now_ms();
			if (left < 0)
				left = 0;
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
		}
		if (g->kill_at_ms && !g->exited) {
			long left = g->kill_at_ms - now_ms();
			if (left <= 0) {
				if (!g->killed) {
					note(g,
					     "the server did not exit %d s "
					     "after its input closed: "
					     "killed",
					     MCP_KILL_AFTER_MS / 1000);
					kill_server(g);
					g->killed = true;
				} else if (g->hard_kill_at_ms &&
					   now_ms() >= g->hard_kill_at_ms) {
					note(g,
					     "the sandboxed run did not end %d "
					     "s after its tree was killed: "
					     "killed without its sweep",
					     MCP_SWEEP_MS / 1000);
					kill(g->pid, SIGKILL);
					g->hard_kill_at_ms = 0;
				}
				left = 100;
			}
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
		}
		if (poll(p, (nfds_t)np, timeout) < 0) {
			if (errno == EINTR)
				continue;
			note(g, "poll: %s", strerror(errno));
			kill(g->pid, SIGKILL);
			reap(g, true);
			return;
		}
		if (isout >= 0 && p[isout].revents)
			read_server(g);
		if (icout >= 0 && p[icout].revents &&
		    !flush_some(g->cout, &g->to_client, g->cout_nb))
			client_gone(g);
		if (isin >= 0 && p[isin].revents &&
		    !flush_some(g->sin, &g->to_server, true)) {
			/* the server closed its stdin: what it was sent is
			 * lost, its answers are errors at its exit */
			close_server_stdin(g);
		}
		if (isig >= 0 && p[isig].revents)
			stop_server(g);
		if (icin >= 0 && p[icin].revents && !g->stop_sig)
			read_client(g);
		if ((ipid >= 0 && p[ipid].revents) || ipid < 0)
			reap(g, false);
	}
}

/* Writes the rest to the client, blocking (the session is over). */
static void drain_client(struct gw *g)
{
	while (!g->client_gone && obuf_live(&g->to_client)) {
		struct pollfd p = { g->cout, POLLOUT, 0 };
		int r = poll(&p, 1, 5000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || !flush_some(g->cout, &g->to_client, g->cout_nb))
			break;
	}
}

int mcp_gateway_run(const struct mcp_gateway_opts *o, struct cordon_diag *diag)
{
	struct sigaction ign, old_pipe;
	struct gw *g;
	struct stat st;
	sigset_t stop;
	int status;

	if (!o || !o->name || !o->argv || !o->argv[0] || !o->policy ||
	    !o->pins) {
		diag_errno(diag, CORDON_E_INVAL, 0,
			   "mcp gateway: name, argv, policy and pins are "
			   "required");
		return 125;
	}
	g = cordon__calloc(1, sizeof(*g));
	if (!g) {
		diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
		return 125;
	}
	g->o = o;
	g->diag = diag;
	g->lim = o->limits;
	if (!g->lim.max_message)
		g->lim.max_message = (size_t)4 << 20;
	if (!g->lim.max_depth)
		g->lim.max_depth = 64;
	if (!g->lim.max_batch)
		g->lim.max_batch = 256;
	g->cin = o->client_in;
	g->cout = o->client_out;
	g->sin = g->sout = g->pidfd = g->sfd = -1;
	g->cout_flags = -1;
	g->pins = o->pins;
	g->res = cordon_result_new();
	if (!g->res) {
		diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
		free(g);
		return 125;
	}
	jsonrpc_framer_init(&g->cf, g->lim.max_message);
	jsonrpc_framer_init(&g->sf, g->lim.max_message);

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &g->oldmask);
	g->sfd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);

	if (spawn_server(g) != 0) {
		status = 125;
		goto out;
	}
	/* A pipe or socket to the client is made non-blocking so a client
	 * that does not read never stalls the gateway (restored after). */
	if (fstat(g->cout, &st) == 0 &&
	    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
		g->cout_flags = fcntl(g->cout, F_GETFL);
		if (g->cout_flags >= 0 &&
		    fcntl(g->cout, F_SETFL, g->cout_flags | O_NONBLOCK) == 0)
			g->cout_nb = true;
		else
			g->cout_flags = -1;
	}

	loop(g);
	if (!g->exited) {
		kill(g->pid, SIGKILL);
		reap(g, true);
	}
	answer_orphans(g);
	drain_client(g);
	status = g->stop_sig ? 128 + g->stop_sig : g->status;
out:
	sigaction(SIGPIPE, &old_pipe, NULL);
	if (g->sfd >= 0)
		close(g->sfd);
	sigprocmask(SIG_SETMASK, &g->oldmask, NULL);
	if (g->cout_flags >= 0)
		(void)fcntl(g->cout, F_SETFL, g->cout_flags);
	if (g->sin >= 0)
		close(g->sin);
	if (g->sout >= 0)
		close(g->sout);
	if (g->pidfd >= 0)
		close(g->pidfd);
	while (g->oldest) {
		struct req *r = g->oldest;
		req_remove(g, r);
		free(r);
	}
	while (g->held) {
		struct held *h = g->held;
		g->held = h->next;
		free(h);
	}
	for (size_t i = 0; i < g->nnoted; i++)
		free(g->noted[i]);
	free(g->noted);
	free(g->to_client.buf);
	free(g->to_server.buf);
	jsonrpc_framer_free(&g->cf);
	jsonrpc_framer_free(&g->sf);
	cordon_result_free(g->res);
	free(g);
	return status;
}
