/* codeshape — reading code by its shape, for the languages cordon has no
 * grammar for, and the SQL and home-directory passes every language gets.
 * See the head of codeshape.c.
 */
#ifndef CORDON_CODESHAPE_H
#define CORDON_CODESHAPE_H

#include <stddef.h>

#define SHAPE_ALL (1u << 0)      /* connections, commands run, deletes */
#define SHAPE_SQL (1u << 1)      /* string literals that are SQL -> sql() */
#define SHAPE_CASELESS (1u << 2) /* names are case-insensitive (PowerShell) */
#define SHAPE_HOME (1u << 3)     /* deletes whose path is the home directory */

/* Scans code[0..n). Command lines it reads are handed to shell() (valid
 * during the call only), SQL literals to sql(); either may be NULL.
 * Returns CODE_F_* flags (codescan.h). Pure, linear, no allocation. */
unsigned codeshape_scan(const char *code, size_t n, unsigned what,
			void (*shell)(void *ud, const char *cmd, size_t n),
			void (*sql)(void *ud, const char *text, size_t n),
			void *ud);

#endif
