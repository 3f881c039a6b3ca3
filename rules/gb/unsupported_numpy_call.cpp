// GB028 unsupported-numpy-call — doc: unsupported_numpy_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "GB028", .name = "unsupported-numpy-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A NumPy API that torch._numpy lacks (ndarray.tobytes(), .flags, ufunc methods, np.polyval) inside a torch.compile region"};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` uses {}, which Dynamo's NumPy tracing (torch._numpy) does not support (Dynamo {}), so the graph breaks; use the torch equivalent, or call NumPy outside the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb028() {
  return make_graph_break_rule(kInfo, python::gb::BreakKind::NumpyUnsupported, &message);
}

}  // namespace cudalint::rules
