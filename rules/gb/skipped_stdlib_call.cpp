// GB013 skipped-stdlib-call — doc: skipped_stdlib_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB013", .name = "skipped-stdlib-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A standard-library function Dynamo skips (json.dumps, os.getpid, random.random, copy.copy, time.sleep) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "copy.copy", A::Any, G::Always, "GB0007", "{}"},
    {F, "json.dumps", A::Any, G::Always, "GB0007", "{}"},
    {F, "json.loads", A::Any, G::Always, "GB0007", "{}"},
    {F, "json.dump", A::Any, G::Always, "GB0007", "{}"},
    {F, "json.load", A::Any, G::Always, "GB0007", "{}"},
    {F, "os.getpid", A::Any, G::Always, "GB0007", "{}"},
    {F, "os.getppid", A::Any, G::Always, "GB0007", "{}"},
    {F, "random.random", A::Any, G::Always, "GB0007", "{}"},
    {F, "time.sleep", A::Any, G::Always, "GB0007", "{}"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls `{}`, which Dynamo skips, breaking the graph (Dynamo GB0007: call to a function marked as skipped); call it outside the compiled function and pass the result in", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb013() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
