#!/usr/bin/env bash
# cordon audit verify / show against logs written by an independent Python
# implementation of the record format (SHA-256 of each line's bytes up to
# the closing quote of "prev"): a cross-check of the format as documented,
# then every way of breaking the chain, rotation, the default file, and
# show's filters and terminal escaping.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/gen.py" <<'PY'
import hashlib, json, sys, datetime

def write_log(path, records, seq=1, prev="0" * 64, mode="w"):
    """Writes records (each (event, fields dict)) chained from seq/prev;
    returns (next seq, last hash)."""
    now = datetime.datetime.now(datetime.timezone.utc)
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
    seq, prev = write_log(path + ".1", ten[4:7], seq, prev)
    write_log(path, ten[7:], seq, prev)
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
[ $rc -eq 0 ] && grep -q "note: the chain starts at seq 2" "$tmp/out"
ok $? "verify: a chain that starts later is a note, not a break"

run audit verify "$tmp/nope.jsonl"
[ $rc -eq 1 ] && grep -q "cannot open .*nope.jsonl" "$tmp/err"
ok $? "verify: a missing file is an error naming it"

mkdir -p "$tmp/rot"
gen rotated "$tmp/rot/audit.jsonl"
run audit verify "$tmp/rot/audit.jsonl"
[ $rc -eq 0 ] && grep -q "intact: 10 records in 3 files" "$tmp/out"
ok $? "verify: rotated files are found and checked oldest first"

run audit verify "$tmp/rot/audit.jsonl.2" "$tmp/rot/audit.jsonl.1" "$tmp/rot/audit.jsonl"
[ $rc -eq 0 ] && grep -q "intact: 10 records in 3 files" "$tmp/out"
ok $? "verify: files named in order"

run audit verify "$tmp/rot/audit.jsonl.1" "$tmp/rot/audit.jsonl.2" "$tmp/rot/audit.jsonl"
[ $rc -eq 1 ] && grep -q "audit.jsonl.2:1: this file does not follow" "$tmp/out"
ok $? "verify: files out of order"

mv "$tmp/rot/audit.jsonl.1" "$tmp/rot/kept"
run audit verify "$tmp/rot/audit.jsonl"
[ $rc -eq 1 ] && grep -q "rot/audit.jsonl:1: a file is missing from the middle of the rotation (.*audit.jsonl.1 is absent; seq 8 where 5 was expected)" "$tmp/out"
ok $? "verify: a file missing from the middle of the rotation"
mv "$tmp/rot/kept" "$tmp/rot/audit.jsonl.1"

# The default file, and audit.path from the configuration.
run audit verify
[ $rc -eq 1 ] && grep -q "state/cordon/audit.jsonl" "$tmp/err"
ok $? "verify without FILE reads the default file under XDG_STATE_HOME"

mkdir -p "$XDG_STATE_HOME/cordon"
cp "$log" "$XDG_STATE_HOME/cordon/audit.jsonl"
run audit verify
[ $rc -eq 0 ] && grep -q "intact: 10 records" "$tmp/out"
ok $? "verify without FILE: the default file is intact"

printf '{"audit": {"path": "%s"}}\n' "$tmp/b.jsonl" >"$tmp/cfg.json"
run audit verify --config "$tmp/cfg.json"
[ $rc -eq 0 ] && grep -q "b.jsonl: intact: 9 records" "$tmp/out"
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
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 10 ] &&
	head -1 "$tmp/out" | pycheck 'd["seq"] == 1' &&
	tail -1 "$tmp/out" | pycheck 'd["seq"] == 10'
ok $? "show: rotated files first, oldest first"

edit "$log" "$tmp/b.jsonl" '6s/.*/garbage/'
run audit show "$tmp/b.jsonl"
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 10 ] && grep -q "1 line is not an audit record" "$tmp/err"
ok $? "show: a line that is not a record is counted, not shown"

run audit show "$tmp/nope.jsonl"
[ $rc -eq 1 ]
ok $? "show: a missing file is an error"

done_testing
