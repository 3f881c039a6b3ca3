// GB014 dynamic-output-shape-op — doc: dynamic_output_shape_op.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB014", .name = "dynamic-output-shape-op", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "An operator whose output shape depends on tensor data (nonzero, unique, masked_select, boolean-mask indexing, one_hot without num_classes) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  if (g.registry == "GB0246")
    return fmt::format("`{}` calls {}, whose output width is the data's maximum (Dynamo GB0246), so Dynamo breaks the graph whatever the capture settings; pass num_classes", g.what, g.detail);
  return fmt::format("`{}` has an output shape that depends on tensor data (Dynamo GB0036: dynamic shape operator), so Dynamo breaks the graph; use a fixed-size form (`torch.where(mask, x, 0)`, `masked_fill`, `nonzero_static`), or set `torch._dynamo.config.capture_dynamic_output_shape_ops = True`", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb014() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::DynamicShape, &message);
}

}  // namespace cudalint::rules
