// Shared by the CUDA front-end equivalence tests (cuda_prelude_cache_test.cpp,
// cuda_arch_sharing_test.cpp, the preamble tests): the .cu files they analyse and the text they
// compare.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"

namespace cudalint::cuda::corpus {

inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every .cu of the INTR oracle corpus and of the INTR/MEM fixtures, sorted.
inline std::vector<std::filesystem::path> intr_corpus() {
  namespace fs = std::filesystem;
  const fs::path root(CUDALINT_SOURCE_DIR);
  std::vector<fs::path> files;
  for (const fs::path& dir : {root / "tests/oracle/intr/cases", root / "fixtures"})
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".cu") continue;
      std::string rel = e.path().lexically_relative(root).string();
      if (dir == root / "fixtures" && !rel.starts_with("fixtures/INTR") && !rel.starts_with("fixtures/MEM")) continue;
      files.push_back(e.path());
    }
  std::sort(files.begin(), files.end());
  return files;
}

// One arch's result as the rules read it.
inline std::string render(const ArchResult& ar) {
  std::string s = fmt::format("arch {} parsed={}\n", ar.arch.sm_name(), ar.parsed);
  for (const auto& u : ar.uses)
    s += fmt::format("  use {} {}:{}-{} ctx={} via={} inc={}-{} spelled={}\n", u.feature->name, u.file, u.begin,
                     u.end, static_cast<int>(u.context), u.via_header, u.include_begin, u.include_end, u.spelled);
  return s;
}

// Every arch's result, in order.
inline std::string render_archs(const Result& r) {
  std::string s;
  for (const auto& ar : r.per_arch) s += render(ar);
  return s;
}

// sm_75, sm_80 and sm_90 under CUDA 13.0, the prelude precompiled in `cache`: the archs of the
// equivalence tests that compare two ways of analysing one file.
inline Options three_arch_options(PreludeCache* cache) {
  Options o;
  o.archs = {domain::Arch{7, 5}, domain::Arch{8, 0}, domain::Arch{9, 0}};
  o.cuda = domain::CudaVersion{13, 0, -1};
  o.prelude_cache = cache;
  return o;
}

// The rest of a result: accesses, the syntax error, missing headers, front-end errors.
inline std::string render_rest(const Result& r) {
  std::string s;
  for (const auto& a : r.accesses)
    s += fmt::format("access {}-{} store={} k={} p={} w={} e={} stride={} g={} sym={}{} dd={} f={} row={} run={} off={} "
                     "sec={}\n",
                     a.begin, a.end, a.store, a.kernel, a.pointer, a.width, a.element, a.lane_stride ? *a.lane_stride : -1,
                     a.group_lanes, a.stride_symbol, a.symbol_certain ? "!" : "", a.data_dependent, a.field_of_struct,
                     a.row_position, a.run_merged, a.offset, a.sectors);
  for (const auto& e : r.syntax_errors) s += fmt::format("syntax {}-{} {}\n", e.begin, e.end, e.message);
  for (const auto& m : r.missing_includes) s += "missing " + m + "\n";
  for (const auto& e : r.errors) s += "error " + e + "\n";
  return s;
}

// Everything the rules read from a result (an empty string for no result).
inline std::string render(const Result& r) {
  std::string s;
  for (const auto& ar : r.per_arch) s += render(ar);
  return s + render_rest(r);
}

// A project header for the preamble tests: arch-dependent code, uses (one in a template), and a
// missing include.
inline constexpr const char* kPreambleHeader = R"(#pragma once
#include "missing_in_header.h"
template <class T>
__device__ T warp_total(T v) {
#if __CUDA_ARCH__ >= 900
  __cluster_barrier_arrive();
#endif
  return __reduce_add_sync(0xffffffffu, v);
}
__device__ inline unsigned cluster_size() { return __clusterSizeInBlocks(); }
)";

}  // namespace cudalint::cuda::corpus
