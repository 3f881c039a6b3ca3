#!/usr/bin/env python3
"""Checks ARCH012 (arch-list-without-ptx) and its fix against measured.json (run_ptx.py on a GPU).

    python3 tests/oracle/ptx/score.py path/to/cudalint

For each measured TORCH_CUDA_ARCH_LIST, a Dockerfile sets it and cudalint checks it. On the
measured GPU (compute capability M.m), a list whose newest arch is older than M.0 fails exactly
when it has no PTX; ARCH012 must report exactly those lists. Lists with an arch as new as the GPU
or newer say nothing about newer generations and are only checked not to crash. Every fix the
rule offers for a judged list must turn it into one that was measured to run. Exits 1 on a
mismatch.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def arch_of(entry):
    e = entry.split("+")[0].rstrip("af")
    major, minor = e.split(".")
    return int(major), int(minor)


def main():
    cudalint = os.path.abspath(sys.argv[1])
    m = json.load(open(os.path.join(HERE, "measured.json")))
    gpu_major = int(m["capability"].split(".")[0])
    runs = {r["list"]: r.get("runs") for r in m["results"]}
    bad, judged = [], 0
    tmp = tempfile.mkdtemp()
    try:
        for r in m["results"]:
            lst = r["list"]
            d = os.path.join(tmp, "case")
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            path = os.path.join(d, "Dockerfile")
            open(path, "w").write(f'FROM nvidia/cuda:13.0.0-devel-ubuntu24.04\nENV TORCH_CUDA_ARCH_LIST="{lst}"\n'
                                  "RUN pip install .\n")
            p = subprocess.run([cudalint, "check", "--select", "ARCH012", "--format", "json", "--no-cache", "."],
                               cwd=d, capture_output=True, text=True)
            if p.returncode not in (0, 1):
                bad.append(f"{lst}: cudalint exited {p.returncode}: {p.stderr.strip()[:200]}")
                continue
            reported = bool(json.loads(p.stdout)["findings"])
            newest = max(arch_of(e) for e in lst.replace(";", " ").split())
            if newest[0] < gpu_major:
                judged += 1
                if reported != (not r["runs"]):
                    bad.append(f"{lst}: measured {'runs' if r['runs'] else 'fails'} on {m['gpu']}, "
                               f"ARCH012 {'reports' if reported else 'is silent'}")
            if reported and newest[0] < gpu_major:
                subprocess.run([cudalint, "check", "--select", "ARCH012", "--fix", "--no-cache", "."], cwd=d,
                               capture_output=True, text=True)
                fixed = open(path).read().split('TORCH_CUDA_ARCH_LIST="')[1].split('"')[0]
                if fixed != lst:
                    judged += 1
                    if runs.get(fixed) is not True:
                        bad.append(f"{lst}: the fix gives `{fixed}`, "
                                   f"{'not measured' if fixed not in runs else 'which fails'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for b in bad:
        print("MISMATCH", b)
    print(f"ARCH012 against {m['gpu']} (compute capability {m['capability']}, torch {m['torch']}): "
          f"{judged - len(bad)}/{judged} verdicts and fixes agree")
    return 1 if bad or judged == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
