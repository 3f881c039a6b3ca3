// GB018 class-defined-in-compiled-code — doc: class_defined_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB018", .name = "class-defined-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A class statement inside a torch.compile region breaks the graph"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("class `{}` is defined inside compiled code; Dynamo does not trace class creation and breaks the graph (Dynamo GB0007 in torch 2.11; Dynamo registry GB0075: LOAD_BUILD_CLASS); define the class at module level", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb018() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
