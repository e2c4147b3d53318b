/* cgroup — the run's cgroup leaf (sandbox_int.h): v2 with memory.max and
 * pids.max when our cgroup delegates both controllers, else the v1 pids
 * hierarchy. Leaves come from a pool, flock'ed while a run uses one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <linux/magic.h>

#include "sandbox_int.h"

#include "banned.h"

/* Our cgroup path for a hierarchy: "0::" (v2) or the v1 controller name. */
static bool own_cgroup(const char *controller, char *out, size_t cap)
{
	char buf[4096];
	ssize_t n = sandbox_read_small("/proc/self/cgroup", buf, sizeof(buf));
	char *line, *save = NULL;

	if (n <= 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2;
		size_t len;

		if (!c1)
			continue;
		c2 = strchr(c1 + 1, ':');
		if (!c2)
			continue;
		*c2 = '\0';
		if (controller ? strcmp(c1 + 1, controller) != 0 :
				 strcmp(line, "0:") != 0)
			continue;
		len = strlen(c2 + 1);
		if (len >= cap)
			return false;
		memcpy(out, c2 + 1, len + 1);
		return true;
	}
	return false;
}

static int cg_open_procs(const char *leaf)
{
	char path[PATH_MAX + 16];
	int n = snprintf(path, sizeof(path), "%s/cgroup.procs", leaf);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	return open(path, O_WRONLY | O_CLOEXEC);
}

static bool cg_write_leaf(const char *leaf, const char *file,
			  unsigned long long v)
{
	char path[PATH_MAX + 32], num[32];
	int n = snprintf(path, sizeof(path), "%s/%s", leaf, file);

	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	if (v)
		(void)snprintf(num, sizeof(num), "%llu", v);
	else
		memcpy(num, "max", 4);
	return sandbox_write_str(path, num) == 0;
}

/* The cgroup v2 mount: /sys/fs/cgroup, or /sys/fs/cgroup/unified. */
static const char *cg2_mount(void)
{
	static const char *const cands[] = { "/sys/fs/cgroup",
					     "/sys/fs/cgroup/unified" };
	struct statfs sf;

	for (size_t i = 0; i < 2; i++)
		if (statfs(cands[i], &sf) == 0 &&
		    (unsigned long)sf.f_type ==
			    (unsigned long)CGROUP2_SUPER_MAGIC)
			return cands[i];
	return NULL;
}

/* Does our v2 cgroup hand the memory and pids controllers to its
 * children? (Enabling them is the system's business, not ours.) */
static bool cg2_delegates(const char *m2, const char *own)
{
	char path[PATH_MAX + 64], buf[512];
	bool mem = false, pids = false;
	char *w, *save = NULL;
	int n = snprintf(path, sizeof(path), "%s%s/cgroup.subtree_control", m2,
			 strcmp(own, "/") == 0 ? "" : own);

	if (n < 0 || (size_t)n >= sizeof(path) ||
	    sandbox_read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	for (w = strtok_r(buf, " \n", &save); w;
	     w = strtok_r(NULL, " \n", &save)) {
		mem |= strcmp(w, "memory") == 0;
		pids |= strcmp(w, "pids") == 0;
	}
	return mem && pids;
}

void sandbox_cgroup_clear(struct sandbox_cgroup *cg)
{
	cg->path[0] = '\0';
	cg->procs_fd = -1;
	cg->lock_fd = -1;
	cg->v2 = false;
}

void sandbox_cgroup_init(struct sandbox_cgroup *cg)
{
	sandbox_cgroup_clear(cg);
	cg->warm_fd = -1;
	cg->warming = false;
}

void sandbox_cgroup_release(struct sandbox_cgroup *cg)
{
	if (cg->warming)
		pthread_join(cg->warm, NULL);
	cg->warming = false;
	if (cg->warm_fd >= 0)
		close(cg->warm_fd);
	cg->warm_fd = -1;
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->lock_fd >= 0)
		close(cg->lock_fd);
	sandbox_cgroup_clear(cg);
}

static void *cg_warm_thread(void *arg)
{
	const struct sandbox_cgroup *cg = arg;
	char num[24];
	int n = snprintf(num, sizeof(num), "%ld", (long)getpid());

	if (n > 0 && write(cg->warm_fd, num, (size_t)n) != n) {
		/* Best effort: the child's join then waits as it would. */
	}
	return NULL;
}

/* cgroup v1: joining a cgroup takes the kernel's cgroup_threadgroup_rwsem
 * for writing, which waits for an RCU grace period unless another writer
 * took it less than a grace period before (rcu_sync). On a busy machine a
 * grace period lasts 5-30 ms, and the child's join is on its way to the
 * command's exec. So from the start of the plan, a thread moves this
 * process into the v1 pids cgroup it is already in (a move that changes
 * nothing) and waits out the grace period in its place: the child's join
 * finds it passed. Best effort: without a v1 pids hierarchy, the right to
 * write our own cgroup.procs or a thread, the child's join waits as
 * before; with a v2 leaf (no join: CLONE_INTO_CGROUP) it was for nothing.
 * All signals stay blocked in the thread: the parent takes them from a
 * signalfd. Joined by sandbox_cgroup_release. */
void sandbox_cgroup_warm(struct sandbox_cgroup *cg)
{
	char own[PATH_MAX], path[PATH_MAX + 48];
	sigset_t all, old;
	int n;

	const char *m2 = cg2_mount();

	/* A v2 leaf is entered at birth (CLONE_INTO_CGROUP): no join. */
	if (m2 && own_cgroup(NULL, own, sizeof(own)) && cg2_delegates(m2, own))
		return;
	if (cg->warming || !own_cgroup("pids", own, sizeof(own)))
		return;
	n = snprintf(path, sizeof(path), "/sys/fs/cgroup/pids%s%s",
		     own[0] == '/' && own[1] == '\0' ? "" : own,
		     "/cgroup.procs");
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	cg->warm_fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (cg->warm_fd < 0)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	cg->warming = pthread_create(&cg->warm, NULL, cg_warm_thread, cg) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!cg->warming) {
		close(cg->warm_fd);
		cg->warm_fd = -1;
	}
}

/* Nothing charged to the leaf? pids.current, not cgroup.procs: a task
 * that has exited leaves the list before its pid is uncharged. */
static bool cg_empty(const struct sandbox_cgroup *cg)
{
	char path[PATH_MAX + 16], buf[32];
	int n = snprintf(path, sizeof(path), "%s/pids.current", cg->path);

	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	return sandbox_read_small(path, buf, sizeof(buf)) > 0 &&
	       buf[0] == '0' && (buf[1] == '\n' || buf[1] == '\0');
}

/* Takes a free leaf of the pool below base+own: cordon-UID-N, created on
 * first use and kept (creating and removing a cgroup per run costs more
 * than the rest of the set-up), owned by whoever holds its flock. */
static bool cg_pool_take(const char *base, const char *own,
			 struct sandbox_cgroup *cg)
{
	const char *sep = own[0] && own[strlen(own) - 1] == '/' ? "" : "/";

	for (unsigned i = 0; i < SANDBOX_CG_POOL; i++) {
		int n = snprintf(cg->path, sizeof(cg->path),
				 "%s%s%scordon-%u-%u", base, own, sep,
				 (unsigned)geteuid(), i);
		int fd;

		if (n < 0 || (size_t)n >= sizeof(cg->path))
			break;
		if (mkdir(cg->path, 0755) != 0 && errno != EEXIST)
			break;
		fd = open(cg->path,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			break;
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			close(fd);
			continue;
		}
		cg->lock_fd = fd;
		/* The last run's processes may still be dying (PID 1 lets go
		 * of the lock before its namespace is reaped): they would
		 * count against pids.max. Finish them, use another leaf. */
		if (!cg_empty(cg)) {
			sandbox_cgroup_kill(cg);
			close(fd);
			cg->lock_fd = -1;
			continue;
		}
		return true;
	}
	sandbox_cgroup_clear(cg);
	return false;
}

/* A leaf with memory.max and pids.max: cgroup v2 when our cgroup can
 * delegate both controllers; else the v1 pids hierarchy (memory is then
 * capped by RLIMIT_AS: joining a v1 memory cgroup costs ~10 ms). */
void sandbox_cgroup_plan(struct sandbox_plan *p, unsigned long long mem,
			 unsigned long long pids)
{
	char own[PATH_MAX];
	const char *m2 = cg2_mount();
	struct sandbox_cgroup *cg = &p->cg;

	sandbox_cgroup_clear(cg);
	if (m2 && own_cgroup(NULL, own, sizeof(own)) &&
	    cg2_delegates(m2, own) && cg_pool_take(m2, own, cg)) {
		if (cg_write_leaf(cg->path, "memory.max", mem) &&
		    cg_write_leaf(cg->path, "pids.max", pids) &&
		    (cg->procs_fd = cg_open_procs(cg->path)) >= 0) {
			cg->v2 = true;
			p->mem_by_cgroup = mem != 0;
			p->pids_by_cgroup = true;
			return;
		}
		sandbox_cgroup_release(cg);
	}
	if (own_cgroup("pids", own, sizeof(own)) &&
	    cg_pool_take("/sys/fs/cgroup/pids", own, cg)) {
		if (cg_write_leaf(cg->path, "pids.max", pids) &&
		    (cg->procs_fd = cg_open_procs(cg->path)) >= 0) {
			p->pids_by_cgroup = true;
			return;
		}
		sandbox_cgroup_release(cg);
	}
}

/* Kills every process left in the leaf (bounded passes: a fork bomb in it
 * is capped by pids.max). */
void sandbox_cgroup_kill(const struct sandbox_cgroup *cg)
{
	char path[PATH_MAX + 32];
	char buf[16384];
	int n;

	if (!cg->path[0])
		return;
	if (cg->v2) {
		n = snprintf(path, sizeof(path), "%s/cgroup.kill", cg->path);
		if (n > 0 && (size_t)n < sizeof(path) &&
		    sandbox_write_str(path, "1") == 0)
			return;
	}
	n = snprintf(path, sizeof(path), "%s/cgroup.procs", cg->path);
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	for (int pass = 0; pass < 64; pass++) {
		ssize_t len = sandbox_read_small(path, buf, sizeof(buf));
		char *s, *save = NULL;
		bool any = false;

		if (len <= 0)
			return;
		for (s = strtok_r(buf, "\n", &save); s;
		     s = strtok_r(NULL, "\n", &save)) {
			char *end;
			long pid;

			errno = 0;
			pid = strtol(s, &end, 10);
			if (errno || end == s || pid <= 1)
				continue;
			(void)kill((pid_t)pid, SIGKILL);
			any = true;
		}
		if (!any)
			return;
	}
}
