/* mask — what the sandbox hides (sandbox_int.h): a path's mask (an empty
 * read-only tmpfs over a directory, /dev/null over a file), the sockets
 * of the user's session and the runtime directories, and, running as
 * root, root's own secrets and /root.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/syscall.h>

#include "atomic.h"
#include "sandbox_int.h"

#include "banned.h"

/* Masks path (canonicalised first: the mask lands on what a read through
 * any symlink reaches). Missing paths are skipped. */
int sandbox_mask_path(struct sandbox_plan *p, const char *path,
		      const char *step)
{
	struct stat st;
	char *canon;

	/* Most credential locations do not exist: one lstat says so. */
	canon = sandbox_plan_canon_stat(p, path, &st);
	if (!canon) {
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES ||
		    errno == ELOOP)
			return 0;
		return sandbox_plan_fail(p, "%s %s: %s", step, path,
					 strerror(errno));
	}
	if (strcmp(canon, "/") == 0)
		return sandbox_plan_fail(p, "%s %s: refusing to hide /", step,
					 path);
	return sandbox_plan_add_op(
		p, S_ISDIR(st.st_mode) ? OP_MASK_DIR : OP_MASK_FILE,
		OPF_OPTIONAL | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE), canon,
		NULL, step);
}

/* True when a writable root lies at or below dir: a mask over dir would
 * hide it (the masks are mounted after the binds). */
static bool covers_writable(const struct sandbox_plan *p, const char *dir)
{
	for (size_t i = 0; i < p->nrw; i++)
		if (sandbox_plan_path_under(p->rw[i], dir))
			return true;
	return sandbox_plan_path_under(p->ws, dir);
}

/* Masks path when it is a socket outside the writable roots, the private
 * /tmp and what a mask already hides. */
static int mask_socket(struct sandbox_plan *p, const char *path,
		       const char *step)
{
	struct stat st;
	char *canon;

	canon = sandbox_plan_canon_stat(p, path, &st);
	if (!canon || !S_ISSOCK(st.st_mode) ||
	    sandbox_plan_path_under(canon, "/tmp") ||
	    sandbox_plan_host_writable(p, canon))
		return 0;
	/* cordon's own: the relays (sandbox_opts.pass_sockets) */
	for (int i = 0; i < SANDBOX_PASS_MAX; i++) {
		struct stat own;

		if (p->o->pass_sockets[i] &&
		    stat(p->o->pass_sockets[i], &own) == 0 &&
		    own.st_dev == st.st_dev && own.st_ino == st.st_ino)
			return 0;
	}
	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].kind == OP_MASK_DIR &&
		    sandbox_plan_path_under(canon, p->ops[i].target))
			return 0;
	if (p->nsock_masked >= SANDBOX_MAX_SOCKETS) {
		p->sock_over = true;
		return 0;
	}
	p->nsock_masked++;
	return sandbox_plan_add_op(p, OP_MASK_FILE, OPF_OPTIONAL | OPF_FILE,
				   canon, NULL, step);
}

/* The path of one /proc/net/unix line ("Num RefCount Protocol Flags
 * Type St Inode Path": the eighth field, the rest of the line), when it is
 * an absolute one; NULL for an unbound or abstract ("@") socket or a short
 * line. */
const char *sandbox_mask_unix_path(const char *line)
{
	const char *s = line;
	int field = 0;

	for (; *s && field < 7; field++) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ')
			s++;
	}
	while (*s == ' ')
		s++;
	return field == 7 && *s == '/' ? s : NULL;
}

/* Every path socket bound in the caller's network namespace, from
 * /proc/net/unix ("Num RefCount Protocol Flags Type St Inode Path", the
 * path only when bound; "@" for abstract ones, which the network
 * namespace or Landlock's scope stops). A listening socket and every
 * connection it accepted show the same path; masked once. No
 * /proc/net/unix: reported. */
static int mask_bound_sockets(struct sandbox_plan *p)
{
	char buf[8192], line[PATH_MAX + 128];
	size_t ll = 0;
	bool first = true, skip = false;
	int fd = open("/proc/net/unix", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		p->sock_unlisted = true;
		return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			const char *s;

			if (buf[i] != '\n') {
				if (ll + 1 < sizeof(line))
					line[ll++] = buf[i];
				else
					skip = true; /* longer than a path */
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			if (first || skip) {
				first = skip = false;
				continue;
			}
			s = sandbox_mask_unix_path(line);
			if (s && mask_socket(p, s, "host socket mask")) {
				close(fd);
				return -1;
			}
		}
	}
	if (n < 0)
		p->sock_unlisted = true;
	close(fd);
	return 0;
}

/* The socket a variable names ("unix:path=P", "unix://P", "P:pid:1" or a
 * plain path), masked when it is one. */
static int plan_env_socket(struct sandbox_plan *p, const char *name)
{
	const char *v = getenv(name), *s, *e;
	char path[PATH_MAX];
	size_t len;

	if (!v)
		return 0;
	s = strstr(v, "unix:path=");
	if (s)
		s += 10;
	else if (strncmp(v, "unix://", 7) == 0)
		s = v + 7;
	else if (strncmp(v, "unix:", 5) == 0)
		s = v + 5;
	else
		s = v;
	if (s[0] != '/')
		return 0;
	e = s + strcspn(s, ",;:");
	len = (size_t)(e - s);
	if (len >= sizeof(path))
		return 0;
	memcpy(path, s, len);
	path[len] = '\0';
	return mask_socket(p, path, "agent socket mask");
}

/* The host's unix sockets, default-deny: connect(2) to a socket file is
 * not a write, so a read-only mount does not stop it, and behind them are
 * the session bus (systemd-run --user runs anything outside), the agents
 * whose keys the credential masks hide (ssh, gpg, password managers),
 * rootless and root docker and podman. The one place they are decided:
 *   - the runtime directory ($XDG_RUNTIME_DIR, /run/user/UID; all of
 *     /run/user for root) gets the empty read-only tmpfs;
 *   - every path socket /proc/net/unix lists (bound in the caller's
 *     network namespace) outside the writable roots gets /dev/null;
 *   - so do the sockets the variables below name and the root daemons'
 *     well-known sockets, which a daemon in another network namespace
 *     binds out of /proc/net/unix's sight.
 * A socket bound on the host after the launch is not masked (the report's
 * caveat says so). */
int sandbox_mask_host_sockets(struct sandbox_plan *p)
{
	static const char *const vars[] = {
		"SSH_AUTH_SOCK",   "DBUS_SESSION_BUS_ADDRESS",
		"DOCKER_HOST",	   "CONTAINER_HOST",
		"GPG_AGENT_INFO",  "PULSE_SERVER",
		"WAYLAND_DISPLAY", "BW_SOCKET",
		"OP_AGENT_SOCK",
	};
	static const char *const daemons[] = {
		"/run/docker.sock",
		"/var/run/docker.sock",
		"/run/containerd/containerd.sock",
		"/run/podman/podman.sock",
		"/run/dbus/system_bus_socket",
		"/run/systemd/private",
		"/run/snapd.socket",
		"/run/libvirt/libvirt-sock",
		"/run/systemd/io.systemd.Machine",
	};
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char own[64];
	const char *dirs[3];
	size_t nd = 0;

	(void)snprintf(own, sizeof(own), "/run/user/%u", (unsigned)p->uid);
	if (p->uid == 0)
		dirs[nd++] = "/run/user";
	dirs[nd++] = own;
	if (rt && rt[0] == '/')
		dirs[nd++] = rt;
	for (size_t i = 0; i < nd; i++) {
		struct stat st;
		char *canon;

		canon = sandbox_plan_canon_stat(p, dirs[i], &st);
		if (!canon || !S_ISDIR(st.st_mode) || strcmp(canon, "/") == 0)
			continue;
		if (covers_writable(p, canon) ||
		    sandbox_plan_path_under(p->home, canon)) {
			p->sock_missed = true;
			continue;
		}
		if (sandbox_plan_add_op(p, OP_MASK_DIR, OPF_OPTIONAL, canon,
					NULL, "runtime directory mask"))
			return -1;
	}
	if (mask_bound_sockets(p))
		return -1;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (plan_env_socket(p, vars[i]))
			return -1;
	for (size_t i = 0; i < sizeof(daemons) / sizeof(daemons[0]); i++)
		if (mask_socket(p, daemons[i], "daemon socket mask"))
			return -1;
	/* cordon console's socket and token where there is no runtime
	 * directory ($XDG_STATE_HOME/cordon/, src/policy/broker.h): a
	 * sandboxed command must neither answer its own approvals nor read
	 * the console's token. */
	static const char *const console[] = { "console.sock",
					       "console.token" };
	for (size_t i = 0; i < sizeof(console) / sizeof(console[0]); i++) {
		char path[PATH_MAX];

		if (atomic_state_path(NULL, console[i], path, sizeof(path)) ==
			    0 &&
		    sandbox_mask_path(p, path, "console mask"))
			return -1;
	}
	return 0;
}

/* Running as root, the sandbox's uid is 0 without capabilities: the owner
 * bits still open root's own files. The well-known secrets among them are
 * masked; the rest is said in the report. /root is masked unless it is the
 * home (then it is the home, as readable as any); a writable root below
 * it keeps its way in (the other entries of /root are masked one by
 * one). */
int sandbox_mask_root_files(struct sandbox_plan *p)
{
	static const char *const files[] = {
		"/etc/shadow",	    "/etc/gshadow", "/etc/shadow-",
		"/etc/gshadow-",    "/etc/sudoers", "/etc/sudoers.d",
		"/etc/ssl/private",
	};
	char buf[4096];
	int dfd;

	if (p->uid != 0)
		return 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (sandbox_mask_path(p, files[i], "root-only file mask"))
			return -1;
	/* /etc/ssh/ssh_host_*_key (the public halves stay). */
	dfd = open("/etc/ssh", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		for (;;) {
			long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

			if (n <= 0)
				break;
			for (long off = 0; off < n;) {
				struct sandbox_dirent64 *de =
					(struct sandbox_dirent64
						 *)(void *)(buf + off);
				size_t nl = strlen(de->d_name);
				char *path;

				off += de->d_reclen;
				if (nl < 4 ||
				    strcmp(de->d_name + nl - 4, "_key") != 0)
					continue;
				path = sandbox_plan_join(p, "/etc/ssh",
							 de->d_name);
				if (!path) {
					close(dfd);
					return sandbox_plan_fail(
						p, "out of memory");
				}
				if (sandbox_mask_path(p, path,
						      "root-only file mask")) {
					close(dfd);
					return -1;
				}
			}
		}
		close(dfd);
	}
	if (sandbox_plan_path_under(p->home, "/root") ||
	    sandbox_plan_path_under("/root", p->home))
		return 0;
	if (!covers_writable(p, "/root"))
		return sandbox_mask_path(p, "/root", "root-only file mask");
	dfd = open("/root", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct sandbox_dirent64 *de =
				(struct sandbox_dirent64 *)(void *)(buf + off);
			char *path;

			off += de->d_reclen;
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			path = sandbox_plan_join(p, "/root", de->d_name);
			if (!path) {
				close(dfd);
				return sandbox_plan_fail(p, "out of memory");
			}
			if (covers_writable(p, path))
				continue;
			if (sandbox_mask_path(p, path, "root-only file mask")) {
				close(dfd);
				return -1;
			}
		}
	}
	close(dfd);
	return 0;
}
