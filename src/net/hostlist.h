/* hostlist — the egress proxy's allow-list and deny-list of destinations.
 *
 * Pure: no sockets, no DNS. A policy holds two lists of entries; a request
 * for (host, port) is decided by hostlist_decide():
 *   1. the host is normalised (below); one that is neither a valid name nor
 *      an IP literal is denied (HOSTLIST_BAD_HOST);
 *   2. any matching deny-list entry denies (HOSTLIST_DENY_ENTRY): the deny-list
 *      wins over the allow-list;
 *   3. the first matching allow-list entry allows (HOSTLIST_ALLOW_ENTRY);
 *   4. otherwise denied: HOSTLIST_PORT_NOT_ALLOWED when an allow-list entry named
 *      the host but not the port, else HOSTLIST_NO_ALLOW_ENTRY. An empty
 *      allow-list therefore denies everything.
 * The zero value of a decision is a denial (HOSTLIST_NO_ALLOW_ENTRY).
 *
 * Entries (both lists):
 *   host            a name; in the allow-list ports 80 and 443 only, in the
 *                   deny-list every port
 *   host:port       that port only (1..65535, decimal, no leading zeros)
 *   *.domain        every name below domain (at least one more label), not
 *                   domain itself; ports as for host. '*' is allowed only as
 *                   the whole first label, and domain must be a name
 *   *.domain:port
 *   1.2.3.4         an IP literal, in any spelling netaddr.h accepts
 *   1.2.3.4:port    ("0x7f.1" is 127.0.0.1); ports as for host
 *   ::1             a bare IPv6 literal (no port: the colons are taken)
 *   [::1]  [::1]:8080
 * Names match names and addresses match addresses: "localhost" never
 * matches 127.0.0.1. A v4-mapped IPv6 address (::ffff:a.b.c.d), in an
 * entry or a request, is taken as the IPv4 address it maps. An IP literal
 * on the deny-list also denies a requested IPv6 address that embeds it
 * (every form of netaddr.h: NAT64, 6to4, Teredo …). An IP literal allowed
 * by the allow-list is an explicit choice: hostlist_decision.ip_literal tells the
 * caller not to second-guess it with the resolved-address guard; an
 * allowed name must still be resolved and guarded (netaddr.h).
 *
 * Names are normalised before they are compared, in entries and requests
 * alike: one trailing dot is dropped; ASCII is lower-cased; a label is
 * letters, digits, '-' and '_' in ASCII, at most 63 bytes, and the name at
 * most 253 bytes after encoding; IDNA: a label holding non-ASCII (UTF-8,
 * strictly decoded) is mapped and encoded as an A-label "xn--…" with RFC
 * 3492 Punycode. The mapping is a subset of UTS 46 that cordon can do
 * without Unicode tables: upper case to lower case in Latin-1, Latin
 * Extended-A, Greek and Cyrillic; identity for lower-case letters of those
 * scripts and for Hebrew and Arabic letters, Thai, Hiragana, Katakana, CJK
 * ideographs (U+3400..U+4DBF, U+4E00..U+9FFF) and Hangul syllables. Any
 * other non-ASCII character is refused (write the A-label instead): a
 * character whose UTS 46 mapping or NFC form cordon cannot compute must
 * not give a second spelling of a denied name, so fullwidth letters, the
 * ideographic full stop, combining marks, zero-width and bidi characters,
 * 'İ', 'ſ' and the like are refused rather than guessed. An "xn--" label
 * must be valid Punycode that decodes to at least one non-ASCII character,
 * holds no refused character and no upper-case letter cordon knows, and
 * encodes back to itself; otherwise it is refused. A requested host that
 * is refused is denied with HOSTLIST_BAD_HOST; an entry that is refused is an
 * error.
 *
 * Errors name the entry by list and index and say why ("allow[3]
 * \"exa mple.com\": invalid character ' ' in a name"). Adding is all or
 * none. Limits: HOSTLIST_MAX_ENTRIES per list, HOSTLIST_MAX_ENTRY bytes of one entry;
 * exceeding one is CORDON_E_LIMIT naming it.
 */
#ifndef CORDON_HOSTLIST_H
#define CORDON_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon.h"
#include "netaddr.h"

#define HOSTLIST_MAX_ENTRIES 10000
#define HOSTLIST_MAX_ENTRY 512
#define HOSTLIST_MAX_NAME 253
#define HOSTLIST_MAX_LABEL 63

enum hostlist_list {
	HOSTLIST_ALLOW = 0,
	HOSTLIST_DENY = 1,
};

enum hostlist_reason {
	HOSTLIST_NO_ALLOW_ENTRY = 0,
	HOSTLIST_BAD_HOST,
	HOSTLIST_DENY_ENTRY,
	HOSTLIST_PORT_NOT_ALLOWED,
	HOSTLIST_ALLOW_ENTRY,
};

/* What hostlist_decide found. index, entry and canon name the deciding entry for
 * HOSTLIST_DENY_ENTRY, HOSTLIST_ALLOW_ENTRY and HOSTLIST_PORT_NOT_ALLOWED (there: the first
 * allow-list entry naming the host); entry is the text as written, canon
 * its normalised form ("xn--bcher-kva.de:8080", "[::1]:8080", IPv6 always
 * in brackets); both point into the policy and live as long as it does,
 * and are "" otherwise; entry_port is the entry's port (0: none). host
 * is the normalised requested host (an address in netaddr_format's text, without
 * brackets), "" for HOSTLIST_BAD_HOST, when why says what is wrong. */
struct hostlist_decision {
	bool allowed;
	enum hostlist_reason reason;
	enum hostlist_list list;
	size_t index;
	const char *entry;
	const char *canon;
	unsigned entry_port;
	bool ip_literal;
	struct netaddr_addr addr;
	unsigned port;
	char host[HOSTLIST_MAX_NAME + 1];
	const char *why;
};

struct hostlist_policy;

/* An empty policy: both lists empty, so everything is denied. NULL when out
 * of memory. */
struct hostlist_policy *hostlist_policy_new(void);
/* Accepts NULL. */
void hostlist_policy_free(struct hostlist_policy *p);

/* Appends entries[0..n) (NUL-terminated strings) to one list, all or none;
 * on error diag names "allow[i]" or "deny[i]" (i the index in entries), the
 * entry and the reason. Used for the configuration and for a session's
 * POST /allow alike. */
enum cordon_err hostlist_policy_add(struct hostlist_policy *p, enum hostlist_list which,
			      const char *const *entries, size_t n,
			      struct cordon_diag *diag);

size_t hostlist_policy_count(const struct hostlist_policy *p, enum hostlist_list which);
/* Entry i as written, and normalised; NULL when out of range. */
const char *hostlist_policy_entry(const struct hostlist_policy *p, enum hostlist_list which,
			    size_t i);
const char *hostlist_policy_canon(const struct hostlist_policy *p, enum hostlist_list which,
			    size_t i);

/* Decides a request for host[0..hlen) (a name, an IP literal, or a
 * bracketed IPv6 literal, without port) and port. p NULL denies. */
void hostlist_decide(const struct hostlist_policy *p, const char *host, size_t hlen,
	       unsigned port, struct hostlist_decision *d);

/* The decision in words, for a 403 reason and the audit log, ASCII only:
 *   allow-list entry 0 "example.com"
 *   deny-list entry 2 "*.evil.com"
 *   port 22 not allowed: allow-list entry 0 "example.com" allows ports 80
 *     and 443 only        (or "allows port 8080 only")
 *   no allow-list entry
 *   bad host: <why>
 * Truncates to size; returns buf. */
const char *hostlist_describe(const struct hostlist_decision *d, char *buf, size_t size);

/* Splits an authority "host", "host:port", "[v6]" or "[v6]:port"
 * (brackets kept in *host). false when the port is present but not
 * 1..65535 in decimal without leading zeros, the brackets do not close, or
 * a bare host holds more than one ':' (an unbracketed IPv6 literal is not
 * an authority). *port is 0 when there is none. */
bool hostlist_split_authority(const char *s, size_t len, const char **host,
			size_t *hostlen, unsigned *port);

/* Normalises a host as described above into out (NUL-terminated): a name
 * as A-labels in lower case without the trailing dot, an address as
 * netaddr_format text (v4-mapped given as IPv4) with *addr filled. Returns the
 * kind; NETADDR_HOST_INVALID with *why (static) saying what is wrong. */
enum netaddr_host hostlist_normalize_host(const char *s, size_t len,
			       char out[HOSTLIST_MAX_NAME + 1], struct netaddr_addr *addr,
			       const char **why);

/* The host of a URL "scheme://[userinfo@]host[:port][/?#…]", read as a
 * browser reads it (the last '@' ends the userinfo, '\\' ends the
 * authority, %XX in the host decoded) and normalised by
 * hostlist_normalize_host() into out, *addr filled for an IP literal. Without
 * "://" there is no host unless bare_ok, when the whole text is read as
 * starting with the authority. NETADDR_HOST_INVALID when there is none. */
enum netaddr_host hostlist_url_host(const char *url, bool bare_ok,
			 char out[HOSTLIST_MAX_NAME + 1], struct netaddr_addr *addr);

/* Is name[0..nlen) (A-labels, lower case, no trailing dot) a public suffix
 * by the Public Suffix List in list[0..len) (the text of
 * public_suffix_list.dat: one rule a line, "//" comments, "*." wildcard
 * and "!" exception rules; list may be NULL)? A single label always is
 * (the list's implicit "*" rule), so without a list every TLD is one. A
 * wildcard over a public suffix ("*.com", "*.co.uk", "*.github.io") lets
 * anyone who registers a name under it in. Rules in U-labels are compared
 * as written: they match only names given the same way. */
bool hostlist_public_suffix(const char *list, size_t len, const char *name,
			    size_t nlen);

/* RFC 3492 Punycode of one label, without "xn--". encode: cps[0..n) to
 * out (NUL-terminated, at most outsz - 1 characters); decode: s[0..len) to
 * at most max code points in cps, *n set. false on overflow, a bad digit,
 * an output too long, or a decoded value that is a surrogate or above
 * U+10FFFF. */
bool hostlist_punycode_encode(const uint32_t *cps, size_t n, char *out, size_t outsz);
bool hostlist_punycode_decode(const char *s, size_t len, uint32_t *cps, size_t max,
			size_t *n);

#endif
