/* resolve — one name lookup that its owner can wait for with poll() or
 * epoll and walk away from at any moment.
 *
 * getaddrinfo() cannot be interrupted or cancelled: a resolver that never
 * answers holds the calling thread for the resolver's whole time-out. So
 * each lookup runs in a detached thread of its own, and the job is shared
 * by two owners, the thread and the caller, with a reference each. The
 * caller waits for resolve_fd() to become readable (or for its deadline),
 * then reads the result; resolve_release() drops the caller's reference at
 * any time, done or not. A thread whose caller has left finishes its
 * getaddrinfo() call, frees the job and exits: it holds no one's slot and
 * touches nothing but the job.
 *
 * How many lookups may run at once is the caller's business (the proxy
 * bounds them per client and in total); this file only counts the threads
 * alive, abandoned ones included (resolve_running()).
 */
#ifndef CORDON_RESOLVE_H
#define CORDON_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"
#include "netaddr.h"

#define RESOLVE_MAX_ADDRS 16 /* addresses kept from one lookup */
#define RESOLVE_NAME_MAX 255

struct resolve_job;

/* Starts looking name up (A and AAAA, as getaddrinfo with AF_UNSPEC).
 * Errors: CORDON_E_INVAL (name empty or over RESOLVE_NAME_MAX bytes),
 * CORDON_E_NOMEM, CORDON_E_IO (eventfd or thread; errno kept). The caller
 * owns one reference: release it with resolve_release(). */
enum cordon_err resolve_start(const char *name, struct resolve_job **out);

/* A descriptor that becomes readable (and stays so) when the lookup is
 * done. Owned by the job: valid until resolve_release(). */
int resolve_fd(const struct resolve_job *j);

/* The result once resolve_fd() is readable; false while it is not done.
 * *gai_err is 0 or an EAI_* code; addrs[0..*n) in getaddrinfo's order,
 * duplicates dropped. */
bool resolve_result(const struct resolve_job *j, int *gai_err,
		    struct netaddr_addr addrs[RESOLVE_MAX_ADDRS], size_t *n);

/* Drops the caller's reference; the thread, if it is still in
 * getaddrinfo(), frees the job when it returns. Accepts NULL. */
void resolve_release(struct resolve_job *j);

/* Lookup threads alive in this process, abandoned ones included. */
size_t resolve_running(void);

#endif
