/* Fuzz target: load arbitrary bytes as a configuration file, as the user
 * file, then the project file, then a --config file, each on top of the
 * last. A failed load must change nothing (the configuration prints the
 * same, sources and warnings included) and leave a terminated, non-empty
 * message; a successful --config load must print a configuration that
 * loads back to the same print (the round trip `cordon config show` users
 * rely on). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cordon.h"
#include "fuzz.h"

#include "banned.h"

static void check_round_trip(const struct cordon_config *cfg)
{
	struct cordon_config *again = config_new();
	struct cordon_diag diag;
	char *a = config_to_json(cfg, false), *b;

	if (!again || !a)
		abort();
	if (config_apply_json(again, a, strlen(a), "round-trip", CONFIG_EXPLICIT,
			   &diag) != CORDON_OK)
		abort();
	b = config_to_json(again, false);
	if (!b || strcmp(a, b) != 0)
		abort();
	free(a);
	free(b);
	config_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum config_layer layers[] = { CONFIG_USER, CONFIG_PROJECT,
						 CONFIG_EXPLICIT };
	struct cordon_config *cfg = config_new();

	if (!cfg)
		abort();
	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++) {
		struct cordon_diag diag;
		char *before = config_to_json(cfg, true), *after;
		enum cordon_err rc;

		memset(&diag, 'x', sizeof(diag));
		rc = config_apply_json(cfg, (const char *)data, size, "fuzz.json",
				    layers[i], &diag);
		after = config_to_json(cfg, true);
		if (!before || !after ||
		    memchr(diag.message, '\0', sizeof(diag.message)) == NULL ||
		    diag.code != rc)
			abort();
		if (rc != CORDON_OK &&
		    (diag.message[0] == '\0' || strcmp(before, after) != 0))
			abort();
		free(before);
		free(after);
		if (rc == CORDON_OK && layers[i] == CONFIG_EXPLICIT)
			check_round_trip(cfg);
		(void)config_effective_mode(cfg);
		(void)config_tool_kind(cfg, "mcp__server__tool", NULL);
	}
	config_free(cfg);
	return 0;
}
