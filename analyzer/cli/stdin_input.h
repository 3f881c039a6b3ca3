// `cudalint check --stdin-filename PATH`: the text of PATH comes from standard input.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace cudalint {

// Reads `fd` to its end, but keeps at most `max_bytes` + 1 bytes: one byte past the limit is
// enough for the loader to report the file as too large (PARSE005), and a huge input cannot
// exhaust memory. `complete` tells whether the end was reached. False when a read fails.
bool read_stdin_text(int fd, uint64_t max_bytes, std::string& text, bool& complete, std::string& err);

// Copies what is left of `fd` to `out` (to echo an input that was not read whole).
bool copy_rest(int fd, std::ostream& out);

}  // namespace cudalint
