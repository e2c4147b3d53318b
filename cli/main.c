/* cordon — the command line. main() only dispatches: each subcommand lives
 * in its own file and returns its exit status.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cordon.h"

#include "banned.h"

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *out);
};

static const struct command commands[] = {
	{ "approvals", "list, revoke or clear the remembered approvals",
	  cli_approvals, cli_approvals_usage },
	{ "audit", "verify the audit log's hash chain; show its records",
	  cli_audit, cli_audit_usage },
	{ "check", "decide one tool call (allow, deny or ask); run nothing",
	  cli_check, cli_check_usage },
	{ "classify", "rate a shell command: risk tier, labels, reasons",
	  cli_classify, cli_classify_usage },
	{ "config", "show the effective configuration and where it came from",
	  cli_config, cli_config_usage },
	{ "console", "the approval broker and the local web console",
	  cli_console, cli_console_usage },
	{ "demo", "the whole story on built-in defaults, end to end",
	  cli_demo, cli_demo_usage },
	{ "doctor", "check the set-up: sandbox, config, agents' hooks, logs",
	  cli_doctor, cli_doctor_usage },
	{ "explain", "show how a verdict or a decision was reached, step by step",
	  cli_explain, cli_explain_usage },
	{ "fetch", "fetch an http(s) URL, refusing private and local addresses",
	  cli_fetch, cli_fetch_usage },
	{ "hook", "answer an agent's pre-tool hook (claude, codex, qwen, kiro, …)",
	  cli_hook, cli_hook_usage },
	{ "init", "add cordon's hook to an agent's settings (claude, codex, …)",
	  cli_init, cli_init_usage },
	{ "mcp", "sit between an MCP client and a stdio server; pin its tools",
	  cli_mcp, cli_mcp_usage },
	{ "proxy", "serve the allow-listing egress proxy (HTTP, SOCKS5)",
	  cli_proxy, cli_proxy_usage },
	{ "redact", "replace secrets in text from stdin with [REDACTED]",
	  cli_redact, cli_redact_usage },
	{ "run", "run a command in the sandbox (namespaces, Landlock, seccomp)",
	  cli_run, cli_run_usage },
	{ "sandbox", "print the sandbox profile (--format seatbelt)",
	  cli_sandbox, cli_sandbox_usage },
};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fputs("usage: cordon COMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "A safety layer between AI agents and the tools they call.\n"
	      "\n"
	      "commands:\n",
	      out);
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n"
	      "  cordon COMMAND --help   help on one command (also: cordon "
	      "help COMMAND)\n"
	      "  cordon --version        print the version\n",
	      out);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("cordon %s\n", CORDON_VERSION);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return CLI_EXIT_OK;
		}
		cmd = find_command(argv[2]);
		if (!cmd) {
			fprintf(stderr, "cordon: no such command '%s'\n",
				argv[2]);
			usage(stderr);
			return CLI_EXIT_USAGE;
		}
		cmd->usage(stdout);
		return CLI_EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "cordon: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	return cmd->run(argc - 1, argv + 1);
}
