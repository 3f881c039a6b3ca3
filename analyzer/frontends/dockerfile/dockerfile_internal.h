// Dockerfile front-end internals shared by its files (the parser in dockerfile.cpp, the rest in
// dockerfile_*.cpp). Private to analyzer/frontends/dockerfile.
#pragma once

#include <cstddef>
#include <optional>
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

// ---- dockerfile_words.cpp: word splitting at the instruction level ----

// End of the word starting at `b` (BuildKit's parseWords): whitespace ends it unless quoted;
// the escape character keeps the next character in the word, except inside single quotes.
size_t word_end(std::string_view s, size_t b, char escape);
std::vector<Range> split_words(std::string_view s, char escape);
// Plain whitespace split, no quoting (FROM, legacy ENV key).
std::vector<Range> split_whitespace(std::string_view s);
// Drops an unquoted `#…` word and what follows it, from index `keep` on. BuildKit rejects
// such words in ENV/LABEL/FROM (or declares an ARG named `#`), but cudalint's suppressions are
// trailing comments (`ENV A=1  # cudalint: ignore[…]`), so they are read as comments here.
void drop_trailing_comment(std::string_view s, std::vector<Range>& words, size_t keep);
// Quotes removed and escapes applied, variables kept as written; `unterminated` receives the
// offset of a quote that is never closed.
std::string unquote(std::string_view raw, char escape, std::optional<size_t>* unterminated = nullptr);

// ---- dockerfile_json.cpp ----

// Exactly a JSON array of strings (the exec form), or false; `ranges` are the strings' offsets.
bool parse_json_string_array(std::string_view s, std::vector<std::string>& values, std::vector<Range>& ranges);

// ---- dockerfile_env.cpp ----

// Global ARGs (before the first FROM) declared before instruction `upto`, expanded in order.
Environment global_env(const Dockerfile& df, size_t upto);

}  // namespace cudalint::docker::detail
