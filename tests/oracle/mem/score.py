#!/usr/bin/env python3
"""Scores cudalint's MEM verdicts against the Nsight Compute measurements (measured.json).

    python3 tests/oracle/mem/score.py path/to/cudalint [--verbose]

For every kernel and direction (load, store) that Nsight Compute measured, cudalint's verdict is
"uncoalesced" when MEM001, MEM002 or MEM003 reports a load or store of that kernel's file.
MEM004 (data-dependent gathers, off by default) is not part of the verdict: coalescing of a
gather depends on the data, which static analysis cannot see. Exits 1 when agreement is below
95% or when cudalint reports an access that was measured coalesced.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    binary = sys.argv[1]
    verbose = "--verbose" in sys.argv
    measured = json.load(open(os.path.join(HERE, "measured.json")))["kernels"]
    p = subprocess.run([binary, "check", "--select", "MEM001,MEM002,MEM003", "--format", "json", "kernels"],
                       cwd=HERE, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print(p.stderr)
        return 2
    found = {}
    for f in json.loads(p.stdout)["findings"]:
        stem = os.path.splitext(os.path.basename(f["path"]))[0]
        op = "st" if ("store to" in f["message"] or "store)" in f["message"]) else "ld"
        found.setdefault((stem, op), []).append(f"{f['rule']} line {f['region']['start_line']}")
    total = agree = fp = 0
    rows = []
    for kernel, ops in sorted(measured.items()):
        for op in ("ld", "st"):
            m = ops.get(op)
            if not m:
                continue
            total += 1
            truth = m["uncoalesced"]
            said = (kernel, op) in found
            ok = truth == said
            agree += ok
            if said and not truth:
                fp += 1
            if not ok or verbose:
                rows.append(f"{'ok  ' if ok else 'MISS'} {kernel:32} {op} measured {m['sectors_per_request']:5.1f}/"
                            f"{m['ideal']:<4g} {'uncoalesced' if truth else 'coalesced':12} cudalint: "
                            f"{', '.join(found.get((kernel, op), [])) or '-'}")
    print("\n".join(rows))
    pct = 100.0 * agree / total if total else 0
    print(f"agreement {agree}/{total} = {pct:.1f}%; false positives on measured-coalesced accesses: {fp}")
    return 0 if pct >= 95.0 and fp == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
