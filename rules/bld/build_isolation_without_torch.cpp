// BLD004 build-isolation-without-torch — doc: build_isolation_without_torch.md
#include <algorithm>

#include <fmt/format.h>

#include "rules/python_project.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD004", .name = "build-isolation-without-torch", .family = "BLD",
    .default_severity = Severity::Error,
    .summary = "pip builds a setup.py that imports torch in an isolated environment whose "
               "build-system.requires lacks torch"};

class BuildIsolationWithoutTorch final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      const model::SetupPyUnit* setup = project::setup_py_for(model, unit.file->path);
      if (!setup || !setup->setup.imports_torch) continue;
      const model::PyProjectUnit* pp = project::pyproject_beside(model, setup->file->path);
      // Without a [build-system] table pip may build in the current environment: unknown.
      if (!pp || !pp->project.has_build_system || !pp->project.requires_span) continue;
      const auto& reqs = pp->project.build_requires;
      if (std::any_of(reqs.begin(), reqs.end(), [](const auto& r) { return r.name == "torch"; })) continue;
      for (const auto& stage : unit.build.stages)
        for (const auto& step : stage.compile_steps) {
          if (!step.local_project || !step.isolated_build) continue;
          auto& d = out.report(
              kInfo, step.where,
              fmt::format("`{}` builds {} in an isolated environment that gets only {}'s build-system.requires, "
                          "which has no torch, so `import torch` in setup.py fails with ModuleNotFoundError (add "
                          "`--no-build-isolation`, or torch to build-system.requires)",
                          step.command, setup->file->path, pp->file->path));
          d.related.push_back({{pp->file->path, *pp->project.requires_span}, "build-system.requires without torch"});
        }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld004() { return std::make_unique<BuildIsolationWithoutTorch>(); }

}  // namespace cudalint::rules
