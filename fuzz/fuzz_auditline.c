/* Fuzz target: the audit verifier's line parser and the verifier itself.
 *
 * The input is used twice. As it is: audit_parse_line() on the whole
 * input and audit_verify_buffer() on it as a file. Then as record
 * prefixes, one a line: each "@PREV@" in a line becomes the hash of the line
 * before (64 zeros for the first) and the correct ,"hash":"…"} is
 * appended, so the fuzzer reaches the checks behind the hash (members,
 * seq, chain, recovered records) that random bytes never would. Checked:
 * a parsed line has a seq of at least 1 and well-formed hashes; every
 * report is terminated and consistent (intact means no bad line, a break
 * names a line and a reason); a keyed line leaves its MAC to the
 * verifier, a rotated line names its prev.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "cordon.h"
#include "sha256.h"
#include "fuzz.h"

#include "banned.h"

#define MAX_INPUT ((size_t)1 << 16)

static void check_hex(const char *h)
{
	if (strlen(h) != AUDIT_HASH_HEX ||
	    strspn(h, "0123456789abcdef") != AUDIT_HASH_HEX)
		abort();
}

static void check_report(const struct cordon_audit_report *rep)
{
	if (!memchr(rep->why, '\0', sizeof(rep->why)) ||
	    !memchr(rep->notes, '\0', sizeof(rep->notes)) ||
	    !memchr(rep->bad_file, '\0', sizeof(rep->bad_file)) ||
	    !memchr(rep->head, '\0', sizeof(rep->head)))
		abort();
	if (rep->intact && (rep->bad_line != 0 || rep->why[0]))
		abort();
	if (!rep->intact && (rep->bad_line == 0 || !rep->why[0]))
		abort();
	if (rep->head[0])
		check_hex(rep->head);
}

static void parse_one(const char *s, size_t n)
{
	struct audit_line al;
	char why[128];

	memset(why, 'x', sizeof(why));
	if (audit_parse_line(s, n, &al, why, sizeof(why)) == CORDON_OK) {
		if (al.seq < 1 || !al.event[0])
			abort();
		check_hex(al.prev);
		check_hex(al.hash);
		/* A keyed line's MAC is the verifier's to compute. */
		if (al.keyed) {
			if (al.computed[0] || strlen(al.keyid) != 16 ||
			    strspn(al.keyid, "0123456789abcdef") != 16)
				abort();
		} else {
			check_hex(al.computed);
		}
		if (al.rotated && strcmp(al.event, "rotated") != 0)
			abort();
		if (al.hashed == 0 || al.hashed >= n)
			abort();
		if (strcmp(al.event, "recovered") == 0 &&
		    (al.torn_bytes < 1 || (check_hex(al.torn_sha256), 0)))
			abort();
	} else if (!memchr(why, '\0', sizeof(why)) || !why[0]) {
		abort();
	}
}

/* Builds the chained file from the input's lines (see the head comment). */
static char *chain(const char *in, size_t n, size_t *out_len)
{
	char prev[AUDIT_HASH_HEX + 1];
	size_t cap = n * 2 + 1024, len = 0, start = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	memset(prev, '0', AUDIT_HASH_HEX);
	prev[AUDIT_HASH_HEX] = '\0';
	while (start < n) {
		const char *nl = memchr(in + start, '\n', n - start);
		size_t l = nl ? (size_t)(nl - (in + start)) : n - start;
		const char *line = in + start;
		/* every @PREV@ (a rotated record names it twice) */
		size_t need = l + (l / 6 + 1) * AUDIT_HASH_HEX + 32;
		size_t from = len, k = 0;

		if (len + need > cap) {
			char *p;
			cap = (len + need) * 2;
			p = realloc(out, cap);
			if (!p) {
				free(out);
				return NULL;
			}
			out = p;
		}
		while (k < l) {
			const char *at = memmem(line + k, l - k, "@PREV@", 6);
			size_t m = at ? (size_t)(at - (line + k)) : l - k;

			memcpy(out + len, line + k, m);
			len += m;
			k += m;
			if (at) {
				memcpy(out + len, prev, AUDIT_HASH_HEX);
				len += AUDIT_HASH_HEX;
				k += 6;
			}
		}
		sha256_hex(out + from, len - from, prev);
		memcpy(out + len, ",\"hash\":\"", 9);
		memcpy(out + len + 9, prev, AUDIT_HASH_HEX);
		memcpy(out + len + 9 + AUDIT_HASH_HEX, "\"}", 2);
		len += 11 + AUDIT_HASH_HEX;
		if (nl)
			out[len++] = '\n';
		start += l + (nl ? 1 : 0);
	}
	*out_len = len;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cordon_audit_report rep;
	const char *in = (const char *)data;
	size_t len;
	char *built;

	if (size > MAX_INPUT)
		return 0;
	parse_one(in, size);
	if (audit_verify_buffer(in, size, &rep) == CORDON_OK)
		check_report(&rep);

	built = chain(in, size, &len);
	if (!built)
		return 0;
	for (size_t s = 0; s < len;) {
		const char *nl = memchr(built + s, '\n', len - s);
		size_t l = nl ? (size_t)(nl - (built + s)) : len - s;
		parse_one(built + s, l);
		s += l + 1;
	}
	if (audit_verify_buffer(built, len, &rep) == CORDON_OK)
		check_report(&rep);
	free(built);
	return 0;
}
