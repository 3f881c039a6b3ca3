// VER001 cuda-mismatch-torch-wheel — doc: cuda_mismatch_torch_wheel.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "VER001", .name = "cuda-mismatch-torch-wheel", .family = "VER",
    .default_severity = Severity::Error,
    .summary = "The base image's CUDA major version differs from the CUDA variant of the torch wheel an extension compiles against"};

class CudaMismatchTorchWheel final : public Rule {
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
            if (!ti.variant || !ti.variant->cuda || ti.variant->cuda->major == cuda.major) continue;
            auto& d = out.report(
                kInfo, ti.where,
                fmt::format("`{}` installs a torch built for CUDA {}, but {} compiles with CUDA {} {}: "
                            "cpp_extension raises `The detected CUDA version ({}) mismatches the version "
                            "that was used to compile PyTorch ({})`",
                            ti.spec, ti.variant->cuda->str(), stages::stage_label(stage), cuda.str(),
                            stage.installed_cuda ? "installed in the image" : "from the base image", cuda.str(),
                            ti.variant->cuda->str()));
            d.related.push_back({toolkit->origin, stages::toolkit_note(stage, *toolkit)});
            if (ti.variant_origin && !(*ti.variant_origin == ti.where))
              d.related.push_back({*ti.variant_origin, "the torch wheel's CUDA variant comes from this index"});
            d.related.push_back({stage.compile_steps.front().where, "the extension is compiled here"});
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_ver001() { return std::make_unique<CudaMismatchTorchWheel>(); }

}  // namespace cudalint::rules
