/* indexgen — writes the name index (names.h) as C: run by the build, not
 * part of the library.
 *
 * Usage: indexgen OUT.c
 *
 * It is linked with the shell component and reads the tables themselves
 * (wrappers, handlers, interpreters, the short name lists, exec_opts and
 * cmdtab_rules' families), so the index is made again whenever a table
 * changes and no fact is written twice. What it writes holds offsets and
 * row numbers only: nothing for the loader to relocate, nothing to build
 * at run time. Its own names_index is empty (names_ready() is false here),
 * so the tables' lookups search the tables while it runs.
 *
 * A table that does not fit (a name over 255 bytes, a name's exec_opts
 * rows spread over more than 64, more rows than a uint16_t counts) stops
 * the build with a message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdtab.h"
#include "commands_int.h"
#include "names.h"
#include "wrappers.h"
#include "banned.h"

/* The empty index the generator runs with (names.h). */
const char names_pool[] = "";
const struct name_roles names_index[1];
const size_t names_index_cap = 0;
const uint16_t names_fam_rules[1];
const size_t names_fam_count = 0;

struct entry {
	const char *s;
	size_t n;
	struct name_roles r;
};

static struct entry *ents;
static size_t nents, ents_cap;
static uint16_t *fam_rules;
static size_t *fam_filled; /* per entry: its rules written so far */
static size_t nfam_rules, nfams;

__attribute__((format(printf, 1, 2))) static _Noreturn void die(const char *fmt,
								...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("indexgen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint16_t row_number(size_t i, const char *table)
{
	if (i + 1 > UINT16_MAX)
		die("the %s table has more than %u rows", table,
		    (unsigned)UINT16_MAX - 1);
	return (uint16_t)(i + 1);
}

/* The entry for s[0..n), made when new (names are few: a scan will do). */
static struct entry *entry_for(const char *s, size_t n)
{
	if (n == 0 || n > UINT8_MAX)
		die("the name \"%.*s\" is empty or over 255 bytes",
		    (int)(n > 64 ? 64 : n), s);
	for (size_t i = 0; i < nents; i++)
		if (ents[i].n == n && memcmp(ents[i].s, s, n) == 0)
			return &ents[i];
	if (nents == ents_cap) {
		ents_cap = ents_cap ? ents_cap * 2 : 1024;
		ents = realloc(ents, ents_cap * sizeof(*ents));
		if (!ents)
			die("out of memory");
	}
	ents[nents] = (struct entry){ .s = s, .n = n };
	return &ents[nents++];
}

static void flag_names(const char *const *names, size_t n, unsigned flag)
{
	for (size_t i = 0; i < n; i++)
		entry_for(names[i], strlen(names[i]))->r.flags |= (uint8_t)flag;
}

/* Calls fn for every (family name, rule) pair of cmdtab_rules, in table
 * order, as classify.c reads the family field ("a|b"). */
static void each_family(void (*fn)(const char *, size_t, size_t))
{
	for (size_t r = 0; r < cmdtab_rules_count; r++) {
		const char *f = cmdtab_rules[r].family;
		while (*f) {
			size_t n = strcspn(f, "|");
			if (n)
				fn(f, n, r);
			f += n;
			if (*f == '|')
				f++;
		}
	}
}

static void fam_count(const char *s, size_t n, size_t r)
{
	struct entry *e = entry_for(s, n);

	(void)r;
	if (!e->r.fam)
		e->r.fam = row_number(nfams++, "family");
	e->r.fam_n++;
	nfam_rules++;
}

static void fam_fill(const char *s, size_t n, size_t r)
{
	struct entry *e = entry_for(s, n);

	fam_rules[e->r.fam_first + fam_filled[e - ents]++] =
		(uint16_t)(row_number(r, "cmdtab_rules") - 1);
}

static void families(void)
{
	size_t at = 0;

	each_family(fam_count);
	if (nfam_rules > UINT16_MAX)
		die("the families name more than %u rows", UINT16_MAX);
	fam_rules = calloc(nfam_rules ? nfam_rules : 1, sizeof(*fam_rules));
	fam_filled = calloc(nents ? nents : 1, sizeof(*fam_filled));
	if (!fam_rules || !fam_filled)
		die("out of memory");
	for (size_t i = 0; i < nents; i++) {
		ents[i].r.fam_first = (uint16_t)at;
		at += ents[i].r.fam_n;
	}
	each_family(fam_fill);
	free(fam_filled);
}

static void exec_opts(void)
{
	size_t n = commands_exec_opt_count();

	if (n > UINT16_MAX)
		die("commands.c's exec_opts has %zu rows", n);
	for (size_t i = 0; i < n; i++) {
		const char *cmd = commands_exec_opt_cmd(i);
		struct name_roles *r = &entry_for(cmd, strlen(cmd))->r;
		if (!r->exec_rows)
			r->exec_first = (uint16_t)i;
		if (i - r->exec_first >= 64)
			die("%s's exec_opts rows spread over more than 64",
			    cmd);
		r->exec_rows |= UINT64_C(1) << (i - r->exec_first);
	}
}

static void collect(void)
{
	size_t nw, nh, ni, nl;
	const struct wrapper *w = wrappers_table(&nw);
	const struct wrappers_interp *ip = wrappers_interps(&ni);
	const char *const *list;

	for (size_t i = 0; i < nw; i++)
		entry_for(w[i].name, strlen(w[i].name))->r.wrapper =
			row_number(i, "wrapper");
	nh = commands_handler_count();
	for (size_t i = 0; i < nh; i++) {
		size_t len;
		handler_fn *fn;
		const char *name = commands_handler_row(i, &len, &fn);
		entry_for(name, len)->r.handler = row_number(i, "handler");
	}
	list = commands_builtins(&nl);
	flag_names(list, nl, NAMES_F_BUILTIN);
	list = filecmds_readers(&nl);
	flag_names(list, nl, NAMES_F_READS_FILES);
	list = filecmds_never_readers(&nl);
	flag_names(list, nl, NAMES_F_NEVER_READS);
	/* "python*" is in the index as "python"; python3 is found by
	 * wrappers_find_interp()'s scan */
	for (size_t i = 0; i < ni; i++) {
		size_t len = strlen(ip[i].name);
		if (len && ip[i].name[len - 1] == '*')
			len--;
		if (len)
			entry_for(ip[i].name, len);
	}
	families();
	exec_opts();
	for (size_t i = 0; i < nents; i++) {
		const struct wrappers_interp *in =
			wrappers_interp_scan(ents[i].s, ents[i].n);
		if (in)
			ents[i].r.interp =
				row_number((size_t)(in - ip), "interpreter");
	}
}

static void write_index(FILE *f)
{
	size_t cap = 64, off = 0;
	size_t *slot;

	while (cap < nents * 2)
		cap *= 2;
	slot = malloc(cap * sizeof(*slot));
	if (!slot)
		die("out of memory");
	for (size_t i = 0; i < cap; i++)
		slot[i] = SIZE_MAX;
	/* linear probing in table order, as names.c's probe() reads it */
	for (size_t e = 0; e < nents; e++) {
		size_t i = names_hash(ents[e].s, ents[e].n) & (cap - 1);
		while (slot[i] != SIZE_MAX)
			i = (i + 1) & (cap - 1);
		slot[i] = e;
	}
	fputs("/* Generated by src/shell/indexgen.c from the shell's tables: "
	      "do not edit. */\n#include \"names.h\"\n#include \"banned.h\"\n\n"
	      "const char names_pool[] =",
	      f);
	for (size_t e = 0; e < nents; e++) {
		ents[e].r.name = (uint32_t)off;
		ents[e].r.len = (uint8_t)ents[e].n;
		fputs(e % 4 ? " \"" : "\n\t\"", f);
		for (size_t k = 0; k < ents[e].n; k++) {
			unsigned char ch = (unsigned char)ents[e].s[k];
			if (ch < 0x20 || ch >= 0x7f || ch == '"' ||
			    ch == '\\' || ch == '?')
				fprintf(f, "\\%03o", ch);
			else
				fputc(ch, f);
		}
		fputs("\\0\"", f);
		off += ents[e].n + 1;
		if (off > UINT32_MAX)
			die("the names are over 4 GiB");
	}
	fprintf(f,
		";\n\nconst size_t names_index_cap = %zu;\n\n"
		"const struct name_roles names_index[%zu] = {\n",
		cap, cap);
	for (size_t i = 0; i < cap; i++) {
		if (slot[i] == SIZE_MAX)
			continue;
		const struct name_roles *r = &ents[slot[i]].r;
		fprintf(f,
			"\t[%zu] = { %u, %u, %u, %u, %u, %u, %u, %u, %u, %u, "
			"UINT64_C(0x%llx) },\n",
			i, (unsigned)r->name, (unsigned)r->len,
			(unsigned)r->flags, (unsigned)r->wrapper,
			(unsigned)r->handler, (unsigned)r->interp,
			(unsigned)r->fam, (unsigned)r->fam_first,
			(unsigned)r->fam_n, (unsigned)r->exec_first,
			(unsigned long long)r->exec_rows);
	}
	fprintf(f,
		"};\n\nconst size_t names_fam_count = %zu;\n\n"
		"const uint16_t names_fam_rules[%zu] = {",
		nfams, nfam_rules ? nfam_rules : 1);
	for (size_t i = 0; i < nfam_rules; i++)
		fprintf(f, "%s%u,", i % 12 ? " " : "\n\t", fam_rules[i]);
	fputs("\n};\n", f);
	free(slot);
}

int main(int argc, char **argv)
{
	FILE *f;

	if (argc != 2)
		die("usage: indexgen OUT.c");
	collect();
	f = fopen(argv[1], "w");
	if (!f)
		die("%s: cannot write", argv[1]);
	write_index(f);
	if (fclose(f) != 0)
		die("%s: cannot write", argv[1]);
	free(ents);
	free(fam_rules);
	return 0;
}
