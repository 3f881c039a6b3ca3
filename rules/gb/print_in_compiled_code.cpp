// GB004 print-in-compiled-code — doc: print_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB004", .name = "print-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "print() or sys.stdout.write() inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "builtins.print", A::Any, G::Always, "GB0059", "print"},
    {F, "sys.stdout.write", A::Any, G::Always, "GB0156", "{}"},
    {F, "sys.stderr.write", A::Any, G::Always, "GB0156", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` writes output inside compiled code, which Dynamo cannot put in a graph (Dynamo {}); move it out of the compiled function, guard it with `if not torch.compiler.is_compiling():`, or list the function in `torch._dynamo.config.reorderable_logging_functions`", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb004() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
