// ABI004 mixed-abi-values — doc: mixed_abi_values.md
#include <fmt/format.h>

#include "rules/abi/abi_defines.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ABI004", .name = "mixed-abi-values", .family = "ABI",
    .default_severity = Severity::Warning,
    .summary = "Targets or extensions of one project set different `_GLIBCXX_USE_CXX11_ABI` values"};

class MixedAbiValues final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    auto defs = abi::all_abi_defines(model);
    if (defs.empty()) return;
    const abi::AbiDefine& first = defs.front();
    for (const auto& d : defs) {
      if (d.value == first.value) continue;
      auto& diag = out.report(kInfo, d.origin,
                              fmt::format("{} sets `_GLIBCXX_USE_CXX11_ABI={}` while {} sets {}: objects built "
                                          "with different ABIs cannot pass std::string or std::list between them",
                                          d.where, d.value, first.where, first.value));
      diag.related.push_back({first.origin, fmt::format("ABI {} is set here", first.value)});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_abi004() { return std::make_unique<MixedAbiValues>(); }

}  // namespace cudalint::rules
