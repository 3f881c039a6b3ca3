// Clang's resource headers that the standard library needs are embedded (resource_headers.h): a
// binary where no LLVM is installed must find what one with the installation finds, and read the
// installation only for the headers not embedded. "No installation" is a resource directory
// whose include/ is empty (Clang's driver takes it as it is), or none at all (Debian's Clang
// then takes its headers' package directory, which the embedded headers shadow).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "analyzer/frontends/cuda/resource_headers.h"
#include "tests/unit/cuda_corpus.h"
#include "tests/unit/temp_dir.h"

namespace cudalint::cuda {
namespace {

using corpus::read;
using corpus::render;

TEST(CudaResourceHeaders, EmbeddedHeadersAreTheInstallations) {
  std::set<std::string> names;
  for (const EmbeddedHeader& h : clang_resource_headers()) names.insert(std::string(h.path));
  for (const char* needed : {"stddef.h", "stdarg.h", "stdint.h", "limits.h", "float.h", "stdbool.h",
                             "__stddef_size_t.h", "cuda_wrappers/new", "cuda_wrappers/cmath", "cuda_wrappers/bits/basic_string.h"})
    EXPECT_TRUE(names.count(needed)) << needed;
  EXPECT_FALSE(names.count("immintrin.h"));  // target intrinsics stay in the installation
  const std::filesystem::path installed = std::filesystem::path(default_clang_resource_dir()) / "include";
  if (!std::filesystem::exists(installed / "stddef.h")) GTEST_SKIP() << "no Clang installation at " << installed;
  for (const EmbeddedHeader& h : clang_resource_headers())
    EXPECT_EQ(read(installed / std::string(h.path)), h.text) << h.path;
}

// The standard headers a kernel file includes, C and C++, some through Clang's CUDA wrappers.
constexpr const char* kLead = R"(#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <stdint.h>
#include <string>
#include <vector>
)";

TEST(CudaResourceHeaders, WithoutAnInstallationStandardHeadersStillParse) {
  std::vector<std::filesystem::path> all = corpus::intr_corpus();
  std::vector<std::filesystem::path> files;
  for (size_t i = 0; i < all.size(); i += 12) files.push_back(all[i]);
  ASSERT_GT(files.size(), 15u);
  test_support::TempDir empty("cudalint-resource");
  std::filesystem::create_directories(empty.path() / "include");
  PreludeCache with_cache, without_cache, none_cache;
  Options with = corpus::three_arch_options(&with_cache);
  with.want_accesses = true;
  Options without = with;
  without.prelude_cache = &without_cache;
  without.clang_resource_dir = empty.path().string();
  Options plain = without;  // no cache: the prelude and the headers parsed as text, no driver job
  plain.prelude_cache = nullptr;
  Options none = with;
  none.prelude_cache = &none_cache;
  none.clang_resource_dir.clear();
  size_t lines = 0;
  for (const auto& f : files) {
    const std::string text = kLead + read(f);
    Result a = analyze(f.string(), text, with, FeatureTable::builtin());
    Result b = analyze(f.string(), text, without, FeatureTable::builtin());
    Result c = analyze(f.string(), text, plain, FeatureTable::builtin());
    Result d = analyze(f.string(), text, none, FeatureTable::builtin());
    const std::string ra = render(a);
    lines += std::count(ra.begin(), ra.end(), '\n');
    EXPECT_EQ(ra.find("missing "), std::string::npos) << f.string() << "\n" << ra;
    EXPECT_EQ(ra, render(b)) << f.string() << ":\n--- installed\n" << ra << "--- embedded only\n" << render(b);
    EXPECT_EQ(ra, render(c)) << f.string() << ":\n--- installed\n" << ra << "--- embedded only, no cache\n" << render(c);
    EXPECT_EQ(ra, render(d)) << f.string() << ":\n--- installed\n" << ra << "--- no resource directory\n" << render(d);
  }
  EXPECT_GT(lines, files.size() * 3);
}

// A header only the installation has is found there, and is missing without it.
TEST(CudaResourceHeaders, OtherHeadersComeFromTheInstallation) {
  const std::filesystem::path installed = std::filesystem::path(default_clang_resource_dir()) / "include";
  if (!std::filesystem::exists(installed / "immintrin.h")) GTEST_SKIP() << "no Clang installation at " << installed;
  test_support::TempDir empty("cudalint-resource");
  std::filesystem::create_directories(empty.path() / "include");
  PreludeCache cache;
  Options with = corpus::three_arch_options(&cache);
  Options without = with;
  without.clang_resource_dir = empty.path().string();
  const std::string text = "#include <immintrin.h>\n#include <vector>\n"
                           "__global__ void k(unsigned* p) { p[0] = __reduce_add_sync(0xffffffffu, p[1]); }\n";
  Result a = analyze("/cudalint-test/simd.cu", text, with, FeatureTable::builtin());
  Result b = analyze("/cudalint-test/simd.cu", text, without, FeatureTable::builtin());
  EXPECT_TRUE(a.missing_includes.empty()) << render(a);
  EXPECT_EQ(b.missing_includes, std::vector<std::string>{"immintrin.h"}) << render(b);
  EXPECT_NE(render(b).find("use __reduce_add_sync"), std::string::npos);  // the kernel is analysed all the same
}

}  // namespace
}  // namespace cudalint::cuda
