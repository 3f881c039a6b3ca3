// Graph-break summaries: the calls that break the graph. Each GB rule whose breaks are calls
// declares them as rows (call pattern, gate, Dynamo id) in its own file (rules/gb/*.cpp); the
// engine gathers every rule's rows into one CallPatterns table (rules::graph_break_calls()) that
// the summarizer consults for each call it meets (Summarizer::on_call, gb_breaks.cpp). Breaks
// that are not calls (branches on tensors, boolean-mask indexing, f-strings of tensors,
// `grad_fn`, class statements) and those that need other files (the model's) are found where they
// are met and name their rule through gb_rule_ids.h.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/frontends/python/graph_breaks.h"

namespace cudalint::python::gb {

// What is called.
enum class Callee : uint8_t {
  Function,      // name: the function's resolved path ("builtins.print"); "torch.distributed.*":
                 // any function directly in that module (rows of the exact names come first)
  TensorMethod,  // name: a method of a tensor, or of a receiver of unknown type
  LoggerMethod,  // name: a method of a logging.Logger (logging.getLogger(...))
};

// What the call's arguments (or receiver) must be for the call to break.
enum class ArgTest : uint8_t {
  Any,
  NoPositional,              // no positional argument: t.item(), not t.item(0)
  OneTensor,                 // exactly one positional argument, a tensor: str(t), int(t)
  OnlyOnePositional,         // exactly one positional argument and nothing else: torch.where(c)
  AsyncOp,                   // async_op=True
  NoAsTuple,                 // no as_tuple= keyword
  SecondTensorNoOutputSize,  // the second positional argument a tensor, no output_size=
  FirstTensorNoOutputSize,   // the first positional argument a tensor, no output_size=
  TensorReceiver,            // the receiver is known to be a tensor (not only of unknown type)
  KeywordTrue,               // the keyword `key` is literally True: use_deterministic_algorithms(warn_only=True)
  KeywordNot,                // `key` is "name=text": that keyword is absent or written otherwise
  AnyKeyword,                // some keyword argument: ImportError("m", name="x")
  NotFalse,                  // no positional argument, or one that is not literally False: requires_grad_()
  NoDataOrFresh,             // no data, or a tensor made in the function (not an input): nn.Parameter(...)
  OneFreshTensor,            // one positional argument, a tensor made in the function: id(y)
  FreshReceiver,             // the receiver is a tensor made in the function: y.resize_(...)
  InputReceiver,             // the receiver is a parameter of the function: x.unsqueeze_(0)
  FirstInput,                // the first positional argument is a parameter: torch.Tensor.t_(x)
  SeveralPositional,         // more than one positional argument: y.set_(storage, offset, size)
  ListWithTensor,            // the first positional argument is a list or tuple holding a tensor
  SecondPositional,          // a second positional argument: groupby(xs, keyfunc)
  KeywordNotKey,             // a keyword other than key=: groupby(iterable=xs)
  TensorKey,                 // key= a lambda whose result is a tensor: groupby(rows, key=lambda r: r.sum())
  NoNumClasses,              // no num_classes (or -1): F.one_hot(idx)
  NdarrayReceiver,           // the receiver is a NumPy array made from a tensor (x.numpy())
  NdarrayObjectDtype,        // such a receiver, and the first argument the object dtype
  MessageNotClosureFree,     // torch._check's message: not a lambda, or one naming the function's names
  FromInSplat,               // a `**{...}` argument with a "from" key: t.uniform_(**{"from": 0})
  GraphBreakCallback,        // the first argument calls graph_break(): comptime(lambda ctx: ctx.graph_break())
  OutResized,                // out= an empty buffer made in the function (torch.empty(0)), or a tuple holding one
  OutNonContiguous,          // out= a transposed or permuted view (one tensor, not a tuple)
};

// One call pattern of a rule. The table knows the rule that declared it (CallRow).
struct CallPattern {
  Callee callee;
  std::string_view name;
  ArgTest args;
  Gate gate;
  std::string_view registry;   // Dynamo's graph-break registry id ("" when none was measured)
  std::string_view detail;     // BreakSite::detail; "{}" stands for the path or method name
  std::string_view key = {};   // the keyword an ArgTest names (KeywordTrue, KeywordNot)
};

struct CallRow {
  const CallPattern* pattern;
  std::string_view rule;  // the id of the rule that reports it ("GB004")
};

// Every rule's rows. Rows of one name are consulted in the order they were added: the rules'
// order, then each rule's own.
class CallPatterns {
 public:
  // Appends `rule`'s rows; they must outlive the table.
  void add(std::string_view rule, std::span<const CallPattern> rows);

  // The rows of one key, in order: a path or method name; for Function also a module's rows, by
  // the module's path ("torch.distributed" for "torch.distributed.*").
  std::span<const CallRow> rows(Callee callee, std::string_view key, bool module) const;

  // The first row for a call of `name` that `holds` accepts (for Function, the rows of the exact
  // path before those of its module); nullptr when none does.
  template <typename Holds>
  const CallRow* first(Callee callee, std::string_view name, Holds&& holds) const {
    for (const CallRow& row : rows(callee, name, false))
      if (holds(*row.pattern)) return &row;
    if (callee == Callee::Function && name.rfind('.') != std::string_view::npos)
      for (const CallRow& row : rows(callee, name.substr(0, name.rfind('.')), true))
        if (holds(*row.pattern)) return &row;
    return nullptr;
  }

  // Every row, in the order added.
  const std::vector<CallRow>& all() const { return all_; }

 private:
  using Rows = std::unordered_map<std::string_view, std::vector<CallRow>>;
  std::vector<CallRow> all_;
  std::array<Rows, 3> exact_;  // by Callee
  Rows module_;                // Function rows "<module>.*", by the module's path
};

}  // namespace cudalint::python::gb
