#!/usr/bin/env python3
"""cudalint against nvcc on the same files of a real checkout, for the same archs.

  nvcc_compare.py CUDALINT --checkout DIR --file REL [--file REL ...] --archs LIST
                  [--nvcc PATH] [--flag=-IDIR ...] [--jobs N] [--json-out FILE]

LIST is TORCH_CUDA_ARCH_LIST syntax (`10.0a;12.0f`). For each file:
  - nvcc: `nvcc -c` with one `-gencode` per arch (what the project's build runs), and `-E`
    (preprocessing only, every arch) for scale; flags are the --flag values (include
    directories and defines the project's build passes), the working directory the checkout;
  - cudalint: `check --no-cache --target-archs LIST` on that file (a run without a cache, with
    the checkout's build files read for context), and the same with `--cache-dir` after a
    comment line is appended to the file (the pre-commit case: a cache from an earlier run, the
    file edited since). The file is restored after.
Reported per run: wall seconds, CPU seconds (user + system of the child) and the exit status.
A nvcc failure (a missing header the checkout does not ship) is reported, not hidden: its time
does not compare. Compare only figures from one invocation, on one machine.
"""
import argparse, json, os, resource, shutil, subprocess, sys, tempfile, time


def timed(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"rc": p.returncode, "wall": round(wall, 3), "cpu": round(cpu, 3),
            "stderr_tail": p.stderr[-300:] if p.returncode not in (0, 1) else ""}


def gencodes(archs):
    out = []
    for a in archs.replace(",", ";").split(";"):
        a = a.strip()
        if not a:
            continue
        suffix = a[-1] if a[-1] in "af" else ""
        num = a[:-1] if suffix else a
        sm = num.replace(".", "") + suffix
        out.append(f"-gencode=arch=compute_{sm},code=sm_{sm}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--checkout", required=True)
    ap.add_argument("--file", action="append", required=True)
    ap.add_argument("--archs", required=True)
    ap.add_argument("--nvcc", default=os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc"))
    ap.add_argument("--flag", action="append", default=[])
    ap.add_argument("--std", default="c++17")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--json-out")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    codes = gencodes(a.archs)
    rows = []
    for rel in a.file:
        path = os.path.join(a.checkout, rel)
        base = [a.nvcc, f"-std={a.std}"] + a.flag
        nvcc_c = timed(base + codes + ["-c", rel, "-o", os.devnull], a.checkout)
        nvcc_e = timed(base + codes + ["-E", rel, "-o", os.devnull], a.checkout)
        lint = [binary, "check", "--format", "json", "--target-archs", a.archs, "-j", str(a.jobs)]
        cold = timed(lint + ["--no-cache", rel], a.checkout)
        cache = tempfile.mkdtemp(prefix="cudalint-nvcc-cmp-")
        original = open(path, "rb").read()
        try:
            timed(lint + ["--cache-dir", cache, rel], a.checkout)
            with open(path, "ab") as f:
                f.write(b"\n// edited\n")
            edited = timed(lint + ["--cache-dir", cache, rel], a.checkout)
        finally:
            with open(path, "wb") as f:
                f.write(original)
            shutil.rmtree(cache, ignore_errors=True)
        row = {"file": rel, "archs": a.archs, "nvcc_c": nvcc_c, "nvcc_E": nvcc_e, "cudalint_cold": cold,
               "cudalint_edited_with_cache": edited}
        rows.append(row)
        ratio = nvcc_c["wall"] / cold["wall"] if cold["wall"] else float("nan")
        print(f"{rel}: nvcc -c {nvcc_c['wall']:.2f} s (cpu {nvcc_c['cpu']:.2f}, rc {nvcc_c['rc']}), "
              f"nvcc -E {nvcc_e['wall']:.2f} s; cudalint cold {cold['wall']:.2f} s (cpu {cold['cpu']:.2f}), "
              f"edited with a cache {edited['wall']:.2f} s (cpu {edited['cpu']:.2f}); nvcc -c / cudalint cold {ratio:.1f}x",
              flush=True)
        for name in ("nvcc_c", "nvcc_E", "cudalint_cold"):
            if row[name]["stderr_tail"]:
                print(f"  {name} failed: {row[name]['stderr_tail'].strip()}", file=sys.stderr)
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({"cpus": os.cpu_count(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
