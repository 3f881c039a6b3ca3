// Static Python evaluation: values (bounded containers, merging across control-flow paths,
// truthiness) and scopes.
#include <algorithm>
#include <utility>

#include "analyzer/frontends/python/py_eval_internal.h"

namespace cudalint::python {

using namespace detail;

namespace detail {

std::string_view last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

}  // namespace detail

namespace {

bool same_value(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.flag != b.flag || a.number != b.number || a.text != b.text ||
      a.items.size() != b.items.size() || a.keys != b.keys || a.complete != b.complete)
    return false;
  if (a.kind == K::Func) return a.node.id == b.node.id;
  if (a.kind == K::Unknown) return false;  // two unknowns need not be the same value
  for (size_t i = 0; i < a.items.size(); ++i)  // depth is bounded by kMaxNest
    if (!same_value(a.items[i], b.items[i])) return false;
  return true;
}

// Union of two sequences: exact when one extends the other (the usual `append` under an `if`),
// otherwise the first followed by the second's items it lacks.
Value union_of(const Value& a, const Value& b) {
  auto is_prefix = [](const Value& p, const Value& whole) {
    if (p.items.size() > whole.items.size()) return false;
    for (size_t i = 0; i < p.items.size(); ++i)
      if (!same_value(p.items[i], whole.items[i])) return false;
    return true;
  };
  Value r;
  if (is_prefix(b, a)) {
    r = a;
  } else if (is_prefix(a, b)) {
    r = b;
  } else {
    r = a;
    // The lookup is quadratic; past this size b's extra items are dropped (r is incomplete anyway).
    if (a.items.size() * b.items.size() <= (1u << 20))
      for (const Value& x : b.items) {
        bool seen = std::any_of(a.items.begin(), a.items.end(), [&](const Value& y) { return same_value(x, y); });
        if (!seen && !r.push(x)) break;
      }
  }
  r.complete = false;
  return r;
}

bool is_extension_path(std::string_view p) {
  std::string_view l = last_component(p);
  return l == "CUDAExtension" || l == "CppExtension";
}

}  // namespace

std::optional<Value> cuda_torch_value(std::string_view path, Span sp) {
  if (path == "torch.version.hip") return Value::none(sp);
  if (path == "torch.utils.cpp_extension.IS_HIP_EXTENSION") return Value::boolean(false, sp);
  return std::nullopt;
}

std::optional<bool> truth(const Value& v) {
  switch (v.kind) {
    case K::None: return false;
    case K::Bool: return v.flag;
    case K::Int: return v.number != 0;
    case K::Str: return !v.text.empty();
    case K::List:
    case K::Tuple:
    case K::Dict:
      if (!v.items.empty()) return true;
      if (v.complete) return false;
      return std::nullopt;
    case K::Func:
    case K::Class: return true;
    case K::Ref:
      if (auto fixed = cuda_torch_value(v.text, v.span)) return truth(*fixed);
      return std::nullopt;  // a module attribute may be None
    default: return std::nullopt;  // Unknown
  }
}

Value Value::unknown(Span s) {
  Value v;
  v.span = s;
  return v;
}
Value Value::none(Span s) {
  Value v;
  v.kind = K::None;
  v.span = s;
  return v;
}
Value Value::boolean(bool b, Span s) {
  Value v;
  v.kind = K::Bool;
  v.flag = b;
  v.span = s;
  return v;
}
Value Value::integer(int64_t n, Span s) {
  Value v;
  v.kind = K::Int;
  v.number = n;
  v.span = s;
  return v;
}
Value Value::string(std::string s, Span sp) {
  Value v;
  if (s.size() > kMaxStrBytes) {
    v.span = sp;
    return v;  // unknown: nothing a linter checks is this long
  }
  v.kind = K::Str;
  v.text = std::move(s);
  v.span = sp;
  return v;
}
Value Value::seq(Kind k, Span s) {
  Value v;
  v.kind = k;
  v.depth = 1;
  v.span = s;
  return v;
}
Value Value::dict(Span s) { return seq(K::Dict, s); }
Value Value::ref(std::string path, Span s) {
  Value v;
  v.kind = K::Ref;
  v.text = std::move(path);
  v.span = s;
  return v;
}

const Value* Value::find(std::string_view key) const {
  if (kind != K::Dict) return nullptr;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

Value* Value::find(std::string_view key) { return const_cast<Value*>(std::as_const(*this).find(key)); }

bool Value::push(Value v) {
  if (v.depth + 1 > kMaxNest || weight + v.weight > kMaxWeight) {
    complete = false;
    return false;
  }
  depth = std::max<uint8_t>(depth, static_cast<uint8_t>(v.depth + 1));
  weight += v.weight;
  items.push_back(std::move(v));
  return true;
}

bool Value::put(std::string key, Value v) {
  // Dict lookups are linear, so dicts stay small.
  constexpr size_t kMaxKeys = 4096;
  if (Value* old = find(key)) {
    if (v.depth + 1 > kMaxNest || weight - old->weight + v.weight > kMaxWeight) {
      complete = false;
      return false;
    }
    weight = weight - old->weight + v.weight;
    depth = std::max<uint8_t>(depth, static_cast<uint8_t>(v.depth + 1));
    *old = std::move(v);
    return true;
  }
  if (keys.size() >= kMaxKeys) {
    complete = false;
    return false;
  }
  if (!push(std::move(v))) return false;
  keys.push_back(std::move(key));
  return true;
}

void Value::recompute() {
  if (kind != K::List && kind != K::Tuple && kind != K::Dict) return;
  uint32_t w = 1;
  uint8_t d = 1;
  for (const Value& x : items) {
    w += x.weight;
    d = std::max<uint8_t>(d, static_cast<uint8_t>(x.depth + 1));
  }
  weight = w;
  depth = d;
}

Value merge(const Value& a, const Value& b) {
  if (a.is_seq() && b.kind == a.kind) return union_of(a, b);
  if (a.is_seq() && (b.is(K::Unknown) || b.is(K::Ref))) {
    Value r = a;
    r.complete = false;
    return r;
  }
  if (b.is_seq() && (a.is(K::Unknown) || a.is(K::Ref))) {
    Value r = b;
    r.complete = false;
    return r;
  }
  if (a.is(K::Dict) && b.is(K::Dict)) {
    Value r = a;
    for (size_t i = 0; i < b.keys.size(); ++i) {
      if (Value* e = r.find(b.keys[i])) *e = merge(*e, b.items[i]);
      else r.put(b.keys[i], b.items[i]);
    }
    r.recompute();
    r.complete = false;
    return r;
  }
  if (a.kind != b.kind) {
    // `try: import X / except ImportError: X = None`: the name that matters is the module's.
    if (a.is_code() && b.is(K::None)) return a;
    if (b.is_code() && a.is(K::None)) return b;
    return Value::unknown(a.span);
  }
  switch (a.kind) {
    case K::Ref:
      if (a.text == b.text) return a;
      // `ext = CppExtension` then `if cuda: ext = CUDAExtension`: the call may build CUDA code, and
      // CUDAExtension's checks are a superset of CppExtension's.
      if (is_extension_path(a.text) && is_extension_path(b.text))
        return last_component(a.text) == "CUDAExtension" ? a : b;
      // CUDAExtension or another vendor's class (torch_npu's, torch_musa's): the call builds CUDA
      // code only on one path, so the class is kept, marked as not certain.
      if (last_component(a.text) == "CUDAExtension" || last_component(b.text) == "CUDAExtension") {
        Value r = last_component(a.text) == "CUDAExtension" ? a : b;
        r.complete = false;
        return r;
      }
      return Value::unknown(a.span);
    case K::Func: return a.node.id == b.node.id ? a : Value::unknown(a.span);
    case K::Unknown: return a;
    default: return same_value(a, b) ? a : Value::unknown(a.span);
  }
}

Value* Scope::local(std::string_view name) {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : &it->second;
}

const Value* Scope::find(std::string_view name) const {
  for (const Scope* s = this; s; s = s->parent_) {
    auto it = s->vars_.find(name);
    if (it != s->vars_.end()) return &it->second;
  }
  return nullptr;
}

Value& Scope::bind(std::string_view name, Value v) {
  auto it = vars_.find(name);
  if (it != vars_.end()) {
    it->second = std::move(v);
    return it->second;
  }
  return vars_.emplace(std::string(name), std::move(v)).first->second;
}

}  // namespace cudalint::python
