#!/usr/bin/env python3
"""A DNS server for tests, on UDP ADDR:PORT (default 127.0.0.1:53), that
does what the test says per name:

  --hang NAME         never answers (a resolver that hangs)
  --slow NAME:SECS    answers NXDOMAIN after SECS seconds
  --a NAME:ADDR[,ADDR...]
                      answers A ADDR, one record per ADDR (AAAA: no data)
  --rebind NAME:FIRST:THEN
                      answers A FIRST to the first A query for NAME and A
                      THEN to every later one (TTL 0)
  anything else       NXDOMAIN at once

It prints its port, then one line per query on stderr ("q NAME TYPE").
Only for the network namespaces tests make (tests/integration/lib_net.sh
private_net): it listens where it is told and nowhere else.
"""
import argparse
import socket
import struct
import sys
import threading
import time


def qname(msg, off):
    labels = []
    while True:
        n = msg[off]
        off += 1
        if n == 0:
            return ".".join(labels).lower(), off
        if n & 0xC0:
            raise ValueError("compression in a question")
        labels.append(msg[off:off + n].decode("ascii", "replace"))
        off += n


def answer(msg, rcode, rdata=None, ttl=60):
    """rdata: one packed IPv4 address or a list of them."""
    qid, flags = struct.unpack("!HH", msg[:4])
    _, end = qname(msg, 12)
    question = msg[12:end + 4]
    rflags = 0x8000 | (flags & 0x0100) | 0x0080 | rcode
    rdatas = [] if rdata is None else (
        rdata if isinstance(rdata, list) else [rdata])
    head = struct.pack("!HHHHHH", qid, rflags, 1, len(rdatas), 0, 0)
    out = head + question
    for r in rdatas:
        out += struct.pack("!HHHIH", 0xC00C, 1, 1, ttl, 4) + r
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", default="127.0.0.1:53")
    ap.add_argument("--hang", action="append", default=[])
    ap.add_argument("--slow", action="append", default=[])
    ap.add_argument("--a", action="append", default=[])
    ap.add_argument("--rebind", action="append", default=[])
    o = ap.parse_args()
    hang = {h.lower().rstrip(".") for h in o.hang}
    slow = {}
    for s in o.slow:
        n, secs = s.rsplit(":", 1)
        slow[n.lower().rstrip(".")] = float(secs)
    addrs = {}
    for s in o.a:
        n, a = s.split(":", 1)
        addrs[n.lower().rstrip(".")] = [socket.inet_aton(x)
                                        for x in a.split(",")]
    rebind = {}
    for s in o.rebind:
        n, first, then = s.split(":")
        rebind[n.lower().rstrip(".")] = [socket.inet_aton(first),
                                         socket.inet_aton(then), 0]
    host, port = o.listen.rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((host, int(port)))
    print(sock.getsockname()[1], flush=True)

    def later(secs, data, peer):
        time.sleep(secs)
        sock.sendto(data, peer)

    while True:
        msg, peer = sock.recvfrom(4096)
        try:
            name, off = qname(msg, 12)
            qtype = struct.unpack("!H", msg[off:off + 2])[0]
        except (ValueError, IndexError, struct.error):
            continue
        print("q %s %d" % (name, qtype), file=sys.stderr, flush=True)
        if name in hang:
            continue
        if name in slow:
            threading.Thread(target=later, daemon=True,
                             args=(slow[name], answer(msg, 3), peer)).start()
            continue
        if name in rebind:
            r = rebind[name]
            if qtype != 1:
                sock.sendto(answer(msg, 0, None, 0), peer)
                continue
            sock.sendto(answer(msg, 0, r[0] if r[2] == 0 else r[1], 0),
                        peer)
            r[2] += 1
            continue
        if name in addrs:
            sock.sendto(answer(msg, 0, addrs[name] if qtype == 1 else None),
                        peer)
            continue
        sock.sendto(answer(msg, 3), peer)


if __name__ == "__main__":
    main()
