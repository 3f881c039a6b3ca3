#include "analyzer/core/disk_cache.h"

#include "analyzer/core/source_file.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/BLAKE3.h>

namespace cudalint {

namespace {

constexpr std::string_view kMagic = "CLCACHE1";
constexpr size_t kHeader = 8 + 8 + 32;  // magic, payload length, BLAKE3 of the payload

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

bool write_file_atomically(const std::string& path, std::string_view bytes) {
  std::string tmp = temp_name(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = write_all(fd, bytes);
  ok = (::close(fd) == 0) && ok;
  if (ok && ::rename(tmp.c_str(), path.c_str()) == 0) return true;
  ::unlink(tmp.c_str());
  return false;
}

}  // namespace

DiskCache::DiskCache(std::string dir) : dir_(std::move(dir)) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
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

std::string DiskCache::path_of(std::string_view kind, const std::string& key) const {
  return fmt::format("{}/v1/{}/{}/{}", dir_, kind, key.substr(0, 2), key.substr(2));
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
  // Entries are far below 4 GiB; a bigger file is not one (and is not read).
  auto read = read_regular_file(path_of(kind, key), (uint64_t{1} << 32) - 1);
  if (!read) return std::nullopt;
  std::string& data = *read;
  if (data.size() < kHeader || std::string_view(data).substr(0, 8) != kMagic) return std::nullopt;
  uint64_t len = 0;
  std::memcpy(&len, data.data() + 8, sizeof len);
  if (len != data.size() - kHeader) return std::nullopt;
  std::string_view payload = std::string_view(data).substr(kHeader);
  auto sum = blake3(payload);
  if (std::memcmp(sum.data(), data.data() + 16, sum.size()) != 0) return std::nullopt;
  data.erase(0, kHeader);  // in place: no second copy of a large entry
  return std::move(data);
}

bool DiskCache::store(std::string_view kind, const std::string& key, std::string_view bytes) const {
  if (!usable() || key.size() < 3) return false;
  if (!prepare_root()) return false;
  std::string path = path_of(kind, key);
  if (!mkdirs(path.substr(0, path.find_last_of('/')))) return false;
  std::string data;
  data.reserve(kHeader + bytes.size());
  data += kMagic;
  uint64_t len = bytes.size();
  data.append(reinterpret_cast<const char*>(&len), sizeof len);
  auto sum = blake3(bytes);
  data.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  data += bytes;
  return write_file_atomically(path, data);
}

}  // namespace cudalint
