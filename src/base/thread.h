/* thread — a thread that takes no signal: the processes that start one
 * (cordon run's parent, the sandbox's connect supervisor) read their
 * signals in the main thread, from a signalfd or sigwait, and a thread
 * that left them open would take them instead and die by their default
 * action. */
#ifndef CORDON_BASE_THREAD_H
#define CORDON_BASE_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/* pthread_create() of fn(arg) into *t with every signal blocked in the new
 * thread (the caller's mask is left as it was), detached when asked. 0, or
 * the error number. */
int thread_nosig(pthread_t *t, bool detached, void *(*fn)(void *), void *arg);

#endif
