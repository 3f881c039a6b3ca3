// GB005 logging-in-compiled-code — doc: logging_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB005", .name = "logging-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Logger calls inside a torch.compile region break the graph"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` logs inside compiled code, which breaks the graph (Dynamo {}); move it out of the compiled function, guard it with `if not torch.compiler.is_compiling():`, or add the method to `torch._dynamo.config.ignore_logging_functions`", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb005() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::Logging, &message);
}

}  // namespace cudalint::rules
