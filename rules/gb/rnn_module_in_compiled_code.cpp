// GB021 rnn-module-in-compiled-code — doc: rnn_module_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB021", .name = "rnn-module-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Calling an nn.RNN/nn.LSTM/nn.GRU submodule inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls a `{}` module, which Dynamo does not trace (Dynamo GB0014: attempted to wrap RNN, GRU, or LSTM), so the region falls back to eager; set `torch._dynamo.config.allow_rnn = True` (experimental), or keep the RNN out of the compiled region", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb021() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
