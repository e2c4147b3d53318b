/* text — UTF-8, hex, base64 and quoting for messages (see text.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "text.h"

#include "banned.h"

/* ---- UTF-8 -------------------------------------------------------------- */

size_t text_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t len;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* Overlong three- and four-byte forms (two-byte ones are excluded by
	 * the lead byte), surrogates, and past the last code point. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

size_t text_utf8_encode(uint32_t cp, char out[4])
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t text_utf8_invalid_at(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	uint32_t cp;

	while (i < n) {
		size_t k;

		if (u[i] < 0x80) {
			i++;
			continue;
		}
		k = text_utf8_decode(u + i, n - i, &cp);
		if (k == 0)
			return i;
		i += k;
	}
	return n;
}

bool text_utf8_valid(const char *s, size_t n, bool allow_nul)
{
	if (!allow_nul && memchr(s, '\0', n))
		return false;
	return text_utf8_invalid_at(s, n) == n;
}

bool text_is_bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
	       cp == 0x061c;
}

bool text_is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
	       cp == 0x2028 || cp == 0x2029;
}

size_t text_unshowable_at(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = text_utf8_decode((const unsigned char *)s + i, n - i,
					    &cp);

		if (!k || text_is_control(cp) || text_is_bidi_control(cp))
			return i;
		i += k;
	}
	return n;
}

/* ---- hex ---------------------------------------------------------------- */

static const char hex_digits[] = "0123456789abcdef";

int text_hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool text_hex_decode(const char *s, size_t n, unsigned char *out, size_t cap,
		     size_t *outn)
{
	if (n % 2 || n / 2 > cap)
		return false;
	for (size_t i = 0; i < n; i += 2) {
		int hi = text_hex_value((unsigned char)s[i]);
		int lo = text_hex_value((unsigned char)s[i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	*outn = n / 2;
	return true;
}

void text_hex_encode(const void *p, size_t n, char *out)
{
	const unsigned char *u = p;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex_digits[u[i] >> 4];
		out[2 * i + 1] = hex_digits[u[i] & 15];
	}
	out[2 * n] = '\0';
}

bool text_is_lower_hex(const char *s, size_t n, size_t want)
{
	if (n != want)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* ---- base64 ------------------------------------------------------------- */

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz0123456789+/";

int text_b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

static bool b64_skipped(unsigned char c)
{
	return c == '=' || c == ' ' || c == '\n' || c == '\r';
}

bool text_b64_decode(const char *s, size_t n, enum text_b64_mode mode,
		     unsigned char *out, size_t cap, size_t *outn)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0, end = n, pad = 0;
	uint32_t acc = 0;
	unsigned bits = 0;

	if (mode == TEXT_B64_STRICT) {
		if (n % 4)
			return false;
		while (pad < 2 && end > 0 && u[end - 1] == '=') {
			end--;
			pad++;
		}
	}
	for (size_t i = 0; i < end; i++) {
		int v;

		if (mode == TEXT_B64_LAX && b64_skipped(u[i]))
			continue;
		v = text_b64_value(u[i]);
		if (v < 0 ||
		    (mode == TEXT_B64_STRICT && (u[i] == '-' || u[i] == '_')))
			return false;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o == cap)
				return false;
			out[o++] = (unsigned char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	/* Strict: the bits left over are padding and must be zero. (The
	 * length check above already makes each '=' stand for a missing
	 * character of the last quantum.) */
	if (mode == TEXT_B64_STRICT && acc != 0)
		return false;
	*outn = o;
	return true;
}

char *text_b64_encode(const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t out_len, o = 0;
	char *out;

	if (n > (SIZE_MAX - 1) / 4 * 3 - 3)
		return NULL;
	out_len = (n + 2) / 3 * 4;
	out = cordon__malloc(out_len + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		out[o++] = b64_alphabet[(v >> 18) & 63];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < n ? b64_alphabet[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? b64_alphabet[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

/* ---- quoting for messages ----------------------------------------------- */

const char *text_quote(const char *s, size_t n, char out[TEXT_QUOTE_CAP])
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (o + 8 >= TEXT_QUOTE_CAP || i >= TEXT_QUOTE_MAX) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex_digits[c >> 4];
			out[o++] = hex_digits[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

/* ---- short messages in fixed buffers ----------------------------------- */

void text_vsetf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	if (!buf || cap == 0)
		return;
	(void)vsnprintf(buf, cap, fmt, ap);
}

void text_setf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vsetf(buf, cap, fmt, ap);
	va_end(ap);
}

void text_addf(char *buf, size_t cap, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!buf || cap == 0)
		return;
	used = strnlen(buf, cap);
	if (used + 3 >= cap)
		return;
	if (used > 0) {
		memcpy(buf + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	(void)vsnprintf(buf + used, cap - used, fmt, ap);
	va_end(ap);
}
