#!/usr/bin/env bash
# `cordon config import` against the built binary ($CORDON_BIN): Claude
# Code settings (the default files merged, explicit files, stdin) and srt
# settings, the printed configuration loading with `cordon config show`,
# the warnings on stderr and the exit statuses. The rule semantics are
# tested by tests/unit/test_ccperm.c and its table.
. "$(dirname "$0")/lib.sh"

if ! "$bin" config import --help >/dev/null 2>&1; then
	skip "cordon config import" "not wired into cordon config yet"
	done_testing
	exit 0
fi

proj=$tmp/proj
mkdir -p "$proj/.claude" "$HOME/.claude"
cd "$proj" || exit 1
proj=$(pwd -P)

cat >"$proj/.claude/settings.json" <<'EOF'
{
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(./src/**)"],
    "deny": ["Read(./.env)", "Bash(curl:*)"],
    "defaultMode": "acceptEdits",
    "additionalDirectories": ["../docs"]
  },
  "hooks": {}
}
EOF
cat >"$proj/.claude/settings.local.json" <<'EOF'
{"permissions": {"allow": ["Bash(npm run test:*)", "Bash(git status:*)"],
                 "ask": ["Bash(git push:*)"], "defaultMode": "plan"}}
EOF
cat >"$HOME/.claude/settings.json" <<'EOF'
{"permissions": {"deny": ["Read(~/.ssh/**)", "Edit(/etc/**)"],
                 "defaultMode": "bypassPermissions"}}
EOF

run config import --help
[ $rc -eq 0 ] && grep -q -- '--from claude' "$tmp/out"
ok $? "--help prints the usage, exit 0"

# --- claude: the three default files, merged
run config import --from claude
[ $rc -eq 0 ] && pyjson '
d["permissions"]["allow"] == ["Bash(npm run test:*)", "Read(./src/**)",
                              "Bash(git status:*)"] and
d["permissions"]["ask"] == ["Bash(git push:*)"] and
d["permissions"]["deny"] == ["Read(./.env)", "Bash(curl:*)",
                             "Read(~/.ssh/**)", "Edit(/etc/**)"]' <"$tmp/out"
ok $? "claude: project, local and user lists concatenated, duplicates once"
pyjson "d['permissions']['root'] == '$proj'" <"$tmp/out"
ok $? "claude: root is the project directory"
pyjson 'd["safety"] == {"read_only": True}' <"$tmp/out"
ok $? "claude: defaultMode of the local file (plan) wins: read_only"
grep -q 'warning: ./.claude/settings.json: hooks: not imported' "$tmp/err" &&
	grep -q 'additionalDirectories: not imported' "$tmp/err"
ok $? "claude: warnings for keys not imported"
grep -q "Edit(/etc/\*\*)': this file has no project root" "$tmp/err"
ok $? "claude: a user '/path' rule read under the project root is warned"
cp "$tmp/out" "$tmp/imported.json"
run config show --config "$tmp/imported.json" --json
[ $rc -eq 0 ] && pycheck '
d["permissions"]["deny"][0] == "Read(./.env)" and
d["safety"]["read_only"] is True' <"$tmp/out"
ok $? "claude: the printed configuration loads with cordon config show"

# --- claude: explicit files
run config import --from claude "$proj/.claude/settings.json"
[ $rc -eq 0 ] && pyjson '
d["safety"]["permission_mode"] == "auto-accept-edits" and
d["permissions"]["ask"] == []' <"$tmp/out"
ok $? "claude FILE: that file only; acceptEdits is auto-accept-edits"
run config import --from claude "$HOME/.claude/settings.json" \
	"$proj/.claude/settings.json"
[ $rc -eq 0 ] && pyjson '
d["safety"]["permission_mode"] == "auto-accept-edits" and
d["permissions"]["deny"][0] == "Read(~/.ssh/**)"' <"$tmp/out"
ok $? "claude FILE FILE: later files more specific, lists in order"
run_in '{"permissions": {"allow": ["WebFetch(domain:example.com)"]}}' \
	config import --from claude -
[ $rc -eq 0 ] && pyjson '
d["permissions"]["allow"] == ["WebFetch(domain:example.com)"] and
d["permissions"]["root"] is None' <"$tmp/out"
ok $? "claude -: stdin, no project root"

# --- claude: errors
printf '{"permissions": {"allow": ["Bash(npm test)", "Bash(ls"]}}' \
	>"$tmp/bad.json"
run config import --from claude "$tmp/bad.json"
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "bad.json: permissions.allow\[1\]: unbalanced parenthesis in 'Bash(ls'" "$tmp/err"
ok $? "claude: a bad rule exits 2 naming the file and the key"
printf '{"permissions": ' >"$tmp/trunc.json"
run config import --from claude "$tmp/trunc.json"
[ $rc -eq 2 ] && grep -q "malformed JSON" "$tmp/err"
ok $? "claude: malformed JSON exits 2"
run config import --from claude "$tmp/missing.json"
[ $rc -eq 1 ] && grep -q "missing.json" "$tmp/err"
ok $? "claude: an unreadable FILE exits 1"
mkdir -p "$tmp/empty"
(cd "$tmp/empty" && HOME=$tmp/empty "$bin" config import --from claude \
	</dev/null >"$tmp/out" 2>"$tmp/err")
rc=$?
[ $rc -eq 1 ] && grep -q "no Claude Code settings found" "$tmp/err"
ok $? "claude: no settings file anywhere exits 1"
run config import
[ $rc -eq 2 ] && grep -q -- "--from claude, srt or codex is required" "$tmp/err"
ok $? "no --from: usage error, exit 2"
run config import --from codex
[ $rc -eq 2 ]
ok $? "--from codex: usage error, exit 2"
run config import --from claude --bogus
[ $rc -eq 2 ] && grep -q "unknown or incomplete option" "$tmp/err"
ok $? "an unknown option: exit 2"

# --- srt
cat >"$HOME/.srt-settings.json" <<'EOF'
{
  "network": {
    "allowedDomains": ["github.com", "*.npmjs.org", "api.example.com:8443"],
    "deniedDomains": ["malicious.com"],
    "allowUnixSockets": ["/var/run/docker.sock"],
    "allowLocalBinding": false
  },
  "filesystem": {
    "denyRead": ["~/.ssh", "/Users"],
    "allowRead": ["/Users/me/proj"],
    "allowWrite": [".", "src/", "/tmp", "src/**/*.ts"],
    "denyWrite": [".env"]
  },
  "ignoreViolations": {"*": ["/usr/bin"]},
  "enableWeakerNestedSandbox": false
}
EOF
run config import --from srt
[ $rc -eq 0 ] && pyjson '
d["safety"]["sandbox"] == {"deny_read": ["~/.ssh", "/Users"],
                           "allow_write": ["src/", "/tmp"],
                           "deny_write": [".env"]} and
d["network"]["allowedDomains"] == ["github.com", "*.npmjs.org",
                                   "api.example.com:8443"] and
d["network"]["deniedDomains"] == ["malicious.com"] and
d["network"]["allowUnixSockets"] == ["/var/run/docker.sock"] and
d["network"]["allowLocalBinding"] is False' <"$tmp/out"
ok $? "srt: ~/.srt-settings.json mapped onto safety.sandbox and network"
grep -q "allowRead '/Users/me/proj': dropped: cordon cannot re-allow" "$tmp/err" &&
	grep -q "allowWrite 'src/\*\*/\*.ts': dropped" "$tmp/err" &&
	grep -q "ports 80 and 443" "$tmp/err" &&
	grep -q "ignoreViolations: not imported" "$tmp/err" &&
	! grep -q "enableWeakerNestedSandbox" "$tmp/err"
ok $? "srt: what is dropped or made stricter is warned"
cp "$tmp/out" "$tmp/srt-imported.json"
run config show --config "$tmp/srt-imported.json" --json
[ $rc -eq 0 ] && pycheck '
d["safety"]["sandbox"]["deny_read"] == ["~/.ssh", "/Users"] and
d["network"]["allowedDomains"][0] == "github.com"' <"$tmp/out"
ok $? "srt: the printed configuration loads with cordon config show"
printf '{"network": {"allowAllUnixSockets": true, "deniedDomains": ["*"],
  "allowedDomains": ["a.com"]}}' >"$tmp/srt2.json"
run config import --from srt "$tmp/srt2.json"
[ $rc -eq 0 ] && pyjson '
d["network"]["allowUnixSockets"] is None and
d["network"]["allowedDomains"] == []' <"$tmp/out" &&
	grep -q "deniedDomains '\*'" "$tmp/err"
ok $? "srt FILE: allowAllUnixSockets and a deny-all '*'"
printf '{"network": {"allowedDomains": ["exa mple.com"]}}' >"$tmp/srt3.json"
run config import --from srt "$tmp/srt3.json"
[ $rc -eq 2 ] && grep -q "network.allowedDomains\[0\]" "$tmp/err"
ok $? "srt: a bad domain exits 2 naming the key"
run config import --from srt "$tmp/srt2.json" "$tmp/srt3.json"
[ $rc -eq 2 ] && grep -q "takes one FILE" "$tmp/err"
ok $? "srt: two files is a usage error"
rm -f "$HOME/.srt-settings.json"
run config import --from srt
[ $rc -eq 1 ] && grep -q ".srt-settings.json" "$tmp/err"
ok $? "srt: a missing ~/.srt-settings.json exits 1"

# ---- --from codex: execpolicy rules ---------------------------------------

mkdir -p "$tmp/codex"
cat >"$tmp/codex/default.rules" <<'RULES'
# Prompt before running commands with the prefix `gh pr view` or `list`.
prefix_rule(
    pattern = ["gh", "pr", ["view", "list"]],
    decision = "prompt",
    justification = "Viewing PRs is allowed with approval",
    match = [
        "gh pr view 7888",
        ["gh", "pr", "list", "--state", "open"],
        "gh pr view --repo 'openai/codex' 7888",
    ],
    not_match = ["gh pr --repo openai/codex view 7888"],
)
prefix_rule(pattern = ['git', 'push', '--force'], decision = 'forbidden',
            match = [["git", "push", "--force", "origin", "main"]],)
prefix_rule(pattern = ["ls"])  # allow is the default
RULES
run config import --from codex "$tmp/codex/default.rules"
[ $rc -eq 0 ] && pyjson '(r := d["safety"]["command_rules"]) and [(x["prefix"], x["decision"]) for x in r] == [(["git", "push", "--force"], "deny"), (["gh", "pr", "view"], "ask"), (["gh", "pr", "list"], "ask"), (["ls"], "allow")] and r[1]["match"] == ["gh pr view 7888", "gh pr view --repo openai/codex 7888"] and r[2]["match"] == ["gh pr list --state open"] and r[2]["not_match"] == ["gh pr --repo openai/codex view 7888"]' <"$tmp/out" &&
	grep -q 'justification: not kept' "$tmp/err"
ok $? "codex: prompt is ask, forbidden deny, alternatives split, examples with their rule, deny first"

cp "$tmp/out" "$tmp/codex.json"
for c in 'git push --force origin main:1' 'gh pr view 12:3' 'ls -la:0'; do
	"$bin" check --config "$tmp/codex.json" --audit-log - --tool Bash \
		--args "{\"command\": \"${c%:*}\"}" </dev/null >/dev/null 2>&1
	[ $? -eq "${c##*:}" ] || { echo "# $c"; false; } || break
done
ok $? "the imported rules decide: force-push denied, gh pr view asks, ls allowed"

printf 'prefix_rule(pattern = ["gh", "pr"], match = ["gh issue list"])\n' >"$tmp/codex/bad.rules"
run config import --from codex "$tmp/codex/bad.rules"
[ $rc -eq 2 ] && grep -q "line 1:1: rules\[0\].match\[0\]: 'gh issue list' does not match the pattern" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "codex: a match example the pattern does not match is an error naming it"

printf 'prefix_rule(pattern = ["rm"], decision = "forbidden",\n  not_match = ["rm -rf /"])\n' >"$tmp/codex/bad.rules"
run config import --from codex "$tmp/codex/bad.rules"
[ $rc -eq 2 ] && grep -q "rules\[0\].not_match\[0\]: 'rm -rf /' matches the pattern" "$tmp/err"
ok $? "codex: a not_match example that matches is an error"

printf 'prefix_rule(pattern = ["ls"])\nhost_executable(name = "git", paths = ["/usr/bin/git"])\n' >"$tmp/codex/bad.rules"
run config import --from codex "$tmp/codex/bad.rules"
[ $rc -eq 2 ] && grep -q "line 2:1: 'host_executable' is not read" "$tmp/err"
ok $? "codex: another function is refused, not dropped"

for bad in 'prefix_rule(pattern = [])|expected a non-empty list' \
	'prefix_rule(decision = "allow")|pattern is missing' \
	'prefix_rule(pattern = ["a"], decision = "maybe")|expected allow, prompt or forbidden' \
	'prefix_rule(pattern = ["a"], pattern = ["b"])|given twice' \
	'prefix_rule(pattern = ["a"], action = "x")|takes no argument' \
	'prefix_rule(pattern = ["a", [1]])|expected a string or a list' \
	'prefix_rule(pattern = ["a"]|expected' \
	'prefix_rule(pattern = ["a], )|string not closed' \
	'prefix_rule(pattern = ["a"], match = ["a '"'"'b"])|a quote is not closed' \
	'prefix_rule(pattern = ["\q"])|escape'; do
	printf '%s\n' "${bad%|*}" >"$tmp/codex/bad.rules"
	run config import --from codex "$tmp/codex/bad.rules"
	[ $rc -eq 2 ] && grep -q -- "${bad##*|}" "$tmp/err" || {
		echo "# $bad: $(cat "$tmp/err")"
		false
	} || break
done
ok $? "codex: malformed rules are errors with line:column and what is wrong"

python3 -c 'print("prefix_rule(pattern = [" + ", ".join("[\"a\", \"b\"]" for _ in range(9)) + "])")' >"$tmp/codex/bad.rules"
run config import --from codex "$tmp/codex/bad.rules"
[ $rc -eq 2 ] && grep -q 'over 256 combinations' "$tmp/err"
ok $? "codex: a pattern of 512 combinations is over the limit"

printf 'prefix_rule(pattern = ["make"], decision = "prompt")\n' >"$tmp/codex/two.rules"
run config import --from codex "$tmp/codex/default.rules" "$tmp/codex/two.rules"
[ $rc -eq 0 ] && pyjson '[x["prefix"][0] for x in d["safety"]["command_rules"]] == ["git", "gh", "gh", "make", "ls"]' <"$tmp/out"
ok $? "codex: several files merged, strictest first"

run config import --from codex
[ $rc -eq 2 ] && grep -q 'takes the .rules files' "$tmp/err"
ok $? "codex: no file is a usage error"

run config import --from codex "$tmp/codex/none.rules"
[ $rc -eq 2 ] && grep -q 'none.rules' "$tmp/err"
ok $? "codex: a missing file is named"

done_testing
