#!/usr/bin/env bash
# A command inside `cordon run` cannot reach the console: not its TCP
# port, not its unix socket, not its token; with --network none and with
# the egress proxy; with the socket in $XDG_RUNTIME_DIR/cordon/ and in the
# fallback $XDG_STATE_HOME/cordon/; a door inside that would ask reaches
# it only through the run's relay (console_relay.sh). Needs the
# namespaces backend (root or unprivileged user namespaces); skips
# without it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
. "$(dirname "$0")/lib_console.sh"
need python3 curl

sandbox_dirs

cat >"$var/probe.py" <<'PY'
import os, socket, sys
port, sock, tok = int(sys.argv[1]), sys.argv[2], sys.argv[3]
out = []
try:
    socket.create_connection(("127.0.0.1", port), timeout=3).close()
    out.append("tcp=open")
except OSError as e:
    out.append("tcp=refused:%d" % (e.errno or 0))
try:
    u = socket.socket(socket.AF_UNIX)
    u.settimeout(3)
    u.connect(sock)
    out.append("unix=open")
except OSError as e:
    out.append("unix=refused:%d" % (e.errno or 0))
try:
    data = open(tok).read()
    out.append("token=read" if data.strip() else "token=empty")
except OSError as e:
    out.append("token=refused:%d" % (e.errno or 0))
print(" ".join(out))
PY

# probe_in ARGS...: the probe inside `cordon run ARGS`, its line in $tmp/out
probe_in() {
	(cd "$HOME" && "$bin" run "$@" -- python3 "$var/probe.py" \
		"${url##*:}" "$sock" "$tokf") >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

for where in runtime state; do
	if [ $where = state ]; then
		unset XDG_RUNTIME_DIR
		cdir=$XDG_STATE_HOME/cordon
	fi
	start_console || skip_all "cordon console did not start"
	sock=$cdir/console.sock
	tokf=$cdir/console.token
	# outside, all three are there: the probe works
	python3 "$var/probe.py" "${url##*:}" "$sock" "$tokf" >"$tmp/out"
	grep -q 'tcp=open unix=open token=read' "$tmp/out"
	ok $? "$where: outside the sandbox the probe reaches port, socket and token"

	probe_in --network none
	grep -q 'tcp=refused' "$tmp/out" && grep -q 'unix=refused' "$tmp/out" &&
		grep -q 'token=refused\|token=empty' "$tmp/out"
	ok $? "$where: inside cordon run --network none: port, socket and token out of reach"

	probe_in --network proxy
	grep -q 'tcp=refused' "$tmp/out" && grep -q 'unix=refused' "$tmp/out" &&
		grep -q 'token=refused\|token=empty' "$tmp/out"
	ok $? "$where: inside cordon run --network proxy: port, socket and token out of reach"

	(cd "$HOME" && "$bin" run --network proxy -- sh -c \
		"curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer $token' $url/api/status") \
		>"$tmp/out" 2>"$tmp/err"
	code=$(cat "$tmp/out")
	[ "$code" = 403 ]
	ok $? "$where: through the egress proxy, even with the token, the console is refused ($code)"

	# cordon run itself never asks; a door inside it that would ask
	# cannot reach the console's socket: it hands the ask over through
	# the run's relay (console_relay.sh), so its card is marked as
	# relayed. The door is told where the config (approvals.broker on)
	# and the console are.
	(cd "$HOME" && "$bin" run --network none --pass-env XDG_CONFIG_HOME \
		--pass-env XDG_RUNTIME_DIR --pass-env XDG_STATE_HOME -- "$bin" check \
		--workspace "$HOME" --tool Bash --args '{"command":"rm -rf build"}') \
		>"$tmp/out" 2>"$tmp/err" &
	dpid=$!
	relayed=
	# until its card shows, or the door ended without one
	for _ in $(seq 100); do
		[ "$(pending_count)" = 1 ] && break
		kill -0 $dpid 2>/dev/null || break
		sleep 0.1
	done
	if [ "$(pending_count)" = 1 ]; then
		relayed=$(curl -sS -H "Authorization: Bearer $token" \
			"$url/api/approvals/pending" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"][0]["relayed"] is not None)')
		api POST "/api/approvals/$(first_pending id)" '{"answer":"deny_once"}'
	fi
	wait $dpid
	rc=$?
	if grep -q 'AddressSanitizer failed to allocate' "$tmp/err"; then
		# the shadow memory of an ASan build is more than RLIMIT_AS
		# allows (no cgroup v2 memory controller here)
		skip "$where: a door inside cordon run asks only through the relay" \
			"an ASan build of cordon does not start under RLIMIT_AS"
	else
		[ $rc -eq 1 ] && [ "$relayed" = True ] &&
			grep -q '^deny (step: user)' "$tmp/out"
		ok $? "$where: a door inside cordon run asks only through the relay (a relayed card), deny reaches it"
	fi
	# the same door outside: the console has its card
	"$bin" check --workspace "$HOME" --tool Bash \
		--args '{"command":"rm -rf build"}' >"$tmp/out" 2>"$tmp/err" &
	pids+=($!)
	wait_pending 1
	ok $? "$where: the same door outside the sandbox hands it to the console"
	stop_console
done

done_testing
