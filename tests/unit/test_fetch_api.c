/* The public fetch API (cordon_fetch, cordon_fetch_result_free) against a
 * loopback HTTP server this test starts in a thread. The public API has no
 * loopback allowance, so every fetch of it must be refused before any
 * connection is made: the server counts the connections it accepts, and a
 * direct connection made by the test first proves it answers. Positive
 * fetches are covered by tests/integration/fetch.sh through the CLI's test
 * flag. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cordon.h"
#include "tap.h"

static const char canned[] = "HTTP/1.1 200 OK\r\n"
			     "Content-Length: 3\r\n"
			     "Content-Type: text/plain\r\n"
			     "Connection: close\r\n"
			     "\r\n"
			     "hi\n";

struct server {
	int fd;
	unsigned port;
	atomic_int accepted;
	atomic_bool stop;
	pthread_t thread;
};

/* Accepts connections until told to stop, reads what the client sends
 * (up to the end of its head or 4 KiB) and answers with the canned
 * response, one per connection. */
static void *serve(void *arg)
{
	struct server *s = arg;

	while (!atomic_load(&s->stop)) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		char buf[4096];
		size_t have = 0;
		int c;

		if (poll(&p, 1, 50) <= 0)
			continue;
		c = accept(s->fd, NULL, NULL);
		if (c < 0)
			continue;
		atomic_fetch_add(&s->accepted, 1);
		while (have < sizeof(buf) - 1) {
			struct pollfd q = { .fd = c, .events = POLLIN };
			ssize_t n;

			if (poll(&q, 1, 2000) <= 0)
				break;
			n = recv(c, buf + have, sizeof(buf) - 1 - have, 0);
			if (n <= 0)
				break;
			have += (size_t)n;
			buf[have] = '\0';
			if (strstr(buf, "\r\n\r\n"))
				break;
		}
		(void)!send(c, canned, sizeof(canned) - 1, MSG_NOSIGNAL);
		close(c);
	}
	return NULL;
}

static bool server_start(struct server *s)
{
	struct sockaddr_in a;
	socklen_t al = sizeof(a);

	memset(s, 0, sizeof(*s));
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return false;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s->fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(s->fd, 16) != 0 ||
	    getsockname(s->fd, (struct sockaddr *)&a, &al) != 0) {
		close(s->fd);
		return false;
	}
	s->port = ntohs(a.sin_port);
	if (pthread_create(&s->thread, NULL, serve, s) != 0) {
		close(s->fd);
		return false;
	}
	return true;
}

static void server_stop(struct server *s)
{
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	close(s->fd);
}

/* Connects to the server directly and reads its whole answer into buf. */
static bool direct_get(const struct server *s, char *buf, size_t size)
{
	static const char req[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
	struct sockaddr_in a;
	size_t have = 0;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ssize_t n;

	if (fd < 0)
		return false;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)s->port);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) < 0) {
		close(fd);
		return false;
	}
	while (have < size - 1 &&
	       (n = recv(fd, buf + have, size - 1 - have, 0)) > 0)
		have += (size_t)n;
	buf[have] = '\0';
	close(fd);
	return true;
}

/* Fetches url through the public API and checks it is refused as a rule
 * refusal (CORDON_E_INVAL, res.refused, no answer) whose error holds
 * want; the result is freed. */
static void check_refused(const char *url, const struct cordon_fetch_opts *o,
			  const char *want, const char *name)
{
	struct cordon_fetch_result res;
	enum cordon_err err;

	memset(&res, 0x5a, sizeof(res)); /* cordon_fetch must clear it */
	err = cordon_fetch(url, o, &res);
	ok(err == CORDON_E_INVAL, "%s: CORDON_E_INVAL (got %d)", name,
	   (int)err);
	ok(res.refused == 1, "%s: refused is set", name);
	ok(res.status == 0 && res.body == NULL && res.body_len == 0 &&
		   res.content_type == NULL && res.truncated == 0,
	   "%s: no answer (status %d)", name, res.status);
	ok(strstr(res.error, want) != NULL, "%s: error names \"%s\" (%s)", name,
	   want, res.error);
	cordon_fetch_result_free(&res);
	ok(res.final_url == NULL && res.error[0] == '\0',
	   "%s: result_free leaves the result zeroed", name);
}

int main(void)
{
	struct server srv;
	struct cordon_fetch_result res, zero;
	struct cordon_fetch_opts o;
	char url[256], buf[512];
	enum cordon_err err;

	tap_no_plan();
	if (!server_start(&srv)) {
		printf("1..0 # SKIP cannot start a loopback server: %s\n",
		       strerror(errno));
		return 0;
	}

	/* The server answers a direct connection: a refusal below is the
	 * guard's, not a dead server. */
	ok(direct_get(&srv, buf, sizeof(buf)) && strstr(buf, "200 OK") &&
		   strstr(buf, "\r\n\r\nhi\n"),
	   "the loopback server answers a direct connection");
	atomic_store(&srv.accepted, 0);

	/* (a) loopback is refused, in the spellings the guard knows. */
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", srv.port);
	check_refused(url, NULL, "loopback", "http://127.0.0.1:PORT/");
	snprintf(url, sizeof(url), "http://127.1:%u/x", srv.port);
	check_refused(url, NULL, "loopback", "http://127.1:PORT/x");
	snprintf(url, sizeof(url), "http://0x7f000001:%u/", srv.port);
	check_refused(url, NULL, "loopback", "hex 0x7f000001");
	snprintf(url, sizeof(url), "http://[::ffff:127.0.0.1]:%u/", srv.port);
	check_refused(url, NULL, "loopback", "v4-mapped ::ffff:127.0.0.1");
	snprintf(url, sizeof(url), "https://127.0.0.1:%u/", srv.port);
	check_refused(url, NULL, "loopback", "https://127.0.0.1:PORT/");
	snprintf(url, sizeof(url), "http://localhost:%u/", srv.port);
	check_refused(url, NULL, "loopback", "the name localhost");

	/* The error and final URL name the address that was refused. */
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/p?q=1#frag", srv.port);
	err = cordon_fetch(url, NULL, &res);
	is_int(err, CORDON_E_INVAL, "loopback with a query: CORDON_E_INVAL");
	ok(strstr(res.error, "127.0.0.1 is loopback") != NULL,
	   "the error names the address and its class (%s)", res.error);
	snprintf(buf, sizeof(buf), "http://127.0.0.1:%u/p?q=1", srv.port);
	is_str(res.final_url, buf,
	       "final_url is the refused hop, fragment dropped");
	cordon_fetch_result_free(&res);

	/* Options are mapped, never an allowance: every field set. */
	memset(&o, 0, sizeof(o));
	o.max_redirects = 3;
	o.max_body = 10;
	o.timeout_ms = 2000;
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", srv.port);
	check_refused(url, &o, "loopback", "loopback with options set");

	/* no_redirects wins over max_redirects: with it, an out-of-range
	 * max_redirects is not used and the fetch reaches the guard. */
	memset(&o, 0, sizeof(o));
	o.max_redirects = 101;
	err = cordon_fetch(url, &o, &res);
	is_int(err, CORDON_E_INVAL, "max_redirects 101: CORDON_E_INVAL");
	ok(!res.refused && strstr(res.error, "redirect ceiling"),
	   "max_redirects 101 is an option error, not a refusal (%s)",
	   res.error);
	cordon_fetch_result_free(&res);
	o.no_redirects = 1;
	check_refused(url, &o, "loopback", "no_redirects with max 101");

	is_int(atomic_load(&srv.accepted), 0,
	       "the server saw no connection from any refused fetch");

	/* (b) other schemes are refused before any lookup. */
	snprintf(url, sizeof(url), "ftp://127.0.0.1:%u/", srv.port);
	check_refused(url, NULL, "scheme \"ftp\" is not allowed", "ftp://");
	check_refused("FTP://example.com/", NULL, "is not allowed",
		      "FTP:// upper case");
	check_refused("file:///etc/passwd", NULL, "is not allowed", "file://");
	check_refused("gopher://example.com/", NULL, "is not allowed",
		      "gopher://");

	/* (c) userinfo is refused, not stripped, even for a public name
	 * (refused before any lookup). */
	snprintf(url, sizeof(url), "http://user:pw@127.0.0.1:%u/", srv.port);
	check_refused(url, NULL, "userinfo", "user:pw@loopback");
	check_refused("http://user@example.com/", NULL, "userinfo",
		      "user@example.com");
	check_refused("https://example.com@127.0.0.1/", NULL, "userinfo",
		      "example.com@127.0.0.1");

	is_int(atomic_load(&srv.accepted), 0,
	       "still no connection after the scheme and userinfo cases");

	/* A missing URL is an error, not a crash. */
	err = cordon_fetch(NULL, NULL, &res);
	is_int(err, CORDON_E_INVAL, "a NULL URL: CORDON_E_INVAL");
	ok(res.error[0] != '\0', "a NULL URL says why (%s)", res.error);
	cordon_fetch_result_free(&res);
	is_int(cordon_fetch(url, NULL, NULL), CORDON_E_INVAL,
	       "a NULL result: CORDON_E_INVAL");

	/* (d) freeing a zeroed result, twice, and NULL, is safe. */
	memset(&res, 0, sizeof(res));
	memset(&zero, 0, sizeof(zero));
	cordon_fetch_result_free(&res);
	cordon_fetch_result_free(&res);
	cordon_fetch_result_free(NULL);
	ok(memcmp(&res, &zero, sizeof(res)) == 0,
	   "result_free on a zeroed result leaves it zeroed");

	server_stop(&srv);
	return tap_done();
}
