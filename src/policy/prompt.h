/* prompt — asking a person at a terminal.
 *
 * prompt_ask() writes a short description of the call to out_fd (the tool,
 * its arguments as JSON, for shell commands the risk tier and labels and
 * reasons) and reads one answer line from in_fd with a deadline:
 *   y / yes        allow once        n / no       deny once
 *   s / session    allow session     a / always   allow always
 *   d / never      deny always       q / abort    abort
 * An unknown answer asks again (until the deadline). End of input is deny
 * once; the deadline passing is CORDON_ANSWER_TIMED_OUT. The CLI passes
 * /dev/tty; tests pass pipes. Output that cannot be written (a closed
 * terminal, a negative descriptor) is deny once: an unseen question has no
 * answer. What the agent controls is shown with control characters as '?'.
 */
#ifndef CORDON_PROMPT_H
#define CORDON_PROMPT_H

#include <stddef.h>

#include "cordon.h"

struct prompt_info {
	const char *tool;
	const char *args_json; /* compact JSON of the arguments */
	const char *kind;      /* "execute", "write" … */
	const char *risk;      /* shell: tier name, else NULL */
	const char *labels;    /* shell: "delete-recursive, force", or NULL */
	const char *reason;    /* why it asks */
};

enum cordon_answer prompt_ask(int in_fd, int out_fd,
			      const struct prompt_info *info,
			      unsigned timeout_ms);

#endif
