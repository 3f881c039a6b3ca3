// Static Python evaluation: call arguments, calls of known paths (os.path.join, str, list, tuple,
// dict), string/dict/list methods, and helper functions defined in the file.
#include <algorithm>
#include <vector>

#include "analyzer/frontends/python/py_eval_internal.h"

namespace cudalint::python {

using namespace detail;

namespace {

// posixpath.join: an absolute part restarts the path.
std::string join_path(const std::vector<std::string_view>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view p = parts[i];
    if (i == 0 || p.starts_with('/')) out = std::string(p);
    else if (out.empty() || out.ends_with('/')) out += p;
    else { out += '/'; out += p; }
  }
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

const Arg* Args::positional(size_t i) const {
  for (const Arg& a : items)
    if (a.keyword.empty() && i-- == 0) return &a;
  return nullptr;
}

const Arg* Args::keyword(std::string_view name) const {
  for (const Arg& a : items)
    if (a.keyword == name) return &a;
  return nullptr;
}

Args Interpreter::eval_args(TSNode arglist, Scope& scope) {
  Args out;
  bool positions_known = true;  // false after a `*seq` of unknown length
  for_each_named(arglist, [&](TSNode c) {
    std::string_view t = type_of(c);
    if (t == "keyword_argument") {
      TSNode v = field(c, "value");
      out.items.push_back({std::string(text(field(c, "name"))), eval(v, scope), v, span_of(v)});
    } else if (t == "list_splat" || t == "dictionary_splat") {
      auto kids = named_children(c);
      Value v = kids.empty() ? Value::unknown() : eval(kids[0], scope);
      if (t == "list_splat" && v.is_seq() && v.complete && positions_known) {
        for (Value& x : v.items) out.items.push_back({"", std::move(x), TSNode{}, span_of(c)});
      } else if (t == "dictionary_splat" && v.is(K::Dict)) {
        for (size_t i = 0; i < v.keys.size(); ++i)
          out.items.push_back({v.keys[i], std::move(v.items[i]), TSNode{}, span_of(c)});
        if (!v.complete) out.unknown_rest = true;
      } else {
        out.unknown_rest = true;
        if (t == "list_splat") positions_known = false;
      }
    } else if (positions_known) {
      out.items.push_back({"", eval(c, scope), c, span_of(c)});
    }
    if (exhausted()) out.unknown_rest = true;  // the arguments left are not evaluated
    return !exhausted();
  });
  return out;
}

Value Interpreter::eval_call(TSNode n, Scope& scope) {
  Span sp = span_of(n);
  TSNode fn = field(n, "function");
  if (type_of(field(n, "arguments")) != "argument_list") return Value::unknown(sp);
  if (auto path = path_of(fn, scope)) return call_path(*path, n, scope);
  if (type_of(fn) == "attribute") {
    Value recv = eval(field(fn, "object"), scope);
    return call_method(recv, text(field(fn, "attribute")), n, scope);
  }
  Value callee = eval(fn, scope);
  if (callee.is(K::Func)) return call_function(callee.node, eval_args(field(n, "arguments"), scope), sp);
  return Value::unknown(sp);
}

Value Interpreter::call_path(const std::string& path, TSNode call, Scope& scope) {
  Span sp = span_of(call);
  std::string_view last = last_component(path);
  if (last == "with_options" && path.size() > last.size()) {
    // torch's BuildExtension.with_options(...) returns a subclass of its receiver.
    Value c;
    c.kind = K::Class;
    c.text = path;
    c.keys.push_back(path.substr(0, path.size() - last.size() - 1));
    c.span = sp;
    return c;
  }
  bool handled = false;
  Value b = call_builtin(path, call, scope, handled);
  if (handled) return b;
  static constexpr std::string_view kKnown[] = {"os.path.join", "posixpath.join", "str", "list", "tuple", "dict"};
  if (std::find(std::begin(kKnown), std::end(kKnown), path) == std::end(kKnown))
    return Value::unknown(sp);  // glob.glob, os.getenv, subprocess, ...: runtime values
  Args a = eval_args(field(call, "arguments"), scope);
  if (a.unknown_rest) return Value::unknown(sp);
  bool only_positional = std::all_of(a.items.begin(), a.items.end(), [](const Arg& x) { return x.keyword.empty(); });
  if (path == "os.path.join" || path == "posixpath.join") {
    std::vector<std::string_view> parts;
    for (const Arg& x : a.items) {
      if (!x.keyword.empty() || !x.value.is(K::Str)) return Value::unknown(sp);
      parts.push_back(x.value.text);
    }
    if (parts.empty()) return Value::unknown(sp);
    return Value::string(join_path(parts), sp);
  }
  if (path == "str") {
    if (a.items.size() != 1 || !only_positional) return Value::unknown(sp);
    const Value& v = a.items[0].value;
    if (v.is(K::Str)) return v;
    if (v.is(K::Int)) return Value::string(std::to_string(v.number), sp);
    return Value::unknown(sp);
  }
  if (path == "list" || path == "tuple") {
    K k = path == "list" ? K::List : K::Tuple;
    if (a.items.empty()) return Value::seq(k, sp);
    if (a.items.size() != 1 || !only_positional || !a.items[0].value.is_seq()) return Value::unknown(sp);
    Value r = a.items[0].value;
    r.kind = k;
    r.span = sp;
    return r;
  }
  // dict(mapping, **kw) / dict(key=value, ...)
  Value r = Value::dict(sp);
  for (Arg& x : a.items) {
    if (x.keyword.empty()) {
      if (&x != &a.items[0] || !x.value.is(K::Dict)) return Value::unknown(sp);
      r = std::move(x.value);
      r.span = sp;
    } else {
      r.put(x.keyword, std::move(x.value));
    }
  }
  return r;
}

Value Interpreter::call_method(const Value& recv, std::string_view method, TSNode call, Scope& scope) {
  Span sp = span_of(call);
  Args a = eval_args(field(call, "arguments"), scope);
  if (a.unknown_rest) return Value::unknown(sp);
  const Arg* a0 = a.positional(0);
  const Arg* a1 = a.positional(1);
  if (recv.is(K::Str)) {
    std::string_view s = recv.text;
    if ((method == "strip" || method == "lstrip" || method == "rstrip") && a.items.empty()) {
      size_t b = 0, e = s.size();
      if (method != "rstrip")
        while (b < e && is_space(s[b])) ++b;
      if (method != "lstrip")
        while (e > b && is_space(s[e - 1])) --e;
      return Value::string(std::string(s.substr(b, e - b)), recv.span);
    }
    if (method == "split" && (a.items.empty() || (a.items.size() == 1 && a0 && a0->value.is(K::Str) &&
                                                  !a0->value.text.empty()))) {
      // The pieces keep the span of the literal they were cut from.
      Value out = Value::seq(K::List, sp);
      if (a.items.empty()) {
        size_t i = 0;
        while (i < s.size()) {
          while (i < s.size() && is_space(s[i])) ++i;
          size_t b = i;
          while (i < s.size() && !is_space(s[i])) ++i;
          if (i > b && !out.push(Value::string(std::string(s.substr(b, i - b)), recv.span))) break;
        }
      } else {
        std::string_view sep = a0->value.text;
        size_t b = 0;
        for (;;) {
          size_t e = s.find(sep, b);
          if (!out.push(Value::string(std::string(s.substr(b, e == std::string_view::npos ? e : e - b)), recv.span)))
            break;
          if (e == std::string_view::npos) break;
          b = e + sep.size();
        }
      }
      return out;
    }
    if (method == "join" && a.items.size() == 1 && a0 && a0->value.is_seq() && a0->value.complete) {
      std::string out;
      for (size_t i = 0; i < a0->value.items.size(); ++i) {
        const Value& x = a0->value.items[i];
        if (!x.is(K::Str) || out.size() > kMaxStrBytes) return Value::unknown(sp);
        if (i) out += s;
        out += x.text;
      }
      return Value::string(std::move(out), sp);
    }
    if ((method == "decode" || method == "lower" || method == "upper") && a.items.size() <= 1) {
      if (method == "decode") return Value::string(std::string(s), recv.span);  // bytes of ASCII text
      std::string out(s);
      for (char& ch : out) ch = static_cast<char>(method == "lower" ? std::tolower(static_cast<unsigned char>(ch))
                                                                     : std::toupper(static_cast<unsigned char>(ch)));
      return Value::string(std::move(out), recv.span);
    }
    if (method == "isdigit" && a.items.empty())
      return Value::boolean(!s.empty() && std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; }), sp);
    if ((method == "startswith" || method == "endswith") && a.items.size() == 1 && a0 && a0->value.is(K::Str))
      return Value::boolean(method == "startswith" ? s.starts_with(a0->value.text) : s.ends_with(a0->value.text), sp);
    if (method == "replace" && a.items.size() == 2 && a0 && a1 && a0->value.is(K::Str) && a1->value.is(K::Str) &&
        !a0->value.text.empty()) {
      std::string out;
      size_t b = 0;
      for (size_t e; (e = s.find(a0->value.text, b)) != std::string_view::npos && out.size() <= kMaxStrBytes;
           b = e + a0->value.text.size())
        out.append(s.substr(b, e - b)).append(a1->value.text);
      out.append(s.substr(b));
      return Value::string(std::move(out), recv.span);
    }
    return Value::unknown(sp);
  }
  if (recv.is(K::Dict) && method == "get" && a0 && a0->value.is(K::Str) && a.items.size() <= 2) {
    if (const Value* e = recv.find(a0->value.text)) return *e;
    if (!recv.complete) return Value::unknown(sp);
    return a1 ? a1->value : Value::none(sp);
  }
  if ((recv.is(K::Dict) || recv.is(K::List)) && method == "copy" && a.items.empty()) return recv;
  if (recv.is_seq() && recv.complete && method == "index" && a.items.size() == 1 && a0) {
    const Value& want = a0->value;
    if (!want.is(K::Str) && !want.is(K::Int)) return Value::unknown(sp);
    for (size_t i = 0; i < recv.items.size(); ++i) {
      const Value& x = recv.items[i];
      if (!x.is(K::Str) && !x.is(K::Int)) return Value::unknown(sp);  // might be equal: not decided
      if (x.kind == want.kind && x.text == want.text && x.number == want.number)
        return Value::integer(static_cast<int64_t>(i), sp);
    }
    return Value::unknown(sp);  // a ValueError, or an element we could not compare
  }
  if (recv.is(K::Class) && method == "with_options") {
    Value c = recv;  // a subclass of recv: same bases
    c.text += ".with_options";
    c.span = sp;
    return c;
  }
  return Value::unknown(sp);
}

void Interpreter::bind_parameters(TSNode params, Scope& local, const Args* args, std::vector<std::string>* positional) {
  size_t pos = 0;
  bool keyword_only = false;
  for_each_named(params, [&](TSNode p) {
    std::string_view t = type_of(p);
    TSNode name_node{};
    TSNode default_value{};
    if (t == "identifier") {
      name_node = p;
    } else if (t == "default_parameter" || t == "typed_default_parameter") {
      name_node = field(p, "name");
      default_value = field(p, "value");
    } else if (t == "typed_parameter") {
      auto kids = named_children(p);
      if (kids.empty()) return true;
      if (type_of(kids[0]) == "identifier") {
        name_node = kids[0];
      } else {  // *args: T / **kw: T
        if (type_of(kids[0]) == "list_splat_pattern") keyword_only = true;
        for (TSNode id : named_children(kids[0])) local.bind(text(id), Value::unknown(span_of(p)));
        return true;
      }
    } else if (t == "list_splat_pattern" || t == "dictionary_splat_pattern") {
      if (t == "list_splat_pattern") keyword_only = true;
      for (TSNode id : named_children(p)) local.bind(text(id), Value::unknown(span_of(p)));
      return true;
    } else if (t == "keyword_separator") {
      keyword_only = true;
      return true;
    } else {
      return true;  // positional_separator, tuple parameters
    }
    if (type_of(name_node) != "identifier") return true;
    std::string_view name = text(name_node);
    if (positional && !keyword_only) positional->emplace_back(name);
    Value v = Value::unknown(span_of(p));
    if (args) {
      const Arg* a = keyword_only ? nullptr : args->positional(pos++);
      if (!a) a = args->keyword(name);
      if (a) v = a->value;
      else if (!ts_node_is_null(default_value) && !args->unknown_rest) v = eval(default_value, module_);
    }
    local.bind(name, std::move(v));
    return true;
  });
}

Value Interpreter::call_function(TSNode def, const Args& args, Span call_span,
                                 std::vector<std::optional<Value>>* params_out) {
  if (calls_ >= kMaxCalls || exhausted()) return Value::unknown(call_span);
  Guard g(*this);
  if (!g.ok()) return Value::unknown(call_span);
  // An outermost call gets a share of the budget, so helpers calling helpers (exponential in
  // the nesting) cannot starve the rest of the file.
  int64_t saved_floor = floor_;
  if (calls_ == 0) floor_ = std::max(floor_, budget_ - kCallBudget);
  ++calls_;
  Scope local(&module_);
  std::vector<std::string> positional;
  bind_parameters(field(def, "parameters"), local, &args, &positional);
  Frame f;
  f.scope = &local;
  f.function = true;
  exec_block(field(def, "body"), f, false);
  --calls_;
  floor_ = saved_floor;
  if (params_out) {
    params_out->assign(positional.size(), std::nullopt);
    for (size_t i = 0; i < positional.size(); ++i)
      if (std::find(f.rebound.begin(), f.rebound.end(), positional[i]) == f.rebound.end())
        if (const Value* v = local.find(positional[i])) (*params_out)[i] = *v;
  }
  if (f.ret) return std::move(*f.ret);
  return Value::none(call_span);
}

}  // namespace cudalint::python
