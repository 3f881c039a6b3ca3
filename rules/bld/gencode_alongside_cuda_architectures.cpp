// BLD105 gencode-alongside-cuda-architectures — doc: gencode_alongside_cuda_architectures.md
#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD105", .name = "gencode-alongside-cuda-architectures", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "Hard-coded -gencode/-arch flags next to CMAKE_CUDA_ARCHITECTURES: two sources of truth"};

class GencodeAlongsideCudaArchitectures final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& p : model.cmake_projects) {
      const auto& f = p.facts;
      const cmake::Value* archs = !f.cmake_cuda_architectures.empty() ? &f.cmake_cuda_architectures.front()
                                  : !f.target_cuda_architectures.empty() ? &f.target_cuda_architectures.front().value
                                                                          : nullptr;
      if (!archs) continue;
      for (const auto& flag : f.cuda_arch_flags) {
        auto& d = out.report(kInfo, flag.origin,
                             fmt::format("`{}` is passed to nvcc in addition to CUDA_ARCHITECTURES `{}`: nvcc builds "
                                         "both sets, and changing one of them no longer changes what is built",
                                         flag.value, archs->value));
        d.related.push_back({archs->origin, "CUDA_ARCHITECTURES is set here"});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld105() { return std::make_unique<GencodeAlongsideCudaArchitectures>(); }

}  // namespace cudalint::rules
