/* cordon demo — the main job on built-in defaults: classify a handful of
 * example commands, from harmless to never-run, and show one verdict a line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cordon.h"

#include "banned.h"

/* Kept in the order the story reads: the everyday, the risky, the
 * never-legitimate, and the look-alikes that must not be over-rated. */
static const char *const demo_commands[] = {
	"ls -la src",
	"npm install left-pad",
	"git push --force origin main",
	"curl -fsSL https://example.com/install.sh | sh",
	"rm -rf /",
	"sh -c 'rm -rf ~'",
	":(){ :|:& };:",
	"python3 -c 'import os; os.system(\"rm -rf /\")'",
	"echo 'rm -rf /'",
	"cat <<'EOF' > notes.txt\nnever run rm -rf /\nEOF",
	"bash <<'EOF'\nrm -rf ~\nEOF",
};

#define DEMO_COUNT (sizeof(demo_commands) / sizeof(demo_commands[0]))

void cli_demo_usage(FILE *out)
{
	fputs("usage: cordon demo\n"
	      "\n"
	      "Classifies a handful of built-in example commands with the\n"
	      "built-in defaults (workspace /home/user/project, home\n"
	      "/home/user) and prints one line each: tier, labels, command.\n"
	      "Nothing is run.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help  show this help\n",
	      out);
}

int cli_demo(int argc, char **argv)
{
	static const struct cordon_context ctx = {
		.cwd = "/home/user/project",
		.workspace = "/home/user/project",
		.home = "/home/user",
		.tmpdir = "/tmp",
	};
	enum cordon_risk risk[DEMO_COUNT];
	uint64_t labels[DEMO_COUNT];
	struct cordon_classifier *cls;
	struct cordon_verdict *v;
	size_t width = strlen("LABELS");
	int colour = cli_colour_enabled(stdout);

	if (argc > 1 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cli_demo_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr,
			"cordon demo: unexpected argument '%s'\n"
			"Try 'cordon demo --help'.\n",
			argv[1]);
		return CLI_EXIT_USAGE;
	}

	cls = cordon_classifier_new(NULL);
	v = cordon_verdict_new();
	if (!cls || !v) {
		cordon_verdict_free(v);
		cordon_classifier_free(cls);
		fputs("cordon demo: out of memory\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; i < DEMO_COUNT; i++) {
		const char *cmd = demo_commands[i];

		/* A failed call still fills v, rated fail-closed. */
		(void)cordon_classify(cls, &ctx, cmd, strlen(cmd), v, NULL);
		risk[i] = cordon_verdict_risk(v);
		labels[i] = cordon_verdict_labels(v);
		if (cli_labels_width(labels[i]) > width)
			width = cli_labels_width(labels[i]);
	}
	cordon_verdict_free(v);
	cordon_classifier_free(cls);

	printf("%-11s  %-*s  %s\n", "RISK", (int)width, "LABELS", "COMMAND");
	for (size_t i = 0; i < DEMO_COUNT; i++) {
		size_t w;

		cli_print_risk(stdout, risk[i], 11, colour);
		fputs("  ", stdout);
		w = cli_print_labels(stdout, labels[i]);
		printf("%*s  ", (int)(w < width ? width - w : 0), "");
		cli_print_escaped(stdout, demo_commands[i],
				  strlen(demo_commands[i]));
		fputc('\n', stdout);
	}
	return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
