# lib.sh — what every integration script needs: source it first.
#
#   . "$(dirname "$0")/lib.sh"
#   run check --tool Read --args '{"file_path":"x"}'
#   [ $rc -eq 0 ] && grep -q allow "$tmp/out"
#   ok $? "a read in the workspace is allowed"
#   ...
#   done_testing
#
# It resolves $bin from $CORDON_BIN (made absolute), makes a fresh $tmp
# (removed on exit), points HOME, XDG_CONFIG_HOME and XDG_STATE_HOME into
# it so the user's real configuration, approvals, pins and audit log are
# never touched, and defines the TAP helpers below.
set -u

bin=${CORDON_BIN:?CORDON_BIN must name the cordon binary}
case $bin in
/*) ;;
*) bin=$PWD/$bin ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
export XDG_CONFIG_HOME=$tmp/xdg
export XDG_STATE_HOME=$tmp/state
unset CORDON_CONFIG
mkdir -p "$HOME" "$XDG_CONFIG_HOME/cordon" "$XDG_STATE_HOME"
n=0
rc=0

# ok STATUS NAME: one TAP result; STATUS 0 passes.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		diag
	fi
}

# skip NAME WHY: one skipped TAP result.
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# diag: the last run's status, stdout and stderr as TAP diagnostics.
diag() {
	echo "# exit status: ${rc-}"
	sed 's/^/# stdout: /' "$tmp/out" 2>/dev/null | head -40
	sed 's/^/# stderr: /' "$tmp/err" 2>/dev/null | head -40
}

# run ARGS...: runs cordon with stdin from /dev/null; stdout in $tmp/out,
# stderr in $tmp/err, the exit status in $rc.
run() {
	"$bin" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# run_in TEXT ARGS...: as run, with TEXT on stdin.
run_in() {
	local text=$1
	shift
	printf '%s' "$text" | "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# pycheck EXPR < JSON: evaluates EXPR with `d` bound to the parsed JSON
# (exactly one line); fails on exceptions and when EXPR is false.
pycheck() {
	python3 -c '
import json, sys
text = sys.stdin.read()
assert text.endswith("\n") and text.count("\n") == 1, "not one line"
d = json.loads(text)
assert eval("(" + sys.argv[1] + ")"), "check failed: " + sys.argv[1]
' "$1" 2>/dev/null
}

# pyjson EXPR < JSON: as pycheck, for JSON over several lines.
pyjson() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert eval("(" + sys.argv[1] + ")"), "check failed: " + sys.argv[1]
' "$1" 2>/dev/null
}

# done_testing: prints the plan; call it last.
done_testing() {
	echo "1..$n"
}
