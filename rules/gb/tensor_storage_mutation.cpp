// GB027 tensor-storage-mutation — doc: tensor_storage_mutation.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB027", .name = "tensor-storage-mutation", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A tensor's storage or metadata changed in place inside a torch.compile region (resize_(), set_(storage, ...), in-place views of inputs, `.data =`)"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` changes a tensor's storage or metadata in place ({}; Dynamo {}), which Dynamo cannot trace, so the graph breaks; use the out-of-place form (`reshape`, `unsqueeze`, `t()`, a new tensor) or do it outside the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb027() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::StorageMutation, &message);
}

}  // namespace cudalint::rules
