#!/usr/bin/env bash
# The hooks' sandbox rewrite, run for real: `cordon hook claude|gemini`
# answers a shell call with a command that runs the judged bytes in
# `cordon run` (cli/hooksbx.h).
#
#   - the round trip: over 500 command lines (every kind of quote, $'…',
#     here-docs, newlines, control bytes, unicode, lines up to 89 KiB), the
#     rewritten command's stdout and exit status under `bash -c` equal the
#     original's under `bash -c`;
#   - the kernel: a write outside the workspace is refused (EROFS/EACCES,
#     the file untouched), a write inside lands;
#   - cordon run refuses a command whose digest is not the one judged, and
#     base64 that is not strict;
#   - hooks.sandbox: strict without a backend denies, auto says it is not
#     sandboxed, off leaves the command as it was; too long a command is
#     refused, never run outside the sandbox.
# Needs root (the sandbox's namespaces); the scratch tree is under /var/tmp
# since the sandbox has its own /tmp.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for the sandbox"
need bash python3
"$bin" run --probe >/dev/null 2>&1 || skip_all "no sandbox backend works here"

scratch=$(mktemp -d /var/tmp/cordon-hooksbx.XXXXXX)
# shellcheck disable=SC2064
trap "rm -rf '$scratch'; cleanup" EXIT
ws=$scratch/ws
outside=$scratch/outside
mkdir -p "$ws" "$outside"
printf 'before\n' >"$outside/keep.txt"
cd "$ws" || exit 1
unset CLAUDE_PROJECT_DIR GEMINI_PROJECT_DIR

# ---- the round trip ------------------------------------------------------

python3 - "$bin" "$ws" >"$tmp/rt.out" 2>"$tmp/rt.err" <<'EOF'
import json, os, subprocess, sys

bin_, ws = sys.argv[1], sys.argv[2]
env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ["HOME"],
       "LANG": "C.UTF-8", "XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"],
       "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"]}

# Payloads: what the commands print, in many shapes.
payloads = [
    "", "plain", "two words", "  lead and trail  ", "tab\there",
    "new\nline", "cr\rreturn", "crlf\r\n", "back\\slash", "\\n not a newline",
    "single ' quote", "double \" quote", "both ' and \"", "''", '""',
    "$HOME", "${HOME}", "$(echo sub)", "`echo tick`", "$((1+2))", "$'x'",
    "*", "?", "[a-z]", "{a,b}", "~", "~root", "!", "!!", "#hash", "a#b",
    ";", "&&", "||", "|", "&", ">", "<", ">>", "2>&1", "<<EOF", "(", ")",
    "%s%d%%", "-n", "-e", "--", "\\", "\\\\", "'\\''", "end\\",
    "\x01\x02\x03", "\x07bell", "\x1b[31mred\x1b[0m", "\x7fdel",
    "\x0bvt\x0cff", "\x1f", "\u0085nel", "\u00a0nbsp", "caf\u00e9",
    "e\u0301", "\u65e5\u672c\u8a9e", "\u05e9\u05dc\u05d5\u05dd",
    "\u202ertl\u202c", "zero\u200bwidth", "\ufeffbom", "\U0001f600",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\uffff", "\U0010ffff",
    "a" * 200, "x" * 4000, "quote'" * 300, "$" * 100, "\\" * 101,
    "line\n" * 50, "IFS=,; echo a,b", "$IFS", "${#HOME}", "${HOME:0:1}",
    "$@", "$*", "$#", "$0", "$-", "${!HOME}", "$[1+1]", "<(true)",
    ">(true)", "a\\\nb", "\\\n", "EOF", "'EOF'", "\tEOF", "x\0y".replace("\0", ""),
    "\u2028ls\u2029", "\u0000".replace("\u0000", "nul-free"), "π≈3.14",
    "ümlaut ß", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\U000e0041tag", "%n%p", "\\x41\\101",
]

def sq(s):  # single quotes
    return "'" + s.replace("'", "'\\''") + "'"

def dq(s):  # double quotes, escaping what expands
    out = ""
    for ch in s:
        if ch in '"\\$`':
            out += "\\" + ch
        else:
            out += ch
    return '"' + out + '"'

def ansi(s):  # $'…' with every non-alphanumeric byte escaped
    out = ""
    for b in s.encode("utf-8"):
        c = chr(b)
        if c.isalnum() and b < 128:
            out += c
        else:
            out += "\\x%02x" % b
    return "$'" + out + "'"

def ansi_mixed(s):  # $'…' with the usual escapes
    m = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "'": "\\'", "\\": "\\\\",
         "\x07": "\\a", "\x1b": "\\e", "\x0b": "\\v", "\x0c": "\\f"}
    return "$'" + "".join(m.get(c, c) for c in s) + "'"

def bs(s):  # every character backslash-escaped (newline: quoted)
    return "".join("'\n'" if c == "\n" else "\\" + c for c in s) or "''"

def heredoc_q(s):
    return "cat <<'CORDON_END'\n" + s + "\nCORDON_END"

def heredoc_dash(s):
    return "cat <<-'CORDON_END'\n\t" + s.replace("\n", "\n\t") + "\n\tCORDON_END"

styles = [
    lambda p: "printf '%s\\n' " + sq(p),
    lambda p: "printf '%s\\n' " + dq(p),
    lambda p: "printf '%s\\n' " + ansi(p),
    lambda p: "printf '%s\\n' " + ansi_mixed(p),
    lambda p: "printf '%s\\n' " + bs(p),
    lambda p: heredoc_q(p) if "CORDON_END" not in p else "echo skip",
    lambda p: heredoc_dash(p) if "CORDON_END" not in p else "echo skip",
    lambda p: "x=" + sq(p) + "; printf '%s' \"${#x}:$x\" | od -An -tx1",
]

# Each payload in five of the eight styles, rotating, so every style meets
# every kind of payload and the test stays near 650 rows.
rows = []
for i, p in enumerate(payloads):
    for k in range(5):
        rows.append(styles[(i + k) % len(styles)](p))
# Whole scripts: here-docs that expand, functions, loops, arrays, traps,
# comments, line continuations, CRLF, very long lines.
rows += [
    "cat <<EOF\n$((6*7)) ${HOME:+set} $(echo nested \"$(echo deep)\")\nEOF",
    "cat <<EOF\n\\$HOME \\`x\\` \\\\\nEOF",
    "cat <<\"EOF\"\n$HOME `x`\nEOF",
    "cat <<A; cat <<B\na\nA\nb\nB",
    "cat <<<'here string'", "cat <<<\"$((2**10))\"", "cat <<< $'a\\tb'",
    "f() { printf '[%s]' \"$@\"; echo; }; f a 'b c' \"d'e\" $'f\\ng'",
    "a=(1 'two three' $'four\\tfive'); printf '<%s>' \"${a[@]}\"; echo",
    "for i in 1 2 3; do\n  echo \"$i\"\ndone",
    "i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done",
    "case x in x) echo yes ;; *) echo no ;; esac",
    "if true; then echo t; else echo f; fi",
    "echo a \\\n  b \\\n  c",
    "# a comment only",
    "echo visible # comment with 'quote and \"dq",
    "echo one; echo two\necho three",
    "echo a && echo b || echo c",
    "false || echo fallback; echo $?",
    "exit 3", "(exit 7); echo $?", "sh -c 'exit 5'",
    "echo out; echo err >&2; exit 0",
    "printf 'no newline at end'",
    "echo $'\\x01\\x02' | od -An -c",
    "trap 'echo bye' EXIT; echo hi",
    "set -- a b c; echo $# \"$2\"",
    "echo \"$(printf '%s' \"$(printf '%s' 'inner \\\" q')\")\"",
    "echo `echo \\`echo back\\``",
    "x='a b'; echo $x; echo \"$x\"",
    "printf '%q\\n' $'tab\\there' \"new\nline\"",
    "echo {1..5}", "echo {a,b}{c,d}", "echo ~ | grep -c /",
    "echo crlf\r", "echo a\r\necho b\r",
    "   echo leading-space", "\techo leading-tab", "echo trailing   ",
    "echo " + "y" * 60000,
    "printf '%s' " + sq("z" * 89000) + " | wc -c",
    "x=" + sq("L" * 30000) + "\necho ${#x}\n" + "echo " + "w " * 10000,
    ":", "true", "echo", "echo ''", "echo \"\"", "echo $''",
    "echo 'it'\\''s'", "echo \"it's\"", "echo $'it\\'s'",
    "echo \u65e5\u672c; echo \U0001f600 | od -An -tx1",
    "printf '\\u00e9\\n'", "printf '\\xe2\\x82\\xac\\n'",
    "echo -e 'a\\tb'", "echo -n x; echo y",
    "read -r l <<< 'read me'; echo \"$l\"",
    "mapfile -t a <<'E'\n1\n2\nE\necho ${#a[@]}",
    "eval 'echo evaled'", "bash -c 'echo \"$0\" \"$1\"' zero one",
    "x=$'\\n'; [ \"$x\" = '\n' ] && echo same",
    "echo \"${HOME//\\//|}\" | tr -cd '|' | wc -c",
    "pwd | grep -c cordon-hooksbx",
    "echo $((0x10 + 010 + 2#101))",
    "printf '%s\\n' \"a\"'b'$'c'\"d\"",
    "echo \\$notvar \\`nottick\\` \\\\",
    "echo \"\\$notvar \\`nottick\\` \\\\ \\\"\"",
    "echo '\\$x' '\"' '`'",
]
assert len(rows) >= 500, len(rows)

def hook(cmd, mode="bypassPermissions"):
    inp = {"session_id": "rt", "cwd": ws, "permission_mode": mode,
           "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": cmd, "description": "round trip",
                          "timeout": 60000}}
    r = subprocess.run([bin_, "hook", "claude", "--audit-log", "-"],
                       input=json.dumps(inp).encode(), capture_output=True,
                       env=env, cwd=ws)
    return json.loads(r.stdout)["hookSpecificOutput"]

def run(cmd):
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, env=env,
                       cwd=ws, timeout=120)
    return r.returncode, r.stdout

bad = 0
for i, cmd in enumerate(rows):
    out = hook(cmd)
    upd = out.get("updatedInput")
    if out.get("permissionDecision") != "allow" or not upd:
        print("not ok %d - row %d not allowed+rewritten: %r -> %r"
              % (i + 1, i, cmd[:80], out))
        bad += 1
        continue
    keep = (upd.get("description"), upd.get("timeout"))
    want = run(cmd)
    got = run(upd["command"])
    if got != want or keep != ("round trip", 60000):
        print("not ok %d - row %d %r: want %r got %r"
              % (i + 1, i, cmd[:80], want[0:1] + (want[1][:120],),
                 got[0:1] + (got[1][:120],)))
        bad += 1
    else:
        print("ok %d - row %d" % (i + 1, i))
print("# rows %d bad %d" % (len(rows), bad))
sys.exit(1 if bad else 0)
EOF
rt=$?
rows=$(grep -c '^ok ' "$tmp/rt.out")
[ $rt -eq 0 ] && [ "$rows" -ge 500 ]
ok $? "round trip: $rows command lines give the same stdout and status sandboxed as under bash -c"
if [ $rt -ne 0 ]; then
	grep '^not ok' "$tmp/rt.out" | head -20 | sed 's/^/# /'
	tail -5 "$tmp/rt.err" | sed 's/^/# /'
fi

# ---- the kernel holds the writes -----------------------------------------

# rewritten AGENT COMMAND [MODE]: the rewritten command of a call (empty
# when the answer has none); the answer in $tmp/answer.
rewritten() {
	local agent=$1 cmd=$2 mode=${3:-default}
	python3 -c '
import json, sys
agent, cmd, ws, mode = sys.argv[1:5]
if agent == "claude":
    d = {"session_id": "k", "cwd": ws, "permission_mode": mode,
         "hook_event_name": "PreToolUse", "tool_name": "Bash",
         "tool_input": {"command": cmd, "run_in_background": False}}
else:
    d = {"session_id": "k", "cwd": ws, "hook_event_name": "BeforeTool",
         "tool_name": "run_shell_command",
         "tool_input": {"command": cmd, "dir_path": "."}}
print(json.dumps(d))' "$agent" "$cmd" "$ws" "$mode" |
		"${hook_pre[@]}" "$bin" hook "$agent" --audit-log "$tmp/audit.jsonl" \
			"${hook_args[@]}" >"$tmp/answer" 2>"$tmp/err"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
u = d.get("hookSpecificOutput", {})
u = u.get("updatedInput") or u.get("tool_input") or {}
print(u.get("command", ""))' "$tmp/answer"
}
hook_args=()
hook_pre=()

for agent in claude gemini; do
	rm -f "$ws/inside.txt"
	c=$(rewritten $agent "echo landed > $ws/inside.txt; echo owned > $outside/keep.txt; echo new > $outside/new.txt")
	[ -n "$c" ] || {
		ok 1 "$agent: the write command is rewritten"
		continue
	}
	bash -c "$c" >"$tmp/out" 2>"$tmp/err"
	grep -Eq 'Read-only file system|Permission denied' "$tmp/err" &&
		[ "$(cat "$outside/keep.txt")" = before ] &&
		[ ! -e "$outside/new.txt" ]
	ok $? "$agent: writes outside the workspace are refused by the kernel, the file untouched"
	[ "$(cat "$ws/inside.txt" 2>/dev/null)" = landed ]
	ok $? "$agent: a write inside the workspace lands"
done

# Plan mode: a safe command runs with nothing writable, the workspace
# included (the kernel keeps plan mode read-only); reads work.
printf 'readable\n' >"$ws/plan.txt"
c=$(rewritten claude "cat plan.txt; echo x > $ws/plan-write.txt" plan)
[ -n "$c" ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow"' <"$tmp/answer" &&
	bash -c "$c" >"$tmp/out" 2>"$tmp/err"
grep -q readable "$tmp/out" && grep -q 'Read-only file system' "$tmp/err" &&
	[ ! -e "$ws/plan-write.txt" ]
ok $? "plan mode: a safe command reads the workspace, and the kernel refuses its write there"
c=$(rewritten claude "rm -rf $ws" plan)
[ -z "$c" ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny"' <"$tmp/answer"
ok $? "plan mode: a command that is not safe is denied"

# The agents' own logins are masked in the sandbox.
sh_home=$scratch/home
mkdir -p "$sh_home/.claude" "$sh_home/.gemini" "$sh_home/.codex"
for f in .claude/.credentials.json .claude.json .gemini/oauth_creds.json .codex/auth.json; do
	printf 'TOKEN-%s\n' "$f" >"$sh_home/$f"
done
HOME=$sh_home "$bin" run --workspace "$ws" --audit-log - -- sh -c \
	"cat $sh_home/.claude/.credentials.json $sh_home/.claude.json $sh_home/.gemini/oauth_creds.json $sh_home/.codex/auth.json" \
	>"$tmp/out" 2>"$tmp/err"
! grep -q TOKEN "$tmp/out"
ok $? "the agents' credential files are masked inside the sandbox"

# What Claude Code keeps: run_in_background and every other member.
c=$(rewritten claude "true")
pycheck 'd["hookSpecificOutput"]["updatedInput"]["run_in_background"] is False' <"$tmp/answer"
ok $? "updatedInput keeps the other members of tool_input"
c=$(rewritten gemini "true")
pycheck 'd["hookSpecificOutput"]["tool_input"]["dir_path"] == "."' <"$tmp/answer"
ok $? "gemini: tool_input keeps dir_path"

# ---- cordon run checks what it runs --------------------------------------

c=$(rewritten claude "echo ran > $ws/ran.txt")
b64=$(printf '%s' "$c" | sed -n 's/.*--command-b64 \([^ ]*\).*/\1/p')
other=$(printf 'echo tampered > %s/ran.txt' "$ws" | base64 -w0)
rm -f "$ws/ran.txt"
bash -c "${c/$b64/$other}" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 125 ] && grep -q "not the command that was judged" "$tmp/err" &&
	[ ! -e "$ws/ran.txt" ]
ok $? "cordon run refuses a command whose SHA-256 is not the judged one (125, nothing ran)"
bash -c "${c/$b64/${b64%?}}" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 125 ] && grep -q "not strict base64" "$tmp/err" && [ ! -e "$ws/ran.txt" ]
ok $? "cordon run refuses base64 that is not strict"
"$bin" run --command-b64 eA== -- true >"$tmp/out" 2>"$tmp/err"
[ $? -eq 125 ] && grep -q "go together" "$tmp/err"
ok $? "cordon run: --command-b64 without --command-sha256, or with ARGV, is a usage error"
bash -c "$c" && [ "$(cat "$ws/ran.txt")" = ran ]
ok $? "the untouched rewrite runs"

# The agent stops the rewritten command (its Bash tool's time-out): a
# command that ignores every catchable signal and left a child in a
# session of its own. SIGTERM is the command's to take (cordon run stays
# and holds its sandbox); SIGKILL of cordon run leaves nothing (by pid,
# the host's).
tok="$$07"
c=$(rewritten claude "trap '' TERM HUP INT QUIT; (setsid sh -c \"trap '' TERM HUP INT; exec sleep $tok.2\" </dev/null >/dev/null 2>&1 &); exec sleep $tok.1" bypassPermissions)
bash -c "exec $c" </dev/null >/dev/null 2>&1 &
run=$!
for i in $(seq 200); do
	left=$(pgrep -f "^sleep $tok\.[12]$" | tr '\n' ' ')
	[ "$(echo $left | wc -w)" -eq 2 ] && break
	sleep 0.1
done
why=""
[ "$(echo $left | wc -w)" -eq 2 ] || why="the command did not start"
kill -TERM "$run"
sleep 1
[ -d "/proc/$run" ] || why="$why; cordon run left on SIGTERM"
kill -KILL "$run"
wait "$run" 2>/dev/null
for i in $(seq 100); do
	still=""
	for p in $left; do [ -d "/proc/$p" ] && still="$still $p"; done
	[ -z "$still" ] && break
	sleep 0.1
done
[ -z "$still" ] || why="$why; left:$still"
for p in $still; do kill -KILL "$p"; done
[ -z "$why" ] || echo "# $why"
ok "$([ -z "$why" ]; echo $?)" "the rewrite stopped by the agent: SIGTERM is the command's, SIGKILL of cordon run leaves nothing"

# ---- hooks.sandbox -------------------------------------------------------

long=$(python3 -c 'print("echo " + "q" * (91 * 1024))')
c=$(rewritten claude "$long" bypassPermissions)
[ -z "$c" ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "script file" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/answer"
ok $? "a command over the rewrite's limit is refused, not run outside the sandbox"

printf '{"hooks": {"sandbox": "off"}}\n' >"$tmp/off.json"
hook_args=(--config "$tmp/off.json")
c=$(rewritten claude "ls" bypassPermissions)
[ -z "$c" ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "hooks.sandbox is off" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/answer"
ok $? "hooks.sandbox off: no rewrite, and the reason says so"

# No backend: the hook runs where Landlock, user namespaces and seccomp
# fail as on a kernel without them (nobackend.py); a planted probe cache
# is not believed (src/sandbox/probe.c), so it cannot stand in, and an
# empty cache directory makes the hook probe afresh.
mkdir -p "$tmp/nocache"
hook_pre=(env XDG_CACHE_HOME="$tmp/nocache" python3
	"$src/tests/integration/nobackend.py")
printf '{"hooks": {"sandbox": "strict"}}\n' >"$tmp/strict.json"
hook_args=(--config "$tmp/strict.json")
c=$(rewritten claude "ls" bypassPermissions)
[ -z "$c" ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "deny" and "strict" in d["hookSpecificOutput"]["permissionDecisionReason"] and "no sandbox backend" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/answer"
ok $? "hooks.sandbox strict without a backend: deny, saying why"
c=$(rewritten gemini "ls")
[ -z "$c" ] && pycheck 'd["decision"] == "deny"' <"$tmp/answer"
ok $? "gemini: strict without a backend: deny"
hook_args=()
c=$(rewritten claude "ls" bypassPermissions)
[ -z "$c" ] && pycheck 'd["hookSpecificOutput"]["permissionDecision"] == "allow" and "not sandboxed: no sandbox backend" in d["hookSpecificOutput"]["permissionDecisionReason"]' <"$tmp/answer"
ok $? "hooks.sandbox auto without a backend: the agent runs it, and the reason says it is not sandboxed"
hook_pre=()

done_testing
