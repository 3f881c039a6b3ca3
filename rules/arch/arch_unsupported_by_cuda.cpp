// ARCH003 arch-unsupported-by-cuda — doc: arch_unsupported_by_cuda.md
#include <fmt/format.h>

#include "analyzer/domain/cuda_support.h"
#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH003", .name = "arch-unsupported-by-cuda", .family = "ARCH",
    .default_severity = Severity::Error,
    .summary = "A target architecture cannot be built by the build's CUDA toolkit"};

class ArchUnsupportedByCuda final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        if (!stage.cuda) continue;  // unknown toolkit: stay silent
        const domain::CudaVersion& cuda = stage.cuda->value;
        for (const model::ArchSetting* s : stages::arch_settings_of(stage)) {
          if (!s->value_known) continue;
          for (const auto& e : s->parsed().entries) {
            auto sup = domain::cuda_supports(cuda, e.arch);
            if (sup.verdict != domain::Support::Unsupported) continue;
            auto& d = out.report(kInfo, Origin{s->origin.path, e.span},
                                 fmt::format("{} is not supported by CUDA {} ({}; supported: {}): nvcc fails "
                                             "with `Unsupported gpu architecture 'compute_{}'`",
                                             e.arch.sm_name(), cuda.str(), sup.reason,
                                             domain::supported_range(cuda), e.arch.sm()));
            d.related.push_back({stage.cuda->origin, fmt::format("CUDA {} comes from this base image", cuda.str())});
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch003() { return std::make_unique<ArchUnsupportedByCuda>(); }

}  // namespace cudalint::rules
