#include "analyzer/frontends/python/top_level.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>

namespace cudalint::python {

namespace {

constexpr size_t npos = std::string_view::npos;
constexpr int kMaxNesting = 64;  // f-string replacement fields inside f-strings

class Lexer {
 public:
  explicit Lexer(std::string_view t) : t_(t), n_(t.size()) {}

  // Whether the quote at i opens an f-string: the letters just before it (a prefix such as
  // f, rf, Fr) include an f and follow no other identifier character.
  bool f_prefix(size_t i) const {
    size_t b = i;
    while (b > 0 && i - b < 3 && std::isalpha(static_cast<unsigned char>(t_[b - 1]))) --b;
    if (b > 0 && identifier_byte(static_cast<unsigned char>(t_[b - 1]))) return false;
    for (size_t k = b; k < i; ++k)
      if (t_[k] == 'f' || t_[k] == 'F') return true;
    return false;
  }

  // The index after the string whose opening quote is at i; npos when it is not closed.
  size_t string_end(size_t i, int nesting) const {
    if (nesting > kMaxNesting) return npos;
    const char q = t_[i];
    const bool fstr = f_prefix(i);
    const bool triple = i + 2 < n_ && t_[i + 1] == q && t_[i + 2] == q;
    size_t j = i + (triple ? 3 : 1);
    while (j < n_) {
      const char c = t_[j];
      if (c == '\\') {  // an escape; in raw strings too, a backslash keeps the quote after it
        j += 2;
        continue;
      }
      if (c == q) {
        if (!triple) return j + 1;
        if (j + 2 < n_ && t_[j + 1] == q && t_[j + 2] == q) return j + 3;
        ++j;
        continue;
      }
      if (c == '\n' && !triple) return npos;
      if (fstr && c == '{') {
        if (j + 1 < n_ && t_[j + 1] == '{') {
          j += 2;
          continue;
        }
        // A replacement field: code (with its own strings, since Python 3.12 in the same
        // quotes) up to the matching '}'.
        j = field_end(j + 1, nesting + 1);
        if (j == npos) return npos;
        continue;
      }
      ++j;
    }
    return npos;
  }

 private:
  size_t field_end(size_t j, int nesting) const {
    if (nesting > kMaxNesting) return npos;
    int depth = 0;
    while (j < n_) {
      const char c = t_[j];
      if (c == '"' || c == '\'') {
        j = string_end(j, nesting);
        if (j == npos) return npos;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) return c == '}' ? j + 1 : npos;
        --depth;
      }
      ++j;
    }
    return npos;
  }

  std::string_view t_;
  size_t n_;
};

// `word` at the start of s, as a whole word.
bool starts_with_word(std::string_view s, std::string_view word) {
  return s.starts_with(word) && (s.size() == word.size() || !identifier_byte(static_cast<unsigned char>(s[word.size()])));
}

// After `def`/`class` (at s's start): the spaces, then the name.
std::string_view name_after(std::string_view s, size_t kw) {
  size_t i = kw;
  if (i >= s.size() || (s[i] != ' ' && s[i] != '\t')) return {};
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  size_t b = i;
  while (i < s.size() && identifier_byte(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(b, i - b);
}

}  // namespace

std::optional<std::vector<TopLevelStatement>> top_level_statements(std::string_view text) {
  if (text.size() > UINT32_MAX) return std::nullopt;
  using K = TopLevelStatement::Kind;
  const Lexer lx(text);
  const size_t n = text.size();
  std::vector<TopLevelStatement> out;
  uint32_t row = 0;
  int depth = 0;
  bool line_start = true;       // a logical line may start here
  bool open_decorators = false; // the last statement is decorators still waiting for their def
  size_t i = 0;
  while (i < n) {
    if (line_start) {
      line_start = false;
      const char c = text[i];
      if (c == '\f') return std::nullopt;  // a form feed resets indentation: too rare to split
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '#') {
        std::string_view rest = text.substr(i);
        // Clauses of a compound statement at column 0 continue it.
        bool clause = starts_with_word(rest, "else") || starts_with_word(rest, "elif") ||
                      starts_with_word(rest, "except") || starts_with_word(rest, "finally");
        if (!clause) {
          K kind = K::Other;
          std::string_view name;
          if (starts_with_word(rest, "def")) {
            name = name_after(rest, 3);
          } else if (starts_with_word(rest, "class")) {
            name = name_after(rest, 5);
          } else if (starts_with_word(rest, "async")) {
            size_t k = 5;
            while (k < rest.size() && (rest[k] == ' ' || rest[k] == '\t')) ++k;
            if (k > 5 && starts_with_word(rest.substr(k), "def")) name = name_after(rest, k + 3);
          }
          if (!name.empty()) kind = starts_with_word(rest, "class") ? K::Class : K::Def;
          if (c == '@') {
            if (!open_decorators) out.push_back({K::Other, static_cast<uint32_t>(i), 0, row, 0, 0, {}});
            open_decorators = true;
          } else if (open_decorators && kind != K::Other) {
            out.back().kind = kind;
            out.back().name = name;
            open_decorators = false;
          } else {
            out.push_back({kind, static_cast<uint32_t>(i), 0, row, 0, 0, name});
            open_decorators = false;
          }
        }
      }
    }
    const char c = text[i];
    switch (c) {
      case '\n':
        ++row;
        line_start = depth == 0;
        ++i;
        break;
      case '\\':  // a line continuation joins the next line to this one
        if (i + 1 < n && text[i + 1] == '\n') {
          ++row;
          i += 2;
        } else if (i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n') {
          ++row;
          i += 3;
        } else {
          ++i;
        }
        break;
      case '\r':  // Python ends a line at a lone CR; tree-sitter's rows do not: parse it whole
        if (i + 1 >= n || text[i + 1] != '\n') return std::nullopt;
        ++i;
        break;
      case '#':
        while (i < n && text[i] != '\n') ++i;
        break;
      case '"':
      case '\'': {
        size_t j = lx.string_end(i, 0);
        if (j == npos) return std::nullopt;
        j = std::min(j, n);
        row += static_cast<uint32_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                                text.begin() + static_cast<std::ptrdiff_t>(j), '\n'));
        i = j;
        break;
      }
      case '(':
      case '[':
      case '{':
        ++depth;
        ++i;
        break;
      case ')':
      case ']':
      case '}':
        if (--depth < 0) return std::nullopt;
        ++i;
        break;
      default: ++i;
    }
  }
  if (depth != 0) return std::nullopt;
  for (size_t k = 0; k < out.size(); ++k) {
    if (k + 1 < out.size()) {
      out[k].end = out[k + 1].begin;
      out[k].end_row = out[k + 1].row;
      out[k].end_column = 0;
    } else {
      out[k].end = static_cast<uint32_t>(n);
      out[k].end_row = row;
      size_t nl = text.rfind('\n');
      out[k].end_column = static_cast<uint32_t>(nl == npos ? n : n - nl - 1);
    }
  }
  return out;
}

}  // namespace cudalint::python
