// GB007 data-dependent-branch — doc: data_dependent_branch.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB007", .name = "data-dependent-branch", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "An if/while/conditional expression on a tensor value inside a torch.compile region breaks the graph"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("the branch on `{}` depends on tensor data, so Dynamo breaks the graph to evaluate it (Dynamo GB0170: data-dependent branching); express it with `torch.where` or `torch.cond`, or state the fact with `torch._check`", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb007() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
