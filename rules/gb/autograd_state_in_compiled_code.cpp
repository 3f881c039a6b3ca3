// GB026 autograd-state-in-compiled-code — doc: autograd_state_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB026", .name = "autograd-state-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Autograd state changed inside a torch.compile region (requires_grad_(), retain_grad(), requires_grad=True factories, nn.Parameter of a new tensor)"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` changes autograd state inside compiled code ({}; Dynamo {}), which Dynamo cannot trace, so the graph breaks; create parameters and set requires_grad outside the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb026() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::AutogradState, &message);
}

}  // namespace cudalint::rules
