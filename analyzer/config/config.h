// cudalint configuration: `cudalint.toml` or `[tool.cudalint]` in `pyproject.toml`.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/rule.h"
#include "analyzer/core/source_file.h"

namespace cudalint::config {

struct ConfigError {
  Origin where;         // the exact key or value in the TOML file (path = the file's display path)
  std::string message;  // names the key, the value and the reason
  enum class Kind { Syntax, UnknownKey, BadValue } kind = Kind::BadValue;
};

template <typename T>
struct Located {
  T value{};
  Origin origin;        // where in the config file the value was written
};

struct PerFileIgnore {
  std::string glob;                 // relative to the config's directory (gitignore-like)
  std::vector<std::string> selectors;
  Origin origin;
};

struct Config {
  std::string path;                 // display path of the file it came from; "" = built-in defaults
  std::string dir;                  // filesystem directory the config applies to
  std::optional<std::vector<Located<std::string>>> select;  // replaces the default set
  std::vector<Located<std::string>> extend_select;
  std::vector<Located<std::string>> ignore;
  std::vector<PerFileIgnore> per_file_ignores;
  std::vector<Located<std::string>> exclude;                 // globs relative to `dir`
  std::map<std::string, Located<Severity>> severity;         // rule id or prefix → severity
  std::optional<Located<std::string>> target_archs;          // TORCH_CUDA_ARCH_LIST syntax
  std::optional<Located<std::string>> cuda_version;          // default toolkit, e.g. "12.4"
  std::optional<Located<uint64_t>> max_file_size;            // bytes
  std::vector<Located<std::string>> graph_break_entry_points; // [graph-breaks] entry-points
};

// `is_selector` says whether a string names a rule id, a family prefix or "ALL".
using SelectorCheck = std::function<bool(std::string_view)>;

struct LoadResult {
  std::optional<Config> config;       // absent when the file has no cudalint section
  std::vector<ConfigError> errors;    // any error makes the run exit 2
};

// Parses `file` (kind CudalintToml or PyProject). For pyproject.toml only
// `[tool.cudalint]` is read; a pyproject without it yields no config (but TOML syntax
// errors are still reported, since the file is broken). `fs_dir` is the directory holding
// the file. Never throws.
LoadResult load_config(const SourceFile& file, const std::string& fs_dir,
                       const SelectorCheck& is_selector);

}  // namespace cudalint::config
