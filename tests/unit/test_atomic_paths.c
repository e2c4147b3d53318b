/* atomic_xdg_path: cordon's state, configuration and cache directories
 * under the XDG base directories, a relative $XDG_*_HOME ignored. */
#include <stdlib.h>

#include "atomic.h"
#include "tap.h"

int main(void)
{
	char buf[256];

	tap_no_plan();
	setenv("HOME", "/home/u", 1);
	unsetenv("XDG_STATE_HOME");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_CACHE_HOME");
	ok(atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "config.json", buf,
			   sizeof(buf)) == 0,
	   "config under HOME");
	is_str(buf, "/home/u/.config/cordon/config.json", "~/.config/cordon");
	atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "probe.json", buf, sizeof(buf));
	is_str(buf, "/home/u/.cache/cordon/probe.json", "~/.cache/cordon");
	atomic_state_path(NULL, NULL, buf, sizeof(buf));
	is_str(buf, "/home/u/.local/state/cordon", "state, no name");
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "approvals.json", buf,
			sizeof(buf));
	is_str(buf, "/x/cfg/cordon/approvals.json", "an absolute XDG wins");
	setenv("XDG_CONFIG_HOME", "rel/cfg", 1);
	atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "a", buf, sizeof(buf));
	is_str(buf, "/home/u/.config/cordon/a", "a relative XDG is ignored");
	atomic_xdg_path(ATOMIC_XDG_CONFIG, "/other", "a", buf, sizeof(buf));
	is_str(buf, "/other/.config/cordon/a", "an explicit home");
	ok(atomic_xdg_path(ATOMIC_XDG_CONFIG, "", "a", buf, sizeof(buf)) != 0,
	   "an empty home and no absolute XDG: none");
	setenv("HOME", "relative", 1);
	ok(atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "a", buf, sizeof(buf)) != 0,
	   "a relative HOME: none");
	setenv("HOME", "/home/u", 1);
	ok(atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "a", buf, 10) != 0,
	   "a path that does not fit: none");
	return tap_done();
}
