/* unixmsg — one message on an AF_UNIX SOCK_SEQPACKET socket, with at most
 * one descriptor beside it (SCM_RIGHTS): what the relays between a door
 * inside a cordon sandbox and the `cordon run` outside it share (the
 * audit relay, src/audit/relay.h; the broker relay, src/policy/broker.h).
 */
#ifndef CORDON_UNIXMSG_H
#define CORDON_UNIXMSG_H

#include <stddef.h>

#include <sys/socket.h>

/* 1 when fd is an AF_UNIX SOCK_SEQPACKET socket, else 0. */
int unixmsg_is_seqpacket(int fd);

/* The descriptor named by value (an environment variable's: a decimal
 * number above 2, open, unixmsg_is_seqpacket), or -1. */
int unixmsg_env_fd(const char *value);

/* 0 when value is an absolute path naming a socket of this user (not
 * followed if a symlink) that fits in sun_path, else -1. */
int unixmsg_env_path(const char *value);

/* Sends msg[0..len) on fd as one message, with the descriptor pass beside
 * it when pass >= 0. 0, or the errno value (EIO: sent short). */
int unixmsg_send(int fd, const void *msg, size_t len, int pass);

/* CLOCK_MONOTONIC in ms: the relays' deadlines. */
long unixmsg_mono_ms(void);

/* unixmsg_send, waiting for room in a full queue no later than deadline
 * (CLOCK_MONOTONIC ms; < 0: as long as it takes): ETIMEDOUT past it. */
int unixmsg_send_until(int fd, const void *msg, size_t len, int pass,
		       long deadline);

/* The descriptors a received message carried: the one in *rfd (-1: none;
 * -2: more than one, all of them closed), every other one closed. */
void unixmsg_take_fd(struct msghdr *mh, int *rfd);

#endif
