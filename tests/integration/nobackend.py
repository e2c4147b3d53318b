#!/usr/bin/env python3
"""nobackend.py ARGV...: runs ARGV where no sandbox backend works.

A seccomp filter (x86-64) makes landlock_create_ruleset, unshare, clone3,
clone with CLONE_NEWUSER and any further seccomp filter fail with ENOSYS,
as a kernel without Landlock, user namespaces and seccomp would: how the tests reach the
"no sandbox backend" paths on a machine that has both. Exits 77 (skip) on
another architecture."""
import ctypes
import os
import platform
import struct
import sys

if platform.machine() != "x86_64":
    sys.exit(77)

LD_ABS, JEQ, JSET, RET = 0x20, 0x15, 0x45, 0x06
ALLOW, ERRNO = 0x7FFF0000, 0x00050000
prog = [
    (LD_ABS, 0, 0, 4),            # 0: arch
    (JEQ, 0, 11, 0xC000003E),     # 1: not x86-64: allow (13)
    (LD_ABS, 0, 0, 0),            # 2: nr
    (JEQ, 10, 0, 444),            # 3: landlock_create_ruleset
    (JEQ, 9, 0, 272),            # 4: unshare
    (JEQ, 8, 0, 435),             # 5: clone3
    (JEQ, 7, 0, 317),             # 6: seccomp
    (JEQ, 3, 0, 157),             # 7: prctl: to 11
    (JEQ, 0, 4, 56),              # 8: clone, else allow
    (LD_ABS, 0, 0, 16),           # 9: its flags
    (JSET, 3, 2, 0x10000000),     # 10: CLONE_NEWUSER: errno, else allow
    (LD_ABS, 0, 0, 16),           # 11: prctl's option
    (JEQ, 1, 0, 22),              # 12: PR_SET_SECCOMP: errno
    (RET, 0, 0, ALLOW),           # 13
    (RET, 0, 0, ERRNO | 38),      # 14: ENOSYS
]
buf = b"".join(struct.pack("HBBI", *i) for i in prog)
filt = ctypes.create_string_buffer(buf)


class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


fp = Fprog(len(prog), ctypes.addressof(filt))
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p,
                       ctypes.c_ulong, ctypes.c_ulong]
if libc.prctl(38, 1, None, 0, 0) != 0 or \
        libc.prctl(22, 2, ctypes.addressof(fp), 0, 0) != 0:
    print("nobackend.py: seccomp: " + os.strerror(ctypes.get_errno()),
          file=sys.stderr)
    sys.exit(1)
os.execvp(sys.argv[1], sys.argv[1:])
