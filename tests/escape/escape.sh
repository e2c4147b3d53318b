#!/usr/bin/env bash
# The escape suite of `cordon run` (issue 4), against the built binary
# ($CORDON_BIN), as root, for real. Each attempt runs inside the sandbox as
# a small C program (tests/escape/attempt.c) that prints the errno of the
# refused step; a case passes when the kernel refused with an expected
# errno AND nothing outside changed: the outside tree, the fake home, the
# "run later" paths of the workspace, the host listeners' logs and a few
# fixed probe paths (/etc, the host's /tmp, /sys/fs/cgroup) are compared
# with a snapshot taken before. The run report must say `full` for the
# namespaces backend and `partial` for the landlock one.
#
# Every backend in $ESCAPE_BACKENDS (default: "namespaces landlock") runs
# every case. Under landlock, a case that only the namespaces can stop
# (credential masks, deny-read, "run later" paths, UDP …) passes when the
# attempt was refused anyway, or when the report is `partial` and its
# notEnforced names what was lost (the case name then says "reported").
#
# Environment: CORDON_BIN (required); ESCAPE_ATTEMPT, a prebuilt attempt
# binary (default: built here with cc); ESCAPE_TMPDIR, where the scratch
# tree goes (default /var/tmp: not /tmp, which the sandbox replaces).
set -u

bin=${CORDON_BIN:?CORDON_BIN must name the cordon binary}
here=$(cd "$(dirname "$0")" && pwd)
backends=${ESCAPE_BACKENDS:-namespaces landlock}
n=0

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the escape suite runs as root"
	exit 0
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac

T=$(mktemp -d "${ESCAPE_TMPDIR:-/var/tmp}/cordon-escape.XXXXXX") || {
	echo "Bail out! cannot make a scratch directory"
	exit 1
}
chmod 755 "$T"
# cordon's state (the placeholder registry) out of the fake home, whose
# every change counts
export XDG_STATE_HOME=$T/state
tok=cordon-escape-$$-$RANDOM
probe=cordon-escape-probe-$$
probes=("/etc/$probe" "/tmp/$probe" "/dev/shm/$probe"
	"/sys/fs/cgroup/$probe" "/sys/fs/cgroup/unified/$probe")
W=$T/ws          # the workspace
O=$T/outside     # files outside every writable root
H=$T/home        # $HOME for every run
P=$T/plain       # a workspace that is not a git repository
S=$T/symws       # a workspace whose .git/hooks is a symlink
WR=$T/wroot      # a --write root that is a repository
A=$T/bin/attempt
bg=()            # host-side helpers to stop at the end

# token_pids TOKEN: the pids of processes with TOKEN in their command line.
token_pids() {
	local f args
	for f in /proc/[0-9]*/cmdline; do
		mapfile -d '' args 2>/dev/null <"$f" || continue
		case " ${args[*]} " in
		*"$1"*) f=${f#/proc/}; echo "${f%/cmdline}" ;;
		esac
	done
}

kill_token() {
	local p
	for p in $(token_pids "$1"); do kill -KILL "$p" 2>/dev/null; done
}

remove_probes() {
	local p
	for p in "${probes[@]}"; do
		[ -d "$p" ] && rmdir "$p" 2>/dev/null
		[ -e "$p" ] && rm -f "$p"
	done
}

cleanup() {
	local p
	for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null; done
	kill_token "$tok"
	remove_probes
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

bail() {
	echo "Bail out! $*"
	exit 1
}

# ---- the attempt program and its set-user-ID copies ----

mkdir "$T/bin"
if [ -n "${ESCAPE_ATTEMPT:-}" ]; then
	cp "$ESCAPE_ATTEMPT" "$A" || bail "cannot copy $ESCAPE_ATTEMPT"
else
	cc -std=c17 -D_GNU_SOURCE -O0 -o "$A" "$here/attempt.c" ||
		bail "cannot build tests/escape/attempt.c"
fi
cp "$A" "$T/bin/suid-root" && chmod 4755 "$T/bin/suid-root"
cp "$A" "$T/bin/suid-nobody" && chown 65534:65534 "$T/bin/suid-nobody" &&
	chmod 4755 "$T/bin/suid-nobody"
chmod 755 "$T/bin" "$A"
# What runs as nobody runs from here ($T is 0755): the checkout, and $bin
# in it, may sit under a 0700 home directory that nobody cannot enter.
cp "$bin" "$T/bin/cordon" && chmod 755 "$T/bin/cordon" ||
	bail "cannot copy $bin"
nbin=$T/bin/cordon

# ---- fixtures ----

secret_ssh=SSH-KEY-$tok
secret_env=ENV-SECRET-$tok
secret_home=HOME-NOTE-$tok
secret_proc=PROC-ENV-$tok

# mkrepo DIR: a git repository (by hand when git is missing).
mkrepo() {
	if command -v git >/dev/null 2>&1; then
		git init -q "$1" || bail "git init $1"
		return
	fi
	mkdir -p "$1/.git/hooks" "$1/.git/objects" "$1/.git/refs/heads"
	printf 'ref: refs/heads/main\n' >"$1/.git/HEAD"
	printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n' \
		>"$1/.git/config"
}

# cred_rows: the rows of the credential table (src/base/credentials.c),
# one a line: D (a directory) or F, then the path below $HOME of its
# default place.
cred_rows() {
	local kind base path
	sed -n 's/^[[:space:]]*\([DF]\)(\([A-Z]*\), "\(.*\)"),$/\1 \2 \3/p' \
		"$here/../../src/base/credentials.c" |
		while read -r kind base path; do
			case $base in
			HOME) ;;
			CONFIG) path=.config/$path ;;
			DATA) path=.local/share/$path ;;
			STATE) path=.local/state/$path ;;
			*) path="?$base?/$path" ;;
			esac
			printf '%s %s\n' "$kind" "$path"
		done
}
[ "$(cred_rows | wc -l)" -gt 100 ] ||
	bail "cannot read the credential table from src/base/credentials.c"

fixtures() {
	rm -rf "$W" "$O" "$H" "$P" "$WR"
	mkdir -p "$O/dir" "$W" "$P" "$H/.ssh" "$H/.aws" "$H/.config/gh" \
		"$H/.docker" "$H/.config/git" "$H/.config/containers" \
		"$H/.config/rclone" "$H/.gem" "$H/.oci"
	printf 'sentinel\n' >"$O/sentinel"
	printf 'hardlinked\n' >"$O/hl-target"
	printf 'stays outside\n' >"$O/into-ws"
	printf 'metadata\n' >"$O/meta"
	printf 'deny me %s\n' "$secret_env" >"$O/deny-me"
	: >"$O/fdfile"
	chmod 644 "$O/sentinel" "$O/hl-target" "$O/into-ws" "$O/meta" \
		"$O/deny-me" "$O/fdfile"
	printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n' "$secret_ssh" \
		>"$H/.ssh/id_rsa"
	chmod 600 "$H/.ssh/id_rsa"
	printf '[default]\naws_secret_access_key = %s\n' "$secret_ssh" \
		>"$H/.aws/credentials"
	printf 'machine example.com login u password %s\n' "$secret_ssh" \
		>"$H/.netrc"
	printf 'https://u:%s@example.com\n' "$secret_ssh" \
		>"$H/.git-credentials"
	printf 'github.com:\n  oauth_token: %s\n' "$secret_ssh" \
		>"$H/.config/gh/hosts.yml"
	printf '{"auths": {"x": {"auth": "%s"}}}\n' "$secret_ssh" \
		>"$H/.docker/config.json"
	# the password and token files of other clients, each its own
	# program's default place
	printf 'db:5432:*:u:%s\n' "$secret_ssh" >"$H/.pgpass"
	printf '[client]\npassword=%s\n' "$secret_ssh" >"$H/.my.cnf"
	printf '[default]\nsecret_key = %s\n' "$secret_ssh" >"$H/.s3cfg"
	printf '[Credentials]\naws_secret_access_key = %s\n' "$secret_ssh" \
		>"$H/.boto"
	printf 'https://u:%s@example.com\n' "$secret_ssh" \
		>"$H/.config/git/credentials"
	printf '{"auths": {"x": {"auth": "%s"}}}\n' "$secret_ssh" \
		>"$H/.config/containers/auth.json"
	printf '[r]\ntype = s3\nsecret_access_key = %s\n' "$secret_ssh" \
		>"$H/.config/rclone/rclone.conf"
	printf -- '---\n:rubygems_api_key: %s\n' "$secret_ssh" \
		>"$H/.gem/credentials"
	printf '[DEFAULT]\nkey_file=~/.oci/key.pem\npass_phrase=%s\n' \
		"$secret_ssh" >"$H/.oci/config"
	# every other row of the credential table in its default place
	# (histories, browser profiles, CLIs' tokens), and a gh login in an
	# $XDG_CONFIG_HOME in the home and in one outside it
	local kind path
	while read -r kind path; do
		[ "$kind" = D ] && path=$path/cordon-secret
		# late_case makes this one during the run
		[ "$path" = .vault-token ] && continue
		[ -e "$H/$path" ] && continue
		case $path in */*) mkdir -p "$H/${path%/*}" ;; esac
		printf 'CRED-%s\n' "$tok" >"$H/$path"
	done < <(cred_rows)
	mkdir -p "$H/xc/gh" "$O/xdg/gh"
	printf 'github.com:\n  oauth_token: CRED-%s\n' "$tok" \
		>"$H/xc/gh/hosts.yml"
	printf 'github.com:\n  oauth_token: CRED-%s\n' "$tok" \
		>"$O/xdg/gh/hosts.yml"
	printf '%s\n' "$secret_home" >"$H/notes.txt"
	printf 'export PS1=x\n' >"$H/.bashrc"

	mkrepo "$W"
	printf 'API_KEY=%s\n' "$secret_env" >"$W/.env"
	mkdir -p "$W/sub/dir"
	printf 'API_KEY=%s\n' "$secret_env" >"$W/sub/dir/.env"
	printf 'victim\n' >"$W/victim"
	ln -s "$O/sentinel" "$W/link"
	ln -s "$O/dir" "$W/dirlink"
	ln "$O/hl-target" "$W/hl"
	# hard links where the walk used not to look: a dependency
	# directory, and a shared object store (git clone --local)
	printf 'hardlinked dep\n' >"$O/hl-dep"
	printf 'hardlinked object\n' >"$O/hl-obj"
	chmod 644 "$O/hl-dep" "$O/hl-obj"
	mkdir -p "$W/node_modules/pkg" "$W/.git/objects/ab"
	ln "$O/hl-dep" "$W/node_modules/pkg/index.js"
	ln "$O/hl-obj" "$W/.git/objects/ab/cdef0123"
	mkrepo "$W/sub/nested"
	# a submodule: its .git is a "gitdir:" file into the parent's modules
	mkdir -p "$W/mod" "$W/.git/modules/mod/hooks" \
		"$W/.git/modules/mod/objects" "$W/.git/modules/mod/refs"
	printf 'gitdir: ../.git/modules/mod\n' >"$W/mod/.git"
	printf 'ref: refs/heads/main\n' >"$W/.git/modules/mod/HEAD"
	printf '[core]\n\tbare = false\n\tworktree = ../../../mod\n' \
		>"$W/.git/modules/mod/config"
	printf '{"folders": [{"path": "."}]}\n' >"$W/proj.code-workspace"
	# the hooks `cordon init` installs for Cline, Copilot CLI and Qwen
	# Code: each agent runs what they say on the host
	mkdir -p "$W/.clinerules/hooks" "$W/.github/hooks" "$W/.qwen"
	printf '#!/bin/sh\nexec cordon hook cline\n' \
		>"$W/.clinerules/hooks/PreToolUse"
	chmod 755 "$W/.clinerules/hooks/PreToolUse"
	printf '{"hooks": {}}\n' >"$W/.github/hooks/cordon.json"
	printf '{"hooks": {}}\n' >"$W/.qwen/settings.json"
	mkdir -p "$W/df" "$W/dw"
	# listed in safety.sandbox.deny_write ($T/dw.json), with a sibling
	printf 'protected %s\n' "$tok" >"$W/dw/protected"
	printf 'other\n' >"$W/dw/other"
	# a --write root with a repository, a hook and editor tasks
	mkrepo "$WR"
	printf '#!/bin/sh\nexit 0\n' >"$WR/.git/hooks/pre-commit"
	chmod 755 "$WR/.git/hooks/pre-commit"
	mkdir -p "$WR/.vscode"
	printf '{"tasks": []}\n' >"$WR/.vscode/tasks.json"
	# a workspace whose .git/hooks is a symlink to a directory in it
	rm -rf "$S"
	mkrepo "$S"
	mkdir -p "$S/hooks-real"
	rm -rf "$S/.git/hooks"
	ln -s ../hooks-real "$S/.git/hooks"
}

# snap: everything a case must leave untouched, one line per file.
snap() {
	local roots=("$O" "$H" "$T/sleepdir" "$T/net" "$W/.git/hooks"
		"$W/.git/config" "$W/.git/HEAD" "$W/.git-moved" "$W/sub-moved"
		"$W/.git/hooks-moved"
		"$W/sub/nested/.git/hooks" "$W/sub/nested/.git/config"
		"$W/.git/modules/mod/hooks" "$W/.git/modules/mod/config"
		"$S/hooks-real" "$S/.git/config" "$P/.git/hooks" "$P/.git/config"
		"$W/.vscode/tasks.json" "$W/.claude/settings.json"
		"$W/.cordon/config.json" "$W/.codex/config.toml" "$W/blk"
		"$W/.mcp.json" "$W/.devcontainer" "$W/.cursor" "$W/.gemini"
		"$W/.zed" "$W/.continue" "$W/.envrc" "$W/proj.code-workspace"
		"$W/.clinerules" "$W/.github" "$W/.github-moved" "$W/.qwen"
		"$P/.qwen" "$P/.clinerules" "$WR/.git/hooks" "$WR/.git/config"
		"$WR/.vscode"
		"$W/hl2" "$W/dw" "$W/dw-hl" "$W/dw-moved" "${probes[@]}")
	# cordon's own state in the home (its probe cache, its config
	# directory) is not the attempt's doing
	local own=(\( -path "$H/.cache" -o -path "$H/.config/cordon" \) -prune -o)
	find "${roots[@]}" "${own[@]}" ! -type d \
		-printf '%p %y %m %U:%G %s %n %T@ %C@\n' 2>/dev/null | sort
	find "${roots[@]}" "${own[@]}" -type d -printf '%p %y %m %U:%G\n' \
		2>/dev/null | sort
	find "${roots[@]}" "${own[@]}" -type f -exec md5sum {} + 2>/dev/null |
		sort
}

# intact: is everything as in the baseline? If not, keeps the difference
# for the diagnostics and rebuilds the fixtures.
intact() {
	local now
	now=$(snap)
	[ "$now" = "$baseline" ] && return 0
	diff <(printf '%s\n' "$baseline") <(printf '%s\n' "$now") |
		head -n 20 >"$T/diff"
	repair
	return 1
}

repair() {
	remove_probes
	kill_token "$tok-c"
	fixtures
	baseline=$(snap)
}

# ---- host-side helpers: a process sitting outside, listeners ----

mkdir -p "$T/sleepdir" "$T/net"
(cd "$T/sleepdir" && SECRET_MARK=$secret_proc exec "$A" sit "$tok-sleeper") &
sleeper=$!
bg+=("$sleeper")
disown "$sleeper"

# listen KIND ADDR NAME: starts a listener, waits for it to be ready.
listen() {
	"$A" "listen-$1" "$2" "$T/net/$3.ready" "$T/net/$3.log" \
		2>"$T/net/$3.err" &
	bg+=("$!")
	disown "$!"
	local i
	for ((i = 0; i < 100; i++)); do
		[ -s "$T/net/$3.ready" ] && return 0
		sleep 0.05
	done
	bail "the $1 listener on $2 did not start: $(cat "$T/net/$3.err")"
}
listen tcp 127.0.0.1 tcp-lo
listen tcp 0.0.0.0 tcp-any
listen udp 127.0.0.1 udp-lo
listen udp 0.0.0.0 udp-any
listen abstract "$tok-abstract" abstract
listen unix "$T/net/sock" unix
mkdir -p "$T/rt"
listen unix "$T/rt/bus" bus
listen unix "$T/net/agent" agent
# a password-manager-like agent under the home, named by no variable, and
# a datagram socket at a readable path
mkdir -p "$T/hostsock"
listen unix "$T/hostsock/pm-agent" pm
listen unixdgram "$T/hostsock/dgram" dgram
have_ip6=0
"$A" listen-tcp ::1 "$T/net/tcp6.ready" "$T/net/tcp6.log" 2>/dev/null &
bg+=("$!")
disown "$!"
for ((i = 0; i < 40; i++)); do
	[ -s "$T/net/tcp6.ready" ] && have_ip6=1 && break
	sleep 0.05
done
port() { tr -d '\n' <"$T/net/$1.ready"; }
host_ip=$(ip -4 -o addr show scope global 2>/dev/null |
	awk '{ sub("/.*", "", $4); print $4; exit }')

fixtures

# ---- controls on the host: each attempt works without the sandbox ----
# (only where that is harmless; results decide a few skips below)

ctl() {
	"$A" "$@" 2>/dev/null | head -n 1
}
host_suid_root=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$T/bin/suid-root" euid 2>/dev/null)
host_suid_nobody=$("$T/bin/suid-nobody" euid)
host_finit=$(ctl finit_module)
host_vda=""
vda=$(find /dev -maxdepth 1 -type b \( -name 'sd?' -o -name 'vd?' -o \
	-name 'nvme?n1' -o -name 'xvd?' \) 2>/dev/null | head -n 1)
[ -n "$vda" ] && host_vda=$(ctl read "$vda")
vda_dev=""
if [ -n "$vda" ]; then
	read -r vda_major vda_minor < <(stat -c '%t %T' "$vda")
	vda_dev="$((16#$vda_major)) $((16#$vda_minor))"
fi
# metadata through stdin, a lease, the terminal's mode: on a copy
mkdir -p "$T/ctl-fd"
host_fdmeta=""
for op in chmod chown utimes xattr; do
	printf 'x\n' >"$T/ctl-fd/f"
	host_fdmeta+="$("$A" fdmeta 0 "$T/ctl-fd/f" "$op" <"$T/ctl-fd/f" |
		cut -d' ' -f1-2) "
done
host_lease=$(ctl lease "$T/ctl-fd/f")
host_tmpfill=$(ctl tmpfill "$T/ctl-fd" 80)
host_pm=$(ctl unixpath "$T/hostsock/pm-agent")
host_dgram=$(ctl unixdgram "$T/hostsock/dgram")
rm -rf "$T/ctl-fd"
host_tcsets=""
host_tiocsti=""
if command -v script >/dev/null 2>&1; then
	host_tcsets=$(SHELL=/bin/bash script -qec "$(printf '%q' "$A") tcsets 0" \
		/dev/null </dev/null 2>/dev/null | tr -d '\r' | grep -m 1 '^ok')
	host_tiocsti=$(SHELL=/bin/bash script -qec \
		"$(printf '%q' "$A") tiocsti 0; read -t 1 -n 1 c; echo leaked:\$c" \
		/dev/null </dev/null 2>/dev/null | tr -d '\r' | grep '^leaked:')
fi

# deny_write: each attempt works on the host, on a copy of the fixture
printf '{"safety": {"sandbox": {"deny_write": ["dw/protected"]}}}\n' \
	>"$T/dw.json"
dw_ctl() {
	rm -rf "$T/ctl-dw"
	mkdir -p "$T/ctl-dw/dw"
	printf 'protected\n' >"$T/ctl-dw/dw/protected"
	printf 'other\n' >"$T/ctl-dw/dw/other"
	ctl "$@"
}
host_dw_rename=$(dw_ctl rename "$T/ctl-dw/dw/other" "$T/ctl-dw/dw/protected")
host_dw_unlink=$(dw_ctl unlink "$T/ctl-dw/dw/protected")
host_dw_link=$(dw_ctl link "$T/ctl-dw/dw/protected" "$T/ctl-dw/dw-hl")
host_dw_mv=$(dw_ctl mvwrite "$T/ctl-dw/dw" "$T/ctl-dw/dw-moved" \
	"$T/ctl-dw/dw/protected")
rm -rf "$T/ctl-dw"

# ---- running a case ----

# sbx [CORDON-OPTION...] -- ARGV...: runs ARGV in the sandbox of the
# current backend (ARGV not starting with / is an attempt: $A is put in
# front). Variables read: cwd (default $W), ws (default $W), withfds
# (inherit fd 7 appending to $O/fdfile and fd 8 on $O), stdin_from (the
# command's stdin, default /dev/null), envs (an array of
# NAME=VALUE), guard (seconds after which a run that hangs is killed,
# default 30). Sets rc, got (the first line of stdout, or SIGNAME when the
# command was killed; "EMPTY (...)" for an empty read or listing).
sbx() {
	local opts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	case $1 in /*) ;; *) set -- "$A" "$@" ;; esac
	rm -f "$T/report.json"
	(
		cd "${cwd:-$W}" || exit 99
		if [ -n "${withfds:-}" ]; then
			exec 7>>"$O/fdfile" 8<"$O"
		fi
		exec timeout -s KILL "${guard:-30}" \
			env HOME="$H" "${envs[@]}" "$bin" run --backend "$backend" \
			--workspace "${ws:-$W}" --report "$T/report.json" \
			"${opts[@]}" -- "$@"
	) >"$T/out" 2>"$T/err" <"${stdin_from:-/dev/null}"
	rc=$?
	outline
}

outline() {
	got=$(head -n 1 "$T/out" | tr -d '\r')
	if [ -z "$got" ] && [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
		got=SIG$(kill -l $((rc - 128)))
	fi
	case $got in
	"ok read 0:" | "ok list 0") got="EMPTY ($got)" ;;
	esac
}

enf() {
	grep -o '"enforcement"[[:space:]]*:[[:space:]]*"[a-z]*"' \
		"$T/report.json" 2>/dev/null | grep -o '[a-z]*"$' | tr -d '"'
}

notenf() {
	tr -d '\n' <"$T/report.json" 2>/dev/null |
		grep -o '"notEnforced"[[:space:]]*:[[:space:]]*\[[^]]*\]'
}

# enf_ok: does the report carry the backend's enforcement? (Running as
# root and --memory without a memory cgroup are caveats, not losses.)
enf_ok() {
	[ "$(enf)" = "$want_enf" ]
}

# reported REGEX: is the report partial with notEnforced matching REGEX?
reported() {
	[ "$(enf)" = partial ] && notenf | grep -qiE -- "$1"
}

# refusal REGEX: is $got a refusal with one of the errno names in REGEX
# (after an optional "step:"; "ok ..." lines have spaces before any colon)?
refusal() {
	[[ $got =~ ^([a-z0-9_-]+:)?($1)(\ |$) ]]
}

result() {
	n=$((n + 1))
	if [ -z "$1" ]; then
		echo "ok $n - $2"
		return
	fi
	echo "not ok $n - $2"
	echo "# $1"
	{
		echo "stdout:"
		head -n 5 "$T/out"
		echo "stderr:"
		head -n 10 "$T/err"
		echo "report:"
		cat "$T/report.json" 2>/dev/null
		[ -s "$T/diff" ] && echo "changed outside:" && cat "$T/diff"
	} 2>/dev/null | sed 's/^/#   /'
	rm -f "$T/diff"
}

# judge STATUS WHY NAME: passes when STATUS is 0, else fails with WHY.
judge() {
	if [ "$1" = 0 ]; then
		result "" "$3"
	else
		result "$2" "$3"
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $backend: $1 # SKIP $2"
}

# check NAME NS LL [NOTE]: the TAP line for the run just made. NS and LL
# are regexes of the errno names that are the kernel's refusal under each
# backend; NOTE (landlock only) is a regex notEnforced must match for an
# attempt that was not refused. Nothing outside may change and the report
# must carry the backend's enforcement.
check() {
	local name="$backend: $1" want note="" why=""
	if [ "$backend" = landlock ]; then
		want=$3
		note=${4:-}
	else
		want=$2
	fi
	if refusal "$want"; then
		intact || why="refused ($got) but something outside changed"
	elif [ -n "$note" ] && reported "$note"; then
		name="$name (not enforced; reported)"
		repair
	else
		why="not refused: got '$got' (exit $rc), want $want"
		[ -n "$note" ] && why="$why, or notEnforced naming /$note/"
		intact || why="$why; something outside changed"
	fi
	enf_ok ||
		why="${why:+$why; }report enforcement '$(enf)', want $want_enf"
	result "$why" "$name"
}

# ---- the cases ----

suite() {
	local cwd="" ws="" withfds="" stdin_from="" envs=() t0
	if [ "$backend" = namespaces ]; then want_enf=full; else want_enf=partial; fi
	repair

	# -- controls inside the sandbox: the walls are not just "fail
	# everything" --
	sbx -- write "$W/created"
	[ "$got" = "ok wrote $W/created" ] &&
		grep -q ESCAPED "$W/created" && intact
	judge $? "got '$got' (exit $rc)" \
		"$backend: control: the workspace is writable"
	rm -f "$W/created"
	sbx -- read "$H/notes.txt"
	[[ $got == "ok read "*"$secret_home"* ]]
	judge $? "got '$got' (exit $rc)" \
		"$backend: control: a file in the home is readable"

	# -- writes outside the workspace --
	sbx -- write "$O/sentinel"
	check "overwrite a file outside the workspace" EROFS EACCES
	sbx -- write "$O/new"
	check "create a file outside the workspace" EROFS EACCES
	sbx -- mkdir "$O/newdir"
	check "make a directory outside" EROFS EACCES
	sbx -- unlink "$O/sentinel"
	check "unlink a file outside" EROFS EACCES
	sbx -- truncate "$O/sentinel"
	check "truncate a file outside" EROFS EACCES
	sbx -- chmod "$O/meta"
	check "chmod 4777 a file outside" EROFS 'EPERM|EACCES' 'chmod|metadata'
	sbx -- chown "$O/meta"
	check "chown a file outside" EROFS 'EPERM|EACCES' 'chown|metadata'
	sbx -- setxattr "$O/meta"
	check "set an xattr on a file outside" EROFS 'EPERM|EACCES' \
		'xattr|metadata'
	sbx -- write "$W/link"
	check "write through a symlink planted in the workspace" EROFS EACCES
	sbx -- write "$W/dirlink/new"
	check "create through a symlinked directory in the workspace" \
		EROFS EACCES
	sbx -- write "$W/hl"
	check "write through a hardlink planted in the workspace" \
		'EROFS|EACCES|EPERM' 'EACCES|EPERM' 'hard ?link'
	sbx -- write "$W/node_modules/pkg/index.js"
	check "write through a hardlink in node_modules" \
		'EROFS|EACCES|EPERM' 'EACCES|EPERM' 'hard ?link'
	sbx -- write "$W/.git/objects/ab/cdef0123"
	check "write through a hardlinked git object (clone --local)" \
		'EROFS|EACCES|EPERM' 'EACCES|EPERM' 'hard ?link'
	sbx -- link "$O/sentinel" "$W/hl2"
	check "hardlink a file outside into the workspace" \
		'EXDEV|EPERM' 'EXDEV|EACCES|EPERM'
	sbx -- rename "$W/victim" "$O/victim"
	check "rename a file out of the workspace" EXDEV 'EXDEV|EACCES'
	sbx -- rename "$O/into-ws" "$W/into-ws"
	check "rename a file outside into the workspace" EXDEV 'EXDEV|EACCES'
	sbx -- write "/proc/self/root$O/sentinel"
	check "write through /proc/self/root" EROFS EACCES
	sbx -- write "/proc/1/root$O/sentinel"
	check "write through /proc/1/root" 'EROFS|ENOENT|EACCES' \
		'EACCES|ENOENT'
	sbx -- write "/proc/$sleeper/cwd/new"
	check "write through /proc/<host pid>/cwd" 'ENOENT' 'EACCES|ENOENT'
	cwd=$O sbx -- write relative-new
	check "write relative to a cwd outside the workspace" EROFS EACCES
	sbx -- write "/etc/$probe"
	check "create a file in /etc" EROFS EACCES
	sbx -- openw /etc/passwd
	check "open /etc/passwd for writing" EROFS EACCES
	sbx -- openw /proc/sys/kernel/core_pattern
	check "open /proc/sys/kernel/core_pattern for writing" \
		'EROFS|EACCES' EACCES
	if [ -e /proc/sysrq-trigger ]; then
		sbx -- openw /proc/sysrq-trigger
		check "open /proc/sysrq-trigger for writing" \
			'EROFS|EACCES|ENOENT' EACCES
	else
		skip "open /proc/sysrq-trigger for writing" \
			"this kernel has no /proc/sysrq-trigger"
	fi
	sbx -- write "/sys/fs/cgroup/$probe"
	check "create a file on a submount of / (/sys/fs/cgroup)" \
		'EROFS|ENOENT' 'EACCES'
	if [ -d /sys/fs/cgroup/unified ]; then
		sbx -- mkdir "/sys/fs/cgroup/unified/$probe"
		check "make a cgroup on the host's cgroup2 hierarchy" \
			'EROFS|ENOENT' 'EACCES'
	fi
	sbx -- openw /sys/kernel/mm/transparent_hugepage/enabled
	check "open a sysfs knob for writing" 'EROFS|ENOENT' 'EACCES|ENOENT'
	sbx -- write "/tmp/$probe"
	check "the host's /tmp is not the sandbox's" 'ok' 'EACCES' \
		'tmp'
	sbx -- write "/dev/shm/$probe"
	check "the host's /dev/shm is not the sandbox's" 'ok|ENOENT' 'EACCES' \
		'shm|/dev'
	if [[ $host_vda == "ok read "* ]]; then
		sbx -- read "$vda"
		check "read the raw disk $vda" 'ENOENT|EACCES|EPERM' \
			'EACCES|EPERM' 'device|/dev'
	else
		skip "read the raw disk" \
			"the host itself cannot read ${vda:-a disk} here"
	fi
	if [ -n "$vda_dev" ]; then
		# shellcheck disable=SC2086
		sbx -- mknod "$W/blk" $vda_dev
		check "make a block device node in the workspace" EPERM \
			'EPERM|EACCES'
	fi

	# -- mounts and namespaces --
	sbx -- mount "$O"
	check "mount a tmpfs" EPERM EPERM
	sbx -- remount "$O/sentinel"
	check "remount / read-write, then write outside" EPERM EPERM
	sbx -- fsopen
	check "fsopen" EPERM EPERM
	sbx -- open_tree
	check "open_tree (clone the mount tree)" EPERM EPERM
	sbx -- umount
	check "umount2" EPERM EPERM
	sbx -- pivot_root
	check "pivot_root" EPERM EPERM
	sbx -- unshare user
	check "unshare(CLONE_NEWUSER)" EPERM EPERM
	sbx -- unshare mnt
	check "unshare(CLONE_NEWNS)" EPERM EPERM
	sbx -- unshare net
	check "unshare(CLONE_NEWNET)" EPERM EPERM
	sbx -- clone user
	check "clone(CLONE_NEWUSER)" EPERM EPERM
	sbx -- clone3 user
	check "clone3(CLONE_NEWUSER)" 'ENOSYS|EPERM' 'ENOSYS|EPERM'
	sbx -- setns /proc/1/ns/mnt
	check "setns into pid 1's mount namespace" 'EPERM|EACCES' \
		'EPERM|EACCES'
	sbx -- int80-unshare
	check "unshare(CLONE_NEWUSER) through the i386 table (int 0x80)" \
		'EPERM|ENOSYS|SIGSYS' 'EPERM|ENOSYS|SIGSYS'
	if [ -x /usr/bin/unshare ]; then
		sbx -- /usr/bin/unshare -U -r /bin/true
		got=$(grep -q 'Operation not permitted' "$T/err" && echo EPERM)
		[ "$rc" != 0 ] || got="ok (exit 0)"
		check "unshare -U -r (util-linux)" EPERM EPERM
	fi

	# -- other processes --
	sbx -- ptrace "$sleeper"
	check "ptrace a host process" EPERM EPERM
	sbx -- vmread "$sleeper"
	check "process_vm_readv a host process" EPERM EPERM
	sbx -- read "/proc/$sleeper/environ"
	check "read a host process's environment" 'ENOENT' 'EACCES|ENOENT'
	sbx -- kill "$sleeper" 9
	kill -0 "$sleeper" 2>/dev/null || got="$got (and the process died)"
	check "SIGKILL a host process" ESRCH 'EPERM|ESRCH'
	if ! kill -0 "$sleeper" 2>/dev/null; then
		bail "the host process $sleeper was killed from the sandbox"
	fi
	if [ "$host_tiocsti" = "leaked:Z" ]; then
		tiocsti_case tiocsti "TIOCSTI into the caller's terminal"
		tiocsti_case int80-tiocsti \
			"TIOCSTI through the i386 table (int 0x80)"
		tiocsti_case tiocsti \
			"--no-pty: TIOCSTI into the caller's terminal" --no-pty
	else
		skip "TIOCSTI" "no pty, or TIOCSTI does not work on the host"
	fi
	sbx -- "$T/bin/suid-nobody" euid
	if [ "$host_suid_nobody" = "ok euid 65534 ruid 0" ]; then
		got=$([ "$got" = "ok euid 0 ruid 0" ] && echo unchanged ||
			echo "$got")
		check "a set-user-ID binary does not change the euid" \
			unchanged unchanged
	else
		skip "a set-user-ID binary" "set-user-ID does not work in $T"
	fi
	suid_as_nobody
	hostprio_as_nobody
	sbx -- nnp
	got=$([ "$got" = "ok nnp 1" ] && echo set || echo "$got")
	check "no_new_privs is set" set set
	sbx -- core
	got=$([[ $got =~ ^raise:EPERM\ core\ 0/0$ ]] && echo off || echo "$got")
	check "core dumps are off and stay off" off off
	sbx --memory 64 -- raise as
	check "raise RLIMIT_AS above --memory" EPERM EPERM
	sbx --cpu 5 -- raise cpu
	check "raise RLIMIT_CPU above --cpu" EPERM EPERM
	sbx --pids 32 -- raise nproc
	check "raise RLIMIT_NPROC above --pids" EPERM EPERM
	if [ "$backend" = landlock ]; then
		sbx -- caps
		got=$([[ $got =~ ^ok\ CapEff:[[:space:]]*0+$ ]] && echo none ||
			echo "$got")
		check "no capabilities are left" - none
		sbx -- reboot
		check "reboot(2) is refused (CAP_SYS_BOOT)" - EPERM
		sbx -- sethostname
		check "sethostname is refused (the host's UTS)" - EPERM
		sbx -- ifflags
		check "SIOCSIFFLAGS is refused (the host's interfaces)" - EPERM
		sbx -- socket raw
		check "a raw IP socket on the host's network" - 'EPERM|EACCES'
	fi

	# -- kernel interfaces --
	sbx -- bpf
	check "bpf" EPERM EPERM
	sbx -- io_uring
	check "io_uring_setup" EPERM EPERM
	sbx -- keyctl
	check "add_key" EPERM EPERM
	sbx -- userfaultfd
	check "userfaultfd" EPERM EPERM
	sbx -- perf
	check "perf_event_open" 'EPERM|EACCES' 'EPERM|EACCES'
	if [ "$host_finit" = "ok finit_module permitted" ]; then
		sbx -- finit_module
		check "finit_module" EPERM EPERM
	else
		skip "finit_module" "the kernel has no loadable modules"
	fi
	sbx -- socket vsock
	check "an AF_VSOCK socket (to the hypervisor)" EPERM EPERM
	sbx -- socket packet
	check "an AF_PACKET socket" EPERM EPERM
	sbx -- socket netlink-audit
	check "a NETLINK_AUDIT socket" EPERM EPERM
	sbx -- socket netlink-uevent
	check "a NETLINK_KOBJECT_UEVENT socket" EPERM EPERM
	# handles of the current fixtures (a repair makes new inodes)
	sbx -- by-handle "$(ctl handle "$H/.ssh/id_rsa")"
	check "open_by_handle_at of ~/.ssh/id_rsa (shocker)" EPERM EPERM \
		'credential|ssh|mask'
	sbx -- by-handle-at "$(ctl handle "$H/.ssh")" id_rsa
	check "open_by_handle_at of the masked ~/.ssh, then id_rsa" \
		'EPERM|EACCES' 'EPERM|EACCES' 'credential|ssh|mask'

	# -- the network --
	# Landlock's TCP rule refuses before the network namespace is
	# reached (EACCES); the UDP cases below show the namespace.
	sbx -- tcp 127.0.0.1 "$(port tcp-lo)"
	check "TCP connect to a host service on 127.0.0.1" \
		'ECONNREFUSED|ENETUNREACH|EACCES' EACCES
	if [ -n "$host_ip" ]; then
		sbx -- tcp "$host_ip" "$(port tcp-any)"
		check "TCP connect to the host's address $host_ip" \
			'ENETUNREACH|EHOSTUNREACH|EACCES' EACCES
		sbx -- udp "$host_ip" "$(port udp-any)"
		check "UDP to the host's address $host_ip" \
			'ENETUNREACH|EHOSTUNREACH' 'EACCES|EPERM' 'udp|network'
	fi
	if [ "$have_ip6" = 1 ]; then
		sbx -- tcp ::1 "$(port tcp6)"
		check "TCP connect to a host service on ::1" \
			'ECONNREFUSED|ENETUNREACH|EADDRNOTAVAIL|EACCES' EACCES
	fi
	# Inside a network namespace the datagrams go to the sandbox's own
	# loopback and are lost: what counts is that the host got nothing.
	sbx -- udp 127.0.0.1 "$(port udp-lo)"
	check "UDP to a host service on 127.0.0.1 (network none)" \
		'ok|ECONNREFUSED' 'EACCES|EPERM' 'udp|network'
	sbx -- abstract "$tok-abstract"
	check "connect to a host's abstract unix socket" 'ECONNREFUSED' \
		'EPERM|ECONNREFUSED'
	sbx --no-unix-sockets -- unixpath "$T/net/sock"
	check "--no-unix-sockets: connect to a host's unix socket" \
		EPERM EPERM

	# -- the session's unix sockets (connect is no write) --
	envs=("XDG_RUNTIME_DIR=$T/rt")
	sbx -- unixpath "$T/rt/bus"
	check "connect to the session bus in \$XDG_RUNTIME_DIR" \
		'ENOENT|ECONNREFUSED' 'ENOENT|ECONNREFUSED|EPERM|EACCES' \
		'unix socket'
	envs=("SSH_AUTH_SOCK=$T/net/agent")
	sbx -- unixpath "$T/net/agent"
	check "connect to the agent named by SSH_AUTH_SOCK" \
		'ENOENT|ECONNREFUSED' 'ENOENT|ECONNREFUSED|EPERM|EACCES' \
		'unix socket'
	envs=()
	# default-deny: every socket bound outside the writable roots
	if [[ $host_pm == "ok connected"* ]]; then
		sbx -- unixpath "$T/hostsock/pm-agent"
		check "connect to a host's listening unix socket named by nothing" \
			'ENOENT|ECONNREFUSED' 'ENOENT|ECONNREFUSED|EPERM|EACCES' \
			'unix socket'
	else
		skip "a host's unix socket" "the host: $host_pm"
	fi
	if [[ $host_dgram == "ok sent"* ]]; then
		sbx -- unixdgram "$T/hostsock/dgram"
		# EPERM: AF_UNIX datagram sockets are refused at socket()
		# (syscallfilter.c), the mask stays behind it
		check "a datagram to a host's unix datagram socket" \
			'ENOENT|ECONNREFUSED|EPERM' 'ENOENT|ECONNREFUSED|EPERM|EACCES' \
			'unix socket'
	else
		skip "a host's unix datagram socket" "the host: $host_dgram"
	fi
	if [ -S /run/systemd/private ] || [ -S /run/dbus/system_bus_socket ]
	then
		local s=/run/dbus/system_bus_socket
		[ -S $s ] || s=/run/systemd/private
		sbx -- unixpath "$s"
		check "connect to the system's $s" \
			'ENOENT|ECONNREFUSED' 'ENOENT|ECONNREFUSED|EPERM|EACCES' \
			'unix socket'
	fi
	if [ -s /etc/shadow ]; then
		sbx -- read /etc/shadow
		check "read /etc/shadow (running as root)" \
			'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' 'root'
	fi

	# -- credentials and denied reads --
	sbx -- read "$H/.ssh/id_rsa"
	check "read ~/.ssh/id_rsa" 'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' \
		'credential|ssh|mask'
	sbx -- list "$H/.ssh"
	check "list ~/.ssh" 'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' \
		'credential|ssh|mask'
	local f
	for f in .aws/credentials .netrc .git-credentials .config/gh/hosts.yml \
		.docker/config.json .pgpass .my.cnf .s3cfg .boto \
		.config/git/credentials .config/containers/auth.json \
		.config/rclone/rclone.conf .gem/credentials .oci/config; do
		sbx -- read "$H/$f"
		check "read ~/$f" 'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' \
			'credential|mask|'"${f//./\\.}"
	done
	cred_table_case
	envs=("XDG_CONFIG_HOME=$H/xc")
	sbx -- read "$H/xc/gh/hosts.yml"
	check "\$XDG_CONFIG_HOME in the home: read its gh/hosts.yml" \
		'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY'
	envs=("XDG_CONFIG_HOME=$O/xdg")
	sbx -- read "$O/xdg/gh/hosts.yml"
	check "\$XDG_CONFIG_HOME outside the home: read its gh/hosts.yml" \
		'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' \
		'credentials outside'
	envs=()
	sbx --deny-read '**/.env' -- read "$W/.env"
	check "--deny-read '**/.env': the workspace's .env" \
		'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' 'deny|\.env'
	sbx --deny-read '**/.env' -- read "$W/sub/dir/.env"
	check "--deny-read '**/.env': a nested .env" \
		'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' 'deny|\.env'
	sbx --deny-read "$O/deny-me" -- read "$O/deny-me"
	check "--deny-read PATH outside the workspace" \
		'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' 'deny'
	# files that appear on the host during the run
	late_case "a ~/.vault-token made during the run" "$H/.vault-token"
	late_case "a key added to ~/.ssh during the run" "$H/.ssh/id_late"
	late_case "a new file directly in \$HOME during the run" \
		"$H/.late-secret"
	sbx --no-read-home -- read "$H/notes.txt"
	check "--no-read-home: a file in the home" \
		'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY' 'home'

	# -- "run later" paths --
	sbx -- write "$W/.git/hooks/pre-commit"
	check "plant .git/hooks/pre-commit" EROFS EACCES 'git|hook|run.later'
	sbx -- write "$W/.git/config"
	check "rewrite .git/config" EROFS EACCES 'git|config|run.later'
	sbx -- write "$W/sub/nested/.git/hooks/pre-commit"
	check "plant a hook in a nested repository" EROFS EACCES \
		'git|hook|run.later'
	sbx -- write "$W/.git/modules/mod/hooks/post-checkout"
	check "plant a hook in a submodule (gitdir: file)" EROFS EACCES \
		'git|hook|run.later'
	# Refusing to run at all (125, naming the symlink) is a refusal too.
	local enf_backend=$want_enf
	ws=$S cwd=$S sbx -- write "$S/hooks-real/pre-commit"
	if [ "$rc" = 125 ] && [ -z "$got" ] && grep -q "$S/.git/hooks" "$T/err"
	then
		got=REFUSED-TO-RUN
		want_enf=none
	fi
	check "plant a hook where .git/hooks is a symlink" \
		'EROFS|REFUSED-TO-RUN' 'EACCES|REFUSED-TO-RUN' 'git|hook|run.later'
	want_enf=$enf_backend
	sbx -- mvwrite "$W/.git" "$W/.git-moved" "$W/.git/hooks/pre-commit"
	check "move .git aside and plant a hook in a new one" \
		'EBUSY|EROFS|EACCES|EPERM|EXDEV' 'EBUSY|EROFS|EACCES|EPERM|EXDEV' \
		'git|hook|run.later'
	sbx -- mvwrite "$W/sub" "$W/sub-moved" \
		"$W/sub/nested/.git/hooks/pre-commit"
	check "move a nested repository's parent aside, plant a hook" \
		'EBUSY|EROFS|EACCES|EPERM|EXDEV' 'EBUSY|EROFS|EACCES|EPERM|EXDEV' \
		'git|hook|run.later'
	sbx -- mvwrite "$W/.git/hooks" "$W/.git/hooks-moved" \
		"$W/.git/hooks/pre-commit"
	check "move .git/hooks itself aside" \
		'EBUSY|EROFS|EACCES|EPERM|EXDEV' 'EBUSY|EROFS|EACCES|EPERM|EXDEV' \
		'git|hook|run.later'
	# the rest of the family: made during the run, moved aside after it
	for f in .mcp.json .devcontainer/devcontainer.json .cursor/mcp.json \
		.gemini/settings.json .zed/settings.json .continue/config.json \
		.envrc; do
		sweep_case "$f (missing before the run)" \
			"mkdir -p \"\$(dirname '$W/$f')\" && printf '{}\n' >'$W/$f'" \
			"$W/${f%%/*}"
	done
	for f in .vscode/tasks.json .claude/settings.json .cordon/config.json \
		.codex/config.toml; do
		sbx -- mkwrite "$W/$f"
		check "create $f (missing before the run)" \
			'EROFS|ENOTDIR|EACCES|EPERM' 'EROFS|ENOTDIR|EACCES|EPERM' \
			"${f%%/*}|run.later"
	done
	sbx -- write "$W/proj.code-workspace"
	check "rewrite a *.code-workspace file (its tasks run in the editor)" \
		'EROFS|EACCES' 'EROFS|EACCES' 'run.later'
	for f in .clinerules/hooks/PreToolUse .github/hooks/cordon.json \
		.qwen/settings.json .github/hooks/new.json; do
		sbx -- mkwrite "$W/$f"
		check "rewrite or add the agent hook $f" 'EROFS|EACCES' \
			'EROFS|EACCES' 'run.later'
	done
	sbx -- mvwrite "$W/.github" "$W/.github-moved" "$W/.github/hooks/new.json"
	check "move .github aside and add a hook in a new .github/hooks" \
		'EBUSY|EROFS|EACCES|EPERM|EXDEV' 'EBUSY|EROFS|EACCES|EPERM|EXDEV' \
		'run.later'
	for f in .qwen/settings.json .clinerules/hooks/PreToolUse; do
		ws=$P cwd=$P sweep_case "$f (missing before the run)" \
			"mkdir -p \"\$(dirname '$P/$f')\" && printf '{}\\n' >'$P/$f'" \
			"$P/${f%%/*}"
	done
	ws=$P cwd=$P sbx -- mkwrite "$P/.git/hooks/pre-commit"
	check "a workspace that is no repository: create .git/hooks" \
		'EROFS|ENOTDIR|EACCES|EPERM' 'EROFS|ENOTDIR|EACCES|EPERM' \
		'git|hook|run.later'
	# another writable root's run-later files are those of the workspace
	sbx --write "$WR" -- write "$WR/.git/hooks/pre-commit"
	check "--write ROOT: rewrite the hook of its repository" \
		'EROFS|EACCES' 'EROFS|EACCES' 'git|hook|run.later'
	sbx --write "$WR" -- write "$WR/.git/config"
	check "--write ROOT: rewrite the config of its repository" \
		'EROFS|EACCES' 'EROFS|EACCES' 'git|config|run.later'
	sbx --write "$WR" -- write "$WR/.vscode/tasks.json"
	check "--write ROOT: rewrite its .vscode/tasks.json" \
		'EROFS|EACCES' 'EROFS|EACCES' 'run.later'
	sbx --write "$H" -- write "$H/.bashrc"
	check "--write \$HOME: rewrite ~/.bashrc" 'EROFS|EACCES' 'EROFS|EACCES' \
		'rc|bashrc|run.later'
	sbx --write "$H" -- write "$H/.zshrc"
	check "--write \$HOME: create ~/.zshrc (missing before the run)" \
		'EROFS|ENOTDIR|EACCES|EPERM' 'EROFS|ENOTDIR|EACCES|EPERM' \
		'rc|zshrc|run.later'
	sbx --write "$H" -- mkwrite "$H/.config/systemd/user/evil.service"
	check "--write \$HOME: add a systemd user unit (runs at next login)" \
		'EROFS|ENOTDIR|EACCES|EPERM' 'EROFS|ENOTDIR|EACCES|EPERM' \
		'run.later'
	sbx --write "$H" -- mkwrite "$H/.claude/settings.json"
	check "--write \$HOME: Claude Code's user settings (hooks run on the host)" \
		'EROFS|ENOTDIR|EACCES|EPERM' 'EROFS|ENOTDIR|EACCES|EPERM' \
		'run.later'
	sbx --write "$H" -- mkwrite "$H/.ssh/authorized_keys"
	check "--write \$HOME: add ~/.ssh/authorized_keys" \
		'EROFS|ENOENT|EACCES|EPERM' 'EROFS|ENOENT|EACCES|EPERM' \
		'credential|ssh|mask'

	# -- the sweep after the run: what git would run later, made during
	# the run, is moved aside on the host before cordon returns --
	sweep_case "a nested repository made during the run" \
		"mkdir -p '$W/sub/newrepo/.git/hooks' && printf '#!/bin/sh\n' >'$W/sub/newrepo/.git/hooks/post-checkout'" \
		"$W/sub/newrepo/.git"
	sweep_case "a .git file pointing elsewhere (gitdir:)" \
		"printf 'gitdir: $O/dir\n' >'$W/sub/dir/.git'" "$W/sub/dir/.git"
	sweep_case "a submodule's git directory (.git/modules/NAME/hooks)" \
		"mkdir -p '$W/.git/modules/evil/hooks' && printf '[core]\n' >'$W/.git/modules/evil/config'" \
		"$W/.git/modules/evil"
	sweep_case "a worktree's git directory (.git/worktrees/NAME)" \
		"mkdir -p '$W/.git/worktrees/wt' && printf '../..\n' >'$W/.git/worktrees/wt/commondir'" \
		"$W/.git/worktrees/wt"
	sweep_case "a repository made in node_modules (a git dependency)" \
		"mkdir -p '$W/node_modules/dep/.git' && printf '[core]\n\tfsmonitor = x\n' >'$W/node_modules/dep/.git/config'" \
		"$W/node_modules/dep/.git"
	sweep_config_case

	# -- deny_write (safety.sandbox.deny_write: dw/protected) --
	sbx --config "$T/dw.json" -- write "$W/dw/protected"
	check "deny_write: overwrite the listed file" EROFS 'EROFS|EACCES' \
		'deny_write: dw/protected'
	if [[ $host_dw_rename == "ok renamed"* ]]; then
		sbx --config "$T/dw.json" -- rename "$W/dw/other" \
			"$W/dw/protected"
		check "deny_write: rename a sibling over the listed file" \
			EBUSY 'EBUSY|EACCES' 'deny_write: dw/protected'
	else
		skip "deny_write: rename over" "the host: $host_dw_rename"
	fi
	if [[ $host_dw_unlink == "ok unlinked"* ]]; then
		sbx --config "$T/dw.json" -- unlink "$W/dw/protected"
		check "deny_write: unlink the listed file" EBUSY \
			'EBUSY|EACCES' 'deny_write: dw/protected'
	else
		skip "deny_write: unlink" "the host: $host_dw_unlink"
	fi
	if [[ $host_dw_link == "ok linked"* ]]; then
		sbx --config "$T/dw.json" -- link "$W/dw/protected" "$W/dw-hl"
		check "deny_write: hardlink the listed file to a writable name" \
			EXDEV 'EXDEV|EACCES' 'deny_write: dw/protected'
	else
		skip "deny_write: hardlink" "the host: $host_dw_link"
	fi
	if [[ $host_dw_mv == "ok wrote"* ]]; then
		sbx --config "$T/dw.json" -- mvwrite "$W/dw" "$W/dw-moved" \
			"$W/dw/protected"
		check "deny_write: move its directory aside, write a new one" \
			EBUSY 'EBUSY|EACCES' 'deny_write: dw/protected'
	else
		skip "deny_write: move the directory aside" \
			"the host: $host_dw_mv"
	fi

	# -- inherited descriptors --
	withfds=1 sbx -- fdwrite 7
	check "write to an inherited fd on a file outside" EBADF EBADF
	withfds=1 sbx -- fdopenat 8 via-fd
	check "openat beneath an inherited fd on a directory outside" \
		EBADF EBADF
	withfds=1 sbx -- procfd 7
	check "reopen an inherited fd through /proc/self/fd" \
		'ENOENT|EACCES' 'ENOENT|EACCES'
	# stdio is the caller's: a file outside as stdin, the terminal
	local op
	for op in chmod chown utimes xattr; do
		if [[ " $host_fdmeta " != *" ok $op "* ]]; then
			skip "$op through stdin, a file outside" \
				"the host itself: $host_fdmeta"
			continue
		fi
		stdin_from=$O/meta sbx -- fdmeta 0 "$O/meta" "$op"
		check "$op through stdin, a file outside (relayed)" \
			'relayed|EPERM|EINVAL|EROFS' 'relayed|EPERM|EINVAL|EROFS'
	done
	stdin_from=/dev/null sbx -- fdmeta 0 /dev/null chmod
	[ "$(stat -c %a /dev/null)" = 666 ] || {
		chmod 666 /dev/null
		got="$got (the host's /dev/null changed)"
	}
	check "chmod the host's /dev/null through stdin" \
		'relayed|EPERM|EROFS' 'relayed|EPERM|EROFS'
	sbx -- fdmeta 1 "$T/out" chmod
	[ "$(stat -c %a "$T/out")" != 606 ] ||
		got="$got (the caller's stdout file changed)"
	check "chmod stdout, the caller's file outside (relayed)" \
		'relayed|EPERM|EROFS' 'relayed|EPERM|EROFS'
	stdin_from=$O/meta sbx -- read /dev/stdin
	[[ $got == "ok read 9:metadata"* ]]
	judge $? "got '$got' (exit $rc)" \
		"$backend: control: a relayed stdin still reads (/dev/stdin)"
	local enf_fd=$want_enf
	stdin_from=$O/dir sbx -- fdopenat 0 via-stdin
	if [ "$rc" = 125 ] && [ -z "$got" ] && grep -q 'stdin is a directory' \
		"$T/err"; then
		got=REFUSED-TO-RUN
		want_enf=none
	fi
	check "a directory outside as stdin, then openat beneath it" \
		'REFUSED-TO-RUN' 'REFUSED-TO-RUN'
	want_enf=$enf_fd
	if [ -n "$host_tcsets" ]; then
		tcsets_case
	else
		skip "the terminal's mode" "no pty, or tcsetattr fails on the host"
	fi
	if [[ $host_lease == "ok lease"* ]]; then
		sbx -- lease "$O/sentinel"
		check "a lease on a host file (F_SETLEASE)" EPERM EPERM
	else
		skip "F_SETLEASE" "the host: $host_lease"
	fi

	# -- cordon's own outputs as a confused deputy --
	report_case

	# -- resources --
	sbx --pids 32 -- forkbomb 2000
	# stopped near the cap: a sandbox that cannot fork at all fails too
	if [[ $got =~ ^EAGAIN\ after\ ([0-9]+) ]] &&
		[ "${BASH_REMATCH[1]}" -le 32 ] && [ "${BASH_REMATCH[1]}" -ge 8 ]
	then
		got=stopped
	fi
	check "a fork bomb is stopped by --pids 32" stopped stopped \
		'pids|nproc|process'
	sbx --memory 64 -- memhog 2048
	if [[ $got =~ ^ENOMEM\ after\ ([0-9]+) ]] &&
		[ "${BASH_REMATCH[1]}" -le 64 ]; then
		got=stopped
	fi
	[ "$got" = SIGKILL ] && got=stopped
	check "a memory hog is stopped by --memory 64" stopped stopped
	# files in a tmpfs are memory RLIMIT_AS does not see
	if [[ $host_tmpfill == "ok wrote"* ]]; then
		local d
		for d in /tmp /dev/shm; do
			sbx --memory 64 -- tmpfill "$d" 80
			if [[ $got =~ ^ENOSPC\ after\ ([0-9]+) ]] &&
				[ "${BASH_REMATCH[1]}" -le 64 ]; then
				got=stopped
			fi
			[ "$got" = SIGKILL ] && got=stopped
			# landlock: the host's /tmp; the report must say so
			[[ $got == "ok wrote"* ]] && grep -q \
				'/tmp and /dev/shm are not counted' \
				"$T/report.json" && got=caveat
			check "filling $d past --memory 64" stopped \
				'stopped|caveat'
		done
	else
		skip "filling a tmpfs past --memory" "the host: $host_tmpfill"
	fi
	t0=$SECONDS
	sbx --cpu 1 -- spin 30
	case $got in
	SIGXCPU | SIGKILL) [ $((SECONDS - t0)) -le 15 ] && got=stopped ;;
	esac
	check "a CPU spinner is stopped by --cpu 1" stopped stopped
	timeout_case
	kill_cordon_case
	side_effects_case

	# -- the environment --
	envs=("OPENAI_API_KEY=sk-$tok" "GITHUB_TOKEN=ghp_$tok"
		"AWS_SECRET_ACCESS_KEY=aws-$tok" "ANTHROPIC_API_KEY=ant-$tok"
		"NPM_TOKEN=npm-$tok" "MY_DB_PASSWORD=pw-$tok"
		"GOOGLE_APPLICATION_CREDENTIALS=/gac-$tok" "AWS_PROFILE=prof-$tok")
	sbx -- env
	envs=()
	if [[ $got == "ok env "* ]] && [[ " $got " == *" PATH "* ]] &&
		! grep -q -- "$tok" "$T/out" &&
		! [[ $got =~ (OPENAI|GITHUB|AWS_|ANTHROPIC|NPM_TOKEN|PASSWORD|GOOGLE_APP) ]]; then
		got=clean
	fi
	check "secrets are missing from the environment" clean clean

	# -- the report and the modes --
	sbx -- euid
	python3 - "$T/report.json" "$backend" >"$T/diff" 2>&1 <<-'EOF'
		import json, sys
		d = json.load(open(sys.argv[1]))
		keys = {"backend", "enforcement", "notEnforced", "exitCode",
		        "signal", "timedOut", "durationMs"}
		assert keys <= set(d), "missing keys: %s" % (keys - set(d))
		assert d["backend"] == sys.argv[2], d["backend"]
		ne = d["notEnforced"]
		assert isinstance(ne, list) and all(isinstance(x, str) for x in ne)
		cav = d["caveats"]
		assert isinstance(cav, list), d
		# locks on host files are shared with the host (verified)
		assert any(c.startswith("locks:") for c in cav), cav
		if sys.argv[2] == "namespaces":
		    assert d["enforcement"] == "full" and ne == [], d
		else:
		    assert d["enforcement"] == "partial" and ne, d
		assert d["exitCode"] == 0 and d["signal"] is None, d
		assert d["timedOut"] is False, d
		assert isinstance(d["durationMs"], int) and d["durationMs"] >= 0
	EOF
	judge $? "the report is wrong" \
		"$backend: the report: backend, enforcement, notEnforced"
	sbx --mode strict --memory 0 -- euid
	if [ "$backend" = namespaces ]; then
		# everything asked was applied: strict runs
		[ "$rc" = 0 ] && [ -n "$got" ]
		judge $? "got '$got' (exit $rc)" \
			"$backend: --mode strict runs when enforcement is full"
		strict_as_nobody
	else
		[ "$rc" = 125 ] && [ -z "$got" ] && [ -s "$T/err" ]
		judge $? "got '$got' (exit $rc)" \
			"$backend: --mode strict refuses to run (exit 125, why)"
	fi
}

# What script(1) writes to its terminal when its stdin ends reaches the
# command through the pty cordon relays, whose echo shows it as ^@ at the
# start of the line: dropped before the attempt's line is read.
echoed='s/^\(\^.\)*//'

# tiocsti_case ATTEMPT NAME [OPTION]: pushes a byte into the terminal the
# sandbox was started from (a pty made by script(1)): the pty cordon relays,
# or with OPTION --no-pty the caller's own; after the run the shell on that
# terminal reads what is in the input queue: it must be nothing.
tiocsti_case() {
	local inner leaked
	inner=$(printf '%q ' env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" ${3:+"$3"} --report "$T/report.json" -- \
		"$A" "$1" 0)
	rm -f "$T/report.json"
	(cd "$W" && SHELL=/bin/bash script -qec \
		"$inner; read -t 1 -n 1 c; echo leaked:\$c" /dev/null) \
		</dev/null >"$T/out" 2>"$T/err"
	rc=$?
	got=$(tr -d '\r' <"$T/out" | sed "$echoed" |
		grep -m 1 -E '^Z?(ok |E[A-Z0-9]+$)' |
		sed 's/^Z//')
	leaked=$(tr -d '\r' <"$T/out" | sed -n 's/^leaked://p')
	[ -z "$leaked" ] || got="$got (the terminal got '$leaked')"
	check "$2" EPERM EPERM
}

# cred_table_case: one run reads a file of every row of the credential
# table (a file in each directory row); each read must be refused (or
# read as empty) and none of their text seen. One TAP line a row.
cred_table_case() {
	local kind path files=() f got why=""
	while read -r kind path; do
		[ "$kind" = D ] && path=$path/cordon-secret
		[ "$path" = .vault-token ] && continue # late_case's
		files+=("$H/$path")
	done < <(cred_rows)
	sbx -- /bin/sh -c 'for f; do printf "%s\t" "$f"; "$0" read "$f"; done' \
		"$A" "${files[@]}"
	local outcopy=$T/cred.out
	cp "$T/out" "$outcopy"
	intact || why="something outside changed"
	enf_ok || why="${why:+$why; }report enforcement '$(enf)', want $want_enf"
	for f in "${files[@]}"; do
		got=$(grep -m 1 -F "$f$(printf '\t')" "$outcopy" | cut -f 2-)
		case $got in "ok read 0:") got="EMPTY ($got)" ;; esac
		if refusal 'ENOENT|EACCES|EMPTY' && [ -z "$why" ]; then
			result "" "$backend: read ~${f#"$H"} (credential table)"
		else
			result "${why:-not refused: got '$got'}" \
				"$backend: read ~${f#"$H"} (credential table)"
		fi
	done
	if grep -q "CRED-$tok" "$outcopy"; then
		result "a credential's text was read" \
			"$backend: no credential table file's text is seen"
	else
		result "" "$backend: no credential table file's text is seen"
	fi
}

# late_case NAME PATH: the host writes PATH (a credential, or a new file
# directly in the home) once the command runs; the command then reads it.
# The same read works on the host (checked after).
late_case() {
	local helper host
	rm -f "$W/late.ready" "$W/late.go" "$2"
	(
		for ((i = 0; i < 400; i++)); do
			[ -e "$W/late.ready" ] && break
			sleep 0.05
		done
		printf 'LATE-%s\n' "$tok" >"$2"
		: >"$W/late.go"
	) &
	helper=$!
	sbx -- waitread "$W/late.ready" "$W/late.go" "$2"
	wait "$helper"
	host=$(ctl read "$2")
	rm -f "$W/late.ready" "$W/late.go" "$2"
	if [[ $host != "ok read"* ]]; then
		skip "$1" "the host itself cannot read it: $host"
		return
	fi
	check "$1" 'ENOENT|EACCES|EMPTY' 'ENOENT|EACCES|EMPTY'
}

# sweep_case NAME SCRIPT PATH: sh -c SCRIPT makes PATH in the sandbox
# (a writable root: it may); after the run PATH is gone, moved to
# PATH.cordon-quarantined, and the report's "quarantined" names it.
sweep_case() {
	local why=""
	sbx -- /bin/sh -c "$2"
	[ "$rc" = 0 ] || why="the script failed (exit $rc): $(head -c 200 "$T/err")"
	[ -e "$3" ] && why="${why:+$why; }$3 is still there"
	[ -e "$3.cordon-quarantined" ] ||
		why="${why:+$why; }no $3.cordon-quarantined"
	grep -q "${3//./\\.}: new during the run" "$T/report.json" ||
		why="${why:+$why; }the report does not name it"
	rm -rf "$3" "$3".cordon-quarantined*
	intact || why="${why:+$why; }something outside changed"
	result "$why" "$backend: the sweep moves aside $1"
}

# sweep_config_case: a key that executes added to .git/config (landlock:
# it is writable; namespaces: refused at the write) is gone after the run.
sweep_config_case() {
	local why=""
	cp "$W/.git/config" "$T/config.before"
	sbx -- /bin/sh -c "printf '[core]\n\tfsmonitor = touch $O/pwned\n' >>'$W/.git/config'"
	grep -q fsmonitor "$W/.git/config" &&
		why="core.fsmonitor is in .git/config after the run"
	cmp -s "$W/.git/config" "$T/config.before" ||
		why="${why:+$why; }.git/config is not its launch-time text"
	if [ "$backend" = landlock ] && ! grep -q 'launch-time text restored' \
		"$T/report.json"; then
		why="${why:+$why; }the report does not say it was restored"
	fi
	rm -f "$W/.git/config.cordon-quarantined"*
	if [ "$backend" = landlock ]; then
		# restored as a fresh file: same text and mtime, a new ctime
		repair
	else
		intact || why="${why:+$why; }something outside changed"
	fi
	result "$why" "$backend: core.fsmonitor added to .git/config does not survive the run"
}

# report_case: --report names a file in the workspace; the command puts
# a symlink to a file outside at its place. cordon wrote there after the
# run with the caller's rights; now the file opened before the run gets
# the report, the file outside is neither created nor changed, and cordon
# says the path was replaced.
report_case() {
	local why=""
	rm -f "$W/rep.json" "$O/victim-report"
	: >"$W/rep.json"
	(cd "$W" && exec env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" --report "$W/rep.json" -- \
		"$A" plant "$O/victim-report" "$W/rep.json") \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	outline
	[[ $got == "ok planted"* ]] || why="the symlink was not planted: $got"
	[ -e "$O/victim-report" ] && why="${why:+$why; }cordon wrote the report outside"
	grep -q 'replaced during the run' "$T/err" ||
		why="${why:+$why; }no word that --report was replaced"
	[ "$rc" != 0 ] || why="${why:+$why; }exit 0"
	rm -f "$W/rep.json" "$O/victim-report"
	intact || why="${why:+$why; }something outside changed"
	result "$why" "$backend: --report FILE replaced by a symlink during the run is not followed"
	ln -s "$O/victim-report" "$W/rep.json"
	(cd "$W" && exec env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" --report "$W/rep.json" -- "$A" euid) \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	why=""
	[ "$rc" = 125 ] || why="exit $rc, want 125"
	[ -e "$O/victim-report" ] && why="${why:+$why; }followed the symlink"
	rm -f "$W/rep.json" "$O/victim-report"
	intact || why="${why:+$why; }something outside changed"
	result "$why" "$backend: --report FILE that is a symlink already is refused"
	# an earlier run left a symlink at the audit log's place
	ln -s "$O/victim-audit" "$W/audit.jsonl"
	(cd "$W" && exec env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" --audit-log "$W/audit.jsonl" -- "$A" euid) \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	why=""
	[ "$rc" = 125 ] || why="exit $rc, want 125"
	[ -e "$O/victim-audit" ] && why="${why:+$why; }followed the symlink"
	rm -f "$W/audit.jsonl" "$O/victim-audit"
	intact || why="${why:+$why; }something outside changed"
	result "$why" "$backend: --audit-log FILE that is a symlink is refused"
}

# tcsets_case: turning echo off on the terminal the sandbox was started
# from (a pty made by script(1)): the command's terminal is a pty cordon
# made, so it works there and the caller's terminal keeps its mode (stty -g
# before and after, in the same script(1) session), the report saying the
# terminal is relayed; with --no-pty the caller's terminal passes and
# tcsetattr is refused, the report naming the terminal that crossed.
tcsets_case() {
	local inner modes
	inner=$(printf '%q ' env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" --report "$T/report.json" -- "$A" tcsets 0)
	rm -f "$T/report.json"
	(cd "$W" && SHELL=/bin/bash script -qec \
		"stty -g >$(printf '%q' "$T/mode.before"); $inner;
		stty -g >$(printf '%q' "$T/mode.after")" /dev/null) \
		</dev/null >"$T/out" 2>"$T/err"
	rc=$?
	got=$(tr -d '\r' <"$T/out" | sed "$echoed" |
		grep -m 1 -E '^(ok |E[A-Z0-9]+$)')
	cmp -s "$T/mode.before" "$T/mode.after" ||
		got="$got (the caller's terminal mode changed)"
	grep -q "terminal: relayed" "$T/report.json" 2>/dev/null ||
		got="$got (the report does not say the terminal is relayed)"
	# Landlock below ABI 5 cannot keep a terminal opened by path from
	# ioctls: the setters stay refused there (the caveat says so).
	modes=ok
	grep -q "modes locked" "$T/report.json" 2>/dev/null && modes=EPERM
	if [ "$modes" = ok ]; then
		[[ $got == "ok echo off on fd 0" ]]
		judge $? "got '$got' (exit $rc)" \
			"$backend: echo off on the pty cordon relays works, the caller's terminal keeps its mode"
	else
		check "echo off on the pty (Landlock < 5: locked)" EPERM EPERM
	fi
	inner=$(printf '%q ' env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" --no-pty --report "$T/report.json" -- \
		"$A" tcsets 0)
	rm -f "$T/report.json"
	(cd "$W" && SHELL=/bin/bash script -qec "$inner" /dev/null) \
		</dev/null >"$T/out" 2>"$T/err"
	rc=$?
	got=$(tr -d '\r' <"$T/out" | sed "$echoed" |
		grep -m 1 -E '^(ok |E[A-Z0-9]+$)')
	grep -q "caller's terminal" "$T/report.json" 2>/dev/null ||
		got="$got (the report does not name the terminal)"
	check "--no-pty: turn echo off on the caller's terminal (tcsetattr)" \
		EPERM EPERM
}

# strict_as_nobody: --mode strict runs for an unprivileged caller:
# enforcement is full, or (a host without a cgroup v2 memory controller:
# the config's memory cap stays RLIMIT_AS) the refusal names only that.
strict_as_nobody() {
	local nw=$T/nobody
	rm -rf "$nw"
	mkdir -p "$nw"
	chown 65534:65534 "$nw"
	rm -f "$T/report.json"
	(cd "$nw" && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$nw" XDG_STATE_HOME="$nw/.state" "$nbin" run \
		--backend "$backend" --workspace "$nw" --mode strict \
		--report "$nw/report.json" -- "$A" euid) \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	cp "$nw/report.json" "$T/report.json" 2>/dev/null
	outline
	[ "$rc" = 0 ] && [[ $got == "ok euid 65534 "* ]]
	judge $? "got '$got' (exit $rc): $(head -c 300 "$T/err")" \
		"$backend: --mode strict runs for an unprivileged caller"
}

# hostprio_as_nobody: an unprivileged caller's other processes on the
# host (the same user; no PID namespace on the landlock backend) keep
# their priority, I/O class, CPUs and scheduler.
hostprio_victim() {
	setsid setpriv --reuid=65534 --regid=65534 --clear-groups \
		sleep 300 </dev/null >/dev/null 2>&1 &
	victim=$!
	bg+=("$victim")
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(stat -c %u "/proc/$victim" 2>/dev/null)" = 65534 ] && break
		sleep 0.02
	done
}
hostprio_state() {
	ps -o ni=,cls= -p "$victim"
	taskset -p "$victim" 2>&1 | sed 's/.*: //'
	ionice -p "$victim" 2>&1
}
hostprio_as_nobody() {
	local nw=$T/nobody before after a why victim
	if ! command -v taskset >/dev/null || ! command -v ionice >/dev/null; then
		skip "a host process of the same user" "no taskset or ionice"
		return
	fi
	rm -rf "$nw"
	mkdir -p "$nw"
	chown 65534:65534 "$nw"
	hostprio_victim
	before=$(hostprio_state)
	# @V: the victim of the moment (it is replaced when hit)
	for a in "prio proc @V" "prio pgrp @V" "prio user 65534" \
		"prio user 0" "ioprio proc @V" "ioprio pgrp @V" "ioprio user 0" \
		"setaffinity @V" "setsched @V"; do
		a=${a//@V/$victim}
		# shellcheck disable=SC2086 # the attempt's words
		(cd "$nw" && exec setpriv --reuid=65534 --regid=65534 \
			--clear-groups env HOME="$nw" XDG_STATE_HOME="$nw/.state" \
			"$nbin" run --backend "$backend" --workspace "$nw" \
			-- "$A" $a) >"$T/out" 2>"$T/err" </dev/null
		rc=$?
		outline
		after=$(hostprio_state)
		why=""
		[[ $got =~ ^(EPERM|ESRCH)$ ]] ||
			why="not refused: got '$got' (exit $rc)"
		if [ "$after" != "$before" ]; then
			why="${why:+$why; }the host process changed: $(echo $after)"
			kill "$victim" 2>/dev/null
			hostprio_victim
			before=$(hostprio_state)
		fi
		result "$why" "$backend: as nobody, $a (the user's host process)"
	done
	kill "$victim" 2>/dev/null
}

# suid_as_nobody: a set-user-ID-root binary run by an unprivileged caller
# keeps the caller's euid.
suid_as_nobody() {
	local nw=$T/nobody
	if [ "$host_suid_root" != "ok euid 0 ruid 65534" ]; then
		skip "a set-user-ID-root binary run by nobody" \
			"set-user-ID does not work in $T"
		return
	fi
	rm -rf "$nw"
	mkdir -p "$nw"
	chown 65534:65534 "$nw"
	rm -f "$T/report.json"
	(cd "$nw" && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$nw" XDG_STATE_HOME="$nw/.state" "$nbin" run --backend "$backend" --workspace "$nw" \
		--report "$nw/report.json" -- "$T/bin/suid-root" euid) \
		>"$T/out" 2>"$T/err" </dev/null
	rc=$?
	cp "$nw/report.json" "$T/report.json" 2>/dev/null
	outline
	got=$([ "$got" = "ok euid 65534 ruid 65534" ] && echo unchanged ||
		echo "$got")
	check "a set-user-ID-root binary run by nobody keeps euid 65534" \
		unchanged unchanged
}

# wait_gone TOKEN: waits up to 3 s for every process with TOKEN to die;
# prints the survivors.
wait_gone() {
	local i p
	for ((i = 0; i < 30; i++)); do
		p=$(token_pids "$1")
		[ -z "$p" ] && return 0
		sleep 0.1
	done
	echo "$p"
}

# timeout_case: --timeout 2 on a command whose grandchild left the
# session: exit 124, timedOut, and the whole tree gone.
timeout_case() {
	local t=$tok-c-timeout-$backend survivors why=""
	rm -rf "$W/df" && mkdir "$W/df"
	guard=15 sbx --timeout 2 -- doublefork "$t" "$W/df"
	survivors=$(wait_gone "$t")
	[ -s "$W/df/grandchild.pid" ] ||
		why="the grandchild never started"
	[ "$rc" = 124 ] || why="${why:+$why; }exit $rc, want 124"
	grep -q '"timedOut"[[:space:]]*:[[:space:]]*true' "$T/report.json" ||
		why="${why:+$why; }the report does not say timedOut"
	if [ -n "$survivors" ] || ! flock -n "$W/df/grandchild.lock" true; then
		kill_token "$t"
		if [ "$backend" = landlock ] && reported 'time-?out'; then
			result "" "$backend: --timeout kills a double-forked grandchild (not enforced; reported)"
			return
		fi
		why="${why:+$why; }still alive after the time-out: ${survivors:-the lock holder}"
	fi
	enf_ok ||
		why="${why:+$why; }report enforcement '$(enf)', want $want_enf"
	result "$why" "$backend: --timeout kills a double-forked grandchild"
}

# kill_cordon_case: SIGKILL to cordon itself takes the sandboxed tree
# (with a grandchild that left the session) with it. The run has --write
# $HOME: whatever cordon does to the home to protect rc files must not
# show on the host while it runs, nor stay when it is killed.
kill_cordon_case() {
	local t=$tok-c-kill-$backend cpid i survivors why="" before during after
	rm -rf "$W/df" && mkdir "$W/df"
	before=$(ls -A "$H")
	rm -f "$T/report.json"
	(cd "$W" && exec env HOME="$H" "$bin" run --backend "$backend" \
		--workspace "$W" --write "$H" --report "$T/report.json" \
		-- "$A" doublefork "$t" "$W/df") >"$T/out" 2>"$T/err" </dev/null &
	cpid=$!
	for ((i = 0; i < 100; i++)); do
		[ -s "$W/df/grandchild.pid" ] && break
		sleep 0.05
	done
	[ -s "$W/df/grandchild.pid" ] || why="the grandchild never started"
	during=$(ls -A "$H")
	kill -KILL "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	survivors=$(wait_gone "$t")
	after=$(ls -A "$H")
	if [ -n "$survivors" ] || ! flock -n "$W/df/grandchild.lock" true; then
		kill_token "$t"
		# no report from a killed cordon: ask for one from a plain run
		sbx -- euid
		if [ "$backend" = landlock ] && reported 'outlives|cordon is killed'; then
			result "" "$backend: killing cordon (SIGKILL) kills the tree (not enforced; reported)"
		else
			result "${why:+$why; }still alive after cordon died: ${survivors:-the lock holder}" \
				"$backend: killing cordon (SIGKILL) kills the tree"
		fi
	else
		result "$why" "$backend: killing cordon (SIGKILL) kills the tree"
	fi
	[ "$during" = "$before" ]
	judge $? "new in the home while cordon runs: $(comm -13 \
		<(echo "$before") <(echo "$during") | tr '\n' ' ')" \
		"$backend: --write \$HOME: no placeholder files in the host's home during the run"
	[ "$after" = "$before" ]
	judge $? "left in the home: $(comm -13 <(echo "$before") \
		<(echo "$after") | tr '\n' ' ')" \
		"$backend: --write \$HOME: nothing left in the home when cordon is killed"
	repair
}

# side_effects_case: a plain run leaves the workspace and the home as they
# were (no placeholder for a missing "run later" path stays behind).
side_effects_case() {
	local before after
	repair
	before=$(cd "$T" && ls -A ws home)
	sbx --write "$H" -- euid
	after=$(cd "$T" && ls -A ws home)
	[ "$after" = "$before" ] && [[ $got == "ok euid"* ]]
	judge $? "got '$got'; new entries: $(diff <(echo "$before") \
		<(echo "$after") | sed -n 's/^> //p' | tr '\n' ' ')" \
		"$backend: a run leaves no new entries in the workspace or the home"
}

for backend in $backends; do
	echo "# backend $backend"
	suite
done
echo "1..$n"
