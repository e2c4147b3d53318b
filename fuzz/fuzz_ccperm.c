/* Fuzz target: Claude Code permission rules (ccperm.h).
 *
 * The input is read three ways:
 *   1. as lines: "a RULE", "k RULE" and "d RULE" go to the allow, ask and
 *      deny lists, every other line is a call; the lists are compiled and
 *      each call is decided as a Bash command, a Read path, a Glob
 *      pattern, a WebFetch URL and a tool name. A failed compile leaves a
 *      terminated, non-empty message; a decision is one of the four
 *      values, the same when asked twice, DENY whenever the deny list holds
 *      a bare "Bash" (for Bash calls), and never ALLOW when no allow rule
 *      exists;
 *   2. the whole input as one command against fixed rules;
 *   3. the whole input as Claude Code settings and as srt settings: an
 *      import that succeeds must load as a cordon configuration, and the
 *      imported rules must compile.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ccperm.h"
#include "import.h"
#include "config.h"
#include "cordon.h"
#include "fuzz.h"

#include "banned.h"

#define MAX_RULES 48
#define MAX_CALLS 12

static void check_why(const char *why, size_t cap)
{
	if (!memchr(why, '\0', cap))
		abort();
}

static int decide(const struct ccperm_set *s, const char *tool, const char *key,
		  const char *val)
{
	cJSON *args = cJSON_CreateObject();
	char why[256], why2[256];
	int v, v2;

	if (!args)
		abort();
	if (key && !cJSON_AddStringToObject(args, key, val))
		abort();
	v = ccperm_decide(s, tool, args, "/home/u/proj", why, sizeof(why));
	v2 = ccperm_decide(s, tool, args, "/home/u/proj", why2, sizeof(why2));
	check_why(why, sizeof(why));
	if (v != v2 || strcmp(why, why2) != 0)
		abort();
	if (v != -1 && v != CORDON_ALLOW && v != CORDON_DENY && v != CORDON_ASK)
		abort();
	cJSON_Delete(args);
	return v;
}

static bool has_rule(const struct strlist *l, const char *r)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], r) == 0)
			return true;
	return false;
}

static void lines(const char *text)
{
	char *copy = strdup(text), *save = NULL, *line;
	char *rules[3][MAX_RULES];
	struct strlist lists[3];
	const char *calls[MAX_CALLS];
	size_t ncalls = 0;
	struct ccperm_set *s = NULL;
	struct cordon_diag d;
	enum cordon_err rc;

	if (!copy)
		abort();
	for (int l = 0; l < 3; l++) {
		lists[l].v = rules[l];
		lists[l].n = 0;
	}
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int l = -1;

		if (line[0] && line[1] == ' ')
			l = line[0] == 'a' ? 0 :
			    line[0] == 'k' ? 1 :
			    line[0] == 'd' ? 2 :
					     -1;
		if (l >= 0 && lists[l].n < MAX_RULES)
			rules[l][lists[l].n++] = line + 2;
		else if (l < 0 && ncalls < MAX_CALLS)
			calls[ncalls++] = line;
	}
	memset(&d, 0, sizeof(d));
	rc = ccperm_compile(&lists[0], &lists[1], &lists[2], "/home/u/proj",
			    "/home/u", &s, &d);
	if (rc != CORDON_OK) {
		if (s || !memchr(d.message, '\0', sizeof(d.message)) ||
		    !d.message[0])
			abort();
		free(copy);
		return;
	}
	for (size_t i = 0; i < ncalls; i++) {
		int v = decide(s, "Bash", "command", calls[i]);

		if (has_rule(&lists[2], "Bash") && v != CORDON_DENY)
			abort();
		if (lists[0].n == 0 && v == CORDON_ALLOW)
			abort();
		v = decide(s, "Read", "file_path", calls[i]);
		if (lists[0].n == 0 && v == CORDON_ALLOW)
			abort();
		(void)decide(s, "Glob", "pattern", calls[i]);
		(void)decide(s, "WebFetch", "url", calls[i]);
		(void)decide(s, calls[i], NULL, NULL);
	}
	ccperm_free(s);
	free(copy);
}

static void one_command(const char *text)
{
	static struct ccperm_set *fixed;
	static char *allow[] = { "Bash(ls *)", "Bash(git status:*)",
				 "Bash(echo *)", "Bash(npm test)" };
	static char *ask[] = { "Bash(git push:*)" };
	static char *deny[] = { "Bash(rm:*)", "Bash(curl * | sh)" };
	struct cordon_diag d;

	if (!fixed) {
		struct strlist a = { allow, 4 }, k = { ask, 1 },
				   n = { deny, 2 };

		if (ccperm_compile(&a, &k, &n, NULL, "/home/u", &fixed, &d))
			abort();
	}
	(void)decide(fixed, "Bash", "command", text);
}

static void load_or_abort(const char *doc)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_diag d;

	if (!cfg)
		abort();
	if (cordon_config_load_json(cfg, doc, strlen(doc), "fuzz",
				    CORDON_CONFIG_EXPLICIT, &d) != CORDON_OK)
		abort();
	cordon_config_free(cfg);
}

/* The imported rules compile: they were validated by the importer. */
static void compile_imported(const char *doc)
{
	cJSON *j = cJSON_Parse(doc);
	const cJSON *p = cJSON_GetObjectItem(j, "permissions");
	static const char *const keys[] = { "allow", "ask", "deny" };
	struct strlist lists[3];
	struct ccperm_set *s = NULL;
	struct cordon_diag d;

	if (!j)
		abort();
	for (int l = 0; l < 3; l++) {
		const cJSON *arr = cJSON_GetObjectItem(p, keys[l]), *it;
		size_t n = 0;

		lists[l].n = 0;
		lists[l].v = calloc((size_t)cJSON_GetArraySize(arr) + 1,
				    sizeof(char *));
		if (!lists[l].v)
			abort();
		cJSON_ArrayForEach (it, arr)
			lists[l].v[n++] = it->valuestring;
		lists[l].n = n;
	}
	if (ccperm_compile(&lists[0], &lists[1], &lists[2], NULL, "/home/u", &s,
			   &d) != CORDON_OK)
		abort();
	ccperm_free(s);
	for (int l = 0; l < 3; l++)
		free(lists[l].v);
	cJSON_Delete(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char *out = NULL, *warn = NULL;
	struct cordon_diag d;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';

	lines(text);
	one_command(text);

	if (import_claude_settings((const char *)data, size,
				 "/home/u/proj/.claude/settings.json", &out,
				 &warn, &d) == CORDON_OK) {
		load_or_abort(out);
		compile_imported(out);
	} else if (out || !d.message[0]) {
		abort();
	}
	free(out);
	free(warn);
	out = warn = NULL;
	if (import_srt_settings((const char *)data, size, &out, &warn, &d) ==
	    CORDON_OK)
		load_or_abort(out);
	else if (out || !d.message[0])
		abort();
	free(out);
	free(warn);
	free(text);
	return 0;
}
