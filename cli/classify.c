/* cordon classify — rate shell commands: one from the command line (human
 * view or --json), or a batch of JSON lines on stdin (--jsonl).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "buf.h"
#include "cli.h"
#include "classify_int.h"
#include "cordon.h"
#include "json.h"
#include "text.h"
#include "verdict_json.h"

#include "banned.h"

#define MAX_DEPTH_CEILING 100
/* The batch writes its result lines out once they fill this much, and
 * reads at most this much at a time. */
#define JSONL_OUT_CHUNK (64 * 1024)
#define JSONL_READ_CHUNK (64 * 1024)

void cli_classify_usage(FILE *out)
{
	fputs("usage: cordon classify [OPTIONS] [--] CMD...\n"
	      "       cordon classify --jsonl [OPTIONS] < commands.jsonl\n"
	      "\n"
	      "Rates a shell command: risk tier (safe < caution < destructive <\n"
	      "blocked), labels, reasons, and a verdict per segment. The words\n"
	      "of CMD are joined with spaces; quote the command as one argument\n"
	      "to keep its quoting. Nothing is run.\n"
	      "\n"
	      "options:\n"
	      "  --cwd DIR        directory the command runs in (default: the\n"
	      "                   current directory)\n"
	      "  --workspace DIR  the workspace root (default: the cwd)\n"
	      "  --home DIR       the home directory (default: $HOME)\n"
	      "  --rules FILE     add user rules from a JSON file\n"
	      "  --max-depth N    payload recursion depth (sh -c, eval ...;\n"
	      "                   default 4)\n"
	      "  --json           print the verdict as one JSON object\n"
	      "  --jsonl          batch: read one JSON value a line on stdin (a\n"
	      "                   command string, or {\"command\", \"cwd\",\n"
	      "                   \"workspace\", \"home\"}), print one JSON line\n"
	      "                   per input line, in order\n"
	      "  -h, --help       show this help\n"
	      "\n"
	      "exit status: 0 when the command was classified (whatever its\n"
	      "tier), 1 on an I/O error, 2 on a usage or configuration error.\n",
	      out);
}

/* ---- display helpers --------------------------------------------------- */

int cli_colour_enabled(FILE *out)
{
	const char *term = getenv("TERM");

	if (getenv("NO_COLOR"))
		return 0;
	if (term && strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(out));
}

static const char *risk_colour(enum cordon_risk risk)
{
	switch (risk) {
	case CORDON_RISK_SAFE:
		return "\033[32m";
	case CORDON_RISK_CAUTION:
		return "\033[33m";
	case CORDON_RISK_DESTRUCTIVE:
		return "\033[31m";
	case CORDON_RISK_BLOCKED:
		return "\033[1;31m";
	}
	return "";
}

void cli_print_risk(FILE *out, enum cordon_risk risk, int width, int colour)
{
	if (colour)
		fputs(risk_colour(risk), out);
	fprintf(out, "%-*s", width, cordon_risk_name(risk));
	if (colour)
		fputs("\033[0m", out);
}

size_t cli_print_labels(FILE *out, uint64_t labels)
{
	size_t n = 0;

	for (unsigned bit = 0; bit < CORDON_LABEL_COUNT; bit++) {
		const char *name = cordon_label_name(bit);

		if (!(labels & (UINT64_C(1) << bit)) || !name)
			continue;
		if (n) {
			fputs(", ", out);
			n += 2;
		}
		fputs(name, out);
		n += strlen(name);
	}
	if (!n) {
		fputc('-', out);
		n = 1;
	}
	return n;
}

size_t cli_labels_width(uint64_t labels)
{
	size_t n = 0;

	for (unsigned bit = 0; bit < CORDON_LABEL_COUNT; bit++) {
		const char *name = cordon_label_name(bit);

		if ((labels & (UINT64_C(1) << bit)) && name)
			n += (n ? 2 : 0) + strlen(name);
	}
	return n ? n : 1;
}

/* Code points a terminal acts on or that reorder text (C1 controls, bidi
 * embeddings, overrides and isolates, line and paragraph separators). */
static int dangerous_code_point(long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c ||
	       (cp >= 0x200e && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void cli_print_escaped(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t len = text_utf8_decode(p + i, n - i, &cp);

		if (len == 0) {
			fprintf(out, "\\x%02x", p[i]);
			i++;
			continue;
		}
		if (cp == '\n')
			fputs("\\n", out);
		else if (cp == '\t')
			fputs("\\t", out);
		else if (cp == '\r')
			fputs("\\r", out);
		else if (cp < 0x20 || cp == 0x7f)
			fprintf(out, "\\x%02x", (unsigned)cp);
		else if (dangerous_code_point(cp))
			fprintf(out, "\\u{%04lx}", (unsigned long)cp);
		else
			fwrite(p + i, 1, len, out);
		i += len;
	}
}

/* ---- options and context ----------------------------------------------- */

struct classify_opts {
	const char *cwd;
	const char *workspace;
	const char *home;
	const char *rules;
	unsigned max_depth;
	int has_max_depth;
	int json;
	int jsonl;
};

/* The batch-wide context; per-line fields override it in --jsonl. */
struct base_context {
	char *cwd; /* owned */
	char *workspace; /* owned; NULL: follows the cwd */
	const char *home;
};

/* A malloc'd absolute form of path: relative paths are taken against the
 * current directory (not resolved: the directory need not exist here). NULL
 * with errno set on failure. */
static char *absolute_path(const char *path)
{
	char *cwd, *out;
	size_t a, b;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	a = strlen(cwd);
	b = strlen(path);
	if (a > SIZE_MAX - b - 2) {
		free(cwd);
		errno = ENAMETOOLONG;
		return NULL;
	}
	out = malloc(a + b + 2);
	if (out) {
		memcpy(out, cwd, a);
		out[a] = '/';
		memcpy(out + a + 1, path, b + 1);
	}
	free(cwd);
	return out;
}

static int base_context_init(struct base_context *bc,
			     const struct classify_opts *o)
{
	memset(bc, 0, sizeof(*bc));
	bc->cwd = o->cwd ? absolute_path(o->cwd) : getcwd(NULL, 0);
	if (!bc->cwd) {
		fprintf(stderr,
			"cordon classify: cannot determine the directory: %s "
			"(pass --cwd)\n",
			strerror(errno));
		return -1;
	}
	if (o->workspace) {
		bc->workspace = absolute_path(o->workspace);
		if (!bc->workspace) {
			fprintf(stderr, "cordon classify: --workspace: %s\n",
				strerror(errno));
			free(bc->cwd);
			return -1;
		}
	}
	bc->home = o->home ? o->home : getenv("HOME");
	/* A $HOME that is empty or relative says nothing usable. */
	if (!o->home && bc->home && bc->home[0] != '/')
		bc->home = NULL;
	if (bc->home && bc->home[0] != '/') {
		fprintf(stderr,
			"cordon classify: the home directory must be an "
			"absolute path: %s\n",
			bc->home);
		free(bc->workspace);
		free(bc->cwd);
		return -1;
	}
	return 0;
}

static void base_context_release(struct base_context *bc)
{
	free(bc->cwd);
	free(bc->workspace);
}

/* Parses a decimal number in [0, max]; -1 when s is not one. */
static long parse_number(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	return (long)v;
}

/* Returns 0 with *o filled and *first at the first CMD word, 1 when --help
 * was printed, -1 on a usage error (already reported). */
static int parse_options(int argc, char **argv, struct classify_opts *o,
			 int *first)
{
	enum {
		OPT_CWD = 256,
		OPT_WORKSPACE,
		OPT_HOME,
		OPT_RULES,
		OPT_MAX_DEPTH,
		OPT_JSON,
		OPT_JSONL
	};
	static const struct option longopts[] = {
		{ "cwd", required_argument, NULL, OPT_CWD },
		{ "workspace", required_argument, NULL, OPT_WORKSPACE },
		{ "home", required_argument, NULL, OPT_HOME },
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "jsonl", no_argument, NULL, OPT_JSONL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	long depth;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	optind = 1;
	/* "+": stop at the first word of the command, so its own options
	 * (rm -rf) are not taken for ours. */
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CWD:
			o->cwd = optarg;
			break;
		case OPT_WORKSPACE:
			o->workspace = optarg;
			break;
		case OPT_HOME:
			o->home = optarg;
			break;
		case OPT_RULES:
			o->rules = optarg;
			break;
		case OPT_MAX_DEPTH:
			depth = parse_number(optarg, MAX_DEPTH_CEILING);
			if (depth < 0) {
				fprintf(stderr,
					"cordon classify: --max-depth: expected "
					"a number from 0 to %d, got '%s'\n",
					MAX_DEPTH_CEILING, optarg);
				return -1;
			}
			o->max_depth = (unsigned)depth;
			o->has_max_depth = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_JSONL:
			o->jsonl = 1;
			break;
		case 'h':
			cli_classify_usage(stdout);
			return 1;
		case ':':
		default:
			cli_getopt_error("classify", c, argv);
			goto usage;
		}
	}
	if (o->json && o->jsonl) {
		fputs("cordon classify: --json and --jsonl exclude each "
		      "other\n",
		      stderr);
		goto usage;
	}
	if (o->jsonl && optind < argc) {
		fputs("cordon classify: --jsonl reads the commands from stdin; "
		      "give no command\n",
		      stderr);
		goto usage;
	}
	if (!o->jsonl && optind >= argc) {
		fputs("cordon classify: no command given\n", stderr);
		goto usage;
	}
	*first = optind;
	return 0;
usage:
	fputs("Try 'cordon classify --help'.\n", stderr);
	return -1;
}

/* The words of argv joined with single spaces, malloc'd in *out (length in
 * *len). -1 when out of memory or too long. */
static int join_words(int argc, char **argv, char **out, size_t *len)
{
	size_t total = 0, o = 0;
	char *buf;

	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + (i ? 1 : 0);

		if (total > SIZE_MAX - n - 1)
			return -1;
		total += n;
	}
	buf = malloc(total + 1);
	if (!buf)
		return -1;
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]);

		if (i)
			buf[o++] = ' ';
		memcpy(buf + o, argv[i], n);
		o += n;
	}
	buf[o] = '\0';
	*out = buf;
	*len = o;
	return 0;
}

/* Reads the rules file at path (at most max bytes) into the classifier.
 * Reports and returns -1 on any error. */
static int load_rules(struct cordon_classifier *cls, const char *path,
		      size_t max)
{
	struct cordon_diag diag;
	enum cordon_err rc;
	struct buf b = BUF_INIT(max);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0) {
		fprintf(stderr, "cordon: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (atomic_read_all(fd, &b) != 0) {
		if (errno == EFBIG)
			fprintf(stderr,
				"cordon: %s: larger than max_rules_bytes (%zu "
				"bytes)\n",
				path, max);
		else
			fprintf(stderr, "cordon: %s: %s\n", path,
				strerror(errno));
		goto out;
	}
	memset(&diag, 0, sizeof(diag));
	rc = cordon_classifier_add_rules_json(cls, buf_str(&b), buf_len(&b),
					      &diag);
	if (rc != CORDON_OK) {
		fprintf(stderr, "cordon: %s: %s\n", path,
			diag.message[0] ? diag.message : cordon_strerror(rc));
		goto out;
	}
	ret = 0;
out:
	buf_free(&b);
	close(fd);
	return ret;
}

/* ---- one command -------------------------------------------------------- */

static void print_human(FILE *out, const struct cordon_verdict *v)
{
	int colour = cli_colour_enabled(out);
	size_t nseg = cordon_verdict_segment_count(v);
	size_t nreason = cordon_verdict_reason_count(v);
	size_t nrule = cordon_verdict_rule_count(v);
	size_t width = strlen("LABELS");

	fputs("risk: ", out);
	cli_print_risk(out, cordon_verdict_risk(v), 0, colour);
	fputs("\nlabels: ", out);
	cli_print_labels(out, cordon_verdict_labels(v));
	fputc('\n', out);

	if (nseg) {
		for (size_t i = 0; i < nseg; i++) {
			size_t len;
			enum cordon_risk r;
			uint64_t l = 0;

			if (cordon_verdict_segment(v, i, &len, &r, &l) &&
			    cli_labels_width(l) > width)
				width = cli_labels_width(l);
		}
		fprintf(out, "segments:\n  %-11s  %-*s  %s\n", "RISK",
			(int)width, "LABELS", "TEXT");
		for (size_t i = 0; i < nseg; i++) {
			size_t len = 0, w;
			enum cordon_risk r = CORDON_RISK_BLOCKED;
			uint64_t l = 0;
			const char *text =
				cordon_verdict_segment(v, i, &len, &r, &l);

			fputs("  ", out);
			cli_print_risk(out, r, 11, colour);
			fputs("  ", out);
			w = cli_print_labels(out, l);
			fprintf(out, "%*s  ", (int)(w < width ? width - w : 0),
				"");
			if (text)
				cli_print_escaped(out, text, len);
			fputc('\n', out);
		}
	}

	if (nreason) {
		fputs("reasons:\n", out);
		for (size_t i = 0; i < nreason; i++) {
			const char *s = cordon_verdict_reason(v, i);

			fputs("  - ", out);
			if (s)
				cli_print_escaped(out, s, strlen(s));
			fputc('\n', out);
		}
	} else {
		fputs("reasons: -\n", out);
	}

	fputs("rules: ", out);
	for (size_t i = 0; i < nrule; i++) {
		const char *s = cordon_verdict_rule(v, i);

		if (i)
			fputs(", ", out);
		if (s)
			cli_print_escaped(out, s, strlen(s));
	}
	fputs(nrule ? "\n" : "-\n", out);

	if (!cordon_verdict_parsed(v))
		fputs("parsed: no\n", out);
}

static int classify_one(struct cordon_classifier *cls,
			const struct base_context *bc, const char *cmd,
			size_t len, int json)
{
	struct cordon_context ctx = {
		.cwd = bc->cwd,
		.workspace = bc->workspace ? bc->workspace : bc->cwd,
		.home = bc->home,
		.tmpdir = NULL,
	};
	struct cordon_verdict *v = cordon_verdict_new();
	struct cordon_diag diag;
	enum cordon_err rc;
	int status = CLI_EXIT_OK;

	if (!v) {
		fputs("cordon classify: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	memset(&diag, 0, sizeof(diag));
	rc = cordon_classify(cls, &ctx, cmd, len, v, &diag);
	if (rc != CORDON_OK)
		fprintf(stderr, "cordon classify: %s\n",
			diag.message[0] ? diag.message : cordon_strerror(rc));
	if (json) {
		char *s = cordon_verdict_to_json(v);

		if (!s) {
			fputs("cordon classify: out of memory\n", stderr);
			status = CLI_EXIT_FAILURE;
		} else {
			fputs(s, stdout);
			fputc('\n', stdout);
			free(s);
		}
	} else {
		print_human(stdout, v);
	}
	cordon_verdict_free(v);
	return status;
}

/* ---- --jsonl ------------------------------------------------------------ */

/* Reads lines of at most limit bytes from a file descriptor; longer lines
 * are reported and skipped up to the next newline. */
struct line_reader {
	int fd;
	char *buf;
	size_t cap; /* limit + 1: a full buffer without a newline is too long */
	size_t start, end;
	size_t limit;
	int eof;
};

enum line_status { LINE_OK, LINE_TOO_LONG, LINE_EOF, LINE_ERROR };

static int line_reader_init(struct line_reader *r, int fd, size_t limit)
{
	memset(r, 0, sizeof(*r));
	if (limit == SIZE_MAX)
		limit--;
	r->fd = fd;
	r->limit = limit;
	r->cap = limit + 1;
	r->buf = malloc(r->cap);
	return r->buf ? 0 : -1;
}

/* Reads more into buf[end..cap). 1 when bytes came, 0 at end of input, -1 on
 * error. */
static int line_reader_fill(struct line_reader *r)
{
	size_t room = r->cap - r->end;

	/* a piece at a time: the buffer's first pages are reused and stay
	 * in the cache; only a long line reaches further into it */
	if (room > JSONL_READ_CHUNK)
		room = JSONL_READ_CHUNK;
	for (;;) {
		ssize_t n = read(r->fd, r->buf + r->end, room);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			r->eof = 1;
			return 0;
		}
		r->end += (size_t)n;
		return 1;
	}
}

/* Skips the rest of an over-long line, through its newline. */
static enum line_status line_reader_skip(struct line_reader *r)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);

		if (nl) {
			r->start = (size_t)(nl - r->buf) + 1;
			return LINE_TOO_LONG;
		}
		r->start = r->end = 0;
		if (r->eof)
			return LINE_TOO_LONG;
		if (line_reader_fill(r) < 0)
			return LINE_ERROR;
	}
}

static enum line_status line_reader_next(struct line_reader *r, char **line,
					 size_t *len)
{
	size_t scanned = 0;

	for (;;) {
		char *p = r->buf + r->start;
		size_t pending = r->end - r->start;
		char *nl = memchr(p + scanned, '\n', pending - scanned);

		if (nl) {
			*line = p;
			*len = (size_t)(nl - p);
			r->start += *len + 1;
			return *len > r->limit ? LINE_TOO_LONG : LINE_OK;
		}
		if (pending > r->limit)
			return line_reader_skip(r);
		if (r->eof) {
			if (!pending)
				return LINE_EOF;
			*line = p;
			*len = pending;
			r->start = r->end;
			return LINE_OK;
		}
		scanned = pending;
		if (r->start) {
			memmove(r->buf, p, pending);
			r->start = 0;
			r->end = pending;
		}
		if (line_reader_fill(r) < 0)
			return LINE_ERROR;
	}
}

/* The batch's output: the result lines gathered in one buffer that is
 * written out (write(2)) a JSONL_OUT_CHUNK at a time, instead of a
 * malloc'd string and a stdio copy per line. */
struct jsonl_out {
	struct buf b;
	int err; /* a failed write's errno: nothing more is written */
};

/* Writes out the first n bytes of the buffer and empties it (clearing a
 * failure of the line after them). */
static void jsonl_out_write(struct jsonl_out *o, size_t n)
{
	if (!o->err && n &&
	    atomic_write_all(STDOUT_FILENO, buf_str(&o->b), n) < 0)
		o->err = errno ? errno : EIO;
	buf_reset(&o->b);
}

static void jsonl_out_flush(struct jsonl_out *o)
{
	jsonl_out_write(o, buf_len(&o->b));
}

/* The line just added is complete: write out once a chunk is full. */
static void jsonl_out_line(struct jsonl_out *o)
{
	if (buf_len(&o->b) >= JSONL_OUT_CHUNK)
		jsonl_out_flush(o);
}

static void print_error_line(struct jsonl_out *o, const char *msg,
			     size_t lineno)
{
	cJSON *obj = cJSON_CreateObject();
	char *s = NULL;
	size_t mark = buf_len(&o->b);

	if (obj && cJSON_AddStringToObject(obj, "error", msg) &&
	    cJSON_AddNumberToObject(obj, "line", (double)lineno))
		s = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	if (!s || !buf_adds(&o->b, s) || !buf_addc(&o->b, '\n')) {
		char oom[64];
		int n = snprintf(oom, sizeof(oom),
				 "{\"error\":\"out of memory\",\"line\":%zu}\n",
				 lineno);

		jsonl_out_write(o, mark);
		if (!o->err &&
		    atomic_write_all(STDOUT_FILENO, oom, (size_t)n) < 0)
			o->err = errno ? errno : EIO;
	}
	free(s);
	jsonl_out_line(o);
}

/* A context path from a line object: absent or null keeps *dst, a string
 * must be absolute. Returns an error message or NULL. */
static const char *line_path(const cJSON *obj, const char *key,
			     const char **dst)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!item || cJSON_IsNull(item))
		return NULL;
	if (!cJSON_IsString(item))
		return "must be a string";
	if (item->valuestring[0] != '/')
		return "must be an absolute path";
	*dst = item->valuestring;
	return NULL;
}

/* The common batch line, a JSON string without escapes or control
 * characters ("git status"), blanks around it allowed: sets the command to
 * the bytes between the quotes, which is what cJSON would give, without
 * building a cJSON tree. False for any other line. */
static bool plain_json_string(const char *s, size_t n, const char **cmd,
			      size_t *cmdlen)
{
	size_t i = 0, e;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n || s[i] != '"')
		return false;
	for (e = i + 1;; e++) {
		unsigned char c;

		e += json_plain_span(s + e, n - e);
		if (e == n)
			return false;
		c = (unsigned char)s[e];
		if (c == '"')
			break;
		if (c < 0x20 || c == '\\')
			return false;
		/* a byte from 0x80: taken as it is, as cJSON does */
	}
	*cmd = s + i + 1;
	*cmdlen = e - i - 1;
	for (e++; e < n; e++)
		if (s[e] != ' ' && s[e] != '\t')
			return false;
	return true;
}

/* Classifies one command of the batch and adds its result line. */
static void jsonl_classify(struct cordon_classifier *cls,
			   const struct cordon_context *ctx,
			   struct cordon_verdict *v, struct jsonl_out *o,
			   const char *cmd, size_t len, size_t lineno)
{
	size_t mark = buf_len(&o->b);

	(void)cordon_classify(cls, ctx, cmd, len, v, NULL);
	if (!verdict_json_add(&o->b, v) || !buf_addc(&o->b, '\n')) {
		/* the lines before this one still go out */
		jsonl_out_write(o, mark);
		print_error_line(o, "out of memory", lineno);
		return;
	}
	jsonl_out_line(o);
}

/* Classifies one batch line and prints its result line. */
static void jsonl_line(struct cordon_classifier *cls,
		       const struct base_context *bc, struct cordon_verdict *v,
		       struct jsonl_out *o, char *line, size_t len,
		       size_t lineno)
{
	struct cordon_context ctx = {
		.cwd = bc->cwd,
		.workspace = bc->workspace,
		.home = bc->home,
	};
	static const char *const keys[] = { "cwd", "workspace", "home" };
	const char **dsts[] = { &ctx.cwd, &ctx.workspace, &ctx.home };
	const char *parse_end = NULL, *err, *cmd;
	char msg[128];
	cJSON *root;
	size_t i;

	if (len && line[len - 1] == '\r')
		len--;
	for (i = 0; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		;
	if (i == len) {
		print_error_line(o, "empty line", lineno);
		return;
	}
	{
		size_t cn;

		if (plain_json_string(line, len, &cmd, &cn)) {
			if (!ctx.workspace)
				ctx.workspace = ctx.cwd;
			jsonl_classify(cls, &ctx, v, o, cmd, cn, lineno);
			return;
		}
	}
	root = cJSON_ParseWithLengthOpts(line, len, &parse_end, 0);
	if (root && parse_end) {
		while (parse_end < line + len &&
		       (*parse_end == ' ' || *parse_end == '\t'))
			parse_end++;
		if (parse_end != line + len) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (!root) {
		size_t at = parse_end && parse_end >= line ?
				    (size_t)(parse_end - line) + 1 :
				    1;

		snprintf(msg, sizeof(msg), "malformed JSON near column %zu",
			 at > len ? len : at);
		print_error_line(o, msg, lineno);
		return;
	}
	/* cJSON would cut the string at it: refused rather than classified
	 * as a shorter command */
	if (json_nul_escape_at(line, len) != len) {
		print_error_line(o,
				 "a NUL character (\\u0000) in a string is "
				 "not supported",
				 lineno);
		goto out;
	}
	if (cJSON_IsString(root)) {
		cmd = root->valuestring;
	} else if (cJSON_IsObject(root)) {
		const cJSON *c =
			cJSON_GetObjectItemCaseSensitive(root, "command");

		if (!cJSON_IsString(c)) {
			print_error_line(o,
					 c ? "\"command\" must be a string" :
					     "missing \"command\"",
					 lineno);
			goto out;
		}
		cmd = c->valuestring;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			err = line_path(root, keys[k], dsts[k]);
			if (err) {
				snprintf(msg, sizeof(msg), "\"%s\" %s", keys[k],
					 err);
				print_error_line(o, msg, lineno);
				goto out;
			}
		}
	} else {
		print_error_line(o,
				 "expected a JSON string or an object with "
				 "\"command\"",
				 lineno);
		goto out;
	}
	/* The workspace: the line's, else the batch's --workspace, else the
	 * line's cwd. */
	if (!ctx.workspace)
		ctx.workspace = ctx.cwd;
	jsonl_classify(cls, &ctx, v, o, cmd, strlen(cmd), lineno);
out:
	cJSON_Delete(root);
}

static int run_jsonl(struct cordon_classifier *cls,
		     const struct base_context *bc, size_t limit)
{
	struct jsonl_out out = { BUF_INIT(SIZE_MAX / 2), 0 };
	struct line_reader r;
	struct cordon_verdict *v = cordon_verdict_new();
	char msg[128];
	size_t lineno = 0;
	int status = CLI_EXIT_OK;

	if (!v || line_reader_init(&r, STDIN_FILENO, limit) < 0 ||
	    !buf_reserve(&out.b, JSONL_OUT_CHUNK + 4096)) {
		cordon_verdict_free(v);
		buf_free(&out.b);
		fputs("cordon classify: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	/* the batch prints verdicts only: no command list for the policy */
	verdict_set_commands(v, false);
	snprintf(msg, sizeof(msg),
		 "line is longer than max_batch_line (%zu bytes)", limit);
	while (!out.err) {
		char *line = NULL;
		size_t len = 0;
		enum line_status st = line_reader_next(&r, &line, &len);

		if (st == LINE_EOF)
			break;
		if (st == LINE_ERROR) {
			int e = errno;

			jsonl_out_flush(&out);
			fprintf(stderr, "cordon classify: stdin: %s\n",
				strerror(e));
			status = CLI_EXIT_FAILURE;
			break;
		}
		lineno++;
		if (st == LINE_TOO_LONG)
			print_error_line(&out, msg, lineno);
		else
			jsonl_line(cls, bc, v, &out, line, len, lineno);
	}
	jsonl_out_flush(&out);
	free(r.buf);
	buf_free(&out.b);
	cordon_verdict_free(v);
	if (out.err && status == CLI_EXIT_OK) {
		fprintf(stderr, "cordon classify: stdout: %s\n",
			strerror(out.err));
		status = CLI_EXIT_FAILURE;
	}
	return status;
}

/* ---- the subcommand ----------------------------------------------------- */

int cli_classify(int argc, char **argv)
{
	struct classify_opts o;
	struct cordon_limits lim;
	struct base_context bc;
	struct cordon_classifier *cls = NULL;
	char *cmd = NULL;
	size_t len = 0;
	int first = 0, status = CLI_EXIT_USAGE;
	int r = parse_options(argc, argv, &o, &first);

	if (r)
		return r > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (base_context_init(&bc, &o) < 0)
		return CLI_EXIT_USAGE;

	cordon_limits_default(&lim);
	cls = cordon_classifier_new(&lim);
	if (!cls) {
		fputs("cordon classify: out of memory\n", stderr);
		status = CLI_EXIT_FAILURE;
		goto out;
	}
	if (o.has_max_depth)
		cordon_classifier_set_max_depth(cls, o.max_depth);
	if (o.rules && load_rules(cls, o.rules, lim.max_rules_bytes) < 0)
		goto out;

	if (o.jsonl) {
		status = run_jsonl(cls, &bc, lim.max_batch_line);
		goto out;
	}
	if (join_words(argc - first, argv + first, &cmd, &len) < 0) {
		fputs("cordon classify: out of memory\n", stderr);
		status = CLI_EXIT_FAILURE;
		goto out;
	}
	status = classify_one(cls, &bc, cmd, len, o.json);
	if (fflush(stdout) != 0 && status == CLI_EXIT_OK) {
		fprintf(stderr, "cordon classify: stdout: %s\n",
			strerror(errno));
		status = CLI_EXIT_FAILURE;
	}
out:
	free(cmd);
	cordon_classifier_free(cls);
	base_context_release(&bc);
	return status;
}
