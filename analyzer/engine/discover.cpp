#include "analyzer/engine/discover.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "analyzer/engine/glob.h"

namespace cudalint {

namespace {

// strerror text without strerror's shared buffer (discovery may run beside other threads).
std::string errno_message(int e) { return std::generic_category().message(e); }

std::string join(const std::string& dir, std::string_view name) {
  std::string out = dir;
  if (out.empty() || out.back() != '/') out += '/';
  out += name;
  return out;
}

std::string parent_of(const std::string& abs) {
  auto slash = abs.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return abs.substr(0, slash);
}

// `path` is `dir` or lies below it (both absolute and normalised).
bool is_within(std::string_view path, std::string_view dir) {
  if (dir == "/") return !path.empty() && path[0] == '/';
  return path.starts_with(dir) && (path.size() == dir.size() || path[dir.size()] == '/');
}

std::optional<std::string> real_path(const std::string& p) {
  char* r = ::realpath(p.c_str(), nullptr);
  if (!r) return std::nullopt;
  std::string s(r);
  std::free(r);
  return s;
}

std::string link_target(const std::string& p) {
  char buf[PATH_MAX];
  ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
  return n < 0 ? std::string() : std::string(buf, static_cast<size_t>(n));
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return std::string(s);
}

// Lexical normalisation of an absolute path: `..` removes the previous component even if it
// is a symlink, which is what the user typed (and what a shell's `cd ..` does).
std::string normalise(std::string_view joined) {
  std::vector<std::string_view> parts;
  while (!joined.empty()) {
    size_t slash = joined.find('/');
    std::string_view part = joined.substr(0, slash);
    joined = slash == std::string_view::npos ? std::string_view() : joined.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  if (parts.empty()) return "/";
  std::string out;
  for (auto part : parts) {
    out += '/';
    out += part;
  }
  return out;
}

// Resolves `p` (possibly relative) against `base` lexically.
std::string resolve_against(const std::string& base, const std::string& p) {
  return normalise(!p.empty() && p[0] == '/' ? p : join(base, p));
}

// The repository's `info/exclude`. `.git` is usually a directory; in submodules and linked
// worktrees it is a file `gitdir: <path>`, and a worktree's git dir names the shared one in
// `commondir`, which is where `info/` lives.
std::optional<IgnoreList> read_info_exclude(const std::string& repo_root, const std::string& dot_git,
                                            bool dot_git_is_dir) {
  std::string git_dir = dot_git;
  if (!dot_git_is_dir) {
    auto text = read_regular_file(dot_git);
    if (!text || !text->starts_with("gitdir:")) return std::nullopt;
    git_dir = resolve_against(repo_root, trim(std::string_view(*text).substr(7)));
    if (auto common = read_regular_file(join(git_dir, "commondir")))
      git_dir = resolve_against(git_dir, trim(*common));
  }
  auto text = read_regular_file(join(git_dir, "info/exclude"));
  if (!text) return std::nullopt;
  return IgnoreList::from_gitignore_text(repo_root, *text);
}

// The ignore rules in force inside one directory: its own .gitignore, then the ancestors'
// up to the repository root, whose node also holds `.git/info/exclude`. Nodes are shared by
// all paths below a directory, so each .gitignore is read once per discover() call.
struct IgnoreNode {
  const IgnoreNode* parent = nullptr;
  std::optional<IgnoreList> gitignore;
  std::optional<IgnoreList> info_exclude;  // repository roots only
  bool in_repo = false;
};

class Discoverer {
 public:
  explicit Discoverer(const DiscoveryOptions& opts) : opts_(opts) {
    cwd_ = make_absolute(".");  // once: thousands of named paths need not ask each time
    root_ = make_absolute(opts.root.empty() ? std::string(".") : opts.root);
    // Symlink targets are compared with the resolved root: the root itself may be reached
    // through a symlink (e.g. /tmp -> /private/tmp).
    real_root_ = real_path(root_).value_or(root_);
  }

  void add_argument(const std::string& arg) {
    if (arg.empty()) {
      out_.problems.push_back({arg, errno_message(ENOENT)});
      return;
    }
    std::string abs = normalise(arg[0] == '/' ? arg : cwd_ + "/" + arg);
    struct stat st {};
    if (::lstat(abs.c_str(), &st) != 0) {
      int e = errno;
      // Text in memory needs no file on disk (`cat x.cu | cudalint check --stdin-filename new.cu`).
      if (e == ENOENT && opts_.in_memory.count(abs)) {
        if (classify_path(abs) != FileKind::Unknown && !inside_dot_git(abs) && !explicit_excluded(abs, false))
          add_file(abs, true);
        return;
      }
      problem(abs, errno_message(e));
      return;
    }
    if (inside_dot_git(abs)) return;  // `.git` is never entered, not even on request
    if (S_ISLNK(st.st_mode)) {
      // A named symlink to a directory is walked at its real location (so paths and
      // .gitignore rules are those of the real files), but only inside the root.
      struct stat target {};
      if (::stat(abs.c_str(), &target) != 0) {  // reported even for unknown kinds: it was named
        symlink_problem(abs, errno);
        return;
      }
      if (S_ISDIR(target.st_mode)) {
        std::optional<std::string> real = checked_target(abs);
        if (!real) return;
        // Back under the root as spelled, should the root itself be reached via a symlink.
        std::string dir = normalise(root_ + "/" + real->substr(real_root_ == "/" ? 0 : real_root_.size()));
        if (!explicit_excluded(dir, true)) walk(dir);
        return;
      }
      if (classify_path(abs) == FileKind::Unknown || explicit_excluded(abs, false)) return;
      take_symlink(abs, true);
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      if (!explicit_excluded(abs, true)) walk(abs);
      return;
    }
    // Unknown kinds are skipped silently: pre-commit may pass any file.
    if (!S_ISREG(st.st_mode) || classify_path(abs) == FileKind::Unknown) return;
    if (explicit_excluded(abs, false)) return;
    add_file(abs, true);
  }

  DiscoveryResult finish() {
    auto& files = out_.files;
    std::stable_sort(files.begin(), files.end(), [](const DiscoveredFile& a, const DiscoveredFile& b) {
      return a.display_path < b.display_path;
    });
    // Merge duplicates; a file both named and found by walking counts as named.
    std::vector<DiscoveredFile> unique;
    unique.reserve(files.size());
    for (auto& f : files) {
      if (!unique.empty() && unique.back().display_path == f.display_path) {
        unique.back().explicit_arg = unique.back().explicit_arg || f.explicit_arg;
        continue;
      }
      unique.push_back(std::move(f));
    }
    files = std::move(unique);
    auto& probs = out_.problems;
    auto key = [](const DiscoveryProblem& p) { return std::tie(p.display_path, p.message); };
    std::sort(probs.begin(), probs.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
    probs.erase(std::unique(probs.begin(), probs.end(), [&](const auto& a, const auto& b) { return key(a) == key(b); }),
                probs.end());
    return std::move(out_);
  }

 private:
  void problem(const std::string& abs, std::string message) {
    out_.problems.push_back({display_path_for(abs, root_), std::move(message)});
  }

  // A symlink that cannot be resolved: dangling (ENOENT), a cycle (ELOOP), or worse.
  void symlink_problem(const std::string& abs, int e) {
    problem(abs, e == ENOENT ? "broken symlink: " + link_target(abs) : errno_message(e));
  }

  void add_file(const std::string& abs, bool explicit_arg) {
    out_.files.push_back({abs, display_path_for(abs, root_), classify_path(abs), explicit_arg});
  }

  static bool inside_dot_git(std::string_view abs) {
    for (size_t at = 0; (at = abs.find("/.git", at)) != std::string_view::npos; at += 5)
      if (at + 5 == abs.size() || abs[at + 5] == '/') return true;
    return false;
  }

  bool excluded(const std::string& abs, bool is_dir) const {
    return opts_.excluded && opts_.excluded(abs, is_dir);
  }

  // Named paths bypass .gitignore but not `excluded`: the path itself and, inside the root,
  // each directory between the root and it (as if the walk had come down to it), so that an
  // excluded `build/` also drops a named `build/x.py`.
  bool explicit_excluded(const std::string& abs, bool is_dir) const {
    if (!opts_.excluded || abs == root_) return false;
    if (is_within(abs, root_)) {
      size_t from = root_ == "/" ? 1 : root_.size() + 1;
      for (size_t slash = abs.find('/', from); slash != std::string::npos; slash = abs.find('/', slash + 1))
        if (excluded(abs.substr(0, slash), true)) return true;
    }
    return excluded(abs, is_dir);
  }

  // The real path of a symlink when it stays inside the root; otherwise records why not.
  std::optional<std::string> checked_target(const std::string& abs) {
    std::optional<std::string> real = real_path(abs);
    if (!real) {
      symlink_problem(abs, errno);
      return std::nullopt;
    }
    if (!is_within(*real, real_root_)) {
      problem(abs, "symlink points outside the root: " + *real);
      return std::nullopt;
    }
    return real;
  }

  // A symlink whose name has a known kind: taken when it reaches a regular file inside the
  // root. Symlinked directories are not followed while walking (this also rules out loops).
  void take_symlink(const std::string& abs, bool explicit_arg) {
    struct stat st {};
    if (::stat(abs.c_str(), &st) != 0) {
      symlink_problem(abs, errno);
      return;
    }
    if (!S_ISREG(st.st_mode)) return;
    if (checked_target(abs)) add_file(abs, explicit_arg);
  }

  const IgnoreNode* node_for(const std::string& dir) {
    auto it = nodes_.find(dir);
    if (it != nodes_.end()) return it->second.get();
    auto node = std::make_unique<IgnoreNode>();
    std::string dot_git = join(dir, ".git");
    struct stat st {};
    bool read_own = true;
    if (::lstat(dot_git.c_str(), &st) == 0) {
      // A repository root: ancestors' rules (another repository's) stop here.
      node->in_repo = true;
      node->info_exclude = read_info_exclude(dir, dot_git, S_ISDIR(st.st_mode));
    } else {
      const IgnoreNode* up = dir == "/" ? nullptr : node_for(parent_of(dir));
      if (up && up->in_repo) {
        node->in_repo = true;
        node->parent = up;
      } else if (is_within(dir, root_)) {
        // Outside any repository, .gitignore files are still honoured (as ruff does), but
        // only from the root down: stray files in ancestors of the project do not count.
        node->parent = dir == root_ ? nullptr : up;
      } else {
        read_own = false;
      }
    }
    if (read_own)
      if (auto text = read_regular_file(join(dir, ".gitignore")))
        node->gitignore = IgnoreList::from_gitignore_text(dir, *text);
    const IgnoreNode* out = node.get();
    nodes_.emplace(dir, std::move(node));
    return out;
  }

  // Git's precedence: the deepest .gitignore with a matching pattern decides; info/exclude
  // (held by the repository root, the last node of the chain) is consulted last.
  static bool ignored(const IgnoreNode* node, const std::string& abs, bool is_dir) {
    const IgnoreNode* last = nullptr;
    for (const IgnoreNode* n = node; n; n = n->parent) {
      last = n;
      if (!n->gitignore) continue;
      int r = n->gitignore->match(abs, is_dir);
      if (r >= 0) return r == 1;
    }
    return last && last->info_exclude && last->info_exclude->match(abs, is_dir) == 1;
  }

  void walk(const std::string& dir) {
    if (!walked_.insert(dir).second) return;  // named twice, or named and reached by a walk
    const IgnoreNode* node = opts_.respect_gitignore ? node_for(dir) : nullptr;
    std::vector<std::pair<std::string, unsigned char>> entries;
    DIR* d = ::opendir(dir.c_str());
    if (!d) {
      problem(dir, errno_message(errno));
      return;
    }
    while (const dirent* e = ::readdir(d)) {
      std::string_view name = e->d_name;
      if (name == "." || name == ".." || name == ".git") continue;
      entries.emplace_back(std::string(name), e->d_type);
    }
    ::closedir(d);  // closed before descending, so deep trees do not exhaust descriptors
    std::sort(entries.begin(), entries.end());
    for (auto& [name, type] : entries) {
      std::string abs = join(dir, name);
      if (type == DT_UNKNOWN) {  // some file systems do not fill d_type
        struct stat st {};
        if (::lstat(abs.c_str(), &st) != 0) continue;  // vanished meanwhile
        type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
      }
      bool is_dir = type == DT_DIR;  // a symlink is a file to git, whatever it points to
      if (!is_dir && type != DT_REG && type != DT_LNK) continue;
      // Cheapest test first: most files in a tree have a kind we never analyse.
      // A workflow's kind depends on its directory (`.github/workflows/`), not its name alone.
      if (!is_dir && classify_path(name) == FileKind::Unknown &&
          !((name.ends_with(".yml") || name.ends_with(".yaml")) && classify_path(abs) == FileKind::CiWorkflow))
        continue;
      if (node && ignored(node, abs, is_dir)) continue;
      if (excluded(abs, is_dir)) continue;
      if (is_dir) walk(abs);
      else if (type == DT_REG) add_file(abs, false);
      else take_symlink(abs, false);
    }
  }

  const DiscoveryOptions& opts_;
  std::string cwd_;
  std::string root_;       // lexically normalised
  std::string real_root_;  // symlinks resolved
  std::unordered_map<std::string, std::unique_ptr<IgnoreNode>> nodes_;  // by directory
  std::unordered_set<std::string> walked_;
  DiscoveryResult out_;
};

}  // namespace

DiscoveryResult discover(const std::vector<std::string>& paths, const DiscoveryOptions& opts) {
  Discoverer d(opts);
  for (const auto& p : paths) d.add_argument(p);
  return d.finish();
}

std::string make_absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return normalise(path);
  std::string cwd(256, '\0');
  while (::getcwd(cwd.data(), cwd.size()) == nullptr) {
    if (errno != ERANGE) return normalise("/" + path);  // cwd deleted or unreachable: best effort
    cwd.resize(cwd.size() * 2);
  }
  cwd.resize(std::char_traits<char>::length(cwd.c_str()));
  return normalise(cwd + "/" + path);
}

std::string display_path_for(const std::string& abs_path, const std::string& root) {
  std::string_view r = root;
  while (r.size() > 1 && r.back() == '/') r.remove_suffix(1);
  if (abs_path == r) return ".";
  if (r == "/") return abs_path.size() > 1 && abs_path[0] == '/' ? abs_path.substr(1) : abs_path;
  if (is_within(abs_path, r)) return abs_path.substr(r.size() + 1);
  return abs_path;
}

}  // namespace cudalint
