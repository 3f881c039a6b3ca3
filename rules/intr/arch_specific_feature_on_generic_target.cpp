// INTR002 arch-specific-feature-on-generic-target — doc: arch_specific_feature_on_generic_target.md
#include <algorithm>

#include <fmt/format.h>

#include "rules/intr/intr_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "INTR002", .name = "arch-specific-feature-on-generic-target", .family = "INTR",
    .default_severity = Severity::Error,
    .summary = "an instruction that only exists on an arch-specific target (sm_90a, sm_100a) is compiled "
               "for a generic target"};

class ArchSpecificFeatureOnGenericTarget final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    if (model.device_targets.empty()) return;
    for (const auto& u : model.cuda_units) {
      auto bad = [](const cuda::Feature& f, const model::Arch& a) {
        return f.arch_specific && !(a.suffix == 'a' && a.sm() >= f.min_sm);
      };
      for (const auto& o : intr::offences(model, u, bad)) {
        if (o.archs.empty()) continue;
        const auto& f = *o.use->feature;
        auto& d = out.report(
            kInfo, Origin{u.file->path, {o.use->begin, o.use->end}},
            fmt::format("`{}` exists only on the arch-specific target sm_{}a, but this code is compiled for {}: "
                        "`#if __CUDA_ARCH__ >= {}0` does not make it legal there; guard it with "
                        "`__CUDA_ARCH_FEAT_SM{}_ALL` and build `{}a`",
                        o.use->spelled, f.min_sm, intr::arch_names(o.archs), f.min_sm, f.min_sm,
                        model::Arch{f.min_sm / 10, f.min_sm % 10}.torch_name()));
        d.related.push_back({o.archs.front()->origin, fmt::format("{} comes from here", o.archs.front()->arch.sm_name())});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr002() { return std::make_unique<ArchSpecificFeatureOnGenericTarget>(); }

}  // namespace cudalint::rules
