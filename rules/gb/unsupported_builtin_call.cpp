// GB015 unsupported-builtin-call — doc: unsupported_builtin_call.md
#include <fmt/format.h>

#include "rules/graph_breaks.h"

namespace cudalint::rules {

namespace {

using namespace gb_rows;

constexpr RuleInfo kInfo{
    .id = "GB015", .name = "unsupported-builtin-call", .family = "GB",
    .default_severity = Severity::Warning,
    .summary = "A builtin or standard-library call Dynamo cannot trace (open, eval, exec, globals, input, vars(), id() of a new tensor, sorted() over tensors, contextlib.closing, ...) inside a torch.compile region"};

// The calls that break the graph this way (python::gb::CallPattern): for one call, the first
// row whose name matches and whose argument test holds.
constexpr python::gb::CallPattern kCalls[] = {
    {F, "builtins.open", A::Any, G::Always, "GB0059", "open"},
    {F, "builtins.eval", A::Any, G::Always, "GB0059", "eval"},
    {F, "builtins.exec", A::Any, G::Always, "GB0059", "exec"},
    {F, "builtins.globals", A::Any, G::Always, "GB0059", "globals"},
    {F, "builtins.input", A::Any, G::Always, "GB0059", "input"},
    {F, "builtins.vars", A::NoPositional, G::Always, "GB0270", "`vars()` without arguments"},
    {F, "builtins.super", A::OnlyOnePositional, G::Always, "GB0193", "`super()` with one argument"},
    {F, "builtins.id", A::OneFreshTensor, G::Always, "GB0141", "`id()` of a tensor made in the function"},
    {F, "builtins.sorted", A::ListWithTensor, G::Always, "GB0207", "`sorted()` over tensors"},
    {F, "operator.index", A::OneTensor, G::Always, "GB0218", "`operator.index()` of a tensor"},
    // Measured ids (registry corpus reg1_1.py): a tensor key GB0152, a positional key GB0134,
    // another keyword GB0155.
    {F, "itertools.groupby", A::TensorKey, G::Always, "GB0152", "`itertools.groupby()` with a key that returns tensors"},
    {F, "itertools.groupby", A::SecondPositional, G::Always, "GB0134", "`itertools.groupby()` with the key passed positionally"},
    {F, "itertools.groupby", A::KeywordNotKey, G::Always, "GB0155", "`itertools.groupby()` with a keyword other than `key=`"},
    {F, "random.Random", A::AnyKeyword, G::Always, "GB0297", "`random.Random()` with keyword arguments"},
    {F, "contextlib.closing", A::Any, G::Always, "GB0262", "`{}`"},
    {F, "contextlib.redirect_stdout", A::Any, G::Always, "GB0262", "`{}`"},
    {F, "contextlib.redirect_stderr", A::Any, G::Always, "GB0262", "`{}`"},
    {F, "contextlib.AsyncExitStack", A::Any, G::Always, "GB0262", "`{}`"},
    // Builtin exceptions that take keywords (name=, path=, obj=); Dynamo builds them from positionals only.
    {F, "builtins.ImportError", A::AnyKeyword, G::Always, "GB0273", "`ImportError()` with keyword arguments"},
    {F, "builtins.ModuleNotFoundError", A::AnyKeyword, G::Always, "GB0273", "`ModuleNotFoundError()` with keyword arguments"},
    {F, "builtins.AttributeError", A::AnyKeyword, G::Always, "GB0273", "`AttributeError()` with keyword arguments"},
    {F, "builtins.NameError", A::AnyKeyword, G::Always, "GB0273", "`NameError()` with keyword arguments"},
};

std::string message(const model::GraphBreak& g) {
  if (g.registry != "GB0059")
    return fmt::format("`{}` uses {}, which Dynamo cannot trace (Dynamo {}), so the graph breaks; move it out of the compiled function", g.what, g.detail, g.registry);
  return fmt::format("`{}` calls the builtin `{}()`, which Dynamo cannot trace (Dynamo GB0059: failed to trace builtin operator); move it out of the compiled function", g.what, g.detail);
}

}  // namespace

std::unique_ptr<Rule> make_gb015() {
  return make_graph_break_rule(kInfo, &message, kCalls);
}

}  // namespace cudalint::rules
