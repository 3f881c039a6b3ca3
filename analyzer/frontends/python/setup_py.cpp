// setup.py front-end (see setup_py.h): tree-sitter parse, syntax errors from ERROR/MISSING nodes,
// then one static walk (py_eval.h) whose statement hook picks out extensions, environment
// settings, cmdclass and imports. The error scan and the per-statement call scan are iterative.
#include "analyzer/frontends/python/setup_py.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>

#include <tree_sitter/api.h>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python {

namespace {

using K = Value::Kind;

constexpr size_t kMaxErrors = 50;   // random bytes make thousands; the first ones are the useful ones
constexpr size_t kMaxQuoted = 40;   // bytes of source quoted in one message

std::string_view last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::string_view prefix_of(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

// A path names torch's class when it is `X` (a star import or a local alias) or `...cpp_extension.X`.
bool is_cpp_extension_name(std::string_view path, std::string_view name) {
  std::string_view prefix = prefix_of(path);
  return last_component(path) == name && (prefix.empty() || last_component(prefix) == "cpp_extension");
}

// Source text quoted in a message: one line, at most kMaxQuoted bytes, valid UTF-8, printable.
std::string quote(std::string_view s) {
  s = s.substr(0, std::min(s.find_first_of("\r\n"), kMaxQuoted));
  if (auto bad = first_invalid_utf8(s)) s = s.substr(0, *bad);
  std::string out;
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) break;
    out += c;
  }
  return out;
}

void collect_errors(TSNode root, std::string_view text, std::vector<ParseError>& out) {
  auto slice = [&](TSNode n) {
    uint32_t b = std::min<uint32_t>(ts_node_start_byte(n), static_cast<uint32_t>(text.size()));
    uint32_t e = std::min<uint32_t>(ts_node_end_byte(n), static_cast<uint32_t>(text.size()));
    return text.substr(b, e > b ? e - b : 0);
  };
  TSTreeCursor c = ts_tree_cursor_new(root);
  // Only subtrees that contain an error are entered; an ERROR's own inner errors are not repeated.
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool descend = false;
    if (ts_node_is_error(n)) {
      // An ERROR node often starts with valid constructs it absorbed (`x = f(1))` keeps the
      // assignment); the error is at the first token after them.
      TSNode first = n;
      TSTreeCursor k = ts_tree_cursor_new(n);
      if (ts_tree_cursor_goto_first_child(&k)) {
        do {
          first = ts_tree_cursor_current_node(&k);
          if (!ts_node_is_named(first) || ts_node_has_error(first)) break;
        } while (ts_tree_cursor_goto_next_sibling(&k));
      }
      ts_tree_cursor_delete(&k);
      TSNode leaf = first;
      while (ts_node_child_count(leaf) > 0) leaf = ts_node_child(leaf, 0);
      std::string tok = quote(slice(leaf));
      Span span{ts_node_start_byte(first), ts_node_end_byte(n)};
      out.push_back({span, tok.empty() ? std::string("syntax error") : "syntax error: unexpected `" + tok + "`"});
    } else if (ts_node_is_missing(n)) {
      std::string what(ts_node_type(n));
      if (ts_node_is_named(n)) {
        std::replace(what.begin(), what.end(), '_', ' ');
        out.push_back({span_of(n), "missing " + what});
      } else {
        out.push_back({span_of(n), "missing `" + what + "`"});
      }
    } else {
      descend = ts_node_has_error(n);
    }
    if (out.size() >= kMaxErrors) break;
    if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
    bool more = true;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) {
        more = false;
        break;
      }
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
}

enum class Tri { No, Maybe, Yes };

// Whether a cmdclass["build_ext"] value is torch's BuildExtension (or derives from it). Values
// this file cannot resolve (a helper from another module, a computed class) are Maybe.
Tri build_extension(const Value& v) {
  auto of_path = [](std::string_view p) {
    if (p.empty()) return Tri::Maybe;
    if (is_cpp_extension_name(p, "BuildExtension")) return Tri::Yes;
    for (std::string_view other : {"setuptools.", "distutils.", "Cython.", "numpy.distutils."})
      if (p.starts_with(other)) return Tri::No;
    return p == "object" ? Tri::No : Tri::Maybe;
  };
  switch (v.kind) {
    case K::Ref: return of_path(v.text);
    case K::Class: {
      Tri r = Tri::No;
      for (const std::string& base : v.keys) r = std::max(r, of_path(base));
      return r;
    }
    case K::Unknown: return Tri::Maybe;
    default: return Tri::No;
  }
}

StrList str_list(const Value& v, Span span) {
  StrList l;
  l.span = span;
  if (!v.is_seq()) {
    l.complete = false;
    return l;
  }
  l.complete = v.complete;
  for (const Value& x : v.items) {
    if (x.is(K::Str)) l.items.push_back({x.text, x.span});
    else l.complete = false;
  }
  return l;
}

std::optional<Str> str_of(const Value& v) {
  if (!v.is(K::Str)) return std::nullopt;
  return Str{v.text, v.span};
}

class Extractor {
 public:
  Extractor(Interpreter& in, SetupPy& out) : in_(in), out_(out) {}

  void statement(TSNode stmt, Scope& scope, bool conditional) {
    std::string_view t = type_of(stmt);
    if (t == "import_statement" || t == "import_from_statement") imports(stmt);
    if (t == "expression_statement")
      for (TSNode c : named_children(stmt))
        if (type_of(c) == "assignment" || type_of(c) == "augmented_assignment")
          env_assignment(stmt, c, scope, conditional);
    scan_calls(stmt, scope, conditional);
  }

 private:
  void imports(TSNode stmt) {
    auto torch = [&](TSNode dotted) {
      std::string m;
      for (char c : in_.text(dotted))
        if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') m += c;
      if (m == "torch" || m.starts_with("torch.")) out_.imports_torch = true;
    };
    if (type_of(stmt) == "import_from_statement") {
      torch(field(stmt, "module_name"));
      return;
    }
    for (TSNode c : named_children(stmt)) torch(type_of(c) == "aliased_import" ? field(c, "name") : c);
  }

  // Finds the calls in one statement (not in its nested blocks), in source order, with one
  // cursor: a preorder walk that keeps, per ancestor, whether its children may not run.
  void scan_calls(TSNode root, Scope& scope, bool conditional) {
    struct Level {
      bool child_cond;  // everything below may not run
      bool boolean;     // a boolean_operator: its right operand may not run
    };
    std::vector<Level> levels;
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      bool cond = conditional;
      if (!levels.empty()) {
        const char* f = levels.back().boolean ? ts_tree_cursor_current_field_name(&c) : nullptr;
        cond = levels.back().child_cond || (f && std::string_view(f) == "right");
      }
      std::string_view t = type_of(n);
      if (t == "call") on_call(n, scope, cond);
      // Nested blocks are reported by the walk itself; strings hold no calls worth finding.
      bool descend = ts_node_is_named(n) && t != "block" && t != "string";
      if (descend && ts_tree_cursor_goto_first_child(&c)) {
        bool child_cond = cond || t == "conditional_expression" || t == "lambda" || t == "list_comprehension" ||
                          t == "set_comprehension" || t == "dictionary_comprehension" || t == "generator_expression";
        levels.push_back({child_cond, t == "boolean_operator"});
        continue;
      }
      bool more = false;
      while (!levels.empty()) {
        if (ts_tree_cursor_goto_next_sibling(&c)) {
          more = true;
          break;
        }
        ts_tree_cursor_goto_parent(&c);
        levels.pop_back();
      }
      if (!more) break;
    }
    ts_tree_cursor_delete(&c);
  }

  void on_call(TSNode call, Scope& scope, bool conditional) {
    TSNode fn = field(call, "function");
    TSNode args = field(call, "arguments");
    if (type_of(args) != "argument_list") return;
    std::optional<std::string> path = in_.path_of(fn, scope);
    if (path) {
      std::string_view last = last_component(*path);
      if (is_cpp_extension_name(*path, "CUDAExtension") || is_cpp_extension_name(*path, "CppExtension"))
        extension(std::string(last), call, scope);
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

  void cmdclass(const Value& v, Span where) {
    Tri r = Tri::No;
    Span span = where;
    if (v.is(K::Dict)) {
      if (const Value* e = v.find("build_ext")) {
        r = build_extension(*e);
        if (e->span.end > e->span.begin) span = e->span;
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

  void with_options(TSNode call, Scope& scope) {
    for (TSNode a : named_children(field(call, "arguments"))) {
      if (type_of(a) != "keyword_argument" || in_.text(field(a, "name")) != "use_ninja") continue;
      Value v = in_.eval(field(a, "value"), scope);
      if (!v.is(K::Bool)) continue;  // e.g. an environment switch: not statically known
      // Keep the first setting, unless a later one disables ninja (the one rules look for).
      if (!out_.use_ninja || (out_.use_ninja->first && !v.flag)) out_.use_ninja = std::pair{v.flag, span_of(a)};
    }
  }

  // The span of `"key": value`'s value when `dict_node` is a dictionary literal.
  std::optional<Span> pair_value_span(TSNode dict_node, std::string_view key, Scope& scope) {
    if (type_of(dict_node) != "dictionary") return std::nullopt;
    for (TSNode p : named_children(dict_node)) {
      if (type_of(p) != "pair") continue;
      Value k = in_.eval(field(p, "key"), scope);
      if (k.is(K::Str) && k.text == key) return span_of(field(p, "value"));
    }
    return std::nullopt;
  }

  void extension(std::string kind, TSNode call, Scope& scope) {
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
    if (sources) e.sources = str_list(sources->value, sources->span);
    else if (a.unknown_rest) e.sources.complete = false;

    if (const Arg* eca = a.keyword("extra_compile_args")) {
      e.extra_compile_args_given = true;
      const Value& v = eca->value;
      if (v.is(K::Dict)) {
        for (auto [key, dst] : {std::pair{"cxx", &e.cxx_args}, std::pair{"nvcc", &e.nvcc_args}}) {
          Span s = pair_value_span(eca->node, key, scope).value_or(eca->span);
          if (const Value* x = v.find(key)) {
            *dst = str_list(*x, s);
          } else if (!v.complete) {
            dst->complete = false;
            dst->span = s;
          }
        }
      } else if (v.is_seq()) {
        e.cxx_args = str_list(v, eca->span);  // a plain list goes to every compiler
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
    out_.extensions.push_back(std::move(e));
  }

  void env_call(EnvSetting::Kind kind, TSNode call, Scope& scope, bool conditional) {
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

  void env_update(TSNode call, Scope& scope, bool conditional) {
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

  void env_assignment(TSNode stmt, TSNode assign, Scope& scope, bool conditional) {
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

  Interpreter& in_;
  SetupPy& out_;
  bool build_ext_certain_ = false;  // uses_build_extension came from a definite match
};

}  // namespace

ParseResult parse_setup_py(std::string_view text) {
  ParseResult r;
  if (text.size() > UINT32_MAX) {
    r.errors.push_back({{0, 0}, "setup.py is too large to parse"});
    return r;
  }
  try {
    std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), &ts_parser_delete);
    if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) {
      r.errors.push_back({{0, 0}, "the python grammar could not be loaded"});
      return r;
    }
    std::unique_ptr<TSTree, decltype(&ts_tree_delete)> tree(
        ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())),
        &ts_tree_delete);
    if (!tree) {
      r.errors.push_back({{0, 0}, "setup.py could not be parsed"});
      return r;
    }
    TSNode root = ts_tree_root_node(tree.get());
    collect_errors(root, text, r.errors);
    Interpreter in(text);
    Extractor ex(in, r.setup);
    in.run(root, [&](TSNode stmt, Scope& scope, bool conditional) { ex.statement(stmt, scope, conditional); });
  } catch (const std::bad_alloc&) {
    r.errors.push_back({{0, 0}, "setup.py is too large to analyse"});
  }
  // Function bodies are walked after the module; report in source order.
  std::stable_sort(r.setup.extensions.begin(), r.setup.extensions.end(),
                   [](const Extension& a, const Extension& b) { return a.call_span.begin < b.call_span.begin; });
  std::stable_sort(r.setup.env.begin(), r.setup.env.end(),
                   [](const EnvSetting& a, const EnvSetting& b) { return a.span.begin < b.span.begin; });
  return r;
}

}  // namespace cudalint::python
