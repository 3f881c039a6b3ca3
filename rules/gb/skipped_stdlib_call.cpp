// GB013 skipped-stdlib-call — doc: skipped_stdlib_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB013", .name = "skipped-stdlib-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A standard-library function Dynamo skips (json.dumps, os.getpid, random.random, copy.copy, time.sleep) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls `{}`, which Dynamo skips, breaking the graph (Dynamo GB0007: call to a function marked as skipped); call it outside the compiled function and pass the result in", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb013() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::SkippedStdlib, &message);
}

}  // namespace cudalint::rules
