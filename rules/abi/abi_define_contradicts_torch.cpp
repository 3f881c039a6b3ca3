// ABI001 abi-define-contradicts-torch — doc: abi_define_contradicts_torch.md
#include <fmt/format.h>

#include "rules/abi/abi_defines.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ABI001", .name = "abi-define-contradicts-torch", .family = "ABI",
    .default_severity = Severity::Error,
    .summary = "A `_GLIBCXX_USE_CXX11_ABI` value contradicts the ABI of the torch the project pins"};

class AbiDefineContradictsTorch final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& def : abi::all_abi_defines(model)) {
      // Only the torch of a build that compiles this define's target judges it.
      for (const auto& b : abi::torches_building(model.graph, def)) {
        auto abi = domain::torch_wheel_abi(b.torch.value, b.cuda_variant);
        if (!abi || *abi == def.value) continue;
        auto& d = out.report(kInfo, def.origin,
                             fmt::format("`_GLIBCXX_USE_CXX11_ABI={}` but torch {} wheels use ABI {}: the "
                                         "extension builds and then fails at import with `undefined symbol: "
                                         "_ZN3c10...`", def.value, b.torch.value.str(), *abi));
        d.related.push_back({b.torch.origin, fmt::format("torch {} is installed for this build here", b.torch.value.str())});
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_abi001() { return std::make_unique<AbiDefineContradictsTorch>(); }

}  // namespace cudalint::rules
