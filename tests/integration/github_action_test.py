#!/usr/bin/env python3
"""integrations/github/action.yml: static consistency checks, then its steps run locally.

Static: every `${{ inputs.X }}` is declared and every input is used; every `steps.ID.outputs.N`
names an earlier step that writes N; run steps have `shell: bash`, pass `bash -n`, and take
inputs through `env:` only; the SARIF upload uses github/codeql-action/upload-sarif with the
run step's report and the `category` input, and the gate comes after it.

Dynamic (no network): a small runner evaluates `if:` and `${{ }}` like GitHub's composite
runner (for the subset action.yml uses), runs the bash steps with GITHUB_OUTPUT and
GITHUB_ACTION_PATH set, and stands in for upload-sarif by checking the report it would upload.
The binary under test is passed as the `cudalint-path` input, so the install and build steps
are skipped (checked), not run.

Usage: github_action_test.py CUDALINT_BINARY [REPO_ROOT]
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

BIN = None
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ACTION_DIR = None
ACTION = None

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


def run_action(workspace, inputs, tmp):
    """Runs action.yml's steps; returns (job_ok, per-step log, uploads, ctx)."""
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
            # Stands in for `uses:` steps: only the SARIF upload is expected.
            uploads.append({k: substitute(str(v), ctx) for k, v in step.get("with", {}).items()})
            ok, text = True, ""
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
                seen[step["id"]] = step.get("run", "")
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

    def test_upload_and_gate_order(self):
        steps = ACTION["runs"]["steps"]
        uses = [i for i, s in enumerate(steps) if "uses" in s]
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
        self.assertEqual(st["build"], "skipped")
        self.assertEqual(list(st.values()).count("skipped"), 2, "install and build run despite cudalint-path")
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
