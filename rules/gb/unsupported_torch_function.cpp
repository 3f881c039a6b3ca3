// GB029 unsupported-torch-function — doc: unsupported_torch_function.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB029", .name = "unsupported-torch-function", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A torch function or form Dynamo rejects (sparse tensors, strided nested tensors, use_deterministic_algorithms(warn_only=True), torch.compile(backend=...)) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` uses {}, which Dynamo does not support inside compiled code (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb029() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::TorchFunction, &message);
}

}  // namespace cudalint::rules
