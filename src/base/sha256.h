/* sha256 — SHA-256 and HMAC-SHA-256 (RFC 2104), one-shot and streaming:
 * every digest and MAC the library makes (the audit chain and its key,
 * the hooks' sandbox rewrite, MCP fingerprints and ids).
 *
 * Built on OpenSSL's low-level SHA256_* functions, which carry none of
 * OpenSSL 3's provider machinery (sha256.c says why that matters). They
 * cannot fail (OpenSSL's implementation returns 1 whatever it is given),
 * so neither can these. A context is plain memory: copy it to fork a
 * stream (the digest of a prefix, then more of it).
 */
#ifndef CORDON_SHA256_H
#define CORDON_SHA256_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/sha.h>

#define SHA256_BYTES 32
#define SHA256_HEX (2 * SHA256_BYTES)
#define SHA256_BLOCK 64

struct sha256 {
	SHA256_CTX c;
};

/* A key made ready for HMAC-SHA-256: the hash states after the key's
 * inner and outer pads. It is key material: sha256_hmac_wipe() it. */
struct sha256_hmac {
	struct sha256 inner, outer;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest of everything given to s into md; s is wiped after. */
void sha256_final(struct sha256 *s, unsigned char md[SHA256_BYTES]);

/* The SHA-256 of data[0..len) into md. */
void sha256_digest(const void *data, size_t len,
		   unsigned char md[SHA256_BYTES]);
/* The same as lower-case hex, NUL-terminated. */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX + 1]);

/* h ready to MAC with key[0..len) (any length; one longer than a block is
 * hashed first, RFC 2104). No copy of the key stays but h itself. */
void sha256_hmac_init(struct sha256_hmac *h, const void *key, size_t len);

/* A MAC stream from the key h (which stays as it is, for the next
 * message): its inner hash, which sha256_update() feeds, and
 * sha256_hmac_final() ends into md (wiping s). */
void sha256_hmac_start(const struct sha256_hmac *h, struct sha256 *s);
void sha256_hmac_final(const struct sha256_hmac *h, struct sha256 *s,
		       unsigned char md[SHA256_BYTES]);

/* HMAC-SHA-256 of data[0..len) with the key h into md. */
void sha256_hmac(const struct sha256_hmac *h, const void *data, size_t len,
		 unsigned char md[SHA256_BYTES]);

/* Zeroes h, so that no key material outlives it. */
void sha256_hmac_wipe(struct sha256_hmac *h);

#endif
