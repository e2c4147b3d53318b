"""A loopback stand-in for the Anthropic Messages API (POST /v1/messages,
streamed as server-sent events or not, and count_tokens), for tests that
start Claude Code for real: a turn that offers the Bash tool and holds no
tool result yet is answered with one Bash call running argv[2]; every
other turn with the text "finished". Usage: mock_anthropic.py PORTFILE
COMMAND LOG (the port is written to PORTFILE once listening; every request
body is appended to LOG, one line each)."""
import http.server
import json
import sys

cmd = sys.argv[2]
log = open(sys.argv[3], "a")
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers(); self.wfile.write(b"{}")
    def do_HEAD(self): self.do_GET()
    def do_POST(self):
        n = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        log.write(self.path + " " + json.dumps(body) + "\n"); log.flush()
        if "count_tokens" in self.path:
            return self.reply({"input_tokens": 10})
        msgs = body.get("messages", [])
        done = any(isinstance(m.get("content"), list) and any(c.get("type") == "tool_result" for c in m["content"]) for m in msgs)
        tools = [t.get("name") for t in body.get("tools", [])]
        if done or "Bash" not in tools:
            blocks = [{"type": "text", "text": "finished"}]; stop = "end_turn"
        else:
            blocks = [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": cmd, "description": "write a file"}}]; stop = "tool_use"
        if not body.get("stream"):
            return self.reply({"id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", "m"), "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}})
        self.send_response(200); self.send_header("content-type", "text/event-stream"); self.end_headers()
        def ev(t, d): self.wfile.write(("event: %s\ndata: %s\n\n" % (t, json.dumps(d))).encode())
        ev("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", "m"), "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}})
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                ev("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
                ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": b["text"]}})
            else:
                ev("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}})
                ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}})
            ev("content_block_stop", {"type": "content_block_stop", "index": i})
        ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}})
        ev("message_stop", {"type": "message_stop"})
        self.wfile.flush()
    def reply(self, d):
        b = json.dumps(d).encode()
        self.send_response(200); self.send_header("content-type", "application/json"); self.send_header("content-length", str(len(b))); self.end_headers(); self.wfile.write(b)
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()
