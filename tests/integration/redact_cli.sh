#!/usr/bin/env bash
# cordon redact: stdin to stdout with secrets replaced. A realistic mixed
# input, --count, --help and usage errors, private keys across lines,
# bytes that are not text, a line over the 64 MiB limit, a write error,
# and output that leaves as soon as its line is complete.
. "$(dirname "$0")/lib.sh"

# --- help and usage
run redact --help
[ $rc -eq 0 ] && grep -q '^usage: cordon redact' "$tmp/out" &&
	grep -q 'best' "$tmp/out"
ok $? "--help prints the usage (and says best effort) and exits 0"

run redact --bogus
[ $rc -eq 2 ] && grep -q "unknown option '--bogus'" "$tmp/err" &&
	[ ! -s "$tmp/out" ]
ok $? "an unknown option is a usage error (exit 2)"

run redact some-file
[ $rc -eq 2 ] && grep -q 'standard input' "$tmp/err"
ok $? "an operand is a usage error: input comes on stdin"

# --- a realistic mixed input
cat >"$tmp/in" <<'EOF'
$ export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJklmnop
$ curl -sS -H 'Authorization: Bearer abc123def456' "https://api.example.com/v1/items?token=t0k3n&page=2"
$ mysql -u app -pS3cretPass -h db.internal app < dump.sql
$ ls -p /tmp && mkdir -p build/out && git log -1 3f786850e387550fdab836ed7e6dc881de23001b
{"tool":"Bash","args":{"command":"psql postgres://admin:hunter2@db:5432/app"},"env":{"AWS_SECRET_ACCESS_KEY":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}
kubectl --token-file /var/run/secrets/token get pods -n prod
request 550e8400-e29b-41d4-a716-446655440000 took 12 ms; password was not logged
-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACBexampleexampleexampleexampleexampleexampleexampleAAAA
-----END OPENSSH PRIVATE KEY-----
pip install sk-learn  # not a key
EOF
cat >"$tmp/want" <<'EOF'
$ export GITHUB_TOKEN=[REDACTED:github-pat]
$ curl -sS -H 'Authorization: Bearer [REDACTED]' "https://api.example.com/v1/items?token=[REDACTED]&page=2"
$ mysql -u app -p[REDACTED] -h db.internal app < dump.sql
$ ls -p /tmp && mkdir -p build/out && git log -1 3f786850e387550fdab836ed7e6dc881de23001b
{"tool":"Bash","args":{"command":"psql postgres://admin:[REDACTED]@db:5432/app"},"env":{"AWS_SECRET_ACCESS_KEY":"[REDACTED:aws-secret-key]"}}
kubectl --token-file /var/run/secrets/token get pods -n prod
request 550e8400-e29b-41d4-a716-446655440000 took 12 ms; password was not logged
-----BEGIN OPENSSH PRIVATE KEY-----
[REDACTED:private-key]
-----END OPENSSH PRIVATE KEY-----
pip install sk-learn  # not a key
EOF
"$bin" redact <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" && [ ! -s "$tmp/err" ]
ok $? "a mixed log: secrets replaced, look-alikes kept, exit 0"
[ $rc -eq 0 ] || diff "$tmp/want" "$tmp/out" | sed 's/^/# /'

"$bin" redact --count <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" &&
	[ "$(cat "$tmp/err")" = "7 values redacted" ]
ok $? "--count prints \"7 values redacted\" to stderr, stdout unchanged"

"$bin" redact <"$tmp/want" >"$tmp/out" 2>/dev/null
cmp -s "$tmp/out" "$tmp/want"
ok $? "redacting the output again changes nothing"

# --- small cases
run_in '' redact --count
[ $rc -eq 0 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "0 values redacted" ]
ok $? "empty input: empty output, 0 counted"

run_in 'password=hunter2' redact
[ $rc -eq 0 ] && [ "$(od -An -c "$tmp/out" | tr -d ' \n')" = \
	"password=[REDACTED]" ]
ok $? "a last line without a newline stays without one"

printf 'a\0b token=x\0y\n\377\376 api_key=k\r\n' |
	"$bin" redact >"$tmp/out" 2>"$tmp/err"
rc=$?
printf 'a\0b token=[REDACTED]\0y\n\377\376 api_key=[REDACTED]\r\n' \
	>"$tmp/want"
[ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want"
ok $? "NUL, invalid UTF-8 and CR bytes pass through unchanged"

head -c 300000 /dev/urandom >"$tmp/bin"
"$bin" redact <"$tmp/bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ]
ok $? "random binary input is read to the end without an error"

# --- a line over the limit
{
	printf 'token=abc\n'
	head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\0' a
	printf '\nafter password=x\n'
} | "$bin" redact >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "token=[REDACTED]" ] &&
	grep -q '64 MiB' "$tmp/err"
ok $? "a line over 64 MiB: exit 1, the limit named, nothing after the lines before it"

{
	head -c $((64 * 1024 * 1024)) /dev/zero | tr '\0' a
	printf '\ntoken=abc\n'
} | "$bin" redact >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(stat -c %s "$tmp/out")" -eq $((64 * 1024 * 1024 + 18)) ] &&
	[ "$(tail -n 1 "$tmp/out")" = "token=[REDACTED]" ]
ok $? "a line of exactly 64 MiB is accepted"

head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\0' a |
	"$bin" redact >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q '64 MiB' "$tmp/err"
ok $? "an over-long last line without a newline is refused too"

# --- output errors and streaming
if [ -w /dev/full ]; then
	printf 'token=abc\n' | "$bin" redact >/dev/full 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'writing the output' "$tmp/err"
	ok $? "a write error is reported, exit 1"
else
	skip "a write error is reported, exit 1" "no /dev/full"
fi

coproc RED { "$bin" redact 2>/dev/null; }
printf 'first token=abc\n' >&"${RED[1]}"
line=
read -r -t 10 line <&"${RED[0]}"
[ "$line" = "first token=[REDACTED]" ]
ok $? "a line is written as soon as it is complete, before the input ends"
exec {RED[1]}>&-
wait "$RED_PID" 2>/dev/null

done_testing
