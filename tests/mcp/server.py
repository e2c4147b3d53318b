#!/usr/bin/env python3
"""A small stdio MCP server for cordon's gateway tests (stdlib only).

    server.py [--state FILE] [--log FILE] [--raw FILE] [--done FILE]

or the same through $MCP_TEST_STATE, $MCP_TEST_LOG, $MCP_TEST_RAW,
$MCP_TEST_DONE.

The state file is JSON, read again at every tools/list (and initialize),
so a test changes a tool between runs, or mid-session:

    {"tools": [{"name": "echo", "description": "...",
                "inputSchema": {...}}, ...],
     "instructions": "...",          optional, in the initialize answer
     "serverInfo": {"name": .., "version": ..},
     "page_size": 2,                 optional: tools/list pages
     "handlers": {"tool": "echo"},   optional: which behaviour a tool has
                                     (default: the behaviour of its name)
     "ignore_eof": false,            keep running when stdin closes
     "raw_results": {"tools/list": "<JSON text>", "initialize": ".."},
                                     optional: the result of that method
                                     sent as these exact bytes (for
                                     answers no json.dumps would write:
                                     duplicated members, \\u0000)
     "lines": ["<raw line>", ..],    what the send_lines behaviour writes
     "list_delay_ms": 0}             tools/list answers wait this long

While it runs, the state file is watched (every 50 ms): when it changes,
the server sends notifications/tools/list_changed.

Behaviours (a tools/call's result): echo (the arguments as JSON text),
sleep (waits arguments.ms, then echo: answers out of order), crash (exits
3 without answering), read_file (arguments.path's text), write_file
(writes arguments.content to arguments.path), garbage (writes a line that
is not JSON, then answers), ask_client (sends roots/list to the client and
answers with what it said), big (arguments.bytes of "x"), fetch (GETs
arguments.url through the environment's proxy; the status or the error),
send_lines (writes the state's "lines" as they are, then answers "sent").

Every tools/call is appended to the log (one JSON object a line: id,
name, arguments), before it is handled, so a test can prove a call never
reached the server; with --raw every line received is appended as is;
with --done the id of every answer is appended once it is written (a
test sees the server blocked writing to a gateway that does not read).
Requests are handled on threads (answers may come out of order); a batch
is answered with one batch.
"""
import json
import os
import sys
import threading
import time

args = sys.argv[1:]
opts = {"state": os.environ.get("MCP_TEST_STATE"),
        "log": os.environ.get("MCP_TEST_LOG"),
        "raw": os.environ.get("MCP_TEST_RAW"),
        "done": os.environ.get("MCP_TEST_DONE")}
while args:
    a = args.pop(0)
    if a in ("--state", "--log", "--raw", "--done") and args:
        opts[a[2:]] = args.pop(0)
    else:
        sys.stderr.write("server.py: unknown argument %r\n" % a)
        sys.exit(2)

out_lock = threading.Lock()
log_lock = threading.Lock()
waiting = {}  # id of our request to the client -> [event, answer]
waiting_lock = threading.Lock()
seq = [0]


def load_state():
    if not opts["state"]:
        return {"tools": [{"name": "echo", "description": "Echoes.",
                           "inputSchema": {"type": "object"}}]}
    with open(opts["state"], encoding="utf-8") as f:
        return json.load(f)


def dumps(obj):
    if isinstance(obj, Raw):
        return obj.text
    if isinstance(obj, list):
        return "[" + ",".join(dumps(o) for o in obj) + "]"
    if isinstance(obj, dict) and isinstance(obj.get("result"), Raw):
        return ('{"jsonrpc":"2.0","id":%s,"result":%s}' %
                (json.dumps(obj["id"]), obj["result"].text))
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def send(obj):
    line = dumps(obj)
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def send_raw(text):
    with out_lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def append(path, text):
    if not path:
        return
    with log_lock:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text + "\n")


def text_result(text, is_error=False):
    r = {"content": [{"type": "text", "text": text}]}
    if is_error:
        r["isError"] = True
    return r


def call_tool(params):
    st = load_state()
    name = params.get("name")
    arguments = params.get("arguments") or {}
    behaviour = st.get("handlers", {}).get(name, name)
    if behaviour == "echo":
        return text_result(json.dumps(arguments, sort_keys=True))
    if behaviour == "sleep":
        time.sleep(float(arguments.get("ms", 100)) / 1000.0)
        return text_result(json.dumps(arguments, sort_keys=True))
    if behaviour == "crash":
        sys.stdout.flush()
        os._exit(3)
    if behaviour == "read_file":
        try:
            with open(arguments["path"], encoding="utf-8") as f:
                return text_result(f.read())
        except OSError as e:
            return text_result("error: %s" % e, True)
    if behaviour == "write_file":
        try:
            with open(arguments["path"], "w", encoding="utf-8") as f:
                f.write(arguments.get("content", ""))
            return text_result("wrote %s" % arguments["path"])
        except OSError as e:
            return text_result("error: %s" % e, True)
    if behaviour == "garbage":
        send_raw("this is not JSON {")
        return text_result("after garbage")
    if behaviour == "ask_client":
        with waiting_lock:
            seq[0] += 1
            rid = "srv-%d" % seq[0]
            ev = threading.Event()
            waiting[rid] = [ev, None]
        send({"jsonrpc": "2.0", "id": rid, "method": "roots/list"})
        ev.wait(10)
        with waiting_lock:
            got = waiting.pop(rid)[1]
        return text_result(json.dumps(got, sort_keys=True))
    if behaviour == "fetch":
        import urllib.request
        try:
            with urllib.request.urlopen(arguments["url"], timeout=10) as r:
                return text_result("status %d" % r.status)
        except Exception as e:  # the error is the answer
            return text_result("error: %s" % e, True)
    if behaviour == "big":
        return text_result("x" * int(arguments.get("bytes", 1000)))
    if behaviour == "send_lines":
        for line in st.get("lines", []):
            send_raw(line)
        return text_result("sent")
    return None


class Raw:
    """A result to be written as these exact bytes."""
    def __init__(self, text):
        self.text = text


def raw_result(method):
    try:
        raw = load_state().get("raw_results", {}).get(method)
    except (OSError, ValueError):
        raw = None
    return Raw(raw) if raw is not None else None


def list_tools(params):
    st = load_state()
    tools = st.get("tools", [])
    size = st.get("page_size")
    if not size:
        return {"tools": tools}
    start = int((params or {}).get("cursor") or 0)
    res = {"tools": tools[start:start + size]}
    if start + size < len(tools):
        res["nextCursor"] = str(start + size)
    return res


def answer(msg):
    """The answer to one request, or None for a notification."""
    method = msg.get("method")
    mid = msg.get("id")
    has_id = "id" in msg
    params = msg.get("params") or {}
    if method is None:
        # the client's answer to one of our requests
        with waiting_lock:
            w = waiting.get(mid)
            if w:
                w[1] = msg.get("result", msg.get("error"))
                w[0].set()
        return None
    if method == "tools/call":
        append(opts["log"], json.dumps({"id": mid, "name": params.get("name"),
                                        "arguments": params.get("arguments")},
                                       sort_keys=True))
    if not has_id:
        return None
    if method == "tools/list":
        try:
            delay = load_state().get("list_delay_ms", 0)
        except (OSError, ValueError):
            delay = 0
        time.sleep(delay / 1000.0)
    if method in ("initialize", "tools/list") and raw_result(method):
        return {"jsonrpc": "2.0", "id": mid, "result": raw_result(method)}
    if method == "initialize":
        st = load_state()
        res = {"protocolVersion": params.get("protocolVersion",
                                             "2025-06-18"),
               "capabilities": {"tools": {"listChanged": True}},
               "serverInfo": st.get("serverInfo",
                                    {"name": "cordon-test-server",
                                     "version": "1.0.0"})}
        if "instructions" in st:
            res["instructions"] = st["instructions"]
        return {"jsonrpc": "2.0", "id": mid, "result": res}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": mid, "result": {}}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": mid, "result": list_tools(params)}
    if method == "tools/call":
        res = call_tool(params)
        if res is None:
            return {"jsonrpc": "2.0", "id": mid,
                    "error": {"code": -32602,
                              "message": "unknown tool %s" %
                              params.get("name")}}
        return {"jsonrpc": "2.0", "id": mid, "result": res}
    return {"jsonrpc": "2.0", "id": mid,
            "error": {"code": -32601, "message": "no method %s" % method}}


def handle_one(msg):
    try:
        a = answer(msg)
    except Exception as e:  # a test server: say what broke
        a = {"jsonrpc": "2.0", "id": msg.get("id"),
             "error": {"code": -32603, "message": repr(e)}}
    if a is not None:
        send(a)
        append(opts["done"], json.dumps(a.get("id")))


def watch():
    path = opts["state"]
    last = None
    while True:
        try:
            with open(path, "rb") as f:
                cur = f.read()
        except OSError:
            cur = None
        if last is not None and cur != last:
            send({"jsonrpc": "2.0",
                  "method": "notifications/tools/list_changed"})
        last = cur
        time.sleep(0.05)


def main():
    if opts["state"]:
        threading.Thread(target=watch, daemon=True).start()
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        append(opts["raw"], line)
        try:
            msg = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None,
                  "error": {"code": -32700, "message": "Parse error"}})
            continue
        if isinstance(msg, list):
            outs = []
            for m in msg:
                a = answer(m) if isinstance(m, dict) else None
                if a is not None:
                    outs.append(a)
            if outs:
                send(outs)
            continue
        if isinstance(msg, dict) and msg.get("method") in (
                "tools/call", "ping", "tools/list") and "id" in msg:
            threading.Thread(target=handle_one, args=(msg,),
                             daemon=True).start()
        else:
            handle_one(msg)
    try:
        st = load_state()
    except (OSError, ValueError):
        st = {}
    if st.get("ignore_eof"):
        while True:
            time.sleep(1)
    # let answers in flight finish
    for t in threading.enumerate():
        if t is not threading.current_thread() and not t.daemon:
            t.join()
    time.sleep(0.05)


if __name__ == "__main__":
    main()
