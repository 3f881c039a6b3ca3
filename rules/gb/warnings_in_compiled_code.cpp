// GB006 warnings-in-compiled-code — doc: warnings_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB006", .name = "warnings-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "warnings.warn() inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "warnings.warn", A::Any, G::Always, "GB0007", "{}"},
    {F, "warnings.warn_explicit", A::Any, G::Always, "GB0007", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` is a `warnings` call, which Dynamo skips, breaking the graph (Dynamo GB0007: call to a function marked as skipped); warn outside the compiled function or under `if not torch.compiler.is_compiling():`", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb006() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
