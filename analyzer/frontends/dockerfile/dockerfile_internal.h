// Dockerfile front-end internals shared by its files (the parser in dockerfile.cpp, the rest in
// dockerfile_*.cpp). Private to analyzer/frontends/dockerfile.
#pragma once

#include "analyzer/frontends/dockerfile/dockerfile.h"

namespace cudalint::docker::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_name_start(char c) { return is_alpha(c) || c == '_'; }
inline bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

}  // namespace cudalint::docker::detail
