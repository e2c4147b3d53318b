#!/usr/bin/env bash
# The plumbing of `cordon classify` and the dispatcher, against the built
# binary ($CORDON_BIN): output shapes, batch mode order and errors, option
# and rules-file errors, exit statuses. What the verdicts say is tested by
# tests/cases/shell; here only `rm -rf /` (blocked) and `ls` (safe) as a
# smoke test.
. "$(dirname "$0")/lib.sh"

shape='set(d) == {"risk", "labels", "reasons", "segments", "matchedRules", "parsed"}
 and list(d)[0] == "risk"
 and d["risk"] in ("safe", "caution", "destructive", "blocked")
 and isinstance(d["labels"], list) and all(isinstance(x, str) for x in d["labels"])
 and isinstance(d["reasons"], list) and all(isinstance(x, str) for x in d["reasons"])
 and isinstance(d["matchedRules"], list) and all(isinstance(x, str) for x in d["matchedRules"])
 and isinstance(d["parsed"], bool)
 and isinstance(d["segments"], list) and len(d["segments"]) >= 1
 and all(set(s) == {"text", "risk", "labels"} and isinstance(s["text"], str)
         and s["risk"] in ("safe", "caution", "destructive", "blocked")
         and isinstance(s["labels"], list) for s in d["segments"])'

# --- --json -------------------------------------------------------------

run classify --json -- ls -la
ok $rc "classify --json exits 0"
pycheck "$shape" <"$tmp/out"
ok $? "--json prints one line with the six keys and their types"
[ "$(head -c 1 "$tmp/out")" = "{" ] && ! grep -q '": ' "$tmp/out"
ok $? "--json output is compact"

run classify --json -- ls
pycheck 'd["risk"] == "safe"' <"$tmp/out"
ok $? "smoke: ls is safe"

run classify --json -- rm -rf /
pycheck 'd["risk"] == "blocked"' <"$tmp/out"
ok $? "smoke: rm -rf / is blocked"
ok $rc "a blocked command still exits 0"

run classify --json rm -rf /
pycheck 'd["risk"] == "blocked"' <"$tmp/out"
ok $? "without --, the first non-option word starts the command"

run classify --json -- "echo 'a  b' | cat"
pycheck "$shape"' and any(chr(39) + "a  b" + chr(39) in s["text"]
 for s in d["segments"])' <"$tmp/out"
ok $? "a one-argument command is taken as is, quotes and spaces kept"

run classify --json -- echo "a  b"
pycheck '"a  b" in " ".join(s["text"] for s in d["segments"])' <"$tmp/out"
ok $? "several arguments are joined with single spaces"

run classify --json --cwd /home/u/p --workspace /home/u/p --home /home/u \
	--max-depth 2 -- ls
pycheck "$shape" <"$tmp/out"
ok $? "context options are accepted"

# --- human view -----------------------------------------------------------

run classify -- rm -rf /
head -n 1 "$tmp/out" | grep -qx 'risk: blocked'
ok $? "human view starts with 'risk: blocked'"
grep -q '^labels: ' "$tmp/out" && grep -q '^reasons:' "$tmp/out" &&
	grep -q '^rules: ' "$tmp/out"
ok $? "human view has labels, reasons and rules lines"
! grep -q $'\033' "$tmp/out"
ok $? "no colour when stdout is not a terminal"

run classify -- $'printf \'a\033[2Jb\''
[ $rc -eq 0 ]
ok $? "a command holding an escape character classifies"
! grep -q $'\033' "$tmp/out"
ok $? "control characters in the command are escaped in the human view"

# --- --jsonl --------------------------------------------------------------

printf '%s\n' '"ls"' '{"command": "rm -rf /"}' '{not json' '' \
	'{"command": "git status", "cwd": "/tmp", "extra": 1}' '42' \
	'{"command": 7}' '{"command": "ls", "cwd": "relative"}' \
	>"$tmp/batch"
printf '"echo last line without newline"' >>"$tmp/batch"
run_file "$tmp/batch" classify --jsonl
ok $rc "--jsonl exits 0 despite malformed lines"
PYLINES=1 pycheck 'len(lines) == 9
 and lines[0]["risk"] == "safe"
 and lines[1]["risk"] == "blocked"
 and lines[2] == {"error": lines[2]["error"], "line": 3}
 and lines[3] == {"error": lines[3]["error"], "line": 4}
 and "risk" in lines[4]
 and lines[5]["line"] == 6 and "error" in lines[5]
 and lines[6]["line"] == 7 and "command" in lines[6]["error"]
 and lines[7]["line"] == 8 and "cwd" in lines[7]["error"]
 and "risk" in lines[8]' <"$tmp/out"
ok $? "--jsonl: one result line per input line, in order, errors inline"
[ "$(wc -l <"$tmp/out")" -eq 9 ]
ok $? "--jsonl: nine output lines"

printf '"ls"\r\n"rm -rf /"\r\n' | "$bin" classify --jsonl >"$tmp/out"
PYLINES=1 pycheck 'len(lines) == 2 and lines[1]["risk"] == "blocked"' \
	<"$tmp/out"
ok $? "--jsonl accepts CRLF line ends"

python3 -c '
import sys
sys.stdout.write("\"ls\"\n")
sys.stdout.write("\"" + "x" * (2 * 1024 * 1024) + "\"\n")
sys.stdout.write("\"rm -rf /\"\n")' >"$tmp/long"
run_file "$tmp/long" classify --jsonl
PYLINES=1 pycheck 'len(lines) == 3 and lines[0]["risk"] == "safe"
 and "max_batch_line" in lines[1]["error"] and lines[1]["line"] == 2
 and lines[2]["risk"] == "blocked"' <"$tmp/out"
ok $? "an over-long line is an error naming max_batch_line; the batch resumes"

: | "$bin" classify --jsonl >"$tmp/out"
ok $? "--jsonl on empty input exits 0"
[ ! -s "$tmp/out" ]
ok $? "--jsonl on empty input prints nothing"

python3 -c '
for i in range(3000):
    print("\"echo %d\"" % i if i % 2 else "{\"command\": \"ls %d\"}" % i)' \
	>"$tmp/many"
run_file "$tmp/many" classify --jsonl
[ "$(wc -l <"$tmp/out")" -eq 3000 ] && ! grep -q '"error"' "$tmp/out"
ok $? "--jsonl handles 3000 lines"

# \u0000 would cut the command short in cJSON: refused; an escaped
# backslash before "u0000" is text.
printf '%s\n' '{"command": "ls\u0000; rm -rf /"}' '"echo a\\u0000"' |
	"$bin" classify --jsonl >"$tmp/out"
PYLINES=1 pycheck 'len(lines) == 2 and lines[0]["line"] == 1
 and "NUL" in lines[0]["error"]
 and lines[1]["segments"][0]["text"] == "echo a\\u0000"' <"$tmp/out"
ok $? "--jsonl: a \\u0000 escape is an error line, an escaped backslash is not"

# The result lines go out in chunks of 64 KiB: past many chunks, error
# lines (written on their own path) stay in their place among the verdicts.
python3 -c '
for i in range(4000):
    print("{bad %d" % i if i % 7 == 3 else "\"rm -rf /tmp/d%d && echo %d\"" % (i, i))' \
	>"$tmp/chunks"
run_file "$tmp/chunks" classify --jsonl
[ "$(wc -c <"$tmp/out")" -gt 200000 ] &&
	PYLINES=1 pycheck 'len(lines) == 4000 and all(
 (l == {"error": l["error"], "line": i + 1}) if i % 7 == 3 else
 (l["segments"][0]["text"] == "rm -rf /tmp/d%d" % i and
  l["segments"][1]["text"] == "echo %d" % i)
 for i, l in enumerate(lines))' <"$tmp/out"
ok $? "--jsonl: 4,000 results past many output chunks, errors in their place"

# stdin is read 64 KiB at a time: a line longer than that (and under
# max_batch_line) is read whole, and the lines around it stay whole.
python3 -c '
print("\"ls\"")
print("\"echo " + "y" * 200000 + "\"")
print("\"rm -rf /\"")' >"$tmp/wide"
run_file "$tmp/wide" classify --jsonl
PYLINES=1 pycheck 'len(lines) == 3 and lines[0]["risk"] == "safe"
 and lines[1]["segments"][0]["text"] == "echo " + "y" * 200000
 and lines[2]["risk"] == "blocked"' <"$tmp/out"
ok $? "--jsonl: a 200 KB line past a read piece is classified whole"

if [ -w /dev/full ]; then
	printf '"ls"\n"rm -rf /"\n' | "$bin" classify --jsonl >/dev/full 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'stdout' "$tmp/err"
	ok $? "--jsonl: a write error is reported, exit 1"
else
	skip "--jsonl: a write error is reported, exit 1" "no /dev/full"
fi

# A bare JSON string line is read without cJSON when it has no escapes:
# each command as a bare string and as an object must give the same line,
# and a string followed by anything but blanks stays an error.
python3 -c '
import json
cmds = ["ls -la", "rm -rf /", "caf\u00e9 && echo \u20ac", "cat ~/.ssh/id_rsa",
        "echo \"quoted\" | sh", "printf \"a\\tb\"", "x" * 5000]
for c in cmds:
    print("  " + json.dumps(c, ensure_ascii=False) + " \t")
    print(json.dumps({"command": c}))
print("\"ls\" x")
print("\"ls")' >"$tmp/plain"
run_file "$tmp/plain" classify --jsonl
PYLINES=1 pycheck 'len(lines) == 16
 and all(lines[i] == lines[i + 1] and "risk" in lines[i]
         for i in range(0, 14, 2))
 and lines[2]["risk"] == "blocked"
 and lines[14]["line"] == 15 and "error" in lines[14]
 and lines[15]["line"] == 16 and "error" in lines[15]' <"$tmp/out"
ok $? "--jsonl: a bare string line and its object give the same verdict"

# --- usage and configuration errors ------------------------------------------

run classify --bogus -- ls
[ $rc -eq 2 ] && grep -q -- '--bogus' "$tmp/err"
ok $? "an unknown option exits 2 naming it"

run classify
[ $rc -eq 2 ] && [ -s "$tmp/err" ]
ok $? "no command exits 2 with a message"

run classify --jsonl -- ls
[ $rc -eq 2 ]
ok $? "--jsonl with a command exits 2"

run classify --max-depth many -- ls
[ $rc -eq 2 ] && grep -q -- '--max-depth' "$tmp/err"
ok $? "a bad --max-depth exits 2"

run classify --rules "$tmp/no-such-rules.json" -- ls
[ $rc -eq 2 ] && grep -q 'no-such-rules.json' "$tmp/err"
ok $? "--rules with a missing file exits 2 naming the file"

cat >"$tmp/bad-rules.json" <<'JSON'
[{"id": "my-broken-rule", "label": "x", "description": "x",
  "pattern": "rm (-rf", "category": "x", "severity": "critical",
  "platform": "all"}]
JSON
run classify --rules "$tmp/bad-rules.json" -- ls
[ $rc -eq 2 ] && grep -q 'bad-rules.json' "$tmp/err" &&
	grep -q 'my-broken-rule' "$tmp/err"
ok $? "--rules with an invalid pattern exits 2 naming the file and the rule"

cat >"$tmp/rules.json" <<'JSON'
[{"id": "no-frobnicate", "label": "frob", "description": "no frobnicating",
  "pattern": "\\bfrobnicate\\b", "category": "custom",
  "severity": "warning", "platform": "all"}]
JSON
run classify --rules "$tmp/rules.json" --json -- frobnicate --all
pycheck '"no-frobnicate" in d["matchedRules"]
 and d["risk"] in ("caution", "destructive", "blocked")' <"$tmp/out"
ok $? "--rules: a matching user rule is reported in matchedRules"

python3 -c 'print("[" + " " * (1024 * 1024 + 1) + "]")' >"$tmp/huge.json"
run classify --rules "$tmp/huge.json" -- ls
[ $rc -eq 2 ] && grep -q 'max_rules_bytes' "$tmp/err"
ok $? "--rules over max_rules_bytes exits 2 naming the limit"

# --- the dispatcher --------------------------------------------------------

run --version
[ $rc -eq 0 ] && grep -qx 'cordon [0-9]*\.[0-9]*\.[0-9]*' "$tmp/out"
ok $? "--version prints the version"

run --help
[ $rc -eq 0 ] && grep -q classify "$tmp/out"
ok $? "--help lists the commands"

run no-such-command
[ $rc -eq 2 ] && grep -q 'no-such-command' "$tmp/err"
ok $? "an unknown command exits 2 naming it"

run
[ $rc -eq 2 ] && grep -q usage "$tmp/err"
ok $? "no command at all prints usage on stderr, exits 2"

run help classify
[ $rc -eq 0 ] && grep -q -- '--jsonl' "$tmp/out"
ok $? "help classify"

run classify --help
[ $rc -eq 0 ] && grep -q -- '--workspace' "$tmp/out"
ok $? "classify --help"

done_testing
