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

/* A row: its id and reason (a sentence, or a format RULE_FMT_NAME) are
 * offsets into rules_text, read with rules_id() and rules_reason(), so
 * the loader relocates nothing in the table. */
struct rule {
	uint16_t id, reason;
	enum cordon_risk tier;
	uint64_t labels;
};

/* Indexed by enum rule_id. */
extern const struct rule rules_catalog[RULE__COUNT];

/* rules.def's strings, one object (rules.c). */
extern const struct rules_text rules_text;

static inline const char *rules_id(enum rule_id r)
{
	return (const char *)&rules_text + rules_catalog[r].id;
}

static inline const char *rules_reason(enum rule_id r)
{
	return (const char *)&rules_text + rules_catalog[r].reason;
}

#endif
