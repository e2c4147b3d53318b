/* Fuzz target: redact arbitrary bytes and hold the scanner to its
 * promises. Fed whole, line by line, or in two pieces split after a
 * newline, the text gives the same output and count (only the PEM state
 * crosses a line end). The output redacted again is unchanged and
 * nothing is counted. And a known secret put into the text between blanks
 * never comes out: whatever the bytes around it start (a quote, a flag, a
 * PEM block, a URL), the secret goes, whole or as part of a larger value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cordon.h"
#include "fuzz.h"
#include "redact.h"

#include "banned.h"

/* Secrets of five formats (a webhook URL's secret path among them); the
 * part after the prefix must never appear in an output. */
static const char *const canary[] = {
	"ghp_Zq7Xw2Kp9Lm4Nv8Rt3Ys6Ub1Jc5Hd0Fg2Ae",
	"AKIAZQ7XW2KP9LM4NV8R",
	"sk-ant-api03-Zq7Xw2Kp9Lm4Nv8Rt3Ys6Ub1Jc5Hd0",
	"hvs.CAESIQq7Xw2Kp9Lm4Nv8Rt3Ys6Ub1Jc5Hd0Fg2",
	"https://hooks.slack.com/services/T0A1B2C3D/B0A1B2C3D/Yq7Xw2Kp9Lm4Nv8Rt3Ys6",
};
static const char *const body[] = {
	"Zq7Xw2Kp9Lm4Nv8Rt3Ys6Ub1Jc5Hd0Fg2Ae",
	"ZQ7XW2KP9LM4NV8R",
	"api03-Zq7Xw2Kp9Lm4Nv8Rt3Ys6Ub1Jc5Hd0",
	"CAESIQq7Xw2Kp9Lm4Nv8Rt3Ys6Ub1Jc5Hd0Fg2",
	"Yq7Xw2Kp9Lm4Nv8Rt3Ys6",
};

/* Feeds data split after each newline when every_line, else once after
 * the newline at or after cut. */
static char *pieces(const char *data, size_t size, int every_line, size_t cut,
		    size_t *count, size_t *len)
{
	struct redact_state st = { 0 };
	struct buf out = BUF_INIT(SIZE_MAX);
	size_t start = 0, i;

	*count = 0;
	for (i = every_line ? 0 : cut; i < size; i++) {
		if (data[i] != '\n')
			continue;
		if (redact_append(&st, data + start, i + 1 - start, &out,
				  count) != CORDON_OK)
			abort();
		start = i + 1;
		if (!every_line)
			break;
	}
	if (redact_append(&st, data + start, size - start, &out, count) !=
	    CORDON_OK)
		abort();
	*len = out.len;
	return out.p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char *whole, *p, *again, *with;
	size_t wc = 0, wl = 0, pc, pl, ac = 0, al = 0, k, cl, i, n, ol;
	const char *nl;

	if (cordon_redact(text, size, &whole, &wl, &wc) != CORDON_OK)
		abort();
	if (whole[wl] != '\0')
		abort();

	p = pieces(text, size, 1, 0, &pc, &pl);
	if (pl != wl || memcmp(p, whole, wl) != 0 || pc != wc)
		abort();
	free(p);
	p = pieces(text, size, 0, size / 2, &pc, &pl);
	if (pl != wl || memcmp(p, whole, wl) != 0 || pc != wc)
		abort();
	free(p);

	if (cordon_redact(whole, wl, &again, &al, &ac) != CORDON_OK)
		abort();
	if (al != wl || memcmp(again, whole, wl) != 0 || ac != 0)
		abort();
	free(again);
	free(whole);

	/* The canary goes in after the first newline (or at the start). */
	nl = memchr(text, '\n', size);
	k = nl ? (size_t)(nl - text) + 1 : 0;
	for (i = 0; i < sizeof(canary) / sizeof(canary[0]); i++) {
		if (memmem(text, size, body[i], strlen(body[i])))
			continue;
		cl = strlen(canary[i]);
		n = size + cl + 2;
		with = malloc(n);
		if (!with)
			abort();
		memcpy(with, text, k);
		with[k] = ' ';
		memcpy(with + k + 1, canary[i], cl);
		with[k + 1 + cl] = ' ';
		memcpy(with + k + cl + 2, text + k, size - k);
		if (cordon_redact(with, n, &p, &ol, NULL) != CORDON_OK)
			abort();
		if (memmem(p, ol, body[i], strlen(body[i])))
			abort();
		free(p);
		free(with);
	}
	return 0;
}
