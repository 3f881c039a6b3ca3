// CMake front-end, evaluator internals: compiler flags as CMake passes them on (generator
// expressions, `SHELL:`, `-Xcompiler=`, `-gencode X` pairs) and the flags the facts care about.
// Private to analyzer/frontends/cmake.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudalint::cmake::detail {

constexpr size_t npos = static_cast<size_t>(-1);

// Removes generator expressions, keeping the content of conditional ones
// (`$<$<COMPILE_LANGUAGE:CUDA>:-gencode ...>`, `$<BUILD_INTERFACE:...>`), dropping the rest.
// `*dropped` is set when one whose value would be text (`$<TARGET_OBJECTS:t>`) was dropped.
std::string strip_genex(std::string_view s, bool* dropped = nullptr);

struct Tok {
  std::string text;
  size_t src = npos;  // Argument index, when known
};

// Compiler flags of several pieces of text (one per argument): generator expressions removed,
// split at whitespace and `;`, `SHELL:` and `-Xcompiler=` unwrapped, `-gencode X` joined.
std::vector<Tok> flag_units(const std::vector<std::pair<std::string, size_t>>& pieces);

// `-gencode ...`, `--generate-code ...`, `-arch ...`, `--gpu-architecture ...` (with `=` or a space).
bool is_arch_flag(std::string_view t);

constexpr std::string_view kAbiMacro = "_GLIBCXX_USE_CXX11_ABI";

// "0"/"1" for `_GLIBCXX_USE_CXX11_ABI=0` (with `-D`/`/D` required for flags).
std::optional<std::string> abi_value(std::string_view t, bool need_dash);

inline bool is_cuda_flags_var(std::string_view n) { return n == "CMAKE_CUDA_FLAGS" || n.starts_with("CMAKE_CUDA_FLAGS_"); }
inline bool is_cxx_flags_var(std::string_view n) { return n == "CMAKE_CXX_FLAGS" || n.starts_with("CMAKE_CXX_FLAGS_"); }

}  // namespace cudalint::cmake::detail
