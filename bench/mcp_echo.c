/* cordon-bench-mcp-echo — the smallest stdio MCP server, for measuring
 * what the gateway adds: it answers initialize, tools/list (one tool,
 * "echo") and tools/call (a fixed text) by scanning each line for its id
 * and method, with no JSON library, so its own time is a few microseconds.
 * Notifications get no answer. Not a conforming server: a benchmark peer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The raw value of "key": in line (a number or a string), or NULL. */
static const char *find_value(const char *line, const char *key, size_t *len)
{
	const char *p = strstr(line, key), *e;

	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ' || *p == ':')
		p++;
	if (*p == '"') {
		e = p + 1;
		while (*e && *e != '"') {
			if (*e == '\\' && e[1])
				e++;
			e++;
		}
		if (*e == '"')
			e++;
	} else {
		e = p;
		while (*e && *e != ',' && *e != '}' && *e != ' ')
			e++;
	}
	*len = (size_t)(e - p);
	return p;
}

static void reply(const char *id, size_t idlen, const char *result)
{
	printf("{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":%s}\n", (int)idlen,
	       id, result);
	fflush(stdout);
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		size_t idlen = 0, mlen = 0;
		const char *id = find_value(line, "\"id\"", &idlen);
		const char *m = find_value(line, "\"method\"", &mlen);

		if (!id || !m)
			continue;
		if (mlen >= 12 && strncmp(m, "\"initialize\"", 12) == 0)
			reply(id, idlen,
			      "{\"protocolVersion\":\"2025-06-18\","
			      "\"capabilities\":{\"tools\":{}},"
			      "\"serverInfo\":{\"name\":\"echo\","
			      "\"version\":\"1\"}}");
		else if (mlen >= 12 && strncmp(m, "\"tools/list\"", 12) == 0)
			reply(id, idlen,
			      "{\"tools\":[{\"name\":\"echo\",\"description\":"
			      "\"Echoes.\",\"inputSchema\":{\"type\":"
			      "\"object\","
			      "\"properties\":{\"text\":{\"type\":"
			      "\"string\"}}}}]}");
		else if (mlen >= 12 && strncmp(m, "\"tools/call\"", 12) == 0)
			reply(id, idlen,
			      "{\"content\":[{\"type\":\"text\",\"text\":"
			      "\"ok\"}]}");
		else
			reply(id, idlen, "{}");
	}
	free(line);
	return 0;
}
