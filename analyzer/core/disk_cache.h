// A content-addressed cache of analysis products on disk (parsed summaries, precompiled
// preludes), shared by concurrent runs.
//
// An entry is found by a key: the BLAKE3 hash of everything the product depends on, always
// including this build of cudalint (its ELF build id), so a rebuilt binary never reads what an
// older one wrote. Entries are written to a temporary file and renamed into place (readers see
// a whole entry or none) and carry their own length and checksum (a truncated or corrupted
// entry is a miss, never a wrong answer). Nothing is evicted; deleting the directory is safe at
// any time, also during a run.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace cudalint {

class DiskCache {
 public:
  // `dir` is created on the first store, with a CACHEDIR.TAG and a .gitignore of `*`.
  explicit DiskCache(std::string dir);

  // The default directory: $CUDALINT_CACHE_DIR, else $XDG_CACHE_HOME/cudalint, else
  // $HOME/.cache/cudalint; empty when none of them is set.
  static std::string default_dir();
  // This executable's build id in hex ("" when the binary has none: then nothing is cached).
  static const std::string& build_id();

  // The key of a product: BLAKE3 over the build id, `kind` and each part (length-prefixed).
  static std::string key(std::string_view kind, std::initializer_list<std::string_view> parts);

  // The entry stored under `key`, if present and intact.
  std::optional<std::string> load(std::string_view kind, const std::string& key) const;
  // Stores `bytes` under `key` atomically; false when it could not (the run goes on uncached).
  bool store(std::string_view kind, const std::string& key, std::string_view bytes) const;

  const std::string& dir() const { return dir_; }
  // False when there is no build id: keys could not tell builds apart.
  bool usable() const { return !dir_.empty() && !build_id().empty(); }

 private:
  std::string path_of(std::string_view kind, const std::string& key) const;
  bool prepare_root() const;

  std::string dir_;
};

}  // namespace cudalint
