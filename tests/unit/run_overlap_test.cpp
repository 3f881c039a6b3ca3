// run_analysis hands the model's build facts to the CUDA analysis before the graph-break
// analysis and runs the two side by side (analyzer/engine/run.cpp): the CUDA sources must still
// see the archs and toolkit the build files give, each directory's rule selection, and the report
// must not depend on the number of jobs.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "analyzer/engine/run.h"
#include "analyzer/report/report.h"
#include "tests/unit/temp_dir.h"

namespace cudalint {
namespace {

namespace fs = std::filesystem;

using test_support::TempDir;

constexpr const char* kKernel = R"(__global__ void k(const float* in, float* out, unsigned* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[4 * i];
  if (__clusterDimIsSpecified()) sum[i] = 1;
}
)";

std::string report_of(const fs::path& root, unsigned jobs) {
  RunOptions o;
  o.root = root.string();
  o.paths = {root.string()};
  o.jobs = jobs;
  RunOutput out = run_analysis(o);
  std::ostringstream ss;
  report::RunInfo info;
  report::write_json(ss, out.findings, info);
  return ss.str();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(RunOverlap, CudaSeesTheBuildFactsAndEachDirectorysRulesBesideTheGraphBreakAnalysis) {
  TempDir s("cudalint-overlap-test");
  // The archs come from the Dockerfile (no --target-archs): only the model knows them (a run
  // that knows none parses for sm_75 alone).
  s.write("Dockerfile",
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"8.6 9.0\"\nCOPY . /src\n"
          "RUN pip install --no-build-isolation /src\n");
  s.write("fast/k.cu", kKernel);
  // MEM rules off in this directory: decided before the CUDA analysis starts.
  s.write("quiet/cudalint.toml", "ignore = [\"MEM\"]\n");
  s.write("quiet/k.cu", kKernel);
  // A chain of modules, so that the graph-break analysis takes several rounds.
  const int kModules = 14;
  for (int i = 0; i < kModules; ++i) {
    std::string py = "import torch\n";
    if (i + 1 < kModules) py += "from pkg.m" + std::to_string(i + 1) + " import helper as next_helper\n";
    py += "\n\ndef helper(x):\n";
    py += i + 1 < kModules ? "    return next_helper(x) + 1\n" : "    return x / x.abs().max().item()\n";
    if (i == 0) py += "\n\n@torch.compile\ndef step(x):\n    return helper(x)\n";
    s.write("pkg/m" + std::to_string(i) + ".py", py);
  }
  s.write("pkg/__init__.py", "");

  const std::string one = report_of(s.path(), 1);
  const std::string two = report_of(s.path(), 2);
  EXPECT_EQ(one, two);
  // An sm_90 function against the Dockerfile's 8.6, in both directories, pointing at the Dockerfile.
  EXPECT_EQ(count(one, "\"INTR001\""), 2u) << one;
  EXPECT_GE(count(one, "Dockerfile"), 2u) << one;
  // The strided load: reported where MEM rules are on, not in `quiet/`.
  EXPECT_NE(one.find("fast/k.cu"), std::string::npos);
  EXPECT_EQ(count(one, "\"MEM001\""), 1u) << one;
  // The graph break at the end of the chain, reached from the compiled function.
  EXPECT_NE(one.find("\"GB001\""), std::string::npos) << one;
}

}  // namespace
}  // namespace cudalint
