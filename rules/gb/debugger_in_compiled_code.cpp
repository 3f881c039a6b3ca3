// GB010 debugger-in-compiled-code — doc: debugger_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB010", .name = "debugger-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "breakpoint() or pdb.set_trace() inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "builtins.breakpoint", A::Any, G::Always, "GB0059", "breakpoint"},
    {F, "pdb.set_trace", A::Any, G::Always, "GB0007", "{}"},
    {F, "ipdb.set_trace", A::Any, G::Always, "GB0007", "{}"},
    {F, "pdb.post_mortem", A::Any, G::Always, "GB0007", "{}"},
    {F, "pudb.set_trace", A::Any, G::Always, "GB0007", "{}"},
    {F, "ipdb.post_mortem", A::Any, G::Always, "GB0007", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` stops in the debugger inside compiled code, which Dynamo cannot trace (Dynamo {}); remove it, or debug with `torch.compiler.set_stance(\"force_eager\")`", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb010() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
