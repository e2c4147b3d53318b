/* Fuzz target: Codex execpolicy rules (import_codex.h).
 *
 * The input is a rules file. An import either fails with a terminated,
 * non-empty message and no output, or succeeds with a document that
 * loads as a cordon configuration (so every example the importer
 * accepted also holds for cordon's own check of command rules).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cordon.h"
#include "fuzz.h"
#include "import_codex.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cordon_diag d;
	char *out = NULL, *warn = NULL;
	enum cordon_err err = import_codex_rules((const char *)data, size,
						 &out, &warn, &d);

	if (err != CORDON_OK) {
		if (out || !memchr(d.message, '\0', sizeof(d.message)) ||
		    !d.message[0])
			abort();
	} else {
		struct cordon_config *cfg = cordon_config_new();
		struct cordon_diag ld;

		if (!out)
			abort();
		if (cfg && cordon_config_load_json(cfg, out, strlen(out),
						   "fuzz",
						   CORDON_CONFIG_EXPLICIT,
						   &ld) != CORDON_OK &&
		    ld.code != CORDON_E_NOMEM)
			abort();
		cordon_config_free(cfg);
	}
	free(out);
	free(warn);
	return 0;
}
