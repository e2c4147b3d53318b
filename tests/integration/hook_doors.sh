#!/usr/bin/env bash
# `cordon hook cursor` and `cordon hook copilot` (cli/hook_door.c) against
# the built binary, and `cordon init cursor|copilot`.
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

unsubst() {
	sed -e "s|$XDG_CONFIG_HOME|@XDG@|g" -e "s|$ws|@WS@|g" \
		-e "s|$HOME|@HOME@|g"
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

for agent in cursor copilot; do
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

# ---- options ------------------------------------------------------------

hook cursor '{}' --bogus
[ $rc -eq 2 ] && grep -q -- '--bogus' "$tmp/err"
ok $? "an unknown option exits 2"

hook copilot '{}' --mode yolo
[ $rc -eq 2 ] && grep -q yolo "$tmp/err"
ok $? "a bad --mode exits 2"

"$bin" hook cursor --help >"$tmp/out"
[ $? -eq 0 ] && grep -q beforeShellExecution "$tmp/out"
ok $? "hook cursor --help"

done_testing
