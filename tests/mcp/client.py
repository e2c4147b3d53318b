#!/usr/bin/env python3
"""A small MCP client over pipes for cordon's gateway tests (stdlib only).

    import client
    s = client.Session(["cordon", "mcp", "--name", "t", "--",
                        "python3", "server.py"])
    s.initialize()
    tools = s.request("tools/list")["result"]["tools"]
    r = s.request("tools/call", {"name": "echo", "arguments": {"a": 1}})
    status = s.close()

Lines the gateway writes are read by a thread and kept in order, raw
(s.lines) and parsed; s.wait(pred) waits for a message matching pred,
s.response(id) for the answer to an id. Raw lines can be sent with
s.send_raw(text) (no newline added unless asked).
"""
import fcntl
import json
import os
import subprocess
import termios
import threading
import time


class Timeout(Exception):
    pass


class Session:
    def __init__(self, argv, env=None, stderr=None, cwd=None, tty=False):
        """tty: the gateway gets a new pseudo-terminal as its controlling
        terminal (for --prompt); what it writes there is in self.tty_text,
        self.answer_prompt() types an answer."""
        self.master = None
        self.tty_text = b""
        self.cv = threading.Condition()
        kw = {}
        if tty:
            self.master, slave = os.openpty()
            kw = {"start_new_session": True, "pass_fds": (slave,),
                  "preexec_fn": lambda: fcntl.ioctl(slave, termios.TIOCSCTTY,
                                                    0)}
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=stderr, env=env, cwd=cwd, **kw)
        if tty:
            os.close(slave)
            threading.Thread(target=self._tty_reader, daemon=True).start()
        self.lines = []      # every raw line received, in order
        self.msgs = []       # (raw, parsed or None), not yet taken
        self.eof = False
        self.next_id = 1
        t = threading.Thread(target=self._reader, daemon=True)
        t.start()

    def _reader(self):
        for raw in self.proc.stdout:
            text = raw.decode("utf-8", "replace").rstrip("\n")
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            with self.cv:
                self.lines.append(text)
                self.msgs.append((text, parsed))
                self.cv.notify_all()
        with self.cv:
            self.eof = True
            self.cv.notify_all()

    def _tty_reader(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                chunk = b""
            with self.cv:
                if not chunk:
                    return
                self.tty_text += chunk
                self.cv.notify_all()

    def answer_prompt(self, answer, nth=1, timeout=10):
        """Waits for the nth question on the terminal, then types answer."""
        end = time.time() + timeout
        with self.cv:
            while self.tty_text.count(b"Allow? [y]es once") < nth:
                left = end - time.time()
                if left <= 0:
                    raise Timeout("no question on the terminal: %r" %
                                  self.tty_text[-300:])
                self.cv.wait(left)
        os.write(self.master, answer.encode() + b"\n")

    def send_raw(self, text):
        self.proc.stdin.write(text.encode("utf-8"))
        self.proc.stdin.flush()

    def send(self, obj):
        self.send_raw(json.dumps(obj, separators=(",", ":")) + "\n")

    def wait(self, pred, timeout=10):
        """Takes and returns the first (raw, parsed) for which pred(parsed)
        holds."""
        end = time.time() + timeout
        with self.cv:
            while True:
                for i, (raw, parsed) in enumerate(self.msgs):
                    if parsed is not None and pred(parsed):
                        del self.msgs[i]
                        return raw, parsed
                left = end - time.time()
                if left <= 0 or self.eof:
                    raise Timeout("no matching message; pending: %r" %
                                  [m[0][:200] for m in self.msgs])
                self.cv.wait(left)

    def response(self, mid, timeout=10):
        return self.wait(lambda m: isinstance(m, dict) and "id" in m and
                         m["id"] == mid and "method" not in m,
                         timeout)[1]

    def request(self, method, params=None, mid=None, timeout=10):
        if mid is None:
            mid = self.next_id
            self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": mid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.response(mid, timeout)

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def initialize(self):
        r = self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "cordon-test-client", "version": "1"}})
        self.notify("notifications/initialized")
        return r

    def tools(self):
        """Every tool the gateway shows, following nextCursor."""
        out, cursor = [], None
        while True:
            params = {"cursor": cursor} if cursor else None
            r = self.request("tools/list", params)["result"]
            out.extend(r["tools"])
            cursor = r.get("nextCursor")
            if not cursor:
                return out

    def call(self, name, arguments=None, timeout=10):
        return self.request("tools/call", {"name": name,
                                           "arguments": arguments or {}},
                            timeout=timeout)

    def close(self, timeout=15):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def text_of(resp):
    """The text of a tools/call result (joined), or None."""
    res = resp.get("result")
    if not isinstance(res, dict):
        return None
    return "".join(c.get("text", "") for c in res.get("content", [])
                   if isinstance(c, dict))


def blocked(resp):
    res = resp.get("result")
    return (isinstance(res, dict) and res.get("isError") is True and
            (text_of(resp) or "").startswith("blocked: "))


def read_jsonl(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [json.loads(l) for l in f if l.strip()]
    except FileNotFoundError:
        return []
