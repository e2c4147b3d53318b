/* sedscan.c — reading sed scripts for what they run and write.
 *
 * sed's e command and s///e flag run shell commands, w and s///w write
 * files: the script is read command by command and those are handed back
 * through the code scanner.
 */
#include "codescan_int.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "banned.h"

/* ---- sed ----------------------------------------------------------------- */

struct sedp {
	struct scan *sc;
	struct unit *u;
	const char *s;
	size_t n, i;
	int bad;
};

static int sed_ch(const struct sedp *p, size_t i)
{
	return i < p->n ? (unsigned char)p->s[i] : -1;
}

static void sed_blanks(struct sedp *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t'))
		p->i++;
}

/* Scans to the unescaped delimiter d; returns the body's end or sets bad. */
static size_t sed_part(struct sedp *p, int d)
{
	while (p->i < p->n) {
		int c = (unsigned char)p->s[p->i];
		if (c == '\\') {
			p->i += 2;
			continue;
		}
		if (c == d) {
			size_t e = p->i;
			p->i++;
			return e;
		}
		if (c == '\n') {
			p->bad = 1;
			return p->i;
		}
		p->i++;
	}
	p->bad = 1;
	p->i = p->n;
	return p->n;
}

static void sed_addr(struct sedp *p)
{
	int c = sed_ch(p, p->i);

	if (is_digit(c)) {
		while (is_digit(sed_ch(p, p->i)))
			p->i++;
		if (sed_ch(p, p->i) == '~') {
			p->i++;
			while (is_digit(sed_ch(p, p->i)))
				p->i++;
		}
	} else if (c == '$') {
		p->i++;
	} else if (c == '/' || c == '\\') {
		int d = '/';
		if (c == '\\') {
			p->i++;
			d = sed_ch(p, p->i);
			if (d < 0 || d == '\n') {
				p->bad = 1;
				return;
			}
		}
		p->i++;
		sed_part(p, d);
		while (sed_ch(p, p->i) == 'I' || sed_ch(p, p->i) == 'M')
			p->i++;
	}
}

/* The rest of the line (a, i, c, r, w, e take it whole). */
static size_t sed_rest(struct sedp *p, size_t *start)
{
	sed_blanks(p);
	*start = p->i;
	while (p->i < p->n && p->s[p->i] != '\n') {
		if (p->s[p->i] == '\\' && p->i + 1 < p->n)
			p->i++;
		p->i++;
	}
	return p->i;
}

/* A replacement or command text, sed's escapes resolved; & and \1-\9 (the
 * matched text) are dynamic parts. */
static void sed_text(struct sedp *p, size_t a, size_t b, int d, int repl,
		     struct text *x)
{
	struct scan *sc = p->sc;
	char *o = codescan_ar_room(sc, b - a);
	size_t n = 0;

	if (!o) {
		x->over = 1;
		return;
	}
	for (size_t i = a; i < b; i++) {
		char c = p->s[i];
		if (repl && c == '&') {
			x->n += n;
			sc->atop += n;
			o += n;
			n = 0;
			codelex_text_dyn(x);
			continue;
		}
		if (c == '\\' && i + 1 < b) {
			char e = p->s[++i];
			if (repl && e >= '1' && e <= '9') {
				x->n += n;
				sc->atop += n;
				o += n;
				n = 0;
				codelex_text_dyn(x);
				continue;
			}
			if (repl && strchr("LUluE", e))
				continue;
			if (e == 'n')
				c = '\n';
			else if (e == 't')
				c = '\t';
			else if (e == d || e == '\\' || e == '&' || e == '\n' ||
				 repl)
				c = e;
			else {
				o[n++] = '\\';
				c = e;
			}
		}
		o[n++] = c;
	}
	x->n += n;
	sc->atop += n;
}

static void sed_cmd_text(struct sedp *p, size_t a, size_t b, int d, int repl)
{
	struct scan *sc = p->sc;
	struct text x;
	size_t mark = sc->atop;

	memset(&x, 0, sizeof(x));
	x.off = mark;
	flag(p->u, CODE_F_EXEC);
	sc->exec = 1;
	sed_text(p, a, b, d, repl, &x);
	codescan_emit_text(p->u, &x, 0);
	sc->atop = mark;
}

void sedscan_scan(struct scan *sc, const char *s, size_t n)
{
	struct unit u;
	struct sedp p;
	unsigned depth = 0;

	memset(&u, 0, sizeof(u));
	u.sc = sc;
	u.lang = CODE_SED;
	u.s = s;
	u.n = n;
	memset(&p, 0, sizeof(p));
	p.sc = sc;
	p.u = &u;
	p.s = s;
	p.n = n;
	while (p.i < p.n && !p.bad) {
		size_t start, end, rs, re;
		int c = sed_ch(&p, p.i);

		if (is_space(c) || c == ';') {
			p.i++;
			continue;
		}
		if (c == '#') {
			while (p.i < p.n && p.s[p.i] != '\n')
				p.i++;
			continue;
		}
		if (c == '}') {
			if (depth)
				depth--;
			p.i++;
			continue;
		}
		sed_addr(&p);
		sed_blanks(&p);
		if (sed_ch(&p, p.i) == ',') {
			p.i++;
			sed_blanks(&p);
			if (sed_ch(&p, p.i) == '+' || sed_ch(&p, p.i) == '~')
				p.i++;
			sed_addr(&p);
			sed_blanks(&p);
		}
		while (sed_ch(&p, p.i) == '!') {
			p.i++;
			sed_blanks(&p);
		}
		if (p.bad)
			break;
		c = sed_ch(&p, p.i);
		if (c < 0)
			break;
		p.i++;
		switch (c) {
		case '{':
			if (++depth > CS_MAX_NEST)
				p.bad = 1;
			break;
		case 's': {
			int d = sed_ch(&p, p.i), e = 0;
			if (d < 0 || d == '\n' || d == '\\') {
				p.bad = 1;
				break;
			}
			p.i++;
			sed_part(&p, d);
			rs = p.i;
			re = sed_part(&p, d);
			if (p.bad)
				break;
			for (;;) {
				int f = sed_ch(&p, p.i);
				if (f == 'e') {
					e = 1;
				} else if (f == 'w' || f == 'W') {
					p.i++;
					end = sed_rest(&p, &start);
					if (!(end - start == 11 &&
					      (!memcmp(s + start, "/dev/stdout",
						       11) ||
					       !memcmp(s + start, "/dev/stderr",
						       11))))
						flag(&u, CODE_F_WRITE);
					break;
				} else if (f < 0 || !(is_digit(f) ||
						      strchr("gpiImM", f))) {
					break;
				}
				p.i++;
			}
			if (e)
				sed_cmd_text(&p, rs, re, d, 1);
			break;
		}
		case 'y': {
			int d = sed_ch(&p, p.i);
			if (d < 0 || d == '\n' || d == '\\') {
				p.bad = 1;
				break;
			}
			p.i++;
			sed_part(&p, d);
			sed_part(&p, d);
			break;
		}
		case 'a':
		case 'i':
		case 'c':
			sed_blanks(&p);
			if (sed_ch(&p, p.i) == '\\') {
				p.i++;
				if (sed_ch(&p, p.i) == '\n')
					p.i++;
			}
			sed_rest(&p, &start);
			break;
		case 'e':
			end = sed_rest(&p, &start);
			if (start == end || s[start] == ';' || s[start] == '}')
				codescan_dyn_exec(&u);
			else
				sed_cmd_text(&p, start, end, -1, 0);
			break;
		case 'r':
		case 'R':
		case 'w':
		case 'W':
			end = sed_rest(&p, &start);
			if (codescan_names_secret(s + start, end - start))
				flag(&u, CODE_F_SECRETS);
			if ((c == 'w' || c == 'W') &&
			    !(end - start == 11 &&
			      (!memcmp(s + start, "/dev/stdout", 11) ||
			       !memcmp(s + start, "/dev/stderr", 11))))
				flag(&u, CODE_F_WRITE);
			break;
		case ':':
			sed_blanks(&p);
			while (p.i < p.n && p.s[p.i] != '\n' && p.s[p.i] != ';')
				p.i++;
			break;
		case 'b':
		case 't':
		case 'T':
			sed_blanks(&p);
			while (p.i < p.n && !strchr("\n;}", p.s[p.i]))
				p.i++;
			break;
		case 'q':
		case 'Q':
		case 'l':
		case 'L':
			sed_blanks(&p);
			while (is_digit(sed_ch(&p, p.i)))
				p.i++;
			break;
		case 'v':
			while (p.i < p.n && !strchr("\n;}", p.s[p.i]))
				p.i++;
			break;
		default:
			if (!strchr("=dDgGhHnNpPxzF", c))
				p.bad = 1;
			break;
		}
	}
	if (p.bad)
		flag(&u, CODE_F_UNREADABLE);
}
