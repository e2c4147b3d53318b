#!/usr/bin/env bash
# cordon audit verify / show against logs written by an independent Python
# implementation of the record format (SHA-256 of each line's bytes up to
# the closing quote of "prev"): a cross-check of the format as documented,
# then every way of breaking the chain, rotation, the default file, and
# show's filters and terminal escaping.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/gen.py" <<'PY'
import hashlib, json, sys, datetime

def write_log(path, records, seq=1, prev="0" * 64, mode="w", rotated=False):
    """Writes records (each (event, fields dict)) chained from seq/prev,
    after a "rotated" record naming prev when rotated; returns (next seq,
    last hash)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    if rotated:
        records = [("rotated", {"previous_head": prev})] + list(records)
    with open(path, mode, encoding="utf-8") as f:
        for event, fields in records:
            t = now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            body = json.dumps(fields, separators=(",", ":"))[1:-1]
            line = ('{"v":1,"seq":%d,"time":"%s","host":"gen","pid":%d,'
                    '"event":"%s"' % (seq, t, 4242, event))
            if body:
                line += "," + body
            line += ',"prev":"%s"' % prev
            h = hashlib.sha256(line.encode()).hexdigest()
            f.write(line + ',"hash":"%s"}\n' % h)
            prev, seq = h, seq + 1
    return seq, prev

def decision(tool, decision, reason, kind="execute"):
    return ("decision", {"session": "s1", "tool": tool, "kind": kind,
                         "args": {}, "decision": decision, "step": "mode",
                         "reason": reason, "hard": decision == "deny",
                         "risk": None, "labels": [], "answer": None,
                         "answeredBy": None})

ten = [
    decision("Bash", "allow", "allowed: safe command"),
    decision("Bash", "deny", "blocked: deletes the root directory"),
    decision("Write", "ask", "needs approval: edits ask", "write"),
    ("run", {"session": "s1", "program": "ls", "backend": "namespaces",
             "enforcement": "full", "notEnforced": [], "exitCode": 0,
             "signal": None, "timedOut": False, "durationMs": 7}),
    ("proxy", {"target": "evil.example:443", "verdict": "deny",
               "reason": "not on the allow-list"}),
    ("mcp", {"server": "github", "mcpTool": "create_issue", "pin": "match"}),
    decision("Read", "allow", "allowed: a read", "read"),
    decision("Bash", "deny", "blocked: fork bomb"),
    decision("Bash", "ask", "needs approval: network"),
    decision("Bash", "allow", "allowed: \u001b[31mred\u001b[0m text"),
]

what, path = sys.argv[1], sys.argv[2]
if what == "ten":
    write_log(path, ten)
elif what == "rotated":
    seq, prev = write_log(path + ".2", ten[:4])
    seq, prev = write_log(path + ".1", ten[4:7], seq, prev, rotated=True)
    write_log(path, ten[7:], seq, prev, rotated=True)
elif what == "edited":
    # the ten with record 3 changed and every hash after it recomputed
    t = list(ten)
    t[2] = decision("Write", "allow", "allowed: edits", "write")
    write_log(path, t)
PY

gen() {
	python3 "$tmp/gen.py" "$@"
}

# lines FILE: sed-friendly edits on a copy
edit() {
	local src=$1 dst=$2
	shift 2
	sed "$@" "$src" >"$dst"
}

run audit --help
[ $rc -eq 0 ] && grep -q 'cordon audit verify' "$tmp/out" &&
	grep -q 'cordon audit show' "$tmp/out"
ok $? "audit --help: usage on stdout, exit 0"

run audit
[ $rc -eq 2 ]
ok $? "audit without a subcommand: exit 2"

run audit frobnicate
[ $rc -eq 2 ] && grep -q "unknown subcommand 'frobnicate'" "$tmp/err"
ok $? "audit with an unknown subcommand: exit 2, named"

run audit verify --bogus x.jsonl
[ $rc -eq 2 ] && grep -q "unknown option '--bogus'" "$tmp/err"
ok $? "verify: an unknown option is a usage error"

run audit verify --since 1h x.jsonl
[ $rc -eq 2 ]
ok $? "verify: show's options are not verify's"

log=$tmp/a.jsonl
gen ten "$log"

run audit verify "$log"
[ $rc -eq 0 ] && grep -q "a.jsonl: intact: 10 records in 1 file, head [0-9a-f]\{64\}" "$tmp/out"
ok $? "verify: a log written by another implementation is intact"

run audit verify --json "$log"
[ $rc -eq 0 ] && pycheck 'd["intact"] is True and d["records"] == 10 and d["files"] == 1 and d["line"] is None and len(d["head"]) == 64' <"$tmp/out"
ok $? "verify --json: the report"

edit "$log" "$tmp/b.jsonl" '4s/namespaces/namespacez/'
run audit verify "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:4: the record was changed: its hash does not match its content (a changed byte)" "$tmp/out"
ok $? "verify: a changed byte, at its line"

run audit verify --json "$tmp/b.jsonl"
[ $rc -eq 1 ] && pycheck 'd["intact"] is False and d["line"] == 4 and d["file"].endswith("b.jsonl") and "changed" in d["why"]' <"$tmp/out"
ok $? "verify --json: the first bad line"

edit "$log" "$tmp/b.jsonl" '5d'
run audit verify "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:5: a record was deleted before it (seq 6 where 5 was expected)" "$tmp/out"
ok $? "verify: a deleted record"

edit "$log" "$tmp/b.jsonl" '3{h;d};4G'
run audit verify "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:3: two records are swapped: this line holds seq 4 and seq 3 is at .*b.jsonl line 4" "$tmp/out"
ok $? "verify: two records swapped"

head -c -30 "$log" >"$tmp/b.jsonl"
run audit verify "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:10: the last line is cut: [0-9]* bytes without a newline" "$tmp/out"
ok $? "verify: a truncated last line"

edit "$log" "$tmp/b.jsonl" '6s/.*/{"v":1,"seq":6,/'
run audit verify "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:6: not an audit record" "$tmp/out"
ok $? "verify: a line that is not a record"

edit "$log" "$tmp/b.jsonl" '1d'
run audit verify "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:1: the log starts mid-chain at seq 2 .*its first records were deleted" "$tmp/out"
ok $? "verify: a log whose first record was deleted is broken"

run audit verify --allow-missing-start "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "starts mid-chain at seq 2" "$tmp/out"
ok $? "verify --allow-missing-start: a deleted first record is still a break"

run audit verify "$tmp/nope.jsonl"
[ $rc -eq 1 ] && grep -q "cannot open .*nope.jsonl" "$tmp/err"
ok $? "verify: a missing file is an error naming it"

mkdir -p "$tmp/rot"
gen rotated "$tmp/rot/audit.jsonl"
run audit verify "$tmp/rot/audit.jsonl"
[ $rc -eq 0 ] && grep -q "intact: 12 records in 3 files" "$tmp/out"
ok $? "verify: rotated files are found and checked oldest first"

run audit verify "$tmp/rot/audit.jsonl.2" "$tmp/rot/audit.jsonl.1" "$tmp/rot/audit.jsonl"
[ $rc -eq 0 ] && grep -q "intact: 12 records in 3 files" "$tmp/out"
ok $? "verify: files named in order"

run audit verify --allow-missing-start "$tmp/rot/audit.jsonl.1" "$tmp/rot/audit.jsonl.2" "$tmp/rot/audit.jsonl"
[ $rc -eq 1 ] && grep -q "audit.jsonl.2:1: this file does not follow" "$tmp/out"
ok $? "verify: files out of order"

mv "$tmp/rot/audit.jsonl.1" "$tmp/rot/kept"
run audit verify "$tmp/rot/audit.jsonl"
[ $rc -eq 1 ] && grep -q "rot/audit.jsonl:1: a file is missing from the middle of the rotation (.*audit.jsonl.1 is absent; seq 9 where 5 was expected)" "$tmp/out"
ok $? "verify: a file missing from the middle of the rotation"
mv "$tmp/rot/kept" "$tmp/rot/audit.jsonl.1"

# The oldest file rotated away: a break unless the caller expects it.
mv "$tmp/rot/audit.jsonl.2" "$tmp/rot/kept"
run audit verify "$tmp/rot/audit.jsonl"
[ $rc -eq 1 ] && grep -q "audit.jsonl.1:1: the oldest file present starts at seq 5 after a rotation.*--allow-missing-start" "$tmp/out"
ok $? "verify: the oldest file rotated away is a break by default"

run audit verify --allow-missing-start "$tmp/rot/audit.jsonl"
[ $rc -eq 0 ] && grep -q "intact: 8 records in 2 files" "$tmp/out" &&
	grep -q "note: the chain starts at seq 5 .*after a rotation" "$tmp/out"
ok $? "verify --allow-missing-start: a note"

edit "$tmp/rot/audit.jsonl.1" "$tmp/rot/b" '1d'
mv "$tmp/rot/b" "$tmp/rot/audit.jsonl.1"
run audit verify --allow-missing-start "$tmp/rot/audit.jsonl"
[ $rc -eq 1 ] && grep -q "audit.jsonl.1:1: the log starts mid-chain at seq 6" "$tmp/out"
ok $? "verify --allow-missing-start: the first line of the oldest file deleted is found"
rm -f "$tmp/rot/audit.jsonl"*
gen rotated "$tmp/rot/audit.jsonl"

# The head kept elsewhere.
run audit head "$log"
[ $rc -eq 0 ] && grep -qx '[0-9a-f]\{64\}' "$tmp/out"
ok $? "head: the last record's hash"
h=$(cat "$tmp/out")

run audit head --json "$log"
[ $rc -eq 0 ] && pycheck 'd["seq"] == 10 and d["records"] == 10 and len(d["head"]) == 64' <"$tmp/out"
ok $? "head --json: the head with its seq"

run audit verify --expect-head "$h" "$log"
[ $rc -eq 0 ] && grep -q "note: the expected head is seq 10; 0 records follow it" "$tmp/out"
ok $? "verify --expect-head: the same log"

head -n 8 "$log" >"$tmp/b.jsonl"
run audit verify "$tmp/b.jsonl"
[ $rc -eq 0 ]
ok $? "the last records cut: the chain alone cannot tell"

run audit verify --expect-head "$h" "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "the expected head $h is not the hash of any record" "$tmp/out"
ok $? "verify --expect-head: the last records cut are found"

gen edited "$tmp/b.jsonl"
run audit verify "$tmp/b.jsonl"
[ $rc -eq 0 ]
ok $? "an edit with every hash recomputed: the chain alone cannot tell"

run audit verify --expect-head "$h" "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "expected head" "$tmp/out"
ok $? "verify --expect-head: an edit with every hash recomputed is found"

run audit verify --expect-head nothex "$log"
[ $rc -eq 2 ] && grep -q "64" "$tmp/err"
ok $? "verify --expect-head: not a hash is a usage error"

edit "$log" "$tmp/b.jsonl" '4s/namespaces/namespacez/'
run audit head "$tmp/b.jsonl"
[ $rc -eq 1 ] && grep -q "b.jsonl:4:" "$tmp/out" && ! grep -qx "[0-9a-f]\{64\}" "$tmp/out"
ok $? "head: a broken log has no head"

run audit show --expect-head "$h" "$log"
[ $rc -eq 2 ]
ok $? "show: --expect-head is verify's"

# A key: the doors write HMAC records, verify needs the key.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$tmp/key"
chmod 600 "$tmp/key"
printf '{"audit": {"key_file": "%s"}}\n' "$tmp/key" >"$tmp/kcfg.json"
in_read='{"session_id":"s","cwd":"'"$tmp"'","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"'"$tmp"'/x"}}'
for i in 1 2 3; do
	printf '%s' "$in_read" | "$bin" hook claude --config "$tmp/kcfg.json" \
		--audit-log "$tmp/keyed.jsonl" >/dev/null 2>&1
done
grep -q '"hmac":"[0-9a-f]\{16\}","prev"' "$tmp/keyed.jsonl"
ok $? "audit.key_file: the hook writes keyed records"

run audit verify "$tmp/keyed.jsonl"
[ $rc -eq 1 ] && grep -q "keyed with HMAC-SHA-256 .*give the key" "$tmp/out"
ok $? "verify without the key: a break that asks for it"

run audit verify --config "$tmp/kcfg.json" "$tmp/keyed.jsonl"
[ $rc -eq 0 ] && grep -q "intact: 3 records" "$tmp/out"
ok $? "verify with audit.key_file: intact"

run audit verify --key-file "$tmp/key" "$tmp/keyed.jsonl"
[ $rc -eq 0 ]
ok $? "verify --key-file: intact"

run audit verify --key-file "$tmp/key" "$log"
[ $rc -eq 1 ] && grep -q "not keyed" "$tmp/out"
ok $? "verify --key-file: a log without MACs is a break"

chmod 644 "$tmp/key"
printf '%s' "$in_read" | "$bin" hook claude --config "$tmp/kcfg.json" \
	--audit-log "$tmp/keyed.jsonl" >"$tmp/out" 2>"$tmp/err"
! grep -q '"allow"' "$tmp/out" && grep -q "readable by others" "$tmp/err"
ok $? "a key others can read: the hook refuses to go on"
chmod 600 "$tmp/key"

# Files that are not the user's own regular file.
mkfifo "$tmp/fifo.jsonl"
printf '%s' "$in_read" | timeout 20 "$bin" hook claude \
	--audit-log "$tmp/fifo.jsonl" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 124 ] && ! grep -q '"allow"' "$tmp/out" && grep -q "not a regular file" "$tmp/err"
ok $? "a FIFO at the log path: refused at once, the call is not allowed"

run audit verify "$tmp/fifo.jsonl"
[ $rc -eq 1 ] && grep -q "not a regular file" "$tmp/err"
ok $? "verify: a FIFO is refused, not waited on"

ln -s "$log" "$tmp/link.jsonl"
printf '%s' "$in_read" | "$bin" hook claude --audit-log "$tmp/link.jsonl" \
	>"$tmp/out" 2>"$tmp/err"
! grep -q '"allow"' "$tmp/out" && grep -q "symbolic link" "$tmp/err"
ok $? "a symlinked log: refused"

printf '{"audit": {"rotate_keep": 1001}}\n' >"$tmp/kcfg2.json"
run audit verify --config "$tmp/kcfg2.json"
[ $rc -eq 2 ] && grep -q "audit.rotate_keep" "$tmp/err" && grep -q "1000" "$tmp/err"
ok $? "audit.rotate_keep over 1000: a config error naming the key and limit"

printf '{"audit": {"rotate_keep": 1000}}\n' >"$tmp/kcfg2.json"
printf '%s' "$in_read" | "$bin" hook claude --config "$tmp/kcfg2.json" \
	--audit-log "$tmp/k1000.jsonl" >"$tmp/out" 2>"$tmp/err"
grep -q '"allow"' "$tmp/out"
ok $? "audit.rotate_keep 1000: the doors open the log"

# The default file, and audit.path from the configuration.
run audit verify
[ $rc -eq 1 ] && grep -q "state/cordon/audit.jsonl" "$tmp/err"
ok $? "verify without FILE reads the default file under XDG_STATE_HOME"

mkdir -p "$XDG_STATE_HOME/cordon"
cp "$log" "$XDG_STATE_HOME/cordon/audit.jsonl"
run audit verify
[ $rc -eq 0 ] && grep -q "intact: 10 records" "$tmp/out"
ok $? "verify without FILE: the default file is intact"

head -n 9 "$log" >"$tmp/nine.jsonl"
printf '{"audit": {"path": "%s"}}\n' "$tmp/nine.jsonl" >"$tmp/cfg.json"
run audit verify --config "$tmp/cfg.json"
[ $rc -eq 0 ] && grep -q "nine.jsonl: intact: 9 records" "$tmp/out"
ok $? "verify without FILE follows audit.path"

# show
run audit show "$log"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 11 ] &&
	head -1 "$tmp/out" | grep -q '^TIME (UTC) *EVENT *DECISION *TOOL *REASON' &&
	grep -q '  decision   deny      Bash                  blocked: deletes the root directory$' "$tmp/out" &&
	grep -q '  run        -         ls                    exit 0 after 7 ms, enforcement full$' "$tmp/out" &&
	grep -q '  proxy      deny      -                     not on the allow-list$' "$tmp/out"
ok $? "show: a header and one row per record"

grep -q 'allowed: \\x1b\[31mred\\x1b\[0m text' "$tmp/out" && ! grep -q $'\x1b' "$tmp/out"
ok $? "show: control characters are escaped for the terminal"

run audit show --decision deny "$log"
[ $rc -eq 0 ] && [ "$(grep -c '  deny  ' "$tmp/out")" -eq 3 ] && [ "$(wc -l <"$tmp/out")" -eq 4 ] &&
	grep -q '  proxy      deny  ' "$tmp/out"
ok $? "show --decision deny: denied decisions and the proxy's denied connection"

run audit show --json --decision deny "$log"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	head -1 "$tmp/out" | pycheck 'd["decision"] == "deny" and d["seq"] == 2 and len(d["hash"]) == 64'
ok $? "show --json: the record lines themselves"

run audit show --json --event run "$log"
[ $rc -eq 0 ] && pycheck 'd["event"] == "run" and d["exitCode"] == 0' <"$tmp/out"
ok $? "show --event run"

run audit show --since 1h "$log"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 11 ]
ok $? "show --since 1h: records from the last hour"

run audit show --since 2999-01-01T00:00Z "$log"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ]
ok $? "show --since a future time: none"

run audit show --since 2000-01-01T00:00:00.5+02:00 --json "$log"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 10 ]
ok $? "show --since with fraction and offset"

run audit show --since yesterday "$log"
[ $rc -eq 2 ] && grep -q "neither a time" "$tmp/err"
ok $? "show --since: a bad value is a usage error"

run audit show --decision maybe "$log"
[ $rc -eq 2 ]
ok $? "show --decision: allow, deny or ask only"

run audit show --json "$tmp/rot/audit.jsonl"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 12 ] &&
	head -1 "$tmp/out" | pycheck 'd["seq"] == 1' &&
	tail -1 "$tmp/out" | pycheck 'd["seq"] == 12'
ok $? "show: rotated files first, oldest first"

edit "$log" "$tmp/b.jsonl" '6s/.*/garbage/'
run audit show "$tmp/b.jsonl"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 10 ] && grep -q "1 line is not an audit record" "$tmp/err"
ok $? "show: a line that is not a record is counted, not shown"

run audit show "$tmp/nope.jsonl"
[ $rc -eq 1 ]
ok $? "show: a missing file is an error"

done_testing
