// GB030 unsupported-python-construct — doc: unsupported_python_construct.md
#include <string_view>

#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB030", .name = "unsupported-python-construct", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A Python construct Dynamo cannot trace (`with` on a lock, assigning `__class__`, attributes set on an exception, `tb_lasti`) inside a torch.compile region"};

// The fix that keeps the code in the region, where one is known; else moving it out.
std::string_view remedy(std::string_view registry) {
  if (registry == "GB0171") return "give the assert a string message";
  if (registry == "GB0137") return "use the slice's `start`, `stop` and `step`";
  if (registry == "GB0177") return "cache in a module-level function and call it from the classmethod";
  if (registry == "GB0067") return "keep the checkpointed function free of side effects";
  if (registry == "GB0217") return "use a plain dict";
  return "move it out of the compiled function";
}

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}`: {}, which Dynamo cannot trace (Dynamo {}), so the graph breaks; {}", g.what, g.detail, g.registry, remedy(g.registry));
}

}  // namespace

std::unique_ptr<Rule> make_gb030() {
  return make_graph_break_rule(kInfo, &message);
}

}  // namespace cudalint::rules
