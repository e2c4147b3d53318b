/* prompt — asking a person at a terminal.
 *
 * prompt_ask() writes a short description of the call to out_fd (the tool,
 * its arguments as JSON, for shell commands the risk tier and labels and
 * reasons) and reads one answer line from in_fd with a deadline:
 *   y / yes        allow once        n / no       deny once
 *   s / session    allow session     a / always   allow always
 *   d / never      deny always       q / abort    abort
 * For a shell command with a family (info->family: approvals_family, the
 * command name and subcommand words, e.g. `npm test`), the description
 * says what session and always cover, and:
 *   s / a          allow session / always for the family: every command
 *                  starting with those words that is not destructive
 *   e / exact      allow session for the exact command only
 *   ea / exact always   allow always for the exact command only
 * *family (may be NULL) is then true for s and a; false for every other
 * answer, and always without a family (then s and a, like e and ea, grant
 * the exact command; the description says so). Deny answers are exact.
 * An unknown answer asks again (until the deadline). End of input is deny
 * once; the deadline passing is CORDON_ANSWER_TIMED_OUT. The CLI passes
 * /dev/tty; tests pass pipes. Output that cannot be written (a closed
 * terminal, a negative descriptor) is deny once: an unseen question has no
 * answer. What the agent controls is shown with control characters as '?'.
 */
#ifndef CORDON_PROMPT_H
#define CORDON_PROMPT_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon.h"

struct prompt_info {
	const char *tool;
	const char *args_json; /* compact JSON of the arguments */
	const char *kind;      /* "execute", "write" … */
	const char *risk;      /* shell: tier name, else NULL */
	const char *labels;    /* shell: "delete-recursive, force", or NULL */
	const char *reason;    /* why it asks */
	const char *const *family; /* shell: the proposed family, or NULL */
	size_t family_len;
};

enum cordon_answer prompt_ask(int in_fd, int out_fd,
			      const struct prompt_info *info,
			      unsigned timeout_ms, bool *family);

#endif
