// Graph-break summaries: the break catalogue. Which expressions break the graph (with Dynamo's
// registry id, the gate under which they do and the rule that reports them), each call looked up
// in the GB rules' call patterns, and the records of breaks, of calls the model follows into
// other functions and of compile sites.
#include <algorithm>
#include <string>
#include <string_view>

#include "analyzer/frontends/python/gb_call_patterns.h"
#include "analyzer/frontends/python/gb_rule_ids.h"
#include "analyzer/frontends/python/gb_summarizer.h"
#include "analyzer/frontends/python/top_level.h"

namespace cudalint::python::gb::detail {

// ---- recording ----
void Summarizer::brk(std::string_view rule, Gate g, TSNode at, std::string registry, std::string detail) {
  Function* f = cur();
  if (!f || collecting_attrs_ || f->breaks.size() >= kMaxPerFunction) return;
  BreakSite b;
  b.rule = rule;
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
    brk(rule_id::kDataDependentBranch, Gate::Always, cond, "GB0170");
  else if (v.is(K::Scalar))
    brk(rule_id::kDataDependentBranch, Gate::OnlyScalarsCaptured, cond, "GB0170");
}

// ---- scanning expressions for breaks, calls and compile sites ----
void Summarizer::scan(TSNode n, FnContext& ctx, int depth, bool store) {
  if (ts_node_is_null(n) || depth > kMaxDepth || !spend()) return;
  std::string_view t = type_of(n);
  if (t == "call") {
    on_call(n, ctx);
    TSNode fn = field(n, "function");
    if (type_of(fn) == "attribute") {
      slice_attribute(fn, ctx, depth);
      scan(field(fn, "object"), ctx, depth + 1);
    } else if (type_of(fn) != "identifier") scan(fn, ctx, depth + 1);
    TSNode args = field(n, "arguments");
    if (!ts_node_is_null(args)) scan(args, ctx, depth + 1);
    return;
  }
  if (t == "attribute") {
    std::string_view attr = txt(field(n, "attribute"));
    if (attr == "grad_fn" && !store) {
      Val recv = eval(field(n, "object"), ctx, depth + 1);
      if (recv.is(K::Tensor) || recv.is(K::Unknown))
        brk(rule_id::kUnsupportedTensorApi, Gate::Always, n, "GB0104", "grad_fn");
    }
    if (!store && (attr == "flags" || attr == "base" || attr == "dtype")) {
      Val recv = eval(field(n, "object"), ctx, depth + 1);
      if (recv.is(K::Tensor) && recv.text == "ndarray")
        brk(rule_id::kUnsupportedNumpyCall, Gate::Always, n, "GB0157", "`ndarray." + std::string(attr) + "`");
    }
    if (!store && type_of(field(n, "object")) == "identifier" &&
        has_trait(eval(field(n, "object"), ctx, depth + 1), ClassTrait::UninitializedModule))
      brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, n, "GB0119",
          "using an nn.Module whose `__init__` never calls `super().__init__()`");
    if (!store) slice_attribute(n, ctx, depth);
    if (!store && attr == "tb_lasti")
      brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, n, "GB9625", "reading a traceback's `tb_lasti`");
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
          brk(rule_id::kDynamicOutputShapeOp, Gate::UnlessDynamicCaptured, n, "GB0036", "boolean mask");
        // x.shape[i] / x.size()[i] with a tensor i: a Python int out of tensor data.
        TSNode b = strip_parens(kids[0]);
        bool shape = (type_of(b) == "attribute" && txt(field(b, "attribute")) == "shape") ||
                     (type_of(b) == "call" && type_of(field(b, "function")) == "attribute" &&
                      txt(field(field(b, "function"), "attribute")) == "size" && args_of(b).pos.empty());
        if (shape && idx.is(K::Tensor))
          brk(rule_id::kDataDependentOperator, Gate::Always, n, "GB7596", "indexing a shape with a tensor");
      }
    }
    return;
  }
  if (t == "yield") {
    // Dynamo refuses to trace a generator it is asked to compile (one it calls is inlined).
    const Function* f = cur();
    bool first = f && std::none_of(f->breaks.begin(), f->breaks.end(),
                                   [](const BreakSite& b) { return b.registry == "GB0003"; });
    if (first)
      brk(rule_id::kUnsupportedPythonConstruct, Gate::OnlyAtEntry, n, "GB0003", "the compiled function is a generator (`yield`)");
    for (TSNode c : named_children(n)) scan(c, ctx, depth + 1);
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
    Scope inner = lambda_scope(n, ctx);
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
        brk(rule_id::kTensorToString, Gate::Always, c, "GB0156", "f-string");
      scan(e, ctx, depth + 1);
    }
    return;
  }
  if (t == "dictionary")
    for (TSNode pair : named_children(n))
      if (type_of(pair) == "pair" && has_trait(eval(field(pair, "key"), ctx, depth + 1), ClassTrait::HashOverride))
        brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, field(pair, "key"), "GB0364",
            "a dict key of a class that overrides `__hash__`");
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
      if (!a.pos.empty() && type_of(strip_parens(a.pos[0])) == "lambda") {
        int fi = compiled_lambda(strip_parens(a.pos[0]), ctx);
        if (fi >= 0 && out_.compile_sites.size() < kMaxPerFunction * 4)
          out_.compile_sites.push_back({span_of(n), Val::of(K::Func, out_.functions[static_cast<size_t>(fi)].qualname),
                                        kw_true("fullgraph"), false});
      } else if (!a.pos.empty()) compile_site(n, a.pos[0], kw_true("fullgraph"), false, ctx);
      // Traced, torch.compile accepts exactly one positional argument (the function).
      else brk(rule_id::kUnsupportedTorchFunction, Gate::Always, n, "GB0223", "`torch.compile()` without the function to compile");
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
  if (callee.is(K::Func)) nonstrict_call(n, callee, a, ctx);
  // hasattr() of a name an OrderedDict does not define: its instance attributes need the
  // side-effect tracking Dynamo has for plain dicts only.
  if (callee.is(K::Path) && callee.text == "builtins.hasattr" && a.pos.size() == 2)
    if (Val d = eval(a.pos[0], ctx, 0); d.is(K::Dict) && d.text == "collections.OrderedDict")
      if (std::string name = string_literal(a.pos[1]);
          !name.empty() && !name.starts_with("__") &&
          !contains({"clear", "copy", "fromkeys", "get", "items", "keys", "move_to_end", "pop", "popitem", "setdefault",
                     "update", "values"},
                    name))
        brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, n, "GB0217", "`hasattr()` of an OrderedDict");
  // Activation checkpointing traces its function as a subgraph, which may not touch state
  // outside it.
  if (callee.is(K::Path) && contains({"torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint"}, callee.text) &&
      !a.pos.empty())
    if (Val body = eval(a.pos[0], ctx, 0); body.is(K::Func))
      if (int fi = def_index(body.text); fi >= 0)
        if (std::string m = global_mutation(static_cast<size_t>(fi)); !m.empty())
          brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, n, "GB0067",
              "checkpointing `" + body.text + "`, which mutates module-level state (`" + m + "`)");
  if (has_trait(callee, ClassTrait::PartialTypedDict) && callee.is(K::Class))
    brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, n, "GB0257", "building a TypedDict declared with `total=False`");
  // Module backward hooks: registered at module level, met when the module is called.
  if (!m.empty() && contains({"register_full_backward_hook", "register_backward_hook"}, m) && fn_ < 0 &&
      type_of(field(fn, "object")) == "identifier")
    backward_hooked_.emplace(txt(field(fn, "object")));
  if (type_of(fn) == "identifier" && backward_hooked_.count(txt(fn)) && ctx.scope && !ctx.scope->vars.count(txt(fn)))
    brk(rule_id::kAutogradStateInCompiledCode, Gate::Always, n, "GB0083",
        "calling a module with a backward hook (module backward hooks need compiled autograd)");
  // `functools.wraps(w)(fn)` of a function defined outside the compiled code.
  if (type_of(fn) == "call" && a.pos.size() == 1 && ctx.scope) {
    Val inner = eval(field(fn, "function"), ctx, 0);
    TSNode wrapped = strip_parens(a.pos[0]);
    if (inner.is(K::Path) && inner.text == "functools.wraps" &&
        !(type_of(wrapped) == "identifier" && ctx.scope->vars.count(txt(wrapped))) && type_of(wrapped) != "lambda")
      brk(rule_id::kUnsupportedBuiltinCall, Gate::Always, n, "GB0187",
          "`functools.wraps(...)` applied to a function defined outside the compiled code");
  }
  // The rules' call patterns (gb_call_patterns.h).
  auto holds = [&](const CallPattern& row) { return call_args_hold(row, n, a, recv, ctx); };
  auto record = [&](const CallRow& row, std::string_view name) {
    std::string detail(row.pattern->detail);
    if (size_t at = detail.find("{}"); at != std::string::npos) detail.replace(at, 2, name);
    brk(row.rule, row.pattern->gate, n, std::string(row.pattern->registry), std::move(detail));
  };
  if (callee.is(K::Path)) {
    const std::string& p = callee.text;
    if (const CallRow* row = calls_.first(Callee::Function, p, holds)) return record(*row, p);
    // A ufunc's method (np.add.reduce): its rows stand under "numpy.ufunc.<method>".
    if (p.starts_with("numpy.") && std::count(p.begin(), p.end(), '.') == 2 &&
        !contains({"linalg", "ma", "fft", "random", "char", "polynomial", "lib", "testing", "emath", "rec", "strings"},
                  std::string_view(p).substr(6, p.find('.', 6) - 6))) {
      std::string key = "numpy.ufunc" + p.substr(p.rfind('.'));
      if (const CallRow* row = calls_.first(Callee::Function, key, holds)) return record(*row, p);
    }
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
      if (const CallRow* row = calls_.first(Callee::LoggerMethod, m, holds)) return record(*row, m);
      return;
    }
    if (tensorish)
      if (const CallRow* row = calls_.first(Callee::TensorMethod, m, holds)) return record(*row, m);
    if (recv.is(K::Tensor)) return;
  }
  // Everything else may be project code: the model resolves it.
  if (callee.is(K::Unknown) || callee.is(K::Tensor) || callee.is(K::Scalar)) return;
  if (callee.is(K::Path) && (callee.text.starts_with("builtins.") || callee.text.starts_with("torch."))) return;
  if (val_depth(callee) > kMaxValDepth) return;
  call_site(n, std::move(callee));
}

// Assignments to attributes Dynamo cannot trace.
void Summarizer::attribute_store(TSNode target, const FnContext& ctx, TSNode value) {
  target = strip_parens(target);
  if (type_of(target) == "pattern_list" || type_of(target) == "tuple_pattern" || type_of(target) == "expression_list") {
    for (TSNode c : named_children(target)) attribute_store(c, ctx);
    return;
  }
  if (type_of(target) != "attribute" || !cur()) return;
  std::string attr(txt(field(target, "attribute")));
  TSNode obj = field(target, "object");
  if (attr == "__class__") {
    brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, target, "GB4271", "assigning an object's `__class__`");
    return;
  }
  Val recv = eval(obj, ctx, 0);
  bool tensorish = recv.is(K::Tensor) || recv.is(K::Unknown);
  if (attr == "requires_grad" && tensorish)
    brk(rule_id::kAutogradStateInCompiledCode, Gate::Always, target, "GB0206", "assigning `Tensor.requires_grad`");
  else if (attr == "data" && fresh_tensor(obj, ctx))
    brk(rule_id::kTensorStorageMutation, Gate::Always, target, "GB0056", "assigning `.data` of a tensor made in the function");
  else if (std::string dt; attr == "data" && is_input(obj) && !(dt = dtype_change(value)).empty()) {
    // An input's `.data` may be swapped for a tensor of its own dtype only; which dtype the
    // input has is known at run time.
    WhenScope when_other(*this, std::string(txt(obj)) + ".dtype != " + dt);
    brk(rule_id::kTensorStorageMutation, Gate::Always, target, "GB0220", "assigning `.data` of an input a tensor of dtype " + dt);
  }
  else if ((attr == "real" || attr == "imag") && tensorish)
    brk(rule_id::kTensorStorageMutation, Gate::Always, target, "GB0058", "assigning `Tensor." + attr + "`");
  else if (recv.is(K::Instance) && !recv.items.empty() && recv.items[0].is(K::Path) &&
           recv.items[0].text == "builtins.BaseException" &&
           !contains({"__cause__", "__context__", "__suppress_context__", "__traceback__"}, attr))
    brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, target, "GB0135", "setting attribute `" + attr + "` of an exception");
}

// `with` on an object Dynamo has no context-manager model for: locks and semaphores.
void Summarizer::context_manager(TSNode value, const FnContext& ctx) {
  // A @contextmanager function without `yield` returns a plain iterator Dynamo cannot enter.
  if (TSNode call = strip_parens(value); type_of(call) == "call") {
    Val fn = eval(field(call, "function"), ctx, 0);
    if (int fi = fn.is(K::Func) ? def_index(fn.text) : -1; fi >= 0) {
      const size_t i = static_cast<size_t>(fi);
      TSNode dec = defs_[i].decorated;
      bool cm = false;
      if (!ts_node_is_null(dec))
        for (TSNode d : named_children(dec))
          if (type_of(d) == "decorator" && dotted(d).ends_with("contextmanager")) cm = true;
      bool yields = false;
      python::each_word(txt(field(defs_[i].node, "body")), [&](std::string_view w) { yields |= w == "yield"; });
      if (cm && !yields)
        brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, value, "GB0221",
            "`with` on a `@contextmanager` function that never yields");
    }
  }
  Val v = eval(value, ctx, 0);
  if (!v.is(K::Instance) || v.items.empty() || !v.items[0].is(K::Path)) return;
  const std::string& p = v.items[0].text;
  if (contains({"threading.Lock", "threading.RLock", "threading.Semaphore", "threading.BoundedSemaphore",
                "threading.Condition", "multiprocessing.Lock", "multiprocessing.RLock"},
               p))
    brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, value, "GB0142", "`with` on a `" + p + "`");
}

// A raised exception is built as Dynamo traces the raise: its constructor's call patterns.
void Summarizer::raised(TSNode raise_st, FnContext& ctx) {
  auto kids = named_children(raise_st);
  if (kids.empty()) return;
  TSNode exc = strip_parens(kids[0]);
  if (type_of(exc) != "call") return;
  Val callee = eval(field(exc, "function"), ctx, 0);
  if (callee.is(K::Path) && callee.text.starts_with("builtins.")) on_call(exc, ctx);
}

// A lambda's own scope: its parameters (of unknown value) over the enclosing one.
Scope Summarizer::lambda_scope(TSNode lambda, const FnContext& ctx) const {
  Scope inner{{}, ctx.scope};
  TSNode params = field(lambda, "parameters");
  if (!ts_node_is_null(params))
    for (TSNode p : named_children(params))
      if (type_of(p) == "identifier") inner.vars[std::string(txt(p))] = Val{};
  return inner;
}

std::string Summarizer::dtype_change(TSNode value) const {
  value = strip_parens(value);
  if (ts_node_is_null(value) || type_of(value) != "call") return {};
  TSNode fn = field(value, "function");
  ArgsView a = args_of(value);
  if (TSNode d = a.keyword("dtype"); !ts_node_is_null(d)) return dotted(d);
  if (type_of(fn) != "attribute") return {};
  std::string_view m = txt(field(fn, "attribute"));
  static constexpr std::pair<std::string_view, std::string_view> kCasts[] = {
      {"half", "torch.float16"}, {"double", "torch.float64"}, {"bfloat16", "torch.bfloat16"}, {"float", "torch.float32"}};
  for (const auto& [name, dt] : kCasts)
    if (m == name && a.pos.empty() && a.kw.empty()) return std::string(dt);
  if (m == "to")
    for (TSNode p : a.pos)
      if (dotted(p).starts_with("torch.") && dotted(p).find("float") != std::string::npos) return dotted(p);
  return {};
}

// A call of a `@torch._dynamo.nonstrict_trace` function: Dynamo passes its arguments and
// results as pytrees, so an instance of a plain class of this file, in or out, breaks.
void Summarizer::nonstrict_call(TSNode call, const Val& callee, const ArgsView& a, FnContext& ctx) {
  int fi = def_index(callee.text);
  if (fi < 0 || ts_node_is_null(decorator_named(static_cast<size_t>(fi), "torch._dynamo.nonstrict_trace", ctx))) return;
  for (TSNode arg : a.pos) {
    Val v = eval(arg, ctx, 0);
    if (v.is(K::Instance) && has_trait(v, ClassTrait::PlainObject)) {
      brk(rule_id::kUnsupportedTorchFunction, Gate::Always, arg, "GB0236",
          "an instance of `" + v.items[0].text + "` passed to a nonstrict_trace function (not a pytree type)");
      return;
    }
  }
  FnContext mctx;
  mctx.scope = &module_scope_;
  std::string made;
  returns_of(field(defs_[static_cast<size_t>(fi)].node, "body"), 0, [&](TSNode value) {
    if (ts_node_is_null(value)) return;
    Val v = eval(value, mctx, 0);
    if (made.empty() && v.is(K::Instance) && has_trait(v, ClassTrait::PlainObject)) made = v.items[0].text;
  });
  if (!made.empty())
    brk(rule_id::kUnsupportedTorchFunction, Gate::Always, call, "GB0251",
        "a nonstrict_trace function that returns an instance of `" + made + "` (not a pytree type)");
}

// Dynamo's slice objects have start, stop and step, nothing else (`s.indices(n)`).
void Summarizer::slice_attribute(TSNode attr, const FnContext& ctx, int depth) {
  std::string a(txt(field(attr, "attribute")));
  if (contains({"start", "stop", "step"}, a)) return;
  Val r = eval(field(attr, "object"), ctx, depth + 1);
  if (r.is(K::Instance) && !r.items.empty() && r.items[0].is(K::Path) && r.items[0].text == "builtins.slice")
    brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, attr, "GB0137", "`slice." + a + "`");
}

bool Summarizer::is_input(TSNode n) {
  n = strip_parens(n);
  const Function* f = cur();
  if (!f || type_of(n) != "identifier") return false;
  std::string_view name = txt(n);
  for (std::string_view p : f->params)
    if (p == name) return true;
  return false;
}

// Made by arithmetic on values of unknown type: where only a tensor is allowed (`.data =`,
// resize_, nn.Parameter) it is a tensor made in the function; id() of it breaks either way.
static bool arith(const Val& v) { return v.is(K::Unknown) && v.text == kArith; }

bool Summarizer::fresh_tensor(TSNode n, const FnContext& ctx) {
  n = strip_parens(n);
  std::string_view t = type_of(n);
  if (t == "identifier") {
    if (is_input(n) || !ctx.scope) return false;
    auto it = ctx.scope->vars.find(txt(n));  // this function's own names, not the module's
    return it != ctx.scope->vars.end() && (it->second.is(K::Tensor) || arith(it->second));
  }
  if (t == "call" || t == "binary_operator" || t == "unary_operator") {
    Val v = eval(n, ctx, 0);
    return v.is(K::Tensor) || arith(v);
  }
  return false;
}

// Whether an expression (a lambda's body) names a parameter or a local of the function.
bool Summarizer::names_local(TSNode n, const FnContext& ctx, int depth) {
  if (ts_node_is_null(n) || depth > kMaxDepth) return false;
  if (type_of(n) == "identifier") {
    if (is_input(n)) return true;
    return ctx.scope && ctx.scope->vars.count(txt(n)) > 0;
  }
  if (type_of(n) == "attribute") return names_local(field(n, "object"), ctx, depth + 1);
  if (type_of(n) == "keyword_argument") return names_local(field(n, "value"), ctx, depth + 1);
  for (TSNode c : named_children(n))
    if (names_local(c, ctx, depth + 1)) return true;
  return false;
}

// Whether a call's arguments (and receiver) pass a call pattern's test. Arguments are evaluated
// only as far as the test needs them.
bool Summarizer::call_args_hold(const CallPattern& row, TSNode call, const ArgsView& a, const Val& recv,
                                const FnContext& ctx) {
  TSNode fn = field(call, "function");
  TSNode receiver = type_of(fn) == "attribute" ? field(fn, "object") : TSNode{};
  auto ndarray = [&] { return recv.is(K::Tensor) && recv.text == "ndarray"; };
  switch (row.args) {
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
    case ArgTest::KeywordTrue: {
      TSNode v = a.keyword(row.key);
      return !ts_node_is_null(v) && literal_bool(v).value_or(false);
    }
    case ArgTest::KeywordNot: {
      std::string_view key = row.key;
      size_t eq = key.find('=');
      TSNode v = a.keyword(key.substr(0, eq));
      if (a.splat) return false;
      return ts_node_is_null(v) || dotted(v) != key.substr(eq + 1);
    }
    case ArgTest::AnyKeyword: return !a.kw.empty();
    case ArgTest::NotFalse: {
      TSNode v = a.pos.empty() ? a.keyword("requires_grad") : a.pos[0];
      return ts_node_is_null(v) || literal_bool(v).value_or(false);
    }
    case ArgTest::NoDataOrFresh: {
      TSNode v = a.pos.empty() ? a.keyword("data") : a.pos[0];
      if (a.splat) return false;
      return ts_node_is_null(v) || fresh_tensor(v, ctx);
    }
    case ArgTest::OneFreshTensor: return a.pos.size() == 1 && fresh_tensor(a.pos[0], ctx);
    case ArgTest::FreshReceiver: return !ts_node_is_null(receiver) && fresh_tensor(receiver, ctx);
    case ArgTest::InputReceiver: return !ts_node_is_null(receiver) && is_input(receiver);
    case ArgTest::FirstInput: return !a.pos.empty() && is_input(a.pos[0]);
    case ArgTest::SeveralPositional: return a.pos.size() > 1;
    case ArgTest::ListWithTensor: {
      if (a.pos.empty()) return false;
      Val l = eval(a.pos[0], ctx, 0);
      if (!l.is(K::List)) return false;
      for (const Val& e : l.items)
        if (e.is(K::Tensor)) return true;
      return false;
    }
    case ArgTest::SecondPositional: return a.pos.size() >= 2;
    case ArgTest::KeywordNotKey:
      for (const auto& [k, v] : a.kw)
        if (k != "key") return true;
      return false;
    case ArgTest::TensorKey: {
      TSNode key = strip_parens(a.keyword("key"));
      if (ts_node_is_null(key) || type_of(key) != "lambda") return false;
      Scope inner = lambda_scope(key, ctx);
      FnContext c2 = ctx;
      c2.scope = &inner;
      return eval(field(key, "body"), c2, 0).is(K::Tensor);
    }
    case ArgTest::NoNumClasses: {
      if (a.splat) return false;
      TSNode v = a.pos.size() >= 2 ? a.pos[1] : a.keyword("num_classes");
      return ts_node_is_null(v) || dotted(v) == "-1";
    }
    case ArgTest::NdarrayReceiver: return ndarray();
    case ArgTest::NdarrayObjectDtype: {
      if (!ndarray() || a.pos.empty()) return false;
      std::string d = dotted(a.pos[0]);
      return d == "object" || d == "'O'" || d == "\"O\"" || d == "np.object_" || d == "numpy.object_";
    }
    case ArgTest::MessageNotClosureFree: {
      TSNode msg = a.pos.size() >= 2 ? a.pos[1] : a.keyword("message");
      if (ts_node_is_null(msg)) return false;
      msg = strip_parens(msg);
      if (type_of(msg) == "lambda") return names_local(field(msg, "body"), ctx, 0);
      // A function defined in this one: accepted unless its body names this one's locals.
      if (type_of(msg) == "identifier") {
        Val v = eval(msg, ctx, 0);
        if (v.is(K::Func) && cur() && v.text.starts_with(cur()->qualname + "."))
          if (int fi = def_index(v.text); fi >= 0)
            return names_local(field(defs_[static_cast<size_t>(fi)].node, "body"), ctx, 0);
      }
      return true;
    }
    case ArgTest::FromInSplat: {
      TSNode al = field(call, "arguments");
      if (ts_node_is_null(al)) return false;
      for (TSNode c : named_children(al)) {
        if (type_of(c) != "dictionary_splat") continue;
        for (TSNode d : named_children(c))
          if (type_of(d) == "dictionary")
            for (TSNode pair : named_children(d))
              if (type_of(pair) == "pair" && string_literal(field(pair, "key")) == "from") return true;
      }
      return false;
    }
    case ArgTest::OutResized:
    case ArgTest::OutNonContiguous: {
      TSNode out = a.keyword("out");
      if (ts_node_is_null(out)) return false;
      std::string_view want = row.args == ArgTest::OutResized ? "empty" : "noncontig";
      Val v = eval(out, ctx, 0);
      if (v.is(K::Tensor)) return v.text == want;
      // A tuple of non-contiguous outs is measured to compile (GB0241 is not raised on torch 2.11).
      if (v.is(K::List) && row.args == ArgTest::OutResized)
        for (const Val& e : v.items)
          if (e.is(K::Tensor) && e.text == want) return true;
      return false;
    }
    case ArgTest::GraphBreakCallback:
      return !a.pos.empty() && txt(a.pos[0]).find("graph_break(") != std::string_view::npos;
  }
  return false;
}

}  // namespace cudalint::python::gb::detail
