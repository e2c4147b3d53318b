/* Opening the audit log the way every door does: --audit-log, else the
 * configuration, else the default file under $XDG_STATE_HOME.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "audit.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "proxy.h"
#include "relay.h"
#include "runrelay.h"
#include "sandbox.h"

#include "banned.h"

/* The default file; 0, or -1 when there is no home to put it in. */
int cli_audit_default_path(char *buf, size_t cap)
{
	return atomic_state_path(NULL, "audit.jsonl", buf, cap);
}

const char *cli_audit_file(const struct cordon_config *cfg,
			   const char *flag_path, char *buf, size_t cap)
{
	const char *file = flag_path ? flag_path : cfg->audit_path;

	if (file)
		return file;
	return cli_audit_default_path(buf, cap) == 0 ? buf : NULL;
}

int cli_open_audit(const struct cordon_config *cfg, const char *flag_path,
		   struct cordon_audit **out)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_diag diag = { 0 };
	char path[PATH_MAX];
	const char *file = cli_audit_file(cfg, flag_path, path, sizeof(path));

	if (!file) {
		fprintf(stderr,
			"cordon: audit.path: no default place for the "
			"audit log (HOME and XDG_STATE_HOME are unset "
			"or relative); set audit.path or --audit-log\n");
		return CLI_EXIT_USAGE;
	}
	o.path = strcmp(file, "-") == 0 ? NULL : file;
	if (!cfg->audit_fsync || strcmp(cfg->audit_fsync, "every") == 0)
		o.fsync_policy = CORDON_AUDIT_FSYNC_EVERY;
	else if (strcmp(cfg->audit_fsync, "batch") == 0)
		o.fsync_policy = CORDON_AUDIT_FSYNC_BATCH;
	else
		o.fsync_policy = CORDON_AUDIT_FSYNC_NEVER;
	o.rotate_bytes = cfg->audit_rotate_bytes;
	o.rotate_keep = cfg->audit_rotate_keep;
	o.syslog = cfg->audit_syslog;
	o.to_stderr = cfg->audit_stderr;
	o.log_all_commands = cfg->log_all_commands;
	o.key_file = cfg->audit_key_file;
	if (cordon_audit_open(&o, out, &diag) != CORDON_OK) {
		/* Inside a cordon sandbox the log is read-only: the `cordon
		 * run` outside writes the records (src/audit/relay.h). */
		struct cordon_diag rd = { 0 };
		int fd = audit_relay_env_fd(getenv(AUDIT_RELAY_ENV));
		const char *sock = getenv(AUDIT_RELAY_SOCK_ENV);

		if (fd < 0 && audit_relay_env_path(sock) != 0)
			sock = NULL;
		if ((fd < 0 && !sock) ||
		    audit_open_relay(&o, fd, sock, out, &rd) != CORDON_OK) {
			fprintf(stderr, "cordon: %s\n", diag.message);
			return CLI_EXIT_FAILURE;
		}
	}
	if (cordon_audit_warning(*out))
		fprintf(stderr, "cordon: warning: %s\n",
			cordon_audit_warning(*out));
	return CLI_EXIT_OK;
}

void cli_audit_proxy_decision(void *ctx, const struct proxy_decision *d)
{
	struct cli_proxy_audit *pa = ctx;
	struct cordon_diag diag = { 0 };
	cJSON *o = cJSON_CreateObject();
	char *js = NULL;

	if (pa->verbose) {
		/* an IPv6 target in brackets, as the proxy's answers name it */
		bool v6 = strchr(d->host, ':') != NULL;

		fprintf(stderr, "cordon proxy: %s %s %s%s%s:%u%s%s: %s\n",
			d->allowed ? "allow" : "deny", d->proto, v6 ? "[" : "",
			d->host, v6 ? "]" : "", d->port,
			d->addr[0] ? " via " : "", d->addr, d->rule);
	}
	if (!pa->audit)
		return;
	if (o && cJSON_AddStringToObject(o, "proto", d->proto) &&
	    cJSON_AddStringToObject(o, "target", d->host) &&
	    cJSON_AddNumberToObject(o, "port", d->port) &&
	    cJSON_AddStringToObject(o, "verdict",
				    d->allowed ? "allow" : "deny") &&
	    cJSON_AddStringToObject(o, "kind", d->kind) &&
	    cJSON_AddStringToObject(o, "rule", d->rule) &&
	    cJSON_AddStringToObject(o, "addr", d->addr) &&
	    (!pa->session ||
	     cJSON_AddStringToObject(o, "session", pa->session)))
		js = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!js ||
	    cordon_audit_event(pa->audit, "proxy", js, &diag) != CORDON_OK) {
		if (!pa->failed)
			fprintf(stderr, "cordon: %s\n",
				js ? diag.message : "audit log: out of memory");
		pa->failed = 1;
	}
	free(js);
}

/* ---- the audit relay: records of the doors inside `cordon run` --------- */

#define RELAY_CONNS 64 /* connections of the path served at once */

struct cli_audit_relay {
	struct audit_relay_server srv;
	struct cli_runrelay rr;
	int lfd; /* listening on path, or -1 */
	char path[PATH_MAX];
	char senv[PATH_MAX + 32];
};

/* Serves the relay until told to stop, then reads what is left: the
 * descriptor's messages, and the path's connections (one message each). */
static void *relay_thread(void *arg)
{
	struct cli_audit_relay *r = arg;
	struct pollfd pf[3 + RELAY_CONNS];
	nfds_t nconn = 0;
	bool stop = false;

	pf[0] = (struct pollfd){ .fd = r->rr.fds[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = r->rr.stop[0], .events = POLLIN };
	pf[2] = (struct pollfd){ .fd = r->lfd, .events = POLLIN };
	while (!stop) {
		/* no new connections while every slot is taken */
		pf[2].fd = nconn < RELAY_CONNS ? r->lfd : -1;
		int k = poll(pf, 3 + nconn, -1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 || (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL)))
			break;
		/* bounded per wake-up, so a stop is seen between bursts */
		for (int i = 0; i < 64 && (pf[0].revents & POLLIN); i++)
			if (audit_relay_serve(&r->srv, r->rr.fds[0], false) <=
			    0)
				break;
		for (nfds_t i = 0; i < nconn;) {
			struct pollfd *c = &pf[3 + i];

			if (c->revents &&
			    ((c->revents & POLLIN) == 0 ||
			     audit_relay_serve(&r->srv, c->fd, true) != 0)) {
				close(c->fd);
				*c = pf[3 + --nconn];
				continue;
			}
			i++;
		}
		if (pf[2].fd >= 0 && (pf[2].revents & POLLIN)) {
			int c = accept4(r->lfd, NULL, NULL,
					SOCK_CLOEXEC | SOCK_NONBLOCK);

			if (c >= 0)
				pf[3 + nconn++] =
					(struct pollfd){ .fd = c,
							 .events = POLLIN };
		}
		stop = pf[1].revents != 0;
	}
	for (int i = 0; i < 1024; i++)
		if (audit_relay_serve(&r->srv, r->rr.fds[0], false) <= 0)
			break;
	for (nfds_t i = 0; i < nconn; i++) {
		(void)audit_relay_serve(&r->srv, pf[3 + i].fd, true);
		close(pf[3 + i].fd);
	}
	return NULL;
}

#define RELAY_NAME_LEN 18 /* 9 random bytes in lower-case hex */
#define RELAY_REAP_SCAN 256 /* entries of "relay" read per run */
#define RELAY_STALE_S 60 /* a socket this old that nobody listens on */

/* Is name one relay_listen makes (RELAY_NAME_LEN lower-case hex)? */
static bool relay_name(const char *name)
{
	size_t i = 0;

	while (name[i] && i <= RELAY_NAME_LEN &&
	       ((name[i] >= '0' && name[i] <= '9') ||
		(name[i] >= 'a' && name[i] <= 'f')))
		i++;
	return i == RELAY_NAME_LEN && name[i] == '\0';
}

/* A run killed with SIGKILL leaves its socket in "relay": each run removes
 * the stale ones it finds in the first RELAY_REAP_SCAN entries. Only
 * cordon's own names, only this user's sockets (lstat: a symlink is never
 * followed, and unlinkat removes the name itself), only one older than
 * RELAY_STALE_S (a run between its bind and its listen is refused a
 * connect too) and only when a connect is refused: nobody listens. */
static void relay_reap(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct timespec now;
	struct dirent *de;
	size_t seen = 0;
	DIR *d;

	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		now.tv_sec = 0;
	while (seen++ < RELAY_REAP_SCAN && (de = readdir(d)) != NULL) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		struct stat st;
		int s, rc, e;

		if (!relay_name(de->d_name) ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISSOCK(st.st_mode) || st.st_uid != geteuid() ||
		    st.st_mtime > now.tv_sec - RELAY_STALE_S ||
		    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", dir,
			     de->d_name) >= (int)sizeof(sa.sun_path))
			continue;
		s = socket(AF_UNIX,
			   SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (s < 0)
			break;
		rc = connect(s, (struct sockaddr *)&sa, sizeof(sa));
		e = errno;
		close(s);
		if (rc != 0 && e == ECONNREFUSED)
			(void)unlinkat(dfd, de->d_name, 0);
	}
	closedir(d);
}

/* The path: a SEQPACKET socket of a random name in "relay", a 0700
 * directory beside the default audit log (read-only in the sandbox),
 * unless that is inside a writable root (the command could put its own
 * socket there). The directory is kept from run to run: making and
 * removing one per run cost two ext4 directory inodes (some 40 us), and
 * the socket's random name is what keeps runs apart. One that is not a
 * directory of this user's that nobody else may enter (a symlink, a
 * group or other bit) is not used. Without it the descriptor is the only
 * way. What runs killed with SIGKILL left there is removed (relay_reap). */
static void relay_listen(struct cli_audit_relay *r,
			 const struct sandbox_opts *o)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char state[PATH_MAX], canon[PATH_MAX], root[PATH_MAX], dir[PATH_MAX];
	char name[RELAY_NAME_LEN + 1];
	struct stat st;
	char *slash;
	int s;

	if (cli_audit_default_path(state, sizeof(state)) != 0 ||
	    !(slash = strrchr(state, '/')))
		return;
	*slash = '\0';
	if (mkdir(state, 0700) != 0 && errno != EEXIST)
		return;
	if (!realpath(state, canon))
		return;
	for (size_t i = 0; i <= o->nwrite; i++) {
		const char *w = i < o->nwrite ?
					o->write[i] :
					(o->workspace ? o->workspace : ".");
		size_t n;

		if (!realpath(w, root))
			continue;
		n = strlen(root);
		if (strncmp(canon, root, n) == 0 &&
		    (canon[n] == '/' || canon[n] == '\0' || n == 1))
			return;
	}
	if (snprintf(dir, sizeof(dir), "%s/relay", canon) >= (int)sizeof(dir) ||
	    (mkdir(dir, 0700) != 0 && errno != EEXIST) ||
	    lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 077))
		return;
	relay_reap(dir);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return;
	/* 72 random bits: a name another run holds is tried again */
	for (int tries = 0;; tries++) {
		if (tries == 8 || cli_random_hex(name, RELAY_NAME_LEN / 2) != 0 ||
		    snprintf(r->path, sizeof(r->path), "%s/%s", dir, name) >=
			    (int)sizeof(sa.sun_path)) {
			close(s);
			r->path[0] = '\0';
			return;
		}
		memcpy(sa.sun_path, r->path, strlen(r->path) + 1);
		if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		if (errno != EADDRINUSE) {
			close(s);
			r->path[0] = '\0';
			return;
		}
	}
	if (listen(s, 16) != 0) {
		close(s);
		unlink(r->path);
		r->path[0] = '\0';
		return;
	}
	r->lfd = s;
	(void)snprintf(r->senv, sizeof(r->senv), "%s=%s", AUDIT_RELAY_SOCK_ENV,
		       r->path);
}

static void relay_unlink(struct cli_audit_relay *r)
{
	if (r->lfd >= 0)
		close(r->lfd);
	if (r->path[0])
		unlink(r->path);
}

struct cli_audit_relay *cli_audit_relay_start(struct cordon_audit *a,
					      struct sandbox_opts *o)
{
	static const char what[] = "cordon run: audit relay";
	struct cli_audit_relay *r = calloc(1, sizeof(*r));

	if (!r || audit_relay_server_init(&r->srv, a) != CORDON_OK) {
		fprintf(stderr, "%s: out of memory\n", what);
		free(r);
		return NULL;
	}
	r->lfd = -1;
	/* one more slot: CORDON_AUDIT_SOCK */
	if (cli_runrelay_open(&r->rr, what, AUDIT_RELAY_ENV, o, 1) != 0)
		goto fail;
	relay_listen(r, o);
	if (r->lfd >= 0)
		r->rr.extra[r->rr.next] = r->senv;
	if (cli_runrelay_start(&r->rr, what, relay_thread, r, o,
			       SANDBOX_PASS_AUDIT) != 0)
		goto fail;
	o->pass_sockets[SANDBOX_PASS_AUDIT] = r->lfd >= 0 ? r->path : NULL;
	return r;
fail:
	cli_runrelay_close(&r->rr);
	relay_unlink(r);
	audit_relay_server_free(&r->srv);
	free(r);
	return NULL;
}

int cli_audit_relay_run(struct cli_audit_relay *r)
{
	return r ? cli_runrelay_run(&r->rr, "cordon run: audit relay") : 0;
}

void cli_audit_relay_stop(struct cli_audit_relay *r, struct sandbox_opts *o)
{
	if (!r)
		return;
	cli_runrelay_stop(&r->rr, o, SANDBOX_PASS_AUDIT);
	if (r->srv.refused)
		fprintf(stderr,
			"cordon run: audit relay: %llu record(s) from inside "
			"the sandbox refused (event nested_refused)\n",
			(unsigned long long)r->srv.refused);
	if (o)
		o->pass_sockets[SANDBOX_PASS_AUDIT] = NULL;
	relay_unlink(r);
	cli_runrelay_close(&r->rr);
	audit_relay_server_free(&r->srv);
	free(r);
}
