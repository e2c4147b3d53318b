# unixnotif_server.py LOG PATH...: a host process listening on each unix
# PATH (\0NAME: abstract NAME); one line in LOG per connection accepted.
# Prints "ready" once every socket listens.
import socket, sys, select, os
log = open(sys.argv[1], "a", buffering=1)
ls = []
for p in sys.argv[2:]:
    s = socket.socket(socket.AF_UNIX)
    if not p.startswith("\\0"):
        try: os.unlink(p)
        except FileNotFoundError: pass
        s.bind(p)
    else:
        s.bind("\0" + p[2:])
    s.listen(64); ls.append(s)
print("ready", flush=True)
while True:
    r, _, _ = select.select(ls, [], [])
    for s in r:
        c, _ = s.accept(); log.write("accept %s\n" % s.getsockname()); c.close()
