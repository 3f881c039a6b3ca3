// Graph-break summaries: entering a function. Its decorators (compile marks, disable, custom ops
// and other bodies Dynamo does not trace), its parameters (annotations, evidence that an
// unannotated one is a tensor, falsy defaults never rebound), then the walk of its body.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <utility>

#include "analyzer/frontends/python/gb_summarizer.h"

namespace cudalint::python::gb::detail {

namespace {

// Attributes only tensors have (evidence that an unannotated parameter is a tensor).
bool tensor_only_attr(std::string_view a) {
  return contains({"shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "grad", "T", "mT"}, a);
}

}  // namespace

void Summarizer::nested_def(TSNode st, FnContext& ctx, int depth) {
  if (collecting_attrs_) return;
  std::string prefix = out_.functions[static_cast<size_t>(fn_)].qualname;
  int fi = define(st, prefix, -1, depth);
  if (fi < 0) return;
  defs_[static_cast<size_t>(fi)].nested = true;
  defs_[static_cast<size_t>(fi)].outer = ctx.scope;
  // nonstrict_trace applies only to functions defined outside the compiled code.
  if (TSNode d = decorator_named(static_cast<size_t>(fi), "torch._dynamo.nonstrict_trace", ctx); !ts_node_is_null(d))
    brk(rule_id::kUnsupportedTorchFunction, Gate::Always, d, "GB0078",
        "`@torch._dynamo.nonstrict_trace` on a function defined inside compiled code");
  ctx.scope->vars[std::string(out_.functions[static_cast<size_t>(fi)].name())] =
      Val::of(K::Func, out_.functions[static_cast<size_t>(fi)].qualname);
  walk_nested(static_cast<size_t>(fi), ctx);
}

// Walks a function defined inside the one being walked, which is then walked on.
void Summarizer::walk_nested(size_t fi, FnContext& ctx) {
  int saved_fn = fn_;
  int saved_loop = loop_depth_;
  loop_depth_ = 0;
  walk_function(fi, false, &ctx);
  loop_depth_ = saved_loop;
  fn_ = saved_fn;
}

// `torch.compile(lambda x: ...)`: the lambda becomes a function of its own ("<lambda@LINE>"),
// walked at once inside a function (like a nested def) or with the module's functions.
int Summarizer::compiled_lambda(TSNode lambda, FnContext& ctx) {
  if (collecting_attrs_ || out_.functions.size() >= kMaxPerFunction * 64) return -1;
  Function f;
  std::string name = "<lambda@" + std::to_string(ts_node_start_point(lambda).row + 1) + ">";
  f.qualname = fn_ >= 0 ? out_.functions[static_cast<size_t>(fn_)].qualname + "." + name : name;
  f.cls = -1;
  f.name_span = span_of(lambda);
  int fi = static_cast<int>(out_.functions.size());
  function_index_.try_emplace(f.qualname, fi);
  out_.functions.push_back(std::move(f));
  defs_.push_back({lambda, TSNode{}, fn_ >= 0, fn_ >= 0 ? ctx.scope : nullptr});
  if (fn_ < 0) return fi;  // module level: pass 3 walks it
  walk_nested(static_cast<size_t>(fi), ctx);
  return fi;
}

void Summarizer::decorators(size_t fi, const FnContext& ctx) {
  TSNode dec = defs_[fi].decorated;
  if (ts_node_is_null(dec)) return;
  Function& f = out_.functions[fi];
  std::string above;  // the decorator written just above this one, which wraps its result
  for (TSNode d : named_children(dec)) {
    if (type_of(d) != "decorator") continue;
    auto kids = named_children(d);
    if (kids.empty()) continue;
    TSNode e = kids[0];
    bool is_call = type_of(e) == "call";
    Val v = eval(is_call ? field(e, "function") : e, ctx, 0);
    std::string wrapper = std::exchange(above, v.is(K::Path) ? v.text : std::string());
    // A classmethod over an lru_cache wrapper: the method's function is not Python code.
    if (wrapper == "builtins.classmethod" && v.is(K::Path) &&
        (v.text == "functools.lru_cache" || v.text == "functools.cache"))
      brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, d, "GB0177",
          "a classmethod over `" + v.text + "` (Dynamo cannot call a method whose function is not Python)");
    if (!v.is(K::Path)) {
      // `@<custom_op>.register_fake` and similar: implementations Dynamo never traces.
      if (type_of(e) == "attribute" || (is_call && type_of(field(e, "function")) == "attribute")) {
        TSNode a = is_call ? field(e, "function") : e;
        std::string_view m = txt(field(a, "attribute"));
        if (contains({"register_fake", "register_kernel", "register_autograd", "register_torch_dispatch",
                      "register_vmap", "impl_abstract", "register_autocast"},
                     m))
          f.opaque = true;
      }
      continue;
    }
    const std::string& p = v.text;
    ArgsView a = is_call ? args_of(e) : ArgsView{};
    auto kw_true = [&](std::string_view k) {
      TSNode n = a.keyword(k);
      return !ts_node_is_null(n) && literal_bool(n).value_or(false);
    };
    if (p == "torch.compile" || p == "torch._dynamo.optimize") {
      if (!f.compiled) f.compiled = CompileMark{};
      f.compiled->span = span_of(d);
      f.compiled->fullgraph = kw_true("fullgraph") || kw_true("nopython");
    } else if (p == "torch.compiler.disable" || p == "torch._dynamo.disable") {
      f.disabled = true;
      TSNode r = a.keyword("recursive");
      f.disabled_nonrecursive = !ts_node_is_null(r) && !literal_bool(r).value_or(true);
    } else if (p == "torch.jit.script" || p == "torch.jit.script_method" || p == "torch.jit.ignore" ||
               p == "torch.jit.unused") {
      f.scripted = p == "torch.jit.script";
    } else if (contains({"torch.library.custom_op", "torch._library.custom_ops.custom_op", "torch.library.triton_op",
                         "torch._dynamo.allow_in_graph", "torch.compiler.allow_in_graph",
                         "torch._dynamo.assume_constant_result", "torch.compiler.assume_constant_result",
                         "torch._dynamo.nonstrict_trace",
                         "triton.jit", "triton.autotune", "triton.heuristics", "torch.library.register_fake",
                         "torch.library.impl", "torch.library.register_kernel", "torch.library.impl_abstract"},
                        p)) {
      f.opaque = true;
    } else if (p == "torch._dynamo.config.patch" && is_call) {
      if (!f.compiled) f.compiled = CompileMark{};
      for (const auto& [k, val] : a.kw)
        if (auto b = literal_bool(val)) f.compiled->config[k] = *b;
      // A patch alone does not compile; keep the overrides for when it is (span stays empty).
    }
  }
  if (f.compiled && f.compiled->span.end == 0) {
    // Only a config patch: not an entry by itself. Keep the overrides aside.
    patches_[fi] = f.compiled->config;
    f.compiled.reset();
  } else if (f.compiled) {
    if (auto it = patches_.find(fi); it != patches_.end()) f.compiled->config = it->second;
  }
}

// The parameters that an ordering comparison (`p > 0`, `lo <= p`) has as operands, by name,
// space-separated; "" for other expressions.
std::string Summarizer::compared_param(TSNode cmp, const std::set<std::string>& params) {
  if (type_of(cmp) != "comparison_operator") return {};
  for (uint32_t i = 0; i < ts_node_child_count(cmp); ++i) {
    std::string_view op = type_of(ts_node_child(cmp, i));
    if (op == "in" || op == "not in" || op == "is" || op == "is not" || op == "not") return {};
  }
  std::string which;
  for (TSNode c : named_children(cmp))
    if (type_of(c) == "identifier" && params.count(std::string(txt(c)))) which += " " + std::string(txt(c)) + " ";
  return which;
}

// Evidence that unannotated parameters are tensors: tensor-only attributes and methods on
// them, `@`, or being the first argument of a torch function.
void Summarizer::tensor_evidence(TSNode body, Scope& scope, const std::set<std::string>& params) {
  std::set<std::string> found;
  std::map<std::string, std::string> mask_of;  // local name -> parameter it is a comparison of
  TSTreeCursor c = ts_tree_cursor_new(body);
  int depth = 1;
  // The nodes the cursor is below (ts_node_parent walks down from the root each time).
  std::vector<TSNode> above = {body};
  bool more = ts_tree_cursor_goto_first_child(&c);
  // Once every parameter has its evidence, the rest of the body can add none.
  while (more && found.size() < params.size()) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (!spend()) break;
    // Punctuation and keywords: nothing to look at or below.
    const bool named = ts_node_is_named(n);
    std::string_view t = named ? type_of(n) : std::string_view();
    bool descend = named && t != "function_definition" && t != "class_definition" && t != "lambda" && depth < kMaxDepth;
    if (t == "attribute") {
      TSNode obj = field(n, "object");
      if (type_of(obj) == "identifier" && params.count(std::string(txt(obj)))) {
        std::string_view a = txt(field(n, "attribute"));
        bool method = type_of(above.back()) == "call";
        if (tensor_only_attr(a) || (method && tensor_only_method(a) && a != "item" && a != "tolist"))
          found.insert(std::string(txt(obj)));
      }
    } else if (t == "assignment") {
      // `mask = p > 0`: remember which parameter the comparison tests, for `p[mask]` below.
      TSNode lhs = field(n, "left"), rhs = strip_parens(field(n, "right"));
      if (type_of(lhs) == "identifier") {
        std::string name(txt(lhs));
        std::string cmp = compared_param(rhs, params);
        if (!cmp.empty()) mask_of[name] = cmp;
        else mask_of.erase(name);
      }
    } else if (t == "subscript") {
      // `p[p > 0]` / `p[mask]` with `mask = p > 0`: indexing a value by a comparison of itself
      // is boolean-mask indexing, which only tensors (and NumPy arrays) support.
      auto kids = named_children(n);
      TSNode base = field(n, "value");
      if (kids.size() == 2 && type_of(base) == "identifier" && params.count(std::string(txt(base)))) {
        std::string p(txt(base));
        TSNode idx = strip_parens(kids[1]);
        std::string via;
        if (type_of(idx) == "identifier") {
          if (auto it = mask_of.find(std::string(txt(idx))); it != mask_of.end()) via = it->second;
        } else {
          via = compared_param(idx, params);
        }
        if (via.find(" " + p + " ") != std::string::npos) found.insert(p);
      }
    } else if (t == "binary_operator" && txt(field(n, "operator")) == "@") {
      for (TSNode side : {field(n, "left"), field(n, "right")})
        if (type_of(side) == "identifier" && params.count(std::string(txt(side))))
          found.insert(std::string(txt(side)));
    } else if (t == "call") {
      TSNode fnn = field(n, "function");
      if (type_of(fnn) == "attribute") {
        FnContext tmp;
        tmp.scope = &module_scope_;
        Val v = eval(fnn, tmp, 0);
        if (v.is(K::Path) && torch_call_result(v.text)) {
          ArgsView a = args_of(n);
          if (!a.pos.empty() && type_of(a.pos[0]) == "identifier" && params.count(std::string(txt(a.pos[0]))))
            found.insert(std::string(txt(a.pos[0])));
        }
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
      above.push_back(n);
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c) || --depth == 0) {
        more = false;
        break;
      }
      above.pop_back();
    }
  }
  ts_tree_cursor_delete(&c);
  for (const auto& p : found) {
    auto it = scope.vars.find(p);
    if (it != scope.vars.end() && it->second.is(K::Unknown)) it->second = Val::of(K::Tensor);
  }
}

void Summarizer::walk_function(size_t fi, bool attrs_only, const FnContext* outer) {
  TSNode def = defs_[fi].node;
  Function& f = out_.functions[fi];
  fn_ = static_cast<int>(fi);
  collecting_attrs_ = attrs_only;
  Scope scope{{}, outer ? outer->scope : &module_scope_};
  FnContext ctx;
  ctx.fn = fn_;
  // Functions nested in a method see its `self`.
  ctx.cls = f.cls >= 0 ? f.cls : (outer ? outer->cls : -1);
  ctx.self_name = outer ? outer->self_name : std::string();
  f.self_cls = ctx.cls;
  ctx.scope = &scope;
  if (!attrs_only) decorators(fi, ctx);
  bool is_static = false, is_classmethod = false;
  if (!ts_node_is_null(defs_[fi].decorated))
    for (TSNode d : named_children(defs_[fi].decorated)) {
      std::string_view dt = txt(d);
      if (dt.find("staticmethod") != std::string_view::npos) is_static = true;
      if (dt.find("classmethod") != std::string_view::npos) is_classmethod = true;
    }
  std::set<std::string> unannotated;
  std::set<std::string> falsy;
  if (!attrs_only) f.params.clear();
  size_t n_params = 0;
  TSNode params = field(def, "parameters");
  bool first = true;
  if (!ts_node_is_null(params)) {
    for (TSNode p : named_children(params)) {
      std::string_view pt = type_of(p);
      TSNode name_node = p;
      TSNode type{};
      if (pt == "typed_parameter") {
        auto kids = named_children(p);
        name_node = kids.empty() ? TSNode{} : kids[0];
        type = field(p, "type");
      } else if (pt == "default_parameter" || pt == "typed_default_parameter") {
        name_node = field(p, "name");
        type = field(p, "type");
        std::string_view dv = txt(field(p, "value"));
        if ((dv == "False" || dv == "None" || dv == "0") && type_of(name_node) == "identifier")
          falsy.insert(std::string(txt(name_node)));
      } else if (pt != "identifier") {
        if (pt == "list_splat_pattern" || pt == "dictionary_splat_pattern") first = false;
        continue;
      }
      if (type_of(name_node) != "identifier") continue;
      std::string name(txt(name_node));
      if (!attrs_only && n_params < 64) {
        f.params.push_back(name);
        ++n_params;
      }
      if (name == ctx.self_name) ctx.self_name.clear();
      if (first && f.cls >= 0 && !is_static) {
        if (is_classmethod) scope.vars[name] = Val::of(K::Class, out_.classes[static_cast<size_t>(f.cls)].qualname);
        else ctx.self_name = name;
        first = false;
        continue;
      }
      first = false;
      Val v = ts_node_is_null(type) ? Val{} : annotation(type, ctx);
      if (ts_node_is_null(type) && pt == "identifier") unannotated.insert(name);
      scope.vars[name] = v;
    }
  }
  TSNode body = field(def, "body");
  if (!attrs_only && !unannotated.empty() && !ts_node_is_null(body)) tensor_evidence(body, scope, unannotated);
  if (!falsy.empty() && !ts_node_is_null(body)) {
    std::set<std::string> bound;
    assigned_names(body, bound, 0);
    for (const auto& b : bound) falsy.erase(b);
  }
  auto saved_globals = std::move(global_names_);
  global_names_.clear();
  auto saved_falsy = std::move(falsy_params_);
  auto saved_needs = std::move(needs_);
  auto saved_when = std::move(when_);
  falsy_params_ = std::move(falsy);
  needs_.clear();
  when_.clear();
  if (type_of(def) == "lambda") scan(body, ctx, 0);  // a compiled lambda: its body is one expression
  else walk_block(body, ctx, 0);
  falsy_params_ = std::move(saved_falsy);
  global_names_ = std::move(saved_globals);
  needs_ = std::move(saved_needs);
  when_ = std::move(saved_when);
  collecting_attrs_ = false;
  if (attrs_only) return;
  // Appending to a ModuleList attribute: `self.blocks.append(Block())`.
  (void)f;
}

// Names bound anywhere in a body (assignments, augmented assignments, loop and `with`
// targets, walrus, `global`/`nonlocal`), nested definitions included: conservative.
void Summarizer::assigned_names(TSNode n, std::set<std::string>& out, int depth) {
  if (ts_node_is_null(n) || depth > kMaxDepth || !spend()) return;
  std::string_view t = type_of(n);
  auto idents = [&](TSNode target, auto&& self) -> void {
    if (ts_node_is_null(target)) return;
    if (type_of(target) == "identifier") {
      out.insert(std::string(txt(target)));
      return;
    }
    std::string_view tt = type_of(target);
    if (tt == "pattern_list" || tt == "tuple_pattern" || tt == "list_pattern" || tt == "expression_list" ||
        tt == "tuple" || tt == "list" || tt == "parenthesized_expression" || tt == "as_pattern_target" ||
        tt == "list_splat_pattern")
      for (TSNode c : named_children(target)) self(c, self);
  };
  if (t == "assignment" || t == "augmented_assignment" || t == "for_statement" || t == "for_in_clause") {
    idents(field(n, "left"), idents);
  } else if (t == "named_expression") {
    idents(field(n, "name"), idents);
  } else if (t == "as_pattern") {
    idents(field(n, "alias"), idents);
  } else if (t == "global_statement" || t == "nonlocal_statement" || t == "delete_statement") {
    for (TSNode c : named_children(n)) idents(c, idents);
  }
  for (TSNode c : named_children(n)) assigned_names(c, out, depth + 1);
}

}  // namespace cudalint::python::gb::detail
