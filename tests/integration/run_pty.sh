#!/usr/bin/env bash
# `cordon run` on a terminal: the command gets a pty cordon made and
# relays (src/sandbox/pty.c), never the caller's terminal. On both backends
# (where they work): `stty raw` and readline work inside; the caller's
# terminal mode is the same after the run (also after the command is
# SIGKILLed and after cordon gets SIGTERM); the window size reaches the
# command at the start and on SIGWINCH; TIOCSTI is refused; the caller's
# terminal opened by path (/dev/pts/N, /proc/CORDON/fd/0) is refused with
# the kernel's errno; --no-pty passes the terminal through with its mode
# locked; a run whose stdio is not a terminal gets no pty.
#
# The terminal is a pty the driver (drive.py) makes, the controlling
# terminal of a new session cordon runs in (as a shell's job would);
# one case runs under script(1), as the issue's reproduction does.
. "$(dirname "$0")/lib.sh"

if ! python3 -c 'import pty' 2>/dev/null; then
	skip_all "no python3"
fi
ws=$tmp/ws
mkdir -p "$ws"
# In the workspace: the namespaces backend's /tmp is its own.
A=$ws/attempt
cc -std=c17 -D_GNU_SOURCE -O0 -o "$A" "$src/tests/escape/attempt.c" \
	2>"$tmp/cc.err" || skip_all "cannot build tests/escape/attempt.c"
cd "$ws" || exit 1
diag_logs+=("$tmp/res")

# drive.py [--size R,C] [--wait TEXT] [--type TEXT] [--resize R,C]
#          [--signal SIG] [--stop TEXT] [--wait2 TEXT] -- ARGV...
# Runs ARGV with a new pty as stdin, stdout, stderr and controlling
# terminal (@TTY@ in ARGV becomes the pty's name). After TEXT shows in
# the output: types TEXT (Python escapes), sets the window size, sends the
# signal to ARGV's process, or (--stop) stops it with SIGTSTP, notes the
# mode while it is stopped, continues it and types TEXT; then waits for
# --wait2 text if given. Prints one JSON line: rc, out (\r removed), same
# (the terminal's mode after as before: every termios field),
# stopped_same (the same while stopped), tty. ARGV is killed after 30 s (rc -9).
cat >"$tmp/drive.py" <<'PY'
import fcntl, json, os, select, signal, struct, subprocess, sys, termios
import time

args = sys.argv[1:]
opts = {}
while args and args[0] != "--":
    opts[args[0][2:]] = args[1]
    args = args[2:]
argv = args[1:]
master, slave = os.openpty()
name = os.ttyname(slave)
argv = [a.replace("@TTY@", name) for a in argv]

def winsize(fd, spec):
    r, c = (int(x) for x in spec.split(","))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", r, c, 0, 0))

if "size" in opts:
    winsize(master, opts["size"])
before = termios.tcgetattr(slave)

def ctty():
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)

child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                         start_new_session=True, preexec_fn=ctty)
out = b""
deadline = time.monotonic() + 30
stage = 0

def pump(timeout):
    global out
    r, _, _ = select.select([master], [], [], timeout)
    if r:
        try:
            data = os.read(master, 65536)
        except OSError:
            return False
        out += data
        return bool(data)
    return False

stopped_same = None

def state(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0]

while time.monotonic() < deadline:
    if stage == 0 and opts.get("wait", "\0").encode() in out:
        stage = 1
        if "type" in opts:
            os.write(master, opts["type"].encode().decode("unicode_escape")
                     .encode())
        if "resize" in opts:
            winsize(master, opts["resize"])
        if "signal" in opts:
            os.kill(child.pid, getattr(signal, opts["signal"]))
        if "stop" in opts:
            # SIGTSTP: the mode while stopped, then SIGCONT and the
            # input after it.
            os.kill(child.pid, signal.SIGTSTP)
            while state(child.pid) != "T" and time.monotonic() < deadline:
                time.sleep(0.05)
            stopped_same = termios.tcgetattr(slave) == before
            os.kill(child.pid, signal.SIGCONT)
            while state(child.pid) == "T" and time.monotonic() < deadline:
                time.sleep(0.05)
            os.write(master, opts["stop"].encode().decode("unicode_escape")
                     .encode())
    if stage == 1 and "wait2" in opts and opts["wait2"].encode() in out:
        stage = 2
    if child.poll() is not None:
        while pump(0.2):
            pass
        break
    pump(0.1)
else:
    child.kill()
    child.wait()
after = termios.tcgetattr(slave)
print(json.dumps({"rc": child.returncode,
                  "out": out.decode("utf-8", "replace").replace("\r", ""),
                  "same": before == after, "stopped_same": stopped_same,
                  "tty": name}))
PY

# drive ARGS...: the driver, its JSON in $tmp/res.
drive() {
	python3 "$tmp/drive.py" "$@" >"$tmp/res" 2>"$tmp/err"
}
# res EXPR: EXPR holds for the driver's JSON (d).
res() {
	pycheck "$1" <"$tmp/res"
}
# report_has TEXT: the run report names TEXT among its caveats.
report_has() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any(sys.argv[2] in c for c in d["caveats"])
' "$tmp/report.json" "$1" 2>/dev/null
}

backends=()
for b in namespaces landlock; do
	if "$bin" run --backend "$b" --workspace "$ws" -- true \
		</dev/null >/dev/null 2>&1; then
		backends+=("$b")
	else
		skip "$b backend" "cordon run --backend $b does not work here"
	fi
done

for b in "${backends[@]}"; do
	R=("$bin" run --backend "$b" --workspace "$ws" --report
		"$tmp/report.json" --)

	# The relay's filter (src/sandbox/ttyfilter.h): the clipboard's set
	# and query (OSC 52, one cut between two writes, one 8-bit), DECRQSS
	# and the title report never reach the caller's terminal; colours,
	# the cursor and a title do.
	drive -- "${R[@]}" bash --norc -c 'printf "A\033]52;c;aGVs"; sleep 0.3;
		printf "bG8=\007B\033]52;c;?\033\\C\x9d52;c;?\x9cD";
		printf "\033P\$qm\033\\W\033[21tF\033[1;31mG\033[0m";
		printf "\033[2;3H\033]0;T1\007H\n"'
	res '"\x1b]52" not in d["out"] and "aGVs" not in d["out"] and "bG8=" not in d["out"] and "\x1bP" not in d["out"] and "[21t" not in d["out"] and "AB" in d["out"] and "CD" in d["out"] and "WF\x1b[1;31mG\x1b[0m\x1b[2;3H\x1b]0;T1\x07H" in d["out"]'
	ok $? "$b: the terminal relay drops OSC 52, DECRQSS and the title report, keeps colours, the cursor and titles"

	# Landlock below ABI 5 cannot keep a terminal opened by path from
	# ioctls: the mode setters stay refused there, and the report says so.
	drive -- "${R[@]}" true
	if report_has "modes locked, Landlock < 5"; then
		skip "$b: the pty's mode" "Landlock ABI < 5: the setters stay refused"
		continue
	fi
	drive -- "${R[@]}" bash --norc -c \
		'stty raw -echo && echo RAW-OK; stty -a | grep -q -- "-echo" &&
		 echo NOECHO-OK'
	res 'd["rc"] == 0 and "RAW-OK" in d["out"] and "NOECHO-OK" in d["out"]'
	ok $? "$b: stty raw -echo works inside"
	res 'd["same"]'
	ok $? "$b: the caller's terminal mode is unchanged after stty raw"
	report_has "terminal: relayed through a pty cordon made"
	ok $? "$b: the report says the terminal is relayed"

	# readline: ^A goes to the start of the line, so "abc^AX" reads
	# "Xabc" (the line discipline alone would keep a literal ^A).
	drive --wait 'PROMPT>' --type 'abc\x01X\r' -- "${R[@]}" \
		bash --norc -c 'read -e -p "PROMPT>" x; echo "got:[$x]"'
	res 'd["rc"] == 0 and "got:[Xabc]" in d["out"] and d["same"]'
	ok $? "$b: readline edits the line (read -e), the caller's mode kept"

	drive -- "${R[@]}" bash --norc -c 'stty raw -echo; kill -9 $$'
	res 'd["rc"] == 137 and d["same"]'
	ok $? "$b: the command SIGKILLed in raw mode: the caller's mode restored"

	drive --wait READY --signal SIGTERM -- "${R[@]}" bash --norc -c \
		'stty raw -echo; echo READY; exec sleep 60'
	res 'd["rc"] == 143 and d["same"]'
	ok $? "$b: SIGTERM to cordon: forwarded, the caller's mode restored"

	drive --wait READY --stop 'hi\n' -- "${R[@]}" bash --norc -c \
		'stty raw -echo; echo READY; read -r x; echo "got:[$x]"'
	res 'd["stopped_same"] is True and "got:[hi]" in d["out"] and d["same"]'
	ok $? "$b: SIGTSTP to cordon: the caller's mode restored while stopped, raw again after SIGCONT"

	drive --size 30,100 --wait READY --resize 40,120 --wait2 'WINCH 40' \
		-- "${R[@]}" bash --norc -c 'echo "SIZE $(stty size)";
		trap "echo WINCH \$(stty size); exit 0" WINCH; echo READY;
		while :; do sleep 0.1; done'
	res '"SIZE 30 100" in d["out"] and "WINCH 40 120" in d["out"]'
	ok $? "$b: the window size reaches the command, and its change (SIGWINCH)"

	drive -- "${R[@]}" "$A" tiocsti 0
	res 'd["out"].startswith("EPERM")'
	ok $? "$b: TIOCSTI into the pty is refused (EPERM)"

	drive -- "${R[@]}" "$A" ttyopen /dev/tty rw
	res 'd["out"].startswith("ok ") and d["same"]'
	ok $? "$b: /dev/tty is the pty cordon made (its mode may change)"

	if [ "$b" = namespaces ]; then
		want_rw=open:ENOENT want_ro=open:ENOENT want_proc=open:ENOENT
	else
		# Landlock ABI 5+: no device ioctl, not even TCGETS
		want_rw=open:EACCES want_ro=tcgetattr:EACCES
		want_proc=open:EACCES
	fi
	drive -- "${R[@]}" "$A" ttyopen @TTY@ rw
	res 'd["out"].startswith("'"$want_rw"'") and d["same"]'
	ok $? "$b: the caller's terminal by path for writing: $want_rw"
	drive -- "${R[@]}" "$A" ttyopen @TTY@ ro
	res 'd["out"].startswith("'"$want_ro"'") and d["same"]'
	ok $? "$b: the caller's terminal by path read-only, then its mode: $want_ro"
	drive -- bash -c 'exec "$@" /proc/$$/fd/0 rw' - "${R[@]}" "$A" ttyopen
	res 'd["out"].startswith("'"$want_proc"'") and d["same"]'
	ok $? "$b: the caller's terminal through /proc/CORDON/fd/0: $want_proc"

	drive -- "$bin" run --backend "$b" --workspace "$ws" --no-pty \
		--report "$tmp/report.json" -- "$A" tcsets 0
	res 'd["out"].startswith("EPERM") and d["same"]'
	ok $? "$b: --no-pty: the caller's terminal passes, its mode locked (EPERM)"
	report_has "is the caller's terminal"
	ok $? "$b: --no-pty: the report names the terminal that crossed"

	"${R[@]}" bash -c 'test -t 0 || test -t 1 || echo NOTTY' \
		</dev/null >"$tmp/out" 2>"$tmp/err"
	has NOTTY && ! report_has "terminal: relayed"
	ok $? "$b: stdio not a terminal: no pty"

	# The issue's reproduction, under script(1).
	if command -v script >/dev/null 2>&1; then
		SHELL=/bin/bash script -qec "$(printf '%q ' "${R[@]}") bash -c \
			'stty raw && echo SCRIPT-RAW-OK'" /dev/null \
			</dev/null >"$tmp/out" 2>&1
		has SCRIPT-RAW-OK && ! has "Operation not permitted"
		ok $? "$b: under script(1): stty raw works"
	else
		skip "$b: under script(1)" "no script(1)"
	fi
done

done_testing
