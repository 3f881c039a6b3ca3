// ARCH002 arch-native-in-container-build — doc: arch_native_in_container_build.md
#include <algorithm>

#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH002", .name = "arch-native-in-container-build", .family = "ARCH",
    .default_severity = Severity::Error,
    .summary = "`native` GPU detection is used in a Docker build, where no GPU is visible"};

class ArchNativeInContainerBuild final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        std::vector<Origin> reported;
        for (const auto& step : stage.compile_steps) {
          if (!step.arch_list || !step.arch_list->value_known) continue;
          if (step.arch_list->parsed().kind != domain::ArchListKind::Native) continue;
          const Origin& at = step.arch_list->origin;
          if (std::find(reported.begin(), reported.end(), at) != reported.end()) continue;
          reported.push_back(at);
          auto& d = out.report(kInfo, at,
                               "TORCH_CUDA_ARCH_LIST=native in a Docker build: no GPU is visible during "
                               "`docker build`, so torch treats `native` as unset and fails with "
                               "`IndexError: list index out of range`; list the target archs instead");
          d.related.push_back({step.where, fmt::format("`{}` compiles with it here", step.command)});
        }
        for (const auto& flag : stage.native_arch_flags)
          out.report(kInfo, flag,
                     "`native` arch detection in a Docker build: no GPU is visible during `docker build`, so "
                     "nvcc falls back to its default arch (sm_75 on CUDA 13) and CMake fails to detect one");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch002() { return std::make_unique<ArchNativeInContainerBuild>(); }

}  // namespace cudalint::rules
