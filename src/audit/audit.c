/* audit — the tamper-evident log. The record and the append protocol are
 * described in audit.h, the API in cordon.h.
 *
 * A handle keeps the chain as it left the file: the file's device, inode
 * and size after its last write, and the last record's seq and hash. Under
 * the lock, a file that is not exactly that (another process appended, the
 * file was rotated, replaced or cut) has its tail read again to find the
 * last record. Records are built outside the lock except for the members
 * that depend on the chain (seq, time, prev, hash), so the time of records
 * never goes back in file order.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "audit.h"
#include "buf.h"
#include "diag.h"
#include "json.h"
#include "redact.h"
#include "relay.h"
#include "sha256.h"

#include "alloc.h"
#include "text.h"
#include "utc.h"
#include "banned.h"

/* The writer looks back from the end of the file for the last record:
 * first a few lines' worth, then four times more each time, up to four
 * maximal lines (a cut line and a few lines that are not records). */
#define AUDIT_TAIL_FIRST ((size_t)8192)
#define AUDIT_TAIL_MAX (4 * (AUDIT_MAX_LINE + 1))
/* String values of recorded arguments (and argv elements) longer than this
 * are cut: a Write call's whole file does not belong in the log. */
#define AUDIT_ARG_STRING_MAX ((size_t)4096)
/* The largest syslog datagram sent (rsyslog and journald take it); a longer
 * record is announced by a short stand-in naming its seq and hash. */
#define AUDIT_SYSLOG_MAX ((size_t)65536)
/* Rotated files kept at most, and how far verify looks for them: the
 * one limit, shared with the configuration and `cordon audit show`. */
#define AUDIT_MAX_KEEP CORDON_AUDIT_MAX_KEEP
/* The HMAC key file: its size in bytes (after one trailing newline). */
#define AUDIT_KEY_MIN 16
#define AUDIT_KEY_MAX 4096
/* Longest event name ("decision", "run", "proxy" …). */
#define AUDIT_EVENT_MAX 31
/* Times a writer reopens the path when it keeps being rotated away while
 * the writer waits for the lock. */
#define AUDIT_LOCK_TRIES 100
/* The bytes of a record besides its fields and host: the fixed members
 * with a 20-digit seq and pid, the time, the event, hmac, prev and hash. */
#define AUDIT_FIXED_BYTES ((size_t)416)

/* syslog: facility user, and the severities used. */
#define SYSLOG_FACILITY_USER 1
#define SEV_WARNING 4
#define SEV_NOTICE 5
#define SEV_INFO 6

static const char zero_hash[AUDIT_HASH_HEX + 1] =
	"0000000000000000000000000000000000000000000000000000000000000000";

/* The members every record starts and ends with, which fields may not use. */
static const char *const reserved_names[] = {
	"v", "seq", "time", "host", "pid", "event", "hmac", "prev", "hash",
};

void (*audit_test_between_writes)(void);

/* ---- small helpers ------------------------------------------------------- */

/* A malloc'd valid UTF-8 copy of s (bad bytes become U+FFFD), or NULL. */
static char *utf8_copy(const char *s)
{
	cJSON *item = json_clean_string(s, strlen(s));
	char *out;

	if (!item)
		return NULL;
	out = item->valuestring;
	item->valuestring = NULL;
	cJSON_Delete(item);
	return out;
}

/* ---- hashing and formatting ---------------------------------------------- */

_Static_assert(AUDIT_HASH_HEX == SHA256_HEX, "a record's hash is SHA-256");

/* Whether hex is the SHA-256 of data[0..len). */
static bool hash_is(const void *data, size_t len, const char *hex)
{
	char sha[SHA256_HEX + 1];

	sha256_hex(data, len, sha);
	return strcmp(sha, hex) == 0;
}

/* ---- the HMAC key -------------------------------------------------------- */

/* A loaded key: ready for HMAC (the same for every record) and its id. */
struct audit_key {
	struct sha256_hmac mac;
	char id[AUDIT_KEYID_HEX + 1];
};

static void key_free(struct audit_key *k)
{
	if (!k)
		return;
	sha256_hmac_wipe(&k->mac);
	free(k);
}

/* Reads the key file (who names the caller in messages): a regular file
 * of this user or root, not a symlink, that others cannot write or read;
 * 16 to 4096 bytes after one trailing newline. *out is the key. */
static enum cordon_err key_load(const char *file, const char *who,
				struct audit_key **out,
				struct cordon_diag *diag)
{
	unsigned char raw[AUDIT_KEY_MAX + 2];
	char id_in[AUDIT_KEY_MAX + 32], id[AUDIT_HASH_HEX + 1];
	struct audit_key *k = NULL;
	struct stat st;
	size_t n = 0;
	int fd, e;
	enum cordon_err rc = CORDON_E_INVAL;

	*out = NULL;
	fd = open(file,
		  O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		return diag_errno(diag,
				  e == ELOOP ? CORDON_E_INVAL : CORDON_E_IO, e,
				  "%s: audit.key_file %s: %s", who, file,
				  e == ELOOP ? "is a symbolic link (name the "
					       "file itself)" :
					       strerror(e));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		diag_errno(diag, rc, 0,
			   "%s: audit.key_file %s is not a regular file", who,
			   file);
		goto out;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		diag_errno(diag, rc, 0,
			   "%s: audit.key_file %s belongs to another user "
			   "(uid %ld)",
			   who, file, (long)st.st_uid);
		goto out;
	}
	if (st.st_mode & 0026) {
		diag_errno(diag, rc, 0,
			   "%s: audit.key_file %s is %s by others (mode "
			   "%04o): chmod 600 it",
			   who, file,
			   st.st_mode & 0022 ? "writable" : "readable",
			   (unsigned)(st.st_mode & 07777));
		goto out;
	}
	while (n < sizeof(raw)) {
		ssize_t k2 = read(fd, raw + n, sizeof(raw) - n);
		if (k2 < 0 && errno == EINTR)
			continue;
		if (k2 < 0) {
			e = errno;
			rc = diag_errno(diag, CORDON_E_IO, e,
					"%s: audit.key_file %s: %s", who, file,
					strerror(e));
			goto out;
		}
		if (k2 == 0)
			break;
		n += (size_t)k2;
	}
	if (n && raw[n - 1] == '\n')
		n--;
	if (n < AUDIT_KEY_MIN || n > AUDIT_KEY_MAX) {
		diag_errno(diag, rc, 0,
			   "%s: audit.key_file %s holds %zu bytes; a key is "
			   "%d to %d bytes (openssl rand -hex 32 makes one)",
			   who, file, n, AUDIT_KEY_MIN, AUDIT_KEY_MAX);
		goto out;
	}
	rc = CORDON_E_NOMEM;
	k = cordon__calloc(1, sizeof(*k));
	if (!k) {
		diag_errno(diag, rc, 0, "%s: out of memory", who);
		goto out;
	}
	sha256_hmac_init(&k->mac, raw, n);
	memcpy(id_in, "cordon audit key id", 19);
	memcpy(id_in + 19, raw, n);
	sha256_hex(id_in, 19 + n, id);
	memcpy(k->id, id, AUDIT_KEYID_HEX);
	k->id[AUDIT_KEYID_HEX] = '\0';
	*out = k;
	k = NULL;
	rc = CORDON_OK;
out:
	explicit_bzero(raw, sizeof(raw));
	explicit_bzero(id_in, sizeof(id_in));
	key_free(k);
	close(fd);
	return rc;
}

/* HMAC-SHA-256 of data with k, as hex. */
static void key_mac(const struct audit_key *k, const void *data, size_t len,
		    char out[AUDIT_HASH_HEX + 1])
{
	unsigned char md[SHA256_BYTES];

	sha256_hmac(&k->mac, data, len, md);
	text_hex_encode(md, SHA256_BYTES, out);
}

void audit_format_time(int64_t sec, long nsec, char buf[32])
{
	struct tm tm;
	int n;

	if (nsec < 0 || nsec > 999999999L)
		nsec = 0;
	if (!utc_from_unix(sec, &tm)) {
		memcpy(buf, "1970-01-01T00:00:00.000000Z", 28);
		return;
	}
	n = snprintf(buf, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ",
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		     tm.tm_min, tm.tm_sec, nsec / 1000);
	if (n < 0 || n >= 32)
		memcpy(buf, "1970-01-01T00:00:00.000000Z", 28);
}

size_t audit_syslog_format(char *buf, size_t cap, int pri, const char *time,
			   const char *host, long pid, const char *event,
			   const char *json, size_t json_len)
{
	int n = snprintf(buf, cap, "<%d>1 %s %s cordon %ld %s - ", pri,
			 time && *time ? time : "-", host && *host ? host : "-",
			 pid, event && *event ? event : "-");

	if (n < 0 || (size_t)n >= cap || json_len >= cap - (size_t)n)
		return 0;
	memcpy(buf + n, json, json_len);
	buf[(size_t)n + json_len] = '\0';
	return (size_t)n + json_len;
}

/* ---- parsing one line ---------------------------------------------------- */

__attribute__((format(printf, 3, 4))) static enum cordon_err
why_set(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vsetf(why, cap, fmt, ap);
	va_end(ap);
	return CORDON_E_PARSE;
}

/* An integer member in [min, max]; false when absent or not one. */
static bool get_uint(const cJSON *o, const char *name, double min, double max,
		     uint64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	double d;

	if (!cJSON_IsNumber(v))
		return false;
	d = v->valuedouble;
	if (!(d >= min && d <= max) || d != (double)(uint64_t)d)
		return false;
	*out = (uint64_t)d;
	return true;
}

enum cordon_err audit_parse_line(const char *line, size_t len,
				 struct audit_line *out, char *why,
				 size_t why_cap)
{
	/* ,"hash":"<64>"} and "prev":"<64>" and ,"hmac":"<16>" */
	const size_t tail = 9 + AUDIT_HASH_HEX + 2;
	const size_t prevlen = 8 + AUDIT_HASH_HEX + 1;
	const size_t maclen = 9 + AUDIT_KEYID_HEX + 1;
	static const char *const head[] = { "v",    "seq", "time",
					    "host", "pid", "event" };
	const char *end = NULL;
	const cJSON *c, *last;
	cJSON *o;
	size_t hashed, n, before;
	uint64_t u;
	enum cordon_err rc = CORDON_E_PARSE;

	memset(out, 0, sizeof(*out));
	if (why && why_cap)
		why[0] = '\0';
	if (len > AUDIT_MAX_LINE)
		return why_set(why, why_cap,
			       "the line is over the 1 MiB limit");
	if (len == 0)
		return why_set(why, why_cap, "an empty line");
	if (line[0] != '{' || line[len - 1] != '}')
		return why_set(why, why_cap, "not a JSON object");
	if (len < 1 + prevlen + tail ||
	    memcmp(line + len - tail, ",\"hash\":\"", 9) != 0 ||
	    line[len - 2] != '"')
		return why_set(why, why_cap, "the hash member is not last");
	if (!text_is_lower_hex(line + len - tail + 9, AUDIT_HASH_HEX,
			       AUDIT_HASH_HEX))
		return why_set(why, why_cap,
			       "the hash is not 64 lower-case hex digits");
	hashed = len - tail;
	if (memcmp(line + hashed - prevlen, "\"prev\":\"", 8) != 0 ||
	    line[hashed - 1] != '"' || line[hashed - prevlen - 1] != ',')
		return why_set(why, why_cap,
			       "the prev member is not just before the hash");
	if (!text_is_lower_hex(line + hashed - 1 - AUDIT_HASH_HEX,
			       AUDIT_HASH_HEX, AUDIT_HASH_HEX))
		return why_set(why, why_cap,
			       "the prev is not 64 lower-case hex digits");
	/* An "hmac" member just before prev: the record is keyed. */
	before = hashed - prevlen - 1;
	if (before >= 1 + maclen &&
	    memcmp(line + before - maclen, ",\"hmac\":\"", 9) == 0 &&
	    line[before - 1] == '"') {
		if (!text_is_lower_hex(line + before - 1 - AUDIT_KEYID_HEX,
				       AUDIT_KEYID_HEX, AUDIT_KEYID_HEX))
			return why_set(why, why_cap,
				       "the hmac is not 16 lower-case hex "
				       "digits");
		out->keyed = true;
		memcpy(out->keyid, line + before - 1 - AUDIT_KEYID_HEX,
		       AUDIT_KEYID_HEX);
	}
	out->hashed = hashed;

	o = cJSON_ParseWithLengthOpts(line, len, &end, false);
	if (!o || end != line + len) {
		size_t at = end ? (size_t)(end - line) :
				  (size_t)(cJSON_GetErrorPtr() ?
						   cJSON_GetErrorPtr() - line :
						   0);
		if (at > len)
			at = 0;
		cJSON_Delete(o);
		return why_set(why, why_cap, "malformed JSON near byte %zu",
			       at + 1);
	}
	if (!cJSON_IsObject(o)) {
		why_set(why, why_cap, "not a JSON object");
		goto out;
	}
	/* The first six members, in order; the reserved names once each. */
	c = o->child;
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++) {
		if (!c || !c->string || strcmp(c->string, head[i]) != 0) {
			why_set(why, why_cap, "member %zu is not \"%s\"", i + 1,
				head[i]);
			goto out;
		}
		c = c->next;
	}
	for (n = 0, c = o->child; c; c = c->next, n++) {
		if (!c->string) {
			why_set(why, why_cap, "a member without a name");
			goto out;
		}
		for (size_t i = 0;
		     i < sizeof(reserved_names) / sizeof(reserved_names[0]);
		     i++) {
			const cJSON *d;

			if (strcmp(c->string, reserved_names[i]) != 0)
				continue;
			for (d = c->next; d; d = d->next)
				if (d->string &&
				    strcmp(d->string, c->string) == 0)
					break;
			if (d) {
				why_set(why, why_cap,
					"member \"%s\" appears twice",
					c->string);
				goto out;
			}
		}
	}
	for (last = o->child; last->next; last = last->next)
		;
	if (n < 8 || strcmp(last->string, "hash") != 0 || !last->prev ||
	    !last->prev->string || strcmp(last->prev->string, "prev") != 0) {
		why_set(why, why_cap, "prev and hash are not the last members");
		goto out;
	}
	c = cJSON_GetObjectItemCaseSensitive(o, "hmac");
	if (c && (!out->keyed || last->prev->prev != c || !cJSON_IsString(c))) {
		why_set(why, why_cap,
			"the hmac member is not just before prev");
		goto out;
	}
	if (!c && out->keyed) {
		why_set(why, why_cap, "malformed hmac member");
		goto out;
	}
	if (!get_uint(o, "v", 1, 1, &u)) {
		why_set(why, why_cap, "v is not 1");
		goto out;
	}
	if (!get_uint(o, "seq", 1, 9007199254740992.0, &out->seq)) {
		why_set(why, why_cap, "seq is not a positive integer");
		goto out;
	}
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "time")) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "host"))) {
		why_set(why, why_cap, "time or host is not a string");
		goto out;
	}
	if (!get_uint(o, "pid", 0, 9007199254740992.0, &u)) {
		why_set(why, why_cap, "pid is not an integer");
		goto out;
	}
	c = cJSON_GetObjectItemCaseSensitive(o, "event");
	if (!cJSON_IsString(c) || !c->valuestring[0] ||
	    strlen(c->valuestring) > AUDIT_EVENT_MAX) {
		why_set(why, why_cap, "event is not a name of 1 to %d bytes",
			AUDIT_EVENT_MAX);
		goto out;
	}
	memcpy(out->event, c->valuestring, strlen(c->valuestring) + 1);
	if (strcmp(out->event, "recovered") == 0) {
		c = cJSON_GetObjectItemCaseSensitive(o, "torn_sha256");
		if (!get_uint(o, "torn_bytes", 1, 9007199254740992.0,
			      &out->torn_bytes) ||
		    !cJSON_IsString(c) ||
		    !text_is_lower_hex(c->valuestring, strlen(c->valuestring),
				       AUDIT_HASH_HEX)) {
			why_set(why, why_cap,
				"a recovered record without torn_bytes and "
				"torn_sha256");
			goto out;
		}
		memcpy(out->torn_sha256, c->valuestring, AUDIT_HASH_HEX + 1);
	}
	memcpy(out->prev, line + hashed - 1 - AUDIT_HASH_HEX, AUDIT_HASH_HEX);
	out->prev[AUDIT_HASH_HEX] = '\0';
	memcpy(out->hash, line + len - tail + 9, AUDIT_HASH_HEX);
	out->hash[AUDIT_HASH_HEX] = '\0';
	if (strcmp(out->event, "rotated") == 0) {
		c = cJSON_GetObjectItemCaseSensitive(o, "previous_head");
		if (!cJSON_IsString(c) ||
		    strcmp(c->valuestring, out->prev) != 0) {
			why_set(why, why_cap,
				"a rotated record whose previous_head is not "
				"its prev");
			goto out;
		}
		out->rotated = true;
	}
	if (out->keyed) {
		rc = CORDON_OK;
		goto out;
	}
	sha256_hex(line, hashed, out->computed);
	rc = CORDON_OK;
out:
	cJSON_Delete(o);
	return rc;
}

/* ---- the handle ---------------------------------------------------------- */

struct cordon_audit {
	pthread_mutex_t mu;
	/* the file sink */
	char *path; /* NULL: none */
	int fd;
	pid_t fd_pid; /* a child after fork() opens its own: flock belongs
		       * to the open file, which fork shares */
	bool synced; /* dev/ino/size are the file as this handle left it */
	dev_t dev;
	ino_t ino;
	off_t size;
	/* the chain: the last record's seq (0: none yet) and hash */
	uint64_t seq;
	char last[AUDIT_HASH_HEX + 1];
	enum cordon_audit_fsync fsync_policy;
	unsigned fsync_batch;
	unsigned unsynced;
	bool defer; /* audit_defer_sync(): records are written unsynced */
	enum cordon_err sync_err;
	uint64_t rotate_bytes;
	unsigned rotate_keep;
	/* the other sinks */
	int log_fd;
	char *syslog_path;
	int to_stderr;
	int log_all;
	char *host_json; /* the host name as a JSON string */
	size_t host_len;
	char host_syslog[256]; /* printable ASCII, or "-" */
	int failed;
	struct audit_key *key; /* NULL: plain SHA-256 */
	int relay_fd; /* >= 0: records go to the run outside (relay.h) */
	char *relay_path; /* or through a connection to this socket */
	char warning[512]; /* from opening, for cordon_audit_warning() */
	/* scratch */
	struct buf line; /* the record being written */
	struct buf rline; /* a recovered record */
	struct buf mline; /* the "rotated" record of a new file */
	struct buf tail; /* the end of the file */
	struct buf sbuf; /* a syslog datagram */
	char time[32];
	pid_t pid; /* getpid() for the record being written */
	/* the time's text up to its seconds, for tsec */
	time_t tsec;
	char tday[24];
};

/* path.N into buf; false when it does not fit. */
static bool rotated_name(const char *path, unsigned n, char *buf, size_t cap)
{
	int k = snprintf(buf, cap, "%s.%u", path, n);

	return k > 0 && (size_t)k < cap;
}

/* Creates the directories leading to path (each new one 0700). */
static enum cordon_err make_parents(const char *path, struct cordon_diag *diag)
{
	char dir[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(dir))
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"audit log: the path is longer than PATH_MAX");
	memcpy(dir, path, n + 1);
	for (size_t i = 1; i < n; i++) {
		if (dir[i] != '/')
			continue;
		dir[i] = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			int e = errno;
			return diag_errno(
				diag, CORDON_E_IO, e,
				"audit log: cannot create directory %s: %s",
				dir, strerror(e));
		}
		dir[i] = '/';
	}
	return CORDON_OK;
}

/* fsyncs the directory that holds path, so a new or renamed file stays. */
static int sync_parent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;
	int fd, rc;

	if (!slash) {
		memcpy(dir, ".", 2);
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= sizeof(dir))
			return -1;
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Refuses a log file this handle must not trust: anything but a regular
 * file, a file of another user, a file others can write. */
static enum cordon_err check_file(const char *name, const struct stat *st,
				  struct cordon_diag *diag)
{
	if (!S_ISREG(st->st_mode))
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: %s is not a regular file (a "
				  "FIFO, device or directory is refused)",
				  name);
	if (st->st_uid != geteuid())
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: %s belongs to another user "
				  "(uid %ld, this process is uid %ld): "
				  "refused",
				  name, (long)st->st_uid, (long)geteuid());
	if (st->st_mode & 0022)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: %s is writable by others (mode "
				  "%04o): refused; chmod 600 it",
				  name, (unsigned)(st->st_mode & 07777));
	return CORDON_OK;
}

/* Opens name (creating it, 0600) for appending and reading, never through
 * a symlink and never blocking (a FIFO). *created says whether it was
 * made. The file is checked (check_file). */
static enum cordon_err open_log_fd(const char *name, int *out, bool *created,
				   struct cordon_diag *diag)
{
	const int flags = O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY |
			  O_NOFOLLOW | O_NONBLOCK;
	struct stat st;
	enum cordon_err rc;
	int fd, e;

	*created = true;
	fd = open(name, flags | O_CREAT | O_EXCL, 0600);
	if (fd < 0 && errno == EEXIST) {
		*created = false;
		fd = open(name, flags | O_CREAT, 0600);
	}
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			return diag_errno(diag, CORDON_E_INVAL, e,
					  "audit log: %s is a symbolic link: "
					  "refused (name the file itself; "
					  "rotation would rename the link)",
					  name);
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: cannot open %s: %s", name,
				  strerror(e));
	}
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: cannot stat %s: %s", name,
				  strerror(e));
	}
	if ((rc = check_file(name, &st, diag)) != CORDON_OK) {
		close(fd);
		return rc;
	}
	/* A regular file: blocking I/O from here on. */
	(void)fcntl(fd, F_SETFL, O_APPEND);
	*out = fd;
	return CORDON_OK;
}

/* Opens (creating, 0600) the log file for appending and reading its
 * tail. */
static enum cordon_err open_file(struct cordon_audit *a,
				 struct cordon_diag *diag)
{
	bool created;
	enum cordon_err rc;
	int fd;

	if ((rc = open_log_fd(a->path, &fd, &created, diag)) != CORDON_OK)
		return rc;
	if (created && a->fsync_policy != CORDON_AUDIT_FSYNC_NEVER)
		(void)sync_parent(a->path);
	a->fd = fd;
	a->fd_pid = a->pid;
	return CORDON_OK;
}

static void close_file(struct cordon_audit *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

/* Locks the log for one record: flock on the open file, then a check that
 * the path still names that file (another writer may have rotated it away
 * while this one waited); if not, the path is opened again and locked.
 * st receives the locked file's status. */
static enum cordon_err lock_file(struct cordon_audit *a, struct stat *st,
				 struct cordon_diag *diag)
{
	for (int tries = 0; tries < AUDIT_LOCK_TRIES; tries++) {
		struct stat ps;
		enum cordon_err rc;
		int e;

		if (a->fd >= 0 && a->fd_pid != a->pid)
			close_file(a);
		if (a->fd < 0 && (rc = open_file(a, diag)) != CORDON_OK)
			return rc;
		while (flock(a->fd, LOCK_EX) != 0) {
			if (errno != EINTR) {
				e = errno;
				return diag_errno(
					diag, CORDON_E_IO, e,
					"audit log: cannot lock %s: %s",
					a->path, strerror(e));
			}
		}
		if (fstat(a->fd, st) != 0) {
			e = errno;
			flock(a->fd, LOCK_UN);
			return diag_errno(diag, CORDON_E_IO, e,
					  "audit log: cannot stat %s: %s",
					  a->path, strerror(e));
		}
		if (lstat(a->path, &ps) == 0) {
			if (ps.st_dev == st->st_dev && ps.st_ino == st->st_ino)
				return CORDON_OK;
		} else if (errno != ENOENT) {
			e = errno;
			flock(a->fd, LOCK_UN);
			return diag_errno(diag, CORDON_E_IO, e,
					  "audit log: cannot stat %s: %s",
					  a->path, strerror(e));
		}
		/* Rotated or removed: closing drops the old file's lock. */
		close_file(a);
	}
	return diag_errno(
		diag, CORDON_E_IO, 0,
		"audit log: %s kept being replaced while waiting for its "
		"lock (%d tries)",
		a->path, AUDIT_LOCK_TRIES);
}

/* ---- reading the end of a file ------------------------------------------- */

struct tail_info {
	bool found; /* a record was found */
	uint64_t seq; /* its seq and hash */
	char hash[AUDIT_HASH_HEX + 1];
	size_t torn; /* bytes after the last record's line (a cut line and
		      * whole lines that are not records) */
	char torn_sha[AUDIT_HASH_HEX + 1];
	bool torn_nl; /* those bytes end with '\n' */
	size_t junk; /* whole lines after the record that are not records */
	char why[160]; /* why the last of them is not one */
};

enum tail_result { TAIL_FOUND, TAIL_NONE, TAIL_MORE };

/* Looks at buf[0..n), the last n bytes of a file (from_start: all of it),
 * for the last line that is a record and what follows it. TAIL_MORE: the
 * answer needs bytes from before buf. */
static enum tail_result tail_scan(const char *buf, size_t n, bool from_start,
				  struct tail_info *ti)
{
	const char *nl = n ? memrchr(buf, '\n', n) : NULL;
	size_t end;

	ti->torn_nl = n && buf[n - 1] == '\n';
	if (!nl) {
		if (!from_start)
			return TAIL_MORE;
		ti->torn = n;
		return TAIL_NONE;
	}
	end = (size_t)(nl - buf);
	for (;;) {
		const char *p = end ? memrchr(buf, '\n', end) : NULL;
		struct audit_line al;
		size_t start;
		char why[160];

		if (!p && !from_start)
			return TAIL_MORE;
		start = p ? (size_t)(p - buf) + 1 : 0;
		if (audit_parse_line(buf + start, end - start, &al, why,
				     sizeof(why)) == CORDON_OK) {
			ti->found = true;
			ti->seq = al.seq;
			memcpy(ti->hash, al.hash, sizeof(ti->hash));
			ti->torn = n - end - 1;
			return TAIL_FOUND;
		}
		if (ti->junk++ == 0)
			memcpy(ti->why, why, sizeof(ti->why));
		if (!p) {
			ti->torn = n;
			return TAIL_NONE;
		}
		end = start - 1;
	}
}

/* Reads the end of the file fd (size bytes; name for messages) into
 * a->tail and scans it. */
static enum cordon_err read_tail(struct cordon_audit *a, int fd, off_t size,
				 const char *name, struct tail_info *ti,
				 struct cordon_diag *diag)
{
	size_t want = AUDIT_TAIL_FIRST;

	for (;;) {
		bool from_start = (uint64_t)size <= want;
		size_t n = from_start ? (size_t)size : want;
		off_t at = size - (off_t)n;
		size_t got = 0;
		enum tail_result r;

		buf_reset(&a->tail);
		if (!buf_space(&a->tail, n))
			return diag_errno(diag, CORDON_E_NOMEM, 0,
					  "audit log: out of memory");
		while (got < n) {
			ssize_t k = pread(fd, a->tail.p + got, n - got,
					  at + (off_t)got);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				int e = k < 0 ? errno : 0;
				return diag_errno(
					diag, CORDON_E_IO, e,
					"audit log: cannot read %s: %s", name,
					e ? strerror(e) : "file shrank");
			}
			got += (size_t)k;
		}
		memset(ti, 0, sizeof(*ti));
		r = tail_scan(a->tail.p, n, from_start, ti);
		if (r == TAIL_MORE) {
			if (want >= AUDIT_TAIL_MAX)
				return diag_errno(
					diag, CORDON_E_PARSE, 0,
					"audit log: no audit record in "
					"the last %zu bytes of %s; move "
					"it aside (cordon audit verify "
					"tells what is wrong)",
					want, name);
			want = want > AUDIT_TAIL_MAX / 4 ? AUDIT_TAIL_MAX :
							   want * 4;
			continue;
		}
		if (r == TAIL_NONE && ti->junk > 0)
			return diag_errno(
				diag, CORDON_E_PARSE, 0,
				"audit log: %s holds lines that are not "
				"audit records (%s); move it aside",
				name, ti->why);
		if (ti->torn)
			sha256_hex(a->tail.p + n - ti->torn, ti->torn,
				   ti->torn_sha);
		return CORDON_OK;
	}
}

/* The last record of path.1, for a new file after rotation. */
static enum cordon_err read_rotated(struct cordon_audit *a,
				    struct tail_info *ti,
				    struct cordon_diag *diag)
{
	char name[PATH_MAX];
	struct stat st;
	enum cordon_err rc;
	int fd, e;

	memset(ti, 0, sizeof(*ti));
	if (!rotated_name(a->path, 1, name, sizeof(name)))
		return CORDON_OK;
	fd = open(name,
		  O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return CORDON_OK;
		e = errno;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: cannot open %s: %s", name,
				  strerror(e));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return CORDON_OK;
	}
	rc = read_tail(a, fd, st.st_size, name, ti, diag);
	close(fd);
	return rc;
}

/* ---- writing ------------------------------------------------------------- */

/* Appends the decimal digits of v at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* The time now into a->time; the date and seconds are formatted once a
 * second (this is on every record's path). */
static void time_now(struct cordon_audit *a)
{
	struct timespec ts;
	char *p;
	long us;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != a->tsec || !a->tday[0]) {
		char full[32];
		audit_format_time((int64_t)ts.tv_sec, 0, full);
		memcpy(a->tday, full, 19);
		a->tday[19] = '\0';
		a->tsec = ts.tv_sec;
	}
	p = put(a->time, a->tday, 19);
	*p++ = '.';
	us = ts.tv_nsec / 1000;
	for (int i = 5; i >= 0; i--) {
		p[i] = (char)('0' + us % 10);
		us /= 10;
	}
	p[6] = 'Z';
	p[7] = '\0';
}

/* Appends the record line for seq a->seq + 1 after a->last to b: the fixed members with the time now, the fields
 * (the members' JSON text without braces), prev and hash, and '\n'. Built
 * by hand: snprintf was a tenth of the cost of a record. */
static enum cordon_err make_line(struct cordon_audit *a, struct buf *b,
				 const char *event, const char *fields,
				 size_t flen, char hash[AUDIT_HASH_HEX + 1],
				 struct cordon_diag *diag)
{
	size_t elen = strlen(event), len;
	char *start, *p;

	if (elen > AUDIT_EVENT_MAX || flen > AUDIT_MAX_LINE)
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"audit log: the event name or the fields are too "
			"long");
	start = buf_space(b, AUDIT_FIXED_BYTES + a->host_len + flen + 1);
	if (!start)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	time_now(a);
	p = put(start, "{\"v\":1,\"seq\":", 13);
	p = put_u64(p, a->seq + 1);
	p = put(p, ",\"time\":\"", 9);
	p = put(p, a->time, 27);
	p = put(p, "\",\"host\":", 9);
	p = put(p, a->host_json, a->host_len);
	p = put(p, ",\"pid\":", 7);
	p = put_u64(p, (uint64_t)a->pid);
	p = put(p, ",\"event\":\"", 10);
	p = put(p, event, elen);
	*p++ = '"';
	if (flen) {
		*p++ = ',';
		p = put(p, fields, flen);
	}
	if (a->key) {
		p = put(p, ",\"hmac\":\"", 9);
		p = put(p, a->key->id, AUDIT_KEYID_HEX);
		*p++ = '"';
	}
	p = put(p, ",\"prev\":\"", 9);
	p = put(p, a->last, AUDIT_HASH_HEX);
	*p++ = '"';
	if (a->key)
		key_mac(a->key, start, (size_t)(p - start), hash);
	else
		sha256_hex(start, (size_t)(p - start), hash);
	p = put(p, ",\"hash\":\"", 9);
	p = put(p, hash, AUDIT_HASH_HEX);
	p = put(p, "\"}\n", 3);
	len = (size_t)(p - start);
	(void)buf_commit(b, len); /* within the room asked for above */
	if (len - 1 > AUDIT_MAX_LINE)
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"audit log: the record is %zu bytes, over the "
			"1 MiB line limit (AUDIT_MAX_LINE)",
			len - 1);
	return CORDON_OK;
}

/* One write() of buf[0..len) to the file (which is a->size bytes long,
 * under the lock). A write that fails part-way (a full disk, a file size
 * limit) is cut back to a->size, so no half record stays; only when that
 * fails too is the cut line left for the next append to record. */
static enum cordon_err write_record(struct cordon_audit *a, const char *buf,
				    size_t len, bool hook,
				    struct cordon_diag *diag)
{
	size_t done = 0;
	ssize_t k;
	int e;

	if (hook && audit_test_between_writes && len > 1) {
		do
			k = write(a->fd, buf, len / 2);
		while (k < 0 && errno == EINTR);
		if (k > 0)
			done = (size_t)k;
		audit_test_between_writes();
	}
	do
		k = write(a->fd, buf + done, len - done);
	while (k < 0 && errno == EINTR);
	if (k < 0 || (size_t)k != len - done) {
		bool cut;

		e = k < 0 ? errno : ENOSPC;
		cut = ftruncate(a->fd, a->size) == 0;
		if (!cut)
			a->synced = false;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: %s to %s: %s (%s)",
				  k < 0 ? "cannot write" : "short write",
				  a->path, strerror(e),
				  cut ? "the part written was cut back" :
					"the next append records the cut line");
	}
	a->size += (off_t)len;
	return CORDON_OK;
}

/* Makes the handle's chain state that of the locked file st: re-reads the
 * tail unless the file is exactly as this handle left it; ends a cut last
 * line with '\n' and a "recovered" record. *recovered is set when one was
 * written (it is in a->rline). */
static enum cordon_err sync_chain(struct cordon_audit *a, const struct stat *st,
				  bool *recovered, struct cordon_diag *diag)
{
	struct tail_info ti, rt;
	enum cordon_err rc;
	char fields[160];
	char hash[AUDIT_HASH_HEX + 1];
	int n;

	if (a->synced && st->st_dev == a->dev && st->st_ino == a->ino &&
	    st->st_size == a->size)
		return CORDON_OK;
	memset(&ti, 0, sizeof(ti));
	if (st->st_size > 0 && (rc = read_tail(a, a->fd, st->st_size, a->path,
					       &ti, diag)) != CORDON_OK)
		return rc;
	if (ti.found) {
		a->seq = ti.seq;
		memcpy(a->last, ti.hash, sizeof(a->last));
	} else {
		/* A new file: the chain goes on from path.1, or from what this
		 * handle wrote last when that is newer (the file was removed),
		 * or starts. A path.1 that cannot be read does not stop the
		 * log: verify shows the break between the files. */
		if (read_rotated(a, &rt, NULL) != CORDON_OK)
			rt.found = false;
		if (rt.found && rt.seq >= a->seq) {
			a->seq = rt.seq;
			memcpy(a->last, rt.hash, sizeof(a->last));
		}
	}
	a->dev = st->st_dev;
	a->ino = st->st_ino;
	a->size = st->st_size;
	if (ti.torn) {
		n = snprintf(fields, sizeof(fields),
			     "\"torn_bytes\":%zu,\"torn_sha256\":\"%s\"",
			     ti.torn, ti.torn_sha);
		if (n < 0 || (size_t)n >= sizeof(fields))
			return diag_errno(diag, CORDON_E_NOMEM, 0,
					  "audit log: out of memory");
		buf_reset(&a->rline);
		if (!ti.torn_nl && !buf_addc(&a->rline, '\n'))
			return diag_errno(diag, CORDON_E_NOMEM, 0,
					  "audit log: out of memory");
		rc = make_line(a, &a->rline, "recovered", fields, (size_t)n,
			       hash, diag);
		if (rc == CORDON_OK)
			rc = write_record(a, a->rline.p, a->rline.len, false,
					  diag);
		if (rc != CORDON_OK)
			return rc;
		a->seq++;
		memcpy(a->last, hash, sizeof(a->last));
		*recovered = true;
	}
	a->synced = true;
	return CORDON_OK;
}

/* ---- a failed sync is remembered (audit.h: the sync mark) ---------------
 *
 * Linux reports a write-back error once to the descriptors open when it
 * happened; a descriptor opened after someone saw it gets 0 from fdatasync
 * although the data never reached the disk. Every fdatasync of a log here
 * is taken holding an flock on PATH.syncfail (made empty, 0600, the first
 * time), and one that fails adds "DEV:INO\n" to it before the lock goes; a
 * sync on a descriptor that may have been opened after the error (a run
 * syncing a hook's record, a rotation) reads it under the same lock and
 * refuses a file it names. The lock is on a file opened for writing, not
 * on the directory, since NFS emulates flock with fcntl locks and a lock
 * for writing needs a descriptor open for writing. Nothing here allocates
 * or formats: a run takes it on a thread across the child's clone. */

#define AUDIT_ID_TEXT 48 /* "DEV:INO" and its NUL */

struct audit_mark_names {
	char mark[PATH_MAX]; /* PATH.syncfail */
};

enum audit_sync_stage {
	AUDIT_SYNC_OK,
	AUDIT_SYNC_PENDING, /* not taken (yet) */
	AUDIT_SYNC_GONE, /* the file is at neither path nor path.1 */
	AUDIT_SYNC_LOCK, /* the mark cannot be locked (mark_err) */
	AUDIT_SYNC_FAILED, /* fdatasync failed (err; mark_err: not marked) */
	AUDIT_SYNC_MARKED, /* it passed, but the mark names the file */
	AUDIT_SYNC_MARK_BAD, /* the mark cannot be opened, read or trusted */
	AUDIT_SYNC_TEST, /* CORDON_TEST_SYNC_FAIL (test builds) */
};

struct audit_sync_result {
	enum audit_sync_stage stage;
	int err, mark_err;
};

/* A sync of a file by id (audit.h: audit_sync_job_new). */
struct audit_sync_job {
	struct audit_file_id id;
	char name[PATH_MAX], one[PATH_MAX];
	struct audit_mark_names m;
	unsigned test_delay_ms;
	bool test_fail;
	bool at_one; /* the file was found at path.1 */
	struct audit_sync_result r;
};

/* The mark's name, made beforehand; false when it does not fit. */
static bool mark_names(const char *path, struct audit_mark_names *m)
{
	size_t n = strlen(path);

	if (n + sizeof(AUDIT_MARK_SUFFIX) > sizeof(m->mark))
		return false;
	memcpy(m->mark, path, n);
	memcpy(m->mark + n, AUDIT_MARK_SUFFIX, sizeof(AUDIT_MARK_SUFFIX));
	return true;
}

/* The one spelling of a file id, "DEV:INO", into buf (AUDIT_ID_TEXT
 * bytes), without printf (a run's sync thread makes it); its length. */
static size_t id_text(unsigned long long dev, unsigned long long ino,
		      char buf[AUDIT_ID_TEXT])
{
	char *p = put_u64(buf, dev);

	*p++ = ':';
	p = put_u64(p, ino);
	*p = '\0';
	return (size_t)(p - buf);
}

/* id_text() of the file fd is open on. */
static bool fd_id_text(int fd, char buf[AUDIT_ID_TEXT])
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return false;
	(void)id_text((unsigned long long)st.st_dev,
		      (unsigned long long)st.st_ino, buf);
	return true;
}

/* Whether the mark open on fd is to be trusted: this user's regular file
 * that others cannot write (one they could write could have been
 * emptied). Every reader of the mark asks this one. */
static bool mark_trusted(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid() && !(st.st_mode & 0022);
}

/* The mark, created empty (0600; its directory synced) when missing,
 * open for appending and reading as this user's own regular file that
 * others cannot write; -1 with errno otherwise. */
static int mark_open(const char *mark)
{
	const int flags = O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY |
			  O_NOFOLLOW | O_NONBLOCK;
	int fd = open(mark, flags);

	if (fd < 0 && errno == ENOENT) {
		fd = open(mark, flags | O_CREAT | O_EXCL, 0600);
		if (fd >= 0)
			(void)sync_parent(mark);
		else if (errno == EEXIST)
			fd = open(mark, flags);
	}
	if (fd < 0)
		return -1;
	if (!mark_trusted(fd)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Whether the mark fd holds the line idtext: 1 yes, 0 no, -1 a read
 * error (*e). */
static int mark_has(int fd, const char *idtext, int *e)
{
	char buf[4096], line[AUDIT_ID_TEXT + 1];
	size_t k = 0, want = strlen(idtext);
	bool over = false;
	off_t off = 0;
	ssize_t n;
	int hit = 0;

	while (!hit && (n = pread(fd, buf, sizeof(buf), off)) > 0) {
		off += n;
		for (ssize_t i = 0; i < n && !hit; i++) {
			if (buf[i] != '\n') {
				if (k < sizeof(line))
					line[k++] = buf[i];
				else
					over = true;
				continue;
			}
			hit = !over && k == want &&
			      memcmp(line, idtext, k) == 0;
			k = 0;
			over = false;
		}
	}
	if (n < 0) {
		*e = errno;
		return -1;
	}
	return hit;
}

/* Adds the line idtext to the mark fd; 0, or errno. */
static int mark_add(int fd, const char *idtext)
{
	char line[AUDIT_ID_TEXT + 1];
	size_t n = strlen(idtext);

	memcpy(line, idtext, n);
	line[n++] = '\n';
	if (atomic_write_all(fd, line, n) != 0)
		return errno ? errno : EIO;
	/* Best effort: the disk may be the one failing; the mark is seen
	 * by every process from the page cache either way. */
	(void)fsync(fd);
	return 0;
}

/* fdatasync of fd (a file of the log at m's path) under the mark's lock;
 * a failure is added to the mark; with check, a file the mark names fails
 * too (its earlier failure was seen by someone else). The outcome in *r.
 * Only system calls. */
static void sticky_sync(int fd, const struct audit_mark_names *m, bool check,
			struct audit_sync_result *r)
{
	char idtext[AUDIT_ID_TEXT];
	int lfd, hit;

	r->stage = AUDIT_SYNC_OK;
	r->err = r->mark_err = 0;
	if (!fd_id_text(fd, idtext)) {
		r->stage = AUDIT_SYNC_FAILED;
		r->err = errno;
		return;
	}
	lfd = mark_open(m->mark);
	if (lfd < 0) {
		r->stage = AUDIT_SYNC_MARK_BAD;
		r->mark_err = errno;
		return;
	}
	while (flock(lfd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			r->stage = AUDIT_SYNC_LOCK;
			r->mark_err = errno;
			close(lfd);
			return;
		}
	}
	if (fdatasync(fd) != 0) {
		r->stage = AUDIT_SYNC_FAILED;
		r->err = errno;
		hit = mark_has(lfd, idtext, &r->mark_err);
		if (hit == 0) /* once is enough */
			r->mark_err = mark_add(lfd, idtext);
	} else if (check) {
		hit = mark_has(lfd, idtext, &r->mark_err);
		if (hit)
			r->stage = hit > 0 ? AUDIT_SYNC_MARKED :
					     AUDIT_SYNC_MARK_BAD;
	}
	close(lfd); /* and its lock */
}

/* The message for a sync of name that did not succeed. */
static enum cordon_err sync_message(const struct audit_sync_result *r,
				    const char *name,
				    const struct audit_mark_names *m,
				    const char *then, struct cordon_diag *diag)
{
	switch (r->stage) {
	case AUDIT_SYNC_OK:
		return CORDON_OK;
	case AUDIT_SYNC_LOCK:
		return diag_errno(diag, CORDON_E_IO, r->mark_err,
				  "audit log: cannot lock %s to fsync %s: "
				  "%s%s",
				  m->mark, name, strerror(r->mark_err), then);
	case AUDIT_SYNC_FAILED:
		if (r->mark_err)
			return diag_errno(
				diag, CORDON_E_IO, r->err,
				"audit log: cannot fsync %s: %s%s (and the "
				"failure could not be recorded in %s: %s)",
				name, strerror(r->err), then, m->mark,
				strerror(r->mark_err));
		return diag_errno(diag, CORDON_E_IO, r->err,
				  "audit log: cannot fsync %s: %s%s", name,
				  strerror(r->err), then);
	case AUDIT_SYNC_MARKED:
		return diag_errno(
			diag, CORDON_E_IO, 0,
			"audit log: %s had an fsync fail before (marked "
			"in %s): records in it may not be on disk%s (remove "
			"the mark once the log is checked)",
			name, m->mark, then);
	case AUDIT_SYNC_MARK_BAD:
	default:
		return diag_errno(diag, CORDON_E_IO, r->mark_err,
				  "audit log: cannot open %s (the record of "
				  "failed fsyncs, locked around each; it must "
				  "be a regular file of this user that others "
				  "cannot write) to fsync %s: %s%s",
				  m->mark, name, strerror(r->mark_err), then);
	}
}

/* sticky_sync() of a handle's file, its message naming name. */
static enum cordon_err handle_sync(struct cordon_audit *a, int fd,
				   const char *name, bool check,
				   const char *then, struct cordon_diag *diag)
{
	struct audit_mark_names m;
	struct audit_sync_result r;

	if (!mark_names(a->path, &m))
		return diag_errno(diag, CORDON_E_LIMIT, 0,
				  "audit log: %s" AUDIT_MARK_SUFFIX
				  " is longer than PATH_MAX",
				  a->path);
	sticky_sync(fd, &m, check, &r);
	if (r.stage != AUDIT_SYNC_OK && a->sync_err == CORDON_OK)
		a->sync_err = CORDON_E_IO;
	return sync_message(&r, name, &m, then, diag);
}

/* Makes path.new (0600, locked) holding the "rotated" record that starts
 * the next file: seq a->seq + 1 after a->last, in a->mline, its hash in
 * hash. *fd gets the descriptor. A path.new left by a rotation that was
 * killed is replaced (only the holder of the lock rotates). */
static enum cordon_err make_next(struct cordon_audit *a, const char *name,
				 int *fd, char hash[AUDIT_HASH_HEX + 1],
				 struct cordon_diag *diag)
{
	char fields[AUDIT_HASH_HEX + 32];
	bool created;
	enum cordon_err rc;
	int n;

	*fd = -1;
	if (unlink(name) != 0 && errno != ENOENT) {
		int e = errno;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: cannot remove %s: %s", name,
				  strerror(e));
	}
	if ((rc = open_log_fd(name, fd, &created, diag)) != CORDON_OK)
		return rc;
	while (flock(*fd, LOCK_EX) != 0 && errno == EINTR)
		;
	n = snprintf(fields, sizeof(fields), "\"previous_head\":\"%s\"",
		     a->last);
	buf_reset(&a->mline);
	rc = n > 0 && (size_t)n < sizeof(fields) ?
		     make_line(a, &a->mline, "rotated", fields, (size_t)n, hash,
			       diag) :
		     diag_errno(diag, CORDON_E_NOMEM, 0,
				"audit log: out of memory");
	if (rc == CORDON_OK &&
	    atomic_write_all(*fd, a->mline.p, a->mline.len) != 0) {
		int e = errno;
		rc = diag_errno(diag, CORDON_E_IO, e,
				"audit log: cannot write %s: %s", name,
				strerror(e));
	}
	if (rc != CORDON_OK) {
		close(*fd);
		*fd = -1;
		unlink(name);
	}
	return rc;
}

/* Rotates under the lock: path.N is dropped, path.N-1 … path.1 move up
 * one, the next file is made as path.new (locked, with its "rotated"
 * record), path is linked as path.1 and path.new renamed over path, so
 * that the path always names a log file: a writer or verifier that opens
 * it in between gets the old file and sees it replaced once it holds the
 * lock. Where hard links are refused, path is renamed to path.1 first
 * (a writer that opens the path in that moment makes an empty file,
 * which the rename replaces, and tries again). *rotated says the
 * "rotated" record was written (a->mline). */
static enum cordon_err rotate(struct cordon_audit *a, bool *rotated,
			      struct cordon_diag *diag)
{
	char from[PATH_MAX], to[PATH_MAX], next[PATH_MAX];
	char hash[AUDIT_HASH_HEX + 1];
	struct stat st, s1;
	int old = a->fd, fd, e, k;
	enum cordon_err rc;

	/* Always, not only for this handle's batch: another process's
	 * record may be in the file unsynced (a hook's deny, or one whose
	 * sync rides with its `cordon run`, audit_defer_sync()), and the
	 * file is renamed away from the path those look for it by. */
	/* A file whose sync failed, here or in any writer before (the
	 * mark), is not renamed away: the records the failure lost would
	 * go with it, and a rotation would start a clean file. */
	if (a->fsync_policy != CORDON_AUDIT_FSYNC_NEVER) {
		rc = handle_sync(a, old, a->path, true,
				 "; the log is not rotated", diag);
		if (rc != CORDON_OK)
			return rc;
		a->unsynced = 0;
	}
	k = snprintf(next, sizeof(next), "%s.new", a->path);
	if (k < 0 || (size_t)k >= sizeof(next) ||
	    !rotated_name(a->path, a->rotate_keep, to, sizeof(to)))
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"audit log: rotated names are longer than PATH_MAX");
	/* A path.1 that is the live file: a rotation was killed after its
	 * link; the live file is still the newest, so the link goes. */
	if (rotated_name(a->path, 1, from, sizeof(from)) &&
	    lstat(from, &s1) == 0 && fstat(old, &st) == 0 &&
	    s1.st_dev == st.st_dev && s1.st_ino == st.st_ino)
		(void)unlink(from);
	if (unlink(to) != 0 && errno != ENOENT) {
		e = errno;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: cannot remove %s: %s", to,
				  strerror(e));
	}
	for (unsigned i = a->rotate_keep; i > 1; i--) {
		if (!rotated_name(a->path, i - 1, from, sizeof(from)) ||
		    !rotated_name(a->path, i, to, sizeof(to)))
			return diag_errno(
				diag, CORDON_E_LIMIT, 0,
				"audit log: rotated names are longer than "
				"PATH_MAX");
		if (rename(from, to) != 0 && errno != ENOENT) {
			e = errno;
			return diag_errno(diag, CORDON_E_IO, e,
					  "audit log: cannot rename %s: %s",
					  from, strerror(e));
		}
	}
	if (!rotated_name(a->path, 1, to, sizeof(to)))
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"audit log: rotated names are longer than PATH_MAX");
	if ((rc = make_next(a, next, &fd, hash, diag)) != CORDON_OK)
		return rc;
	if (link(a->path, to) != 0 &&
	    (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	     errno != EMLINK)) {
		e = errno;
		rc = diag_errno(diag, CORDON_E_IO, e,
				"audit log: cannot link %s to %s: %s", a->path,
				to, strerror(e));
	} else if (lstat(to, &st) != 0 && rename(a->path, to) != 0) {
		e = errno;
		rc = diag_errno(diag, CORDON_E_IO, e,
				"audit log: cannot rename %s: %s", a->path,
				strerror(e));
	}
	if (rc == CORDON_OK && rename(next, a->path) != 0) {
		e = errno;
		rc = diag_errno(diag, CORDON_E_IO, e,
				"audit log: cannot rename %s to %s: %s", next,
				a->path, strerror(e));
	}
	if (rc == CORDON_OK && fstat(fd, &st) != 0) {
		e = errno;
		rc = diag_errno(diag, CORDON_E_IO, e,
				"audit log: cannot stat %s: %s", a->path,
				strerror(e));
	}
	if (rc != CORDON_OK) {
		close(fd);
		unlink(next);
		return rc;
	}
	close(old);
	a->fd = fd;
	a->fd_pid = a->pid;
	if (a->fsync_policy != CORDON_AUDIT_FSYNC_NEVER)
		(void)sync_parent(a->path);
	a->seq++;
	memcpy(a->last, hash, sizeof(a->last));
	a->dev = st.st_dev;
	a->ino = st.st_ino;
	a->size = st.st_size;
	a->synced = true;
	*rotated = true;
	return CORDON_OK;
}

/* The RFC 5424 datagram for one line (without '\n'); a record too long
 * for syslog is announced by a short stand-in with its seq and hash. */
static enum cordon_err send_syslog(struct cordon_audit *a, int severity,
				   const char *event, const char *line,
				   size_t len, uint64_t seq, const char *hash,
				   struct cordon_diag *diag)
{
	int pri = SYSLOG_FACILITY_USER * 8 + severity;
	char stand[320];
	size_t n;
	ssize_t k = -1;
	int e = 0;

	buf_reset(&a->sbuf);
	if (!buf_space(&a->sbuf, AUDIT_SYSLOG_MAX))
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	n = audit_syslog_format(a->sbuf.p, AUDIT_SYSLOG_MAX, pri, a->time,
				a->host_syslog, (long)a->pid, event, line, len);
	for (int attempt = 0; attempt < 3; attempt++) {
		if (n == 0) {
			int m = snprintf(stand, sizeof(stand),
					 "{\"v\":1,\"seq\":%" PRIu64
					 ",\"event\":\"%s\",\"hash\":\"%s\","
					 "\"omitted\":\"the record is %zu "
					 "bytes, too long for syslog\"}",
					 seq, event, hash, len);
			if (m < 0 || (size_t)m >= sizeof(stand))
				return diag_errno(diag, CORDON_E_NOMEM, 0,
						  "audit log: out of memory");
			n = audit_syslog_format(a->sbuf.p, AUDIT_SYSLOG_MAX,
						pri, a->time, a->host_syslog,
						(long)a->pid, event, stand,
						(size_t)m);
		}
		k = send(a->log_fd, a->sbuf.p, n, MSG_NOSIGNAL);
		if (k >= 0)
			return CORDON_OK;
		e = errno;
		if (e == EMSGSIZE) {
			n = 0;
			continue;
		}
		if (e == EINTR)
			continue;
		if (e == ECONNREFUSED || e == ENOTCONN || e == ENOENT) {
			/* The syslog daemon restarted: connect again. */
			struct sockaddr_un sun = { .sun_family = AF_UNIX };
			memcpy(sun.sun_path, a->syslog_path,
			       strlen(a->syslog_path) + 1);
			if (connect(a->log_fd, (struct sockaddr *)&sun,
				    sizeof(sun)) != 0)
				break;
			continue;
		}
		break;
	}
	return diag_errno(diag, CORDON_E_IO, e,
			  "audit log: syslog: cannot send to %s: %s",
			  a->syslog_path, strerror(e));
}

/* The other sinks for a line written (with its '\n'). */
static enum cordon_err to_sinks(struct cordon_audit *a, int severity,
				const char *event, const char *line, size_t len,
				uint64_t seq, const char *hash,
				struct cordon_diag *diag)
{
	enum cordon_err rc;

	if (a->log_fd >= 0 &&
	    (rc = send_syslog(a, severity, event, line, len - 1, seq, hash,
			      diag)) != CORDON_OK)
		return rc;
	if (a->to_stderr) {
		ssize_t k;

		do
			k = write(STDERR_FILENO, line, len);
		while (k < 0 && errno == EINTR);
		if (k < 0 || (size_t)k != len) {
			int e = k < 0 ? errno : EIO;
			return diag_errno(
				diag, CORDON_E_IO, e,
				"audit log: cannot write to stderr: %s",
				strerror(e));
		}
	}
	return CORDON_OK;
}

/* Appends one record of event with fields (members' JSON text without
 * braces, already redacted) to every sink. */
static enum cordon_err append(struct cordon_audit *a, const char *event,
			      int severity, const char *fields, size_t flen,
			      struct cordon_diag *diag)
{
	char hash[AUDIT_HASH_HEX + 1];
	bool recovered = false, rotated = false;
	struct stat st;
	enum cordon_err rc;
	uint64_t seq;
	int fd_sync = -1;

	if (flen > AUDIT_MAX_LINE ||
	    flen + AUDIT_FIXED_BYTES + a->host_len > AUDIT_MAX_LINE)
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"audit log: the record's fields are %zu bytes, "
			"over the 1 MiB line limit (AUDIT_MAX_LINE)",
			flen);
	pthread_mutex_lock(&a->mu);
	a->pid = getpid();
	if (a->relay_fd >= 0 || a->relay_path) {
		rc = audit_relay_send(a->relay_fd, a->relay_path, event, fields,
				      flen, diag);
		goto out;
	}
	if (!a->path) {
		buf_reset(&a->line);
		rc = make_line(a, &a->line, event, fields, flen, hash, diag);
		if (rc == CORDON_OK) {
			a->seq++;
			memcpy(a->last, hash, sizeof(a->last));
		}
		goto sinks;
	}
	if ((rc = lock_file(a, &st, diag)) != CORDON_OK)
		goto out;
	rc = sync_chain(a, &st, &recovered, diag);
	buf_reset(&a->line);
	if (rc == CORDON_OK)
		rc = make_line(a, &a->line, event, fields, flen, hash, diag);
	if (rc == CORDON_OK && a->size > 0 &&
	    (uint64_t)a->size + a->line.len > a->rotate_bytes) {
		rc = rotate(a, &rotated, diag);
		if (rc == CORDON_OK) {
			buf_reset(&a->line);
			rc = make_line(a, &a->line, event, fields, flen, hash,
				       diag);
		}
	}
	if (rc == CORDON_OK)
		rc = write_record(a, a->line.p, a->line.len, true, diag);
	if (rc == CORDON_OK) {
		a->seq++;
		memcpy(a->last, hash, sizeof(a->last));
		fd_sync = a->fd;
	}
	if (a->fd >= 0)
		flock(a->fd, LOCK_UN);
	if (rc != CORDON_OK)
		goto out;
	/* Durability after the lock is released: other writers need not
	 * wait for this process's disk. */
	if (!a->defer && (a->fsync_policy == CORDON_AUDIT_FSYNC_EVERY ||
			  (a->fsync_policy == CORDON_AUDIT_FSYNC_BATCH &&
			   ++a->unsynced >= a->fsync_batch))) {
		a->unsynced = 0;
		/* Not checked against the mark: this descriptor was open
		 * before the record was written, so a failure to write it
		 * back is reported here whoever else saw it. */
		rc = handle_sync(a, fd_sync, a->path, false, "", diag);
		if (rc != CORDON_OK)
			goto out;
	}
sinks:
	if (rc != CORDON_OK)
		goto out;
	seq = a->seq;
	if (recovered) {
		const char *r = a->rline.p;
		size_t rl = a->rline.len;

		if (rl && r[0] == '\n')
			r++, rl--;
		rc = to_sinks(a, SEV_WARNING, "recovered", r, rl,
			      seq - 1 - rotated, "", diag);
		if (rc != CORDON_OK)
			goto out;
	}
	if (rotated) {
		rc = to_sinks(a, SEV_INFO, "rotated", a->mline.p, a->mline.len,
			      seq - 1, "", diag);
		if (rc != CORDON_OK)
			goto out;
	}
	rc = to_sinks(a, severity, event, a->line.p, a->line.len, seq, hash,
		      diag);
out:
	if (rc != CORDON_OK)
		a->failed = 1;
	pthread_mutex_unlock(&a->mu);
	return rc;
}

/* ---- opening and closing ------------------------------------------------- */

static enum cordon_err open_syslog(struct cordon_audit *a, const char *path,
				   struct cordon_diag *diag)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	size_t n = strlen(path);
	int e;

	if (n == 0 || n >= sizeof(sun.sun_path))
		return diag_errno(
			diag, CORDON_E_INVAL, 0,
			"audit log: syslog: the socket path %s is empty or "
			"too long",
			path);
	a->syslog_path = cordon__strdup(path);
	if (!a->syslog_path)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	memcpy(sun.sun_path, path, n + 1);
	a->log_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (a->log_fd < 0) {
		e = errno;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: syslog: socket: %s", strerror(e));
	}
	if (connect(a->log_fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		e = errno;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: syslog: cannot connect to %s: %s",
				  path, strerror(e));
	}
	return CORDON_OK;
}

/* The host name: as a JSON string for records, as printable ASCII for
 * syslog's HOSTNAME field. */
static enum cordon_err set_host(struct cordon_audit *a,
				struct cordon_diag *diag)
{
	char host[256];
	cJSON *item;
	size_t n, o = 0;

	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	n = strlen(host);
	item = json_clean_string(host, n);
	a->host_json = item ? cJSON_PrintUnformatted(item) : NULL;
	cJSON_Delete(item);
	if (!a->host_json)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	a->host_len = strlen(a->host_json);
	for (size_t i = 0; i < n && o + 1 < sizeof(a->host_syslog); i++) {
		unsigned char c = (unsigned char)host[i];
		a->host_syslog[o++] = c >= 33 && c <= 126 ? (char)c : '_';
	}
	if (o == 0)
		a->host_syslog[o++] = '-';
	a->host_syslog[o] = '\0';
	return CORDON_OK;
}

/* Refuses a log directory that others could use to replace the log or
 * its rotated files: one owned by another user (root aside), or one that
 * others (all, or another group) can write without the sticky bit. A shared sticky directory
 * owned by root (/tmp, /var/tmp) is a warning: others cannot touch this
 * user's files there, but can take the names first. */
static enum cordon_err check_dir(struct cordon_audit *a,
				 struct cordon_diag *diag)
{
	char dir[PATH_MAX];
	struct stat st;
	int e;

	if (atomic_dir_of(a->path, dir, sizeof(dir)) != 0) {
		e = errno;
		return diag_errno(diag, CORDON_E_INVAL, e,
				  "audit log: %s names no file", a->path);
	}
	if (stat(dir, &st) != 0) {
		e = errno;
		return diag_errno(diag, CORDON_E_IO, e,
				  "audit log: cannot stat directory %s: %s",
				  dir, strerror(e));
	}
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: the directory %s belongs to "
				  "another user (uid %ld): refused (they could "
				  "replace the log)",
				  dir, (long)st.st_uid);
	/* Group-writable is fine for the user's own group (a private
	 * group, as umask 002 systems make them). */
	if (!(st.st_mode & 0002) &&
	    (!(st.st_mode & 0020) || st.st_gid == getegid()))
		return CORDON_OK;
	if ((st.st_mode & S_ISVTX) && st.st_uid == 0) {
		text_setf(a->warning, sizeof(a->warning),
			  "audit log: %s is in %s, a directory shared with "
			  "other users: they cannot change this log but can "
			  "take its rotated names first; keep it in a "
			  "directory of your own",
			  a->path, dir);
		return CORDON_OK;
	}
	return diag_errno(diag, CORDON_E_INVAL, 0,
			  "audit log: the directory %s is writable by others "
			  "(mode %04o): refused (they could replace the log); "
			  "chmod go-w it or choose another audit.path",
			  dir, (unsigned)(st.st_mode & 07777));
}

const char *cordon_audit_warning(const struct cordon_audit *a)
{
	return a && a->warning[0] ? a->warning : NULL;
}

static void audit_free(struct cordon_audit *a)
{
	close_file(a);
	if (a->log_fd >= 0)
		close(a->log_fd);
	free(a->path);
	free(a->relay_path);
	free(a->syslog_path);
	free(a->host_json);
	key_free(a->key);
	buf_free(&a->line);
	buf_free(&a->rline);
	buf_free(&a->mline);
	buf_free(&a->tail);
	buf_free(&a->sbuf);
	pthread_mutex_destroy(&a->mu);
	free(a);
}

enum cordon_err cordon_audit_open(const struct cordon_audit_opts *o,
				  struct cordon_audit **out,
				  struct cordon_diag *diag)
{
	struct cordon_audit *a;
	enum cordon_err rc;
	char probe[PATH_MAX];

	if (!out)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: no handle");
	*out = NULL;
	if (!o)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: no options");
	if (o->fsync_policy != CORDON_AUDIT_FSYNC_EVERY &&
	    o->fsync_policy != CORDON_AUDIT_FSYNC_BATCH &&
	    o->fsync_policy != CORDON_AUDIT_FSYNC_NEVER)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: unknown fsync policy %d",
				  (int)o->fsync_policy);
	if (o->rotate_keep > AUDIT_MAX_KEEP)
		return diag_errno(
			diag, CORDON_E_INVAL, 0,
			"audit log: rotate_keep %u is over the limit of %u",
			o->rotate_keep, AUDIT_MAX_KEEP);
	if (o->path && (!o->path[0] || !rotated_name(o->path, AUDIT_MAX_KEEP,
						     probe, sizeof(probe))))
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: the path is empty or too long");
	a = cordon__calloc(1, sizeof(*a));
	if (!a)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	pthread_mutex_init(&a->mu, NULL);
	/* No ceilings of their own: what goes in is bounded by
	 * AUDIT_MAX_LINE, AUDIT_TAIL_MAX and AUDIT_SYSLOG_MAX. */
	buf_init(&a->line, SIZE_MAX);
	buf_init(&a->rline, SIZE_MAX);
	buf_init(&a->mline, SIZE_MAX);
	buf_init(&a->tail, SIZE_MAX);
	buf_init(&a->sbuf, SIZE_MAX);
	a->pid = getpid();
	a->fd = -1;
	a->log_fd = -1;
	a->relay_fd = -1;
	memcpy(a->last, zero_hash, sizeof(a->last));
	a->fsync_policy = o->fsync_policy;
	a->fsync_batch = o->fsync_batch ? o->fsync_batch : 64;
	a->rotate_bytes = o->rotate_bytes ? o->rotate_bytes :
					    (uint64_t)64 << 20;
	a->rotate_keep = o->rotate_keep ? o->rotate_keep : 10;
	a->to_stderr = o->to_stderr;
	a->log_all = o->log_all_commands;
	rc = set_host(a, diag);
	if (rc == CORDON_OK && o->path) {
		a->path = cordon__strdup(o->path);
		if (!a->path)
			rc = diag_errno(diag, CORDON_E_NOMEM, 0,
					"audit log: out of memory");
		if (rc == CORDON_OK)
			rc = make_parents(a->path, diag);
		if (rc == CORDON_OK)
			rc = check_dir(a, diag);
		if (rc == CORDON_OK)
			rc = open_file(a, diag);
	}
	if (rc == CORDON_OK && o->key_file)
		rc = key_load(o->key_file, "audit log", &a->key, diag);
	if (rc == CORDON_OK && o->syslog)
		rc = open_syslog(
			a, o->syslog_path ? o->syslog_path : "/dev/log", diag);
	if (rc != CORDON_OK) {
		audit_free(a);
		return rc;
	}
	*out = a;
	return CORDON_OK;
}

enum cordon_err audit_open_relay(const struct cordon_audit_opts *o, int fd,
				 const char *path, struct cordon_audit **out,
				 struct cordon_diag *diag)
{
	struct cordon_audit_opts ro;
	enum cordon_err rc;

	if (!o || (fd < 0 && !path)) {
		if (out)
			*out = NULL;
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit relay: no options or descriptor");
	}
	ro = *o;
	ro.path = NULL;
	ro.syslog = 0;
	ro.to_stderr = 0;
	ro.key_file = NULL;
	rc = cordon_audit_open(&ro, out, diag);
	if (rc != CORDON_OK)
		return rc;
	(*out)->relay_fd = fd;
	if (fd < 0 && !((*out)->relay_path = cordon__strdup(path))) {
		audit_free(*out);
		*out = NULL;
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit relay: out of memory");
	}
	return CORDON_OK;
}

/* ---- durability that rides with the effect (audit.h) -------------------- */

bool audit_sync_target(struct cordon_audit *a, struct audit_file_id *id)
{
	struct stat st;
	bool ok;

	pthread_mutex_lock(&a->mu);
	ok = a->path && a->relay_fd < 0 && !a->relay_path && a->fd >= 0 &&
	     a->path[0] == '/' && a->fsync_policy != CORDON_AUDIT_FSYNC_NEVER &&
	     fstat(a->fd, &st) == 0;
	if (ok) {
		id->dev = (unsigned long long)st.st_dev;
		id->ino = (unsigned long long)st.st_ino;
	}
	pthread_mutex_unlock(&a->mu);
	return ok;
}

const char *audit_file_path(const struct cordon_audit *a)
{
	return a->path;
}

void audit_defer_sync(struct cordon_audit *a)
{
	pthread_mutex_lock(&a->mu);
	a->defer = true;
	pthread_mutex_unlock(&a->mu);
}

bool audit_last_file(struct cordon_audit *a, struct audit_file_id *id)
{
	bool ok;

	pthread_mutex_lock(&a->mu);
	ok = a->path && a->fd >= 0 && a->synced;
	if (ok) {
		id->dev = (unsigned long long)a->dev;
		id->ino = (unsigned long long)a->ino;
	}
	pthread_mutex_unlock(&a->mu);
	return ok;
}

enum cordon_err audit_sync(struct cordon_audit *a, struct cordon_diag *diag)
{
	enum cordon_err rc = CORDON_OK;

	pthread_mutex_lock(&a->mu);
	a->defer = false;
	if (a->path && a->fd >= 0 &&
	    a->fsync_policy != CORDON_AUDIT_FSYNC_NEVER)
		rc = handle_sync(a, a->fd, a->path, false, "", diag);
	pthread_mutex_unlock(&a->mu);
	return rc;
}

/* Opens name read-only (no symlink, no FIFO wait) when it is the file id;
 * -1 otherwise (missing, another file). */
static int open_if_file(const char *name, const struct audit_file_id *id)
{
	struct stat st;
	int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW |
				    O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (unsigned long long)st.st_dev != id->dev ||
	    (unsigned long long)st.st_ino != id->ino) {
		close(fd);
		return -1;
	}
	return fd;
}

struct audit_sync_job *audit_sync_job_new(const char *path,
					  const struct audit_file_id *id,
					  struct cordon_diag *diag)
{
	struct audit_sync_job *j = cordon__calloc(1, sizeof(*j));

	if (!j) {
		diag_errno(diag, CORDON_E_NOMEM, 0, "audit log: out of memory");
		return NULL;
	}
	j->id = *id;
	j->r.stage = AUDIT_SYNC_PENDING;
	if (strlen(path) >= sizeof(j->name) ||
	    !rotated_name(path, 1, j->one, sizeof(j->one)) ||
	    !mark_names(path, &j->m)) {
		diag_errno(diag, CORDON_E_LIMIT, 0,
			   "audit log: %s" AUDIT_MARK_SUFFIX
			   " is longer than PATH_MAX",
			   path);
		free(j);
		return NULL;
	}
	memcpy(j->name, path, strlen(path) + 1);
#ifdef CORDON_TEST_SWITCHES
	{
		const char *v = getenv("CORDON_TEST_SYNC_DELAY_MS");

		j->test_delay_ms = v ? (unsigned)strtoul(v, NULL, 10) : 0;
		j->test_fail = getenv("CORDON_TEST_SYNC_FAIL") != NULL;
	}
#endif
	return j;
}

void audit_sync_job_free(struct audit_sync_job *j)
{
	free(j);
}

void audit_sync_job_run(struct audit_sync_job *j)
{
	int fd = open_if_file(j->name, &j->id);

	/* Rotated since the record was written: the file is path.1 now
	 * (rotate() synced it, but a rename by hand would not have). */
	j->at_one = false;
	if (fd < 0) {
		fd = open_if_file(j->one, &j->id);
		j->at_one = fd >= 0;
	}
	if (fd < 0) {
		j->r.stage = AUDIT_SYNC_GONE;
		return;
	}
	if (j->test_delay_ms) {
		struct timespec ts = { (time_t)(j->test_delay_ms / 1000),
				       (long)(j->test_delay_ms % 1000) *
					       1000000L };

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	/* Opened now, perhaps after another process saw the file's write-
	 * back error: the mark is read. */
	sticky_sync(fd, &j->m, true, &j->r);
	close(fd);
	if (j->test_fail && j->r.stage == AUDIT_SYNC_OK)
		j->r.stage = AUDIT_SYNC_TEST;
}

enum cordon_err audit_sync_job_result(const struct audit_sync_job *j,
				      struct cordon_diag *diag)
{
	const char *then = "; the command does not run";

	switch (j->r.stage) {
	case AUDIT_SYNC_PENDING:
		return diag_errno(diag, CORDON_E_IO, 0,
				  "audit log: the fsync of %s was not taken; "
				  "the command does not run",
				  j->name);
	case AUDIT_SYNC_GONE:
		return diag_errno(diag, CORDON_E_IO, 0,
				  "audit log: the file the hook recorded this "
				  "call in (device %llu, inode %llu) is "
				  "neither %s nor %s any more, so its record "
				  "cannot be made durable; the command does "
				  "not run (make the call again)",
				  j->id.dev, j->id.ino, j->name, j->one);
	case AUDIT_SYNC_TEST:
		return diag_errno(diag, CORDON_E_IO, 0,
				  "audit log: the fsync of %s failed late "
				  "(CORDON_TEST_SYNC_FAIL, a test build)%s",
				  j->at_one ? j->one : j->name, then);
	default:
		return sync_message(&j->r, j->at_one ? j->one : j->name, &j->m,
				    then, diag);
	}
}

enum cordon_err audit_sync_file(const char *path,
				const struct audit_file_id *id,
				struct cordon_diag *diag)
{
	struct audit_sync_job *j = audit_sync_job_new(path, id, diag);
	enum cordon_err rc;

	if (!j)
		return diag && diag->code != CORDON_OK ? diag->code :
							 CORDON_E_NOMEM;
	audit_sync_job_run(j);
	rc = audit_sync_job_result(j, diag);
	audit_sync_job_free(j);
	return rc;
}

int audit_file_id_format(const struct audit_file_id *id, char *buf, size_t cap)
{
	char t[AUDIT_ID_TEXT];
	size_t n = id_text(id->dev, id->ino, t);

	if (n >= cap)
		return -1;
	memcpy(buf, t, n + 1);
	return 0;
}

/* A decimal number without sign, leading zero or blank, up to end or
 * stop. */
static bool parse_u64(const char *s, char stop, unsigned long long *out,
		      const char **end)
{
	unsigned long long v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (ULLONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (*p != stop)
		return false;
	*out = v;
	*end = p;
	return true;
}

int audit_file_id_parse(const char *s, struct audit_file_id *id)
{
	const char *p;

	if (!parse_u64(s, ':', &id->dev, &p) ||
	    !parse_u64(p + 1, '\0', &id->ino, &p))
		return -1;
	return 0;
}

enum cordon_err cordon_audit_close(struct cordon_audit *a)
{
	enum cordon_err rc;

	if (!a)
		return CORDON_OK;
	pthread_mutex_lock(&a->mu);
	if (a->fd >= 0 && a->unsynced && a->fd_pid == getpid()) {
		struct cordon_diag d = { 0 };

		(void)handle_sync(a, a->fd, a->path, false, "", &d);
	}
	rc = a->sync_err;
	pthread_mutex_unlock(&a->mu);
	audit_free(a);
	return rc;
}

int cordon_audit_failed(struct cordon_audit *a)
{
	int f;

	if (!a)
		return 0;
	pthread_mutex_lock(&a->mu);
	f = a->failed;
	a->failed = 0;
	pthread_mutex_unlock(&a->mu);
	return f;
}

/* Notes a record that could not be written, for cordon_audit_failed(). */
static void mark_failed(struct cordon_audit *a)
{
	pthread_mutex_lock(&a->mu);
	a->failed = 1;
	pthread_mutex_unlock(&a->mu);
}

/* ---- building records ---------------------------------------------------- */

static bool add_item(cJSON *o, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObject(o, key, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

/* A string item for s (cleaned to valid UTF-8), or null for NULL. */
static cJSON *text_item(const char *s)
{
	return s ? json_clean_string(s, strlen(s)) : cJSON_CreateNull();
}

/* A static name, or null. */
static cJSON *name_item(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* Makes every key and string in v valid UTF-8 without NUL bytes (cJSON
 * keeps invalid bytes as they are, and the line must be JSON). */
static bool clean_tree(cJSON *v)
{
	for (cJSON *c = v->child; c; c = c->next) {
		if (c->string && !(c->type & cJSON_StringIsConst) &&
		    !text_utf8_valid(c->string, strlen(c->string), false)) {
			char *s = utf8_copy(c->string);
			if (!s)
				return false;
			free(c->string);
			c->string = s;
		}
		if (cJSON_IsString(c) && !(c->type & cJSON_IsReference) &&
		    !text_utf8_valid(c->valuestring, strlen(c->valuestring),
				     false)) {
			char *s = utf8_copy(c->valuestring);
			if (!s)
				return false;
			free(c->valuestring);
			c->valuestring = s;
		}
		if ((cJSON_IsArray(c) || cJSON_IsObject(c)) && !clean_tree(c))
			return false;
	}
	return true;
}

/* Cuts string values longer than AUDIT_ARG_STRING_MAX (at a character
 * boundary), saying how much was cut. */
static bool cap_strings(cJSON *v)
{
	if (cJSON_IsString(v) && !(v->type & cJSON_IsReference)) {
		size_t n = strlen(v->valuestring), k = AUDIT_ARG_STRING_MAX;
		char note[64];
		char *s;
		int m;

		if (n <= AUDIT_ARG_STRING_MAX)
			return true;
		while (k > 0 &&
		       ((unsigned char)v->valuestring[k] & 0xc0) == 0x80)
			k--;
		m = snprintf(note, sizeof(note), "\xe2\x80\xa6[cut: %zu bytes]",
			     n - k);
		if (m < 0 || (size_t)m >= sizeof(note))
			return false;
		s = cordon__malloc(k + (size_t)m + 1);
		if (!s)
			return false;
		memcpy(s, v->valuestring, k);
		memcpy(s + k, note, (size_t)m + 1);
		free(v->valuestring);
		v->valuestring = s;
		return true;
	}
	for (cJSON *c = v->child; c; c = c->next)
		if (!cap_strings(c))
			return false;
	return true;
}

/* Parses a caller's JSON text. A \u0000 escape, which cJSON would turn
 * into a NUL that cuts the string short, becomes \ufffd first (the same
 * length). NULL when it is not JSON; *oom when out of memory. */
static cJSON *parse_text(const char *text, size_t len, bool *oom)
{
	size_t at = json_nul_escape_at(text, len);
	const char *end = NULL;
	char *copy = NULL;
	cJSON *v;

	*oom = false;
	if (at < len) {
		copy = cordon__malloc(len + 1);
		if (!copy) {
			*oom = true;
			return NULL;
		}
		memcpy(copy, text, len);
		copy[len] = '\0';
		while (at + 6 <= len) {
			memcpy(copy + at + 2, "fffd", 4);
			at += 6;
			at += json_nul_escape_at(copy + at, len - at);
		}
		text = copy;
	}
	v = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (v && end) {
		size_t i = (size_t)(end - text);
		while (i < len && (text[i] == ' ' || text[i] == '\t' ||
				   text[i] == '\n' || text[i] == '\r'))
			i++;
		if (i != len) {
			cJSON_Delete(v);
			v = NULL;
		}
	}
	free(copy);
	if (v && !clean_tree(v)) {
		cJSON_Delete(v);
		*oom = true;
		return NULL;
	}
	return v;
}

static bool is_reserved(const char *name)
{
	for (size_t i = 0;
	     i < sizeof(reserved_names) / sizeof(reserved_names[0]); i++)
		if (strcmp(name, reserved_names[i]) == 0)
			return true;
	return false;
}

/* Parses fields_json (an object of members for the record), refusing the
 * reserved names, names that appear twice and names already in `have`;
 * the members are redacted. *out is NULL for NULL text. */
static enum cordon_err parse_fields(const char *text, const cJSON *have,
				    const char *what, cJSON **out,
				    struct cordon_diag *diag)
{
	bool oom;
	cJSON *o;

	*out = NULL;
	if (!text)
		return CORDON_OK;
	o = parse_text(text, strlen(text), &oom);
	if (!o)
		return oom ? diag_errno(diag, CORDON_E_NOMEM, 0,
					"audit log: out of memory") :
			     diag_errno(diag, CORDON_E_JSON, 0,
					"audit log: %s is not valid JSON",
					what);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: %s is not a JSON object", what);
	}
	for (cJSON *c = o->child; c; c = c->next) {
		const cJSON *d;

		if (is_reserved(c->string)) {
			diag_errno(
				diag, CORDON_E_INVAL, 0,
				"audit log: %s: \"%s\" is a reserved member name",
				what, c->string);
			cJSON_Delete(o);
			return CORDON_E_INVAL;
		}
		for (d = c->next; d; d = d->next)
			if (strcmp(d->string, c->string) == 0)
				break;
		if (d || (have &&
			  cJSON_GetObjectItemCaseSensitive(have, c->string))) {
			diag_errno(diag, CORDON_E_INVAL, 0,
				   "audit log: %s: member \"%s\" appears twice",
				   what, c->string);
			cJSON_Delete(o);
			return CORDON_E_INVAL;
		}
	}
	if (redact_json(o, NULL) != CORDON_OK) {
		cJSON_Delete(o);
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: cannot redact %s", what);
	}
	*out = o;
	return CORDON_OK;
}

/* Moves the members of from to the end of to; frees from. */
static void move_members(cJSON *to, cJSON *from)
{
	while (from && from->child) {
		cJSON *c = cJSON_DetachItemViaPointer(from, from->child);
		char *key = c->string;

		c->string = NULL;
		/* to takes its own copy of the key. */
		if (!cJSON_AddItemToObject(to, key, c))
			cJSON_Delete(c);
		free(key);
	}
	cJSON_Delete(from);
}

/* Prints o (a JSON object) and appends it as a record. */
static cJSON *omitted(const char *why);

/* Prints o and appends it as a record. When the record would not fit in
 * a line and shrink names a member, that member is replaced by
 * {"omitted": why} first: a decision is recorded without its arguments
 * rather than not at all. */
static enum cordon_err append_object(struct cordon_audit *a, const char *event,
				     int severity, cJSON *o, const char *shrink,
				     const char *why, struct cordon_diag *diag)
{
	char *txt = cJSON_PrintUnformatted(o);
	enum cordon_err rc;
	size_t n = txt ? strlen(txt) : 0;

	if (txt && shrink &&
	    n + AUDIT_FIXED_BYTES + a->host_len > AUDIT_MAX_LINE) {
		cJSON *m = omitted(why);

		if (!m || !cJSON_ReplaceItemInObjectCaseSensitive(o, shrink, m))
			cJSON_Delete(m);
		free(txt);
		txt = cJSON_PrintUnformatted(o);
		n = txt ? strlen(txt) : 0;
	}
	if (!txt) {
		mark_failed(a);
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	}
	rc = append(a, event, severity, txt + 1, n >= 2 ? n - 2 : 0, diag);
	free(txt);
	return rc;
}

/* A string item holding s (NULL: null), redacted. */
static cJSON *redacted_text(const char *s)
{
	cJSON *item = text_item(s);

	if (item && cJSON_IsString(item) &&
	    redact_json(item, NULL) != CORDON_OK) {
		cJSON_Delete(item);
		return NULL;
	}
	return item;
}

static const char omitted_command[] = "log_all_commands is off";

static cJSON *omitted(const char *why)
{
	cJSON *o = cJSON_CreateObject();

	if (o && !cJSON_AddStringToObject(o, "omitted", why)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* The call's arguments for the record: parsed, the shell command replaced
 * by a marker unless log_all_commands, redacted, long strings cut. Not
 * JSON: the redacted text as a string (or, for a shell call, a marker). */
static cJSON *decision_args(struct cordon_audit *a,
			    const struct cordon_result *r, bool *oom)
{
	const char *text = cordon_result_args(r);
	const char *cmd = cordon_result_command(r);
	bool exec = cordon_result_kind(r) == CORDON_KIND_EXECUTE;
	cJSON *args = parse_text(text, strlen(text), oom);

	if (*oom)
		return NULL;
	if (!args) {
		if (exec && !a->log_all)
			args = omitted(omitted_command);
		else
			args = redacted_text(text);
		if (args && cJSON_IsString(args) && !cap_strings(args)) {
			cJSON_Delete(args);
			args = NULL;
		}
		*oom = args == NULL;
		return args;
	}
	if (exec && !a->log_all && cJSON_IsObject(args)) {
		for (cJSON *c = args->child; c; c = c->next) {
			bool is_cmd = strcmp(c->string, "command") == 0 ||
				      (cmd && cJSON_IsString(c) &&
				       strcmp(c->valuestring, cmd) == 0);
			cJSON *m;

			if (!is_cmd)
				continue;
			m = omitted(omitted_command);
			/* ReplaceItemViaPointer keeps no key: give it one. */
			if (m && !(m->string = cordon__strdup(c->string))) {
				cJSON_Delete(m);
				m = NULL;
			}
			if (!m || !cJSON_ReplaceItemViaPointer(args, c, m)) {
				cJSON_Delete(m);
				cJSON_Delete(args);
				*oom = true;
				return NULL;
			}
			c = m;
		}
	}
	if (redact_json(args, NULL) != CORDON_OK || !cap_strings(args)) {
		cJSON_Delete(args);
		*oom = true;
		return NULL;
	}
	return args;
}

enum cordon_err cordon_audit_decision(struct cordon_audit *a,
				      const struct cordon_result *r,
				      const char *extra_json,
				      struct cordon_diag *diag)
{
	static const int sev[] = { [CORDON_ALLOW] = SEV_INFO,
				   [CORDON_DENY] = SEV_WARNING,
				   [CORDON_ASK] = SEV_NOTICE };
	enum cordon_decision d;
	enum cordon_err rc;
	cJSON *o, *extra = NULL, *args;
	bool ok, oom = false;
	int risk, answer;
	char why[96];

	if (!a || !r)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: no handle or no result");
	d = cordon_result_decision(r);
	if ((unsigned)d > CORDON_ASK)
		d = CORDON_DENY;
	risk = cordon_result_risk(r);
	answer = cordon_result_answer(r);
	o = cJSON_CreateObject();
	ok = o &&
	     add_item(o, "session", redacted_text(cordon_result_session(r))) &&
	     add_item(o, "tool", redacted_text(cordon_result_tool(r))) &&
	     add_item(o, "kind",
		      name_item(cordon_kind_name(cordon_result_kind(r))));
	if (ok) {
		args = decision_args(a, r, &oom);
		ok = add_item(o, "args", args);
	}
	ok = ok &&
	     add_item(o, "decision", name_item(cordon_decision_name(d))) &&
	     add_item(o, "step", name_item(cordon_result_step(r))) &&
	     add_item(o, "reason", redacted_text(cordon_result_reason(r))) &&
	     add_item(o, "hard", cJSON_CreateBool(cordon_result_hard(r))) &&
	     add_item(o, "risk",
		      name_item(risk >= 0 ? cordon_risk_name(
						    (enum cordon_risk)risk) :
					    NULL)) &&
	     add_item(o, "labels",
		      json_labels_array(cordon_result_labels(r))) &&
	     add_item(o, "answer",
		      name_item(answer >= 0 ?
					cordon_answer_name(
						(enum cordon_answer)answer) :
					NULL)) &&
	     add_item(o, "answeredBy",
		      redacted_text(cordon_result_answered_by(r)));
	if (!ok) {
		cJSON_Delete(o);
		mark_failed(a);
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	}
	rc = parse_fields(extra_json, o, "extra_json", &extra, diag);
	if (rc != CORDON_OK) {
		cJSON_Delete(o);
		mark_failed(a);
		return rc;
	}
	move_members(o, extra);
	snprintf(why, sizeof(why),
		 "the arguments are %zu bytes, over the audit line limit",
		 strlen(cordon_result_args(r)));
	rc = append_object(a, "decision", sev[d], o, "args", why, diag);
	cJSON_Delete(o);
	return rc;
}

void cordon_audit_on_decision(void *ud, const struct cordon_result *r)
{
	/* A failure is kept in the handle for cordon_audit_failed(). */
	if (cordon_audit_decision(ud, r, NULL, NULL) != CORDON_OK)
		return;
}

/* Copies report member name to o when its type is one of the allowed
 * (a mask of cJSON types; arrays must hold strings), else null. */
static bool copy_report(cJSON *o, const cJSON *rep, const char *name, int types)
{
	const cJSON *v = rep ? cJSON_GetObjectItemCaseSensitive(rep, name) :
			       NULL;
	cJSON *c = NULL;

	if (v && (v->type & 0xff & types)) {
		if (cJSON_IsArray(v))
			for (const cJSON *e = v->child; e; e = e->next)
				if (!cJSON_IsString(e))
					v = NULL;
		if (v)
			c = cJSON_Duplicate(v, true);
		if (v && !c)
			return false;
	}
	if (!c)
		c = cJSON_CreateNull();
	if (c && cJSON_IsString(c) && redact_json(c, NULL) != CORDON_OK) {
		cJSON_Delete(c);
		return false;
	}
	return add_item(o, name, c);
}

enum cordon_err cordon_audit_run(struct cordon_audit *a, const char *session,
				 const char *const argv[],
				 const char *report_json,
				 struct cordon_diag *diag)
{
	const char *prog = NULL;
	cJSON *o, *rep = NULL, *av;
	enum cordon_err rc;
	bool ok, oom = false;

	if (!a)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: no handle");
	if (report_json) {
		rep = parse_text(report_json, strlen(report_json), &oom);
		if (!rep || !cJSON_IsObject(rep)) {
			cJSON_Delete(rep);
			mark_failed(a);
			return oom ? diag_errno(diag, CORDON_E_NOMEM, 0,
						"audit log: out of memory") :
				     diag_errno(
					     diag, CORDON_E_INVAL, 0,
					     "audit log: the run report is not a "
					     "JSON object");
		}
	}
	if (argv && argv[0]) {
		const char *slash = strrchr(argv[0], '/');
		prog = slash && slash[1] ? slash + 1 : argv[0];
	}
	o = cJSON_CreateObject();
	ok = o && add_item(o, "session", redacted_text(session)) &&
	     add_item(o, "program", redacted_text(prog));
	if (ok && a->log_all && argv) {
		av = cJSON_CreateArray();
		ok = av != NULL;
		for (size_t i = 0; ok && argv[i]; i++) {
			cJSON *s = json_clean_string(argv[i], strlen(argv[i]));
			ok = s && cJSON_AddItemToArray(av, s);
			if (!ok)
				cJSON_Delete(s);
		}
		if (ok)
			ok = redact_json(av, NULL) == CORDON_OK &&
			     cap_strings(av);
		ok = ok ? add_item(o, "argv", av) : (cJSON_Delete(av), false);
	}
	ok = ok && copy_report(o, rep, "backend", cJSON_String) &&
	     copy_report(o, rep, "enforcement", cJSON_String) &&
	     copy_report(o, rep, "notEnforced", cJSON_Array) &&
	     copy_report(o, rep, "exitCode", cJSON_Number) &&
	     copy_report(o, rep, "signal", cJSON_Number | cJSON_String) &&
	     copy_report(o, rep, "timedOut", cJSON_True | cJSON_False) &&
	     copy_report(o, rep, "durationMs", cJSON_Number);
	cJSON_Delete(rep);
	if (!ok) {
		cJSON_Delete(o);
		mark_failed(a);
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	}
	/* An argv too big for one line is left out, not the run. */
	rc = append_object(a, "run", SEV_INFO, o,
			   a->log_all && argv ? "argv" : NULL,
			   "the argv is over the audit line limit", diag);
	cJSON_Delete(o);
	return rc;
}

/* info, unless the fields carry a decision or verdict: deny → warning,
 * ask → notice. */
static int event_severity(const cJSON *fields)
{
	static const char *const keys[] = { "decision", "verdict" };

	for (size_t i = 0; fields && i < 2; i++) {
		const cJSON *v =
			cJSON_GetObjectItemCaseSensitive(fields, keys[i]);

		if (!cJSON_IsString(v))
			continue;
		if (strcmp(v->valuestring, "deny") == 0 ||
		    strcmp(v->valuestring, "denied") == 0 ||
		    strcmp(v->valuestring, "blocked") == 0)
			return SEV_WARNING;
		if (strcmp(v->valuestring, "ask") == 0)
			return SEV_NOTICE;
	}
	return SEV_INFO;
}

enum cordon_err cordon_audit_event(struct cordon_audit *a, const char *event,
				   const char *fields_json,
				   struct cordon_diag *diag)
{
	cJSON *f = NULL, *o;
	enum cordon_err rc;
	size_t n;

	if (!a)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit log: no handle");
	n = event ? strlen(event) : 0;
	if (n == 0 || n > AUDIT_EVENT_MAX || strcmp(event, "recovered") == 0 ||
	    strcmp(event, "rotated") == 0 ||
	    strspn(event, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != n) {
		mark_failed(a);
		return diag_errno(
			diag, CORDON_E_INVAL, 0,
			"audit log: event name \"%.40s\" is not 1 to %d "
			"letters, digits, '_', '.' or '-' (or is reserved)",
			event ? event : "", AUDIT_EVENT_MAX);
	}
	rc = parse_fields(fields_json, NULL, "fields_json", &f, diag);
	if (rc != CORDON_OK) {
		mark_failed(a);
		return rc;
	}
	o = f ? f : cJSON_CreateObject();
	if (!o) {
		mark_failed(a);
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit log: out of memory");
	}
	rc = append_object(a, event, event_severity(o), o, NULL, NULL, diag);
	cJSON_Delete(o);
	return rc;
}

/* ---- verifying ----------------------------------------------------------- */

/* The checker: lines are pushed one by one, file by file; it keeps the
 * chain and remembers the lines whose verdict depends on what follows. */
struct vcheck {
	struct cordon_audit_report *rep;
	const char *const *names; /* file names, for messages */
	char **gaps; /* per file: "X is absent" before it, or NULL */
	unsigned file;
	uint64_t line;
	bool first_in_file;
	bool done;
	bool oom;
	/* the chain */
	bool started;
	uint64_t seq;
	char last[AUDIT_HASH_HEX + 1];
	/* the last record line and the chain before it, for a recovered
	 * record naming it as a line cut just before its newline */
	struct buf prev_line;
	bool prev_valid;
	bool pre_started;
	uint64_t pre_seq;
	char pre_last[AUDIT_HASH_HEX + 1];
	/* lines that are not records, until a record says whether a
	 * recovered record names them: their bytes joined by '\n' are
	 * hashed as they come; the first one is what a break names */
	bool pend;
	bool pend_nonl;
	uint64_t pend_line;
	uint64_t pend_lines;
	size_t pend_len;
	bool pend_last_nl;
	struct sha256 pctx;
	char pend_why[200];
	/* the options */
	bool allow_missing_start;
	bool have_expect;
	char expect[AUDIT_HASH_HEX + 1];
	bool found_expect;
	uint64_t expect_seq;
	struct audit_key *key;
	/* a seq jump: looking for the missing seq further on tells a swap
	 * from a deletion */
	bool jump;
	unsigned jump_file;
	uint64_t jump_line, jump_want, jump_got;
};

__attribute__((format(printf, 4, 5))) static void
vbad(struct vcheck *vc, unsigned file, uint64_t line, const char *fmt, ...)
{
	struct cordon_audit_report *rep = vc->rep;
	va_list ap;
	int n;

	if (vc->done)
		return;
	vc->done = true;
	rep->intact = 0;
	snprintf(rep->bad_file, sizeof(rep->bad_file), "%s", vc->names[file]);
	rep->bad_line = line;
	n = snprintf(rep->why, sizeof(rep->why), "line %" PRIu64 ": ", line);
	if (n < 0 || (size_t)n >= sizeof(rep->why))
		return;
	va_start(ap, fmt);
	vsnprintf(rep->why + n, sizeof(rep->why) - (size_t)n, fmt, ap);
	va_end(ap);
}

static void vreport_pend(struct vcheck *vc)
{
	if (vc->pend_nonl)
		vbad(vc, vc->file, vc->pend_line,
		     "the last line is cut: %zu bytes without a newline (a "
		     "writer was killed mid-append, or the file was cut "
		     "short); the next append ends it and adds a "
		     "\"recovered\" record",
		     vc->pend_len);
	else
		vbad(vc, vc->file, vc->pend_line, "not an audit record: %s",
		     vc->pend_why);
}

static void vaccept(struct vcheck *vc, const char *s, size_t len,
		    const struct audit_line *al)
{
	vc->pre_started = vc->started;
	vc->pre_seq = vc->seq;
	memcpy(vc->pre_last, vc->last, sizeof(vc->last));
	buf_reset(&vc->prev_line);
	vc->prev_valid = buf_add(&vc->prev_line, s, len);
	vc->started = true;
	vc->seq = al->seq;
	memcpy(vc->last, al->hash, sizeof(vc->last));
	memcpy(vc->rep->head, al->hash, sizeof(vc->rep->head));
	vc->rep->head_seq = al->seq;
	vc->rep->records++;
	if (vc->have_expect && strcmp(al->hash, vc->expect) == 0) {
		vc->found_expect = true;
		vc->expect_seq = al->seq;
	}
}

/* Starts the run of lines that are not records at this line. */
static void pend_start(struct vcheck *vc, size_t len, bool nl, const char *why)
{
	vc->pend = true;
	vc->pend_nonl = !nl;
	vc->pend_line = vc->line;
	vc->pend_lines = 0;
	vc->pend_len = 0;
	snprintf(vc->pend_why, sizeof(vc->pend_why), "%s", why);
	sha256_init(&vc->pctx);
	(void)len;
}

/* Adds a line to the run. */
static void pend_add(struct vcheck *vc, const char *s, size_t len, bool nl)
{
	if (vc->done)
		return;
	if (vc->pend_lines)
		sha256_update(&vc->pctx, "\n", 1);
	sha256_update(&vc->pctx, s, len);
	vc->pend_len += (vc->pend_lines ? 1 : 0) + len;
	vc->pend_lines++;
	vc->pend_last_nl = nl;
}

/* Does the recovered record al name the run: its bytes, with or without
 * the newline the recovering writer added after them? */
static bool pend_matches(struct vcheck *vc, const struct audit_line *al)
{
	unsigned char md[SHA256_BYTES];
	char hex[AUDIT_HASH_HEX + 1];
	struct sha256 c;
	bool with_nl;

	if (al->torn_bytes == vc->pend_len)
		with_nl = false;
	else if (vc->pend_last_nl && al->torn_bytes == vc->pend_len + 1)
		with_nl = true;
	else
		return false;
	c = vc->pctx;
	if (with_nl)
		sha256_update(&c, "\n", 1);
	sha256_final(&c, md);
	text_hex_encode(md, SHA256_BYTES, hex);
	return strcmp(hex, al->torn_sha256) == 0;
}

/* The chain check of one record against the one before. */
static void vchain(struct vcheck *vc, const struct audit_line *al)
{
	struct cordon_audit_report *rep = vc->rep;
	uint64_t want = vc->seq + 1;
	bool prev_ok = strcmp(al->prev, vc->last) == 0;

	if (!vc->started) {
		if (strcmp(al->prev, zero_hash) == 0) {
			if (al->seq != 1)
				vbad(vc, vc->file, vc->line,
				     "the first record has a zero prev but "
				     "seq %" PRIu64 " (only seq 1 starts a "
				     "chain)",
				     al->seq);
		} else if (!al->rotated) {
			vbad(vc, vc->file, vc->line,
			     "the log starts mid-chain at seq %" PRIu64
			     " (its prev is not zeros and it is not the "
			     "\"rotated\" record that starts a rotated "
			     "file): its first records were deleted",
			     al->seq);
		} else if (!vc->allow_missing_start) {
			vbad(vc, vc->file, vc->line,
			     "the oldest file present starts at seq %" PRIu64
			     " after a rotation: the files before it are "
			     "absent (rotated away past rotate_keep, or "
			     "removed; --allow-missing-start accepts that)",
			     al->seq);
		} else {
			text_addf(rep->notes, sizeof(rep->notes),
				  "the chain starts at seq %" PRIu64
				  " in %s, after a rotation: older files were "
				  "rotated away or removed",
				  al->seq, vc->names[vc->file]);
		}
		return;
	}
	if (vc->first_in_file && vc->file > 0 &&
	    (al->seq != want || !prev_ok)) {
		const char *before = vc->names[vc->file - 1];

		if (al->seq > want && vc->gaps && vc->gaps[vc->file])
			vbad(vc, vc->file, vc->line,
			     "a file is missing from the middle of the "
			     "rotation (%s; seq %" PRIu64 " where %" PRIu64
			     " was expected)",
			     vc->gaps[vc->file], al->seq, want);
		else if (al->seq > want)
			vbad(vc, vc->file, vc->line,
			     "a file is missing from the middle of the "
			     "rotation between %s and this one (seq %" PRIu64
			     " where %" PRIu64 " was expected)",
			     before, al->seq, want);
		else if (al->seq < want)
			vbad(vc, vc->file, vc->line,
			     "this file does not follow %s (seq %" PRIu64
			     " where %" PRIu64 " was expected): the files "
			     "are out of order",
			     before, al->seq, want);
		else
			vbad(vc, vc->file, vc->line,
			     "the chain breaks between files: prev is not the "
			     "last hash of %s",
			     before);
		return;
	}
	if (al->seq == want) {
		if (!prev_ok)
			vbad(vc, vc->file, vc->line,
			     "prev is not the hash of the record before: "
			     "that record was changed and re-hashed, or this "
			     "one was put in its place");
		return;
	}
	if (al->seq > want) {
		vc->jump = true;
		vc->jump_file = vc->file;
		vc->jump_line = vc->line;
		vc->jump_want = want;
		vc->jump_got = al->seq;
		return;
	}
	vbad(vc, vc->file, vc->line,
	     "seq goes back (seq %" PRIu64 " after %" PRIu64
	     "): records are out of order or repeated",
	     al->seq, vc->seq);
}

static void vc_begin_file(struct vcheck *vc, unsigned file)
{
	if (vc->pend && !vc->done)
		vreport_pend(vc);
	vc->pend = false;
	vc->file = file;
	vc->line = 0;
	vc->first_in_file = true;
	vc->prev_valid = false;
	vc->rep->files++;
}

/* One line s[0..len), nl: it ended with '\n'. */
static void vc_line(struct vcheck *vc, const char *s, size_t len, bool nl)
{
	struct audit_line al;
	char why[160];
	enum cordon_err rc;
	bool matched_pend = false;

	if (vc->done)
		return;
	vc->line++;
	rc = audit_parse_line(s, len, &al, why, sizeof(why));
	if (rc == CORDON_E_NOMEM) {
		vc->oom = true;
		vc->done = true;
		return;
	}
	if (vc->jump) {
		if (rc == CORDON_OK && al.seq == vc->jump_want)
			vbad(vc, vc->jump_file, vc->jump_line,
			     "two records are swapped: this line holds seq "
			     "%" PRIu64 " and seq %" PRIu64
			     " is at %s line %" PRIu64,
			     vc->jump_got, vc->jump_want, vc->names[vc->file],
			     vc->line);
		return;
	}
	if (vc->pend && (rc != CORDON_OK || !nl)) {
		pend_add(vc, s, len, nl);
		return;
	}
	if (vc->pend) {
		if (strcmp(al.event, "recovered") == 0 &&
		    pend_matches(vc, &al)) {
			text_addf(vc->rep->notes, sizeof(vc->rep->notes),
				  "%s line %" PRIu64 ": %zu bytes that are not "
				  "whole records (%" PRIu64 " line%s: cut by a "
				  "crash, or written by something else) were "
				  "recovered at line %" PRIu64,
				  vc->names[vc->file], vc->pend_line,
				  (size_t)al.torn_bytes, vc->pend_lines,
				  vc->pend_lines == 1 ? "" : "s", vc->line);
			vc->pend = false;
			matched_pend = true;
		} else {
			if (!vc->done)
				vreport_pend(vc);
			return;
		}
	}
	if (!nl || rc != CORDON_OK) {
		pend_start(vc, len, nl, why);
		pend_add(vc, s, len, nl);
		vc->prev_valid = false;
		return;
	}
	if (al.keyed && !vc->key) {
		vbad(vc, vc->file, vc->line,
		     "the record is keyed with HMAC-SHA-256 (key id %s): "
		     "give the key (--key-file, or audit.key_file) to check "
		     "it",
		     al.keyid);
		return;
	}
	if (al.keyed && strcmp(al.keyid, vc->key->id) != 0) {
		vbad(vc, vc->file, vc->line,
		     "the record is keyed with another key (id %s; the key "
		     "given has id %s)",
		     al.keyid, vc->key->id);
		return;
	}
	if (!al.keyed && vc->key) {
		vbad(vc, vc->file, vc->line,
		     "the record is not keyed: with a key every record must "
		     "carry its HMAC (anyone could have written this one)");
		return;
	}
	if (al.keyed)
		key_mac(vc->key, s, al.hashed, al.computed);
	if (strcmp(al.hash, al.computed) != 0) {
		vbad(vc, vc->file, vc->line,
		     "the record was changed: its hash does not match its "
		     "content (a changed byte)");
		return;
	}
	if (strcmp(al.event, "recovered") == 0 && !matched_pend) {
		if (vc->prev_valid && al.torn_bytes == vc->prev_line.len &&
		    hash_is(vc->prev_line.p, vc->prev_line.len,
			    al.torn_sha256)) {
			/* The line before was cut just before its newline:
			 * it is not part of the chain. */
			text_addf(vc->rep->notes, sizeof(vc->rep->notes),
				  "%s line %" PRIu64 ": a record cut just "
				  "before its newline was recovered at line "
				  "%" PRIu64,
				  vc->names[vc->file], vc->line - 1, vc->line);
			vc->started = vc->pre_started;
			vc->seq = vc->pre_seq;
			memcpy(vc->last, vc->pre_last, sizeof(vc->last));
			memcpy(vc->rep->head, vc->pre_last,
			       sizeof(vc->rep->head));
			vc->rep->head_seq = vc->pre_seq;
			vc->rep->records--;
		} else {
			vbad(vc, vc->file, vc->line,
			     "a recovered record names a cut line (%" PRIu64
			     " bytes) that is not the line before it",
			     al.torn_bytes);
			return;
		}
	}
	vchain(vc, &al);
	if (vc->done || vc->jump)
		return;
	vaccept(vc, s, len, &al);
	vc->first_in_file = false;
}

static void vc_finish(struct vcheck *vc)
{
	if (vc->jump && !vc->done) {
		uint64_t n = vc->jump_got - vc->jump_want;
		vbad(vc, vc->jump_file, vc->jump_line,
		     "%s deleted before it (seq %" PRIu64 " where %" PRIu64
		     " was expected)",
		     n == 1 ? "a record was" : "records were", vc->jump_got,
		     vc->jump_want);
	}
	if (vc->pend && !vc->done)
		vreport_pend(vc);
	if (vc->have_expect && !vc->done && !vc->found_expect)
		vbad(vc, vc->file, vc->line,
		     "the expected head %s is not the hash of any record: "
		     "records up to it were deleted or rewritten (or the "
		     "file that held it was rotated away)",
		     vc->expect);
	else if (vc->have_expect && !vc->done)
		text_addf(vc->rep->notes, sizeof(vc->rep->notes),
			  "the expected head is seq %" PRIu64 "; %" PRIu64
			  " record%s follow%s it",
			  vc->expect_seq, vc->rep->head_seq - vc->expect_seq,
			  vc->rep->head_seq - vc->expect_seq == 1 ? "" : "s",
			  vc->rep->head_seq - vc->expect_seq == 1 ? "s" : "");
	vc->rep->intact = !vc->done;
}

/* Pushes the lines of buf[0..n) (a whole file) to the checker. */
static void vc_buffer(struct vcheck *vc, const char *buf, size_t n)
{
	size_t off = 0;

	while (off < n && !vc->done) {
		const char *nl = memchr(buf + off, '\n', n - off);
		size_t len = nl ? (size_t)(nl - (buf + off)) : n - off;

		if (len > AUDIT_MAX_LINE) {
			if (!vc->jump)
				vbad(vc, vc->file, vc->line + 1,
				     "the line is longer than the 1 MiB limit "
				     "(AUDIT_MAX_LINE): not an audit record");
			vc_finish(vc);
			return;
		}
		vc_line(vc, buf + off, len, nl != NULL);
		off += len + (nl ? 1 : 0);
	}
}

/* A checker with the options o (NULL: the defaults) and key (borrowed),
 * reporting to rep. */
static void vc_init(struct vcheck *vc, const struct cordon_audit_verify_opts *o,
		    struct audit_key *key, struct cordon_audit_report *rep)
{
	memset(vc, 0, sizeof(*vc));
	buf_init(&vc->prev_line, SIZE_MAX);
	vc->rep = rep;
	vc->key = key;
	if (o) {
		vc->allow_missing_start = o->allow_missing_start != 0;
		if (o->expect_head) {
			vc->have_expect = true;
			memcpy(vc->expect, o->expect_head, AUDIT_HASH_HEX);
		}
	}
}

static void vc_free(struct vcheck *vc)
{
	buf_free(&vc->prev_line);
}

enum cordon_err audit_verify_buffer(const char *data, size_t len,
				    struct cordon_audit_report *rep)
{
	static const char *const name[] = { "<buffer>" };
	struct vcheck vc;

	memset(rep, 0, sizeof(*rep));
	vc_init(&vc, NULL, NULL, rep);
	vc.names = name;
	vc_begin_file(&vc, 0);
	vc_buffer(&vc, data, len);
	vc_finish(&vc);
	vc_free(&vc);
	return vc.oom ? CORDON_E_NOMEM : CORDON_OK;
}

/* Reads the file fd (name for messages) line by line into the checker. */
static enum cordon_err verify_fd(struct vcheck *vc, int fd, const char *name,
				 struct buf *buf, struct cordon_diag *diag)
{
	const size_t chunk = 1 << 16, cap = AUDIT_MAX_LINE + 2 + chunk;
	size_t have = 0, off = 0;
	bool eof = false;
	char *w;

	/* A window the file slides through, never committed. */
	buf_reset(buf);
	w = buf_space(buf, cap);
	if (!w)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit verify: out of memory");
	while (!vc->done) {
		char *nl = memchr(w + off, '\n', have - off);
		ssize_t k;

		if (nl) {
			vc_line(vc, w + off, (size_t)(nl - (w + off)), true);
			off = (size_t)(nl - w) + 1;
			continue;
		}
		if (have - off > AUDIT_MAX_LINE) {
			if (!vc->jump)
				vbad(vc, vc->file, vc->line + 1,
				     "the line is longer than the 1 MiB limit "
				     "(AUDIT_MAX_LINE): not an audit record");
			vc_finish(vc);
			break;
		}
		if (eof) {
			if (have > off)
				vc_line(vc, w + off, have - off, false);
			break;
		}
		memmove(w, w + off, have - off);
		have -= off;
		off = 0;
		k = read(fd, w + have, cap - have);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			return diag_errno(diag, CORDON_E_IO, e,
					  "audit verify: cannot read %s: %s",
					  name, strerror(e));
		}
		if (k == 0)
			eof = true;
		have += (size_t)k;
	}
	return CORDON_OK;
}

/* Opens name for reading without blocking (a FIFO would hang the
 * verifier, and with it every writer waiting for the lock it holds);
 * anything but a regular file is refused. st gets its status. */
static int open_read(const char *name, struct stat *st,
		     struct cordon_diag *diag, enum cordon_err *rc)
{
	int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int e;

	if (fd < 0) {
		e = errno;
		*rc = diag_errno(diag, CORDON_E_IO, e,
				 "audit verify: cannot open %s: %s", name,
				 strerror(e));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		e = errno;
		close(fd);
		*rc = diag_errno(diag, CORDON_E_IO, e,
				 "audit verify: cannot stat %s: %s", name,
				 strerror(e));
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		*rc = diag_errno(diag, CORDON_E_IO, 0,
				 "audit verify: %s is not a regular file (a "
				 "FIFO or device is refused)",
				 name);
		return -1;
	}
	(void)fcntl(fd, F_SETFL, 0);
	return fd;
}

/* Opens and share-locks the newest file, checking after the lock that
 * the path still names it (a writer may have rotated it while this one
 * waited: reading that file and then its new name path.1 would read it
 * twice). Holding the lock, no writer can rotate until the set is read. */
static int open_locked(const char *name, struct cordon_diag *diag,
		       enum cordon_err *rc)
{
	for (int tries = 0; tries < AUDIT_LOCK_TRIES; tries++) {
		struct stat st, ps;
		int fd = open_read(name, &st, diag, rc);

		if (fd < 0)
			return -1;
		while (flock(fd, LOCK_SH) != 0 && errno == EINTR)
			;
		if (stat(name, &ps) == 0 && ps.st_dev == st.st_dev &&
		    ps.st_ino == st.st_ino)
			return fd;
		close(fd);
	}
	*rc = diag_errno(diag, CORDON_E_IO, 0,
			 "audit verify: %s kept being replaced while waiting "
			 "for its lock (%d tries)",
			 name, AUDIT_LOCK_TRIES);
	return -1;
}

/* The rotated siblings of path that exist, oldest first, then path; gaps
 * names what is absent before each file. */
static enum cordon_err discover(const char *path, char ***list, char ***gaps,
				size_t *n, struct cordon_diag *diag)
{
	char name[PATH_MAX];
	unsigned top = 0;
	struct stat st;
	size_t k = 0;
	unsigned present_above = 0;

	for (unsigned i = 1; i <= AUDIT_MAX_KEEP; i++)
		if (rotated_name(path, i, name, sizeof(name)) &&
		    stat(name, &st) == 0)
			top = i;
	*list = cordon__calloc((size_t)top + 1, sizeof(**list));
	*gaps = cordon__calloc((size_t)top + 1, sizeof(**gaps));
	if (!*list || !*gaps)
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit verify: out of memory");
	for (unsigned i = top; i >= 1; i--) {
		if (!rotated_name(path, i, name, sizeof(name)) ||
		    stat(name, &st) != 0)
			continue;
		if (present_above && present_above - i > 1) {
			char g[PATH_MAX + 64];
			if (present_above - i == 2)
				snprintf(g, sizeof(g), "%s.%u is absent", path,
					 i + 1);
			else
				snprintf(g, sizeof(g),
					 "%s.%u to %s.%u are absent", path,
					 present_above - 1, path, i + 1);
			(*gaps)[k] = cordon__strdup(g);
		}
		(*list)[k] = cordon__strdup(name);
		*n = ++k;
		if (!(*list)[k - 1])
			return diag_errno(diag, CORDON_E_NOMEM, 0,
					  "audit verify: out of memory");
		present_above = i;
	}
	if (present_above > 1) {
		char g[PATH_MAX + 64];
		if (present_above == 2)
			snprintf(g, sizeof(g), "%s.1 is absent", path);
		else
			snprintf(g, sizeof(g), "%s.%u to %s.1 are absent", path,
				 present_above - 1, path);
		(*gaps)[k] = cordon__strdup(g);
	}
	(*list)[k] = cordon__strdup(path);
	*n = ++k;
	if (!(*list)[k - 1])
		return diag_errno(diag, CORDON_E_NOMEM, 0,
				  "audit verify: out of memory");
	return CORDON_OK;
}

/* The sync mark that covers the log file name: PATH.syncfail of the
 * newest file when verify found the rotated set itself (base), else of
 * name with a rotation's ".N" taken off. false when it does not fit. */
static bool verify_mark_names(const char *base, const char *name,
			      struct audit_mark_names *m)
{
	char path[PATH_MAX];
	size_t n = strlen(name), d = n;

	if (base)
		return mark_names(base, m);
	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d < n && d > 1 && name[d - 1] == '.' && name[d] != '0' &&
	    n - d <= 3) {
		if (d - 1 >= sizeof(path))
			return false;
		memcpy(path, name, d - 1);
		path[d - 1] = '\0';
		return mark_names(path, m);
	}
	return mark_names(name, m);
}

/* Whether the sync mark m names the file fd is open on (verify reads
 * it, never makes it): 1 yes, 0 no or no mark, -1 with *rc and diag
 * for a mark that cannot be read or is not to be trusted, as a sync
 * would refuse it (this user's regular file that others cannot write,
 * never through a symlink). Read under a shared lock: a failed sync
 * appends to it under an exclusive one. */
static int verify_marked(const struct audit_mark_names *m, int fd,
			 struct cordon_diag *diag, enum cordon_err *rc)
{
	char idtext[AUDIT_ID_TEXT];
	int mfd, hit, e = 0;

	if (!fd_id_text(fd, idtext)) {
		e = errno;
		*rc = diag_errno(diag, CORDON_E_IO, e,
				 "audit verify: cannot stat a log file: %s",
				 strerror(e));
		return -1;
	}
	mfd = open(m->mark,
		   O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (mfd < 0 && errno == ENOENT)
		return 0;
	if (mfd < 0) {
		e = errno;
		*rc = diag_errno(diag, CORDON_E_IO, e,
				 "audit verify: cannot open the sync mark %s: "
				 "%s",
				 m->mark,
				 e == ELOOP ? "it is a symlink" : strerror(e));
		return -1;
	}
	if (!mark_trusted(mfd)) {
		close(mfd);
		*rc = diag_errno(diag, CORDON_E_IO, 0,
				 "audit verify: the sync mark %s is not this "
				 "user's regular file that only its owner can "
				 "write: not trusted",
				 m->mark);
		return -1;
	}
	while (flock(mfd, LOCK_SH) != 0 && errno == EINTR)
		;
	hit = mark_has(mfd, idtext, &e);
	close(mfd);
	if (hit < 0) {
		*rc = diag_errno(diag, CORDON_E_IO, e,
				 "audit verify: cannot read the sync mark %s: "
				 "%s",
				 m->mark, strerror(e));
		return -1;
	}
	return hit;
}

enum cordon_err cordon_audit_verify(const char *const *files, size_t n,
				    struct cordon_audit_report *rep,
				    struct cordon_diag *diag)
{
	return cordon_audit_verify_ex(files, n, NULL, rep, diag);
}

enum cordon_err cordon_audit_verify_ex(const char *const *files, size_t n,
				       const struct cordon_audit_verify_opts *o,
				       struct cordon_audit_report *rep,
				       struct cordon_diag *diag)
{
	struct vcheck vc;
	struct buf buf = BUF_INIT(SIZE_MAX);
	struct audit_key *key = NULL;
	char **list = NULL, **gaps = NULL;
	size_t count = 0;
	enum cordon_err rc = CORDON_OK;
	int base_fd = -1;
	long marked = -1; /* the first file a sync mark names */
	char mark[PATH_MAX];

	if (!rep || !files || n == 0)
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit verify: no files");
	memset(rep, 0, sizeof(*rep));
	for (size_t i = 0; i < n; i++)
		if (!files[i] || !files[i][0])
			return diag_errno(diag, CORDON_E_INVAL, 0,
					  "audit verify: an empty file name");
	if (o && o->expect_head &&
	    !text_is_lower_hex(o->expect_head, strlen(o->expect_head),
			       AUDIT_HASH_HEX))
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "audit verify: the expected head is not 64 "
				  "lower-case hex digits");
	if (o && o->key_file &&
	    (rc = key_load(o->key_file, "audit verify", &key, diag)) !=
		    CORDON_OK)
		return rc;
	vc_init(&vc, o, key, rep);
	if (n == 1) {
		/* A shared lock on the newest file holds off appends and
		 * rotation while the set is read, so it is one snapshot. */
		base_fd = open_locked(files[0], diag, &rc);
		if (base_fd >= 0)
			rc = discover(files[0], &list, &gaps, &count, diag);
	}
	vc.names = list ? (const char *const *)list : files;
	vc.gaps = gaps;
	if (!list)
		count = n;
	for (size_t i = 0; rc == CORDON_OK && i < count && !vc.done; i++) {
		bool own = !(base_fd >= 0 && i == count - 1);
		struct stat st;
		int fd = own ? open_read(vc.names[i], &st, diag, &rc) : base_fd;

		if (fd < 0)
			break;
		vc_begin_file(&vc, (unsigned)i);
		rc = verify_fd(&vc, fd, vc.names[i], &buf, diag);
		if (rc == CORDON_OK && marked < 0) {
			struct audit_mark_names m;

			if (!verify_mark_names(list ? files[0] : NULL,
					       vc.names[i], &m))
				rc = diag_errno(diag, CORDON_E_IO, 0,
						"audit verify: the sync mark's "
						"name for %s is over PATH_MAX",
						vc.names[i]);
			else if (verify_marked(&m, fd, diag, &rc) > 0) {
				marked = (long)i;
				snprintf(mark, sizeof(mark), "%s", m.mark);
			}
		}
		if (own)
			close(fd);
	}
	if (rc == CORDON_OK) {
		vc_finish(&vc);
		if (vc.oom)
			rc = diag_errno(diag, CORDON_E_NOMEM, 0,
					"audit verify: out of memory");
	}
	if (rc == CORDON_OK && rep->intact && marked >= 0) {
		/* The chain reads whole, but from the page cache: what a
		 * failed write-back lost is not on disk (audit.h). */
		rep->intact = 0;
		rep->bad_line = 0;
		snprintf(rep->bad_file, sizeof(rep->bad_file), "%s",
			 vc.names[marked]);
		text_setf(rep->why, sizeof(rep->why),
			  "the chain reads intact, but an fsync of this file "
			  "failed (%s names it): records written since its "
			  "last good sync may not be on disk; check it, then "
			  "empty or remove the mark",
			  mark);
	}
	if (rc != CORDON_OK)
		rep->intact = 0;
	if (base_fd >= 0)
		close(base_fd);
	for (size_t i = 0; list && i < count; i++) {
		free(list[i]);
		free(gaps[i]);
	}
	free(list);
	free(gaps);
	buf_free(&buf);
	vc_free(&vc);
	key_free(key);
	return rc;
}
