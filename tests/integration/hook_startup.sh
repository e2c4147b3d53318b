#!/usr/bin/env bash
# What a `cordon hook claude` process does before it answers, checked by
# what it loads and which processes it makes (never by how long it takes:
# speed is bench/run-hook's). One hook call is one process per tool call,
# so it must not load the console's HTTP stack (libmicrohttpd and, through
# it, GnuTLS), start threads, or fork to re-check the sandbox probe's
# cached verdict; and a cached "no backend works" is still checked, never
# believed (it would let commands run unsandboxed).
. "$(dirname "$0")/lib.sh"

ws=$tmp/ws
mkdir -p "$ws"
cd "$ws" || exit 1
unset CLAUDE_PROJECT_DIR
input=$tmp/in.json
printf '{"session_id":"s","transcript_path":"%s/t.jsonl","cwd":"%s",'\
'"permission_mode":"default","hook_event_name":"PreToolUse",'\
'"tool_name":"Bash","tool_input":{"command":"git status"},'\
'"tool_use_id":"toolu_1"}' "$ws" "$ws" >"$input"
cache=$HOME/.cache/cordon
version=$("$bin" --version | awk '{ print $2 }')

# plant BEST WHY: the probe's cache says BEST ("namespaces", "landlock" or
# null) for this kernel and this cordon.
plant() {
	mkdir -p "$cache"
	python3 -c '
import json, os, sys
best = None if sys.argv[2] == "null" else sys.argv[2]
json.dump({"kernel": os.uname().release, "version": sys.argv[1],
           "best": best, "why": sys.argv[3]}, open(sys.argv[4], "w"))
' "$version" "$1" "$2" "$cache/probe.json"
}

# 1. The libraries loaded: the dynamic loader's own account of them.
LD_DEBUG=libs "$bin" hook claude --audit-log - <"$input" >"$tmp/out" \
	2>"$tmp/err"
rc=$?
if ! grep -q 'find library=' "$tmp/err"; then
	skip "no console libraries loaded by a hook" \
		"the loader gives no LD_DEBUG account here"
else
	[ $rc -eq 0 ] && grep -q 'find library=libc.so' "$tmp/err" &&
		! grep -Eq 'find library=lib(microhttpd|gnutls|p11-kit)' \
			"$tmp/err"
	ok $? "a hook call loads neither libmicrohttpd nor GnuTLS"
	# The libraries whose archives the system has are linked in
	# (meson.build, cordon_exe_dep): one shared object fewer each to map
	# and to search for every symbol at start.
	linked_in=
	for l in pcre2-8 seccomp crypto; do
		a=$(${CC:-cc} -print-file-name="lib$l.a" 2>/dev/null)
		case $a in /*) ;; *) continue ;; esac
		linked_in="$linked_in $l"
		if grep -q "find library=lib$l\.so" "$tmp/err"; then
			linked_in="$linked_in(loaded!)"
		fi
	done
	if [ -z "$linked_in" ]; then
		skip "the libraries with archives are linked in" \
			"no static archives here"
	else
		case $linked_in in *'(loaded!)'*) false ;; *) true ;; esac
		ok $? "a hook call loads none of the libraries linked in:$linked_in"
	fi
	# TLS is bound when a connection needs it (cli/ssl_lazy.c), not at
	# start: neither a hook call nor the sandbox's probe maps libssl, or
	# the libcrypto.so.3 it brings (inject.sh and fetch.sh show that
	# the TLS paths load and use them).
	! grep -Eq 'find library=lib(ssl|crypto)\.so' "$tmp/err"
	ok $? "a hook call loads neither libssl nor libcrypto"
	rm -rf "$cache"
	LD_DEBUG=libs "$bin" run --probe </dev/null >"$tmp/out" 2>"$tmp/err"
	grep -q 'find library=libc.so' "$tmp/err" &&
		! grep -Eq 'find library=lib(ssl|crypto)\.so' "$tmp/err"
	ok $? "cordon run --probe loads neither libssl nor libcrypto"
fi

# The binary exports none of OpenSSL's names: the libssl it loads must
# bind to its own libcrypto, never to the binary's static SHA256_* or
# to cli/ssl_lazy.c's forwarders (which would call themselves).
if ! command -v nm >/dev/null; then
	skip "the binary exports no OpenSSL symbol" "needs nm (binutils)"
else
	nm -D --defined-only "$bin" >"$tmp/dynsyms" 2>&1
	st=$?
	[ $st -eq 0 ] && ! grep -Eq ' (SSL|TLS|ERR|X509|EVP|SHA|CRYPTO|OPENSSL|OSSL)_' \
		"$tmp/dynsyms"
	ok $? "the binary exports no OpenSSL symbol"
	# Nor does it carry EVP, whose method and provider tables the loader
	# would relocate in every process (src/base/sha256.c hashes with
	# SHA256_* alone); a stripped binary has no symbols to tell.
	nm "$bin" >"$tmp/syms" 2>/dev/null
	if [ ! -s "$tmp/syms" ]; then
		skip "the binary carries no EVP code" "the binary is stripped"
	else
		! grep -Eq ' [TtDdRr] (EVP_|OSSL_PROVIDER_|SSL_CTX_new_ex)' \
			"$tmp/syms"
		ok $? "the binary carries no EVP code"
	fi
	# The large tables hold no pointer (HACKING.md, "Tables without
	# pointers"), so they are read-only data the loader does not
	# relocate: nm's r or R, never .data.rel.ro's d. A pointer added to
	# one of their rows moves it back. (Not a count of relocations: the
	# sanitized build the suite runs has a quarter of a million, the
	# release build 3,400, and the count moves with the compiler and the
	# static libseccomp and PCRE2.)
	if [ ! -s "$tmp/syms" ]; then
		skip "the large tables are read-only data" "the binary is stripped"
	else
		bad=
		for t in cmdtab_rules cmdtab_pool wrappers_rows wrappers_pool \
			codesinks_sink_tab codesinks_mod_tab codesinks_pool \
			rules_catalog rules_text handlers; do
			types=$(awk -v t="$t" '$3 == t { print $2 }' "$tmp/syms")
			case $types in
			'') bad="$bad $t(missing)" ;;
			*[!rR$'\n']*) bad="$bad $t($(echo $types))" ;;
			esac
		done
		[ -z "$bad" ]
		ok $? "the large tables are read-only data${bad:+:$bad}"
	fi
fi

# 2-3. The processes: strace's record of every fork, clone and exec.
# LeakSanitizer (sanitized builds) stops the world at exit with a
# thread of its own; it is not cordon's, so it is off here.
if ! command -v strace >/dev/null ||
	! strace -f -qq -o /dev/null /bin/true 2>/dev/null; then
	skip "no thread or fork in a hook call" "needs strace (and ptrace)"
	skip "a cached landlock verdict is read, not re-checked" \
		"needs strace (and ptrace)"
else
	# calls FILE: how many fork/vfork/clone/clone3 the trace holds.
	calls() {
		grep -Ec '(^|[0-9] )(fork|vfork|clone|clone3)\(' "$1"
	}
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	plant namespaces "namespaces: works (enforcement full)"
	strace -f -qq -e trace=process -o "$tmp/trace" \
		"$bin" hook claude --audit-log - <"$input" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(calls "$tmp/trace")" = 0 ] &&
		[ "$(grep -c 'execve(' "$tmp/trace")" = 1 ]
	ok $? "a hook call starts no thread and forks nothing"

	# Before: a cached landlock verdict cost a child per call to check
	# that namespaces really fail. The rewritten command's `cordon run`
	# makes that check when it starts; the hook only needs to know that
	# a backend works.
	plant landlock "landlock: works (enforcement full)"
	strace -f -qq -e trace=process -o "$tmp/trace" \
		"$bin" hook claude --audit-log - <"$input" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(calls "$tmp/trace")" = 0 ] &&
		pycheck '"updatedInput" in d["hookSpecificOutput"] and
			 "landlock: works" in
			 d["hookSpecificOutput"]["permissionDecisionReason"]' \
			<"$tmp/out"
	ok $? "a cached landlock verdict is read, not re-checked, and the command is rewritten"

	# The record's stamp is UTC, computed (audit_format_time): the
	# local time zone, which gmtime_r() loads on its first call, is
	# never read.
	strace -f -qq -e trace=open,openat,openat2 -o "$tmp/trace" \
		"$bin" hook claude --audit-log "$tmp/hook-audit.jsonl" \
		<"$input" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q '"time":"' "$tmp/hook-audit.jsonl" &&
		! grep -Eq 'localtime|zoneinfo' "$tmp/trace"
	ok $? "a hook call writes its record without reading the time zone"
	unset ASAN_OPTIONS
fi

# 4. A cached "none works" is not believed: the hook probes again, and
# where a backend works (cordon run --probe says which) the command is
# still rewritten into the sandbox, not handed to the agent unsandboxed.
rm -rf "$cache"
run run --probe
if ! grep -q ': works' "$tmp/out" "$tmp/err"; then
	skip "a cached 'none works' is checked" "no sandbox backend works here"
else
	plant null "namespaces: unavailable: planted"
	run_file "$input" hook claude --audit-log -
	[ $rc -eq 0 ] &&
		pycheck '"updatedInput" in d["hookSpecificOutput"]' <"$tmp/out"
	ok $? "a cached 'none works' is checked: the command still runs sandboxed"
fi

done_testing
