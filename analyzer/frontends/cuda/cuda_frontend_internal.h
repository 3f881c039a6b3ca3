// CUDA front-end internals shared by its files: the paths of the in-memory files every parse
// sees (virtual_files.cpp makes them), the CUDA and torch headers that resolve to stubs there, and
// the identifier test of its scanners. Private to analyzer/frontends/cuda.
#pragma once

#include <string>
#include <string_view>

namespace cudalint::cuda::detail {

constexpr std::string_view kPreludePath = "/cudalint/prelude.cuh";
constexpr std::string_view kStubDir = "/cudalint/include";
// Clang's resource directory as parses see it: the installation's (Options::clang_resource_dir),
// its include/ overlaid with the embedded headers (resource_headers.h); without an installation,
// a directory of only those.
constexpr std::string_view kResourceDir = "/cudalint/clang";
inline std::string resource_dir_or_virtual(const std::string& dir) {
  return dir.empty() ? std::string(kResourceDir) : dir;
}
// The prelude precompiled (PreludeCache): served from memory, never written to disk.
constexpr std::string_view kPchPath = "/cudalint/prelude.pch";
constexpr std::string_view kPchMain = "/cudalint/pch-main.cuh";
// Ends by undefining Clang's own `__CUDA_ARCH__` (of kClangTarget, driver_job.cpp): a parse
// using the PCH gets its arch's value from a -D that Clang applies after the PCH, where the -U
// before it is dropped (only macros that differ from the PCH's are kept). Redefining the PCH's
// value made Clang check whether it is a language-defined macro, which computes the line table of
// the PCH's whole predefines buffer, in every parse.
constexpr std::string_view kPchMainText = "#include \"/cudalint/prelude.cuh\"\n#undef __CUDA_ARCH__\n";
// The part of the prelude that depends on the arch and the toolkit version (macros only),
// included after the prelude or its PCH and the command line's macros.
constexpr std::string_view kArchPath = "/cudalint/prelude-arch.cuh";

// Headers of the CUDA toolkit (and CCCL) that resolve to an empty stub: the prelude, included
// first, declares what cudalint needs of them. A project's own include path may hold the real
// ones (Clang 19 cannot parse CUDA 13's); the stub directory is searched first.
constexpr std::string_view kCudaHeaders[] = {
    "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h",
    "cuda_bf16.hpp", "cuda_fp8.h", "cuda_fp8.hpp", "cuda_fp6.h", "cuda_fp4.h", "mma.h", "crt/mma.h",
    "cooperative_groups.h", "cooperative_groups/reduce.h", "cooperative_groups/memcpy_async.h",
    "cooperative_groups/scan.h", "cuda/barrier", "cuda/pipeline", "cuda/ptx", "cuda/atomic", "cuda/annotated_ptr",
    "cuda/std/barrier", "cuda/std/atomic", "nv/target", "device_launch_parameters.h", "device_functions.h",
    "device_atomic_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h",
    "sm_35_intrinsics.h", "sm_60_atomic_functions.h", "sm_61_intrinsics.h", "crt/sm_70_rt.h", "crt/sm_80_rt.h",
    "crt/sm_90_rt.h", "crt/sm_100_rt.h", "cuda_pipeline.h", "cuda_pipeline_primitives.h", "cuda_awbarrier.h",
    "cuda_awbarrier_primitives.h", "cudaTypedefs.h", "vector_types.h", "vector_functions.h", "driver_types.h",
    "builtin_types.h", "cuda_texture_types.h", "texture_fetch_functions.h", "math_constants.h",
    "cuda_device_runtime_api.h", "host_defines.h", "crt/host_defines.h"};

// The PyTorch headers extensions include: each is cudalint's stand-in for torch's C++ API
// (torch_stub.cuh), so that host code around launches type-checks and AT_DISPATCH_* instantiates
// the kernels. Other torch headers stay missing (skipped).
constexpr std::string_view kTorchStubPath = "/cudalint/torch_stub.cuh";
constexpr std::string_view kTorchStubInclude = "#include \"/cudalint/torch_stub.cuh\"\n";
static_assert(kTorchStubInclude.find(kTorchStubPath) != std::string_view::npos);
// torch's atomic helpers (their own atomicAdd(double*) below sm_60): a stand-in of their own.
constexpr std::string_view kTorchAtomicStubPath = "/cudalint/torch_atomic_stub.cuh";
constexpr std::string_view kTorchAtomicStubInclude = "#include \"/cudalint/torch_atomic_stub.cuh\"\n";
static_assert(kTorchAtomicStubInclude.find(kTorchAtomicStubPath) != std::string_view::npos);
constexpr std::string_view kTorchAtomicHeaders[] = {"ATen/cuda/Atomic.cuh", "THC/THCAtomics.cuh"};
constexpr std::string_view kTorchHeaders[] = {
    "torch/extension.h", "torch/torch.h", "torch/all.h", "torch/python.h", "torch/library.h", "torch/types.h",
    "torch/script.h", "ATen/ATen.h", "ATen/Dispatch.h", "ATen/Dispatch_v2.h", "ATen/Tensor.h", "ATen/core/Tensor.h",
    "ATen/Functions.h", "ATen/AccumulateType.h", "ATen/OpMathType.h", "ATen/TensorUtils.h", "ATen/TensorAccessor.h",
    "ATen/cuda/CUDAContext.h", "ATen/cuda/CUDAEvent.h", "ATen/cuda/Exceptions.h", "ATen/cuda/CUDAUtils.h",
    "ATen/cuda/CUDAGeneratorImpl.h", "ATen/cuda/detail/IndexUtils.cuh", "ATen/cuda/detail/TensorInfo.cuh",
    "ATen/core/TensorAccessor.h", "c10/cuda/CUDAGuard.h", "c10/cuda/CUDAStream.h", "c10/cuda/CUDAException.h",
    "c10/cuda/CUDAMathCompat.h", "c10/util/Half.h", "c10/util/BFloat16.h", "c10/util/Optional.h",
    "c10/util/complex.h", "c10/core/ScalarType.h", "c10/core/Device.h", "c10/core/TensorOptions.h",
    "c10/macros/Macros.h", "pybind11/pybind11.h", "pybind11/stl.h", "pybind11/numpy.h"};

inline bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace cudalint::cuda::detail
