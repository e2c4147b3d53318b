/* Fuzz target: the approvals code's two readers of untrusted bytes
 * (src/policy/approvals.c).
 *
 * The input as a shell command: the family approvals_family() proposes is
 * at most APPROVALS_FAMILY_MAX_WORDS words, a prefix of every segment,
 * accepted by approvals_amendment_refusal(), and a session grant for it
 * covers the command itself but never the same command judged
 * destructive, nor one with a label it did not have. The input as an
 * approvals file: opening it never fails but for memory, an unusable file
 * is corrupt, and every rule read is well formed (a prefix rule has words,
 * only a prefix rule is bounded by labels).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "approvals.h"
#include "arena.h"
#include "cmdwords.h"
#include "fuzz.h"

#include "banned.h"

static struct arena A;
static char path[64];

static void as_command(const char *s, size_t size)
{
	struct approvals_store st;
	struct approvals_query q = { 0 };
	struct cmdwords cw;
	struct strlist f;
	const char *why;
	char *cmd = malloc(size + 1), note[512];

	if (!cmd)
		abort();
	memcpy(cmd, s, size);
	cmd[size] = '\0';
	arena_reset(&A);
	q.session = "s";
	q.tool = "Bash";
	q.kind = CORDON_KIND_EXECUTE;
	q.command = cmd;
	q.words = cmdwords_split(&A, NULL, s, size, &cw) ? &cw : NULL;
	if (approvals_family(&q, &f, &why) != CORDON_OK || (!f.n && !why) ||
	    (f.n && why)) {
		free(cmd);
		abort();
	}
	if (!f.n || !cmd[0] || memchr(s, '\0', size)) {
		strlist_clear(&f);
		free(cmd);
		return;
	}
	if (f.n > APPROVALS_FAMILY_MAX_WORDS ||
	    approvals_amendment_refusal(&f, &q))
		abort();
	for (size_t i = 0; i < q.words->nseg; i++)
		if (!cmdwords_seg_has_prefix(&q.words->seg[i], &f))
			abort(); /* wider than a segment of the line */
	if (approvals_open(&st, NULL) != CORDON_OK)
		abort();
	if (approvals_record(&st, &q, CORDON_ANSWER_ALLOW_SESSION, &f, note,
			     sizeof(note)) == CORDON_OK) {
		if (approvals_lookup(&st, &q, NULL) != CORDON_ALLOW)
			abort(); /* the grant does not cover its own command */
		q.exact_only = true;
		if (approvals_lookup(&st, &q, NULL) != -1)
			abort(); /* a destructive command through a prefix */
		q.exact_only = false;
		q.labels = CORDON_L(PERSISTENCE);
		if (approvals_lookup(&st, &q, NULL) != -1)
			abort(); /* a label the grant did not have */
	}
	approvals_close(&st);
	strlist_clear(&f);
	free(cmd);
}

static void as_file(const char *s, size_t size)
{
	struct approvals_store st;
	FILE *fp = fopen(path, "wb");
	enum cordon_err e;

	if (!fp || fwrite(s, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	e = approvals_open(&st, path);
	if (e != CORDON_OK && e != CORDON_E_NOMEM && e != CORDON_E_IO)
		abort();
	if (st.unusable && !st.corrupt)
		abort();
	for (size_t i = 0; i < st.nrules; i++) {
		const struct approvals_rule *r = &st.rules[i];
		if (!r->tool || (r->match == APPROVALS_PREFIX && !r->prefix.n) ||
		    (r->bounded && r->match != APPROVALS_PREFIX))
			abort();
		if (st.corrupt && r->decision != CORDON_DENY)
			abort(); /* a corrupt file's allow rules are not used */
	}
	approvals_close(&st);
}

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0]) {
		int fd;
		arena_init(&A, 16u << 20);
		snprintf(path, sizeof(path), "/tmp/cordon-fuzz-appr-XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		atexit(remove_file);
	}
	as_command((const char *)data, size);
	as_file((const char *)data, size);
	return 0;
}
