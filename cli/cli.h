/* The cordon command line: one file per subcommand, main.c dispatches.
 * Only this directory prints or exits. */
#ifndef CORDON_CLI_H
#define CORDON_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "cordon.h"

/* Exit statuses shared by the subcommands. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILURE 1 /* I/O error or out of memory */
#define CLI_EXIT_USAGE 2 /* bad arguments or configuration */

/* Each subcommand: argv[0] is its own name; returns the exit status. */
int cli_check(int argc, char **argv);
void cli_check_usage(FILE *out);
int cli_classify(int argc, char **argv);
void cli_classify_usage(FILE *out);
int cli_explain(int argc, char **argv);
void cli_explain_usage(FILE *out);
int cli_demo(int argc, char **argv);
void cli_demo_usage(FILE *out);
int cli_fetch(int argc, char **argv);
void cli_fetch_usage(FILE *out);
int cli_run(int argc, char **argv);
void cli_run_usage(FILE *out);
int cli_proxy(int argc, char **argv);
void cli_proxy_usage(FILE *out);
int cli_sandbox(int argc, char **argv);
void cli_sandbox_usage(FILE *out);
int cli_config(int argc, char **argv);
void cli_config_usage(FILE *out);
int cli_config_import(int argc, char **argv); /* import.c */
int cli_redact(int argc, char **argv);
void cli_redact_usage(FILE *out);
int cli_audit(int argc, char **argv);
void cli_audit_usage(FILE *out);
int cli_mcp(int argc, char **argv);
void cli_mcp_usage(FILE *out);
int cli_mcp_pins(int argc, char **argv); /* mcp_pins.c: `cordon mcp pins` */
int cli_hook(int argc, char **argv);
void cli_hook_usage(FILE *out);
int cli_init(int argc, char **argv);
void cli_init_usage(FILE *out);
int cli_doctor(int argc, char **argv);
void cli_doctor_usage(FILE *out);
int cli_approvals(int argc, char **argv);
void cli_approvals_usage(FILE *out);

/* Loads the configuration layers (config.c): the built-in defaults, the
 * user file ($XDG_CONFIG_HOME or ~/.config, /cordon/config.json) and the
 * project file (WORKSPACE/.cordon/config.json; workspace NULL: the current
 * directory), each skipped when missing, then config_file (NULL: none; it
 * must exist). Warnings go to stderr. Returns 0 with *out set (free it with
 * cordon_config_free), or the exit status after reporting the error (2 for
 * a configuration error, 1 when out of memory). */
int cli_load_config(struct cordon_config **out, const char *config_file,
		    const char *workspace);

/* ---- common.c: what the subcommands share ---- */

/* The option getopt_long() just refused, as the user wrote it: "--name"
 * (the whole word) for a long option, "-x" for a short one (written into
 * buf). */
const char *cli_bad_option(char **argv, char buf[3]);

/* Reports getopt_long()'s refusal on stderr as "cordon CMD: option 'X'
 * needs a value" (c is ':', the optstring starting with ':') or "cordon
 * CMD: unknown option 'X'" (anything else), X escaped for the terminal.
 * Returns CLI_EXIT_USAGE. */
int cli_getopt_error(const char *cmd, int c, char **argv);

/* Reports an operand the command does not take: "cordon CMD: unexpected
 * argument 'ARG'", ARG escaped for the terminal. */
void cli_unexpected_arg(const char *cmd, const char *arg);

/* Reports an error on stderr as "cordon CMD: WHAT: TEXT" (cmd NULL:
 * "cordon: …"; what NULL: no "WHAT: "), WHAT and TEXT escaped for the
 * terminal. */
void cli_report(const char *cmd, const char *what, const char *text);

/* The largest settings or configuration file a command reads. */
#define CLI_SETTINGS_MAX (4u << 20)

/* Reads path whole ("-": stdin), at most max bytes (a NUL is added after
 * them). Returns the malloc'd text with *len set, or NULL with errno set:
 * ENOENT and the other open/read errors, EISDIR, EFBIG when the file is
 * over max, ENOMEM. */
char *cli_read_file(const char *path, size_t max, size_t *len);

/* The default approvals file: $XDG_CONFIG_HOME/cordon/
 * approvals.json, else ~/.config/cordon/approvals.json. 0, or -1 when
 * neither variable is an absolute path or the name does not fit in cap. */
int cli_approvals_default_path(char *buf, size_t cap);

/* Opens the audit log for a command that decides or runs something
 * (auditlog.c): the file is flag_path (--audit-log), else the config's
 * audit.path, else $XDG_STATE_HOME/cordon/audit.jsonl (~/.local/state/…
 * when XDG_STATE_HOME is unset); "-" means no file. syslog, stderr, fsync,
 * rotation and log_all_commands come from the configuration. Returns 0
 * with *out set (close it with cordon_audit_close), or the exit status
 * after printing why (2 for a configuration error, 1 when the log cannot
 * be opened: a door that cannot record must not decide). */
struct cordon_audit;
int cli_open_audit(const struct cordon_config *cfg, const char *flag_path,
		   struct cordon_audit **out);
/* The default audit log file (auditlog.c): $XDG_STATE_HOME/cordon/
 * audit.jsonl, else ~/.local/state/cordon/audit.jsonl. 0, or -1 when
 * neither variable is an absolute path or the name does not fit in cap. */
int cli_audit_default_path(char *buf, size_t cap);
/* The file cli_open_audit() opens: flag_path, audit.path, or the default
 * path (into buf); "-" for none; NULL when there is no default place. */
const char *cli_audit_file(const struct cordon_config *cfg,
			   const char *flag_path, char *buf, size_t cap);

/* The proxy's decision sink for the audit log (auditlog.c): ctx is a
 * struct cli_proxy_audit. Each decision becomes an event "proxy" with
 * proto, host, port, verdict (allow|deny), kind, rule and addr; with
 * verbose it is also printed on stderr. A record that cannot be written
 * sets failed (the proxy cannot take its answer back: the connection was
 * already decided) and is reported once on stderr. */
struct proxy_decision;
struct cli_proxy_audit {
	struct cordon_audit *audit;
	const char *session;
	int verbose;
	int failed;
};
void cli_audit_proxy_decision(void *ctx, const struct proxy_decision *d);

/* check's reading of a call on stdin, shared with explain (check.c). */
struct cordon_call;
struct cJSON;
char *cli_check_read_stdin(size_t *len);
int cli_check_call_from_json(const char *text, size_t len, struct cJSON **root,
			     struct cordon_call *call, char **args_text);

/* Display helpers (classify.c), shared with demo. */

/* 1 when out is a terminal, NO_COLOR is unset and TERM is not "dumb". */
int cli_colour_enabled(FILE *out);
/* Prints the tier name padded to width, coloured when colour is set. */
void cli_print_risk(FILE *out, enum cordon_risk risk, int width, int colour);
/* Prints the label names joined by ", " ("-" for none); returns the number
 * of characters printed. */
size_t cli_print_labels(FILE *out, uint64_t labels);
/* The number of characters cli_print_labels() would print. */
size_t cli_labels_width(uint64_t labels);
/* Prints s[0..n) for a terminal: control characters, invalid UTF-8 and
 * bidirectional overrides become \n, \t, \xNN or \u{NNNN} escapes, so a
 * command can neither forge output nor drive the terminal. */
void cli_print_escaped(FILE *out, const char *s, size_t n);

/* ---- broker.c: handing an ASK to the running console ---- */

/* With approvals.broker on, sets pol's prompt to ask the console
 * (`cordon console`) over its socket, or inside `cordon run` through the
 * run's relay (CORDON_BROKER_FD), up to approvals.timeout_s; no console,
 * or one gone mid-wait, denies at step no_prompt. door names the door
 * ("mcp", "hook", "check"), sandbox what enforces the call ("full",
 * "partial", "none", NULL: unknown); both borrowed for as long as pol is
 * used, as b is. Returns 1 when the prompt was set, 0 when the key is off
 * (pol untouched). */
struct cordon_policy;
struct cordon_config;
struct cli_broker {
	const char *door;
	const char *sandbox;
	unsigned timeout_s;
	int relay_fd; /* CORDON_BROKER_FD's, or -1 */
	char path[4096];
	char why[256];
};
int cli_broker_attach(struct cli_broker *b, struct cordon_policy *pol,
		      const struct cordon_config *cfg, const char *door,
		      const char *sandbox);

/* `cordon run`'s broker relay (src/policy/broker.h): with
 * approvals.broker on, a SOCK_SEQPACKET socketpair whose one end the
 * command inherits (o->pass_fds, named by CORDON_BROKER_FD in
 * o->extra_env), and a thread that judges what the doors inside ask and
 * hands it to the console as relayed by this run (argv: what the cards
 * name). 0 with *out set, or NULL when the key is off; -1 after saying
 * why on stderr. Stop it after the run: it drops what still waits, says
 * on stderr how many asks it refused, and puts o back. */
struct sandbox_opts;
struct cli_broker_relay;
int cli_broker_relay_start(const struct cordon_config *cfg,
			   struct sandbox_opts *o, char *const *argv,
			   struct cli_broker_relay **out);
void cli_broker_relay_stop(struct cli_broker_relay *r, struct sandbox_opts *o);
/* Starts its thread once the sandbox's child is cloned (before the
 * command may exec); 0 also for NULL, -1 after saying why. */
int cli_broker_relay_run(struct cli_broker_relay *r);

/* nbytes (at most 32) random bytes as hex into out (2 * nbytes + 1
 * bytes); 0, or -1 when getrandom failed. */
int cli_random_hex(char *out, size_t nbytes);

/* --prompt (cordon check, cordon mcp): the prompt callback that asks on
 * the controlling terminal fd, up to timeout_s (common.c); ud is a
 * struct cli_tty_prompt. */
struct cordon_result;
struct cordon_reply;
struct cli_tty_prompt {
	int fd;
	unsigned timeout_s;
};
void cli_tty_ask(void *ud, const struct cordon_result *asked,
		 struct cordon_reply *reply);

/* `cordon console` (console.c). */
int cli_console(int argc, char **argv);
void cli_console_usage(FILE *out);

#endif

/* The audit relay of `cordon run` (auditlog.c, src/audit/relay.h): a
 * SOCK_SEQPACKET socketpair whose one end the command inherits (o->pass_fds,
 * named by CORDON_AUDIT_FD in o->extra_env), and a thread that appends
 * what the doors inside send to a as "nested" records. NULL after saying
 * why on stderr. Stop it after the run: it reads what is left, says on
 * stderr how many messages it refused, and puts o's extra_env back. */
struct sandbox_opts;
struct cli_audit_relay;
struct cli_audit_relay *cli_audit_relay_start(struct cordon_audit *a,
					      struct sandbox_opts *o);
void cli_audit_relay_stop(struct cli_audit_relay *r, struct sandbox_opts *o);
/* Starts its thread once the sandbox's child is cloned (before the
 * command may exec); 0 also for NULL, -1 after saying why. */
int cli_audit_relay_run(struct cli_audit_relay *r);
