/* Fuzz target: load arbitrary lines as allow-list ("+" first) and deny-list
 * ("-" first) entries and decide the last line as a host, with a port from
 * the first byte. A failed load adds nothing and says why; normalising a
 * host is idempotent; an allowed request names an allow-list entry and no
 * deny-list entry matches it; every description is printable ASCII; a
 * Punycode string that decodes encodes back to a string that decodes to
 * the same code points; read as a Public Suffix List, the input makes
 * every single label a public suffix. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hostlist.h"

#include "banned.h"

static void check_punycode(const char *s, size_t len)
{
	uint32_t cps[128], again[128];
	size_t n, m;
	char out[1024];

	if (!hostlist_punycode_decode(s, len, cps, 128, &n))
		return;
	if (!hostlist_punycode_encode(cps, n, out, sizeof(out)))
		return;
	if (!hostlist_punycode_decode(out, strlen(out), again, 128, &m) || m != n ||
	    memcmp(cps, again, n * sizeof(*cps)) != 0)
		abort();
}

static void check_normalise(const char *s, size_t len)
{
	char out[HOSTLIST_MAX_NAME + 1], twice[HOSTLIST_MAX_NAME + 1];
	struct netaddr_addr a, b;
	const char *why;
	enum netaddr_host k = hostlist_normalize_host(s, len, out, &a, &why);

	if (k == NETADDR_HOST_INVALID) {
		if (!why || out[0] != '\0')
			abort();
		return;
	}
	if (hostlist_normalize_host(out, strlen(out), twice, &b, &why) != k ||
	    strcmp(out, twice) != 0)
		abort();
	if (k == NETADDR_HOST_IP && !netaddr_equal(&a, &b))
		abort();
	for (size_t i = 0; out[i]; i++)
		if ((unsigned char)out[i] < 0x21 ||
		    (unsigned char)out[i] > 0x7e)
			abort();
}

static void check_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hostlist_policy *p;
	struct cordon_diag diag;
	struct hostlist_decision d;
	const char *lines[2][32];
	size_t n[2] = { 0, 0 };
	char *copy, *s, *last;
	unsigned port;
	char buf[512];

	if (size < 1 || size > 8192)
		return 0;
	port = data[0] < 200 ? data[0] == 0 ? 443 : data[0] : 80;
	copy = malloc(size);
	p = hostlist_policy_new();
	if (!copy || !p)
		abort();
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	s = copy;
	last = s;
	for (;;) {
		char *nl = strchr(s, '\n');

		if (!nl)
			break;
		*nl = '\0';
		if ((s[0] == '+' || s[0] == '-') && n[s[0] == '-'] < 32)
			lines[s[0] == '-'][n[s[0] == '-']++] = s + 1;
		s = nl + 1;
		last = s;
	}
	/* The input read as a Public Suffix List, the last line as the
	 * name: a single label is always a public suffix, and the answer
	 * does not depend on the text after a NUL-free copy. */
	{
		size_t ll = strlen(last);
		bool ps = hostlist_public_suffix((const char *)data + 1,
						 size - 1, last, ll);

		if (ll > 0 && !memchr(last, '.', ll) && !ps)
			abort();
		if (ps != hostlist_public_suffix((const char *)data + 1,
						 size - 1, last, ll))
			abort();
	}
	for (int l = 0; l < 2; l++) {
		enum cordon_err rc = hostlist_policy_add(p, (enum hostlist_list)l, lines[l],
						   n[l], &diag);

		if (rc != CORDON_OK &&
		    (hostlist_policy_count(p, (enum hostlist_list)l) != 0 ||
		     diag.message[0] == '\0'))
			abort();
		if (rc == CORDON_OK) {
			check_ascii(diag.message);
			for (size_t i = 0; i < n[l]; i++)
				check_normalise(lines[l][i],
						strlen(lines[l][i]));
		}
	}
	hostlist_decide(p, last, strlen(last), port, &d);
	check_ascii(hostlist_describe(&d, buf, sizeof(buf)));
	if (d.allowed) {
		struct hostlist_decision again;
		size_t hl = strlen(d.host);

		if (d.reason != HOSTLIST_ALLOW_ENTRY ||
		    d.index >= hostlist_policy_count(p, HOSTLIST_ALLOW))
			abort();
		/* The normalised host decides the same. */
		hostlist_decide(p, d.host, hl, port, &again);
		if (!again.allowed || again.index != d.index)
			abort();
	} else if (d.reason == HOSTLIST_ALLOW_ENTRY) {
		abort();
	}
	check_normalise(last, strlen(last));
	check_punycode(last, strlen(last));
	hostlist_policy_free(p);
	free(copy);
	return 0;
}
