// Static Python evaluation: builtins and library calls whose answer is known without running
// anything (set, sorted, int, len, max/min, version parsing), comparisons, comprehensions, and
// the reads an EvalContext answers (environment variables, `nvcc -V`).
#include <algorithm>
#include <charconv>

#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python {

namespace {

using K = Value::Kind;

constexpr std::string_view kVersionTag = "\x01version";

std::string_view last_of(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

bool scalar_equal(const Value& a, const Value& b) {
  return a.kind == b.kind && (a.is(K::Str) || a.is(K::Int) || a.is(K::Bool) || a.is(K::None)) && a.text == b.text &&
         a.number == b.number && a.flag == b.flag;
}

bool is_scalar(const Value& v) { return v.is(K::Str) || v.is(K::Int) || v.is(K::Bool) || v.is(K::None); }

std::optional<int64_t> to_int(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// What `nvcc -V` prints for a release ("13.0"), in the lines scripts parse.
std::string nvcc_version_text(const std::string& release) {
  return "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\n"
         "Cuda compilation tools, release " + release + ", V" + release + ".0\nBuild cuda_" + release + ".r" +
         release + "/compiler.0_0\n";
}

// Whether `args` (a command list or string) runs `nvcc -V` / `nvcc --version`: a version flag,
// and a program that is nvcc or not known (CUDA_HOME + "/bin/nvcc" is not resolved).
bool runs_nvcc_version(const Value& args) {
  if (args.is(K::Str)) {
    const std::string& s = args.text;
    return s.find("nvcc") != std::string::npos && (s.ends_with(" -V") || s.ends_with(" --version"));
  }
  if (!args.is_seq() || args.items.size() < 2) return false;
  const Value& prog = args.items.front();
  if (prog.is(K::Str) && prog.text.find("nvcc") == std::string::npos) return false;
  if (!prog.is(K::Str) && !prog.is(K::Unknown)) return false;
  const Value& flag = args.items.back();
  return flag.is(K::Str) && (flag.text == "-V" || flag.text == "--version");
}

}  // namespace

Value version_value(std::string_view text, Span sp) {
  // The release part: leading dotted integers ("12.8", "2.5.0.dev2024+cu121" -> 2.5.0).
  Value v = Value::seq(K::Tuple, sp);
  size_t i = 0;
  while (i < text.size()) {
    size_t b = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == b) break;
    auto n = to_int(text.substr(b, i - b));
    if (!n) return Value::unknown(sp);
    v.push(Value::integer(*n, sp));
    if (i < text.size() && text[i] == '.') ++i;
    else break;
  }
  if (v.items.empty()) return Value::unknown(sp);
  while (v.items.size() > 1 && v.items.back().number == 0) v.items.pop_back();
  v.recompute();
  v.text = std::string(kVersionTag);
  return v;
}

bool is_version(const Value& v) { return v.is(K::Tuple) && v.text == kVersionTag; }

std::optional<bool> compare_values(std::string_view op, const Value& a, const Value& b) {
  if (op == "in" || op == "not in") {
    std::optional<bool> found;
    if (b.is(K::Str) && a.is(K::Str)) {
      found = b.text.find(a.text) != std::string::npos;
    } else if ((b.is_seq() || b.is(K::Dict)) && is_scalar(a)) {
      bool any = false, undecided = false;
      if (b.is(K::Dict)) {
        any = a.is(K::Str) && b.find(a.text) != nullptr;
      } else {
        for (const Value& x : b.items) {
          if (scalar_equal(x, a)) any = true;
          else if (!is_scalar(x) || (x.is(K::Int) != a.is(K::Int) && (x.is(K::Bool) || a.is(K::Bool))))
            undecided = true;  // 1 == True, or an element we do not know
        }
      }
      if (any) found = true;
      else if (b.complete && !undecided) found = false;
    }
    if (!found) return std::nullopt;
    return op == "in" ? *found : !*found;
  }
  int c = 0;
  if (a.is(K::Int) && b.is(K::Int)) {
    c = a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
  } else if (a.is(K::Str) && b.is(K::Str)) {
    c = a.text.compare(b.text);  // code point order, as Python compares str
  } else if (is_version(a) && is_version(b)) {
    const size_t n = std::max(a.items.size(), b.items.size());
    for (size_t i = 0; i < n && c == 0; ++i) {
      int64_t x = i < a.items.size() ? a.items[i].number : 0, y = i < b.items.size() ? b.items[i].number : 0;
      c = x < y ? -1 : x > y ? 1 : 0;
    }
  } else {
    return std::nullopt;
  }
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  if (op == ">=") return c >= 0;
  return std::nullopt;
}

Value Interpreter::index_value(const Value& base, const Value& key, Span sp) {
  if (base.is(K::Dict) && key.is(K::Str)) {
    if (const Value* e = base.find(key.text)) return *e;
    return Value::unknown(sp);
  }
  if (!key.is(K::Int)) return Value::unknown(sp);
  if (base.is(K::Str)) {
    int64_t n = static_cast<int64_t>(base.text.size()), i = key.number < 0 ? key.number + n : key.number;
    if (i < 0 || i >= n) return Value::unknown(sp);
    return Value::string(std::string(1, base.text[static_cast<size_t>(i)]), base.span);
  }
  if (base.is_seq() && base.complete && !is_version(base)) {
    int64_t n = static_cast<int64_t>(base.items.size()), i = key.number < 0 ? key.number + n : key.number;
    if (i < 0 || i >= n) return Value::unknown(sp);
    return base.items[static_cast<size_t>(i)];
  }
  return Value::unknown(sp);
}

// `[E for x in SEQ if C]` with one `for` over a known list and tests that decide each element.
Value Interpreter::eval_comprehension(TSNode n, Scope& scope) {
  Span sp = span_of(n);
  NodeList kids = named_children(n);
  if (kids.size() < 2 || type_of(kids[1]) != "for_in_clause") return Value::unknown(sp);
  for (size_t i = 2; i < kids.size(); ++i)
    if (type_of(kids[i]) != "if_clause") return Value::unknown(sp);
  TSNode clause = kids[1];
  TSNode var = field(clause, "left");
  if (type_of(var) != "identifier") return Value::unknown(sp);
  Value seq = eval(field(clause, "right"), scope);
  if (!seq.is_seq() || !seq.complete || is_version(seq)) return Value::unknown(sp);
  Value out = Value::seq(K::List, sp);
  Scope inner(&scope);
  for (const Value& x : seq.items) {
    if (exhausted()) return Value::unknown(sp);
    inner.bind(text(var), x);
    bool keep = true;
    for (size_t i = 2; i < kids.size() && keep; ++i) {
      NodeList test = named_children(kids[i]);
      std::optional<bool> t = test.empty() ? std::nullopt : truth(eval(test[0], inner));
      if (!t) return Value::unknown(sp);
      keep = *t;
    }
    if (keep && !out.push(eval(kids[0], inner))) return Value::unknown(sp);
  }
  return out;
}

Value Interpreter::call_builtin(const std::string& path, TSNode call, Scope& scope, bool& handled) {
  Span sp = span_of(call);
  std::string_view last = last_of(path);
  const bool version_parser =
      ((last == "parse" || last == "Version") && path.find("packaging.version.") != std::string::npos) ||
      path == "pkg_resources.parse_version" ||
      path == "distutils.version.LooseVersion" || path == "setuptools.version.LooseVersion" ||
      ((last == "parse" || last == "Version") && path.starts_with("version."));
  static constexpr std::string_view kBuiltins[] = {"set", "sorted", "int", "len", "max", "min"};
  const bool env_read = path == "os.getenv" || path == "os.environ.get";
  const bool subprocess = path == "subprocess.check_output" || path == "subprocess.getoutput";
  if (path == "platform.system" && context_ && context_->linux) {
    handled = true;
    return Value::string("Linux", sp);
  }
  if (!version_parser && std::find(std::begin(kBuiltins), std::end(kBuiltins), path) == std::end(kBuiltins) &&
      !((env_read || subprocess) && context_))
    return Value::unknown(sp);
  handled = true;
  Args a = eval_args(field(call, "arguments"), scope);
  if (a.unknown_rest) return Value::unknown(sp);
  const Arg* a0 = a.positional(0);
  if (version_parser) {
    if (!a0 || !a0->value.is(K::Str)) return Value::unknown(sp);
    return version_value(a0->value.text, sp);
  }
  if (env_read) {
    const Arg* key = a0 ? a0 : a.keyword("key");
    if (!key || !key->value.is(K::Str) || !context_->env) return Value::unknown(sp);
    auto v = context_->env(key->value.text);
    if (!v) return Value::unknown(sp);
    if (*v) return Value::string(**v, sp);
    const Arg* def = a.positional(1);
    if (!def) def = a.keyword("default");
    return def ? def->value : Value::none(sp);
  }
  if (subprocess) {
    if (!a0 || !context_->nvcc_release || !runs_nvcc_version(a0->value)) return Value::unknown(sp);
    return Value::string(nvcc_version_text(*context_->nvcc_release), sp);
  }
  if (path == "set" || path == "sorted") {
    if (a.items.size() != 1 || !a0 || !a0->value.is_seq() || !a0->value.complete || is_version(a0->value))
      return Value::unknown(sp);
    Value out = Value::seq(K::List, sp);
    for (const Value& x : a0->value.items) {
      if (!is_scalar(x)) return Value::unknown(sp);
      if (std::none_of(out.items.begin(), out.items.end(), [&](const Value& y) { return scalar_equal(x, y); }) ||
          path == "sorted")
        out.push(x);
    }
    if (path == "sorted") {
      bool ok = true;
      std::stable_sort(out.items.begin(), out.items.end(), [&](const Value& x, const Value& y) {
        auto lt = compare_values("<", x, y);
        ok = ok && lt.has_value();
        return lt.value_or(false);
      });
      if (!ok) return Value::unknown(sp);
    }
    return out;
  }
  if (path == "int") {
    if (a.items.size() != 1 || !a0) return Value::unknown(sp);
    if (a0->value.is(K::Int)) return a0->value;
    if (a0->value.is(K::Bool)) return Value::integer(a0->value.flag ? 1 : 0, sp);
    if (auto n = a0->value.is(K::Str) ? to_int(a0->value.text) : std::nullopt) return Value::integer(*n, sp);
    return Value::unknown(sp);
  }
  if (path == "len") {
    if (a.items.size() != 1 || !a0) return Value::unknown(sp);
    const Value& v = a0->value;
    if (v.is(K::Str)) return Value::integer(static_cast<int64_t>(v.text.size()), sp);
    if ((v.is_seq() || v.is(K::Dict)) && v.complete && !is_version(v))
      return Value::integer(static_cast<int64_t>(v.items.size()), sp);
    return Value::unknown(sp);
  }
  // max/min over one known sequence or several arguments, with `key=int` or no key.
  const Arg* key = a.keyword("key");
  if (key && !(key->value.is(K::Ref) && key->value.text == "int")) return Value::unknown(sp);
  std::vector<const Value*> xs;
  for (const Arg& x : a.items)
    if (x.keyword.empty()) xs.push_back(&x.value);
  if (xs.size() == 1) {
    if (!xs[0]->is_seq() || !xs[0]->complete || is_version(*xs[0])) return Value::unknown(sp);
    const Value* seq = xs[0];
    xs.clear();
    for (const Value& x : seq->items) xs.push_back(&x);
  }
  if (xs.empty()) return Value::unknown(sp);
  const Value* best = nullptr;
  Value best_key;
  for (const Value* x : xs) {
    Value k = *x;
    if (key) {
      auto n = x->is(K::Int) ? std::optional<int64_t>(x->number) : x->is(K::Str) ? to_int(x->text) : std::nullopt;
      if (!n) return Value::unknown(sp);
      k = Value::integer(*n, sp);
    }
    if (!best) {
      best = x;
      best_key = std::move(k);
      continue;
    }
    auto better = compare_values(path == "max" ? ">" : "<", k, best_key);
    if (!better) return Value::unknown(sp);
    if (*better) {
      best = x;
      best_key = std::move(k);
    }
  }
  return *best;
}

Value Interpreter::known_ref(Value ref) const {
  if (auto fixed = cuda_torch_value(ref.text, ref.span)) return *fixed;
  // torch.utils.cpp_extension.CUDA_HOME is found (CUDA_HOME, nvcc on PATH, /usr/local/cuda)
  // wherever the build has a toolkit; its place does not matter here, only that it is a path.
  if (context_ && context_->nvcc_release && ref.text.ends_with("cpp_extension.CUDA_HOME"))
    return Value::string("/usr/local/cuda", ref.span);
  if (context_ && context_->linux) {
    if (ref.text == "sys.platform") return Value::string("linux", ref.span);
    if (ref.text == "os.name") return Value::string("posix", ref.span);
    if (ref.text.ends_with("cpp_extension.IS_WINDOWS")) return Value::boolean(false, ref.span);
  }
  return ref;
}

void Interpreter::exec_call_statement(TSNode call, Frame& f, bool cond) {
  TSNode fn = field(call, "function");
  TSNode arglist = field(call, "arguments");
  if (type_of(fn) != "identifier" || type_of(arglist) != "argument_list") return;
  const Value* callee = f.scope->find(text(fn));
  if (!callee || !callee->is(K::Func)) return;
  TSNode def = callee->node;
  Args args = eval_args(arglist, *f.scope);
  std::vector<std::optional<Value>> params;
  call_function(def, args, span_of(call), &params);
  // The positional arguments that are names of lists: Python passed the list itself.
  size_t pos = 0;
  for (TSNode a : named_children(arglist)) {
    std::string_view t = type_of(a);
    if (t == "keyword_argument" || t == "list_splat" || t == "dictionary_splat") break;
    size_t i = pos++;
    if (type_of(a) != "identifier" || i >= params.size() || !params[i] || !params[i]->is(K::List)) continue;
    auto path = lvalue(a, f);
    if (path.empty() || !path.back()->is(K::List)) continue;
    Value* slot = path.back();
    uint32_t old_weight = slot->weight;
    Value nv = *params[i];
    nv.span = slot->span;
    if (!fits(path, nv)) nv = Value::unknown(slot->span);
    *slot = cond ? merge(*slot, nv) : std::move(nv);
    settle(path, old_weight);
  }
}

}  // namespace cudalint::python
