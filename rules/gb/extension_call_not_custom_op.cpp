// GB023 extension-call-not-custom-op — doc: extension_call_not_custom_op.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB023", .name = "extension-call-not-custom-op", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Calling the project's own C++/CUDA extension function directly (not as a registered custom op) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls `{}` from the project's C++/CUDA extension; Dynamo cannot trace a pybind11 function and breaks the graph (Dynamo GB0007: call to a function marked as skipped); register it as a custom op (`torch.library.custom_op` with `register_fake`, or TORCH_LIBRARY with a Meta kernel) and call that", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb023() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
