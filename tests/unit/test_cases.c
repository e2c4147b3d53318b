/* The table-driven cases: every row of every tests/cases/shell/NAME.jsonl
 * classified through the public API, one TAP result per row.
 *
 * A row is one JSON object on one line (blank lines and lines starting with
 * '#' are skipped):
 *
 *	{"cmd": "rm -rf /", "risk": "blocked", "labels": ["root-path"],
 *	 "not_labels": ["wildcard"], "rules": ["rm.root"], "parsed": true,
 *	 "cwd": "/home/user/project", "workspace": "/home/user/project",
 *	 "home": "/home/user", "tmpdir": "/tmp", "note": "why this row exists"}
 *
 * "cmd" and either "risk" (the exact tier) or "min" and/or "max" (a range)
 * are required; every other key is optional. "labels" must all be present,
 * "not_labels" all absent, "rules" must all appear among the matched rule
 * ids, "parsed" must equal cordon_verdict_parsed(). Context fields default
 * to cwd = workspace = /home/user/project, home = /home/user, tmpdir = /tmp.
 * An unknown key, an unknown label or tier name, or a line that is not such
 * an object is a failing result naming file:line: a typo must not turn a
 * case into one that silently passes. So is "\u0000" anywhere in a line:
 * cJSON ends strings at NUL, and the row would test a shorter command.
 *
 * Each row also checks that cordon_verdict_to_json() gives the object of
 * DESIGN.md and that it agrees with the accessors, and that a verdict
 * without the command list (verdict_set_commands, as the batch
 * classifies) gives the same object.
 *
 * The case directory is tests/cases/shell ($CORDON_SOURCE_ROOT, else found
 * relative to this file); files are read in name order.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "classify_int.h"
#include "cordon.h"
#include "table.h"
#include "tap.h"

#define SHOW_MAX 100

/* What one row asks for, pointing into the parsed cJSON tree. */
struct want {
	const char *cmd;
	enum cordon_risk min, max;
	const cJSON *labels, *not_labels, *rules;
	int parsed; /* -1: not checked */
	struct cordon_context ctx;
};

/* Appends s[0..n) to out (capacity cap) in the one-line form used in test
 * names: newline as \n, CR as \r, tab as \t, other control bytes as \xNN,
 * and '#' as \x23 too, since TAP readers take "# SKIP" and the like inside
 * a name for a directive (meson ignores the "\#" escape). Cuts at SHOW_MAX
 * bytes of output, never inside a UTF-8 sequence, and marks the cut with
 * "...". */
static void show_cmd(char *out, size_t cap, const char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		size_t k;

		if (c == '\n')
			k = (size_t)snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\r')
			k = (size_t)snprintf(esc, sizeof(esc), "\\r");
		else if (c == '\t')
			k = (size_t)snprintf(esc, sizeof(esc), "\\t");
		else if (c < 0x20 || c == 0x7f || c == '#')
			k = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		else {
			esc[0] = (char)c;
			k = 1;
		}
		if (o + k > SHOW_MAX || o + k + 4 > cap) {
			/* Back off to a UTF-8 sequence boundary. */
			while (o > 0 && ((unsigned char)out[o - 1] >> 6) == 2)
				o--;
			if (o > 0 && ((unsigned char)out[o - 1] >> 6) == 3)
				o--;
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(out + o, esc, k);
		o += k;
	}
	out[o] = '\0';
}

/* The bit of the label named by string item e, or -1. */
static int label_bit(const cJSON *e)
{
	return cordon_label_from_name(e->valuestring, strlen(e->valuestring));
}

static int risk_from_name(const char *s, enum cordon_risk *r)
{
	for (int i = CORDON_RISK_SAFE; i <= CORDON_RISK_BLOCKED; i++) {
		if (strcmp(s, cordon_risk_name((enum cordon_risk)i)) == 0) {
			*r = (enum cordon_risk)i;
			return 1;
		}
	}
	return 0;
}

/* Checks that item is an array of strings; with labels set, that each is a
 * known label name. On failure writes why into err. */
static int check_str_array(const cJSON *item, int labels, char *err,
			   size_t errcap)
{
	const cJSON *e;

	if (!cJSON_IsArray(item)) {
		snprintf(err, errcap, "\"%s\" is not an array", item->string);
		return 0;
	}
	cJSON_ArrayForEach (e, item) {
		if (!cJSON_IsString(e)) {
			snprintf(err, errcap, "\"%s\" holds a non-string",
				 item->string);
			return 0;
		}
		if (labels && label_bit(e) < 0) {
			snprintf(err, errcap, "\"%s\": unknown label \"%s\"",
				 item->string, e->valuestring);
			return 0;
		}
	}
	return 1;
}

/* Reads a row into *w. Returns 1, or 0 with the reason in err. */
static int read_row(const cJSON *row, struct want *w, char *err, size_t errcap)
{
	const cJSON *it;
	int have_risk = 0, have_range = 0;

	memset(w, 0, sizeof(*w));
	w->min = CORDON_RISK_SAFE;
	w->max = CORDON_RISK_BLOCKED;
	w->parsed = -1;
	w->ctx.cwd = "/home/user/project";
	w->ctx.workspace = "/home/user/project";
	w->ctx.home = "/home/user";
	w->ctx.tmpdir = "/tmp";

	if (!cJSON_IsObject(row)) {
		snprintf(err, errcap, "not a JSON object");
		return 0;
	}
	cJSON_ArrayForEach (it, row) {
		const char *k = it->string;
		const char **ctxf = NULL;

		if (strcmp(k, "cmd") == 0) {
			if (!cJSON_IsString(it)) {
				snprintf(err, errcap, "\"cmd\" is no string");
				return 0;
			}
			w->cmd = it->valuestring;
		} else if (strcmp(k, "risk") == 0 || strcmp(k, "min") == 0 ||
			   strcmp(k, "max") == 0) {
			enum cordon_risk r;

			if (!cJSON_IsString(it) ||
			    !risk_from_name(it->valuestring, &r)) {
				snprintf(err, errcap,
					 "\"%s\" is not a tier name", k);
				return 0;
			}
			if (k[0] == 'r') {
				have_risk = 1;
				w->min = w->max = r;
			} else {
				have_range = 1;
				if (k[1] == 'i')
					w->min = r;
				else
					w->max = r;
			}
		} else if (strcmp(k, "labels") == 0 ||
			   strcmp(k, "not_labels") == 0) {
			if (!check_str_array(it, 1, err, errcap))
				return 0;
			if (k[0] == 'l')
				w->labels = it;
			else
				w->not_labels = it;
		} else if (strcmp(k, "rules") == 0) {
			if (!check_str_array(it, 0, err, errcap))
				return 0;
			w->rules = it;
		} else if (strcmp(k, "parsed") == 0) {
			if (!cJSON_IsBool(it)) {
				snprintf(err, errcap, "\"parsed\" is no bool");
				return 0;
			}
			w->parsed = cJSON_IsTrue(it);
		} else if (strcmp(k, "cwd") == 0) {
			ctxf = &w->ctx.cwd;
		} else if (strcmp(k, "workspace") == 0) {
			ctxf = &w->ctx.workspace;
		} else if (strcmp(k, "home") == 0) {
			ctxf = &w->ctx.home;
		} else if (strcmp(k, "tmpdir") == 0) {
			ctxf = &w->ctx.tmpdir;
		} else if (strcmp(k, "note") == 0) {
			if (!cJSON_IsString(it)) {
				snprintf(err, errcap, "\"note\" is no string");
				return 0;
			}
		} else {
			snprintf(err, errcap, "unknown key \"%s\"", k);
			return 0;
		}
		if (ctxf) {
			if (!cJSON_IsString(it) || it->valuestring[0] != '/') {
				snprintf(err, errcap,
					 "\"%s\" is not an absolute path", k);
				return 0;
			}
			*ctxf = it->valuestring;
		}
	}
	if (!w->cmd) {
		snprintf(err, errcap, "no \"cmd\"");
		return 0;
	}
	if (have_risk && have_range) {
		snprintf(err, errcap, "both \"risk\" and \"min\"/\"max\"");
		return 0;
	}
	if (!have_risk && !have_range) {
		snprintf(err, errcap, "neither \"risk\" nor \"min\"/\"max\"");
		return 0;
	}
	if (w->min > w->max) {
		snprintf(err, errcap, "\"min\" is above \"max\"");
		return 0;
	}
	return 1;
}

static int has_rule(const struct cordon_verdict *v, const char *id)
{
	size_t n = cordon_verdict_rule_count(v);

	for (size_t i = 0; i < n; i++) {
		const char *r = cordon_verdict_rule(v, i);

		if (r && strcmp(r, id) == 0)
			return 1;
	}
	return 0;
}

/* Checks the JSON rendering of v against the accessors. Returns 1, or 0
 * with the reason in err. */
static int check_json(const struct cordon_verdict *v, char *err, size_t errcap)
{
	char *js = cordon_verdict_to_json(v);
	cJSON *root, *it, *e;
	uint64_t bits = 0;
	int good = 0;

	if (!js) {
		snprintf(err, errcap, "cordon_verdict_to_json returned NULL");
		return 0;
	}
	root = cJSON_Parse(js);
	if (!root) {
		snprintf(err, errcap, "verdict JSON does not parse: %.80s", js);
		goto out;
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "risk");
	if (!cJSON_IsString(it) ||
	    strcmp(it->valuestring, cordon_risk_name(cordon_verdict_risk(v)))) {
		snprintf(err, errcap, "verdict JSON \"risk\" disagrees");
		goto out;
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "parsed");
	if (!cJSON_IsBool(it) ||
	    cJSON_IsTrue(it) != (cordon_verdict_parsed(v) != 0)) {
		snprintf(err, errcap, "verdict JSON \"parsed\" disagrees");
		goto out;
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "labels");
	if (!cJSON_IsArray(it)) {
		snprintf(err, errcap, "verdict JSON has no \"labels\" array");
		goto out;
	}
	cJSON_ArrayForEach (e, it) {
		int b = cJSON_IsString(e) ? label_bit(e) : -1;

		if (b < 0) {
			snprintf(err, errcap, "verdict JSON has a bad label");
			goto out;
		}
		bits |= UINT64_C(1) << b;
	}
	if (bits != cordon_verdict_labels(v)) {
		snprintf(err, errcap, "verdict JSON \"labels\" disagree");
		goto out;
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "reasons");
	if (!cJSON_IsArray(it) ||
	    (size_t)cJSON_GetArraySize(it) != cordon_verdict_reason_count(v)) {
		snprintf(err, errcap, "verdict JSON \"reasons\" disagree");
		goto out;
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "matchedRules");
	if (!cJSON_IsArray(it) ||
	    (size_t)cJSON_GetArraySize(it) != cordon_verdict_rule_count(v)) {
		snprintf(err, errcap, "verdict JSON \"matchedRules\" disagree");
		goto out;
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "segments");
	if (!cJSON_IsArray(it) ||
	    (size_t)cJSON_GetArraySize(it) != cordon_verdict_segment_count(v)) {
		snprintf(err, errcap, "verdict JSON \"segments\" disagree");
		goto out;
	}
	cJSON_ArrayForEach (e, it) {
		if (!cJSON_IsString(cJSON_GetObjectItem(e, "text")) ||
		    !cJSON_IsString(cJSON_GetObjectItem(e, "risk")) ||
		    !cJSON_IsArray(cJSON_GetObjectItem(e, "labels"))) {
			snprintf(err, errcap,
				 "verdict JSON segment lacks text/risk/labels");
			goto out;
		}
	}
	good = 1;
out:
	cJSON_Delete(root);
	free(js);
	return good;
}

/* Prints the verdict's labels, rules and reasons as diagnostics. */
static void diag_verdict(const struct cordon_verdict *v)
{
	char buf[1024];
	size_t o = 0;
	uint64_t labels = cordon_verdict_labels(v);
	size_t n;

	buf[0] = '\0';
	for (unsigned b = 0; b < CORDON_LABEL_COUNT && o < sizeof(buf); b++) {
		if (labels & (UINT64_C(1) << b)) {
			int k = snprintf(buf + o, sizeof(buf) - o, "%s%s",
					 o ? ", " : "", cordon_label_name(b));

			if (k > 0)
				o += (size_t)k;
		}
	}
	diag("labels: %s", buf);
	o = 0;
	buf[0] = '\0';
	n = cordon_verdict_rule_count(v);
	for (size_t i = 0; i < n && o < sizeof(buf); i++) {
		int k = snprintf(buf + o, sizeof(buf) - o, "%s%s",
				 o ? ", " : "", cordon_verdict_rule(v, i));

		if (k > 0)
			o += (size_t)k;
	}
	diag("rules: %s", buf);
	o = 0;
	buf[0] = '\0';
	n = cordon_verdict_reason_count(v);
	for (size_t i = 0; i < n && o < sizeof(buf); i++) {
		int k = snprintf(buf + o, sizeof(buf) - o, "%s%s",
				 o ? " | " : "", cordon_verdict_reason(v, i));

		if (k > 0)
			o += (size_t)k;
	}
	diag("reasons: %s", buf);
	diag("parsed: %s", cordon_verdict_parsed(v) ? "true" : "false");
}

/* A verdict that records no command list, as `cordon classify --jsonl`
 * classifies: the same row must give the same JSON into it. */
static struct cordon_verdict *no_cmds;

static int same_without_commands(struct cordon_classifier *cls,
				 const struct want *w,
				 const struct cordon_verdict *v)
{
	char *a = cordon_verdict_to_json(v), *b;
	int same;

	cordon_classify(cls, &w->ctx, w->cmd, strlen(w->cmd), no_cmds, NULL);
	b = cordon_verdict_to_json(no_cmds);
	same = a && b && strcmp(a, b) == 0 &&
	       cordon_verdict_rule_count(v) ==
		       cordon_verdict_rule_count(no_cmds);
	free(a);
	free(b);
	return same;
}

/* Classifies one row and reports it. */
static void run_row(struct cordon_classifier *cls, struct cordon_verdict *v,
		    const char *file, unsigned line, const struct want *w)
{
	char shown[SHOW_MAX + 8], jerr[160];
	char why[64][200];
	unsigned nwhy = 0;
	struct cordon_diag d;
	enum cordon_err rc;
	enum cordon_risk risk;
	uint64_t labels;
	const cJSON *e;
	int good;

	memset(&d, 0, sizeof(d));
	rc = cordon_classify(cls, &w->ctx, w->cmd, strlen(w->cmd), v, &d);
	risk = cordon_verdict_risk(v);
	labels = cordon_verdict_labels(v);

#define WHY(...)                                                               \
	do {                                                                   \
		if (nwhy < 64)                                                 \
			snprintf(why[nwhy++], sizeof(why[0]), __VA_ARGS__);    \
	} while (0)

	/* Over a limit is a verdict too (blocked, unparsed); only other
	 * errors fail the row by themselves. */
	if (rc != CORDON_OK && rc != CORDON_E_LIMIT)
		WHY("cordon_classify returned %s: %.120s", cordon_strerror(rc),
		    d.message);
	if (risk < w->min || risk > w->max) {
		if (w->min == w->max)
			WHY("want risk %s got %s", cordon_risk_name(w->min),
			    cordon_risk_name(risk));
		else
			WHY("want risk %s..%s got %s", cordon_risk_name(w->min),
			    cordon_risk_name(w->max), cordon_risk_name(risk));
	}
	if (w->labels) {
		cJSON_ArrayForEach (e, w->labels) {
			if (!(labels & (UINT64_C(1) << label_bit(e))))
				WHY("missing label %s", e->valuestring);
		}
	}
	if (w->not_labels) {
		cJSON_ArrayForEach (e, w->not_labels) {
			if (labels & (UINT64_C(1) << label_bit(e)))
				WHY("present label %s", e->valuestring);
		}
	}
	if (w->rules) {
		cJSON_ArrayForEach (e, w->rules) {
			if (!has_rule(v, e->valuestring))
				WHY("missing rule %s", e->valuestring);
		}
	}
	if (w->parsed >= 0 && (cordon_verdict_parsed(v) != 0) != w->parsed)
		WHY("want parsed %s got %s", w->parsed ? "true" : "false",
		    w->parsed ? "false" : "true");
	if (!check_json(v, jerr, sizeof(jerr)))
		WHY("%.190s", jerr);
	if (!same_without_commands(cls, w, v))
		WHY("another verdict without the command list (the batch's)");
#undef WHY

	good = nwhy == 0;
	show_cmd(shown, sizeof(shown), w->cmd, strlen(w->cmd));
	ok(good, "%s:%u %s", file, line, shown);
	if (!good) {
		for (unsigned i = 0; i < nwhy; i++)
			diag("%s", why[i]);
		diag_verdict(v);
	}
}

/* 1 when the line holds nothing but blanks, or is a comment. */
static int skippable(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n &&
	       (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i == n || s[i] == '#';
}

/* Runs every row of one file. */
static void run_file(struct cordon_classifier *cls, struct cordon_verdict *v,
		     const char *dir, const char *name)
{
	char path[4096];
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		ok(0, "%s: path fits in %zu bytes", name, sizeof(path));
		return;
	}
	f = fopen(path, "r");
	if (!f) {
		ok(0, "%s: readable", name);
		diag("%s: %s", path, strerror(errno));
		return;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct want w;
		char err[200];
		cJSON *row;

		lineno++;
		if (skippable(line, (size_t)n))
			continue;
		if (memchr(line, '\0', (size_t)n)) {
			ok(0, "%s:%u malformed case", name, lineno);
			diag("the line holds a raw NUL byte");
			continue;
		}
		if (memmem(line, (size_t)n, "\\u0000", 6)) {
			/* cJSON strings end at the first NUL: the row would
			 * silently test a shorter command. */
			ok(0, "%s:%u malformed case", name, lineno);
			diag("\\u0000 cannot be carried: cJSON ends strings "
			     "at NUL");
			continue;
		}
		row = cJSON_ParseWithLength(line, (size_t)n);
		if (!row) {
			ok(0, "%s:%u malformed case", name, lineno);
			diag("not valid JSON");
			continue;
		}
		if (!read_row(row, &w, err, sizeof(err))) {
			ok(0, "%s:%u malformed case", name, lineno);
			diag("%s", err);
		} else {
			run_row(cls, v, name, lineno, &w);
		}
		cJSON_Delete(row);
	}
	if (ferror(f)) {
		ok(0, "%s: read to the end", name);
		diag("%s: %s", path, strerror(errno));
	}
	free(line);
	fclose(f);
}

static int is_case_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 6 &&
	       strcmp(d->d_name + n - 6, ".jsonl") == 0;
}

int main(void)
{
	struct cordon_classifier *cls;
	struct cordon_verdict *v;
	struct dirent **ents = NULL;
	char dir[4096];
	int n;

	tap_no_plan();
	table_path(dir, sizeof(dir), "cases/shell");
	cls = cordon_classifier_new(NULL);
	v = cordon_verdict_new();
	no_cmds = cordon_verdict_new();
	if (no_cmds)
		verdict_set_commands(no_cmds, false);
	if (!cls || !v || !no_cmds) {
		cordon_verdict_free(no_cmds);
		ok(0, "classifier and verdict allocated");
		cordon_verdict_free(v);
		cordon_classifier_free(cls);
		return tap_done();
	}
	n = scandir(dir, &ents, is_case_file, alphasort);
	if (n <= 0) {
		ok(0, "case files found in %s", dir);
		if (n < 0)
			diag("%s", strerror(errno));
	}
	for (int i = 0; i < n; i++) {
		run_file(cls, v, dir, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	cordon_verdict_free(no_cmds);
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return tap_done();
}
