// JIT builds (see jit_build.h), and the path resolution setup_py.cpp shares: one static walk
// (py_eval.h) whose statement hook records bindings and finds cpp_extension.load/load_inline.
#include "analyzer/frontends/python/jit_build.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <new>
#include <utility>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/py_eval.h"
#include "analyzer/frontends/python/str_list.h"

namespace cudalint::python {

namespace {

using K = Value::Kind;

constexpr int kMaxPathDepth = 24;        // nested path expressions and name look-ups
constexpr size_t kMaxPerName = 32;       // expressions remembered per assigned name

std::string_view last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::string_view prefix_of(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

using Key = std::pair<uint32_t, uint32_t>;
Key key_of(Span s) { return {s.begin, s.end}; }

}  // namespace

namespace detail {

struct Bindings::Impl {
  std::map<Key, TSNode> by_span;
  std::map<std::string, std::vector<TSNode>, std::less<>> by_name;
  void add_name(std::string_view name, TSNode n) {
    auto it = by_name.find(name);
    if (it == by_name.end()) it = by_name.emplace(std::string(name), std::vector<TSNode>{}).first;
    if (it->second.size() < kMaxPerName) it->second.push_back(n);
  }
  void add_span(TSNode n) {
    by_span.emplace(key_of(span_of(n)), n);
    // `(expr)` evaluates to expr's value, with expr's span.
    while (type_of(n) == "parenthesized_expression") {
      auto kids = named_children(n);
      if (kids.size() != 1) break;
      n = kids[0];
      by_span.emplace(key_of(span_of(n)), n);
    }
  }
};

Bindings::Bindings() : impl_(std::make_unique<Impl>()) {}
Bindings::~Bindings() = default;

void Bindings::record(const TSNode& stmt, const Interpreter& in) {
  if (type_of(stmt) != "expression_statement") return;
  for (TSNode c : named_children(stmt)) {
    std::string_view t = type_of(c);
    if (t == "assignment") {
      std::vector<TSNode> targets;
      TSNode cur = c;
      while (type_of(cur) == "assignment" && targets.size() < 64) {
        targets.push_back(field(cur, "left"));
        cur = field(cur, "right");
      }
      if (ts_node_is_null(cur) || type_of(cur) == "assignment" || type_of(cur) == "augmented_assignment") continue;
      impl_->add_span(cur);
      for (TSNode tg : targets) {
        if (type_of(tg) == "identifier") {
          impl_->add_name(in.text(tg), cur);
        } else if (type_of(tg) == "pattern_list" || type_of(tg) == "tuple_pattern" || type_of(tg) == "list_pattern") {
          // `a, b = f()`: each name is bound here too, to a part of the value (so not "bound once").
          for (TSNode part : named_children(tg))
            if (type_of(part) == "identifier") impl_->add_name(in.text(part), cur);
        }
      }
    } else if (t == "augmented_assignment") {
      TSNode l = field(c, "left");
      if (type_of(l) == "identifier") impl_->add_name(in.text(l), field(c, "right"));
    } else if (t == "call") {
      TSNode fn = field(c, "function");
      if (type_of(fn) != "attribute") continue;
      std::string_view m = in.text(field(fn, "attribute"));
      TSNode obj = field(fn, "object");
      if ((m != "append" && m != "extend") || type_of(obj) != "identifier") continue;
      auto args = named_children(field(c, "arguments"));
      if (args.size() == 1 && type_of(args[0]) != "keyword_argument") impl_->add_name(in.text(obj), args[0]);
    }
  }
}

bool Bindings::expression_of(Span value_span, TSNode* out) const {
  auto it = impl_->by_span.find(key_of(value_span));
  if (it == impl_->by_span.end()) return false;
  *out = it->second;
  return true;
}

std::vector<TSNode> Bindings::assigned_to(std::string_view name) const {
  auto it = impl_->by_name.find(name);
  return it == impl_->by_name.end() ? std::vector<TSNode>{} : it->second;
}

namespace {

struct P {
  std::string text;
  bool rel = false;   // relative to the file's directory
  bool file = false;  // the file itself (__file__)
  bool absolute = false;  // through abspath/realpath/resolve(): "." is the working directory's path
};

std::string dirname_of(std::string_view t, bool absolute) {
  // os.path.dirname(".") is "" and Path(".").parent is ".": the same directory; of an absolute
  // path ("." made absolute), the parent.
  if (t.empty() || t == ".") return absolute ? ".." : "";
  if (t == ".." || t.ends_with("/..")) return std::string(t) + "/..";
  while (t.size() > 1 && t.ends_with('/')) t.remove_suffix(1);
  size_t pos = t.rfind('/');
  if (pos == std::string_view::npos) return "";
  if (pos == 0) return "/";
  return std::string(t.substr(0, pos));
}

P dirname(const P& p) {
  if (p.file) return P{"", true, false};
  return P{dirname_of(p.text, p.absolute), p.rel, false, p.absolute};
}

P join(const P& a, const P& b) {
  if (b.text.starts_with('/')) return P{b.text, false, false};
  P r{a.text, a.rel, false, a.absolute};
  if (r.text.empty() || r.text.ends_with('/')) r.text += b.text;
  else if (!b.text.empty()) r.text += "/" + b.text;
  return r;
}

std::optional<P> concat(const P& a, const P& b) {
  if (a.file || b.file) return std::nullopt;
  // this_dir + "/k.cu": the directory of the file is written as "" here.
  if (a.rel && a.text.empty() && b.text.starts_with('/')) return P{b.text.substr(1), true, false};
  return P{a.text + b.text, a.rel, false};
}

class PathEval {
 public:
  PathEval(Scope& s, Interpreter& in, const Bindings& b, bool lenient) : s_(s), in_(in), b_(b), lenient_(lenient) {}

  std::optional<P> eval(TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > kMaxPathDepth) return std::nullopt;
    std::string_view t = type_of(n);
    if (t == "identifier") {
      std::string_view name = in_.text(n);
      if (name == "__file__") return P{"", true, true};
      const Value* v = s_.find(name);
      if (!v) return std::nullopt;
      if (v->is(K::Str)) return P{v->text, false, false};
      TSNode rhs{};
      if (b_.expression_of(v->span, &rhs) && rhs.id != n.id) return eval(rhs, depth + 1);
      return std::nullopt;
    }
    if (t == "parenthesized_expression") {
      auto kids = named_children(n);
      return kids.size() == 1 ? eval(kids[0], depth + 1) : std::nullopt;
    }
    if (t == "string") return fstring(n, depth);
    if (t == "attribute") {
      if (auto path = in_.path_of(n, s_); path && (*path == "os.path.curdir" || *path == "os.curdir"))
        return P{".", false, false};
      if (in_.text(field(n, "attribute")) == "parent") {
        auto o = eval(field(n, "object"), depth + 1);
        if (o) return dirname(*o);
        return std::nullopt;
      }
    } else if (t == "binary_operator") {
      std::string_view op = in_.text(field(n, "operator"));
      if (op == "/" || op == "+") {
        auto l = part(field(n, "left"), depth);
        auto r = part(field(n, "right"), depth);
        if (!l || !r) return std::nullopt;
        if (op == "/") return join(*l, *r);
        return concat(*l, *r);
      }
    } else if (t == "call") {
      if (auto r = call(n, depth)) return r;
    }
    Value v = in_.eval(n, s_);
    if (v.is(K::Str)) return P{v.text, false, false};
    return std::nullopt;
  }

  // A component: in lenient mode one that does not resolve is `*`.
  std::optional<P> part(TSNode n, int depth) {
    auto r = eval(n, depth + 1);
    if (!r && lenient_) return P{"*", false, false};
    return r;
  }

 private:
  std::optional<P> call(TSNode n, int depth) {
    TSNode fn = field(n, "function");
    TSNode argl = field(n, "arguments");
    if (type_of(argl) != "argument_list") return std::nullopt;
    auto args = named_children(argl);
    for (TSNode a : args) {
      std::string_view at = type_of(a);
      if (at == "keyword_argument" || at == "list_splat" || at == "dictionary_splat") return std::nullopt;
    }
    auto join_all = [&](std::optional<P> base, size_t from) -> std::optional<P> {
      for (size_t i = from; i < args.size() && base; ++i) {
        auto p = part(args[i], depth);
        if (!p) return std::nullopt;
        base = join(*base, *p);
      }
      return base;
    };
    if (auto path = in_.path_of(fn, s_)) {
      std::string_view last = last_component(*path);
      std::string_view prefix = prefix_of(*path);
      bool os_path = prefix == "os.path" || prefix == "posixpath";
      bool pathlib = (prefix.empty() || prefix == "pathlib") &&
                     (last == "Path" || last == "PurePath" || last == "PosixPath" || last == "PurePosixPath");
      if (os_path && last == "dirname" && args.size() == 1) {
        auto p = eval(args[0], depth + 1);
        if (p) return dirname(*p);
        return std::nullopt;
      }
      if (((os_path && (last == "abspath" || last == "realpath" || last == "normpath" || last == "expanduser")) ||
           *path == "os.fspath" || *path == "str") &&
          args.size() == 1) {
        auto p = eval(args[0], depth + 1);
        if (p && (last == "abspath" || last == "realpath")) p->absolute = true;
        return p;
      }
      if (os_path && last == "join" && !args.empty()) return join_all(part(args[0], depth), 1);
      if (pathlib && !args.empty()) return join_all(part(args[0], depth), 1);
      return std::nullopt;
    }
    if (type_of(fn) != "attribute") return std::nullopt;
    std::string_view m = in_.text(field(fn, "attribute"));
    TSNode obj = field(fn, "object");
    if ((m == "resolve" || m == "absolute" || m == "expanduser" || m == "as_posix") && args.empty()) {
      auto p = eval(obj, depth + 1);
      if (p && (m == "resolve" || m == "absolute")) p->absolute = true;
      return p;
    }
    if (m == "joinpath" && !args.empty()) return join_all(eval(obj, depth + 1), 0);
    return std::nullopt;
  }

  // f"{this_dir}/k.cu": the interpolations resolved as paths.
  std::optional<P> fstring(TSNode n, int depth) {
    Value v = in_.eval(n, s_);
    if (v.is(K::Str)) return P{v.text, false, false};
    std::optional<P> out = P{};
    bool first = true;
    for (TSNode c : named_children(n)) {
      std::string_view ct = type_of(c);
      if (ct == "string_start") {
        std::string_view s = in_.text(c);
        s = s.substr(0, s.find_first_of("'\""));
        if (s.find_first_of("fF") == std::string_view::npos || s.find_first_of("bBtT") != std::string_view::npos)
          return std::nullopt;
      } else if (ct == "string_content") {
        std::string_view s = in_.text(c);
        if (s.find('\\') != std::string_view::npos || s.find("{{") != std::string_view::npos ||
            s.find("}}") != std::string_view::npos)
          return std::nullopt;
        out = first ? P{std::string(s), false, false} : concat(*out, P{std::string(s), false, false});
        first = false;
      } else if (ct == "interpolation") {
        if (!ts_node_is_null(field(c, "format_specifier")) || !ts_node_is_null(field(c, "type_conversion")))
          return std::nullopt;
        auto p = part(field(c, "expression"), depth);
        if (!p) return std::nullopt;
        out = first ? *p : concat(*out, *p);
        first = false;
      } else if (ct != "string_end") {
        return std::nullopt;
      }
      if (!out) return std::nullopt;
    }
    return out;
  }

  Scope& s_;
  Interpreter& in_;
  const Bindings& b_;
  bool lenient_;
};

}  // namespace

std::optional<ResolvedPath> resolve_path(const TSNode& expr, Scope& scope, Interpreter& in, const Bindings& b,
                                         bool lenient) {
  PathEval pe(scope, in, b, lenient);
  auto p = pe.eval(expr, 0);
  if (!p || p->file) return std::nullopt;
  std::string t = std::move(p->text);
  while (t.starts_with("./")) t.erase(0, 2);
  for (size_t i; (i = t.find("/./")) != std::string::npos;) t.erase(i, 2);
  if (t == ".") t.clear();
  if (t.size() > kMaxStrBytes) return std::nullopt;
  return ResolvedPath{std::move(t), p->rel};
}

}  // namespace detail

namespace {

class JitFinder {
 public:
  JitFinder(Interpreter& in, std::vector<JitBuild>& out) : in_(in), out_(out) {}

  void statement(TSNode stmt, Scope& scope) {
    bindings_.record(stmt, in_);
    if (type_of(stmt) == "import_from_statement") star_import(stmt);
    // The calls of this statement, not of its nested blocks (the walk reports those).
    TSTreeCursor c = ts_tree_cursor_new(stmt);
    int depth = 0;
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      std::string_view t = type_of(n);
      if (t == "call") on_call(n, scope);
      bool descend = ts_node_is_named(n) && t != "block" && t != "string";
      if (descend && ts_tree_cursor_goto_first_child(&c)) {
        ++depth;
        continue;
      }
      bool more = false;
      while (depth > 0) {
        if (ts_tree_cursor_goto_next_sibling(&c)) {
          more = true;
          break;
        }
        ts_tree_cursor_goto_parent(&c);
        --depth;
      }
      if (!more) break;
    }
    ts_tree_cursor_delete(&c);
  }

 private:
  void star_import(TSNode stmt) {
    std::string m;
    for (char ch : in_.text(field(stmt, "module_name")))
      if (ch != ' ' && ch != '\t' && ch != '\\' && ch != '\n' && ch != '\r') m += ch;
    if (m != "torch.utils.cpp_extension") return;
    for (TSNode c : named_children(stmt))
      if (type_of(c) == "wildcard_import") star_ = true;
  }

  void on_call(TSNode call, Scope& scope) {
    TSNode args_node = field(call, "arguments");
    if (type_of(args_node) != "argument_list") return;
    auto path = in_.path_of(field(call, "function"), scope);
    if (!path) return;
    std::string_view last = last_component(*path);
    if (last != "load" && last != "load_inline") return;
    std::string_view prefix = prefix_of(*path);
    if (!(last_component(prefix) == "cpp_extension" || (prefix.empty() && star_))) return;
    bool is_inline = last == "load_inline";
    JitBuild j;
    j.kind = std::string(last);
    j.call_span = span_of(call);
    Args a = in_.eval_args(args_node, scope);
    auto arg = [&](size_t pos, std::string_view kw) {
      const Arg* x = a.positional(pos);
      return x ? x : a.keyword(kw);
    };
    if (const Arg* n = arg(0, "name"); n && n->value.is(K::Str)) j.name = Str{n->value.text, n->value.span};
    auto flags = [&](const Arg* x, StrList& dst) {
      if (x && !x->value.is(K::None)) dst = str_list(x->value, x->span, true);
      else if (!x && a.unknown_rest) dst.complete = false;
    };
    if (is_inline) {
      flags(arg(4, "extra_cflags"), j.cxx_args);
      flags(arg(5, "extra_cuda_cflags"), j.nvcc_args);
      const Arg* cuda = arg(2, "cuda_sources");
      if (cuda) {
        const Value& v = cuda->value;
        bool empty = v.is(K::None) || (v.is(K::Str) && v.text.empty()) || (v.is_seq() && v.complete && v.items.empty());
        j.has_inline_cuda = !empty;
      } else {
        j.has_inline_cuda = a.unknown_rest;
      }
    } else {
      flags(arg(2, "extra_cflags"), j.cxx_args);
      flags(arg(3, "extra_cuda_cflags"), j.nvcc_args);
      sources(arg(1, "sources"), a, scope, j);
    }
    out_.push_back(std::move(j));
  }

  void sources(const Arg* x, const Args& a, Scope& scope, JitBuild& j) {
    StrList& l = j.sources;
    if (!x) {
      (void)a;
      l.complete = false;  // load needs sources: missing ones are unknown
      return;
    }
    l.span = x->span;
    auto one = [&](TSNode n) {
      if (auto p = detail::resolve_path(n, scope, in_, bindings_, false)) {
        l.items.push_back({std::move(p->text), span_of(n)});
        if (p->relative_to_file) j.sources_relative_to_file = true;
      } else {
        l.complete = false;
      }
    };
    TSNode n = x->node;
    // A name bound to a list literal: its elements.
    for (int hops = 0; hops < 8 && type_of(n) == "identifier" && !x->value.is(K::Str); ++hops) {
      const Value* v = scope.find(in_.text(n));
      TSNode rhs{};
      if (!v || !b_expr(v->span, &rhs)) break;
      n = rhs;
    }
    std::string_view t = type_of(n);
    if (t == "list" || t == "tuple") {
      size_t written = 0;
      for (TSNode e : named_children(n)) {
        ++written;
        if (type_of(e) == "list_splat" || type_of(e) == "parenthesized_list_splat") l.complete = false;
        else one(e);
      }
      // Items added to the named list later (append, +=): as the evaluator saw them.
      if (x->value.is_seq()) {
        if (!x->value.complete) l.complete = false;
        for (size_t i = written; i < x->value.items.size(); ++i) {
          const Value& v = x->value.items[i];
          if (v.is(K::Str)) l.items.push_back({v.text, v.span});
          else l.complete = false;
        }
      }
      return;
    }
    if (!ts_node_is_null(n) && !x->value.is_seq()) {
      one(n);
      return;
    }
    l = str_list(x->value, x->span, true);
  }

  bool b_expr(Span s, TSNode* out) const { return bindings_.expression_of(s, out); }

  Interpreter& in_;
  std::vector<JitBuild>& out_;
  detail::Bindings bindings_;
  bool star_ = false;  // from torch.utils.cpp_extension import *
};

}  // namespace

bool may_have_jit_builds(std::string_view text) {
  constexpr std::string_view kModule = "cpp_extension";
  bool named = false;
  for (size_t at = text.find(kModule); at != std::string_view::npos && !named; at = text.find(kModule, at + 1)) {
    const size_t end = at + kModule.size();
    const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    named = (at == 0 || !word(text[at - 1])) && (end == text.size() || !word(text[end]));
  }
  return named && text.find("load") != std::string_view::npos;
}

std::vector<JitBuild> find_jit_builds(std::string_view text) {
  std::vector<JitBuild> out;
  if (!may_have_jit_builds(text)) return out;
  if (text.size() > UINT32_MAX) return out;
  try {
    std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), &ts_parser_delete);
    if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) return out;
    std::unique_ptr<TSTree, decltype(&ts_tree_delete)> tree(
        ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())),
        &ts_tree_delete);
    if (!tree) return out;
    Interpreter in(text);
    JitFinder f(in, out);
    in.run(ts_tree_root_node(tree.get()), [&](TSNode stmt, Scope& scope, bool) { f.statement(stmt, scope); });
  } catch (const std::bad_alloc&) {
    // what was found so far
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const JitBuild& a, const JitBuild& b) { return a.call_span.begin < b.call_span.begin; });
  return out;
}

}  // namespace cudalint::python
