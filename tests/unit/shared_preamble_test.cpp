// A directory run's files of one directory whose leading directives have the same tokens share
// one precompiled preamble per arch (Options::preamble_group, analyze_cuda_sources' groups):
// each file's results are those of a parse without a preamble, each arch's preamble is built
// once for the group, and the group's preambles are dropped when its last file is done.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analyzer/core/finding.h"
#include "analyzer/engine/run.h"
#include "analyzer/report/report.h"
#include "tests/unit/cuda_corpus.h"
#include "tests/unit/temp_dir.h"

namespace cudalint {
namespace {

using cuda::corpus::kPreambleHeader;
using cuda::corpus::render;

// The same directives, after comments of different lengths (the uses in the header are reported
// at each file's own `#include` line), and different code.
std::string source(int n) {
  const std::string lead[] = {"// one\n", "/* two,\n   longer */\n\n", ""};
  const std::string body[] = {
      "__global__ void k(unsigned* o, const unsigned* in) { o[0] = warp_total(in[threadIdx.x]); }\n",
      "__global__ void k(unsigned* o) { o[0] = cluster_size() + __clusterIdx().x; }\n",
      "__global__ void k(float* o) { o[threadIdx.x] = 1.0f; }\n"};
  return lead[n] + "#include <cstdint>\n#include \"sum.cuh\"  // sums\n#include \"missing_in_file.h\"\n\n" + body[n];
}

cuda::Options options(cuda::PreludeCache* cache) {
  cuda::Options o;
  o.archs = {domain::Arch{7, 5}, domain::Arch{8, 0}, domain::Arch{9, 0, 'a'}, domain::Arch{12, 0}};
  o.cuda = domain::CudaVersion{13, 0, -1};
  o.prelude_cache = cache;
  return o;
}

TEST(SharedPreamble, OneBuildPerArchForTheGroup) {
  test_support::TempDir dir;
  dir.write("sum.cuh", kPreambleHeader);
  cuda::PreludeCache cache;
  const cuda::Options without = options(&cache);
  cuda::Options with = options(&cache);
  with.preamble = true;
  with.preamble_group = (dir.path() / "\x1agroup 0").string();
  ASSERT_EQ(cuda::preamble_group_signature(source(0)), cuda::preamble_group_signature(source(1)));
  ASSERT_EQ(cuda::preamble_group_signature(source(0)), cuda::preamble_group_signature(source(2)));
  size_t parses = 0;  // per file: sm_75 and sm_80 see the same tokens, so do sm_90a and sm_120
  for (int n = 0; n < 3; ++n) {
    const std::string file = (dir.path() / ("k" + std::to_string(n) + ".cu")).string();
    const cuda::Result shared = cuda::analyze(file, source(n), with, cuda::FeatureTable::builtin());
    const cuda::Result plain = cuda::analyze(file, source(n), without, cuda::FeatureTable::builtin());
    EXPECT_EQ(render(shared), render(plain)) << n;
    if (n == 0) parses = shared.clang_parses;
    EXPECT_EQ(shared.clang_parses, parses) << n;
    EXPECT_EQ(shared.preamble_parses, parses) << n;  // every parse read the group's
    // Built by the first file only, once per parse.
    EXPECT_EQ(cache.preambles_built(), parses) << n;
  }
  EXPECT_EQ(parses, 2u);
  // Real uses came through the shared preambles: in the header and in each file's own code.
  const std::string first = render(cuda::analyze((dir.path() / "k0.cu").string(), source(0), with,
                                                     cuda::FeatureTable::builtin()));
  EXPECT_NE(first.find("__reduce_add_sync"), std::string::npos) << first;
  EXPECT_NE(first.find("missing missing_in_header.h"), std::string::npos) << first;
  EXPECT_NE(render(cuda::analyze((dir.path() / "k1.cu").string(), source(1), with, cuda::FeatureTable::builtin()))
                .find("__clusterIdx"),
            std::string::npos);
  EXPECT_EQ(cache.preambles_kept(), parses);
  // The group is done: its preambles go, and a later file of it builds them again.
  cache.drop_preambles(with.preamble_group + '\x1f');
  EXPECT_EQ(cache.preambles_kept(), 0u);
  cuda::analyze((dir.path() / "k2.cu").string(), source(2), with, cuda::FeatureTable::builtin());
  EXPECT_EQ(cache.preambles_built(), 2 * parses);
}

std::string report(const std::vector<Finding>& findings) {
  std::ostringstream ss;
  report::RunInfo info;
  report::write_json(ss, findings, info);
  return ss.str();
}

// A directory run groups the files itself: three files with the same leading directives (one
// group) and one with others. Its findings are those of a run that shares no preamble (more
// jobs than files: each file parses its archs in parallel instead), and no preamble outlives
// the run's groups.
TEST(SharedPreamble, DirectoryRunsGroupTheirFiles) {
  test_support::TempDir dir;
  dir.write("src/sum.cuh", kPreambleHeader);
  for (int n = 0; n < 3; ++n) dir.write("src/k" + std::to_string(n) + ".cu", source(n));
  dir.write("src/other.cu", "#include \"sum.cuh\"\n__global__ void k(unsigned* o) { o[0] = warp_total(o[1]); }\n");
  RunOptions o;
  o.root = dir.path().string();
  o.paths = {(dir.path() / "src").string()};
  o.target_archs = "7.5;8.0;9.0a";
  o.jobs = 2;
  cuda::PreludeCache cache;
  o.prelude_cache = &cache;
  const std::string shared = report(run_analysis(o).findings);
  // The group's, once per parse (sm_75 and sm_80 see the same tokens); none for other.cu.
  EXPECT_EQ(cache.preambles_built(), 2u);
  EXPECT_EQ(cache.preambles_kept(), 0u);
  RunOptions plain = o;
  plain.prelude_cache = nullptr;
  plain.jobs = 8;
  EXPECT_EQ(shared, report(run_analysis(plain).findings));
  // Real findings were compared: in the header, and in a file's own code.
  EXPECT_NE(shared.find("src/sum.cuh"), std::string::npos) << shared;
  EXPECT_NE(shared.find("__clusterIdx"), std::string::npos) << shared;
}

}  // namespace
}  // namespace cudalint
