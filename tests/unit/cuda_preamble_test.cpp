// A file's precompiled preamble (Options::preamble, preamble.h): a parse that reads it must give
// what a parse of the whole text gives. Checked over the INTR/MEM corpus, and on a project whose
// headers hold arch-dependent code, uses, missing includes and template kernels, through edits
// of the file, of a header on disk and of a header's unsaved buffer.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "analyzer/core/disk_cache.h"
#include "tests/unit/cuda_corpus.h"
#include "tests/unit/temp_dir.h"

namespace cudalint::cuda {
namespace {

using corpus::read;
using corpus::kPreambleHeader;
using corpus::render;

Options editor_options(PreludeCache* cache) {
  Options o;
  o.archs = {domain::Arch{7, 5}, domain::Arch{8, 0}, domain::Arch{9, 0, 'a'}, domain::Arch{12, 0}};
  o.cuda = domain::CudaVersion{13, 0, -1};
  o.prelude_cache = cache;
  o.parallel_archs = true;
  return o;
}

// The same file analysed with and without the preamble (the second analysis with it reads the
// preamble the first one built): identical results.
TEST(CudaPreamble, SameResultsOverTheCorpus) {
  const auto files = corpus::intr_corpus();
  ASSERT_GT(files.size(), 200u);
  PreludeCache cache;
  Options with = editor_options(&cache);
  with.preamble = true;
  Options without = editor_options(&cache);
  size_t read_preambles = 0, uses = 0;
  for (const auto& f : files) {
    const std::string text = read(f);
    const Result plain = analyze(f.string(), text, without, FeatureTable::builtin());
    const Result built = analyze(f.string(), text, with, FeatureTable::builtin());
    const Result again = analyze(f.string(), text, with, FeatureTable::builtin());
    EXPECT_EQ(render(built), render(plain)) << f.string();
    EXPECT_EQ(render(again), render(plain)) << f.string();
    // Every parse read one, or none did (a file without leading includes has none).
    EXPECT_TRUE(again.preamble_parses == 0 || again.preamble_parses == again.clang_parses) << f.string();
    read_preambles += again.preamble_parses;
    for (const auto& ar : plain.per_arch) uses += ar.uses.size();
  }
  EXPECT_GT(read_preambles, 100u);  // many files have leading includes
  EXPECT_GT(uses, files.size());            // and real results were compared
}

constexpr const char* kSource = R"(// a kernel file
#include <cstdint>
#include "sum.cuh"
#include "missing_in_file.h"

__global__ void total(unsigned* out, const unsigned* in) {
  out[blockIdx.x] = warp_total(in[threadIdx.x]) + cluster_size();
}
)";

TEST(CudaPreamble, ProjectHeadersThroughEdits) {
  test_support::TempDir dir;
  dir.write("sum.cuh", kPreambleHeader);
  const std::string file = (dir.path() / "k.cu").string();
  PreludeCache cache;
  Options with = editor_options(&cache);
  with.preamble = true;
  Options without = editor_options(&cache);
  auto expect_same = [&](const std::string& text, const Options& w, const Options& wo, bool reads_preamble) {
    const Result a = analyze(file, text, w, FeatureTable::builtin());
    const Result b = analyze(file, text, wo, FeatureTable::builtin());
    EXPECT_EQ(render(a), render(b));
    EXPECT_EQ(a.preamble_parses > 0, reads_preamble);
    return a;
  };
  const Result first = expect_same(kSource, with, without, true);
  // The header's uses, its arch branches and the missing headers of both files came through.
  const std::string all = render(first);
  EXPECT_NE(all.find("__reduce_add_sync"), std::string::npos) << all;
  EXPECT_NE(all.find("__cluster_barrier_arrive"), std::string::npos) << all;
  EXPECT_NE(all.find("__clusterSizeInBlocks"), std::string::npos) << all;
  EXPECT_NE(all.find("missing missing_in_header.h"), std::string::npos) << all;
  EXPECT_NE(all.find("missing missing_in_file.h"), std::string::npos) << all;
  // sm_80 and sm_90a take different branches of the header: two parses at least.
  EXPECT_GE(first.clang_parses, 2u);

  // An edit below the includes keeps the preamble.
  std::string edited = std::string(kSource) + "__global__ void more(unsigned* p) { p[0] = __clusterIdx(); }\n";
  expect_same(edited, with, without, true);

  // The header changed on disk: the preamble is built again and sees it.
  dir.write("sum.cuh", std::string(kPreambleHeader) + "__device__ inline unsigned rank() { return __clusterRelativeBlockRank(); }\n");
  edited += "__global__ void ranked(unsigned* p) { p[0] = rank(); }\n";
  const Result changed = expect_same(edited, with, without, true);
  EXPECT_NE(render(changed).find("__clusterRelativeBlockRank"), std::string::npos);

  // The header rewritten with the same content (a checkout, `touch`): the preamble still serves.
  {
    std::filesystem::path h = dir.path() / "sum.cuh";
    std::filesystem::last_write_time(h, std::filesystem::last_write_time(h) + std::chrono::seconds(5));
  }
  expect_same(edited, with, without, true);

  // An unsaved buffer of the header counts, and so does its going away.
  Options with_buffer = with, without_buffer = without;
  with_buffer.unsaved[(dir.path() / "sum.cuh").string()] = kPreambleHeader;
  without_buffer.unsaved = with_buffer.unsaved;
  const Result buffered = expect_same(edited, with_buffer, without_buffer, true);
  EXPECT_EQ(render(buffered).find("__clusterRelativeBlockRank"), std::string::npos);
  expect_same(edited, with, without, true);

  // A missing header that appears: the preamble that did not find it is not used again.
  dir.write("missing_in_file.h", "__device__ inline unsigned dims() { return __clusterDim(); }\n");
  const Result appeared = expect_same(edited, with, without, true);
  EXPECT_EQ(render(appeared).find("missing missing_in_file.h"), std::string::npos);

  // Comments and blank lines added or changed among the includes keep the preamble; the uses
  // in headers are still reported at their `#include` lines, which moved.
  const size_t built = cache.preambles_built();
  const std::string moved = "// a kernel file, edited\n/* a block\n   comment */\n\n#include <cstdint>\n\n"
                            "#include \"sum.cuh\"  // the sums\n" + edited.substr(edited.find("#include \"missing"));
  const Result shifted = expect_same(moved, with, without, true);
  EXPECT_EQ(cache.preambles_built(), built);
  EXPECT_EQ(render(shifted), render(analyze(file, moved, without, FeatureTable::builtin())));
  // A directive that differs only in spacing that matters (a function-like macro) does not.
  expect_same("#define SQ(x) ((x) * (x))\n" + edited, with, without, true);
  const size_t built2 = cache.preambles_built();
  expect_same("#define SQ (x) ((x) * (x))\n" + edited, with, without, true);
  EXPECT_GT(cache.preambles_built(), built2);

  // An edit of the includes themselves makes another preamble; a file without any has none.
  expect_same("#include \"sum.cuh\"\n" + edited, with, without, true);
  expect_same("__global__ void k(int* p) { p[0] = 1; }\n", with, without, false);
}

// With a disk cache, a preamble outlives the process that built it: the next run (a pre-commit
// hook after another edit) reads it instead of building it, while the headers it read are as
// they were; a changed header or a damaged entry makes it build one again. Results are always
// those of a parse without a preamble.
TEST(CudaPreamble, KeptOnDiskForTheNextRun) {
  test_support::TempDir dir;
  dir.write("sum.cuh", kPreambleHeader);
  const std::string file = (dir.path() / "k.cu").string();
  const std::string cache_dir = (dir.path() / "cache").string();
  PreludeCache plain_cache;
  const Options without = editor_options(&plain_cache);
  // Each call is another run: its own caches.
  auto run = [&](const std::string& text, size_t* built) {
    DiskCache disk(cache_dir);
    PreludeCache cache(&disk, embedded_prelude_pch());
    Options with = editor_options(&cache);
    with.preamble = true;
    const Result r = analyze(file, text, with, FeatureTable::builtin());
    EXPECT_EQ(render(r), render(analyze(file, text, without, FeatureTable::builtin())));
    EXPECT_EQ(r.preamble_parses, r.clang_parses);
    *built = cache.preambles_built();
    return r;
  };
  size_t built = 0;
  const Result first = run(kSource, &built);
  EXPECT_GE(first.clang_parses, 2u);
  EXPECT_EQ(built, first.clang_parses);
  const size_t on_disk = DiskCache(cache_dir).large_entries_on_disk("preamble");
  EXPECT_EQ(on_disk, first.clang_parses);

  // Edited below the includes, in another run: every preamble is read, none built.
  std::string edited = std::string(kSource) + "__global__ void more(unsigned* p) { p[0] = __clusterIdx(); }\n";
  const Result next = run(edited, &built);
  EXPECT_EQ(built, 0u);
  EXPECT_NE(render(next).find("__clusterIdx"), std::string::npos);

  // A header changed since: built again, and its new use is seen.
  dir.write("sum.cuh", std::string(kPreambleHeader) + "__device__ inline unsigned rank() { return __clusterRelativeBlockRank(); }\n");
  edited += "__global__ void ranked(unsigned* p) { p[0] = rank(); }\n";
  const Result changed = run(edited, &built);
  EXPECT_GT(built, 0u);
  EXPECT_NE(render(changed).find("__clusterRelativeBlockRank"), std::string::npos);
  run(edited + "// again\n", &built);
  EXPECT_EQ(built, 0u);

  // A damaged entry is a miss: that arch's preamble is built again.
  std::filesystem::path one;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(cache_dir) / "v1/preamble")) one = e.path();
  ASSERT_FALSE(one.empty());
  std::filesystem::resize_file(one, std::filesystem::file_size(one) - 1);
  run(edited + "// once more\n", &built);
  EXPECT_EQ(built, 1u);
  EXPECT_EQ(DiskCache(cache_dir).large_entries_on_disk("preamble"), on_disk);
}

}  // namespace
}  // namespace cudalint::cuda
