"""A loopback stand-in for the OpenAI Chat Completions API (POST
/v1/chat/completions, streamed), for tests that start Qwen Code for real: a
turn that offers run_shell_command and holds no tool message yet is
answered with one call of it running argv[2]; every other turn with the
text "finished". Usage: mock_openai_chat.py PORTFILE COMMAND LOG."""
import http.server, json, sys
cmd = sys.argv[2]; log = open(sys.argv[3], "a")
# Another agent's shell tool: MOCK_CHAT_TOOL names it (Cline CLI's
# run_commands), MOCK_CHAT_ARGS is its arguments' JSON, COMMAND ignored.
import os
tool = os.environ.get("MOCK_CHAT_TOOL", "run_shell_command")
targs = os.environ.get("MOCK_CHAT_ARGS") or json.dumps({"command": cmd})
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        b=json.dumps({"data":[],"object":"list"}).encode()
        self.send_response(200); self.send_header("content-type","application/json"); self.send_header("content-length",str(len(b))); self.end_headers(); self.wfile.write(b)
    def do_POST(self):
        n=int(self.headers.get("content-length") or 0); raw=self.rfile.read(n)
        try: body=json.loads(raw or b"{}")
        except Exception: body={}
        log.write(self.path+" "+json.dumps(body)+"\n"); log.flush()
        msgs=body.get("messages",[])
        done=any(isinstance(m,dict) and m.get("role")=="tool" for m in msgs)
        tools=[t.get("function",{}).get("name") for t in body.get("tools",[]) if isinstance(t,dict)]
        stream=body.get("stream")
        if done or tool not in tools:
            delta={"role":"assistant","content":"finished"}; fin="stop"
        else:
            delta={"role":"assistant","content":None,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":tool,"arguments":targs}}]}; fin="tool_calls"
        base={"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":body.get("model","m")}
        if not stream:
            msg=dict(delta); 
            if "tool_calls" in msg:
                for t in msg["tool_calls"]: t.pop("index",None)
            b=json.dumps(dict(base,object="chat.completion",choices=[{"index":0,"message":msg,"finish_reason":fin}],usage={"prompt_tokens":1,"completion_tokens":1,"total_tokens":2})).encode()
            self.send_response(200); self.send_header("content-type","application/json"); self.send_header("content-length",str(len(b))); self.end_headers(); self.wfile.write(b); return
        self.send_response(200); self.send_header("content-type","text/event-stream"); self.end_headers()
        def ev(d): self.wfile.write(("data: %s\n\n"%json.dumps(d)).encode())
        ev(dict(base,choices=[{"index":0,"delta":delta,"finish_reason":None}]))
        ev(dict(base,choices=[{"index":0,"delta":{},"finish_reason":fin}],usage={"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}))
        self.wfile.write(b"data: [DONE]\n\n"); self.wfile.flush()
s=http.server.ThreadingHTTPServer(("127.0.0.1",0),H)
open(sys.argv[1],"w").write(str(s.server_address[1])); s.serve_forever()
