/* rules — the table of rules.def (see rules.h). */
#include <assert.h>
#include <stddef.h>

#include "rules.h"
#include "banned.h"

#define L(name) CORDON_L(name)

/* Every id and reason of rules.def as a member of one object, so that
 * rules_catalog holds their offsets in it: no pointer for the loader to
 * relocate in every process. */
struct rules_text {
#define RULE(name, id, tier, labels, reason)                                   \
	char id_##name[sizeof(id)];                                            \
	char reason_##name[sizeof(reason)];
#include "rules.def"
#undef RULE
};

const struct rules_text rules_text = {
#define RULE(name, id, tier, labels, reason) id, reason,
#include "rules.def"
#undef RULE
};

static_assert(sizeof(struct rules_text) <= UINT16_MAX,
	      "rules.def's ids and reasons outgrow struct rule's offsets");

const struct rule rules_catalog[RULE__COUNT] = {
#define RULE(name, id, tier, labels, reason)                                   \
	[RULE_##name] = { offsetof(struct rules_text, id_##name),              \
			  offsetof(struct rules_text, reason_##name),          \
			  CORDON_RISK_##tier, labels },
#include "rules.def"
#undef RULE
};
