/* resolve — lookups in detached threads that can be abandoned (see
 * resolve.h). */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "resolve.h"

#include "alloc.h"
#include "banned.h"

struct resolve_job {
	atomic_int refs; /* the thread's and the caller's */
	atomic_bool done;
	int efd;
	int err;
	size_t naddrs;
	struct netaddr_addr addrs[RESOLVE_MAX_ADDRS];
	char name[RESOLVE_NAME_MAX + 1];
};

static atomic_size_t running;

static void job_unref(struct resolve_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) != 1)
		return;
	close(j->efd);
	free(j);
}

static bool seen(const struct resolve_job *j, const struct netaddr_addr *a)
{
	for (size_t i = 0; i < j->naddrs; i++)
		if (j->addrs[i].family == a->family &&
		    memcmp(j->addrs[i].b, a->b, 16) == 0)
			return true;
	return false;
}

static void *lookup_main(void *arg)
{
	struct resolve_job *j = arg;
	struct addrinfo hints, *res = NULL, *ai;
	uint64_t one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	j->err = getaddrinfo(j->name, NULL, &hints, &res);
	for (ai = res; ai && j->naddrs < RESOLVE_MAX_ADDRS; ai = ai->ai_next) {
		struct netaddr_addr a;

		if (netaddr_from_sockaddr(ai->ai_addr, &a) && !seen(j, &a))
			j->addrs[j->naddrs++] = a;
	}
	if (res)
		freeaddrinfo(res);
	atomic_store_explicit(&j->done, true, memory_order_release);
	if (write(j->efd, &one, sizeof(one)) < 0) {
		/* An eventfd write fails only when the counter is full:
		 * it is readable then. */
	}
	atomic_fetch_sub(&running, 1);
	job_unref(j);
	return NULL;
}

enum cordon_err resolve_start(const char *name, struct resolve_job **out)
{
	size_t n = name ? strlen(name) : 0;
	struct resolve_job *j;
	pthread_attr_t at;
	pthread_t t;
	sigset_t all, old;
	int e;

	*out = NULL;
	if (n == 0 || n > RESOLVE_NAME_MAX)
		return CORDON_E_INVAL;
	j = cordon__calloc(1, sizeof(*j));
	if (!j)
		return CORDON_E_NOMEM;
	memcpy(j->name, name, n + 1);
	j->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (j->efd < 0) {
		free(j);
		return CORDON_E_IO;
	}
	atomic_init(&j->refs, 2);
	atomic_init(&j->done, false);
	if (pthread_attr_init(&at) != 0) {
		close(j->efd);
		free(j);
		return CORDON_E_IO;
	}
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	/* The thread takes no signal meant for the program. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	atomic_fetch_add(&running, 1);
	e = pthread_create(&t, &at, lookup_main, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&at);
	if (e != 0) {
		atomic_fetch_sub(&running, 1);
		close(j->efd);
		free(j);
		errno = e;
		return e == EAGAIN ? CORDON_E_IO : CORDON_E_NOMEM;
	}
	*out = j;
	return CORDON_OK;
}

int resolve_fd(const struct resolve_job *j)
{
	return j->efd;
}

bool resolve_result(const struct resolve_job *j, int *gai_err,
		    struct netaddr_addr addrs[RESOLVE_MAX_ADDRS], size_t *n)
{
	*n = 0;
	*gai_err = 0;
	if (!atomic_load_explicit(&j->done, memory_order_acquire))
		return false;
	*gai_err = j->err;
	*n = j->naddrs;
	memcpy(addrs, j->addrs, j->naddrs * sizeof(*addrs));
	return true;
}

void resolve_release(struct resolve_job *j)
{
	if (j)
		job_unref(j);
}

size_t resolve_running(void)
{
	return atomic_load(&running);
}
