// Finds the files to analyse: walks directories (honouring .gitignore files, .git/info/exclude
// and `exclude` globs), or takes explicit paths as given (pre-commit passes thousands).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/core/source_file.h"

namespace cudalint {

struct DiscoveredFile {
  std::string fs_path;       // path to open (absolute)
  std::string display_path;  // relative to the root when inside it ('/' separators)
  FileKind kind = FileKind::Unknown;
  bool explicit_arg = false; // named on the command line (not found by walking)
};

struct DiscoveryProblem {
  std::string display_path;
  std::string message;       // "No such file or directory", "symlink loop", ...
};

struct DiscoveryOptions {
  std::string root;          // absolute run root (usually the cwd)
  bool respect_gitignore = true;
  // Extra exclusion: return true to skip a path (absolute path, is_dir). Used for the
  // config's `exclude`. Explicitly named files are still checked against it (like ruff's
  // --force-exclude being on), so pre-commit runs honour excludes.
  std::function<bool(const std::string& abs_path, bool is_dir)> excluded;
  // Absolute paths of files whose text is in memory (--stdin-filename, editor buffers): named
  // explicitly, they are taken even when nothing is on disk there.
  std::set<std::string> in_memory;
};

struct DiscoveryResult {
  std::vector<DiscoveredFile> files;      // sorted by display_path, no duplicates
  std::vector<DiscoveryProblem> problems; // unreadable or missing paths, loops
};

// `paths` may name files or directories (relative to the cwd or absolute). Directories are
// walked; only files with a known FileKind are returned. Explicit files of unknown kind are
// skipped silently (pre-commit may pass anything). Hidden directories `.git`, `.hg`, `.svn`
// and `node_modules`-style vendored dirs are NOT special-cased beyond .gitignore, except
// `.git` itself, which is never entered. Symlinks to directories are not followed; symlinks
// to files are followed only when the target stays inside the root.
DiscoveryResult discover(const std::vector<std::string>& paths, const DiscoveryOptions& opts);

// Path helpers shared by the engine.
std::string make_absolute(const std::string& path);            // lexically normalised
std::string display_path_for(const std::string& abs_path, const std::string& root);

}  // namespace cudalint
