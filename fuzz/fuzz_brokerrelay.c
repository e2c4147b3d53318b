/* Fuzz target: the broker relay's judge (`cordon run`'s side of what a
 * door inside its sandbox asks, src/policy/broker.c). A message it passes
 * comes out as one line the console reads, marked as relayed by this run,
 * with the run's sandbox and a deadline no longer than the run's; judged
 * again, that line is refused (a door cannot claim a relay); its tier is
 * the run's own for a command, none without one; its session and reason
 * hold no control, bidi control or line separator; a refusal leaves
 * nothing out and says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "fuzz.h"
#include "text.h"

#include "banned.h"

static struct broker_relay_run run = {
	.id = "0123456789abcdef0123456789abcdef",
	.command = "cordon run -- claude",
	.sandbox = "partial",
	.max_timeout_ms = 120000,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct broker_request q;
	char why[256], *out = NULL, *again = NULL;
	size_t n = 0, m = 0;
	unsigned t = 0, t2 = 0;

	if (!run.cls) {
		run.cls = cordon_classifier_new(NULL);
		run.verdict = cordon_verdict_new();
	}
	why[0] = '\0';
	if (broker_relay_judge(s, size, &run, &out, &n, &t, why, sizeof(why)) !=
	    CORDON_OK) {
		if (out || n || !why[0])
			abort();
		return 0;
	}
	if (!out || n != strlen(out) || n < 2 || out[n - 1] != '\n' ||
	    memchr(out, '\n', n - 1) || t > run.max_timeout_ms)
		abort();
	if (broker_parse_request(out, n, &q, why, sizeof(why)) != CORDON_OK)
		abort();
	if (!q.relay_run || strcmp(q.relay_run, run.id) != 0 ||
	    strcmp(q.relay_command, run.command) != 0 ||
	    strcmp(q.sandbox, run.sandbox) != 0 || q.timeout_ms != t)
		abort();
	if (!q.command != !q.risk ||
	    text_unshowable_at(q.reason, strlen(q.reason)) !=
		    strlen(q.reason) ||
	    (q.session && text_unshowable_at(q.session, strlen(q.session)) !=
				  strlen(q.session)))
		abort();
	broker_request_free(&q);
	if (broker_relay_judge(out, n, &run, &again, &m, &t2, why,
			       sizeof(why)) != CORDON_E_INVAL ||
	    again)
		abort();
	free(out);
	return 0;
}
