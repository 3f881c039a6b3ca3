// GB016 tensor-to-string — doc: tensor_to_string.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB016", .name = "tensor-to-string", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "str()/repr()/f-string formatting of a tensor inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` formats a tensor as text inside compiled code (Dynamo {}), which breaks the graph; format `.shape` or `.dtype` instead, or build the text outside the compiled function", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb016() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::TensorToString, &message);
}

}  // namespace cudalint::rules
