// GB017 backward-in-compiled-code — doc: backward_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB017", .name = "backward-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor.backward() or torch.autograd.grad() inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {TM, "backward", A::Any, G::UnlessAutogradTraced, "GB0123", ""},
    {F, "torch.autograd.grad", A::Any, G::UnlessAutogradTraced, "GB9186", "{}"},
};

std::string message(const model::GraphBreak& g) {
  if (g.registry == "GB9186")
    return fmt::format("`{}` runs autograd inside compiled code (Dynamo GB9186: torch.autograd.grad with trace_autograd_ops=False), which breaks the graph; compute gradients outside the compiled function, or set `torch._dynamo.config.trace_autograd_ops = True`", g.what);
  return fmt::format("`{}` runs autograd inside compiled code (Dynamo GB0123: unsupported Tensor.backward() call), which breaks the graph; compile the forward and loss, and call backward() on the result outside the compiled function", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb017() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
