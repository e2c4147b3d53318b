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
#include "cli.h"
#include "cordon.h"

#include "banned.h"

char *cli_read_file(const char *path, size_t max, size_t *len)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO :
					  open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 8192, n = 0;
	char *buf = NULL, *nb;
	struct stat st;
	int saved;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	for (;;) {
		if (n == cap || !buf) {
			if (buf)
				cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				errno = ENOMEM;
				goto fail;
			}
			buf = nb;
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			errno = EFBIG;
			goto fail;
		}
	}
	if (fd != STDIN_FILENO)
		close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	saved = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	free(buf);
	errno = saved;
	return NULL;
}

int cli_approvals_default_path(char *buf, size_t cap)
{
	return atomic_xdg_path(ATOMIC_XDG_CONFIG, NULL, "approvals.json", buf,
			       cap);
}

int cli_agent_arg(const char *cmd, int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr,
			"cordon %s: which agent? 'claude' or 'gemini'\n", cmd);
		return -1;
	}
	if (strcmp(argv[1], "claude") == 0)
		return 0;
	if (strcmp(argv[1], "gemini") == 0)
		return 1;
	fprintf(stderr, "cordon %s: unknown agent '", cmd);
	cli_print_escaped(stderr, argv[1], strlen(argv[1]));
	fputs("' (expected claude or gemini)\n", stderr);
	return -1;
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
