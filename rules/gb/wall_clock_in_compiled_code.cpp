// GB012 wall-clock-in-compiled-code — doc: wall_clock_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB012", .name = "wall-clock-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Reading the wall clock (time.time(), time.perf_counter(), datetime.now()) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` reads the clock inside compiled code; Dynamo skips `{}` and breaks the graph (Dynamo GB0007: call to a function marked as skipped; newer releases report GB9193); time the compiled function from outside", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb012() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::WallClock, &message);
}

}  // namespace cudalint::rules
