#!/usr/bin/env bash
# `cordon init claude` and `cordon init gemini` against the built binary
# ($CORDON_BIN): the hook entry added to a settings file that does not
# exist, is empty, holds other settings and hooks, holds our hook already
# (idempotent), is unusual but valid JSON (kept byte for byte), is JSONC
# (Gemini), or is refused (invalid JSON, "hooks" of another type: exit 2,
# untouched); backups, --dry-run, --user, symlinks, file modes, and the
# installed command answering a hook call.
. "$(dirname "$0")/lib.sh"

proj=$tmp/proj
mkdir -p "$proj"
cd "$proj" || exit 1
exe=$(readlink -f "$bin")
cc=$proj/.claude/settings.json
gm=$proj/.gemini/settings.json

# backups FILE: how many backups of FILE there are.
backups() {
	local n=0 f
	for f in "$1".bak-*; do
		[ -e "$f" ] && n=$((n + 1))
	done
	echo $n
}

# hookcheck FILE EVENT AGENT: python checks that FILE is JSON whose
# hooks.EVENT ends with our entry.
hookcheck() {
	python3 - "$1" "$2" "$exe" "$3" <<'EOF'
import json, sys
path, event, exe, agent = sys.argv[1:]
d = json.load(open(path))
e = d["hooks"][event][-1]
want = exe + (" hook claude --claude-scopes" if agent == "claude" else " hook gemini --mode auto") + " || exit 2"
assert e["matcher"] == "*", e
h = e["hooks"][-1]
assert h["type"] == "command" and h["command"] == want, h
if agent == "gemini":
    assert h["name"] == "cordon", h
EOF
}

# ---- a new file ---------------------------------------------------------

run init claude
[ $rc -eq 0 ] && [ -f "$cc" ] && hookcheck "$cc" PreToolUse claude &&
	grep -q "added the PreToolUse hook" "$tmp/out"
ok $? "no settings file: .claude/settings.json is created with the hook"
[ "$(backups "$cc")" = 0 ]
ok $? "no backup of a file that did not exist"
python3 -c '
import sys
t = open(sys.argv[1]).read()
assert t.startswith("{\n  \"hooks\": {\n    \"PreToolUse\": [\n"), t
assert t.endswith("}\n"), t
' "$cc"
ok $? "a new file is indented (two spaces) and ends with a newline"

cp "$cc" "$tmp/first"
run init claude
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/first" && grep -q "already" "$tmp/out" &&
	[ "$(backups "$cc")" = 0 ]
ok $? "twice: nothing changes, no backup, and it says so"
run init claude --project
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/first"
ok $? "--project is the default"

# The installed command answers a hook call.
cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$cc")
printf '{"session_id":"s","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"%s/.env"}}' "$proj" "$proj" |
	bash -c "$cmd --audit-log -" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/out"
ok $? "the installed command runs the hook"

# ---- merging into existing files ---------------------------------------

rm -rf "$proj/.claude"
mkdir -p "$proj/.claude"
printf '{}\n' >"$cc"
run init claude
[ $rc -eq 0 ] && hookcheck "$cc" PreToolUse claude && [ "$(backups "$cc")" = 1 ] &&
	[ "$(cat "$cc".bak-*)" = "{}" ]
ok $? "an empty object: the hook is added, the old file backed up"

rm -rf "$proj/.claude"
mkdir -p "$proj/.claude"
cat >"$cc" <<'EOF'
{
  "permissions": {
    "allow": ["Bash(npm run test:*)"],
    "deny": ["Read(./.env)"]
  },
  "env": {"FOO": "bar"},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "~/bin/check-bash.sh", "timeout": 5}]
      }
    ],
    "PostToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "npx prettier --write"}]}
    ]
  },
  "model": "opus"
}
EOF
cp "$cc" "$tmp/orig"
run init claude
python3 - "$tmp/orig" "$cc" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
assert list(b) == list(a), (list(a), list(b))
for k in a:
    if k != "hooks":
        assert a[k] == b[k], k
assert b["hooks"]["PostToolUse"] == a["hooks"]["PostToolUse"]
assert b["hooks"]["PreToolUse"][:1] == a["hooks"]["PreToolUse"]
assert len(b["hooks"]["PreToolUse"]) == 2
EOF
[ $? -eq 0 ] && [ $rc -eq 0 ] && hookcheck "$cc" PreToolUse claude
ok $? "other settings and other hooks are kept; ours is appended"
# Every line of the old file is still there, in order.
python3 - "$tmp/orig" "$cc" <<'EOF'
import sys
old = open(sys.argv[1]).read().splitlines()
new = open(sys.argv[2]).read().splitlines()
it = iter(new)
for line in old:
    for cand in it:
        if cand == line or cand == line + ",":
            break
    else:
        raise SystemExit("lost: " + line)
EOF
ok $? "the old text is kept line by line (only a comma added)"
grep -q '^      {$' "$cc" && grep -q '^        "matcher": "\*",$' "$cc"
ok $? "the new entry is indented like its siblings"
cmp -s "$tmp/orig" "$(ls "$cc".bak-* | head -1)"
ok $? "the backup holds the old file byte for byte"
cp "$cc" "$tmp/second"
run init claude
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/second" && [ "$(backups "$cc")" = 1 ]
ok $? "idempotent on a merged file"

# Unusual but valid JSON: kept byte for byte (numbers cJSON would
# reprint, escapes, unicode, nesting, a key spelt with an escape).
rm -rf "$proj/.claude"
mkdir -p "$proj/.claude"
printf '%s\n' '{"big": 12345678901234567890, "huge": 1e400, "neg": -0.0, "frac": 1.10,' \
	'  "esc": "a\/b \u00e9 \ud83d\ude00 tab\t", "uni": "héllo ✓", "nest": [[[1, [2]], {}], []],' \
	'  "hook\u0073": {"Stop": []}}' >"$cc"
cp "$cc" "$tmp/orig"
run init claude
[ $rc -eq 0 ] && hookcheck "$cc" PreToolUse claude
ok $? "unusual JSON: the hook is added (the escaped key \"hook\\u0073\" is hooks)"
python3 - "$tmp/orig" "$cc" <<'EOF'
import sys
old = open(sys.argv[1], "rb").read()
new = open(sys.argv[2], "rb").read()
# Everything up to the end of "Stop": [] is untouched, and so is the tail.
cut = old.index(b"[]}}") + 2
assert new.startswith(old[:cut]), new
assert new.endswith(old[cut:]), new
for s in (b"12345678901234567890", b"1e400", b"-0.0", b"1.10", b"a\\/b \\u00e9 \\ud83d\\ude00",
          "héllo ✓".encode()):
    assert s in new, s
EOF
ok $? "unusual JSON: every other byte is kept (1e400, big integers, escapes)"

# A one-line file stays one line.
printf '{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[]}]}}' >"$cc"
run init claude
[ $rc -eq 0 ] && hookcheck "$cc" PreToolUse claude && [ "$(wc -l <"$cc")" = 0 ]
ok $? "a one-line file stays on one line"

# Tabs are kept as the indentation unit.
printf '{\n\t"model": "opus"\n}\n' >"$cc"
run init claude
[ $rc -eq 0 ] && hookcheck "$cc" PreToolUse claude && grep -q "^	\"hooks\": {$" "$cc" &&
	grep -q "^			{$" "$cc"
ok $? "a tab-indented file gets tab-indented lines"

# A byte-order mark stays.
printf '\xef\xbb\xbf{"model": "opus"}\n' >"$cc"
run init claude
[ $rc -eq 0 ] && [ "$(head -c 3 "$cc" | od -An -tx1 | tr -d ' ')" = efbbbf ] &&
	python3 -c 'import json,sys; json.loads(open(sys.argv[1], encoding="utf-8-sig").read())' "$cc"
ok $? "a byte-order mark is kept"

# The file's mode is kept.
printf '{"model": "opus"}\n' >"$cc"
chmod 600 "$cc"
run init claude
[ $rc -eq 0 ] && [ "$(stat -c %a "$cc")" = 600 ]
ok $? "the file's mode is kept"

# A symlinked settings file: the link stays, its target is edited.
mkdir -p "$tmp/dotfiles"
printf '{"model": "opus"}\n' >"$tmp/dotfiles/claude-settings.json"
rm -f "$cc"
ln -s "$tmp/dotfiles/claude-settings.json" "$cc"
run init claude
[ $rc -eq 0 ] && [ -L "$cc" ] && hookcheck "$tmp/dotfiles/claude-settings.json" PreToolUse claude
ok $? "a symlinked settings file: the target is edited, the link kept"
rm -f "$cc"

# A hook entry from another cordon binary: left alone.
printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/old/cordon hook claude"}]}]}}\n' >"$cc"
cp "$cc" "$tmp/orig"
run init claude
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/orig" && grep -q "another cordon" "$tmp/err"
ok $? "another cordon's hook entry is reported and left alone"

# ---- refusals: exit 2, the file untouched, no backup ---------------------

# refused TEXT NAME PATTERN: TEXT as the settings file must be refused with
# PATTERN on stderr.
refused() {
	rm -f "$cc" "$cc".bak-*
	printf '%s' "$1" >"$cc"
	cp "$cc" "$tmp/orig"
	run init claude
	[ $rc -eq 2 ] && cmp -s "$cc" "$tmp/orig" && [ "$(backups "$cc")" = 0 ] &&
		grep -q -- "$3" "$tmp/err"
	ok $? "refused: $2"
}
refused '{"model": "opus",}' "invalid JSON (trailing comma)" "not valid JSON"
refused '{"model": ' "invalid JSON (cut short)" "not valid JSON"
refused '' "an empty file" "not valid JSON"
refused '[1, 2]' "a top level that is not an object" "top level: expected an object"
refused '{"hooks": []}' "\"hooks\" is an array" "hooks: expected an object"
refused '{"hooks": "none"}' "\"hooks\" is a string" "hooks: expected an object"
refused '{"hooks": {"PreToolUse": {}}}' "hooks.PreToolUse is an object" "hooks.PreToolUse: expected an array"
refused '{"hooks": {}, "hooks": {}}' "\"hooks\" twice" "hooks: the key appears more than once"
refused '{"hooks": {"PreToolUse": [], "PreToolUse": []}}' "hooks.PreToolUse twice" "hooks.PreToolUse: the key appears more than once"
# Strings that look like comments, and a string ending in an escaped
# backslash (which cJSON_Minify mistakes for an open string), are data.
printf '%s\n' '{"a": "\\", "url": "https://example.com/x", "b": "/*not*/ //a comment"}' >"$cc"
run init claude
[ $rc -eq 0 ] && hookcheck "$cc" PreToolUse claude &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"] == "\\" and d["url"] == "https://example.com/x", d
assert d["b"] == "/*not*/ //a comment", d
' "$cc"
ok $? "comment-like text inside strings is kept as data"
cp "$cc" "$tmp/second"
run init claude
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/second" && grep -q "already" "$tmp/out"
ok $? "and the hook is found again (idempotent)"
refused '{"a": 1 /* never closed' "a comment that is not closed" "comment is not closed"

rm -f "$cc" "$cc".bak-*

# ---- --dry-run, --user, --settings ---------------------------------------

printf '{"model": "opus"}\n' >"$cc"
cp "$cc" "$tmp/orig"
run init claude --dry-run
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/orig" && [ "$(backups "$cc")" = 0 ] &&
	python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["model"] == "opus" and d["hooks"]["PreToolUse"]' "$tmp/out"
ok $? "--dry-run prints the result and changes nothing"

run init claude --user
[ $rc -eq 0 ] && hookcheck "$HOME/.claude/settings.json" PreToolUse claude &&
	cmp -s "$cc" "$tmp/orig"
ok $? "--user writes ~/.claude/settings.json"

run init claude --settings "$tmp/elsewhere/settings.local.json"
[ $rc -eq 0 ] && hookcheck "$tmp/elsewhere/settings.local.json" PreToolUse claude
ok $? "--settings names the file"

run init claude --user --project
[ $rc -eq 2 ]
ok $? "--user with --project: exit 2"
run init
[ $rc -eq 2 ]
ok $? "no agent: exit 2"
run init frobnicator
[ $rc -eq 2 ] && grep -q "unknown agent" "$tmp/err"
ok $? "an unknown agent: exit 2"
run init --help
[ $rc -eq 0 ] && grep -q "PreToolUse" "$tmp/out" && grep -q "BeforeTool" "$tmp/out"
ok $? "--help"

# ---- gemini ----------------------------------------------------------------

run init gemini
[ $rc -eq 0 ] && hookcheck "$gm" BeforeTool gemini
ok $? "gemini: .gemini/settings.json is created with a BeforeTool hook"
run init gemini
[ $rc -eq 0 ] && grep -q "already" "$tmp/out"
ok $? "gemini: idempotent"

rm -rf "$proj/.gemini"
mkdir -p "$proj/.gemini"
cat >"$gm" <<'EOF'
// Gemini CLI reads JSON with comments
{
  "theme": "GitHub", /* the theme */
  "hooks": {
    "enabled": true,
    "BeforeTool": [
      {"matcher": "write_file|replace", "hooks": [{"name": "fmt", "type": "command", "command": "fmt.sh"}]}
    ]
  }
}
EOF
cp "$gm" "$tmp/orig"
run init gemini
[ $rc -eq 0 ] && grep -q '^// Gemini CLI reads JSON with comments$' "$gm" &&
	grep -q '/\* the theme \*/' "$gm" && grep -q '"enabled": true' "$gm" &&
	grep -q 'fmt.sh' "$gm"
ok $? "gemini: a JSONC file keeps its comments and other hooks"
sed -e 's|//.*||' -e 's|/\*.*\*/||' "$gm" >"$tmp/stripped.json"
hookcheck "$tmp/stripped.json" BeforeTool gemini
ok $? "gemini: our BeforeTool entry comes after the others"

run init gemini --user --dry-run
[ $rc -eq 0 ] && [ ! -e "$HOME/.gemini/settings.json" ] && grep -q 'hook gemini --mode auto' "$tmp/out"
ok $? "gemini: --user --dry-run creates nothing"

# ---- --remove, --sandbox, failing closed ---------------------------------

# --remove takes out exactly what init added: the file is byte for byte
# what it was, JSONC comments and other hooks included.
cp "$gm" "$tmp/with.json"
run init gemini --remove
[ $rc -eq 0 ] && cmp -s "$gm" "$tmp/orig" && grep -q 'removed the BeforeTool hook' "$tmp/out"
ok $? "gemini: --remove gives back the file as it was before init"
run init gemini --remove
[ $rc -eq 0 ] && grep -q 'nothing changed' "$tmp/out" && cmp -s "$gm" "$tmp/orig"
ok $? "gemini: --remove again changes nothing"
rm -rf "$proj/.claude"
mkdir -p "$proj/.claude"
printf '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}\n    ]\n  }\n}\n' >"$cc"
cp "$cc" "$tmp/cc.orig"
run init claude
run init claude --remove
[ $rc -eq 0 ] && cmp -s "$cc" "$tmp/cc.orig" && [ "$(backups "$cc")" -ge 2 ]
ok $? "claude: --remove gives back the file as it was, with a backup"
printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/old/cordon hook claude"}]}, {"matcher": "*", "hooks": [{"type": "command", "command": "x.sh"}, {"type": "command", "command": "cordon hook claude"}]}]}}\n' >"$cc"
cp "$cc" "$tmp/mixed"
run init claude --remove
[ $rc -eq 2 ] && cmp -s "$cc" "$tmp/mixed" && grep -q 'PreToolUse\[1\] runs cordon' "$tmp/err"
ok $? "claude: --remove refuses a group that mixes cordon's hook with another, file untouched"
printf '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/old/cordon hook claude"}]}]}}\n' >"$cc"
run init claude
[ $rc -eq 0 ] && grep -q -- '--remove' "$tmp/err"
ok $? "claude: another cordon's hook already there: init says how to switch (--remove)"
run init claude --remove
[ $rc -eq 0 ] && pycheck 'd["hooks"]["PreToolUse"] == []' <"$cc"
ok $? "claude: --remove takes out another binary's cordon hook too"

rm -f "$cc"
run init claude --sandbox
[ $rc -eq 0 ] && grep -q -- '--claude-scopes --sandbox strict || exit 2"' "$cc"
ok $? "init claude --sandbox: the hook runs with --sandbox strict"
rm -f "$cc"
run init claude --no-sandbox
[ $rc -eq 0 ] && grep -q -- '--sandbox off || exit 2"' "$cc"
ok $? "init claude --no-sandbox: the hook runs with --sandbox off"
rm -f "$cc"
run init claude --sandbox=loose
[ $rc -eq 2 ] && [ ! -e "$cc" ]
ok $? "init --sandbox=MODE other than auto or strict is a usage error"
case $exe in
/usr/bin/* | /usr/local/bin/* | /opt/*) skip "the unstable-location warning" "the binary is installed" ;;
*)
	run init claude --dry-run
	grep -q 'is not in an install location' "$tmp/err"
	ok $? "a binary outside an install location: init warns that the hook fails closed without it"
	;;
esac

# Failing closed: the installed command with its binary gone exits 2,
# which both agents take as a block (127 would let the tool run).
run init claude
cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][-1]["hooks"][0]["command"])' "$cc")
gone=${cmd/$exe/$tmp/no-such-dir/cordon}
printf '{}' | sh -c "$gone" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "the hook command with its binary gone exits 2 (a block), not 127"
printf '%s' '{"session_id":"s","cwd":"'"$proj"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"'"$proj"'/a.txt"}}' |
	sh -c "$cmd" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow"' <"$tmp/out"
ok $? "the installed hook command answers a call"

# --claude-scopes: the user's Claude Code rules (CLAUDE_CONFIG_DIR) and
# the project's apply without --claude-settings.
mkdir -p "$tmp/ccfg"
printf '{"permissions": {"deny": ["Bash(git push:*)"]}}\n' >"$tmp/ccfg/settings.json"
printf '{"permissions": {"allow": ["Bash(make:*)"]}}\n' >"$proj/.claude/settings.local.json"
bashcall() {
	printf '{"session_id":"s","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$proj" "$1"
}
bashcall 'git push origin main' | CLAUDE_CONFIG_DIR=$tmp/ccfg sh -c "$cmd" >"$tmp/out" 2>"$tmp/err"
pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "git push" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "--claude-scopes: a deny rule in \$CLAUDE_CONFIG_DIR/settings.json refuses"
bashcall 'make all' | CLAUDE_CONFIG_DIR=$tmp/ccfg sh -c "$cmd" >"$tmp/out" 2>"$tmp/err"
pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "permissions.allow" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/out"
ok $? "--claude-scopes: an allow rule in .claude/settings.local.json answers allow"
bashcall 'git push origin main' | sh -c "$cmd" >"$tmp/out" 2>"$tmp/err"
pycheck 'd["hookSpecificOutput"].get("permissionDecision") != "deny"' <"$tmp/out"
ok $? "--claude-scopes: without that scope the rule does not apply"
rm -f "$proj/.claude/settings.local.json"

# ---- a settings path that exists but cannot be read as a file -------------

mkdir -p "$tmp/isdir/sub"
run init claude --settings "$tmp/isdir"
[ $rc -ne 0 ] && [ -d "$tmp/isdir/sub" ] &&
	[ -z "$(find "$tmp" -maxdepth 1 -name 'isdir.bak-*' -print -quit)" ]
ok $? "a settings path that is a directory: refused with a non-zero exit, nothing replaced"

done_testing
