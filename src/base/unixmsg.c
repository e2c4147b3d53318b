/* unixmsg — SEQPACKET messages with a descriptor (unixmsg.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "unixmsg.h"

#include "banned.h"

int unixmsg_is_seqpacket(int fd)
{
	int type = 0, domain = 0;
	socklen_t l = sizeof(int);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l) != 0 ||
	    type != SOCK_SEQPACKET)
		return 0;
	l = sizeof(int);
	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &l) == 0 &&
	       domain == AF_UNIX;
}

int unixmsg_env_fd(const char *value)
{
	char *end;
	long v;

	if (!value || value[0] < '0' || value[0] > '9')
		return -1;
	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || *end || v <= 2 || v > INT_MAX)
		return -1;
	if (fcntl((int)v, F_GETFD) < 0 || !unixmsg_is_seqpacket((int)v))
		return -1;
	return (int)v;
}

int unixmsg_env_path(const char *value)
{
	struct stat st;

	if (!value || value[0] != '/' ||
	    strlen(value) >= sizeof(((struct sockaddr_un *)0)->sun_path) ||
	    lstat(value, &st) != 0 || !S_ISSOCK(st.st_mode) ||
	    st.st_uid != geteuid())
		return -1;
	return 0;
}

long unixmsg_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int unixmsg_send_until(int fd, const void *msg, size_t len, int pass,
		       long deadline)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { 0 };
	struct cmsghdr *c;
	ssize_t n;

	memset(&u, 0, sizeof(u));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (pass >= 0) {
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass, sizeof(int));
	}
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		long left;

		n = sendmsg(fd, &mh,
			    MSG_NOSIGNAL | (deadline >= 0 ? MSG_DONTWAIT : 0));
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (deadline < 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return errno;
		/* the queue is full (whoever else holds the socket filled
		 * it): wait for room, not past the deadline */
		left = deadline - unixmsg_mono_ms();
		if (left <= 0)
			return ETIMEDOUT;
		if (poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left) < 0 &&
		    errno != EINTR)
			return errno;
	}
	return (size_t)n == len ? 0 : EIO;
}

int unixmsg_send(int fd, const void *msg, size_t len, int pass)
{
	return unixmsg_send_until(fd, msg, len, pass, -1);
}

void unixmsg_take_fd(struct msghdr *mh, int *rfd)
{
	int n = 0;

	*rfd = -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int),
			       sizeof(int));
			if (n++ == 0)
				*rfd = fd;
			else
				close(fd);
		}
	}
	if (n > 1) {
		close(*rfd);
		*rfd = -2;
	}
}
