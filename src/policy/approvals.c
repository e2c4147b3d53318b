/* approvals — see approvals.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "approvals.h"
#include "buf.h"
#include "strlist.h"
#include "atomic.h"
#include "classify_int.h"
#include "cmdtab.h"
#include "json.h"
#include "wrappers.h"
#include "alloc.h"
#include "text.h"
#include "banned.h"

/* Ceilings. A file past them is treated as corrupt (no durable rules): an
 * approvals file is written one grant at a time, so megabytes or tens of
 * thousands of rules mean something else wrote it. */
#define APPROVALS_MAX_RULES ((size_t)10000)
#define APPROVALS_MAX_GRANTS ((size_t)10000)
#define APPROVALS_MAX_WARNINGS ((size_t)64)
/* How long approvals_record waits for another process's lock. */

const char *cordon_answer_name(enum cordon_answer a)
{
	switch (a) {
	case CORDON_ANSWER_ALLOW_ONCE:
		return "allow_once";
	case CORDON_ANSWER_ALLOW_SESSION:
		return "allow_session";
	case CORDON_ANSWER_ALLOW_ALWAYS:
		return "allow_always";
	case CORDON_ANSWER_DENY_ONCE:
		return "deny_once";
	case CORDON_ANSWER_DENY_SESSION:
		return "deny_session";
	case CORDON_ANSWER_DENY_ALWAYS:
		return "deny_always";
	case CORDON_ANSWER_ABORT:
		return "abort";
	case CORDON_ANSWER_TIMED_OUT:
		return "timed_out";
	}
	return "unknown";
}

/* ---- small helpers ------------------------------------------------------- */

static void rule_free(struct approvals_rule *r)
{
	free(r->tool);
	strlist_clear(&r->prefix);
	free(r->value);
	free(r->session);
	memset(r, 0, sizeof(*r));
}

static void rules_free(struct approvals_rule *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rule_free(&v[i]);
	free(v);
}

static bool rule_copy(struct approvals_rule *dst, const struct approvals_rule *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->decision = src->decision;
	dst->match = src->match;
	dst->labels = src->labels;
	dst->bounded = src->bounded;
	dst->tool = cordon__strdup(src->tool);
	if (!dst->tool || !strlist_copy(&dst->prefix, &src->prefix))
		goto fail;
	if (src->value && !(dst->value = cordon__strdup(src->value)))
		goto fail;
	if (src->session && !(dst->session = cordon__strdup(src->session)))
		goto fail;
	return true;
fail:
	rule_free(dst);
	return false;
}

/* Same tool, decision and coverage (session and creation time aside)? */
static bool rule_same(const struct approvals_rule *a, const struct approvals_rule *b)
{
	if (strcmp(a->tool, b->tool) != 0 || a->decision != b->decision ||
	    a->match != b->match || a->bounded != b->bounded ||
	    (a->bounded && a->labels != b->labels))
		return false;
	switch (a->match) {
	case APPROVALS_TOOL:
		return true;
	case APPROVALS_PREFIX:
		return strlist_equal(&a->prefix, &b->prefix);
	case APPROVALS_EXACT:
	case APPROVALS_PATH:
		return strcmp(a->value, b->value) == 0;
	}
	return false;
}

/* Copies s into dst for a message: control bytes become '?', and long text
 * is cut with "..." (file contents are not trusted to be printable). */
static void safe_text(char *dst, size_t cap, const char *s)
{
	size_t o = 0;
	const size_t keep = cap > 4 ? cap - 4 : 0;

	if (cap == 0)
		return;
	for (; *s && o + 1 < cap; s++) {
		unsigned char c = (unsigned char)*s;
		if (o >= keep && s[1]) {
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		dst[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	dst[o] = '\0';
}

__attribute__((format(printf, 2, 3))) static enum cordon_err
add_warning(struct approvals_store *st, const char *fmt, ...)
{
	char buf[512];
	char **nw;
	va_list ap;

	if (st->nwarnings > APPROVALS_MAX_WARNINGS)
		return CORDON_OK;
	if (st->nwarnings == APPROVALS_MAX_WARNINGS) {
		snprintf(buf, sizeof(buf),
			 "more approvals warnings not shown (limit %zu)",
			 APPROVALS_MAX_WARNINGS);
	} else {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
	}
	nw = cordon__realloc(st->warnings, (st->nwarnings + 1) * sizeof(*nw));
	if (!nw)
		return CORDON_E_NOMEM;
	st->warnings = nw;
	nw[st->nwarnings] = cordon__strdup(buf);
	if (!nw[st->nwarnings])
		return CORDON_E_NOMEM;
	st->nwarnings++;
	return CORDON_OK;
}

/* ---- reading the file ---------------------------------------------------- */

/* What one read of the approvals file gave. */
struct loaded {
	cJSON *root; /* the document (NULL: missing or corrupt) */
	struct approvals_rule *rules; /* the usable rules */
	size_t nrules;
	size_t nfile_rules; /* entries in "rules", dropped ones included */
	bool missing; /* no file: an empty store */
	bool corrupt; /* not all of it is usable: why says what is wrong
		       * (the first problem); rules holds its deny rules
		       * that could be read */
	bool unusable; /* corrupt and no rule could be read at all */
	bool io_error; /* exists but could not be read */
	char why[256];
};

static void loaded_free(struct loaded *ld)
{
	cJSON_Delete(ld->root);
	rules_free(ld->rules, ld->nrules);
	memset(ld, 0, sizeof(*ld));
}

__attribute__((format(printf, 2, 3))) static void
set_corrupt(struct loaded *ld, const char *fmt, ...)
{
	va_list ap;

	/* The first problem is the one to fix first. */
	if (ld->corrupt)
		return;
	ld->corrupt = true;
	va_start(ap, fmt);
	vsnprintf(ld->why, sizeof(ld->why), fmt, ap);
	va_end(ap);
}

/* Reads the whole file, at most APPROVALS_MAX_FILE_BYTES, NUL-terminated. */
static char *read_bounded(const char *path, size_t *lenp, struct loaded *ld)
{
	struct stat sb;
	struct buf b = BUF_INIT(APPROVALS_MAX_FILE_BYTES);
	char *text;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT) {
			ld->missing = true;
			return NULL;
		}
		ld->io_error = true;
		set_corrupt(ld, "cannot be read: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		set_corrupt(ld, "is not a regular file");
		ld->io_error = true;
		goto fail;
	}
	if ((uintmax_t)sb.st_size > APPROVALS_MAX_FILE_BYTES) {
		set_corrupt(ld, "is %jd bytes (limit %zu bytes)",
			    (intmax_t)sb.st_size, APPROVALS_MAX_FILE_BYTES);
		goto fail;
	}
	if (atomic_read_all(fd, &b) != 0) {
		if (errno == EFBIG) {
			set_corrupt(ld, "is over %zu bytes (the limit)",
				    APPROVALS_MAX_FILE_BYTES);
		} else if (errno == ENOMEM) {
			set_corrupt(ld, "out of memory");
		} else {
			ld->io_error = true;
			set_corrupt(ld, "cannot be read: %s", strerror(errno));
		}
		goto fail;
	}
	close(fd);
	text = buf_take(&b, lenp);
	if (!text)
		set_corrupt(ld, "out of memory");
	return text;
fail:
	buf_free(&b);
	close(fd);
	return NULL;
}

/* An array of strings into l (copies). false: not an array of strings. */
static bool json_strlist(const cJSON *arr, struct strlist *l, bool *oom)
{
	size_t n = 0, i = 0;
	const cJSON *it;

	l->v = NULL;
	l->n = 0;
	if (!cJSON_IsArray(arr))
		return false;
	cJSON_ArrayForEach (it, arr) {
		if (!cJSON_IsString(it) || !it->valuestring)
			return false;
		n++;
	}
	if (n == 0)
		return true;
	l->v = cordon__calloc(n, sizeof(*l->v));
	if (!l->v) {
		*oom = true;
		return false;
	}
	cJSON_ArrayForEach (it, arr) {
		l->v[i] = cordon__strdup(it->valuestring);
		if (!l->v[i]) {
			l->n = i;
			strlist_clear(l);
			*oom = true;
			return false;
		}
		i++;
	}
	l->n = n;
	return true;
}

/* Checks the match / not_match examples of rule r (index i): a prefix rule
 * must match every "match" example and no "not_match" one; an exact rule
 * the same by string equality. Returns NULL when they pass, else a static
 * description of the first failure and its index in *which. */
static const char *examples_fail(const struct approvals_rule *r,
				 const struct strlist *match,
				 const struct strlist *not_match,
				 size_t *which)
{
	for (size_t j = 0; j < match->n; j++) {
		bool m = r->match == APPROVALS_PREFIX ?
				 cmdwords_matches_prefix(&r->prefix,
							 match->v[j]) :
				 strcmp(r->value, match->v[j]) == 0;
		if (!m) {
			*which = j;
			return "match";
		}
	}
	for (size_t j = 0; j < not_match->n; j++) {
		bool m = r->match == APPROVALS_PREFIX ?
				 cmdwords_matches_prefix(&r->prefix,
							 not_match->v[j]) :
				 strcmp(r->value, not_match->v[j]) == 0;
		if (m) {
			*which = j;
			return "not_match";
		}
	}
	return NULL;
}

/* The keys a rule object may carry. */
enum rule_key {
	RK_TOOL,
	RK_DECISION,
	RK_PREFIX,
	RK_COMMAND,
	RK_PATH,
	RK_MATCH,
	RK_NOT_MATCH,
	RK_CREATED,
	RK_SESSION,
	RK_LABELS,
	RK_COUNT
};

static const char *const rule_keys[RK_COUNT] = {
	[RK_TOOL] = "tool",
	[RK_DECISION] = "decision",
	[RK_PREFIX] = "commandPrefix",
	[RK_COMMAND] = "command",
	[RK_PATH] = "path",
	[RK_MATCH] = "match",
	[RK_NOT_MATCH] = "not_match",
	[RK_CREATED] = "created",
	[RK_SESSION] = "session",
	[RK_LABELS] = "labels",
};

/* rules[i].labels into r: label names, with commandPrefix only. */
static bool parse_labels(const cJSON *arr, size_t i, struct approvals_rule *r,
			 struct loaded *ld)
{
	const cJSON *it;

	if (r->match != APPROVALS_PREFIX || !cJSON_IsArray(arr)) {
		set_corrupt(ld,
			    "rules[%zu].labels: expected an array of label "
			    "names, beside commandPrefix",
			    i);
		return false;
	}
	cJSON_ArrayForEach (it, arr) {
		int b = cJSON_IsString(it) ?
				cordon_label_from_name(
					it->valuestring,
					strlen(it->valuestring)) :
				-1;
		if (b < 0 || b > 63) {
			set_corrupt(ld, "rules[%zu].labels: not a label name",
				    i);
			return false;
		}
		r->labels |= UINT64_C(1) << b;
	}
	r->bounded = true;
	return true;
}

/* Parses rules[i] into *r. Shape errors set ld corrupt (the whole file is
 * then unusable: a misspelt key must not widen a rule). Returns false on a
 * shape error or when out of memory (*oom). The examples go to match and
 * not_match for the caller to check. */
static bool parse_rule(const cJSON *obj, size_t i, struct approvals_rule *r,
		       struct strlist *match, struct strlist *not_match,
		       struct loaded *ld, bool *oom)
{
	const cJSON *field[RK_COUNT] = { 0 };
	const cJSON *it;
	char key[64];
	int kinds = 0;

	memset(r, 0, sizeof(*r));
	if (!cJSON_IsObject(obj)) {
		set_corrupt(ld, "rules[%zu]: expected an object", i);
		return false;
	}
	cJSON_ArrayForEach (it, obj) {
		int k;
		for (k = 0; k < RK_COUNT; k++)
			if (it->string && strcmp(it->string, rule_keys[k]) == 0)
				break;
		safe_text(key, sizeof(key), it->string ? it->string : "");
		if (k == RK_COUNT) {
			set_corrupt(ld, "rules[%zu]: unknown key \"%s\"", i,
				    key);
			return false;
		}
		if (field[k]) {
			set_corrupt(ld, "rules[%zu]: duplicate key \"%s\"", i,
				    key);
			return false;
		}
		field[k] = it;
	}
	if (!cJSON_IsString(field[RK_TOOL]) ||
	    !field[RK_TOOL]->valuestring[0]) {
		set_corrupt(ld, "rules[%zu].tool: expected a non-empty string",
			    i);
		return false;
	}
	if (cJSON_IsString(field[RK_DECISION]) &&
	    strcmp(field[RK_DECISION]->valuestring, "allow") == 0) {
		r->decision = CORDON_ALLOW;
	} else if (cJSON_IsString(field[RK_DECISION]) &&
		   strcmp(field[RK_DECISION]->valuestring, "deny") == 0) {
		r->decision = CORDON_DENY;
	} else {
		set_corrupt(ld,
			    "rules[%zu].decision: expected \"allow\" or "
			    "\"deny\"",
			    i);
		return false;
	}
	for (int k = RK_CREATED; k <= RK_SESSION; k++) {
		if (field[k] && !cJSON_IsString(field[k])) {
			set_corrupt(ld, "rules[%zu].%s: expected a string", i,
				    rule_keys[k]);
			return false;
		}
	}
	kinds = !!field[RK_PREFIX] + !!field[RK_COMMAND] + !!field[RK_PATH];
	if (kinds > 1) {
		set_corrupt(ld,
			    "rules[%zu]: at most one of commandPrefix, "
			    "command, path",
			    i);
		return false;
	}
	r->match = APPROVALS_TOOL;
	if (field[RK_PREFIX]) {
		r->match = APPROVALS_PREFIX;
		if (!json_strlist(field[RK_PREFIX], &r->prefix, oom) ||
		    r->prefix.n == 0) {
			if (!*oom)
				set_corrupt(ld,
					    "rules[%zu].commandPrefix: "
					    "expected a non-empty array of "
					    "strings",
					    i);
			goto fail;
		}
	}
	for (int k = RK_COMMAND; k <= RK_PATH; k++) {
		if (!field[k])
			continue;
		if (!cJSON_IsString(field[k]) || !field[k]->valuestring[0]) {
			set_corrupt(ld,
				    "rules[%zu].%s: expected a non-empty "
				    "string",
				    i, rule_keys[k]);
			goto fail;
		}
		r->match = k == RK_COMMAND ? APPROVALS_EXACT : APPROVALS_PATH;
		r->value = cordon__strdup(field[k]->valuestring);
		if (!r->value) {
			*oom = true;
			goto fail;
		}
	}
	if (field[RK_LABELS] && !parse_labels(field[RK_LABELS], i, r, ld))
		goto fail;
	for (int k = RK_MATCH; k <= RK_NOT_MATCH; k++) {
		struct strlist *l = k == RK_MATCH ? match : not_match;
		if (field[k] && !json_strlist(field[k], l, oom)) {
			if (!*oom)
				set_corrupt(ld,
					    "rules[%zu].%s: expected an "
					    "array of strings",
					    i, rule_keys[k]);
			goto fail;
		}
	}
	r->tool = cordon__strdup(field[RK_TOOL]->valuestring);
	if (!r->tool) {
		*oom = true;
		goto fail;
	}
	return true;
fail:
	strlist_clear(match);
	strlist_clear(not_match);
	rule_free(r);
	return false;
}

/* Reads and validates the file at path into ld. warn (may be NULL) gets a
 * warning for every rule dropped because its examples fail. Returns
 * CORDON_E_NOMEM when out of memory, else CORDON_OK (ld says missing or
 * corrupt). */
static enum cordon_err load_file(const char *path, struct loaded *ld,
				 struct approvals_store *warn)
{
	const cJSON *ver, *rules, *it;
	const char *end = NULL;
	size_t len = 0, i = 0, n, parsed = 0;
	char *buf;
	bool oom = false;

	memset(ld, 0, sizeof(*ld));
	buf = read_bounded(path, &len, ld);
	if (!buf) {
		ld->unusable = ld->corrupt;
		return CORDON_OK;
	}
	/* An empty file (or only white space) is an empty store: the first
	 * "always" answer writes it. */
	if (strspn(buf, " \t\r\n") == len) {
		free(buf);
		ld->missing = true;
		return CORDON_OK;
	}
	/* cJSON would cut a command or prefix word at a NUL: refuse it. */
	if (memchr(buf, '\0', len) || json_nul_escape_at(buf, len) < len) {
		set_corrupt(ld, "holds a NUL character");
		ld->unusable = true;
		free(buf);
		return CORDON_OK;
	}
	/* len + 1: the terminating NUL is part of the buffer, so trailing
	 * garbage after the document is an error. */
	ld->root = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
	if (!ld->root) {
		size_t off = end && end >= buf ? (size_t)(end - buf) : 0;
		set_corrupt(ld, "is not valid JSON (near byte %zu)", off);
		ld->unusable = true;
		free(buf);
		return CORDON_OK;
	}
	free(buf);
	if (!cJSON_IsObject(ld->root)) {
		set_corrupt(ld, "expected a JSON object");
		goto corrupt;
	}
	cJSON_ArrayForEach (it, ld->root) {
		if (!it->string || (strcmp(it->string, "version") != 0 &&
				    strcmp(it->string, "rules") != 0)) {
			char key[64];
			safe_text(key, sizeof(key),
				  it->string ? it->string : "");
			/* The rules may still be read: a "never" among
			 * them stays. */
			set_corrupt(ld, "unknown key \"%s\"", key);
		}
	}
	ver = cJSON_GetObjectItemCaseSensitive(ld->root, "version");
	if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0) {
		set_corrupt(ld, "version: expected 1");
		goto corrupt;
	}
	rules = cJSON_GetObjectItemCaseSensitive(ld->root, "rules");
	if (!cJSON_IsArray(rules)) {
		set_corrupt(ld, "rules: expected an array");
		goto corrupt;
	}
	n = (size_t)cJSON_GetArraySize(rules);
	if (n > APPROVALS_MAX_RULES) {
		set_corrupt(ld, "rules: %zu rules (limit %zu)", n,
			    APPROVALS_MAX_RULES);
		goto corrupt;
	}
	ld->nfile_rules = n;
	if (n) {
		ld->rules = cordon__calloc(n, sizeof(*ld->rules));
		if (!ld->rules)
			goto nomem;
	}
	cJSON_ArrayForEach (it, rules) {
		struct strlist match = { 0 }, not_match = { 0 };
		struct approvals_rule *r = &ld->rules[ld->nrules];
		const char *bad = NULL;
		size_t which = 0;

		if (!parse_rule(it, i, r, &match, &not_match, ld, &oom)) {
			if (oom)
				goto nomem;
			/* A bad rule (set_corrupt said why) is skipped: the
			 * other rules' denials still hold. */
			i++;
			continue;
		}
		parsed++;
		if (match.n || not_match.n) {
			if (r->match == APPROVALS_PREFIX || r->match == APPROVALS_EXACT)
				bad = examples_fail(r, &match, &not_match,
						    &which);
			else
				bad = "";
		}
		strlist_clear(&match);
		strlist_clear(&not_match);
		if (bad) {
			enum cordon_err e = CORDON_OK;
			if (warn && !bad[0])
				e = add_warning(warn,
						"%s: rules[%zu]: match and "
						"not_match apply to "
						"commandPrefix and command "
						"rules only; the rule is "
						"dropped",
						path, i);
			else if (warn)
				e = add_warning(
					warn,
					"%s: rules[%zu]: %s[%zu] %s the rule; "
					"the rule is dropped",
					path, i, bad, which,
					bad[0] == 'm' ? "does not match" :
							"matches");
			rule_free(r);
			if (e != CORDON_OK)
				goto nomem;
		} else {
			ld->nrules++;
		}
		i++;
	}
	if (ld->corrupt) {
		/* Of a file that is not all right, only the denials are
		 * used: an allow next to a broken rule may not be what the
		 * user wrote. */
		size_t k = 0;
		for (size_t j = 0; j < ld->nrules; j++) {
			if (ld->rules[j].decision == CORDON_DENY)
				ld->rules[k++] = ld->rules[j];
			else
				rule_free(&ld->rules[j]);
		}
		ld->nrules = k;
		ld->unusable = parsed == 0;
	}
	return CORDON_OK;
corrupt:
	cJSON_Delete(ld->root);
	ld->root = NULL;
	rules_free(ld->rules, ld->nrules);
	ld->rules = NULL;
	ld->nrules = 0;
	ld->unusable = true;
	return CORDON_OK;
nomem:
	loaded_free(ld);
	return CORDON_E_NOMEM;
}

static enum cordon_err warn_corrupt(struct approvals_store *st,
				    const struct loaded *ld)
{
	if (ld->unusable)
		return add_warning(st,
				   "%s: %s; no rule could be read from it, so "
				   "every call the mode would allow asks "
				   "instead, and it will not be overwritten",
				   st->path, ld->why);
	return add_warning(st,
			   "%s: %s; only its deny rules that could be read "
			   "are used (%zu), its allow rules are not, and it "
			   "will not be overwritten",
			   st->path, ld->why, ld->nrules);
}

/* Adopts a corrupt file's usable rules (its denials) into st. */
static void adopt_corrupt(struct approvals_store *st, struct loaded *ld)
{
	rules_free(st->rules, st->nrules);
	st->rules = ld->rules;
	st->nrules = ld->nrules;
	ld->rules = NULL;
	ld->nrules = 0;
	st->corrupt = true;
	st->unusable = ld->unusable;
}

enum cordon_err approvals_open(struct approvals_store *st, const char *path)
{
	struct loaded ld;
	enum cordon_err e;

	memset(st, 0, sizeof(*st));
	if (!path)
		return CORDON_OK;
	st->path = cordon__strdup(path);
	if (!st->path)
		return CORDON_E_NOMEM;
	e = load_file(path, &ld, st);
	if (e != CORDON_OK) {
		approvals_close(st);
		return e;
	}
	if (ld.corrupt) {
		bool io = ld.io_error;
		e = warn_corrupt(st, &ld);
		adopt_corrupt(st, &ld);
		loaded_free(&ld);
		if (e != CORDON_OK) {
			approvals_close(st);
			return e;
		}
		return io ? CORDON_E_IO : CORDON_OK;
	}
	st->rules = ld.rules;
	st->nrules = ld.nrules;
	ld.rules = NULL;
	ld.nrules = 0;
	loaded_free(&ld);
	return CORDON_OK;
}

void approvals_close(struct approvals_store *st)
{
	if (!st)
		return;
	free(st->path);
	rules_free(st->rules, st->nrules);
	rules_free(st->grants, st->ngrants);
	for (size_t i = 0; i < st->nwarnings; i++)
		free(st->warnings[i]);
	free(st->warnings);
	memset(st, 0, sizeof(*st));
}

/* ---- matching ------------------------------------------------------------ */

/* Does r cover the call (for a prefix rule: segment seg of it)? */
static bool rule_applies(const struct approvals_rule *r, const struct approvals_query *q,
			 const struct cw_seg *seg)
{
	if (!r->tool ||
	    (strcmp(r->tool, "*") != 0 && strcmp(r->tool, q->tool) != 0))
		return false;
	switch (r->match) {
	case APPROVALS_TOOL:
		break;
	case APPROVALS_PREFIX:
		if (q->kind != CORDON_KIND_EXECUTE || !q->command || !seg ||
		    !cmdwords_seg_has_prefix(seg, &r->prefix))
			return false;
		/* a label the granted command did not carry (git config
		 * user.name, then git config core.hooksPath: persistence) */
		if (r->bounded && (q->labels & ~r->labels))
			return false;
		break;
	case APPROVALS_EXACT:
		if (!q->command || !r->value ||
		    strcmp(r->value, q->command) != 0)
			return false;
		break;
	case APPROVALS_PATH:
		if (!q->path || !r->value || strcmp(r->value, q->path) != 0)
			return false;
		break;
	default:
		return false;
	}
	/* A destructive command is only ever allowed by its exact text. */
	if (r->decision == CORDON_ALLOW && q->exact_only &&
	    r->match != APPROVALS_EXACT)
		return false;
	return true;
}

/* The decision of the first grant or rule covering the call (segment seg
 * of it, or the whole call when seg is NULL), or -1. */
static int first_match(const struct approvals_store *st,
		       const struct approvals_query *q,
		       const struct cw_seg *seg, enum policy_step *source)
{
	if (q->session) {
		for (size_t i = 0; i < st->ngrants; i++) {
			const struct approvals_rule *g = &st->grants[i];
			if (g->session && strcmp(g->session, q->session) == 0 &&
			    rule_applies(g, q, seg)) {
				*source = POLICY_STEP_SESSION_GRANT;
				return (int)g->decision;
			}
		}
	}
	for (size_t i = 0; i < st->nrules; i++) {
		if (rule_applies(&st->rules[i], q, seg)) {
			*source = POLICY_STEP_APPROVALS_RULE;
			return (int)st->rules[i].decision;
		}
	}
	return -1;
}

int approvals_lookup(const struct approvals_store *st,
		     const struct approvals_query *q, enum policy_step *source)
{
	enum policy_step src = POLICY_STEP_APPROVALS_RULE, first_src = src;
	bool all_allow = true, have_first = false;

	if (!st || !q || !q->tool)
		return -1;
	if (q->kind != CORDON_KIND_EXECUTE || !q->words ||
	    q->words->nseg == 0) {
		int d = first_match(st, q, NULL, &src);
		if (d >= 0 && source)
			*source = src;
		return d;
	}
	/* Per segment: any deny denies, all allowing allows. */
	for (size_t i = 0; i < q->words->nseg; i++) {
		int d = first_match(st, q, &q->words->seg[i], &src);
		if (d == CORDON_DENY) {
			if (source)
				*source = src;
			return CORDON_DENY;
		}
		if (d != CORDON_ALLOW)
			all_allow = false;
		else if (!have_first) {
			first_src = src;
			have_first = true;
		}
	}
	if (!all_allow)
		return -1;
	if (source)
		*source = first_src;
	return CORDON_ALLOW;
}

/* ---- amendments ---------------------------------------------------------- */

const char *approvals_amendment_refusal(const struct strlist *amend,
				   const struct approvals_query *q)
{
	const char *w, *base;

	if (!q || q->kind != CORDON_KIND_EXECUTE || !q->command)
		return "amendments apply to shell commands only";
	if (q->exact_only)
		return "the command is destructive";
	if (!q->words)
		return "the command is not plain (expansions, substitutions, "
		       "assignments, compound commands or redirections to "
		       "files), so only the exact command can be granted";
	if (!amend || amend->n == 0 || !amend->v)
		return "the amendment is empty (it would cover every command)";
	for (size_t i = 0; i < amend->n; i++)
		if (!amend->v[i])
			return "the amendment is empty (it would cover every "
			       "command)";
	w = amend->v[0];
	base = strrchr(w, '/');
	base = base ? base + 1 : w;
	if (!base[0])
		return "the amendment does not start with a command name";
	if (wrappers_opens_code(base, strlen(base)))
		return "the amendment's command runs code given in its "
		       "arguments (a shell, interpreter or wrapper such as "
		       "python3 -c, bash -lc, env, sudo, xargs or eval), so a "
		       "prefix rule would allow anything";
	/* npm is no wrapper, npm exec is: a rule on "npm" alone, or on
	 * "npm exec", would allow whatever npm exec runs. */
	if (wrappers_subs(base, strlen(base)) &&
	    (amend->n < 2 ||
	     wrappers_find(base, strlen(base), amend->v[1],
			   strlen(amend->v[1]))))
		return "the amendment would cover a subcommand that runs "
		       "other commands (npm exec, uv run, poetry run …), so a "
		       "prefix rule would allow anything";
	if (q->words->nseg == 0)
		return "the command has no words";
	for (size_t i = 0; i < q->words->nseg; i++)
		if (!cmdwords_seg_has_prefix(&q->words->seg[i], amend))
			return "the amendment is not a prefix of every "
			       "command in the line";
	return NULL;
}

/* ---- the family cordon proposes ------------------------------------------ */

/* Is w one of the '|'-separated alternatives alts[0..n)? Subcommands are
 * compared ignoring case, as the command table compares them (ci);
 * command names exactly. */
static bool alt_has(const char *alts, size_t n, const char *w, bool ci)
{
	size_t wl = strlen(w);

	for (;;) {
		size_t k = 0;
		while (k < n && alts[k] != '|')
			k++;
		if (k == wl && (ci ? strncasecmp(alts, w, wl) :
				     strncmp(alts, w, wl)) == 0)
			return true;
		if (k == n)
			return false;
		alts += k + 1;
		n -= k + 1;
	}
}

/* Do the row's args name words that select what runs (aws ec2
 * delete-*, kubectl get secret, npm run preinstall) rather than shapes
 * of free arguments (git push :ref, +*, paths)? Then the word after the
 * row's subcommand belongs to the family. */
static bool args_name_words(const char *args)
{
	for (const char *g = args; *g;) {
		unsigned char c = (unsigned char)*g;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
		g += strcspn(g, " ");
		while (*g == ' ')
			g++;
	}
	return args[0] != '\0';
}

/* How row r's subcommand goes on after the words argv[1..1+k) of s:
 * 0 it does not begin with them, 1 it has more words, 2 it ends there. */
static int sub_after(const struct cmd_rule *r, const struct cw_seg *s,
		     size_t k)
{
	const char *t = cmdtab_str(r->sub);

	for (size_t i = 0; i < k; i++) {
		size_t n = strcspn(t, " ");
		if (n == 0 || !alt_has(t, n, s->argv[1 + i], true))
			return 0;
		t += n;
		while (*t == ' ')
			t++;
	}
	return *t ? 1 : 2;
}

/* Can argv[i] stand in a prefix rule as a subcommand word: a literal
 * operand, not an option, not a glob (a glob never matches a prefix
 * word)? */
static bool sub_word(const struct cw_seg *s, size_t i)
{
	return i < s->argc && s->argv[i][0] && s->argv[i][0] != '-' &&
	       !s->glob[i];
}

/* How many words segment s's family has (see approvals.h): its command
 * name, then each word the command table reads as a subcommand there; 0
 * when the command takes a subcommand and none stands right after its
 * name (git -C dir status, git --version): the name alone would cover
 * every subcommand. */
static size_t seg_family_len(const struct cw_seg *s)
{
	const char *w = s->argv[0], *base = strrchr(w, '/');
	size_t k = 0;

	base = base ? base + 1 : w;
	while (1 + k < APPROVALS_FAMILY_MAX_WORDS) {
		bool more = false;
		for (size_t r = 0; r < cmdtab_rules_count && !more; r++) {
			const struct cmd_rule *row = &cmdtab_rules[r];
			const char *fam = cmdtab_str(row->family);
			const char *args = cmdtab_str(row->args);
			if (!alt_has(fam, strlen(fam), base, false))
				continue;
			/* a row without a subcommand whose args name words
			 * (aws ... delete-*, curl ... DELETE): any operand
			 * may select what runs */
			if (!row->sub) {
				more = args && args_name_words(args);
				continue;
			}
			int a = sub_after(row, s, k);
			more = a == 1 ||
			       (a == 2 && args && args_name_words(args));
		}
		/* npm exec, uv run: the refusal turns these down */
		if (k == 0 && wrappers_subs(base, strlen(base)))
			more = true;
		if (!more)
			break;
		if (!sub_word(s, 1 + k))
			return k == 0 ? 0 : 1 + k;
		k++;
	}
	return 1 + k;
}

enum cordon_err approvals_family(const struct approvals_query *q,
				 struct strlist *out, const char **why)
{
	const struct cw_seg *s0;
	size_t n;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (!q || q->kind != CORDON_KIND_EXECUTE || !q->command) {
		*why = "not a shell command";
		return CORDON_OK;
	}
	if (q->exact_only) {
		*why = "the command is destructive: only its exact text can be "
		       "granted";
		return CORDON_OK;
	}
	if (!q->words || q->words->nseg == 0) {
		*why = "the command is not plain (expansions, substitutions, "
		       "assignments, compound commands or redirections to "
		       "files): only its exact text can be granted";
		return CORDON_OK;
	}
	s0 = &q->words->seg[0];
	n = s0->argc ? seg_family_len(s0) : 0;
	if (n == 0) {
		*why = "the command takes a subcommand that is not where a "
		       "prefix could name it: only its exact text can be "
		       "granted";
		return CORDON_OK;
	}
	for (size_t i = 1; i < q->words->nseg; i++) {
		const struct cw_seg *s = &q->words->seg[i];
		bool same = s->argc && seg_family_len(s) == n;
		for (size_t j = 0; same && j < n; j++)
			same = strcmp(s->argv[j], s0->argv[j]) == 0;
		if (!same) {
			*why = "the commands of the line are of different "
			       "families: only the exact line can be granted";
			return CORDON_OK;
		}
	}
	for (size_t j = 0; j < n; j++)
		if (!strlist_push(out, s0->argv[j])) {
			strlist_clear(out);
			return CORDON_E_NOMEM;
		}
	*why = approvals_amendment_refusal(out, q);
	if (*why)
		strlist_clear(out);
	return CORDON_OK;
}

/* ---- recording ----------------------------------------------------------- */

static enum cordon_err add_grant(struct approvals_store *st,
				 const struct approvals_rule *r)
{
	struct approvals_rule *ng;

	for (size_t i = 0; i < st->ngrants; i++)
		if (strcmp(st->grants[i].session, r->session) == 0 &&
		    rule_same(&st->grants[i], r))
			return CORDON_OK;
	if (st->ngrants >= APPROVALS_MAX_GRANTS)
		return CORDON_E_LIMIT;
	ng = cordon__realloc(st->grants, (st->ngrants + 1) * sizeof(*ng));
	if (!ng)
		return CORDON_E_NOMEM;
	st->grants = ng;
	if (!rule_copy(&ng[st->ngrants], r))
		return CORDON_E_NOMEM;
	st->ngrants++;
	return CORDON_OK;
}

/* The rule as the file spells it, with a creation time. */
static cJSON *rule_to_json(const struct approvals_rule *r, const char *session)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	char created[32];
	struct tm tm;
	time_t now = time(NULL);

	if (!o)
		return NULL;
	if (!cJSON_AddStringToObject(o, "tool", r->tool) ||
	    !cJSON_AddStringToObject(o, "decision",
				     r->decision == CORDON_ALLOW ? "allow" :
								   "deny"))
		goto fail;
	switch (r->match) {
	case APPROVALS_TOOL:
		break;
	case APPROVALS_PREFIX:
		arr = cJSON_AddArrayToObject(o, "commandPrefix");
		if (!arr)
			goto fail;
		for (size_t i = 0; i < r->prefix.n; i++) {
			cJSON *s = cJSON_CreateString(r->prefix.v[i]);
			if (!s || !cJSON_AddItemToArray(arr, s)) {
				cJSON_Delete(s);
				goto fail;
			}
		}
		if (!r->bounded)
			break;
		arr = cJSON_AddArrayToObject(o, "labels");
		if (!arr)
			goto fail;
		for (unsigned b = 0; b < 64; b++) {
			const char *name = cordon_label_name(b);
			cJSON *s;
			if (!name || !(r->labels & (UINT64_C(1) << b)))
				continue;
			s = cJSON_CreateString(name);
			if (!s || !cJSON_AddItemToArray(arr, s)) {
				cJSON_Delete(s);
				goto fail;
			}
		}
		break;
	case APPROVALS_EXACT:
		if (!cJSON_AddStringToObject(o, "command", r->value))
			goto fail;
		break;
	case APPROVALS_PATH:
		if (!cJSON_AddStringToObject(o, "path", r->value))
			goto fail;
		break;
	}
	if (gmtime_r(&now, &tm) &&
	    strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0 &&
	    !cJSON_AddStringToObject(o, "created", created))
		goto fail;
	if (session && !cJSON_AddStringToObject(o, "session", session))
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* Appends r to the approvals file under the lock. On success st->rules is
 * the file's rules as re-read, plus r. On failure *why says what went
 * wrong (the caller keeps a session grant). */
static enum cordon_err write_always(struct approvals_store *st,
				    const struct approvals_rule *r,
				    const char *session, char *why,
				    size_t whycap)
{
	char dir[4096], lockpath[4096], target[4096];
	struct loaded ld;
	struct approvals_rule *nr;
	cJSON *obj, *rules;
	char *text = NULL;
	enum cordon_err e = CORDON_E_IO;
	int lfd = -1;
	bool dup = false;

	/* A symlinked file is written at its target, locked there. */
	if (atomic_resolve_link(st->path, target, sizeof(target)) != 0) {
		snprintf(why, whycap,
			 errno == ENAMETOOLONG ?
				 "the path is too long" :
				 "it is a symbolic link to a missing file "
				 "(refused: make the target, or remove the "
				 "link)");
		return errno == ENAMETOOLONG ? CORDON_E_LIMIT : CORDON_E_IO;
	}
	if (atomic_dir_of(target, dir, sizeof(dir)) != 0) {
		if (errno == EISDIR) {
			snprintf(why, whycap, "the path names a directory");
			return CORDON_E_INVAL;
		}
		snprintf(why, whycap, "the path is too long");
		return CORDON_E_LIMIT;
	}
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", target) >=
	    (int)sizeof(lockpath)) {
		snprintf(why, whycap, "the path is too long");
		return CORDON_E_LIMIT;
	}
	if (atomic_mkdirs(dir, 0700) != 0) {
		snprintf(why, whycap, "cannot create its directory: %s",
			 strerror(errno));
		return CORDON_E_IO;
	}
	lfd = atomic_lock(lockpath, APPROVALS_LOCK_WAIT_MS);
	if (lfd < 0) {
		snprintf(why, whycap, "cannot lock it: %s", strerror(errno));
		return CORDON_E_IO;
	}
	/* Re-read under the lock: another process may have appended. */
	e = load_file(target, &ld, NULL);
	if (e != CORDON_OK) {
		snprintf(why, whycap, "out of memory");
		goto out_unlock;
	}
	if (ld.corrupt) {
		snprintf(why, whycap, "%s", ld.why);
		e = warn_corrupt(st, &ld);
		adopt_corrupt(st, &ld);
		if (e == CORDON_OK)
			e = CORDON_E_IO;
		goto out;
	}
	for (size_t i = 0; i < ld.nrules && !dup; i++)
		dup = rule_same(&ld.rules[i], r);
	if (!dup) {
		if (ld.nfile_rules >= APPROVALS_MAX_RULES) {
			snprintf(why, whycap,
				 "the file has %zu rules (limit "
				 "%zu)",
				 ld.nfile_rules, APPROVALS_MAX_RULES);
			e = CORDON_E_LIMIT;
			goto out;
		}
		e = CORDON_E_NOMEM;
		snprintf(why, whycap, "out of memory");
		if (!ld.root) {
			ld.root = cJSON_CreateObject();
			if (!ld.root ||
			    !cJSON_AddNumberToObject(ld.root, "version", 1) ||
			    !cJSON_AddArrayToObject(ld.root, "rules"))
				goto out;
		}
		rules = cJSON_GetObjectItemCaseSensitive(ld.root, "rules");
		obj = rule_to_json(r, session);
		if (!obj || !cJSON_AddItemToArray(rules, obj)) {
			cJSON_Delete(obj);
			goto out;
		}
		text = cJSON_Print(ld.root);
		if (!text)
			goto out;
		size_t len = strlen(text);
		if (len + 1 > APPROVALS_MAX_FILE_BYTES) {
			snprintf(why, whycap,
				 "the file would be over %zu "
				 "bytes (the limit)",
				 APPROVALS_MAX_FILE_BYTES);
			e = CORDON_E_LIMIT;
			goto out;
		}
		text[len] = '\n';
		if (atomic_write_file(target, text, len + 1, 0600) != 0) {
			text[len] = '\0';
			snprintf(why, whycap, "cannot write: %s",
				 strerror(errno));
			e = CORDON_E_IO;
			goto out;
		}
		text[len] = '\0';
	}
	/* Adopt the file as it now is: its rules, then r when it was new. */
	e = CORDON_E_NOMEM;
	snprintf(why, whycap, "out of memory");
	nr = cordon__realloc(ld.rules, (ld.nrules + 1) * sizeof(*nr));
	if (!nr)
		goto out;
	ld.rules = nr;
	if (!dup) {
		if (!rule_copy(&nr[ld.nrules], r))
			goto out;
		free(nr[ld.nrules].session);
		nr[ld.nrules].session = NULL;
		ld.nrules++;
	}
	rules_free(st->rules, st->nrules);
	st->rules = ld.rules;
	st->nrules = ld.nrules;
	ld.rules = NULL;
	ld.nrules = 0;
	why[0] = '\0';
	e = CORDON_OK;
out:
	cJSON_free(text);
	loaded_free(&ld);
out_unlock:
	close(lfd);
	return e;
}

/* The rule an answer grants for q: exact for destructive and non-plain
 * commands, the amendment's prefix when it is acceptable, the path for file
 * tools, the tool for the rest. */
static enum cordon_err build_rule(const struct approvals_query *q,
				  enum cordon_decision d,
				  const struct strlist *amend,
				  struct approvals_rule *r, char *note,
				  size_t notecap)
{
	memset(r, 0, sizeof(*r));
	/* "*" in a rule means every tool: a tool that calls itself "*" must
	 * not turn one answer into a grant for everything. */
	if (!q->tool[0] || strcmp(q->tool, "*") == 0) {
		text_addf(note, notecap,
			  "a tool named \"%s\" cannot be "
			  "granted beyond this call",
			  q->tool);
		return CORDON_E_INVAL;
	}
	r->decision = d;
	r->tool = cordon__strdup(q->tool);
	if (!r->tool)
		return CORDON_E_NOMEM;
	switch (q->kind) {
	case CORDON_KIND_EXECUTE:
		if (!q->command || !q->command[0]) {
			text_addf(note, notecap,
				  "the call has no command: "
				  "nothing was recorded");
			rule_free(r);
			return CORDON_E_INVAL;
		}
		if (amend) {
			const char *why = approvals_amendment_refusal(amend, q);
			if (!why) {
				r->match = APPROVALS_PREFIX;
				r->labels = q->labels;
				r->bounded = true;
				if (!strlist_copy(&r->prefix, amend)) {
					rule_free(r);
					return CORDON_E_NOMEM;
				}
				return CORDON_OK;
			}
			text_addf(note, notecap,
				  "amendment refused: %s; recorded for the "
				  "exact command only",
				  why);
		}
		r->match = APPROVALS_EXACT;
		r->value = cordon__strdup(q->command);
		break;
	case CORDON_KIND_READ:
	case CORDON_KIND_WRITE:
	case CORDON_KIND_DELETE:
		if (amend)
			text_addf(note, notecap,
				  "amendment refused: "
				  "amendments apply to shell commands only");
		if (!q->path || !q->path[0]) {
			text_addf(note, notecap,
				  "the call has no path: "
				  "nothing was recorded");
			rule_free(r);
			return CORDON_E_INVAL;
		}
		r->match = APPROVALS_PATH;
		r->value = cordon__strdup(q->path);
		break;
	case CORDON_KIND_FETCH:
		/* A fetch with a URL is granted for that URL only. */
		if (q->command && q->command[0]) {
			if (amend)
				text_addf(note, notecap,
					  "amendment refused: amendments apply "
					  "to shell commands only");
			r->match = APPROVALS_EXACT;
			r->value = cordon__strdup(q->command);
			break;
		}
		r->match = APPROVALS_TOOL;
		return CORDON_OK;
	case CORDON_KIND_MCP:
	case CORDON_KIND_OTHER:
	default:
		if (amend)
			text_addf(note, notecap,
				  "amendment refused: "
				  "amendments apply to shell commands only");
		r->match = APPROVALS_TOOL;
		return CORDON_OK;
	}
	if (!r->value) {
		rule_free(r);
		return CORDON_E_NOMEM;
	}
	return CORDON_OK;
}

/* Keeps r as a session grant for q->session; explains in note. */
static enum cordon_err keep_for_session(struct approvals_store *st,
					const struct approvals_query *q,
					struct approvals_rule *r, char *note,
					size_t notecap)
{
	enum cordon_err e;

	if (!q->session) {
		text_addf(note, notecap,
			  "no session id: the answer applies "
			  "to this call only");
		return CORDON_E_INVAL;
	}
	free(r->session);
	r->session = cordon__strdup(q->session);
	if (!r->session)
		return CORDON_E_NOMEM;
	e = add_grant(st, r);
	if (e == CORDON_E_LIMIT)
		text_addf(note, notecap,
			  "too many session grants (limit %zu): "
			  "the answer applies to this call only",
			  APPROVALS_MAX_GRANTS);
	return e;
}

enum cordon_err approvals_record(struct approvals_store *st, const struct approvals_query *q,
			    enum cordon_answer answer,
			    const struct strlist *amend, char *note,
			    size_t notecap)
{
	struct approvals_rule r;
	enum cordon_decision d;
	enum cordon_err e;
	bool always;
	char why[320];

	if (note && notecap)
		note[0] = '\0';
	if (!st || !q || !q->tool)
		return CORDON_E_INVAL;
	switch (answer) {
	case CORDON_ANSWER_ALLOW_SESSION:
		d = CORDON_ALLOW;
		always = false;
		break;
	case CORDON_ANSWER_ALLOW_ALWAYS:
		d = CORDON_ALLOW;
		always = true;
		break;
	case CORDON_ANSWER_DENY_SESSION:
		d = CORDON_DENY;
		always = false;
		break;
	case CORDON_ANSWER_DENY_ALWAYS:
		d = CORDON_DENY;
		always = true;
		break;
	case CORDON_ANSWER_ALLOW_ONCE:
	case CORDON_ANSWER_DENY_ONCE:
	case CORDON_ANSWER_ABORT:
	case CORDON_ANSWER_TIMED_OUT:
		return CORDON_OK;
	default:
		return CORDON_E_INVAL;
	}
	e = build_rule(q, d, amend, &r, note, notecap);
	if (e != CORDON_OK)
		return e;
	if (!always) {
		e = keep_for_session(st, q, &r, note, notecap);
		rule_free(&r);
		return e;
	}
	if (!st->path) {
		e = CORDON_E_INVAL;
		text_addf(note, notecap,
			  "no approvals file is configured: "
			  "kept for this session only");
	} else if (st->corrupt) {
		e = CORDON_E_IO;
		text_addf(note, notecap,
			  "the approvals file %s is corrupt and "
			  "was not overwritten: kept for this session only",
			  st->path);
	} else {
		why[0] = '\0';
		e = write_always(st, &r, q->session, why, sizeof(why));
		if (e != CORDON_OK)
			text_addf(note, notecap,
				  "the approvals file %s was "
				  "not written (%s): kept for this session "
				  "only",
				  st->path, why);
	}
	if (e != CORDON_OK && e != CORDON_E_NOMEM) {
		enum cordon_err se = keep_for_session(st, q, &r, note, notecap);
		if (se == CORDON_E_NOMEM)
			e = se;
	}
	rule_free(&r);
	return e;
}
