/* pins — trust on first use for MCP tool definitions.
 *
 * The pins file ($XDG_STATE_HOME/cordon/mcp-pins.json unless mcp.pins_path
 * or --pins says otherwise; 0600, its directory 0700), written atomically
 * (temp file, fsync, rename, directory fsync) under an flock on
 * "<path>.lock", re-read under the lock before every change so two
 * gateways never lose each other's pins:
 *
 * {"version": 1, "servers": {"<server>": {
 *    "firstSeen": "<RFC 3339>",
 *    "instructions": {"sha256": "…" | null, "text": "…" | null,
 *                     "reason": "…", "flags": […],   (reason: pending only)
 *                     "pending": {"sha256": "…", "text": "…"}},
 *    "tools": {"<tool>": {
 *       "state": "approved" | "pending",
 *       "reason": "new" | "changed" | "flagged",     (pending only)
 *       "flags": ["tool-poisoning", "hidden-characters", …],
 *       "sha256": "<approved fingerprint>" | null,    (null: never approved)
 *       "definition": {…approved tool object…} | null,
 *       "pending": {"sha256": "…", "definition": {…}}, (pending only)
 *       "firstSeen": "…", "approvedAt": "…"}}}}}
 *
 * A fingerprint is jcs_fingerprint() of the whole tool object. Rules of
 * pins_observe():
 *   - a server never seen: each tool is pinned approved (trust on first
 *     use), except a flagged one (mcpscan found hidden characters or
 *     poisoning), which starts pending with reason "flagged";
 *   - a known tool with the approved fingerprint: approved, nothing written;
 *   - a known tool with another fingerprint: pending, reason "changed"
 *     (the approved definition is kept: calls are denied until approved);
 *   - a tool not seen before on a known server: pending, reason "new",
 *     unless new_tools_trusted (then as on first use);
 * the same for the server's instructions (pending instructions do not
 * block calls; they are reported, audited and shown by `pins list`).
 * A corrupt pins file is an error (CORDON_E_CONFIG naming the key path);
 * it is never overwritten.
 */
#ifndef CORDON_MCPPIN_H
#define CORDON_MCPPIN_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cordon.h"

struct mcp_pins;

enum pin_state {
	PIN_APPROVED = 0,
	PIN_PENDING_NEW = 1,
	PIN_PENDING_CHANGED = 2,
	PIN_PENDING_FLAGGED = 3,
	PIN_UNKNOWN = 4, /* pins_lookup: not in the file */
};

/* "approved", "pending-new", "pending-changed", "pending-flagged",
 * "unknown". */
const char *pins_state_name(enum pin_state s);

/* The default path: $XDG_STATE_HOME/cordon/mcp-pins.json, else
 * $HOME/.local/state/cordon/mcp-pins.json. 0, or -1 when neither is set or
 * it does not fit. */
int pins_default_path(char *buf, size_t cap);

/* Loads path (a missing file is an empty store). diag names the path and
 * the key path on a corrupt file. */
enum cordon_err pins_open(const char *path, struct mcp_pins **out,
			  struct cordon_diag *diag);
void pins_free(struct mcp_pins *p);

/* What pins_observe() concluded about one tool. */
struct pin_event {
	enum pin_state state;
	bool changed_file;   /* the file was written */
	bool first_use;      /* pinned now by trust on first use */
	unsigned scan_flags; /* MCPSCAN_* */
	char fingerprint[65];
	char detail[256];    /* "description changed", findings … */
};

/* Observes the tools of one tools/list answer (tools: a JSON array of tool
 * objects). server_known is what pins_server_known() said before the first
 * page of this listing (pages are observed one by one; the first page
 * creates the server's entry, and the later pages must still count as
 * first use). events gets one entry per tool, in order (malloc'd, the
 * caller frees; *nevents). */
enum cordon_err pins_observe(struct mcp_pins *p, const char *server,
			     const cJSON *tools, bool server_known,
			     bool new_tools_trusted,
			     struct pin_event **events, size_t *nevents,
			     struct cordon_diag *diag);
/* The same for the server's instructions (NULL: none). */
enum cordon_err pins_observe_instructions(struct mcp_pins *p,
					  const char *server,
					  const char *instructions,
					  struct pin_event *ev,
					  struct cordon_diag *diag);
/* 1 when the server's tools have been listed before (its entry has a
 * "tools" object; an entry made by pins_observe_instructions() alone does
 * not count, so the first tools/list after initialize is still a first
 * use). */
bool pins_server_known(const struct mcp_pins *p, const char *server);

/* Re-reads the file when it changed on disk since it was read (another
 * process approved, reset or pinned): one stat() when it did not. *changed
 * (may be NULL) says whether it was re-read. pins_observe*() do this
 * themselves; call it before pins_lookup() to see approvals made by
 * `cordon mcp pins approve` while a gateway runs. On an error (a corrupt
 * file) p keeps what it had. */
enum cordon_err pins_refresh(struct mcp_pins *p, bool *changed,
			     struct cordon_diag *diag);

/* A tool's state and its approved definition (borrowed from p, NULL when
 * never approved). */
enum pin_state pins_lookup(const struct mcp_pins *p, const char *server,
			   const char *tool, const cJSON **approved);

/* Approves the pending version of one tool (tool NULL: every pending tool
 * and the pending instructions of the server). *napproved (may be NULL)
 * counts them; CORDON_E_INVAL when the server or tool is unknown. */
enum cordon_err pins_approve(struct mcp_pins *p, const char *server,
			     const char *tool, size_t *napproved,
			     struct cordon_diag *diag);
/* Forgets a server (its next tools/list is a first use again). */
enum cordon_err pins_reset(struct mcp_pins *p, const char *server,
			   struct cordon_diag *diag);

/* The store as JSON for `pins list --json` (malloc'd). */
char *pins_to_json(const struct mcp_pins *p);
/* The approved and pending definitions of one tool (borrowed; NULL when
 * absent), for `pins diff`. */
enum cordon_err pins_versions(const struct mcp_pins *p, const char *server,
			      const char *tool, const cJSON **approved,
			      const cJSON **pending);

#endif
