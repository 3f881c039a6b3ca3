// A Python module's top-level statements, found by a lexer alone (strings, comments, brackets,
// line continuations), without a parse: where each starts and ends, and for `def`/`class`
// statements (decorators included) the name they bind. The graph-break summary uses it to
// leave out the top-level functions and classes a module's compiled regions cannot reach
// (python::gb::summarize_lazy), which is most of a typical module's text.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace cudalint::python {

struct TopLevelStatement {
  enum class Kind : uint8_t { Other, Def, Class };
  Kind kind = Kind::Other;
  uint32_t begin = 0;      // byte offset of the statement's first line (column 0)
  uint32_t end = 0;        // the next statement's begin, or the text's size
  uint32_t row = 0;        // line of `begin` (0-based)
  uint32_t end_row = 0;    // line of `end`
  uint32_t end_column = 0; // column of `end` (non-zero only at the end of a text without a final newline)
  std::string_view name;   // Def and Class: the name defined
};

// The statements in order, covering the text from the first statement to its end (blank and
// comment lines before the first one are not covered). nullopt when the lexer cannot be sure
// of the boundaries: a string or bracket still open at the end, a closing bracket without an
// opening one, a text over 4 GiB. Then the caller parses the whole text.
std::optional<std::vector<TopLevelStatement>> top_level_statements(std::string_view text);

// A byte of a Python identifier as the summaries count them: ASCII letters, digits, `_` and
// every non-ASCII byte.
inline bool identifier_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

// Calls f(word) for each maximal run of identifier bytes of `text` (code, strings and comments
// alike), in order.
template <typename F>
void each_word(std::string_view text, F&& f) {
  for (size_t i = 0; i < text.size();) {
    if (!identifier_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t b = i;
    while (i < text.size() && identifier_byte(static_cast<unsigned char>(text[i]))) ++i;
    f(text.substr(b, i - b));
  }
}

}  // namespace cudalint::python
