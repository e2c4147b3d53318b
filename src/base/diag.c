/* diag — filling struct cordon_diag (see diag.h). */
#include <stdio.h>
#include <string.h>

#include "diag.h"

#include "banned.h"

enum cordon_err diag_vset(struct cordon_diag *d, enum cordon_err code,
			  int sys_errno, size_t offset, const char *fmt,
			  va_list ap)
{
	if (!d)
		return code;
	memset(d, 0, sizeof(*d));
	d->code = code;
	d->sys_errno = sys_errno;
	d->offset = offset;
	(void)vsnprintf(d->message, sizeof(d->message), fmt, ap);
	return code;
}

enum cordon_err diag_set(struct cordon_diag *d, enum cordon_err code,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = diag_vset(d, code, 0, 0, fmt, ap);
	va_end(ap);
	return code;
}

enum cordon_err diag_errno(struct cordon_diag *d, enum cordon_err code,
			   int sys_errno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = diag_vset(d, code, sys_errno, 0, fmt, ap);
	va_end(ap);
	return code;
}

enum cordon_err diag_at(struct cordon_diag *d, enum cordon_err code,
			size_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = diag_vset(d, code, 0, offset, fmt, ap);
	va_end(ap);
	return code;
}

void diag_clear(struct cordon_diag *d)
{
	if (d)
		memset(d, 0, sizeof(*d));
}
