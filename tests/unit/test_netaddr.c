/* netaddr: a table of addresses (every class, every embedded-IPv4 form,
 * both sides of range boundaries, odd IPv4 spellings, garbage) with the
 * canonical text and the class each must get; URL hosts; the canonical
 * text of RFC 5952; extra denied ranges and own interfaces. */
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "netaddr.h"
#include "tap.h"

struct row {
	const char *in;
	const char *canon; /* NULL: not an address */
	const char *cls;
};

static const struct row rows[] = {
	/* public IPv4, and the edges just outside each denied range */
	{ "8.8.8.8", "8.8.8.8", "public" },
	{ "1.1.1.1", "1.1.1.1", "public" },
	{ "1.0.0.0", "1.0.0.0", "public" },
	{ "0.255.255.255", "0.255.255.255", "unspecified" },
	{ "0.0.0.0", "0.0.0.0", "unspecified" },
	{ "0.1.2.3", "0.1.2.3", "unspecified" },
	{ "9.255.255.255", "9.255.255.255", "public" },
	{ "10.0.0.0", "10.0.0.0", "private" },
	{ "10.255.255.255", "10.255.255.255", "private" },
	{ "11.0.0.0", "11.0.0.0", "public" },
	{ "100.63.255.255", "100.63.255.255", "public" },
	{ "100.64.0.0", "100.64.0.0", "cgnat" },
	{ "100.127.255.255", "100.127.255.255", "cgnat" },
	{ "100.128.0.0", "100.128.0.0", "public" },
	{ "126.255.255.255", "126.255.255.255", "public" },
	{ "127.0.0.0", "127.0.0.0", "loopback" },
	{ "127.0.0.1", "127.0.0.1", "loopback" },
	{ "127.255.255.255", "127.255.255.255", "loopback" },
	{ "128.0.0.0", "128.0.0.0", "public" },
	{ "169.253.255.255", "169.253.255.255", "public" },
	{ "169.254.0.0", "169.254.0.0", "link-local" },
	{ "169.254.255.255", "169.254.255.255", "link-local" },
	{ "169.255.0.0", "169.255.0.0", "public" },
	{ "172.15.255.255", "172.15.255.255", "public" },
	{ "172.16.0.0", "172.16.0.0", "private" },
	{ "172.31.255.255", "172.31.255.255", "private" },
	{ "172.32.0.0", "172.32.0.0", "public" },
	{ "192.167.255.255", "192.167.255.255", "public" },
	{ "192.168.0.0", "192.168.0.0", "private" },
	{ "192.168.255.255", "192.168.255.255", "private" },
	{ "192.169.0.0", "192.169.0.0", "public" },
	{ "191.255.255.255", "191.255.255.255", "public" },
	{ "192.0.0.0", "192.0.0.0", "reserved" },
	{ "192.0.0.255", "192.0.0.255", "reserved" },
	{ "192.0.1.0", "192.0.1.0", "public" },
	{ "192.0.2.0", "192.0.2.0", "documentation" },
	{ "192.0.2.255", "192.0.2.255", "documentation" },
	{ "192.0.3.0", "192.0.3.0", "public" },
	{ "192.88.98.255", "192.88.98.255", "public" },
	{ "192.88.99.1", "192.88.99.1", "reserved" },
	{ "198.17.255.255", "198.17.255.255", "public" },
	{ "198.18.0.0", "198.18.0.0", "benchmarking" },
	{ "198.19.255.255", "198.19.255.255", "benchmarking" },
	{ "198.20.0.0", "198.20.0.0", "public" },
	{ "198.51.99.255", "198.51.99.255", "public" },
	{ "198.51.100.7", "198.51.100.7", "documentation" },
	{ "198.51.101.0", "198.51.101.0", "public" },
	{ "203.0.112.255", "203.0.112.255", "public" },
	{ "203.0.113.0", "203.0.113.0", "documentation" },
	{ "203.0.114.0", "203.0.114.0", "public" },
	{ "223.255.255.255", "223.255.255.255", "public" },
	{ "224.0.0.0", "224.0.0.0", "multicast" },
	{ "239.255.255.255", "239.255.255.255", "multicast" },
	{ "240.0.0.0", "240.0.0.0", "reserved" },
	{ "255.255.255.254", "255.255.255.254", "reserved" },
	{ "255.255.255.255", "255.255.255.255", "broadcast" },
	/* cloud metadata, before the ranges holding them */
	{ "169.254.169.254", "169.254.169.254", "cloud-metadata" },
	{ "169.254.169.253", "169.254.169.253", "cloud-metadata" },
	{ "169.254.169.255", "169.254.169.255", "link-local" },
	{ "169.254.170.2", "169.254.170.2", "cloud-metadata" },
	{ "169.254.0.23", "169.254.0.23", "cloud-metadata" },
	{ "100.100.100.200", "100.100.100.200", "cloud-metadata" },
	{ "100.100.100.201", "100.100.100.201", "cgnat" },
	{ "168.63.129.16", "168.63.129.16", "cloud-metadata" },
	{ "168.63.129.17", "168.63.129.17", "public" },
	{ "192.0.0.192", "192.0.0.192", "cloud-metadata" },
	/* odd IPv4 spellings resolvers accept */
	{ "127.1", "127.0.0.1", "loopback" },
	{ "0x7f.1", "127.0.0.1", "loopback" },
	{ "0X7F.0.0.1", "127.0.0.1", "loopback" },
	{ "2130706433", "127.0.0.1", "loopback" },
	{ "0177.0.0.1", "127.0.0.1", "loopback" },
	{ "017700000001", "127.0.0.1", "loopback" },
	{ "0x7f000001", "127.0.0.1", "loopback" },
	{ "127.0.1", "127.0.0.1", "loopback" },
	{ "0xa9.0xfe.0xa9.0xfe", "169.254.169.254", "cloud-metadata" },
	{ "169.254.43518", "169.254.169.254", "cloud-metadata" },
	{ "2852039166", "169.254.169.254", "cloud-metadata" },
	{ "0251.0376.0251.0376", "169.254.169.254", "cloud-metadata" },
	{ "10.1", "10.0.0.1", "private" },
	{ "0", "0.0.0.0", "unspecified" },
	{ "0x", "0.0.0.0", "unspecified" },
	{ "0x.0x.0x.0x", "0.0.0.0", "unspecified" },
	{ "127.0.0.1.", "127.0.0.1", "loopback" },
	{ "4294967295", "255.255.255.255", "broadcast" },
	{ "8.8.2056", "8.8.8.8", "public" },
	{ "00000000000000000000000010.1", "8.0.0.1", "public" },
	/* not IPv4 */
	{ "4294967296", NULL, NULL },
	{ "256.0.0.1", NULL, NULL },
	{ "1.2.3.256", NULL, NULL },
	{ "1.2.65536", NULL, NULL },
	{ "1.16777216", NULL, NULL },
	{ "1.2.3.4.5", NULL, NULL },
	{ "08.0.0.1", NULL, NULL },
	{ "0129.0.0.1", NULL, NULL },
	{ "0x7g.1", NULL, NULL },
	{ "1..2.3", NULL, NULL },
	{ ".1.2.3", NULL, NULL },
	{ "1.2.3.4..", NULL, NULL },
	{ "1.2.3.-4", NULL, NULL },
	{ "+1.2.3.4", NULL, NULL },
	{ " 1.2.3.4", NULL, NULL },
	{ "1.2.3.4 ", NULL, NULL },
	{ "1.2.3.4x", NULL, NULL },
	{ "", NULL, NULL },
	{ ".", NULL, NULL },
	{ "example.com", NULL, NULL },
	{ "0xffffffffff", NULL, NULL },
	/* IPv6 */
	{ "2606:4700:4700::1111", "2606:4700:4700::1111", "public" },
	{ "2a00:1450:4001:80b::200e", "2a00:1450:4001:80b::200e", "public" },
	{ "[2606:4700::1]", "2606:4700::1", "public" },
	{ "::", "::", "unspecified" },
	{ "0:0:0:0:0:0:0:0", "::", "unspecified" },
	{ "::1", "::1", "loopback" },
	{ "[::1]", "::1", "loopback" },
	{ "0:0:0:0:0:0:0:1", "::1", "loopback" },
	{ "fe80::1", "fe80::1", "link-local" },
	{ "febf:ffff::1", "febf:ffff::1", "link-local" },
	{ "fe7f::1", "fe7f::1", "reserved" },
	{ "fec0::1", "fec0::1", "site-local" },
	{ "feff::1", "feff::1", "site-local" },
	{ "fc00::1", "fc00::1", "private" },
	{ "fdff:ffff::1", "fdff:ffff::1", "private" },
	{ "fbff::1", "fbff::1", "reserved" },
	{ "ff02::1", "ff02::1", "multicast" },
	{ "FF05::1:3", "ff05::1:3", "multicast" },
	{ "fd00:ec2::254", "fd00:ec2::254", "cloud-metadata" },
	{ "fd00:ec2::255", "fd00:ec2::255", "private" },
	{ "2001:db8::1", "2001:db8::1", "documentation" },
	{ "2001:db7:ffff::1", "2001:db7:ffff::1", "public" },
	{ "2001:db9::1", "2001:db9::1", "public" },
	{ "3fff::1", "3fff::1", "documentation" },
	{ "3fff:fff::1", "3fff:fff::1", "documentation" },
	{ "3fff:1000::1", "3fff:1000::1", "public" },
	{ "2001:2::1", "2001:2::1", "benchmarking" },
	{ "2001:2:1::1", "2001:2:1::1", "public" },
	{ "2001:10::1", "2001:10::1", "reserved" },
	{ "2001:20::1", "2001:20::1", "reserved" },
	{ "100::1", "100::1", "reserved" },
	{ "100:0:0:1::", "100:0:0:1::", "reserved" },
	{ "1fff:ffff::1", "1fff:ffff::1", "reserved" },
	{ "4000::1", "4000::1", "reserved" },
	{ "1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0", "reserved" },
	/* IPv6 embedding IPv4 */
	{ "::ffff:127.0.0.1", "::ffff:127.0.0.1", "embedded-ipv4:loopback" },
	{ "::ffff:7f00:1", "::ffff:127.0.0.1", "embedded-ipv4:loopback" },
	{ "[::ffff:169.254.169.254]", "::ffff:169.254.169.254",
	  "embedded-ipv4:cloud-metadata" },
	{ "::ffff:10.0.0.1", "::ffff:10.0.0.1", "embedded-ipv4:private" },
	{ "::ffff:8.8.8.8", "::ffff:8.8.8.8", "public" },
	{ "::ffff:0:192.168.1.1", "::ffff:0:192.168.1.1",
	  "embedded-ipv4:private" },
	{ "::ffff:0:1.1.1.1", "::ffff:0:1.1.1.1", "public" },
	{ "::127.0.0.1", "::7f00:1", "embedded-ipv4:loopback" },
	{ "::0.0.0.2", "::2", "embedded-ipv4:unspecified" },
	{ "::8.8.8.8", "::808:808", "public" },
	{ "64:ff9b::127.0.0.1", "64:ff9b::7f00:1", "embedded-ipv4:loopback" },
	{ "64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe",
	  "embedded-ipv4:cloud-metadata" },
	{ "64:ff9b::8.8.8.8", "64:ff9b::808:808", "public" },
	{ "64:ff9b::1:0:0:0", "64:ff9b:0:0:1::", "reserved" },
	{ "64:ff9b:1::10.0.0.1", "64:ff9b:1::a00:1", "embedded-ipv4:private" },
	{ "64:ff9b:1:a00:1::", "64:ff9b:1:a00:1::", "embedded-ipv4:private" },
	{ "64:ff9b:1:87f:0:1::", "64:ff9b:1:87f:0:1::",
	  "embedded-ipv4:loopback" },
	{ "64:ff9b:1:7f:0:1::", "64:ff9b:1:7f:0:1::", "embedded-ipv4:loopback" },
	{ "64:ff9b:1::", "64:ff9b:1::", "embedded-ipv4:unspecified" },
	{ "64:ff9b:1::8.8.8.8", "64:ff9b:1::808:808", "public" },
	{ "64:ff9b:1::192.168.0.1", "64:ff9b:1::c0a8:1",
	  "embedded-ipv4:private" },
	{ "64:ff9b:2::10.0.0.1", "64:ff9b:2::a00:1", "reserved" },
	{ "64:ff9b:1:808:8:808:808:808", "64:ff9b:1:808:8:808:808:808",
	  "public" },
	{ "2002:7f00:1::", "2002:7f00:1::", "embedded-ipv4:loopback" },
	{ "2002:a9fe:a9fe::1", "2002:a9fe:a9fe::1",
	  "embedded-ipv4:cloud-metadata" },
	{ "2002:808:808::1", "2002:808:808::1", "public" },
	{ "2001:0:4136:e378:8000:63bf:80ff:fffe",
	  "2001:0:4136:e378:8000:63bf:80ff:fffe", "embedded-ipv4:loopback" },
	{ "2001::f5ff:fffe", "2001::f5ff:fffe", "embedded-ipv4:private" },
	{ "2001::f7f7:f7f7", "2001::f7f7:f7f7", "public" },
	/* not IPv6 */
	{ "fe80::1%eth0", NULL, NULL },
	{ "[fe80::1%25eth0]", NULL, NULL },
	{ ":::", NULL, NULL },
	{ ":1::", NULL, NULL },
	{ "1::2::3", NULL, NULL },
	{ "1:2:3:4:5:6:7:8:9", NULL, NULL },
	{ "1:2:3:4:5:6:7", NULL, NULL },
	{ "1:2:3:4:5:6:7:8::", NULL, NULL },
	{ "12345::1", NULL, NULL },
	{ "::ffff:127.1", NULL, NULL },
	{ "::ffff:127.0.0.01", NULL, NULL },
	{ "::1.2.3.4:5", NULL, NULL },
	{ "1:2:3:4:5:6:7:1.2.3.4", NULL, NULL },
	{ "[::1", NULL, NULL },
	{ "::1]", NULL, NULL },
	{ "[1.2.3.4]", NULL, NULL },
	{ "[]", NULL, NULL },
	{ "g::1", NULL, NULL },
	{ "1:", NULL, NULL },
};

struct host_row {
	const char *in;
	enum netaddr_host want;
};

static const struct host_row host_rows[] = {
	{ "example.com", NETADDR_HOST_NAME },
	{ "localhost", NETADDR_HOST_NAME },
	{ "0x7f.example.com", NETADDR_HOST_NAME },
	{ "127.0.0.1x", NETADDR_HOST_NAME },
	{ "1.2.3.4.example", NETADDR_HOST_NAME },
	{ "127.0.0.1", NETADDR_HOST_IP },
	{ "127.1", NETADDR_HOST_IP },
	{ "0x7f.1", NETADDR_HOST_IP },
	{ "2130706433", NETADDR_HOST_IP },
	{ "127.0.0.1.", NETADDR_HOST_IP },
	{ "[::1]", NETADDR_HOST_IP },
	{ "::1", NETADDR_HOST_IP },
	{ "1.2.3.256", NETADDR_HOST_INVALID },
	{ "08.1", NETADDR_HOST_INVALID },
	{ "0x7g.1", NETADDR_HOST_INVALID },
	{ "example.123", NETADDR_HOST_INVALID },
	{ "example.0x1f", NETADDR_HOST_INVALID },
	{ "1.2.3.4.5", NETADDR_HOST_INVALID },
	{ "[example.com]", NETADDR_HOST_INVALID },
	{ "fe80::1%eth0", NETADDR_HOST_INVALID },
	{ "example.com:443", NETADDR_HOST_INVALID },
	{ "", NETADDR_HOST_INVALID },
};

static void test_rows(void)
{
	char buf[NETADDR_ADDRSTRLEN];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct netaddr_addr a;
		struct netaddr_verdict v;
		bool parsed = netaddr_parse(r->in, strlen(r->in), &a);

		if (!r->canon) {
			ok(!parsed && a.family == NETADDR_NONE,
			   "\"%s\" is not an address", r->in);
			continue;
		}
		if (!ok(parsed, "\"%s\" parses", r->in))
			continue;
		is_str(netaddr_format(&a, buf), r->canon, r->in);
		netaddr_classify(NULL, &a, &v);
		is_str(netaddr_verdict_name(&v), r->cls, r->canon);
		is_int(netaddr_denied(&v), strcmp(r->cls, "public") != 0,
		       "denied iff not public");
	}
	diag("%zu addresses in the table", sizeof(rows) / sizeof(rows[0]));
}

static void test_hosts(void)
{
	for (size_t i = 0; i < sizeof(host_rows) / sizeof(host_rows[0]); i++) {
		struct netaddr_addr a;

		is_int(netaddr_parse_host(host_rows[i].in, strlen(host_rows[i].in),
				     &a),
		       host_rows[i].want, host_rows[i].in);
	}
}

static void test_embedded(void)
{
	struct netaddr_addr a, in[NETADDR_MAX_EMBEDDED];
	enum netaddr_embed forms[NETADDR_MAX_EMBEDDED];
	struct netaddr_verdict v;
	char buf[NETADDR_ADDRSTRLEN];
	static const struct {
		const char *addr;
		enum netaddr_embed form;
		const char *inner;
	} forms_rows[] = {
		{ "::ffff:1.2.3.4", NETADDR_EMBED_V4_MAPPED, "1.2.3.4" },
		{ "::ffff:0:1.2.3.4", NETADDR_EMBED_V4_TRANSLATED, "1.2.3.4" },
		{ "::1.2.3.4", NETADDR_EMBED_V4_COMPATIBLE, "1.2.3.4" },
		{ "64:ff9b::1.2.3.4", NETADDR_EMBED_NAT64, "1.2.3.4" },
		{ "2002:102:304::", NETADDR_EMBED_SIX_TO_FOUR, "1.2.3.4" },
		{ "2001::fefd:fcfb", NETADDR_EMBED_TEREDO, "1.2.3.4" },
	};

	for (size_t i = 0; i < sizeof(forms_rows) / sizeof(forms_rows[0]);
	     i++) {
		netaddr_parse(forms_rows[i].addr, strlen(forms_rows[i].addr), &a);
		is_int(netaddr_embedded_v4(&a, in, forms), 1, forms_rows[i].addr);
		is_int(forms[0], forms_rows[i].form,
		       netaddr_embed_name(forms_rows[i].form));
		is_str(netaddr_format(&in[0], buf), forms_rows[i].inner,
		       "the IPv4 inside");
	}
	netaddr_parse("64:ff9b:1:102:3:400:0:0", 23, &a);
	is_int(netaddr_embedded_v4(&a, in, forms), 4, "nat64-local: 4 places");
	is_str(netaddr_format(&in[0], buf), "1.2.3.4", "nat64-local /48 place");
	is_int(forms[3], NETADDR_EMBED_NAT64_LOCAL, "form nat64-local");

	netaddr_parse("::1", 3, &a);
	is_int(netaddr_embedded_v4(&a, in, forms), 0, "::1 embeds nothing");
	netaddr_parse("1.2.3.4", 7, &a);
	is_int(netaddr_embedded_v4(&a, in, forms), 0, "IPv4 embeds nothing");

	netaddr_parse("2001::f5ff:fffe", 15, &a);
	netaddr_classify(NULL, &a, &v);
	is_int(v.embed, NETADDR_EMBED_TEREDO, "teredo verdict names the form");
	is_str(netaddr_format(&v.inner, buf), "10.0.0.1", "teredo client XOR");
	is_str(netaddr_embed_name(v.embed), "teredo", "form name");
}

static void test_format(void)
{
	static const char *const pairs[][2] = {
		{ "2001:0db8:0000:0000:0000:0000:0002:0001", "2001:db8::2:1" },
		{ "2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1" },
		{ "2001:0:0:1:0:0:0:1", "2001:0:0:1::1" },
		{ "2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1" },
		{ "1:0:0:0:0:0:0:0", "1::" },
		{ "0:0:0:0:0:0:0:2", "::2" },
		{ "ABCD:EF01::", "abcd:ef01::" },
		{ "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8" },
	};
	char buf[NETADDR_ADDRSTRLEN];
	struct netaddr_addr a, b;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		ok(netaddr_parse(pairs[i][0], strlen(pairs[i][0]), &a), "%s",
		   pairs[i][0]);
		is_str(netaddr_format(&a, buf), pairs[i][1], "RFC 5952 text");
		ok(netaddr_parse(buf, strlen(buf), &b) && netaddr_equal(&a, &b),
		   "round trip %s", buf);
	}
	ok(netaddr_parse_strict("10.0.0.1", 8, &a), "strict: dotted quad");
	ok(!netaddr_parse_strict("10.1", 4, &a), "strict: no short form");
	ok(!netaddr_parse_strict("010.0.0.1", 9, &a), "strict: no octal");
	ok(!netaddr_parse_strict("[::1]", 5, &a), "strict: no brackets");
	ok(netaddr_parse_strict("::1", 3, &a), "strict: IPv6");
	memset(&a, 0, sizeof(a));
	is_str(netaddr_format(&a, buf), "", "family none formats empty");
	ok(!netaddr_equal(&a, &a), "family none equals nothing");
	netaddr_parse("1.2.3.4", 7, &a);
	netaddr_parse("::ffff:1.2.3.4", 14, &b);
	ok(!netaddr_equal(&a, &b), "IPv4 and v4-mapped differ here");
}

static void test_guard(void)
{
	static const char *const good[] = {
		"203.0.113.0/24",
		"8.8.8.0/24",
		"2606:4700::/32",
		"1.1.1.1",
	};
	static const struct {
		const char *range;
		const char *msg;
	} bad[] = {
		{ "10.1.2.3/8", "host bits set below the prefix (the network "
				"is 10.0.0.0/8)" },
		{ "10/8", "not a dotted-quad" },
		{ "10.0.0.0/33", "prefix length over 32" },
		{ "::/129", "prefix length over 128" },
		{ "10.0.0.0/08", "bad prefix length" },
		{ "10.0.0.0/", "bad prefix length" },
		{ "10.0.0.0/x", "bad prefix length" },
		{ "", "not a dotted-quad" },
		{ "fe80::/10%eth0", "bad prefix length" },
		{ "example.com/8", "not a dotted-quad" },
	};
	struct netaddr_guard *g = netaddr_guard_new();
	struct cordon_diag diag;
	struct netaddr_addr a, own[2];
	struct netaddr_verdict v;
	const char *one[2];

	ok(g != NULL, "guard");
	is_int(netaddr_guard_add_ranges(g, good, 4, &diag), CORDON_OK,
	       "four ranges");
	is_int(netaddr_guard_range_count(g), 4, "counted");
	is_str(netaddr_guard_range_text(g, 3), "1.1.1.1/32", "single address");
	is_str(netaddr_guard_range_text(g, 2), "2606:4700::/32", "IPv6 range");
	ok(netaddr_guard_range_text(g, 4) == NULL, "out of range");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		one[0] = "192.0.2.0/24";
		one[1] = bad[i].range;
		is_int(netaddr_guard_add_ranges(g, one, 2, &diag), CORDON_E_CONFIG,
		       bad[i].range);
		ok(strstr(diag.message, "denied range 1") != NULL &&
			   strstr(diag.message, bad[i].msg) != NULL,
		   "message: %s", diag.message);
	}
	is_int(netaddr_guard_range_count(g), 4, "a failed add adds nothing");

	netaddr_parse("8.8.8.8", 7, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "configured", "8.8.8.8 in a range");
	is_int(v.range, 1, "which range");
	netaddr_parse("8.8.9.8", 7, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "public", "8.8.9.8 outside");
	netaddr_parse("::ffff:8.8.8.8", 14, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "embedded-ipv4:configured",
	       "the range applies to the IPv4 inside");
	netaddr_parse("2606:4700::1111", 15, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "configured", "IPv6 range");
	netaddr_parse("2606:4701::1111", 15, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "public", "outside the IPv6 range");
	netaddr_parse("203.0.113.5", 11, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "documentation",
	       "a built-in class names itself first");

	netaddr_parse("93.184.216.34", 13, &own[0]);
	netaddr_parse("2a01:4f8::1", 11, &own[1]);
	is_int(netaddr_guard_set_own(g, own, 2, &diag), CORDON_OK, "own list");
	netaddr_classify(g, &own[0], &v);
	is_str(netaddr_verdict_name(&v), "own-interface", "own IPv4");
	netaddr_classify(g, &own[1], &v);
	is_str(netaddr_verdict_name(&v), "own-interface", "own IPv6");
	netaddr_parse("2002:5db8:d822::1", 17, &a);
	netaddr_classify(g, &a, &v);
	is_str(netaddr_verdict_name(&v), "embedded-ipv4:own-interface",
	       "own IPv4 inside 6to4");
	memset(&own[1], 0, sizeof(own[1]));
	is_int(netaddr_guard_set_own(g, own, 2, &diag), CORDON_E_INVAL,
	       "an address without family");
	netaddr_classify(g, &own[0], &v);
	is_str(netaddr_verdict_name(&v), "own-interface", "old list kept");
	is_int(netaddr_guard_set_own(g, NULL, 0, &diag), CORDON_OK, "cleared");
	netaddr_classify(g, &own[0], &v);
	is_str(netaddr_verdict_name(&v), "public", "no longer own");
	netaddr_guard_free(g);
	netaddr_guard_free(NULL);

	memset(&v, 0, sizeof(v));
	ok(netaddr_denied(&v), "the zero verdict denies");
	is_str(netaddr_verdict_name(&v), "invalid", "and is named invalid");
	memset(&a, 0, sizeof(a));
	netaddr_classify(NULL, &a, &v);
	ok(netaddr_denied(&v), "an address without family is denied");
	is_str(netaddr_class_name(NETADDR_CLASS_COUNT), "unknown", "class out of range");
}

static void test_limits(void)
{
	static char texts[NETADDR_MAX_RANGES + 1][20];
	static const char *ptrs[NETADDR_MAX_RANGES + 1];
	struct netaddr_guard *g = netaddr_guard_new();
	struct cordon_diag diag;
	char longer[NETADDR_MAX_TEXT + 2];

	for (size_t i = 0; i <= NETADDR_MAX_RANGES; i++) {
		snprintf(texts[i], sizeof(texts[i]), "10.%zu.%zu.0/24", i / 256,
			 i % 256);
		ptrs[i] = texts[i];
	}
	is_int(netaddr_guard_add_ranges(g, ptrs, NETADDR_MAX_RANGES + 1, &diag),
	       CORDON_E_LIMIT, "one range over the limit");
	ok(strstr(diag.message, "NETADDR_MAX_RANGES") != NULL, "names the limit");
	is_int(netaddr_guard_add_ranges(g, ptrs, NETADDR_MAX_RANGES, &diag), CORDON_OK,
	       "exactly the limit");
	memset(longer, '1', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	netaddr_guard_free(g);
	g = netaddr_guard_new();
	ptrs[0] = longer;
	is_int(netaddr_guard_add_ranges(g, ptrs, 1, &diag), CORDON_E_LIMIT,
	       "range text too long");
	ok(strstr(diag.message, "NETADDR_MAX_TEXT") != NULL, "names the limit");
	netaddr_guard_free(g);
}

/* netaddr_from_sockaddr: the one conversion the proxy, its resolver and
 * fetch share. */
static void test_sockaddr(void)
{
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	struct netaddr_addr a;
	char out[NETADDR_ADDRSTRLEN] = "";

	inet_pton(AF_INET, "192.0.2.7", &s4.sin_addr);
	inet_pton(AF_INET6, "2001:db8::9", &s6.sin6_addr);
	ok(netaddr_from_sockaddr((struct sockaddr *)&s4, &a) &&
		   a.family == NETADDR_INET &&
		   netaddr_format(&a, out) &&
		   strcmp(out, "192.0.2.7") == 0,
	   "sockaddr: AF_INET (%s)", out);
	ok(netaddr_from_sockaddr((struct sockaddr *)&s6, &a) &&
		   a.family == NETADDR_INET6 &&
		   netaddr_format(&a, out) &&
		   strcmp(out, "2001:db8::9") == 0,
	   "sockaddr: AF_INET6 (%s)", out);
	ok(!netaddr_from_sockaddr((struct sockaddr *)&su, &a) &&
		   a.family == 0,
	   "sockaddr: AF_UNIX is no address");
	ok(!netaddr_from_sockaddr(NULL, &a), "sockaddr: NULL is no address");
}

int main(void)
{
	tap_no_plan();
	test_rows();
	test_hosts();
	test_embedded();
	test_format();
	test_guard();
	test_limits();
	test_sockaddr();
	return tap_done();
}
