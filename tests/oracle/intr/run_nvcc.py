#!/usr/bin/env python3
"""Compiles every oracle case (cases/*.cu) with nvcc for every GPU target nvcc accepts and records
which targets fail, and why, in expected.json.

    python3 tests/oracle/intr/run_nvcc.py                      # all cases, all targets -> expected.json
    python3 tests/oracle/intr/run_nvcc.py --cases a.cu b.cu    # re-run some cases, merge into expected.json
    python3 tests/oracle/intr/run_nvcc.py --archs sm_75,sm_90a --out /tmp/x.json

Device-only compilation (`-cubin -o /dev/null`, `-std=c++17`), so host code is parsed but never
code-generated, and ptxas runs on the device code as in a real build. The target list comes from
nvcc itself: `--list-gpu-code` for the plain sm_XX targets, and the `compute_XXa`/`compute_XXf`
values of its `--gpu-architecture` help for the arch-specific and family-specific variants.
At most --jobs (default 2) nvcc processes run at once.

expected.json has stable key order and one case per line, so diffs show which verdicts changed:
  {"nvcc_version": "13.0.88", "command": "...", "archs": [...],
   "cases": {"x.cu": {"sm_75": {"ok": false, "error": "...", "cause": "..."}, "sm_80": {"ok": true}, ...}}}
A case whose header has a line `// nvcc-flags: ...` is an extension source: it is compiled as torch's
extension builder compiles one, with torch's COMMON_NVCC_FLAGS (TORCH_NVCC_FLAGS below) and then
those flags; score_cudalint.py gives cudalint the same flags through a setup.py.
`error` is the first error line with paths stripped; `cause` names the feature the error is
about when the message says so (an undefined identifier, a PTX instruction or qualifier that
needs a newer target, an unresolved cuda::ptx availability stub).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")


def nvcc_version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"V(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else out.strip().splitlines()[-1]


def nvcc_archs(nvcc):
    """sm_XX from --list-gpu-code, plus sm_XXa/sm_XXf where nvcc's help lists compute_XXa/f."""
    plain = subprocess.run([nvcc, "--list-gpu-code"], capture_output=True, text=True).stdout.split()
    plain = [a for a in plain if re.fullmatch(r"sm_\d+", a)]
    help_text = subprocess.run([nvcc, "--help"], capture_output=True, text=True).stdout
    m = re.search(r"--gpu-architecture.*?Allowed values for this option:(.*?)(?:\n\s*\n|\n--)", help_text, re.S)
    variants = set(re.findall(r"'compute_(\d+[af])'", m.group(1))) if m else set()
    archs = set(plain) | {f"sm_{v}" for v in variants}

    def key(a):
        n = re.fullmatch(r"sm_(\d+)([af]?)", a)
        return int(n.group(1)), {"": 0, "a": 1, "f": 2}[n.group(2)]
    return sorted(archs, key=key)


CAUSES = [
    re.compile(r'identifier "([^"]+)" is undefined'),
    re.compile(r"Instruction '([^']+)' requires \.target"),
    re.compile(r"Instruction '([^']+)' not supported on \.target"),
    re.compile(r"Instruction '([^']+)' without '\.sync' is not supported"),
    re.compile(r"Feature '([^']+)' requires"),
    re.compile(r"Feature '([^']+)' not supported"),
    re.compile(r"Modifier '([^']+)' requires"),
    re.compile(r"Modifier '([^']+)' not supported"),
    re.compile(r"Unresolved extern function '__cuda_ptx_(\w+?)_is_(?:not_supported|only_supported)\w*'"),
    re.compile(r'namespace "[^"]+" has no member "([^"]+)"'),
    re.compile(r'no instance of (?:overloaded )?function "([^"]+)"'),
    re.compile(r'no suitable user-defined conversion from "([^"]+)"'),
    re.compile(r'incomplete type "([^"]+)" is not allowed'),
    re.compile(r'incomplete type is not allowed'),
]


def first_error(text, case_path):
    lines = [l for l in text.splitlines() if re.search(r"\berror\b", l, re.I)]
    if not lines:
        lines = [l for l in text.splitlines() if l.strip()]
    if not lines:
        return "", None
    line = lines[0]
    line = line.replace(os.path.dirname(case_path) + os.sep, "")
    # ptxas names its temporary input (/tmp/tmpxft_..._x.ptx, line N); keep only the message.
    line = re.sub(r"^ptxas\s+\S+\.ptx, line \d+;\s*", "ptxas ", line)
    line = re.sub(r"/tmp/tmpxft_[0-9a-f_]+-\d+_", "", line)
    line = re.sub(r"\s+", " ", line).strip()
    cause = None
    for rx in CAUSES:
        m = rx.search(line)
        if m:
            cause = m.group(1) if rx.groups else None
            break
    return line, cause


# torch.utils.cpp_extension.COMMON_NVCC_FLAGS of torch 2.11 (read on the device machine) and the
# macros BuildExtension adds to every extension; the extension's own flags follow them.
TORCH_NVCC_FLAGS = ["-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                    "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
                    "--expt-relaxed-constexpr", "-DTORCH_API_INCLUDE_EXTENSION_H", "-DTORCH_EXTENSION_NAME=oracle_ext"]


def case_flags(case):
    """The `// nvcc-flags:` of a case's leading comment block (None: a plain case)."""
    with open(os.path.join(CASES, case), errors="replace") as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = re.match(r"//\s*nvcc-flags:(.*)", line)
            if m:
                return shlex.split(m.group(1))
    return None


def compile_one(nvcc, case, arch, timeout):
    path = os.path.join(CASES, case)
    flags = case_flags(case)
    extra = TORCH_NVCC_FLAGS + flags if flags is not None else []
    cmd = [nvcc, "-cubin", f"-arch={arch}", "-std=c++17", *extra, "-o", os.devnull, case]
    try:
        r = subprocess.run(cmd, cwd=CASES, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return case, arch, {"ok": False, "error": f"nvcc timed out after {timeout}s"}
    if r.returncode == 0:
        return case, arch, {"ok": True}
    err, cause = first_error(r.stderr + "\n" + r.stdout, path)
    v = {"ok": False, "error": err}
    if cause:
        v["cause"] = cause
    return case, arch, v


def dump(doc, out):
    """Stable key order, one case per line."""
    cases = doc["cases"]
    head = {k: doc[k] for k in ("nvcc_version", "command", "archs")}
    head["case_sha"] = {k: doc["case_sha"][k] for k in sorted(doc["case_sha"]) if k in cases}
    text = "{\n"
    for k, v in head.items():
        if k == "case_sha":
            text += '  "case_sha": {' + ", ".join(f"{json.dumps(n)}: {json.dumps(h)}" for n, h in v.items()) + "},\n"
        else:
            text += f"  {json.dumps(k)}: {json.dumps(v)},\n"
    text += '  "cases": {\n'
    names = sorted(cases)
    for i, name in enumerate(names):
        per = {a: cases[name][a] for a in doc["archs"] if a in cases[name]}
        text += f"    {json.dumps(name)}: {json.dumps(per, sort_keys=False)}" + (",\n" if i + 1 < len(names) else "\n")
    text += "  }\n}\n"
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)


def case_sha(case):
    """Hash of a case and the local headers it includes: a changed case is compiled again."""
    h = hashlib.sha256()
    seen, todo = set(), [case]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        path = os.path.join(CASES, rel)
        if not os.path.exists(path):
            continue
        data = open(path, "rb").read()
        h.update(rel.encode() + b"\0" + data)
        base = os.path.dirname(rel)
        for inc in re.findall(rb'#\s*include\s*"([^"]+)"', data):
            todo.append(os.path.normpath(os.path.join(base, inc.decode())))
    return h.hexdigest()[:16]


# Targets compiled first, so that an interrupted run already covers every case on the targets
# that tell the feature classes apart (plain, arch-specific, family).
FIRST = ["sm_75", "sm_80", "sm_90", "sm_90a", "sm_100a", "sm_120f", "sm_89", "sm_100", "sm_100f", "sm_120a", "sm_103a",
         "sm_110a", "sm_120"]


def run(nvcc, work, jobs, timeout, doc, out):
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(compile_one, nvcc, c, a, timeout) for c, a in work]
        for f in concurrent.futures.as_completed(futs):
            c, a, v = f.result()
            doc["cases"].setdefault(c, {})[a] = v
            done += 1
            if done % 50 == 0 or done == len(work):
                print(f"{done}/{len(work)} compilations", file=sys.stderr, flush=True)
                dump(doc, out)  # incremental: an interrupted run resumes from here


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--archs", help="comma-separated targets (default: every target nvcc accepts)")
    ap.add_argument("--cases", nargs="*", help="case file names (default: all); results merge into --out")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", default=os.path.join(HERE, "expected.json"))
    ap.add_argument("--force", action="store_true", help="compile everything again (default: resume)")
    a = ap.parse_args()

    archs = a.archs.split(",") if a.archs else nvcc_archs(a.nvcc)
    all_cases = sorted(f for f in os.listdir(CASES) if f.endswith(".cu"))
    cases = [os.path.basename(c) for c in a.cases] if a.cases else all_cases
    for c in cases:
        if c not in all_cases:
            sys.exit(f"no case {c} in {CASES}")
    doc = {"nvcc_version": nvcc_version(a.nvcc),
           "command": "nvcc -cubin -arch=<arch> -std=c++17 [torch's flags, the case's nvcc-flags] -o /dev/null <case> (in cases/)",
           "archs": archs, "case_sha": {c: case_sha(c) for c in all_cases}, "cases": {}}
    # Resume: keep the verdicts of unchanged cases recorded by the same nvcc for the same targets.
    if os.path.exists(a.out) and not a.force:
        try:
            old = json.load(open(a.out))
        except ValueError:
            old = {}
        if old.get("nvcc_version") == doc["nvcc_version"]:
            for c, per in old.get("cases", {}).items():
                if c in all_cases and old.get("case_sha", {}).get(c) == doc["case_sha"][c]:
                    doc["cases"][c] = {t: v for t, v in per.items() if t in archs}
    order = [t for t in FIRST if t in archs] + [t for t in archs if t not in FIRST]
    work = [(c, t) for t in order for c in cases if t not in doc["cases"].get(c, {})]
    print(f"nvcc {doc['nvcc_version']}: {len(cases)} cases x {len(archs)} targets ({', '.join(archs)}); "
          f"{len(work)} compilations to run", file=sys.stderr)
    for c in all_cases:
        doc["cases"].setdefault(c, {})
    if work:
        run(a.nvcc, work, a.jobs, a.timeout, doc, a.out)
    else:
        dump(doc, a.out)
    fails = {x: sum(1 for c in doc["cases"].values() if not c.get(x, {}).get("ok", True)) for x in archs}
    print("failing cases per target: " + ", ".join(f"{x}={n}" for x, n in fails.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
