// GB024 disabled-function-called — doc: disabled_function_called.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB024", .name = "disabled-function-called", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A torch.compiler.disable'd function called from a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls `{}`, which is wrapped in torch.compiler.disable, so the graph breaks around the call (Dynamo {}); remove the disable if the function compiles now, or call it outside the compiled region", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb024() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
