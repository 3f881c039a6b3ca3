// ARCH010 cmake-cuda-archs-unset — doc: cmake_cuda_archs_unset.md
#include <algorithm>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH010", .name = "cmake-cuda-archs-unset", .family = "ARCH",
    .default_severity = Severity::Warning,
    .summary = "A CMake project enables CUDA but never chooses the target architectures"};

// Whether a target may compile a CUDA source: a `.cu` file, or sources not all known.
bool compiles_cuda(const cmake::Target& t) {
  if (!t.sources_complete) return true;
  for (const auto& g : t.globs)
    if (g.pattern.ends_with("*") || g.pattern.ends_with(".cu")) return true;
  return std::any_of(t.sources.begin(), t.sources.end(), [](const cmake::TargetSource& s) { return s.path.ends_with(".cu"); });
}

class CmakeCudaArchsUnset final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& p : model.cmake_projects) {
      const auto& f = p.facts;
      if (!f.cuda_language) continue;
      if (!f.cmake_cuda_architectures.empty() || !f.target_cuda_architectures.empty() ||
          !f.cuda_arch_flags.empty() || !f.torch_cuda_arch_list.empty() || f.find_package_torch)
        continue;  // find_package(Torch) selects archs through TORCH_CUDA_ARCH_LIST itself
      // A target that sets its CUDA_ARCHITECTURES (OFF included: the compiler's default, chosen)
      // through a helper function the facts above do not see.
      if (std::any_of(f.targets.begin(), f.targets.end(), [](const cmake::Target& t) {
            return t.cuda_architectures || t.cuda_architectures_unknown;
          }))
        continue;
      // Targets that are all known and compile no CUDA source (C samples of a CUDA library
      // enable the language to link cudart): nvcc compiles nothing, so no arch is missing.
      if (!f.targets.empty() && std::none_of(f.targets.begin(), f.targets.end(), compiles_cuda)) continue;
      std::string msg =
          "CUDA is enabled but CMAKE_CUDA_ARCHITECTURES / CUDA_ARCHITECTURES is never set: CMake (policy "
          "CMP0104) then builds only nvcc's default arch (sm_52 on CUDA 12, sm_75 on CUDA 13), which gives "
          "\"no kernel image is available\" on other GPUs";
      if (f.cuda_default_decided)
        msg += "; the `if` that would set it is false, because enabling CUDA already gave CMAKE_CUDA_ARCHITECTURES "
               "the compiler's default (set it before project(), or unconditionally)";
      auto& d = out.report(kInfo, f.cuda_language->origin, std::move(msg));
      if (f.cuda_default_decided)
        d.related.push_back({f.cuda_default_decided->origin, "never true after CUDA is enabled"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch010() { return std::make_unique<CmakeCudaArchsUnset>(); }

}  // namespace cudalint::rules
