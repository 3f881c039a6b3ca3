// Static evaluation of simple Python values over a tree-sitter-python tree. Nothing is run:
// names bound to literals, `+`, list/dict mutation, imports and small helper functions defined
// in the same file are followed in source order; everything else is Unknown. Recursion depth,
// container sizes and total work are bounded, so hostile input cannot crash or hang it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/core/diagnostic.h"
#include "analyzer/frontends/python/eval_context.h"

// The Python grammar (third_party/tree-sitter-python, compiled into the build).
extern "C" const TSLanguage* tree_sitter_python(void);

namespace cudalint::python {

inline constexpr int kMaxDepth = 100;               // nested eval/exec frames on the C++ stack
inline constexpr int kMaxCalls = 8;                 // helper functions evaluated inside each other
inline constexpr uint8_t kMaxNest = 8;              // containers inside containers
inline constexpr uint32_t kMaxWeight = 1u << 14;    // values inside one container, recursively
inline constexpr size_t kMaxStrBytes = 1u << 16;    // bytes in one computed string
// Evaluation steps and copied values allowed per file: a fixed part for pathological growth
// (doubling a list, mutual recursion) and a part that scales with the file.
inline constexpr int64_t kWorkBudget = 2'000'000;
inline constexpr int64_t kWorkPerByte = 1;
inline constexpr int64_t kCallBudget = 100'000;  // for one outermost helper-function call

// A statically known (or explicitly unknown) Python value.
struct Value {
  enum class Kind : uint8_t { Unknown, None, Bool, Int, Str, List, Tuple, Dict, Ref, Func, Class };
  Kind kind = Kind::Unknown;
  bool flag = false;      // Bool
  bool complete = true;   // List/Tuple/Dict: every element is known and certainly present;
                          // Ref: false when it is one of several classes (merged branches)
  uint8_t depth = 0;      // 0 for scalars, 1 + deepest element for containers
  uint32_t weight = 1;    // 1 + weight of every element
  int64_t number = 0;     // Int
  std::string text;       // Str: the value; Ref: dotted path ("os.environ"); Class: its name
  Span span;              // Str/List/...: where the value was written; Ref/Func/Class: where named
  std::vector<Value> items;        // List/Tuple elements, Dict values
  std::vector<std::string> keys;   // Dict keys (parallel to items); Class: dotted paths of all
                                   // bases, transitively ("" for a base that did not resolve)
  TSNode node{};                   // Func: its function_definition

  static Value unknown(Span s = {});
  static Value none(Span s);
  static Value boolean(bool b, Span s);
  static Value integer(int64_t n, Span s);
  static Value string(std::string s, Span sp);
  static Value seq(Kind k, Span s);  // empty List or Tuple
  static Value dict(Span s);
  static Value ref(std::string path, Span s);

  bool is(Kind k) const { return kind == k; }
  bool is_seq() const { return kind == Kind::List || kind == Kind::Tuple; }
  bool is_code() const { return kind == Kind::Ref || kind == Kind::Func || kind == Kind::Class; }
  const Value* find(std::string_view key) const;  // Dict entry
  Value* find(std::string_view key);
  // Adds an element (List/Tuple) or entry (Dict, replacing an equal key); beyond kMaxNest or
  // kMaxWeight the value is dropped, the container marked incomplete, and false returned.
  bool push(Value v);
  bool put(std::string key, Value v);
  void recompute();  // depth and weight from the direct elements
};

// A library name whose value is fixed under a CUDA torch (cudalint judges CUDA builds, so none is
// a ROCm one): torch.version.hip is None, IS_HIP_EXTENSION False.
std::optional<Value> cuda_torch_value(std::string_view path, Span sp);

// Python truthiness where the value decides it (nullopt: it does not).
std::optional<bool> truth(const Value& v);

// What a name may be after two control-flow paths: equal values stay, lists become the union
// of their items (incomplete), anything else unknown.
Value merge(const Value& a, const Value& b);

// Names bound in one module, class body or function activation.
class Scope {
 public:
  explicit Scope(Scope* parent = nullptr) : parent_(parent) {}
  Value* local(std::string_view name);
  const Value* find(std::string_view name) const;  // here, then the enclosing scopes
  Value& bind(std::string_view name, Value v);
  Scope* parent() const { return parent_; }

 private:
  Scope* parent_;
  std::map<std::string, Value, std::less<>> vars_;
};

// Small tree-sitter helpers.
Span span_of(TSNode n);
std::string_view type_of(TSNode n);
// A field of the tree-sitter-python grammar, named by a string literal and resolved when the
// program is compiled (a misspelt name does not compile): looking the name up on each call was
// a tenth of the graph-break summary's walk.
class FieldName {
 public:
  static constexpr const char* kNames[] = {
      "alias",      "alternative", "argument",     "arguments",   "attribute",       "body",
      "cause",      "code",        "condition",    "consequence", "definition",      "expression",
      "format_specifier", "function", "guard",     "key",         "left",            "module_name",
      "name",       "object",      "operator",     "operators",   "parameters",      "return_type",
      "right",      "subject",     "subscript",    "superclasses", "type",           "type_conversion",
      "type_parameters", "value"};
  static constexpr size_t kCount = sizeof(kNames) / sizeof(kNames[0]);

  consteval FieldName(const char* name) : index_(index_of(name)) {}  // NOLINT: implicit on purpose
  size_t index() const { return index_; }

 private:
  static consteval size_t index_of(const char* name) {
    for (size_t i = 0; i < kCount; ++i)
      if (std::string_view(kNames[i]) == name) return i;
    throw "not a field of tree-sitter-python";  // a compile-time error: consteval
  }
  size_t index_;
};
TSNode field(TSNode n, FieldName name);
// A node's children: up to 8 without a heap allocation (most nodes have fewer).
class NodeList {
 public:
  void push_back(TSNode n) {
    if (n_ < kInline) inline_[n_] = n;
    else {
      if (heap_.empty()) heap_.assign(inline_, inline_ + kInline);
      heap_.push_back(n);
    }
    ++n_;
  }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const TSNode* begin() const { return n_ <= kInline ? inline_ : heap_.data(); }
  const TSNode* end() const { return begin() + n_; }
  TSNode operator[](size_t i) const { return begin()[i]; }
  TSNode front() const { return begin()[0]; }
  TSNode back() const { return begin()[n_ - 1]; }

 private:
  static constexpr size_t kInline = 8;
  TSNode inline_[kInline];
  std::vector<TSNode> heap_;
  size_t n_ = 0;
};

// Named children other than comments, in order.
NodeList named_children(TSNode n);

// Evaluated call arguments. `node` is the argument's expression, null for entries that came from a
// `**mapping`; `span` is the expression (or the `**mapping`).
struct Arg {
  std::string keyword;  // empty for positional arguments
  Value value;
  TSNode node{};
  Span span;
};
struct Args {
  std::vector<Arg> items;
  bool unknown_rest = false;  // a `*seq` or `**mapping` that did not resolve
  const Arg* positional(size_t i) const;
  const Arg* keyword(std::string_view name) const;
};

// The operator of a comparison of two operands ("==", "not in", "is not", ...); nullopt for a
// chain (`a < b < c`).
std::optional<std::string> comparison_operator(TSNode n);

// Python's `a OP b` for OP in <, <=, >, >=, in, not in where the values decide it: ints,
// strings, version values (packaging's Version, compared as releases), membership in known
// lists, tuples, dicts (keys) and strings.
std::optional<bool> compare_values(std::string_view op, const Value& a, const Value& b);
// A version value (packaging.version.parse("12.8") and the like): a Tuple of the release's
// integers, trailing zeros dropped (Version("12.8.0") == Version("12.8")).
Value version_value(std::string_view text, Span sp);
bool is_version(const Value& v);

// Called for each statement the walk reaches, before the statement's own effects are applied.
// `conditional` is true inside a branch, loop, try, with, match or function body.
using StatementHook = std::function<void(TSNode stmt, Scope& scope, bool conditional)>;

class Interpreter {
 public:
  explicit Interpreter(std::string_view text, const EvalContext* context = nullptr)
      : text_(text), context_(context), budget_(kWorkBudget + kWorkPerByte * static_cast<int64_t>(text.size())) {}
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Walks the module's statements in order, then the body of every function and method defined
  // in it (once each, parameters unknown), calling `hook` for each statement reached.
  void run(TSNode module, const StatementHook& hook);

  Value eval(TSNode expr, Scope& scope);
  Args eval_args(TSNode argument_list, Scope& scope);
  // The dotted path a name or attribute chain stands for, without copying values: an unbound
  // name is itself ("CUDAExtension"), an import is its module path; nullopt for anything else.
  std::optional<std::string> path_of(TSNode expr, const Scope& scope) const;
  std::string_view text(TSNode n) const;

 private:
  struct Frame {
    Scope* scope = nullptr;
    bool record = false;     // report statements to the hook
    bool base_cond = false;  // the whole frame may not run (a function body)
    bool function = false;   // collect `return` values
    std::optional<Value> ret;
    bool done = false;       // an unconditional `return` was reached
    std::vector<std::string> rebound;  // names bound by assignment here (not mutated in place)
  };
  class Guard;

  void exec_block(TSNode block, Frame& f, bool cond);
  void exec_stmt(TSNode stmt, Frame& f, bool cond);
  void exec_compound(TSNode n, Frame& f, bool cond);
  void exec_if(TSNode n, Frame& f, bool cond);
  void exec_assign(TSNode n, Frame& f, bool cond);
  void exec_augmented(TSNode n, Frame& f, bool cond);
  void exec_method_call(TSNode call, Frame& f, bool cond);
  void exec_import(TSNode n, Frame& f, bool cond);
  void define_function(TSNode def, Frame& f, bool cond);
  void define_class(TSNode def, Frame& f, bool cond);
  void assign_target(TSNode target, const Value& v, Frame& f, bool cond);
  void bind(Frame& f, std::string_view name, Value v, bool cond);
  // Value slots from the outermost binding to the innermost element an lvalue names; empty when
  // it cannot be resolved. A name bound only in an enclosing scope is copied into the local one.
  std::vector<Value*> lvalue(TSNode n, Frame& f);
  // After an in-place change to path.back(), brings the enclosing containers' depth and weight
  // up to date; fits() says whether `v` may be stored there within the limits.
  void settle(const std::vector<Value*>& path, uint32_t old_weight);
  bool fits(const std::vector<Value*>& path, const Value& v) const;

  Value eval_string(TSNode n, Scope& scope);
  Value eval_call(TSNode n, Scope& scope);
  Value eval_comparison(TSNode n, Scope& scope);
  Value call_path(const std::string& path, TSNode call, Scope& scope);
  Value call_method(const Value& recv, std::string_view method, TSNode call, Scope& scope);
  // `params_out`: the parameters' final values by position, for those not rebound in the body
  // (lists the function changed in place: Python passes them by reference).
  Value call_function(TSNode def, const Args& args, Span call_span,
                      std::vector<std::optional<Value>>* params_out = nullptr);
  void bind_parameters(TSNode params, Scope& local, const Args* args, std::vector<std::string>* positional = nullptr);
  // py_builtins.cpp: builtins and library calls with a static answer (`handled` false: not one).
  Value call_builtin(const std::string& path, TSNode call, Scope& scope, bool& handled);
  Value eval_comprehension(TSNode n, Scope& scope);
  // A library name's value where it is known: cuda_torch_value's, or one build's context's
  // (torch's CUDA_HOME where the toolkit is known); else the Ref itself.
  Value known_ref(Value ref) const;
  Value index_value(const Value& base, const Value& key, Span sp);
  // A call statement of a function defined in the file: lists it changes in place through its
  // parameters are written back to the caller's names.
  void exec_call_statement(TSNode call, Frame& f, bool cond);
  Value add(const Value& a, const Value& b, Span sp);  // Python's `a + b`
  // The bound value a name or constant subscript chain denotes, without copying it.
  const Value* peek(TSNode n, Scope& scope);
  Value copy_of(const Value& v, Span use);

  std::string_view text_;
  const EvalContext* context_ = nullptr;
  Scope module_;
  const StatementHook* hook_ = nullptr;
  std::vector<TSNode> pending_;  // function bodies to walk after the module
  int depth_ = 0;
  int calls_ = 0;
  int64_t budget_;
  int64_t floor_ = 0;  // evaluation stops when budget_ reaches it (raised inside helper calls)
  bool exhausted() const { return budget_ <= floor_; }
};

}  // namespace cudalint::python
