#!/usr/bin/env bash
# `cordon run --network proxy` against the built binary ($CORDON_BIN): a
# command in the sandbox reaches a server this script starts on the host's
# loopback only through the proxy cordon serves from outside; a denied host
# gets 403; unsetting the proxy variables reaches nothing, and neither does
# UDP; the report says full (namespaces) or partial naming UDP (landlock).
# Needs python3 and curl; the namespaces part needs user namespaces.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
# The control test grants a public address (a granted loopback literal is
# refused by the address guard): the script runs in network namespaces of
# its own, where 93.184.215.31 is one of this namespace's addresses.
private_net
need python3 curl
export XDG_CACHE_HOME=$tmp/cache
mkdir -p "$tmp/ws" "$tmp/cache"
cd "$tmp/ws" || exit 1
# An HTTP server and a UDP listener on the host's loopback; it prints
# both ports on one line and the UDP one logs what it receives.
cat >"$tmp/srv.py" <<'EOF'
import socket, sys, threading, http.server, socketserver

class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        b = ("hello path=%s\n" % self.path).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def log_message(self, *a):
        pass

class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

d = sys.argv[1]
srv = S(("127.0.0.1", 0), H)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind(("127.0.0.1", 0))
# The same server on 93.184.215.31, bound before the address exists
# (IP_FREEBIND): it is added only after a proxy has read its own.
class F(S):
    def server_bind(self):
        self.socket.setsockopt(socket.SOL_IP, 15, 1)
        S.server_bind(self)
pub = F(("93.184.215.31", 0), H)
threading.Thread(target=pub.serve_forever, daemon=True).start()
print(srv.server_address[1], u.getsockname()[1], pub.server_address[1],
      flush=True)

def udp():
    while True:
        data, _ = u.recvfrom(65536)
        with open(d + "/udp.log", "ab") as f:
            f.write(data + b"\n")

threading.Thread(target=udp, daemon=True).start()
srv.serve_forever()
EOF
serve ports python3 "$tmp/srv.py" "$tmp" ||
	skip_all "the loopback servers did not start"
read -r port uport pport <<<"$ports"
pub=93.184.215.31:$pport
url=http://127.0.0.1:$port

# run_backend BACKEND ARGS... -- CMD: cordon run, output in $tmp/out, $tmp/err,
# the report in $tmp/rep.json.
run_backend() {
	local backend=$1
	shift
	"$bin" run --backend "$backend" --report "$tmp/rep.json" "$@" \
		>"$tmp/out" 2>"$tmp/err"
}

# The tests for one backend.
suite() {
	local b=$1 st

	run_backend "$b" --network proxy --allow-host "127.0.0.1:$port" -- \
		curl -sS -m 10 "$url/through"
	st=$?
	grep -qx "hello path=/through" "$tmp/out"
	ok $((st + $?)) "$b: allowed host reached through the proxy"

	run_backend "$b" --allow-host "127.0.0.1:$port" -- \
		sh -c 'env -u HTTP_PROXY -u http_proxy curl -sS -m 10 "$1"' \
		sh "$url/socks"
	st=$?
	grep -qx "hello path=/socks" "$tmp/out"
	ok $((st + $?)) "$b: --allow-host implies the proxy; SOCKS5 works"

	run_backend "$b" --network proxy --allow-host "127.0.0.1:$port" -- \
		sh -c 'printf "%s %s %s %s\n" "$HTTP_PROXY" "$https_proxy" \
			"$ALL_PROXY" "${NO_PROXY-unset}"'
	lo='127\.0\.0\.1:[0-9]+'
	grep -Eqx "http://$lo http://$lo socks5h://$lo " "$tmp/out"
	ok $? "$b: proxy variables set, NO_PROXY empty"

	run_backend "$b" --network proxy --allow-host "127.0.0.1:$port" -- \
		curl -s -m 10 -o /dev/null -w '%{http_code}' \
		http://denied.example/
	[ "$(cat "$tmp/out")" = 403 ]
	ok $? "$b: a host not on the list gets 403"

	run_backend "$b" --network proxy --allow-host "127.0.0.1:$port" -- \
		curl -s -m 10 -D - -o /dev/null http://127.0.0.1:1/
	grep -qi '^X-Proxy-Error: ' "$tmp/out"
	ok $? "$b: another port of an allowed address is denied"

	run_backend "$b" --network proxy --allow-host "127.0.0.1:$port" -- \
		env -u HTTP_PROXY -u http_proxy -u ALL_PROXY -u all_proxy \
		curl -sS -m 10 --noproxy '*' "$url/direct"
	st=$?
	! grep -q hello "$tmp/out" && [ "$st" -ne 0 ]
	ok $? "$b: without the proxy variables nothing is reached (curl $st)"

	printf '{"network": {"allowedDomains": ["127.0.0.1:%s"]}}\n' \
		"$port" >"$tmp/cfg.json"
	run_backend "$b" --config "$tmp/cfg.json" --network proxy -- \
		curl -sS -m 10 "$url/config"
	grep -qx "hello path=/config" "$tmp/out"
	ok $? "$b: network.allowedDomains feeds the allow list"

	printf '{"network": {"allowedDomains": ["127.0.0.1:%s"],
		"deniedDomains": ["127.0.0.1"]}}\n' "$port" >"$tmp/cfg.json"
	run_backend "$b" --config "$tmp/cfg.json" --network proxy -- \
		curl -s -m 10 -o /dev/null -w '%{http_code}' "$url/denied"
	[ "$(cat "$tmp/out")" = 403 ]
	ok $? "$b: network.deniedDomains wins over the allow list"

	# deniedResolvedAddresses reaches the proxy's guard: a range that is
	# not one is refused before anything runs, naming it.
	printf '{"network": {"allowedDomains": ["127.0.0.1:%s"],
		"deniedResolvedAddresses": ["10.1.2.3/8"]}}\n' "$port" \
		>"$tmp/cfg.json"
	run_backend "$b" --config "$tmp/cfg.json" --network proxy -- \
		curl -s -m 10 "$url/ranges"
	st=$?
	[ "$st" = 125 ] && ! grep -q hello "$tmp/out" &&
		grep -q "10.1.2.3/8" "$tmp/err"
	ok $? "$b: network.deniedResolvedAddresses is handed to the proxy (bad range: 125)"
}

udp_cmd="import socket,sys
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)
try:
    s.sendto(b'escaped',('127.0.0.1',int(sys.argv[1])))
except OSError as e:
    print('send failed', e)"

# The control endpoint of --network proxy: outside the sandbox on the
# host's loopback, its token kept from the command. The environment
# filter is opened (restricted_env false) so that only the token's own
# scrubbing keeps CORDON_CTL out; CORDON_SEEN shows the filter is open.
export CORDON_CTL=ctl-token-0123456789abcdef CORDON_SEEN=yes
printf '{"safety": {"sandbox": {"local": {"restricted_env": false}}}}\n' \
	>"$tmp/open.json"
free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}
# wait_file F: up to 10 s for F to appear.
wait_file() {
	for _ in $(seq 100); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

control_suite() {
	local b=$1 cport st code1 code2
	cport=$(free_port)

	run_backend "$b" --config "$tmp/open.json" --network proxy \
		--control-port "$cport" --control-token-env CORDON_CTL -- \
		sh -c 'env | grep "^CORDON_"; tr "\0" "\n" </proc/self/environ |
			grep -c "^CORDON_CTL="'
	grep -qx CORDON_SEEN=yes "$tmp/out" && ! grep -q CORDON_CTL "$tmp/out" &&
		grep -qx 0 "$tmp/out" && ! grep -q "$CORDON_CTL" "$tmp/out"
	ok $? "$b: control: the token is absent from the command's environment and /proc/self/environ"

	run_backend "$b" --network proxy --control-port "$cport" \
		--control-token-env CORDON_CTL --allow-host "127.0.0.1:$cport" -- \
		sh -c 'curl -s -m 5 --noproxy "*" -o /dev/null -w "%{http_code}\n" \
			"http://127.0.0.1:$1/status"
			curl -s -m 5 -o /dev/null -w "%{http_code}\n" \
			"http://127.0.0.1:$1/status"' sh "$cport"
	[ "$(tr '\n' ' ' <"$tmp/out")" = "000 403 " ]
	ok $? "$b: control: the control port is unreachable from inside, directly or through the proxy"

	# The command asks, waits for the host side to act, asks again.
	rm -f r1 r2 g1 g2
	run_backend "$b" --network proxy --control-port "$cport" \
		--control-token-env CORDON_CTL --timeout 60 -- \
		sh -c 'curl -s -m 5 -o /dev/null -w "%{http_code}\n" "$1/a"
			touch r1; while [ ! -e g1 ]; do sleep 0.1; done
			curl -s -m 5 -o /dev/null -w "%{http_code}\n" "$1/b"
			touch r2; while [ ! -e g2 ]; do sleep 0.1; done
			curl -sS -m 5 "$1/after"' sh "http://$pub" &
	st=$!
	wait_file r1
	ip addr add 93.184.215.31/32 dev lo
	code1=$(curl -s -o /dev/null -w '%{http_code}' \
		--data-binary "$pub" "http://127.0.0.1:$cport/allow")
	code2=$(curl -s -o /dev/null -w '%{http_code}' \
		-H "Authorization: Bearer ${CORDON_CTL}x" \
		--data-binary "$pub" "http://127.0.0.1:$cport/allow")
	touch g1
	wait_file r2
	[ "$code1 $code2" = "401 401" ]
	ok $? "$b: control: missing and wrong token get 401 ($code1 $code2)"
	curl -s -o "$tmp/status.json" \
		-H "Authorization: Bearer $CORDON_CTL" \
		--data-binary "$pub" "http://127.0.0.1:$cport/allow"
	curl -s -o "$tmp/status.json" \
		-H "Authorization: Bearer $CORDON_CTL" \
		"http://127.0.0.1:$cport/status"
	touch g2
	wait "$st"
	[ "$(head -2 "$tmp/out" | tr '\n' ' ')" = "403 403 " ]
	ok $? "$b: control: the host stays denied until the right token adds it"
	grep -qx "hello path=/after" "$tmp/out"
	ok $? "$b: control: after POST /allow with the right token the command reaches it"
	python3 - "$tmp/status.json" "$pub" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j["allow"] == [sys.argv[2]] and j["session"] == [sys.argv[2]]
         and j["deny"] == [] else 1)
EOF
	ok $? "$b: control: GET /status lists the session's addition"
	ip addr del 93.184.215.31/32 dev lo
	rm -f r1 r2 g1 g2
}

unset CORDON_CTL_UNSET
run_backend namespaces --network proxy --control-port 1 \
	--control-token-env CORDON_CTL_UNSET -- true
[ $? -eq 125 ] && grep -q 'CORDON_CTL_UNSET is not set' "$tmp/err"
ok $? "control: an unset token variable refuses to start"

best=$("$bin" run --probe 2>/dev/null | sed -n 's/^best: //p')
echo "# best backend: ${best:-none}"
if [ "$best" = namespaces ]; then
	suite namespaces

	rm -f "$tmp/udp.log"
	run_backend namespaces --network proxy --allow-host "127.0.0.1:$port" -- \
		python3 -c "$udp_cmd" "$uport"
	sleep 0.3
	[ ! -s "$tmp/udp.log" ]
	ok $? "namespaces: UDP to the host's listener sends nothing"

	python3 -c "$udp_cmd" "$uport"
	for _ in $(seq 20); do
		[ -s "$tmp/udp.log" ] && break
		sleep 0.1
	done
	[ -s "$tmp/udp.log" ]
	ok $? "namespaces: the UDP listener does receive from the host"

	run_backend namespaces --network proxy --allow-host "127.0.0.1:$port" -- true
	python3 - "$tmp/rep.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r["backend"] == "namespaces" and r["enforcement"] == "full"
         and r["notEnforced"] == [] else 1)
EOF
	ok $? "namespaces: the report says full"
	control_suite namespaces
else
	for _ in $(seq 17); do
		skip "namespaces" "user namespaces do not work here"
	done
fi

# Landlock ABI < 4 has no TCP rules: the report says so, and the suite
# would only measure that.
ll=1
if [ -n "$best" ]; then
	run_backend landlock --network proxy --allow-host "127.0.0.1:$port" -- true
	ll=$?
	grep -q 'Landlock ABI < 4' "$tmp/rep.json" && ll=1
fi
if [ "$ll" -eq 0 ]; then
	suite landlock
	run_backend landlock --network proxy --allow-host "127.0.0.1:$port" -- true
	python3 - "$tmp/rep.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
ok = (r["backend"] == "landlock" and r["enforcement"] == "partial" and
      "network: UDP and other protocols not restricted (landlock only)"
      in r["notEnforced"])
sys.exit(0 if ok else 1)
EOF
	ok $? "landlock: partial, UDP named"
	control_suite landlock
else
	for _ in $(seq 15); do
		skip "landlock" "no landlock backend with ABI 4 here"
	done
fi
done_testing
