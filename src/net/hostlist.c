/* hostlist — allow/deny lists of the egress proxy, host normalisation and
 * Punycode. The contract is in hostlist.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "hostlist.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

enum entry_kind {
	ENTRY_NAME,
	ENTRY_WILDCARD,
	ENTRY_IP,
};

struct hostlist_entry {
	enum entry_kind kind;
	unsigned port; /* 0: none given */
	size_t namelen;
	char name[HOSTLIST_MAX_NAME + 1]; /* ENTRY_NAME, ENTRY_WILDCARD: the domain */
	struct netaddr_addr addr; /* ENTRY_IP */
	char *text; /* as written */
	char canon[HOSTLIST_MAX_NAME + 16];
};

struct hostlist_vec {
	struct hostlist_entry **v;
	size_t n;
};

struct hostlist_policy {
	struct hostlist_vec lists[2];
};

static const char *const list_names[2] = { "allow", "deny" };

/* ---- Punycode (RFC 3492) ------------------------------------------------ */

enum {
	PC_BASE = 36,
	PC_TMIN = 1,
	PC_TMAX = 26,
	PC_SKEW = 38,
	PC_DAMP = 700,
	PC_BIAS = 72,
	PC_N = 128,
};

#define PC_MAXINT 0xffffffffu

static uint32_t adapt(uint32_t delta, uint32_t numpoints, bool first)
{
	uint32_t k = 0;

	delta = first ? delta / PC_DAMP : delta / 2;
	delta += delta / numpoints;
	while (delta > ((PC_BASE - PC_TMIN) * PC_TMAX) / 2) {
		delta /= PC_BASE - PC_TMIN;
		k += PC_BASE;
	}
	return k + (PC_BASE - PC_TMIN + 1) * delta / (delta + PC_SKEW);
}

static uint32_t threshold(uint32_t k, uint32_t bias)
{
	if (k <= bias)
		return PC_TMIN;
	if (k >= bias + PC_TMAX)
		return PC_TMAX;
	return k - bias;
}

static char digit_char(uint32_t d)
{
	return (char)(d < 26 ? 'a' + d : '0' + (d - 26));
}

static uint32_t char_digit(unsigned char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= '0' && c <= '9')
		return c - '0' + 26;
	return PC_BASE;
}

bool hostlist_punycode_encode(const uint32_t *cps, size_t n, char *out, size_t outsz)
{
	uint32_t code = PC_N, delta = 0, bias = PC_BIAS, h, b;
	size_t o = 0;

	if (outsz == 0 || n > PC_MAXINT - 1)
		return false;
	for (size_t j = 0; j < n; j++) {
		if (cps[j] > 0x10ffff)
			return false;
		if (cps[j] < 0x80) {
			if (o + 1 >= outsz)
				return false;
			out[o++] = (char)cps[j];
		}
	}
	h = b = (uint32_t)o;
	if (b > 0) {
		if (o + 1 >= outsz)
			return false;
		out[o++] = '-';
	}
	while (h < n) {
		uint32_t m = PC_MAXINT;

		for (size_t j = 0; j < n; j++)
			if (cps[j] >= code && cps[j] < m)
				m = cps[j];
		if (m - code > (PC_MAXINT - delta) / (h + 1))
			return false;
		delta += (m - code) * (h + 1);
		code = m;
		for (size_t j = 0; j < n; j++) {
			if (cps[j] < code && ++delta == 0)
				return false;
			if (cps[j] != code)
				continue;
			uint32_t q = delta;

			for (uint32_t k = PC_BASE;; k += PC_BASE) {
				uint32_t t = threshold(k, bias);

				if (q < t)
					break;
				if (o + 1 >= outsz)
					return false;
				out[o++] =
					digit_char(t + (q - t) % (PC_BASE - t));
				q = (q - t) / (PC_BASE - t);
			}
			if (o + 1 >= outsz)
				return false;
			out[o++] = digit_char(q);
			bias = adapt(delta, h + 1, h == b);
			delta = 0;
			h++;
		}
		delta++;
		code++;
	}
	out[o] = '\0';
	return true;
}

bool hostlist_punycode_decode(const char *s, size_t len, uint32_t *cps, size_t max,
			size_t *n)
{
	uint32_t code = PC_N, i = 0, bias = PC_BIAS;
	size_t out = 0, b = 0, in;

	*n = 0;
	for (size_t j = 0; j < len; j++)
		if (s[j] == '-')
			b = j;
	if (b > max)
		return false;
	for (size_t j = 0; j < b; j++) {
		if ((unsigned char)s[j] >= 0x80)
			return false;
		cps[out++] = (unsigned char)s[j];
	}
	in = b > 0 ? b + 1 : 0;
	while (in < len) {
		uint32_t oldi = i, w = 1;

		for (uint32_t k = PC_BASE;; k += PC_BASE) {
			uint32_t d, t;

			if (in >= len)
				return false;
			d = char_digit((unsigned char)s[in++]);
			if (d >= PC_BASE)
				return false;
			if (d > (PC_MAXINT - i) / w)
				return false;
			i += d * w;
			t = threshold(k, bias);
			if (d < t)
				break;
			if (w > PC_MAXINT / (PC_BASE - t))
				return false;
			w *= PC_BASE - t;
		}
		bias = adapt(i - oldi, (uint32_t)out + 1, oldi == 0);
		if (i / (out + 1) > PC_MAXINT - code)
			return false;
		code += i / (uint32_t)(out + 1);
		i %= (uint32_t)(out + 1);
		if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
			return false;
		if (out >= max)
			return false;
		memmove(cps + i + 1, cps + i, (out - i) * sizeof(*cps));
		cps[i++] = code;
		out++;
	}
	*n = out;
	return true;
}

/* ---- IDNA subset --------------------------------------------------------- */

/* A non-ASCII code point of a U-label mapped to its lower-case form, or 0
 * when cordon does not know how UTS 46 and NFC treat it (refused). */
static uint32_t map_cp(uint32_t c)
{
	if (c >= 0xc0 && c <= 0xde && c != 0xd7)
		return c + 0x20;
	if (c >= 0xdf && c <= 0xff && c != 0xf7)
		return c;
	if (c >= 0x100 && c <= 0x17f) {
		/* İ, Ĳ ĳ, Ŀ ŀ, ŉ and ſ map to more than one character or to
		 * ASCII under UTS 46. */
		if (c == 0x130 || c == 0x132 || c == 0x133 || c == 0x13f ||
		    c == 0x140 || c == 0x149 || c == 0x17f)
			return 0;
		if (c == 0x131 || c == 0x138)
			return c;
		if (c == 0x178)
			return 0xff;
		if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e))
			return (c & 1) ? c + 1 : c;
		return (c & 1) ? c : c + 1;
	}
	if (c >= 0x391 && c <= 0x3a9 && c != 0x3a2)
		return c + 0x20;
	if (c == 0x3aa || c == 0x3ab)
		return c + 0x20;
	switch (c) {
	case 0x386:
		return 0x3ac;
	case 0x388:
	case 0x389:
	case 0x38a:
		return c + 0x25;
	case 0x38c:
		return 0x3cc;
	case 0x38e:
	case 0x38f:
		return c + 0x3f;
	default:
		break;
	}
	if ((c == 0x390) || (c >= 0x3ac && c <= 0x3ce))
		return c;
	if (c >= 0x410 && c <= 0x42f)
		return c + 0x20;
	if (c >= 0x400 && c <= 0x40f)
		return c + 0x50;
	if (c >= 0x430 && c <= 0x45f)
		return c;
	if ((c >= 0x5d0 && c <= 0x5ea) || (c >= 0x621 && c <= 0x63a) ||
	    (c >= 0x641 && c <= 0x64a) || (c >= 0x660 && c <= 0x669))
		return c;
	if ((c >= 0xe01 && c <= 0xe3a && c != 0xe33) ||
	    (c >= 0xe40 && c <= 0xe4e) || (c >= 0xe50 && c <= 0xe59))
		return c;
	if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa) ||
	    c == 0x30fc)
		return c;
	if ((c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
	    (c >= 0xac00 && c <= 0xd7a3))
		return c;
	return 0;
}

/* Characters no label may hold, whatever the script: controls, spaces,
 * punctuation that UTS 46 maps to a dot or to ASCII, format and bidi
 * controls, combining marks whose NFC cordon cannot compute, Hangul
 * fillers and jamo, variation selectors, fullwidth and halfwidth forms,
 * surrogates, private use and noncharacters. */
static bool cp_refused(uint32_t c)
{
	static const struct {
		uint32_t lo, hi;
	} bad[] = {
		{ 0x0000, 0x00bf },   { 0x00d7, 0x00d7 },    { 0x00f7, 0x00f7 },
		{ 0x0300, 0x036f },   { 0x1100, 0x11ff },    { 0x1680, 0x1680 },
		{ 0x180b, 0x180e },   { 0x2000, 0x206f },    { 0x3000, 0x3003 },
		{ 0x3099, 0x309a },   { 0x3164, 0x3164 },    { 0xa960, 0xa97f },
		{ 0xd7b0, 0xdfff },   { 0xe000, 0xf8ff },    { 0xf900, 0xfaff },
		{ 0xfdd0, 0xfdef },   { 0xfe00, 0xfe0f },    { 0xfe10, 0xfe1f },
		{ 0xfe30, 0xfe6f },   { 0xfeff, 0xfeff },    { 0xff00, 0xffff },
		{ 0xe0000, 0xe0fff }, { 0xf0000, 0x10ffff },
	};

	if (c > 0x10ffff || (c & 0xfffe) == 0xfffe)
		return true;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (c >= bad[i].lo && c <= bad[i].hi)
			return true;
	return false;
}

static bool ascii_label_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_';
}

/* Validates an A-label already lower-cased, s[0..len) including "xn--". */
static bool alabel_valid(const char *s, size_t len, const char **why)
{
	uint32_t cps[HOSTLIST_MAX_LABEL];
	char again[HOSTLIST_MAX_LABEL + 1];
	size_t n;
	bool wide = false;

	if (!hostlist_punycode_decode(s + 4, len - 4, cps, HOSTLIST_MAX_LABEL, &n)) {
		*why = "invalid Punycode in an xn-- label";
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (cps[i] < 0x80) {
			if (!ascii_label_char((unsigned char)cps[i]))
				goto bad;
			continue;
		}
		wide = true;
		if (cp_refused(cps[i]))
			goto bad;
		if (map_cp(cps[i]) != 0 && map_cp(cps[i]) != cps[i])
			goto bad;
	}
	if (!wide) {
		*why = "an xn-- label that decodes to ASCII only";
		return false;
	}
	if (!hostlist_punycode_encode(cps, n, again, sizeof(again)) ||
	    strlen(again) != len - 4 || memcmp(again, s + 4, len - 4) != 0) {
		*why = "an xn-- label that is not in canonical Punycode";
		return false;
	}
	return true;
bad:
	*why = "an xn-- label holding a character IDNA refuses";
	return false;
}

/* Normalises one label s[0..len) and appends it to out at *o. */
static bool label_norm(const char *s, size_t len, char *out, size_t *o,
		       const char **why)
{
	uint32_t cps[HOSTLIST_MAX_LABEL];
	char enc[HOSTLIST_MAX_LABEL + 1];
	size_t n = 0, start = *o;
	bool wide = false;

	if (len == 0) {
		*why = "empty label in a name";
		return false;
	}
	for (size_t i = 0; i < len;) {
		uint32_t c;
		size_t used = text_utf8_decode((const unsigned char *)s + i,
					       len - i, &c);

		if (used == 0) {
			*why = "invalid UTF-8 in a name";
			return false;
		}
		i += used;
		if (c < 0x80) {
			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			if (!ascii_label_char((unsigned char)c)) {
				*why = "invalid character in a name (a name "
				       "is letters, digits, '-', '_')";
				return false;
			}
		} else {
			uint32_t m = cp_refused(c) ? 0 : map_cp(c);

			if (m == 0) {
				*why = "a character cordon does not normalise "
				       "for IDNA (write the xn-- A-label)";
				return false;
			}
			c = m;
			wide = true;
		}
		if (n == HOSTLIST_MAX_LABEL) {
			*why = "label longer than 63 bytes";
			return false;
		}
		cps[n++] = c;
	}
	if (!wide) {
		if (*o + n > HOSTLIST_MAX_NAME) {
			*why = "name longer than 253 bytes";
			return false;
		}
		for (size_t i = 0; i < n; i++)
			out[(*o)++] = (char)cps[i];
		if (n >= 4 && memcmp(out + start, "xn--", 4) == 0 &&
		    !alabel_valid(out + start, n, why))
			return false;
		return true;
	}
	if (!hostlist_punycode_encode(cps, n, enc, sizeof(enc) - 4)) {
		*why = "label longer than 63 bytes as an A-label";
		return false;
	}
	n = strlen(enc);
	if (*o + 4 + n > HOSTLIST_MAX_NAME) {
		*why = "name longer than 253 bytes";
		return false;
	}
	memcpy(out + *o, "xn--", 4);
	memcpy(out + *o + 4, enc, n);
	*o += 4 + n;
	return true;
}

/* A name (not an address): labels normalised and joined by '.'. */
static bool name_norm(const char *s, size_t len, char out[HOSTLIST_MAX_NAME + 1],
		      const char **why)
{
	size_t o = 0, start = 0;

	if (len > 0 && s[len - 1] == '.')
		len--;
	if (len == 0) {
		*why = "empty name";
		return false;
	}
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (start > 0) {
			if (o >= HOSTLIST_MAX_NAME) {
				*why = "name longer than 253 bytes";
				return false;
			}
			out[o++] = '.';
		}
		if (!label_norm(s + start, i - start, out, &o, why))
			return false;
		start = i + 1;
	}
	out[o] = '\0';
	return true;
}

/* v4-mapped IPv6 is its IPv4 address, in entries and requests alike. */
static void unmap(struct netaddr_addr *a)
{
	struct netaddr_addr inner[NETADDR_MAX_EMBEDDED];
	enum netaddr_embed forms[NETADDR_MAX_EMBEDDED];

	if (netaddr_embedded_v4(a, inner, forms) == 1 &&
	    forms[0] == NETADDR_EMBED_V4_MAPPED)
		*a = inner[0];
}

enum netaddr_host hostlist_normalize_host(const char *s, size_t len,
			       char out[HOSTLIST_MAX_NAME + 1], struct netaddr_addr *addr,
			       const char **why)
{
	enum netaddr_host kind;

	out[0] = '\0';
	*why = NULL;
	if (!s || len == 0) {
		*why = "empty host";
		memset(addr, 0, sizeof(*addr));
		return NETADDR_HOST_INVALID;
	}
	if (len > HOSTLIST_MAX_ENTRY) {
		*why = "host longer than HOSTLIST_MAX_ENTRY bytes";
		memset(addr, 0, sizeof(*addr));
		return NETADDR_HOST_INVALID;
	}
	kind = netaddr_parse_host(s, len, addr);
	if (kind == NETADDR_HOST_IP) {
		char buf[NETADDR_ADDRSTRLEN];

		unmap(addr);
		netaddr_format(addr, buf);
		memcpy(out, buf, strlen(buf) + 1);
		return NETADDR_HOST_IP;
	}
	if (kind == NETADDR_HOST_INVALID) {
		*why = "neither a name nor an IP address (a numeric last label "
		       "makes it an IPv4 address, and this one is not valid)";
		if (s[0] == '[' || memchr(s, ':', len))
			*why = memchr(s, '%', len) ?
				       "IPv6 zone ids are not accepted" :
				       "not a valid IPv6 address";
		return NETADDR_HOST_INVALID;
	}
	if (!name_norm(s, len, out, why)) {
		out[0] = '\0';
		return NETADDR_HOST_INVALID;
	}
	return NETADDR_HOST_NAME;
}

enum netaddr_host hostlist_url_host(const char *url, bool bare_ok,
			 char out[HOSTLIST_MAX_NAME + 1], struct netaddr_addr *addr)
{
	const char *p = strstr(url, "://"), *e, *at = NULL, *host, *why;
	char dec[HOSTLIST_MAX_ENTRY + 1];
	size_t hl, o = 0;
	unsigned port;

	out[0] = '\0';
	memset(addr, 0, sizeof(*addr));
	if (!p && !bare_ok)
		return NETADDR_HOST_INVALID;
	p = p ? p + 3 : url;
	e = p + strcspn(p, "/?#\\");
	for (const char *q = p; q < e; q++)
		if (*q == '@')
			at = q;
	if (at)
		p = at + 1;
	if (!hostlist_split_authority(p, (size_t)(e - p), &host, &hl, &port) ||
	    hl == 0)
		return NETADDR_HOST_INVALID;
	if (host[0] == '[' && hl >= 2) {
		host++;
		hl -= 2;
	}
	if (hl > HOSTLIST_MAX_ENTRY)
		return NETADDR_HOST_INVALID;
	for (size_t i = 0; i < hl; i++) {
		int h1, h2;

		if (host[i] == '%' && i + 2 < hl &&
		    (h1 = text_hex_value((unsigned char)host[i + 1])) >= 0 &&
		    (h2 = text_hex_value((unsigned char)host[i + 2])) >= 0) {
			dec[o++] = (char)(h1 << 4 | h2);
			i += 2;
			continue;
		}
		dec[o++] = host[i];
	}
	return hostlist_normalize_host(dec, o, out, addr, &why);
}

/* ---- entries ------------------------------------------------------------- */

static bool parse_port(const char *s, size_t len, unsigned *port)
{
	unsigned v = 0;

	if (len == 0 || len > 5 || s[0] == '0')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > 65535)
		return false;
	*port = v;
	return true;
}

bool hostlist_split_authority(const char *s, size_t len, const char **host,
			size_t *hostlen, unsigned *port)
{
	const char *colon;

	*host = s;
	*hostlen = len;
	*port = 0;
	if (!s)
		return false;
	if (len > 0 && s[0] == '[') {
		const char *close = memchr(s, ']', len);
		size_t hl;

		if (!close)
			return false;
		hl = (size_t)(close - s) + 1;
		*hostlen = hl;
		if (hl == len)
			return true;
		if (s[hl] != ':')
			return false;
		return parse_port(s + hl + 1, len - hl - 1, port);
	}
	colon = memchr(s, ':', len);
	if (!colon)
		return true;
	if (memchr(colon + 1, ':', len - (size_t)(colon - s) - 1))
		return false;
	*hostlen = (size_t)(colon - s);
	return parse_port(colon + 1, len - *hostlen - 1, port);
}

/* Parses one entry into e; *why on failure. */
static bool parse_entry(const char *s, size_t len, struct hostlist_entry *e,
			const char **why)
{
	const char *host = s;
	size_t hostlen = len;
	const char *colon = memchr(s, ':', len);
	enum netaddr_host kind;
	char buf[NETADDR_ADDRSTRLEN];

	memset(e, 0, sizeof(*e));
	if (len == 0) {
		*why = "empty entry";
		return false;
	}
	if (s[0] == '[' ||
	    (colon && !memchr(colon + 1, ':', len - (size_t)(colon - s) - 1))) {
		if (!hostlist_split_authority(s, len, &host, &hostlen, &e->port)) {
			*why = "bad port (1..65535, no leading zeros) or "
			       "unclosed '['";
			return false;
		}
		if (hostlen == 0) {
			*why = "no host before the port";
			return false;
		}
	}
	if (hostlen >= 2 && host[0] == '*' && host[1] == '.') {
		struct netaddr_addr dummy;

		e->kind = ENTRY_WILDCARD;
		host += 2;
		hostlen -= 2;
		if (memchr(host, '*', hostlen)) {
			*why = "'*' is allowed only as the whole first label";
			return false;
		}
		kind = hostlist_normalize_host(host, hostlen, e->name, &dummy, why);
		if (kind == NETADDR_HOST_IP) {
			*why = "a wildcard needs a domain name, not an address";
			return false;
		}
		if (kind != NETADDR_HOST_NAME)
			return false;
		e->namelen = strlen(e->name);
		snprintf(e->canon, sizeof(e->canon), "*.%s", e->name);
	} else {
		if (memchr(host, '*', hostlen)) {
			*why = "'*' is allowed only as the whole first label "
			       "(*.domain)";
			return false;
		}
		kind = hostlist_normalize_host(host, hostlen, e->name, &e->addr, why);
		if (kind == NETADDR_HOST_INVALID)
			return false;
		if (kind == NETADDR_HOST_IP) {
			e->kind = ENTRY_IP;
			e->name[0] = '\0';
			netaddr_format(&e->addr, buf);
			if (e->addr.family == NETADDR_INET6)
				snprintf(e->canon, sizeof(e->canon), "[%s]",
					 buf);
			else
				snprintf(e->canon, sizeof(e->canon), "%s", buf);
		} else {
			e->kind = ENTRY_NAME;
			e->namelen = strlen(e->name);
			snprintf(e->canon, sizeof(e->canon), "%s", e->name);
		}
	}
	if (e->port) {
		size_t cl = strlen(e->canon);

		snprintf(e->canon + cl, sizeof(e->canon) - cl, ":%u", e->port);
	}
	return true;
}

struct hostlist_policy *hostlist_policy_new(void)
{
	return cordon__calloc(1, sizeof(struct hostlist_policy));
}

static void entry_free(struct hostlist_entry *e)
{
	if (!e)
		return;
	free(e->text);
	free(e);
}

void hostlist_policy_free(struct hostlist_policy *p)
{
	if (!p)
		return;
	for (int l = 0; l < 2; l++) {
		for (size_t i = 0; i < p->lists[l].n; i++)
			entry_free(p->lists[l].v[i]);
		free(p->lists[l].v);
	}
	free(p);
}

enum cordon_err hostlist_policy_add(struct hostlist_policy *p, enum hostlist_list which,
			      const char *const *entries, size_t n,
			      struct cordon_diag *diag)
{
	struct hostlist_vec *vec;
	struct hostlist_entry **grown, **fresh;
	const char *lname;
	enum cordon_err rc = CORDON_OK;
	char q[TEXT_QUOTE_CAP];
	size_t done = 0;

	if (!p || (which != HOSTLIST_ALLOW && which != HOSTLIST_DENY) ||
	    (n > 0 && !entries))
		return diag_set(diag, CORDON_E_INVAL,
				"no policy, list or entries");
	vec = &p->lists[which];
	lname = list_names[which];
	if (n > HOSTLIST_MAX_ENTRIES - vec->n)
		return diag_set(
			diag, CORDON_E_LIMIT,
			"%s-list: more than HOSTLIST_MAX_ENTRIES (%d) entries",
			lname, HOSTLIST_MAX_ENTRIES);
	if (n == 0)
		goto ok;
	fresh = cordon__calloc(n, sizeof(*fresh));
	if (!fresh)
		return diag_set(diag, CORDON_E_NOMEM, "out of memory");
	for (; done < n; done++) {
		const char *s = entries[done];
		size_t len;
		const char *why = NULL;

		if (!s) {
			rc = diag_set(diag, CORDON_E_INVAL, "%s[%zu]: NULL",
				      lname, done);
			goto out;
		}
		len = strnlen(s, HOSTLIST_MAX_ENTRY + 1);
		if (len > HOSTLIST_MAX_ENTRY) {
			rc = diag_set(
				diag, CORDON_E_LIMIT,
				"%s[%zu] \"%s\": longer than HOSTLIST_MAX_ENTRY "
				"(%d bytes)",
				lname, done, text_quote(s, len, q),
				HOSTLIST_MAX_ENTRY);
			goto out;
		}
		fresh[done] = cordon__malloc(sizeof(**fresh));
		if (!fresh[done]) {
			rc = diag_set(diag, CORDON_E_NOMEM, "out of memory");
			goto out;
		}
		if (!parse_entry(s, len, fresh[done], &why)) {
			rc = diag_set(diag, CORDON_E_CONFIG,
				      "%s[%zu] \"%s\": %s", lname, done,
				      text_quote(s, len, q), why);
			done++;
			goto out;
		}
		fresh[done]->text = cordon__strndup(s, len);
		if (!fresh[done]->text) {
			rc = diag_set(diag, CORDON_E_NOMEM, "out of memory");
			done++;
			goto out;
		}
	}
	grown = cordon__realloc(vec->v, (vec->n + n) * sizeof(*grown));
	if (!grown) {
		rc = diag_set(diag, CORDON_E_NOMEM, "out of memory");
		goto out;
	}
	vec->v = grown;
	memcpy(vec->v + vec->n, fresh, n * sizeof(*fresh));
	vec->n += n;
	free(fresh);
ok:
	diag_clear(diag);
	return CORDON_OK;
out:
	for (size_t i = 0; i < done && i < n; i++)
		entry_free(fresh[i]);
	free(fresh);
	return rc;
}

size_t hostlist_policy_count(const struct hostlist_policy *p, enum hostlist_list which)
{
	if (!p || (which != HOSTLIST_ALLOW && which != HOSTLIST_DENY))
		return 0;
	return p->lists[which].n;
}

static const struct hostlist_entry *get_entry(const struct hostlist_policy *p,
					enum hostlist_list which, size_t i)
{
	if (i >= hostlist_policy_count(p, which))
		return NULL;
	return p->lists[which].v[i];
}

const char *hostlist_policy_entry(const struct hostlist_policy *p, enum hostlist_list which,
			    size_t i)
{
	const struct hostlist_entry *e = get_entry(p, which, i);

	return e ? e->text : NULL;
}

const char *hostlist_policy_canon(const struct hostlist_policy *p, enum hostlist_list which,
			    size_t i)
{
	const struct hostlist_entry *e = get_entry(p, which, i);

	return e ? e->canon : NULL;
}

/* ---- deciding ------------------------------------------------------------ */

static bool host_matches(const struct hostlist_entry *e, const struct hostlist_decision *d,
			 size_t hlen, bool deny)
{
	if (e->kind == ENTRY_IP) {
		struct netaddr_addr inner[NETADDR_MAX_EMBEDDED];
		size_t n;

		if (!d->ip_literal)
			return false;
		if (netaddr_equal(&e->addr, &d->addr))
			return true;
		if (!deny)
			return false;
		n = netaddr_embedded_v4(&d->addr, inner, NULL);
		for (size_t i = 0; i < n; i++)
			if (netaddr_equal(&e->addr, &inner[i]))
				return true;
		return false;
	}
	if (d->ip_literal)
		return false;
	if (e->kind == ENTRY_NAME)
		return hlen == e->namelen &&
		       memcmp(d->host, e->name, hlen) == 0;
	return hlen > e->namelen + 1 && d->host[hlen - e->namelen - 1] == '.' &&
	       memcmp(d->host + hlen - e->namelen, e->name, e->namelen) == 0;
}

static bool port_matches(const struct hostlist_entry *e, unsigned port, bool deny)
{
	if (e->port)
		return e->port == port;
	return deny || port == 80 || port == 443;
}

static void set_entry(const struct hostlist_policy *p, struct hostlist_decision *d,
		      enum hostlist_list which, size_t i)
{
	const struct hostlist_entry *e = p->lists[which].v[i];

	d->list = which;
	d->index = i;
	d->entry = e->text;
	d->canon = e->canon;
	d->entry_port = e->port;
}

void hostlist_decide(const struct hostlist_policy *p, const char *host, size_t hlen,
	       unsigned port, struct hostlist_decision *d)
{
	const struct hostlist_vec *deny, *allow;
	size_t len;
	bool port_miss = false;
	enum netaddr_host kind;

	memset(d, 0, sizeof(*d));
	d->entry = "";
	d->canon = "";
	d->port = port;
	kind = hostlist_normalize_host(host, hlen, d->host, &d->addr, &d->why);
	if (kind == NETADDR_HOST_INVALID) {
		d->reason = HOSTLIST_BAD_HOST;
		d->host[0] = '\0';
		return;
	}
	d->why = NULL;
	d->ip_literal = kind == NETADDR_HOST_IP;
	if (!p)
		return;
	len = strlen(d->host);
	deny = &p->lists[HOSTLIST_DENY];
	allow = &p->lists[HOSTLIST_ALLOW];
	for (size_t i = 0; i < deny->n; i++) {
		if (host_matches(deny->v[i], d, len, true) &&
		    port_matches(deny->v[i], port, true)) {
			d->reason = HOSTLIST_DENY_ENTRY;
			set_entry(p, d, HOSTLIST_DENY, i);
			return;
		}
	}
	for (size_t i = 0; i < allow->n; i++) {
		if (!host_matches(allow->v[i], d, len, false))
			continue;
		if (port_matches(allow->v[i], port, false)) {
			d->allowed = true;
			d->reason = HOSTLIST_ALLOW_ENTRY;
			set_entry(p, d, HOSTLIST_ALLOW, i);
			return;
		}
		if (!port_miss) {
			port_miss = true;
			d->reason = HOSTLIST_PORT_NOT_ALLOWED;
			set_entry(p, d, HOSTLIST_ALLOW, i);
		}
	}
}

const char *hostlist_describe(const struct hostlist_decision *d, char *buf, size_t size)
{
	const char *lname;

	if (!buf || size == 0)
		return buf;
	buf[0] = '\0';
	if (!d)
		return buf;
	lname = d->list == HOSTLIST_DENY ? "deny" : "allow";
	switch (d->reason) {
	case HOSTLIST_NO_ALLOW_ENTRY:
		snprintf(buf, size, "no allow-list entry");
		break;
	case HOSTLIST_BAD_HOST:
		snprintf(buf, size, "bad host: %s", d->why ? d->why : "?");
		break;
	case HOSTLIST_DENY_ENTRY:
	case HOSTLIST_ALLOW_ENTRY:
		snprintf(buf, size, "%s-list entry %zu \"%s\"", lname, d->index,
			 d->canon);
		break;
	case HOSTLIST_PORT_NOT_ALLOWED:
		if (d->entry_port)
			snprintf(buf, size,
				 "port %u not allowed: allow-list entry %zu "
				 "\"%s\" allows port %u only",
				 d->port, d->index, d->canon, d->entry_port);
		else
			snprintf(buf, size,
				 "port %u not allowed: allow-list entry %zu "
				 "\"%s\" allows ports 80 and 443 only",
				 d->port, d->index, d->canon);
		break;
	}
	return buf;
}

/* One rule of the list against name: 1 matches, -1 an exception matches,
 * 0 no match. */
static int psl_rule(const char *r, size_t rl, const char *name, size_t nlen)
{
	if (rl > 0 && r[0] == '!')
		return rl - 1 == nlen && memcmp(r + 1, name, nlen) == 0 ? -1 :
									 0;
	if (rl >= 2 && r[0] == '*' && r[1] == '.') {
		const char *dot = memchr(name, '.', nlen);
		size_t rest;

		if (!dot || dot == name)
			return 0;
		rest = nlen - (size_t)(dot + 1 - name);
		return rest == rl - 2 && memcmp(dot + 1, r + 2, rest) == 0;
	}
	return rl == nlen && memcmp(r, name, nlen) == 0;
}

bool hostlist_public_suffix(const char *list, size_t len, const char *name,
			    size_t nlen)
{
	bool hit = false;
	size_t i = 0;

	if (nlen == 0)
		return true;
	if (!memchr(name, '.', nlen))
		return true;
	while (list && i < len) {
		const char *nl = memchr(list + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - list) : len, b = i, e = end;
		int m;

		i = end + 1;
		/* a rule is the line up to its first white space */
		while (b < e && (list[b] == ' ' || list[b] == '\t'))
			b++;
		for (size_t k = b; k < e; k++)
			if (list[k] == ' ' || list[k] == '\t' ||
			    list[k] == '\r') {
				e = k;
				break;
			}
		if (e == b || (e - b >= 2 && list[b] == '/' && list[b + 1] == '/'))
			continue;
		m = psl_rule(list + b, e - b, name, nlen);
		if (m < 0)
			return false;
		if (m > 0)
			hit = true;
	}
	return hit;
}
