# lib_net.sh — servers on loopback and `cordon proxy` for the network
# scripts; source it after lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/lib_net.sh"
#   need python3 curl
#   serve hport python3 "$tmp/server.py" || skip_all "the server did not start"
#   start_proxy --allow-host "127.0.0.1:$hport"
#   curl -sS -x "http://$px" "http://127.0.0.1:$hport/" >"$tmp/out"
#
# It unsets the proxy variables of the environment (curl and python would
# use them), so that a request goes where the script sends it.

unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy \
	NO_PROXY no_proxy

# serve VAR CMD...: runs CMD in the background (killed on exit), its
# stdout in $tmp/VAR.port and stderr in $tmp/VAR.log; waits up to 5 s for
# CMD's first line (a server prints its port, flushed, once it listens)
# and stores it in VAR. Returns 1 when no line came.
serve() {
	local var=$1 line=
	shift
	"$@" >"$tmp/$var.port" 2>"$tmp/$var.log" &
	pids+=($!)
	for _ in $(seq 50); do
		if [ "$(wc -l <"$tmp/$var.port")" -ge 1 ]; then
			line=$(head -n 1 "$tmp/$var.port")
			break
		fi
		sleep 0.1
	done
	printf -v "$var" '%s' "$line"
	[ -n "$line" ]
}

# wait_line VAR FILE PREFIX: waits up to 5 s for a line of FILE that
# starts with PREFIX and stores the rest of it in VAR (empty when none
# came).
wait_line() {
	local var=$1 file=$2 prefix=$3 got=
	for _ in $(seq 50); do
		got=$(sed -n "s|^$prefix||p" "$file" 2>/dev/null | head -n 1)
		[ -n "$got" ] && break
		sleep 0.1
	done
	printf -v "$var" '%s' "$got"
}

# start_proxy ARGS...: starts `cordon proxy --listen 127.0.0.1:0 -v ARGS`
# with its log in $tmp/px.log (shown by diag); its address in px (empty
# when it did not start), its pid in pxpid.
start_proxy() {
	: >"$tmp/px.log"
	"$bin" proxy --listen 127.0.0.1:0 -v "$@" 2>"$tmp/px.log" &
	pxpid=$!
	pids+=($!)
	wait_line px "$tmp/px.log" 'cordon proxy: listening on '
}

# stop_proxy: stops the proxy start_proxy started last.
stop_proxy() {
	kill "$pxpid" 2>/dev/null
	wait "$pxpid" 2>/dev/null
}

# make_certs CN SAN: in $tmp, a test CA (ca.key, ca.pem, "cordon test CA")
# and a server certificate for CN signed by it (leaf.key, leaf.pem) with
# subjectAltName SAN ("DNS:a,DNS:b"); skips the whole script when openssl
# cannot make them (its output in $tmp/openssl.log).
make_certs() {
	need openssl
	(
		cd "$tmp" || exit 1
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
			-subj '/CN=cordon test CA' -keyout ca.key -out ca.pem \
			-addext basicConstraints=critical,CA:TRUE \
			-addext keyUsage=critical,keyCertSign,cRLSign &&
			openssl req -newkey rsa:2048 -nodes -subj "/CN=$1" \
				-keyout leaf.key -out leaf.csr &&
			printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' \
				"$2" >leaf.ext &&
			openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key \
				-CAcreateserial -days 2 -extfile leaf.ext \
				-out leaf.pem
	) >>"$tmp/openssl.log" 2>&1 ||
		skip_all "openssl cannot make the test certificates"
}

diag_logs+=("$tmp/px.log")

# private_net [ROUTES...]: runs this whole script again in user, mount and
# network namespaces of its own (skips when they cannot be made) and exits
# with its status. Inside, only lo exists (up) and there is no route off
# it, so a request that would leave the machine fails (ENETUNREACH); each
# ROUTE is more `ip route add` arguments ("unreachable 93.184.215.0/24":
# a connect there fails with EHOSTUNREACH instead). The mount
# namespace lets a script bind its own /etc/resolv.conf and /etc/hosts
# (bind_etc). Call it right after sourcing this file.
private_net() {
	local r
	if [ "${CORDON_PRIVATE_NET:-}" != 1 ]; then
		command -v unshare >/dev/null && command -v ip >/dev/null ||
			skip_all "needs unshare and ip"
		unshare -Urmn true 2>/dev/null ||
			skip_all "cannot make user, mount and network namespaces"
		CORDON_PRIVATE_NET=1 unshare -Urmn bash "$0"
		exit $?
	fi
	ip link set lo up || {
		echo "Bail out! cannot set up the private network"
		exit 1
	}
	for r in "$@"; do
		# shellcheck disable=SC2086
		ip route add $r || {
			echo "Bail out! ip route add $r"
			exit 1
		}
	done
}

# bind_etc NAME FILE: inside private_net, FILE is seen as /etc/NAME.
bind_etc() {
	mount --bind "$2" "/etc/$1" || {
		echo "Bail out! cannot bind $2 over /etc/$1"
		exit 1
	}
}
