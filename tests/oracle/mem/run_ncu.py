#!/usr/bin/env python3
"""Measures global-memory sectors per request of every corpus kernel with Nsight Compute.

    python3 tests/oracle/mem/run_ncu.py OUT_DIR [--arch sm_90] [--corpus DIR ...] [--compile-only]

Builds one program from each corpus's *.cu (default: kernels/; the others are gen/kernels and
patterns; a generated main that allocates the buffers of
harness.cuh and calls every launch_<name> once, in file order), runs it under
`ncu --metrics l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_{ld,st}.sum`, and writes
OUT_DIR/<corpus path with / as _>.json (measured.json for kernels/): per kernel, sectors and
requests for loads and stores, the L2 sectors and DRAM bytes each direction moved, the access
width from the kernel's header comment, the ideal sectors per request (a full warp's bytes /
32) and the verdict: uncoalesced when measured sectors/request > max(1.5 * ideal, ideal + 1).
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = [f"l1tex__t_{w}_pipe_lsu_mem_global_op_{op}.sum" for op in ("ld", "st") for w in ("sectors", "requests")]
# What the caches let through: L2 sectors requested by L1 and DRAM bytes, per direction. A run
# of adjacent accesses by one thread costs many L1 sectors per request but about the ideal here.
CACHE_METRICS = ["lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
                 "dram__bytes_read.sum", "dram__bytes_write.sum"]

MAIN = r'''
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>
#include "harness.cuh"
%(includes)s
template <typename T> T* alloc(long long n) {
  T* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(T)) != cudaSuccess) { std::fprintf(stderr, "cudaMalloc failed\n"); std::exit(1); }
  cudaMemset(p, 0, n * sizeof(T));
  return p;
}
int main() {
  Buffers B;
  B.f_in = alloc<float>(kAlloc); B.f_out = alloc<float>(kAlloc);
  B.d_in = alloc<double>(kAlloc); B.d_out = alloc<double>(kAlloc);
  B.h_in = alloc<__half>(kAlloc); B.h_out = alloc<__half>(kAlloc);
  B.h2_in = alloc<__half2>(kAlloc / 2); B.h2_out = alloc<__half2>(kAlloc / 2);
  B.c_in = alloc<char>(kAlloc); B.c_out = alloc<char>(kAlloc);
  B.f2_in = alloc<float2>(kAlloc / 2); B.f2_out = alloc<float2>(kAlloc / 2);
  B.f4_in = alloc<float4>(kAlloc / 4); B.f4_out = alloc<float4>(kAlloc / 4);
  std::vector<int> idx(kN);
  std::iota(idx.begin(), idx.end(), 0);
  B.idx_sorted = alloc<int>(kN);
  cudaMemcpy(B.idx_sorted, idx.data(), kN * sizeof(int), cudaMemcpyHostToDevice);
  std::shuffle(idx.begin(), idx.end(), std::mt19937(7));
  B.idx_random = alloc<int>(kN);
  cudaMemcpy(B.idx_random, idx.data(), kN * sizeof(int), cudaMemcpyHostToDevice);
%(calls)s
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::fprintf(stderr, "%%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
'''


def widths(path):
    m = re.search(r"access bytes per thread: ld (\d+), st (\d+)", open(path).read())
    return int(m.group(1)), int(m.group(2))


def verdict(sectors, requests, width, l2_sectors=None, dram_bytes=None):
    if not requests or not width:
        return None
    ideal = 32 * width / 32  # a full warp's bytes in 32-byte sectors
    spr = sectors / requests
    v = {"sectors": sectors, "requests": requests, "sectors_per_request": round(spr, 3),
         "ideal": ideal, "uncoalesced": spr > max(1.5 * ideal, ideal + 1)}
    if l2_sectors is not None:
        v["l2_sectors"] = l2_sectors
        v["dram_bytes"] = dram_bytes
        # The share of L1's sector traffic that reached DRAM: near 1 when every sector fetched
        # is a new one, small when L1/L2 merged what adjacent requests share.
        v["dram_per_l1_byte"] = round(dram_bytes / (32 * sectors), 3) if sectors else None
    return v


def main():
    out = sys.argv[1]
    arch = sys.argv[sys.argv.index("--arch") + 1] if "--arch" in sys.argv else "sm_90"
    corpora = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--corpus"] or ["kernels"]
    os.makedirs(out, exist_ok=True)
    for corpus in corpora:
        measure(out, arch, corpus)


def measure(out, arch, corpus):
    names = sorted(f[:-3] for f in os.listdir(os.path.join(HERE, corpus)) if f.endswith(".cu"))
    src = MAIN % {"includes": "\n".join(f'#include "{corpus}/{n}.cu"' for n in names),
                  "calls": "\n".join(f"  launch_{n}(B);" for n in names)}
    main_cu = os.path.join(HERE, "main.gen.cu")
    with open(main_cu, "w") as f:
        f.write(src)
    tag = "measured" if corpus == "kernels" else corpus.replace("/", "_")
    exe = os.path.join(out, tag + ".exe")
    subprocess.run(["nvcc", "-O3", "-std=c++17", f"-arch={arch}", "-o", exe, main_cu], check=True)
    os.remove(main_cu)
    if "--compile-only" in sys.argv:
        return
    r = subprocess.run(["ncu", "--metrics", ",".join(METRICS + CACHE_METRICS), "--csv", "--print-units", "base", exe],
                       capture_output=True, text=True)
    with open(os.path.join(out, tag + ".ncu.csv"), "w") as f:
        f.write(r.stdout)
    if r.returncode != 0:
        print(r.stderr[-4000:], file=sys.stderr)
        sys.exit(r.returncode)
    text = r.stdout[r.stdout.index('"ID"'):]
    values = {}
    for row in csv.DictReader(io.StringIO(text)):
        kname = row["Kernel Name"]
        base = re.sub(r"[<(].*", "", kname).split()[-1]
        values.setdefault(base, {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    result = {"gpu": subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                    capture_output=True, text=True).stdout.strip(),
              "arch": arch, "ncu": subprocess.run(["ncu", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1],
              "kernels": {}}
    for n in names:
        v = values.get(n)
        if v is None:
            print(f"no ncu data for {n}", file=sys.stderr)
            continue
        ld_w, st_w = widths(os.path.join(HERE, corpus, n + ".cu"))
        result["kernels"][n] = {
            "ld": verdict(v.get(METRICS[0], 0), v.get(METRICS[1], 0), ld_w, v.get(CACHE_METRICS[0]), v.get(CACHE_METRICS[2])),
            "st": verdict(v.get(METRICS[2], 0), v.get(METRICS[3], 0), st_w, v.get(CACHE_METRICS[1]), v.get(CACHE_METRICS[3])),
        }
    with open(os.path.join(out, tag + ".json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    for n, k in result["kernels"].items():
        fmt = lambda x: "-" if not x else f"{x['sectors_per_request']:6.2f}/{x['ideal']:<4g}{' UNCOALESCED' if x['uncoalesced'] else ''}"
        print(f"{n:32} ld {fmt(k['ld']):24} st {fmt(k['st'])}")


if __name__ == "__main__":
    main()
