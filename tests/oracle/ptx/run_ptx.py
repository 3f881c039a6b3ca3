#!/usr/bin/env python3
"""Measures, on a machine with a GPU and torch, whether an extension built for a
TORCH_CUDA_ARCH_LIST runs on that GPU: the truth behind ARCH012 (arch-list-without-ptx).

    python3 tests/oracle/ptx/run_ptx.py OUT.json [--cases tests/oracle/ptx/cases.json]

For each list, torch.utils.cpp_extension's own translation (_get_cuda_arch_flags, as a setup.py
or load() build uses it) gives the nvcc flags; a small kernel is compiled with them into a
program that launches it and reports cudaGetLastError. Recorded per list: the flags, whether
the binary holds PTX (cuobjdump --list-ptx), and the launch's result on this GPU.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

KERNEL = r"""
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  int* d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) { std::printf("malloc failed\n"); return 2; }
  k<<<1, 32>>>(d);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cases", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json"))
    a = ap.parse_args()
    import torch
    from torch.utils import cpp_extension

    lists = json.load(open(a.cases))["lists"]
    cap = torch.cuda.get_device_capability()
    nvcc = os.path.join(cpp_extension.CUDA_HOME, "bin", "nvcc")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.cu")
        open(src, "w").write(KERNEL)
        for lst in lists:
            os.environ["TORCH_CUDA_ARCH_LIST"] = lst
            row = {"list": lst}
            try:
                flags = cpp_extension._get_cuda_arch_flags()
            except Exception as e:  # a list torch rejects
                row.update(flags=None, error=f"{type(e).__name__}: {e}")
                results.append(row)
                continue
            row["flags"] = flags
            exe = os.path.join(tmp, "prog")
            c = subprocess.run([nvcc, "-o", exe, src] + flags, capture_output=True, text=True)
            if c.returncode != 0:
                row["compile_error"] = (c.stderr or c.stdout)[-400:]
                results.append(row)
                continue
            ptx = subprocess.run([os.path.join(cpp_extension.CUDA_HOME, "bin", "cuobjdump"), "--list-ptx", exe],
                                 capture_output=True, text=True)
            row["has_ptx"] = "PTX file" in ptx.stdout
            r = subprocess.run([exe], capture_output=True, text=True)
            row["runs"] = r.returncode == 0
            row["result"] = r.stdout.strip() or r.stderr.strip()[-200:]
            results.append(row)
            print(f"{lst:24} ptx={row['has_ptx']!s:5} -> {row['result']}", flush=True)
    json.dump({"gpu": torch.cuda.get_device_name(), "capability": f"{cap[0]}.{cap[1]}",
               "torch": torch.__version__, "cuda": torch.version.cuda, "results": results},
              open(a.out, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
