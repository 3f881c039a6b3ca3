// GB015 unsupported-builtin-call — doc: unsupported_builtin_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB015", .name = "unsupported-builtin-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A builtin Dynamo cannot trace (open, eval, exec, globals, input) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls the builtin `{}()`, which Dynamo cannot trace (Dynamo GB0059: failed to trace builtin operator); move it out of the compiled function", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb015() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::UnsupportedBuiltin, &message);
}

}  // namespace cudalint::rules
