/* error — error strings, the default limits, and the names of risk tiers and
 * labels. Every table here is generated from the X-macro maps in cordon.h, so
 * the enum and its names cannot drift apart.
 */
#include <string.h>

#include "cordon.h"

#include "banned.h"

const char *cordon_strerror(enum cordon_err err)
{
	switch (err) {
#define CORDON_ERR_STR(name, val, msg)                                         \
	case CORDON_##name:                                                    \
		return msg;
		CORDON_ERR_MAP(CORDON_ERR_STR)
#undef CORDON_ERR_STR
	}
	return "unknown error";
}

/* The defaults. A command line of 1 MiB is far beyond anything an agent
 * sends (ARG_MAX for one argument is 128 KiB on Linux); the token, nesting
 * and here-doc ceilings keep one pathological line from costing more than a
 * few milliseconds; a payload depth of 4 follows the seeds. */
void cordon_limits_default(struct cordon_limits *lim)
{
	if (!lim)
		return;
	lim->max_input_bytes = 1024 * 1024;
	lim->max_tokens = 100000;
	lim->max_nesting = 200;
	lim->max_heredocs = 64;
	lim->max_payload_depth = 4;
	lim->max_rules = 1000;
	lim->max_rules_bytes = 1024 * 1024;
	lim->max_batch_line = 1024 * 1024;
}

const char *cordon_risk_name(enum cordon_risk risk)
{
	switch (risk) {
	case CORDON_RISK_SAFE:
		return "safe";
	case CORDON_RISK_CAUTION:
		return "caution";
	case CORDON_RISK_DESTRUCTIVE:
		return "destructive";
	case CORDON_RISK_BLOCKED:
		return "blocked";
	}
	return "unknown";
}

static const char *const label_names[CORDON_LABEL_COUNT] = {
#define CORDON_LABEL_STR(name, str) [CORDON_LABEL_BIT_##name] = str,
	CORDON_LABEL_MAP(CORDON_LABEL_STR)
#undef CORDON_LABEL_STR
};

const char *cordon_label_name(unsigned bit)
{
	if (bit >= CORDON_LABEL_COUNT)
		return NULL;
	return label_names[bit];
}

int cordon_label_from_name(const char *name, size_t len)
{
	if (!name)
		return -1;
	for (unsigned i = 0; i < CORDON_LABEL_COUNT; i++) {
		const char *s = label_names[i];

		if (strlen(s) == len && memcmp(s, name, len) == 0)
			return (int)i;
	}
	return -1;
}

static const char *const decision_names[] = {"allow", "deny", "ask"};
static const char *const mode_names[] = {"supervised", "auto-accept-edits",
					 "auto", "full-access"};
static const char *const kind_names[] = {"read", "write", "delete", "execute",
					 "fetch", "mcp", "other"};

#define NAMES_N(a) (sizeof(a) / sizeof(*(a)))

static int name_index(const char *const *names, size_t n, const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

const char *cordon_decision_name(enum cordon_decision d)
{
	return (unsigned)d < NAMES_N(decision_names) ? decision_names[d]
						     : "unknown";
}

const char *cordon_mode_name(enum cordon_mode m)
{
	return (unsigned)m < NAMES_N(mode_names) ? mode_names[m] : "unknown";
}

int cordon_mode_from_name(const char *name)
{
	return name_index(mode_names, NAMES_N(mode_names), name);
}

const char *cordon_kind_name(enum cordon_kind k)
{
	return (unsigned)k < NAMES_N(kind_names) ? kind_names[k] : "unknown";
}

int cordon_kind_from_name(const char *name)
{
	return name_index(kind_names, NAMES_N(kind_names), name);
}
