#!/usr/bin/env python3
"""Speed of the intrinsic checks (INTR) against nvcc, per file and per arch.

    python3 bench/intr_bench.py [--cudalint build/cudalint] [--nvcc PATH] [--archs 7.5,8.0,9.0]
                                [--runs 5] [--nvcc-sample 12] [--extra FILE.cu ...]
                                [--nvcc-flags "-I DIR ..."] [--torch-includes] [--extra-only]
                                [--nvcc-jobs N] [--json OUT]

Files:
  big-1000      a generated 1,000-line .cu (kernels using shuffles, atomics, half/bf16, cp.async,
                templates, helpers, host launchers) whose includes are missing: torch/extension.h,
                ATen headers and a project header do not exist. nvcc compiles the same file with
                -DINTR_BENCH_NVCC, which swaps the missing includes for the CUDA headers and drops
                the torch host code, so both tools see the same kernels.
  oracle cases  tests/oracle/intr/cases/*.cu (234 small files); cudalint checks all of them in one
                process, nvcc compiles a seeded sample of --nvcc-sample of them.
  --extra       any other .cu files (e.g. large files of a real project), both tools as they are:
                cudalint with its includes missing (a pre-commit environment), nvcc with
                --nvcc-flags and, with --torch-includes, the include paths, ABI flag and Python
                headers of the torch that is importable (what torch's extension builder passes).
                Each row also gives the verdicts: whether nvcc compiled the file for that arch,
                and cudalint's INTR errors for it (they agree when exactly one of them objects
                or neither does). nvcc runs once per file and arch, --nvcc-jobs at a time.
  --extra-only  only the --extra files (no generated file, no oracle corpus).

Rows give medians of --runs runs (nvcc: of 3), without the on-disk cache unless a row says
"edited, prelude cached": the file is edited before each run (so its own result is not cached)
and the precompiled preludes an earlier run left are on disk, as for an editor save or a
pre-commit hook. "per arch" = wall time of one `cudalint check`
of that file for that one arch (-j 1, process start included), so the nvcc ratio compares one
compile against one check. cudalint is also timed for all archs in one run (what a project
with an arch list pays). nvcc runs `nvcc -c -arch=sm_XX -o /dev/null`.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))

KERNELS = [
    # warp reduction with shuffles
    """__device__ __forceinline__ float warp_sum_{i}(float v) {{
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}}
__global__ void reduce_{i}(const float* __restrict__ in, float* out, int n) {{
  float acc = 0.f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) acc += __ldg(in + k);
  acc = warp_sum_{i}(acc);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}}
""",
    # half precision elementwise
    """__global__ void scale_half_{i}(const __half* in, __half* out, float s, int n) {{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = __hmul(in[k], __float2half(s));
}}
""",
    # bf16 conversion
    """__global__ void to_bf16_{i}(const float* in, __nv_bfloat16* out, int n) {{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = __float2bfloat16(in[k] * {c}.0f);
}}
""",
    # templated kernel with explicit instantiation
    """template <typename T, int TILE>
__global__ void tile_copy_{i}(const T* in, T* out, int rows, int cols) {{
  __shared__ T tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}}
template __global__ void tile_copy_{i}<float, 32>(const float*, float*, int, int);
""",
    # cp.async guarded by __CUDA_ARCH__ (legal everywhere), plus an sm_80 warp reduce under a guard
    """__global__ void stage_{i}(const float4* in, float4* out, int n) {{
  __shared__ float4 buf[128];
  int k = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&buf[threadIdx.x]));
  if (k < n) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\\n" :: "r"(dst), "l"(in + k));
  asm volatile("cp.async.wait_all;\\n" ::);
  unsigned total = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(k));
  (void)total;
#else
  if (k < n) buf[threadIdx.x] = in[k];
#endif
  __syncthreads();
  if (k < n) out[k] = buf[threadIdx.x];
}}
""",
    # atomics and votes
    """__global__ void histogram_{i}(const int* keys, unsigned* bins, int n) {{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  bool valid = k < n;
  unsigned mask = __ballot_sync(0xffffffffu, valid);
  if (valid && __popc(mask) > 0) atomicAdd(&bins[keys[k] & 255], 1u);
}}
""",
]

HOST = """#ifndef INTR_BENCH_NVCC
void launch_{i}(torch::Tensor in, torch::Tensor out) {{
  const int n = static_cast<int>(in.numel());
  auto stream = at::cuda::getCurrentCUDAStream();
  reduce_{j}<<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<float>(), out.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}}
#endif
"""

HEADER = """// Generated by bench/intr_bench.py: a 1,000-line extension source whose includes are missing.
#ifdef INTR_BENCH_NVCC
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#else
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include "project/kernels_common.cuh"
#endif

"""


def big_file(lines=1000, seed=7):
    rng = random.Random(seed)
    out = [HEADER]
    i = 0
    last_reduce = None
    while sum(s.count("\n") for s in out) < lines:
        kind = i % len(KERNELS)
        out.append(KERNELS[kind].format(i=i, c=rng.randint(1, 9)) + "\n")
        if kind == 0:
            last_reduce = i
        if last_reduce is not None and rng.random() < 0.25:
            out.append(HOST.format(i=i, j=last_reduce) + "\n")
        i += 1
    text = "".join(out)
    return text


def sm_of(arch):
    return "sm_" + arch.replace(".", "")


def timed(cmd, ok=(0, 1)):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if p.returncode not in ok:
        raise RuntimeError(f"{' '.join(cmd[:3])} ... exited {p.returncode}: {p.stderr.decode(errors='replace')[-800:]}")
    return dt


def median_time(cmd, runs, ok=(0, 1)):
    return statistics.median(timed(cmd, ok) for _ in range(runs))


def find_nvcc(explicit):
    for c in [explicit, os.environ.get("NVCC"), "/usr/local/cuda/bin/nvcc", shutil.which("nvcc")]:
        if c and os.path.exists(c):
            return c
    return None


def torch_flags():
    """What torch's extension builder gives nvcc: include paths, the C++ ABI, Python's headers."""
    try:
        import sysconfig
        import torch
        from torch.utils import cpp_extension
    except ImportError:
        sys.exit("--torch-includes: torch is not importable here")
    try:
        paths = cpp_extension.include_paths(device_type="cuda")
    except TypeError:  # older torch
        paths = cpp_extension.include_paths(cuda=True)
    # COMMON_NVCC_FLAGS (torch 2.11: the __CUDA_NO_HALF*__ defines and --expt-relaxed-constexpr)
    # has no --expt-extended-lambda: under it cuda_runtime.h includes <functional> (and so
    # <tuple>), which changes what compiles. Pass it with --nvcc-flags where a project's
    # setup.py does.
    return ([f"-I{p}" for p in paths] + [f"-I{sysconfig.get_paths()['include']}", "-std=c++17",
            f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}", "-DTORCH_EXTENSION_NAME=bench",
            "-DTORCH_API_INCLUDE_EXTENSION_H"] + list(cpp_extension.COMMON_NVCC_FLAGS))


def real_files(paths, archs, nvcc, flags, jobs, check, cl):
    """Per file and arch: cudalint's time and INTR errors, nvcc's time and whether it compiled."""
    out = []
    for p in paths:
        p = os.path.abspath(p)
        lines = open(p, errors="replace").read().count("\n")
        for arch in archs:
            cmd = [cl, "check", p, "--select", "INTR", "--target-archs", arch, "-j", "1", "--format", "json",
                   "--no-gitignore", "--no-cache"]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            errors = sum(1 for f in json.loads(r.stdout)["findings"] if f.get("severity") == "error")
            out.append({"file": os.path.basename(p), "path": p, "lines": lines, "arch": sm_of(arch),
                        "cudalint_s": check([p], [arch]), "cudalint_edited_s": check([p], [arch], edited=True),
                        "intr_errors": errors,
                        "nvcc_s": None, "nvcc_ok": None, "nvcc_error": "", "agree": None})

    def compile_one(v):
        cmd = [nvcc, "-c", f"-arch={v['arch']}", "-o", os.devnull, *flags, v["path"]]
        t0 = time.perf_counter()
        pr = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        v["nvcc_s"] = time.perf_counter() - t0
        v["nvcc_ok"] = pr.returncode == 0
        if not v["nvcc_ok"]:
            first = next((ln for ln in pr.stdout.decode(errors="replace").splitlines() if "error" in ln), "")
            v["nvcc_error"] = first.strip()[-160:].replace("|", "/")
        v["agree"] = v["nvcc_ok"] == (v["intr_errors"] == 0)

    if nvcc:
        with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
            list(pool.map(compile_one, out))
        # A file nvcc rejects for every arch fails for another reason (a torch API it no longer
        # has, say): no verdict about archs.
        for name in {v["path"] for v in out}:
            mine = [v for v in out if v["path"] == name]
            if not any(v["nvcc_ok"] for v in mine):
                for v in mine:
                    v["agree"] = None
                    v["nvcc_error"] = "every arch (not an arch verdict): " + v["nvcc_error"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cudalint", default=os.path.join(ROOT, "build", "cudalint"))
    ap.add_argument("--nvcc")
    ap.add_argument("--archs", default="7.5,8.0,9.0")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--nvcc-sample", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--extra", nargs="*", default=[])
    ap.add_argument("--no-nvcc", action="store_true", help="cudalint rows only (smoke test)")
    ap.add_argument("--nvcc-flags", default="", help="more nvcc flags for the --extra files")
    ap.add_argument("--torch-includes", action="store_true", help="nvcc gets torch's include paths")
    ap.add_argument("--extra-only", action="store_true")
    ap.add_argument("--nvcc-jobs", type=int, default=1)
    ap.add_argument("--json", help="write every row here")
    a = ap.parse_args()
    archs = [x.strip() for x in a.archs.split(",") if x.strip()]
    nvcc = None if a.no_nvcc else find_nvcc(a.nvcc)
    cl = os.path.abspath(a.cudalint)

    tmp = tempfile.mkdtemp(prefix="cudalint-intr-bench-")
    big = os.path.join(tmp, "big_1000.cu")
    with open(big, "w") as f:
        f.write(big_file())
    nlines = open(big).read().count("\n")

    cache = os.path.join(tmp, "cache")

    def check(files, arch_list, runs=a.runs, edited=False):
        """Without a cache; or (edited) with the on-disk cache of an earlier run and the files
        edited before each run, as an editor save or a pre-commit hook sees them: the preludes
        are precompiled already, the files' own results are not cached."""
        cmd = [cl, "check", *files, "--select", "INTR", "--target-archs", ";".join(arch_list), "-j", "1",
               "--format", "json", "--no-gitignore"] + (["--cache-dir", cache] if edited else ["--no-cache"])
        if not edited:
            return median_time(cmd, runs)
        originals = {f: open(f).read() for f in files}
        timed(cmd)  # fills the cache with this arch list's preludes
        times = []
        try:
            for i in range(runs):
                for f, text in originals.items():
                    with open(f, "w") as out:
                        out.write(text + f"// edit {i}\n")
                times.append(timed(cmd))
        finally:
            for f, text in originals.items():
                with open(f, "w") as out:
                    out.write(text)
        return statistics.median(times)

    def nvcc_time(path, arch, extra=(), must_compile=True):
        # Oracle cases are meant to be rejected for some archs: a rejection is still the check.
        cmd = [nvcc, "-c", f"-arch={sm_of(arch)}", "-o", os.devnull, *extra, path]
        return median_time(cmd, 3, ok=(0,) if must_compile else tuple(range(256)))

    rows = []  # (file, arch, cudalint_s, nvcc_s or None)
    extra_flags = shlex.split(a.nvcc_flags) + (torch_flags() if a.torch_includes else [])
    verdicts = real_files(a.extra, archs, nvcc, extra_flags, a.nvcc_jobs, check, cl) if a.extra else []
    files = [] if a.extra_only else [("big-1000", big, ["-DINTR_BENCH_NVCC"])]
    for label, path, nv_extra in files:
        for arch in archs:
            c = check([path], [arch])
            n = nvcc_time(path, arch, nv_extra) if nvcc else None
            rows.append((label, sm_of(arch), c, n))
            rows.append((label, f"{sm_of(arch)}, edited, prelude cached", check([path], [arch], edited=True), n))
        c_all = check([path], archs)
        rows.append((label, f"all {len(archs)} in one run", c_all, None))
        rows.append((label, f"per arch, amortised over {len(archs)}", c_all / len(archs), None))
        c_all_e = check([path], archs, edited=True)
        rows.append((label, f"all {len(archs)} in one run, edited, prelude cached", c_all_e, None))
        rows.append((label, f"per arch, amortised over {len(archs)}, edited, prelude cached", c_all_e / len(archs), None))

    cases = [] if a.extra_only else sorted(glob.glob(os.path.join(ROOT, "tests", "oracle", "intr", "cases", "*.cu")))
    sample = random.Random(a.seed).sample(cases, min(a.nvcc_sample, len(cases)))
    corpus_rows = []
    for arch in archs if cases else []:
        c = check(cases, [arch], runs=max(1, a.runs // 2)) / len(cases)
        n = statistics.median(nvcc_time(p, arch, must_compile=False) for p in sample) if nvcc else None
        corpus_rows.append((sm_of(arch), c, n))

    print(f"cudalint {cl}; nvcc {nvcc or 'not found'}; big-1000 = {nlines} lines, includes missing; "
          f"medians of {a.runs} runs (nvcc 3); one process per row, -j 1")
    print()
    if rows:
        print("| file | arch | cudalint ms | nvcc ms | nvcc / cudalint |")
        print("|---|---|---:|---:|---:|")
    for label, arch, c, n in rows:
        ratio = f"{n / c:.0f}x" if n else ""
        print(f"| {label} | {arch} | {c * 1000:.1f} | {'' if n is None else f'{n * 1000:.0f}'} | {ratio} |")
    if verdicts:
        print()
        print(f"real files: cudalint without their includes, nvcc with {' '.join(extra_flags) or 'no flags'}")
        print()
        print("cudalint ms: without a cache; edited: the file edited before each run, the cache of an earlier run "
              "(preludes precompiled) on disk")
        print()
        print("| file | lines | arch | cudalint ms | cudalint ms, edited | nvcc ms | nvcc / cudalint | nvcc "
              "| cudalint INTR errors | agree |")
        print("|---|---:|---|---:|---:|---:|---:|---|---:|---|")
        for v in verdicts:
            n = v["nvcc_s"]
            ratio = f"{n / v['cudalint_s']:.0f}x" if n and v["nvcc_ok"] else ""
            print(f"| {v['file']} | {v['lines']} | {v['arch']} | {v['cudalint_s'] * 1000:.1f} | "
                  f"{v['cudalint_edited_s'] * 1000:.1f} | "
                  f"{'' if n is None else f'{n * 1000:.0f}'} | {ratio} | "
                  f"{'' if v['nvcc_ok'] is None else ('compiles' if v['nvcc_ok'] else 'fails: ' + v['nvcc_error'])} | "
                  f"{v['intr_errors']} | {'' if v['agree'] is None else ('yes' if v['agree'] else 'NO')} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": [dict(zip(("file", "arch", "cudalint_s", "nvcc_s"), r)) for r in rows],
                       "real_files": verdicts}, f, indent=1)
    if not cases:
        shutil.rmtree(tmp, ignore_errors=True)
        return 0
    print()
    print(f"oracle corpus: {len(cases)} cases in one cudalint run per arch (per-file time = wall / files); "
          f"nvcc: median over {len(sample)} sampled cases")
    print()
    print("| arch | cudalint ms/file | nvcc ms/file | nvcc / cudalint |")
    print("|---|---:|---:|---:|")
    for arch, c, n in corpus_rows:
        ratio = f"{n / c:.0f}x" if n else ""
        print(f"| {arch} | {c * 1000:.2f} | {'' if n is None else f'{n * 1000:.0f}'} | {ratio} |")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
