// `--diff-base` (analyzer/engine/diff_base): parsing `git diff --unified=0` and filtering
// findings. The end-to-end test against a real repository is tests/integration/diff_base_test.py.
#include "analyzer/engine/diff_base.h"

#include <gtest/gtest.h>

namespace cudalint {
namespace {

constexpr std::string_view kDiff =
    "diff --git a/Dockerfile b/Dockerfile\n"
    "index 1111111..2222222 100644\n"
    "--- a/Dockerfile\n"
    "+++ b/Dockerfile\n"
    "@@ -3 +3 @@ FROM x\n"
    "-ENV A=1\n"
    "+ENV A=2\n"
    "@@ -10,0 +11,3 @@\n"
    "+a\n+b\n+c\n"
    "@@ -20,2 +22,0 @@\n"
    "-gone\n-gone\n"
    "diff --git a/old name.py b/docker/new name.py\n"
    "similarity index 90%\n"
    "rename from old name.py\n"
    "rename to docker/new name.py\n"
    "--- a/old name.py\n"
    "+++ b/docker/new name.py\n"
    "@@ -1 +1,2 @@\n"
    "-x\n+y\n+z\n"
    "diff --git a/deleted.cu b/deleted.cu\n"
    "deleted file mode 100644\n"
    "--- a/deleted.cu\n"
    "+++ /dev/null\n"
    "@@ -1,4 +0,0 @@\n"
    "-gone\n"
    "diff --git \"a/t\\303\\251st\\tx.cmake\" \"b/t\\303\\251st\\tx.cmake\"\n"
    "--- \"a/t\\303\\251st\\tx.cmake\"\n"
    "+++ \"b/t\\303\\251st\\tx.cmake\"\n"
    "@@ -0,0 +1 @@\n"
    "+new\n"
    "diff --git a/img.bin b/img.bin\n"
    "Binary files a/img.bin and b/img.bin differ\n";

TEST(DiffBase, ParsesHunksRenamesDeletionsAndQuotedPaths) {
  ChangedLines c;
  parse_unified_diff(kDiff, "/repo", c);
  EXPECT_TRUE(c.contains("/repo/Dockerfile", 3, 3));
  EXPECT_FALSE(c.contains("/repo/Dockerfile", 4, 10));
  EXPECT_TRUE(c.contains("/repo/Dockerfile", 11, 11));
  EXPECT_TRUE(c.contains("/repo/Dockerfile", 13, 13));
  EXPECT_FALSE(c.contains("/repo/Dockerfile", 14, 30));  // the pure deletion adds nothing
  EXPECT_TRUE(c.contains("/repo/Dockerfile", 1, 3));      // a range touching a changed line
  EXPECT_TRUE(c.contains("/repo/docker/new name.py", 2, 2));
  EXPECT_FALSE(c.contains("/repo/old name.py", 1, 1));
  EXPECT_FALSE(c.contains("/repo/deleted.cu", 1, 1));
  EXPECT_TRUE(c.contains("/repo/t\xC3\xA9st\tx.cmake", 1, 1));
  EXPECT_FALSE(c.contains("/repo/img.bin", 1, 1));
}

TEST(DiffBase, FiltersFindingsByAnyChangedLineOfTheirRange) {
  ChangedLines c;
  parse_unified_diff(kDiff, "/repo", c);
  c.whole_files.insert("/repo/new.Dockerfile");
  auto f = [](std::string path, uint32_t l1, uint32_t l2, uint32_t c2 = 5) {
    Finding x;
    x.location = {std::move(path), {l1, 1, l2, c2}};
    return x;
  };
  std::vector<Finding> v{f("Dockerfile", 3, 3),  f("Dockerfile", 5, 5),   f("Dockerfile", 1, 3),
                         f("Dockerfile", 2, 3, 1), f("new.Dockerfile", 40, 40), f("/repo/Dockerfile", 12, 12),
                         f("/elsewhere/Dockerfile", 3, 3)};
  EXPECT_EQ(filter_changed(c, "/repo", v), 3u);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].location.region.start_line, 3u);
  EXPECT_EQ(v[1].location.region.start_line, 1u);   // spans line 3
  EXPECT_EQ(v[2].location.path, "new.Dockerfile");  // untracked: every line
  EXPECT_EQ(v[3].location.path, "/repo/Dockerfile");
  // (2,1)-(3,1) ends before line 3: dropped.
}

TEST(DiffBase, RejectsOptionLikeRevisionsAndNonRepositories) {
  ChangedLines c;
  std::string err;
  EXPECT_FALSE(changed_since("--output=/tmp/x", "/", c, err));
  EXPECT_NE(err.find("expects a git revision"), std::string::npos) << err;
  EXPECT_FALSE(changed_since("HEAD", "/proc", c, err));
  EXPECT_NE(err.find("git work tree"), std::string::npos) << err;
}

}  // namespace
}  // namespace cudalint
