// Text in memory in place of a file (RunOptions::overlays: --stdin-filename, editor buffers), the
// project's builds a run on files only sees, and the size limit each file is held to
// (max_file_bytes_for, analyzer/engine/run.cpp).
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzer/engine/discover.h"
#include "analyzer/engine/run.h"
#include "tests/unit/temp_dir.h"

namespace cudalint {
namespace {

using test_support::TempDir;

constexpr const char* kBad = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"3.7;8.0\"\n";
constexpr const char* kClean = "FROM ubuntu:22.04\n";

std::vector<std::string> rules_at(const RunOutput& out, const std::string& path) {
  std::vector<std::string> ids;
  for (const auto& f : out.findings)
    if (f.location.path == path) ids.emplace_back(f.rule->id);
  return ids;
}

TEST(RunOverlay, OverlayTextReplacesTheFileOnDisk) {
  TempDir dir;
  dir.write("d/Dockerfile", kClean);
  std::string abs = (dir.path() / "d/Dockerfile").string();
  RunOptions o;
  o.root = dir.path().string();
  o.paths = {abs};
  o.jobs = 1;
  o.overlays[abs] = std::string("# stdin\n") + kBad;
  RunOutput out = run_analysis(o);
  EXPECT_EQ(rules_at(out, "d/Dockerfile"), std::vector<std::string>{"ARCH003"});
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].location.region.start_line, 3u);  // the overlay's line, not the disk's
  // And the other way round.
  dir.write("d/Dockerfile", kBad);
  o.overlays[abs] = kClean;
  EXPECT_TRUE(run_analysis(o).findings.empty());
}

TEST(RunOverlay, NamedOverlayNeedsNoFileAndGetsTheBuildContext) {
  TempDir dir;
  dir.write("other/Dockerfile", kBad);  // a build file of the project: context, not reported
  std::string abs = (dir.path() / "new/Dockerfile").string();
  RunOptions o;
  o.root = dir.path().string();
  o.paths = {abs};
  o.jobs = 1;
  o.overlays[abs] = kBad;
  RunOutput out = run_analysis(o);
  EXPECT_EQ(rules_at(out, "new/Dockerfile"), std::vector<std::string>{"ARCH003"});
  EXPECT_TRUE(rules_at(out, "other/Dockerfile").empty());
  EXPECT_FALSE(std::filesystem::exists(abs));
  // Without the overlay, a path that does not exist is a PARSE002 problem.
  o.overlays.clear();
  out = run_analysis(o);
  EXPECT_EQ(rules_at(out, "new/Dockerfile"), std::vector<std::string>{"PARSE002"});
}

// Pre-commit passes the changed files only: a source that only a just-in-time `load()` builds
// is still checked for that build's archs, as a run on the whole tree checks it, and a finding in
// the Python file itself stays unreported.
TEST(RunOverlay, AFileRunSeesTheJustInTimeBuildThatCompilesIt) {
  TempDir dir;
  dir.write("ext.py",
            "import torch\nfrom torch.utils.cpp_extension import load\n"
            "mod = load(name='k', sources=['k.cu'], extra_cuda_cflags=['-gencode=arch=compute_80,code=sm_80'])\n"
            "@torch.compile(fullgraph=True)\ndef f(x):\n    print(x)\n    return x\n");
  dir.write("k.cu", "__global__ void k() {\n  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n}\n");
  dir.write("other.py", "from torch.utils.cpp_extension import load\nm = load(name='o', sources=['o.cu'])\n");
  dir.write("o.cu", "__global__ void o() {}\n");
  RunOptions whole;
  whole.root = dir.path().string();
  whole.paths = {whole.root};
  whole.jobs = 1;
  RunOutput all = run_analysis(whole);
  ASSERT_EQ(rules_at(all, "k.cu"), std::vector<std::string>{"INTR002"});
  EXPECT_FALSE(rules_at(all, "ext.py").empty());  // the graph break
  RunOptions one = whole;
  one.paths = {(dir.path() / "k.cu").string()};
  RunOutput out = run_analysis(one);
  EXPECT_EQ(rules_at(out, "k.cu"), std::vector<std::string>{"INTR002"});
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_NE(out.findings[0].message.find("ext.py:3"), std::string::npos) << out.findings[0].message;
  // Only Python files that may build something come along: not a plain module.
  dir.write("plain.py", "import torch\n@torch.compile(fullgraph=True)\ndef g(x):\n    print(x)\n    return x\n");
  out = run_analysis(one);
  EXPECT_EQ(rules_at(out, "k.cu"), std::vector<std::string>{"INTR002"});
  EXPECT_EQ(out.sources.count("plain.py"), 0u);
  EXPECT_EQ(out.sources.count("ext.py"), 1u);
}

TEST(RunOverlay, EachFileHasTheSizeLimitOfItsConfiguration) {
  TempDir dir;
  dir.write("cudalint.toml", "max-file-size = 60\n");
  dir.write("big/cudalint.toml", "max-file-size = 100000\n");
  dir.write("small/Dockerfile", kBad);  // 77 bytes: over 60
  dir.write("big/Dockerfile", kBad);
  RunOptions o;
  o.root = dir.path().string();
  EXPECT_EQ(max_file_bytes_for(o, (dir.path() / "small/Dockerfile").string()), 60u);
  EXPECT_EQ(max_file_bytes_for(o, (dir.path() / "big/Dockerfile").string()), 100000u);
  EXPECT_EQ(max_file_bytes_for(o, (dir.path() / "big/new/x.cu").string()), 100000u);
  TempDir none;
  RunOptions n;
  n.root = none.path().string();
  EXPECT_EQ(max_file_bytes_for(n, (none.path() / "Dockerfile").string()), kDefaultMaxFileBytes);

  o.paths = {dir.path().string()};
  o.jobs = 1;
  RunOutput out = run_analysis(o);
  EXPECT_EQ(rules_at(out, "small/Dockerfile"), std::vector<std::string>{"PARSE005"});
  EXPECT_EQ(rules_at(out, "big/Dockerfile"), std::vector<std::string>{"ARCH003"});
}

}  // namespace
}  // namespace cudalint
