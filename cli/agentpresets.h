/* agentpresets — `cordon run --agent claude|gemini|codex`: a whole agent
 * confined, the process that holds its key included.
 *
 * A preset adds to `cordon run`'s options what the agent needs and
 * nothing more: its state directory writable (~/.claude and
 * ~/.claude.json, ~/.gemini, ~/.codex, or CLAUDE_CONFIG_DIR / CODEX_HOME
 * when set), which holds its credential files; the network only through
 * cordon's proxy, to the agent's API hosts (and the host of its base-URL
 * variable when that is set), unless --network or --allow-host say
 * otherwise; and the agent's own non-secret variables (base URL, model,
 * config directory) passed through when set. A variable the environment's
 * deny-list matches (ANTHROPIC_API_KEY, OPENAI_API_KEY …) is never passed
 * by a preset: only --pass-env NAME hands one through, by name; what was
 * passed is printed on stderr and written in the run report
 * ("passedEnv", names only) and the audit record.
 *
 * Also here, because they are `cordon run` options owned by no other
 * file: --json for --probe, and the proxy turned on when --srt-settings
 * brings allowedDomains.
 */
#ifndef CORDON_CLI_AGENTPRESETS_H
#define CORDON_CLI_AGENTPRESETS_H

#include <getopt.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "runopts.h"

#define CLI_PRESET_MAX_ENV 64

struct cli_preset {
	const char *agent;	/* --agent, or NULL */
	const char *pass[CLI_PRESET_MAX_ENV]; /* --pass-env names */
	size_t npass;
	bool json;		/* --json */
	/* filled by cli_preset_env: "NAME=value" (owned), NULL-terminated */
	char *env[2 * CLI_PRESET_MAX_ENV + 1];
	size_t nenv;
	char paths[4][4096];	/* the state paths handed to --write */
	char base_host[300];	/* the base URL's host[:port] */
};

/* `cordon run`'s options: cli_runopts_longopts and the three above. */
const struct option *cli_preset_longopts(void);
bool cli_preset_owns(int c);
/* One parsed option of ours; 0, or the exit status after saying why. */
int cli_preset_option(struct cli_preset *p, struct cli_runopts *r, int c,
		      const char *arg);

/* After the options are parsed, before cli_runopts_check(): the state
 * paths as --write, the API hosts as --allow-host (unless the user chose
 * the network). 0, or the exit status after saying why. */
int cli_preset_apply(struct cli_preset *p, struct cli_runopts *r);

/* After cli_runopts_apply_config(): srt's allowedDomains turn the proxy
 * on; the variables to pass become r->sbx.extra_env, and are named on
 * stderr. 0, or the exit status after saying why. */
int cli_preset_env(struct cli_preset *p, struct cli_runopts *r,
		   const struct cordon_config *cfg);

/* The run report with "agent" and "passedEnv" added when a preset or
 * --pass-env was used (report is freed; the result is malloc'd), else
 * report itself. NULL when out of memory. */
char *cli_preset_report(const struct cli_preset *p, char *report);

/* --report: with a preset or --pass-env, report (from cli_preset_report)
 * to the report's file or stdout; else cli_runopts_write_report(). 0, or
 * -1 after saying why. */
int cli_preset_write_report(const struct cli_preset *p,
			    const struct cli_runopts *r,
			    const struct sandbox_report *rep,
			    const char *report);

/* The backends as sandbox_probe() found them (fresh: tried now):
 * [{"name", "works", "enforcement" | "why"}], *best the best one's
 * SANDBOX_BACKEND_* or -1. NULL when out of memory. Shared with
 * `cordon doctor`. */
cJSON *cli_probe_backends(bool fresh, int *best);

/* --probe --json: {"backends": [{"name", "works", "enforcement"|"why"}],
 * "best": NAME|null}; the exit status. */
int cli_preset_probe_json(void);

void cli_preset_free(struct cli_preset *p);

#endif
