/* Fuzz target: one tool call through the policy with the built-in
 * configuration and a command rule set. The input is "TOOL\nARGS": the
 * first line is the tool name, the rest the arguments' JSON text (any
 * bytes). Invariants: evaluate never fails on a valid policy, the decision
 * is one of the three, a denial's reason is agent-readable ("blocked: " or
 * "validation error: "), the result's JSON is produced, and evaluating the
 * same call twice gives the same decision and step (no hidden state). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cordon.h"
#include "fuzz.h"

#include "banned.h"

static struct cordon_config *cfg;
static struct cordon_policy *pol;
static struct cordon_result *res;

static void setup(void)
{
	static const char conf[] =
		"{\"safety\": {\"permission_mode\": \"auto\","
		" \"command_rules\": [{\"prefix\": [\"git\", \"push\"],"
		" \"decision\": \"deny\"}, {\"prefix\": [\"npm\", \"test\"],"
		" \"decision\": \"allow\"}],"
		" \"path_rules\": [{\"pattern\": \"**/docs/**\", \"access\":"
		" \"write\", \"decision\": \"ask\"}],"
		" \"arg_limits\": {\"deploy\": {\"env\": {\"choices\":"
		" [\"a\", \"b\"]}}}}}";
	struct cordon_context ctx = {NULL, "/fuzz/work", "/fuzz/home", "/tmp"};

	cfg = cordon_config_new();
	if (!cfg || cordon_config_load_json(cfg, conf, sizeof(conf) - 1, "fuzz",
					    CORDON_CONFIG_EXPLICIT,
					    NULL) != CORDON_OK ||
	    cordon_policy_new(cfg, &ctx, &pol, NULL) != CORDON_OK)
		abort();
	res = cordon_result_new();
	if (!res)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char tool[128];
	const char *nl = memchr(data, '\n', size);
	size_t tl = nl ? (size_t)(nl - (const char *)data) : size;

	if (!pol)
		setup();
	if (tl >= sizeof(tool) || memchr(data, '\0', tl))
		return 0;
	memcpy(tool, data, tl);
	tool[tl] = '\0';
	const char *args = nl ? nl + 1 : NULL;
	size_t alen = nl ? size - tl - 1 : 0;
	/* args_len 0 means "NUL-terminated": give a terminated copy. */
	char *copy = NULL;
	if (args) {
		copy = malloc(alen + 1);
		if (!copy)
			return 0;
		memcpy(copy, args, alen);
		copy[alen] = '\0';
	}
	struct cordon_call call = {tool, copy, alen ? alen : 0, "/fuzz/work/sub",
				   "s", NULL};
	if (copy && alen == 0)
		call.args_json = "";
	if (cordon_policy_evaluate(pol, &call, res, NULL) != CORDON_OK)
		abort();
	enum cordon_decision d = cordon_result_decision(res);
	if (d != CORDON_ALLOW && d != CORDON_DENY && d != CORDON_ASK)
		abort();
	const char *why = cordon_result_reason(res);
	if (d == CORDON_DENY && strncmp(why, "blocked: ", 9) != 0 &&
	    strncmp(why, "validation error: ", 18) != 0)
		abort();
	char step[64];
	size_t sl = strlen(cordon_result_step(res));
	if (sl >= sizeof(step))
		abort();
	memcpy(step, cordon_result_step(res), sl + 1);
	char *js = cordon_result_to_json(res);
	if (!js)
		abort();
	free(js);
	if (cordon_policy_evaluate(pol, &call, res, NULL) != CORDON_OK ||
	    cordon_result_decision(res) != d ||
	    strcmp(cordon_result_step(res), step) != 0)
		abort();
	free(copy);
	return 0;
}
