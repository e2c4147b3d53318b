/* report — the run's report (struct sandbox_report, sandbox.h):
 * enforcement, notEnforced and caveats from what the plan could apply,
 * refusals, the decoded exit status, and its JSON form.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "landlock.h"
#include "sandbox_int.h"

#include "banned.h"

/* What holds for a unix socket bound after the launch (unixnotif.c). */
#define UNOTIF_CAVEAT_ON                                                      \
	"unix sockets: masked as bound at the start; one bound later is "     \
	"refused at connect outside the writable roots"
#define UNOTIF_CAVEAT_OFF                                                     \
	"unix sockets: masked as bound at the start; one bound on the host "  \
	"later is reachable"
#define UNOTIF_LATE_ON "checked at connect (seccomp user notification)"
#define UNOTIF_LATE_OFF "not checked: masks made at the start only"

__attribute__((format(printf, 2, 3))) void
sandbox_report_lost(struct sandbox_report *rep, const char *fmt, ...)
{
	va_list ap;
	size_t cap = sizeof(rep->not_enforced) / sizeof(rep->not_enforced[0]);

	if (rep->nnot_enforced >= cap)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(rep->not_enforced[rep->nnot_enforced],
			sizeof(rep->not_enforced[0]), fmt, ap);
	va_end(ap);
	rep->nnot_enforced++;
}

__attribute__((format(printf, 2, 3))) static void
rep_caveat(struct sandbox_report *rep, const char *fmt, ...)
{
	va_list ap;
	size_t cap = sizeof(rep->caveats) / sizeof(rep->caveats[0]);

	if (rep->ncaveats >= cap)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(rep->caveats[rep->ncaveats], sizeof(rep->caveats[0]),
			fmt, ap);
	va_end(ap);
	rep->ncaveats++;
}

/* The deny_write entries not applied, one line each for the first two,
 * then how many more (notEnforced has 16 lines for everything). */
void sandbox_report_deny_write(struct sandbox_plan *p,
			       struct sandbox_report *rep, const char *why)
{
	const struct sandbox_opts *o = p->o;
	size_t lost = 0;

	for (size_t i = 0; i < o->ndeny_write; i++) {
		if (p->backend == SANDBOX_BACKEND_LANDLOCK &&
		    !sandbox_walk_dw_writable(p, o->deny_write[i]))
			continue;
		if (lost < 2)
			sandbox_report_lost(rep, "deny_write: %s (%s)",
					    o->deny_write[i], why);
		lost++;
	}
	if (lost > 2)
		sandbox_report_lost(rep, "deny_write: and %zu more (%s)",
				    lost - 2, why);
}

/* Fills enforcement and notEnforced from what the plan could apply. */
void sandbox_report_plan(struct sandbox_plan *p, struct sandbox_report *rep)
{
	const struct sandbox_opts *o = p->o;
	int abi = landlock_abi();
	bool root = geteuid() == 0;

	if (p->backend == SANDBOX_BACKEND_NAMESPACES) {
		rep->backend = "namespaces";
		if (abi == 0)
			sandbox_report_lost(
				rep, "landlock: not available (the mount "
				     "namespace is the only write wall)");
		else if (abi < 6 && o->network == SANDBOX_NET_HOST)
			sandbox_report_lost(
				rep, "landlock: abstract unix sockets not "
				     "scoped (ABI < 6)");
		if (!p->home_nocreate && !o->no_read_home && abi == 0 &&
		    sandbox_plan_host_writable(p, p->home))
			sandbox_report_lost(
				rep, "landlock: not available: rc files "
				     "missing from a writable $HOME can be "
				     "created");
		if (p->ph_missed)
			sandbox_report_lost(
				rep, "run-later paths missing before the run "
				     "can be created (no placeholder "
				     "registry)");
		if (p->dw_missed)
			sandbox_report_lost(
				rep, "deny_write: paths missing before the run "
				     "can be created (no placeholder "
				     "registry)");
		if (p->sock_missed)
			sandbox_report_lost(
				rep, "unix sockets: a runtime directory holds "
				     "a writable root: its sockets stay "
				     "reachable");
		if (p->sock_over)
			sandbox_report_lost(
				rep,
				"unix sockets: more than %d bound on the "
				"host: the rest stay reachable "
				"(SANDBOX_MAX_SOCKETS)",
				SANDBOX_MAX_SOCKETS);
		if (p->sock_unlisted)
			sandbox_report_lost(
				rep, "unix sockets: /proc/net/unix unreadable: "
				     "only the well-known sockets are masked");
		if (p->unotif_asked)
			rep_caveat(rep, UNOTIF_CAVEAT_ON);
		else
			rep_caveat(rep, UNOTIF_CAVEAT_OFF);
		if (root)
			rep_caveat(rep, "root: files readable by root stay "
					"readable (shadow, sudoers, ssh host "
					"keys and /root are hidden)");
		if (p->hardlinks_over)
			sandbox_report_lost(
				rep,
				"hardlinks: more than %d files in the "
				"writable roots have other names: the "
				"rest stay writable through "
				"(SANDBOX_MAX_HARDLINKS)",
				SANDBOX_MAX_HARDLINKS);
		if (p->walk_truncated)
			sandbox_report_lost(
				rep,
				"workspace walk stopped at %d entries or "
				"depth %d: deeper repos and globs not "
				"covered",
				SANDBOX_WALK_MAX_ENTRIES,
				SANDBOX_WALK_MAX_DEPTH);
	} else {
		rep->backend = "landlock";
		if (p->home_read && p->cred_unguarded)
			sandbox_report_lost(rep,
					    "mount namespace: --deny-read and "
					    "credentials outside $HOME "
					    "($XDG_*_HOME) stay readable");
		else if (p->home_read)
			sandbox_report_lost(rep,
					    "mount namespace: --deny-read "
					    "(files stay readable; credentials "
					    "are not: Landlock)");
		else
			sandbox_report_lost(rep,
					    "mount namespace: credential masks "
					    "and --deny-read (files stay "
					    "readable)");
		sandbox_report_lost(
			rep, "mount namespace: run-later paths in writable "
			     "roots stay writable");
		sandbox_report_lost(
			rep, "mount namespace: hardlinks in the workspace to "
			     "files outside stay writable");
		sandbox_report_lost(
			rep, "mount namespace: private /tmp and /dev/shm (the "
			     "host's are writable)");
		sandbox_report_lost(
			rep, "landlock: metadata (chmod, chown, xattr) of "
			     "files outside not restricted");
		if (o->no_read_home)
			sandbox_report_lost(rep,
					    "mount namespace: --no-read-home");
		if (!o->no_unix_sockets && p->unotif_asked)
			sandbox_report_lost(
				rep, "unix sockets: those in the host's /tmp "
				     "(writable here) stay reachable");
		else if (!o->no_unix_sockets)
			sandbox_report_lost(
				rep, "unix sockets: host socket files stay "
				     "reachable (session bus, agents)");
		if (root)
			rep_caveat(rep, "root: files readable by root stay "
					"readable");
		if (!p->reaper)
			sandbox_report_lost(
				rep, "pid namespace: the tree outlives cordon "
				     "if cordon is killed");
		if (!p->reaper && !p->cg.path[0])
			sandbox_report_lost(
				rep, "time-out and exit: processes that leave "
				     "the process group survive (no cgroup)");
		sandbox_report_lost(rep,
				    "ipc namespace: host SysV IPC and message "
				    "queues reachable");
		if (o->network == SANDBOX_NET_PROXY) {
			if (abi >= 4)
				sandbox_report_lost(rep,
						    "network: UDP and other "
						    "protocols not restricted "
						    "(landlock only)");
			if (abi >= 4)
				sandbox_report_lost(
					rep, "network: TCP connect to the "
					     "proxy's port allowed on every "
					     "address (landlock only)");
			else
				sandbox_report_lost(
					rep, "network: proxy not enforced "
					     "(Landlock ABI < 4): the proxy "
					     "variables are advisory");
		}
		if (o->network == SANDBOX_NET_NONE) {
			if (abi >= 4)
				sandbox_report_lost(
					rep, "network namespace: network none "
					     "(Landlock TCP rules only; UDP "
					     "open)");
			else
				sandbox_report_lost(
					rep, "network namespace: network none "
					     "(not enforced: Landlock ABI < "
					     "4)");
		}
		if (abi == 0)
			sandbox_report_lost(
				rep, "landlock: not available (writes "
				     "outside the workspace are allowed)");
		else if (abi < 3)
			sandbox_report_lost(rep,
					    "landlock: truncate not restricted "
					    "(ABI < 3)");
		if (abi > 0 && abi < 6)
			sandbox_report_lost(
				rep, "landlock: abstract unix sockets and "
				     "signals not scoped (ABI < 6)");
		sandbox_report_deny_write(
			p, rep,
			"landlock cannot make a path read-only inside "
			"a writable root");
	}
	if (!p->unotif_asked)
		sandbox_report_lost(rep,
				    "unix sockets bound after the start: "
				    "connect not checked (%.40s)",
				    p->unotif_why);
	(void)snprintf(rep->late_sockets, sizeof(rep->late_sockets), "%s",
		       p->unotif_asked ? UNOTIF_LATE_ON : UNOTIF_LATE_OFF);
	if (p->home_read)
		rep_caveat(rep,
			   "files new during the run: under $HOME "
			   "readable only inside a directory there at "
			   "the start; workspace globs match at the start");
	else
		rep_caveat(rep, "files new during the run: masks and globs "
				"are made at the start (a credential made "
				"later is readable)");
	/* Verified on both backends: a flock or fcntl lock taken through
	 * the read-only bind (or the host's own tree) is the host file's. */
	rep_caveat(rep, "locks: flock/fcntl locks on host files are the "
			"host's: a host process locking the same file can be "
			"stalled");
	/* inotify limits count per user: the namespaces backend gives its
	 * user namespace half (mountns.c); without one there is no lever. */
	if (p->backend == SANDBOX_BACKEND_NAMESPACES)
		rep_caveat(rep, "inotify: the command may take half of the "
				"user's instances and watches");
	else
		rep_caveat(rep, "inotify: the command may take all of the "
				"user's instances and watches (the host's "
				"processes of the same user then get none)");
	/* The terminal relay (pty.c): what the command can do to the
	 * caller's terminal, per backend. */
	if (p->pty_on && p->backend == SANDBOX_BACKEND_LANDLOCK)
		rep_caveat(rep,
			   "terminal: relayed through a pty cordon made; the "
			   "caller's %.24s stays readable by path (%s)",
			   p->pty_name,
			   sandbox_pty_modes_allowed(p) ?
				   "not writable, no ioctl" :
				   "not writable; modes locked, Landlock < 5");
	else if (p->pty_on)
		rep_caveat(rep,
			   "terminal: relayed through a pty cordon made (no "
			   "name inside: ttyname fails); the caller's %.24s "
			   "is out of reach",
			   p->pty_name);
	for (int fd = 0; fd < 3; fd++)
		if (p->stdio_tty[fd][0])
			rep_caveat(rep,
				   "fd %d is the caller's terminal %s: passed "
				   "through (its mode is locked; its owner "
				   "and mode bits are not)",
				   fd, p->stdio_tty[fd]);
	/* --memory asks for RLIMIT_AS (the cap); the cgroup is a
	 * second, tree-wide limit where one can be had. */
	if (o->memory_mb && !p->mem_by_cgroup)
		rep_caveat(rep, "memory: per process (RLIMIT_AS), not for the "
				"whole tree nor memfd files nor SysV shared "
				"memory (no cgroup v2 memory controller)");
	if (o->memory_mb && !p->mem_by_cgroup &&
	    p->backend == SANDBOX_BACKEND_NAMESPACES)
		rep_caveat(rep, "memory: files in the private /tmp and "
				"/dev/shm count apart, within --memory in "
				"all (tmpfs size=)");
	if (o->memory_mb && !p->mem_by_cgroup &&
	    p->backend != SANDBOX_BACKEND_NAMESPACES)
		rep_caveat(rep, "memory: files written to the host's /tmp "
				"and /dev/shm are not counted (no cgroup)");
	if (!p->pids_by_cgroup && root)
		sandbox_report_lost(
			rep, "pids: no writable cgroup with the pids "
			     "controller, and RLIMIT_NPROC does not bind root");
	rep->enforcement = rep->nnot_enforced ? "partial" : "full";
}

/* The kernel refused the child a listener (an enclosing filter has one:
 * cordon inside cordon): connects go unchecked, the report says so. */
void sandbox_report_unotif(struct sandbox_plan *p, struct sandbox_report *rep)
{
	if (!p->unotif_asked || !p->unotif_err)
		return;
	sandbox_report_lost(rep,
			    "unix sockets bound after the start: connect not "
			    "checked (seccomp listener: %s)",
			    strerrorname_np(p->unotif_err) ?
				    strerrorname_np(p->unotif_err) :
				    "refused");
	(void)snprintf(rep->late_sockets, sizeof(rep->late_sockets), "%s",
		       UNOTIF_LATE_OFF);
	for (size_t i = 0; i < rep->ncaveats; i++)
		if (strcmp(rep->caveats[i], UNOTIF_CAVEAT_ON) == 0)
			(void)snprintf(rep->caveats[i], sizeof(rep->caveats[i]),
				       "%s", UNOTIF_CAVEAT_OFF);
	rep->enforcement = "partial";
}

void sandbox_report_init(struct sandbox_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->backend = "none";
	rep->enforcement = "none";
	rep->exit_code = -1;
}

__attribute__((format(printf, 3, 4))) void
sandbox_report_refuse(struct sandbox_report *rep, int status, const char *fmt,
		      ...)
{
	va_list ap;

	rep->status = status;
	rep->exit_code = status == ST_SETUP ? -1 : status;
	va_start(ap, fmt);
	(void)vsnprintf(rep->error, sizeof(rep->error), fmt, ap);
	va_end(ap);
}

/* Decodes the status: the time-out, the child's own error text, the
 * command's wait status. */
void sandbox_report_status(struct sandbox_plan *p, struct sandbox_report *rep,
			   int wstatus, bool got)
{
	char buf[sizeof(rep->error) + 8];
	ssize_t n = read(p->err_r, buf, sizeof(buf) - 1);
	int status;

	if (p->st_r >= 0 &&
	    read(p->st_r, &p->st_status, sizeof(p->st_status)) ==
		    (ssize_t)sizeof(p->st_status))
		p->st_have = true;
	if (p->st_have) {
		wstatus = p->st_status;
		got = true;
	}
	if (n > 4) {
		char *end;
		long code;

		buf[n] = '\0';
		errno = 0;
		code = strtol(buf, &end, 10);
		if (!errno && end != buf && *end == ' ' &&
		    (code == ST_SETUP || code == ST_NOEXEC ||
		     code == ST_NOTFOUND)) {
			if (p->error[0] &&
			    strstr(end + 1, "could not build the filter"))
				sandbox_report_refuse(rep, (int)code, "%s",
						      p->error);
			else
				sandbox_report_refuse(rep, (int)code, "%s",
						      end + 1);
			if (rep->timed_out)
				rep->status = ST_TIMEOUT;
			return;
		}
	}
	if (!got) {
		sandbox_report_refuse(rep, ST_SETUP,
				      "the sandbox's process vanished");
		return;
	}
	/* Ended by the run itself when its owner went (owner_pidfd): how
	 * the command would have ended is not known. */
	if (p->owner_killed) {
		sandbox_report_refuse(rep, ST_SETUP,
				      "the process this run belonged to ended "
				      "and the command did not end within "
				      "%lu ms: its sandbox was killed",
				      p->o->owner_grace_ms);
		return;
	}
	/* PID 1 gone without the command's status (killed from outside, or
	 * a write that failed): the namespace ended with it, but how the
	 * command ended is not known, and its status is not made up from
	 * PID 1's. (A time-out's kill is the run's own: reported as one.) */
	if (p->backend == SANDBOX_BACKEND_NAMESPACES && !p->st_have &&
	    !rep->timed_out) {
		if (WIFSIGNALED(wstatus))
			sandbox_report_refuse(rep, ST_SETUP,
					      "the sandbox's PID 1 was killed "
					      "(signal %d) before it reported "
					      "how the command ended",
					      WTERMSIG(wstatus));
		else
			sandbox_report_refuse(rep, ST_SETUP,
					      "the sandbox's PID 1 exited (%d) "
					      "before it reported how the "
					      "command ended",
					      WEXITSTATUS(wstatus));
		return;
	}
	if (WIFEXITED(wstatus)) {
		rep->exit_code = WEXITSTATUS(wstatus);
		rep->signal = 0;
		status = rep->exit_code;
	} else {
		rep->exit_code = -1;
		rep->signal = WTERMSIG(wstatus);
		status = 128 + rep->signal;
	}
	rep->status = rep->timed_out ? ST_TIMEOUT : status;
}

char *sandbox_report_json(const struct sandbox_report *rep)
{
	cJSON *j = cJSON_CreateObject(), *arr;
	char *text;

	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "backend",
				rep->backend ? rep->backend : "none");
	cJSON_AddStringToObject(j, "enforcement",
				rep->enforcement ? rep->enforcement : "none");
	arr = cJSON_AddArrayToObject(j, "notEnforced");
	for (size_t i = 0; arr && i < rep->nnot_enforced; i++)
		cJSON_AddItemToArray(arr,
				     cJSON_CreateString(rep->not_enforced[i]));
	arr = cJSON_AddArrayToObject(j, "caveats");
	for (size_t i = 0; arr && i < rep->ncaveats; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(rep->caveats[i]));
	arr = cJSON_AddArrayToObject(j, "quarantined");
	for (size_t i = 0; arr && i < rep->nquarantined; i++)
		cJSON_AddItemToArray(arr,
				     cJSON_CreateString(rep->quarantined[i]));
	if (arr && rep->quarantined_more) {
		char more[64];

		(void)snprintf(more, sizeof(more), "and %zu more",
			       rep->quarantined_more);
		cJSON_AddItemToArray(arr, cJSON_CreateString(more));
	}
	if (rep->late_sockets[0])
		cJSON_AddStringToObject(j, "lateUnixSockets",
					rep->late_sockets);
	if (rep->exit_code >= 0)
		cJSON_AddNumberToObject(j, "exitCode", rep->exit_code);
	else
		cJSON_AddNullToObject(j, "exitCode");
	if (rep->signal > 0) {
		char name[32];
		const char *abbrev = sigabbrev_np(rep->signal);

		if (abbrev)
			(void)snprintf(name, sizeof(name), "SIG%s", abbrev);
		else
			(void)snprintf(name, sizeof(name), "%d", rep->signal);
		cJSON_AddStringToObject(j, "signal", name);
	} else {
		cJSON_AddNullToObject(j, "signal");
	}
	cJSON_AddBoolToObject(j, "timedOut", rep->timed_out);
	cJSON_AddNumberToObject(j, "durationMs", (double)rep->duration_ms);
	cJSON_AddNumberToObject(j, "status", rep->status);
	if (rep->error[0])
		cJSON_AddStringToObject(j, "error", rep->error);
	if (rep->output_truncated)
		cJSON_AddBoolToObject(j, "outputTruncated", true);
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return text;
}
