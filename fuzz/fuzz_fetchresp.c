/* Fuzz target: the answer side of `cordon fetch`. The input up to and
 * including its first CRLF CRLF is parsed as an answer head by
 * fetch_parse_head (as read_head hands it over), from an exact-size copy so an
 * over-read is caught; the whole input is parsed too (it must be refused
 * unless it is itself one head). The same input parsed twice must give the
 * same outcome. On success the head must obey the rules of fetch.h: a
 * status of 100..999, HTTP/1.0 or 1.1, never both Content-Length and
 * chunked, trimmed values without control bytes. On failure the error is
 * set and terminated. Every CRLF-separated line after the head is then a
 * chunk-size line for fetch_parse_chunk_size, checked against strtoull. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"
#include "fuzz.h"

#include "banned.h"

static bool terminated(const char *err, size_t size)
{
	return memchr(err, '\0', size) != NULL;
}

static void check_value(const char *v)
{
	size_t n;

	if (!v)
		return;
	n = strlen(v);
	if (n > 0 && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' ||
		      v[n - 1] == '\t'))
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 && v[i] != '\t')
			abort();
}

/* Parses p[0..len) twice; checks the invariants; returns the outcome. */
static enum cordon_err parse_checked(const char *p, size_t len)
{
	struct fetch_head h, h2;
	char err[512], err2[512];
	enum cordon_err rc, rc2;

	memset(err, 'x', sizeof(err));
	rc = fetch_parse_head(p, len, &h, err, sizeof(err));
	if (!terminated(err, sizeof(err)))
		abort();
	rc2 = fetch_parse_head(p, len, &h2, err2, sizeof(err2));
	if (rc != rc2 || strcmp(err, err2) != 0)
		abort();
	if (rc == CORDON_OK) {
		if (err[0] != '\0' || h.status < 100 || h.status > 999 ||
		    (h.minor != 0 && h.minor != 1) || h.len != len ||
		    (h.chunked && h.has_length) ||
		    (h.chunked && h.minor == 0) ||
		    (h.has_length && h.length > (uint64_t)INT64_MAX) ||
		    len > FETCH_MAX_HEAD || len < 4 ||
		    memcmp(p + len - 4, "\r\n\r\n", 4) != 0 ||
		    h2.status != h.status || h2.length != h.length)
			abort();
		check_value(h.location);
		check_value(h.content_type);
		if ((h.location == NULL) != (h2.location == NULL) ||
		    (h.location && strcmp(h.location, h2.location) != 0))
			abort();
	} else {
		if (err[0] == '\0' ||
		    (rc != CORDON_E_PARSE && rc != CORDON_E_LIMIT &&
		     rc != CORDON_E_NOMEM))
			abort();
	}
	fetch_head_free(&h);
	fetch_head_free(&h2);
	if (h.location || h.content_type || h.status)
		abort();
	return rc;
}

static bool is_hex(unsigned char b)
{
	return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') ||
	       (b >= 'A' && b <= 'F');
}

/* Checks one chunk-size line against a reference built on strtoull. */
static void chunk_line(const char *line, size_t len)
{
	char err[128], digits[FETCH_MAX_CHUNK_LINE + 1];
	uint64_t size = 7;
	size_t n = 0;
	enum cordon_err rc;
	bool want_ok;
	unsigned long long ref;
	char *end;

	if (len > FETCH_MAX_CHUNK_LINE)
		return;
	rc = fetch_parse_chunk_size(line, len, &size, err, sizeof(err));
	if (!terminated(err, sizeof(err)))
		abort();
	while (n < len && is_hex((unsigned char)line[n]))
		n++;
	want_ok = n > 0 && (n == len || line[n] == ';');
	if (want_ok) {
		memcpy(digits, line, n);
		digits[n] = '\0';
		errno = 0;
		ref = strtoull(digits, &end, 16);
		if (end != digits + n)
			abort();
		if (errno == ERANGE)
			want_ok = false;
	}
	if ((rc == CORDON_OK) != want_ok)
		abort();
	if (rc == CORDON_OK && (size != ref || err[0] != '\0'))
		abort();
	if (rc != CORDON_OK &&
	    (rc != CORDON_E_PARSE || size != 0 || err[0] == '\0'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	const uint8_t *end = memmem(data, size, "\r\n\r\n", 4);
	size_t head = end ? (size_t)(end - data) + 4 : 0, pos;
	enum cordon_err whole;

	whole = parse_checked(p, size);
	if (whole == CORDON_OK && head != size)
		abort();
	if (head) {
		char *copy = malloc(head);

		if (!copy)
			abort();
		memcpy(copy, data, head);
		if (parse_checked(copy, head) != whole && head == size)
			abort();
		free(copy);
	}
	for (pos = head; pos < size;) {
		const uint8_t *crlf = memmem(data + pos, size - pos, "\r\n", 2);
		size_t n = crlf ? (size_t)(crlf - (data + pos)) : size - pos;
		char *line = malloc(n ? n : 1);

		if (!line)
			abort();
		memcpy(line, data + pos, n);
		chunk_line(line, n);
		free(line);
		pos += n + 2;
	}
	return 0;
}
