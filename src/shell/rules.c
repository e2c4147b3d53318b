/* rules — the table of rules.def (see rules.h). */
#include "rules.h"
#include "banned.h"

#define L(name) CORDON_L(name)

const struct rule rules_catalog[RULE__COUNT] = {
#define RULE(name, id, tier, labels, reason)                                   \
	[RULE_##name] = { id, CORDON_RISK_##tier, labels, reason },
#include "rules.def"
#undef RULE
};
