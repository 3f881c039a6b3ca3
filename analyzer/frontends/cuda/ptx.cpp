#include "analyzer/frontends/cuda/ptx.h"

namespace cudalint::cuda {

namespace {

bool mnemonic_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == ':';
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

}  // namespace

std::vector<PtxInstruction> parse_ptx(std::string_view t) {
  std::vector<PtxInstruction> out;
  size_t i = 0, n = t.size();
  bool at_start = true;  // at the start of a statement
  while (i < n) {
    char c = t[i];
    if (c == '/' && i + 1 < n && t[i + 1] == '/') {
      while (i < n && t[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && t[i + 1] == '*') {
      size_t e = t.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
      continue;
    }
    if (c == ';' || c == '\n' || c == '{' || c == '}') {
      at_start = true;
      ++i;
      continue;
    }
    if (space(c)) {
      ++i;
      continue;
    }
    if (!at_start) {
      // Operands: skip to the end of the statement, but not past a comment or a brace.
      while (i < n && t[i] != ';' && t[i] != '\n' && t[i] != '{' && t[i] != '}' &&
             !(t[i] == '/' && i + 1 < n && (t[i + 1] == '/' || t[i + 1] == '*')))
        ++i;
      continue;
    }
    if (c == '@') {  // guard predicate: `@p`, `@!p`, `@%p1`
      ++i;
      while (i < n && !space(t[i]) && t[i] != ';') ++i;
      continue;
    }
    size_t b = i;
    while (i < n && mnemonic_char(t[i])) ++i;
    if (i == b) {  // not an instruction start (`%0`, a stray character)
      at_start = false;
      ++i;
      continue;
    }
    std::string_view word = t.substr(b, i - b);
    if (i < n && t[i] == ':' ) {  // a label
      ++i;
      continue;
    }
    if (word.back() == ':' ) continue;  // label written as `L1:` (the colon was taken as mnemonic char)
    at_start = false;
    if (word.front() == '.' || (word.front() >= '0' && word.front() <= '9')) continue;  // directive
    out.push_back({std::string(word), b});
  }
  return out;
}

}  // namespace cudalint::cuda
