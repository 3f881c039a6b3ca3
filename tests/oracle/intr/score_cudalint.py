#!/usr/bin/env python3
"""Scores cudalint's INTR rules against nvcc's verdicts in expected.json.

    python3 tests/oracle/intr/score_cudalint.py path/to/cudalint [--min 98] [-j 2] [--verbose]

For each target of expected.json (sm_75 ... sm_121f, with the arch-specific `a` and family `f`
targets), every case of cases/ is checked in one cudalint run:

    cudalint check <cases...> --target-archs <target> --select INTR --format json -j N

A case with `// nvcc-flags: ...` (an extension source, see run_nvcc.py) is checked as one: copied
into a temporary directory beside a setup.py with a CUDAExtension per set of flags that lists
its cases with those `nvcc` flags, so cudalint takes the flags from the build file
as it would in a project (such cases include no local headers).

"cudalint rejects" a case for a target when it reports an INTR finding of severity `error` in
that case; nvcc's verdict is expected.json's `ok`. Agreement is printed per target and overall,
each disagreement is listed (with cudalint's message or nvcc's error), and the exit status is 1
when overall agreement is below --min percent (2 when cudalint itself fails).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")


def extension_dirs(cases, tmp):
    """{directory: [cases]}: CASES for the plain cases, and one directory (made under `tmp`) for
    the `nvcc-flags` cases, beside a setup.py with one CUDAExtension per set of flags."""
    sys.path.insert(0, HERE)
    import run_nvcc
    groups = {}
    for c in cases:
        flags = run_nvcc.case_flags(c)
        groups.setdefault(None if flags is None else tuple(flags), []).append(c)
    out = {}
    if None in groups:
        out[CASES] = groups.pop(None)
    if groups:
        d = os.path.join(tmp, "ext")
        os.makedirs(d)
        exts = []
        for n, (flags, members) in enumerate(sorted(groups.items())):
            for c in members:
                shutil.copyfile(os.path.join(CASES, c), os.path.join(d, c))
            # The same last component everywhere: TORCH_EXTENSION_NAME=oracle_ext, as run_nvcc.py.
            exts.append(f"        CUDAExtension(\"p{n}.oracle_ext\", sources={json.dumps(members)},\n"
                        f"                      extra_compile_args={{\"cxx\": [], \"nvcc\": {json.dumps(list(flags))}}}),\n")
        with open(os.path.join(d, "setup.py"), "w") as f:
            f.write("from setuptools import setup\n"
                    "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\n"
                    "setup(\n    name=\"oracle\",\n    ext_modules=[\n" + "".join(exts) + "    ],\n"
                    "    cmdclass={\"build_ext\": BuildExtension},\n)\n")
        out[d] = sorted(c for m in groups.values() for c in m)
    return out


def run_target(cudalint, dirs, target, jobs, cache):
    """{case: [error INTR messages]} for one target."""
    out = {}
    for d, cases in dirs.items():
        out.update(run_dir(cudalint, d, cases, target, jobs, cache))
    return out


def run_dir(cudalint, cwd, cases, target, jobs, cache):
    # The extensions' directory is checked whole, so that its setup.py is read. One cache for
    # every target: the precompiled preludes of other flags (and of standard headers), the same
    # for every arch, are built once instead of once per target (results are keyed by the arch).
    paths = cases if cwd == CASES else ["."]
    cmd = [cudalint, "check", *paths, "--target-archs", target, "--select", "INTR", "--format", "json",
           "--exit-zero", "--no-gitignore", "-j", str(jobs), "--cache-dir", cache]
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"score_cudalint.py: `{' '.join(cmd)}` exited {p.returncode}:\n{p.stderr[:2000]}")
    doc = json.loads(p.stdout)
    out = {c: [] for c in cases}
    for f in doc["findings"]:
        rule = f.get("rule") or ""
        if not rule.startswith("INTR") or f["severity"] != "error":
            continue
        path = f["path"].replace("\\", "/")
        name = os.path.basename(path)
        if name in out:
            out[name].append(f"{rule} line {f['region']['start_line']}: {f['message']}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cudalint")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.json"))
    ap.add_argument("--min", type=float, default=98.0, help="overall agreement (percent) below which it fails")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="cudalint -j")
    ap.add_argument("--targets", help="comma-separated subset of expected.json's targets")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print cudalint's messages on agreeing rejects")
    a = ap.parse_args()

    cudalint = os.path.abspath(a.cudalint)
    expected = json.load(open(a.expected))
    archs = a.targets.split(",") if a.targets else expected["archs"]
    cases = sorted(c for c in expected["cases"] if os.path.exists(os.path.join(CASES, c)))
    absent = sorted(set(expected["cases"]) - set(cases))
    if absent:
        print(f"{len(absent)} cases of expected.json are missing from cases/: {', '.join(absent)}")

    tmp = tempfile.mkdtemp(prefix="cudalint-oracle-")
    try:
        return score(a, cudalint, expected, archs, cases, extension_dirs(cases, tmp), os.path.join(tmp, "cache"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def score(a, cudalint, expected, archs, cases, dirs, cache):
    agree, total, problems = {}, {}, []
    confusion = {"tp": 0, "tn": 0, "fp": 0, "fn": 0}  # positive = rejected
    for t in archs:
        found = run_target(cudalint, dirs, t, a.jobs, cache)
        agree[t] = total[t] = 0
        for c in cases:
            v = expected["cases"][c].get(t)
            if v is None:
                continue
            nvcc_rejects = not v["ok"]
            lint_rejects = bool(found[c])
            total[t] += 1
            key = ("t" if nvcc_rejects == lint_rejects else "f") + ("p" if lint_rejects else "n")
            confusion[key] += 1
            if nvcc_rejects == lint_rejects:
                agree[t] += 1
                if a.verbose and lint_rejects:
                    print(f"agree-reject {c} {t}: {found[c][0]}")
                continue
            if lint_rejects:
                problems.append(f"{c} {t}: nvcc accepts, cudalint rejects: " + " | ".join(found[c]))
            else:
                problems.append(f"{c} {t}: nvcc rejects, cudalint reports no INTR error\n    nvcc: {v.get('error', '')}")

    s_agree, s_total = sum(agree.values()), sum(total.values())
    pct = 100.0 * s_agree / max(s_total, 1)
    print(f"cudalint INTR vs nvcc {expected['nvcc_version']}: {len(cases)} cases x {len(archs)} targets")
    print("agreement per target: " + ", ".join(f"{t} {agree[t]}/{total[t]}" for t in archs))
    print(f"overall: {s_agree}/{s_total} verdicts agree ({pct:.2f}%); rejects: {confusion['tp']} agreed, "
          f"{confusion['fp']} false (nvcc accepts), {confusion['fn']} missed")
    for p in problems:
        print("DISAGREE " + p)
    if pct < a.min:
        print(f"FAIL: {pct:.2f}% < --min {a.min}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
