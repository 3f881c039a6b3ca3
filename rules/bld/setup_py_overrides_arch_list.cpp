// BLD204 setup-py-overrides-arch-list — doc: setup_py_overrides_arch_list.md
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD204", .name = "setup-py-overrides-arch-list", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "setup.py assigns TORCH_CUDA_ARCH_LIST unconditionally, overriding the builder's choice"};

class SetupPyOverridesArchList final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.setup_pys)
      for (const auto& e : u.setup.env) {
        if (e.var != "TORCH_CUDA_ARCH_LIST" || e.kind != python::EnvSetting::Kind::Assign || e.conditional) continue;
        out.report(kInfo, Origin{u.file->path, e.span},
                   "setup.py assigns `os.environ[\"TORCH_CUDA_ARCH_LIST\"]` unconditionally, so the arch list a "
                   "Dockerfile or CI sets is silently replaced; use `os.environ.setdefault(...)` to keep a default "
                   "the builder can override");
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld204() { return std::make_unique<SetupPyOverridesArchList>(); }

}  // namespace cudalint::rules
