#!/usr/bin/env python3
"""Generates a synthetic PyTorch/CUDA project tree for cudalint's benchmark.

Scale 1.0 is the issue's reference tree: about 10,000 files and 135 MiB, mostly Python, with
1,500 `.cu` kernels, 500 `.cuh` headers and build files (setup.py, CMake, Dockerfiles,
requirements). Everything is generated from a seeded RNG, so a given scale always produces
the same bytes. The code is of our own design: kernels with guards, intrinsics, templates and
inline PTX; Python modules with torch.compile regions, nn.Modules and helpers.

    python3 bench/gen_tree.py OUT_DIR [--scale 1.0] [--seed 1] [--compiled-share 1.0]

--compiled-share F (default 1: every module) makes only a fraction F of the Python modules use
torch.compile. The others are plain model code that imports two modules of its package and
calls their helpers, and the compiled ones call into the plain ones, so compiled regions cross
modules (a plain module's helper calls its imports' helpers a quarter of the time, so call chains stay short); each package also gets a train.py that sets Dynamo config and compiles a model. Real
projects are closer to this (torch.compile in a few places) than to the default, where every
module is full of compiled functions and no module imports another.
"""
import argparse
import os
import random

KERNEL_BODIES = [
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = in[i] * {c}.0f + {d}.0f;\n",
    "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{\n"
    "    float v = in[i];\n    v = fmaxf(v, {c}.0f);\n    out[i] = v;\n  }}\n",
    "  __shared__ float tile[32][33];\n  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;\n"
    "  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];\n  __syncthreads();\n"
    "  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;\n"
    "  if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y] + {c}.0f;\n",
    "  float v = in[threadIdx.x];\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);\n"
    "  if ((threadIdx.x & 31) == 0) atomicAdd(out, v * {c}.0f);\n",
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n"
    "  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(out));\n"
    "  asm volatile(\"cp.async.ca.shared.global [%0], [%1], 4;\\n\" :: \"r\"(s), \"l\"(in));\n"
    "  asm volatile(\"cp.async.wait_all;\\n\" ::);\n#else\n  out[threadIdx.x] = in[threadIdx.x] + {d}.0f;\n#endif\n",
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) {{\n    __half h = __float2half(in[i]);\n"
    "    out[i] = __half2float(__hmul(h, __float2half({c}.0f)));\n  }}\n",
]

SHIM = """// What the generated kernels use beyond the language, for each compiler that sees them.
#pragma once
#if defined(BENCH_CLANG_SHIM)
// clang -fsyntax-only -x cuda -nocudainc: the builtin variables and a few declarations.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ inline __attribute__((always_inline))
#include <__clang_cuda_builtin_vars.h>
struct __half { unsigned short x; };
int cudaConfigureCall(unsigned, unsigned, unsigned long long = 0, void* = 0);
__device__ __half __float2half(float);
__device__ float __half2float(__half);
__device__ __half __hmul(__half, __half);
__device__ float __shfl_down_sync(unsigned, float, unsigned, int = 32);
__device__ float atomicAdd(float*, float);
__device__ float fmaxf(float, float);
__device__ void __syncthreads();
__device__ unsigned long long __cvta_generic_to_shared(const void*);
#elif defined(__NVCC__)
#include <cuda_fp16.h>
#endif
// cudalint needs neither: its prelude declares the CUDA builtins.
"""


def kernel_file(rng, idx, lines_target):
    out = [f"// generated kernel file {idx}\n", '#include "common.cuh"\n', f'#include "ops_{idx % 500}.cuh"\n\n']
    k = 0
    while sum(s.count("\n") for s in out) < lines_target:
        body = rng.choice(KERNEL_BODIES).format(c=rng.randint(1, 9), d=rng.randint(1, 9))
        if rng.random() < 0.2:
            out.append(f"template <typename T>\n__global__ void k{idx}_{k}(const T* in, T* out, int n) {{\n"
                       f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = in[i];\n}}\n"
                       f"template __global__ void k{idx}_{k}<float>(const float*, float*, int);\n\n")
        else:
            out.append(f"__global__ void k{idx}_{k}(const float* in, float* out, int n) {{\n{body}}}\n\n")
        if rng.random() < 0.3:
            out.append(f"__device__ float helper{idx}_{k}(float a) {{ return a * a + {rng.randint(1, 9)}.0f; }}\n\n")
        if rng.random() < 0.2:
            out.append(f"void launch{idx}_{k}(const float* in, float* out, int n) {{\n"
                       f"  k{idx}_{k}<<<(n + 255) / 256, 256>>>(in, out, n);\n}}\n\n")
        k += 1
    return "".join(out)


def header_file(rng, idx):
    out = [f"// generated header {idx}\n#pragma once\n#include \"common.cuh\"\n\n"]
    for j in range(rng.randint(3, 12)):
        out.append(f"__device__ __forceinline__ float op{idx}_{j}(float x) {{ return x * {rng.randint(1, 9)}.0f + "
                   f"{rng.randint(0, 9)}.0f; }}\n")
    return "".join(out)


PY_FUNCS = [
    "def {name}(x):\n    y = torch.relu(x) * {c}\n    return y.sum(dim=-1)\n\n",
    "def {name}(x, w):\n    h = x @ w\n    if h.shape[0] > {c}:\n        h = h[:{c}]\n    return torch.tanh(h)\n\n",
    "@torch.compile\ndef {name}(x):\n    s = x.sum()\n    return x / (s + {c})\n\n",
    "def {name}(t):\n    out = []\n    for i in range({c}):\n        out.append(t * i)\n    return torch.stack(out)\n\n",
    "@torch.compile(fullgraph=True)\ndef {name}(x, y):\n    return torch.where(x > y, x, y) * {c}\n\n",
]

PY_CLASS = """class Block{idx}(nn.Module):
    def __init__(self, dim={c}):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        h = self.norm(x)
        h = self.proj(h)
        return x + torch.nn.functional.gelu(h)


"""


PY_PLAIN_FUNCS = [f for f in PY_FUNCS if "torch.compile" not in f]

PY_HELPER = """def helper_{idx}(x):
    if x.sum() > {c}:
        x = x * 2
    return {calls}x


"""

PY_ENTRY = """@torch.compile
def entry_{idx}(x):
    y = torch.relu(x)
    return {calls}y


"""


def python_file(rng, idx, bytes_target, compiled=True, imports=()):
    """imports: indices of modules of the same package this one imports and calls (only when
    --compiled-share is below 1)."""
    head = f'"""Generated module {idx}."""\nimport math\n\nimport torch\nfrom torch import nn\n'
    head += "".join(f"from . import m{j}\n" for j in imports)
    out = [head + "\n\n"]
    calls = "".join(f"m{j}.helper_{j}(x) + " for j in imports)
    if imports or not compiled:
        # A plain module's helper calls its imports' helpers now and then (call chains stay short).
        helper_calls = calls if compiled or rng.random() < 0.25 else ""
        out.append(PY_HELPER.format(idx=idx, c=rng.randint(1, 64), calls=helper_calls))
    if imports and compiled:
        out.append(PY_ENTRY.format(idx=idx, calls=calls.replace("(x)", "(y)")))
    funcs = PY_FUNCS if compiled else PY_PLAIN_FUNCS
    n = 0
    size = sum(len(s) for s in out)
    while size < bytes_target:
        if rng.random() < 0.15:
            s = PY_CLASS.format(idx=f"{idx}_{n}", c=rng.randint(8, 512))
        else:
            s = rng.choice(funcs).format(name=f"f{idx}_{n}", c=rng.randint(1, 64))
        out.append(s)
        size += len(s)
        n += 1
    return "".join(out)


TRAIN_PY = """import torch
import torch._dynamo

from .models import m{first}

torch._dynamo.config.capture_scalar_outputs = {capture}


def main():
    model = torch.compile(m{first}.Block{first}_0())
    x = torch.randn(8, 64)
    print(model(x).item())


if __name__ == "__main__":
    main()
"""


SETUP_PY = """import os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "8.0;9.0")
setup(
    name="pkg{idx}",
    ext_modules=[CUDAExtension("pkg{idx}._C", {sources}, extra_compile_args={{"cxx": ["-O3"], "nvcc": ["-O3"]}})],
    cmdclass={{"build_ext": BuildExtension}},
)
"""

CMAKE = """cmake_minimum_required(VERSION 3.24)
project(pkg{idx} LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
find_package(Torch REQUIRED)
add_library(pkg{idx} SHARED {sources})
target_compile_options(pkg{idx} PRIVATE ${{TORCH_CXX_FLAGS}})
target_link_libraries(pkg{idx} PRIVATE ${{TORCH_LIBRARIES}})
"""

DOCKERFILE = """FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build
RUN pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124
ENV TORCH_CUDA_ARCH_LIST="8.0;9.0" MAX_JOBS=4
COPY . /src
WORKDIR /src
RUN pip install --no-build-isolation .
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
COPY --from=build /src/dist /dist
"""


def generate(out_dir, scale=1.0, seed=1, compiled_share=1.0):
    rng = random.Random(seed)
    n_cu = max(1, round(1500 * scale))
    n_cuh = max(1, round(500 * scale))
    n_pkg = max(1, round(30 * scale))
    n_py = max(1, round(7900 * scale))
    written = 0
    files = 0

    def put(rel, text):
        nonlocal written, files
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        written += len(text)
        files += 1

    for p in range(n_pkg):
        put(f"pkg{p}/csrc/common.cuh", SHIM)
    for h in range(n_cuh):
        put(f"pkg{h % n_pkg}/csrc/ops_{h}.cuh", header_file(rng, h))
    for c in range(n_cu):
        # Mostly small kernels, a few large files (up to ~2,000 lines).
        lines = int(min(2000, rng.lognormvariate(4.6, 0.8)))
        pkg = c % n_pkg
        # Every .cu sees its ops header next to it.
        put(f"pkg{pkg}/csrc/k{c}.cu", kernel_file(rng, c, lines).replace(
            f'#include "ops_{c % 500}.cuh"', f'#include "ops_{pkg_header(c, n_cuh, n_pkg, pkg)}.cuh"'))
    for p in range(n_pkg):
        srcs = [f"csrc/k{c}.cu" for c in range(p, n_cu, n_pkg)][:20]
        put(f"pkg{p}/setup.py", SETUP_PY.format(idx=p, sources=repr(srcs)))
        put(f"pkg{p}/CMakeLists.txt", CMAKE.format(idx=p, sources=" ".join(srcs)))
        put(f"pkg{p}/Dockerfile", DOCKERFILE)
        put(f"pkg{p}/requirements.txt", "torch==2.5.1\nnumpy>=1.24\n")
    # Python dominates the bytes: ~135 MiB at scale 1 overall.
    py_budget = 135 * 1024 * 1024 * scale - written
    per_py = max(2000, int(py_budget / n_py))
    if compiled_share >= 1:
        for i in range(n_py):
            put(f"pkg{i % n_pkg}/models/m{i}.py", python_file(rng, i, int(per_py * rng.uniform(0.5, 1.5))))
        return files, written
    # Module i lives in package i % n_pkg; it imports two earlier modules of its package.
    for i in range(n_py):
        pkg = i % n_pkg
        earlier = list(range(pkg, i, n_pkg))
        imports = rng.sample(earlier, min(2, len(earlier))) if earlier else []
        compiled = rng.random() < compiled_share
        put(f"pkg{pkg}/models/m{i}.py", python_file(rng, i, int(per_py * rng.uniform(0.5, 1.5)), compiled, imports))
    for p in range(n_pkg):
        put(f"pkg{p}/models/__init__.py", "")
        put(f"pkg{p}/__init__.py", "")
        # Block{first}_0 exists when the first module's first definition is a class; the
        # analysis resolves what it can either way.
        put(f"pkg{p}/train.py", TRAIN_PY.format(first=p, capture="True" if p % 2 else "False"))
    return files, written


def pkg_header(c, n_cuh, n_pkg, pkg):
    # A header index that lives in the same package directory as the kernel.
    for h in range(pkg, n_cuh, n_pkg):
        return h
    return pkg % n_cuh


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiled-share", type=float, default=1.0)
    a = ap.parse_args()
    files, written = generate(a.out, a.scale, a.seed, a.compiled_share)
    print(f"{files} files, {written / 2**20:.1f} MiB in {a.out}")


if __name__ == "__main__":
    main()
