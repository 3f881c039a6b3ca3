#!/usr/bin/env python3
"""nvcc's verdicts for the torch-extension cases (cases/*.cu), compiled against real PyTorch headers.

    python3 tests/oracle/intr/torch/run_nvcc.py OUT.json [--archs sm_75,sm_80,sm_90]

Needs nvcc and an installed torch (the device machine has both; CI has neither, so the verdicts are
committed as expected.json and score.py compares cudalint with them). Each case is compiled
device-only (`-cubin`) as torch's BuildExtension compiles an extension source: its
COMMON_NVCC_FLAGS, -DTORCH_API_INCLUDE_EXTENSION_H, -DTORCH_EXTENSION_NAME, -std=c++17 and
torch's and Python's include directories.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from run_nvcc import TORCH_NVCC_FLAGS, first_error  # noqa: E402


def main():
    out = sys.argv[1]
    archs = ["sm_75", "sm_80", "sm_90"]
    if "--archs" in sys.argv:
        archs = sys.argv[sys.argv.index("--archs") + 1].split(",")
    import torch
    from torch.utils import cpp_extension
    includes = [f"-I{p}" for p in cpp_extension.include_paths()] + [f"-I{sysconfig.get_paths()['include']}"]
    abi = f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}"
    nvcc = os.path.join(cpp_extension.CUDA_HOME or "/usr/local/cuda", "bin", "nvcc")
    cases = sorted(f for f in os.listdir(os.path.join(HERE, "cases")) if f.endswith(".cu"))

    def one(case, arch):
        path = os.path.join(HERE, "cases", case)
        cmd = [nvcc, "-cubin", f"-arch={arch}", "-std=c++17", abi] + TORCH_NVCC_FLAGS + includes + ["-o", os.devnull, path]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode == 0:
            return case, arch, {"ok": True}
        err, cause = first_error(r.stderr + "\n" + r.stdout, path)
        return case, arch, {"ok": False, "error": err, "cause": cause}

    doc = {"nvcc": subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1],
           "torch": torch.__version__, "archs": archs, "cases": {}}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as ex:
        for case, arch, v in ex.map(lambda ca: one(*ca), [(c, a) for c in cases for a in archs]):
            doc["cases"].setdefault(case, {})[arch] = v
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    for case, per in sorted(doc["cases"].items()):
        print(case, " ".join(f"{a}:{'ok' if per[a]['ok'] else 'FAIL'}" for a in archs))


if __name__ == "__main__":
    main()
