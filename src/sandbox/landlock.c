/* landlock — the second wall: a Landlock ruleset applied in the child.
 *
 * Only the write side of the filesystem is handled (write, truncate,
 * make/remove, refer, device ioctls): reads and execution are never
 * handled, so they stay allowed everywhere without a rule on "/" whose
 * walk could miss files reached through other mount namespaces. Rights the
 * running kernel does not know are dropped before the ruleset is created,
 * as the kernel's samples/landlock/sandboxer.c does, and reported in *lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock.h"
#include "text.h"

#include "banned.h"

/* Debian 12's <linux/landlock.h> stops at ABI 2. */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0) /* ABI 4 */
#endif
#ifndef LANDLOCK_ACCESS_NET_CONNECT_TCP
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1) /* ABI 6 */
#endif
/* An enum constant in newer headers: the macro then shadows it with the
 * same value, which is harmless. */
#ifndef LANDLOCK_RULE_NET_PORT
#define LANDLOCK_RULE_NET_PORT 2 /* ABI 4 */
#endif

/* The kernel's struct landlock_attr_abi as of ABI 6 (a field cannot be
 * tested with #ifndef, so the layout is mirrored under our own name). The
 * size passed to the kernel covers the fields the running ABI knows. */
struct landlock_attr_abi {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped; /* ABI 6 */
};

/* The kernel's struct landlock_net_port_attr (ABI 4). */
struct landlock_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

/* Every write-side right cordon handles, newest ABI first dropped. */
#define LANDLOCK_FS_WRITE                                                            \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |       \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |       \
	 LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |           \
	 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |         \
	 LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM |         \
	 LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE |              \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* The rights that make sense on a file that is not a directory (the kernel
 * rejects a rule giving a file a directory-only right). */
#define LANDLOCK_FS_FILE                                                             \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |         \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* Devices every command may write to, with their terminal ioctls: a rule
 * for each that exists (the minimal /dev of the namespaces backend may
 * lack some). /dev/ptmx is there so openpty() works on the host's /dev. */
static const struct {
	const char *path;
	uint64_t access;
} landlock_devices[] = {
	{ "/dev/null", LANDLOCK_FS_FILE }, { "/dev/zero", LANDLOCK_FS_FILE },
	{ "/dev/full", LANDLOCK_FS_FILE }, { "/dev/tty", LANDLOCK_FS_FILE },
	{ "/dev/ptmx", LANDLOCK_FS_FILE }, { "/dev/pts", LANDLOCK_FS_FILE },
	{ "/dev/shm", LANDLOCK_FS_WRITE },
};

#define LANDLOCK_DEVICE_COUNT (sizeof(landlock_devices) / sizeof(landlock_devices[0]))

int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, (size_t)0,
			   (uint32_t)LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0)
		return 0;
	return abi > INT32_MAX ? INT32_MAX : (int)abi;
}

/* Adds a path-beneath rule for path with access (masked by what the
 * ruleset handles and, for a non-directory, by the file rights). Returns 0,
 * -1 with errno set by open(2) (nothing added), or -2 with errno set by
 * fstat(2) or landlock_add_rule(2). */
static int landlock_add_path(int ruleset, const char *path, uint64_t access,
		       uint64_t handled)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	int fd, err;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		err = errno;
		close(fd);
		errno = err;
		return -2;
	}
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = access & handled;
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LANDLOCK_FS_FILE;
	pb.parent_fd = fd;
	if (pb.allowed_access == 0) {
		close(fd);
		return 0;
	}
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &pb, (uint32_t)0) != 0) {
		err = errno;
		close(fd);
		errno = err;
		return -2;
	}
	close(fd);
	return 0;
}

/* The attribute for the running ABI: rights the kernel lacks are dropped
 * and noted in *lost, newest first, falling through to older ABIs. *size
 * gets how much of the attribute that ABI reads. */
static void landlock_attr_for_abi(int abi, const struct landlock_policy *p,
			    struct landlock_attr_abi *attr, size_t *size,
			    unsigned *lost)
{
	memset(attr, 0, sizeof(*attr));
	attr->handled_access_fs = LANDLOCK_FS_WRITE;
	if (p->restrict_tcp)
		attr->handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP |
					   LANDLOCK_ACCESS_NET_CONNECT_TCP;
	if (p->scope)
		attr->scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET |
			       LANDLOCK_SCOPE_SIGNAL;
	*size = sizeof(*attr);

	switch (abi) {
	case 1:
		/* ABI 1 forbids every cross-directory rename and link, even
		 * inside writable roots: safe, but reported. */
		attr->handled_access_fs &= ~LANDLOCK_ACCESS_FS_REFER;
		*lost |= LANDLOCK_LOST_REFER;
		__attribute__((fallthrough));
	case 2:
		attr->handled_access_fs &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
		*lost |= LANDLOCK_LOST_TRUNCATE;
		__attribute__((fallthrough));
	case 3:
		if (attr->handled_access_net)
			*lost |= LANDLOCK_LOST_TCP;
		attr->handled_access_net = 0;
		*size = offsetof(struct landlock_attr_abi, handled_access_net);
		__attribute__((fallthrough));
	case 4:
		attr->handled_access_fs &= ~LANDLOCK_ACCESS_FS_IOCTL_DEV;
		*lost |= LANDLOCK_LOST_IOCTL_DEV;
		__attribute__((fallthrough));
	case 5:
		if (attr->scoped)
			*lost |= LANDLOCK_LOST_SCOPE;
		attr->scoped = 0;
		if (abi >= 4)
			*size = offsetof(struct landlock_attr_abi, scoped);
		break;
	default:
		/* ABI 6 and later: everything cordon knows is there. */
		break;
	}
}

bool landlock_tcp_connect_allowed(const struct landlock_policy *p,
				  unsigned port)
{
	if (!p->restrict_tcp)
		return true;
	for (size_t i = 0; i < p->ntcp_ports; i++)
		if (p->tcp_ports[i] == port)
			return true;
	return false;
}

bool landlock_abstract_connect_allowed(const struct landlock_policy *p,
				       bool own_netns)
{
	return !p->scope || own_netns;
}

void landlock_policy_for_abi(int abi, struct landlock_policy *p)
{
	unsigned lost = landlock_would_lose(abi, p);

	if (lost & (LANDLOCK_LOST_ALL | LANDLOCK_LOST_TCP))
		p->restrict_tcp = false;
	if (lost & (LANDLOCK_LOST_ALL | LANDLOCK_LOST_SCOPE))
		p->scope = false;
}

unsigned landlock_would_lose(int abi, const struct landlock_policy *p)
{
	struct landlock_attr_abi attr;
	unsigned lost = 0;
	size_t size;

	if (abi < 1)
		return LANDLOCK_LOST_ALL;
	landlock_attr_for_abi(abi, p, &attr, &size, &lost);
	return lost;
}

int landlock_apply(const struct landlock_policy *p, unsigned *lost, char *why,
	     size_t whycap)
{
	struct landlock_attr_abi attr;
	size_t size;
	int abi, ruleset, rc;

	*lost = 0;
	text_setf(why, whycap, "%s", "");
	abi = landlock_abi();
	if (abi == 0) {
		*lost = LANDLOCK_LOST_ALL;
		text_setf(why, whycap, "landlock: not available: %s",
			  strerror(errno));
		return 0;
	}
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
		text_setf(why, whycap,
			  "landlock: no_new_privs is not set (set it first)");
		return -1;
	}
	landlock_attr_for_abi(abi, p, &attr, &size, lost);

	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size,
			       (uint32_t)0);
	if (ruleset < 0) {
		text_setf(why, whycap, "landlock: create ruleset (ABI %d): %s",
			  abi, strerror(errno));
		return -1;
	}

	for (size_t i = 0; i < p->nrw; i++) {
		rc = landlock_add_path(ruleset, p->rw[i], LANDLOCK_FS_WRITE,
				 attr.handled_access_fs);
		if (rc != 0) {
			text_setf(why, whycap, "landlock: add rule for %s: %s",
				  p->rw[i], strerror(errno));
			goto fail;
		}
	}
	for (size_t i = 0; i < LANDLOCK_DEVICE_COUNT; i++) {
		if (p->no_pts &&
		    strcmp(landlock_devices[i].path, "/dev/pts") == 0)
			continue;
		rc = landlock_add_path(ruleset, landlock_devices[i].path,
				 landlock_devices[i].access, attr.handled_access_fs);
		/* A device missing from this /dev is simply not writable. */
		if (rc == -2) {
			text_setf(why, whycap, "landlock: add rule for %s: %s",
				  landlock_devices[i].path, strerror(errno));
			goto fail;
		}
	}
	if (attr.handled_access_net) {
		for (size_t i = 0; i < p->ntcp_ports; i++) {
			struct landlock_net_port_attr np = {
				.allowed_access =
					LANDLOCK_ACCESS_NET_CONNECT_TCP,
				.port = p->tcp_ports[i],
			};

			if (syscall(SYS_landlock_add_rule, ruleset,
				    LANDLOCK_RULE_NET_PORT, &np,
				    (uint32_t)0) != 0) {
				text_setf(
					why, whycap,
					"landlock: add rule for TCP port %u: %s",
					(unsigned)p->tcp_ports[i],
					strerror(errno));
				goto fail;
			}
		}
	}
	if (syscall(SYS_landlock_restrict_self, ruleset, (uint32_t)0) != 0) {
		text_setf(why, whycap, "landlock: restrict self: %s",
			  strerror(errno));
		goto fail;
	}
	close(ruleset);
	return 0;
fail:
	close(ruleset);
	return -1;
}
