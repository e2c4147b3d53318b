/* scrub — a secret's bytes, and its common encodings, masked out of a
 * stream whatever the chunking.
 *
 * Credential injection puts a secret into a request; an upstream that
 * echoes the request (TRACE, an echo endpoint, an error page quoting the
 * headers, a debug endpoint that dumps them base64- or hex-encoded) would
 * hand it back to the client. The proxy passes the answer through a scrub:
 * every occurrence of a pattern (overlapping ones too, and occurrences of
 * different patterns found in the bytes as they came, so the result does
 * not depend on the chunking) becomes as many '*' bytes, so lengths and framing (Content-Length, chunk sizes) stay right.
 * The patterns are the secret as it is, its lower- and upper-case hex,
 * and its base64 in both alphabets at each of the three alignments it can
 * have inside a longer encoded text (only the characters that depend on
 * the secret's bytes alone; an encoding shorter than SCRUB_MIN_ENCODED
 * characters is left out, to keep ordinary text whole). A pattern split
 * across reads is caught: the last longest - 1 bytes of each chunk are
 * held back, unmasked, until the next chunk (or scrub_finish) shows
 * whether they begin an occurrence.
 *
 * Pure: no I/O. The scrub keeps its patterns and wipes them (and what it
 * holds back) in scrub_free. Encodings it does not know (percent-encoding
 * of a secret with reserved bytes, compression, encryption) pass: the
 * proxy asks for identity encoding and no ranges for that reason.
 */
#ifndef CORDON_SCRUB_H
#define CORDON_SCRUB_H

#include <stddef.h>

#include "cordon.h"

#define SCRUB_SECRET_MAX 4096
#define SCRUB_MIN_ENCODED 8
#define SCRUB_PATTERNS 9 /* raw, 2 hex, 2 alphabets x 3 alignments */
/* the longest pattern: hex of the longest secret */
#define SCRUB_PATTERN_MAX (2 * SCRUB_SECRET_MAX)
#define SCRUB_PIECE 16384 /* input bytes searched at once */

struct scrub {
	char *pat[SCRUB_PATTERNS];
	size_t plen[SCRUB_PATTERNS];
	size_t npat, longest;
	char *carry; /* the held-back bytes, as they came */
	char *orig; /* scratch: what is searched, SCRUB_PIECE + longest */
	size_t ncarry;
	size_t masked; /* carry[0..masked) belong to an occurrence */
};

/* Builds the patterns of secret[0..len) (1..SCRUB_SECRET_MAX bytes).
 * CORDON_E_INVAL, CORDON_E_NOMEM. */
enum cordon_err scrub_init(struct scrub *s, const char *secret, size_t len);

/* Wipes and frees; accepts a zeroed or freed scrub. */
void scrub_free(struct scrub *s);

/* The most scrub_feed writes for n bytes in: n + what is held back. */
size_t scrub_out_max(const struct scrub *s, size_t n);

/* Scrubs in[0..n) (following what came before) into out, which has room
 * for scrub_out_max(s, n) bytes; returns how many it wrote. */
size_t scrub_feed(struct scrub *s, const char *in, size_t n, char *out);

/* The end of the stream: writes what is held back (less than the longest
 * pattern) into out and returns how many. */
size_t scrub_finish(struct scrub *s, char *out);

#endif
