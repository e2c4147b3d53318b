/* The sandbox's environment filter: the default allow-list, the deny-list
 * that beats any allow-list, case-insensitive globs, the allow-list off,
 * extra variables from the C API host, malformed entries.
 */
#include <stdbool.h>
#include <string.h>

#include "envfilter.h"
#include "tap.h"

/* The value of name in env ("NAME=value" entries), or NULL. */
static const char *get(char **env, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; env && env[i]; i++)
		if (strncmp(env[i], name, n) == 0 && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

static size_t count(char **env)
{
	size_t n = 0;

	while (env && env[n])
		n++;
	return n;
}

static char *host_env[] = {
	"PATH=/usr/bin:/bin",
	"HOME=/home/u",
	"LC_ALL=C.UTF-8",
	"lc_ctype=fr_FR", /* LC_* matches case-insensitively */
	"TERM=xterm",
	"FOO=bar",
	"OPENAI_API_KEY=sk-1",
	"GITHUB_TOKEN=ghp_1",
	"github_token=ghp_2",
	"MY_SECRET_X=s",
	"DB_PASSWORD=p",
	"AWS_REGION=eu-west-1",
	"GOOGLE_APPLICATION_CREDENTIALS=/k.json",
	"NOEQUALS",
	"=emptyname",
	"EMPTY=",
	"PATHOLOGICAL=1",
	NULL,
};

static void test_defaults(void)
{
	char **env = envfilter_build(host_env, envfilter_default_allow(), NULL, NULL);

	ok(env != NULL, "defaults: built");
	is_str(get(env, "PATH"), "/usr/bin:/bin", "defaults keep PATH");
	is_str(get(env, "HOME"), "/home/u", "defaults keep HOME");
	is_str(get(env, "LC_ALL"), "C.UTF-8", "defaults keep LC_ALL (LC_*)");
	is_str(get(env, "lc_ctype"), "fr_FR",
	       "the allow-list glob is case-insensitive");
	is_str(get(env, "TERM"), "xterm", "defaults keep TERM");
	ok(get(env, "FOO") == NULL, "defaults drop FOO");
	ok(get(env, "PATHOLOGICAL") == NULL,
	   "PATH does not match PATHOLOGICAL (whole-name match)");
	ok(get(env, "OPENAI_API_KEY") == NULL, "defaults drop OPENAI_API_KEY");
	is_int((long long)count(env), 5, "exactly the five allowed remain");
	envfilter_free(env);
}

static void test_deny_beats_allow(void)
{
	char *star[] = { "*" };
	struct strlist all = { star, 1 };
	static const char *const denied[] = {
		"OPENAI_API_KEY",
		"GITHUB_TOKEN",
		"github_token",
		"MY_SECRET_X",
		"DB_PASSWORD",
		"AWS_REGION",
		"GOOGLE_APPLICATION_CREDENTIALS",
	};
	char **env = envfilter_build(host_env, &all, envfilter_default_deny(), NULL);

	ok(env != NULL, "allow *: built");
	for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		ok(get(env, denied[i]) == NULL,
		   "an allow-list of \"*\" still drops %s", denied[i]);
	is_str(get(env, "FOO"), "bar", "allow *: FOO is kept");
	is_str(get(env, "EMPTY"), "", "an empty value is kept as it is");
	ok(get(env, "NOEQUALS") == NULL && get(env, "") == NULL,
	   "malformed entries (no '=', empty name) are dropped");
	is_int((long long)count(env), 8, "allow *: the eight clean entries");
	envfilter_free(env);

	/* deny NULL means the default deny-list, not none. */
	env = envfilter_build(host_env, &all, NULL, NULL);
	ok(env && get(env, "GITHUB_TOKEN") == NULL &&
		   get(env, "AWS_REGION") == NULL,
	   "deny NULL applies the default deny-list");
	envfilter_free(env);
}

static void test_allow_off(void)
{
	struct strlist none = { NULL, 0 };
	char **env = envfilter_build(host_env, NULL, NULL, NULL);

	ok(env != NULL, "allow-list off: built");
	is_str(get(env, "FOO"), "bar", "allow-list off keeps FOO");
	ok(get(env, "github_token") == NULL,
	   "allow-list off still drops github_token (case-insensitive deny)");
	ok(get(env, "DB_PASSWORD") == NULL,
	   "allow-list off still drops DB_PASSWORD");
	envfilter_free(env);

	env = envfilter_build(host_env, NULL, &none, NULL);
	is_str(get(env, "GITHUB_TOKEN"), "ghp_1",
	       "an empty deny-list turns the deny-list off");
	is_int((long long)count(env), 15,
	       "both lists off: every well-formed entry");
	envfilter_free(env);
}

static void test_extra(void)
{
	char *extra[] = { "FOO=from-host", "CORDON_SESSION=42",
			  "OPENAI_API_KEY=passed-on-purpose", "BROKEN", NULL };
	char **env = envfilter_build(host_env, envfilter_default_allow(), NULL, extra);
	size_t n = count(env);

	ok(env != NULL, "extra: built");
	is_str(get(env, "FOO"), "from-host",
	       "extra is appended even when the allow-list drops the name");
	is_str(get(env, "OPENAI_API_KEY"), "passed-on-purpose",
	       "extra is not filtered by the deny-list");
	is_str(get(env, "CORDON_SESSION"), "42", "extra adds new names");
	ok(n >= 3 &&
		   strcmp(env[n - 1], "OPENAI_API_KEY=passed-on-purpose") == 0,
	   "extra comes last, in order");
	ok(get(env, "BROKEN") == NULL, "a malformed extra entry is dropped");
	envfilter_free(env);

	{
		char *home[] = { "HOME=/sandbox/home", NULL };

		env = envfilter_build(host_env, envfilter_default_allow(), NULL, home);
		is_str(get(env, "HOME"), "/sandbox/home",
		       "extra overrides a same-named kept variable");
		is_int((long long)count(env), 5,
		       "the overridden variable appears once");
		envfilter_free(env);
	}
}

static void test_globs(void)
{
	ok(envfilter_name_matches("*_TOKEN", "github_token"),
	   "*_TOKEN matches github_token");
	ok(envfilter_name_matches("*SECRET*", "SECRET"), "*SECRET* matches SECRET");
	ok(envfilter_name_matches("LC_?", "lc_x"), "? matches one character");
	ok(!envfilter_name_matches("LC_?", "LC_XY"), "? matches only one");
	ok(!envfilter_name_matches("AWS_*", "MY_AWS_KEY"), "globs are anchored");
	ok(envfilter_name_matches("*", ""), "* matches the empty name");
	ok(envfilter_name_matches("a*b*c*d*e", "aXbXcXdXe"), "several stars");
	ok(!envfilter_name_matches("*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
	   "no match without blow-up");
}

int main(void)
{
	tap_no_plan();
	test_defaults();
	test_deny_beats_allow();
	test_allow_off();
	test_extra();
	test_globs();
	is_int((long long)envfilter_default_deny()->n, 6, "six default deny globs");
	envfilter_free(NULL);
	return tap_done();
}
