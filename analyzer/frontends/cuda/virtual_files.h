// The file systems a parse sees: cudalint's in-memory files (the prelude and its PCH, the stub
// headers, Clang's embedded headers, the analysed text) over the real file system, whose look-ups
// are recorded for the cache of results. Private to analyzer/frontends/cuda.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <clang/Basic/FileManager.h>
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace cudalint::cuda::detail {

// Every path a parse looked up on the real file system, and what it found: with the inputs in
// the key, this is all a cached result depends on (headers found, headers not found, directories
// searched). The in-memory files (the analysed text, the prelude) never reach it.
// File: exists (only its status was asked: the driver probing for installations); Read: opened,
// so its content counts.
enum class Probe : uint8_t { Absent, File, Dir, Other, Read };
using Manifest = std::map<std::string, Probe>;

// Adds a look-up of `path` to `m`: a file both probed and read counts as read; any other
// difference means it changed during the parse.
void note_probe(Manifest& m, std::string path, Probe p);

// The in-memory files that are the same for every parse of a flag set: the prelude, the PCH and
// its main file, the arch macros, the stub CUDA headers and the embedded Clang headers (about 140
// files: made once per flag set, not for every parse).
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> fixed_files(const std::string& resource_dir,
                                                                    const std::string& prelude,
                                                                    const std::string_view* pch,
                                                                    const std::string* arch_text);

// The files every parse sees besides the disk: the fixed files (fixed_files: shared, or made
// here) and `mem`, for the analysed text and editor buffers, over the real file system (its
// look-ups recorded in `record` when given).
struct VirtualFiles {
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> mem{new llvm::vfs::InMemoryFileSystem};
  llvm::IntrusiveRefCntPtr<clang::FileManager> files;

  VirtualFiles(const std::string& resource_dir, const std::string& prelude, const std::string_view* pch,
               Manifest* record = nullptr, const std::string* arch_text = nullptr,
               llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> shared = nullptr);
};

}  // namespace cudalint::cuda::detail
