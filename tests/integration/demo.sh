#!/usr/bin/env bash
# `cordon demo`, the README's first command: it must pass, and what it
# claims must be true of what it leaves behind (run with --keep): the audit
# log verifies, holds every step, and has the token redacted.
. "$(dirname "$0")/lib.sh"

run demo --help
[ $rc -eq 0 ] && grep -q -- '--keep' "$tmp/out"
ok $? "demo --help"

run demo --bogus
[ $rc -eq 2 ]
ok $? "demo with an unknown option exits 2"

export TMPDIR=$tmp
run demo --keep
[ $rc -eq 0 ] && grep -q '^ok: 14 steps, 0 unexpected' "$tmp/out"
ok $? "demo passes every step"
cp "$tmp/out" "$tmp/demo.out"

root=$(sed -n 's/^kept //p' "$tmp/out")
log=$root/audit.jsonl
[ -s "$log" ]
ok $? "demo --keep leaves its audit log"

run audit verify "$log"
[ $rc -eq 0 ]
ok $? "the demo's audit log verifies with cordon audit verify"

grep -q 'REDACTED:github-pat' "$log" && ! grep -q 'ghp_Zx8Q' "$log"
ok $? "the token is redacted in the log"

python3 - "$log" <<'PY' 2>/dev/null
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
dec = [r for r in recs if r["event"] == "decision"]
runs = [r for r in recs if r["event"] == "run"]
assert len(dec) == 14, len(dec)
assert [r["decision"] for r in dec].count("deny") == 6
assert any(r.get("answeredBy") == "demo-script" for r in dec)
assert any(r.get("answeredBy") == "console" for r in dec)
assert any(r.get("step") == "session_grant" for r in dec)
assert len(runs) == 3 and all(r["enforcement"] for r in runs)
PY
ok $? "the log holds 14 decisions (6 denied, answers attributed, one by the console) and 3 runs"

grep -q 'card in the console: destructive rm -rf dist -> the demo clicks allow_session' "$tmp/demo.out"
ok $? "the demo's broker step shows the card in cordon console and answers it there"

grep -qE 'cannot create .*(Read-only file system|Permission denied|Directory nonexistent)' "$tmp/demo.out" &&
	grep -q 'network: refused' "$tmp/demo.out"
ok $? "the sandboxed script's escape attempts show the kernel's refusal"

! ls "$HOME"/.cordon-demo-probe-* >/dev/null 2>&1
ok $? "no probe file was left in the home directory"

grep -q "^cordon doctor on the demo's set-up:" "$tmp/demo.out" &&
	grep -q '^      doctor: no problems$' "$tmp/demo.out"
ok $? "the demo runs cordon doctor on its own set-up, which finds no problem"

"$bin" demo --json >"$tmp/demo.json" 2>"$tmp/demo.story"
rc=$?
[ $rc -eq 0 ] && pycheck 'd["ok"] and d["failures"] == 0 and d["doctorExit"] == 0 and len(d["steps"]) == 14 and all(s["ok"] for s in d["steps"]) and [s["decision"] for s in d["steps"]].count("deny") == 6 and d["steps"][0]["story"].startswith("overwrite the system") and {k: v for k, v in d["steps"][0].items() if k != "story"} == {"n": 1, "tool": "Write", "decision": "deny", "step": "denied_paths", "expected": "deny", "asked": False, "ok": True}' <"$tmp/demo.json" &&
	grep -q 'a deploy assistant at work' "$tmp/demo.story"
ok $? "demo --json: one JSON object on stdout, the story on stderr"

run demo --bogus
[ $rc -eq 2 ]
ok $? "demo with an unknown option exits 2"

rm -rf "$root"
done_testing
