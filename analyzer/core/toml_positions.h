// toml++ source positions as byte offsets, shared by the config loader and the
// pyproject.toml front-end. Header-only: toml++ is header-only too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "analyzer/core/source_file.h"

namespace cudalint {

// Maps toml++ source positions to byte offsets. toml++ counts lines at '\n' only and
// columns in code points (1-based; a region's end is one past its last character), and
// it does not count a leading BOM. LineIndex differs on both counts (UTF-16 columns,
// lone '\r' ends a line), so the conversion is done here on the raw text.
class PositionMap {
 public:
  explicit PositionMap(std::string_view text) : text_(text) {
    uint32_t first = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    starts_.push_back(first);
    for (size_t i = first; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
  }

  uint32_t offset(const toml::source_position& p) const {
    if (p.line == 0) return 0;  // toml++ has no position for this node
    if (p.line > starts_.size()) return static_cast<uint32_t>(text_.size());
    size_t i = starts_[p.line - 1];
    for (uint32_t col = 1; col < p.column && i < text_.size() && text_[i] != '\n'; ++col) {
      ++i;
      while (i < text_.size() && (static_cast<unsigned char>(text_[i]) & 0xC0) == 0x80) ++i;
    }
    return static_cast<uint32_t>(i);
  }

  Span span(const toml::source_region& r) const {
    uint32_t b = offset(r.begin);
    return {b, std::max(b, offset(r.end))};
  }

  // One character at `p` (empty at a line end or the end of the file).
  Span char_at(const toml::source_position& p) const {
    uint32_t b = offset(p);
    size_t e = b;
    if (e < text_.size() && text_[e] != '\n' && text_[e] != '\r') {
      ++e;
      while (e < text_.size() && (static_cast<unsigned char>(text_[e]) & 0xC0) == 0x80) ++e;
    }
    return {b, static_cast<uint32_t>(e)};
  }

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
};


// toml++ builds (and destroys) tables recursively, one stack frame per dotted part of a
// key, so a single key with ~200,000 parts (a 400 KB file) overflows the stack. No real
// file comes close to this many parts; longer key paths are refused before parsing.
// With value nesting capped at 256 by toml++, the worst tree depth stays ~4,000.
inline constexpr size_t kMaxKeyParts = 16;

// Byte offset where a key path with more than kMaxKeyParts parts starts, if any. Dots
// count while only bare-key characters, blanks and quoted strings separate them (a float
// or a date has at most one); strings and comments are skipped so their dots never count.
inline std::optional<uint32_t> overlong_key_path(std::string_view t) {
  auto is_bare = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
  };
  constexpr size_t kNone = std::string_view::npos;
  size_t dots = 0, run_start = kNone;
  size_t i = 0;
  while (i < t.size()) {
    char c = t[i];
    if (c == '"' || c == '\'') {
      if (run_start == kNone) run_start = i;
      std::string_view closer = t.substr(i, 3) == "\"\"\"" ? "\"\"\""
                              : t.substr(i, 3) == "'''"   ? "'''"
                              : t.substr(i, 1);
      const bool multi = closer.size() == 3;
      size_t j = i + closer.size();
      while (j < t.size()) {
        if (c == '"' && t[j] == '\\') { j += 2; continue; }  // escape in a basic string
        if (!multi && t[j] == '\n') break;  // unterminated; toml++ reports it
        if (t.substr(j, closer.size()) == closer) {
          j += closer.size();
          // Up to two more quotes are content of a multi-line string (`""""a"""""`).
          for (int extra = 0; multi && extra < 2 && j < t.size() && t[j] == c; ++extra) ++j;
          break;
        }
        ++j;
      }
      i = std::min(j, t.size());
      continue;
    }
    if (c == '.') {
      if (run_start == kNone) run_start = i;
      if (++dots >= kMaxKeyParts) return static_cast<uint32_t>(run_start);
    } else if (is_bare(c)) {
      if (run_start == kNone) run_start = i;
    } else if (c == '#') {  // a comment: skip to the end of the line
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
      dots = 0;
      run_start = kNone;
    } else if (c != ' ' && c != '\t') {
      dots = 0;
      run_start = kNone;
    }
    ++i;
  }
  return std::nullopt;
}

}  // namespace cudalint
