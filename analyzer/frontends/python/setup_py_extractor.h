// setup.py front-end, private to its files: the helpers and the Extractor class that picks
// extensions, environment settings, cmdclass and imports out of each statement of the static
// walk. Its members are defined by concern:
//   setup_py.cpp             statements, imports, the per-statement call scan, the entry point
//   setup_py_conditions.cpp  the environment conditions a block or call runs under
//   setup_py_extensions.cpp  extensions, their sources, cmdclass and environment settings
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/python/jit_build.h"
#include "analyzer/frontends/python/py_eval.h"
#include "analyzer/frontends/python/setup_py.h"
#include "analyzer/frontends/python/str_list.h"

namespace cudalint::python::setup_detail {

using K = Value::Kind;

inline constexpr size_t kMaxErrors = 50;   // random bytes make thousands; the first ones are the useful ones
inline constexpr size_t kMaxQuoted = 40;   // bytes of source quoted in one message

inline std::string_view last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

inline std::string_view prefix_of(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

// A path names torch's class when it is `X` (a star import or a local alias) or `...cpp_extension.X`.
inline bool is_cpp_extension_name(std::string_view path, std::string_view name) {
  std::string_view prefix = prefix_of(path);
  return last_component(path) == name && (prefix.empty() || last_component(prefix) == "cpp_extension");
}

// Source text quoted in a message: one line, at most kMaxQuoted bytes, valid UTF-8, printable.
inline std::string quote(std::string_view s) {
  s = s.substr(0, std::min(s.find_first_of("\r\n"), kMaxQuoted));
  if (auto bad = first_invalid_utf8(s)) s = s.substr(0, *bad);
  std::string out;
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) break;
    out += c;
  }
  return out;
}

inline void collect_errors(TSNode root, std::string_view text, std::vector<ParseError>& out) {
  auto slice = [&](TSNode n) {
    uint32_t b = std::min<uint32_t>(ts_node_start_byte(n), static_cast<uint32_t>(text.size()));
    uint32_t e = std::min<uint32_t>(ts_node_end_byte(n), static_cast<uint32_t>(text.size()));
    return text.substr(b, e > b ? e - b : 0);
  };
  TSTreeCursor c = ts_tree_cursor_new(root);
  // Only subtrees that contain an error are entered; an ERROR's own inner errors are not repeated.
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool descend = false;
    if (ts_node_is_error(n)) {
      // An ERROR node often starts with valid constructs it absorbed (`x = f(1))` keeps the
      // assignment); the error is at the first token after them.
      TSNode first = n;
      TSTreeCursor k = ts_tree_cursor_new(n);
      if (ts_tree_cursor_goto_first_child(&k)) {
        do {
          first = ts_tree_cursor_current_node(&k);
          if (!ts_node_is_named(first) || ts_node_has_error(first)) break;
        } while (ts_tree_cursor_goto_next_sibling(&k));
      }
      ts_tree_cursor_delete(&k);
      TSNode leaf = first;
      while (ts_node_child_count(leaf) > 0) leaf = ts_node_child(leaf, 0);
      std::string tok = quote(slice(leaf));
      Span span{ts_node_start_byte(first), ts_node_end_byte(n)};
      out.push_back({span, tok.empty() ? std::string("syntax error") : "syntax error: unexpected `" + tok + "`"});
    } else if (ts_node_is_missing(n)) {
      std::string what(ts_node_type(n));
      if (ts_node_is_named(n)) {
        std::replace(what.begin(), what.end(), '_', ' ');
        out.push_back({span_of(n), "missing " + what});
      } else {
        out.push_back({span_of(n), "missing `" + what + "`"});
      }
    } else {
      descend = ts_node_has_error(n);
    }
    if (out.size() >= kMaxErrors) break;
    if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
    bool more = true;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) {
        more = false;
        break;
      }
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
}

enum class Tri { No, Maybe, Yes };

// Whether a cmdclass["build_ext"] value is torch's BuildExtension (or derives from it). Values
// this file cannot resolve (a helper from another module, a computed class) are Maybe.
inline Tri build_extension(const Value& v) {
  auto of_path = [](std::string_view p) {
    if (p.empty()) return Tri::Maybe;
    if (is_cpp_extension_name(p, "BuildExtension")) return Tri::Yes;
    for (std::string_view other : {"setuptools.", "distutils.", "Cython.", "numpy.distutils."})
      if (p.starts_with(other)) return Tri::No;
    return p == "object" ? Tri::No : Tri::Maybe;
  };
  switch (v.kind) {
    case K::Ref: return of_path(v.text);
    case K::Class: {
      Tri r = Tri::No;
      for (const std::string& base : v.keys) r = std::max(r, of_path(base));
      return r;
    }
    case K::Unknown: return Tri::Maybe;
    default: return Tri::No;
  }
}

inline std::optional<Str> str_of(const Value& v) {
  if (!v.is(K::Str)) return std::nullopt;
  return Str{v.text, v.span};
}

// ---- environment conditions -------------------------------------------------------------------

using EnvCondition = Extension::EnvCondition;
using Test = EnvCondition::Test;

inline constexpr int kMaxCondDepth = 16;     // nested condition expressions and name look-ups
inline constexpr size_t kMaxConditions = 32;  // env tests kept per extension

// A conjunction of environment tests, possibly with a test that is not one (`unknown`), or a
// condition that never holds.
struct Conj {
  std::vector<EnvCondition> envs;
  std::optional<Span> unknown;
  bool never = false;
  bool is_true() const { return envs.empty() && !unknown && !never; }
};

inline Conj unknown_conj(Span s) {
  Conj c;
  c.unknown = s;
  return c;
}

inline void and_into(Conj& a, const Conj& b) {
  for (const EnvCondition& e : b.envs) {
    if (a.envs.size() >= kMaxConditions) {
      if (!a.unknown) a.unknown = e.span;  // the ones dropped still decide: not statically known
      break;
    }
    a.envs.push_back(e);
  }
  if (!a.unknown) a.unknown = b.unknown;
  a.never = a.never || b.never;
}

// os.getenv("X", d) / os.environ.get("X", d) / os.environ["X"].
struct EnvRead {
  std::string var;
  std::optional<Value> def;  // nullopt: no default (None)
};

// int(" 12 ") as Python reads it; nullopt where it raises.
inline std::optional<int64_t> py_int(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  if (s.starts_with('+')) s.remove_prefix(1);
  std::string digits;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_' && i > 0 && i + 1 < s.size() && s[i - 1] != '_') continue;
    digits += c;
  }
  int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

inline std::optional<std::string> scalar_text(const Value& v) {
  if (v.is(K::Str)) return v.text;
  if (v.is(K::Int)) return std::to_string(v.number);
  return std::nullopt;
}

class Extractor {
 public:
  Extractor(Interpreter& in, SetupPy& out) : in_(in), out_(out) {}

  void statement(TSNode stmt, Scope& scope, bool conditional);

 private:
  void imports(TSNode stmt);

  // Finds the calls in one statement (not in its nested blocks), in source order, with one
  // cursor: a preorder walk that keeps, per ancestor, whether its children may not run, and the
  // tests (`x if test else y`, `test and f()`) the current node runs under.
  void scan_calls(TSNode root, Scope& scope, bool conditional);

  // ---- conditions ----

  // Records the condition of each branch of an if statement (with the earlier branches' tests
  // negated), for the statements inside it.
  void branches(TSNode stmt, Scope& scope);

  // Whether a block ends by leaving it: return, continue, break. Not raise or sys.exit(): a
  // setup.py that stops builds nothing, and conditions describe what a finished run builds
  // (`if CUDA_HOME is None: raise ...` does not make every extension undecidable).
  static bool exits(TSNode block);

  // The blocks of other compound statements, recorded without a condition: they bound the
  // guards inside them.
  void blocks(TSNode stmt);

  static constexpr size_t kNone = SIZE_MAX;

  // The innermost recorded block that contains byte `p`. Blocks nest, so the last one that
  // starts at or before p is p's innermost block or inside it.
  size_t innermost(uint32_t p) const;

  void add_range(Span s, Conj c);

  // The conditions the call at `call` runs under: enclosing branches and in-statement tests.
  Conj conditions_of(TSNode call, Scope& scope);

  // Whether the name is assigned once: a value merged from several branches (`if hip: X = True
  // else: X = False`) keeps the span of the first, which is not what the name holds.
  bool single_binding(TSNode name) const { return bindings_.assigned_to(in_.text(name)).size() <= 1; }

  // The env read an expression is (through names bound to one), if any.
  std::optional<EnvRead> env_read(TSNode n, Scope& scope, int depth);

  // `int(E)` (numeric) or E.
  std::optional<std::pair<EnvRead, bool>> env_term(TSNode n, Scope& scope);

  static EnvCondition make(const EnvRead& r, Test test, bool numeric, std::string value, Span span);

  static Conj one(EnvCondition e);

  // What must hold for `n` to be true (false when `neg`), as environment tests.
  Conj analyze(TSNode n, bool neg, Scope& scope, int depth);

  Conj comparison(TSNode n, bool neg, Scope& scope);

  void on_call(TSNode call, Scope& scope, bool conditional);

  void cmdclass(const Value& v, Span where);

  void with_options(TSNode call, Scope& scope);

  // The span of `"key": value`'s value when `dict_node` is a dictionary literal.
  std::optional<Span> pair_value_span(TSNode dict_node, std::string_view key, Scope& scope);

  void extension(std::string kind, TSNode call, Scope& scope, std::optional<Span> class_chosen);

  // The expression of `key` in a `**mapping` argument of the call, when the mapping is a dict
  // literal or dict(...) call (directly or through a name).
  TSNode splat_entry(TSNode call, std::string_view key, Scope& scope);

  // Through names bound to an unknown or container value, to the expression that made it.
  TSNode follow(TSNode n, Scope& scope);

  // Sources written as a list literal whose elements the evaluator could not resolve but are
  // paths relative to the file (os.path.join(this_dir, "csrc", "k.cu")).
  void resolve_sources(TSNode node, const Value& v, Scope& scope, StrList& l);

  // glob.glob(pattern) / glob.iglob / Path(...).glob / .rglob anywhere in the expression of
  // the sources (through names assigned, added or appended to).
  void collect_globs(TSNode root, Scope& scope, std::vector<Str>& out);

  void env_call(EnvSetting::Kind kind, TSNode call, Scope& scope, bool conditional);

  void env_update(TSNode call, Scope& scope, bool conditional);

  void env_assignment(TSNode stmt, TSNode assign, Scope& scope, bool conditional);

  struct Range {
    Span span;      // a branch's block
    size_t parent;  // the innermost recorded block around it
    Conj cond;      // what must hold for the block to run
  };

  Interpreter& in_;
  SetupPy& out_;
  bool build_ext_certain_ = false;  // uses_build_extension came from a definite match
  detail::Bindings bindings_;
  std::vector<Range> ranges_;
  std::map<uint32_t, size_t> range_by_begin_;
  std::vector<std::pair<TSNode, bool>> tests_;  // in-statement tests of the current node (negated?)
};

}  // namespace cudalint::python::setup_detail
