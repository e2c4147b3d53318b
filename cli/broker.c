/* broker — how a door hands its ASKs to the running console when
 * approvals.broker is on (the protocol is src/policy/broker.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "broker.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "policy.h"

#include "banned.h"

static void broker_prompt(void *ud, const struct cordon_result *asked,
			  struct cordon_reply *reply)
{
	struct cli_broker *b = ud;
	struct broker_ask a = {
		.door = b->door,
		.asked = asked,
		.sandbox = b->sandbox,
		.timeout_ms = b->timeout_s * 1000u,
	};

	bool family = false;

	reply->answer = broker_ask(b->path, &a, &family, b->why,
				   sizeof(b->why));
	if (family)
		reply->amend_prefix = cordon_result_family(asked,
							   &reply->amend_len);
	reply->by = reply->answer == POLICY_ANSWER_NOBODY ? b->why : "console";
}

int cli_broker_attach(struct cli_broker *b, struct cordon_policy *pol,
		      const struct cordon_config *cfg, const char *door,
		      const char *sandbox)
{
	memset(b, 0, sizeof(*b));
	if (!cfg->approvals_broker)
		return 0;
	b->door = door;
	b->sandbox = sandbox;
	b->timeout_s = cfg->approvals_timeout_s;
	if (broker_path(BROKER_SOCKET_NAME, b->path, sizeof(b->path)) != 0)
		b->path[0] = '\0'; /* broker_ask: no console */
	cordon_policy_set_prompt(pol, broker_prompt, b);
	return 1;
}
