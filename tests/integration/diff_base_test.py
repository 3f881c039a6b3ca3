#!/usr/bin/env python3
"""`cudalint check --diff-base REV` and `--format gitlab` against a real temporary git repository.

Usage: diff_base_test.py CUDALINT_BINARY. Exit 77 (skipped) when git is missing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BIN = None

BAD = 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n'


def git(cwd, *args):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def lint(cwd, *args):
    return subprocess.run([BIN, "check", "--format", "json", *args], cwd=cwd, capture_output=True, text=True)


def found(p):
    if p.returncode not in (0, 1):
        raise AssertionError(f"exit {p.returncode}: {p.stderr}")
    return sorted((f["path"], f["region"]["start_line"], f["rule"]) for f in json.loads(p.stdout)["findings"])


class DiffBase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="cudalint-diffbase-")
        git(self.dir, "init", "-q", "-b", "main")
        self.write("Dockerfile", BAD)
        self.write("docker/old.Dockerfile", BAD)
        git(self.dir, "add", ".")
        git(self.dir, "commit", "-qm", "base")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, rel, text):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def test_unchanged_tree_reports_nothing(self):
        self.assertEqual(len(found(lint(self.dir))), 2)
        p = lint(self.dir, "--diff-base", "HEAD")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(found(p), [])

    def test_only_changed_lines_new_untracked_and_renamed_files(self):
        # A new stage appended to the committed Dockerfile (lines 3-4), unstaged.
        self.write("Dockerfile", BAD + 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS two\nENV TORCH_CUDA_ARCH_LIST="sm_90"\n')
        # An untracked file: every line counts.
        self.write("docker/new.Dockerfile", BAD)
        # A staged rename with one edited line: only that line, under the new name.
        git(self.dir, "mv", "docker/old.Dockerfile", "docker/renamed.Dockerfile")
        self.write("docker/renamed.Dockerfile", BAD + "# tail\n")
        git(self.dir, "add", "docker/renamed.Dockerfile")
        self.assertEqual(found(lint(self.dir, "--diff-base", "HEAD")),
                         [("Dockerfile", 4, "ARCH004"), ("docker/new.Dockerfile", 2, "ARCH004")])
        # Editing the renamed file's flagged line makes it count.
        self.write("docker/renamed.Dockerfile", BAD.replace("sm_80", "sm_86") + "# tail\n")
        self.assertIn(("docker/renamed.Dockerfile", 2, "ARCH004"), found(lint(self.dir, "--diff-base", "HEAD")))

    def test_older_revision_subdirectory_and_exit_status(self):
        self.write("docker/b.Dockerfile", BAD)
        git(self.dir, "add", ".")
        git(self.dir, "commit", "-qm", "second")
        # Since HEAD~1 the new file is changed throughout; run from a subdirectory (paths are
        # relative to the run root, git's to the top level).
        p = lint(os.path.join(self.dir, "docker"), "--diff-base", "HEAD~1")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(found(p), [("b.Dockerfile", 2, "ARCH004")])
        self.assertEqual(found(lint(self.dir, "--diff-base", "HEAD")), [])

    def test_bad_revision_and_no_repository(self):
        p = lint(self.dir, "--diff-base", "no-such-branch")
        self.assertEqual(p.returncode, 2)
        self.assertIn("`no-such-branch` does not name a commit", p.stderr)
        p = lint(self.dir, "--diff-base=--help")
        self.assertEqual(p.returncode, 2)
        self.assertIn("expects a git revision", p.stderr)
        plain = tempfile.mkdtemp(prefix="cudalint-nogit-")
        try:
            with open(os.path.join(plain, "Dockerfile"), "w") as f:
                f.write(BAD)
            p = lint(plain, "--diff-base", "HEAD")
            self.assertEqual(p.returncode, 2)
            self.assertIn("needs a git work tree", p.stderr)
        finally:
            shutil.rmtree(plain)

    def test_gitlab_format_with_diff_base(self):
        self.write("Dockerfile", BAD + 'ENV TORCH_CUDA_ARCH_LIST="sm_80;sm_90"\n')
        p = subprocess.run([BIN, "check", "--format", "gitlab", "--diff-base", "HEAD", "-o", "gl.json"], cwd=self.dir,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stderr)
        with open(os.path.join(self.dir, "gl.json")) as f:
            issues = json.load(f)
        self.assertEqual([(i["check_name"], i["location"]["path"], i["location"]["lines"]["begin"], i["severity"])
                          for i in issues],
                         [("ARCH004", "Dockerfile", 3, "critical"), ("ARCH004", "Dockerfile", 3, "critical")])
        self.assertEqual(len({i["fingerprint"] for i in issues}), 2)
        for i in issues:
            self.assertTrue(i["description"].endswith("[ARCH004]"))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: diff_base_test.py CUDALINT_BINARY")
    BIN = os.path.abspath(sys.argv.pop(1))
    if not shutil.which("git"):
        print("git not installed: skipped")
        sys.exit(77)
    unittest.main(verbosity=2)
