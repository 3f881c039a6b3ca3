#!/usr/bin/env python3
"""integrations/github/action.yml: static consistency checks, then its steps run locally.

Static: every `${{ inputs.X }}` is declared and every input is used; every `steps.ID.outputs.N`
names an earlier step that writes N; run steps have `shell: bash`, pass `bash -n`, and take
inputs through `env:` only; the SARIF upload uses github/codeql-action/upload-sarif with the
run step's report and the `category` input, and the gate comes after it.

Dynamic (no network): a small runner evaluates `if:` and `${{ }}` like GitHub's composite
runner (for the subset action.yml uses), runs the bash steps with GITHUB_OUTPUT and
GITHUB_ACTION_PATH set, and stands in for the `uses:` steps: upload-sarif (the report it would
upload is checked) and actions/cache/restore and save (a dictionary of directories by key).
The binary under test is passed as the `cudalint-path` input (install and build skipped), or
installed from a release laid out in a scratch directory and named by a file:// `release-url`:
the binary asset (a stub that runs the binary under test), the wheel asset (a small wheel whose
script does the same) and SHA256SUMS, as scripts/release.sh writes them. The install from
source (`install: source`) is checked statically only: it runs apt and a full build.

Usage: github_action_test.py CUDALINT_BINARY [REPO_ROOT]
"""
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

import yaml

BIN = None
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ACTION_DIR = None
ACTION = None

# The outputs of the actions action.yml uses, as `name=` (their action.yml's `outputs:`).
USES_OUTPUTS = {"actions/cache/restore": "cache-hit= cache-primary-key= cache-matched-key="}
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
INPUT_REF = re.compile(r"\binputs\.([A-Za-z0-9_-]+)")
STEP_REF = re.compile(r"\bsteps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)")


def strings(node, where=""):
    """Yields (where, string) for every string in a YAML tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from strings(v, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from strings(v, f"{where}[{i}]")
    elif isinstance(node, str):
        yield where, node


def expressions(step):
    """The expression texts a step uses: `${{ }}` bodies and its bare `if:`."""
    out = [m.group(1) for _, s in strings({k: v for k, v in step.items() if k != "if"}) for m in EXPR.finditer(s)]
    if "if" in step:
        out.append(EXPR.sub(lambda m: m.group(1), str(step["if"])))
    return out


# --- a minimal evaluator for GitHub expressions (the subset action.yml uses) -------------------
TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_.-]*(?:\(\))?))")


class Expr:
    def __init__(self, text, ctx, status_ok):
        self.toks, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot parse expression {text!r} at {pos}")
            pos = m.end()
            if m.group(1):
                self.toks.append(("op", m.group(1)))
            elif m.group(2) is not None:
                self.toks.append(("str", m.group(2).replace("''", "'")))
            else:
                self.toks.append(("id", m.group(3)))
        self.i, self.ctx, self.status_ok = 0, ctx, status_ok

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def value(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise ValueError(f"trailing tokens in {self.toks}")
        return v

    def or_(self):
        v = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            r = self.and_()
            v = v if truthy(v) else r
        return v

    def and_(self):
        v = self.cmp()
        while self.peek() == ("op", "&&"):
            self.take()
            r = self.cmp()
            v = r if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        while self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            r = self.unary()
            eq = str(v).lower() == str(r).lower()  # GitHub compares strings case-insensitively
            v = eq if op == "==" else not eq
        return v

    def unary(self):
        kind, tok = self.take()
        if (kind, tok) == ("op", "!"):
            return not truthy(self.unary())
        if (kind, tok) == ("op", "("):
            v = self.or_()
            if self.take() != ("op", ")"):
                raise ValueError("missing )")
            return v
        if kind == "str":
            return tok
        if kind == "id":
            if tok == "always()":
                return True
            if tok == "success()":
                return self.status_ok
            if tok == "failure()":
                return not self.status_ok
            if tok in ("true", "false"):
                return tok == "true"
            node = self.ctx
            for part in tok.split("."):
                node = node.get(part, "") if isinstance(node, dict) else ""
            return node
        raise ValueError(f"unexpected token {tok!r}")


def truthy(v):
    return bool(v) and v != "0"


def evaluate(text, ctx, status_ok=True):
    return Expr(text, ctx, status_ok).value()


def substitute(s, ctx):
    return EXPR.sub(lambda m: str(evaluate(m.group(1), ctx)), s)


def uses_step(step, with_, cache, uploads):
    """Stands in for a `uses:` step; returns (ok, outputs, log text)."""
    action = step["uses"].split("@")[0]
    if action == "github/codeql-action/upload-sarif":
        uploads.append(with_)
        return True, {}, ""
    if cache is None:
        raise AssertionError(f"{action}: no cache given to this run")
    path, key = with_["path"], with_["key"]
    assert path and key, f"{action}: empty path or key: {with_}"
    if action == "actions/cache/restore":
        if key in cache:
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(cache[key], path)
            return True, {"cache-hit": "true", "cache-primary-key": key, "cache-matched-key": key}, f"restored {key}"
        return True, {"cache-primary-key": key}, f"cache miss {key}"
    if action == "actions/cache/save":
        assert os.path.isdir(path), f"save: {path} does not exist"
        if key in cache:  # GitHub refuses to overwrite a key: the step warns and succeeds
            return True, {}, f"key {key} exists"
        dest = os.path.join(os.path.dirname(path) + "-saved", key)
        shutil.copytree(path, dest)
        cache[key] = dest
        return True, {}, f"saved {key}"
    raise AssertionError(f"unexpected action {action}")


def run_action(workspace, inputs, tmp, cache=None):
    """Runs action.yml's steps; returns (job_ok, per-step log, uploads, ctx). `cache`: the
    actions cache (a dict key -> directory) that the cache steps read and fill."""
    declared = ACTION["inputs"]
    unknown = set(inputs) - set(declared)
    assert not unknown, f"unknown inputs {unknown}"
    ctx = {"inputs": {k: inputs.get(k, str(v.get("default", ""))) for k, v in declared.items()},
           "steps": {}, "github": {"action_path": ACTION_DIR, "workspace": workspace}}
    job_ok, log, uploads = True, [], []
    for n, step in enumerate(ACTION["runs"]["steps"]):
        cond = str(step.get("if", "success()"))
        cond = EXPR.sub(lambda m: m.group(1), cond)
        if not re.search(r"\b(always|success|failure|cancelled)\(\)", cond):
            cond = f"success() && ({cond})"
        name = step.get("id") or f"step{n}"
        if not truthy(evaluate(cond, ctx, job_ok)):
            log.append((name, "skipped", ""))
            continue
        env = dict(os.environ, GITHUB_ACTION_PATH=ACTION_DIR, GITHUB_WORKSPACE=workspace, RUNNER_TEMP=tmp,
                   RUNNER_TOOL_CACHE=os.path.join(tmp, "toolcache"), RUNNER_OS="Linux", RUNNER_ARCH="X64",
                   GITHUB_ACTIONS="true")
        env.update({k: substitute(str(v), ctx) for k, v in step.get("env", {}).items()})
        outputs = {}
        if "run" in step:
            out_file = os.path.join(tmp, f"output-{n}")
            open(out_file, "w").close()
            env["GITHUB_OUTPUT"] = out_file
            script = os.path.join(tmp, f"step-{n}.sh")
            with open(script, "w") as f:
                f.write(substitute(step["run"], ctx))
            # GitHub's `shell: bash` is `bash --noprofile --norc -eo pipefail {0}`.
            p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=workspace, env=env,
                               capture_output=True, text=True)
            with open(out_file) as f:
                for line in f.read().splitlines():
                    k, _, v = line.partition("=")
                    outputs[k] = v
            ok, text = p.returncode == 0, p.stdout + p.stderr
        else:
            with_ = {k: substitute(str(v), ctx) for k, v in step.get("with", {}).items()}
            ok, outputs, text = uses_step(step, with_, cache, uploads)
        ctx["steps"][name] = {"outputs": outputs, "outcome": "success" if ok else "failure"}
        log.append((name, "success" if ok else "failure", text))
        job_ok = job_ok and ok
    return job_ok, log, uploads, ctx


class Static(unittest.TestCase):
    def test_shape(self):
        self.assertEqual(ACTION["runs"]["using"], "composite")
        for key in ("name", "description"):
            self.assertTrue(ACTION.get(key), key)
        for name in ("paths", "args", "category", "fail-on-findings", "cudalint-path"):
            self.assertIn(name, ACTION["inputs"])
        for name, spec in ACTION["inputs"].items():
            self.assertTrue(spec.get("description"), f"input {name} has no description")
            self.assertIsInstance(spec.get("default", ""), str, f"input {name}: defaults must be strings")
        self.assertIn(ACTION["inputs"]["fail-on-findings"]["default"], ("true", "false"))

    def test_inputs_declared_and_used(self):
        used = set()
        for step in ACTION["runs"]["steps"]:
            for e in expressions(step):
                used |= set(INPUT_REF.findall(e))
        for _, s in strings(ACTION["outputs"]):
            used |= {m for e in EXPR.findall(s) for m in INPUT_REF.findall(e)}
        self.assertEqual(used - set(ACTION["inputs"]), set(), "undeclared inputs referenced")
        self.assertEqual(set(ACTION["inputs"]) - used, set(), "declared inputs never used")

    def test_step_outputs_come_from_earlier_steps(self):
        steps = ACTION["runs"]["steps"]
        ids = [s["id"] for s in steps if "id" in s]
        self.assertEqual(len(ids), len(set(ids)), "duplicate step ids")
        seen = {}
        for step in steps:
            for e in expressions(step):
                for sid, out in STEP_REF.findall(e):
                    self.assertIn(sid, seen, f"step {step.get('name')} reads steps.{sid} before it runs")
                    self.assertIn(f"{out}=", seen[sid], f"step {sid} never writes output {out}")
            if "id" in step:
                seen[step["id"]] = step.get("run", "") or USES_OUTPUTS.get(step.get("uses", "").split("@")[0], "")
        for name, spec in ACTION["outputs"].items():
            for sid, out in STEP_REF.findall(spec["value"]):
                self.assertIn(sid, seen, f"output {name}")
                self.assertIn(f"{out}=", seen[sid], f"output {name}: step {sid} never writes {out}")

    def test_run_steps(self):
        for step in ACTION["runs"]["steps"]:
            if "run" not in step:
                continue
            self.assertEqual(step.get("shell"), "bash", step.get("name"))
            self.assertNotIn("${{", step["run"], f"{step.get('name')}: pass inputs through env:, not into the script")
            p = subprocess.run(["bash", "-n"], input=step["run"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, f"{step.get('name')}: {p.stderr}")
            for rel in re.findall(r"\$GITHUB_ACTION_PATH/([\w./-]+)", step["run"]):
                path = os.path.normpath(os.path.join(ACTION_DIR, rel))
                self.assertTrue(os.path.exists(path), f"{step.get('name')}: {path} does not exist")
                if os.path.isfile(path):
                    self.assertTrue(os.access(path, os.X_OK), f"{path} is not executable")

    def test_cache_steps(self):
        steps = ACTION["runs"]["steps"]
        idx = {s.get("id") or s.get("uses", "").split("@")[0]: i for i, s in enumerate(steps)}
        restore, save = steps[idx["cache"]], steps[idx["save"]]
        self.assertRegex(restore["uses"], r"^actions/cache/restore@v\d+$")
        self.assertRegex(save["uses"], r"^actions/cache/save@v\d+$")
        self.assertEqual(restore["with"], save["with"], "restore and save must use the same path and key")
        self.assertLess(idx["resolve"], idx["cache"])
        self.assertLess(idx["cache"], idx["install"])
        self.assertLess(idx["install"], idx["save"])
        self.assertLess(idx["save"], idx["run"], "save before the run, whose gate may fail the job")
        self.assertIn("steps.cache.outputs.cache-hit != 'true'", save["if"])
        # Building from source happens only when asked.
        for sid in ("build",):
            self.assertIn("steps.resolve.outputs.install == 'source'", steps[idx[sid]]["if"])
        self.assertEqual(ACTION["inputs"]["install"]["default"], "binary")
        self.assertTrue(ACTION["inputs"]["release-url"]["default"].endswith("/releases/download"))
        install = os.path.join(ACTION_DIR, "install.sh")
        self.assertTrue(os.access(install, os.X_OK))
        for sh in ("sh", "dash"):
            if shutil.which(sh):
                p = subprocess.run([sh, "-n", install], capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, f"{sh} -n install.sh: {p.stderr}")

    def test_upload_and_gate_order(self):
        steps = ACTION["runs"]["steps"]
        uses = [i for i, s in enumerate(steps) if "upload-sarif" in s.get("uses", "")]
        self.assertEqual(len(uses), 1)
        up = steps[uses[0]]
        self.assertRegex(up["uses"], r"^github/codeql-action/upload-sarif@v\d+$")
        self.assertEqual(up["with"]["category"], "${{ inputs.category }}")
        self.assertEqual(up["with"]["sarif_file"], "${{ steps.run.outputs.sarif-file }}")
        run = next(i for i, s in enumerate(steps) if s.get("id") == "run")
        gate = next(i for i, s in enumerate(steps) if "fail-on-findings" in str(s.get("if", "")))
        self.assertLess(run, uses[0])
        self.assertLess(uses[0], gate, "the gate must come after the upload, so failing runs still upload")


class Dynamic(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudalint-action-")
        self.ws = os.path.join(self.tmp, "ws")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def workspace(self, example):
        shutil.copytree(os.path.join(ROOT, "examples", example), self.ws)

    def sarif(self, uploads):
        self.assertEqual(len(uploads), 1)
        with open(os.path.join(self.ws, uploads[0]["sarif_file"])) as f:
            return json.load(f)

    def steps(self, log):
        return {name: status for name, status, _ in log}

    def explain(self, log):
        return "\n".join(f"--- {n}: {s}\n{t}" for n, s, t in log)

    def test_findings_upload_then_fail(self):
        self.workspace("demo")
        ok, log, uploads, ctx = run_action(self.ws, {"cudalint-path": BIN}, self.tmp)
        st = self.steps(log)
        self.assertFalse(ok, self.explain(log))
        for step in ("resolve", "cache", "install", "save", "build"):
            self.assertEqual(st[step], "skipped", f"{step} runs despite cudalint-path")
        self.assertEqual(list(st.values()).count("skipped"), 6, "install and build steps run despite cudalint-path")
        self.assertEqual(st["run"], "success", self.explain(log))
        self.assertEqual(ctx["steps"]["run"]["outputs"]["exit-code"], "1")
        sarif = self.sarif(uploads)
        self.assertEqual(uploads[0]["category"], "cudalint")
        run = sarif["runs"][0]
        self.assertEqual(run["automationDetails"]["id"], "cudalint/")
        self.assertGreater(len(run["results"]), 0)
        self.assertEqual(ctx["steps"]["category"]["outputs"]["findings"], str(len(run["results"])))
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
        self.assertIn("Dockerfile", uris)  # relative to the workspace, as code scanning needs
        self.assertEqual(log[-1][1], "failure", "the gate step did not fail the job")

    def test_no_gate_category_paths_and_args(self):
        self.workspace("demo")
        ok, log, uploads, ctx = run_action(
            self.ws, {"cudalint-path": BIN, "fail-on-findings": "false", "category": "cuda/builds",
                      "paths": "Dockerfile *.py", "args": "--select ARCH004,PARSE --fail-on error"}, self.tmp)
        self.assertTrue(ok, self.explain(log))
        self.assertEqual(ctx["steps"]["run"]["outputs"]["exit-code"], "1")
        self.assertEqual(self.steps(log)[log[-1][0]], "skipped")
        sarif = self.sarif(uploads)
        self.assertEqual(uploads[0]["category"], "cuda/builds")
        self.assertEqual(sarif["runs"][0]["automationDetails"]["id"], "cuda/builds/")
        # The glob reached cudalint expanded (an unexpanded `*.py` would be a PARSE002 finding).
        rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
        self.assertEqual(rules, {"ARCH004"})

    def test_clean_tree_passes(self):
        self.workspace("clean")
        ok, log, uploads, ctx = run_action(self.ws, {"cudalint-path": BIN}, self.tmp)
        self.assertTrue(ok, self.explain(log))
        self.assertEqual(ctx["steps"]["run"]["outputs"]["exit-code"], "0")
        self.assertEqual(ctx["steps"]["category"]["outputs"]["findings"], "0")
        self.assertEqual(self.sarif(uploads)["runs"][0]["results"], [])

    def test_missing_binary_fails_before_upload(self):
        self.workspace("clean")
        ok, log, uploads, _ = run_action(self.ws, {"cudalint-path": os.path.join(self.tmp, "nope")}, self.tmp)
        self.assertFalse(ok)
        self.assertEqual(uploads, [])
        self.assertIn("cudalint binary not found", dict((n, t) for n, _, t in log)["run"])

    def test_usage_error_fails_before_upload(self):
        self.workspace("clean")
        ok, log, uploads, _ = run_action(self.ws, {"cudalint-path": BIN, "args": "--select NOPE999"}, self.tmp)
        self.assertFalse(ok, self.explain(log))
        self.assertEqual(self.steps(log)["run"], "failure", self.explain(log))
        self.assertEqual(uploads, [])


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def make_release(root, version, binary):
    """A release as scripts/release.sh lays it out, under root/v<version>/: a stub binary asset and
    a small wheel that both run `binary`, and SHA256SUMS. Returns the directory."""
    d = os.path.join(root, f"v{version}")
    os.makedirs(d)
    stub = f'#!/bin/sh\nexec "{binary}" "$@"\n'.encode()
    with open(os.path.join(d, f"cudalint-{version}-linux-x86_64"), "wb") as f:
        f.write(stub)
    files = {"cudalint/__init__.py": f'__version__ = "{version}"\n'.encode(),
             f"cudalint-{version}.data/scripts/cudalint": stub,
             f"cudalint-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: cudalint\nVersion: {version}\n".encode(),
             f"cudalint-{version}.dist-info/WHEEL":
                 b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_17_x86_64\n"}
    files[f"cudalint-{version}.dist-info/RECORD"] = ("".join(f"{k},{record_hash(v)},{len(v)}\n" for k, v in files.items())
                                                     + f"cudalint-{version}.dist-info/RECORD,,\n").encode()
    with zipfile.ZipFile(os.path.join(d, f"cudalint-{version}-py3-none-manylinux_2_17_x86_64.whl"), "w") as z:
        for k, v in files.items():
            info = zipfile.ZipInfo(k)
            info.external_attr = 0o100755 << 16
            z.writestr(info, v)
    assets = sorted(os.listdir(d))
    with open(os.path.join(d, "SHA256SUMS"), "w") as f:
        subprocess.run(["sha256sum", *assets], cwd=d, check=True, stdout=f)
    return d


class Release(unittest.TestCase):
    """The release install: download from a file:// release page, checksum, cache."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudalint-action-rel-")
        self.ws = os.path.join(self.tmp, "ws")
        self.releases = os.path.join(self.tmp, "releases")
        self.release = make_release(self.releases, "9.8.7", BIN)
        self.url = "file://" + self.releases
        shutil.copytree(os.path.join(ROOT, "examples", "demo"), self.ws)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_it(self, store, **inputs):
        inputs = {"version": "v9.8.7", "release-url": self.url, **inputs}
        runner = tempfile.mkdtemp(prefix="runner-", dir=self.tmp)  # a fresh runner (tool cache) each job
        return run_action(self.ws, inputs, runner, store)

    def explain(self, log):
        return "\n".join(f"--- {n}: {s}\n{t}" for n, s, t in log)

    def check_linted(self, ok, log, uploads, ctx):
        st = dict((n, s) for n, s, _ in log)
        self.assertEqual(st["run"], "success", self.explain(log))
        self.assertEqual(ctx["steps"]["run"]["outputs"]["exit-code"], "1", self.explain(log))
        self.assertEqual(len(uploads), 1)
        self.assertFalse(ok, "the gate fails the job on the demo's findings")
        self.assertEqual(st["build"], "skipped")

    def test_binary_then_cache_hit(self):
        cache = {}
        ok, log, uploads, ctx = self.run_it(cache)
        self.check_linted(ok, log, uploads, ctx)
        out = ctx["steps"]["resolve"]["outputs"]
        self.assertEqual((out["version"], out["install"]), ("9.8.7", "binary"))
        self.assertEqual(out["key"], "cudalint-binary-9.8.7-Linux-X64")
        self.assertNotEqual(ctx["steps"]["cache"]["outputs"].get("cache-hit"), "true")
        self.assertTrue(ctx["steps"]["install"]["outputs"]["bin"].endswith("/cudalint/9.8.7-binary/bin/cudalint"))
        self.assertIn("cudalint-9.8.7-linux-x86_64", dict((n, t) for n, _, t in log)["install"])
        self.assertEqual(list(cache), ["cudalint-binary-9.8.7-Linux-X64"], "saved although the job failed on findings")
        # A second job: restored from the cache, nothing downloaded (the release is gone).
        shutil.rmtree(self.releases)
        ok, log, uploads, ctx = self.run_it(cache)
        self.check_linted(ok, log, uploads, ctx)
        self.assertEqual(ctx["steps"]["cache"]["outputs"]["cache-hit"], "true")
        self.assertIn("cached:", dict((n, t) for n, _, t in log)["install"])
        self.assertEqual(dict((n, s) for n, s, _ in log)["save"], "skipped", "saved again after a hit")

    def test_wheel(self):
        if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
            self.skipTest("python3 -m pip is not available")
        cache = {}
        ok, log, uploads, ctx = self.run_it(cache, install="wheel", **{"upload-sarif": "false"})
        st = dict((n, s) for n, s, _ in log)
        self.assertEqual(st["run"], "success", self.explain(log))
        self.assertEqual(uploads, [], "upload-sarif: false uploads nothing")
        self.assertTrue(ctx["steps"]["install"]["outputs"]["bin"].endswith("/9.8.7-wheel/site-packages/bin/cudalint"))
        self.assertEqual(list(cache), ["cudalint-wheel-9.8.7-Linux-X64"])

    def test_no_cache(self):
        cache = {}
        ok, log, uploads, ctx = self.run_it(cache, cache="false")
        self.check_linted(ok, log, uploads, ctx)
        self.assertEqual(cache, {})
        self.assertEqual(dict((n, s) for n, s, _ in log)["cache"], "skipped")

    def test_checksum_mismatch_fails_before_lint(self):
        with open(os.path.join(self.release, "cudalint-9.8.7-linux-x86_64"), "ab") as f:
            f.write(b"# tampered\n")
        cache = {}
        ok, log, uploads, ctx = self.run_it(cache)
        st = dict((n, s) for n, s, _ in log)
        self.assertFalse(ok)
        self.assertEqual(st["install"], "failure", self.explain(log))
        self.assertIn("does not match SHA256SUMS", dict((n, t) for n, _, t in log)["install"])
        self.assertEqual((st["run"], uploads, cache), ("skipped", [], {}))

    def test_unreleased_version_and_bad_kind(self):
        ok, log, uploads, _ = self.run_it({}, version="9.9.9")
        self.assertFalse(ok)
        self.assertIn("is v9.9.9 released?", dict((n, t) for n, _, t in log)["install"])
        self.assertEqual(uploads, [])
        ok, log, _, _ = self.run_it({}, install="brew")
        self.assertFalse(ok)
        self.assertEqual(dict((n, s) for n, s, _ in log)["resolve"], "failure")
        self.assertIn("is not binary, wheel or source", dict((n, t) for n, _, t in log)["resolve"])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: github_action_test.py CUDALINT_BINARY [REPO_ROOT]")
    BIN = os.path.abspath(sys.argv.pop(1))
    if len(sys.argv) > 1:
        ROOT = os.path.abspath(sys.argv.pop(1))
    ACTION_DIR = os.path.join(ROOT, "integrations", "github")
    with open(os.path.join(ACTION_DIR, "action.yml")) as f:
        ACTION = yaml.safe_load(f)
    unittest.main(verbosity=2)
