#include "analyzer/core/disk_cache.h"

#include "analyzer/core/source_file.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/BLAKE3.h>

namespace cudalint {

namespace {

// A pack: kPackMagic, then records (payload length u64, BLAKE3 of the payload, payload), then
// the index (per entry: key length u16, key, record offset u64), then the footer (index offset
// u64, entry count u64, BLAKE3 of the index, kIndexMagic).
constexpr std::string_view kPackMagic = "CLPACK01";
constexpr std::string_view kIndexMagic = "CLPKIDX1";
constexpr size_t kRecordHeader = 8 + 32;
constexpr size_t kFooter = 8 + 8 + 32 + 8;
// Stores beyond this many pending bytes flush at once (a run's memory stays bounded).
constexpr size_t kMaxPendingBytes = size_t{32} << 20;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// The NT_GNU_BUILD_ID note of the main executable, from its program headers in memory.
int find_build_id(struct dl_phdr_info* info, size_t, void* out_ptr) {
  auto& out = *static_cast<std::string*>(out_ptr);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    size_t left = ph.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) nh;
      std::memcpy(&nh, p, sizeof nh);
      size_t name_sz = (nh.n_namesz + 3) & ~size_t{3}, desc_sz = (nh.n_descsz + 3) & ~size_t{3};
      size_t total = sizeof nh + name_sz + desc_sz;
      if (total > left) break;
      if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && std::memcmp(p + sizeof nh, "GNU", 4) == 0 &&
          nh.n_descsz > 0) {
        out = llvm::toHex(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(p + sizeof nh + name_sz),
                                                  nh.n_descsz),
                          /*LowerCase=*/true);
        return 1;
      }
      p += total;
      left -= total;
    }
  }
  return 1;  // the first object is the executable: stop either way
}

std::array<uint8_t, 32> blake3(std::string_view bytes) {
  llvm::BLAKE3 h;
  h.update(llvm::StringRef(bytes.data(), bytes.size()));
  return h.final();
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool mkdirs(const std::string& path) {
  if (path.empty()) return false;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  auto slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !mkdirs(path.substr(0, slash))) return false;
  return ::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST;
}

// A name no other writer (thread or process) uses at the same time.
std::string temp_name(const std::string& final_path) {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{}.tmp.{}.{}.{}", final_path, ::getpid(),
                     std::hash<std::thread::id>{}(std::this_thread::get_id()), counter++);
}

// Writes `path` atomically: `write(fd)` fills a temporary file of a name no other writer uses,
// which replaces `path` only when everything was written and closed (else it is removed).
template <class Write>
bool write_atomically(const std::string& path, Write&& write) {
  std::string tmp = temp_name(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = write(fd);
  ok = (::close(fd) == 0) && ok;
  if (ok && ::rename(tmp.c_str(), path.c_str()) == 0) return true;
  ::unlink(tmp.c_str());
  return false;
}

bool write_file_atomically(const std::string& path, std::string_view bytes) {
  return write_atomically(path, [&](int fd) { return write_all(fd, bytes); });
}

bool read_at(int fd, char* out, size_t n, uint64_t off) {
  while (n > 0) {
    ssize_t r = ::pread(fd, out, n, static_cast<off_t>(off));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    out += r;
    n -= static_cast<size_t>(r);
    off += static_cast<uint64_t>(r);
  }
  return true;
}

template <class T>
T get(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// An open pack file; entries keep it open, so a pack merged away (unlinked) stays readable.
struct Pack {
  int fd = -1;
  uint64_t records_end = 0;  // where the index starts: records lie before it
  ~Pack() {
    if (fd >= 0) ::close(fd);
  }
};

struct Entry {
  std::shared_ptr<const Pack> pack;
  uint64_t offset = 0;
};

// Opens `path` and reads its index into `out` (key → entry); false (nothing added) when it is
// not an intact pack.
bool read_pack(const std::string& path, std::vector<std::pair<std::string, Entry>>& out) {
  auto pack = std::make_shared<Pack>();
  pack->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (pack->fd < 0) return false;
  struct stat st;
  if (::fstat(pack->fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < kPackMagic.size() + kFooter) return false;
  char head[8], foot[kFooter];
  if (!read_at(pack->fd, head, sizeof head, 0) || std::string_view(head, 8) != kPackMagic) return false;
  if (!read_at(pack->fd, foot, kFooter, size - kFooter)) return false;
  if (std::string_view(foot + 48, 8) != kIndexMagic) return false;
  const uint64_t index_at = get<uint64_t>(foot), count = get<uint64_t>(foot + 8);
  if (index_at < kPackMagic.size() || index_at > size - kFooter) return false;
  std::string index(size - kFooter - index_at, '\0');
  if (!read_at(pack->fd, index.data(), index.size(), index_at)) return false;
  if (std::memcmp(blake3(index).data(), foot + 16, 32) != 0) return false;
  if (count > index.size() / (2 + 8)) return false;
  pack->records_end = index_at;
  std::vector<std::pair<std::string, Entry>> found;
  found.reserve(count);
  size_t at = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (index.size() - at < 2) return false;
    const size_t klen = get<uint16_t>(index.data() + at);
    at += 2;
    if (index.size() - at < klen + 8) return false;
    std::string key = index.substr(at, klen);
    at += klen;
    const uint64_t off = get<uint64_t>(index.data() + at);
    at += 8;
    if (off < kPackMagic.size() || off > index_at) return false;
    found.emplace_back(std::move(key), Entry{pack, off});
  }
  if (at != index.size()) return false;
  for (auto& f : found) out.push_back(std::move(f));
  return true;
}

// The payload of the record at `e`, if intact.
std::optional<std::string> read_record(const Entry& e) {
  const Pack& p = *e.pack;
  if (p.records_end - e.offset < kRecordHeader) return std::nullopt;
  char head[kRecordHeader];
  if (!read_at(p.fd, head, sizeof head, e.offset)) return std::nullopt;
  const uint64_t len = get<uint64_t>(head);
  if (len > p.records_end - e.offset - kRecordHeader) return std::nullopt;
  std::string payload(len, '\0');
  if (!read_at(p.fd, payload.data(), len, e.offset + kRecordHeader)) return std::nullopt;
  if (std::memcmp(blake3(payload).data(), head + 8, 32) != 0) return std::nullopt;
  return payload;
}

// Writes a pack holding `entries` (key, payload) to `path` atomically, streaming (a run's
// entries are not copied once more).
template <class Entries>
bool write_pack(const std::string& path, const Entries& entries) {
  return write_atomically(path, [&](int fd) {
    std::string buf(kPackMagic), index;
    uint64_t at = 0, count = 0;
    bool ok = true;
    auto drain = [&](bool all) {
      if (ok && (all || buf.size() >= (size_t{1} << 20))) {
        ok = write_all(fd, buf);
        at += buf.size();
        buf.clear();
      }
    };
    for (const auto& [key, payload] : entries) {
      if (key.size() > UINT16_MAX) continue;
      put<uint16_t>(index, static_cast<uint16_t>(key.size()));
      index += key;
      put<uint64_t>(index, at + buf.size());
      put<uint64_t>(buf, payload.size());
      auto sum = blake3(payload);
      buf.append(reinterpret_cast<const char*>(sum.data()), sum.size());
      if (payload.size() >= (size_t{1} << 16)) {  // a large payload goes out as it is
        drain(true);
        ok = ok && write_all(fd, payload);
        at += payload.size();
      } else {
        buf += payload;
      }
      ++count;
      drain(false);
    }
    const uint64_t index_at = at + buf.size();
    buf += index;
    put<uint64_t>(buf, index_at);
    put<uint64_t>(buf, count);
    auto sum = blake3(index);
    buf.append(reinterpret_cast<const char*>(sum.data()), sum.size());
    buf += kIndexMagic;
    drain(true);
    return ok;
  });
}

// The packs of a kind's directory, by path.
std::vector<std::string> list_packs(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name.size() > 5 && name.ends_with(".pack")) out.push_back(dir + "/" + std::string(name));
  }
  ::closedir(d);
  // Names start with the writing time (fixed width): newest first, so that a key stored again
  // (a CUDA result whose headers changed) is read from its latest pack.
  std::sort(out.begin(), out.end(), std::greater<>());
  return out;
}

// The entries of every intact pack in `dir`, newest pack first.
std::vector<std::pair<std::string, Entry>> read_packs(const std::string& dir) {
  std::vector<std::pair<std::string, Entry>> found;
  for (const auto& path : list_packs(dir)) read_pack(path, found);
  return found;
}

// The time a pack's name starts with (0 when it has none).
uint64_t pack_time(const std::string& path) {
  std::string_view name = std::string_view(path).substr(path.find_last_of('/') + 1);
  uint64_t t = 0;
  for (size_t i = 0; i < 16 && i < name.size(); ++i) {
    char c = name[i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (v < 0) return 0;
    t = t * 16 + static_cast<uint64_t>(v);
  }
  return t;
}

// A large entry's file: kLargeMagic, the BLAKE3 of the payload, the payload.
constexpr std::string_view kLargeMagic = "CLLARGE1";
constexpr std::string_view kLargeSuffix = ".entry";

// The large entries of a kind's directory: (modification time, path), least recently used first.
std::vector<std::pair<int64_t, std::string>> list_large(const std::string& dir) {
  std::vector<std::pair<int64_t, std::string>> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (!name.ends_with(kLargeSuffix)) continue;
    std::string path = dir + "/" + std::string(name);
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      out.emplace_back(st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec, std::move(path));
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

uint64_t now_ns() {
  struct timespec ts;
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

struct DiskCache::State {
  std::mutex mu;
  struct Kind {
    bool scanned = false;     // the packs on disk are in `entries`
    bool dir_ready = false;   // the directory exists
    std::unordered_map<std::string, Entry> entries;
    std::map<std::string, std::string> pending;  // stored since the last flush
  };
  std::map<std::string, Kind, std::less<>> kinds;
  size_t pending_bytes = 0;
  uint64_t nonce = std::random_device{}();
  uint64_t packs_written = 0;

  Kind& kind(std::string_view k) {
    auto it = kinds.find(k);
    if (it == kinds.end()) it = kinds.emplace(std::string(k), Kind{}).first;
    return it->second;
  }
};

namespace {
}  // namespace

DiskCache::DiskCache(std::string dir) : dir_(std::move(dir)), state_(std::make_unique<State>()) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

DiskCache::~DiskCache() {
  if (state_) flush();
}

DiskCache::DiskCache(DiskCache&&) noexcept = default;
DiskCache& DiskCache::operator=(DiskCache&& o) noexcept {
  if (this != &o) {
    if (state_) flush();
    dir_ = std::move(o.dir_);
    state_ = std::move(o.state_);
  }
  return *this;
}

std::string DiskCache::default_dir() {
  if (auto d = env("CUDALINT_CACHE_DIR"); !d.empty()) return d;
  if (auto d = env("XDG_CACHE_HOME"); !d.empty() && d[0] == '/') return d + "/cudalint";
  if (auto d = env("HOME"); !d.empty() && d[0] == '/') return d + "/.cache/cudalint";
  return {};
}

const std::string& DiskCache::build_id() {
  static const std::string id = [] {
    std::string out;
    dl_iterate_phdr(&find_build_id, &out);
    return out;
  }();
  return id;
}

std::string DiskCache::key(std::string_view kind, std::initializer_list<std::string_view> parts) {
  llvm::BLAKE3 h;
  auto add = [&](std::string_view s) {
    uint64_t n = s.size();
    h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(&n), sizeof n));
    h.update(llvm::StringRef(s.data(), s.size()));
  };
  add(build_id());
  add(kind);
  for (auto p : parts) add(p);
  auto r = h.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(r.data(), r.size()), /*LowerCase=*/true);
}

bool DiskCache::prepare_root() const {
  if (!mkdirs(dir_)) return false;
  // Marks the directory as a cache for backup tools (https://bford.info/cachedir/) and keeps
  // it out of git when it lies inside a repository.
  struct stat st;
  std::string tag = dir_ + "/CACHEDIR.TAG";
  if (::stat(tag.c_str(), &st) != 0)
    write_file_atomically(tag, "Signature: 8a477f597d28d172789f06886806bc55\n"
                               "# This directory is cudalint's cache; it is safe to delete.\n");
  std::string ignore = dir_ + "/.gitignore";
  if (::stat(ignore.c_str(), &st) != 0) write_file_atomically(ignore, "*\n");
  return true;
}

std::optional<std::string> DiskCache::load(std::string_view kind, const std::string& key) const {
  if (!usable() || key.size() < 3) return std::nullopt;
  Entry e;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    State::Kind& k = state_->kind(kind);
    if (auto it = k.pending.find(key); it != k.pending.end()) return it->second;
    if (!k.scanned) {
      // Once per kind and object: every pack's index (a few reads per pack).
      k.scanned = true;
      std::vector<std::pair<std::string, Entry>> found = read_packs(fmt::format("{}/v1/{}", dir_, kind));
      for (auto& [fkey, fe] : found) k.entries.try_emplace(std::move(fkey), std::move(fe));
    }
    auto it = k.entries.find(key);
    if (it == k.entries.end()) return std::nullopt;
    e = it->second;
  }
  return read_record(e);
}

bool DiskCache::store(std::string_view kind, const std::string& key, std::string_view bytes) const {
  if (!usable() || key.size() < 3 || key.size() > UINT16_MAX) return false;
  bool over = false;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    State::Kind& k = state_->kind(kind);
    if (!k.dir_ready) {
      if (!prepare_root() || !mkdirs(fmt::format("{}/v1/{}", dir_, kind))) return false;
      k.dir_ready = true;
    }
    auto [it, fresh] = k.pending.try_emplace(key);
    if (fresh) state_->pending_bytes += bytes.size();
    it->second.assign(bytes.data(), bytes.size());
    over = state_->pending_bytes > kMaxPendingBytes;
  }
  if (over) flush();
  return true;
}

std::optional<std::string> DiskCache::load_large(std::string_view kind, const std::string& key) const {
  if (!usable() || key.empty()) return std::nullopt;
  const std::string path = fmt::format("{}/v1/{}/{}{}", dir_, kind, key, kLargeSuffix);
  auto bytes = read_regular_file(path);
  const size_t head = kLargeMagic.size() + 32;
  if (!bytes || bytes->size() < head || std::string_view(*bytes).substr(0, kLargeMagic.size()) != kLargeMagic)
    return std::nullopt;
  std::string_view payload = std::string_view(*bytes).substr(head);
  if (std::memcmp(blake3(payload).data(), bytes->data() + kLargeMagic.size(), 32) != 0) return std::nullopt;
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // used now: the last to be removed
  bytes->erase(0, head);
  return bytes;
}

bool DiskCache::store_large(std::string_view kind, const std::string& key, std::string_view bytes,
                            size_t max_entries) const {
  if (!usable() || key.empty() || key.find('/') != std::string::npos) return false;
  const std::string dir = fmt::format("{}/v1/{}", dir_, kind);
  if (!prepare_root() || !mkdirs(dir)) return false;
  const std::string path = fmt::format("{}/{}{}", dir, key, kLargeSuffix);
  auto sum = blake3(bytes);
  bool ok = write_atomically(path, [&](int fd) {
    return write_all(fd, kLargeMagic) &&
           write_all(fd, std::string_view(reinterpret_cast<const char*>(sum.data()), sum.size())) &&
           write_all(fd, bytes);
  });
  std::vector<std::pair<int64_t, std::string>> all = list_large(dir);
  // Another run may remove the same files at the same time: a failed unlink is harmless.
  for (size_t i = 0; i + max_entries < all.size(); ++i)
    if (all[i].second != path) ::unlink(all[i].second.c_str());
  return ok;
}

size_t DiskCache::large_entries_on_disk(std::string_view kind) const {
  return list_large(fmt::format("{}/v1/{}", dir_, kind)).size();
}

size_t DiskCache::entries_on_disk(std::string_view kind) const {
  std::vector<std::pair<std::string, Entry>> found = read_packs(fmt::format("{}/v1/{}", dir_, kind));
  std::vector<std::string> keys;
  for (auto& [key, e] : found) keys.push_back(std::move(key));
  std::sort(keys.begin(), keys.end());
  return static_cast<size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

bool DiskCache::flush() const {
  if (!state_) return true;
  std::map<std::string, std::map<std::string, std::string>, std::less<>> todo;
  uint64_t serial = 0;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    for (auto& [name, k] : state_->kinds)
      if (!k.pending.empty()) todo[name] = std::exchange(k.pending, {});
    state_->pending_bytes = 0;
    serial = state_->packs_written;
    state_->packs_written += todo.size();
  }
  bool ok = true;
  for (const auto& [kind, entries] : todo) {
    const std::string dir = fmt::format("{}/v1/{}", dir_, kind);
    // A name no other writer (thread or process) uses.
    const std::string path =
        fmt::format("{}/{:016x}-{}-{:016x}-{}.pack", dir, now_ns(), ::getpid(), state_->nonce, serial++);
    if (!write_pack(path, entries)) {
      ok = false;
      continue;
    }
    std::vector<std::pair<std::string, Entry>> written;
    read_pack(path, written);
    // Too many packs: the smaller ones are merged into one (the largest, usually a cold run's,
    // is left as it is, so a merge costs about what the small packs hold).
    std::vector<std::string> packs = list_packs(dir);
    std::vector<std::pair<std::string, Entry>> merged;
    if (packs.size() > kMaxPacks) {
      std::vector<std::pair<uint64_t, std::string>> by_size;
      for (const auto& p : packs) {
        struct stat st;
        if (::stat(p.c_str(), &st) == 0) by_size.emplace_back(static_cast<uint64_t>(st.st_size), p);
      }
      std::sort(by_size.begin(), by_size.end());
      if (!by_size.empty()) by_size.pop_back();
      // Newest first (the first payload of a key wins), as loads read them.
      std::sort(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      std::vector<std::pair<std::string, Entry>> old;
      std::vector<std::string> sources;
      uint64_t newest = 0;
      for (const auto& [size, p] : by_size)
        if (read_pack(p, old)) {
          sources.push_back(p);
          newest = std::max(newest, pack_time(p));
        }
      std::map<std::string, std::string> all;
      for (const auto& [key, e] : old)
        if (!all.count(key))
          if (auto payload = read_record(e)) all.emplace(key, std::move(*payload));
      // Named by its newest source's time: it takes that pack's place in the order.
      const std::string to =
          fmt::format("{}/{:016x}-{}-{:016x}-{}-merged.pack", dir, newest, ::getpid(), state_->nonce, serial++);
      if (write_pack(to, all)) {
        for (const auto& p : sources) ::unlink(p.c_str());
        read_pack(to, merged);
      }
    }
    std::lock_guard<std::mutex> lock(state_->mu);
    State::Kind& k = state_->kind(kind);
    if (k.scanned) {
      for (auto& [key, e] : written) k.entries.insert_or_assign(std::move(key), std::move(e));
      for (auto& [key, e] : merged) k.entries.insert_or_assign(std::move(key), std::move(e));
    }
  }
  return ok;
}

}  // namespace cudalint
