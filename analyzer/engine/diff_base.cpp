#include "analyzer/engine/diff_base.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "analyzer/engine/discover.h"

extern char** environ;

namespace cudalint {

namespace {

std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  if (::realpath(p.c_str(), buf)) return buf;
  return make_absolute(p);
}

// git quotes unusual paths C-style ("a\tb", "\303\251"); core.quotePath=false leaves UTF-8 alone.
std::string unquote(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::string(s);
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    char c = s[i];
    if (c != '\\' || i + 1 >= s.size() - 1) {
      out.push_back(c);
      continue;
    }
    char n = s[++i];
    switch (n) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'a': out.push_back('\a'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'v': out.push_back('\v'); break;
      default:
        if (n >= '0' && n <= '7' && i + 2 < s.size() - 1) {
          int v = (n - '0') * 64 + (s[i + 1] - '0') * 8 + (s[i + 2] - '0');
          out.push_back(static_cast<char>(v));
          i += 2;
        } else {
          out.push_back(n);  // \" and \\ .
        }
    }
  }
  return out;
}

bool parse_count(std::string_view s, uint32_t& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

// Runs argv (no shell) in `dir`, capturing stdout and stderr. Returns the exit status, or -1
// when it could not start.
int run_capture(const std::vector<std::string>& argv, const std::string& dir, std::string& out, std::string& err) {
  int po[2], pe[2];
  if (::pipe2(po, O_CLOEXEC) != 0) return -1;
  if (::pipe2(pe, O_CLOEXEC) != 0) {
    ::close(po[0]);
    ::close(po[1]);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(po[1]);
  ::close(pe[1]);
  if (rc != 0) {
    ::close(po[0]);
    ::close(pe[0]);
    err = std::strerror(rc);
    return -1;
  }
  pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string first_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

}  // namespace

bool ChangedLines::contains(const std::string& abs_path, uint32_t first, uint32_t last) const {
  if (whole_files.count(abs_path)) return true;
  auto it = ranges.find(abs_path);
  if (it == ranges.end()) return false;
  for (const auto& [a, b] : it->second)
    if (a <= last && first <= b) return true;
  return false;
}

void parse_unified_diff(std::string_view diff, const std::string& top, ChangedLines& out) {
  std::string current;  // absolute path of the file the hunks belong to; "" = none (deleted)
  size_t pos = 0;
  while (pos < diff.size()) {
    size_t nl = diff.find('\n', pos);
    std::string_view line = diff.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? diff.size() : nl + 1;
    if (line.starts_with("diff --git ")) {
      current.clear();
    } else if (line.starts_with("+++ ")) {
      std::string_view p = line.substr(4);
      while (!p.empty() && (p.back() == '\t' || p.back() == '\r')) p.remove_suffix(1);
      std::string name = unquote(p);
      if (name == "/dev/null" || !name.starts_with("b/")) current.clear();
      else current = top + "/" + name.substr(2);
      if (!current.empty()) out.ranges[current];  // present even when only lines were deleted
    } else if (line.starts_with("@@ ") && !current.empty()) {
      // @@ -a[,b] +c[,d] @@
      auto plus = line.find(" +");
      if (plus == std::string_view::npos) continue;
      auto end = line.find(' ', plus + 2);
      std::string_view spec = line.substr(plus + 2, end == std::string_view::npos ? std::string_view::npos : end - plus - 2);
      uint32_t start = 0, count = 1;
      auto comma = spec.find(',');
      if (!parse_count(spec.substr(0, comma), start)) continue;
      if (comma != std::string_view::npos && !parse_count(spec.substr(comma + 1), count)) continue;
      if (count == 0) continue;  // a pure deletion adds no line
      out.ranges[current].emplace_back(start, start + count - 1);
    }
  }
}

bool changed_since(const std::string& rev, const std::string& dir, ChangedLines& out, std::string& err) {
  if (rev.empty() || rev.starts_with("-")) {
    err = fmt::format("--diff-base expects a git revision, not `{}`", rev);
    return false;
  }
  std::string o, e;
  int rc = run_capture({"git", "rev-parse", "--show-toplevel"}, dir, o, e);
  if (rc < 0) {
    err = "cannot run git" + (e.empty() ? std::string() : ": " + e);
    return false;
  }
  if (rc != 0) {
    err = fmt::format("--diff-base needs a git work tree: {}", first_line(e));
    return false;
  }
  std::string top = real_path(first_line(o));
  o.clear();
  e.clear();
  if (run_capture({"git", "rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"}, top, o, e) != 0) {
    err = fmt::format("--diff-base: `{}` does not name a commit in {}", rev, top);
    return false;
  }
  std::string commit = first_line(o);
  o.clear();
  e.clear();
  rc = run_capture({"git", "-c", "core.quotePath=false", "diff", "--unified=0", "--no-color", "--no-ext-diff",
                    "--no-textconv", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", commit, "--"},
                   top, o, e);
  if (rc != 0) {
    err = fmt::format("git diff {} failed: {}", rev, first_line(e));
    return false;
  }
  parse_unified_diff(o, top, out);
  o.clear();
  e.clear();
  rc = run_capture({"git", "ls-files", "--others", "--exclude-standard", "-z"}, top, o, e);
  if (rc != 0) {
    err = fmt::format("git ls-files failed: {}", first_line(e));
    return false;
  }
  size_t pos = 0;
  while (pos < o.size()) {
    size_t z = o.find('\0', pos);
    if (z == std::string::npos) z = o.size();
    if (z > pos) out.whole_files.insert(top + "/" + o.substr(pos, z - pos));
    pos = z + 1;
  }
  return true;
}

size_t filter_changed(const ChangedLines& changed, const std::string& root, std::vector<Finding>& findings) {
  std::string real_root = real_path(root.empty() ? "." : root);
  size_t before = findings.size();
  std::erase_if(findings, [&](const Finding& f) {
    std::string abs = f.location.path.starts_with("/") ? f.location.path : real_root + "/" + f.location.path;
    const Region& r = f.location.region;
    // A range ending at column 1 ends before that line.
    uint32_t last = r.end_line > r.start_line && r.end_column == 1 ? r.end_line - 1 : r.end_line;
    return !changed.contains(abs, r.start_line, std::max(r.start_line, last));
  });
  return before - findings.size();
}

}  // namespace cudalint
