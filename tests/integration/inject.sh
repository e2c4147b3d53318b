#!/usr/bin/env bash
# Credential injection (`cordon proxy --inject-*` and `cordon run
# --network proxy --inject-*`) against the built binary ($CORDON_BIN):
# the script makes a CA and a leaf certificate for api.cordon.test with
# the openssl CLI and starts an HTTPS server on loopback that answers with
# the request head it received. The proxy is told that loopback is fine
# for the injected host (--inject-allow-loopback, a test-only option).
# Needs python3, curl and openssl; skips everything without them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
need python3 curl openssl
export XDG_CACHE_HOME=$tmp/cache
mkdir -p "$tmp/ws" "$tmp/cache"
secret="s3cret-$$-$RANDOM-token"
export INJECT_SECRET=$secret

# The CA and the leaf (api.cordon.test and localhost), and a second CA
# the proxy is not told about.
make_certs api.cordon.test DNS:api.cordon.test,DNS:localhost
(
	cd "$tmp" || exit 1
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other CA" \
		-keyout other.key -out other.pem
) >>"$tmp/openssl.log" 2>&1 ||
	skip_all "openssl cannot make the test certificates"

cat >"$tmp/srv.py" <<'EOF'
import base64, http.server, socketserver, ssl, sys, time

# Answers with the request head it received (an echo endpoint), and logs
# it to argv[2]. /split writes the echo in two TLS records cut inside the
# secret; /header quotes the Authorization header in an answer header.
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def answer(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n) if n else b""
        b = (self.requestline + "\n" + str(self.headers)).encode() + \
            b"body=" + body + b"\n"
        if self.path == "/encoded":
            # a debug endpoint that dumps the credential encoded
            tok = self.headers.get("Authorization", "")[7:].encode()
            b = b"b64=" + base64.b64encode(tok) + b"\nurl=" + \
                base64.urlsafe_b64encode(b"xy" + tok) + b"\nhex=" + \
                tok.hex().encode() + b"\nHEX=" + tok.hex().upper().encode() + \
                b"\n"
        with open(sys.argv[2], "ab") as log:
            log.write(b + b"==\n")
        self.send_response(200)
        self.send_header("Content-Length", str(len(b)))
        self.send_header("Connection", "close")
        if self.path == "/header":
            self.send_header("X-Echo", self.headers.get("Authorization", ""))
        self.end_headers()
        if self.path == "/split":
            cut = b.find(b"Bearer ") + 12
            self.wfile.write(b[:cut])
            self.wfile.flush()
            time.sleep(0.2)
            b = b[cut:]
        self.wfile.write(b)
        self.close_connection = True
    do_GET = do_POST = do_TRACE = do_TRACK = answer
    def log_message(self, *a):
        pass

class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

d = sys.argv[1]
s = S(("127.0.0.1", 0), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(d + "/leaf.pem", d + "/leaf.key")
s.socket = ctx.wrap_socket(s.socket, server_side=True)
print(s.server_address[1], flush=True)
s.serve_forever()
EOF
serve sport python3 "$tmp/srv.py" "$tmp" "$tmp/upstream.log" ||
	skip_all "the HTTPS test server did not start"

api=api.cordon.test
inj=(--allow-host "$api" --resolve "$api:127.0.0.1" --inject-host "$api"
	--inject-secret-env INJECT_SECRET --inject-cacert "$tmp/ca.pem"
	--inject-port "$sport" --inject-allow-loopback)

# Usage errors.
( unset INJECT_SECRET; "$bin" proxy --listen 127.0.0.1:0 "${inj[@]}" ) \
	>"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'INJECT_SECRET is not set'
ok $? "an unset secret variable refuses to start"
"$bin" proxy --listen 127.0.0.1:0 --inject-host "$api" >"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'go together'
ok $? "--inject-host without --inject-secret-env is a usage error"
"$bin" proxy --listen 127.0.0.1:0 "${inj[@]}" --inject-format 'Bearer %s %s' \
	>"$tmp/out" 2>&1
[ $? -eq 2 ] && has 'exactly one'
ok $? "a format with two %s is refused"

# The binary does not link libssl (cli/ssl_lazy.c): an injecting proxy
# loads it, with libcrypto.so.3, when it sets up its TLS client, and the
# requests below go through it. hook_startup.sh checks that a hook call
# does not.
start_proxy "${inj[@]}"
[ -n "$px" ]
ok $? "the proxy starts with an injection rule"
grep -q '/libssl\.so\.3$' "/proc/$pxpid/maps" &&
	grep -q '/libcrypto\.so\.3$' "/proc/$pxpid/maps"
ok $? "the injecting proxy has libssl.so.3 and libcrypto.so.3 mapped"

curl -sS -m 20 -x "http://$px" --noproxy '' --trace-ascii "$tmp/trace" \
	-H "Authorization: Basic Y2xpZW50OnNlY3JldA==" -H "Cookie: a=b" \
	-H "X-Api-Key: client-key" -H "X-Other: kept" \
	"http://$api/v1/models?x=1" >"$tmp/out" 2>"$tmp/err"
ok $? "a plain-HTTP request for the injected host is answered"
grep -qx "GET /v1/models?x=1 HTTP/1.1" "$tmp/out"
ok $? "the upstream got the request in origin form"
grep -qxF "Authorization: Bearer $secret" "$tmp/upstream.log" &&
	[ "$(grep -ci '^authorization:' "$tmp/upstream.log")" -eq 1 ]
ok $? "the upstream got Authorization: Bearer SECRET, once"
! grep -qi '^cookie:\|^x-api-key:\|Basic Y2xp\|client-key' "$tmp/upstream.log"
ok $? "the client's Authorization, Cookie and X-Api-Key were stripped"
grep -qx "X-Other: kept" "$tmp/upstream.log" &&
	grep -qix "Host: $api:$sport" "$tmp/upstream.log"
ok $? "other headers are kept, Host names the injected host"

# An upstream that echoes the request must not hand the secret back: the
# answer is scrubbed as it streams (head and body, across TLS records).
stars=$(printf '%s' "$secret" | sed 's/./*/g')
! grep -qF "$secret" "$tmp/out" &&
	grep -qxF "Authorization: Bearer $stars" "$tmp/out"
ok $? "an echo of the request reaches the client with the secret masked"
: >"$tmp/upstream.log"
curl -sS -m 20 -x "http://$px" --noproxy '' -D "$tmp/hdr" \
	"http://$api/header" >"$tmp/out" 2>"$tmp/err"
grep -qF "$secret" "$tmp/upstream.log" && ! grep -qF "$secret" "$tmp/hdr" &&
	grep -qiF "X-Echo: Bearer $stars" "$tmp/hdr"
ok $? "an answer header quoting the secret is masked"
curl -sS -m 20 -x "http://$px" --noproxy '' "http://$api/split" \
	>"$tmp/out" 2>"$tmp/err"
! grep -qF "$secret" "$tmp/out" && grep -qF "Bearer $stars" "$tmp/out"
ok $? "a secret cut across two TLS records is masked"

: >"$tmp/upstream.log"
curl -sS -m 20 -x "http://$px" --noproxy '' "http://$api/encoded" \
	>"$tmp/out" 2>"$tmp/err"
b64=$(printf '%s' "$secret" | base64 -w0 | cut -c1-16)
hex=$(printf '%s' "$secret" | od -An -tx1 | tr -d ' \n')
grep -q '^b64=\*\{16\}' "$tmp/out" && ! grep -qF "$b64" "$tmp/out" &&
	! grep -qiF "$hex" "$tmp/out" && grep -q '^hex=\*\{16\}' "$tmp/out" &&
	grep -q '^HEX=\*\{16\}' "$tmp/out" && grep -qF "$b64" "$tmp/upstream.log"
ok $? "the secret's base64 (both alphabets, any alignment) and hex are masked too"

# Methods whose answer is the request are refused outright, any case.
for m in TRACE TRACK trace Track; do
	: >"$tmp/upstream.log"
	curl -s -m 20 -x "http://$px" --noproxy '' -X "$m" -o "$tmp/out" \
		-w '%{http_code}' "http://$api/echo" >"$tmp/code"
	[ "$(cat "$tmp/code")" = 405 ] && [ ! -s "$tmp/upstream.log" ] &&
		! grep -qF "$secret" "$tmp/out"
	ok $? "$m with an injected credential gets 405, nothing sent upstream"
done

# Host is the rule's name (as TLS names the peer), however the client
# spells it; no compression or ranges, which would hide or cut the secret
# from the scrub.
: >"$tmp/upstream.log"
curl -sS -m 20 -x "http://$px" --noproxy '' -H 'Accept-Encoding: gzip' \
	-H 'Range: bytes=3-' "http://API.Cordon.TEST.:80/x" >"$tmp/out" 2>"$tmp/err"
grep -qix "Host: $api:$sport" "$tmp/upstream.log" &&
	[ "$(grep -ci '^host:' "$tmp/upstream.log")" -eq 1 ] &&
	grep -qix "Accept-Encoding: identity" "$tmp/upstream.log" &&
	! grep -qi '^range:\|gzip' "$tmp/upstream.log"
ok $? "Host is the rule's name; Accept-Encoding identity; Range dropped"
awk '/^=> Send/ { s = 1; print; next } /^(<=|==|=>)/ { s = 0 } s' \
	"$tmp/trace" >"$tmp/sent"
grep -q "X-Other: kept" "$tmp/sent" && ! grep -qF "$secret" "$tmp/sent" &&
	! grep -qF "$secret" "$tmp/trace"
ok $? "the secret is nowhere in what the client sent or got back"

curl -sS -m 20 -x "http://$px" --noproxy '' -d 'hello=body' \
	"http://$api/post" >"$tmp/out" 2>"$tmp/err"
grep -qx "body=hello=body" "$tmp/out" && grep -qx "POST /post HTTP/1.1" "$tmp/out"
ok $? "a Content-Length body is forwarded"

curl -s -m 20 -x "http://$px" --noproxy '' -H 'Transfer-Encoding: chunked' \
	-d 'x' -o "$tmp/out" -w '%{http_code}' "http://$api/post" >"$tmp/code"
[ "$(cat "$tmp/code")" = 501 ]
ok $? "a chunked request body gets 501"

curl -s -m 20 -p -x "http://$px" --noproxy '' -o /dev/null \
	-w '%{http_code}' "http://$api/" >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" != 200 ] &&
	grep -q "deny connect $api:80: the credential-injection rule" \
		"$tmp/px.log"
ok $? "CONNECT to the injected host is refused"
printf 'CONNECT %s:443 HTTP/1.1\r\nHost: %s:443\r\n\r\n' "$api" "$api" |
	curl -s -m 10 telnet://"$px" >"$tmp/out" 2>/dev/null
head -1 "$tmp/out" | grep -q "^HTTP/1.1 403" &&
	has "X-Proxy-Error: injection-needs-plain-http"
ok $? "CONNECT to the injected host gets 403 injection-needs-plain-http"

curl -s -m 20 -x "http://$px" --noproxy '' -o /dev/null -w '%{http_code}' \
	"http://$api:8080/" >"$tmp/out"
[ "$(cat "$tmp/out")" = 403 ]
ok $? "a plain request for the injected host on another port gets 403"

curl -s -m 20 -x "http://$px" --noproxy '' -o /dev/null -w '%{http_code}' \
	"http://other.cordon.test/" >"$tmp/out"
[ "$(cat "$tmp/out")" = 405 ]
ok $? "with injection, plain HTTP to another host gets 405 (use CONNECT)"

curl -s -m 20 -x "http://$px" --noproxy '' -D "$tmp/hdr" -o /dev/null \
	-w '%{http_code}' -H "Host: $api" "http://other.cordon.test/" >"$tmp/out"
[ "$(cat "$tmp/out")" = 403 ] &&
	grep -qi "X-Proxy-Error: injection-host-mismatch" "$tmp/hdr"
ok $? "an absolute URI for another host with Host: the injection host gets 403"
stop_proxy

# A CA the proxy does not trust: 502, and nothing sent upstream.
start_proxy --allow-host "$api" --resolve "$api:127.0.0.1" --inject-host "$api" \
	--inject-secret-env INJECT_SECRET --inject-cacert "$tmp/other.pem" \
	--inject-port "$sport" --inject-allow-loopback
curl -s -m 20 -x "http://$px" --noproxy '' -D - "http://$api/" >"$tmp/out"
head -1 "$tmp/out" | grep -q "^HTTP/1.1 502" &&
	has "upstream-tls-failed" && has "certificate"
ok $? "an untrusted certificate gets 502 (verification on)"
stop_proxy

# Without the test-only loopback option the guard refuses loopback.
start_proxy --allow-host "$api" --resolve "$api:127.0.0.1" --inject-host "$api" \
	--inject-secret-env INJECT_SECRET --inject-cacert "$tmp/ca.pem" \
	--inject-port "$sport"
curl -s -m 20 -x "http://$px" --noproxy '' -D - "http://$api/" >"$tmp/out"
head -1 "$tmp/out" | grep -q "^HTTP/1.1 403" &&
	has "blocked-by-address-class"
ok $? "the address guard applies to the injected host"
stop_proxy

# A libssl.so.3 that cannot be loaded (found first through
# LD_LIBRARY_PATH, as the loader's search is): the proxy refuses to start,
# naming the library and the loader's reason, and nothing reaches the
# upstream; it never falls back to plain HTTP.
mkdir -p "$tmp/nossl"
echo 'not a shared object' >"$tmp/nossl/libssl.so.3"
: >"$tmp/upstream.log"
LD_LIBRARY_PATH=$tmp/nossl timeout 20 "$bin" proxy --listen 127.0.0.1:0 \
	"${inj[@]}" >"$tmp/out" 2>&1
st=$?
[ $st -ne 0 ] && [ $st -ne 124 ] &&
	has "TLS: cannot set up the injection's client: libssl.so.3 (TLS) cannot be loaded: $tmp/nossl/libssl.so.3" &&
	[ ! -s "$tmp/upstream.log" ]
ok $? "without a loadable libssl the injecting proxy refuses to start, saying why"

# cordon run: the secret stays outside, the request arrives with it.
best=$("$bin" run --probe 2>/dev/null | sed -n 's/^best: //p')
if [ "$best" = namespaces ]; then
	cd "$tmp/ws" || exit 1
	"$bin" run --backend namespaces --network proxy --inject-host localhost \
		--inject-secret-env INJECT_SECRET --inject-cacert "$tmp/ca.pem" \
		--inject-port "$sport" --inject-allow-loopback -- \
		sh -c 'env; echo ==environ; tr "\0" "\n" </proc/self/environ;
			echo ==curl; curl -sS -m 20 -x "$HTTP_PROXY" \
			--noproxy "" -H "Authorization: Bearer mine" \
			http://localhost/from-sandbox' >"$tmp/out" 2>"$tmp/err"
	st=$?
	grep -qx "GET /from-sandbox HTTP/1.1" "$tmp/out" &&
		grep -qxF "Authorization: Bearer $secret" "$tmp/upstream.log" &&
		! grep -qF "$secret" "$tmp/out" &&
		! grep -q "Bearer mine" "$tmp/upstream.log"
	ok $((st + $?)) "run: the sandbox's plain-HTTP request arrives with the secret injected"
	sed '/^==curl$/q' "$tmp/out" >"$tmp/envs"
	grep -q "^==environ" "$tmp/envs" && ! grep -q INJECT_SECRET "$tmp/envs" &&
		! grep -qF "$secret" "$tmp/envs"
	ok $? "run: the secret is absent from the command's env and /proc/self/environ"

	: >"$tmp/upstream.log"
	LD_LIBRARY_PATH=$tmp/nossl "$bin" run --backend namespaces \
		--network proxy --inject-host localhost \
		--inject-secret-env INJECT_SECRET --inject-cacert "$tmp/ca.pem" \
		--inject-port "$sport" --inject-allow-loopback -- \
		sh -c 'curl -sS -m 20 -x "$HTTP_PROXY" --noproxy "" \
			http://localhost/from-sandbox; echo curl ended' \
		>"$tmp/out" 2>&1
	st=$?
	[ $st -eq 125 ] && ! grep -qx 'curl ended' "$tmp/out" &&
		has "network proxy: TLS: cannot set up the injection's client: libssl.so.3 (TLS) cannot be loaded" &&
		[ ! -s "$tmp/upstream.log" ]
	ok $? "run: without a loadable libssl the run is refused (125), saying why, and nothing reaches the upstream"

	# The proxy is made before the command gets its seccomp program, so a
	# proxy that cannot start ends the run before the command has run at
	# all (before, the command started and was killed after).
	echo 'not a certificate' >"$tmp/bad.pem"
	for how in nossl badca; do
		rm -f "$tmp/ws/ran"
		ca=$tmp/ca.pem lib=
		[ $how = badca ] && ca=$tmp/bad.pem
		[ $how = nossl ] && lib=$tmp/nossl
		LD_LIBRARY_PATH=$lib "$bin" run --backend namespaces \
			--network proxy --inject-host localhost \
			--inject-secret-env INJECT_SECRET --inject-cacert "$ca" \
			--inject-port "$sport" --inject-allow-loopback -- \
			sh -c ': >ran' >"$tmp/out" 2>&1
		st=$?
		[ $st -eq 125 ] && has "network proxy:" && [ ! -e "$tmp/ws/ran" ]
		ok $? "run ($how): a proxy that cannot start refuses the run before the command runs"
	done
else
	for _ in 1 2 3 4 5; do
		skip "namespaces" "user namespaces do not work here"
	done
fi
done_testing
