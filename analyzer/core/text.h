// Text helpers every layer uses: ASCII case folding and text quoted in messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cudalint::text {

inline char to_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
inline char to_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// ASCII only: keywords, instruction names and ids are ASCII; other bytes are left alone.
std::string lower(std::string_view s);
std::string upper(std::string_view s);
bool iequals(std::string_view a, std::string_view b);

// File text quoted in a message: at most `max_bytes`, printable and valid UTF-8 whatever the
// input (a control byte or a broken sequence becomes '?'), "..." when cut.
std::string printable(std::string_view s, size_t max_bytes);

// User text quoted in a message: control characters escaped (\n, \t, \xNN) so a hostile key
// cannot forge output lines, cut after `max_bytes` on a character boundary, "…" when cut.
std::string escaped(std::string_view s, size_t max_bytes = 80);

}  // namespace cudalint::text
