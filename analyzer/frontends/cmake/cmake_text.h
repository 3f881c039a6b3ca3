// CMake front-end, evaluator internals: the string, list, constant and path helpers that
// CMake's semantics need (no evaluator state). Private to analyzer/frontends/cmake.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/text.h"

namespace cudalint::cmake::detail {

constexpr size_t kMaxShownBytes = 60;  // text quoted in one message

inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
using text::lower;
using text::to_lower;
using text::to_upper;
using text::upper;

bool is_identifier(std::string_view s);

// Text quoted in a message: bounded, printable, valid UTF-8.
inline std::string shown(std::string_view s) { return text::printable(s, kMaxShownBytes); }

// Appends what the escape `\d` stands for (`\;` keeps encoding itself, so it stops list splitting).
void append_escape(char d, std::string& out);

// CMake list splitting: `;` separates except inside `[...]` or as `\;` (which becomes `;`).
std::vector<std::string> split_list(std::string_view s, bool keep_empty);
std::string join(const std::vector<std::string>& v, std::string_view sep);

// A number as if(<constant>) and the numeric tests read it; nullopt when it is not one.
std::optional<double> as_number(std::string_view s);
// True and false constants of if(<constant>); numbers count by value.
bool is_true_constant(std::string_view s);
bool is_false_constant(std::string_view s);

// cmSystemTools-style version comparison: numeric components, missing ones are 0.
int version_compare(std::string_view a, std::string_view b);

std::string dirname(std::string_view p);
// Collapses `.`, `..` and repeated `/` (lexically, as CMake's CollapseFullPath does).
std::string normalize(std::string_view p);
// `rel` against `dir` (unless absolute), normalised.
std::string join_path(std::string_view dir, std::string_view rel);

}  // namespace cudalint::cmake::detail
