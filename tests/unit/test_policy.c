/* The policy decision tables: every tests/cases/policy/NAME.json
 * ($CORDON_SOURCE_ROOT, else found relative to this file), doas style.
 *
 * A table is one JSON object:
 *
 *	{"about": "what the table proves",
 *	 "config": {...},           the --config layer (optional)
 *	 "project": {...},          a project layer applied after it (optional)
 *	 "workspace": "/home/user/project", "home": "/home/user",
 *	 "sandbox_enforces_writes": true,          (optional)
 *	 "calls": [
 *	   {"tool": "Read", "args": {"file_path": "/x"}, "cwd": "/w",
 *	    "mode": "auto",          a --mode flag for this call (optional)
 *	    "decision": "deny", "step": "denied_paths",
 *	    "hard": true,            (optional)
 *	    "reason_has": "denied path", (optional) a substring of the reason
 *	    "risk": "destructive",   (optional) shell calls
 *	    "note": "why"}]}
 *
 * Each call is evaluated with a fresh configuration and policy (so "mode"
 * stays with its row) through cordon_policy_evaluate(): the pure steps, no
 * approvals. One TAP result per call; unknown keys fail the row so a typo
 * cannot make a row pass silently.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "cordon.h"
#include "policy.h"
#include "table.h"
#include "tap.h"

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int known_keys(const cJSON *o, const char *const *keys)
{
	for (const cJSON *k = o->child; k; k = k->next) {
		int found = 0;
		for (size_t i = 0; keys[i]; i++)
			if (strcmp(k->string, keys[i]) == 0)
				found = 1;
		if (!found) {
			diag("unknown key '%s'", k->string);
			return 0;
		}
	}
	return 1;
}

static void run_call(const char *file, size_t idx, const cJSON *table,
		     const cJSON *c)
{
	static const char *const call_keys[] = {
		"tool", "args", "cwd", "mode", "decision", "step", "hard",
		"reason_has", "risk", "note", "schema", NULL};
	const char *tool = str_of(c, "tool");
	const char *want = str_of(c, "decision");
	const char *step = str_of(c, "step");
	const char *mode = str_of(c, "mode");
	const char *reason_has = str_of(c, "reason_has");
	const char *want_risk = str_of(c, "risk");
	const cJSON *hard = cJSON_GetObjectItemCaseSensitive(c, "hard");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(c, "args");
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(c, "schema");
	const cJSON *cfgj = cJSON_GetObjectItemCaseSensitive(table, "config");
	const cJSON *projj = cJSON_GetObjectItemCaseSensitive(table, "project");
	const cJSON *enf = cJSON_GetObjectItemCaseSensitive(
		table, "sandbox_enforces_writes");
	struct cordon_diag d = {0};
	struct cordon_config *cfg = NULL;
	struct cordon_policy *pol = NULL;
	struct cordon_result *r = NULL;
	char *args_text = NULL, *schema_text = NULL, *t = NULL;
	char name[600];

	snprintf(name, sizeof(name), "%s[%zu] %s %s -> %s%s%s", file, idx,
		 tool ? tool : "?", args ? "" : "", want ? want : "?",
		 step ? " at " : "", step ? step : "");
	if (!tool || !want || !known_keys(c, call_keys)) {
		ok(0, "%s: malformed row (needs tool, decision)", name);
		return;
	}
	if (step && policy_step_from_name(step) < 0) {
		ok(0, "%s: \"%s\" is no step (src/policy/steps.def)", name,
		   step);
		return;
	}
	cfg = config_new();
	if (!cfg) {
		ok(0, "%s: out of memory", name);
		return;
	}
	if (cfgj) {
		t = cJSON_PrintUnformatted(cfgj);
		if (config_apply_json(cfg, t, strlen(t), "table-config", CONFIG_EXPLICIT,
				   &d) != CORDON_OK) {
			ok(0, "%s: config: %s", name, d.message);
			goto out;
		}
		free(t);
		t = NULL;
	}
	if (projj) {
		t = cJSON_PrintUnformatted(projj);
		if (config_apply_json(cfg, t, strlen(t), "table-project",
				   CONFIG_PROJECT, &d) != CORDON_OK) {
			ok(0, "%s: project: %s", name, d.message);
			goto out;
		}
		free(t);
		t = NULL;
	}
	if (mode && config_flag_mode(cfg, (enum cordon_mode)cordon_mode_from_name(
					       mode)) != CORDON_OK) {
		ok(0, "%s: bad mode %s", name, mode);
		goto out;
	}
	struct cordon_context ctx = {
		.workspace = str_of(table, "workspace"),
		.home = str_of(table, "home"),
		.tmpdir = "/tmp",
	};
	if (!ctx.workspace)
		ctx.workspace = "/home/user/project";
	if (!ctx.home)
		ctx.home = "/home/user";
	if (cordon_policy_new(cfg, &ctx, &pol, &d) != CORDON_OK) {
		ok(0, "%s: policy: %s", name, d.message);
		goto out;
	}
	if (enf)
		cordon_policy_set_sandbox_enforces_writes(pol, cJSON_IsTrue(enf));
	if (args)
		args_text = cJSON_PrintUnformatted(args);
	if (schema)
		schema_text = cJSON_PrintUnformatted(schema);
	struct cordon_call call = {
		.tool = tool,
		.args_json = args_text,
		.cwd = str_of(c, "cwd"),
		.schema_json = schema_text,
	};
	r = cordon_result_new();
	if (!r || cordon_policy_evaluate(pol, &call, r, &d) != CORDON_OK) {
		ok(0, "%s: evaluate failed", name);
		goto out;
	}
	const char *got = cordon_decision_name(cordon_result_decision(r));
	int pass = strcmp(got, want) == 0;
	if (step && strcmp(cordon_result_step(r), step) != 0)
		pass = 0;
	if (hard && cJSON_IsTrue(hard) != (cordon_result_hard(r) != 0))
		pass = 0;
	if (reason_has && !strstr(cordon_result_reason(r), reason_has))
		pass = 0;
	if (want_risk &&
	    (cordon_result_risk(r) < 0 ||
	     strcmp(cordon_risk_name((enum cordon_risk)cordon_result_risk(r)),
		    want_risk) != 0))
		pass = 0;
	/* A denial is text an agent can read. */
	if (cordon_result_decision(r) == CORDON_DENY &&
	    strncmp(cordon_result_reason(r), "blocked: ", 9) != 0 &&
	    strncmp(cordon_result_reason(r), "validation error: ", 18) != 0)
		pass = 0;
	if (!ok(pass, "%s", name)) {
		diag("got %s at %s (hard %d, risk %d): %s", got,
		     cordon_result_step(r), cordon_result_hard(r),
		     cordon_result_risk(r), cordon_result_reason(r));
		const char *note = str_of(c, "note");
		if (note)
			diag("note: %s", note);
	}
out:
	free(t);
	free(args_text);
	free(schema_text);
	cordon_result_free(r);
	cordon_policy_free(pol);
	config_free(cfg);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every step has one name and the name leads back to it. */
static void check_step_names(void)
{
	for (int i = 0; i < POLICY_STEP__COUNT; i++) {
		const char *s = policy_step_name((enum policy_step)i);
		ok(policy_step_from_name(s) == i, "step %d is called %s", i, s);
	}
	is_int(policy_step_from_name("no_such_step"), -1, "an unknown name");
	is_str(policy_step_name(POLICY_STEP__COUNT), "unknown", "past the end");
}

int main(void)
{
	static const char *const table_keys[] = {
		"about", "config", "project", "workspace", "home",
		"sandbox_enforces_writes", "calls", NULL};
	char dir[4096], path[4600];
	struct dirent **ents;
	int n;

	tap_no_plan();
	check_step_names();
	table_path(dir, sizeof(dir), "cases/policy");
	n = scandir(dir, &ents, NULL, by_name);
	if (n < 0) {
		ok(0, "cannot read %s", dir);
		return tap_done();
	}
	size_t tables = 0;
	for (int i = 0; i < n; i++) {
		const char *f = ents[i]->d_name;
		size_t fl = strlen(f);
		if (fl < 6 || strcmp(f + fl - 5, ".json") != 0) {
			free(ents[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, f);
		char *text = table_read(path, NULL);
		cJSON *t = text ? cJSON_Parse(text) : NULL;
		const cJSON *calls = cJSON_GetObjectItemCaseSensitive(t, "calls");
		if (!t || !cJSON_IsArray(calls) || !known_keys(t, table_keys)) {
			ok(0, "%s: not a policy table", f);
		} else {
			size_t k = 0;
			const cJSON *c;
			tables++;
			cJSON_ArrayForEach(c, calls)
				run_call(f, k++, t, c);
		}
		cJSON_Delete(t);
		free(text);
		free(ents[i]);
	}
	free(ents);
	ok(tables >= 5, "at least five policy tables were read (%zu)", tables);
	return tap_done();
}
