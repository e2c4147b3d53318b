/* cmdtab — the classifier's knowledge of command families, as data.
 *
 * Each row says: when this command (after wrapper stripping and name
 * normalisation) is run with this subcommand and these flags or operands, it
 * has this tier and these labels, for this reason. Every matching row counts:
 * the command's tier is the highest, its labels the union, and each row's id
 * and reason are reported. A reader answers "what does cordon think of
 * `git clean -fdx`?" by finding one row.
 *
 * Families whose judgement needs paths or payloads (rm, dd, chmod, find,
 * shells, interpreters, redirections, wrappers, xargs …) live in classify.c;
 * this table is for what words and flags alone decide.
 */
#ifndef CORDON_CMDTAB_H
#define CORDON_CMDTAB_H

#include <stddef.h>
#include <stdint.h>

#include "cordon.h"

/* Matching, field by field (all string fields are NUL-terminated):
 *
 * family  command names separated by '|': "docker|podman". Compared exactly
 *         against the normalised name: basename of a path, quotes removed.
 *         A dotted name also matches its family: "mkfs" matches "mkfs.ext4"
 *         when no row names "mkfs.ext4" itself.
 * sub     NULL, or space-separated subcommand words; each word may list
 *         alternatives with '|': "s3 rm|rb". Compared case-insensitively with
 *         the operands (arguments that do not start with '-'). The first word
 *         must be one of the first three operands (so values of global
 *         options such as `aws --region us-east-1 s3 rm` are skipped), and
 *         before a "--" (`npm test -- --grep x` is not `npm x`); the
 *         following words must be the operands right after it.
 * flags   NULL, or space-separated flags, ANY of which must be present:
 *         "-f --force +". "-x" (dash + one char) matches the short flag x
 *         also inside clusters ("-fdx"); "--long" matches "--long" and
 *         "--long=…"; a single-dash word "-auto-approve" matches that exact
 *         argument or "-auto-approve=…". Case-sensitive. Flags are looked for
 *         in every argument, before or after the operands, up to a "--".
 * unless  NULL, or flags in the same syntax, NONE of which may be present
 *         (e.g. "-n --dry-run" for git clean).
 * args    NULL, or space-separated fnmatch(3) globs; ANY operand after the
 *         subcommand words must match one: "+* :*". Case-sensitive.
 */
struct cmdtab_src {
	const char *id;     /* stable: "git.push.force" */
	const char *family;
	const char *sub;
	const char *flags;
	const char *unless;
	const char *args;
	enum cordon_risk tier;
	uint64_t labels;    /* CORDON_L(NAME) | … */
	const char *reason; /* one sentence for people: "force-push rewrites remote history" */
};

/* The rows as cmdtab.c writes them. Only the build's indexgen and
 * test_cmdtab link cmdtab.c: its pointers would be relocated by the loader
 * in every process, page by page. */
extern const struct cmdtab_src cmdtab_src[];
extern const size_t cmdtab_src_count;

/* The same rows as the library reads them, written by indexgen into
 * names_index's neighbour cmdtab_rules.c (build directory): each string
 * field is an offset into cmdtab_pool, 0 for NULL, so the table is plain
 * read-only data. Read a field with cmdtab_str(r->sub). */
struct cmd_rule {
	uint32_t id, family, sub, flags, unless, args, reason;
	enum cordon_risk tier;
	uint64_t labels;
};

extern const struct cmd_rule cmdtab_rules[];
extern const size_t cmdtab_rules_count;
extern const char cmdtab_pool[];
extern const size_t cmdtab_pool_size;

/* A string field of a row of cmdtab_rules: NULL when the row has none. */
static inline const char *cmdtab_str(uint32_t off)
{
	return off ? cmdtab_pool + off : NULL;
}

#endif
