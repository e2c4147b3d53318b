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

/* Loads the configuration layers (config.c): the built-in defaults, the
 * user file ($XDG_CONFIG_HOME or ~/.config, /cordon/config.json) and the
 * project file (WORKSPACE/.cordon/config.json; workspace NULL: the current
 * directory), each skipped when missing, then config_file (NULL: none; it
 * must exist). Warnings go to stderr. Returns 0 with *out set (free it with
 * cordon_config_free), or the exit status after reporting the error (2 for
 * a configuration error, 1 when out of memory). */
int cli_load_config(struct cordon_config **out, const char *config_file,
		    const char *workspace);

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

#endif
