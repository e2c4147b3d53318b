/* pins — see pins.h.
 *
 * The store is the parsed pins file itself (a cJSON document), checked
 * whole when read. Every change is a transaction: take the flock on
 * "<path>.lock", read the file again, apply the change to that fresh copy,
 * write it (temp file, fsync, rename, directory fsync) and adopt it. An
 * observation that changes nothing takes no lock and writes nothing: it is
 * decided against the copy in memory, refreshed first when the file's
 * identity (device, inode, size, mtime) moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "buf.h"
#include "diag.h"
#include "jcs.h"
#include "json.h"
#include "pins.h"
#include "mcpscan.h"
#include "alloc.h"
#include "text.h"
#include "banned.h"

/* Ceilings. The file holds whole tool definitions; 16 MiB is hundreds of
 * servers' worth. Names past 1 KiB are no tool's. */
#define PINS_MAX_FILE_BYTES ((size_t)16 * 1024 * 1024)
#define PINS_MAX_NAME 1024
#define PINS_MAX_TOOLS 10000 /* in one observation */
#define PINS_LOCK_WAIT_MS 5000

struct mcp_pins {
	char *path;
	cJSON *root; /* {"version": 1, "servers": {…}}, always */
	/* the identity of the file root was read from (have_file false: it
	 * did not exist) */
	bool have_file;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim;
};

const char *pins_state_name(enum pin_state s)
{
	switch (s) {
	case PIN_APPROVED:
		return "approved";
	case PIN_PENDING_NEW:
		return "pending-new";
	case PIN_PENDING_CHANGED:
		return "pending-changed";
	case PIN_PENDING_FLAGGED:
		return "pending-flagged";
	case PIN_UNKNOWN:
		return "unknown";
	}
	return "unknown";
}

int pins_default_path(char *buf, size_t cap)
{
	return atomic_state_path(NULL, "mcp-pins.json", buf, cap);
}

/* ---- small helpers ------------------------------------------------------- */

static void now_rfc3339(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!gmtime_r(&ts.tv_sec, &tm) ||
	    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, 32, "1970-01-01T00:00:00Z");
}

static cJSON *member(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static const char *str_member(const cJSON *obj, const char *key)
{
	const cJSON *v = member(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Sets obj[key] = item (replacing), taking item; false when out of memory
 * (item freed). */
static bool set_member(cJSON *obj, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (member(obj, key)) {
		if (cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item))
			return true;
	} else if (cJSON_AddItemToObject(obj, key, item)) {
		return true;
	}
	cJSON_Delete(item);
	return false;
}

static bool set_string(cJSON *obj, const char *key, const char *s)
{
	return set_member(obj, key,
			  s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

/* The "flags" array: "tool-poisoning", "hidden-characters" (any of the
 * three hidden classes) and then each class, "invalid-utf8", "unscanned",
 * "no-fingerprint". */
static cJSON *flags_json(unsigned flags, bool no_fingerprint)
{
	static const unsigned order[] = {
		MCPSCAN_HIDDEN_TAG, MCPSCAN_ZERO_WIDTH, MCPSCAN_BIDI,
		MCPSCAN_BAD_UTF8,   MCPSCAN_UNSCANNED,
	};
	const unsigned hidden = MCPSCAN_HIDDEN_TAG | MCPSCAN_ZERO_WIDTH |
				MCPSCAN_BIDI;
	cJSON *a = cJSON_CreateArray();
	bool good = a != NULL;

	if (good && (flags & MCPSCAN_POISONING))
		good = cJSON_AddItemToArray(
			a, cJSON_CreateString(
				   mcpscan_flag_name(MCPSCAN_POISONING)));
	if (good && (flags & hidden))
		good = cJSON_AddItemToArray(
			a, cJSON_CreateString("hidden-characters"));
	for (size_t i = 0; good && i < sizeof(order) / sizeof(order[0]); i++)
		if (flags & order[i])
			good = cJSON_AddItemToArray(
				a, cJSON_CreateString(
					   mcpscan_flag_name(order[i])));
	if (good && no_fingerprint)
		good = cJSON_AddItemToArray(
			a, cJSON_CreateString("no-fingerprint"));
	if (!good) {
		cJSON_Delete(a);
		return NULL;
	}
	return a;
}

/* ---- reading and checking the file --------------------------------------- */

/* Reads path whole (at most PINS_MAX_FILE_BYTES). *missing when it does not
 * exist; st gets its identity. */
static enum cordon_err read_file(const char *path, char **out, size_t *lenp,
				 bool *missing, struct stat *st,
				 struct cordon_diag *diag)
{
	struct buf b;
	int fd;

	*out = NULL;
	*missing = false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT) {
			*missing = true;
			return CORDON_OK;
		}
		return diag_errno(diag, CORDON_E_IO, errno,
				  "%s: cannot be read: %s", path,
				  strerror(errno));
	}
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return diag_errno(diag, CORDON_E_IO, 0,
				  "%s: is not a regular file", path);
	}
	if ((uintmax_t)st->st_size > PINS_MAX_FILE_BYTES) {
		close(fd);
		return diag_errno(diag, CORDON_E_LIMIT, 0,
				  "%s: is %jd bytes (limit %zu bytes)", path,
				  (intmax_t)st->st_size, PINS_MAX_FILE_BYTES);
	}
	/* The size is only a hint: the file may have grown since fstat
	 * (another writer does not rename over it). */
	buf_init(&b, PINS_MAX_FILE_BYTES);
	if (!buf_reserve(&b, (size_t)st->st_size)) {
		close(fd);
		return diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
	}
	if (atomic_read_all(fd, &b) != 0) {
		int err = errno;

		close(fd);
		buf_free(&b);
		if (err == EFBIG)
			return diag_errno(diag, CORDON_E_LIMIT, 0,
					  "%s: is over %zu bytes (the limit)",
					  path, PINS_MAX_FILE_BYTES);
		if (err == ENOMEM)
			return diag_errno(diag, CORDON_E_NOMEM, 0,
					  "out of memory");
		return diag_errno(diag, CORDON_E_IO, err,
				  "%s: cannot be read: %s", path,
				  strerror(err));
	}
	close(fd);
	*out = buf_take(&b, lenp);
	if (!*out)
		return diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
	return CORDON_OK;
}

/* What check_doc found wrong: the key path and the problem. */
struct bad {
	char key[160];
	const char *what;
};

static bool bad_at(struct bad *b, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool bad_at(struct bad *b, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->key, sizeof(b->key), fmt, ap);
	va_end(ap);
	b->what = what;
	return false;
}

static bool only_keys(const cJSON *obj, const char *const *allowed,
		      const char *prefix, struct bad *b)
{
	const cJSON *it;

	cJSON_ArrayForEach (it, obj) {
		bool known = false;
		for (size_t i = 0; allowed[i] && !known; i++)
			known = it->string &&
				strcmp(it->string, allowed[i]) == 0;
		if (!known)
			return bad_at(b, "unknown key", "%s.%s", prefix,
				      it->string ? it->string : "");
	}
	return true;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The members of obj have distinct names (cJSON keeps duplicates, and only
 * the first would ever be read). */
static bool distinct_names(const cJSON *obj, const char *prefix, struct bad *b,
			   bool *oom)
{
	size_t n = 0, i = 0;
	const char **names;
	const cJSON *it;
	bool good = true;

	cJSON_ArrayForEach (it, obj)
		n++;
	if (n < 2)
		return true;
	names = cordon__malloc(n * sizeof(*names));
	if (!names) {
		*oom = true;
		return false;
	}
	cJSON_ArrayForEach (it, obj)
		names[i++] = it->string ? it->string : "";
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 1; i < n && good; i++)
		if (strcmp(names[i - 1], names[i]) == 0)
			good = bad_at(b, "appears twice", "%s.%s", prefix,
				      names[i]);
	free(names);
	return good;
}

static bool opt_string(const cJSON *obj, const char *key, const char *prefix,
		       struct bad *b)
{
	const cJSON *v = member(obj, key);

	if (v && !cJSON_IsString(v))
		return bad_at(b, "expected a string", "%s.%s", prefix, key);
	return true;
}

/* sha256: 64 lower-case hex digits, or null when nullable. */
static bool check_sha(const cJSON *obj, const char *key, bool nullable,
		      const char *prefix, struct bad *b)
{
	const cJSON *v = member(obj, key);

	if (nullable && cJSON_IsNull(v))
		return true;
	if (!cJSON_IsString(v) ||
	    !text_is_lower_hex(v->valuestring, strlen(v->valuestring), 64))
		return bad_at(b,
			      nullable ? "expected 64 hex digits or null" :
					 "expected 64 hex digits",
			      "%s.%s", prefix, key);
	return true;
}

static bool check_flags(const cJSON *obj, const char *prefix, struct bad *b)
{
	const cJSON *v = member(obj, "flags"), *it;

	if (!v)
		return true;
	if (!cJSON_IsArray(v))
		return bad_at(b, "expected an array of strings", "%s.flags",
			      prefix);
	cJSON_ArrayForEach (it, v)
		if (!cJSON_IsString(it))
			return bad_at(b, "expected an array of strings",
				      "%s.flags", prefix);
	return true;
}

static bool check_reason(const cJSON *obj, const char *prefix, struct bad *b)
{
	const char *r = str_member(obj, "reason");

	if (!r || (strcmp(r, "new") != 0 && strcmp(r, "changed") != 0 &&
		   strcmp(r, "flagged") != 0))
		return bad_at(b, "expected \"new\", \"changed\" or \"flagged\"",
			      "%s.reason", prefix);
	return true;
}

static bool check_instructions(const cJSON *in, const char *prefix,
			       struct bad *b)
{
	static const char *const keys[] = { "sha256",	  "text",  "pending",
					    "reason",	  "flags", "firstSeen",
					    "approvedAt", NULL };
	static const char *const pkeys[] = { "sha256", "text", NULL };
	const cJSON *text = member(in, "text"), *pend = member(in, "pending");
	char pp[200];

	if (!cJSON_IsObject(in))
		return bad_at(b, "expected an object", "%s", prefix);
	if (!only_keys(in, keys, prefix, b) ||
	    !check_sha(in, "sha256", true, prefix, b) ||
	    !check_flags(in, prefix, b) ||
	    !opt_string(in, "firstSeen", prefix, b) ||
	    !opt_string(in, "approvedAt", prefix, b))
		return false;
	if (!(cJSON_IsString(text) ||
	      (cJSON_IsNull(text) && cJSON_IsNull(member(in, "sha256")))))
		return bad_at(b, "expected a string (null with a null sha256)",
			      "%s.text", prefix);
	if (!pend) {
		if (member(in, "reason"))
			return bad_at(b, "only with \"pending\"", "%s.reason",
				      prefix);
		if (cJSON_IsNull(member(in, "sha256")))
			return bad_at(b, "null, and nothing pending",
				      "%s.sha256", prefix);
		return true;
	}
	text_setf(pp, sizeof(pp), "%s.pending", prefix);
	if (!cJSON_IsObject(pend))
		return bad_at(b, "expected an object", "%s", pp);
	if (!only_keys(pend, pkeys, pp, b) ||
	    !check_sha(pend, "sha256", false, pp, b) ||
	    !check_reason(in, prefix, b))
		return false;
	if (!cJSON_IsString(member(pend, "text")))
		return bad_at(b, "expected a string", "%s.text", pp);
	return true;
}

static bool check_tool(const cJSON *t, const char *prefix, struct bad *b)
{
	static const char *const keys[] = {
		"state",   "reason",	"flags",      "sha256", "definition",
		"pending", "firstSeen", "approvedAt", NULL
	};
	static const char *const pkeys[] = { "sha256", "definition", NULL };
	const char *state;
	const cJSON *sha, *def, *pend;
	char pp[200];

	if (!cJSON_IsObject(t))
		return bad_at(b, "expected an object", "%s", prefix);
	if (!only_keys(t, keys, prefix, b) || !check_flags(t, prefix, b) ||
	    !opt_string(t, "firstSeen", prefix, b) ||
	    !opt_string(t, "approvedAt", prefix, b) ||
	    !check_sha(t, "sha256", true, prefix, b))
		return false;
	state = str_member(t, "state");
	sha = member(t, "sha256");
	def = member(t, "definition");
	pend = member(t, "pending");
	if (!(cJSON_IsObject(def) || (cJSON_IsNull(def) && cJSON_IsNull(sha))))
		return bad_at(b, "expected an object (null with a null sha256)",
			      "%s.definition", prefix);
	if (cJSON_IsObject(def) && cJSON_IsNull(sha))
		return bad_at(b, "null with a definition", "%s.sha256", prefix);
	if (state && strcmp(state, "approved") == 0) {
		if (cJSON_IsNull(sha))
			return bad_at(b, "null in an approved tool",
				      "%s.sha256", prefix);
		if (pend || member(t, "reason"))
			return bad_at(b, "approved, yet with pending parts",
				      "%s.state", prefix);
		return true;
	}
	if (!state || strcmp(state, "pending") != 0)
		return bad_at(b, "expected \"approved\" or \"pending\"",
			      "%s.state", prefix);
	if (!check_reason(t, prefix, b))
		return false;
	if (strcmp(str_member(t, "reason"), "changed") == 0 &&
	    cJSON_IsNull(sha))
		return bad_at(b, "null in a changed tool", "%s.sha256", prefix);
	text_setf(pp, sizeof(pp), "%s.pending", prefix);
	if (!cJSON_IsObject(pend))
		return bad_at(b, "expected an object", "%s", pp);
	if (!only_keys(pend, pkeys, pp, b) ||
	    !check_sha(pend, "sha256", true, pp, b))
		return false;
	if (!cJSON_IsObject(member(pend, "definition")))
		return bad_at(b, "expected an object", "%s.definition", pp);
	return true;
}

static bool check_doc(const cJSON *root, struct bad *b, bool *oom)
{
	static const char *const skeys[] = { "firstSeen", "instructions",
					     "tools", NULL };
	const cJSON *ver, *servers, *s, *t;
	char sp[200], tp[200];

	if (!cJSON_IsObject(root))
		return bad_at(b, "expected an object", "(top level)");
	cJSON_ArrayForEach (s, root)
		if (!s->string || (strcmp(s->string, "version") != 0 &&
				   strcmp(s->string, "servers") != 0))
			return bad_at(b, "unknown key", "%s",
				      s->string ? s->string : "");
	ver = member(root, "version");
	if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0)
		return bad_at(b, "expected 1", "version");
	servers = member(root, "servers");
	if (!cJSON_IsObject(servers))
		return bad_at(b, "expected an object", "servers");
	if (!distinct_names(servers, "servers", b, oom))
		return false;
	cJSON_ArrayForEach (s, servers) {
		const cJSON *tools, *in;

		text_setf(sp, sizeof(sp), "servers.%s", s->string);
		if (!cJSON_IsObject(s))
			return bad_at(b, "expected an object", "%s", sp);
		if (!only_keys(s, skeys, sp, b) ||
		    !opt_string(s, "firstSeen", sp, b))
			return false;
		in = member(s, "instructions");
		if (in) {
			char ip[200];
			text_setf(ip, sizeof(ip), "%s.instructions", sp);
			if (!check_instructions(in, ip, b))
				return false;
		}
		tools = member(s, "tools");
		if (!tools)
			continue;
		text_setf(tp, sizeof(tp), "%s.tools", sp);
		if (!cJSON_IsObject(tools))
			return bad_at(b, "expected an object", "%s", tp);
		if (!distinct_names(tools, tp, b, oom))
			return false;
		cJSON_ArrayForEach (t, tools) {
			char kp[200];
			text_setf(kp, sizeof(kp), "%s.%s", tp, t->string);
			if (!check_tool(t, kp, b))
				return false;
		}
	}
	return true;
}

static cJSON *empty_doc(void)
{
	cJSON *d = cJSON_CreateObject();

	if (!d || !cJSON_AddNumberToObject(d, "version", 1) ||
	    !cJSON_AddObjectToObject(d, "servers")) {
		cJSON_Delete(d);
		return NULL;
	}
	return d;
}

/* Reads and checks the file: *doc the document (an empty one when the
 * file does not exist), *st and *exists its identity. A corrupt file is
 * CORDON_E_CONFIG naming the path and the key path. */
static enum cordon_err load(const char *path, cJSON **doc, bool *exists,
			    struct stat *st, struct cordon_diag *diag)
{
	const char *end = NULL;
	struct bad b;
	bool missing, oom = false;
	size_t len = 0;
	char *buf;
	cJSON *root;
	enum cordon_err e;

	*doc = NULL;
	*exists = false;
	e = read_file(path, &buf, &len, &missing, st, diag);
	if (e != CORDON_OK)
		return e;
	if (missing) {
		*doc = empty_doc();
		return *doc ? CORDON_OK :
			      diag_errno(diag, CORDON_E_NOMEM, 0,
					 "out of memory");
	}
	*exists = true;
	/* An empty file (or only white space) is an empty store, as for
	 * approvals: the next change writes it. */
	if (strspn(buf, " \t\r\n") == len) {
		free(buf);
		*doc = empty_doc();
		return *doc ? CORDON_OK :
			      diag_errno(diag, CORDON_E_NOMEM, 0,
					 "out of memory");
	}
	if (memchr(buf, '\0', len) || json_nul_escape_at(buf, len) < len) {
		free(buf);
		return diag_errno(diag, CORDON_E_CONFIG, 0,
				  "%s: holds a NUL character", path);
	}
	/* len + 1: trailing garbage after the document is an error. */
	root = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
	if (!root) {
		size_t off = end && end >= buf ? (size_t)(end - buf) : 0;
		free(buf);
		e = diag_errno(diag, CORDON_E_CONFIG, 0,
			       "%s: not valid JSON (near byte %zu)", path, off);
		if (diag)
			diag->offset = off;
		return e;
	}
	free(buf);
	memset(&b, 0, sizeof(b));
	if (!check_doc(root, &b, &oom)) {
		cJSON_Delete(root);
		if (oom)
			return diag_errno(diag, CORDON_E_NOMEM, 0,
					  "out of memory");
		return diag_errno(diag, CORDON_E_CONFIG, 0, "%s: %s: %s", path,
				  b.key, b.what);
	}
	*doc = root;
	return CORDON_OK;
}

static void adopt(struct mcp_pins *p, cJSON *doc, bool exists,
		  const struct stat *st)
{
	cJSON_Delete(p->root);
	p->root = doc;
	p->have_file = exists;
	if (exists) {
		p->dev = st->st_dev;
		p->ino = st->st_ino;
		p->size = st->st_size;
		p->mtim = st->st_mtim;
	}
}

enum cordon_err pins_open(const char *path, struct mcp_pins **out,
			  struct cordon_diag *diag)
{
	struct mcp_pins *p;
	struct stat st;
	cJSON *doc;
	bool exists;
	enum cordon_err e;

	*out = NULL;
	if (!path || !path[0])
		return diag_errno(diag, CORDON_E_INVAL, 0, "no pins file path");
	p = cordon__calloc(1, sizeof(*p));
	if (!p || !(p->path = cordon__strdup(path))) {
		free(p);
		return diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
	}
	e = load(path, &doc, &exists, &st, diag);
	if (e != CORDON_OK) {
		pins_free(p);
		return e;
	}
	adopt(p, doc, exists, &st);
	*out = p;
	return CORDON_OK;
}

void pins_free(struct mcp_pins *p)
{
	if (!p)
		return;
	cJSON_Delete(p->root);
	free(p->path);
	free(p);
}

enum cordon_err pins_refresh(struct mcp_pins *p, bool *changed,
			     struct cordon_diag *diag)
{
	struct stat st;
	cJSON *doc;
	bool exists;
	enum cordon_err e;

	if (changed)
		*changed = false;
	if (stat(p->path, &st) != 0) {
		if (errno != ENOENT)
			return diag_errno(diag, CORDON_E_IO, errno,
					  "%s: cannot be read: %s", p->path,
					  strerror(errno));
		if (!p->have_file)
			return CORDON_OK;
	} else if (p->have_file && st.st_dev == p->dev && st.st_ino == p->ino &&
		   st.st_size == p->size &&
		   st.st_mtim.tv_sec == p->mtim.tv_sec &&
		   st.st_mtim.tv_nsec == p->mtim.tv_nsec) {
		return CORDON_OK;
	}
	e = load(p->path, &doc, &exists, &st, diag);
	if (e != CORDON_OK)
		return e;
	adopt(p, doc, exists, &st);
	if (changed)
		*changed = true;
	return CORDON_OK;
}

/* ---- writing -------------------------------------------------------------- */

/* A change under the lock: the fresh document, the lock descriptor. */
struct txn {
	int lfd;
	cJSON *doc;
	bool exists;
	struct stat st;
	char dir[4096];
	char target[4096]; /* the file written: the path, or its link's
			    * target */
};

/* Locks "<path>.lock" (creating the directory, 0700) and reads the file
 * again: t->doc is what is on disk now. A corrupt file is an error, and
 * nothing will be written over it. */
static enum cordon_err txn_begin(struct mcp_pins *p, struct txn *t,
				 struct cordon_diag *diag)
{
	char lockpath[4096];
	enum cordon_err e;

	memset(t, 0, sizeof(*t));
	t->lfd = -1;
	/* A symlinked file is written at its target, locked there. */
	if (atomic_resolve_link(p->path, t->target, sizeof(t->target)) != 0)
		return errno == ENAMETOOLONG ?
			       diag_errno(diag, CORDON_E_LIMIT, 0,
					  "%s: the path is too long", p->path) :
			       diag_errno(diag, CORDON_E_IO, errno,
					  "%s: a symbolic link to a missing "
					  "file (refused: make the target, or "
					  "remove the link)",
					  p->path);
	if (atomic_dir_of(t->target, t->dir, sizeof(t->dir)) != 0) {
		if (errno == EISDIR)
			return diag_errno(diag, CORDON_E_INVAL, 0,
					  "%s: the path names a directory",
					  p->path);
		return diag_errno(diag, CORDON_E_LIMIT, 0,
				  "%s: the path is too long (limit %zu bytes)",
				  p->path, sizeof(t->dir) - 1);
	}
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", t->target) >=
	    (int)sizeof(lockpath))
		return diag_errno(diag, CORDON_E_LIMIT, 0,
				  "%s: the path is too long (limit %zu bytes)",
				  p->path, sizeof(lockpath) - 6);
	if (atomic_mkdirs(t->dir, 0700) != 0)
		return diag_errno(diag, CORDON_E_IO, errno,
				  "%s: cannot create the directory: %s", t->dir,
				  strerror(errno));
	t->lfd = atomic_lock(lockpath, PINS_LOCK_WAIT_MS);
	if (t->lfd < 0)
		return diag_errno(diag, CORDON_E_IO, errno,
				  "%s: cannot lock: %s", lockpath,
				  strerror(errno));
	e = load(t->target, &t->doc, &t->exists, &t->st, diag);
	if (e != CORDON_OK) {
		close(t->lfd);
		t->lfd = -1;
	}
	return e;
}

/* Moves obj's members named in keys, in that order, behind the others
 * (check_doc allows no others): the file reads the same way whichever
 * change made it. */
static void reorder(cJSON *obj, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		cJSON *it =
			cJSON_DetachItemFromObjectCaseSensitive(obj, keys[i]);
		if (it)
			cJSON_AddItemToObject(obj, keys[i], it);
	}
}

static void tidy(cJSON *doc)
{
	static const char *const skeys[] = { "firstSeen", "instructions",
					     "tools", NULL };
	static const char *const ikeys[] = { "sha256",	   "text",
					     "reason",	   "flags",
					     "pending",	   "firstSeen",
					     "approvedAt", NULL };
	static const char *const tkeys[] = {
		"state",   "reason",	"flags",      "sha256", "definition",
		"pending", "firstSeen", "approvedAt", NULL
	};
	cJSON *s, *t;

	cJSON_ArrayForEach (s, member(doc, "servers")) {
		reorder(s, skeys);
		if (member(s, "instructions"))
			reorder(member(s, "instructions"), ikeys);
		cJSON_ArrayForEach (t, member(s, "tools"))
			reorder(t, tkeys);
	}
}

/* Ends a change: writes t->doc when write is set, then adopts it (the
 * freshest view either way) and releases the lock. On an error p keeps
 * what it had. */
static enum cordon_err txn_end(struct mcp_pins *p, struct txn *t, bool write,
			       struct cordon_diag *diag)
{
	enum cordon_err e = CORDON_OK;
	char *text = NULL;
	size_t len;

	if (write) {
		tidy(t->doc);
		text = cJSON_Print(t->doc);
		if (!text) {
			e = diag_errno(diag, CORDON_E_NOMEM, 0,
				       "out of memory");
			goto out;
		}
		len = strlen(text);
		if (len + 1 > PINS_MAX_FILE_BYTES) {
			e = diag_errno(
				diag, CORDON_E_LIMIT, 0,
				"%s: would be %zu bytes (limit %zu bytes)",
				p->path, len + 1, PINS_MAX_FILE_BYTES);
			goto out;
		}
		text[len] = '\n';
		if (atomic_write_file(t->target, text, len + 1, 0600) != 0) {
			e = diag_errno(diag, CORDON_E_IO, errno,
				       "%s: cannot write: %s", p->path,
				       strerror(errno));
			goto out;
		}
		if (stat(t->target, &t->st) != 0) {
			e = diag_errno(diag, CORDON_E_IO, errno,
				       "%s: cannot be read back: %s", p->path,
				       strerror(errno));
			goto out;
		}
		t->exists = true;
	}
	adopt(p, t->doc, t->exists, &t->st);
	t->doc = NULL;
out:
	cJSON_free(text);
	cJSON_Delete(t->doc);
	t->doc = NULL;
	close(t->lfd);
	t->lfd = -1;
	return e;
}

static void txn_abort(struct txn *t)
{
	cJSON_Delete(t->doc);
	t->doc = NULL;
	if (t->lfd >= 0)
		close(t->lfd);
	t->lfd = -1;
}

/* ---- observing tools ------------------------------------------------------ */

/* What is known about one tool of a listing before deciding. */
struct obs {
	const cJSON *def;
	const char *name; /* NULL: not pinned (why in skip) */
	const char *skip;
	char fp[65]; /* "" when it cannot be fingerprinted */
	char fp_why[128];
	struct mcpscan_result scan;
};

static bool obs_flagged(const struct obs *o)
{
	return o->scan.flags != 0 || !o->fp[0];
}

static enum pin_state state_of(const cJSON *entry)
{
	const char *state = str_member(entry, "state");
	const char *reason = str_member(entry, "reason");

	if (!entry)
		return PIN_UNKNOWN;
	if (state && strcmp(state, "approved") == 0)
		return PIN_APPROVED;
	if (reason && strcmp(reason, "changed") == 0)
		return PIN_PENDING_CHANGED;
	if (reason && strcmp(reason, "flagged") == 0)
		return PIN_PENDING_FLAGGED;
	return PIN_PENDING_NEW;
}

/* Appends the names of the top-level members that differ between a and b
 * ("description, inputSchema"). */
static void what_changed(const cJSON *a, const cJSON *b, char *out, size_t cap)
{
	const cJSON *it;
	size_t o = 0;

	out[0] = '\0';
	for (int side = 0; side < 2; side++) {
		const cJSON *x = side ? b : a, *y = side ? a : b;
		cJSON_ArrayForEach (it, x) {
			const cJSON *other;
			int k;
			if (!it->string)
				continue;
			other = member(y, it->string);
			if (side == 1 && other)
				continue; /* compared on the first side */
			if (other && cJSON_Compare(it, other, 1))
				continue;
			k = snprintf(out + o, cap - o, "%s%s", o ? ", " : "",
				     it->string);
			if (k < 0 || (size_t)k >= cap - o) {
				out[o] = '\0';
				return;
			}
			o += (size_t)k;
		}
	}
}

/* Fills ev's detail from the first finding, after prefix. */
static void detail_with_finding(struct pin_event *ev, const char *prefix,
				const struct obs *o)
{
	const char *f = o->scan.nfindings ? o->scan.findings[0] :
			!o->fp[0]	  ? o->fp_why :
					    "";

	if (!o->fp[0] && o->scan.nfindings == 0)
		f = o->fp_why;
	text_setf(ev->detail, sizeof(ev->detail), "%s%s%s", prefix,
		  prefix[0] && f[0] ? "; " : "", f);
}

/* Is this tool's entry already what observing o would make it? Fills ev
 * when so. */
static bool tool_stable(const cJSON *entry, const struct obs *o,
			struct pin_event *ev)
{
	const char *sha, *psha;
	const cJSON *pend;

	if (!entry)
		return false;
	sha = str_member(entry, "sha256");
	pend = member(entry, "pending");
	ev->state = state_of(entry);
	if (ev->state == PIN_APPROVED)
		return o->fp[0] && sha && strcmp(sha, o->fp) == 0;
	if (o->fp[0] && sha && strcmp(sha, o->fp) == 0)
		return false; /* back to the approved version */
	psha = str_member(pend, "sha256");
	if (o->fp[0] ? !(psha && strcmp(psha, o->fp) == 0) :
		       !(!psha &&
			 cJSON_Compare(member(pend, "definition"), o->def, 1)))
		return false;
	if (ev->state == PIN_PENDING_CHANGED) {
		char what[160];
		what_changed(member(entry, "definition"), o->def, what,
			     sizeof(what));
		text_setf(ev->detail, sizeof(ev->detail), "%s changed",
			  what[0] ? what : "definition");
	} else if (ev->state == PIN_PENDING_NEW) {
		text_setf(ev->detail, sizeof(ev->detail),
			  "new tool on a known server");
	} else {
		detail_with_finding(ev, "", o);
	}
	return true;
}

/* Applies o to tools (the server's "tools" object) under the lock. */
static enum cordon_err tool_apply(cJSON *tools, const struct obs *o,
				  bool server_known, bool trusted,
				  const char *now, struct pin_event *ev,
				  bool *wrote)
{
	bool first = !server_known || trusted;
	cJSON *entry = member(tools, o->name), *pend, *def = NULL;
	bool flagged = obs_flagged(o);
	const char *sha;

	if (tool_stable(entry, o, ev)) {
		ev->changed_file = false;
		return CORDON_OK;
	}
	*wrote = true;
	ev->changed_file = true;
	if (!entry) {
		entry = cJSON_CreateObject();
		if (!entry || !cJSON_AddItemToObject(tools, o->name, entry)) {
			cJSON_Delete(entry);
			return CORDON_E_NOMEM;
		}
		if (!set_string(entry, "firstSeen", now))
			return CORDON_E_NOMEM;
		if (first && !flagged) {
			if (!set_string(entry, "state", "approved") ||
			    !set_member(entry, "flags", flags_json(0, false)) ||
			    !set_string(entry, "sha256", o->fp) ||
			    !set_member(entry, "definition",
					cJSON_Duplicate(o->def, 1)) ||
			    !set_string(entry, "approvedAt", now))
				return CORDON_E_NOMEM;
			ev->state = PIN_APPROVED;
			ev->first_use = true;
			text_setf(ev->detail, sizeof(ev->detail), "%s",
				  server_known ? "new tool pinned (new tools "
						 "are trusted)" :
						 "pinned on first use");
			return CORDON_OK;
		}
		if (!set_string(entry, "state", "pending") ||
		    !set_string(entry, "reason", flagged ? "flagged" : "new") ||
		    !set_member(entry, "sha256", cJSON_CreateNull()) ||
		    !set_member(entry, "definition", cJSON_CreateNull()))
			return CORDON_E_NOMEM;
		ev->state = flagged ? PIN_PENDING_FLAGGED : PIN_PENDING_NEW;
		if (flagged)
			detail_with_finding(ev, "", o);
		else
			text_setf(ev->detail, sizeof(ev->detail),
				  "new tool on a known server");
	} else {
		sha = str_member(entry, "sha256");
		if (o->fp[0] && sha && strcmp(sha, o->fp) == 0) {
			/* The server went back to the approved version. */
			cJSON_DeleteItemFromObjectCaseSensitive(entry,
								"pending");
			cJSON_DeleteItemFromObjectCaseSensitive(entry,
								"reason");
			if (!set_string(entry, "state", "approved") ||
			    !set_member(entry, "flags",
					flags_json(o->scan.flags, false)))
				return CORDON_E_NOMEM;
			ev->state = PIN_APPROVED;
			text_setf(ev->detail, sizeof(ev->detail),
				  "back to the approved version");
			return CORDON_OK;
		}
		if (sha) {
			char what[160];
			if (!set_string(entry, "reason", "changed"))
				return CORDON_E_NOMEM;
			ev->state = PIN_PENDING_CHANGED;
			what_changed(member(entry, "definition"), o->def, what,
				     sizeof(what));
			text_setf(ev->detail, sizeof(ev->detail), "%s changed",
				  what[0] ? what : "definition");
			if (flagged) {
				char pre[200];
				text_setf(pre, sizeof(pre), "%s", ev->detail);
				detail_with_finding(ev, pre, o);
			}
		} else {
			if (!set_string(entry, "reason",
					flagged ? "flagged" : "new"))
				return CORDON_E_NOMEM;
			ev->state = flagged ? PIN_PENDING_FLAGGED :
					      PIN_PENDING_NEW;
			if (flagged)
				detail_with_finding(ev, "", o);
			else
				text_setf(ev->detail, sizeof(ev->detail),
					  "new tool on a known server");
		}
		if (!set_string(entry, "state", "pending"))
			return CORDON_E_NOMEM;
	}
	/* Member order in the file: state, reason, flags, sha256, … */
	if (!set_member(entry, "flags", flags_json(o->scan.flags, !o->fp[0])))
		return CORDON_E_NOMEM;
	pend = cJSON_CreateObject();
	def = cJSON_Duplicate(o->def, 1);
	if (!pend || !def ||
	    !cJSON_AddItemToObject(pend, "sha256",
				   o->fp[0] ? cJSON_CreateString(o->fp) :
					      cJSON_CreateNull())) {
		cJSON_Delete(pend);
		cJSON_Delete(def);
		return CORDON_E_NOMEM;
	}
	if (!cJSON_AddItemToObject(pend, "definition", def)) {
		cJSON_Delete(pend);
		cJSON_Delete(def);
		return CORDON_E_NOMEM;
	}
	return set_member(entry, "pending", pend) ? CORDON_OK : CORDON_E_NOMEM;
}

static int cmp_obs_names(const void *a, const void *b)
{
	const struct obs *x = *(const struct obs *const *)a;
	const struct obs *y = *(const struct obs *const *)b;
	int c = strcmp(x->name, y->name);

	/* Stable: the earlier one first, so the later ones are the
	 * duplicates. */
	return c ? c : (x < y ? -1 : x > y);
}

/* Marks every repeat of a tool name in one listing as not pinned: a name
 * stands for one definition. */
static enum cordon_err mark_duplicates(struct obs *o, size_t n)
{
	struct obs **v;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += o[i].name != NULL;
	if (k < 2)
		return CORDON_OK;
	v = cordon__malloc(k * sizeof(*v));
	if (!v)
		return CORDON_E_NOMEM;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (o[i].name)
			v[k++] = &o[i];
	qsort(v, k, sizeof(*v), cmp_obs_names);
	for (size_t i = 1; i < k; i++)
		if (strcmp(v[i - 1]->name, v[i]->name) == 0)
			v[i]->skip = "the name appears twice in one listing";
	for (size_t i = 1; i < k; i++)
		if (v[i]->skip)
			v[i]->name = NULL;
	free(v);
	return CORDON_OK;
}

static const cJSON *server_entry(const cJSON *doc, const char *server)
{
	return member(member(doc, "servers"), server);
}

/* The server's entry in doc, created (with firstSeen) when missing. */
static cJSON *server_make(cJSON *doc, const char *server, const char *now,
			  bool *wrote)
{
	cJSON *servers = member(doc, "servers");
	cJSON *s = member(servers, server);

	if (s)
		return s;
	s = cJSON_CreateObject();
	if (!s || !cJSON_AddItemToObject(servers, server, s)) {
		cJSON_Delete(s);
		return NULL;
	}
	*wrote = true;
	if (!set_string(s, "firstSeen", now))
		return NULL;
	return s;
}

static enum cordon_err check_server_name(const char *server,
					 struct cordon_diag *diag)
{
	size_t n = server ? strnlen(server, PINS_MAX_NAME + 1) : 0;

	if (n == 0)
		return diag_errno(diag, CORDON_E_INVAL, 0, "no server name");
	if (n > PINS_MAX_NAME)
		return diag_errno(
			diag, CORDON_E_LIMIT, 0,
			"the server name is over %d bytes (the limit)",
			PINS_MAX_NAME);
	return CORDON_OK;
}

/* Scans and fingerprints every tool of the listing. */
static enum cordon_err observe_prepare(const cJSON *tools, struct obs *o,
				       size_t n)
{
	const cJSON *t;
	size_t i = 0;

	cJSON_ArrayForEach (t, tools) {
		const cJSON *name = member(t, "name");
		struct cordon_diag d;

		o[i].def = t;
		mcpscan_tool(t, &o[i].scan);
		if (!cJSON_IsObject(t)) {
			o[i].skip = "not a tool object";
		} else if (!cJSON_IsString(name) || !name->valuestring[0]) {
			o[i].skip = "the tool has no name";
		} else if (strnlen(name->valuestring, PINS_MAX_NAME + 1) >
			   PINS_MAX_NAME) {
			o[i].skip = "the tool name is over 1024 bytes (the "
				    "limit)";
		} else {
			o[i].name = name->valuestring;
		}
		memset(&d, 0, sizeof(d));
		if (o[i].name) {
			enum cordon_err e = jcs_fingerprint(t, o[i].fp, &d);
			if (e == CORDON_E_NOMEM)
				return e;
			if (e != CORDON_OK) {
				o[i].fp[0] = '\0';
				text_setf(o[i].fp_why, sizeof(o[i].fp_why),
					  "cannot be fingerprinted: %s",
					  d.message[0] ? d.message :
							 cordon_strerror(e));
			}
		}
		i++;
	}
	(void)n;
	return mark_duplicates(o, n);
}

static void skipped_event(const struct obs *o, struct pin_event *ev)
{
	ev->state = PIN_PENDING_FLAGGED;
	text_setf(ev->detail, sizeof(ev->detail), "not pinned: %s", o->skip);
}

enum cordon_err pins_observe(struct mcp_pins *p, const char *server,
			     const cJSON *tools, bool server_known,
			     bool new_tools_trusted, struct pin_event **events,
			     size_t *nevents, struct cordon_diag *diag)
{
	struct pin_event *ev = NULL;
	struct obs *o = NULL;
	struct txn t;
	char now[32];
	size_t n;
	bool need = false, wrote = false;
	enum cordon_err e;
	cJSON *srv, *ttools;
	const cJSON *known;

	*events = NULL;
	*nevents = 0;
	if ((e = check_server_name(server, diag)) != CORDON_OK)
		return e;
	if (!cJSON_IsArray(tools))
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "tools: expected an array");
	n = (size_t)cJSON_GetArraySize(tools);
	if (n > PINS_MAX_TOOLS)
		return diag_errno(diag, CORDON_E_LIMIT, 0,
				  "%zu tools in one listing (limit %d)", n,
				  PINS_MAX_TOOLS);
	o = cordon__calloc(n ? n : 1, sizeof(*o));
	ev = cordon__calloc(n ? n : 1, sizeof(*ev));
	if (!o || !ev) {
		e = diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
		goto out;
	}
	if ((e = observe_prepare(tools, o, n)) != CORDON_OK) {
		diag_errno(diag, e, 0, "out of memory");
		goto out;
	}

	/* Without the lock: does anything change? */
	if ((e = pins_refresh(p, NULL, diag)) != CORDON_OK)
		goto out;
	known = member(server_entry(p->root, server), "tools");
	need = !known;
	for (size_t i = 0; i < n && !need; i++) {
		if (!o[i].name)
			continue;
		need = !tool_stable(member(known, o[i].name), &o[i], &ev[i]);
	}
	if (!need) {
		for (size_t i = 0; i < n; i++) {
			if (!o[i].name)
				skipped_event(&o[i], &ev[i]);
			ev[i].scan_flags = o[i].scan.flags;
			memcpy(ev[i].fingerprint, o[i].fp, sizeof(o[i].fp));
		}
		goto done;
	}

	/* Under the lock, against the file as it is now. */
	if ((e = txn_begin(p, &t, diag)) != CORDON_OK)
		goto out;
	now_rfc3339(now);
	memset(ev, 0, n * sizeof(*ev));
	srv = server_make(t.doc, server, now, &wrote);
	ttools = srv ? member(srv, "tools") : NULL;
	if (srv && !ttools) {
		ttools = cJSON_AddObjectToObject(srv, "tools");
		wrote = true;
	}
	if (!ttools) {
		txn_abort(&t);
		e = diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		ev[i].scan_flags = o[i].scan.flags;
		memcpy(ev[i].fingerprint, o[i].fp, sizeof(o[i].fp));
		if (!o[i].name) {
			skipped_event(&o[i], &ev[i]);
			continue;
		}
		e = tool_apply(ttools, &o[i], server_known, new_tools_trusted,
			       now, &ev[i], &wrote);
		if (e != CORDON_OK) {
			txn_abort(&t);
			diag_errno(diag, e, 0, "out of memory");
			goto out;
		}
	}
	if ((e = txn_end(p, &t, wrote, diag)) != CORDON_OK)
		goto out;
	if (!wrote)
		for (size_t i = 0; i < n; i++)
			ev[i].changed_file = false;
done:
	*events = ev;
	*nevents = n;
	ev = NULL;
	e = CORDON_OK;
out:
	free(o);
	free(ev);
	return e;
}

bool pins_server_known(const struct mcp_pins *p, const char *server)
{
	if (!p || !server)
		return false;
	return cJSON_IsObject(member(server_entry(p->root, server), "tools"));
}

/* ---- instructions -------------------------------------------------------- */

/* Is the instructions entry already what observing (fp) would make it? */
static bool instr_stable(const cJSON *in, const char *fp, struct pin_event *ev)
{
	const char *sha = str_member(in, "sha256");
	const cJSON *pend = member(in, "pending");
	const char *psha = str_member(pend, "sha256");

	if (!pend) {
		ev->state = PIN_APPROVED;
		return sha && strcmp(sha, fp) == 0;
	}
	if (sha && strcmp(sha, fp) == 0)
		return false;
	ev->state = state_of(in);
	text_setf(ev->detail, sizeof(ev->detail), "instructions %s",
		  ev->state == PIN_PENDING_CHANGED ? "changed" :
		  ev->state == PIN_PENDING_NEW	   ? "new on a known server" :
						     "flagged");
	return psha && strcmp(psha, fp) == 0;
}

enum cordon_err pins_observe_instructions(struct mcp_pins *p,
					  const char *server,
					  const char *instructions,
					  struct pin_event *ev,
					  struct cordon_diag *diag)
{
	const char *text = instructions ? instructions : "";
	struct mcpscan_result scan;
	struct cordon_diag d;
	char fp[65], now[32];
	cJSON *str, *srv, *in, *pend;
	const cJSON *cur;
	bool wrote = false, flagged, first;
	struct txn t;
	enum cordon_err e;

	memset(ev, 0, sizeof(*ev));
	if ((e = check_server_name(server, diag)) != CORDON_OK)
		return e;
	memset(&scan, 0, sizeof(scan));
	mcpscan_text(text, strlen(text), "instructions", &scan);
	ev->scan_flags = scan.flags;
	str = cJSON_CreateString(text);
	if (!str)
		return diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
	memset(&d, 0, sizeof(d));
	e = jcs_fingerprint(str, fp, &d);
	cJSON_Delete(str);
	if (e == CORDON_E_NOMEM)
		return diag_errno(diag, e, 0, "out of memory");
	if (e != CORDON_OK) {
		/* Instructions that cannot be fingerprinted (invalid UTF-8)
		 * cannot be pinned; they are reported, as pending ones are. */
		ev->state = PIN_PENDING_FLAGGED;
		text_setf(ev->detail, sizeof(ev->detail),
			  "instructions cannot be fingerprinted: %s",
			  d.message);
		return CORDON_OK;
	}
	memcpy(ev->fingerprint, fp, sizeof(fp));
	flagged = scan.flags != 0;

	if ((e = pins_refresh(p, NULL, diag)) != CORDON_OK)
		return e;
	cur = member(server_entry(p->root, server), "instructions");
	if (cur ? instr_stable(cur, fp, ev) : !text[0]) {
		if (!cur)
			ev->state = PIN_APPROVED;
		return CORDON_OK;
	}

	if ((e = txn_begin(p, &t, diag)) != CORDON_OK)
		return e;
	now_rfc3339(now);
	memset(ev, 0, sizeof(*ev));
	ev->scan_flags = scan.flags;
	memcpy(ev->fingerprint, fp, sizeof(fp));
	in = (cJSON *)member(server_entry(t.doc, server), "instructions");
	if (in ? instr_stable(in, fp, ev) : !text[0]) {
		if (!in)
			ev->state = PIN_APPROVED;
		return txn_end(p, &t, false, diag);
	}
	/* First use: the server has never been listed. */
	first = !cJSON_IsObject(member(server_entry(t.doc, server), "tools"));
	srv = server_make(t.doc, server, now, &wrote);
	if (!srv)
		goto nomem;
	wrote = true;
	ev->changed_file = true;
	if (!in) {
		in = cJSON_CreateObject();
		if (!in || !cJSON_AddItemToObject(srv, "instructions", in)) {
			cJSON_Delete(in);
			goto nomem;
		}
		if (!set_string(in, "firstSeen", now))
			goto nomem;
		if (first && !flagged) {
			if (!set_string(in, "sha256", fp) ||
			    !set_string(in, "text", text) ||
			    !set_member(in, "flags", flags_json(0, false)) ||
			    !set_string(in, "approvedAt", now))
				goto nomem;
			ev->state = PIN_APPROVED;
			ev->first_use = true;
			text_setf(ev->detail, sizeof(ev->detail),
				  "instructions pinned on first use");
			return txn_end(p, &t, true, diag);
		}
		if (!set_member(in, "sha256", cJSON_CreateNull()) ||
		    !set_member(in, "text", cJSON_CreateNull()))
			goto nomem;
	} else if (str_member(in, "sha256") &&
		   strcmp(str_member(in, "sha256"), fp) == 0) {
		cJSON_DeleteItemFromObjectCaseSensitive(in, "pending");
		cJSON_DeleteItemFromObjectCaseSensitive(in, "reason");
		if (!set_member(in, "flags", flags_json(scan.flags, false)))
			goto nomem;
		ev->state = PIN_APPROVED;
		text_setf(ev->detail, sizeof(ev->detail),
			  "instructions back to the approved version");
		return txn_end(p, &t, true, diag);
	}
	ev->state = str_member(in, "sha256") ? PIN_PENDING_CHANGED :
		    flagged		     ? PIN_PENDING_FLAGGED :
					       PIN_PENDING_NEW;
	if (!set_string(in, "reason",
			ev->state == PIN_PENDING_CHANGED ? "changed" :
			ev->state == PIN_PENDING_FLAGGED ? "flagged" :
							   "new") ||
	    !set_member(in, "flags", flags_json(scan.flags, false)))
		goto nomem;
	pend = cJSON_CreateObject();
	if (!pend || !cJSON_AddStringToObject(pend, "sha256", fp) ||
	    !cJSON_AddStringToObject(pend, "text", text)) {
		cJSON_Delete(pend);
		goto nomem;
	}
	if (!set_member(in, "pending", pend))
		goto nomem;
	text_setf(ev->detail, sizeof(ev->detail), "instructions %s%s%s",
		  ev->state == PIN_PENDING_CHANGED ? "changed" :
		  ev->state == PIN_PENDING_FLAGGED ? "flagged" :
						     "new on a known server",
		  scan.nfindings ? ": " : "",
		  scan.nfindings ? scan.findings[0] : "");
	return txn_end(p, &t, true, diag);
nomem:
	txn_abort(&t);
	return diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
}

/* ---- queries --------------------------------------------------------------- */

enum pin_state pins_lookup(const struct mcp_pins *p, const char *server,
			   const char *tool, const cJSON **approved)
{
	const cJSON *entry, *def;

	if (approved)
		*approved = NULL;
	if (!p || !server || !tool)
		return PIN_UNKNOWN;
	entry = member(member(server_entry(p->root, server), "tools"), tool);
	if (!entry)
		return PIN_UNKNOWN;
	def = member(entry, "definition");
	if (approved && cJSON_IsObject(def))
		*approved = def;
	return state_of(entry);
}

enum cordon_err pins_versions(const struct mcp_pins *p, const char *server,
			      const char *tool, const cJSON **approved,
			      const cJSON **pending)
{
	const cJSON *srv, *entry, *def, *pdef;

	*approved = NULL;
	*pending = NULL;
	if (!p || !server || !tool)
		return CORDON_E_INVAL;
	srv = server_entry(p->root, server);
	entry = member(member(srv, "tools"), tool);
	if (!entry)
		return CORDON_E_INVAL;
	def = member(entry, "definition");
	pdef = member(member(entry, "pending"), "definition");
	*approved = cJSON_IsObject(def) ? def : NULL;
	*pending = cJSON_IsObject(pdef) ? pdef : NULL;
	return CORDON_OK;
}

char *pins_to_json(const struct mcp_pins *p)
{
	return cJSON_PrintUnformatted(p->root);
}

/* ---- approving and forgetting --------------------------------------------- */

/* Makes entry's pending version the approved one. false: out of memory. */
static bool approve_tool(cJSON *entry, const char *now)
{
	cJSON *pend = cJSON_DetachItemFromObjectCaseSensitive(entry, "pending");
	cJSON *psha = cJSON_DetachItemFromObjectCaseSensitive(pend, "sha256");
	cJSON *pdef =
		cJSON_DetachItemFromObjectCaseSensitive(pend, "definition");
	bool good;

	cJSON_Delete(pend);
	cJSON_DeleteItemFromObjectCaseSensitive(entry, "reason");
	good = set_string(entry, "state", "approved") &&
	       set_member(entry, "sha256", psha) &&
	       set_member(entry, "definition", pdef) &&
	       set_string(entry, "approvedAt", now);
	return good;
}

static bool approve_instructions(cJSON *in, const char *now)
{
	cJSON *pend = cJSON_DetachItemFromObjectCaseSensitive(in, "pending");
	cJSON *psha = cJSON_DetachItemFromObjectCaseSensitive(pend, "sha256");
	cJSON *ptext = cJSON_DetachItemFromObjectCaseSensitive(pend, "text");

	cJSON_Delete(pend);
	cJSON_DeleteItemFromObjectCaseSensitive(in, "reason");
	return set_member(in, "sha256", psha) &&
	       set_member(in, "text", ptext) &&
	       set_string(in, "approvedAt", now);
}

enum cordon_err pins_approve(struct mcp_pins *p, const char *server,
			     const char *tool, size_t *napproved,
			     struct cordon_diag *diag)
{
	struct txn t;
	char now[32];
	cJSON *srv, *tools, *entry, *in;
	size_t n = 0;
	enum cordon_err e;

	if (napproved)
		*napproved = 0;
	if ((e = check_server_name(server, diag)) != CORDON_OK)
		return e;
	if ((e = txn_begin(p, &t, diag)) != CORDON_OK)
		return e;
	now_rfc3339(now);
	srv = (cJSON *)server_entry(t.doc, server);
	if (!srv) {
		txn_abort(&t);
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "unknown server \"%s\"", server);
	}
	tools = member(srv, "tools");
	if (tool) {
		const cJSON *pend;
		entry = member(tools, tool);
		if (!entry) {
			txn_abort(&t);
			return diag_errno(
				diag, CORDON_E_INVAL, 0,
				"unknown tool \"%s\" of server \"%s\"", tool,
				server);
		}
		pend = member(entry, "pending");
		if (pend && !str_member(pend, "sha256")) {
			txn_abort(&t);
			return diag_errno(diag, CORDON_E_INVAL, 0,
					  "\"%s\" of server \"%s\" cannot be "
					  "approved: its definition has no "
					  "fingerprint (invalid JSON text)",
					  tool, server);
		}
		if (pend) {
			if (!approve_tool(entry, now))
				goto nomem;
			n++;
		}
	} else {
		cJSON_ArrayForEach (entry, tools) {
			const cJSON *pend = member(entry, "pending");
			/* One without a fingerprint stays pending. */
			if (!pend || !str_member(pend, "sha256"))
				continue;
			if (!approve_tool(entry, now))
				goto nomem;
			n++;
		}
		in = member(srv, "instructions");
		if (member(in, "pending")) {
			if (!approve_instructions(in, now))
				goto nomem;
			n++;
		}
	}
	if (napproved)
		*napproved = n;
	return txn_end(p, &t, n > 0, diag);
nomem:
	txn_abort(&t);
	return diag_errno(diag, CORDON_E_NOMEM, 0, "out of memory");
}

enum cordon_err pins_reset(struct mcp_pins *p, const char *server,
			   struct cordon_diag *diag)
{
	struct txn t;
	enum cordon_err e;

	if ((e = check_server_name(server, diag)) != CORDON_OK)
		return e;
	if ((e = txn_begin(p, &t, diag)) != CORDON_OK)
		return e;
	if (!server_entry(t.doc, server)) {
		txn_abort(&t);
		return diag_errno(diag, CORDON_E_INVAL, 0,
				  "unknown server \"%s\"", server);
	}
	cJSON_DeleteItemFromObjectCaseSensitive(member(t.doc, "servers"),
						server);
	return txn_end(p, &t, true, diag);
}
