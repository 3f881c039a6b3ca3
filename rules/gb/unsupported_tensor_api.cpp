// GB019 unsupported-tensor-api — doc: unsupported_tensor_api.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB019", .name = "unsupported-tensor-api", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor APIs Dynamo rejects (grad_fn, is_inference(), random_(), share_memory_(), uniform_(**{'from': ...})) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Not a call pattern: `grad_fn` (found by Summarizer::scan, analyzer/frontends/python).
    {TM, "is_inference", A::NoPositional, G::Always, "GB0045", "is_inference()"},
    {TM, "random_", A::Any, G::Always, "GB0107", "random_()"},
    {TM, "share_memory_", A::Any, G::Always, "GB0117", "share_memory_()"},
    {TM, "uniform_", A::FromInSplat, G::Always, "GB0110", "uniform_() with a `from` keyword"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` uses `{}`, which Dynamo does not support on traced tensors (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb019() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
