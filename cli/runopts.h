/* runopts — the options of `cordon run`, shared by every command that runs
 * something in the sandbox (`cordon run`, `cordon mcp --sandbox`), so they
 * take exactly the same options with the same checks and the same mapping
 * of the configuration onto struct sandbox_opts.
 *
 * The order of use:
 *   cli_runopts_init()
 *   getopt_long() over a table holding cli_runopts_longopts, each code for
 *     which cli_runopts_owns() is true handed to cli_runopts_option()
 *   cli_runopts_check()        the options among themselves
 *   cli_runopts_load_config()  the layers and --srt-settings
 *   cli_runopts_apply_config() the configuration, then r->sbx is complete
 *   sandbox_run(&r->sbx, …), cli_runopts_write_report()
 *   cli_runopts_free()
 * Every function that can fail prints why (prefixed with r->prog) and
 * returns the exit status to use (CLI_RUNOPTS_EXIT_SETUP), else 0.
 */
#ifndef CORDON_CLI_RUNOPTS_H
#define CORDON_CLI_RUNOPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "sandbox.h"

#define CLI_RUNOPTS_EXIT_SETUP 125
#define CLI_RUNOPTS_MAX_LIST 256
#define CLI_RUNOPTS_HELP 1000 /* the code of --help in the table */

struct cli_runopts {
	const char *prog; /* "cordon run": the prefix of every message */
	const char *help; /* "cordon run --help": named in usage errors */
	struct sandbox_opts sbx;
	const char *config;
	const char *report;
	int report_fd; /* --report FILE, opened by cli_runopts_check */
	const char *srt_settings; /* --srt-settings FILE */
	const char *audit_log;    /* --audit-log FILE */
	const char *write[CLI_RUNOPTS_MAX_LIST];
	size_t nwrite;
	const char *deny[CLI_RUNOPTS_MAX_LIST];
	size_t ndeny;
	const char *allow[CLI_RUNOPTS_MAX_LIST];
	size_t nallow;
	char *allow_buf[CLI_RUNOPTS_MAX_LIST]; /* --allow-cmd, split (owned) */
	size_t nallow_buf;
	/* the proxy's lists: the options, then the configuration's */
	const char *hosts[2 * CLI_RUNOPTS_MAX_LIST];
	size_t nhosts;
	const char *deny_hosts[2 * CLI_RUNOPTS_MAX_LIST];
	size_t ndeny_hosts;
	bool network_set;
	/* the control endpoint */
	unsigned long control_port;
	bool control_set;
	const char *token_env;
	const char *secret_env; /* --inject-secret-env */
	unsigned long inject_port;
	char control_listen[32];
	struct strlist env_deny; /* the deny list, token_env, secret_env
				      * (the array is owned) */
	bool mode_set, memory_set, timeout_set, cpu_set, cap_set, probe;
};

/* The options, terminated by an all-zero entry; --config, --probe and
 * --help (code CLI_RUNOPTS_HELP, left to the caller) are among them (a
 * command that has its own drops them from its table). Their codes are
 * below CLI_RUNOPTS_HELP. */
extern const struct option cli_runopts_longopts[];

/* Zeroes r and sets the defaults of `cordon run` (memory 4096 MiB, mode
 * auto). prog and help are borrowed. */
void cli_runopts_init(struct cli_runopts *r, const char *prog,
		      const char *help);
void cli_runopts_free(struct cli_runopts *r);

/* Whether c is the code of one of cli_runopts_longopts (not --help). */
bool cli_runopts_owns(int c);
/* Applies one parsed option (c from cli_runopts_owns, arg its optarg). */
int cli_runopts_option(struct cli_runopts *r, int c, const char *arg);

/* What the options say among themselves: --allow-host implies the proxy,
 * the control endpoint and credential injection (their variables read),
 * --argv-only needs --allow-cmd. */
int cli_runopts_check(struct cli_runopts *r);

/* The configuration layers (cli_load_config with r->config and the
 * workspace), then --srt-settings imported (import_srt_settings) as one more
 * layer; its warnings go to stderr. 0 with *cfg set, else the exit status
 * after saying why. */
int cli_runopts_load_config(struct cli_runopts *r,
			    struct cordon_config **cfg);

/* The configuration (NULL: the built-in environment lists only) onto
 * r->sbx: the sandbox mode and memory unless given as options, the
 * workspace, the environment lists, the proxy's lists and denied ranges;
 * then the lists of the options, the argv-only defaults and the warning
 * printed in auto mode when enforcement is degraded. cfg must outlive
 * r->sbx's use. */
int cli_runopts_apply_config(struct cli_runopts *r,
			     const struct cordon_config *cfg);

/* --report: the run report to r->report (a file, or "-" for stdout);
 * 0 when there is none to write or it was written, -1 (reported) else.
 * A file is written through the descriptor cli_runopts_check opened
 * before the run (never reopened by name after it). */
int cli_runopts_write_report(const struct cli_runopts *r,
			     const struct sandbox_report *rep);

/* --probe: tries each backend now, prints what works; the exit status. */
int cli_runopts_probe(void);

/* A usage error: "PROG: MESSAGE" and where the options are explained;
 * returns CLI_RUNOPTS_EXIT_SETUP. */
__attribute__((format(printf, 2, 3))) int
cli_runopts_usage_error(const struct cli_runopts *r, const char *fmt, ...);

#endif
