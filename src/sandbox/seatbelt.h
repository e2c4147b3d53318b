/* seatbelt — the macOS Seatbelt profile cordon would use (on paper).
 *
 * From the same options as the Linux sandbox: (deny default); process
 * exec/fork allowed; file reads open except the credential locations and
 * --deny-read paths; file writes only to the writable roots and temp dirs
 * (/private/tmp, /private/var/folders), with the run-later paths denied
 * inside them; network none, or only the proxy's localhost port. Paths are
 * quoted as Seatbelt string literals (backslash and double quote escaped);
 * globs become (regex #"…") with every regex metacharacter escaped.
 */
#ifndef CORDON_SEATBELT_H
#define CORDON_SEATBELT_H

#include "sandbox.h"

/* The largest profile produced (bytes). */
#define SEATBELT_MAX_BYTES ((size_t)4 << 20)

/* malloc'd profile text; NULL when out of memory, past SEATBELT_MAX_BYTES
 * or when the cwd is needed (no or a relative workspace) and unknown. home
 * may be NULL. Relative --write and --deny-read paths are taken under the
 * workspace, "~/" under home; a --deny-read glob without '/' matches at any
 * depth of the workspace (gitignore). */
char *seatbelt_profile(const struct sandbox_opts *o, const char *home,
		       unsigned short proxy_port);

#endif
