/* verdict_json — a verdict as the classify object of DESIGN.md, the text
 * cordon_verdict_to_json() returns. */
#ifndef CORDON_VERDICT_JSON_H
#define CORDON_VERDICT_JSON_H

#include <stdbool.h>

struct buf;
struct cordon_verdict;

/* Appends v's object to b (no newline), so a batch writes every line into
 * one buffer instead of a malloc'd string each. False when b failed (out
 * of memory, or its ceiling); what was added of the object is then not
 * to be used. */
bool verdict_json_add(struct buf *b, const struct cordon_verdict *v);

#endif
