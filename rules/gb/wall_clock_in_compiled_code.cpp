// GB012 wall-clock-in-compiled-code — doc: wall_clock_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB012", .name = "wall-clock-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Reading the wall clock (time.time(), time.perf_counter(), datetime.now()) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "time.time", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.time_ns", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.perf_counter", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.perf_counter_ns", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.monotonic", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.monotonic_ns", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.process_time", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.process_time_ns", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.thread_time", A::Any, G::Always, "GB0007", "{}"},
    {F, "datetime.datetime.now", A::Any, G::Always, "GB0007", "{}"},
    {F, "datetime.datetime.utcnow", A::Any, G::Always, "GB0007", "{}"},
    {F, "datetime.datetime.today", A::Any, G::Always, "GB0007", "{}"},
    {F, "datetime.date.today", A::Any, G::Always, "GB0007", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` reads the clock inside compiled code; Dynamo skips `{}` and breaks the graph (Dynamo GB0007: call to a function marked as skipped; newer releases report GB9193); time the compiled function from outside", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb012() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
