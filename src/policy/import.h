/* import — Claude Code and srt settings turned into cordon configuration
 * documents (JSON text), for `cordon import`, the hook (which merges
 * Claude Code's settings files as Claude Code does) and `--srt-settings`.
 * Rules are checked with the matcher's reader (ccperm.h). */
#ifndef CORDON_IMPORT_H
#define CORDON_IMPORT_H

#include <stddef.h>

#include "cordon.h"

/* Claude Code settings (settings.json / settings.local.json: the
 * "permissions" object with allow, ask, deny, additionalDirectories,
 * defaultMode) into a cordon configuration document:
 * {"permissions": {"allow": […], "ask": […], "deny": […], "root": DIR},
 *  "safety": {"permission_mode": …}} where DIR is the project root the
 * settings file belongs to (the parent of its .claude directory; for
 * ~/.claude/settings.json, null). Rules are validated (a bad one is an
 * error naming "permissions.allow[2]"); keys cordon does not use are
 * listed in *warnings (malloc'd text, one per line, or NULL).
 * settings_path may be NULL (then root is null). *out malloc'd. */
enum cordon_err import_claude_settings(const char *json, size_t len,
				       const char *settings_path, char **out,
				       char **warnings,
				       struct cordon_diag *diag);

/* srt settings (~/.srt-settings.json: filesystem.denyRead, allowRead,
 * allowWrite, denyWrite; network.allowedDomains, deniedDomains,
 * allowUnixSockets, allowLocalBinding) into a cordon configuration
 * document (safety.sandbox.deny_read / allow_write / deny_write,
 * network.allowedDomains / deniedDomains / allowUnixSockets /
 * allowLocalBinding). What cordon cannot express exactly is made stricter
 * and said in *warnings (allowRead inside a denied path is dropped). */
enum cordon_err import_srt_settings(const char *json, size_t len, char **out,
				    char **warnings, struct cordon_diag *diag);

#endif
