/* hooksbx — the hook's sandbox rewrite and its reading in `cordon run` (see
 * hooksbx.h for the shape and why it is base64).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "hooksbx.h"
#include "sha256.h"
#include "text.h"

#include "banned.h"

static bool append(char **dst, size_t *len, const char *s, size_t n)
{
	char *p;

	if (n > SIZE_MAX - *len - 1)
		return false;
	p = realloc(*dst, *len + n + 1);
	if (!p)
		return false;
	memcpy(p + *len, s, n);
	*len += n;
	p[*len] = '\0';
	*dst = p;
	return true;
}

bool hooksbx_quote(char **dst, size_t *len, const char *s)
{
	if (!append(dst, len, "'", 1))
		return false;
	for (const char *q; (q = strchr(s, '\'')); s = q + 1)
		if (!append(dst, len, s, (size_t)(q - s)) ||
		    !append(dst, len, "'\\''", 4))
			return false;
	return append(dst, len, s, strlen(s)) && append(dst, len, "'", 1);
}

/* " --NAME 'VALUE'" */
static bool add_opt(char **dst, size_t *len, const char *name,
		    const char *value)
{
	return append(dst, len, " --", 3) &&
	       append(dst, len, name, strlen(name)) &&
	       append(dst, len, " ", 1) && hooksbx_quote(dst, len, value);
}

char *hooksbx_command(const struct hooksbx_opts *o, const char *cmd, size_t len,
		      char *why, size_t why_cap)
{
	char hex[AUDIT_HASH_HEX + 1];
	char *b64 = NULL, *out = NULL;
	size_t n = 0;
	bool ok;

	if (memchr(cmd, '\0', len)) {
		snprintf(why, why_cap, "the command holds a NUL byte");
		return NULL;
	}
	if (len > HOOKSBX_MAX_COMMAND) {
		snprintf(why, why_cap,
			 "the command is %zu bytes, over the %d the sandbox "
			 "rewrite carries; write it to a script file in the "
			 "workspace and run that",
			 len, HOOKSBX_MAX_COMMAND);
		return NULL;
	}
	if (!o->bin || o->bin[0] != '/' || !o->workspace ||
	    o->workspace[0] != '/') {
		snprintf(why, why_cap,
			 "cordon's own path or the workspace is not absolute");
		return NULL;
	}
	sha256_hex(cmd, len, hex);
	b64 = text_b64_encode(cmd, len);
	if (!b64 || !hex[0])
		goto oom;
	ok = hooksbx_quote(&out, &n, o->bin) && append(&out, &n, " run", 4) &&
	     add_opt(&out, &n, "workspace", o->workspace);
	if (ok && o->config)
		ok = add_opt(&out, &n, "config", o->config);
	if (ok && o->audit_log)
		ok = add_opt(&out, &n, "audit-log", o->audit_log);
	if (ok && o->audit_log && o->audit_sync)
		ok = add_opt(&out, &n, "audit-sync", o->audit_sync);
	if (ok && o->strict)
		ok = append(&out, &n, " --mode strict", 14);
	ok = ok && append(&out, &n, " --command-b64 ", 15) &&
	     append(&out, &n, b64, strlen(b64)) &&
	     append(&out, &n, " --command-sha256 ", 18) &&
	     append(&out, &n, hex, strlen(hex));
	free(b64);
	if (ok)
		return out;
	free(out);
	b64 = NULL;
oom:
	free(b64);
	snprintf(why, why_cap, "out of memory");
	return NULL;
}

char *hooksbx_decode(const char *b64, const char *want_hex, char *why,
		     size_t why_cap)
{
	size_t n = strlen(b64), cap, got = 0;
	char hex[AUDIT_HASH_HEX + 1];
	unsigned char *out;

	if (!text_is_lower_hex(want_hex, strlen(want_hex), AUDIT_HASH_HEX)) {
		snprintf(why, why_cap,
			 "--command-sha256: expected %d lower-case hex "
			 "digits",
			 AUDIT_HASH_HEX);
		return NULL;
	}
	if (n > (HOOKSBX_MAX_COMMAND / 3 + 1) * 4) {
		snprintf(why, why_cap,
			 "--command-b64: over the limit of %d bytes decoded",
			 HOOKSBX_MAX_COMMAND);
		return NULL;
	}
	cap = n / 4 * 3 + 3;
	out = malloc(cap + 1);
	if (!out) {
		snprintf(why, why_cap, "out of memory");
		return NULL;
	}
	if (!text_b64_decode(b64, n, TEXT_B64_STRICT, out, cap, &got)) {
		snprintf(why, why_cap, "--command-b64: not strict base64");
		goto fail;
	}
	if (memchr(out, '\0', got)) {
		snprintf(why, why_cap, "--command-b64: a NUL byte");
		goto fail;
	}
	sha256_hex(out, got, hex);
	if (strcmp(hex, want_hex) != 0) {
		snprintf(why, why_cap,
			 "--command-b64: the command's SHA-256 is not "
			 "--command-sha256 (it is not the command that was "
			 "judged)");
		goto fail;
	}
	out[got] = '\0';
	return (char *)out;
fail:
	free(out);
	return NULL;
}
