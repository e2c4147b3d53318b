/* common — what the subcommands share: reading a file whole, the default
 * approvals path, the agent operand, and reporting getopt's complaints. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "atomic.h"
#include "buf.h"
#include "cli.h"
#include "cordon.h"

#include "banned.h"

char *cli_read_file(const char *path, size_t max, size_t *len)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO :
					  open(path, O_RDONLY | O_CLOEXEC);
	struct buf b = BUF_INIT(max);
	struct stat st;
	char *text;
	int saved;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (atomic_read_all(fd, &b) != 0)
		goto fail;
	if (fd != STDIN_FILENO)
		close(fd);
	text = buf_take(&b, len);
	if (!text)
		errno = ENOMEM;
	return text;
fail:
	saved = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	buf_free(&b);
	errno = saved;
	return NULL;
}

int cli_approvals_default_path(char *buf, size_t cap)
{
	return atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "approvals.json", buf,
			       cap);
}

const char *cli_bad_option(char **argv, char buf[3])
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;

	/* A long option is named by its word; a short one by optopt, since
	 * inside a group (-xy) argv[optind - 1] is not the word it is in. */
	if (arg && strncmp(arg, "--", 2) == 0)
		return arg;
	if (optopt > 0 && optopt < 256) {
		buf[0] = '-';
		buf[1] = (char)optopt;
		buf[2] = '\0';
		return buf;
	}
	return arg ? arg : "?";
}

int cli_getopt_error(const char *cmd, int c, char **argv)
{
	char buf[3];
	const char *opt = cli_bad_option(argv, buf);

	fprintf(stderr, "cordon %s: %s '", cmd,
		c == ':' ? "option" : "unknown option");
	cli_print_escaped(stderr, opt, strlen(opt));
	fputs(c == ':' ? "' needs a value\n" : "'\n", stderr);
	return CLI_EXIT_USAGE;
}

void cli_unexpected_arg(const char *cmd, const char *arg)
{
	fprintf(stderr, "cordon %s: unexpected argument '", cmd);
	cli_print_escaped(stderr, arg, strlen(arg));
	fputs("'\n", stderr);
}

void cli_report(const char *cmd, const char *what, const char *text)
{
	fprintf(stderr, "cordon%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	if (what) {
		cli_print_escaped(stderr, what, strlen(what));
		fputs(": ", stderr);
	}
	cli_print_escaped(stderr, text, strlen(text));
	fputc('\n', stderr);
}
