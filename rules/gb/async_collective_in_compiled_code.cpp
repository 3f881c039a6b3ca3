// GB025 async-collective-in-compiled-code — doc: async_collective_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB025", .name = "async-collective-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A torch.distributed collective with async_op=True inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // A collective that returns a Work handle; Dynamo traces only
    // synchronous ones (rewritten to functional collectives). The ids are the ones measured
    // on torch 2.11 (tests/oracle/gb/corpus/gb_collectives.py), none for the others.
    {F, "torch.distributed.all_reduce", A::AsyncOp, G::Always, "GB0172", "{}"},
    {F, "torch.distributed.all_to_all_single", A::AsyncOp, G::Always, "GB0172", "{}"},
    {F, "torch.distributed.broadcast", A::AsyncOp, G::Always, "GB0007", "{}"},
    {F, "torch.distributed.*", A::AsyncOp, G::Always, "", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` starts an asynchronous collective inside compiled code{}: Dynamo cannot trace the `Work` "
                     "handle and breaks the graph; call it without `async_op=True` (Dynamo traces synchronous "
                     "collectives as functional ones), or use `torch.distributed._functional_collectives`, whose "
                     "results are waited on lazily",
                     g.what, g.registry.empty() ? std::string() : fmt::format(" (Dynamo {})", g.registry));
}

}  // namespace

std::unique_ptr<Rule> make_gb025() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
