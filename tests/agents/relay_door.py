#!/usr/bin/env python3
"""A stand-in for a door inside `cordon run`: sends messages through the
audit relay ($CORDON_AUDIT_FD, src/audit/relay.h) and prints each answer,
one line per message: NAME ANSWER ("-" when none came).

usage: relay_door.py [--path] NAME... where NAME is one of
  good      {"event":"decision","decision":"allow",...} with a reply socket
  forged    a member the log owns ("seq", "hash")
  rotated   an event the log owns
  garbage   bytes that are not JSON
  big       over the relay's 128 KiB limit
  nofd      a good record without a reply socket
With --path each message goes on its own connection to $CORDON_AUDIT_SOCK
(no descriptor passed; the answer comes on the connection), as a door
whose launcher closed the descriptor does.
"""
import json
import os
import select
import socket
import sys

by_path = sys.argv[1:2] == ["--path"]
names = sys.argv[2:] if by_path else sys.argv[1:]
if not by_path:
    relay = socket.socket(fileno=int(os.environ["CORDON_AUDIT_FD"]))

MSGS = {
    "good": json.dumps({"event": "decision", "decision": "allow",
                        "tool": "Bash", "door": "relay-test",
                        "note": "token ghp_Zq3Xw9Lk2Mn7Bv5Cx8Hj4Gf6Ds1Ap0Ty9Ur3"}),
    "forged": '{"event":"decision","seq":1,"hash":"00"}',
    "rotated": '{"event":"rotated","previous_head":"00"}',
    "garbage": "\x01\x02 not json at all",
    "big": '{"event":"decision","x":"' + "a" * (140 * 1024) + '"}',
    "nofd": '{"event":"decision","decision":"deny"}',
}

for name in names:
    data = MSGS[name].encode("utf-8", "surrogateescape")
    if by_path:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        c.connect(os.environ["CORDON_AUDIT_SOCK"])
        c.send(data)
        ans = "-"
        if select.select([c], [], [], 30)[0]:
            ans = c.recv(512).decode() or "-"
        c.close()
        print(name, ans, flush=True)
        continue
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    fds = [] if name == "nofd" else [theirs.fileno()]
    anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
            bytes(memoryview(bytearray(b"".join(
                f.to_bytes(4, sys.byteorder) for f in fds)))))] if fds else []
    relay.sendmsg([data], anc)
    theirs.close()
    ans = "-"
    if fds and select.select([mine], [], [], 30)[0]:
        ans = mine.recv(512).decode() or "-"
    mine.close()
    print(name, ans, flush=True)
