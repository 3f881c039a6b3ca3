// gitignore patterns (.gitignore files, `exclude`, `per-file-ignores`): the input's first line
// block (up to "\n#---\n") is a .gitignore, the rest are paths to match, one per line (a
// trailing `/` marks a directory). Matching must stay polynomial: `*a*a*a*…` must not backtrack
// exponentially.
#include "analyzer/engine/glob.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(glob) {
  using namespace cudalint;
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), "\n#---\n", 2);
  IgnoreList list = IgnoreList::from_gitignore_text("/r", parts[0]);
  std::string_view paths = parts.size() > 1 ? parts[1] : std::string_view("a/b.cu\nsrc/\n");
  size_t n = 0;
  while (!paths.empty() && n++ < 64) {
    size_t nl = paths.find('\n');
    std::string_view p = paths.substr(0, nl);
    paths.remove_prefix(nl == std::string_view::npos ? paths.size() : nl + 1);
    bool dir = p.ends_with('/');
    if (dir) p.remove_suffix(1);
    int m = list.match("/r/" + std::string(p), dir);
    CUDALINT_FUZZ_CHECK(m >= -1 && m <= 1);
  }
  // Each line on its own, as `exclude` entries are parsed.
  std::string_view lines = parts[0];
  n = 0;
  while (!lines.empty() && n++ < 16) {
    size_t nl = lines.find('\n');
    GlobPattern g;
    if (parse_glob(lines.substr(0, nl), g)) (void)glob_matches(g, "a/b/c.cu", false);
    lines.remove_prefix(nl == std::string_view::npos ? lines.size() : nl + 1);
  }
  return 0;
}
