"""A mock of a model API on loopback, so that a real agent runs its real
hook code offline (tests/integration/agents_mock.sh).

Anthropic Messages API (ANTHROPIC_BASE_URL): the first request that offers
tools gets a streamed tool_use of Bash whose command is $MOCK_COMMAND; once
a tool_result comes back, the answer is the text "done". Requests without
tools (titles, summaries) get "ok". Every request is logged (path and the
first 4000 bytes), and every tool_result in full, to the file named by
argv[1]. Prints its port first."""
import json, os, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

command = os.environ.get("MOCK_COMMAND", "true")
# Gemini: MOCK_GEMINI_CALLS, a JSON list of {"name", "args"}, asks for one
# call a turn, in order (the n-th once n-1 functionResponses came back);
# without it, one run_shell_command of $MOCK_COMMAND.
gemini_calls = json.loads(os.environ.get("MOCK_GEMINI_CALLS") or "null") or [
    {"name": "run_shell_command", "args": {"command": command, "description": "mock"}}]
log = open(sys.argv[1], "a")
state = {"n": 0}

def sse(events):
    out = b""
    for name, data in events:
        out += b"event: " + name.encode() + b"\ndata: " + json.dumps(data).encode() + b"\n\n"
    return out

class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        log.write(self.path + " " + body[:4000].decode("utf-8", "replace") + "\n")
        log.flush()
        if ":" in self.path.split("?")[0].rsplit("/", 1)[-1]:
            return self.gemini(body)
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"input_tokens": 10}')
            return
        req = json.loads(body)
        for m in req.get("messages", []):
            for c in m.get("content") if isinstance(m.get("content"), list) else []:
                if c.get("type") == "tool_result":
                    log.write("TOOL_RESULT " + json.dumps(c.get("content")) + "\n")
                    log.flush()
        has_result = any(isinstance(m.get("content"), list) and any(c.get("type") == "tool_result" for c in m["content"]) for m in req.get("messages", []))
        msg = {"id": "msg_1", "type": "message", "role": "assistant", "model": req.get("model", "m"),
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 10, "output_tokens": 1}}
        if not has_result and not req.get("tools"):
            block = {"type": "text", "text": ""}
            deltas = [("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}})]
            stop = "end_turn"
        elif not has_result:
            block = {"type": "tool_use", "id": "toolu_mock1", "name": "Bash", "input": {}}
            deltas = [("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": json.dumps({"command": command, "description": "mock"})}})]
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            deltas = [("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "done"}})]
            stop = "end_turn"
        events = [("message_start", {"type": "message_start", "message": msg}),
                  ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block})]
        events += deltas
        events += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
                   ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}}),
                   ("message_stop", {"type": "message_stop"})]
        data = sse(events)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    # Gemini API (GOOGLE_GEMINI_BASE_URL): models/M:streamGenerateContent
    # (SSE), :generateContent, :countTokens. A request that offers tools
    # gets the next of gemini_calls as a functionCall; once each has its
    # functionResponse, the text "done".
    def gemini(self, body):
        path = self.path.split("?")[0]
        req = json.loads(body or b"{}")
        if path.endswith(":countTokens"):
            return self.json({"totalTokens": 10})
        parts = [p for c in req.get("contents", []) for p in c.get("parts", [])]
        for p in parts:
            if "functionResponse" in p:
                log.write("TOOL_RESULT " + json.dumps(p["functionResponse"]) + "\n")
                log.flush()
        results = sum("functionResponse" in p for p in parts)
        if req.get("tools") and results < len(gemini_calls):
            part = {"functionCall": gemini_calls[results]}
        else:
            part = {"text": "done"}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]},
                                 "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                   "totalTokenCount": 15}}
        if path.endswith(":streamGenerateContent"):
            data = b"data: " + json.dumps(chunk).encode() + b"\r\n\r\n"
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        return self.json(chunk)
    def json(self, obj):
        data = json.dumps(obj).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self.send_response(404)
        self.end_headers()

srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
