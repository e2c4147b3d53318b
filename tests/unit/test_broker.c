/* broker: the door's side of cordon console (src/policy/broker.c) — the
 * request line it sends, the console's reading of it, the answer line,
 * broker_ask() against a fake console on a real unix socket,
 * broker_ask_relay() (a door inside `cordon run`) against a fake run on a
 * SEQPACKET socketpair, and cordon_policy_decide() denying
 * POLICY_ANSWER_NOBODY at no_prompt.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/un.h>

#include "broker.h"
#include "cordon.h"
#include "policy.h"
#include "tap.h"
#include "unixmsg.h"

static const char good[] =
	"{\"v\":1,\"door\":\"mcp\",\"tool\":\"Bash\",\"kind\":\"execute\","
	"\"args\":{\"command\":\"rm -rf build\"},\"command\":\"rm -rf build\","
	"\"path\":null,\"risk\":\"destructive\",\"labels\":[\"force\","
	"\"delete-recursive\"],\"reason\":\"needs approval\",\"session\":\"s1\","
	"\"exactOnly\":true,\"sandbox\":\"full\",\"timeoutMs\":1000}\n";

/* The members of good, in order. */
static const char *const parts[][2] = {
	{ "v", "1" },
	{ "door", "\"mcp\"" },
	{ "tool", "\"Bash\"" },
	{ "kind", "\"execute\"" },
	{ "args", "{\"command\":\"rm -rf build\"}" },
	{ "command", "\"rm -rf build\"" },
	{ "path", "null" },
	{ "risk", "\"destructive\"" },
	{ "labels", "[\"force\",\"delete-recursive\"]" },
	{ "reason", "\"needs approval\"" },
	{ "session", "\"s1\"" },
	{ "exactOnly", "true" },
	{ "sandbox", "\"full\"" },
	{ "timeoutMs", "1000" },
};

/* good with member `name` given the value `with` ("": left out). */
static char *edited(const char *name, const char *with)
{
	static char out[2048];
	size_t o = 0;

	out[o++] = '{';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *v = strcmp(parts[i][0], name) ? parts[i][1] : with;
		if (!v[0])
			continue;
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s\"%s\":%s",
				      o > 1 ? "," : "", parts[i][0], v);
	}
	(void)snprintf(out + o, sizeof(out) - o, "}\n");
	return out;
}

static void parse_cases(void)
{
	struct broker_request r;
	char why[256];
	static const char *const members[] = {
		"v",	   "door",	"tool",	   "kind",	"args",
		"command", "path",	"risk",	   "labels",	"reason",
		"session", "exactOnly", "sandbox", "timeoutMs",
	};

	is_int(broker_parse_request(good, strlen(good), &r, why, sizeof(why)),
	       CORDON_OK, "a door's request parses");
	is_str(r.tool, "Bash", "tool");
	is_str(r.command, "rm -rf build", "command");
	ok(r.path == NULL, "path null");
	is_str(r.risk, "destructive", "risk");
	ok(r.labels == (CORDON_L(FORCE) | CORDON_L(DELETE_RECURSIVE)),
	   "labels as bits");
	ok(r.exact_only && r.timeout_ms == 1000, "exactOnly, timeoutMs");
	is_str(r.session, "s1", "session");
	broker_request_free(&r);

	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		char *t = edited(members[i], "");
		enum cordon_err e = broker_parse_request(t, strlen(t), &r, why,
							 sizeof(why));
		ok(e == CORDON_E_PARSE && strstr(why, members[i]) &&
			   strstr(why, "missing"),
		   "without %s: refused, naming it (%s)", members[i], why);
	}
	static const struct {
		const char *name, *with, *why;
	} bad[] = {
		{ "v", "2", "version" },
		{ "kind", "\"launch\"", "unknown kind" },
		{ "risk", "\"fine\"", "unknown tier" },
		{ "labels", "[\"nope\"]", "unknown label" },
		{ "labels", "\"force\"", "not an array" },
		{ "sandbox", "\"maybe\"", "full, partial" },
		{ "exactOnly", "1", "not a boolean" },
		{ "timeoutMs", "-1", "out of range" },
		{ "timeoutMs", "1e12", "out of range" },
		{ "tool", "7", "not a string" },
		{ "session", "[]", "not a string" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *t = edited(bad[i].name, bad[i].with);
		enum cordon_err e = broker_parse_request(t, strlen(t), &r, why,
							 sizeof(why));
		ok(e == CORDON_E_PARSE && strstr(why, bad[i].why),
		   "%s: %s refused (%s)", bad[i].name, bad[i].with, why);
	}
	static const char *const junk[] = {
		"", "null", "[]", "{\"v\":1", "not json", "{\"v\":1,\"v\":1}",
	};
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		ok(broker_parse_request(junk[i], strlen(junk[i]), &r, why,
					sizeof(why)) != CORDON_OK,
		   "junk %zu refused (%s)", i, why);
	char dup[2200];
	(void)snprintf(dup, sizeof(dup), "{\"tool\":\"x\",%s", good + 1);
	ok(broker_parse_request(dup, strlen(dup), &r, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "duplicate"),
	   "a duplicate member is refused (%s)", why);
	char extra[2200];
	(void)snprintf(extra, sizeof(extra), "{\"answer\":\"allow_once\",%s",
		       good + 1);
	ok(broker_parse_request(extra, strlen(extra), &r, why, sizeof(why)) ==
			   CORDON_E_PARSE &&
		   strstr(why, "unknown member"),
	   "an unknown member is refused (%s)", why);
	char *nul = edited("command", "\"rm\\u0000 -rf /\"");
	ok(broker_parse_request(nul, strlen(nul), &r, why, sizeof(why)) ==
		   CORDON_E_PARSE,
	   "a \\u0000 escape is refused");
	size_t big = BROKER_LINE_MAX + 2;
	char *huge = malloc(big);
	memset(huge, ' ', big);
	ok(broker_parse_request(huge, big, &r, why, sizeof(why)) ==
		   CORDON_E_LIMIT,
	   "over BROKER_LINE_MAX: CORDON_E_LIMIT");
	free(huge);
}

static void answer_cases(void)
{
	char line[64];

	for (int a = 0; a <= CORDON_ANSWER_TIMED_OUT; a++) {
		(void)snprintf(line, sizeof(line), "{\"answer\": \"%s\"}",
			       cordon_answer_name((enum cordon_answer)a));
		ok(broker_parse_answer(line, strlen(line), NULL) == a,
		   "answer %s", cordon_answer_name((enum cordon_answer)a));
	}
	static const char *const bad[] = {
		"{\"answer\": \"yes\"}",
		"{\"answer\": \"allow_once\", \"x\": 1}",
		"{\"answer\": 0}",
		"{\"Answer\": \"allow_once\"}",
		"[\"allow_once\"]",
		"{\"answer\": \"allow_once\\u0000\"}",
		"",
		"{\"answer\": \"allow_session\", \"scope\": \"family\"}",
		"{\"answer\": \"deny_session\", \"scope\": \"prefix\"}",
		"{\"answer\": \"allow_once\", \"scope\": \"prefix\"}",
		"{\"answer\": \"allow_session\", \"scope\": \"prefix\", "
		"\"scope\": \"prefix\"}",
		"{\"answer\": \"allow_session\", \"scope\": 1}",
		"{\"scope\": \"prefix\"}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(broker_parse_answer(bad[i], strlen(bad[i]), NULL) == -1,
		   "not an answer: %s", bad[i]);

	/* the scope: the family only when asked for, exact by default */
	static const struct {
		const char *line;
		int answer;
		bool family;
	} scoped[] = {
		{ "{\"answer\": \"allow_session\", \"scope\": \"prefix\"}",
		  CORDON_ANSWER_ALLOW_SESSION, true },
		{ "{\"scope\": \"prefix\", \"answer\": \"allow_always\"}",
		  CORDON_ANSWER_ALLOW_ALWAYS, true },
		{ "{\"answer\": \"allow_session\", \"scope\": \"exact\"}",
		  CORDON_ANSWER_ALLOW_SESSION, false },
		{ "{\"answer\": \"allow_session\"}",
		  CORDON_ANSWER_ALLOW_SESSION, false },
		{ "{\"answer\": \"deny_always\", \"scope\": \"exact\"}",
		  CORDON_ANSWER_DENY_ALWAYS, false },
	};
	for (size_t i = 0; i < sizeof(scoped) / sizeof(scoped[0]); i++) {
		bool fam = !scoped[i].family;
		int v = broker_parse_answer(scoped[i].line,
					    strlen(scoped[i].line), &fam);
		ok(v == scoped[i].answer && fam == scoped[i].family,
		   "%s: %d, family %d", scoped[i].line, v, fam);
	}
}

/* ---- a fake console on a real socket ------------------------------------ */

static char sock_path[108];
static struct {
	const char *reply; /* NULL: close without answering; "": never */
	char got[8192];
	int lfd;
} fake;

static void *fake_console(void *arg)
{
	int fd = accept(fake.lfd, NULL, NULL);
	size_t n = 0;

	(void)arg;
	if (fd < 0)
		return NULL;
	while (n < sizeof(fake.got) - 1) {
		ssize_t r = read(fd, fake.got + n, sizeof(fake.got) - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (memchr(fake.got, '\n', n))
			break;
	}
	fake.got[n] = '\0';
	if (fake.reply && fake.reply[0])
		(void)write(fd, fake.reply, strlen(fake.reply));
	if (fake.reply && !fake.reply[0]) {
		char c;
		(void)read(fd, &c, 1); /* until the door hangs up */
	}
	close(fd);
	return NULL;
}

static struct cordon_result *asked;

static enum cordon_answer ask_fake(const char *reply, unsigned timeout_ms,
				   char *why, size_t cap)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct broker_ask a = { "check", asked, "full", timeout_ms };
	pthread_t t;
	enum cordon_answer ans;

	memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
	unlink(sock_path);
	fake.lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(fake.lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(fake.lfd, 1) != 0)
		ok(0, "fake console: %s", strerror(errno));
	fake.reply = reply;
	fake.got[0] = '\0';
	pthread_create(&t, NULL, fake_console, NULL);
	ans = broker_ask(sock_path, &a, NULL, why, cap);
	pthread_join(t, NULL);
	close(fake.lfd);
	return ans;
}

/* ---- a fake run on a SEQPACKET socketpair ------------------------------- */

static struct {
	int fd; /* the run's end */
	const char *reply; /* NULL: close without answering; "": none */
	char got[BROKER_RELAY_MAX + 1];
	ssize_t n;
	int passed; /* how many descriptors came */
} run_fake;

static void *fake_run(void *arg)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = run_fake.got,
			     .iov_len = sizeof(run_fake.got) - 1 };
	struct msghdr mh = { 0 };
	int rfd;

	(void)arg;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	run_fake.n = recvmsg(run_fake.fd, &mh, 0);
	run_fake.got[run_fake.n > 0 ? run_fake.n : 0] = '\0';
	unixmsg_take_fd(&mh, &rfd);
	run_fake.passed = rfd >= 0 ? 1 : rfd == -2 ? 2 : 0;
	if (rfd < 0)
		return NULL;
	if (run_fake.reply && run_fake.reply[0])
		(void)send(rfd, run_fake.reply, strlen(run_fake.reply), 0);
	if (run_fake.reply && !run_fake.reply[0]) {
		char c;
		(void)recv(rfd, &c, 1, 0); /* until the door gives up */
	}
	close(rfd);
	return NULL;
}

static enum cordon_answer ask_relay(const char *reply, unsigned timeout_ms,
				    bool *family, char *why, size_t cap)
{
	struct broker_ask a = { "hook", asked, "full", timeout_ms };
	int sp[2];
	pthread_t t;
	enum cordon_answer ans;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0)
		ok(0, "socketpair: %s", strerror(errno));
	run_fake.fd = sp[0];
	run_fake.reply = reply;
	pthread_create(&t, NULL, fake_run, NULL);
	ans = broker_ask_relay(sp[1], &a, family, why, cap);
	pthread_join(t, NULL);
	close(sp[0]);
	close(sp[1]);
	return ans;
}

/* broker_ask_relay(), the door's side inside `cordon run`, against a
 * fake run (asked is ask_cases'). */
static void relay_cases(void)
{
	struct broker_request q;
	char why[256];
	bool family = false;
	int sp[2];

	is_int(ask_relay("{\"answer\":\"deny_session\"}\n", 5000, &family, why,
			 sizeof(why)),
	       CORDON_ANSWER_DENY_SESSION, "the relayed answer is the door's");
	ok(run_fake.passed == 1, "one reply descriptor went with the request");
	is_int(broker_parse_request(run_fake.got, (size_t)run_fake.n, &q, why,
				    sizeof(why)),
	       CORDON_OK, "what went through the relay is a request");
	ok(!q.relay_run && strcmp(q.door, "hook") == 0,
	   "  from the door, not claiming a relay");
	broker_request_free(&q);
	is_int(ask_relay("{\"answer\":\"allow_session\",\"scope\":\"prefix\"}"
			 "\n",
			 5000, &family, why, sizeof(why)),
	       CORDON_ANSWER_ALLOW_SESSION, "allow_session for the family");
	ok(family, "  the family is the door's to grant");
	is_int(ask_relay("refused: 8 calls are already waiting\n", 5000,
			 &family, why, sizeof(why)),
	       POLICY_ANSWER_NOBODY, "the run refusing: nobody");
	ok(strstr(why, "refused the call") && strstr(why, "already waiting"),
	   "  and says why (%s)", why);
	is_int(ask_relay(NULL, 5000, &family, why, sizeof(why)),
	       POLICY_ANSWER_NOBODY, "the run gone before answering: nobody");
	is_int(ask_relay("{\"answer\":\"maybe\"}\n", 5000, &family, why,
			 sizeof(why)),
	       POLICY_ANSWER_NOBODY, "an answer that is not one: nobody");
	is_int(ask_relay("", 200, &family, why, sizeof(why)),
	       CORDON_ANSWER_TIMED_OUT, "no answer by the deadline: timed_out");

	/* the relay itself gone: the door cannot hand the ask over */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0)
		ok(0, "socketpair");
	close(sp[0]);
	struct broker_ask a = { "hook", asked, "full", 1000 };
	is_int(broker_ask_relay(sp[1], &a, NULL, why, sizeof(why)),
	       POLICY_ANSWER_NOBODY, "the relay gone: nobody");
	ok(strstr(why, "cannot reach the cordon run") != NULL,
	   "  and says so (%s)", why);
	close(sp[1]);

	/* another holder inside filled the relay's queue (the run reads
	 * nothing): the door denies at its deadline, it does not hang */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0)
		ok(0, "socketpair");
	{
		static const char fill[1000];
		int queued = 0;

		while (send(sp[1], fill, sizeof(fill), MSG_DONTWAIT) > 0)
			queued++;
		ok(queued > 0 && errno == EAGAIN,
		   "the relay's queue is full (%d messages)", queued);
	}
	a.timeout_ms = 300;
	is_int(broker_ask_relay(sp[1], &a, NULL, why, sizeof(why)),
	       CORDON_ANSWER_TIMED_OUT,
	       "  a door asking then: timed_out at its deadline, no hang");
	close(sp[0]);
	close(sp[1]);
	is_int(broker_ask_relay(-1, &a, NULL, why, sizeof(why)),
	       POLICY_ANSWER_NOBODY, "no relay descriptor: nobody");
}

static void ask_cases(void)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_policy *pol = NULL;
	struct cordon_diag d = { 0 };
	struct cordon_call call = {
		.tool = "Bash",
		.args_json = "{\"command\": \"rm -rf build --token "
			     "ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}",
	};
	struct broker_request r;
	char dir[] = "/tmp/test_broker.XXXXXX", why[256];

	if (!mkdtemp(dir))
		ok(0, "mkdtemp");
	(void)snprintf(sock_path, sizeof(sock_path), "%s/s", dir);
	asked = cordon_result_new();
	ok(cordon_policy_new(cfg, NULL, &pol, &d) == CORDON_OK &&
		   cordon_policy_evaluate(pol, &call, asked, &d) == CORDON_OK &&
		   cordon_result_decision(asked) == CORDON_ASK,
	   "a destructive command asks");

	is_int(ask_fake("{\"answer\":\"allow_session\"}\n", 5000, why,
			sizeof(why)),
	       CORDON_ANSWER_ALLOW_SESSION,
	       "the console's answer is the door's");
	is_int(broker_parse_request(fake.got, strlen(fake.got), &r, why,
				    sizeof(why)),
	       CORDON_OK, "what the door sent is a request the console reads");
	ok(!strstr(fake.got, "ghp_abcdefghij"),
	   "the token in the arguments is redacted before it is sent");
	ok(r.exact_only && r.risk && strcmp(r.risk, "destructive") == 0 &&
		   strcmp(r.door, "check") == 0 &&
		   strcmp(r.sandbox, "full") == 0 && r.timeout_ms == 5000,
	   "tier, exactOnly, door, sandbox, deadline sent");
	broker_request_free(&r);

	is_int(ask_fake(NULL, 5000, why, sizeof(why)), POLICY_ANSWER_NOBODY,
	       "a console gone before answering: nobody");
	ok(strstr(why, "went away") != NULL, "and says so (%s)", why);
	is_int(ask_fake("{\"answer\":\"yes\"}\n", 5000, why, sizeof(why)),
	       POLICY_ANSWER_NOBODY, "an answer that is not a name: nobody");
	is_int(ask_fake("", 200, why, sizeof(why)), CORDON_ANSWER_TIMED_OUT,
	       "no answer by the deadline: timed_out");
	unlink(sock_path);
	struct broker_ask a = { "check", asked, NULL, 1000 };
	is_int(broker_ask(sock_path, &a, NULL, why, sizeof(why)),
	       POLICY_ANSWER_NOBODY, "no console: nobody");
	ok(strstr(why, "no console is running") != NULL, "and says so (%s)",
	   why);
	rmdir(dir);
	relay_cases();
	cordon_result_free(asked);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
}

/* cordon_policy_decide() with a prompt that finds nobody. */
static void nobody_prompt(void *ud, const struct cordon_result *q,
			  struct cordon_reply *reply)
{
	(void)ud;
	(void)q;
	reply->answer = POLICY_ANSWER_NOBODY;
	reply->by = "no console is running";
}

static void decide_cases(void)
{
	struct cordon_config *cfg = cordon_config_new();
	struct cordon_policy *pol = NULL;
	struct cordon_result *res = cordon_result_new();
	struct cordon_diag d = { 0 };
	struct cordon_call call = {
		.tool = "Bash", .args_json = "{\"command\": \"rm -rf x\"}"
	};

	ok(cordon_policy_new(cfg, NULL, &pol, &d) == CORDON_OK, "policy");
	cordon_policy_set_prompt(pol, nobody_prompt, NULL);
	ok(cordon_policy_decide(pol, &call, 0, res, &d) == CORDON_OK, "decide");
	is_int(cordon_result_decision(res), CORDON_DENY, "nobody: deny");
	is_str(cordon_result_step(res), "no_prompt", "at step no_prompt");
	ok(strstr(cordon_result_reason(res), "no one can be asked (no console "
					     "is running)") != NULL,
	   "the reason says why (%s)", cordon_result_reason(res));
	ok(cordon_result_answer(res) == -1, "no answer is recorded");
	cordon_result_free(res);
	cordon_policy_free(pol);
	cordon_config_free(cfg);
}

int main(void)
{
	tap_no_plan();
	parse_cases();
	answer_cases();
	ask_cases();
	decide_cases();
	return tap_done();
}
