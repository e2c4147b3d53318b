/* sha256 — SHA-256 and HMAC-SHA-256 without OpenSSL 3's provider
 * machinery.
 *
 * EVP_Digest() needs an EVP_MD, and the first fetch of one builds the
 * default provider's name map and method store: 0.68 M instructions, a
 * fifth of a whole `cordon hook claude` call, which hashes one record and
 * one command (bench/PROFILE-hook.md). The low-level SHA256_* functions
 * run the same implementation (the same assembly) with no set-up at all,
 * and, linked statically into the `cordon` binary, bring none of EVP's
 * tables, which the loader would relocate (write) in every process. HMAC
 * is RFC 2104's construction over them, so nothing here needs EVP_MAC.
 * OpenSSL 3 marks the SHA256_* functions deprecated in favour of EVP, but
 * keeps them; this file is the one place that uses them, so the warning
 * is silenced here and nowhere else.
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <stddef.h>
#include <string.h>

#include "sha256.h"
#include "text.h"

#include "banned.h"

/* SHA256_Init, _Update and _Final return 1 whatever they are given
 * (crypto/sha/sha256.c and md32_common.h), so their status is not read. */
void sha256_init(struct sha256 *s)
{
	(void)SHA256_Init(&s->c);
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	if (len)
		(void)SHA256_Update(&s->c, data, len);
}

void sha256_final(struct sha256 *s, unsigned char md[SHA256_BYTES])
{
	(void)SHA256_Final(md, &s->c);
	explicit_bzero(s, sizeof(*s));
}

void sha256_digest(const void *data, size_t len, unsigned char md[SHA256_BYTES])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, md);
}

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX + 1])
{
	unsigned char md[SHA256_BYTES];

	sha256_digest(data, len, md);
	text_hex_encode(md, SHA256_BYTES, out);
}

/* RFC 2104: K0 is the key, hashed first when longer than a block, padded
 * with zeros to a block; the inner hash starts with K0 ^ ipad (0x36), the
 * outer with K0 ^ opad (0x5c). */
void sha256_hmac_init(struct sha256_hmac *h, const void *key, size_t len)
{
	unsigned char k0[SHA256_BLOCK], pad[SHA256_BLOCK];

	memset(k0, 0, sizeof(k0));
	if (len > SHA256_BLOCK)
		sha256_digest(key, len, k0);
	else if (len)
		memcpy(k0, key, len);
	for (size_t i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k0[i] ^ 0x36;
	sha256_init(&h->inner);
	sha256_update(&h->inner, pad, SHA256_BLOCK);
	for (size_t i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k0[i] ^ 0x5c;
	sha256_init(&h->outer);
	sha256_update(&h->outer, pad, SHA256_BLOCK);
	explicit_bzero(k0, sizeof(k0));
	explicit_bzero(pad, sizeof(pad));
}

void sha256_hmac_start(const struct sha256_hmac *h, struct sha256 *s)
{
	*s = h->inner;
}

void sha256_hmac_final(const struct sha256_hmac *h, struct sha256 *s,
		       unsigned char md[SHA256_BYTES])
{
	unsigned char in[SHA256_BYTES];
	struct sha256 o = h->outer;

	sha256_final(s, in);
	sha256_update(&o, in, SHA256_BYTES);
	sha256_final(&o, md);
	explicit_bzero(in, sizeof(in));
}

void sha256_hmac(const struct sha256_hmac *h, const void *data, size_t len,
		 unsigned char md[SHA256_BYTES])
{
	struct sha256 s;

	sha256_hmac_start(h, &s);
	sha256_update(&s, data, len);
	sha256_hmac_final(h, &s, md);
}

void sha256_hmac_wipe(struct sha256_hmac *h)
{
	explicit_bzero(h, sizeof(*h));
}
