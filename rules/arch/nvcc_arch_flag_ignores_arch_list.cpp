// ARCH008 nvcc-arch-flag-ignores-arch-list — doc: nvcc_arch_flag_ignores_arch_list.md
#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH008", .name = "nvcc-arch-flag-ignores-arch-list", .family = "ARCH",
    .default_severity = Severity::Warning,
    .summary = "An nvcc flag containing `arch` makes torch's cpp_extension ignore TORCH_CUDA_ARCH_LIST"};

class NvccArchFlagIgnoresArchList final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    // Where the ignored list is set, for the related location.
    std::optional<Origin> env_list;
    for (const auto& u : model.dockerfiles)
      for (const auto& st : u.build.stages)
        if (!env_list && !st.arch_settings.empty()) env_list = st.arch_settings.front().origin;
    for (const auto& u : model.setup_pys) {
      if (!u.setup.uses_build_extension) continue;  // only BuildExtension applies the list
      for (const auto& ext : u.setup.extensions) {
        for (const auto& a : ext.nvcc_args.items) {
          // cpp_extension skips flags naming TORCH_EXTENSION_NAME; any other `arch` substring counts.
          if (a.value.find("arch") == std::string::npos || a.value.find("TORCH_EXTENSION_NAME") != std::string::npos)
            continue;
          auto& d = out.report(kInfo, Origin{u.file->path, a.span},
                               fmt::format("nvcc flag `{}` contains `arch`, so torch's cpp_extension drops "
                                           "TORCH_CUDA_ARCH_LIST entirely and builds only the archs named in the "
                                           "flags", a.value));
          if (env_list) d.related.push_back({*env_list, "this TORCH_CUDA_ARCH_LIST is ignored"});
          break;  // one report per extension
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch008() { return std::make_unique<NvccArchFlagIgnoresArchList>(); }

}  // namespace cudalint::rules
