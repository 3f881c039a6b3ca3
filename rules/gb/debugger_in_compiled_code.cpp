// GB010 debugger-in-compiled-code — doc: debugger_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB010", .name = "debugger-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "breakpoint() or pdb.set_trace() inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` stops in the debugger inside compiled code, which Dynamo cannot trace (Dynamo {}); remove it, or debug with `torch.compiler.set_stance(\"force_eager\")`", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb010() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::Debugger, &message);
}

}  // namespace cudalint::rules
