"""cordon: a safety layer between AI agents and the tools they call.

The Python binding of libcordon, standard library only (ctypes):

    import cordon
    cordon.classify("rm -rf /")["risk"]              # 'blocked'
    cordon.check("Read", {"file_path": "~/.ssh/id_rsa"})["decision"]  # 'deny'
    cordon.run(["echo", "hi"])["output"]               # 'hi\\n'
    cordon.redact("token=ghp_...")                     # 'token=[REDACTED...]'

Results are plain dicts with the field names of the JSON objects cordon
prints (doc/DESIGN.md); errors are CordonError subclasses carrying the
library's code and diagnostic. Each call builds what it needs and frees it
before returning, so the functions are safe to call from several threads.

The library is found through $CORDON_LIB (a path), else where meson
installed it with this package, else the dynamic linker's cache, else a
build directory of the source tree this package sits in
(build*/libcordon.so).
"""

import ctypes
import json
import os

from . import _lib

__all__ = [
    "classify", "check", "run", "redact", "library_path",
    "CordonError", "LibraryError", "NoMemoryError", "InvalidArgumentError",
    "LimitError", "ParseError", "ConfigError", "RegexError",
    "CordonIOError", "JSONError",
]

__version__ = "0.1.0"

# ---- errors ------------------------------------------------------------


class CordonError(Exception):
    """An error from libcordon. code is the cordon_err value (None when the
    library itself could not be loaded), message the diagnostic text;
    offset, line, column and errno come from struct cordon_diag (0 when
    they do not apply)."""

    def __init__(self, message, code=None, offset=0, line=0, column=0,
                 errno=0):
        super().__init__(message)
        self.message = message
        self.code = code
        self.offset = offset
        self.line = line
        self.column = column
        self.errno = errno


class LibraryError(CordonError, OSError):
    """libcordon could not be found or lacks a function."""


class NoMemoryError(CordonError, MemoryError):
    """CORDON_E_NOMEM"""


class InvalidArgumentError(CordonError, ValueError):
    """CORDON_E_INVAL"""


class LimitError(CordonError):
    """CORDON_E_LIMIT: an input over one of the limits, which the message
    names. From classify(), .verdict holds the fail-closed verdict."""
    verdict = None


class ParseError(CordonError):
    """CORDON_E_PARSE"""


class ConfigError(CordonError):
    """CORDON_E_CONFIG: the message names the key path."""


class RegexError(CordonError):
    """CORDON_E_REGEX"""


class CordonIOError(CordonError, OSError):
    """CORDON_E_IO"""


class JSONError(CordonError, ValueError):
    """CORDON_E_JSON"""


# The enum cordon_err values of include/cordon.h.
_ERRORS = {
    1: NoMemoryError,
    2: InvalidArgumentError,
    3: LimitError,
    4: ParseError,
    5: ConfigError,
    6: RegexError,
    7: CordonIOError,
    8: JSONError,
}


def _error(lib, code, diag=None):
    """The exception for a cordon_err and its diagnostic."""
    cls = _ERRORS.get(code, CordonError)
    msg = ""
    if diag is not None:
        msg = diag.message.decode("utf-8", "replace")
    if not msg:
        msg = lib.dll.cordon_strerror(code).decode("utf-8", "replace")
    if diag is None:
        return cls(msg, code)
    return cls(msg, code, diag.offset, diag.line, diag.column,
               diag.sys_errno)


def _load(*needs):
    """The library, with the functions in needs."""
    try:
        lib = _lib.get()
    except OSError as e:
        raise LibraryError(str(e)) from None
    for name in needs:
        if not lib.has(name):
            raise LibraryError("%s has no %s(): the library is older than "
                               "this package" % (lib.path, name))
    return lib


def library_path():
    """The path or soname of the libcordon in use (loading it)."""
    return _load().path


def _b(s, what="a string argument"):
    """A str (or bytes, or a path) as a C string; None stays None. C cannot
    see past a NUL byte, so one is an error rather than a silent cut."""
    if s is None:
        return None
    data = s if isinstance(s, bytes) else os.fsencode(s)
    if b"\0" in data:
        raise InvalidArgumentError("%s contains a NUL byte" % what, 2)
    return data


def _json_of(lib, ptr):
    """A malloc'd JSON string from the library, parsed, and freed."""
    text = lib.take_string(ptr)
    if text is None:
        raise NoMemoryError("out of memory", 1)
    return json.loads(text.decode("utf-8", "replace"))


# ---- classify ------------------------------------------------------------


def classify(cmd, cwd=None, workspace=None, home=None):
    """Rates a shell command line; nothing is run.

    cmd is a str (or bytes; NUL bytes are allowed). cwd defaults to the
    current directory, workspace to cwd, home to $HOME (as `cordon
    classify` does). Returns the verdict: {"risk": "safe|caution|
    destructive|blocked", "labels": [...], "reasons": [...], "segments":
    [{"text", "risk", "labels"}], "matchedRules": [...], "parsed": bool}.
    An input over a limit raises LimitError whose .verdict is the verdict
    (rated blocked: what cannot be read is refused)."""
    lib = _load()
    data = cmd.encode("utf-8", "surrogateescape") if isinstance(cmd, str) \
        else bytes(cmd)
    if cwd is None:
        cwd = os.getcwd()
    if home is None:
        home = os.environ.get("HOME")
    ctx = _lib.Context(_b(os.path.abspath(cwd)),
                       _b(os.path.abspath(workspace)) if workspace else None,
                       _b(home) if home and home.startswith("/") else None,
                       None)
    diag = _lib.Diag()
    cls = lib.dll.cordon_classifier_new(None)
    v = lib.dll.cordon_verdict_new()
    try:
        if not cls or not v:
            raise NoMemoryError("out of memory", 1)
        err = lib.dll.cordon_classify(cls, ctypes.byref(ctx), data,
                                      len(data), v, ctypes.byref(diag))
        verdict = _json_of(lib, lib.dll.cordon_verdict_to_json(v))
    finally:
        lib.dll.cordon_verdict_free(v)
        lib.dll.cordon_classifier_free(cls)
    if err:
        e = _error(lib, err, diag)
        e.verdict = verdict
        raise e
    return verdict


# ---- check ---------------------------------------------------------------


def _load_config(lib, cfg, config, mode):
    """Applies config (a dict, JSON text, or a path-like naming a file) and
    then mode as explicit layers over the built-in defaults."""
    diag = _lib.Diag()
    if config is not None:
        if isinstance(config, os.PathLike):
            err = lib.dll.cordon_config_load_file(
                cfg, _b(config), _lib.CONFIG_EXPLICIT, ctypes.byref(diag))
        else:
            if isinstance(config, dict):
                text = json.dumps(config).encode("utf-8")
            elif isinstance(config, str):
                text = config.encode("utf-8", "surrogateescape")
            else:
                text = bytes(config)
            err = lib.dll.cordon_config_load_json(
                cfg, text, len(text), b"config", _lib.CONFIG_EXPLICIT,
                ctypes.byref(diag))
        if err:
            raise _error(lib, err, diag)
    if mode is not None:
        text = json.dumps({"safety": {"permission_mode": mode}}).encode()
        err = lib.dll.cordon_config_load_json(
            cfg, text, len(text), b"mode", _lib.CONFIG_EXPLICIT,
            ctypes.byref(diag))
        if err:
            raise _error(lib, err, diag)


def check(tool, args=None, cwd=None, session=None, config=None, mode=None,
          workspace=None):
    """Decides one tool call; runs nothing.

    tool is the tool's name ("Bash", "Read", "mcp__srv__tool" ...), args a
    dict (or JSON text) of its arguments. config is a configuration in the
    shape of doc/DESIGN.md as a dict, JSON text or an os.PathLike naming a
    file, applied over the built-in defaults (the user and project files
    are not read, nor durable approvals: the answer depends only on what
    is passed). mode is a permission mode ("supervised",
    "auto-accept-edits", "auto", "full-access"), clamped to
    max_permission_mode. workspace defaults to the config's or the current
    directory, home to $HOME. An ASK stays an ASK. Returns the check
    object: {"decision": "allow|deny|ask", "step", "reason", "risk",
    "labels", "tool", "kind", "hard", ...}. A bad config raises
    ConfigError naming the key path."""
    lib = _load()
    if args is None:
        args = {}
    if isinstance(args, dict):
        args_text = json.dumps(args).encode("utf-8")
    elif isinstance(args, str):
        args_text = args.encode("utf-8", "surrogateescape")
    else:
        args_text = bytes(args)
    call = _lib.Call(_b(tool, "tool"), args_text, len(args_text),
                     _b(os.path.abspath(cwd), "cwd") if cwd else None,
                     _b(session, "session"), None)
    ctx = _lib.Context(None,
                       _b(os.path.abspath(workspace)) if workspace else None,
                       None, None)
    diag = _lib.Diag()
    cfg = lib.dll.cordon_config_new()
    pol = ctypes.c_void_p()
    res = None
    try:
        if not cfg:
            raise NoMemoryError("out of memory", 1)
        _load_config(lib, cfg, config, mode)
        err = lib.dll.cordon_policy_new(cfg, ctypes.byref(ctx),
                                        ctypes.byref(pol), ctypes.byref(diag))
        if err:
            raise _error(lib, err, diag)
        res = lib.dll.cordon_result_new()
        if not res:
            raise NoMemoryError("out of memory", 1)
        err = lib.dll.cordon_policy_decide(pol, ctypes.byref(call),
                                           _lib.DECIDE_NO_PROMPT, res,
                                           ctypes.byref(diag))
        if err:
            raise _error(lib, err, diag)
        return _json_of(lib, lib.dll.cordon_result_to_json(res))
    finally:
        lib.dll.cordon_result_free(res)
        lib.dll.cordon_policy_free(pol)
        lib.dll.cordon_config_free(cfg)


# ---- run -----------------------------------------------------------------


def _cstrings(items, what):
    """A NULL-terminated char *[] and the bytes that back it."""
    data = [_b(x, what) for x in items]
    arr = (ctypes.c_char_p * (len(data) + 1))(*data, None)
    return arr, data


def run(argv, allow=None, workspace=None, timeout=30, output_cap=None,
        env=None, strict=False, cpu=None):
    """Runs argv without a shell in the sandbox (the argv-only runner)
    in the current directory: argv[0] must be on allow (command
    names; default: the base name of argv[0]), ";" "|" "$( )" are plain
    bytes, stdin is /dev/null,
    the environment is filtered (env, a dict or "NAME=value" strings, is
    added unfiltered), the workspace (default: the current directory) is
    the only writable root, no network, timeout seconds of wall clock and
    cpu seconds of CPU (default: the timeout), output_cap bytes of output
    (default 1 MiB). strict refuses to run unless every wall is enforced.

    Returns {"status": what `cordon run` would exit with, "exitCode": int
    or None, "signal": int or None, "timedOut", "blocked", "truncated":
    bools, "output": stdout and stderr as str, "message": why nothing ran
    ("" when it ran), "report": the run report dict}. A command that was
    refused is a result (blocked, or status 125), not an exception; an
    error before anything ran raises."""
    lib = _load()
    argv = list(argv)
    if not argv:
        raise InvalidArgumentError("run: argv is empty", 2)
    if allow is None:
        allow = [os.path.basename(os.fsdecode(_b(argv[0])))]
    if isinstance(allow, (str, bytes)):
        allow = [allow]
    c_argv, keep_argv = _cstrings(argv, "argv")
    c_allow, keep_allow = _cstrings(list(allow), "allow")
    c_env = None
    keep_env = None
    if env is not None:
        if isinstance(env, dict):
            env = ["%s=%s" % (k, v) for k, v in env.items()]
        c_env, keep_env = _cstrings(list(env), "env")
    opts = _lib.ShellOpts(
        c_allow, len(keep_allow),
        _b(os.path.abspath(workspace)) if workspace else None,
        int(timeout or 0), int(output_cap or 0), int(cpu or 0),
        c_env, 1 if strict else 0)
    res = _lib.ShellResult()
    diag = _lib.Diag()
    err = lib.dll.cordon_shell_run(ctypes.byref(opts), c_argv,
                                   ctypes.byref(res), ctypes.byref(diag))
    try:
        if err:
            raise _error(lib, err, diag)
        out = b""
        if res.output:
            out = ctypes.string_at(res.output, res.output_len)
        report = None
        if res.report_json:
            report = json.loads(ctypes.string_at(res.report_json)
                                .decode("utf-8", "replace"))
        return {
            "status": res.status,
            "exitCode": res.exit_code if res.exit_code >= 0 else None,
            "signal": res.signal or None,
            "timedOut": bool(res.timed_out),
            "blocked": bool(res.blocked),
            "truncated": bool(res.truncated),
            "output": out.decode("utf-8", "replace"),
            "message": res.message.decode("utf-8", "replace"),
            "report": report,
        }
    finally:
        lib.dll.cordon_shell_result_free(ctypes.byref(res))
        del keep_argv, keep_allow, keep_env


# ---- redact --------------------------------------------------------------


def redact(text):
    """text with its secrets replaced by "[REDACTED]" or
    "[REDACTED:<kind>]" (key names stay). Best effort: a secret of an
    unknown shape can pass. str in, str out; bytes in, bytes out."""
    lib = _load("cordon_redact")
    as_bytes = isinstance(text, (bytes, bytearray))
    data = bytes(text) if as_bytes else \
        text.encode("utf-8", "surrogateescape")
    out = ctypes.c_void_p()
    out_len = ctypes.c_size_t()
    err = lib.dll.cordon_redact(data, len(data), ctypes.byref(out),
                                ctypes.byref(out_len), None)
    if err:
        lib.free(out)
        raise _error(lib, err)
    result = lib.take_string(out.value, out_len.value)
    if as_bytes:
        return result
    return result.decode("utf-8", "surrogateescape")
