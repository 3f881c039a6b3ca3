// Facts about torch releases: C++ ABI of the Linux pip wheels, CUDA variants.
// Sources: data/torch_releases.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/domain/cuda_support.h"

namespace cudalint::domain {

struct TorchVersion {
  int major = 0, minor = 0, patch = -1;
  std::string local;  // "cu121" from "2.3.0+cu121", "" when absent
  std::string str() const;
};
std::optional<TorchVersion> parse_torch_version(std::string_view text);  // "2.3.0", "2.3", "2.3.0+cu121"

// The `_GLIBCXX_USE_CXX11_ABI` value of the Linux pip wheel of `torch` with CUDA variant
// `cuda` (nullopt = unknown variant): 0 up to 2.5, 1 from 2.7, split in 2.6 (cu126 → 1).
std::optional<int> torch_wheel_abi(const TorchVersion& torch, const std::optional<CudaVersion>& cuda);

// CUDA variant from a wheel index URL: ".../whl/cu121" → 12.1; ".../whl/cpu" → cpu=true.
struct IndexVariant {
  std::optional<CudaVersion> cuda;
  bool cpu = false;
};
std::optional<IndexVariant> variant_from_index_url(std::string_view url);

// The nvcc command line torch's extension builder (BuildExtension) gives a CUDA source of an
// extension: the `define_macros`, `torch.utils.cpp_extension.COMMON_NVCC_FLAGS` (read from torch
// 2.11 on the device machine; the same list since torch 1.x), the extension's `nvcc` flags, and
// the macros the builder appends to them. The ABI macro and the default -std depend on the torch
// version: not here.
std::vector<std::string> torch_extension_nvcc_command(std::string_view extension_name,
                                                      const std::vector<std::string>& define_macros,
                                                      const std::vector<std::string>& nvcc_args);

}  // namespace cudalint::domain
