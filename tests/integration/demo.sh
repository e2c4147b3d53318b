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

rm -rf "$root"
done_testing
