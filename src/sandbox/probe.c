/* probe — which backend works here (sandbox_probe, sandbox.h): a maximal
 * wrap of /bin/true per backend, cached per kernel release and cordon
 * version in $XDG_CACHE_HOME/cordon/probe.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "sandbox_int.h"

#include "banned.h"

/* The probe's verdict, cached per kernel release and binary version, in
 * cordon's cache directory (made, mode 0700, when mkdirs). */
static int cache_path(char *out, size_t cap, bool mkdirs)
{
	char dir[PATH_MAX];

	if (atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, NULL, dir, sizeof(dir)) !=
	    0)
		return -1;
	if (mkdirs)
		(void)atomic_mkdirs(dir, 0700);
	return atomic_xdg_path(ATOMIC_XDG_CACHE, NULL, "probe.json", out, cap);
}

static int backend_from_name(const char *s)
{
	if (!s)
		return -1;
	if (strcmp(s, "namespaces") == 0)
		return SANDBOX_BACKEND_NAMESPACES;
	if (strcmp(s, "landlock") == 0)
		return SANDBOX_BACKEND_LANDLOCK;
	return -1;
}

/* Reads the cached verdict; -2 when there is none for this kernel and
 * version. */
static int probe_cached(char *why, size_t whycap)
{
	char path[PATH_MAX], buf[8192];
	struct utsname u;
	cJSON *j, *k, *v, *b, *w;
	int best = -2;

	if (cache_path(path, sizeof(path), false) != 0 || uname(&u) != 0)
		return -2;
	if (sandbox_read_small(path, buf, sizeof(buf)) <= 0)
		return -2;
	j = cJSON_Parse(buf);
	if (!j)
		return -2;
	k = cJSON_GetObjectItemCaseSensitive(j, "kernel");
	v = cJSON_GetObjectItemCaseSensitive(j, "version");
	b = cJSON_GetObjectItemCaseSensitive(j, "best");
	w = cJSON_GetObjectItemCaseSensitive(j, "why");
	if (cJSON_IsString(k) && cJSON_IsString(v) &&
	    strcmp(k->valuestring, u.release) == 0 &&
	    strcmp(v->valuestring, CORDON_VERSION) == 0) {
		best = cJSON_IsString(b) ? backend_from_name(b->valuestring) :
					   -1;
		if (why && whycap)
			(void)snprintf(why, whycap, "%s",
				       cJSON_IsString(w) ? w->valuestring : "");
	}
	cJSON_Delete(j);
	return best;
}

static void probe_store(int best, const char *why)
{
	char path[PATH_MAX];
	struct utsname u;
	cJSON *j;
	char *text;

	if (cache_path(path, sizeof(path), true) != 0 || uname(&u) != 0)
		return;
	j = cJSON_CreateObject();
	if (!j)
		return;
	cJSON_AddStringToObject(j, "kernel", u.release);
	cJSON_AddStringToObject(j, "version", CORDON_VERSION);
	if (best < 0)
		cJSON_AddNullToObject(j, "best");
	else
		cJSON_AddStringToObject(j, "best",
					best == SANDBOX_BACKEND_NAMESPACES ?
						"namespaces" :
						"landlock");
	cJSON_AddStringToObject(j, "why", why);
	text = cJSON_Print(j);
	cJSON_Delete(j);
	if (!text)
		return;
	/* A cache: a write that fails leaves the old verdict or none. */
	(void)atomic_write_file(path, text, strlen(text), 0600);
	free(text);
}

/* Removes the probe's workspace and the empty placeholders in it. */
static void probe_remove_ws(const char *ws)
{
	int dfd = open(ws, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (dfd >= 0) {
		for (size_t i = 0;
		     i < sizeof(sandbox_plan_ws_run_later) /
				 sizeof(sandbox_plan_ws_run_later[0]);
		     i++)
			if (unlinkat(dfd, sandbox_plan_ws_run_later[i].name,
				     0) != 0)
				(void)unlinkat(
					dfd, sandbox_plan_ws_run_later[i].name,
					AT_REMOVEDIR);
		close(dfd);
	}
	(void)rmdir(ws);
}

/* Can a child make a user and mount namespace and mount in it? A cheap
 * check (a fork, a few system calls) of a cached verdict that says the
 * namespaces backend does not work: the cache lies in a directory a
 * command on the landlock backend may write (--cache-writes), and a
 * verdict planted there would make every later auto run the weaker
 * backend. The strings are made before the fork. */
static bool probe_userns_works(void)
{
	char uid_map[64], gid_map[64];
	int status;
	pid_t pid;

	(void)snprintf(uid_map, sizeof(uid_map), "0 %u 1", (unsigned)geteuid());
	(void)snprintf(gid_map, sizeof(gid_map), "0 %u 1", (unsigned)getegid());
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0 ||
		    sandbox_write_str("/proc/self/setgroups", "deny") != 0 ||
		    sandbox_write_str("/proc/self/uid_map", uid_map) != 0 ||
		    sandbox_write_str("/proc/self/gid_map", gid_map) != 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(1);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int sandbox_probe(bool fresh, char *why, size_t whycap)
{
	static const int backends[2] = { SANDBOX_BACKEND_NAMESPACES,
					 SANDBOX_BACKEND_LANDLOCK };
	static const char *const names[2] = { "namespaces", "landlock" };
	char text[1024] = "";
	char ws[] = "/tmp/cordon-probe-XXXXXX";
	size_t len = 0;
	int best = -1, cached;

	if (!fresh) {
		cached = probe_cached(why, whycap);
		/* A cached downgrade is believed only when namespaces
		 * indeed fail here. */
		if (cached == SANDBOX_BACKEND_NAMESPACES ||
		    (cached != -2 && !probe_userns_works()))
			return cached;
	}
	/* An empty workspace of its own: the no-op must not depend on (or
	 * leave placeholders in) the caller's directory. */
	if (!mkdtemp(ws)) {
		if (why && whycap)
			(void)snprintf(why, whycap, "probe: mkdtemp: %s\n",
				       strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < 2; i++) {
		struct sandbox_opts o;
		struct sandbox_report rep;
		struct cordon_diag diag;
		char *argv[] = { "/bin/true", NULL };
		enum cordon_err err;
		int n;

		memset(&o, 0, sizeof(o));
		o.workspace = ws;
		o.network = SANDBOX_NET_NONE;
		o.memory_mb = 4096;
		o.timeout_s = 20;
		o.mode = SANDBOX_MODE_AUTO;
		o.backend = backends[i];
		o.stdin_null = 1;
		err = sandbox_run(&o, argv, &rep, &diag);
		if (err != CORDON_OK)
			n = snprintf(text + len, sizeof(text) - len,
				     "%s: unavailable: %s\n", names[i],
				     diag.message);
		else if (rep.status != 0)
			n = snprintf(text + len, sizeof(text) - len,
				     "%s: unavailable: %s\n", names[i],
				     rep.error[0] ? rep.error :
						    "the no-op failed");
		else
			n = snprintf(text + len, sizeof(text) - len,
				     "%s: works (enforcement %s)\n", names[i],
				     rep.enforcement);
		if (n > 0 && (size_t)n < sizeof(text) - len)
			len += (size_t)n;
		if (err == CORDON_OK && rep.status == 0 && best < 0)
			best = backends[i];
	}
	probe_remove_ws(ws);
	probe_store(best, text);
	if (why && whycap)
		(void)snprintf(why, whycap, "%s", text);
	return best;
}

int sandbox_probe_any(char *why, size_t whycap)
{
	int cached = probe_cached(why, whycap);

	/* A planted "landlock" costs nothing here: `cordon run` checks it
	 * before it starts the command (sandbox_probe above) and fails
	 * closed when that backend does not work. A planted "none" would
	 * let the command run unsandboxed, so that is checked. */
	if (cached >= 0)
		return cached;
	return sandbox_probe(false, why, whycap);
}
