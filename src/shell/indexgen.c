/* indexgen — writes the name index (names.h) and the library's
 * cmdtab_rules (cmdtab.h), wrappers_rows (wrappers.h) and the code
 * scanner's sink tables (codescan_int.h) as C: run by the build, not part
 * of the library.
 *
 * Usage: indexgen NAMES_INDEX.c CMDTAB_RULES.c WRAPPERS_ROWS.c
 *        CODESINKS_ROWS.c
 *
 * It is linked with the shell component and reads the tables themselves
 * (wrappers, handlers, interpreters, the short name lists, exec_opts and
 * cmdtab_rules' families), so the index is made again whenever a table
 * changes and no fact is written twice. What it writes holds offsets and
 * row numbers only: nothing for the loader to relocate, nothing to build
 * at run time. Its own names_index is empty (names_ready() is false here),
 * so the tables' lookups search the tables while it runs; so are its
 * cmdtab_rules, wrappers_rows and sink tables: it reads the rows of
 * cmdtab.c, wrappers_table.c and codesinks_table.c, which it alone of the
 * library's programs links, and writes each file's tables with every
 * string as an offset into one pool of their own.
 *
 * A table that does not fit (a name over 255 bytes, a name's exec_opts
 * rows spread over more than 64, more rows than a uint16_t counts, the
 * strings of wrappers_table.c or codesinks_table.c over the 64 KiB their
 * offsets reach) stops the build with a message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdtab.h"
#include "codescan_int.h"
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

/* The empty cmdtab_rules, wrappers_rows and sink tables the generator
 * runs with (cmdtab.h, wrappers.h, codescan_int.h). */
const struct cmd_rule cmdtab_rules[1];
const size_t cmdtab_rules_count = 0;
const char cmdtab_pool[1];
const size_t cmdtab_pool_size = 0;
const struct wrapper wrappers_rows[1];
const size_t wrappers_rows_count = 0;
const char wrappers_pool[1];
const size_t wrappers_pool_size = 0;
const struct sink codesinks_sink_tab[1];
const size_t codesinks_nsink = 0;
const struct modname codesinks_mod_tab[1];
const size_t codesinks_nmod = 0;
const char codesinks_pool[1];
const size_t codesinks_pool_size = 0;

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

/* Calls fn for every (family name, rule) pair of cmdtab.c's rows, in table
 * order, as classify.c reads the family field ("a|b"). */
static void each_family(void (*fn)(const char *, size_t, size_t))
{
	for (size_t r = 0; r < cmdtab_src_count; r++) {
		const char *f = cmdtab_src[r].family;
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
	const struct wrapper_src *w = wrappers_src;
	const struct wrappers_interp *ip = wrappers_interps(&ni);
	const char *const *list;

	nw = wrappers_src_count;
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

/* Writes s[0..n) and its NUL as one C string literal: a byte that could
 * end or change the literal (a quote, a backslash, '?' of a trigraph, a
 * control, non-ASCII) as a three-digit octal escape, which no following
 * digit can extend. */
static void put_literal(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t k = 0; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];
		if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' ||
		    ch == '?')
			fprintf(f, "\\%03o", ch);
		else
			fputc(ch, f);
	}
	fputs("\\0\"", f);
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
		fputs(e % 4 ? " " : "\n\t", f);
		put_literal(f, ents[e].s, ents[e].n);
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

/* A table's strings, each once, in the order first met. Offset 0 is the
 * pool's first byte, a NUL, which the table's accessor reads as NULL. */
struct pool {
	const char **s;
	size_t n, cap, len;
	size_t max; /* the largest offset the table's field type holds */
	const char *what;
};

static uint32_t pool_off(struct pool *p, const char *s)
{
	size_t off = 1, n;

	if (!s)
		return 0;
	for (size_t i = 0; i < p->n; i++) {
		if (strcmp(p->s[i], s) == 0)
			return (uint32_t)off;
		off += strlen(p->s[i]) + 1;
	}
	if (p->len == 0)
		p->len = 1;
	n = strlen(s);
	if (p->len > p->max)
		die("%s's strings are over the %zu bytes its offsets reach",
		    p->what, p->max);
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->s = realloc(p->s, p->cap * sizeof(*p->s));
		if (!p->s)
			die("out of memory");
	}
	p->s[p->n++] = s;
	off = p->len;
	p->len += n + 1;
	return (uint32_t)off;
}

/* Writes the pool as the array NAME and NAME_size. */
static void write_pool(FILE *f, struct pool *p, const char *name)
{
	fprintf(f, "const char %s[] =\n\t", name);
	put_literal(f, "", 0);
	for (size_t i = 0; i < p->n; i++) {
		fputs("\n\t", f);
		put_literal(f, p->s[i], strlen(p->s[i]));
	}
	fprintf(f, ";\n\nconst size_t %s_size = sizeof(%s);\n\n", name, name);
	free(p->s);
}

static void write_cmdtab(FILE *f)
{
	struct pool p = { .max = UINT32_MAX, .what = "cmdtab.c" };
	struct cmd_rule *rows =
		calloc(cmdtab_src_count ? cmdtab_src_count : 1, sizeof(*rows));

	if (!rows)
		die("out of memory");
	for (size_t i = 0; i < cmdtab_src_count; i++) {
		const struct cmdtab_src *r = &cmdtab_src[i];
		rows[i] = (struct cmd_rule){
			.id = pool_off(&p, r->id),
			.family = pool_off(&p, r->family),
			.sub = pool_off(&p, r->sub),
			.flags = pool_off(&p, r->flags),
			.unless = pool_off(&p, r->unless),
			.args = pool_off(&p, r->args),
			.reason = pool_off(&p, r->reason),
			.tier = r->tier,
			.labels = r->labels,
		};
	}
	fputs("/* Generated by src/shell/indexgen.c from src/shell/cmdtab.c: "
	      "do not edit. */\n#include \"cmdtab.h\"\n#include "
	      "\"banned.h\"\n\n",
	      f);
	write_pool(f, &p, "cmdtab_pool");
	fprintf(f,
		"const size_t cmdtab_rules_count = %zu;\n\n"
		"const struct cmd_rule cmdtab_rules[%zu] = {\n",
		cmdtab_src_count, cmdtab_src_count ? cmdtab_src_count : 1);
	for (size_t i = 0; i < cmdtab_src_count; i++) {
		const struct cmd_rule *r = &rows[i];
		fprintf(f,
			"\t{ %u, %u, %u, %u, %u, %u, %u, %d, "
			"UINT64_C(0x%llx) },\n",
			(unsigned)r->id, (unsigned)r->family, (unsigned)r->sub,
			(unsigned)r->flags, (unsigned)r->unless,
			(unsigned)r->args, (unsigned)r->reason, (int)r->tier,
			(unsigned long long)r->labels);
	}
	fputs("};\n", f);
	free(rows);
}

static void write_wrappers(FILE *f)
{
	struct pool p = { .max = UINT16_MAX, .what = "wrappers_table.c" };
	size_t n = wrappers_src_count;
	struct wrapper *rows = calloc(n ? n : 1, sizeof(*rows));

	if (!rows)
		die("out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct wrapper_src *w = &wrappers_src[i];
		rows[i] = (struct wrapper){
			.name = (uint16_t)pool_off(&p, w->name),
			.sub = (uint16_t)pool_off(&p, w->sub),
			.short_val = (uint16_t)pool_off(&p, w->short_val),
			.short_opt = (uint16_t)pool_off(&p, w->short_opt),
			.long_val = (uint16_t)pool_off(&p, w->long_val),
			.long_val2 = (uint16_t)pool_off(&p, w->long_val2),
			.payload_long = (uint16_t)pool_off(&p, w->payload_long),
			.chdir_long = (uint16_t)pool_off(&p, w->chdir_long),
			.cmd_opts = (uint16_t)pool_off(&p, w->cmd_opts),
			.prog_opts = (uint16_t)pool_off(&p, w->prog_opts),
			.long_flags = (uint16_t)pool_off(&p, w->long_flags),
			.rule = (uint16_t)pool_off(&p, w->rule),
			.reason = (uint16_t)pool_off(&p, w->reason),
		};
	}
	fputs("/* Generated by src/shell/indexgen.c from "
	      "src/shell/wrappers_table.c: do not edit. */\n#include "
	      "\"wrappers.h\"\n#include \"banned.h\"\n\n",
	      f);
	write_pool(f, &p, "wrappers_pool");
	fprintf(f,
		"const size_t wrappers_rows_count = %zu;\n\n"
		"const struct wrapper wrappers_rows[%zu] = {\n",
		n, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		const struct wrapper *r = &rows[i];
		const struct wrapper_src *w = &wrappers_src[i];
		fprintf(f,
			"\t{ %u, %u, %u, %u, %u, %u, %u, %u, %u, %u, %u, %u, "
			"%u, %d, %uu, %uu, %d, %d, %d, UINT64_C(0x%llx) },\n",
			(unsigned)r->name, (unsigned)r->sub,
			(unsigned)r->short_val, (unsigned)r->short_opt,
			(unsigned)r->long_val, (unsigned)r->long_val2,
			(unsigned)r->payload_long, (unsigned)r->chdir_long,
			(unsigned)r->cmd_opts, (unsigned)r->prog_opts,
			(unsigned)r->long_flags,
			(unsigned)r->rule, (unsigned)r->reason, (int)w->kind,
			w->flags, w->operands, (int)w->payload_short,
			(int)w->chdir_short, (int)w->tier,
			(unsigned long long)w->labels);
	}
	fputs("};\n", f);
	free(rows);
}

/* Both tables of codesinks_table.c, with one pool. */
static void write_codesinks(FILE *f)
{
	struct pool p = { .max = UINT16_MAX, .what = "codesinks_table.c" };
	size_t ns = codesinks_sink_src_count, nm = codesinks_mod_src_count;
	struct sink *sinks = calloc(ns ? ns : 1, sizeof(*sinks));
	struct modname *mods = calloc(nm ? nm : 1, sizeof(*mods));

	if (!sinks || !mods)
		die("out of memory");
	for (size_t i = 0; i < ns; i++) {
		const struct sink_src *k = &codesinks_sink_src[i];
		sinks[i] = (struct sink){
			.mod = (uint16_t)pool_off(&p, k->mod),
			.names = (uint16_t)pool_off(&p, k->names),
		};
	}
	for (size_t i = 0; i < nm; i++) {
		const struct modname_src *m = &codesinks_mod_src[i];
		mods[i] = (struct modname){
			.names = (uint16_t)pool_off(&p, m->names),
			.canon = (uint16_t)pool_off(&p, m->canon),
		};
	}
	fputs("/* Generated by src/shell/indexgen.c from "
	      "src/shell/codesinks_table.c: do not edit. */\n#include "
	      "\"codescan_int.h\"\n#include \"banned.h\"\n\n",
	      f);
	write_pool(f, &p, "codesinks_pool");
	fprintf(f,
		"const size_t codesinks_nsink = %zu;\n\n"
		"const struct sink codesinks_sink_tab[%zu] = {\n",
		ns, ns ? ns : 1);
	for (size_t i = 0; i < ns; i++) {
		const struct sink_src *k = &codesinks_sink_src[i];
		fprintf(f, "\t{ %u, %u, %u, %u, %u, %u },\n",
			(unsigned)k->langs, (unsigned)sinks[i].mod,
			(unsigned)sinks[i].names, (unsigned)k->kind,
			(unsigned)k->shape, (unsigned)k->hint);
	}
	fprintf(f,
		"};\n\nconst size_t codesinks_nmod = %zu;\n\n"
		"const struct modname codesinks_mod_tab[%zu] = {\n",
		nm, nm ? nm : 1);
	for (size_t i = 0; i < nm; i++)
		fprintf(f, "\t{ %u, %u, %u },\n",
			(unsigned)codesinks_mod_src[i].langs,
			(unsigned)mods[i].names, (unsigned)mods[i].canon);
	fputs("};\n", f);
	free(sinks);
	free(mods);
}

static void write_file(const char *path, void (*fn)(FILE *))
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s: cannot write", path);
	fn(f);
	if (fclose(f) != 0)
		die("%s: cannot write", path);
}

int main(int argc, char **argv)
{
	if (argc != 5)
		die("usage: indexgen NAMES_INDEX.c CMDTAB_RULES.c "
		    "WRAPPERS_ROWS.c CODESINKS_ROWS.c");
	collect();
	write_file(argv[1], write_index);
	write_file(argv[2], write_cmdtab);
	write_file(argv[3], write_wrappers);
	write_file(argv[4], write_codesinks);
	free(ents);
	free(fam_rules);
	return 0;
}
