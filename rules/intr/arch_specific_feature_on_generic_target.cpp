// INTR002 arch-specific-feature-on-generic-target — doc: arch_specific_feature_on_generic_target.md
#include <fmt/format.h>

#include "rules/intr/intr_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "INTR002", .name = "arch-specific-feature-on-generic-target", .family = "INTR",
    .default_severity = Severity::Error,
    .summary = "an instruction that only exists on arch-specific targets (sm_90a, sm_100a) is compiled "
               "for another target"};

class ArchSpecificFeatureOnGenericTarget final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    auto bad = [](const cuda::Feature& f, const domain::Arch& a, const model::CudaUnit& u) {
      return f.kind != cuda::FeatureKind::Deprecated && f.arch_specific && f.holds_for(intr::cuda_of(u)) && !f.available_on(a);
    };
    for (const auto& o : intr::offences(model, bad)) {
      const auto& f = *o.use->feature;
      // The advice names the first arch-specific target that has it.
      domain::Arch want = f.only_targets.front();
      for (const auto& t : f.only_targets)
        if (t.suffix) {
          want = t;
          break;
        }
      std::string macro = want.suffix == 'f' ? fmt::format("NV_HAS_FEATURE_SM_{}f", want.sm())
                                             : fmt::format("__CUDA_ARCH_FEAT_SM{}_ALL", want.sm());
      auto& d = out.report(
          kInfo, Origin{intr::use_path(*o.unit, *o.use), {o.use->begin, o.use->end}},
          fmt::format("{} exists only on {} but this file is compiled for {}: `#if __CUDA_ARCH__ >= {}0` does not "
                      "make it legal there; guard it with `{}` and build `{}`",
                      intr::named(*o.use), f.targets_text(), intr::arch_names(o.archs), want.sm(), macro,
                      want.torch_name()));
      intr::relate_archs(d, o.archs);
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr002() { return std::make_unique<ArchSpecificFeatureOnGenericTarget>(); }

}  // namespace cudalint::rules
