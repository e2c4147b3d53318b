/* credentials — the one table of the user's secrets and history that a
 * sandboxed command never reads: what the namespaces backend masks, what
 * the Landlock read layer leaves out, what the Seatbelt profile denies.
 */
#ifndef CORDON_BASE_CREDENTIALS_H
#define CORDON_BASE_CREDENTIALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The directory a row's path is below: the home, or an XDG base
 * directory ($XDG_CONFIG_HOME …, else its default in the home). */
enum credentials_base {
	CREDENTIALS_HOME,
	CREDENTIALS_CONFIG,
	CREDENTIALS_DATA,
	CREDENTIALS_STATE,
	CREDENTIALS_NBASE,
};

#define CREDENTIALS_PATH_MAX 56

struct credentials_row {
	uint8_t base; /* enum credentials_base */
	bool dir; /* a directory, denied with everything below it */
	char path[CREDENTIALS_PATH_MAX]; /* relative to the base */
};

extern const struct credentials_row credentials_table[];
extern const size_t credentials_count;

/* base's default place relative to the home (".config" …; atomic.c's
 * XDG table), NULL for the home itself. */
const char *credentials_base_default(enum credentials_base base);

/* Where base is for this home: with xdg false its default place (home,
 * or home/.config …), with xdg true the $XDG_..._HOME variable when it is
 * absolute (else -1: the default is the only place). 0, or -1 when there
 * is none or it does not fit in cap. */
int credentials_base_dir(enum credentials_base base, const char *home, bool xdg,
			 char *buf, size_t cap);

#endif
