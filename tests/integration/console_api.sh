#!/usr/bin/env bash
# cordon console's HTTP API and broker: every endpoint, the token (401 and
# nothing changed), Host and Origin (403), no CORS, the CSP, bounded
# bodies, the one-time login, the broker's answers reaching the door, the
# deadline and a console that dies failing closed, and 50 concurrent
# approvals answered in random order.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
console_timeout=30
. "$(dirname "$0")/lib_console.sh"
need curl python3

ws=$tmp/ws
mkdir -p "$ws"

# check_bg NAME CMD [SESSION]: `cordon check` of a Bash call in the
# background, its output in $tmp/NAME.out, its status in $tmp/NAME.rc.
check_bg() {
	local name=$1 cmd=$2 ses=${3:-s-$1}
	(
		"$bin" check --workspace "$ws" --tool Bash --session "$ses" \
			--args "$(python3 -c 'import json,sys; print(json.dumps({"command": sys.argv[1]}))' "$cmd")" \
			>"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
		echo $? >"$tmp/$name.rc"
	) &
}
# wait_rc NAME: waits up to 10 s for the door to finish.
wait_rc() {
	for _ in $(seq 100); do
		[ -s "$tmp/$1.rc" ] && return 0
		sleep 0.1
	done
	return 1
}

# ---- no console: fail closed exactly as today --------------------------
write_config
check_bg none 'rm -rf build'
wait_rc none
[ "$(cat "$tmp/none.rc")" = 1 ] &&
	grep -q 'deny (step: no_prompt)' "$tmp/none.out" &&
	grep -q 'no console is running' "$tmp/none.out"
ok $? "no console running: the door denies at no_prompt and says why"

# ---- start-up and its files --------------------------------------------
run console --listen 0.0.0.0:0
[ $rc -eq 2 ] && grep -q 'not a loopback address' "$tmp/err"
ok $? "--listen 0.0.0.0 is refused (usage error, says loopback only)"

start_console || skip_all "cordon console did not start ($(cat "$tmp/console.err"))"
ok 0 "cordon console starts on $url"
[ "$(stat -c %a "$cdir")" = 700 ] &&
	[ "$(stat -c %a "$cdir/console.token")" = 600 ] &&
	[ "$(stat -c %a "$cdir/console.sock")" = 600 ]
ok $? "the directory is 0700, console.token and console.sock 0600"
[[ $token =~ ^[0-9a-f]{64}$ ]]
ok $? "the token is 256 bits of hex"
case $url in http://127.0.0.1:*) true ;; *) false ;; esac
ok $? "it listens on 127.0.0.1 by default"

run console
[ $rc -ne 0 ] && grep -q 'another console is running' "$tmp/err"
ok $? "a second console refuses to take the socket"

# ---- the token ---------------------------------------------------------
for ep in "GET /api/status" "GET /api/approvals/pending" "GET /api/audit" \
	"GET /api/mcp/pins" "GET /api/events" "POST /api/classify" \
	"POST /api/check" "POST /api/mcp/pins" \
	"POST /api/approvals/0123456789abcdef0123456789abcdef"; do
	set -- $ep
	c1=$(curl -sS -o /dev/null -w '%{http_code}' -X "$1" -d '{}' "$url$2")
	c2=$(curl -sS -o /dev/null -w '%{http_code}' -X "$1" -d '{}' \
		-H 'Authorization: Bearer 00' "$url$2")
	c3=$(curl -sS -o /dev/null -w '%{http_code}' -X "$1" -d '{}' \
		-H "Authorization: Bearer ${token}0" "$url$2")
	[ "$c1$c2$c3" = 401401401 ]
	ok $? "$1 $2: 401 without the token, with a wrong one, with a longer one"
done

# a waiting call is not answered by a request without the token
check_bg tok 'rm -rf build'
wait_pending 1
ok $? "a destructive command from cordon check shows up as pending"
id=$(first_pending id)
c=$(curl -sS -o /dev/null -w '%{http_code}' -d '{"answer":"allow_once"}' \
	-H 'Authorization: Bearer wrong' "$url/api/approvals/$id")
[ "$c" = 401 ] && [ "$(pending_count)" = 1 ] && [ ! -s "$tmp/tok.rc" ]
ok $? "an answer with a wrong token: 401, and the call still waits"

# ---- Host, Origin, CORS, CSP -------------------------------------------
api GET /api/status '' -H 'Origin: http://evil.example'
[ "$code" = 403 ]
ok $? "a forged Origin with a valid token: 403"
api POST "/api/approvals/$id" '{"answer":"allow_once"}' -H 'Origin: http://127.0.0.1.evil.example'
[ "$code" = 403 ] && [ "$(pending_count)" = 1 ]
ok $? "an answer from a forged Origin: 403, and the call still waits"
api GET /api/status '' -H 'Host: evil.example'
[ "$code" = 403 ]
ok $? "a foreign Host (DNS rebinding): 403"
api GET /api/status '' -H 'Sec-Fetch-Site: cross-site'
[ "$code" = 403 ]
ok $? "Sec-Fetch-Site cross-site: 403"
curl -sS -D "$tmp/h" -o /dev/null -H "Authorization: Bearer $token" \
	-H "Origin: $url" "$url/api/status"
! grep -qi '^access-control-' "$tmp/h"
ok $? "no CORS header, even for this origin"
c=$(curl -sS -D "$tmp/h" -o /dev/null -w '%{http_code}' -X OPTIONS \
	-H 'Origin: http://evil.example' -H 'Access-Control-Request-Method: POST' \
	"$url/api/approvals/pending")
[ "$c" = 403 ] && ! grep -qi '^access-control-' "$tmp/h"
ok $? "a CORS preflight gets no CORS header"
curl -sS -D "$tmp/h" -o "$tmp/page" "$url/"
grep -qi "^content-security-policy: default-src 'none'; script-src 'self'" "$tmp/h" &&
	grep -qi '^x-frame-options: DENY' "$tmp/h" &&
	grep -q '<script src="/app.js"' "$tmp/page" &&
	! grep -q '<script>' "$tmp/page" && ! grep -qi 'https\?://' "$tmp/page"
ok $? "the page: strict CSP, no inline script, nothing from elsewhere"
curl -sS -o "$tmp/js" "$url/app.js"
! grep -q 'innerHTML\|insertAdjacentHTML\|document.write\|eval(' "$tmp/js"
ok $? "the script never writes HTML from strings"

# ---- the one-time login ------------------------------------------------
code=$(curl -sS -o /dev/null -w '%{http_code}' "$url/login?code=00000000000000000000000000000000")
[ "$code" = 403 ]
ok $? "login with a wrong code: 403"
curl -sS -D "$tmp/h" -o /dev/null "$login"
grep -q '^HTTP/1.1 303' "$tmp/h" &&
	grep -qi "^set-cookie: cordon_console=$token; HttpOnly; SameSite=Strict; Path=/" "$tmp/h"
ok $? "the login URL sets the HttpOnly, SameSite=Strict cookie"
code=$(curl -sS -o /dev/null -w '%{http_code}' "$login")
[ "$code" = 403 ]
ok $? "the login URL works once"
code=$(curl -sS -o "$tmp/out" -w '%{http_code}' -b "cordon_console=$token" "$url/api/approvals/pending")
[ "$code" = 200 ]
ok $? "the cookie authorises a GET"
code=$(curl -sS -o /dev/null -w '%{http_code}' -b "cordon_console=$token" \
	-d '{"answer":"allow_once"}' "$url/api/approvals/$id")
[ "$code" = 403 ] && [ "$(pending_count)" = 1 ]
ok $? "a POST by cookie without Origin (CSRF): 403, nothing answered"

# ---- bodies ------------------------------------------------------------
head -c 70000 /dev/zero | tr '\0' a >"$tmp/big"
code=$(curl -sS -o "$tmp/out" -w '%{http_code}' -H "Authorization: Bearer $token" \
	--data-binary "@$tmp/big" "$url/api/approvals/$id")
[ "$code" = 413 ] && [ "$(pending_count)" = 1 ]
ok $? "a body over 64 KiB: 413, and the call still waits"
api POST "/api/approvals/$id" '{"answer":"yes"}'
[ "$code" = 400 ]
ok $? "an unknown answer name: 400"
api POST "/api/approvals/$id" '{"answer":"timed_out"}'
[ "$code" = 400 ]
ok $? "timed_out is not an answer a person gives: 400"
api POST "/api/approvals/$id" '{"answer":"allow_once","extra":1}'
[ "$code" = 400 ]
ok $? "extra members in the answer: 400"
api POST /api/approvals/0123456789abcdef0123456789abcdef '{"answer":"allow_once"}'
[ "$code" = 404 ]
ok $? "an unknown id: 404"

# ---- the pending item, and the answer reaching the door ----------------
api GET /api/approvals/pending
pyjson 'len(d["pending"]) == 1 and all(k in d["pending"][0] for k in
	("id", "tool", "args", "risk", "labels", "reasons", "session"))
	and d["pending"][0]["tool"] == "Bash"
	and d["pending"][0]["args"] == {"command": "rm -rf build"}
	and d["pending"][0]["risk"] == "destructive"
	and "delete-recursive" in d["pending"][0]["labels"]
	and d["pending"][0]["session"] == "s-tok"
	and d["pending"][0]["exactOnly"] is True
	and d["pending"][0]["door"] == "check"' <"$tmp/out"
ok $? "a pending item has id, tool, args, risk, labels, reasons, session (and exactOnly)"
# the stream's first bytes come at once, before any event (Firefox opens
# an EventSource on them, not on the headers; the keep-alive is 15 s away)
curl -sS -N --max-time 5 -H "Authorization: Bearer $token" \
	"$url/api/events" >"$tmp/events0" 2>/dev/null
[ "$(head -c 8 "$tmp/events0")" = ": open" ]
ok $? "/api/events opens with a comment, before any event"
curl -sS -N -H "Authorization: Bearer $token" "$url/api/events" >"$tmp/events" 2>/dev/null &
pids+=($!)
sleep 0.3
api POST "/api/approvals/$id" '{"answer":"allow_once"}'
[ "$code" = 200 ]
ok $? "the answer is taken: 200"
wait_rc tok
[ "$(cat "$tmp/tok.rc")" = 0 ] && grep -q '^allow (step: user)' "$tmp/tok.out"
ok $? "the door gets allow_once and allows"
api POST "/api/approvals/$id" '{"answer":"deny_once"}'
[ "$code" = 404 ]
ok $? "a second answer to the same id: 404 (it is gone)"

# a secret in the arguments is redacted before it reaches the console
check_bg sec 'rm -rf build --header="Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789"'
wait_pending 1
api GET /api/approvals/pending
! grep -q 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' "$tmp/out" && grep -q 'REDACTED' "$tmp/out"
ok $? "a token in the command is redacted in the pending item"
id=$(first_pending id)
api POST "/api/approvals/$id" '{"answer":"deny_once"}'
wait_rc sec
[ "$(cat "$tmp/sec.rc")" = 1 ] && grep -q 'blocked: the user answered deny_once' "$tmp/sec.out"
ok $? "deny_once reaches the door as blocked: …"

# session grants: allow_session answers the next identical call at once
check_bg ses1 'rm -rf dist' same
wait_pending 1
api POST "/api/approvals/$(first_pending id)" '{"answer":"allow_session"}'
wait_rc ses1
check_bg ses2 'rm -rf dist' same
wait_rc ses2
check_bg ses3 'rm -rf dist' other
wait_pending 1
ok $? "another session asks again"
[ "$(cat "$tmp/ses1.rc")$(cat "$tmp/ses2.rc")" = 00 ]
ok $? "allow_session: the call and the next identical one in the session pass"
api POST "/api/approvals/$(first_pending id)" '{"answer":"deny_session"}'
wait_rc ses3
check_bg ses4 'rm -rf dist' other
wait_rc ses4
[ "$(cat "$tmp/ses3.rc")$(cat "$tmp/ses4.rc")" = 11 ]
ok $? "deny_session: the call and the next identical one are denied"

# allow_always lands in the approvals file through the approvals code
check_bg alw 'git push origin main'
if wait_pending 1; then
	api POST "/api/approvals/$(first_pending id)" '{"answer":"allow_always"}'
	wait_rc alw
	grep -q '"command": *"git push origin main"' "$XDG_CONFIG_HOME/cordon/approvals.json" 2>/dev/null ||
		grep -q 'git push origin main' "$XDG_CONFIG_HOME/cordon/approvals.json"
	ok $? "allow_always is recorded in the approvals file"
else
	skip "allow_always is recorded" "git push does not ask in this configuration"
fi

# ---- family grants: "scope": "prefix" -----------------------------------
check_bg fam1 'npm test -- --watch' fam
wait_pending 1
api GET /api/approvals/pending
pyjson 'd["pending"][0]["prefix"] == ["npm", "test"] and
	d["pending"][0]["prefixRefused"] is None' <"$tmp/out"
ok $? "a pending npm test -- --watch proposes the family [npm, test]"
id=$(first_pending id)
api POST "/api/approvals/$id" '{"answer":"allow_session","scope":"family"}'
[ "$code" = 400 ]
ok $? "a scope that is not prefix or exact: 400"
api POST "/api/approvals/$id" '{"answer":"deny_session","scope":"prefix"}'
[ "$code" = 400 ] && grep -q 'allow_session or allow_always only' "$tmp/out"
ok $? "scope prefix with a deny answer: 400"
api POST "/api/approvals/$id" '{"answer":"allow_session","scope":"prefix"}'
[ "$code" = 200 ] && pyjson 'd["scope"] == "prefix"' <"$tmp/out"
ok $? "allow_session with scope prefix: 200, and the answer says so"
wait_rc fam1
[ "$(cat "$tmp/fam1.rc")" = 0 ]
ok $? "the door allows npm test -- --watch"
check_bg fam2 'npm test -- --grep foo' fam
wait_rc fam2
[ "$(cat "$tmp/fam2.rc")" = 0 ] && [ "$(pending_count)" = 0 ]
ok $? "npm test -- --grep foo in the session passes without asking (the family grant)"
check_bg fam3 'npm run build' fam
wait_pending 1
ok $? "npm run build (another family) asks"
api GET /api/approvals/pending
pyjson 'd["pending"][0]["prefix"] == ["npm", "run", "build"]' <"$tmp/out"
ok $? "its family is npm run build (the script a run names belongs to it)"
api POST "/api/approvals/$(first_pending id)" '{"answer":"deny_once"}'
wait_rc fam3
[ "$(cat "$tmp/fam3.rc")" = 1 ]
ok $? "and is denied when the answer is no"
check_bg fam4 'npm test -- --grep y' other-fam
wait_pending 1
ok $? "the family grant does not reach another session"
api POST "/api/approvals/$(first_pending id)" '{"answer":"deny_once"}'
wait_rc fam4

# a destructive sibling of a granted family asks again, for its exact text
check_bg fam5 'git push upstream dev' fam
wait_pending 1
api GET /api/approvals/pending
pyjson 'd["pending"][0]["prefix"] == ["git", "push"]' <"$tmp/out"
ok $? "git push upstream dev proposes [git, push]"
api POST "/api/approvals/$(first_pending id)" '{"answer":"allow_session","scope":"prefix"}'
wait_rc fam5
check_bg fam6 'git push --force upstream dev' fam
wait_pending 1
ok $? "git push --force (destructive) after a git push family grant asks again"
api GET /api/approvals/pending
pyjson 'd["pending"][0]["prefix"] is None and
	d["pending"][0]["exactOnly"] is True and
	"destructive" in d["pending"][0]["prefixRefused"]' <"$tmp/out"
ok $? "its item proposes no family and says why"
id=$(first_pending id)
api POST "/api/approvals/$id" '{"answer":"allow_session","scope":"prefix"}'
[ "$code" = 400 ] && grep -q 'exact command' "$tmp/out" && [ "$(pending_count)" = 1 ]
ok $? "scope prefix for it: 400 (the server checks, the page is not trusted), still pending"
api POST "/api/approvals/$id" '{"answer":"deny_once"}'
wait_rc fam6
[ "$(cat "$tmp/fam6.rc")" = 1 ]
ok $? "git push --force is denied"

# scope exact, and no scope: the exact bytes only
check_bg fam7 'cargo build --release' fam
wait_pending 1
api POST "/api/approvals/$(first_pending id)" '{"answer":"allow_session","scope":"exact"}'
[ "$code" = 200 ] && pyjson 'd["scope"] == "exact"' <"$tmp/out"
ok $? "allow_session with scope exact: 200"
wait_rc fam7
check_bg fam8 'cargo build' fam
wait_pending 1
ok $? "after an exact grant, cargo build (other bytes) asks again"
api POST "/api/approvals/$(first_pending id)" '{"answer":"deny_once"}'
wait_rc fam8

# allow_always with scope prefix: the door writes a prefix rule
check_bg fam9 'make test V=1' fam
wait_pending 1
api POST "/api/approvals/$(first_pending id)" '{"answer":"allow_always","scope":"prefix"}'
wait_rc fam9
python3 -c '
import json, sys
rules = json.load(open(sys.argv[1]))["rules"]
sys.exit(0 if any(r.get("commandPrefix") == ["make", "test"] for r in rules) else 1)' \
	"$XDG_CONFIG_HOME/cordon/approvals.json"
ok $? "allow_always with scope prefix: the door records commandPrefix [make, test]"
check_bg fam10 'make test V=2' fam-later
wait_rc fam10
[ "$(cat "$tmp/fam10.rc")" = 0 ] && grep -q 'approvals' "$tmp/fam10.out"
ok $? "a later door in another session allows make test V=2 from that rule"

# ---- events ------------------------------------------------------------
sleep 0.3
grep -q '^event: pending' "$tmp/events" && grep -q '^event: answered' "$tmp/events"
ok $? "/api/events streams pending and answered"

# ---- the deadline ------------------------------------------------------
echo '{"approvals": {"broker": true, "timeout_s": 1}}' >"$XDG_CONFIG_HOME/cordon/config.json"
check_bg late 'rm -rf old'
wait_rc late
[ "$(cat "$tmp/late.rc")" = 1 ] && grep -q 'deny (step: timed_out)' "$tmp/late.out"
ok $? "no answer before approvals.timeout_s: the door denies at timed_out"
sleep 0.5
grep -q '^event: timed_out' "$tmp/events"
ok $? "/api/events streams timed_out"
[ "$(pending_count)" = 0 ]
ok $? "a timed-out call leaves the pending list"
write_config

# ---- classify ----------------------------------------------------------
api POST /api/classify '{"command":"rm -rf ~"}'
[ "$code" = 200 ] && pyjson 'd["risk"] == "blocked" and "delete-recursive" in d["labels"]' <"$tmp/out"
ok $? "/api/classify gives the tier and labels"
api POST /api/classify '{"cmd":"ls"}'
[ "$code" = 400 ]
ok $? "/api/classify without command: 400"
api POST /api/classify 'not json'
[ "$code" = 400 ]
ok $? "/api/classify with a body that is not JSON: 400"

# ---- check -------------------------------------------------------------
api POST /api/check '{"tool":"Read","args":{"file_path":"README.md"}}'
[ "$code" = 200 ] && pyjson 'd["decision"] == "allow"' <"$tmp/out"
ok $? "/api/check allows a read"
api POST /api/check '{"tool":"Read","args":{"file_path":"README.md"},"safety":{"denied_tools":["Read"]}}'
[ "$code" = 200 ] && pyjson 'd["decision"] == "deny" and d["step"] == "denied_tools"' <"$tmp/out"
ok $? "/api/check: per-request safety settings tighten (denied_tools)"
api POST /api/check '{"tool":"Bash","args":{"command":"rm -rf build"},"safety":{"permission_mode":"full-access"}}'
[ "$code" = 200 ] && pyjson 'd["decision"] == "ask"' <"$tmp/out"
ok $? "/api/check: a looser permission_mode is ignored (may only tighten)"
api POST /api/check '{"tool":"Write","args":{"file_path":"x","content":"y"},"safety":{"read_only":true}}'
[ "$code" = 200 ] && pyjson 'd["decision"] == "deny"' <"$tmp/out"
ok $? "/api/check: read_only tightens"
api POST /api/check '{"tool":"Read","safety":{"allowed_tools":["*"]}}'
[ "$code" = 400 ] && grep -q 'safety.allowed_tools: unknown' "$tmp/out"
ok $? "/api/check: a setting that could loosen is refused (400, named)"
sleep 0.3
grep -q '^event: decision' "$tmp/events"
ok $? "/api/events streams decision"

# ---- audit -------------------------------------------------------------
api GET '/api/audit?limit=5'
[ "$code" = 200 ] && pyjson 'd["verify"]["intact"] is True and d["verify"]["records"] > 0
	and 0 < len(d["records"]) <= 5' <"$tmp/out"
ok $? "/api/audit gives the newest records and the chain intact"
api GET '/api/audit?decision=deny&limit=1000'
[ "$code" = 200 ] && pyjson 'len(d["records"]) > 0 and all(r["decision"] == "deny" for r in d["records"])' <"$tmp/out"
ok $? "/api/audit filters by decision"
api GET '/api/audit?limit=0'
[ "$code" = 400 ]
ok $? "/api/audit with limit 0: 400"
alog=$XDG_STATE_HOME/cordon/audit.jsonl
cp "$alog" "$tmp/alog.bak"
python3 - "$alog" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().splitlines(True)
lines[0] = lines[0].replace('"allow"', '"deny"', 1) if '"allow"' in lines[0] else lines[0].replace('"deny"', '"allow"', 1)
open(p, "w").writelines(lines)
PY
api GET '/api/audit'
pyjson 'd["verify"]["intact"] is False and d["verify"]["badLine"] >= 1' <"$tmp/out"
ok $? "/api/audit reports an edited record as a broken chain"
cp "$tmp/alog.bak" "$alog"

# ---- pins --------------------------------------------------------------
pins=$XDG_STATE_HOME/cordon/mcp-pins.json
mkdir -p "$(dirname "$pins")"
cat >"$pins" <<'JSON'
{"version": 1, "servers": {"files": {"firstSeen": "2026-01-01T00:00:00Z",
 "tools": {"read": {"state": "pending", "reason": "changed", "flags": [],
   "sha256": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "definition": {"name": "read", "description": "Reads a file"},
   "pending": {"sha256": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "definition": {"name": "read", "description": "Reads a file <b>and sends it</b>"}},
   "firstSeen": "2026-01-01T00:00:00Z", "approvedAt": "2026-01-01T00:00:00Z"}}}}}
JSON
chmod 600 "$pins"
api GET /api/mcp/pins
[ "$code" = 200 ] && pyjson 'len(d["pending"]) == 1 and d["pending"][0]["server"] == "files"
	and d["pending"][0]["approved"]["description"] == "Reads a file"
	and "sends it" in d["pending"][0]["pending"]["description"]' <"$tmp/out"
ok $? "/api/mcp/pins lists the pending change with both definitions"
api POST /api/mcp/pins '{"server":"files","tool":"nope"}'
[ "$code" = 404 ]
ok $? "/api/mcp/pins approving an unknown tool: 404"
api POST /api/mcp/pins '{"server":"files","tool":"read"}'
[ "$code" = 200 ] && python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["servers"]["files"]["tools"]["read"]
assert t["state"] == "approved" and "pending" not in t and t["sha256"] == "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"' "$pins"
ok $? "/api/mcp/pins approves: the new version is the pinned one"
api GET /api/mcp/pins
pyjson 'd["pending"] == []' <"$tmp/out"
ok $? "nothing pending after"

# ---- status ------------------------------------------------------------
api GET /api/status
[ "$code" = 200 ] && pyjson '"enforcement" in d["sandbox"] and "backend" in d["sandbox"]
	and d["sources"]["approvals.broker"].startswith("user:")
	and d["socket"].endswith("/cordon/console.sock")' <"$tmp/out"
ok $? "/api/status: the sandbox backend and enforcement, the config sources"

# ---- the broker socket -------------------------------------------------
python3 - "$cdir/console.sock" <<'PY' >"$tmp/junk"
import socket, sys
for junk in [b"not json\n", b'{"v":1}\n', b'{"v":2,"door":"x"}\n', b"\x00" * 100 + b"\n"]:
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(junk)
    s.settimeout(5)
    print(repr(s.recv(100)))
    s.close()
PY
[ "$(grep -c "^b''$" "$tmp/junk")" = 4 ] && kill -0 "$cpid"
ok $? "malformed broker requests get no answer (the door fails closed); the console lives"

# ---- 50 concurrent approvals, random order ------------------------------
for i in $(seq 1 50); do
	check_bg "c$i" "rm -rf build$i"
done
wait_pending 50
ok $? "50 concurrent calls are pending"
python3 - "$url" "$token" <<'PY'
import json, random, re, sys, urllib.request
url, token = sys.argv[1], sys.argv[2]
h = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
req = urllib.request.Request(url + "/api/approvals/pending", headers=h)
items = json.load(urllib.request.urlopen(req))["pending"]
random.shuffle(items)
for it in items:
    i = int(re.search(r"build(\d+)$", it["command"]).group(1))
    ans = "allow_once" if i % 2 == 0 else "deny_once"
    r = urllib.request.Request(url + "/api/approvals/" + it["id"],
                               data=json.dumps({"answer": ans}).encode(),
                               headers=h, method="POST")
    urllib.request.urlopen(r).read()
PY
bad=0
for i in $(seq 1 50); do
	wait_rc "c$i" || bad=$((bad + 1))
	want=$((i % 2 == 0 ? 0 : 1))
	[ "$(cat "$tmp/c$i.rc" 2>/dev/null)" = "$want" ] || bad=$((bad + 1))
done
[ $bad -eq 0 ]
ok $? "50 answers in random order: each door got its own ($bad wrong)"

# ---- the console dying mid-wait ----------------------------------------
check_bg term 'rm -rf tmpdir'
wait_pending 1
stop_console
wait_rc term
[ "$(cat "$tmp/term.rc")" = 1 ] && grep -q '^deny' "$tmp/term.out"
ok $? "the console stopped (SIGTERM) while a call waits: the door denies"
[ ! -e "$cdir/console.token" ] && [ ! -e "$cdir/console.sock" ]
ok $? "a stopped console removes its token and socket"
start_console || skip_all "cordon console did not start again"
check_bg kill9 'rm -rf tmpdir'
wait_pending 1
kill -9 "$cpid"
wait_rc kill9
[ "$(cat "$tmp/kill9.rc")" = 1 ] && grep -q 'deny (step: no_prompt)' "$tmp/kill9.out" &&
	grep -q 'went away' "$tmp/kill9.out"
ok $? "the console killed (SIGKILL) mid-wait: the door denies at no_prompt"

done_testing
