// CMake front-end: the whole listfile syntax, plus a light evaluator that extracts build facts.
// It never runs CMake.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::cmake {

struct ParseError {
  Span span;
  std::string message;
};

struct Argument {
  enum class Kind { Unquoted, Quoted, Bracket } kind = Kind::Unquoted;
  std::string text;  // escape sequences processed for Quoted/Unquoted; variable refs NOT expanded
  std::string raw;   // as written (without the surrounding quotes / brackets)
  Span span;         // the argument as written, quotes or brackets included
};

struct Command {
  std::string name;      // lower-cased identifier
  Span name_span;
  Span span;             // name to closing parenthesis
  std::vector<Argument> args;  // nested parentheses in unquoted args are kept as separate
                               // `(` / `)` arguments, as CMake does
};

struct ListFile {
  std::vector<Command> commands;
};

struct ParseResult {
  ListFile file;
  std::vector<ParseError> errors;
};

// Exact CMake syntax (cmake-language(7)): line comments, bracket comments `#[==[ ... ]==]`,
// quoted arguments with escapes and line continuations, unquoted arguments (with `;`
// list separators kept in the text), bracket arguments, nested parentheses, a UTF-8 BOM,
// CRLF. Never throws; returns what it parsed plus errors (unterminated quote/bracket/paren).
ParseResult parse(std::string_view text);

// ---- Evaluation --------------------------------------------------------------------------

// A value with where it came from. `conditional` when it was set inside an `if` branch whose
// condition could not be decided, or only by one of several branches.
struct Value {
  std::string value;
  Origin origin;
  bool conditional = false;
};

struct TargetFact {
  std::string target;
  Value value;
};

struct Facts {
  // Every value CMAKE_CUDA_ARCHITECTURES receives (set(), set(... CACHE ...), -D in presets is
  // out of scope), in evaluation order, expanded. "native", "all", "all-major", "80-real",
  // "90-virtual" are kept as written.
  std::vector<Value> cmake_cuda_architectures;
  // CUDA_ARCHITECTURES target properties (set_target_properties / set_property(TARGET ...)).
  std::vector<TargetFact> target_cuda_architectures;
  // set(TORCH_CUDA_ARCH_LIST ...) and set(ENV{TORCH_CUDA_ARCH_LIST} ...).
  std::vector<Value> torch_cuda_arch_list;
  // Every `-gencode ...`, `-gencode=...`, `-arch=...`, `--gpu-architecture=...`,
  // `--generate-code=...` token found in CMAKE_CUDA_FLAGS (set/string(APPEND)) or in
  // target_compile_options / add_compile_options (including $<$<COMPILE_LANGUAGE:CUDA>:...>),
  // one Value per flag (a separate `-gencode arch=...` pair is joined into one value).
  std::vector<Value> cuda_arch_flags;
  // `_GLIBCXX_USE_CXX11_ABI` given a value in add_definitions / add_compile_definitions /
  // target_compile_definitions / CMAKE_CXX_FLAGS / target_compile_options; value "0" or "1".
  std::vector<TargetFact> abi_defines;  // target "" for directory-wide settings
  std::optional<Value> find_package_torch;      // find_package(Torch ...)
  // Targets that link ${TORCH_LIBRARIES} / torch / Torch::Torch (target_link_libraries).
  std::vector<TargetFact> torch_linked_targets;  // value = the link item as written
  // Whether ${TORCH_CXX_FLAGS} reaches the compile flags: set(CMAKE_CXX_FLAGS "... ${TORCH_CXX_FLAGS}")
  // or string(APPEND CMAKE_CXX_FLAGS ...) or target_compile_options(... ${TORCH_CXX_FLAGS}).
  std::vector<Value> torch_cxx_flags_uses;
  std::optional<Value> cuda_toolkit_version;    // find_package(CUDAToolkit 12.4 ...) → "12.4"
  std::optional<Value> cuda_language;           // enable_language(CUDA) or project(... LANGUAGES ... CUDA)
  std::optional<Value> cmake_minimum_required;  // "3.18" (the VERSION argument; the min of a range)
  std::vector<Value> legacy_find_cuda;          // find_package(CUDA), cuda_add_library, cuda_add_executable, CUDA_NVCC_FLAGS
};

struct EvalError {
  Origin where;
  std::string message;
};

struct EvalResult {
  Facts facts;
  std::vector<EvalError> errors;           // parse errors of included files, include loops, ...
  std::vector<std::string> files_read;     // absolute paths, in the order they were evaluated
};

// Returns the text of a file (absolute path), or nullopt when it cannot be read. The engine
// supplies it, so the evaluator never touches the disk itself and already-loaded files are reused.
using FileLoader = std::function<std::optional<std::string_view>(const std::string& abs_path)>;
// Maps an absolute path to the display path used in Origins.
using DisplayPath = std::function<std::string(const std::string& abs_path)>;

// Evaluates a project from its top-level CMakeLists.txt: set/unset (incl. CACHE and
// PARENT_SCOPE), list(APPEND|PREPEND|REMOVE_ITEM), option, string(REPLACE|APPEND), if/elseif/else/
// endif where decidable (constants, DEFINED, variables with known values, NOT/AND/OR,
// STREQUAL/EQUAL/VERSION_*; otherwise both branches are evaluated and what they set is marked
// conditional), include() of relative .cmake paths, add_subdirectory() (a new scope),
// function()/macro() definitions called with literal arguments (ARGN/ARGV/named params), and
// foreach over literal lists. Variable references `${a_${b}}`, `$ENV{X}` (unknown → empty and
// conditional), `$CACHE{X}`. Bounded: at most 100,000 commands evaluated and recursion depth 64,
// so hostile input never hangs.
EvalResult evaluate(const std::string& top_level_abs_path, const FileLoader& load, const DisplayPath& display);

}  // namespace cudalint::cmake
