// VER005 runtime-image-compiles — doc: runtime_image_compiles.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "VER005", .name = "runtime-image-compiles", .family = "VER",
    .default_severity = Severity::Error,
    .summary = "CUDA code is compiled in a stage based on a runtime or base CUDA image, which has no nvcc"};

class RuntimeImageCompiles final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        if (stage.flavour != model::ImageFlavour::Runtime && stage.flavour != model::ImageFlavour::Base) continue;
        // A stage (or its parents) that installs a toolkit or sets CUDA_HOME has nvcc after all.
        bool toolkit = false;
        for (const auto* s : stages::stage_chain(unit.build, stage)) toolkit |= s->installs_toolkit.has_value();
        if (toolkit) continue;
        const char* flavour = stage.flavour == model::ImageFlavour::Runtime ? "runtime" : "base";
        for (const auto& step : stage.compile_steps) {
          if (!stages::compiles_cuda(model, step)) continue;
          auto& d = out.report(kInfo, step.where,
                               fmt::format("`{}` compiles CUDA code in {}, whose base is a `-{}` CUDA image without "
                                           "nvcc: the build fails with `No such file or directory: "
                                           "'/usr/local/cuda/bin/nvcc'`; use the `-devel` image for this stage",
                                           step.command, stages::stage_label(stage), flavour));
          d.related.push_back({stage.from, fmt::format("the `-{}` image", flavour)});
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_ver005() { return std::make_unique<RuntimeImageCompiles>(); }

}  // namespace cudalint::rules
