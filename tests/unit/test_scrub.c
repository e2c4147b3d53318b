/* scrub: a secret masked out of a stream whatever the chunking. Each row
 * is fed whole and then a byte at a time, in two-byte chunks, and split
 * at every offset; every way must give the expected bytes. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scrub.h"
#include "tap.h"

static const struct {
	const char *secret, *in, *want, *name;
} scrub_rows[] = {
	{ "s3cret", "Authorization: Bearer s3cret\r\n",
	  "Authorization: Bearer ******\r\n", "in a header" },
	{ "s3cret", "s3crets3cret", "************", "twice, adjacent" },
	{ "s3cret", "s3cre", "s3cre", "a prefix at the end is kept" },
	{ "s3cret", "xs3crex", "xs3crex", "a near miss is kept" },
	{ "aa", "aaa", "***", "overlapping occurrences" },
	{ "abab", "ababab", "******", "a periodic secret, overlapping" },
	{ "abab", "abaXabab", "abaX****", "after a false start" },
	{ "x", "axbxc", "a*b*c", "a one-byte secret" },
	{ "tok", "", "", "nothing" },
	{ "SECRET", "secret", "secret", "case is kept apart" },
	/* encodings: hex both cases, base64 both alphabets at each
	 * alignment ("tok3n-secret!" and its encodings) */
	{ "tok3n-secret!", "x=746f6b336e2d73656372657421;",
	  "x=**************************;", "lower-case hex" },
	{ "tok3n-secret!", "X=746F6B336E2D73656372657421",
	  "X=**************************", "upper-case hex" },
	{ "tok3n-secret!", "b=dG9rM24tc2VjcmV0IQ==",
	  "b=****************IQ==", "base64, aligned" },
	{ "tok3n-secret!", "QmVhcmVyIHRvazNuLXNlY3JldCE=",
	  "QmVhcmVyIHRv************dCE=",
	  "base64 of 'Bearer SECRET': the characters the secret alone decides" },
	{ "tok3n-secret!", "YSB0b2szbi1zZWNyZXQh",
	  "YSB0****************", "base64, two bytes before" },
	{ "\xfb\xff\xfe\xfb\xff\xfe\xfb\xff\xfe",
	  "+//++//++//+ -__--__--__-",
	  "************ ************", "both base64 alphabets" },
	{ "abc", "616263 YWJj abc", "616263 YWJj ***",
	  "a short secret's encodings are too common to mask" },
};

static char *run(const char *secret, const char *in, size_t n, size_t step,
		 size_t first)
{
	struct scrub s;
	char *out = calloc(1, n + SCRUB_PATTERN_MAX), *tmp;
	size_t off = 0, got = 0;

	if (!out || scrub_init(&s, secret, strlen(secret)) != CORDON_OK)
		abort();
	tmp = malloc(n + SCRUB_PATTERN_MAX);
	if (!tmp)
		abort();
	while (off < n) {
		size_t k = off == 0 && first ? first : step;

		if (k > n - off)
			k = n - off;
		got += scrub_feed(&s, in + off, k, out + got);
		off += k;
	}
	got += scrub_finish(&s, out + got);
	out[got] = '\0';
	scrub_free(&s);
	free(tmp);
	return out;
}

int main(void)
{
	struct scrub s;

	tap_no_plan();
	for (size_t i = 0; i < sizeof(scrub_rows) / sizeof(scrub_rows[0]); i++) {
		const char *in = scrub_rows[i].in;
		size_t n = strlen(in);
		bool all = true;
		char *o = run(scrub_rows[i].secret, in, n, n ? n : 1, 0);

		is_str(o, scrub_rows[i].want, "whole");
		free(o);
		for (size_t step = 1; step <= 2; step++) {
			o = run(scrub_rows[i].secret, in, n, step, 0);
			all = all && strcmp(o, scrub_rows[i].want) == 0;
			free(o);
		}
		for (size_t cut = 1; cut < n; cut++) {
			o = run(scrub_rows[i].secret, in, n, n, cut);
			all = all && strcmp(o, scrub_rows[i].want) == 0;
			free(o);
		}
		ok(all, "any chunking: %s", scrub_rows[i].name);
	}
	is_int(scrub_init(&s, "", 0), CORDON_E_INVAL, "an empty secret");
	scrub_free(&s);
	return tap_done();
}
