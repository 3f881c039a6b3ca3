// GB026 autograd-state-in-compiled-code — doc: autograd_state_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB026", .name = "autograd-state-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Autograd state changed inside a torch.compile region (requires_grad_(), retain_grad(), requires_grad=True factories, nn.Parameter of a new tensor)"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {TM, "requires_grad_", A::NotFalse, G::Always, "GB0125", "`Tensor.requires_grad_()`"},
    {TM, "retain_grad", A::NoPositional, G::Always, "GB0108", "`Tensor.retain_grad()`"},
    {F, "torch.nn.Parameter", A::NoDataOrFresh, G::Always, "GB0264", "`torch.nn.Parameter()` of a tensor made in the function"},
    {F, "torch.nn.parameter.Parameter", A::NoDataOrFresh, G::Always, "GB0264", "`torch.nn.Parameter()` of a tensor made in the function"},
    {F, "torch.*", A::KeywordTrue, G::Always, "GB0225", "`{}(requires_grad=True)`", "requires_grad"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` changes autograd state inside compiled code ({}; Dynamo {}), which Dynamo cannot trace, so the graph breaks; create parameters and set requires_grad outside the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb026() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
