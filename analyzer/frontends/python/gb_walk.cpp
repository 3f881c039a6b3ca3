// Graph-break summaries: the walk over a function body. Statements in order, skipping what Dynamo
// does not trace on the compiled path (the untaken side of is_compiling()-style tests, `except`
// handlers, blocks that end by raising), with the undecided conditions each break sits under.
#include <algorithm>
#include <string>
#include <string_view>

#include "analyzer/frontends/python/gb_summarizer.h"

namespace cudalint::python::gb::detail {

namespace {

bool is_compiling_fn(std::string_view p) {
  return contains({"torch.compiler.is_compiling", "torch._dynamo.is_compiling", "torch._utils.is_compiling",
                   "torch.compiler.is_dynamo_compiling", "torch._dynamo.external_utils.is_compiling"},
                  p);
}

bool not_compiling_fn(std::string_view p) {
  return contains({"torch.jit.is_scripting", "torch.jit.is_tracing", "torch._C._get_tracing_state"}, p);
}

}  // namespace

// Cuts `s` to at most `max` bytes ending in "...", never inside a UTF-8 sequence.
void shorten(std::string& s, size_t max) {
  if (s.size() <= max) return;
  s.resize(max - 3);
  while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
  if (!s.empty() && (static_cast<unsigned char>(s.back()) & 0x80)) s.pop_back();
  s += "...";
}

std::string collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ' || c == '\\') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
    if (out.size() > kMaxWhat) break;
  }
  shorten(out, kMaxWhat);
  return out;
}

// ---- guards ----
// The value of a condition when Dynamo traces it: true/false for is_compiling()-style tests.
std::optional<bool> Summarizer::guard(TSNode cond, const FnContext& ctx, int depth) {
  cond = strip_parens(cond);
  if (depth > 20) return std::nullopt;
  std::string_view t = type_of(cond);
  if (t == "not_operator") {
    auto g = guard(field(cond, "argument"), ctx, depth + 1);
    if (g) return !*g;
    return std::nullopt;
  }
  if (t == "boolean_operator") {
    auto l = guard(field(cond, "left"), ctx, depth + 1);
    auto r = guard(field(cond, "right"), ctx, depth + 1);
    bool is_and = txt(field(cond, "operator")) == "and";
    if (is_and) {
      if ((l && !*l) || (r && !*r)) return false;
      if (l && r) return true;
    } else {
      if ((l && *l) || (r && *r)) return true;
      if (l && r) return false;
    }
    return std::nullopt;
  }
  if (t == "call") {
    Val c = eval(field(cond, "function"), ctx, 0);
    if (c.is(K::Path)) {
      if (is_compiling_fn(c.text)) return true;
      if (not_compiling_fn(c.text)) return false;
    }
    if (c.is(K::Func) && compiling_predicate(c.text)) return true;
  }
  return std::nullopt;
}

// A function of this file that returns `torch.compiler.is_compiling()` (or the like) and
// otherwise only False/None, as helpers written for older torch versions do:
//   def _is_compiling(): if hasattr(torch.compiler, "is_compiling"): return torch.compiler.is_compiling()
//                        return False
// Under Dynamo it returns True.
bool Summarizer::compiling_predicate(const std::string& qualname) {
  auto [it, fresh] = predicates_.try_emplace(qualname, false);
  if (!fresh) return it->second;
  if (int fi = def_index(qualname); fi >= 0) {
    const size_t i = static_cast<size_t>(fi);
    int compiling = 0;
    bool other = false;
    returns_of(field(defs_[i].node, "body"), 0, [&](TSNode value) {
      if (ts_node_is_null(value)) return;  // a bare `return`: None
      std::string_view vt = type_of(value);
      if (vt == "false" || vt == "none") return;
      if (vt == "call" && is_compiling_fn(collapse(txt(field(value, "function"))))) {
        ++compiling;
        return;
      }
      other = true;
    });
    it->second = compiling > 0 && !other;
  }
  return it->second;
}

// ---- statements ----
bool Summarizer::ends_with(TSNode block, std::initializer_list<std::string_view> types) {
  auto kids = named_children(block);
  return !kids.empty() && contains(types, type_of(kids.back()));
}

// Walks a block; returns false when the rest of the enclosing code does not run under compile.
bool Summarizer::walk_block(TSNode block, FnContext& ctx, int depth) {
  if (ts_node_is_null(block) || depth > kMaxDepth) return true;
  for (TSNode st : named_children(block)) {
    if (!spend()) return false;
    if (!walk_stmt(st, ctx, depth)) return false;
  }
  return true;
}

bool Summarizer::walk_stmt(TSNode st, FnContext& ctx, int depth) {
  std::string_view t = type_of(st);
  if (t == "expression_statement") {
    statement_expr(st, ctx, false);
  } else if (t == "return_statement") {
    for (TSNode c : named_children(st)) scan(c, ctx, depth + 1);
    // A nested_compile_region function may not return an input as it is (an alias).
    auto kids = named_children(st);
    if (kids.size() == 1 && is_input(kids[0]) && fn_ >= 0 && static_cast<size_t>(fn_) < defs_.size()) {
      bool region = false;
      TSNode dec = defs_[static_cast<size_t>(fn_)].decorated;
      if (!ts_node_is_null(dec))
        for (TSNode d : named_children(dec))
          region |= type_of(d) == "decorator" && dotted(d).find("nested_compile_region") != std::string::npos;
      if (region)
        brk(rule_id::kUnsupportedTorchFunction, Gate::Always, st, "GB0040",
            "a `nested_compile_region` function returning its input unchanged");
    }
    // A factory: `return Model(cfg)` / `return cls(...)` / `return build_block`.
    if (ctx.fn >= 0 && kids.size() == 1) {
      Val v = eval(kids[0], ctx, depth + 1);
      auto& rs = out_.functions[static_cast<size_t>(ctx.fn)].returns;
      bool keep = v.is(K::Instance) || v.is(K::Class) || v.is(K::Func) || v.is(K::Path) || v.is(K::Attr);
      if (keep && rs.size() < kMaxReturns) rs.push_back(std::move(v));
    }
    return false;
  } else if (t == "raise_statement") {
    raised(st, ctx);
    return false;
  } else if (t == "global_statement") {
    for (TSNode c : named_children(st))
      if (type_of(c) == "identifier") global_names_.emplace(txt(c));
  } else if (t == "pass_statement" || t == "break_statement" ||
             t == "continue_statement" || t == "nonlocal_statement") {
    return true;
  } else if (t == "assert_statement") {
    // Dynamo turns a tensor assert with a constant message (or none) into a runtime check;
    // only the condition's calls matter then.
    auto kids = named_children(st);
    if (!kids.empty()) scan(kids[0], ctx, depth + 1);
    if (kids.size() >= 2) {
      TSNode msg = strip_parens(kids[1]);  // evaluated only when the assert fails: not scanned
      std::string_view mt = type_of(msg);
      bool text = mt == "string" || mt == "concatenated_string";
      bool formatted = false;  // an f-string, or one in a concatenation
      for (TSNode c : named_children(msg)) {
        formatted |= type_of(c) == "interpolation";
        for (TSNode g : named_children(c)) formatted |= type_of(g) == "interpolation";
      }
      // Any other message: the assert stays a Python branch, on a tensor a data-dependent one.
      if (!text || formatted) truth_test(kids[0], ctx, depth + 1);
      // A failed assert builds AssertionError(message); Dynamo takes only a string there. It
      // matters where a handler catches it (elsewhere the program stops anyway).
      if (!text && assert_caught_ > 0) {
        WhenScope when_fails(*this, "not (" + condition_text(kids[0]) + ")");
        brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, msg, "GB0171",
            "an assert whose message is not a string, in a `try` that catches AssertionError");
      }
    }
  } else if (t == "delete_statement") {
    for (TSNode c : named_children(st)) scan(c, ctx, depth + 1, true);
  } else if (t == "import_statement" || t == "import_from_statement") {
    import(st, ctx.scope);
  } else if (t == "if_statement") {
    return walk_if(st, ctx, depth);
  } else if (t == "while_statement") {
    TSNode cond = field(st, "condition");
    auto g = guard(cond, ctx);
    if (!g) {
      truth_test(cond, ctx, depth + 1);
      scan(cond, ctx, depth + 1);
    }
    if (!g || *g) {
      ++loop_depth_;
      walk_block(field(st, "body"), ctx, depth + 1);
      --loop_depth_;
    }
  } else if (t == "for_statement") {
    scan(field(st, "right"), ctx, depth + 1);
    // A module-level set of tensors: Dynamo cannot wrap it (a set made here it can).
    if (TSNode r = strip_parens(field(st, "right")); type_of(r) == "identifier" && ctx.scope &&
        !ctx.scope->vars.count(txt(r)) && !is_input(r)) {
      Val v = eval(r, ctx, depth + 1);
      if (v.is(K::List) && v.text == "set" &&
          std::any_of(v.items.begin(), v.items.end(), [](const Val& e) { return e.is(K::Tensor); }))
        brk(rule_id::kUnsupportedPythonConstruct, Gate::Always, r, "GB0222", "iterating a global set of tensors");
    }
    bind_for(st, ctx, depth + 1);
    ++loop_depth_;
    walk_block(field(st, "body"), ctx, depth + 1);
    --loop_depth_;
    TSNode alt = field(st, "alternative");
    if (!ts_node_is_null(alt))
      for (TSNode b : named_children(alt))
        if (type_of(b) == "block") walk_block(b, ctx, depth + 1);
  } else if (t == "with_statement") {
    for (TSNode c : named_children(st)) {
      if (type_of(c) == "with_clause") {
        for (TSNode item : named_children(c)) {
          TSNode v = field(item, "value");
          if (ts_node_is_null(v)) continue;
          if (type_of(v) == "as_pattern") {
            auto kids = named_children(v);
            if (!kids.empty()) {
              scan(kids[0], ctx, depth + 1);
              context_manager(kids[0], ctx);
            }
            TSNode alias = field(v, "alias");
            if (!ts_node_is_null(alias)) {
              auto ak = named_children(alias);
              if (!ak.empty()) bind_target(ak[0], Val{}, ctx, false);
            }
          } else {
            scan(v, ctx, depth + 1);
            context_manager(v, ctx);
          }
        }
      }
    }
    return walk_block(field(st, "body"), ctx, depth + 1);
  } else if (t == "try_statement") {
    // `except` handlers run only when something raised: not on the traced path, unless the
    // body ends by raising, when Dynamo traces the handler that catches it.
    bool catches_assert = false;
    for (TSNode c : named_children(st)) {
      if (type_of(c) != "except_clause") continue;
      TSNode value = except_type(c);
      std::vector<TSNode> names = {value};
      if (!ts_node_is_null(value) && type_of(strip_parens(value)) == "tuple") {
        names.clear();
        for (TSNode e : named_children(strip_parens(value))) names.push_back(e);
      }
      for (TSNode v : names)
        catches_assert |= ts_node_is_null(v) || contains({"AssertionError", "Exception", "BaseException"}, dotted(v));
    }
    assert_caught_ += catches_assert;
    bool go = walk_block(field(st, "body"), ctx, depth + 1);
    assert_caught_ -= catches_assert;
    if (TSNode h = handler_of_raise(st); !ts_node_is_null(h)) {
      // `except E as e`: an alias field, or (this grammar) an as_pattern whose target names it.
      TSNode alias = field(h, "alias");
      TSNode value = field(h, "value");
      if (ts_node_is_null(alias) && type_of(value) == "as_pattern") {
        TSNode target = field(value, "alias");
        if (!ts_node_is_null(target) && !named_children(target).empty()) alias = named_children(target)[0];
      }
      if (!ts_node_is_null(alias) && type_of(alias) == "identifier")
        bind_target(alias, Val::wrap(K::Instance, Val::of(K::Path, "builtins.BaseException")), ctx, false);
      for (TSNode b : named_children(h))
        if (type_of(b) == "block") go = walk_block(b, ctx, depth + 1);
    } else if (!go) {
      // A clause this walk cannot match to the raise (a tuple, a base class) may still catch it:
      // the code after the try is taken as reached rather than dropped.
      for (TSNode c : named_children(st))
        if (type_of(c) == "except_clause") go = true;
    }
    for (TSNode c : named_children(st)) {
      std::string_view ct = type_of(c);
      if (ct == "else_clause" || ct == "finally_clause")
        for (TSNode b : named_children(c))
          if (type_of(b) == "block") walk_block(b, ctx, depth + 1);
    }
    return go;
  } else if (t == "decorated_definition" && type_of(field(st, "definition")) == "class_definition") {
    brk(rule_id::kClassDefinedInCompiledCode, Gate::Always, field(field(st, "definition"), "name"), "GB0007");
  } else if (t == "function_definition" || t == "decorated_definition") {
    nested_def(st, ctx, depth);
  } else if (t == "class_definition") {
    brk(rule_id::kClassDefinedInCompiledCode, Gate::Always, field(st, "name"), "GB0007");
  } else if (t == "match_statement") {
    scan(field(st, "subject"), ctx, depth + 1);
    TSNode body = field(st, "body");
    std::string subject = condition_text(field(st, "subject"));
    if (!ts_node_is_null(body))
      for (TSNode c : named_children(body)) {
        if (type_of(c) != "case_clause") continue;
        std::string pattern;
        for (TSNode k : named_children(c))
          if (type_of(k) == "case_pattern") pattern += (pattern.empty() ? "" : ", ") + collapse(txt(k));
        WhenScope when_case(*this, pattern.empty() || pattern == "_" ? std::string()
                                                                      : subject + " matches " + pattern);
        walk_block(field(c, "consequence"), ctx, depth + 1);
      }
  }
  return true;
}

// The `except` clause that catches a try body's closing `raise`: the first whose class is the
// raised one's name, or Exception/BaseException, or a bare `except:`. Null when the body does not
// end by raising or no clause is certain to catch it.
TSNode Summarizer::except_type(TSNode clause) {
  TSNode value = field(clause, "value");
  if (!ts_node_is_null(value) && type_of(value) == "as_pattern" && !named_children(value).empty())
    value = named_children(value)[0];
  return value;
}

TSNode Summarizer::handler_of_raise(TSNode try_st) const {
  auto body = named_children(field(try_st, "body"));
  if (body.empty() || type_of(body.back()) != "raise_statement") return {};
  auto raised = named_children(body.back());
  if (raised.empty()) return {};
  TSNode exc = strip_parens(raised[0]);
  if (type_of(exc) == "call") exc = field(exc, "function");
  std::string name = dotted(exc);
  for (TSNode c : named_children(try_st)) {
    if (type_of(c) != "except_clause") continue;
    TSNode value = except_type(c);
    if (ts_node_is_null(value)) return c;
    std::string v = dotted(value);
    if (v == name || v == "Exception" || v == "BaseException") return c;
  }
  return {};
}

bool Summarizer::walk_if(TSNode st, FnContext& ctx, int depth) {
  TSNode cond = field(st, "condition");
  TSNode body = field(st, "consequence");
  auto g = guard(cond, ctx);
  if (!g) {
    truth_test(cond, ctx, depth + 1);
    scan(cond, ctx, depth + 1);
  }
  bool body_cold = ends_with(body, {"raise_statement"});
  bool body_continues = true;
  // `if p:` / `if p and ...:` on a parameter that defaults to a falsy constant.
  std::string needs;
  if (!g) {
    TSNode c = strip_parens(cond);
    if (type_of(c) == "boolean_operator" && txt(field(c, "operator")) == "and") c = strip_parens(field(c, "left"));
    if (type_of(c) == "identifier" && falsy_params_.count(std::string(txt(c)))) needs = std::string(txt(c));
  }
  if (!needs.empty()) needs_.push_back(needs);
  WhenScope when_body(*this, g ? std::string() : condition_text(cond));
  if ((!g || *g) && !body_cold) body_continues = walk_block(body, ctx, depth + 1);
  when_body.pop();
  if (!needs.empty()) needs_.pop_back();
  if (g && *g) return body_continues;  // alternatives are dead when compiling
  // The conditions an `elif`/`else` adds: the undecided ones before it, negated.
  std::string before = g ? std::string() : "not (" + condition_text(cond) + ")";
  for (TSNode alt : named_children(st)) {
    std::string_view at = type_of(alt);
    if (at == "elif_clause") {
      TSNode c2 = field(alt, "condition");
      auto g2 = guard(c2, ctx);
      if (!g2) {
        truth_test(c2, ctx, depth + 1);
        scan(c2, ctx, depth + 1);
      }
      TSNode b2 = field(alt, "consequence");
      WhenScope when_alt(*this, g2 ? before : both(before, condition_text(c2)));
      if ((!g2 || *g2) && !ends_with(b2, {"raise_statement"})) walk_block(b2, ctx, depth + 1);
      if (g2 && *g2) return true;
      if (!g2) before = both(before, "not (" + condition_text(c2) + ")");
    } else if (at == "else_clause") {
      TSNode b2 = field(alt, "body");
      WhenScope when_else(*this, before);
      if (!ends_with(b2, {"raise_statement"})) {
        bool cont = walk_block(b2, ctx, depth + 1);
        if (g && !*g) return cont;
      }
    }
  }
  return true;
}

// `a and b` of two condition texts (either may be empty), shortened.
std::string Summarizer::both(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a.empty() ? b : a;
  std::string c = a + " and " + b;
  shorten(c, 120);
  return c;
}

// The text of a condition for "only when `...`" (one line, shortened by collapse).
std::string Summarizer::condition_text(TSNode cond) const { return collapse(txt(strip_parens(cond))); }

}  // namespace cudalint::python::gb::detail
