#!/usr/bin/env bash
# The real agents against cordon, offline: Claude Code (`claude -p`),
# Gemini CLI (`gemini -p`) and the Cline CLI (`cline`, with an
# OpenAI-compatible provider: tests/agents/mock_openai_chat.py) talk to a
# mock of the model API on loopback (tests/agents/mock_model.py) that asks
# for one shell call; the agent runs
# its real hook code, which runs `cordon hook` as `cordon init` installs
# it, and then runs the command cordon rewrote. The command writes inside the
# workspace and outside it: the kernel refuses the write outside (the file
# untouched) and the one inside lands. Skips without the npm package
# (scripts/install-deps) or without root (the sandbox's namespaces).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for the sandbox"
need_npm
need python3
has_claude=0 has_gemini=0 has_cline=0
[ -d "$npm_dir/node_modules/@anthropic-ai/claude-code" ] &&
	command -v claude >/dev/null && has_claude=1
[ -d "$npm_dir/node_modules/@google/gemini-cli" ] &&
	command -v gemini >/dev/null && has_gemini=1
[ -d "$npm_dir/node_modules/cline" ] && command -v cline >/dev/null &&
	has_cline=1
[ $has_claude -eq 1 ] || [ $has_gemini -eq 1 ] || [ $has_cline -eq 1 ] ||
	skip_all "needs npm package @anthropic-ai/claude-code, @google/gemini-cli or cline (scripts/install-deps)"

scratch=$(mktemp -d /var/tmp/cordon-agents.XXXXXX)
# shellcheck disable=SC2064
trap "rm -rf '$scratch'; cleanup" EXIT
proj=$scratch/proj
out=$scratch/outside
mkdir -p "$proj" "$out" "$scratch/home"
export HOME=$scratch/home
printf 'before\n' >"$out/keep.txt"
cd "$proj" || exit 1

MOCK_COMMAND="echo landed > $proj/inside.txt; echo owned > $out/keep.txt; echo new > $out/new.txt" \
	serve port python3 "$src/tests/agents/mock_model.py" "$tmp/api.log" ||
	skip_all "the mock model API did not start"

# ---- Claude Code ------------------------------------------------------

claude_run() {
	run init claude
	ok $rc "cordon init claude in the project"

	# bypassPermissions: cordon's full-access, so the call is allowed and
	# rewritten; IS_SANDBOX lets Claude Code take that mode as root.
	IS_SANDBOX=1 ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=sk-test \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
		DISABLE_AUTOUPDATER=1 XDG_STATE_HOME=$scratch/state \
		timeout 120 claude -p "run the command" --permission-mode bypassPermissions \
		--output-format json >"$tmp/claude.json" 2>"$tmp/claude.err"
	rc=$?
	[ $rc -eq 0 ] && pycheck 'd["result"] == "done" and d["permission_denials"] == []' <"$tmp/claude.json"
	ok $? "claude -p ran the mock's Bash call to the end"
	grep -q '"door":"claude-hook"' "$scratch/state/cordon/audit.jsonl"
	ok $? "Claude Code ran cordon's hook (audited)"
}

# ---- Gemini CLI ---------------------------------------------------------

gemini_run() {
	mkdir -p "$HOME/.gemini"
	printf '{"security": {"auth": {"selectedType": "gemini-api-key"}}}\n' >"$HOME/.gemini/settings.json"
	run init gemini --user
	ok $rc "cordon init gemini --user"
	GEMINI_CLI_TRUST_WORKSPACE=true GEMINI_API_KEY=test \
		GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$port XDG_STATE_HOME=$scratch/state \
		timeout 120 gemini -p "run the command" --yolo >"$tmp/gemini.out" 2>"$tmp/gemini.err"
	rc=$?
	[ $rc -eq 0 ] && grep -q done "$tmp/gemini.out"
	ok $? "gemini -p ran the mock's run_shell_command call to the end"
	grep -q '"door":"gemini-hook"' "$scratch/state/cordon/audit.jsonl"
	ok $? "Gemini CLI ran cordon's hook (audited)"
}

# ---- Cline CLI ---------------------------------------------------------

cline_run() {
	local cport
	run init cline
	ok $rc "cordon init cline in the project"
	# Cline sends no permission mode: the user's cordon config gives it.
	mkdir -p "$XDG_CONFIG_HOME/cordon"
	printf '{"safety": {"permission_mode": "full-access"}}\n' >"$XDG_CONFIG_HOME/cordon/config.json"
	MOCK_CHAT_TOOL=run_commands MOCK_CHAT_ARGS=$(python3 -c 'import json,sys; print(json.dumps({"commands": [sys.argv[1]]}))' "$cmd") \
		python3 "$src/tests/agents/mock_openai_chat.py" "$tmp/cline.port" - "$tmp/api.log" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/cline.port" ] && break; sleep 0.1; done
	cport=$(cat "$tmp/cline.port")
	timeout 60 cline auth -p openai-compatible -k sk-test -m mock-model \
		-b "http://127.0.0.1:$cport/v1" --data-dir "$scratch/cline" >/dev/null 2>&1
	XDG_STATE_HOME=$scratch/state timeout 120 cline --data-dir "$scratch/cline" \
		--json "run the command" >"$tmp/cline.json" 2>"$tmp/cline.err"
	rc=$?
	[ $rc -eq 0 ] && grep -q '"finishReason":"completed"' "$tmp/cline.json"
	ok $? "cline ran the mock's run_commands call to the end"
	grep -q '"door":"cline-hook"' "$scratch/state/cordon/audit.jsonl"
	ok $? "Cline ran cordon's hook (audited)"
	rm -f "$XDG_CONFIG_HOME/cordon/config.json"
}

cmd="echo landed > $proj/inside.txt; echo owned > $out/keep.txt; echo new > $out/new.txt"
for agent in claude gemini cline; do
	var=has_$agent
	if [ "${!var}" -ne 1 ]; then
		skip "$agent" "its npm package is not installed"
		continue
	fi
	rm -f "$proj/inside.txt" "$out/new.txt"
	: >"$tmp/api.log" # the mock appends to it
	printf 'before\n' >"$out/keep.txt"
	${agent}_run
	[ "$(cat "$proj/inside.txt" 2>/dev/null)" = landed ]
	ok $? "$agent: the write inside the workspace landed"
	[ "$(cat "$out/keep.txt")" = before ] && [ ! -e "$out/new.txt" ]
	ok $? "$agent: the writes outside the workspace were refused by the kernel, the file untouched"
	grep -q 'Read-only file system' "$tmp/api.log"
	ok $? "$agent: the model was shown the kernel's refusal (EROFS) in the tool result"
done

done_testing
