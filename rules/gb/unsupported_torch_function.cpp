// GB029 unsupported-torch-function — doc: unsupported_torch_function.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB029", .name = "unsupported-torch-function", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A torch function or form Dynamo rejects (sparse tensors, strided nested tensors, use_deterministic_algorithms(warn_only=True), torch.compile(backend=...)) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    // Not a call pattern: torch.compile(backend=...) inside a region (found by Summarizer::on_call, analyzer/frontends/python).
    {F, "torch.is_inference_mode_enabled", A::Any, G::Always, "GB0046", "`{}()`"},
    {F, "torch.autograd.Variable._execution_engine.is_checkpoint_valid", A::Any, G::Always, "GB0165", "`{}()`"},
    {F, "torch.use_deterministic_algorithms", A::KeywordTrue, G::Always, "GB0230", "`{}(warn_only=True)`", "warn_only"},
    {F, "torch.nested.nested_tensor", A::KeywordNot, G::Always, "GB0233", "`{}` without `layout=torch.jagged`", "layout=torch.jagged"},
    {F, "torch._check", A::MessageNotClosureFree, G::Always, "GB0288", "`{}` with a message that is not a closure-free lambda"},
    {F, "torch.sparse_coo_tensor", A::Any, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_csr_tensor", A::Any, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_csc_tensor", A::Any, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_bsr_tensor", A::Any, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_bsc_tensor", A::Any, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_compressed_tensor", A::Any, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {TM, "to_sparse", A::Any, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_coo", A::Any, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_csr", A::Any, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_csc", A::Any, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_bsr", A::Any, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_bsc", A::Any, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
};

std::string message(const model::GraphBreak& g) {
  return fmt::format("`{}` uses {}, which Dynamo does not support inside compiled code (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
}

}  // namespace

std::unique_ptr<Rule> make_gb029() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
