// GB014 dynamic-output-shape-op — doc: dynamic_output_shape_op.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB014", .name = "dynamic-output-shape-op", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "An operator whose output shape depends on tensor data (nonzero, unique, masked_select, boolean-mask indexing, one_hot without num_classes) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Not a call pattern: boolean-mask indexing (found by Summarizer::scan, analyzer/frontends/python).
    {F, "torch.nonzero", A::Any, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.unique", A::Any, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.unique_consecutive", A::Any, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.masked_select", A::Any, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.argwhere", A::Any, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.bincount", A::Any, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.where", A::OnlyOnePositional, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.repeat_interleave", A::SecondTensorNoOutputSize, G::UnlessDynamicCaptured, "GB0036", "{}"},
    // Dynamo rejects one_hot without num_classes outright, whatever the capture settings.
    {F, "torch.nn.functional.one_hot", A::NoNumClasses, G::Always, "GB0246", "`{}` without num_classes"},
    {TM, "nonzero", A::NoAsTuple, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "unique", A::NoAsTuple, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "unique_consecutive", A::NoAsTuple, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "masked_select", A::NoAsTuple, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "argwhere", A::NoAsTuple, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "bincount", A::NoAsTuple, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "repeat_interleave", A::FirstTensorNoOutputSize, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
};

std::string message(const model::GraphBreak& g) {
  if (g.registry == "GB0246")
    return fmt::format("`{}` calls {}, whose output width is the data's maximum (Dynamo GB0246), so Dynamo breaks the graph whatever the capture settings; pass num_classes", g.what, g.detail);
  return fmt::format("`{}` has an output shape that depends on tensor data (Dynamo GB0036: dynamic shape operator), so Dynamo breaks the graph; use a fixed-size form (`torch.where(mask, x, 0)`, `masked_fill`, `nonzero_static`), or set `torch._dynamo.config.capture_dynamic_output_shape_ops = True`", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb014() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
