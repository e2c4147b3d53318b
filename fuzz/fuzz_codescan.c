/* Fuzz target: the interpreter-code and SQL scanners. The first byte picks
 * the language; the rest is scanned as that language's code and as SQL.
 * Checks the promises of codescan.h on every input: only defined flags,
 * the same answer twice, and every command handed back is non-empty, no
 * longer than the arena could hold, and readable to its last byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codescan.h"
#include "fuzz.h"

#include "banned.h"

struct seen {
	size_t limit;
	unsigned calls;
	unsigned sum;
};

static void on_cmd(void *ud, const char *cmd, size_t n)
{
	struct seen *s = ud;

	if (!cmd || n == 0 || n > s->limit)
		abort();
	/* Touch every byte so a dangling pointer shows under ASan. */
	for (size_t i = 0; i < n; i++)
		s->sum += (unsigned char)cmd[i];
	s->calls++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen a = { 0 }, b = { 0 };
	enum code_lang lang;
	const char *code;
	size_t n;
	unsigned f1, f2, q;

	if (size == 0)
		return 0;
	lang = (enum code_lang)(data[0] % (CODE_SHAPE_CI + 1));
	code = (const char *)data + 1;
	n = size - 1;
	a.limit = b.limit = 8 * n + 4096;

	f1 = codescan_scan(lang, code, n, on_cmd, &a);
	f2 = codescan_scan(lang, code, n, on_cmd, &b);
	if (f1 != f2 || a.calls != b.calls || a.sum != b.sum)
		abort();
	if (f1 & ~CODE_F_ALL)
		abort();

	q = sql_scan(code, n);
	if (q != sql_scan(code, n))
		abort();
	if (q & ~((SQL_F_EXEC << 1) - 1))
		abort();
	return 0;
}
