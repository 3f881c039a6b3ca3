// setup.py front-end: extensions (CUDAExtension/CppExtension calls), their sources (lists,
// globs, names followed to their values), cmdclass and os.environ settings.
#include "analyzer/frontends/python/setup_py_extractor.h"

#include <unordered_set>

namespace cudalint::python::setup_detail {


void Extractor::on_call(TSNode call, Scope& scope, bool conditional) {
  TSNode fn = field(call, "function");
  TSNode args = field(call, "arguments");
  if (type_of(args) != "argument_list") return;
  std::optional<std::string> path = in_.path_of(fn, scope);
  if (path) {
    std::string_view last = last_component(*path);
    if (is_cpp_extension_name(*path, "CUDAExtension") || is_cpp_extension_name(*path, "CppExtension")) {
      // `extension(...)` with the class chosen among others at build time (a CUDA path and a
      // vendor's): whether it builds CUDA code is not decided here.
      const Value* chosen = type_of(fn) == "identifier" ? scope.find(in_.text(fn)) : nullptr;
      extension(std::string(last), call, scope,
                chosen && chosen->is(K::Ref) && !chosen->complete ? std::optional<Span>(span_of(fn)) : std::nullopt);
    }
    else if (*path == "os.getenv" || *path == "os.environ.get")
      env_call(EnvSetting::Kind::GetenvDefault, call, scope, conditional);
    else if (*path == "os.environ.setdefault")
      env_call(EnvSetting::Kind::SetDefault, call, scope, conditional);
    else if (*path == "os.environ.update")
      env_update(call, scope, conditional);
    else if (last == "with_options" && is_cpp_extension_name(prefix_of(*path), "BuildExtension"))
      with_options(call, scope);
  } else if (type_of(fn) == "attribute" && in_.text(field(fn, "attribute")) == "with_options") {
    // A subclass of BuildExtension defined in the file.
    if (build_extension(in_.eval(field(fn, "object"), scope)) == Tri::Yes) with_options(call, scope);
  }
  for (TSNode a : named_children(args)) {
    if (type_of(a) == "keyword_argument" && in_.text(field(a, "name")) == "ext_modules" && path &&
        last_component(*path) == "setup") {
      out_.ext_modules = span_of(a);
    } else if (type_of(a) == "keyword_argument" && in_.text(field(a, "name")) == "cmdclass") {
      TSNode v = field(a, "value");
      cmdclass(in_.eval(v, scope), span_of(v));
    } else if (type_of(a) == "dictionary_splat" && path && last_component(*path) == "setup") {
      // setup(**kwargs) with a dict built in the file
      auto kids = named_children(a);
      if (kids.empty()) continue;
      Value kw = in_.eval(kids[0], scope);
      if (const Value* cc = kw.find("cmdclass")) cmdclass(*cc, span_of(a));
    }
  }
}


void Extractor::cmdclass(const Value& v, Span where) {
  Tri r = Tri::No;
  Span span = where;
  if (v.is(K::Dict)) {
    if (const Value* e = v.find("build_ext")) {
      r = build_extension(*e);
      // A dict merged from branches (`{...} if c else {}`) may not hold the entry.
      if (!v.complete && r == Tri::Yes) r = Tri::Maybe;
      else if (e->span.end > e->span.begin) span = e->span;
    } else {
      r = v.complete ? Tri::No : Tri::Maybe;
    }
  } else if (v.is(K::Unknown) || v.is(K::Ref)) {
    r = Tri::Maybe;
  }
  // An unresolvable cmdclass counts as using BuildExtension: rules should not fire on a guess.
  if (r == Tri::No) return;
  if (!out_.uses_build_extension || (r == Tri::Yes && !build_ext_certain_)) {
    out_.uses_build_extension = true;
    out_.build_extension_span = span;
    build_ext_certain_ = r == Tri::Yes;
  }
}


void Extractor::with_options(TSNode call, Scope& scope) {
  for (TSNode a : named_children(field(call, "arguments"))) {
    if (type_of(a) != "keyword_argument" || in_.text(field(a, "name")) != "use_ninja") continue;
    Value v = in_.eval(field(a, "value"), scope);
    if (!v.is(K::Bool)) continue;  // e.g. an environment switch: not statically known
    // Keep the first setting, unless a later one disables ninja (the one rules look for).
    if (!out_.use_ninja || (out_.use_ninja->first && !v.flag)) out_.use_ninja = std::pair{v.flag, span_of(a)};
  }
}


// The span of `"key": value`'s value when `dict_node` is a dictionary literal.
std::optional<Span> Extractor::pair_value_span(TSNode dict_node, std::string_view key, Scope& scope) {
  if (type_of(dict_node) != "dictionary") return std::nullopt;
  for (TSNode p : named_children(dict_node)) {
    if (type_of(p) != "pair") continue;
    Value k = in_.eval(field(p, "key"), scope);
    if (k.is(K::Str) && k.text == key) return span_of(field(p, "value"));
  }
  return std::nullopt;
}


void Extractor::extension(std::string kind, TSNode call, Scope& scope, std::optional<Span> class_chosen) {
  Extension e;
  e.kind = std::move(kind);
  e.call_span = span_of(call);
  Args a = in_.eval_args(field(call, "arguments"), scope);
  // CUDAExtension(name, sources, *args, **kwargs)
  const Arg* name = a.positional(0);
  if (!name) name = a.keyword("name");
  if (name) e.name = str_of(name->value);
  const Arg* sources = a.positional(1);
  if (!sources) sources = a.keyword("sources");
  if (sources) {
    e.sources = str_list(sources->value, sources->span, false);
    TSNode node = sources->node;
    if (ts_node_is_null(node)) node = splat_entry(call, "sources", scope);
    if (!ts_node_is_null(node)) {
      resolve_sources(node, sources->value, scope, e.sources);
      collect_globs(node, scope, e.source_globs);
      if (!e.source_globs.empty()) e.sources.complete = false;
    }
  } else if (a.unknown_rest) {
    e.sources.complete = false;
  }

  if (const Arg* eca = a.keyword("extra_compile_args")) {
    e.extra_compile_args_given = true;
    const Value& v = eca->value;
    if (v.is(K::Dict)) {
      for (auto [key, dst] : {std::pair{"cxx", &e.cxx_args}, std::pair{"nvcc", &e.nvcc_args}}) {
        Span s = pair_value_span(eca->node, key, scope).value_or(eca->span);
        if (const Value* x = v.find(key)) {
          *dst = str_list(*x, s, false);
        } else if (!v.complete) {
          dst->complete = false;
          dst->span = s;
        }
      }
    } else if (v.is_seq()) {
      e.cxx_args = str_list(v, eca->span, false);  // a plain list goes to every compiler
      e.nvcc_args = e.cxx_args;
    } else {
      e.cxx_args.complete = e.nvcc_args.complete = false;
      e.cxx_args.span = e.nvcc_args.span = eca->span;
    }
  } else if (a.unknown_rest) {
    e.cxx_args.complete = e.nvcc_args.complete = false;
  }

  if (const Arg* dm = a.keyword("define_macros"); dm && dm->value.is_seq()) {
    for (const Value& m : dm->value.items) {
      if (!m.is_seq() || m.items.size() != 2 || !m.items[0].is(K::Str)) continue;
      const Value& val = m.items[1];
      if (val.is(K::Str)) e.define_macros.push_back({*str_of(m.items[0]), str_of(val)});
      else if (val.is(K::None)) e.define_macros.push_back({*str_of(m.items[0]), std::nullopt});
    }
  }
  Conj c = conditions_of(call, scope);
  if (c.never) return;  // `[CUDAExtension(...)] if False else []`
  e.env_conditions = std::move(c.envs);
  e.unknown_condition = c.unknown ? c.unknown : class_chosen;
  out_.extensions.push_back(std::move(e));
}


// The expression of `key` in a `**mapping` argument of the call, when the mapping is a dict
// literal or dict(...) call (directly or through a name).
TSNode Extractor::splat_entry(TSNode call, std::string_view key, Scope& scope) {
  for (TSNode a : named_children(field(call, "arguments"))) {
    if (type_of(a) != "dictionary_splat") continue;
    auto kids = named_children(a);
    if (kids.empty()) continue;
    TSNode d = follow(kids[0], scope);
    if (type_of(d) == "dictionary") {
      for (TSNode p : named_children(d)) {
        if (type_of(p) != "pair") continue;
        Value k = in_.eval(field(p, "key"), scope);
        if (k.is(K::Str) && k.text == key) return field(p, "value");
      }
    } else if (type_of(d) == "call") {
      auto path = in_.path_of(field(d, "function"), scope);
      if (!path || *path != "dict") continue;
      for (TSNode x : named_children(field(d, "arguments")))
        if (type_of(x) == "keyword_argument" && in_.text(field(x, "name")) == key) return field(x, "value");
    }
  }
  return TSNode{};
}


// Through names bound to an unknown or container value, to the expression that made it.
TSNode Extractor::follow(TSNode n, Scope& scope) {
  for (int hops = 0; hops < 8 && type_of(n) == "identifier"; ++hops) {
    const Value* v = scope.find(in_.text(n));
    TSNode rhs{};
    if (!v || !bindings_.expression_of(v->span, &rhs) || rhs.id == n.id) break;
    n = rhs;
  }
  return n;
}


// Sources written as a list literal whose elements the evaluator could not resolve but are
// paths relative to the file (os.path.join(this_dir, "csrc", "k.cu")).
void Extractor::resolve_sources(TSNode node, const Value& v, Scope& scope, StrList& l) {
  TSNode lit = follow(node, scope);
  if ((type_of(lit) != "list" && type_of(lit) != "tuple") || !v.is_seq()) return;
  auto elems = named_children(lit);
  if (elems.size() > v.items.size() || elems.size() > 4096) return;
  bool any = false;
  for (size_t i = 0; i < elems.size(); ++i) {
    std::string_view et = type_of(elems[i]);
    if (et == "list_splat" || et == "parenthesized_list_splat") return;
    if (!v.items[i].is(K::Str)) any = true;
  }
  if (!any) return;
  StrList r;
  r.span = l.span;
  r.complete = v.complete;
  for (size_t i = 0; i < v.items.size(); ++i) {
    const Value& x = v.items[i];
    if (x.is(K::Str)) {
      r.items.push_back({x.text, x.span});
    } else if (i < elems.size()) {
      if (auto p = detail::resolve_path(elems[i], scope, in_, bindings_, false))
        r.items.push_back({std::move(p->text), span_of(elems[i])});
      else
        r.complete = false;
    } else {
      r.complete = false;
    }
  }
  l = std::move(r);
}


// glob.glob(pattern) / glob.iglob / Path(...).glob / .rglob anywhere in the expression of
// the sources (through names assigned, added or appended to).
void Extractor::collect_globs(TSNode root, Scope& scope, std::vector<Str>& out) {
  std::vector<std::pair<TSNode, int>> todo{{root, 0}};
  std::unordered_set<const void*> seen;
  size_t steps = 0;
  while (!todo.empty() && ++steps < 256 && out.size() < 64) {
    auto [n, depth] = todo.back();
    todo.pop_back();
    if (ts_node_is_null(n) || depth > kMaxCondDepth || !seen.insert(n.id).second) continue;
    std::string_view t = type_of(n);
    auto push = [&](TSNode x) { todo.push_back({x, depth + 1}); };
    if (t == "identifier") {
      for (TSNode x : bindings_.assigned_to(in_.text(n))) push(x);
    } else if (t == "parenthesized_expression" || t == "list" || t == "tuple" || t == "list_splat" ||
               t == "parenthesized_list_splat") {
      for (TSNode x : named_children(n)) push(x);
    } else if (t == "binary_operator") {
      push(field(n, "left"));
      push(field(n, "right"));
    } else if (t == "list_comprehension" || t == "generator_expression") {
      for (TSNode x : named_children(n))
        if (type_of(x) == "for_in_clause") push(field(x, "right"));
    } else if (t == "call") {
      TSNode fn = field(n, "function");
      auto args = named_children(field(n, "arguments"));
      auto path = in_.path_of(fn, scope);
      if (path && (*path == "glob.glob" || *path == "glob.iglob")) {
        if (!args.empty() && type_of(args[0]) != "keyword_argument")
          if (auto p = detail::resolve_path(args[0], scope, in_, bindings_, true))
            out.push_back({std::move(p->text), span_of(n)});
      } else if (path && (*path == "sorted" || *path == "list" || *path == "tuple")) {
        if (!args.empty()) push(args[0]);
      } else if (type_of(fn) == "attribute") {
        std::string_view m = in_.text(field(fn, "attribute"));
        if ((m == "glob" || m == "rglob") && !args.empty()) {
          Value pat = in_.eval(args[0], scope);
          auto base = detail::resolve_path(field(fn, "object"), scope, in_, bindings_, true);
          if (pat.is(K::Str) && base) {
            std::string p = m == "rglob" ? "**/" + pat.text : pat.text;
            if (!base->text.empty() && !base->text.ends_with('/')) base->text += '/';
            out.push_back({base->text + p, span_of(n)});
          }
        }
      }
    }
  }
}


void Extractor::env_call(EnvSetting::Kind kind, TSNode call, Scope& scope, bool conditional) {
  Args a = in_.eval_args(field(call, "arguments"), scope);
  const Arg* key = a.positional(0);
  if (!key) key = a.keyword("key");
  if (!key || !key->value.is(K::Str)) return;
  const Arg* def = a.positional(1);
  if (!def) def = a.keyword("default");
  // A read without a default (or with None) chooses nothing.
  if (kind == EnvSetting::Kind::GetenvDefault && (!def || def->value.is(K::None))) return;
  EnvSetting s;
  s.kind = kind;
  s.var = key->value.text;
  if (def) s.value = str_of(def->value);
  s.span = span_of(call);
  s.conditional = conditional;
  out_.env.push_back(std::move(s));
}


void Extractor::env_update(TSNode call, Scope& scope, bool conditional) {
  Args a = in_.eval_args(field(call, "arguments"), scope);
  auto add = [&](const std::string& var, const Value& v) {
    EnvSetting s;
    s.var = var;
    s.value = str_of(v);
    s.span = span_of(call);
    s.conditional = conditional;
    out_.env.push_back(std::move(s));
  };
  for (const Arg& x : a.items) {
    if (!x.keyword.empty()) add(x.keyword, x.value);
    else if (x.value.is(K::Dict))
      for (size_t i = 0; i < x.value.keys.size(); ++i) add(x.value.keys[i], x.value.items[i]);
  }
}


void Extractor::env_assignment(TSNode stmt, TSNode assign, Scope& scope, bool conditional) {
  std::vector<TSNode> targets;
  TSNode right{};
  if (type_of(assign) == "augmented_assignment") {
    targets.push_back(field(assign, "left"));  // value not static: the old one plus something
  } else {
    for (TSNode cur = assign; type_of(cur) == "assignment"; cur = right) {
      targets.push_back(field(cur, "left"));
      right = field(cur, "right");
    }
    if (ts_node_is_null(right) || type_of(right) == "augmented_assignment") right = TSNode{};
  }
  std::optional<Value> value;
  for (TSNode t : targets) {
    if (type_of(t) != "subscript" || named_children(t).size() != 2) continue;
    auto base = in_.path_of(field(t, "value"), scope);
    if (!base || *base != "os.environ") continue;
    Value key = in_.eval(field(t, "subscript"), scope);
    if (!key.is(K::Str)) continue;
    if (!value) value = ts_node_is_null(right) ? Value::unknown() : in_.eval(right, scope);
    EnvSetting s;
    s.var = key.text;
    s.value = str_of(*value);
    s.span = span_of(stmt);
    s.conditional = conditional;
    out_.env.push_back(std::move(s));
  }
}

}  // namespace cudalint::python::setup_detail
