#!/usr/bin/env bash
# `cordon approvals list|revoke|clear` against the built binary: what list
# shows (indexes, rules in force, warnings), that revoke and clear change
# what `cordon check` decides, and that a file cordon cannot read whole
# (corrupt, not a regular file) is refused and left untouched; a symlinked
# one is edited at its target and keeps its link, as grants are written.
. "$(dirname "$0")/lib.sh"

ap=$XDG_CONFIG_HOME/cordon/approvals.json
ws=$tmp/ws
mkdir -p "$ws"
cd "$ws" || exit 1

write_rules() {
	cat >"$ap" <<'JSON'
{"version": 1, "rules": [
  {"tool": "Bash", "decision": "allow", "commandPrefix": ["git", "push"],
   "match": ["git push origin main"], "not_match": ["git pull"]},
  {"tool": "Bash", "decision": "deny", "command": "make deploy"},
  {"tool": "Bash", "decision": "allow", "commandPrefix": ["npm", "test"],
   "match": ["yarn test"]},
  {"tool": "Write", "decision": "deny", "path": "/srv/x/.env"},
  {"tool": "mcp__github__create_issue", "decision": "allow"}
]}
JSON
}

decision() { # COMMAND: what cordon check decides for a Bash call
	"$bin" check --json --audit-log - --tool Bash \
		--args "{\"command\": \"$1\"}" </dev/null 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["decision"])'
}

# ---- list ---------------------------------------------------------------

run approvals list
[ $rc -eq 0 ] && grep -q "0 rules (no file yet)" "$tmp/out"
ok $? "list with no file: no rules, exit 0"

write_rules
run approvals list
[ $rc -eq 0 ] && grep -q '5 rules' "$tmp/out" &&
	grep -q '\[0\] allow Bash: commands starting git push$' "$tmp/out" &&
	grep -q "\[1\] deny  Bash: exactly 'make deploy'" "$tmp/out" &&
	grep -q '\[2\] allow Bash: commands starting npm test  (not in force)' "$tmp/out" &&
	grep -q '\[3\] deny  Write: the path /srv/x/.env' "$tmp/out" &&
	grep -q '\[4\] allow mcp__github__create_issue: every call' "$tmp/out" &&
	grep -q '^warning: .*rules\[2\]' "$tmp/out"
ok $? "list shows every rule by index, in words; one whose example fails is not in force"

run approvals list --json
[ $rc -eq 0 ] && pyjson 'd["path"].endswith("approvals.json") and d["usable"] and [r["index"] for r in d["rules"]] == [0, 1, 2, 3, 4] and [r["inForce"] for r in d["rules"]] == [True, True, False, True, True] and d["rules"][0]["commandPrefix"] == ["git", "push"] and len(d["warnings"]) == 1' <"$tmp/out"
ok $? "list --json: the rules as in the file, with index, inForce, covers"

# ---- revoke ------------------------------------------------------------

[ "$(decision 'git push origin main')" = allow ]
ok $? "before: the prefix rule allows git push"

run approvals revoke 0 3
[ $rc -eq 0 ] && grep -q '2 rules removed' "$tmp/out" &&
	pyjson '[r.get("command") or r.get("commandPrefix") or r.get("path") or r["tool"] for r in d["rules"]] == ["make deploy", ["npm", "test"], "mcp__github__create_issue"]' <"$ap"
ok $? "revoke 0 3 removes those two and keeps the others in order"

[ "$(decision 'git push origin main')" = ask ] &&
	[ "$(decision 'make deploy')" = deny ]
ok $? "after: git push asks again; the deny rule still holds"

[ "$(stat -c %a "$ap")" = 600 ]
ok $? "the rewritten file is 0600"

cp "$ap" "$tmp/before"
run approvals revoke 7
[ $rc -eq 2 ] && grep -q 'no rule 7 (the file has 3)' "$tmp/err" && cmp -s "$ap" "$tmp/before"
ok $? "revoke of an index the file does not have exits 2 and changes nothing"

run approvals revoke 1 9
[ $rc -eq 2 ] && cmp -s "$ap" "$tmp/before"
ok $? "one bad index among good ones: nothing is removed"

run approvals revoke
[ $rc -eq 2 ] && grep -q 'which rules' "$tmp/err"
ok $? "revoke without an index exits 2"

run approvals revoke -1
[ $rc -eq 2 ]
ok $? "revoke of a negative index exits 2"

run approvals revoke 1x
[ $rc -eq 2 ] && grep -q 'not an index' "$tmp/err"
ok $? "revoke of a word exits 2"

# ---- refusals: files cordon will not rewrite ---------------------------

printf '{"version": 1, "rules": [{"tool": "Bash", "decision": "deny", "comand": "rm"}]}\n' >"$ap"
cp "$ap" "$tmp/before"
run approvals clear
[ $rc -eq 2 ] && grep -q 'unknown key' "$tmp/err" && cmp -s "$ap" "$tmp/before"
ok $? "clear refuses a file of the wrong shape and leaves it as it is"

run approvals list
[ $rc -eq 1 ] && grep -q 'warning: ' "$tmp/out"
ok $? "list of an unusable file exits 1 with the warning"

write_rules
mv "$ap" "$tmp/real.json"
ln -s "$tmp/real.json" "$ap"
cp "$tmp/real.json" "$tmp/before"
run approvals clear
[ $rc -eq 0 ] && [ -L "$ap" ] && ! cmp -s "$tmp/real.json" "$tmp/before" &&
	! grep -q 'make deploy' "$tmp/real.json"
ok $? "a symlinked approvals file is cleared at its target and keeps its link"
rm -f "$ap"
ln -s "$tmp/nothing-here.json" "$ap"
run approvals clear
[ $rc -ne 0 ] && grep -q 'symbolic link to a missing file' "$tmp/err" && [ -L "$ap" ] && [ ! -e "$tmp/nothing-here.json" ]
ok $? "a dangling approvals link is refused and nothing is created"
rm -f "$ap"

mkfifo "$ap"
run approvals revoke 0
[ $rc -eq 2 ] && grep -q 'not a regular file' "$tmp/err"
ok $? "a FIFO in the file's place is refused without blocking"
rm -f "$ap"

# ---- clear -------------------------------------------------------------

write_rules
run approvals clear
[ $rc -eq 0 ] && grep -q '5 rules removed' "$tmp/out" &&
	pyjson 'd == {"version": 1, "rules": []}' <"$ap"
ok $? "clear empties the rules and keeps a valid file"

[ "$(decision 'make deploy')" = ask ]
ok $? "after clear, the old deny is gone"

rm -f "$ap"
run approvals clear
[ $rc -eq 0 ] && [ ! -e "$ap" ]
ok $? "clear with no file is a no-op"

# ---- the path --------------------------------------------------------

write_rules
cp "$ap" "$tmp/other.json"
run approvals revoke --file "$tmp/other.json" 4
[ $rc -eq 0 ] && pyjson 'len(d["rules"]) == 4' <"$tmp/other.json" &&
	pyjson 'len(d["rules"]) == 5' <"$ap"
ok $? "--file names another approvals file"

printf '{"approvals": {"path": "%s"}}' "$tmp/other.json" >"$tmp/cfg.json"
run approvals list --json --config "$tmp/cfg.json"
[ $rc -eq 0 ] && pyjson 'd["path"].endswith("other.json") and len(d["rules"]) == 4' <"$tmp/out"
ok $? "approvals.path of the configuration is the default file"

# ---- usage ----------------------------------------------------------

run approvals
[ $rc -eq 2 ]
ok $? "no subcommand exits 2"

run approvals frob
[ $rc -eq 2 ] && grep -q frob "$tmp/err"
ok $? "an unknown subcommand exits 2 naming it"

run approvals list extra
[ $rc -eq 2 ]
ok $? "list takes no operand"

run approvals clear --json
[ $rc -eq 2 ]
ok $? "--json is for list only"

run approvals --help
[ $rc -eq 0 ] && grep -q 'revoke INDEX' "$tmp/out"
ok $? "--help"

done_testing
