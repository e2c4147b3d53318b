/* Error strings, default limits, and the names of tiers and labels. */
#include <string.h>

#include "cordon.h"
#include "tap.h"

static void test_strerror(void)
{
	is_str(cordon_strerror(CORDON_OK), "success", "strerror(OK)");
	is_str(cordon_strerror(CORDON_E_LIMIT), "input limit exceeded",
	       "strerror(E_LIMIT)");
	is_str(cordon_strerror(CORDON_E_JSON), "malformed JSON",
	       "strerror(E_JSON)");
	is_str(cordon_strerror((enum cordon_err)999), "unknown error",
	       "strerror of an unknown code is not NULL");
#define CHECK_ERR(name, val, msg)                                              \
	ok(strcmp(cordon_strerror(CORDON_##name), msg) == 0 &&                 \
		   (int)CORDON_##name == (val),                                \
	   "CORDON_" #name " = %d, \"%s\"", (val), msg);
	CORDON_ERR_MAP(CHECK_ERR)
#undef CHECK_ERR
}

static void test_limits(void)
{
	struct cordon_limits lim;

	memset(&lim, 0, sizeof(lim));
	cordon_limits_default(&lim);
	is_int((long long)lim.max_input_bytes, 1024 * 1024, "max_input_bytes");
	is_int((long long)lim.max_tokens, 100000, "max_tokens");
	is_int(lim.max_nesting, 200, "max_nesting");
	is_int(lim.max_heredocs, 64, "max_heredocs");
	is_int(lim.max_payload_depth, 4, "max_payload_depth");
	is_int((long long)lim.max_rules, 1000, "max_rules");
	is_int((long long)lim.max_rules_bytes, 1024 * 1024, "max_rules_bytes");
	is_int((long long)lim.max_batch_line, 1024 * 1024, "max_batch_line");
	cordon_limits_default(NULL);
	ok(1, "cordon_limits_default(NULL) does not crash");
}

static void test_risk_names(void)
{
	is_str(cordon_risk_name(CORDON_RISK_SAFE), "safe", "safe");
	is_str(cordon_risk_name(CORDON_RISK_CAUTION), "caution", "caution");
	is_str(cordon_risk_name(CORDON_RISK_DESTRUCTIVE), "destructive",
	       "destructive");
	is_str(cordon_risk_name(CORDON_RISK_BLOCKED), "blocked", "blocked");
	ok(cordon_risk_name((enum cordon_risk)7) != NULL,
	   "an out-of-range tier still has a name");
}

static void test_labels(void)
{
	int all_round_trip = 1;

	is_str(cordon_label_name(CORDON_LABEL_BIT_DELETE), "delete",
	       "first label");
	is_str(cordon_label_name(CORDON_LABEL_BIT_DEPTH_LIMIT), "depth-limit",
	       "last label");
	ok(cordon_label_name(CORDON_LABEL_COUNT) == NULL,
	   "label_name past the end is NULL");
	ok(CORDON_LABEL_COUNT <= 64, "labels fit in 64 bits (%d)",
	   (int)CORDON_LABEL_COUNT);

	for (unsigned i = 0; i < CORDON_LABEL_COUNT; i++) {
		const char *n = cordon_label_name(i);

		if (!n || cordon_label_from_name(n, strlen(n)) != (int)i) {
			diag("label %u (%s) does not round-trip", i,
			     n ? n : "NULL");
			all_round_trip = 0;
		}
		for (unsigned j = 0; n && j < i; j++) {
			if (strcmp(n, cordon_label_name(j)) == 0) {
				diag("label %s appears twice", n);
				all_round_trip = 0;
			}
		}
	}
	ok(all_round_trip, "every label name is unique and round-trips");

	is_int(cordon_label_from_name("fork-bomb", 9),
	       CORDON_LABEL_BIT_FORK_BOMB, "from_name(fork-bomb)");
	is_int(cordon_label_from_name("fork-bombX", 9),
	       CORDON_LABEL_BIT_FORK_BOMB, "from_name uses len, not the NUL");
	is_int(cordon_label_from_name("fork", 4), -1, "prefix is unknown");
	is_int(cordon_label_from_name("fork-bomb-x", 11), -1,
	       "longer name is unknown");
	is_int(cordon_label_from_name("", 0), -1, "empty name is unknown");
	is_int(cordon_label_from_name(NULL, 0), -1, "NULL name is unknown");
	is_int(cordon_label_from_name("dele\0te", 7), -1,
	       "a NUL inside the name does not match");
}

int main(void)
{
	tap_no_plan();
	test_strerror();
	test_limits();
	test_risk_names();
	test_labels();
	return tap_done();
}
