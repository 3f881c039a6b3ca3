#include "analyzer/lsp/positions.h"

#include <algorithm>

namespace cudalint::lsp {

namespace {

// Byte length of the UTF-8 sequence led by `c` (invalid leads count as one byte).
size_t seq_len(unsigned char c) {
  if (c < 0x80) return 1;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC2) return 2;
  return 1;
}

uint32_t units(unsigned char lead, Encoding enc) {
  switch (enc) {
    case Encoding::Utf8: return static_cast<uint32_t>(seq_len(lead));
    case Encoding::Utf16: return seq_len(lead) == 4 ? 2 : 1;
    case Encoding::Utf32: return 1;
  }
  return 1;
}

// [begin, end) of the 0-based line `line` without its terminator; false when past the end.
bool line_bounds(std::string_view text, uint32_t line, size_t& begin, size_t& end) {
  size_t pos = 0;
  for (uint32_t l = 0; l < line; ++l) {
    size_t nl = text.find_first_of("\r\n", pos);
    if (nl == std::string_view::npos) return false;
    pos = nl + ((text[nl] == '\r' && nl + 1 < text.size() && text[nl + 1] == '\n') ? 2 : 1);
  }
  begin = pos;
  size_t nl = text.find_first_of("\r\n", pos);
  end = nl == std::string_view::npos ? text.size() : nl;
  return true;
}

}  // namespace

std::string_view to_string(Encoding e) {
  switch (e) {
    case Encoding::Utf8: return "utf-8";
    case Encoding::Utf16: return "utf-16";
    case Encoding::Utf32: return "utf-32";
  }
  return "utf-16";
}

size_t offset_at(std::string_view text, Position p, Encoding enc) {
  size_t begin = 0, end = 0;
  if (!line_bounds(text, p.line, begin, end)) return text.size();
  size_t i = begin;
  uint32_t col = 0;
  while (i < end) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    uint32_t u = units(c, enc);
    if (col + u > p.character) break;
    col += u;
    i = std::min(end, i + seq_len(c));
  }
  return i;
}

Position position_at(std::string_view text, size_t offset, Encoding enc) {
  offset = std::min(offset, text.size());
  Position p;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && !(i + 1 < text.size() && text[i + 1] == '\n'))) {
      ++p.line;
      line_start = i + 1;
    }
  }
  // An offset between \r and \n belongs to the line the \r ends.
  for (size_t i = line_start; i < offset;) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') break;
    p.character += units(c, enc);
    i += seq_len(c);
  }
  return p;
}

Range to_range(std::string_view text, const Region& r, Encoding enc) {
  auto conv = [&](uint32_t line1, uint32_t col16) {
    Position p{line1 ? line1 - 1 : 0, col16 ? col16 - 1 : 0};
    if (enc == Encoding::Utf16) return p;
    size_t off = offset_at(text, p, Encoding::Utf16);
    return position_at(text, off, enc);
  };
  return {conv(r.start_line, r.start_column), conv(r.end_line, r.end_column)};
}

void apply_change(std::string& text, const Range& range, std::string_view replacement, Encoding enc) {
  size_t b = offset_at(text, range.start, enc);
  size_t e = offset_at(text, range.end, enc);
  if (e < b) std::swap(b, e);
  text.replace(b, e - b, replacement);
}

}  // namespace cudalint::lsp
