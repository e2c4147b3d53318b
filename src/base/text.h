/* text — the byte-level readers and writers every module shares: UTF-8,
 * hex, base64, and quoting untrusted bytes for a message.
 *
 * Inputs are (ptr, len) and may hold NUL bytes. The UTF-8 reader is the
 * strict one of RFC 3629: no overlong forms, no surrogates (U+D800..DFFF),
 * nothing above U+10FFFF; the writer refuses what the reader refuses.
 */
#ifndef CORDON_TEXT_H
#define CORDON_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- UTF-8 -------------------------------------------------------------- */

/* Decodes the sequence at s[0..n) into *cp. Returns its length (1 to 4),
 * 0 when n is 0 or the bytes there are not a well-formed sequence. A NUL
 * byte decodes as U+0000 (length 1). */
size_t text_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Writes cp as UTF-8 into out. Returns the length (1 to 4), 0 for a
 * surrogate or a value above U+10FFFF (nothing written). */
size_t text_utf8_encode(uint32_t cp, char out[4]);

/* The offset of the first byte of s[0..n) that does not start a
 * well-formed sequence, or n when all of it is valid UTF-8. A NUL byte is
 * valid here. */
size_t text_utf8_invalid_at(const char *s, size_t n);

/* Whether s[0..n) is valid UTF-8; a NUL byte counts as invalid unless
 * allow_nul. */
bool text_utf8_valid(const char *s, size_t n, bool allow_nul);

/* Whether cp is a bidi control (U+202A..202E, U+2066..2069, U+200E/F,
 * U+061C): it reorders what a reader sees. */
bool text_is_bidi_control(uint32_t cp);

/* Whether cp is a control character shown to no reader raw: C0, DEL, C1,
 * and the line and paragraph separators U+2028/2029. */
bool text_is_control(uint32_t cp);

/* The offset of the first character of s[0..n) that is text_is_control or
 * text_is_bidi_control, or is not UTF-8; n when there is none. */
size_t text_unshowable_at(const char *s, size_t n);

/* ---- hex ---------------------------------------------------------------- */

/* The value of one hex digit (either case), -1 for anything else. */
int text_hex_value(unsigned char c);

/* Decodes the hex digits s[0..n) into out[0..cap): *outn = n / 2. False
 * (nothing promised about out) when n is odd, a byte is not a hex digit,
 * or n / 2 > cap. */
bool text_hex_decode(const char *s, size_t n, unsigned char *out, size_t cap,
		     size_t *outn);

/* Writes p[0..n) as 2n lower-case hex digits and a NUL into out, which
 * must hold 2n + 1 bytes. */
void text_hex_encode(const void *p, size_t n, char *out);

/* Whether s[0..n) is exactly want lower-case hex digits (a digest as
 * cordon writes one). */
bool text_is_lower_hex(const char *s, size_t n, size_t want);

/* ---- base64 (RFC 4648) -------------------------------------------------- */

/* The value of one base64 character: A-Z a-z 0-9 and both alphabets' last
 * two ('+' '/' and the URL-safe '-' '_'); -1 for anything else. */
int text_b64_value(unsigned char c);

enum text_b64_mode {
	/* RFC 4648 §4 as written: the standard alphabet only, length a
	 * multiple of 4, '=' only as the last one or two characters, pad
	 * bits zero, nothing else. */
	TEXT_B64_STRICT = 0,
	/* Forgiving, for reading what a command would decode: '=', spaces
	 * and line ends are skipped wherever they stand, a missing padding
	 * is fine, either alphabet, left-over bits are dropped. */
	TEXT_B64_LAX = 1,
};

/* Decodes s[0..n) into out[0..cap) (cap >= n * 3 / 4 + 3 always suffices),
 * *outn the bytes written. False when the text is not base64 in that mode
 * or out is too small. */
bool text_b64_decode(const char *s, size_t n, enum text_b64_mode mode,
		     unsigned char *out, size_t cap, size_t *outn);

/* The padded base64 of p[0..n), NUL-terminated; malloc'd, the caller frees
 * it. NULL when out of memory or too large. */
char *text_b64_encode(const void *p, size_t n);

/* ---- strings in table rows --------------------------------------------- */

/* 0, or a compile error (a negative array size) when the string literal
 * s with its NUL is longer than n bytes: for a table row that holds its
 * string in a char[n] of its own rather than as a pointer, which the
 * loader would relocate in every process (HACKING.md, "Tables without
 * pointers"). Add it to a length the row keeps:
 * sizeof(s) - 1 + TEXT_FITS(s, n). */
#define TEXT_FITS(s, n) (sizeof(char[sizeof(s) <= (n) ? 1 : -1]) - 1)

/* ---- quoting for messages ----------------------------------------------- */

/* The size of text_quote()'s buffer: 60 input bytes at 4 each, "...", NUL. */
#define TEXT_QUOTE_CAP 256
/* The most input bytes text_quote() shows before "...". */
#define TEXT_QUOTE_MAX 60

/* s[0..n) made safe to put between quotes in a message: at most
 * TEXT_QUOTE_MAX bytes then "...", every byte that is not printable ASCII,
 * and '"' and '\', as \xNN. Returns out. */
const char *text_quote(const char *s, size_t n, char out[TEXT_QUOTE_CAP]);

/* ---- short messages in fixed buffers ----------------------------------- */

/* Writes printf-style text into buf[0..cap) where cutting is fine (a
 * reason, a hint, a display key): nothing when buf is NULL or cap 0. */
void text_setf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void text_vsetf(char *buf, size_t cap, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Appends a sentence to the text in buf[0..cap), after "; " when there is
 * one already; nothing when not even "; " and one byte fit, and what does
 * not fit of the sentence is cut. */
void text_addf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
