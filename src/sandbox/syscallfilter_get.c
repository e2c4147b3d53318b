/* syscallfilter_get — the seccomp program for a run (syscallfilter.h):
 * a copy of the one made at build time, else compiled now. */
#include <stdlib.h>
#include <string.h>

#include "syscallfilter.h"

#include "alloc.h"
#include "banned.h"

unsigned syscallfilter_choice(bool no_unix_sockets, bool tty_modes,
			      bool notify_connect)
{
	return (no_unix_sockets ? 4u : 0u) | (tty_modes ? 2u : 0u) |
	       (notify_connect ? 1u : 0u);
}

int syscallfilter_get(bool no_unix_sockets, bool tty_modes, bool notify_connect,
		      struct syscallfilter_prog *out, char *why, size_t whycap)
{
	const struct syscallfilter_built *b =
		&syscallfilter_built[syscallfilter_choice(
			no_unix_sockets, tty_modes, notify_connect)];

	if (b->len) {
		out->insns = cordon__malloc(b->len);
		if (out->insns) {
			memcpy(out->insns, b->insns, b->len);
			out->len = b->len;
			if (whycap)
				why[0] = '\0';
			return 0;
		}
	}
	return syscallfilter_compile(no_unix_sockets, tty_modes, notify_connect,
				     out, why, whycap);
}
