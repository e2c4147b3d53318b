/* diag — the one place a struct cordon_diag is filled.
 *
 * Every setter resets the whole struct first (so no field of an earlier
 * failure survives), accepts a NULL diag, and returns code, so a failure
 * path reads `return diag_set(diag, CORDON_E_LIMIT, "…", …);`. A message
 * longer than the struct holds is cut.
 */
#ifndef CORDON_DIAG_H
#define CORDON_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "cordon.h"

/* The code and a printf-style message. */
enum cordon_err diag_set(struct cordon_diag *d, enum cordon_err code,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with the saved errno of an I/O failure. */
enum cordon_err diag_errno(struct cordon_diag *d, enum cordon_err code,
			   int sys_errno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same with the byte offset into the input where it failed. */
enum cordon_err diag_at(struct cordon_diag *d, enum cordon_err code,
			size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* All of them, from a va_list. */
enum cordon_err diag_vset(struct cordon_diag *d, enum cordon_err code,
			  int sys_errno, size_t offset, const char *fmt,
			  va_list ap) __attribute__((format(printf, 5, 0)));
/* Zeroes d (CORDON_OK, no message). Accepts NULL. */
void diag_clear(struct cordon_diag *d);

#endif
