/* userrules — regex rules over command text (PCRE2 with JIT).
 *
 * Two uses: the user's rules in Steerable's CommandSafetyPattern shape (id,
 * label, description, pattern, category, severity, platform), and the
 * classifier's raw-line deny patterns (download-and-execute, fork bomb).
 * Matching is linear in practice (JIT, match limits set); a rule set is not
 * thread-safe (one match-data block is reused).
 */
#ifndef CORDON_USERRULES_H
#define CORDON_USERRULES_H

#include <stddef.h>
#include <stdint.h>

#include "cordon.h"

struct urules;

struct urule_match {
	const char *id;
	const char *label;       /* the rule's own label text, may be "" */
	const char *description; /* may be "" */
	const char *category;    /* may be "" */
	enum cordon_risk tier;   /* critical -> BLOCKED, warning -> CAUTION */
	uint64_t labels;         /* stable label bits to add (see userrules_add_pattern) */
};

/* An empty set holding at most max_rules rules. NULL when out of memory. */
struct urules *userrules_new(size_t max_rules);
/* Accepts NULL. */
void userrules_free(struct urules *u);
size_t userrules_count(const struct urules *u);

/* How many of the set's patterns are JIT-compiled: none before the set has
 * matched its ninth text (URULE_JIT_AFTER), all of them from then on where
 * PCRE2 has a JIT. For the tests. */
size_t userrules_jit_count(const struct urules *u);

/* Parses JSON (array of rules, or {"rules": [...]}) of at most max_bytes and
 * adds every rule, or none: on any error nothing is added and diag names the
 * key path ("rules[3].severity", "[0].pattern") or, for a bad regex, the
 * rule id and the offset in the pattern. Unknown fields are rejected by name.
 * Windows-only rules are accepted and kept but never match on Unix. */
enum cordon_err userrules_add_json(struct urules *u, const char *json, size_t len,
				size_t max_bytes, struct cordon_diag *diag);

/* Adds one rule given as struct cordon_user_rule (public header); the same
 * validation as one element of the JSON. labels of the match: USER_RULE. */
enum cordon_err userrules_add(struct urules *u, const struct cordon_user_rule *r,
			   struct cordon_diag *diag);

/* Adds a built-in pattern (no JSON): tier and stable label bits given
 * directly; description is the reason shown. Strings are copied. */
enum cordon_err userrules_add_pattern(struct urules *u, const char *id,
				   const char *pattern, enum cordon_risk tier,
				   uint64_t labels, const char *description,
				   struct cordon_diag *diag);

/* Calls cb once for every rule whose pattern matches somewhere in
 * text[0..len) (text may hold NUL bytes). Returns the number of matches. */
size_t userrules_match(struct urules *u, const char *text, size_t len,
		    void (*cb)(void *ud, const struct urule_match *m), void *ud);

#endif
