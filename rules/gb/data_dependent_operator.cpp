// GB008 data-dependent-operator — doc: data_dependent_operator.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB008", .name = "data-dependent-operator", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "torch.equal / torch.allclose, or a shape indexed by a tensor, inside a torch.compile region break the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "torch.equal", A::Any, G::Always, "GB0033", "{}"},
    {F, "torch.allclose", A::Any, G::Always, "GB0033", "{}"},
    {TM, "equal", A::TensorReceiver, G::Always, "GB0033", "Tensor.{}"},
    {TM, "allclose", A::Any, G::Always, "GB0033", "Tensor.{}"},
};

std::string message(const model::GraphBreak& g) {
  if (g.registry == "GB7596")
    return fmt::format("`{}` indexes a shape with a tensor, which needs a Python int out of tensor data (Dynamo GB7596), so Dynamo breaks the graph; index with a Python int, or keep the computation in tensors", g.what);
  return fmt::format("`{}` returns a Python bool computed from tensor data, so Dynamo breaks the graph (Dynamo GB0033: data dependent operator); compare as tensors (`torch.eq(a, b).all()`, `torch.isclose(a, b).all()`) and keep the result a tensor", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb008() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
