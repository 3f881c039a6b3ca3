// INTR001 feature-above-target-arch — doc: feature_above_target_arch.md
#include <algorithm>

#include <fmt/format.h>

#include "rules/intr/intr_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "INTR001", .name = "feature-above-target-arch", .family = "INTR",
    .default_severity = Severity::Error,
    .summary = "device code uses an intrinsic, type or PTX instruction that a target arch does not have"};

class FeatureAboveTargetArch final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    if (model.device_targets.empty()) return;  // archs unknown: nothing to compare against
    for (const auto& u : model.cuda_units) {
      auto bad = [](const cuda::Feature& f, const model::Arch& a) {
        return f.kind != cuda::FeatureKind::Deprecated && !f.arch_specific && a.sm() < f.min_sm;
      };
      for (const auto& o : intr::offences(model, u, bad)) {
        if (o.archs.empty()) continue;
        const auto& f = *o.use->feature;
        auto& d = out.report(kInfo, Origin{u.file->path, {o.use->begin, o.use->end}},
                             fmt::format("`{}` needs sm_{} but this code is compiled for {}: nvcc rejects it there "
                                         "(guard it with `#if __CUDA_ARCH__ >= {}0` or drop the arch)",
                                         o.use->spelled, f.min_sm, intr::arch_names(o.archs), f.min_sm));
        d.related.push_back({o.archs.front()->origin, fmt::format("{} comes from here", o.archs.front()->arch.sm_name())});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr001() { return std::make_unique<FeatureAboveTargetArch>(); }

}  // namespace cudalint::rules
