#!/usr/bin/env bash
# `cordon doctor` against the built binary: a clean set-up is exit 0; each
# problem (a hook whose program is missing, relative or in a temporary
# directory, a settings file that is not JSON, a broken audit chain, MCP
# tools waiting for approval, an unusable approvals file) is exit 1 with
# the problem and its fix named; --json carries the same facts.
. "$(dirname "$0")/lib.sh"

ws=$tmp/ws
mkdir -p "$ws"
cd "$ws" || exit 1
log=$XDG_STATE_HOME/cordon/audit.jsonl

doctor() {
	run doctor --no-probe "$@"
}

# ---- clean ---------------------------------------------------------------

doctor
[ $rc -eq 0 ] && grep -q '^no problems found$' "$tmp/out" &&
	grep -q 'Cursor (cursor): cordon.s hook not installed' "$tmp/out" &&
	grep -q 'audit log: .*(no records yet)' "$tmp/out"
ok $? "a fresh home: no problems, exit 0"

doctor --json
[ $rc -eq 0 ] && pyjson 'd["ok"] and d["problems"] == [] and [a["name"] for a in d["agents"]] == ["claude", "gemini", "cursor", "copilot", "codex", "windsurf", "qwen", "kiro", "amp", "opencode", "cline"] and not any(a["installed"] for a in d["agents"]) and [b["name"] for b in d["backends"]] == ["namespaces", "landlock"] and "safety" in d["config"]["config"] and d["config"]["files"] == [] and d["audit"]["path"].endswith("/cordon/audit.jsonl") and d["approvals"]["rules"] == 0 and d["mcpPins"]["pendingCount"] == 0' <"$tmp/out"
ok $? "--json: agents, backends, config with sources, stores"

if [ "$(id -u)" = 0 ]; then
	run doctor --json
	[ $rc -eq 0 ] && pyjson 'd["bestBackend"] == "namespaces" and d["backends"][0]["works"] and d["backends"][0]["enforcement"] == "full" and "namespaces" in d["backends"][0]["enforces"]' <"$tmp/out"
	ok $? "the probe run now finds the namespaces backend, enforcement full"
else
	skip "backend probe" "needs root"
fi

# ---- the configuration's sources ---------------------------------------

printf '{"approvals": {"timeout_s": 30}}' >"$tmp/extra.json"
doctor --json --config "$tmp/extra.json"
[ $rc -eq 0 ] && pyjson 'any(f.endswith("extra.json") for f in d["config"]["files"]) and d["config"]["config"]["approvals"]["timeout_s"] == 30' <"$tmp/out"
ok $? "a --config file is named among the configuration's files"

printf '{"safety": {"bogus": 1}}' >"$tmp/bad.json"
doctor --config "$tmp/bad.json"
[ $rc -eq 2 ] && grep -q bogus "$tmp/err"
ok $? "a configuration that does not load exits 2 naming the key"

# ---- hooks ---------------------------------------------------------------

mkdir -p "$HOME/.claude"
printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "%s hook claude"}]}]}}\n' \
	"$bin" >"$HOME/.claude/settings.json"
doctor --json
pyjson '[f for a in d["agents"] if a["name"] == "claude" for f in a["files"] if f["scope"] == "user"][0]["hooks"][0]["binary"] == "'"$bin"'" and [a for a in d["agents"] if a["name"] == "claude"][0]["installed"]' <"$tmp/out"
ok $? "a Claude hook in the user settings is found, with its program"

printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/nonexistent/dir/cordon hook claude"}]}]}}\n' \
	>"$HOME/.claude/settings.json"
doctor
[ $rc -eq 1 ] && grep -q 'claude: the hook in .*/.claude/settings.json runs /nonexistent/dir/cordon: No such file' "$tmp/out" &&
	grep -q "fix: .*cordon init claude --user" "$tmp/out"
ok $? "a hook whose program is gone is a problem, with the init that fixes it"

cp "$bin" "$tmp/cordon-copy"
printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "%s hook claude"}]}]}}\n' \
	"$tmp/cordon-copy" >"$HOME/.claude/settings.json"
doctor --json
[ $rc -eq 1 ] && pyjson 'any(p["check"] == "claude" and "temporary directory" in p["problem"] for p in d["problems"])' <"$tmp/out"
ok $? "a hook program in a temporary directory is not stable"
rm -f "$HOME/.claude/settings.json" "$tmp/cordon-copy"

# Gemini's settings are JSONC: a commented-out hook does not count; a
# bare 'cordon' depends on the agent's PATH.
mkdir -p "$ws/.gemini"
cat >"$ws/.gemini/settings.json" <<'JSON'
{
  // "command": "/usr/bin/cordon hook gemini"
  "hooks": {"BeforeTool": [{"matcher": "*", "hooks": [
    {"name": "cordon", "type": "command", "command": "cordon hook gemini --mode auto"} /* here */
  ]}]}
}
JSON
doctor --json
[ $rc -eq 1 ] && pyjson '[f for a in d["agents"] if a["name"] == "gemini" for f in a["files"] if f["scope"] == "project"][0]["hooks"] == [{"command": "cordon hook gemini --mode auto", "binary": "cordon", "binaryOk": False, "why": [h for a in d["agents"] if a["name"] == "gemini" for f in a["files"] if f["scope"] == "project" for h in f["hooks"]][0]["why"]}] and any("not an absolute path" in p["problem"] for p in d["problems"])' <"$tmp/out"
ok $? "Gemini's JSONC is read without its comments; a bare 'cordon' is a problem"
rm -rf "$ws/.gemini"

mkdir -p "$ws/.cursor" "$ws/.github/hooks"
printf '{"version": 1, "hooks": {"beforeShellExecution": [{"command": "%s hook cursor"}]}}\n' "$bin" >"$ws/.cursor/hooks.json"
printf '{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "%s hook copilot", "timeoutSec": 30}]}}\n' "$bin" >"$ws/.github/hooks/cordon.json"
doctor --json
pyjson 'all([a for a in d["agents"] if a["name"] == n][0]["installed"] for n in ("cursor", "copilot"))' <"$tmp/out"
ok $? "Cursor's hooks.json and Copilot's .github/hooks/*.json are read"

printf '{"version": 1, "hooks": ' >"$ws/.cursor/hooks.json"
doctor
[ $rc -eq 1 ] && grep -q 'cursor: .*/.cursor/hooks.json: not valid JSON' "$tmp/out"
ok $? "a settings file that is not JSON is a problem naming it"
rm -rf "$ws/.cursor" "$ws/.github"

# ---- the audit log -------------------------------------------------------

for c in ls pwd whoami; do
	"$bin" check --tool Bash --args "{\"command\": \"$c\"}" </dev/null >/dev/null 2>&1
done
doctor --json
[ $rc -eq 0 ] && pyjson 'd["audit"]["exists"] and d["audit"]["intact"] and d["audit"]["records"] == 3' <"$tmp/out"
ok $? "an intact audit log: its records counted"

sed -i '2s/"decision":"[a-z]*"/"decision":"allow"/; 2s/"pid":[0-9]*/"pid":1/' "$log"
doctor
[ $rc -eq 1 ] && grep -q "audit: the audit log's chain is broken: .*audit.jsonl:2:" "$tmp/out" &&
	grep -q "fix: 'cordon audit verify .*audit.jsonl' shows where" "$tmp/out"
ok $? "an edited audit record is a problem naming the line"
rm -f "$log"

doctor --audit-log -
[ $rc -eq 1 ] && grep -q 'no audit log' "$tmp/out"
ok $? "no audit log at all is a problem"

# ---- MCP pins and approvals ----------------------------------------------

mkdir -p "$XDG_STATE_HOME/cordon"
python3 - "$XDG_STATE_HOME/cordon/mcp-pins.json" <<'PY'
import json, sys
now = "2025-01-01T00:00:00Z"
doc = {"version": 1, "servers": {"github": {"firstSeen": now, "tools": {
  "create_issue": {"state": "pending", "reason": "new", "flags": [], "sha256": None,
                   "definition": None, "firstSeen": now,
                   "pending": {"sha256": "d" * 64, "definition": {"name": "create_issue"}}}}}}}
json.dump(doc, open(sys.argv[1], "w"))
PY
doctor --json
[ $rc -eq 1 ] && pyjson 'd["mcpPins"]["pendingCount"] == 1 and d["mcpPins"]["pending"] == [{"server": "github", "tool": "create_issue"}] and any(p["check"] == "mcp-pins" and "pins approve" in p["fix"] for p in d["problems"])' <"$tmp/out"
ok $? "an MCP tool waiting for approval is a problem with the approve command"
rm -f "$XDG_STATE_HOME/cordon/mcp-pins.json"

printf '{"version": 2, "rules": []}' >"$XDG_CONFIG_HOME/cordon/approvals.json"
doctor
[ $rc -eq 1 ] && grep -q 'approvals: the approvals file' "$tmp/out" &&
	grep -q "fix: 'cordon approvals list'" "$tmp/out"
ok $? "an approvals file of another version is a problem"
printf '{"version": 1, "rules": [{"tool": "Bash", "decision": "allow", "command": "make"}]}' >"$XDG_CONFIG_HOME/cordon/approvals.json"
doctor --json
[ $rc -eq 0 ] && pyjson 'd["approvals"]["rules"] == 1 and not d["approvals"]["corrupt"]' <"$tmp/out"
ok $? "the approvals count"

# ---- usage ----------------------------------------------------------------

run doctor --bogus
[ $rc -eq 2 ] && grep -q -- --bogus "$tmp/err"
ok $? "an unknown option exits 2"

run doctor extra
[ $rc -eq 2 ]
ok $? "doctor takes no operand"

run doctor --help
[ $rc -eq 0 ] && grep -q 'exit status' "$tmp/out"
ok $? "--help"

done_testing
