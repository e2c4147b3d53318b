/* child — the steps every backend's child takes (sandbox_int.h): errors
 * to the parent, capabilities, rlimits, the cgroup and seccomp hand-over,
 * the $HOME no-create Landlock layer, the walls in order, then exec; and
 * the landlock backend's child.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/capability.h>
#include <linux/landlock.h>
#include <linux/securebits.h>

#include "landlock.h"
#include "sandbox_int.h"
#include "syscallfilter.h"
#include "unixmsg.h"

#include "banned.h"

__attribute__((noreturn, format(printf, 4, 5))) void
sandbox_child_die(const struct sandbox_plan *p, int status, int err,
		  const char *fmt, ...)
{
	char buf[sizeof(((struct sandbox_report *)0)->error) + 8];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), "%d ", status);
	size_t len;

	va_start(ap, fmt);
	(void)vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	/* strerrordesc_np: no locale, no lock (strerror may take the
	 * gettext lock, which another thread of the host may have held at
	 * the clone). */
	if (err && len < sizeof(buf)) {
		const char *desc = strerrordesc_np(err);

		if (desc)
			(void)snprintf(buf + len, sizeof(buf) - len, ": %s",
				       desc);
		else
			(void)snprintf(buf + len, sizeof(buf) - len,
				       ": errno %d", err);
	}
	len = strlen(buf);
	if (write(p->err_w, buf, len) < 0) {
		/* The parent is gone; the status says enough. */
	}
	_exit(status);
}

/* Drops every capability and keeps them from coming back on exec (the
 * sandbox's uid may be 0). */
void sandbox_child_drop_caps(const struct sandbox_plan *p)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "capget");
	if (data[0].permitted & (1u << CAP_SETPCAP)) {
		unsigned long bits =
			SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
			SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
			SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
			SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;

		if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0)
			sandbox_child_die(p, ST_SETUP, errno,
					  "drop capabilities: "
					  "securebits");
		/* Capabilities are numbered 0 to the kernel's last without a
		 * gap: the first EINVAL is past the last one. */
		for (int cap = 0; cap <= 63; cap++) {
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
				continue;
			if (errno == EINVAL)
				break;
			sandbox_child_die(p, ST_SETUP, errno,
					  "drop capabilities: bounding set");
		}
	}
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "drop capabilities: capset");
}

static void child_rlimit(const struct sandbox_plan *p, int res,
			 const char *name, rlim_t soft, rlim_t hard)
{
	struct rlimit cur, rl;

	if (getrlimit(res, &cur) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "rlimit %s", name);
	rl.rlim_cur = soft;
	rl.rlim_max = hard;
	/* Never raise what the caller already capped. */
	if (cur.rlim_max != RLIM_INFINITY && rl.rlim_max > cur.rlim_max)
		rl.rlim_max = cur.rlim_max;
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	if (setrlimit(res, &rl) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "rlimit %s", name);
}

static void child_rlimits(const struct sandbox_plan *p)
{
	const struct sandbox_opts *o = p->o;
	unsigned long pids = o->pids ? o->pids : SANDBOX_DEFAULT_PIDS;

	if (o->cpu_s)
		child_rlimit(p, RLIMIT_CPU, "RLIMIT_CPU", o->cpu_s,
			     o->cpu_s + 1);
	child_rlimit(p, RLIMIT_NPROC, "RLIMIT_NPROC", pids, pids);
	child_rlimit(p, RLIMIT_FSIZE, "RLIMIT_FSIZE", SANDBOX_FSIZE_MAX,
		     SANDBOX_FSIZE_MAX);
	child_rlimit(p, RLIMIT_NOFILE, "RLIMIT_NOFILE", SANDBOX_NOFILE_MAX,
		     SANDBOX_NOFILE_MAX);
	child_rlimit(p, RLIMIT_CORE, "RLIMIT_CORE", 0, 0);
}

/* Reads exactly n bytes from the parent's sync pipe. */
static bool child_read_sync(const struct sandbox_plan *p, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(p->sync_r, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* Moves this process into the cgroup leaf (v1; v2: born there) by "0"
 * written to the leaf's tasks file, which the parent opened (cgroup.c:
 * a thread that moves itself waits for no grace period). First thing
 * after the clone: the process has one thread, and every process forked
 * after this is counted. The leaf's lock fd stays open here: the leaf is
 * not handed to another run until this process is gone. */
void sandbox_child_join_cgroup(struct sandbox_plan *p)
{
	if (p->cg.join_fd < 0)
		return;
	if (!p->cg.v2 && write(p->cg.join_fd, "0", 1) != 1)
		sandbox_child_die(p, ST_SETUP, errno, "cgroup %s: join",
				  p->cg.path);
	close(p->cg.join_fd);
	p->cg.join_fd = -1;
}

/* The seccomp program the parent compiled (length, then instructions). */
static void child_read_prog(const struct sandbox_plan *p,
			    struct syscallfilter_prog *prog)
{
	static unsigned char buf[SANDBOX_BPF_MAX];
	uint32_t len = 0;

	if (!child_read_sync(p, &len, sizeof(len)) || len == 0 ||
	    len > sizeof(buf) || !child_read_sync(p, buf, len))
		sandbox_child_die(
			p, ST_SETUP, 0,
			"seccomp: the parent could not build the filter");
	prog->insns = buf;
	prog->len = len;
}

/* The filter with a listener for connect() (syscallfilter.h), whose fd
 * goes to the parent's supervisor over the sync socket with one byte:
 * 'U' and the fd, or 'u' and the errno the kernel refused the listener
 * with (the filter is then loaded without notifications, and in strict
 * mode the run is refused). */
static void child_load_listen(const struct sandbox_plan *p,
			      struct syscallfilter_prog *prog)
{
	char why[256], msgbuf[1 + sizeof(int)];
	int fd = -1, err = 0, e;

	if (syscallfilter_load_listen(prog, &fd, &err, why, sizeof(why)) != 0)
		sandbox_child_die(p, ST_SETUP, 0, "%s", why);
	if (fd < 0 && p->o->mode == SANDBOX_MODE_STRICT)
		sandbox_child_die(p, ST_SETUP, err,
				  "strict mode: seccomp: no listener for the "
				  "connect supervisor");
	msgbuf[0] = fd >= 0 ? 'U' : 'u';
	memcpy(msgbuf + 1, &err, sizeof(err));
	/* sendmsg is not notified: no wait on the supervisor it feeds. */
	e = unixmsg_send(p->sync_r, msgbuf, sizeof(msgbuf), fd);
	if (e != 0)
		sandbox_child_die(p, ST_SETUP, e,
				  "seccomp: hand the listener out");
	if (fd >= 0)
		close(fd);
}

#define SANDBOX_MAKE_RIGHTS                                                    \
	(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |          \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |          \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |        \
	 LANDLOCK_ACCESS_FS_MAKE_SYM)
#define SANDBOX_NOCREATE_MAX_RULES 4096

/* Grants the make rights beneath every directory entry of dir except
 * `except` (one rule each). */
static void nocreate_dir(const struct sandbox_plan *p, int ruleset,
			 const char *dir, const char *except, unsigned *count)
{
	char buf[8192];
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "landlock: $HOME layer: open %s", dir);
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			struct landlock_path_beneath_attr pb;
			int fd;

			off += de->d_reclen;
			if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
				continue;
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    (except && strcmp(de->d_name, except) == 0))
				continue;
			fd = openat(dfd, de->d_name,
				    O_PATH | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
			if (fd < 0)
				continue; /* not a directory: nothing to make */
			if (++*count > SANDBOX_NOCREATE_MAX_RULES)
				sandbox_child_die(
					p, ST_SETUP, 0,
					"landlock: $HOME layer: more than %d "
					"directories (SANDBOX_NOCREATE_MAX_RULES)",
					SANDBOX_NOCREATE_MAX_RULES);
			memset(&pb, 0, sizeof(pb));
			pb.allowed_access = SANDBOX_MAKE_RIGHTS;
			pb.parent_fd = fd;
			if (syscall(SYS_landlock_add_rule, ruleset,
				    LANDLOCK_RULE_PATH_BENEATH, &pb,
				    (uint32_t)0) != 0)
				sandbox_child_die(
					p, ST_SETUP, errno,
					"landlock: $HOME layer: rule for "
					"%s/%s",
					dir, de->d_name);
			close(fd);
		}
	}
	close(dfd);
}

/* A second Landlock layer for a writable $HOME: nothing new may be made
 * directly in $HOME (a missing ~/.zshrc or ~/.ssh stays missing) or in
 * its ancestors; everywhere else the first layer decides. */
static void child_home_nocreate(const struct sandbox_plan *p)
{
	struct landlock_ruleset_attr attr;
	char anc[PATH_MAX];
	size_t len = strlen(p->home);
	unsigned count = 0;
	int rs;

	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = SANDBOX_MAKE_RIGHTS;
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
			  (uint32_t)0);
	if (rs < 0)
		sandbox_child_die(p, ST_SETUP, errno, "landlock: $HOME layer");
	if (len >= sizeof(anc))
		sandbox_child_die(p, ST_SETUP, ENAMETOOLONG,
				  "landlock: $HOME layer");
	/* Each ancestor: every entry but the next step towards $HOME. */
	for (size_t i = 0; i < len; i++) {
		const char *next;
		char name[NAME_MAX + 1];
		size_t nl;

		if (p->home[i] != '/')
			continue;
		memcpy(anc, p->home, i ? i : 1);
		anc[i ? i : 1] = '\0';
		next = p->home + i + 1;
		nl = strcspn(next, "/");
		if (nl == 0 || nl > NAME_MAX)
			continue;
		memcpy(name, next, nl);
		name[nl] = '\0';
		nocreate_dir(p, rs, anc, name, &count);
	}
	nocreate_dir(p, rs, p->home, NULL, &count);
	if (syscall(SYS_landlock_restrict_self, rs, (uint32_t)0) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "landlock: $HOME layer: restrict");
	close(rs);
}

#define SANDBOX_READ_MAX_RULES 8192

/* One READ_FILE rule (and READ_DIR for a directory) beneath dfd/name; a
 * symlink or something gone is skipped (a read through a symlink is
 * judged where it leads). type is the entry's d_type: a symlink, a
 * device, a socket or a fifo is not opened, and a directory or a regular
 * file costs no fstat, unless the rule is refused for it (it was replaced
 * by the other kind since the listing): then fstat says what it is. */
static void read_rule(const struct sandbox_plan *p, int rs, int dfd,
		      const char *dir, const char *name, unsigned char type,
		      unsigned *count)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	bool is_dir = type == DT_DIR;
	int fd, rc;

	if (type != DT_DIR && type != DT_REG && type != DT_UNKNOWN)
		return;
	fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (type == DT_UNKNOWN) {
		if (fstat(fd, &st) != 0 ||
		    (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
			close(fd);
			return;
		}
		is_dir = S_ISDIR(st.st_mode);
	}
	if (++*count > SANDBOX_READ_MAX_RULES)
		sandbox_child_die(p, ST_SETUP, 0,
				  "landlock: $HOME read layer: more than %d "
				  "entries (SANDBOX_READ_MAX_RULES)",
				  SANDBOX_READ_MAX_RULES);
	for (int pass = 0;; pass++) {
		memset(&pb, 0, sizeof(pb));
		pb.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE;
		if (is_dir)
			pb.allowed_access |= LANDLOCK_ACCESS_FS_READ_DIR;
		pb.parent_fd = fd;
		rc = (int)syscall(SYS_landlock_add_rule, rs,
				  LANDLOCK_RULE_PATH_BENEATH, &pb, (uint32_t)0);
		if (rc == 0 || errno != EINVAL || pass > 0 ||
		    type == DT_UNKNOWN)
			break;
		/* listed as a directory, no longer one */
		if (fstat(fd, &st) != 0 ||
		    (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
			close(fd);
			return;
		}
		is_dir = S_ISDIR(st.st_mode);
	}
	if (rc != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "landlock: $HOME read layer: rule for %s/%s",
				  dir, name);
	close(fd);
}

/* Grants reading beneath every entry of dir except skip and the
 * credential names; rel is dir below $HOME ("" for $HOME, NULL outside
 * it). A credential path of more components (.config/gh) has its first
 * entered instead of granted whole. */
static void read_grant(const struct sandbox_plan *p, int rs, const char *dir,
		       const char *rel, const char *skip, unsigned *count,
		       int depth)
{
	char buf[8192];
	size_t rl = rel ? strlen(rel) : 0;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return; /* gone, or masked away: nothing to grant */
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			const char *name = de->d_name;
			size_t nl = strlen(name);
			bool excluded = false, partial = false;

			off += de->d_reclen;
			if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
			    (skip && strcmp(name, skip) == 0))
				continue;
			for (size_t i = 0; rel && i < p->ncreds; i++) {
				const char *c = p->creds[i].rel;

				if (!c)
					continue;
				if (rl &&
				    (strncmp(c, rel, rl) != 0 || c[rl] != '/'))
					continue;
				c += rl ? rl + 1 : 0;
				if (strncmp(c, name, nl) != 0)
					continue;
				if (c[nl] == '\0')
					excluded = true;
				else if (c[nl] == '/')
					partial = true;
			}
			if (excluded)
				continue;
			if (partial && depth > 0) {
				char sub[PATH_MAX], subrel[PATH_MAX];

				if (snprintf(sub, sizeof(sub), "%s/%s", dir,
					     name) < (int)sizeof(sub) &&
				    snprintf(subrel, sizeof(subrel), "%s%s%s",
					     rel, rl ? "/" : "",
					     name) < (int)sizeof(subrel))
					read_grant(p, rs, sub, subrel, NULL,
						   count, depth - 1);
				continue;
			}
			read_rule(p, rs, dfd, dir, name, de->d_type, count);
		}
	}
	close(dfd);
}

/* A Landlock layer on reading: every directory may be listed, but a file
 * is read only beneath what existed at launch outside $HOME's way, and in
 * $HOME beneath its entries of the launch except the credential
 * locations. A credential file or directory that appears in $HOME during
 * the run (a new ~/.netrc, ~/.aws/credentials, ~/.ssh/id_*) is
 * unreadable; so are files that appear directly in $HOME or its
 * ancestors, and on the landlock backend the credential locations
 * themselves, which it cannot mask. */
static void child_home_read(const struct sandbox_plan *p)
{
	struct landlock_ruleset_attr attr;
	struct landlock_path_beneath_attr pb;
	size_t len = strlen(p->home);
	unsigned count = 0;
	char anc[PATH_MAX];
	int rs, fd;

	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE |
				 LANDLOCK_ACCESS_FS_READ_DIR;
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
			  (uint32_t)0);
	if (rs < 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "landlock: $HOME read layer");
	if (len >= sizeof(anc))
		sandbox_child_die(p, ST_SETUP, ENAMETOOLONG,
				  "landlock: $HOME read layer");
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = LANDLOCK_ACCESS_FS_READ_DIR;
	pb.parent_fd = fd;
	if (fd < 0 ||
	    syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb,
		    (uint32_t)0) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "landlock: $HOME read layer: /");
	close(fd);
	/* Each ancestor: every entry but the next step towards $HOME. */
	for (size_t i = 0; i < len; i++) {
		char name[NAME_MAX + 1];
		const char *next;
		size_t nl;

		if (p->home[i] != '/')
			continue;
		memcpy(anc, p->home, i ? i : 1);
		anc[i ? i : 1] = '\0';
		next = p->home + i + 1;
		nl = strcspn(next, "/");
		if (nl == 0 || nl > NAME_MAX)
			continue;
		memcpy(name, next, nl);
		name[nl] = '\0';
		read_grant(p, rs, anc, NULL, name, &count, 0);
	}
	read_grant(p, rs, p->home, "", NULL, &count, SANDBOX_READ_DEPTH);
	/* A writable root in $HOME (an agent's state directory: cordon run
	 * --agent) holds the command's own files, new ones too: an agent
	 * that rewrites its state by rename (Gemini CLI's projects.json)
	 * makes a new inode each time, which the grants of the launch above
	 * do not cover. The credential files in it stay masked by the mount
	 * namespace; the landlock backend cannot mask them, so there only
	 * the launch's entries are granted, as elsewhere in $HOME. */
	for (size_t i = 0;
	     p->backend == SANDBOX_BACKEND_NAMESPACES && i < p->nrw; i++) {
		if (!sandbox_plan_path_under(p->rw[i], p->home) ||
		    strcmp(p->rw[i], p->home) == 0)
			continue;
		fd = open(p->rw[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue; /* a file, or gone: its launch grant stands */
		memset(&pb, 0, sizeof(pb));
		pb.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE |
				    LANDLOCK_ACCESS_FS_READ_DIR;
		pb.parent_fd = fd;
		if (syscall(SYS_landlock_add_rule, rs,
			    LANDLOCK_RULE_PATH_BENEATH, &pb, (uint32_t)0) != 0)
			sandbox_child_die(p, ST_SETUP, errno,
					  "landlock: $HOME read layer: rule "
					  "for %s",
					  p->rw[i]);
		close(fd);
	}
	if (syscall(SYS_landlock_restrict_self, rs, (uint32_t)0) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "landlock: $HOME read layer: restrict");
	close(rs);
}

/* The command's Landlock policy: the writable roots, TCP (none allowed
 * for network none, the proxy's port for proxy), the scopes. The connect
 * supervisor reads its network rules from the same (unixnotif.c). */
void sandbox_child_policy(const struct sandbox_plan *p,
			  struct landlock_policy *llp)
{
	const struct sandbox_opts *o = p->o;

	memset(llp, 0, sizeof(*llp));
	llp->rw = p->rw;
	llp->nrw = p->nrw;
	llp->restrict_tcp = o->network == SANDBOX_NET_NONE ||
			    o->network == SANDBOX_NET_PROXY;
	if (o->network == SANDBOX_NET_PROXY) {
		llp->tcp_ports = &p->proxy_port;
		llp->ntcp_ports = 1;
	}
	llp->scope = true;
	/* Without a private devpts, /dev/pts holds the caller's terminals. */
	llp->no_pts = p->backend == SANDBOX_BACKEND_LANDLOCK;
}

/* The last steps of the command's process: rlimits, stdio, environment,
 * no_new_privs, Landlock, seccomp, exec. */
__attribute__((noreturn)) void sandbox_child_exec(const struct sandbox_plan *p,
						  bool sandboxed)
{
	const struct sandbox_opts *o = p->o;
	struct landlock_policy llp;
	struct syscallfilter_prog prog;
	char why[256];
	unsigned lost = 0;
	int err;
	extern char **environ;

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	sigprocmask(SIG_SETMASK, &p->oldmask, NULL);
	umask(p->old_umask);
	if (sandboxed)
		child_rlimits(p);
	if (p->null_fd >= 0 && dup2(p->null_fd, 0) < 0)
		sandbox_child_die(p, ST_SETUP, errno, "stdin");
	if (p->out_w[0] >= 0 && dup2(p->out_w[0], 1) < 0)
		sandbox_child_die(p, ST_SETUP, errno, "stdout pipe");
	if (p->out_w[1] >= 0 && dup2(p->out_w[1], 2) < 0)
		sandbox_child_die(p, ST_SETUP, errno, "stderr pipe");
	for (int fd = 0; fd < 3; fd++)
		if (p->pty_fd[fd] && dup2(p->pty_s, fd) < 0)
			sandbox_child_die(p, ST_SETUP, errno,
					  "the pty as fd %d", fd);

	if (!sandboxed)
		goto exec;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "no_new_privs");
	sandbox_child_policy(p, &llp);
	if (landlock_apply(&llp, &lost, why, sizeof(why)) != 0)
		sandbox_child_die(p, ST_SETUP, 0, "%s", why);
	if (o->mode == SANDBOX_MODE_STRICT && (lost & LANDLOCK_LOST_ALL))
		sandbox_child_die(p, ST_SETUP, 0, "strict mode: %s", why);
	if (p->home_nocreate)
		child_home_nocreate(p);
	if (p->home_read)
		child_home_read(p);
	child_read_prog(p, &prog);
	if (p->unotif_asked)
		child_load_listen(p, &prog);
	else if (syscallfilter_load(&prog, why, sizeof(why)) != 0)
		sandbox_child_die(p, ST_SETUP, 0, "%s", why);
	/* Last: an address-space cap would starve the set-up itself. */
	if (o->memory_mb && !p->mem_by_cgroup) {
		rlim_t as = (rlim_t)o->memory_mb << 20;

		child_rlimit(p, RLIMIT_AS, "RLIMIT_AS", as, as);
	}
	/* Descriptors inherited from the caller (a file or directory outside
	 * the writable roots) must not reach the command. */
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
		sandbox_child_die(p, ST_SETUP, errno,
				  "close inherited descriptors");
exec:
	for (int i = 0; i < SANDBOX_PASS_MAX; i++)
		if (o->pass_fds[i] > 2 &&
		    fcntl(o->pass_fds[i], F_SETFD, 0) != 0)
			sandbox_child_die(p, ST_SETUP, errno,
					  "a relay's descriptor");
	environ = p->envp;
	if (p->exec_path)
		execv(p->exec_path, p->argv);
	else
		execvp(p->argv[0], p->argv);
	err = errno;
	sandbox_child_die(p, err == ENOENT ? ST_NOTFOUND : ST_NOEXEC, err,
			  "exec %s", p->argv[0]);
}

/* The parent-death signal, and the check for a parent that died before it
 * was set. */
void sandbox_child_pdeathsig(const struct sandbox_plan *p, bool in_pidns)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
		sandbox_child_die(p, ST_SETUP, errno, "parent-death signal");
	if (in_pidns) {
		/* getppid() is 0 across a PID namespace: poll the parent's
		 * pidfd instead. */
		struct pollfd pf = { .fd = p->parent_pidfd, .events = POLLIN };

		if (p->parent_pidfd >= 0 && poll(&pf, 1, 0) > 0)
			_exit(ST_SETUP);
	} else if (getppid() != p->parent_pid) {
		_exit(ST_SETUP);
	}
	if (p->parent_pidfd >= 0)
		close(p->parent_pidfd);
}

__attribute__((noreturn)) void sandbox_child_landlock(struct sandbox_plan *p)
{
	sandbox_child_join_cgroup(p);
	close(p->err_r);
	if (p->in_w >= 0)
		close(p->in_w);
	if (p->st_r >= 0)
		close(p->st_r);
	if (p->sync_w >= 0)
		close(p->sync_w);
	if (p->out_r[0] >= 0)
		close(p->out_r[0]);
	if (p->out_r[1] >= 0)
		close(p->out_r[1]);
	if (setsid() < 0)
		sandbox_child_die(p, ST_SETUP, errno, "setsid");
	sandbox_pty_child(p);
	sandbox_child_pdeathsig(p, false);
	sandbox_child_drop_caps(p);
	if (p->reaper)
		sandbox_reaper_run(p);
	sandbox_child_exec(p, true);
}
