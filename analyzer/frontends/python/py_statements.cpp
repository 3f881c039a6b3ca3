// Static Python evaluation: statements (assignments, in-place mutation, branches, imports,
// definitions) and the walk over a module and its functions' bodies.
#include <algorithm>
#include <vector>

#include "analyzer/frontends/python/py_eval_internal.h"

namespace cudalint::python {

using namespace detail;

namespace {

// Calls f(child) for each child stored under `name` (import lists repeat the field).
template <typename F>
void for_each_field(TSNode n, FieldName name, F&& f) {
  const TSFieldId id = field_id(name);
  if (ts_node_is_null(n) || !id) return;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      if (ts_tree_cursor_current_field_id(&c) == id) f(ts_tree_cursor_current_node(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

}  // namespace

void Interpreter::run(TSNode module, const StatementHook& hook) {
  hook_ = &hook;
  Frame f;
  f.scope = &module_;
  f.record = true;
  exec_block(module, f, false);
  // Function bodies run, if ever, after the module has been read: walk them with its final names.
  for (size_t i = 0; i < pending_.size(); ++i) {
    TSNode def = pending_[i];
    Scope local(&module_);
    bind_parameters(field(def, "parameters"), local, nullptr);
    Frame g;
    g.scope = &local;
    g.record = true;
    g.base_cond = true;
    g.function = true;
    exec_block(field(def, "body"), g, false);
  }
  hook_ = nullptr;
}

void Interpreter::exec_block(TSNode block, Frame& f, bool cond) {
  Guard g(*this);
  if (!g.ok()) return;
  for_each_named(block, [&](TSNode stmt) {
    exec_stmt(stmt, f, cond);
    return !f.done;
  });
}

void Interpreter::exec_stmt(TSNode stmt, Frame& f, bool cond) {
  Guard g(*this);
  if (!g.ok()) return;
  --budget_;
  // The module walk goes on without a budget (it is linear); helper calls stop.
  if (!f.record && exhausted()) return;
  std::string_view t = type_of(stmt);
  if (f.record && hook_) (*hook_)(stmt, *f.scope, f.base_cond || cond);
  if (t == "expression_statement") {
    for_each_named(stmt, [&](TSNode c) {
      std::string_view ct = type_of(c);
      if (ct == "assignment") exec_assign(c, f, cond);
      else if (ct == "augmented_assignment") exec_augmented(c, f, cond);
      else if (ct == "call" && type_of(field(c, "function")) == "attribute") exec_method_call(c, f, cond);
      else if (ct == "call") exec_call_statement(c, f, cond);
      return true;
    });
  } else if (t == "return_statement") {
    if (!f.function) return;
    auto kids = named_children(stmt);
    Value v = kids.empty() ? Value::none(span_of(stmt)) : eval(kids[0], *f.scope);
    f.ret = f.ret ? merge(*f.ret, v) : std::move(v);
    if (!cond) f.done = true;
  } else if (t == "if_statement" || t == "for_statement" || t == "while_statement" || t == "try_statement" ||
             t == "with_statement" || t == "match_statement" || t == "case_clause") {
    exec_compound(stmt, f, cond);
  } else if (t == "function_definition") {
    define_function(stmt, f, cond);
  } else if (t == "class_definition") {
    define_class(stmt, f, cond);
  } else if (t == "decorated_definition") {
    TSNode d = field(stmt, "definition");
    if (type_of(d) == "function_definition") define_function(d, f, cond);
    else if (type_of(d) == "class_definition") define_class(d, f, cond);
  } else if (t == "import_statement" || t == "import_from_statement") {
    exec_import(stmt, f, cond);
  }
}

void Interpreter::exec_if(TSNode n, Frame& f, bool cond) {
  // Branches whose condition is statically known are taken or skipped; after an unknown
  // condition every later branch may or may not run.
  bool uncertain = false;
  auto branch = [&](TSNode condition, TSNode block) {
    std::optional<bool> known;
    if (!ts_node_is_null(condition)) known = truth(eval(condition, *f.scope));
    else known = true;  // else
    if (known == false) return false;
    exec_block(block, f, uncertain || !known ? true : cond);
    if (!known) uncertain = true;
    return known == true;
  };
  if (branch(field(n, "condition"), field(n, "consequence"))) return;
  bool stop = false;
  for_each_field(n, "alternative", [&](TSNode alt) {
    if (stop || f.done) return;
    if (type_of(alt) == "elif_clause") stop = branch(field(alt, "condition"), field(alt, "consequence"));
    else stop = branch(TSNode{}, field(alt, "body"));
  });
}

void Interpreter::exec_compound(TSNode n, Frame& f, bool cond) {
  Guard g(*this);
  if (!g.ok()) return;
  std::string_view t = type_of(n);
  if (t == "if_statement") {
    exec_if(n, f, cond);
    return;
  }
  // A finally clause runs whenever its try statement does; every other block may not run.
  bool inner = t == "finally_clause" ? cond : true;
  if (t == "for_statement") assign_target(field(n, "left"), Value::unknown(span_of(n)), f, true);
  for_each_named(n, [&](TSNode c) {
    std::string_view ct = type_of(c);
    if (ct == "block") exec_block(c, f, inner);
    else if (ct == "elif_clause" || ct == "else_clause" || ct == "except_clause" || ct == "except_group_clause" ||
             ct == "finally_clause")
      exec_compound(c, f, cond);
    return !f.done;
  });
}

void Interpreter::exec_assign(TSNode n, Frame& f, bool cond) {
  // `a = b = value`: the tree nests to the right; collect the targets without recursion.
  std::vector<TSNode> targets;
  TSNode cur = n;
  while (type_of(cur) == "assignment") {
    targets.push_back(field(cur, "left"));
    cur = field(cur, "right");
    if (ts_node_is_null(cur)) return;  // a bare annotation `x: int`
  }
  Value v = type_of(cur) == "augmented_assignment" ? Value::unknown(span_of(cur)) : eval(cur, *f.scope);
  for (TSNode t : targets) assign_target(t, v, f, cond);
}

bool Interpreter::fits(const std::vector<Value*>& path, const Value& v) const {
  return path.front()->weight + v.weight <= kMaxWeight && path.size() + v.depth <= kMaxNest;
}

void Interpreter::assign_target(TSNode target, const Value& v, Frame& f, bool cond) {
  Guard g(*this);
  if (!g.ok()) return;
  std::string_view t = type_of(target);
  if (t == "identifier") {
    bind(f, text(target), v, cond);
  } else if (t == "pattern_list" || t == "tuple_pattern" || t == "list_pattern" || t == "tuple" || t == "list" ||
             t == "expression_list") {
    auto subs = named_children(target);
    bool exact = v.is_seq() && v.complete && v.items.size() == subs.size() &&
                 std::none_of(subs.begin(), subs.end(), [](TSNode s) { return type_of(s) == "list_splat_pattern"; });
    for (size_t i = 0; i < subs.size(); ++i)
      assign_target(subs[i], exact ? v.items[i] : Value::unknown(span_of(subs[i])), f, cond);
  } else if (t == "parenthesized_expression") {
    auto kids = named_children(target);
    if (kids.size() == 1) assign_target(kids[0], v, f, cond);
  } else if (t == "subscript") {
    auto path = lvalue(field(target, "value"), f);
    if (path.empty() || named_children(target).size() != 2) return;
    Value key = eval(field(target, "subscript"), *f.scope);
    Value* c = path.back();
    uint32_t old_weight = c->weight;
    Value* slot = nullptr;
    if (c->is(K::Dict) && key.is(K::Str)) {
      slot = c->find(key.text);
      if (!slot) {
        if (fits(path, v)) c->put(key.text, v);
        else c->complete = false;
      }
    } else if (c->is_seq() && c->complete && key.is(K::Int)) {
      int64_t i = key.number < 0 ? key.number + static_cast<int64_t>(c->items.size()) : key.number;
      if (i >= 0 && i < static_cast<int64_t>(c->items.size())) slot = &c->items[static_cast<size_t>(i)];
    } else if (c->is(K::Dict) || c->is_seq()) {
      c->complete = false;
    }
    if (slot) {
      if (fits(path, v)) *slot = cond ? merge(*slot, v) : v;
      else c->complete = false;
      c->recompute();
    }
    settle(path, old_weight);
  }
}

void Interpreter::bind(Frame& f, std::string_view name, Value v, bool cond) {
  if (f.function && f.rebound.size() < 64) f.rebound.emplace_back(name);
  if (Value* old = f.scope->local(name)) *old = cond ? merge(*old, v) : std::move(v);
  else f.scope->bind(name, std::move(v));  // first binding: if the branch was not taken, the name is unbound
}

std::vector<Value*> Interpreter::lvalue(TSNode n, Frame& f) {
  Guard g(*this);
  if (!g.ok()) return {};
  std::string_view t = type_of(n);
  if (t == "identifier") {
    std::string_view name = text(n);
    Value* p = f.scope->local(name);
    if (!p) {
      // Mutating a module-level value from a function or class body works on a local copy.
      const Value* outer = f.scope->parent() ? f.scope->parent()->find(name) : nullptr;
      if (!outer) return {};
      budget_ -= outer->weight;
      p = &f.scope->bind(name, *outer);
    }
    return {p};
  }
  if (t == "parenthesized_expression") {
    auto kids = named_children(n);
    return kids.size() == 1 ? lvalue(kids[0], f) : std::vector<Value*>{};
  }
  if (t != "subscript" || named_children(n).size() != 2) return {};
  auto path = lvalue(field(n, "value"), f);
  if (path.empty()) return {};
  Value key = eval(field(n, "subscript"), *f.scope);
  Value* c = path.back();
  Value* e = nullptr;
  if (c->is(K::Dict) && key.is(K::Str)) {
    e = c->find(key.text);
  } else if (c->is_seq() && c->complete && key.is(K::Int)) {
    int64_t i = key.number < 0 ? key.number + static_cast<int64_t>(c->items.size()) : key.number;
    if (i >= 0 && i < static_cast<int64_t>(c->items.size())) e = &c->items[static_cast<size_t>(i)];
  }
  if (!e) return {};
  path.push_back(e);
  return path;
}

void Interpreter::settle(const std::vector<Value*>& path, uint32_t old_weight) {
  if (path.size() < 2) return;
  int64_t delta = static_cast<int64_t>(path.back()->weight) - old_weight;
  for (size_t i = path.size() - 1; i-- > 0;) {
    Value* p = path[i];
    p->weight = static_cast<uint32_t>(std::max<int64_t>(1, p->weight + delta));
    p->depth = std::max<uint8_t>(p->depth, static_cast<uint8_t>(path[i + 1]->depth + 1));
  }
}

void Interpreter::exec_augmented(TSNode n, Frame& f, bool cond) {
  std::string_view op = text(field(n, "operator"));
  Value rv = eval(field(n, "right"), *f.scope);
  auto path = lvalue(field(n, "left"), f);
  if (path.empty()) return;
  Value* slot = path.back();
  uint32_t old_weight = slot->weight;
  if (op == "+=" && slot->is(K::List)) {
    // In place: a module that appends thousands of flags stays linear.
    if (rv.is_seq()) {
      budget_ -= static_cast<int64_t>(rv.items.size());
      for (Value& x : rv.items)
        if (!fits(path, x) || !slot->push(std::move(x))) {
          slot->complete = false;
          break;
        }
      if (!rv.complete) slot->complete = false;
    } else {
      slot->complete = false;
    }
    if (cond) slot->complete = false;
  } else {
    Value nv = op == "+=" ? add(*slot, rv, slot->span) : Value::unknown(span_of(n));
    if (!fits(path, nv)) nv = Value::unknown(span_of(n));
    *slot = cond ? merge(*slot, nv) : std::move(nv);
  }
  settle(path, old_weight);
}

void Interpreter::exec_method_call(TSNode call, Frame& f, bool cond) {
  TSNode fn = field(call, "function");
  if (type_of(fn) != "attribute" || type_of(field(call, "arguments")) != "argument_list") return;
  std::string_view m = text(field(fn, "attribute"));
  static constexpr std::string_view kMutators[] = {"append", "extend", "insert", "remove",
                                                   "pop",    "clear",  "update", "setdefault"};
  if (std::find(std::begin(kMutators), std::end(kMutators), m) == std::end(kMutators)) return;
  auto path = lvalue(field(fn, "object"), f);
  if (path.empty()) return;
  Value* slot = path.back();
  if (!slot->is(K::List) && !slot->is(K::Dict)) return;
  Args a = eval_args(field(call, "arguments"), *f.scope);
  uint32_t old_weight = slot->weight;
  const Arg* a0 = a.positional(0);
  const Arg* a1 = a.positional(1);
  bool known = !a.unknown_rest;
  if (slot->is(K::List)) {
    if (m == "append" && a0 && known) {
      if (!fits(path, a0->value) || !slot->push(a0->value)) slot->complete = false;
    } else if (m == "extend" && a0 && known && a0->value.is_seq()) {
      for (const Value& x : a0->value.items)
        if (!fits(path, x) || !slot->push(x)) {
          slot->complete = false;
          break;
        }
      if (!a0->value.complete) slot->complete = false;
    } else if (m == "insert" && a0 && a1 && known && a0->value.is(K::Int) && fits(path, a1->value)) {
      int64_t size = static_cast<int64_t>(slot->items.size());
      int64_t i = a0->value.number < 0 ? std::max<int64_t>(0, a0->value.number + size) : std::min(a0->value.number, size);
      slot->items.insert(slot->items.begin() + i, a1->value);
      slot->recompute();
    } else if (m == "remove" && a0 && known && a0->value.is(K::Str)) {
      auto it = std::find_if(slot->items.begin(), slot->items.end(),
                             [&](const Value& x) { return x.is(K::Str) && x.text == a0->value.text; });
      if (it != slot->items.end()) slot->items.erase(it);
      else slot->complete = false;  // the removed item was one we could not resolve, or an error
      slot->recompute();
    } else if (m == "pop" && a.items.empty() && slot->complete && !slot->items.empty()) {
      slot->items.pop_back();
      slot->recompute();
    } else if (m == "clear" && a.items.empty()) {
      slot->items.clear();
      slot->complete = true;
      slot->recompute();
    } else {
      slot->complete = false;
    }
  } else {
    if (m == "update" && known && (!a0 || a0->value.is(K::Dict))) {
      if (a0) {
        for (size_t i = 0; i < a0->value.keys.size(); ++i) {
          Value* e = slot->find(a0->value.keys[i]);
          if (!fits(path, a0->value.items[i])) slot->complete = false;
          else if (e && cond) *e = merge(*e, a0->value.items[i]);
          else slot->put(a0->value.keys[i], a0->value.items[i]);
        }
        if (!a0->value.complete) slot->complete = false;
      }
      for (const Arg& x : a.items)
        if (!x.keyword.empty() && fits(path, x.value)) slot->put(x.keyword, x.value);
      slot->recompute();
    } else if (m == "setdefault" && a0 && known && a0->value.is(K::Str)) {
      if (!slot->find(a0->value.text)) {
        Value v = a1 ? a1->value : Value::none(span_of(call));
        if (fits(path, v)) slot->put(a0->value.text, std::move(v));
      }
    } else if (m == "pop" && a0 && known && a0->value.is(K::Str)) {
      for (size_t i = 0; i < slot->keys.size(); ++i)
        if (slot->keys[i] == a0->value.text) {
          slot->keys.erase(slot->keys.begin() + static_cast<std::ptrdiff_t>(i));
          slot->items.erase(slot->items.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
      slot->recompute();
    } else if (m == "clear" && a.items.empty()) {
      slot->items.clear();
      slot->keys.clear();
      slot->complete = true;
      slot->recompute();
    } else {
      slot->complete = false;
    }
  }
  if (cond) slot->complete = false;
  settle(path, old_weight);
}

void Interpreter::exec_import(TSNode n, Frame& f, bool cond) {
  auto dotted = [&](TSNode d) {
    if (type_of(d) != "dotted_name") return std::string(text(d));
    std::string s;
    for_each_named(d, [&](TSNode id) {
      if (!s.empty()) s += '.';
      s += text(id);
      return true;
    });
    return s;
  };
  // Under `try`/`if` an import merges like any binding: a fallback `X = None` keeps the module
  // path (see merge), a fallback import of another `X` makes it unknown.
  if (type_of(n) == "import_statement") {
    for_each_field(n, "name", [&](TSNode c) {
      if (type_of(c) == "aliased_import") {
        bind(f, text(field(c, "alias")), Value::ref(dotted(field(c, "name")), span_of(c)), cond);
      } else {
        std::string full = dotted(c);
        std::string first = full.substr(0, full.find('.'));  // `import a.b` binds `a`
        bind(f, first, Value::ref(first, span_of(c)), cond);
      }
    });
    return;
  }
  std::string module = dotted(field(n, "module_name"));
  for_each_field(n, "name", [&](TSNode c) {
    if (type_of(c) == "aliased_import")
      bind(f, text(field(c, "alias")), Value::ref(module + "." + dotted(field(c, "name")), span_of(c)), cond);
    else
      bind(f, dotted(c), Value::ref(module + "." + dotted(c), span_of(c)), cond);
  });
}

void Interpreter::define_function(TSNode def, Frame& f, bool cond) {
  TSNode name = field(def, "name");
  Value v;
  v.kind = K::Func;
  v.node = def;
  v.span = span_of(name);
  bind(f, text(name), std::move(v), cond);
  if (f.record) pending_.push_back(def);
}

void Interpreter::define_class(TSNode def, Frame& f, bool cond) {
  TSNode name = field(def, "name");
  Value c;
  c.kind = K::Class;
  c.text = std::string(text(name));
  c.span = span_of(name);
  for_each_named(field(def, "superclasses"), [&](TSNode b) {
    if (type_of(b) == "keyword_argument") return true;  // metaclass=...
    Value v = eval(b, *f.scope);
    if (v.is(K::Ref)) c.keys.push_back(v.text);
    else if (v.is(K::Class)) c.keys.insert(c.keys.end(), v.keys.begin(), v.keys.end());
    else c.keys.push_back("");
    return c.keys.size() < 64;
  });
  bind(f, c.text, c, cond);
  // The body runs once, at definition time, in its own namespace.
  Scope body(f.scope);
  Frame inner;
  inner.scope = &body;
  inner.record = f.record;
  inner.base_cond = f.base_cond;
  exec_block(field(def, "body"), inner, cond);
}

}  // namespace cudalint::python
