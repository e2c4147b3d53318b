/* ttyfilter — what of a sandboxed command's terminal output reaches the
 * caller's terminal (the pty relay, pty.c). Pure: no I/O, fuzzed.
 *
 * Dropped: the sequences that make the terminal write the host's
 * clipboard or answer with data the command did not have, and those that
 * could smuggle either past this filter:
 *   - every OSC but 0, 1, 2 (titles) and 8 (hyperlinks): 52 (clipboard
 *     set and query), 4/5/10-19/104-119 (colour sets and queries), 50
 *     (font query), 7, 9, 777, 1337 and the rest;
 *   - every DCS (DECRQSS, XTGETTCAP, tmux pass-through, sixel), SOS, PM
 *     and APC (kitty's graphics answer);
 *   - CSI 13/20/21 t (window position, icon and title reports), CSI … * y
 *     (DECRQCRA: a checksum of the screen), CSI … $ w (DECRQPSR), CSI … i
 *     (media copy: the terminal's printer command).
 * Kept: text, C0 controls, SGR colours, cursor movement, modes, titles,
 * every other CSI and ESC sequence (the answers to DSR and DA tell the
 * command nothing of the user's).
 *
 * The terminal's own parser is followed (the VT500 one xterm, VTE and
 * most others use): ESC, CAN and SUB end a sequence or string, a C0
 * control inside one is acted on and the sequence goes on, ST is ESC \,
 * 0x9c, or BEL for an OSC. The 8-bit C1 forms (0x9b CSI, 0x9d OSC, 0x90
 * DCS, 0x98 SOS, 0x9e PM, 0x9f APC) count where they cannot be a UTF-8
 * continuation byte. Nothing is emitted of a sequence until it is known
 * to be kept (its prefix is held, across calls), so an escape is never
 * emitted cut short and a dropped one leaves no ESC behind to splice with
 * what follows. A sequence whose held prefix would pass TTYFILTER_HOLD
 * bytes is dropped whole; a dropped string ends at its terminator or
 * after TTYFILTER_STRING_MAX bytes (the terminal never saw it begin).
 * What is held at the end of the stream is dropped.
 */
#ifndef CORDON_TTYFILTER_H
#define CORDON_TTYFILTER_H

#include <stdbool.h>
#include <stddef.h>

#define TTYFILTER_HOLD 64
#define TTYFILTER_STRING_MAX ((size_t)1 << 20)

/* Zero-initialised: the ground state. */
struct ttyfilter {
	int state;
	int utf8; /* continuation bytes still expected */
	unsigned char hold[TTYFILTER_HOLD];
	size_t nhold;
	size_t dropped; /* bytes of the string being dropped */
	bool open; /* the terminal is inside a kept OSC not yet ended */
};

/* Filters n bytes of output; writes what passes to out, which must have
 * room for n + TTYFILTER_HOLD bytes, and returns how many. */
size_t ttyfilter_feed(struct ttyfilter *f, const unsigned char *in, size_t n,
		      unsigned char *out);

#endif
