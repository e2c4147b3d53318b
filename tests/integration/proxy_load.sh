#!/usr/bin/env bash
# `cordon proxy` under load ($CORDON_BIN): 1,000 CONNECT tunnels open at
# once through one proxy to a python3 asyncio echo server on loopback
# (allowed as the IP literal 127.0.0.1:PORT). Every tunnel must be
# established, carry its own payload there and back unchanged, and then
# close; the proxy must still answer afterwards and must not have logged a
# refusal. The tunnels need about 2,000 descriptors in the proxy and as
# many in the python process: the soft limit is raised, and the test skips
# when the hard limit is below 2,100. Needs python3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_net.sh"
need python3
tunnels=1000
need_fds=2100
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt "$need_fds" ]; then
	skip_all "the hard descriptor limit ($hard) is below $need_fds"
fi
soft=$(ulimit -Sn)
if [ "$soft" != unlimited ] && [ "$soft" -lt "$need_fds" ]; then
	ulimit -Sn "$need_fds" 2>/dev/null ||
		skip_all "cannot raise the descriptor limit to $need_fds"
fi

echo "1..6"

# The echo server: prints its port, then echoes every connection until
# the peer closes.
cat >"$tmp/echo.py" <<'EOF'
import asyncio, sys

async def handle(r, w):
    try:
        while True:
            d = await r.read(65536)
            if not d:
                break
            w.write(d)
            await w.drain()
    except ConnectionError:
        pass
    finally:
        w.close()

async def main():
    srv = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=4096)
    print(srv.sockets[0].getsockname()[1], flush=True)
    async with srv:
        await srv.serve_forever()

asyncio.run(main())
EOF

# The load client: argv proxy-host proxy-port target count. Opens every
# tunnel first (all held open at once), then sends each its own payload
# and reads it back, then closes them all. Prints one summary line:
# "opened N established N echoed N peak N errors N" and the first errors.
cat >"$tmp/load.py" <<'EOF'
import asyncio, sys

phost, pport = sys.argv[1], int(sys.argv[2])
target, count = sys.argv[3], int(sys.argv[4])
opened = established = echoed = failed = 0
errors = []
up = []  # the writers of established tunnels

async def tunnel(i, all_open, conns):
    global opened, established, failed
    try:
        r, w = await asyncio.wait_for(
            asyncio.open_connection(phost, pport), 60)
        opened += 1
        conns.append(w)
        w.write(b"CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" %
                (target.encode(), target.encode()))
        await w.drain()
        head = await asyncio.wait_for(r.readuntil(b"\r\n\r\n"), 60)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError("tunnel %d: %r" % (i, head[:80]))
    except BaseException:
        failed += 1
        raise
    established += 1
    up.append(w)
    # Hold the tunnel until every one is up, so all are open at once.
    await all_open.wait()
    return r, w

async def exchange(i, r, w):
    global echoed
    payload = b"tunnel %05d says hello %s\n" % (i, b"x" * (i % 97))
    w.write(payload)
    await w.drain()
    got = await asyncio.wait_for(r.readexactly(len(payload)), 60)
    if got != payload:
        raise RuntimeError("tunnel %d: echoed %r" % (i, got[:80]))
    echoed += 1
    w.close()

async def main():
    all_open = asyncio.Event()
    conns = []
    tasks = [asyncio.create_task(tunnel(i, all_open, conns))
             for i in range(count)]
    async def release():
        while established + failed < count:
            await asyncio.sleep(0.05)
        all_open.set()
    await asyncio.gather(release())
    peak = sum(1 for w in up if not w.is_closing())
    res = await asyncio.gather(*tasks, return_exceptions=True)
    ex = []
    for i, x in enumerate(res):
        if isinstance(x, BaseException):
            errors.append("open %d: %r" % (i, x))
        else:
            ex.append(exchange(i, *x))
    for x in await asyncio.gather(*ex, return_exceptions=True):
        if isinstance(x, BaseException):
            errors.append("echo: %r" % (x,))
    for w in conns:
        w.close()
    print("opened %d established %d echoed %d peak %d errors %d" %
          (opened, established, echoed, peak, len(errors)))
    for e in errors[:5]:
        print("error", e)

asyncio.run(main())
EOF

serve eport python3 "$tmp/echo.py"
ok $? "the echo server started (port ${eport:-none})"

start_proxy --allow-host "127.0.0.1:$eport"
[ -n "$px" ]
ok $? "the proxy started (${px:-no address})"

start=$(date +%s%N)
python3 "$tmp/load.py" "${px%:*}" "${px##*:}" "127.0.0.1:$eport" \
	"$tunnels" >"$tmp/out" 2>&1
took=$((($(date +%s%N) - start) / 1000000))
grep -q "^opened $tunnels established $tunnels " "$tmp/out"
ok $? "all $tunnels CONNECT tunnels were established (${took} ms)"
grep -q " peak $tunnels errors" "$tmp/out"
ok $? "all $tunnels tunnels were open at the same time"
grep -q " echoed $tunnels peak .* errors 0$" "$tmp/out"
ok $? "every tunnel echoed its own payload unchanged, no errors"

# The proxy is still serving and refused nothing: one more tunnel works,
# the process is alive, and the log has one allow decision per tunnel and
# no denial.
python3 "$tmp/load.py" "${px%:*}" "${px##*:}" "127.0.0.1:$eport" 1 \
	>"$tmp/out" 2>&1
allows=$(grep -c "^cordon proxy: allow " "$tmp/px.log")
grep -q "^opened 1 established 1 echoed 1 peak 1 errors 0$" "$tmp/out" &&
	! grep -q "^cordon proxy: deny " "$tmp/px.log" &&
	[ "$allows" -eq $((tunnels + 1)) ] && kill -0 "$pxpid" 2>/dev/null
ok $? "afterwards the proxy still tunnels; $allows allow decisions, no denial"
