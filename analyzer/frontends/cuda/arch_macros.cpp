#include "analyzer/frontends/cuda/arch_macros.h"

#include <cctype>

#include <fmt/format.h>

namespace cudalint::cuda {

const std::vector<std::pair<std::string, std::string>>& nv_target_queries() {
  static const std::vector<std::pair<std::string, std::string>> queries = [] {
    std::vector<std::pair<std::string, std::string>> q;
    for (int s : {35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121}) {
      q.emplace_back(fmt::format("__CL_NV_NV_PROVIDES_SM_{}", s),
                     fmt::format("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {}0", s));
      q.emplace_back(fmt::format("__CL_NV_NV_IS_EXACTLY_SM_{}", s),
                     fmt::format("defined(__CUDA_ARCH__) && __CUDA_ARCH__ == {}0", s));
    }
    for (int s : {90, 100, 101, 103, 110, 120, 121}) {
      q.emplace_back(fmt::format("__CL_NV_NV_HAS_FEATURE_SM_{}a", s), fmt::format("defined(__CUDA_ARCH_FEAT_SM{}_ALL)", s));
      q.emplace_back(fmt::format("__CL_NV_NV_HAS_FEATURE_SM_{}f", s),
                     fmt::format("defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ >= {0}0 && "
                                 "__CUDA_ARCH_FAMILY_SPECIFIC__ / 100 == {1}",
                                 s, s / 10));
    }
    return q;
  }();
  return queries;
}

std::optional<MacroState> arch_macro(std::string_view name, const domain::Arch& arch) {
  const long long v = arch.sm() * 10LL;
  if (name == "__CUDA_ARCH__") return MacroState{true, v};
  if (name == "__CUDA_ARCH_SPECIFIC__") return arch.suffix == 'a' ? MacroState{true, v} : MacroState{};
  if (name == "__CUDA_ARCH_FAMILY_SPECIFIC__")
    return arch.suffix == 'a' || arch.suffix == 'f' ? MacroState{true, v} : MacroState{};
  constexpr std::string_view feat = "__CUDA_ARCH_FEAT_SM", all = "_ALL";
  if (name.starts_with(feat) && name.ends_with(all) && name.size() > feat.size() + all.size()) {
    std::string_view digits = name.substr(feat.size(), name.size() - feat.size() - all.size());
    int n = 0;
    for (char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || n > 100000) return std::nullopt;
      n = n * 10 + (c - '0');
    }
    return arch.suffix == 'a' && n == arch.sm() ? MacroState{true, 1} : MacroState{};
  }
  if (name.starts_with("__CL_NV_"))
    for (const auto& [q, cond] : nv_target_queries())
      if (q == name) {
        auto r = eval_condition(cond, [&](std::string_view id) -> std::optional<Ident> {
          auto m = arch_macro(id, arch);
          if (!m) return std::nullopt;
          return Ident{m->defined, m->defined ? std::optional<long long>(m->value) : std::optional<long long>(0)};
        });
        if (!r) return std::nullopt;
        return MacroState{true, *r != 0};
      }
  return std::nullopt;
}

DirectiveLine directive_line(std::string_view b, size_t i) {
  DirectiveLine out;
  bool line_comment = false;  // after `//`: no more text, but a continuation still joins lines
  while (i < b.size()) {
    char c = b[i];
    if (c == '\\' && i + 1 < b.size() && b[i + 1] == '\n') {
      i += 2;
    } else if (c == '\\' && i + 2 < b.size() && b[i + 1] == '\r' && b[i + 2] == '\n') {
      i += 3;
    } else if (c == '\n') {
      out.end = i + 1;
      return out;
    } else if (c == '\r' && i + 1 < b.size() && b[i + 1] == '\n') {
      out.end = i + 2;
      return out;
    } else if (line_comment) {
      ++i;
    } else if (c == '/' && i + 1 < b.size() && b[i + 1] == '*') {
      size_t e = b.find("*/", i + 2);
      i = e == std::string_view::npos ? b.size() : e + 2;
      out.text += ' ';
      out.block_comment = true;
    } else if (c == '/' && i + 1 < b.size() && b[i + 1] == '/') {
      line_comment = true;
      i += 2;
    } else {
      out.text += c;
      ++i;
    }
  }
  out.end = b.size();
  return out;
}

std::string directive_condition(std::string_view b, size_t i) { return directive_line(b, i).text; }

namespace {

struct Tok {
  enum Kind { Num, Id, Punct, End } kind = End;
  std::string_view text;
  long long value = 0;
};

// Tokens of a condition; false on anything outside integers, identifiers and operators.
bool tokenize(std::string_view s, std::vector<Tok>& out) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
    } else if (std::isalpha(c) || c == '_') {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      out.push_back({Tok::Id, s.substr(b, i - b)});
    } else if (std::isdigit(c)) {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '\'')) ++i;
      std::string_view t = s.substr(b, i - b);
      while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L')) t.remove_suffix(1);
      int base = 10;
      size_t k = 0;
      if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) base = 16, k = 2;
      else if (t.size() > 1 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) base = 2, k = 2;
      else if (t.size() > 1 && t[0] == '0') base = 8, k = 1;
      if (k >= t.size() && base != 8) return false;
      unsigned long long v = 0;
      for (; k < t.size(); ++k) {
        int d = std::isdigit(static_cast<unsigned char>(t[k])) ? t[k] - '0'
                : std::isxdigit(static_cast<unsigned char>(t[k])) ? std::tolower(static_cast<unsigned char>(t[k])) - 'a' + 10
                                                                  : 99;
        if (d >= base || v > (~0ULL >> 8)) return false;  // a float, a digit separator, or too large
        v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
      }
      if (v > static_cast<unsigned long long>(INT64_MAX)) return false;
      out.push_back({Tok::Num, s.substr(b, i - b), static_cast<long long>(v)});
    } else {
      static constexpr std::string_view two[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
      std::string_view p;
      for (std::string_view t : two)
        if (s.substr(i, 2) == t) p = t;
      if (p.empty()) {
        if (std::string_view("()!~-+*/%<>&|^?:").find(static_cast<char>(c)) == std::string_view::npos) return false;
        p = s.substr(i, 1);
      }
      out.push_back({Tok::Punct, p});
      i += p.size();
    }
  }
  out.push_back({Tok::End, {}});
  return true;
}

// Precedence climbing over the tokens. `live` is false on the side `&&`, `||` and `?:` do not
// evaluate: there an unknown identifier or a division by zero does not matter, as in C.
class Eval {
 public:
  Eval(const std::vector<Tok>& t, const IdentLookup& lookup) : t_(t), lookup_(lookup) {}
  std::optional<long long> run() {
    auto v = cond(true);
    if (!v || t_[i_].kind != Tok::End) return std::nullopt;
    return v;
  }

 private:
  using R = std::optional<long long>;
  bool at(std::string_view p) const { return t_[i_].kind == Tok::Punct && t_[i_].text == p; }

  R cond(bool live) {
    if (++depth_ > 200) return std::nullopt;
    R c = binary(0, live);
    if (c && at("?")) {
      ++i_;
      R a = cond(live && *c != 0);
      if (!a || !at(":")) return std::nullopt;
      ++i_;
      R b = cond(live && *c == 0);
      if (!b) return std::nullopt;
      c = *c ? a : b;
    }
    --depth_;
    return c;
  }

  // Levels: 0 ||, 1 &&, 2 |, 3 ^, 4 &, 5 == !=, 6 < > <= >=, 7 << >>, 8 + -, 9 * / %.
  static int level_of(std::string_view p) {
    if (p == "||") return 0;
    if (p == "&&") return 1;
    if (p == "|") return 2;
    if (p == "^") return 3;
    if (p == "&") return 4;
    if (p == "==" || p == "!=") return 5;
    if (p == "<" || p == ">" || p == "<=" || p == ">=") return 6;
    if (p == "<<" || p == ">>") return 7;
    if (p == "+" || p == "-") return 8;
    if (p == "*" || p == "/" || p == "%") return 9;
    return -1;
  }

  R binary(int level, bool live) {
    if (level > 9) return unary(live);
    R a = binary(level + 1, live);
    while (a && t_[i_].kind == Tok::Punct && level_of(t_[i_].text) == level) {
      std::string_view op = t_[i_++].text;
      const bool rhs_live = live && !(op == "&&" && *a == 0) && !(op == "||" && *a != 0);
      R b = binary(level + 1, rhs_live);
      if (!b) return std::nullopt;
      a = apply(op, *a, *b, rhs_live);
    }
    return a;
  }

  static R apply(std::string_view op, long long a, long long b, bool live) {
    long long r = 0;
    if (op == "||") return (a || b) ? 1 : 0;
    if (op == "&&") return (a && b) ? 1 : 0;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&") return a & b;
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == ">") return a > b;
    if (op == "<=") return a <= b;
    if (op == ">=") return a >= b;
    if (op == "<<" || op == ">>") {
      if (b < 0 || b > 62 || a < 0) return live ? R() : R(0);
      return op == "<<" ? (a << b) : (a >> b);
    }
    if (op == "+") return __builtin_add_overflow(a, b, &r) ? (live ? R() : R(0)) : R(r);
    if (op == "-") return __builtin_sub_overflow(a, b, &r) ? (live ? R() : R(0)) : R(r);
    if (op == "*") return __builtin_mul_overflow(a, b, &r) ? (live ? R() : R(0)) : R(r);
    if (b == 0 || (a == INT64_MIN && b == -1)) return live ? R() : R(0);
    return op == "/" ? a / b : a % b;
  }

  R unary(bool live) {
    if (++depth_ > 200) return std::nullopt;
    R r;
    if (at("!") || at("~") || at("-") || at("+")) {
      std::string_view op = t_[i_++].text;
      R v = unary(live);
      if (v) {
        if (op == "!") r = *v == 0;
        else if (op == "~") r = ~*v;
        else if (op == "-") r = *v == INT64_MIN ? (live ? R() : R(0)) : R(-*v);
        else r = v;
      }
    } else {
      r = primary(live);
    }
    --depth_;
    return r;
  }

  R primary(bool live) {
    const Tok& t = t_[i_];
    if (t.kind == Tok::Num) {
      ++i_;
      return t.value;
    }
    if (at("(")) {
      ++i_;
      R v = cond(live);
      if (!v || !at(")")) return std::nullopt;
      ++i_;
      return v;
    }
    if (t.kind != Tok::Id) return std::nullopt;
    ++i_;
    if (t.text == "defined") {
      const bool paren = at("(");
      if (paren) ++i_;
      if (t_[i_].kind != Tok::Id) return std::nullopt;
      std::string_view name = t_[i_++].text;
      if (paren) {
        if (!at(")")) return std::nullopt;
        ++i_;
      }
      auto id = lookup_(name);
      if (!id) return live ? R() : R(0);
      return id->defined ? 1 : 0;
    }
    // A function-like operator (`__has_include(...)`) or macro: not modelled.
    if (at("(")) return std::nullopt;
    if (t.text == "true") return 1;
    if (t.text == "false") return 0;
    auto id = lookup_(t.text);
    if (!id || (id->defined && !id->value)) return live ? R() : R(0);
    return id->defined ? *id->value : 0;
  }

  const std::vector<Tok>& t_;
  const IdentLookup& lookup_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

std::optional<long long> eval_condition(std::string_view text, const IdentLookup& lookup) {
  std::vector<Tok> toks;
  if (!tokenize(text, toks) || toks.size() > 4096) return std::nullopt;
  return Eval(toks, lookup).run();
}

}  // namespace cudalint::cuda
