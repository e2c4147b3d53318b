#!/usr/bin/env bash
# `cordon proxy` against the built binary ($CORDON_BIN): CONNECT, plain
# HTTP and SOCKS5 to servers this script starts on loopback (python3), the
# allow and deny lists, the resolved-address guard (with --resolve
# overrides standing in for DNS), smuggling payloads, limits and
# time-outs. Needs python3 and curl; skips everything without them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
# The public addresses below (93.184.215.x) must never be reached: the
# script runs in a network namespace of its own, where that range is
# unreachable (a connect fails at once) and everything else is dropped.
private_net "unreachable 93.184.215.0/24"
need python3 curl

cat >"$tmp/h.py" <<'EOF'
import os, socket, sys, threading, time, http.server, socketserver

def serve_http():
    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            b = ("hello path=%s host=%s\n" % (self.path,
                 self.headers.get("Host"))).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(b)))
            self.end_headers()
            self.wfile.write(b)
        def do_POST(self):
            d = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            b = b"got " + d + b"\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(b)))
            self.end_headers()
            self.wfile.write(b)
        def log_message(self, *a):
            pass
    class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        request_queue_size = 512
    s = S((os.environ.get("BIND", "127.0.0.1"), 0), H)
    print(s.server_address[1], flush=True)
    s.serve_forever()

def serve_echo():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(1024)
    print(s.getsockname()[1], flush=True)
    def one(c):
        with c:
            while True:
                d = c.recv(65536)
                if not d:
                    return
                c.sendall(d)
    while True:
        c, _ = s.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()

def serve_flood():
    # Sends without end to whoever connects (a download nobody reads).
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1024)
    print(s.getsockname()[1], flush=True)
    def one(c):
        b = b"x" * 65536
        try:
            while True:
                c.sendall(b)
        except OSError:
            pass
    while True:
        c, _ = s.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()

def stall(hp, target, n, secs):
    # n tunnels whose client never reads past the 200.
    held = []
    for _ in range(n):
        c = socket.create_connection(addr(hp))
        c.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += c.recv(1)
        held.append(c)
    print("held", flush=True)
    time.sleep(secs)

def pipes(pid):
    # The sizes of the pipes process pid made (each once, not its two
    # ends; not its stdio, inherited; F_GETPIPE_SZ = 1032).
    import fcntl
    total = count = 0
    seen = set()
    for fd in os.listdir("/proc/%s/fd" % pid):
        path = "/proc/%s/fd/%s" % (pid, fd)
        try:
            link = os.readlink(path)
            if int(fd) < 3 or not link.startswith("pipe:") or link in seen:
                continue
            seen.add(link)
            f = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        total += fcntl.fcntl(f, 1032)
        count += 1
        os.close(f)
    print(total, count)

def addr(hp):
    h, p = hp.rsplit(":", 1)
    return (h, int(p))

def raw(hp, data):
    # Sends data, prints everything up to the close.
    c = socket.create_connection(addr(hp), timeout=10)
    c.sendall(data)
    out = b""
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            out += d
    except socket.timeout:
        out += b"\n<timeout>"
    sys.stdout.write(out.decode("latin-1"))

def tunnel(hp, target, payload):
    c = socket.create_connection(addr(hp), timeout=20)
    c.sendall(b"CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" %
              (target.encode(), target.encode()))
    head = b""
    while b"\r\n\r\n" not in head:
        d = c.recv(1)
        if not d:
            raise Exception("closed in head: %r" % head)
        head += d
    if not head.startswith(b"HTTP/1.1 200"):
        raise Exception("head %r" % head)
    c.sendall(payload)
    got = b""
    while len(got) < len(payload):
        d = c.recv(65536)
        if not d:
            break
        got += d
    c.close()
    return got == payload

def big(hp, target, mib):
    # Sends and reads back mib MiB at once: the bulk (spliced) path and
    # backpressure both ways.
    c = socket.create_connection(addr(hp), timeout=30)
    c.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += c.recv(1)
    data = os.urandom(1 << 20) * mib
    threading.Thread(target=c.sendall, args=(data,), daemon=True).start()
    got = bytearray()
    while len(got) < len(data):
        d = c.recv(1 << 20)
        if not d:
            break
        got += d
    print("echoed %d of %d bytes" % (len(got), len(data)))
    sys.exit(0 if bytes(got) == data else 1)

def many(hp, target, count):
    res = [False] * count
    def run(i):
        try:
            res[i] = tunnel(hp, target, (b"tunnel %d " % i) * 500)
        except Exception as e:
            sys.stderr.write("tunnel %d: %s\n" % (i, e))
    ts = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print("%d of %d tunnels echoed" % (sum(res), count))
    sys.exit(0 if all(res) else 1)

def slowloris(hp, target, timeout):
    s = socket.create_connection(addr(hp), timeout=timeout * 4)
    s.sendall(b"CONNECT " + target.encode())  # never finished
    t0 = time.monotonic()
    served = tunnel(hp, target, b"meanwhile")
    print("other client served: %s" % served)
    try:
        d = s.recv(100)
    except socket.timeout:
        print("slow client still open after %.1fs" % (time.monotonic() - t0))
        sys.exit(1)
    el = time.monotonic() - t0
    print("slow client closed after %.1fs (%r)" % (el, d))
    sys.exit(0 if served and d == b"" and el >= timeout * 0.7 else 1)

def idle(hp, target, secs):
    c = socket.create_connection(addr(hp), timeout=secs * 4)
    c.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += c.recv(1)
    t0 = time.monotonic()
    d = c.recv(100)
    el = time.monotonic() - t0
    print("idle tunnel closed after %.1fs (%r)" % (el, d))
    sys.exit(0 if d == b"" and el >= secs * 0.7 else 1)

def maxconns(hp, limit):
    held = [socket.create_connection(addr(hp)) for _ in range(limit)]
    time.sleep(0.3)
    raw(hp, b"")

cmd = sys.argv[1]
if cmd == "http":
    serve_http()
elif cmd == "echo":
    serve_echo()
elif cmd == "raw":
    raw(sys.argv[2], sys.argv[3].encode().decode("unicode_escape").encode("latin-1"))
elif cmd == "big":
    big(sys.argv[2], sys.argv[3], int(sys.argv[4]))
elif cmd == "many":
    many(sys.argv[2], sys.argv[3], int(sys.argv[4]))
elif cmd == "slowloris":
    slowloris(sys.argv[2], sys.argv[3], float(sys.argv[4]))
elif cmd == "idle":
    idle(sys.argv[2], sys.argv[3], float(sys.argv[4]))
elif cmd == "maxconns":
    maxconns(sys.argv[2], int(sys.argv[3]))
elif cmd == "flood":
    serve_flood()
elif cmd == "stall":
    stall(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
elif cmd == "pipes":
    pipes(sys.argv[2])
EOF

serve hport python3 "$tmp/h.py" http &&
	serve eport python3 "$tmp/h.py" echo ||
	skip_all "the loopback servers did not start"

"$bin" proxy --help >"$tmp/out" 2>&1
ok $(($? != 0)) "--help exits 0"
has "--allow-host"
ok $? "--help lists --allow-host"
"$bin" proxy --listen nowhere >"$tmp/out" 2>&1
ok $(($? != 2)) "a bad listen address is a usage error"
"$bin" proxy --listen 127.0.0.1:0 --allow-host 'exa mple.com' >"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'allow[0]'
ok $? "a bad allow entry is a usage error naming it"

start_proxy --allow-host "127.0.0.1:$hport" --allow-host "127.0.0.1:$eport" \
	--allow-host '*.example.com' --allow-host example.org \
	--deny-host bad.example.com --allow-host "loop.test:$hport" \
	--allow-host 127.0.0.1:1 --allow-host '[::1]:1' \
	--resolve "loop.test:127.0.0.1" \
	--allow-host "mapped.test:$hport" --resolve "mapped.test:::ffff:127.0.0.1" \
	--allow-host "nat64.test:$hport" --resolve "nat64.test:64:ff9b::7f00:1" \
	--allow-host "sixtofour.test:$hport" --resolve "sixtofour.test:2002:7f00:1::" \
	--allow-host "compat.test:$hport" --resolve "compat.test:::127.0.0.1" \
	--allow-host "meta.test:$hport" --resolve "meta.test:169.254.169.254" \
	--allow-host "priv.test:$hport" --resolve "priv.test:10.1.2.3" \
	--allow-host "twice.test:$hport" --resolve "twice.test:192.168.1.1" \
	--resolve "twice.test:127.0.0.1"
ok $([ -n "$px" ]; echo $?) "the proxy prints its address for port 0"

curl -sS -p -x "http://$px" "http://127.0.0.1:$hport/tunnel" >"$tmp/out" 2>&1
has "hello path=/tunnel"
ok $? "CONNECT to an allow-listed IP literal works"

python3 "$tmp/h.py" raw "$px" 'CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n' >"$tmp/out" 2>&1
has "502 Bad Gateway" && has "X-Proxy-Error: connect-failed"
ok $? "an allowed target that refuses the connection: 502"

python3 "$tmp/h.py" raw "$px" 'CONNECT [::1]:1 HTTP/1.1\r\n\r\n' >"$tmp/out" 2>&1
has "502 Bad Gateway: cannot connect to [::1]:1: " &&
	grep -qF 'allow connect [::1]:1 via ::1' "$tmp/px.log"
ok $? "a 502 for an IPv6 target writes it in brackets (and so does the log)"

curl -sS -x "http://$px" "http://127.0.0.1:$hport/plain?q=1" >"$tmp/out" 2>&1
has "hello path=/plain?q=1 host=127.0.0.1:$hport"
ok $? "plain HTTP is forwarded in origin-form with the target's Host"

curl -sS -x "http://$px" -d 'some body' "http://127.0.0.1:$hport/post" \
	>"$tmp/out" 2>&1
has "got some body"
ok $? "plain HTTP forwards a request body"

curl -sS -i -x "http://$px" "http://denied.test/" >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q '^HTTP/1.1 403 Forbidden: denied.test:80' &&
	has "X-Proxy-Error: blocked-by-allowlist" && has "no allow-list entry"
ok $? "plain HTTP to a host not allowed: 403 naming it"

curl -sS -i -p -x "http://$px" "http://denied.test:443/" >"$tmp/out" 2>&1
has "403 Forbidden: denied.test:443" && has "X-Proxy-Error: blocked-by-allowlist"
ok $? "CONNECT to a host not allowed: 403 naming it"

python3 "$tmp/h.py" raw "$px" 'CONNECT example.org:22 HTTP/1.1\r\nHost: example.org:22\r\n\r\n' >"$tmp/out" 2>&1
has "403 Forbidden: example.org:22" && has "port 22 not allowed"
ok $? "a bare host does not allow port 22"

python3 "$tmp/h.py" raw "$px" 'CONNECT bad.example.com:443 HTTP/1.1\r\n\r\n' >"$tmp/out" 2>&1
has "X-Proxy-Error: blocked-by-denylist" && has 'deny-list entry 0 "bad.example.com"'
ok $? "the deny-list wins over a matching allow-list entry"

python3 "$tmp/h.py" raw "$px" "CONNECT loop.test:$hport HTTP/1.1\r\n\r\n" >"$tmp/out" 2>&1
has "X-Proxy-Error: blocked-by-address-class" && has "loopback" &&
	has "loop.test:$hport"
ok $? "an allowed name resolving to 127.0.0.1 is refused (loopback)"

for t in mapped:embedded-ipv4:loopback nat64:embedded-ipv4:loopback \
	sixtofour:embedded-ipv4:loopback compat:embedded-ipv4:loopback \
	meta:cloud-metadata priv:private twice:private; do
	name=${t%%:*}
	cls=${t#*:}
	python3 "$tmp/h.py" raw "$px" "CONNECT $name.test:$hport HTTP/1.1\r\n\r\n" >"$tmp/out" 2>&1
	has "blocked-by-address-class" && has "$cls"
	ok $? "$name.test is refused: $cls"
done

curl -sS --socks5-hostname "$px" "http://127.0.0.1:$hport/socks" >"$tmp/out" 2>&1
has "hello path=/socks"
ok $? "SOCKS5 to an allowed target works"

curl -sS --socks5-hostname "$px" "http://denied.test/" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 97 ] && has "(2)"
ok $? "SOCKS5 to a denied host: reply 2 (not allowed by ruleset)"

curl -sS --socks5-hostname "$px" "http://loop.test:$hport/" >"$tmp/out" 2>&1
[ $? -eq 97 ] && grep -q "deny socks5 loop.test:$hport: address class loopback" "$tmp/px.log"
ok $? "SOCKS5 to a name resolving to loopback is refused"

sm_target="http://127.0.0.1:$hport/x"
for p in \
	"POST $sm_target HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n|CL+TE" \
	"POST $sm_target HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked,\r\n\r\n0\r\n\r\n|Transfer-Encoding: chunked," \
	"POST $sm_target HTTP/1.1\r\nHost: a\r\nContent-Length : 100\r\n\r\n|Content-Length : 100" \
	"POST $sm_target HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello|duplicate Content-Length"; do
	python3 "$tmp/h.py" raw "$px" "${p%|*}" >"$tmp/out" 2>&1
	head -1 "$tmp/out" | grep -q '^HTTP/1.1 400 Bad Request' && ! has "got "
	ok $? "smuggling payload refused with 400: ${p#*|}"
done

python3 "$tmp/h.py" raw "$px" "POST $sm_target HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q '^HTTP/1.1 501'
ok $? "a chunked plain-HTTP request body gets 501"

# A bare CR is refused at once, not after the time-out: the head has no LF
# at all, and the client waits less than the handshake time-out (10 s).
for p in 'GET http://127.0.0.1/ HTTP/1.1\rX' 'CONNECT 127.0.0.1:1\r HTTP/1.1' \
	'GET http://127.0.0.1/ HTTP/1.1\r\nX-A: 1\r2'; do
	python3 "$tmp/h.py" raw "$px" "$p" >"$tmp/out" 2>&1
	head -1 "$tmp/out" | grep -q '^HTTP/1.1 400 Bad Request: bare CR'
	ok $? "a bare CR gets 400 at once: $p"
done

python3 "$tmp/h.py" raw "$px" "GET $sm_target HTTP/1.1\r\nHost: a\r\nX-Big: $(head -c 17000 /dev/zero | tr '\0' a)\r\n\r\n" >"$tmp/out" 2>&1
head -1 "$tmp/out" | grep -q '^HTTP/1.1 431'
ok $? "a head over 16 KiB gets 431"

python3 "$tmp/h.py" big "$px" "127.0.0.1:$eport" 16 >"$tmp/out" 2>&1
ok $? "16 MiB echoed through one tunnel intact (bulk path, backpressure)"

python3 "$tmp/h.py" many "$px" "127.0.0.1:$eport" 200 >"$tmp/out" 2>&1
ok $? "200 concurrent tunnels all echo their data"
stop_proxy

start_proxy
python3 "$tmp/h.py" raw "$px" "CONNECT 127.0.0.1:$hport HTTP/1.1\r\n\r\n" >"$tmp/out" 2>&1
has "403 Forbidden" && has "no allow-list entry"
ok $? "an empty allow-list denies everything"
stop_proxy

# Tunnel pipes are sized to the traffic and bounded in total: 24 tunnels
# from an upstream that floods to a client that never reads hold at most
# --pipe-budget in pipes (they used to take 1 MiB each, whatever the
# budget), and bulk data still moves intact past the budget.
serve fport python3 "$tmp/h.py" flood || skip_all "the flood server did not start"
start_proxy --allow-host "127.0.0.1:$fport" --allow-host "127.0.0.1:$eport" \
	--pipe-budget 2
serve stalled python3 "$tmp/h.py" stall "$px" "127.0.0.1:$fport" 24 60
sleep 2
read -r ptotal pcount < <(python3 "$tmp/h.py" pipes "$pxpid")
[ "$pcount" -gt 0 ] && [ "$ptotal" -le $((2 << 20)) ]
ok $? "24 stalled tunnels hold $ptotal bytes in $pcount pipes (budget 2 MiB)"
python3 "$tmp/h.py" big "$px" "127.0.0.1:$eport" 16 >"$tmp/out" 2>&1
ok $? "16 MiB still echoed intact through a tunnel past the pipe budget"
stop_proxy

start_proxy --allow-host "127.0.0.1:$eport" --handshake-timeout 2
python3 "$tmp/h.py" slowloris "$px" "127.0.0.1:$eport" 2 >"$tmp/out" 2>&1
ok $? "a slowloris head is closed after the handshake time-out while another client is served"
stop_proxy

start_proxy --allow-host "127.0.0.1:$eport" --idle-timeout 1
python3 "$tmp/h.py" idle "$px" "127.0.0.1:$eport" 1 >"$tmp/out" 2>&1
ok $? "an idle tunnel is closed after the idle time-out"
stop_proxy

start_proxy --allow-host "127.0.0.1:$eport" --max-conns 2
python3 "$tmp/h.py" maxconns "$px" 2 >"$tmp/out" 2>&1
has "503 Service Unavailable"
ok $? "beyond --max-conns a client gets 503"
stop_proxy

# The control endpoint: POST /allow and GET /status on a second port.
export CORDON_CTL=ctl-token-0123456789abcdef
unset CORDON_CTL_UNSET
"$bin" proxy --listen 127.0.0.1:0 --control-port 0 \
	--control-token-env CORDON_CTL_UNSET >"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'CORDON_CTL_UNSET is not set'
ok $? "control: an unset token variable refuses to start"
CORDON_CTL_SHORT=0123456789abcde "$bin" proxy --listen 127.0.0.1:0 \
	--control-port 0 --control-token-env CORDON_CTL_SHORT >"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'shorter than 16 bytes'
ok $? "control: a token under 16 bytes refuses to start"
"$bin" proxy --listen 127.0.0.1:0 --control-port 0 >"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'go together'
ok $? "control: --control-port without --control-token-env is a usage error"

# start_control ARGS...: start_proxy with the control endpoint on a port
# of the kernel's choice, its address into ctl.
start_control() {
	start_proxy --control-port 0 --control-token-env CORDON_CTL "$@"
	wait_line ctl "$tmp/px.log" 'cordon proxy: control endpoint on '
}
# code ARGS...: curl, the status code in out, the body in body.
code() { curl -s -o "$tmp/body" -w '%{http_code}' "$@" >"$tmp/out" 2>&1; }
# tunnel: CONNECT to the HTTP server at $pub through the proxy: the
# CONNECT and the final status codes in out.
tunnel() {
	curl -s -p -x "http://$px" -o /dev/null \
		-w '%{http_connect} %{http_code}' \
		"http://$pub/ctl" >"$tmp/out" 2>&1
}
auth="Authorization: Bearer $CORDON_CTL"

# A granted entry passes the address guard, so the server it opens is on
# a public address: one of this namespace's own, added after the proxy
# read its own addresses (so the guard does not know it as the host's).
printf '// test list\ncom\nuk\nco.uk\n*.ck\n!www.ck\ngithub.io\n' >"$tmp/psl.dat"
start_control --deny-host bad.example.com --public-suffix-list "$tmp/psl.dat"
ip addr add 93.184.215.30/32 dev lo
BIND=93.184.215.30 serve pport python3 "$tmp/h.py" http ||
	skip_all "the server on 93.184.215.30 did not start"
pub=93.184.215.30:$pport
ok $([ -n "$ctl" ]; echo $?) "control: the endpoint prints its address for port 0"
tunnel
[ "$(cat "$tmp/out")" = "403 000" ]
ok $? "control: the host is denied before POST /allow"
code --data-binary "$pub" "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 401 ]
ok $? "control: POST /allow without a token: 401"
code -H "Authorization: Bearer ${CORDON_CTL}x" \
	--data-binary "$pub" "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 401 ]
ok $? "control: POST /allow with a wrong token: 401"
code -H "Authorization: Basic $CORDON_CTL" \
	--data-binary "$pub" "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 401 ]
ok $? "control: the token under another scheme: 401"
tunnel
[ "$(cat "$tmp/out")" = "403 000" ]
ok $? "control: the host stays denied after the refused requests"
code -H "$auth" "http://$ctl/status"
[ "$(cat "$tmp/out")" = 200 ] && grep -qF '"session":[]' "$tmp/body"
ok $? "control: the refused requests added nothing"
code "http://$ctl/status"
[ "$(cat "$tmp/out")" = 401 ]
ok $? "control: GET /status without a token: 401"

code -H "$auth" --data-binary "$pub" "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 200 ] &&
	grep -qF "\"added\":\"$pub\"" "$tmp/body"
ok $? "control: POST /allow with the right token: 200"
tunnel
[ "$(cat "$tmp/out")" = "200 200" ]
ok $? "control: the added host is then allowed"
code -H "$auth" "http://$ctl/status"
python3 - "$tmp/body" "$pub" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j["allow"] == [sys.argv[2]] and j["session"] == [sys.argv[2]]
         and j["deny"] == ["bad.example.com"] else 1)
EOF
ok $? "control: GET /status lists allow, deny and the session's additions"

code -H "$auth" --data-binary 'exa mple.com' "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 400 ] && grep -q 'exa mple.com.*invalid' "$tmp/body"
ok $? "control: a bad entry: 400 naming why"
code -H "$auth" --data-binary '' "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 400 ]
ok $? "control: an empty body: 400"
head -c 5000 /dev/zero | tr '\0' a >"$tmp/big"
code -H "$auth" -H 'Expect:' --data-binary @"$tmp/big" "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 413 ]
ok $? "control: a body over 4 KiB: 413"
code -H "$auth" "http://$ctl/other"
[ "$(cat "$tmp/out")" = 404 ]
ok $? "control: another path: 404"
code -H "$auth" -X DELETE "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 405 ]
ok $? "control: another method: 405"

cport=${ctl##*:}
code -H "$auth" --data-binary "127.0.0.1:$cport" "http://$ctl/allow"
[ "$(cat "$tmp/out")" = 403 ] && grep -q 'loopback' "$tmp/body"
ok $? "control: the proxy's own control endpoint cannot be granted"

# Granted entries pass the address guard as names do (red team: metadata
# and private literals went straight through POST /allow).
for e in 169.254.169.254 '169.254.169.254:80' '[fd00:ec2::254]' \
	'[fd00:ec2::254]:80' 10.1.2.3:8080 192.168.0.1 172.16.0.1 \
	"127.0.0.1:$hport" '[::1]:443' '[::ffff:169.254.169.254]' \
	'[::ffff:a01:203]' 100.100.100.200 '[64:ff9b::a9fe:a9fe]' 0.0.0.0 \
	'[fe80::1]' 0x7f.1 '2130706433'; do
	code -H "$auth" --data-binary "$e" "http://$ctl/allow"
	[ "$(cat "$tmp/out")" = 403 ] && grep -q 'address class' "$tmp/body"
	ok $? "control: POST /allow $e is refused by the address guard"
done
code -H "$auth" "http://$ctl/status"
python3 - "$tmp/body" "$pub" <<'EOF'
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["session"] == [sys.argv[2]] else 1)
EOF
ok $? "control: none of them was added"

# Wildcards over a public suffix, by the list given (the system's by
# default); look-alikes below a suffix stay grantable.
for e in '*.com' '*.COM.' '*.uk:8443' '*.co.uk' '*.github.io' '*.foo.ck' \
	'*.xn--p1ai'; do
	code -H "$auth" --data-binary "$e" "http://$ctl/allow"
	[ "$(cat "$tmp/out")" = 403 ] && grep -q 'public suffix' "$tmp/body"
	ok $? "control: POST /allow $e is refused (a public suffix)"
done
for e in '*.example.co.uk' '*.www.ck' '*.me.github.io' '*.example.com'; do
	code -H "$auth" --data-binary "$e" "http://$ctl/allow"
	[ "$(cat "$tmp/out")" = 200 ]
	ok $? "control: POST /allow $e is granted (below a public suffix)"
done
stop_proxy

# The control port has its own connection budget: idle data clients at
# --max-conns do not lock the operator out.
start_control --max-conns 4
cat >"$tmp/hold.py" <<'EOF'
import socket, sys, time
h, p = sys.argv[1].rsplit(":", 1)
held = [socket.create_connection((h, int(p))) for _ in range(int(sys.argv[2]))]
print("held", flush=True)
time.sleep(float(sys.argv[3]))
EOF
serve held python3 "$tmp/hold.py" "$px" 4 30
code -H "$auth" "http://$ctl/status"
[ "$(cat "$tmp/out")" = 200 ]
ok $? "control: answers while the data port is full"
python3 "$tmp/h.py" raw "$px" '' >"$tmp/out" 2>&1
has "503 Service Unavailable"
ok $? "control: the data port itself is full (503)"
serve cheld python3 "$tmp/hold.py" "$ctl" 16 30
code -H "$auth" "http://$ctl/status"
[ "$(cat "$tmp/out")" = 503 ] || [ "$(cat "$tmp/out")" = 000 ]
ok $? "control: beyond its own 16 connections it refuses too"
stop_proxy

start_control
code -H "$auth" "http://$ctl/status"
grep -qF '"allow":[],"deny":[],"session":[]' "$tmp/body"
ok $? "control: session additions are gone with the proxy"
stop_proxy

# An IP literal on the deny-list wins also when a permitted name resolves
# to it, plainly or in an IPv6 form that embeds it (red-team finding).
start_proxy --allow-host '*.ex.test' --deny-host 93.184.215.14 \
	--resolve d.ex.test:93.184.215.14 \
	--resolve e.ex.test:::ffff:93.184.215.14 \
	--resolve f.ex.test:64:ff9b::5db8:d70e \
	--resolve g.ex.test:93.184.215.15
for h in d e f; do
	python3 "$tmp/h.py" raw "$px" "CONNECT $h.ex.test:443 HTTP/1.1\r\n\r\n" \
		>"$tmp/out" 2>&1
	has "403 Forbidden"
	ok $? "a name resolving to a denied IP literal ($h.ex.test) gets 403"
done
python3 "$tmp/h.py" raw "$px" "CONNECT g.ex.test:443 HTTP/1.1\r\n\r\n" \
	>"$tmp/out" 2>&1
! has "403 Forbidden" && has "X-Proxy-Error: connect-failed" &&
	grep -q 'allow connect g.ex.test:443 via 93.184.215.15' "$tmp/px.log"
ok $? "a neighbouring address is not caught by it (dialled, in this namespace only)"
stop_proxy

done_testing
