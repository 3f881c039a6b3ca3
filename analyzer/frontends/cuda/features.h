// The device-feature table (data/cuda_features.tsv, embedded at build time): which sm a
// function, type or PTX instruction needs, per toolkit range.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/domain/arch.h"
#include "analyzer/domain/cuda_support.h"

namespace cudalint::cuda {

enum class FeatureKind { Function, Type, Ptx, Deprecated };

struct Feature {
  // `__hmax2`, `atomicAdd(float2*)` (the overload by its first parameter's type),
  // `cuda::ptx::cp_async_bulk`, `nvcuda::wmma::fragment<precision::tf32>`, `cp.async.bulk`
  // (PTX: a dotted prefix), `%clusterid` (a PTX special register).
  std::string name;
  FeatureKind kind = FeatureKind::Function;
  int min_sm = 0;  // 80 for sm_80; for Deprecated: the first sm where it is gone
  // Only these targets have it (arch-specific `a` and family `f` targets, e.g. sm_90a or
  // sm_100a,sm_100f,sm_103a); empty = every target from min_sm on.
  std::vector<domain::Arch> only_targets;
  bool arch_specific = false;  // some listed target is an `a` or `f` target
  std::optional<domain::CudaVersion> cuda_from, cuda_until;  // [from, until) the row holds for
  std::string source;
  int line = 0;  // in the TSV, for messages and tests

  // Whether device code compiled for `target` may use it (Deprecated: whether it is still there).
  bool available_on(const domain::Arch& target) const;
  // Whether this row's toolkit range holds for `cuda` (unknown toolkit: the newest rows).
  bool holds_for(const std::optional<domain::CudaVersion>& cuda) const;
  // "sm_80", "sm_90a", "sm_100a or sm_100f".
  std::string targets_text() const;
};

class FeatureTable {
 public:
  // Parses the TSV; malformed lines are reported in `errors` (`LINE: message`) and skipped.
  static FeatureTable parse(std::string_view tsv, std::vector<std::string>* errors = nullptr);
  // The table built into the binary, parsed on first use and immutable afterwards.
  static const FeatureTable& builtin();

  // The row for `name` whose toolkit range holds for `cuda`; when none does but some row exists,
  // the row with the earliest `cuda_from` (a feature newer than the toolkit, for INTR004).
  const Feature* find(std::string_view name, const std::optional<domain::CudaVersion>& cuda) const;
  // The row for the longest dotted prefix of a PTX instruction or special register that has
  // one (`cp.async.ca.shared.global` → `cp.async`; `%clusterid.x` → `%clusterid`); a `::`
  // sub-qualifier is a step too (`tcgen05.fence::before_thread_sync` → `tcgen05.fence`). Removed
  // PTX forms (`vote.ballot`, kind Deprecated) are found as well.
  const Feature* find_ptx(std::string_view instruction, const std::optional<domain::CudaVersion>& cuda) const;
  // Whether some row names `name(...)`: calls of it are keyed by their first argument's type.
  bool has_overload_rows(std::string_view name) const;
  // Whether `ident` is the last `::` part of some non-PTX row's name (a cheap pre-filter).
  bool names_identifier(std::string_view ident) const;
  const std::vector<Feature>& rows() const { return rows_; }

 private:
  std::vector<Feature> rows_;  // sorted by name (stable: file order within a name)
  std::vector<std::string> idents_;  // sorted, unique
};

std::string_view builtin_feature_tsv();  // generated from data/cuda_features.tsv

}  // namespace cudalint::cuda
