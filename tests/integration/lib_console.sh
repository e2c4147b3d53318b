# lib_console.sh — `cordon console` for the console scripts; source it
# after lib.sh (and lib_net.sh):
#
#   start_console            # approvals.broker on, timeout_s $console_timeout
#   api GET /api/status      # curl with the token; body in $tmp/out,
#                            # status in $code
#
# XDG_RUNTIME_DIR points into $tmp, so the socket and the token of a test
# console never meet the user's. A script that runs doors inside `cordon
# run` calls sandbox_dirs first.

export XDG_RUNTIME_DIR=$tmp/run
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
console_timeout=${console_timeout:-30}
cdir=$XDG_RUNTIME_DIR/cordon

# write_config: the user layer with the broker on.
write_config() {
	printf '{"approvals": {"broker": true, "timeout_s": %s}}\n' \
		"$console_timeout" >"$XDG_CONFIG_HOME/cordon/config.json"
}

# start_console ARGS...: starts it (log in $tmp/console.out and .err),
# waits for its lines; sets url (http://127.0.0.1:PORT), login (the
# one-time URL), token, cpid. Returns 1 when it did not start.
start_console() {
	write_config
	: >"$tmp/console.out"
	"$bin" console "$@" >"$tmp/console.out" 2>"$tmp/console.err" &
	cpid=$!
	pids+=($!)
	diag_logs+=("$tmp/console.err")
	wait_line url "$tmp/console.out" 'cordon console: listening on '
	wait_line login "$tmp/console.out" 'cordon console: open '
	wait_line _sock "$tmp/console.out" 'cordon console: token in '
	url=${url%/}
	token=$(cat "$cdir/console.token" 2>/dev/null)
	[ -n "$url" ] && [ -n "$token" ]
}

# stop_console: SIGTERM, and wait for it.
stop_console() {
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
}

# api METHOD PATH [BODY] [CURL ARGS...]: with the token.
api() {
	local m=$1 p=$2 body=${3-}
	shift 2
	[ $# -gt 0 ] && shift
	if [ "$m" = POST ]; then
		code=$(curl -sS -o "$tmp/out" -w '%{http_code}' \
			-H "Authorization: Bearer $token" \
			-H 'Content-Type: application/json' \
			--data-binary "$body" "$@" "$url$p")
	else
		code=$(curl -sS -o "$tmp/out" -w '%{http_code}' \
			-H "Authorization: Bearer $token" "$@" "$url$p")
	fi
}

# pending_count: how many items /api/approvals/pending lists.
pending_count() {
	curl -sS -H "Authorization: Bearer $token" \
		"$url/api/approvals/pending" |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["pending"]))'
}

# wait_pending N: waits up to 10 s for N pending items.
wait_pending() {
	for _ in $(seq 100); do
		[ "$(pending_count 2>/dev/null)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# first_pending FIELD: a field of the first pending item.
first_pending() {
	curl -sS -H "Authorization: Bearer $token" \
		"$url/api/approvals/pending" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"][0][sys.argv[1]])' "$1"
}

# sandbox_dirs: HOME, the XDG directories and the console's in a fresh
# $var under /var/tmp (the sandbox replaces /tmp), removed on exit; skips
# the script unless the namespaces backend works.
sandbox_dirs() {
	var=$(mktemp -d /var/tmp/cordon-console.XXXXXX)
	trap 'cleanup; rm -rf "$var"' EXIT
	export HOME=$var/home XDG_STATE_HOME=$var/state XDG_CONFIG_HOME=$var/xdg
	export XDG_RUNTIME_DIR=$var/run
	mkdir -p "$HOME" "$XDG_STATE_HOME" "$XDG_CONFIG_HOME/cordon"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	cdir=$XDG_RUNTIME_DIR/cordon
	run run --probe
	grep -q 'namespaces: works' "$tmp/out" "$tmp/err" ||
		skip_all "the namespaces backend does not work here"
}
