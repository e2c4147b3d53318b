/* text: UTF-8 (overlong forms, surrogates and the range refused both
 * ways), hex (odd lengths refused), base64 (the padding rules of the
 * strict mode, what the lax one skips), quoting for messages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "text.h"

struct u8row {
	const char *s;
	size_t n;
	size_t want_len; /* 0: invalid */
	uint32_t want_cp;
	const char *what;
};

static const struct u8row u8rows[] = {
	{ "a", 1, 1, 'a', "ASCII" },
	{ "\0", 1, 1, 0, "NUL decodes as U+0000" },
	{ "\xc2\x80", 2, 2, 0x80, "the first two-byte code point" },
	{ "\xdf\xbf", 2, 2, 0x7ff, "the last two-byte code point" },
	{ "\xe0\xa0\x80", 3, 3, 0x800, "the first three-byte code point" },
	{ "\xef\xbf\xbf", 3, 3, 0xffff, "U+FFFF" },
	{ "\xf0\x90\x80\x80", 4, 4, 0x10000, "the first four-byte one" },
	{ "\xf4\x8f\xbf\xbf", 4, 4, 0x10ffff, "U+10FFFF" },
	{ "\xc0\xaf", 2, 0, 0, "overlong '/' (C0 AF)" },
	{ "\xc1\xbf", 2, 0, 0, "overlong two-byte (C1)" },
	{ "\xe0\x80\xaf", 3, 0, 0, "overlong three-byte '/'" },
	{ "\xe0\x9f\xbf", 3, 0, 0, "overlong three-byte U+7FF" },
	{ "\xf0\x80\x80\xaf", 4, 0, 0, "overlong four-byte '/'" },
	{ "\xf0\x8f\xbf\xbf", 4, 0, 0, "overlong four-byte U+FFFF" },
	{ "\xed\xa0\x80", 3, 0, 0, "surrogate U+D800" },
	{ "\xed\xbf\xbf", 3, 0, 0, "surrogate U+DFFF" },
	{ "\xed\x9f\xbf", 3, 3, 0xd7ff, "U+D7FF, just below" },
	{ "\xee\x80\x80", 3, 3, 0xe000, "U+E000, just above" },
	{ "\xf4\x90\x80\x80", 4, 0, 0, "U+110000" },
	{ "\xf5\x80\x80\x80", 4, 0, 0, "lead byte F5" },
	{ "\xff", 1, 0, 0, "byte FF" },
	{ "\x80", 1, 0, 0, "a lone continuation byte" },
	{ "\xc3", 1, 0, 0, "a truncated sequence" },
	{ "\xe2\x82", 2, 0, 0, "a truncated three-byte sequence" },
	{ "\xc3\x28", 2, 0, 0, "a bad continuation byte" },
	{ "", 0, 0, 0, "no input" },
};

static void test_utf8_decode(void)
{
	for (size_t i = 0; i < sizeof(u8rows) / sizeof(u8rows[0]); i++) {
		const struct u8row *r = &u8rows[i];
		uint32_t cp = 0xdeadbeef;
		size_t k = text_utf8_decode((const unsigned char *)r->s, r->n,
					    &cp);

		ok(k == r->want_len && (!k || cp == r->want_cp),
		   "decode: %s (len %zu, cp %#x)", r->what, k, (unsigned)cp);
	}
}

static void test_utf8_encode(void)
{
	static const uint32_t cps[] = { 0,	'a',	0x7f,	 0x80,
					0x7ff,	0x800,	0xd7ff,	 0xe000,
					0xfffd, 0xffff, 0x10000, 0x10ffff };
	char out[4];
	bool round = true;

	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		uint32_t back;
		size_t k = text_utf8_encode(cps[i], out);

		round &= k > 0 &&
			 text_utf8_decode((unsigned char *)out, k, &back) ==
				 k &&
			 back == cps[i];
	}
	ok(round, "encode then decode gives the code point back");
	is_int((long long)text_utf8_encode(0xd800, out), 0,
	       "encode refuses a high surrogate");
	is_int((long long)text_utf8_encode(0xdfff, out), 0,
	       "encode refuses a low surrogate");
	is_int((long long)text_utf8_encode(0x110000, out), 0,
	       "encode refuses past U+10FFFF");
	ok(text_utf8_encode(0x20ac, out) == 3 &&
		   memcmp(out, "\xe2\x82\xac", 3) == 0,
	   "U+20AC is E2 82 AC");
}

static void test_utf8_valid(void)
{
	is_int((long long)text_utf8_invalid_at("ab\xc3\xa9z", 5), 5,
	       "invalid_at: valid text gives n");
	is_int((long long)text_utf8_invalid_at("ab\xed\xa0\x80z", 6), 2,
	       "invalid_at: the offset of a surrogate");
	is_int((long long)text_utf8_invalid_at("abc\xc0\xaf", 5), 3,
	       "invalid_at: the offset of an overlong form");
	ok(text_utf8_valid("a\0b", 3, true), "valid: NUL allowed when asked");
	ok(!text_utf8_valid("a\0b", 3, false), "valid: NUL refused otherwise");
	ok(!text_utf8_valid("\xe0\x80\xaf", 3, true),
	   "valid: overlong refused");
	ok(text_utf8_valid("", 0, false), "valid: empty text");
}

static void test_unshowable(void)
{
	static const struct {
		const char *s;
		size_t at;
		const char *what;
	} cases[] = {
		{ "plain text, \xc3\xa9t\xc3\xa9 \xe2\x9c\x93", 21,
		  "none: its length" },
		{ "a\nb", 1, "a newline (C0)" },
		{ "ab\x7f", 2, "DEL" },
		{ "a\xc2\x85", 1, "U+0085 (C1)" },
		{ "ab\xe2\x80\xae", 2, "U+202E (bidi)" },
		{ "\xe2\x81\xa6x", 0, "U+2066 (bidi isolate)" },
		{ "x\xe2\x80\x8f", 1, "U+200F (RLM)" },
		{ "x\xd8\x9c", 1, "U+061C (ALM)" },
		{ "ok\xe2\x80\xa8", 2, "U+2028" },
		{ "ok\xe2\x80\xa9", 2, "U+2029" },
		{ "o\xffk", 1, "not UTF-8" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int((long long)text_unshowable_at(cases[i].s,
						     strlen(cases[i].s)),
		       (long long)cases[i].at, cases[i].what);
	ok(!text_is_bidi_control(0x202f) && !text_is_control(0xa0),
	   "U+202F and U+00A0 are neither");
}

static void test_hex(void)
{
	unsigned char out[8];
	char enc[17];
	size_t n = 99;

	is_int(text_hex_value('0'), 0, "hex value 0");
	is_int(text_hex_value('f'), 15, "hex value f");
	is_int(text_hex_value('F'), 15, "hex value F");
	is_int(text_hex_value('g'), -1, "g is not hex");
	is_int(text_hex_value(0xb0), -1, "a high byte is not hex");
	ok(text_hex_decode("00ffA5", 6, out, sizeof(out), &n) && n == 3 &&
		   out[0] == 0 && out[1] == 0xff && out[2] == 0xa5,
	   "decode 00ffA5");
	ok(!text_hex_decode("abc", 3, out, sizeof(out), &n),
	   "an odd number of digits is refused");
	ok(!text_hex_decode("0g", 2, out, sizeof(out), &n),
	   "a non-hex digit is refused");
	ok(!text_hex_decode("0011223344556677889", 18, out, 8, &n),
	   "output that does not fit is refused");
	ok(text_hex_decode("", 0, out, 0, &n) && n == 0, "empty decodes");
	text_hex_encode("\x00\xff\x10", 3, enc);
	is_str(enc, "00ff10", "encode is lower-case");
	ok(text_is_lower_hex("00ff10", 6, 6), "lower hex of the right length");
	ok(!text_is_lower_hex("00FF10", 6, 6), "upper case is not");
	ok(!text_is_lower_hex("00ff1", 5, 6), "nor a short one");
}

static bool b64(const char *s, enum text_b64_mode m, const char *want,
		size_t wantn)
{
	unsigned char out[64];
	size_t n = 0;

	if (!text_b64_decode(s, strlen(s), m, out, sizeof(out), &n))
		return want == NULL;
	return want && n == wantn && memcmp(out, want, n) == 0;
}

static void test_base64(void)
{
	char *e;

	ok(b64("", TEXT_B64_STRICT, "", 0), "strict: empty");
	ok(b64("Zg==", TEXT_B64_STRICT, "f", 1), "strict: Zg==");
	ok(b64("Zm8=", TEXT_B64_STRICT, "fo", 2), "strict: Zm8=");
	ok(b64("Zm9v", TEXT_B64_STRICT, "foo", 3), "strict: Zm9v");
	ok(b64("+/+/", TEXT_B64_STRICT, "\xfb\xff\xbf", 3),
	   "strict: the standard alphabet's + and /");
	ok(b64("Zg", TEXT_B64_STRICT, NULL, 0), "strict: missing padding");
	ok(b64("Zg=", TEXT_B64_STRICT, NULL, 0), "strict: half padding");
	ok(b64("Z===", TEXT_B64_STRICT, NULL, 0), "strict: three '='");
	ok(b64("Zg==Zg==", TEXT_B64_STRICT, NULL, 0),
	   "strict: padding in the middle");
	ok(b64("Zh==", TEXT_B64_STRICT, NULL, 0), "strict: non-zero pad bits");
	ok(b64("Zm9", TEXT_B64_STRICT, NULL, 0), "strict: a short quantum");
	ok(b64("Zm9v\n", TEXT_B64_STRICT, NULL, 0), "strict: a line end");
	ok(b64("-_-_", TEXT_B64_STRICT, NULL, 0), "strict: URL alphabet");
	ok(b64("Zm9v!", TEXT_B64_LAX, NULL, 0), "lax: a foreign byte");
	ok(b64("Zg", TEXT_B64_LAX, "f", 1), "lax: missing padding");
	ok(b64("Zm 9v\r\nYmFy", TEXT_B64_LAX, "foobar", 6),
	   "lax: spaces and line ends skipped");
	ok(b64("Zg==Zg==", TEXT_B64_LAX, "f\x06\x60", 3),
	   "lax: '=' skipped anywhere (as the classifier reads base64 -d)");
	ok(b64("-_-_", TEXT_B64_LAX, "\xfb\xff\xbf", 3), "lax: URL alphabet");
	is_int(text_b64_value('-'), 62, "value of -");
	is_int(text_b64_value('='), -1, "= has no value");
	e = text_b64_encode("foob", 4);
	is_str(e, "Zm9vYg==", "encode pads");
	free(e);
	e = text_b64_encode("", 0);
	is_str(e, "", "encode of nothing");
	free(e);
}

static void test_quote(void)
{
	char q[TEXT_QUOTE_CAP];
	char big[200];

	is_str(text_quote("a b", 3, q), "a b", "printable ASCII kept");
	is_str(text_quote("a\"b\\c\n\x7f\xc3\xa9", 9, q),
	       "a\\x22b\\x5cc\\x0a\\x7f\\xc3\\xa9",
	       "quote, backslash, controls and non-ASCII as \\xNN");
	memset(big, 'x', sizeof(big));
	text_quote(big, sizeof(big), q);
	ok(strlen(q) == TEXT_QUOTE_MAX + 3 &&
		   strcmp(q + TEXT_QUOTE_MAX, "...") == 0,
	   "cut after %d bytes with ...", TEXT_QUOTE_MAX);
	memset(big, '\x01', sizeof(big));
	text_quote(big, sizeof(big), q);
	ok(strlen(q) < TEXT_QUOTE_CAP && strstr(q, "...") != NULL,
	   "escapes never overrun the buffer");
}

static void test_messages(void)
{
	char b[16];

	text_setf(b, sizeof(b), "%s %d", "abc", 12);
	is_str(b, "abc 12", "setf");
	text_setf(b, sizeof(b), "%s", "0123456789abcdefghij");
	is_str(b, "0123456789abcde", "setf cuts to the buffer");
	text_setf(NULL, 0, "%s", "x");
	ok(1, "setf accepts NULL");
	b[0] = '\0';
	text_addf(b, sizeof(b), "one");
	is_str(b, "one", "addf to an empty text: no separator");
	text_addf(b, sizeof(b), "two");
	is_str(b, "one; two", "addf separates with \"; \"");
	text_addf(b, sizeof(b), "threefour");
	is_str(b, "one; two; three", "and cuts what does not fit");
	text_addf(b, sizeof(b), "four");
	is_str(b, "one; two; three", "a full text takes nothing more");
}

int main(void)
{
	tap_no_plan();
	test_utf8_decode();
	test_utf8_encode();
	test_utf8_valid();
	test_unshowable();
	test_hex();
	test_base64();
	test_quote();
	test_messages();
	return tap_done();
}
