#!/usr/bin/env bash
# A red-team pass against `cordon proxy`, written from the outside (the
# attack families, not the code paths): address spellings behind names,
# URI and Host confusion, smuggling framings, SOCKS5 oddities, control
# endpoint tricks, and reflection of an injected secret. Every row is an
# attempt that must be refused (or must not reach what it aims at); the
# servers it could reach log what arrives, and each row checks the log as
# well as the answer. Runs in network namespaces of its own.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
private_net "unreachable 93.184.215.0/24"
need python3 curl

cat >"$tmp/r.py" <<'PY'
import os, socket, sys, threading, time, http.server, socketserver

def serve(log):
    # Logs every request line and Host it gets.
    class H(http.server.BaseHTTPRequestHandler):
        def handle_one_request(self):
            try:
                http.server.BaseHTTPRequestHandler.handle_one_request(self)
            except Exception:
                pass
        def any(self):
            with open(log, "a") as f:
                f.write("%s host=%s\n" % (self.requestline,
                        self.headers.get("Host")))
            b = b"reached\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(b)))
            self.end_headers()
            self.wfile.write(b)
        do_GET = do_POST = do_PUT = do_TRACE = do_DELETE = any
        def log_message(self, *a):
            pass
    class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
    s = S(("127.0.0.1", 0), H)
    print(s.server_address[1], flush=True)
    s.serve_forever()

def raw(hp, data, wait=15):
    h, p = hp.rsplit(":", 1)
    c = socket.create_connection((h, int(p)), timeout=wait)
    c.sendall(data)
    out = b""
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            out += d
    except socket.timeout:
        out += b"<timeout>"
    sys.stdout.write(out.decode("latin-1"))

if sys.argv[1] == "serve":
    serve(sys.argv[2])
else:
    raw(sys.argv[2], sys.argv[3].encode().decode("unicode_escape").encode("latin-1"))
PY
serve hport python3 "$tmp/r.py" serve "$tmp/hits.log" ||
	skip_all "the server did not start"
: >"$tmp/hits.log"
raw() { python3 -W ignore "$tmp/r.py" raw "$px" "$1" >"$tmp/out" 2>&1; }
reached() { [ -s "$tmp/hits.log" ]; }
first() { head -1 "$tmp/out"; }

# 1. Loopback, private and metadata behind allowed names, every spelling
# a resolver or a URL parser takes.
res=()
i=0
for a in 127.0.0.1 127.1.2.3 0.0.0.0 ::1 :: ::ffff:127.0.0.1 ::ffff:7f00:1 \
	::127.0.0.1 64:ff9b::7f00:1 64:ff9b:1::7f00:1 2002:7f00:1:: \
	2001::80ff:fffe 169.254.169.254 fd00:ec2::254 ::ffff:a9fe:a9fe \
	100.100.100.200 10.0.0.1 172.16.0.1 192.168.0.1 fe80::1 fc00::1 \
	100.64.0.1 198.18.0.1 224.0.0.1 255.255.255.255 ::ffff:0.0.0.0; do
	res+=(--resolve "n$i.test:$a")
	i=$((i + 1))
done
start_proxy --allow-host "*.test:$hport" --allow-host '*.test' "${res[@]}" \
	--allow-host "127.0.0.1:$hport" --handshake-timeout 3
i=0
for a in 127.0.0.1 127.1.2.3 0.0.0.0 ::1 :: ::ffff:127.0.0.1 ::ffff:7f00:1 \
	::127.0.0.1 64:ff9b::7f00:1 64:ff9b:1::7f00:1 2002:7f00:1:: \
	2001::80ff:fffe 169.254.169.254 fd00:ec2::254 ::ffff:a9fe:a9fe \
	100.100.100.200 10.0.0.1 172.16.0.1 192.168.0.1 fe80::1 fc00::1 \
	100.64.0.1 198.18.0.1 224.0.0.1 255.255.255.255 ::ffff:0.0.0.0; do
	: >"$tmp/hits.log"
	raw "CONNECT n$i.test:$hport HTTP/1.1\r\n\r\n"
	first | grep -q '^HTTP/1.1 403' && ! reached
	ok $? "a name resolving to $a is refused"
	i=$((i + 1))
done

# 2. Literal spellings of loopback that the allow-list does not name (it
# names 127.0.0.1:PORT; v4-mapped forms of it are the same entry, by
# design, and are not attempts).
for h in 2130706433 0177.0.0.1 0x7f.0.0.1 0x7f000001 127.1 017700000001 \
	'[::1]' localhost localhost. LOCALHOST '127.0.0.1.' '[fe80::1%25lo]' \
	'127.000.000.001' '[::127.0.0.1]' '[64:ff9b::7f00:1]'; do
	: >"$tmp/hits.log"
	raw "CONNECT $h:$hport HTTP/1.1\r\n\r\n"
	first | grep -qE '^HTTP/1.1 (403|400)' && ! reached
	ok $? "CONNECT $h:PORT does not reach loopback"
done

# 3. URI and Host confusion for plain HTTP.
for u in "http://allowed.test@127.0.0.2:$hport/" \
	"http://127.0.0.2:$hport\\@n0.test/" "http://n0.test:$hport#@127.0.0.1/" \
	"http://%31%32%37.0.0.1:$hport/" "http://n0.test:$hport:$hport/" \
	"http://[127.0.0.1]:$hport/" "http://127.0.0.1:0$hport/" \
	"http://127.0.0.1:+$hport/" "http://0x7f.1:$hport/" ; do
	: >"$tmp/hits.log"
	raw "GET $u HTTP/1.1\r\nHost: x\r\n\r\n"
	first | grep -qE '^HTTP/1.1 (400|403)' && ! reached
	ok $? "GET $u is refused"
done
: >"$tmp/hits.log"
raw "GET http://127.0.0.1:$hport/ HTTP/1.1\r\nHost: evil.example\r\n\r\n"
grep -q "host=127.0.0.1:$hport" "$tmp/hits.log"
ok $? "the upstream sees the judged host, not the client's Host header"
raw "CONNECT n0.test:443@127.0.0.1:$hport HTTP/1.1\r\n\r\n"
first | grep -qE '^HTTP/1.1 (400|403)'
ok $? "CONNECT with userinfo-like authority is refused"

# 4. Framing that could smuggle a second request past the proxy.
for p in "Transfer-Encoding: xchunked" "Transfer-Encoding:  chunked " \
	"Transfer-Encoding: chunked\r\nTransfer-Encoding: identity" \
	"Content-Length: 4\r\n Content-Length: 0" "Content-Length: -1" \
	"Content-Length: 1e3" "Content-Length: 0x10" "Content-Length: 4, 5" \
	"X-A: 1\r\n\tfolded" "Host : x" "X-A: \000" "Transfer-Encoding: chunked\r\nContent-Length: 0"; do
	: >"$tmp/hits.log"
	raw "POST http://127.0.0.1:$hport/s HTTP/1.1\r\nHost: x\r\n$p\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
	! grep -q smuggled "$tmp/hits.log"
	ok $? "no second request smuggled with: $(printf '%s' "$p" | tr '\r\n\t\0' '....')"
done
for p in "GET http://127.0.0.1:$hport/ HTTP/1.1\nHost: x\n\n" \
	"GET http://127.0.0.1:$hport/ HTTP/0.9\r\n\r\n" \
	"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" "GET\thttp://127.0.0.1:$hport/ HTTP/1.1\r\n\r\n" \
	"GET http://127.0.0.1:$hport/ HTTP/1.1 extra\r\n\r\n"; do
	: >"$tmp/hits.log"
	raw "$p"
	first | grep -qE '^HTTP/1.1 (400|405|501|505)' && ! reached
	ok $? "a malformed head is refused: $(printf '%s' "$p" | head -c 40 | tr '\r\n\t' '...')"
done

# 5. SOCKS5 oddities: commands other than CONNECT, a domain with a NUL or
# of length 0, loopback through SOCKS.
for s in '\x05\x01\x00\x05\x02\x00\x01\x7f\x00\x00\x01\x00\x50' \
	'\x05\x01\x00\x05\x03\x00\x01\x7f\x00\x00\x01\x00\x50' \
	'\x05\x01\x00\x05\x01\x00\x03\x00\x00\x50' \
	'\x05\x01\x00\x05\x01\x00\x03\x0bn0.test\x00abc\x00\x50' \
	'\x05\x01\x00\x05\x01\x00\x01\x7f\x00\x00\x01\x00\x50' \
	'\x05\x01\x02' '\x04\x01\x00\x50\x7f\x00\x00\x01\x00'; do
	: >"$tmp/hits.log"
	raw "$s"
	! reached && ! grep -q reached "$tmp/out"
	ok $? "SOCKS attempt $s reaches nothing"
done
stop_proxy

# 6. The control endpoint.
export CORDON_CTL=red-team-token-0123456789
start_proxy --control-port 0 --control-token-env CORDON_CTL
wait_line ctl "$tmp/px.log" 'cordon proxy: control endpoint on '
craw() { python3 -W ignore "$tmp/r.py" raw "$ctl" "$1" >"$tmp/out" 2>&1; }
st() { craw "GET /status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $CORDON_CTL\r\n\r\n"; }
for e in '*' '*.*' '**.com' '*.' '.com' '*.com.' '*.co.uk' '*.CoM' \
	'0.0.0.0/0' '10.0.0.0/8' '[::]:80' '[::ffff:169.254.169.254]:80' \
	'169.254.169.254.' 'metadata.google.internal' '*.internal' 'localhost' \
	'*.localhost' "127.0.0.1:${ctl##*:}"; do
	craw "POST /allow HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $CORDON_CTL\r\nContent-Length: ${#e}\r\n\r\n$e"
	code=$(first | cut -d' ' -f2)
	st
	case $e in
	metadata.google.internal|localhost|'*.internal'|'*.localhost')
		# names: granted, but they must still pass the guard when used
		[ "$code" = 200 ] || [ "$code" = 403 ]
		ok $? "control: $e: $code (a name; the guard still applies)" ;;
	*)
		[ "$code" = 400 ] || [ "$code" = 403 ]
		ok $? "control: POST /allow $e refused ($code)" ;;
	esac
done
for h in "POST /Allow" "POST //allow" "POST /allow/" "POST /%61llow" \
	"post /allow" "POST http://127.0.0.1/allow"; do
	craw "$h HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $CORDON_CTL\r\nContent-Length: 12\r\n\r\nreached.test"
	st
	! grep -q reached.test "$tmp/out"
	ok $? "control: '$h' adds nothing"
done
# Wrong tokens (a prefix, a longer one, another scheme, a second header)
# add nothing.
k=0
for a in "Bearer ${CORDON_CTL%?}" "Bearer ${CORDON_CTL}x" "Basic $CORDON_CTL" \
	"Bearer $CORDON_CTL\r\nAuthorization: Bearer x" "$CORDON_CTL" \
	"Bearer x\r\nAuthorization: Bearer $CORDON_CTL" "Bearer\t$CORDON_CTL"; do
	k=$((k + 1))
	craw "POST /allow HTTP/1.1\r\nHost: x\r\nAuthorization: $a\r\nContent-Length: 13\r\n\r\nreached$k.test"
	code=$(first | cut -d' ' -f2)
	st
	! grep -q "reached$k.test" "$tmp/out"
	ok $? "control: a wrong Authorization ($code) adds nothing ($k)"
done
stop_proxy
done_testing
