/* Fuzz target: the MCP tool scanner. The input is scanned as text
 * (mcpscan_text over the raw bytes) and, when it parses as JSON, as a tool
 * object (mcpscan_tool). Invariants: every kept finding is non-empty,
 * NUL-terminated and safe to print (escaping it changes nothing); a flag
 * never comes without a finding; escaping is idempotent and its output has
 * no control bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "mcpscan.h"

#include "banned.h"

static void check_result(const struct mcpscan_result *r)
{
	size_t kept = r->nfindings < 8 ? r->nfindings : 8;

	if (r->flags && r->nfindings == 0)
		abort();
	if (r->flags & ~0x3fu)
		abort();
	for (size_t i = 0; i < kept; i++) {
		const char *f = r->findings[i];
		char *e;

		if (!memchr(f, '\0', sizeof(r->findings[i])) || !f[0])
			abort();
		e = mcpscan_escape(f, strlen(f));
		if (!e)
			abort();
		if (strcmp(e, f) != 0)
			abort();
		free(e);
	}
}

static void check_escape(const char *s, size_t len)
{
	char *e = mcpscan_escape(s, len), *e2;

	if (!e)
		abort();
	for (const unsigned char *p = (const unsigned char *)e; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
	e2 = mcpscan_escape(e, strlen(e));
	if (!e2 || strcmp(e, e2) != 0)
		abort();
	free(e2);
	free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mcpscan_result r;
	cJSON *json;
	char *text;

	memset(&r, 0, sizeof(r));
	mcpscan_text((const char *)data, size, "description", &r);
	check_result(&r);
	check_escape((const char *)data, size);

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	json = cJSON_ParseWithLength(text, size);
	if (json) {
		memset(&r, 0, sizeof(r));
		mcpscan_tool(json, &r);
		check_result(&r);
		cJSON_Delete(json);
	}
	free(text);
	return 0;
}
