// GB028 unsupported-numpy-call — doc: unsupported_numpy_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB028", .name = "unsupported-numpy-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A NumPy API that torch._numpy lacks (ndarray.tobytes(), .flags, ufunc methods, np.polyval) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Ndarrays from Tensor.numpy() (attributes: Summarizer::scan),
    // ufunc methods ("numpy.ufunc.<method>" stands for np.<any ufunc>.<method>), functions
    // torch._numpy lacks.
    {TM, "tobytes", A::NdarrayReceiver, G::Always, "GB0158", "`ndarray.{}()`"},
    {TM, "tostring", A::NdarrayReceiver, G::Always, "GB0158", "`ndarray.{}()`"},
    {TM, "astype", A::NdarrayObjectDtype, G::Always, "GB0250", "`ndarray.astype(object)`"},
    {F, "numpy.ufunc.reduce", A::Any, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.accumulate", A::Any, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.outer", A::Any, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.reduceat", A::Any, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.at", A::Any, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.polyval", A::Any, G::Always, "GB0294", "`{}`"},
    {F, "numpy.polyfit", A::Any, G::Always, "GB0294", "`{}`"},
    {F, "numpy.poly1d", A::Any, G::Always, "GB0294", "`{}`"},
    {F, "numpy.polyder", A::Any, G::Always, "GB0294", "`{}`"},
    {F, "numpy.polyint", A::Any, G::Always, "GB0294", "`{}`"},
    {F, "numpy.roots", A::Any, G::Always, "GB0294", "`{}`"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` uses {}, which Dynamo's NumPy tracing (torch._numpy) does not support (Dynamo {}), so the graph breaks; use the torch equivalent, or call NumPy outside the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb028() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
