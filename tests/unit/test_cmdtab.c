/* The integrity of the command-family table (src/shell/cmdtab.c).
 *
 * The matcher trusts the table: a typo in a flag or glob would make a row
 * match nothing, or everything, without any error. This test holds every row
 * to the syntax of src/shell/cmdtab.h: ids unique and shaped family.part[.part];
 * a family, a tier that raises risk, at least one known label and a reason on
 * every row; sub, flags, unless and args made of well-formed words (no empty
 * words or alternatives, single spaces, flags that start with '-' or are "+",
 * globs that fnmatch(3) accepts and the matcher's buffer holds). It links
 * cmdtab.c itself, which the library does not (cmdtab.h), and holds the
 * library's cmdtab_rules, which indexgen writes, to it: the same rows in
 * the same order, every string offset inside the pool and at the start of
 * one of its strings.
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmdtab.h"
#include "pooltest.h"
#include "tap.h"

/* The matcher copies each glob into a buffer of this size and skips longer
 * ones (classify.c, rule_matches). */
#define GLOB_MAX 128

static char problems[1024];

/* Notes one problem with the current row; the row's result lists them. */
__attribute__((format(printf, 1, 2))) static void problem(const char *fmt, ...)
{
	size_t n = strlen(problems);
	va_list ap;

	if (n + 3 >= sizeof(problems))
		return;
	if (n) {
		memcpy(problems + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(problems + n, sizeof(problems) - n, fmt, ap);
	va_end(ap);
}

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* family.part[.part]: two or three dot-separated parts, each lowercase
 * letters and digits joined by single hyphens. */
static bool id_ok(const char *id)
{
	int parts = 1;
	bool need = true; /* a letter or digit must come next */

	for (const char *p = id; *p; p++) {
		if (is_lower_alnum(*p)) {
			need = false;
		} else if (*p == '-' || *p == '.') {
			if (need)
				return false;
			need = true;
			if (*p == '.')
				parts++;
		} else {
			return false;
		}
	}
	return !need && parts >= 2 && parts <= 3;
}

/* A string of words separated by single spaces, with no space at either
 * end. Returns the number of words, 0 when malformed or empty. */
static size_t word_count(const char *s)
{
	size_t n = 0;

	if (!*s || s[0] == ' ' || s[strlen(s) - 1] == ' ' || strstr(s, "  "))
		return 0;
	for (const char *p = s; *p; p++)
		if (*p == ' ')
			n++;
	return n + 1;
}

/* Calls fn on each space-separated word of s as a (pointer, length) pair. */
static void each_word(const char *field, const char *s,
		      void (*fn)(const char *field, const char *w, size_t n))
{
	while (*s) {
		size_t n = strcspn(s, " ");
		fn(field, s, n);
		s += n;
		if (*s == ' ')
			s++;
	}
}

/* A family name: what a command's basename can be. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
	       c == '+';
}

static void check_family(const char *f)
{
	const char *p = f;

	if (!*f) {
		problem("empty family");
		return;
	}
	while (*p) {
		size_t n = strcspn(p, "|");
		if (n == 0) {
			problem("family \"%s\" has an empty name", f);
			return;
		}
		for (size_t i = 0; i < n; i++)
			if (!name_char(p[i])) {
				problem("family \"%s\": bad character '%c'", f,
					p[i]);
				return;
			}
		if (p[0] == '-' || p[0] == '.')
			problem("family name \"%.*s\" starts with '%c'", (int)n,
				p, p[0]);
		/* The same name twice in one family is a typo. */
		for (const char *q = f; q < p;) {
			size_t m = strcspn(q, "|");
			if (m == n && memcmp(q, p, n) == 0)
				problem("family \"%s\" names \"%.*s\" twice", f,
					(int)n, p);
			q += m + 1;
		}
		p += n;
		if (*p == '|') {
			p++;
			if (!*p)
				problem("family \"%s\" ends with '|'", f);
		}
	}
}

/* One sub word: alternatives separated by '|', none empty, none a flag. */
static void check_sub_word(const char *field, const char *w, size_t n)
{
	const char *p = w, *end = w + n;

	while (p <= end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t m = bar ? (size_t)(bar - p) : (size_t)(end - p);
		if (m == 0)
			problem("%s word \"%.*s\" has an empty alternative",
				field, (int)n, w);
		else if (p[0] == '-')
			problem("%s alternative \"%.*s\" is a flag, never an "
				"operand",
				field, (int)m, p);
		for (size_t i = 0; i < m; i++)
			if ((unsigned char)p[i] <= ' ' || p[i] == '"' ||
			    p[i] == '\'')
				problem("%s word \"%.*s\": bad character",
					field, (int)n, w);
		if (!bar)
			break;
		p = bar + 1;
	}
}

/* One flags/unless word: "-x" (also inside clusters), "--long",
 * "-single-dash-long", an exact "--long=value", or "+". */
static void check_flag_word(const char *field, const char *w, size_t n)
{
	if (n == 1 && w[0] == '+')
		return;
	if (w[0] != '-' || n < 2) {
		problem("%s word \"%.*s\" is neither a flag nor \"+\"", field,
			(int)n, w);
		return;
	}
	if (w[n - 1] == '=')
		problem("%s word \"%.*s\" ends with '='", field, (int)n, w);
	if (n == 2 && w[1] == '-')
		return; /* "--": the end-of-options marker */
	if (n > 2 && w[1] == '-' && w[2] == '-')
		problem("%s word \"%.*s\" has three dashes", field, (int)n, w);
	for (size_t i = 1; i < n; i++)
		if ((unsigned char)w[i] <= ' ' || w[i] == '|' || w[i] == '"' ||
		    w[i] == '\'')
			problem("%s word \"%.*s\": bad character", field,
				(int)n, w);
}

/* One args word: a glob the matcher can use. Brackets must close, a
 * backslash must escape something, and fnmatch must not report an error. */
static void check_glob_word(const char *field, const char *w, size_t n)
{
	char pat[GLOB_MAX];

	if (n >= GLOB_MAX) {
		problem("%s glob \"%.*s\" is longer than %d bytes", field,
			(int)n, w, GLOB_MAX - 1);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (w[i] == '\\') {
			if (++i == n)
				problem("%s glob \"%.*s\" ends with a lone "
					"backslash",
					field, (int)n, w);
		} else if (w[i] == '[') {
			size_t j = i + 1;
			if (j < n && (w[j] == '!' || w[j] == '^'))
				j++;
			if (j < n && w[j] == ']')
				j++; /* a leading ']' is a member */
			while (j < n && w[j] != ']')
				j++;
			if (j >= n || j == i + 1)
				problem("%s glob \"%.*s\" has an unclosed or "
					"empty bracket",
					field, (int)n, w);
			i = j;
		} else if (w[i] == '|' || w[i] == '"' || w[i] == '\'') {
			problem("%s glob \"%.*s\": bad character '%c'", field,
				(int)n, w, w[i]);
		}
	}
	memcpy(pat, w, n);
	pat[n] = '\0';
	int r = fnmatch(pat, "probe", 0);
	if (r != 0 && r != FNM_NOMATCH)
		problem("%s glob \"%s\": fnmatch error %d", field, pat, r);
}

static void check_words(const char *field, const char *s,
			void (*fn)(const char *field, const char *w, size_t n))
{
	if (!s)
		return;
	if (word_count(s) == 0) {
		problem("%s \"%s\" is empty or badly spaced", field, s);
		return;
	}
	each_word(field, s, fn);
}

static void check_reason(const char *r)
{
	size_t n;

	if (!r || !*r) {
		problem("no reason");
		return;
	}
	n = strlen(r);
	if (r[0] == ' ' || r[n - 1] == ' ')
		problem("reason has a space at an end");
	if (r[n - 1] == '.')
		problem("reason ends with a period");
	if (strstr(r, "  "))
		problem("reason has a double space");
	if (strchr(r, '\n') || strchr(r, '\t'))
		problem("reason has a newline or tab");
	if (n > 160)
		problem("reason is longer than 160 bytes");
}

static void check_row(size_t i, const struct cmdtab_src *r)
{
	problems[0] = '\0';
	if (!r->id)
		problem("no id");
	else if (!id_ok(r->id))
		problem("id \"%s\" is not family.part[.part] in lowercase",
			r->id);
	if (!r->family)
		problem("no family");
	else
		check_family(r->family);
	check_words("sub", r->sub, check_sub_word);
	check_words("flags", r->flags, check_flag_word);
	check_words("unless", r->unless, check_flag_word);
	check_words("args", r->args, check_glob_word);
	if (r->sub && word_count(r->sub) > 3)
		problem("sub \"%s\" has more than three words", r->sub);
	/* Rows only raise risk; a SAFE tier is usually a forgotten .tier. */
	if (r->tier < CORDON_RISK_CAUTION || r->tier > CORDON_RISK_BLOCKED)
		problem("tier %d is not caution, destructive or blocked",
			(int)r->tier);
	if (r->labels == 0)
		problem("no label");
	if (CORDON_LABEL_COUNT < 64 && (r->labels >> CORDON_LABEL_COUNT) != 0)
		problem("a label bit beyond CORDON_LABEL_COUNT");
	check_reason(r->reason);
	ok(problems[0] == '\0', "row %zu %s is well-formed%s%s", i,
	   r->id ? r->id : "(no id)", problems[0] ? ": " : "", problems);
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static void check_table(void)
{
	size_t dup_ids = 0, dup_rows = 0;

	ok(cmdtab_src_count > 0, "the table has rows (%zu)", cmdtab_src_count);
	for (size_t i = 0; i < cmdtab_src_count; i++) {
		const struct cmdtab_src *a = &cmdtab_src[i];
		for (size_t j = i + 1; j < cmdtab_src_count; j++) {
			const struct cmdtab_src *b = &cmdtab_src[j];
			if (a->id && b->id && strcmp(a->id, b->id) == 0) {
				diag("id %s is used by rows %zu and %zu", a->id,
				     i, j);
				dup_ids++;
			}
			if (same(a->family, b->family) &&
			    same(a->sub, b->sub) && same(a->flags, b->flags) &&
			    same(a->unless, b->unless) &&
			    same(a->args, b->args)) {
				diag("rows %s and %s match the same commands",
				     a->id, b->id);
				dup_rows++;
			}
		}
	}
	is_int((long long)dup_ids, 0, "every id is unique");
	is_int((long long)dup_rows, 0, "no two rows have the same pattern");
}

/* Does the table name this family with this sub (NULL: any)? Used to pin
 * the families the issue names, so a refactor cannot drop one silently. */
static bool covers(const char *name, const char *sub_word)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < cmdtab_src_count; i++) {
		const struct cmdtab_src *r = &cmdtab_src[i];
		const char *p = r->family;
		bool fam = false;
		while (*p && !fam) {
			size_t m = strcspn(p, "|");
			fam = m == n && memcmp(p, name, n) == 0;
			p += m;
			if (*p == '|')
				p++;
		}
		if (!fam)
			continue;
		if (!sub_word)
			return true;
		if (r->sub && strstr(r->sub, sub_word))
			return true;
	}
	return false;
}

static void check_coverage(void)
{
	static const struct {
		const char *family, *sub;
	} need[] = {
		{ "git", "push" },
		{ "git", "reset" },
		{ "git", "clean" },
		/* git checkout, restore, switch, read-tree and checkout-index
		 * are read with git's option grammar in families.c
		 * (git_discards), not by rows */
		{ "git", "stash" },
		{ "git", "branch" },
		{ "git", "filter-branch" },
		{ "git", "reflog" },
		{ "git", "gc" },
		{ "git", "update-ref" },
		{ "docker", "prune" },
		{ "docker", "rm" },
		{ "kubectl", "delete" },
		{ "terraform", "destroy" },
		{ "helm", "uninstall" },
		{ "aws", NULL },
		{ "gcloud", NULL },
		{ "az", NULL },
		{ "gsutil", "rm" },
		{ "npm", "install" },
		{ "pip", "install" },
		{ "cargo", "install" },
		{ "apt-get", "install" },
		{ "npx", NULL },
		{ "uvx", NULL },
		{ "pipx", "run" },
		{ "shutdown", NULL },
		{ "reboot", NULL },
		{ "halt", NULL },
		{ "poweroff", NULL },
		{ "init", NULL },
		{ "systemctl", "poweroff" },
		{ "killall", NULL },
		{ "pkill", NULL },
		{ "mkfs", NULL },
		{ "fdisk", NULL },
		{ "wipefs", NULL },
		{ "crontab", NULL },
		{ "runas", NULL },
		{ "curl", NULL },
		{ "wget", NULL },
		{ "redis-cli", NULL },
		{ "iptables", NULL },
		{ "journalctl", NULL },
		{ "useradd", NULL },
	};

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		ok(covers(need[i].family, need[i].sub),
		   "the table covers %s%s%s", need[i].family,
		   need[i].sub ? " " : "", need[i].sub ? need[i].sub : "");
}

static void same_field(const char *field, uint32_t off, const char *want)
{
	size_t bad = 0;
	const char *got = pool_at(cmdtab_pool, cmdtab_pool_size, off, &bad);

	if (bad)
		problem("%s offset %u is not a string of the pool", field,
			(unsigned)off);
	else if (!pool_same(got, want))
		problem("%s is \"%s\", cmdtab.c says \"%s\"", field,
			got ? got : "(null)", want ? want : "(null)");
}

static void check_packed(void)
{
	size_t bad = 0;

	is_int((long long)cmdtab_rules_count, (long long)cmdtab_src_count,
	       "the library's cmdtab_rules has cmdtab.c's rows");
	ok(pool_framed(cmdtab_pool, cmdtab_pool_size) && !cmdtab_str(0),
	   "the pool starts and ends with a NUL; offset 0 is NULL");
	for (size_t i = 0; i < cmdtab_rules_count && i < cmdtab_src_count;
	     i++) {
		const struct cmd_rule *r = &cmdtab_rules[i];
		const struct cmdtab_src *s = &cmdtab_src[i];
		problems[0] = '\0';
		same_field("id", r->id, s->id);
		same_field("family", r->family, s->family);
		same_field("sub", r->sub, s->sub);
		same_field("flags", r->flags, s->flags);
		same_field("unless", r->unless, s->unless);
		same_field("args", r->args, s->args);
		same_field("reason", r->reason, s->reason);
		if (r->tier != s->tier || r->labels != s->labels)
			problem("tier or labels differ");
		if (problems[0]) {
			diag("row %zu %s: %s", i, s->id ? s->id : "(no id)",
			     problems);
			bad++;
		}
	}
	is_int((long long)bad, 0,
	       "every row of cmdtab_rules says what cmdtab.c's says");
}

int main(void)
{
	tap_no_plan();
	check_packed();
	for (size_t i = 0; i < cmdtab_src_count; i++)
		check_row(i, &cmdtab_src[i]);
	check_table();
	check_coverage();
	return tap_done();
}
