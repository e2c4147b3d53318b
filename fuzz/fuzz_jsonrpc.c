/* Fuzz target: the JSON-RPC framer and parser. The first byte picks a line
 * ceiling, the next two a split point; the rest is fed whole, in two pieces
 * and in pieces of varying size, and every way must give the same lines.
 * Each line is parsed: an id_raw lies inside its line, and the answers
 * built with it (error, tool error, re-serialised message) are valid JSON
 * ending in one newline. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "jsonrpc.h"

#include "banned.h"

struct trace {
	uint64_t hash; /* over the events, order included */
	size_t events;
	int stop_every; /* 0: never stop */
};

static void must_be_json_line(char *s)
{
	size_t n;
	cJSON *j;

	if (!s)
		return; /* out of memory */
	n = strlen(s);
	if (n == 0 || s[n - 1] != '\n' || memchr(s, '\n', n - 1))
		abort();
	j = cJSON_ParseWithLength(s, n - 1);
	if (!j)
		abort();
	cJSON_Delete(j);
	free(s);
}

static void check_msg(const struct jsonrpc_msg *m, const char *line, size_t len)
{
	if (m->id_raw) {
		if (m->id_raw < line || m->id_raw_len > len ||
		    (size_t)(m->id_raw - line) > len - m->id_raw_len)
			abort();
		must_be_json_line(jsonrpc_error_response(
			m->id_raw, m->id_raw_len, -32600, "Invalid Request"));
		must_be_json_line(jsonrpc_tool_error_result(
			m->id_raw, m->id_raw_len, "blocked: \"x\"\n\x01\xff"));
	}
	if (memchr(m->id_key, '\0', sizeof(m->id_key)) == NULL)
		abort();
	if ((m->kind == JSONRPC_REQUEST || m->kind == JSONRPC_RESPONSE) && !m->id)
		abort();
	if ((m->kind == JSONRPC_REQUEST || m->kind == JSONRPC_NOTIFICATION) &&
	    !m->method)
		abort();
}

static void parse_line(const char *line, size_t len)
{
	struct jsonrpc_limits lim = { .max_depth = 16, .max_batch = 8 };
	struct jsonrpc_msg m;
	char why[128];

	(void)jsonrpc_parse(line, len, &lim, &m, why, sizeof(why));
	if (memchr(why, '\0', sizeof(why)) == NULL)
		abort();
	if (m.kind == JSONRPC_INVALID && why[0] == '\0')
		abort();
	check_msg(&m, line, len);
	for (size_t i = 0; i < m.nitems; i++)
		check_msg(&m.items[i], line, len);
	if (m.root && m.kind != JSONRPC_BATCH && m.kind != JSONRPC_INVALID)
		must_be_json_line(
			jsonrpc_print_with_id(m.root, m.id_raw, m.id_raw_len));
	jsonrpc_msg_free(&m);
}

static int on_line(void *ud, const char *line, size_t len, bool too_long)
{
	struct trace *t = ud;
	uint64_t h = t->hash ^ (too_long ? 0x9e3779b97f4a7c15ull : len);

	if (too_long) {
		if (line)
			abort();
	} else {
		if (len == 0 || memchr(line, '\n', len))
			abort();
		for (size_t i = 0; i < len; i++)
			h = (h ^ (unsigned char)line[i]) * 0x100000001b3ull;
		parse_line(line, len);
	}
	t->hash = h * 0x100000001b3ull;
	t->events++;
	return t->stop_every && t->events % (size_t)t->stop_every == 0;
}

static struct trace run(const char *s, size_t n, size_t max, size_t cut,
			int pieces, int stop_every)
{
	struct jsonrpc_framer f;
	struct trace t = { 0, 0, stop_every };

	jsonrpc_framer_init(&f, max);
	if (pieces == 1) {
		(void)jsonrpc_framer_feed(&f, s, n, on_line, &t);
	} else if (pieces == 2) {
		(void)jsonrpc_framer_feed(&f, s, cut, on_line, &t);
		(void)jsonrpc_framer_feed(&f, s + cut, n - cut, on_line, &t);
	} else {
		size_t step = cut % 7 + 1;

		for (size_t i = 0; i < n; i += step)
			(void)jsonrpc_framer_feed(&f, s + i,
					       n - i < step ? n - i : step,
					       on_line, &t);
	}
	/* after stops, empty feeds drain what was kept */
	for (size_t guard = 0; stop_every && guard <= n + 1; guard++)
		(void)jsonrpc_framer_feed(&f, NULL, 0, on_line, &t);
	if (jsonrpc_framer_pending(&f) > n)
		abort();
	jsonrpc_framer_free(&f);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace a, b, c, d;
	size_t max, cut;
	const char *s;

	if (size < 3)
		return 0;
	max = (size_t)data[0] + 1;
	cut = ((size_t)data[1] << 8 | data[2]);
	s = (const char *)data + 3;
	size -= 3;
	cut = size ? cut % (size + 1) : 0;

	a = run(s, size, max, cut, 1, 0);
	b = run(s, size, max, cut, 2, 0);
	c = run(s, size, max, cut, 3, 0);
	d = run(s, size, max, cut, 2, 2);
	if (a.hash != b.hash || a.events != b.events || a.hash != c.hash ||
	    a.events != c.events || a.hash != d.hash || a.events != d.events)
		abort();
	return 0;
}
