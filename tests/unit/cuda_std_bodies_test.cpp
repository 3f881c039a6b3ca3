// Parsed as text, the C++ standard library's function bodies are skipped (Options::skip_std_bodies).
// What the rules read must not change: corpus cases behind a block of standard headers, with host
// and device code that uses them, are analysed with and without skipping, and with the headers
// precompiled (their PCH built with the bodies skipped); every result must be identical.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/unit/cuda_corpus.h"
#include "tests/unit/temp_dir.h"

namespace cudalint::cuda {
namespace {

using corpus::read;
using corpus::render;

// Headers with many bodies, and code whose meaning needs some of them: constexpr functions
// (std::min in device code, numeric_limits), a deduced return type, templates instantiated by
// host code, a lambda handed to an algorithm.
constexpr const char* kLead = R"(#include <algorithm>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>
)";
constexpr const char* kTail = R"(
__device__ float cudalint_std_clamp(float v) { return std::min(std::max(v, 0.0f), 1.0f); }
__global__ void cudalint_std_kernel(float* p) {
  static_assert(std::numeric_limits<int>::max() > 0, "constexpr bodies are kept");
  p[threadIdx.x] = cudalint_std_clamp(p[threadIdx.x]) + __shfl_sync(0xffffffffu, p[0], 1);
}
static auto cudalint_std_pair() { return std::make_tuple(1, 2.0f); }
std::string cudalint_std_host(std::vector<float>& v, float* d) {
  std::sort(v.begin(), v.end(), [](float a, float b) { return a > b; });
  std::function<int(int)> f = [](int x) { return x + 1; };
  auto owned = std::make_unique<int>(f(std::get<0>(cudalint_std_pair())));
  cudalint_std_kernel<<<1, 32>>>(d);
  std::ostringstream out;
  out << v.size() << *owned;
  std::cout << out.str();
  return out.str();
}
)";

TEST(CudaStdBodies, SkippedStandardBodiesFindWhatParsedBodiesFind) {
  std::vector<std::filesystem::path> all = corpus::intr_corpus();
  std::vector<std::filesystem::path> files;
  for (size_t i = 0; i < all.size(); i += 8) files.push_back(all[i]);
  ASSERT_GT(files.size(), 25u);
  // The text path: the embedded PCH serves the prelude and nothing builds one of the standard
  // headers (they are parsed as text, through the driver job whose front-end options we set).
  PreludeCache text_cache(nullptr, embedded_prelude_pch());
  Options on = corpus::three_arch_options(&text_cache);
  on.want_accesses = true;
  on.precompile_prelude = false;
  Options off = on;
  off.skip_std_bodies = false;
  PreludeCache pch_cache(nullptr, embedded_prelude_pch());
  Options pch = on;
  pch.prelude_cache = &pch_cache;
  pch.precompile_prelude = true;

  unsigned skipped = 0, parses = 0, std_pch_parses = 0;
  size_t lines = 0;
  for (const auto& f : files) {
    const std::string text = kLead + read(f) + kTail;
    Result a = analyze(f.string(), text, off, FeatureTable::builtin());
    Result b = analyze(f.string(), text, on, FeatureTable::builtin());
    Result c = analyze(f.string(), text, pch, FeatureTable::builtin());
    EXPECT_EQ(a.std_bodies_skipped, 0u);
    EXPECT_EQ(c.std_bodies_skipped, 0u);  // read from the PCH, not parsed
    skipped += b.std_bodies_skipped;
    parses += b.clang_parses;
    std_pch_parses += c.std_pch_parses;
    const std::string ra = render(a);
    lines += std::count(ra.begin(), ra.end(), '\n');
    EXPECT_EQ(ra, render(b)) << f.string() << ":\n--- parsed\n" << ra << "--- skipped\n" << render(b);
    EXPECT_EQ(ra, render(c)) << f.string() << ":\n--- parsed\n" << ra << "--- precompiled, skipped\n" << render(c);
  }
  // Thousands of bodies per parse: the headers above define that many functions.
  EXPECT_GT(skipped, parses * 1000u);
  EXPECT_GT(std_pch_parses, files.size());
  EXPECT_GT(lines, files.size() * 6);  // the comparison saw real results (each tail kernel's shuffle)
}

// An error in the analysed file is still found after skipped headers, and only there: the
// kernel's use of an sm_80 intrinsic below it is found too.
TEST(CudaStdBodies, ErrorsOfTheFileAreStillReported) {
  PreludeCache cache(nullptr, embedded_prelude_pch());
  Options on = corpus::three_arch_options(&cache);
  on.precompile_prelude = false;
  Options off = on;
  off.skip_std_bodies = false;
  const std::string text = std::string(kLead) +
                           "__global__ void k(unsigned* p) { p[0] = __reduce_add_sync(0xffffffffu, p[1]); }\n"
                           "void host(std::vector<int>& v) { v.push_back(1) }\n";
  Result a = analyze("/cudalint-test/err.cu", text, off, FeatureTable::builtin());
  Result b = analyze("/cudalint-test/err.cu", text, on, FeatureTable::builtin());
  EXPECT_GT(b.std_bodies_skipped, 0u);
  ASSERT_EQ(b.syntax_errors.size(), 1u);
  EXPECT_GT(b.syntax_errors[0].begin, text.rfind("void host"));
  EXPECT_EQ(render(a), render(b));
  const std::string r = render(b);
  EXPECT_NE(r.find("use __reduce_add_sync"), std::string::npos) << r;
}

// A project under a directory named `c++` is not the standard library: its header's bodies are
// parsed (the standard library's directory has a version after `c++/`).
TEST(CudaStdBodies, AProjectUnderADirectoryNamedCxxKeepsItsBodies) {
  test_support::TempDir root("cudalint-std-bodies");
  root.write("c++/proj/helpers.cuh",
             "#pragma once\n__device__ unsigned warp_sum(unsigned v) { return __reduce_add_sync(0xffffffffu, v); }\n");
  const std::string file = (root.path() / "c++/proj/k.cu").string();
  const std::string text = "#include <vector>\n#include \"helpers.cuh\"\n"
                           "__global__ void k(unsigned* p) { p[threadIdx.x] = warp_sum(p[0]); }\n";
  PreludeCache cache(nullptr, embedded_prelude_pch());
  Options on = corpus::three_arch_options(&cache);
  on.precompile_prelude = false;
  Options off = on;
  off.skip_std_bodies = false;
  Result a = analyze(file, text, off, FeatureTable::builtin());
  Result b = analyze(file, text, on, FeatureTable::builtin());
  EXPECT_GT(b.std_bodies_skipped, 0u);  // <vector>'s
  EXPECT_EQ(render(a), render(b));
  EXPECT_NE(render(b).find("use __reduce_add_sync"), std::string::npos) << render(b);
}

}  // namespace
}  // namespace cudalint::cuda
