#!/usr/bin/env bash
# `cordon hook claude` and `cordon hook gemini` against the built binary
# ($CORDON_BIN).
#
# The golden pairs in tests/cases/hook/AGENT/: NAME.in.json is the hook's
# stdin (@WS@ and @HOME@ stand for the workspace and the home directory),
# NAME.args (optional) holds extra options, NAME.out.json the exact answer
# expected on stdout (the same placeholders, and @XDG@ for
# $XDG_CONFIG_HOME); every call must exit 0. With CORDON_HOOK_REGEN=1 the
# .out.json files are rewritten from what the binary prints (review the
# diff). Then what a table cannot show: input over the 1 MiB limit, the
# audit records, an audit log or a configuration that fails, the
# approvals file, the project directory, and the options.
. "$(dirname "$0")/lib.sh"

golden=$src/tests/cases/hook
ws=$tmp/ws
log=$tmp/audit.jsonl
mkdir -p "$ws/src" "$HOME/.ssh"
printf 'SECRET=1\n' >"$ws/.env"
printf 'int main(void) { return 0; }\n' >"$ws/src/main.c"
unset CLAUDE_PROJECT_DIR GEMINI_PROJECT_DIR
cd "$ws" || exit 1

# subst FILE: the file with the placeholders filled in.
subst() {
	sed -e "s|@WS@|$ws|g" -e "s|@HOME@|$HOME|g" "$1"
}

# unsubst: stdin with the temporary paths turned back into placeholders.
# A sandbox rewrite's command (updatedInput, tool_input) must carry the
# input's command exactly, as base64 with its SHA-256 (checked here, else
# "@WRONG@"): both become @B64@ and @SHA@, and cordon's path @BIN@; the
# audit log's DEV:INO (--audit-sync) @LOGID@.
unsubst() {
	local text
	text=$(cat)
	case $text in
	*--command-b64*) ;;
	*)
		printf '%s\n' "$text" |
			sed -e "s|$bin|@BIN@|g" -e "s|$XDG_CONFIG_HOME|@XDG@|g" \
				-e "s|$ws|@WS@|g" -e "s|$HOME|@HOME@|g" \
				-e "s|$tmp|@TMP@|g"
		return
		;;
	esac
	text=${text//"--audit-sync '$(stat -c %d:%i "$log" 2>/dev/null)'"/"--audit-sync '@LOGID@'"}
	printf '%s\n' "$text" | python3 -c '
import base64, hashlib, json, re, sys
try:
    want = json.load(open(sys.argv[1]))["tool_input"]["command"]
except Exception:
    want = None
def fix(m):
    cmd = base64.b64decode(m.group(1), validate=True).decode("utf-8", "surrogateescape")
    ok = cmd == want and hashlib.sha256(base64.b64decode(m.group(1))).hexdigest() == m.group(2)
    return "--command-b64 @B64@ --command-sha256 @SHA@" if ok else "@WRONG@"
text = sys.stdin.read()
text = re.sub(r"--command-b64 ([A-Za-z0-9+/=]+) --command-sha256 ([0-9a-f]+)", fix, text)
sys.stdout.write(text)' "${1:-}" |
		sed -e "s|$bin|@BIN@|g" -e "s|$XDG_CONFIG_HOME|@XDG@|g" \
			-e "s|$ws|@WS@|g" -e "s|$HOME|@HOME@|g" \
			-e "s|$tmp|@TMP@|g"
}

# hook AGENT INPUT-TEXT ARGS...: runs the hook with the audit log in $log.
hook() {
	local agent=$1 text=$2
	shift 2
	printf '%s' "$text" |
		"$bin" hook "$agent" --audit-log "$log" "$@" >"$tmp/out" \
			2>"$tmp/err"
	rc=$?
}

# ---- the golden pairs ----------------------------------------------------

for agent in claude gemini; do
	for in in "$golden/$agent"/*.in.json; do
		name=${in##*/}
		name=${name%.in.json}
		out=${in%.in.json}.out.json
		args=()
		if [ -f "${in%.in.json}.args" ]; then
			read -r -a args <"${in%.in.json}.args"
		fi
		subst "$in" >"$tmp/in.json"
		hook "$agent" "$(cat "$tmp/in.json")" "${args[@]}"
		got=$(unsubst "$tmp/in.json" <"$tmp/out")
		if [ "${CORDON_HOOK_REGEN:-}" = 1 ]; then
			printf '%s\n' "$got" >"$out"
		fi
		[ $rc -eq 0 ] && [ -f "$out" ] && [ "$got" = "$(cat "$out")" ]
		ok $? "golden $agent/$name"
		if [ $rc -ne 0 ] || [ ! -f "$out" ] ||
			[ "$got" != "$(cat "$out")" ]; then
			echo "# expected: $(cat "$out" 2>/dev/null)"
		fi
	done
done

# Every golden answer is one line of JSON in the agent's exact shape.
python3 - "$golden" <<'EOF' >"$tmp/out" 2>"$tmp/err"
import glob, json, sys
bad = 0
for f in sorted(glob.glob(sys.argv[1] + "/claude/*.out.json")):
    d = json.load(open(f))
    h = d.get("hookSpecificOutput", {})
    keys = [k for k in h if k != "permissionDecision"]
    good = (list(d) == ["hookSpecificOutput"] and
            keys in (["hookEventName", "permissionDecisionReason"],
                     ["hookEventName", "permissionDecisionReason", "updatedInput"]) and
            h["hookEventName"] == "PreToolUse" and
            h.get("permissionDecision", "none") in ("allow", "deny", "ask", "none") and
            ("updatedInput" not in h or h.get("permissionDecision") != "deny"))
    if not good:
        print("# bad shape: " + f)
        bad = 1
for f in sorted(glob.glob(sys.argv[1] + "/gemini/*.out.json")):
    d = json.load(open(f))
    good = ([k for k in d if k != "decision"] in (["reason"], ["reason", "hookSpecificOutput"]) and
            d.get("decision", "none") in ("allow", "deny", "ask", "none") and
            ("hookSpecificOutput" not in d or
             (list(d["hookSpecificOutput"]) == ["hookEventName", "tool_input"] and
              d.get("decision") != "deny")))
    if not good:
        print("# bad shape: " + f)
        bad = 1
sys.exit(bad)
EOF
bad=$?
cat "$tmp/out"
ok $bad "every golden answer has the agent's shape (no rewrite on a deny)"

# ---- input limits --------------------------------------------------------

big=$(python3 -c '
import json
print(json.dumps({"session_id": "s", "cwd": "/", "hook_event_name": "PreToolUse",
    "tool_name": "Write", "tool_input": {"file_path": "/x", "content": "a" * (1 << 20)}}))')
hook claude "$big"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "over the limit of 1048576 bytes" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "input over 1 MiB: deny, naming the limit"
hook claude "$big" --fail-open
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "--fail-open" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "input over 1 MiB with --fail-open: allow, saying why"
hook gemini "$big"
[ $rc -eq 0 ] && pycheck 'd["decision"] == "deny" and "over the limit" in d["reason"]' <"$tmp/out"
ok $? "gemini: input over 1 MiB: deny"

# Just under the limit is read and decided (a big Write is still a Write).
near=$(python3 -c '
import json
print(json.dumps({"session_id": "s", "cwd": "'"$ws"'", "permission_mode": "acceptEdits",
    "hook_event_name": "PreToolUse", "tool_name": "Write",
    "tool_input": {"file_path": "'"$ws"'/big.txt", "content": "a" * 1000000}}))')
hook claude "$near"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "an edit in" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "input just under 1 MiB is read and decided"

# ---- the audit log -------------------------------------------------------

rm -f "$log"
in_bash='{"session_id":"sess-a","cwd":"'"$ws"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_A"}'
in_read='{"session_id":"sess-a","cwd":"'"$ws"'","permission_mode":"dontAsk","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"'"$ws"'/src/main.c"},"tool_use_id":"toolu_B"}'
in_ask='{"session_id":"sess-a","cwd":"'"$ws"'","permission_mode":"dontAsk","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_C"}'
in_gem='{"session_id":"g-1","cwd":"'"$ws"'","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}'
hook claude "$in_bash"
hook claude "$in_read"
hook claude "$in_ask"
hook claude '{'
hook gemini "$in_gem"
python3 - "$log" <<'EOF' 2>"$tmp/err" >"$tmp/out"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 5, len(recs)
a, b, c, m, g = recs
assert a["event"] == "decision" and a["door"] == "claude-hook", a
assert a["toolUseId"] == "toolu_A" and a["tool"] == "Bash", a
assert a["decision"] == "deny" and a["sent"] == "deny", a
assert a["session"] == "sess-a" and a["permissionMode"] == "default", a
assert b["decision"] == "allow" and b["sent"] == "allow", b
assert c["decision"] == "ask" and c["sent"] == "deny", c
assert m["event"] == "hook" and m["sent"] == "deny", m
assert "not valid JSON" in m["malformed"], m
assert g["door"] == "gemini-hook" and g["decision"] == "ask", g
assert g["sent"] == "none" and "toolUseId" not in g, g
assert g["sandboxed"] is True, g
EOF
ok $? "every call is audited: door, toolUseId, mode, what was sent"

# The Gemini MCP tool is judged and recorded as mcp__server__tool.
rm -f "$log"
hook gemini '{"session_id":"g","cwd":"'"$ws"'","hook_event_name":"BeforeTool","tool_name":"create_issue","tool_input":{},"mcp_context":{"server_name":"github","tool_name":"create_issue"}}' --mode auto
pycheck 'd["tool"] == "mcp__github__create_issue"' <"$log"
ok $? "gemini: an MCP tool is named mcp__server__tool from mcp_context"
printf '{"safety": {"denied_tools": ["mcp__github__create_issue"]}}\n' >"$tmp/deny-mcp.json"
hook gemini '{"session_id":"g","cwd":"'"$ws"'","hook_event_name":"BeforeTool","tool_name":"create_issue","tool_input":{},"mcp_context":{"server_name":"github","tool_name":"create_issue"}}' --mode auto --config "$tmp/deny-mcp.json"
[ $rc -eq 0 ] && pycheck 'd["decision"] == "deny" and "denied_tools" in d["reason"]' <"$tmp/out"
ok $? "gemini: denied_tools reaches an MCP tool named by mcp_context"

# A log that cannot be written refuses every call, even with --fail-open.
printf 'x' >"$tmp/file"
hook claude "$in_read" --audit-log "$tmp/file/sub/audit.jsonl"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "audit log cannot be written" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "an audit log that cannot be opened: deny with the reason"
hook claude '{' --fail-open --audit-log "$tmp/file/sub/audit.jsonl"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "an audit log that cannot be opened: --fail-open does not open the door"
hook gemini "$in_gem" --mode auto --audit-log "$tmp/file/sub/audit.jsonl"
[ $rc -eq 0 ] && pycheck 'd["decision"] == "deny" and "audit log" in d["reason"]' <"$tmp/out"
ok $? "gemini: an audit log that cannot be opened: deny"

# ---- configuration, approvals, workspace -------------------------------

printf '{"safety": {"no_such_key": 1}}\n' >"$tmp/bad.json"
hook claude "$in_read" --config "$tmp/bad.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "configuration did not load" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out" &&
	grep -q 'no_such_key' "$tmp/err"
ok $? "a configuration error: deny; the key is named on stderr"

mkdir -p "$XDG_CONFIG_HOME/cordon"
cat >"$XDG_CONFIG_HOME/cordon/approvals.json" <<'EOF'
{"version": 1, "rules": [
 {"tool": "Bash", "decision": "allow", "commandPrefix": ["npm", "test"]},
 {"tool": "Read", "decision": "deny", "path": "WSPATH/src/main.c"}]}
EOF
sed -i "s|WSPATH|$ws|" "$XDG_CONFIG_HOME/cordon/approvals.json"
hook claude '{"session_id":"s","cwd":"'"$ws"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"}}'
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "approvals_rule" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "an allow rule in the approvals file answers what would ask"
hook claude '{"session_id":"s","cwd":"'"$ws"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"'"$ws"'/src/main.c"}}'
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "refused this before" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "a deny rule in the approvals file refuses what would be allowed"
rm -f "$XDG_CONFIG_HOME/cordon/approvals.json"

# The project directory the agent names is the workspace: its
# .cordon/config.json applies, and paths outside it are outside.
proj=$tmp/proj
mkdir -p "$proj/.cordon"
printf '{"safety": {"denied_paths": ["**/secret-plans/**"]}}\n' >"$proj/.cordon/config.json"
in_plans='{"session_id":"s","cwd":"'"$proj"'/sub","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"'"$proj"'/secret-plans/a.md"}}'
CLAUDE_PROJECT_DIR=$proj hook claude "$in_plans"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "secret-plans" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "CLAUDE_PROJECT_DIR: the project's .cordon/config.json applies"
hook claude "$in_plans"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow"' <"$tmp/out"
ok $? "without it, the input's cwd is the workspace (no project file there)"
hook claude "$in_plans" --workspace "$proj"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "--workspace names the project"
GEMINI_PROJECT_DIR=$proj hook gemini '{"session_id":"s","cwd":"'"$proj"'","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"'"$proj"'/secret-plans/a.md"}}'
[ $rc -eq 0 ] && pycheck 'd["decision"] == "deny" and "secret-plans" in d["reason"]' <"$tmp/out"
ok $? "GEMINI_PROJECT_DIR: the project's .cordon/config.json applies"
in_edit='{"session_id":"s","cwd":"'"$proj"'","permission_mode":"acceptEdits","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"'"$ws"'/x.c","content":""}}'
CLAUDE_PROJECT_DIR=$proj hook claude "$in_edit"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "ask" and "outside the workspace" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "a write outside the project asks even in acceptEdits"

# --claude-settings: Claude Code's own permission rules apply too.
mkdir -p "$ws/.claude"
cat >"$ws/.claude/settings.json" <<'EOF'
{"permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(git push:*)", "Read(./secrets/**)"]},
 "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "cordon hook claude"}]}]}}
EOF
bash_call() {
	printf '{"session_id":"s","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$ws" "$1"
}
hook claude "$(bash_call 'git push origin main')" --claude-settings "$ws/.claude/settings.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "permissions.deny[0]" in d["hookSpecificOutput"]["permissionDecisionReason"] and "permission rules" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out" &&
	[ ! -s "$tmp/err" ]
ok $? "--claude-settings: a deny rule refuses, with its name; nothing on stderr"
hook claude "$(bash_call 'npm test')" --claude-settings "$ws/.claude/settings.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow"' <"$tmp/out"
ok $? "--claude-settings: an allow rule answers what would ask"

# PermissionRequest (Claude Code asks before its dialog): cordon's own
# rewrite is read back and the command inside judged; the same rules
# answer allow or deny, anything else leaves the dialog.
pr_call() {
	python3 -c '
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "permission_mode": "default",
    "hook_event_name": "PermissionRequest", "tool_name": "Bash",
    "tool_input": {"command": sys.argv[2]}}))' "$ws" "$1"
}
rewrite_of() {
	hook claude "$(bash_call "$1")" --claude-settings "$ws/.claude/settings.json" >/dev/null
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hookSpecificOutput"]["updatedInput"]["command"])' "$tmp/out"
}
rw=$(rewrite_of 'npm test')
hook claude "$(pr_call "$rw")" --claude-settings "$ws/.claude/settings.json"
[ $rc -eq 0 ] && pycheck 'd == {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}' <"$tmp/out"
ok $? "PermissionRequest: cordon's rewrite of an allowed command is read back and allowed"
rw=$(rewrite_of 'ls src')
printf '{"permissions": {"deny": ["Bash(ls:*)"]}}\n' >"$tmp/deny-ls.json"
hook claude "$(pr_call "$rw")" --claude-settings "$tmp/deny-ls.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["decision"]["behavior"] == "deny" and "Bash(ls:*)" in d["hookSpecificOutput"]["decision"]["message"]' <"$tmp/out"
ok $? "PermissionRequest: the command inside the rewrite meets the user's deny rule"
hook claude "$(pr_call "ls src; $rw")" --claude-settings "$ws/.claude/settings.json"
[ $rc -eq 0 ] && pycheck '"decision" not in d["hookSpecificOutput"]' <"$tmp/out"
ok $? "PermissionRequest: text around a rewrite is not read as cordon's own: judged as it stands (the dialog decides)"
hook claude "$(pr_call 'rm -rf /')"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["decision"]["behavior"] == "deny"' <"$tmp/out"
ok $? "PermissionRequest: a blocked command is denied"
hook claude "$(bash_call 'npm test')"
[ $rc -eq 0 ] && pycheck '"permissionDecision" not in d["hookSpecificOutput"] and "updatedInput" in d["hookSpecificOutput"]' <"$tmp/out"
ok $? "without --claude-settings the same call is left to Claude Code's own rules (mode-only ask), still sandboxed"
printf '{"permissions": {"allow": ["Bash(ls"]}}\n' >"$tmp/badperm.json"
hook claude "$(bash_call 'ls')" --claude-settings "$tmp/badperm.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "configuration did not load" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out" &&
	grep -q 'permissions.allow\[0\]' "$tmp/err"
ok $? "--claude-settings with a bad rule: deny; the rule is named on stderr"
hook claude "$(bash_call 'ls')" --claude-settings "$tmp/missing.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "--claude-settings with a missing file: deny"

# Several files merge as Claude Code merges its scopes: a deny in the user
# file survives the project file's lists, in either order; a "/path" rule
# keeps its own file's project root.
mkdir -p "$tmp/cc-user/.claude" "$tmp/cc-proj/.claude" "$tmp/cc-proj/docs"
printf '{"permissions": {"deny": ["Bash(rm:*)"]}}\n' >"$tmp/cc-user/.claude/settings.json"
printf '{"permissions": {"allow": ["Bash(ls:*)"], "deny": ["Read(/docs/**)"]}}\n' >"$tmp/cc-proj/.claude/settings.json"
for order in user-first proj-first; do
	if [ $order = user-first ]; then
		set -- "$tmp/cc-user/.claude/settings.json" "$tmp/cc-proj/.claude/settings.json"
	else
		set -- "$tmp/cc-proj/.claude/settings.json" "$tmp/cc-user/.claude/settings.json"
	fi
	hook claude "$(bash_call 'rm -f x')" --claude-settings "$1" --claude-settings "$2"
	[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "Bash(rm:*)" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
	ok $? "--claude-settings twice ($order): the user file's deny still refuses"
	hook claude "$(bash_call 'ls -la')" --claude-settings "$1" --claude-settings "$2"
	[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow"' <"$tmp/out"
	ok $? "--claude-settings twice ($order): the project file's allow still answers"
done
read_call='{"session_id":"s","cwd":"'"$ws"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"'"$tmp"'/cc-proj/docs/a.md"}}'
hook claude "$read_call" --claude-settings "$tmp/cc-user/.claude/settings.json" --claude-settings "$tmp/cc-proj/.claude/settings.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "--claude-settings twice: Read(/docs/**) is read under its own file's project root"

# With allowed_paths set, a shell command the agent runs itself cannot be
# trusted to stay inside (hooks.sandbox off: ask, step sandbox); rewritten
# to run in cordon's sandbox, the kernel holds its writes (no forced ask).
printf '{"safety": {"allowed_paths": ["<cwd>"]}, "hooks": {"sandbox": "off"}}\n' >"$tmp/allowed.json"
hook claude '{"session_id":"s","cwd":"'"$ws"'","permission_mode":"auto","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' --config "$tmp/allowed.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "ask" and "(step: sandbox)" in d["hookSpecificOutput"]["permissionDecisionReason"] and "updatedInput" not in d["hookSpecificOutput"] and "hooks.sandbox is off" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "allowed_paths, hooks.sandbox off: shell commands ask, since no sandbox enforces writes"
printf '{"safety": {"allowed_paths": ["<cwd>"]}}\n' >"$tmp/allowed.json"
hook claude '{"session_id":"s","cwd":"'"$ws"'","permission_mode":"auto","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' --config "$tmp/allowed.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "updatedInput" in d["hookSpecificOutput"] and "runs in cordon" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "allowed_paths, sandboxed: the sandbox enforces the writes, no forced ask"

# max_permission_mode clamps what the agent's mode asks for.
printf '{"safety": {"max_permission_mode": "auto-accept-edits"}}\n' >"$tmp/cap.json"
hook claude '{"session_id":"s","cwd":"'"$ws"'","permission_mode":"bypassPermissions","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}' --config "$tmp/cap.json"
[ $rc -eq 0 ] && pycheck '"permissionDecision" not in d["hookSpecificOutput"] and "needs approval" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "bypassPermissions is clamped by max_permission_mode"
hook gemini "$in_gem" --mode full-access --config "$tmp/cap.json"
[ $rc -eq 0 ] && pycheck '"decision" not in d and "needs approval" in d["reason"]' <"$tmp/out"
ok $? "gemini: --mode is clamped by max_permission_mode"

# The user's tool map wins over the hook's list of agent-internal tools.
printf '{"tools": {"TodoWrite": {"kind": "execute", "arg": "command"}}}\n' >"$tmp/todo.json"
hook claude "$(subst "$golden/claude/todowrite-allow.in.json")" --config "$tmp/todo.json"
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "command" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "a tools entry in the configuration overrides the built-in TodoWrite"

# ---- options -------------------------------------------------------------

run hook
[ $rc -eq 2 ] && grep -q "claude.*gemini" "$tmp/err"
ok $? "no agent: exit 2"
run hook frobnicator
[ $rc -eq 2 ] && grep -q "unknown agent" "$tmp/err"
ok $? "an unknown agent: exit 2"
run hook claude --mode yolo
[ $rc -eq 2 ] && grep -q -- "--mode" "$tmp/err"
ok $? "a bad --mode: exit 2"
run hook claude --frobnicate
[ $rc -eq 2 ]
ok $? "an unknown option: exit 2"
run hook claude --workspace relative/dir
[ $rc -eq 2 ]
ok $? "a relative --workspace: exit 2"
run hook --help
[ $rc -eq 0 ] && grep -q "PreToolUse" "$tmp/out" && grep -q "fail-open" "$tmp/out"
ok $? "--help"
run hook claude --help
[ $rc -eq 0 ] && grep -q "dontAsk" "$tmp/out"
ok $? "hook claude --help"

done_testing
