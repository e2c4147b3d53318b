#!/usr/bin/env bash
# `cordon hook cursor|copilot|codex|windsurf|qwen|kiro` (cli/hook_door.c)
# against the built binary, and `cordon init` for the same agents.
#
# Golden pairs in tests/cases/hook/cursor/ and copilot/, in the format of
# hook_cli.sh (NAME.in.json with @WS@ and @HOME@, NAME.args, NAME.out.json;
# CORDON_HOOK_REGEN=1 rewrites the answers). The inputs follow each agent's
# documented schema: Cursor's beforeShellExecution, beforeMCPExecution and
# beforeReadFile (common fields conversation_id, generation_id,
# workspace_roots, model, cursor_version, user_email), Copilot CLI's
# preToolUse {timestamp, cwd, toolName, toolArgs as JSON text}.
. "$(dirname "$0")/lib.sh"

golden=$src/tests/cases/hook
ws=$tmp/ws
log=$tmp/audit.jsonl
mkdir -p "$ws/src" "$HOME/.ssh"
printf 'SECRET=1\n' >"$ws/.env"
printf 'int main(void) { return 0; }\n' >"$ws/src/main.c"
unset CLAUDE_PROJECT_DIR GEMINI_PROJECT_DIR
cd "$ws" || exit 1

subst() {
	sed -e "s|@WS@|$ws|g" -e "s|@HOME@|$HOME|g" "$1"
}

# The audit log's DEV:INO in a rewrite (--audit-sync) becomes @LOGID@.
unsubst() {
	sed -e "s|$XDG_CONFIG_HOME|@XDG@|g" -e "s|$ws|@WS@|g" \
		-e "s|$HOME|@HOME@|g" -e "s|$bin|@BIN@|g" -e "s|$tmp|@TMP@|g" \
		-e "s|--audit-sync '$(stat -c %d:%i "$log" 2>/dev/null)'|--audit-sync '@LOGID@'|g"
}

hook() {
	local agent=$1 text=$2
	shift 2
	printf '%s' "$text" |
		"$bin" hook "$agent" --audit-log "$log" "$@" >"$tmp/out" \
			2>"$tmp/err"
	rc=$?
}

# ---- the golden pairs ----------------------------------------------------

for agent in cursor copilot codex qwen cline; do
	for in in "$golden/$agent"/*.in.json; do
		name=${in##*/}
		name=${name%.in.json}
		out=${in%.in.json}.out.json
		args=()
		if [ -f "${in%.in.json}.args" ]; then
			read -r -a args <"${in%.in.json}.args"
		fi
		hook "$agent" "$(subst "$in")" "${args[@]}"
		got=$(unsubst <"$tmp/out")
		if [ "${CORDON_HOOK_REGEN:-}" = 1 ]; then
			printf '%s\n' "$got" >"$out"
		fi
		[ $rc -eq 0 ] && [ -f "$out" ] && [ "$got" = "$(cat "$out")" ]
		ok $? "golden $agent/$name"
		if [ $rc -ne 0 ] || [ ! -f "$out" ] ||
			[ "$got" != "$(cat "$out")" ]; then
			echo "# got:      $got"
			echo "# expected: $(cat "$out" 2>/dev/null)"
		fi
	done
done

# Windsurf and Kiro CLI read no answer: exit 0 allows, exit 2 blocks with
# the reason on stderr. Their golden files hold {"exit": N, "stderr": "…"}.
for in in "$golden"/windsurf/*.in.json "$golden"/kiro/*.in.json; do
	agent=${in%/*}
	agent=${agent##*/}
	name=${in##*/}
	name=${name%.in.json}
	out=${in%.in.json}.out.json
	args=()
	if [ -f "${in%.in.json}.args" ]; then
		read -r -a args <"${in%.in.json}.args"
	fi
	hook "$agent" "$(subst "$in")" "${args[@]}"
	got=$(python3 -c 'import json,sys; print(json.dumps({"exit": int(sys.argv[1]), "stdout": open(sys.argv[2]).read(), "stderr": open(sys.argv[3]).read()}))' \
		"$rc" "$tmp/out" "$tmp/err" | unsubst)
	if [ "${CORDON_HOOK_REGEN:-}" = 1 ]; then
		printf '%s\n' "$got" >"$out"
	fi
	[ -f "$out" ] && [ "$got" = "$(cat "$out")" ]
	ok $? "golden $agent/$name"
	if [ ! -f "$out" ] || [ "$got" != "$(cat "$out")" ]; then
		echo "# got:      $got"
		echo "# expected: $(cat "$out" 2>/dev/null)"
	fi
done

# Every answer has the agent's exact shape: Cursor's read hook and
# Copilot never get ask (Copilot CLI acts on deny only, so an ask would
# run the call unasked).
bad=0
for out in "$golden"/cursor/*.out.json; do
	case $out in
	*/read-*) want='list(d) == ["permission"] and d["permission"] in ("allow", "deny")' ;;
	*) want='list(d) == ["permission", "user_message", "agent_message"] and d["permission"] in ("allow", "deny", "ask") and d["user_message"] == d["agent_message"]' ;;
	esac
	pycheck "$want" <"$out" || {
		echo "# bad shape: $out"
		bad=1
	}
done
for out in "$golden"/copilot/*.out.json; do
	pycheck 'list(d) == ["permissionDecision", "permissionDecisionReason"] and d["permissionDecision"] in ("allow", "deny")' <"$out" || {
		echo "# bad shape: $out"
		bad=1
	}
done
# Codex: allow is no output, or "allow" with updatedInput (the sandbox
# rewrite: its schema takes "allow" only with it); a refusal is Claude's
# hookSpecificOutput with deny and a non-empty reason (no ask).
for out in "$golden"/windsurf/*.out.json "$golden"/kiro/*.out.json; do
	pycheck 'd["stdout"] == "" and (d["exit"] == 0 and d["stderr"] == "" or d["exit"] == 2 and d["stderr"].startswith("cordon: "))' <"$out" || {
		echo "# bad shape: $out"
		bad=1
	}
done
for out in "$golden"/codex/*.out.json; do
	[ ! -s "$out" ] || [ "$(cat "$out")" = "" ] ||
		pycheck '(lambda h: list(d) == ["hookSpecificOutput"] and (list(h) == ["hookEventName", "permissionDecision", "permissionDecisionReason"] and h["permissionDecision"] == "deny" and h["permissionDecisionReason"] or list(h) == ["hookEventName", "permissionDecision", "updatedInput"] and h["permissionDecision"] == "allow" and " run " in h["updatedInput"]["command"] and "--command-sha256" in h["updatedInput"]["command"]))(d["hookSpecificOutput"])' <"$out" || {
		echo "# bad shape: $out"
		bad=1
	}
done
# Qwen Code: Claude's hookSpecificOutput, allow or deny (its PreToolUse
# blocks on ask without a dialog), always with a reason key.
for out in "$golden"/qwen/*.out.json; do
	pycheck 'list(d) == ["hookSpecificOutput"] and list(d["hookSpecificOutput"]) == ["hookEventName", "permissionDecision", "permissionDecisionReason"] and d["hookSpecificOutput"]["hookEventName"] == "PreToolUse" and d["hookSpecificOutput"]["permissionDecision"] in ("allow", "deny") and (d["hookSpecificOutput"]["permissionDecision"] == "allow" or d["hookSpecificOutput"]["permissionDecisionReason"])' <"$out" || {
		echo "# bad shape: $out"
		bad=1
	}
done
# Cline: {"cancel"} and, for a refusal, its reason in errorMessage; an
# allowed command says how it runs (contextModification); overrideInput
# only for the CLI's run_commands, rewritten into cordon run.
for out in "$golden"/cline/*.out.json; do
	pycheck 'set(d) <= {"cancel", "errorMessage", "contextModification", "overrideInput"} and isinstance(d["cancel"], bool) and (d["cancel"] and list(d) == ["cancel", "errorMessage"] and d["errorMessage"].startswith("cordon: ") or not d["cancel"] and "errorMessage" not in d) and ("overrideInput" not in d or list(d["overrideInput"]) == ["commands"] and len(d["overrideInput"]["commands"]) == 1 and " run " in d["overrideInput"]["commands"][0] and "--command-sha256" in d["overrideInput"]["commands"][0])' <"$out" || {
		echo "# bad shape: $out"
		bad=1
	}
done
ok $bad "every golden answer has the agent's shape"

# ---- the audit log names the real door ---------------------------------

: >"$log"
hook cursor "$(subst "$golden/cursor/shell-deny-rm-home.in.json")"
hook copilot "$(subst "$golden/copilot/malformed-toolargs-cut.in.json")"
pycheck 'd[0]["door"] == "cursor-hook" and d[0]["event"] == "decision" and d[0]["decision"] == "deny" and d[0]["tool"] == "Bash" and d[1]["door"] == "copilot-hook" and d[1]["event"] == "hook" and d[1]["sent"] == "deny" and "toolArgs" in d[1]["malformed"]' \
	< <(python3 -c 'import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])]))' "$log")
ok $? "the audit records name cursor-hook and copilot-hook, malformed input too"
"$bin" audit verify "$log" >/dev/null
ok $? "the doors' records keep the chain"

# The file content Cursor sends with beforeReadFile never reaches the log.
: >"$log"
hook cursor "$(subst "$golden/cursor/read-deny-env.in.json")"
! grep -q 'SECRET=1' "$log"
ok $? "beforeReadFile's content is not recorded"

# ---- failing closed ------------------------------------------------------

hook cursor "$(subst "$golden/cursor/shell-allow-auto.in.json")" --mode auto \
	--audit-log /proc/nonexistent/audit.jsonl
[ $rc -eq 0 ] && pycheck 'd["permission"] == "deny"' <"$tmp/out"
ok $? "an audit log that cannot be opened denies (cursor)"

printf '{"safety": {"bogus": 1}}' >"$tmp/bad.json"
hook copilot "$(subst "$golden/copilot/bash-allow-auto.in.json")" --mode auto \
	--config "$tmp/bad.json"
[ $rc -eq 0 ] && pycheck 'd["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "a configuration that does not load denies (copilot)"

head -c 1100000 /dev/zero | tr '\0' ' ' >"$tmp/big"
"$bin" hook cursor --audit-log "$log" <"$tmp/big" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && pycheck 'd["permission"] == "deny" and "limit" in d["agent_message"]' <"$tmp/out"
ok $? "input over 1 MiB is refused"

hook cursor '' 
[ $rc -eq 0 ] && pycheck 'd["permission"] == "deny"' <"$tmp/out"
ok $? "empty input is refused"

# A command rule of the user's config reaches these doors as every other.
printf '{"safety": {"command_rules": [{"prefix": ["make"], "decision": "allow"}]}}' >"$tmp/rules.json"
hook copilot '{"timestamp":1,"cwd":"'"$ws"'","toolName":"bash","toolArgs":"{\"command\":\"make test\"}"}' \
	--config "$tmp/rules.json"
[ $rc -eq 0 ] && pycheck 'd["permissionDecision"] == "allow"' <"$tmp/out"
ok $? "the user's command rules decide for copilot"

# --fail-open is for the agent's input: a call the door built that the
# Claude door cannot take (an argv over its 1 MiB once quoted) is refused.
python3 - "$ws" >"$tmp/big.json" <<'PY'
import json, sys
q = "'" * 60000
print(json.dumps({"hook_event_name": "PreToolUse", "cwd": sys.argv[1],
                  "tool_name": "exec_command",
                  "tool_input": {"command": ["bash", "-c", "rm -rf ~ #",
                                             q, q, q, q, q]}}))
PY
hook codex "$(cat "$tmp/big.json")" --fail-open
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "limit" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "--fail-open does not pass a converted call the Claude door cannot read"

# ---- options ------------------------------------------------------------

hook cursor '{}' --bogus
[ $rc -eq 2 ] && grep -q -- '--bogus' "$tmp/err"
ok $? "an unknown option exits 2"

hook copilot '{}' --mode yolo
[ $rc -eq 2 ] && grep -q yolo "$tmp/err"
ok $? "a bad --mode exits 2"

# One option parser for every agent (cli/hookopts.c): the doors take
# claude's options and refuse a bad value in the same words.
for agent in claude cursor codex; do
	hook "$agent" '{}' --sandbox sometimes
	printf '%s\n' "$rc" >>"$tmp/sbx-rc"
	grep -h -- "--sandbox: expected off, auto or strict, got 'sometimes'" "$tmp/err" >>"$tmp/sbx-err"
done
[ "$(sort -u "$tmp/sbx-rc")" = 2 ] && [ "$(sort -u "$tmp/sbx-err" | wc -l)" = 1 ] &&
	[ "$(wc -l <"$tmp/sbx-err")" = 3 ]
ok $? "claude, cursor and codex refuse a bad --sandbox alike"

hook codex "$(subst "$golden/codex/shell-deny-rm-home.in.json")" --sandbox off --no-rewrite \
	--claude-settings /dev/null
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "a door takes --sandbox, --no-rewrite and --claude-settings as claude does"

hook cursor '{}' --claude-scopes
[ $rc -eq 2 ] && grep -q "only for 'cordon hook claude'" "$tmp/err"
ok $? "--claude-scopes is refused for another agent, saying why"

run init cursor --sandbox
[ $rc -eq 2 ] && grep -q 'for claude and gemini' "$tmp/err"
ok $? "init: --sandbox is refused for a door whose entry carries no flag"

"$bin" hook cursor --help >"$tmp/out"
[ $? -eq 0 ] && grep -q beforeShellExecution "$tmp/out"
ok $? "hook cursor --help"

# ---- cordon init cursor|copilot ------------------------------------------

proj=$tmp/proj
mkdir -p "$proj/.cursor"
cd "$proj" || exit 1
cat >.cursor/hooks.json <<'JSON'
{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{"command": "./format.sh"}],
    "beforeShellExecution": [
      {"command": "./audit-shell.sh"},
      {"command": "/old/place/cordon hook cursor"}
    ]
  },
  "x-team": {"keep": [1, 2.5, "three"]}
}
JSON
cp .cursor/hooks.json "$tmp/orig.json"
run init cursor
[ $rc -eq 0 ] && pyjson 'd["version"] == 1 and d["x-team"] == {"keep": [1, 2.5, "three"]} and d["hooks"]["afterFileEdit"] == [{"command": "./format.sh"}] and d["hooks"]["beforeShellExecution"] == [{"command": "./audit-shell.sh"}, {"command": "'"$bin"' hook cursor"}] and d["hooks"]["beforeMCPExecution"] == [{"command": "'"$bin"' hook cursor"}] and d["hooks"]["beforeReadFile"] == [{"command": "'"$bin"' hook cursor"}]' <.cursor/hooks.json
ok $? "init cursor: the three events run this cordon; the old cordon's entry is replaced, the user's kept"
ls .cursor/hooks.json.bak-* >/dev/null 2>&1 && cmp -s .cursor/hooks.json.bak-* "$tmp/orig.json"
ok $? "init cursor keeps a copy of the file as it was"

cp .cursor/hooks.json "$tmp/after.json"
run init cursor
[ $rc -eq 0 ] && grep -q 'already there' "$tmp/out" && cmp -s .cursor/hooks.json "$tmp/after.json"
ok $? "init cursor again changes nothing"

"$bin" doctor --no-probe --json >"$tmp/doc.json" 2>/dev/null
pyjson '[a for a in d["agents"] if a["name"] == "cursor"][0]["installed"]' <"$tmp/doc.json"
ok $? "doctor sees the installed Cursor hook"

# The installed command, run as Cursor runs it, answers.
c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["beforeShellExecution"][1]["command"])' .cursor/hooks.json)
sed -e "s|@WS@|$proj|g" -e "s|@HOME@|$HOME|g" "$golden/cursor/shell-deny-rm-home.in.json" |
	sh -c "$c --audit-log -" >"$tmp/out" 2>"$tmp/err"
pycheck 'd["permission"] == "deny"' <"$tmp/out"
ok $? "the command init wrote answers Cursor's input"

run init cursor --remove
[ $rc -eq 0 ] && pyjson 'd["hooks"] == {"afterFileEdit": [{"command": "./format.sh"}], "beforeShellExecution": [{"command": "./audit-shell.sh"}]} and d["x-team"]["keep"][2] == "three"' <.cursor/hooks.json
ok $? "init cursor --remove takes out cordon's entries only"

run init cursor --remove
[ $rc -eq 0 ] && grep -q 'no cordon hook to remove' "$tmp/out"
ok $? "--remove with nothing to remove is a no-op"

printf '{"hooks": [1]}' >.cursor/hooks.json
run init cursor
[ $rc -eq 2 ] && grep -q '"hooks" is not an object' "$tmp/err" && [ "$(cat .cursor/hooks.json)" = '{"hooks": [1]}' ]
ok $? "a hooks.json of another shape is refused and left untouched"

printf '{"version": 1, "hooks": {' >.cursor/hooks.json
run init cursor
[ $rc -eq 2 ] && grep -q 'not valid JSON' "$tmp/err"
ok $? "a hooks.json that is not JSON is refused"

printf '{"hooks": {"beforeReadFile": {"command": "x"}}}' >.cursor/hooks.json
run init cursor
[ $rc -eq 2 ] && grep -q 'hooks.beforeReadFile is not an array' "$tmp/err"
ok $? "an event that is not a list is refused, naming it"

rm -f .cursor/hooks.json
mkfifo .cursor/hooks.json
run init cursor
[ $rc -eq 2 ] && grep -q 'not a regular file' "$tmp/err"
ok $? "a FIFO in the file's place is refused"
rm -f .cursor/hooks.json

run init cursor --dry-run
[ $rc -eq 0 ] && [ ! -e .cursor/hooks.json ] && grep -q '"beforeReadFile"' "$tmp/out"
ok $? "--dry-run prints the file and writes nothing"

run init cursor --user
[ $rc -eq 0 ] && pyjson 'len(d["hooks"]) == 3' <"$HOME/.cursor/hooks.json"
ok $? "init cursor --user writes ~/.cursor/hooks.json"

mkdir -p "$tmp/dotfiles"
printf '{"version": 1, "hooks": {}}' >"$tmp/dotfiles/hooks.json"
rm -f .cursor/hooks.json
ln -s "$tmp/dotfiles/hooks.json" .cursor/hooks.json
run init cursor
[ $rc -eq 0 ] && [ -L .cursor/hooks.json ] && pyjson 'len(d["hooks"]) == 3' <"$tmp/dotfiles/hooks.json"
ok $? "a symlinked hooks.json is edited where it points; the link stays"

run init copilot
[ $rc -eq 0 ] && pyjson 'd == {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "'"$bin"' hook copilot", "timeoutSec": 30}]}}' <.github/hooks/cordon.json
ok $? "init copilot writes .github/hooks/cordon.json with a preToolUse hook"

run init copilot --user
[ $rc -eq 2 ] && grep -q 'repository only' "$tmp/err"
ok $? "init copilot --user is refused: Copilot CLI reads the repository's hooks"

run init copilot --remove
[ $rc -eq 0 ] && pyjson 'd["hooks"] == {}' <.github/hooks/cordon.json
ok $? "init copilot --remove"

mkdir -p "$HOME/.codex"
cat >"$HOME/.codex/hooks.json" <<'JSON'
{"hooks": {"PreToolUse": [
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint-shell"},
                                {"type": "command", "command": "/gone/cordon hook codex"}]}
], "Stop": [{"hooks": [{"type": "command", "command": "./notify"}]}]}}
JSON
run init codex --user
[ $rc -eq 0 ] && pyjson '(g := d["hooks"]["PreToolUse"]) and g[0] == {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint-shell"}]} and g[1] == {"matcher": "*", "hooks": [{"type": "command", "command": "'"$bin"' hook codex"}]} and d["hooks"]["Stop"][0]["hooks"][0]["command"] == "./notify"' <"$HOME/.codex/hooks.json"
ok $? "init codex --user: a PreToolUse group running this cordon; the old cordon's hook out, the user's in"

"$bin" doctor --no-probe --json >"$tmp/doc.json" 2>/dev/null
pyjson '[a for a in d["agents"] if a["name"] == "codex"][0]["installed"]' <"$tmp/doc.json"
ok $? "doctor sees the installed Codex hook"

run init codex --user --remove
[ $rc -eq 0 ] && pyjson 'd["hooks"]["PreToolUse"] == [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint-shell"}]}]' <"$HOME/.codex/hooks.json"
ok $? "init codex --remove leaves the user's groups"

run init windsurf
[ $rc -eq 0 ] && pyjson '"version" not in d and sorted(d["hooks"]) == ["pre_mcp_tool_use", "pre_read_code", "pre_run_command", "pre_write_code"] and d["hooks"]["pre_run_command"] == [{"command": "'"$bin"' hook windsurf"}]' <.windsurf/hooks.json
ok $? "init windsurf: the four pre_ hooks in .windsurf/hooks.json"

run init windsurf --remove
[ $rc -eq 0 ] && pyjson 'd == {"hooks": {}}' <.windsurf/hooks.json
ok $? "init windsurf --remove"

# Qwen Code: Claude's matcher groups in .qwen/settings.json, every other
# setting kept.
mkdir -p .qwen
cat >.qwen/settings.json <<'JSON'
{"model": {"name": "qwen3-coder-plus"}, "hooks": {"PreToolUse": [
  {"matcher": "^WriteFile$", "hooks": [{"type": "command", "command": "./check-write", "timeout": 10000}]},
  {"matcher": "*", "hooks": [{"type": "command", "command": "/moved/cordon hook qwen"}]}
], "SessionStart": [{"hooks": [{"type": "command", "command": "./hello"}]}]}, "disableAllHooks": false}
JSON
cp .qwen/settings.json "$tmp/qwen-orig.json"
run init qwen
[ $rc -eq 0 ] && pyjson 'd["model"] == {"name": "qwen3-coder-plus"} and d["disableAllHooks"] is False and "version" not in d and d["hooks"]["PreToolUse"] == [{"matcher": "^WriteFile$", "hooks": [{"type": "command", "command": "./check-write", "timeout": 10000}]}, {"matcher": "*", "hooks": [{"type": "command", "command": "'"$bin"' hook qwen"}]}] and d["hooks"]["SessionStart"][0]["hooks"][0]["command"] == "./hello"' <.qwen/settings.json
ok $? "init qwen: one PreToolUse group running this cordon; the moved cordon out, the user's settings and hooks in"
ls .qwen/settings.json.bak-* >/dev/null 2>&1 && cmp -s .qwen/settings.json.bak-* "$tmp/qwen-orig.json"
ok $? "init qwen keeps a copy of the settings as they were"

# The installed command, run as Qwen runs it, answers in Qwen's shape.
c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][1]["hooks"][0]["command"])' .qwen/settings.json)
sed -e "s|@WS@|$proj|g" -e "s|@HOME@|$HOME|g" "$golden/qwen/shell-deny-rm-home.in.json" |
	sh -c "$c --audit-log -" >"$tmp/out" 2>"$tmp/err"
pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "the command init qwen wrote answers Qwen's input"

"$bin" doctor --no-probe --json >"$tmp/doc.json" 2>/dev/null
pyjson '[a for a in d["agents"] if a["name"] == "qwen"][0]["installed"] and not [a for a in d["agents"] if a["name"] == "amp"][0]["hookDoor"] and "cordon run" in [a for a in d["agents"] if a["name"] == "opencode"][0]["sandbox"]' <"$tmp/doc.json"
ok $? "doctor sees the Qwen hook, and says what to do for the agents without a door"

run init qwen --remove
[ $rc -eq 0 ] && pyjson 'd["hooks"]["PreToolUse"] == [{"matcher": "^WriteFile$", "hooks": [{"type": "command", "command": "./check-write", "timeout": 10000}]}] and d["model"]["name"] == "qwen3-coder-plus"' <.qwen/settings.json
ok $? "init qwen --remove leaves the user's groups and settings"

printf '{"hooks": {"PreToolUse": {"matcher": "*"}}}' >.qwen/settings.json
run init qwen
[ $rc -eq 2 ] && grep -q 'hooks.PreToolUse is not an array' "$tmp/err" && [ "$(cat .qwen/settings.json)" = '{"hooks": {"PreToolUse": {"matcher": "*"}}}' ]
ok $? "init qwen refuses a PreToolUse of another shape, file untouched"

printf '{\n  // a comment\n  "hooks": {}\n}\n' >.qwen/settings.json
cp .qwen/settings.json "$tmp/qwen-c.json"
run init qwen
[ $rc -eq 2 ] && grep -q 'not valid JSON' "$tmp/err" && cmp -s .qwen/settings.json "$tmp/qwen-c.json"
ok $? "init qwen refuses settings with comments rather than drop them"

rm -f .qwen/settings.json
mkfifo .qwen/settings.json
run init qwen
[ $rc -eq 2 ] && grep -q 'not a regular file' "$tmp/err"
ok $? "init qwen refuses a FIFO in the settings' place"
rm -f .qwen/settings.json

run init qwen --user
[ $rc -eq 0 ] && pyjson 'd == {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "'"$bin"' hook qwen"}]}]}}' <"$HOME/.qwen/settings.json"
ok $? "init qwen --user writes ~/.qwen/settings.json"

# Kiro CLI: hooks belong to an agent. A new agent file gets every tool
# (an agent without "tools" has none); an existing one keeps its own.
run init kiro
[ $rc -eq 0 ] && pyjson 'd["name"] == "cordon" and d["tools"] == ["*"] and d["hooks"] == {"preToolUse": [{"command": "'"$bin"' hook kiro"}]}' <.kiro/agents/cordon.json
ok $? "init kiro makes .kiro/agents/cordon.json with every tool and the preToolUse hook"

mkdir -p .kiro/agents
cat >.kiro/agents/dev.json <<'JSON'
{"name": "dev", "tools": ["read", "shell"], "allowedTools": ["read"],
 "hooks": {"preToolUse": [{"matcher": "shell", "command": "./audit.sh"}, {"command": "/old/cordon hook kiro"}],
           "agentSpawn": [{"command": "git status"}]}}
JSON
run init kiro --settings .kiro/agents/dev.json
[ $rc -eq 0 ] && pyjson 'd["tools"] == ["read", "shell"] and d["allowedTools"] == ["read"] and d["hooks"]["preToolUse"] == [{"matcher": "shell", "command": "./audit.sh"}, {"command": "'"$bin"' hook kiro"}] and d["hooks"]["agentSpawn"] == [{"command": "git status"}]' <.kiro/agents/dev.json
ok $? "init kiro --settings AGENT.json: the old cordon replaced, the agent's tools and hooks kept"

"$bin" doctor --no-probe --json >"$tmp/doc.json" 2>/dev/null
pyjson '[a for a in d["agents"] if a["name"] == "kiro"][0]["installed"]' <"$tmp/doc.json"
ok $? "doctor sees the Kiro hook in the agents directory"

run init kiro --settings .kiro/agents/dev.json --remove
[ $rc -eq 0 ] && pyjson 'd["hooks"] == {"preToolUse": [{"matcher": "shell", "command": "./audit.sh"}], "agentSpawn": [{"command": "git status"}]}' <.kiro/agents/dev.json
ok $? "init kiro --remove takes out cordon's entry only"

rm -f "$HOME/.kiro/agents/cordon.json"
run init kiro --user --remove
[ $rc -eq 0 ] && grep -q 'no cordon hook to remove' "$tmp/out" && [ ! -e "$HOME/.kiro/agents/cordon.json" ]
ok $? "init kiro --remove with no agent file makes none"

printf '["not", "an", "agent"]' >.kiro/agents/bad.json
run init kiro --settings .kiro/agents/bad.json
[ $rc -eq 2 ] && grep -q 'top level is not an object' "$tmp/err"
ok $? "init kiro refuses an agent file that is not an object"

# Both doors record under their own names.
: >"$log"
hook qwen "$(subst "$golden/qwen/shell-deny-rm-home.in.json")"
hook kiro "$(subst "$golden/kiro/malformed-no-command.in.json")"
pycheck 'd[0]["door"] == "qwen-hook" and d[0]["decision"] == "deny" and d[0]["tool"] == "Bash" and d[1]["door"] == "kiro-hook" and d[1]["sent"] == "deny"' \
	< <(python3 -c 'import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])]))' "$log")
ok $? "the audit records name qwen-hook and kiro-hook"

# Cline: an executable hook file of its own, read by the VS Code
# extension and the CLI alike.
run init cline
f=.clinerules/hooks/PreToolUse
[ $rc -eq 0 ] && [ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %a "$f")" = 755 ] &&
	head -1 "$f" | grep -qx '#!/bin/sh' && grep -qF "$bin hook cline" "$f"
ok $? "init cline writes .clinerules/hooks/PreToolUse, executable, running this cordon"

cp "$f" "$tmp/cline-hook"
run init cline
[ $rc -eq 0 ] && grep -q 'already there' "$tmp/out" && cmp -s "$f" "$tmp/cline-hook"
ok $? "init cline again changes nothing"

# The file, run as Cline runs it (JSON on stdin, the answer on stdout).
sed -e "s|@WS@|$proj|g" -e "s|@HOME@|$HOME|g" "$golden/cline/ext-shell-deny-rm-home.in.json" |
	"$f" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && pycheck 'd["cancel"] is True and "deletes recursively" in d["errorMessage"]' <"$tmp/out"
ok $? "the hook file init cline wrote answers Cline's input"

# A cordon that is gone, or answers nothing, still refuses: Cline lets a
# call run when its hook fails.
sed "s|$bin hook cline|$tmp/gone/cordon hook cline|" "$tmp/cline-hook" >"$tmp/cline-gone"
chmod 755 "$tmp/cline-gone"
sed -e "s|@WS@|$proj|g" -e "s|@HOME@|$HOME|g" "$golden/cline/ext-read-allow-source.in.json" |
	"$tmp/cline-gone" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && pycheck 'd["cancel"] is True and "did not run" in d["errorMessage"]' <"$tmp/out"
ok $? "the hook file refuses the call when its cordon is missing"

"$bin" doctor --no-probe --json >"$tmp/doc.json" 2>/dev/null
pyjson '(a := [a for a in d["agents"] if a["name"] == "cline"][0]) and a["hookDoor"] and a["installed"] and "overrideInput" in a["sandbox"]' <"$tmp/doc.json"
ok $? "doctor sees the Cline hook file"

run init cline --remove
[ $rc -eq 0 ] && [ ! -e "$f" ] && [ ! -e .clinerules ]
ok $? "init cline --remove deletes the file and the directories init made"

mkdir -p .clinerules/hooks
printf 'rules\n' >.clinerules/style.md
run init cline
run init cline --remove
[ $rc -eq 0 ] && [ ! -e .clinerules/hooks ] && [ "$(cat .clinerules/style.md)" = rules ]
ok $? "init cline --remove keeps a .clinerules that holds the user's rules"

mkdir -p .clinerules/hooks
printf '#!/bin/sh\necho {}\n' >"$f"
cp "$f" "$tmp/foreign"
run init cline
[ $rc -eq 2 ] && grep -q 'cordon did not write' "$tmp/err" && cmp -s "$f" "$tmp/foreign"
ok $? "init cline refuses to overwrite a hook file it did not write"
run init cline --remove
[ $rc -eq 0 ] && cmp -s "$f" "$tmp/foreign"
ok $? "init cline --remove leaves a foreign hook file alone"
rm -f "$f"
ln -s "$tmp/foreign" "$f"
run init cline
[ $rc -eq 2 ] && grep -q 'symbolic link' "$tmp/err" && [ -L "$f" ]
ok $? "init cline refuses a symlink in the hook file's place"
rm -rf .clinerules

run init cline --user
[ $rc -eq 0 ] && [ -x "$HOME/Documents/Cline/Hooks/PreToolUse" ]
ok $? "init cline --user writes ~/Documents/Cline/Hooks/PreToolUse"
run init cline --user --remove
[ $rc -eq 0 ] && [ ! -e "$HOME/Documents/Cline" ]
ok $? "init cline --user --remove"

: >"$log"
hook cline "$(subst "$golden/cline/ext-shell-deny-rm-home.in.json")"
hook cline "$(subst "$golden/cline/malformed-event.in.json")"
pycheck 'd[0]["door"] == "cline-hook" and d[0]["decision"] == "deny" and d[0]["tool"] == "Bash" and d[1]["door"] == "cline-hook" and d[1]["sent"] == "deny"' \
	< <(python3 -c 'import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])]))' "$log")
ok $? "the audit records name cline-hook"

run init cursor --bogus
[ $rc -eq 2 ]
ok $? "init cursor with an unknown option exits 2"

run hook frob
[ $rc -eq 2 ] && grep -q 'expected claude, gemini, cursor, copilot, codex, windsurf, qwen, kiro or cline' "$tmp/err"
ok $? "an unknown agent names the nine doors"

done_testing
