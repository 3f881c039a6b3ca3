// GB011 deepcopy-in-compiled-code — doc: deepcopy_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB011", .name = "deepcopy-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "copy.deepcopy() inside a torch.compile region breaks the graph"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "copy.deepcopy", A::Any, G::Always, "GB0179", ""},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` deep-copies inside compiled code, which Dynamo does not support (Dynamo GB0179: copy.deepcopy()); copy tensors with `.clone()`, or copy outside the compiled function", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb011() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
