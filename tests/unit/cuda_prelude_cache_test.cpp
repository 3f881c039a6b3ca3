// The precompiled prelude (PreludeCache) must not change what the CUDA front-end finds: every
// .cu of the INTR oracle corpus and of the INTR/MEM fixtures is analysed with and without it,
// for a generic, an `a` and a post-Clang-19 target, and the results must be identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "tests/unit/cuda_corpus.h"

namespace cudalint::cuda {
namespace {

using corpus::read;
using corpus::render;

TEST(CudaPreludeCache, SameResultsWithAndWithoutThePrecompiledPrelude) {
  const std::vector<std::filesystem::path> files = corpus::intr_corpus();
  ASSERT_GT(files.size(), 200u);

  Options plain;
  plain.archs = {model::Arch{8, 0}, model::Arch{9, 0, 'a'}, model::Arch{10, 0, 'a'}};
  plain.cuda = model::CudaVersion{13, 0, -1};
  PreludeCache cache;
  Options cached = plain;
  cached.prelude_cache = &cache;

  // Two threads share the cache, as a run's workers do.
  std::vector<std::string> failures(files.size());
  std::atomic<size_t> next{0};
  std::atomic<size_t> uses{0};
  auto worker = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      std::string text = read(files[i]);
      std::string a = render(analyze(files[i].string(), text, plain, FeatureTable::builtin()));
      std::string b = render(analyze(files[i].string(), text, cached, FeatureTable::builtin()));
      uses += std::count(a.begin(), a.end(), '\n');
      if (a != b) failures[i] = fmt::format("{}:\n--- text prelude\n{}--- precompiled prelude\n{}", files[i].string(), a, b);
    }
  };
  std::thread t(worker);
  worker();
  t.join();
  for (const auto& f : failures) EXPECT_TRUE(f.empty()) << f;
  EXPECT_GT(uses.load(), files.size() * 3);  // the comparison saw real results, not empty ones
}

}  // namespace
}  // namespace cudalint::cuda
