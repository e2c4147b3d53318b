/* mcpscan — what a tool's text hides or asks of the model.
 *
 * Scans every string in a tool object (name, title, description, the
 * descriptions and titles anywhere in inputSchema/outputSchema,
 * annotations) and a server's instructions for:
 *   - hidden characters: Unicode tag characters (U+E0000–U+E007F, which can
 *     spell ASCII the user never sees: their decoded text is scanned too),
 *     zero-width characters (U+200B–U+200D, U+2060, U+FEFF, U+180E …), bidi
 *     controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C);
 *   - instruction-like text aimed at the model ("tool-poisoning"): "ignore
 *     (all) previous/prior/above instructions", "<IMPORTANT>" and similar
 *     tags, "do not tell/mention … the user", requests to read secrets
 *     (~/.ssh, id_rsa, .env, credentials, mcp.json, API keys) or to pass
 *     them as an argument, "before using this tool … first …", overriding
 *     other tools' behaviour. Matched on a normalised copy (case folded,
 *     hidden characters removed, whitespace collapsed) so spacing and case
 *     tricks do not hide it. Generalising phrases, not one corpus line.
 * Pure; fuzzed.
 */
#ifndef CORDON_MCPSCAN_H
#define CORDON_MCPSCAN_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define MCPSCAN_HIDDEN_TAG 0x1u    /* Unicode tag characters */
#define MCPSCAN_ZERO_WIDTH 0x2u
#define MCPSCAN_BIDI 0x4u
#define MCPSCAN_POISONING 0x8u     /* label "tool-poisoning" */
#define MCPSCAN_BAD_UTF8 0x10u
#define MCPSCAN_UNSCANNED 0x20u    /* not scanned (out of memory, nested past
				    * 128 levels): counts as flagged */

struct mcpscan_result {
	unsigned flags;
	size_t nfindings;          /* may exceed 8: only 8 are kept */
	char findings[8][192];     /* "description: U+E0041 … (tag characters
				    * spelling \"ignore …\")", "inputSchema.
				    * properties.x.description: asks to read
				    * ~/.ssh (tool-poisoning)" */
};

/* Scans a tool object (any JSON value: every string in it). Adds to r
 * (zero it first). */
void mcpscan_tool(const cJSON *tool, struct mcpscan_result *r);
/* Scans one string; where names the field in findings. */
void mcpscan_text(const char *s, size_t len, const char *where,
		  struct mcpscan_result *r);

/* The label of one flag bit: "tag-characters", "zero-width-characters",
 * "bidi-controls", "tool-poisoning", "invalid-utf8", "unscanned"; NULL for
 * anything else. */
const char *mcpscan_flag_name(unsigned flag);

/* s[0..len) for display: hidden and control characters as \u{XXXX},
 * invalid UTF-8 as \xNN, everything else as is. malloc'd; NULL on OOM. */
char *mcpscan_escape(const char *s, size_t len);

#endif
