// INTR003 deprecated-warp-intrinsic — doc: deprecated_warp_intrinsic.md
#include <fmt/format.h>

#include "rules/intr/intr_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "INTR003", .name = "deprecated-warp-intrinsic", .family = "INTR",
    .default_severity = Severity::Warning,
    .summary = "a warp shuffle or vote without `_sync` (removed from sm_70 on)"};

class DeprecatedWarpIntrinsic final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units) {
      // Checked for every parsed arch, known or the default one.
      std::vector<std::pair<uint32_t, const cuda::FeatureUse*>> seen;
      for (const auto& ar : u.per_arch)
        for (const auto& use : ar.uses) {
          if (use.feature->kind != cuda::FeatureKind::Deprecated || ar.arch.sm() < use.feature->min_sm) continue;
          if (std::any_of(seen.begin(), seen.end(), [&](const auto& s) { return s.first == use.begin; })) continue;
          seen.emplace_back(use.begin, &use);
          out.report(kInfo, Origin{u.file->path, {use.begin, use.end}},
                     fmt::format("`{}` has no mask and assumes the whole warp runs in lockstep, which is not true "
                                 "from sm_70 on (independent thread scheduling); nvcc 13 only accepts it for "
                                 "compute_60 and older: use `{}_sync(0xffffffff, ...)`",
                                 use.spelled, use.spelled));
        }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr003() { return std::make_unique<DeprecatedWarpIntrinsic>(); }

}  // namespace cudalint::rules
