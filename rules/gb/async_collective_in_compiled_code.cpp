// GB025 async-collective-in-compiled-code — doc: async_collective_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB025", .name = "async-collective-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A torch.distributed collective with async_op=True inside a torch.compile region breaks the graph"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` starts an asynchronous collective inside compiled code{}: Dynamo cannot trace the `Work` "
                     "handle and breaks the graph; call it without `async_op=True` (Dynamo traces synchronous "
                     "collectives as functional ones), or use `torch.distributed._functional_collectives`, whose "
                     "results are waited on lazily",
                     g.what, g.registry.empty() ? std::string() : fmt::format(" (Dynamo {})", g.registry));
}

}  // namespace

std::unique_ptr<Rule> make_gb025() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::AsyncCollective, &message);
}

}  // namespace cudalint::rules
