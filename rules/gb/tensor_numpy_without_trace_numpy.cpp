// GB003 tensor-numpy-without-trace-numpy — doc: tensor_numpy_without_trace_numpy.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB003", .name = "tensor-numpy-without-trace-numpy", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor.numpy(), torch.from_numpy() or NumPy calls in compiled code break the graph when the project turns trace_numpy off"};

std::string message(const model::GraphBreak& g) {
  if (g.registry != "GB0105")
    return fmt::format("`{}` calls `{}`, which Dynamo refuses because the project sets `torch._dynamo.config.trace_numpy = False` (Dynamo {}); leave trace_numpy on, or call NumPy outside the compiled function", g.what, g.detail, g.registry);
  return fmt::format("`{}` leaves the graph because the project sets `torch._dynamo.config.trace_numpy = False` (Dynamo GB0105: Tensor.numpy() with trace_numpy=False); leave trace_numpy on, or convert outside the compiled function", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb003() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::NumpyUntraced, &message);
}

}  // namespace cudalint::rules
