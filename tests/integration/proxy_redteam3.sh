#!/usr/bin/env bash
# The third red team's pass against `cordon proxy` (issue 20), written from
# the README and --help alone, for what proxy_redteam.sh does not try:
# a second request on a connection whose first one was allowed (pipelined,
# after the answer, a CONNECT after a GET), routing by Host or by a
# network-path reference, deny-list entries against other spellings of the
# same address, a name the allow-list's literal resolves to, rebinding and
# mixed answers from a DNS server this script runs, heads split by a bare
# LF or CR, Content-Length overflow, folded and odd Transfer-Encodings,
# oversized heads by count, slowloris against the handshake time-out, a
# chunked answer with an absurd size, SOCKS5 with a literal as a domain,
# and the control endpoint: a pipelined unauthenticated request, a
# chunked body, a grant that resolves to loopback, the token in /status.
#
# Every row first shows its target is reachable without the proxy's
# judgement where that means something (the control rows), and checks the
# upstream's log as well as the answer. The servers run in network
# namespaces of this script's own (private_net): 127.0.0.1:PORT is
# allowed, 127.0.0.2:PORT is the same server, not allowed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
private_net "unreachable 93.184.215.0/24"
need python3

printf 'nameserver 127.0.0.1\noptions timeout:5 attempts:1\n' \
	>"$tmp/resolv.conf"
printf '127.0.0.1 localhost\n' >"$tmp/hosts"
bind_etc resolv.conf "$tmp/resolv.conf"
bind_etc hosts "$tmp/hosts"
serve dport python3 "$src/tests/net/dns.py" \
	--rebind rebind.test:93.184.215.34:127.0.0.2 \
	--a mixed.test:127.0.0.2,93.184.215.34 || skip_all "no DNS server"
diag_logs+=("$tmp/dport.log")

cat >"$tmp/r.py" <<'PY'
import socket, sys, threading, time

def serve(log, mode):
    # On 0.0.0.0: 127.0.0.1 and 127.0.0.2 reach it alike. Logs each
    # request line and Host; answers "reached" (keep-alive), or in mode
    # "badchunk" a chunked answer with an absurd chunk size.
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", 0))
    s.listen(64)
    print(s.getsockname()[1], flush=True)
    def one(c):
        buf = b""
        c.settimeout(10)
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    d = c.recv(65536)
                    if not d:
                        return
                    buf += d
                head, buf = buf.split(b"\r\n\r\n", 1)
                lines = head.split(b"\r\n")
                host = [l for l in lines[1:] if l.lower().startswith(b"host:")]
                with open(log, "a") as f:
                    f.write("%s host=%s\n" % (lines[0].decode("latin-1"),
                            host[0][5:].strip().decode("latin-1") if host else "-"))
                if mode == "badchunk":
                    c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
                              b"\r\n\r\nfffffffffffffffffff\r\nabc\r\n")
                    return
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nreached\n")
        except Exception:
            pass
        finally:
            c.close()
    while True:
        c, _ = s.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()

def conn(hp):
    h, p = hp.rsplit(":", 1)
    return socket.create_connection((h, int(p)), timeout=8)

def drain(c, wait):
    out = b""
    c.settimeout(wait)
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            out += d
    except socket.timeout:
        out += b"<timeout>"
    except OSError as e:
        out += b"<" + str(e).encode() + b">"
    return out

def unesc(s):
    return s.encode().decode("unicode_escape").encode("latin-1")

if sys.argv[1] == "serve":
    serve(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
elif sys.argv[1] == "raw":
    # raw HP DATA [WAIT]: one write, everything read until close or WAIT
    c = conn(sys.argv[2])
    c.sendall(unesc(sys.argv[3]))
    w = float(sys.argv[4]) if len(sys.argv) > 4 else 4
    sys.stdout.write(drain(c, w).decode("latin-1"))
elif sys.argv[1] == "two":
    # two HP FIRST SECOND: FIRST, its answer, then SECOND on the same
    # connection
    c = conn(sys.argv[2])
    c.sendall(unesc(sys.argv[3]))
    time.sleep(0.5)
    c.settimeout(2)
    try:
        first = c.recv(65536)
    except socket.timeout:
        first = b"<timeout>"
    sys.stdout.write(first.decode("latin-1") + "\n--second--\n")
    try:
        c.sendall(unesc(sys.argv[4]))
    except OSError as e:
        sys.stdout.write("<send: %s>\n" % e)
    sys.stdout.write(drain(c, 3).decode("latin-1"))
elif sys.argv[1] == "big":
    # big HP COUNT: a head of COUNT small headers
    c = conn(sys.argv[2])
    n = int(sys.argv[3])
    try:
        c.sendall(b"GET http://127.0.0.1:%s/big HTTP/1.1\r\nHost: x\r\n" %
                  sys.argv[4].encode() + b"a: b\r\n" * n + b"\r\n")
    except OSError as e:
        pass
    sys.stdout.write(drain(c, 5).decode("latin-1"))
elif sys.argv[1] == "trickle":
    # trickle HP N STEP: N bytes of a head, one each STEP seconds; prints
    # how many went out before the proxy closed, and its answer
    c = conn(sys.argv[2])
    n, step = int(sys.argv[3]), float(sys.argv[4])
    head = (b"GET http://127.0.0.1:1/slow HTTP/1.1\r\nX: " + b"a" * n)[:n]
    sent, got = 0, b""
    c.settimeout(step)
    for b in head:
        try:
            c.send(bytes([b]))
            sent += 1
        except OSError:
            break
        try:
            d = c.recv(4096)
            if not d:
                break
            got += d
        except socket.timeout:
            pass
        except OSError:
            break
    sys.stdout.write("sent %d of %d\n%s" % (sent, n, got.decode("latin-1")))
PY
serve hport python3 "$tmp/r.py" serve "$tmp/hits.log" ||
	skip_all "the server did not start"
serve cport python3 "$tmp/r.py" serve "$tmp/chunk.log" badchunk ||
	skip_all "the chunk server did not start"
: >"$tmp/hits.log"
raw() { python3 -W ignore "$tmp/r.py" raw "$px" "$@" >"$tmp/out" 2>&1; }
two() { python3 -W ignore "$tmp/r.py" two "$px" "$@" >"$tmp/out" 2>&1; }
first() { head -1 "$tmp/out"; }
# hit PATH: did the upstream get a request for PATH?
hit() { grep -q " $1 " "$tmp/hits.log"; }
# denied_hits: requests that reached the upstream through 127.0.0.2
denied_hits() { grep -q 'host=127.0.0.2' "$tmp/hits.log" || grep -q '/evil' "$tmp/hits.log"; }

# 0. Controls: the allowed literal is reached through the proxy, and
# 127.0.0.2 reaches the same server without it.
start_proxy --allow-host "127.0.0.1:$hport" --handshake-timeout 3
raw "GET http://127.0.0.1:$hport/ok HTTP/1.1\r\nHost: 127.0.0.1:$hport\r\nConnection: close\r\n\r\n"
first | grep -q '^HTTP/1.1 200' && hit /ok
ok $? "control: the allowed literal is reached through the proxy"
python3 -W ignore "$tmp/r.py" raw "127.0.0.2:$hport" \
	"GET /direct HTTP/1.1\r\nHost: 127.0.0.2:$hport\r\n\r\n" 1 >"$tmp/out" 2>&1
first | grep -q '^HTTP/1.1 200' && hit /direct
ok $? "control: 127.0.0.2 reaches the same server without the proxy"
: >"$tmp/hits.log"

# 1. A second request on a connection whose first was allowed.
A="GET http://127.0.0.1:$hport/a HTTP/1.1\r\nHost: 127.0.0.1:$hport\r\n\r\n"
raw "${A}GET http://127.0.0.2:$hport/evil HTTP/1.1\r\nHost: 127.0.0.2:$hport\r\n\r\n"
hit /a && ! denied_hits
ok $? "pipelined: a second GET to a denied target after an allowed one"
: >"$tmp/hits.log"
two "$A" "GET http://127.0.0.2:$hport/evil HTTP/1.1\r\nHost: 127.0.0.2:$hport\r\n\r\n"
hit /a && ! denied_hits
ok $? "keep-alive: a GET to a denied target after the allowed one's answer"
: >"$tmp/hits.log"
two "$A" "CONNECT 127.0.0.2:$hport HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
hit /a && ! denied_hits
ok $? "keep-alive: a CONNECT to a denied target after an allowed GET"
: >"$tmp/hits.log"
two "$A" "GET /evil HTTP/1.1\r\nHost: 127.0.0.2:$hport\r\n\r\n"
hit /a && ! denied_hits
ok $? "keep-alive: an origin-form GET with a denied Host after an allowed GET"
: >"$tmp/hits.log"
raw "POST http://127.0.0.1:$hport/a HTTP/1.1\r\nHost: 127.0.0.1:$hport\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\nGET http://127.0.0.2:$hport/evil HTTP/1.1\r\nHost: x\r\n\r\n"
hit /a && ! denied_hits
ok $? "pipelined after Expect: 100-continue"
: >"$tmp/hits.log"

# 2. Routing by what is not the request target.
for req in "GET / HTTP/1.1\r\nHost: 127.0.0.2:$hport\r\n\r\n" \
	"GET //127.0.0.2:$hport/evil HTTP/1.1\r\nHost: 127.0.0.1:$hport\r\n\r\n" \
	"GET /evil HTTP/1.1\r\nHost: 127.0.0.1:$hport\r\nHost: 127.0.0.2:$hport\r\n\r\n" \
	"GET HTTP://127.0.0.2:$hport/evil HTTP/1.1\r\nHost: x\r\n\r\n" \
	"GET http://127.0.0.2:$hport/evil HTTP/1.0\r\n\r\n" \
	"GET http://[::ffff:127.0.0.2]:$hport/evil HTTP/1.1\r\nHost: x\r\n\r\n" \
	"OPTIONS * HTTP/1.1\r\nHost: 127.0.0.2:$hport\r\n\r\n"; do
	raw "$req"
	! denied_hits && ! grep -q reached "$tmp/out"
	ok $? "routing: $(printf '%s' "$req" | head -c 60 | tr '\r\n' '..') reaches nothing"
	: >"$tmp/hits.log"
done
stop_proxy

# 3. The deny-list against other spellings of the same address on the
# allow-list (a literal on the deny-list wins everywhere).
for pair in "[::ffff:127.0.0.1]:$hport|127.0.0.1" \
	"127.0.0.1:$hport|[::ffff:7f00:1]" "127.0.0.1:$hport|2130706433" \
	"127.0.0.1:$hport|127.000.000.001"; do
	al=${pair%%|*}
	dn=${pair#*|}
	start_proxy --allow-host "$al" --deny-host "$dn"
	raw "CONNECT $al HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
	first | grep -qE '^HTTP/1.1 (403|400)' && ! hit /evil
	ok $? "deny $dn wins over allow $al"
	: >"$tmp/hits.log"
	stop_proxy
done

# 4. Names: one the allowed literal's address answers for, a rebinding
# one, one with a loopback and a public answer, deny-list spellings.
start_proxy --allow-host "127.0.0.2:$hport" --allow-host "*.test:$hport" \
	--resolve "alias.test:127.0.0.2" --deny-host bad.test \
	--resolve "bad.test:127.0.0.2" --handshake-timeout 4
raw "CONNECT 127.0.0.2:$hport HTTP/1.1\r\n\r\nGET /lit HTTP/1.1\r\nHost: x\r\n\r\n"
first | grep -q '^HTTP/1.1 200' && hit /lit
ok $? "control: the literal 127.0.0.2:PORT itself is allowed here"
: >"$tmp/hits.log"
raw "CONNECT alias.test:$hport HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
first | grep -qE '^HTTP/1.1 (403|502)' && ! hit /evil
ok $? "a name resolving to the allowed literal's loopback address is refused"
: >"$tmp/hits.log"
for h in BAD.TEST bad.test. Bad.Test. 'bad.test..' 'bad%2etest' 'xn--bad.test'; do
	raw "CONNECT $h:$hport HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
	! hit /evil
	ok $? "deny bad.test: CONNECT $h reaches nothing ($(first | cut -c1-40))"
	: >"$tmp/hits.log"
done
raw "CONNECT rebind.test:$hport HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n" 8
! hit /evil
ok $? "DNS rebinding (public first, then 127.0.0.2): nothing reached ($(first | cut -c1-40))"
: >"$tmp/hits.log"
raw "CONNECT mixed.test:$hport HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n" 8
! hit /evil
ok $? "a loopback and a public answer: loopback is never dialled ($(first | cut -c1-40))"
: >"$tmp/hits.log"
port2=$(printf '\\x%02x\\x%02x' $((hport >> 8)) $((hport & 255)))
for d in 127.0.0.3 alias.test; do
	raw "\x05\x01\x00\x05\x01\x00\x03$(printf '\\x%02x' ${#d})$d${port2}GET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
	! hit /evil
	ok $? "SOCKS5 CONNECT to the domain '$d' reaches nothing"
	: >"$tmp/hits.log"
done
stop_proxy

# 5. Framing.
start_proxy --allow-host "127.0.0.1:$hport" --allow-host "127.0.0.1:$cport" \
	--handshake-timeout 3
for p in "Transfer-Encoding:\r\n chunked" "Transfer-Encoding:\tchunked" \
	"Transfer-Encoding: CHUNKED" "Transfer-Encoding: gzip, chunked" \
	"Transfer-Encoding: chunked;q=1" \
	"Content-Length: 18446744073709551617" "Content-Length: 4294967300" \
	"Content-Length: +0" "X-A: a\nContent-Length: 0" "X-A: a\rContent-Length: 0" \
	"Content-Length: 0\n" "X-A: a\r\r\nContent-Length: 0"; do
	: >"$tmp/hits.log"
	raw "POST http://127.0.0.1:$hport/s HTTP/1.1\r\nHost: x\r\n$p\r\n\r\n0\r\n\r\nGET http://127.0.0.1:$hport/smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
	! hit /smuggled
	ok $? "no second request smuggled with: $(printf '%s' "$p" | tr '\r\n\t' '...')"
done
for p in "X-A: a\rContent-Length: 0" "X-A: a\r\r\n"; do
	raw "GET http://127.0.0.1:$hport/cr HTTP/1.1\r\n$p\r\n\r\n" 2.5
	first | grep -q '^HTTP/1.1 400'
	ok $? "a bare CR in a head is refused at once: $(printf '%s' "$p" | tr '\r\n' '..')"
done
python3 -W ignore "$tmp/r.py" big "$px" 3000 "$hport" >"$tmp/out" 2>&1
first | grep -q '^HTTP/1.1 431' && ! hit /big
ok $? "3000 small headers (18 KiB) get 431"
: >"$tmp/hits.log"
raw "GET http://127.0.0.1:$hport/$(head -c 17000 /dev/zero | tr '\0' a) HTTP/1.1\r\nHost: x\r\n\r\n"
first | grep -qE '^HTTP/1.1 (431|414)' && ! grep -q 'aaaa' "$tmp/hits.log"
ok $? "a 17 KiB request line gets 431"
raw "GET http://127.0.0.1:$cport/chunk HTTP/1.1\r\nHost: x\r\n\r\n" 3
raw "GET http://127.0.0.1:$hport/after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
first | grep -q '^HTTP/1.1 200' && kill -0 "$pxpid" 2>/dev/null
ok $? "an upstream's chunked answer with a 19-digit size leaves the proxy serving"
stop_proxy

# 6. Slowloris: clients trickling a head one byte at a time are closed at
# the handshake time-out though they never stop sending, and the proxy
# serves again once they are gone.
start_proxy --allow-host "127.0.0.1:$hport" --handshake-timeout 2 \
	--max-conns 4
for i in 1 2 3 4; do
	python3 -W ignore "$tmp/r.py" trickle "$px" 200 0.1 >"$tmp/tr$i" 2>&1 &
	pids+=($!)
	tr+=($!)
done
for p in "${tr[@]}"; do wait "$p"; done
all=0
for i in 1 2 3 4; do
	read -r _ sent _ <"$tmp/tr$i"
	[ "${sent:-200}" -lt 200 ] || all=1
done
ok $all "slowloris: 4 trickling clients are closed before their head is done ($(head -1 "$tmp/tr1"))"
raw "GET http://127.0.0.1:$hport/after-slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
first | grep -q '^HTTP/1.1 200'
ok $? "slowloris: the proxy serves once they are gone"
stop_proxy

# 7. The control endpoint.
export CORDON_CTL=red-team-three-token-0123456789
start_proxy --allow-host "127.0.0.1:$hport" --control-port 0 \
	--control-token-env CORDON_CTL --resolve "granted.test:127.0.0.2"
wait_line ctl "$tmp/px.log" 'cordon proxy: control endpoint on '
craw() { python3 -W ignore "$tmp/r.py" raw "$ctl" "$@" >"$tmp/out" 2>&1; }
st() { craw "GET /status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $CORDON_CTL\r\nConnection: close\r\n\r\n"; }
auth="Authorization: Bearer $CORDON_CTL"
craw "POST /allow HTTP/1.1\r\nHost: x\r\n$auth\r\nContent-Length: 15\r\n\r\nctl-first.test\nPOST /allow HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\n\r\nsmuggled.test\n"
st
grep -q ctl-first.test "$tmp/out" && ! grep -q smuggled.test "$tmp/out"
ok $? "control: a pipelined unauthenticated POST /allow adds nothing (the first did)"
craw "POST /allow HTTP/1.1\r\nHost: x\r\n$auth\r\nTransfer-Encoding: chunked\r\n\r\nd\r\nchunked1.test\r\n0\r\n\r\n"
st
! grep -q chunked1.test "$tmp/out"
ok $? "control: a chunked body adds nothing"
craw "POST /allow HTTP/1.1\r\nHost: x\r\n$auth\r\nContent-Length: 9\r\nContent-Length: 13\r\n\r\ncl1.test\ncl2.test\n"
st
! grep -qE 'cl[12].test' "$tmp/out"
ok $? "control: two Content-Lengths add nothing"
st
! grep -q "$CORDON_CTL" "$tmp/out"
ok $? "control: /status does not show the token"
craw "POST /allow HTTP/1.1\r\nHost: x\r\n$auth\r\nContent-Length: $((13 + ${#hport}))\r\n\r\ngranted.test:$hport"
raw "CONNECT granted.test:$hport HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
! hit /evil
ok $? "control: a granted name that resolves to loopback is still refused ($(first | cut -c1-40))"
: >"$tmp/hits.log"
e="127.0.0.2:$hport"
craw "POST /allow HTTP/1.1\r\nHost: x\r\n$auth\r\nContent-Length: ${#e}\r\n\r\n$e"
code=$(first | cut -d' ' -f2)
raw "CONNECT $e HTTP/1.1\r\n\r\nGET /evil HTTP/1.1\r\nHost: x\r\n\r\n"
! hit /evil
ok $? "control: a granted loopback literal ($code) reaches nothing"
stop_proxy
done_testing
