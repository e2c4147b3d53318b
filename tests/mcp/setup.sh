# setup.sh — what the MCP gateway scripts share; source it after
# tests/integration/lib.sh. It skips the whole script without python3, makes
# $tmp/ws, and exports the paths the Python scenarios read: the server's
# state, call and raw logs, the audit log, the config, the binary, the
# source tree and the pins file.
need python3
mkdir -p "$tmp/ws"
export MCP_STATE=$tmp/ws/state.json MCP_CALLS=$tmp/calls.log \
	MCP_RAW=$tmp/raw.log MCP_AUDIT=$tmp/audit.jsonl \
	MCP_CFG=$tmp/cfg.json MCP_BIN=$bin MCP_SRC=$src \
	MCP_PINS=$XDG_STATE_HOME/cordon/mcp-pins.json
