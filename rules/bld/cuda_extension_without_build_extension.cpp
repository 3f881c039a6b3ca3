// BLD202 cuda-extension-without-build-extension — doc: cuda_extension_without_build_extension.md
#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD202", .name = "cuda-extension-without-build-extension", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "A CUDAExtension is built without torch's BuildExtension in cmdclass"};

class CudaExtensionWithoutBuildExtension final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.setup_pys) {
      if (u.setup.uses_build_extension) continue;
      for (const auto& ext : u.setup.extensions) {
        if (ext.kind != "CUDAExtension") continue;
        out.report(kInfo, Origin{u.file->path, ext.call_span},
                   fmt::format("CUDAExtension `{}` is built without `cmdclass={{\"build_ext\": BuildExtension}}`: "
                               "setuptools then does not know how to compile `.cu` files, and none of torch's arch "
                               "flags, `-std=c++17` or version checks are applied",
                               ext.name ? ext.name->value : std::string("?")));
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld202() { return std::make_unique<CudaExtensionWithoutBuildExtension>(); }

}  // namespace cudalint::rules
