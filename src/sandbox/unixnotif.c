/* unixnotif — the connect supervisor (sandbox_int.h).
 *
 * The masks made at the launch (mask.c) hide the unix sockets bound then;
 * a socket a host process binds later under a path the command can read
 * (an ssh agent started in $HOME, a new socket in /run/user/UID) would be
 * reachable. So every connect() of the command stops in the kernel
 * (SECCOMP_RET_USER_NOTIF, syscallfilter.c) and a thread of cordon's
 * parent answers it:
 *
 *   - it never lets the call go on (SECCOMP_USER_NOTIF_FLAG_CONTINUE):
 *     between a check and the kernel's own use the command could swap the
 *     descriptor (dup2 from another thread) or the address (its memory).
 *     It copies the address out (process_vm_readv), takes the very socket
 *     (pidfd_getfd), decides on that copy and that socket, and makes the
 *     connect itself on the duplicate; the result is the command's
 *     syscall's (EINPROGRESS for a non-blocking socket, whose descriptor
 *     is shared). A blocking connect runs on a worker thread (a pool of
 *     at most SANDBOX_UNOTIF_WORKERS, then EAGAIN), so one slow peer
 *     stalls no other call.
 *   - a pathname unix address is resolved in the command's view: its
 *     root (/proc/TID/root, RESOLVE_IN_ROOT) or, for a relative one, its
 *     cwd (RESOLVE_BENEATH: a relative path that climbs above the cwd is
 *     refused), no magic links, a final symlink read and resolved again
 *     the same way. The socket file is held by an O_PATH descriptor and
 *     connected through /proc/self/fd/N, so the inode the kernel connects
 *     to is the one checked. Allowed: a socket whose directory lies
 *     beneath a writable root (what the command can bind itself) and the
 *     sockets the plan lets through (the audit relay's). Anything else:
 *     EACCES, the kernel's answer to a permission check.
 *   - the supervisor is outside the command's Landlock domain, so it
 *     applies the rules Landlock would have applied to the command, from
 *     the same policy (landlock.h): TCP connect ports (EACCES, as
 *     Landlock), abstract unix addresses only where the command has a
 *     network namespace of its own (EPERM, as Landlock's scope). The
 *     duplicate socket stays in the command's network namespace.
 *
 * Datagram sockets, which reach a path with sendto() and no connect, are
 * refused at socket() (syscallfilter.c). The peer of a connection the
 * supervisor made sees cordon's parent in SO_PEERCRED (same uid, another
 * pid).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>

#include <linux/audit.h>
#include <linux/net.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include <seccomp.h>

#include "landlock.h"
#include "sandbox_int.h"
#include "thread.h"

#include "alloc.h"
#include "banned.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define SANDBOX_UNOTIF_WORKERS 64 /* blocking connects pending at once */
#define UNOTIF_MAX_HOPS 40 /* symlinks followed: the kernel's MAXSYMLINKS */
#define UNOTIF_MAX_DEPTH 4096 /* directory levels climbed */
#define UNOTIF_MAX_ROOTS (SANDBOX_MAX_LIST + 33)

struct unotif_id {
	dev_t dev;
	ino_t ino;
};

struct sandbox_unixnotif {
	int listener;
	int stop[2];
	pthread_t thread;
	bool running;
	struct landlock_policy net; /* the command's (sandbox_child_policy) */
	bool own_netns;
	struct unotif_id roots[UNOTIF_MAX_ROOTS]; /* writable roots */
	size_t nroots;
	struct unotif_id allow[SANDBOX_PASS_MAX]; /* the relays' sockets */
	size_t nallow;
	size_t notif_size;
	/* connect's numbers per architecture, and i386's socketcall */
	struct {
		uint32_t arch;
		int connect;
		int socketcall;
	} nrs[4];
	size_t nnrs;
};

/* A blocking connect, on its own thread: it owns everything here. */
struct unotif_job {
	int listener; /* a duplicate: the supervisor may be gone first */
	uint64_t id;
	int sock;
	struct sockaddr_storage ss;
	socklen_t len;
	int pathfd; /* pathname address: the socket file (O_PATH) */
	struct unotif_job *next; /* the workers' queue */
};

bool sandbox_unixnotif_available(char *why, size_t whycap)
{
	static int cached = -1; /* -1 unknown, 0 no, 1 yes */
	static char cached_why[96];
	uint32_t action = SECCOMP_RET_USER_NOTIF;

	if (cached < 0) {
		cached = 0;
		if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0,
			    &action) != 0)
			(void)snprintf(cached_why, sizeof(cached_why),
				       "no seccomp user notification");
		else if (syscall(SYS_pidfd_getfd, -1, 0, 0) < 0 &&
			 errno == ENOSYS)
			(void)snprintf(cached_why, sizeof(cached_why),
				       "no pidfd_getfd (Linux < 5.6)");
		else if (seccomp_api_get() < 5)
			(void)snprintf(cached_why, sizeof(cached_why),
				       "libseccomp API level < 5");
		else
			cached = 1;
	}
	if (why && whycap)
		(void)snprintf(why, whycap, "%s", cached_why);
	return cached == 1;
}

static void unotif_respond(int listener, uint64_t id, int err)
{
	struct seccomp_notif_resp resp;

	memset(&resp, 0, sizeof(resp));
	resp.id = id;
	resp.error = err ? -err : 0;
	/* ENOENT: the target is gone or was interrupted; nothing to do. */
	(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static bool unotif_valid(const struct sandbox_unixnotif *u, uint64_t id)
{
	return ioctl(u->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Copies len bytes at addr of task pid. 0 or an errno. */
static int unotif_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { .iov_base = buf, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr,
				.iov_len = len };
	ssize_t n;

	if (len == 0)
		return 0;
	n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	return n < 0 && errno != EFAULT ? EACCES : EFAULT;
}

static bool unotif_id_in(const struct unotif_id *set, size_t n,
			 const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (set[i].dev == st->st_dev && set[i].ino == st->st_ino)
			return true;
	return false;
}

/* Does directory dfd lie beneath (or at) a writable root? Climbs by
 * "..", in the command's mount tree, to its top. */
static bool unotif_beneath_roots(const struct sandbox_unixnotif *u, int dfd)
{
	int cur = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	bool found = false;

	for (int depth = 0; cur >= 0 && depth < UNOTIF_MAX_DEPTH; depth++) {
		struct stat st, pst;
		int up;

		if (fstat(cur, &st) != 0)
			break;
		if (unotif_id_in(u->roots, u->nroots, &st)) {
			found = true;
			break;
		}
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (up < 0)
			break;
		if (fstat(up, &pst) != 0 ||
		    (pst.st_dev == st.st_dev && pst.st_ino == st.st_ino)) {
			close(up);
			break; /* the top */
		}
		close(cur);
		cur = up;
	}
	if (cur >= 0)
		close(cur);
	return found;
}

/* Resolves a pathname unix address in the view of task pid: *dirfd the
 * directory holding the socket file, *sockfd the file (O_PATH). 0 or the
 * errno the command gets. */
static int unotif_resolve(pid_t pid, const char *path, int *dirfd, int *sockfd)
{
	char cur[PATH_MAX], link[PATH_MAX], proc[64];
	int rootfd = -1, cwdfd = -1, err = ELOOP;

	*dirfd = *sockfd = -1;
	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return ENAMETOOLONG;
	(void)snprintf(proc, sizeof(proc), "/proc/%ld/root", (long)pid);
	rootfd = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return EACCES;
	for (int hop = 0; hop <= UNOTIF_MAX_HOPS; hop++) {
		unsigned long long res = RESOLVE_NO_MAGICLINKS;
		char *slash = strrchr(cur, '/');
		const char *dir = ".", *name = cur;
		struct stat st;
		int base = rootfd, dfd, sfd;
		ssize_t n;

		if (cur[0] == '/') {
			res |= RESOLVE_IN_ROOT;
		} else {
			if (cwdfd < 0) {
				(void)snprintf(proc, sizeof(proc),
					       "/proc/%ld/cwd", (long)pid);
				cwdfd = open(proc,
					     O_PATH | O_DIRECTORY | O_CLOEXEC);
				if (cwdfd < 0) {
					err = EACCES;
					break;
				}
			}
			base = cwdfd;
			res |= RESOLVE_BENEATH;
		}
		if (slash) {
			*slash = '\0';
			dir = slash == cur ? "/" : cur;
			name = slash + 1;
		}
		if (!name[0] || strcmp(name, ".") == 0 ||
		    strcmp(name, "..") == 0) {
			err = ECONNREFUSED; /* a directory is not a socket */
			break;
		}
		dfd = sandbox_openat2(base, dir,
				      O_PATH | O_DIRECTORY | O_CLOEXEC, res);
		if (dfd < 0) {
			/* EXDEV: out of the cwd, or a magic link */
			err = errno == EXDEV ? EACCES : errno;
			break;
		}
		sfd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (sfd < 0 || fstat(sfd, &st) != 0) {
			err = errno;
			if (sfd >= 0)
				close(sfd);
			close(dfd);
			break;
		}
		if (S_ISSOCK(st.st_mode)) {
			*dirfd = dfd;
			*sockfd = sfd;
			err = 0;
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			close(sfd);
			close(dfd);
			err = ECONNREFUSED; /* the kernel's, for a non-socket */
			break;
		}
		n = readlinkat(sfd, "", link, sizeof(link) - 1);
		close(sfd);
		close(dfd);
		if (n <= 0) {
			err = n == 0 ? ENOENT : errno;
			break;
		}
		link[n] = '\0';
		/* A relative target is read from the link's directory:
		 * dir/target, resolved from the same base. */
		if (link[0] != '/' && slash) {
			char joined[PATH_MAX];

			if (snprintf(joined, sizeof(joined), "%s/%s",
				     strcmp(dir, "/") == 0 ? "" : dir,
				     link) >= (int)sizeof(joined)) {
				err = ENAMETOOLONG;
				break;
			}
			memcpy(cur, joined, strlen(joined) + 1);
		} else {
			memcpy(cur, link, (size_t)n + 1);
		}
		err = ELOOP;
	}
	if (cwdfd >= 0)
		close(cwdfd);
	close(rootfd);
	return err;
}

/* The connect itself, on the duplicate. 0 or an errno. */
static int unotif_connect(int sock, const struct sockaddr_storage *ss,
			  socklen_t len, int pathfd)
{
	struct sockaddr_un sun;
	int rc;

	if (pathfd >= 0) {
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		(void)snprintf(sun.sun_path, sizeof(sun.sun_path),
			       "/proc/self/fd/%d", pathfd);
		rc = connect(
			sock, (const struct sockaddr *)&sun,
			(socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				    strlen(sun.sun_path) + 1));
	} else {
		rc = connect(sock, (const struct sockaddr *)ss, len);
	}
	return rc == 0 ? 0 : errno;
}

int sandbox_unixnotif_parse(int domain, int type, const void *addr, size_t len,
			    struct sandbox_unixnotif_addr *out)
{
	const size_t off = offsetof(struct sockaddr_un, sun_path);
	const struct sockaddr_storage *ss = addr;
	const struct sockaddr_un *sun = addr;
	sa_family_t family;

	memset(out, 0, sizeof(*out));
	out->kind = UNOTIF_ADDR_PASS;
	if (len > sizeof(struct sockaddr_storage))
		return EINVAL;
	family = len >= sizeof(sa_family_t) ? ss->ss_family : AF_UNSPEC;
	if (domain == AF_INET || domain == AF_INET6) {
		if (type != SOCK_STREAM)
			return 0; /* UDP: Landlock has no rule for it either */
		if (len < sizeof(sa_family_t))
			return EINVAL;
		/* The address's family decides, as in the kernel: a v6
		 * socket takes a v4 address. */
		if (family == AF_INET) {
			if (len < sizeof(struct sockaddr_in))
				return EINVAL;
			out->port = ntohs(
				((const struct sockaddr_in *)addr)->sin_port);
			out->kind = UNOTIF_ADDR_TCP;
		} else if (family == AF_INET6) {
			if (len < sizeof(struct sockaddr_in6))
				return EINVAL;
			out->port = ntohs(
				((const struct sockaddr_in6 *)addr)->sin6_port);
			out->kind = UNOTIF_ADDR_TCP;
		}
		/* AF_UNSPEC disconnects; others get the kernel's no */
		return 0;
	}
	if (domain != AF_UNIX)
		return 0;
	if (type == SOCK_DGRAM && len >= sizeof(sa_family_t) &&
	    family == AF_UNSPEC)
		return 0; /* a datagram socket's disconnect */
	if (len <= off || len > sizeof(*sun) || family != AF_UNIX)
		return EINVAL;
	if (sun->sun_path[0] == '\0') {
		out->kind = UNOTIF_ADDR_ABSTRACT;
		return 0;
	}
	out->kind = UNOTIF_ADDR_PATH;
	len = strnlen(sun->sun_path, len - off);
	memcpy(out->path, sun->sun_path, len);
	out->path[len] = '\0';
	return 0;
}

/* The decision on one address of socket sock, after parsing: 0 (go on;
 * *pathfd set for a pathname) or the errno the command gets. */
static int unotif_decide(const struct sandbox_unixnotif *u, pid_t pid, int sock,
			 int domain, const struct sockaddr_storage *ss,
			 socklen_t len, int *pathfd)
{
	struct sandbox_unixnotif_addr a;
	struct stat st;
	int type = 0, dfd, sfd, err;
	socklen_t ol = sizeof(type);

	if (getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &ol) != 0)
		return errno;
	err = sandbox_unixnotif_parse(domain, type, ss, len, &a);
	if (err)
		return err;
	switch (a.kind) {
	case UNOTIF_ADDR_PASS:
		return 0;
	case UNOTIF_ADDR_TCP:
		return landlock_tcp_connect_allowed(&u->net, a.port) ? 0 :
								       EACCES;
	case UNOTIF_ADDR_ABSTRACT:
		return landlock_abstract_connect_allowed(&u->net,
							 u->own_netns) ?
			       0 :
			       EPERM;
	case UNOTIF_ADDR_PATH:
		break;
	}
	err = unotif_resolve(pid, a.path, &dfd, &sfd);
	if (err)
		return err;
	if (fstat(sfd, &st) == 0 && (unotif_id_in(u->allow, u->nallow, &st) ||
				     unotif_beneath_roots(u, dfd))) {
		close(dfd);
		*pathfd = sfd;
		return 0;
	}
	close(dfd);
	close(sfd);
	return EACCES;
}

/* The workers: a pool shared by every run of the process, grown on
 * demand up to SANDBOX_UNOTIF_WORKERS; an idle worker leaves after
 * UNOTIF_IDLE_S (a thread made per connect cost more than the rest of the
 * call). */
#define UNOTIF_IDLE_S 5
static pthread_mutex_t unotif_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t unotif_cv = PTHREAD_COND_INITIALIZER;
static struct unotif_job *unotif_head, *unotif_tail;
static int unotif_idle, unotif_queued, unotif_total;

static void unotif_run_job(struct unotif_job *j)
{
	int err = unotif_connect(j->sock, &j->ss, j->len, j->pathfd);

	unotif_respond(j->listener, j->id, err);
	close(j->sock);
	if (j->pathfd >= 0)
		close(j->pathfd);
	close(j->listener);
	free(j);
}

static void *unotif_worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&unotif_mu);
	for (;;) {
		struct unotif_job *j;

		while (!unotif_head) {
			struct timespec ts;
			int rc;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += UNOTIF_IDLE_S;
			unotif_idle++;
			rc = pthread_cond_timedwait(&unotif_cv, &unotif_mu,
						    &ts);
			unotif_idle--;
			if (rc == ETIMEDOUT && !unotif_head) {
				unotif_total--;
				pthread_mutex_unlock(&unotif_mu);
				return NULL;
			}
		}
		j = unotif_head;
		unotif_head = j->next;
		if (!unotif_head)
			unotif_tail = NULL;
		unotif_queued--;
		pthread_mutex_unlock(&unotif_mu);
		unotif_run_job(j);
		pthread_mutex_lock(&unotif_mu);
	}
}

/* Queues a job for an idle worker, or a new one; false past the bound. */
static bool unotif_enqueue(struct unotif_job *j)
{
	bool ok = true;
	pthread_t t;

	j->next = NULL;
	pthread_mutex_lock(&unotif_mu);
	if (unotif_idle <= unotif_queued) {
		if (unotif_total >= SANDBOX_UNOTIF_WORKERS ||
		    thread_nosig(&t, true, unotif_worker, NULL) != 0)
			ok = false;
		else
			unotif_total++;
	}
	if (ok) {
		if (unotif_tail)
			unotif_tail->next = j;
		else
			unotif_head = j;
		unotif_tail = j;
		unotif_queued++;
		pthread_cond_signal(&unotif_cv);
	}
	pthread_mutex_unlock(&unotif_mu);
	return ok;
}

/* A blocking connect handed to a worker; EAGAIN past the bound. */
static int unotif_spawn(const struct sandbox_unixnotif *u, uint64_t id,
			int *sock, const struct sockaddr_storage *ss,
			socklen_t len, int *pathfd)
{
	struct unotif_job *j = cordon__malloc(sizeof(*j));

	if (!j)
		return ENOMEM;
	j->listener = fcntl(u->listener, F_DUPFD_CLOEXEC, 0);
	j->id = id;
	j->sock = *sock;
	j->ss = *ss;
	j->len = len;
	j->pathfd = *pathfd;
	if (j->listener < 0 || !unotif_enqueue(j)) {
		if (j->listener >= 0)
			close(j->listener);
		free(j);
		return EAGAIN;
	}
	*sock = -1; /* the worker's now */
	*pathfd = -1;
	return 0;
}

/* The call's socket, address pointer and length; false for a call that
 * is not a connect (answered ENOSYS). */
static bool unotif_args(const struct sandbox_unixnotif *u,
			const struct seccomp_notif *req, int *fd,
			uint64_t *addr, uint64_t *len, int *err)
{
	for (size_t i = 0; i < u->nnrs; i++) {
		if (u->nrs[i].arch != req->data.arch)
			continue;
		if (req->data.nr == u->nrs[i].connect) {
			*fd = (int)req->data.args[0];
			*addr = req->data.args[1];
			*len = req->data.args[2];
			return true;
		}
		if (req->data.nr == u->nrs[i].socketcall &&
		    (uint32_t)req->data.args[0] == SYS_CONNECT) {
			uint32_t a[3];

			*err = unotif_read((pid_t)req->pid, req->data.args[1],
					   a, sizeof(a));
			if (*err)
				return false;
			*fd = (int)a[0];
			*addr = a[1];
			*len = a[2];
			return true;
		}
	}
	*err = ENOSYS;
	return false;
}

/* One notification: the address copied, the socket taken, the decision,
 * the connect, the answer. */
static void unotif_handle(struct sandbox_unixnotif *u,
			  const struct seccomp_notif *req)
{
	struct sockaddr_storage ss;
	pid_t pid = (pid_t)req->pid;
	uint64_t addr = 0, len = 0;
	int fd = -1, err = 0, pidfd = -1, sock = -1, pathfd = -1, domain = 0;
	socklen_t ol = sizeof(domain);

	memset(&ss, 0, sizeof(ss));
	if (!unotif_args(u, req, &fd, &addr, &len, &err))
		goto answer;
	/* The kernel's own limits (move_addr_to_kernel). */
	if ((int)len < 0 || len > sizeof(ss)) {
		err = EINVAL;
		goto answer;
	}
	err = unotif_read(pid, addr, &ss, (size_t)len);
	if (err)
		goto answer;
	pidfd = (int)syscall(SYS_pidfd_open, pid, PIDFD_THREAD);
	if (pidfd < 0 && errno == EINVAL)
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	/* Valid after the read and the pidfd: pid was the target's. */
	if (pidfd < 0 || !unotif_valid(u, req->id)) {
		err = EACCES;
		goto answer;
	}
	sock = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (sock < 0) {
		err = errno == EBADF ? EBADF : EACCES;
		goto answer;
	}
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &ol) != 0) {
		err = errno; /* ENOTSOCK */
		goto answer;
	}
	err = unotif_decide(u, pid, sock, domain, &ss, (socklen_t)len, &pathfd);
	if (err)
		goto answer;
	/* The root and cwd were read from /proc by pid: still the target. */
	if (!unotif_valid(u, req->id))
		goto out;
	if (!(fcntl(sock, F_GETFL) & O_NONBLOCK)) {
		err = unotif_spawn(u, req->id, &sock, &ss, (socklen_t)len,
				   &pathfd);
		if (!err)
			goto out;
		goto answer;
	}
	err = unotif_connect(sock, &ss, (socklen_t)len, pathfd);
answer:
	unotif_respond(u->listener, req->id, err);
out:
	if (pidfd >= 0)
		close(pidfd);
	if (sock >= 0)
		close(sock);
	if (pathfd >= 0)
		close(pathfd);
}

static void *unotif_loop(void *arg)
{
	struct sandbox_unixnotif *u = arg;
	struct seccomp_notif *req = cordon__calloc(1, u->notif_size);

	while (req) {
		struct pollfd pf[2] = {
			{ .fd = u->listener, .events = POLLIN },
			{ .fd = u->stop[0], .events = POLLIN },
		};

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents)
			break;
		if (!(pf[0].revents & POLLIN))
			break; /* POLLHUP: every filtered task is gone */
		memset(req, 0, u->notif_size);
		if (ioctl(u->listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			break;
		}
		unotif_handle(u, req);
	}
	free(req);
	return NULL;
}

/* connect's number on each architecture the filter covers. */
static void unotif_numbers(struct sandbox_unixnotif *u)
{
	const uint32_t arches[] = { SCMP_ARCH_NATIVE, SCMP_ARCH_X86,
				    SCMP_ARCH_X32, SCMP_ARCH_ARM };
	uint32_t native = seccomp_arch_native();

	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		uint32_t a = arches[i] == SCMP_ARCH_NATIVE ? native : arches[i];
		int c = seccomp_syscall_resolve_name_arch(a, "connect");

		if (i > 0 && a == native)
			continue;
		if (c == __NR_SCMP_ERROR || u->nnrs >= 4)
			continue;
		u->nrs[u->nnrs].arch = a;
		u->nrs[u->nnrs].connect = c;
		u->nrs[u->nnrs].socketcall =
			seccomp_syscall_resolve_name_arch(a, "socketcall");
		if (u->nrs[u->nnrs].socketcall < 0)
			u->nrs[u->nnrs].socketcall = INT32_MIN;
		u->nnrs++;
	}
}

/* The identities of the writable roots in the command's view (its /tmp
 * is its own tmpfs on the namespaces backend), and of the sockets the
 * plan lets through. */
static void unotif_roots(struct sandbox_unixnotif *u,
			 const struct sandbox_plan *p, pid_t pid)
{
	char proc[64];
	struct stat st;
	int rootfd;

	(void)snprintf(proc, sizeof(proc), "/proc/%ld/root", (long)pid);
	rootfd = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; rootfd >= 0 && i < p->nrw; i++) {
		int fd = sandbox_openat2(rootfd, p->rw[i], O_PATH | O_CLOEXEC,
					 RESOLVE_IN_ROOT |
						 RESOLVE_NO_MAGICLINKS);

		if (fd < 0)
			continue; /* gone: nothing bound beneath it */
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
		    u->nroots < UNOTIF_MAX_ROOTS) {
			u->roots[u->nroots].dev = st.st_dev;
			u->roots[u->nroots].ino = st.st_ino;
			u->nroots++;
		}
		close(fd);
	}
	if (rootfd >= 0)
		close(rootfd);
	for (int i = 0; i < SANDBOX_PASS_MAX; i++)
		if (p->o->pass_sockets[i] &&
		    stat(p->o->pass_sockets[i], &st) == 0 &&
		    S_ISSOCK(st.st_mode)) {
			u->allow[u->nallow].dev = st.st_dev;
			u->allow[u->nallow].ino = st.st_ino;
			u->nallow++;
		}
}

/* Receives the child's word on its listener (child.c) and starts the
 * supervisor. The child's failure before it loaded the filter is its own
 * error; a listener the kernel refused is p->unotif_err. */
void sandbox_unixnotif_start(struct sandbox_plan *p, pid_t pid)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cu;
	struct seccomp_notif_sizes sizes;
	struct sandbox_unixnotif *u;
	char msgbuf[1 + sizeof(int)];
	struct msghdr msg;
	struct cmsghdr *cm;
	struct iovec iov = { .iov_base = msgbuf, .iov_len = sizeof(msgbuf) };
	int fd = -1, err = 0;
	ssize_t n;

	if (!p->unotif_asked || p->sync_w < 0)
		return;
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cu.buf;
	msg.msg_controllen = sizeof(cu.buf);
	do
		n = recvmsg(p->sync_w, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(msgbuf))
		return; /* the child died first and says why */
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	memcpy(&err, msgbuf + 1, sizeof(err));
	if (msgbuf[0] != 'U' || fd < 0) {
		if (fd >= 0)
			close(fd);
		p->unotif_err = err ? err : EINVAL;
		return;
	}
	u = cordon__calloc(1, sizeof(*u));
	memset(&sizes, 0, sizeof(sizes));
	if (!u ||
	    syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0 ||
	    pipe2(u->stop, O_CLOEXEC) != 0) {
		/* No supervisor: every connect fails (ENOSYS once the
		 * listener is closed), closed rather than open. */
		p->unotif_err = errno ? errno : ENOMEM;
		free(u);
		close(fd);
		return;
	}
	u->listener = fd;
	u->notif_size = sizes.seccomp_notif > sizeof(struct seccomp_notif) ?
				sizes.seccomp_notif :
				sizeof(struct seccomp_notif);
	sandbox_child_policy(p, &u->net);
	landlock_policy_for_abi(landlock_abi(), &u->net);
	u->own_netns = p->netns;
	unotif_numbers(u);
	unotif_roots(u, p, pid);
	if (thread_nosig(&u->thread, false, unotif_loop, u) != 0) {
		p->unotif_err = EAGAIN;
		close(u->stop[0]);
		close(u->stop[1]);
		close(fd);
		free(u);
		return;
	}
	u->running = true;
	p->unotif = u;
}

/* Stops the supervisor. Workers still connecting keep their own
 * duplicates and end by themselves. */
void sandbox_unixnotif_end(struct sandbox_plan *p)
{
	struct sandbox_unixnotif *u = p->unotif;

	if (!u)
		return;
	if (u->running) {
		char c = 'q';

		if (write(u->stop[1], &c, 1) != 1) {
			/* the pipe is ours and empty: cannot fail */
		}
		(void)pthread_join(u->thread, NULL);
	}
	close(u->stop[0]);
	close(u->stop[1]);
	close(u->listener);
	free(u);
	p->unotif = NULL;
}
