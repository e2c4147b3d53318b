/* The audit log: records of every kind with their fields, redaction, the
 * chain and what verify says about each way of breaking it, rotation, a
 * writer killed mid-append, several handles on one file, and the syslog
 * and stderr sinks. The many-process test is in test_audit_concurrent.c.
 *
 * Everything happens under a mkdtemp directory; syslog is a datagram
 * socket bound there.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "cordon.h"
#include "sha256.h"
#include "table.h"
#include "tap.h"

static char root[256];
static char ws[300];

static const char ghp[] = "ghp_Zq3Xw9Lk2Mn7Bv5Cx8Hj4Gf6Ds1Ap0Ty9Ur3";

/* ---- files --------------------------------------------------------------- */

static void spit(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		ok(0, "write %s: %s", path, strerror(errno));
}

static void path_in(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", root, name);
}

/* The lines of a file, as a NULL-terminated array of strings (one malloc
 * each, without '\n'). */
static char **lines_of(const char *path, size_t *n)
{
	size_t len;
	char *text = table_read(path, &len);
	char **v = calloc(len + 2, sizeof(*v));
	size_t k = 0, start = 0;

	for (size_t i = 0; text && v && i <= len; i++) {
		if (i == len && i == start)
			break;
		if (i == len || text[i] == '\n') {
			v[k] = strndup(text + start, i - start);
			k++;
			start = i + 1;
		}
	}
	free(text);
	*n = k;
	return v;
}

static void lines_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Writes lines (each gets '\n' unless last_no_nl and it is the last). */
static void write_lines(const char *path, char **v, size_t n, int last_no_nl)
{
	FILE *f = fopen(path, "wb");

	for (size_t i = 0; f && i < n; i++) {
		fputs(v[i], f);
		if (!(last_no_nl && i == n - 1))
			fputc('\n', f);
	}
	if (f)
		fclose(f);
}

static cJSON *line_json(const char *path, size_t i)
{
	size_t n;
	char **v = lines_of(path, &n);
	cJSON *o = i < n ? cJSON_Parse(v[i]) : NULL;

	lines_free(v);
	return o;
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The member names of o joined by ',' into buf. */
static const char *keys_of(const cJSON *o, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const cJSON *c = o ? o->child : NULL; c; c = c->next) {
		int k = snprintf(buf + n, cap - n, "%s%s", n ? "," : "",
				 c->string);
		if (k < 0 || (size_t)k >= cap - n)
			break;
		n += (size_t)k;
	}
	return buf;
}

static struct cordon_audit *open_log(const char *path, int log_all,
				     uint64_t rotate_bytes, unsigned keep)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_audit *a = NULL;
	struct cordon_diag d = { 0 };

	o.path = path;
	o.fsync_policy = CORDON_AUDIT_FSYNC_NEVER;
	o.rotate_bytes = rotate_bytes;
	o.rotate_keep = keep;
	o.log_all_commands = log_all;
	if (cordon_audit_open(&o, &a, &d) != CORDON_OK)
		ok(0, "open %s: %s", path, d.message);
	return a;
}

static int event(struct cordon_audit *a, const char *ev, const char *fields)
{
	struct cordon_diag d = { 0 };
	enum cordon_err rc = cordon_audit_event(a, ev, fields, &d);

	if (rc != CORDON_OK)
		diag("event %s: %s", ev, d.message);
	return rc;
}

static void verify1(const char *path, struct cordon_audit_report *rep)
{
	const char *files[] = { path };
	struct cordon_diag d = { 0 };

	if (cordon_audit_verify(files, 1, rep, &d) != CORDON_OK)
		ok(0, "verify %s: %s", path, d.message);
}

/* ---- the pure parts ------------------------------------------------------ */

/* A line with the given members between event and prev, properly hashed. */
static char *make_record(unsigned long seq, const char *prev, const char *head,
			 const char *middle)
{
	char pre[2048], hash[65];
	char *out = malloc(4096);

	snprintf(pre, sizeof(pre),
		 "%s%lu,\"time\":\"2026-11-29T17:30:38.123456Z\","
		 "\"host\":\"h\",\"pid\":7,\"event\":\"x\"%s,\"prev\":\"%s\"",
		 head, seq, middle, prev);
	sha256_hex(pre, strlen(pre), hash);
	snprintf(out, 4096, "%s,\"hash\":\"%s\"}", pre, hash);
	return out;
}

static void test_parse_line(void)
{
	static const char zeros[] =
		"0000000000000000000000000000000000000000000000000000000000000000";
	struct audit_line al;
	char why[200];
	char *l = make_record(1, zeros, "{\"v\":1,\"seq\":", ",\"a\":[1,2]");
	char bad[4096];
	size_t n = strlen(l);

	is_int(audit_parse_line(l, n, &al, why, sizeof(why)), CORDON_OK,
	       "parse: a well-formed line");
	is_int((long long)al.seq, 1, "parse: seq");
	is_str(al.event, "x", "parse: event");
	is_str(al.prev, zeros, "parse: prev");
	is_str(al.computed, al.hash, "parse: the hash is of the prefix");

	/* A member after the hash. */
	snprintf(bad, sizeof(bad), "%.*s,\"x\":1}", (int)(n - 1), l);
	ok(audit_parse_line(bad, strlen(bad), &al, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "hash"),
	   "parse: hash not last is refused (%s)", why);
	/* Upper-case hex in the hash. */
	snprintf(bad, sizeof(bad), "%s", l);
	bad[n - 3] = 'A';
	ok(audit_parse_line(bad, n, &al, why, sizeof(why)) == CORDON_E_PARSE &&
		   strstr(why, "hex"),
	   "parse: upper-case hex is refused (%s)", why);
	free(l);

	/* prev not just before hash. */
	l = make_record(1, zeros, "{\"v\":1,\"seq\":", "");
	n = strlen(l);
	{
		char *p = strstr(l, ",\"prev\"");
		snprintf(bad, sizeof(bad), "%.*s,\"q\":1%s", (int)(p - l), l,
			 p);
		/* moves nothing: insert a member between prev and hash */
		p = strstr(bad, ",\"hash\"");
		if (p && strlen(bad) + 6 < sizeof(bad)) {
			memmove(p + 6, p, strlen(p) + 1);
			memcpy(p, ",\"z\":1", 6);
		}
	}
	ok(audit_parse_line(bad, strlen(bad), &al, why, sizeof(why)) ==
		   CORDON_E_PARSE,
	   "parse: a member between prev and hash is refused (%s)", why);
	free(l);

	l = make_record(1, zeros, "{\"v\":2,\"seq\":", "");
	ok(audit_parse_line(l, strlen(l), &al, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "v is not 1"),
	   "parse: v 2 is refused (%s)", why);
	free(l);
	l = make_record(0, zeros, "{\"v\":1,\"seq\":", "");
	ok(audit_parse_line(l, strlen(l), &al, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "seq"),
	   "parse: seq 0 is refused (%s)", why);
	free(l);
	l = make_record(1, zeros, "{\"seq\":1,\"v\":", "");
	ok(audit_parse_line(l, strlen(l), &al, why, sizeof(why)) ==
		   CORDON_E_PARSE,
	   "parse: members out of order are refused (%s)", why);
	free(l);
	l = make_record(1, zeros, "{\"v\":1,\"seq\":", ",\"event\":\"y\"");
	ok(audit_parse_line(l, strlen(l), &al, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "twice"),
	   "parse: a reserved member twice is refused (%s)", why);
	free(l);
	l = make_record(1, zeros, "{\"v\":1,\"seq\":", ",\"a\":[1,}");
	ok(audit_parse_line(l, strlen(l), &al, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "malformed JSON"),
	   "parse: malformed JSON is refused (%s)", why);
	free(l);
	ok(audit_parse_line("", 0, &al, why, sizeof(why)) == CORDON_E_PARSE &&
		   strstr(why, "empty"),
	   "parse: an empty line (%s)", why);
	ok(audit_parse_line("{\"v\":1}", 7, &al, why, sizeof(why)) ==
		   CORDON_E_PARSE,
	   "parse: a short object (%s)", why);
	{
		size_t big = AUDIT_MAX_LINE + 1;
		char *huge = malloc(big);
		memset(huge, ' ', big);
		huge[0] = '{';
		huge[big - 1] = '}';
		ok(audit_parse_line(huge, big, &al, why, sizeof(why)) ==
				   CORDON_E_PARSE &&
			   strstr(why, "1 MiB"),
		   "parse: a line over the limit (%s)", why);
		free(huge);
	}
	/* A recovered record needs its torn members. */
	{
		char pre[1024], hash[65], line[1200];
		snprintf(pre, sizeof(pre),
			 "{\"v\":1,\"seq\":3,\"time\":\"t\",\"host\":\"h\","
			 "\"pid\":1,\"event\":\"recovered\",\"prev\":\"%s\"",
			 zeros);
		sha256_hex(pre, strlen(pre), hash);
		snprintf(line, sizeof(line), "%s,\"hash\":\"%s\"}", pre, hash);
		ok(audit_parse_line(line, strlen(line), &al, why,
				    sizeof(why)) == CORDON_E_PARSE &&
			   strstr(why, "torn"),
		   "parse: recovered without torn_bytes (%s)", why);
	}
}

/* Whether audit_format_time() writes sec as gmtime_r() has it. */
static bool time_agrees(int64_t sec)
{
	struct tm tm;
	time_t tt = (time_t)sec;
	char want[96], t[32];

	if (!gmtime_r(&tt, &tm))
		return false;
	snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d.000000Z",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	audit_format_time(sec, 0, t);
	if (strcmp(t, want) == 0)
		return true;
	diag("%lld: %s, gmtime_r %s", (long long)sec, t, want);
	return false;
}

static void test_pure(void)
{
	char t[32], h[65], buf[256];
	size_t n;

	audit_format_time(1795973438, 123456789, t);
	is_str(t, "2026-11-29T17:30:38.123456Z", "time: RFC 3339 UTC, µs");
	audit_format_time(0, 0, t);
	is_str(t, "1970-01-01T00:00:00.000000Z", "time: the epoch");
	/* The date is computed: it agrees with gmtime_r() over the four
	 * digit years (leap days, centuries, before the epoch), and what
	 * lies outside them is the epoch, as before. */
	{
		static const int64_t edges[] = {
			-62167219200LL, /* 0000-01-01T00:00:00 */
			-62162035201LL, -1,
			86399,		86400,
			951782399,	951782400, /* 2000-02-29 */
			951868800,	4107542399LL, /* 2100-02-28 */
			4107542400LL,	-2203891200LL, /* 1900-03-01 */
			253402300799LL, /* 9999-12-31T23:59:59 */
		};
		int bad = 0;

		for (int64_t i = -62167219200LL; i <= 253402300799LL;
		     i += 7654321)
			bad += !time_agrees(i);
		for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
			bad += !time_agrees(edges[i]);
		is_int(bad, 0, "time: the date agrees with gmtime_r()");
		audit_format_time(253402300800LL, 0, t);
		is_str(t, "1970-01-01T00:00:00.000000Z",
		       "time: year 10000 is the epoch");
		audit_format_time(-62167219201LL, 0, t);
		is_str(t, "1970-01-01T00:00:00.000000Z",
		       "time: before year 0 is the epoch");
		audit_format_time(INT64_MIN, 0, t);
		is_str(t, "1970-01-01T00:00:00.000000Z",
		       "time: INT64_MIN is the epoch");
	}
	sha256_hex("abc", 3, h);
	is_str(h,
	       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	       "sha256 of abc");
	n = audit_syslog_format(buf, sizeof(buf), 12,
				"2026-11-29T17:30:38.123456Z", "box", 42,
				"decision", "{\"a\":1}", 7);
	is_str(buf,
	       "<12>1 2026-11-29T17:30:38.123456Z box cordon 42 decision - "
	       "{\"a\":1}",
	       "syslog: RFC 5424 layout");
	is_int((long long)n, (long long)strlen(buf), "syslog: the length");
	is_int((long long)audit_syslog_format(buf, 20, 12, "t", "h", 1, "e",
					      "{\"a\":1}", 7),
	       0, "syslog: 0 when it does not fit");
}

/* ---- records ------------------------------------------------------------- */

static struct cordon_policy *make_policy(struct cordon_config *cfg)
{
	struct cordon_context ctx = { NULL, ws, root, "/tmp" };
	struct cordon_policy *p = NULL;
	struct cordon_diag d = { 0 };

	if (cordon_policy_new(cfg, &ctx, &p, &d) != CORDON_OK)
		ok(0, "policy: %s", d.message);
	return p;
}

static void answer_once(void *ud, const struct cordon_result *asked,
			struct cordon_reply *reply)
{
	(void)ud;
	(void)asked;
	reply->answer = CORDON_ANSWER_ALLOW_ONCE;
	reply->by = "terminal";
}

static enum cordon_decision decide(struct cordon_policy *p, const char *tool,
				   const char *args, unsigned flags)
{
	struct cordon_result *r = cordon_result_new();
	struct cordon_call call = { tool, args, 0, ws, "sess-1", NULL };
	enum cordon_decision d = CORDON_DENY;

	if (r && cordon_policy_decide(p, &call, flags, r, NULL) == CORDON_OK)
		d = cordon_result_decision(r);
	cordon_result_free(r);
	return d;
}

static void test_decisions(void)
{
	char path[600], keys[512], args[1024];
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_policy *p = make_policy(cfg);
	struct cordon_audit *a;
	struct cordon_audit_report rep;
	struct cordon_result *r = cordon_result_new();
	struct cordon_call call = { "Bash",   "{\"command\":\"ls\"}",
				    0,	      NULL,
				    "sess-1", NULL };
	struct cordon_diag d = { 0 };
	char *text;
	cJSON *o, *x;

	path_in(path, sizeof(path), "dec/audit.jsonl");
	a = open_log(path, 0, 0, 0);
	cordon_policy_set_on_decision(p, cordon_audit_on_decision, a);

	/* 1 deny (blocked command), 2 allow (read), 3 ask (no prompt),
	 * 4 ask answered by the prompt, 5 write with a secret. */
	is_int(decide(p, "Bash", "{\"command\":\"rm -rf / zzcmdmark\"}", 0),
	       CORDON_DENY, "decide: rm -rf / is denied");
	snprintf(args, sizeof(args), "{\"file_path\":\"%s/a.txt\"}", ws);
	is_int(decide(p, "Read", args, 0), CORDON_ALLOW,
	       "decide: a read in the workspace is allowed");
	is_int(decide(p, "Bash", "{\"command\":\"echo zzcmdmark\"}",
		      CORDON_DECIDE_NO_PROMPT),
	       CORDON_ASK, "decide: a shell command asks in supervised mode");
	cordon_policy_set_prompt(p, answer_once, NULL);
	is_int(decide(p, "Bash", "{\"command\":\"echo zzcmdmark\"}", 0),
	       CORDON_ALLOW, "decide: the prompt allows it once");
	snprintf(args, sizeof(args),
		 "{\"file_path\":\"%s/b.txt\",\"content\":\"key %s\","
		 "\"password\":\"hunter2hunter2\"}",
		 ws, ghp);
	(void)decide(p, "Write", args, 0);
	ok(cordon_audit_failed(a) == 0, "decide: every record was written");

	text = table_read(path, NULL);
	ok(text && !strstr(text, "zzcmdmark"),
	   "shell command text is not in the log by default");
	ok(text && !strstr(text, ghp) && !strstr(text, "hunter2"),
	   "secrets in arguments are not in the log");
	free(text);

	o = line_json(path, 0);
	is_str(keys_of(o, keys, sizeof(keys)),
	       "v,seq,time,host,pid,event,session,tool,kind,args,decision,"
	       "step,reason,hard,risk,labels,answer,answeredBy,prev,hash",
	       "decision: the documented members, in order");
	is_str(str_of(o, "event"), "decision", "decision: event");
	is_str(str_of(o, "session"), "sess-1", "decision: session");
	is_str(str_of(o, "tool"), "Bash", "decision: tool");
	is_str(str_of(o, "kind"), "execute", "decision: kind");
	is_str(str_of(o, "decision"), "deny", "decision: deny");
	is_str(str_of(o, "risk"), "blocked", "decision: risk");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(o, "hard")), "decision: hard");
	ok(cJSON_GetArraySize(cJSON_GetObjectItem(o, "labels")) > 0,
	   "decision: labels");
	x = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "args"), "command");
	is_str(str_of(x, "omitted"), "log_all_commands is off",
	       "decision: the command is replaced by a marker");
	ok(cJSON_IsNull(cJSON_GetObjectItem(o, "answer")) &&
		   cJSON_IsNull(cJSON_GetObjectItem(o, "answeredBy")),
	   "decision: nobody was asked");
	ok(str_of(o, "step") && str_of(o, "reason") &&
		   strncmp(str_of(o, "reason"), "blocked: ", 9) == 0,
	   "decision: step and reason");
	cJSON_Delete(o);

	o = line_json(path, 1);
	is_str(str_of(o, "decision"), "allow", "read: allow");
	is_str(str_of(o, "kind"), "read", "read: kind");
	ok(cJSON_IsNull(cJSON_GetObjectItem(o, "risk")), "read: risk null");
	ok(str_of(cJSON_GetObjectItem(o, "args"), "file_path") != NULL,
	   "read: the path argument is kept");
	cJSON_Delete(o);
	o = line_json(path, 2);
	is_str(str_of(o, "decision"), "ask", "no prompt: ask");
	cJSON_Delete(o);
	o = line_json(path, 3);
	is_str(str_of(o, "decision"), "allow", "prompted: allow");
	is_str(str_of(o, "answer"), "allow_once", "prompted: answer");
	is_str(str_of(o, "answeredBy"), "terminal", "prompted: answeredBy");
	cJSON_Delete(o);
	o = line_json(path, 4);
	x = cJSON_GetObjectItem(o, "args");
	ok(str_of(x, "content") && strstr(str_of(x, "content"), "REDACTED"),
	   "write: the token in content is redacted (%s)",
	   str_of(x, "content") ? str_of(x, "content") : "?");
	ok(str_of(x, "password") && strstr(str_of(x, "password"), "REDACTED"),
	   "write: a password member is redacted");
	cJSON_Delete(o);

	/* extra_json members, and the refused ones. */
	call.cwd = ws;
	(void)cordon_policy_evaluate(p, &call, r, NULL);
	ok(cordon_audit_decision(a, r, "{\"door\":\"hook\",\"server\":\"gh\"}",
				 &d) == CORDON_OK,
	   "extra: added");
	o = line_json(path, 5);
	is_str(str_of(o, "door"), "hook", "extra: door");
	is_str(str_of(o, "server"), "gh", "extra: server");
	keys_of(o, keys, sizeof(keys));
	ok(strlen(keys) > 32 && strcmp(keys + strlen(keys) - 32,
				       "answeredBy,door,server,prev,hash") == 0,
	   "extra: after the decision members (%s)", keys);
	cJSON_Delete(o);
	ok(cordon_audit_decision(a, r, "{\"seq\":5}", &d) == CORDON_E_INVAL &&
		   strstr(d.message, "reserved"),
	   "extra: a reserved name is refused (%s)", d.message);
	ok(cordon_audit_failed(a) == 1 && cordon_audit_failed(a) == 0,
	   "failed: set by a refused record, then cleared");
	ok(cordon_audit_decision(a, r, "{\"tool\":\"x\"}", &d) ==
			   CORDON_E_INVAL &&
		   strstr(d.message, "twice"),
	   "extra: a name already in the record is refused (%s)", d.message);
	ok(cordon_audit_decision(a, r, "[1]", &d) == CORDON_E_INVAL,
	   "extra: not an object is refused");
	cordon_audit_failed(a);

	verify1(path, &rep);
	ok(rep.intact && rep.records == 6 && rep.files == 1,
	   "verify: the decisions chain (%d, %llu records)", rep.intact,
	   (unsigned long long)rep.records);

	/* Files and directories are private. */
	{
		struct stat st;
		char dir[600];
		path_in(dir, sizeof(dir), "dec");
		ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600,
		   "the log file is 0600 (%o)", st.st_mode & 0777);
		ok(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700,
		   "a directory made for it is 0700 (%o)", st.st_mode & 0777);
	}
	cordon_audit_close(a);

	/* log_all_commands: the command is there, redacted. */
	path_in(path, sizeof(path), "dec/all.jsonl");
	a = open_log(path, 1, 0, 0);
	cordon_policy_set_on_decision(p, cordon_audit_on_decision, a);
	snprintf(args, sizeof(args),
		 "{\"command\":\"curl -H 'X-Key: %s' https://example.com/"
		 "zzcmdmark\"}",
		 ghp);
	(void)decide(p, "Bash", args, CORDON_DECIDE_NO_PROMPT);
	o = line_json(path, 0);
	x = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "args"), "command");
	ok(cJSON_IsString(x) && strstr(x->valuestring, "zzcmdmark") &&
		   strstr(x->valuestring, "REDACTED") &&
		   !strstr(x->valuestring, ghp),
	   "log_all_commands: the command is recorded, redacted (%s)",
	   cJSON_IsString(x) ? x->valuestring : "?");
	cJSON_Delete(o);
	cordon_audit_close(a);

	cordon_result_free(r);
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

static void test_run_and_events(void)
{
	static const char report[] =
		"{\"backend\":\"namespaces\",\"enforcement\":\"full\","
		"\"notEnforced\":[],\"exitCode\":3,\"signal\":null,"
		"\"timedOut\":false,\"durationMs\":12,\"extra\":1}";
	char path[600], keys[512], fields[512];
	const char *argv[] = { "/usr/bin/git", "push", "--token", ghp, NULL };
	struct cordon_audit *a;
	struct cordon_diag d = { 0 };
	struct cordon_audit_report rep;
	cJSON *o;
	char *text;

	path_in(path, sizeof(path), "run.jsonl");
	a = open_log(path, 0, 0, 0);
	ok(cordon_audit_run(a, "s2", argv, report, &d) == CORDON_OK,
	   "run: recorded");
	o = line_json(path, 0);
	is_str(keys_of(o, keys, sizeof(keys)),
	       "v,seq,time,host,pid,event,session,program,backend,"
	       "enforcement,notEnforced,exitCode,signal,timedOut,durationMs,"
	       "prev,hash",
	       "run: the documented members, no argv by default");
	is_str(str_of(o, "program"), "git", "run: program is the base name");
	is_str(str_of(o, "enforcement"), "full", "run: enforcement");
	is_int(cJSON_GetObjectItem(o, "exitCode")->valueint, 3,
	       "run: exitCode");
	is_int(cJSON_GetObjectItem(o, "durationMs")->valueint, 12,
	       "run: durationMs");
	ok(cJSON_IsFalse(cJSON_GetObjectItem(o, "timedOut")) &&
		   cJSON_IsNull(cJSON_GetObjectItem(o, "signal")),
	   "run: timedOut and signal");
	cJSON_Delete(o);
	ok(cordon_audit_run(a, NULL, argv, "not json", &d) == CORDON_E_INVAL,
	   "run: a report that is not an object is refused");

	/* proxy and mcp events. */
	ok(event(a, "proxy",
		 "{\"session\":\"s2\",\"target\":\"evil.example:443\","
		 "\"verdict\":\"deny\",\"reason\":\"not on the allow-list\"}") ==
		   CORDON_OK,
	   "proxy: recorded");
	ok(event(a, "mcp",
		 "{\"server\":\"github\",\"mcpTool\":\"create_issue\","
		 "\"pin\":\"changed\"}") == CORDON_OK,
	   "mcp: recorded");
	snprintf(fields, sizeof(fields),
		 "{\"url\":\"https://x.example/?q=1&token=%s\",\"token\":"
		 "\"abc123abc\"}",
		 ghp);
	ok(event(a, "fetch", fields) == CORDON_OK, "fetch: recorded");
	ok(event(a, "empty", NULL) == CORDON_OK, "an event without fields");
	o = line_json(path, 1);
	is_str(keys_of(o, keys, sizeof(keys)),
	       "v,seq,time,host,pid,event,session,target,verdict,reason,"
	       "prev,hash",
	       "proxy: members");
	cJSON_Delete(o);
	o = line_json(path, 2);
	is_str(str_of(o, "event"), "mcp", "mcp: event");
	is_str(str_of(o, "pin"), "changed", "mcp: pin");
	is_str(str_of(o, "mcpTool"), "create_issue", "mcp: tool");
	cJSON_Delete(o);
	text = table_read(path, NULL);
	ok(text && !strstr(text, ghp) && !strstr(text, "abc123abc"),
	   "event fields are redacted");
	free(text);

	ok(event(a, "proxy", "{\"hash\":\"x\"}") == CORDON_E_INVAL,
	   "event: a reserved name is refused");
	ok(event(a, "proxy", "{\"a\":1,\"a\":2}") == CORDON_E_INVAL,
	   "event: a name twice is refused");
	ok(event(a, "recovered", "{}") == CORDON_E_INVAL,
	   "event: \"recovered\" is the writer's own");
	ok(event(a, "bad name", "{}") == CORDON_E_INVAL &&
		   event(a, "", "{}") == CORDON_E_INVAL,
	   "event: names are checked");
	ok(event(a, "proxy", "{\"a\":") == CORDON_E_JSON,
	   "event: malformed fields are refused");
	cordon_audit_close(a);

	/* log_all_commands: argv, redacted. */
	path_in(path, sizeof(path), "run-all.jsonl");
	a = open_log(path, 1, 0, 0);
	ok(cordon_audit_run(a, "s2", argv, report, &d) == CORDON_OK,
	   "run with argv: recorded");
	o = line_json(path, 0);
	{
		cJSON *av = cJSON_GetObjectItem(o, "argv");
		ok(cJSON_GetArraySize(av) == 4 &&
			   strcmp(cJSON_GetArrayItem(av, 1)->valuestring,
				  "push") == 0 &&
			   strstr(cJSON_GetArrayItem(av, 3)->valuestring,
				  "REDACTED"),
		   "run: argv recorded with the token redacted");
	}
	cJSON_Delete(o);
	cordon_audit_close(a);

	verify1(path, &rep);
	ok(rep.intact, "run log verifies");
}

/* A long argument is cut; the record still fits. */
static void test_long_args(void)
{
	char path[600];
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_policy *p = make_policy(cfg);
	struct cordon_audit *a;
	size_t big = 20000;
	char *args = malloc(big + 200);
	cJSON *o;
	const char *c;

	path_in(path, sizeof(path), "long.jsonl");
	a = open_log(path, 0, 0, 0);
	cordon_policy_set_on_decision(p, cordon_audit_on_decision, a);
	int k = snprintf(args, 200,
			 "{\"file_path\":\"%s/c.txt\",\"content\":\"", ws);
	memset(args + k, 'y', big);
	memcpy(args + k + big, "\"}", 3);
	(void)decide(p, "Write", args, CORDON_DECIDE_NO_PROMPT);
	o = line_json(path, 0);
	c = str_of(cJSON_GetObjectItem(o, "args"), "content");
	ok(c && strlen(c) < 4200 && strstr(c, "[cut: "),
	   "a long string argument is cut (%zu bytes)", c ? strlen(c) : 0);
	cJSON_Delete(o);

	/* 45,000 members named like secrets: under the policy's 1 MiB, over
	 * the line limit once each "x" is "[REDACTED]". The arguments are
	 * left out and the decision is recorded. */
	{
		size_t cap = 45000 * 24 + 256, n;
		char *huge = malloc(cap);
		n = (size_t)snprintf(huge, 256, "{\"file_path\":\"%s/d.txt\"",
				     ws);
		for (int i = 0; i < 45000; i++)
			n += (size_t)snprintf(huge + n, 32,
					      ",\"p%05d_password\":\"x\"", i);
		memcpy(huge + n, "}", 2);
		(void)decide(p, "Write", huge, CORDON_DECIDE_NO_PROMPT);
		free(huge);
	}
	o = line_json(path, 1);
	c = str_of(cJSON_GetObjectItem(o, "args"), "omitted");
	ok(c && strstr(c, "over the audit line limit") && str_of(o, "decision"),
	   "arguments over the line limit are left out, the decision is "
	   "kept (%s)",
	   c ? c : "?");
	cJSON_Delete(o);
	cordon_audit_close(a);
	free(args);
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

/* ---- tampering ----------------------------------------------------------- */

/* A fresh log of n events at path. */
static void make_log(const char *path, int n)
{
	struct cordon_audit *a;

	unlink(path);
	a = open_log(path, 0, 0, 0);
	for (int i = 0; i < n; i++) {
		char f[64];
		snprintf(f, sizeof(f), "{\"i\":%d,\"word\":\"alpha\"}", i + 1);
		if (event(a, "test", f) != CORDON_OK)
			ok(0, "make_log: event %d", i);
	}
	cordon_audit_close(a);
}

static void expect_bad(const char *path, uint64_t line, const char *want,
		       const char *name)
{
	struct cordon_audit_report rep;

	verify1(path, &rep);
	ok(!rep.intact && rep.bad_line == line && strstr(rep.why, want) &&
		   strcmp(rep.bad_file, path) == 0,
	   "%s: line %llu (%s)", name, (unsigned long long)rep.bad_line,
	   rep.why);
}

static void test_tamper(void)
{
	char path[600], copy[600];
	struct cordon_audit_report rep;
	char **v;
	size_t n;

	path_in(path, sizeof(path), "t/orig.jsonl");
	path_in(copy, sizeof(copy), "t/copy.jsonl");
	make_log(path, 10);
	verify1(path, &rep);
	ok(rep.intact && rep.records == 10 && rep.bad_line == 0 &&
		   rep.head[0] && rep.notes[0] == '\0',
	   "tamper: the original is intact (%s)", rep.why);

	/* A changed byte: "alpha" → "alphb" in line 4. */
	v = lines_of(path, &n);
	*strstr(v[3], "alpha") = 'A';
	write_lines(copy, v, n, 0);
	lines_free(v);
	expect_bad(copy, 4, "changed byte", "edit a byte");

	/* A deleted record. */
	v = lines_of(path, &n);
	free(v[4]);
	memmove(v + 4, v + 5, (n - 5 + 1) * sizeof(*v));
	write_lines(copy, v, n - 1, 0);
	lines_free(v);
	expect_bad(copy, 5, "deleted", "delete a line");

	/* Two records swapped, next to each other and apart. */
	v = lines_of(path, &n);
	{
		char *t = v[2];
		v[2] = v[3];
		v[3] = t;
	}
	write_lines(copy, v, n, 0);
	lines_free(v);
	expect_bad(copy, 3, "swapped", "swap two lines");
	v = lines_of(path, &n);
	{
		char *t = v[1];
		v[1] = v[6];
		v[6] = t;
	}
	write_lines(copy, v, n, 0);
	lines_free(v);
	expect_bad(copy, 2, "swapped", "swap two lines apart");

	/* A truncated last line. */
	v = lines_of(path, &n);
	v[9][strlen(v[9]) - 20] = '\0';
	write_lines(copy, v, n, 1);
	lines_free(v);
	expect_bad(copy, 10, "cut", "truncate the last line");
	/* Only its newline gone. */
	v = lines_of(path, &n);
	write_lines(copy, v, n, 1);
	lines_free(v);
	expect_bad(copy, 10, "without a newline", "drop the last newline");

	/* Malformed JSON in the middle. */
	v = lines_of(path, &n);
	free(v[5]);
	v[5] = strdup("{\"v\":1,\"seq\":6,");
	write_lines(copy, v, n, 0);
	lines_free(v);
	expect_bad(copy, 6, "not an audit record", "a malformed line");

	/* An edit re-hashed: the next record's prev shows it. */
	v = lines_of(path, &n);
	{
		char *l = v[3];
		size_t len = strlen(l);
		char hash[65];
		*strstr(l, "alpha") = 'A';
		sha256_hex(l, len - 75, hash);
		memcpy(l + len - 66, hash, 64);
	}
	write_lines(copy, v, n, 0);
	lines_free(v);
	expect_bad(copy, 5, "prev is not the hash", "an edit re-hashed");

	/* The first line removed: a break, even for a caller who accepts
	 * files rotated away (the log does not start with seq 1, nor with
	 * a "rotated" record). */
	v = lines_of(path, &n);
	write_lines(copy, v + 1, n - 1, 0);
	lines_free(v);
	verify1(copy, &rep);
	ok(!rep.intact && rep.bad_line == 1 &&
		   strstr(rep.why, "starts mid-chain at seq 2") &&
		   strstr(rep.why, "first records were deleted"),
	   "head removed: a break (%s)", rep.why);
	{
		struct cordon_audit_verify_opts vo = { .allow_missing_start =
							       1 };
		const char *files[] = { copy };
		ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) ==
				   CORDON_OK &&
			   !rep.intact && strstr(rep.why, "starts mid-chain"),
		   "head removed: a break with --allow-missing-start too (%s)",
		   rep.why);
	}

	/* The same chain in memory. */
	{
		size_t len;
		char *text = table_read(path, &len);
		ok(audit_verify_buffer(text, len, &rep) == CORDON_OK &&
			   rep.intact && rep.records == 10,
		   "verify_buffer: intact");
		text[len / 2] ^= 1;
		ok(audit_verify_buffer(text, len, &rep) == CORDON_OK &&
			   !rep.intact,
		   "verify_buffer: a flipped bit (%s)", rep.why);
		free(text);
	}

	/* A missing file is an I/O error. */
	{
		const char *f[] = { "/nonexistent/audit.jsonl" };
		struct cordon_diag d = { 0 };
		ok(cordon_audit_verify(f, 1, &rep, &d) == CORDON_E_IO &&
			   strstr(d.message, "/nonexistent/audit.jsonl"),
		   "verify: a missing file is an I/O error naming it");
	}
}

/* ---- rotation ------------------------------------------------------------ */

static int exists(const char *base, int n)
{
	char p[700];
	struct stat st;

	snprintf(p, sizeof(p), "%s.%d", base, n);
	return stat(p, &st) == 0;
}

static void test_rotation(void)
{
	char path[600], p1[700], p2[700], p3[700];
	struct cordon_audit *a;
	struct cordon_audit_report rep;
	int i;

	path_in(path, sizeof(path), "rot/audit.jsonl");
	a = open_log(path, 0, 2000, 10);
	for (i = 0; i < 25; i++)
		event(a, "test", "{\"word\":\"rotation\"}");
	cordon_audit_close(a);
	ok(exists(path, 1) && exists(path, 2) && exists(path, 3) &&
		   !exists(path, 10),
	   "rotation: path.1 … path.3 made");
	verify1(path, &rep);
	ok(rep.intact && rep.records == 25 + rep.files - 1 && rep.files >= 4,
	   "rotation: the chain holds across %u files (%llu records; %s)",
	   rep.files, (unsigned long long)rep.records, rep.why);
	{
		struct stat st;
		ok(stat(path, &st) == 0 && st.st_size <= 2000,
		   "rotation: the live file stays under rotate_bytes");
	}

	/* A middle file dropped. */
	snprintf(p2, sizeof(p2), "%s.2", path);
	snprintf(p3, sizeof(p3), "%s.2.keep", path);
	rename(p2, p3);
	verify1(path, &rep);
	snprintf(p1, sizeof(p1), "%s.1", path);
	ok(!rep.intact && strcmp(rep.bad_file, p1) == 0 && rep.bad_line == 1 &&
		   strstr(rep.why, "missing from the middle") &&
		   strstr(rep.why, ".2 is absent"),
	   "rotation: a dropped middle file is found (%s:%llu: %s)",
	   rep.bad_file, (unsigned long long)rep.bad_line, rep.why);
	{
		char p4[700];
		const char *files[] = { p4, p1, path };
		struct cordon_diag d = { 0 };
		snprintf(p4, sizeof(p4), "%s.3", path);
		ok(cordon_audit_verify(files, 3, &rep, &d) == CORDON_OK &&
			   !rep.intact && strcmp(rep.bad_file, p1) == 0 &&
			   strstr(rep.why, "missing from the middle"),
		   "rotation: the same with the files named (%s)", rep.why);
	}
	rename(p3, p2);

	/* keep: the oldest are dropped; verify notes where the chain starts. */
	path_in(path, sizeof(path), "rot2/audit.jsonl");
	a = open_log(path, 0, 1500, 2);
	for (i = 0; i < 30; i++)
		event(a, "test", "{\"word\":\"rotation\"}");
	cordon_audit_close(a);
	ok(exists(path, 1) && exists(path, 2) && !exists(path, 3),
	   "rotation: only rotate_keep files are kept");
	verify1(path, &rep);
	ok(!rep.intact && rep.bad_line == 1 &&
		   strstr(rep.why, "after a rotation") &&
		   strstr(rep.why, "--allow-missing-start"),
	   "rotation: a chain starting in a rotated file is a break by "
	   "default (%s)",
	   rep.why);
	{
		struct cordon_audit_verify_opts vo = { .allow_missing_start =
							       1 };
		const char *files[] = { path };
		ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) ==
				   CORDON_OK &&
			   rep.intact && rep.records < 30 &&
			   strstr(rep.notes, "rotated away"),
		   "rotation: with allow_missing_start it is a note (%s)",
		   rep.notes);
	}
	/* The first line of the oldest file removed: a break even so. */
	{
		struct cordon_audit_verify_opts vo = { .allow_missing_start =
							       1 };
		const char *files[] = { path };
		size_t n;
		char **v;

		snprintf(p2, sizeof(p2), "%s.2", path);
		v = lines_of(p2, &n);
		write_lines(p2, v + 1, n - 1, 0);
		lines_free(v);
		ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) ==
				   CORDON_OK &&
			   !rep.intact && strstr(rep.why, "starts mid-chain"),
		   "rotation: the oldest file's first record deleted is found "
		   "(%s)",
		   rep.why);
	}

	/* Two handles, one rotating under the other. */
	path_in(path, sizeof(path), "rot3/audit.jsonl");
	{
		struct cordon_audit *b;
		a = open_log(path, 0, 1500, 50);
		b = open_log(path, 0, 1500, 50);
		for (i = 0; i < 40; i++)
			event(i % 3 ? a : b, "test", "{\"word\":\"both\"}");
		cordon_audit_close(a);
		cordon_audit_close(b);
	}
	verify1(path, &rep);
	ok(rep.intact && rep.records == 40 + rep.files - 1 && rep.files > 3,
	   "rotation: handles reopen a file rotated by another (%u files, "
	   "%llu records, %s)",
	   rep.files, (unsigned long long)rep.records, rep.why);
}

/* A path.1 that is not a log does not stop the writer of a new file. */
static void test_bad_rotated(void)
{
	char path[600], p1[700];
	struct cordon_audit *a;
	struct cordon_audit_report rep;

	path_in(path, sizeof(path), "badrot/audit.jsonl");
	a = open_log(path, 0, 0, 0);
	snprintf(p1, sizeof(p1), "%s.1", path);
	spit(p1, "not a log\n", 10);
	ok(event(a, "test", "{}") == CORDON_OK,
	   "bad path.1: the new file is written");
	cordon_audit_close(a);
	verify1(path, &rep);
	ok(!rep.intact && strcmp(rep.bad_file, p1) == 0 && rep.bad_line == 1,
	   "bad path.1: verify names it (%s:%llu)", rep.bad_file,
	   (unsigned long long)rep.bad_line);
}

/* ---- crashes ------------------------------------------------------------- */

static void die_now(void)
{
	raise(SIGKILL);
}

static void test_killed(void)
{
	char path[600];
	struct cordon_audit *a;
	struct cordon_audit_report rep;
	int status = 0;
	size_t n;
	char **v;
	pid_t pid;

	path_in(path, sizeof(path), "kill.jsonl");
	make_log(path, 3);
	pid = fork();
	if (pid == 0) {
		struct cordon_audit *c = open_log(path, 0, 0, 0);
		audit_test_between_writes = die_now;
		(void)event(c, "test", "{\"word\":\"doomed\"}");
		_exit(3);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "killed: the child died between its two writes");
	verify1(path, &rep);
	ok(!rep.intact && rep.bad_line == 4 && strstr(rep.why, "cut") &&
		   strstr(rep.why, "killed mid-append"),
	   "killed: verify explains the cut line (%s)", rep.why);

	a = open_log(path, 0, 0, 0);
	ok(event(a, "test", "{\"word\":\"after\"}") == CORDON_OK,
	   "killed: the next append works");
	cordon_audit_close(a);
	v = lines_of(path, &n);
	ok(n == 6 && strstr(v[4], "\"event\":\"recovered\"") &&
		   strstr(v[4], "\"torn_bytes\":") && strstr(v[5], "after"),
	   "killed: the cut line is ended and a recovered record follows");
	lines_free(v);
	verify1(path, &rep);
	ok(rep.intact && rep.records == 5 && strstr(rep.notes, "recovered") &&
		   strstr(rep.notes, "line 4"),
	   "killed: verify passes with a note (%s)", rep.notes);

	/* A cut line written by hand, at the very start of a file. */
	path_in(path, sizeof(path), "kill2.jsonl");
	spit(path, "{\"v\":1,\"seq\":1,\"ti", 18);
	a = open_log(path, 0, 0, 0);
	ok(event(a, "test", "{}") == CORDON_OK &&
		   event(a, "test", "{}") == CORDON_OK,
	   "cut first line: appends work");
	cordon_audit_close(a);
	verify1(path, &rep);
	ok(rep.intact && rep.records == 3 && strstr(rep.notes, "recovered"),
	   "cut first line: verify passes with a note (%s / %s)", rep.why,
	   rep.notes);

	/* A line that is not a record in the middle: the writer goes on,
	 * verify names the line. */
	path_in(path, sizeof(path), "junk.jsonl");
	make_log(path, 2);
	{
		int fd = open(path, O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, "junk\n", 5) != 5)
			ok(0, "append junk");
		close(fd);
	}
	a = open_log(path, 0, 0, 0);
	ok(event(a, "test", "{}") == CORDON_OK, "junk: the writer goes on");
	cordon_audit_close(a);
	verify1(path, &rep);
	ok(rep.intact && strstr(rep.notes, "line 3: 5 bytes that are not"),
	   "junk line: the writer's recovered record names it (%s / %s)",
	   rep.why, rep.notes);

	/* A file that is not an audit log is left alone. */
	path_in(path, sizeof(path), "notes.txt");
	spit(path, "my notes\nmore notes\n", 20);
	a = open_log(path, 0, 0, 0);
	{
		struct cordon_diag d = { 0 };
		size_t len;
		char *text;
		ok(cordon_audit_event(a, "test", "{}", &d) == CORDON_E_PARSE &&
			   strstr(d.message, "not audit records"),
		   "not a log: refused (%s)", d.message);
		text = table_read(path, &len);
		ok(len == 20, "not a log: left as it was");
		free(text);
	}
	cordon_audit_close(a);
}

/* ---- handles and processes ----------------------------------------------- */

static void test_handles(void)
{
	char path[600];
	struct cordon_audit *a, *b;
	struct cordon_audit_report rep;
	int status = 0;
	pid_t pid;

	path_in(path, sizeof(path), "two.jsonl");
	a = open_log(path, 0, 0, 0);
	b = open_log(path, 0, 0, 0);
	for (int i = 0; i < 20; i++)
		event(i % 2 ? a : b, "test", "{}");
	/* A handle used in a child after fork() opens its own file. */
	pid = fork();
	if (pid == 0) {
		int rc = 0;
		for (int i = 0; i < 5; i++)
			rc |= event(a, "child", "{}");
		_exit(rc ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fork: the child appended with the inherited handle");
	event(a, "test", "{}");
	cordon_audit_close(a);
	cordon_audit_close(b);
	verify1(path, &rep);
	ok(rep.intact && rep.records == 26,
	   "two handles and a child: one chain of 26 (%llu, %s)",
	   (unsigned long long)rep.records, rep.why);

	/* The log removed under a handle: the chain goes on from the
	 * handle's state and verify notes where it starts. */
	path_in(path, sizeof(path), "gone.jsonl");
	a = open_log(path, 0, 0, 0);
	event(a, "test", "{}");
	event(a, "test", "{}");
	unlink(path);
	event(a, "test", "{}");
	cordon_audit_close(a);
	verify1(path, &rep);
	ok(!rep.intact && strstr(rep.why, "starts mid-chain at seq 3"),
	   "removed log: the new file goes on from seq 3, and verify says "
	   "the first records are gone (%s)",
	   rep.why);

	/* fsync policies and close. */
	for (int pol = 0; pol < 3; pol++) {
		struct cordon_audit_opts o = { 0 };
		struct cordon_diag d = { 0 };
		char p[600];
		snprintf(p, sizeof(p), "%s/fsync%d.jsonl", root, pol);
		o.path = p;
		o.fsync_policy = (enum cordon_audit_fsync)pol;
		o.fsync_batch = 3;
		a = NULL;
		ok(cordon_audit_open(&o, &a, &d) == CORDON_OK, "fsync %d: open",
		   pol);
		for (int i = 0; i < 7; i++)
			event(a, "test", "{}");
		ok(cordon_audit_close(a) == CORDON_OK, "fsync %d: close", pol);
		verify1(p, &rep);
		ok(rep.intact && rep.records == 7, "fsync %d: 7 records", pol);
	}
	{
		struct cordon_audit_opts o = { 0 };
		struct cordon_diag d = { 0 };
		o.path = "/proc/cordon-no/audit.jsonl";
		a = NULL;
		ok(cordon_audit_open(&o, &a, &d) != CORDON_OK && !a &&
			   strstr(d.message, "/proc/cordon-no"),
		   "open: an impossible path fails naming it (%s)", d.message);
		o.path = path;
		o.rotate_keep = 5000;
		ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL,
		   "open: rotate_keep over the limit");
	}
}

/* ---- sinks --------------------------------------------------------------- */

static void test_sinks(void)
{
	char sock[600], path[600], buf[8192], errpath[600];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct cordon_audit_opts o = { 0 };
	struct cordon_audit *a = NULL;
	struct cordon_diag d = { 0 };
	struct cordon_result *r = cordon_result_new();
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_policy *p = make_policy(cfg);
	struct cordon_call call = { "Bash", "{\"command\":\"rm -rf /\"}",
				    0,	    ws,
				    NULL,   NULL };
	char **v;
	size_t n;
	ssize_t k;
	int fd;

	path_in(sock, sizeof(sock), "log.sock");
	path_in(path, sizeof(path), "sys.jsonl");
	memcpy(sun.sun_path, sock, strlen(sock) + 1);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	ok(fd >= 0 && bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0,
	   "syslog: a test socket");
	o.path = path;
	o.fsync_policy = CORDON_AUDIT_FSYNC_NEVER;
	o.syslog = 1;
	o.syslog_path = sock;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_OK, "syslog: open (%s)",
	   d.message);
	(void)cordon_policy_evaluate(p, &call, r, NULL);
	ok(cordon_audit_decision(a, r, NULL, &d) == CORDON_OK,
	   "syslog: a deny recorded");
	k = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[k > 0 ? k : 0] = '\0';
	v = lines_of(path, &n);
	{
		char want[128];
		const char *json = strstr(buf, " - {");
		snprintf(want, sizeof(want), " cordon %ld decision - {",
			 (long)getpid());
		ok(strncmp(buf, "<12>1 20", 8) == 0 && strstr(buf, want),
		   "syslog: PRI user.warning, version, APP-NAME, PROCID, "
		   "MSGID (%.80s)",
		   buf);
		ok(json && n == 1 && strcmp(json + 3, v[0]) == 0,
		   "syslog: MSG is the record line");
	}
	lines_free(v);
	call.args_json = "{\"file_path\":\"x\"}";
	call.tool = "Read";
	(void)cordon_policy_evaluate(p, &call, r, NULL);
	ok(cordon_audit_decision(a, r, NULL, &d) == CORDON_OK, "syslog: allow");
	k = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	ok(k > 4 && strncmp(buf, "<14>1 ", 6) == 0, "syslog: allow is info");
	call.args_json = "{\"command\":\"echo hi\"}";
	call.tool = "Bash";
	(void)cordon_policy_evaluate(p, &call, r, NULL);
	ok(cordon_audit_decision(a, r, NULL, &d) == CORDON_OK, "syslog: ask");
	k = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	ok(k > 4 && strncmp(buf, "<13>1 ", 6) == 0, "syslog: ask is notice");
	ok(event(a, "proxy", "{\"verdict\":\"deny\"}") == CORDON_OK,
	   "syslog: a proxy event");
	k = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[k > 0 ? k : 0] = '\0';
	ok(strncmp(buf, "<12>1 ", 6) == 0 && strstr(buf, " proxy - {"),
	   "syslog: a denied proxy event is a warning, MSGID proxy");
	cordon_audit_close(a);

	/* The daemon gone: a record fails, and says why. */
	a = NULL;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_OK, "syslog: reopen");
	close(fd);
	unlink(sock);
	ok(event(a, "test", "{}") == CORDON_E_IO && cordon_audit_failed(a),
	   "syslog: a send that fails fails the record");
	cordon_audit_close(a);
	o.syslog_path = "/nonexistent/dev-log";
	a = NULL;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_IO &&
		   strstr(d.message, "/nonexistent/dev-log"),
	   "syslog: a missing socket is an open error naming it (%s)",
	   d.message);

	/* stderr, and no file at all. */
	path_in(errpath, sizeof(errpath), "stderr.txt");
	{
		int saved = dup(2);
		int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		struct cordon_audit_opts e = { 0 };
		char *text;
		dup2(efd, 2);
		close(efd);
		e.to_stderr = 1;
		a = NULL;
		ok(cordon_audit_open(&e, &a, &d) == CORDON_OK,
		   "stderr only: open");
		event(a, "test", "{\"n\":1}");
		event(a, "test", "{\"n\":2}");
		cordon_audit_close(a);
		dup2(saved, 2);
		close(saved);
		text = table_read(errpath, NULL);
		ok(text && strstr(text, "\"seq\":1,") &&
			   strstr(text, "\"seq\":2,") &&
			   strstr(text, "\"n\":2"),
		   "stderr: each record is written there, chained");
		free(text);
		{
			struct cordon_audit_report rep;
			verify1(errpath, &rep);
			ok(rep.intact && rep.records == 2,
			   "stderr: the lines verify");
		}
	}
	cordon_result_free(r);
	cordon_policy_free(p);
	cordon_config_free(cfg);
}

/* ---- an independent check of the format ---------------------------------- */

/* ---- faults and files (issue 15) ----------------------------------------- */

/* A writer killed while recovering a cut line (after ending it with '\n',
 * with half of its "recovered" record written): the next writer recovers
 * everything after the last whole record, and verify passes. */
static void test_recovery_cut(void)
{
	char path[600];
	struct cordon_audit *a;
	struct cordon_audit_report rep;
	int fd;

	path_in(path, sizeof(path), "rcut.jsonl");
	make_log(path, 3);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, "{\"v\":1,\"seq\":4,\"ti", 18) != 18 ||
	    write(fd, "\n{\"v\":1,\"seq\":4,\"time\":\"20", 27) != 27)
		ok(0, "append the cut lines");
	close(fd);
	a = open_log(path, 0, 0, 0);
	ok(a && event(a, "test", "{\"word\":\"after\"}") == CORDON_OK,
	   "cut recovery: the next writer appends");
	cordon_audit_close(a);
	verify1(path, &rep);
	ok(rep.intact && rep.records == 5 &&
		   strstr(rep.notes, "line 4: 45 bytes") &&
		   strstr(rep.notes, "2 lines"),
	   "cut recovery: verify passes, the recovered record covers both "
	   "cut lines (%s / %s)",
	   rep.why, rep.notes);
}

/* A write that fails part-way (the file size limit stands in for a full
 * disk) is cut back: no half "allow" record stays, the error is
 * reported, and the log goes on intact once there is room. */
static void test_short_write(void)
{
	char path[600];
	struct cordon_audit *a;
	struct cordon_audit_report rep;
	struct stat before, after;
	struct rlimit old, lim;
	void (*oldsig)(int);
	enum cordon_err rc;

	path_in(path, sizeof(path), "full.jsonl");
	a = open_log(path, 0, 0, 0);
	event(a, "test", "{\"decision\":\"deny\"}");
	stat(path, &before);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = (rlim_t)before.st_size + 40;
	oldsig = signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	rc = event(a, "test", "{\"decision\":\"allow\"}");
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, oldsig);
	stat(path, &after);
	ok(rc == CORDON_E_IO && cordon_audit_failed(a),
	   "full disk: the append fails and the handle says so");
	ok(after.st_size == before.st_size,
	   "full disk: the part written is cut back (%lld → %lld bytes)",
	   (long long)before.st_size, (long long)after.st_size);
	ok(event(a, "test", "{\"decision\":\"deny\"}") == CORDON_OK,
	   "full disk: appends work again with room");
	cordon_audit_close(a);
	verify1(path, &rep);
	ok(rep.intact && rep.records == 2 && !rep.notes[0],
	   "full disk: the log is intact, nothing to recover (%s / %s)",
	   rep.why, rep.notes);
}

/* A child that opens the log (or verifies it) where a FIFO stands: it
 * must come back with an error instead of waiting for a writer. Returns
 * 1 for an error, 0 for success, -1 when it hung (killed by alarm). */
static int child_opens(const char *path, int verify)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		struct cordon_audit_report rep;
		const char *files[] = { path };
		struct cordon_audit *a = NULL;
		struct cordon_audit_opts o = {
			.path = path, .fsync_policy = CORDON_AUDIT_FSYNC_NEVER
		};
		enum cordon_err rc;

		alarm(10); /* a watchdog, not a timed assert */
		if (verify)
			rc = cordon_audit_verify(files, 1, &rep, NULL);
		else {
			rc = cordon_audit_open(&o, &a, NULL);
			if (rc == CORDON_OK)
				rc = cordon_audit_event(a, "t", NULL, NULL);
			cordon_audit_close(a);
		}
		_exit(rc == CORDON_OK ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_unsafe_files(void)
{
	char path[700], dir[600], p1[800], target[600], key[600];
	struct cordon_audit_opts o = { .fsync_policy =
					       CORDON_AUDIT_FSYNC_NEVER };
	struct cordon_audit *a = NULL;
	struct cordon_diag d = { 0 };

	/* A FIFO at the path, at path.1 (a new file looks there), and for
	 * verify. */
	path_in(path, sizeof(path), "fifo.jsonl");
	mkfifo(path, 0600);
	is_int(child_opens(path, 0), 1, "fifo: the writer refuses it");
	is_int(child_opens(path, 1), 1, "fifo: verify refuses it");
	unlink(path);
	snprintf(p1, sizeof(p1), "%s.1", path);
	mkfifo(p1, 0600);
	is_int(child_opens(path, 0), 0,
	       "fifo at path.1: a new file is written without waiting");
	is_int(child_opens(path, 1), 1, "fifo at path.1: verify refuses it");

	/* A symlinked log. */
	path_in(path, sizeof(path), "link.jsonl");
	path_in(target, sizeof(target), "target.jsonl");
	make_log(target, 1);
	symlink(target, path);
	o.path = path;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "symbolic link"),
	   "symlink: refused (%s)", d.message);

	/* A log others can write. */
	path_in(path, sizeof(path), "ww.jsonl");
	make_log(path, 1);
	chmod(path, 0666);
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "writable by others"),
	   "world-writable file: refused (%s)", d.message);

	/* A directory others can write. */
	path_in(dir, sizeof(dir), "wwdir");
	mkdir(dir, 0777);
	chmod(dir, 0777);
	snprintf(path, sizeof(path), "%s/audit.jsonl", dir);
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "directory") &&
		   strstr(d.message, "writable by others"),
	   "world-writable directory: refused (%s)", d.message);

	/* Group-writable for the user's own group: fine. */
	path_in(dir, sizeof(dir), "gwdir");
	mkdir(dir, 0700);
	chmod(dir, 0770);
	snprintf(path, sizeof(path), "%s/audit.jsonl", dir);
	a = NULL;
	if (cordon_audit_open(&o, &a, &d) != CORDON_OK)
		diag("own group: %s", d.message);
	ok(a != NULL, "a directory writable by the user's own group: used");
	cordon_audit_close(a);
	a = NULL;

	if (geteuid() != 0) {
		skip(4, "foreign owners and shared directories need root");
		return;
	}
	/* Group-writable for another group: refused. */
	path_in(dir, sizeof(dir), "ogdir");
	mkdir(dir, 0700);
	chown(dir, 0, 65534);
	chmod(dir, 0770);
	snprintf(path, sizeof(path), "%s/audit.jsonl", dir);
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "writable by others"),
	   "a directory another group can write: refused (%s)", d.message);
	/* A log of another user. */
	path_in(path, sizeof(path), "foreign.jsonl");
	make_log(path, 1);
	chown(path, 65534, 65534);
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "another user"),
	   "foreign file: refused (%s)", d.message);
	/* A directory of another user. */
	path_in(dir, sizeof(dir), "fdir");
	mkdir(dir, 0755);
	chown(dir, 65534, 65534);
	snprintf(path, sizeof(path), "%s/audit.jsonl", dir);
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "another user"),
	   "foreign directory: refused (%s)", d.message);
	/* A shared sticky directory (like /tmp): a warning. */
	path_in(dir, sizeof(dir), "sticky");
	mkdir(dir, 0700);
	chmod(dir, 01777);
	snprintf(path, sizeof(path), "%s/audit.jsonl", dir);
	a = NULL;
	if (cordon_audit_open(&o, &a, &d) != CORDON_OK)
		diag("sticky: %s", d.message);
	ok(a && cordon_audit_warning(a) &&
		   strstr(cordon_audit_warning(a), "shared with other users"),
	   "sticky shared directory: opened with a warning (%s)",
	   a && cordon_audit_warning(a) ? cordon_audit_warning(a) : "none");
	cordon_audit_close(a);
	(void)key;
}

/* Writes a key file with mode; returns its path in buf. */
static void key_file(char *buf, size_t cap, const char *name, const char *key,
		     mode_t mode)
{
	path_in(buf, cap, name);
	spit(buf, key, strlen(key));
	chmod(buf, mode);
}

static void test_hmac(void)
{
	char path[600], k1[600], k2[600], kbad[600];
	struct cordon_audit_opts o = { .fsync_policy =
					       CORDON_AUDIT_FSYNC_NEVER };
	struct cordon_audit_verify_opts vo = { 0 };
	struct cordon_audit_report rep;
	struct cordon_audit *a = NULL;
	struct cordon_diag d = { 0 };
	const char *files[] = { path };
	char **v;
	size_t n;

	key_file(k1, sizeof(k1), "k1", "5b3f0e6d2a9c4f1e8b7a6d5c4b3a2f1e\n",
		 0600);
	key_file(k2, sizeof(k2), "k2", "0123456789abcdef0123456789abcdef\n",
		 0600);
	key_file(kbad, sizeof(kbad), "kshort", "short\n", 0600);
	path_in(path, sizeof(path), "keyed.jsonl");
	o.path = path;
	o.key_file = kbad;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "16 to 4096"),
	   "hmac: a short key is refused (%s)", d.message);
	chmod(k2, 0644);
	o.key_file = k2;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_E_INVAL &&
		   strstr(d.message, "readable by others"),
	   "hmac: a key others can read is refused (%s)", d.message);
	chmod(k2, 0600);
	o.key_file = k1;
	ok(cordon_audit_open(&o, &a, &d) == CORDON_OK, "hmac: opened");
	for (int i = 0; i < 5; i++)
		event(a, "test", "{\"word\":\"alpha\"}");
	cordon_audit_close(a);
	v = lines_of(path, &n);
	ok(n == 5 && strstr(v[0], ",\"hmac\":\""),
	   "hmac: records carry the key id");
	lines_free(v);

	vo.key_file = k1;
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, &d) == CORDON_OK &&
		   rep.intact && rep.records == 5,
	   "hmac: verify with the key passes (%s)", rep.why);
	ok(cordon_audit_verify_ex(files, 1, NULL, &rep, &d) == CORDON_OK &&
		   !rep.intact && strstr(rep.why, "give the key"),
	   "hmac: verify without the key fails (%s)", rep.why);
	vo.key_file = k2;
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, &d) == CORDON_OK &&
		   !rep.intact && strstr(rep.why, "another key"),
	   "hmac: verify with another key fails (%s)", rep.why);

	/* A forger without the key: an edit re-hashed with SHA-256 and the
	 * chain recomputed after it. */
	vo.key_file = k1;
	v = lines_of(path, &n);
	{
		char prev[65] = "";
		for (size_t i = 0; i < n; i++) {
			char *l = v[i];
			size_t len = strlen(l);
			if (i == 2)
				*strstr(l, "alpha") = 'A';
			if (prev[0])
				memcpy(l + len - 66 - 10 - 64, prev, 64);
			sha256_hex(l, len - 75, prev);
			memcpy(l + len - 66, prev, 64);
		}
	}
	write_lines(path, v, n, 0);
	lines_free(v);
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, &d) == CORDON_OK &&
		   !rep.intact && rep.bad_line == 1 &&
		   strstr(rep.why, "changed"),
	   "hmac: a chain recomputed without the key fails (%s)", rep.why);

	/* With a key, an unkeyed log fails. */
	path_in(path, sizeof(path), "plain.jsonl");
	make_log(path, 2);
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, &d) == CORDON_OK &&
		   !rep.intact && strstr(rep.why, "not keyed"),
	   "hmac: with a key, unkeyed records fail (%s)", rep.why);
}

static void test_expect_head(void)
{
	char path[600], head[65], mid[65];
	struct cordon_audit_verify_opts vo = { 0 };
	struct cordon_audit_report rep;
	const char *files[] = { path };
	char **v;
	size_t n;

	path_in(path, sizeof(path), "head.jsonl");
	make_log(path, 6);
	verify1(path, &rep);
	memcpy(head, rep.head, sizeof(head));
	ok(rep.head_seq == 6, "head: seq %llu",
	   (unsigned long long)rep.head_seq);
	vo.expect_head = head;
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) == CORDON_OK &&
		   rep.intact && strstr(rep.notes, "expected head is seq 6"),
	   "expect-head: the same log passes (%s)", rep.notes);
	/* The log grows: the head is still in it. */
	{
		struct cordon_audit *a = open_log(path, 0, 0, 0);
		event(a, "test", "{}");
		cordon_audit_close(a);
	}
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) == CORDON_OK &&
		   rep.intact && strstr(rep.notes, "1 record follows"),
	   "expect-head: a grown log passes (%s)", rep.notes);
	/* The last records removed: the chain alone cannot tell. */
	v = lines_of(path, &n);
	memcpy(mid, strstr(v[3], "\"hash\":\"") + 8, 64);
	mid[64] = '\0';
	write_lines(path, v, 4, 0);
	lines_free(v);
	verify1(path, &rep);
	ok(rep.intact, "tail cut: the chain alone holds");
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) == CORDON_OK &&
		   !rep.intact && strstr(rep.why, "expected head"),
	   "expect-head: the tail cut is found (%s)", rep.why);
	vo.expect_head = "ABC";
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) == CORDON_E_INVAL,
	   "expect-head: not a hash is an error");
	vo.expect_head = mid;
	ok(cordon_audit_verify_ex(files, 1, &vo, &rep, NULL) == CORDON_OK &&
		   rep.intact,
	   "expect-head: an older head passes");
}

/* Rotation leaves the path in place and marks each new file. */
static void test_rotated_marker(void)
{
	char path[600], p1[700], want[90] = "-";
	struct cordon_audit *a;
	char **v, **w;
	size_t n, m;

	path_in(path, sizeof(path), "mark/audit.jsonl");
	a = open_log(path, 0, 1200, 5);
	for (int i = 0; i < 8; i++)
		event(a, "test", "{\"word\":\"rotation\"}");
	cordon_audit_close(a);
	snprintf(p1, sizeof(p1), "%s.1", path);
	v = lines_of(path, &n);
	w = lines_of(p1, &m);
	if (m > 0) {
		memcpy(want, "\"previous_head\":\"", 17);
		memcpy(want + 17, strstr(w[m - 1], "\"hash\":\"") + 8, 64);
		want[81] = '\0';
	}
	ok(n > 1 && m > 1 && strstr(v[0], "\"event\":\"rotated\"") &&
		   strstr(v[0], want),
	   "rotation: the new file starts with a rotated record carrying "
	   "the head of path.1");
	lines_free(v);
	lines_free(w);
	a = open_log(path, 0, 0, 0);
	ok(event(a, "rotated", NULL) == CORDON_E_INVAL,
	   "rotated is a reserved event name");
	cordon_audit_close(a);
}

static void test_python(void)
{
	char path[600], cmd[2048];
	int rc;

	if (system("python3 -c 'import hashlib' >/dev/null 2>&1") != 0) {
		skip(1, "python3 is not available");
		return;
	}
	path_in(path, sizeof(path), "py.jsonl");
	make_log(path, 5);
	snprintf(
		cmd, sizeof(cmd),
		"python3 -c '\n"
		"import hashlib, json, sys\n"
		"prev = \"0\" * 64\n"
		"for i, line in enumerate(open(sys.argv[1], \"rb\"), 1):\n"
		"    line = line.rstrip(b\"\\n\")\n"
		"    cut = line.rindex(b\",\\\"hash\\\":\\\"\")\n"
		"    d = json.loads(line)\n"
		"    assert list(d)[:6] == [\"v\", \"seq\", \"time\", \"host\", "
		"\"pid\", \"event\"]\n"
		"    assert list(d)[-2:] == [\"prev\", \"hash\"]\n"
		"    assert d[\"seq\"] == i and d[\"prev\"] == prev\n"
		"    assert hashlib.sha256(line[:cut]).hexdigest() == d[\"hash\"]\n"
		"    prev = d[\"hash\"]\n"
		"' %s",
		path);
	rc = system(cmd);
	ok(rc == 0, "python recomputes the chain from the documented format");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	tap_no_plan();
	snprintf(root, sizeof(root), "%s/cordon-audit-XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	snprintf(ws, sizeof(ws), "%s/ws", root);
	mkdir(ws, 0700);

	test_parse_line();
	test_pure();
	test_decisions();
	test_run_and_events();
	test_long_args();
	test_tamper();
	test_rotation();
	test_bad_rotated();
	test_killed();
	test_handles();
	test_sinks();
	test_python();
	test_recovery_cut();
	test_short_write();
	test_unsafe_files();
	test_hmac();
	test_expect_head();
	test_rotated_marker();

	if (!getenv("CORDON_TEST_KEEP")) {
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			diag("could not remove %s", root);
	}
	return tap_done();
}
