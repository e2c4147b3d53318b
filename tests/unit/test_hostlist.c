/* hostlist: every entry form, the port rules, deny over allow, the empty
 * allow-list, names compared after case, IDNA and trailing-dot
 * normalisation, *.domain against its apex and look-alikes, IP literals in
 * odd spellings and embedded forms, malformed entries, limits, and the
 * RFC 3492 Punycode samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "tap.h"

struct decide_row {
	const char *host;
	unsigned port;
	bool allowed;
	enum hostlist_reason reason;
	int index; /* -1: no entry */
};

static const char *const allow[] = {
	"example.com", /* 0 */
	"*.github.com", /* 1 */
	"api.service.io:8443", /* 2 */
	"EXAMPLE.org.", /* 3 */
	"bücher.de", /* 4 */
	"xn--mnchen-3ya.de:8080", /* 5 */
	"93.184.216.34", /* 6 */
	"[2606:4700::1111]:853", /* 7 */
	"0x7f.1:8000", /* 8 */
	"::1", /* 9 */
	"*.corp.example:22", /* 10 */
	"evil.example.com", /* 11 */
	"ΑΘΗΝΑ.gr", /* 12 */
	"10.0.0.0", /* 13 */
	"[::ffff:192.0.2.7]:8080", /* 14 */
};

static const char *const deny[] = {
	"evil.example.com", /* 0 */
	"*.internal.github.com", /* 1 */
	"gist.github.com:443", /* 2 */
	"127.0.0.1", /* 3 */
	"169.254.169.254", /* 4 */
	"10.0.0.0", /* 5 */
};

static const struct decide_row rows[] = {
	/* bare host: 80 and 443 only */
	{ "example.com", 443, true, HOSTLIST_ALLOW_ENTRY, 0 },
	{ "example.com", 80, true, HOSTLIST_ALLOW_ENTRY, 0 },
	{ "example.com", 22, false, HOSTLIST_PORT_NOT_ALLOWED, 0 },
	{ "example.com", 8443, false, HOSTLIST_PORT_NOT_ALLOWED, 0 },
	{ "example.com", 0, false, HOSTLIST_PORT_NOT_ALLOWED, 0 },
	/* case, trailing dot */
	{ "EXAMPLE.COM", 443, true, HOSTLIST_ALLOW_ENTRY, 0 },
	{ "Example.Com.", 443, true, HOSTLIST_ALLOW_ENTRY, 0 },
	{ "example.com..", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "example.org", 443, true, HOSTLIST_ALLOW_ENTRY, 3 },
	{ "example.org.", 80, true, HOSTLIST_ALLOW_ENTRY, 3 },
	/* look-alikes */
	{ "www.example.com", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "evilexample.com", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "example.com.evil.net", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "example.co", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "xexample.com", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	/* *.domain: subdomains, not the apex */
	{ "api.github.com", 443, true, HOSTLIST_ALLOW_ENTRY, 1 },
	{ "a.b.c.github.com", 80, true, HOSTLIST_ALLOW_ENTRY, 1 },
	{ "API.GitHub.com.", 443, true, HOSTLIST_ALLOW_ENTRY, 1 },
	{ "github.com", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "notgithub.com", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "github.com.evil.net", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ ".github.com", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "api.github.com", 22, false, HOSTLIST_PORT_NOT_ALLOWED, 1 },
	/* deny wins */
	{ "evil.example.com", 443, false, HOSTLIST_DENY_ENTRY, 0 },
	{ "EVIL.example.com.", 80, false, HOSTLIST_DENY_ENTRY, 0 },
	{ "evil.example.com", 12345, false, HOSTLIST_DENY_ENTRY, 0 },
	{ "x.internal.github.com", 443, false, HOSTLIST_DENY_ENTRY, 1 },
	{ "internal.github.com", 443, true, HOSTLIST_ALLOW_ENTRY, 1 },
	{ "gist.github.com", 443, false, HOSTLIST_DENY_ENTRY, 2 },
	{ "gist.github.com", 80, true, HOSTLIST_ALLOW_ENTRY, 1 },
	/* host:port */
	{ "api.service.io", 8443, true, HOSTLIST_ALLOW_ENTRY, 2 },
	{ "api.service.io", 443, false, HOSTLIST_PORT_NOT_ALLOWED, 2 },
	{ "corp.example", 22, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "git.corp.example", 22, true, HOSTLIST_ALLOW_ENTRY, 10 },
	{ "git.corp.example", 443, false, HOSTLIST_PORT_NOT_ALLOWED, 10 },
	/* IDNA */
	{ "xn--bcher-kva.de", 443, true, HOSTLIST_ALLOW_ENTRY, 4 },
	{ "XN--BCHER-KVA.DE", 443, true, HOSTLIST_ALLOW_ENTRY, 4 },
	{ "bücher.de", 443, true, HOSTLIST_ALLOW_ENTRY, 4 },
	{ "BÜCHER.DE", 443, true, HOSTLIST_ALLOW_ENTRY, 4 },
	{ "bucher.de", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "münchen.de", 8080, true, HOSTLIST_ALLOW_ENTRY, 5 },
	{ "MÜNCHEN.de", 8080, true, HOSTLIST_ALLOW_ENTRY, 5 },
	{ "αθηνα.gr", 443, true, HOSTLIST_ALLOW_ENTRY, 12 },
	{ "xn--mxaard0a.gr", 443, true, HOSTLIST_ALLOW_ENTRY, 12 },
	{ "ｅｘａｍｐｌｅ.com", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "example。com", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "bu\xcc\x88"
	  "cher.de",
	  443, false, HOSTLIST_BAD_HOST, -1 },
	{ "b\xc3"
	  "cher.de",
	  443, false, HOSTLIST_BAD_HOST, -1 },
	{ "xn--bcher-kvb.de", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	{ "xn--bcher-.de", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "xn--abc.de", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "xn--.de", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "xn--bcher-kva9999999999.de", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "exa\xe2\x80\x8bmple.com", 443, false, HOSTLIST_BAD_HOST, -1 },
	/* IP literals */
	{ "93.184.216.34", 443, true, HOSTLIST_ALLOW_ENTRY, 6 },
	{ "93.184.216.34", 22, false, HOSTLIST_PORT_NOT_ALLOWED, 6 },
	{ "1572395042", 443, true, HOSTLIST_ALLOW_ENTRY, 6 },
	{ "[::ffff:93.184.216.34]", 443, true, HOSTLIST_ALLOW_ENTRY, 6 },
	{ "[2606:4700::1111]", 853, true, HOSTLIST_ALLOW_ENTRY, 7 },
	{ "2606:4700:0:0::1111", 853, true, HOSTLIST_ALLOW_ENTRY, 7 },
	{ "[2606:4700::1111]", 443, false, HOSTLIST_PORT_NOT_ALLOWED, 7 },
	{ "127.0.0.1", 8000, false, HOSTLIST_DENY_ENTRY, 3 },
	{ "[::1]", 443, true, HOSTLIST_ALLOW_ENTRY, 9 },
	{ "[::1]", 8080, false, HOSTLIST_PORT_NOT_ALLOWED, 9 },
	{ "192.0.2.7", 8080, true, HOSTLIST_ALLOW_ENTRY, 14 },
	{ "localhost", 443, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	/* an IP literal on the deny-list, however it is spelt or wrapped */
	{ "127.1", 443, false, HOSTLIST_DENY_ENTRY, 3 },
	{ "0177.0.0.1", 443, false, HOSTLIST_DENY_ENTRY, 3 },
	{ "2130706433", 443, false, HOSTLIST_DENY_ENTRY, 3 },
	{ "[::ffff:127.0.0.1]", 443, false, HOSTLIST_DENY_ENTRY, 3 },
	{ "[64:ff9b::7f00:1]", 443, false, HOSTLIST_DENY_ENTRY, 3 },
	{ "[2002:a9fe:a9fe::]", 443, false, HOSTLIST_DENY_ENTRY, 4 },
	{ "[2001::5601:5601]", 443, false, HOSTLIST_DENY_ENTRY, 4 },
	{ "[::169.254.169.254]", 80, false, HOSTLIST_DENY_ENTRY, 4 },
	{ "0xa9fea9fe", 80, false, HOSTLIST_DENY_ENTRY, 4 },
	{ "10.0.0.0", 80, false, HOSTLIST_DENY_ENTRY, 5 },
	{ "10.0.0.1", 80, false, HOSTLIST_NO_ALLOW_ENTRY, -1 },
	/* bad hosts */
	{ "1.2.3.256", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "example.123", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "exa mple.com", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "example.com:443", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "user@example.com", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "example.com/x", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "[fe80::1%25eth0]", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ ".", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "a..b", 443, false, HOSTLIST_BAD_HOST, -1 },
	{ "*.github.com", 443, false, HOSTLIST_BAD_HOST, -1 },
};

static void test_decide(void)
{
	struct hostlist_policy *p = hostlist_policy_new();
	struct cordon_diag cd;
	struct hostlist_decision d;

	ok(p != NULL, "policy");
	is_int(hostlist_policy_add(p, HOSTLIST_ALLOW, allow, sizeof(allow) / sizeof(*allow),
			     &cd),
	       CORDON_OK, "allow-list loads");
	if (cd.message[0])
		diag("%s", cd.message);
	is_int(hostlist_policy_add(p, HOSTLIST_DENY, deny, sizeof(deny) / sizeof(*deny),
			     &cd),
	       CORDON_OK, "deny-list loads");
	if (cd.message[0])
		diag("%s", cd.message);

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct decide_row *r = &rows[i];
		char what[128];

		snprintf(what, sizeof(what), "%s port %u", r->host, r->port);
		hostlist_decide(p, r->host, strlen(r->host), r->port, &d);
		if (!ok(d.allowed == r->allowed && d.reason == r->reason &&
				(r->index < 0 || d.index == (size_t)r->index),
			"%s: %s", what, r->allowed ? "allowed" : "denied")) {
			char buf[256];

			diag("reason %d index %zu (%s)", d.reason, d.index,
			     hostlist_describe(&d, buf, sizeof(buf)));
		}
	}
	hostlist_policy_free(p);
}

static void test_normalised(void)
{
	static const char *const pairs[][2] = {
		{ "Example.COM.", "example.com" },
		{ "bücher.de", "xn--bcher-kva.de" },
		{ "BÜCHER.de", "xn--bcher-kva.de" },
		{ "münchen", "xn--mnchen-3ya" },
		{ "ĄĆĘ.pl", "xn--2dae8c.pl" },
		{ "xn--zca.de", "xn--zca.de" },
		{ "xn--Bcher-kva.de", "xn--bcher-kva.de" },
		{ "xn--ls8h.la", "xn--ls8h.la" },
		{ "москва.рф", "xn--80adxhks.xn--p1ai" },
		{ "МОСКВА.РФ", "xn--80adxhks.xn--p1ai" },
		{ "例え.jp", "xn--r8jz45g.jp" },
		{ "한국.kr", "xn--3e0b707e.kr" },
		{ "faß.de", "xn--fa-hia.de" },
		{ "_dmarc.example.com", "_dmarc.example.com" },
		{ "0x7f.1", "127.0.0.1" },
		{ "[::ffff:1.2.3.4]", "1.2.3.4" },
		{ "[::FFFF:0:1.2.3.4]", "::ffff:0:1.2.3.4" },
		{ "[2001:DB8::1]", "2001:db8::1" },
	};
	static const char *const refused[] = {
		"İstanbul.tr",
		"ſ.de",
		"ｅ.com",
		"a\xc2\xa0"
		"b.com",
		"a\xe2\x80\x8d"
		"b.com",
		"\xef\xbb\xbf"
		"a.com",
		"a\xc0\xae"
		"b.com",
		"a\xed\xa0\x80"
		"b.com",
		"xn--bcher-2pa.de",
		"xn--bcher-kvb-.de",
	};
	char out[HOSTLIST_MAX_NAME + 1];
	struct netaddr_addr a;
	const char *why;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		enum netaddr_host k = hostlist_normalize_host(
			pairs[i][0], strlen(pairs[i][0]), out, &a, &why);

		ok(k != NETADDR_HOST_INVALID, "%s normalises%s%s", pairs[i][0],
		   why ? ": " : "", why ? why : "");
		is_str(out, pairs[i][1], pairs[i][0]);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		enum netaddr_host k = hostlist_normalize_host(
			refused[i], strlen(refused[i]), out, &a, &why);

		ok(k == NETADDR_HOST_INVALID && why && out[0] == '\0',
		   "refused #%zu (%s)", i, why ? why : "accepted");
	}
}

static void test_limits_of_names(void)
{
	char name[400], out[HOSTLIST_MAX_NAME + 1];
	struct netaddr_addr a;
	const char *why;

	memset(name, 'a', 63);
	memcpy(name + 63, ".com", 5);
	ok(hostlist_normalize_host(name, strlen(name), out, &a, &why) == NETADDR_HOST_NAME,
	   "a 63-byte label");
	memset(name, 'a', 64);
	memcpy(name + 64, ".com", 5);
	ok(hostlist_normalize_host(name, strlen(name), out, &a, &why) ==
			   NETADDR_HOST_INVALID &&
		   strstr(why, "63"),
	   "a 64-byte label: %s", why);
	/* 4 labels of 63 and a dot each: 255 bytes */
	for (int i = 0; i < 4; i++) {
		memset(name + 64 * i, 'b', 63);
		name[64 * i + 63] = '.';
	}
	name[64 * 4 - 1] = '\0';
	ok(hostlist_normalize_host(name, strlen(name), out, &a, &why) ==
			   NETADDR_HOST_INVALID &&
		   strstr(why, "253"),
	   "a 255-byte name: %s", why);
	name[64 * 3 + 61] = '\0';
	ok(hostlist_normalize_host(name, strlen(name), out, &a, &why) == NETADDR_HOST_NAME,
	   "a 253-byte name (%zu)", strlen(name));
	/* a U-label whose A-label is too long */
	name[0] = '\0';
	for (int i = 0; i < 60; i++)
		memcpy(name + 2 * i, "\xc3\xbc", 3);
	ok(hostlist_normalize_host(name, strlen(name), out, &a, &why) ==
		   NETADDR_HOST_INVALID,
	   "60 x u-umlaut: %s", why ? why : "accepted");
}

static void test_entries(void)
{
	static const struct {
		const char *entry;
		const char *canon; /* NULL: an error whose message holds err */
		const char *err;
	} cases[] = {
		{ "example.com", "example.com", NULL },
		{ "Example.COM.:8080", "example.com:8080", NULL },
		{ "*.Example.com", "*.example.com", NULL },
		{ "*.example.com:22", "*.example.com:22", NULL },
		{ "[::1]:8080", "[::1]:8080", NULL },
		{ "[::1]", "[::1]", NULL },
		{ "::1", "[::1]", NULL },
		{ "2130706433:443", "127.0.0.1:443", NULL },
		{ "[::ffff:10.1.2.3]", "10.1.2.3", NULL },
		{ "bücher.de:443", "xn--bcher-kva.de:443", NULL },
		{ "", NULL, "empty entry" },
		{ "*", NULL, "'*'" },
		{ "*.", NULL, "empty host" },
		{ "*.*.example.com", NULL, "'*'" },
		{ "foo.*.com", NULL, "'*'" },
		{ "*example.com", NULL, "'*'" },
		{ "**.example.com", NULL, "'*'" },
		{ "*.1.2.3.4", NULL, "wildcard needs a domain name" },
		{ "*.[::1]", NULL, "wildcard needs a domain name" },
		{ "example.com:0", NULL, "bad port" },
		{ "example.com:65536", NULL, "bad port" },
		{ "example.com:080", NULL, "bad port" },
		{ "example.com:", NULL, "bad port" },
		{ "example.com:http", NULL, "bad port" },
		{ "example.com:-1", NULL, "bad port" },
		{ ":443", NULL, "no host" },
		{ "[::1]x", NULL, "bad port" },
		{ "[::1", NULL, "unclosed" },
		{ "[example.com]:80", NULL, "not a valid IPv6" },
		{ "[1.2.3.4]", NULL, "not a valid IPv6" },
		{ "fe80::1%eth0", NULL, "zone" },
		{ "1::2::3", NULL, "not a valid IPv6" },
		{ "1.2.3.256", NULL, "neither a name" },
		{ "exa mple.com", NULL, "invalid character" },
		{ "http://example.com", NULL, "bad port" },
		{ "example.com/path", NULL, "invalid character" },
		{ "ex\nample.com", NULL, "\\x0a" },
		{ "xn--abc.de", NULL, "xn--" },
		{ "ｅｘａｍｐｌｅ.com", NULL, "IDNA" },
	};
	struct hostlist_policy *p = hostlist_policy_new();
	struct cordon_diag cd;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *list[2] = { "ok.example", cases[i].entry };
		size_t before = hostlist_policy_count(p, HOSTLIST_DENY);
		enum cordon_err rc = hostlist_policy_add(p, HOSTLIST_DENY, list, 2, &cd);

		if (cases[i].canon) {
			is_int(rc, CORDON_OK, cases[i].entry);
			is_str(hostlist_policy_canon(p, HOSTLIST_DENY, before + 1),
			       cases[i].canon, "canonical form");
			is_str(hostlist_policy_entry(p, HOSTLIST_DENY, before + 1),
			       cases[i].entry, "text as written");
			continue;
		}
		ok(rc == CORDON_E_CONFIG, "entry #%zu refused", i);
		ok(strncmp(cd.message, "deny[1] \"", 9) == 0 &&
			   strstr(cd.message, cases[i].err) != NULL,
		   "message: %s", cd.message);
		is_int(hostlist_policy_count(p, HOSTLIST_DENY), before,
		       "nothing added on error");
	}
	ok(hostlist_policy_entry(p, HOSTLIST_DENY, 1000) == NULL, "entry out of range");
	ok(hostlist_policy_canon(p, HOSTLIST_ALLOW, 0) == NULL, "empty allow-list");
	hostlist_policy_free(p);
	hostlist_policy_free(NULL);
}

static void test_empty_and_describe(void)
{
	struct hostlist_policy *p = hostlist_policy_new();
	static const char *const one[] = { "example.com:8080" };
	static const char *const dn[] = { "*.evil.com" };
	struct hostlist_decision d;
	char buf[256];

	hostlist_decide(p, "example.com", 11, 443, &d);
	ok(!d.allowed && d.reason == HOSTLIST_NO_ALLOW_ENTRY,
	   "an empty allow-list denies");
	is_str(hostlist_describe(&d, buf, sizeof(buf)), "no allow-list entry",
	       "described");
	hostlist_decide(NULL, "example.com", 11, 443, &d);
	ok(!d.allowed, "no policy denies");
	hostlist_decide(p, "127.0.0.1", 9, 443, &d);
	ok(!d.allowed, "an empty allow-list denies an IP literal");

	hostlist_policy_add(p, HOSTLIST_ALLOW, one, 1, NULL);
	hostlist_policy_add(p, HOSTLIST_DENY, dn, 1, NULL);
	hostlist_decide(p, "example.com", 11, 443, &d);
	is_str(hostlist_describe(&d, buf, sizeof(buf)),
	       "port 443 not allowed: allow-list entry 0 \"example.com:8080\" "
	       "allows port 8080 only",
	       "port message, explicit port");
	hostlist_decide(p, "example.com", 11, 8080, &d);
	is_str(hostlist_describe(&d, buf, sizeof(buf)),
	       "allow-list entry 0 \"example.com:8080\"", "allow message");
	ok(!d.ip_literal && strcmp(d.host, "example.com") == 0,
	   "a name is not an IP literal");
	hostlist_decide(p, "a.EVIL.com", 10, 8080, &d);
	is_str(hostlist_describe(&d, buf, sizeof(buf)),
	       "deny-list entry 0 \"*.evil.com\"", "deny message");
	is_str(d.host, "a.evil.com", "normalised host in the decision");
	hostlist_decide(p, "1.2.3.256", 9, 80, &d);
	ok(strncmp(hostlist_describe(&d, buf, sizeof(buf)), "bad host: ", 10) == 0,
	   "bad host message: %s", buf);
	hostlist_decide(p, "1.2.3.4", 7, 80, &d);
	ok(d.ip_literal && d.addr.family == NETADDR_INET, "an IP literal");
	ok(!d.allowed, "not on the list");

	memset(&d, 0, sizeof(d));
	ok(!d.allowed && d.reason == HOSTLIST_NO_ALLOW_ENTRY,
	   "the zero decision denies");
	hostlist_describe(&d, buf, 5);
	is_str(buf, "no a", "describe truncates");

	{
		static const char *const ip[] = { "[2001:db8::1]" };
		struct hostlist_policy *q = hostlist_policy_new();

		hostlist_policy_add(q, HOSTLIST_ALLOW, ip, 1, NULL);
		hostlist_decide(q, "2001:db8::1", 11, 22, &d);
		is_str(hostlist_describe(&d, buf, sizeof(buf)),
		       "port 22 not allowed: allow-list entry 0 "
		       "\"[2001:db8::1]\" allows ports 80 and 443 only",
		       "port message, bare IPv6 entry");
		hostlist_decide(q, "2001:db8::1", 11, 443, &d);
		ok(d.allowed && d.ip_literal,
		   "an allowed IP literal is flagged for the guard");
		hostlist_policy_free(q);
	}
	hostlist_policy_free(p);
}

static void test_authority(void)
{
	static const struct {
		const char *in;
		bool ok;
		const char *host;
		unsigned port;
	} cases[] = {
		{ "example.com:443", true, "example.com", 443 },
		{ "example.com", true, "example.com", 0 },
		{ "[::1]:8080", true, "[::1]", 8080 },
		{ "[::1]", true, "[::1]", 0 },
		{ "::1", false, NULL, 0 },
		{ "example.com:99999", false, NULL, 0 },
		{ "example.com:", false, NULL, 0 },
		{ "[::1]:", false, NULL, 0 },
		{ "[::1", false, NULL, 0 },
		{ "[::1]8080", false, NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *host;
		size_t hlen;
		unsigned port;
		bool r = hostlist_split_authority(cases[i].in, strlen(cases[i].in),
					    &host, &hlen, &port);

		is_int(r, cases[i].ok, cases[i].in);
		if (!cases[i].ok)
			continue;
		ok(hlen == strlen(cases[i].host) &&
			   memcmp(host, cases[i].host, hlen) == 0,
		   "host of %s", cases[i].in);
		is_int(port, cases[i].port, "port");
	}
}

/* RFC 3492 section 7.1 samples (a selection) and round trips. */
static void test_punycode(void)
{
	static const struct {
		uint32_t cps[40];
		size_t n;
		const char *code;
	} samples[] = {
		{ { 0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A,
		    0x0643, 0x0644, 0x0645, 0x0648, 0x0634, 0x0639, 0x0631,
		    0x0628, 0x064A, 0x061F },
		  17,
		  "egbpdaj6bu4bxfgehfvwxn" },
		{ { 0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4,
		    0x4E2D, 0x6587 },
		  9,
		  "ihqwcrb4cv8a8dqg056pqjye" },
		{ { 0x0033, 0x5E74, 0x0042, 0x7D44, 0x91D1, 0x516B, 0x5148,
		    0x751F },
		  8,
		  "3B-ww4c5e180e575a65lsy2b" },
		{ { 0x3072, 0x3068, 0x3064, 0x5C4B, 0x6839, 0x306E, 0x4E0B,
		    0x0032 },
		  8,
		  "2-u9tlzr9756bt3uc0v" },
		{ { 0x00FC }, 1, "tda" },
		{ { 'b', 0x00FC, 'c', 'h', 'e', 'r' }, 6, "bcher-kva" },
	};
	char out[128];
	uint32_t back[64];
	size_t n;

	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		ok(hostlist_punycode_encode(samples[i].cps, samples[i].n, out,
				      sizeof(out)),
		   "encode sample %zu", i);
		is_str(out, samples[i].code, "encoded");
		ok(hostlist_punycode_decode(samples[i].code, strlen(samples[i].code),
				      back, 64, &n) &&
			   n == samples[i].n &&
			   memcmp(back, samples[i].cps, n * sizeof(*back)) == 0,
		   "decode sample %zu", i);
	}
	ok(!hostlist_punycode_encode(samples[0].cps, samples[0].n, out, 10),
	   "encode into too small a buffer fails");
	ok(!hostlist_punycode_decode("egbpdaj6bu4bxfgehfvwxn", 22, back, 5, &n),
	   "decode into too few code points fails");
	ok(!hostlist_punycode_decode("99999999999", 11, back, 64, &n),
	   "decode overflow fails");
	ok(!hostlist_punycode_decode("a!", 2, back, 64, &n), "bad digit fails");
	ok(!hostlist_punycode_decode("egbpdaj6bu4bxfgehfvwx", 21, back, 64, &n) ||
		   n != 17,
	   "a truncated code does not give the sample");
}

static void test_limits(void)
{
	static const char *many[HOSTLIST_MAX_ENTRIES + 1];
	char big[HOSTLIST_MAX_ENTRY + 2];
	const char *one[1] = { big };
	struct hostlist_policy *p = hostlist_policy_new();
	struct cordon_diag cd;

	for (size_t i = 0; i <= HOSTLIST_MAX_ENTRIES; i++)
		many[i] = "example.com";
	is_int(hostlist_policy_add(p, HOSTLIST_ALLOW, many, HOSTLIST_MAX_ENTRIES + 1, &cd),
	       CORDON_E_LIMIT, "one entry over the limit");
	ok(strstr(cd.message, "HOSTLIST_MAX_ENTRIES") != NULL, "names it: %s",
	   cd.message);
	is_int(hostlist_policy_add(p, HOSTLIST_ALLOW, many, HOSTLIST_MAX_ENTRIES, &cd), CORDON_OK,
	       "exactly the limit");
	is_int(hostlist_policy_add(p, HOSTLIST_ALLOW, many, 1, &cd), CORDON_E_LIMIT,
	       "the limit counts entries already there");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(hostlist_policy_add(p, HOSTLIST_DENY, one, 1, &cd), CORDON_E_LIMIT,
	       "an entry too long");
	ok(strstr(cd.message, "HOSTLIST_MAX_ENTRY ") != NULL &&
		   strstr(cd.message, "deny[0]") != NULL,
	   "names it: %s", cd.message);
	hostlist_policy_free(p);
}

/* Public suffixes by a small list in the file's format: plain, wildcard
 * and exception rules, comments, a CRLF line; single labels always. */
static void test_public_suffix(void)
{
	static const char list[] = "// comment\ncom\n  co.uk \n*.ck\n"
				   "!www.ck\r\ngithub.io\n\n// end";
	static const struct {
		const char *name;
		bool want;
	} psl_rows[] = {
		{ "com", true },	 { "org", true },
		{ "co.uk", true },	 { "example.co.uk", false },
		{ "foo.ck", true },	 { "www.ck", false },
		{ "a.foo.ck", false },	 { "github.io", true },
		{ "me.github.io", false }, { "example.com", false },
		{ "comment", true },	 { "end", true },
		{ "", true },		 { "o.uk", false },
	};

	for (size_t i = 0; i < sizeof(psl_rows) / sizeof(psl_rows[0]); i++)
		ok(hostlist_public_suffix(list, sizeof(list) - 1, psl_rows[i].name,
					  strlen(psl_rows[i].name)) == psl_rows[i].want,
		   "public suffix \"%s\": %s", psl_rows[i].name,
		   psl_rows[i].want ? "yes" : "no");
	ok(hostlist_public_suffix(NULL, 0, "uk", 2) &&
		   !hostlist_public_suffix(NULL, 0, "co.uk", 5),
	   "without a list only single labels");
}

int main(void)
{
	tap_no_plan();
	test_public_suffix();
	test_decide();
	test_normalised();
	test_limits_of_names();
	test_entries();
	test_empty_and_describe();
	test_authority();
	test_punycode();
	test_limits();
	return tap_done();
}
