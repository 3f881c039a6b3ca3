// Files that change between discovery and loading (issue 9's "files deleted mid-run"), made
// deterministic with RunOptions::after_discovery: the hook deletes or replaces files after the
// engine has listed them and before it reads them. Each case must give the vanished file a
// PARSE002 diagnostic naming the reason, never hang or crash, and leave the sibling's finding
// (ARCH003 in ok/Dockerfile) as it is.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analyzer/engine/run.h"

namespace cudalint {
namespace {

constexpr const char* kSibling =
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"3.7;8.0\"\n";

class MidRun : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cudalint-midrun-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    char* real = ::realpath(tmpl, nullptr);
    root_ = real;
    std::free(real);
    write("ok/Dockerfile", kSibling);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  std::string abs(const std::string& rel) const { return root_ + "/" + rel; }
  void write(const std::string& rel, const std::string& text) const {
    std::filesystem::create_directories(std::filesystem::path(abs(rel)).parent_path());
    std::ofstream(abs(rel)) << text;
  }
  RunOutput run(std::function<void(const std::vector<std::string>&)> hook, std::vector<std::string> paths = {}) {
    RunOptions o;
    o.root = root_;
    o.paths = paths.empty() ? std::vector<std::string>{root_} : std::move(paths);
    o.jobs = 2;
    o.after_discovery = std::move(hook);
    auto start = std::chrono::steady_clock::now();
    RunOutput out = run_analysis(o);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    return out;
  }
  static const Finding* find(const RunOutput& out, std::string_view path, std::string_view rule) {
    for (const auto& f : out.findings)
      if (f.location.path == path && f.rule->id == rule) return &f;
    return nullptr;
  }
  static void expect_sibling(const RunOutput& out) {
    const Finding* f = find(out, "ok/Dockerfile", "ARCH003");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->location.region.start_line, 2u);
  }
  std::string root_;
};

TEST_F(MidRun, DeletedFilesGetUnreadableDiagnostics) {
  write("gone/Dockerfile", kSibling);
  write("gone/setup.py", "from setuptools import setup\n");
  write("gone/requirements.txt", "torch==2.3.0\n");
  write("gone/k.cu", "__global__ void k() {}\n");
  size_t seen = 0;
  RunOutput out = run([&](const std::vector<std::string>& found) {
    for (const auto& p : found)
      if (p.find("/gone/") != std::string::npos) {
        ASSERT_EQ(::unlink(p.c_str()), 0) << p;
        ++seen;
      }
  });
  EXPECT_EQ(seen, 4u);
  for (const char* p : {"gone/Dockerfile", "gone/setup.py", "gone/requirements.txt", "gone/k.cu"}) {
    const Finding* f = find(out, p, "PARSE002");
    ASSERT_NE(f, nullptr) << p;
    EXPECT_NE(f->message.find("No such file"), std::string::npos) << f->message;
  }
  EXPECT_EQ(find(out, "gone/Dockerfile", "ARCH003"), nullptr);
  expect_sibling(out);
}

TEST_F(MidRun, FileReplacedByFifoOrDirectoryDoesNotBlock) {
  write("fifo/Dockerfile", kSibling);
  write("dir/setup.py", "x = 1\n");
  RunOutput out = run([&](const std::vector<std::string>&) {
    ASSERT_EQ(::unlink(abs("fifo/Dockerfile").c_str()), 0);
    ASSERT_EQ(::mkfifo(abs("fifo/Dockerfile").c_str(), 0644), 0);  // nobody will ever write to it
    ASSERT_EQ(::unlink(abs("dir/setup.py").c_str()), 0);
    ASSERT_EQ(::mkdir(abs("dir/setup.py").c_str(), 0755), 0);
  });
  for (const char* p : {"fifo/Dockerfile", "dir/setup.py"}) {
    const Finding* f = find(out, p, "PARSE002");
    ASSERT_NE(f, nullptr) << p;
    EXPECT_NE(f->message.find("not a regular file"), std::string::npos) << f->message;
  }
  expect_sibling(out);
}

TEST_F(MidRun, IncludedCMakeFileDeletedBeforeEvaluation) {
  // Only the top-level listfile is named, so the include is read on demand at model time.
  write("cm/CMakeLists.txt", "project(x LANGUAGES CXX CUDA)\ninclude(archs.cmake)\n");
  write("cm/archs.cmake", "set(CMAKE_CUDA_ARCHITECTURES 35)\n");
  RunOutput out = run([&](const std::vector<std::string>&) { ASSERT_EQ(::unlink(abs("cm/archs.cmake").c_str()), 0); },
                      {abs("cm/CMakeLists.txt"), abs("ok/Dockerfile")});
  for (const auto& f : out.findings) EXPECT_NE(f.location.path, "cm/archs.cmake") << f.message;
  expect_sibling(out);
}

TEST_F(MidRun, ConfigDeletedAfterDiscovery) {
  write("cudalint.toml", "ignore = [\"ARCH001\"]\n");
  RunOutput out = run([&](const std::vector<std::string>&) { ::unlink(abs("cudalint.toml").c_str()); });
  EXPECT_FALSE(out.config_error);
  expect_sibling(out);
}

}  // namespace
}  // namespace cudalint
