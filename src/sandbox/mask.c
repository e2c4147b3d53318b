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
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	canon = sandbox_plan_canon(p, path);
	if (!canon) {
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES ||
		    errno == ELOOP)
			return 0;
		return sandbox_plan_fail(p, "%s %s: %s", step, path,
					 strerror(errno));
	}
	if (stat(canon, &st) != 0)
		return 0;
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

/* The socket a variable names ("unix:path=P", "unix://P", "P:pid:1" or a
 * plain path), masked when it is one. */
static int plan_env_socket(struct sandbox_plan *p, const char *name)
{
	const char *v = getenv(name), *s, *e;
	char path[PATH_MAX];
	struct stat st;
	char *canon;
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
	canon = sandbox_plan_canon(p, path);
	if (!canon || stat(canon, &st) != 0 || !S_ISSOCK(st.st_mode))
		return 0;
	return sandbox_plan_add_op(p, OP_MASK_FILE, OPF_OPTIONAL | OPF_FILE,
				   canon, NULL, "agent socket mask");
}

/* Sockets of the user's session: connect(2) to a socket file is not a
 * write, so a read-only mount does not stop it, and behind them are the
 * session bus (systemd-run --user runs anything outside), the agents
 * whose keys the credential masks hide, rootless docker and podman. The
 * runtime directory ($XDG_RUNTIME_DIR, /run/user/UID; all of /run/user
 * for root) gets the empty read-only tmpfs, and the sockets named by
 * SSH_AUTH_SOCK and the like are masked wherever they are. */
int sandbox_mask_host_sockets(struct sandbox_plan *p)
{
	static const char *const vars[] = {
		"SSH_AUTH_SOCK",  "DBUS_SESSION_BUS_ADDRESS", "DOCKER_HOST",
		"CONTAINER_HOST", "GPG_AGENT_INFO",	      "PULSE_SERVER",
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

		if (lstat(dirs[i], &st) != 0)
			continue;
		canon = sandbox_plan_canon(p, dirs[i]);
		if (!canon || stat(canon, &st) != 0 || !S_ISDIR(st.st_mode) ||
		    strcmp(canon, "/") == 0)
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
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (plan_env_socket(p, vars[i]))
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
