// BLD205 debug-flags-in-release — doc: debug_flags_in_release.md
#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD205", .name = "debug-flags-in-release", .family = "BLD",
    .default_severity = Severity::Info,
    .summary = "Device-debug or no-optimisation nvcc flags in a setup.py extension"};

class DebugFlagsInRelease final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.setup_pys)
      for (const auto& ext : u.setup.extensions) {
        // An incomplete list may hold alternatives (a helper returning `-G` only for a debug
        // build type): only flags that are certainly passed are reported.
        if (!ext.nvcc_args.complete) continue;
        for (const auto& a : ext.nvcc_args.items) {
          if (a.value != "-G" && a.value != "--device-debug" && a.value != "-O0") continue;
          out.report(kInfo, Origin{u.file->path, a.span},
                     fmt::format("nvcc flag `{}` in the extension's build: {} and makes kernels many times "
                                 "slower; keep it to debug builds",
                                 a.value, a.value == "-O0" ? "it turns off host and device optimisation"
                                                           : "device debug info turns off device optimisation"));
        }
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld205() { return std::make_unique<DebugFlagsInRelease>(); }

}  // namespace cudalint::rules
