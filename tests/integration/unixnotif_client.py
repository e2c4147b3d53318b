# unixnotif_client.py CMD ARGS: the connects run_unixnotif.sh makes, in and
# out of cordon run; prints what happened (CONNECTED, ECHO hi, or the
# errno's name) on one line.
import socket, os, sys, errno, time, threading, ctypes
def en(e): return errno.errorcode.get(e, str(e))
def conn(path, typ=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_UNIX, typ)
    try:
        s.connect(path); return "CONNECTED"
    except OSError as e: return en(e.errno)
    finally: s.close()
cmd = sys.argv[1]
if cmd == "connect":
    print(conn(sys.argv[2]))
elif cmd == "wait-connect":
    # wait-connect FLAGDIR PATH...: signals started, waits for go, connects each
    fd = sys.argv[2]
    open(fd + "/started", "w").close()
    for _ in range(3000):
        if os.path.exists(fd + "/go"): break
        time.sleep(0.01)
    else:
        print("NO-GO"); sys.exit(1)
    print(" ".join(conn(p) for p in sys.argv[3:]))
elif cmd == "echo":
    # echo PATH: server thread + client in this process
    p = sys.argv[2]
    srv = socket.socket(socket.AF_UNIX); srv.bind(p); srv.listen(1)
    def serve():
        c, _ = srv.accept(); c.sendall(c.recv(100)); c.close()
    t = threading.Thread(target=serve); t.start()
    c = socket.socket(socket.AF_UNIX)
    try:
        c.connect(p); c.sendall(b"hi"); print("ECHO", c.recv(100).decode())
    except OSError as e: print(en(e.errno))
    t.join(5)
elif cmd == "abstract":
    print(conn("\0" + sys.argv[2]))
elif cmd == "abstract-echo":
    name = "\0" + sys.argv[2]
    srv = socket.socket(socket.AF_UNIX)
    try: srv.bind(name); srv.listen(1)
    except OSError as e: print("bind", en(e.errno)); sys.exit(0)
    print(conn(name))
elif cmd == "dgram":
    out = []
    for f in (lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM),
              lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM),
              lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)):
        try: f(); out.append("OK")
        except OSError as e: out.append(en(e.errno))
    print(" ".join(out))
elif cmd == "tcp":
    # tcp PORT [listen]: connect to 127.0.0.1:PORT (listen first inside when asked)
    port = int(sys.argv[2])
    if len(sys.argv) > 3:
        l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try: l.bind(("127.0.0.1", port)); l.listen(1)
        except OSError as e: print("bind", en(e.errno)); sys.exit(0)
    s = socket.socket()
    try: s.connect(("127.0.0.1", port)); print("CONNECTED")
    except OSError as e: print(en(e.errno))
elif cmd == "nonblock":
    s = socket.socket(socket.AF_UNIX); s.setblocking(False)
    try: s.connect(sys.argv[2]); print("CONNECTED")
    except OSError as e: print(en(e.errno))
elif cmd == "race":
    # race GOOD BAD N: connect N times to an address that flips between
    # GOOD (allowed) and BAD (refused) while a thread also swaps the fd
    good, bad, n = sys.argv[2].encode(), sys.argv[3].encode(), int(sys.argv[4])
    libc = ctypes.CDLL(None, use_errno=True)
    def sun(p):
        b = ctypes.create_string_buffer(110)
        ctypes.memmove(b, (1).to_bytes(2, "little") + p + b"\0", 2 + len(p) + 1)
        return b
    buf, g, bd = sun(good), sun(good), sun(bad)
    stop = False
    spare = socket.socket(socket.AF_UNIX)
    holder = {}
    def flip():
        while not stop:
            ctypes.memmove(buf, bd, 110); ctypes.memmove(buf, g, 110)
            fd = holder.get("fd")
            if fd is not None:
                try: os.dup2(spare.fileno(), fd)
                except OSError: pass
    t = threading.Thread(target=flip); t.start()
    ok = err = 0
    for i in range(n):
        s = socket.socket(socket.AF_UNIX); holder["fd"] = s.fileno()
        r = libc.connect(s.fileno(), buf, 110)
        if r == 0: ok += 1
        else: err += 1
        holder["fd"] = None; s.close()
    stop = True; t.join()
    print("done", ok, err)
elif cmd == "parallel":
    # parallel DIR: a blocking connect pending on a full backlog does not
    # hold up another connect
    d = sys.argv[2]
    full = socket.socket(socket.AF_UNIX); full.bind(d + "/full.sock"); full.listen(0)
    free = socket.socket(socket.AF_UNIX); free.bind(d + "/free.sock"); free.listen(8)
    held = []
    for i in range(2):
        c = socket.socket(socket.AF_UNIX); c.setblocking(False)
        try: c.connect(d + "/full.sock")
        except OSError: pass
        held.append(c)
    def pend():
        c = socket.socket(socket.AF_UNIX)
        try: c.connect(d + "/full.sock")
        except OSError: pass
    t = threading.Thread(target=pend, daemon=True); t.start()
    time.sleep(0.3)
    print("pending" if t.is_alive() else "not-pending", conn(d + "/free.sock"))
    sys.stdout.flush(); os._exit(0)
