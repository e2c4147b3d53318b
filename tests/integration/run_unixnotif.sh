#!/usr/bin/env bash
# `cordon run`'s connect supervisor (src/sandbox/unixnotif.c), on both
# backends where they work: a unix socket a host process binds AFTER the
# command started (under $HOME, and under another readable host
# directory) is refused with EACCES, while the same connect works
# unsandboxed (shown first) and the host listener accepts nothing from
# the sandbox; a socket the command binds in the workspace works (echo
# server and client inside, by absolute and relative path; a host
# listener in the workspace, non-blocking); a blocking connect pending on
# a full backlog holds up no other connect; a race flipping the address
# and dup2-ing the fd during connects never reaches the host listener;
# an abstract host listener is refused; AF_UNIX datagram sockets are
# refused at socket(); TCP behaves as Landlock's rules say (host network:
# connects; none: refused); the report says the connects are checked,
# and a cordon run inside cordon run, which gets no listener, says not.
#
# The scratch tree is under /var/tmp: the landlock backend's /tmp is the
# host's, a writable root, where a host socket stays reachable (the
# report says so).
. "$(dirname "$0")/lib.sh"

need python3
T=$(mktemp -d /var/tmp/cordon-unotif.XXXXXX) || skip_all "no /var/tmp"
chmod 755 "$T"
trap 'cleanup; rm -rf "$T"' EXIT
export HOME=$T/home
W=$T/ws
R=$T/run # a readable host directory outside every writable root
mkdir -p "$HOME" "$W" "$R"
C="python3 $src/tests/integration/unixnotif_client.py"
S=$src/tests/integration/unixnotif_server.py
abs=cordon-unotif-$$-$RANDOM
cd "$W" || exit 1

backends=()
for b in namespaces landlock; do
	if "$bin" run --backend "$b" -- true >/dev/null 2>&1; then
		backends+=("$b")
	fi
done
[ ${#backends[@]} -gt 0 ] || skip_all "no sandbox backend works here"
"$bin" run --backend "${backends[0]}" --report "$T/rep.json" -- true \
	>/dev/null 2>&1
grep -q '"lateUnixSockets":"checked' "$T/rep.json" ||
	skip_all "the kernel lacks seccomp user notification here"

# serve LOG PATH...: a host listener on each PATH; waits until it listens.
serve() {
	local log=$1 i
	shift
	: >"$log"
	python3 "$S" "$log" "$@" >"$log.ready" 2>&1 &
	srv=$!
	pids+=("$srv")
	for i in $(seq 200); do
		grep -q ready "$log.ready" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# crun B ARGS...: the client inside cordon run on backend B; its output
# in $tmp/out.
crun() {
	local b=$1
	shift
	timeout 120 "$bin" run --backend "$b" "$@" </dev/null \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# Control: the same late bind and connects without cordon.
rm -f "$W/started" "$W/go"
(cd "$W" && $C wait-connect "$W" "$HOME/late.sock" "$R/late.sock" \
	>"$tmp/ctl.out" 2>&1) &
cpid=$!
for i in $(seq 200); do [ -e "$W/started" ] && break; sleep 0.05; done
serve "$T/ctl.log" "$HOME/late.sock" "$R/late.sock"
touch "$W/go"
wait "$cpid"
[ "$(cat "$tmp/ctl.out")" = "CONNECTED CONNECTED" ] &&
	[ "$(wc -l <"$T/ctl.log")" -eq 2 ]
ok $? "unsandboxed: sockets bound after the start connect ($(cat "$tmp/ctl.out"))"
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null

serve "$T/abs-ctl.log" "\\0$abs"
out=$($C abstract "$abs")
[ "$out" = CONNECTED ]
ok $? "unsandboxed: the abstract host listener connects ($out)"
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null

out=$($C dgram)
[ "$out" = "OK OK OK" ]
ok $? "unsandboxed: AF_UNIX datagram sockets and pairs are made ($out)"

for b in "${backends[@]}"; do
	# Late binds: the command is running before the host binds (up to 120 s
	# for it to start: a loaded machine has taken more than 20).
	rm -f "$W/started" "$W/go" "$HOME/late.sock" "$R/late.sock"
	timeout 120 "$bin" run --backend "$b" --report "$T/late.json" -- \
		$C wait-connect "$W" "$HOME/late.sock" "$R/late.sock" \
		</dev/null >"$tmp/late.out" 2>"$tmp/err" &
	cpid=$!
	for i in $(seq 2400); do [ -e "$W/started" ] && break; sleep 0.05; done
	serve "$T/late.log" "$HOME/late.sock" "$R/late.sock"
	touch "$W/go"
	wait "$cpid"
	rc=$?
	cp "$tmp/late.out" "$tmp/out"
	[ "$(cat "$tmp/late.out")" = "EACCES EACCES" ] &&
		[ ! -s "$T/late.log" ]
	ok $? "$b: sockets bound on the host after the start: EACCES, nothing accepted"
	grep -q '"lateUnixSockets":"checked at connect' "$T/late.json"
	ok $? "$b: the report says connects are checked"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null

	rm -f "$W"/*.sock
	crun "$b" -- $C echo "$W/echo.sock"
	[ "$(cat "$tmp/out")" = "ECHO hi" ]
	ok $? "$b: an echo server the command binds in the workspace"
	rm -f "$W"/*.sock
	mkdir -p "$W/sub"
	crun "$b" -- $C echo sub/../echo.sock
	[ "$(cat "$tmp/out")" = "ECHO hi" ]
	ok $? "$b: ... by a relative path"
	rm -f "$W"/*.sock

	serve "$T/ws.log" "$W/host.sock"
	crun "$b" -- $C nonblock "$W/host.sock"
	[ "$(cat "$tmp/out")" = CONNECTED ] && [ "$(wc -l <"$T/ws.log")" -eq 1 ]
	ok $? "$b: a non-blocking connect to a listener in the workspace"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	rm -f "$W"/*.sock

	crun "$b" -- $C parallel "$W"
	[ "$(cat "$tmp/out")" = "pending CONNECTED" ]
	ok $? "$b: a connect pending on a full backlog holds up no other"
	rm -f "$W"/*.sock

	# The race: each connect's address flips between a workspace
	# listener and a host one, and a thread dup2s another socket onto
	# the fd; connects do land (the race is live), never on the host.
	serve "$T/good.log" "$W/good.sock"
	gsrv=$srv
	serve "$T/bad.log" "$HOME/bad.sock"
	crun "$b" -- $C race "$W/good.sock" "$HOME/bad.sock" 2000
	good=$(wc -l <"$T/good.log")
	[ "$good" -gt 0 ] && [ ! -s "$T/bad.log" ] && has "done "
	ok $? "$b: address flip and fd swap during 2000 connects: $good to the workspace, none to the host"
	kill "$srv" "$gsrv" 2>/dev/null
	wait "$srv" "$gsrv" 2>/dev/null
	rm -f "$W"/*.sock

	# A symlink in the workspace is followed in the command's view: to
	# a host socket refused, to a workspace socket connected.
	serve "$T/lnk.log" "$R/target.sock" "$W/inside.sock"
	ln -sf "$R/target.sock" "$W/out.lnk"
	ln -sf inside.sock "$W/in.lnk"
	crun "$b" -- $C connect "$W/out.lnk"
	out=$(cat "$tmp/out")
	crun "$b" -- $C connect "$W/in.lnk"
	case $out in EACCES | ECONNREFUSED) true ;; *) false ;; esac &&
		[ "$(cat "$tmp/out")" = CONNECTED ] &&
		[ "$(grep -c target "$T/lnk.log")" -eq 0 ]
	ok $? "$b: a workspace symlink to a host socket refused ($out), to a workspace one connected"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	rm -f "$W"/*.sock "$W"/*.lnk

	serve "$T/abs.log" "\\0$abs"
	crun "$b" -- $C abstract "$abs"
	[ "$(cat "$tmp/out")" != CONNECTED ] && [ ! -s "$T/abs.log" ]
	ok $? "$b: the abstract host listener is refused ($(cat "$tmp/out"))"
	crun "$b" --network host -- $C abstract "$abs"
	[ "$(cat "$tmp/out")" = EPERM ] && [ ! -s "$T/abs.log" ]
	ok $? "$b: ... EPERM with the host's network, as Landlock's scope"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null

	crun "$b" -- $C dgram
	[ "$(cat "$tmp/out")" = "EPERM EPERM OK" ]
	ok $? "$b: AF_UNIX datagram socket and pair refused, seqpacket pair made"

	# TCP as Landlock's rules have it: the host's network connects to a
	# host listener; network none does not.
	python3 -c '
import socket, time
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(8)
print(l.getsockname()[1], flush=True)
time.sleep(600)' >"$T/tcp.port" 2>/dev/null </dev/null &
	tsrv=$!
	pids+=("$tsrv")
	for i in $(seq 100); do [ -s "$T/tcp.port" ] && break; sleep 0.05; done
	port=$(head -1 "$T/tcp.port")
	crun "$b" --network host -- $C tcp "$port"
	[ "$(cat "$tmp/out")" = CONNECTED ]
	ok $? "$b: TCP to a host listener with the host's network"
	crun "$b" --network none -- $C tcp "$port"
	case $(cat "$tmp/out") in
	EACCES | ECONNREFUSED) true ;;
	*) false ;;
	esac
	ok $? "$b: ... refused with network none ($(cat "$tmp/out"))"
	kill "$tsrv" 2>/dev/null
	wait "$tsrv" 2>/dev/null
done

# cordon inside cordon: the kernel gives the inner filter no listener
# (EBUSY: the outer one has it); the inner report says connects are not
# checked by it (the outer supervisor still answers them).
b=${backends[-1]}
crun "$b" --memory 0 -- "$bin" run --memory 0 --backend landlock \
	--report "$W/inner.json" -- true
if grep -q AddressSanitizer "$tmp/err"; then
	skip "cordon inside cordon: the inner report" \
		"a sanitizer build cannot start inside the sandbox"
else
	grep -q '"lateUnixSockets":"not checked' "$W/inner.json" &&
		grep -q 'connect not checked (seccomp listener: EBUSY)' \
			"$W/inner.json"
	ok $? "cordon inside cordon: the inner report says connects are not checked (EBUSY)"
fi

done_testing
