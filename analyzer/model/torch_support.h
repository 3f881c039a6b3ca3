// Facts about torch releases: C++ ABI of the Linux pip wheels, CUDA variants.
// Sources: data/torch_releases.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzer/model/cuda_support.h"

namespace cudalint::model {

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

}  // namespace cudalint::model
