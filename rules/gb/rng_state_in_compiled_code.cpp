// GB020 rng-state-in-compiled-code — doc: rng_state_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB020", .name = "rng-state-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Seeding or creating an RNG (torch.manual_seed, torch.Generator) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` changes or creates RNG state inside compiled code; Dynamo skips `{}` and breaks the graph (Dynamo GB0007); seed outside the compiled function, or pass the random tensors in", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb020() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::RngState, &message);
}

}  // namespace cudalint::rules
