#!/usr/bin/env python3
"""End-to-end tests of the cudalint binary: exit codes, formats, config errors, malformed
input, suppressions, baselines, --fix, --output, --stdin-filename and --statistics. Usage: cli_test.py path/to/cudalint"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import unittest

BIN = None
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, cwd, timeout=300, input=None):  # a hang guard; sanitizer builds run 10x slower
    p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       input=input, stdin=None if input is not None else subprocess.DEVNULL)
    assert p.returncode < 128, f"crashed with signal: {p.returncode}\n{p.stderr}"
    return p


def read(path):
    with open(path) as f:
        return f.read()


def write(root, rel, content, mode="w"):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(content)
    return path


BAD_DOCKERFILE = 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="3.7;8.0"\n'


class Cli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="cudalint-cli-")

    def tearDown(self):
        for root, dirs, _ in os.walk(self.dir):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_version_and_usage(self):
        p = run(["--version"], self.dir)
        self.assertEqual(p.returncode, 0)
        # `cudalint <version> (<commit>)`: git describe (or the project version) and the short commit.
        self.assertRegex(p.stdout, r"^cudalint \d+\.\d+\.\d+\S* \((?:[0-9a-f]{7,40}|unknown)(?:-dirty)?\)\n$")
        self.assertEqual(run(["check", "--bogus"], self.dir).returncode, 2)
        self.assertEqual(run(["frobnicate"], self.dir).returncode, 2)
        self.assertEqual(run(["check", "--select", "NOPE"], self.dir).returncode, 2)

    def test_cuda_sources_are_parsed_only_for_rules_that_need_a_parse(self):
        # `--select GB` on a tree of CUDA sources: no rule reads a parse, so none is made (a
        # parse would leave its result in the cache); INTR needs one.
        write(self.dir, "src/k.cu", "__global__ void k(float* p) { p[0] = __shfl_down(p[1], 1); }\n")
        gb_cache, intr_cache = os.path.join(self.dir, "c1"), os.path.join(self.dir, "c2")
        p = run(["check", "--select", "GB", "--cache-dir", gb_cache, "src"], self.dir)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertFalse(os.path.exists(os.path.join(gb_cache, "v1", "cuda")))
        p = run(["check", "--select", "INTR", "--cache-dir", intr_cache, "src"], self.dir)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("INTR003", p.stdout)
        self.assertTrue(os.listdir(os.path.join(intr_cache, "v1", "cuda")))

    def test_clean_project_is_silent_and_exits_0(self):
        shutil.copytree(os.path.join(REPO, "examples", "clean"), os.path.join(self.dir, "p"))
        p = run(["check"], os.path.join(self.dir, "p"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout, "")

    def test_text_format_and_exit_1(self):
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        p = run(["check", "--color", "never"], self.dir)
        self.assertEqual(p.returncode, 1)
        self.assertIn("Dockerfile:2:27: error: sm_37 is not supported by CUDA 12.4.1", p.stdout)
        self.assertIn("[ARCH003]", p.stdout)
        self.assertIn("^^^", p.stdout)
        self.assertNotIn("\x1b[", p.stdout)
        # --fail-on and --exit-zero
        write(self.dir, "cudalint.toml", '[severity]\nARCH003 = "warning"\n')
        self.assertEqual(run(["check", "--fail-on", "error"], self.dir).returncode, 0)
        self.assertEqual(run(["check"], self.dir).returncode, 1)
        self.assertEqual(run(["check", "--exit-zero"], self.dir).returncode, 0)

    def test_json_and_github_formats(self):
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        p = run(["check", "--format", "json"], self.dir)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["version"], 1)
        f = doc["findings"][0]
        self.assertEqual((f["rule"], f["path"], f["region"]["start_line"]), ("ARCH003", "Dockerfile", 2))
        p = run(["check", "--format", "github"], self.dir)
        self.assertTrue(p.stdout.startswith("::error file=Dockerfile,line=2,"), p.stdout)

    def test_broken_pyproject_exits_2_naming_it(self):
        write(self.dir, "pyproject.toml", "[tool.cudalint\nselect = [\n")
        write(self.dir, "Dockerfile", "FROM ubuntu:22.04\n")
        p = run(["check"], self.dir)
        self.assertEqual(p.returncode, 2)
        self.assertIn("pyproject.toml:1:", p.stdout)
        self.assertIn("CONF001", p.stdout)

    def test_unknown_config_key_exits_2(self):
        write(self.dir, "cudalint.toml", 'selct = ["ARCH"]\n')
        p = run(["check"], self.dir)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cudalint.toml:1:", p.stdout)
        self.assertIn("selct", p.stdout)

    def test_malformed_inputs_give_diagnostics_not_crashes(self):
        write(self.dir, "kernel.cu", b"\x7fELF\x00\x01binary", "wb")
        write(self.dir, "Dockerfile", b"FROM ubuntu\nLABEL a=\"\xff\"\n", "wb")
        write(self.dir, "empty/Dockerfile", "")
        write(self.dir, "empty/empty.cu", "")
        write(self.dir, "empty/pyproject.toml", "")
        write(self.dir, "empty/setup.py", "")
        unreadable = write(self.dir, "locked/k.cu", "__global__ void k() {}\n")
        os.chmod(unreadable, 0)
        p = run(["check", "--format", "json"], self.dir)
        doc = json.loads(p.stdout)
        got = {(f["path"], f["rule"]) for f in doc["findings"]}
        self.assertIn(("kernel.cu", "PARSE003"), got)
        self.assertIn(("Dockerfile", "PARSE004"), got)
        self.assertIn(("empty/Dockerfile", "PARSE001"), got)
        if os.geteuid() != 0:  # root reads anything
            self.assertIn(("locked/k.cu", "PARSE002"), got)
        self.assertEqual(p.returncode, 1)
        missing = run(["check", "no-such-file.cu"], self.dir)
        self.assertIn("PARSE002", missing.stdout)

    def test_suppression_suppresses_and_unused_is_reported(self):
        write(self.dir, "Dockerfile", 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n'
              '# cudalint: ignore[ARCH003]\nENV TORCH_CUDA_ARCH_LIST="3.7;8.0"\n')
        p = run(["check"], self.dir)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(p.stdout, "")
        write(self.dir, "Dockerfile", 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n'
              '# cudalint: ignore[ARCH003]\nENV TORCH_CUDA_ARCH_LIST="8.0"\n')
        p = run(["check"], self.dir)
        self.assertIn("SUP001", p.stdout)

    def test_baseline_tolerates_line_shifts(self):
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        self.assertEqual(run(["check", "--write-baseline", "base.json"], self.dir).returncode, 0)
        self.assertEqual(run(["check", "--baseline", "base.json"], self.dir).returncode, 0)
        write(self.dir, "Dockerfile", "# a new comment\n\n" + BAD_DOCKERFILE)
        p = run(["check", "--baseline", "base.json"], self.dir)
        self.assertEqual(p.returncode, 0, p.stdout)
        write(self.dir, "Dockerfile", BAD_DOCKERFILE + 'ENV TORCH_CUDA_ARCH_LIST="3.5"\n')
        p = run(["check", "--baseline", "base.json"], self.dir)
        self.assertEqual(p.returncode, 1)
        self.assertIn("sm_35", p.stdout)
        self.assertNotIn("sm_37", p.stdout)
        self.assertEqual(run(["check", "--baseline", "missing.json"], self.dir).returncode, 2)

    def test_fix_is_atomic_and_idempotent(self):
        path = write(self.dir, "Dockerfile",
                     'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n')
        os.chmod(path, 0o640)
        before = run(["check"], self.dir)
        self.assertEqual(before.returncode, 1)
        self.assertEqual(read(path).count("sm_80"), 1, "check must not modify files")
        p = run(["check", "--fix"], self.dir)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn('TORCH_CUDA_ARCH_LIST="8.0;9.0"', read(path))
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o640)
        again = read(path)
        run(["check", "--fix"], self.dir)
        self.assertEqual(read(path), again)
        self.assertEqual([f for f in os.listdir(self.dir) if f.startswith(".cudalint-tmp")], [])

    def test_diff_prints_the_fixes_and_writes_nothing(self):
        a = write(self.dir, "Dockerfile",
                  'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n')
        b = write(self.dir, "docker/gpu.dockerfile",  # no final newline
                  'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"')
        write(self.dir, "ok/Dockerfile", 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.0"\n')
        before = {path: read(path) for path in (a, b)}
        mtimes = {path: os.stat(path).st_mtime_ns for path in (a, b)}
        p = run(["check", "--diff", "--no-cache"], self.dir)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stdout,
                         "--- a/Dockerfile\n+++ b/Dockerfile\n@@ -1,2 +1,2 @@\n"
                         " FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                         '-ENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n+ENV TORCH_CUDA_ARCH_LIST="8.0;9.0"\n'
                         "--- a/docker/gpu.dockerfile\n+++ b/docker/gpu.dockerfile\n@@ -1,2 +1,2 @@\n"
                         " FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                         '-ENV TORCH_CUDA_ARCH_LIST="sm_80"\n\\ No newline at end of file\n'
                         '+ENV TORCH_CUDA_ARCH_LIST="8.0"\n\\ No newline at end of file\n')
        self.assertIn("would fix 3 problems in 2 files", p.stderr)
        for path in (a, b):
            self.assertEqual(read(path), before[path], "--diff must not write")
            self.assertEqual(os.stat(path).st_mtime_ns, mtimes[path])
        self.assertEqual(run(["check", "--diff", "--exit-zero", "--no-cache"], self.dir).returncode, 0)
        # The diff, applied, gives what --fix writes.
        if shutil.which("patch"):
            copy = os.path.join(self.dir, "copy")
            os.makedirs(copy)
            for rel in ("Dockerfile", "docker/gpu.dockerfile"):
                write(copy, rel, read(os.path.join(self.dir, rel)))
            applied = subprocess.run(["patch", "-p1", "-s"], cwd=copy, input=p.stdout, text=True, capture_output=True)
            self.assertEqual(applied.returncode, 0, applied.stdout + applied.stderr)
            shutil.rmtree(os.path.join(self.dir, "copy"))
            self.assertEqual(run(["check", "--fix", "--no-cache"], self.dir).returncode, 0)
            self.assertEqual(read(a), 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.0;9.0"\n')
        else:
            self.assertEqual(run(["check", "--fix", "--no-cache"], self.dir).returncode, 0)
        # Nothing left to fix: no diff, exit 0 (unfixable findings are not --diff's business).
        p = run(["check", "--diff", "--no-cache"], self.dir)
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)
        # With --stdin-filename: the diff of the buffer, labelled with its name.
        p = run(["check", "--diff", "--no-cache", "--stdin-filename", "x.dockerfile"], self.dir,
                input='FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_90"\n')
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertTrue(p.stdout.startswith("--- a/x.dockerfile\n+++ b/x.dockerfile\n"), p.stdout)
        self.assertIn('+ENV TORCH_CUDA_ARCH_LIST="9.0"\n', p.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x.dockerfile")))
        for extra in (["--statistics"], ["--format", "json"], ["-o", "out.diff"], ["--write-baseline", "b.json"]):
            p = run(["check", "--diff"] + extra, self.dir)
            self.assertEqual(p.returncode, 2, extra)
            self.assertIn("--diff", p.stderr)

    def test_output_file_and_many_explicit_paths(self):
        paths = []
        for i in range(3000):
            paths.append(os.path.relpath(write(self.dir, f"src/k{i}.cu", "__global__ void k() {}\n"), self.dir))
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        p = run(["check", "--format", "sarif", "-o", "out.sarif", "Dockerfile"] + paths, self.dir)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "")
        log = json.loads(read(os.path.join(self.dir, "out.sarif")))
        self.assertEqual(log["runs"][0]["results"][0]["ruleId"], "ARCH003")

    def test_sarif_identity_and_help_uris_name_files_of_the_repository(self):
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        p = run(["check", "--format", "sarif"], self.dir)
        self.assertEqual(p.returncode, 1, p.stderr)
        driver = json.loads(p.stdout)["runs"][0]["tool"]["driver"]
        version = run(["--version"], self.dir).stdout.split()[1]
        self.assertEqual(driver["version"], version)
        self.assertEqual(driver["semanticVersion"], version)
        url = driver["informationUri"]
        self.assertRegex(url, r"^https://\S+[^/]$")
        self.assertNotIn("<", url)
        refs = set()
        for rule in driver["rules"]:
            help_uri = rule["helpUri"]
            self.assertTrue(help_uri.startswith(url + "/blob/"), help_uri)
            ref, _, path = help_uri[len(url + "/blob/"):].partition("/")
            refs.add(ref)
            self.assertTrue(path.startswith("rules/") and path.endswith(".md"), help_uri)
            self.assertTrue(os.path.isfile(os.path.join(REPO, path)), f"{rule['id']}: {path} is not in {REPO}")
            self.assertEqual(os.path.basename(path), rule["name"].replace("-", "_") + ".md")
        self.assertEqual(len(refs), 1, refs)

    def test_output_to_a_pipe_is_written_in_place(self):
        # `-o /dev/null` or a FIFO: renaming a temporary file over it would replace the device or
        # pipe with a regular file (it once did /dev/null's).
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        fifo = os.path.join(self.dir, "report.fifo")
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
        reader.start()
        p = run(["check", "--format", "json", "-o", fifo, "Dockerfile"], self.dir)
        reader.join(60)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assertEqual(json.loads(got[0])["findings"][0]["rule"], "ARCH003")
        self.assertEqual([f for f in os.listdir(self.dir) if f.startswith(".cudalint-tmp")], [])

    def test_gitignore_and_exclude(self):
        write(self.dir, ".gitignore", "ignored/\n")
        os.makedirs(os.path.join(self.dir, ".git"))
        write(self.dir, "ignored/Dockerfile", BAD_DOCKERFILE)
        write(self.dir, "excluded/Dockerfile", BAD_DOCKERFILE)
        write(self.dir, "cudalint.toml", 'exclude = ["excluded/"]\n')
        self.assertEqual(run(["check"], self.dir).returncode, 0)
        self.assertEqual(run(["check", "--no-gitignore"], self.dir).returncode, 1)

    def test_rules_and_explain(self):
        p = run(["rules"], self.dir)
        self.assertEqual(p.returncode, 0)
        self.assertIn("ARCH003", p.stdout)
        rules = json.loads(run(["rules", "--format", "json"], self.dir).stdout)
        self.assertTrue(any(r["id"] == "PARSE001" for r in rules))
        p = run(["--explain", "ARCH003"], self.dir)
        self.assertEqual(p.returncode, 0)
        self.assertTrue(p.stdout.startswith("# arch-unsupported-by-cuda (ARCH003)"))
        self.assertEqual(run(["--explain", "NOPE999"], self.dir).returncode, 2)

    def test_short_options_take_attached_values(self):
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        for args in (["-j1", "-oattached.json"], ["-j", "1", "-o", "attached.json"]):
            p = run(["check", "--format", "json", *args, "Dockerfile"], self.dir)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertEqual(json.loads(read(os.path.join(self.dir, "attached.json")))["findings"][0]["rule"], "ARCH003")
        self.assertEqual(run(["check", "-j0", "Dockerfile"], self.dir).returncode, 2)
        self.assertEqual(run(["check", "-jx", "Dockerfile"], self.dir).returncode, 2)

    def test_cache_is_used_shared_and_cleaned(self):
        write(self.dir, "p/m.py", "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n")
        write(self.dir, "p/k.cu", "__global__ void k(int* p) { p[0] = __reduce_add_sync(0xffffffffu, p[0]); }\n")
        project = os.path.join(self.dir, "p")
        before = {f: read(os.path.join(project, f)) for f in os.listdir(project)}
        cache = os.path.join(self.dir, "cache")
        args = ["check", "--format", "json", "--target-archs", "7.5", "--select", "ALL"]
        plain = run(args + ["--no-cache"], project)
        cold = run(args + ["--cache-dir", cache], project)
        warm = run(args + ["--cache-dir", cache], project)
        self.assertEqual(plain.returncode, 1, plain.stderr)
        self.assertEqual(cold.stdout, plain.stdout)
        self.assertEqual(warm.stdout, plain.stdout)
        rules = sorted(f["rule"] for f in json.loads(plain.stdout)["findings"])
        self.assertIn("GB001", rules)
        self.assertIn("INTR001", rules)
        kinds = sorted(os.listdir(os.path.join(cache, "v1")))
        # No PCH: the prelude precompiled for the default flags is built into cudalint.
        self.assertEqual(kinds, ["cuda", "gb"])
        # The project is untouched; the cache marks itself.
        self.assertEqual({f: read(os.path.join(project, f)) for f in os.listdir(project)}, before)
        self.assertTrue(read(os.path.join(cache, "CACHEDIR.TAG")).startswith("Signature: 8a477f597d28d172789f06886806bc55"))
        # A cache inside the analysed tree is neither analysed nor reported.
        inside = run(args + ["--cache-dir", os.path.join(project, ".cudalint-cache")], project)
        self.assertEqual(inside.stdout, plain.stdout)
        self.assertTrue(os.path.isdir(os.path.join(project, ".cudalint-cache", "v1")))
        # Concurrent runs share one directory.
        procs = [subprocess.Popen([BIN] + args + ["--cache-dir", os.path.join(self.dir, "shared")], cwd=project,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
        for p in procs:
            out, err = p.communicate(timeout=300)
            self.assertEqual(out, plain.stdout, err)
        # An environment variable names the default directory; `clean` removes only a cudalint cache.
        env_cache = os.path.join(self.dir, "envcache")
        env = dict(os.environ, CUDALINT_CACHE_DIR=env_cache)
        p = subprocess.run([BIN] + args, cwd=project, capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(p.stdout, plain.stdout)
        self.assertTrue(os.path.isdir(os.path.join(env_cache, "v1")))
        p = subprocess.run([BIN, "clean"], cwd=project, capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertFalse(os.path.exists(env_cache))
        precious = write(self.dir, "precious/data.txt", "keep me\n")
        p = run(["clean", "--cache-dir", os.path.dirname(precious)], self.dir)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not a cudalint cache", p.stderr)
        self.assertEqual(read(precious), "keep me\n")
        self.assertEqual(run(["clean", "--cache-dir", cache], self.dir).returncode, 0)
        # Other flags (C++20 from a compilation database): their PCH is built once and kept.
        write(self.dir, "p20/k.cu", "__global__ void k(int* p) { p[0] = __reduce_add_sync(0xffffffffu, p[0]); }\n")
        write(self.dir, "p20/compile_commands.json", json.dumps(
            [{"directory": os.path.join(self.dir, "p20"), "file": "k.cu", "arguments": ["nvcc", "-std=c++20", "-c", "k.cu"]}]))
        cache20 = os.path.join(self.dir, "cache20")
        first = run(args + ["--cache-dir", cache20], os.path.join(self.dir, "p20"))
        self.assertIn("INTR001", first.stdout, first.stderr)
        self.assertEqual(sorted(os.listdir(os.path.join(cache20, "v1"))), ["cuda", "pch"])
        self.assertFalse(os.path.exists(cache))
        self.assertEqual(run(["check", "--cache-dir"], self.dir).returncode, 2)

    def test_target_archs_flag_is_accepted(self):
        write(self.dir, "Dockerfile", "FROM ubuntu:22.04\n")
        self.assertEqual(run(["check", "--target-archs", "7.5;8.0"], self.dir).returncode, 0)


    def test_stdin_filename_lints_the_stdin_text_as_that_file(self):
        # On disk the file is clean; the text on stdin has the finding, and it is reported
        # under the name given, with the stdin text's line.
        disk = write(self.dir, "docker/Dockerfile", "FROM ubuntu:22.04\n")
        self.assertEqual(run(["check", "docker/Dockerfile"], self.dir).returncode, 0)
        p = run(["check", "--color", "never", "--stdin-filename", "docker/Dockerfile"], self.dir,
                input="# from stdin\n" + BAD_DOCKERFILE)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("docker/Dockerfile:3:27: error: sm_37 is not supported by CUDA 12.4.1", p.stdout)
        self.assertIn('ENV TORCH_CUDA_ARCH_LIST="3.7;8.0"', p.stdout)  # the source line is stdin's
        self.assertEqual(read(disk), "FROM ubuntu:22.04\n")
        # The other way round: a bad file on disk, clean text on stdin.
        write(self.dir, "docker/Dockerfile", BAD_DOCKERFILE)
        p = run(["check", "--stdin-filename", "docker/Dockerfile"], self.dir, input="FROM ubuntu:22.04\n")
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)
        # The same file may be named as the PATH too, or `-`; JSON names the path given.
        for extra in (["docker/Dockerfile"], ["-"], [os.path.join(self.dir, "docker/Dockerfile")]):
            p = run(["check", "--format", "json", "--stdin-filename", "docker/Dockerfile"] + extra, self.dir,
                    input=BAD_DOCKERFILE.replace("8.0", "3.5"))
            self.assertEqual(p.returncode, 1, p.stderr)
            doc = json.loads(p.stdout)
            self.assertEqual({f["path"] for f in doc["findings"]}, {"docker/Dockerfile"})
            self.assertEqual(len(doc["findings"]), 2)  # sm_37 and sm_35

    def test_stdin_filename_needs_no_file_on_disk_and_uses_the_config(self):
        write(self.dir, "cudalint.toml", '[severity]\nARCH003 = "info"\n')
        p = run(["check", "--format", "json", "--stdin-filename", "new/Dockerfile"], self.dir, input=BAD_DOCKERFILE)
        doc = json.loads(p.stdout)
        self.assertEqual([(f["path"], f["rule"], f["severity"]) for f in doc["findings"]],
                         [("new/Dockerfile", "ARCH003", "info")])
        self.assertEqual(p.returncode, 0)  # info is below --fail-on warning
        self.assertFalse(os.path.exists(os.path.join(self.dir, "new")))
        # Over the configured max-file-size: PARSE005, as for a file on disk.
        write(self.dir, "cudalint.toml", "max-file-size = 64\n")
        p = run(["check", "--format", "json", "--stdin-filename", "Dockerfile"], self.dir,
                input=BAD_DOCKERFILE + "# padding\n" * 1000)
        self.assertEqual([f["rule"] for f in json.loads(p.stdout)["findings"]], ["PARSE005"])
        self.assertEqual(p.returncode, 1)

    def test_stdin_filename_fix_prints_the_fixed_text_and_writes_nothing(self):
        on_disk = 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="7.0"\n'
        path = write(self.dir, "Dockerfile", on_disk)
        before = os.stat(path).st_mtime_ns
        stdin = 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n'
        p = run(["check", "--fix", "--stdin-filename", "Dockerfile"], self.dir, input=stdin)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout, stdin.replace("sm_80;sm_90", "8.0;9.0"))
        self.assertIn("fixed", p.stderr)
        self.assertEqual(read(path), on_disk)
        self.assertEqual(os.stat(path).st_mtime_ns, before)
        self.assertEqual(sorted(os.listdir(self.dir)), ["Dockerfile"])
        # What cannot be fixed is reported on stderr; stdout is still the whole text.
        stdin = BAD_DOCKERFILE + 'ENV X="sm_80;sm_90"\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n'
        p = run(["check", "--fix", "--color", "never", "--stdin-filename", "Dockerfile"], self.dir, input=stdin)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, stdin.replace('LIST="sm_80"', 'LIST="8.0"'))
        self.assertIn("Dockerfile:2:27: error: sm_37", p.stderr)
        # A file cudalint does not analyse is echoed unchanged.
        p = run(["check", "--fix", "--stdin-filename", "notes.txt"], self.dir, input="sm_80\n")
        self.assertEqual((p.returncode, p.stdout), (0, "sm_80\n"), p.stderr)
        # Too large for max-file-size: reported, and echoed whole (also the part past the limit).
        write(self.dir, "cudalint.toml", "max-file-size = 64\n")
        big = BAD_DOCKERFILE + "# padding\n" * 10000
        p = run(["check", "--fix", "--stdin-filename", "Dockerfile"], self.dir, input=big)
        self.assertEqual(p.stdout, big)
        self.assertIn("PARSE005", p.stderr)
        self.assertEqual(read(path), on_disk)

    def test_stdin_filename_bad_combinations_exit_2(self):
        write(self.dir, "Dockerfile", BAD_DOCKERFILE)
        write(self.dir, "other/Dockerfile", BAD_DOCKERFILE)
        for args, needle in [
            (["check", "--stdin-filename", "Dockerfile", "Dockerfile", "other/Dockerfile"], "one file"),
            (["check", "--stdin-filename", "Dockerfile", "other/Dockerfile"], "must be `-` or that file"),
            (["check", "--stdin-filename", "Dockerfile", "other"], "must be `-` or that file"),
            (["check", "--stdin-filename"], "--stdin-filename needs a path"),
            (["check", "--stdin-filename="], "--stdin-filename needs a path"),
            (["rules", "--stdin-filename", "Dockerfile"], "option of `cudalint check`"),
            (["rules", "--statistics"], "option of `cudalint check`"),
            (["check", "--statistics", "--format", "sarif"], "--statistics prints --format text or json"),
        ]:
            p = run(args, self.dir, input=BAD_DOCKERFILE)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(needle, p.stderr, args)
            self.assertEqual(p.stdout, "", args)
        self.assertIn("--stdin-filename PATH", run(["--help"], self.dir).stdout)
        self.assertIn("--statistics", run(["--help"], self.dir).stdout)

    def test_statistics_counts_sorted_text_and_json(self):
        write(self.dir, "a/Dockerfile", BAD_DOCKERFILE)
        write(self.dir, "b/Dockerfile", BAD_DOCKERFILE.replace("8.0", "3.5"))
        write(self.dir, "c/Dockerfile", 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n'
              'ENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n')
        full = run(["check", "--format", "json"], self.dir)
        findings = json.loads(full.stdout)["findings"]
        counts = {}
        for f in findings:
            counts[f["rule"]] = counts.get(f["rule"], 0) + 1
        self.assertGreaterEqual(len(counts), 2, findings)
        want = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        names = {r["id"]: r["name"] for r in json.loads(run(["rules", "--format", "json"], self.dir).stdout)}

        p = run(["check", "--format", "json", "--statistics"], self.dir)
        self.assertEqual(p.returncode, full.returncode)
        stats = json.loads(p.stdout)
        self.assertEqual([(s["code"], s["count"]) for s in stats], want)
        for s in stats:
            self.assertEqual(set(s), {"code", "name", "count", "fixable"})
            self.assertEqual(s["name"], names[s["code"]])
            fixable = any(f["rule"] == s["code"] and f.get("fix") and f["fix"]["applicability"] == "safe"
                          for f in findings)
            self.assertEqual(s["fixable"], fixable, s)
        self.assertTrue(any(s["fixable"] for s in stats))

        p = run(["check", "--statistics"], self.dir)
        self.assertEqual(p.returncode, full.returncode)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), len(want))
        for line, (code, n) in zip(lines, want):
            fields = line.split()
            self.assertEqual((int(fields[0]), fields[1], fields[-1]), (n, code, names[code]), line)
            self.assertEqual("[*]" in fields, any(s["code"] == code and s["fixable"] for s in stats), line)
        self.assertNotIn("^", p.stdout)
        # No findings: empty text, an empty array, exit 0.
        clean = os.path.join(self.dir, "clean")
        write(clean, "Dockerfile", "FROM ubuntu:22.04\n")
        self.assertEqual(run(["check", "--statistics"], clean).stdout, "")
        p = run(["check", "--statistics", "--format", "json"], clean)
        self.assertEqual((p.returncode, json.loads(p.stdout)), (0, []))
        # With --exit-zero and --stdin-filename, as for a normal run.
        p = run(["check", "--statistics", "--exit-zero", "--stdin-filename", "a/Dockerfile"], self.dir,
                input=BAD_DOCKERFILE)
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout, r"^\s+1 ARCH003 ")

if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
