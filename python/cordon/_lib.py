"""The ctypes side of the binding: finding libcordon, the structs of
include/cordon.h field for field, and the prototypes of the functions the
package calls. Nothing here is public API; see cordon/__init__.py.
"""

import ctypes
import ctypes.util
import glob
import os
import threading

from ctypes import (POINTER, Structure, c_char, c_char_p, c_int, c_size_t,
                    c_uint, c_ulong, c_void_p)

# ---- the structs, in the header's order and with its types ---------------


class Diag(Structure):
    """struct cordon_diag"""
    _fields_ = [
        ("code", c_int),            # enum cordon_err
        ("offset", c_size_t),
        ("line", c_uint),
        ("column", c_uint),
        ("sys_errno", c_int),
        ("message", c_char * 256),
    ]


class Context(Structure):
    """struct cordon_context"""
    _fields_ = [
        ("cwd", c_char_p),
        ("workspace", c_char_p),
        ("home", c_char_p),
        ("tmpdir", c_char_p),
    ]


class Call(Structure):
    """struct cordon_call"""
    _fields_ = [
        ("tool", c_char_p),
        ("args_json", c_char_p),
        ("args_len", c_size_t),
        ("cwd", c_char_p),
        ("session", c_char_p),
        ("schema_json", c_char_p),
    ]


class Reply(Structure):
    """struct cordon_reply"""
    _fields_ = [
        ("answer", c_int),          # enum cordon_answer
        ("amend_prefix", POINTER(c_char_p)),
        ("amend_len", c_size_t),
        ("by", c_char_p),
    ]


class ShellOpts(Structure):
    """struct cordon_shell_opts"""
    _fields_ = [
        ("allow", POINTER(c_char_p)),
        ("nallow", c_size_t),
        ("workspace", c_char_p),
        ("timeout_s", c_uint),
        ("output_cap", c_size_t),
        ("cpu_s", c_ulong),
        ("env", POINTER(c_char_p)),
        ("strict", c_int),
    ]


class ShellResult(Structure):
    """struct cordon_shell_result; output and report_json are malloc'd and
    released with cordon_shell_result_free, so they stay raw pointers."""
    _fields_ = [
        ("status", c_int),
        ("exit_code", c_int),
        ("signal", c_int),
        ("timed_out", c_int),
        ("blocked", c_int),
        ("truncated", c_int),
        ("output", c_void_p),
        ("output_len", c_size_t),
        ("report_json", c_void_p),
        ("message", c_char * 256),
    ]


# ---- prototypes ------------------------------------------------------------

# Functions returning a malloc'd string are declared c_void_p so the pointer
# survives to be freed; borrowed strings are c_char_p.
_PROTOTYPES = {
    "cordon_strerror": (c_char_p, [c_int]),
    "cordon_classifier_new": (c_void_p, [c_void_p]),
    "cordon_classifier_free": (None, [c_void_p]),
    "cordon_verdict_new": (c_void_p, []),
    "cordon_verdict_free": (None, [c_void_p]),
    "cordon_classify": (c_int, [c_void_p, POINTER(Context), c_char_p,
                                c_size_t, c_void_p, POINTER(Diag)]),
    "cordon_verdict_to_json": (c_void_p, [c_void_p]),
    "cordon_config_new": (c_void_p, []),
    "cordon_config_free": (None, [c_void_p]),
    "cordon_config_load_json": (c_int, [c_void_p, c_char_p, c_size_t,
                                        c_char_p, c_int, POINTER(Diag)]),
    "cordon_config_load_file": (c_int, [c_void_p, c_char_p, c_int,
                                        POINTER(Diag)]),
    "cordon_policy_new": (c_int, [c_void_p, POINTER(Context),
                                  POINTER(c_void_p), POINTER(Diag)]),
    "cordon_policy_free": (None, [c_void_p]),
    "cordon_policy_decide": (c_int, [c_void_p, POINTER(Call), c_uint,
                                     c_void_p, POINTER(Diag)]),
    "cordon_result_new": (c_void_p, []),
    "cordon_result_free": (None, [c_void_p]),
    "cordon_result_to_json": (c_void_p, [c_void_p]),
    "cordon_shell_run": (c_int, [POINTER(ShellOpts), POINTER(c_char_p),
                                 POINTER(ShellResult), POINTER(Diag)]),
    "cordon_shell_result_free": (None, [POINTER(ShellResult)]),
    "cordon_redact": (c_int, [c_char_p, c_size_t, POINTER(c_void_p),
                              POINTER(c_size_t), POINTER(c_size_t)]),
}

CONFIG_EXPLICIT = 3
DECIDE_NO_PROMPT = 1

# ---- finding and loading the library -------------------------------------


def _asan_loaded():
    """Whether the AddressSanitizer runtime is already in this process (a
    sanitized libcordon can only be loaded then: ASan must come first)."""
    try:
        with open("/proc/self/maps", "rb") as f:
            return b"libasan" in f.read()
    except OSError:
        return False


def _sanitized(path):
    """Whether the shared library at path was built with AddressSanitizer
    (gcc or clang). Loading one into a plain python3 kills the process or
    fails, so the search in a source tree steps over it."""
    try:
        with open(path, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return True


def _mtime(path):
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def _tree_candidates():
    """libcordon.so in the build directories of the source tree this
    package sits in (python/cordon/ -> the repository root): build/ first,
    then the others, newest first; dangling links and sanitized builds
    (unless the ASan runtime is loaded) left out."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    found = [p for p in glob.glob(os.path.join(root, "build*",
                                               "libcordon.so"))
             if os.path.exists(p)]
    found.sort(key=lambda p: (os.path.basename(os.path.dirname(p)) != "build",
                              -_mtime(p)))
    asan = _asan_loaded()
    return [p for p in found if asan or not _sanitized(p)]


# A relative $CORDON_LIB is taken relative to the directory the package was
# imported from: the library is loaded on first use, perhaps after a chdir.
_ENV_AT_IMPORT = os.environ.get("CORDON_LIB")
_ENV_ABS = os.path.abspath(_ENV_AT_IMPORT) if _ENV_AT_IMPORT and \
    "/" in _ENV_AT_IMPORT else _ENV_AT_IMPORT


def _installed():
    """The library installed beside this package by meson, if it was."""
    try:
        from . import _paths
    except ImportError:
        return []
    path = os.path.join(_paths.LIBDIR, "libcordon.so.0")
    return [path] if os.path.exists(path) else []


def candidates():
    """The libraries to try, in order: $CORDON_LIB alone when set, else the
    one installed with this package, else what the dynamic linker's cache
    knows, else the builds of the source tree."""
    env = os.environ.get("CORDON_LIB")
    if env:
        return [_ENV_ABS if env == _ENV_AT_IMPORT else env]
    found = _installed()
    name = ctypes.util.find_library("cordon")
    if name:
        found.append(name)
    return found + _tree_candidates()


class Lib:
    """The loaded library and libc's free(), set up once."""

    def __init__(self, path):
        self.path = path
        self.dll = ctypes.CDLL(path)
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(self.dll, name, None)
            if fn is None:
                continue        # an older library: has() says so
            fn.restype = restype
            fn.argtypes = argtypes
        # free() as the process resolves it, so that a sanitizer's malloc
        # is paired with its own free.
        try:
            self.free = ctypes.CDLL(None).free
        except (OSError, AttributeError):
            self.free = ctypes.CDLL(ctypes.util.find_library("c")).free
        self.free.restype = None
        self.free.argtypes = [c_void_p]

    def has(self, name):
        return getattr(self.dll, name, None) is not None

    def take_string(self, ptr, length=None):
        """The bytes of a malloc'd string, which is freed."""
        if not ptr:
            return None
        try:
            if length is None:
                return ctypes.string_at(ptr)
            return ctypes.string_at(ptr, length)
        finally:
            self.free(ptr)


_lock = threading.Lock()
_lib = None


def get():
    """The library, loaded on first use: the first candidate that loads.
    Raises OSError saying what was tried when none does."""
    global _lib
    with _lock:
        if _lib is None:
            tried = []
            for path in candidates():
                try:
                    _lib = Lib(path)
                    break
                except OSError as e:
                    tried.append(str(e))
            else:
                raise OSError(
                    "libcordon not found (%s): set CORDON_LIB to the path "
                    "of libcordon.so, install it (meson install), or "
                    "build it in this source tree (meson setup build && "
                    "ninja -C build)" % ("; ".join(tried) or
                                         "no candidate"))
        return _lib
