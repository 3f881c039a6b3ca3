// GB009 explicit-graph-break — doc: explicit_graph_break.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB009", .name = "explicit-graph-break", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "torch._dynamo.graph_break(), skip_frame(), step_unsupported() or a comptime graph break inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  if (g.registry != "GB0025")
    return fmt::format("`{}` forces a graph break ({}; Dynamo {}); remove it once the code it isolates compiles", g.what, g.detail, g.registry);
  return fmt::format("`{}` forces a graph break (Dynamo GB0025: call to torch._dynamo.graph_break()); remove it once the code it isolates compiles", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb009() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::ExplicitBreak, &message);
}

}  // namespace cudalint::rules
