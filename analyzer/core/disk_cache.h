// A content-addressed cache of analysis products on disk (parsed summaries, precompiled
// preludes), shared by concurrent runs.
//
// An entry is found by a key: the BLAKE3 hash of everything the product depends on, always
// including this build of cudalint (its ELF build id), so a rebuilt binary never reads what an
// older one wrote. A run's entries are kept in memory and written together, one pack file per
// kind (`v1/<kind>/*.pack`), when the run flushes: a file per entry cost a new inode each, 8% of
// a cold run's CPU on a 10,000-file tree. A pack is written to a temporary file and renamed into
// place (readers see a whole pack or none); each entry carries its own length and checksum (a
// damaged pack is a miss, never a wrong answer). Small packs are merged into one when a kind has
// more than kMaxPacks of them, so that an editor session or many pre-commit runs do not leave
// thousands. Packed entries are not evicted. Large entries (a file's precompiled preamble, about
// 10 MB) are kept one file each instead (`v1/<kind>/<key>.entry`, written at once), at most a
// given number per kind: storing one removes the least recently used beyond it. Deleting the
// directory is safe at any time, also during a run.
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace cudalint {

class DiskCache {
 public:
  // A kind with more packs than this has its smaller ones merged when a run flushes.
  static constexpr size_t kMaxPacks = 16;

  // `dir` is created on the first store, with a CACHEDIR.TAG and a .gitignore of `*`.
  explicit DiskCache(std::string dir);
  ~DiskCache();  // flushes
  DiskCache(DiskCache&&) noexcept;
  DiskCache& operator=(DiskCache&&) noexcept;

  // The default directory: $CUDALINT_CACHE_DIR, else $XDG_CACHE_HOME/cudalint, else
  // $HOME/.cache/cudalint; empty when none of them is set.
  static std::string default_dir();
  // This executable's build id in hex ("" when the binary has none: then nothing is cached).
  static const std::string& build_id();

  // The key of a product: BLAKE3 over the build id, `kind` and each part (length-prefixed).
  static std::string key(std::string_view kind, std::initializer_list<std::string_view> parts);

  // The entry stored under `key`, if present and intact: stored by this object (flushed or
  // not), or in a pack that was on disk when this object first looked at `kind`, or that this
  // object wrote. Thread-safe.
  std::optional<std::string> load(std::string_view kind, const std::string& key) const;
  // Keeps `bytes` under `key` until the next flush; false when the cache directory cannot be
  // made (the run goes on uncached). Thread-safe.
  bool store(std::string_view kind, const std::string& key, std::string_view bytes) const;
  // Writes what was stored since the last flush, one pack per kind; false when a pack could not
  // be written (its entries are dropped: a cache may forget). Thread-safe.
  bool flush() const;
  // A large entry of `kind` (one file, see above), if present and intact; a hit marks it used.
  std::optional<std::string> load_large(std::string_view kind, const std::string& key) const;
  // Writes `bytes` under `key` now, then removes the least recently used entries of `kind`
  // beyond `max_entries`; false when it could not be written.
  bool store_large(std::string_view kind, const std::string& key, std::string_view bytes, size_t max_entries) const;
  // The large entries of `kind` on disk now (tests).
  size_t large_entries_on_disk(std::string_view kind) const;

  // The distinct keys of `kind` in the packs on disk now (tests).
  size_t entries_on_disk(std::string_view kind) const;

  const std::string& dir() const { return dir_; }
  // False when there is no build id: keys could not tell builds apart.
  bool usable() const { return !dir_.empty() && !build_id().empty(); }

 private:
  struct State;
  bool prepare_root() const;

  std::string dir_;
  std::unique_ptr<State> state_;
};

}  // namespace cudalint
