// VER008 toolchain-check-disabled — doc: toolchain_check_disabled.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "VER008", .name = "toolchain-check-disabled", .family = "VER",
    .default_severity = Severity::Warning,
    .summary = "A toolchain compatibility check is switched off"};

class ToolchainCheckDisabled final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles)
      for (const auto& stage : unit.build.stages)
        for (const auto& off : stage.safety_off)
          out.report(kInfo, off.where,
                     fmt::format("`{}` switches off a compatibility check: the mismatch it would have caught "
                                 "surfaces later as a compile error or an `undefined symbol` at import",
                                 off.what));
  }
};

}  // namespace

std::unique_ptr<Rule> make_ver008() { return std::make_unique<ToolchainCheckDisabled>(); }

}  // namespace cudalint::rules
