// gitignore-style path patterns, used for .gitignore, `exclude` and `per-file-ignores`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudalint {

// One gitignore pattern (https://git-scm.com/docs/gitignore#_pattern_format): `*`, `?`,
// `[a-z]`, `[!x]`, `**/`, `/**`, `/**/`, leading `/` anchors, trailing `/` = dirs only,
// leading `!` negates, `\` escapes. A pattern without a slash (other than a trailing one)
// matches a name at any depth.
struct GlobPattern {
  std::string pattern;    // as written, after stripping `!` and trailing `/`
  bool negated = false;
  bool dir_only = false;
  bool anchored = false;  // contained a slash: matches relative to the base dir only
};

bool parse_glob(std::string_view line, GlobPattern& out);  // false for blanks/comments
// `rel_path` uses '/' separators, relative to the pattern's base directory.
bool glob_matches(const GlobPattern& p, std::string_view rel_path, bool is_dir);

// An ordered list of patterns from one file (or config key); the last match wins.
class IgnoreList {
 public:
  IgnoreList() = default;
  IgnoreList(std::string base_dir, std::vector<GlobPattern> patterns);
  static IgnoreList from_gitignore_text(std::string base_dir, std::string_view text);
  const std::string& base_dir() const { return base_dir_; }
  // -1: no pattern matched; 0: matched by a negation (re-included); 1: ignored.
  int match(std::string_view abs_path, bool is_dir) const;

 private:
  std::string base_dir_;  // absolute, no trailing slash
  std::vector<GlobPattern> patterns_;
};

}  // namespace cudalint
