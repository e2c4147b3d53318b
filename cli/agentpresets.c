/* agentpresets — `cordon run --agent …` (see agentpresets.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "agentpresets.h"
#include "cli.h"
#include "config.h"
#include "envfilter.h"
#include "runopts.h"
#include "sandbox.h"

#include "banned.h"

enum {
	OPT_AGENT = CLI_RUNOPTS_HELP + 1,
	OPT_PASS_ENV,
	OPT_JSON,
};

/* What each agent needs, from its own documentation and packages: where
 * it keeps state and credentials (Claude Code: ~/.claude with
 * .credentials.json, and ~/.claude.json; Gemini CLI: ~/.gemini with
 * oauth_creds.json; Codex CLI: ~/.codex with auth.json), the hosts its
 * model API and sign-in use, and the variables that are its own
 * configuration rather than secrets. */
static const struct preset {
	const char *name;
	const char *dir_env;	       /* overrides the state directory */
	const char *state[3];	       /* under $HOME */
	const char *hosts[6];
	const char *base_url_env;
	const char *env[8];	       /* passed when set, if not denied */
} presets[] = {
	{ "claude",
	  "CLAUDE_CONFIG_DIR",
	  { ".claude", ".claude.json", NULL },
	  { "api.anthropic.com", "console.anthropic.com",
	    "statsig.anthropic.com", NULL },
	  "ANTHROPIC_BASE_URL",
	  { "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL",
	    "ANTHROPIC_SMALL_FAST_MODEL", "CLAUDE_CONFIG_DIR",
	    "DISABLE_AUTOUPDATER", "DISABLE_TELEMETRY", NULL } },
	{ "gemini",
	  NULL,
	  { ".gemini", NULL },
	  { "generativelanguage.googleapis.com", "cloudcode-pa.googleapis.com",
	    "oauth2.googleapis.com", "www.googleapis.com",
	    "play.googleapis.com", NULL },
	  "GOOGLE_GEMINI_BASE_URL",
	  { "GOOGLE_GEMINI_BASE_URL", "GEMINI_MODEL", "GOOGLE_CLOUD_PROJECT",
	    "GOOGLE_CLOUD_LOCATION", "GEMINI_CLI_NO_RELAUNCH", NULL } },
	{ "codex",
	  "CODEX_HOME",
	  { ".codex", NULL },
	  { "api.openai.com", "chatgpt.com", "auth.openai.com", NULL },
	  "OPENAI_BASE_URL",
	  { "OPENAI_BASE_URL", "CODEX_HOME", NULL } },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const struct option *cli_preset_longopts(void)
{
	static struct option all[128];
	static const struct option ours[] = {
		{ "agent", required_argument, NULL, OPT_AGENT },
		{ "pass-env", required_argument, NULL, OPT_PASS_ENV },
		{ "json", no_argument, NULL, OPT_JSON },
	};
	size_t n = 0;

	if (all[0].name)
		return all;
	while (cli_runopts_longopts[n].name &&
	       n < sizeof(all) / sizeof(all[0]) - 4) {
		all[n] = cli_runopts_longopts[n];
		n++;
	}
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		all[n++] = ours[i];
	return all;
}

bool cli_preset_owns(int c)
{
	return c == OPT_AGENT || c == OPT_PASS_ENV || c == OPT_JSON;
}

static const struct preset *find(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

/* A variable name as the shell spells one. */
static bool env_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

int cli_preset_option(struct cli_preset *p, struct cli_runopts *r, int c,
		      const char *arg)
{
	switch (c) {
	case OPT_AGENT:
		if (!find(arg))
			return cli_runopts_usage_error(
				r, "--agent: '%s' is not claude, gemini or "
				   "codex",
				arg);
		p->agent = arg;
		return 0;
	case OPT_PASS_ENV:
		if (!env_name(arg))
			return cli_runopts_usage_error(
				r, "--pass-env: '%s' is not a variable name "
				   "(give the name, not NAME=value)",
				arg);
		if (p->npass == CLI_PRESET_MAX_ENV)
			return cli_runopts_usage_error(
				r, "--pass-env: more than %d names",
				CLI_PRESET_MAX_ENV);
		p->pass[p->npass++] = arg;
		return 0;
	case OPT_JSON:
		p->json = true;
		return 0;
	}
	return cli_runopts_usage_error(r, "unknown option");
}

/* Applies one of cli_runopts_longopts by its name, as if given. */
static int runopt(struct cli_runopts *r, const char *name, const char *arg)
{
	for (size_t i = 0; cli_runopts_longopts[i].name; i++)
		if (strcmp(cli_runopts_longopts[i].name, name) == 0)
			return cli_runopts_option(r, cli_runopts_longopts[i].val,
						  arg);
	return cli_runopts_usage_error(r, "no option --%s", name);
}

/* "https://h:1/x" -> "h:1" (IPv6 literals keep their brackets). */
static int url_host(const char *url, char *out, size_t cap)
{
	const char *s = strstr(url, "://"), *e;

	if (!s)
		return -1;
	s += 3;
	e = s + strcspn(s, "/?#");
	if (memchr(s, '@', (size_t)(e - s)))
		s = (const char *)memchr(s, '@', (size_t)(e - s)) + 1;
	if (e == s || (size_t)(e - s) >= cap)
		return -1;
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return 0;
}

int cli_preset_apply(struct cli_preset *p, struct cli_runopts *r)
{
	const struct preset *ps = p->agent ? find(p->agent) : NULL;
	const char *home = getenv("HOME"), *dir, *base;
	size_t np = 0;
	int rc;

	if (!ps)
		return 0;
	if (p->json)
		return cli_runopts_usage_error(r, "--json is for --probe");
	dir = ps->dir_env ? getenv(ps->dir_env) : NULL;
	if (dir && dir[0] == '/') {
		snprintf(p->paths[np], sizeof(p->paths[np]), "%s", dir);
		np++;
	} else if (home && home[0] == '/') {
		for (size_t i = 0; ps->state[i] && np < 4; i++) {
			struct stat st;

			if (snprintf(p->paths[np], sizeof(p->paths[np]),
				     "%s/%s", home,
				     ps->state[i]) >= (int)sizeof(p->paths[np]))
				continue;
			/* A missing state directory is made now, so that the
			 * agent's first run can keep what it writes; a
			 * missing file is left to the agent. */
			if (stat(p->paths[np], &st) != 0) {
				if (strchr(ps->state[i], '.') == ps->state[i] &&
				    !strstr(ps->state[i], ".json") &&
				    mkdir(p->paths[np], 0700) != 0)
					continue;
				if (strstr(ps->state[i], ".json"))
					continue;
			}
			np++;
		}
	} else {
		return cli_runopts_usage_error(
			r, "--agent %s: HOME is not an absolute path", ps->name);
	}
	for (size_t i = 0; i < np; i++) {
		rc = runopt(r, "write", p->paths[i]);
		if (rc)
			return rc;
	}
	/* The user's choice of network wins over the preset's. */
	if (r->network_set || r->nhosts)
		return 0;
	for (size_t i = 0; ps->hosts[i]; i++) {
		rc = runopt(r, "allow-host", ps->hosts[i]);
		if (rc)
			return rc;
	}
	base = getenv(ps->base_url_env);
	if (base && url_host(base, p->base_host, sizeof(p->base_host)) == 0) {
		rc = runopt(r, "allow-host", p->base_host);
		if (rc)
			return rc;
	}
	return 0;
}

static bool denied(const struct cli_runopts *r, const char *name)
{
	const struct strlist *d = r->sbx.env_deny ? r->sbx.env_deny :
						    envfilter_default_deny();

	for (size_t i = 0; i < d->n; i++)
		if (envfilter_name_matches(d->v[i], name))
			return true;
	return false;
}

static int add_env(struct cli_preset *p, struct cli_runopts *r,
		   const char *name)
{
	const char *v = getenv(name);
	size_t ln = strlen(name);
	char *e;

	for (size_t i = 0; i < p->nenv; i++)
		if (strncmp(p->env[i], name, ln) == 0 && p->env[i][ln] == '=')
			return 0;
	if (!v)
		return 0;
	if (p->nenv == sizeof(p->env) / sizeof(p->env[0]) - 1)
		return cli_runopts_usage_error(r, "too many variables to pass");
	e = malloc(ln + strlen(v) + 2);
	if (!e) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return CLI_RUNOPTS_EXIT_SETUP;
	}
	memcpy(e, name, ln);
	e[ln] = '=';
	memcpy(e + ln + 1, v, strlen(v) + 1);
	p->env[p->nenv++] = e;
	p->env[p->nenv] = NULL;
	return 0;
}

int cli_preset_env(struct cli_preset *p, struct cli_runopts *r,
		   const struct cordon_config *cfg)
{
	const struct preset *ps = p->agent ? find(p->agent) : NULL;
	int rc;

	/* srt's allowedDomains mean "this much network, through the
	 * proxy": without it they would do nothing (the default is none). */
	if (r->srt_settings && cfg && cfg->allowed_domains.n &&
	    !r->network_set) {
		r->sbx.network = SANDBOX_NET_PROXY;
		r->sbx.allow_hosts = r->hosts;
		r->sbx.nallow_hosts = r->nhosts;
	}
	for (size_t i = 0; ps && ps->env[i]; i++) {
		if (denied(r, ps->env[i]))
			continue;
		rc = add_env(p, r, ps->env[i]);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < p->npass; i++) {
		if (!getenv(p->pass[i])) {
			fprintf(stderr, "%s: warning: --pass-env %s: not set, "
				"not passed\n", r->prog, p->pass[i]);
			continue;
		}
		rc = add_env(p, r, p->pass[i]);
		if (rc)
			return rc;
	}
	if (!p->nenv)
		return 0;
	r->sbx.extra_env = p->env;
	fprintf(stderr, "%s: passing to the command:", r->prog);
	for (size_t i = 0; i < p->nenv; i++)
		fprintf(stderr, " %.*s", (int)strcspn(p->env[i], "="),
			p->env[i]);
	fputc('\n', stderr);
	return 0;
}

char *cli_preset_report(const struct cli_preset *p, char *report)
{
	cJSON *j, *arr;
	char *out;

	if (!report || (!p->agent && !p->nenv))
		return report;
	j = cJSON_Parse(report);
	free(report);
	arr = j ? cJSON_AddArrayToObject(j, "passedEnv") : NULL;
	if (!arr || (p->agent && !cJSON_AddStringToObject(j, "agent", p->agent))) {
		cJSON_Delete(j);
		return NULL;
	}
	for (size_t i = 0; i < p->nenv; i++) {
		char name[256];

		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(p->env[i], "="), p->env[i]);
		if (!cJSON_AddItemToArray(arr, cJSON_CreateString(name))) {
			cJSON_Delete(j);
			return NULL;
		}
	}
	out = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return out;
}

cJSON *cli_probe_backends(bool fresh, int *best)
{
	static const char *const names[] = { "namespaces", "landlock" };
	char why[1024];
	cJSON *arr = cJSON_CreateArray();

	*best = sandbox_probe(fresh, why, sizeof(why));
	for (size_t i = 0; arr && i < 2; i++) {
		cJSON *b = cJSON_CreateObject();
		char line[512] = "", *at = strstr(why, names[i]), *nl;
		char enf[16] = "";
		bool works, ok;

		/* "NAME: works (enforcement E)" or "NAME: unavailable: WHY",
		 * one line each. */
		if (at && at[strlen(names[i])] == ':')
			snprintf(line, sizeof(line), "%s",
				 at + strlen(names[i]) + 2);
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		works = strncmp(line, "works", 5) == 0;
		if (works && strstr(line, "enforcement "))
			sscanf(strstr(line, "enforcement ") + 12, "%15[a-z]",
			       enf);
		ok = b && cJSON_AddItemToArray(arr, b) &&
		     cJSON_AddStringToObject(b, "name", names[i]) &&
		     cJSON_AddBoolToObject(b, "works", works);
		if (ok && works)
			ok = cJSON_AddStringToObject(b, "enforcement",
						     enf[0] ? enf : "unknown");
		else if (ok)
			ok = cJSON_AddStringToObject(
				b, "why",
				!line[0] ? "not probed" :
				strncmp(line, "unavailable: ", 13) == 0 ?
					   line + 13 :
					   line);
		if (!ok) {
			if (b && !b->prev)
				cJSON_Delete(b);
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

int cli_preset_probe_json(void)
{
	int best;
	cJSON *j = cJSON_CreateObject(), *arr = cli_probe_backends(true, &best);
	char *text = NULL;
	int rc = CLI_EXIT_FAILURE;

	if (!j || !arr || !cJSON_AddItemToObject(j, "backends", arr)) {
		cJSON_Delete(arr);
		goto out;
	}
	if (!cJSON_AddItemToObject(
		    j, "best",
		    best == SANDBOX_BACKEND_NAMESPACES ?
			    cJSON_CreateString("namespaces") :
		    best == SANDBOX_BACKEND_LANDLOCK ?
			    cJSON_CreateString("landlock") :
			    cJSON_CreateNull()))
		goto out;
	text = cJSON_PrintUnformatted(j);
	if (!text)
		goto out;
	puts(text);
	rc = fflush(stdout) == 0 ?
		     (best < 0 ? CLI_RUNOPTS_EXIT_SETUP : CLI_EXIT_OK) :
		     CLI_EXIT_FAILURE;
out:
	if (!text)
		fputs("cordon run: out of memory\n", stderr);
	free(text);
	cJSON_Delete(j);
	return rc;
}

int cli_preset_write_report(const struct cli_preset *p,
			    const struct cli_runopts *r,
			    const struct sandbox_report *rep,
			    const char *report)
{
	FILE *f;
	int rc = 0;

	if (!p->agent && !p->nenv)
		return cli_runopts_write_report(r, rep);
	if (!r->report)
		return 0;
	if (!report) {
		fprintf(stderr, "%s: out of memory writing the report\n",
			r->prog);
		return -1;
	}
	if (strcmp(r->report, "-") == 0) {
		if (printf("%s\n", report) < 0 || fflush(stdout) != 0)
			rc = -1;
	} else {
		f = fopen(r->report, "we");
		if (!f || fprintf(f, "%s\n", report) < 0)
			rc = -1;
		if (f && fclose(f) != 0)
			rc = -1;
	}
	if (rc)
		fprintf(stderr, "%s: --report %s: %s\n", r->prog, r->report,
			strerror(errno));
	return rc;
}

void cli_preset_free(struct cli_preset *p)
{
	for (size_t i = 0; i < p->nenv; i++)
		free(p->env[i]);
	p->nenv = 0;
}
