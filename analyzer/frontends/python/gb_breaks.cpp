// Graph-break summaries: the break catalogue. Which expressions and calls break the graph
// (with Dynamo's registry id and the gate under which they do), and the records of breaks, of
// calls the model follows into other functions and of compile sites.
#include <string>
#include <string_view>

#include "analyzer/frontends/python/gb_call_patterns.h"
#include "analyzer/frontends/python/gb_summarizer.h"

namespace cudalint::python::gb {

std::string_view to_string(BreakKind k) {
  switch (k) {
    case BreakKind::Item: return "item";
    case BreakKind::ToList: return "tolist";
    case BreakKind::NumpyUntraced: return "numpy";
    case BreakKind::Print: return "print";
    case BreakKind::Logging: return "logging";
    case BreakKind::Warnings: return "warnings";
    case BreakKind::DataDependentBranch: return "data-dependent-branch";
    case BreakKind::DataDependentOp: return "data-dependent-op";
    case BreakKind::ExplicitBreak: return "graph-break";
    case BreakKind::Debugger: return "debugger";
    case BreakKind::DeepCopy: return "deepcopy";
    case BreakKind::WallClock: return "wall-clock";
    case BreakKind::SkippedStdlib: return "skipped-stdlib";
    case BreakKind::DynamicShape: return "dynamic-shape";
    case BreakKind::UnsupportedBuiltin: return "unsupported-builtin";
    case BreakKind::TensorToString: return "tensor-to-string";
    case BreakKind::Backward: return "backward";
    case BreakKind::ClassDefinition: return "class-definition";
    case BreakKind::TensorApi: return "tensor-api";
    case BreakKind::RngState: return "rng-state";
    case BreakKind::RnnModule: return "rnn-module";
    case BreakKind::ScriptedModule: return "scripted-module";
    case BreakKind::ExtensionCall: return "extension-call";
    case BreakKind::DisabledCall: return "disabled-call";
    case BreakKind::AsyncCollective: return "async-collective";
  }
  return "?";
}

}  // namespace cudalint::python::gb

namespace cudalint::python::gb::detail {

// ---- recording ----
void Summarizer::brk(BreakKind k, Gate g, TSNode at, std::string registry, std::string detail) {
  Function* f = cur();
  if (!f || collecting_attrs_ || f->breaks.size() >= kMaxPerFunction) return;
  BreakSite b;
  b.kind = k;
  b.gate = g;
  b.span = span_of(at);
  b.what = collapse(txt(at));
  b.registry = std::move(registry);
  b.detail = std::move(detail);
  if (!needs_.empty()) b.needs = needs_.back();
  if (!when_.empty()) b.when = when_.back();
  f->breaks.push_back(std::move(b));
  if (loop_depth_ > 0) f->has_breaks_in_loop = true;
}

void Summarizer::call_site(TSNode at, Val callee) {
  Function* f = cur();
  if (!f || collecting_attrs_ || f->calls.size() >= kMaxPerFunction) return;
  CallSite cs;
  cs.span = span_of(at);
  cs.callee = std::move(callee);
  if (!needs_.empty()) cs.needs = needs_.back();
  if (!when_.empty()) cs.when = when_.back();
  if (type_of(at) == "call") {
    ArgsView a = args_of(at);
    cs.positional = static_cast<int>(a.pos.size());
    for (const auto& [k, v] : a.kw) cs.keywords.push_back(k);
    cs.splat = a.splat;
  } else {
    cs.splat = true;
  }
  f->calls.push_back(std::move(cs));
}

// In compile sites written inside a method, `self` is an instance of that method's class.
Val Summarizer::detach_self(Val v, const FnContext& ctx) const {
  if (v.is(K::Self) && ctx.cls >= 0) {
    Val inst = Val::wrap(K::Instance, Val::of(K::Class, out_.classes[static_cast<size_t>(ctx.cls)].qualname));
    if (v.text.empty()) return inst;
    return Val::wrap(K::Attr, std::move(inst), v.text);
  }
  for (auto& i : v.items) i = detach_self(std::move(i), ctx);
  return v;
}

void Summarizer::compile_site(TSNode call, TSNode target, bool fullgraph, bool method_form, const FnContext& ctx) {
  if (collecting_attrs_ || out_.compile_sites.size() >= kMaxPerFunction * 4) return;
  Val v = method_form ? eval(target, ctx, 0) : eval(target, ctx, 0);
  out_.compile_sites.push_back({span_of(call), detach_self(std::move(v), ctx), fullgraph, method_form});
}

// ---- truth tests ----
void Summarizer::truth_test(TSNode cond, FnContext& ctx, int depth) {
  cond = strip_parens(cond);
  if (ts_node_is_null(cond) || depth > kMaxDepth) return;
  std::string_view t = type_of(cond);
  if (t == "not_operator") return truth_test(field(cond, "argument"), ctx, depth + 1);
  if (t == "boolean_operator") {
    truth_test(field(cond, "left"), ctx, depth + 1);
    truth_test(field(cond, "right"), ctx, depth + 1);
    return;
  }
  Val v = eval(cond, ctx, depth + 1);
  if (v.is(K::Tensor))
    brk(BreakKind::DataDependentBranch, Gate::Always, cond, "GB0170");
  else if (v.is(K::Scalar))
    brk(BreakKind::DataDependentBranch, Gate::OnlyScalarsCaptured, cond, "GB0170");
}

// ---- scanning expressions for breaks, calls and compile sites ----
void Summarizer::scan(TSNode n, FnContext& ctx, int depth, bool store) {
  if (ts_node_is_null(n) || depth > kMaxDepth || !spend()) return;
  std::string_view t = type_of(n);
  if (t == "call") {
    on_call(n, ctx);
    TSNode fn = field(n, "function");
    if (type_of(fn) == "attribute") scan(field(fn, "object"), ctx, depth + 1);
    else if (type_of(fn) != "identifier") scan(fn, ctx, depth + 1);
    TSNode args = field(n, "arguments");
    if (!ts_node_is_null(args)) scan(args, ctx, depth + 1);
    return;
  }
  if (t == "attribute") {
    std::string_view attr = txt(field(n, "attribute"));
    if (attr == "grad_fn" && !store) {
      Val recv = eval(field(n, "object"), ctx, depth + 1);
      if (recv.is(K::Tensor) || recv.is(K::Unknown))
        brk(BreakKind::TensorApi, Gate::Always, n, "GB0104", "grad_fn");
    }
    scan(field(n, "object"), ctx, depth + 1);
    return;
  }
  if (t == "subscript") {
    scan(field(n, "value"), ctx, depth + 1);
    for (TSNode c : named_children(n))
      if (!ts_node_eq(c, field(n, "value"))) scan(c, ctx, depth + 1);
    if (!store) {
      auto kids = named_children(n);
      if (kids.size() == 2) {
        Val base = eval(kids[0], ctx, depth + 1);
        Val idx = eval(kids[1], ctx, depth + 1);
        if (idx.is(K::Tensor) && idx.flag && (base.is(K::Tensor) || base.is(K::Unknown)))
          brk(BreakKind::DynamicShape, Gate::UnlessDynamicCaptured, n, "GB0036", "boolean mask");
      }
    }
    return;
  }
  if (t == "conditional_expression") {
    auto kids = named_children(n);
    if (kids.size() == 3) truth_test(kids[1], ctx, depth + 1);
    for (TSNode c : kids) scan(c, ctx, depth + 1);
    return;
  }
  if (t == "not_operator") {
    truth_test(field(n, "argument"), ctx, depth + 1);
    scan(field(n, "argument"), ctx, depth + 1);
    return;
  }
  if (t == "boolean_operator") {
    // The left operand is always tested for truth; the right one only where the result is.
    truth_test(field(n, "left"), ctx, depth + 1);
    scan(field(n, "left"), ctx, depth + 1);
    scan(field(n, "right"), ctx, depth + 1);
    return;
  }
  if (t == "lambda") {
    Scope inner{{}, ctx.scope};
    TSNode params = field(n, "parameters");
    if (!ts_node_is_null(params))
      for (TSNode p : named_children(params))
        if (type_of(p) == "identifier") inner.vars[std::string(txt(p))] = Val{};
    FnContext c2 = ctx;
    c2.scope = &inner;
    scan(field(n, "body"), c2, depth + 1);
    return;
  }
  if (t == "list_comprehension" || t == "generator_expression" || t == "set_comprehension" ||
      t == "dictionary_comprehension") {
    Scope inner{{}, ctx.scope};
    FnContext c2 = ctx;
    c2.scope = &inner;
    for (TSNode c : named_children(n)) {
      if (type_of(c) == "for_in_clause") {
        scan(field(c, "right"), c2, depth + 1);
        bind_for(c, c2, depth + 1);
      }
    }
    for (TSNode c : named_children(n)) {
      if (type_of(c) == "for_in_clause") continue;
      if (type_of(c) == "if_clause") {
        for (TSNode k : named_children(c)) {
          truth_test(k, c2, depth + 1);
          scan(k, c2, depth + 1);
        }
        continue;
      }
      scan(c, c2, depth + 1);
    }
    return;
  }
  if (t == "string") {
    for (TSNode c : named_children(n)) {
      if (type_of(c) != "interpolation") continue;
      TSNode e = field(c, "expression");
      if (ts_node_is_null(e)) {
        auto kids = named_children(c);
        if (!kids.empty()) e = kids[0];
      }
      if (eval(e, ctx, depth + 1).is(K::Tensor))
        brk(BreakKind::TensorToString, Gate::Always, c, "GB0156", "f-string");
      scan(e, ctx, depth + 1);
    }
    return;
  }
  for (TSNode c : named_children(n)) scan(c, ctx, depth + 1, store && (t == "pattern_list" || t == "tuple_pattern"));
}

void Summarizer::on_call(TSNode n, FnContext& ctx) {
  TSNode fn = field(n, "function");
  ArgsView a = args_of(n);
  Val callee = eval(fn, ctx, 0);
  std::string m;
  Val recv;
  if (type_of(fn) == "attribute") {
    m = std::string(txt(field(fn, "attribute")));
    recv = eval(field(fn, "object"), ctx, 0);
  }
  if (collecting_attrs_) {
    if (ctx.cls >= 0) self_attr_call(recv, m, a, ctx);
    return;
  }
  auto kw_true = [&](std::string_view k) {
    TSNode v = a.keyword(k);
    return !ts_node_is_null(v) && literal_bool(v).value_or(false);
  };
  // Compile sites.
  if (callee.is(K::Path)) {
    const std::string& p = callee.text;
    if (p == "torch.compile") {
      if (!a.pos.empty()) compile_site(n, a.pos[0], kw_true("fullgraph"), false, ctx);
      return;
    }
    if (p == "torch._dynamo.optimize()" && type_of(fn) == "call") {
      ArgsView inner = args_of(fn);
      TSNode np = inner.keyword("nopython");
      bool fg = !ts_node_is_null(np) && literal_bool(np).value_or(false);
      if (!a.pos.empty()) compile_site(n, a.pos[0], fg, false, ctx);
      return;
    }
  }
  // `m.compile()` on an instance, `self.encoder.compile()`, `layers[0].compile()`, a loop's
  // `block.compile()`: the model resolves which project modules they are.
  if (m == "compile" && a.pos.empty() &&
      (recv.is(K::Instance) || recv.is(K::Self) || recv.is(K::Attr) || recv.is(K::Elem) || recv.is(K::Item))) {
    compile_site(n, field(fn, "object"), kw_true("fullgraph"), true, ctx);
    return;
  }
  // The call-pattern table (gb_call_patterns.cpp).
  auto holds = [&](const CallPattern& row) { return call_args_hold(row.args, a, recv, ctx); };
  auto record = [&](const CallPattern& row, std::string_view name) {
    std::string detail(row.detail);
    if (size_t at = detail.find("{}"); at != std::string::npos) detail.replace(at, 2, name);
    brk(row.kind, row.gate, n, std::string(row.registry), std::move(detail));
  };
  if (callee.is(K::Path)) {
    const std::string& p = callee.text;
    if (const CallPattern* row = first_call_pattern(Callee::Function, p, holds)) return record(*row, p);
    if (p.starts_with("torch.") || p.starts_with("builtins.")) return;
  }
  // Methods on tensors (or on receivers that only a tensor can be).
  if (!m.empty()) {
    if (recv.is(K::Self) && resolve_local(recv, ctx).is(K::Tensor)) recv = Val::of(K::Tensor);
    bool tensorish = recv.is(K::Tensor) || recv.is(K::Unknown);
    bool logger = recv.is(K::Instance) && !recv.items.empty() && recv.items[0].is(K::Path) &&
                  recv.items[0].text == "logging.getLogger";
    if (!logger && recv.is(K::Self)) {
      Val r = resolve_local(recv, ctx);
      logger = r.is(K::Instance) && !r.items.empty() && r.items[0].is(K::Path) &&
               r.items[0].text == "logging.getLogger";
    }
    if (logger) {
      if (const CallPattern* row = first_call_pattern(Callee::LoggerMethod, m, holds)) return record(*row, m);
      return;
    }
    if (tensorish)
      if (const CallPattern* row = first_call_pattern(Callee::TensorMethod, m, holds)) return record(*row, m);
    if (recv.is(K::Tensor)) return;
  }
  // Everything else may be project code: the model resolves it.
  if (callee.is(K::Unknown) || callee.is(K::Tensor) || callee.is(K::Scalar)) return;
  if (callee.is(K::Path) && (callee.text.starts_with("builtins.") || callee.text.starts_with("torch."))) return;
  if (val_depth(callee) > kMaxValDepth) return;
  call_site(n, std::move(callee));
}

// Whether a call's arguments (and receiver) pass a call pattern's test. Arguments are evaluated
// only as far as the test needs them.
bool Summarizer::call_args_hold(ArgTest t, const ArgsView& a, const Val& recv, const FnContext& ctx) {
  switch (t) {
    case ArgTest::Any: return true;
    case ArgTest::NoPositional: return a.pos.empty();
    case ArgTest::OneTensor: return a.pos.size() == 1 && eval(a.pos[0], ctx, 0).is(K::Tensor);
    case ArgTest::OnlyOnePositional: return a.pos.size() == 1 && a.kw.empty() && !a.splat;
    case ArgTest::AsyncOp: {
      TSNode v = a.keyword("async_op");
      return !ts_node_is_null(v) && literal_bool(v).value_or(false);
    }
    case ArgTest::NoAsTuple: return ts_node_is_null(a.keyword("as_tuple"));
    case ArgTest::SecondTensorNoOutputSize:
      return a.pos.size() >= 2 && ts_node_is_null(a.keyword("output_size")) && eval(a.pos[1], ctx, 0).is(K::Tensor);
    case ArgTest::FirstTensorNoOutputSize:
      return !a.pos.empty() && ts_node_is_null(a.keyword("output_size")) && eval(a.pos[0], ctx, 0).is(K::Tensor);
    case ArgTest::TensorReceiver: return recv.is(K::Tensor);
  }
  return false;
}

}  // namespace cudalint::python::gb::detail
