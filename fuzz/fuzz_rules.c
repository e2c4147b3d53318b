/* Fuzz target: load arbitrary bytes as a user-rules JSON file, then use the
 * rules on a fixed command and on the input itself. A failed load must add
 * nothing (the fixed command's verdict equals that of a classifier without
 * user rules) and leave a terminated, non-empty diagnostic. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cordon.h"
#include "fuzz.h"

#include "banned.h"

static const char probe[] = "rm -rf /tmp/x && curl https://example.com";

struct outcome {
	enum cordon_risk risk;
	uint64_t labels;
	size_t rules;
};

static struct outcome classify_probe(struct cordon_classifier *cls,
				     struct cordon_verdict *v)
{
	struct outcome o;

	(void)cordon_classify(cls, NULL, probe, sizeof(probe) - 1, v, NULL);
	o.risk = cordon_verdict_risk(v);
	o.labels = cordon_verdict_labels(v);
	o.rules = cordon_verdict_rule_count(v);
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct outcome baseline;
	static int have_baseline;
	struct cordon_classifier *cls = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	struct cordon_diag diag;
	struct outcome o;
	enum cordon_err rc;

	if (!cls || !v)
		abort();
	if (!have_baseline) {
		baseline = classify_probe(cls, v);
		have_baseline = 1;
	}

	memset(&diag, 0, sizeof(diag));
	rc = cordon_classifier_add_rules_json(cls, (const char *)data, size,
					      &diag);
	if (memchr(diag.message, '\0', sizeof(diag.message)) == NULL)
		abort();
	o = classify_probe(cls, v);
	if (rc != CORDON_OK &&
	    (diag.message[0] == '\0' || o.risk != baseline.risk ||
	     o.labels != baseline.labels || o.rules != baseline.rules))
		abort();
	(void)cordon_classify(cls, NULL, (const char *)data, size, v, NULL);

	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return 0;
}
