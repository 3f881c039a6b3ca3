// LSP positions (0-based line, character counted in the negotiated encoding) against UTF-8
// text. Lines end at \n, \r\n or \r, as in the LSP specification and cudalint's LineIndex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/core/finding.h"

namespace cudalint::lsp {

enum class Encoding { Utf8, Utf16, Utf32 };

std::string_view to_string(Encoding e);  // "utf-8", "utf-16", "utf-32"

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

struct Range {
  Position start, end;
  friend bool operator==(const Range&, const Range&) = default;
};

// Byte offset of a position; a character past the line end clamps to the line end (before
// its terminator), a line past the end clamps to the end of the text. A character that falls
// inside a multi-unit character rounds down to its start.
size_t offset_at(std::string_view text, Position p, Encoding enc);

// Position of a byte offset (offsets past the end clamp to the end).
Position position_at(std::string_view text, size_t offset, Encoding enc);

// Converts a cudalint Region (1-based lines, 1-based UTF-16 columns) of `text` to an LSP
// range in `enc`.
Range to_range(std::string_view text, const Region& r, Encoding enc);

// Replaces `range` of `text` with `replacement` (an incremental didChange entry).
void apply_change(std::string& text, const Range& range, std::string_view replacement, Encoding enc);

}  // namespace cudalint::lsp
