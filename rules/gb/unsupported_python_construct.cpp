// GB030 unsupported-python-construct — doc: unsupported_python_construct.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB030", .name = "unsupported-python-construct", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A Python construct Dynamo cannot trace (`with` on a lock, assigning `__class__`, attributes set on an exception, `tb_lasti`) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}`: {}, which Dynamo cannot trace (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb030() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::PythonConstruct, &message);
}

}  // namespace cudalint::rules
