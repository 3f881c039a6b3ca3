// GitHub code scanning's primaryLocationLineHash, computed as codeql-action's
// upload-sarif does (src/fingerprints.ts), so uploads through the REST API match.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cudalint {

// One entry per line of `text` (lines split at \n, \r\n or \r; an empty text has one
// line): "<hex>:<occurrence>". `text` must be valid UTF-8 (hashing walks UTF-16 units).
// `max_lines`: only the first lines are wanted: the first min(max_lines, line count) entries of
// the whole text's, computed without reading further than they need.
std::vector<std::string> line_hashes(std::string_view text, size_t max_lines = SIZE_MAX);

}  // namespace cudalint
