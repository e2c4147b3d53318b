/* approvals_edit — taking rules out of the approvals file (`cordon
 * approvals revoke|clear`).
 *
 * The file is changed as approvals.c appends to it: under the exclusive
 * lock on "<path>.lock", read again under the lock, written to a temp file
 * in the same directory, fsync'd and renamed over it. A file that is a
 * symbolic link, not a regular file, over the limit, or not usable as a
 * whole (approvals_open marks it corrupt) is refused and left as it is:
 * removing rules from a file cordon cannot read could drop the user's
 * "deny" rules without anyone noticing.
 */
#ifndef CORDON_APPROVALS_EDIT_H
#define CORDON_APPROVALS_EDIT_H

#include <stddef.h>

#include "cordon.h"

/* Removes rules[idx[0..n)] of the file (indexes as in the file, before
 * any rule is dropped for failing its examples); all of them when idx is
 * NULL. An index past the end is refused (CORDON_E_INVAL) and nothing
 * changes. A missing file has no rules: removing all of them is a no-op,
 * removing one is refused. *removed (may be NULL) gets how many went.
 * CORDON_E_INVAL, CORDON_E_CONFIG (a file cordon will not edit),
 * CORDON_E_IO or CORDON_E_NOMEM with why saying what happened. */
enum cordon_err approvals_edit_remove(const char *path, const size_t *idx,
				      size_t n, size_t *removed, char *why,
				      size_t whycap);

#endif
