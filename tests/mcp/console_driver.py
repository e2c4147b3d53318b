#!/usr/bin/env python3
"""Drives one `cordon mcp` session for the console's browser test.

    console_driver.py CORDON_BIN -- SERVER ARGV...

Starts the gateway (supervised, the user's configuration, so
approvals.broker decides who answers), initializes, lists the tools, then
reads commands from stdin, one a line:

    call ID TOOL ARGS_JSON     sends tools/call and, when the answer comes,
                               prints {"id": ID, "blocked": bool,
                               "text": TEXT} on stdout (flushed)
    quit

It prints {"ready": true} once the session is up.
"""
import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client  # noqa: E402


def main():
    argv = sys.argv[1:]
    cut = argv.index("--")
    gw = [argv[0], "mcp", "--name", "files"] + ["--"] + argv[cut + 1:]
    s = client.Session(gw, stderr=sys.stderr)
    s.initialize()
    s.request("tools/list")
    out = threading.Lock()

    def say(obj):
        with out:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    def one(rid, tool, args):
        s.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                "params": {"name": tool, "arguments": args}})
        resp = s.response(rid, timeout=120)
        say({"id": rid, "blocked": client.blocked(resp),
             "text": client.text_of(resp)})

    say({"ready": True})
    for line in sys.stdin:
        words = line.split(" ", 3)
        if words[0].strip() == "quit":
            break
        if words[0] == "call":
            threading.Thread(target=one, daemon=True,
                             args=(words[1], words[2],
                                   json.loads(words[3]))).start()
    s.close()


main()
