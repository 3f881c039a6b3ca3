// Graph-break summaries, the summarizer's internals: its limits, the helpers its files share and
// the Summarizer class, whose members are defined by concern (each section below names its file):
//   graph_breaks.cpp  the entry points: parsing a module (or the parts summarize_lazy keeps)
//   gb_defs.cpp       passes 1 and 2: definitions, module-level code, bindings, imports
//   gb_eval.cpp       the abstract evaluator: what a name or expression denotes
//   gb_breaks.cpp     the break catalogue: the expressions that break the graph, the calls
//                     (looked up in the rules' call patterns, gb_call_patterns.h), the records
//                     of breaks, calls and compile sites
//   gb_lookup.cpp     this file's definitions: class traits, functions by name, decorators
//   gb_walk.cpp       function bodies: statements, is_compiling() guards, conditions
//   gb_function.cpp   entering a function: decorators, parameters and what they hold
// Private to analyzer/frontends/python.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/gb_call_patterns.h"
#include "analyzer/frontends/python/gb_rule_ids.h"
#include "analyzer/frontends/python/graph_breaks.h"
#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python::gb::detail {

using K = Val::Kind;

constexpr int kMaxDepth = 150;            // nested expressions/statements followed
constexpr size_t kMaxItems = 64;          // elements kept in one List/Dict value
constexpr size_t kMaxReturns = 4;         // Function::returns kept
constexpr int kMaxValDepth = 8;           // values inside values
constexpr size_t kMaxPerFunction = 2000;  // breaks / calls recorded per function
constexpr size_t kMaxWhat = 60;           // bytes of source quoted in `what`
constexpr int64_t kBudgetBase = 4'000'000;

// The text of an Unknown value made by arithmetic (`x + 1` of an unannotated parameter).
inline constexpr std::string_view kArith = "arith";

inline bool contains(std::initializer_list<std::string_view> set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

inline int val_depth(const Val& v) {
  int d = 0;
  for (const auto& i : v.items) d = std::max(d, 1 + val_depth(i));
  return d;
}

// gb_eval.cpp: what torch calls and tensor methods give.
// Methods that only tensors (or NumPy arrays, which Dynamo traces as tensors) have: a receiver
// of unknown type that calls them is a tensor.
bool tensor_only_method(std::string_view m);
// The Val of a call to a torch function, by its path; nullopt when not a tensor-returning one.
std::optional<Val> torch_call_result(std::string_view p);

// gb_walk.cpp: source text for messages.
// Cuts `s` to at most `max` bytes ending in "...", never inside a UTF-8 sequence.
void shorten(std::string& s, size_t max);
// `s` on one line (runs of white space and backslashes as one space), shortened to kMaxWhat.
std::string collapse(std::string_view s);

struct Scope {
  std::map<std::string, Val, std::less<>> vars;
  const Scope* parent = nullptr;
  const Val* find(std::string_view n) const {
    for (const Scope* s = this; s; s = s->parent)
      if (auto it = s->vars.find(n); it != s->vars.end()) return &it->second;
    return nullptr;
  }
};

struct FnContext {
  int fn = -1;
  int cls = -1;
  std::string self_name;
  Scope* scope = nullptr;
};

// Summarises one parsed module into `out` (graph_breaks.cpp). Three passes over the tree:
// definitions (functions, classes, imports), module-level code in order (assignments, compile
// sites, config), then every function body: once to learn what methods assign to `self`, once
// to find break candidates and calls. Expression recursion is bounded by kMaxDepth, total work
// by a node budget; running out marks the summary truncated instead of failing.
class Summarizer {
 public:
  Summarizer(std::string_view text, const CallPatterns& calls, Summary& out)
      : text_(text), calls_(calls), out_(out), budget_(kBudgetBase + static_cast<int64_t>(text.size()) * 4) {}

  void run(TSNode module);  // gb_defs.cpp

 private:
  struct Def {
    TSNode node;       // function_definition
    TSNode decorated;  // decorated_definition or null
    bool nested = false;
    const Scope* outer = nullptr;  // enclosing function scope (nested defs)
  };

  // ---- small helpers ----
  std::string_view txt(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    uint32_t b = std::min<uint32_t>(ts_node_start_byte(n), static_cast<uint32_t>(text_.size()));
    uint32_t e = std::min<uint32_t>(ts_node_end_byte(n), static_cast<uint32_t>(text_.size()));
    return text_.substr(b, e > b ? e - b : 0);
  }
  bool spend() {
    if (--budget_ > 0) return true;
    out_.truncated = true;
    return false;
  }
  static TSNode strip_parens(TSNode n) {
    while (!ts_node_is_null(n) && type_of(n) == "parenthesized_expression") {
      auto kids = named_children(n);
      if (kids.size() != 1) break;
      n = kids[0];
    }
    return n;
  }

  std::string dotted(TSNode n) const {
    std::string s;
    for (char c : txt(n))
      if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') s += c;
    return s;
  }

  // Positional and keyword arguments of a call.
  struct ArgsView {
    std::vector<TSNode> pos;
    std::vector<std::pair<std::string, TSNode>> kw;
    bool splat = false;
    TSNode keyword(std::string_view k) const {
      for (const auto& [n, v] : kw)
        if (n == k) return v;
      return TSNode{};
    }
  };
  ArgsView args_of(TSNode call) const {
    ArgsView a;
    TSNode al = field(call, "arguments");
    if (ts_node_is_null(al)) return a;
    if (type_of(al) == "generator_expression") {
      a.pos.push_back(al);
      return a;
    }
    for (TSNode c : named_children(al)) {
      std::string_view t = type_of(c);
      if (t == "keyword_argument") a.kw.emplace_back(std::string(txt(field(c, "name"))), field(c, "value"));
      else if (t == "list_splat" || t == "dictionary_splat") a.splat = true;
      else a.pos.push_back(c);
    }
    return a;
  }
  std::optional<bool> literal_bool(TSNode n) const {
    n = strip_parens(n);
    if (type_of(n) == "true") return true;
    if (type_of(n) == "false") return false;
    return std::nullopt;
  }
  std::string string_literal(TSNode n) const {
    n = strip_parens(n);
    if (type_of(n) != "string") return {};
    std::string out;
    for (TSNode c : named_children(n)) {
      if (type_of(c) == "interpolation") return {};
      if (type_of(c) == "string_content") out += txt(c);
    }
    return out;
  }

  // ---- gb_defs.cpp: definitions, module-level code, bindings ----
  void collect_defs(TSNode block, const std::string& prefix, int cls, int depth);
  int define(TSNode st, const std::string& prefix, int cls, int depth);
  void module_code(TSNode block, int depth);
  void statement_expr(TSNode st, FnContext& ctx, bool module_level);
  void assignment(TSNode a, FnContext& ctx, bool module_level);
  void config_assignment(TSNode left, TSNode right, FnContext& ctx);
  void bind_target(TSNode target, const Val& v, FnContext& ctx, bool module_level);
  void import(TSNode st, Scope* local);
  void self_attr_call(const Val& recv, const std::string& m, const ArgsView& a, FnContext& ctx);

  // ---- gb_eval.cpp: evaluation ----
  Val lookup(std::string_view name, const FnContext& ctx) const;
  Val annotation(TSNode type, const FnContext& ctx);
  Val eval(TSNode n, const FnContext& ctx, int depth);
  Val limit(Val v);
  Val attribute(Val base, const std::string& attr);
  Val eval_call(TSNode n, const FnContext& ctx, int depth);
  Val resolve_local(const Val& v, const FnContext& ctx, int depth = 0) const;
  void bind_for(TSNode clause, FnContext& ctx, int depth);

  // ---- gb_breaks.cpp: recording, and the expressions and calls that break ----
  Function* cur() { return fn_ >= 0 ? &out_.functions[static_cast<size_t>(fn_)] : nullptr; }
  void brk(std::string_view rule, Gate g, TSNode at, std::string registry, std::string detail = {});
  void call_site(TSNode at, Val callee);
  Val detach_self(Val v, const FnContext& ctx) const;
  void compile_site(TSNode call, TSNode target, bool fullgraph, bool method_form, const FnContext& ctx);
  void truth_test(TSNode cond, FnContext& ctx, int depth);
  void scan(TSNode n, FnContext& ctx, int depth, bool store = false);
  void on_call(TSNode n, FnContext& ctx);
  bool call_args_hold(const CallPattern& row, TSNode call, const ArgsView& a, const Val& recv, const FnContext& ctx);
  Scope lambda_scope(TSNode lambda, const FnContext& ctx) const;
  bool is_input(TSNode n);                                // a parameter of the function being walked
  bool fresh_tensor(TSNode n, const FnContext& ctx);      // a tensor made in the function, not an input
  bool names_local(TSNode n, const FnContext& ctx, int depth);  // mentions a parameter or local name
  void attribute_store(TSNode target, const FnContext& ctx, TSNode value = {});  // `t.data = ...`, `o.__class__ = ...`
  // Another dtype than the tensor assigned to: a factory's dtype=, .half()/.to(torch.float64);
  // "" when the expression does not say.
  std::string dtype_change(TSNode value) const;
  void nonstrict_call(TSNode call, const Val& callee, const ArgsView& a, FnContext& ctx);
  void slice_attribute(TSNode attr, const FnContext& ctx, int depth);  // `s.indices(n)` on a slice
  void context_manager(TSNode value, const FnContext& ctx);      // `with lock:`
  void raised(TSNode raise_st, FnContext& ctx);                  // `raise ImportError(..., name=...)`
  // ---- gb_lookup.cpp: this file's definitions ----
  // What Dynamo cannot trace about a class of this file, for an instance or the class itself.
  // PlainObject: a class with no base, no decorator and no pytree registration in this file,
  // whose instances nonstrict_trace functions can neither take nor return.
  enum class ClassTrait { HashOverride, PartialTypedDict, UninitializedModule, PlainObject };
  bool has_trait(const Val& v, ClassTrait t) const;
  bool pytree_registered(std::string_view cls) const;  // register_pytree_node(C, ...) & co. at module level
  // The definition of a function (class) of this file by its qualified name; -1 when none.
  int def_index(std::string_view qualname) const;
  int class_def_index(std::string_view qualname) const;
  // The decorator of function `fi` that evaluates to `path`; null when none does.
  TSNode decorator_named(size_t fi, std::string_view path, const FnContext& ctx);
  // The method called on a module-level object that a function of this file mutates
  // (`_SEEN.append`); "" when none.
  std::string global_mutation(size_t fi);

  // ---- gb_walk.cpp: statements, guards, conditions ----
  std::optional<bool> guard(TSNode cond, const FnContext& ctx, int depth = 0);
  bool compiling_predicate(const std::string& qualname);
  template <typename F>
  void returns_of(TSNode n, int depth, F&& on_return);
  static bool ends_with(TSNode block, std::initializer_list<std::string_view> types);
  bool walk_block(TSNode block, FnContext& ctx, int depth);
  bool walk_stmt(TSNode st, FnContext& ctx, int depth);
  bool walk_if(TSNode st, FnContext& ctx, int depth);
  TSNode handler_of_raise(TSNode try_st) const;
  // What an `except` clause names (`E` of `except E as e`, a tuple as written); null when bare.
  static TSNode except_type(TSNode clause);
  static std::string both(const std::string& a, const std::string& b);
  std::string condition_text(TSNode cond) const;
  class WhenScope;

  // ---- gb_function.cpp: entering a function ----
  void nested_def(TSNode st, FnContext& ctx, int depth);
  int compiled_lambda(TSNode lambda, FnContext& ctx);
  void walk_nested(size_t fi, FnContext& ctx);
  void decorators(size_t fi, const FnContext& ctx);
  std::string compared_param(TSNode cmp, const std::set<std::string>& params);
  void tensor_evidence(TSNode body, Scope& scope, const std::set<std::string>& params);
  void walk_function(size_t fi, bool attrs_only, const FnContext* outer = nullptr);
  void assigned_names(TSNode n, std::set<std::string>& out, int depth);

  std::string_view text_;
  const CallPatterns& calls_;
  Summary& out_;
  int64_t budget_;
  std::set<std::string> falsy_params_;  // this function's falsy-default parameters, never rebound
  std::set<std::string, std::less<>> global_names_;  // this function's `global` names
  std::set<std::string, std::less<>> backward_hooked_;  // module-level modules given backward hooks
  std::vector<std::string> needs_;      // the enclosing `if p:` guards
  std::vector<std::string> when_;       // the enclosing undecided conditions (BreakSite::when)
  std::map<std::string, bool, std::less<>> predicates_;  // compiling_predicate's answers
  std::vector<Def> defs_;               // parallel to out_.functions
  // The first function and class of each qualified name (a name defined twice, under `if` and
  // `else`, is looked up as its first definition).
  std::map<std::string, int, std::less<>> function_index_;
  std::map<std::string, int, std::less<>> class_index_;
  std::vector<TSNode> class_nodes_;     // parallel to out_.classes
  Scope module_scope_;
  std::map<size_t, std::map<std::string, bool>> patches_;
  TSNode module_{};                     // the module's root node
  int fn_ = -1;
  int loop_depth_ = 0;
  int assert_caught_ = 0;               // try bodies entered whose handlers catch AssertionError
  bool collecting_attrs_ = false;
};

// Pushes a condition onto when_ for a block; an empty one leaves the enclosing condition.
class Summarizer::WhenScope {
 public:
  WhenScope(Summarizer& s, std::string cond) : s_(s), pushed_(!cond.empty()) {
    if (pushed_) s_.when_.push_back(std::move(cond));
  }
  void pop() {
    if (pushed_) s_.when_.pop_back();
    pushed_ = false;
  }
  ~WhenScope() { pop(); }
  WhenScope(const WhenScope&) = delete;
  WhenScope& operator=(const WhenScope&) = delete;

 private:
  Summarizer& s_;
  bool pushed_;
};

// Calls on_return(value) for each `return` of a function body, nested definitions excluded.
template <typename F>
inline void Summarizer::returns_of(TSNode n, int depth, F&& on_return) {
  if (ts_node_is_null(n) || depth > 40) return;
  std::string_view t = type_of(n);
  if (t == "function_definition" || t == "class_definition" || t == "lambda") return;
  if (t == "return_statement") {
    auto kids = named_children(n);
    on_return(kids.empty() ? TSNode{} : kids[0]);
    return;
  }
  for (TSNode c : named_children(n)) returns_of(c, depth + 1, on_return);
}

}  // namespace cudalint::python::gb::detail
