/* netaddr — IP addresses, and the resolved-address guard's denied classes.
 *
 * Pure: no sockets, no DNS, no I/O. The proxy resolves a permitted name
 * once, copies each address it got into a struct netaddr_addr, asks
 * netaddr_classify() about it, drops the denied ones and dials one that passed.
 *
 * Parsing (netaddr_parse, netaddr_parse_host):
 *   IPv4 in every spelling a resolver accepts (inet_aton and the WHATWG URL
 *   host parser): 1 to 4 parts, each decimal, octal with a leading "0"
 *   ("0177") or hexadecimal with "0x"/"0X" ("0x7f", and "0x" alone is 0);
 *   the last part fills the remaining bytes, so "127.1", "0x7f.1",
 *   "2130706433" and "0177.0.0.1" are all 127.0.0.1; one trailing dot is
 *   allowed ("127.0.0.1."). An octal part with an 8 or 9, a part too big for
 *   the bytes it fills, more than 4 parts or an empty part is not an
 *   address.
 *   IPv6 as RFC 4291 text: groups of 1 to 4 hex digits, one "::", an
 *   optional dotted-quad tail (strict decimal, no leading zeros) in the last
 *   32 bits; optionally in brackets ("[::1]"). Zone ids ("fe80::1%eth0",
 *   "[fe80::1%25eth0]") are REFUSED: a zone only makes sense on link-local
 *   and multicast addresses, which are denied anyway, and refusing keeps one
 *   spelling per address.
 *
 * A URL or CONNECT host (netaddr_parse_host) is an IP literal when it is
 * bracketed, holds a ':' or, after one trailing dot is dropped, its last
 * dot-separated label is a number (all decimal digits, or "0x" and hex
 * digits). Such a host that does not parse as an address is NETADDR_HOST_INVALID
 * and must be refused, never looked up: "1.2.3.256", "0x7g.1" and "08.1"
 * are neither names nor addresses. Anything else is NETADDR_HOST_NAME (its name
 * syntax is the caller's business, see hostlist.h).
 *
 * Classes (netaddr_classify), first match wins, in this order. IPv4:
 *   cloud-metadata  169.254.169.254, 169.254.169.253, 169.254.169.123,
 *                   169.254.170.2, 169.254.170.23, 169.254.0.23,
 *                   100.100.100.200, 168.63.129.16, 192.0.0.192
 *   unspecified     0.0.0.0/8 (Linux connects 0.0.0.0 to this host)
 *   loopback        127.0.0.0/8
 *   link-local      169.254.0.0/16
 *   multicast       224.0.0.0/4
 *   broadcast       255.255.255.255
 *   reserved        240.0.0.0/4, 192.0.0.0/24 (IETF protocol assignments),
 *                   192.88.99.0/24 (the deprecated 6to4 relay anycast)
 *   private         10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16
 *   cgnat           100.64.0.0/10
 *   documentation   192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24
 *   benchmarking    198.18.0.0/15
 * IPv6:
 *   cloud-metadata  fd00:ec2::254, fd00:ec2::253, fd00:ec2::123,
 *                   fd00:ec2::23
 *   unspecified     ::
 *   loopback        ::1
 *   multicast       ff00::/8
 *   link-local      fe80::/10
 *   site-local      fec0::/10
 *   private         fc00::/7
 *   reserved        100::/64 (discard-only), 2001:10::/28, 2001:20::/28
 *   documentation   2001:db8::/32, 3fff::/20
 *   benchmarking    2001:2::/48
 *   then the forms that embed an IPv4 address, judged by that address (its
 *   class, the own interfaces and the configured ranges, as above):
 *     v4-mapped      ::ffff:a.b.c.d           (::ffff:0:0/96)
 *     v4-translated  ::ffff:0:a.b.c.d         (::ffff:0:0:0/96, SIIT)
 *     v4-compatible  ::a.b.c.d                (::/96, after :: and ::1)
 *     nat64          64:ff9b::/96, the IPv4 in the last 32 bits
 *     nat64-local    64:ff9b:1::/48 (RFC 8215): the operator picks the
 *                    prefix length and the suffix bits are the sender's
 *                    to choose, so the IPv4 is read at every place RFC
 *                    6052 allows for /48, /56, /64 and /96, and a denied
 *                    one at any of them denies; except that a place
 *                    reading 0.0.0.0/8 (the zero padding of a /96
 *                    deployment) counts only when all four do. A /48 to
 *                    /64 deployment may see a public IPv4 refused because
 *                    another place reads a denied one: fail closed
 *     6to4           2002::/16, the IPv4 in bits 16..47
 *     teredo         2001::/32, the client's IPv4 (last 32 bits XOR
 *                    0xffffffff)
 *   An embedding whose IPv4 is denied gets the class "embedded-ipv4:" and
 *   the IPv4's class ("embedded-ipv4:private"); one whose IPv4 passes is
 *   judged as an IPv6 address from here on.
 *   reserved        everything outside 2000::/3 that is not one of the
 *                   above (not global unicast today)
 * Both families, after the built-in classes:
 *   own-interface   an address in the guard's list of this host's own
 *                   interface addresses (exact match; the caller gathers
 *                   them, e.g. with getifaddrs, and may replace the list)
 *   configured      inside one of the guard's extra denied ranges
 * Everything else is "public", the only class that is not denied. The zero
 * value of a verdict is class "invalid", which is denied.
 *
 * Extra ranges are CIDR strings in canonical form only: a dotted quad (four
 * decimal parts, no leading zeros) or IPv6 text, then optionally "/N"
 * (decimal, no leading zeros, at most 32 or 128; without it, one address).
 * Host bits set below the prefix ("10.1.2.3/8") are an error that names the
 * network meant. Odd IPv4 spellings are refused here: "10/8" would
 * otherwise be read as 0.0.0.10/8.
 *
 * Limits: NETADDR_MAX_RANGES extra ranges, NETADDR_MAX_OWN own addresses,
 * NETADDR_MAX_TEXT bytes of one address or range string. Exceeding one is
 * CORDON_E_LIMIT naming it.
 */
#ifndef CORDON_NETADDR_H
#define CORDON_NETADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon.h"

struct sockaddr;

#define NETADDR_MAX_RANGES 4096
#define NETADDR_MAX_OWN 4096
#define NETADDR_MAX_TEXT 128
/* Room for the longest canonical text of netaddr_format, with its NUL. */
#define NETADDR_ADDRSTRLEN 48
/* At most this many IPv4 addresses are embedded in one IPv6 address. */
#define NETADDR_MAX_EMBEDDED 4

enum netaddr_family {
	NETADDR_NONE = 0,
	NETADDR_INET = 4,
	NETADDR_INET6 = 6,
};

/* An address in network byte order. IPv4 sits in b[0..3], the rest zero;
 * compare two with netaddr_equal (an IPv4 address and its v4-mapped IPv6 form
 * are different addresses here; see hostlist.h for where they meet). */
struct netaddr_addr {
	enum netaddr_family family;
	uint8_t b[16];
};

/* Stable class names: a 403 and the audit log carry them. */
#define NETADDR_CLASS_MAP(X)                                                        \
	X(INVALID, "invalid")                                                  \
	X(PUBLIC, "public")                                                    \
	X(UNSPECIFIED, "unspecified")                                          \
	X(LOOPBACK, "loopback")                                                \
	X(LINK_LOCAL, "link-local")                                            \
	X(MULTICAST, "multicast")                                              \
	X(BROADCAST, "broadcast")                                              \
	X(PRIVATE, "private")                                                  \
	X(CGNAT, "cgnat")                                                      \
	X(DOCUMENTATION, "documentation")                                      \
	X(BENCHMARKING, "benchmarking")                                        \
	X(RESERVED, "reserved")                                                \
	X(SITE_LOCAL, "site-local")                                            \
	X(CLOUD_METADATA, "cloud-metadata")                                    \
	X(OWN_INTERFACE, "own-interface")                                      \
	X(CONFIGURED, "configured")

enum netaddr_class {
#define NETADDR_CLASS_ENUM(name, str) NETADDR_CLASS_##name,
	NETADDR_CLASS_MAP(NETADDR_CLASS_ENUM)
#undef NETADDR_CLASS_ENUM
		NETADDR_CLASS_COUNT
};

/* How an IPv6 address carries an IPv4 one; names as in the list above. */
#define NETADDR_EMBED_MAP(X)                                                        \
	X(NONE, "none")                                                        \
	X(V4_MAPPED, "v4-mapped")                                              \
	X(V4_TRANSLATED, "v4-translated")                                      \
	X(V4_COMPATIBLE, "v4-compatible")                                      \
	X(NAT64, "nat64")                                                      \
	X(NAT64_LOCAL, "nat64-local")                                          \
	X(SIX_TO_FOUR, "6to4")                                                 \
	X(TEREDO, "teredo")

enum netaddr_embed {
#define NETADDR_EMBED_ENUM(name, str) NETADDR_EMBED_##name,
	NETADDR_EMBED_MAP(NETADDR_EMBED_ENUM)
#undef NETADDR_EMBED_ENUM
		NETADDR_EMBED_COUNT
};

/* What netaddr_classify found. embed is NETADDR_EMBED_NONE unless the class is that
 * of an embedded IPv4 address (then inner is that address); range is the
 * index of the extra range for NETADDR_CLASS_CONFIGURED. */
struct netaddr_verdict {
	enum netaddr_class cls;
	enum netaddr_embed embed;
	struct netaddr_addr inner;
	size_t range;
};

enum netaddr_host {
	NETADDR_HOST_INVALID = 0,
	NETADDR_HOST_NAME,
	NETADDR_HOST_IP,
};

struct netaddr_guard;

/* Parses s[0..len) as an address in any accepted spelling (see the head
 * comment), brackets around IPv6 included. false, *out zeroed, when it is
 * not one. */
bool netaddr_parse(const char *s, size_t len, struct netaddr_addr *out);

/* The same, accepting only the canonical spellings: a dotted quad of four
 * decimal parts without leading zeros, or bare IPv6 text. */
bool netaddr_parse_strict(const char *s, size_t len, struct netaddr_addr *out);

/* Is the host s[0..len) of a URL or CONNECT request an IP literal, a name,
 * or neither? *out is filled for NETADDR_HOST_IP and zeroed otherwise. */
enum netaddr_host netaddr_parse_host(const char *s, size_t len, struct netaddr_addr *out);

/* Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, the longest
 * run of two or more zero groups shortened, v4-mapped and v4-translated
 * with a dotted-quad tail). Never brackets. Returns buf; "" for an address
 * of family NETADDR_NONE. */
const char *netaddr_format(const struct netaddr_addr *a, char buf[NETADDR_ADDRSTRLEN]);

bool netaddr_equal(const struct netaddr_addr *a, const struct netaddr_addr *b);

/* The IPv4 address(es) a carries, in the forms listed above, with the form
 * of each in forms[] (may be NULL). Returns how many (0 for IPv4, for :: and
 * ::1, and for every IPv6 address that is not one of the forms). */
size_t netaddr_embedded_v4(const struct netaddr_addr *a,
		      struct netaddr_addr out[NETADDR_MAX_EMBEDDED],
		      enum netaddr_embed forms[NETADDR_MAX_EMBEDDED]);

/* An empty guard: built-in classes only. NULL when out of memory. */
struct netaddr_guard *netaddr_guard_new(void);
/* Accepts NULL. */
void netaddr_guard_free(struct netaddr_guard *g);

/* Adds extra denied ranges (CIDR strings, see above), all or none: on an
 * error nothing is added and diag names the entry by index and text and
 * says what is wrong ("denied range 2 \"10.1.2.3/8\": host bits set below
 * /8 (the network is 10.0.0.0/8)"). */
enum cordon_err netaddr_guard_add_ranges(struct netaddr_guard *g,
				    const char *const *ranges, size_t n,
				    struct cordon_diag *diag);
size_t netaddr_guard_range_count(const struct netaddr_guard *g);
/* The canonical text of extra range i ("10.0.0.0/8"), or NULL. */
const char *netaddr_guard_range_text(const struct netaddr_guard *g, size_t i);

/* Replaces the list of this host's own interface addresses with a copy of
 * addrs[0..n). Addresses of family NETADDR_NONE are CORDON_E_INVAL. On error the
 * old list stays. */
enum cordon_err netaddr_guard_set_own(struct netaddr_guard *g,
				 const struct netaddr_addr *addrs, size_t n,
				 struct cordon_diag *diag);

/* Judges a. g may be NULL (built-in classes only). */
void netaddr_classify(const struct netaddr_guard *g, const struct netaddr_addr *a,
		 struct netaddr_verdict *v);

/* Is the verdict a denial? Everything but class "public" is. */
bool netaddr_denied(const struct netaddr_verdict *v);

/* The stable name of the verdict: the class name ("private"), or for an
 * embedded IPv4 "embedded-ipv4:" and its class ("embedded-ipv4:loopback").
 * Static; never NULL. */
const char *netaddr_verdict_name(const struct netaddr_verdict *v);

/* Static names of a class and an embedding form; "unknown" out of range. */
const char *netaddr_class_name(enum netaddr_class c);
const char *netaddr_embed_name(enum netaddr_embed e);

/* The address of an AF_INET or AF_INET6 socket address into a; false
 * (a zeroed) for NULL or any other family. */
bool netaddr_from_sockaddr(const struct sockaddr *sa, struct netaddr_addr *a);

#endif
