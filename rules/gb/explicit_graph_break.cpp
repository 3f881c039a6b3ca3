// GB009 explicit-graph-break — doc: explicit_graph_break.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB009", .name = "explicit-graph-break", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "torch._dynamo.graph_break(), skip_frame(), step_unsupported() or a comptime graph break inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "torch._dynamo.graph_break", A::Any, G::Always, "GB0025", ""},
    {F, "torch._dynamo.skip_frame", A::Any, G::Always, "GB4297", "`{}()`"},
    {F, "torch._dynamo.step_unsupported", A::Any, G::Always, "GB0284", "`{}()`"},
    {F, "torch._dynamo.comptime.comptime", A::GraphBreakCallback, G::Always, "GB0030", "a `comptime` callback calling `graph_break()`"},
};

std::string message(const model::GraphBreak& g) {
  if (g.registry != "GB0025")
    return fmt::format("`{}` forces a graph break ({}; Dynamo {}); remove it once the code it isolates compiles", g.what, g.detail, g.registry);
  return fmt::format("`{}` forces a graph break (Dynamo GB0025: call to torch._dynamo.graph_break()); remove it once the code it isolates compiles", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb009() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
