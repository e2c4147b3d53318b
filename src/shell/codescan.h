/* codescan — reading code handed to interpreters, and SQL handed to clients.
 *
 * The classifier gives it the program text of `python -c`, `node -e`,
 * `perl -e`, `ruby -e`, `php -r`, `awk '…'`, `sed '…'` (and here-docs fed to
 * them); it reports what the code can do as flags and hands back, through a
 * callback, every shell command line it can read out of the code, so the
 * classifier classifies those with its own rules. It is pure: no I/O, no
 * allocation that outlives the call, linear in the input.
 */
#ifndef CORDON_CODESCAN_H
#define CORDON_CODESCAN_H

#include <stddef.h>

enum code_lang {
	CODE_PYTHON,
	CODE_NODE,
	CODE_PERL,
	CODE_RUBY,
	CODE_PHP,
	CODE_AWK,
	CODE_SED,
	CODE_LUA,
	/* no grammar: read by shape (codeshape.c) — Tcl, R, Julia, Groovy,
	 * jrunscript, Crystal, Go, V, Rust; _CI with PowerShell's
	 * case-insensitive names */
	CODE_SHAPE,
	CODE_SHAPE_CI,
};

/* What codescan_scan() saw. */
#define CODE_F_EXEC (1u << 0)           /* runs a command or a shell */
#define CODE_F_EXEC_DYNAMIC (1u << 1)   /* … whose command it cannot read */
#define CODE_F_EVAL (1u << 2)           /* evaluates code built at run time */
#define CODE_F_DECODE_EXEC (1u << 3)    /* decodes (base64, hex, chr) and runs */
#define CODE_F_DELETE (1u << 4)         /* deletes files (path not readable) */
#define CODE_F_WRITE (1u << 5)          /* writes files */
#define CODE_F_NETWORK (1u << 6)        /* opens connections, fetches URLs */
#define CODE_F_REVERSE_SHELL (1u << 7)  /* socket wired to a shell / pty */
#define CODE_F_ENV_DUMP (1u << 8)       /* reads the whole environment */
#define CODE_F_SECRETS (1u << 9)        /* names a credential path (~/.ssh …) */
#define CODE_F_FORK_BOMB (1u << 10)     /* forks in an unbounded loop */
#define CODE_F_KILL (1u << 11)          /* kills processes */
#define CODE_F_UNREADABLE (1u << 12)    /* could not make sense of it */
#define CODE_F_URL (1u << 13)           /* names a URL in a literal */
#define CODE_F_SHELL_FED (1u << 14)     /* writes into a shell it started */
#define CODE_F_OBFUSCATED (1u << 15)    /* os.<name put together>() */
#define CODE_F_ALL ((CODE_F_OBFUSCATED << 1) - 1) /* every flag above */

/* Scans code[0..len) written in lang. For every shell command line found
 * (string literal arguments of os.system, subprocess.*, os.popen, exec*,
 * child_process.exec/execSync/spawn, system(), backticks, qx//, %x(),
 * shell_exec, passthru, awk system() / "cmd" | getline / print | "cmd",
 * sed's e command or s///e flag …) calls shell(ud, line, n) with the decoded
 * text (language escapes resolved; a list form ["rm", "-rf", "/"] joined with
 * spaces, each element shell-quoted). File deletions and writes with a
 * literal path are handed back the same way as the equivalent shell
 * command ("rm -rf '/'" for shutil.rmtree('/'), "rm 'x'" for
 * os.remove('x'), ": > 'p'" for open('p', 'w'), ": >> 'p'" for an
 * append), so paths are judged in one place.
 * The pointer passed to shell is valid only during the callback.
 * Returns CODE_F_* flags. */
unsigned codescan_scan(enum code_lang lang, const char *code, size_t len,
		   void (*shell)(void *ud, const char *cmd, size_t n), void *ud);

/* What sql_scan() saw. */
#define SQL_F_DROP (1u << 0)        /* DROP DATABASE/TABLE/SCHEMA/… */
#define SQL_F_TRUNCATE (1u << 1)    /* TRUNCATE [TABLE] */
#define SQL_F_DELETE_ALL (1u << 2)  /* DELETE FROM t without WHERE */
#define SQL_F_UPDATE_ALL (1u << 3)  /* UPDATE t SET … without WHERE */
#define SQL_F_ALTER_DROP (1u << 4)  /* ALTER TABLE … DROP … */
#define SQL_F_SHUTDOWN (1u << 5)    /* SHUTDOWN */
#define SQL_F_PRIVILEGE (1u << 6)   /* GRANT/REVOKE/CREATE USER/ALTER USER */
#define SQL_F_WRITE (1u << 7)       /* INSERT/UPDATE/DELETE with WHERE, CREATE */
#define SQL_F_MONGO_DROP (1u << 8)  /* db.dropDatabase(), coll.drop(), deleteMany({}) */
#define SQL_F_EXEC (1u << 9)        /* runs a shell command: COPY … PROGRAM,
				       psql \!, sqlite3 .shell/.system,
				       xp_cmdshell, sys_exec */

/* Scans SQL (several statements, comments, quoted identifiers and strings
 * handled; keywords case-insensitive) or a MongoDB shell snippet. Returns
 * SQL_F_* flags. */
unsigned sql_scan(const char *text, size_t len);

#endif
