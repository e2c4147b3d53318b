# lib.sh — what every integration script needs: source it first.
#
#   . "$(dirname "$0")/lib.sh"
#   run check --tool Read --args '{"file_path":"x"}'
#   [ $rc -eq 0 ] && grep -q allow "$tmp/out"
#   ok $? "a read in the workspace is allowed"
#   ...
#   done_testing
#
# It resolves $bin from $CORDON_BIN (made absolute) and $src, the source
# tree, from $CORDON_SOURCE_ROOT (else from this file's place), makes a
# fresh $tmp, points HOME, XDG_CONFIG_HOME and XDG_STATE_HOME into it so
# the user's real configuration, approvals, pins and audit log are never
# touched, and defines the TAP helpers below. On exit every process whose
# pid a script added to $pids is killed and $tmp is removed. Scripts that
# start servers on loopback source lib_net.sh after this file.
set -u

bin=${CORDON_BIN:?CORDON_BIN must name the cordon binary}
case $bin in
/*) ;;
*) bin=$PWD/$bin ;;
esac
src=${CORDON_SOURCE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
tmp=$(mktemp -d)
pids=()
# diag_logs: more files whose last lines diag shows (a server's log).
diag_logs=()

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
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

# skip_all WHY: the whole script is skipped (plan 1..0); exits.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# need TOOL...: skip_all unless every TOOL is on PATH.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || skip_all "needs $*"
	done
}

# need_npm PKG...: skip_all unless every npm package PKG (a name such as
# puppeteer-core or @scope/name) is installed where scripts/install-deps
# puts them ($CORDON_NPM_DIR, default /opt/cordon-test/npm); then
# $npm_dir/node_modules/.bin is on PATH and NODE_PATH names the modules.
npm_dir=${CORDON_NPM_DIR:-/opt/cordon-test/npm}
need_npm() {
	local p
	command -v node >/dev/null || skip_all "needs node"
	for p in "$@"; do
		[ -d "$npm_dir/node_modules/$p" ] ||
			skip_all "needs npm package $p (scripts/install-deps)"
	done
	PATH=$npm_dir/node_modules/.bin:$PATH
	NODE_PATH=$npm_dir/node_modules
	export PATH NODE_PATH
}

# diag: the last run's status, stdout and stderr, and the last lines of
# each file in diag_logs, as TAP diagnostics.
diag() {
	local f
	echo "# exit status: ${rc-}"
	sed 's/^/# stdout: /' "$tmp/out" 2>/dev/null | head -40
	sed 's/^/# stderr: /' "$tmp/err" 2>/dev/null | head -40
	for f in "${diag_logs[@]}"; do
		tail -n 10 "$f" 2>/dev/null | sed "s|^|# ${f##*/}: |"
	done
}

# has TEXT: the last run's stdout holds TEXT (a fixed string).
has() {
	grep -qF -- "$1" "$tmp/out"
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

# run_file FILE ARGS...: as run, with stdin from FILE.
run_file() {
	local file=$1
	shift
	"$bin" "$@" <"$file" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# pycheck EXPR < JSON: evaluates EXPR with `d` bound to the parsed JSON
# (exactly one line), or with PYLINES=1 `lines` bound to the list of the
# parsed lines (each ending with a newline); fails on exceptions and when
# EXPR is false.
pycheck() {
	python3 -c '
import json, os, sys
text = sys.stdin.read()
if os.environ.get("PYLINES"):
    assert text.endswith("\n"), "output does not end with a newline"
    lines = [json.loads(l) for l in text.split("\n")[:-1]]
else:
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
