/* landlock — the second wall: Landlock rules applied in the child.
 *
 * The ABI is probed at run time (landlock_create_ruleset with
 * LANDLOCK_CREATE_RULESET_VERSION); constants for ABI 4 to 7 that Debian's
 * header lacks are defined here. Filesystem: everything readable and
 * executable, writes (write file, truncate, make/remove, refer, ioctl_dev
 * as the ABI allows) only beneath the writable roots and /dev/null-like
 * devices. ABI 4+: TCP bind and connect handled: none allowed for network
 * none, every port for host, the proxy port only for proxy. ABI 6+: scoped
 * abstract unix sockets and signals.
 */
#ifndef CORDON_LANDLOCK_H
#define CORDON_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>

/* The ABI version, or 0 when Landlock is unavailable (errno kept). */
int landlock_abi(void);

struct landlock_policy {
	const char *const *rw; /* writable roots (directories or files) */
	size_t nrw;
	bool restrict_tcp;     /* ABI 4+: handle bind/connect */
	const unsigned short *tcp_ports; /* allowed connect ports */
	size_t ntcp_ports;
	bool scope;            /* ABI 6+: abstract unix sockets and signals */
	bool no_pts;           /* /dev/pts not writable (the host's own) */
};

/* Builds and applies the ruleset to the calling thread (no_new_privs must
 * be set already). Returns 0, or -1 with why ("landlock: add rule for
 * /w: No such file or directory"). *lost gets a bitmask of LANDLOCK_LOST_*
 * for features the ABI does not have. Without Landlock at all it returns 0
 * with *lost = LANDLOCK_LOST_ALL and why saying why (best effort: the caller
 * reports it); with no_new_privs unset it fails. Reads and execution are
 * not handled (allowed everywhere); /dev/null, zero, full, tty, ptmx and
 * pts stay writable with their ioctls, /dev/shm writable. */
#define LANDLOCK_LOST_ALL 1u      /* no Landlock at all */
#define LANDLOCK_LOST_TCP 2u      /* ABI < 4 */
#define LANDLOCK_LOST_SCOPE 4u    /* ABI < 6 */
#define LANDLOCK_LOST_TRUNCATE 8u /* ABI < 3 */
#define LANDLOCK_LOST_REFER 16u   /* ABI < 2 */
#define LANDLOCK_LOST_IOCTL_DEV 32u /* ABI < 5: device ioctls not restricted */
int landlock_apply(const struct landlock_policy *p, unsigned *lost, char *why,
	     size_t whycap);

/* The network rules of p as the connect supervisor (unixnotif.c) applies
 * them to the connects it makes on the command's behalf, outside the
 * command's Landlock domain: the same policy that landlock_apply turns
 * into rules. A TCP connect to port (host order); a connect to an
 * abstract unix address, which the scope allows only to sockets made
 * inside the domain: the supervisor cannot tell who made one, so it
 * allows them only where every such socket is the sandbox's (own_netns:
 * the command has a network namespace of its own). */
bool landlock_tcp_connect_allowed(const struct landlock_policy *p,
				  unsigned port);
bool landlock_abstract_connect_allowed(const struct landlock_policy *p,
				       bool own_netns);

/* p as a kernel with this ABI enforces it: the network rules and scopes
 * the ABI lacks are cleared (what landlock_apply drops and reports), so
 * the supervisor applies neither more nor less than Landlock would. */
void landlock_policy_for_abi(int abi, struct landlock_policy *p);

/* The LANDLOCK_LOST_* mask landlock_apply would report for p on a kernel with this
 * ABI (0: no Landlock), without applying anything: for the probe. */
unsigned landlock_would_lose(int abi, const struct landlock_policy *p);

#endif
