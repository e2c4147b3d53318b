/* The wrapper table (src/shell/wrappers_table.c, linked here; the library
 * reads indexgen's wrappers_rows, held to it row for row): its lookups,
 * the option scan, and a walk over every row: for every option a wrapper
 * is documented to take a value with, in every spelling (-X VALUE,
 * -XVALUE, --opt VALUE, --opt=VALUE, and the two values of bwrap's
 * --bind), the command after it must still be judged, so "WRAPPER OPT
 * VALUE rm -rf ~" is blocked. */
#include <stdio.h>
#include <string.h>

#include "cordon.h"
#include "pooltest.h"
#include "tap.h"
#include "wrappers.h"

static struct cordon_classifier *cls;
static struct cordon_verdict *v;

static const struct cordon_context ctx = { "/home/user/project",
					   "/home/user/project", "/home/user",
					   "/tmp" };

static bool get_word(const void *c, size_t i, const char **s, size_t *n)
{
	const char *const *a = c;

	if (!a[i])
		return false; /* NULL stands for a word known only at run time */
	*s = a[i];
	*n = strlen(a[i]);
	return true;
}

static struct wrapper_scan scan(const char *name, const char *const *argv,
				size_t argc)
{
	struct wrapper_scan sc;
	const struct wrapper *w =
		wrappers_find(name, strlen(name), argc > 1 ? argv[1] : NULL,
			      argc > 1 && argv[1] ? strlen(argv[1]) : 0);

	memset(&sc, 0xff, sizeof(sc));
	if (w)
		wrappers_scan(w, argc, get_word, argv, &sc);
	return sc;
}

static void lookups(void)
{
	static const char *const shells[] = { "sh",   "bash", "dash",  "mksh",
					      "yash", "posh", "ash",   "oksh",
					      "zsh",  "fish", "rbash", NULL };

	ok(wrappers_table_sorted(), "the table is sorted, names unique");
	ok(wrappers_interp_firsts_cover(),
	   "the interpreters' first letters are all in the quick filter");
	ok(wrappers_find_interp("tclsh8.6", 8) && wrappers_find_interp("R", 1) &&
	   wrappers_find_interp("jrunscript", 10) && !wrappers_find_interp("git", 3),
	   "the filter keeps the interpreters and turns away others");
	for (const char *const *p = shells; *p; p++) {
		const char *s = *p;
		ok(wrappers_is_shell(s, strlen(s)), "%s is a shell", s);
		ok(wrappers_opens_code(s, strlen(s)), "%s opens code", s);
	}
	ok(!wrappers_is_shell("pwsh", 4) && wrappers_is_any_shell("pwsh", 4),
	   "pwsh is a shell, not of the sh family");
	ok(!wrappers_is_shell("shx", 3) && !wrappers_is_shell("s", 1),
	   "no prefix or extension of a shell is one");
	ok(wrappers_opens_code("eatmydata", 9), "eatmydata opens code");
	ok(wrappers_opens_code("python3.11", 10), "python3.11 opens code");
	ok(wrappers_opens_code("eval", 4), "eval opens code");
	ok(wrappers_opens_code("", 0), "the empty name opens code");
	ok(!wrappers_opens_code("npm", 3),
	   "npm does not (only npm exec is a wrapper)");
	ok(!wrappers_opens_code("stat", 4), "stat names programs, runs none");
	ok(!wrappers_opens_code("git", 3), "git is no wrapper");
	ok(wrappers_find("npm", 3, "exec", 4) &&
		   !wrappers_find("npm", 3, "ci", 2),
	   "npm is a wrapper only with exec");
	const struct wrapper *w = wrappers_find("timeout", 7, NULL, 0);
	ok(w && (w->flags & WF_CLAUDE), "Claude Code strips timeout");
	w = wrappers_find("sudo", 4, NULL, 0);
	ok(w && !(w->flags & WF_CLAUDE), "but not sudo");
	char alt[512];
	ok(wrappers_shell_alternation(alt, sizeof(alt)) > 0 &&
		   strstr(alt, "|yash|") && strncmp(alt, "sh", 2) != 0,
	   "the shell alternation names yash, longest names first");
	ok(wrappers_shell_alternation(alt, 8) == 0,
	   "a buffer too small gives 0");
}

static void scans(void)
{
	const char *chrt[] = { "chrt",	  "-d", "-T",	   "1000000", "-P",
			       "2000000", "-D", "2000000", "0",	      "rm" };
	struct wrapper_scan sc = scan("chrt", chrt, 10);
	is_int((long long)sc.cmd, 9,
	       "chrt -T -P -D take values; PRIO, then rm");

	const char *env[] = { "env", "-iS", "rm -rf ~" };
	sc = scan("env", env, 3);
	ok(sc.payload == 2 && sc.payload_off == 0 && sc.cmd == 3,
	   "env -iS: the next word is a command line");
	const char *env2[] = { "env", "--split-string=rm -rf ~" };
	sc = scan("env", env2, 2);
	ok(sc.payload == 1 && sc.payload_off == 15,
	   "env --split-string=...: the rest of the word");
	const char *envs[] = { "env", "-u", "X", "A=1", "B=2", "rm" };
	sc = scan("env", envs, 6);
	ok(sc.opt_end == 3 && sc.assigns == 3 && sc.cmd == 5,
	   "env: options, NAME=value words, then the command");
	const char *sa[] = { "setarch", "x86_64", "-R", "rm" };
	sc = scan("setarch", sa, 4);
	is_int((long long)sc.cmd, 3, "setarch: the architecture, then options");
	const char *to[] = { "timeout", NULL, "rm" };
	sc = scan("timeout", to, 3);
	ok(sc.dynamic && sc.cmd == 2,
	   "a duration known only at run time is still the operand");
	const char *ns[] = { "nsenter", "-t", "1", "-m", "-rX", "rm" };
	sc = scan("nsenter", ns, 6);
	is_int((long long)sc.cmd, 5, "nsenter -m and -rDIR: optional values");
	const char *bw[] = { "bwrap", "--ro-bind", "/", "/", "--", "rm" };
	sc = scan("bwrap", bw, 6);
	is_int((long long)sc.cmd, 5, "bwrap --ro-bind takes two values");
	const char *ab[] = { "timeout", "--sig", "KILL", "5", "rm" };
	sc = scan("timeout", ab, 5);
	is_int((long long)sc.cmd, 4, "--sig is --signal (a unique prefix)");
	const char *nice[] = { "nice", "-5", "rm" };
	sc = scan("nice", nice, 3);
	is_int((long long)sc.cmd, 2, "nice -5");
}

/* Classifies words[0..n) joined by spaces; true when blocked. */
static bool blocked(const char *const *words, size_t n, char *line, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		int k = snprintf(line + o, cap - o, "%s%s", i ? " " : "",
				 words[i]);
		if (k < 0 || (size_t)k >= cap - o)
			return false;
		o += (size_t)k;
	}
	if (cordon_classify(cls, &ctx, line, o, v, NULL) != CORDON_OK)
		return false;
	return cordon_verdict_risk(v) == CORDON_RISK_BLOCKED;
}

/* The first word of list (" -x --exec "), in buf. */
static const char *first_word(const char *list, char *buf, size_t cap)
{
	size_t k = strcspn(list + 1, " ");

	if (k >= cap)
		k = cap - 1;
	memcpy(buf, list + 1, k);
	buf[k] = '\0';
	return buf;
}

/* NAME [SUB] [OPERANDS-FIRST] OPTWORDS [OPERANDS] rm -rf ~; a row that
 * runs only a command an option names gets it: OPTWORDS --exec rm --
 * [OPERANDS] -rf ~, or OPTWORDS [OPERANDS] --args rm -rf ~. */
static void check_one(const struct wrapper_src *w, const char *const *opt,
		      size_t nopt, unsigned *count)
{
	const char *words[16];
	size_t n = 0;
	char line[512], sub[32] = "", prog[32], cmd[32];

	words[n++] = w->name;
	if (w->sub) {
		/* the first of the subcommands " exec x " */
		size_t k = strcspn(w->sub + 1, " ");
		if (k >= sizeof(sub))
			k = sizeof(sub) - 1;
		memcpy(sub, w->sub + 1, k);
		sub[k] = '\0';
		words[n++] = sub;
	}
	if (w->flags & WF_OPERANDS_FIRST)
		for (unsigned k = 0; k < w->operands; k++)
			words[n++] = "x86_64";
	for (size_t k = 0; k < nopt; k++)
		words[n++] = opt[k];
	if (w->prog_opts) {
		/* --exec rm -- OPERANDS -rf ~ */
		words[n++] = first_word(w->prog_opts, prog, sizeof(prog));
		words[n++] = "rm";
		words[n++] = "--";
	}
	if (!(w->flags & WF_OPERANDS_FIRST))
		for (unsigned k = 0; k < w->operands; k++)
			words[n++] = "5";
	if (w->cmd_opts)
		words[n++] = first_word(w->cmd_opts, cmd, sizeof(cmd));
	if (!w->prog_opts)
		words[n++] = "rm";
	words[n++] = "-rf";
	words[n++] = "~";
	ok(blocked(words, n, line, sizeof(line)), "%s", line);
	(*count)++;
}

static void walk_table(void)
{
	unsigned count = 0;

	for (size_t i = 0; i < wrappers_src_count; i++) {
		const struct wrapper_src *w = &wrappers_src[i];
		char o1[8], o2[64], o3[96];

		if (w->kind != WRAPPER_RUNS)
			continue;
		check_one(w, NULL, 0, &count);
		for (const char *c = w->short_val; c && *c; c++) {
			snprintf(o1, sizeof(o1), "-%c", *c);
			check_one(w, (const char *[]){ o1, "1" }, 2, &count);
			snprintf(o2, sizeof(o2), "-%c1", *c);
			check_one(w, (const char *[]){ o2 }, 1, &count);
		}
		for (const char *c = w->short_opt; c && *c; c++) {
			snprintf(o1, sizeof(o1), "-%c", *c);
			check_one(w, (const char *[]){ o1 }, 1, &count);
			snprintf(o2, sizeof(o2), "-%cx", *c);
			check_one(w, (const char *[]){ o2 }, 1, &count);
		}
		for (int two = 0; two < 2; two++) {
			const char *list = two ? w->long_val2 : w->long_val;
			for (const char *p = list; p && *p;) {
				size_t k;
				while (*p == ' ')
					p++;
				k = strcspn(p, " ");
				if (!k || k >= sizeof(o2) - 4)
					break;
				snprintf(o2, sizeof(o2), "%.*s", (int)k, p);
				if (two) {
					check_one(w,
						  (const char *[]){ o2, "/a",
								    "/b" },
						  3, &count);
				} else {
					check_one(w,
						  (const char *[]){ o2, "1" },
						  2, &count);
					snprintf(o3, sizeof(o3), "%.*s=1",
						 (int)k, p);
					check_one(w, (const char *[]){ o3 }, 1,
						  &count);
				}
				p += k;
			}
		}
		if (w->payload_short) {
			snprintf(o1, sizeof(o1), "-%c", w->payload_short);
			const char *words[] = { w->name, o1, "'rm -rf ~'" };
			char line[128];
			ok(blocked(words, 3, line, sizeof(line)), "%s", line);
		}
	}
	ok(count > 500, "the walk built %u commands", count);
}

/* The library's wrappers_rows, which indexgen writes, say what
 * wrappers_table.c says, row for row (this test links that file, the
 * library does not). */
static void packed_rows(void)
{
	size_t n;
	const struct wrapper *t = wrappers_table(&n);
	size_t bad = 0, off = 0;

	is_int((long long)n, (long long)wrappers_src_count,
	       "wrappers_rows has wrappers_table.c's rows");
	ok(pool_framed(wrappers_pool, wrappers_pool_size) && !wrappers_str(0),
	   "the pool starts and ends with a NUL; offset 0 is NULL");
	for (size_t i = 0; i < n && i < wrappers_src_count; i++) {
		const struct wrapper *r = &t[i];
		const struct wrapper_src *w = &wrappers_src[i];
#define SAME(f)                                                                \
	pool_same(pool_at(wrappers_pool, wrappers_pool_size, r->f, &off), w->f)
		bool same_row =
			SAME(name) && SAME(sub) && SAME(short_val) &&
			SAME(short_opt) && SAME(long_val) && SAME(long_val2) &&
			SAME(payload_long) && SAME(chdir_long) && SAME(rule) &&
			SAME(reason) && r->kind == w->kind &&
			r->flags == w->flags && r->operands == w->operands &&
			r->payload_short == w->payload_short &&
			r->chdir_short == w->chdir_short &&
			r->tier == w->tier && r->labels == w->labels;
#undef SAME
		if (!same_row) {
			diag("row %zu %s differs", i, w->name);
			bad++;
		}
	}
	is_int((long long)off, 0, "every offset is a string of the pool");
	is_int((long long)bad, 0,
	       "every row of wrappers_rows says what wrappers_table.c says");
}

int main(void)
{
	tap_no_plan();
	cls = cordon_classifier_new(NULL);
	v = cordon_verdict_new();
	if (!cls || !v) {
		ok(0, "classifier");
		return tap_done();
	}
	packed_rows();
	lookups();
	scans();
	walk_table();
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return tap_done();
}
