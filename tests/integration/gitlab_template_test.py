#!/usr/bin/env python3
"""integrations/gitlab/cudalint.gitlab-ci.yml and `--format gitlab` (GitLab Code Quality).

- The template parses (PyYAML) and its job writes the file artifacts:reports:codequality names.
- A gitlab report over fixtures/ is well formed, its fingerprints are unique, and they do not
  change with the checkout's location or with -j (GitLab compares them across pipelines).
- The job's before_script + script run locally (bash and dash, like a runner's shell) with the
  binary under test as CUDALINT_BIN, in copies of examples/demo and examples/clean.
- The release install, offline: a release laid out in a scratch directory (github_action_test's
  make_release: a stub binary and a small wheel that run the binary under test, SHA256SUMS)
  behind a file:// CUDALINT_RELEASE_URL; binary and wheel, the cache directory reused by the
  next job, a tampered asset, an unreleased version, an unknown install kind. The install from
  source is not run (apt and a full build).

Usage: gitlab_template_test.py CUDALINT_BINARY [REPO_ROOT]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from github_action_test import make_release  # noqa: E402

BIN = None
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TEMPLATE = None
REPORT = "gl-code-quality-report.json"
SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def check_report(test, issues, base):
    """GitLab Code Quality's required fields, and unique fingerprints."""
    test.assertIsInstance(issues, list)
    for i in issues:
        test.assertTrue(i["description"].endswith(f"[{i['check_name']}]"), i)
        test.assertRegex(i["check_name"], r"^[A-Z]+[0-9]{3}$")
        test.assertRegex(i["fingerprint"], r"^[0-9a-f]{32}$")
        test.assertIn(i["severity"], SEVERITIES)
        path = i["location"]["path"]
        test.assertFalse(os.path.isabs(path) or path.startswith(".."), path)
        test.assertTrue(os.path.lexists(os.path.join(base, path)), path)
        test.assertIsInstance(i["location"]["lines"]["begin"], int)
        test.assertGreaterEqual(i["location"]["lines"]["begin"], 1)
    fps = [i["fingerprint"] for i in issues]
    dups = {f for f in fps if fps.count(f) > 1}
    test.assertEqual(dups, set(), "duplicate fingerprints: " +
                     "; ".join(f"{i['location']['path']}:{i['location']['lines']['begin']} {i['check_name']}"
                               for i in issues if i["fingerprint"] in dups))


def gitlab_report(cwd, *args):
    out = os.path.join(tempfile.mkdtemp(prefix="cudalint-gl-"), "report.json")
    try:
        p = subprocess.run([BIN, "check", "--format", "gitlab", "-o", out, *args, "."], cwd=cwd,
                           capture_output=True, text=True)
        with open(out) as f:
            return p.returncode, json.load(f)
    finally:
        shutil.rmtree(os.path.dirname(out))


class Template(unittest.TestCase):
    def test_parses_and_declares_the_report(self):
        with open(TEMPLATE) as f:
            doc = yaml.safe_load(f)
        hidden, job = doc[".cudalint"], doc["cudalint"]
        self.assertEqual(job["extends"], ".cudalint")
        self.assertEqual(hidden["artifacts"]["reports"]["codequality"], REPORT)
        self.assertEqual(hidden["artifacts"]["when"], "always")
        self.assertIn(REPORT, hidden["artifacts"]["paths"])
        script = "\n".join(hidden["script"])
        self.assertIn(f"--format gitlab -o {REPORT}", script)
        for var in re.findall(r"\$\{?(CUDALINT_[A-Z_]+)", "\n".join(hidden["before_script"]) + script):
            self.assertIn(var, hidden["variables"], f"{var} has no default in variables:")
        for name, value in hidden["variables"].items():
            self.assertIsInstance(value, str, f"variables: {name} must be a string")

    def test_report_over_fixtures(self):
        tmp = tempfile.mkdtemp(prefix="cudalint-glfix-")
        try:
            a = os.path.join(tmp, "a", "fixtures")
            b = os.path.join(tmp, "b", "deeper", "fixtures")
            shutil.copytree(os.path.join(ROOT, "fixtures"), a, symlinks=True)
            shutil.copytree(os.path.join(ROOT, "fixtures"), b, symlinks=True)
            rc, issues = gitlab_report(a)
            checks = {i["check_name"] for i in issues}
            # fixtures/CONF001 holds invalid configs, which make the run exit 2 (report still written).
            self.assertEqual(rc, 2 if "CONF001" in checks else 1)
            self.assertGreater(len(issues), 50)
            self.assertGreater(len(checks), 20)
            check_report(self, issues, a)
            # Same fingerprints from another location and with one job.
            self.assertEqual(gitlab_report(b, "-j", "1")[1], issues)
        finally:
            shutil.rmtree(tmp)


class Job(unittest.TestCase):
    """Runs the job's shell lines the way a runner does: before_script + script in one shell."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudalint-gljob-")
        with open(TEMPLATE) as f:
            self.job = yaml.safe_load(f)[".cudalint"]

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_job(self, example, shell, _before=None, **variables):
        ws = tempfile.mkdtemp(prefix=f"{example}-{shell}-", dir=self.tmp)
        shutil.copytree(os.path.join(ROOT, "examples", example), ws, dirs_exist_ok=True)
        if _before:
            _before(ws)
        script = "\n".join(self.job["before_script"] + self.job["script"])
        # No cudalint on PATH unless the test puts it there.
        path = ":".join(d for d in os.environ.get("PATH", "").split(":")
                        if not os.path.exists(os.path.join(d, "cudalint")))
        env = dict(os.environ, PATH=path, CI="true", GITLAB_CI="true")
        env.update(self.job["variables"])
        env.update(variables)
        p = subprocess.run([shell, "-e", "-c", script], cwd=ws, env=env, capture_output=True, text=True)
        report = os.path.join(ws, REPORT)
        issues = None
        if os.path.exists(report):
            with open(report) as f:
                issues = json.load(f)
        return p, issues, ws

    def shells(self):
        return [s for s in ("bash", "dash") if shutil.which(s)]

    def test_findings_reported_job_passes_by_default(self):
        for sh in self.shells():
            p, issues, ws = self.run_job("demo", sh, CUDALINT_BIN=BIN)
            self.assertEqual(p.returncode, 0, f"{sh}: {p.stdout}{p.stderr}")
            self.assertTrue(issues, sh)
            check_report(self, issues, ws)
            self.assertIn("Found ", p.stdout, f"{sh}: no text summary in the job log")

    def test_fail_on_findings(self):
        p, issues, _ = self.run_job("demo", "bash", CUDALINT_BIN=BIN, CUDALINT_FAIL_ON_FINDINGS="true")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertTrue(issues)

    def test_args_and_paths(self):
        p, issues, _ = self.run_job("demo", "dash", CUDALINT_BIN=BIN, CUDALINT_ARGS="--select ARCH004,PARSE",
                                    CUDALINT_PATHS="Dockerfile *.py")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual({i["check_name"] for i in issues}, {"ARCH004"})

    def test_clean_tree(self):
        for sh in self.shells():
            p, issues, _ = self.run_job("clean", sh, CUDALINT_BIN=BIN, CUDALINT_FAIL_ON_FINDINGS="true")
            self.assertEqual(p.returncode, 0, f"{sh}: {p.stdout}{p.stderr}")
            self.assertEqual(issues, [])
            self.assertNotIn("Found ", p.stdout)

    def test_cudalint_from_path(self):
        bindir = os.path.join(self.tmp, "bin")
        os.mkdir(bindir)
        os.symlink(BIN, os.path.join(bindir, "cudalint"))
        p, issues, _ = self.run_job("demo", "bash", PATH=bindir + ":" + os.environ.get("PATH", ""))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertTrue(issues)

    def release(self):
        make_release(os.path.join(self.tmp, "releases"), "9.8.7", BIN)
        return {"CUDALINT_RELEASE_URL": "file://" + os.path.join(self.tmp, "releases"), "CUDALINT_VERSION": "9.8.7"}

    def test_cache_declared(self):
        cache = self.job["cache"]
        self.assertEqual(cache["paths"], [".cudalint-cache/"])
        self.assertIn("$CUDALINT_VERSION", cache["key"])
        self.assertIn("$CUDALINT_INSTALL", cache["key"])
        self.assertEqual(cache["when"], "always")
        self.assertEqual(self.job["variables"]["CUDALINT_INSTALL"], "binary")
        self.assertTrue(self.job["variables"]["CUDALINT_RELEASE_URL"].endswith("/releases/download"))

    def test_release_binary_then_cached(self):
        rel = self.release()
        for sh in self.shells():
            p, issues, ws = self.run_job("demo", sh, **rel)
            self.assertEqual(p.returncode, 0, f"{sh}: {p.stdout}{p.stderr}")
            self.assertIn("cudalint-9.8.7-linux-x86_64", p.stdout)
            self.assertTrue(os.access(os.path.join(ws, ".cudalint-cache/9.8.7-binary/bin/cudalint"), os.X_OK))
            self.assertFalse(os.path.exists(os.path.join(ws, ".cudalint-cache/9.8.7-binary/download")))
            check_report(self, issues, ws)
            self.assertFalse([i for i in issues if i["location"]["path"].startswith(".cudalint-cache")])
        # The next pipeline: GitLab restores .cudalint-cache/; nothing is downloaded.
        shutil.rmtree(os.path.join(self.tmp, "releases"))
        cached = os.path.join(ws, ".cudalint-cache")
        p, issues, ws2 = self.run_job("clean", "dash", CUDALINT_FAIL_ON_FINDINGS="true", **rel,
                                      _before=lambda w: shutil.copytree(cached, os.path.join(w, ".cudalint-cache")))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("cudalint: cached:", p.stdout)
        self.assertEqual(issues, [])

    def test_release_wheel(self):
        if subprocess.run(["python3", "-m", "pip", "--version"], capture_output=True).returncode != 0:
            self.skipTest("python3 -m pip is not available")
        p, issues, ws = self.run_job("demo", "dash", CUDALINT_INSTALL="wheel", **self.release())
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertTrue(os.access(os.path.join(ws, ".cudalint-cache/9.8.7-wheel/site-packages/bin/cudalint"), os.X_OK))
        check_report(self, issues, ws)
        self.assertFalse([i for i in issues if i["location"]["path"].startswith(".cudalint-cache")])

    def test_release_tampered_unreleased_unknown(self):
        rel = self.release()
        with open(os.path.join(self.tmp, "releases", "v9.8.7", "cudalint-9.8.7-linux-x86_64"), "ab") as f:
            f.write(b"# tampered\n")
        p, issues, ws = self.run_job("clean", "bash", **rel)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("does not match SHA256SUMS", p.stderr)
        self.assertIsNone(issues)
        self.assertFalse(os.path.exists(os.path.join(ws, ".cudalint-cache/9.8.7-binary/bin/cudalint")))
        p, issues, _ = self.run_job("clean", "dash", **dict(rel, CUDALINT_VERSION="v9.9.9"))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("is v9.9.9 released?", p.stderr)
        p, issues, _ = self.run_job("clean", "bash", CUDALINT_INSTALL="brew")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("is not binary, wheel or source", p.stderr)

    def test_usage_error_fails(self):
        p, _, _ = self.run_job("clean", "bash", CUDALINT_BIN=BIN, CUDALINT_ARGS="--select NOPE999")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: gitlab_template_test.py CUDALINT_BINARY [REPO_ROOT]")
    BIN = os.path.abspath(sys.argv.pop(1))
    if len(sys.argv) > 1:
        ROOT = os.path.abspath(sys.argv.pop(1))
    TEMPLATE = os.path.join(ROOT, "integrations", "gitlab", "cudalint.gitlab-ci.yml")
    unittest.main(verbosity=2)
