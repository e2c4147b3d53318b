/* shellrun — the argv-only sandboxed runner of the C API (no shell parses
 * the command: argv[0] must be allowed by name).
 *
 * cordon_shell_run() is `cordon run --argv-only` for a host program: the
 * same sandbox (sandbox_run with argv_only), the same defaults (30 s time-out,
 * CPU time capped at the time-out, 1 MiB of output, stdin /dev/null,
 * network none, memory 4096 MB, the built-in environment filter), the same
 * blocked message, but the output is captured into the result and nothing
 * is printed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon.h"
#include "diag.h"
#include "envfilter.h"
#include "sandbox.h"

#include "alloc.h"
#include "banned.h"

#define SHELL_DEFAULT_TIMEOUT 30U
#define SHELL_DEFAULT_CAP ((size_t)1024 * 1024)
#define SHELL_MEMORY_MB 4096UL
/* The CLI's ceilings for --timeout and --cpu: a week. */
#define SHELL_MAX_TIMEOUT (7UL * 24 * 3600)
/* The sandbox captures at most 64 MiB (SANDBOX_CAPTURE_MAX) and then drops
 * bytes without a note; half of it leaves room for the note. */
#define SHELL_MAX_CAP ((size_t)32 << 20)
#define SHELL_MAX_ALLOW 256 /* the sandbox's SANDBOX_MAX_LIST */
#define SHELL_MAX_ENV 4096 /* host variables added to one run */

/* The options and the command, checked before anything runs. */
static enum cordon_err shell_check(const struct cordon_shell_opts *o,
				   char *const argv[], struct cordon_diag *diag)
{
	size_t n;

	if (!argv || !argv[0])
		return diag_set(diag, CORDON_E_INVAL,
				"cordon_shell_run: no command (empty argv)");
	if (!argv[0][0])
		return diag_set(diag, CORDON_E_INVAL,
				"cordon_shell_run: argv[0] is empty");
	if (o->nallow > SHELL_MAX_ALLOW)
		return diag_set(diag, CORDON_E_LIMIT,
				"cordon_shell_run: %zu allowed commands, "
				"more than the limit %d",
				o->nallow, SHELL_MAX_ALLOW);
	if (o->nallow && !o->allow)
		return diag_set(diag, CORDON_E_INVAL,
				"cordon_shell_run: nallow is %zu but allow "
				"is NULL",
				o->nallow);
	for (size_t i = 0; i < o->nallow; i++) {
		if (!o->allow[i] || !o->allow[i][0])
			return diag_set(diag, CORDON_E_INVAL,
					"cordon_shell_run: allow[%zu] is "
					"empty",
					i);
		if (strchr(o->allow[i], '/'))
			return diag_set(diag, CORDON_E_INVAL,
					"cordon_shell_run: allow[%zu] '%s': "
					"names only, not paths",
					i, o->allow[i]);
	}
	if (o->timeout_s > SHELL_MAX_TIMEOUT)
		return diag_set(diag, CORDON_E_LIMIT,
				"cordon_shell_run: timeout_s %u is over the "
				"limit %lu (a week)",
				o->timeout_s, SHELL_MAX_TIMEOUT);
	if (o->cpu_s > SHELL_MAX_TIMEOUT)
		return diag_set(diag, CORDON_E_LIMIT,
				"cordon_shell_run: cpu_s %lu is over the "
				"limit %lu (a week)",
				o->cpu_s, SHELL_MAX_TIMEOUT);
	if (o->output_cap > SHELL_MAX_CAP)
		return diag_set(diag, CORDON_E_LIMIT,
				"cordon_shell_run: output_cap %zu is over "
				"the limit %zu (32 MiB)",
				o->output_cap, SHELL_MAX_CAP);
	for (n = 0; o->env && o->env[n]; n++) {
		const char *eq = strchr(o->env[n], '=');

		if (n >= SHELL_MAX_ENV)
			return diag_set(diag, CORDON_E_LIMIT,
					"cordon_shell_run: more than %d env "
					"entries",
					SHELL_MAX_ENV);
		if (!eq || eq == o->env[n])
			return diag_set(diag, CORDON_E_INVAL,
					"cordon_shell_run: env[%zu] '%.64s' "
					"is not NAME=value",
					n, o->env[n]);
	}
	return CORDON_OK;
}

/* The sandbox options of `cordon run --argv-only` with the CLI's
 * defaults, capturing the output into *out and *len. */
static void shell_sbx_opts(const struct cordon_shell_opts *o,
			   struct sandbox_opts *so, char **out, size_t *len)
{
	memset(so, 0, sizeof(*so));
	so->workspace = o->workspace;
	so->network = SANDBOX_NET_NONE;
	so->memory_mb = SHELL_MEMORY_MB;
	so->timeout_s = o->timeout_s ? o->timeout_s : SHELL_DEFAULT_TIMEOUT;
	/* CPU time never beyond the wall-clock time-out, as in the CLI. */
	so->cpu_s = o->cpu_s ? o->cpu_s : so->timeout_s;
	so->mode = o->strict ? SANDBOX_MODE_STRICT : SANDBOX_MODE_AUTO;
	so->backend = SANDBOX_BACKEND_BEST;
	so->env_allow = envfilter_default_allow();
	so->env_deny = envfilter_default_deny();
	so->extra_env = o->env;
	so->argv_only = true;
	so->allow_cmds = o->allow;
	so->nallow_cmds = o->nallow;
	so->output_cap = o->output_cap ? o->output_cap : SHELL_DEFAULT_CAP;
	so->stdin_null = 1;
	so->capture_out = out;
	so->capture_len = len;
}

/* The refusal text into the result's fixed buffer; a long one (many
 * allowed names) ends in "..." rather than being cut silently. */
static void shell_message(char *dst, size_t cap, const char *src)
{
	int n = snprintf(dst, cap, "%s", src);

	if (n >= 0 && (size_t)n >= cap && cap > 4)
		memcpy(dst + cap - 4, "...", 4);
}

enum cordon_err cordon_shell_run(const struct cordon_shell_opts *o,
				 char *const argv[],
				 struct cordon_shell_result *res,
				 struct cordon_diag *diag)
{
	struct sandbox_opts so;
	struct sandbox_report rep;
	enum cordon_err err;
	char *out = NULL;
	size_t len = 0;

	diag_clear(diag);
	if (!res)
		return diag_set(diag, CORDON_E_INVAL,
				"cordon_shell_run: no result");
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	if (!o)
		return diag_set(diag, CORDON_E_INVAL,
				"cordon_shell_run: no options");
	err = shell_check(o, argv, diag);
	if (err != CORDON_OK)
		return err;

	shell_sbx_opts(o, &so, &out, &len);
	err = sandbox_run(&so, argv, &rep, diag);
	if (err != CORDON_OK) {
		free(out);
		return err;
	}

	/* A run with no output, or one that never started, still gets a
	 * string: callers need not test for NULL. */
	if (!out) {
		out = cordon__calloc(1, 1);
		len = 0;
	}
	res->report_json = sandbox_report_json(&rep);
	if (!out || !res->report_json) {
		free(out);
		free(res->report_json);
		res->report_json = NULL;
		return diag_set(diag, CORDON_E_NOMEM,
				"cordon_shell_run: out of memory for the "
				"output or the report");
	}
	res->output = out;
	res->output_len = len;
	res->status = rep.status;
	res->signal = rep.signal;
	res->timed_out = rep.timed_out;
	res->truncated = rep.output_truncated;
	/* rep.error is set only when the command never started: blocked,
	 * refused (125), or exec failed (126/127). */
	if (rep.error[0]) {
		res->blocked = strncmp(rep.error, "blocked:", 8) == 0;
		res->exit_code = -1;
		shell_message(res->message, sizeof(res->message), rep.error);
	} else {
		res->exit_code = rep.exit_code;
	}
	return CORDON_OK;
}

void cordon_shell_result_free(struct cordon_shell_result *res)
{
	if (!res)
		return;
	free(res->output);
	free(res->report_json);
	res->output = NULL;
	res->output_len = 0;
	res->report_json = NULL;
}
