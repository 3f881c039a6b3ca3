// CUDA front-end: the C++ standard library's headers (std_includes.h), and leading_std_includes.
#include "analyzer/frontends/cuda/std_includes.h"

#include <sys/stat.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "analyzer/frontends/cuda/cuda_frontend_internal.h"

namespace cudalint::cuda {
namespace detail {

namespace {

// A path of the C++ standard library's headers: a directory `c++` followed by a version
// (libstdc++: .../include/c++/12/..., its target directory .../x86_64-linux-gnu/c++/12/...;
// libc++: .../include/c++/v1/...). A project that lives under a directory named `c++` has no
// version after it.
bool std_library_path(llvm::StringRef p) {
  for (size_t at = p.find("/c++/"); at != llvm::StringRef::npos; at = p.find("/c++/", at + 1)) {
    llvm::StringRef version = p.substr(at + 5).split('/').first;
    if (version == "v1" || (!version.empty() && version.find_first_not_of("0123456789.") == llvm::StringRef::npos))
      return true;
  }
  return false;
}

// The C++ and C standard library headers a prelude PCH may hold (sorted).
constexpr std::string_view kStdHeaders[] = {
    "algorithm", "any", "array", "assert.h", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno",
    "cfloat", "chrono", "cinttypes", "climits", "cmath", "complex", "condition_variable", "cstdarg",
    "cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "ctime", "deque", "exception", "float.h",
    "fstream", "functional", "initializer_list", "iomanip", "iostream", "iterator", "limits", "limits.h",
    "list", "map", "math.h", "memory", "mutex", "new", "numeric", "optional", "ostream", "queue", "random",
    "set", "sstream", "stdexcept", "stdint.h", "stdio.h", "stdlib.h", "string", "string.h", "string_view",
    "thread", "tuple", "type_traits", "unordered_map", "unordered_set", "utility", "variant", "vector"};
static_assert(std::is_sorted(std::begin(kStdHeaders), std::end(kStdHeaders)));

void skip_blank(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
}

std::string_view word(std::string_view& s) {
  size_t n = 0;
  while (n < s.size() && ident_char(s[n])) ++n;
  std::string_view w = s.substr(0, n);
  s.remove_prefix(n);
  skip_blank(s);
  return w;
}

// Skips the comments a line starts with (blanks, block comments opened on an earlier line or
// this one that end on it). `in_comment`: a block comment is open, before and after.
void skip_line_comments(std::string_view& line, bool& in_comment) {
  for (;;) {
    if (in_comment) {
      size_t end = line.find("*/");
      if (end == std::string_view::npos) return;
      line.remove_prefix(end + 2);
      in_comment = false;
    }
    skip_blank(line);
    if (!line.starts_with("/*")) return;
    line.remove_prefix(2);
    in_comment = true;
  }
}

// What an `#include` names, for a PCH of standard headers.
enum class IncludeKind {
  Std,          // a standard header: may go into the PCH
  CudaStub,     // a CUDA header: an empty stub (the prelude declares what it would)
  TorchStub,    // a torch header: cudalint's stand-in, the same file for all of them
  TorchAtomic,  // torch's atomic helpers: their declarations depend on the arch, never precompiled
  Other,        // a project or system header
};
IncludeKind classify_include(std::string_view name, bool angled) {
  const auto in = [&](const auto& list) { return std::find(std::begin(list), std::end(list), name) != std::end(list); };
  if (angled && std::binary_search(std::begin(kStdHeaders), std::end(kStdHeaders), name)) return IncludeKind::Std;
  if (in(kCudaHeaders)) return IncludeKind::CudaStub;
  if (in(kTorchHeaders)) return IncludeKind::TorchStub;
  if (in(kTorchAtomicHeaders)) return IncludeKind::TorchAtomic;
  return IncludeKind::Other;
}

// Scans the leading block of `text` (in directory `dir`), adding the standard headers it
// includes to `out`. True when the whole text was such a block: the includer's block goes on.
bool scan_leading(std::string_view text, const std::string& dir, const IncludeLookup& look, int depth, std::string& out) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  bool in_comment = false, first_directive = true;
  std::string guard;  // `#ifndef G` first: `#define G` may follow (an include guard)
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(at, eol - at);
    at = eol + 1;
    skip_line_comments(line, in_comment);  // a line may end a block comment and go on
    if (in_comment || line.empty() || line.starts_with("//")) continue;
    if (line.front() != '#') return false;  // code: the leading block ends
    line.remove_prefix(1);
    skip_blank(line);
    const bool was_first = first_directive;
    first_directive = false;
    std::string_view d = word(line);
    if (d == "pragma" && word(line) == "once") continue;
    if (was_first && d == "ifndef") {
      guard = word(line);
      if (!guard.empty()) continue;
    }
    if (d == "define" && !guard.empty() && word(line) == guard) {
      guard.clear();
      continue;
    }
    if (d != "include" || !guard.empty()) return false;  // #define, #if ...: what follows may depend on it
    if (line.empty() || (line.front() != '<' && line.front() != '"')) return false;
    const bool angled = line.front() == '<';
    size_t close = line.find(angled ? '>' : '"', 1);
    if (close == std::string_view::npos) return false;
    std::string_view name = line.substr(1, close - 1);
    const IncludeKind kind = classify_include(name, angled);
    if (kind == IncludeKind::TorchAtomic) return false;
    if (kind == IncludeKind::Std || kind == IncludeKind::TorchStub) {
      std::string inc = kind == IncludeKind::Std ? fmt::format("#include <{}>\n", name) : std::string(kTorchStubInclude);
      if (out.find(inc) == std::string::npos) out += inc;
      continue;
    }
    if (kind == IncludeKind::CudaStub) continue;
    if (!look) return false;
    IncludeLookup::result_type found = look(name, angled, dir);
    if (!found) return false;        // there, but not to be read here
    if (found->first.empty()) continue;  // missing: the parse goes on without it
    if (depth >= 8) return false;
    llvm::StringRef parent = llvm::sys::path::parent_path(found->first);
    if (!scan_leading(found->second, parent.str(), look, depth + 1, out)) return false;
  }
  return !in_comment;
}

// The macros (by prefix) that the C and C++ standard libraries' headers read: feature-test
// macros, the libraries' own configuration, NDEBUG.
constexpr std::string_view kLibraryMacros[] = {
    "NDEBUG", "_GNU_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE", "_SVID_SOURCE", "_POSIX", "_XOPEN", "_ISOC",
    "_LARGEFILE", "_FILE_OFFSET_BITS", "_TIME_BITS", "_FORTIFY_SOURCE", "_REENTRANT", "_THREAD_SAFE",
    "_ATFILE_SOURCE", "_DYNAMIC_STACK_SIZE_SOURCE", "_USE_MATH_DEFINES", "_GLIBCXX", "_LIBCPP", "__GLIBC",
    "__USE_", "__STDC", "__STRICT_ANSI__", "__cplusplus", "__GXX", "__GNUC", "__clang", "__CUDA__"};

// Whether a macro of that name may change what a standard header declares: one of
// kLibraryMacros, or a lower-case name (a function-like `min` or `max`).
bool library_macro(std::string_view name) {
  const bool lower = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  return lower || std::any_of(std::begin(kLibraryMacros), std::end(kLibraryMacros),
                              [&](std::string_view m) { return name.starts_with(m); });
}

// Scans all of `text` (in directory `dir`) for the standard headers it includes outside any
// conditional group, following the project headers it includes there (once each, `seen`), and
// adds them to `out` in the order a preprocessor would meet them. False when hoisting them
// ahead of the code could change what they declare: a header first met after a macro a standard
// header may read (kLibraryMacros, or a lower-case name: `risky` once one is defined),
// `#pragma pack`, or torch's arch-dependent headers.
// Lines are split as the preprocessor splits them, block comments skipped; a directive inside
// a raw string is taken for one (an extra standard header at worst).
bool scan_all(std::string_view text, const std::string& dir, const IncludeLookup& look, int depth, std::set<std::string>& seen,
              bool& risky, std::string& out) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  bool in_comment = false, first_directive = true;
  std::string guard;      // `#ifndef G` first, `#define G` next: the include guard's group
  bool guarded = false;   // inside that group (its depth does not count)
  int cond = 0;           // conditional groups open, the guard's not counted
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(at, eol - at);
    at = eol + 1;
    skip_line_comments(line, in_comment);
    if (in_comment) continue;
    const bool directive = line.starts_with("#");
    // A block comment opened later on the line (outside a `//` comment and string literals).
    for (size_t i = 0; i + 1 < line.size(); ++i) {
      if (line[i] == '"' || line[i] == '\'') {
        const char q = line[i];
        for (++i; i < line.size() && line[i] != q; ++i)
          if (line[i] == '\\') ++i;
        continue;
      }
      if (line[i] == '/' && line[i + 1] == '/') break;
      if (line[i] == '/' && line[i + 1] == '*') {
        size_t end = line.find("*/", i + 2);
        if (end == std::string_view::npos) {
          in_comment = true;
          break;
        }
        i = end + 1;
      }
    }
    if (!directive) continue;
    line.remove_prefix(1);
    skip_blank(line);
    std::string_view d = word(line);
    if (d == "pragma") {
      std::string_view what = word(line);
      if (what == "pack") return false;
      continue;  // `#pragma once` before a guard leaves it the first directive
    }
    if (!guard.empty() && !guarded) {  // the directive after `#ifndef G`: `#define G` makes it a guard
      std::string_view rest = line;
      if (d == "define" && word(rest) == guard) {
        guarded = true;
        continue;
      }
      guard.clear();
      ++cond;  // an ordinary conditional group after all
    }
    const bool was_first = first_directive;
    first_directive = false;
    if (d == "if" || d == "ifdef" || d == "ifndef") {
      if (was_first && d == "ifndef") {
        std::string_view g = word(line);
        if (!g.empty()) {
          guard = g;
          continue;
        }
      }
      ++cond;
      continue;
    }
    if (d == "endif") {
      if (cond > 0) --cond;
      else guard.clear(), guarded = false;
      continue;
    }
    if (d == "define" || d == "undef") {
      std::string_view name = word(line);
      if (library_macro(name)) risky = true;
      continue;
    }
    if (d != "include" || cond > 0) continue;
    if (line.empty() || (line.front() != '<' && line.front() != '"')) continue;  // a macro names it: not followed
    const bool angled = line.front() == '<';
    size_t close = line.find(angled ? '>' : '"', 1);
    if (close == std::string_view::npos) continue;
    std::string_view name = line.substr(1, close - 1);
    // A header first met after such a macro would be read without it.
    auto add = [&](std::string_view inc) {
      if (out.find(inc) != std::string::npos) return true;
      out += inc;
      return !risky;
    };
    const IncludeKind kind = classify_include(name, angled);
    if (kind == IncludeKind::TorchAtomic) return false;
    if (kind == IncludeKind::Std || kind == IncludeKind::TorchStub) {
      if (!add(kind == IncludeKind::Std ? fmt::format("#include <{}>\n", name) : std::string(kTorchStubInclude))) return false;
      continue;
    }
    if (kind == IncludeKind::CudaStub) continue;
    if (!look) continue;
    IncludeLookup::result_type found = look(name, angled, dir);
    if (!found || found->first.empty()) continue;  // a system header (parsed where it is), or missing
    llvm::SmallString<256> norm(found->first);
    llvm::sys::path::remove_dots(norm, true);
    if (!seen.insert(std::string(norm.str())).second) continue;
    if (depth >= 16) return false;
    llvm::StringRef parent = llvm::sys::path::parent_path(found->first);
    if (!scan_all(found->second, parent.str(), look, depth + 1, seen, risky, out)) return false;
  }
  return true;
}

}  // namespace

bool in_std_library(const clang::SourceManager& sm, clang::SourceLocation loc, std::unordered_map<unsigned, bool>& seen) {
  clang::SourceLocation spelling = sm.getSpellingLoc(loc);
  clang::FileID fid = sm.getFileID(spelling);
  if (fid.isInvalid() || fid == sm.getMainFileID()) return false;
  auto [it, fresh] = seen.try_emplace(fid.getHashValue(), false);
  if (fresh && sm.isInSystemHeader(spelling))
    if (auto fe = sm.getFileEntryRefForID(fid)) it->second = std_library_path(fe->getName());
  return it->second;
}

}  // namespace detail

std::string leading_std_includes(std::string_view text, const std::string& dir, const IncludeLookup& look) {
  std::string out;
  detail::scan_leading(text, dir, look, 0, out);
  return out;
}

std::string hoistable_std_includes(std::string_view text, const std::string& dir, const IncludeLookup& look) {
  std::string out;
  std::set<std::string> seen;
  bool risky = false;
  if (detail::scan_all(text, dir, look, 0, seen, risky, out)) return out;
  return leading_std_includes(text, dir, look);
}

namespace detail {

std::string std_includes_of(std::string_view text, llvm::StringRef file, const Options& opts) {
  IncludeLookup look = [&](std::string_view name, bool angled, const std::string& dir) -> IncludeLookup::result_type {
    std::vector<std::string> dirs;
    if (!angled) dirs.push_back(dir);
    dirs.insert(dirs.end(), opts.include_dirs.begin(), opts.include_dirs.end());
    for (const auto& d : dirs) {
      llvm::SmallString<256> p(d);
      llvm::sys::path::append(p, name);
      if (auto u = opts.unsaved.find(std::string(p.str())); u != opts.unsaved.end()) return {{std::string(p.str()), u->second}};
      struct stat st;
      if (::stat(p.c_str(), &st) != 0) continue;
      if (!S_ISREG(st.st_mode) || st.st_size > (8 << 20)) return std::nullopt;
      auto buf = llvm::MemoryBuffer::getFile(p);
      if (!buf) return std::nullopt;
      return {{std::string(p.str()), (*buf)->getBuffer().str()}};
    }
    for (const char* sys : {"/usr/local/include", "/usr/include", "/usr/include/x86_64-linux-gnu"}) {
      llvm::SmallString<256> p(sys);
      llvm::sys::path::append(p, name);
      if (llvm::sys::fs::exists(p)) return std::nullopt;
    }
    return {{std::string(), std::string()}};
  };
  // The project's -D/-U come after the PCH: one a standard header reads keeps the standard
  // headers where the file has them, as before this scan went past the leading block.
  const std::string dir = llvm::sys::path::parent_path(file).str();
  for (const auto* macros : {&opts.defines, &opts.undefines})
    for (const auto& m : *macros)
      if (library_macro(std::string_view(m).substr(0, m.find('=')))) return leading_std_includes(text, dir, look);
  return hoistable_std_includes(text, dir, look);
}

}  // namespace detail
}  // namespace cudalint::cuda
