// BLD204 setup-py-overrides-arch-list — doc: setup_py_overrides_arch_list.md
#include "rules/python_project.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD204", .name = "setup-py-overrides-arch-list", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "setup.py assigns TORCH_CUDA_ARCH_LIST unconditionally, overriding the builder's choice"};

// An analysed Dockerfile builds this setup.py with a list of its own: ARCH007 then reports the
// contradiction with both ends, so this rule stays quiet rather than say it twice.
bool built_with_docker_list(const model::ProjectModel& model, const model::SetupPyUnit& u) {
  for (const auto& d : model.dockerfiles) {
    if (project::setup_py_for(model, d.file->path) != &u) continue;
    for (const auto& st : d.build.stages)
      for (const auto& step : st.compile_steps)
        if (step.local_project && step.arch_list && step.arch_list->value_known) return true;
  }
  return false;
}

class SetupPyOverridesArchList final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.setup_pys) {
      if (built_with_docker_list(model, u)) continue;
      for (const auto& e : u.setup.env) {
        if (e.var != "TORCH_CUDA_ARCH_LIST" || e.kind != python::EnvSetting::Kind::Assign || e.conditional) continue;
        out.report(kInfo, Origin{u.file->path, e.span},
                   "setup.py assigns `os.environ[\"TORCH_CUDA_ARCH_LIST\"]` unconditionally, so the arch list a "
                   "Dockerfile or CI sets is silently replaced; use `os.environ.setdefault(...)` to keep a default "
                   "the builder can override");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld204() { return std::make_unique<SetupPyOverridesArchList>(); }

}  // namespace cudalint::rules
