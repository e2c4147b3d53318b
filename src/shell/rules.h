/* rules — the catalog of the classifier's rules that code decides: the
 * rows of rules.def as an enum and a table. Call sites report a row with
 * classify_rule() and its kin (classify_int.h).
 */
#ifndef CORDON_RULES_H
#define CORDON_RULES_H

#include <stdint.h>

#include "cordon.h"

enum rule_id {
#define RULE(name, id, tier, labels, reason) RULE_##name,
#include "rules.def"
#undef RULE
	RULE__COUNT
};

struct rule {
	const char *id;
	enum cordon_risk tier;
	uint64_t labels;
	const char *reason; /* a sentence, or a format (RULE_FMT_NAME) */
};

/* Indexed by enum rule_id. */
extern const struct rule rules_catalog[RULE__COUNT];

#endif
