/* Fuzz target: parse arbitrary bytes as an address, a URL host and a list
 * of CIDR ranges (one a line). A parsed address must print canonically and
 * parse back to itself; netaddr_parse and netaddr_parse_host must agree on what is an
 * IP literal; a v4-mapped address must be judged as the IPv4 inside; a
 * failed range load must add nothing and say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "netaddr.h"

#include "banned.h"

static void check_address(const struct netaddr_addr *a)
{
	struct netaddr_addr back, mapped;
	struct netaddr_verdict v, mv;
	char buf[NETADDR_ADDRSTRLEN], name[64];
	const char *n;

	netaddr_format(a, buf);
	if (!netaddr_parse(buf, strlen(buf), &back) || !netaddr_equal(a, &back))
		abort();
	netaddr_classify(NULL, a, &v);
	n = netaddr_verdict_name(&v);
	if (!n || !*n || netaddr_denied(&v) != (strcmp(n, "public") != 0))
		abort();
	if (a->family != NETADDR_INET)
		return;
	memset(&mapped, 0, sizeof(mapped));
	mapped.family = NETADDR_INET6;
	mapped.b[10] = 0xff;
	mapped.b[11] = 0xff;
	memcpy(mapped.b + 12, a->b, 4);
	netaddr_classify(NULL, &mapped, &mv);
	if (v.cls == NETADDR_CLASS_PUBLIC) {
		if (mv.cls != NETADDR_CLASS_PUBLIC)
			abort();
		return;
	}
	memcpy(name, "embedded-ipv4:", 15);
	memcpy(name + 14, n, strlen(n) + 1);
	if (strcmp(netaddr_verdict_name(&mv), name) != 0 ||
	    mv.embed != NETADDR_EMBED_V4_MAPPED)
		abort();
}

static void check_ranges(const char *s, size_t size)
{
	const char *lines[64];
	char *copy = malloc(size + 1);
	struct netaddr_guard *g = netaddr_guard_new();
	struct cordon_diag diag;
	size_t n = 0;
	char *p;

	if (!copy || !g)
		abort();
	memcpy(copy, s, size);
	copy[size] = '\0';
	p = copy;
	while (n < 64) {
		char *nl = strchr(p, '\n');

		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	if (netaddr_guard_add_ranges(g, lines, n, &diag) != CORDON_OK) {
		if (netaddr_guard_range_count(g) != 0 || diag.message[0] == '\0' ||
		    !memchr(diag.message, '\0', sizeof(diag.message)))
			abort();
	} else {
		struct netaddr_addr a;
		struct netaddr_verdict v;

		if (netaddr_guard_range_count(g) != n)
			abort();
		/* Each range's own network address is inside it. */
		for (size_t i = 0; i < n; i++) {
			const char *t = netaddr_guard_range_text(g, i);
			const char *slash = strchr(t, '/');

			if (!slash ||
			    !netaddr_parse_strict(t, (size_t)(slash - t), &a))
				abort();
			netaddr_classify(g, &a, &v);
			if (!netaddr_denied(&v))
				abort();
		}
	}
	netaddr_guard_free(g);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct netaddr_addr a, h;
	enum netaddr_host kind;
	bool parsed;

	parsed = netaddr_parse(s, size, &a);
	kind = netaddr_parse_host(s, size, &h);
	if (parsed != (kind == NETADDR_HOST_IP))
		abort();
	if (parsed) {
		if (!netaddr_equal(&a, &h))
			abort();
		check_address(&a);
	}
	if (netaddr_parse_strict(s, size, &a)) {
		struct netaddr_addr b;

		if (!netaddr_parse(s, size, &b) || !netaddr_equal(&a, &b))
			abort();
	}
	if (size <= 4096)
		check_ranges(s, size);
	return 0;
}
