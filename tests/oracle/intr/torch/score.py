#!/usr/bin/env python3
"""Compares cudalint's INTR001 verdicts on the torch-extension cases with nvcc's (expected.json).

    python3 tests/oracle/intr/torch/score.py path/to/cudalint

cudalint parses the cases without torch (its stand-in for torch's headers); nvcc compiled them
with torch's real headers (run_nvcc.py, on the device machine). A target is rejected by cudalint
when INTR001 names it for the case. Exits 1 on any disagreement.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    binary = sys.argv[1]
    doc = json.load(open(os.path.join(HERE, "expected.json")))
    archs = doc["archs"]
    torch_list = ";".join(f"{a[3:-1]}.{a[-1]}" for a in archs)
    p = subprocess.run([binary, "check", "--select", "INTR001", "--format", "json", "--no-cache",
                        "--target-archs", torch_list, "cases"], cwd=HERE, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print(p.stderr)
        return 2
    rejected = {}
    for f in json.loads(p.stdout)["findings"]:
        m = re.search(r"compiled for (sm_\d+[af]?)", f["message"])
        if m:
            rejected.setdefault(os.path.basename(f["path"]), set()).add(m.group(1))
    total = agree = 0
    for case, per in sorted(doc["cases"].items()):
        for arch in archs:
            total += 1
            nvcc_ok = per[arch]["ok"]
            ours_ok = arch not in rejected.get(case, set())
            if nvcc_ok == ours_ok:
                agree += 1
            else:
                print(f"DISAGREE {case} {arch}: nvcc {'accepts' if nvcc_ok else 'rejects'} "
                      f"({per[arch].get('error', '')}), cudalint {'accepts' if ours_ok else 'rejects'}")
    print(f"agreement {agree}/{total} (nvcc {doc['nvcc']}, torch {doc['torch']})")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
