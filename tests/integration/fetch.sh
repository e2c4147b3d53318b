#!/usr/bin/env bash
# `cordon fetch` ($CORDON_BIN) against servers this script starts on
# loopback with python3: a plain HTTP server, an HTTPS server whose CA and
# leaf certificate (for "test.cordon") are made here with the openssl CLI,
# and a server that accepts and never answers. Loopback is a denied class,
# so the fetches that must reach these servers pass the explicit test flag
# --allow-address-class loopback; the same URLs without it are refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
# Public addresses below (8.8.8.8) must never be reached: the script runs
# in a network namespace of its own where they lead nowhere.
private_net
need python3 openssl

# The certificates: a CA, and a leaf for test.cordon signed by it.
make_certs test.cordon DNS:test.cordon

cat >"$tmp/server.py" <<'PY'
import http.server, socket, ssl, sys, time

mode = sys.argv[1]
other = {}

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def raw(self, head, body=b""):
        self.wfile.write(head.encode() + body)
        self.close_connection = True

    def do_GET(self):
        p = self.path
        if p == "/hello":
            self.raw("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                     "Content-Length: 6\r\nConnection: close\r\n\r\n",
                     b"hello\n")
        elif p == "/ua":
            b = (self.headers.get("User-Agent", "") + "|" +
                 self.headers.get("Host", "") + "|" +
                 self.headers.get("Accept-Encoding", "")).encode()
            self.raw("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(b), b)
        elif p == "/chunked":
            self.raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                     b"5\r\nhello\r\n7;ext=1\r\n world\n\r\n0\r\nX-T: 1\r\n\r\n")
        elif p == "/close":
            self.raw("HTTP/1.1 200 OK\r\n\r\n", b"until close")
        elif p == "/binary":
            self.raw("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n",
                     b"\x00\xff\xfe\x01")
        elif p == "/big":
            b = b"x" * 100000
            self.raw("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(b), b)
        elif p.startswith("/redirect/"):
            left = int(p.split("/")[2])
            loc = "/hello" if left == 0 else "/redirect/%d" % (left - 1)
            self.raw("HTTP/1.1 302 Found\r\nLocation: %s\r\n"
                     "Content-Length: 0\r\n\r\n" % loc)
        elif p == "/loop":
            self.raw("HTTP/1.1 301 Moved\r\nLocation: /loop\r\n"
                     "Content-Length: 0\r\n\r\n")
        elif p == "/meta":
            self.raw("HTTP/1.1 302 Found\r\n"
                     "Location: http://169.254.169.254/latest/meta-data/\r\n"
                     "Content-Length: 0\r\n\r\n")
        elif p == "/to-v4mapped":
            self.raw("HTTP/1.1 307 Temp\r\n"
                     "Location: http://[::ffff:10.0.0.1]/\r\n"
                     "Content-Length: 0\r\n\r\n")
        elif p.startswith("/to-http/"):
            self.raw("HTTP/1.1 302 Found\r\n"
                     "Location: http://127.0.0.1:%s/hello\r\n"
                     "Content-Length: 0\r\n\r\n" % p.split("/")[2])
        elif p == "/dup-cl":
            self.raw("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
                     "Content-Length: 5\r\n\r\n", b"hello")
        elif p == "/cl-te":
            self.raw("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n",
                     b"5\r\nhello\r\n0\r\n\r\n")
        elif p == "/te-list":
            self.raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked,\r\n\r\n",
                     b"5\r\nhello\r\n0\r\n\r\n")
        elif p == "/huge-head":
            self.raw("HTTP/1.1 200 OK\r\nX-Big: " + "a" * 20000 +
                     "\r\nContent-Length: 0\r\n\r\n")
        elif p == "/short":
            self.raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", b"short")
        else:
            self.raw("HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\n",
                     b"nope")

if mode == "hang":
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    print(s.getsockname()[1], flush=True)
    conns = []
    while True:
        c, _ = s.accept()
        conns.append(c)
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
if mode == "https":
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[2], sys.argv[3])
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
print(srv.server_address[1], flush=True)
srv.serve_forever()
PY

serve hp python3 "$tmp/server.py" http
serve sp python3 "$tmp/server.py" https "$tmp/leaf.pem" "$tmp/leaf.key"
serve gp python3 "$tmp/server.py" hang
if [ -z "$hp" ] || [ -z "$sp" ] || [ -z "$gp" ]; then
	skip_all "test servers did not start"
fi

echo "1..46"
L=(--allow-address-class loopback)
T=(--cacert "$tmp/ca.pem" --resolve test.cordon:127.0.0.1)

run fetch "${L[@]}" "http://127.0.0.1:$hp/hello"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = hello ]
ok $? "plain fetch with the test allowance prints the body, exit 0"

run fetch "http://127.0.0.1:$hp/hello"
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q 'loopback' "$tmp/err"
ok $? "the same URL without the allowance is refused, naming loopback"

for h in 127.1 0x7f000001 '[::ffff:127.0.0.1]' 2130706433; do
	run fetch "http://$h:$hp/hello"
	[ $rc -eq 1 ] && grep -q 'refused.*loopback' "$tmp/err"
	ok $? "$h is refused as loopback"
done

run fetch "http://[::ffff:7f00:1]:$hp/hello"
[ $rc -eq 1 ] && grep -q 'address ::ffff:127.0.0.1 is embedded-ipv4:loopback' "$tmp/err"
ok $? "a hex v4-mapped spelling is judged as the IPv4 inside"

# The test-only loopback allowance is loopback as itself and nothing wider:
# every v4-mapped spelling stays refused (red team: [::ffff:127.0.0.1] was
# turned into 127.0.0.1 before the guard saw it).
for h in '[::ffff:127.0.0.1]' '[::ffff:7f00:1]' '[0:0:0:0:0:ffff:127.0.0.1]' \
	'[::FFFF:127.0.0.1]' '[0::ffff:7f00:0001]' '[::ffff:127.1.2.3]'; do
	run fetch "${L[@]}" "http://$h:$hp/hello"
	[ $rc -eq 1 ] && grep -q 'embedded-ipv4:loopback' "$tmp/err" &&
		! grep -q hello "$tmp/out"
	ok $? "the loopback allowance does not reach $h"
done

run fetch "${L[@]}" "http://[64:ff9b::7f00:1]:$hp/hello"
[ $rc -eq 1 ] && grep -q 'embedded-ipv4:loopback' "$tmp/err"
ok $? "NAT64 spelling of loopback stays refused even with the allowance"

run fetch "${L[@]}" "http://127.0.0.1:$hp/meta"
[ $rc -eq 1 ] && grep -q 'redirect 1 to http://169.254.169.254/.*cloud-metadata' "$tmp/err"
ok $? "a redirect to 169.254.169.254 is refused at the hop, naming cloud-metadata"

run fetch "${L[@]}" "http://127.0.0.1:$hp/to-v4mapped"
[ $rc -eq 1 ] && grep -q 'redirect 1 to .*private' "$tmp/err"
ok $? "a redirect to [::ffff:10.0.0.1] is refused as private"

run fetch "${L[@]}" "http://127.0.0.1:$hp/loop"
[ $rc -eq 1 ] && grep -q 'too many redirects (limit 5)' "$tmp/err"
ok $? "a redirect loop stops at the default cap of 5"

run fetch "${L[@]}" --max-redirects 2 "http://127.0.0.1:$hp/redirect/1"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = hello ]
ok $? "two redirects are followed with --max-redirects 2"

run fetch "${L[@]}" --max-redirects 2 "http://127.0.0.1:$hp/redirect/2"
[ $rc -eq 1 ] && grep -q 'too many redirects (limit 2)' "$tmp/err"
ok $? "a third redirect with --max-redirects 2 is refused"

run fetch "${L[@]}" --json "http://127.0.0.1:$hp/redirect/0"
[ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == 200 and d["body"] == "hello\n"
assert d["finalUrl"] == "http://127.0.0.1:%s/hello" % sys.argv[2]
assert d["contentType"] == "text/plain" and d["truncated"] is False
assert d["bodyEncoding"] == "utf-8" and d["redirects"] == 1
' "$tmp/out" "$hp"
ok $? "--json gives status, final URL, content type, body, truncated"

run fetch "${L[@]}" --json "http://127.0.0.1:$hp/binary"
[ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["bodyEncoding"] == "base64" and d["body"] == "AP/+AQ=="
' "$tmp/out"
ok $? "--json gives a binary body as base64"

run fetch "${L[@]}" "${T[@]}" "https://test.cordon:$sp/hello"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = hello ]
ok $? "https with the test CA and --resolve test.cordon:127.0.0.1 works"

# The binary loads libssl when a fetch first needs TLS (cli/ssl_lazy.c):
# one that cannot be loaded fails the https fetch, saying which library
# and why; plain http does not need it.
# https_fails_with DIR TEXT: the https fetch with DIR first on the
# loader's path fails, prints nothing and says TEXT.
https_fails_with() {
	LD_LIBRARY_PATH=$1 run fetch "${L[@]}" "${T[@]}" \
		"https://test.cordon:$sp/hello"
	[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] &&
		grep -qF "TLS setup failed: libssl.so.3 (TLS) $2" "$tmp/err"
}
mkdir -p "$tmp/nossl"
echo 'not a shared object' >"$tmp/nossl/libssl.so.3"
https_fails_with "$tmp/nossl" "cannot be loaded: $tmp/nossl/libssl.so.3"
ok $? "https without a loadable libssl fails, naming the library and the reason"
LD_LIBRARY_PATH=$tmp/nossl run fetch "${L[@]}" "http://127.0.0.1:$hp/hello"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = hello ]
ok $? "plain http needs no libssl"
# A libssl.so.3 that loads but is not OpenSSL's: the first function it
# lacks is named, and the fetch fails the same way.
mkdir -p "$tmp/fakessl"
if ! echo 'int not_openssl;' | ${CC:-cc} -shared -fPIC -x c - \
	-o "$tmp/fakessl/libssl.so.3" 2>/dev/null; then
	skip "a libssl.so.3 without OpenSSL's functions fails the fetch" \
		"no C compiler"
else
	https_fails_with "$tmp/fakessl" "lacks TLS_client_method: "
	ok $? "a libssl.so.3 without OpenSSL's functions fails the fetch, naming the first"
fi

run fetch "${T[@]}" "https://test.cordon:$sp/hello"
[ $rc -eq 1 ] && grep -q 'test.cordon is denied: 127.0.0.1 is loopback' "$tmp/err"
ok $? "a resolve override to loopback is still judged by the guard"

run fetch "${L[@]}" --cacert "$tmp/ca.pem" --resolve wrong.cordon:127.0.0.1 \
	"https://wrong.cordon:$sp/hello"
[ $rc -eq 1 ] && grep -q 'certificate' "$tmp/err"
ok $? "a certificate for another hostname fails"

run fetch "${L[@]}" --resolve test.cordon:127.0.0.1 "https://test.cordon:$sp/hello"
[ $rc -eq 1 ] && grep -q 'certificate' "$tmp/err"
ok $? "without the test CA the certificate is not trusted"

run fetch "${L[@]}" --cacert "$tmp/ca.pem" "https://127.0.0.1:$sp/hello"
[ $rc -eq 1 ] && grep -q 'certificate' "$tmp/err"
ok $? "an IP literal is checked against the certificate's addresses"

run fetch "${L[@]}" "${T[@]}" "https://test.cordon:$sp/to-http/$hp"
[ $rc -eq 1 ] && grep -q 'from https to http' "$tmp/err"
ok $? "a redirect from https to http is refused"

run fetch "${L[@]}" --max-bytes 1000 --json "http://127.0.0.1:$hp/big"
[ $rc -eq 0 ] && grep -q 'truncated at 1000 bytes' "$tmp/err" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["truncated"] is True and d["body"] == "x" * 1000
' "$tmp/out"
ok $? "a body over --max-bytes is cut and said truncated"

run fetch "${L[@]}" "http://127.0.0.1:$hp/big"
[ $rc -eq 0 ] && [ "$(wc -c <"$tmp/out")" -eq 100000 ] && [ ! -s "$tmp/err" ]
ok $? "a body under the cap is whole and not flagged"

start=$(date +%s%N)
run fetch "${L[@]}" --timeout 1 "http://127.0.0.1:$gp/"
el=$((($(date +%s%N) - start) / 1000000))
[ $rc -eq 1 ] && grep -q 'timed out' "$tmp/err" && [ $el -lt 3000 ]
ok $? "a server that never answers hits the 1 s timeout (took ${el} ms)"

run fetch ftp://127.0.0.1/x
[ $rc -eq 1 ] && grep -q 'scheme "ftp" is not allowed' "$tmp/err"
ok $? "ftp:// is refused"

run fetch file:///etc/passwd
[ $rc -eq 1 ] && grep -q 'scheme "file" is not allowed' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "file:// is refused"

run fetch "${L[@]}" "http://user:pw@127.0.0.1:$hp/hello"
[ $rc -eq 1 ] && grep -q 'credentials' "$tmp/err"
ok $? "userinfo in the URL is refused"

run fetch "${L[@]}" "http://127.0.0.1:$hp/chunked"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "hello world" ]
ok $? "a chunked body with an extension and a trailer is decoded"

run fetch "${L[@]}" "http://127.0.0.1:$hp/close"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "until close" ]
ok $? "a close-delimited body is read to the end"

fails=0
for p in dup-cl cl-te te-list; do
	run fetch "${L[@]}" "http://127.0.0.1:$hp/$p"
	[ $rc -eq 1 ] && grep -q 'ambiguous framing' "$tmp/err" || fails=1
done
rc=$fails
ok $fails "duplicate Content-Length, CL with TE and 'chunked,' are refused"

run fetch "${L[@]}" "http://127.0.0.1:$hp/huge-head"
[ $rc -eq 1 ] && grep -q 'head limit' "$tmp/err"
ok $? "an answer head over 16 KiB is refused naming the limit"

run fetch "${L[@]}" "http://127.0.0.1:$hp/short"
[ $rc -eq 1 ] && grep -q 'closed after 5 of 100 body bytes' "$tmp/err"
ok $? "a body shorter than its Content-Length fails"

run fetch "${L[@]}" "http://127.0.0.1:$hp/ua"
[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "cordon-fetch/0.1.0|127.0.0.1:$hp|identity" ]
ok $? "the request carries the fixed User-Agent, Host and identity encoding"

run fetch "${L[@]}" "${T[@]}" "https://test.cordon:$sp/close"
[ $rc -eq 1 ] && grep -q 'without close_notify' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "an https body ended by a close without close_notify is not trusted"

run fetch "${L[@]}" "${T[@]}" --timeout 1 "https://test.cordon:$gp/"
[ $rc -eq 1 ] && grep -q 'timed out in the TLS handshake' "$tmp/err"
ok $? "a server that never finishes the TLS handshake hits the timeout"

run fetch --deny-range 8.8.8.0/24 http://8.8.8.8/
[ $rc -eq 1 ] && grep -q 'address 8.8.8.8 is configured' "$tmp/err"
ok $? "an extra denied range refuses a public address before any connect"

run fetch --deny-range 10.1.2.3/8 http://8.8.8.8/
[ $rc -eq 2 ] && grep -q 'host bits set' "$tmp/err"
ok $? "a malformed denied range is a usage error naming it"
