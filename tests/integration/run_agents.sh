#!/usr/bin/env bash
# `cordon run --agent claude|gemini|codex`: whole agents confined. The
# agents are started for real (npm packages from scripts/install-deps;
# each part skips without its package): Claude Code against a loopback
# mock of the Messages API (tests/agents/mock_anthropic.py) that answers
# with a Bash call writing inside and outside the workspace, so the kernel
# refusing the outside write is seen in the tool result Claude sends back.
# Also: what a preset passes and never passes, its network (the proxy, to
# the agent's hosts only), --pass-env, --probe --json and srt's
# allowedDomains turning the proxy on; and Qwen Code started for real with
# `cordon init qwen`'s hook against a loopback Chat Completions mock
# (tests/agents/mock_openai_chat.py); Gemini CLI's `gemini -p` against the
# Gemini API mock (tests/agents/mock_model.py), whose write_file outside
# the workspace the kernel refuses.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "the sandbox tests run as root"
# Outside the sandbox's private /tmp: a write there must reach the kernel's
# refusal, not a scratch copy.
base=$(mktemp -d /var/tmp/cordon-agents.XXXXXX)
trap 'cleanup; rm -rf "$base"' EXIT
export HOME=$base/home XDG_CONFIG_HOME=$base/home/.config
export XDG_STATE_HOME=$base/home/.local/state XDG_CACHE_HOME=$base/cache
ws=$base/ws
mkdir -p "$HOME" "$ws" "$base/outside" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
cd "$ws" || exit 1
unset ANTHROPIC_API_KEY ANTHROPIC_BASE_URL OPENAI_API_KEY OPENAI_BASE_URL \
	CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_API_KEY

# ---- options ----------------------------------------------------------------

run run --agent bogus -- true
[ $rc -eq 125 ] && grep -q "'bogus' is not claude, gemini or codex" "$tmp/err"
ok $? "--agent names a known agent"

run run --pass-env 'A=b' -- true
[ $rc -eq 125 ] && grep -q 'not a variable name' "$tmp/err"
ok $? "--pass-env takes a name, not NAME=value"

run run --probe --json
[ $rc -eq 0 ] && pycheck '[b["name"] for b in d["backends"]] == ["namespaces", "landlock"] and d["best"] == "namespaces" and d["backends"][0]["enforcement"] == "full"' <"$tmp/out"
ok $? "run --probe --json"

# ---- what a preset passes ---------------------------------------------

export ANTHROPIC_API_KEY=sk-ant-secret-1 ANTHROPIC_MODEL=m1
run run --agent claude --report "$tmp/rep.json" -- sh -c \
	'echo "key=${ANTHROPIC_API_KEY:-unset} model=${ANTHROPIC_MODEL:-unset}"'
[ $rc -eq 0 ] && grep -qx 'key=unset model=m1' "$tmp/out" &&
	grep -q 'passing to the command: ANTHROPIC_MODEL$' "$tmp/err" &&
	pycheck 'd["agent"] == "claude" and d["passedEnv"] == ["ANTHROPIC_MODEL"]' <"$tmp/rep.json"
ok $? "a preset passes the agent's own settings, never its key by default"

run run --agent claude --pass-env ANTHROPIC_API_KEY --report "$tmp/rep.json" -- \
	sh -c 'echo "key=${ANTHROPIC_API_KEY:-unset}"'
[ $rc -eq 0 ] && grep -qx 'key=sk-ant-secret-1' "$tmp/out" &&
	pycheck 'd["passedEnv"] == ["ANTHROPIC_MODEL", "ANTHROPIC_API_KEY"]' <"$tmp/rep.json" &&
	! grep -q 'sk-ant-secret-1' "$tmp/rep.json" "$tmp/err"
ok $? "--pass-env hands the key through by name; the report names it, never its value"

run run --pass-env NOT_SET_ANYWHERE -- true
[ $rc -eq 0 ] && grep -q 'NOT_SET_ANYWHERE: not set, not passed' "$tmp/err"
ok $? "--pass-env of an unset variable warns"
unset ANTHROPIC_API_KEY ANTHROPIC_MODEL

# ---- state, network -------------------------------------------------------

run run --agent codex -- sh -c 'touch ~/.codex/auth-check && echo ok;
	touch ~/elsewhere 2>&1; echo "proxy=${HTTPS_PROXY:-none}"'
[ $rc -eq 0 ] && [ -f "$HOME/.codex/auth-check" ] && [ ! -e "$HOME/elsewhere" ] &&
	grep -q 'Read-only file system' "$tmp/out" &&
	grep -q 'proxy=http://127.0.0.1:3128' "$tmp/out"
ok $? "codex: ~/.codex is made and writable, the rest of HOME is not; network through the proxy"

run run --agent claude --audit-log "$tmp/a.jsonl" -- python3 -c '
import urllib.request, sys
for url in ("http://example.com/", "http://api.anthropic.com.evil.example/"):
    try:
        urllib.request.urlopen(url, timeout=10)
        print("reached", url)
    except urllib.error.HTTPError as e:
        print(e.code, url)
    except Exception as e:
        print("error", url, e)
'
[ $rc -eq 0 ] && grep -q '^403 http://example.com/' "$tmp/out" &&
	grep -q '^403 http://api.anthropic.com.evil.example/' "$tmp/out" &&
	grep -q '"target":"example.com","port":80,"verdict":"deny"' "$tmp/a.jsonl"
ok $? "claude's preset: hosts other than its API's are refused by the proxy"

run run --agent claude --network none -- sh -c 'echo "proxy=${HTTPS_PROXY:-none}"'
[ $rc -eq 0 ] && grep -qx 'proxy=none' "$tmp/out"
ok $? "--network overrides the preset's network"

printf '{"network": {"allowedDomains": ["example.org"]}, "filesystem": {"allowWrite": ["."]}}' >"$tmp/srt.json"
run run --srt-settings "$tmp/srt.json" -- sh -c 'echo "proxy=${HTTPS_PROXY:-none}"'
[ $rc -eq 0 ] && grep -qx 'proxy=http://127.0.0.1:3128' "$tmp/out"
ok $? "srt's allowedDomains turn the proxy on"

# ---- Claude Code for real -------------------------------------------------

if [ -d "$npm_dir/node_modules/@anthropic-ai/claude-code" ] && command -v node >/dev/null; then
	PATH=$npm_dir/node_modules/.bin:$PATH
	python3 "$src/tests/agents/mock_anthropic.py" "$tmp/port" \
		"touch $base/outside/x; touch inside.txt; echo done" \
		"$tmp/mock.log" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.1; done
	# The model API is on loopback, which cordon's proxy never reaches:
	# this run takes the host's network (the preset's proxy is shown above).
	ANTHROPIC_BASE_URL=http://127.0.0.1:$(cat "$tmp/port") \
		ANTHROPIC_API_KEY=sk-ant-mock-key \
		run run --agent claude --network host --pass-env ANTHROPIC_API_KEY \
		--report "$tmp/rep.json" -- \
		claude -p "make the file" --allowedTools Bash --output-format json
	[ $rc -eq 0 ] && pycheck 'd["result"] == "finished" and not d["is_error"]' <"$tmp/out"
	ok $? "claude -p runs a whole session in the sandbox"
	[ -f "$ws/inside.txt" ] && [ ! -e "$base/outside/x" ] &&
		grep -q 'tool_result.*Read-only file system' "$tmp/mock.log"
	ok $? "its Bash call wrote in the workspace; the kernel refused the write outside"
	[ -d "$HOME/.claude/projects" ]
	ok $? "Claude Code kept its session under ~/.claude"
	pycheck 'd["passedEnv"] == ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"]' <"$tmp/rep.json"
	ok $? "the report names the variables passed"
else
	for t in session write state report; do
		skip "claude $t" "needs npm package @anthropic-ai/claude-code (scripts/install-deps)"
	done
fi

# ---- Gemini CLI and Codex CLI start ---------------------------------------

if [ -d "$npm_dir/node_modules/@google/gemini-cli" ] && command -v node >/dev/null; then
	PATH=$npm_dir/node_modules/.bin:$PATH
	# Its WebAssembly HTTP parser reserves more address space than
	# RLIMIT_AS's default 4096 MB allows (no cgroup v2 memory controller
	# here): the README's Gemini section raises the ceiling the same way.
	printf '{"safety": {"sandbox": {"linux": {"max_memory_mb": 1048576}}}}' >"$tmp/mem.json"
	run run --agent gemini --memory 1048576 --config "$tmp/mem.json" -- gemini --version
	[ $rc -eq 0 ] && grep -Eq '^[0-9]+\.[0-9]+' "$tmp/out" && [ -d "$HOME/.gemini" ]
	ok $? "gemini starts under its preset; ~/.gemini is there for its state"

	# A whole gemini -p session: the loopback mock of the Gemini API
	# (tests/agents/mock_model.py) asks for a write_file outside the
	# workspace (a directory Gemini is told is its own, so only the kernel
	# stands in the way), then one inside.
	printf 'before\n' >"$base/outside/keep.txt"
	printf '{"security": {"auth": {"selectedType": "gemini-api-key"}}}\n' >"$HOME/.gemini/settings.json"
	MOCK_GEMINI_CALLS='[{"name": "write_file", "args": {"file_path": "'"$base/outside/keep.txt"'", "content": "owned\n"}}, {"name": "write_file", "args": {"file_path": "'"$ws/gemini.txt"'", "content": "landed\n"}}]' \
		python3 "$src/tests/agents/mock_model.py" "$tmp/gmock.log" >"$tmp/gport" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/gport" ] && break; sleep 0.1; done
	GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$(head -1 "$tmp/gport") \
		GEMINI_API_KEY=mock-key GEMINI_CLI_TRUST_WORKSPACE=true \
		run run --agent gemini --memory 1048576 --config "$tmp/mem.json" \
		--network host --pass-env GEMINI_API_KEY \
		--pass-env GEMINI_CLI_TRUST_WORKSPACE --report "$tmp/grep.json" -- \
		gemini -p "write the files" --yolo --include-directories "$base/outside"
	[ $rc -eq 0 ] && grep -q done "$tmp/out"
	ok $? "gemini -p runs a whole session under run --agent gemini"
	[ "$(cat "$base/outside/keep.txt")" = before ] &&
		grep -q 'TOOL_RESULT.*write_file.*keep.txt.*\(EROFS\|EACCES\)' "$tmp/gmock.log"
	ok $? "gemini: the kernel refused its write_file outside the workspace (file untouched, EROFS in the tool result)"
	[ "$(cat "$ws/gemini.txt" 2>/dev/null)" = landed ] &&
		grep -q 'TOOL_RESULT.*write_file.*Successfully' "$tmp/gmock.log"
	ok $? "gemini: its write_file inside the workspace landed"
	pycheck 'sorted(d["passedEnv"]) == ["GEMINI_API_KEY", "GEMINI_CLI_TRUST_WORKSPACE", "GOOGLE_GEMINI_BASE_URL"]' <"$tmp/grep.json"
	ok $? "gemini: the report names the variables passed"
else
	for t in starts session outside inside report; do
		skip "gemini $t" "needs npm package @google/gemini-cli"
	done
fi

# An agent's state directory is its own: a file it renames in during the
# run (Gemini CLI rewrites ~/.gemini/projects.json so) is readable, while
# a credential file there stays masked.
mkdir -p "$HOME/.gemini"
printf 'SECRET\n' >"$HOME/.gemini/oauth_creds.json"
run run --agent gemini -- sh -c 'printf new >"$HOME/.gemini/p.tmp" && mv "$HOME/.gemini/p.tmp" "$HOME/.gemini/projects.json" && cat "$HOME/.gemini/projects.json"; echo; cat "$HOME/.gemini/oauth_creds.json"; echo "creds=$?"'
grep -qx new "$tmp/out" && ! grep -q SECRET "$tmp/out"
ok $? "a file renamed into the agent's state directory is readable; its credential file stays masked"
rm -f "$HOME/.gemini/oauth_creds.json" "$HOME/.gemini/projects.json"
if [ -d "$npm_dir/node_modules/@openai/codex" ] && command -v node >/dev/null; then
	PATH=$npm_dir/node_modules/.bin:$PATH
	run run --agent codex -- codex --version
	[ $rc -eq 0 ] && grep -qi 'codex' "$tmp/out"
	ok $? "codex starts under its preset"

	# Codex for real, against a loopback Responses API, with cordon's
	# hook installed by `cordon init codex --user`.
	codex_turn() { # COMMAND direct|sandbox
		local c=$1 how=$2
		rm -f "$tmp/oport" "$tmp/olog"
		python3 "$src/tests/agents/mock_openai.py" "$tmp/oport" "$c" \
			"$tmp/olog" &
		pids+=($!)
		for _ in $(seq 100); do [ -s "$tmp/oport" ] && break; sleep 0.1; done
		cat >"$HOME/.codex/config.toml" <<TOML
model = "gpt-5-codex"
model_provider = "mock"
[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:$(cat "$tmp/oport")/v1"
wire_api = "responses"
env_key = "MOCK_KEY"
[features]
hooks = true
TOML
		local pre=()
		# The whole agent in cordon's sandbox; a model API on loopback
		# needs the host's network (the proxy never connects there).
		[ "$how" = sandbox ] && pre=("$bin" run --agent codex --network host
			--pass-env MOCK_KEY --audit-log "$tmp/codex-audit.jsonl" --)
		MOCK_KEY=mock-key "${pre[@]}" \
			codex exec --skip-git-repo-check --dangerously-bypass-hook-trust \
			--dangerously-bypass-approvals-and-sandbox "do it" \
			</dev/null >"$tmp/out" 2>"$tmp/err"
		rc=$?
	}
	mkdir -p "$HOME/.codex" "$HOME/.ssh"
	printf 'not a key\n' >"$HOME/.ssh/id_rsa"
	"$bin" init codex --user >/dev/null
	: >"$XDG_STATE_HOME/cordon/audit.jsonl" 2>/dev/null || mkdir -p "$XDG_STATE_HOME/cordon"
	codex_turn "cat ~/.ssh/id_rsa" direct
	grep -q 'Command blocked by PreToolUse hook: cordon: blocked: .*denied path' "$tmp/olog" &&
		! grep -q 'not a key' "$tmp/olog" &&
		grep -q '"door":"codex-hook".*"sent":"deny"' "$XDG_STATE_HOME/cordon/audit.jsonl"
	ok $? "codex exec: cordon's hook refuses reading ~/.ssh/id_rsa; Codex tells the model why"

	codex_turn "touch $base/outside/codex; touch codex-inside.txt; echo done" sandbox
	[ -f "$ws/codex-inside.txt" ] && [ ! -e "$base/outside/codex" ] &&
		grep -q 'function_call_output.*Read-only file system' "$tmp/olog"
	ok $? "codex exec under run --agent codex: the hook allows, the kernel refuses the write outside"
	# The hook inside cannot write ~/.local/state/cordon (read-only
	# there): its decision reaches the run's log through the audit relay.
	# A sanitized build's hook cannot start under the sandbox's RLIMIT_AS
	# (it reserves terabytes of shadow memory).
	if ldd "$bin" 2>/dev/null | grep -q libasan; then
		skip "codex sandbox audit" "an ASan build's hook cannot start under the sandbox's RLIMIT_AS (audit_relay.sh and test_auditrelay cover the relay)"
	else
		grep '"event":"nested"' "$tmp/codex-audit.jsonl" |
			grep -q '"inner_event":"decision".*"decision":"allow".*"door":"codex-hook"' &&
			"$bin" audit verify "$tmp/codex-audit.jsonl" >/dev/null
		ok $? "codex exec under run --agent codex: the hook's decision is in the run's log as nested, which verifies"
	fi
else
	skip "codex starts" "needs npm package @openai/codex"
	skip "codex hook" "needs npm package @openai/codex"
	skip "codex sandbox" "needs npm package @openai/codex"
	skip "codex sandbox audit" "needs npm package @openai/codex"
fi


# ---- Qwen Code for real, with cordon's hook ------------------------------

# A loopback Chat Completions API (tests/agents/mock_openai_chat.py) asks
# for one run_shell_command; `cordon init qwen --user` installed the hook.
if [ -d "$npm_dir/node_modules/@qwen-code/qwen-code" ] && command -v node >/dev/null; then
	PATH=$npm_dir/node_modules/.bin:$PATH
	rm -f "$tmp/qport" "$tmp/qlog"
	mkdir -p "$HOME/.ssh"
	printf 'not a key\n' >"$HOME/.ssh/id_rsa"
	python3 "$src/tests/agents/mock_openai_chat.py" "$tmp/qport" \
		"cat ~/.ssh/id_rsa" "$tmp/qlog" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/qport" ] && break; sleep 0.1; done
	"$bin" init qwen --user >/dev/null
	python3 - "$HOME/.qwen/settings.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["security"] = {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}}
d["model"] = {"name": "mock-model"}
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
	mkdir -p "$XDG_STATE_HOME/cordon"
	: >"$XDG_STATE_HOME/cordon/audit.jsonl"
	OPENAI_API_KEY=mock-key OPENAI_MODEL=mock-model \
		OPENAI_BASE_URL="http://127.0.0.1:$(cat "$tmp/qport")/v1" \
		qwen -p "do it" --yolo </dev/null >"$tmp/out" 2>"$tmp/err"
	grep -q '"role": "tool".*cordon: blocked: .*denied path' "$tmp/qlog" &&
		! grep -q 'not a key' "$tmp/qlog" &&
		grep -q '"door":"qwen-hook".*"sent":"deny"' "$XDG_STATE_HOME/cordon/audit.jsonl"
	ok $? "qwen -p: cordon's hook refuses reading ~/.ssh/id_rsa; Qwen tells the model why"
else
	skip "qwen hook" "needs npm package @qwen-code/qwen-code"
fi
done_testing
