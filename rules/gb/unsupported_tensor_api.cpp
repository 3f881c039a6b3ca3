// GB019 unsupported-tensor-api — doc: unsupported_tensor_api.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB019", .name = "unsupported-tensor-api", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Tensor APIs Dynamo rejects (grad_fn, is_inference(), random_(), share_memory_(), uniform_(**{'from': ...})) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` uses `{}`, which Dynamo does not support on traced tensors (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb019() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::TensorApi, &message);
}

}  // namespace cudalint::rules
