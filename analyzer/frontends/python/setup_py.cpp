// setup.py front-end (see setup_py.h): tree-sitter parse, syntax errors from ERROR/MISSING nodes,
// then one static walk (py_eval.h) whose statement hook picks out extensions, environment
// settings, cmdclass and imports. The error scan and the per-statement call scan are iterative.
#include "analyzer/frontends/python/setup_py.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <unordered_set>

#include <tree_sitter/api.h>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/python/jit_build.h"
#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python {

namespace {

using K = Value::Kind;

constexpr size_t kMaxErrors = 50;   // random bytes make thousands; the first ones are the useful ones
constexpr size_t kMaxQuoted = 40;   // bytes of source quoted in one message

std::string_view last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::string_view prefix_of(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

// A path names torch's class when it is `X` (a star import or a local alias) or `...cpp_extension.X`.
bool is_cpp_extension_name(std::string_view path, std::string_view name) {
  std::string_view prefix = prefix_of(path);
  return last_component(path) == name && (prefix.empty() || last_component(prefix) == "cpp_extension");
}

// Source text quoted in a message: one line, at most kMaxQuoted bytes, valid UTF-8, printable.
std::string quote(std::string_view s) {
  s = s.substr(0, std::min(s.find_first_of("\r\n"), kMaxQuoted));
  if (auto bad = first_invalid_utf8(s)) s = s.substr(0, *bad);
  std::string out;
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) break;
    out += c;
  }
  return out;
}

void collect_errors(TSNode root, std::string_view text, std::vector<ParseError>& out) {
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
Tri build_extension(const Value& v) {
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

StrList str_list(const Value& v, Span span) {
  StrList l;
  l.span = span;
  if (!v.is_seq()) {
    l.complete = false;
    return l;
  }
  l.complete = v.complete;
  for (const Value& x : v.items) {
    if (x.is(K::Str)) l.items.push_back({x.text, x.span});
    else l.complete = false;
  }
  return l;
}

std::optional<Str> str_of(const Value& v) {
  if (!v.is(K::Str)) return std::nullopt;
  return Str{v.text, v.span};
}

// ---- environment conditions -------------------------------------------------------------------

using EnvCondition = Extension::EnvCondition;
using Test = EnvCondition::Test;

constexpr int kMaxCondDepth = 16;     // nested condition expressions and name look-ups
constexpr size_t kMaxConditions = 32;  // env tests kept per extension

// A conjunction of environment tests, possibly with a test that is not one (`unknown`), or a
// condition that never holds.
struct Conj {
  std::vector<EnvCondition> envs;
  std::optional<Span> unknown;
  bool never = false;
  bool is_true() const { return envs.empty() && !unknown && !never; }
};

Conj unknown_conj(Span s) {
  Conj c;
  c.unknown = s;
  return c;
}

void and_into(Conj& a, const Conj& b) {
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
std::optional<int64_t> py_int(std::string_view s) {
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

std::optional<std::string> scalar_text(const Value& v) {
  if (v.is(K::Str)) return v.text;
  if (v.is(K::Int)) return std::to_string(v.number);
  return std::nullopt;
}

class Extractor {
 public:
  Extractor(Interpreter& in, SetupPy& out) : in_(in), out_(out) {}

  void statement(TSNode stmt, Scope& scope, bool conditional) {
    std::string_view t = type_of(stmt);
    bindings_.record(stmt, in_);
    if (t == "if_statement") branches(stmt, scope);
    else blocks(stmt);
    if (t == "import_statement" || t == "import_from_statement") imports(stmt);
    if (t == "expression_statement")
      for (TSNode c : named_children(stmt))
        if (type_of(c) == "assignment" || type_of(c) == "augmented_assignment")
          env_assignment(stmt, c, scope, conditional);
    scan_calls(stmt, scope, conditional);
  }

 private:
  void imports(TSNode stmt) {
    auto torch = [&](TSNode dotted) {
      std::string m;
      for (char c : in_.text(dotted))
        if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') m += c;
      if (m == "torch" || m.starts_with("torch.")) out_.imports_torch = true;
    };
    if (type_of(stmt) == "import_from_statement") {
      torch(field(stmt, "module_name"));
      return;
    }
    for (TSNode c : named_children(stmt)) torch(type_of(c) == "aliased_import" ? field(c, "name") : c);
  }

  // Finds the calls in one statement (not in its nested blocks), in source order, with one
  // cursor: a preorder walk that keeps, per ancestor, whether its children may not run, and the
  // tests (`x if test else y`, `test and f()`) the current node runs under.
  void scan_calls(TSNode root, Scope& scope, bool conditional) {
    struct Level {
      bool child_cond;  // everything below may not run
      bool boolean;     // a boolean_operator: its right operand may not run
      TSNode node;      // the parent
      int named = 0;    // its named children seen so far
      size_t base = 0;  // tests_ size below this parent
    };
    std::vector<Level> levels;
    tests_.clear();
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      bool cond = conditional;
      std::string_view t = type_of(n);
      if (!levels.empty()) {
        Level& up = levels.back();
        const char* f = up.boolean ? ts_tree_cursor_current_field_name(&c) : nullptr;
        bool right = f && std::string_view(f) == "right";
        cond = up.child_cond || right;
        tests_.resize(up.base);
        if (ts_node_is_named(n) && t != "comment" && t != "line_continuation") {
          int idx = up.named++;
          std::string_view pt = type_of(up.node);
          if (pt == "conditional_expression" && (idx == 0 || idx == 2)) {
            auto kids = named_children(up.node);
            if (kids.size() == 3) tests_.push_back({kids[1], idx == 2});
          } else if (right) {
            tests_.push_back({field(up.node, "left"), in_.text(field(up.node, "operator")) == "or"});
          }
        }
      }
      if (t == "call") on_call(n, scope, cond);
      // Nested blocks are reported by the walk itself; strings hold no calls worth finding.
      bool descend = ts_node_is_named(n) && t != "block" && t != "string";
      if (descend && ts_tree_cursor_goto_first_child(&c)) {
        bool child_cond = cond || t == "conditional_expression" || t == "lambda" || t == "list_comprehension" ||
                          t == "set_comprehension" || t == "dictionary_comprehension" || t == "generator_expression";
        levels.push_back({child_cond, t == "boolean_operator", n, 0, tests_.size()});
        continue;
      }
      bool more = false;
      while (!levels.empty()) {
        if (ts_tree_cursor_goto_next_sibling(&c)) {
          more = true;
          break;
        }
        ts_tree_cursor_goto_parent(&c);
        levels.pop_back();
      }
      if (!more) break;
    }
    ts_tree_cursor_delete(&c);
    tests_.clear();
  }

  // ---- conditions ----

  // Records the condition of each branch of an if statement (with the earlier branches' tests
  // negated), for the statements inside it.
  void branches(TSNode stmt, Scope& scope) {
    Conj earlier_failed;  // the earlier branches' tests all failed
    auto branch = [&](TSNode test, TSNode block) {
      if (ts_node_is_null(block)) return;
      Conj c = earlier_failed;
      if (!ts_node_is_null(test)) {
        and_into(c, analyze(test, false, scope, 0));
        and_into(earlier_failed, analyze(test, true, scope, 0));
      }
      add_range(span_of(block), std::move(c));
    };
    branch(field(stmt, "condition"), field(stmt, "consequence"));
    bool elif = false;
    for (TSNode alt : named_children(stmt)) {
      if (type_of(alt) == "elif_clause") {
        elif = true;
        branch(field(alt, "condition"), field(alt, "consequence"));
      } else if (type_of(alt) == "else_clause") {
        branch(TSNode{}, field(alt, "body"));
      }
    }
    // A guard (`if not ok: return []`): the rest of the enclosing block runs only when it fails.
    if (!elif && exits(field(stmt, "consequence"))) {
      uint32_t end = ts_node_end_byte(stmt);
      size_t outer = innermost(ts_node_start_byte(stmt));
      uint32_t limit = outer == kNone ? UINT32_MAX : ranges_[outer].span.end;
      if (end < limit) add_range({end, limit}, analyze(field(stmt, "condition"), true, scope, 0));
    }
  }

  // Whether a block ends by leaving it: return, continue, break. Not raise or sys.exit(): a
  // setup.py that stops builds nothing, and conditions describe what a finished run builds
  // (`if CUDA_HOME is None: raise ...` does not make every extension undecidable).
  static bool exits(TSNode block) {
    auto kids = named_children(block);
    if (kids.empty()) return false;
    std::string_view t = type_of(kids.back());
    return t == "return_statement" || t == "continue_statement" || t == "break_statement";
  }

  // The blocks of other compound statements, recorded without a condition: they bound the
  // guards inside them.
  void blocks(TSNode stmt) {
    std::string_view t = type_of(stmt);
    if (t == "decorated_definition") {
      blocks(field(stmt, "definition"));
      return;
    }
    if (t == "function_definition" || t == "class_definition") {
      add_range(span_of(field(stmt, "body")), Conj{});
      return;
    }
    if (t != "for_statement" && t != "while_statement" && t != "with_statement" && t != "try_statement") return;
    for (TSNode c : named_children(stmt)) {
      std::string_view ct = type_of(c);
      if (ct == "block") {
        add_range(span_of(c), Conj{});
      } else if (ct == "else_clause" || ct == "except_clause" || ct == "except_group_clause" || ct == "finally_clause") {
        for (TSNode b : named_children(c))
          if (type_of(b) == "block") add_range(span_of(b), Conj{});
      }
    }
  }

  static constexpr size_t kNone = SIZE_MAX;

  // The innermost recorded block that contains byte `p`. Blocks nest, so the last one that
  // starts at or before p is p's innermost block or inside it.
  size_t innermost(uint32_t p) const {
    auto it = range_by_begin_.upper_bound(p);
    if (it == range_by_begin_.begin()) return kNone;
    size_t i = std::prev(it)->second;
    while (i != kNone && !(ranges_[i].span.begin <= p && p < ranges_[i].span.end)) i = ranges_[i].parent;
    return i;
  }

  void add_range(Span s, Conj c) {
    if (s.end <= s.begin || range_by_begin_.count(s.begin)) return;
    size_t parent = innermost(s.begin);
    range_by_begin_.emplace(s.begin, ranges_.size());
    ranges_.push_back({s, parent, std::move(c)});
  }

  // The conditions the call at `call` runs under: enclosing branches and in-statement tests.
  Conj conditions_of(TSNode call, Scope& scope) {
    Conj c;
    for (size_t i = innermost(ts_node_start_byte(call)); i != kNone; i = ranges_[i].parent) and_into(c, ranges_[i].cond);
    for (const auto& [test, neg] : tests_) and_into(c, analyze(test, neg, scope, 0));
    return c;
  }

  // Whether the name is assigned once: a value merged from several branches (`if hip: X = True
  // else: X = False`) keeps the span of the first, which is not what the name holds.
  bool single_binding(TSNode name) const { return bindings_.assigned_to(in_.text(name)).size() <= 1; }

  // The env read an expression is (through names bound to one), if any.
  std::optional<EnvRead> env_read(TSNode n, Scope& scope, int depth) {
    if (depth > kMaxCondDepth || ts_node_is_null(n)) return std::nullopt;
    std::string_view t = type_of(n);
    if (t == "parenthesized_expression") {
      auto kids = named_children(n);
      return kids.size() == 1 ? env_read(kids[0], scope, depth + 1) : std::nullopt;
    }
    if (t == "identifier") {
      TSNode rhs{};
      const Value* v = scope.find(in_.text(n));
      if (v && v->is(K::Unknown) && single_binding(n) && bindings_.expression_of(v->span, &rhs) && rhs.id != n.id)
        return env_read(rhs, scope, depth + 1);
      return std::nullopt;
    }
    if (t == "subscript") {
      auto path = in_.path_of(field(n, "value"), scope);
      if (!path || *path != "os.environ" || named_children(n).size() != 2) return std::nullopt;
      Value k = in_.eval(field(n, "subscript"), scope);
      if (!k.is(K::Str)) return std::nullopt;
      return EnvRead{k.text, std::nullopt};
    }
    if (t != "call") return std::nullopt;
    auto path = in_.path_of(field(n, "function"), scope);
    if (!path || (*path != "os.getenv" && *path != "os.environ.get")) return std::nullopt;
    Args a = in_.eval_args(field(n, "arguments"), scope);
    if (a.unknown_rest) return std::nullopt;
    const Arg* key = a.positional(0);
    if (!key) key = a.keyword("key");
    if (!key || !key->value.is(K::Str)) return std::nullopt;
    const Arg* def = a.positional(1);
    if (!def) def = a.keyword("default");
    EnvRead r{key->value.text, std::nullopt};
    if (def && !def->value.is(K::None)) {
      const Value& d = def->value;
      if (!d.is(K::Str) && !d.is(K::Int) && !d.is(K::Bool)) return std::nullopt;
      r.def = d;
    }
    return r;
  }

  // `int(E)` (numeric) or E.
  std::optional<std::pair<EnvRead, bool>> env_term(TSNode n, Scope& scope) {
    if (type_of(n) == "call") {
      auto path = in_.path_of(field(n, "function"), scope);
      auto args = named_children(field(n, "arguments"));
      if (path && *path == "int" && args.size() == 1) {
        if (auto r = env_read(args[0], scope, 1)) return std::pair{std::move(*r), true};
        return std::nullopt;
      }
    }
    if (auto r = env_read(n, scope, 0)) return std::pair{std::move(*r), false};
    return std::nullopt;
  }

  static EnvCondition make(const EnvRead& r, Test test, bool numeric, std::string value, Span span) {
    EnvCondition e;
    e.var = r.var;
    e.test = test;
    e.numeric = numeric;
    e.value = std::move(value);
    e.span = span;
    if (r.def) {
      const Value& d = *r.def;
      if (numeric) {
        if (d.is(K::Bool)) e.default_value = d.flag ? "1" : "0";
        else e.default_value = scalar_text(d);
      } else if (test == Test::Truthy || test == Test::Falsy) {
        // A non-string default only matters through its truth.
        if (d.is(K::Str)) e.default_value = d.text;
        else e.default_value = truth(d).value_or(false) ? "1" : "";
      } else if (d.is(K::Str)) {
        e.default_value = d.text;  // an int default never equals a string: as if unset
      }
    }
    return e;
  }

  static Conj one(EnvCondition e) {
    Conj c;
    c.envs.push_back(std::move(e));
    return c;
  }

  // What must hold for `n` to be true (false when `neg`), as environment tests.
  Conj analyze(TSNode n, bool neg, Scope& scope, int depth) {
    Span sp = span_of(n);
    if (depth > kMaxCondDepth || ts_node_is_null(n)) return unknown_conj(sp);
    // Statically known (a constant, a name bound to one).
    if (auto known = truth(in_.eval(n, scope))) {
      Conj c;
      c.never = *known == neg;
      return c;
    }
    std::string_view t = type_of(n);
    if (t == "parenthesized_expression") {
      auto kids = named_children(n);
      return kids.size() == 1 ? analyze(kids[0], neg, scope, depth + 1) : unknown_conj(sp);
    }
    if (t == "not_operator") return analyze(field(n, "argument"), !neg, scope, depth + 1);
    if (t == "boolean_operator") {
      bool conj = (in_.text(field(n, "operator")) == "and") != neg;  // De Morgan
      Conj l = analyze(field(n, "left"), neg, scope, depth + 1);
      Conj r = analyze(field(n, "right"), neg, scope, depth + 1);
      if (conj) {
        and_into(l, r);
        return l;
      }
      if (l.is_true() || r.is_true()) return Conj{};
      if (l.never) return r;
      if (r.never) return l;
      return unknown_conj(sp);  // a disjunction: not one list of tests
    }
    if (t == "comparison_operator") return comparison(n, neg, scope);
    // Truthiness: E, int(E), bool(E), bool(int(E)).
    TSNode inner = n;
    if (t == "call") {
      auto path = in_.path_of(field(n, "function"), scope);
      auto args = named_children(field(n, "arguments"));
      if (path && *path == "bool" && args.size() == 1) inner = args[0];
    }
    if (auto term = env_term(inner, scope))
      return one(make(term->first, neg ? Test::Falsy : Test::Truthy, term->second, "", sp));
    if (t == "identifier") {
      TSNode rhs{};
      const Value* v = scope.find(in_.text(n));
      if (v && v->is(K::Unknown) && single_binding(n) && bindings_.expression_of(v->span, &rhs) && rhs.id != n.id)
        return analyze(rhs, neg, scope, depth + 1);
    }
    return unknown_conj(sp);
  }

  Conj comparison(TSNode n, bool neg, Scope& scope) {
    Span sp = span_of(n);
    auto operands = named_children(n);
    auto cmp = comparison_operator(n);
    if (!cmp) return unknown_conj(sp);
    const std::string& op = *cmp;
    if (op == "==" || op == "!=") {
      bool equals = (op == "==") != neg;
      for (int side = 0; side < 2; ++side) {
        auto term = env_term(operands[side], scope);
        if (!term) continue;
        Value other = in_.eval(operands[1 - side], scope);
        std::optional<std::string> value;
        if (term->second) {
          if (other.is(K::Int)) value = std::to_string(other.number);
        } else if (other.is(K::Str)) {
          value = other.text;
        }
        if (!value) return unknown_conj(sp);
        return one(make(term->first, equals ? Test::Equals : Test::NotEquals, term->second, *value, sp));
      }
      return unknown_conj(sp);
    }
    if (op == "in" || op == "not in") {
      bool in = (op == "in") != neg;
      auto container = in_.path_of(operands[1], scope);
      Value left = in_.eval(operands[0], scope);
      if (container && *container == "os.environ" && left.is(K::Str))
        return one(make(EnvRead{left.text, std::nullopt}, in ? Test::Set : Test::Unset, false, "", sp));
      // E in ("1",): one value
      Value right = in_.eval(operands[1], scope);
      if (auto term = env_term(operands[0], scope);
          term && !term->second && right.is_seq() && right.complete && right.items.size() == 1 &&
          right.items[0].is(K::Str))
        return one(make(term->first, in ? Test::Equals : Test::NotEquals, false, right.items[0].text, sp));
      return unknown_conj(sp);
    }
    if (op == "is" || op == "is not") {
      bool is = (op == "is") != neg;
      for (int side = 0; side < 2; ++side) {
        auto r = env_read(operands[side], scope, 0);
        if (!r || !in_.eval(operands[1 - side], scope).is(K::None)) continue;
        if (r->def) {  // a default is never None
          Conj c;
          c.never = is;
          return c;
        }
        return one(make(*r, is ? Test::Unset : Test::Set, false, "", sp));
      }
    }
    return unknown_conj(sp);
  }

  void on_call(TSNode call, Scope& scope, bool conditional) {
    TSNode fn = field(call, "function");
    TSNode args = field(call, "arguments");
    if (type_of(args) != "argument_list") return;
    std::optional<std::string> path = in_.path_of(fn, scope);
    if (path) {
      std::string_view last = last_component(*path);
      if (is_cpp_extension_name(*path, "CUDAExtension") || is_cpp_extension_name(*path, "CppExtension")) {
        // `extension(...)` with the class chosen among others at build time (a CUDA path and a
        // vendor's): whether it builds CUDA code is not decided here.
        const Value* chosen = type_of(fn) == "identifier" ? scope.find(in_.text(fn)) : nullptr;
        extension(std::string(last), call, scope,
                  chosen && chosen->is(K::Ref) && !chosen->complete ? std::optional<Span>(span_of(fn)) : std::nullopt);
      }
      else if (*path == "os.getenv" || *path == "os.environ.get")
        env_call(EnvSetting::Kind::GetenvDefault, call, scope, conditional);
      else if (*path == "os.environ.setdefault")
        env_call(EnvSetting::Kind::SetDefault, call, scope, conditional);
      else if (*path == "os.environ.update")
        env_update(call, scope, conditional);
      else if (last == "with_options" && is_cpp_extension_name(prefix_of(*path), "BuildExtension"))
        with_options(call, scope);
    } else if (type_of(fn) == "attribute" && in_.text(field(fn, "attribute")) == "with_options") {
      // A subclass of BuildExtension defined in the file.
      if (build_extension(in_.eval(field(fn, "object"), scope)) == Tri::Yes) with_options(call, scope);
    }
    for (TSNode a : named_children(args)) {
      if (type_of(a) == "keyword_argument" && in_.text(field(a, "name")) == "ext_modules" && path &&
          last_component(*path) == "setup") {
        out_.ext_modules = span_of(a);
      } else if (type_of(a) == "keyword_argument" && in_.text(field(a, "name")) == "cmdclass") {
        TSNode v = field(a, "value");
        cmdclass(in_.eval(v, scope), span_of(v));
      } else if (type_of(a) == "dictionary_splat" && path && last_component(*path) == "setup") {
        // setup(**kwargs) with a dict built in the file
        auto kids = named_children(a);
        if (kids.empty()) continue;
        Value kw = in_.eval(kids[0], scope);
        if (const Value* cc = kw.find("cmdclass")) cmdclass(*cc, span_of(a));
      }
    }
  }

  void cmdclass(const Value& v, Span where) {
    Tri r = Tri::No;
    Span span = where;
    if (v.is(K::Dict)) {
      if (const Value* e = v.find("build_ext")) {
        r = build_extension(*e);
        // A dict merged from branches (`{...} if c else {}`) may not hold the entry.
        if (!v.complete && r == Tri::Yes) r = Tri::Maybe;
        else if (e->span.end > e->span.begin) span = e->span;
      } else {
        r = v.complete ? Tri::No : Tri::Maybe;
      }
    } else if (v.is(K::Unknown) || v.is(K::Ref)) {
      r = Tri::Maybe;
    }
    // An unresolvable cmdclass counts as using BuildExtension: rules should not fire on a guess.
    if (r == Tri::No) return;
    if (!out_.uses_build_extension || (r == Tri::Yes && !build_ext_certain_)) {
      out_.uses_build_extension = true;
      out_.build_extension_span = span;
      build_ext_certain_ = r == Tri::Yes;
    }
  }

  void with_options(TSNode call, Scope& scope) {
    for (TSNode a : named_children(field(call, "arguments"))) {
      if (type_of(a) != "keyword_argument" || in_.text(field(a, "name")) != "use_ninja") continue;
      Value v = in_.eval(field(a, "value"), scope);
      if (!v.is(K::Bool)) continue;  // e.g. an environment switch: not statically known
      // Keep the first setting, unless a later one disables ninja (the one rules look for).
      if (!out_.use_ninja || (out_.use_ninja->first && !v.flag)) out_.use_ninja = std::pair{v.flag, span_of(a)};
    }
  }

  // The span of `"key": value`'s value when `dict_node` is a dictionary literal.
  std::optional<Span> pair_value_span(TSNode dict_node, std::string_view key, Scope& scope) {
    if (type_of(dict_node) != "dictionary") return std::nullopt;
    for (TSNode p : named_children(dict_node)) {
      if (type_of(p) != "pair") continue;
      Value k = in_.eval(field(p, "key"), scope);
      if (k.is(K::Str) && k.text == key) return span_of(field(p, "value"));
    }
    return std::nullopt;
  }

  void extension(std::string kind, TSNode call, Scope& scope, std::optional<Span> class_chosen) {
    Extension e;
    e.kind = std::move(kind);
    e.call_span = span_of(call);
    Args a = in_.eval_args(field(call, "arguments"), scope);
    // CUDAExtension(name, sources, *args, **kwargs)
    const Arg* name = a.positional(0);
    if (!name) name = a.keyword("name");
    if (name) e.name = str_of(name->value);
    const Arg* sources = a.positional(1);
    if (!sources) sources = a.keyword("sources");
    if (sources) {
      e.sources = str_list(sources->value, sources->span);
      TSNode node = sources->node;
      if (ts_node_is_null(node)) node = splat_entry(call, "sources", scope);
      if (!ts_node_is_null(node)) {
        resolve_sources(node, sources->value, scope, e.sources);
        collect_globs(node, scope, e.source_globs);
        if (!e.source_globs.empty()) e.sources.complete = false;
      }
    } else if (a.unknown_rest) {
      e.sources.complete = false;
    }

    if (const Arg* eca = a.keyword("extra_compile_args")) {
      e.extra_compile_args_given = true;
      const Value& v = eca->value;
      if (v.is(K::Dict)) {
        for (auto [key, dst] : {std::pair{"cxx", &e.cxx_args}, std::pair{"nvcc", &e.nvcc_args}}) {
          Span s = pair_value_span(eca->node, key, scope).value_or(eca->span);
          if (const Value* x = v.find(key)) {
            *dst = str_list(*x, s);
          } else if (!v.complete) {
            dst->complete = false;
            dst->span = s;
          }
        }
      } else if (v.is_seq()) {
        e.cxx_args = str_list(v, eca->span);  // a plain list goes to every compiler
        e.nvcc_args = e.cxx_args;
      } else {
        e.cxx_args.complete = e.nvcc_args.complete = false;
        e.cxx_args.span = e.nvcc_args.span = eca->span;
      }
    } else if (a.unknown_rest) {
      e.cxx_args.complete = e.nvcc_args.complete = false;
    }

    if (const Arg* dm = a.keyword("define_macros"); dm && dm->value.is_seq()) {
      for (const Value& m : dm->value.items) {
        if (!m.is_seq() || m.items.size() != 2 || !m.items[0].is(K::Str)) continue;
        const Value& val = m.items[1];
        if (val.is(K::Str)) e.define_macros.push_back({*str_of(m.items[0]), str_of(val)});
        else if (val.is(K::None)) e.define_macros.push_back({*str_of(m.items[0]), std::nullopt});
      }
    }
    Conj c = conditions_of(call, scope);
    if (c.never) return;  // `[CUDAExtension(...)] if False else []`
    e.env_conditions = std::move(c.envs);
    e.unknown_condition = c.unknown ? c.unknown : class_chosen;
    out_.extensions.push_back(std::move(e));
  }

  // The expression of `key` in a `**mapping` argument of the call, when the mapping is a dict
  // literal or dict(...) call (directly or through a name).
  TSNode splat_entry(TSNode call, std::string_view key, Scope& scope) {
    for (TSNode a : named_children(field(call, "arguments"))) {
      if (type_of(a) != "dictionary_splat") continue;
      auto kids = named_children(a);
      if (kids.empty()) continue;
      TSNode d = follow(kids[0], scope);
      if (type_of(d) == "dictionary") {
        for (TSNode p : named_children(d)) {
          if (type_of(p) != "pair") continue;
          Value k = in_.eval(field(p, "key"), scope);
          if (k.is(K::Str) && k.text == key) return field(p, "value");
        }
      } else if (type_of(d) == "call") {
        auto path = in_.path_of(field(d, "function"), scope);
        if (!path || *path != "dict") continue;
        for (TSNode x : named_children(field(d, "arguments")))
          if (type_of(x) == "keyword_argument" && in_.text(field(x, "name")) == key) return field(x, "value");
      }
    }
    return TSNode{};
  }

  // Through names bound to an unknown or container value, to the expression that made it.
  TSNode follow(TSNode n, Scope& scope) {
    for (int hops = 0; hops < 8 && type_of(n) == "identifier"; ++hops) {
      const Value* v = scope.find(in_.text(n));
      TSNode rhs{};
      if (!v || !bindings_.expression_of(v->span, &rhs) || rhs.id == n.id) break;
      n = rhs;
    }
    return n;
  }

  // Sources written as a list literal whose elements the evaluator could not resolve but are
  // paths relative to the file (os.path.join(this_dir, "csrc", "k.cu")).
  void resolve_sources(TSNode node, const Value& v, Scope& scope, StrList& l) {
    TSNode lit = follow(node, scope);
    if ((type_of(lit) != "list" && type_of(lit) != "tuple") || !v.is_seq()) return;
    auto elems = named_children(lit);
    if (elems.size() > v.items.size() || elems.size() > 4096) return;
    bool any = false;
    for (size_t i = 0; i < elems.size(); ++i) {
      std::string_view et = type_of(elems[i]);
      if (et == "list_splat" || et == "parenthesized_list_splat") return;
      if (!v.items[i].is(K::Str)) any = true;
    }
    if (!any) return;
    StrList r;
    r.span = l.span;
    r.complete = v.complete;
    for (size_t i = 0; i < v.items.size(); ++i) {
      const Value& x = v.items[i];
      if (x.is(K::Str)) {
        r.items.push_back({x.text, x.span});
      } else if (i < elems.size()) {
        if (auto p = detail::resolve_path(elems[i], scope, in_, bindings_, false))
          r.items.push_back({std::move(p->text), span_of(elems[i])});
        else
          r.complete = false;
      } else {
        r.complete = false;
      }
    }
    l = std::move(r);
  }

  // glob.glob(pattern) / glob.iglob / Path(...).glob / .rglob anywhere in the expression of
  // the sources (through names assigned, added or appended to).
  void collect_globs(TSNode root, Scope& scope, std::vector<Str>& out) {
    std::vector<std::pair<TSNode, int>> todo{{root, 0}};
    std::unordered_set<const void*> seen;
    size_t steps = 0;
    while (!todo.empty() && ++steps < 256 && out.size() < 64) {
      auto [n, depth] = todo.back();
      todo.pop_back();
      if (ts_node_is_null(n) || depth > kMaxCondDepth || !seen.insert(n.id).second) continue;
      std::string_view t = type_of(n);
      auto push = [&](TSNode x) { todo.push_back({x, depth + 1}); };
      if (t == "identifier") {
        for (TSNode x : bindings_.assigned_to(in_.text(n))) push(x);
      } else if (t == "parenthesized_expression" || t == "list" || t == "tuple" || t == "list_splat" ||
                 t == "parenthesized_list_splat") {
        for (TSNode x : named_children(n)) push(x);
      } else if (t == "binary_operator") {
        push(field(n, "left"));
        push(field(n, "right"));
      } else if (t == "list_comprehension" || t == "generator_expression") {
        for (TSNode x : named_children(n))
          if (type_of(x) == "for_in_clause") push(field(x, "right"));
      } else if (t == "call") {
        TSNode fn = field(n, "function");
        auto args = named_children(field(n, "arguments"));
        auto path = in_.path_of(fn, scope);
        if (path && (*path == "glob.glob" || *path == "glob.iglob")) {
          if (!args.empty() && type_of(args[0]) != "keyword_argument")
            if (auto p = detail::resolve_path(args[0], scope, in_, bindings_, true))
              out.push_back({std::move(p->text), span_of(n)});
        } else if (path && (*path == "sorted" || *path == "list" || *path == "tuple")) {
          if (!args.empty()) push(args[0]);
        } else if (type_of(fn) == "attribute") {
          std::string_view m = in_.text(field(fn, "attribute"));
          if ((m == "glob" || m == "rglob") && !args.empty()) {
            Value pat = in_.eval(args[0], scope);
            auto base = detail::resolve_path(field(fn, "object"), scope, in_, bindings_, true);
            if (pat.is(K::Str) && base) {
              std::string p = m == "rglob" ? "**/" + pat.text : pat.text;
              if (!base->text.empty() && !base->text.ends_with('/')) base->text += '/';
              out.push_back({base->text + p, span_of(n)});
            }
          }
        }
      }
    }
  }

  void env_call(EnvSetting::Kind kind, TSNode call, Scope& scope, bool conditional) {
    Args a = in_.eval_args(field(call, "arguments"), scope);
    const Arg* key = a.positional(0);
    if (!key) key = a.keyword("key");
    if (!key || !key->value.is(K::Str)) return;
    const Arg* def = a.positional(1);
    if (!def) def = a.keyword("default");
    // A read without a default (or with None) chooses nothing.
    if (kind == EnvSetting::Kind::GetenvDefault && (!def || def->value.is(K::None))) return;
    EnvSetting s;
    s.kind = kind;
    s.var = key->value.text;
    if (def) s.value = str_of(def->value);
    s.span = span_of(call);
    s.conditional = conditional;
    out_.env.push_back(std::move(s));
  }

  void env_update(TSNode call, Scope& scope, bool conditional) {
    Args a = in_.eval_args(field(call, "arguments"), scope);
    auto add = [&](const std::string& var, const Value& v) {
      EnvSetting s;
      s.var = var;
      s.value = str_of(v);
      s.span = span_of(call);
      s.conditional = conditional;
      out_.env.push_back(std::move(s));
    };
    for (const Arg& x : a.items) {
      if (!x.keyword.empty()) add(x.keyword, x.value);
      else if (x.value.is(K::Dict))
        for (size_t i = 0; i < x.value.keys.size(); ++i) add(x.value.keys[i], x.value.items[i]);
    }
  }

  void env_assignment(TSNode stmt, TSNode assign, Scope& scope, bool conditional) {
    std::vector<TSNode> targets;
    TSNode right{};
    if (type_of(assign) == "augmented_assignment") {
      targets.push_back(field(assign, "left"));  // value not static: the old one plus something
    } else {
      for (TSNode cur = assign; type_of(cur) == "assignment"; cur = right) {
        targets.push_back(field(cur, "left"));
        right = field(cur, "right");
      }
      if (ts_node_is_null(right) || type_of(right) == "augmented_assignment") right = TSNode{};
    }
    std::optional<Value> value;
    for (TSNode t : targets) {
      if (type_of(t) != "subscript" || named_children(t).size() != 2) continue;
      auto base = in_.path_of(field(t, "value"), scope);
      if (!base || *base != "os.environ") continue;
      Value key = in_.eval(field(t, "subscript"), scope);
      if (!key.is(K::Str)) continue;
      if (!value) value = ts_node_is_null(right) ? Value::unknown() : in_.eval(right, scope);
      EnvSetting s;
      s.var = key.text;
      s.value = str_of(*value);
      s.span = span_of(stmt);
      s.conditional = conditional;
      out_.env.push_back(std::move(s));
    }
  }

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

std::optional<bool> hold(const EnvCondition& c,
                         const std::function<std::optional<std::string>(std::string_view)>& env) {
  std::optional<std::string> v = env(c.var);
  bool set = v.has_value();
  if (!v) v = c.default_value;
  switch (c.test) {
    case Test::Set: return set;
    case Test::Unset: return !set;
    case Test::Equals:
    case Test::NotEquals: {
      bool eq;
      if (c.numeric) {
        if (!v) return std::nullopt;  // int(None) raises
        auto a = py_int(*v);
        auto b = py_int(c.value);
        if (!a || !b) return std::nullopt;
        eq = *a == *b;
      } else {
        eq = v && *v == c.value;
      }
      return c.test == Test::Equals ? eq : !eq;
    }
    case Test::Truthy:
    case Test::Falsy: {
      bool t;
      if (c.numeric) {
        if (!v) return std::nullopt;
        auto a = py_int(*v);
        if (!a) return std::nullopt;
        t = *a != 0;
      } else {
        t = v && !v->empty();
      }
      return c.test == Test::Truthy ? t : !t;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<bool> env_conditions_hold(const Extension& e,
                                        const std::function<std::optional<std::string>(std::string_view)>& env) {
  bool undecided = e.unknown_condition.has_value();
  for (const EnvCondition& c : e.env_conditions) {
    std::optional<bool> r = hold(c, env);
    if (r == false) return false;
    if (!r) undecided = true;
  }
  if (undecided) return std::nullopt;
  return true;
}

ParseResult parse_setup_py(std::string_view text, const EvalContext* context) {
  ParseResult r;
  if (text.size() > UINT32_MAX) {
    r.errors.push_back({{0, 0}, "setup.py is too large to parse"});
    return r;
  }
  try {
    std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), &ts_parser_delete);
    if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) {
      r.errors.push_back({{0, 0}, "the python grammar could not be loaded"});
      return r;
    }
    std::unique_ptr<TSTree, decltype(&ts_tree_delete)> tree(
        ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())),
        &ts_tree_delete);
    if (!tree) {
      r.errors.push_back({{0, 0}, "setup.py could not be parsed"});
      return r;
    }
    TSNode root = ts_tree_root_node(tree.get());
    collect_errors(root, text, r.errors);
    Interpreter in(text, context);
    Extractor ex(in, r.setup);
    in.run(root, [&](TSNode stmt, Scope& scope, bool conditional) { ex.statement(stmt, scope, conditional); });
  } catch (const std::bad_alloc&) {
    r.errors.push_back({{0, 0}, "setup.py is too large to analyse"});
  }
  // Function bodies are walked after the module; report in source order.
  std::stable_sort(r.setup.extensions.begin(), r.setup.extensions.end(),
                   [](const Extension& a, const Extension& b) { return a.call_span.begin < b.call_span.begin; });
  std::stable_sort(r.setup.env.begin(), r.setup.env.end(),
                   [](const EnvSetting& a, const EnvSetting& b) { return a.span.begin < b.span.begin; });
  return r;
}

}  // namespace cudalint::python
