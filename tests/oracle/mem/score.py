#!/usr/bin/env python3
"""Scores cudalint's MEM verdicts against the Nsight Compute measurements.

    python3 tests/oracle/mem/score.py path/to/cudalint [--corpus DIR] [--measured FILE]
                                      [--min PCT] [--verbose]

Defaults: the hand-written corpus (kernels/, measured.json). The generated corpus is
`--corpus gen/kernels --measured gen/measured.json`; the real-idiom one `--corpus patterns
--measured patterns/measured.json`.

For every kernel and direction (load, store) that Nsight Compute measured, cudalint's verdict is
"uncoalesced" when MEM001, MEM002 or MEM003 reports a load or store of that kernel's file, at any
severity. Kernels whose tested access goes through an index read from memory (cases.json's
`data_dependent`, or a name starting with gather/scatter/chase) are left out of the agreement:
how a gather coalesces depends on the data, which no static analysis sees; cudalint reports them
as MEM004. Severity is reported (not gated) for loads both call uncoalesced: `info` is right when
the caches merged the waste (L2 or DRAM moved at most 0.55 of L1's sector bytes: a thread's run
over adjacent elements, or a block's warps sharing the sectors of a 2-D access), `warning`
otherwise. Exits 1 when agreement is below --min (95) or when cudalint reports an
access that was measured coalesced.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MERGED = 0.55  # L2 or DRAM bytes per L1 sector byte at or below which the caches merged the waste


def merged(m):
    """Whether the caches merged a load's waste: L2 or DRAM saw at most MERGED of L1's sector bytes.
    Loads only: stores are not cached in L1, and DRAM writes of what stays in L2 at the kernel's
    end are not counted."""
    l2 = m["l2_sectors"] / m["sectors"] if m["sectors"] else 1
    return min(l2, m["dram_per_l1_byte"]) <= MERGED


def data_dependent(kernel, op, cases):
    if kernel in cases:
        return op in cases[kernel].get("data_dependent", [])
    return kernel.startswith(("gather", "scatter", "chase")) and op == ("st" if kernel.startswith("scatter") else "ld")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--corpus", default="kernels")
    ap.add_argument("--measured", default="measured.json")
    ap.add_argument("--min", type=float, default=95.0)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    measured = json.load(open(os.path.join(HERE, a.measured)))["kernels"]
    # The corpus's cases.json (patterns/) or its parent's (gen/ for gen/kernels).
    cases = {}
    for d in (a.corpus, os.path.dirname(a.corpus.rstrip("/"))):
        path = os.path.join(HERE, d, "cases.json")
        if d and os.path.exists(path):
            cases = json.load(open(path))
            break
    p = subprocess.run([os.path.abspath(a.binary), "check", "--select", "MEM001,MEM002,MEM003", "--format", "json", "--no-cache",
                        a.corpus], cwd=HERE, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print(p.stderr)
        return 2
    found = {}
    for f in json.loads(p.stdout)["findings"]:
        stem = os.path.splitext(os.path.basename(f["path"]))[0]
        op = "st" if ("store to" in f["message"] or "store)" in f["message"]) else "ld"
        found.setdefault((stem, op), []).append(f)
    total = agree = fp = fp_info = dd = 0
    sev_total = sev_agree = multi = 0
    rows = []
    for kernel, ops in sorted(measured.items()):
        for op in ("ld", "st"):
            m = ops.get(op)
            if not m:
                continue
            said = found.get((kernel, op), [])
            if data_dependent(kernel, op, cases):
                dd += 1
                continue
            total += 1
            truth = m["uncoalesced"]
            ok = truth == bool(said)
            agree += ok
            if said and not truth:
                if all(x["severity"] == "info" for x in said):
                    fp_info += 1
                else:
                    fp += 1
            if len(said) > 1:
                multi += 1
            note = ""
            if truth and said and op == "ld" and m.get("dram_per_l1_byte") is not None:
                want = "info" if merged(m) else "warning"
                got = said[0]["severity"]
                sev_total += 1
                sev_agree += got == want
                if got != want:
                    note = f" severity {got}, measured waste wants {want} (DRAM/L1 {m['dram_per_l1_byte']})"
            if not ok or note or a.verbose:
                rows.append(f"{'ok  ' if ok else 'MISS'} {kernel:40} {op} measured {m['sectors_per_request']:5.1f}/"
                            f"{m['ideal']:<4g} {'uncoalesced' if truth else 'coalesced':12} cudalint: "
                            f"{', '.join(x['rule'] + ' line ' + str(x['region']['start_line']) for x in said) or '-'}"
                            f"{note}")
    print("\n".join(rows))
    pct = 100.0 * agree / total if total else 0
    print(f"agreement {agree}/{total} = {pct:.1f}%; false positives on measured-coalesced accesses: {fp} "
          f"(and {fp_info} at info severity); "
          f"severity agrees with the measured waste on {sev_agree}/{sev_total}; directions with more than one "
          f"finding: {multi}; data-dependent accesses left out: {dd}")
    return 0 if pct >= a.min and fp == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
