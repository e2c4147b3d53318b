/* cgroup — the run's cgroup leaf (sandbox_int.h): v2 with memory.max and
 * pids.max when our cgroup delegates both controllers, else the v1 pids
 * hierarchy. Leaves come from a pool, flock'ed while a run uses one.
 *
 * Joining: v2, the child is born in the leaf (CLONE_INTO_CGROUP). v1, the
 * child moves itself: it writes "0" to the leaf's tasks file, opened here
 * before the clone. A thread that moves itself is the one migration the
 * kernel makes without cgroup_threadgroup_rwsem for writing (no other
 * thread of the group to keep still, and the writer cannot exit or exec
 * under it), so it waits for no RCU grace period; a pid written to
 * cgroup.procs takes that lock and waits 5-30 ms on a busy machine. The
 * kernel checks the right to move against the credentials of the opener
 * (this process), not of the child in its user namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* The file a process joins the leaf by: cgroup.procs (v2: only checked,
 * the clone enters the leaf), tasks (v1: the child writes "0" to it). */
static int cg_open_join(const char *leaf, const char *file)
{
	char path[PATH_MAX + 16];
	int n = snprintf(path, sizeof(path), "%s/%s", leaf, file);

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
	cg->join_fd = -1;
	cg->lock_fd = -1;
	cg->v2 = false;
}

void sandbox_cgroup_release(struct sandbox_cgroup *cg)
{
	if (cg->join_fd >= 0)
		close(cg->join_fd);
	if (cg->lock_fd >= 0)
		close(cg->lock_fd);
	sandbox_cgroup_clear(cg);
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
		    (cg->join_fd = cg_open_join(cg->path, "cgroup.procs")) >=
			    0) {
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
		    (cg->join_fd = cg_open_join(cg->path, "tasks")) >= 0) {
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
