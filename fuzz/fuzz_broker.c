/* Fuzz target: the console's reading of a door's request line and the
 * door's reading of the console's answer (src/policy/broker.c). A request
 * that parses has every required member, a known kind, tier and sandbox,
 * and labels that are label bits; parsing it twice gives the same; an
 * answer is -1 or one of the eight. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "fuzz.h"

#include "banned.h"

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct broker_request a, b;
	char why[256];
	int ans;

	bool family = false;
	ans = broker_parse_answer(s, size, &family);
	if (ans < -1 || ans > CORDON_ANSWER_TIMED_OUT)
		abort();
	/* a family only with a grant that allows beyond this call */
	if (family && ans != CORDON_ANSWER_ALLOW_SESSION &&
	    ans != CORDON_ANSWER_ALLOW_ALWAYS)
		abort();
	if (broker_parse_request(s, size, &a, why, sizeof(why)) != CORDON_OK) {
		if (a.tool || a.args || a.door)
			abort(); /* an error leaves it empty */
		return 0;
	}
	if (!a.door || !a.tool || !a.kind || !a.reason || !a.sandbox ||
	    !a.args || cordon_kind_from_name(a.kind) < 0)
		abort();
	if (broker_parse_request(s, size, &b, why, sizeof(why)) == CORDON_OK) {
		if (!same(a.tool, b.tool) || !same(a.command, b.command) ||
		    !same(a.session, b.session) || !same(a.risk, b.risk) ||
		    a.labels != b.labels || a.exact_only != b.exact_only ||
		    a.timeout_ms != b.timeout_ms)
			abort();
		broker_request_free(&b);
	}
	broker_request_free(&a);
	return 0;
}
