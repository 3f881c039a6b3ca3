// Unit tests for file discovery (analyzer/engine/discover): each test builds a small tree in a
// fresh mkdtemp directory and checks what discover() returns for it.
#include "analyzer/engine/discover.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace cudalint {
namespace {

using Paths = std::vector<std::string>;

class Discover : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cudalint-discover-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    // Canonical, so that expectations need not care whether /tmp is itself a symlink.
    char* real = ::realpath(tmpl, nullptr);
    ASSERT_NE(real, nullptr);
    base_ = real;
    std::free(real);
    root_ = base_ + "/proj";
    mkdir("");
  }

  void TearDown() override {
    std::error_code ec;  // remove_all does not follow symlinks, so links out cannot hurt
    std::filesystem::remove_all(base_, ec);
  }

  std::string abs(const std::string& rel) const { return rel.empty() ? root_ : root_ + "/" + rel; }

  void mkdir(const std::string& rel) const {
    std::error_code ec;
    std::filesystem::create_directories(abs(rel), ec);
    ASSERT_FALSE(ec) << rel;
  }

  void write(const std::string& rel, const std::string& text = "") const {
    auto slash = rel.find_last_of('/');
    if (slash != std::string::npos) mkdir(rel.substr(0, slash));
    std::ofstream(abs(rel)) << text;
  }

  void symlink(const std::string& target, const std::string& rel) const {
    ASSERT_EQ(::symlink(target.c_str(), abs(rel).c_str()), 0) << rel;
  }

  void make_repo(const std::string& rel = "") const { mkdir(rel.empty() ? ".git" : rel + "/.git"); }

  DiscoveryResult run(const Paths& rel_paths, DiscoveryOptions opts = {}) const {
    opts.root = root_;
    Paths paths;
    for (const auto& p : rel_paths) paths.push_back(p.starts_with("/") ? p : abs(p));
    return discover(paths, opts);
  }

  static Paths shown(const DiscoveryResult& r) {
    Paths out;
    for (const auto& f : r.files) out.push_back(f.display_path);
    return out;
  }

  static std::string problems(const DiscoveryResult& r) {
    std::string out;
    for (const auto& p : r.problems) out += p.display_path + ": " + p.message + "\n";
    return out;
  }

  std::string base_;  // the mkdtemp directory; the root is base_/proj
  std::string root_;
};

TEST_F(Discover, WalksSortedAndKeepsKnownKindsOnly) {
  make_repo();
  for (const char* f : {"z.py", "Dockerfile", "a/CMakeLists.txt", "a/k.cu", "a/b/req.txt",
                        "a/b/requirements-dev.txt", "README.md", "a.py", "B.py", "a/notes.txt"})
    write(f);
  mkdir("empty");
  auto r = run({"."});
  EXPECT_EQ(shown(r), (Paths{"B.py", "Dockerfile", "a.py", "a/CMakeLists.txt",
                             "a/b/requirements-dev.txt", "a/k.cu", "z.py"}));
  EXPECT_EQ(problems(r), "");
  for (const auto& f : r.files) {
    EXPECT_EQ(f.fs_path, abs(f.display_path));
    EXPECT_FALSE(f.explicit_arg);
    EXPECT_EQ(f.kind, classify_path(f.display_path));
  }
  EXPECT_EQ(r.files[1].kind, FileKind::Dockerfile);
}

TEST_F(Discover, InMemoryFilesNeedNothingOnDisk) {
  // --stdin-filename new/x.cu: the text is in memory; the path need not exist.
  DiscoveryOptions opts;
  opts.in_memory = {abs("new/x.cu"), abs("notes.txt"), abs("skip/k.cu")};
  opts.excluded = [&](const std::string& p, bool) { return p == abs("skip/k.cu"); };
  auto r = run({"new/x.cu"}, opts);
  EXPECT_EQ(shown(r), (Paths{"new/x.cu"}));
  EXPECT_EQ(problems(r), "");
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(r.files[0].explicit_arg);
  EXPECT_EQ(r.files[0].kind, FileKind::CudaSource);
  EXPECT_EQ(r.files[0].fs_path, abs("new/x.cu"));
  // Of no known kind, or excluded: skipped silently, as a named file on disk would be.
  r = run({"notes.txt", "skip/k.cu"}, opts);
  EXPECT_EQ(shown(r), Paths{});
  EXPECT_EQ(problems(r), "");
  // Not in memory: still a problem.
  r = run({"other.cu"}, opts);
  EXPECT_EQ(shown(r), Paths{});
  EXPECT_NE(problems(r), "");
}

TEST_F(Discover, NestedGitignores) {
  make_repo();
  write(".gitignore", "*.log.py\nbuild/\n/top_only.py\nout.py/\n");
  write("sub/.gitignore", "gen_*.py\n!gen_keep.py\n");
  for (const char* f : {"a.py", "x.log.py", "build/x.py", "sub/build/y.py", "top_only.py",
                        "sub/top_only.py", "sub/gen_a.py", "sub/gen_keep.py", "sub/deeper/gen_b.py",
                        "sub/deeper/ok.py", "other/gen_c.py"})
    write(f);
  write("a/out.py");         // `out.py/` matches directories only: this file stays
  write("b/out.py/in.py");  // while this directory goes
  EXPECT_EQ(shown(run({"."})), (Paths{"a.py", "a/out.py", "other/gen_c.py", "sub/deeper/ok.py",
                                      "sub/gen_keep.py", "sub/top_only.py"}));
}

TEST_F(Discover, DeeperGitignoreOverridesParent) {
  make_repo();
  write(".gitignore", "*.py\n");
  write("sub/.gitignore", "!ok.py\n");
  for (const char* f : {"ok.py", "sub/ok.py", "sub/no.py", "sub/in/ok.py"}) write(f);
  EXPECT_EQ(shown(run({"."})), (Paths{"sub/in/ok.py", "sub/ok.py"}));
}

TEST_F(Discover, NegationCannotReincludeInsideExcludedDirectory) {
  make_repo();
  write(".gitignore", "deps/\n!deps/keep.py\nabc/**\n!abc/d/x.py\n/vendor/*\n!/vendor/keep/\n");
  for (const char* f : {"deps/keep.py", "abc/d/x.py", "vendor/keep/a.py", "vendor/other/b.py", "vendor/c.py"})
    write(f);
  // Same answer as `git status --ignored`: only vendor/keep is re-included.
  EXPECT_EQ(shown(run({"."})), (Paths{"vendor/keep/a.py"}));
}

TEST_F(Discover, InfoExcludeHasLowestPrecedence) {
  make_repo();
  write(".git/info/exclude", "secret.py\n# comment\n");
  write("sub/.gitignore", "!secret.py\n");
  for (const char* f : {"secret.py", "a/secret.py", "sub/secret.py", "plain.py"}) write(f);
  EXPECT_EQ(shown(run({"."})), (Paths{"plain.py", "sub/secret.py"}));
}

TEST_F(Discover, AncestorGitignoresApplyWhenWalkingASubdirectory) {
  make_repo();
  write(".gitignore", "*.cu\n");
  write("sub/deep/.gitignore", "/only_here.py\n");
  for (const char* f : {"sub/deep/k.cu", "sub/deep/a.py", "sub/deep/only_here.py", "sub/deep/x/only_here.py"})
    write(f);
  EXPECT_EQ(shown(run({"sub/deep"})), (Paths{"sub/deep/a.py", "sub/deep/x/only_here.py"}));
  EXPECT_EQ(shown(run({"sub/deep/x"})), (Paths{"sub/deep/x/only_here.py"}));
}

TEST_F(Discover, RepositoryAboveTheRoot) {
  // The repository is base_/proj, the run root one level down: the repo's rules still apply.
  make_repo();
  write(".gitignore", "ignored.py\n");
  write("inner/ignored.py");
  write("inner/kept.py");
  DiscoveryOptions opts;
  opts.root = abs("inner");
  auto r = discover({abs("inner")}, opts);
  EXPECT_EQ(shown(r), (Paths{"kept.py"}));
}

TEST_F(Discover, NestedRepositoryStartsAfresh) {
  make_repo();
  write(".gitignore", "*.cu\n");
  write("k.cu");
  make_repo("inner");
  write("inner/k.cu");
  write("inner/x.py");
  // A submodule-style `.git` file pointing at the real git dir, which holds info/exclude.
  write("mod/.git", "gitdir: ../.git/modules/mod\n");
  write(".git/modules/mod/info/exclude", "x.py\n");
  write("mod/x.py");
  write("mod/y.py");
  EXPECT_EQ(shown(run({"."})), (Paths{"inner/k.cu", "inner/x.py", "mod/y.py"}));
}

TEST_F(Discover, GitignoreOutsideARepositoryIsHonouredFromTheRootDown) {
  // No .git anywhere: the root's own .gitignore counts, a stray one above the root does not.
  std::ofstream(base_ + "/.gitignore") << "*.py\n";
  write(".gitignore", "*.cu\n");
  write("a.py");
  write("k.cu");
  write("sub/.gitignore", "b.py\n");
  write("sub/b.py");
  write("sub/c.py");
  EXPECT_EQ(shown(run({"."})), (Paths{"a.py", "sub/c.py"}));
}

TEST_F(Discover, RespectGitignoreOffButGitNeverEntered) {
  make_repo();
  write(".gitignore", "*.py\n");
  write("a.py");
  write(".git/hooks/hook.py");
  write(".git/info/exclude", "b.py\n");
  write("b.py");
  DiscoveryOptions opts;
  opts.respect_gitignore = false;
  EXPECT_EQ(shown(run({"."}, opts)), (Paths{"a.py", "b.py"}));
  EXPECT_EQ(shown(run({".git"}, opts)), Paths{});
  EXPECT_EQ(shown(run({".git/hooks/hook.py"}, opts)), Paths{});
}

TEST_F(Discover, ExcludedCallback) {
  make_repo();
  for (const char* f : {"a.py", "third_party/t.py", "third_party/deep/u.py", "src/third_party/v.py",
                        "src/w_gen.py", "src/w.py"})
    write(f);
  std::vector<std::pair<std::string, bool>> calls;
  DiscoveryOptions opts;
  opts.excluded = [&](const std::string& p, bool is_dir) {
    calls.emplace_back(p, is_dir);
    return p.ends_with("/third_party") || p.ends_with("_gen.py");
  };
  EXPECT_EQ(shown(run({"."}, opts)), (Paths{"a.py", "src/w.py"}));
  // The callback sees absolute paths, knows directories, and is not asked about the contents
  // of an excluded directory.
  EXPECT_NE(std::find(calls.begin(), calls.end(), std::make_pair(abs("third_party"), true)), calls.end());
  EXPECT_NE(std::find(calls.begin(), calls.end(), std::make_pair(abs("src/w.py"), false)), calls.end());
  for (const auto& [p, d] : calls) EXPECT_EQ(p.find("third_party/"), std::string::npos) << p;

  // Named files are still subject to it, directly or through an excluded parent directory.
  auto r = run({"src/w_gen.py", "third_party/deep/u.py", "src/w.py", "third_party"}, opts);
  EXPECT_EQ(shown(r), (Paths{"src/w.py"}));
  EXPECT_EQ(problems(r), "");
}

TEST_F(Discover, ExplicitFiles) {
  make_repo();
  write(".gitignore", "ignored.py\ngen/\n");
  write("ignored.py");
  write("gen/g.py");
  write("notes.txt");
  write("a.py");
  std::ofstream(base_ + "/elsewhere.py") << "";
  auto r = run({"ignored.py", "gen/g.py", "notes.txt", "missing.py", "gone/dir", "a.py", base_ + "/elsewhere.py"});
  // Ignored-but-named files are taken (like ruff and pre-commit), unknown kinds dropped silently,
  // files outside the root shown by absolute path.
  EXPECT_EQ(shown(r), (Paths{base_ + "/elsewhere.py", "a.py", "gen/g.py", "ignored.py"}));
  for (const auto& f : r.files) EXPECT_TRUE(f.explicit_arg) << f.display_path;
  EXPECT_EQ(problems(r), "gone/dir: No such file or directory\nmissing.py: No such file or directory\n");

  // A named, gitignored directory is walked (its own entries are still matched).
  write("gen/sub/h.py");
  write("gen/.gitignore", "h.py\n");
  EXPECT_EQ(shown(run({"gen"})), (Paths{"gen/g.py"}));
}

TEST_F(Discover, SortedAndDeduplicated) {
  make_repo();
  write("a.py");
  write("a/b.py");
  write("a-b.py");
  auto r = run({"a.py", ".", "./a.py", abs("a.py"), "a//b.py", "a/../a.py", "a", "."});
  EXPECT_EQ(shown(r), (Paths{"a-b.py", "a.py", "a/b.py"}));
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_FALSE(r.files[0].explicit_arg);
  EXPECT_TRUE(r.files[1].explicit_arg);  // named and also found by the walk
  EXPECT_TRUE(r.files[2].explicit_arg);
  EXPECT_EQ(r.files[1].fs_path, abs("a.py"));
}

TEST_F(Discover, SymlinkLoopsAreNotFollowed) {
  make_repo();
  write("sub/a.py");
  symlink("..", "sub/up");   // directory symlink to an ancestor
  symlink(".", "self");
  symlink(abs("sub"), "sub/again");
  symlink("loop2.py", "loop1.py");  // a cycle between file symlinks
  symlink("loop1.py", "loop2.py");
  auto r = run({"."});
  EXPECT_EQ(shown(r), (Paths{"sub/a.py"}));
  ASSERT_EQ(r.problems.size(), 2u) << problems(r);
  EXPECT_EQ(r.problems[0].display_path, "loop1.py");
  EXPECT_EQ(r.problems[0].message, std::generic_category().message(ELOOP));
}

TEST_F(Discover, SymlinksToFiles) {
  make_repo();
  write("real/r.py");
  std::filesystem::create_directories(base_ + "/outside");
  std::ofstream(base_ + "/outside/o.py") << "";
  symlink("real/r.py", "in.py");                // inside: followed
  symlink("../outside/o.py", "out.py");         // outside: refused
  symlink(base_ + "/outside", "outdir");        // directory: not followed, no problem
  symlink("../outside/o.py", "out.txt");        // unknown kind: not looked at
  symlink("nowhere.py", "broken.py");
  symlink("nowhere", "broken.txt");
  auto r = run({"."});
  EXPECT_EQ(shown(r), (Paths{"in.py", "real/r.py"}));
  EXPECT_EQ(r.files[0].fs_path, abs("in.py"));
  EXPECT_EQ(problems(r), "broken.py: broken symlink: nowhere.py\n"
                         "out.py: symlink points outside the root: " + base_ + "/outside/o.py\n");

  // Named symlinks obey the same rules.
  r = run({"in.py", "out.py", "broken.py", "broken.txt"});
  EXPECT_EQ(shown(r), (Paths{"in.py"}));
  EXPECT_TRUE(r.files[0].explicit_arg);
  EXPECT_EQ(problems(r), "broken.py: broken symlink: nowhere.py\n"
                         "broken.txt: broken symlink: nowhere\n"
                         "out.py: symlink points outside the root: " + base_ + "/outside/o.py\n");

  // A named symlink to a directory is walked at its real location when inside the root.
  symlink("real", "reallink");
  r = run({"reallink", "outdir"});
  EXPECT_EQ(shown(r), (Paths{"real/r.py"}));
  EXPECT_EQ(problems(r), "outdir: symlink points outside the root: " + base_ + "/outside\n");
}

TEST_F(Discover, RootReachedThroughASymlink) {
  make_repo();
  write("real/r.py");
  symlink("real/r.py", "in.py");
  symlink("real", "reallink");
  ASSERT_EQ(::symlink(root_.c_str(), (base_ + "/alias").c_str()), 0);
  DiscoveryOptions opts;
  opts.root = base_ + "/alias";
  auto r = discover({base_ + "/alias"}, opts);
  EXPECT_EQ(shown(r), (Paths{"in.py", "real/r.py"}));
  EXPECT_EQ(problems(r), "");
  r = discover({base_ + "/alias/reallink"}, opts);
  EXPECT_EQ(shown(r), (Paths{"real/r.py"}));
  EXPECT_EQ(r.files[0].fs_path, base_ + "/alias/real/r.py");
}

TEST_F(Discover, UnreadableDirectory) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads directories whatever their mode";
  make_repo();
  write("ok.py");
  write("locked/x.py");
  ASSERT_EQ(::chmod(abs("locked").c_str(), 0), 0);
  auto r = run({"."});
  auto r2 = run({"locked"});
  ::chmod(abs("locked").c_str(), 0755);  // so that TearDown can remove it
  EXPECT_EQ(shown(r), (Paths{"ok.py"}));
  EXPECT_EQ(problems(r), "locked: " + std::generic_category().message(EACCES) + "\n");
  EXPECT_EQ(problems(r2), problems(r));
}

TEST_F(Discover, ThousandsOfExplicitPathsAreFast) {
  make_repo();
  write(".gitignore", "*.log\n");
  Paths args;
  for (int d = 0; d < 50; ++d) {
    std::string dir = "pkg" + std::to_string(d);
    write(dir + "/.gitignore", "skip_*.py\n");
    for (int f = 0; f < 100; ++f) {
      std::string rel = dir + "/m" + std::to_string(f) + ".py";
      write(rel);
      args.push_back(rel);
    }
  }
  std::reverse(args.begin(), args.end());
  auto start = std::chrono::steady_clock::now();
  auto r = run(args);
  auto walked = run({"."});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.files.size(), 5000u);
  EXPECT_EQ(walked.files.size(), 5000u);
  EXPECT_TRUE(std::is_sorted(r.files.begin(), r.files.end(),
                             [](const auto& a, const auto& b) { return a.display_path < b.display_path; }));
  EXPECT_LT(secs, 2.0);  // milliseconds in practice; generous for sanitizer builds
}

TEST(PathHelpers, MakeAbsolute) {
  EXPECT_EQ(make_absolute("/a/./b//c/../d/"), "/a/b/d");
  EXPECT_EQ(make_absolute("/../.."), "/");
  EXPECT_EQ(make_absolute("/"), "/");
  EXPECT_EQ(make_absolute("//x"), "/x");
  char cwd[PATH_MAX];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  std::string here = cwd;
  EXPECT_EQ(make_absolute("."), here);
  EXPECT_EQ(make_absolute(""), here);
  EXPECT_EQ(make_absolute("x/./y"), (here == "/" ? "" : here) + "/x/y");
  EXPECT_EQ(make_absolute("x/../.."), here == "/" ? "/" : here.substr(0, std::max<size_t>(1, here.find_last_of('/'))));
}

TEST(PathHelpers, DisplayPathFor) {
  EXPECT_EQ(display_path_for("/r/a/b.py", "/r"), "a/b.py");
  EXPECT_EQ(display_path_for("/r/a/b.py", "/r/"), "a/b.py");
  EXPECT_EQ(display_path_for("/r", "/r"), ".");
  EXPECT_EQ(display_path_for("/rx/a.py", "/r"), "/rx/a.py");
  EXPECT_EQ(display_path_for("/other/a.py", "/r"), "/other/a.py");
  EXPECT_EQ(display_path_for("/a.py", "/"), "a.py");
}

TEST_F(Discover, RelativeArgumentsUseTheWorkingDirectory) {
  make_repo();
  write("sub/a.py");
  char cwd[PATH_MAX];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(abs("sub").c_str()), 0);
  DiscoveryOptions opts;
  opts.root = "..";
  auto r = discover({"a.py", "../sub/./a.py", "."}, opts);
  ASSERT_EQ(::chdir(cwd), 0);
  EXPECT_EQ(shown(r), (Paths{"sub/a.py"}));
  EXPECT_EQ(problems(r), "");
}

}  // namespace
}  // namespace cudalint
