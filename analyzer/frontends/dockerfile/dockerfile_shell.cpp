// Dockerfile front-end: split_shell, a lexer for the simple commands of a shell-form RUN.
#include <algorithm>
#include <array>

#include "analyzer/frontends/dockerfile/dockerfile_internal.h"

namespace cudalint::docker {

using namespace detail;

namespace {

class ShellLexer {
 public:
  explicit ShellLexer(const MappedText& m) : m_(m), s_(m.text) {}

  std::vector<ShellCommand> run() {
    size_t n = s_.size();
    while (i_ < n) {
      char c = s_[i_];
      char next = i_ + 1 < n ? s_[i_ + 1] : '\0';
      if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
        ++i_;
      } else if (c == '\n' || c == ';' || c == '(' || c == ')') {
        end_command();
        ++i_;
      } else if ((c == '&' || c == '|') && next == c) {
        end_command();
        i_ += 2;
      } else if (c == '&' && next == '>') {
        redirect();
      } else if (c == '&' || c == '|') {
        end_command();
        ++i_;
      } else if (c == '#') {
        while (i_ < n && s_[i_] != '\n') ++i_;  // comment
      } else if (c == '\\' && next == '\n') {
        i_ += 2;  // line continuation between words
      } else if (starts_redirect()) {
        redirect();
      } else {
        word(true);
      }
    }
    end_command();
    return std::move(out_);
  }

 private:
  enum class Mode { Prefix, Export, Env, Args };

  static bool breaks_word(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n' || c == ';' || c == '&' ||
           c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
  }

  void end_command() {
    if (!cur_.words.empty() || !cur_.assignments.empty()) out_.push_back(std::move(cur_));
    cur_ = ShellCommand();
    mode_ = Mode::Prefix;
  }

  bool starts_redirect() const {
    size_t j = i_;
    while (j < s_.size() && is_digit(s_[j])) ++j;
    return j < s_.size() && (s_[j] == '<' || s_[j] == '>');
  }

  // `2>&1`, `>>file`, `<in`, `&>log`, `<<EOF`: the operator and its target are not argv
  // words, so both are skipped.
  void redirect() {
    size_t n = s_.size();
    while (i_ < n && is_digit(s_[i_])) ++i_;
    if (i_ < n && s_[i_] == '&') ++i_;
    char op = i_ < n ? s_[i_++] : '\0';
    for (int k = 0; k < 2 && i_ < n && (s_[i_] == '<' || s_[i_] == '>' || s_[i_] == '&'); ++k) ++i_;
    if (i_ < n && ((op == '>' && s_[i_] == '|') || s_[i_] == '-')) ++i_;
    while (i_ < n && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    if (i_ < n && !breaks_word(s_[i_]) && s_[i_] != '#') word(false);
  }

  // End of the `$(…)`, `${…}` or backquote construct at `i`, nesting tracked on a heap stack.
  size_t skip_nested(size_t i) const {
    size_t n = s_.size(), j;
    std::vector<char> closers;
    if (s_[i] == '`') {
      closers.push_back('`');
      j = i + 1;
    } else {
      closers.push_back(s_[i + 1] == '(' ? ')' : '}');
      j = i + 2;
    }
    auto opens_dollar = [&](size_t k) { return s_[k] == '$' && k + 1 < n && (s_[k + 1] == '(' || s_[k + 1] == '{'); };
    while (j < n && !closers.empty()) {
      char top = closers.back(), c = s_[j];
      if (c == '\\') {
        j += 2;
      } else if (top == '`') {
        if (c == '`') closers.pop_back();
        ++j;
      } else if (top == '"') {
        if (c == '"') {
          closers.pop_back();
          ++j;
        } else if (opens_dollar(j)) {
          closers.push_back(s_[j + 1] == '(' ? ')' : '}');
          j += 2;
        } else {
          if (c == '`') closers.push_back('`');
          ++j;
        }
      } else if (c == '\'') {
        size_t close = s_.find('\'', j + 1);
        j = close == std::string::npos ? n : close + 1;
      } else if (opens_dollar(j)) {
        closers.push_back(s_[j + 1] == '(' ? ')' : '}');
        j += 2;
      } else {
        if (c == '"' || c == '`') closers.push_back(c);
        else if (top == ')' && c == '(') closers.push_back(')');
        else if (c == top) closers.pop_back();
        ++j;
      }
    }
    return std::min(j, n);
  }

  // One word: quotes removed, backslash escapes applied, `$(…)`, `${…}` and backquotes kept
  // as written. `keep` false reads a redirection target and drops it.
  void word(bool keep) {
    size_t n = s_.size(), b = i_;
    std::string text;
    bool quoted = false;
    while (i_ < n && !breaks_word(s_[i_])) {
      char c = s_[i_];
      if (c == '\\') {
        if (i_ + 1 >= n) {
          text += c;
          ++i_;
        } else {
          if (s_[i_ + 1] != '\n') text += s_[i_ + 1];
          i_ += 2;
          quoted = true;
        }
      } else if (c == '\'') {
        size_t close = s_.find('\'', i_ + 1);
        if (close == std::string::npos) close = n;
        text.append(s_, i_ + 1, close - i_ - 1);
        i_ = std::min(close + 1, n);
        quoted = true;
      } else if (c == '"') {
        ++i_;
        quoted = true;
        while (i_ < n && s_[i_] != '"') {
          char d = s_[i_];
          if (d == '\\' && i_ + 1 < n && std::string_view("$`\"\\\n").find(s_[i_ + 1]) != std::string_view::npos) {
            if (s_[i_ + 1] != '\n') text += s_[i_ + 1];
            i_ += 2;
          } else if ((d == '$' && i_ + 1 < n && (s_[i_ + 1] == '(' || s_[i_ + 1] == '{')) || d == '`') {
            size_t e = skip_nested(i_);
            text.append(s_, i_, e - i_);
            i_ = e;
          } else {
            text += d;
            ++i_;
          }
        }
        if (i_ < n) ++i_;
      } else if ((c == '$' && i_ + 1 < n && (s_[i_ + 1] == '(' || s_[i_ + 1] == '{')) || c == '`') {
        size_t e = skip_nested(i_);
        text.append(s_, i_, e - i_);
        i_ = e;
      } else {
        text += c;
        ++i_;
      }
    }
    if (!keep || i_ == b) return;
    add_word(b, i_, std::move(text), quoted);
  }

  // Length of `NAME` when the raw word starts with `NAME=`.
  size_t assignment_name(size_t b, size_t e) const {
    if (b >= e || !is_name_start(s_[b])) return 0;
    size_t k = b;
    while (k < e && is_name_char(s_[k])) ++k;
    return k < e && s_[k] == '=' ? k - b : 0;
  }

  // Shell reserved words that may start a command; the simple command follows them.
  static bool reserved(std::string_view w) {
    static constexpr std::array<std::string_view, 12> kWords = {"if", "then", "else", "elif", "fi", "do",
                                                                "done", "while", "until", "!", "{", "}"};
    return std::find(kWords.begin(), kWords.end(), w) != kWords.end();
  }

  // Assignments: leading `NAME=value` words; after `export`, every `NAME=value` argument; after
  // `env` (and its `-` options), the `NAME=value` words before the command. `env` itself
  // stays a word, so `env A=1 cmd` gives words ["env", "cmd"] and the assignment A=1.
  void add_word(size_t b, size_t e, std::string text, bool quoted) {
    size_t name = assignment_name(b, e);
    if (name > 0 && mode_ != Mode::Args) {
      KeyValue kv;
      kv.key = s_.substr(b, name);
      kv.value = text.substr(name + 1);
      kv.raw_value = s_.substr(b + name + 1, e - b - name - 1);
      kv.has_value = true;
      kv.key_span = m_.span_of(b, b + name);
      kv.value_span = m_.span_of(b + name + 1, e);
      cur_.assignments.push_back(std::move(kv));
      return;
    }
    if (mode_ == Mode::Prefix && !quoted && cur_.words.empty() && cur_.assignments.empty() && reserved(text))
      return;
    if (mode_ == Mode::Prefix) {
      mode_ = text == "export" ? Mode::Export : text == "env" ? Mode::Env : Mode::Args;
    } else if (mode_ == Mode::Env && !text.starts_with("-")) {
      mode_ = Mode::Args;
    }
    cur_.words.push_back({std::move(text), m_.span_of(b, e)});
  }

  const MappedText& m_;
  const std::string& s_;
  size_t i_ = 0;
  Mode mode_ = Mode::Prefix;
  ShellCommand cur_;
  std::vector<ShellCommand> out_;
};

}  // namespace

std::vector<ShellCommand> split_shell(const MappedText& text) { return ShellLexer(text).run(); }

}  // namespace cudalint::docker
