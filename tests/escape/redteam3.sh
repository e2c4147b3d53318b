#!/usr/bin/env bash
# The third red team's pass against `cordon run` (issue 20), as root, for
# real, on every backend in $ESCAPE_BACKENDS (default "namespaces
# landlock"). The attempts (tests/escape/redteam3.c) were written from the
# README and --help alone: second doors to the walls escape.sh tests one
# way (O_TMPFILE, RENAME_EXCHANGE, O_PATH reopen, the new mount API,
# chroot, memfd exec, a descriptor passed over a socket; masked files
# through links, renames and odd paths, the kernel log, the keyring,
# /dev/userfaultfd; refused calls through the i386 and x32 tables and
# socketcall; a host process's limits, priority, affinity, scheduler, I/O
# priority, SIGIO, pidfds, its process group; threads, memfd, SysV shm,
# tmpfs inodes, inotify instances; MPTCP, TCP Fast Open and socket
# families the filter should refuse; host services through the embedded
# proxy under every spelling of this host, by CONNECT, GET and SOCKS5).
#
# Each row first runs on the host, on scratch copies, and must succeed
# there ("ok ..."), else it is skipped with the host's answer: a row that
# proves nothing is not counted. Inside, it passes when the kernel refused
# with an expected errno AND nothing outside changed (the outside tree,
# the home, the host listener's log, the host process's limits, nice,
# scheduler, affinity and I/O priority), and the report carries the
# backend's enforcement; or, where the backend cannot hold it, when the
# report names the loss (notEnforced or caveats match the row's NOTE).
#
# Known gaps (tests/escape/redteam3-gaps.txt): an attempt that still gets
# through and is not fixed yet. One per line, "BACKEND<TAB>TITLE<TAB>WHY"
# (BACKEND namespaces, landlock or *; TITLE exactly as in the TAP line
# after "BACKEND: "; # starts a comment). Such a row is a TAP TODO: it
# fails as expected while the gap is open, and an "ok ... # TODO" (an
# unexpected pass) says the gap closed and its line should go.
#
# Environment: CORDON_BIN (required); ESCAPE_TMPDIR (default /var/tmp).
set -u

bin=${CORDON_BIN:?CORDON_BIN must name the cordon binary}
here=$(cd "$(dirname "$0")" && pwd)
backends=${ESCAPE_BACKENDS:-namespaces landlock}
gaps_file=$here/redteam3-gaps.txt
n=0

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the red-team suite runs as root"
	exit 0
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac

T=$(mktemp -d "${ESCAPE_TMPDIR:-/var/tmp}/cordon-rt3.XXXXXX") || {
	echo "Bail out! cannot make a scratch directory"
	exit 1
}
chmod 755 "$T"
export XDG_STATE_HOME=$T/state
bg=()
mounts=()

cleanup() {
	local p m
	for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for m in "${mounts[@]}"; do umount -l "$m" 2>/dev/null; done
	"$R" shmclean >/dev/null 2>&1
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

bail() {
	echo "Bail out! $*"
	exit 1
}

R=$T/bin/redteam3
mkdir -p "$T/bin"
cc -std=c17 -D_GNU_SOURCE -O0 -pthread -o "$R" "$here/redteam3.c" ||
	bail "cannot build tests/escape/redteam3.c"
chmod 755 "$T/bin" "$R"

W=$T/ws      # the workspace
O=$T/out     # outside every writable root
H=$T/home    # $HOME of every run
C=$T/ctl     # the host's controls play here
secret=RT3-SECRET-$$-$RANDOM

# fixtures: outside and home as at the start; $O/dir itself stays (the
# host helper holds a descriptor on it).
fixtures() {
	mkdir -p "$O/dir" "$H"
	find "$O" "$H" -mindepth 1 ! -path "$O/dir" -delete
	mkdir -p "$H/.ssh" "$H/.aws" "$W"
	printf 'sentinel\n' >"$O/sentinel"
	printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n' "$secret" \
		>"$H/.ssh/id_rsa"
	printf '[default]\naws_secret_access_key = %s\n' "$secret" \
		>"$H/.aws/credentials"
	chmod 600 "$H/.ssh/id_rsa"
}

# ws_fixtures: the workspace's own files, put back after each row.
ws_fixtures() {
	find "$W" -mindepth 1 -maxdepth 1 ! -name fd.sock ! -name .git \
		-exec rm -rf {} + 2>/dev/null
	printf 'API_KEY=%s\n' "$secret" >"$W/.env"
	printf 'victim\n' >"$W/victim"
}

# ctl_fixtures: the same for the controls; $C/out/dir and $C/ws/fd.sock
# stay (the control's helper).
ctl_fixtures() {
	mkdir -p "$C/out/dir" "$C/ws"
	find "$C" -mindepth 1 ! -path "$C/out" ! -path "$C/out/dir" \
		! -path "$C/ws" ! -path "$C/ws/fd.sock" -delete 2>/dev/null
	mkdir -p "$C/home/.ssh" "$C/home/.aws" "$C/m"
	printf 'sentinel\n' >"$C/out/sentinel"
	printf 'key %s\n' "$secret" >"$C/home/.ssh/id_rsa"
	printf 'key %s\n' "$secret" >"$C/home/.aws/credentials"
	printf 'API_KEY=%s\n' "$secret" >"$C/ws/.env"
	printf 'victim\n' >"$C/ws/victim"
}

# A host process the attempts aim at, in a session of its own.
victim() {
	rm -f "$1"
	setsid "$R" sit "$1" >/dev/null 2>&1 &
	local i
	for ((i = 0; i < 100; i++)); do
		[ -s "$1" ] && break
		sleep 0.02
	done
	[ -s "$1" ] || bail "the host process did not start"
	cat "$1"
}

# alive PID: running, not a zombie (the victims' parent is gone, and
# whoever reaps them may be slow).
alive() {
	local st
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# What the attempts must leave alone, one line per fact.
snap() {
	find "$O" "$H" ! -type d -printf '%p %y %m %U:%G %s %n %T@\n' \
		2>/dev/null | sort
	find "$O" "$H" -type d -printf '%p %m\n' 2>/dev/null | sort
	find "$O" "$H" -type f -exec md5sum {} + 2>/dev/null | sort
	cat "$T/tcp.log" 2>/dev/null
	if alive "$V"; then
		echo "victim $V alive"
		grep -v '^Max processes' "/proc/$V/limits"
		awk '{ print "nice", $19, "policy", $41 }' "/proc/$V/stat"
		grep Cpus_allowed_list "/proc/$V/status"
		command -v ionice >/dev/null && ionice -p "$V"
	else
		echo "victim $V dead"
	fi
}

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
	alive "$V" || V=$(victim "$T/victim.pid")
	fixtures
	: >"$T/tcp.log"
	baseline=$(snap)
}

fixtures
ws_fixtures
mkdir -p "$W/.git"
V=$(victim "$T/victim.pid")

# the host's listener, and a host helper that hands out a descriptor on
# the outside directory to whoever connects to a socket in the workspace
"$R" listen 127.0.0.1 "$T/tcp.port" "$T/tcp.log" &
bg+=("$!")
disown "$!"
"$R" fdserve "$W/fd.sock" "$O/dir" "$T/fd.ready" &
bg+=("$!")
disown "$!"
ctl_fixtures
"$R" fdserve "$C/ws/fd.sock" "$C/out/dir" "$T/ctlfd.ready" &
bg+=("$!")
disown "$!"
for ((i = 0; i < 100; i++)); do
	[ -s "$T/tcp.port" ] && [ -s "$T/fd.ready" ] &&
		[ -s "$T/ctlfd.ready" ] && break
	sleep 0.02
done
[ -s "$T/tcp.port" ] && [ -s "$T/fd.ready" ] ||
	bail "the host helpers did not start"
P=$(cat "$T/tcp.port")
bg+=("$V")

# ---- known gaps ----

gap_why() {
	local b t w
	[ -f "$gaps_file" ] || return 1
	while IFS=$'\t' read -r b t w; do
		case $b in '#'* | '') continue ;; esac
		if { [ "$b" = "*" ] || [ "$b" = "$backend" ]; } &&
			[ "$t" = "$1" ]; then
			printf '%s' "$w"
			return 0
		fi
	done <"$gaps_file"
	return 1
}

# ---- TAP ----

result() {
	local why=$1 name=$2 todo=""
	n=$((n + 1))
	if todo=$(gap_why "${name#"$backend: "}"); then
		todo=" # TODO known gap: $todo"
	fi
	if [ -z "$why" ]; then
		echo "ok $n - $name$todo"
		return
	fi
	echo "not ok $n - $name$todo"
	echo "# $why"
	{
		echo "stdout:"
		head -n 5 "$T/stdout"
		echo "stderr:"
		head -n 10 "$T/err"
		echo "report:"
		cat "$T/report.json" 2>/dev/null
		[ -s "$T/diff" ] && echo "changed outside:" && cat "$T/diff"
	} 2>/dev/null | sed 's/^/#   /'
	rm -f "$T/diff"
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# ---- running ----

# subst ROOT-OUT ROOT-WS ROOT-HOME PID ARGS...: the row's placeholders
# (@O @W @H @V @P) replaced, into the array args.
subst() {
	local o=$1 w=$2 h=$3 v=$4 a
	shift 4
	args=()
	for a in "$@"; do
		a=${a//@O/$o}
		a=${a//@W/$w}
		a=${a//@H/$h}
		a=${a//@V/$v}
		a=${a//@P/$P}
		args+=("$a")
	done
}

# ctl ARGS...: the attempt on the host against the scratch copies and a
# victim of its own; sets ctl_got.
ctl() {
	local cv args
	ctl_fixtures
	cv=$(victim "$T/ctl-victim.pid")
	subst "$C/out" "$C/ws" "$C/home" "$cv" "$@"
	ctl_got=$(cd "$C/ws" && exec 9</proc/self/ns/net &&
		timeout -s KILL 60 "$R" "${args[@]}" 2>/dev/null | head -n 1)
	ctl_victim_alive=1
	sleep 0.05
	alive "$cv" || ctl_victim_alive=0
	kill -KILL "$cv" 2>/dev/null
	"$R" shmclean >/dev/null 2>&1
}

# sbx OPTS... -- ARGS...: the attempt in the sandbox; sets rc and got.
sbx() {
	local opts=() args
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	subst "$O" "$W" "$H" "$V" "$@"
	rm -f "$T/report.json"
	(
		cd "$W" || exit 99
		exec 9</proc/self/ns/net
		exec timeout -s KILL 60 env HOME="$H" "$bin" run \
			--backend "$backend" --workspace "$W" \
			--report "$T/report.json" "${opts[@]}" -- "$R" "${args[@]}"
	) >"$T/stdout" 2>"$T/err" </dev/null
	rc=$?
	got=$(head -n 1 "$T/stdout" | tr -d '\r')
	if [ -z "$got" ] && [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
		got=SIG$(kill -l $((rc - 128)))
	fi
	"$R" shmclean >/dev/null 2>&1
}

enf() {
	grep -o '"enforcement"[[:space:]]*:[[:space:]]*"[a-z]*"' \
		"$T/report.json" 2>/dev/null | grep -o '[a-z]*"$' | tr -d '"'
}

# lost REGEX: does notEnforced or caveats name REGEX?
lost() {
	tr -d '\n' <"$T/report.json" 2>/dev/null |
		grep -oE '"(notEnforced|caveats)"[[:space:]]*:[[:space:]]*\[[^]]*\]' |
		grep -qiE -- "$1"
}

# row TITLE NS LL NOTE [CORDON-OPTION...] -- ATTEMPT ARGS...: the host's
# control, then the attempt under each backend. NS and LL are regexes of
# the refusals (errno names after an optional "step:"); NOTE, when not
# empty, a regex the report's notEnforced or caveats may match for an
# attempt the backend does not stop. A "-" NS or LL skips that backend.
row() {
	local title=$1 ns=$2 ll=$3 note=$4 opts=() want name why
	shift 4
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	ctl "$@"
	: >"$T/tcp.log"   # the control's own connection
	if [[ $ctl_got != "ok "* ]]; then
		for backend in $backends; do
			skip "$backend: $title" "on the host: ${ctl_got:-nothing}"
		done
		return
	fi
	for backend in $backends; do
		if [ "$backend" = landlock ]; then want=$ll; else want=$ns; fi
		if [ "$want" = - ]; then
			skip "$backend: $title" "not for this backend"
			continue
		fi
		name="$backend: $title"
		why=""
		sbx "${opts[@]}" -- "$@"
		if [[ $got =~ ^([a-z0-9_-]+:)?($want)(\ |$) ]]; then
			intact || why="refused ($got) but something outside changed"
		elif [ -n "$note" ] && lost "$note"; then
			name="$name (not held; reported)"
			repair
		else
			why="not refused: got '$got' (exit $rc), want $want"
			[ -n "$note" ] && why="$why, or the report naming /$note/"
			intact || why="$why; something outside changed"
		fi
		if [ "$backend" = namespaces ]; then
			[ "$(enf)" = full ] ||
				why="${why:+$why; }report enforcement '$(enf)', want full"
		else
			[ "$(enf)" = partial ] ||
				why="${why:+$why; }report enforcement '$(enf)', want partial"
		fi
		result "$why" "$name"
		ws_fixtures
	done
}

baseline=$(snap)

# -- writes outside the writable roots, by other doors --
row "O_TMPFILE in a directory outside" EROFS EACCES "" -- tmpfile @O/dir
row "O_TMPFILE in the workspace, linkat'd outside through /proc/self/fd" \
	'linkat:(EROFS|EXDEV)' 'linkat:(EACCES|EXDEV)' "" -- tmplink @W @O/dir/new
row "RENAME_EXCHANGE of a workspace file with one outside" \
	EXDEV 'EXDEV|EACCES|EEXIST' "" -- exchange @W/victim @O/sentinel
row "an O_PATH descriptor outside, reopened for writing" \
	'reopen:EROFS' 'reopen:EACCES' "" -- opath @O/sentinel
row "bind-mount the workspace over a directory outside" EPERM EPERM "" \
	-- bindmount @W @O/dir
umount "$C/out/dir" 2>/dev/null
row "exec of a memfd copy, then write outside" EROFS EACCES "" \
	-- memfdexec @O/sentinel
row "utimensat(NULL) on a file outside" EROFS 'EACCES|EPERM' \
	'metadata' -- utimes @O/sentinel
row "mkfifo outside" EROFS EACCES "" -- mkfifo @O/fifo
row "symlink outside" EROFS EACCES "" -- symlink @O/newlink
row "bind a unix socket file outside" 'bind:EROFS' 'bind:EACCES' "" \
	-- sockfile @O/sock
row "chroot, climb out, chroot again" 'chroot:EPERM' 'chroot:EPERM' "" \
	-- chroot @W
row "setns through an inherited namespace fd (fd 9)" \
	'fd:EBADF|setns:EPERM' 'fd:EBADF|setns:EPERM' "" -- setnsfd 9
row "a host helper's socket in the workspace passes a directory fd outside" \
	'openat:(EACCES|EROFS)|connect:ECONNREFUSED' \
	'openat:(EACCES|EROFS)|connect:ECONNREFUSED' "" \
	-- fdrecv @W/fd.sock passed-new
# mount_setattr and move_mount: the control needs mounts of its own
mountctl() {
	local what=$1
	shift
	ctl_fixtures
	mount -t tmpfs -o size=16k rt3m "$C/m" || return 1
	if [ "$what" = setattr ]; then
		mount -o remount,ro "$C/m" || return 1
		ctl_got=$("$R" mount_setattr "$C/m" | head -n 1)
	else
		ctl_got=$("$R" move_mount "$C/m" "$C/out/dir" | head -n 1)
		umount "$C/out/dir" 2>/dev/null
	fi
	umount "$C/m" 2>/dev/null
	[[ $ctl_got == "ok "* ]]
}
mrow() {
	local title=$1 what=$2 name why
	shift 2
	if ! mountctl "$what"; then
		for backend in $backends; do
			skip "$backend: $title" "on the host: ${ctl_got:-no mount}"
		done
		return
	fi
	for backend in $backends; do
		name="$backend: $title"
		why=""
		sbx -- "$@"
		[[ $got =~ ^EPERM ]] || why="not refused: got '$got' (exit $rc)"
		intact || why="${why:+$why; }something outside changed"
		result "$why" "$name"
	done
}
mrow "mount_setattr clearing read-only on /" setattr mount_setattr /
mrow "move_mount of the workspace onto a directory outside" move \
	move_mount @W @O/dir

# -- reading what is masked, by other paths --
row "read ~/.ssh/../.ssh/id_rsa" 'ENOENT|EACCES' 'ENOENT|EACCES' "" \
	-- read @H/.ssh/../.ssh/id_rsa
row "read ~/.ssh/id_rsa through /proc/self/root" 'ENOENT|EACCES' \
	'ENOENT|EACCES' "" -- read /proc/self/root@H/.ssh/id_rsa
row "read ~/.ssh/id_rsa through /proc/<host shell>/root" 'ENOENT|EACCES' \
	'ENOENT|EACCES' "" -- read "/proc/$$/root@H/.ssh/id_rsa"
row "hard-link ~/.ssh/id_rsa into the workspace, read the link" \
	'link:(ENOENT|EXDEV|EPERM|EACCES)' 'link:(ENOENT|EXDEV|EPERM|EACCES)' \
	"" -- linkread @H/.ssh/id_rsa @W/k
row "symlink ~/.aws/credentials into the workspace, read it" \
	'ENOENT|EACCES' 'ENOENT|EACCES' "" -- symread @H/.aws/credentials @W/sl
row "hard-link the masked .env to a new name, read it" \
	'link:(EXDEV|EPERM|EBUSY|ENOENT)' 'link:(EXDEV|EPERM|EACCES)' \
	'deny-read' -- linkread @W/.env @W/env-copy
row "rename the masked .env, read it under its new name" \
	'rename:(EBUSY|EXDEV|EPERM)' 'rename:(EBUSY|EXDEV|EPERM|EACCES)' \
	'deny-read' -- renameread @W/.env @W/env-moved
row "syslog(READ_ALL): the kernel's log" EPERM EPERM "" -- klog
row "read /dev/kmsg" 'ENOENT|EPERM|EACCES' 'ENOENT|EPERM|EACCES' "" \
	-- read /dev/kmsg
row "KEYCTL_READ of the user keyring" EPERM EPERM "" -- keyread
row "a userfaultfd through /dev/userfaultfd" 'open:(ENOENT|EACCES|EPERM)|ioctl:EPERM' \
	'open:(ENOENT|EACCES|EPERM)|ioctl:(EPERM|EACCES)' "" -- uffddev

# -- refused calls through other tables --
for c in io_uring_setup keyctl bpf userfaultfd perf_event_open; do
	row "$c through int 0x80" 'EPERM|SIGSYS' 'EPERM|SIGSYS' "" -- int80 "$c"
done
row "ptrace a host process through int 0x80" 'EPERM|SIGSYS' 'EPERM|SIGSYS' \
	"" -- int80 ptrace @V
row "socketcall(socket(AF_VSOCK)) through int 0x80" 'EPERM|SIGSYS' \
	'EPERM|SIGSYS' "" -- int80-socket mux 40 1 0
row "socketcall(socket(AF_INET, MPTCP)) through int 0x80" 'EPERM|SIGSYS' \
	'EPERM|SIGSYS' "" -- int80-socket mux 2 1 262
row "i386 socket(AF_VSOCK)" 'EPERM|SIGSYS' 'EPERM|SIGSYS' "" \
	-- int80-socket direct 40 1 0
row "x32 unshare(CLONE_NEWUSER)" 'EPERM|SIGSYS' 'EPERM|SIGSYS' "" \
	-- x32 unshare

# -- a host process --
row "prlimit a host process's RLIMIT_NOFILE to 1" 'ESRCH|EPERM' \
	'ESRCH|EPERM' "" -- prlimit @V
row "renice a host process" 'ESRCH|EPERM|EACCES' 'ESRCH|EPERM|EACCES' "" \
	-- renice @V
row "pin a host process to one CPU" 'ESRCH|EPERM' 'ESRCH|EPERM' "" \
	-- affinity @V
row "SCHED_IDLE for a host process" 'ESRCH|EPERM' 'ESRCH|EPERM' "" \
	-- sched @V
row "idle I/O priority for a host process" 'ESRCH|EPERM' 'ESRCH|EPERM' "" \
	-- ioprio @V
row "pidfd_send_signal to a host process" 'pidfd_open:ESRCH|send:EPERM' \
	'pidfd_open:ESRCH|send:EPERM' "" -- pidfd @V
row "pidfd_getfd from a host process" 'pidfd_open:ESRCH|getfd:EPERM' \
	'pidfd_open:ESRCH|getfd:EPERM' "" -- pidfd_getfd @V 0
row "SIGTERM to a host process group" 'ESRCH|EPERM' 'ESRCH|EPERM' "" \
	-- killpg @V
# SIGIO through F_SETOWN: "ok" only says it was queued; the victim's
# death is what proves it on the host, and its life inside
ctl sigio @V
if [[ $ctl_got == "ok "* ]] && [ "$ctl_victim_alive" = 0 ]; then
	for backend in $backends; do
		sbx -- sigio @V
		sleep 0.1
		why=""
		[[ $got =~ ^(setown:)?(ESRCH|EPERM)(\ |$) || $got == "ok "* ]] ||
			why="got '$got' (exit $rc)"
		intact || why="${why:+$why; }the host process was hit ($got)"
		result "$why" "$backend: SIGIO to a host process through F_SETOWN"
	done
else
	for backend in $backends; do
		skip "$backend: SIGIO through F_SETOWN" "on the host: $ctl_got"
	done
fi

# -- resources --
row "a thread bomb is stopped by --pids 32" 'EAGAIN|ENOMEM' 'EAGAIN|ENOMEM' \
	"" --pids 32 -- threadbomb 2000
row "200 MiB in memfds under --memory 64" 'ENOSPC|ENOMEM|EFBIG|EMFILE|SIGKILL' \
	'ENOSPC|ENOMEM|EFBIG|EMFILE|SIGKILL' 'memfd' --memory 64 -- memfdfill 200
row "200 MiB in detached SysV shm segments under --memory 64" \
	'ENOSPC|ENOMEM|EINVAL|SIGKILL' 'ENOSPC|ENOMEM|EINVAL|SIGKILL' \
	'SysV' --memory 64 -- shmfill 200
# empty files: the host's control on a tmpfs with size=64m
tmpfs_row() {
	local title=$1 dir=$2
	ctl_fixtures
	mkdir -p "$C/t"
	if mount -t tmpfs -o size=64m rt3t "$C/t"; then
		ctl_got=$("$R" inodes "$C/t" 100000 | head -n 1)
		umount "$C/t"
	else
		ctl_got="cannot mount a tmpfs"
	fi
	if [[ $ctl_got != "ok "* ]]; then
		for backend in $backends; do skip "$backend: $title" "$ctl_got"; done
		return
	fi
	for backend in $backends; do
		why=""
		name="$backend: $title"
		# landlock: the host's own /tmp; a few files get the report
		if [ "$backend" = landlock ]; then
			sbx --memory 64 -- inodes "$dir" 10
		else
			sbx --memory 64 -- inodes "$dir" 100000
		fi
		if [[ $got =~ ^(ENOSPC|ENOMEM)\  ]]; then
			:
		elif [ "$backend" = landlock ] &&
			lost 'private /tmp|/dev/shm'; then
			name="$name (not held; reported)"
		else
			why="not refused: got '$got' (exit $rc)"
		fi
		intact || why="${why:+$why; }something outside changed"
		result "$why" "$name"
	done
}
tmpfs_row "100000 empty files in /tmp under --memory 64" /tmp
tmpfs_row "100000 empty files in /dev/shm under --memory 64" /dev/shm
# inotify instances are counted per user across namespaces: while the
# command holds what it can, the host's user must still get one
inotify_row() {
	local title="holding every inotify instance of the user" held host
	rm -f "$T/ino.ready" "$T/ino.go"
	"$R" inotify 100000 "$T/ino.ready" "$T/ino.go" >/dev/null &
	for ((i = 0; i < 200; i++)); do [ -s "$T/ino.ready" ] && break; sleep 0.02; done
	host=$("$R" inotify1 | head -n 1)
	touch "$T/ino.go"
	wait "$!" 2>/dev/null
	if [[ $host == "ok "* ]]; then
		for backend in $backends; do
			skip "$backend: $title" "the host holder left some: $host"
		done
		return
	fi
	for backend in $backends; do
		rm -f "$W/ino.ready" "$W/ino.go" "$T/report.json"
		(
			cd "$W" && exec timeout -s KILL 60 env HOME="$H" "$bin" run \
				--backend "$backend" --workspace "$W" \
				--report "$T/report.json" -- \
				"$R" inotify 100000 "$W/ino.ready" "$W/ino.go"
		) >"$T/stdout" 2>"$T/err" </dev/null &
		for ((i = 0; i < 500; i++)); do [ -s "$W/ino.ready" ] && break; sleep 0.02; done
		held=$(cat "$W/ino.ready" 2>/dev/null)
		host=$("$R" inotify1 | head -n 1)
		touch "$W/ino.go"
		wait "$!" 2>/dev/null
		got="held ${held:-?}, then the host: $host"
		if [[ $host == "ok "* ]]; then
			result "" "$backend: $title"
		elif [ "$backend" = landlock ] &&
			lost 'inotify: .*all of the user'; then
			result "" "$backend: $title (not held; reported)"
		else
			result "got through: $got" "$backend: $title"
		fi
	done
	ws_fixtures
}
inotify_row

# -- network --
row "MPTCP connect to a host listener (--network none)" \
	'socket:EPERM|connect:(ECONNREFUSED|ENETUNREACH)' 'socket:EPERM|connect:EACCES' \
	"" -- tcpish mptcp 127.0.0.1 @P
row "MPTCP to ::ffff:127.0.0.1 (--network none)" \
	'socket:EPERM|connect:(ECONNREFUSED|ENETUNREACH)' 'socket:EPERM|connect:EACCES' \
	"" -- tcpish mptcp ::ffff:127.0.0.1 @P
row "TCP Fast Open sendto to a host listener (--network none)" \
	'sendto:(EPERM|ECONNREFUSED)' 'sendto:(EPERM|EACCES)' \
	"" -- tcpish fastopen 127.0.0.1 @P
row "TCP_FASTOPEN_CONNECT to a host listener (--network none)" \
	'connect:(EACCES|ECONNREFUSED)' 'connect:EACCES' \
	"" -- tcpish connectx 127.0.0.1 @P
row "MPTCP to a host listener past the proxy (--network proxy)" \
	'socket:EPERM|connect:(ECONNREFUSED|ENETUNREACH)' 'socket:EPERM|connect:EACCES' \
	"" --allow-host example.test -- tcpish mptcp 127.0.0.1 @P
row "TCP Fast Open past the proxy (--network proxy)" \
	'sendto:(EPERM|ECONNREFUSED)' 'sendto:(EPERM|EACCES)' \
	"" --allow-host example.test -- tcpish fastopen 127.0.0.1 @P
row "socket(AF_INET, SOCK_PACKET) (the kernel's alias of AF_PACKET)" \
	'EPERM' 'EPERM' "" -- sock 2 10 768
row "socket(AF_XDP)" EPERM EPERM "" -- sock 44 3 0
row "socket(NETLINK_SOCK_DIAG) (lists the host's sockets)" EPERM EPERM "" \
	-- sock 16 3 4
row "socket(NETLINK_NETFILTER)" EPERM EPERM "" -- sock 16 3 12
row "socket(NETLINK_GENERIC)" EPERM EPERM "" -- sock 16 3 16
row "socket(NETLINK_XFRM)" EPERM EPERM "" -- sock 16 3 6
row "socket(AF_INET6, SOCK_SEQPACKET, SCTP)" EPERM EPERM "" -- sock 10 5 132
row "socket(AF_BLUETOOTH)" EPERM EPERM "" -- sock 31 1 0
row "socket(AF_ALG)" EPERM EPERM "" -- sock 38 5 0

# -- the embedded proxy, from inside (--network proxy, example.test
# allowed): host services on every spelling of this host, through
# CONNECT, an absolute-form GET and SOCKS5. A listener on 0.0.0.0 answers
# on each of them without the proxy (the control).
"$R" listen 0.0.0.0 "$T/any.port" "$T/tcp.log" &
bg+=("$!")
disown "$!"
for ((i = 0; i < 100; i++)); do [ -s "$T/any.port" ] && break; sleep 0.02; done
AP=$(cat "$T/any.port")
host_ip=$(ip -4 -o addr show scope global 2>/dev/null |
	awk '{ sub("/.*", "", $4); print $4; exit }')
# px_probe KIND TARGET: inside, one request to the proxy named by
# $HTTP_PROXY; prints its answer's first line (SOCKS: the reply code).
cat >"$T/px.sh" <<'SH'
hp=${HTTP_PROXY#http://}; hp=${hp%/}
exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}" || exit 1
case $1 in
connect) printf 'CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' "$2" "$2" >&3 ;;
get) printf 'GET http://%s/evil HTTP/1.1\r\nHost: %s\r\n\r\n' "$2" "$2" >&3 ;;
socks)
	h=${2%:*} p=${2##*:}
	printf '\x05\x01\x00\x05\x01\x00\x03'"$(printf '\\x%02x' ${#h})$h$(printf '\\x%02x\\x%02x' $((p >> 8)) $((p & 255)))" >&3
	head -c 4 <&3 | od -An -tx1 | tr -d ' \n' | cut -c5-8 | sed 's/^/socks:/'
	echo
	exit 0 ;;
esac
timeout 5 head -n 1 <&3 | tr -d '\r'
SH
chmod 755 "$T/px.sh"
px_row() {
	local kind=$1 target=$2 title name why live
	title="embedded proxy: $kind $target (a host service)"
	live=$(timeout 3 bash -c "exec 3<>/dev/tcp/${target%:*}/${target##*:}" \
		2>&1 && echo live)
	: >"$T/tcp.log"
	baseline=$(snap)
	if [ "$live" != live ] && [[ $target != *'['* ]] && [ "${target%:*}" != localhost ]; then
		for backend in $backends; do
			skip "$backend: $title" "on the host: not reachable ($live)"
		done
		return
	fi
	for backend in $backends; do
		why=""
		rm -f "$T/report.json"
		(
			cd "$W" && exec timeout -s KILL 60 env HOME="$H" "$bin" run \
				--backend "$backend" --workspace "$W" \
				--report "$T/report.json" --allow-host example.test -- \
				/bin/bash "$T/px.sh" "$kind" "$target"
		) >"$T/stdout" 2>"$T/err" </dev/null
		rc=$?
		got=$(head -n 1 "$T/stdout")
		case $got in
		"HTTP/1.1 403"* | "HTTP/1.1 400"* | "HTTP/1.1 405"* | socks:050[1-8]) ;;
		*) why="not refused: got '$got' (exit $rc)" ;;
		esac
		intact || why="${why:+$why; }something outside changed"
		result "$why" "$backend: $title"
	done
}
for t in "127.0.0.1:$AP" "localhost:$AP" "0.0.0.0:$AP" "127.1:$AP" \
	"[::ffff:127.0.0.1]:$AP" "[::]:$AP" ${host_ip:+"$host_ip:$AP"}; do
	px_row connect "$t"
done
px_row get "0.0.0.0:$AP"
px_row get "localhost:$AP"
px_row socks "0.0.0.0:$AP"
px_row socks "localhost:$AP"

echo "1..$n"
