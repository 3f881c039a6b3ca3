// Facts about CUDA toolkits and torch wheels, from data tables with cited sources.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzer/domain/arch.h"

namespace cudalint::domain {

struct CudaVersion {
  int major = 0;
  int minor = 0;
  int patch = -1;  // -1 when not given
  std::string str() const;  // "12.4" or "12.4.1"
  friend bool operator<(const CudaVersion& a, const CudaVersion& b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
};

std::optional<CudaVersion> parse_cuda_version(std::string_view text);  // "12.4", "12.4.1", "cu124"

enum class Support { Supported, Unsupported, Unknown };

struct ArchSupport {
  Support verdict = Support::Unknown;
  std::string reason;  // "removed in CUDA 13.0", "first supported by CUDA 12.8"
};

// Can nvcc of `cuda` compile for `arch` (SASS or PTX)? Unknown when the table has no row
// for the arch or the toolkit is older than the table covers.
ArchSupport cuda_supports(const CudaVersion& cuda, const Arch& arch);

// The arch nvcc compiles for when given none (SASS and PTX): sm_75 from CUDA 13.0, sm_52 from
// 11.0, sm_30 before. CMake (policy CMP0104) initialises CMAKE_CUDA_ARCHITECTURES to it.
Arch nvcc_default_arch(const CudaVersion& cuda);

// "sm_50..sm_90a" style summary of the real targets a toolkit builds (for messages).
std::string supported_range(const CudaVersion& cuda);

}  // namespace cudalint::domain
