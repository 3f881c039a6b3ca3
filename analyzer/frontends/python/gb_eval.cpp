// Graph-break summaries: the abstract evaluator. What a name or an expression denotes, as far as
// one file can tell (a Val): imports and definitions, `self` attributes, containers of modules,
// tensors and the Python scalars taken out of them; and what torch calls and tensor methods give.
#include <string>
#include <string_view>

#include "analyzer/frontends/python/gb_summarizer.h"

namespace cudalint::python::gb::detail {

namespace {

// Tensor methods whose result is not a tensor.
bool non_tensor_method(std::string_view m) {
  return contains({"item", "tolist", "size", "dim", "numel", "nelement", "ndimension", "stride", "storage_offset",
                   "data_ptr", "element_size", "is_contiguous", "is_floating_point", "is_complex", "get_device",
                   "type", "untyped_storage", "storage", "equal", "allclose", "is_nonzero", "is_same_size",
                   "backward", "register_hook", "is_inference", "has_names", "is_set_to", "is_pinned",
                   "is_shared", "is_signed", "dim_order", "__len__", "numpy", "tolist", "retain_grad",
                   "requires_grad_", "share_memory_", "record_stream", "untyped_storage"},
                  m);
}

bool bool_tensor_method(std::string_view m) {
  return contains({"eq", "ne", "gt", "lt", "ge", "le", "logical_and", "logical_or", "logical_not", "isnan",
                   "isinf", "isfinite", "bool", "any", "all", "isclose", "isneginf", "isposinf"},
                  m);
}

// torch functions (by last component) whose result is not a tensor.
bool torch_non_tensor_fn(std::string_view last) {
  return contains({"is_tensor", "is_storage", "is_floating_point", "is_complex", "is_nonzero", "numel",
                   "is_grad_enabled", "is_inference_mode_enabled", "get_default_dtype", "get_default_device",
                   "equal", "allclose", "manual_seed", "seed", "initial_seed", "set_grad_enabled", "no_grad",
                   "enable_grad", "inference_mode", "autocast", "compile", "device", "dtype", "finfo", "iinfo",
                   "broadcast_shapes", "result_type", "can_cast", "promote_types", "is_autocast_enabled",
                   "set_default_dtype", "use_deterministic_algorithms", "get_num_threads", "set_num_threads",
                   "save", "load", "typename", "is_same_size", "set_printoptions", "get_rng_state",
                   "set_rng_state", "cond", "_check", "_assert"},
                  last);
}

}  // namespace

// Methods that only tensors (or NumPy arrays, which Dynamo traces as tensors) have: a receiver
// of unknown type that calls them is a tensor.
bool tensor_only_method(std::string_view m) {
  return contains({"sum", "mean", "max", "min", "any", "all", "norm", "amax", "amin", "prod", "std", "var",
                   "argmax", "argmin", "abs", "float", "half", "bfloat16", "double", "long", "clamp", "clip",
                   "exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "softmax", "log_softmax", "matmul",
                   "mm", "bmm", "view", "reshape", "flatten", "permute", "transpose", "contiguous", "squeeze",
                   "unsqueeze", "expand", "expand_as", "detach", "clone", "cpu", "cuda", "type_as", "masked_fill",
                   "isnan", "isinf", "isfinite", "round", "floor", "ceil", "sign", "neg", "square", "pow",
                   "cumsum", "cumprod", "topk", "gather", "scatter", "index_select", "narrow", "t", "eq", "ne",
                   "gt", "lt", "ge", "le", "logical_and", "logical_or", "logical_not", "bool", "int",
                   "nonzero", "masked_select", "unique", "new_zeros", "new_ones", "new_empty", "new_full",
                   "view_as", "reshape_as", "numel", "dim", "mul", "add", "sub", "div", "item", "tolist", "numpy"},
                  m);
}

// The Val of a call to a torch function, by its path; nullopt when not a tensor-returning one.
std::optional<Val> torch_call_result(std::string_view p) {
  auto under = [&](std::string_view ns) { return p.size() > ns.size() && p.starts_with(ns) && p[ns.size()] == '.'; };
  std::string_view last = p.substr(p.rfind('.') + 1);
  if (last.empty() || !(last[0] >= 'a' && last[0] <= 'z')) return std::nullopt;
  bool ns_ok = false;
  if (under("torch.nn.functional") || under("torch.linalg") || under("torch.fft") || under("torch.special") ||
      under("torch.ops"))
    ns_ok = true;
  else if (under("torch") && p.find('.', 6) == std::string_view::npos)  // torch.<fn> directly
    ns_ok = true;
  if (!ns_ok || torch_non_tensor_fn(last)) return std::nullopt;
  Val v = Val::of(K::Tensor);
  v.flag = bool_tensor_method(last);
  return v;
}

Val Summarizer::lookup(std::string_view name, const FnContext& ctx) const {
  if (ctx.scope)
    if (const Val* v = ctx.scope->find(name)) return *v;
  if (auto it = out_.globals.find(std::string(name)); it != out_.globals.end()) {
    const Val& g = it->second;
    // Imports and definitions are used directly; variables by name (resolved later).
    if (g.is(K::Path) || g.is(K::Func) || g.is(K::Class)) return g;
    return g;
  }
  static constexpr std::array kBuiltins{"print", "open", "eval", "exec", "globals", "locals", "input", "breakpoint",
                                        "int", "float", "bool", "str", "repr", "len", "range", "super", "dict",
                                        "list", "tuple", "isinstance", "getattr", "setattr", "hasattr", "id",
                                        "staticmethod", "classmethod", "property", "sorted", "sum", "max", "min",
                                        "any", "all", "abs", "format", "type", "object", "enumerate", "zip",
                                        "map", "filter", "iter", "next", "vars", "set", "frozenset", "hash",
                                        "slice", "BaseException", "Exception", "ArithmeticError", "AssertionError",
                                        "AttributeError", "ImportError", "IndexError", "KeyError", "LookupError",
                                        "ModuleNotFoundError", "NameError", "NotImplementedError", "OSError",
                                        "RuntimeError", "StopIteration", "TypeError", "ValueError",
                                        "ZeroDivisionError"};
  for (std::string_view b : kBuiltins)
    if (b == name) return Val::of(K::Path, "builtins." + std::string(name));
  return Val::of(K::Path, ":" + std::string(name));
}

Val Summarizer::annotation(TSNode type, const FnContext& ctx) {
  std::string t;
  for (char c : txt(type))
    if (c != '"' && c != '\'' && c != ' ') t += c;
  if (t.find("Tensor") != std::string::npos) {
    for (std::string_view bad : {"List", "list", "Tuple", "tuple", "Sequence", "Dict", "dict", "Iterable",
                                 "Callable", "Iterator", "Generator", "Mapping", "Set"})
      if (t.find(bad) != std::string::npos) return {};
    // A union with a non-tensor alternative (`int | torch.Tensor`, `Union[float, Tensor]`) may
    // well be called with the other type: not known to be a tensor. `Optional[Tensor]` and
    // `Tensor | None` still are.
    std::string_view body = t;
    for (std::string_view pre : {"typing.Union[", "Union["})
      if (body.starts_with(pre) && body.ends_with("]")) {
        body = body.substr(pre.size(), body.size() - pre.size() - 1);
        break;
      }
    std::vector<std::string_view> alts;
    int nest = 0;
    size_t from = 0;
    for (size_t i = 0; i <= body.size(); ++i) {
      char c = i < body.size() ? body[i] : '|';
      if (c == '[') ++nest;
      else if (c == ']') --nest;
      else if (nest == 0 && (c == '|' || c == ',')) {
        alts.push_back(body.substr(from, i - from));
        from = i + 1;
      }
    }
    if (alts.size() > 1)
      for (std::string_view alt : alts)
        if (alt.find("Tensor") == std::string_view::npos && alt != "None" && alt != "NoneType") return {};
    return Val::of(K::Tensor);
  }
  TSNode inner = type;
  if (named_children(type).size() == 1) inner = named_children(type)[0];
  // `Cls | None` and `Optional[Cls]`: the class (an attribute declared empty and set later).
  auto unwrap_type = [&](TSNode t) {
    while (type_of(t) == "type" && named_children(t).size() == 1) t = named_children(t)[0];
    return t;
  };
  inner = unwrap_type(inner);
  if ((type_of(inner) == "binary_operator" && txt(field(inner, "operator")) == "|") ||
      type_of(inner) == "union_type") {
    auto kids = named_children(inner);
    if (kids.size() == 2) {
      if (txt(kids[1]) == "None") inner = unwrap_type(kids[0]);
      else if (txt(kids[0]) == "None") inner = unwrap_type(kids[1]);
    }
  } else if (type_of(inner) == "subscript" || type_of(inner) == "generic_type") {
    auto kids = named_children(inner);
    std::string_view head = kids.empty() ? std::string_view{} : txt(kids[0]);
    if ((head == "Optional" || head == "typing.Optional") && kids.size() == 2) {
      TSNode arg = kids[1];
      if (type_of(arg) == "type_parameter" && named_children(arg).size() == 1) arg = named_children(arg)[0];
      inner = unwrap_type(arg);
    }
  }
  Val v = eval(inner, ctx, 0);
  if (v.is(K::Class) || (v.is(K::Path) && !v.text.starts_with("builtins.") && !v.text.starts_with("typing.")))
    return Val::wrap(K::Instance, v);
  return {};
}

Val Summarizer::eval(TSNode n, const FnContext& ctx, int depth) {
  if (ts_node_is_null(n) || depth > kMaxDepth || !spend()) return {};
  std::string_view t = type_of(n);
  if (t == "identifier") {
    std::string_view name = txt(n);
    if (!ctx.self_name.empty() && name == ctx.self_name && ctx.cls >= 0) return Val::of(K::Self);
    return lookup(name, ctx);
  }
  if (t == "parenthesized_expression") {
    auto kids = named_children(n);
    return kids.size() == 1 ? eval(kids[0], ctx, depth + 1) : Val{};
  }
  if (t == "attribute") {
    Val base = eval(field(n, "object"), ctx, depth + 1);
    std::string attr(txt(field(n, "attribute")));
    return attribute(std::move(base), attr);
  }
  if (t == "call") return eval_call(n, ctx, depth);
  if (t == "subscript") {
    Val base = eval(field(n, "value"), ctx, depth + 1);
    if (base.is(K::Tensor)) return Val::of(K::Tensor);
    if (base.is(K::Unknown) || base.is(K::Scalar)) return {};
    TSNode sub = field(n, "subscript");
    std::string key = string_literal(sub);
    if (key.empty() && type_of(sub) == "integer") key = std::string(txt(sub));
    if (base.is(K::Path)) return {};
    return Val::wrap(K::Item, std::move(base), key);
  }
  if (t == "list" || t == "tuple" || t == "expression_list") {
    Val v = Val::of(K::List);
    for (TSNode c : named_children(n)) {
      if (v.items.size() >= kMaxItems) break;
      v.items.push_back(eval(c, ctx, depth + 1));
    }
    return limit(std::move(v));
  }
  if (t == "set") {  // kept apart from lists: Dynamo cannot wrap a global set of tensors
    Val v = Val::of(K::List, "set");
    for (TSNode c : named_children(n)) {
      if (v.items.size() >= kMaxItems) break;
      v.items.push_back(eval(c, ctx, depth + 1));
    }
    return limit(std::move(v));
  }
  if (t == "list_comprehension" || t == "generator_expression") {
    Scope inner{{}, ctx.scope};
    FnContext c2 = ctx;
    c2.scope = &inner;
    for (TSNode c : named_children(n))
      if (type_of(c) == "for_in_clause") bind_for(c, c2, depth + 1);
    Val v = Val::of(K::List);
    v.items.push_back(eval(field(n, "body"), c2, depth + 1));
    return limit(std::move(v));
  }
  if (t == "dictionary") {
    Val v = Val::of(K::Dict);
    for (TSNode c : named_children(n)) {
      if (type_of(c) != "pair" || v.items.size() >= kMaxItems) continue;
      std::string key = string_literal(field(c, "key"));
      if (key.empty()) continue;
      v.keys.push_back(key);
      v.items.push_back(eval(field(c, "value"), ctx, depth + 1));
    }
    return limit(std::move(v));
  }
  if (t == "binary_operator") {
    Val a = eval(field(n, "left"), ctx, depth + 1);
    Val b = eval(field(n, "right"), ctx, depth + 1);
    if (a.is(K::Tensor) || b.is(K::Tensor)) {
      Val r = Val::of(K::Tensor);
      std::string_view op = txt(field(n, "operator"));
      r.flag = (op == "&" || op == "|" || op == "^") && (a.flag || b.flag);
      return r;
    }
    if (a.is(K::Scalar) || b.is(K::Scalar)) return Val::of(K::Scalar);
    // Arithmetic on values of unknown type: a tensor or a number, never an object Dynamo can
    // take the id of or give `.data` (kArith; strings and containers are left out).
    std::string_view op = txt(field(n, "operator"));
    auto plain = [&](TSNode side) {
      std::string_view st = type_of(strip_parens(side));
      return st != "string" && st != "concatenated_string" && st != "list" && st != "tuple" &&
             st != "list_comprehension" && st != "dictionary" && st != "set";
    };
    if (a.is(K::Unknown) && b.is(K::Unknown) && contains({"+", "-", "*", "/", "//", "%", "**", "@"}, op) &&
        plain(field(n, "left")) && plain(field(n, "right")))
      return Val::of(K::Unknown, std::string(kArith));
    return {};
  }
  if (t == "comparison_operator") {
    std::string_view s = txt(n);
    (void)s;
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
      std::string_view op = type_of(ts_node_child(n, i));
      if (op == "is" || op == "in" || op == "not" || op == "is not" || op == "not in") return {};
    }
    bool tensor = false, scalar = false;
    for (TSNode c : named_children(n)) {
      Val v = eval(c, ctx, depth + 1);
      tensor |= v.is(K::Tensor);
      scalar |= v.is(K::Scalar);
    }
    if (tensor) {
      Val r = Val::of(K::Tensor);
      r.flag = true;
      return r;
    }
    return scalar ? Val::of(K::Scalar) : Val{};
  }
  if (t == "unary_operator") {
    Val v = eval(field(n, "argument"), ctx, depth + 1);
    if (v.is(K::Tensor) || v.is(K::Scalar)) return v;
    return {};
  }
  if (t == "conditional_expression") {
    auto kids = named_children(n);
    if (kids.size() == 3) {
      Val a = eval(kids[0], ctx, depth + 1);
      Val b = eval(kids[2], ctx, depth + 1);
      if (a.kind == b.kind && a.text == b.text) return a;
    }
    return {};
  }
  if (t == "await") {
    auto kids = named_children(n);
    return kids.empty() ? Val{} : eval(kids[0], ctx, depth + 1);
  }
  return {};
}

Val Summarizer::limit(Val v) {
  if (val_depth(v) > kMaxValDepth) return {};
  return v;
}

Val Summarizer::attribute(Val base, const std::string& attr) {
  switch (base.kind) {
    case K::Path: return Val::of(K::Path, base.text + "." + attr);
    case K::Self: return Val::of(K::Self, base.text.empty() ? attr : base.text + "." + attr);
    case K::Tensor:
      if (contains({"T", "mT", "H", "mH"}, attr)) return Val::of(K::Tensor, "noncontig");
      if (contains({"data", "grad", "real", "imag"}, attr)) return Val::of(K::Tensor);
      return {};
    case K::Attr: {
      Val inner = std::move(base.items[0]);
      return Val::wrap(K::Attr, std::move(inner), base.text + "." + attr);
    }
    case K::Func:
    case K::Class:
    case K::Instance:
    case K::Item:
    case K::Elem:
    case K::Super:
    case K::List:
    case K::Dict:
    case K::Scripted:
      if (val_depth(base) >= kMaxValDepth) return {};
      return Val::wrap(K::Attr, std::move(base), attr);
    default: return {};
  }
}

Val Summarizer::eval_call(TSNode n, const FnContext& ctx, int depth) {
  TSNode fn = field(n, "function");
  Val callee = eval(fn, ctx, depth + 1);
  ArgsView a = args_of(n);
  auto arg0 = [&]() -> Val { return a.pos.empty() ? Val{} : eval(a.pos[0], ctx, depth + 1); };
  if (callee.is(K::Path)) {
    const std::string& p = callee.text;
    if (p == "torch.compile") return arg0();
    if (p == "torch._dynamo.optimize") return Val::of(K::Path, "torch._dynamo.optimize()");
    if (p == "torch._dynamo.optimize()") return arg0();
    if (p == "torch.jit.script" || p == "torch.jit.trace" || p == "torch.jit.trace_module")
      return a.pos.empty() ? Val{} : Val::wrap(K::Scripted, arg0());
    if (p == "torch.compiler.disable" || p == "torch._dynamo.disable") {
      if (a.pos.empty()) return Val::of(K::Path, p + "()");
      return Val::wrap(K::Disabled, arg0());
    }
    if (p == "torch.compiler.disable()" || p == "torch._dynamo.disable()") return Val::wrap(K::Disabled, arg0());
    if (p == "torch.nn.ModuleList" || p == "torch.nn.modules.container.ModuleList") {
      Val l = arg0();
      return l.is(K::List) ? l : Val::of(K::List);
    }
    if (p == "torch.nn.Sequential" || p == "torch.nn.modules.container.Sequential") {
      Val l = Val::of(K::List);
      for (TSNode c : a.pos) {
        if (l.items.size() >= kMaxItems) break;
        Val e = eval(c, ctx, depth + 1);
        if (e.is(K::Dict)) {  // Sequential(OrderedDict(...)) / Sequential(dict)
          for (auto& it : e.items) l.items.push_back(std::move(it));
        } else {
          l.items.push_back(std::move(e));
        }
      }
      return limit(std::move(l));
    }
    if (p == "torch.nn.ModuleDict" || p == "torch.nn.modules.container.ModuleDict") {
      Val d = arg0();
      return d.is(K::Dict) ? d : Val::of(K::Dict);
    }
    if (p == "builtins.dict" || p == "collections.OrderedDict") {
      Val d = Val::of(K::Dict);
      if (!a.pos.empty()) {
        Val first = arg0();
        if (first.is(K::Dict)) d = std::move(first);
      }
      for (const auto& [k, v] : a.kw) {
        if (d.items.size() >= kMaxItems) break;
        d.keys.push_back(k);
        d.items.push_back(eval(v, ctx, depth + 1));
      }
      if (p == "collections.OrderedDict") d.text = p;  // Dynamo tracks its attributes apart
      return limit(std::move(d));
    }
    if (p == "builtins.list" || p == "builtins.tuple") {
      Val l = arg0();
      return l.is(K::List) ? l : Val{};
    }
    if (p == "torch.nn.parallel.DistributedDataParallel" || p == "torch.nn.DataParallel" ||
        p == "torch.nn.parallel.DataParallel" || p == "torch.distributed.fsdp.FullyShardedDataParallel")
      return arg0();
    if (p == "builtins.super") return Val::of(K::Super);
    if (p == "builtins.slice") return Val::wrap(K::Instance, callee);
    if (p == "torch.nn.Parameter" || p == "torch.nn.parameter.Parameter" || p == "torch.Tensor" ||
        p == "torch.nn.Buffer")
      return Val::of(K::Tensor);
    if (p == "logging.getLogger" || p == "logging.Logger" || p == "logging.LoggerAdapter")
      return Val::wrap(K::Instance, Val::of(K::Path, "logging.getLogger"));
    if (p == "builtins.int" || p == "builtins.float" || p == "builtins.bool") {
      Val x = arg0();
      return x.is(K::Tensor) || x.is(K::Scalar) ? Val::of(K::Scalar) : Val{};
    }
    if (auto r = torch_call_result(p)) {
      // An empty buffer (`torch.empty(0)`): an `out=` of it must be resized.
      if ((p == "torch.empty" || p == "torch.zeros" || p == "torch.ones") && a.pos.size() == 1 &&
          contains({"0", "(0,)", "[0]"}, dotted(a.pos[0])))
        r->text = "empty";
      return *r;
    }
    std::string_view last = std::string_view(p).substr(p.rfind('.') + 1);
    if (!last.empty() && last[0] >= 'A' && last[0] <= 'Z' && !p.starts_with("builtins."))
      return Val::wrap(K::Instance, callee);
    if (p.starts_with("torch.utils.cpp_extension.load")) return Val::wrap(K::Instance, callee);
    // A function of the project may be a factory (`build_model(cfg)`): the model follows
    // its returns; a library function's result stays unknown there.
    if (!p.starts_with("builtins.") && !p.starts_with("torch.")) return Val::wrap(K::Instance, callee);
    return {};
  }
  if (callee.is(K::Class) || callee.is(K::Func)) return Val::wrap(K::Instance, callee);
  // Method calls.
  if (type_of(fn) == "attribute") {
    std::string m(txt(field(fn, "attribute")));
    Val recv = eval(field(fn, "object"), ctx, depth + 1);
    if (recv.is(K::Tensor) || (recv.is(K::Unknown) && tensor_only_method(m))) {
      if (m == "item") return Val::of(K::Scalar);
      if (m == "numpy") return Val::of(K::Tensor, "ndarray");  // Dynamo traces NumPy arrays as tensors
      if (contains({"t", "transpose", "permute", "swapaxes", "swapdims"}, m) && !a.pos.empty() == (m != "t"))
        return Val::of(K::Tensor, "noncontig");
      if (non_tensor_method(m)) return {};
      Val r = Val::of(K::Tensor);
      r.flag = bool_tensor_method(m);
      return r;
    }
    if ((recv.is(K::Instance) || recv.is(K::Self)) &&
        contains({"to", "cuda", "cpu", "eval", "train", "half", "float", "bfloat16", "double",
                  "requires_grad_"},
                 m))
      return recv;
  }
  // Calling an nn module instance yields a tensor.
  Val target = resolve_local(callee, ctx);
  if (target.is(K::Instance) && !target.items.empty() && target.items[0].is(K::Path) &&
      target.items[0].text.starts_with("torch.nn.")) {
    std::string_view last = std::string_view(target.items[0].text).substr(target.items[0].text.rfind('.') + 1);
    if (!last.empty() && last[0] >= 'A' && last[0] <= 'Z') return Val::of(K::Tensor);
  }
  return {};
}

// Follows Self attribute chains and container elements within this file, as far as they go.
Val Summarizer::resolve_local(const Val& v, const FnContext& ctx, int depth) const {
  if (depth > 8) return {};
  if (v.is(K::Self) && ctx.cls >= 0 && !v.text.empty()) {
    const Class& c = out_.classes[static_cast<size_t>(ctx.cls)];
    std::string head = v.text.substr(0, v.text.find('.'));
    auto it = c.attrs.find(head);
    if (it == c.attrs.end()) return {};
    if (head.size() == v.text.size()) return resolve_local(it->second, ctx, depth + 1);
    Val a = Val::wrap(K::Attr, it->second, v.text.substr(head.size() + 1));
    return resolve_local(a, ctx, depth + 1);
  }
  if (v.is(K::Elem) && !v.items.empty()) {
    Val c = resolve_local(v.items[0], ctx, depth + 1);
    if (c.is(K::List) && !c.items.empty()) return resolve_local(c.items[0], ctx, depth + 1);
    return {};
  }
  if (v.is(K::Item) && !v.items.empty()) {
    Val c = resolve_local(v.items[0], ctx, depth + 1);
    if (c.is(K::Dict)) {
      for (size_t i = 0; i < c.keys.size(); ++i)
        if (c.keys[i] == v.text) return resolve_local(c.items[i], ctx, depth + 1);
      return {};
    }
    if (c.is(K::List) && !c.items.empty()) return resolve_local(c.items[0], ctx, depth + 1);
    return {};
  }
  if (v.is(K::Attr) && !v.items.empty()) {
    Val c = resolve_local(v.items[0], ctx, depth + 1);
    if (c.is(K::Dict)) {
      std::string head = v.text.substr(0, v.text.find('.'));
      for (size_t i = 0; i < c.keys.size(); ++i)
        if (c.keys[i] == head) {
          if (head.size() == v.text.size()) return resolve_local(c.items[i], ctx, depth + 1);
          return resolve_local(Val::wrap(K::Attr, c.items[i], v.text.substr(head.size() + 1)), ctx, depth + 1);
        }
    }
    return {};
  }
  return v;
}

void Summarizer::bind_for(TSNode clause, FnContext& ctx, int depth) {
  TSNode left = field(clause, "left");
  TSNode right = field(clause, "right");
  // `enumerate(xs)` / `zip(xs, ys)` / `reversed(xs)`: the loop variable is a tuple of elements.
  if (type_of(strip_parens(right)) == "call") {
    TSNode call = strip_parens(right);
    Val fn = eval(field(call, "function"), ctx, depth + 1);
    if (fn.is(K::Path) && (fn.text == "builtins.enumerate" || fn.text == "builtins.zip" ||
                           fn.text == ":reversed")) {
      ArgsView a = args_of(call);
      auto elem_of = [&](TSNode arg) {
        Val c = eval(arg, ctx, depth + 1);
        if (c.is(K::Tensor)) return Val::of(K::Tensor);
        if (c.is(K::List) || c.is(K::Self) || c.is(K::Attr) || c.is(K::Item) || c.is(K::Instance))
          return Val::wrap(K::Elem, c);
        return Val{};
      };
      Val e;
      if (!a.splat && !a.pos.empty()) {
        if (fn.text == ":reversed") {
          e = elem_of(a.pos[0]);
        } else if (fn.text == "builtins.enumerate") {
          e = Val::of(K::List);
          e.items.push_back(Val{});
          e.items.push_back(elem_of(a.pos[0]));
        } else {
          e = Val::of(K::List);
          for (TSNode c : a.pos) {
            if (e.items.size() >= kMaxItems) break;
            e.items.push_back(elem_of(c));
          }
        }
      }
      bind_target(left, e, ctx, false);
      return;
    }
  }
  Val it = eval(right, ctx, depth + 1);
  Val e;
  if (it.is(K::Tensor)) e = Val::of(K::Tensor);
  else if (it.is(K::List) || it.is(K::Self) || it.is(K::Attr) || it.is(K::Item) || it.is(K::Instance))
    e = Val::wrap(K::Elem, it);
  bind_target(left, e, ctx, false);
}

}  // namespace cudalint::python::gb::detail
