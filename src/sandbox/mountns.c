/* mountns — the child's mount namespace (sandbox_int.h): uid/gid maps, "/"
 * cloned read-only, /tmp, /proc, a minimal /dev, the planned mounts, then
 * pivot_root; loopback in a new network namespace.
 *
 * Mount targets are opened with openat2(RESOLVE_IN_ROOT |
 * RESOLVE_NO_SYMLINKS) and mounted by file descriptor, so a symlink planted
 * in the workspace cannot redirect a mount: it is refused and named.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <net/if.h>

#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/openat2.h>

#include "sandbox_int.h"

#include "banned.h"

#define RES_TREE (RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

static void child_write_file(const struct sandbox_plan *p, const char *path,
			     const char *s)
{
	if (sandbox_write_str(path, s) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "user namespace: write %s", path);
}

void sandbox_mountns_idmaps(const struct sandbox_plan *p)
{
	char buf[64];

	(void)snprintf(buf, sizeof(buf), "%u %u 1\n", (unsigned)p->uid,
		       (unsigned)p->uid);
	child_write_file(p, "/proc/self/uid_map", buf);
	child_write_file(p, "/proc/self/setgroups", "deny\n");
	(void)snprintf(buf, sizeof(buf), "%u %u 1\n", (unsigned)p->gid,
		       (unsigned)p->gid);
	child_write_file(p, "/proc/self/gid_map", buf);
}

static void child_setattr(const struct sandbox_plan *p, int fd,
			  unsigned long long set, const char *what,
			  const char *path)
{
	struct mount_attr a;

	memset(&a, 0, sizeof(a));
	a.attr_set = set;
	if (mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a,
			  sizeof(a)) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "mount %s (%s): set attributes", path, what);
}

/* A fresh filesystem (tmpfs, proc, devpts) as a detached mount. */
static int child_fsmount(const char *type, const char *const *opts,
			 unsigned attrs)
{
	int fs = fsopen(type, FSOPEN_CLOEXEC), m, err;

	if (fs < 0)
		return -1;
	for (size_t i = 0; opts && opts[i]; i += 2)
		if (fsconfig(fs, FSCONFIG_SET_STRING, opts[i], opts[i + 1],
			     0) != 0)
			goto fail;
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0)
		goto fail;
	m = fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	err = errno;
	close(fs);
	errno = err;
	return m;
fail:
	err = errno;
	close(fs);
	errno = err;
	return -1;
}

/* Creates the missing components of rel below rootfd (directories, and a
 * file last when is_file), never through a symlink. */
static void child_mkpath(const struct sandbox_plan *p, int rootfd,
			 const char *rel, bool is_file,
			 const struct sandbox_op *op)
{
	char buf[PATH_MAX];
	size_t len = strlen(rel);
	int cur;
	char *s, *slash;

	if (len >= sizeof(buf))
		sandbox_child_die(p, ST_SETUP, ENAMETOOLONG, "mount %s (%s)",
				  op->target, op->step);
	memcpy(buf, rel, len + 1);
	cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	if (cur < 0)
		sandbox_child_die(p, ST_SETUP, errno, "dup");
	for (s = buf; *s; s = slash + 1) {
		bool last;
		int next;

		slash = strchr(s, '/');
		last = !slash;
		if (slash)
			*slash = '\0';
		next = openat(cur, s,
			      O_PATH | O_NOFOLLOW | O_CLOEXEC |
				      (last && is_file ? 0 : O_DIRECTORY));
		if (next < 0 && errno == ENOENT) {
			if (last && is_file) {
				int fd = openat(cur, s,
						O_WRONLY | O_CREAT | O_EXCL |
							O_NOFOLLOW | O_CLOEXEC,
						0644);

				if (fd < 0)
					sandbox_child_die(
						p, ST_SETUP, errno,
						"create mount point %s (%s)",
						op->target, op->step);
				close(fd);
			} else if (mkdirat(cur, s, 0755) != 0) {
				sandbox_child_die(p, ST_SETUP, errno,
						  "create mount point %s (%s)",
						  op->target, op->step);
			}
			next = openat(cur, s,
				      O_PATH | O_NOFOLLOW | O_CLOEXEC |
					      (last && is_file ? 0 :
								 O_DIRECTORY));
		}
		if (next < 0)
			sandbox_child_die(p, ST_SETUP,
					  errno == ENOTDIR ? ELOOP : errno,
					  "create mount point %s (%s)",
					  op->target, op->step);
		close(cur);
		cur = next;
		if (last)
			break;
	}
	close(cur);
}

/* The mount point of op below rootfd, as an O_PATH fd; -1 when an optional
 * target is gone. A symlink anywhere on the way is refused. */
static int child_target(const struct sandbox_plan *p, int rootfd,
			const struct sandbox_op *op)
{
	const char *rel = op->target + 1;
	struct stat st;
	int fd;

	if (*rel == '\0')
		return fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	fd = sandbox_openat2(rootfd, rel, O_PATH | O_NOFOLLOW | O_CLOEXEC,
			     RES_TREE);
	if (fd < 0 && errno == ENOENT && (op->flags & OPF_CREATE)) {
		child_mkpath(p, rootfd, rel, op->flags & OPF_FILE, op);
		fd = sandbox_openat2(rootfd, rel,
				     O_PATH | O_NOFOLLOW | O_CLOEXEC, RES_TREE);
	}
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR) &&
	    (op->flags & OPF_OPTIONAL))
		return -1;
	if (fd < 0 && errno == ELOOP)
		sandbox_child_die(
			p, ST_SETUP, 0,
			"mount %s (%s): a symlink is on the way; refusing "
			"to follow it",
			op->target, op->step);
	if (fd < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount %s (%s)",
				  op->target, op->step);
	if (fstat(fd, &st) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount %s (%s)",
				  op->target, op->step);
	if (S_ISLNK(st.st_mode))
		sandbox_child_die(
			p, ST_SETUP, 0,
			"mount %s (%s): it is a symlink; refusing to follow "
			"it",
			op->target, op->step);
	if (!!S_ISDIR(st.st_mode) == !!(op->flags & OPF_FILE)) {
		if (op->flags & OPF_OPTIONAL) {
			close(fd);
			return -1;
		}
		sandbox_child_die(
			p, ST_SETUP, 0,
			"mount %s (%s): it changed type since the launch",
			op->target, op->step);
	}
	return fd;
}

static void child_attach(const struct sandbox_plan *p, int src, int tfd,
			 const char *target, const char *step)
{
	if (move_mount(src, "", tfd, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount %s (%s)", target,
				  step);
	close(src);
}

/* child_attach() for a plan step: an optional target removed since it was
 * opened (a host socket its owner unlinked in between: move_mount() says
 * ENOENT for a target fd whose file is gone) has nothing left to cover. */
static void child_attach_op(const struct sandbox_plan *p, int src, int tfd,
			    const struct sandbox_op *op)
{
	if (move_mount(src, "", tfd, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) !=
		    0 &&
	    !(errno == ENOENT && (op->flags & OPF_OPTIONAL)))
		sandbox_child_die(p, ST_SETUP, errno, "mount %s (%s)",
				  op->target, op->step);
	close(src);
}

/* A detached clone of a host path, resolved without symlinks. */
static int child_clone_host(const struct sandbox_plan *p, const char *path,
			    const char *step, bool recursive)
{
	int fd = sandbox_openat2(AT_FDCWD, path,
				 O_PATH | O_NOFOLLOW | O_CLOEXEC,
				 RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	int t;

	if (fd < 0)
		sandbox_child_die(p, ST_SETUP, errno == ELOOP ? 0 : errno,
				  "mount %s (%s)%s", path, step,
				  errno == ELOOP ?
					  ": a symlink is on the way; refusing "
					  "to follow it" :
					  "");
	t = open_tree(fd, "",
		      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
			      (recursive ? AT_RECURSIVE : 0));
	if (t < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount %s (%s): clone",
				  path, step);
	close(fd);
	return t;
}

/* inotify instances and watches are counted per user through every user
 * namespace up to the host's (fs.inotify.max_user_*): a command holding
 * all 128 instances leaves the user's editor, file watchers and systemd
 * without one. The sandbox's own user namespace gets half of each, so the
 * host's processes of the same user keep the other half. */
void sandbox_mountns_ucounts(const struct sandbox_plan *p)
{
	static const char *const limits[][2] = {
		{ "/proc/sys/fs/inotify/max_user_instances",
		  "/proc/sys/user/max_inotify_instances" },
		{ "/proc/sys/fs/inotify/max_user_watches",
		  "/proc/sys/user/max_inotify_watches" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		ssize_t n = sandbox_read_small(limits[i][0], buf, sizeof(buf));
		char *end;
		unsigned long long v;

		if (n <= 0)
			sandbox_child_die(p, ST_SETUP, n < 0 ? errno : EINVAL,
					  "user namespace: read %s",
					  limits[i][0]);
		buf[n] = 0;
		errno = 0;
		v = strtoull(buf, &end, 10);
		if (errno || end == buf || (*end && *end != '\n'))
			sandbox_child_die(p, ST_SETUP, EINVAL,
					  "user namespace: read %s",
					  limits[i][0]);
		(void)snprintf(buf, sizeof(buf), "%llu\n", v / 2 ? v / 2 : 1);
		child_write_file(p, limits[i][1], buf);
	}
}

/* The private tmpfs mounts share --memory: their pages are memory that
 * RLIMIT_AS does not count (a cgroup v2 memory controller charges them
 * too). /tmp gets half (three quarters without the --no-read-home
 * tmpfs), /dev/shm and the home tmpfs a quarter each; none without a
 * cap. Empty files take no pages but an inode and a dentry each (about
 * 1 KiB of kernel memory size= does not see, and tmpfs allows half of
 * RAM's pages of them): nr_inodes allows one per 4 KiB of the share.
 * a->opts gets { mode, MODE, size, N, nr_inodes, N, NULL }. */
enum tmpfs_share { SHARE_TMP, SHARE_SHM, SHARE_HOME };

struct tmpfs_args {
	const char *opts[7];
	char size[24];
	char inodes[24];
};

static void tmpfs_opts(const struct sandbox_plan *p, enum tmpfs_share share,
		       const char *mode, struct tmpfs_args *a)
{
	unsigned long long kib = (unsigned long long)p->o->memory_mb * 1024ULL;

	if (share == SHARE_TMP)
		kib = p->o->no_read_home ? kib / 2 : kib / 4 * 3;
	else
		kib /= 4;
	a->opts[0] = "mode";
	a->opts[1] = mode;
	a->opts[2] = NULL;
	if (!p->o->memory_mb)
		return;
	(void)snprintf(a->size, sizeof(a->size), "%lluk", kib ? kib : 1ULL);
	(void)snprintf(a->inodes, sizeof(a->inodes), "%llu",
		       kib / 4 ? kib / 4 : 1ULL);
	a->opts[2] = "size";
	a->opts[3] = a->size;
	a->opts[4] = "nr_inodes";
	a->opts[5] = a->inodes;
	a->opts[6] = NULL;
}

static const char *const dev_nodes[] = { "null",   "zero",    "full",
					 "random", "urandom", "tty" };
#define DEV_NODES (sizeof(dev_nodes) / sizeof(dev_nodes[0]))

/* /dev: a tmpfs with the host's harmless nodes bound in, a private devpts,
 * shm, and the usual symlinks. */
static void child_dev(const struct sandbox_plan *p, int rootfd,
		      const int *nodes)
{
	/* /dev holds nodes and links only: 1 MiB keeps it from being a
	 * memory store of its own. */
	static const char *const dev_opts[] = { "mode", "0755", "size", "1m",
						NULL };
	static const char *const pts_opts[] = { "ptmxmode", "0666", "mode",
						"0620", NULL };
	struct tmpfs_args shm;
	static const char *const links[][2] = {
		{ "fd", "/proc/self/fd" },
		{ "stdin", "/proc/self/fd/0" },
		{ "stdout", "/proc/self/fd/1" },
		{ "stderr", "/proc/self/fd/2" },
		{ "ptmx", "pts/ptmx" },
	};
	int dev, t, pts;

	dev = child_fsmount("tmpfs", dev_opts,
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (dev < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /dev (tmpfs)");
	t = sandbox_openat2(rootfd, "dev",
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
			    RES_TREE);
	if (t < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /dev");
	if (move_mount(dev, "", t, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /dev");
	close(t);
	for (size_t i = 0; i < DEV_NODES; i++) {
		int fd;

		/* Not on this host: no node rather than a file. */
		if (nodes[i] < 0)
			continue;
		/* The file just made is the mount's target: nothing else
		 * reaches this tmpfs before pivot_root, so no second open
		 * by name is needed to find it. */
		fd = openat(dev, dev_nodes[i],
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0666);
		if (fd < 0)
			sandbox_child_die(p, ST_SETUP, errno, "create /dev/%s",
					  dev_nodes[i]);
		child_attach(p, nodes[i], fd, dev_nodes[i], "/dev node");
		close(fd);
	}
	if (mkdirat(dev, "shm", 0755) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "create /dev/shm");
	/* /dev/shm: a tmpfs of its own, with its share of --memory. */
	tmpfs_opts(p, SHARE_SHM, "1777", &shm);
	pts = child_fsmount("tmpfs", shm.opts,
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (pts < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /dev/shm (tmpfs)");
	t = openat(dev, "shm", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /dev/shm");
	child_attach(p, pts, t, "/dev/shm", "tmpfs");
	close(t);
	if (mkdirat(dev, "pts", 0755) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "create /dev/pts");
	/* A private devpts; without one (it needs root mapped on some
	 * kernels) there are simply no terminals to open. */
	pts = child_fsmount("devpts", pts_opts,
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (pts >= 0) {
		t = openat(dev, "pts",
			   O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (t < 0)
			sandbox_child_die(p, ST_SETUP, errno, "mount /dev/pts");
		child_attach(p, pts, t, "/dev/pts", "devpts");
		close(t);
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlinkat(links[i][1], dev, links[i][0]) != 0)
			sandbox_child_die(p, ST_SETUP, errno, "create /dev/%s",
					  links[i][0]);
	close(dev);
}

/* A fresh /proc for the new PID namespace, with the knobs that write to the
 * kernel read-only. */
static void child_proc(const struct sandbox_plan *p, int rootfd)
{
	static const char *const covers[] = { "sys", "sysrq-trigger", "irq",
					      "bus" };
	int m, t;

	m = child_fsmount("proc", NULL,
			  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				  MOUNT_ATTR_NOEXEC);
	if (m < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /proc");
	t = sandbox_openat2(rootfd, "proc",
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
			    RES_TREE);
	if (t < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /proc");
	if (move_mount(m, "", t, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /proc");
	close(t);
	for (size_t i = 0; i < sizeof(covers) / sizeof(covers[0]); i++) {
		int fd = openat(m, covers[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		int c;

		if (fd < 0)
			continue;
		c = open_tree(fd, "",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
				      AT_EMPTY_PATH | AT_RECURSIVE);
		if (c < 0)
			sandbox_child_die(p, ST_SETUP, errno,
					  "mount /proc/%s read-only",
					  covers[i]);
		child_setattr(p, c,
			      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				      MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
			      "read-only /proc", covers[i]);
		child_attach(p, c, fd, covers[i], "read-only /proc");
		close(fd);
	}
	close(m);
}

/* Applies the planned mounts, in order, below rootfd. */
static void child_ops(const struct sandbox_plan *p, struct sandbox_op *ops,
		      int rootfd)
{
	static const char *const mask_opts[] = { "mode", "0555", "size", "4k",
						 NULL };
	struct tmpfs_args home;
	int empty = -1, devnull = -1;
	size_t last_mask_dir = p->nops;

	tmpfs_opts(p, SHARE_HOME, "0755", &home);
	for (size_t i = 0; i < p->nops; i++)
		if (ops[i].kind == OP_MASK_DIR)
			last_mask_dir = i;

	for (size_t i = 0; i < p->nops; i++) {
		struct sandbox_op *op = &ops[i];
		int tfd, src;

		if (op->kind == OP_SYMLINK) {
			char dir[PATH_MAX];
			const char *base = strrchr(op->target, '/');
			size_t dl = (size_t)(base - op->target);
			struct sandbox_op parent = *op;
			int dfd;

			if (dl == 0 || dl >= sizeof(dir))
				continue;
			memcpy(dir, op->target, dl);
			dir[dl] = '\0';
			parent.target = dir;
			parent.flags = OPF_CREATE;
			dfd = child_target(p, rootfd, &parent);
			if (symlinkat(op->source, dfd, base + 1) != 0 &&
			    errno != EEXIST)
				sandbox_child_die(p, ST_SETUP, errno,
						  "symlink %s (%s)", op->target,
						  op->step);
			close(dfd);
			continue;
		}
		tfd = child_target(p, rootfd, op);
		if (tfd < 0) {
			if (op->src_fd >= 0)
				close(op->src_fd);
			continue;
		}
		switch (op->kind) {
		case OP_TMPFS:
			src = child_fsmount("tmpfs", home.opts,
					    MOUNT_ATTR_NOSUID |
						    MOUNT_ATTR_NODEV);
			if (src < 0)
				sandbox_child_die(p, ST_SETUP, errno,
						  "mount %s (%s)", op->target,
						  op->step);
			break;
		case OP_BIND_RW:
		case OP_BIND_RO:
			src = op->src_fd;
			op->src_fd = -1;
			break;
		case OP_PIN:
			src = open_tree(tfd, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH | AT_RECURSIVE);
			if (src < 0)
				sandbox_child_die(p, ST_SETUP, errno,
						  "mount %s (%s): clone",
						  op->target, op->step);
			child_setattr(p, src,
				      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
				      op->step, op->target);
			break;
		case OP_RELOCK:
			src = open_tree(tfd, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH | AT_RECURSIVE);
			if (src < 0)
				sandbox_child_die(p, ST_SETUP, errno,
						  "mount %s (%s): clone",
						  op->target, op->step);
			child_setattr(p, src,
				      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					      MOUNT_ATTR_NODEV,
				      op->step, op->target);
			break;
		case OP_MASK_DIR:
			if (empty < 0) {
				empty = child_fsmount(
					"tmpfs", mask_opts,
					MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
						MOUNT_ATTR_NODEV |
						MOUNT_ATTR_NOEXEC);
				if (empty < 0)
					sandbox_child_die(
						p, ST_SETUP, errno,
						"mount %s (%s): tmpfs",
						op->target, op->step);
			}
			/* The last mask gets the tmpfs itself: closing a
			 * mount never attached dissolves it, and that waits
			 * for an RCU grace period (1-2 ms here). */
			if (i == last_mask_dir) {
				src = empty;
				empty = -1;
				break;
			}
			src = open_tree(empty, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH);
			if (src < 0)
				sandbox_child_die(p, ST_SETUP, errno,
						  "mount %s (%s)", op->target,
						  op->step);
			break;
		case OP_MASK_FILE:
			if (devnull < 0) {
				devnull = sandbox_openat2(rootfd, "dev/null",
							  O_PATH | O_NOFOLLOW |
								  O_CLOEXEC,
							  RES_TREE);
				if (devnull < 0)
					sandbox_child_die(
						p, ST_SETUP, errno,
						"mount %s (%s): /dev/null",
						op->target, op->step);
			}
			src = open_tree(devnull, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						AT_EMPTY_PATH);
			if (src < 0)
				sandbox_child_die(p, ST_SETUP, errno,
						  "mount %s (%s)", op->target,
						  op->step);
			child_setattr(p, src,
				      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					      MOUNT_ATTR_NOEXEC,
				      op->step, op->target);
			break;
		default:
			sandbox_child_die(p, ST_SETUP, 0,
					  "mount %s: unknown step", op->target);
		}
		child_attach_op(p, src, tfd, op);
		close(tfd);
	}
	if (empty >= 0)
		close(empty);
	if (devnull >= 0)
		close(devnull);
}

void sandbox_mountns_loopback(const struct sandbox_plan *p)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "network namespace: socket");
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "network namespace: lo flags");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "network namespace: bring lo up");
	close(s);
}

/* The new root: "/" cloned read-only, /tmp, /proc, /dev, the planned
 * mounts; then pivot_root into it and let go of the old root. */
void sandbox_mountns_tree(const struct sandbox_plan *p, struct sandbox_op *ops)
{
	struct tmpfs_args tmp;
	int nodes[DEV_NODES];
	int root, stage, m, t;

	tmpfs_opts(p, SHARE_TMP, "1777", &tmp);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "mount namespace: make / private");
	root = open_tree(AT_FDCWD, "/",
			 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (root < 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "mount / (read-only root): clone");
	child_setattr(p, root,
		      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
		      "read-only root", "/");

	/* Host sources are cloned before the new tree covers /tmp. */
	for (size_t i = 0; i < p->nops; i++) {
		struct sandbox_op *op = &ops[i];

		if (op->kind != OP_BIND_RW && op->kind != OP_BIND_RO)
			continue;
		op->src_fd = child_clone_host(p, op->source, op->step, true);
		child_setattr(p, op->src_fd,
			      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				      (op->kind == OP_BIND_RO ?
					       MOUNT_ATTR_RDONLY :
					       0),
			      op->step, op->target);
	}
	for (size_t i = 0; i < DEV_NODES; i++) {
		char path[32];

		(void)snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		nodes[i] = open_tree(AT_FDCWD, path,
				     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	}

	stage = open("/tmp", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (stage < 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "mount namespace: staging at /tmp");
	if (move_mount(root, "", stage, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "mount / (read-only root)");
	close(stage);

	m = child_fsmount("tmpfs", tmp.opts,
			  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (m < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /tmp (tmpfs)");
	t = sandbox_openat2(root, "tmp",
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
			    RES_TREE);
	if (t < 0)
		sandbox_child_die(p, ST_SETUP, errno, "mount /tmp");
	child_attach(p, m, t, "/tmp", "tmpfs");
	close(t);
	child_proc(p, root);
	child_dev(p, root, nodes);
	child_ops(p, ops, root);

	if (fchdir(root) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "pivot_root: chdir");
	if (syscall(SYS_pivot_root, ".", ".") != 0)
		sandbox_child_die(p, ST_SETUP, errno, "pivot_root");
	if (umount2(".", MNT_DETACH) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "pivot_root: detach the old root");
	if (chdir("/") != 0)
		sandbox_child_die(p, ST_SETUP, errno, "pivot_root: chdir /");
	close(root);
}
