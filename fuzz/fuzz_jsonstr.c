/* Fuzz target: the JSON string writers of src/base/json.c on arbitrary
 * bytes, against cJSON. json_add_clean_string() and json_put_clean_string()
 * (written into exactly JSON_CLEAN_ROOM(n) bytes of heap, so ASan sees a
 * byte past it) must both give what cJSON prints for json_clean_string()
 * of the same bytes, and json_plain_span() must stop at the first byte
 * that is not itself inside a JSON string. Their eight-bytes-a-step copies
 * are what this looks after. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "fuzz.h"
#include "json.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct buf b = BUF_INIT(SIZE_MAX / 2);
	cJSON *item;
	char *want, *room, *end;
	size_t span = 0, wn;

	if (size > 65536)
		return 0;
	item = json_clean_string(s, size);
	want = item ? cJSON_PrintUnformatted(item) : NULL;
	room = malloc(JSON_CLEAN_ROOM(size));
	if (!want || !room)
		abort();
	wn = strlen(want);
	end = json_put_clean_string(room, s, size);
	if ((size_t)(end - room) != wn || memcmp(room, want, wn) != 0)
		abort();
	if (!json_add_clean_string(&b, s, size) ||
	    strcmp(buf_str(&b), want) != 0)
		abort();
	while (span < size && data[span] >= 0x20 && data[span] < 0x80 &&
	       data[span] != '"' && data[span] != '\\')
		span++;
	if (json_plain_span(s, size) != span)
		abort();
	buf_free(&b);
	free(room);
	free(want);
	cJSON_Delete(item);
	return 0;
}
