// BLD003 ninja-disabled — doc: ninja_disabled.md
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD003", .name = "ninja-disabled", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "BuildExtension is configured with use_ninja=False, so extensions compile serially"};

class NinjaDisabled final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.setup_pys)
      if (u.setup.use_ninja && !u.setup.use_ninja->first)
        out.report(kInfo, Origin{u.file->path, u.setup.use_ninja->second},
                   "`use_ninja=False` makes BuildExtension compile every source one after another with the "
                   "distutils backend, ignoring MAX_JOBS; CUDA extensions then take many times longer to build");
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld003() { return std::make_unique<NinjaDisabled>(); }

}  // namespace cudalint::rules
