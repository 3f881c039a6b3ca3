// `--diff-base REV`: keep only findings on lines changed since a git revision (the "new code
// only" gate). Changed lines come from `git diff --unified=0 REV` (committed, staged and
// unstaged changes) plus untracked files, which count as changed throughout.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/core/finding.h"

namespace cudalint {

struct ChangedLines {
  // Absolute path → inclusive 1-based [first, last] line ranges added or modified.
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> ranges;
  std::set<std::string> whole_files;  // new to git (untracked): every line counts
  bool contains(const std::string& abs_path, uint32_t first, uint32_t last) const;
};

// Parses the output of `git diff --unified=0 --src-prefix=a/ --dst-prefix=b/`; paths are
// joined to `top` (the repository's top level). Renamed files count under their new name;
// deleted files contribute nothing.
void parse_unified_diff(std::string_view diff, const std::string& top, ChangedLines& out);

// Runs git in `dir` (never a shell). False with `err` set when git is missing, `dir` is not
// in a work tree, or `rev` does not name a commit.
bool changed_since(const std::string& rev, const std::string& dir, ChangedLines& out, std::string& err);

// Drops findings none of whose lines changed. `root` is the run root the finding paths are
// relative to. Returns how many were dropped.
size_t filter_changed(const ChangedLines& changed, const std::string& root, std::vector<Finding>& findings);

}  // namespace cudalint
