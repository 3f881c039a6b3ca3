// setup.py front-end: the environment conditions a block or a call runs under (`if
// os.environ.get("X") == "1":`), recorded on extensions and evaluated against an environment.
#include "analyzer/frontends/python/setup_py_extractor.h"

namespace cudalint::python::setup_detail {


// ---- conditions ----

// Records the condition of each branch of an if statement (with the earlier branches' tests
// negated), for the statements inside it.
void Extractor::branches(TSNode stmt, Scope& scope) {
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
bool Extractor::exits(TSNode block) {
  auto kids = named_children(block);
  if (kids.empty()) return false;
  std::string_view t = type_of(kids.back());
  return t == "return_statement" || t == "continue_statement" || t == "break_statement";
}


// The blocks of other compound statements, recorded without a condition: they bound the
// guards inside them.
void Extractor::blocks(TSNode stmt) {
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


// The innermost recorded block that contains byte `p`. Blocks nest, so the last one that
// starts at or before p is p's innermost block or inside it.
size_t Extractor::innermost(uint32_t p) const {
  auto it = range_by_begin_.upper_bound(p);
  if (it == range_by_begin_.begin()) return kNone;
  size_t i = std::prev(it)->second;
  while (i != kNone && !(ranges_[i].span.begin <= p && p < ranges_[i].span.end)) i = ranges_[i].parent;
  return i;
}


void Extractor::add_range(Span s, Conj c) {
  if (s.end <= s.begin || range_by_begin_.count(s.begin)) return;
  size_t parent = innermost(s.begin);
  range_by_begin_.emplace(s.begin, ranges_.size());
  ranges_.push_back({s, parent, std::move(c)});
}


// The conditions the call at `call` runs under: enclosing branches and in-statement tests.
Conj Extractor::conditions_of(TSNode call, Scope& scope) {
  Conj c;
  for (size_t i = innermost(ts_node_start_byte(call)); i != kNone; i = ranges_[i].parent) and_into(c, ranges_[i].cond);
  for (const auto& [test, neg] : tests_) and_into(c, analyze(test, neg, scope, 0));
  return c;
}


// The env read an expression is (through names bound to one), if any.
std::optional<EnvRead> Extractor::env_read(TSNode n, Scope& scope, int depth) {
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
std::optional<std::pair<EnvRead, bool>> Extractor::env_term(TSNode n, Scope& scope) {
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


EnvCondition Extractor::make(const EnvRead& r, Test test, bool numeric, std::string value, Span span) {
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


Conj Extractor::one(EnvCondition e) {
  Conj c;
  c.envs.push_back(std::move(e));
  return c;
}


// What must hold for `n` to be true (false when `neg`), as environment tests.
Conj Extractor::analyze(TSNode n, bool neg, Scope& scope, int depth) {
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


Conj Extractor::comparison(TSNode n, bool neg, Scope& scope) {
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


}  // namespace cudalint::python::setup_detail

namespace cudalint::python {

using setup_detail::EnvCondition;
using setup_detail::hold;

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

}  // namespace cudalint::python
