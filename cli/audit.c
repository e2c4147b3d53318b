/* cordon audit — check the audit log's chain and read its records.
 *
 *   cordon audit verify [--json] [--allow-missing-start] [--expect-head H]
 *                       [--key-file K] [FILE…]
 *                                          exit 0 intact, 1 broken (the
 *                                          first bad line named) or
 *                                          unreadable, 2 usage
 *   cordon audit head [--json] [--allow-missing-start] [--key-file K] [FILE]
 *                                          the head of an intact log, to
 *                                          keep elsewhere
 *   cordon audit show [--json] [--since T] [--decision D] [--event E] [FILE]
 *
 * Without FILE both read the log the doors write: the configuration's
 * audit.path, else the default file under $XDG_STATE_HOME. With one FILE
 * (or the default) its rotated siblings FILE.N … FILE.1 come first.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"

#include "banned.h"

/* How far `show` looks for rotated siblings: as far as the writer keeps
 * them. */
#define SHOW_MAX_ROTATED CORDON_AUDIT_MAX_KEEP

void cli_audit_usage(FILE *out)
{
	fputs("usage: cordon audit verify [--json] [--allow-missing-start] "
	      "[--expect-head HASH]\n"
	      "                           [--key-file KEY] [--config FILE] "
	      "[FILE...]\n"
	      "       cordon audit head [--json] [--allow-missing-start] "
	      "[--key-file KEY]\n"
	      "                         [--config FILE] [FILE]\n"
	      "       cordon audit show [--json] [--since TIME] [--decision "
	      "D] [--event E]\n"
	      "                         [--config FILE] [FILE]\n"
	      "\n"
	      "verify checks the hash chain of the audit log: every record's "
	      "hash\n"
	      "matches its bytes, and its prev is the hash of the record "
	      "before, across\n"
	      "rotated files. It names the first bad line and why: a changed "
	      "byte, a\n"
	      "deleted record, two records swapped, a cut last line, a file "
	      "missing\n"
	      "from the middle of the rotation, a line that is not a record, "
	      "a log\n"
	      "that does not start at seq 1 (its first records deleted). A "
	      "log whose\n"
	      "oldest files were rotated away starts with a \"rotated\" "
	      "record: that is\n"
	      "a break too unless --allow-missing-start says it is expected.\n"
	      "A file that FILE.syncfail names (an fsync of it failed: records "
	      "may\n"
	      "not be on disk) fails too, after its chain is checked; once "
	      "checked,\n"
	      "empty or remove the mark.\n"
	      "\n"
	      "head verifies the log and prints its head, the hash of the "
	      "last record.\n"
	      "Keep it somewhere the agent cannot write; verify --expect-head "
	      "HASH later\n"
	      "fails when no record has that hash: the records up to it were "
	      "deleted, or\n"
	      "the log was rewritten with every hash recomputed.\n"
	      "\n"
	      "show prints the records as a table (time UTC, event, "
	      "decision, tool,\n"
	      "reason), or with --json the record lines themselves.\n"
	      "\n"
	      "Without FILE: the configured audit.path, else\n"
	      "$XDG_STATE_HOME/cordon/audit.jsonl "
	      "(~/.local/state/cordon/audit.jsonl).\n"
	      "With one FILE, its rotated files FILE.N ... FILE.1 are read "
	      "first.\n"
	      "verify with several FILEs checks them in the order given, "
	      "oldest first.\n"
	      "\n"
	      "options:\n"
	      "  --json             verify: the report as JSON; show: JSON "
	      "lines\n"
	      "  --since TIME       show: records at or after TIME "
	      "(2026-11-29,\n"
	      "                     2026-11-29T17:30Z, an offset like "
	      "+01:00; no zone\n"
	      "                     means UTC) or within a DURATION before "
	      "now (90s,\n"
	      "                     10m, 2h, 1d)\n"
	      "  --decision D       show: records whose decision (or proxy "
	      "verdict) is\n"
	      "                     D: allow, deny, ask\n"
	      "  --event E          show: records of event E (decision, run, "
	      "proxy,\n"
	      "                     mcp, ...)\n"
	      "  --allow-missing-start\n"
	      "                     verify, head: accept a log whose oldest "
	      "file starts\n"
	      "                     with a \"rotated\" record (older files "
	      "rotated away)\n"
	      "  --expect-head HASH verify: a head printed earlier by 'cordon "
	      "audit head'\n"
	      "                     must still be in the log\n"
	      "  --key-file KEY     verify, head: the HMAC-SHA-256 key the log "
	      "was written\n"
	      "                     with (default: audit.key_file)\n"
	      "  --config FILE      a configuration file, for audit.path and "
	      "audit.key_file\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "exit status: 0 intact (verify) or shown, 1 broken or "
	      "unreadable, 2 usage\n"
	      "error.\n",
	      out);
}

struct audit_opts {
	int json;
	int allow_missing_start;
	const char *expect_head;
	const char *key_file;
	const char *since;
	const char *decision;
	const char *event;
	const char *config;
	char since_time[32]; /* the --since cut-off, as records write it */
};

/* Returns 0 with *o filled (optind at the first operand), 1 when --help
 * was printed, -1 on a usage error (already reported). show: the show
 * options are allowed. */
static int parse_opts(int argc, char **argv, const char *name, int show,
		      struct audit_opts *o)
{
	enum {
		OPT_JSON = 256,
		OPT_SINCE,
		OPT_DECISION,
		OPT_EVENT,
		OPT_CONFIG,
		OPT_ALLOW_MISSING,
		OPT_EXPECT_HEAD,
		OPT_KEY_FILE,
	};
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "allow-missing-start", no_argument, NULL, OPT_ALLOW_MISSING },
		{ "expect-head", required_argument, NULL, OPT_EXPECT_HEAD },
		{ "key-file", required_argument, NULL, OPT_KEY_FILE },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "decision", required_argument, NULL, OPT_DECISION },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_SINCE:
		case OPT_DECISION:
		case OPT_EVENT:
			if (!show) {
				fprintf(stderr,
					"cordon audit %s: unknown option "
					"'%s'\n",
					name, argv[optind - 1]);
				goto usage;
			}
			if (c == OPT_SINCE)
				o->since = optarg;
			else if (c == OPT_DECISION)
				o->decision = optarg;
			else
				o->event = optarg;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_ALLOW_MISSING:
		case OPT_EXPECT_HEAD:
		case OPT_KEY_FILE:
			if (show || (c == OPT_EXPECT_HEAD &&
				     strcmp(name, "verify") != 0)) {
				fprintf(stderr,
					"cordon audit %s: unknown option "
					"'%s'\n",
					name, argv[optind - 1]);
				goto usage;
			}
			if (c == OPT_ALLOW_MISSING)
				o->allow_missing_start = 1;
			else if (c == OPT_EXPECT_HEAD)
				o->expect_head = optarg;
			else
				o->key_file = optarg;
			break;
		case 'h':
			cli_audit_usage(stdout);
			return 1;
		case ':':
		default: {
			char cmd[64];

			(void)snprintf(cmd, sizeof(cmd), "audit %s", name);
			cli_getopt_error(cmd, c, argv);
			goto usage;
		}
		}
	}
	return 0;
usage:
	fputs("Try 'cordon audit --help'.\n", stderr);
	return -1;
}

/* The configuration's audit.key_file (for verify and head without
 * --key-file) into key (empty: none). 0, else the exit status (reported). */
static int config_key(const struct audit_opts *o, char *key, size_t cap)
{
	struct cordon_config *cfg = NULL;
	int rc = cli_load_config(&cfg, o->config, NULL);

	key[0] = '\0';
	if (rc != 0)
		return rc;
	if (cfg->audit_key_file &&
	    snprintf(key, cap, "%s", cfg->audit_key_file) >= (int)cap) {
		fputs("cordon audit: audit.key_file: name too long\n", stderr);
		rc = CLI_EXIT_USAGE;
	}
	cordon_config_free(cfg);
	return rc;
}

/* The log the doors write: audit.path from the configuration, else the
 * default file. 0 with buf filled, else the exit status (reported). */
static int log_path(const struct audit_opts *o, const char *name, char *buf,
		    size_t cap)
{
	struct cordon_config *cfg = NULL;
	int rc = cli_load_config(&cfg, o->config, NULL);
	int n;

	if (rc != 0)
		return rc;
	if (cfg->audit_path && strcmp(cfg->audit_path, "-") == 0) {
		fprintf(stderr,
			"cordon audit %s: audit.path is \"-\" (no file is "
			"written); name a FILE\n",
			name);
		cordon_config_free(cfg);
		return CLI_EXIT_USAGE;
	}
	if (cfg->audit_path) {
		n = snprintf(buf, cap, "%s", cfg->audit_path);
		rc = n > 0 && (size_t)n < cap ? 0 : -1;
	} else {
		rc = cli_audit_default_path(buf, cap);
	}
	cordon_config_free(cfg);
	if (rc != 0) {
		fprintf(stderr,
			"cordon audit %s: no audit log to read: HOME and "
			"XDG_STATE_HOME are unset or relative; name a FILE\n",
			name);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* ---- verify -------------------------------------------------------------- */

static int print_verify_json(const struct cordon_audit_report *rep)
{
	cJSON *o = cJSON_CreateObject();
	char *txt = NULL;

	if (o && cJSON_AddBoolToObject(o, "intact", rep->intact) &&
	    cJSON_AddNumberToObject(o, "records", (double)rep->records) &&
	    cJSON_AddNumberToObject(o, "headSeq", (double)rep->head_seq) &&
	    cJSON_AddNumberToObject(o, "files", rep->files) &&
	    (rep->head[0] ? cJSON_AddStringToObject(o, "head", rep->head) :
			    cJSON_AddNullToObject(o, "head")) &&
	    (rep->intact ?
		     cJSON_AddNullToObject(o, "file") &&
			     cJSON_AddNullToObject(o, "line") &&
			     cJSON_AddNullToObject(o, "why") :
		     cJSON_AddStringToObject(o, "file", rep->bad_file) &&
			     (rep->bad_line ?
				      cJSON_AddNumberToObject(
					      o, "line",
					      (double)rep->bad_line) :
				      cJSON_AddNullToObject(o, "line")) &&
			     cJSON_AddStringToObject(o, "why", rep->why)) &&
	    cJSON_AddStringToObject(o, "notes", rep->notes))
		txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!txt) {
		fputs("cordon audit verify: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	puts(txt);
	free(txt);
	return rep->intact ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

static void print_escaped_str(FILE *out, const char *s)
{
	cli_print_escaped(out, s, strlen(s));
}

/* verify and head: the files, the options and the report. 0 with rep
 * filled (intact or not), else the exit status (reported). */
static int run_verify(int argc, char **argv, const char *name,
		      const struct audit_opts *o, char *path, size_t cap,
		      const char *const **filesp, size_t *np,
		      struct cordon_audit_report *rep)
{
	struct cordon_audit_verify_opts vo = { 0 };
	struct cordon_diag diag = { 0 };
	char key[PATH_MAX];
	static const char *one[1];
	int rc;

	if (o->expect_head &&
	    (strlen(o->expect_head) != 64 ||
	     strspn(o->expect_head, "0123456789abcdef") != 64)) {
		fprintf(stderr,
			"cordon audit %s: --expect-head: expected the 64 "
			"lower-case hex digits 'cordon audit head' prints\n",
			name);
		return CLI_EXIT_USAGE;
	}
	if (optind < argc) {
		*filesp = (const char *const *)(argv + optind);
		*np = (size_t)(argc - optind);
	} else {
		if ((rc = log_path(o, name, path, cap)) != 0)
			return rc;
		one[0] = path;
		*filesp = one;
		*np = 1;
	}
	if (!o->key_file && (rc = config_key(o, key, sizeof(key))) != 0)
		return rc;
	vo.allow_missing_start = o->allow_missing_start;
	vo.expect_head = o->expect_head;
	vo.key_file = o->key_file ? o->key_file : key[0] ? key : NULL;
	if (cordon_audit_verify_ex(*filesp, *np, &vo, rep, &diag) !=
	    CORDON_OK) {
		/* The message starts with "audit verify: ". */
		fputs("cordon ", stderr);
		print_escaped_str(stderr, diag.message);
		fputc('\n', stderr);
		return CLI_EXIT_FAILURE;
	}
	return 0;
}

/* The first break, "FILE:LINE: why", and the count before it. */
static void print_break(const struct cordon_audit_report *rep)
{
	const char *why = rep->why;

	if (strncmp(why, "line ", 5) == 0 && strstr(why, ": "))
		why = strstr(why, ": ") + 2;
	print_escaped_str(stdout, rep->bad_file);
	if (rep->bad_line)
		printf(":%llu", (unsigned long long)rep->bad_line);
	fputs(": ", stdout);
	print_escaped_str(stdout, why);
	fputc('\n', stdout);
	if (rep->bad_line)
		printf("%llu records before it chain correctly.\n",
		       (unsigned long long)rep->records);
	else /* no line is at fault: the file's sync mark (audit.h) */
		printf("%llu records chain correctly.\n",
		       (unsigned long long)rep->records);
}

static int cmd_head(int argc, char **argv)
{
	struct cordon_audit_report rep;
	struct audit_opts o;
	char path[PATH_MAX];
	const char *const *files;
	size_t n;
	int rc = parse_opts(argc, argv, "head", 0, &o);

	if (rc != 0)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (argc - optind > 1) {
		fputs("cordon audit head: one FILE at most (its rotated files "
		      "are read too)\nTry 'cordon audit --help'.\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	rc = run_verify(argc, argv, "head", &o, path, sizeof(path), &files, &n,
			&rep);
	if (rc != 0)
		return rc;
	if (!rep.intact) {
		fputs("cordon audit head: the log is not intact; no head to "
		      "keep:\n",
		      stderr);
		fflush(stderr);
		print_break(&rep);
		return CLI_EXIT_FAILURE;
	}
	if (!rep.head[0]) {
		fputs("cordon audit head: the log holds no record\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	if (o.json)
		printf("{\"head\":\"%s\",\"seq\":%llu,\"records\":%llu,"
		       "\"files\":%u}\n",
		       rep.head, (unsigned long long)rep.head_seq,
		       (unsigned long long)rep.records, rep.files);
	else
		printf("%s\n", rep.head);
	return CLI_EXIT_OK;
}

static int cmd_verify(int argc, char **argv)
{
	struct cordon_audit_report rep;
	struct audit_opts o;
	char path[PATH_MAX];
	const char *const *files;
	size_t n;
	int rc = parse_opts(argc, argv, "verify", 0, &o);

	if (rc != 0)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	rc = run_verify(argc, argv, "verify", &o, path, sizeof(path), &files,
			&n, &rep);
	if (rc != 0)
		return rc;
	if (o.json)
		return print_verify_json(&rep);
	if (!rep.intact) {
		print_break(&rep);
		return CLI_EXIT_FAILURE;
	}
	print_escaped_str(stdout, files[n - 1]);
	printf(": intact: %llu record%s in %u file%s",
	       (unsigned long long)rep.records, rep.records == 1 ? "" : "s",
	       rep.files, rep.files == 1 ? "" : "s");
	if (rep.head[0])
		printf(", head %s", rep.head);
	fputc('\n', stdout);
	if (rep.notes[0]) {
		fputs("note: ", stdout);
		print_escaped_str(stdout, rep.notes);
		fputc('\n', stdout);
	}
	return CLI_EXIT_OK;
}

/* ---- show ---------------------------------------------------------------- */

/* Parses --since into the record time format; 0, or -1 when it is neither
 * a time nor a duration. */
static int parse_since(const char *s, char out[32])
{
	struct tm tm = { 0 };
	const char *p;
	char *end;
	long frac = 0, off = 0;
	long long v;
	int ndig = 0;
	time_t t;

	/* A duration: digits and one unit. */
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end != s && errno == 0 && v >= 0 && end[0] && !end[1] &&
	    strchr("smhd", end[0])) {
		long long mul = end[0] == 's' ? 1 :
				end[0] == 'm' ? 60 :
				end[0] == 'h' ? 3600 :
						86400;
		struct timespec now;

		if (v > (long long)(INT64_MAX / 86400) / 2)
			return -1;
		clock_gettime(CLOCK_REALTIME, &now);
		audit_format_time((int64_t)now.tv_sec - v * mul, now.tv_nsec,
				  out);
		return 0;
	}
	/* A time: YYYY-MM-DD[(T| )HH:MM[:SS[.frac]]][Z|±HH:MM]. */
	p = strptime(s, "%Y-%m-%d", &tm);
	if (!p)
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		const char *q = strptime(p + 1, "%H:%M", &tm);
		if (!q)
			return -1;
		p = q;
		if (*p == ':') {
			q = strptime(p + 1, "%S", &tm);
			if (!q)
				return -1;
			p = q;
			if (*p == '.') {
				p++;
				while (*p >= '0' && *p <= '9') {
					if (ndig < 6) {
						frac = frac * 10 + (*p - '0');
						ndig++;
					}
					p++;
				}
				if (ndig == 0)
					return -1;
				for (; ndig < 6; ndig++)
					frac *= 10;
			}
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1;
		struct tm z = { 0 };
		const char *q = strptime(p + 1, "%H:%M", &z);
		if (!q)
			return -1;
		off = sign * (z.tm_hour * 3600L + z.tm_min * 60L);
		p = q;
	}
	if (*p)
		return -1;
	t = timegm(&tm);
	if (t == (time_t)-1 && tm.tm_year != 69)
		return -1;
	audit_format_time((int64_t)t - off, frac * 1000, out);
	return 0;
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Prints s escaped, padded with spaces to width columns (one column per
 * escaped byte or UTF-8 character), then two spaces. */
static void cell(FILE *out, const char *s, int width)
{
	char *esc = NULL;
	size_t n = 0, cols = 0;
	FILE *m = open_memstream(&esc, &n);

	if (!m) {
		fputs(s, out);
		return;
	}
	cli_print_escaped(m, s, strlen(s));
	fclose(m);
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)esc[i] & 0xc0) != 0x80)
			cols++;
	fputs(esc, out);
	free(esc);
	for (; (int)cols < width; cols++)
		fputc(' ', out);
	if (width > 0)
		fputs("  ", out);
}

/* The reason column for a record that is not a decision. */
static char *summary(const cJSON *o, const char *event)
{
	static const char *const common[] = {
		"v",	   "seq",  "time",    "host",	 "pid",
		"event",   "prev", "hash",    "session", "decision",
		"verdict", "tool", "mcpTool", "program", "reason",
	};
	char buf[512];
	cJSON *rest;
	char *txt;

	if (strcmp(event, "run") == 0) {
		const cJSON *ec =
			cJSON_GetObjectItemCaseSensitive(o, "exitCode");
		const cJSON *sig =
			cJSON_GetObjectItemCaseSensitive(o, "signal");
		const cJSON *ms =
			cJSON_GetObjectItemCaseSensitive(o, "durationMs");
		const char *enf = jstr(o, "enforcement");
		int k;

		if (cJSON_IsTrue(
			    cJSON_GetObjectItemCaseSensitive(o, "timedOut")))
			k = snprintf(buf, sizeof(buf), "timed out");
		else if (cJSON_IsNumber(sig) || cJSON_IsString(sig))
			k = cJSON_IsNumber(sig) ?
				    snprintf(buf, sizeof(buf), "signal %d",
					     sig->valueint) :
				    snprintf(buf, sizeof(buf), "signal %s",
					     sig->valuestring);
		else
			k = snprintf(buf, sizeof(buf), "exit %d",
				     cJSON_IsNumber(ec) ? ec->valueint : -1);
		if (k > 0 && (size_t)k < sizeof(buf) && cJSON_IsNumber(ms))
			k += snprintf(buf + k, sizeof(buf) - (size_t)k,
				      " after %.0f ms", ms->valuedouble);
		if (k > 0 && (size_t)k < sizeof(buf) && enf)
			snprintf(buf + k, sizeof(buf) - (size_t)k,
				 ", enforcement %s", enf);
		return strdup(buf);
	}
	if (strcmp(event, "recovered") == 0) {
		const cJSON *tb =
			cJSON_GetObjectItemCaseSensitive(o, "torn_bytes");
		snprintf(buf, sizeof(buf),
			 "a line cut by a crash (%.0f bytes) was ended here",
			 cJSON_IsNumber(tb) ? tb->valuedouble : 0.0);
		return strdup(buf);
	}
	if (jstr(o, "reason"))
		return strdup(jstr(o, "reason"));
	/* Anything else: the event's own members, compact. */
	rest = cJSON_Duplicate(o, 1);
	for (size_t i = 0; rest && i < sizeof(common) / sizeof(common[0]); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(rest, common[i]);
	txt = rest ? cJSON_PrintUnformatted(rest) : NULL;
	cJSON_Delete(rest);
	return txt;
}

static void print_row(const cJSON *o, const char *event)
{
	const char *time = jstr(o, "time");
	const char *dec = jstr(o, "decision");
	const char *tool = jstr(o, "tool");
	char when[32];
	char *why;

	if (!dec)
		dec = jstr(o, "verdict");
	if (!tool)
		tool = jstr(o, "mcpTool");
	if (!tool)
		tool = jstr(o, "program");
	if (!tool)
		tool = jstr(o, "server");
	/* 2026-11-29T17:30:38.123456Z → 2026-11-29T17:30:38Z */
	snprintf(when, sizeof(when), "%.19sZ", time ? time : "?");
	why = summary(o, event);
	cell(stdout, when, 20);
	cell(stdout, event, 9);
	cell(stdout, dec ? dec : "-", 8);
	cell(stdout, tool ? tool : "-", 20);
	cell(stdout, why ? why : "-", 0);
	fputc('\n', stdout);
	free(why);
}

/* One record line: filtered, then printed. */
static void show_line(const struct audit_opts *o, const char *line, size_t len,
		      unsigned long *skipped)
{
	cJSON *r = cJSON_ParseWithLength(line, len);
	const char *event = jstr(r, "event");
	const char *time = jstr(r, "time");
	const char *dec = jstr(r, "decision");

	/* The DECISION column: a proxy's verdict counts too. */
	if (!dec)
		dec = jstr(r, "verdict");
	if (!event || !time) {
		(*skipped)++;
		cJSON_Delete(r);
		return;
	}
	if ((o->since && strcmp(time, o->since_time) < 0) ||
	    (o->event && strcmp(event, o->event) != 0) ||
	    (o->decision && (!dec || strcmp(dec, o->decision) != 0))) {
		cJSON_Delete(r);
		return;
	}
	if (o->json) {
		fwrite(line, 1, len, stdout);
		fputc('\n', stdout);
	} else {
		print_row(r, event);
	}
	cJSON_Delete(r);
}

static int show_file(const struct audit_opts *o, const char *name,
		     unsigned long *skipped)
{
	FILE *f = fopen(name, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		fprintf(stderr, "cordon audit show: cannot open ");
		print_escaped_str(stderr, name);
		fprintf(stderr, ": %s\n", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		size_t n = (size_t)len;

		if (line[n - 1] == '\n')
			n--;
		if (n > AUDIT_MAX_LINE)
			(*skipped)++;
		else
			show_line(o, line, n, skipped);
	}
	free(line);
	fclose(f);
	return CLI_EXIT_OK;
}

static int cmd_show(int argc, char **argv)
{
	struct audit_opts o;
	char path[PATH_MAX], name[PATH_MAX + 16];
	unsigned long skipped = 0;
	unsigned top = 0;
	struct stat st;
	int rc = parse_opts(argc, argv, "show", 1, &o);

	if (rc != 0)
		return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (o.since && parse_since(o.since, o.since_time) != 0) {
		fprintf(stderr,
			"cordon audit show: --since: '%s' is neither a time "
			"(2026-11-29T17:30Z) nor a duration (10m, 2h, 1d)\n",
			o.since);
		return CLI_EXIT_USAGE;
	}
	if (o.decision && strcmp(o.decision, "allow") != 0 &&
	    strcmp(o.decision, "deny") != 0 && strcmp(o.decision, "ask") != 0) {
		fprintf(stderr,
			"cordon audit show: --decision: expected allow, deny "
			"or ask, not '%s'\n",
			o.decision);
		return CLI_EXIT_USAGE;
	}
	if (argc - optind > 1) {
		fprintf(stderr,
			"cordon audit show: one FILE at most (its rotated "
			"files are read too)\nTry 'cordon audit --help'.\n");
		return CLI_EXIT_USAGE;
	}
	if (optind < argc) {
		if (snprintf(path, sizeof(path), "%s", argv[optind]) >=
		    (int)sizeof(path)) {
			fputs("cordon audit show: FILE: name too long\n",
			      stderr);
			return CLI_EXIT_USAGE;
		}
	} else if ((rc = log_path(&o, "show", path, sizeof(path))) != 0) {
		return rc;
	}
	if (stat(path, &st) != 0) {
		fputs("cordon audit show: cannot open ", stderr);
		print_escaped_str(stderr, path);
		fprintf(stderr, ": %s\n", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	for (unsigned i = 1; i <= SHOW_MAX_ROTATED; i++) {
		snprintf(name, sizeof(name), "%s.%u", path, i);
		if (stat(name, &st) == 0)
			top = i;
	}
	if (!o.json)
		printf("%-20s  %-9s  %-8s  %-20s  %s\n", "TIME (UTC)", "EVENT",
		       "DECISION", "TOOL", "REASON");
	for (unsigned i = top; i >= 1; i--) {
		snprintf(name, sizeof(name), "%s.%u", path, i);
		if (stat(name, &st) == 0 &&
		    (rc = show_file(&o, name, &skipped)) != 0)
			return rc;
	}
	if ((rc = show_file(&o, path, &skipped)) != 0)
		return rc;
	fflush(stdout);
	if (skipped)
		fprintf(stderr,
			"cordon audit show: %lu %s (cordon audit verify tells "
			"more)\n",
			skipped,
			skipped == 1 ? "line is not an audit record" :
				       "lines are not audit records");
	return CLI_EXIT_OK;
}

int cli_audit(int argc, char **argv)
{
	if (argc < 2) {
		cli_audit_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		cli_audit_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "verify") == 0)
		return cmd_verify(argc - 1, argv + 1);
	if (strcmp(argv[1], "head") == 0)
		return cmd_head(argc - 1, argv + 1);
	if (strcmp(argv[1], "show") == 0)
		return cmd_show(argc - 1, argv + 1);
	fputs("cordon audit: unknown subcommand '", stderr);
	print_escaped_str(stderr, argv[1]);
	fputs("' (verify, head, show)\nTry 'cordon audit --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}
