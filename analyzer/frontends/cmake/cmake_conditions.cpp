// CMake front-end, evaluator: if()/elseif()/while() conditions, three-valued (undecidable tests
// are Unknown, and both branches then run).
#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "analyzer/frontends/cmake/cmake_evaluator.h"

namespace cudalint::cmake::detail {

class Evaluator::Cond {
 public:
  Cond(const Evaluator& ev, const std::vector<Arg>& t) : ev_(ev), t_(t) {}
  Tri run() {
    Tri v = or_();
    return bad_ || p_ != t_.size() ? Tri::Unknown : v;
  }

 private:
  bool kw(size_t i, std::string_view k) const { return i < t_.size() && !t_[i].quoted && t_[i].text == k; }
  bool unary(size_t i) const {
    static constexpr std::string_view k[] = {"EXISTS",      "COMMAND",     "DEFINED",     "POLICY",
                                             "TARGET",      "TEST",        "IS_DIRECTORY", "IS_SYMLINK",
                                             "IS_ABSOLUTE", "IS_READABLE", "IS_WRITABLE", "IS_EXECUTABLE"};
    return i < t_.size() && !t_[i].quoted && std::find(std::begin(k), std::end(k), t_[i].text) != std::end(k);
  }
  bool binary(size_t i) const {
    static constexpr std::string_view k[] = {
        "EQUAL",         "LESS",          "LESS_EQUAL",          "GREATER",          "GREATER_EQUAL",
        "STREQUAL",      "STRLESS",       "STRLESS_EQUAL",       "STRGREATER",       "STRGREATER_EQUAL",
        "VERSION_EQUAL", "VERSION_LESS",  "VERSION_LESS_EQUAL",  "VERSION_GREATER",  "VERSION_GREATER_EQUAL",
        "MATCHES",       "IN_LIST",       "PATH_EQUAL",          "IS_NEWER_THAN"};
    return i < t_.size() && !t_[i].quoted && std::find(std::begin(k), std::end(k), t_[i].text) != std::end(k);
  }

  Tri or_() {
    Tri v = and_();
    while (!bad_ && kw(p_, "OR")) {
      ++p_;
      v = tri_or(v, and_());
    }
    return v;
  }
  Tri and_() {
    Tri v = not_();
    while (!bad_ && kw(p_, "AND")) {
      ++p_;
      v = tri_and(v, not_());
    }
    return v;
  }
  Tri not_() {
    size_t n = 0;
    while (kw(p_, "NOT")) ++p_, ++n;  // counted, not recursed
    Tri v = primary();
    return n % 2 ? tri_not(v) : v;
  }
  Tri primary() {
    if (p_ >= t_.size()) {
      bad_ = true;
      return Tri::Unknown;
    }
    if (kw(p_, "(")) {
      if (++depth_ > kMaxCondParens) {
        bad_ = true;
        p_ = t_.size();
        return Tri::Unknown;
      }
      ++p_;
      Tri v = or_();
      if (kw(p_, ")")) ++p_;
      else bad_ = true;
      --depth_;
      return v;
    }
    if (unary(p_) && p_ + 1 < t_.size()) {
      const Arg& op = t_[p_];
      const Arg& a = t_[p_ + 1];
      p_ += 2;
      return ev_.unary_op(op.text, a);
    }
    const Arg& a = t_[p_++];
    if (binary(p_)) {
      if (p_ + 1 >= t_.size()) {
        bad_ = true;
        return Tri::Unknown;
      }
      const Arg& op = t_[p_];
      const Arg& b = t_[p_ + 1];
      p_ += 2;
      return ev_.binary_op(a, op.text, b);
    }
    return ev_.truth(a);
  }

  const Evaluator& ev_;
  const std::vector<Arg>& t_;
  size_t p_ = 0;
  int depth_ = 0;
  bool bad_ = false;
};

// if(<arg>) alone.
Tri Evaluator::truth(const Arg& a) const {
  if (a.uncertain) return Tri::Unknown;
  if (is_true_constant(a.text)) return Tri::True;
  if (is_false_constant(a.text)) return Tri::False;
  if (auto d = as_number(a.text)) return tri(*d != 0);
  if (a.quoted) return Tri::False;  // CMP0054: a quoted string is never a variable name
  const Var* v = resolve(a.text);
  if (holds_cuda_default(v)) return Tri::True;  // never empty
  if (v) return v->uncertain ? Tri::Unknown : tri(!is_false_constant(v->value));
  // Named as written, it may come from the command line; built from variables, it is a
  // string that names no variable.
  return a.plain ? Tri::Unknown : Tri::False;
}

// An operand of a binary test, auto-dereferenced like CMake does; nullopt when unknown.
std::optional<std::string> Evaluator::operand(const Arg& a, bool left) const {
  if (a.uncertain) return std::nullopt;
  if (a.quoted) return a.text;
  if (const Var* v = resolve(a.text)) {
    if (v->uncertain) return std::nullopt;
    return v->value;
  }
  const Entry* e = find_entry(a.text, scopes_.size() - 1);
  if (e && e->state == Entry::State::Unknown) return std::nullopt;
  // An undefined upper-case name on the left is almost always a variable set outside (a
  // cache entry from the command line); on the right, or in lower case, it is a literal.
  bool upper_case = std::any_of(a.text.begin(), a.text.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
  if (a.plain && (left ? is_identifier(a.text) && upper_case : a.text.starts_with("CMAKE_"))) return std::nullopt;
  return a.text;
}

Tri Evaluator::unary_op(const std::string& op, const Arg& a) const {
  if (op == "DEFINED") {
    std::string_view n = a.text;
    if (n.starts_with("ENV{") && n.ends_with('}')) {
      auto it = env_.find(std::string(n.substr(4, n.size() - 5)));
      if (it == env_.end()) return Tri::Unknown;
      return tri(it->second.has_value());
    }
    if (n.starts_with("CACHE{") && n.ends_with('}'))
      return cache_.count(std::string(n.substr(6, n.size() - 7))) ? Tri::True : Tri::Unknown;
    if (a.uncertain) return Tri::Unknown;
    return resolve(a.text) ? Tri::True : Tri::Unknown;
  }
  if (op == "COMMAND") return callables_.count(lower(a.text)) ? Tri::True : Tri::Unknown;
  if (op == "IS_ABSOLUTE") {
    if (a.uncertain) return Tri::Unknown;
    std::string_view p = a.text;
    return tri(p.starts_with('/') || p.starts_with('~') || (p.size() > 2 && p[1] == ':' && (p[2] == '/' || p[2] == '\\')));
  }
  return Tri::Unknown;  // the file system, targets, tests and policies are not modelled
}

Tri Evaluator::binary_op(const Arg& a, const std::string& op, const Arg& b) const {
  if (op == "MATCHES" || op == "PATH_EQUAL" || op == "IS_NEWER_THAN") return Tri::Unknown;
  if (op == "IN_LIST") {
    auto x = operand(a, true);
    const Var* list = b.uncertain ? nullptr : resolve(b.text);
    if (!x || !list || list->uncertain) return Tri::Unknown;
    auto items = split_charged(list->value, true);
    return tri(std::find(items.begin(), items.end(), *x) != items.end());
  }
  auto x = operand(a, true), y = operand(b, false);
  if (!x || !y) return Tri::Unknown;
  if (op.starts_with("VERSION_")) {
    int c = version_compare(*x, *y);
    std::string_view r = std::string_view(op).substr(8);
    return tri(r == "EQUAL" ? c == 0 : r == "LESS" ? c < 0 : r == "GREATER" ? c > 0 : r == "LESS_EQUAL" ? c <= 0 : c >= 0);
  }
  if (op.starts_with("STR")) {
    int c = x->compare(*y);
    std::string_view r = std::string_view(op).substr(3);
    return tri(r == "EQUAL" ? c == 0 : r == "LESS" ? c < 0 : r == "GREATER" ? c > 0 : r == "LESS_EQUAL" ? c <= 0 : c >= 0);
  }
  // Numeric tests: a value that is not a number compares false, as in CMake.
  auto num = [](const std::string& s) -> std::optional<double> {
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) return std::nullopt;
    return d;
  };
  auto m = num(*x), n = num(*y);
  if (!m || !n) return Tri::False;
  return tri(op == "EQUAL" ? *m == *n : op == "LESS" ? *m < *n : op == "GREATER" ? *m > *n : op == "LESS_EQUAL" ? *m <= *n : *m >= *n);
}

Tri Evaluator::condition(const Command& c, const Ctx& ctx) {
  auto args = expand_args(c, ctx, 0, true);
  if (args.empty()) return Tri::False;
  return Cond(*this, args).run();
}

}  // namespace cudalint::cmake::detail
