// Static evaluator (see py_eval.h): expressions (literals, names, containers, operators,
// comparisons, strings). Calls are in py_calls.cpp, statements in py_statements.cpp.
#include "analyzer/frontends/python/py_eval.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <vector>

#include "analyzer/frontends/python/py_eval_internal.h"

namespace cudalint::python {

using namespace detail;

namespace {

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Python's string escapes. nullopt for `\N{...}` (it needs the Unicode name table) and for
// malformed or non-scalar code points.
std::optional<std::string> unescape(std::string_view s, bool raw, bool fstring) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (fstring && (c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= s.size()) {
      out += c;
      continue;
    }
    char e = s[++i];
    switch (e) {
      case '\n': break;  // a backslash-newline continues the literal
      case '\r':
        if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
        break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x':
      case 'u':
      case 'U': {
        size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t k = 1; k <= digits; ++k) {
          if (i + k >= s.size()) return std::nullopt;
          int d = hex_digit(s[i + k]);
          if (d < 0) return std::nullopt;
          cp = cp * 16 + static_cast<uint32_t>(d);
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
        append_utf8(out, cp);
        i += digits;
        break;
      }
      case 'N': return std::nullopt;
      default:
        if (e >= '0' && e <= '7') {
          uint32_t cp = static_cast<uint32_t>(e - '0');
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
            cp = cp * 8 + static_cast<uint32_t>(s[++i] - '0');
          append_utf8(out, cp);
        } else {
          out += '\\';  // unknown escapes keep their backslash
          out += e;
        }
    }
  }
  return out;
}

std::optional<int64_t> parse_int(std::string_view s) {
  std::string digits;
  for (char c : s)
    if (c != '_') digits += c;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string_view Interpreter::text(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > text_.size() || e > text_.size() || b > e) return {};
  return text_.substr(b, e - b);
}

Value Interpreter::copy_of(const Value& v, Span use) {
  budget_ -= v.weight;
  Value r = v;
  if (r.is_code()) r.span = use;  // a name of code is reported where it is used
  return r;
}

std::optional<std::string> Interpreter::path_of(TSNode n, const Scope& scope) const {
  std::vector<std::string_view> parts;
  TSNode cur = n;
  while (type_of(cur) == "attribute") {
    if (parts.size() >= 64) return std::nullopt;
    parts.push_back(text(field(cur, "attribute")));
    cur = field(cur, "object");
  }
  if (type_of(cur) != "identifier") return std::nullopt;
  std::string path;
  if (const Value* v = scope.find(text(cur))) {
    if (!v->is(K::Ref)) return std::nullopt;
    path = v->text;
  } else {
    path = std::string(text(cur));
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    path += '.';
    path += *it;
  }
  return path;
}

const Value* Interpreter::peek(TSNode n, Scope& scope) {
  Guard g(*this);
  if (!g.ok()) return nullptr;
  std::string_view t = type_of(n);
  if (t == "identifier") return scope.find(text(n));
  if (t == "parenthesized_expression") {
    auto kids = named_children(n);
    return kids.size() == 1 ? peek(kids[0], scope) : nullptr;
  }
  if (t != "subscript" || named_children(n).size() != 2) return nullptr;
  const Value* base = peek(field(n, "value"), scope);
  if (!base) return nullptr;
  TSNode key_node = field(n, "subscript");
  if (type_of(key_node) == "slice") return nullptr;
  Value key = eval(key_node, scope);
  if (base->is(K::Dict) && key.is(K::Str)) return base->find(key.text);
  if (base->is_seq() && base->complete && key.is(K::Int)) {
    int64_t i = key.number < 0 ? key.number + static_cast<int64_t>(base->items.size()) : key.number;
    if (i >= 0 && i < static_cast<int64_t>(base->items.size())) return &base->items[static_cast<size_t>(i)];
  }
  return nullptr;
}

Value Interpreter::eval(TSNode n, Scope& scope) {
  Span sp = span_of(n);
  if (ts_node_is_null(n)) return Value::unknown(sp);
  Guard g(*this);
  if (!g.ok()) return Value::unknown(sp);
  std::string_view t = type_of(n);
  // Literals cost what their text costs, so they stay known (an environment variable's name, an
  // extension's) after the budget for everything else has run out.
  bool literal = t == "string" || t == "concatenated_string" || t == "integer" || t == "none" || t == "true" ||
                 t == "false";
  if (!literal && exhausted()) return Value::unknown(sp);
  --budget_;

  if (t == "string") return eval_string(n, scope);
  if (t == "concatenated_string") {
    std::string s;
    bool ok = true;
    for_each_named(n, [&](TSNode c) {
      Value part = eval(c, scope);
      ok = part.is(K::Str) && s.size() + part.text.size() <= kMaxStrBytes;
      if (ok) s += part.text;
      return ok;
    });
    return ok ? Value::string(std::move(s), sp) : Value::unknown(sp);
  }
  if (t == "identifier") {
    if (const Value* v = scope.find(text(n))) return v->is(K::Ref) ? known_ref(copy_of(*v, sp)) : copy_of(*v, sp);
    return Value::ref(std::string(text(n)), sp);  // a builtin, or a name from `import *`
  }
  if (t == "none") return Value::none(sp);
  if (t == "true" || t == "false") return Value::boolean(t == "true", sp);
  if (t == "integer") {
    if (auto v = parse_int(text(n))) return Value::integer(*v, sp);
    return Value::unknown(sp);
  }
  if (t == "unary_operator") {
    Value v = eval(field(n, "argument"), scope);
    if (v.is(K::Int) && text(field(n, "operator")) == "-") return Value::integer(-v.number, sp);
    return Value::unknown(sp);
  }
  if (t == "parenthesized_expression") {
    auto kids = named_children(n);
    return kids.size() == 1 ? eval(kids[0], scope) : Value::unknown(sp);
  }
  if (t == "attribute") {
    if (auto p = path_of(n, scope)) return known_ref(Value::ref(std::move(*p), sp));
    return Value::unknown(sp);
  }
  if (t == "list" || t == "tuple" || t == "expression_list") {
    Value out = Value::seq(t == "list" ? K::List : K::Tuple, sp);
    for_each_named(n, [&](TSNode c) {
      std::string_view ct = type_of(c);
      if (ct == "list_splat" || ct == "parenthesized_list_splat") {
        auto kids = named_children(c);
        Value inner = kids.empty() ? Value::unknown() : eval(kids[0], scope);
        if (!inner.is_seq()) {
          out.complete = false;
          return true;
        }
        for (Value& x : inner.items)
          if (!out.push(std::move(x))) return false;
        if (!inner.complete) out.complete = false;
        return true;
      }
      return out.push(eval(c, scope));  // past the size limit the rest is not evaluated
    });
    return out;
  }
  if (t == "dictionary") {
    Value out = Value::dict(sp);
    for_each_named(n, [&](TSNode c) {
      if (type_of(c) == "dictionary_splat") {
        auto kids = named_children(c);
        Value inner = kids.empty() ? Value::unknown() : eval(kids[0], scope);
        if (!inner.is(K::Dict)) {
          out.complete = false;
          return true;
        }
        for (size_t i = 0; i < inner.keys.size(); ++i)
          if (!out.put(inner.keys[i], std::move(inner.items[i]))) return false;
        if (!inner.complete) out.complete = false;
        return true;
      }
      if (type_of(c) != "pair") {
        out.complete = false;
        return true;
      }
      Value key = eval(field(c, "key"), scope);
      if (!key.is(K::Str)) {
        out.complete = false;
        return true;
      }
      return out.put(std::move(key.text), eval(field(c, "value"), scope));
    });
    return out;
  }
  if (t == "binary_operator") {
    if (text(field(n, "operator")) != "+") return Value::unknown(sp);
    Value l = eval(field(n, "left"), scope);
    Value r = eval(field(n, "right"), scope);
    return add(l, r, sp);
  }
  if (t == "boolean_operator") {
    // Only a left operand whose truth is known decides; otherwise the result depends on runtime.
    Value l = eval(field(n, "left"), scope);
    std::optional<bool> known = truth(l);
    if (!known) return Value::unknown(sp);
    bool is_or = text(field(n, "operator")) == "or";
    if (*known == is_or) return l;
    return eval(field(n, "right"), scope);
  }
  if (t == "not_operator") {
    std::optional<bool> known = truth(eval(field(n, "argument"), scope));
    return known ? Value::boolean(!*known, sp) : Value::unknown(sp);
  }
  if (t == "comparison_operator") return eval_comparison(n, scope);
  if (t == "subscript") {
    if (const Value* p = peek(n, scope)) return copy_of(*p, sp);
    // `f(x)[0]`, `out[i]` with a computed index: the value, then the element.
    TSNode key = field(n, "subscript");
    if (named_children(n).size() != 2 || type_of(key) == "slice") return Value::unknown(sp);
    return index_value(eval(field(n, "value"), scope), eval(key, scope), sp);
  }
  if (t == "list_comprehension") return eval_comprehension(n, scope);
  if (t == "call") return eval_call(n, scope);
  if (t == "conditional_expression") {
    // `a if c else b`: the branch a known condition picks, else what either may be.
    auto kids = named_children(n);
    if (kids.size() != 3) return Value::unknown(sp);
    std::optional<bool> known = truth(eval(kids[1], scope));
    if (known) return eval(kids[*known ? 0 : 2], scope);
    return merge(eval(kids[0], scope), eval(kids[2], scope));
  }
  // comprehensions, lambdas, ...: runtime values.
  return Value::unknown(sp);
}

std::optional<std::string> comparison_operator(TSNode n) {
  std::string op;
  int tokens = 0;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode ch = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(ch)) {
        ++tokens;
        op = op.empty() ? std::string(type_of(ch)) : op + " " + std::string(type_of(ch));
      }
    } while (tokens < 3 && ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  // `not in` and `is not` are one operator of two tokens, or one token, by grammar version.
  if (named_children(n).size() != 2 || op.empty() || (tokens != 1 && op != "not in" && op != "is not"))
    return std::nullopt;
  return op;
}

Value Interpreter::eval_comparison(TSNode n, Scope& scope) {
  // `a == b`, `a != b`, `a is None`, `a is not None` on known scalars; orderings and membership
  // as compare_values decides them; chains: unknown.
  Span sp = span_of(n);
  auto cmp = comparison_operator(n);
  if (!cmp) return Value::unknown(sp);
  const std::string& op = *cmp;
  NodeList operands = named_children(n);
  Value a = eval(operands[0], scope);
  Value b = eval(operands[1], scope);
  if (op == "<" || op == "<=" || op == ">" || op == ">=" || op == "in" || op == "not in") {
    auto r = compare_values(op, a, b);
    return r ? Value::boolean(*r, sp) : Value::unknown(sp);
  }
  auto scalar = [](const Value& v) {
    return v.is(K::None) || v.is(K::Bool) || v.is(K::Int) || v.is(K::Str);
  };
  if (!scalar(a) || !scalar(b)) return Value::unknown(sp);
  std::optional<bool> equal;
  if (a.kind == b.kind) equal = a.flag == b.flag && a.number == b.number && a.text == b.text;
  else if (a.is(K::None) || b.is(K::None)) equal = false;
  if (!equal) return Value::unknown(sp);  // 1 == True and friends
  if (op == "==" || (op == "is" && (a.is(K::None) || b.is(K::None)))) return Value::boolean(*equal, sp);
  if (op == "!=" || (op == "is not" && (a.is(K::None) || b.is(K::None)))) return Value::boolean(!*equal, sp);
  return Value::unknown(sp);
}

Value Interpreter::add(const Value& a, const Value& b, Span sp) {
  if (a.is(K::Str) && b.is(K::Str)) return Value::string(a.text + b.text, sp);
  if (a.is(K::Int) && b.is(K::Int)) return Value::integer(a.number + b.number, sp);
  auto opaque = [](const Value& v) { return v.is(K::Unknown) || v.is(K::Ref); };
  if (a.is_seq() && (b.kind == a.kind || opaque(b))) {
    Value r;
    r.items.reserve(std::min<size_t>(a.items.size() + b.items.size(), kMaxWeight));
    r = a;
    r.span = sp;
    budget_ -= static_cast<int64_t>(b.items.size());
    for (const Value& x : b.items)
      if (!r.push(x)) break;
    if (b.kind != a.kind || !b.complete) r.complete = false;
    return r;
  }
  if (b.is_seq() && opaque(a)) {
    // Unknown items come first; the known ones are still reported.
    Value r = b;
    r.span = sp;
    r.complete = false;
    return r;
  }
  return Value::unknown(sp);
}

Value Interpreter::eval_string(TSNode n, Scope& scope) {
  Span sp = span_of(n);
  std::string out;
  bool raw = false, fstring = false, ok = true;
  for_each_named(n, [&](TSNode c) {
    std::string_view ct = type_of(c);
    if (ct == "string_start") {
      std::string_view s = text(c);
      for (char ch : s.substr(0, s.find_first_of("'\""))) {
        char l = static_cast<char>(ch | 0x20);
        if (l == 'r') raw = true;
        else if (l == 'f') fstring = true;
        else if (l != 'u') ok = false;  // bytes and template strings are not str
      }
    } else if (ct == "string_content") {
      auto s = unescape(text(c), raw, fstring);
      ok = s.has_value();
      if (ok) out += *s;
    } else if (ct == "interpolation") {
      // `{name}` is static when the name is a known string with no conversion or format spec.
      TSNode conv = field(c, "type_conversion");
      ok = fstring && ts_node_is_null(field(c, "format_specifier")) &&
           (ts_node_is_null(conv) || text(conv) == "!s");
      if (ok) {
        Value v = eval(field(c, "expression"), scope);
        ok = v.is(K::Str);
        if (ok) out += v.text;
      }
    } else if (ct != "string_end") {
      ok = false;  // ERROR inside the literal
    }
    return ok && out.size() <= kMaxStrBytes;
  });
  if (!ok) return Value::unknown(sp);
  return Value::string(std::move(out), sp);
}

}  // namespace cudalint::python
