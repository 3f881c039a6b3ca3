#!/usr/bin/env python3
"""Hostile inputs and security properties of the cudalint binary (issue 9).

Every case builds a small tree in a temporary directory: the hostile file(s) plus a sibling
`ok/Dockerfile` with a known finding (ARCH003 on line 2). cudalint must finish within a time
limit without crashing (no signal, no sanitizer report), give the hostile file a clear
diagnostic or skip it with a message, and still report the sibling's finding unchanged.

Usage: hostile_test.py path/to/cudalint            (run by ctest as `hostile_inputs`)
Large inputs (100 MB) are generated at test time, never committed."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

BIN = None
TIMEOUT = 120  # seconds per cudalint run; generous for sanitizer builds
SIBLING = 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="3.7;8.0"\n'
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "Sanitizer:DEADLYSIGNAL")


def write(root, rel, content):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # newline="": the line endings written are exactly those in the text (text mode only).
    with (open(path, "wb") if isinstance(content, bytes) else open(path, "w", newline="")) as f:
        f.write(content)
    return path


class Hostile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="cudalint-hostile-")
        self.outside = tempfile.mkdtemp(prefix="cudalint-outside-")
        write(self.dir, "ok/Dockerfile", SIBLING)

    def tearDown(self):
        for base in (self.dir, self.outside):
            for root, dirs, files in os.walk(base):
                for d in dirs:
                    p = os.path.join(root, d)
                    if not os.path.islink(p):
                        os.chmod(p, 0o755)
            shutil.rmtree(base, ignore_errors=True)

    # ---- helpers ----

    def run_cli(self, args, cwd=None, timeout=TIMEOUT):
        start = time.monotonic()
        try:
            p = subprocess.run([BIN] + args, cwd=cwd or self.dir, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.fail(f"cudalint {' '.join(args)} did not finish within {timeout} s (hang)")
        self.elapsed = time.monotonic() - start
        err = p.stderr.decode(errors="replace")
        self.assertLess(p.returncode, 128, f"killed by signal {p.returncode - 128}\n{err[-3000:]}")
        self.assertGreaterEqual(p.returncode, 0, f"killed by signal {-p.returncode}\n{err[-3000:]}")
        for mark in SANITIZER_MARKS:
            self.assertNotIn(mark, err, err[-3000:])
        self.assertIn(p.returncode, (0, 1, 2), err[-3000:])
        return p

    def check_json(self, args=(), cwd=None, expect_rc=(1,)):
        p = self.run_cli(["check", "--format", "json", *args], cwd=cwd)
        self.assertIn(p.returncode, expect_rc, p.stderr.decode(errors="replace")[-2000:])
        doc = json.loads(p.stdout)
        return doc["findings"]

    def assert_sibling(self, findings):
        got = [f for f in findings if f["path"] == "ok/Dockerfile" and f["rule"] == "ARCH003"]
        self.assertEqual(len(got), 1, f"sibling finding missing or duplicated: {findings}")
        self.assertEqual(got[0]["region"]["start_line"], 2)

    def finding(self, findings, path, rule):
        got = [f for f in findings if f["path"] == path and f["rule"] == rule]
        self.assertTrue(got, f"no {rule} for {path} in {[(f['path'], f['rule'], f['message']) for f in findings]}")
        return got[0]

    def assert_paths_inside(self, findings):
        for f in findings:
            for loc in [f] + f["related"]:
                self.assertFalse(loc["path"].startswith("/") or loc["path"].startswith(".."), loc["path"])

    # ---- binary, encodings, size ----

    def test_binary_files_with_source_names(self):
        elf = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4
        for name in ("kernel.cu", "inc.cuh", "Dockerfile", "CMakeLists.txt", "setup.py", "requirements.txt",
                     "pyproject.toml", "compile_commands.json"):
            write(self.dir, "bin/" + name, elf)
        # A binary pyproject.toml is also a configuration that cannot be used: CONF001, exit 2.
        findings = self.check_json(expect_rc=(2,))
        self.assertIn("binary", self.finding(findings, "bin/pyproject.toml", "CONF001")["message"])
        for name in ("kernel.cu", "inc.cuh", "Dockerfile", "CMakeLists.txt", "setup.py", "requirements.txt",
                     "compile_commands.json"):
            self.assertIn("binary", self.finding(findings, "bin/" + name, "PARSE003")["message"])
        self.assert_sibling(findings)

    def test_invalid_utf8(self):
        bad = b"\xc3\x28 \xff\xfe \xed\xa0\x80 \xf4\x90\x80\x80"  # bad continuation, bytes never in UTF-8, surrogate, > U+10FFFF
        write(self.dir, "u/Dockerfile", b"FROM ubuntu\nLABEL x=\"" + bad + b"\"\n")
        write(self.dir, "u/setup.py", b"# " + bad + b"\nfrom setuptools import setup\n")
        write(self.dir, "u/CMakeLists.txt", b"project(" + bad + b")\n")
        write(self.dir, "u/requirements.txt", b"torch==2.3.0 # " + bad + b"\n")
        write(self.dir, "u/k.cu", b"// " + bad + b"\n__global__ void k() {}\n")
        findings = self.check_json()
        for name in ("Dockerfile", "setup.py", "CMakeLists.txt", "requirements.txt", "k.cu"):
            f = self.finding(findings, "u/" + name, "PARSE004")
            self.assertIn("UTF-8", f["message"])
        d = self.finding(findings, "u/Dockerfile", "PARSE004")
        self.assertEqual(d["region"]["start_line"], 2)
        self.assert_sibling(findings)

    def test_100mb_file(self):
        # Over the default 10 MB limit: PARSE005 without reading it all.
        line = b"RUN echo " + b"x" * 90 + b"\n"
        path = os.path.join(self.dir, "big", "Dockerfile")
        os.makedirs(os.path.dirname(path))
        with open(path, "wb") as f:
            f.write(b"FROM ubuntu:22.04\n")
            for _ in range(100 * 1024 * 1024 // len(line)):
                f.write(line)
        findings = self.check_json()
        self.assertIn("size limit", self.finding(findings, "big/Dockerfile", "PARSE005")["message"])
        self.assert_sibling(findings)
        # With the limit raised, the 100 MB file is parsed in bounded time. A release build takes
        # ~7 s; the sanitizer build on a busy 2-core machine once took over 120 s, so this guard
        # (a hang, not a speed check) is wider.
        write(self.dir, "cudalint.toml", "max-file-size = 209715200\n")
        p = self.run_cli(["check", "--format", "json"], timeout=max(TIMEOUT, 900))
        self.assertEqual(p.returncode, 1, p.stderr.decode(errors="replace")[-2000:])
        findings = json.loads(p.stdout)["findings"]
        self.assertFalse([f for f in findings if f["path"] == "big/Dockerfile" and f["rule"].startswith("PARSE")])
        self.assert_sibling(findings)

    def test_crlf_and_mixed_line_endings(self):
        write(self.dir, "crlf/Dockerfile", SIBLING.replace("\n", "\r\n"))
        write(self.dir, "cr/Dockerfile", SIBLING.replace("\n", "\r"))
        write(self.dir, "mixed/Dockerfile",
              'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\r\n# comment\r\rRUN true\n\r\nENV TORCH_CUDA_ARCH_LIST="3.7;8.0"\r\n')
        write(self.dir, "mixed/setup.py", "import os\r\nos.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\r\rfrom setuptools import setup\n")
        write(self.dir, "mixed/CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\r\nproject(x LANGUAGES CXX CUDA)\r"
                                                "set(CMAKE_CUDA_ARCHITECTURES 80)\n")
        findings = self.check_json()
        self.assertEqual(self.finding(findings, "crlf/Dockerfile", "ARCH003")["region"]["start_line"], 2)
        self.assertEqual(self.finding(findings, "cr/Dockerfile", "ARCH003")["region"]["start_line"], 2)
        # \r\n, \r, \r, \n, \r\n: the ENV is on line 6.
        self.assertEqual(self.finding(findings, "mixed/Dockerfile", "ARCH003")["region"]["start_line"], 6)
        # CMake 3.25 itself rejects `project(...)\rset(...)` ("Expected a newline, got identifier"):
        # a lone CR is not a line end to CMake, so the report is right; everything else parses.
        self.assertIn("newline", self.finding(findings, "mixed/CMakeLists.txt", "PARSE001")["message"])
        self.assertFalse([f for f in findings if f["rule"].startswith("PARSE") and f["path"] != "mixed/CMakeLists.txt"],
                         findings)
        self.assert_sibling(findings)

    def test_byte_order_marks(self):
        bom = "\ufeff"
        write(self.dir, "bom/Dockerfile", bom + SIBLING)
        write(self.dir, "bom/setup.py", bom + "from setuptools import setup\nsetup(name='x')\n")
        write(self.dir, "bom/CMakeLists.txt", bom + "project(x LANGUAGES CXX)\n")
        write(self.dir, "bom/requirements.txt", bom + "torch==2.3.0\n")
        write(self.dir, "bom/pyproject.toml", bom + '[build-system]\nrequires = ["setuptools"]\n')
        write(self.dir, "bom2/cudalint.toml", bom + 'ignore = ["ARCH001"]\n')
        write(self.dir, "bom2/Dockerfile", bom + "# cudalint: ignore-file[ARCH003]\n" + SIBLING)
        findings = self.check_json()
        f = self.finding(findings, "bom/Dockerfile", "ARCH003")
        self.assertEqual(f["region"]["start_line"], 2)
        self.assertFalse([f for f in findings if f["rule"].startswith(("PARSE", "CONF"))], findings)
        self.assertFalse([f for f in findings if f["path"].startswith("bom2/")], findings)
        self.assert_sibling(findings)

    # ---- deep nesting (10,000 levels in every language) ----

    def test_deep_nesting(self):
        n = 10000
        write(self.dir, "d/docker/Dockerfile", "FROM ubuntu\nRUN echo \\\n" + "  a \\\n" * n + "  end\n"
              + "RUN <<EOF\n" + "x\n" * n + "EOF\n")
        write(self.dir, "d/cmparen/CMakeLists.txt", "set(X " + "(" * n + "a" + ")" * n + ")\n")
        write(self.dir, "d/cmif/CMakeLists.txt", "if(A)\n" * n + "set(CMAKE_CUDA_ARCHITECTURES 80)\n" + "endif()\n" * n)
        write(self.dir, "d/cmcond/CMakeLists.txt", "if(" + "(" * n + "A" + ")" * n + ")\nendif()\n")
        write(self.dir, "d/cmfunc/CMakeLists.txt", "function(f)\n  f()\nendfunction()\nf()\n"
              "macro(m)\n  m()\nendmacro()\nm()\n")
        write(self.dir, "d/cmvar/CMakeLists.txt", "set(X " + "${" * n + "A" + "}" * n + ")\n")
        write(self.dir, "d/pybr/setup.py", "x = " + "[" * n + "]" * n + "\n")
        write(self.dir, "d/pypar/setup.py", "x = " + "(" * n + "1" + ")" * n + "\n")
        write(self.dir, "d/pycall/setup.py", "x = " + "f(" * n + ")" * n + "\n")
        write(self.dir, "d/pyop/setup.py", "x = " + " + ".join(["'a'"] * n) + "\nsetup(name=x)\n")
        write(self.dir, "d/pyblk/setup.py", "".join("    " * i + "if x:\n" for i in range(300)) + "    " * 300 + "pass\n")
        write(self.dir, "d/toml/pyproject.toml", "[build-system]\nrequires = " + "[" * n + "]" * n + "\n")
        write(self.dir, "d/req/requirements.txt", "torch" + " \\\n" * n + "==2.3.0\n")
        write(self.dir, "d/cu/k.cu", "void f() " + "{" * n + "}" * n + "\n")
        write(self.dir, "d/json/compile_commands.json", "[" * n + "]" * n)
        # A TOML config nested this deep cannot be used: CONF001 and exit 2, other files still reported.
        findings = self.check_json(expect_rc=(2,))
        self.finding(findings, "d/toml/pyproject.toml", "CONF001")
        self.assert_sibling(findings)

    def test_deep_nesting_in_config(self):
        write(self.dir, "cudalint.toml", "select = " + "[" * 10000 + "]" * 10000 + "\n")
        findings = self.check_json(expect_rc=(2,))
        self.finding(findings, "cudalint.toml", "CONF001")

    # ---- the file system ----

    def test_symlink_loops_and_links_outside(self):
        root = self.dir
        os.makedirs(os.path.join(root, "loop"))
        os.symlink("Dockerfile", os.path.join(root, "loop", "Dockerfile"))  # points at itself
        os.symlink("b.cmake", os.path.join(root, "loop", "a.cmake"))
        os.symlink("a.cmake", os.path.join(root, "loop", "b.cmake"))
        os.symlink("..", os.path.join(root, "loop", "parent"))          # a directory loop
        os.symlink(root, os.path.join(root, "loop", "self"))
        os.symlink("missing/Dockerfile", os.path.join(root, "loop", "Dockerfile.dangling"))
        write(self.outside, "Dockerfile", SIBLING)
        write(self.outside, "sub/Dockerfile", SIBLING)
        os.makedirs(os.path.join(root, "out"))
        os.symlink(os.path.join(self.outside, "Dockerfile"), os.path.join(root, "out", "Dockerfile"))
        os.symlink(os.path.join(self.outside, "sub"), os.path.join(root, "out", "sub"))
        os.symlink("../../" + os.path.basename(self.outside) + "/Dockerfile", os.path.join(root, "out", "Dockerfile.rel"))
        # CMake include() of a file outside the tree through a relative path.
        write(self.outside, "evil.cmake", "set(CMAKE_CUDA_ARCHITECTURES 35)\n")
        write(root, "cm/CMakeLists.txt", f"project(x LANGUAGES CXX CUDA)\ninclude({self.outside}/evil.cmake)\n")
        for fmt in ("json", "sarif"):
            p = self.run_cli(["check", "--format", fmt])
            self.assertEqual(p.returncode, 1)
            doc = json.loads(p.stdout)
            if fmt == "json":
                findings = doc["findings"]
                self.assert_sibling(findings)
                self.assert_paths_inside(findings)
                self.assertIn("symbolic links", self.finding(findings, "loop/Dockerfile", "PARSE002")["message"])
                self.assertIn("outside the root", self.finding(findings, "out/Dockerfile", "PARSE002")["message"])
                self.assertIn("broken symlink", self.finding(findings, "loop/Dockerfile.dangling", "PARSE002")["message"])
                self.assertFalse([f for f in findings if f["path"].startswith("loop/parent") or
                                  f["path"].startswith("loop/self") or f["path"].startswith("out/sub")])
            else:
                for r in doc["runs"][0]["results"]:
                    for loc in r["locations"] + r.get("relatedLocations", []):
                        art = loc["physicalLocation"]["artifactLocation"]
                        self.assertEqual(art.get("uriBaseId"), "%SRCROOT%", art)
                        self.assertFalse(art["uri"].startswith(("/", "file:", "..")), art)
        # Named explicitly: still not followed outside the root.
        findings = self.check_json(["out/Dockerfile", "out/sub", "ok/Dockerfile"])
        self.assert_paths_inside(findings)
        self.assert_sibling(findings)

    def test_unreadable_files(self):
        locked = write(self.dir, "locked/Dockerfile", SIBLING)
        os.chmod(locked, 0)
        lockdir = os.path.join(self.dir, "lockdir")
        write(self.dir, "lockdir/Dockerfile", SIBLING)
        os.chmod(lockdir, 0)
        # Root (or CAP_DAC_OVERRIDE) reads files whatever their mode: detect it by trying.
        try:
            with open(locked, "rb"):
                pass
            readable = True
        except PermissionError:
            readable = False
        findings = self.check_json()
        self.assert_sibling(findings)
        if readable:
            self.skipTest("running with permission to read mode-000 files (root / CAP_DAC_OVERRIDE): "
                          "unreadable-file diagnostics cannot be provoked")
        self.assertIn("Permission denied", self.finding(findings, "locked/Dockerfile", "PARSE002")["message"])
        self.assertIn("Permission denied", self.finding(findings, "lockdir", "PARSE002")["message"])

    def test_fifo_and_special_files(self):
        # A FIFO named like a source must not block the run (nobody ever writes to it).
        os.makedirs(os.path.join(self.dir, "fifo"))
        os.mkfifo(os.path.join(self.dir, "fifo", "Dockerfile"))
        os.mkfifo(os.path.join(self.dir, "fifo", "k.cu"))
        findings = self.check_json()
        self.assert_sibling(findings)
        findings = self.check_json(["fifo/Dockerfile", "fifo/k.cu", "ok"])
        self.assert_sibling(findings)
        # /dev/zero has no end: named through a symlink it is outside the root; named directly
        # it is not a regular file.
        os.symlink("/dev/zero", os.path.join(self.dir, "fifo", "setup.py"))
        findings = self.check_json(["fifo/setup.py", "ok"])
        self.assert_sibling(findings)

    def test_unparseable_config(self):
        write(self.dir, "cudalint.toml", 'select = ["ARCH"\nignore = 3\n')
        p = self.run_cli(["check", "--format", "json"])
        self.assertEqual(p.returncode, 2)
        doc = json.loads(p.stdout)
        conf = self.finding(doc["findings"], "cudalint.toml", "CONF001")
        self.assertGreaterEqual(conf["region"]["start_line"], 1)
        # Other files are still analysed (with the default rule set).
        self.assert_sibling(doc["findings"])
        # Not even TOML, and binary: still a diagnostic, not a crash.
        write(self.dir, "cudalint.toml", b"\x00\xff\xfe garbage [[[")
        findings = self.check_json(expect_rc=(2,))
        self.assertTrue([f for f in findings if f["path"] == "cudalint.toml" and f["rule"] == "CONF001"], findings)
        # --config naming a missing file.
        os.remove(os.path.join(self.dir, "cudalint.toml"))
        p = self.run_cli(["check", "--config", "nope.toml"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("nope.toml", p.stdout.decode() + p.stderr.decode())

    def test_odd_file_names(self):
        # Names that are not UTF-8, or contain characters that mean something in URIs and
        # workflow commands, come out escaped and parseable in every format.
        names = [b"w\xffird/Dockerfile", b"sp ace/Dockerfile", b"per%25cent/Dockerfile", b"c,o:l#on/Dockerfile",
                 b"new\nline/Dockerfile"]
        for n in names:
            d = os.path.join(os.fsencode(self.dir), os.path.dirname(n))
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(os.fsencode(self.dir), n), "wb") as f:
                f.write(SIBLING.encode())
        for fmt in ("json", "sarif", "gitlab"):
            p = self.run_cli(["check", "--format", fmt])
            self.assertEqual(p.returncode, 1)
            json.loads(p.stdout)
        findings = self.check_json()
        self.assertEqual(len([f for f in findings if f["rule"] == "ARCH003"]), len(names) + 1)
        p = self.run_cli(["check", "--format", "github"])
        lines = p.stdout.decode(errors="replace").splitlines()
        self.assertEqual(len([l for l in lines if "ARCH003" in l]), len(names) + 1, lines)

    # ---- security ----

    def test_never_executes_project_code(self):
        marker = os.path.join(self.outside, "executed")
        write(self.dir, "setup.py", f"open({marker!r}, 'w').write('setup.py')\n"
              "import os\nos.system('touch " + marker + "')\nfrom setuptools import setup\nsetup()\n")
        write(self.dir, "helper.py", f"open({marker!r}, 'w').write('helper')\n")
        write(self.dir, "CMakeLists.txt", f"project(x)\nfile(WRITE {marker} cmake)\n"
              f"execute_process(COMMAND touch {marker})\nadd_custom_command(OUTPUT y COMMAND touch {marker})\n"
              f"include({self.outside}/not_there.cmake)\n")
        write(self.dir, "Dockerfile", f"FROM ubuntu\nRUN touch {marker}\nRUN [\"touch\", \"{marker}\"]\n")
        write(self.dir, "requirements.txt", f"-e file://{self.outside}\n-r {marker}.txt\n")
        write(self.dir, "pyproject.toml", f'[build-system]\nrequires = ["setuptools"]\nbuild-backend = "evil"\n'
              f'[tool.setuptools.cmdclass]\nx = "os.system(\'touch {marker}\')"\n')
        write(self.dir, "compile_commands.json", json.dumps([{
            "directory": self.dir, "file": "k.cu",
            "command": f"sh -c 'touch {marker}' -Xclang -load -Xclang {self.outside}/evil.so -fplugin={self.outside}/evil.so"}]))
        write(self.dir, "k.cu", f'#include "{marker}"\n#pragma clang plugin\n__global__ void k() {{}}\n')
        self.run_cli(["check", "--format", "json"])
        self.run_cli(["check", "--fix", "--unsafe-fixes"])
        self.assertFalse(os.path.exists(marker), "project code was executed")
        self.assertFalse(os.path.exists(marker + ".txt"))

    def test_fix_through_symlink_keeps_link_and_mode(self):
        real = write(self.dir, "docker/Dockerfile.cuda",
                     'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n')
        os.chmod(real, 0o604)
        link = os.path.join(self.dir, "Dockerfile")
        os.symlink("docker/Dockerfile.cuda", link)
        # Keeping the original open pins its inode, so a rename cannot be mistaken for an
        # in-place write when the file system reuses the freed inode number.
        held = open(real)
        self.addCleanup(held.close)
        inode = os.fstat(held.fileno()).st_ino
        p = self.run_cli(["check", "--fix"])
        self.assertTrue(os.path.islink(link), "--fix replaced a symlink with a file")
        with open(real) as f:
            self.assertIn('TORCH_CUDA_ARCH_LIST="8.0;9.0"', f.read())
        self.assertEqual(stat.S_IMODE(os.stat(real).st_mode), 0o604)
        self.assertNotEqual(os.stat(real).st_ino, inode, "not written through a temporary file and rename")
        self.assertIn("sm_80;sm_90", held.read(), "the original inode was modified in place")
        before = open(real).read()
        self.run_cli(["check", "--fix"])
        self.assertEqual(open(real).read(), before, "--fix is not idempotent")
        leftovers = [f for _, _, fs in os.walk(self.dir) for f in fs if f.startswith(".cudalint-tmp")]
        self.assertEqual(leftovers, [])

    def test_fix_in_read_only_directory_fails_cleanly(self):
        path = write(self.dir, "ro/Dockerfile",
                     'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n')
        os.chmod(os.path.dirname(path), 0o555)
        try:
            open(os.path.join(os.path.dirname(path), "probe"), "w").close()
            os.remove(os.path.join(os.path.dirname(path), "probe"))
            self.skipTest("running with permission to write into a mode-555 directory (root / CAP_DAC_OVERRIDE)")
        except PermissionError:
            pass
        p = self.run_cli(["check", "--fix"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("ro/Dockerfile", p.stderr.decode())
        with open(path) as f:
            self.assertIn("sm_80", f.read())


if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
