// GB015 unsupported-builtin-call — doc: unsupported_builtin_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB015", .name = "unsupported-builtin-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A builtin or standard-library call Dynamo cannot trace (open, eval, exec, globals, input, vars(), id() of a new tensor, sorted() over tensors, contextlib.closing, ...) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  if (g.registry != "GB0059")
    return fmt::format("`{}` uses {}, which Dynamo cannot trace (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
  return fmt::format("`{}` calls the builtin `{}()`, which Dynamo cannot trace (Dynamo GB0059: failed to trace builtin operator); move it out of the compiled function", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb015() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::UnsupportedBuiltin, &message);
}

}  // namespace cudalint::rules
