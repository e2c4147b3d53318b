/* ttyfilter: a table of terminal output and what of it reaches the
 * caller's terminal, each row also fed cut at every point (two pieces)
 * and one byte at a time, which must give the same bytes; and the
 * ceilings (a held prefix, a dropped string). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttyfilter.h"
#include "tap.h"

struct row {
	const char *name, *in, *want;
	size_t in_len; /* 0: strlen */
};

static const struct row rows[] = {
	{ "text", "hello\r\n", "hello\r\n", 0 },
	{ "SGR colours", "\033[1;31mred\033[0m", "\033[1;31mred\033[0m", 0 },
	{ "cursor movement", "\033[2J\033[H\033[10;5H\033[?25l",
	  "\033[2J\033[H\033[10;5H\033[?25l", 0 },
	{ "alternate screen", "\033[?1049h\033[?1049l",
	  "\033[?1049h\033[?1049l", 0 },
	{ "DSR and DA kept", "\033[6n\033[c\033[>c", "\033[6n\033[c\033[>c",
	  0 },
	{ "charset designation", "\033(B\033)0", "\033(B\033)0", 0 },
	{ "title (BEL)", "\033]0;build\007x", "\033]0;build\007x", 0 },
	{ "title (ST)", "\033]2;t\033\\x", "\033]2;t\033\\x", 0 },
	{ "hyperlink", "\033]8;;https://e.x/\033\\l\033]8;;\033\\",
	  "\033]8;;https://e.x/\033\\l\033]8;;\033\\", 0 },
	{ "UTF-8 title", "\033]0;caf\xc3\xa9 \xc5\x9c\007",
	  "\033]0;caf\xc3\xa9 \xc5\x9c\007", 0 },
	{ "OSC 52 set (BEL)", "a\033]52;c;aGVsbG8=\007b", "ab", 0 },
	{ "OSC 52 set (ST)", "a\033]52;c;aGVsbG8=\033\\b", "ab", 0 },
	{ "OSC 52 query", "a\033]52;c;?\007b", "ab", 0 },
	{ "OSC 52, 8-bit",
	  "a\x9d"
	  "52;c;?\x9c"
	  "b",
	  "ab", 0 },
	{ "OSC 4 query", "\033]4;1;?\007", "", 0 },
	{ "OSC 10/11 queries", "\033]10;?\007\033]11;?\033\\", "", 0 },
	{ "OSC 50 font query", "\033]50;?\007", "", 0 },
	{ "OSC 1337 file", "\033]1337;File=:AAAA\007", "", 0 },
	{ "OSC without number", "\033];x\007\033]L\007y", "y", 0 },
	{ "OSC number too long", "\033]0000000;x\007y", "y", 0 },
	{ "DECRQSS", "\033P$qm\033\\z", "z", 0 },
	{ "XTGETTCAP", "\033P+q544e\033\\z", "z", 0 },
	{ "DCS, 8-bit", "\x90$qm\x9cz", "z", 0 },
	/* the terminal, too, ends the DCS at the first ESC and reads the
	 * OSC 52 that follows: dropped as one; the ST left is a no-op */
	{ "tmux pass-through", "\033Ptmux;\033\033]52;c;x\007\033\\z",
	  "\033\\z", 0 },
	{ "APC, PM, SOS", "\033_Gi=1;\033\\\033^p\033\\\033Xs\033\\z", "z", 0 },
	{ "title report", "\033[21t\033[20t\033[13t", "", 0 },
	{ "title report, 8-bit",
	  "\x9b"
	  "21t",
	  "", 0 },
	{ "size reports kept", "\033[14t\033[18t\033[22;0t",
	  "\033[14t\033[18t\033[22;0t", 0 },
	{ "DECRQCRA", "\033[1;1;1;1;10;10*y", "", 0 },
	{ "DECRQPSR", "\033[1$w", "", 0 },
	{ "media copy", "\033[5i\033[?5i\033[0i", "", 0 },
	{ "UTF-8 continuation is not C1", "\xc5\x9d\xe2\x80\x9b",
	  "\xc5\x9d\xe2\x80\x9b", 0 },
	{ "ESC ESC: one escape", "\033\033[31m", "\033[31m", 0 },
	{ "a dropped OSC leaves no ESC to splice", "\033\033]52;c;x\007P", "P",
	  0 },
	{ "a kept OSC cut by a dropped one is ended (CAN)",
	  "\033]0;t\033\033]52;c;x\007P", "\033]0;t\030P", 0 },
	{ "a kept OSC cut by a kept escape", "\033]0;t\033[1m",
	  "\033]0;t\033[1m", 0 },
	{ "C0 inside a CSI is acted on", "\033[2\r1t", "\r", 0 },
	{ "C0 between ESC and ]", "\033\r]52;c;x\007y", "\ry", 0 },
	{ "CAN ends a dropped string", "\033]52;c;x\030y", "\030y", 0 },
	{ "ESC inside a dropped string begins a sequence",
	  "\033]52;c;x\033[1mz", "\033[1mz", 0 },
	{ "unterminated at the end: dropped", "ok\033]52;c;aGk", "ok", 0 },
	{ "an escape cut at the end: dropped", "ok\033[3", "ok", 0 },
	{ "high byte in an escape",
	  "\033\xdd"
	  "52;x\007",
	  "\xdd"
	  "52;x\007",
	  0 },
	{ "NUL passes", "a\0b", "a\0b", 3 },
};

static size_t feed(const unsigned char *in, size_t n, size_t cut,
		   unsigned char *out)
{
	struct ttyfilter f;
	size_t len = 0;

	memset(&f, 0, sizeof(f));
	if (cut == 0) {
		for (size_t i = 0; i < n; i++)
			len += ttyfilter_feed(&f, in + i, 1, out + len);
		return len;
	}
	len = ttyfilter_feed(&f, in, cut, out);
	return len + ttyfilter_feed(&f, in + cut, n - cut, out + len);
}

static void test_rows(void)
{
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct row *w = &rows[r];
		size_t n = w->in_len ? w->in_len : strlen(w->in);
		size_t wn = w->in_len ? w->in_len : strlen(w->want);
		unsigned char out[512];
		size_t got;
		bool same = true;

		got = feed((const unsigned char *)w->in, n, n, out);
		ok(got == wn && memcmp(out, w->want, wn) == 0, "%s", w->name);
		for (size_t cut = 0; cut < n && same; cut++) {
			size_t g =
				feed((const unsigned char *)w->in, n, cut, out);

			same = g == wn && memcmp(out, w->want, wn) == 0;
			if (!same)
				diag("cut at %zu: %zu bytes", cut, g);
		}
		ok(same, "%s: the same cut at every point, and byte by byte",
		   w->name);
	}
}

static void test_ceilings(void)
{
	size_t n = TTYFILTER_STRING_MAX + 64, got;
	unsigned char *in = malloc(n), *out = malloc(n + TTYFILTER_HOLD);
	struct ttyfilter f;

	if (!in || !out) {
		skip(2, "out of memory");
		free(in);
		free(out);
		return;
	}
	/* a CSI longer than the hold: dropped whole, final byte included */
	memset(in, ';', 200);
	in[0] = 0x1b;
	in[1] = '[';
	memcpy(in + 200, "21tz", 4);
	memset(&f, 0, sizeof(f));
	got = ttyfilter_feed(&f, in, 204, out);
	ok(got == 1 && out[0] == 'z', "a CSI past the hold is dropped (%zu)",
	   got);
	/* a dropped string ends after TTYFILTER_STRING_MAX bytes */
	memset(in, 'A', n);
	memcpy(in, "\033]52;c;", 7);
	memset(&f, 0, sizeof(f));
	got = ttyfilter_feed(&f, in, n, out);
	ok(got > 0 && got < 128 && out[0] == 'A',
	   "an unterminated dropped string ends at its ceiling (%zu after)",
	   got);
	free(in);
	free(out);
}

int main(void)
{
	tap_no_plan();
	test_rows();
	test_ceilings();
	return tap_done();
}
