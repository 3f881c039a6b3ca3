// CMake front-end: the whole listfile syntax, plus a light evaluator that extracts build facts.
// It never runs CMake.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// A file(GLOB) / file(GLOB_RECURSE) pattern that fed a target's sources.
struct Glob {
  std::string pattern;   // absolute (relative patterns resolve against the current source dir)
  bool recurse = false;  // GLOB_RECURSE: `*` also matches in subdirectories
  Origin origin;         // the pattern as written
};

// A source file of a target, with the properties set on it.
struct TargetSource {
  std::string path;  // absolute, normalised (relative names resolve against the current source dir of the call)
  Origin origin;     // where the name is written (through user functions/macros: the caller's argument)
  bool conditional = false;  // added under an undecidable condition, from a value that is, or inside a genex
  // set_source_files_properties(... PROPERTIES COMPILE_OPTIONS / COMPILE_FLAGS ...) and
  // set_property(SOURCE ...) on this file in the target's directory (source properties are
  // directory-scoped and read at generate time, so a later set still applies); one Value per
  // item of a `;`-list, as written (COMPILE_FLAGS is not split at spaces).
  std::vector<Value> compile_options;
  std::vector<Value> compile_definitions;  // COMPILE_DEFINITIONS, likewise
};

// One compiled target: add_library / add_executable (not ALIAS, IMPORTED or INTERFACE ones),
// cuda_add_library / cuda_add_executable, pybind11_add_module, python_add_library,
// nanobind_add_module, torch_cuda_based_add_library. A user function or macro that calls one of
// them is taken as the call it makes, with the arguments it passes on.
struct Target {
  std::string name;
  std::string command;     // the creating built-in: "add_library", "pybind11_add_module", ...
  Origin origin;           // the creating command's name (a user wrapper's, when it was passed the target's name)
  std::string source_dir;  // absolute dir of the CMakeLists.txt whose scope created it
  bool conditional = false;  // created under an undecidable condition, or its name is uncertain
  // From the creating call and target_sources() (not INTERFACE items); generator expressions
  // stripped (the content of conditional ones kept, marked conditional).
  std::vector<TargetSource> sources;
  // False when a source came from file(GLOB...), an unknown variable or a genex we can't read.
  bool sources_complete = true;
  std::vector<Glob> globs;  // the file(GLOB...) patterns that fed the sources, so a consumer can match files
  // CUDA_ARCHITECTURES: CMAKE_CUDA_ARCHITECTURES's value when the target was created (CMake
  // copies it then; a later set() does not reach it), overridden by set_target_properties /
  // set_property(TARGET ... CUDA_ARCHITECTURES). nullopt when none is known, and always for
  // cuda_add_* (FindCUDA compiles through its own nvcc commands, which ignore the property).
  std::optional<Value> cuda_architectures;
  bool cuda_architectures_unknown = false;  // it was set from something unreadable ($ENV, an unknown variable)
  // The -gencode/-arch/--generate-code flags that reach the target, one Value per flag:
  // CMAKE_CUDA_FLAGS as of the end of its directory's evaluation (CMake reads it at generate time
  // per directory), arch flags of add_definitions in its directory, add_compile_options in scope
  // at creation, target_compile_options and COMPILE_OPTIONS on it; for cuda_add_*: CUDA_NVCC_FLAGS
  // at creation and the OPTIONS given.
  std::vector<Value> cuda_flags;
  // add_definitions / add_compile_definitions of its directory (they reach every target there,
  // created before or after, and the parent's as of add_subdirectory) + target_compile_definitions
  // and COMPILE_DEFINITIONS on it; one Value per definition, `-D` removed.
  std::vector<Value> compile_definitions;
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
  // An if()/elseif() on CMAKE_CUDA_ARCHITECTURES found false while the variable held the default
  // project()/enable_language() gave it (`if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)` after
  // project()): the branch meant to choose archs never runs. The first such, at the command.
  std::optional<Value> cuda_default_decided;
  std::optional<Value> cmake_minimum_required;  // "3.18" (the VERSION argument; the min of a range)
  std::vector<Value> legacy_find_cuda;          // find_package(CUDA), cuda_add_library, cuda_add_executable, CUDA_NVCC_FLAGS
  std::vector<Target> targets;                  // in creation order
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

struct EvalOptions {
  // The `-DNAME=VALUE` / `-DNAME:TYPE=VALUE` of a `cmake` command line (e.g. a Dockerfile RUN's),
  // keyed by NAME; Value::origin points at the word that gives it. They are cache entries set
  // before the top-level CMakeLists.txt runs: `set(X ... CACHE ...)` does not override them
  // (without FORCE), `if(DEFINED X)` is true, and a normal set() shadows them, as in CMake.
  // Facts they carry (CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_FLAGS) are
  // recorded with that origin.
  std::map<std::string, Value> cache_definitions;
  // The value CMake gives CMAKE_CUDA_ARCHITECTURES when CUDA is enabled and it is unset: the
  // compiler's default ("75" for nvcc 13), when the toolkit is known; nullopt: set, value unknown.
  std::optional<std::string> cuda_default_architectures;
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
// so hostile input never hangs. Facts::targets follows the targets through add_subdirectory
// scopes, wrappers and properties (see Target). `options` gives the command line's -D entries.
EvalResult evaluate(const std::string& top_level_abs_path, const FileLoader& load, const DisplayPath& display,
                    const EvalOptions& options = {});

// `-DNAME=VALUE` / `-DNAME:TYPE=VALUE` (or the same without `-D`) → {NAME, VALUE}; nullopt for
// anything else (`-D` alone, no `=`, an empty name).
std::optional<std::pair<std::string, std::string>> parse_cache_definition(std::string_view word);

}  // namespace cudalint::cmake
