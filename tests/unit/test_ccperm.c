/* Claude Code permission rules (ccperm.h): the rule table and the importers.
 *
 * The table is $CORDON_SOURCE_ROOT/tests/cases/policy/ccperm.jsonl, one row
 * per line:
 *   {"allow": [...], "ask": [...], "deny": [...], "tool": "Bash",
 *    "args": {...}, "cwd": "/home/u/proj", "want": "allow|ask|deny|none",
 *    "note": "...", "why": "piece of the reason" (optional),
 *    "root": "/dir" (optional, default null), "home": "/home/u" (optional;
 *    null: no home directory)}
 * A row with "want": "error" must fail to compile with "error" in the
 * message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ccperm.h"
#include "import.h"
#include "config.h"
#include "cordon.h"
#include "table.h"
#include "tap.h"

/* A strlist viewing the strings of a JSON array (not copied). */
static void view_list(const cJSON *arr, struct strlist *l)
{
	const cJSON *it;
	size_t n = 0;

	l->n = 0;
	l->v = NULL;
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
		return;
	l->v = calloc((size_t)cJSON_GetArraySize(arr), sizeof(*l->v));
	cJSON_ArrayForEach (it, arr)
		l->v[n++] = it->valuestring;
	l->n = n;
}

static const char *verdict_name(int v)
{
	switch (v) {
	case CORDON_ALLOW:
		return "allow";
	case CORDON_DENY:
		return "deny";
	case CORDON_ASK:
		return "ask";
	default:
		return "none";
	}
}

static void run_row(const cJSON *row, unsigned lineno)
{
	struct strlist allow, ask, deny;
	struct ccperm_set *s = NULL;
	struct cordon_diag dg;
	const cJSON *want = cJSON_GetObjectItem(row, "want");
	const cJSON *tool = cJSON_GetObjectItem(row, "tool");
	const cJSON *note = cJSON_GetObjectItem(row, "note");
	const cJSON *cwd = cJSON_GetObjectItem(row, "cwd");
	const cJSON *root = cJSON_GetObjectItem(row, "root");
	const cJSON *home = cJSON_GetObjectItem(row, "home");
	const cJSON *why_want = cJSON_GetObjectItem(row, "why");
	const cJSON *args = cJSON_GetObjectItem(row, "args");
	const char *label = cJSON_IsString(note) ? note->valuestring : "";
	char why[1024];
	enum cordon_err rc;
	int v;

	view_list(cJSON_GetObjectItem(row, "allow"), &allow);
	view_list(cJSON_GetObjectItem(row, "ask"), &ask);
	view_list(cJSON_GetObjectItem(row, "deny"), &deny);
	rc = ccperm_compile(&allow, &ask, &deny,
			    cJSON_IsString(root) ? root->valuestring : NULL,
			    home ? (cJSON_IsString(home) ? home->valuestring :
							   NULL) :
				   "/home/u",
			    &s, &dg);
	if (strcmp(want->valuestring, "error") == 0) {
		const cJSON *e = cJSON_GetObjectItem(row, "error");

		ok(rc == CORDON_E_CONFIG && s == NULL &&
			   strstr(dg.message, e->valuestring),
		   "line %u: error: %s (%s)", lineno, e->valuestring,
		   dg.message);
		goto out;
	}
	if (rc != CORDON_OK) {
		ok(0, "line %u: compiles: %s", lineno, dg.message);
		goto out;
	}
	v = ccperm_decide(s, tool->valuestring, args,
			  cJSON_IsString(cwd) ? cwd->valuestring :
						"/home/u/proj",
			  why, sizeof(why));
	if (!ok(strcmp(verdict_name(v), want->valuestring) == 0,
		"line %u: %s: %s", lineno, want->valuestring, label))
		diag("got %s (%s)", verdict_name(v), why);
	if (cJSON_IsString(why_want) &&
	    !ok(strstr(why, why_want->valuestring) != NULL,
		"line %u: the reason names '%s'", lineno,
		why_want->valuestring))
		diag("reason: %s", why);
out:
	ccperm_free(s);
	free(allow.v);
	free(ask.v);
	free(deny.v);
}

static void run_table(void)
{
	char path[4096];
	char *text, *line, *save = NULL;
	size_t len = 0;
	unsigned lineno = 0, rows = 0;

	table_path(path, sizeof(path), "cases/policy/ccperm.jsonl");
	text = table_read(path, &len);
	if (!ok(text != NULL, "read %s", path))
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		cJSON *row = cJSON_Parse(line);
		const cJSON *want = cJSON_GetObjectItem(row, "want");
		const cJSON *tool = cJSON_GetObjectItem(row, "tool");

		lineno++;
		if (!ok(row && cJSON_IsString(want) && cJSON_IsString(tool),
			"line %u parses", lineno)) {
			cJSON_Delete(row);
			continue;
		}
		run_row(row, lineno);
		rows++;
		cJSON_Delete(row);
	}
	ok(rows >= 120, "the table has %u rows (at least 120)", rows);
	free(text);
}

/* ---- importers ------------------------------------------------------- */

/* Loads doc as a cordon configuration and returns cordon_config_to_json's
 * text parsed (NULL when it does not load). */
static cJSON *load_config(const char *doc, char *msg, size_t cap)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_diag d;
	char *txt;
	cJSON *j = NULL;

	if (!cfg)
		return NULL;
	if (cordon_config_load_json(cfg, doc, strlen(doc), "import",
				    CORDON_CONFIG_EXPLICIT, &d) != CORDON_OK) {
		snprintf(msg, cap, "%s", d.message);
		cordon_config_free(cfg);
		return NULL;
	}
	txt = cordon_config_to_json(cfg, 0);
	if (txt)
		j = cJSON_Parse(txt);
	free(txt);
	cordon_config_free(cfg);
	return j;
}

static const cJSON *at(const cJSON *j, const char *a, const char *b,
		       const char *c)
{
	const cJSON *x = cJSON_GetObjectItem(j, a);

	if (b)
		x = cJSON_GetObjectItem(x, b);
	if (c)
		x = cJSON_GetObjectItem(x, c);
	return x;
}

static bool list_is(const cJSON *arr, const char *const *want)
{
	size_t i = 0;
	const cJSON *it;

	if (!cJSON_IsArray(arr))
		return false;
	cJSON_ArrayForEach (it, arr) {
		if (!want[i] || !cJSON_IsString(it) ||
		    strcmp(it->valuestring, want[i]) != 0)
			return false;
		i++;
	}
	return want[i] == NULL;
}

static const char claude_doc[] =
	"{\"$schema\": \"https://json.schemastore.org/claude-code-settings"
	".json\",\n"
	" \"permissions\": {\n"
	"  \"allow\": [\"Bash(npm run test:*)\", \"Read(~/.zshrc)\", "
	"\"Write(./gen/**)\"],\n"
	"  \"ask\": [\"Bash(git push:*)\"],\n"
	"  \"deny\": [\"Read(./.env)\", \"Bash(curl:*)\", \"Grep(./s/**)\", "
	"\"mcp__*\"],\n"
	"  \"defaultMode\": \"acceptEdits\",\n"
	"  \"additionalDirectories\": [\"../docs/\"],\n"
	"  \"disableBypassPermissionsMode\": \"disable\"\n"
	" },\n"
	" \"env\": {\"FOO\": \"1\"},\n"
	" \"hooks\": {}\n"
	"}\n";

static void test_import_claude(void)
{
	char *out = NULL, *warn = NULL, msg[256] = "";
	struct cordon_diag d;
	enum cordon_err rc;
	cJSON *o, *cfg;
	static const char *const allow[] = { "Bash(npm run test:*)",
					     "Read(~/.zshrc)",
					     "Write(./gen/**)", NULL };
	static const char *const deny[] = { "Read(./.env)", "Bash(curl:*)",
					    "Grep(./s/**)", "mcp__*", NULL };

	rc = import_claude_settings(claude_doc, sizeof(claude_doc) - 1,
				  "/srv/app/.claude/settings.json", &out, &warn,
				  &d);
	if (!ok(rc == CORDON_OK && out, "claude: imports (%s)",
		rc ? d.message : "ok"))
		return;
	o = cJSON_Parse(out);
	ok(o != NULL, "claude: the output is JSON");
	ok(list_is(at(o, "permissions", "allow", NULL), allow),
	   "claude: allow list kept in order");
	ok(list_is(at(o, "permissions", "deny", NULL), deny),
	   "claude: deny list kept in order");
	ok(cJSON_IsString(at(o, "permissions", "root", NULL)) &&
		   strcmp(at(o, "permissions", "root", NULL)->valuestring,
			  "/srv/app") == 0,
	   "claude: root is the parent of .claude");
	ok(cJSON_IsString(at(o, "safety", "permission_mode", NULL)) &&
		   strcmp(at(o, "safety", "permission_mode", NULL)->valuestring,
			  "auto-accept-edits") == 0,
	   "claude: acceptEdits is auto-accept-edits");
	ok(cJSON_IsString(at(o, "safety", "max_permission_mode", NULL)),
	   "claude: disableBypassPermissionsMode caps the mode");
	ok(warn && strstr(warn, "additionalDirectories") &&
		   strstr(warn, "one directory"),
	   "claude: additionalDirectories warned");
	ok(warn && strstr(warn, "env: not imported") &&
		   strstr(warn, "hooks: not imported") &&
		   !strstr(warn, "$schema"),
	   "claude: other keys warned, $schema silent");
	ok(warn && strstr(warn, "permissions.allow[2] 'Write(./gen/**)'") &&
		   strstr(warn, "ignored in allow"),
	   "claude: Write(path) in allow warned");
	ok(warn && strstr(warn, "permissions.deny[2] 'Grep(./s/**)'") &&
		   strstr(warn, "read as Read"),
	   "claude: Grep(path) in deny warned");
	cfg = load_config(out, msg, sizeof(msg));
	if (ok(cfg != NULL,
	       "claude: the output loads as cordon configuration "
	       "(%s)",
	       msg)) {
		ok(list_is(at(cfg, "permissions", "deny", NULL), deny),
		   "claude: round trip: permissions.deny in the config");
		ok(list_is(at(cfg, "permissions", "allow", NULL), allow),
		   "claude: round trip: permissions.allow in the config");
		ok(cJSON_IsString(at(cfg, "safety", "permission_mode", NULL)) &&
			   strcmp(at(cfg, "safety", "permission_mode", NULL)
					  ->valuestring,
				  "auto-accept-edits") == 0,
		   "claude: round trip: permission_mode");
		ok(cJSON_IsString(at(cfg, "permissions", "root", NULL)),
		   "claude: round trip: permissions.root");
	}
	cJSON_Delete(cfg);
	cJSON_Delete(o);
	free(out);
	free(warn);
}

struct mode_case {
	const char *mode;
	const char *key;
	const char *value; /* NULL: true */
	const char *warning;
};

static void test_claude_modes(void)
{
	static const struct mode_case cases[] = {
		{ "default", "permission_mode", "supervised", NULL },
		{ "acceptEdits", "permission_mode", "auto-accept-edits", NULL },
		{ "plan", "read_only", NULL, NULL },
		{ "bypassPermissions", "permission_mode", "full-access", NULL },
		{ "auto", "permission_mode", "auto", NULL },
		{ "dontAsk", NULL, NULL, "dontAsk" },
		{ "someday", NULL, NULL, "unknown mode" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char doc[256], *out = NULL, *warn = NULL, msg[256] = "";
		struct cordon_diag d;
		cJSON *o = NULL, *cfg;
		const cJSON *v;

		snprintf(doc, sizeof(doc),
			 "{\"permissions\": {\"defaultMode\": \"%s\"}}",
			 cases[i].mode);
		if (!ok(import_claude_settings(doc, strlen(doc), NULL, &out,
					     &warn, &d) == CORDON_OK,
			"mode %s: imports", cases[i].mode))
			continue;
		o = cJSON_Parse(out);
		v = cases[i].key ? at(o, "safety", cases[i].key, NULL) : NULL;
		if (cases[i].key && cases[i].value)
			ok(cJSON_IsString(v) &&
				   strcmp(v->valuestring, cases[i].value) == 0,
			   "mode %s: safety.%s is %s", cases[i].mode,
			   cases[i].key, cases[i].value);
		else if (cases[i].key)
			ok(cJSON_IsTrue(v), "mode %s: safety.%s is true",
			   cases[i].mode, cases[i].key);
		else
			ok(!at(o, "safety", "permission_mode", NULL) && warn &&
				   strstr(warn, cases[i].warning),
			   "mode %s: not imported, warned", cases[i].mode);
		ok(cJSON_IsNull(at(o, "permissions", "root", NULL)),
		   "mode %s: no settings path, root null", cases[i].mode);
		cfg = load_config(out, msg, sizeof(msg));
		ok(cfg != NULL, "mode %s: loads (%s)", cases[i].mode, msg);
		cJSON_Delete(cfg);
		cJSON_Delete(o);
		free(out);
		free(warn);
	}
}

static void test_claude_errors(void)
{
	static const struct {
		const char *doc;
		enum cordon_err rc;
		const char *msg;
	} cases[] = {
		{ "{\"permissions\": {\"allow\": [\"Bash(ls\"]}}",
		  CORDON_E_CONFIG,
		  "permissions.allow[0]: unbalanced parenthesis in 'Bash(ls'" },
		{ "{\"permissions\": {\"deny\": [\"Read(x)\", 3]}}",
		  CORDON_E_CONFIG, "permissions.deny[1]: expected a string" },
		{ "{\"permissions\": {\"ask\": \"Bash\"}}", CORDON_E_CONFIG,
		  "permissions.ask: expected an array" },
		{ "{\"permissions\": []}", CORDON_E_CONFIG,
		  "permissions: expected an object" },
		{ "{\"permissions\": {\"defaultMode\": 1}}", CORDON_E_CONFIG,
		  "defaultMode: expected a string" },
		{ "[1]", CORDON_E_JSON, "expected a JSON object" },
		{ "{\"permissions\": ", CORDON_E_JSON, "malformed JSON" },
		{ "{\"permissions\": {\"allow\": [\"Bash(a\\u0000b)\"]}}",
		  CORDON_E_JSON, "\\u0000" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *out = (char *)1, *warn = NULL;
		struct cordon_diag d;
		enum cordon_err rc;

		rc = import_claude_settings(cases[i].doc, strlen(cases[i].doc),
					  NULL, &out, &warn, &d);
		ok(rc == cases[i].rc && out == NULL &&
			   strstr(d.message, cases[i].msg),
		   "claude error %zu: %s (%s)", i, cases[i].msg, d.message);
		free(warn);
	}
}

static void test_claude_root(void)
{
	char *out = NULL, *warn = NULL, path[4200];
	struct cordon_diag d;
	const char *home = getenv("HOME");
	cJSON *o;

	if (!home || home[0] != '/' || strlen(home) > 4000) {
		ok(1, "no usable HOME: user-settings root not tested");
		return;
	}
	snprintf(path, sizeof(path), "%s/.claude/settings.json", home);
	if (import_claude_settings("{}", 2, path, &out, &warn, &d) != CORDON_OK) {
		ok(0, "user settings import: %s", d.message);
		return;
	}
	o = cJSON_Parse(out);
	ok(cJSON_IsNull(at(o, "permissions", "root", NULL)),
	   "~/.claude/settings.json: root is null");
	cJSON_Delete(o);
	free(out);
	free(warn);
	if (import_claude_settings("{}", 2, "/srv/a/../b/conf/x.json", &out,
				 &warn, &d) != CORDON_OK) {
		ok(0, "plain file import: %s", d.message);
		return;
	}
	o = cJSON_Parse(out);
	ok(cJSON_IsString(at(o, "permissions", "root", NULL)) &&
		   strcmp(at(o, "permissions", "root", NULL)->valuestring,
			  "/srv/b/conf") == 0,
	   "a file outside .claude: root is its directory, normalised");
	cJSON_Delete(o);
	free(out);
	free(warn);
}

static const char srt_doc[] =
	"{\n"
	" \"network\": {\n"
	"  \"allowedDomains\": [\"github.com\", \"*.npmjs.org\", "
	"\"api.example.com:8443\"],\n"
	"  \"deniedDomains\": [\"malicious.com\"],\n"
	"  \"allowUnixSockets\": [\"/var/run/docker.sock\"],\n"
	"  \"allowLocalBinding\": true,\n"
	"  \"httpProxyPort\": 8080\n"
	" },\n"
	" \"filesystem\": {\n"
	"  \"denyRead\": [\"~/.ssh\", \"/Users\"],\n"
	"  \"allowRead\": [\"/Users/me/proj\", \"/opt/x\"],\n"
	"  \"allowWrite\": [\".\", \"src/\", \"/tmp\", \"src/**/*.ts\"],\n"
	"  \"denyWrite\": [\".env\", \"config/production.json\"]\n"
	" },\n"
	" \"ignoreViolations\": {\"*\": [\"/usr/bin\"]},\n"
	" \"enableWeakerNestedSandbox\": true\n"
	"}\n";

static void test_import_srt(void)
{
	char *out = NULL, *warn = NULL, msg[256] = "";
	struct cordon_diag d;
	cJSON *o, *cfg;
	static const char *const dr[] = { "~/.ssh", "/Users", NULL };
	static const char *const aw[] = { "src/", "/tmp", NULL };
	static const char *const dw[] = { ".env", "config/production.json",
					  NULL };
	static const char *const ad[] = { "github.com", "*.npmjs.org",
					  "api.example.com:8443", NULL };
	static const char *const dd[] = { "malicious.com", NULL };
	static const char *const us[] = { "/var/run/docker.sock", NULL };

	if (!ok(import_srt_settings(srt_doc, sizeof(srt_doc) - 1, &out, &warn,
				  &d) == CORDON_OK,
		"srt: imports (%s)", d.message))
		return;
	o = cJSON_Parse(out);
	ok(list_is(at(o, "safety", "sandbox", "deny_read"), dr),
	   "srt: denyRead → safety.sandbox.deny_read");
	ok(list_is(at(o, "safety", "sandbox", "allow_write"), aw),
	   "srt: allowWrite → allow_write, '.' and globs dropped");
	ok(list_is(at(o, "safety", "sandbox", "deny_write"), dw),
	   "srt: denyWrite → deny_write");
	ok(list_is(at(o, "network", "allowedDomains", NULL), ad),
	   "srt: allowedDomains");
	ok(list_is(at(o, "network", "deniedDomains", NULL), dd),
	   "srt: deniedDomains");
	ok(list_is(at(o, "network", "allowUnixSockets", NULL), us),
	   "srt: allowUnixSockets");
	ok(cJSON_IsTrue(at(o, "network", "allowLocalBinding", NULL)),
	   "srt: allowLocalBinding");
	ok(warn && strstr(warn, "allowRead '/Users/me/proj': dropped: cordon "
				"cannot re-allow"),
	   "srt: allowRead inside a denied path dropped, warned");
	ok(warn && strstr(warn, "allowRead '/opt/x': dropped: outside"),
	   "srt: allowRead elsewhere dropped, warned");
	ok(warn && strstr(warn, "allowWrite 'src/**/*.ts': dropped"),
	   "srt: glob in allowWrite warned");
	ok(warn && strstr(warn, "ports 80 and 443"),
	   "srt: bare names allow 80 and 443, warned");
	ok(warn && strstr(warn, "network.httpProxyPort: not imported") &&
		   strstr(warn, "ignoreViolations: not imported") &&
		   strstr(warn, "enableWeakerNestedSandbox: not imported: "
				"cordon has no weaker mode"),
	   "srt: other keys warned");
	ok(warn && !strstr(warn, "always writable"),
	   "srt: '.' in allowWrite: no workspace warning");
	cfg = load_config(out, msg, sizeof(msg));
	if (ok(cfg != NULL,
	       "srt: the output loads as cordon configuration "
	       "(%s)",
	       msg)) {
		ok(list_is(at(cfg, "safety", "sandbox", "deny_read"), dr),
		   "srt: round trip: deny_read");
		ok(list_is(at(cfg, "safety", "sandbox", "deny_write"), dw),
		   "srt: round trip: deny_write");
		ok(list_is(at(cfg, "network", "allowedDomains", NULL), ad),
		   "srt: round trip: allowedDomains");
		ok(cJSON_IsTrue(at(cfg, "network", "allowLocalBinding", NULL)),
		   "srt: round trip: allowLocalBinding");
	}
	cJSON_Delete(cfg);
	cJSON_Delete(o);
	free(out);
	free(warn);
}

static void test_srt_defaults(void)
{
	char *out = NULL, *warn = NULL, msg[256] = "";
	struct cordon_diag d;
	cJSON *o, *cfg;
	static const char *const none[] = { NULL };

	if (!ok(import_srt_settings("{}", 2, &out, &warn, &d) == CORDON_OK,
		"srt {}: imports"))
		return;
	o = cJSON_Parse(out);
	ok(list_is(at(o, "network", "allowedDomains", NULL), none),
	   "srt {}: no network (allowedDomains [])");
	ok(list_is(at(o, "network", "allowUnixSockets", NULL), none),
	   "srt {}: unix sockets blocked ([]), as srt does");
	ok(cJSON_IsFalse(at(o, "network", "allowLocalBinding", NULL)),
	   "srt {}: no local binding");
	ok(warn && strstr(warn, "always writable"),
	   "srt {}: the workspace warning");
	cfg = load_config(out, msg, sizeof(msg));
	ok(cfg != NULL, "srt {}: loads (%s)", msg);
	cJSON_Delete(cfg);
	cJSON_Delete(o);
	free(out);
	free(warn);

	out = warn = NULL;
	static const char all_sockets[] =
		"{\"network\": {\"allowAllUnixSockets\": true}}";
	if (!ok(import_srt_settings(all_sockets, strlen(all_sockets), &out,
				  &warn, &d) == CORDON_OK,
		"srt allowAllUnixSockets: imports (%s)", d.message))
		return;
	o = cJSON_Parse(out);
	ok(cJSON_IsNull(at(o, "network", "allowUnixSockets", NULL)),
	   "srt allowAllUnixSockets: allowUnixSockets null (sandbox default)");
	cfg = load_config(out, msg, sizeof(msg));
	ok(cfg != NULL, "srt allowAllUnixSockets: loads (%s)", msg);
	cJSON_Delete(cfg);
	cJSON_Delete(o);
	free(out);
	free(warn);
}

static void test_srt_deny_all(void)
{
	static const char doc1[] =
		"{\"network\": {\"allowedDomains\": [\"a.com\"], "
		"\"deniedDomains\": [\"*\"]}}";
	static const char doc2[] =
		"{\"network\": {\"allowedDomains\": [\"a.com\", \"b.com:22\", "
		"\"c.com:443\"], \"deniedDomains\": [\"*:22\", \"*:80\"]}}";
	static const char *const none[] = { NULL };
	static const char *const narrowed[] = { "a.com:443", "c.com:443",
						NULL };
	char *out = NULL, *warn = NULL;
	struct cordon_diag d;
	cJSON *o;

	if (ok(import_srt_settings(doc1, sizeof(doc1) - 1, &out, &warn, &d) ==
		       CORDON_OK,
	       "srt deny '*': imports (%s)", d.message)) {
		o = cJSON_Parse(out);
		ok(list_is(at(o, "network", "allowedDomains", NULL), none) &&
			   list_is(at(o, "network", "deniedDomains", NULL),
				   none),
		   "srt deny '*': nothing allowed");
		ok(warn && strstr(warn, "deniedDomains '*'"),
		   "srt deny '*': warned");
		cJSON_Delete(o);
	}
	free(out);
	free(warn);
	out = warn = NULL;
	if (ok(import_srt_settings(doc2, sizeof(doc2) - 1, &out, &warn, &d) ==
		       CORDON_OK,
	       "srt deny '*:PORT': imports (%s)", d.message)) {
		o = cJSON_Parse(out);
		ok(list_is(at(o, "network", "allowedDomains", NULL), narrowed),
		   "srt deny '*:22', '*:80': allow list narrowed");
		ok(warn && strstr(warn, "'b.com:22': dropped"),
		   "srt deny '*:22': dropped entry warned");
		cJSON_Delete(o);
	}
	free(out);
	free(warn);
}

static void test_srt_errors(void)
{
	static const struct {
		const char *doc;
		enum cordon_err rc;
		const char *msg;
	} cases[] = {
		{ "{\"network\": {\"allowedDomains\": [\"exa mple.com\"]}}",
		  CORDON_E_CONFIG, "network.allowedDomains[0]" },
		{ "{\"network\": {\"deniedDomains\": [\"ok.com\", \"*:0\"]}}",
		  CORDON_E_CONFIG, "network.deniedDomains[1]: bad port" },
		{ "{\"filesystem\": {\"denyRead\": [\"\"]}}", CORDON_E_CONFIG,
		  "filesystem.denyRead[0]: expected a non-empty string" },
		{ "{\"filesystem\": {\"allowWrite\": \"src\"}}",
		  CORDON_E_CONFIG, "filesystem.allowWrite: expected an array" },
		{ "{\"network\": 1}", CORDON_E_CONFIG,
		  "network: expected an object" },
		{ "{\"network\": {\"allowLocalBinding\": \"yes\"}}",
		  CORDON_E_CONFIG,
		  "allowLocalBinding: expected true or false" },
		{ "nope", CORDON_E_JSON, "malformed JSON" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *out = (char *)1, *warn = NULL;
		struct cordon_diag d;
		enum cordon_err rc;

		rc = import_srt_settings(cases[i].doc, strlen(cases[i].doc), &out,
				       &warn, &d);
		ok(rc == cases[i].rc && out == NULL &&
			   strstr(d.message, cases[i].msg),
		   "srt error %zu: %s (%s)", i, cases[i].msg, d.message);
		free(warn);
	}
}

/* The imported rules decide like the table says: import, load, compile
 * the config's lists, decide. */
static void test_import_then_decide(void)
{
	static const char doc[] =
		"{\"permissions\": {\"allow\": [\"Bash(npm test)\"], "
		"\"deny\": [\"Read(/secrets/**)\", \"Bash(rm:*)\"]}}";
	char *out = NULL, *warn = NULL, why[256];
	struct cordon_diag d;
	struct cordon_config *cfg = config_new();
	struct ccperm_set *s = NULL;
	cJSON *a1 = cJSON_Parse("{\"command\": \"timeout 9 npm test\"}");
	cJSON *a2 = cJSON_Parse("{\"file_path\": \"/srv/app/secrets/k\"}");
	cJSON *a3 = cJSON_Parse("{\"command\": \"sudo rm -rf x\"}");

	if (!ok(cfg && import_claude_settings(doc, sizeof(doc) - 1,
					    "/srv/app/.claude/settings.json",
					    &out, &warn, &d) == CORDON_OK,
		"import for decide"))
		goto out;
	if (!ok(config_apply_json(cfg, out, strlen(out), "import", CONFIG_EXPLICIT,
			       &d) == CORDON_OK,
		"imported config applies (%s)", d.message))
		goto out;
	if (!ok(ccperm_compile(&cfg->perm_allow, &cfg->perm_ask,
			       &cfg->perm_deny, cfg->perm_root, "/home/u", &s,
			       &d) == CORDON_OK,
		"the config's rules compile (%s)", d.message))
		goto out;
	is_int(ccperm_decide(s, "Bash", a1, "/srv/app/sub", why, sizeof(why)),
	       CORDON_ALLOW, "imported allow rule allows");
	is_int(ccperm_decide(s, "Read", a2, "/srv/app/sub", why, sizeof(why)),
	       CORDON_DENY, "imported '/p' rule is under the project root");
	is_int(ccperm_decide(s, "Bash", a3, "/srv/app", why, sizeof(why)),
	       CORDON_DENY, "imported deny rule denies through sudo");
out:
	ccperm_free(s);
	config_free(cfg);
	cJSON_Delete(a1);
	cJSON_Delete(a2);
	cJSON_Delete(a3);
	free(out);
	free(warn);
}

static void test_limits(void)
{
	struct strlist l = { NULL, 0 };
	struct ccperm_set *s = NULL;
	struct cordon_diag d;
	char *big = malloc(5000);
	char *rule = big;

	memset(big, 'a', 4999);
	big[4999] = '\0';
	memcpy(big, "Bash(", 5);
	big[4998] = ')';
	l.v = &rule;
	l.n = 1;
	ok(ccperm_compile(&l, NULL, NULL, NULL, NULL, &s, &d) ==
			   CORDON_E_LIMIT &&
		   strstr(d.message, "limit"),
	   "a rule over the limit is refused (%s)", d.message);
	l.n = 10001;
	l.v = calloc(l.n, sizeof(*l.v));
	for (size_t i = 0; i < l.n; i++)
		l.v[i] = "Bash";
	ok(ccperm_compile(NULL, NULL, &l, NULL, NULL, &s, &d) ==
			   CORDON_E_LIMIT &&
		   strstr(d.message, "permissions.deny: 10001 rules"),
	   "too many rules are refused (%s)", d.message);
	free(l.v);
	free(big);
	ok(ccperm_compile(NULL, NULL, NULL, "relative", NULL, &s, &d) ==
		   CORDON_E_INVAL,
	   "a relative root is refused");
	ok(ccperm_compile(NULL, NULL, NULL, NULL, NULL, &s, &d) == CORDON_OK &&
		   ccperm_decide(s, "Bash", NULL, NULL, NULL, 0) == -1,
	   "empty lists decide nothing");
	ccperm_free(s);
	ccperm_free(NULL);
}

int main(void)
{
	tap_no_plan();
	run_table();
	test_import_claude();
	test_claude_modes();
	test_claude_errors();
	test_claude_root();
	test_import_srt();
	test_srt_defaults();
	test_srt_deny_all();
	test_srt_errors();
	test_import_then_decide();
	test_limits();
	return tap_done();
}
