/* cordon redact — stdin to stdout with secrets replaced (src/audit/redact.h).
 *
 * The input is read as it comes and handed to the scanner a run of whole
 * lines at a time, so a private-key block spanning lines is followed and
 * the output of a line leaves as soon as its line is complete. A line
 * longer than REDACT_CLI_MAX_LINE is refused: the lines before it are
 * written, then the error, and nothing after it. Exit status: 0 done, 1
 * for an I/O error, an over-long line or no memory, 2 for usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cordon.h"
#include "redact.h"

#include "banned.h"

#define REDACT_CLI_MAX_LINE ((size_t)64 << 20) /* 64 MiB */
#define REDACT_CLI_BLOCK ((size_t)1 << 20)

void cli_redact_usage(FILE *out)
{
	fputs("usage: cordon redact [--count] < INPUT > OUTPUT\n"
	      "\n"
	      "Copy standard input to standard output with secrets replaced "
	      "by\n"
	      "[REDACTED] or [REDACTED:kind]: values of secret keys, flags "
	      "and\n"
	      "headers, passwords in URLs, known token formats (GitHub, "
	      "GitLab,\n"
	      "Slack, AWS, OpenAI, Anthropic, Google, Stripe, JWT), private-"
	      "key\n"
	      "blocks, and long opaque tokens. Key names stay. This is best\n"
	      "effort: it finds what it knows the shape of, not every "
	      "secret.\n"
	      "\n"
	      "options:\n"
	      "  --count     print \"N values redacted\" to stderr at the end\n"
	      "  -h, --help  this help\n"
	      "\n"
	      "A line may be at most 64 MiB long.\n"
	      "exit status: 0 done, 1 I/O error or over-long line, 2 usage "
	      "error.\n",
	      out);
}

/* Reads what is there (at most REDACT_CLI_BLOCK bytes) onto the end of
 * *b, growing it as needed. Returns 0 (*eof set at the end of input), or
 * -1 with errno on a read error. */
static int fill(int fd, char **b, size_t *len, size_t *cap, bool *eof)
{
	size_t ncap;
	ssize_t got;
	char *p;

	if (*cap - *len < REDACT_CLI_BLOCK) {
		ncap = *cap * 2 > *cap + REDACT_CLI_BLOCK ?
			       *cap * 2 :
			       *cap + REDACT_CLI_BLOCK;
		p = realloc(*b, ncap);
		if (!p) {
			errno = ENOMEM;
			return -1;
		}
		*b = p;
		*cap = ncap;
	}
	do
		got = read(fd, *b + *len, REDACT_CLI_BLOCK);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -1;
	*len += (size_t)got;
	*eof = got == 0;
	return 0;
}

/* Redacts text[0..len) (whole lines, or the last line at EOF) and writes
 * it out at once, so a line leaves as soon as it is complete. */
static int redact_out(struct redact_state *st, const char *text, size_t len,
		      struct buf *out, size_t *count)
{
	enum cordon_err rc;

	buf_reset(out);
	rc = redact_append(st, text, len, out, count);
	if (rc != CORDON_OK) {
		fprintf(stderr, "cordon redact: %s\n", cordon_strerror(rc));
		return CLI_EXIT_FAILURE;
	}
	if ((out->len && fwrite(out->p, 1, out->len, stdout) != out->len) ||
	    fflush(stdout) != 0) {
		fprintf(stderr, "cordon redact: writing the output: %s\n",
			strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

/* The loop: b holds the input not yet redacted, which never contains a
 * '\n' before b + scanned. The whole lines in it go to the scanner; the
 * part after the last '\n' waits for more input or the end. */
static int redact_stream(int fd, size_t *count)
{
	struct redact_state st = { 0 };
	struct buf out = BUF_INIT(SIZE_MAX);
	char *b = NULL, *first, *last;
	size_t len = 0, cap = 0, scanned = 0, done;
	bool eof = false;
	int rc = CLI_EXIT_OK;

	while (!eof) {
		if (fill(fd, &b, &len, &cap, &eof) < 0) {
			fprintf(stderr,
				"cordon redact: reading the input: %s\n",
				strerror(errno));
			rc = CLI_EXIT_FAILURE;
			goto out;
		}
		first = memchr(b + scanned, '\n', len - scanned);
		if (!first) {
			scanned = len;
			if (len > REDACT_CLI_MAX_LINE)
				goto too_long;
			continue;
		}
		/* Only the first line can be long: the ones after it came in
		 * this one read. */
		if ((size_t)(first - b) > REDACT_CLI_MAX_LINE)
			goto too_long;
		last = memrchr(first, '\n', len - (size_t)(first - b));
		done = (size_t)(last - b) + 1;
		rc = redact_out(&st, b, done, &out, count);
		if (rc != CLI_EXIT_OK)
			goto out;
		memmove(b, b + done, len - done);
		len -= done;
		scanned = len;
	}
	if (len)
		rc = redact_out(&st, b, len, &out, count);
	goto out;
too_long:
	fprintf(stderr,
		"cordon redact: a line is longer than the limit of 64 MiB "
		"(%zu bytes); stopped\n",
		REDACT_CLI_MAX_LINE);
	rc = CLI_EXIT_FAILURE;
out:
	free(b);
	buf_free(&out);
	return rc;
}

int cli_redact(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool show_count = false;
	size_t count = 0;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			show_count = true;
			break;
		case 'h':
			cli_redact_usage(stdout);
			return CLI_EXIT_OK;
		default:
			cli_getopt_error("redact", c, argv);
			goto usage;
		}
	}
	if (optind < argc) {
		cli_unexpected_arg("redact", argv[optind]);
		fputs("cordon redact: it reads standard input, not files\n",
		      stderr);
		goto usage;
	}
	rc = redact_stream(STDIN_FILENO, &count);
	if (show_count && rc == CLI_EXIT_OK)
		fprintf(stderr, "%zu values redacted\n", count);
	return rc;
usage:
	fputs("Try 'cordon redact --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}
