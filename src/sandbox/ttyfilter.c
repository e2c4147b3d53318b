/* ttyfilter — the terminal relay's output filter (ttyfilter.h). */
#include <stdbool.h>
#include <string.h>

#include "ttyfilter.h"

#include "banned.h"

#define ESC 0x1b
#define CAN 0x18
#define SUB 0x1a
#define BEL 0x07
#define C1_ST 0x9c

enum {
	GROUND,
	ESCAPE, /* ESC held */
	ESC_INT, /* ESC and intermediates held */
	ESC_INT_DROP, /* too long: dropped until its final byte */
	CSI, /* introducer, parameters, intermediates held */
	CSI_DROP,
	OSC_NUM, /* introducer and the OSC's number held */
	STR_PASS, /* a kept OSC's text, passed on */
	STR_PASS_ESC,
	STR_DROP, /* a dropped OSC, DCS, SOS, PM or APC */
	STR_DROP_ESC,
};

/* The OSCs kept: titles and hyperlinks. */
static bool osc_kept(unsigned long n)
{
	return n == 0 || n == 1 || n == 2 || n == 8;
}

struct out {
	unsigned char *p;
	size_t n;
	bool open; /* the terminal is inside a kept OSC not yet ended */
};

static void put(struct out *o, unsigned char c)
{
	o->p[o->n++] = c;
}

static void emit_held(struct ttyfilter *f, struct out *o)
{
	memcpy(o->p + o->n, f->hold, f->nhold);
	o->n += f->nhold;
	f->nhold = 0;
	o->open = false;
}

/* Nothing of the held sequence goes out; a kept OSC the terminal still
 * has open (ended here by ESC or a C1 byte that is not passed on) is
 * ended with CAN, so what follows is not taken into it. */
static void drop_held(struct ttyfilter *f, struct out *o)
{
	f->nhold = 0;
	if (o->open) {
		put(o, CAN);
		o->open = false;
	}
}

static void hold(struct ttyfilter *f, unsigned char c)
{
	f->hold[f->nhold++] = c;
}

/* A UTF-8 continuation byte is text, never C1. */
static bool is_c1(const struct ttyfilter *f, unsigned char c)
{
	return c >= 0x80 && c <= 0x9f && f->utf8 == 0;
}

static void utf8_track(struct ttyfilter *f, unsigned char c)
{
	if (f->utf8 && c >= 0x80 && c <= 0xbf)
		f->utf8--;
	else if (c >= 0xc2 && c <= 0xdf)
		f->utf8 = 1;
	else if (c >= 0xe0 && c <= 0xef)
		f->utf8 = 2;
	else if (c >= 0xf0 && c <= 0xf4)
		f->utf8 = 3;
	else
		f->utf8 = 0;
}

/* The introducer c (after ESC, or a C1 byte mapped to it) begins what. */
static bool introduce(struct ttyfilter *f, struct out *o, unsigned char c)
{
	switch (c) {
	case '[':
		f->state = CSI;
		return true;
	case ']':
		f->state = OSC_NUM;
		return true;
	case 'P': /* DCS */
	case 'X': /* SOS */
	case '^': /* PM */
	case '_': /* APC */
		drop_held(f, o);
		f->state = STR_DROP;
		f->dropped = 0;
		return true;
	default:
		return false;
	}
}

/* Whether the CSI held, ending in final, is dropped (ttyfilter.h). */
static bool csi_dropped(const struct ttyfilter *f, unsigned char final)
{
	size_t i = f->hold[0] == ESC ? 2 : 1;
	bool private = i < f->nhold && f->hold[i] >= 0x3c && f->hold[i] <= 0x3f;
	unsigned long first = 0;
	bool in_first = true, star = false, dollar = false, inter = false;

	for (; i < f->nhold; i++) {
		unsigned char c = f->hold[i];

		if (c >= 0x20 && c <= 0x2f) {
			inter = true;
			star |= c == '*';
			dollar |= c == '$';
		} else if (c >= '0' && c <= '9' && in_first && !private) {
			if (first < 100000)
				first = first * 10 + (unsigned long)(c - '0');
		} else {
			in_first = false;
		}
	}
	if (final == 't' && !inter && !private)
		return first == 13 || first == 20 || first == 21;
	if (final == 'y' && star) /* DECRQCRA */
		return true;
	if (final == 'w' && dollar) /* DECRQPSR */
		return true;
	return final == 'i' && !inter; /* MC */
}

/* The OSC number held (the digits after the introducer); -1 when there
 * is none. */
static long osc_number(const struct ttyfilter *f)
{
	size_t i = f->hold[0] == ESC ? 2 : 1;
	long n = 0;

	if (i >= f->nhold)
		return -1;
	for (; i < f->nhold; i++)
		n = n * 10 + (f->hold[i] - '0');
	return n;
}

static void step(struct ttyfilter *f, struct out *o, unsigned char c)
{
again:
	switch (f->state) {
	case GROUND:
		if (c == ESC) {
			f->utf8 = 0;
			hold(f, c);
			f->state = ESCAPE;
			return;
		}
		if (is_c1(f, c)) {
			static const unsigned char map[][2] = {
				{ 0x9b, '[' }, { 0x9d, ']' }, { 0x90, 'P' },
				{ 0x98, 'X' }, { 0x9e, '^' }, { 0x9f, '_' },
			};

			for (size_t i = 0; i < sizeof(map) / sizeof(map[0]);
			     i++)
				if (map[i][0] == c) {
					hold(f, c);
					(void)introduce(f, o, map[i][1]);
					return;
				}
			put(o, c);
			return;
		}
		put(o, c);
		if (c < 0x20)
			f->utf8 = 0;
		else
			utf8_track(f, c);
		return;

	case ESCAPE:
	case ESC_INT:
	case ESC_INT_DROP:
	case CSI:
	case CSI_DROP:
		if (c == ESC) {
			/* the sequence so far is abandoned, as the terminal
			 * abandons it; a new one begins */
			if (f->state == ESCAPE && f->nhold == 1)
				return;
			drop_held(f, o);
			hold(f, c);
			f->state = ESCAPE;
			return;
		}
		if (c == CAN || c == SUB) {
			drop_held(f, o);
			put(o, c);
			f->state = GROUND;
			return;
		}
		if (c < 0x20 || c == 0x7f) {
			put(o, c); /* acted on inside the sequence */
			return;
		}
		if (c >= 0x80) {
			/* not part of an escape: the sequence is dropped and
			 * the byte read afresh */
			drop_held(f, o);
			f->state = GROUND;
			goto again;
		}
		break;

	case OSC_NUM:
		if (c >= '0' && c <= '9' && f->nhold < 8) {
			hold(f, c);
			return;
		}
		if (c == ';' || c == BEL || (c == C1_ST && f->utf8 == 0)) {
			long num = osc_number(f);

			if (num >= 0 && osc_kept((unsigned long)num)) {
				emit_held(f, o);
				put(o, c);
				o->open = c == ';';
				f->state = c == ';' ? STR_PASS : GROUND;
				return;
			}
			drop_held(f, o);
			f->state = c == ';' ? STR_DROP : GROUND;
			f->dropped = 0;
			return;
		}
		if (c == ESC) {
			drop_held(f, o);
			f->state = STR_DROP_ESC;
			return;
		}
		if (c == CAN || c == SUB) {
			drop_held(f, o);
			put(o, c);
			f->state = GROUND;
			return;
		}
		if (c < 0x20)
			return; /* ignored inside a string */
		drop_held(f, o);
		f->state = STR_DROP;
		f->dropped = 0;
		goto again;

	case STR_PASS:
		o->open = true;
		if (c == BEL || (c == C1_ST && f->utf8 == 0) || c == CAN ||
		    c == SUB) {
			put(o, c);
			o->open = false;
			f->state = GROUND;
			return;
		}
		if (c == ESC) {
			f->state = STR_PASS_ESC;
			return;
		}
		if (is_c1(f, c)) {
			f->state = GROUND; /* the string ends; o->open */
			goto again;
		}
		put(o, c);
		if (c < 0x20)
			f->utf8 = 0;
		else
			utf8_track(f, c);
		return;

	case STR_PASS_ESC:
		o->open = true;
		if (c == '\\') {
			put(o, ESC);
			put(o, c);
			o->open = false;
			f->state = GROUND;
			return;
		}
		f->utf8 = 0;
		hold(f, ESC);
		f->state = ESCAPE;
		goto again;

	case STR_DROP:
		if (c == BEL || (c == C1_ST && f->utf8 == 0)) {
			f->state = GROUND;
			return;
		}
		if (c == ESC) {
			f->state = STR_DROP_ESC;
			return;
		}
		if (c == CAN || c == SUB) {
			put(o, c);
			f->state = GROUND;
			return;
		}
		if (is_c1(f, c)) {
			f->state = GROUND;
			goto again;
		}
		utf8_track(f, c);
		if (++f->dropped >= TTYFILTER_STRING_MAX) {
			f->utf8 = 0;
			f->state = GROUND;
		}
		return;

	case STR_DROP_ESC:
		f->utf8 = 0;
		if (c == '\\') {
			f->state = GROUND;
			return;
		}
		hold(f, ESC);
		f->state = ESCAPE;
		goto again;
	}

	/* ESCAPE, ESC_INT(_DROP), CSI(_DROP): a byte 0x20-0x7e */
	switch (f->state) {
	case ESCAPE:
		if (introduce(f, o, c)) {
			if (f->state != STR_DROP)
				hold(f, c);
			return;
		}
		hold(f, c);
		if (c <= 0x2f) {
			f->state = ESC_INT;
			return;
		}
		emit_held(f, o);
		f->state = GROUND;
		return;
	case ESC_INT:
		if (c <= 0x2f && f->nhold >= TTYFILTER_HOLD - 1) {
			drop_held(f, o);
			f->state = ESC_INT_DROP;
			return;
		}
		hold(f, c);
		if (c > 0x2f) {
			emit_held(f, o);
			f->state = GROUND;
		}
		return;
	case ESC_INT_DROP:
		if (c > 0x2f)
			f->state = GROUND;
		return;
	case CSI:
		if (c <= 0x3f) {
			if (f->nhold >= TTYFILTER_HOLD - 1) {
				drop_held(f, o);
				f->state = CSI_DROP;
				return;
			}
			hold(f, c);
			return;
		}
		if (csi_dropped(f, c)) {
			drop_held(f, o);
		} else {
			hold(f, c);
			emit_held(f, o);
		}
		f->state = GROUND;
		return;
	case CSI_DROP:
		if (c >= 0x40)
			f->state = GROUND;
		return;
	default:
		return;
	}
}

size_t ttyfilter_feed(struct ttyfilter *f, const unsigned char *in, size_t n,
		      unsigned char *out)
{
	struct out o = { .p = out, .n = 0, .open = f->open };

	for (size_t i = 0; i < n; i++) {
		int was = f->state;

		step(f, &o, in[i]);
		/* Back in the text: the terminal decodes UTF-8 afresh (every
		 * sequence began where it did, or at a C0 byte). */
		if (f->state == GROUND && was != GROUND)
			f->utf8 = 0;
	}
	f->open = o.open;
	return o.n;
}
