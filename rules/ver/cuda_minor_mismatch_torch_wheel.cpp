// VER002 cuda-minor-mismatch-torch-wheel — doc: cuda_minor_mismatch_torch_wheel.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "VER002", .name = "cuda-minor-mismatch-torch-wheel", .family = "VER",
    .default_severity = Severity::Info,
    .summary = "The base image's CUDA minor version differs from the torch wheel's CUDA variant"};

class CudaMinorMismatchTorchWheel final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        const auto toolkit = model::effective_cuda(stage);
        if (!toolkit || stage.compile_steps.empty()) continue;
        const auto& cuda = toolkit->value;
        for (const auto* s : stages::stage_chain(unit.build, stage)) {
          for (const auto& ti : s->torch_installs) {
            if (!ti.variant || !ti.variant->cuda) continue;
            const auto& tv = *ti.variant->cuda;
            if (tv.major != cuda.major || tv.minor == cuda.minor) continue;
            auto& d = out.report(kInfo, ti.where,
                                 fmt::format("`{}` installs a torch built for CUDA {}, and {} compiles with CUDA {}: "
                                             "only the minor versions differ, which cpp_extension accepts with a "
                                             "warning", ti.spec, tv.str(), stages::stage_label(stage), cuda.str()));
            d.related.push_back({toolkit->origin, stages::toolkit_note(stage, *toolkit)});
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_ver002() { return std::make_unique<CudaMinorMismatchTorchWheel>(); }

}  // namespace cudalint::rules
