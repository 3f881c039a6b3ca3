// The precompiled prelude (PreludeCache) must not change what the CUDA front-end finds: every
// .cu of the INTR oracle corpus and of the INTR/MEM fixtures is analysed with and without it,
// for a generic, an `a` and a post-Clang-19 target, and the results must be identical.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <algorithm>
#include <atomic>
#include <thread>

#include <fmt/format.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"

namespace cudalint::cuda {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Everything the rules read from a result, as text (an empty string for no result).
std::string render(const Result& r) {
  std::string s;
  for (const auto& ar : r.per_arch) {
    s += fmt::format("arch {} parsed={}\n", ar.arch.sm_name(), ar.parsed);
    for (const auto& u : ar.uses)
      s += fmt::format("  use {} {}:{}-{} ctx={} via={} spelled={}\n", u.feature->name, u.file, u.begin, u.end,
                       static_cast<int>(u.context), u.via_header, u.spelled);
  }
  for (const auto& a : r.accesses)
    s += fmt::format("access {}-{} store={} k={} p={} w={} e={} stride={} dd={} f={} row={} sec={}\n", a.begin, a.end,
                     a.store, a.kernel, a.pointer, a.width, a.element, a.lane_stride ? *a.lane_stride : -1,
                     a.data_dependent, a.field_of_struct, a.row_position, a.sectors);
  for (const auto& e : r.syntax_errors) s += fmt::format("syntax {}-{} {}\n", e.begin, e.end, e.message);
  for (const auto& m : r.missing_includes) s += "missing " + m + "\n";
  for (const auto& e : r.errors) s += "error " + e + "\n";
  return s;
}

TEST(CudaPreludeCache, SameResultsWithAndWithoutThePrecompiledPrelude) {
  const fs::path root(CUDALINT_SOURCE_DIR);
  std::vector<fs::path> files;
  for (const fs::path dir : {root / "tests/oracle/intr/cases", root / "fixtures"})
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".cu") continue;
      std::string rel = e.path().lexically_relative(root).string();
      if (dir == root / "fixtures" && !rel.starts_with("fixtures/INTR") && !rel.starts_with("fixtures/MEM")) continue;
      files.push_back(e.path());
    }
  std::sort(files.begin(), files.end());
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
