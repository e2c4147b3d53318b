/* test_jsonrpc — the framer, the JSON-RPC 2.0 parser and the answers the
 * gateway writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrpc.h"
#include "tap.h"

/* ---- framer ------------------------------------------------------------- */

struct got {
	char text[4096]; /* lines joined with '|', too_long as "<LONG>" */
	size_t n;
	int stop_after; /* stop when this many events were seen; 0: never */
	int events;
	size_t long_len;
};

static int collect(void *ud, const char *line, size_t len, bool too_long)
{
	struct got *g = ud;
	const char *s = too_long ? "<LONG>" : line;
	size_t l = too_long ? 6 : len;

	if (too_long) {
		if (line != NULL)
			l = 0;
		g->long_len = len;
	}
	if (g->n + l + 2 < sizeof(g->text)) {
		memcpy(g->text + g->n, s, l);
		g->n += l;
		g->text[g->n++] = '|';
		g->text[g->n] = '\0';
	}
	g->events++;
	return g->stop_after && g->events >= g->stop_after;
}

static void feed_all(struct jsonrpc_framer *f, const char *s, size_t n,
		     struct got *g)
{
	if (jsonrpc_framer_feed(f, s, n, collect, g) != CORDON_OK)
		diag("feed failed");
}

static void test_framer_basic(void)
{
	static const char in[] = "a\nb\r\n\n\r\n\r\nccc\nlast";
	struct jsonrpc_framer f;
	struct got g = { 0 };

	jsonrpc_framer_init(&f, 100);
	feed_all(&f, in, sizeof(in) - 1, &g);
	is_str(g.text, "a|b|ccc|", "lines, CR cut, empty lines skipped");
	is_int((long long)jsonrpc_framer_pending(&f), 4, "unfinished line held");
	feed_all(&f, "!\n", 2, &g);
	is_str(g.text, "a|b|ccc|last!|", "finished by the next feed");
	is_int((long long)jsonrpc_framer_pending(&f), 0, "nothing pending");
	feed_all(&f, "cr\r\r\n", 5, &g);
	is_str(g.text, "a|b|ccc|last!|cr\r|", "only one \r is cut");
	jsonrpc_framer_free(&f);
	jsonrpc_framer_free(&f);
	ok(1, "framer free twice is harmless");
}

/* Every way of cutting the stream into two pieces, and one byte at a
 * time, yields the same events as one feed. */
static void test_framer_splits(void)
{
	static const char in[] =
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\r\n"
		"\n"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
		"{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n"
		"0123456789012345678901234567890123456789\r\n"
		"01234567890123456789012345678901234567890\n"
		"\r\n"
		"[1,2]\n"
		"tail";
	size_t n = sizeof(in) - 1, bad = 0;
	struct jsonrpc_framer f;
	struct got whole = { 0 };

	jsonrpc_framer_init(&f, 40);
	feed_all(&f, in, n, &whole);
	is_str(whole.text,
	       "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}|<LONG>|"
	       "{\"jsonrpc\":\"2.0\",\"method\":\"b\"}|"
	       "0123456789012345678901234567890123456789|<LONG>|[1,2]|",
	       "reference events (40 bytes pass, 41 do not)");
	is_int((long long)jsonrpc_framer_pending(&f), 4, "tail pending");
	jsonrpc_framer_free(&f);

	for (size_t cut = 0; cut <= n; cut++) {
		struct got g = { 0 };

		jsonrpc_framer_init(&f, 40);
		feed_all(&f, in, cut, &g);
		feed_all(&f, in + cut, n - cut, &g);
		if (strcmp(g.text, whole.text) != 0 ||
		    jsonrpc_framer_pending(&f) != 4) {
			if (bad++ == 0)
				diag("cut at %zu: %s", cut, g.text);
		}
		jsonrpc_framer_free(&f);
	}
	is_int((long long)bad, 0, "every two-piece cut gives the same lines");

	{
		struct got g = { 0 };

		jsonrpc_framer_init(&f, 40);
		for (size_t i = 0; i < n; i++)
			feed_all(&f, in + i, 1, &g);
		is_str(g.text, whole.text, "byte at a time gives the same");
		jsonrpc_framer_free(&f);
	}
}

static void test_framer_long(void)
{
	struct jsonrpc_framer f;
	struct got g = { 0 };
	char big[100];

	memset(big, 'x', sizeof(big));
	jsonrpc_framer_init(&f, 10);
	feed_all(&f, "ok\n", 3, &g);
	feed_all(&f, big, 30, &g);
	is_str(g.text, "ok|<LONG>|", "one report as soon as it is over");
	ok(g.long_len > 10, "reported length is past the ceiling (%zu)",
	   g.long_len);
	is_int((long long)jsonrpc_framer_pending(&f), 0, "nothing buffered");
	feed_all(&f, big, 70, &g);
	feed_all(&f, "xx\nnext\n", 8, &g);
	is_str(g.text, "ok|<LONG>|next|",
	       "dropped whole, no second report, resync at the newline");
	ok(f.pend.cap <= 64, "buffer stayed small (%zu)", f.pend.cap);
	feed_all(&f, "0123456789\r", 11, &g);
	feed_all(&f, "\n", 1, &g);
	is_str(g.text, "ok|<LONG>|next|0123456789|",
	       "max bytes plus \\r\\n split before the \\n passes");
	feed_all(&f, "0123456789a", 11, &g);
	is_str(g.text, "ok|<LONG>|next|0123456789|<LONG>|",
	       "max + 1 bytes without \\r is over at once");
	feed_all(&f, "\n", 1, &g);
	jsonrpc_framer_free(&f);

	jsonrpc_framer_init(&f, 0);
	is_int((long long)f.max, 4 * 1024 * 1024, "max 0 means 4 MiB");
	jsonrpc_framer_free(&f);
}

static void test_framer_stop(void)
{
	struct jsonrpc_framer f;
	struct got g = { 0 };

	g.stop_after = 1;
	jsonrpc_framer_init(&f, 10);
	feed_all(&f, "one\ntwo\nthree\nfo", 16, &g);
	is_str(g.text, "one|", "stopped after the first line");
	is_int((long long)jsonrpc_framer_pending(&f), 12, "the rest is kept");
	g.stop_after = 0;
	feed_all(&f, NULL, 0, &g);
	is_str(g.text, "one|two|three|", "an empty feed resumes");
	feed_all(&f, "ur\n", 3, &g);
	is_str(g.text, "one|two|three|four|", "and the partial line goes on");

	g.stop_after = g.events + 1;
	feed_all(&f, "aaaaaaaaaaaaaaaaaaaa\nb\n", 23, &g);
	is_str(g.text, "one|two|three|four|<LONG>|", "stop after too_long");
	g.stop_after = 0;
	feed_all(&f, "c\n", 2, &g);
	is_str(g.text, "one|two|three|four|<LONG>|b|c|",
	       "kept lines come before new data");
	jsonrpc_framer_free(&f);

	/* What is kept after a stop may be an unfinished line already over
	 * the ceiling: the next feed reports it (found by fuzz_jsonrpc). */
	memset(&g, 0, sizeof(g));
	g.stop_after = 1;
	jsonrpc_framer_init(&f, 10);
	feed_all(&f, "one\nxxxxxxxxxxxxxxx", 19, &g);
	is_str(g.text, "one|", "stopped with a long tail kept");
	g.stop_after = 0;
	feed_all(&f, NULL, 0, &g);
	is_str(g.text, "one|<LONG>|", "the kept tail is reported too long");
	is_int((long long)jsonrpc_framer_pending(&f), 0, "and not kept");
	feed_all(&f, "x\ntwo\n", 6, &g);
	is_str(g.text, "one|<LONG>|two|", "then dropped up to its newline");
	jsonrpc_framer_free(&f);
}

/* ---- parser ------------------------------------------------------------- */

struct parsed {
	struct jsonrpc_msg m;
	enum cordon_err rc;
	char why[160];
	char raw[128]; /* id_raw copied, or "(none)" */
};

static void parse(struct parsed *p, const char *line,
		  const struct jsonrpc_limits *lim)
{
	memset(p, 0, sizeof(*p));
	p->rc = jsonrpc_parse(line, strlen(line), lim, &p->m, p->why,
			   sizeof(p->why));
	if (p->m.id_raw && p->m.id_raw_len < sizeof(p->raw)) {
		memcpy(p->raw, p->m.id_raw, p->m.id_raw_len);
		p->raw[p->m.id_raw_len] = '\0';
		if (p->m.id_raw < line ||
		    p->m.id_raw + p->m.id_raw_len > line + strlen(line))
			memcpy(p->raw, "(outside the line)", 19);
	} else {
		memcpy(p->raw, "(none)", 7);
	}
}

static void test_kinds(void)
{
	struct parsed p;

	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
	      "\"params\":{\"name\":\"read\",\"arguments\":{}}}",
	      NULL);
	ok(p.rc == CORDON_OK && p.m.kind == JSONRPC_REQUEST, "request");
	is_str(p.m.method, "tools/call", "method");
	ok(cJSON_IsObject(p.m.params) &&
		   cJSON_GetObjectItem(p.m.params, "name"),
	   "params");
	is_str(p.raw, "7", "id_raw");
	is_str(p.m.id_key, "n:7", "id_key of a number");
	ok(cJSON_IsNumber(p.m.id), "id item");
	is_str(p.why, "", "no why for a valid message");
	jsonrpc_msg_free(&p.m);

	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/"
	      "list_changed\"}",
	      NULL);
	ok(p.m.kind == JSONRPC_NOTIFICATION && p.m.id == NULL &&
		   p.m.id_raw == NULL && p.m.id_key[0] == '\0',
	   "notification has no id");
	jsonrpc_msg_free(&p.m);

	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"id\":\"a1\",\"result\":{\"tools\":[]}}",
	      NULL);
	ok(p.m.kind == JSONRPC_RESPONSE && p.m.method == NULL, "result response");
	is_str(p.raw, "\"a1\"", "string id_raw keeps its quotes");
	is_str(p.m.id_key, "s:a1", "id_key of a string");
	jsonrpc_msg_free(&p.m);

	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
	      "\"message\":\"Parse error\"}}",
	      NULL);
	ok(p.m.kind == JSONRPC_RESPONSE, "error response with a null id");
	is_str(p.raw, "null", "null id_raw");
	is_str(p.m.id_key, "null", "null id_key");
	jsonrpc_msg_free(&p.m);

	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", NULL);
	ok(p.m.kind == JSONRPC_REQUEST && p.m.params == NULL,
	   "request without params");
	jsonrpc_msg_free(&p.m);

	parse(&p,
	      " {\"method\":\"x\",\"params\":[1,2],\"jsonrpc\":\"2.0\","
	      "\"id\":-3} ",
	      NULL);
	ok(p.m.kind == JSONRPC_REQUEST && cJSON_IsArray(p.m.params),
	   "member order free, array params, surrounding spaces");
	is_str(p.raw, "-3", "negative id");
	jsonrpc_msg_free(&p.m);
}

static void invalid(const char *line, const char *why, const char *name)
{
	struct parsed p;

	parse(&p, line, NULL);
	ok(p.rc == CORDON_OK && p.m.kind == JSONRPC_INVALID &&
		   strstr(p.why, why) != NULL,
	   "invalid: %s (%s)", name, p.why);
	jsonrpc_msg_free(&p.m);
}

static void test_invalid(void)
{
	struct parsed p;

	invalid("{\"id\":1,\"method\":\"a\"}", "\"jsonrpc\" must be",
		"no jsonrpc member");
	invalid("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"a\"}",
		"\"jsonrpc\" must be", "jsonrpc 1.0");
	invalid("{\"jsonrpc\":2.0,\"id\":1,\"method\":\"a\"}",
		"\"jsonrpc\" must be", "jsonrpc as a number");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}",
		"method must be a string", "numeric method");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"a\"}",
		"id must be a string, number or null", "object id");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"a\"}",
		"id must be", "boolean id");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":[1],\"result\":1}", "id must be",
		"array id");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"a\"}",
		"id must be", "id with a leading zero");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":3}",
		"params must be an object or array", "scalar params");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"result\":1}",
		"cannot carry result", "request with a result");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1,\"error\":{"
		"\"code\":1,\"message\":\"m\"}}",
		"not both", "result and error");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1}", "neither method",
		"no method, result or error");
	invalid("{\"jsonrpc\":\"2.0\",\"result\":1}", "needs an id",
		"response without id");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"bad\"}",
		"error must be an object", "string error");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\","
		"\"message\":\"m\"}}",
		"numeric code", "error code as a string");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"method\":"
		"\"b\"}",
		"member \"method\" appears twice", "duplicate method");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"result\":1}",
		"member \"id\" appears twice", "duplicate id in a response");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		"\"params\":{\"arguments\":{\"path\":\"/ok\",\"path\":"
		"\"/etc/shadow\"}}}",
		"member \"path\" appears twice",
		"duplicate argument in params");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		"\"params\":{\"arguments\":{\"path\":\"/ok\\u0000/etc\"}}}",
		"\\u0000", "NUL escape in a request");
	invalid("not json", "not JSON", "not JSON");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"} x", "not JSON",
		"trailing garbage");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"", "not JSON",
		"cut short");
	invalid("3", "not an object or array", "a number");
	invalid("\"x\"", "not an object or array", "a string");
	invalid("[]", "empty batch", "empty batch");

	/* A response may carry a NUL in its text: passed on, not judged. */
	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"a\\u0000\"}}",
	      NULL);
	ok(p.m.kind == JSONRPC_RESPONSE, "NUL escape in a response is allowed");
	jsonrpc_msg_free(&p.m);

	/* The id is still found so the error answer can carry it. */
	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":\"q\\\"1\",\"method\":", NULL);
	ok(p.m.kind == JSONRPC_INVALID && p.m.root == NULL, "broken line");
	is_str(p.raw, "\"q\\\"1\"", "its id is found anyway");
	jsonrpc_msg_free(&p.m);
	parse(&p, "{\"jsonrpc\":\"1.0\",\"id\":42,\"method\":\"a\"}", NULL);
	is_str(p.raw, "42", "id of a message with a wrong version");
	is_str(p.m.id_key, "n:42", "and its key");
	jsonrpc_msg_free(&p.m);
	parse(&p, "{\"id\":{\"x\":1},\"jsonrpc\":\"2.0\",\"method\":\"a\"}",
	      NULL);
	ok(p.m.id_raw == NULL && p.m.id == NULL && p.m.id_key[0] == '\0',
	   "an object id is not copied");
	jsonrpc_msg_free(&p.m);
}

static void test_ids(void)
{
	struct parsed p, q;
	char line[512];

	/* The raw bytes: escapes, a number past 2^64, one past a double. */
	static const char *const raws[] = {
		"\"a\\\"b\\\\c\\u00e9\\ud83d\\ude00/\"",
		"12345678901234567890",
		"1e400",
		"-1.50E+3",
		"0",
		"\"\"",
	};
	for (size_t i = 0; i < sizeof(raws) / sizeof(raws[0]); i++) {
		(void)snprintf(
			line, sizeof(line),
			"{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":%s}",
			raws[i]);
		parse(&p, line, NULL);
		ok(p.m.kind == JSONRPC_REQUEST && strcmp(p.raw, raws[i]) == 0,
		   "id %s kept byte for byte (got %s)", raws[i], p.raw);
		ok(p.m.id_key[0] != '\0', "id %s has a key (%s)", raws[i],
		   p.m.id_key);
		jsonrpc_msg_free(&p.m);
	}

	/* Spellings a server may echo back map to the same key. */
	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"m\"}", NULL);
	parse(&q, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", NULL);
	is_str(p.m.id_key, q.m.id_key, "1.0 and 1 are one id");
	is_str(p.m.id_key, "n:1", "in ECMAScript form");
	jsonrpc_msg_free(&p.m);
	jsonrpc_msg_free(&q.m);
	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061b\",\"method\":\"m\"}",
	      NULL);
	parse(&q, "{\"jsonrpc\":\"2.0\",\"id\":\"ab\",\"result\":{}}", NULL);
	is_str(p.m.id_key, q.m.id_key, "\"\\u0061b\" and \"ab\" are one id");
	jsonrpc_msg_free(&p.m);
	jsonrpc_msg_free(&q.m);
	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"m\"}", NULL);
	parse(&q, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}", NULL);
	ok(strcmp(p.m.id_key, q.m.id_key) != 0, "\"1\" and 1 are two ids");
	jsonrpc_msg_free(&p.m);
	jsonrpc_msg_free(&q.m);
	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,"
	      "\"method\":\"m\"}",
	      NULL);
	parse(&q,
	      "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567000,"
	      "\"result\":{}}",
	      NULL);
	is_str(p.m.id_key, q.m.id_key,
	       "a big id and the double a JavaScript server echoes match");
	jsonrpc_msg_free(&p.m);
	jsonrpc_msg_free(&q.m);

	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0000b\",\"result\":1}",
	      NULL);
	parse(&q, "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":1}", NULL);
	ok(strncmp(p.m.id_key, "h:", 2) == 0 &&
		   strcmp(p.m.id_key, q.m.id_key) != 0,
	   "an id with a NUL is not the id before the NUL");
	jsonrpc_msg_free(&p.m);
	jsonrpc_msg_free(&q.m);

	memset(line, 0, sizeof(line));
	{
		static const char head[] =
			"{\"jsonrpc\":\"2.0\",\"result\":1,\"id\":\"";
		size_t h = sizeof(head) - 1;

		memcpy(line, head, h);
		memset(line + h, 'k', 200);
		memcpy(line + h + 200, "\"}", 3);
	}
	parse(&p, line, NULL);
	ok(p.m.kind == JSONRPC_RESPONSE && strncmp(p.m.id_key, "h:", 2) == 0 &&
		   strlen(p.m.id_key) == 66,
	   "a long string id is keyed by its hash");
	ok(p.m.id_raw_len == 202, "its raw bytes are whole");
	{
		char *esc = strstr(line, "kkkkkk");

		memmove(esc + 6, esc + 1, strlen(esc + 1) + 1);
		memcpy(esc, "\\u006b", 6);
		parse(&q, line, NULL);
		is_str(q.m.id_key, p.m.id_key,
		       "a long id spelt with an escape has the same key");
		jsonrpc_msg_free(&q.m);
	}
	jsonrpc_msg_free(&p.m);
	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":1e400,\"result\":1}", NULL);
	parse(&q, "{\"jsonrpc\":\"2.0\",\"id\":2e400,\"result\":1}", NULL);
	ok(strncmp(p.m.id_key, "h:", 2) == 0 &&
		   strcmp(p.m.id_key, q.m.id_key) != 0,
	   "ids past a double are keyed by their bytes");
	jsonrpc_msg_free(&p.m);
	jsonrpc_msg_free(&q.m);

	/* The scanner skips nested values and strings that look like ids. */
	parse(&p,
	      "{\"params\":{\"id\":5,\"s\":\"}\\\"id\\\":9\"},\"x\":[{\"id\":"
	      "6}],\"\\u0069d\":3,\"jsonrpc\":\"2.0\",\"method\":\"m\"}",
	      NULL);
	is_str(p.raw, "3", "the top-level id, its name escaped");
	ok(cJSON_IsNumber(p.m.id) && p.m.id->valueint == 3,
	   "the same member cJSON has");
	jsonrpc_msg_free(&p.m);
}

static void test_batch(void)
{
	static const char line[] =
		"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},"
		" {\"jsonrpc\":\"2.0\",\"method\":\"n\"} ,"
		"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":[]},"
		"5,"
		"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":7}]";
	struct jsonrpc_msg m;
	char why[160];
	enum cordon_err rc;

	rc = jsonrpc_parse(line, sizeof(line) - 1, NULL, &m, why, sizeof(why));
	ok(rc == CORDON_OK && m.kind == JSONRPC_BATCH && m.nitems == 5,
	   "batch of 5");
	if (m.nitems == 5) {
		ok(m.items[0].kind == JSONRPC_REQUEST &&
			   m.items[1].kind == JSONRPC_NOTIFICATION &&
			   m.items[2].kind == JSONRPC_RESPONSE &&
			   m.items[3].kind == JSONRPC_INVALID &&
			   m.items[4].kind == JSONRPC_INVALID,
		   "item kinds");
		ok(m.items[0].id_raw > line &&
			   m.items[0].id_raw < line + sizeof(line) &&
			   m.items[0].id_raw_len == 1 &&
			   m.items[0].id_raw[0] == '1',
		   "item id_raw points into the line");
		ok(m.items[2].id_raw_len == 3 &&
			   memcmp(m.items[2].id_raw, "\"x\"", 3) == 0,
		   "third item's id");
		ok(m.items[4].id_raw_len == 2 &&
			   memcmp(m.items[4].id_raw, "99", 2) == 0,
		   "an invalid item keeps its id");
		is_str(m.items[0].method, "a", "item method");
		is_str(m.items[2].id_key, "s:x", "item id_key");
		ok(m.items[0].root == NULL, "items borrow the root");
	}
	is_str(why, "item 3: not an object", "why names the first bad item");
	jsonrpc_msg_free(&m);
	jsonrpc_msg_free(&m);
	ok(1, "msg free twice is harmless");
}

static void test_limits(void)
{
	struct jsonrpc_limits lim = { .max_message = 64,
				   .max_depth = 3,
				   .max_batch = 2 };
	struct parsed p;

	parse(&p,
	      "{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"m\",\"params\":"
	      "{\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}}",
	      &lim);
	ok(p.rc == CORDON_E_LIMIT && p.m.kind == JSONRPC_INVALID &&
		   strstr(p.why, "max_message (64)"),
	   "max_message (%s)", p.why);
	is_str(p.raw, "\"big\"", "id found in an over-long message");
	jsonrpc_msg_free(&p.m);

	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":1,\"params\":[[[1]]]}", &lim);
	ok(p.rc == CORDON_E_LIMIT && strstr(p.why, "max_depth (3)"),
	   "max_depth (%s)", p.why);
	is_str(p.raw, "1", "id found in a too deep message");
	jsonrpc_msg_free(&p.m);
	parse(&p, "{\"jsonrpc\":\"2.0\",\"id\":1,\"params\":[[\"[[[\"]]}",
	      &lim);
	ok(p.rc == CORDON_OK, "brackets in strings do not count");
	jsonrpc_msg_free(&p.m);

	parse(&p, "[{},{},{}]", &lim);
	ok(p.rc == CORDON_E_LIMIT && strstr(p.why, "max_batch (2)"),
	   "max_batch (%s)", p.why);
	jsonrpc_msg_free(&p.m);
	parse(&p, "[{},{}]", &lim);
	ok(p.rc == CORDON_OK && p.m.kind == JSONRPC_BATCH, "batch at the limit");
	jsonrpc_msg_free(&p.m);

	is_int(jsonrpc_depth("[{\"a\":[1]}]", 11, 64), 3, "depth 3");
	is_int(jsonrpc_depth("\"[[[\"", 5, 64), 0, "brackets in a string");
	is_int(jsonrpc_depth("[\"\\\"[\"]", 7, 64), 1, "escaped quote");
	is_int(jsonrpc_depth("[[[[[[", 6, 2), 3, "counting stops at stop_at+1");
}

/* ---- answers ------------------------------------------------------------ */

static void test_builders(void)
{
	static const char big[] = "12345678901234567890";
	char *s;
	cJSON *j;

	s = jsonrpc_error_response(big, sizeof(big) - 1, -32600,
				"Invalid Request");
	is_str(s,
	       "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"error\":{"
	       "\"code\":-32600,\"message\":\"Invalid Request\"}}\n",
	       "error answer keeps a big id exactly");
	free(s);
	s = jsonrpc_error_response(NULL, 0, -32700, "Parse error");
	is_str(s,
	       "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
	       "\"message\":\"Parse error\"}}\n",
	       "no id is null");
	free(s);

	s = jsonrpc_tool_error_result("\"r\\u00e9q\"", 10,
				   "blocked: \"rm\" \\ said\nno\x01 \xff end");
	is_str(s,
	       "{\"jsonrpc\":\"2.0\",\"id\":\"r\\u00e9q\","
	       "\"result\":{\"content\":[{\"type\":\"text\","
	       "\"text\":\"blocked: \\\"rm\\\" \\\\ said\\nno"
	       "\\u0001 \xef\xbf\xbd end\"}],\"isError\":true}}\n",
	       "tool error: text escaped, bad UTF-8 replaced, id as written");
	j = s ? cJSON_Parse(s) : NULL;
	ok(j && cJSON_IsTrue(cJSON_GetObjectItem(
			cJSON_GetObjectItem(j, "result"), "isError")),
	   "tool error parses");
	cJSON_Delete(j);
	free(s);

	{
		static const char line[] =
			"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"tools/"
			"list\",\"params\":{\"id\":\"inner\"}}";
		struct jsonrpc_msg m;
		char why[64];

		if (jsonrpc_parse(line, sizeof(line) - 1, NULL, &m, why,
			       sizeof(why)) != CORDON_OK)
			diag("parse failed: %s", why);
		cJSON_DeleteItemFromObject(m.root, "params");
		s = jsonrpc_print_with_id(m.root, m.id_raw, m.id_raw_len);
		is_str(s,
		       "{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"tools/"
		       "list\"}\n",
		       "re-serialised with the raw id (cJSON alone prints "
		       "null)");
		free(s);
		s = jsonrpc_print_with_id(m.root, NULL, 0);
		is_str(s,
		       "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/"
		       "list\"}\n",
		       "NULL id_raw gives null");
		free(s);
		jsonrpc_msg_free(&m);
	}
	{
		cJSON *o =
			cJSON_Parse("{\"a\":{\"id\":1},\"b\":\"\\\"id\\\":\"}");

		s = jsonrpc_print_with_id(o, "5", 1);
		is_str(s, "{\"a\":{\"id\":1},\"b\":\"\\\"id\\\":\"}\n",
		       "no top-level id: unchanged");
		free(s);
		cJSON_AddStringToObject(o, "id", "x");
		s = jsonrpc_print_with_id(o, "\"y\"", 3);
		is_str(s,
		       "{\"a\":{\"id\":1},\"b\":\"\\\"id\\\":\","
		       "\"id\":\"y\"}\n",
		       "only the top-level id replaced");
		free(s);
		cJSON_Delete(o);
	}
}

/* What the red team found: member names equal but for case, raw control
 * characters (a NUL inside a tool name), each refused with the id kept. */
static void test_lookalikes(void)
{
	static const char nul_name[] =
		"{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"tools/call\","
		"\"params\":{\"name\":\"echo\0danger\"}}";
	struct jsonrpc_msg m;
	char why[160];
	cJSON *v;
	bool nomem;

	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
		"\"params\":{\"name\":\"a\",\"NAME\":\"b\"}}",
		"appears twice", "params.name and params.NAME");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"METHOD\":\"x\","
		"\"method\":\"ping\"}",
		"appears twice", "METHOD next to method");
	invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\f\"method\":\"ping\"}",
		"raw control character", "a form feed between members");
	ok(jsonrpc_parse(nul_name, sizeof(nul_name) - 1, NULL, &m, why,
		      sizeof(why)) == CORDON_OK &&
		   m.kind == JSONRPC_INVALID && strstr(why, "control") &&
		   m.id_raw && m.id_raw_len == 4 &&
		   memcmp(m.id_raw, "\"r1\"", 4) == 0,
	   "invalid: a raw NUL in the tool name, id kept (%s)", why);
	jsonrpc_msg_free(&m);
	v = cJSON_Parse("{\"a\":{\"text\":1,\"TEXT\":2}}");
	ok(v && jsonrpc_dup_member(v, &nomem) &&
		   strcmp(jsonrpc_dup_member(v, &nomem), "TEXT") == 0 && !nomem,
	   "jsonrpc_dup_member: TEXT after text, one level down");
	cJSON_Delete(v);
	v = cJSON_Parse("{\"a\":{\"text\":1,\"txt\":2}}");
	ok(v && !jsonrpc_dup_member(v, &nomem), "jsonrpc_dup_member: none");
	cJSON_Delete(v);
}

int main(void)
{
	tap_no_plan();
	test_lookalikes();
	test_framer_basic();
	test_framer_splits();
	test_framer_long();
	test_framer_stop();
	test_kinds();
	test_invalid();
	test_ids();
	test_batch();
	test_limits();
	test_builders();
	return tap_done();
}
