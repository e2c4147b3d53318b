"""A loopback stand-in for the OpenAI Responses API (POST /v1/responses,
streamed), for tests that start Codex CLI for real: a turn that offers a
shell tool and holds no tool output yet is answered with one call of it
running argv[2]; every other turn with the text "finished". Usage:
mock_openai.py PORTFILE COMMAND LOG (the port is written to PORTFILE once
listening; every request body is appended to LOG, one line each)."""
import http.server, json, sys
cmd = sys.argv[2]; log = open(sys.argv[3], "a")
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
        items=body.get("input",[])
        done=any(isinstance(i,dict) and i.get("type") in ("function_call_output","custom_tool_call_output") for i in items)
        tools=[t.get("name") for t in body.get("tools",[]) if isinstance(t,dict)]
        self.send_response(200); self.send_header("content-type","text/event-stream"); self.end_headers()
        def ev(d): self.wfile.write(("event: %s\ndata: %s\n\n"%(d["type"],json.dumps(d))).encode())
        ev({"type":"response.created","response":{"id":"resp_1"}})
        if done or not tools:
            item={"type":"message","role":"assistant","id":"msg_1","content":[{"type":"output_text","text":"finished"}]}
        else:
            name="exec_command" if "exec_command" in tools else ("shell" if "shell" in tools else tools[0])
            args={"cmd":cmd} if name=="exec_command" else {"command":["bash","-lc",cmd]}
            item={"type":"function_call","id":"fc_1","call_id":"call_1","name":name,"arguments":json.dumps(args)}
        ev({"type":"response.output_item.done","item":item})
        ev({"type":"response.completed","response":{"id":"resp_1","usage":{"input_tokens":1,"input_tokens_details":None,"output_tokens":1,"output_tokens_details":None,"total_tokens":2}}})
        self.wfile.flush()
s=http.server.ThreadingHTTPServer(("127.0.0.1",0),H)
open(sys.argv[1],"w").write(str(s.server_address[1])); s.serve_forever()
