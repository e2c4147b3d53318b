#!/usr/bin/env bash
# `cordon mcp` between a real MCP client (the TypeScript SDK's Client and
# StdioClientTransport) and a real server
# (@modelcontextprotocol/server-filesystem): the tools are listed through
# the gateway, a read inside the served directory is allowed and answered,
# a tool the configuration denies is blocked before the server, and the
# audit log has both decisions. The packages are installed once into a
# cache ($CORDON_MCP_E2E_CACHE, else $XDG_CACHE_HOME/cordon-mcp-e2e, else
# /tmp/cordon-mcp-e2e); without npm or the registry the test is skipped.
orig_cache=${CORDON_MCP_E2E_CACHE:-${XDG_CACHE_HOME:-/tmp}/cordon-mcp-e2e}
orig_npm_cache=${npm_config_cache:-$orig_cache/npm}
. "$(dirname "$0")/lib.sh"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "1..0 # SKIP needs node and npm"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "1..0 # SKIP needs python3"
	exit 0
fi
cache=$orig_cache
mkdir -p "$cache" || {
	echo "1..0 # SKIP cannot create the cache $cache"
	exit 0
}
fsjs=$cache/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js
sdk=$cache/node_modules/@modelcontextprotocol/sdk/package.json
# one installer at a time; a warm cache costs nothing
(
	flock 9
	if [ ! -f "$fsjs" ] || [ ! -f "$sdk" ]; then
		timeout 180 env npm_config_cache="$orig_npm_cache" \
			npm install --prefix "$cache" --no-audit --no-fund \
			--loglevel=error @modelcontextprotocol/sdk@1 \
			@modelcontextprotocol/server-filesystem \
			>"$cache/install.log" 2>&1
	fi
) 9>"$cache/.lock"
if [ ! -f "$fsjs" ] || [ ! -f "$sdk" ]; then
	why=$(tail -1 "$cache/install.log" 2>/dev/null | tr -d '#\n' | cut -c1-120)
	echo "1..0 # SKIP npm install of the MCP packages failed: ${why:-no log}"
	exit 0
fi

mkdir -p "$tmp/srv"
srv=$(cd "$tmp/srv" && pwd -P)
echo "hello from the served directory" >"$srv/hello.txt"
cat >"$tmp/cfg.json" <<'EOF'
{"safety": {"permission_mode": "auto",
  "denied_tools": ["mcp__fs__write_file"]},
 "audit": {"fsync": "never"}}
EOF

# The client lives in the cache so that node finds the SDK beside it.
cat >"$cache/cordon-e2e-client.mjs" <<'EOF'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from
	"@modelcontextprotocol/sdk/client/stdio.js";

const [cordon, cfg, audit, fsjs, dir] = process.argv.slice(2);
const transport = new StdioClientTransport({
	command: cordon,
	args: ["mcp", "--name", "fs", "--config", cfg, "--audit-log", audit,
	       "--", "node", fsjs, dir],
	env: { ...process.env },
	stderr: "inherit",
});
const client = new Client({ name: "cordon-e2e", version: "1.0.0" });
const out = {};
await client.connect(transport);
const { tools } = await client.listTools();
out.tools = tools.map((t) => t.name);
const reader = out.tools.includes("read_text_file") ? "read_text_file" :
	"read_file";
const r = await client.callTool({ name: reader,
	arguments: { path: dir + "/hello.txt" } });
out.read = { isError: !!r.isError,
	text: r.content.map((c) => c.text || "").join("") };
const w = await client.callTool({ name: "write_file",
	arguments: { path: dir + "/made.txt", content: "no" } });
out.write = { isError: !!w.isError,
	text: w.content.map((c) => c.text || "").join("") };
await client.close();
console.log(JSON.stringify(out));
EOF

start=$(date +%s)
timeout 60 node "$cache/cordon-e2e-client.mjs" "$bin" "$tmp/cfg.json" \
	"$tmp/audit.jsonl" "$fsjs" "$srv" >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
ok $rc "the SDK client connects through cordon mcp (${took} s)"

pycheck '"write_file" in d["tools"] and ("read_text_file" in d["tools"] or "read_file" in d["tools"])' <"$tmp/out"
ok $? "tools/list through the gateway lists the server's tools"
pycheck 'not d["read"]["isError"] and "hello from the served directory" in d["read"]["text"]' <"$tmp/out"
ok $? "a read inside the served directory is allowed and answered"
pycheck 'd["write"]["isError"] and d["write"]["text"].startswith("blocked: ")' <"$tmp/out"
ok $? "write_file, denied by the configuration, is blocked"
[ ! -e "$srv/made.txt" ]
ok $? "the blocked write never reached the server"
python3 - "$tmp/audit.jsonl" <<'EOF' >"$tmp/out" 2>"$tmp/err"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
dec = [r for r in recs if r.get("event") == "decision"]
assert any(r["decision"] == "allow" and r["server"] == "fs" and
           r["mcpTool"] in ("read_text_file", "read_file") for r in dec), dec
assert any(r["decision"] == "deny" and r["tool"] == "mcp__fs__write_file"
           for r in dec), dec
assert any(r.get("event") == "pin" and r.get("firstUse") for r in recs)
EOF
ok $? "the audit log has the allowed read, the blocked write and the pins"

done_testing
