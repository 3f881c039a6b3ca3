// GB003 tensor-numpy-without-trace-numpy — doc: tensor_numpy_without_trace_numpy.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB003", .name = "tensor-numpy-without-trace-numpy", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor.numpy(), torch.from_numpy() or NumPy calls in compiled code break the graph when the project turns trace_numpy off"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {TM, "numpy", A::NoPositional, G::OnlyNumpyUntraced, "GB0105", "numpy"},
    {F, "torch.from_numpy", A::Any, G::OnlyNumpyUntraced, "GB0231", "{}"},
    {F, "numpy.*", A::Any, G::OnlyNumpyUntraced, "GB0293", "{}"},
};

std::string message(const model::GraphBreak& g) {
  if (g.registry != "GB0105")
    return fmt::format("`{}` calls `{}`, which Dynamo refuses because the project sets `torch._dynamo.config.trace_numpy = False` (Dynamo {}); leave trace_numpy on, or call NumPy outside the compiled function", g.what, g.detail, g.registry);
  return fmt::format("`{}` leaves the graph because the project sets `torch._dynamo.config.trace_numpy = False` (Dynamo GB0105: Tensor.numpy() with trace_numpy=False); leave trace_numpy on, or convert outside the compiled function", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb003() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
