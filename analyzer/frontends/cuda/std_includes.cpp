// CUDA front-end: the C++ standard library's headers (std_includes.h), and leading_std_includes.
#include "analyzer/frontends/cuda/std_includes.h"

#include <sys/stat.h>

#include <algorithm>
#include <iterator>
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
    // Comments, blank lines; a line may end a block comment and go on.
    for (;;) {
      if (in_comment) {
        size_t end = line.find("*/");
        if (end == std::string_view::npos) break;
        line.remove_prefix(end + 2);
        in_comment = false;
      }
      skip_blank(line);
      if (!line.starts_with("/*")) break;
      line.remove_prefix(2);
      in_comment = true;
    }
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
    if (angled && std::binary_search(std::begin(kStdHeaders), std::end(kStdHeaders), name)) {
      std::string inc = fmt::format("#include <{}>\n", name);
      if (out.find(inc) == std::string::npos) out += inc;
      continue;
    }
    if (std::find(std::begin(kCudaHeaders), std::end(kCudaHeaders), name) != std::end(kCudaHeaders)) continue;  // empty stubs
    // torch's headers: cudalint's stand-in (the same file for all of them) goes into the PCH too.
    if (std::find(std::begin(kTorchHeaders), std::end(kTorchHeaders), name) != std::end(kTorchHeaders)) {
      if (out.find(kTorchStubInclude) == std::string::npos) out += kTorchStubInclude;
      continue;
    }
    // Its declarations depend on the arch (`__CUDA_ARCH__ < 600`): never precompiled.
    if (std::find(std::begin(kTorchAtomicHeaders), std::end(kTorchAtomicHeaders), name) != std::end(kTorchAtomicHeaders))
      return false;
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
  return leading_std_includes(text, llvm::sys::path::parent_path(file).str(), look);
}

}  // namespace detail
}  // namespace cudalint::cuda
