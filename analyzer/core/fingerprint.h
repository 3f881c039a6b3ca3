// GitHub code scanning's primaryLocationLineHash, computed as codeql-action's
// upload-sarif does (src/fingerprints.ts), so uploads through the REST API match.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudalint {

// One entry per line of `text` (lines split at \n, \r\n or \r; an empty text has one
// line): "<hex>:<occurrence>". `text` must be valid UTF-8 (hashing walks UTF-16 units).
std::vector<std::string> line_hashes(std::string_view text);

}  // namespace cudalint
