// Archs whose preprocessing gives the same tokens share one parse (arch_macros.h). Sharing must
// not change any arch's uses: every .cu of the INTR oracle corpus (every guard form: #if on
// __CUDA_ARCH__ and the feature macros, NV_IF_TARGET, NV_DISPATCH_TARGET, macros built on them)
// and of the INTR/MEM fixtures is analysed for many archs in one call and for each arch alone,
// and each arch's uses must be identical. The values arch_macros.h assumes are thereby checked
// against what Clang makes of the flags and the prelude. So are the bodies a later arch's parse
// skips, taking the first parse's findings for them (Options::reuse_bodies): an arch alone
// parses every body. And so are the archs derived from the first parse without one
// (Options::derive_archs).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <thread>

#include "tests/unit/cuda_corpus.h"

namespace cudalint::cuda {
namespace {

using corpus::read;
using corpus::render;
using corpus::render_rest;

// The corpus's options: these archs, CUDA 13.0, the prelude precompiled in `cache` (null: not).
Options corpus_options(const std::vector<domain::Arch>& archs, PreludeCache* cache) {
  Options o;
  o.archs = archs;
  o.cuda = domain::CudaVersion{13, 0, -1};
  o.prelude_cache = cache;
  return o;
}

// `parallel`: the call parses its first and last arch at once (as for an editor); its whole
// result must then also equal the sequential call's.
void check(const std::vector<domain::Arch>& archs, bool precompiled, bool parallel = false) {
  const std::vector<std::filesystem::path> files = corpus::intr_corpus();
  ASSERT_GT(files.size(), 200u);
  PreludeCache cache;
  Options together = corpus_options(archs, precompiled ? &cache : nullptr);
  std::vector<std::string> failures(files.size());
  std::atomic<size_t> next{0}, parses{0}, wanted{0}, uses{0}, skipped{0}, derived{0};
  auto worker = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      std::string text = read(files[i]);
      // A file that reads __CUDA_ARCH_LIST__ sees the whole arch list, as under nvcc: an arch
      // analysed alone sees another list (fixtures/INTR001/arch_list_macro).
      if (text.find("__CUDA_ARCH_LIST__") != std::string::npos) continue;
      Options run = together;
      run.parallel_archs = parallel;
      Result all = analyze(files[i].string(), text, run, FeatureTable::builtin());
      parses += all.clang_parses;
      skipped += all.skipped_bodies;
      derived += all.derived_archs;
      std::string a, b;
      if (parallel) {
        Result seq = analyze(files[i].string(), text, together, FeatureTable::builtin());
        a += render_rest(all);
        b += render_rest(seq);
        // An editor's first pass (the newest arch), then the run over every arch, which takes the
        // first pass's parse instead of making it again: the same result, one parse less.
        Options first = run;
        first.newest_arch_only = true;
        Result newest = analyze(files[i].string(), text, first, FeatureTable::builtin());
        Result after = analyze(files[i].string(), text, run, FeatureTable::builtin());
        std::string x = render_rest(after), y = render_rest(all);
        for (const auto& ar : after.per_arch) x += render(ar);
        for (const auto& ar : all.per_arch) y += render(ar);
        EXPECT_EQ(x, y) << files[i].string();
        EXPECT_EQ(newest.per_arch.size(), 1u) << files[i].string();
        EXPECT_EQ(after.clang_parses + 1, all.clang_parses) << files[i].string();
      }
      unsigned alone_parses = 0;
      for (size_t k = 0; k < archs.size(); ++k) {
        Options one = together;
        one.prelude_cache = &cache;  // the reference: one parse per arch
        one.archs = {archs[k]};
        Result r = analyze(files[i].string(), text, one, FeatureTable::builtin());
        alone_parses += r.clang_parses;
        if (k < all.per_arch.size()) a += render(all.per_arch[k]);
        if (!r.per_arch.empty()) b += render(r.per_arch[0]);
        uses += r.per_arch.empty() ? 0 : r.per_arch[0].uses.size();
      }
      wanted += alone_parses;
      if (a != b) failures[i] = fmt::format("{}:\n--- archs in one call\n{}--- one arch per call\n{}", files[i].string(), a, b);
    }
  };
  std::thread t(worker);
  worker();
  t.join();
  for (const auto& f : failures) EXPECT_TRUE(f.empty()) << f;
  EXPECT_GT(uses.load(), files.size() * archs.size());  // real results were compared
  // Sharing happened: far fewer parses than one per file and arch.
  EXPECT_LT(parses.load() * 10, wanted.load() * 6) << parses.load() << " parses against " << wanted.load();
  // Bodies were skipped (with a precompiled prelude's driver job, in sequential calls), and
  // compared above.
  if (precompiled && !parallel) EXPECT_GT(skipped.load(), 0u);
  else EXPECT_EQ(skipped.load(), 0u);
  // Archs were derived (in sequential calls), and compared above.
  if (!parallel) EXPECT_GT(derived.load(), 0u);
  else EXPECT_EQ(derived.load(), 0u);
  std::printf("%zu files: %zu parses (%zu one arch per call), %zu bodies skipped, %zu archs derived\n", files.size(),
              parses.load(), wanted.load(), skipped.load(), derived.load());
}

TEST(CudaArchSharing, SameUsesAsOneParsePerArch) {
  check({domain::Arch{7, 5}, domain::Arch{8, 0}, domain::Arch{8, 6}, domain::Arch{9, 0}, domain::Arch{9, 0, 'a'},
         domain::Arch{10, 0, 'a'}, domain::Arch{10, 3, 'f'}, domain::Arch{12, 0}},
        true);
}

TEST(CudaArchSharing, SameResultsParsingTwoArchsAtOnce) {
  check({domain::Arch{7, 5}, domain::Arch{8, 0}, domain::Arch{9, 0, 'a'}, domain::Arch{12, 0}}, true, true);
}

// With the prelude parsed as text, its own conditionals run in the parse: they must not count.
TEST(CudaArchSharing, SameUsesWithTheTextPrelude) {
  check({domain::Arch{8, 0}, domain::Arch{8, 6}, domain::Arch{9, 0, 'a'}}, false);
}

// A parse takes the <nv/target> queries decided for its arch (prelude_arch_text_for), unless a
// project -D/-U names an arch macro: then the generic text's `#if`s decide them in the parse. A
// -D of a macro nothing uses forces the generic text; every arch's uses must be the same as with
// the decided text, over the whole corpus (NV_IF_TARGET, NV_DISPATCH_TARGET and their kin).
TEST(CudaArchSharing, DecidedTargetQueriesMatchTheGenericText) {
  const std::vector<domain::Arch> archs = {domain::Arch{7, 5},       domain::Arch{8, 0},       domain::Arch{8, 9},
                                          domain::Arch{9, 0},       domain::Arch{9, 0, 'a'},  domain::Arch{10, 0, 'a'},
                                          domain::Arch{10, 3, 'f'}, domain::Arch{12, 0},      domain::Arch{12, 1, 'a'}};
  const std::vector<std::filesystem::path> files = corpus::intr_corpus();
  ASSERT_GT(files.size(), 200u);
  PreludeCache cache;
  Options decided = corpus_options(archs, &cache);
  Options generic = decided;
  generic.defines = {"__CUDA_ARCH_CUDALINT_TEST_UNUSED=1"};
  size_t uses = 0, queries = 0;
  for (const auto& f : files) {
    std::string text = read(f);
    queries += text.find("NV_") != std::string::npos;
    Result a = analyze(f.string(), text, decided, FeatureTable::builtin());
    Result b = analyze(f.string(), text, generic, FeatureTable::builtin());
    ASSERT_EQ(a.per_arch.size(), archs.size());
    ASSERT_EQ(b.per_arch.size(), archs.size());
    for (size_t k = 0; k < archs.size(); ++k) {
      EXPECT_EQ(render(a.per_arch[k]), render(b.per_arch[k])) << f.string() << " for " << archs[k].sm_name();
      uses += a.per_arch[k].uses.size();
    }
  }
  EXPECT_GE(queries, 10u);              // the corpus's <nv/target> cases were among them
  EXPECT_GT(uses, files.size() * 2);    // and real uses were compared
}

}  // namespace
}  // namespace cudalint::cuda
