#include "analyzer/core/source_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace cudalint {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view base_name(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Length of the UTF-8 sequence starting at s[i], or 0 if invalid there.
size_t utf8_seq_len(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = s.size() - i;
  auto cont = [&](size_t k) { return (b(i + k) & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return n >= 2 && cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (n < 3 || !cont(1) || !cont(2)) return 0;
    unsigned char c1 = b(i + 1);
    if (c == 0xE0 && c1 < 0xA0) return 0;   // overlong
    if (c == 0xED && c1 >= 0xA0) return 0;  // surrogates
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (n < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
    unsigned char c1 = b(i + 1);
    if (c == 0xF0 && c1 < 0x90) return 0;   // overlong
    if (c == 0xF4 && c1 >= 0x90) return 0;  // > U+10FFFF
    return 4;
  }
  return 0;
}

// Binary: a NUL byte in the first 8 KiB (git's heuristic).
bool looks_binary(std::string_view text) {
  return text.substr(0, 8192).find('\0') != std::string_view::npos;
}

}  // namespace

std::string_view to_string(FileKind k) {
  switch (k) {
    case FileKind::Unknown: return "unknown";
    case FileKind::Dockerfile: return "dockerfile";
    case FileKind::CMake: return "cmake";
    case FileKind::SetupPy: return "setup.py";
    case FileKind::PyProject: return "pyproject";
    case FileKind::Requirements: return "requirements";
    case FileKind::CudaSource: return "cuda";
    case FileKind::Python: return "python";
    case FileKind::CompileCommands: return "compile-commands";
    case FileKind::CudalintToml: return "cudalint-toml";
    case FileKind::CiWorkflow: return "ci-workflow";
  }
  return "unknown";
}

FileKind classify_path(std::string_view path) {
  std::string_view name = base_name(path);
  if (name == "Dockerfile" || name == "Containerfile" || name.starts_with("Dockerfile.") ||
      ends_with(name, ".dockerfile") || ends_with(name, ".Dockerfile"))
    return FileKind::Dockerfile;
  if (name == "CMakeLists.txt" || ends_with(name, ".cmake")) return FileKind::CMake;
  if (name == "setup.py") return FileKind::SetupPy;
  if (name == "pyproject.toml") return FileKind::PyProject;
  if (name == "cudalint.toml") return FileKind::CudalintToml;
  if (name.starts_with("requirements") && ends_with(name, ".txt")) return FileKind::Requirements;
  if (ends_with(name, ".cu") || ends_with(name, ".cuh")) return FileKind::CudaSource;
  if (ends_with(name, ".py")) return FileKind::Python;
  if (name == "compile_commands.json") return FileKind::CompileCommands;
  if (is_gitlab_ci_path(path)) return FileKind::CiWorkflow;
  if ((ends_with(name, ".yml") || ends_with(name, ".yaml")) && path.size() > name.size()) {
    std::string_view dir = path.substr(0, path.size() - name.size() - 1);
    if (dir == ".github/workflows" || ends_with(dir, "/.github/workflows")) return FileKind::CiWorkflow;
  }
  return FileKind::Unknown;
}

bool is_gitlab_ci_path(std::string_view path) { return base_name(path) == ".gitlab-ci.yml"; }

std::string_view comment_leader(FileKind k) {
  switch (k) {
    case FileKind::CudaSource: return "//";
    case FileKind::CompileCommands: return "";
    default: return "#";
  }
}

std::optional<uint32_t> first_invalid_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    // Fast path over ASCII.
    if (static_cast<unsigned char>(text[i]) < 0x80) { ++i; continue; }
    size_t n = utf8_seq_len(text, i);
    if (n == 0) return static_cast<uint32_t>(i);
    i += n;
  }
  return std::nullopt;
}

uint32_t utf16_length(std::string_view text) {
  uint32_t units = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    units += (c >= 0xF0) ? 2 : 1;      // 4-byte sequences are surrogate pairs
  }
  return units;
}

LineIndex::LineIndex(std::string_view text) {
  const char* const b = text.data();
  const char* const e = b + text.size();
  auto next = [e](const char* p, char c) { return static_cast<const char*>(std::memchr(p, c, static_cast<size_t>(e - p))); };
  // Exactly sized: every file's index lives for the whole run, and doubling left ~40% unused.
  size_t lines = 1;
  for (const char* p = b; p != e && (p = next(p, '\n')); ++p) ++lines;
  if (text.empty() || !next(b, '\r')) {
    // Lines end in \n only (nearly every file): memchr from one to the next.
    starts_.reserve(lines);
    starts_.push_back(0);
    for (const char* p = b; p != e && (p = next(p, '\n')); ++p) starts_.push_back(static_cast<uint32_t>(p - b + 1));
    return;
  }
  // \r\n and lone \r end lines too: a line start follows each \n or \r at most.
  starts_.reserve(lines + static_cast<size_t>(std::count(text.begin(), text.end(), '\r')));
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      starts_.push_back(static_cast<uint32_t>(i + 1));
    } else if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }
}

uint32_t LineIndex::line_of(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<uint32_t>(it - starts_.begin());
}

uint32_t LineIndex::line_start(uint32_t line) const {
  if (line == 0) return 0;
  if (line > starts_.size()) return starts_.back();
  return starts_[line - 1];
}

std::string_view LineIndex::line_text(std::string_view text, uint32_t line) const {
  if (line == 0 || line > starts_.size()) return {};
  size_t b = starts_[line - 1];
  size_t e = line < starts_.size() ? starts_[line] : text.size();
  b = std::min(b, text.size());
  e = std::min(e, text.size());
  while (e > b && (text[e - 1] == '\n' || text[e - 1] == '\r')) --e;
  return text.substr(b, e - b);
}

void LineIndex::position(std::string_view text, uint32_t offset, uint32_t& line,
                         uint32_t& column) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  line = line_of(offset);
  uint32_t start = line_start(line);
  column = 1 + utf16_length(text.substr(start, offset - start));
}

Region LineIndex::region(std::string_view text, Span span) const {
  Region r;
  position(text, span.begin, r.start_line, r.start_column);
  position(text, std::max(span.begin, span.end), r.end_line, r.end_column);
  return r;
}

uint32_t LineIndex::offset_of(std::string_view text, uint32_t line, uint32_t column) const {
  if (line == 0) line = 1;
  if (line > starts_.size()) return static_cast<uint32_t>(text.size());
  std::string_view lt = line_text(text, line);
  uint32_t off = starts_[line - 1];
  uint32_t units = 1;
  size_t i = 0;
  while (i < lt.size() && units < column) {
    unsigned char c = static_cast<unsigned char>(lt[i]);
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    units += c >= 0xF0 ? 2 : 1;
    i += n;
  }
  return off + static_cast<uint32_t>(std::min(i, lt.size()));
}

SourceFile::SourceFile(std::string p, FileKind k, std::string t)
    : path(std::move(p)), kind(k), text(std::move(t)), lines(text) {}

LoadResult make_source(std::string display_path, std::string text, uint64_t max_bytes) {
  LoadResult r;
  if (text.size() > max_bytes) {
    r.problem = LoadProblem::TooLarge;
    r.message = fmt::format("file is {} bytes, over the {}-byte size limit (max-file-size)",
                            text.size(), max_bytes);
    return r;
  }
  if (looks_binary(text)) {
    auto nul = text.find('\0');
    r.problem = LoadProblem::Binary;
    r.message = fmt::format("file looks binary (NUL byte at offset {}); not analysed", nul);
    r.span = {static_cast<uint32_t>(nul), static_cast<uint32_t>(nul + 1)};
    return r;
  }
  if (auto bad = first_invalid_utf8(text)) {
    r.problem = LoadProblem::InvalidUtf8;
    r.message = fmt::format("invalid UTF-8 (byte 0x{:02X} at offset {}); not analysed",
                            static_cast<unsigned char>(text[*bad]), *bad);
    r.span = {*bad, *bad + 1};
    // Keep the file so the location can be resolved to a line and column; front-ends
    // do not see it.
    r.file.emplace(std::move(display_path), FileKind::Unknown, std::move(text));
    return r;
  }
  FileKind kind = classify_path(display_path);
  r.file.emplace(std::move(display_path), kind, std::move(text));
  return r;
}

std::optional<std::string> read_regular_file(const std::string& path, uint64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return std::nullopt;
  }
  // Straight into the string (a cached PCH is ~800 KB: a bounce buffer and appends cost copies
  // and page faults), one byte larger than the file so that the read finding its end needs no
  // growth (a copy of everything read); a file that grows while being read continues in chunks.
  std::string out(static_cast<size_t>(st.st_size) + 1, '\0');
  size_t got = 0;
  while (true) {
    if (got == out.size())  // room for up to one byte past max_bytes, which tells "too big"
      out.resize(got + std::min<uint64_t>(65535, max_bytes - got) + 1);
    ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || got + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

LoadResult load_source(const std::string& fs_path, const std::string& display_path,
                       uint64_t max_bytes) {
  LoadResult r;
  int fd = ::open(fs_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    r.problem = LoadProblem::Unreadable;
    r.message = fmt::format("cannot read file: {}", std::strerror(errno));
    return r;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    r.problem = LoadProblem::Unreadable;
    r.message = "cannot read file: not a regular file";
    return r;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    r.problem = LoadProblem::TooLarge;
    r.message = fmt::format("file is {} bytes, over the {}-byte size limit (max-file-size)",
                            static_cast<uint64_t>(st.st_size), max_bytes);
    return r;
  }
  // One byte more than the file: the read that finds its end then needs no growth (which
  // copied the whole text, and the slack it left was copied again to give it back).
  std::string text;
  text.resize(static_cast<size_t>(st.st_size) + 1);
  size_t got = 0;
  while (true) {
    if (got == text.size()) text.resize(text.size() + 4096);  // file grew while reading
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      r.problem = LoadProblem::Unreadable;
      r.message = fmt::format("cannot read file: {}", std::strerror(err));
      return r;
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
    if (got > max_bytes) break;
  }
  ::close(fd);
  text.resize(got);
  // A file that grew while being read left slack: a run keeps every text until it reports.
  if (text.capacity() - text.size() > 4096) text.shrink_to_fit();
  return make_source(display_path, std::move(text), max_bytes);
}

}  // namespace cudalint
