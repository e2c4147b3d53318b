#!/usr/bin/env bash
# Nothing of a run outlives the door that started it. The command is one
# that ignores every catchable signal, plants a run-later file (.envrc)
# and leaves a child in a session of its own (setsid, double fork, every
# catchable signal ignored too); each case kills the door and then looks
# by pid (the host's, from /proc) that neither process is left.
#
#   - `cordon run` (both backends) killed with SIGKILL: the kernel takes
#     the sandbox down (PID 1's / the reaper's parent-death signal); no
#     sweep and no report can follow, none is promised.
#   - `cordon run` killed with SIGTERM or SIGHUP, a command that dies of
#     it: the run ends as runs end: report (the signal), sweep, no child.
#   - `cordon mcp --sandbox` (both backends) killed with SIGTERM (how
#     agents stop MCP servers) or SIGKILL: the run ends MCP_KILL_AFTER_MS
#     later, its --report says why, its sweep removes the .envrc.
#   - `cordon mcp` without --sandbox killed with SIGTERM, SIGHUP, SIGINT
#     or SIGKILL: the server it started is gone; what that server left in
#     a session of its own is not (no sandbox holds it: --sandbox does).
# Needs root (the sandbox); the scratch tree is under /var/tmp since the
# namespaces backend has its own /tmp.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for the sandbox"
need setsid pgrep
scratch=$(mktemp -d /var/tmp/cordon-orphans.XXXXXX)
# shellcheck disable=SC2064
trap "rm -rf '$scratch'; cleanup" EXIT
seq=0

# srv W: writes W/srv.sh, a command whose processes are `sleep $tok.1`
# (itself) and `sleep $tok.2` (its child in a new session); sets tok.
srv() {
	seq=$((seq + 1))
	tok="$$0$seq"
	cat >"$1/srv.sh" <<EOS
trap '' TERM HUP INT QUIT USR1 USR2 PIPE
cd "$1" || exit 1
echo 'echo planted' >.envrc
(setsid sh -c "trap '' TERM HUP INT QUIT USR1 USR2; exec sleep $tok.2" \
	</dev/null >/dev/null 2>&1 &)
exec sleep $tok.1
EOS
}

# started: waits (at most 20 s) until both of tok's processes run; sets
# left to their host pids.
started() {
	local i
	for i in $(seq 200); do
		left=$(pgrep -f "^sleep $tok\.[12]$" | tr '\n' ' ')
		[ "$(echo $left | wc -w)" -eq 2 ] && return 0
		sleep 0.1
	done
	return 1
}

# gone SECONDS: waits until none of the pids in $left exists; false (and
# $left the survivors, killed) when some still do after SECONDS.
gone() {
	local i p still
	for i in $(seq $(($1 * 10))); do
		still=""
		for p in $left; do
			[ -d "/proc/$p" ] && still="$still $p"
		done
		[ -z "$still" ] && return 0
		sleep 0.1
	done
	left=$still
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
	return 1
}

backends=()
for b in namespaces landlock; do
	"$bin" run --audit-log - --backend "$b" -- true >/dev/null 2>&1 &&
		backends+=("$b")
done
[ ${#backends[@]} -gt 0 ] || skip_all "no sandbox backend works here"

# ---- cordon run ----------------------------------------------------------

for b in "${backends[@]}"; do
	w=$scratch/run-kill-$b
	mkdir -p "$w"
	srv "$w"
	(cd "$w" && exec "$bin" run --audit-log - --backend "$b" \
		--workspace "$w" -- sh "$w/srv.sh" </dev/null >/dev/null \
		2>"$tmp/err") &
	run=$!
	if started; then
		kill -KILL "$run"
		wait "$run" 2>/dev/null
		gone 10
		ok $? "cordon run --backend $b killed with SIGKILL: nothing of the run is left (was: $left)"
	else
		kill -KILL "$run"
		ok 1 "cordon run --backend $b: the command started"
	fi
done

# A command that dies of the signal (only its child ignores it): the run
# ends as every run does.
for b in "${backends[@]}"; do
	for sig in TERM HUP; do
		w=$scratch/run-$sig-$b
		mkdir -p "$w"
		srv "$w"
		sed -i '1d' "$w/srv.sh"
		(cd "$w" && exec "$bin" run --audit-log - --backend "$b" \
			--workspace "$w" --report "$w.report" -- \
			sh "$w/srv.sh" </dev/null >/dev/null 2>"$tmp/err") &
		run=$!
		if ! started; then
			kill -KILL "$run"
			ok 1 "cordon run --backend $b: the command started"
			continue
		fi
		kill -"$sig" "$run"
		wait "$run"
		rc=$?
		gone 10
		g=$?
		why=""
		[ $g -eq 0 ] || why="left: $left"
		[ -e "$w/.envrc" ] && why="$why; .envrc not swept"
		n_sig=$(kill -l "$sig")
		pycheck "d['signal'] == 'SIG$sig'" <"$w.report" ||
			why="$why; report: $(cat "$w.report" 2>&1)"
		[ $rc -eq $((128 + n_sig)) ] || why="$why; exit $rc"
		[ -z "$why" ] || echo "# $why"
		ok "$([ -z "$why" ]; echo $?)" \
			"cordon run --backend $b killed with SIG$sig: reported, swept, nothing left"
	done
done

# ---- cordon mcp --sandbox --------------------------------------------------

# The gateways' client: a FIFO this script holds open, so no EOF comes
# and only the signal ends a gateway.
mkfifo "$tmp/client"
exec 7<>"$tmp/client"

for b in "${backends[@]}"; do
	for sig in TERM KILL; do
		w=$scratch/mcp-$sig-$b
		mkdir -p "$w"
		git -C "$w" init -q
		srv "$w"
		rm -f "$w.report"
		(cd "$w" && exec "$bin" mcp --audit-log - --name o \
			--sandbox --backend "$b" --workspace "$w" \
			--report "$w.report" -- sh "$w/srv.sh" <&7 >/dev/null \
			2>"$tmp/err") &
		gw=$!
		if ! started; then
			kill -KILL "$gw"
			ok 1 "cordon mcp --sandbox --backend $b: the server started"
			continue
		fi
		kill -"$sig" "$gw"
		wait "$gw" 2>/dev/null
		rc=$?
		# MCP_KILL_AFTER_MS (5 s), then the sweep
		gone 20
		g=$?
		why=""
		[ $g -eq 0 ] || why="left: $left"
		for i in $(seq 100); do
			[ -s "$w.report" ] && break
			sleep 0.1
		done
		[ -e "$w/.envrc" ] && why="$why; .envrc not swept"
		pycheck 'd["exitCode"] is None and d["status"] != 0' <"$w.report" ||
			why="$why; report: $(cat "$w.report" 2>&1)"
		[ "$sig" = KILL ] || [ $rc -eq 143 ] || why="$why; exit $rc"
		[ -z "$why" ] || { echo "# $why"; sed 's/^/# /' "$tmp/err"; }
		ok "$([ -z "$why" ]; echo $?)" \
			"cordon mcp --sandbox --backend $b killed with SIG$sig: the run ends, is swept and reported, nothing left"
	done
done

# ---- cordon mcp, no sandbox ----------------------------------------------

for sig in TERM HUP INT KILL; do
	w=$scratch/plain-$sig
	mkdir -p "$w"
	srv "$w"
	(cd "$w" && exec "$bin" mcp --audit-log - --name o -- \
		sh "$w/srv.sh" <&7 >/dev/null 2>"$tmp/err") &
	gw=$!
	if ! started; then
		kill -KILL "$gw"
		ok 1 "cordon mcp: the server started"
		continue
	fi
	# the server itself, not its child in a session of its own
	left=$(pgrep -f "^sleep $tok\.1$")
	kids=$(pgrep -f "^sleep $tok\.2$")
	kill -"$sig" "$gw"
	wait "$gw" 2>/dev/null
	rc=$?
	gone 10
	g=$?
	for p in $kids; do kill -KILL "$p" 2>/dev/null; done
	why=""
	[ $g -eq 0 ] || why="left: $left"
	[ "$sig" = KILL ] || [ $rc -eq $((128 + $(kill -l $sig))) ] ||
		why="$why; exit $rc"
	[ -z "$why" ] || { echo "# $why"; sed 's/^/# /' "$tmp/err"; }
	ok "$([ -z "$why" ]; echo $?)" \
		"cordon mcp (no sandbox) killed with SIG$sig: the server is gone"
done

done_testing
