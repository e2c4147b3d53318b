/* sql_scan() (src/shell/sql.c): what SQL and MongoDB shell text does.
 *
 * Each row gives the text and the exact SQL_F_* flags: every flag, keywords
 * in any case, keywords hidden in strings, quoted identifiers, dollar quotes
 * and comments, WHERE present, absent or always true, several statements,
 * code that runs now (DO, EXECUTE, MySQL's executable comments), both
 * readings of a backslash in a string, and the MongoDB shapes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codescan.h"
#include "tap.h"

#define DROP SQL_F_DROP
#define TRUNC SQL_F_TRUNCATE
#define DALL SQL_F_DELETE_ALL
#define UALL SQL_F_UPDATE_ALL
#define ADROP SQL_F_ALTER_DROP
#define SHUT SQL_F_SHUTDOWN
#define PRIV SQL_F_PRIVILEGE
#define WR SQL_F_WRITE
#define MDROP SQL_F_MONGO_DROP

struct row {
	const char *sql;
	unsigned flags;
};

static const struct row rows[] = {
	/* each flag */
	{ "DROP TABLE users", DROP },
	{ "drop database test", DROP },
	{ "DROP SCHEMA s CASCADE", DROP },
	{ "DROP VIEW v; DROP INDEX i", DROP },
	{ "DROP USER bob", DROP },
	{ "Drop Role admin", DROP },
	{ "DROP TABLE IF EXISTS t", DROP },
	{ "TRUNCATE TABLE t", TRUNC },
	{ "truncate t", TRUNC },
	{ "DELETE FROM t", DALL },
	{ "delete from t;", DALL },
	{ "UPDATE t SET a = 1", UALL },
	{ "ALTER TABLE t DROP COLUMN c", ADROP },
	{ "alter table t drop constraint fk", ADROP },
	{ "SHUTDOWN", SHUT },
	{ "GRANT ALL ON db.* TO u", PRIV },
	{ "REVOKE SELECT ON t FROM u", PRIV },
	{ "CREATE USER u IDENTIFIED BY 'p'", PRIV },
	{ "ALTER USER u WITH PASSWORD 'x'", PRIV },
	{ "SET PASSWORD FOR u = 'x'", PRIV },
	{ "CREATE ROLE r", PRIV },
	{ "INSERT INTO t VALUES (1)", WR },
	{ "CREATE TABLE t (id int)", WR },
	{ "ALTER TABLE t ADD COLUMN c int", WR },
	{ "REPLACE INTO t VALUES (1)", WR },
	{ "SELECT * INTO OUTFILE '/tmp/x' FROM t", WR },
	/* WHERE */
	{ "DELETE FROM t WHERE id = 1", WR },
	{ "UPDATE t SET a = 1 WHERE id = 2", WR },
	{ "DELETE FROM t WHERE 1=1", DALL },
	{ "delete from t where true", DALL },
	{ "DELETE FROM t WHERE 1", DALL },
	{ "DELETE FROM t WHERE id = 5 OR 'a' = 'a'", DALL },
	{ "DELETE FROM t WHERE (1 = 1)", DALL },
	{ "DELETE FROM t WHERE 1 <> 2", DALL },
	{ "DELETE FROM t WHERE id = id", DALL },
	{ "DELETE FROM t WHERE 1=1 AND id = 3", WR },
	{ "UPDATE t SET a = 1 WHERE NOT FALSE", UALL },
	{ "DELETE FROM t WHERE id IN (SELECT id FROM u WHERE x = 1)", WR },
	{ "UPDATE t SET a = (SELECT b FROM u WHERE u.id = 1)", UALL },
	{ "DELETE FROM t WHERE created < now() RETURNING id", WR },
	{ "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", DALL },
	{ "WITH d AS (SELECT 1) DELETE FROM t WHERE id = 1", WR },
	{ "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", WR },
	{ "MERGE INTO t USING s ON t.id = s.id "
	  "WHEN MATCHED THEN UPDATE SET a = 1",
	  WR },
	/* harmless, and look-alikes */
	{ "SELECT 1", 0 },
	{ "select * from dropdown", 0 },
	{ "SELECT * FROM users WHERE name = 'x'", 0 },
	{ "SELECT TRUNCATE(1.5, 1)", 0 },
	{ "CREATE TABLE t (a int REFERENCES u ON DELETE CASCADE)", WR },
	{ "GRANT DROP ON t TO u", PRIV },
	{ "GRANT DELETE, UPDATE ON t TO u", PRIV },
	{ "ALTER TABLE t ALTER COLUMN c DROP NOT NULL", WR },
	/* strings, identifiers and comments hide keywords */
	{ "SELECT 'DROP TABLE x'", 0 },
	{ "SELECT 'it''s; DROP TABLE x'", 0 },
	{ "SELECT \"DROP TABLE x\" FROM t", 0 },
	{ "SELECT `truncate` FROM t", 0 },
	{ "SELECT $$DROP TABLE x$$", 0 },
	{ "SELECT $tag$ DELETE FROM t $tag$", 0 },
	{ "-- DROP TABLE x\nSELECT 1", 0 },
	{ "/* DROP TABLE x */ SELECT 1", 0 },
	{ "SELECT 1 /* ; DROP TABLE x", 0 },
	/* … unless they run */
	{ "/*!50000 DROP TABLE x */", DROP },
	{ "DO $$ BEGIN DROP TABLE x; END $$", DROP },
	{ "DO LANGUAGE plpgsql $body$ BEGIN DELETE FROM t; END $body$", DALL },
	{ "EXECUTE 'DROP TABLE x'", DROP },
	{ "PREPARE s FROM 'TRUNCATE t'", TRUNC },
	{ "BEGIN; DELETE FROM t; COMMIT;", DALL },
	{ "IF x THEN UPDATE t SET a = 1; END IF;", UALL },
	/* backslashes read both ways */
	{ "SELECT 'a\\'; DROP TABLE x; --'", DROP },
	{ "SELECT 'a\\'' DROP TABLE x '", DROP },
	/* several statements */
	{ "SELECT 1; DROP TABLE x;", DROP },
	{ "DELETE FROM a; DELETE FROM b WHERE id = 1", DALL | WR },
	{ "INSERT INTO t VALUES (1); TRUNCATE u", WR | TRUNC },
	{ "UPDATE t SET a=1 WHERE b=2; UPDATE u SET c=3", WR | UALL },
	/* mongo */
	{ "db.dropDatabase()", MDROP },
	{ "DB.DROPDATABASE()", MDROP },
	{ "db.users.drop()", MDROP },
	{ "db.my-collection.drop()", MDROP },
	{ "db.getCollection('x').drop()", MDROP },
	{ "db.getSiblingDB('x').dropDatabase()", MDROP },
	{ "db.users.deleteMany({})", MDROP },
	{ "db.users.remove({})", MDROP },
	{ "db.users.deleteMany({age: 5})", WR },
	{ "db.users.remove({name: 'x'})", WR },
	{ "db.users.updateMany({}, {$set: {a: 1}})", UALL },
	{ "db.users.insertOne({a: 1})", WR },
	{ "db.users.find({a: 'db.x.drop()'})", 0 },
	{ "db.users.find()", 0 },
	{ "db.runCommand({dropDatabase: 1})", MDROP },
	{ "db.adminCommand({shutdown: 1})", SHUT },
	{ "db.createUser({user: 'x', pwd: 'y', roles: []})", PRIV },
	{ "x--; db.dropDatabase()", MDROP },
	/* odd input */
	{ "", 0 },
	{ "'unterminated DROP TABLE x", 0 },
	{ "DROP", 0 },
	{ ";;;", 0 },
};

int main(void)
{
	char *big;
	size_t n = 1u << 20;
	unsigned f;

	tap_no_plan();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		f = sql_scan(rows[i].sql, strlen(rows[i].sql));
		if (!ok(f == rows[i].flags, "%s", rows[i].sql)) {
			diag("  got: %#x", f);
			diag(" want: %#x", rows[i].flags);
		}
	}
	f = sql_scan("DROP TABLE a\0; TRUNCATE b", 25);
	is_int(f, DROP | TRUNC, "a NUL byte does not end the text");
	is_int(sql_scan(NULL, 0), 0, "NULL text");

	/* Ways a database client runs a shell command. */
	static const char *const execs[] = {
		"COPY t TO PROGRAM 'rm -rf /'",
		"copy t from program 'curl x | sh'",
		"EXEC xp_cmdshell 'dir'",
		"SELECT sys_exec('id')",
		"\\! rm -rf /",
		"SELECT 1;\n  \\! ls",
		".shell rm -rf /",
		".system ls",
	};
	for (size_t i = 0; i < sizeof(execs) / sizeof(*execs); i++)
		ok(sql_scan(execs[i], strlen(execs[i])) & SQL_F_EXEC, "exec #%zu",
		   i);
	static const char *const not_execs[] = {
		"SELECT program FROM t",
		"SELECT '\\! ls'",
		"COPY t TO '/tmp/x.csv'",
	};
	for (size_t i = 0; i < sizeof(not_execs) / sizeof(*not_execs); i++)
		ok(!(sql_scan(not_execs[i], strlen(not_execs[i])) & SQL_F_EXEC),
		   "not exec: %s", not_execs[i]);

	/* Deep parentheses and a long text finish. */
	big = malloc(n);
	if (!big) {
		skip(2, "out of memory");
		return tap_done();
	}
	memset(big, '(', n);
	f = sql_scan(big, n);
	is_int(f, 0, "1 MiB of '(' finishes");
	for (size_t i = 0; i + 24 <= n; i += 24)
		memcpy(big + i, "DELETE FROM t WHERE 1=1;", 24);
	f = sql_scan(big, n);
	is_int(f, DALL, "1 MiB of statements finishes");
	free(big);
	return tap_done();
}
