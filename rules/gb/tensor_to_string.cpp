// GB016 tensor-to-string — doc: tensor_to_string.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB016", .name = "tensor-to-string", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "str()/repr()/f-string formatting of a tensor inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Not a call pattern: f-strings of tensors (found by Summarizer::scan, analyzer/frontends/python).
    {F, "builtins.str", A::OneTensor, G::Always, "GB0059", "str"},
    {F, "builtins.repr", A::OneTensor, G::Always, "GB0059", "repr"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` formats a tensor as text inside compiled code (Dynamo {}), which breaks the graph; format `.shape` or `.dtype` instead, or build the text outside the compiled function", g.what, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb016() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
