/* Fuzz target: the audit relay's judge of a message from inside the
 * sandbox (src/audit/relay.h). Checked: an accepted message becomes an
 * object with exactly "inner_event" (a string) and "inner" (an object)
 * whose members none is one the log writes itself; a refused one says
 * why; nothing is returned with a refusal.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "relay.h"
#include "cordon.h"
#include "fuzz.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const owned[] = { "v",    "seq",  "time",
					     "host", "pid",  "event",
					     "hmac", "prev", "hash" };
	char why[160];
	char *out = (char *)1;
	enum cordon_err rc;
	cJSON *o, *ev, *in;

	if (size > AUDIT_RELAY_MAX + 16)
		return 0;
	memset(why, 'x', sizeof(why));
	rc = audit_relay_judge((const char *)data, size, &out, why,
			       sizeof(why));
	if (rc != CORDON_OK) {
		if (out || !memchr(why, '\0', sizeof(why)) || !why[0])
			abort();
		return 0;
	}
	o = out ? cJSON_Parse(out) : NULL;
	if (!o)
		abort();
	ev = cJSON_GetObjectItemCaseSensitive(o, "inner_event");
	in = cJSON_GetObjectItemCaseSensitive(o, "inner");
	if (!cJSON_IsString(ev) || !cJSON_IsObject(in) ||
	    cJSON_GetArraySize(o) != 2)
		abort();
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
		if (cJSON_GetObjectItemCaseSensitive(in, owned[i]))
			abort();
	cJSON_Delete(o);
	free(out);
	return 0;
}
