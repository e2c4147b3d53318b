/* test_sandbox — sandbox_run for real: the report, option checks, the
 * environment, exit statuses, time-outs and parent death killing the whole
 * tree, and the landlock backend's honest partial report.
 *
 * Needs user namespaces and Landlock (root in CI); the namespaces tests
 * are skipped when the probe says the backend does not work here.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <grp.h>

#include <cjson/cJSON.h>

#include "envfilter.h"
#include "sandbox.h"
#include "tap.h"

static char ws[PATH_MAX]; /* the workspace of every run */

__attribute__((format(printf, 3, 4))) static void
is_intf(long long got, long long want, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	is_int(got, want, name);
}

static char cache[PATH_MAX]; /* XDG_CACHE_HOME for the probe */

static void base_opts(struct sandbox_opts *o, enum sandbox_backend backend)
{
	memset(o, 0, sizeof(*o));
	o->workspace = ws;
	o->network = SANDBOX_NET_NONE;
	o->memory_mb = 4096;
	o->mode = SANDBOX_MODE_AUTO;
	o->backend = backend;
	o->stdin_null = 1;
	o->timeout_s = 30;
}

/* Runs argv with capture; returns the status, output in *out (freed by
 * the caller). */
static int run_capture(struct sandbox_opts *o, char **argv, struct sandbox_report *rep,
		       char **out)
{
	struct cordon_diag dg;
	size_t len = 0;

	*out = NULL;
	o->capture_out = out;
	o->capture_len = &len;
	if (sandbox_run(o, argv, rep, &dg) != CORDON_OK) {
		diag("sandbox_run: %s", dg.message);
		return -1;
	}
	if (rep->error[0])
		diag("report error: %s", rep->error);
	return rep->status;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *s = text; s && *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == n && memcmp(s, line, n) == 0)
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

static bool lost_has(const struct sandbox_report *rep, const char *prefix)
{
	for (size_t i = 0; i < rep->nnot_enforced; i++)
		if (strncmp(rep->not_enforced[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

static bool caveat_has(const struct sandbox_report *rep, const char *prefix)
{
	for (size_t i = 0; i < rep->ncaveats; i++)
		if (strncmp(rep->caveats[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* Only lines that say what this host cannot give (root's owner bits, no
 * v2 memory cgroup) are in notEnforced. */
static bool only_host_lost(const struct sandbox_report *rep)
{
	for (size_t i = 0; i < rep->nnot_enforced; i++)
		if (strncmp(rep->not_enforced[i], "root: ", 6) != 0 &&
		    strncmp(rep->not_enforced[i], "memory: per process", 19) !=
			    0)
			return false;
	return true;
}

/* A unix socket bound at path (host side; nobody listens). */
static bool make_socket(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	bool ok_ = false;

	if (fd < 0)
		return false;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) < sizeof(sa.sun_path)) {
		memcpy(sa.sun_path, path, strlen(path) + 1);
		ok_ = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	}
	close(fd);
	return ok_;
}

/* ---- the report JSON -------------------------------------------------- */

static void test_report_json(void)
{
	struct sandbox_report rep;
	cJSON *j, *it;
	char *text;

	memset(&rep, 0, sizeof(rep));
	rep.backend = "namespaces";
	rep.enforcement = "partial";
	snprintf(rep.not_enforced[0], sizeof(rep.not_enforced[0]), "%s",
		 "pid namespace");
	rep.nnot_enforced = 1;
	rep.exit_code = -1;
	rep.signal = SIGKILL;
	rep.timed_out = true;
	rep.duration_ms = 1234;
	rep.status = 124;
	text = sandbox_report_json(&rep);
	ok(text != NULL, "report: JSON text");
	j = text ? cJSON_Parse(text) : NULL;
	ok(j != NULL, "report: parses");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItem(j, "backend")),
	       "namespaces", "report: backend");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItem(j, "enforcement")),
	       "partial", "report: enforcement");
	it = cJSON_GetObjectItem(j, "notEnforced");
	ok(cJSON_IsArray(it) && cJSON_GetArraySize(it) == 1 &&
		   strcmp(cJSON_GetStringValue(cJSON_GetArrayItem(it, 0)),
			  "pid namespace") == 0,
	   "report: notEnforced array");
	ok(cJSON_IsNull(cJSON_GetObjectItem(j, "exitCode")),
	   "report: exitCode null when killed by a signal");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItem(j, "signal")),
	       "SIGKILL", "report: signal by name");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(j, "timedOut")),
	   "report: timedOut");
	is_int((long long)cJSON_GetNumberValue(
		       cJSON_GetObjectItem(j, "durationMs")),
	       1234, "report: durationMs");
	ok(!cJSON_GetObjectItem(j, "error"), "report: no error field");
	cJSON_Delete(j);
	free(text);

	memset(&rep, 0, sizeof(rep));
	rep.backend = "landlock";
	rep.enforcement = "full";
	rep.exit_code = 3;
	rep.status = 3;
	text = sandbox_report_json(&rep);
	j = text ? cJSON_Parse(text) : NULL;
	is_int((long long)cJSON_GetNumberValue(
		       cJSON_GetObjectItem(j, "exitCode")),
	       3, "report: exitCode number");
	ok(cJSON_IsNull(cJSON_GetObjectItem(j, "signal")),
	   "report: signal null");
	ok(cJSON_IsFalse(cJSON_GetObjectItem(j, "timedOut")),
	   "report: timedOut false");
	ok(cJSON_IsArray(cJSON_GetObjectItem(j, "notEnforced")) &&
		   cJSON_GetArraySize(cJSON_GetObjectItem(j, "notEnforced")) ==
			   0,
	   "report: empty notEnforced");
	cJSON_Delete(j);
	free(text);
}

/* ---- option validation ------------------------------------------------- */

static void test_validation(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	struct cordon_diag dg;
	char *argv[] = { "rm", "-rf", "/", NULL };
	char *empty[] = { NULL };
	const char *cmds[] = { "uname", "date", "echo" };
	const char *writes[] = { "/nonexistent/cordon-test-root" };
	const char *many[300];

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	is_int(sandbox_run(&o, empty, &rep, &dg), CORDON_E_INVAL,
	       "validation: empty argv");

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.network = SANDBOX_NET_PROXY;
	o.nallow_hosts = SANDBOX_MAX_HOSTS + 1;
	{
		const char **big = calloc(SANDBOX_MAX_HOSTS + 1, sizeof(*big));

		for (size_t i = 0; big && i <= SANDBOX_MAX_HOSTS; i++)
			big[i] = "example.com";
		o.allow_hosts = big;
		is_int(sandbox_run(&o, argv, &rep, &dg), CORDON_E_LIMIT,
		       "validation: too many proxy hosts");
		free(big);
	}

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	for (size_t i = 0; i < 300; i++)
		many[i] = "/tmp";
	o.write = many;
	o.nwrite = 300;
	is_int(sandbox_run(&o, argv, &rep, &dg), CORDON_E_LIMIT,
	       "validation: too many --write entries");

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.argv_only = true;
	o.allow_cmds = cmds;
	o.nallow_cmds = 3;
	is_int(sandbox_run(&o, argv, &rep, &dg), CORDON_OK,
	       "argv-only: a blocked command is a report, not an error");
	is_int(rep.status, 126, "argv-only: blocked is 126");
	is_str(rep.error,
	       "blocked: command 'rm' is not in the allowlist [uname, date, "
	       "echo]",
	       "argv-only: the blocked message");

	/* A planted ./uname is not the uname on PATH. */
	{
		char planted[PATH_MAX + 16];
		char *pargv[] = { planted, NULL };
		FILE *f;

		snprintf(planted, sizeof(planted), "%s/uname", ws);
		f = fopen(planted, "w");
		if (f) {
			fputs("#!/bin/sh\necho planted\n", f);
			fclose(f);
		}
		chmod(planted, 0755);
		is_int(sandbox_run(&o, pargv, &rep, &dg), CORDON_OK,
		       "argv-only: a path for argv[0] is checked");
		is_int(rep.status, 126,
		       "argv-only: a planted uname is blocked");
		ok(strstr(rep.error, "not the 'uname' found on PATH") != NULL,
		   "argv-only: the planted path is named (%s)", rep.error);
		unlink(planted);
	}

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.write = writes;
	o.nwrite = 1;
	{
		char *t[] = { "/bin/true", NULL };

		is_int(sandbox_run(&o, t, &rep, &dg), CORDON_OK,
		       "missing writable root: runs nothing, reports");
	}
	is_int(rep.status, 125, "missing writable root: 125");
	ok(strstr(rep.error, "/nonexistent/cordon-test-root") != NULL &&
		   strstr(rep.error, "writable root") != NULL,
	   "missing writable root: the step and the path are named (%s)",
	   rep.error);
}

/* ---- environment -------------------------------------------------------- */

static void test_env(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char *argv[] = { "/usr/bin/env", NULL };
	char *extra[] = { "HOST_TOKEN=from-host", NULL };

	setenv("CORDON_T_KEEP", "1", 1);
	setenv("OPENAI_API_KEY", "sk-secret", 1);
	setenv("CORDON_T_PASSWORD", "hunter2", 1);
	base_opts(&o, backend);
	/* The allow-list off: only the deny-list filters. */
	o.env_allow = NULL;
	o.env_deny = NULL;
	o.extra_env = extra;
	is_intf(run_capture(&o, argv, &rep, &out), 0, "%s env: runs", name);
	ok(out && has_line(out, "CORDON_T_KEEP=1"),
	   "%s env: an ordinary variable passes", name);
	ok(out && !strstr(out, "OPENAI_API_KEY"), "%s env: *_API_KEY is denied",
	   name);
	ok(out && !strstr(out, "hunter2"), "%s env: *PASSWORD* is denied",
	   name);
	ok(out && has_line(out, "HOST_TOKEN=from-host"),
	   "%s env: the C API's variables pass unfiltered", name);
	free(out);

	/* The default allow-list drops everything else. */
	base_opts(&o, backend);
	o.env_allow = envfilter_default_allow();
	is_intf(run_capture(&o, argv, &rep, &out), 0, "%s env: runs", name);
	ok(out && !strstr(out, "CORDON_T_KEEP"),
	   "%s env: the allow-list drops unlisted names", name);
	ok(out && strstr(out, "PATH=") != NULL, "%s env: PATH is allowed",
	   name);
	free(out);
	unsetenv("CORDON_T_KEEP");
	unsetenv("OPENAI_API_KEY");
	unsetenv("CORDON_T_PASSWORD");
}

/* ---- exit statuses ------------------------------------------------------ */

static void test_statuses(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char *exit3[] = { "/bin/sh", "-c", "exit 3", NULL };
	char *missing[] = { "/nonexistent/cordon-cmd", NULL };
	char notexec_path[PATH_MAX + 16];
	char *notexec[] = { notexec_path, NULL };
	char *killself[] = { "/bin/sh", "-c", "kill -9 $$", NULL };
	char *slow[] = { "/bin/sleep", "30", NULL };
	char path[PATH_MAX + 32];

	base_opts(&o, backend);
	is_intf(run_capture(&o, exit3, &rep, &out), 3, "%s: exit 3 is 3", name);
	is_intf(rep.exit_code, 3, "%s: exitCode 3", name);
	free(out);

	base_opts(&o, backend);
	is_intf(run_capture(&o, missing, &rep, &out), 127,
		"%s: command not found is 127", name);
	ok(strstr(rep.error, "exec /nonexistent/cordon-cmd") != NULL,
	   "%s: 127 names the command", name);
	free(out);

	snprintf(notexec_path, sizeof(notexec_path), "%s/plain-file", ws);
	{
		FILE *f = fopen(notexec_path, "w");

		if (f) {
			fputs("data\n", f);
			fclose(f);
		}
		chmod(notexec_path, 0644);
	}
	base_opts(&o, backend);
	is_intf(run_capture(&o, notexec, &rep, &out), 126,
		"%s: not executable is 126", name);
	free(out);

	base_opts(&o, backend);
	is_intf(run_capture(&o, killself, &rep, &out), 128 + SIGKILL,
		"%s: killed by SIGKILL is 137", name);
	is_intf(rep.signal, SIGKILL, "%s: the signal is reported", name);
	is_intf(rep.exit_code, -1, "%s: no exit code for a signal", name);
	free(out);

	base_opts(&o, backend);
	o.timeout_s = 1;
	is_intf(run_capture(&o, slow, &rep, &out), 124, "%s: time-out is 124",
		name);
	ok(rep.timed_out, "%s: timedOut", name);
	ok(rep.duration_ms >= 900 && rep.duration_ms < 10000,
	   "%s: killed after about a second (%lu ms)", name, rep.duration_ms);
	free(out);

	/* A setup failure: a writable root that does not exist. */
	snprintf(path, sizeof(path), "%s/no-such-root", ws);
	{
		const char *w[] = { path };
		char *t[] = { "/bin/true", NULL };

		unlink(path);
		base_opts(&o, backend);
		o.write = w;
		o.nwrite = 1;
		is_intf(run_capture(&o, t, &rep, &out), 125,
			"%s: a missing writable root is 125", name);
		free(out);
	}
}

/* ---- process trees ------------------------------------------------------ */

/* Host pids of processes whose command line contains marker. */
static size_t find_marked(const char *marker, pid_t *pids, size_t cap)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL && n < cap) {
		char path[64], buf[512];
		ssize_t len;
		int fd;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		for (ssize_t i = 0; i < len; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[len] = '\0';
		if (strstr(buf, marker) && (pid_t)pid != getpid())
			pids[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* True when none of pids is alive (zombies included as gone) within
 * about two seconds. */
static bool all_gone(const pid_t *pids, size_t n)
{
	for (int tries = 0; tries < 200; tries++) {
		bool alive = false;

		for (size_t i = 0; i < n; i++) {
			char path[64], state = 0, buf[256];
			int fd;
			ssize_t len;

			if (kill(pids[i], 0) != 0 && errno == ESRCH)
				continue;
			/* A zombie waiting for its reaper is dead too. */
			snprintf(path, sizeof(path), "/proc/%d/stat",
				 (int)pids[i]);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				len = read(fd, buf, sizeof(buf) - 1);
				close(fd);
				if (len > 0) {
					char *rp;

					buf[len] = '\0';
					rp = strrchr(buf, ')');
					if (rp && rp[1] == ' ')
						state = rp[2];
				}
			}
			if (state != 'Z')
				alive = true;
		}
		if (!alive)
			return true;
		sleep_ms(10);
	}
	return false;
}

/* A time-out kills a grandchild that double-forked away from the command
 * (and, in the namespaces backend, one that also left the session). */
static void test_timeout_tree(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	struct cordon_diag dg;
	char marker[64], script[512];
	pid_t pids[16], watcher;
	int pfd[2];
	size_t n = 0;
	char *argv[] = { "/bin/sh", "-c", script, NULL };

	/* The marker is sleep's own argument: a unique number of seconds. */
	snprintf(marker, sizeof(marker), "sleep 777.%ld%d", (long)getpid(),
		 (int)backend);
	/* Without a PID namespace, a process that leaves the session is only
	 * found through the cgroup; the plain double fork must die anyway. */
	if (backend == SANDBOX_BACKEND_NAMESPACES)
		snprintf(script, sizeof(script),
			 "(%s &) ; (setsid %s &) ; sleep 100", marker, marker);
	else
		snprintf(script, sizeof(script), "(%s &) ; (%s &) ; sleep 100",
			 marker, marker);
	if (pipe(pfd) != 0)
		return;
	watcher = fork();
	if (watcher == 0) {
		/* Finds the grandchildren while the run is under way. */
		pid_t found[16];
		size_t k = 0;

		close(pfd[0]);
		for (int i = 0; i < 100 && k < 2; i++) {
			sleep_ms(20);
			k = find_marked(marker, found, 16);
		}
		if (write(pfd[1], found, k * sizeof(pid_t)) < 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	base_opts(&o, backend);
	o.timeout_s = 2;
	is_intf(sandbox_run(&o, argv, &rep, &dg), CORDON_OK, "%s tree: runs", name);
	is_intf(rep.status, 124, "%s tree: timed out", name);
	{
		ssize_t got = read(pfd[0], pids, sizeof(pids));

		n = got > 0 ? (size_t)got / sizeof(pid_t) : 0;
	}
	close(pfd[0]);
	waitpid(watcher, NULL, 0);
	ok(n >= 2, "%s tree: both grandchildren were seen running (%zu)", name,
	   n);
	ok(n > 0 && all_gone(pids, n),
	   "%s tree: the time-out killed the double-forked grandchildren",
	   name);
}

/* owner_pidfd: the process the run belongs to ends (here a child that
 * exits after 300 ms); the command ignores SIGTERM and left a child in a
 * session of its own; owner_grace_ms later the run is ended as a time-out
 * ends it, with the reason, and nothing of it is left. */
static void test_owner_gone(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	struct cordon_diag dg;
	char marker[64], script[512];
	pid_t pids[16], watcher, owner;
	int pfd[2], ofd;
	size_t n = 0;
	char *argv[] = { "/bin/sh", "-c", script, NULL };

	snprintf(marker, sizeof(marker), "sleep 779.%ld%d", (long)getpid(),
		 (int)backend);
	snprintf(script, sizeof(script),
		 "trap '' TERM; (setsid %s &) ; %s ; sleep 100", marker,
		 marker);
	if (pipe(pfd) != 0)
		return;
	owner = fork();
	if (owner == 0) {
		sleep_ms(300);
		_exit(0);
	}
	ofd = (int)syscall(SYS_pidfd_open, owner, 0);
	watcher = fork();
	if (watcher == 0) {
		pid_t found[16];
		size_t k = 0;

		close(pfd[0]);
		for (int i = 0; i < 100 && k < 2; i++) {
			sleep_ms(20);
			k = find_marked(marker, found, 16);
		}
		if (write(pfd[1], found, k * sizeof(pid_t)) < 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	base_opts(&o, backend);
	o.timeout_s = 60;
	o.owner_pidfd = ofd;
	o.owner_grace_ms = 500;
	is_intf(sandbox_run(&o, argv, &rep, &dg), CORDON_OK, "%s owner: runs",
		name);
	is_intf(rep.status, 125, "%s owner: ended by the run (125)", name);
	ok(strstr(rep.error, "belonged to ended") && !rep.timed_out &&
		   rep.duration_ms < 30000,
	   "%s owner: the report says why, no time-out (%s, %lu ms)", name,
	   rep.error, rep.duration_ms);
	{
		ssize_t got = read(pfd[0], pids, sizeof(pids));

		n = got > 0 ? (size_t)got / sizeof(pid_t) : 0;
	}
	close(pfd[0]);
	close(ofd);
	waitpid(watcher, NULL, 0);
	waitpid(owner, NULL, 0);
	ok(n >= 2 && all_gone(pids, n),
	   "%s owner: both processes were seen (%zu) and none is left", name,
	   n);
}

/* SIGKILL to the process running sandbox_run kills the sandboxed tree. */
static void test_parent_death(void)
{
	char marker[64], script[256];
	pid_t runner, pids[16];
	size_t n = 0;
	int st;

	snprintf(marker, sizeof(marker), "sleep 778.%ld", (long)getpid());
	snprintf(script, sizeof(script), "(%s &) ; %s", marker, marker);
	runner = fork();
	if (runner == 0) {
		struct sandbox_opts o;
		struct sandbox_report rep;
		struct cordon_diag dg;
		char *argv[] = { "/bin/sh", "-c", script, NULL };

		base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
		(void)sandbox_run(&o, argv, &rep, &dg);
		_exit(0);
	}
	for (int i = 0; i < 200 && n < 2; i++) {
		sleep_ms(20);
		n = find_marked(marker, pids, 16);
	}
	ok(n >= 2, "parent death: the sandboxed tree is running (%zu)", n);
	kill(runner, SIGKILL);
	waitpid(runner, &st, 0);
	ok(n > 0 && all_gone(pids, n),
	   "parent death: killing cordon killed the whole tree");
}

/* ---- the run's end ------------------------------------------------------ */

/* The sweep test's dN entries of dir that hold a .git (*left: still
 * there) or a quarantined one (*moved); a dN the writer was killed in
 * before its .git counts for neither. */
static void count_made(const char *dir, size_t *left, size_t *moved)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	*left = *moved = 0;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[PATH_MAX + 320];
		struct stat st;

		if (de->d_name[0] != 'd')
			continue;
		snprintf(path, sizeof(path), "%s/%s/.git", dir, de->d_name);
		if (lstat(path, &st) == 0)
			(*left)++;
		snprintf(path, sizeof(path), "%s/%s/.git.cordon-quarantined",
			 dir, de->d_name);
		if (lstat(path, &st) == 0)
			(*moved)++;
	}
	closedir(d);
}

/* A run ends when no process of it is left: what the command left running
 * in the background is killed before the run's end is reported (the
 * namespaces backend's PID 1 kills and reaps its namespace before it
 * sends the command's status; the landlock backend's sub-reaper kills its
 * descendants), so a file it was writing stops growing, and the sweep
 * sees the final state of what it made: every nested .git it made, up to
 * the moment it was killed, is quarantined. */
static void test_run_end(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char dir[PATH_MAX + 32], file[PATH_MAX + 48],
		script[3 * PATH_MAX + 256];
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct stat a, b;
	size_t left, moved, moved2;

	snprintf(dir, sizeof(dir), "%s/end-grow-%s", ws, name);
	snprintf(file, sizeof(file), "%s/grow", dir);
	mkdir(dir, 0755);
	snprintf(script, sizeof(script),
		 "(while :; do echo x >> %s; done) & "
		 "while [ ! -s %s ]; do :; done",
		 file, file);
	base_opts(&o, backend);
	is_intf(run_capture(&o, argv, &rep, &out), 0,
		"%s end: a command that leaves a writer behind exits 0", name);
	free(out);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	(void)stat(file, &a);
	sleep_ms(300);
	(void)stat(file, &b);
	ok(a.st_size > 0 && a.st_size == b.st_size,
	   "%s end: the writer left behind was killed before the run ended "
	   "(%lld then %lld bytes)",
	   name, (long long)a.st_size, (long long)b.st_size);

	snprintf(dir, sizeof(dir), "%s/end-sweep-%s", ws, name);
	mkdir(dir, 0755);
	/* python3 makes them fast enough to race a sweep that would start
	 * before the writer is gone. */
	snprintf(script, sizeof(script),
		 "/usr/bin/python3 -c 'import os\nfor i in range(2000): "
		 "os.makedirs(\"%s/d%%d/.git\" %% i)' & "
		 "while [ ! -d %s/d3/.git ]; do :; done",
		 dir, dir);
	base_opts(&o, backend);
	is_intf(run_capture(&o, argv, &rep, &out), 0,
		"%s end: a command that leaves a git init loop behind exits 0",
		name);
	free(out);
	count_made(dir, &left, &moved);
	ok(moved >= 3 && left == 0 &&
		   rep.nquarantined + rep.quarantined_more == moved,
	   "%s end: every .git made in the background is quarantined "
	   "(%zu moved, %zu left, %zu reported)",
	   name, moved, left, rep.nquarantined + rep.quarantined_more);
	sleep_ms(300);
	count_made(dir, &left, &moved2);
	ok(moved2 == moved && left == 0,
	   "%s end: nothing is made after the run (%zu then %zu, %zu left)",
	   name, moved, moved2, left);
}

/* What on_end saw: how often it was called, the status, and how many
 * processes with the marker in their command line were still alive. */
struct end_seen {
	const char *marker;
	int calls;
	int status;
	size_t alive;
};

static void seen_end(struct sandbox_report *rep, void *arg)
{
	struct end_seen *e = arg;
	pid_t pids[8];

	e->calls++;
	e->status = rep->status;
	e->alive = find_marked(e->marker, pids, 8);
}

/* on_end (where the CLI writes the audit record) comes once, with the
 * final status, when no process of the run is left: not even the
 * processes the command left behind, though the sandbox's PID 1 may
 * still be on its way out. A refused run gets it too. */
static void test_on_end(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	struct cordon_diag dg;
	char marker[64], script[256];
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct end_seen e = { .marker = marker };

	snprintf(marker, sizeof(marker), "sleep 775.%ld%d", (long)getpid(),
		 (int)backend);
	snprintf(script, sizeof(script),
		 "%s & %s & while ! pgrep -f '^%s' >/dev/null; do :; done; "
		 "exit 3",
		 marker, marker, marker);
	base_opts(&o, backend);
	o.on_end = seen_end;
	o.on_end_arg = &e;
	is_intf(sandbox_run(&o, argv, &rep, &dg), CORDON_OK, "%s on_end: runs",
		name);
	ok(e.calls == 1 && e.status == 3 && rep.status == 3,
	   "%s on_end: called once, with the final status (%d calls, %d)", name,
	   e.calls, e.status);
	is_intf((long long)e.alive, 0,
		"%s on_end: nothing the command left running is alive then",
		name);

	e.calls = 0;
	base_opts(&o, backend);
	o.on_end = seen_end;
	o.on_end_arg = &e;
	{
		const char *w[] = { "/nonexistent/cordon-root" };

		o.write = w;
		o.nwrite = 1;
		(void)sandbox_run(&o, argv, &rep, &dg);
	}
	ok(e.calls == 1 && e.status == 125,
	   "%s on_end: a refused run gets it too (%d calls, %d)", name, e.calls,
	   e.status);
}

/* PID 1 killed from outside before it could report the command's status:
 * the namespace ended with it, but how the command ended is unknown, so
 * the run is reported as a failure of cordon (125, naming PID 1), not
 * with PID 1's signal as if it were the command's. */
static void test_pid1_killed(void)
{
	char marker[64], script[128];
	pid_t runner, pids[16], pid1 = 0;
	size_t n = 0;
	int pfd[2], st, status = -1;
	char err[sizeof(((struct sandbox_report *)0)->error)];

	snprintf(marker, sizeof(marker), "sleep 776.%ld", (long)getpid());
	snprintf(script, sizeof(script), "%s; exit 0", marker);
	if (pipe(pfd) != 0) {
		skip(3, "pipe");
		return;
	}
	runner = fork();
	if (runner == 0) {
		struct sandbox_opts o;
		struct sandbox_report rep;
		struct cordon_diag dg;
		char *argv[] = { "/bin/sh", "-c", script, NULL };

		close(pfd[0]);
		base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
		if (sandbox_run(&o, argv, &rep, &dg) != CORDON_OK)
			_exit(1);
		if (write(pfd[1], &rep.status, sizeof(rep.status)) < 0 ||
		    write(pfd[1], rep.error, sizeof(rep.error)) < 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	for (int i = 0; i < 200 && n < 1; i++) {
		sleep_ms(20);
		n = find_marked(marker, pids, 16);
	}
	{
		char path[64], buf[64];
		int fd;
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
			 (int)runner, (int)runner);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		len = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (len > 0) {
			buf[len] = '\0';
			pid1 = (pid_t)strtol(buf, NULL, 10);
		}
	}
	ok(n >= 1 && pid1 > 0,
	   "PID 1 killed: the command runs (%zu), PID 1 "
	   "is %d",
	   n, (int)pid1);
	if (pid1 > 0)
		kill(pid1, SIGKILL);
	err[0] = '\0';
	if (read(pfd[0], &status, sizeof(status)) != sizeof(status) ||
	    read(pfd[0], err, sizeof(err)) != (ssize_t)sizeof(err))
		err[0] = '\0';
	err[sizeof(err) - 1] = '\0';
	close(pfd[0]);
	waitpid(runner, &st, 0);
	is_int(status, 125,
	       "PID 1 killed: the run is 125, not the command's "
	       "status");
	ok(strstr(err, "PID 1 was killed (signal 9) before it reported") !=
		   NULL,
	   "PID 1 killed: the report says so (%s)", err);
	ok(n > 0 && all_gone(pids, n), "PID 1 killed: the command is gone");
}

/* ---- backends ----------------------------------------------------------- */

/* network proxy: the proxy variables, a denial answered by the proxy,
 * no way around it, the report, and a bad list entry refused. */
static void test_proxy(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	char *out = NULL, script[1024], want[64];
	const char *bad[] = { "exa mple.com" };
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	char *tru[] = { "/bin/true", NULL };
	bool curl = access("/usr/bin/curl", X_OK) == 0;
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	/* A host listener the command must not reach directly. */
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) != 0 ||
	    listen(lfd, 8) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &sl) != 0) {
		diag("listener: %s", strerror(errno));
		return;
	}
	(void)snprintf(script, sizeof(script),
		       "echo \"H=$HTTP_PROXY\"; echo \"h=$http_proxy\"; "
		       "echo \"S=$HTTPS_PROXY\"; echo \"A=$ALL_PROXY\"; "
		       "echo \"N=${NO_PROXY-unset}\"; "
		       "if [ -x /usr/bin/curl ]; then "
		       "echo \"denied=$(curl -s -o /dev/null -w "
		       "'%%{http_code}' http://denied.example/)\"; "
		       "env -u HTTP_PROXY -u http_proxy -u ALL_PROXY "
		       "-u all_proxy curl -s --noproxy '*' -m 5 "
		       "http://127.0.0.1:%u/ >/dev/null; echo \"direct=$?\"; "
		       "fi",
		       (unsigned)ntohs(sin.sin_port));
	base_opts(&o, backend);
	o.network = SANDBOX_NET_PROXY;
	is_intf(run_capture(&o, argv, &rep, &out), 0, "%s proxy: runs", name);
	ok(out && strstr(out, "H=http://127.0.0.1:"),
	   "%s proxy: HTTP_PROXY points at loopback", name);
	if (backend == SANDBOX_BACKEND_NAMESPACES) {
		(void)snprintf(want, sizeof(want), "H=http://127.0.0.1:%d",
			       SANDBOX_PROXY_PORT);
		ok(has_line(out, want), "%s proxy: the namespace's port",
		   name);
	} else {
		(void)snprintf(want, sizeof(want), "H=http://127.0.0.1:%d",
			       SANDBOX_PROXY_PORT);
		ok(!has_line(out, want) && !has_line(out, "H="),
		   "%s proxy: a port on the host's loopback", name);
	}
	ok(out && strstr(out, "\nh=http://127.0.0.1:") &&
		   strstr(out, "\nS=http://127.0.0.1:") &&
		   strstr(out, "\nA=socks5h://127.0.0.1:"),
	   "%s proxy: https, all and lower case set", name);
	ok(has_line(out, "N="), "%s proxy: NO_PROXY emptied", name);
	if (curl) {
		ok(has_line(out, "denied=403"),
		   "%s proxy: the empty allow list answers 403", name);
		ok(has_line(out, "direct=7"),
		   "%s proxy: no connection around the proxy", name);
	} else {
		skip(2, "no curl");
	}
	if (backend == SANDBOX_BACKEND_NAMESPACES) {
		ok(only_host_lost(&rep), "%s proxy: enforcement full", name);
	} else {
		ok(strcmp(rep.enforcement, "partial") == 0,
		   "%s proxy: partial", name);
		ok(lost_has(&rep, "network: UDP and other protocols not "
				  "restricted (landlock only)"),
		   "%s proxy: UDP named", name);
	}
	free(out);
	close(lfd);

	base_opts(&o, backend);
	o.network = SANDBOX_NET_PROXY;
	o.allow_hosts = bad;
	o.nallow_hosts = 1;
	is_intf(run_capture(&o, tru, &rep, &out), 125,
		"%s proxy: a bad allow entry refused", name);
	ok(strncmp(rep.error, "network proxy:", 14) == 0,
	   "%s proxy: the refusal names the proxy", name);
	free(out);
}

static void test_landlock_partial(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char *argv[] = { "/bin/true", NULL };

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	is_int(run_capture(&o, argv, &rep, &out), 0, "landlock: runs");
	is_str(rep.backend, "landlock", "landlock: backend named");
	is_str(rep.enforcement, "partial", "landlock: enforcement partial");
	/* the credentials are held by the $HOME read layer; --deny-read
	 * has no mount to hide it */
	ok(lost_has(&rep, "mount namespace: --deny-read") ||
		   lost_has(&rep, "mount namespace: credential masks"),
	   "landlock: --deny-read reported lost");
	ok(lost_has(&rep, "ipc namespace"), "landlock: ipc namespace lost");
	ok(!lost_has(&rep, "pid namespace: the tree outlives"),
	   "landlock: the sub-reaper kills the tree when cordon dies");
	ok(lost_has(&rep, "network namespace: network none"),
	   "landlock: network none reported as Landlock-only");
	free(out);

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.network = SANDBOX_NET_HOST;
	is_int(run_capture(&o, argv, &rep, &out), 0, "landlock host: runs");
	ok(!lost_has(&rep, "network namespace"),
	   "landlock host: nothing lost about the network");
	free(out);

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.mode = SANDBOX_MODE_STRICT;
	is_int(run_capture(&o, argv, &rep, &out), 125,
	       "landlock strict: refused");
	ok(strncmp(rep.error, "strict mode", 11) == 0,
	   "landlock strict: the reason is given");
	free(out);

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.mode = SANDBOX_MODE_OFF;
	is_int(run_capture(&o, argv, &rep, &out), 0, "mode off: runs");
	is_str(rep.enforcement, "none", "mode off: enforcement none");
	is_str(rep.backend, "none", "mode off: backend none");
	free(out);
}

/* The namespaces backend: full enforcement, masks, run-later paths and
 * the refusal of symlinked mount targets. */
static void test_namespaces(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char path[PATH_MAX + 64];
	char *argv[] = { "/bin/sh", "-c",
			 "cat sub/key.pem; echo; cat sub/plain.txt; echo; "
			 "touch .git/hooks/x 2>/dev/null || echo hooks-ro; "
			 "touch /etc/cordon-test 2>/dev/null || echo etc-ro; "
			 "touch made-here && echo ws-rw",
			 NULL };
	FILE *f;

	snprintf(path, sizeof(path), "%s/sub", ws);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sub/key.pem", ws);
	f = fopen(path, "w");
	if (f) {
		fputs("PRIVATE-KEY", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/sub/plain.txt", ws);
	f = fopen(path, "w");
	if (f) {
		fputs("plain", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/.git", ws);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.git/hooks", ws);
	mkdir(path, 0755);

	/* The command's relative paths are the workspace's: run from it
	 * (meson starts tests in the build directory). */
	char here[PATH_MAX];
	if (!getcwd(here, sizeof(here)) || chdir(ws) != 0)
		diag("chdir %s: %s", ws, strerror(errno));
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.memory_mb = 0;
	is_int(run_capture(&o, argv, &rep, &out), 0, "namespaces: runs");
	if (!ok(out && strstr(out, "plain"), "namespaces: ran in the workspace"))
		diag("output: %s", out ? out : "(none)");
	is_str(rep.backend, "namespaces", "namespaces: backend named");
	if (geteuid() != 0)
		is_str(rep.enforcement, "full", "namespaces: enforcement full");
	else
		ok(only_host_lost(&rep),
		   "namespaces: enforcement full but for root's owner bits");
	ok(out && !strstr(out, "PRIVATE-KEY"),
	   "namespaces: **/*.pem in the workspace is masked");
	ok(out && strstr(out, "plain"), "namespaces: other files readable");
	if (!ok(out && has_line(out, "hooks-ro"),
		"namespaces: .git/hooks read-only in the workspace"))
		diag("output: %s", out ? out : "(none)");
	ok(out && has_line(out, "etc-ro"), "namespaces: / read-only");
	ok(out && has_line(out, "ws-rw"), "namespaces: workspace writable");
	free(out);
	if (chdir(here) != 0)
		diag("chdir back: %s", strerror(errno));

	/* A symlink planted where a run-later mount goes is refused. */
	snprintf(path, sizeof(path), "%s/.vscode", ws);
	rmdir(path);
	if (symlink("/etc", path) == 0) {
		char *t[] = { "/bin/true", NULL };

		base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
		is_int(run_capture(&o, t, &rep, &out), 125,
		       "symlinked run-later path: refused");
		ok(strstr(rep.error, "symlink") != NULL &&
			   strstr(rep.error, ".vscode") != NULL,
		   "symlinked run-later path: named (%s)", rep.error);
		free(out);
		unlink(path);
	} else {
		skip(2, "cannot plant a symlink");
	}
}

/* The session's sockets: $XDG_RUNTIME_DIR is an empty directory inside,
 * SSH_AUTH_SOCK's socket is masked; the landlock backend says it cannot. */
static void test_host_sockets(bool ns)
{
	char rt[] = "/var/tmp/cordon-test-rt-XXXXXX";
	char bus[64], agent[64], script[256];
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	char *t[] = { "/bin/true", NULL };
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;

	if (!mkdtemp(rt)) {
		skip(5, "mkdtemp in /var/tmp");
		return;
	}
	snprintf(bus, sizeof(bus), "%s/bus", rt);
	snprintf(agent, sizeof(agent), "%s.agent", rt);
	if (!make_socket(bus) || !make_socket(agent)) {
		skip(5, "cannot bind unix sockets in /var/tmp");
		goto out;
	}
	snprintf(script, sizeof(script),
		 "test -S %s && echo bus-reachable; "
		 "test -S %s && echo agent-reachable; echo done",
		 bus, agent);
	setenv("XDG_RUNTIME_DIR", rt, 1);
	setenv("SSH_AUTH_SOCK", agent, 1);
	if (ns) {
		base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
		is_int(run_capture(&o, argv, &rep, &out), 0,
		       "sockets: runs");
		ok(out && has_line(out, "done") &&
			   !has_line(out, "bus-reachable"),
		   "sockets: $XDG_RUNTIME_DIR's sockets are hidden (%s)",
		   out ? out : "");
		ok(out && has_line(out, "done") &&
			   !has_line(out, "agent-reachable"),
		   "sockets: SSH_AUTH_SOCK's socket is masked");
		free(out);
	} else {
		skip(3, "user namespaces do not work here");
	}
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	(void)run_capture(&o, t, &rep, &out);
	/* With the connect supervisor (unixnotif.c) only the host's /tmp,
	 * a writable root on this backend, stays reachable. */
	if (strncmp(rep.late_sockets, "checked", 7) == 0)
		ok(lost_has(&rep, "unix sockets: those in the host's /tmp"),
		   "sockets: landlock reports the host's /tmp sockets "
		   "reachable");
	else
		ok(lost_has(&rep,
			    "unix sockets: host socket files stay reachable"),
		   "sockets: landlock reports host sockets reachable");
	free(out);
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.no_unix_sockets = true;
	(void)run_capture(&o, t, &rep, &out);
	ok(!lost_has(&rep, "unix sockets:"),
	   "sockets: not reported with --no-unix-sockets");
	free(out);
out:
	unsetenv("XDG_RUNTIME_DIR");
	unsetenv("SSH_AUTH_SOCK");
	unlink(bus);
	unlink(agent);
	rmdir(rt);
}

/* Running as root: /etc/shadow is masked, and the report says that other
 * files readable by root stay readable. */
static void test_root(bool ns)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char *argv[] = { "/bin/sh", "-c",
			 "head -c 4 /etc/shadow | wc -c; ls -A /root | wc -l",
			 NULL };
	struct stat st;

	if (geteuid() != 0 || stat("/etc/shadow", &st) != 0 ||
	    st.st_size == 0) {
		skip(4, "not root, or no /etc/shadow");
		return;
	}
	if (ns) {
		const char *home = getenv("HOME");
		char saved[PATH_MAX];

		/* /root is hidden unless it is the home. */
		snprintf(saved, sizeof(saved), "%s", home ? home : "/");
		setenv("HOME", ws, 1);
		base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
		is_int(run_capture(&o, argv, &rep, &out), 0, "root: runs");
		setenv("HOME", saved, 1);
		ok(out && strncmp(out, "0\n0\n", 4) == 0,
		   "root: /etc/shadow and /root are hidden (%s)",
		   out ? out : "");
		ok(caveat_has(&rep, "root: files readable by root stay readable"),
		   "root: namespaces names the owner bits as a caveat");
		is_str(rep.enforcement, "full",
		       "root: which does not make enforcement partial");
		free(out);
	} else {
		skip(3, "user namespaces do not work here");
	}
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	(void)run_capture(&o, argv, &rep, &out);
	ok(caveat_has(&rep, "root: files readable by root stay readable"),
	   "root: landlock names the owner bits as a caveat");
	free(out);
}

/* --memory without a cgroup v2 memory controller is per process. */
static void test_memory_report(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char *t[] = { "/bin/true", NULL };
	char buf[256] = "";
	FILE *f = fopen("/sys/fs/cgroup/cgroup.subtree_control", "r");
	bool v2mem;

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	v2mem = strstr(buf, "memory") != NULL;
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.memory_mb = 0;
	(void)run_capture(&o, t, &rep, &out);
	ok(!caveat_has(&rep, "memory:") && !lost_has(&rep, "memory:"),
	   "memory: nothing reported without --memory");
	free(out);
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	(void)run_capture(&o, t, &rep, &out);
	if (v2mem)
		skip(1, "a cgroup v2 memory controller may be delegated here");
	else
		ok(caveat_has(&rep, "memory: per process (RLIMIT_AS)"),
		   "memory: RLIMIT_AS only is reported as a caveat");
	free(out);
}

/* The C API's capture: past its 64 MiB ceiling the output is marked
 * truncated, not silently cut. */
static void test_capture_ceiling(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char *argv[] = { "/bin/sh", "-c", "head -c 70000000 /dev/zero", NULL };

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.memory_mb = 0;
	is_int(run_capture(&o, argv, &rep, &out), 0, "capture: runs");
	ok(rep.output_truncated, "capture: past 64 MiB is reported truncated");
	free(out);
}

static volatile int churn_stop;

static void *churn(void *arg)
{
	(void)arg;
	while (!churn_stop) {
		void *a = malloc(64), *b = malloc(4096);

		free(a);
		free(b);
	}
	return NULL;
}

/* sandbox_run from a host with other threads busy in malloc: the sandbox's
 * processes must not wait for a lock a host thread held at the clone.
 * Runs in a child process bounded by alarm(). */
static void test_threads(enum sandbox_backend backend, const char *name)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		pthread_t th[2];
		int bad = 0;

		alarm(90);
		for (int i = 0; i < 2; i++)
			if (pthread_create(&th[i], NULL, churn, NULL) != 0)
				_exit(3);
		for (int i = 0; i < 20 && !bad; i++) {
			struct sandbox_opts o;
			struct sandbox_report rep;
			struct cordon_diag dg;
			char *t[] = { "/bin/true", NULL };

			base_opts(&o, backend);
			o.timeout_s = 10;
			if (sandbox_run(&o, t, &rep, &dg) != CORDON_OK ||
			    rep.status != 0)
				bad = 1;
		}
		churn_stop = 1;
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		_exit(bad);
	}
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "%s threads: 20 runs beside malloc-busy threads (status %d)", name,
	   st);
}

/* cgroup v1: the child moves itself into the run's pids leaf (cgroup.c)
 * before anything is forked, and the tasks file it moved itself by does
 * not reach the command. */
static void test_cgroup_join(enum sandbox_backend backend, const char *name)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL, want[64];
	char *argv[] = { "/bin/sh", "-c",
			 "grep :pids: /proc/self/cgroup; "
			 "ls -l /proc/self/fd/ | grep -c /sys/fs/cgroup",
			 NULL };

	if (access("/sys/fs/cgroup/pids/tasks", W_OK) != 0) {
		skip(3, "cgroup: no writable v1 pids hierarchy");
		return;
	}
	base_opts(&o, backend);
	is_intf(run_capture(&o, argv, &rep, &out), 1,
		"%s cgroup: runs (grep -c counts no descriptor)", name);
	snprintf(want, sizeof(want), ":pids:/cordon-%u-", (unsigned)geteuid());
	ok(out && strstr(out, want) != NULL,
	   "%s cgroup: the command is in the run's pids leaf (%s)", name,
	   out ? out : "no output");
	ok(out && has_line(out, "0"),
	   "%s cgroup: no cgroup file is open in the command", name);
	free(out);
}

/* The landlock backend without a cgroup (run as nobody, who has no
 * writable one here): a descendant that left the session dies with the
 * command's exit and with the time-out. */
static void test_reaper(void)
{
	char nb[] = "/var/tmp/cordon-test-nb-XXXXXX";
	char marker[2][64], script[2][256];
	pid_t pids[16];
	size_t n;

	if (geteuid() != 0 || !mkdtemp(nb) || chmod(nb, 0777) != 0) {
		skip(4, "needs root (to run as nobody) and /var/tmp");
		return;
	}
	for (int i = 0; i < 2; i++) {
		snprintf(marker[i], sizeof(marker[i]), "sleep 779.%ld%d",
			 (long)getpid(), i);
		snprintf(script[i], sizeof(script[i]),
			 "setsid sh -c '%s' </dev/null >/dev/null 2>&1 & "
			 "sleep %s",
			 marker[i], i ? "100" : "0.5");
	}
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		int st = 0;

		if (pid == 0) {
			struct sandbox_opts o;
			struct sandbox_report rep;
			struct cordon_diag dg;
			char *argv[] = { "/bin/sh", "-c", script[i], NULL };

			if (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
			    setuid(65534) != 0 || chdir(nb) != 0)
				_exit(3);
			setenv("HOME", nb, 1);
			base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
			o.workspace = nb;
			o.timeout_s = i ? 1 : 30;
			if (sandbox_run(&o, argv, &rep, &dg) != CORDON_OK)
				_exit(4);
			_exit(rep.status == (i ? 124 : 0) ? 0 : 5);
		}
		waitpid(pid, &st, 0);
		is_intf(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0,
			"reaper %s: runs as nobody, status as expected",
			i ? "time-out" : "exit");
		n = find_marked(marker[i], pids, 16);
		ok(n == 0 || all_gone(pids, n),
		   "reaper %s: the setsid'd descendant is gone (%zu found)",
		   i ? "time-out" : "exit", n);
		if (n)
			for (size_t k = 0; k < n; k++)
				kill(pids[k], SIGKILL);
	}
	rmdir(nb);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* --deny-read globs of the user reach into node_modules and .venv; the
 * default ones still skip them. */
static void test_deny_skipped_dirs(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char path[PATH_MAX + 64];
	const char *deny[] = { "**/*.pem", ".env" };
	char *argv[] = { "/bin/sh", "-c",
			 "cat node_modules/pkg/id.pem .venv/.env; echo end",
			 NULL };
	char here[PATH_MAX];

	snprintf(path, sizeof(path), "%s/node_modules", ws);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/node_modules/pkg", ws);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/node_modules/pkg/id.pem", ws);
	write_file(path, "NM-SECRET");
	snprintf(path, sizeof(path), "%s/.venv", ws);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.venv/.env", ws);
	write_file(path, "VENV-SECRET");
	if (!getcwd(here, sizeof(here)) || chdir(ws) != 0)
		diag("chdir %s: %s", ws, strerror(errno));
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.deny_read = deny;
	o.ndeny_read = 2;
	is_int(run_capture(&o, argv, &rep, &out), 0, "deny-read: runs");
	ok(out && has_line(out, "end") && !strstr(out, "NM-SECRET") &&
		   !strstr(out, "VENV-SECRET") && !strstr(out, "No such"),
	   "deny-read: user globs apply below node_modules and .venv (%s)",
	   out ? out : "");
	free(out);
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	is_int(run_capture(&o, argv, &rep, &out), 0, "deny-read: runs");
	if (!ok(out && strstr(out, "NM-SECRET"),
		"deny-read: the default globs still skip node_modules"))
		diag("output: %s", out ? out : "(none)");
	free(out);
	if (chdir(here) != 0)
		diag("chdir back: %s", strerror(errno));
}

/* The whole of a small file, or "" (static). */
static const char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* The workspace of the deny_write tests: conf/locked.txt and its sibling
 * conf/free.txt, node_modules/pkg/id.pem (below a dependency directory,
 * where the default secret globs do not reach), data/a/b.csv, locked-dir/
 * and a symlink. */
static void dw_fixtures(const char *dws)
{
	char path[PATH_MAX + 96];
	const char *dirs[] = {
		"",	 "/conf",   "/node_modules", "/node_modules/pkg",
		"/data", "/data/a", "/locked-dir"
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dws, dirs[i]);
		mkdir(path, 0755);
	}
	snprintf(path, sizeof(path), "%s/conf/locked.txt", dws);
	write_file(path, "LOCKED");
	snprintf(path, sizeof(path), "%s/conf/free.txt", dws);
	write_file(path, "FREE");
	snprintf(path, sizeof(path), "%s/node_modules/pkg/id.pem", dws);
	write_file(path, "NM-PEM");
	snprintf(path, sizeof(path), "%s/data/a/b.csv", dws);
	write_file(path, "CSV");
	snprintf(path, sizeof(path), "%s/data/a/b.txt", dws);
	write_file(path, "TXT");
	snprintf(path, sizeof(path), "%s/link.txt", dws);
	(void)symlink("conf/locked.txt", path);
}

/* The run-later paths (here cordon's own user configuration, missing, with
 * the home directory as the workspace) cannot be got round by moving a
 * directory above them aside and making a fresh one in its place: the way
 * down is pinned. */
static void test_run_later_pinned(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char rws[PATH_MAX + 16], path[PATH_MAX + 96], here[PATH_MAX];
	const char *old_home = getenv("HOME");
	char *saved = old_home ? strdup(old_home) : NULL;
	char *argv[] = {
		"/bin/sh", "-c",
		"mv .config .config-moved 2>/dev/null || echo config-pinned; "
		"mkdir -p .config/cordon 2>/dev/null; "
		"echo LOOSE >.config/cordon/config.json 2>/dev/null || "
		"echo config-refused; echo end",
		NULL
	};
	struct stat st;

	snprintf(rws, sizeof(rws), "%s/rlhome", ws);
	mkdir(rws, 0755);
	snprintf(path, sizeof(path), "%s/.config", rws);
	mkdir(path, 0755);
	setenv("HOME", rws, 1);
	if (!getcwd(here, sizeof(here)) || chdir(rws) != 0)
		diag("chdir %s: %s", rws, strerror(errno));
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.workspace = rws;
	o.memory_mb = 0;
	is_int(run_capture(&o, argv, &rep, &out), 0, "run-later pins: runs");
	ok(out && strstr(out, "config-pinned") && strstr(out, "config-refused"),
	   "run-later pins: ~/.config cannot be moved aside to write "
	   "~/.config/cordon/config.json (%s)",
	   out ? out : "no output");
	ok(out && strstr(out, "end"), "run-later pins: the script ran to its end");
	snprintf(path, sizeof(path), "%s/.config-moved", rws);
	ok(lstat(path, &st) != 0, "run-later pins: nothing was moved");
	snprintf(path, sizeof(path), "%s/.config/cordon/config.json", rws);
	ok(lstat(path, &st) != 0, "run-later pins: no configuration was written");
	free(out);
	if (saved)
		setenv("HOME", saved, 1);
	else
		unsetenv("HOME");
	free(saved);
	if (chdir(here) != 0)
		diag("chdir back: %s", strerror(errno));
}

/* deny_write under the namespaces backend: listed files, glob matches and
 * directories are read-only (EROFS) and unchanged, their siblings stay
 * writable, a missing path cannot be created, the directories above a
 * listed path cannot be moved aside, a listed symlink is refused. */
static void test_deny_write(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char dws[PATH_MAX + 16], path[PATH_MAX + 96], erofs[128];
	char here[PATH_MAX];
	const char *dw[] = { "conf/locked.txt",	  "**/*.pem",
			     "data/**/*.csv",	  "locked-dir",
			     "conf/missing.json", "gen/out.json" };
	const char *dwlink[] = { "link.txt" };
	char *argv[] = {
		"/bin/sh", "-c",
		"{ true >>conf/locked.txt; } 2>&1; "
		"echo x >>conf/free.txt && echo free-rw; "
		"cat node_modules/pkg/id.pem; echo; "
		"{ true >>node_modules/pkg/id.pem; } 2>&1; "
		"{ true >>data/a/b.csv; } 2>&1; "
		"echo y >>data/a/b.txt && echo txt-rw; "
		"{ true >locked-dir/new; } 2>&1; "
		"mkdir locked-dir/sub 2>/dev/null || echo subdir-refused; "
		"{ true >conf/missing.json; } 2>&1; "
		"mkdir -p gen 2>/dev/null || echo gen-refused; "
		"{ true >gen/out.json; } 2>/dev/null || echo gen-out-refused; "
		"mv conf conf-moved 2>/dev/null || echo conf-pinned; "
		"mv locked-dir elsewhere 2>/dev/null || echo dir-pinned; "
		"echo end",
		NULL
	};
	struct stat st;

	snprintf(dws, sizeof(dws), "%s/dwws", ws);
	dw_fixtures(dws);
	snprintf(erofs, sizeof(erofs), "%s", strerror(EROFS));
	if (!getcwd(here, sizeof(here)) || chdir(dws) != 0)
		diag("chdir %s: %s", dws, strerror(errno));
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.workspace = dws;
	o.memory_mb = 0;
	o.deny_write = dw;
	o.ndeny_write = sizeof(dw) / sizeof(dw[0]);
	is_int(run_capture(&o, argv, &rep, &out), 0, "deny_write: runs");
	diag("output: %s", out ? out : "(none)");
#define HAS(s) (out && strstr(out, (s)) != NULL)
	snprintf(path, sizeof(path), "conf/locked.txt: %s", erofs);
	ok(HAS(path), "deny_write: a listed file: open for writing is EROFS");
	snprintf(path, sizeof(path), "%s/conf/locked.txt", dws);
	is_str(slurp(path), "LOCKED", "deny_write: the listed file unchanged");
	ok(HAS("free-rw"), "deny_write: its sibling is writable");
	snprintf(path, sizeof(path), "%s/conf/free.txt", dws);
	is_str(slurp(path), "FREEx\n", "deny_write: the sibling was written");
	ok(HAS("NM-PEM"), "deny_write: a glob match stays readable");
	snprintf(path, sizeof(path), "node_modules/pkg/id.pem: %s", erofs);
	ok(HAS(path), "deny_write: '**/*.pem' covers a match in node_modules");
	snprintf(path, sizeof(path), "data/a/b.csv: %s", erofs);
	ok(HAS(path), "deny_write: 'data/**/*.csv' covers a nested match");
	ok(HAS("txt-rw"), "deny_write: a file the glob misses is writable");
	snprintf(path, sizeof(path), "%s/data/a/b.csv", dws);
	is_str(slurp(path), "CSV", "deny_write: the glob match unchanged");
	snprintf(path, sizeof(path), "locked-dir/new: %s", erofs);
	ok(HAS(path), "deny_write: a listed directory gets no new file");
	ok(HAS("subdir-refused"), "deny_write: ... nor a new directory");
	snprintf(path, sizeof(path), "conf/missing.json: %s", erofs);
	ok(HAS(path), "deny_write: a missing path cannot be created");
	ok(HAS("gen-refused") && HAS("gen-out-refused"),
	   "deny_write: nor one whose directory is missing too");
	ok(HAS("conf-pinned") && HAS("dir-pinned"),
	   "deny_write: the directories on the way cannot be moved aside");
	ok(HAS("end"), "deny_write: the script ran to its end");
#undef HAS
	snprintf(path, sizeof(path), "%s/conf/missing.json", dws);
	ok(lstat(path, &st) != 0, "deny_write: no placeholder left behind");
	snprintf(path, sizeof(path), "%s/gen", dws);
	ok(lstat(path, &st) != 0, "deny_write: no gen left behind");
	snprintf(path, sizeof(path), "%s/locked-dir/new", dws);
	ok(lstat(path, &st) != 0, "deny_write: nothing made in the directory");
	ok(!lost_has(&rep, "deny_write"),
	   "deny_write: nothing reported lost under namespaces");
	if (geteuid() != 0)
		is_str(rep.enforcement, "full", "deny_write: enforcement full");
	else
		ok(only_host_lost(&rep),
		   "deny_write: enforcement full but for root's owner bits");
	free(out);

	/* A listed symlink would redirect the mount: refused, named. */
	{
		char *t[] = { "/bin/true", NULL };

		base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
		o.workspace = dws;
		o.deny_write = dwlink;
		o.ndeny_write = 1;
		is_int(run_capture(&o, t, &rep, &out), 125,
		       "deny_write: a listed symlink is refused");
		ok(strstr(rep.error, "deny_write path") &&
			   strstr(rep.error, "link.txt") &&
			   strstr(rep.error, "symlink"),
		   "deny_write: the symlink is named (%s)", rep.error);
		free(out);
	}
	if (chdir(here) != 0)
		diag("chdir back: %s", strerror(errno));
}

/* deny_write under the landlock backend and with the sandbox off: said in
 * notEnforced (strict mode refuses); a path outside every writable root is
 * read-only anyway and not listed. */
static void test_deny_write_lost(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	struct cordon_diag dg;
	char *out = NULL;
	char dws[PATH_MAX + 16];
	const char *dw[] = { "conf/locked.txt", "/usr/share/doc" };
	const char *many[300];
	char *argv[] = { "/bin/sh", "-c",
			 "echo x >>conf/locked.txt && echo written", NULL };
	char *t[] = { "/bin/true", NULL };
	char here[PATH_MAX];
	const char *lost = "deny_write: conf/locked.txt (landlock cannot make "
			   "a path read-only inside a writable root)";

	snprintf(dws, sizeof(dws), "%s/dwws", ws);
	dw_fixtures(dws);
	if (!getcwd(here, sizeof(here)) || chdir(dws) != 0)
		diag("chdir %s: %s", dws, strerror(errno));
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.workspace = dws;
	o.deny_write = dw;
	o.ndeny_write = 2;
	is_int(run_capture(&o, argv, &rep, &out), 0,
	       "deny_write landlock: runs");
	ok(out && has_line(out, "written"),
	   "deny_write landlock: the file stays writable (it is reported)");
	ok(lost_has(&rep, lost), "deny_write landlock: in notEnforced");
	ok(!lost_has(&rep, "deny_write: /usr/share/doc"),
	   "deny_write landlock: a path outside every writable root is not");
	is_str(rep.enforcement, "partial",
	       "deny_write landlock: enforcement partial");
	free(out);

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.workspace = dws;
	o.deny_write = dw;
	o.ndeny_write = 2;
	o.mode = SANDBOX_MODE_STRICT;
	is_int(run_capture(&o, t, &rep, &out), 125,
	       "deny_write landlock strict: refused (125)");
	ok(lost_has(&rep, lost) && strncmp(rep.error, "strict mode", 11) == 0,
	   "deny_write landlock strict: the reason is given");
	free(out);

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.workspace = dws;
	o.deny_write = dw;
	o.ndeny_write = 2;
	o.mode = SANDBOX_MODE_OFF;
	is_int(run_capture(&o, t, &rep, &out), 0, "deny_write mode off: runs");
	ok(lost_has(&rep, "deny_write: conf/locked.txt (mode off: no sandbox)"),
	   "deny_write mode off: in notEnforced");
	free(out);

	for (size_t i = 0; i < 300; i++)
		many[i] = "conf/locked.txt";
	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.workspace = dws;
	o.deny_write = many;
	o.ndeny_write = 5;
	is_int(run_capture(&o, t, &rep, &out), 0,
	       "deny_write landlock: five entries run");
	ok(lost_has(&rep, "deny_write: and 3 more (landlock"),
	   "deny_write landlock: past two entries, a count");
	free(out);
	o.ndeny_write = 300;
	is_int(sandbox_run(&o, t, &rep, &dg), CORDON_E_LIMIT,
	       "deny_write: more than 256 entries is an error");
	if (chdir(here) != 0)
		diag("chdir back: %s", strerror(errno));
}

/* A workspace inside a repository: no .git placeholder (git works there,
 * inside and outside); the registry is on disk with (dev, ino) per entry,
 * and a forged entry does not remove a file that is not its placeholder. */
static void test_placeholders(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	char encl[PATH_MAX + 16], sub[PATH_MAX + 32], path[PATH_MAX + 64];
	char reg[PATH_MAX + 64], victim[PATH_MAX + 16];
	char state[] = "/var/tmp/cordon-test-state-XXXXXX";
	char check[PATH_MAX + 96];
	char *argv[] = { "/bin/sh", "-c", check, NULL };
	char script[PATH_MAX + 128];
	char *cat[] = { "/bin/sh", "-c", script, NULL };
	char lscript[PATH_MAX + 512];
	char *lsh[] = { "/bin/sh", "-c", lscript, NULL };
	struct stat st;
	FILE *f;

	snprintf(encl, sizeof(encl), "%s/encl", ws);
	mkdir(encl, 0755);
	snprintf(path, sizeof(path), "%s/.git", encl);
	mkdir(path, 0755);
	snprintf(sub, sizeof(sub), "%s/src", encl);
	mkdir(sub, 0755);
	snprintf(check, sizeof(check),
		 "test -e '%s/.git' && echo has-git || echo no-git", sub);
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.workspace = sub;
	is_int(run_capture(&o, argv, &rep, &out), 0, "enclosing repo: runs");
	ok(out && has_line(out, "no-git"),
	   "enclosing repo: no .git placeholder in the workspace (%s)",
	   out ? out : "");
	free(out);

	/* A workspace without a repository gets one, listed on disk (in
	 * /var/tmp here: the host's /tmp is not the sandbox's). */
	if (!mkdtemp(state)) {
		skip(6, "mkdtemp in /var/tmp");
		return;
	}
	setenv("XDG_STATE_HOME", state, 1);
	snprintf(reg, sizeof(reg), "%s/cordon/placeholders", state);
	snprintf(script, sizeof(script), "cat '%s' 2>&1", reg);
	snprintf(path, sizeof(path), "%s/plainws", ws);
	mkdir(path, 0755);
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.workspace = path;
	is_int(run_capture(&o, cat, &rep, &out), 0, "registry: runs");
	snprintf(path, sizeof(path), "%s/plainws/.git", ws);
	ok(out && strstr(out, path) && out[0] >= '0' && out[0] <= '9',
	   "registry: on disk in $XDG_STATE_HOME, with dev and ino (%s)",
	   out ? out : "");
	free(out);
	ok(lstat(path, &st) != 0, "registry: the placeholder is gone after");

	/* Each file placeholder is an inode of its own with one name: with
	 * names sharing one, a write through a name this run does not
	 * protect (a run with the parent directory as its workspace, past
	 * its hard-link ceiling) would land in one it does (.git). */
	snprintf(path, sizeof(path), "%s/phws", ws);
	mkdir(path, 0755);
	snprintf(lscript, sizeof(lscript),
		 "cd '%s' || exit 9; for n in .git .cordon .claude .codex "
		 ".vscode .idea; do stat -c '%%i %%h' $n; done | sort -u | "
		 "awk '$2 == 1 { n++ } END { print \"single \" n+0 }'",
		 path);
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	o.workspace = path;
	is_int(run_capture(&o, lsh, &rep, &out), 0, "placeholders: runs");
	ok(out && has_line(out, "single 6"),
	   "placeholders: six inodes, one name each (%s)", out ? out : "");
	free(out);
	rmdir(path);

	/* Forged entries: old format, and a wrong inode. */
	snprintf(victim, sizeof(victim), "%s/victim", ws);
	write_file(victim, "");
	f = fopen(reg, "a");
	if (f && stat(victim, &st) == 0) {
		fprintf(f, "%s\n%llu %llu %s\n", victim,
			(unsigned long long)st.st_dev,
			(unsigned long long)st.st_ino + 1, victim);
	}
	if (f)
		fclose(f);
	base_opts(&o, SANDBOX_BACKEND_NAMESPACES);
	{
		char *t[] = { "/bin/true", NULL };

		(void)run_capture(&o, t, &rep, &out);
	}
	free(out);
	ok(lstat(victim, &st) == 0,
	   "registry: a forged entry does not remove an empty file");
	unlink(victim);
	unlink(reg);
	snprintf(reg, sizeof(reg), "%s/cordon", state);
	rmdir(reg);
	rmdir(state);
	setenv("XDG_STATE_HOME", cache, 1);
}

/* argv-only: the output cap truncates with a note. */
static void test_output_cap(void)
{
	struct sandbox_opts o;
	struct sandbox_report rep;
	char *out = NULL;
	const char *cmds[] = { "sh" };
	char *argv[] = { "sh", "-c",
			 "i=0; while [ $i -lt 200 ]; do "
			 "echo 0123456789; i=$((i+1)); done",
			 NULL };

	base_opts(&o, SANDBOX_BACKEND_LANDLOCK);
	o.argv_only = true;
	o.allow_cmds = cmds;
	o.nallow_cmds = 1;
	o.output_cap = 100;
	(void)run_capture(&o, argv, &rep, &out);
	ok(out && strstr(out, "[cordon: output truncated after 100 bytes]"),
	   "output cap: the note is there");
	ok(out && strlen(out) < 200, "output cap: the output was cut (%zu)",
	   out ? strlen(out) : 0);
	ok(rep.output_truncated, "output cap: reported");
	free(out);
}

static void cleanup_tree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	if (strncmp(dir, "/tmp/cordon-test-", 17) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
}

int main(void)
{
	char wst[] = "/tmp/cordon-test-ws-XXXXXX";
	char cat[] = "/tmp/cordon-test-cache-XXXXXX";
	char why[1024], why2[1024];
	char *save = NULL;
	int best;
	bool ns;

	tap_no_plan();
	if (!mkdtemp(wst) || !mkdtemp(cat)) {
		diag("mkdtemp: %s", strerror(errno));
		return 1;
	}
	memcpy(ws, wst, sizeof(wst));
	memcpy(cache, cat, sizeof(cat));
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("XDG_STATE_HOME", cache, 1);

	test_report_json();
	test_validation();

	best = sandbox_probe(true, why, sizeof(why));
	memcpy(why2, why, sizeof(why2));
	for (char *line = strtok_r(why2, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		diag("probe: %s", line);
	ok(best >= 0, "probe: some backend works here");
	{
		char again[1024];

		is_int(sandbox_probe(false, again, sizeof(again)), best,
		       "probe: the cached verdict is the same");
		is_str(again, why, "probe: the cached reason is the same");
	}
	{
		char file[PATH_MAX + 32];
		struct stat st;

		snprintf(file, sizeof(file), "%s/cordon/probe.json", cache);
		ok(stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
			   (st.st_mode & 07777) == 0600,
		   "probe: the verdict is cached in the cache directory, 0600");
	}
	ns = best == SANDBOX_BACKEND_NAMESPACES;
	if (ns) {
		/* A verdict planted in the cache (a command on the landlock
		 * backend with --cache-writes may write it) does not make
		 * later runs weaker: a cached downgrade is checked. */
		char file[PATH_MAX + 32], text[512];
		struct utsname u;
		FILE *f;

		snprintf(file, sizeof(file), "%s/cordon/probe.json", cache);
		uname(&u);
		snprintf(text, sizeof(text),
			 "{\"kernel\": \"%s\", \"version\": \"%s\", "
			 "\"best\": \"landlock\", \"why\": \"planted\"}",
			 u.release, CORDON_VERSION);
		f = fopen(file, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
		is_int(sandbox_probe(false, NULL, 0),
		       SANDBOX_BACKEND_NAMESPACES,
		       "probe: a planted 'landlock' verdict is checked, not "
		       "believed");
	} else {
		skip(1, "the namespaces backend does not work here");
	}

	test_env(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_statuses(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_timeout_tree(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_owner_gone(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_landlock_partial();
	test_proxy(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_output_cap();
	test_memory_report();
	test_capture_ceiling();
	test_host_sockets(ns);
	test_root(ns);
	test_threads(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_cgroup_join(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_reaper();
	test_deny_write_lost();
	test_run_end(SANDBOX_BACKEND_LANDLOCK, "landlock");
	test_on_end(SANDBOX_BACKEND_LANDLOCK, "landlock");
	if (ns)
		test_threads(SANDBOX_BACKEND_NAMESPACES, "namespaces");
	if (ns) {
		test_env(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_statuses(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_timeout_tree(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_owner_gone(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_cgroup_join(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_parent_death();
		test_namespaces();
		test_proxy(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_deny_skipped_dirs();
		test_deny_write();
		test_run_later_pinned();
		test_placeholders();
		test_run_end(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_on_end(SANDBOX_BACKEND_NAMESPACES, "namespaces");
		test_pid1_killed();
	} else {
		skip(1, "user namespaces do not work here");
	}
	cleanup_tree(ws);
	cleanup_tree(cache);
	return tap_done();
}
