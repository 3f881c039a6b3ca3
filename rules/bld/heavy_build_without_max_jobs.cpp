// BLD001 heavy-build-without-max-jobs — doc: heavy_build_without_max_jobs.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD001", .name = "heavy-build-without-max-jobs", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "A heavy CUDA extension is built without MAX_JOBS, so ninja may exhaust the build's memory"};

class HeavyBuildWithoutMaxJobs final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles)
      for (const auto& stage : unit.build.stages)
        for (const auto& step : stage.compile_steps) {
          if (!step.known_cuda_package || step.max_jobs) continue;
          out.report(kInfo, step.where,
                     fmt::format("`{}` compiles a large CUDA extension without MAX_JOBS: ninja starts about one "
                                 "nvcc per core, each needing several GB, and `docker build` dies with `Killed` "
                                 "(exit 137); set e.g. `MAX_JOBS=4` for this step",
                                 step.command));
        }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld001() { return std::make_unique<HeavyBuildWithoutMaxJobs>(); }

}  // namespace cudalint::rules
