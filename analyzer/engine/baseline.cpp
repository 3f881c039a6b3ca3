#include "analyzer/engine/baseline.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace cudalint {

namespace {

// The baseline key of a finding's line: FNV-1a over the line without whitespace. Unlike
// GitHub's rolling hash (which also covers the next lines) it survives edits around the line.
std::string content_hash(const Finding& f) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : f.source_line) {
    if (c == ' ' || c == '\t' || c == '\r') continue;
    h = (h ^ c) * 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

bool write_all(int fd, std::string_view content) {
  size_t off = 0;
  while (off < content.size()) {
    ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    off += static_cast<size_t>(n);
  }
  return true;
}

bool write_in_place(const std::string& path, std::string_view content, std::string& error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  bool ok = fd >= 0 && write_all(fd, content);
  int err = errno;
  if (fd >= 0 && ::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) error = fmt::format("cannot write {}: {}", path, std::strerror(err));
  return ok;
}

}  // namespace

bool write_file_atomically(const std::string& link_path, std::string_view content, std::string& error) {
  // Write through symlinks: renaming over the link would replace it with a regular file.
  std::string fs_path = link_path;
  if (char* real = ::realpath(link_path.c_str(), nullptr)) {
    fs_path = real;
    std::free(real);
  }
  // A device, pipe or socket (`-o /dev/null`, `-o /dev/stdout`, a FIFO) is written in place:
  // renaming over it would replace it with a regular file.
  if (struct stat target {}; ::stat(fs_path.c_str(), &target) == 0 && !S_ISREG(target.st_mode))
    return write_in_place(fs_path, content, error);
  auto slash = fs_path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : fs_path.substr(0, slash == 0 ? 1 : slash);
  std::string tmpl = dir + "/.cudalint-tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    error = fmt::format("cannot write {}: {}", fs_path, std::strerror(errno));
    return false;
  }
  struct stat st {};
  mode_t mode = 0644;
  if (::stat(fs_path.c_str(), &st) == 0) mode = st.st_mode & 07777;
  else {
    mode_t um = ::umask(0);
    ::umask(um);
    mode = 0666 & ~um;
  }
  bool ok = write_all(fd, content);
  if (ok && (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0)) ok = false;
  int err = errno;
  ::close(fd);
  if (!ok || ::rename(name.data(), fs_path.c_str()) != 0) {
    if (ok) err = errno;
    ::unlink(name.data());
    error = fmt::format("cannot write {}: {}", fs_path, std::strerror(err));
    return false;
  }
  return true;
}

bool read_baseline(const std::string& fs_path, Baseline& out, std::string& error) {
  std::ifstream in(fs_path, std::ios::binary);
  if (!in) {
    error = fmt::format("cannot read baseline {}: {}", fs_path, std::strerror(errno));
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = llvm::json::parse(ss.str());
  if (!parsed) {
    error = fmt::format("baseline {} is not valid JSON: {}", fs_path, llvm::toString(parsed.takeError()));
    return false;
  }
  const auto* root = parsed->getAsObject();
  const auto* arr = root ? root->getArray("findings") : nullptr;
  if (!arr) {
    error = fmt::format("baseline {} has no `findings` array", fs_path);
    return false;
  }
  for (const auto& v : *arr) {
    const auto* o = v.getAsObject();
    if (!o) continue;
    BaselineEntry e;
    if (auto s = o->getString("rule")) e.rule = s->str();
    if (auto s = o->getString("path")) e.path = s->str();
    if (auto s = o->getString("line_hash")) e.hash = s->str();
    if (auto s = o->getString("message")) e.message = s->str();
    if (e.rule.empty() || e.path.empty()) continue;
    out.entries.push_back(std::move(e));
  }
  return true;
}

bool write_baseline(const std::string& fs_path, const std::vector<Finding>& findings, std::string& error) {
  std::string buf;
  llvm::raw_string_ostream os(buf);
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("version", 1);
    j.attribute("tool", "cudalint");
    j.attributeArray("findings", [&] {
      for (const auto& f : findings) {
        j.object([&] {
          j.attribute("rule", std::string(f.rule->id));
          j.attribute("path", f.location.path);
          j.attribute("line_hash", content_hash(f));
          j.attribute("line", static_cast<int64_t>(f.location.region.start_line));
          j.attribute("message", f.message);
        });
      }
    });
  });
  os << "\n";
  os.flush();
  return write_file_atomically(fs_path, buf, error);
}

size_t filter_baseline(const Baseline& baseline, std::vector<Finding>& findings) {
  std::map<std::tuple<std::string, std::string, std::string>, size_t> budget;
  for (const auto& e : baseline.entries) ++budget[{e.rule, e.path, e.hash}];
  size_t removed = 0;
  std::vector<Finding> kept;
  for (auto& f : findings) {
    auto it = budget.find({std::string(f.rule->id), f.location.path, content_hash(f)});
    if (it != budget.end() && it->second > 0) {
      --it->second;
      ++removed;
      continue;
    }
    kept.push_back(std::move(f));
  }
  findings = std::move(kept);
  return removed;
}

}  // namespace cudalint
