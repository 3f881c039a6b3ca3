// VER003 torch-unpinned-while-compiling — doc: torch_unpinned_while_compiling.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "VER003", .name = "torch-unpinned-while-compiling", .family = "VER",
    .default_severity = Severity::Warning,
    .summary = "torch is installed without an exact version in a stage that compiles an extension against it"};

class TorchUnpinnedWhileCompiling final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        bool compiles = false;
        for (const auto& step : stage.compile_steps) compiles |= stages::compiles_cuda(model, step);
        if (!compiles) continue;
        for (const auto& ti : stage.torch_installs) {
          if (ti.pinned) continue;
          auto& d = out.report(kInfo, ti.where,
                               fmt::format("`{}` does not pin torch, but {} compiles an extension against it: the "
                                           "next torch release changes the ABI and CUDA variant the extension is "
                                           "built for (pin it, e.g. `torch==2.5.1`)",
                                           ti.spec, stages::stage_label(stage)));
          d.related.push_back({stage.compile_steps.front().where, "the extension is compiled here"});
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_ver003() { return std::make_unique<TorchUnpinnedWhileCompiling>(); }

}  // namespace cudalint::rules
