/* thread — a thread that takes no signal (thread.h). */
#include <errno.h>
#include <signal.h>

#include "thread.h"

#include "banned.h"

int thread_nosig(pthread_t *t, bool detached, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int e;

	if (pthread_attr_init(&attr) != 0)
		return ENOMEM;
	if (detached)
		(void)pthread_attr_setdetachstate(&attr,
						  PTHREAD_CREATE_DETACHED);
	/* The new thread inherits the mask in force when it is made. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(t, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return e;
}
