// The device-feature table (data/cuda_features.tsv, embedded at build time): which sm a
// function, type or PTX instruction needs, per toolkit range.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/cuda_support.h"

namespace cudalint::cuda {

enum class FeatureKind { Function, Type, Ptx, Deprecated };

struct Feature {
  std::string name;            // `__hmax2`, `cuda::ptx::cp_async_bulk`, `cp.async.bulk`
  FeatureKind kind = FeatureKind::Function;
  int min_sm = 0;              // 80 for sm_80; for Deprecated: the first sm where it is gone
  bool arch_specific = false;  // needs an `a` target (e.g. sm_90a)
  std::optional<model::CudaVersion> cuda_from, cuda_until;
  std::string source;
};

class FeatureTable {
 public:
  // Parses the TSV; malformed lines are reported in `errors` (1-based line: message).
  static FeatureTable parse(std::string_view tsv, std::vector<std::string>* errors = nullptr);
  // The table built into the binary.
  static const FeatureTable& builtin();

  // The row for `name` under toolkit `cuda` (nullopt = unknown toolkit: rows without a range).
  const Feature* find(std::string_view name, const std::optional<model::CudaVersion>& cuda) const;
  // Longest dotted prefix of a PTX instruction that has a row (`cp.async.ca.shared.global` →
  // `cp.async`).
  const Feature* find_ptx(std::string_view instruction, const std::optional<model::CudaVersion>& cuda) const;
  const std::vector<Feature>& rows() const { return rows_; }

 private:
  std::vector<Feature> rows_;  // sorted by name
};

std::string_view builtin_feature_tsv();  // generated

}  // namespace cudalint::cuda
