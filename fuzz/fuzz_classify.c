/* Fuzz target: classify arbitrary bytes as a command line, then render the
 * verdict as JSON. Checks the promises of cordon.h on every input: a verdict
 * that did not parse is never safe, an input over a limit is blocked, and
 * the JSON is always well-formed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "fuzz.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct cordon_context ctx = {
		.cwd = "/home/user/project",
		.workspace = "/home/user/project",
		.home = "/home/user",
		.tmpdir = "/tmp",
	};
	/* Built once: classifier setup compiles the deny patterns, which
	 * would otherwise dominate every run. */
	static struct cordon_classifier *cls;
	static struct cordon_verdict *v;
	struct cordon_diag diag;
	enum cordon_err rc;
	enum cordon_risk risk;
	cJSON *root;
	char *json;

	if (!cls)
		cls = cordon_classifier_new(NULL);
	if (!v)
		v = cordon_verdict_new();
	if (!cls || !v)
		abort();

	memset(&diag, 0, sizeof(diag));
	rc = cordon_classify(cls, &ctx, (const char *)data, size, v, &diag);
	risk = cordon_verdict_risk(v);
	if (risk > CORDON_RISK_BLOCKED)
		abort();
	if (rc != CORDON_OK && risk != CORDON_RISK_BLOCKED)
		abort();
	if (!cordon_verdict_parsed(v) &&
	    (risk == CORDON_RISK_SAFE ||
	     !(cordon_verdict_labels(v) & CORDON_L(UNPARSED))))
		abort();
	if (memchr(diag.message, '\0', sizeof(diag.message)) == NULL)
		abort();

	json = cordon_verdict_to_json(v);
	if (!json)
		abort();
	root = cJSON_Parse(json);
	if (!cJSON_IsObject(root))
		abort();
	cJSON_Delete(root);
	free(json);
	return 0;
}
