/* policy — see policy.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "approvals.h"
#include "arena.h"
#include "atomic.h"
#include "ccperm.h"
#include "cmdlist.h"
#include "cmdwords.h"
#include "config.h"
#include "diag.h"
#include "glob.h"
#include "hostlist.h"
#include "json.h"
#include "netaddr.h"
#include "path.h"
#include "pathset.h"
#include "policy.h"
#include "schema.h"
#include "sh.h"
#include "alloc.h"
#include "banned.h"

/* The biggest arguments object a call may carry. */
#define POLICY_MAX_ARGS (1024 * 1024)

/* Files that run later on the user's behalf or configure the tools that
 * guard them: editing one asks except in full-access, even inside the
 * workspace. (Shell rc files and persistence places come from path.c.) */
static const char *const protected_globs[] = {
	"**/.git/hooks/**", "**/.git/config", "**/.gitmodules",
	"**/.cordon/**",    "**/.claude/**",  "**/.codex/**",
	"**/.gemini/**",    "**/.vscode/**",  "**/.idea/**",
	"**/.github/workflows/**", "**/.envrc", "**/.gitconfig",
	"**/.mcp.json",     "**/.git/modules/**", "**/.git/info/**",
	"**/.cursor/**",    "**/.husky/**",   "**/.pre-commit-config.yaml",
	"**/.devcontainer/**",
};

struct cordon_policy {
	const struct cordon_config *cfg;
	struct cordon_classifier *cls;
	struct cordon_verdict *verdict;
	struct pathset denied;
	struct pathset read_only;
	struct pathset allowed;
	struct pathset protected;
	struct pathset self; /* cordon's own configuration and approvals */
	struct pathset *rules; /* one per path rule */
	char *workspace;
	char *home;
	char *tmpdir;
	bool enforces_writes;
	struct approvals_store store;
	bool store_open;
	void (*prompt)(void *ud, const struct cordon_result *asked,
		       struct cordon_reply *reply);
	void *prompt_ud;
	void (*sink)(void *ud, const struct cordon_result *res);
	void *sink_ud;
	struct arena arena; /* per call */
	struct cordon_limits lim;
	const char *fence; /* what <cwd> means for this call */
	struct cmdwords words; /* the call's plain words (in the arena) */
	bool words_plain;
	char **warnings;
	size_t nwarnings;
	struct ccperm_set *perms; /* imported Claude Code rules, or NULL */
	struct policy_trace *trace; /* cordon explain, or NULL */
	const char *classified; /* the command in verdict (this call), or NULL */
	size_t classified_len;
};

/* ---- small helpers ------------------------------------------------------ */

/* Copies s[0..n) into a growable buffer *buf of capacity *cap. */
static bool set_buf(char **buf, size_t *cap, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		size_t want = n + 1 < 64 ? 64 : n + 1;
		char *nb = cordon__realloc(*buf, want);
		if (!nb)
			return false;
		*buf = nb;
		*cap = want;
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return true;
}

/* Case-insensitive memmem. */
static const char *memmem_ci(const char *h, size_t hn, const char *n,
			     size_t nn)
{
	if (nn == 0 || nn > hn)
		return NULL;
	for (size_t i = 0; i + nn <= hn; i++)
		if (strncasecmp(h + i, n, nn) == 0)
			return h + i;
	return NULL;
}

/* Severity of an outcome, for "the stricter answer wins". */
enum outcome {
	OUT_ALLOW = 0,    /* an explicit allow (path rule, read-only path) */
	OUT_CONTINUE = 1, /* no step decided: go on */
	OUT_ASK = 2,
	OUT_DENY = 3,
};

struct step_out {
	enum outcome out;
	enum policy_step step; /* POLICY_STEP__COUNT: none yet */
	bool hard;
	bool beyond; /* an ask for a write beyond the workspace or to a file
		      * that runs later: no imported allow rule answers it */
	char reason[512];
};

static void out_set(struct step_out *o, enum outcome out, enum policy_step step,
		    bool hard, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void out_set(struct step_out *o, enum outcome out, enum policy_step step,
		    bool hard, const char *fmt, ...)
{
	va_list ap;

	o->out = out;
	o->step = step;
	o->hard = hard;
	o->beyond = false;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

/* The result takes the decision. */
static void decide(struct cordon_result *r, enum cordon_decision d,
		   enum policy_step step, bool hard, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A step visited and what it found, for `cordon explain`. */
static void trace(struct cordon_policy *p, enum policy_step step,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void trace(struct cordon_policy *p, enum policy_step step,
		  const char *fmt, ...)
{
	va_list ap;

	if (!p->trace || p->trace->n >= POLICY_TRACE_MAX)
		return;
	p->trace->e[p->trace->n].step = step;
	va_start(ap, fmt);
	vsnprintf(p->trace->e[p->trace->n].what,
		  sizeof(p->trace->e[p->trace->n].what), fmt, ap);
	va_end(ap);
	p->trace->n++;
}

void policy_trace_set(struct cordon_policy *p, struct policy_trace *t)
{
	p->trace = t;
	if (t)
		t->n = 0;
}

static void decide(struct cordon_result *r, enum cordon_decision d,
		   enum policy_step step, bool hard, const char *fmt, ...)
{
	va_list ap;

	r->decision = d;
	r->step = policy_step_name(step);
	r->hard = hard;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

static void decide_out(struct cordon_result *r, const struct step_out *o)
{
	enum cordon_decision d = o->out == OUT_DENY  ? CORDON_DENY
				 : o->out == OUT_ASK ? CORDON_ASK
						     : CORDON_ALLOW;
	decide(r, d, o->step, o->hard, "%s", o->reason);
	r->beyond = o->beyond;
}

/* Does name match a tool-list entry (exact, or a glob: "mcp__github__*")? */
static bool tool_listed(const struct strlist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *e = l->v[i];
		if (strcmp(e, name) == 0)
			return true;
		if (strpbrk(e, "*?[") && glob_match(e, strlen(e), name,
						    strlen(name)))
			return true;
	}
	return false;
}

/* ---- construction ------------------------------------------------------- */

static enum cordon_err add_warning(struct cordon_policy *p, const char *fmt,
				   ...) __attribute__((format(printf, 2, 3)));

static enum cordon_err add_warning(struct cordon_policy *p, const char *fmt,
				   ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char **nw = cordon__realloc(p->warnings, (p->nwarnings + 1) * sizeof(*nw));
	if (!nw)
		return CORDON_E_NOMEM;
	p->warnings = nw;
	nw[p->nwarnings] = cordon__strdup(buf);
	if (!nw[p->nwarnings])
		return CORDON_E_NOMEM;
	p->nwarnings++;
	return CORDON_OK;
}

static char *default_dir(const char *given, const char *env, const char *dflt)
{
	const char *v = given;

	if (!v && env)
		v = getenv(env);
	if (!v || v[0] != '/')
		v = dflt;
	if (!v)
		return NULL;
	/* Normalised once here: every comparison later is lexical. */
	struct arena a;
	arena_init(&a, 1u << 20);
	char *n = path_normalize(&a, "/", v, strlen(v));
	char *out = n ? cordon__strdup(n) : NULL;
	arena_release(&a);
	return out;
}

/* The command rules' match / not_match examples must hold. */
static enum cordon_err check_rule_examples(const struct cordon_config *cfg,
					   struct cordon_diag *diag)
{
	for (size_t i = 0; i < cfg->ncommand_rules; i++) {
		const struct config_command_rule *cr = &cfg->command_rules[i];
		for (size_t k = 0; k < cr->match.n; k++) {
			if (!cmdwords_matches_prefix(&cr->prefix,
						     cr->match.v[k])) {
				diag_set(diag, CORDON_E_CONFIG,
					 "safety.command_rules[%zu].match[%zu]: "
					 "the rule does not match \"%s\"",
					 i, k, cr->match.v[k]);
				return CORDON_E_CONFIG;
			}
		}
		for (size_t k = 0; k < cr->not_match.n; k++) {
			if (cmdwords_matches_prefix(&cr->prefix,
						    cr->not_match.v[k])) {
				diag_set(diag, CORDON_E_CONFIG,
					 "safety.command_rules[%zu].not_match[%zu]: "
					 "the rule matches \"%s\"",
					 i, k, cr->not_match.v[k]);
				return CORDON_E_CONFIG;
			}
		}
	}
	return CORDON_OK;
}

/* Puts the config key path in front of a message the classifier wrote,
 * cutting the message's end when both do not fit. */
static void diag_prefix(struct cordon_diag *diag, const char *prefix)
{
	size_t pl = strlen(prefix), room;

	if (!diag || pl >= sizeof(diag->message))
		return;
	room = sizeof(diag->message) - 1 - pl;
	size_t ml = strnlen(diag->message, room);
	memmove(diag->message + pl, diag->message, ml);
	memcpy(diag->message, prefix, pl);
	diag->message[pl + ml] = '\0';
}

static enum cordon_err setup_classifier(struct cordon_policy *p,
					struct cordon_diag *diag)
{
	const struct cordon_config *cfg = p->cfg;
	enum cordon_err err;

	p->cls = cordon_classifier_new(NULL);
	p->verdict = cordon_verdict_new();
	if (!p->cls || !p->verdict)
		return CORDON_E_NOMEM;
	cordon_classifier_set_max_depth(p->cls, cfg->classifier_max_depth);
	if (cfg->denied_commands_set) {
		err = cordon_classifier_set_denied_commands(
			p->cls, (const char *const *)cfg->denied_commands.v,
			cfg->denied_commands.n, diag);
		if (err) {
			if (diag)
				diag->code = err;
			return err;
		}
	}
	if (cfg->denied_command_patterns_set) {
		err = cordon_classifier_set_denied_patterns(
			p->cls, (const char *const *)cfg->denied_command_patterns.v,
			cfg->denied_command_patterns.n, diag);
		if (err) {
			diag_prefix(diag, "safety.denied_command_patterns: ");
			return err;
		}
	}
	err = cordon_classifier_add_denied_commands(
		p->cls, (const char *const *)cfg->extra_denied_commands.v,
		cfg->extra_denied_commands.n, diag);
	if (!err)
		err = cordon_classifier_add_denied_patterns(
			p->cls,
			(const char *const *)cfg->extra_denied_command_patterns.v,
			cfg->extra_denied_command_patterns.n, diag);
	if (err)
		return err;
	if (cfg->classifier_rules_json) {
		err = cordon_classifier_add_rules_json(
			p->cls, cfg->classifier_rules_json,
			strlen(cfg->classifier_rules_json), diag);
		if (err) {
			diag_prefix(diag, "classifier.");
			return err;
		}
	}
	return CORDON_OK;
}

/* cordon's own files: the user configuration directory and the approvals
 * file. An agent that could write them could grant itself anything, so
 * writes there are denied whatever the rules say, and so is a shell
 * command that names them. */
static enum cordon_err build_self(struct cordon_policy *p,
				  const char *approvals)
{
	char dir[PATH_MAX];
	const char *pats[3];
	size_t n = 0;

	/* "" rather than NULL: without a home of its own the policy does not
	 * fall back to $HOME. */
	if (atomic_xdg_path(ATOMIC_XDG_CONFIG, p->home ? p->home : "", "**",
			    dir, sizeof(dir)) == 0)
		pats[n++] = dir;
	if (approvals && approvals[0] == '/')
		pats[n++] = approvals;
	if (p->cfg->approvals_path && p->cfg->approvals_path[0] == '/')
		pats[n++] = p->cfg->approvals_path;
	pathset_free(&p->self);
	enum cordon_err err = pathset_init(&p->self, pats, n, p->home);
	p->self.ci = true;
	return err;
}

enum cordon_err cordon_policy_new(const struct cordon_config *cfg,
				  const struct cordon_context *ctx,
				  struct cordon_policy **out,
				  struct cordon_diag *diag)
{
	struct cordon_policy *p;
	enum cordon_err err = CORDON_E_NOMEM;
	char cwdbuf[PATH_MAX];

	if (!out)
		return CORDON_E_INVAL;
	*out = NULL;
	if (!cfg) {
		diag_set(diag, CORDON_E_INVAL, "no configuration");
		return CORDON_E_INVAL;
	}
	p = cordon__calloc(1, sizeof(*p));
	if (!p)
		return CORDON_E_NOMEM;
	p->cfg = cfg;
	cordon_limits_default(&p->lim);
	p->enforces_writes = cfg->sandbox_mode != CONFIG_SANDBOX_OFF;
	arena_init(&p->arena, (size_t)64 << 20);

	const char *ws = ctx && ctx->workspace ? ctx->workspace : cfg->workspace;
	if (!ws)
		ws = getcwd(cwdbuf, sizeof(cwdbuf));
	p->workspace = default_dir(ws, NULL, "/");
	p->home = default_dir(ctx ? ctx->home : NULL, "HOME", NULL);
	p->tmpdir = default_dir(ctx ? ctx->tmpdir : NULL, "TMPDIR", "/tmp");
	if (!p->workspace || !p->tmpdir)
		goto fail;

	err = pathset_init(&p->denied, (const char *const *)cfg->denied_paths.v,
			   cfg->denied_paths.n, p->home);
	if (!err)
		err = pathset_init(&p->read_only,
				   (const char *const *)cfg->read_only_paths.v,
				   cfg->read_only_paths.n, p->home);
	if (!err && cfg->allowed_paths_set)
		err = pathset_init(&p->allowed,
				   (const char *const *)cfg->allowed_paths.v,
				   cfg->allowed_paths.n, p->home);
	if (!err)
		err = pathset_init(&p->protected, protected_globs,
				   sizeof(protected_globs) /
					   sizeof(*protected_globs),
				   p->home);
	if (!err)
		err = build_self(p, NULL);
	/* Credentials are credentials in any case: .ENV is .env on a
	 * case-insensitive file system (macOS, vfat, ciopfs). */
	p->denied.ci = true;
	p->protected.ci = true;
	if (!err && cfg->npath_rules) {
		p->rules = cordon__calloc(cfg->npath_rules, sizeof(*p->rules));
		if (!p->rules)
			err = CORDON_E_NOMEM;
		for (size_t i = 0; !err && i < cfg->npath_rules; i++) {
			const char *pat = cfg->path_rules[i].pattern;
			err = pathset_init(&p->rules[i], &pat, 1, p->home);
		}
	}
	if (err) {
		diag_set(diag, err, "%s", cordon_strerror(err));
		goto fail;
	}
	err = check_rule_examples(cfg, diag);
	if (err)
		goto fail;
	if (cfg->perm_allow.n || cfg->perm_ask.n || cfg->perm_deny.n) {
		err = ccperm_compile(&cfg->perm_allow, &cfg->perm_ask,
				     &cfg->perm_deny, cfg->perm_root, p->home,
				     &p->perms, diag);
		if (err)
			goto fail;
	}
	err = setup_classifier(p, diag);
	if (err) {
		if (err == CORDON_E_NOMEM)
			diag_set(diag, err, "%s", cordon_strerror(err));
		goto fail;
	}
	err = approvals_open(&p->store, NULL);
	if (err)
		goto fail;
	p->store_open = true;
	*out = p;
	return CORDON_OK;
fail:
	cordon_policy_free(p);
	return err;
}

void cordon_policy_free(struct cordon_policy *p)
{
	if (!p)
		return;
	cordon_classifier_free(p->cls);
	cordon_verdict_free(p->verdict);
	ccperm_free(p->perms);
	pathset_free(&p->denied);
	pathset_free(&p->read_only);
	pathset_free(&p->allowed);
	pathset_free(&p->protected);
	pathset_free(&p->self);
	if (p->rules)
		for (size_t i = 0; i < p->cfg->npath_rules; i++)
			pathset_free(&p->rules[i]);
	free(p->rules);
	free(p->workspace);
	free(p->home);
	free(p->tmpdir);
	if (p->store_open)
		approvals_close(&p->store);
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	arena_release(&p->arena);
	free(p);
}

void cordon_policy_set_sandbox_enforces_writes(struct cordon_policy *p,
					       int enforces)
{
	p->enforces_writes = enforces != 0;
}

enum cordon_err cordon_policy_open_approvals(struct cordon_policy *p,
					     const char *path)
{
	if (!path)
		path = p->cfg->approvals_path;
	if (p->store_open) {
		approvals_close(&p->store);
		p->store_open = false;
	}
	enum cordon_err err = approvals_open(&p->store, path);
	if (err == CORDON_E_NOMEM)
		return err;
	if (build_self(p, path) != CORDON_OK) {
		approvals_close(&p->store);
		return CORDON_E_NOMEM;
	}
	p->store_open = true;
	for (size_t i = 0; i < p->store.nwarnings; i++)
		if (add_warning(p, "%s", p->store.warnings[i]))
			return CORDON_E_NOMEM;
	return CORDON_OK;
}

size_t cordon_policy_warning_count(const struct cordon_policy *p)
{
	return p->nwarnings;
}

const char *cordon_policy_warning(const struct cordon_policy *p, size_t i)
{
	return i < p->nwarnings ? p->warnings[i] : NULL;
}

void cordon_policy_set_prompt(struct cordon_policy *p,
			      void (*prompt)(void *ud,
					     const struct cordon_result *asked,
					     struct cordon_reply *reply),
			      void *ud)
{
	p->prompt = prompt;
	p->prompt_ud = ud;
}

void cordon_policy_set_on_decision(struct cordon_policy *p,
				   void (*on_decision)(void *ud,
						       const struct cordon_result *res),
				   void *ud)
{
	p->sink = on_decision;
	p->sink_ud = ud;
}

/* ---- results ------------------------------------------------------------ */

struct cordon_result *cordon_result_new(void)
{
	struct cordon_result *r = cordon__calloc(1, sizeof(*r));

	if (r) {
		r->decision = CORDON_DENY;
		r->step = policy_step_name(POLICY_STEP_DEFAULT);
		r->risk = -1;
		r->answer = -1;
	}
	return r;
}

void cordon_result_free(struct cordon_result *r)
{
	if (!r)
		return;
	free(r->tool);
	free(r->args);
	free(r->command);
	free(r->path);
	free(r->session);
	strlist_clear(&r->family);
	free(r);
}

static bool result_reset(struct cordon_result *r, const struct cordon_call *c,
			 size_t args_len)
{
	const char *tool = c->tool ? c->tool : "";

	r->decision = CORDON_DENY;
	r->step = policy_step_name(POLICY_STEP_DEFAULT);
	r->hard = true;
	r->reason[0] = '\0';
	r->kind = CORDON_KIND_OTHER;
	r->risk = -1;
	r->labels = 0;
	r->answer = -1;
	r->answered_by[0] = '\0';
	r->beyond = false;
	r->exact_only = false;
	r->confirm = false;
	r->npaths = 0;
	strlist_clear(&r->family);
	if (r->command)
		r->command[0] = '\0';
	if (r->path)
		r->path[0] = '\0';
	if (!set_buf(&r->tool, &r->tool_cap, tool, strlen(tool)))
		return false;
	if (!c->session) {
		if (r->session)
			r->session[0] = '\0';
	} else if (!set_buf(&r->session, &r->session_cap, c->session,
			    strlen(c->session))) {
		return false;
	}
	if (c->args_json && args_len <= POLICY_MAX_ARGS)
		return set_buf(&r->args, &r->args_cap, c->args_json, args_len);
	return set_buf(&r->args, &r->args_cap, "{}", 2);
}

enum cordon_decision cordon_result_decision(const struct cordon_result *r)
{
	return r->decision;
}

const char *cordon_result_step(const struct cordon_result *r)
{
	return r->step;
}

static const char *const step_names[POLICY_STEP__COUNT] = {
#define STEP(name, text) [POLICY_STEP_##name] = text,
#include "steps.def"
#undef STEP
};

const char *policy_step_name(enum policy_step s)
{
	return (unsigned)s < POLICY_STEP__COUNT ? step_names[s] : "unknown";
}

int policy_step_from_name(const char *name)
{
	for (int i = 0; i < POLICY_STEP__COUNT; i++)
		if (strcmp(step_names[i], name) == 0)
			return i;
	return -1;
}

const char *cordon_result_reason(const struct cordon_result *r)
{
	return r->reason;
}

int cordon_result_hard(const struct cordon_result *r)
{
	return r->hard;
}

const char *cordon_result_tool(const struct cordon_result *r)
{
	return r->tool ? r->tool : "";
}

enum cordon_kind cordon_result_kind(const struct cordon_result *r)
{
	return r->kind;
}

const char *cordon_result_args(const struct cordon_result *r)
{
	return r->args ? r->args : "{}";
}

int cordon_result_risk(const struct cordon_result *r)
{
	return r->risk;
}

uint64_t cordon_result_labels(const struct cordon_result *r)
{
	return r->labels;
}

int cordon_result_answer(const struct cordon_result *r)
{
	return r->answer;
}

const char *cordon_result_answered_by(const struct cordon_result *r)
{
	return r->answered_by[0] ? r->answered_by : NULL;
}

const char *cordon_result_session(const struct cordon_result *r)
{
	return r->session && r->session[0] ? r->session : NULL;
}

const char *cordon_result_command(const struct cordon_result *r)
{
	if (r->kind != CORDON_KIND_EXECUTE || !r->command || !r->command[0])
		return NULL;
	return r->command;
}

const char *const *cordon_result_family(const struct cordon_result *r,
					size_t *n)
{
	*n = r->family.n;
	return r->family.n ? (const char *const *)r->family.v : NULL;
}

char *cordon_result_to_json(const struct cordon_result *r)
{
	cJSON *o = cJSON_CreateObject();
	char *out = NULL;
	bool ok = o != NULL;

	if (ok)
		ok = cJSON_AddStringToObject(o, "decision",
					     cordon_decision_name(r->decision)) &&
		     cJSON_AddStringToObject(o, "step", r->step);
	if (ok) {
		cJSON *s = json_clean_string(r->reason, strlen(r->reason));
		ok = s && cJSON_AddItemToObject(o, "reason", s);
		if (!ok)
			cJSON_Delete(s);
	}
	if (ok)
		ok = r->risk >= 0
			     ? cJSON_AddStringToObject(
				       o, "risk",
				       cordon_risk_name((enum cordon_risk)r->risk)) != NULL
			     : cJSON_AddNullToObject(o, "risk") != NULL;
	if (ok) {
		cJSON *l = json_labels_array(r->labels);
		ok = l && cJSON_AddItemToObject(o, "labels", l);
		if (!ok)
			cJSON_Delete(l);
	}
	if (ok) {
		const char *t = cordon_result_tool(r);
		cJSON *s = json_clean_string(t, strlen(t));
		ok = s && cJSON_AddItemToObject(o, "tool", s);
		if (!ok)
			cJSON_Delete(s);
	}
	if (ok)
		ok = cJSON_AddStringToObject(o, "kind", cordon_kind_name(r->kind)) &&
		     cJSON_AddBoolToObject(o, "hard", r->hard);
	if (ok && r->answer >= 0)
		ok = cJSON_AddStringToObject(
			o, "answer",
			cordon_answer_name((enum cordon_answer)r->answer)) != NULL;
	if (ok)
		out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return out;
}

/* ---- the path steps (2 to 5) ------------------------------------------- */

static bool access_fits(enum config_access a, enum cordon_kind k)
{
	if (a == CONFIG_ACCESS_ANY)
		return true;
	if (a == CONFIG_ACCESS_READ)
		return k == CORDON_KIND_READ;
	return k == CORDON_KIND_WRITE || k == CORDON_KIND_DELETE;
}

/* Steps 2 to 5 for one absolute normalised path. */
static void path_steps(struct cordon_policy *p, const char *cwd,
		       enum cordon_kind kind, const char *path,
		       struct step_out *o)
{
	const struct cordon_config *cfg = p->cfg;
	size_t n = strlen(path);
	long hit;

	/* "<cwd>" is the call's directory only inside the workspace: an
	 * agent that reports cwd "/" must not widen allowed_paths. */
	cwd = p->fence ? p->fence : cwd;
	if (kind != CORDON_KIND_READ &&
	    pathset_match(&p->self, path, n, NULL) >= 0) {
		out_set(o, OUT_DENY, POLICY_STEP_DENIED_PATHS, true,
			"blocked: %s is cordon's own configuration", path);
		return;
	}
	for (size_t i = 0; i < cfg->npath_rules; i++) {
		const struct config_path_rule *pr = &cfg->path_rules[i];
		if (!access_fits(pr->access, kind) ||
		    pathset_match(&p->rules[i], path, n, cwd) < 0)
			continue;
		if (pr->decision == CORDON_DENY)
			out_set(o, OUT_DENY, POLICY_STEP_PATH_RULES, true,
				"blocked: %s matches path rule %zu (%s): deny",
				path, i, pr->pattern);
		else if (pr->decision == CORDON_ASK)
			out_set(o, OUT_ASK, POLICY_STEP_PATH_RULES, false,
				"needs approval: %s matches path rule %zu (%s)",
				path, i, pr->pattern);
		else
			out_set(o, OUT_ALLOW, POLICY_STEP_PATH_RULES, false,
				"allowed: %s matches path rule %zu (%s)", path,
				i, pr->pattern);
		return;
	}
	hit = pathset_match(&p->denied, path, n, cwd);
	if (hit >= 0) {
		out_set(o, OUT_DENY, POLICY_STEP_DENIED_PATHS, true,
			"blocked: %s matches denied path %s", path,
			p->denied.pat[hit].pattern);
		return;
	}
	hit = pathset_match(&p->read_only, path, n, cwd);
	if (hit >= 0) {
		if (kind == CORDON_KIND_READ)
			out_set(o, OUT_ALLOW, POLICY_STEP_READ_ONLY_PATHS, true,
				"allowed: %s is under read-only path %s", path,
				p->read_only.pat[hit].pattern);
		else
			out_set(o, OUT_DENY, POLICY_STEP_READ_ONLY_PATHS, true,
				"blocked: %s is under read-only path %s and "
				"cannot be written",
				path, p->read_only.pat[hit].pattern);
		return;
	}
	if (cfg->allowed_paths_set &&
	    pathset_match(&p->allowed, path, n, cwd) < 0) {
		out_set(o, OUT_DENY, POLICY_STEP_ALLOWED_PATHS, true,
			"blocked: %s is outside the allowed paths", path);
		return;
	}
	o->out = OUT_CONTINUE;
}

/* Keeps the stricter of *acc and *o in *acc. */
static void stricter(struct step_out *acc, const struct step_out *o)
{
	if (o->out > acc->out)
		*acc = *o;
}

/* Step 9 for a file write: outside the workspace and protected files ask
 * except in full-access; otherwise require_approval_for_writes or the mode. */
static void write_mode_step(struct cordon_policy *p, enum cordon_mode mode,
			    const char *const *paths, size_t npaths,
			    struct step_out *o)
{
	const struct cordon_config *cfg = p->cfg;
	struct path_ctx pc = {p->workspace, p->workspace,
			      p->home ? p->home : "/nonexistent", p->tmpdir};
	if (mode != CORDON_MODE_FULL_ACCESS) {
		for (size_t i = 0; i < npaths; i++) {
			const char *x = paths[i];
			if (!x)
				continue;
			if (!path_under(x, p->workspace)) {
				out_set(o, OUT_ASK, POLICY_STEP_MODE, false,
					"needs approval: %s is outside the "
					"workspace %s",
					x, p->workspace);
				o->beyond = true;
				return;
			}
			if (pathset_match(&p->protected, x, strlen(x), NULL) >= 0 ||
			    path_runs_later(&pc, x)) {
				out_set(o, OUT_ASK, POLICY_STEP_MODE, false,
					"needs approval: %s is a protected file "
					"(run or read later by tools)",
					x);
				o->beyond = true;
				return;
			}
		}
	}
	if (cfg->require_approval_for_writes == CONFIG_TRUE) {
		out_set(o, OUT_ASK, POLICY_STEP_MODE, false,
			"needs approval: require_approval_for_writes is set");
		return;
	}
	if (cfg->require_approval_for_writes == CONFIG_FALSE ||
	    mode != CORDON_MODE_SUPERVISED) {
		out_set(o, OUT_ALLOW, POLICY_STEP_DEFAULT, false,
			"allowed: an edit in %s mode", cordon_mode_name(mode));
		return;
	}
	out_set(o, OUT_ASK, POLICY_STEP_MODE, false,
		"needs approval: edits ask in supervised mode");
}

/* ---- arguments ---------------------------------------------------------- */

/* The first of the tool's argument names present in args. */
static const cJSON *target_arg(const struct config_tool *te, const cJSON *args,
			       const char **name)
{
	*name = te && te->args.n ? te->args.v[0] : NULL;
	if (!te)
		return NULL;
	for (size_t i = 0; i < te->args.n; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(args,
								  te->args.v[i]);
		if (v && !cJSON_IsNull(v)) {
			*name = te->args.v[i];
			return v;
		}
	}
	return NULL;
}

/* Does the path hold a ".." component ('/' and '\' both separate)? */
static bool has_dotdot(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '.' || s[i + 1] != '.')
			continue;
		bool start = i == 0 || s[i - 1] == '/' || s[i - 1] == '\\';
		bool end = i + 2 == n || s[i + 2] == '/' || s[i + 2] == '\\';
		if (start && end)
			return true;
	}
	return false;
}

/* The path as the kernel walks it when it holds "..": "link/../x" is the
 * parent of the link's target, not the directory the link sits in, so the
 * lexical collapse of path_normalize_call() cannot be trusted there. The
 * longest existing prefix goes through realpath(3) (which follows links
 * before climbing); the rest is collapsed lexically (a ".." in a part that
 * does not exist fails in the kernel anyway). Windows and UNC forms are
 * never walked. Returns false when there is nothing to add. */
static bool physical_path(struct cordon_policy *p, const char *cwd,
			  const char *raw, size_t n, char *out, size_t cap)
{
	char buf[PATH_MAX], pre[PATH_MAX];
	size_t o = 0;

	if (!has_dotdot(raw, n) || memchr(raw, '\0', n))
		return false;
	if ((n >= 2 && raw[1] == ':') ||
	    (n >= 2 && (raw[0] == '/' || raw[0] == '\\') &&
	     (raw[1] == '/' || raw[1] == '\\')))
		return false;
	if (raw[0] == '~' && (n == 1 || raw[1] == '/' || raw[1] == '\\')) {
		if (!p->home)
			return false;
		o = strlen(p->home);
		if (o >= sizeof(buf))
			return false;
		memcpy(buf, p->home, o);
		raw++;
		n--;
	} else if (raw[0] != '/' && raw[0] != '\\') {
		o = strlen(cwd);
		if (o + 1 >= sizeof(buf))
			return false;
		memcpy(buf, cwd, o);
		buf[o++] = '/';
	}
	if (o + n + 1 > sizeof(buf))
		return false;
	for (size_t i = 0; i < n; i++)
		buf[o++] = raw[i] == '\\' ? '/' : raw[i];
	buf[o] = '\0';

	/* Strip components from the end until a prefix exists. */
	size_t cut = o;
	for (;;) {
		memcpy(pre, buf, cut);
		pre[cut] = '\0';
		char real[PATH_MAX];
		if (realpath(cut ? pre : "/", real)) {
			size_t rl = strlen(real);
			char *joined = arena_alloc_raw(&p->arena, rl + (o - cut) + 2);
			if (!joined)
				return false;
			memcpy(joined, real, rl);
			memcpy(joined + rl, buf + cut, o - cut);
			joined[rl + (o - cut)] = '\0';
			char *norm = path_normalize(&p->arena, "/", joined,
						    strlen(joined));
			if (!norm || strlen(norm) >= cap)
				return false;
			memcpy(out, norm, strlen(norm) + 1);
			return true;
		}
		while (cut > 0 && buf[cut - 1] != '/')
			cut--;
		if (cut == 0)
			return false;
		cut--;
	}
}

/* Search tools whose arguments hold globs that pick files below a root:
 * the tool, its pattern argument, its root argument. */
static const struct {
	const char *tool;
	const char *pattern_arg;
	const char *root_arg;
} search_tools[] = {
	{"Glob", "pattern", "path"},
	{"Grep", "glob", "path"},
	{"glob", "pattern", "path"},
	{"search_file_content", "include", "path"},
	{"read_many_files", "include", NULL},
	{"read_many_files", "paths", NULL},
};

/* Does glob text g name something a denied path protects: one of the
 * literal names, suffixes or directories of the denied patterns (".env",
 * ".pem", ".ssh" …), or a root it climbs to? */
static long pattern_hits_denied(const struct pathset *denied, const char *g)
{
	for (size_t i = 0; i < denied->n; i++) {
		const struct pathset_pat *pp = &denied->pat[i];
		if (pp->shape != PS_BASENAME && pp->shape != PS_SUFFIX &&
		    pp->shape != PS_PREFIX && pp->shape != PS_COMPONENT &&
		    pp->shape != PS_TAIL)
			continue;
		if (pp->litlen && memmem_ci(g, strlen(g), pp->lit, pp->litlen))
			return (long)i;
	}
	return -1;
}

/* The glob arguments of search tools (Glob's pattern, Grep's glob …) are
 * paths too: a pattern naming a denied file (".env", "*.pem", ".ssh"),
 * an absolute pattern or one that climbs with ".." is judged like a path;
 * and a recursive search from the home directory or above is refused,
 * since it walks into ~/.ssh and the rest. */
static void search_patterns(struct cordon_policy *p, const char *tool,
			    const cJSON *args, const char *cwd,
			    struct step_out *acc)
{
	for (size_t t = 0; t < sizeof(search_tools) / sizeof(*search_tools);
	     t++) {
		if (strcmp(search_tools[t].tool, tool) != 0)
			continue;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(
			args, search_tools[t].pattern_arg);
		const cJSON *one = v, *it = NULL;
		if (cJSON_IsArray(v))
			one = v->child;
		for (it = one; it; it = cJSON_IsArray(v) ? it->next : NULL) {
			if (!cJSON_IsString(it))
				continue;
			const char *g = it->valuestring;
			long hit = pattern_hits_denied(&p->denied, g);
			if (hit >= 0) {
				out_set(acc, OUT_DENY, POLICY_STEP_DENIED_PATHS,
					true,
					"blocked: the search pattern '%s' reaches "
					"denied path %s",
					g, p->denied.pat[hit].pattern);
				return;
			}
			if (g[0] == '/' || g[0] == '~' || g[0] == '\\' ||
			    has_dotdot(g, strlen(g))) {
				struct step_out o = {
					.out = OUT_CONTINUE,
					.step = POLICY_STEP__COUNT
				};
				char *n = path_normalize_call(&p->arena, cwd, p->home,
							      g, strlen(g));
				if (n)
					path_steps(p, cwd, CORDON_KIND_READ, n, &o);
				if (!n || o.out == OUT_DENY) {
					if (!n)
						out_set(&o, OUT_DENY,
							POLICY_STEP_DEFAULT,
							true,
							"blocked: out of memory");
					*acc = o;
					return;
				}
				if (o.out == OUT_ASK)
					stricter(acc, &o);
			}
		}
		if (!search_tools[t].root_arg)
			continue;
		const cJSON *rv = cJSON_GetObjectItemCaseSensitive(
			args, search_tools[t].root_arg);
		const char *root = cJSON_IsString(rv) ? rv->valuestring : cwd;
		char *rn = path_normalize_call(&p->arena, cwd, p->home, root,
					       strlen(root));
		if (rn && p->home && path_under(p->home, rn)) {
			out_set(acc, OUT_DENY, POLICY_STEP_DENIED_PATHS, true,
				"blocked: a recursive search from %s reaches "
				"the home directory's credentials (~/.ssh, "
				"~/.aws …)",
				rn);
			return;
		}
	}
}

/* Judges one path of a file call: steps 2 to 5 on the path as written,
 * and also on where the kernel would land (symlinks resolved, ".." after
 * a link walked physically) when that differs; the stricter answer wins;
 * then step 9. The path kept for approvals is the landing place, so a
 * grant cannot be carried over to a link swapped in later. */
static void judge_path(struct cordon_policy *p, const char *cwd,
		       enum cordon_kind kind, enum cordon_mode mode,
		       const char *raw, size_t rawlen, struct step_out *acc,
		       struct cordon_result *r)
{
	struct step_out best = { .out = OUT_CONTINUE,
				 .step = POLICY_STEP__COUNT };
	char resolved[PATH_MAX], physical[PATH_MAX];
	const char *cand[3];
	size_t ncand = 0;
	char *norm = path_normalize_call(&p->arena, cwd, p->home, raw, rawlen);

	if (!norm) {
		out_set(acc, OUT_DENY, POLICY_STEP_DEFAULT, true,
			"blocked: out of memory while reading the path");
		return;
	}
	cand[ncand++] = norm;
	path_steps(p, cwd, kind, norm, &best);
	/* A denial needs no second look. */
	if (best.out != OUT_DENY) {
		if (norm[0] == '/' && !path_link_free(norm) &&
		    path_resolve(norm, resolved, sizeof(resolved)) &&
		    strcmp(resolved, norm) != 0)
			cand[ncand++] = resolved;
		if (physical_path(p, cwd, raw, rawlen, physical,
				  sizeof(physical)) &&
		    strcmp(physical, norm) != 0 &&
		    (ncand < 2 || strcmp(physical, cand[1]) != 0))
			cand[ncand++] = physical;
	}
	for (size_t i = 1; i < ncand; i++) {
		struct step_out o2 = { .out = OUT_CONTINUE,
				       .step = POLICY_STEP__COUNT };
		path_steps(p, cwd, kind, cand[i], &o2);
		if (o2.out != OUT_CONTINUE && o2.out != OUT_ALLOW) {
			size_t rl = strlen(o2.reason);
			snprintf(o2.reason + rl, sizeof(o2.reason) - rl,
				 " (%s leads there)", norm);
		}
		stricter(&best, &o2);
	}
	const char *landing = cand[ncand - 1];
	if (r->npaths++ == 0)
		set_buf(&r->path, &r->path_cap, landing, strlen(landing));
	if (best.out == OUT_CONTINUE) {
		if (kind == CORDON_KIND_READ) {
			out_set(&best, OUT_ALLOW, POLICY_STEP_DEFAULT, false,
				"allowed: a read");
		} else if (kind == CORDON_KIND_DELETE) {
			if (mode == CORDON_MODE_FULL_ACCESS)
				out_set(&best, OUT_ALLOW, POLICY_STEP_DEFAULT,
					false,
					"allowed: a delete in full-access mode");
			else
				out_set(&best, OUT_ASK, POLICY_STEP_MODE, false,
					"needs approval: deleting %s", norm);
		} else {
			write_mode_step(p, mode, cand, ncand, &best);
		}
	}
	if (best.out > acc->out || acc->step == POLICY_STEP__COUNT)
		*acc = best;
}

/* ---- command rules (step 6) --------------------------------------------- */

/* What the classifier's list of the line's commands (cmdlist.h) shows:
 * the first deny command rule that matches any command anywhere (step 6),
 * the first ask rule that could match a command no plain segment stands
 * for, and the first word that names a denied path or cordon's own files
 * (step 3 for shell). */
struct cr_state {
	struct cordon_policy *p;
	const char *cwd;
	long deny_rule;     /* -1: none */
	long ask_rule;      /* -1: none */
	long path_hit;      /* index into p->denied, -1: none */
	bool self_hit;      /* names cordon's own configuration */
	char path_word[256];
};

/* Could word w be the rule word r when the command runs? A known word by
 * its bytes (the command name by its base name: /usr/bin/git is git), a
 * glob by what it can expand to, and a word only known when it runs is
 * anything, so that a deny rule cannot be dodged with "$x" or "g?t". */
static bool cr_word_could_be(struct arena *a, const struct cmd_word *w,
			     const char *r, bool name)
{
	const char *s = w->s;
	size_t n = w->n;

	if (!w->known)
		return true;
	if (name) {
		for (size_t i = 0; i + 1 < w->n; i++)
			if (w->s[i] == '/') {
				s = w->s + i + 1;
				n = w->n - i - 1;
			}
	}
	if (w->glob) {
		char *pat = arena_strndup(a, s, n);
		return !pat || glob_matchz(pat, r);
	}
	return strlen(r) == n && memcmp(s, r, n) == 0;
}

/* Does deny rule prefix match the words of c from position i? The first
 * word by base name, the others in order but not necessarily adjacent
 * ("git -C d --no-pager push" is still "git push"). Any position counts:
 * a runner cordon does not know still starts what follows it. */
static bool cr_deny_at(struct arena *a, const struct cmd_run *c, size_t i,
		       const struct strlist *prefix)
{
	if (!cr_word_could_be(a, &c->w[i], prefix->v[0], true))
		return false;
	size_t k = 1;
	for (size_t j = i + 1; j < c->argc && k < prefix->n; j++)
		if (cr_word_could_be(a, &c->w[j], prefix->v[k], false))
			k++;
	return k == prefix->n;
}

/* Could command c begin with prefix, word by word from its name? */
static bool cr_could_start(struct arena *a, const struct cmd_run *c,
			   const struct strlist *prefix)
{
	if (c->argc < prefix->n)
		return false;
	for (size_t i = 0; i < prefix->n; i++)
		if (!cr_word_could_be(a, &c->w[i], prefix->v[i], i == 0))
			return false;
	return true;
}

/* A word that names a denied path (cat ~/.ssh/id_rsa, > .env), or
 * cordon's own configuration: judged like a file tool's path, from the
 * call's cwd and, when the command runs elsewhere (cd, sudo -D), from
 * there too. */
static void cr_check_path_word(struct arena *a, struct cr_state *st,
			       const char *runs_in, const struct cmd_word *cw)
{
	struct cordon_policy *p = st->p;
	const char *w;

	if (!cw->known || !cw->n || st->path_hit >= 0 || st->self_hit)
		return;
	w = arena_strndup(a, cw->s, cw->n);
	if (!w || strlen(w) != cw->n)
		return;
	if (w[0] == '-') {
		/* --file=PATH */
		const char *eq = strchr(w, '=');
		if (!eq)
			return;
		w = eq + 1;
		if (!*w)
			return;
	}
	/* said as written: ~/.ssh/id_rsa, not the home directory's path */
	const char *said = w;
	size_t hl = p->home ? strlen(p->home) : 0;
	if (cw->tilde && hl && strncmp(w, p->home, hl) == 0) {
		size_t rn = strlen(w + hl);
		char *t = arena_alloc_raw(a, rn + 2);
		if (t) {
			t[0] = '~';
			memcpy(t + 1, w + hl, rn + 1);
			said = t;
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		const char *from = pass ? runs_in : st->cwd;
		if (pass && (!runs_in || runs_in[0] != '/' ||
			     strcmp(runs_in, st->cwd) == 0))
			break;
		char *n = path_normalize_call(a, from, p->home, w, strlen(w));
		if (!n)
			continue;
		long hit = pathset_match(&p->denied, n, strlen(n), st->cwd);
		if (hit >= 0) {
			st->path_hit = hit;
			snprintf(st->path_word, sizeof(st->path_word), "%s",
				 said);
			return;
		}
		if (pathset_match(&p->self, n, strlen(n), NULL) >= 0) {
			st->self_hit = true;
			snprintf(st->path_word, sizeof(st->path_word), "%s",
				 said);
			return;
		}
	}
}

/* One pass over the line's commands: path words and deny rules on every
 * command, ask rules on every command no plain segment stands for (on a
 * line that is not plain, every command). */
static void cr_scan(struct arena *a, struct cr_state *st,
		    const struct cmdlist *cl, bool plain)
{
	const struct cordon_config *cfg = st->p->cfg;

	for (size_t i = 0; i < cl->n; i++) {
		const struct cmd_run *c = &cl->v[i];

		for (size_t k = 1; k < c->argc; k++)
			cr_check_path_word(a, st, c->cwd, &c->w[k]);
		for (size_t k = 0; k < c->nredir; k++)
			cr_check_path_word(a, st, c->cwd, &c->redir[k]);
		for (size_t r = 0; r < cfg->ncommand_rules; r++) {
			const struct config_command_rule *cr =
				&cfg->command_rules[r];
			if (cr->prefix.n == 0)
				continue;
			if (cr->decision == CORDON_DENY) {
				if (st->deny_rule >= 0 && (long)r >= st->deny_rule)
					continue;
				for (size_t at = 0; at < c->argc; at++)
					if (cr_deny_at(a, c, at, &cr->prefix)) {
						st->deny_rule = (long)r;
						break;
					}
			} else if (cr->decision == CORDON_ASK &&
				   (!plain || c->from) &&
				   (st->ask_rule < 0 || (long)r < st->ask_rule) &&
				   cr_could_start(a, c, &cr->prefix)) {
				st->ask_rule = (long)r;
			}
		}
	}
}

enum cr_result { CR_NONE, CR_ALLOW, CR_ASK, CR_DENY };

/* Step 6. *which gets the deciding rule's index; st gets what the scan
 * over the line's commands found (deny and ask rules, path words). */
static enum cr_result command_rules(struct cordon_policy *p,
				    const struct cmdlist *cl,
				    const struct cmdwords *words, bool plain,
				    struct cr_state *st, long *which)
{
	const struct cordon_config *cfg = p->cfg;

	*which = -1;
	if (cl)
		cr_scan(&p->arena, st, cl, plain);
	if (st->deny_rule < 0 && cl && cl->incomplete) {
		/* a command the list lost could be any rule's */
		for (size_t r = 0; r < cfg->ncommand_rules; r++)
			if (cfg->command_rules[r].decision == CORDON_DENY &&
			    cfg->command_rules[r].prefix.n) {
				st->deny_rule = (long)r;
				break;
			}
	}
	if (st->deny_rule >= 0) {
		*which = st->deny_rule;
		return CR_DENY;
	}
	if (st->ask_rule >= 0) {
		*which = st->ask_rule;
		return CR_ASK;
	}
	if (!cfg->ncommand_rules || !plain || words->nseg == 0)
		return CR_NONE;
	/* Every segment takes its first matching rule. */
	bool all_allow = true, any_ask = false;
	long first = -1;
	for (size_t sg = 0; sg < words->nseg; sg++) {
		long hit = -1;
		for (size_t r = 0; r < cfg->ncommand_rules && hit < 0; r++)
			if (cmdwords_seg_has_prefix(&words->seg[sg],
						    &cfg->command_rules[r].prefix))
				hit = (long)r;
		if (hit < 0) {
			all_allow = false;
			continue;
		}
		if (first < 0)
			first = hit;
		if (cfg->command_rules[hit].decision == CORDON_ASK) {
			any_ask = true;
			*which = hit;
		} else if (cfg->command_rules[hit].decision != CORDON_ALLOW) {
			all_allow = false;
		}
	}
	if (any_ask)
		return CR_ASK;
	if (all_allow && first >= 0) {
		*which = first;
		return CR_ALLOW;
	}
	return CR_NONE;
}

/* ---- shell commands (steps 6 to 9) -------------------------------------- */

static void labels_text(uint64_t labels, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < CORDON_LABEL_COUNT && b < 64; b++) {
		if (!(labels & (UINT64_C(1) << b)))
			continue;
		int w = snprintf(buf + o, cap - o, "%s%s", o ? ", " : "",
				 cordon_label_name(b));
		if (w < 0 || (size_t)w >= cap - o)
			break;
		o += (size_t)w;
	}
}

/* Classifies a shell line into p->verdict once per call: the Claude-rule
 * step and the shell steps read the same verdict and command list. */
static void classify_line(struct cordon_policy *p, const char *cwd,
			  const char *cmd, size_t len)
{
	struct cordon_context ctx = {cwd, p->workspace, p->home, p->tmpdir};

	if (p->classified == cmd && p->classified_len == len)
		return;
	(void)cordon_classify(p->cls, &ctx, cmd, len, p->verdict, NULL);
	p->classified = cmd;
	p->classified_len = len;
}

static void judge_command(struct cordon_policy *p, const char *cwd,
			  enum cordon_mode mode, const char *cmd, size_t len,
			  struct cordon_result *r)
{
	const struct cordon_config *cfg = p->cfg;
	struct cordon_verdict *v = p->verdict;
	struct cmdwords words = {0};
	char lbl[512];
	long rule;

	set_buf(&r->command, &r->command_cap, cmd, len);
	classify_line(p, cwd, cmd, len);
	enum cordon_risk risk = cordon_verdict_risk(v);
	uint64_t labels = cordon_verdict_labels(v);
	const char *why = cordon_verdict_reason_count(v)
				  ? cordon_verdict_reason(v, 0)
				  : cordon_risk_name(risk);
	r->risk = (int)risk;
	r->labels = labels;
	r->exact_only = risk >= CORDON_RISK_DESTRUCTIVE;
	labels_text(labels, lbl, sizeof(lbl));

	/* The classifier's walk found every command the line runs: the
	 * plain words (allow rules, grants), the deny and ask rules and the
	 * path words are read from it; the line is not parsed again. */
	const struct cmdlist *cl = cmdlist_of(v);
	bool plain = cmdwords_from_list(&p->arena, cl, &words);
	if (plain) {
		p->words = words;
		p->words_plain = true;
	}
	struct cr_state st = {.p = p, .cwd = cwd, .deny_rule = -1,
			      .ask_rule = -1, .path_hit = -1};
	enum cr_result cr = command_rules(p, cl, &words, plain, &st, &rule);
	trace(p, POLICY_STEP_DENIED_PATHS, "%s",
	      st.path_hit >= 0 ? "a word names a denied path"
	      : st.self_hit    ? "a word names cordon's own configuration"
			       : "no word names a denied path");
	trace(p, POLICY_STEP_COMMAND_RULES, "%s (rule %ld); %zu commands, %s",
	      cr == CR_DENY ? "a deny rule matches"
	      : cr == CR_ASK ? "an ask rule matches"
	      : cr == CR_ALLOW ? "an allow rule matches"
			       : "no rule matches",
	      cr == CR_NONE ? -1L : rule, cl ? cl->n : 0,
	      plain ? "all words plain" : "some words dynamic");
	trace(p, POLICY_STEP_CLASSIFIER, "risk %s, labels %s: %s",
	      cordon_risk_name(risk), lbl[0] ? lbl : "none", why);

	/* 3 for shell: a word naming a denied path or cordon's own files. */
	if (st.path_hit >= 0) {
		decide(r, CORDON_DENY, POLICY_STEP_DENIED_PATHS, true,
		       "blocked: the command names %s, which matches denied "
		       "path %s",
		       st.path_word, p->denied.pat[st.path_hit].pattern);
		return;
	}
	if (st.self_hit) {
		decide(r, CORDON_DENY, POLICY_STEP_DENIED_PATHS, true,
		       "blocked: the command names %s, cordon's own "
		       "configuration",
		       st.path_word);
		return;
	}
	/* 6: a deny rule. */
	if (cr == CR_DENY) {
		decide(r, CORDON_DENY, POLICY_STEP_COMMAND_RULES, true,
		       "blocked: matches command rule %ld (deny)", rule);
		return;
	}
	/* 7: the deny list, and any blocked verdict. */
	if (risk == CORDON_RISK_BLOCKED) {
		bool listed = labels & CORDON_L(DENYLISTED);
		decide(r, CORDON_DENY,
		       listed ? POLICY_STEP_DENIED_COMMANDS :
				POLICY_STEP_CLASSIFIER,
		       true, "blocked: %s (risk blocked; labels: %s)", why,
		       lbl[0] ? lbl : "none");
		return;
	}
	if (cr == CR_ASK) {
		decide(r, CORDON_ASK, POLICY_STEP_COMMAND_RULES, false,
		       "needs approval: matches command rule %ld (ask)", rule);
		return;
	}
	/* An allow rule covers what the command is for, not writes outside
	 * the workspace it was not expected to make. */
	uint64_t beyond = CORDON_L(WRITES_OUTSIDE_WORKSPACE) |
			  CORDON_L(SHELL_RC) | CORDON_L(PERSISTENCE);
	if (cr == CR_ALLOW && risk < CORDON_RISK_DESTRUCTIVE &&
	    !(labels & beyond)) {
		decide(r, CORDON_ALLOW, POLICY_STEP_COMMAND_RULES, false,
		       "allowed: matches command rule %ld (allow)", rule);
		return;
	}
	/* 8: nothing can hold the writes to the allowed paths. */
	if (cfg->allowed_paths_set && !p->enforces_writes &&
	    mode != CORDON_MODE_FULL_ACCESS) {
		decide(r, CORDON_ASK, POLICY_STEP_SANDBOX, false,
		       "needs approval: allowed_paths is set and the sandbox "
		       "(mode off, or none runs the command) cannot enforce "
		       "writes");
		return;
	}
	/* 9: the classifier's tier and the mode. */
	if (mode == CORDON_MODE_FULL_ACCESS) {
		decide(r, CORDON_ALLOW, POLICY_STEP_DEFAULT, false,
		       "allowed: %s command in full-access mode",
		       cordon_risk_name(risk));
		return;
	}
	if (risk == CORDON_RISK_DESTRUCTIVE) {
		decide(r, CORDON_ASK, POLICY_STEP_CLASSIFIER, false,
		       "needs approval: destructive: %s (labels: %s)", why,
		       lbl[0] ? lbl : "none");
		return;
	}
	uint64_t asks = CORDON_L(DELETE) | CORDON_L(DELETE_RECURSIVE) |
			CORDON_L(WRITES_OUTSIDE_WORKSPACE) | CORDON_L(SHELL_RC) |
			CORDON_L(PERSISTENCE) | CORDON_L(UNPARSED);
	if (labels & asks) {
		char l2[256];
		labels_text(labels & asks, l2, sizeof(l2));
		decide(r, CORDON_ASK, POLICY_STEP_MODE, false,
		       "needs approval: %s (labels: %s)", why, l2);
		return;
	}
	if (cfg->require_approval_for_execute == CONFIG_TRUE) {
		decide(r, CORDON_ASK, POLICY_STEP_MODE, false,
		       "needs approval: require_approval_for_execute is set "
		       "(risk %s)",
		       cordon_risk_name(risk));
		return;
	}
	if (cfg->require_approval_for_execute == CONFIG_FALSE ||
	    mode == CORDON_MODE_AUTO) {
		decide(r, CORDON_ALLOW, POLICY_STEP_DEFAULT, false,
		       "allowed: %s command in %s mode", cordon_risk_name(risk),
		       cordon_mode_name(mode));
		return;
	}
	decide(r, CORDON_ASK, POLICY_STEP_MODE, false,
	       "needs approval: shell commands ask in %s mode (risk %s%s%s)",
	       cordon_mode_name(mode), cordon_risk_name(risk),
	       lbl[0] ? "; labels: " : "", lbl);
}

/* ---- evaluate ------------------------------------------------------------ */

/* Whether url's host is this machine or a network that is not the public
 * internet: "localhost" and *.localhost, *.internal, and IP literals in
 * every spelling resolvers accept that are loopback, private, link-local,
 * cloud metadata … (netaddr.h). The host is read as hostlist_url_host() reads
 * it (userinfo, %XX, IDNA, a trailing dot). why gets a sentence. Names
 * that resolve inside are for cordon_fetch()'s guard, which resolves
 * them. */
static bool fetch_host_internal(const char *url, char *why, size_t cap)
{
	char host[HOSTLIST_MAX_NAME + 1];
	struct netaddr_addr a;
	struct netaddr_verdict v;
	enum netaddr_host kind = hostlist_url_host(url, true, host, &a);
	size_t n = strlen(host);

	if (kind == NETADDR_HOST_NAME &&
	    (strcmp(host, "localhost") == 0 ||
	     (n > 10 && strcmp(host + n - 10, ".localhost") == 0) ||
	     (n > 9 && strcmp(host + n - 9, ".internal") == 0))) {
		snprintf(why, cap, "the URL's host %s is this machine or its "
			 "internal network", host);
		return true;
	}
	if (kind != NETADDR_HOST_IP)
		return false;
	netaddr_classify(NULL, &a, &v);
	if (!netaddr_denied(&v))
		return false;
	snprintf(why, cap, "the URL's host %s is a %s address, not the "
		 "public internet", host, netaddr_verdict_name(&v));
	return true;
}

/* An imported Claude Code ask or allow rule on top of cordon's own
 * conclusion. ask turns an allow into an ask. allow answers only what the
 * permission mode would have asked: never a hard decision, never a
 * destructive command or one that writes beyond the workspace, never
 * what the sandbox step or the classifier asked (cordon is stricter than
 * the rule there). */
static void apply_permissions(struct cordon_result *r, int perm,
			      const char *why)
{
	/* What a rule about a program's name cannot vouch for: the program
	 * made to run another one, code built at run time, writes that
	 * outlast the call. */
	uint64_t beyond = CORDON_L(WRITES_OUTSIDE_WORKSPACE) |
			  CORDON_L(SHELL_RC) | CORDON_L(PERSISTENCE) |
			  CORDON_L(UNPARSED) | CORDON_L(NESTED_SHELL) |
			  CORDON_L(EVAL) | CORDON_L(COMMAND_SUBSTITUTION) |
			  CORDON_L(REMOTE_CODE) | CORDON_L(REVERSE_SHELL) |
			  CORDON_L(EXFILTRATION) | CORDON_L(OBFUSCATION) |
			  CORDON_L(DYNAMIC_COMMAND) | CORDON_L(PRIVILEGE) |
			  CORDON_L(DEPTH_LIMIT) | CORDON_L(SECRETS_READ);

	if (perm == CORDON_ASK && r->decision == CORDON_ALLOW) {
		decide(r, CORDON_ASK, POLICY_STEP_PERMISSIONS, false,
		       "needs approval: matches %s (ask)", why);
		return;
	}
	if (perm != CORDON_ALLOW || r->decision != CORDON_ASK || r->hard)
		return;
	if (strcmp(r->step, policy_step_name(POLICY_STEP_MODE)) != 0 &&
	    strcmp(r->step, policy_step_name(POLICY_STEP_DEFAULT)) != 0)
		return;
	if (r->risk >= CORDON_RISK_DESTRUCTIVE || (r->labels & beyond) ||
	    r->beyond)
		return;
	decide(r, CORDON_ALLOW, POLICY_STEP_PERMISSIONS, false,
	       "allowed: matches %s (allow)", why);
}

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first key that appears twice in one object anywhere in v, or NULL
 * (a sorted copy of the keys for big objects, so it stays n log n).
 * cJSON keeps the first of duplicate keys while JavaScript and Python keep
 * the last: a tool could act on a value cordon never saw. *oom is set when
 * the check could not be made. */
static const char *json_dup_key(const cJSON *v, unsigned depth, bool *oom)
{
	if (!v)
		return NULL;
	if (depth > 64) {
		*oom = true;
		return NULL;
	}
	if (cJSON_IsObject(v)) {
		size_t n = 0;
		for (const cJSON *a = v->child; a; a = a->next)
			n++;
		if (n > 1) {
			const char **keys = cordon__malloc(n * sizeof(*keys));
			if (!keys) {
				*oom = true;
				return NULL;
			}
			n = 0;
			for (const cJSON *a = v->child; a; a = a->next)
				keys[n++] = a->string ? a->string : "";
			qsort(keys, n, sizeof(*keys), cmp_keys);
			const char *dup = NULL;
			for (size_t i = 1; i < n && !dup; i++)
				if (strcmp(keys[i - 1], keys[i]) == 0)
					dup = keys[i];
			free(keys);
			if (dup)
				return dup;
		}
	}
	for (const cJSON *a = v->child; a; a = a->next) {
		const char *d = json_dup_key(a, depth + 1, oom);
		if (d || *oom)
			return d;
	}
	return NULL;
}

static bool kind_changes_things(enum cordon_kind k)
{
	return k == CORDON_KIND_WRITE || k == CORDON_KIND_DELETE ||
	       k == CORDON_KIND_EXECUTE || k == CORDON_KIND_MCP ||
	       k == CORDON_KIND_OTHER;
}

static void evaluate(struct cordon_policy *p, const struct cordon_call *call,
		     size_t args_len, struct cordon_result *r)
{
	const struct cordon_config *cfg = p->cfg;
	const char *tool = r->tool;
	const struct config_tool *te = NULL;
	enum cordon_mode mode = config_effective_mode(cfg);
	char msg[512];

	p->fence = NULL;
	p->words_plain = false;
	p->classified = NULL;
	if (!tool[0]) {
		decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
		       "validation error: the call names no tool");
		return;
	}
	r->kind = config_tool_kind(cfg, tool, &te);

	/* Guardrails. A denied tool dies before its arguments are read. */
	trace(p, POLICY_STEP_DENIED_TOOLS, "tool '%s' (kind %s)%s", tool,
	      cordon_kind_name(r->kind),
	      tool_listed(&cfg->denied_tools, tool) ? ": listed" : ": not listed");
	if (tool_listed(&cfg->denied_tools, tool)) {
		decide(r, CORDON_DENY, POLICY_STEP_DENIED_TOOLS, true,
		       "blocked: tool '%s' is in denied_tools", tool);
		return;
	}
	trace(p, POLICY_STEP_ALLOWED_TOOLS, "%s",
	      !cfg->allowed_tools_set ? "no allowed_tools list"
	      : tool_listed(&cfg->allowed_tools, tool) ? "the tool is listed"
						       : "the tool is not listed");
	if (cfg->allowed_tools_set && !tool_listed(&cfg->allowed_tools, tool)) {
		decide(r, CORDON_DENY, POLICY_STEP_ALLOWED_TOOLS, true,
		       "blocked: tool '%s' is not in allowed_tools", tool);
		return;
	}
	if (call->args_json && args_len > POLICY_MAX_ARGS) {
		decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
		       "blocked: the arguments are %zu bytes, over the limit "
		       "of %d",
		       args_len, POLICY_MAX_ARGS);
		return;
	}
	if (call->args_json &&
	    json_nul_escape_at(call->args_json, args_len) < args_len) {
		decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
		       "validation error: the arguments hold a \\u0000 escape "
		       "(a NUL byte would hide the rest of a string)");
		return;
	}
	cJSON *args = call->args_json
			      ? cJSON_ParseWithLength(call->args_json, args_len)
			      : cJSON_CreateObject();
	if (!args || !cJSON_IsObject(args)) {
		decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
		       "validation error: the arguments are not a JSON object");
		cJSON_Delete(args);
		return;
	}
	bool oom = false;
	const char *dup = json_dup_key(args, 0, &oom);
	if (oom) {
		decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
		       "validation error: args: nested deeper than 64 levels "
		       "(or out of memory): not checked, so refused");
		goto out;
	}
	if (dup) {
		decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
		       "validation error: args: key '%.64s' appears twice (a "
		       "tool may read another value than the one judged)",
		       dup);
		goto out;
	}
	trace(p, POLICY_STEP_SCHEMA, "the arguments are one JSON object, no "
	      "duplicate keys");
	if (!schema_arglimit_check(cfg->arg_limits, cfg->narg_limits, tool, args, msg,
			    sizeof(msg))) {
		decide(r, CORDON_DENY, POLICY_STEP_ARG_LIMITS, true, "%s", msg);
		goto out;
	}
	const char *schema = call->schema_json ? call->schema_json
			     : te		   ? te->schema_json
						   : NULL;
	if (schema) {
		enum schema_result sr = schema_validate_text(schema, args, msg,
							     sizeof(msg));
		if (sr != SCHEMA_OK) {
			decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true, "%s",
			       sr == SCHEMA_NOMEM ? "blocked: out of memory" :
						    msg);
			goto out;
		}
	}
	trace(p, POLICY_STEP_ARG_LIMITS, "within the arg_limits (%zu rules)",
	      cfg->narg_limits);
	if (schema)
		trace(p, POLICY_STEP_SCHEMA, "valid against the tool's schema");
	r->confirm = tool_listed(&cfg->require_confirm, tool);

	/* 1: read-only mode. */
	trace(p, POLICY_STEP_READ_ONLY, "%s",
	      !cfg->read_only		      ? "read-only mode is off"
	      : kind_changes_things(r->kind) ? "read-only mode, and the tool changes things"
					      : "read-only mode; the tool only reads");
	if (cfg->read_only && kind_changes_things(r->kind)) {
		decide(r, CORDON_DENY, POLICY_STEP_READ_ONLY, true,
		       "blocked: read-only mode: tool '%s' (%s) is not allowed",
		       tool, cordon_kind_name(r->kind));
		goto out;
	}

	char cwdbuf[PATH_MAX];
	const char *cwd = p->workspace;
	if (call->cwd && call->cwd[0]) {
		char *c = path_normalize_call(&p->arena, p->workspace, p->home,
					      call->cwd, strlen(call->cwd));
		if (c && c[0] == '/' && strlen(c) < sizeof(cwdbuf)) {
			memcpy(cwdbuf, c, strlen(c) + 1);
			cwd = cwdbuf;
		}
	}
	p->fence = path_under(cwd, p->workspace) ? cwd : p->workspace;

	/* The imported Claude Code rules: a deny is final here; ask and
	 * allow are applied to what cordon's own steps conclude (below). */
	char pwhy[256] = "";
	int perm = -1;
	const cJSON *bash_cmd =
		cJSON_GetObjectItemCaseSensitive(args, "command");
	if (p->perms && strcmp(tool, "Bash") == 0 &&
	    cJSON_IsString(bash_cmd)) {
		/* classified once: the shell steps below read the same */
		classify_line(p, cwd, bash_cmd->valuestring,
			      strlen(bash_cmd->valuestring));
		perm = ccperm_decide_cmds(p->perms, args, cwd,
					  cmdlist_of(p->verdict), pwhy,
					  sizeof(pwhy));
	} else if (p->perms) {
		perm = ccperm_decide(p->perms, tool, args, cwd, pwhy,
				     sizeof(pwhy));
	}
	if (p->perms)
		trace(p, POLICY_STEP_PERMISSIONS, "Claude Code rules: %s",
		      perm < 0 ? "none matches" : pwhy);
	if (perm == CORDON_DENY) {
		decide(r, CORDON_DENY, POLICY_STEP_PERMISSIONS, true,
		       "blocked: matches %s (deny)", pwhy);
		goto out;
	}

	const char *argname;
	const cJSON *target = target_arg(te, args, &argname);
	switch (r->kind) {
	case CORDON_KIND_READ:
	case CORDON_KIND_WRITE:
	case CORDON_KIND_DELETE: {
		/* Every path argument the tool has is judged, not only the
		 * first present: a tool may read "path" or "absolute_path". */
		struct step_out acc = { .out = OUT_ALLOW,
					.step = POLICY_STEP__COUNT };
		size_t seen = 0;
		for (size_t i = 0; te && i < te->args.n; i++) {
			const char *an = te->args.v[i];
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, an);
			if (!v || cJSON_IsNull(v))
				continue;
			if (cJSON_IsString(v)) {
				judge_path(p, cwd, r->kind, mode, v->valuestring,
					   strlen(v->valuestring), &acc, r);
				seen++;
				continue;
			}
			const cJSON *it;
			bool okarr = cJSON_IsArray(v) && cJSON_GetArraySize(v) > 0;
			cJSON_ArrayForEach(it, v) okarr = okarr && cJSON_IsString(it);
			if (!okarr) {
				decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
				       "validation error: args.%s: expected a path "
				       "string or a list of them",
				       an);
				goto out;
			}
			cJSON_ArrayForEach(it, v) {
				judge_path(p, cwd, r->kind, mode, it->valuestring,
					   strlen(it->valuestring), &acc, r);
				seen++;
			}
		}
		if (!seen) {
			if (r->kind != CORDON_KIND_READ) {
				decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
				       "validation error: args: missing "
				       "argument '%s' (the path to %s)",
				       argname ? argname : "path",
				       cordon_kind_name(r->kind));
				goto out;
			}
			judge_path(p, cwd, r->kind, mode, cwd, strlen(cwd), &acc, r);
		}
		if (acc.out != OUT_DENY)
			search_patterns(p, tool, args, cwd, &acc);
		trace(p, POLICY_STEP_PATH_RULES,
		      "%zu path argument(s) judged by path_rules, denied_paths, "
		      "read_only_paths and allowed_paths",
		      seen);
		decide_out(r, &acc);
		break;
	}
	case CORDON_KIND_EXECUTE:
		if (!target || !cJSON_IsString(target)) {
			decide(r, CORDON_DENY, POLICY_STEP_SCHEMA, true,
			       "validation error: args: missing string "
			       "argument '%s' (the command)",
			       argname ? argname : "command");
			goto out;
		}
		judge_command(p, cwd, mode, target->valuestring,
			      strlen(target->valuestring), r);
		break;
	case CORDON_KIND_FETCH:
	case CORDON_KIND_MCP:
		/* A fetch is granted per URL, not for the whole tool. */
		if (r->kind == CORDON_KIND_FETCH && target &&
		    cJSON_IsString(target))
			set_buf(&r->command, &r->command_cap, target->valuestring,
				strlen(target->valuestring));
		/* A fetch the agent's own tool makes can be pointed inside:
		 * this host, the network behind it, the cloud's metadata. */
		if (r->kind == CORDON_KIND_FETCH && target &&
		    cJSON_IsString(target) && mode != CORDON_MODE_FULL_ACCESS &&
		    fetch_host_internal(target->valuestring, msg,
					sizeof(msg))) {
			decide(r, CORDON_ASK, POLICY_STEP_FETCH_TARGET, false,
			       "needs approval: %s", msg);
			r->beyond = true;
			break;
		}
		if (mode >= CORDON_MODE_AUTO)
			decide(r, CORDON_ALLOW, POLICY_STEP_DEFAULT, false,
			       "allowed: %s call in %s mode",
			       cordon_kind_name(r->kind),
			       cordon_mode_name(mode));
		else
			decide(r, CORDON_ASK, POLICY_STEP_MODE, false,
			       "needs approval: %s calls ask in %s mode",
			       cordon_kind_name(r->kind),
			       cordon_mode_name(mode));
		break;
	case CORDON_KIND_OTHER:
		if (mode == CORDON_MODE_FULL_ACCESS)
			decide(r, CORDON_ALLOW, POLICY_STEP_DEFAULT, false,
			       "allowed: unknown tool in full-access mode");
		else
			decide(r, CORDON_ASK, POLICY_STEP_MODE, false,
			       "needs approval: tool '%s' is not in the tool "
			       "map",
			       tool);
		break;
	}
	if (perm >= 0)
		apply_permissions(r, perm, pwhy);
	/* With deny rules for commands, a command whose name is known only
	 * when it runs ($CMD, $(…)) could be one of them. */
	if (perm < 0 && cfg->perm_deny.n && r->kind == CORDON_KIND_EXECUTE &&
	    r->decision == CORDON_ALLOW &&
	    (r->labels & CORDON_L(DYNAMIC_COMMAND)))
		decide(r, CORDON_ASK, POLICY_STEP_PERMISSIONS, false,
		       "needs approval: the command's name is known only when "
		       "it runs, and permissions.deny names commands it could "
		       "be");
	if (r->confirm && r->decision == CORDON_ALLOW) {
		decide(r, CORDON_ASK, POLICY_STEP_REQUIRE_CONFIRM, false,
		       "needs approval: tool '%s' is in require_confirm", tool);
	}
out:
	cJSON_Delete(args);
}

enum cordon_err cordon_policy_evaluate(struct cordon_policy *p,
				       const struct cordon_call *call,
				       struct cordon_result *r,
				       struct cordon_diag *diag)
{
	if (!p || !call || !r)
		return CORDON_E_INVAL;
	size_t len = call->args_json ? (call->args_len ? call->args_len
						       : strlen(call->args_json))
				     : 0;
	if (!result_reset(r, call, len)) {
		decide(r, CORDON_DENY, POLICY_STEP_DEFAULT, true,
		       "blocked: out of memory");
		diag_set(diag, CORDON_E_NOMEM, "out of memory");
		return CORDON_E_NOMEM;
	}
	arena_reset(&p->arena);
	evaluate(p, call, len, r);
	if (p->trace) {
		int s = policy_step_from_name(r->step);
		trace(p, s >= 0 ? (enum policy_step)s : POLICY_STEP_DEFAULT,
		      "decision %s%s: %s", cordon_decision_name(r->decision),
		      r->hard ? " (hard)" : "", r->reason);
	}
	return CORDON_OK;
}

/* ---- decide: grants, the prompt, the sink -------------------------------- */

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool answer_allows(enum cordon_answer a)
{
	return a == CORDON_ANSWER_ALLOW_ONCE || a == CORDON_ANSWER_ALLOW_SESSION ||
	       a == CORDON_ANSWER_ALLOW_ALWAYS;
}

static void finish(struct cordon_policy *p, struct cordon_result *r)
{
	if (p->sink)
		p->sink(p->sink_ud, r);
}

enum cordon_err cordon_policy_decide(struct cordon_policy *p,
				     const struct cordon_call *call,
				     unsigned flags, struct cordon_result *r,
				     struct cordon_diag *diag)
{
	if (!p || !call || !r)
		return CORDON_E_INVAL;
	enum cordon_err err = cordon_policy_evaluate(p, call, r, diag);
	struct approvals_query q = {0};

	if (err || r->decision == CORDON_DENY) {
		finish(p, r);
		return err;
	}
	q.session = call->session;
	q.tool = r->tool;
	q.kind = r->kind;
	q.exact_only = r->exact_only;
	q.labels = r->labels;
	if (r->kind == CORDON_KIND_FETCH && r->command && r->command[0]) {
		q.command = r->command;
	} else if (r->kind == CORDON_KIND_EXECUTE && r->command) {
		q.command = r->command;
		if (p->words_plain)
			q.words = &p->words;
	} else if (r->path && r->path[0] && r->npaths == 1) {
		/* A list of paths gets no path grant: one answer must not
		 * cover the other paths of the list. */
		q.path = r->path;
	}
	if (p->store.unusable && r->decision == CORDON_ALLOW) {
		/* A "never" in the file cannot be checked: ask. */
		decide(r, CORDON_ASK, POLICY_STEP_APPROVALS_UNREADABLE, false,
		       "needs approval: the approvals file %s could not be "
		       "read, so its deny rules cannot be checked",
		       p->store.path ? p->store.path : "");
	}
	if (!r->confirm) {
		enum policy_step src = POLICY_STEP_APPROVALS_RULE;
		int g = approvals_lookup(&p->store, &q, &src);
		if (g != -1)
			snprintf(r->answered_by, sizeof(r->answered_by), "%s",
				 src == POLICY_STEP_SESSION_GRANT ?
					 "session-grant" :
					 "approvals-file");
		if (g == CORDON_DENY) {
			decide(r, CORDON_DENY, src, false,
			       "blocked: denied by an earlier answer (%s)",
			       policy_step_name(src));
			finish(p, r);
			return CORDON_OK;
		}
		if (g == CORDON_ALLOW && r->decision == CORDON_ASK) {
			decide(r, CORDON_ALLOW, src, false,
			       "allowed: granted by an earlier answer (%s)",
			       policy_step_name(src));
			finish(p, r);
			return CORDON_OK;
		}
	}
	if (r->decision != CORDON_ASK || (flags & CORDON_DECIDE_NO_PROMPT)) {
		finish(p, r);
		return CORDON_OK;
	}
	if (!p->prompt) {
		char why[sizeof(r->reason)];
		memcpy(why, r->reason, sizeof(why));
		decide(r, CORDON_DENY, POLICY_STEP_NO_PROMPT, false,
		       "blocked: needs approval and no one can be asked "
		       "(no terminal and no callback): %s",
		       why);
		finish(p, r);
		return CORDON_OK;
	}

	if (!r->confirm) {
		const char *why;
		if (approvals_family(&q, &r->family, &why) != CORDON_OK) {
			decide(r, CORDON_DENY, POLICY_STEP_USER, false,
			       "blocked: out of memory");
			finish(p, r);
			return CORDON_E_NOMEM;
		}
	}
	struct cordon_reply reply = {CORDON_ANSWER_DENY_ONCE, NULL, 0, NULL};
	long t0 = now_ms();
	p->prompt(p->prompt_ud, r, &reply);
	long limit = (long)p->cfg->approvals_timeout_s * 1000;
	enum cordon_answer a = reply.answer;
	if (a == POLICY_ANSWER_NOBODY) {
		char why[sizeof(r->reason)];
		memcpy(why, r->reason, sizeof(why));
		decide(r, CORDON_DENY, POLICY_STEP_NO_PROMPT, false,
		       "blocked: needs approval and no one can be asked "
		       "(%s): %s",
		       reply.by ? reply.by : "no answer", why);
		finish(p, r);
		return CORDON_OK;
	}
	if ((unsigned)a > CORDON_ANSWER_TIMED_OUT)
		a = CORDON_ANSWER_DENY_ONCE;
	if (now_ms() - t0 > limit)
		a = CORDON_ANSWER_TIMED_OUT;
	/* A require_confirm tool needs a fresh yes every time. */
	if (r->confirm && answer_allows(a))
		a = CORDON_ANSWER_ALLOW_ONCE;
	r->answer = (int)a;
	snprintf(r->answered_by, sizeof(r->answered_by), "%s",
		 reply.by ? reply.by : "callback");

	char note[512] = "";
	struct strlist amend = {(char **)reply.amend_prefix,
				    reply.amend_len};
	if (a != CORDON_ANSWER_TIMED_OUT && a != CORDON_ANSWER_ABORT) {
		err = approvals_record(&p->store, &q, a,
				  reply.amend_prefix ? &amend : NULL, note,
				  sizeof(note));
		if (err == CORDON_E_NOMEM) {
			decide(r, CORDON_DENY, POLICY_STEP_USER, false,
			       "blocked: out of memory recording the answer");
			finish(p, r);
			return err;
		}
		err = CORDON_OK;
	}
	if (a == CORDON_ANSWER_TIMED_OUT) {
		decide(r, CORDON_DENY, POLICY_STEP_TIMED_OUT, false,
		       "blocked: the approval prompt was not answered within "
		       "%u s",
		       p->cfg->approvals_timeout_s);
	} else if (answer_allows(a)) {
		decide(r, CORDON_ALLOW, POLICY_STEP_USER, false,
		       "allowed: %s%s%s", cordon_answer_name(a),
		       note[0] ? "; " : "", note);
	} else {
		decide(r, CORDON_DENY, POLICY_STEP_USER, false,
		       "blocked: the user answered %s", cordon_answer_name(a));
	}
	finish(p, r);
	return err;
}
