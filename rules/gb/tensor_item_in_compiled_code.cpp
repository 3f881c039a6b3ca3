// GB001 tensor-item-in-compiled-code — doc: tensor_item_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB001", .name = "tensor-item-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor.item() (or int()/float()/bool() of a tensor) inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "builtins.int", A::OneTensor, G::UnlessScalarsCaptured, "GB0124", "int()"},
    {F, "builtins.float", A::OneTensor, G::UnlessScalarsCaptured, "GB0124", "float()"},
    {F, "builtins.bool", A::OneTensor, G::UnlessScalarsCaptured, "GB0124", "bool()"},
    {TM, "item", A::NoPositional, G::UnlessScalarsCaptured, "GB0124", "item"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` copies a tensor value into a Python number inside compiled code, so Dynamo breaks the graph (Dynamo {}: Tensor.item() with capture_scalar_outputs=False); keep it a tensor, or set `torch._dynamo.config.capture_scalar_outputs = True` (TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1)", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb001() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
