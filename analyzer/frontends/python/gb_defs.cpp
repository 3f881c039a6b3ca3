// Graph-break summaries: the passes over a module's definitions and its module-level code.
// Functions and classes (under `if`/`try` too), imports, assignments and what they bind (module
// names, locals, the attributes methods assign to `self`), and the Dynamo config set at module level.
#include <string>
#include <string_view>

#include "analyzer/frontends/python/gb_summarizer.h"

namespace cudalint::python::gb::detail {

void Summarizer::run(TSNode module) {
  module_ = module;
  collect_defs(module, "", -1, 0);
  module_code(module, 0);
  FnContext mctx;
  mctx.scope = &module_scope_;
  for (size_t i = 0; i < class_nodes_.size(); ++i) {
    TSNode sup = field(class_nodes_[i], "superclasses");
    if (ts_node_is_null(sup)) continue;
    for (TSNode b : named_children(sup))
      if (type_of(b) != "keyword_argument") out_.classes[i].bases.push_back(eval(b, mctx, 0));
  }
  // Attributes first (a method may use what another assigns), then bodies.
  for (size_t i = 0; i < defs_.size(); ++i)
    if (out_.functions[i].cls >= 0 && !defs_[i].nested) walk_function(i, true);
  for (size_t i = 0; i < defs_.size(); ++i)
    if (!defs_[i].nested) walk_function(i, false);
}

// ---- pass 1: definitions ----
void Summarizer::collect_defs(TSNode block, const std::string& prefix, int cls, int depth) {
  if (depth > kMaxDepth) return;
  for (TSNode st : named_children(block)) {
    if (!spend()) return;
    std::string_view t = type_of(st);
    if (t == "function_definition" || t == "decorated_definition" || t == "class_definition") {
      define(st, prefix, cls, depth);
    } else if (cls < 0 && (t == "if_statement" || t == "try_statement" || t == "with_statement" ||
                           t == "for_statement" || t == "while_statement")) {
      // Module-level definitions under `if`/`try` still define module names.
      for (TSNode c : named_children(st)) {
        std::string_view ct = type_of(c);
        if (ct == "block") collect_defs(c, prefix, cls, depth + 1);
        else if (ct == "elif_clause" || ct == "else_clause" || ct == "except_clause" || ct == "finally_clause")
          for (TSNode b : named_children(c))
            if (type_of(b) == "block") collect_defs(b, prefix, cls, depth + 1);
      }
    } else if (cls >= 0 && t == "if_statement") {
      for (TSNode c : named_children(st))
        if (type_of(c) == "block") collect_defs(c, prefix, cls, depth + 1);
    }
  }
}

// Registers a function or class (pass 1, or a nested def met while walking a body).
int Summarizer::define(TSNode st, const std::string& prefix, int cls, int depth) {
  TSNode decorated{};
  TSNode def = st;
  if (type_of(st) == "decorated_definition") {
    decorated = st;
    def = field(st, "definition");
  }
  std::string name(txt(field(def, "name")));
  if (name.empty()) return -1;
  std::string qual = prefix.empty() ? name : prefix + "." + name;
  if (type_of(def) == "class_definition") {
    Class c;
    c.name = name;
    c.qualname = qual;
    c.name_span = span_of(field(def, "name"));
    int ci = static_cast<int>(out_.classes.size());
    class_index_.try_emplace(qual, ci);
    out_.classes.push_back(std::move(c));
    class_nodes_.push_back(def);
    if (prefix.empty()) out_.globals[name] = Val::of(K::Class, qual);
    TSNode body = field(def, "body");
    if (!ts_node_is_null(body)) collect_defs(body, qual, ci, depth + 1);
    return -1;
  }
  Function f;
  f.qualname = qual;
  f.cls = cls;
  f.name_span = span_of(field(def, "name"));
  int fi = static_cast<int>(out_.functions.size());
  function_index_.try_emplace(qual, fi);
  out_.functions.push_back(std::move(f));
  defs_.push_back({def, decorated, false, nullptr});
  if (cls >= 0) out_.classes[static_cast<size_t>(cls)].methods[name] = fi;
  else if (prefix.empty()) out_.globals[name] = Val::of(K::Func, qual);
  return fi;
}

// ---- pass 2: module-level code ----
void Summarizer::module_code(TSNode block, int depth) {
  if (depth > kMaxDepth) return;
  Scope& s = module_scope_;
  FnContext ctx;
  ctx.scope = &s;
  for (TSNode st : named_children(block)) {
    if (!spend()) return;
    std::string_view t = type_of(st);
    if (t == "import_statement" || t == "import_from_statement" || t == "future_import_statement") {
      import(st, nullptr);
    } else if (t == "expression_statement") {
      statement_expr(st, ctx, true);
    } else if (t == "if_statement" || t == "try_statement" || t == "with_statement" || t == "for_statement" ||
               t == "while_statement") {
      // `for block in model.layers: block.compile()`: the loop variable is each element.
      if (t == "for_statement") bind_for(st, ctx, depth + 1);
      for (TSNode c : named_children(st)) {
        std::string_view ct = type_of(c);
        if (ct == "block") {
          module_code(c, depth + 1);
        } else if (ct == "elif_clause" || ct == "else_clause" || ct == "except_clause" || ct == "finally_clause") {
          for (TSNode b : named_children(c))
            if (type_of(b) == "block") module_code(b, depth + 1);
        }
      }
    } else if (t == "decorated_definition" || t == "function_definition" || t == "class_definition") {
      // Decorators and base classes may compile things too (rare): nothing to do here.
    }
  }
}

// Assignments and expression statements, at module level or in a function body.
void Summarizer::statement_expr(TSNode st, FnContext& ctx, bool module_level) {
  for (TSNode c : named_children(st)) {
    std::string_view t = type_of(c);
    if (t == "assignment") {
      assignment(c, ctx, module_level);
    } else if (t == "augmented_assignment") {
      scan(field(c, "left"), ctx, 0, true);
      scan(field(c, "right"), ctx, 0);
    } else {
      scan(c, ctx, 0);
    }
  }
}

void Summarizer::assignment(TSNode a, FnContext& ctx, bool module_level) {
  TSNode left = field(a, "left");
  TSNode right = field(a, "right");
  TSNode type = field(a, "type");
  if (ts_node_is_null(right)) {  // `x: T` declares only
    return;
  }
  // Chained `a = b = value`: the right side is itself an assignment.
  if (type_of(right) == "assignment") {
    assignment(right, ctx, module_level);
    TSNode inner = right;
    while (type_of(field(inner, "right")) == "assignment") inner = field(inner, "right");
    right = field(inner, "right");
  } else {
    scan(right, ctx, 0);
  }
  Val v = eval(right, ctx, 0);
  if (!ts_node_is_null(type) && v.is(K::Unknown)) v = annotation(type, ctx);
  config_assignment(left, right, ctx);
  if (!module_level) {
    attribute_store(left, ctx, right);
    // A hook handle kept in a global outlives the frame Dynamo traces.
    TSNode r = strip_parens(right);
    if (type_of(left) == "identifier" && global_names_.count(txt(left)) && type_of(r) == "call" &&
        type_of(field(r, "function")) == "attribute" && txt(field(field(r, "function"), "attribute")) == "register_hook")
      brk(rule_id::kAutogradStateInCompiledCode, Gate::Always, a, "GB0100", "storing a `register_hook()` handle in a global");
  }
  bind_target(left, v, ctx, module_level);
  scan(left, ctx, 0, true);
}

void Summarizer::config_assignment(TSNode left, TSNode right, FnContext& ctx) {
  if (type_of(left) != "attribute") return;
  Val lv = eval(left, ctx, 0);
  if (!lv.is(K::Path)) return;
  constexpr std::string_view kPrefix = "torch._dynamo.config.";
  if (!lv.text.starts_with(kPrefix)) return;
  std::string key = lv.text.substr(kPrefix.size());
  if (!contains({"capture_scalar_outputs", "capture_dynamic_output_shape_ops", "allow_rnn", "trace_numpy",
                 "trace_autograd_ops"},
                key))
    return;
  auto b = literal_bool(right);
  if (!b) return;
  out_.config.push_back({key, *b, span_of(ts_node_parent(left))});
}

void Summarizer::bind_target(TSNode target, const Val& v, FnContext& ctx, bool module_level) {
  target = strip_parens(target);
  std::string_view t = type_of(target);
  if (t == "identifier") {
    std::string name(txt(target));
    ctx.scope->vars[name] = v;
    if (module_level) out_.globals[name] = v;
  } else if (t == "pattern_list" || t == "tuple_pattern" || t == "list_pattern" || t == "expression_list" ||
             t == "tuple" || t == "list") {
    auto kids = named_children(target);
    for (size_t i = 0; i < kids.size(); ++i) {
      Val e;
      if (v.is(K::Tensor)) e = Val::of(K::Tensor);
      else if (v.is(K::List) && v.items.size() == kids.size()) e = v.items[i];
      bind_target(kids[i], e, ctx, module_level);
    }
  } else if (t == "attribute" && ctx.cls >= 0 && collecting_attrs_) {
    TSNode obj = field(target, "object");
    if (type_of(obj) == "identifier" && txt(obj) == ctx.self_name) {
      std::string attr(txt(field(target, "attribute")));
      out_.classes[static_cast<size_t>(ctx.cls)].attrs[attr] = v;
    }
  }
}

void Summarizer::import(TSNode st, Scope* local) {
  auto bind = [&](const std::string& name, Val v) {
    if (local) local->vars[name] = v;
    else {
      module_scope_.vars[name] = v;
      out_.globals[name] = v;
    }
  };
  if (type_of(st) == "import_statement") {
    for (TSNode c : named_children(st)) {
      if (type_of(c) == "aliased_import") {
        std::string mod = dotted(field(c, "name"));
        out_.imports.push_back(mod);
        bind(std::string(txt(field(c, "alias"))), Val::of(K::Path, mod));
      } else if (type_of(c) == "dotted_name") {
        std::string mod = dotted(c);
        out_.imports.push_back(mod);
        std::string head = mod.substr(0, mod.find('.'));
        bind(head, Val::of(K::Path, head));
      }
    }
    return;
  }
  if (type_of(st) != "import_from_statement") return;
  TSNode mn = field(st, "module_name");
  std::string base;
  if (type_of(mn) == "relative_import") {
    for (TSNode c : named_children(mn)) {
      if (type_of(c) == "import_prefix") base += dotted(c);
      else if (type_of(c) == "dotted_name") base += dotted(c);
    }
  } else {
    base = dotted(mn);
  }
  auto join = [&](const std::string& name) {
    if (base.empty()) return name;
    if (base.back() == '.') return base + name;
    return base + "." + name;
  };
  bool any = false;
  for (TSNode c : named_children(st)) {
    if (ts_node_eq(c, mn)) continue;
    if (type_of(c) == "aliased_import") {
      std::string name = dotted(field(c, "name"));
      bind(std::string(txt(field(c, "alias"))), Val::of(K::Path, join(name)));
      out_.imports.push_back(join(name));
      any = true;
    } else if (type_of(c) == "dotted_name") {
      std::string name = dotted(c);
      bind(name, Val::of(K::Path, join(name)));
      out_.imports.push_back(join(name));
      any = true;
    }
  }
  if (!any || !base.empty()) out_.imports.push_back(base);
}

// `self.blocks.append(Block())`, `self.add_module("x", m)`, `self.register_buffer("b", t)`.
void Summarizer::self_attr_call(const Val& recv, const std::string& m, const ArgsView& a, FnContext& ctx) {
  if (!recv.is(K::Self)) return;
  auto& attrs = out_.classes[static_cast<size_t>(ctx.cls)].attrs;
  if (recv.text.empty()) {
    if ((m == "add_module" || m == "register_module") && a.pos.size() == 2) {
      std::string name = string_literal(a.pos[0]);
      if (!name.empty()) attrs[name] = eval(a.pos[1], ctx, 0);
    } else if ((m == "register_buffer" || m == "register_parameter") && !a.pos.empty()) {
      std::string name = string_literal(a.pos[0]);
      if (!name.empty()) attrs[name] = Val::of(K::Tensor);
    }
    return;
  }
  if (recv.text.find('.') != std::string::npos || a.pos.empty()) return;
  auto it = attrs.find(recv.text);
  if (it == attrs.end() || !it->second.is(K::List)) return;
  if (m == "append" || m == "insert") {
    if (it->second.items.size() < kMaxItems) it->second.items.push_back(eval(a.pos.back(), ctx, 0));
  } else if (m == "extend") {
    Val l = eval(a.pos[0], ctx, 0);
    if (l.is(K::List))
      for (auto& e : l.items)
        if (it->second.items.size() < kMaxItems) it->second.items.push_back(std::move(e));
  }
}

}  // namespace cudalint::python::gb::detail
