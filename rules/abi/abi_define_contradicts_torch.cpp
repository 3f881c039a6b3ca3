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
      for (const auto& pin : model.torch_pins) {
        auto abi = domain::torch_wheel_abi(pin.version, pin.cuda_variant);
        if (!abi || *abi == def.value) continue;
        auto& d = out.report(kInfo, def.origin,
                             fmt::format("`_GLIBCXX_USE_CXX11_ABI={}` but torch {} wheels use ABI {}: the "
                                         "extension builds and then fails at import with `undefined symbol: "
                                         "_ZN3c10...`", def.value, pin.version.str(), *abi));
        d.related.push_back({pin.origin, fmt::format("torch {} is pinned here", pin.version.str())});
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_abi001() { return std::make_unique<AbiDefineContradictsTorch>(); }

}  // namespace cudalint::rules
