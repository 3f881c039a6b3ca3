// Unit tests for gitignore pattern matching (analyzer/engine/glob). The expectations follow
// https://git-scm.com/docs/gitignore#_pattern_format; each case was also checked against
// `git check-ignore` where git's answer is about the pattern alone.
#include "analyzer/engine/glob.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudalint {
namespace {

struct Case {
  const char* pattern;  // one .gitignore line
  const char* path;     // relative to the .gitignore's directory
  bool is_dir;
  bool expected;        // the pattern matches (before looking at negation)
};

constexpr bool F = false, D = true;  // is_dir

const Case kCases[] = {
    // A name without a slash matches at any depth, files and directories alike.
    {"foo.py", "foo.py", F, true},
    {"foo.py", "a/b/foo.py", F, true},
    {"foo.py", "foo.pyc", F, false},
    {"foo.py", "xfoo.py", F, false},
    {"foo", "foo", D, true},
    {"foo", "a/foo", D, true},
    {"foo", "foo/bar", F, false},  // contents are left to the walker (it skips the directory)
    // `*` and `?` stay within one component.
    {"*.py", "setup.py", F, true},
    {"*.py", "a/b/setup.py", F, true},
    {"*.py", ".py", F, true},
    {"*.py", "setup.pyi", F, false},
    {"a*z", "az", F, true},
    {"a*z", "abcz", F, true},
    {"a*z", "abc", F, false},
    {"a*b*c", "aXbYbZc", F, true},
    {"a*b*c", "aXbYbZ", F, false},
    {"???.cu", "abc.cu", F, true},
    {"???.cu", "ab.cu", F, false},
    {"???.cu", "abcd.cu", F, false},
    {"src/*.cu", "src/k.cu", F, true},
    {"src/*.cu", "src/sub/k.cu", F, false},
    {"src/?/k.cu", "src/x/k.cu", F, true},
    {"a?b", "a/b", F, false},
    {"src*", "src/x", F, false},
    // A slash at the beginning or in the middle anchors the pattern to the base directory.
    {"/foo", "foo", F, true},
    {"/foo", "a/foo", F, false},
    {"/foo", "foo", D, true},
    {"doc/frotz", "doc/frotz", F, true},
    {"doc/frotz", "a/doc/frotz", F, false},
    {"/doc/frotz", "doc/frotz", D, true},
    {"a/b/*.py", "a/b/c.py", F, true},
    {"a/b/*.py", "x/a/b/c.py", F, false},
    // A trailing slash matches directories only (and does not anchor by itself).
    {"build/", "build", D, true},
    {"build/", "build", F, false},
    {"build/", "x/y/build", D, true},
    {"build/", "x/build", F, false},
    {"doc/frotz/", "doc/frotz", D, true},
    {"doc/frotz/", "a/doc/frotz", D, false},
    {"doc/frotz/", "doc/frotz", F, false},
    {"*/", "anything", D, true},
    {"*/", "anything", F, false},
    // `**/x`: x at any depth, including the top.
    {"**/foo", "foo", F, true},
    {"**/foo", "a/foo", F, true},
    {"**/foo", "a/b/c/foo", D, true},
    {"**/foo", "a/foox", F, false},
    {"**/foo/bar", "foo/bar", F, true},
    {"**/foo/bar", "x/y/foo/bar", F, true},
    {"**/foo/bar", "x/foo/y/bar", F, false},
    {"/**/foo", "a/foo", F, true},
    // `x/**`: everything inside x, but not x itself.
    {"abc/**", "abc/x", F, true},
    {"abc/**", "abc/x/y/z.py", F, true},
    {"abc/**", "abc/d", D, true},
    {"abc/**", "abc", D, false},
    {"abc/**", "x/abc/y", F, false},
    // `a/**/b`: zero or more directories in between.
    {"a/**/b", "a/b", F, true},
    {"a/**/b", "a/x/b", F, true},
    {"a/**/b", "a/x/y/b", F, true},
    {"a/**/b", "a/x/y/bb", F, false},
    {"a/**/b", "x/a/b", F, false},
    {"a/**/b/*.py", "a/q/b/t.py", F, true},
    {"a/**/**/b", "a/b", F, true},
    {"a/**/**/b", "a/x/y/b", F, true},
    // Other runs of stars are plain `*`.
    {"**", "foo", F, true},
    {"**", "a/b/foo", F, true},
    {"a**b", "axxb", F, true},
    {"a/**b", "a/xb", F, true},
    {"a/**b", "a/x/b", F, false},
    {"**foo", "a/xfoo", F, true},
    {"a/b**", "a/bc", F, true},
    {"a/b**", "a/bc/d", F, false},
    // Character classes: ranges, sets, `!`/`^` negation, `]` first, POSIX names.
    {"*.[ch]", "x.c", F, true},
    {"*.[ch]", "x.h", F, true},
    {"*.[ch]", "x.o", F, false},
    {"file[0-9].py", "file7.py", F, true},
    {"file[0-9].py", "filex.py", F, false},
    {"file[!0-9].py", "filex.py", F, true},
    {"file[!0-9].py", "file7.py", F, false},
    {"file[^0-9].py", "filex.py", F, true},
    {"file[^0-9].py", "file7.py", F, false},
    {"[a-cx-z]", "b", F, true},
    {"[a-cx-z]", "y", F, true},
    {"[a-cx-z]", "m", F, false},
    {"[]]", "]", F, true},
    {"[!]]", "]", F, false},
    {"[!]]", "a", F, true},
    {"[a-]", "-", F, true},
    {"[[:digit:]]x", "5x", F, true},
    {"[[:digit:]]x", "ax", F, false},
    {"[[:upper:][:digit:]]", "Q", F, true},
    {"[[:upper:][:digit:]]", "q", F, false},
    {"a[/]b", "a/b", F, false},    // a class never matches the separator
    {"a[!x]b", "a/b", F, false},
    {"[abc", "a", F, false},       // unterminated class: never matches
    {"[abc", "[abc", F, false},
    {"[[:nope:]]", "a", F, false}, // unknown class name: never matches
    // Escapes.
    {"\\#notes", "#notes", F, true},
    {"\\!important", "!important", F, true},
    {"\\*", "*", F, true},
    {"\\*", "x", F, false},
    {"a\\?", "a?", F, true},
    {"a\\?", "ab", F, false},
    {"[\\]]", "]", F, true},
    {"\\a\\b", "ab", F, true},
    {"a\\", "a", F, false},        // a trailing backslash is invalid and never matches
    // Trailing spaces are trimmed unless escaped.
    {"foo.py   ", "foo.py", F, true},
    {"foo\\ ", "foo ", F, true},
    {"foo\\ ", "foo", F, false},
    {"foo\\  ", "foo ", F, true},
    {"a b", "a b", F, true},
    // Case matters (core.ignoreCase is not supported).
    {"Dockerfile", "dockerfile", F, false},
};

TEST(GlobMatches, Table) {
  for (const Case& c : kCases) {
    GlobPattern g;
    ASSERT_TRUE(parse_glob(c.pattern, g)) << c.pattern;
    EXPECT_EQ(glob_matches(g, c.path, c.is_dir), c.expected)
        << "pattern '" << c.pattern << "' path '" << c.path << "' is_dir " << c.is_dir;
  }
}

TEST(ParseGlob, BlanksAndComments) {
  GlobPattern g;
  EXPECT_FALSE(parse_glob("", g));
  EXPECT_FALSE(parse_glob("   ", g));
  EXPECT_FALSE(parse_glob("# comment", g));
  EXPECT_FALSE(parse_glob("#", g));
  EXPECT_FALSE(parse_glob("!", g));
  EXPECT_FALSE(parse_glob("/", g));
  EXPECT_TRUE(parse_glob(" #not-a-comment", g));  // only a leading `#` starts a comment
  EXPECT_EQ(g.pattern, " #not-a-comment");
}

TEST(ParseGlob, Flags) {
  GlobPattern g;
  ASSERT_TRUE(parse_glob("!build/", g));
  EXPECT_TRUE(g.negated);
  EXPECT_TRUE(g.dir_only);
  EXPECT_FALSE(g.anchored);
  EXPECT_EQ(g.pattern, "build");

  ASSERT_TRUE(parse_glob("/build", g));
  EXPECT_FALSE(g.negated);
  EXPECT_FALSE(g.dir_only);
  EXPECT_TRUE(g.anchored);

  ASSERT_TRUE(parse_glob("a/b/", g));
  EXPECT_TRUE(g.dir_only);
  EXPECT_TRUE(g.anchored);
  EXPECT_EQ(g.pattern, "a/b");

  ASSERT_TRUE(parse_glob("\\!x", g));  // escaped: not a negation
  EXPECT_FALSE(g.negated);
  ASSERT_TRUE(parse_glob("\\#x", g));
  EXPECT_FALSE(g.negated);
  ASSERT_TRUE(parse_glob("x  ", g));
  EXPECT_EQ(g.pattern, "x");
}

TEST(IgnoreList, LastMatchWins) {
  auto l = IgnoreList::from_gitignore_text("/repo", "*.py\n!keep.py\n");
  EXPECT_EQ(l.match("/repo/a.py", false), 1);
  EXPECT_EQ(l.match("/repo/sub/keep.py", false), 0);
  EXPECT_EQ(l.match("/repo/a.cu", false), -1);

  // Order matters: a later positive pattern overrides an earlier negation.
  auto r = IgnoreList::from_gitignore_text("/repo", "!keep.py\n*.py\n");
  EXPECT_EQ(r.match("/repo/keep.py", false), 1);
}

TEST(IgnoreList, RelativeToBaseDir) {
  auto l = IgnoreList::from_gitignore_text("/repo/sub/", "/gen\nout/\n");  // trailing '/' ok
  EXPECT_EQ(l.base_dir(), "/repo/sub");
  EXPECT_EQ(l.match("/repo/sub/gen", false), 1);
  EXPECT_EQ(l.match("/repo/sub/x/gen", false), -1);   // anchored to /repo/sub
  EXPECT_EQ(l.match("/repo/gen", false), -1);         // outside the base dir
  EXPECT_EQ(l.match("/repo/subgen", false), -1);      // a sibling with the same prefix
  EXPECT_EQ(l.match("/repo/sub", true), -1);          // the base dir itself
  EXPECT_EQ(l.match("/repo/sub/x/out", true), 1);
  EXPECT_EQ(l.match("/repo/sub/x/out", false), -1);   // dir-only

  auto at_root = IgnoreList::from_gitignore_text("/", "/etc\n");
  EXPECT_EQ(at_root.match("/etc", true), 1);
  EXPECT_EQ(at_root.match("/x/etc", true), -1);
}

TEST(IgnoreList, GitignoreText) {
  // BOM, CRLF, comments, blank lines, escapes and trailing spaces.
  auto l = IgnoreList::from_gitignore_text("/r", "\xEF\xBB\xBF*.log\r\n# c\r\n\r\n\\#x\n\\!y  \nz\\ \n");
  EXPECT_EQ(l.match("/r/a.log", false), 1);
  EXPECT_EQ(l.match("/r/#x", false), 1);
  EXPECT_EQ(l.match("/r/!y", false), 1);
  EXPECT_EQ(l.match("/r/z ", false), 1);
  EXPECT_EQ(l.match("/r/z", false), -1);
  EXPECT_EQ(l.match("/r/# c", false), -1);
}

TEST(IgnoreList, ConstructedFromPatterns) {
  std::vector<GlobPattern> pats;
  for (const char* s : {"third_party/", "!third_party/"}) {
    GlobPattern g;
    ASSERT_TRUE(parse_glob(s, g));
    pats.push_back(g);
  }
  IgnoreList l("/p", pats);
  EXPECT_EQ(l.match("/p/third_party", true), 0);
  EXPECT_EQ(l.match("/p/third_party", false), -1);
  EXPECT_EQ(IgnoreList().match("/p/x", false), -1);
}

TEST(GlobMatches, ManyStarsStayFast) {
  // Backtracking must be pruned: this would take ages with naive recursion.
  GlobPattern g;
  ASSERT_TRUE(parse_glob("a*a*a*a*a*a*a*a*a*a*a*a*b", g));
  std::string text(200, 'a');
  EXPECT_FALSE(glob_matches(g, text, false));
  ASSERT_TRUE(parse_glob("**/a*a*a*a*a*a*a*a*/**/b", g));
  std::string deep;
  for (int i = 0; i < 30; ++i) deep += std::string(20, 'a') + "/";
  deep += "c";
  EXPECT_FALSE(glob_matches(g, deep, false));
}

}  // namespace
}  // namespace cudalint
