/* Fuzz target: how `cordon run --command-b64 B64 --command-sha256 HEX`
 * reads the command a hook judged (hooksbx_decode, cli/hooksbx.c), and the
 * hook's writing of it (hooksbx_command).
 *
 * The input read as the two arguments, "HEX\nB64" (each a C string, as
 * argv gives them): a command that decodes has no NUL byte, hashes to
 * HEX, and encodes back to B64 exactly (strict base64 spells a byte
 * string one way only, so no second spelling passes). The input read as
 * a command: the B64 and HEX the rewrite carries decode back to it byte
 * for byte, and the same B64 with one character changed is refused. The
 * input read as --audit-sync's DEV:INO (audit_file_id_parse): an id that
 * parses is formatted back to the same text (one spelling only).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "fuzz.h"
#include "hooksbx.h"
#include "sha256.h"
#include "text.h"

#include "banned.h"

/* A copy of s[0..n) as a C string: cut at a NUL, as argv would be. */
static char *cstr(const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);
	size_t k = nul ? (size_t)(nul - s) : n;
	char *c = malloc(k + 1);

	if (!c)
		abort();
	memcpy(c, s, k);
	c[k] = '\0';
	return c;
}

/* The value after " --NAME " in the rewrite, up to the next blank. */
static char *opt_value(const char *cmd, const char *name)
{
	const char *p = strstr(cmd, name);

	if (!p)
		abort(); /* the rewrite always carries both */
	p += strlen(name);
	return cstr(p, strcspn(p, " "));
}

static void as_arguments(const char *s, size_t size)
{
	const char *nl = memchr(s, '\n', size);
	size_t hl = nl ? (size_t)(nl - s) : size;
	char *hex = cstr(s, hl);
	char *b64 = cstr(nl ? nl + 1 : s + size, nl ? size - hl - 1 : 0);
	char why[256], got_hex[AUDIT_HASH_HEX + 1];
	char *cmd;

	why[0] = '\0';
	cmd = hooksbx_decode(b64, hex, why, sizeof(why));
	if (cmd) {
		size_t n = strlen(cmd);
		char *again = text_b64_encode(cmd, n);
		sha256_hex(cmd, n, got_hex);
		if (strcmp(got_hex, hex) != 0)
			abort(); /* a command that is not the one judged */
		if (!again || strcmp(again, b64) != 0)
			abort(); /* a second spelling of the same bytes */
		free(again);
	} else if (!why[0]) {
		abort(); /* a refusal says why */
	}
	free(cmd);
	free(b64);
	free(hex);
}

static void as_command(const char *s, size_t size)
{
	static const struct hooksbx_opts o = { .bin = "/usr/bin/cordon",
					       .workspace = "/w" };
	static const char alpha[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
	char why[256];
	char *line = hooksbx_command(&o, s, size, why, sizeof(why));
	char *b64, *hex, *back;

	if (!line) {
		/* only a NUL or the length may refuse it */
		if (!memchr(s, '\0', size) && size <= HOOKSBX_MAX_COMMAND)
			abort();
		return;
	}
	b64 = opt_value(line, " --command-b64 ");
	hex = opt_value(line, " --command-sha256 ");
	back = hooksbx_decode(b64, hex, why, sizeof(why));
	if (!back || strlen(back) != size || memcmp(back, s, size) != 0)
		abort(); /* the judged bytes do not come back */
	free(back);
	if (b64[0]) {
		size_t i = size % strlen(b64);
		const char *at = strchr(alpha, b64[i]);
		b64[i] = alpha[(size_t)(at - alpha + 1) % (sizeof(alpha) - 1)];
		back = hooksbx_decode(b64, hex, why, sizeof(why));
		if (back)
			abort(); /* a changed command passes the digest */
	}
	free(b64);
	free(hex);
	free(line);
}

static void as_file_id(const char *s, size_t size)
{
	char *text = cstr(s, size);
	struct audit_file_id id;
	char back[48];

	if (audit_file_id_parse(text, &id) == 0 &&
	    (audit_file_id_format(&id, back, sizeof(back)) != 0 ||
	     strcmp(back, text) != 0))
		abort(); /* a second spelling of the same file */
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	as_arguments(s, size);
	as_command(s, size);
	as_file_id(s, size);
	return 0;
}
