#!/usr/bin/env bash
# `cordon explain`: the shell part (parse tree, commands with their words
# and nesting, the rules in the order they fired with id, tier and why,
# segments, how the tiers combined) and the tool-call part (every policy
# step visited, in order, with what it found, and the decision), in text
# and --json; usage errors exit 2.
. "$(dirname "$0")/lib.sh"

ctx=(--cwd /home/user/project --workspace /home/user/project --home /home/user)

# --- a shell command, --json --------------------------------------------

run explain --json "${ctx[@]}" -- 'f(){ git "$@"; }; f clean -fdx; echo hi | sh'
ok $rc "explain --json exits 0"
pycheck 'set(d) >= {"command", "parsed", "parse", "commands", "rules", "segments", "risk", "labels", "combine"}' <"$tmp/out"
ok $? "the object has the parse, commands, rules, segments, risk and how they combined"
pycheck 'd["parse"]["kind"] == "list" and [c["kind"] for c in d["parse"]["children"]] == ["function", "simple", "pipeline"]' <"$tmp/out"
ok $? "the parse tree: a function, a simple command, a pipeline"
pycheck 'any(c["from"] == "runner" and [w["text"] for w in c["words"]] == ["git", "clean", "-fdx"] and c["startedBy"] >= 1 for c in d["commands"])' <"$tmp/out"
ok $? "the function's body is a command with the call's words, started by the call"
pycheck '[r["id"] for r in d["rules"]] == ["git.clean.force", "nested-shell"] and d["rules"][0]["tier"] == "destructive" and d["rules"][0]["segment"] == 2 and "untracked" in d["rules"][0]["why"]' <"$tmp/out"
ok $? "the rules in the order they fired, each with its tier, segment and why"
pycheck 'd["risk"] == "destructive" and [s["risk"] for s in d["segments"]] == ["safe", "destructive", "safe", "caution"]' <"$tmp/out"
ok $? "the verdict is the highest tier; each segment its own"

run explain --json "${ctx[@]}" -- 'sudo -u root env -S "rm -rf /etc"'
pycheck '[[w["text"] for w in c["words"]][0] for c in d["commands"]][:3] == ["sudo", "env", "env"] and any([w["text"] for w in c["words"]] == ["rm", "-rf", "/etc"] for c in d["commands"])' <"$tmp/out"
ok $? "the wrappers are stripped hop by hop down to rm -rf /etc"
pycheck 'd["risk"] == "blocked" and "rm.system" in [r["id"] for r in d["rules"]]' <"$tmp/out"
ok $? "and the rule that fired on it is reported"

run explain --json "${ctx[@]}" -- 'ls $X'
pycheck 'd["rules"] == [] and d["risk"] == "safe" and d["commands"][0]["words"][1]["known"] is False' <"$tmp/out"
ok $? "no rule for ls; a word known only at run time is marked"

run explain --json "${ctx[@]}" -- 'echo "unterminated'
pycheck 'd["parsed"] is False and "parseError" in d' <"$tmp/out"
ok $? "a parse error is shown"

# --- a shell command, text ------------------------------------------------

run explain "${ctx[@]}" -- rm -rf /
ok $rc "explain (text) exits 0"
grep -q '^parse:' "$tmp/out" && grep -q '^commands:' "$tmp/out" &&
	grep -q '^rules, in the order they fired:' "$tmp/out" &&
	grep -q '^verdict: blocked' "$tmp/out" && grep -q 'deny.rm-root' "$tmp/out"
ok $? "text: parse, commands, rules and the verdict"

# --- a tool call -----------------------------------------------------------

run_in '{"tool":"Bash","args":{"command":"rm -rf ~"}}' explain --call --json --workspace "$tmp"
ok $rc "explain --call --json exits 0"
pycheck '[s["step"] for s in d["steps"]][:5] == ["denied_tools", "allowed_tools", "schema", "arg_limits", "read_only"]' <"$tmp/out"
ok $? "the guardrails come first, in the policy's order"
pycheck '"classifier" in [s["step"] for s in d["steps"]] and d["decision"] == "deny" and d["step"] == "denied_commands" and d["steps"][-1]["step"] == "denied_commands"' <"$tmp/out"
ok $? "the classifier step says what it found; the last step is the one that decided"

run_in '{"tool":"Write","args":{"file_path":"/etc/passwd","content":"x"}}' explain --call --workspace "$tmp"
ok $rc "explain --call (text) exits 0"
grep -q 'path_rules' "$tmp/out" && grep -q '^decision: deny (step: denied_paths)' "$tmp/out"
ok $? "a write: the path steps and the decision"

run_in '{"tool":"Read","args":{"file_path":"README.md"}}' explain --call --json --read-only
[ "$rc" = 2 ]
ok $? "an unknown option is a usage error (exit 2)"

run_in 'not json' explain --call
[ "$rc" = 2 ]
ok $? "a call that is not JSON is an input error (exit 2)"

run explain
[ "$rc" = 2 ] && grep -q 'no command given' "$tmp/err"
ok $? "no command: exit 2"

run explain --call extra
[ "$rc" = 2 ]
ok $? "--call takes no operands"

done_testing
