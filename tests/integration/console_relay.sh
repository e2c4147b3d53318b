#!/usr/bin/env bash
# The broker relay (src/policy/broker.h): a door inside `cordon run` hands
# its ASK to the console on the host through the run (CORDON_BROKER_FD);
# the card says which run it came from; an answer reaches the door; a
# session grant given there lets the next identical call of that run
# through and never a host door's or another run's; durable answers are
# refused for it; the deadline, a console that dies and no console fail
# closed; forged messages (another run's relay mark, a door that is not
# one, oversized, not JSON, no reply socket, one ask too many) are
# refused. The door is tests/agents/broker_door.py (it speaks the relay's
# protocol as cordon's doors do), and the real `cordon check` where a
# cordon binary can start inside the sandbox (an ASan build cannot under
# RLIMIT_AS). Needs the namespaces backend; skips without it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
. "$(dirname "$0")/lib_console.sh"
need python3 curl

sandbox_dirs
door=$src/tests/agents/broker_door.py

# inside NAME ARGS...: `cordon run --network none -- broker_door.py ARGS`
# in the background, its lines in $tmp/NAME.out, stderr in .err, status
# in .rc once it ended.
inside() {
	local name=$1
	shift
	rm -f "$tmp/$name.rc"
	(
		cd "$HOME" && "$bin" run --network none -- python3 "$door" "$@" \
			>"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
		echo $? >"$tmp/$name.rc"
	) &
}
# wait_rc NAME: waits up to 30 s for it to end.
wait_rc() {
	for _ in $(seq 300); do
		[ -s "$tmp/$1.rc" ] && return 0
		sleep 0.1
	done
	return 1
}
# host NAME SESSION: a host door (`cordon check`) asks about rm -rf build
# in the background; its output in $tmp/NAME.out, status in .rc.
host() {
	rm -f "$tmp/$1.rc"
	(
		"$bin" check --workspace "$HOME" --tool Bash --session "$2" \
			--args '{"command":"rm -rf build"}' >"$tmp/$1.out" 2>&1 </dev/null
		echo $? >"$tmp/$1.rc"
	) &
}
# pending_json EXPR: a Python expression over the pending list `p`.
pending_json() {
	curl -sS -H "Authorization: Bearer $token" "$url/api/approvals/pending" |
		python3 -c 'import json,sys; p=json.load(sys.stdin)["pending"]; print(eval(sys.argv[1]))' "$1"
}
# answer ID NAME: POSTs the answer; the status in $code.
answer() {
	api POST "/api/approvals/$1" "{\"answer\":\"$2\"}"
}

start_console || skip_all "cordon console did not start"

"$bin" doctor --no-probe --json >"$tmp/doc.json" 2>/dev/null
"$bin" doctor --no-probe >"$tmp/doc.txt" 2>/dev/null
pyjson 'd["broker"]["on"] and d["broker"]["console"] and not d["broker"]["insideRelay"]' <"$tmp/doc.json" &&
	grep -q "^approval broker: on, a console listens on $cdir/console.sock; doors inside cordon run ask it through the run's relay (CORDON_BROKER_FD)" "$tmp/doc.txt"
ok $? "cordon doctor: the broker on, a console listening, how doors inside cordon run reach it"

# ---- a relayed card, answered ------------------------------------------
inside a --session s1 good good
wait_pending 1
ok $? "a door inside cordon run hands its ask to the console (a card)"
[ "$(pending_json 'p[0]["relayed"]["command"].startswith("cordon run -- python3 ")')" = True ] &&
	[ "$(pending_json 'len(p[0]["relayed"]["run"])')" = 32 ] &&
	[ "$(pending_json 'p[0]["session"]')" = s1 ]
ok $? "the card is marked as relayed, with the run's command and id"
[ "$(pending_json 'p[0]["sandboxed"]')" = full ]
ok $? "its sandbox is the run's enforcement (full), not the door's claim (none)"
id=$(first_pending id)
answer "$id" allow_always
c1=$code
answer "$id" deny_always
[ "$c1" = 400 ] && [ "$code" = 400 ] && grep -q 'no durable answer' "$tmp/out" &&
	[ "$(pending_count)" = 1 ]
ok $? "allow_always and deny_always on a relayed card: 400, the call still waits"
answer "$id" allow_session
[ "$code" = 200 ]
ok $? "allow_session on it: 200"
wait_rc a
[ "$(grep -c '^good {"answer":"allow_session"}$' "$tmp/a.out")" = 2 ] &&
	[ "$(pending_count)" = 0 ]
ok $? "the door gets it, and the next identical call of that run goes through on the grant"

# the grant does not leak: a host door's identical call of that session
host host s1
wait_pending 1
ok $? "a host door's identical call of the same session still asks"
[ "$(pending_json 'p[0]["relayed"]')" = None ]
ok $? "  its card is not marked as relayed"
answer "$(first_pending id)" deny_once
wait_rc host
[ "$(cat "$tmp/host.rc")" = 1 ] && grep -q '^deny' "$tmp/host.out"
ok $? "  deny_once: the host door is denied"

# nor does a host door's grant answer a door inside that claims its
# session
host h1 h1
wait_pending 1
answer "$(first_pending id)" allow_session
wait_rc h1
inside claim --session h1 good
wait_pending 1 && [ "$(pending_json 'p[0]["relayed"] is not None and p[0]["session"] == "h1"')" = True ]
ok $? "a door inside claiming a host door's session (granted there) still asks"
answer "$(first_pending id)" deny_once
wait_rc claim
[ "$(cat "$tmp/h1.rc")" = 0 ] && grep -q '^good {"answer":"deny_once"}$' "$tmp/claim.out"
ok $? "  the host door's grant stayed the host's; deny_once reaches the door inside"

# nor another run's
inside b --session s1 good
wait_pending 1
ok $? "the same call in another run asks again (the grant was that run's)"
answer "$(first_pending id)" deny_once
wait_rc b
grep -q '^good {"answer":"deny_once"}$' "$tmp/b.out"
ok $? "  deny_once reaches the door inside"

# ---- the deadline, the console gone, no console -------------------------
inside t --timeout 1500 good
wait_rc t
grep -q '^good {"answer":"timed_out"}$' "$tmp/t.out" && [ "$(pending_count)" = 0 ]
ok $? "no answer by the deadline: timed_out (fails closed)"

inside gone good
wait_pending 1
kill -KILL "$cpid"
wait "$cpid" 2>/dev/null
wait_rc gone
grep -q '^good refused: the console went away' "$tmp/gone.out"
ok $? "the console killed mid-wait: refused (the door denies at no_prompt)"
rm -f "$cdir/console.sock" "$cdir/console.token"

inside none good
wait_rc none
grep -q '^good refused: no console is running' "$tmp/none.out"
ok $? "no console: refused, and says so"

# ---- forged messages ----------------------------------------------------
start_console || skip_all "cordon console did not start again"
inside forged empty relayed door big garbage nofd
wait_rc forged
grep -q '^relayed refused: relay: a call from inside the sandbox cannot say which run' "$tmp/forged.out" &&
	grep -q '^door refused: door: not mcp, hook or check' "$tmp/forged.out" &&
	grep -q '^big refused: over the broker relay' "$tmp/forged.out" &&
	grep -q '^garbage refused: not JSON' "$tmp/forged.out" &&
	grep -q '^nofd -$' "$tmp/forged.out" && grep -q '^empty -$' "$tmp/forged.out" &&
	[ "$(pending_count)" = 0 ]
ok $? "a message of no bytes first (not the end: the relay reads on), another run's relay mark, a foreign door, 130 KiB, not JSON, no reply socket: refused, no card"
grep -q 'broker relay: 6 ask(s) from inside the sandbox refused' "$tmp/forged.err"
ok $? "  the run says how many it refused"

# a reply descriptor that is not an AF_UNIX SOCK_SEQPACKET socket
inside odd filefd pipefd streamfd
wait_rc odd
grep -q '^pipefd eof$' "$tmp/odd.out" && grep -q '^streamfd eof$' "$tmp/odd.out" &&
	[ -f "$HOME/replyfile" ] && [ ! -s "$HOME/replyfile" ] && [ "$(pending_count)" = 0 ] &&
	grep -q 'broker relay: 3 ask(s) from inside the sandbox refused' "$tmp/odd.err"
ok $? "a pipe, a stream socket, a regular file as the reply socket: refused and closed at once, nothing written, no card"

inside many --hold 9
wait_pending 8
ok $? "8 asks from inside wait at once"
for i in $(pending_json '" ".join(x["id"] for x in p)'); do
	answer "$i" deny_once
done
wait_rc many
[ "$(grep -c '^good {"answer":"deny_once"}$' "$tmp/many.out")" = 8 ] &&
	[ "$(grep -c '^good refused: 8 calls from inside the sandbox are already waiting' "$tmp/many.out")" = 1 ]
ok $? "  the 8 get their answers, a 9th was refused at once, no card (BROKER_RELAY_INFLIGHT)"

# ---- the real door ------------------------------------------------------
(cd "$HOME" && "$bin" run --network none -- "$bin" --version) >"$tmp/out" 2>"$tmp/err"
if grep -q 'AddressSanitizer failed to allocate' "$tmp/err"; then
	skip "cordon check inside cordon run, through the relay" \
		"an ASan build of cordon does not start under RLIMIT_AS"
else
	(
		cd "$HOME" && "$bin" run --network none --pass-env XDG_CONFIG_HOME \
			--pass-env XDG_RUNTIME_DIR --pass-env XDG_STATE_HOME -- sh -c '
			for i in 1 2; do
				"$0" check --workspace "$HOME" --tool Bash --session s9 \
					--args "{\"command\":\"rm -rf build\"}"
				echo "rc=$?"
			done' "$bin" >"$tmp/real.out" 2>"$tmp/real.err" </dev/null
		echo $? >"$tmp/real.rc"
	) &
	wait_pending 1 && [ "$(pending_json 'p[0]["door"]')" = check ] &&
		[ "$(pending_json 'p[0]["relayed"] is not None')" = True ]
	ok $? "cordon check inside cordon run: a relayed card"
	answer "$(first_pending id)" allow_session
	wait_rc real
	[ "$(grep -c '^allow (step: user)' "$tmp/real.out")" = 2 ] &&
		[ "$(grep -c '^rc=0' "$tmp/real.out")" = 2 ]
	ok $? "  allow_session: it and the next identical call of the run are allowed"
fi
stop_console

done_testing
