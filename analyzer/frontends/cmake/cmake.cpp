// CMake front-end, parser half (see cmake.h; the evaluator is in cmake_eval.cpp). It follows
// the grammar of cmake-language(7) and CMake's own lexer where the grammar is silent (legacy
// unquoted arguments, `$(MAKEVAR)`). One forward pass with no recursion, so the run time is
// linear in the input and nesting depth costs no stack: nested parentheses are only counted.
#include "analyzer/frontends/cmake/cmake.h"

#include <fmt/format.h>

#include "analyzer/core/source_file.h"
#include "analyzer/core/text.h"

namespace cudalint::cmake {

namespace {

constexpr size_t kMaxErrors = 100;      // a binary file would otherwise give one error per line
constexpr size_t kMaxShownBytes = 40;   // file text quoted in one message

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) { return is_alpha(c) || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t'; }
using text::to_lower;
uint32_t u32(size_t v) { return static_cast<uint32_t>(v); }

// File text quoted in a message: bounded, printable, valid UTF-8 whatever the input.
std::string shown(std::string_view s) { return text::printable(s, kMaxShownBytes); }

// Length of the (possibly multi-byte) character at `i`, so error spans never split one.
size_t char_len(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  return std::min(len, s.size() - i);
}

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  ParseResult run() {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (is_blank(c) || c == '\n' || c == '\r') {
        ++i_;
      } else if (c == '#') {
        comment();
      } else if (is_ident_start(c)) {
        if (command()) line_end();
      } else {
        size_t len = char_len(s_, i_);
        std::string what = c == '(' || c == ')' ? fmt::format("`{}`", c)
                           : c == '"'           ? std::string("quoted argument")
                                                : fmt::format("`{}`", shown(s_.substr(i_, len)));
        error(i_, i_ + len, fmt::format("unexpected {} outside a command invocation: expected a command name", what));
        skip_line();
      }
    }
    return std::move(out_);
  }

 private:
  void error(size_t b, size_t e, std::string message) {
    if (out_.errors.size() >= kMaxErrors) return;
    if (e <= b) e = std::min(b + 1, s_.size());
    if (e <= b && b > 0) b = e - 1;  // at the very end of the file: point at its last byte
    out_.errors.push_back({{u32(b), u32(e)}, std::move(message)});
  }

  void skip_line() {
    size_t nl = s_.find('\n', i_);
    i_ = nl == std::string_view::npos ? s_.size() : nl + 1;
  }

  // `[` followed by `=`* and `[` at `p`: returns the number of `=`, or -1.
  long bracket_open(size_t p) const {
    if (p >= s_.size() || s_[p] != '[') return -1;
    size_t q = p + 1;
    while (q < s_.size() && s_[q] == '=') ++q;
    if (q < s_.size() && s_[q] == '[') return static_cast<long>(q - p - 1);
    return -1;
  }

  // Content of a bracket construct opened at `open` (of `level` `=`s); moves past the close.
  // Returns false when it is not closed (then everything to the end of the file is consumed).
  bool bracket_body(size_t open, long level, std::string_view& content) {
    size_t body = open + static_cast<size_t>(level) + 2;
    std::string close = "]" + std::string(static_cast<size_t>(level), '=') + "]";
    size_t end = s_.find(close, body);
    if (end == std::string_view::npos) {
      content = s_.substr(std::min(body, s_.size()));
      i_ = s_.size();
      return false;
    }
    content = s_.substr(body, end - body);
    i_ = end + close.size();
    return true;
  }

  // `#` at i_: a bracket comment or a line comment.
  void comment() {
    size_t start = i_;
    long level = bracket_open(i_ + 1);
    if (level >= 0) {
      std::string_view content;
      if (!bracket_body(i_ + 1, level, content))
        error(start, start + static_cast<size_t>(level) + 3,
              fmt::format("unterminated bracket comment `#[{}[` opened here: no closing `]{}]`",
                          std::string(static_cast<size_t>(level), '='), std::string(static_cast<size_t>(level), '=')));
      return;
    }
    while (i_ < s_.size() && s_[i_] != '\n') ++i_;
  }

  // After a command's `)`: only blanks, bracket comments and a line comment may follow on
  // the same line (cmake-language(7) `file_element`).
  void line_end() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (is_blank(c) || c == '\r') {
        ++i_;
      } else if (c == '\n') {
        ++i_;
        return;
      } else if (c == '#') {
        bool bracket = bracket_open(i_ + 1) >= 0;
        comment();
        if (!bracket) return;
      } else {
        size_t len = char_len(s_, i_);
        error(i_, i_ + len,
              fmt::format("expected a newline after the command, got `{}`: each command must be on its own line",
                          shown(s_.substr(i_, len))));
        // Another command is parsed normally; anything else is skipped with its line.
        if (!is_ident_start(c)) skip_line();
        return;
      }
    }
  }

  // A command invocation at i_. Returns false when it had no argument list.
  bool command() {
    Command cmd;
    size_t name_b = i_;
    while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
    cmd.name.reserve(i_ - name_b);
    for (size_t k = name_b; k < i_; ++k) cmd.name += to_lower(s_[k]);
    cmd.name_span = {u32(name_b), u32(i_)};
    while (i_ < s_.size() && is_blank(s_[i_])) ++i_;
    if (i_ >= s_.size() || s_[i_] != '(') {
      std::string got = i_ >= s_.size() ? std::string("the end of the file")
                        : s_[i_] == '\n' || s_[i_] == '\r'
                            ? std::string("a newline")
                            : fmt::format("`{}`", shown(s_.substr(i_, char_len(s_, i_))));
      error(cmd.name_span.begin, cmd.name_span.end,
            fmt::format("expected `(` after the command name `{}`, got {}",
                        shown(s_.substr(name_b, cmd.name_span.end - name_b)), got));
      skip_line();
      return false;
    }
    size_t open = i_++;
    size_t depth = 1;  // counted, not recursed: 10,000 nested parentheses cost nothing
    bool reported = false;
    while (depth > 0) {
      if (i_ >= s_.size()) {
        if (!reported)
          error(open, open + 1,
                fmt::format("missing `)`: the argument list of `{}` opened here is never closed", cmd.name));
        break;
      }
      char c = s_[i_];
      if (is_blank(c) || c == '\n' || c == '\r') {
        ++i_;
      } else if (c == '#') {
        size_t before = out_.errors.size();
        comment();
        reported = reported || out_.errors.size() > before;
      } else if (c == '(' || c == ')') {
        if (c == ')' && --depth == 0) {
          ++i_;
          break;
        }
        if (c == '(') ++depth;
        cmd.args.push_back({Argument::Kind::Unquoted, std::string(1, c), std::string(1, c), {u32(i_), u32(i_ + 1)}});
        ++i_;
      } else if (c == '"') {
        reported = !quoted(cmd) || reported;
      } else if (bracket_open(i_) >= 0) {
        reported = !bracket(cmd) || reported;
      } else {
        unquoted(cmd);
      }
    }
    cmd.span = {u32(name_b), u32(i_)};
    out_.file.commands.push_back(std::move(cmd));
    return depth == 0;
  }

  // Appends the meaning of the escape sequence `\` + s_[p] (p is past the backslash).
  static void escape(char c, std::string& text) {
    switch (c) {
      case 't': text += '\t'; break;
      case 'n': text += '\n'; break;
      case 'r': text += '\r'; break;
      // `\;` encodes itself: it keeps a `;` from splitting a list (cmake-language(7)).
      case ';': text += "\\;"; break;
      default:
        // escape_identity; `\` + another letter or digit is an error only when CMake evaluates
        // the argument (maybe never, e.g. in a Windows-only branch), so it is kept as written.
        if (is_alpha(c) || is_digit(c)) text += '\\';
        text += c;
    }
  }

  // Quoted argument at i_. Returns false when unterminated.
  bool quoted(Command& cmd) {
    size_t open = i_++;
    Argument a;
    a.kind = Argument::Kind::Quoted;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_];
      if (c == '\\' && i_ + 1 < s_.size()) {
        char d = s_[i_ + 1];
        if (d == '\n') {
          i_ += 2;  // line continuation
        } else if (d == '\r' && i_ + 2 < s_.size() && s_[i_ + 2] == '\n') {
          i_ += 3;
        } else {
          escape(d, a.text);
          i_ += 2;
        }
      } else if (c == '\r' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
        a.text += '\n';  // CRLF files mean the same as LF files
        i_ += 2;
      } else {
        a.text += c;
        ++i_;
      }
    }
    bool closed = i_ < s_.size();
    if (closed) {
      a.raw = std::string(s_.substr(open + 1, i_ - open - 1));
      ++i_;
    } else {
      i_ = s_.size();
      a.raw = std::string(s_.substr(open + 1));
      error(open, open + 1, "unterminated quoted argument opened here: no closing `\"`");
    }
    a.span = {u32(open), u32(i_)};
    cmd.args.push_back(std::move(a));
    return closed;
  }

  // Bracket argument at i_. Returns false when unterminated.
  bool bracket(Command& cmd) {
    size_t open = i_;
    long level = bracket_open(i_);
    std::string eq(static_cast<size_t>(level), '=');
    std::string_view content;
    bool closed = bracket_body(open, level, content);
    Argument a;
    a.kind = Argument::Kind::Bracket;
    a.raw = std::string(content);
    std::string_view body = content;
    if (body.starts_with("\r\n")) body.remove_prefix(2);
    else if (body.starts_with("\n")) body.remove_prefix(1);
    a.text.reserve(body.size());
    for (size_t k = 0; k < body.size(); ++k)
      if (!(body[k] == '\r' && k + 1 < body.size() && body[k + 1] == '\n')) a.text += body[k];
    a.span = {u32(open), u32(i_)};
    cmd.args.push_back(std::move(a));
    if (!closed)
      error(open, open + eq.size() + 2,
            fmt::format("unterminated bracket argument `[{}[` opened here: no closing `]{}]`", eq, eq));
    return closed;
  }

  // A legacy `"..."` part of an unquoted argument at p (on `"`): the index past its closing
  // quote, or 0 when it is not one (CMake's lexer then starts a quoted argument there).
  size_t legacy_quote(size_t p) const {
    size_t q = p + 1;
    while (q < s_.size()) {
      char c = s_[q];
      if (c == '"') return q + 1;
      if (c == '\n' || c == '\r' || c == '(' || c == ')' || c == '#') return 0;
      if (c == '\\') {
        if (q + 1 >= s_.size() || s_[q + 1] == '\n' || s_[q + 1] == '\r') return 0;
        q += 2;
      } else if (c == '$' && make_var(q)) {
        q = make_var(q);
      } else {
        ++q;
      }
    }
    return 0;
  }

  // `$(NAME)` at p: the index past it, or 0.
  size_t make_var(size_t p) const {
    if (p + 1 >= s_.size() || s_[p] != '$' || s_[p + 1] != '(') return 0;
    size_t q = p + 2;
    while (q < s_.size() && is_ident_char(s_[q])) ++q;
    return q < s_.size() && s_[q] == ')' ? q + 1 : 0;
  }

  void unquoted(Command& cmd) {
    size_t start = i_;
    Argument a;
    a.kind = Argument::Kind::Unquoted;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (is_blank(c) || c == '\n' || c == '\r' || c == '(' || c == ')' || c == '#') break;
      if (c == '"') {
        size_t end = i_ > start ? legacy_quote(i_) : 0;
        if (!end) break;
        for (size_t k = i_; k < end; ++k) {
          if (s_[k] == '\\') {
            escape(s_[k + 1], a.text);
            ++k;
          } else {
            a.text += s_[k];
          }
        }
        i_ = end;
        continue;
      }
      if (c == '$') {
        if (size_t end = make_var(i_)) {
          a.text.append(s_.substr(i_, end - i_));  // kept literally, never expanded
          i_ = end;
          continue;
        }
      }
      if (c == '\\') {
        if (i_ + 1 >= s_.size() || s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r') {
          error(i_, i_ + 1, "invalid `\\` at the end of a line: line continuations are only allowed in quoted arguments");
          ++i_;
          continue;
        }
        escape(s_[i_ + 1], a.text);
        i_ += 2;
        continue;
      }
      a.text += c;
      ++i_;
    }
    a.raw = std::string(s_.substr(start, i_ - start));
    a.span = {u32(start), u32(i_)};
    cmd.args.push_back(std::move(a));
  }

  std::string_view s_;
  size_t i_ = 0;
  ParseResult out_;
};

}  // namespace

ParseResult parse(std::string_view text) { return Parser(text).run(); }

}  // namespace cudalint::cmake
