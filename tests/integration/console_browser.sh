#!/usr/bin/env bash
# cordon console in a real headless Chromium (console_browser.js, with
# puppeteer-core): cards for MCP calls, the answers reaching the client,
# the deadline, the classifier box, XSS staying text. Skips without
# chromium or puppeteer-core (scripts/install-deps installs both).
# Screenshots: $CORDON_BUILD_ROOT/screenshots/console-*.png (printed).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
console_timeout=6
. "$(dirname "$0")/lib_console.sh"
need python3 curl
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip_all "needs chromium (scripts/install-deps)"
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
start_console || skip_all "cordon console did not start ($(cat "$tmp/console.err"))"
shots=${CORDON_BUILD_ROOT:-$tmp}/screenshots
URL=$url LOGIN=$login BIN=$bin SRC=$src SHOTS=$shots CHROMIUM=$chromium \
	WS=$ws TIMEOUT_S=$console_timeout HOME=$HOME \
	node "$src/tests/integration/console_browser.js"
