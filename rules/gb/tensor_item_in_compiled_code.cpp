// GB001 tensor-item-in-compiled-code — doc: tensor_item_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB001", .name = "tensor-item-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor.item() (or int()/float()/bool() of a tensor) inside a torch.compile region breaks the graph"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` copies a tensor value into a Python number inside compiled code, so Dynamo breaks the graph (Dynamo {}: Tensor.item() with capture_scalar_outputs=False); keep it a tensor, or set `torch._dynamo.config.capture_scalar_outputs = True` (TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1)", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb001() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::Item, &message);
}

}  // namespace cudalint::rules
