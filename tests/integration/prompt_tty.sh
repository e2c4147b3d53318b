#!/usr/bin/env bash
# `cordon check --prompt` on a real terminal: a pseudo-terminal made with
# python3's pty module becomes the controlling terminal of a new session,
# so cordon's open("/dev/tty") reaches it; the answers are typed into the
# master side. Answers y / n / s / a / d / q, an answer that is asked
# again, what the question shows, and the time-out from approvals.timeout_s.
#
# lib.sh points HOME and the XDG directories into a fresh temporary
# directory, so the user's real configuration and approvals are never read
# or written.
. "$(dirname "$0")/lib.sh"

ws=$tmp/ws
mkdir -p "$ws"
approvals=$XDG_CONFIG_HOME/cordon/approvals.json
cd "$ws" || exit 1
# On a failure: the driver's JSON.
diag_logs+=("$tmp/res")

# The driver: drive.py ANSWERS ARGS... runs cordon ARGS... with a new
# pseudo-terminal as its controlling terminal, stdin from /dev/null. It
# waits for the question, types the answers (comma-separated; each after
# the question or the "Please answer" that follows the one before; "-" for
# none), and prints one JSON line: {"rc", "stdout", "stderr", "tty",
# "elapsed", "asked"}. The child is killed after 20 s (rc -9 then).
cat >"$tmp/drive.py" <<'PY'
import fcntl, json, os, select, subprocess, sys, termios, time

answers = [a for a in sys.argv[1].split(",") if a != "-"]
master, slave = os.openpty()

def make_controlling():
    # After setsid() (start_new_session): the slave becomes the
    # controlling terminal of the new session.
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

t0 = time.monotonic()
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True,
                         preexec_fn=make_controlling, pass_fds=(slave,))
os.close(slave)
tty = b""
asked = 0
prompts = (b"Allow? [y]es once", b"Please answer")
out = {child.stdout.fileno(): b"", child.stderr.fileno(): b""}
open_fds = [master] + list(out)
deadline = t0 + 20
while open_fds and time.monotonic() < deadline:
    r, _, _ = select.select(open_fds, [], [], 0.1)
    for fd in r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            open_fds.remove(fd)
            continue
        if fd == master:
            tty += chunk
        else:
            out[fd] += chunk
    seen = sum(tty.count(p) for p in prompts)
    while asked < seen and answers:
        asked += 1
        os.write(master, answers.pop(0).encode() + b"\n")
    if child.poll() is not None and master in open_fds and not r:
        open_fds.remove(master)
if child.poll() is None:
    child.kill()
rc = child.wait()
os.close(master)
print(json.dumps({"rc": rc, "stdout": out[child.stdout.fileno()].decode(),
                  "stderr": out[child.stderr.fileno()].decode(),
                  "tty": tty.decode("utf-8", "replace"),
                  "elapsed": time.monotonic() - t0, "asked": asked}))
PY

# drive ANSWERS ARGS...: runs cordon check --prompt --json ARGS... on a
# pseudo-terminal; the driver's JSON in $tmp/res.
drive() {
	local answers=$1
	shift
	python3 "$tmp/drive.py" "$answers" "$bin" check --prompt --json "$@" \
		>"$tmp/res" 2>"$tmp/res.err"
	cat "$tmp/res.err" >>"$tmp/res"
}

# check EXPR: EXPR holds with `r` the driver's result and `d` the check
# object cordon printed.
check() {
	python3 -c '
import json, sys
r = json.loads(open(sys.argv[2]).readline())
d = json.loads(r["stdout"])
assert eval("(" + sys.argv[1] + ")")
' "$1" "$tmp/res" 2>/dev/null
}

npm='{"command": "npm install"}'

drive y --tool Bash --args "$npm"
check 'r["rc"] == 0 and d["decision"] == "allow" and d["step"] == "user"'
ok $? "answer y: allow at step user, exit 0"
check 'r["asked"] == 1 and "Bash" in r["tty"] and "npm install" in r["tty"]'
ok $? "the question names the tool and shows the arguments"
check '"risk: caution" in r["tty"] and "labels: installs" in r["tty"]
 and "why it asks: " in r["tty"]'
ok $? "the question shows the risk tier, the labels and why it asks"
check 'd["answer"] == "allow_once"'
ok $? "the check object records the answer"
[ ! -e "$approvals" ] || ! grep -q 'npm' "$approvals"
ok $? "answer y (once) writes no durable grant"

drive n --tool Bash --args "$npm"
check 'r["rc"] == 1 and d["decision"] == "deny" and d["step"] == "user"
 and d["reason"].startswith("blocked: ") and d["answer"] == "deny_once"'
ok $? "answer n: deny at step user, exit 1"

drive q --tool Bash --args "$npm"
check 'r["rc"] == 1 and d["decision"] == "deny" and d["step"] == "user"
 and d["answer"] == "abort"'
ok $? "answer q (abort): deny, exit 1"

drive maybe,y --tool Bash --args "$npm"
check 'r["rc"] == 0 and d["step"] == "user" and r["asked"] == 2
 and "Please answer" in r["tty"]'
ok $? "an unknown answer is asked again; the second answer counts"

drive s --tool Bash --args "$npm" --session s1
check 'r["rc"] == 0 and d["decision"] == "allow" and d["step"] == "user"
 and d["answer"] == "allow_session"'
ok $? "answer s (session): allow, exit 0"
run check --json --session s1 --tool Bash --args "$npm"
[ $rc -eq 3 ]
ok $? "a session grant does not outlive the process"

run check --json --tool Bash --args "$npm"
[ $rc -eq 3 ]
ok $? "before answer a, npm install asks"
drive a --tool Bash --args "$npm"
check 'r["rc"] == 0 and d["decision"] == "allow" and d["step"] == "user"
 and d["answer"] == "allow_always"'
ok $? "answer a (always): allow, exit 0"
[ -f "$approvals" ] && pyjson 'd["version"] == 1 and any(
  x["tool"] == "Bash" and x["decision"] == "allow" for x in d["rules"])' \
	<"$approvals"
ok $? "answer a writes an allow rule to the approvals file"
run check --json --tool Bash --args "$npm"
[ $rc -eq 0 ] && pyjson 'd["decision"] == "allow"
 and d["step"] == "approvals_rule"' <"$tmp/out"
ok $? "after answer a, a check without --prompt allows at approvals_rule"
drive - --tool Bash --args "$npm"
check 'r["rc"] == 0 and d["step"] == "approvals_rule" and r["asked"] == 0
 and "Allow?" not in r["tty"]'
ok $? "with a durable grant, --prompt asks nobody"

rm_build='{"command": "rm -rf build"}'
drive a --tool Bash --args "$rm_build"
check 'r["rc"] == 0 and d["step"] == "user"'
ok $? "answer a for a destructive command: allow"
run check --json --tool Bash --args "$rm_build"
[ $rc -eq 0 ] && pyjson 'd["step"] == "approvals_rule"' <"$tmp/out"
ok $? "the destructive grant allows the same command later"
run check --json --tool Bash --args '{"command": "rm -rf dist"}'
[ $rc -eq 3 ] && pyjson 'd["step"] == "classifier"' <"$tmp/out"
ok $? "the destructive grant is exact: rm -rf dist still asks"

run check --json --mode auto --tool Bash --args '{"command": "git status"}'
[ $rc -eq 0 ]
ok $? "git status is allowed in auto mode"
drive d --tool Bash --args '{"command": "git status"}'
check 'r["rc"] == 1 and d["decision"] == "deny" and d["step"] == "user"
 and d["answer"] == "deny_always"'
ok $? "answer d (never): deny, exit 1"
run check --json --mode auto --tool Bash --args '{"command": "git status"}'
[ $rc -eq 1 ] && pyjson 'd["step"] == "approvals_rule"' <"$tmp/out"
ok $? "after answer d the call is denied even in auto mode"

drive y --tool Bash --args $'{"command": "echo \e[2J\a hi"}'
check 'r["asked"] == 1 and d["step"] == "user" and "echo ?[2J? hi" in r["tty"]
 and "\x1b" not in r["tty"] and "\x07" not in r["tty"]'
ok $? "raw control characters in the arguments reach the terminal as ?"
drive y --tool $'Bash\e]0;pwned\a' --args '{"command": "ls"}'
check 'r["asked"] == 1 and "Bash?]0;pwned?" in r["tty"]
 and "\x1b" not in r["tty"] and "\x07" not in r["tty"]'
ok $? "control characters in the tool name reach the terminal as ?"

echo '{"approvals": {"timeout_s": 1}}' >"$tmp/t1.json"
drive - --config "$tmp/t1.json" --tool Bash --args "$npm" --no-approvals
check 'r["rc"] == 1 and d["decision"] == "deny" and d["step"] == "timed_out"'
ok $? "no answer with approvals.timeout_s 1: deny at timed_out"
check 'r["elapsed"] < 8 and r["elapsed"] >= 0.9'
ok $? "the time-out comes after about a second"
check '"no answer in time" in r["tty"]'
ok $? "the terminal is told that the time ran out"

done_testing
