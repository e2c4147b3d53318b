/* brokerrelay: the broker relay of `cordon run` (src/policy/broker.h) —
 * the run's judge of what a door inside asks, the console's reading of the
 * "relay" member and the answer line (the door's side, broker_ask_relay,
 * is in test_broker.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "cordon.h"
#include "tap.h"

static const char good[] =
	"{\"v\":1,\"door\":\"hook\",\"tool\":\"Bash\",\"kind\":\"execute\","
	"\"args\":{\"command\":\"rm -rf build\"},\"command\":\"rm -rf build\","
	"\"path\":null,\"risk\":\"destructive\",\"labels\":[\"force\"],"
	"\"reason\":\"needs approval\",\"session\":\"s1\",\"exactOnly\":true,"
	"\"sandbox\":\"none\",\"timeoutMs\":600000}\n";

/* its classifier and verdict are set in main */
static struct broker_relay_run run = {
	.id = "0123456789abcdef0123456789abcdef",
	.command = "cordon run -- claude",
	.sandbox = "full",
	.max_timeout_ms = 120000,
};

/* good with "from" replaced by "to" (a static buffer). */
static const char *edit(const char *from, const char *to)
{
	static char out[4096];
	const char *at = strstr(good, from);
	size_t a = (size_t)(at - good), n = strlen(from);

	(void)snprintf(out, sizeof(out), "%.*s%s%s", (int)a, good, to,
		       good + a + n);
	return out;
}

static enum cordon_err judge(const char *msg, size_t len, char **out, char *why,
			     size_t cap)
{
	size_t n = 0;
	unsigned t = 0;

	return broker_relay_judge(msg, len, &run, out, &n, &t, why, cap);
}

static void judge_cases(void)
{
	struct broker_request q;
	char why[256], *out = NULL;
	size_t n = 0;
	unsigned t = 0;

	is_int(broker_relay_judge(good, strlen(good), &run, &out, &n, &t, why,
				  sizeof(why)),
	       CORDON_OK, "a door's request passes the judge");
	ok(out && n == strlen(out) && out[n - 1] == '\n' &&
		   !memchr(out, '\n', n - 1),
	   "it comes out as one line");
	is_int(broker_parse_request(out, n, &q, why, sizeof(why)), CORDON_OK,
	       "the console reads what the run forwards");
	ok(q.relay_run && strcmp(q.relay_run, run.id) == 0 && q.relay_command &&
		   strcmp(q.relay_command, "cordon run -- claude") == 0,
	   "marked as relayed by this run, with its command");
	ok(strcmp(q.sandbox, "full") == 0,
	   "the sandbox is the run's enforcement, not what the door claimed");
	ok(q.timeout_ms == 120000 && t == 120000,
	   "the deadline is cut to the run's approvals.timeout_s");
	ok(strcmp(q.session, "s1") == 0 && strcmp(q.door, "hook") == 0 &&
		   strcmp(q.command, "rm -rf build") == 0 && q.exact_only,
	   "the door's own members are kept");
	broker_request_free(&q);
	free(out);
	out = NULL;

	is_int(judge(edit("\"timeoutMs\":600000", "\"timeoutMs\":5000"),
		     strlen(good) - 2, &out, why, sizeof(why)),
	       CORDON_OK, "a shorter deadline");
	ok(out && strstr(out, "\"timeoutMs\":5000"), "is kept");
	free(out);
	out = NULL;

	static const struct {
		const char *from, *to, *want, *what;
		enum cordon_err rc;
	} bad[] = {
		{ "\"timeoutMs\":600000}",
		  "\"timeoutMs\":600000,\"relay\":{\"run\":"
		  "\"ffffffffffffffffffffffffffffffff\",\"command\":\"x\"}}",
		  "relay", "a door inside claiming another run's relay",
		  CORDON_E_INVAL },
		{ "\"door\":\"hook\"", "\"door\":\"console\"", "door",
		  "a door that is not one", CORDON_E_INVAL },
		{ "\"door\":\"hook\"", "\"door\":\"hook\",\"door\":\"mcp\"",
		  "door", "a member twice", CORDON_E_PARSE },
		{ "\"session\":\"s1\"", "\"session\":\"s1\",\"answer\":\"x\"",
		  "answer", "a member that is not one", CORDON_E_PARSE },
		{ "\"v\":1", "\"v\":2", "v", "another version",
		  CORDON_E_PARSE },
		{ "\"reason\":\"needs approval\"", "\"reason\":\"\xff\xfe\"",
		  "UTF-8", "bytes that are not UTF-8", CORDON_E_PARSE },
		{ "\"tool\":\"Bash\"", "\"tool\":\"Bash\\u202e\"", "tool",
		  "a tool with a bidi control (U+202E)", CORDON_E_INVAL },
		{ "\"tool\":\"Bash\"", "\"tool\":\"Bash (approved)\"", "tool",
		  "a tool with spaces and brackets", CORDON_E_INVAL },
		{ "\"tool\":\"Bash\"", "\"tool\":\"\"", "tool", "an empty tool",
		  CORDON_E_INVAL },
		{ "\"session\":\"s1\"", "\"session\":\"s1\\u2028ok\"",
		  "session", "a session with U+2028", CORDON_E_INVAL },
		{ "\"session\":\"s1\"", "\"session\":\"s1\\u0085\"", "session",
		  "a session with a C1 control (U+0085)", CORDON_E_INVAL },
		{ "\"reason\":\"needs approval\"",
		  "\"reason\":\"safe\\u202e\\u2066x\"", "reason",
		  "a reason with bidi controls", CORDON_E_INVAL },
		{ "\"reason\":\"needs approval\"",
		  "\"reason\":\"ok\\n\\u001b[2J\"", "reason",
		  "a reason with C0 controls (newline, ESC)", CORDON_E_INVAL },
		{ "\"reason\":\"needs approval\"", "\"reason\":\"ok\\u2029\"",
		  "reason", "a reason with U+2029", CORDON_E_INVAL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *m = edit(bad[i].from, bad[i].to);

		why[0] = '\0';
		enum cordon_err rc =
			judge(m, strlen(m), &out, why, sizeof(why));

		ok(rc == bad[i].rc, "refused: %s (%s)", bad[i].what,
		   cordon_strerror(rc));
		ok(!out && strstr(why, bad[i].want), "  nothing out, says %s",
		   why);
	}
	is_int(judge("", 0, &out, why, sizeof(why)), CORDON_E_PARSE,
	       "refused: empty");
	is_int(judge("{}", 2, &out, why, sizeof(why)), CORDON_E_PARSE,
	       "refused: an object without the members");
	is_int(judge("[1]\n", 4, &out, why, sizeof(why)), CORDON_E_PARSE,
	       "refused: not an object");
	{
		char *big = malloc(BROKER_RELAY_MAX + 2);

		memset(big, ' ', BROKER_RELAY_MAX + 1);
		memcpy(big, good, strlen(good) - 1);
		is_int(judge(big, BROKER_RELAY_MAX + 1, &out, why, sizeof(why)),
		       CORDON_E_LIMIT,
		       "refused: over BROKER_RELAY_MAX, before it is read");
		ok(strstr(why, "BROKER_RELAY_MAX") != NULL, "  says %s", why);
		is_int(judge(big, BROKER_RELAY_MAX, &out, why, sizeof(why)),
		       CORDON_OK, "at BROKER_RELAY_MAX it is read");
		free(out);
		out = NULL;
		free(big);
	}
}

/* The tier and labels of what the console gets for msg. */
static void judged(const char *msg, struct broker_request *q)
{
	char why[256], *out = NULL;

	memset(q, 0, sizeof(*q));
	if (judge(msg, strlen(msg), &out, why, sizeof(why)) != CORDON_OK ||
	    broker_parse_request(out, strlen(out), q, why, sizeof(why)) !=
		    CORDON_OK)
		ok(0, "judged: %s", why);
	free(out);
}

/* The run's own classification of cmd. */
static enum cordon_risk classified(const char *cmd, uint64_t *labels)
{
	struct cordon_diag d = { 0 };

	(void)cordon_classify(run.cls, NULL, cmd, strlen(cmd), run.verdict, &d);
	*labels = cordon_verdict_labels(run.verdict);
	return cordon_verdict_risk(run.verdict);
}

/* A door's claims of tier and labels are not the card's facts. */
static void claim_cases(void)
{
	struct broker_request q;
	char msg[4096], cmd[128];
	uint64_t want = 0;
	enum cordon_risk r;

	/* red team a7: rm -rf ~ after 50 newlines, claimed safe, no labels */
	memset(cmd, '\n', 50);
	strcpy(cmd + 50, "rm -rf ~");
	r = classified(cmd, &want);
	ok(r >= CORDON_RISK_DESTRUCTIVE && (want & CORDON_L(DELETE_RECURSIVE)),
	   "the classifier rates rm -rf ~ after 50 newlines %s",
	   cordon_risk_name(r));
	(void)snprintf(
		msg, sizeof(msg), "%s",
		edit("\"command\":\"rm -rf build\",\"path\":null,\"risk\":"
		     "\"destructive\",\"labels\":[\"force\"]",
		     "\"command\":\"\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n"
		     "\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n"
		     "\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n"
		     "\\n\\n\\n\\n\\n\\n\\n\\n\\n\\nrm -rf ~\",\"path\":null,"
		     "\"risk\":\"safe\",\"labels\":[]"));
	judged(msg, &q);
	ok(q.command && strcmp(q.command, cmd) == 0 && q.risk &&
		   strcmp(q.risk, cordon_risk_name(r)) == 0 && q.labels == want,
	   "  claimed safe with no labels: the card gets the run's %s and "
	   "its labels",
	   q.risk ? q.risk : "(none)");
	broker_request_free(&q);

	/* a claim above the classifier's raises it */
	(void)snprintf(msg, sizeof(msg), "%s",
		       edit("\"command\":\"rm -rf build\",\"path\"",
			    "\"command\":\"ls\",\"path\""));
	r = classified("ls", &want);
	judged(msg, &q);
	ok(r == CORDON_RISK_SAFE && q.risk &&
		   strcmp(q.risk, "destructive") == 0 &&
		   q.labels == (want | CORDON_L(FORCE)),
	   "ls claimed destructive [force]: destructive, force kept (a claim "
	   "raises, never lowers; ls: %s, card %s %llx want %llx)",
	   cordon_risk_name(r), q.risk ? q.risk : "-",
	   (unsigned long long)q.labels, (unsigned long long)want);
	broker_request_free(&q);

	/* no command: nothing to judge, the claim is dropped */
	(void)snprintf(
		msg, sizeof(msg), "%s",
		edit("\"command\":\"rm -rf build\",\"path\":null,"
		     "\"risk\":\"destructive\"",
		     "\"command\":null,\"path\":null,\"risk\":\"safe\""));
	judged(msg, &q);
	ok(!q.risk && q.labels == 0,
	   "no command, claimed safe [force]: no tier, no labels");
	broker_request_free(&q);

	/* a run without a classifier drops the claim too */
	{
		struct cordon_classifier *c = run.cls;

		run.cls = NULL;
		judged(good, &q);
		ok(!q.risk && q.labels == 0,
		   "no classifier: no tier, no labels");
		broker_request_free(&q);
		run.cls = c;
	}
}

/* The console's reading of "relay" (its own socket only). */
static void relay_member_cases(void)
{
	struct broker_request q;
	char why[256];
	static const char *const bad[] = {
		"{\"run\":\"0123\",\"command\":\"x\"}",
		"{\"run\":\"0123456789ABCDEF0123456789ABCDEF\",\"command\":"
		"\"x\"}",
		"{\"run\":\"0123456789abcdef0123456789abcdef\"}",
		"{\"run\":\"0123456789abcdef0123456789abcdef\",\"command\":"
		"\"x\",\"session\":\"s\"}",
		"{\"run\":\"0123456789abcdef0123456789abcdef\",\"command\":1}",
		"\"0123456789abcdef0123456789abcdef\"",
	};

	is_int(broker_parse_request(good, strlen(good), &q, why, sizeof(why)),
	       CORDON_OK, "a request without relay is read");
	ok(!q.relay_run && !q.relay_command, "  and is not relayed");
	broker_request_free(&q);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char with[128];
		const char *m;

		(void)snprintf(with, sizeof(with),
			       "\"timeoutMs\":600000,\"relay\":%s}", bad[i]);
		m = edit("\"timeoutMs\":600000}", with);
		ok(broker_parse_request(m, strlen(m), &q, why, sizeof(why)) ==
			   CORDON_E_PARSE,
		   "relay %s is refused", bad[i]);
	}
}

static void answer_line_cases(void)
{
	char buf[96];
	bool family = true;
	size_t n;

	n = broker_answer_line(CORDON_ANSWER_ALLOW_SESSION, true, buf,
			       sizeof(buf));
	ok(n && strcmp(buf, "{\"answer\":\"allow_session\",\"scope\":"
			    "\"prefix\"}\n") == 0,
	   "the answer line with a family");
	is_int(broker_parse_answer(buf, n - 1, &family),
	       CORDON_ANSWER_ALLOW_SESSION, "reads back");
	n = broker_answer_line(CORDON_ANSWER_TIMED_OUT, false, buf,
			       sizeof(buf));
	ok(n && strcmp(buf, "{\"answer\":\"timed_out\"}\n") == 0, "timed_out");
	is_int((int)broker_answer_line(-1, false, buf, sizeof(buf)), 0,
	       "not an answer: nothing");
	is_int((int)broker_answer_line(0, false, buf, 8), 0,
	       "too small a buffer: nothing");
}

int main(void)
{
	tap_no_plan();
	run.cls = cordon_classifier_new(NULL);
	run.verdict = cordon_verdict_new();
	if (!run.cls || !run.verdict) {
		ok(0, "out of memory");
		return tap_done();
	}
	judge_cases();
	claim_cases();
	relay_member_cases();
	answer_line_cases();
	cordon_verdict_free(run.verdict);
	cordon_classifier_free(run.cls);
	return tap_done();
}
