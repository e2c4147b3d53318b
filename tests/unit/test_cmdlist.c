/* cmdlist: the classifier's list of every command a line runs (cmdlist.h):
 * which commands it holds, their words, how they are nested, where they
 * run, and the line-level facts its readers need. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmdlist.h"
#include "cordon.h"
#include "tap.h"

/* Every command as "w1 w2 [flags]" joined by " ; ". A word only known
 * when it runs is "?", a glob word ends in "*G". Flags: R started by
 * another command (a wrapper, a runner, a shell given -c), P payload, S substitution, ^N the parent's number (from 1), dN the payload
 * depth, @DIR the cwd when it is not the call's, >T a redirection
 * target. */
static const char *render(const struct cmdlist *l)
{
	static char buf[2048];
	size_t o = 0;

#define PUT(...)                                                               \
	do {                                                                   \
		int k_ = snprintf(buf + o, sizeof(buf) - o, __VA_ARGS__);      \
		if (k_ < 0 || (size_t)k_ >= sizeof(buf) - o)                   \
			return buf;                                            \
		o += (size_t)k_;                                               \
	} while (0)

	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		const struct cmd_run *c = &l->v[i];
		bool flags = c->from || c->parent || c->depth ||
			     strcmp(c->cwd, "/w") != 0 || c->nredir;

		if (i)
			PUT(" ; ");
		for (size_t j = 0; j < c->argc; j++) {
			const struct cmd_word *w = &c->w[j];
			if (w->known)
				PUT("%s%.*s%s", j ? " " : "", (int)w->n, w->s,
				    w->glob ? "*G" : "");
			else
				PUT("%s?", j ? " " : "");
		}
		if (!flags)
			continue;
		PUT(" [");
		if (c->from & CMD_FROM_RUNNER)
			PUT("R");
		if (c->from & CMD_FROM_PAYLOAD)
			PUT("P");
		if (c->from & CMD_FROM_SUBST)
			PUT("S");
		if (c->parent)
			PUT("^%zu", c->parent);
		if (c->depth)
			PUT("d%u", c->depth);
		if (strcmp(c->cwd, "/w") != 0)
			PUT("@%s", c->cwd);
		for (size_t j = 0; j < c->nredir; j++)
			PUT(">%.*s", (int)c->redir[j].n, c->redir[j].s);
		PUT("]");
	}
	return buf;
#undef PUT
}

int main(void)
{
	static const struct {
		const char *cmd, *want;
	} cases[] = {
		{ "git push origin main", "git push origin main" },
		{ "git status && git push", "git status ; git push" },
		{ "ls | wc -l", "ls ; wc -l" },
		{ "sudo git push", "sudo git push ; git push [R^1]" },
		{ "nice -n 5 timeout 9 npm test",
		  "nice -n 5 timeout 9 npm test ; timeout 9 npm test [R^1] ; "
		  "npm test [R^2]" },
		{ "sh -c 'git push origin main'",
		  "sh -c git push origin main ; git push origin main [RP^1d1]" },
		{ "yash -c 'git push'",
		  "yash -c git push ; git push [RP^1d1]" },
		{ "env sh -c 'rm x'",
		  "env sh -c rm x ; sh -c rm x [R^1] ; rm x [RP^2d1]" },
		{ "ls $(pwd)", "pwd [S] ; ls ?" },
		{ "cd /tmp && cat x", "cd /tmp ; cat x [@/tmp]" },
		{ "echo x | xargs rm", "echo x ; xargs rm ; rm x [R^2]" },
		{ "ls | xargs rm", "ls ; xargs rm ; rm ? [R^2]" },
		{ "{ ls; } > out", " [>out] ; ls" },
		{ "g?t push", "g?t*G push" },
		{ "x=git; $x push", "git push" },
		{ "$y push", "? push" },
	};
	struct cordon_classifier *c = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	struct cordon_context ctx = { "/w", "/w", "/home/u", "/tmp" };
	const struct cmdlist *l;

	tap_no_plan();
	if (!ok(c && v, "classifier and verdict"))
		return tap_done();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		cordon_classify(c, &ctx, cases[i].cmd, strlen(cases[i].cmd), v,
				NULL);
		l = cmdlist_of(v);
		is_str(render(l), cases[i].want, cases[i].cmd);
	}

	/* the line-level facts */
	const char *heredoc = "mksh <<'EOF'\ngit push\nEOF";
	cordon_classify(c, &ctx, heredoc, strlen(heredoc), v, NULL);
	l = cmdlist_of(v);
	ok(l->ntexts == 1 && l->texts[0].n == 9 &&
		   memcmp(l->texts[0].s, "git push\n", 9) == 0,
	   "a here-doc fed to a shell is a payload text");
	is_str(render(l), "mksh ; git push [RP^1d1]",
	       "and its command is in the list");
	cordon_classify(c, &ctx, "PATH=/x ls", 10, v, NULL);
	l = cmdlist_of(v);
	ok(l->nvars == 1 && l->vars[0].n == 4 &&
		   memcmp(l->vars[0].name, "PATH", 4) == 0,
	   "assigned variables are named");
	cordon_classify(c, &ctx, "[[ -f x ]] && ls <(id)", 22, v, NULL);
	l = cmdlist_of(v);
	ok(l->test && l->procsub && !l->subst, "test and process substitution");
	cordon_classify(c, &ctx, "ls `id`", 7, v, NULL);
	l = cmdlist_of(v);
	ok(l->subst && !l->procsub, "backticks are a substitution");
	cordon_classify(c, &ctx, "sh -c 'ls \"'", 12, v, NULL);
	l = cmdlist_of(v);
	ok(l->unparsed, "a payload that does not parse is said");
	ok(l->tree.root && l->tree.err == CORDON_OK, "the line itself parsed");
	cordon_classify(c, &ctx, "ls \"x", 5, v, NULL);
	l = cmdlist_of(v);
	ok(l->tree.err == CORDON_E_PARSE && l->n == 1,
	   "a line that does not parse: its error, the partial command");
	cordon_classify(c, &ctx, "ls ~/x", 6, v, NULL);
	l = cmdlist_of(v);
	ok(l->n == 1 && l->v[0].w[1].tilde && l->v[0].w[1].src,
	   "a ~ word says so and keeps its parsed word");
	cordon_classify(c, &ctx, "", 0, v, NULL);
	l = cmdlist_of(v);
	ok(l->n == 0 && !l->incomplete, "an empty line runs nothing");

	cordon_verdict_free(v);
	cordon_classifier_free(c);
	return tap_done();
}
