// Dockerfile front-end: words. BuildKit's shell lexer for one word (ENV/ARG/LABEL values, FROM
// images), with or without variable expansion, and the splitting of an instruction's arguments
// into words. Recursion only happens in variable expansion, where its depth is bounded
// (kMaxNesting).
#include <algorithm>
#include <optional>

#include "analyzer/frontends/dockerfile/dockerfile_internal.h"

namespace cudalint::docker {

using namespace detail;

namespace {

constexpr size_t kMaxNesting = 256;                // deeper `${a:-${a:-…}}` is kept literally
constexpr size_t kMaxExpansionGrowth = 1u << 20;   // bytes variables may add to one word
constexpr size_t kMaxPatternValue = 4096;          // `${X%pat}` on longer values is not tried

// `*` and `?` glob, for `${X#pat}` and friends (iterative, backtracks on the last `*` only).
bool glob_match(std::string_view pat, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pat.size() && (pat[p] == '?' || pat[p] == text[t])) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

// `${X#p}` / `${X##p}` (prefix) and `${X%p}` / `${X%%p}` (suffix) removal.
std::string remove_pattern(std::string_view v, std::string_view pat, bool prefix, bool longest) {
  size_t n = v.size();
  for (size_t step = 0; step <= n; ++step) {
    size_t k = longest ? n - step : step;  // length of the removed part
    bool hit = prefix ? glob_match(pat, v.substr(0, k)) : glob_match(pat, v.substr(n - k));
    if (hit) return std::string(prefix ? v.substr(k) : v.substr(0, n - k));
  }
  return std::string(v);
}

// An `ARG X` without value that nothing set: unset at build time unless passed in.
bool is_unset_arg(const Var& v) {
  return v.from_arg && !v.known && v.value.empty() && v.value_span.begin == v.value_span.end;
}

// Removes quotes and applies the escape character like Docker; with `env` it also expands
// variables, without it `$X` and `${...}` are kept as written (the parser's `value`).
class WordProcessor {
 public:
  WordProcessor(std::string_view word, const Environment* env, char escape)
      : s_(word), env_(env), escape_(escape), limit_(word.size() + kMaxExpansionGrowth) {}

  std::string run(bool& known) {
    std::string out;
    out.reserve(s_.size());
    scan(out, known, false, 0);
    return out;
  }
  // Offset of the first quote that is never closed.
  std::optional<size_t> unterminated_quote() const { return unterminated_; }

 private:
  // Processes up to the end or, inside `${…}`, up to the closing brace (left for the caller).
  void scan(std::string& out, bool& known, bool in_brace, size_t depth) {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (in_brace && c == '}') return;
      if (c == escape_) {
        if (i_ + 1 < s_.size()) out += s_[i_ + 1];  // a trailing escape is dropped
        i_ = std::min(i_ + 2, s_.size());
      } else if (c == '\'') {
        single_quote(out);
      } else if (c == '"') {
        double_quote(out, known, depth);
      } else if (c == '$') {
        dollar(out, known, depth);
      } else {
        out += c;
        ++i_;
      }
    }
  }

  void note_unterminated(size_t at) {
    if (!unterminated_) unterminated_ = at;
  }

  void single_quote(std::string& out) {
    size_t open = i_++;
    size_t close = s_.find('\'', i_);
    if (close == std::string_view::npos) {
      note_unterminated(open);
      close = s_.size();
    }
    out.append(s_.substr(i_, close - i_));
    i_ = std::min(close + 1, s_.size());
  }

  // Inside double quotes the escape character only escapes `"`, `$` and itself (BuildKit).
  void double_quote(std::string& out, bool& known, size_t depth) {
    size_t open = i_++;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '"') {
        ++i_;
        return;
      }
      if (c == '$') {
        dollar(out, known, depth);
        continue;
      }
      if (c == escape_ && i_ + 1 < s_.size()) {
        char next = s_[i_ + 1];
        if (next == '"' || next == '$' || next == escape_) {
          out += next;
          i_ += 2;
          continue;
        }
      } else if (c == escape_) {
        ++i_;  // trailing escape
        continue;
      }
      out += c;
      ++i_;
    }
    note_unterminated(open);
  }

  // `${…}` copied as written, braces counted without recursion.
  void copy_braced(std::string& out) {
    size_t j = i_ + 2, open = 1;
    while (j < s_.size() && open > 0) {
      if (s_[j] == '{') ++open;
      else if (s_[j] == '}') --open;
      ++j;
    }
    out.append(s_.substr(i_, j - i_));
    i_ = j;
  }

  // `$1`, `$@`, `$NAME`; "" when `$` is not followed by a name.
  std::string_view read_name() {
    size_t b = i_;
    if (i_ < s_.size() && is_digit(s_[i_])) {
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    } else if (i_ < s_.size() && std::string_view("@*#?-$!").find(s_[i_]) != std::string_view::npos) {
      ++i_;
    } else if (i_ < s_.size() && is_name_start(s_[i_])) {
      while (i_ < s_.size() && is_name_char(s_[i_])) ++i_;
    }
    return s_.substr(b, i_ - b);
  }

  const Var* lookup(std::string_view name) const {
    auto it = env_->find(std::string(name));
    return it == env_->end() ? nullptr : &it->second;
  }

  void append_value(std::string& out, std::string_view v, bool& known) const {
    if (out.size() + v.size() > limit_) {
      known = false;  // runaway growth (`ENV B=$A$A`, repeated): give up on the exact value
      return;
    }
    out.append(v);
  }

  // A variable referenced without modifier: unset is "" and makes the result unknown.
  void append_var(std::string& out, std::string_view name, bool& known) const {
    const Var* v = lookup(name);
    if (!v || !v->known) known = false;
    if (v) append_value(out, v->value, known);
  }

  void dollar(std::string& out, bool& known, size_t depth) {
    if (!env_) {
      if (i_ + 1 < s_.size() && s_[i_ + 1] == '{') {
        copy_braced(out);
      } else {
        out += '$';
        ++i_;
      }
      return;
    }
    size_t start = i_++;
    if (i_ < s_.size() && s_[i_] == '{') {
      if (depth >= kMaxNesting) {
        i_ = start;
        copy_braced(out);
        known = false;
        return;
      }
      braced(out, known, depth + 1, start);
      return;
    }
    std::string_view name = read_name();
    if (name.empty()) {
      out += '$';
      return;
    }
    append_var(out, name, known);
  }

  // At the `{` of `${`; `start` is the `$`.
  void braced(std::string& out, bool& known, size_t depth, size_t start) {
    auto literal = [&] {  // unsupported or malformed: keep the text, mark it unknown
      i_ = start;
      copy_braced(out);
      known = false;
    };
    ++i_;
    std::string name(read_name());
    if (name.empty() || i_ >= s_.size()) return literal();
    char op = s_[i_];
    if (op == '}') {
      ++i_;
      append_var(out, name, known);
      return;
    }
    bool colon = op == ':';
    if (colon) {
      if (++i_ >= s_.size()) return literal();
      op = s_[i_];
    }
    bool pattern = !colon && (op == '#' || op == '%');
    if (op != '-' && op != '+' && op != '?' && !pattern) return literal();
    ++i_;
    bool longest = false;
    if (pattern && i_ < s_.size() && s_[i_] == op) {
      longest = true;
      ++i_;
    }
    // The word is processed into `out` (no quadratic copies) and dropped when unused.
    size_t mark = out.size();
    bool word_known = true;
    scan(out, word_known, true, depth);
    if (i_ < s_.size()) {
      ++i_;  // the closing brace
    } else {
      known = false;  // unterminated `${`
    }
    const Var* v = lookup(name);
    bool set = v && !is_unset_arg(*v);
    std::string value = set ? v->value : std::string();
    if (v && !v->known) known = false;
    if (pattern) {
      std::string pat = out.substr(mark);
      out.resize(mark);
      if (!set || !word_known) known = false;
      if (value.size() > kMaxPatternValue) {
        known = false;
        append_value(out, value, known);
      } else {
        append_value(out, remove_pattern(value, pat, op == '#', longest), known);
      }
      return;
    }
    bool empty = colon && value.empty();
    bool use_word = op == '-' ? (!set || empty) : op == '+' ? (set && !empty) : false;
    if (use_word) {
      known = known && word_known;
      return;
    }
    out.resize(mark);
    if (op == '?' && (!set || empty)) known = false;  // Docker fails the build here
    if (op != '+') append_value(out, value, known);
  }

  std::string_view s_;
  const Environment* env_;
  char escape_;
  size_t limit_;
  size_t i_ = 0;
  std::optional<size_t> unterminated_;
};

}  // namespace

namespace detail {

size_t word_end(std::string_view s, size_t b, char escape) {
  size_t i = b;
  char quote = 0;
  while (i < s.size()) {
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == escape && quote != '\'') ++i;
      ++i;
      continue;
    }
    if (is_space(c)) break;
    if (c == '\'' || c == '"') quote = c;
    else if (c == escape) ++i;
    ++i;
  }
  return std::min(i, s.size());
}

std::vector<Range> split_words(std::string_view s, char escape) {
  std::vector<Range> words;
  size_t i = 0;
  while (true) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size()) break;
    size_t e = word_end(s, i, escape);
    words.emplace_back(i, e);
    i = e;
  }
  return words;
}

std::vector<Range> split_whitespace(std::string_view s) {
  std::vector<Range> words;
  size_t i = 0;
  while (true) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size()) break;
    size_t b = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    words.emplace_back(b, i);
  }
  return words;
}

void drop_trailing_comment(std::string_view s, std::vector<Range>& words, size_t keep) {
  for (size_t i = keep; i < words.size(); ++i) {
    if (s[words[i].first] == '#') {
      words.resize(i);
      return;
    }
  }
}

std::string unquote(std::string_view raw, char escape, std::optional<size_t>* unterminated) {
  WordProcessor wp(raw, nullptr, escape);
  bool known = true;
  std::string out = wp.run(known);
  if (unterminated) *unterminated = wp.unterminated_quote();
  return out;
}

}  // namespace detail

std::string expand(std::string_view word, const Environment& env, char escape, bool& known) {
  return WordProcessor(word, &env, escape).run(known);
}

}  // namespace cudalint::docker
