// GB020 rng-state-in-compiled-code — doc: rng_state_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB020", .name = "rng-state-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Seeding or creating an RNG (torch.manual_seed, torch.Generator) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "torch.manual_seed", A::Any, G::Always, "GB0007", "{}"},
    {F, "torch.random.manual_seed", A::Any, G::Always, "GB0007", "{}"},
    {F, "torch.seed", A::Any, G::Always, "GB0007", "{}"},
    {F, "torch.Generator", A::Any, G::Always, "GB0007", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` changes or creates RNG state inside compiled code; Dynamo skips `{}` and breaks the graph (Dynamo GB0007); seed outside the compiled function, or pass the random tensors in", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb020() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
