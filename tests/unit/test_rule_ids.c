/* Every rule id cordon can report has a case row that reports it.
 *
 * The ids come from every table that holds them: the classifier's rule
 * catalog (src/shell/rules.def), the command families (cmdtab_rules), the
 * built-in deny list and deny patterns (classify_table_id), the wrapper
 * table (wrappers_table). Every row of every tests/cases/NAME.jsonl file
 * (format: tests/unit/test_cases.c) is classified with its context, and
 * an id that no row's verdict names fails, by name: a rule nobody has seen
 * fire is a rule nobody knows works. The few ids no row can reach are
 * listed below with the test that covers them instead.
 *
 * Also checked: ids are well formed and in one table only, and catalog rows
 * that share an id (one per reason) agree on labels.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "classify_int.h"
#include "cmdtab.h"
#include "cordon.h"
#include "rules.h"
#include "table.h"
#include "tap.h"
#include "wrappers.h"

/* Ids no case row can trigger, and where they are tested. */
static const struct {
	const char *id;
	const char *where;
} elsewhere[] = {
	{ "limit.input", "test_classifier_api (a line over a small "
			 "max_input_bytes; a row would need 1 MiB)" },
};

/* Every id a verdict named, sorted once all rows ran. */
static char **seen;
static size_t nseen, capseen;

static void see(const char *id)
{
	if (nseen == capseen) {
		size_t cap = capseen ? capseen * 2 : 1024;
		char **n = realloc(seen, cap * sizeof(*n));
		if (!n)
			abort();
		seen = n;
		capseen = cap;
	}
	seen[nseen] = strdup(id);
	if (!seen[nseen])
		abort();
	nseen++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int was_seen(const char *id)
{
	return bsearch(&id, seen, nseen, sizeof(*seen), cmp_str) != NULL;
}

static const char *str_field(const cJSON *row, const char *key,
			     const char *dflt)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(row, key);

	return cJSON_IsString(it) ? it->valuestring : dflt;
}

/* Classifies every row of one case file, noting the ids it reports.
 * Returns the number of rows. (Malformed rows are test_cases' to report.) */
static size_t run_file(struct cordon_classifier *cls, struct cordon_verdict *v,
		       const char *path)
{
	size_t len, rows = 0;
	char *text = table_read(path, &len);

	if (!text) {
		ok(0, "%s: readable", path);
		return 0;
	}
	for (char *line = text, *end; line < text + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len;
		if (end == line || line[0] == '#')
			continue;
		cJSON *row = cJSON_ParseWithLength(line, (size_t)(end - line));
		const char *cmd = str_field(row, "cmd", NULL);
		if (cmd) {
			struct cordon_context ctx = {
				.cwd = str_field(row, "cwd",
						 "/home/user/project"),
				.workspace = str_field(row, "workspace",
						       "/home/user/project"),
				.home = str_field(row, "home", "/home/user"),
				.tmpdir = str_field(row, "tmpdir", "/tmp"),
			};
			(void)cordon_classify(cls, &ctx, cmd, strlen(cmd), v,
					      NULL);
			for (size_t i = 0; i < cordon_verdict_rule_count(v);
			     i++)
				see(cordon_verdict_rule(v, i));
			rows++;
		}
		cJSON_Delete(row);
	}
	free(text);
	return rows;
}

static int is_case_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 6 &&
	       strcmp(d->d_name + n - 6, ".jsonl") == 0;
}

/* Runs every case file in tests/REL; returns the number of rows. */
static size_t run_dir(struct cordon_classifier *cls, struct cordon_verdict *v,
		      const char *rel)
{
	char dir[4096], path[4096 + 256];
	struct dirent **ents = NULL;
	size_t rows = 0;
	int n;

	table_path(dir, sizeof(dir), rel);
	n = scandir(dir, &ents, is_case_file, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		rows += run_file(cls, v, path);
		free(ents[i]);
	}
	free(ents);
	return rows;
}

/* Every id of every table, with where it comes from. */
struct id {
	const char *id;
	const char *table;
};

static size_t all_ids(struct id *out, size_t cap)
{
	const struct wrapper *wt;
	size_t n = 0, nw;

	for (size_t i = 0; i < RULE__COUNT && n < cap; i++)
		out[n++] =
			(struct id){ rules_id((enum rule_id)i), "rules.def" };
	for (size_t i = 0; i < cmdtab_rules_count && n < cap; i++)
		out[n++] = (struct id){ cmdtab_str(cmdtab_rules[i].id),
					"cmdtab_rules" };
	for (size_t i = 0; classify_table_id(i) && n < cap; i++)
		out[n++] = (struct id){ classify_table_id(i), "classify.c" };
	/* wrappers.c: rows of one id (privilege.runas: runas, runuser, su
	 * ...) are one id */
	wt = wrappers_table(&nw);
	for (size_t i = 0; i < nw && n < cap; i++) {
		int again = 0;

		const char *rule = wrappers_str(wt[i].rule);

		if (!rule)
			continue;
		for (size_t j = 0; j < i && !again; j++)
			again = wt[j].rule &&
				strcmp(wrappers_str(wt[j].rule), rule) == 0;
		if (!again)
			out[n++] = (struct id){ rule, "wrappers.c" };
	}
	return n;
}

static int well_formed(const char *id)
{
	if (!id || !*id || *id == '.' || *id == '-')
		return 0;
	for (const char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '-'))
			return 0;
	return id[strlen(id) - 1] != '.';
}

static const char *exempt(const char *id)
{
	for (size_t i = 0; i < sizeof(elsewhere) / sizeof(*elsewhere); i++)
		if (strcmp(elsewhere[i].id, id) == 0)
			return elsewhere[i].where;
	return NULL;
}

/* The catalog's offsets give each row the id and reason rules.def writes
 * in it (rules.c keeps them as offsets into one object). */
static void check_catalog_text(void)
{
	static const struct {
		const char *id, *reason;
	} def[] = {
#define RULE(name, id, tier, labels, reason) [RULE_##name] = { id, reason },
#include "rules.def"
#undef RULE
	};
	size_t bad = 0;

	for (size_t i = 0; i < RULE__COUNT; i++)
		if (strcmp(rules_id((enum rule_id)i), def[i].id) != 0 ||
		    strcmp(rules_reason((enum rule_id)i), def[i].reason) != 0) {
			diag("row %zu: \"%s\" \"%s\"", i, def[i].id,
			     def[i].reason);
			bad++;
		}
	is_int((long long)bad, 0,
	       "every row's id and reason are the ones rules.def gives it");
}

/* Rows that share an id are one rule with several reasons: the same
 * labels, different reasons. */
static void check_catalog(void)
{
	for (size_t i = 0; i < RULE__COUNT; i++) {
		const struct rule *a = &rules_catalog[i];
		const char *aid = rules_id((enum rule_id)i);
		const char *why = rules_reason((enum rule_id)i);

		ok(why[0], "%s has a reason", aid);
		for (size_t j = i + 1; j < RULE__COUNT; j++) {
			const struct rule *b = &rules_catalog[j];

			if (strcmp(aid, rules_id((enum rule_id)j)) != 0)
				continue;
			ok(a->labels == b->labels,
			   "%s: rows %zu and %zu agree on labels", aid, i, j);
			ok(strcmp(why, rules_reason((enum rule_id)j)) != 0,
			   "%s: rows %zu and %zu differ in reason", aid, i, j);
		}
	}
}

int main(void)
{
	static struct id ids[4096];
	struct cordon_classifier *cls = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	size_t rows, n;

	tap_no_plan();
	if (!cls || !v) {
		ok(0, "a classifier and a verdict");
		return tap_done();
	}
	/* tests/cases/NAME.jsonl, or tests/cases/shell/ once split by
	 * component */
	rows = run_dir(cls, v, "cases") + run_dir(cls, v, "cases/shell");
	ok(rows > 1000, "case rows classified: %zu", rows);
	qsort(seen, nseen, sizeof(*seen), cmp_str);

	n = all_ids(ids, sizeof(ids) / sizeof(*ids));
	ok(n < sizeof(ids) / sizeof(*ids), "%zu ids fit", n);
	check_catalog_text();
	check_catalog();
	for (size_t i = 0; i < n; i++) {
		const char *id = ids[i].id, *where;
		int dup = 0;

		if (!well_formed(id)) {
			ok(0, "%s id \"%s\" is well formed", ids[i].table,
			   id ? id : "(null)");
			continue;
		}
		for (size_t j = 0; j < i && !dup; j++)
			dup = strcmp(ids[j].id, id) == 0;
		if (dup && strcmp(ids[i].table, "rules.def") == 0)
			continue; /* one catalog row per reason */
		ok(!dup, "%s: %s id is in no other table", id, ids[i].table);
		where = exempt(id);
		if (where) {
			ok(!was_seen(id), "%s: no case row, tested in %s", id,
			   where);
			continue;
		}
		ok(was_seen(id), "%s (%s) has a case row", id, ids[i].table);
	}
	for (size_t i = 0; i < sizeof(elsewhere) / sizeof(*elsewhere); i++) {
		int known = 0;

		for (size_t j = 0; j < n && !known; j++)
			known = strcmp(ids[j].id, elsewhere[i].id) == 0;
		ok(known, "exempt id %s exists", elsewhere[i].id);
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return tap_done();
}
