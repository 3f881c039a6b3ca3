// A file read from disk (or an editor buffer), validated, with a line index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/finding.h"

namespace cudalint {

enum class FileKind {
  Unknown,
  Dockerfile,
  CMake,           // CMakeLists.txt, *.cmake
  SetupPy,         // setup.py
  PyProject,       // pyproject.toml
  Requirements,    // requirements*.txt
  CudaSource,      // .cu, .cuh
  Python,          // other .py
  CompileCommands, // compile_commands.json
  CudalintToml,    // cudalint.toml
  CiWorkflow,      // .github/workflows/*.yml, *.yaml; .gitlab-ci.yml
};

std::string_view to_string(FileKind k);
// Classifies by file name only (never by content).
FileKind classify_path(std::string_view path);
// A GitLab CI file (`.gitlab-ci.yml`), as opposed to a GitHub workflow (both FileKind::CiWorkflow).
bool is_gitlab_ci_path(std::string_view path);
// The comment leader used for suppressions and fixture expectations.
std::string_view comment_leader(FileKind k);

// Maps byte offsets to 1-based line / UTF-16 column.
class LineIndex {
 public:
  LineIndex() = default;
  explicit LineIndex(std::string_view text);
  uint32_t line_count() const { return static_cast<uint32_t>(starts_.size()); }
  // 1-based line containing `offset` (offsets past the end clamp to the last line).
  uint32_t line_of(uint32_t offset) const;
  uint32_t line_start(uint32_t line) const;  // byte offset of a 1-based line
  // The line's text without its terminator (\n, \r\n or \r).
  std::string_view line_text(std::string_view text, uint32_t line) const;
  // 1-based line and UTF-16 column of a byte offset.
  void position(std::string_view text, uint32_t offset, uint32_t& line, uint32_t& column) const;
  Region region(std::string_view text, Span span) const;
  // Inverse of position(): byte offset of a 1-based line and UTF-16 column (clamped).
  uint32_t offset_of(std::string_view text, uint32_t line, uint32_t column) const;

 private:
  std::vector<uint32_t> starts_;
};

struct SourceFile {
  std::string path;  // display path
  FileKind kind = FileKind::Unknown;
  std::string text;  // UTF-8 (a leading BOM is kept; front-ends skip it)
  LineIndex lines;

  SourceFile() = default;
  SourceFile(std::string path, FileKind kind, std::string text);
  Region region(Span s) const { return lines.region(text, s); }
};

// Why a file could not be analysed; becomes a PARSE diagnostic.
enum class LoadProblem { None, Unreadable, Binary, InvalidUtf8, TooLarge };

struct LoadResult {
  std::optional<SourceFile> file;    // set when the text is usable
  LoadProblem problem = LoadProblem::None;
  std::string message;               // names the value and the reason
  Span span;                         // where in the file (e.g. the invalid byte)
};

inline constexpr uint64_t kDefaultMaxFileBytes = 10ull * 1024 * 1024;

// Reads `fs_path` and validates it. `display_path` is what diagnostics show.
LoadResult load_source(const std::string& fs_path, const std::string& display_path,
                       uint64_t max_bytes = kDefaultMaxFileBytes);
// Validates in-memory text (editor buffers, tests).
LoadResult make_source(std::string display_path, std::string text,
                       uint64_t max_bytes = kDefaultMaxFileBytes);

// A whole regular file, read with plain POSIX calls (O_NONBLOCK: a FIFO cannot hang it);
// nullopt when it cannot be opened, is not a regular file, is over `max_bytes` or a read fails.
// For files that are not analysed (caches, .gitignore files): no validation, no diagnostics.
std::optional<std::string> read_regular_file(const std::string& path, uint64_t max_bytes = UINT64_MAX);

// Offset of the first invalid UTF-8 byte, or nullopt when valid.
std::optional<uint32_t> first_invalid_utf8(std::string_view text);
// Number of UTF-16 code units in valid UTF-8 text.
uint32_t utf16_length(std::string_view text);

}  // namespace cudalint
