// GB027 tensor-storage-mutation — doc: tensor_storage_mutation.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB027", .name = "tensor-storage-mutation", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A tensor's storage or metadata changed in place inside a torch.compile region (resize_(), set_(storage, ...), in-place views of inputs, `.data =`)"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Not a call pattern: `.data =`, `.real =`, `.imag =` (found by Summarizer::assignment, analyzer/frontends/python).
    {F, "torch.*", A::OutResized, G::Always, "GB0247", "`out=` a buffer of another shape, which Dynamo would resize"},
    {F, "torch.*", A::OutNonContiguous, G::Always, "GB0242", "`out=` a non-contiguous view"},
    {TM, "resize_", A::FreshReceiver, G::Always, "GB0126", "`Tensor.resize_()`"},
    {TM, "resize_as_", A::FreshReceiver, G::Always, "GB0127", "`Tensor.resize_as_()`"},
    {TM, "set_", A::SeveralPositional, G::Always, "GB0128", "`Tensor.set_(storage, ...)`"},
    {TM, "sparse_resize_", A::Any, G::Always, "GB0015", "`Tensor.sparse_resize_()`"},
    {TM, "sparse_resize_and_clear_", A::Any, G::Always, "GB0015", "`Tensor.sparse_resize_and_clear_()`"},
    {TM, "unsqueeze_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "squeeze_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "t_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "transpose_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "swapdims_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "swapaxes_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "as_strided_", A::InputReceiver, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {F, "torch.Tensor.unsqueeze_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.squeeze_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.t_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.transpose_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.swapdims_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.swapaxes_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.as_strided_", A::FirstInput, G::Always, "GB0072", "in-place view op `{}()` on an input"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` changes a tensor's storage or metadata in place ({}; Dynamo {}), which Dynamo cannot trace, so the graph breaks; use the out-of-place form (`reshape`, `unsqueeze`, `t()`, a new tensor) or do it outside the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb027() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
