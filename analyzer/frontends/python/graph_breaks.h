// Per-file facts for torch.compile graph-break analysis (tree-sitter-python; nothing is run).
//
// One Python module is summarised on its own, in parallel with the others: its imports,
// module-level names, classes (with the attributes their methods assign to `self`), functions
// (with the graph-break candidates in their bodies and the calls they make), the places that
// start compiled regions (`@torch.compile`, `torch.compile(x)`, `torch._dynamo.optimize(...)(x)`,
// `module.compile()`) and the Dynamo config it sets. Names are resolved as far as one file
// allows: imports to dotted paths ("torch.nn.LSTM", ".ops.normalize" for relative imports),
// top-level names to ":name", `self` attributes to Self chains. The project model resolves the
// rest across files (analyzer/model/compiled_regions.h).
//
// Code that Dynamo does not trace on the compiled path is skipped: the untaken side of
// `torch.compiler.is_compiling()` / `torch.jit.is_scripting()` tests, `except` handlers,
// blocks that end by raising, assert messages and raise arguments.
#pragma once

#include <cstdint>
#include <algorithm>
#include <unordered_set>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::python::gb {

// What a name or expression denotes, as far as one file can tell.
struct Val {
  enum class Kind : uint8_t {
    Unknown,
    Path,      // text: "torch.nn.LSTM" (absolute), ":Block" (this module's top-level name),
               // ".ops.normalize" (relative: one leading dot per level)
    Func,      // text: qualified name of a function defined in this file ("f", "Cls.m", "f.inner")
    Class,     // text: qualified name of a class defined in this file
    Self,      // the instance inside a method; text: attribute chain after `self` ("" or "enc.h")
    Super,     // super()
    Instance,  // the result of calling items[0] (a class or factory)
    Attr,      // attribute chain `text` of items[0]
    Item,      // items[0][text] (text: a constant key; "" when not constant)
    Elem,      // one element of the container items[0] (a for-loop variable)
    List,      // items: elements (nn.ModuleList, nn.Sequential, a list literal)
    Dict,      // keys[i] -> items[i] (nn.ModuleDict, a dict literal, dict(k=v))
    Scripted,  // torch.jit.script(items[0]) / torch.jit.trace(items[0], ...)
    Disabled,  // torch.compiler.disable(items[0]) / torch._dynamo.disable(items[0])
    Tensor,    // a tensor (flag: a boolean tensor)
    Scalar,    // a Python number taken out of a tensor (.item(), int(t), float(t), bool(t))
  };
  Kind kind = Kind::Unknown;
  bool flag = false;
  std::string text;
  std::vector<Val> items;
  std::vector<std::string> keys;

  static Val of(Kind k, std::string text = {}) {
    Val v;
    v.kind = k;
    v.text = std::move(text);
    return v;
  }
  static Val wrap(Kind k, Val inner, std::string text = {});
  bool is(Kind k) const { return kind == k; }
};

// When a pattern breaks the graph, given the Dynamo config of the compiled region.
enum class Gate : uint8_t {
  Always,
  UnlessScalarsCaptured,   // not with capture_scalar_outputs (or fullgraph=True, which captures them)
  OnlyScalarsCaptured,     // a branch on a captured scalar (without capture, .item() broke first)
  UnlessDynamicCaptured,   // not with capture_dynamic_output_shape_ops (or fullgraph=True)
  OnlyNumpyUntraced,       // only with trace_numpy = False
  UnlessAutogradTraced,    // not with trace_autograd_ops = True (Dynamo then traces backward())
  OnlyAtEntry,             // only in the compiled function itself, not in one it calls (a generator)
};
// The last gate: the bound on a gate read back from the cache (gb_serialize.cpp).
inline constexpr Gate kLastGate = Gate::OnlyAtEntry;

// A graph break found in one file. The model adds the ones that need other files (RNN modules,
// TorchScript modules, extension functions, disabled functions).
struct BreakSite {
  std::string rule;      // the id of the GB rule that reports it ("GB004")
  Gate gate = Gate::Always;
  Span span;
  std::string what;      // the source, shortened: "x.sum().item()"
  std::string registry;  // Dynamo's graph-break registry id, "GB0124"
  std::string detail;    // kind-specific: the API name ("time.time", "grad_fn", "print")
  // Under `if p:` where p is a parameter that defaults to False/None/0 and is never rebound:
  // live only when some call reaching the function passes p (the model checks).
  std::string needs;
  // The innermost enclosing condition on a value this file cannot decide (`if flag:`, an `else`
  // of one, a `case`): Dynamo meets the break only when it holds. Empty: unconditional.
  std::string when;
};

struct CallSite {
  Span span;
  Val callee;
  std::string needs;               // as BreakSite::needs
  std::string when;                // as BreakSite::when
  int positional = 0;              // positional arguments given
  std::vector<std::string> keywords;  // keyword arguments given
  bool splat = false;              // *args / **kwargs: any parameter may be given
};

// An optional value kept on the heap: one pointer in the object instead of the value's size.
// For rarely-set fields of structs a project has hundreds of thousands of (a 10,000-module tree
// holds ~1.3 million Functions), with std::optional's interface and value semantics.
template <typename T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(const HeapOptional& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(const HeapOptional& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(T v) {
    p_ = std::make_unique<T>(std::move(v));
    return *this;
  }
  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }
  void reset() { p_.reset(); }

 private:
  std::unique_ptr<T> p_;
};

// A map from names, kept as one sorted vector: ~40 bytes and one allocation less per entry than
// std::map's nodes, for the names of every module-level definition and every `self` attribute
// of a project (a 10,000-module tree holds ~2 million). References into it do not survive an
// insertion.
template <typename V>
class NameMap {
 public:
  using value_type = std::pair<std::string, V>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  iterator begin() { return v_.begin(); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return v_.begin(); }
  const_iterator end() const { return v_.end(); }
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  iterator find(std::string_view k) {
    auto it = lower(v_, k);
    return it != v_.end() && it->first == k ? it : v_.end();
  }
  const_iterator find(std::string_view k) const {
    auto it = lower(v_, k);
    return it != v_.end() && it->first == k ? it : v_.end();
  }
  size_t count(std::string_view k) const { return find(k) != end() ? 1 : 0; }
  V& operator[](std::string_view k) {
    auto it = lower(v_, k);
    if (it == v_.end() || it->first != k) it = v_.emplace(it, std::string(k), V{});
    return it->second;
  }
  void reserve(size_t n) { v_.reserve(n); }
  void shrink_to_fit() { v_.shrink_to_fit(); }
  bool operator==(const NameMap&) const = default;

 private:
  template <typename Vec>
  static auto lower(Vec& v, std::string_view k) {
    return std::lower_bound(v.begin(), v.end(), k, [](const value_type& e, std::string_view key) { return e.first < key; });
  }
  std::vector<value_type> v_;
};

// A short list of names (identifiers: no NUL in them) in one string, each ending in a NUL: a
// function's parameters without a vector and a string object per name (~60 bytes less per
// function; a 10,000-module tree has ~1.3 million functions). Read in order, by iterating.
class NameList {
 public:
  NameList() = default;
  explicit NameList(const std::vector<std::string>& names) {
    for (const auto& n : names) push_back(n);
  }
  bool empty() const { return joined_.empty(); }
  void push_back(std::string_view name) {
    joined_.append(name);
    joined_.push_back('\0');
  }
  void clear() { joined_.clear(); }
  void shrink_to_fit() { joined_.shrink_to_fit(); }
  // The names in order.
  class iterator {
   public:
    iterator(const std::string* s, size_t at) : s_(s), at_(at) {}
    std::string_view operator*() const {
      return std::string_view(*s_).substr(at_, s_->find('\0', at_) - at_);
    }
    iterator& operator++() {
      at_ = s_->find('\0', at_) + 1;
      return *this;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_; }

   private:
    const std::string* s_;
    size_t at_;
  };
  iterator begin() const { return iterator(&joined_, 0); }
  iterator end() const { return iterator(&joined_, joined_.size()); }
  std::vector<std::string> to_vector() const {
    std::vector<std::string> v;
    for (std::string_view name : *this) v.emplace_back(name);
    return v;
  }
  bool operator==(const NameList&) const = default;

 private:
  std::string joined_;
};

// How a function is compiled when it is itself an entry point.
struct CompileMark {
  Span span;                // the decorator or call
  bool fullgraph = false;   // fullgraph=True / nopython=True
  std::map<std::string, bool> config;  // @torch._dynamo.config.patch(key=True) on the entry
};

struct Function {
  std::string qualname;     // "f", "Cls.method", "outer.inner"
  // The last part of qualname (computed: a stored copy was ~40 MB of a 10,000-module tree).
  std::string_view name() const {
    std::string_view q = qualname;
    return q.substr(q.rfind('.') + 1);  // npos + 1 == 0
  }
  int cls = -1;             // index into classes for methods
  int self_cls = -1;        // the class `self` refers to: methods and functions nested in them
  Span name_span;
  HeapOptional<CompileMark> compiled;    // @torch.compile / @torch._dynamo.optimize(...)
  bool disabled = false;                 // @torch.compiler.disable / @torch._dynamo.disable
  bool disabled_nonrecursive = false;    // disable(recursive=False)
  bool opaque = false;      // Dynamo does not trace the body: custom ops, allow_in_graph, triton kernels
  bool scripted = false;    // @torch.jit.script
  bool has_breaks_in_loop = false;
  NameList params;                  // parameter names in order, `self` included
  // What its `return` statements give that may be a module or a function (a factory's
  // `return Model(cfg)`), at most kMaxReturns; tensors and unknowns are not kept.
  std::vector<Val> returns;
  std::vector<BreakSite> breaks;
  std::vector<CallSite> calls;
};

struct Class {
  std::string name;
  std::string qualname;
  Span name_span;
  std::vector<Val> bases;
  NameMap<Val> attrs;                   // self.<name> = <value> in any method (last wins)
  NameMap<int> methods;                 // name -> function index
};

struct CompileSite {
  Span span;
  Val target;                 // what is compiled: a function, a method, a module instance
  bool fullgraph = false;
  bool method_form = false;   // `x.compile()`: only a project nn.Module instance counts
};

struct ConfigSet {
  std::string key;   // "capture_scalar_outputs", "capture_dynamic_output_shape_ops", "allow_rnn", "trace_numpy"
  bool value = false;
  Span span;
};

struct Summary {
  std::vector<Function> functions;
  std::vector<Class> classes;
  NameMap<Val> globals;                   // module-level names
  std::vector<CompileSite> compile_sites;
  std::vector<ConfigSet> config;
  std::vector<std::string> imports;       // imported module paths, absolute or relative ("..ops")
  // Top-level functions and classes left out by summarize_lazy (sorted, unique): none of their
  // names is written in the code kept. A lookup of one from another module asks for them.
  std::vector<std::string> elided;
  bool truncated = false;                 // a work limit was hit; the summary is partial
};

class CallPatterns;  // the rules' call patterns (gb_call_patterns.h)

// Never throws; bounded work and recursion for any input. `calls` are the calls that break the
// graph (rules::graph_break_calls() gathers the GB rules' rows).
Summary summarize(std::string_view text, const CallPatterns& calls);

// The summary of the module's code that its compiled regions may reach, without parsing the
// rest. Kept: every top-level statement that is not a `def` or `class`; each top-level function
// and class whose text may start a region or set Dynamo config (may_start_regions), imports or
// declares `global`, or whose name is in `want`; and, repeatedly, each one whose name is written
// (as an identifier, anywhere) in the code kept. The others are listed in Summary::elided. For
// everything kept the summary is the one summarize() gives; a lookup of an elided name from
// another module is answered by summarising again with that name wanted
// (model::find_graph_breaks). Falls back to summarize() when the lexer cannot split the module
// (top_level.h) or the kept code does not parse cleanly.
Summary summarize_lazy(std::string_view text, const CallPatterns& calls, const std::vector<std::string>& want = {});

// Whether a module may start compiled regions or set Dynamo config, from its bytes alone:
// every entry form (`torch.compile`, `.compile()`, `torch._dynamo.optimize`,
// `torch._dynamo.config.patch`) and every config assignment (`torch._dynamo.config.X = ...`)
// the summary recognises is resolved from names written in the module itself, so its text
// contains "compile", "optimize" or "dynamo". A module without them is summarised only when
// the analysis reaches it (analyzer/model/compiled_regions.h).
bool may_start_regions(std::string_view text);

// A set of identifiers (views of strings that outlive it) that rejects most other words
// without hashing them: by first byte and length.
class WordSet {
 public:
  WordSet() = default;
  template <typename It>
  WordSet(It first, It last) {
    for (; first != last; ++first) insert(*first);
  }
  void insert(std::string_view w);
  bool contains(std::string_view w) const {
    if (w.empty() || !(by_first_[static_cast<unsigned char>(w[0])] >> std::min<size_t>(w.size(), 63) & 1)) return false;
    return set_.count(w) > 0;
  }

 private:
  std::unordered_set<std::string_view> set_;
  uint64_t by_first_[256] = {};  // bit min(length, 63) set for the words starting with that byte
};

// The identifiers of `text` (maximal runs of [A-Za-z0-9_] and non-ASCII bytes, in code,
// strings and comments alike) that are in `keep`, sorted and unique. Every module path an
// import statement of the summary names is made of such identifiers.
std::vector<std::string> words_of(std::string_view text, const WordSet& keep);

}  // namespace cudalint::python::gb
