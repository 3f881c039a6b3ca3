// ARCH007 arch-list-overridden-across-files — doc: arch_list_overridden_across_files.md
#include <algorithm>

#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/python_project.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH007", .name = "arch-list-overridden-across-files", .family = "ARCH",
    .default_severity = Severity::Warning,
    .summary = "setup.py replaces the TORCH_CUDA_ARCH_LIST a Dockerfile sets for the same build"};

// The arch set of a value, PTX included, order and spelling ignored; nullopt for `native`/empty.
std::optional<std::vector<std::string>> arch_set(std::string_view value) {
  domain::ArchList l = domain::parse_torch_arch_list(value, false, 0, {0, 0});
  if (l.kind != domain::ArchListKind::Explicit) return std::nullopt;
  std::vector<std::string> v;
  for (const auto& e : l.entries) v.push_back(e.arch.torch_name() + (e.arch.ptx ? "+PTX" : ""));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

class ArchListOverriddenAcrossFiles final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      const model::SetupPyUnit* setup = project::setup_py_for(model, unit.file->path);
      if (!setup) continue;
      for (const auto& e : setup->setup.env) {
        // setdefault / getenv defaults yield to the Dockerfile's value: no contradiction.
        if (e.var != "TORCH_CUDA_ARCH_LIST" || e.kind != python::EnvSetting::Kind::Assign || e.conditional ||
            !e.value)
          continue;
        auto ours = arch_set(e.value->value);
        // One report per setup.py assignment and Dockerfile: the first build it overrides.
        const model::CompileStep* hit = nullptr;
        for (const auto& stage : unit.build.stages)
          for (const auto& step : stage.compile_steps) {
            if (hit || !step.local_project || !step.arch_list || !step.arch_list->value_known) continue;
            auto theirs = arch_set(step.arch_list->value);
            if (!(ours && theirs && *ours == *theirs)) hit = &step;
          }
        if (hit) {
          const auto& step = *hit;
          auto& d = out.report(
              kInfo, Origin{setup->file->path, e.span},
              fmt::format("setup.py sets TORCH_CUDA_ARCH_LIST to \"{}\", replacing \"{}\" that {} sets for `{}`: "
                          "the image's extension is built for setup.py's list, not the Dockerfile's (use "
                          "`os.environ.setdefault`, or align the two)",
                          e.value->value, step.arch_list->value, unit.file->path, step.command));
          d.related.push_back({step.arch_list->origin, "TORCH_CUDA_ARCH_LIST set here is ignored"});
          d.related.push_back({step.where, "the build that uses setup.py's list"});
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch007() { return std::make_unique<ArchListOverriddenAcrossFiles>(); }

}  // namespace cudalint::rules
