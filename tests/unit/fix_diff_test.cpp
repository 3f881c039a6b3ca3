// unified_diff (analyzer/engine/fix.h), which `cudalint check --diff` prints: checked against
// what `diff -u` prints for the same texts, and by applying its hunks back.
#include <gtest/gtest.h>

#include "analyzer/engine/fix.h"

using cudalint::unified_diff;

TEST(UnifiedDiff, EqualTextsGiveNothing) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x"), "");
  EXPECT_EQ(unified_diff("", "", "x"), "");
}

TEST(UnifiedDiff, OneChangedLineWithContext) {
  std::string old_text = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string new_text = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_diff(old_text, new_text, "d/Dockerfile"),
            "--- a/d/Dockerfile\n+++ b/d/Dockerfile\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, DistantChangesAreSeparateHunksNearOnesMerge) {
  std::string old_text, far_text, near_text;
  for (int i = 1; i <= 20; ++i) old_text += std::to_string(i) + "\n";
  far_text = old_text;
  far_text.replace(far_text.find("2\n"), 2, "two\n");
  far_text.replace(far_text.find("\n19\n") + 1, 3, "nineteen\n");
  EXPECT_EQ(unified_diff(old_text, far_text, "f"),
            "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
            "@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n");
  near_text = old_text;
  near_text.replace(near_text.find("\n3\n") + 1, 2, "three\n");
  near_text.replace(near_text.find("\n10\n") + 1, 3, "ten\n");  // 6 equal lines between: one hunk
  EXPECT_EQ(unified_diff(old_text, near_text, "f"),
            "--- a/f\n+++ b/f\n@@ -1,13 +1,13 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n 8\n 9\n-10\n+ten\n"
            " 11\n 12\n 13\n");
}

TEST(UnifiedDiff, InsertionsDeletionsAndMissingFinalNewline) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nx\nb\n", "p"), "--- a/p\n+++ b/p\n@@ -1,2 +1,3 @@\n a\n+x\n b\n");
  EXPECT_EQ(unified_diff("a\nx\nb\n", "a\nb\n", "p"), "--- a/p\n+++ b/p\n@@ -1,3 +1,2 @@\n a\n-x\n b\n");
  EXPECT_EQ(unified_diff("", "a\n", "p"), "--- a/p\n+++ b/p\n@@ -0,0 +1 @@\n+a\n");
  EXPECT_EQ(unified_diff("a\nb", "a\nc", "p"),
            "--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
            "\\ No newline at end of file\n");
  EXPECT_EQ(unified_diff("a\nb", "a\nb\n", "p"),
            "--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
}
