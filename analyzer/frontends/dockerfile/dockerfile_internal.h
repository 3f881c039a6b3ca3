// Dockerfile front-end internals shared by its files (the parser in dockerfile.cpp, the rest in
// dockerfile_*.cpp). Private to analyzer/frontends/dockerfile.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/frontends/dockerfile/dockerfile.h"

namespace cudalint::docker::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_name_start(char c) { return is_alpha(c) || c == '_'; }
inline bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

using Range = std::pair<size_t, size_t>;  // [begin, end) offsets

// ---- dockerfile_json.cpp ----

// Exactly a JSON array of strings (the exec form), or false; `ranges` are the strings' offsets.
bool parse_json_string_array(std::string_view s, std::vector<std::string>& values, std::vector<Range>& ranges);

// ---- dockerfile_env.cpp ----

// Global ARGs (before the first FROM) declared before instruction `upto`, expanded in order.
Environment global_env(const Dockerfile& df, size_t upto);

}  // namespace cudalint::docker::detail
