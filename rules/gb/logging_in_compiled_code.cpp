// GB005 logging-in-compiled-code — doc: logging_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB005", .name = "logging-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Logger calls inside a torch.compile region break the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Module-level functions, then Logger methods.
    {F, "logging.debug", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.info", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.warning", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.warn", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.error", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.exception", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.critical", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.fatal", A::Any, G::Always, "GB0156", "{}"},
    {F, "logging.log", A::Any, G::Always, "GB0156", "{}"},
    {LM, "debug", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "info", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "warning", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "warn", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "error", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "exception", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "critical", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "fatal", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "log", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "isEnabledFor", A::Any, G::Always, "GB0291", "logging.Logger.{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` logs inside compiled code, which breaks the graph (Dynamo {}); move it out of the compiled function, guard it with `if not torch.compiler.is_compiling():`, or add the method to `torch._dynamo.config.ignore_logging_functions`", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb005() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
