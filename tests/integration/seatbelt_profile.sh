#!/usr/bin/env bash
# `cordon sandbox profile --format seatbelt` against golden files in
# tests/cases/sandbox/seatbelt-*.sb, with a fixed HOME and workspace so
# the output is stable; then the command's usage errors. To rewrite the
# golden files after an intended change: CORDON_UPDATE_GOLDEN=1 (and
# review the diff).
. "$(dirname "$0")/lib.sh"

golden=$src/tests/cases/sandbox

export HOME=/Users/alice
ws=/Users/alice/project
# The credential table's XDG places are the defaults in the golden files.
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME

# golden NAME ARGS...: the profile for ARGS must equal seatbelt-NAME.sb.
golden() {
	local name=$1 want
	shift
	want=$golden/seatbelt-$name.sb
	"$bin" sandbox profile --format seatbelt "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ -n "${CORDON_UPDATE_GOLDEN:-}" ] && [ "$rc" -eq 0 ]; then
		cp "$tmp/out" "$want"
	fi
	if [ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$want"; then
		ok 0 "golden $name"
	else
		ok 1 "golden $name (exit $rc)"
		sed 's/^/# /' "$tmp/err"
		diff -u "$want" "$tmp/out" | sed 's/^/# /' | head -40
	fi
}

golden defaults --workspace "$ws"
golden writes-deny-read --workspace "$ws" --write /tmp/out --write build \
	--write '~/.cache' --deny-read '**/.env' --deny-read '*.pem' \
	--deny-read '~/.config/*/token.json' --deny-read secrets/prod.key \
	--deny-read 'id_[!.]*' --deny-read 'keys/**/[]k]ey?'
golden proxy --workspace "$ws" --network proxy --proxy-port 3128
golden quote-backslash --workspace '/Users/alice/we"ird\dir' \
	--deny-read 'say"hi*' --deny-read '/opt/back\slash'
golden no-read-home-host --workspace "$ws" --no-read-home --network host

# The default workspace is the current directory.
mkdir -p "$tmp/ws"
(cd "$tmp/ws" && "$bin" sandbox profile --format seatbelt) >"$tmp/cwd.sb"
"$bin" sandbox profile --format seatbelt --workspace "$tmp/ws" >"$tmp/abs.sb"
cmp -s "$tmp/cwd.sb" "$tmp/abs.sb"
ok $? "without --workspace the workspace is the current directory"

# Without HOME nothing home-relative is named.
env -u HOME "$bin" sandbox profile --format seatbelt --workspace "$ws" \
	>"$tmp/nohome.sb"
! grep -q '/Users/alice/\.' "$tmp/nohome.sb" &&
	grep -q 'no home directory given' "$tmp/nohome.sb"
ok $? "without HOME no credential path is guessed, and it says so"

# $XDG_CONFIG_HOME names a second place for the table's rows below it;
# the default place stays denied (a file left there from before).
XDG_CONFIG_HOME=/Users/alice/cfg "$bin" sandbox profile --format seatbelt \
	--workspace "$ws" >"$tmp/xdg.sb"
grep -qxF '  (subpath "/Users/alice/cfg/gh")' "$tmp/xdg.sb" &&
	grep -qxF '  (subpath "/Users/alice/.config/gh")' "$tmp/xdg.sb" &&
	grep -qxF '  (literal "/Users/alice/cfg/git/credentials")' "$tmp/xdg.sb" &&
	! grep -qF '/Users/alice/cfg/.ssh' "$tmp/xdg.sb"
ok $? "\$XDG_CONFIG_HOME: its credential rows are denied there and in ~/.config"
XDG_CONFIG_HOME=relative "$bin" sandbox profile --format seatbelt \
	--workspace "$ws" >"$tmp/xdgrel.sb"
cmp -s "$tmp/xdgrel.sb" "$golden/seatbelt-defaults.sb"
ok $? "a relative \$XDG_CONFIG_HOME is ignored, as the XDG spec says"

# usage STATUS NAME ARGS...: exit status and a message on stderr.
usage() {
	local want=$1 name=$2
	shift 2
	"$bin" sandbox "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -eq "$want" ] && { [ "$want" -eq 0 ] || [ -s "$tmp/err" ]; }; then
		ok 0 "$name"
	else
		ok 1 "$name (exit $rc, want $want)"
		sed 's/^/# /' "$tmp/err"
	fi
}

usage 2 "--format other than seatbelt is a usage error" \
	profile --format json
usage 2 "--format is required" profile --workspace "$ws"
usage 2 "--network proxy without --proxy-port" \
	profile --format seatbelt --network proxy
usage 2 "--proxy-port without --network proxy" \
	profile --format seatbelt --proxy-port 8080
usage 2 "--proxy-port 0" \
	profile --format seatbelt --network proxy --proxy-port 0
usage 2 "--proxy-port 70000" \
	profile --format seatbelt --network proxy --proxy-port 70000
usage 2 "--network bogus" profile --format seatbelt --network bogus
usage 2 "an unknown option" profile --format seatbelt --frobnicate
usage 2 "a stray argument" profile --format seatbelt extra
usage 2 "an unknown subcommand" frobnicate
usage 2 "no subcommand" 

"$bin" sandbox profile --help >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q -- '--deny-read' "$tmp/out"
ok $? "sandbox profile --help prints the options"
"$bin" sandbox --help >"$tmp/out" 2>&1 && grep -q 'usage: cordon sandbox' "$tmp/out"
ok $? "sandbox --help"
"$bin" help sandbox >"$tmp/out" 2>&1 && grep -q 'usage: cordon sandbox' "$tmp/out"
ok $? "cordon help sandbox"

done_testing
