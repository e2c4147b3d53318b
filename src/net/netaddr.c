/* netaddr — IP address parsing and the resolved-address guard's classes.
 * The contract is in netaddr.h; the class tables below are the policy, in
 * the order they are tried.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include "diag.h"
#include "netaddr.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

struct netaddr_range {
	struct netaddr_addr net;
	unsigned plen;
	char text[NETADDR_ADDRSTRLEN + 4];
};

struct netaddr_guard {
	struct netaddr_range *ranges;
	size_t nranges;
	struct netaddr_addr *own;
	size_t nown;
};

struct class_row {
	uint8_t b[16];
	unsigned plen;
	enum netaddr_class cls;
};

#define V4(a, b_, c, d)                                                        \
	{                                                                      \
		a, b_, c, d                                                    \
	}

/* IPv4, first match wins: the metadata addresses before the ranges that
 * hold them (link-local, cgnat, the IETF block), broadcast before 240/4. */
static const struct class_row v4_rows[] = {
	{ V4(169, 254, 169, 254), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(169, 254, 169, 253), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(169, 254, 169, 123), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(169, 254, 170, 2), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(169, 254, 170, 23), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(169, 254, 0, 23), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(100, 100, 100, 200), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(168, 63, 129, 16), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(192, 0, 0, 192), 32, NETADDR_CLASS_CLOUD_METADATA },
	{ V4(0, 0, 0, 0), 8, NETADDR_CLASS_UNSPECIFIED },
	{ V4(127, 0, 0, 0), 8, NETADDR_CLASS_LOOPBACK },
	{ V4(169, 254, 0, 0), 16, NETADDR_CLASS_LINK_LOCAL },
	{ V4(224, 0, 0, 0), 4, NETADDR_CLASS_MULTICAST },
	{ V4(255, 255, 255, 255), 32, NETADDR_CLASS_BROADCAST },
	{ V4(240, 0, 0, 0), 4, NETADDR_CLASS_RESERVED },
	{ V4(192, 0, 0, 0), 24, NETADDR_CLASS_RESERVED },
	{ V4(192, 88, 99, 0), 24, NETADDR_CLASS_RESERVED },
	{ V4(10, 0, 0, 0), 8, NETADDR_CLASS_PRIVATE },
	{ V4(172, 16, 0, 0), 12, NETADDR_CLASS_PRIVATE },
	{ V4(192, 168, 0, 0), 16, NETADDR_CLASS_PRIVATE },
	{ V4(100, 64, 0, 0), 10, NETADDR_CLASS_CGNAT },
	{ V4(192, 0, 2, 0), 24, NETADDR_CLASS_DOCUMENTATION },
	{ V4(198, 51, 100, 0), 24, NETADDR_CLASS_DOCUMENTATION },
	{ V4(203, 0, 113, 0), 24, NETADDR_CLASS_DOCUMENTATION },
	{ V4(198, 18, 0, 0), 15, NETADDR_CLASS_BENCHMARKING },
};

/* IPv6 before the embedded forms are looked at. */
static const struct class_row v6_rows[] = {
	{ { 0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54 },
	  128,
	  NETADDR_CLASS_CLOUD_METADATA },
	{ { 0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x53 },
	  128,
	  NETADDR_CLASS_CLOUD_METADATA },
	{ { 0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x23 },
	  128,
	  NETADDR_CLASS_CLOUD_METADATA },
	{ { 0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x23 },
	  128,
	  NETADDR_CLASS_CLOUD_METADATA },
	{ { 0 }, 128, NETADDR_CLASS_UNSPECIFIED },
	{ { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
	  128,
	  NETADDR_CLASS_LOOPBACK },
	{ { 0xff }, 8, NETADDR_CLASS_MULTICAST },
	{ { 0xfe, 0x80 }, 10, NETADDR_CLASS_LINK_LOCAL },
	{ { 0xfe, 0xc0 }, 10, NETADDR_CLASS_SITE_LOCAL },
	{ { 0xfc }, 7, NETADDR_CLASS_PRIVATE },
	{ { 0x01, 0x00 }, 64, NETADDR_CLASS_RESERVED },
	{ { 0x20, 0x01, 0x00, 0x10 }, 28, NETADDR_CLASS_RESERVED },
	{ { 0x20, 0x01, 0x00, 0x20 }, 28, NETADDR_CLASS_RESERVED },
	{ { 0x20, 0x01, 0x0d, 0xb8 }, 32, NETADDR_CLASS_DOCUMENTATION },
	{ { 0x3f, 0xff }, 20, NETADDR_CLASS_DOCUMENTATION },
	{ { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 }, 48, NETADDR_CLASS_BENCHMARKING },
};

static const char *const class_names[NETADDR_CLASS_COUNT] = {
#define NETADDR_CLASS_STR(name, str) [NETADDR_CLASS_##name] = str,
	NETADDR_CLASS_MAP(NETADDR_CLASS_STR)
#undef NETADDR_CLASS_STR
};

static const char *const embedded_names[NETADDR_CLASS_COUNT] = {
#define NETADDR_CLASS_EMB(name, str) [NETADDR_CLASS_##name] = "embedded-ipv4:" str,
	NETADDR_CLASS_MAP(NETADDR_CLASS_EMB)
#undef NETADDR_CLASS_EMB
};

static const char *const embed_names[NETADDR_EMBED_COUNT] = {
#define NETADDR_EMBED_STR(name, str) [NETADDR_EMBED_##name] = str,
	NETADDR_EMBED_MAP(NETADDR_EMBED_STR)
#undef NETADDR_EMBED_STR
};

const char *netaddr_class_name(enum netaddr_class c)
{
	if ((unsigned)c >= NETADDR_CLASS_COUNT)
		return "unknown";
	return class_names[c];
}

const char *netaddr_embed_name(enum netaddr_embed e)
{
	if ((unsigned)e >= NETADDR_EMBED_COUNT)
		return "unknown";
	return embed_names[e];
}

/* One part of a lenient IPv4 address, s[0..len): decimal, octal after a
 * leading '0', hex after "0x". false when it is empty, holds a digit that
 * is not of its base, or exceeds 0xffffffff. */
static bool v4_part(const char *s, size_t len, uint32_t *val)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (len == 0)
		return false;
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (len >= 2 && s[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < len; i++) {
		int d = text_hex_value((unsigned char)s[i]);

		if (d < 0 || (unsigned)d >= base)
			return false;
		v = v * base + (unsigned)d;
		if (v > 0xffffffffu)
			return false;
	}
	*val = (uint32_t)v;
	return true;
}

static void set_v4(struct netaddr_addr *out, uint32_t v)
{
	memset(out, 0, sizeof(*out));
	out->family = NETADDR_INET;
	out->b[0] = (uint8_t)(v >> 24);
	out->b[1] = (uint8_t)(v >> 16);
	out->b[2] = (uint8_t)(v >> 8);
	out->b[3] = (uint8_t)v;
}

/* inet_aton / WHATWG IPv4: 1 to 4 parts, an optional trailing dot. */
static bool parse_v4_lenient(const char *s, size_t len, struct netaddr_addr *out)
{
	uint32_t parts[4];
	size_t n = 0, start = 0;
	uint32_t v = 0;

	if (len > 0 && s[len - 1] == '.')
		len--;
	if (len == 0)
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (n == 4 || !v4_part(s + start, i - start, &parts[n]))
			return false;
		n++;
		start = i + 1;
	}
	for (size_t i = 0; i + 1 < n; i++) {
		if (parts[i] > 255)
			return false;
		v |= parts[i] << (24 - 8 * i);
	}
	/* The last of n parts fills 5 - n bytes. */
	if (n > 1 && (uint64_t)parts[n - 1] >> (8 * (5 - n)) != 0)
		return false;
	v |= parts[n - 1];
	set_v4(out, v);
	return true;
}

/* Exactly four decimal parts 0..255 without leading zeros. */
static bool parse_v4_strict(const char *s, size_t len, uint8_t b[4])
{
	size_t i = 0;

	for (int part = 0; part < 4; part++) {
		unsigned v = 0;
		size_t digits = 0;

		if (part > 0) {
			if (i >= len || s[i] != '.')
				return false;
			i++;
		}
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (digits > 0 && v == 0)
				return false;
			v = v * 10 + (unsigned)(s[i] - '0');
			if (v > 255)
				return false;
			digits++;
			i++;
		}
		if (digits == 0)
			return false;
		b[part] = (uint8_t)v;
	}
	return i == len;
}

/* RFC 4291 text, no brackets, no zone. */
static bool parse_v6(const char *s, size_t len, struct netaddr_addr *out)
{
	uint8_t b[16] = { 0 };
	size_t nb = 0, i = 0;
	long gap = -1;

	if (len < 2 || len > 45)
		return false;
	if (s[0] == ':') {
		if (s[1] != ':')
			return false;
		gap = 0;
		i = 2;
		if (i == len)
			goto done;
	}
	for (;;) {
		size_t start = i;
		unsigned v = 0;

		while (i < len && i - start < 5 &&
		       text_hex_value((unsigned char)s[i]) >= 0)
			v = v * 16 +
			    (unsigned)text_hex_value((unsigned char)s[i++]);
		if (i < len && s[i] == '.') {
			/* The dotted-quad tail: the rest of the string. */
			if (nb > 12 ||
			    !parse_v4_strict(s + start, len - start, b + nb))
				return false;
			nb += 4;
			break;
		}
		if (i == start || i - start > 4 || nb > 14)
			return false;
		b[nb++] = (uint8_t)(v >> 8);
		b[nb++] = (uint8_t)v;
		if (i == len)
			break;
		if (s[i] != ':')
			return false;
		i++;
		if (i < len && s[i] == ':') {
			if (gap >= 0)
				return false;
			gap = (long)nb;
			i++;
			if (i == len)
				break;
		} else if (i == len) {
			return false;
		}
	}
done:
	if (gap >= 0) {
		size_t tail = nb - (size_t)gap;

		if (nb == 16)
			return false;
		memmove(b + 16 - tail, b + gap, tail);
		memset(b + gap, 0, 16 - nb);
	} else if (nb != 16) {
		return false;
	}
	memset(out, 0, sizeof(*out));
	out->family = NETADDR_INET6;
	memcpy(out->b, b, 16);
	return true;
}

bool netaddr_parse(const char *s, size_t len, struct netaddr_addr *out)
{
	struct netaddr_addr tmp;

	memset(out, 0, sizeof(*out));
	if (!s || len == 0 || len > NETADDR_MAX_TEXT)
		return false;
	if (s[0] == '[') {
		if (len < 2 || s[len - 1] != ']')
			return false;
		if (!parse_v6(s + 1, len - 2, &tmp))
			return false;
	} else if (memchr(s, ':', len)) {
		if (!parse_v6(s, len, &tmp))
			return false;
	} else if (!parse_v4_lenient(s, len, &tmp)) {
		return false;
	}
	*out = tmp;
	return true;
}

bool netaddr_parse_strict(const char *s, size_t len, struct netaddr_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || len == 0 || len > NETADDR_MAX_TEXT)
		return false;
	if (memchr(s, ':', len))
		return parse_v6(s, len, out);
	if (!parse_v4_strict(s, len, out->b))
		return false;
	out->family = NETADDR_INET;
	return true;
}

/* WHATWG "ends in a number": the last label, one trailing dot ignored, is
 * all decimal digits or "0x" and hex digits. */
static bool ends_in_number(const char *s, size_t len)
{
	size_t start;

	if (len > 0 && s[len - 1] == '.')
		len--;
	start = len;
	while (start > 0 && s[start - 1] != '.')
		start--;
	if (start == len)
		return false;
	s += start;
	len -= start;
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (size_t i = 2; i < len; i++)
			if (text_hex_value((unsigned char)s[i]) < 0)
				return false;
		return true;
	}
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

enum netaddr_host netaddr_parse_host(const char *s, size_t len, struct netaddr_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || len == 0)
		return NETADDR_HOST_INVALID;
	if (s[0] == '[' || memchr(s, ':', len) || ends_in_number(s, len))
		return netaddr_parse(s, len, out) ? NETADDR_HOST_IP : NETADDR_HOST_INVALID;
	return NETADDR_HOST_NAME;
}

static bool is_v4_mapped(const uint8_t *b)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0,	   0,
					 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(b, pfx, 12) == 0;
}

static bool is_v4_translated(const uint8_t *b)
{
	static const uint8_t pfx[12] = { 0, 0, 0,    0,	   0, 0,
					 0, 0, 0xff, 0xff, 0, 0 };

	return memcmp(b, pfx, 12) == 0;
}

const char *netaddr_format(const struct netaddr_addr *a, char buf[NETADDR_ADDRSTRLEN])
{
	const uint8_t *b = a->b;
	uint16_t g[8];
	int best = -1, bestlen = 0, n;
	size_t pos = 0;

	buf[0] = '\0';
	if (a->family == NETADDR_INET) {
		snprintf(buf, NETADDR_ADDRSTRLEN, "%u.%u.%u.%u", b[0], b[1], b[2],
			 b[3]);
		return buf;
	}
	if (a->family != NETADDR_INET6)
		return buf;
	if (is_v4_mapped(b) || is_v4_translated(b)) {
		snprintf(buf, NETADDR_ADDRSTRLEN, "::ffff:%s%u.%u.%u.%u",
			 is_v4_mapped(b) ? "" : "0:", b[12], b[13], b[14],
			 b[15]);
		return buf;
	}
	for (int i = 0; i < 8; i++)
		g[i] = (uint16_t)(b[2 * i] << 8 | b[2 * i + 1]);
	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && g[j] == 0)
			j++;
		if (j - i > bestlen && j - i >= 2) {
			best = i;
			bestlen = j - i;
		}
		i = j > i ? j : i + 1;
	}
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			n = snprintf(buf + pos, NETADDR_ADDRSTRLEN - pos, "::");
			pos += (size_t)n;
			i += bestlen - 1;
			continue;
		}
		n = snprintf(buf + pos, NETADDR_ADDRSTRLEN - pos, "%s%x",
			     pos > 0 && buf[pos - 1] != ':' ? ":" : "", g[i]);
		pos += (size_t)n;
	}
	return buf;
}

bool netaddr_equal(const struct netaddr_addr *a, const struct netaddr_addr *b)
{
	size_t n = a->family == NETADDR_INET ? 4 : 16;

	return a->family == b->family && a->family != NETADDR_NONE &&
	       memcmp(a->b, b->b, n) == 0;
}

static bool in_prefix(const uint8_t *addr, const uint8_t *net, unsigned plen)
{
	unsigned full = plen / 8, rest = plen % 8;

	if (memcmp(addr, net, full) != 0)
		return false;
	if (rest == 0)
		return true;
	return ((addr[full] ^ net[full]) & (0xff00u >> rest) & 0xff) == 0;
}

static void v4_from(struct netaddr_addr *out, uint8_t a, uint8_t b, uint8_t c,
		    uint8_t d)
{
	memset(out, 0, sizeof(*out));
	out->family = NETADDR_INET;
	out->b[0] = a;
	out->b[1] = b;
	out->b[2] = c;
	out->b[3] = d;
}

size_t netaddr_embedded_v4(const struct netaddr_addr *a,
		      struct netaddr_addr out[NETADDR_MAX_EMBEDDED],
		      enum netaddr_embed forms[NETADDR_MAX_EMBEDDED])
{
	static const uint8_t nat64[12] = { 0, 0x64, 0xff, 0x9b };
	static const uint8_t nat64_local[6] = { 0, 0x64, 0xff, 0x9b, 0, 1 };
	static const uint8_t zero12[12] = { 0 };
	const uint8_t *b = a->b;
	enum netaddr_embed form = NETADDR_EMBED_NONE;
	size_t n = 0;

	if (a->family != NETADDR_INET6)
		return 0;
	if (is_v4_mapped(b))
		form = NETADDR_EMBED_V4_MAPPED;
	else if (is_v4_translated(b))
		form = NETADDR_EMBED_V4_TRANSLATED;
	else if (memcmp(b, zero12, 12) == 0 &&
		 !(b[12] == 0 && b[13] == 0 && b[14] == 0 && b[15] <= 1))
		form = NETADDR_EMBED_V4_COMPATIBLE;
	else if (memcmp(b, nat64, 12) == 0)
		form = NETADDR_EMBED_NAT64;
	if (form != NETADDR_EMBED_NONE) {
		v4_from(&out[n], b[12], b[13], b[14], b[15]);
		if (forms)
			forms[n] = form;
		return 1;
	}
	if (memcmp(b, nat64_local, 6) == 0) {
		/* RFC 6052 2.2: /48, /56, /64, /96 (byte 8 is the u octet). */
		v4_from(&out[0], b[6], b[7], b[9], b[10]);
		v4_from(&out[1], b[7], b[9], b[10], b[11]);
		v4_from(&out[2], b[9], b[10], b[11], b[12]);
		v4_from(&out[3], b[12], b[13], b[14], b[15]);
		for (n = 0; n < 4; n++)
			if (forms)
				forms[n] = NETADDR_EMBED_NAT64_LOCAL;
		return 4;
	}
	if (b[0] == 0x20 && b[1] == 0x02) {
		v4_from(&out[0], b[2], b[3], b[4], b[5]);
		if (forms)
			forms[0] = NETADDR_EMBED_SIX_TO_FOUR;
		return 1;
	}
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
		v4_from(&out[0], (uint8_t)~b[12], (uint8_t)~b[13],
			(uint8_t)~b[14], (uint8_t)~b[15]);
		if (forms)
			forms[0] = NETADDR_EMBED_TEREDO;
		return 1;
	}
	return 0;
}

struct netaddr_guard *netaddr_guard_new(void)
{
	return cordon__calloc(1, sizeof(struct netaddr_guard));
}

void netaddr_guard_free(struct netaddr_guard *g)
{
	if (!g)
		return;
	free(g->ranges);
	free(g->own);
	free(g);
}

/* Parses one CIDR string into r; on failure *why says what is wrong. */
static bool parse_range(const char *s, size_t len, struct netaddr_range *r,
			const char **why, char *hint, size_t hintsz)
{
	const char *slash = memchr(s, '/', len);
	size_t alen = slash ? (size_t)(slash - s) : len;
	unsigned max, plen = 0;
	struct netaddr_addr masked;
	char buf[NETADDR_ADDRSTRLEN];

	hint[0] = '\0';
	if (!netaddr_parse_strict(s, alen, &r->net)) {
		*why = "not a dotted-quad IPv4 or an IPv6 address";
		return false;
	}
	max = r->net.family == NETADDR_INET ? 32 : 128;
	if (slash) {
		const char *p = slash + 1;
		size_t plenlen = len - alen - 1;

		if (plenlen == 0 || plenlen > 3 ||
		    (p[0] == '0' && plenlen > 1)) {
			*why = "bad prefix length";
			return false;
		}
		for (size_t i = 0; i < plenlen; i++) {
			if (p[i] < '0' || p[i] > '9') {
				*why = "bad prefix length";
				return false;
			}
			plen = plen * 10 + (unsigned)(p[i] - '0');
		}
		if (plen > max) {
			*why = r->net.family == NETADDR_INET ?
				       "prefix length over 32" :
				       "prefix length over 128";
			return false;
		}
	} else {
		plen = max;
	}
	masked = r->net;
	for (unsigned bit = plen; bit < max; bit++)
		masked.b[bit / 8] &= (uint8_t) ~(0x80u >> (bit % 8));
	if (!netaddr_equal(&masked, &r->net)) {
		snprintf(hint, hintsz, " (the network is %s/%u)",
			 netaddr_format(&masked, buf), plen);
		*why = "host bits set below the prefix";
		return false;
	}
	r->plen = plen;
	snprintf(r->text, sizeof(r->text), "%s/%u", netaddr_format(&r->net, buf),
		 plen);
	return true;
}

enum cordon_err netaddr_guard_add_ranges(struct netaddr_guard *g,
				    const char *const *ranges, size_t n,
				    struct cordon_diag *diag)
{
	struct netaddr_range *grown;
	char q[TEXT_QUOTE_CAP], hint[80];

	if (!g || (n > 0 && !ranges))
		return diag_set(diag, CORDON_E_INVAL, "no guard or no ranges");
	if (n > NETADDR_MAX_RANGES - g->nranges)
		return diag_set(
			diag, CORDON_E_LIMIT,
			"too many denied ranges (limit NETADDR_MAX_RANGES = %d)",
			NETADDR_MAX_RANGES);
	if (n == 0)
		return CORDON_OK;
	grown = cordon__realloc(g->ranges, (g->nranges + n) * sizeof(*grown));
	if (!grown)
		return diag_set(diag, CORDON_E_NOMEM, "out of memory");
	g->ranges = grown;
	for (size_t i = 0; i < n; i++) {
		const char *s = ranges[i];
		size_t len = s ? strnlen(s, NETADDR_MAX_TEXT + 1) : 0;
		const char *why = NULL;

		if (!s)
			return diag_set(diag, CORDON_E_INVAL,
					"denied range %zu: NULL", i);
		if (len > NETADDR_MAX_TEXT)
			return diag_set(diag, CORDON_E_LIMIT,
					"denied range %zu \"%s\": longer than "
					"NETADDR_MAX_TEXT (%d bytes)",
					i, text_quote(s, len, q),
					NETADDR_MAX_TEXT);
		if (!parse_range(s, len, &g->ranges[g->nranges + i], &why, hint,
				 sizeof(hint)))
			return diag_set(diag, CORDON_E_CONFIG,
					"denied range %zu \"%s\": %s%s", i,
					text_quote(s, len, q), why, hint);
	}
	g->nranges += n;
	diag_clear(diag);
	return CORDON_OK;
}

size_t netaddr_guard_range_count(const struct netaddr_guard *g)
{
	return g ? g->nranges : 0;
}

const char *netaddr_guard_range_text(const struct netaddr_guard *g, size_t i)
{
	if (!g || i >= g->nranges)
		return NULL;
	return g->ranges[i].text;
}

enum cordon_err netaddr_guard_set_own(struct netaddr_guard *g,
				 const struct netaddr_addr *addrs, size_t n,
				 struct cordon_diag *diag)
{
	struct netaddr_addr *copy = NULL;

	if (!g || (n > 0 && !addrs))
		return diag_set(diag, CORDON_E_INVAL,
				"no guard or no addresses");
	if (n > NETADDR_MAX_OWN)
		return diag_set(
			diag, CORDON_E_LIMIT,
			"too many own addresses (limit NETADDR_MAX_OWN = %d)",
			NETADDR_MAX_OWN);
	for (size_t i = 0; i < n; i++)
		if (addrs[i].family != NETADDR_INET && addrs[i].family != NETADDR_INET6)
			return diag_set(diag, CORDON_E_INVAL,
					"own address %zu has no family", i);
	if (n > 0) {
		copy = cordon__malloc(n * sizeof(*copy));
		if (!copy)
			return diag_set(diag, CORDON_E_NOMEM, "out of memory");
		memcpy(copy, addrs, n * sizeof(*copy));
	}
	free(g->own);
	g->own = copy;
	g->nown = n;
	diag_clear(diag);
	return CORDON_OK;
}

static enum netaddr_class table_class(const struct class_row *rows, size_t n,
				 const uint8_t *b)
{
	for (size_t i = 0; i < n; i++)
		if (in_prefix(b, rows[i].b, rows[i].plen))
			return rows[i].cls;
	return NETADDR_CLASS_PUBLIC;
}

/* The guard's own lists: own interfaces, then the extra ranges. */
static enum netaddr_class guard_class(const struct netaddr_guard *g,
				 const struct netaddr_addr *a, size_t *range)
{
	if (!g)
		return NETADDR_CLASS_PUBLIC;
	for (size_t i = 0; i < g->nown; i++)
		if (netaddr_equal(&g->own[i], a))
			return NETADDR_CLASS_OWN_INTERFACE;
	for (size_t i = 0; i < g->nranges; i++) {
		const struct netaddr_range *r = &g->ranges[i];

		if (r->net.family == a->family &&
		    in_prefix(a->b, r->net.b, r->plen)) {
			*range = i;
			return NETADDR_CLASS_CONFIGURED;
		}
	}
	return NETADDR_CLASS_PUBLIC;
}

static void classify_v4(const struct netaddr_guard *g, const struct netaddr_addr *a,
			struct netaddr_verdict *v)
{
	v->cls = table_class(v4_rows, sizeof(v4_rows) / sizeof(v4_rows[0]),
			     a->b);
	if (v->cls == NETADDR_CLASS_PUBLIC)
		v->cls = guard_class(g, a, &v->range);
}

void netaddr_classify(const struct netaddr_guard *g, const struct netaddr_addr *a,
		 struct netaddr_verdict *v)
{
	struct netaddr_addr inner[NETADDR_MAX_EMBEDDED];
	enum netaddr_embed forms[NETADDR_MAX_EMBEDDED];
	size_t n, unspecified = 0;

	memset(v, 0, sizeof(*v));
	if (!a)
		return;
	if (a->family == NETADDR_INET) {
		classify_v4(g, a, v);
		return;
	}
	if (a->family != NETADDR_INET6)
		return;
	v->cls = table_class(v6_rows, sizeof(v6_rows) / sizeof(v6_rows[0]),
			     a->b);
	if (v->cls != NETADDR_CLASS_PUBLIC)
		return;
	n = netaddr_embedded_v4(a, inner, forms);
	for (size_t i = 0; i < n; i++) {
		struct netaddr_verdict iv;

		memset(&iv, 0, sizeof(iv));
		classify_v4(g, &inner[i], &iv);
		if (iv.cls == NETADDR_CLASS_PUBLIC)
			continue;
		/* Of the places nat64-local may hold the IPv4, those reading
		 * 0.0.0.0/8 are the zero padding of a longer prefix (a
		 * translator drops 0/8 as martian): they count only when
		 * every place reads 0/8. */
		if (n > 1 && iv.cls == NETADDR_CLASS_UNSPECIFIED) {
			unspecified++;
			if (unspecified < n)
				continue;
		}
		v->cls = iv.cls;
		v->range = iv.range;
		v->embed = forms[i];
		v->inner = inner[i];
		return;
	}
	/* Not global unicast (2000::/3) and not an embedding that passed. */
	if (n == 0 && (a->b[0] & 0xe0) != 0x20) {
		v->cls = NETADDR_CLASS_RESERVED;
		return;
	}
	v->cls = guard_class(g, a, &v->range);
}

bool netaddr_denied(const struct netaddr_verdict *v)
{
	return !v || v->cls != NETADDR_CLASS_PUBLIC;
}

const char *netaddr_verdict_name(const struct netaddr_verdict *v)
{
	if (!v || (unsigned)v->cls >= NETADDR_CLASS_COUNT)
		return "invalid";
	if (v->embed != NETADDR_EMBED_NONE)
		return embedded_names[v->cls];
	return class_names[v->cls];
}

bool netaddr_from_sockaddr(const struct sockaddr *sa, struct netaddr_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (!sa)
		return false;
	if (sa->sa_family == AF_INET) {
		a->family = NETADDR_INET;
		memcpy(a->b, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return true;
	}
	if (sa->sa_family == AF_INET6) {
		a->family = NETADDR_INET6;
		memcpy(a->b, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		return true;
	}
	return false;
}
