#!/usr/bin/env python3
"""Ground truth for cudalint's graph-break (GB) rules, from Dynamo itself.

Every corpus file (corpus/*.py) defines module-level `case_*` objects: functions decorated
with @torch.compile, results of torch.compile(fn)/torch.compile(module)/torch._dynamo.optimize,
modules compiled in place with .compile(), or plain functions (cudalint learns those from
corpus/cudalint.toml's entry points). Optional `INPUTS = {"case_x": lambda: (args...)}`; the
default input is one 4x4 float tensor.

For each case this script records, on CPU tensors with backend="eager":
  - eager_ok: the original function runs without torch.compile;
  - torch._dynamo.explain: graph_count, graph_break_count and each break reason with its
    registry id (GBnnnn) and where it happened;
  - breaks: Dynamo's graph-break counters after a default (fullgraph=False) compile and call,
    with registry ids (explain() does not count a break that comes before the first op);
  - a fullgraph=True compile of the original function: ok, or the error with its registry id;
  - breaks_as_written: the verdict for the case as its source compiles it: with
    fullgraph=True / nopython=True in the source, whether that compile fails (in torch 2.11
    fullgraph=True also captures .item() and dynamic-shape ops); otherwise whether the
    default compile breaks the graph.

Each corpus file runs in its own interpreter, so module-level Dynamo config assignments
(capture_scalar_outputs = True, ...) apply to that file's cases only, as in a real program.

Usage: run_dynamo.py CORPUS_DIR OUT_JSON [--jobs N]
       run_dynamo.py --rescore OUT_JSON     (recompute breaks_as_written from the measured fields)
"""
import argparse
import ast
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import traceback

GB_URL = re.compile(r"gb(\d{4})\.html", re.IGNORECASE)


def registry_by_type():
    import torch._dynamo
    path = os.path.join(os.path.dirname(torch._dynamo.__file__), "graph_break_registry.json")
    out = {}
    try:
        with open(path) as f:
            reg = json.load(f)
        for gid, entries in reg.items():
            for e in entries:
                out.setdefault(e.get("Gb_type", ""), gid)
    except OSError:
        pass
    return out


def classify(text, by_type):
    """(registry id, gb_type) of a break reason or exception message."""
    text = str(text)
    first = text.strip().splitlines()[0].strip() if text.strip() else ""
    m = GB_URL.search(text)
    gid = f"GB{m.group(1)}" if m else None
    gb_type = first
    # "Unsupported Tensor.item() call with capture_scalar_outputs=False" style headers may be
    # prefixed ("Graph break ... :"); the registry lookup tries each line's text.
    if gid is None:
        for line in text.splitlines():
            line = line.strip()
            for prefix in ("Graph Break Reason: ", "Unsupported: ", ""):
                if line.startswith(prefix) and line[len(prefix):] in by_type:
                    return by_type[line[len(prefix):]], line[len(prefix):]
    return gid, gb_type


def _fullgraph_kw(node):
    """Whether a call (or any call nested in it) passes fullgraph=True / nopython=True."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            for kw in sub.keywords:
                if kw.arg in ("fullgraph", "nopython") and isinstance(kw.value, ast.Constant) \
                        and kw.value.value is True:
                    return True
    return False


def case_sites(path, with_fullgraph=False):
    """name -> line of each module-level `case_*` definition or assignment (and, on request,
    whether the source compiles it with fullgraph=True / nopython=True)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    out = {}
    fullgraph = {}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("case_"):
            out[node.name] = node.lineno
            fullgraph[node.name] = any(_fullgraph_kw(d) for d in node.decorator_list)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id.startswith("case_"):
                    out[t.id] = node.lineno
                    fg = _fullgraph_kw(node.value)
                    # A module whose forward is decorated in the class body.
                    if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                            and node.value.func.id in classes:
                        for item in classes[node.value.func.id].body:
                            if isinstance(item, ast.FunctionDef) and item.name == "forward":
                                fg = fg or any(_fullgraph_kw(d) for d in item.decorator_list)
                    fullgraph[t.id] = fg
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            # `case_x.compile(fullgraph=True)`
            f = node.value.func
            if isinstance(f, ast.Attribute) and f.attr == "compile" and isinstance(f.value, ast.Name) \
                    and f.value.id in out:
                fullgraph[f.value.id] = fullgraph.get(f.value.id, False) or _fullgraph_kw(node.value)
    return (out, fullgraph) if with_fullgraph else out


def def_line(fn):
    """File and `def` line of a function (decorators skipped), via its code object."""
    import inspect
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return None, None
    path = code.co_filename
    try:
        with open(path) as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        return path, code.co_firstlineno
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name:
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            if first == code.co_firstlineno or node.lineno == code.co_firstlineno:
                return path, node.lineno
    return path, code.co_firstlineno


def unwrap(obj):
    """(callable to compile, the Python function Dynamo enters first, kind)."""
    import torch
    if isinstance(obj, torch._dynamo.eval_frame.OptimizedModule):
        mod = obj._orig_mod
        return mod, type(mod).forward, "module"
    if isinstance(obj, torch.nn.Module):
        # nn.Module.compile() compiles in place, or forward is decorated: trace its forward.
        fwd = type(obj).forward
        orig = getattr(fwd, "_torchdynamo_orig_callable", None)
        if orig is not None:
            return orig.__get__(obj), orig, "module"
        return obj.forward, fwd, "module"
    orig = getattr(obj, "_torchdynamo_orig_callable", None)
    if orig is not None:
        fn = getattr(orig, "__func__", orig)
        return orig, fn, "function"
    fn = getattr(obj, "__func__", obj)
    return obj, fn, "function"


def verdict(rec):
    """Whether the case, compiled as its source compiles it, is not captured in one graph.

    fullgraph=True in the source: whether that compile raised. Otherwise: a counted break, an
    explain() break, or a fullgraph=True failure. The last covers frames Dynamo skips whole
    (an LSTM call, a break inside a loop), which count no break but compile nothing; a default
    compile is never more permissive than fullgraph=True, which also captures .item() and
    dynamic-shape ops."""
    if "eager_ok" in rec and not rec["eager_ok"]:
        return None
    if rec.get("fullgraph_as_written"):
        return not rec["fullgraph_ok"]
    return bool(rec.get("breaks") or (rec.get("graph_break_count") or 0) > 0 or rec.get("break_reasons")
                or "compile_error" in rec or rec.get("fullgraph_ok") is False)


def run_one(path):
    os.environ["PYTHONBREAKPOINT"] = "0"
    corpus = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, corpus)
    import importlib
    import warnings
    warnings.simplefilter("ignore")
    import logging
    logging.disable(logging.CRITICAL)
    import torch
    import torch._dynamo
    by_type = registry_by_type()
    name = os.path.splitext(os.path.basename(path))[0]
    sites, written_fullgraph = case_sites(path, with_fullgraph=True)
    from torch._dynamo.utils import counters
    results = []
    try:
        mod = importlib.import_module(name)
    except Exception as e:  # noqa: BLE001 - recorded, the file's cases are excluded
        for case, line in sites.items():
            results.append({"file": os.path.basename(path), "case": case, "line": line,
                            "error": f"import failed: {type(e).__name__}: {str(e)[:300]}"})
        return results
    inputs = getattr(mod, "INPUTS", {})
    for case, line in sorted(sites.items(), key=lambda kv: kv[1]):
        rec = {"file": os.path.basename(path), "case": case, "line": line,
               "fullgraph_as_written": written_fullgraph.get(case, False)}
        try:
            target, entry_fn, kind = unwrap(getattr(mod, case))
            rec["kind"] = kind
            ep, el = def_line(entry_fn)
            rec["entry"] = {"file": os.path.relpath(ep, corpus) if ep else None, "line": el,
                            "qualname": getattr(entry_fn, "__qualname__", str(entry_fn))}
            make = inputs.get(case, lambda: (torch.randn(4, 4),))
            torch.manual_seed(0)
            target(*make())
            rec["eager_ok"] = True
        except Exception as e:  # noqa: BLE001
            rec["eager_ok"] = False
            rec["error"] = f"eager: {type(e).__name__}: {str(e)[:300]}"
            results.append(rec)
            continue
        try:
            torch._dynamo.reset()
            torch.manual_seed(0)
            ex = torch._dynamo.explain(target)(*make())
            rec["graph_count"] = ex.graph_count
            rec["graph_break_count"] = ex.graph_break_count
            reasons = []
            for r in ex.break_reasons:
                gid, gtype = classify(r.reason, by_type)
                where = None
                if r.user_stack:
                    fr = r.user_stack[-1]
                    where = f"{os.path.relpath(fr.filename, corpus)}:{fr.lineno}"
                reasons.append({"id": gid, "type": gtype, "where": where})
            rec["break_reasons"] = reasons
        except Exception as e:  # noqa: BLE001
            gid, gtype = classify(e, by_type)
            rec["explain_error"] = {"id": gid, "type": gtype, "exception": type(e).__name__}
        # Every graph break of a default (fullgraph=False) compile, from Dynamo's counters:
        # explain() misses breaks that come before the first traced op.
        try:
            torch._dynamo.reset()
            counters.clear()
            torch.manual_seed(0)
            torch.compile(target, backend="eager")(*make())
            rec["breaks"] = [dict(zip(("id", "type"), classify(k, by_type)), count=v)
                             for k, v in sorted(counters["graph_break"].items())]
        except Exception as e:  # noqa: BLE001
            gid, gtype = classify(e, by_type)
            rec["compile_error"] = {"id": gid, "type": gtype, "exception": type(e).__name__}
        try:
            torch._dynamo.reset()
            torch.manual_seed(0)
            torch.compile(target, fullgraph=True, backend="eager")(*make())
            rec["fullgraph_ok"] = True
        except Exception as e:  # noqa: BLE001
            gid, gtype = classify(e, by_type)
            rec["fullgraph_ok"] = False
            rec["fullgraph_error"] = {"id": gid, "type": gtype, "exception": type(e).__name__}
        rec["breaks_as_written"] = verdict(rec)
        results.append(rec)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per corpus file")
    ap.add_argument("--rescore", metavar="JSON", help="recompute breaks_as_written in a recorded JSON")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.rescore:
        # Recomputes the derived verdicts of a recorded run (the measured fields are kept).
        with open(a.rescore) as f:
            data = json.load(f)
        for rec in data["cases"]:
            if "error" not in rec:
                rec["breaks_as_written"] = verdict(rec)
        with open(a.rescore, "w") as f:
            json.dump(data, f, indent=1, sort_keys=False)
            f.write("\n")
        return
    if a.one:
        # The corpus prints; keep the JSON alone on the real stdout.
        real_stdout = os.dup(1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        try:
            res = run_one(a.one)
        except Exception:  # noqa: BLE001
            res = [{"file": os.path.basename(a.one), "error": traceback.format_exc()[-2000:]}]
        with os.fdopen(real_stdout, "w") as out:
            json.dump(res, out)
        return
    files = sorted(os.path.join(a.corpus, f) for f in os.listdir(a.corpus)
                   if f.endswith(".py") and case_sites(os.path.join(a.corpus, f)))

    def sub(path):
        try:
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", path],
                               capture_output=True, text=True, timeout=a.timeout,
                               env=dict(os.environ, PYTHONBREAKPOINT="0"))
        except subprocess.TimeoutExpired:
            return [{"file": os.path.basename(path), "error": f"timed out after {a.timeout} s"}]
        try:
            return json.loads(p.stdout)
        except json.JSONDecodeError:
            return [{"file": os.path.basename(path), "error": (p.stderr or p.stdout)[-2000:]}]

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        per_file = list(pool.map(sub, files))
    import platform
    import torch
    cases = [c for chunk in per_file for c in chunk]
    out = {
        "generated_by": "tests/oracle/gb/run_dynamo.py",
        "torch": torch.__version__,
        "python": platform.python_version(),
        "backend": "eager",
        "cases": cases,
    }
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
        f.write("\n")
    n_break = sum(1 for c in cases if c.get("breaks_as_written"))
    print(f"{len(cases)} cases, {n_break} break as written, "
          f"{sum(1 for c in cases if 'error' in c)} errors")


if __name__ == "__main__":
    main()
