#!/usr/bin/env bash
# The audit relay (src/audit/relay.h): a door inside `cordon run` cannot
# write the audit log (its directory is read-only there), so it sends its
# records through the descriptor `cordon run` handed the command
# ($CORDON_AUDIT_FD), and the run appends them as event "nested". A
# stand-in door (tests/agents/relay_door.py) sends good, forged, garbage,
# oversized and descriptor-less messages from inside; cordon's own hook
# runs inside `cordon run --agent codex` (the reproduction of the bug:
# every call was denied with "the audit log cannot be written"); a door
# whose relay's other end is gone, or whose CORDON_AUDIT_FD names
# something else, denies.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "the sandbox tests run as root"
need python3
base=$(mktemp -d /var/tmp/cordon-relay.XXXXXX)
trap 'cleanup; rm -rf "$base"' EXIT
export HOME=$base/home XDG_CONFIG_HOME=$base/home/.config
export XDG_STATE_HOME=$base/home/.local/state
ws=$base/ws
mkdir -p "$HOME/.codex" "$ws" "$XDG_CONFIG_HOME"
cd "$ws" || exit 1
log=$XDG_STATE_HOME/cordon/audit.jsonl
door=$src/tests/agents/relay_door.py
ghp=ghp_Zq3Xw9Lk2Mn7Bv5Cx8Hj4Gf6Ds1Ap0Ty9Ur3

count() { # EVENT: records of EVENT in the log
	grep -c "\"event\":\"$1\"" "$log"
}

# ---- a stand-in door inside the sandbox -----------------------------------

run run -- python3 "$door" good forged rotated garbage big nofd good
[ $rc -eq 0 ] && [ "$(grep -c '^good ok$' "$tmp/out")" = 2 ]
ok $? "records from inside are acknowledged once they are in the host log"

grep -q '^forged refused: member "seq" belongs to the log' "$tmp/out" &&
	grep -q '^rotated refused: .*owns' "$tmp/out" &&
	grep -q '^garbage refused: ' "$tmp/out" &&
	grep -q "^big refused: over the relay's 128 KiB limit" "$tmp/out" &&
	grep -q '^nofd -$' "$tmp/out"
ok $? "forged, the log's own event, garbage and oversized are refused"

[ "$(count nested)" = 2 ] &&
	grep '"event":"nested"' "$log" | grep -q \
		'"inner_event":"decision","inner":{"decision":"allow","tool":"Bash","door":"relay-test"' &&
	! grep -q "$ghp" "$log"
ok $? "each good record is one nested record, marked and redacted"

[ "$(count nested_refused)" = 5 ] &&
	grep -q '"event":"nested_refused","reason":"member \\"seq\\" belongs to the log","bytes":40,"sha256":"' "$log" &&
	grep -q '"reason":"no reply descriptor"' "$log" &&
	grep -q '"reason":"over the relay.s 128 KiB limit (AUDIT_RELAY_MAX)","bytes":14338' "$log" &&
	! grep -q 'not json at all' "$log" &&
	grep -q '5 record(s) from inside the sandbox refused' "$tmp/err"
ok $? "each refusal is recorded (why, length, sha256, never the bytes) and counted on stderr"

# The refused records never landed as the run's own: the chain holds.
run audit verify
[ $rc -eq 0 ] && grep -q 'intact: 8 records' "$tmp/out"
ok $? "the log verifies: 2 nested, 5 refused, 1 run"

# By path: what a door whose launcher closed the descriptor uses.
before=$(count nested)
refused=$(count nested_refused)
run run -- python3 "$door" --path good forged garbage good
[ $rc -eq 0 ] && [ "$(grep -c '^good ok$' "$tmp/out")" = 2 ] &&
	grep -q '^forged refused: member "seq" belongs' "$tmp/out" &&
	grep -q '^garbage refused: ' "$tmp/out" &&
	[ "$(count nested)" = $((before + 2)) ] &&
	[ "$(count nested_refused)" = $((refused + 2)) ]
ok $? "by the socket path: recorded and refused the same way"

sock_dir=$(dirname "$log")/relay
run run -- sh -c 'd=$(dirname "$CORDON_AUDIT_SOCK"); echo "$CORDON_AUDIT_SOCK";
	rm -f "$CORDON_AUDIT_SOCK" 2>&1; touch "$d/x" 2>&1; ls -ld "$d"'
[ $rc -eq 0 ] && grep -Eq "^$sock_dir/[0-9a-f]{18}\$" "$tmp/out" &&
	grep -q 'rm: .*Read-only file system' "$tmp/out" &&
	grep -q 'touch: .*Read-only file system' "$tmp/out" &&
	grep -q '^drwx------ ' "$tmp/out" &&
	[ -z "$(ls -A "$sock_dir")" ]
ok $? "the socket is in a 0700 directory beside the log, read-only inside, removed after the run"

# The directory is kept from run to run; one that others may enter, or
# that is a symlink, is not used (the descriptor still is).
chmod 0711 "$sock_dir"
run run -- sh -c 'echo "sock=$CORDON_AUDIT_SOCK fd=$CORDON_AUDIT_FD"'
chmod 0700 "$sock_dir"
[ $rc -eq 0 ] && grep -Eq '^sock= fd=[0-9]+$' "$tmp/out"
ok $? "a relay directory others may enter is not used"
mv "$sock_dir" "$sock_dir.real" && ln -s "$sock_dir.real" "$sock_dir"
run run -- sh -c 'echo "sock=$CORDON_AUDIT_SOCK fd=$CORDON_AUDIT_FD"'
rm -f "$sock_dir" && mv "$sock_dir.real" "$sock_dir"
[ $rc -eq 0 ] && grep -Eq '^sock= fd=[0-9]+$' "$tmp/out" &&
	[ -z "$(ls -A "$sock_dir")" ]
ok $? "a relay directory that is a symlink is not used"

run run -- sh -c 'echo "$CORDON_AUDIT_FD"; ls /proc/self/fd'
[ $rc -eq 0 ] && fd=$(head -1 "$tmp/out") && [ "$fd" -gt 2 ] &&
	[ "$(sed 1d "$tmp/out" | grep -cv '^[012]$')" -le 2 ]
ok $? "the command gets stdio and the relay's descriptor (and ls's own), nothing else"

# The descriptor cordon names wins over one the caller set.
CORDON_AUDIT_FD=77 "$bin" run -- sh -c 'echo "$CORDON_AUDIT_FD"' \
	</dev/null >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" != 77 ]
ok $? "a caller's CORDON_AUDIT_FD does not reach the command"

# A run killed with SIGKILL cannot remove its socket: the next run does,
# when it is old and nobody listens on it, and nothing else there.
"$bin" run -- sh -c 'echo "$CORDON_AUDIT_SOCK" >'"$ws/killed"'; sleep 30' \
	</dev/null >/dev/null 2>&1 &
killed=$!
for _ in $(seq 100); do [ -s "$ws/killed" ] && break; sleep 0.1; done
kill -KILL "$killed"
wait "$killed" 2>/dev/null
stale=$(cat "$ws/killed")
[ -S "$stale" ]
ok $? "a run killed with SIGKILL leaves its relay socket (the case to clean)"
# beside it: a fresh stale one, one of another name, a symlink with a
# cordon name to an old socket elsewhere, a file with a cordon name
python3 -c 'import socket,sys
for p in sys.argv[1:]:
    socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET).bind(p)' \
	"$sock_dir/0123456789abcdef01" "$sock_dir/not-cordons" "$base/elsewhere"
ln -s "$base/elsewhere" "$sock_dir/fedcba9876543210fe"
: >"$sock_dir/00112233445566778a"
touch -h -m -d '2 minutes ago' "$stale" "$sock_dir/not-cordons" \
	"$base/elsewhere" "$sock_dir/fedcba9876543210fe" "$sock_dir/00112233445566778a"
# a live run whose socket is just as old
"$bin" run -- sh -c 'echo "$CORDON_AUDIT_SOCK" >'"$ws/live"'; sleep 5' \
	</dev/null >/dev/null 2>&1 &
livepid=$!
for _ in $(seq 100); do [ -s "$ws/live" ] && break; sleep 0.1; done
live=$(cat "$ws/live")
touch -m -d '2 minutes ago' "$live"
run run -- true
[ $rc -eq 0 ] && [ ! -e "$stale" ]
ok $? "the next run removes a killed run's socket"
[ -S "$live" ] && [ -S "$sock_dir/0123456789abcdef01" ] &&
	[ -S "$sock_dir/not-cordons" ] && [ -L "$sock_dir/fedcba9876543210fe" ] &&
	[ -S "$base/elsewhere" ] && [ -f "$sock_dir/00112233445566778a" ]
ok $? "and leaves a live run's, a fresh one, other names, a symlink and what it points to, a file"
wait "$livepid"
rm -f "$sock_dir"/* 2>/dev/null

# ---- cordon's own hook inside run --agent codex -----------------------------

"$bin" init codex --user >/dev/null
ev='{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"'$ws'","permission_mode":"bypassPermissions","session_id":"s","transcript_path":"/x","model":"m","turn_id":"t","tool_use_id":"u"}'
deny_ev='{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa"},"cwd":"'$ws'","permission_mode":"bypassPermissions","session_id":"s","transcript_path":"/x","model":"m","turn_id":"t","tool_use_id":"u"}'
# A sanitized build reserves terabytes of shadow memory at start-up, over
# any RLIMIT_AS the sandbox sets: its hook cannot start inside.
if ldd "$bin" 2>/dev/null | grep -q libasan; then
	skip "hook inside run --agent codex allows" "an ASan build cannot start under the sandbox's RLIMIT_AS (tests/unit/test_auditrelay covers the door)"
	skip "hook inside run --agent codex denies by policy" "ASan build"
else
	before=$(count nested)
	run run --agent codex --network host -- sh -c \
		"echo '$ev' | '$bin' hook codex; echo '$deny_ev' | '$bin' hook codex"
	[ $rc -eq 0 ] && ! grep -q 'audit log cannot be written' "$tmp/out" &&
		[ "$(count nested)" = $((before + 2)) ] &&
		grep '"event":"nested"' "$log" | grep -q \
			'"inner_event":"decision","inner":{.*"decision":"allow".*"door":"codex-hook"'
	ok $? "cordon hook codex inside run --agent codex decides, recorded as nested"
	grep -q '"permissionDecision":"deny".*denied path' "$tmp/out" &&
		grep '"event":"nested"' "$log" | grep -q '"decision":"deny".*"door":"codex-hook"'
	ok $? "and denies by policy, recorded as nested"
fi
run audit verify
[ $rc -eq 0 ] && grep -q 'intact' "$tmp/out"
ok $? "the log still verifies"

# ---- a door whose relay is gone, or is not a relay --------------------------

# Outside any sandbox, with a log that cannot be opened: XDG_STATE_HOME is
# a file.
: >"$base/statefile"
# with_fd KIND CMD...: CMD with CORDON_AUDIT_FD naming a socketpair end
# whose peer is closed (gone) or a pipe (pipe).
with_fd_py='
import os, socket, subprocess, sys
if sys.argv[1] == "gone":
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    b.close()
    fd = a.fileno()
else:
    fd = os.pipe()[1]
os.set_inheritable(fd, True)
env = dict(os.environ, CORDON_AUDIT_FD=str(fd))
sys.exit(subprocess.run(sys.argv[2:], pass_fds=[fd], env=env).returncode)
'
with_fd() {
	python3 -c "$with_fd_py" "$@"
}
printf '%s' "$ev" | XDG_STATE_HOME=$base/statefile with_fd gone \
	"$bin" hook codex >"$tmp/out" 2>"$tmp/err"
grep -q '"permissionDecision":"deny".*audit log cannot be written (audit relay: cannot reach the cordon run outside the sandbox' "$tmp/out"
ok $? "the door denies when the relay's other side is gone"
printf '%s' "$ev" | XDG_STATE_HOME=$base/statefile with_fd pipe \
	"$bin" hook codex >"$tmp/out" 2>"$tmp/err"
grep -q '"permissionDecision":"deny".*audit log cannot be written' "$tmp/out" &&
	! grep -q 'audit relay' "$tmp/out"
ok $? "a CORDON_AUDIT_FD that is not a SEQPACKET socket is not a relay: deny"

done_testing
