// GB022 scripted-module-in-compiled-code — doc: scripted_module_in_compiled_code.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB022", .name = "scripted-module-in-compiled-code", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "Calling a torch.jit.script'ed module inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` calls a TorchScript module inside compiled code (Dynamo GB0357: ScriptModules are unsupported), so the region falls back to eager; compile the plain nn.Module instead of scripting it", g.what);
}

}  // namespace

std::unique_ptr<Rule> make_gb022() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
