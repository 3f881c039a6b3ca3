// CUDA front-end on Clang LibTooling 19: parses a .cu/.cuh in device mode once per target
// arch, as nvcc does, with cudalint's prelude instead of the CUDA headers, and lists the table
// features used by device code reachable for that arch.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/cuda/features.h"
#include "analyzer/model/arch.h"

namespace cudalint::cuda {

struct FeatureUse {
  const Feature* feature = nullptr;
  uint32_t begin = 0, end = 0;  // byte span in the analysed file
  std::string spelled;          // what the code names: `__hmax2`, `cp.async.ca.shared.global`
};

struct ArchResult {
  model::Arch arch;
  std::vector<FeatureUse> uses;  // sorted by offset, one per (feature, place)
  bool parsed = false;           // false when Clang could not run at all
};

struct Options {
  std::vector<model::Arch> archs;                 // distinct target archs
  std::optional<model::CudaVersion> cuda;         // the build's toolkit (table rows in range)
  std::vector<std::string> include_dirs;          // -I (from compile_commands.json)
  std::vector<std::string> defines;               // -D
};

struct Result {
  std::vector<ArchResult> per_arch;
  std::vector<std::string> errors;  // failures of the front-end itself (never user code errors)
};

// `path` is the file's absolute path (for relative includes); `text` its content, which may be
// an unsaved buffer. Missing includes are skipped. Never throws.
Result analyze(std::string_view path, std::string_view text, const Options& opts, const FeatureTable& table);

// The prelude for one arch (exposed for tests and the benchmark's clang peer).
std::string prelude_for(const model::Arch& arch, const FeatureTable& table);

}  // namespace cudalint::cuda
