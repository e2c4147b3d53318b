/* Fuzz target: canonicalise arbitrary bytes as JSON (RFC 8785). When that
 * succeeds the output must be NUL-terminated with the reported length,
 * parse as JSON, and be its own canonical form; when it fails there is no
 * output and the diagnostic says why. The first eight bytes, read as a
 * double, must format to text that reads back as the same double. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "jcs.h"

#include "banned.h"

static void check_number(const uint8_t *data, size_t size)
{
	char buf[32];
	double d, back;
	size_t n;

	if (size < 8)
		return;
	memcpy(&d, data, sizeof(d));
	if (!isfinite(d))
		return;
	n = jcs_format_number(d, buf);
	if (n == 0 || n >= 32 || buf[n] != '\0' || strlen(buf) != n)
		abort();
	back = strtod(buf, NULL);
	if (back != d && !(d == 0 && back == 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cordon_diag diag;
	char *out = NULL, *again = NULL;
	size_t len = 0, len2 = 0;
	enum cordon_err rc;
	cJSON *parsed;

	check_number(data, size);
	memset(&diag, 0, sizeof(diag));
	rc = jcs_canonicalize((const char *)data, size, &out, &len, &diag);
	if (memchr(diag.message, '\0', sizeof(diag.message)) == NULL)
		abort();
	if (rc != CORDON_OK) {
		if (out != NULL || diag.message[0] == '\0')
			abort();
		return 0;
	}
	if (!out || out[len] != '\0' || strlen(out) != len)
		abort();
	parsed = cJSON_ParseWithLength(out, len);
	if (!parsed)
		abort();
	cJSON_Delete(parsed);
	if (jcs_canonicalize(out, len, &again, &len2, &diag) != CORDON_OK ||
	    len2 != len || memcmp(out, again, len) != 0)
		abort();
	free(again);
	free(out);
	return 0;
}
