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
#include "prompt.h"

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

/* --prompt: ask on the controlling terminal (struct cli_tty_prompt). The
 * risk tier and labels for shell calls; a session or always answer takes
 * the family cordon proposes when the person chose it. */
void cli_tty_ask(void *ud, const struct cordon_result *asked,
		 struct cordon_reply *reply)
{
	const struct cli_tty_prompt *tp = ud;
	char labels[512] = "";
	size_t o = 0;
	uint64_t l = cordon_result_labels(asked);
	int risk = cordon_result_risk(asked);

	for (unsigned b = 0; b < 64; b++) {
		const char *name = cordon_label_name(b);
		if (!name || !(l & (UINT64_C(1) << b)))
			continue;
		int w = snprintf(labels + o, sizeof(labels) - o, "%s%s",
				 o ? ", " : "", name);
		if (w < 0 || (size_t)w >= sizeof(labels) - o)
			break;
		o += (size_t)w;
	}
	struct prompt_info info = {
		.tool = cordon_result_tool(asked),
		.args_json = cordon_result_args(asked),
		.kind = cordon_kind_name(cordon_result_kind(asked)),
		.risk = risk >= 0 ? cordon_risk_name((enum cordon_risk)risk)
				  : NULL,
		.labels = risk >= 0 ? labels : NULL,
		.reason = cordon_result_reason(asked),
	};
	bool family = false;

	info.family = cordon_result_family(asked, &info.family_len);
	reply->answer = prompt_ask(tp->fd, tp->fd, &info,
				   tp->timeout_s * 1000u, &family);
	if (family) {
		reply->amend_prefix = info.family;
		reply->amend_len = info.family_len;
	}
	reply->by = "terminal";
}
