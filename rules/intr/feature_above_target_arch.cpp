// INTR001 feature-above-target-arch — doc: feature_above_target_arch.md
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
    auto bad = [](const cuda::Feature& f, const domain::Arch& a, const model::CudaUnit& u) {
      // Arch-specific features are INTR002's; features newer than the toolkit INTR004's.
      return f.kind != cuda::FeatureKind::Deprecated && !f.arch_specific && f.holds_for(intr::cuda_of(u)) && !f.available_on(a);
    };
    for (const auto& o : intr::offences(model, bad)) {
      const auto& f = *o.use->feature;
      std::string guard = f.only_targets.empty()
                              ? fmt::format("guard it with `#if __CUDA_ARCH__ >= {}0` or drop the arch", f.min_sm)
                              : std::string("guard it or drop the arch");
      auto& d = out.report(kInfo, Origin{intr::use_path(*o.unit, *o.use), {o.use->begin, o.use->end}},
                           fmt::format("{} needs {} but this file is compiled for {}: nvcc rejects it there; {}",
                                       intr::named(*o.use), f.targets_text(), intr::arch_names(o.archs), guard));
      intr::relate_archs(d, o.archs);
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr001() { return std::make_unique<FeatureAboveTargetArch>(); }

}  // namespace cudalint::rules
