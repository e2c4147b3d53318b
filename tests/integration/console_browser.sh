#!/usr/bin/env bash
# cordon console in real headless browsers (console_browser.js, with
# puppeteer-core): Debian's chromium, then firefox-esr (WebDriver BiDi),
# the same scenario in each: cards for MCP calls, the answers reaching the
# client, the deadline, the classifier box, XSS staying text. A browser
# that is missing is one skipped result; without puppeteer-core the whole
# script skips (scripts/install-deps installs all three).
# Screenshots: $CORDON_BUILD_ROOT/screenshots/console-BROWSER-*.png
# (printed).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
console_timeout=6
. "$(dirname "$0")/lib_console.sh"
need python3 curl
need_npm puppeteer-core

ws=$tmp/ws
mkdir -p "$ws"
# the MCP server's tools (tests/mcp/server.py reads $MCP_TEST_STATE)
cat >"$tmp/state.json" <<'JSON'
{"tools": [{"name": "echo", "description": "Echoes.",
            "inputSchema": {"type": "object"}},
           {"name": "write_file", "description": "Writes a file.",
            "inputSchema": {"type": "object"}}]}
JSON
export MCP_TEST_STATE=$tmp/state.json MCP_TEST_LOG=$tmp/calls.jsonl
shots=${CORDON_BUILD_ROOT:-$tmp}/screenshots

# browser NAME EXE: the scenario in one browser, against a console of its
# own (the login URL works once; a fresh console has no grants from the
# browser before). console_browser.js prints "ok - …" lines: numbered here.
browser() {
	local name=$1 exe=$2 line out=$tmp/$1.tap status
	if ! start_console; then
		rc=1
		ok 1 "$name: cordon console starts"
		return
	fi
	BROWSER=$name EXE=$exe URL=$url LOGIN=$login BIN=$bin SRC=$src \
		SHOTS=$shots WS=$ws TIMEOUT_S=$console_timeout HOME=$HOME \
		node "$src/tests/integration/console_browser.js" >"$out"
	status=$?
	stop_console
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok 0 "${line#ok - }" ;;
		"not ok - "*) n=$((n + 1)); echo "not ok $n - ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done <"$out"
	if [ $status -ne 0 ] && ! grep -q '^not ok - ' "$out"; then
		rc=$status
		ok 1 "$name: the browser test ran to its end"
	fi
}

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium" ]; then
	browser chromium "$chromium"
else
	skip "the console in Chromium" "needs chromium (scripts/install-deps)"
fi
firefox=$(command -v firefox-esr || command -v firefox || true)
if [ -n "$firefox" ]; then
	browser firefox "$firefox"
else
	skip "the console in Firefox" "needs firefox-esr (scripts/install-deps)"
fi
done_testing
