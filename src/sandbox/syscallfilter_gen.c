/* syscallfilter_gen — run at build time (src/meson.build): writes
 * syscallfilter_table.c, the seccomp program of syscallfilter_compile()
 * for each of its eight choices, so that a run sends one instead of
 * compiling it (libseccomp: about 0.65 ms of CPU a run, on the core the
 * sandbox's own set-up needs). A choice that does not compile here is
 * left empty and compiled at run time (syscallfilter_get).
 *
 * Usage: syscallfilter_gen OUTPUT.c
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "syscallfilter.h"

#include "banned.h"

static void emit(FILE *f, unsigned i, const struct syscallfilter_prog *p)
{
	fprintf(f, "static const unsigned char prog%u[%zu] = {", i, p->len);
	for (size_t k = 0; k < p->len; k++)
		fprintf(f, "%s0x%02x,", k % 12 ? " " : "\n\t", p->insns[k]);
	fprintf(f, "\n};\n\n");
}

int main(int argc, char **argv)
{
	bool have[SYSCALLFILTER_CHOICES] = { false };
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: syscallfilter_gen OUTPUT.c\n");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f,
		"/* Made by syscallfilter_gen at build time: the programs "
		"of\n * syscallfilter_compile(), indexed by "
		"syscallfilter_choice(). */\n#include \"syscallfilter.h\"\n\n");
	for (unsigned i = 0; i < SYSCALLFILTER_CHOICES; i++) {
		struct syscallfilter_prog p;
		char why[256];

		if (syscallfilter_compile(i & 4, i & 2, i & 1, &p, why,
					  sizeof(why)) != 0) {
			fprintf(stderr,
				"syscallfilter_gen: choice %u: %s (compiled "
				"at run time instead)\n",
				i, why);
			continue;
		}
		emit(f, i, &p);
		syscallfilter_prog_free(&p);
		have[i] = true;
	}
	fprintf(f, "const struct syscallfilter_built "
		   "syscallfilter_built[SYSCALLFILTER_CHOICES] = {\n");
	for (unsigned i = 0; i < SYSCALLFILTER_CHOICES; i++)
		if (have[i])
			fprintf(f, "\t{ prog%u, sizeof(prog%u) },\n", i, i);
		else
			fprintf(f, "\t{ 0, 0 },\n");
	fprintf(f, "};\n");
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
