"""Tests of the Python binding against the real libcordon.

Run from the repository root with
    CORDON_LIB=build/libcordon.so python3 -m unittest discover -s python/tests
(without CORDON_LIB the package looks for an installed library, then a
build directory of this source tree). The sandboxed runs need user
namespaces or Landlock, as `cordon run` does.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import cordon  # noqa: E402

# A GitHub classic token's shape: ghp_ and 36 characters.
GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def scratch():
    """A directory the sandbox leaves visible: it replaces /tmp, so
    scratch trees go under /var/tmp."""
    base = "/var/tmp" if os.path.isdir("/var/tmp") else None
    return tempfile.mkdtemp(prefix="cordon-py-", dir=base)


class TestClassify(unittest.TestCase):
    def test_rm_rf_root_is_blocked(self):
        v = cordon.classify("rm -rf /")
        self.assertEqual(v["risk"], "blocked")
        self.assertIn("delete-recursive", v["labels"])
        self.assertIn("denylisted", v["labels"])
        self.assertTrue(v["parsed"])
        self.assertTrue(v["reasons"])

    def test_ls_is_safe(self):
        v = cordon.classify("ls -la")
        self.assertEqual(v["risk"], "safe")
        self.assertEqual(v["labels"], [])
        self.assertEqual([s["text"] for s in v["segments"]], ["ls -la"])

    def test_segments_and_workspace(self):
        ws = "/home/user/project"
        v = cordon.classify("ls && rm -rf build", cwd=ws, workspace=ws)
        self.assertEqual(len(v["segments"]), 2)
        self.assertEqual(v["segments"][0]["risk"], "safe")
        self.assertNotEqual(v["segments"][1]["risk"], "safe")
        self.assertIn(v["risk"], ("caution", "destructive"))

    def test_outside_workspace_is_worse_than_inside(self):
        ws = "/home/user/project"
        inside = cordon.classify("rm -rf build", cwd=ws, workspace=ws)
        outside = cordon.classify("rm -rf /etc/nginx", cwd=ws, workspace=ws)
        order = ["safe", "caution", "destructive", "blocked"]
        self.assertGreater(order.index(outside["risk"]),
                           order.index(inside["risk"]))

    def test_bytes_and_unparsed(self):
        v = cordon.classify(b"echo 'unterminated")
        self.assertFalse(v["parsed"])
        self.assertIn("unparsed", v["labels"])
        self.assertNotEqual(v["risk"], "safe")

    def test_over_the_limit_raises_with_a_blocked_verdict(self):
        with self.assertRaises(cordon.LimitError) as cm:
            cordon.classify("a" * (2 << 20))
        e = cm.exception
        self.assertEqual(e.code, 3)
        self.assertIn("max_input_bytes", e.message)
        self.assertEqual(e.verdict["risk"], "blocked")
        self.assertIsInstance(e, cordon.CordonError)


class TestCheck(unittest.TestCase):
    def setUp(self):
        self.ws = scratch()

    def tearDown(self):
        shutil.rmtree(self.ws, ignore_errors=True)

    def test_read_of_ssh_key_is_denied(self):
        r = cordon.check("Read", {"file_path": "~/.ssh/id_rsa"},
                         workspace=self.ws)
        self.assertEqual(r["decision"], "deny")
        self.assertEqual(r["step"], "denied_paths")
        self.assertTrue(r["hard"])
        self.assertTrue(r["reason"].startswith("blocked: "))

    def test_read_in_workspace_allowed_under_auto_config(self):
        cfg = {"safety": {"permission_mode": "auto"}}
        path = os.path.join(self.ws, "notes.txt")
        r = cordon.check("Read", {"file_path": path}, config=cfg,
                         workspace=self.ws)
        self.assertEqual(r["decision"], "allow")
        self.assertEqual(r["kind"], "read")

    def test_config_changes_the_decision(self):
        # A workspace edit asks in the default supervised mode and is
        # allowed in auto: the config (dict, JSON text or mode) is applied.
        args = {"file_path": os.path.join(self.ws, "a.txt"), "content": "x"}
        r = cordon.check("Write", args, workspace=self.ws)
        self.assertEqual((r["decision"], r["step"]), ("ask", "mode"))
        for kw in ({"config": {"safety": {"permission_mode": "auto"}}},
                   {"config": '{"safety": {"permission_mode": "auto"}}'},
                   {"mode": "auto"}):
            r = cordon.check("Write", args, workspace=self.ws, **kw)
            self.assertEqual(r["decision"], "allow", kw)

    def test_config_file_path(self):
        import pathlib
        f = pathlib.Path(self.ws) / "cfg.json"
        f.write_text(json.dumps({"safety": {"denied_tools": ["Write"]}}))
        r = cordon.check("Write", {"file_path": "a"}, config=f,
                         workspace=self.ws)
        self.assertEqual((r["decision"], r["step"]), ("deny", "denied_tools"))

    def test_shell_command_goes_through_the_classifier(self):
        r = cordon.check("Bash", {"command": "rm -rf /"}, mode="full-access",
                         workspace=self.ws)
        self.assertEqual(r["decision"], "deny")
        self.assertEqual(r["risk"], "blocked")
        r = cordon.check("Bash", {"command": "git reset --hard"},
                         mode="auto", workspace=self.ws, session="s1")
        self.assertEqual(r["decision"], "ask")
        self.assertEqual(r["risk"], "destructive")

    def test_malformed_config_raises_config_error_with_key_path(self):
        bad = {"safety": {"denied_paths": ["~/.ssh/**", 7]}}
        with self.assertRaises(cordon.ConfigError) as cm:
            cordon.check("Read", {"file_path": "x"}, config=bad)
        e = cm.exception
        self.assertEqual(e.code, 5)
        self.assertIn("safety.denied_paths[1]", e.message)
        with self.assertRaises(cordon.ConfigError) as cm:
            cordon.check("Read", {}, config={"safety": {"no_such_key": 1}})
        self.assertIn("safety.no_such_key", str(cm.exception))

    def test_bad_json_and_bad_mode(self):
        with self.assertRaises(cordon.JSONError) as cm:
            cordon.check("Read", {}, config="{")
        self.assertEqual(cm.exception.code, 8)
        self.assertEqual(cm.exception.line, 1)
        with self.assertRaises(cordon.ConfigError) as cm:
            cordon.check("Read", {}, mode="yolo")
        self.assertIn("permission_mode", cm.exception.message)

    def test_nul_in_a_c_string_is_refused(self):
        # C would see "Read" and decide another call than the one asked.
        with self.assertRaises(cordon.InvalidArgumentError):
            cordon.check("Read\0Write", {"file_path": "x"})
        with self.assertRaises(cordon.InvalidArgumentError):
            cordon.check("Read", {"file_path": "x"}, session="a\0b")


class TestRun(unittest.TestCase):
    def setUp(self):
        self.ws = scratch()

    def tearDown(self):
        shutil.rmtree(self.ws, ignore_errors=True)

    def test_echo(self):
        r = cordon.run(["echo", "hi"], workspace=self.ws)
        self.assertEqual(r["status"], 0)
        self.assertEqual(r["exitCode"], 0)
        self.assertEqual(r["output"], "hi\n")
        self.assertFalse(r["blocked"])
        self.assertEqual(r["message"], "")
        self.assertIn(r["report"]["enforcement"], ("full", "partial"))
        self.assertEqual(r["report"]["exitCode"], 0)

    def test_not_on_the_allow_list_is_blocked(self):
        marker = os.path.join(self.ws, "x")
        open(marker, "w").close()
        r = cordon.run(["rm", marker], allow=["echo"], workspace=self.ws)
        self.assertTrue(r["blocked"])
        self.assertIsNone(r["exitCode"])
        self.assertEqual(r["status"], 126)
        self.assertIn("blocked: command 'rm' is not in the allowlist",
                      r["message"])
        self.assertTrue(os.path.exists(marker))

    def test_no_shell(self):
        r = cordon.run(["echo", "a;b", "$(id)", "|", "x"], workspace=self.ws)
        self.assertEqual(r["output"], "a;b $(id) | x\n")

    def test_exit_code_env_and_workspace_writes(self):
        # The command runs in the current directory: name files absolutely.
        out = os.path.join(self.ws, "out")
        r = cordon.run(["sh", "-c", 'echo "$GREETING" > "$1"; exit 3', "sh",
                        out], env={"GREETING": "hello"}, workspace=self.ws)
        self.assertEqual(r["exitCode"], 3)
        self.assertEqual(r["status"], 3)
        with open(out) as f:
            self.assertEqual(f.read(), "hello\n")

    def test_writes_outside_the_workspace_fail(self):
        other = scratch()
        try:
            r = cordon.run(["touch", os.path.join(other, "escaped")],
                           workspace=self.ws)
            self.assertNotEqual(r["exitCode"], 0)
            self.assertFalse(os.path.exists(os.path.join(other, "escaped")))
        finally:
            shutil.rmtree(other, ignore_errors=True)

    def test_timeout_and_output_cap(self):
        r = cordon.run(["sleep", "5"], timeout=1, workspace=self.ws)
        self.assertTrue(r["timedOut"])
        self.assertEqual(r["status"], 124)
        self.assertIsNone(r["exitCode"])
        r = cordon.run(["head", "-c", "5000", "/dev/zero"], output_cap=100,
                       workspace=self.ws)
        self.assertTrue(r["truncated"])
        self.assertLess(r["output"].count("\0"), 101)

    def test_errors_before_anything_runs(self):
        with self.assertRaises(cordon.InvalidArgumentError) as cm:
            cordon.run(["echo", "x"], allow=["/bin/echo"])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("names only", cm.exception.message)
        with self.assertRaises(cordon.InvalidArgumentError):
            cordon.run([])
        with self.assertRaises(cordon.InvalidArgumentError):
            cordon.run(["echo", "a\0b"])


class TestRedact(unittest.TestCase):
    def test_github_token(self):
        out = cordon.redact("push with token " + GITHUB_TOKEN + " please")
        self.assertNotIn(GITHUB_TOKEN, out)
        self.assertIn("[REDACTED", out)
        self.assertTrue(out.startswith("push with token "))
        self.assertTrue(out.endswith(" please"))

    def test_key_name_stays_and_plain_text_passes(self):
        out = cordon.redact("password=hunter2secret")
        self.assertTrue(out.startswith("password="))
        self.assertNotIn("hunter2secret", out)
        text = "git commit -m 'fix the parser'\n"
        self.assertEqual(cordon.redact(text), text)

    def test_bytes_in_bytes_out(self):
        out = cordon.redact(b"GITHUB_TOKEN=" + GITHUB_TOKEN.encode())
        self.assertIsInstance(out, bytes)
        self.assertNotIn(GITHUB_TOKEN.encode(), out)


class TestLibrary(unittest.TestCase):
    def test_missing_library_is_a_library_error(self):
        env = dict(os.environ, CORDON_LIB="/nonexistent/libcordon.so")
        code = ("import cordon\n"
                "try:\n"
                "    cordon.classify('ls')\n"
                "except cordon.LibraryError as e:\n"
                "    print('LibraryError', e.code, 'CORDON_LIB' in str(e))\n")
        p = subprocess.run([sys.executable, "-c", code], env=env,
                           cwd=os.path.dirname(HERE), capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.stdout.strip(), "LibraryError None True",
                         p.stderr)

    def test_error_classes(self):
        for cls in (cordon.ConfigError, cordon.LimitError, cordon.ParseError,
                    cordon.RegexError, cordon.JSONError, cordon.LibraryError,
                    cordon.NoMemoryError, cordon.CordonIOError,
                    cordon.InvalidArgumentError):
            self.assertTrue(issubclass(cls, cordon.CordonError), cls)


if __name__ == "__main__":
    unittest.main()
