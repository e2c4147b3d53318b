/* test_redact — the secret scanner (src/audit/redact.c).
 *
 * The table tests/cases/audit/redact.jsonl ($CORDON_SOURCE_ROOT, else found
 * relative to this file) holds one case per line:
 *   {"in": "text", "out": "text redacted", "note": "why"}
 * Every row is also redacted a second time: its "out" must come back
 * unchanged with nothing counted. The rest of this file covers what a
 * table cannot: text fed in pieces, the PEM state across pieces, JSON
 * values and argv arrays, counts, NUL bytes, errors, and hostile inputs
 * that must finish in linear time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "redact.h"
#include "table.h"
#include "tap.h"

#define TABLE_MIN_ROWS 170

/* cordon_redact() on s[0..n) as a malloc'd string; count in *count. */
static char *red(const char *s, size_t n, size_t *count, size_t *out_len)
{
	char *out = NULL;
	size_t len = 0, c = 0;

	if (cordon_redact(s, n, &out, &len, &c) != CORDON_OK)
		return NULL;
	if (count)
		*count = c;
	if (out_len)
		*out_len = len;
	return out;
}

static char *red_str(const char *s, size_t *count)
{
	return red(s, strlen(s), count, NULL);
}

/* ---- the table ---------------------------------------------------------- */

static struct {
	char **in, **out;
	size_t n, cap;
} rows;

static void keep_row(const char *in, const char *out)
{
	if (rows.n == rows.cap) {
		rows.cap = rows.cap ? rows.cap * 2 : 256;
		rows.in = realloc(rows.in, rows.cap * sizeof(char *));
		rows.out = realloc(rows.out, rows.cap * sizeof(char *));
		if (!rows.in || !rows.out)
			abort();
	}
	rows.in[rows.n] = strdup(in);
	rows.out[rows.n] = strdup(out);
	rows.n++;
}

static void run_row(const cJSON *row, size_t lineno)
{
	const cJSON *in = cJSON_GetObjectItemCaseSensitive(row, "in");
	const cJSON *want = cJSON_GetObjectItemCaseSensitive(row, "out");
	const cJSON *note = cJSON_GetObjectItemCaseSensitive(row, "note");
	const cJSON *f;
	char name[200];
	char *got, *again;
	size_t count = 0, count2 = 1;

	for (f = row->child; f; f = f->next)
		if (strcmp(f->string, "in") && strcmp(f->string, "out") &&
		    strcmp(f->string, "note")) {
			ok(0, "line %zu: unknown key \"%s\"", lineno,
			   f->string);
			return;
		}
	if (!cJSON_IsString(in) || !cJSON_IsString(want) ||
	    !cJSON_IsString(note) || !note->valuestring[0]) {
		ok(0, "line %zu: needs string in, out and a note", lineno);
		return;
	}
	snprintf(name, sizeof(name), "line %zu: %s", lineno, note->valuestring);
	got = red_str(in->valuestring, &count);
	is_str(got, want->valuestring, name);
	if (strcmp(in->valuestring, want->valuestring) == 0 && count != 0)
		ok(0, "%s: nothing to hide, yet %zu counted", name, count);
	if (strcmp(in->valuestring, want->valuestring) != 0 && count == 0)
		ok(0, "%s: a change that was not counted", name);
	again = red_str(want->valuestring, &count2);
	ok(again && strcmp(again, want->valuestring) == 0 && count2 == 0,
	   "%s (idempotent)", name);
	keep_row(in->valuestring, want->valuestring);
	free(got);
	free(again);
}

static void test_table(void)
{
	char path[4096];
	char *buf, *line, *nl;
	size_t len = 0, lineno = 0;
	cJSON *row;

	table_path(path, sizeof(path), "cases/audit/redact.jsonl");
	buf = table_read(path, &len);
	if (!buf) {
		ok(0, "read the table %s", path);
		return;
	}
	for (line = buf; line < buf + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		lineno++;
		if (nl == line)
			continue;
		row = cJSON_ParseWithLength(line, (size_t)(nl - line));
		if (!cJSON_IsObject(row)) {
			ok(0, "line %zu parses as a JSON object", lineno);
			cJSON_Delete(row);
			continue;
		}
		run_row(row, lineno);
		cJSON_Delete(row);
	}
	ok(rows.n >= TABLE_MIN_ROWS, "the table has %zu rows (at least %d)",
	   rows.n, TABLE_MIN_ROWS);
	free(buf);
}

/* ---- pieces ------------------------------------------------------------- */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Feeds text split just after some of its newlines (every one when
 * every_line, else at random) through one state; returns the output. */
static char *feed_pieces(const char *text, size_t len, int every_line,
			 size_t *count, size_t *out_len)
{
	struct redact_state st = { 0 };
	struct buf out = BUF_INIT(SIZE_MAX);
	size_t start = 0, i;

	*count = 0;
	for (i = 0; i < len; i++) {
		if (text[i] != '\n' || (!every_line && next_rand() % 3))
			continue;
		if (redact_append(&st, text + start, i + 1 - start, &out,
				  count) != CORDON_OK)
			goto fail;
		start = i + 1;
	}
	if (redact_append(&st, text + start, len - start, &out, count) !=
	    CORDON_OK)
		goto fail;
	*out_len = out.len;
	return out.p;
fail:
	buf_free(&out);
	return NULL;
}

static void check_pieces(const char *what, const char *text, size_t len)
{
	size_t wc = 0, wl = 0, pc, pl;
	char *whole = red(text, len, &wc, &wl), *p;
	int every;

	for (every = 1; every >= 0; every--) {
		p = feed_pieces(text, len, every, &pc, &pl);
		ok(whole && p && pl == wl && memcmp(p, whole, wl) == 0 &&
			   pc == wc,
		   "%s: %s pieces give the whole text's output (%zu values)",
		   what, every ? "line-by-line" : "random", wc);
		free(p);
	}
	free(whole);
}

/* All the table's inputs as one document: fed whole, line by line and in
 * random pieces, it gives one output, and that output is the table's
 * outputs joined (no state leaks from one row into the next). */
static void test_pieces_table(void)
{
	size_t total = 0, i, k, wc, wl, jl = 0;
	char *doc, *joined, *whole;

	for (i = 0; i < rows.n; i++)
		total += strlen(rows.in[i]) + strlen(rows.out[i]) + 2;
	doc = malloc(total + 1);
	joined = malloc(total + 1);
	if (!doc || !joined)
		abort();
	for (i = 0, k = 0; i < rows.n; i++) {
		memcpy(doc + k, rows.in[i], strlen(rows.in[i]));
		k += strlen(rows.in[i]);
		doc[k++] = '\n';
		memcpy(joined + jl, rows.out[i], strlen(rows.out[i]));
		jl += strlen(rows.out[i]);
		joined[jl++] = '\n';
	}
	check_pieces("the table as one document", doc, k);
	whole = red(doc, k, &wc, &wl);
	ok(whole && wl == jl && memcmp(whole, joined, jl) == 0,
	   "the document's output is the table's outputs joined");
	free(whole);
	free(doc);
	free(joined);
}

/* Random documents from fragments that start and end rules, split in
 * random places after newlines. */
static void test_pieces_random(void)
{
	static const char *const frag[] = {
		"password=",
		"hunter2",
		" ",
		"\n",
		"-----BEGIN RSA PRIVATE KEY-----",
		"-----END RSA PRIVATE KEY-----",
		"MIIEowIBAAKCAQEA",
		"\"",
		"'",
		"--token",
		"mysql",
		"-pS3cret",
		"ghp_0123456789abcdefghijABCDEFGHIJklmnop",
		"https://u:pw@h/",
		"Authorization: Bearer ",
		"x8Kd9Lq2Zp4Wm7Rt1Yv6Bn3Hc5Jf0Gs2",
		"AKIAIOSFODNN7EXAMPLE",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"=",
		":",
		";",
		"\\\"",
		"{\"token\": ",
		"export A_TOKEN=",
		"$X",
		"[REDACTED]",
		"ls -p",
		"\t",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
	};
	size_t nf = sizeof(frag) / sizeof(frag[0]);
	const char *f;
	char doc[4096];
	size_t len, l;
	int round;
	char what[64];

	for (round = 0; round < 40; round++) {
		len = 0;
		while (len < sizeof(doc) - 200) {
			f = frag[next_rand() % nf];
			l = strlen(f);
			memcpy(doc + len, f, l);
			len += l;
		}
		snprintf(what, sizeof(what), "random document %d", round);
		check_pieces(what, doc, len);
	}
}

/* A private key fed a line at a time: the state carries the block. */
static void test_pem_pieces(void)
{
	static const char *const piece[] = {
		"before\n",
		"-----BEGIN OPENSSH PRIVATE KEY-----\n",
		"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n",
		"AAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB\n",
		"QyNTUxOQAAACB+/=\n",
		"-----END OPENSSH PRIVATE KEY-----\n",
		"after password=x\n",
	};
	static const char want[] =
		"before\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
		"[REDACTED:private-key]\n"
		"-----END OPENSSH PRIVATE KEY-----\n"
		"after password=[REDACTED]\n";
	struct redact_state st = { 0 };
	struct buf out = BUF_INIT(SIZE_MAX);
	size_t count = 0, i;
	int in_pem[7];

	for (i = 0; i < 7; i++) {
		if (redact_append(&st, piece[i], strlen(piece[i]), &out,
				  &count) != CORDON_OK)
			break;
		in_pem[i] = st.in_pem;
	}
	is_str(out.p, want, "a private key fed line by line");
	is_int((long long)count, 2, "one key and one password counted");
	ok(!in_pem[0] && in_pem[1] && in_pem[2] && in_pem[4] && !in_pem[5] &&
		   !in_pem[6],
	   "the state is inside the block from BEGIN to END");
	buf_free(&out);

	/* Without END the block ends at a line that cannot be in it. */
	memset(&st, 0, sizeof(st));
	(void)redact_append(&st, "-----BEGIN PRIVATE KEY-----\n", 28, &out,
			    NULL);
	(void)redact_append(&st, "MIIEvQ\n", 7, &out, NULL);
	ok(st.in_pem, "still inside after a body line");
	(void)redact_append(&st, "$ ls -la\n", 9, &out, NULL);
	ok(!st.in_pem, "a command line ends a block that has no END");
	is_str(out.p,
	       "-----BEGIN PRIVATE KEY-----\n[REDACTED:private-key]\n"
	       "$ ls -la\n",
	       "the command line is kept");
	buf_free(&out);

	/* A header line alone: nothing replaced yet, the body's first line
	 * is the one that becomes the marker. */
	memset(&st, 0, sizeof(st));
	(void)redact_append(&st, "-----BEGIN EC PRIVATE KEY-----", 30, &out,
			    NULL);
	ok(st.in_pem && !st.pem_marked, "a last line that is only a header");
	buf_free(&out);
}

/* ---- JSON ---------------------------------------------------------------- */

static const char *str_at(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *elem(const cJSON *a, int i)
{
	const cJSON *v = cJSON_GetArrayItem(a, i);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_json_object(void)
{
	static const char doc[] =
		"{\"password\": \"hunter2\", \"token\": 12345, "
		"\"user\": \"bob\", \"auth\": null, \"api_key\": \"\", "
		"\"GITHUB_TOKEN\": "
		"\"ghp_0123456789abcdefghijABCDEFGHIJklmnop\", "
		"\"Authorization\": \"Bearer abc123\", "
		"\"nested\": {\"secret\": \"y\", "
		"\"cmd\": \"mysql -uroot -pS3cret db\"}, "
		"\"note\": \"see https://u:pw@host/x\", "
		"\"aws_region\": \"us-east-1\", \"enabled\": true, "
		"\"secret\": {\"value\": \"z\"}}";
	cJSON *v = cJSON_Parse(doc);
	const cJSON *nested, *sec;
	size_t count = 0;
	char *before, *after;

	if (!v) {
		ok(0, "parse the JSON test document");
		return;
	}
	is_int(redact_json(v, &count), CORDON_OK, "redact_json on an object");
	is_str(str_at(v, "password"), "[REDACTED]", "a secret member's string");
	is_str(str_at(v, "token"), "[REDACTED]",
	       "a secret member's number becomes a string");
	is_str(str_at(v, "user"), "bob", "an ordinary member stays");
	ok(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(v, "auth")),
	   "null under a secret key stays null");
	is_str(str_at(v, "api_key"), "", "an empty secret stays empty");
	is_str(str_at(v, "GITHUB_TOKEN"), "[REDACTED]",
	       "an environment name is a secret name");
	is_str(str_at(v, "Authorization"), "[REDACTED]",
	       "a header member is replaced whole");
	nested = cJSON_GetObjectItemCaseSensitive(v, "nested");
	is_str(str_at(nested, "secret"), "[REDACTED]", "a nested secret");
	is_str(str_at(nested, "cmd"), "mysql -uroot -p[REDACTED] db",
	       "a string value is redacted as text");
	is_str(str_at(v, "note"), "see https://u:[REDACTED]@host/x",
	       "a URL password in a string value");
	is_str(str_at(v, "aws_region"), "us-east-1",
	       "aws_region is a place, not a secret");
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "enabled")),
	   "a boolean stays");
	sec = cJSON_GetObjectItemCaseSensitive(v, "secret");
	is_str(str_at(sec, "value"), "z",
	       "an object under a secret key is walked, not replaced");
	is_int((long long)count, 7, "seven values counted");
	ok(cJSON_GetObjectItemCaseSensitive(v, "password") &&
		   cJSON_GetObjectItemCaseSensitive(v, "GITHUB_TOKEN"),
	   "keys are not changed");

	before = cJSON_PrintUnformatted(v);
	count = 0;
	is_int(redact_json(v, &count), CORDON_OK, "redact_json again");
	after = cJSON_PrintUnformatted(v);
	ok(before && after && strcmp(before, after) == 0 && count == 0,
	   "redacting a redacted document changes and counts nothing");
	free(before);
	free(after);
	cJSON_Delete(v);
}

struct argv_case {
	const char *json;
	int index;
	const char *want;
	size_t count;
	const char *note;
};

static const struct argv_case argv_cases[] = {
	{ "[\"gh\",\"auth\",\"login\",\"--token\",\"ghp_0123456789abcdefghij"
	  "ABCDEFGHIJklmnop\"]",
	  4, "[REDACTED]", 1, "the element after --token" },
	{ "[\"tool\",\"--api-key\",\"abc def\"]", 2, "[REDACTED]", 1,
	  "the whole element after --api-key, spaces and all" },
	{ "[\"tool\",\"--token=abc\"]", 1, "--token=[REDACTED]", 1,
	  "--token=VALUE in one element" },
	{ "[\"mysql\",\"-uroot\",\"-pS3cret\",\"db\"]", 2, "-p[REDACTED]", 1,
	  "mysql's glued -p" },
	{ "[\"/usr/bin/mysqldump\",\"-pX1\"]", 1, "-p[REDACTED]", 1,
	  "mysqldump by its path" },
	{ "[\"mysql\",\"-p\",\"db\"]", 2, "db", 0,
	  "mysql -p alone prompts: the next element is the database" },
	{ "[\"sshpass\",\"-p\",\"pw\",\"ssh\",\"host\"]", 2, "[REDACTED]", 1,
	  "sshpass -p takes the next element" },
	{ "[\"curl\",\"-u\",\"me:pw\",\"https://x\"]", 2, "me:[REDACTED]", 1,
	  "curl -u keeps the user" },
	{ "[\"ls\",\"-p\",\"dir\"]", 2, "dir", 0, "ls -p" },
	{ "[\"smbclient\",\"//s/x\",\"-U\",\"bob%pw\"]", 3, "bob%[REDACTED]", 1,
	  "smbclient -U keeps the user before %" },
	{ "[\"openssl\",\"rsa\",\"-passin\",\"pass:pw\"]", 3, "pass:[REDACTED]",
	  1, "openssl -passin pass: keeps its prefix" },
	{ "[\"openssl\",\"rsa\",\"-passin\",\"env:PW\"]", 3, "env:PW", 0,
	  "openssl -passin env: names a variable" },
	{ "[\"keytool\",\"-list\",\"-storepass\",\"changeit\"]", 3,
	  "[REDACTED]", 1, "keytool -storepass takes the next element" },
	{ "[\"lftp\",\"-u\",\"bob,pw\",\"host\"]", 2, "bob,[REDACTED]", 1,
	  "lftp -u user,password in one element" },
	{ "[\"mongosh\",\"-p\",\"mongodb://h/db\"]", 2, "mongodb://h/db", 0,
	  "mongosh -p before a URL prompts" },
	{ "[\"tool\",\"--token\",\"--verbose\"]", 2, "--verbose", 0,
	  "a flag after the flag" },
	{ "[\"tool\",\"--token\",5,\"x\"]", 3, "x", 0,
	  "a number in between ends the flag's reach" },
	{ "[\"tool\",\"--token-file\",\"/run/token\"]", 2, "/run/token", 0,
	  "--token-file takes a path" },
	{ "[\"curl\",\"-H\",\"Authorization: Bearer abc123\"]", 2,
	  "Authorization: Bearer [REDACTED]", 1, "a header element" },
	{ "[\"sh\",\"-c\",\"mysql -pX db; ls -p\"]", 2,
	  "mysql -p[REDACTED] db; ls -p", 1, "a command line element" },
	{ "[\"env\",\"FOO_TOKEN=abc\",\"run\"]", 1, "FOO_TOKEN=[REDACTED]", 1,
	  "an assignment element" },
	{ "[\"tool\",\"--token\",\"$TOKEN\"]", 2, "$TOKEN", 0,
	  "a reference after the flag" },
	{ "[\"tool\",\"--token\",\"[REDACTED]\"]", 2, "[REDACTED]", 0,
	  "already redacted: not counted again" },
};

static void test_json_argv(void)
{
	size_t i, count;
	cJSON *v;

	for (i = 0; i < sizeof(argv_cases) / sizeof(argv_cases[0]); i++) {
		const struct argv_case *c = &argv_cases[i];

		v = cJSON_Parse(c->json);
		count = 0;
		if (!v || redact_json(v, &count) != CORDON_OK) {
			ok(0, "argv: %s", c->note);
			cJSON_Delete(v);
			continue;
		}
		is_str(elem(v, c->index), c->want, c->note);
		ok(count == c->count, "argv: %s: %zu counted (want %zu)",
		   c->note, count, c->count);
		cJSON_Delete(v);
	}

	/* Arrays of objects and objects in arrays are walked. */
	v = cJSON_Parse("[{\"password\":\"x\"},[\"--token\",\"y\"],\"z\"]");
	count = 0;
	ok(v && redact_json(v, &count) == CORDON_OK && count == 2,
	   "arrays inside arrays and objects inside arrays");
	cJSON_Delete(v);
}

static void test_json_misc(void)
{
	cJSON *root, *cur, *a;
	size_t count = 0;
	int i;

	ok(redact_json(NULL, &count) == CORDON_OK && count == 0,
	   "redact_json(NULL) does nothing");
	root = cJSON_CreateString("token=abc");
	ok(redact_json(root, NULL) == CORDON_OK &&
		   strcmp(root->valuestring, "token=[REDACTED]") == 0,
	   "a lone string value; count may be NULL");
	cJSON_Delete(root);

	root = cJSON_CreateArray();
	cur = root;
	for (i = 0; i < 1100 && cur; i++) {
		a = cJSON_CreateArray();
		cJSON_AddItemToArray(cur, a);
		cur = a;
	}
	ok(cur && redact_json(root, &count) == CORDON_E_LIMIT,
	   "a document nested 1100 deep is refused, not walked");
	cJSON_Delete(root);

	/* A string referenced (not owned) by its item is replaced safely. */
	root = cJSON_CreateObject();
	cJSON_AddItemToObject(root, "password",
			      cJSON_CreateStringReference("static"));
	ok(redact_json(root, NULL) == CORDON_OK &&
		   strcmp(str_at(root, "password"), "[REDACTED]") == 0,
	   "a string reference is replaced without being freed");
	cJSON_Delete(root);
}

/* ---- names, counts, bytes, errors ---------------------------------------- */

static void test_names(void)
{
	static const struct {
		const char *name;
		int want;
	} names[] = {
		{ "password", 1 },
		{ "PASSWORD", 1 },
		{ "db_password", 1 },
		{ "dbPassword", 1 },
		{ "x-api-key", 1 },
		{ "apiKey", 1 },
		{ "API_KEY", 1 },
		{ "access_token", 1 },
		{ "client_secret", 1 },
		{ "passwd", 1 },
		{ "pwd", 1 },
		{ "bearer", 1 },
		{ "Authorization", 1 },
		{ "auth", 1 },
		{ "FOO_TOKEN", 1 },
		{ "MY_SECRET_THING", 1 },
		{ "aws_anything", 1 },
		{ "STRIPE_KEY", 1 },
		{ "gcp_credentials", 1 },
		{ "passphrase", 1 },
		{ "DB_PASS", 1 },
		{ "ansible_become_pass", 1 },
		{ "AccountKey", 1 },
		{ "SharedAccessKey", 1 },
		{ "Cookie", 1 },
		{ "Set-Cookie", 1 },
		{ "bypass", 0 },
		{ "compass", 0 },
		{ "SECRET_ROTATION_DAYS", 0 },
		{ "user", 0 },
		{ "author", 0 },
		{ "oauth", 0 },
		{ "tokens", 0 },
		{ "token_count", 0 },
		{ "password_file", 0 },
		{ "PASSWORD_FILE", 0 },
		{ "TOKEN_PATH", 0 },
		{ "AWS_REGION", 0 },
		{ "AWS_PROFILE", 0 },
		{ "PWD", 0 },
		{ "OLDPWD", 0 },
		{ "key", 0 },
		{ "monkey", 0 },
		{ "", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ok(redact_is_secret_name(names[i].name,
					 strlen(names[i].name)) ==
			   (names[i].want != 0),
		   "redact_is_secret_name(\"%s\") is %d", names[i].name,
		   names[i].want);
	ok(!redact_is_secret_name(NULL, 0), "a NULL name is no secret");
	ok(redact_is_secret_name("token_and_more", 5),
	   "only len bytes are read");
}

static void test_counts_and_bytes(void)
{
	static const char nul_in[] = "a\0b password=x\0y\n\xff\xfe token=z\n";
	static const char nul_want[] =
		"a\0b password=[REDACTED]\0y\n\xff\xfe token=[REDACTED]\n";
	char *out = NULL;
	size_t len = 99, count = 99;
	struct redact_state st = { 0 };
	struct buf b = BUF_INIT(SIZE_MAX), small = BUF_INIT(8);

	out = red_str(
		"password=a token=b ghp_0123456789abcdefghijABCDEFGHIJklmnop"
		" --secret c mysql -pd",
		&count);
	is_int((long long)count, 5, "five values in one line, five counted");
	free(out);

	ok(cordon_redact("", 0, &out, &len, &count) == CORDON_OK && out &&
		   out[0] == '\0' && len == 0 && count == 0,
	   "empty input: an empty, allocated string");
	free(out);
	ok(cordon_redact(NULL, 0, &out, NULL, NULL) == CORDON_OK && out &&
		   out[0] == '\0',
	   "NULL text of length 0, NULL out_len and count");
	free(out);

	out = red(nul_in, sizeof(nul_in) - 1, &count, &len);
	ok(out && len == sizeof(nul_want) - 1 &&
		   memcmp(out, nul_want, len) == 0 && out[len] == '\0',
	   "NUL and non-UTF-8 bytes pass through; the output is terminated");
	free(out);

	ok(cordon_redact("x", 1, NULL, NULL, NULL) == CORDON_E_INVAL,
	   "out NULL is refused");
	ok(cordon_redact("x", REDACT_MAX_INPUT + 1, &out, &len, &count) ==
			   CORDON_E_LIMIT &&
		   out == NULL,
	   "over 1 GiB is refused before anything is read");
	ok(cordon_redact(NULL, 5, &out, &len, &count) == CORDON_E_INVAL,
	   "NULL text with a length is refused");
	ok(redact_append(NULL, "x", 1, &b, NULL) == CORDON_E_INVAL,
	   "redact_append without a state is refused");

	ok(redact_append(&st, "a=1\n", 4, &b, NULL) == CORDON_OK &&
		   redact_append(&st, "token=2\n", 8, &b, NULL) == CORDON_OK &&
		   strcmp(b.p, "a=1\ntoken=[REDACTED]\n") == 0 && b.len == 21,
	   "redact_append appends to what the buffer holds");
	buf_free(&b);
	ok(b.p == NULL && b.len == 0, "buf_free empties the buffer");
	ok(redact_append(&st, "token=abcdef\n", 13, &small, NULL) ==
		   CORDON_E_NOMEM,
	   "an output buffer's ceiling is a failure, not a cut");
	buf_free(&small);
}

/* ---- hostile inputs ------------------------------------------------------ */

/* The scanner's work (redact__work, see redact.h) on n bytes repeating
 * pat: the steps it took, not the time, so a loaded machine cannot fail
 * the test and a slow one cannot pass a quadratic scanner. */
static size_t work_pattern(const char *pat, size_t n, int *failed)
{
	size_t pl = strlen(pat), i, before;
	char *buf = malloc(n), *out;

	if (!buf)
		abort();
	for (i = 0; i < n; i++)
		buf[i] = pat[i % pl];
	before = redact__work;
	if (cordon_redact(buf, n, &out, NULL, NULL) != CORDON_OK)
		*failed = 1;
	else
		free(out);
	free(buf);
	return redact__work - before;
}

/* pat with newlines and backslashes spelled out, for a test's name. */
static const char *shown(const char *pat, char *buf, size_t cap)
{
	size_t o = 0;

	for (; *pat && o + 3 < cap; pat++) {
		if (*pat == '\n' || *pat == '\\') {
			buf[o++] = '\\';
			buf[o++] = *pat == '\n' ? 'n' : '\\';
		} else {
			buf[o++] = *pat;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* The most steps a byte may cost. Ordinary text takes about 3, the worst pattern below about 8. */
#define WORK_PER_BYTE 24

static void test_linear(void)
{
	static const char *const pats[] = {
		"a",
		"=",
		"a=",
		"--token ",
		"-----BEGIN",
		"-----BEGIN PRIVATE KEY-----\"",
		"-----BEGIN PRIVATE KEY-----\n",
		"password=\"$x ",
		"\"password\": ",
		"x://",
		"a://b:c@",
		"x:x@",
		"Bearer ",
		"\\\"",
		"eyJ",
		"eyJaaaaaaaaaaaa.",
		"ghp_",
		"mysql -p",
		"AKIAIOSFODNN7EXAMPLE ",
		"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6 ",
		"Authorization: ",
		"token=",
		"<password>",
		"'",
		"\\",
		"- ",
		"x=y ",
		"hvs.",
		"1//0",
		"123456789:",
		"bot12345678:AA",
		"SG.aaaaaaaaaaaaaaaaaaaaaa.",
		"MTAxMjM0NTY3ODkwMTIzNDU2.Gabcde.",
		"glc_",
		"glc_aaaa/",
		"eyJrIjoi",
		"xoxe.xoxp-",
		"AAAAAAAAAAAAAAAAAAAAA",
		"sk-a1",
		"key-",
		"fm2_a+",
		"echo x ",
		"echo ",
		"echo -n | sudo -S ",
		"password ",
		"machine password x ",
		"Cookie: a=",
		"Cookie: a=b; ",
		"keytool -storepass ",
		"smbclient -U a%",
		"lftp -u a,",
		"openssl -pass pass:",
		"arn:",
		"ssh-rsa AAAA",
		"ssh-ed25519 ",
		"-----BEGIN CERTIFICATE-----\n",
		"-----BEGIN CERTIFICATE-----",
		"-----BEGIN CERTIFICATE-----\nMIIB\n",
		"https://hooks.slack.com/services/",
		"https://a.webhook.office.com/webhookb2/x1",
		"h1:",
		"QUFB",
		"LS0tLS1CRUdJTi",
		"UVVGQ1FVRkNRVUZD ",
		"cGFzc3dvcmQ9aHVudGVyMg",
	};
	const size_t small = (size_t)256 << 10, big = (size_t)1 << 20;
	size_t i, w1, w4;
	int failed;
	char name[80];

	if (!redact__counting()) {
		ok(1, "# SKIP a release build counts no steps");
		return;
	}
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		failed = 0;
		w1 = work_pattern(pats[i], small, &failed);
		w4 = work_pattern(pats[i], big, &failed);
		/* Linear: four times the input, about four times the work
		 * (a pattern's period may not divide the sizes); and a
		 * bounded number of steps per byte. */
		ok(!failed && w4 <= w1 * 4 + w1 / 4 + 4096 &&
			   w4 <= WORK_PER_BYTE * big,
		   "256 KiB and 1 MiB of \"%s\" repeated: %zu and %zu steps "
		   "(%.1f a byte)",
		   shown(pats[i], name, sizeof(name)), w1, w4,
		   (double)w4 / (double)big);
	}
}

int main(void)
{
	size_t i;

	tap_no_plan();
	test_table();
	test_pieces_table();
	test_pieces_random();
	test_pem_pieces();
	test_json_object();
	test_json_argv();
	test_json_misc();
	test_names();
	test_counts_and_bytes();
	test_linear();
	ok(redact__tables_ok(), "the token format table is consistent");
	for (i = 0; i < rows.n; i++) {
		free(rows.in[i]);
		free(rows.out[i]);
	}
	free(rows.in);
	free(rows.out);
	return tap_done();
}
