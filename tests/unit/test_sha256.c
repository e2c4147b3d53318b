/* test_sha256 — src/base/sha256.c against OpenSSL's EVP: SHA-256 one-shot
 * and streaming, HMAC-SHA-256 over RFC 4231's vectors and over random keys
 * and messages (lengths 0, a block, a block and one, longer than a block),
 * each stream split at every offset. The test links OpenSSL whole, so EVP
 * is the reference the low-level construction must agree with. */
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "sha256.h"
#include "tap.h"
#include "text.h"

/* A fixed-seed xorshift, so that every run tests the same bytes. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		p[i] = (unsigned char)(rng >> 24);
	}
}

static void evp_sha256(const void *p, size_t n, unsigned char md[32])
{
	unsigned int len = 0;

	if (EVP_Digest(p, n, md, &len, EVP_sha256(), NULL) != 1 || len != 32)
		memset(md, 0xff, 32);
}

static void evp_hmac(const void *key, size_t klen, const void *p, size_t n,
		     unsigned char md[32])
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[2];
	size_t len = 0;
	/* EVP_MAC_init wants a key pointer even for an empty key. */
	static const unsigned char none[1];

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						     (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!c || EVP_MAC_init(c, klen ? key : none, klen, params) != 1 ||
	    EVP_MAC_update(c, p, n) != 1 ||
	    EVP_MAC_final(c, md, &len, 32) != 1 || len != 32)
		memset(md, 0xff, 32);
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(mac);
}

static void hmac_of(const void *key, size_t klen, const void *p, size_t n,
		    unsigned char md[32])
{
	struct sha256_hmac h;

	sha256_hmac_init(&h, key, klen);
	sha256_hmac(&h, p, n, md);
	sha256_hmac_wipe(&h);
}

static void hex_of(const unsigned char *md, size_t n, char *out)
{
	text_hex_encode(md, n, out);
}

/* RFC 4231, section 4: test cases 1 to 7 (case 5's MAC is cut to 128
 * bits there, so only that much is compared). */
static void rfc4231(void)
{
	static const struct {
		unsigned char key_byte;
		size_t key_len; /* 0: the key is 0x01..0x19 (case 4) */
		const char *key_text; /* case 2 */
		unsigned char data_byte;
		size_t data_len;
		const char *data_text;
		const char *mac;
	} v[] = {
		{ 0x0b, 20, NULL, 0, 0, "Hi There",
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
		{ 0, 0, "Jefe", 0, 0, "what do ya want for nothing?",
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
		{ 0xaa, 20, NULL, 0xdd, 50, NULL,
		  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
		{ 0, 0, NULL, 0xcd, 50, NULL,
		  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
		{ 0x0c, 20, NULL, 0, 0, "Test With Truncation",
		  "a3b6167473100ee06e0c796c2955552b" },
		{ 0xaa, 131, NULL, 0, 0,
		  "Test Using Larger Than Block-Size Key - Hash Key First",
		  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
		{ 0xaa, 131, NULL, 0, 0,
		  "This is a test using a larger than block-size key and a "
		  "larger than block-size data. The key needs to be hashed "
		  "before being used by the HMAC algorithm.",
		  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		unsigned char key[131], data[64], md[32], ref[32];
		char hex[65];
		const void *k = key, *d = data;
		size_t kl, dl, cmp = strlen(v[i].mac) / 2;

		if (v[i].key_text) {
			k = v[i].key_text;
			kl = strlen(v[i].key_text);
		} else if (v[i].key_len) {
			kl = v[i].key_len;
			memset(key, v[i].key_byte, kl);
		} else {
			kl = 25;
			for (size_t j = 0; j < kl; j++)
				key[j] = (unsigned char)(j + 1);
		}
		if (v[i].data_text) {
			d = v[i].data_text;
			dl = strlen(v[i].data_text);
		} else {
			dl = v[i].data_len;
			memset(data, v[i].data_byte, dl);
		}
		hmac_of(k, kl, d, dl, md);
		hex_of(md, cmp, hex);
		ok(strcmp(hex, v[i].mac) == 0, "RFC 4231 test case %zu", i + 1);
		if (strcmp(hex, v[i].mac) != 0)
			diag("got %s, want %s", hex, v[i].mac);
		evp_hmac(k, kl, d, dl, ref);
		ok(memcmp(md, ref, 32) == 0,
		   "RFC 4231 test case %zu: as EVP_MAC", i + 1);
	}
}

static void known_digests(void)
{
	char hex[65];

	sha256_hex("", 0, hex);
	is_str(hex,
	       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	       "SHA-256 of nothing");
	sha256_hex("abc", 3, hex);
	is_str(hex,
	       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	       "SHA-256 of abc (FIPS 180-2)");
}

static const size_t lens[] = { 0,  1,	31,  32,  55,  56,  63,	  64,
			       65, 100, 127, 128, 129, 131, 1000, 4096 };
#define NLENS (sizeof(lens) / sizeof(lens[0]))
_Static_assert(NLENS == 16, "the test names 16 lengths");

/* One-shot digests and MACs of random bytes, every key length against
 * every message length, as EVP computes them. */
static void random_against_evp(void)
{
	static unsigned char key[4096], msg[4096];
	unsigned char md[32], ref[32];
	int bad_digest = 0, bad_mac = 0;

	for (size_t i = 0; i < NLENS; i++) {
		fill(msg, lens[i]);
		sha256_digest(msg, lens[i], md);
		evp_sha256(msg, lens[i], ref);
		if (memcmp(md, ref, 32) != 0) {
			diag("digest of %zu bytes differs", lens[i]);
			bad_digest++;
		}
		for (size_t j = 0; j < NLENS; j++) {
			fill(key, lens[j]);
			hmac_of(key, lens[j], msg, lens[i], md);
			evp_hmac(key, lens[j], msg, lens[i], ref);
			if (memcmp(md, ref, 32) != 0) {
				diag("MAC with a %zu-byte key over %zu bytes "
				     "differs",
				     lens[j], lens[i]);
				bad_mac++;
			}
		}
	}
	is_int(bad_digest, 0,
	       "SHA-256 of 16 lengths (0 to 4096) as EVP_Digest");
	is_int(bad_mac, 0,
	       "HMAC-SHA-256, keys of 0, 64, 65 and up to 4096 bytes over the "
	       "same lengths, as EVP_MAC");
}

/* Every message cut at every offset (and fed a byte at a time) gives the
 * one-shot digest and MAC, and a copied context forks the stream. */
static void streaming(void)
{
	static const size_t msgs[] = { 0, 1, 63, 64, 65, 200 };
	unsigned char key[100], msg[200], md[32], want[32], mac[32];
	struct sha256_hmac h;
	int bad = 0, bad_mac = 0, bad_bytes = 0, bad_fork = 0;

	fill(key, sizeof(key));
	sha256_hmac_init(&h, key, sizeof(key));
	for (size_t m = 0; m < sizeof(msgs) / sizeof(msgs[0]); m++) {
		size_t n = msgs[m];
		struct sha256 s, fork;

		fill(msg, n);
		evp_sha256(msg, n, want);
		evp_hmac(key, sizeof(key), msg, n, mac);
		for (size_t cut = 0; cut <= n; cut++) {
			sha256_init(&s);
			sha256_update(&s, msg, cut);
			fork = s;
			sha256_update(&s, msg + cut, n - cut);
			sha256_final(&s, md);
			bad += memcmp(md, want, 32) != 0;
			sha256_update(&fork, msg + cut, n - cut);
			sha256_final(&fork, md);
			bad_fork += memcmp(md, want, 32) != 0;

			sha256_hmac_start(&h, &s);
			sha256_update(&s, msg, cut);
			sha256_update(&s, msg + cut, n - cut);
			sha256_hmac_final(&h, &s, md);
			bad_mac += memcmp(md, mac, 32) != 0;
		}
		sha256_init(&s);
		for (size_t i = 0; i < n; i++)
			sha256_update(&s, msg + i, 1);
		sha256_final(&s, md);
		bad_bytes += memcmp(md, want, 32) != 0;
	}
	is_int(bad, 0, "SHA-256 split at every offset: the one-shot digest");
	is_int(bad_fork, 0, "a copied context continues the stream");
	is_int(bad_bytes, 0, "SHA-256 fed a byte at a time");
	is_int(bad_mac, 0, "HMAC split at every offset: EVP_MAC's");

	/* The key is not used up: the same MAC again, and another. */
	sha256_hmac(&h, "x", 1, md);
	sha256_hmac(&h, "x", 1, want);
	ok(memcmp(md, want, 32) == 0, "a key MACs more than one message");
	evp_hmac(key, sizeof(key), "x", 1, mac);
	ok(memcmp(md, mac, 32) == 0, "... and the MAC is EVP_MAC's");
	sha256_hmac_wipe(&h);
	{
		static const struct sha256_hmac zero;

		ok(memcmp(&h, &zero, sizeof(h)) == 0,
		   "sha256_hmac_wipe() leaves no key material");
	}
}

int main(void)
{
	tap_no_plan();
	known_digests();
	rfc4231();
	random_against_evp();
	streaming();
	return tap_done();
}
