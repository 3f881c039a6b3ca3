// Text in memory in place of a file (RunOptions::overlays: --stdin-filename, editor buffers) and
// the size limit each file is held to (max_file_bytes_for, analyzer/engine/run.cpp).
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
