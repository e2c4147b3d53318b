/* sha256 — SHA-256 of a buffer without OpenSSL 3's provider machinery.
 *
 * EVP_Digest() needs an EVP_MD, and the first fetch of one builds the
 * default provider's name map and method store: 0.68 M instructions, a
 * fifth of a whole `cordon hook claude` call, which hashes one record and
 * one command (bench/PROFILE-hook.md). The low-level SHA256_* functions
 * run the same implementation (the same assembly) with no set-up at all.
 * OpenSSL 3 marks them deprecated in favour of EVP, but keeps them; this
 * file is the one place that uses them, so the warning is silenced here
 * and nowhere else.
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <stdbool.h>
#include <stddef.h>

#include <openssl/sha.h>

#include "audit.h"

#include "banned.h"

bool audit_sha256(const void *data, size_t len, unsigned char md[32])
{
	SHA256_CTX c;

	return SHA256_Init(&c) == 1 && SHA256_Update(&c, data, len) == 1 &&
	       SHA256_Final(md, &c) == 1;
}
