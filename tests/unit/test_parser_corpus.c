/* Every row of the shared parser corpus ($CORDON_CORPUS/parser.jsonl: shell
 * scripts from tree-sitter-bash, mvdan/sh and the oils spec tests) through
 * cordon_classify() with the default context.
 *
 * What must hold:
 *   - nothing crashes (the sanitizers watch), and no row takes more than
 *     2 s (an alarm fails the test); either way the row is named;
 *   - fail closed: no row that did not parse is rated safe, per source;
 *   - at least 93% of the rows marked parse-ok parse (the rest are mostly
 *     zsh, mksh and bats syntax from mvdan/sh's multi-dialect tests, which
 *     bash -n rejects too; cordon parses bash);
 *   - at least 60% of the rows marked parse-error are reported unparsed
 *     (cordon reads some bash that mvdan/sh refuses, and recovers from
 *     some errors, so this is a floor, not equality);
 *   - every call returns CORDON_OK or CORDON_E_LIMIT, and the verdict's
 *     JSON parses back.
 *
 * cJSON decodes the JSON escape \u0000 into a NUL byte inside a
 * NUL-terminated string and keeps no length, so for a line holding \u0000
 * the input is decoded again here, with its length (the corpus has one such
 * row, with NUL bytes between keywords; the count is printed).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "tap.h"
#include "text.h"

#define LIST_MAX 30
#define SHOW_MAX 80
#define SOURCES_MAX 16
#define ROW_SECONDS 2

struct source {
	char name[64];
	unsigned rows, unparsed, safe_unparsed;
	char listed[LIST_MAX][160];
};

static struct source sources[SOURCES_MAX];
static unsigned nsources;

/* The row being classified, written before each call so that the signal
 * handlers and the sanitizers' death callback only have to write(2) it:
 * "not ok N - parser.jsonl:L (source) " + what happened + the row. */
static char row_head[160], row_tail[200];
static size_t row_head_len, row_tail_len;

static void say(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void report_row(const char *what)
{
	static volatile sig_atomic_t reported;

	if (reported)
		return;
	reported = 1;
	say(row_head, row_head_len);
	say(what, strlen(what));
	say(row_tail, row_tail_len);
}

static void on_alarm(int sig)
{
	(void)sig;
	report_row("took more than 2 s");
	_exit(1);
}

/* A crash without a sanitizer: name the row, then die of the signal. */
static void on_fatal(int sig)
{
	report_row("crashed");
	signal(sig, SIG_DFL);
	raise(sig);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define HAVE_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) ||                                        \
	__has_feature(undefined_behavior_sanitizer)
#define HAVE_SANITIZER 1
#endif
#endif

#ifdef HAVE_SANITIZER
void __sanitizer_set_death_callback(void (*callback)(void));

/* An AddressSanitizer report: it has printed its stack; name the row. (gcc
 * links UBSan as a runtime of its own that does not call this; its report
 * still points into the code, and with abort_on_error=1 on_fatal names the
 * row.) */
static void on_death(void)
{
	report_row("crashed (sanitizer report above)");
}
#endif

/* Installs the handlers; leaves alone a signal someone else (a sanitizer)
 * already handles. */
static void handlers(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_fatal;
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		if (sigaction(fatal[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_DFL)
			sigaction(fatal[i], &sa, NULL);
	}
#ifdef HAVE_SANITIZER
	__sanitizer_set_death_callback(on_death);
#endif
}

/* The one-line form of s[0..n) for diagnostics: control bytes escaped,
 * '#' kept (diagnostics are not test names), cut at SHOW_MAX bytes. */
static void show(char *out, size_t cap, const char *s, size_t n)
{
	size_t o = 0;
	int cut = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		size_t k;

		if (c == '\n')
			k = (size_t)snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			k = (size_t)snprintf(esc, sizeof(esc), "\\t");
		else if (c < 0x20 || c == 0x7f)
			k = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		else {
			esc[0] = (char)c;
			k = 1;
		}
		if (o + k > SHOW_MAX || o + k + 1 > cap) {
			cut = 1;
			break;
		}
		memcpy(out + o, esc, k);
		o += k;
	}
	while (cut && o > 0 && ((unsigned char)out[o - 1] & 0x80)) {
		/* Drop a UTF-8 sequence the cut may have split. */
		unsigned char c = (unsigned char)out[--o];

		if (c & 0x40)
			break;
	}
	out[o] = '\0';
}

/* Reads 4 hex digits at s. Returns the value, or -1. */
static long hex4(const char *s)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Decodes the JSON string whose opening quote is at s[*i] (s holds n bytes),
 * into a malloc'd buffer of *len bytes (NUL bytes kept), and moves *i past
 * the closing quote. With out == NULL only skips. Returns 0, or -1 when the
 * string is malformed or memory runs out. */
static int json_string(const char *s, size_t n, size_t *i, char **out,
		       size_t *len)
{
	char *buf = NULL;
	size_t o = 0, p = *i + 1;

	if (out) {
		buf = malloc(n + 1); /* decoding never lengthens */
		if (!buf)
			return -1;
	}
	while (p < n && s[p] != '"') {
		char tmp[4];
		size_t k = 1;

		if (s[p] != '\\') {
			tmp[0] = s[p++];
		} else {
			long cp;

			if (p + 1 >= n)
				goto bad;
			switch (s[p + 1]) {
			case '"': case '\\': case '/':
				tmp[0] = s[p + 1];
				break;
			case 'b': tmp[0] = '\b'; break;
			case 'f': tmp[0] = '\f'; break;
			case 'n': tmp[0] = '\n'; break;
			case 'r': tmp[0] = '\r'; break;
			case 't': tmp[0] = '\t'; break;
			case 'u':
				if (p + 6 > n || (cp = hex4(s + p + 2)) < 0)
					goto bad;
				p += 4;
				if (cp >= 0xd800 && cp < 0xdc00 && p + 8 <= n &&
				    s[p + 2] == '\\' && s[p + 3] == 'u') {
					long lo = hex4(s + p + 4);

					if (lo >= 0xdc00 && lo < 0xe000) {
						cp = 0x10000 +
						     ((cp - 0xd800) << 10) +
						     (lo - 0xdc00);
						p += 6;
					}
				}
				/* a lone surrogate: what a decoder
				 * writes for it */
				k = text_utf8_encode((uint32_t)cp, tmp);
				if (k == 0)
					k = text_utf8_encode(0xfffd, tmp);
				break;
			default:
				goto bad;
			}
			p += 2;
		}
		if (buf) {
			memcpy(buf + o, tmp, k);
			o += k;
		}
	}
	if (p >= n)
		goto bad;
	*i = p + 1;
	if (out) {
		buf[o] = '\0';
		*out = buf;
		*len = o;
	}
	return 0;
bad:
	free(buf);
	return -1;
}

/* Moves *i past a JSON value that is not a string (a number, literal,
 * array or object) to the ',' or '}' that ends it. Returns 0, or -1 when a
 * string inside is malformed. */
static int skip_value(const char *s, size_t n, size_t *i)
{
	int depth = 0;

	while (*i < n) {
		char c = s[*i];

		if (c == '"') {
			if (json_string(s, n, i, NULL, NULL) < 0)
				return -1;
			continue;
		}
		if (depth == 0 && (c == ',' || c == '}'))
			break;
		if (c == '[' || c == '{')
			depth++;
		else if (c == ']' || c == '}')
			depth--;
		(*i)++;
	}
	return 0;
}

/* The string value of top-level key `key` in the JSON object line[0..n),
 * decoded with its length (NUL bytes kept). NULL when absent, not a string
 * or malformed. The line has already parsed with cJSON, so only its shape
 * is walked here. */
static char *raw_field(const char *s, size_t n, const char *key, size_t *len)
{
	size_t i = 0, klen = strlen(key);

	while (i < n && s[i] != '{')
		i++;
	i++;
	while (i < n) {
		size_t k0;
		int match;

		while (i < n && s[i] != '"' && s[i] != '}')
			i++;
		if (i >= n || s[i] == '}')
			return NULL;
		k0 = i;
		if (json_string(s, n, &i, NULL, NULL) < 0)
			return NULL;
		match = i - k0 == klen + 2 &&
			memcmp(s + k0 + 1, key, klen) == 0;
		while (i < n && (s[i] == ' ' || s[i] == ':' || s[i] == '\t'))
			i++;
		if (i < n && s[i] == '"') {
			char *v = NULL;

			if (json_string(s, n, &i, match ? &v : NULL, len) < 0)
				return NULL;
			if (match)
				return v;
		} else {
			if (match || skip_value(s, n, &i) < 0)
				return NULL;
		}
	}
	return NULL;
}

static struct source *source_get(const char *name)
{
	for (unsigned i = 0; i < nsources; i++)
		if (strcmp(sources[i].name, name) == 0)
			return &sources[i];
	if (nsources == SOURCES_MAX)
		return &sources[SOURCES_MAX - 1];
	snprintf(sources[nsources].name, sizeof(sources[0].name), "%s", name);
	return &sources[nsources++];
}

/* Prepares what the handlers print for the row at lineno, and sets the
 * alarm. */
static void arm(unsigned lineno, const char *src, const char *text,
		size_t len)
{
	char shown[SHOW_MAX + 8];
	int k;

	show(shown, sizeof(shown), text, len);
	k = snprintf(row_head, sizeof(row_head),
		     "not ok %d - parser.jsonl:%u (%.40s) ", tap_state.run + 1,
		     lineno, src);
	row_head_len = k < 0 ? 0 : (size_t)k >= sizeof(row_head)
					   ? sizeof(row_head) - 1
					   : (size_t)k;
	k = snprintf(row_tail, sizeof(row_tail), "\n# row: %s\n1..%d\n",
		     shown, tap_state.run + 1);
	row_tail_len = k < 0 ? 0 : (size_t)k >= sizeof(row_tail)
					   ? sizeof(row_tail) - 1
					   : (size_t)k;
	alarm(ROW_SECONDS);
}

static int json_ok(const struct cordon_verdict *v)
{
	char *js = cordon_verdict_to_json(v);
	cJSON *root = js ? cJSON_Parse(js) : NULL;
	int good = cJSON_IsObject(root);

	cJSON_Delete(root);
	free(js);
	return good;
}

static double pct(unsigned a, unsigned b)
{
	return b ? 100.0 * a / b : 100.0;
}

int main(void)
{
	const char *corpus = getenv("CORDON_CORPUS");
	const char *root = getenv("CORDON_SOURCE_ROOT");
	char path[4096], shown[SHOW_MAX + 8];
	char ok_fail[LIST_MAX][160], bad_rows[LIST_MAX][160];
	unsigned rows = 0, bad = 0, nul_rows = 0, rc_bad = 0, js_bad = 0;
	unsigned ok_rows = 0, ok_parsed = 0, err_rows = 0, err_unparsed = 0;
	unsigned limit_rows = 0, lineno = 0;
	int plen;
	struct cordon_classifier *cls;
	struct cordon_verdict *v;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	if (corpus)
		plen = snprintf(path, sizeof(path), "%s/parser.jsonl", corpus);
	else
		plen = snprintf(path, sizeof(path),
				"%s/../shared/corpus/parser.jsonl",
				root ? root : ".");
	f = plen > 0 && (size_t)plen < sizeof(path) ? fopen(path, "r") : NULL;
	if (!f) {
		printf("1..0 # SKIP parser corpus not found at %s "
		       "(set CORDON_CORPUS)\n",
		       path);
		return 0;
	}
	tap_no_plan();
	handlers();

	cls = cordon_classifier_new(NULL);
	v = cordon_verdict_new();
	if (!cls || !v) {
		ok(0, "classifier and verdict allocated");
		goto out;
	}

	while ((n = getline(&line, &cap, f)) >= 0) {
		const cJSON *input, *expect, *src;
		const char *text;
		char *owned = NULL;
		struct source *s;
		enum cordon_err rc;
		enum cordon_risk risk;
		cJSON *row;
		size_t len;
		int parsed;

		lineno++;
		if (n == 0 || (n == 1 && line[0] == '\n'))
			continue;
		row = cJSON_ParseWithLength(line, (size_t)n);
		input = cJSON_GetObjectItemCaseSensitive(row, "input");
		expect = cJSON_GetObjectItemCaseSensitive(row, "expect");
		src = cJSON_GetObjectItemCaseSensitive(row, "source");
		if (!cJSON_IsString(input) || !cJSON_IsString(expect) ||
		    !cJSON_IsString(src)) {
			if (bad < LIST_MAX)
				snprintf(bad_rows[bad], sizeof(bad_rows[0]),
					 "line %u: not an object with string "
					 "input, expect and source",
					 lineno);
			bad++;
			cJSON_Delete(row);
			continue;
		}
		rows++;
		text = input->valuestring;
		len = strlen(text);
		if (memmem(line, (size_t)n, "\\u0000", 6)) {
			owned = raw_field(line, (size_t)n, "input", &len);
			if (owned) {
				text = owned;
				nul_rows++;
			} else {
				len = strlen(text);
			}
		}
		s = source_get(src->valuestring);
		s->rows++;

		arm(lineno, src->valuestring, text, len);
		rc = cordon_classify(cls, NULL, text, len, v, NULL);
		alarm(0);

		if (rc == CORDON_E_LIMIT)
			limit_rows++;
		else if (rc != CORDON_OK)
			rc_bad++;
		if (!json_ok(v))
			js_bad++;
		risk = cordon_verdict_risk(v);
		parsed = cordon_verdict_parsed(v) != 0;
		show(shown, sizeof(shown), text, len);
		if (!parsed) {
			s->unparsed++;
			if (risk < CORDON_RISK_CAUTION) {
				if (s->safe_unparsed < LIST_MAX)
					snprintf(s->listed[s->safe_unparsed],
						 sizeof(s->listed[0]),
						 "line %u: %s", lineno, shown);
				s->safe_unparsed++;
			}
		}
		if (strcmp(expect->valuestring, "parse-ok") == 0) {
			ok_rows++;
			if (parsed) {
				ok_parsed++;
			} else {
				unsigned k = ok_rows - ok_parsed - 1;

				if (k < LIST_MAX)
					snprintf(ok_fail[k], sizeof(ok_fail[0]),
						 "line %u (%s): %s", lineno,
						 src->valuestring, shown);
			}
		} else if (strcmp(expect->valuestring, "parse-error") == 0) {
			err_rows++;
			if (!parsed)
				err_unparsed++;
		}
		free(owned);
		cJSON_Delete(row);
	}

	diag("%u rows from %s", rows, path);
	for (unsigned i = 0; i < nsources; i++)
		diag("  %-18s %5u rows, %5u unparsed", sources[i].name,
		     sources[i].rows, sources[i].unparsed);
	diag("parse-ok rows:    %u, parsed %u (%.2f%%)", ok_rows, ok_parsed,
	     pct(ok_parsed, ok_rows));
	diag("parse-error rows: %u, unparsed %u (%.2f%%)", err_rows,
	     err_unparsed, pct(err_unparsed, err_rows));
	diag("over a limit (CORDON_E_LIMIT): %u", limit_rows);
	diag("rows holding \\u0000 (NUL bytes passed with the length): %u",
	     nul_rows);

	ok(bad == 0 && rows > 0, "every corpus line is a row (%u rows, %u bad)",
	   rows, bad);
	for (unsigned i = 0; i < bad && i < LIST_MAX; i++)
		diag("%s", bad_rows[i]);

	for (unsigned i = 0; i < nsources; i++) {
		struct source *s = &sources[i];

		ok(s->safe_unparsed == 0,
		   "%s: no unparsed row rated safe (%u unparsed, %u safe)",
		   s->name, s->unparsed, s->safe_unparsed);
		for (unsigned k = 0; k < s->safe_unparsed && k < LIST_MAX; k++)
			diag("%s", s->listed[k]);
	}

	/* 93%: integer comparison, parsed/rows >= 93/100. */
	ok((uint64_t)ok_parsed * 100 >= (uint64_t)ok_rows * 93 && ok_rows > 0,
	   "parse-ok rows parse: %u of %u (%.2f%%, floor 93%%)", ok_parsed,
	   ok_rows, pct(ok_parsed, ok_rows));
	for (unsigned k = 0; k < ok_rows - ok_parsed && k < LIST_MAX; k++)
		diag("%s", ok_fail[k]);
	if (ok_rows - ok_parsed > LIST_MAX)
		diag("... and %u more", ok_rows - ok_parsed - LIST_MAX);

	ok((uint64_t)err_unparsed * 100 >= (uint64_t)err_rows * 60 &&
		   err_rows > 0,
	   "parse-error rows reported unparsed: %u of %u (%.2f%%, floor 60%%)",
	   err_unparsed, err_rows, pct(err_unparsed, err_rows));

	ok(rc_bad == 0,
	   "every call returned CORDON_OK or CORDON_E_LIMIT (%u did not)",
	   rc_bad);
	ok(js_bad == 0, "every verdict's JSON parses back (%u did not)",
	   js_bad);
	ok(1, "all %u rows classified, none over %d s", rows, ROW_SECONDS);
out:
	free(line);
	fclose(f);
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return tap_done();
}
