/* scrub — a secret's bytes masked out of a stream, whatever the chunking.
 *
 * Credential injection puts a secret into a request; an upstream that
 * echoes the request (TRACE, an echo endpoint, an error page quoting the
 * headers) would hand it back to the client. The proxy passes the answer
 * through a scrub: every occurrence of the secret (overlapping ones too)
 * becomes as many '*' bytes, so lengths and framing (Content-Length,
 * chunk sizes) stay right. A secret split across reads is caught: the
 * last len - 1 bytes of each chunk are held back, unmasked, until the next
 * chunk (or scrub_finish) shows whether they begin an occurrence.
 *
 * Pure: no I/O. The scrub keeps a copy of the secret and wipes it (and
 * what it holds back) in scrub_free.
 */
#ifndef CORDON_SCRUB_H
#define CORDON_SCRUB_H

#include <stddef.h>

#include "cordon.h"

#define SCRUB_SECRET_MAX 4096

struct scrub {
	char *secret;
	size_t len;
	char *carry; /* the held-back bytes, as they came */
	size_t ncarry;
	size_t masked; /* carry[0..masked) belong to an occurrence */
};

/* Copies secret[0..len) (1..SCRUB_SECRET_MAX bytes). CORDON_E_INVAL,
 * CORDON_E_NOMEM. */
enum cordon_err scrub_init(struct scrub *s, const char *secret, size_t len);

/* Wipes and frees; accepts a zeroed or freed scrub. */
void scrub_free(struct scrub *s);

/* The most scrub_feed writes for n bytes in: n + len - 1. */
size_t scrub_out_max(const struct scrub *s, size_t n);

/* Scrubs in[0..n) (following what came before) into out, which has room
 * for scrub_out_max(s, n) bytes; returns how many it wrote. */
size_t scrub_feed(struct scrub *s, const char *in, size_t n, char *out);

/* The end of the stream: writes what is held back (at most len - 1
 * bytes) into out and returns how many. */
size_t scrub_finish(struct scrub *s, char *out);

#endif
