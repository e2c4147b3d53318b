/* unixmsg — one message on an AF_UNIX SOCK_SEQPACKET socket, with at most
 * one descriptor beside it (SCM_RIGHTS): what the relays between a door
 * inside a cordon sandbox and the `cordon run` outside it share (the
 * audit relay, src/audit/relay.h; the broker relay, src/policy/broker.h).
 */
#ifndef CORDON_UNIXMSG_H
#define CORDON_UNIXMSG_H

#include <stddef.h>

#include <sys/socket.h>

/* The descriptor named by value (an environment variable's: a decimal
 * number above 2, open, an AF_UNIX SOCK_SEQPACKET socket), or -1. */
int unixmsg_env_fd(const char *value);

/* 0 when value is an absolute path naming a socket of this user (not
 * followed if a symlink) that fits in sun_path, else -1. */
int unixmsg_env_path(const char *value);

/* Sends msg[0..len) on fd as one message, with the descriptor pass beside
 * it when pass >= 0. 0, or the errno value (EIO: sent short). */
int unixmsg_send(int fd, const void *msg, size_t len, int pass);

/* The descriptors a received message carried: the one in *rfd (-1: none;
 * -2: more than one, all of them closed), every other one closed. */
void unixmsg_take_fd(struct msghdr *mh, int *rfd);

#endif
