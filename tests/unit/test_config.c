/* Configuration loading: defaults, every key, errors naming the key path,
 * nothing applied on error, null / list / [] semantics, what a project file
 * may and may not do, sources, Aar files, limits, flags, the tool map and
 * the JSON round trip. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "cordon.h"
#include "credentials.h"
#include "tap.h"

static struct cordon_diag last;

/* s with every ' turned into ", so JSON in tests reads without escapes.
 * The result is malloc'd; tests free it through load(). */
static char *jq(const char *s)
{
	char *o = strdup(s);

	for (char *p = o; p && *p; p++)
		if (*p == '\'')
			*p = '"';
	return o;
}

static enum cordon_err load(struct cordon_config *c, const char *json,
			    const char *name, enum config_layer layer)
{
	char *j = jq(json);
	enum cordon_err e;

	memset(&last, 0, sizeof(last));
	e = config_apply_json(c, j, strlen(j), name, layer, &last);
	free(j);
	return e;
}

/* Loads json as a user file and expects the error message msg. */
static void bad(const char *json, enum cordon_err code, const char *msg)
{
	struct cordon_config *c = config_new();
	enum cordon_err e = load(c, json, "u.json", CONFIG_USER);
	char name[256];

	/* One TAP line: newlines in the JSON become spaces. */
	snprintf(name, sizeof(name), "%s", json);
	for (char *p = name; *p; p++)
		if (*p == '\n')
			*p = ' ';
	is_int(e, code, name);
	is_str(last.message, msg, "  message");
	config_free(c);
}

static const char *source_of(const struct cordon_config *c, const char *key)
{
	for (size_t i = 0; i < c->nsources; i++)
		if (strcmp(c->sources[i].key, key) == 0)
			return c->sources[i].origin;
	return NULL;
}

static bool has_warning(const struct cordon_config *c, const char *text)
{
	for (size_t i = 0; i < c->nwarnings; i++)
		if (strcmp(c->warnings[i].text, text) == 0)
			return true;
	return false;
}

static bool list_is(const struct strlist *l, const char *const *want)
{
	size_t n = 0;

	for (; want[n]; n++)
		if (n >= l->n || strcmp(l->v[n], want[n]) != 0)
			return false;
	return n == l->n;
}

/* How many built-in denied paths there are: a glob a credential row, and
 * the 22 others (test_defaults holds both). */
#define DEFAULT_DENIED (credentials_count + 22)

/* Whether l is the whole built-in denied_paths list. */
static bool denied_default_is(const struct strlist *l)
{
	struct strlist want = { 0 };
	bool same = config_default_denied_fill(&want) &&
		    strlist_equal(l, &want);

	strlist_clear(&want);
	return same;
}

static char *show(const struct cordon_config *c)
{
	return config_to_json(c, false);
}

/* ---- defaults ----------------------------------------------------------- */

static void test_defaults(void)
{
	static const char *const env_deny[] = {
		"*_API_KEY",  "*_TOKEN", "*SECRET*",
		"*PASSWORD*", "AWS_*",	 "GOOGLE_APPLICATION_CREDENTIALS",
		NULL,
	};
	static const char *const env_vars[] = {
		"PATH", "HOME", "TERM", "LANG",	 "LC_*", "TMPDIR",
		"TMP",	"TEMP", "USER", "SHELL", NULL,
	};
	struct cordon_config *c = config_new();
	size_t n = 0;

	ok(c != NULL, "config_new");
	ok(!c->read_only, "read_only off");
	is_int(c->permission_mode, CORDON_MODE_SUPERVISED, "mode supervised");
	is_int(c->max_permission_mode, CORDON_MODE_FULL_ACCESS,
	       "cap full-access");
	is_int(c->require_approval_for_writes, CONFIG_UNSET,
	       "writes: mode decides");
	is_int(c->require_approval_for_execute, CONFIG_UNSET,
	       "execute: mode decides");
	while (config_default_denied_paths[n])
		n++;
	is_int((long long)n, 22,
	       "22 built-in denied paths beside the "
	       "credential table (system files, names anywhere)");
	ok(denied_default_is(&c->denied_paths),
	   "denied_paths holds the credential table's globs, then those");
	is_str(c->denied_paths.v[0], "**/.ssh/**",
	       "the first is the table's first row, ~/.ssh");
	is_str(config_default_denied_paths[0], "/etc/shadow",
	       "the others' first is /etc/shadow");
	is_int((long long)c->denied_paths.n, (long long)(credentials_count + n),
	       "one glob a row, no more");
	ok(!c->allowed_paths_set && c->allowed_paths.n == 0,
	   "allowed_paths unset");
	is_int((long long)c->read_only_paths.n, 0, "read_only_paths empty");
	ok(!c->denied_commands_set && !c->denied_command_patterns_set,
	   "denied commands: the classifier's lists");
	ok(c->extra_denied_commands.n == 0 &&
		   c->extra_denied_command_patterns.n == 0,
	   "no extra denied commands");
	ok(!c->allowed_tools_set, "allowed_tools unset");
	ok(c->denied_tools.n == 0 && c->require_confirm.n == 0,
	   "denied_tools and require_confirm empty");
	ok(c->npath_rules == 0 && c->ncommand_rules == 0 && c->narg_limits == 0,
	   "no rules, no limits");
	ok(!c->log_all_commands, "log_all_commands off");
	is_int(c->sandbox_mode, CONFIG_SANDBOX_AUTO, "sandbox auto");
	ok(c->restricted_env, "restricted_env on");
	ok(!c->env_denylist_set && list_is(&c->env_denylist_patterns, env_deny),
	   "env denylist defaults");
	ok(!c->allowed_env_vars_set && list_is(&c->allowed_env_vars, env_vars),
	   "allowed env vars defaults");
	ok(c->workspace == NULL, "workspace null");
	is_int((long long)c->max_memory_mb, 4096, "max_memory_mb 4096");
	ok(c->allowed_domains.n == 0 && c->denied_domains.n == 0 &&
		   c->denied_resolved_addresses.n == 0,
	   "network lists empty");
	ok(c->classifier_rules_json == NULL, "no classifier rules");
	is_int(c->classifier_max_depth, 4, "max_depth 4");
	ok(c->audit_path == NULL && !c->audit_syslog, "audit off");
	ok(c->approvals_path == NULL, "approvals path null");
	is_int(c->approvals_timeout_s, 120, "timeout 120");
	ok(c->mcp_pins_path == NULL, "pins path null");
	is_int((long long)c->nwarnings, 0, "no warnings");
	is_str(source_of(c, "safety.denied_paths"), "default",
	       "source of denied_paths");
	is_str(source_of(c, "approvals.timeout_s"), "default",
	       "source of timeout_s");
	is_int(config_effective_mode(c), CORDON_MODE_SUPERVISED,
	       "effective mode supervised");
	config_free(c);
	config_free(NULL);
}

static void test_default_tools(void)
{
	static const struct {
		const char *name;
		enum cordon_kind kind;
		const char *arg0;
	} want[] = {
		{ "read_file", CORDON_KIND_READ, "path" },
		{ "write_file", CORDON_KIND_WRITE, "path" },
		{ "edit_file", CORDON_KIND_WRITE, "path" },
		{ "replace", CORDON_KIND_WRITE, "file_path" },
		{ "delete_file", CORDON_KIND_DELETE, "path" },
		{ "list_directory", CORDON_KIND_READ, "path" },
		{ "read_many_files", CORDON_KIND_READ, "include" },
		{ "glob", CORDON_KIND_READ, "path" },
		{ "search_file_content", CORDON_KIND_READ, "path" },
		{ "bash", CORDON_KIND_EXECUTE, "command" },
		{ "shell", CORDON_KIND_EXECUTE, "command" },
		{ "run_shell_command", CORDON_KIND_EXECUTE, "command" },
		{ "web_fetch", CORDON_KIND_FETCH, "url" },
		{ "google_web_search", CORDON_KIND_FETCH, "query" },
		{ "Read", CORDON_KIND_READ, "file_path" },
		{ "Write", CORDON_KIND_WRITE, "file_path" },
		{ "Edit", CORDON_KIND_WRITE, "file_path" },
		{ "MultiEdit", CORDON_KIND_WRITE, "file_path" },
		{ "NotebookEdit", CORDON_KIND_WRITE, "notebook_path" },
		{ "Glob", CORDON_KIND_READ, "path" },
		{ "Grep", CORDON_KIND_READ, "path" },
		{ "LS", CORDON_KIND_READ, "path" },
		{ "Bash", CORDON_KIND_EXECUTE, "command" },
		{ "WebFetch", CORDON_KIND_FETCH, "url" },
		{ "WebSearch", CORDON_KIND_FETCH, "query" },
	};
	struct cordon_config *c = config_new();
	const struct config_tool *t = NULL;
	char name[64];

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(name, sizeof(name), "tool %s", want[i].name);
		is_int(config_tool_kind(c, want[i].name, &t), want[i].kind, name);
		ok(t && t->args.n && strcmp(t->args.v[0], want[i].arg0) == 0,
		   "  its first argument is %s", want[i].arg0);
	}
	config_tool_kind(c, "read_file", &t);
	ok(t && t->args.n == 3 && strcmp(t->args.v[2], "absolute_path") == 0,
	   "read_file tries path, file_path, absolute_path");
	config_tool_kind(c, "web_fetch", &t);
	ok(t && t->args.n == 2 && strcmp(t->args.v[1], "prompt") == 0,
	   "web_fetch tries url, prompt");
	is_int(config_tool_kind(c, "mcp__github__create_issue", &t),
	       CORDON_KIND_MCP, "mcp__ prefix is an MCP call");
	ok(t && strcmp(t->name, "mcp__*") == 0 && t->args.n == 0,
	   "  through the mcp__* entry");
	is_int(config_tool_kind(c, "mcp_", &t), CORDON_KIND_OTHER,
	       "mcp_ is not mcp__");
	ok(t == NULL, "  and no entry");
	is_int(config_tool_kind(c, "read", NULL), CORDON_KIND_OTHER,
	       "unknown tool: other");
	is_int(config_tool_kind(c, "bash ", NULL), CORDON_KIND_OTHER,
	       "exact names only");
	is_int(config_tool_kind(c, NULL, NULL), CORDON_KIND_OTHER, "NULL name");
	config_free(c);
}

/* ---- every key ---------------------------------------------------------- */

static const char full_config[] =
	"{'safety': {"
	"  'read_only': true,"
	"  'permission_mode': 'auto',"
	"  'max_permission_mode': 'auto-accept-edits',"
	"  'require_approval_for_writes': true,"
	"  'require_approval_for_execute': false,"
	"  'denied_paths': ['**/*.secret'],"
	"  'allowed_paths': ['<cwd>/**', '/tmp/**'],"
	"  'read_only_paths': ['/usr/share/**'],"
	"  'path_rules': [{'pattern': '~/.ssh/config', 'access': 'read',"
	"                  'decision': 'allow'},"
	"                 {'pattern': '/srv/**', 'decision': 'ask'}],"
	"  'command_rules': [{'prefix': ['git', 'push'], 'decision': 'ask',"
	"                     'match': ['git push origin main'],"
	"                     'not_match': ['git pull']}],"
	"  'denied_commands': ['rm -rf /'],"
	"  'denied_command_patterns': ['curl.*\\\\|\\\\s*sh'],"
	"  'extra_denied_commands': ['shutdown'],"
	"  'extra_denied_command_patterns': ['^reboot'],"
	"  'allowed_tools': ['Read', 'Bash'],"
	"  'denied_tools': ['WebFetch'],"
	"  'require_confirm': ['Bash'],"
	"  'arg_limits': {'Bash': {'command': {'max_length': 64,"
	"      'pattern': '[a-z ]+', 'choices': ['ls', 'pwd']},"
	"      'timeout': {'min_value': 0, 'max_value': 9.5}}},"
	"  'log_all_commands': true,"
	"  'sandbox': {'mode': 'strict',"
	"    'env_denylist_patterns': ['*_KEY'],"
	"    'local': {'restricted_env': false, 'allowed_env_vars': ['PATH']},"
	"    'linux': {'workspace': '/work', 'max_memory_mb': 512}}},"
	" 'network': {'allowedDomains': ['example.com'],"
	"   'deniedDomains': ['evil.example'],"
	"   'deniedResolvedAddresses': ['169.254.0.0/16']},"
	" 'classifier': {'rules': [{'id': 'no-npm-publish', 'pattern':"
	"   'npm publish', 'severity': 'critical'}], 'max_depth': 6},"
	" 'audit': {'path': '/var/log/cordon.jsonl', 'syslog': true},"
	" 'approvals': {'path': '/home/u/.cordon/approvals.json',"
	"   'timeout_s': 30},"
	" 'mcp': {'pins_path': '/home/u/.cordon/pins.json'},"
	" 'tools': {'my_reader': {'kind': 'read', 'arg': 'file',"
	"   'schema': {'type': 'object'}}}}";

static void test_every_key(void)
{
	static const char *const two[] = { "<cwd>/**", "/tmp/**", NULL };
	struct cordon_config *c = config_new();
	const struct config_tool *t = NULL;
	enum cordon_err e = load(c, full_config, "full.json", CONFIG_USER);

	is_int(e, CORDON_OK, "a file with every key loads");
	if (e != CORDON_OK)
		diag("%s", last.message);
	ok(c->read_only, "read_only");
	is_int(c->permission_mode, CORDON_MODE_AUTO, "permission_mode");
	is_int(c->max_permission_mode, CORDON_MODE_AUTO_EDITS,
	       "max_permission_mode");
	is_int(c->require_approval_for_writes, CONFIG_TRUE, "approval for writes");
	is_int(c->require_approval_for_execute, CONFIG_FALSE,
	       "approval for execute");
	ok(c->denied_paths.n == 1 &&
		   strcmp(c->denied_paths.v[0], "**/*.secret") == 0,
	   "denied_paths replaced");
	ok(c->allowed_paths_set && list_is(&c->allowed_paths, two),
	   "allowed_paths");
	ok(c->read_only_paths.n == 1, "read_only_paths");
	ok(c->npath_rules == 2 && c->path_rules[0].access == CONFIG_ACCESS_READ &&
		   c->path_rules[0].decision == CORDON_ALLOW &&
		   strcmp(c->path_rules[0].pattern, "~/.ssh/config") == 0,
	   "path_rules[0]");
	ok(c->npath_rules == 2 && c->path_rules[1].access == CONFIG_ACCESS_ANY &&
		   c->path_rules[1].decision == CORDON_ASK,
	   "path_rules[1]: access defaults to any");
	ok(c->ncommand_rules == 1 && c->command_rules[0].prefix.n == 2 &&
		   c->command_rules[0].decision == CORDON_ASK &&
		   c->command_rules[0].match.n == 1 &&
		   c->command_rules[0].not_match.n == 1,
	   "command_rules");
	ok(c->denied_commands_set && c->denied_commands.n == 1,
	   "denied_commands");
	ok(c->denied_command_patterns_set &&
		   strcmp(c->denied_command_patterns.v[0], "curl.*\\|\\s*sh") ==
			   0,
	   "denied_command_patterns");
	ok(c->extra_denied_commands.n == 1 &&
		   c->extra_denied_command_patterns.n == 1,
	   "extra denied commands and patterns");
	ok(c->allowed_tools_set && c->allowed_tools.n == 2, "allowed_tools");
	ok(c->denied_tools.n == 1 && c->require_confirm.n == 1,
	   "denied_tools, require_confirm");
	is_int((long long)c->narg_limits, 2, "two argument limits");
	ok(c->narg_limits == 2 && strcmp(c->arg_limits[0].tool, "Bash") == 0 &&
		   strcmp(c->arg_limits[0].arg, "command") == 0 &&
		   c->arg_limits[0].has_max_length &&
		   c->arg_limits[0].max_length == 64 &&
		   strcmp(c->arg_limits[0].pattern, "[a-z ]+") == 0 &&
		   c->arg_limits[0].has_choices &&
		   c->arg_limits[0].choices.n == 2 &&
		   !c->arg_limits[0].has_min_value,
	   "arg_limits.Bash.command");
	ok(c->narg_limits == 2 && c->arg_limits[1].has_min_value &&
		   c->arg_limits[1].min_value == 0 &&
		   c->arg_limits[1].has_max_value &&
		   c->arg_limits[1].max_value == 9.5 &&
		   !c->arg_limits[1].has_choices && !c->arg_limits[1].pattern,
	   "arg_limits.Bash.timeout");
	ok(c->log_all_commands, "log_all_commands");
	is_int(c->sandbox_mode, CONFIG_SANDBOX_STRICT, "sandbox.mode");
	ok(c->env_denylist_set && c->env_denylist_patterns.n == 1,
	   "env_denylist_patterns");
	ok(!c->restricted_env, "restricted_env");
	ok(c->allowed_env_vars_set && c->allowed_env_vars.n == 1,
	   "allowed_env_vars");
	is_str(c->workspace, "/work", "workspace");
	is_int((long long)c->max_memory_mb, 512, "max_memory_mb");
	ok(c->allowed_domains.n == 1 && c->denied_domains.n == 1 &&
		   c->denied_resolved_addresses.n == 1,
	   "network lists");
	ok(c->classifier_rules_json &&
		   strstr(c->classifier_rules_json, "no-npm-publish"),
	   "classifier.rules kept as JSON");
	is_int(c->classifier_max_depth, 6, "classifier.max_depth");
	is_str(c->audit_path, "/var/log/cordon.jsonl", "audit.path");
	ok(c->audit_syslog, "audit.syslog");
	is_str(c->approvals_path, "/home/u/.cordon/approvals.json",
	       "approvals.path");
	is_int(c->approvals_timeout_s, 30, "approvals.timeout_s");
	is_str(c->mcp_pins_path, "/home/u/.cordon/pins.json", "mcp.pins_path");
	is_int(config_tool_kind(c, "my_reader", &t), CORDON_KIND_READ, "tools");
	ok(t && t->args.n == 1 && strcmp(t->args.v[0], "file") == 0 &&
		   t->schema_json && strstr(t->schema_json, "object"),
	   "tool arg as a string, schema kept");
	is_int(config_effective_mode(c), CORDON_MODE_AUTO_EDITS,
	       "auto clamped to the auto-accept-edits cap");
	is_str(source_of(c, "safety.sandbox.linux.max_memory_mb"),
	       "user:full.json", "source of a nested key");
	is_str(source_of(c, "tools.my_reader"), "user:full.json",
	       "source of a tool");
	is_int((long long)c->nwarnings, 0, "a user file warns about nothing");
	config_free(c);
}

/* ---- errors ------------------------------------------------------------- */

static void test_unknown_keys(void)
{
	bad("{'saftey': {}}", CORDON_E_CONFIG, "u.json: saftey: unknown key");
	bad("{'safety': {'denied_path': []}}", CORDON_E_CONFIG,
	    "u.json: safety.denied_path: unknown key");
	bad("{'safety': {'sandbox': {'local': {'restricted': true}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.sandbox.local.restricted: unknown key");
	bad("{'safety': {'path_rules': [{'pattern': 'a', 'decision': 'deny'},"
	    " {'pattern': 'b', 'decision': 'deny', 'mode': 'x'}]}}",
	    CORDON_E_CONFIG, "u.json: safety.path_rules[1].mode: unknown key");
	bad("{'safety': {'arg_limits': {'Bash': {'command': {'max_len': 3}}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.arg_limits.Bash.command.max_len: unknown key");
	bad("{'tools': {'X': {'kind': 'read', 'args': []}}}", CORDON_E_CONFIG,
	    "u.json: tools.X.args: unknown key");
	bad("{'network': {'allowUnixSockets': true}}", CORDON_E_CONFIG,
	    "u.json: network.allowUnixSockets: expected a list of strings or null");
	bad("{'network': {'allowLocalSockets': true}}", CORDON_E_CONFIG,
	    "u.json: network.allowLocalSockets: unknown key");
	bad("{'audit': {'fsync': 'sometimes'}}", CORDON_E_CONFIG,
	    "u.json: audit.fsync: expected one of \"every\", \"batch\", \"never\"");
	bad("{'safety': {'sandbox': {'linux': {'workspace': null, 'cpus': 2}}}}",
	    CORDON_E_CONFIG, "u.json: safety.sandbox.linux.cpus: unknown key");
	bad("{'sandbox': {}}", CORDON_E_CONFIG, "u.json: sandbox: unknown key");
	bad("{'safety': {'x\\u001b[31m': 1}}", CORDON_E_CONFIG,
	    "u.json: safety.x?[31m: unknown key");
}

static void test_wrong_types(void)
{
	bad("{'safety': {'denied_paths': ['a', 'b', 3]}}", CORDON_E_CONFIG,
	    "u.json: safety.denied_paths[2]: expected a string");
	bad("{'safety': {'denied_paths': 'a'}}", CORDON_E_CONFIG,
	    "u.json: safety.denied_paths: expected a list of strings or null");
	bad("{'safety': {'denied_paths': ['']}}", CORDON_E_CONFIG,
	    "u.json: safety.denied_paths[0]: expected a non-empty string");
	bad("{'safety': {'permission_mode': 'yolo'}}", CORDON_E_CONFIG,
	    "u.json: safety.permission_mode: expected one of supervised, "
	    "auto-accept-edits, auto, full-access");
	bad("{'safety': {'max_permission_mode': 3}}", CORDON_E_CONFIG,
	    "u.json: safety.max_permission_mode: expected one of supervised, "
	    "auto-accept-edits, auto, full-access");
	bad("{'safety': {'read_only': 'yes'}}", CORDON_E_CONFIG,
	    "u.json: safety.read_only: expected true or false");
	bad("{'safety': {'require_approval_for_writes': 1}}", CORDON_E_CONFIG,
	    "u.json: safety.require_approval_for_writes: expected true, false "
	    "or null");
	bad("{'safety': {'sandbox': {'mode': 'docker'}}}", CORDON_E_CONFIG,
	    "u.json: safety.sandbox.mode: expected one of off, auto, strict, "
	    "local, linux");
	bad("{'safety': {'sandbox': {'linux': {'max_memory_mb': 0}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.sandbox.linux.max_memory_mb: expected an integer "
	    "from 1 to 1048576");
	bad("{'approvals': {'timeout_s': 1.5}}", CORDON_E_CONFIG,
	    "u.json: approvals.timeout_s: expected an integer from 1 to 86400");
	bad("{'classifier': {'max_depth': -1}}", CORDON_E_CONFIG,
	    "u.json: classifier.max_depth: expected an integer from 0 to 100");
	bad("{'audit': {'path': 7}}", CORDON_E_CONFIG,
	    "u.json: audit.path: expected a string");
	bad("{'safety': 3}", CORDON_E_CONFIG,
	    "u.json: safety: expected an object");
	bad("{'safety': {'sandbox': null}}", CORDON_E_CONFIG,
	    "u.json: safety.sandbox: expected an object");
	bad("[1]", CORDON_E_CONFIG,
	    "u.json: expected a JSON object at the top level");
	bad("{'safety': {'path_rules': [{'decision': 'deny'}]}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.path_rules[0].pattern: required key is missing");
	bad("{'safety': {'path_rules': [{'pattern': 'a', 'decision': 'maybe'}]}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.path_rules[0].decision: expected one of allow, "
	    "deny, ask");
	bad("{'safety': {'path_rules': [{'pattern': 'a', 'decision': 'deny',"
	    " 'access': 'exec'}]}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.path_rules[0].access: expected one of read, "
	    "write, any");
	bad("{'safety': {'path_rules': ['a']}}", CORDON_E_CONFIG,
	    "u.json: safety.path_rules[0]: expected an object");
	bad("{'safety': {'command_rules': [{'prefix': [], 'decision': 'deny'}]}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.command_rules[0].prefix: expected at least one "
	    "word");
	bad("{'safety': {'command_rules': [{'prefix': ['git', 'push'],"
	    " 'decision': 'allow', 'match': ['git push', 'git pull']}]}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.command_rules[0].match[1]: the example does not "
	    "match the rule's prefix");
	bad("{'safety': {'command_rules': [{'prefix': ['git'],"
	    " 'decision': 'allow', 'not_match': ['git status']}]}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.command_rules[0].not_match[0]: the example matches "
	    "the rule's prefix");
	bad("{'safety': {'denied_command_patterns': ['ok', '(unclosed']}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.denied_command_patterns[1]: invalid regular "
	    "expression: missing closing parenthesis at offset 9");
	bad("{'safety': {'denied_commands': ['  ']}}", CORDON_E_CONFIG,
	    "u.json: safety.denied_commands[0]: expected a command, not blanks");
	bad("{'safety': {'arg_limits': {'T': {'a': {'min_value': 5,"
	    " 'max_value': 1}}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.arg_limits.T.a: min_value is greater than "
	    "max_value");
	bad("{'safety': {'arg_limits': {'T': {'a': [{}, {'max_length': -1}]}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.arg_limits.T.a[1].max_length: expected an integer "
	    "from 0 to 9007199254740992");
	bad("{'safety': {'arg_limits': {'T': {'a': {'pattern': '[z-a]'}}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.arg_limits.T.a.pattern: invalid regular "
	    "expression: range out of order in character class at offset 3");
	bad("{'safety': {'arg_limits': {'T': {'a': {'min_value': '1'}}}}}",
	    CORDON_E_CONFIG,
	    "u.json: safety.arg_limits.T.a.min_value: expected a number");
	bad("{'tools': {'X': {'arg': 'path'}}}", CORDON_E_CONFIG,
	    "u.json: tools.X.kind: required key is missing");
	bad("{'tools': {'X': {'kind': 'launch'}}}", CORDON_E_CONFIG,
	    "u.json: tools.X.kind: expected one of read, write, delete, "
	    "execute, fetch, mcp, other");
	bad("{'tools': {'X': {'kind': 'read', 'schema': true}}}",
	    CORDON_E_CONFIG,
	    "u.json: tools.X.schema: expected a JSON Schema "
	    "object");
	bad("{'tools': {'': {'kind': 'read'}}}", CORDON_E_CONFIG,
	    "u.json: tools.\"\": expected a tool name");
	{
		struct cordon_config *c = config_new();

		is_int(load(c,
			    "{'classifier': {'rules': [{'id': 'a',"
			    " 'pattern': 'x', 'severity': 'fatal'}]}}",
			    "u.json", CONFIG_USER),
		       CORDON_E_CONFIG, "a bad classifier rule");
		config_free(c);
	}
	ok(strncmp(last.message, "u.json: classifier.rules[0].severity", 36) ==
		   0,
	   "classifier rule errors name the element: %s", last.message);
	bad("{'classifier': {'rules': {}}}", CORDON_E_CONFIG,
	    "u.json: classifier.rules: expected a list of rules");
}

static void test_syntax_errors(void)
{
	struct cordon_config *c = config_new();
	static const char nul[] = "{\"safety\": {}}\0";

	bad("{'safety': {'read_only': true,}}", CORDON_E_JSON,
	    "u.json: line 1, column 32: malformed JSON");
	is_int(last.line, 1, "  line");
	is_int(last.column, 32, "  column");
	bad("{\n'safety': {\n  'read_only' true}}", CORDON_E_JSON,
	    "u.json: line 3, column 15: malformed JSON");
	bad("{} {}", CORDON_E_JSON,
	    "u.json: line 1, column 4: unexpected data after the JSON value");
	bad("", CORDON_E_JSON, "u.json: line 1, column 1: malformed JSON");
	bad("{'safety': {'read_only': true, 'read_only': false}}",
	    CORDON_E_CONFIG, "u.json: safety.read_only: duplicate key");
	bad("{'safety': {'denied_paths': ['a\\u0000b']}}", CORDON_E_CONFIG,
	    "u.json: line 1, column 32: \\u0000 in a string (NUL characters "
	    "are refused)");
	bad("{'safety': {'denied_paths': ['a\\\\u0000b']}}", CORDON_OK, "");
	is_int(config_apply_json(c, nul, sizeof(nul) - 1, "n.json", CONFIG_USER,
			      &last),
	       CORDON_E_JSON, "a NUL byte");
	is_str(last.message, "n.json: line 1, column 15: NUL byte in the input",
	       "  message");
	is_int(config_apply_json(c, "{}", 2, "x", CONFIG_DEFAULT, &last),
	       CORDON_E_INVAL, "layer default is not a file layer");
	is_int(config_apply_json(c, "{}", 2, "x", CONFIG_FLAG, &last), CORDON_E_INVAL,
	       "nor is flag");
	is_int(config_apply_json(NULL, "{}", 2, "x", CONFIG_USER, &last),
	       CORDON_E_INVAL, "NULL config");
	is_int(config_apply_json(c, NULL, 2, "x", CONFIG_USER, &last), CORDON_E_INVAL,
	       "NULL text");
	is_int(config_apply_json(c, "{}", 2, NULL, CONFIG_USER, NULL), CORDON_OK,
	       "no name, no diag");
	config_free(c);
}

/* ---- nothing applied on error ------------------------------------------- */

static void test_atomic(void)
{
	struct cordon_config *c = config_new();
	char *before, *after, *src_before;

	load(c,
	     "{'safety': {'permission_mode': 'auto', 'denied_paths': ['a'],"
	     " 'path_rules': [{'pattern': 'p', 'decision': 'deny'}]},"
	     " 'tools': {'T': {'kind': 'write'}}}",
	     "good.json", CONFIG_USER);
	is_int(last.code, CORDON_OK, "a valid file");
	before = show(c);
	src_before = config_to_json(c, true);
	is_int(load(c,
		    "{'safety': {'permission_mode': 'full-access',"
		    " 'denied_paths': null, 'path_rules': [],"
		    " 'read_only': true, 'sandbox': {'mode': 'off'}},"
		    " 'tools': {'T': {'kind': 'read'}, 'U': {'kind': 'mcp'}},"
		    " 'network': {'allowedDomains': ['x']},"
		    " 'audit': {'path': 3}}",
		    "bad.json", CONFIG_EXPLICIT),
	       CORDON_E_CONFIG, "then a file with an error at its end");
	is_str(last.message, "bad.json: audit.path: expected a string",
	       "  named");
	after = show(c);
	is_str(after, before, "the first file's values are intact");
	free(after);
	after = config_to_json(c, true);
	is_str(after, src_before, "and its sources");
	free(after);
	is_int(c->permission_mode, CORDON_MODE_AUTO, "mode still auto");
	ok(c->denied_paths.n == 1 && c->npath_rules == 1, "lists intact");
	is_int(config_tool_kind(c, "T", NULL), CORDON_KIND_WRITE, "tools intact");

	/* A project file's warnings are not kept when it fails. */
	is_int(load(c,
		    "{'safety': {'permission_mode': 'full-access',"
		    " 'read_only_paths': ['/'], 'denied_paths': [1]}}",
		    "p.json", CONFIG_PROJECT),
	       CORDON_E_CONFIG, "a failing project file");
	is_int((long long)c->nwarnings, 0, "leaves no warnings");
	free(before);
	free(src_before);
	config_free(c);
}

/* ---- null / list / [] --------------------------------------------------- */

static void test_null_list_empty(void)
{
	struct cordon_config *c = config_new();

	load(c, "{'safety': {'denied_paths': ['a', 'b']}}", "u", CONFIG_USER);
	ok(c->denied_paths.n == 2, "a list replaces the default");
	load(c, "{'safety': {'denied_paths': null}}", "e", CONFIG_EXPLICIT);
	ok(denied_default_is(&c->denied_paths),
	   "null brings the built-in list back");
	is_str(source_of(c, "safety.denied_paths"), "config:e",
	       "  and the source says who");
	load(c, "{'safety': {'denied_paths': []}}", "e", CONFIG_EXPLICIT);
	is_int((long long)c->denied_paths.n, 0, "[] disables it");

	load(c, "{'safety': {'allowed_paths': ['/w/**']}}", "u", CONFIG_USER);
	ok(c->allowed_paths_set && c->allowed_paths.n == 1,
	   "allowed_paths set");
	load(c, "{'safety': {'allowed_paths': null}}", "u", CONFIG_USER);
	ok(!c->allowed_paths_set && c->allowed_paths.n == 0,
	   "null: allowed_paths unset");
	load(c, "{'safety': {'allowed_paths': []}}", "u", CONFIG_USER);
	ok(c->allowed_paths_set && c->allowed_paths.n == 0,
	   "[]: set and empty (nothing allowed)");

	load(c, "{'safety': {'denied_commands': []}}", "u", CONFIG_USER);
	ok(c->denied_commands_set && c->denied_commands.n == 0,
	   "denied_commands []: the built-in list is off");
	load(c, "{'safety': {'denied_commands': null}}", "u", CONFIG_USER);
	ok(!c->denied_commands_set, "null: the built-in list again");

	load(c,
	     "{'safety': {'sandbox': {'env_denylist_patterns': ['X'],"
	     " 'local': {'allowed_env_vars': []}}}}",
	     "u", CONFIG_USER);
	ok(c->env_denylist_set && c->env_denylist_patterns.n == 1,
	   "env denylist replaced");
	ok(c->allowed_env_vars_set && c->allowed_env_vars.n == 0,
	   "allowed env vars emptied");
	load(c,
	     "{'safety': {'sandbox': {'env_denylist_patterns': null,"
	     " 'local': {'allowed_env_vars': null}}}}",
	     "u", CONFIG_USER);
	ok(!c->env_denylist_set && c->env_denylist_patterns.n == 6,
	   "env denylist default again");
	ok(!c->allowed_env_vars_set && c->allowed_env_vars.n == 10,
	   "allowed env vars default again");

	load(c,
	     "{'safety': {'require_approval_for_writes': false,"
	     " 'permission_mode': 'auto', 'read_only': true},"
	     " 'approvals': {'timeout_s': 5, 'path': '/a'}}",
	     "u", CONFIG_USER);
	load(c,
	     "{'safety': {'require_approval_for_writes': null,"
	     " 'permission_mode': null, 'read_only': null},"
	     " 'approvals': {'timeout_s': null, 'path': null}}",
	     "u", CONFIG_USER);
	is_int(c->require_approval_for_writes, CONFIG_UNSET,
	       "null: the mode decides again");
	is_int(c->permission_mode, CORDON_MODE_SUPERVISED,
	       "null mode: supervised");
	ok(!c->read_only, "null read_only: false");
	is_int(c->approvals_timeout_s, 120, "null timeout: 120");
	ok(c->approvals_path == NULL, "null path");

	load(c,
	     "{'safety': {'path_rules': [{'pattern': 'a', 'decision':"
	     " 'deny'}], 'arg_limits': {'T': {'a': {'max_length': 1}}}},"
	     " 'classifier': {'rules': [{'id': 'r', 'pattern': 'x',"
	     " 'severity': 'warning'}]}, 'tools': {'T': {'kind': 'read'}}}",
	     "u", CONFIG_USER);
	ok(c->npath_rules == 1 && c->narg_limits == 1 &&
		   c->classifier_rules_json,
	   "rules, limits, classifier rules set");
	load(c,
	     "{'safety': {'path_rules': null, 'arg_limits': null},"
	     " 'classifier': {'rules': null}, 'tools': null}",
	     "u", CONFIG_USER);
	ok(c->npath_rules == 0 && c->narg_limits == 0 &&
		   !c->classifier_rules_json,
	   "null clears them");
	is_int(config_tool_kind(c, "T", NULL), CORDON_KIND_OTHER,
	       "tools null: only the built-in map");
	is_int(config_tool_kind(c, "Bash", NULL), CORDON_KIND_EXECUTE,
	       "  which is still there");
	ok(source_of(c, "tools.T") == NULL, "  the tool's source is gone");
	config_free(c);
}

/* ---- the project layer -------------------------------------------------- */

#define IGNORED(key) "p.json: " key ": a project file may only tighten; ignored"

/* Loads base as a user file, then proj as the project file p.json. */
static struct cordon_config *layered(const char *base, const char *proj)
{
	struct cordon_config *c = config_new();

	if (base && load(c, base, "u.json", CONFIG_USER) != CORDON_OK)
		diag("base: %s", last.message);
	if (load(c, proj, "p.json", CONFIG_PROJECT) != CORDON_OK)
		diag("project: %s", last.message);
	return c;
}

static void test_project_scalars(void)
{
	struct cordon_config *c;

	c = layered(NULL, "{'safety': {'read_only': true}}");
	ok(c->read_only && c->nwarnings == 0, "read_only may become true");
	config_free(c);
	c = layered("{'safety': {'read_only': true}}",
		    "{'safety': {'read_only': false}}");
	ok(c->read_only, "read_only never becomes false");
	ok(has_warning(c, IGNORED("safety.read_only")), "  warned");
	config_free(c);

	c = layered("{'safety': {'permission_mode': 'auto'}}",
		    "{'safety': {'permission_mode': 'supervised'}}");
	is_int(c->permission_mode, CORDON_MODE_SUPERVISED,
	       "mode may be lowered");
	is_int((long long)c->nwarnings, 0, "  without a warning");
	config_free(c);
	c = layered(NULL, "{'safety': {'permission_mode': 'full-access'}}");
	is_int(c->permission_mode, CORDON_MODE_SUPERVISED, "never raised");
	ok(has_warning(c, IGNORED("safety.permission_mode")), "  warned");
	config_free(c);
	c = layered(NULL, "{'safety': {'permission_mode': 'supervised'}}");
	is_int((long long)c->nwarnings, 0, "the same mode is no warning");
	config_free(c);

	c = layered(NULL, "{'safety': {'max_permission_mode': 'auto'}}");
	is_int(c->max_permission_mode, CORDON_MODE_AUTO,
	       "the cap may be lowered");
	config_free(c);
	c = layered("{'safety': {'max_permission_mode': 'auto'}}",
		    "{'safety': {'max_permission_mode': 'full-access'}}");
	is_int(c->max_permission_mode, CORDON_MODE_AUTO, "never raised");
	ok(has_warning(c, IGNORED("safety.max_permission_mode")), "  warned");
	config_free(c);

	c = layered(NULL, "{'safety': {'require_approval_for_writes': true,"
			  " 'require_approval_for_execute': true}}");
	ok(c->require_approval_for_writes == CONFIG_TRUE &&
		   c->require_approval_for_execute == CONFIG_TRUE,
	   "approvals may be required");
	config_free(c);
	c = layered("{'safety': {'require_approval_for_execute': true}}",
		    "{'safety': {'require_approval_for_writes': false,"
		    " 'require_approval_for_execute': false}}");
	ok(c->require_approval_for_writes == CONFIG_UNSET &&
		   c->require_approval_for_execute == CONFIG_TRUE,
	   "never turned off");
	ok(has_warning(c, IGNORED("safety.require_approval_for_writes")) &&
		   has_warning(c,
			       IGNORED("safety.require_approval_for_execute")),
	   "  warned for both");
	config_free(c);

	c = layered(NULL, "{'safety': {'sandbox': {'mode': 'strict'}}}");
	is_int(c->sandbox_mode, CONFIG_SANDBOX_STRICT, "sandbox may go up");
	config_free(c);
	c = layered(NULL, "{'safety': {'sandbox': {'mode': 'local'}}}");
	is_int(c->sandbox_mode, CONFIG_SANDBOX_AUTO, "never down");
	ok(has_warning(c, IGNORED("safety.sandbox.mode")), "  warned");
	config_free(c);
	c = layered(NULL, "{'safety': {'sandbox': {'mode': 'linux'}}}");
	is_int((long long)c->nwarnings, 0, "linux = auto: no change");
	config_free(c);

	c = layered("{'safety': {'sandbox': {'local': {'restricted_env':"
		    " false}}}}",
		    "{'safety': {'sandbox': {'local': {'restricted_env':"
		    " true}}}}");
	ok(c->restricted_env, "restricted_env may be turned on");
	config_free(c);
	c = layered(NULL, "{'safety': {'sandbox': {'local': {'restricted_env':"
			  " false}}}}");
	ok(c->restricted_env, "never off");
	ok(has_warning(c, IGNORED("safety.sandbox.local.restricted_env")),
	   "  warned");
	config_free(c);

	c = layered(NULL, "{'safety': {'sandbox': {'linux': {'max_memory_mb':"
			  " 1024}}}}");
	is_int((long long)c->max_memory_mb, 1024, "memory may be lowered");
	config_free(c);
	c = layered(NULL, "{'safety': {'sandbox': {'linux': {'max_memory_mb':"
			  " 8192}}}}");
	is_int((long long)c->max_memory_mb, 4096, "never raised");
	ok(has_warning(c, IGNORED("safety.sandbox.linux.max_memory_mb")),
	   "  warned");
	config_free(c);

	c = layered(NULL, "{'approvals': {'timeout_s': 30}}");
	is_int(c->approvals_timeout_s, 30, "timeout may be lowered");
	config_free(c);
	c = layered(NULL, "{'approvals': {'timeout_s': 600}}");
	is_int(c->approvals_timeout_s, 120, "never raised");
	ok(has_warning(c, IGNORED("approvals.timeout_s")), "  warned");
	config_free(c);

	c = layered(NULL, "{'safety': {'log_all_commands': true}}");
	ok(c->log_all_commands, "log_all_commands may be turned on");
	config_free(c);
	c = layered("{'safety': {'log_all_commands': true}}",
		    "{'safety': {'log_all_commands': false}}");
	ok(c->log_all_commands, "never off");
	ok(has_warning(c, IGNORED("safety.log_all_commands")), "  warned");
	config_free(c);

	c = layered("{'safety': {'permission_mode': 'auto'}}",
		    "{'safety': {'permission_mode': null, 'read_only': null,"
		    " 'denied_paths': null, 'allowed_tools': null,"
		    " 'read_only_paths': null}, 'tools': null}");
	ok(c->permission_mode == CORDON_MODE_AUTO && c->nwarnings == 0 &&
		   c->denied_paths.n == DEFAULT_DENIED,
	   "a project's null changes nothing and warns about nothing");
	config_free(c);
}

static void test_project_lists(void)
{
	struct cordon_config *c;
	char *before, *after;

	c = layered(NULL, "{'safety': {'denied_paths': ['**/*.sqlite',"
			  " '**/.env']}}");
	is_int((long long)c->denied_paths.n, (long long)DEFAULT_DENIED + 1,
	       "denied_paths: added to the built-in list (duplicates once)");
	is_str(c->denied_paths.v[DEFAULT_DENIED], "**/*.sqlite",
	       "  at the end");
	is_str(source_of(c, "safety.denied_paths"), "default + project:p.json",
	       "  source: default + project");
	config_free(c);
	c = layered(NULL, "{'safety': {'denied_paths': []}}");
	ok(c->denied_paths.n == DEFAULT_DENIED && c->nwarnings == 0,
	   "[] does not disable the built-in list");
	config_free(c);

	c = layered(NULL,
		    "{'safety': {'denied_commands': ['make deploy'],"
		    " 'denied_command_patterns': ['^terraform\\\\s+apply']}}");
	ok(!c->denied_commands_set && !c->denied_command_patterns_set,
	   "denied commands: the built-in lists stay on");
	ok(c->extra_denied_commands.n == 1 &&
		   c->extra_denied_command_patterns.n == 1,
	   "  and the additions are extra entries");
	is_str(source_of(c, "safety.extra_denied_commands"),
	       "default + project:p.json", "  source");
	config_free(c);
	c = layered("{'safety': {'denied_commands': ['a']}}",
		    "{'safety': {'denied_commands': ['b'],"
		    " 'extra_denied_commands': ['c']}}");
	ok(c->denied_commands_set && c->denied_commands.n == 1 &&
		   c->extra_denied_commands.n == 2,
	   "a user's list stays, the project's entries are extra");
	config_free(c);

	c = layered("{'safety': {'denied_tools': ['A'], 'require_confirm':"
		    " ['B']}, 'network': {'deniedDomains': ['x.example']}}",
		    "{'safety': {'denied_tools': ['C'], 'require_confirm':"
		    " ['D'], 'sandbox': {'env_denylist_patterns': ['*_PAT']}},"
		    " 'network': {'deniedDomains': ['y.example'],"
		    " 'deniedResolvedAddresses': ['10.0.0.0/8']}}");
	ok(c->denied_tools.n == 2 && c->require_confirm.n == 2,
	   "denied_tools and require_confirm: added");
	ok(c->env_denylist_patterns.n == 7, "env denylist: added");
	ok(c->denied_domains.n == 2 && c->denied_resolved_addresses.n == 1,
	   "deniedDomains, deniedResolvedAddresses: added");
	is_int((long long)c->nwarnings, 0, "  no warnings");
	config_free(c);

	c = layered(NULL, "{'safety': {'allowed_tools': ['Read', 'Grep']}}");
	ok(c->allowed_tools_set && c->allowed_tools.n == 2,
	   "allowed_tools unset: the project's list");
	config_free(c);
	c = layered("{'safety': {'allowed_tools': ['Read', 'Bash', 'Grep']}}",
		    "{'safety': {'allowed_tools': ['Grep', 'Write', 'Read']}}");
	ok(c->allowed_tools.n == 2 &&
		   strcmp(c->allowed_tools.v[0], "Read") == 0 &&
		   strcmp(c->allowed_tools.v[1], "Grep") == 0,
	   "allowed_tools set: the intersection");
	ok(has_warning(c, IGNORED("safety.allowed_tools[1]")),
	   "  a tool the user did not allow is ignored with a warning");
	is_int((long long)c->nwarnings, 1, "  only that one");
	config_free(c);
	c = layered("{'safety': {'allowed_tools': ['Read']}}",
		    "{'safety': {'allowed_tools': []}}");
	ok(c->allowed_tools_set && c->allowed_tools.n == 0,
	   "[] intersects to nothing allowed");
	before = show(c);
	config_free(c);
	c = config_new();
	load(c, before, "rt", CONFIG_EXPLICIT);
	ok(c->allowed_tools_set && c->allowed_tools.n == 0,
	   "  which prints and loads back as nothing allowed");
	config_free(c);
	free(before);

	c = layered(NULL, "{'safety': {'allowed_paths': ['<cwd>/**']}}");
	ok(c->allowed_paths_set && c->allowed_paths.n == 1,
	   "allowed_paths unset: the project's list");
	config_free(c);
	c = layered("{'safety': {'allowed_paths': ['<cwd>/**']}}",
		    "{'safety': {'allowed_paths': ['/']}}");
	ok(c->allowed_paths.n == 1 &&
		   strcmp(c->allowed_paths.v[0], "<cwd>/**") == 0,
	   "allowed_paths set: kept");
	ok(has_warning(c, IGNORED("safety.allowed_paths")), "  warned");
	config_free(c);

	c = layered("{'safety': {'path_rules': [{'pattern': 'u', 'decision':"
		    " 'allow'}], 'command_rules': [{'prefix': ['ls'],"
		    " 'decision': 'allow'}]}}",
		    "{'safety': {'path_rules': [{'pattern': '~/.ssh/**',"
		    " 'decision': 'allow'}, {'pattern': 'secret/**',"
		    " 'decision': 'deny'}], 'command_rules': [{'prefix':"
		    " ['git', 'push'], 'decision': 'deny'}, {'prefix': ['rm'],"
		    " 'decision': 'ask'}]}}");
	ok(c->npath_rules == 2 &&
		   strcmp(c->path_rules[1].pattern, "secret/**") == 0 &&
		   c->path_rules[1].decision == CORDON_DENY,
	   "path_rules: the deny rule appended");
	ok(has_warning(c, IGNORED("safety.path_rules[0]")),
	   "  the allow rule ignored with a warning");
	ok(c->ncommand_rules == 2 &&
		   strcmp(c->command_rules[1].prefix.v[1], "push") == 0,
	   "command_rules: the deny rule appended");
	ok(has_warning(c, IGNORED("safety.command_rules[1]")),
	   "  the ask rule ignored with a warning");
	config_free(c);

	c = layered("{'safety': {'arg_limits': {'Bash': {'command':"
		    " {'max_length': 100}}}}}",
		    "{'safety': {'arg_limits': {'Bash': {'command':"
		    " {'max_length': 10}}}}}");
	is_int((long long)c->narg_limits, 2,
	       "arg_limits: appended (both are checked)");
	after = show(c);
	ok(after && strstr(after, "[{") != NULL,
	   "  two limits on one argument print as a list");
	free(after);
	config_free(c);

	c = layered("{'classifier': {'rules': [{'id': 'a', 'pattern': 'x',"
		    " 'severity': 'warning'}]}}",
		    "{'classifier': {'rules': [{'id': 'b', 'pattern': 'y',"
		    " 'severity': 'critical'}]}}");
	ok(c->classifier_rules_json &&
		   strstr(c->classifier_rules_json, "\"a\"") &&
		   strstr(c->classifier_rules_json, "\"b\""),
	   "classifier.rules: appended");
	config_free(c);
	c = config_new();
	load(c,
	     "{'classifier': {'rules': [{'id': 'a', 'pattern': 'x',"
	     " 'severity': 'warning'}]}}",
	     "u.json", CONFIG_USER);
	is_int(load(c,
		    "{'classifier': {'rules': [{'id': 'a', 'pattern': 'y',"
		    " 'severity': 'critical'}]}}",
		    "p.json", CONFIG_PROJECT),
	       CORDON_E_CONFIG,
	       "a project rule may not reuse a user rule's id");
	ok(strstr(last.message, "classifier.rules[0].id") != NULL,
	   "  named: %s", last.message);
	config_free(c);
}

static void test_project_ignored(void)
{
	static const struct {
		const char *json;
		const char *key;
	} cases[] = {
		{ "{'safety': {'read_only_paths': ['/']}}",
		  "safety.read_only_paths" },
		{ "{'safety': {'sandbox': {'local': {'allowed_env_vars':"
		  " ['AWS_SECRET_ACCESS_KEY']}}}}",
		  "safety.sandbox.local.allowed_env_vars" },
		{ "{'safety': {'sandbox': {'linux': {'workspace': '/'}}}}",
		  "safety.sandbox.linux.workspace" },
		{ "{'network': {'allowedDomains': ['evil.example']}}",
		  "network.allowedDomains" },
		{ "{'audit': {'path': '/dev/null'}}", "audit.path" },
		{ "{'audit': {'syslog': true}}", "audit.syslog" },
		{ "{'approvals': {'path': './approvals.json'}}",
		  "approvals.path" },
		{ "{'mcp': {'pins_path': './pins.json'}}", "mcp.pins_path" },
		{ "{'tools': {'Bash': {'kind': 'read'}}}", "tools" },
		{ "{'classifier': {'max_depth': 0}}", "classifier.max_depth" },
	};
	char want[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cordon_config *def = config_new();
		struct cordon_config *c = layered(NULL, cases[i].json);
		char *a = show(c), *b = show(def);

		snprintf(want, sizeof(want), IGNORED("%s"), cases[i].key);
		ok(has_warning(c, want), "project %s: ignored", cases[i].key);
		is_int((long long)c->nwarnings, 1, "  one warning");
		is_str(a, b, "  nothing changed");
		free(a);
		free(b);
		config_free(c);
		config_free(def);
	}
	/* The public API sees the same warnings. */
	{
		struct cordon_config *c =
			layered(NULL, "{'audit': {'syslog': true}}");

		is_int((long long)cordon_config_warning_count(c), 1,
		       "cordon_config_warning_count");
		is_str(cordon_config_warning(c, 0), IGNORED("audit.syslog"),
		       "cordon_config_warning");
		ok(cordon_config_warning(c, 1) == NULL, "past the end: NULL");
		config_free(c);
	}
}

/* ---- sources ------------------------------------------------------------ */

static void test_sources(void)
{
	struct cordon_config *c = config_new();
	char *s;
	cJSON *root, *src;

	load(c,
	     "{'safety': {'permission_mode': 'auto', 'denied_tools': ['A']}}",
	     "/home/u/.config/cordon/config.json", CONFIG_USER);
	load(c, "{'safety': {'denied_tools': ['B'], 'read_only': true}}",
	     "/w/.cordon/config.json", CONFIG_PROJECT);
	load(c, "{'approvals': {'timeout_s': 9}}", "x.json", CONFIG_EXPLICIT);
	config_flag_add(c, "safety.denied_tools", "C");
	config_flag_mode(c, CORDON_MODE_AUTO_EDITS);
	is_str(source_of(c, "safety.permission_mode"), "flag", "flag mode");
	is_str(source_of(c, "safety.denied_tools"),
	       "user:/home/u/.config/cordon/config.json + "
	       "project:/w/.cordon/config.json + flag",
	       "a list that three layers built");
	is_str(source_of(c, "safety.read_only"),
	       "project:/w/.cordon/config.json", "project");
	is_str(source_of(c, "approvals.timeout_s"), "config:x.json",
	       "--config");
	is_str(source_of(c, "audit.path"), "default", "untouched: default");
	load(c, "{'safety': {'denied_tools': ['D']}}", "/w/.cordon/config.json",
	     CONFIG_PROJECT);
	load(c, "{'safety': {'denied_tools': ['E']}}", "/w/.cordon/config.json",
	     CONFIG_PROJECT);
	is_str(source_of(c, "safety.denied_tools"),
	       "user:/home/u/.config/cordon/config.json + "
	       "project:/w/.cordon/config.json + flag + "
	       "project:/w/.cordon/config.json",
	       "the same contributor twice in a row is named once");

	s = config_to_json(c, true);
	root = s ? cJSON_Parse(s) : NULL;
	src = cJSON_GetObjectItemCaseSensitive(root, "sources");
	ok(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "config")),
	   "with sources: config");
	ok(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "warnings")),
	   "  warnings");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		       src, "approvals.timeout_s")),
	       "config:x.json", "  sources");
	{
		const cJSON *p = NULL, *it;
		bool sorted = true;
		size_t n = 0;

		cJSON_ArrayForEach (it, src) {
			if (p && strcmp(p->string, it->string) >= 0)
				sorted = false;
			p = it;
			n++;
		}
		ok(sorted, "  sorted by key");
		ok(n >= 36, "  a source for every leaf key (%zu)", n);
	}
	cJSON_Delete(root);
	free(s);
	config_free(c);
}

/* ---- Aar ---------------------------------------------------------------- */

static void test_aar(void)
{
	struct cordon_config *c = config_new(), *def = config_new();
	char *a, *b;

	is_int(load(c,
		    "{'provider': {'name': 'anthropic', 'model': 'x',"
		    " 'options': {'deep': [1, {'any': null}]}},"
		    " 'max_steps': 50, 'timeout': 'whatever'}",
		    "aar.json", CONFIG_USER),
	       CORDON_OK, "Aar's top-level keys are accepted");
	a = show(c);
	b = show(def);
	is_str(a, b, "  and ignored");
	free(a);
	config_free(c);

	c = config_new();
	is_int(load(c,
		    "{'provider': {'name': 'openai'}, 'max_steps': 30,"
		    " 'timeout': 300, 'safety': {'read_only': false,"
		    " 'require_approval_for_writes': false,"
		    " 'require_approval_for_execute': true,"
		    " 'denied_paths': null, 'allowed_paths': null,"
		    " 'read_only_paths': [], 'path_rules': [],"
		    " 'command_rules': [], 'denied_commands': null,"
		    " 'denied_command_patterns': null,"
		    " 'log_all_commands': true,"
		    " 'sandbox': {'mode': 'linux',"
		    " 'env_denylist_patterns': null,"
		    " 'local': {'restricted_env': true,"
		    " 'allowed_env_vars': null},"
		    " 'linux': {'workspace': null, 'max_memory_mb': 2048}}}}",
		    "aar.json", CONFIG_USER),
	       CORDON_OK, "an Aar-shaped config loads unchanged");
	if (last.code)
		diag("%s", last.message);
	is_int(c->sandbox_mode, CONFIG_SANDBOX_AUTO, "  linux = auto");
	is_int(c->require_approval_for_execute, CONFIG_TRUE, "  its values apply");
	is_int((long long)c->max_memory_mb, 2048, "  nested ones too");
	ok(c->denied_paths.n == DEFAULT_DENIED,
	   "  null: built-in denied paths");
	free(b);
	config_free(c);
	config_free(def);
}

static void test_sandbox_aliases(void)
{
	static const struct {
		const char *name;
		enum config_sandbox_mode mode;
		const char *printed;
	} cases[] = {
		{ "off", CONFIG_SANDBOX_OFF, "\"off\"" },
		{ "auto", CONFIG_SANDBOX_AUTO, "\"auto\"" },
		{ "strict", CONFIG_SANDBOX_STRICT, "\"strict\"" },
		{ "local", CONFIG_SANDBOX_OFF, "\"off\"" },
		{ "linux", CONFIG_SANDBOX_AUTO, "\"auto\"" },
	};
	char json[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cordon_config *c = config_new();
		char *s;
		char want[64];

		snprintf(json, sizeof(json),
			 "{'safety': {'sandbox': {'mode': '%s'}}}",
			 cases[i].name);
		load(c, json, "u", CONFIG_USER);
		is_int(c->sandbox_mode, cases[i].mode, cases[i].name);
		s = show(c);
		snprintf(want, sizeof(want), "\"mode\":\t%s", cases[i].printed);
		ok(s && strstr(s, want), "  printed as %s", cases[i].printed);
		free(s);
		config_free(c);
	}
}

/* ---- limits and files --------------------------------------------------- */

static char tmpdir[64];

static char *tmp_path(const char *name)
{
	static char buf[160];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static void write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, n, f) != n)
		diag("cannot write %s", path);
	if (f)
		fclose(f);
}

static void test_limits(void)
{
	struct cordon_config *c = config_new();
	size_t big = CONFIG_MAX_FILE_BYTES + 1;
	char *buf = malloc(big + 64);
	size_t n;

	/* 1 MiB of spaces after {} is a valid document, one byte too long. */
	memset(buf, ' ', big);
	buf[0] = '{';
	buf[1] = '}';
	is_int(config_apply_json(c, buf, big, "big.json", CONFIG_USER, &last),
	       CORDON_E_LIMIT, "a text over 1 MiB");
	is_str(last.message,
	       "big.json: input is larger than 1048576 bytes (limit)",
	       "  names the limit");
	is_int(config_apply_json(c, buf, big - 1, "big.json", CONFIG_USER, &last),
	       CORDON_OK, "exactly 1 MiB loads");
	write_file(tmp_path("big.json"), buf, big);
	is_int(config_apply_file(c, tmp_path("big.json"), CONFIG_USER, &last),
	       CORDON_E_LIMIT, "a file over 1 MiB");
	ok(strstr(last.message,
		  ": file is larger than 1048576 bytes (limit)") != NULL,
	   "  names the limit: %s", last.message);

	/* 4097 entries in a list. */
	n = (size_t)snprintf(buf, 64, "{\"safety\": {\"denied_tools\": [");
	for (int i = 0; i <= CONFIG_MAX_LIST; i++) {
		memcpy(buf + n, "\"a\",", 4);
		n += 4;
	}
	buf[n - 1] = ']';
	buf[n++] = '}';
	buf[n++] = '}';
	is_int(config_apply_json(c, buf, n, "l.json", CONFIG_USER, &last),
	       CORDON_E_LIMIT, "a list over 4096 entries");
	is_str(last.message,
	       "l.json: safety.denied_tools: more than 4096 "
	       "entries (limit)",
	       "  names the limit");

	/* A string of 4097 bytes. */
	n = (size_t)snprintf(buf, 64, "{\"audit\": {\"path\": \"");
	memset(buf + n, 'a', CONFIG_MAX_STRING + 1);
	n += CONFIG_MAX_STRING + 1;
	memcpy(buf + n, "\"}}", 3);
	n += 3;
	is_int(config_apply_json(c, buf, n, "s.json", CONFIG_USER, &last),
	       CORDON_E_LIMIT, "a string over 4096 bytes");
	is_str(last.message,
	       "s.json: audit.path: longer than 4096 bytes (limit)",
	       "  names the limit");

	/* Nesting deeper than cJSON allows. */
	n = 0;
	buf[n++] = '{';
	memcpy(buf + n, "\"provider\":", 11);
	n += 11;
	for (int i = 0; i < 1001; i++)
		buf[n++] = '[';
	for (int i = 0; i < 1001; i++)
		buf[n++] = ']';
	buf[n++] = '}';
	is_int(config_apply_json(c, buf, n, "d.json", CONFIG_USER, &last),
	       CORDON_E_LIMIT, "nesting over 1000");
	is_str(last.message,
	       "d.json: line 1, column 1012: nested deeper than 1000 (limit)",
	       "  names the limit");

	/* Adding past the limit. */
	{
		struct cordon_config *d = config_new();

		n = (size_t)snprintf(buf, 64,
				     "{\"safety\": {\"denied_tools\": [");
		for (int i = 0; i < CONFIG_MAX_LIST; i++)
			n += (size_t)snprintf(buf + n, 16, "\"t%d\",", i);
		buf[n - 1] = ']';
		buf[n++] = '}';
		buf[n++] = '}';
		is_int(config_apply_json(d, buf, n, "u", CONFIG_USER, &last),
		       CORDON_OK, "4096 entries load");
		is_int(load(d, "{'safety': {'denied_tools': ['new']}}", "p",
			    CONFIG_PROJECT),
		       CORDON_E_LIMIT, "one more from a project file");
		is_str(last.message,
		       "p: safety.denied_tools: more than 4096 "
		       "entries after adding (limit)",
		       "  names the limit");
		is_int(config_flag_add(d, "safety.denied_tools", "new"),
		       CORDON_E_LIMIT, "  and from a flag");
		config_free(d);
	}
	free(buf);
	config_free(c);
}

static void test_files(void)
{
	struct cordon_config *c = config_new();
	static const char good[] = "{\"safety\": {\"read_only\": true}}";

	is_int(config_apply_file(c, tmp_path("missing.json"), CONFIG_USER, &last),
	       CORDON_E_IO, "a missing file");
	is_int(last.sys_errno, ENOENT, "  ENOENT");
	ok(strstr(last.message, "missing.json: No such file or directory") !=
		   NULL,
	   "  message: %s", last.message);
	is_int(config_apply_file(c, tmpdir, CONFIG_USER, &last), CORDON_E_IO,
	       "a directory");
	ok(strstr(last.message, ": not a regular file") != NULL,
	   "  not a regular file");
	if (mkfifo(tmp_path("fifo"), 0600) == 0) {
		is_int(config_apply_file(c, tmp_path("fifo"), CONFIG_USER, &last),
		       CORDON_E_IO, "a FIFO is refused without hanging");
	} else {
		skip(1, "mkfifo failed");
	}
	write_file(tmp_path("real.json"), good, sizeof(good) - 1);
	{
		char target[160];

		snprintf(target, sizeof(target), "%s", tmp_path("real.json"));
		if (symlink(target, tmp_path("link.json")) != 0)
			diag("symlink: %s", strerror(errno));
	}
	is_int(config_apply_file(c, tmp_path("link.json"), CONFIG_USER, &last),
	       CORDON_OK, "a symlinked file is followed (dotfile managers)");
	ok(c->read_only, "  and applied");
	{
		char want[200];

		snprintf(want, sizeof(want), "user:%s", tmp_path("link.json"));
		is_str(source_of(c, "safety.read_only"), want,
		       "  the source names the path given");
	}
	write_file(tmp_path("bad.json"), "{\"x\": 1}", 8);
	is_int(config_apply_file(c, tmp_path("bad.json"), CONFIG_USER, &last),
	       CORDON_E_CONFIG, "a bad file");
	ok(strstr(last.message, "bad.json: x: unknown key") != NULL,
	   "  named by path: %s", last.message);
	is_int(cordon_config_load_file(c, tmp_path("real.json"),
				       CORDON_CONFIG_PROJECT, &last),
	       CORDON_OK, "cordon_config_load_file");
	is_int(cordon_config_load_file(c, tmp_path("real.json"),
				       (enum cordon_config_layer)9, &last),
	       CORDON_E_INVAL, "  an unknown layer");
	config_free(c);
}

/* ---- modes, flags and the tool map --------------------------------------- */

static void test_modes(void)
{
	struct cordon_config *c = config_new();

	load(c,
	     "{'safety': {'permission_mode': 'full-access',"
	     " 'max_permission_mode': 'auto'}}",
	     "u", CONFIG_USER);
	is_int(config_effective_mode(c), CORDON_MODE_AUTO,
	       "full-access clamped to the auto cap");
	load(c, "{'safety': {'permission_mode': 'auto-accept-edits'}}", "u",
	     CONFIG_USER);
	is_int(config_effective_mode(c), CORDON_MODE_AUTO_EDITS, "below the cap");
	is_int(config_flag_mode(c, CORDON_MODE_FULL_ACCESS), CORDON_OK,
	       "--mode full-access");
	is_int(config_effective_mode(c), CORDON_MODE_AUTO,
	       "  is still clamped by the cap");
	load(c, "{'safety': {'max_permission_mode': 'supervised'}}", "p",
	     CONFIG_PROJECT);
	is_int(config_effective_mode(c), CORDON_MODE_SUPERVISED,
	       "a project cap of supervised wins");
	is_int(config_flag_mode(c, (enum cordon_mode)7), CORDON_E_INVAL,
	       "an unknown mode");
	is_int(config_effective_mode(NULL), CORDON_MODE_SUPERVISED,
	       "NULL: supervised");
	config_free(c);
}

static void test_flags(void)
{
	struct cordon_config *c = config_new();

	is_int(config_flag_add(c, "safety.denied_paths", "**/*.db"), CORDON_OK,
	       "--deny-path");
	ok(c->denied_paths.n == DEFAULT_DENIED + 1,
	   "  extends the built-in list");
	is_int(config_flag_add(c, "safety.denied_paths", "**/*.db"), CORDON_OK,
	       "  twice");
	ok(c->denied_paths.n == DEFAULT_DENIED + 1, "  once");
	is_int(config_flag_add(c, "safety.denied_commands", "make deploy"),
	       CORDON_OK, "denied command flag");
	ok(!c->denied_commands_set && c->extra_denied_commands.n == 1,
	   "  an extra entry; the built-in list stays on");
	is_int(config_flag_add(c, "safety.denied_tools", "WebFetch"), CORDON_OK,
	       "denied tool flag");
	is_int(config_flag_add(c, "safety.read_only_paths", "/opt/**"), CORDON_OK,
	       "read-only path flag");
	ok(c->denied_tools.n == 1 && c->read_only_paths.n == 1, "  added");
	is_int(config_flag_add(c, "safety.allowed_paths", "/w/**"), CORDON_OK,
	       "allowed path flag");
	ok(c->allowed_paths_set && c->allowed_paths.n == 1, "  sets the list");
	is_str(source_of(c, "safety.allowed_paths"), "default + flag",
	       "  source");
	is_int(config_flag_add(c, "safety.permission_mode", "auto"),
	       CORDON_E_INVAL, "not a list flag");
	is_int(config_flag_add(c, "safety.denied_paths", ""), CORDON_E_INVAL,
	       "an empty value");
	is_int(config_flag_read_only(c), CORDON_OK, "--read-only");
	ok(c->read_only, "  on");
	is_str(source_of(c, "safety.read_only"), "flag", "  source");
	config_free(c);
}

static void test_tool_map(void)
{
	struct cordon_config *c = config_new();
	const struct config_tool *t = NULL;

	load(c,
	     "{'tools': {'Bash': {'kind': 'read', 'arg': ['cmd']},"
	     " 'mcp__github__*': {'kind': 'fetch'},"
	     " 'my_*': {'kind': 'delete', 'arg': 'target'}}}",
	     "u", CONFIG_USER);
	is_int(config_tool_kind(c, "Bash", &t), CORDON_KIND_READ,
	       "a user entry comes before the built-in one");
	ok(t && strcmp(t->args.v[0], "cmd") == 0, "  with its arguments");
	is_int(config_tool_kind(c, "mcp__github__create_issue", NULL),
	       CORDON_KIND_FETCH, "a user prefix before the mcp__* built-in");
	is_int(config_tool_kind(c, "mcp__slack__post", NULL), CORDON_KIND_MCP,
	       "other mcp__ tools keep the built-in");
	is_int(config_tool_kind(c, "my_rm", &t), CORDON_KIND_DELETE,
	       "names ending in * match by prefix");
	is_int(config_tool_kind(c, "my", NULL), CORDON_KIND_OTHER,
	       "  not shorter names");
	load(c,
	     "{'tools': {'my_*': {'kind': 'write'}, 'Other': {'kind':"
	     " 'mcp'}}}",
	     "e", CONFIG_EXPLICIT);
	is_int(config_tool_kind(c, "my_rm", NULL), CORDON_KIND_WRITE,
	       "a later file redefines a user entry");
	is_int(config_tool_kind(c, "Bash", NULL), CORDON_KIND_READ,
	       "  and keeps the others");
	is_int(config_tool_kind(c, "Other", NULL), CORDON_KIND_MCP,
	       "  adds new ones");
	is_str(source_of(c, "tools.Bash"), "user:u", "  sources per tool");
	is_str(source_of(c, "tools.my_*"), "config:e",
	       "  redefined: new source");
	config_free(c);
}

/* ---- JSON round trip ---------------------------------------------------- */

static void round_trip(struct cordon_config *c, const char *what)
{
	struct cordon_config *d = config_new();
	char *a = show(c), *b;
	enum cordon_err e =
		config_apply_json(d, a, strlen(a), "rt.json", CONFIG_EXPLICIT, &last);

	is_int(e, CORDON_OK, what);
	if (e)
		diag("%s", last.message);
	b = show(d);
	is_str(b, a, "  prints the same after loading back");
	free(a);
	free(b);
	config_free(d);
}

static void test_round_trip(void)
{
	struct cordon_config *c = config_new();

	round_trip(c, "defaults");
	load(c, full_config, "full.json", CONFIG_USER);
	round_trip(c, "every key");
	load(c,
	     "{'safety': {'denied_paths': ['x'], 'path_rules':"
	     " [{'pattern': 'p', 'decision': 'deny'}], 'denied_commands':"
	     " ['make deploy'], 'arg_limits': {'Bash': {'command':"
	     " {'max_length': 8}}, 'Write': {'content': {'max_length': 1e6}}},"
	     " 'permission_mode': 'supervised'},"
	     " 'classifier': {'rules': [{'id': 'p', 'pattern': 'q',"
	     " 'severity': 'critical'}]}}",
	     "p.json", CONFIG_PROJECT);
	round_trip(c, "after a project file");
	config_flag_add(c, "safety.denied_commands", "reboot");
	config_flag_add(c, "safety.read_only_paths", "/r");
	round_trip(c, "after flags");
	config_free(c);

	c = config_new();
	load(c,
	     "{'safety': {'require_approval_for_writes': false,"
	     " 'allowed_tools': [], 'allowed_paths': [],"
	     " 'denied_commands': [], 'arg_limits': {'T': {'a': [{'choices':"
	     " []}, {'min_value': -1.25}]}}},"
	     " 'tools': {'Bash': {'kind': 'other'}}}",
	     "u", CONFIG_USER);
	round_trip(c, "empty lists, a shadowed built-in tool");
	config_free(c);
}

/* ---- the public API ----------------------------------------------------- */

static void test_public_api(void)
{
	struct cordon_config *c = cordon_config_new();
	const char json[] = "{\"safety\": {\"denied_tools\": [\"X\"]}}";
	char *a, *b;

	ok(c != NULL, "cordon_config_new");
	is_int(cordon_config_load_json(c, json, sizeof(json) - 1, "api.json",
				       CORDON_CONFIG_USER, &last),
	       CORDON_OK, "cordon_config_load_json");
	is_int(cordon_config_load_json(c, json, sizeof(json) - 1, "api.json",
				       (enum cordon_config_layer)0, &last),
	       CORDON_E_INVAL, "  an unknown layer");
	a = cordon_config_to_json(c, 0);
	b = config_to_json(c, false);
	is_str(a, b, "cordon_config_to_json");
	ok(a && strstr(a, "\"X\""), "  has the value");
	free(a);
	free(b);
	a = cordon_config_to_json(c, 1);
	ok(a && strstr(a, "\"sources\"") && strstr(a, "user:api.json"),
	   "  with sources");
	free(a);
	is_int((long long)cordon_config_warning_count(NULL), 0,
	       "warning count of NULL");
	ok(cordon_config_warning(NULL, 0) == NULL, "warning of NULL");
	ok(cordon_config_to_json(NULL, 0) == NULL, "to_json of NULL");
	cordon_config_free(c);
	cordon_config_free(NULL);
}

int main(void)
{
	const char *t = getenv("TMPDIR");

	tap_no_plan();
	snprintf(tmpdir, sizeof(tmpdir), "%s/cfgtest.XXXXXX",
		 t && t[0] == '/' && strlen(t) < 40 ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		diag("mkdtemp: %s", strerror(errno));
		return 1;
	}
	test_defaults();
	test_default_tools();
	test_every_key();
	test_unknown_keys();
	test_wrong_types();
	test_syntax_errors();
	test_atomic();
	test_null_list_empty();
	test_project_scalars();
	test_project_lists();
	test_project_ignored();
	test_sources();
	test_aar();
	test_sandbox_aliases();
	test_limits();
	test_files();
	test_modes();
	test_flags();
	test_tool_map();
	test_round_trip();
	test_public_api();

	static const char *const leftovers[] = { "big.json", "fifo",
						 "real.json", "link.json",
						 "bad.json" };
	for (size_t i = 0; i < sizeof(leftovers) / sizeof(leftovers[0]); i++)
		unlink(tmp_path(leftovers[i]));
	rmdir(tmpdir);
	return tap_done();
}
