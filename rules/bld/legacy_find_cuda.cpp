// BLD104 legacy-find-cuda — doc: legacy_find_cuda.md
#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD104", .name = "legacy-find-cuda", .family = "BLD",
    .default_severity = Severity::Info,
    .summary = "The deprecated FindCUDA module is used instead of CMake's CUDA language support"};

class LegacyFindCuda final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& p : model.cmake_projects) {
      // CUDA_NVCC_FLAGS only means something to FindCUDA; projects on the CUDA language often
      // keep their own variable of that name and pass it through target_compile_options.
      bool uses_module = false;
      for (const auto& v : p.facts.legacy_find_cuda) uses_module |= !v.value.starts_with("CUDA_NVCC_FLAGS");
      if (!uses_module) continue;
      for (const auto& v : p.facts.legacy_find_cuda)
        out.report(kInfo, v.origin,
                   fmt::format("`{}` belongs to FindCUDA, deprecated since CMake 3.10 and removed by policy CMP0146 "
                               "in 3.27: use `enable_language(CUDA)` / `find_package(CUDAToolkit)` and "
                               "CMAKE_CUDA_ARCHITECTURES", v.value));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld104() { return std::make_unique<LegacyFindCuda>(); }

}  // namespace cudalint::rules
