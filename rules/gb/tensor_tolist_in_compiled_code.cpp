// GB002 tensor-tolist-in-compiled-code — doc: tensor_tolist_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB002", .name = "tensor-tolist-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor.tolist() inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {TM, "tolist", A::NoPositional, G::UnlessScalarsCaptured, "GB0033", "tolist"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` converts a tensor to a Python list inside compiled code, so Dynamo breaks the graph (Dynamo GB0033 for integer tensors without capture_scalar_outputs, Dynamo GB0109 for floating-point ones); keep the values in a tensor, or convert outside the compiled function", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb002() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
