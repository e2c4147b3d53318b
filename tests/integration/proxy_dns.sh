#!/usr/bin/env bash
# Name lookups of `cordon proxy` and `cordon fetch` against a resolver this
# script controls: tests/net/dns.py on 127.0.0.1:53 of a network namespace
# of its own (lib_net.sh private_net), named by a bound /etc/resolv.conf,
# with /etc/hosts bound too. Names: hang.test never answers, slow.test
# answers NXDOMAIN after 3 s, good.test is in the hosts file and resolves to
# 93.184.215.20, a public address that is unreachable here (a connect fails
# at once: the proxy answers 502, which shows the lookup was done).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
private_net "unreachable 93.184.215.0/24"
need python3

printf 'nameserver 127.0.0.1\noptions timeout:30 attempts:1\n' \
	>"$tmp/resolv.conf"
printf '127.0.0.1 localhost\n93.184.215.20 good.test\n' >"$tmp/hosts"
bind_etc resolv.conf "$tmp/resolv.conf"
bind_etc hosts "$tmp/hosts"
serve dport python3 "$src/tests/net/dns.py" --hang hang.test \
	--slow slow.test:3 || skip_all "the DNS server did not start"
diag_logs+=("$tmp/dport.log")

# c.py: raw clients. "leave PX SRC N REQ": N connections from SRC send REQ
# and close; "ask PX SRC REQ [HOLD]": one request, prints the answer's
# first line, then (HOLD) keeps the connection HOLD seconds before closing.
cat >"$tmp/c.py" <<'EOF'
import socket, sys, time

def conn(px, src):
    h, p = px.rsplit(":", 1)
    s = socket.socket()
    s.bind((src, 0))
    s.connect((h, int(p)))
    return s

cmd, px, src = sys.argv[1:4]
if cmd == "leave":
    n, req = int(sys.argv[4]), sys.argv[5].encode().decode("unicode_escape")
    socks = [conn(px, src) for _ in range(n)]
    for s in socks:
        s.sendall(req.encode())
    time.sleep(0.5)
    for s in socks:
        s.close()
else:
    req = sys.argv[4].encode().decode("unicode_escape")
    hold = float(sys.argv[5]) if len(sys.argv) > 5 else 0
    s = conn(px, src)
    s.settimeout(30)
    s.sendall(req.encode())
    data = b""
    while b"\r\n" not in data:
        b = s.recv(4096)
        if not b:
            break
        data += b
    print(data.split(b"\r\n")[0].decode("latin-1"))
    time.sleep(hold)
    s.close()
EOF
ask() { python3 "$tmp/c.py" ask "$px" "$@" >"$tmp/out" 2>&1; }
alive() { kill -0 "$pxpid" 2>/dev/null && ! grep -q AddressSanitizer "$tmp/px.log"; }

# A lookup that ends after the 504 for its time-out: the proxy used to free
# the lookup and later write into it when the connection closed (ASan: heap
# use after free; glibc without tcache: a crash).
start_proxy --allow-host 'slow.test' --allow-host 'good.test' \
	--handshake-timeout 2
ask 127.0.0.1 'CONNECT slow.test:443 HTTP/1.1\r\n\r\n' 2.5
grep -q '^HTTP/1.1 504' "$tmp/out"
ok $? "a lookup not done in time: 504"
ask 127.0.0.1 'CONNECT good.test:443 HTTP/1.1\r\n\r\n'
alive && grep -q '^HTTP/1.1 502' "$tmp/out"
ok $? "its lookup ending after the answer leaves the proxy whole (no use after free)"
stop_proxy

# Slow lookups must not starve the proxy.
start_proxy --allow-host '*.test' --allow-host 93.184.215.21
python3 "$tmp/c.py" leave "$px" 127.0.0.1 8 'CONNECT hang.test:443 HTTP/1.1\r\n\r\n'
ask 127.0.0.1 'CONNECT good.test:443 HTTP/1.1\r\n\r\n'
grep -q '^HTTP/1.1 502' "$tmp/out" &&
	grep -q 'allow connect good.test:443 via 93.184.215.20' "$tmp/px.log"
ok $? "eight hanging lookups of clients that left do not block the next name"

python3 "$tmp/c.py" leave "$px" 127.0.0.2 24 'CONNECT hang.test:443 HTTP/1.1\r\n\r\n'
ask 127.0.0.1 'CONNECT good.test:443 HTTP/1.1\r\n\r\n'
grep -q '^HTTP/1.1 502' "$tmp/out"
ok $? "a client that fills its own share of lookups does not block another client"
ask 127.0.0.2 'CONNECT 93.184.215.21:443 HTTP/1.1\r\n\r\n'
grep -q '^HTTP/1.1 502' "$tmp/out"
ok $? "nor its own requests for IP literals"
sleep 0.5
got=$(grep -c '^q hang.test 1$' "$tmp/dport.log")
[ "$got" = $((8 + 16)) ]
ok $? "lookups beyond a client's share are dropped when it leaves, never sent ($got A queries, want 24)"
stop_proxy

start_proxy --allow-host '*.test' --handshake-timeout 2
python3 "$tmp/c.py" leave "$px" 127.0.0.2 16 'CONNECT hang.test:443 HTTP/1.1\r\n\r\n'
ask 127.0.0.2 'CONNECT good.test:443 HTTP/1.1\r\n\r\n'
grep -q '^HTTP/1.1 504' "$tmp/out"
ok $? "a client whose share is held by its abandoned lookups waits (504 in time)"
ask 127.0.0.1 'CONNECT good.test:443 HTTP/1.1\r\n\r\n'
alive && grep -q '^HTTP/1.1 502' "$tmp/out"
ok $? "while another client is served at once"
stop_proxy

# cordon fetch: --timeout covers the lookup.
run fetch --timeout 1 http://hang.test/
[ $rc -eq 1 ] && grep -q 'timed out resolving hang.test' "$tmp/err"
ok $? "fetch --timeout ends a lookup that hangs"

done_testing
