#!/usr/bin/env python3
"""A stand-in for a door inside `cordon run` that asks the console through
the run's broker relay ($CORDON_BROKER_FD, src/policy/broker.h): sends one
request line per NAME, each with its own reply socket, and prints what
came back, one line per request: NAME ANSWER ("-" when nothing came).

usage: broker_door.py [--session S] [--command C] [--timeout MS]
                      [--hold N] NAME...
where NAME is one of
  good      a Bash call of C (default "rm -rf build"), session S
  relayed   the same claiming a "relay" member (another run's)
  door      the same from a door that is not mcp, hook or check
  big       a request over the relay's 128 KiB
  garbage   bytes that are not JSON
  nofd      a good request without a reply socket
  empty     a message of no bytes, no reply socket (not the relay's end)
  pipefd    a good request with a pipe's write end as its reply socket;
            prints "eof" when the run closed it at once without a byte
  streamfd  the same with a SOCK_STREAM socket
  filefd    the same with a regular file ($HOME/replyfile, kept empty)
--hold N sends N good requests at once and prints their answers in order
(more than BROKER_RELAY_INFLIGHT are refused at once).
"""
import json
import os
import select
import socket
import sys

args = sys.argv[1:]
opt = {"--session": "s-relay", "--command": "rm -rf build",
       "--timeout": "30000", "--hold": "0"}
while args and args[0] in opt:
    opt[args[0]] = args[1]
    args = args[2:]
relay = socket.socket(fileno=int(os.environ["CORDON_BROKER_FD"]))


def request(**over):
    r = {"v": 1, "door": "check", "tool": "Bash", "kind": "execute",
         "args": {"command": opt["--command"]},
         "command": opt["--command"], "path": None, "risk": "destructive",
         "labels": ["delete"], "reason": "deletes build",
         "session": opt["--session"], "exactOnly": True,
         "sandbox": "none", "timeoutMs": int(opt["--timeout"])}
    r.update(over)
    return json.dumps(r) + "\n"


MSGS = {
    "good": lambda: request(),
    "relayed": lambda: request(relay={"run": "0" * 32,
                                      "command": "cordon run -- other"}),
    "door": lambda: request(door="console"),
    "big": lambda: request(reason="a" * (130 * 1024)),
    "garbage": lambda: "\x01\x02 not json at all\n",
    "nofd": lambda: request(),
    "empty": lambda: "",
    "pipefd": lambda: request(),
    "streamfd": lambda: request(),
    "filefd": lambda: request(),
}
ODD = ("pipefd", "streamfd", "filefd")


def odd_reply(name):
    """(the descriptor to pass, what to read the run's doing from)"""
    if name == "pipefd":
        r, w = os.pipe()
        return w, r
    if name == "streamfd":
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        return theirs.detach(), mine.detach()
    return os.open(os.path.join(os.environ["HOME"], "replyfile"),
                   os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600), None


def send_odd(name):
    give, keep = odd_reply(name)
    anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
            give.to_bytes(4, sys.byteorder))]
    relay.sendmsg([MSGS[name]().encode()], anc)
    os.close(give)
    return keep


def answer_odd(name, keep):
    ans = "-"
    if keep is not None and select.select([keep], [], [], 10)[0]:
        ans = os.read(keep, 512).decode().strip() or "eof"
    print(name, ans if keep is not None else "sent", flush=True)


def send(name):
    data = MSGS[name]().encode()
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    anc = [] if name in ("nofd", "empty") else [
        (socket.SOL_SOCKET, socket.SCM_RIGHTS,
         theirs.fileno().to_bytes(4, sys.byteorder))]
    try:
        relay.sendmsg([data], anc)
    except OSError as e:
        print(name, "send-failed:%d" % e.errno, flush=True)
        return None
    theirs.close()
    return mine


def answer(name, mine, wait):
    ans = "-"
    if mine and name not in ("nofd", "empty") and select.select([mine], [], [], wait)[0]:
        ans = mine.recv(512).decode().strip() or "-"
    print(name, ans, flush=True)


hold = int(opt["--hold"])
if hold:
    socks = [send("good") for _ in range(hold)]
    for s in socks:
        answer("good", s, 40)
for name in args:
    if name in ODD:
        answer_odd(name, send_odd(name))
        continue
    answer(name, send(name), 0 if name in ("nofd", "empty") else 40)
