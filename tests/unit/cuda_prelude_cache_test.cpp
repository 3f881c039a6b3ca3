// The precompiled prelude (PreludeCache) must not change what the CUDA front-end finds: every
// .cu of the INTR oracle corpus and of the INTR/MEM fixtures is analysed with and without it,
// for a generic, an `a` and a post-Clang-19 target, and the results must be identical.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "analyzer/core/disk_cache.h"
#include "tests/unit/cuda_corpus.h"
#include "tests/unit/temp_dir.h"

namespace cudalint::cuda {
namespace {

using corpus::read;
using corpus::render;

TEST(CudaPreludeCache, SameResultsWithAndWithoutThePrecompiledPrelude) {
  const std::vector<std::filesystem::path> files = corpus::intr_corpus();
  ASSERT_GT(files.size(), 200u);

  Options plain;
  plain.archs = {domain::Arch{8, 0}, domain::Arch{9, 0, 'a'}, domain::Arch{10, 0, 'a'}};
  plain.cuda = domain::CudaVersion{13, 0, -1};
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

// A file that leads with standard headers gets a PCH holding them (one per set of headers): it
// must find what parsing them as text finds, uses, accesses and syntax errors alike. Every 10th
// corpus case, with <cstdio>, <vector> and <cmath> (through clang's CUDA wrapper) in front.
TEST(CudaPreludeCache, StandardHeadersPrecompiledFindWhatTheirTextFinds) {
  std::vector<std::filesystem::path> all = corpus::intr_corpus();
  std::vector<std::filesystem::path> files;
  for (size_t i = 0; i < all.size(); i += 10) files.push_back(all[i]);
  ASSERT_GT(files.size(), 20u);
  Options plain;
  plain.archs = {domain::Arch{7, 5}, domain::Arch{9, 0, 'a'}};
  plain.cuda = domain::CudaVersion{13, 0, -1};
  plain.want_accesses = true;
  PreludeCache cache;
  Options cached = plain;
  cached.prelude_cache = &cache;
  // The arch-dependent line after the includes gives the two archs different tokens, so each
  // file with a feature is parsed for both (whichever cases the sample holds).
  // The standard headers lead, or come after code (hoisted into the PCH all the same).
  const std::string arch_line = "#if __CUDA_ARCH__ >= 900\n__device__ int lead_sm90_only;\n#endif\n";
  const std::string leads[] = {
      "// leading comment\n#include <cstdio>\n#include <vector>\n#include <cmath>\n" + arch_line,
      "// leading comment\nstruct Before {};\n" + arch_line + "#include <cstdio>\n#include <vector>\n#include <cmath>\n"};
  unsigned parses = 0, std_parses = 0;
  size_t lines = 0;
  for (size_t i = 0; i < files.size() * 2; ++i) {
    const std::filesystem::path& f = files[i / 2];
    const std::string text = leads[i % 2] + read(f);
    std::string a = render(analyze(f.string(), text, plain, FeatureTable::builtin()));
    Result r = analyze(f.string(), text, cached, FeatureTable::builtin());
    std::string b = render(r);
    // torch's atomic header depends on the arch: standard headers after it stay in place.
    if (i % 2 == 0 || text.find("ATen/cuda/Atomic.cuh") == std::string::npos) {
      parses += r.clang_parses;
      std_parses += r.std_pch_parses;
    }
    lines += std::count(a.begin(), a.end(), '\n');
    EXPECT_EQ(a, b) << f.string() << ":\n--- text\n" << a << "--- standard headers precompiled\n" << b;
  }
  EXPECT_GT(parses, files.size());
  EXPECT_EQ(std_parses, parses);  // every parse read them from the PCH
  EXPECT_GT(lines, files.size() * 3);
  // Without standard headers in front, the plain prelude PCH serves.
  Result r = analyze(files[0].string(), read(files[0]), cached, FeatureTable::builtin());
  EXPECT_GT(r.pch_parses, 0u);
  EXPECT_EQ(r.std_pch_parses, 0u);
}

TEST(CudaPreludeCache, LeadingStandardIncludes) {
  // Headers by name: "missing/..." are missing, "sys/..." system headers, the rest project headers.
  std::map<std::string, std::string> headers = {
      {"common.cuh", "#ifndef COMMON_CUH\n#define COMMON_CUH\n#include <cuda_fp16.h>\n#include <cstdint>\n"
                     "#include \"inner.h\"\n#include <map>\nstruct S {};\n#endif\n"},
      {"inner.h", "#pragma once\n#include <string>\n"},  // only includes: the block goes on
      {"guarded_late.h", "#ifndef G\n#define H\n#include <list>\n"},  // not a guard
  };
  std::vector<std::string> asked;
  IncludeLookup look = [&](std::string_view name, bool angled, const std::string& dir) -> IncludeLookup::result_type {
    asked.push_back(fmt::format("{}{}@{}", angled ? "<>" : "\"\"", name, dir));
    if (name.starts_with("missing/")) return {{"", ""}};
    if (name.starts_with("sys/")) return std::nullopt;
    auto it = headers.find(std::string(name));
    if (it == headers.end()) return {{"", ""}};
    return {{"/p/inc/" + it->first, it->second}};
  };
  auto scan = [&](std::string_view text) { return leading_std_includes(text, "/p/src", look); };
  EXPECT_EQ(scan(""), "");
  EXPECT_EQ(scan("\xEF\xBB\xBF// c\n/* a\n b */ #include <vector>\n#pragma once\n#include \"missing/m.h\"\n"
                 "#include <missing/torch.h>\n  #  include <cstdio> // x\r\n#include <vector>\n"
                 "__global__ void k() {}\n#include <cmath>\n"),
            "#include <vector>\n#include <cstdio>\n");
  // Into the first header found: its guard, its own includes (nested), up to its code.
  asked.clear();
  EXPECT_EQ(scan("#include <cfloat>\n#include \"common.cuh\"\n#include <vector>\n"),
            "#include <cfloat>\n#include <cstdint>\n#include <string>\n#include <map>\n");
  EXPECT_EQ(asked, (std::vector<std::string>{"\"\"common.cuh@/p/src", "\"\"inner.h@/p/inc"}));
  // A system header, a macro, a condition or a pragma before them: what follows may depend on it.
  EXPECT_EQ(scan("#include <cstdio>\n#include <sys/torch.h>\n#include <vector>\n"), "#include <cstdio>\n");
  EXPECT_EQ(scan("#include <cstdio>\n#define _GLIBCXX_DEBUG 1\n#include <vector>\n"), "#include <cstdio>\n");
  EXPECT_EQ(scan("#ifdef X\n#include <vector>\n#endif\n"), "");
  EXPECT_EQ(scan("#pragma GCC diagnostic push\n#include <vector>\n"), "");
  EXPECT_EQ(scan("#include \"guarded_late.h\"\n#include <vector>\n"), "");
  EXPECT_EQ(scan("#include <vectorx>\n"), "");
  // Without a way to read includes, the block stops at the first one that is not standard or CUDA's.
  EXPECT_EQ(leading_std_includes("#include <cuda_bf16.h>\n#include <cstdio>\n#include \"a.h\"\n#include <vector>\n", "", {}),
            "#include <cstdio>\n");
}

// Past the leading block: every standard header the file and its project headers include
// outside conditional groups, unless a macro a standard header reads comes before one.
TEST(CudaPreludeCache, HoistableStandardIncludes) {
  const std::map<std::string, std::string> headers = {
      {"a.h", "#pragma once\nstruct A {};\n#include <map>\n#include \"b.h\"\n"},
      {"b.h", "#ifndef B_H\n#define B_H\n#include \"a.h\"\nint b;\n#include <string>\n#endif\n"},
      {"not_guard.h", "#ifndef G\n#define H\n#include <list>\n#endif\n#include <set>\n"},
      {"defines.h", "#pragma once\n#define _GNU_SOURCE 1\n"},
  };
  IncludeLookup look = [&](std::string_view name, bool, const std::string&) -> IncludeLookup::result_type {
    if (name.starts_with("sys/")) return std::nullopt;
    auto it = headers.find(std::string(name));
    if (it == headers.end()) return {{"", ""}};
    return {{"/p/inc/./" + it->first, it->second}};
  };
  auto scan = [&](std::string_view text) { return hoistable_std_includes(text, "/p/src", look); };
  // Past code, into headers (a cycle of includes met once), in the preprocessor's order.
  EXPECT_EQ(scan("#include <cstdio>\nint x;\n#include \"a.h\"\nvoid f();\n#include <vector>\n"),
            "#include <cstdio>\n#include <map>\n#include <string>\n#include <vector>\n");
  // Conditional groups keep theirs; an include guard is not one; a `#ifndef` without its
  // `#define` is.
  EXPECT_EQ(scan("#ifdef X\n#include <list>\n#else\n#include <deque>\n#endif\n#include <set>\n"), "#include <set>\n");
  EXPECT_EQ(scan("#include \"not_guard.h\"\n"), "#include <set>\n");
  // Comments and strings.
  EXPECT_EQ(scan("/* #include <list>\n#include <deque> */\nconst char* s = \"/*\";\n#include <set>\n// #include <map>\n"),
            "#include <set>\n");
  // A system header is left where it is; a missing one is skipped.
  EXPECT_EQ(scan("#include <sys/types.h>\n#include \"missing.h\"\n#include <set>\n"), "#include <set>\n");
  // A macro a standard header reads, before a header not met yet: only the leading block.
  EXPECT_EQ(scan("#include <cstdio>\nint a;\n#define _GNU_SOURCE\n#include <vector>\n"), "#include <cstdio>\n");
  EXPECT_EQ(scan("#include <cstdio>\nint a;\n#include \"defines.h\"\n#include <vector>\n"), "#include <cstdio>\n");
  EXPECT_EQ(scan("#include <cstdio>\nint a;\n#define min(a, b) a\n#include <vector>\n"), "#include <cstdio>\n");
  EXPECT_EQ(scan("#include <cstdio>\nint a;\n#pragma pack(1)\n#include <vector>\n"), "#include <cstdio>\n");
  // After the last one, or before a header met already, or a project's own macro: no matter.
  EXPECT_EQ(scan("#include <vector>\nint a;\n#define NDEBUG\n#include <vector>\n"), "#include <vector>\n");
  EXPECT_EQ(scan("#include <cstdio>\nint a;\n#define __CUDA_ARCH_SPECIFIC__ 900\n#define MY_MAX 4\n#include <vector>\n"),
            "#include <cstdio>\n#include <vector>\n");
}

// Each set of standard headers keeps a PCH in memory for the run: a bounded number of sets.
TEST(CudaPreludeCache, StandardHeaderSetsAreBounded) {
  PreludeCache cache;
  for (size_t i = 0; i < PreludeCache::kMaxStdSets; ++i)
    EXPECT_TRUE(cache.admit_std_set(fmt::format("#include <h{}>\n", i))) << i;
  EXPECT_FALSE(cache.admit_std_set("#include <another>\n"));
  EXPECT_TRUE(cache.admit_std_set("#include <h3>\n"));  // admitted before: still served
}

// With a disk cache, at most kMaxPchBytes of PCHs stay in memory (a run over many projects
// held every project's): the least recently used go, and a later use reads them back from the
// disk instead of building them again. Without one, every PCH stays.
TEST(CudaPreludeCache, PchsInMemoryAreBoundedWithADiskCache) {
  test_support::TempDir t;
  DiskCache disk((t.path() / "cache").string());
  const size_t size = PreludeCache::kMaxPchBytes / 4 + 1;
  int builds = 0;
  auto build = [&](char c) {
    return [&builds, c, size]() -> PchBytes {
      ++builds;
      auto holder = std::make_shared<std::pair<std::string, std::string_view>>(std::string(size, c), std::string_view());
      holder->second = holder->first;
      const std::string_view* view = &holder->second;
      return PchBytes(std::move(holder), view);
    };
  };
  const std::string keys = "abcde";
  {
    PreludeCache run(&disk);
    for (char c : keys) ASSERT_NE(run.get(std::string(1, c), build(c)), nullptr);
    EXPECT_EQ(builds, 5);
    EXPECT_LE(run.pch_bytes_kept(), PreludeCache::kMaxPchBytes);
    EXPECT_EQ(run.pch_bytes_kept(), 3 * size);  // c, d, e
    // `a` went first: read back from the disk, not built; the PCH is the one built for it.
    // (Compared here while the cache holds it: see FailedBuildIsNotRetriedByTheNextRun.)
    EXPECT_EQ(run.get("a", build('x'))->substr(0, 2), "aa");
    EXPECT_EQ(builds, 5);
    // `e` was used last before it: still in memory; `b` went too.
    EXPECT_EQ(run.get("e", build('x'))->substr(0, 2), "ee");
    EXPECT_EQ(run.pch_bytes_kept(), 3 * size);
  }
  {
    PreludeCache no_disk;
    for (char c : keys) ASSERT_NE(no_disk.get(std::string(1, c), build(c)), nullptr);
    EXPECT_EQ(no_disk.get("a", build('x'))->substr(0, 2), "aa");
    EXPECT_EQ(builds, 10);  // nothing to read back from: nothing dropped
  }
}

// A PCH that could not be built is not tried again by the next run with the same cache (where
// the standard headers have an error, each editor save and pre-commit run paid a failed build of
// their PCH on top of parsing them).
TEST(CudaPreludeCache, FailedBuildIsNotRetriedByTheNextRun) {
  test_support::TempDir t;
  const std::string dir = (t.path() / "cache").string();
  int builds = 0;
  auto fail = [&]() -> PchBytes {
    ++builds;
    return nullptr;
  };
  auto ok = [&]() -> PchBytes {
    ++builds;
    return std::make_shared<const std::string_view>("pch bytes");
  };
  {
    DiskCache disk(dir);
    PreludeCache run(&disk);
    EXPECT_EQ(run.get("set-a", fail), nullptr);
    EXPECT_EQ(run.get("set-a", fail), nullptr);  // the same run asks once
    EXPECT_NE(run.get("set-c", ok), nullptr);
    EXPECT_EQ(builds, 2);
  }
  {
    DiskCache disk(dir);
    PreludeCache run(&disk);
    EXPECT_EQ(run.get("set-a", fail), nullptr);
    EXPECT_EQ(builds, 2);  // remembered
    // (A PCH loaded from disk is not held here: its shared_ptr is made in prelude_cache.cpp,
    // built without RTTI, and UBSan's vptr check flags its release from this file.)
    EXPECT_EQ(run.get("set-b", fail), nullptr);
    EXPECT_EQ(builds, 3);  // another set is tried
  }
  {
    PreludeCache no_disk;  // without a cache nothing is remembered between runs
    EXPECT_EQ(no_disk.get("set-a", fail), nullptr);
    EXPECT_EQ(builds, 4);
  }
}

// The PCH built with the program serves the default flags for every arch, so a one-file run
// without a cache reads the prelude instead of parsing it; it must find what the text finds.
// Project macros that name a prelude identifier, and other flags, get the text (nothing is
// built here: precompile_prelude is off).
TEST(CudaPreludeCache, EmbeddedPrecompiledPreludeServesTheDefaultFlags) {
  ASSERT_FALSE(embedded_prelude_pch().empty());
  std::vector<std::filesystem::path> files = corpus::intr_corpus();
  ASSERT_GT(files.size(), 40u);
  files.resize(40);

  struct Case {
    std::vector<std::string> defines;
    std::string std;
    bool embedded;  // the embedded PCH applies
    bool cuda_12_4 = false;  // the build's toolkit (its macros follow the prelude either way)
  };
  const Case cases[] = {
      {{}, "c++17", true},
      {{"CUDALINT_TEST_FLAG=1", "USE_CP_ASYNC"}, "c++17", true, true},  // macros the prelude never names
      {{"__forceinline__=inline"}, "c++17", false},                // a prelude macro: parsed after it
      {{"__CUDACC_VER_MAJOR__=12", "__CUDACC_VER_MINOR__=4"}, "c++17", false},
      {{}, "c++20", false},
  };
  for (const Case& c : cases) {
    Options plain;
    plain.archs = {domain::Arch{7, 5}, domain::Arch{9, 0, 'a'}, domain::Arch{12, 0}};
    plain.defines = c.defines;
    plain.std = c.std;
    if (c.cuda_12_4) plain.cuda = domain::CudaVersion{12, 4, -1};
    PreludeCache cache(nullptr, embedded_prelude_pch());
    Options embedded = plain;
    embedded.prelude_cache = &cache;
    embedded.precompile_prelude = false;
    size_t parses = 0, pch_parses = 0, reused = 0;
    for (const auto& f : files) {
      std::string text = read(f);
      Result a = analyze(f.string(), text, plain, FeatureTable::builtin());
      Result b = analyze(f.string(), text, embedded, FeatureTable::builtin());
      EXPECT_EQ(a.pch_parses, 0u);
      EXPECT_EQ(a.reused_driver_parses, 0u);
      EXPECT_EQ(render(a), render(b)) << f.string() << " with " << fmt::format("{}", fmt::join(c.defines, " "));
      parses += b.clang_parses;
      pch_parses += b.pch_parses;
      reused += b.reused_driver_parses;
    }
    ASSERT_GT(parses, files.size()) << c.std;
    EXPECT_EQ(pch_parses, c.embedded ? parses : 0u) << c.std << " " << fmt::format("{}", fmt::join(c.defines, " "));
    // The cached run reuses the driver's cc1 command line (one per arch and flag set), with the
    // same results: every parse of it goes through a driver job.
    EXPECT_EQ(reused, parses) << c.std;
  }
}

// A file's hash is remembered per version of the file: asked again, the same bytes give the
// same hash; rewritten (other bytes, same size, within the same second), another; a directory,
// a missing file and an unreadable path give none.
TEST(CudaPreludeCache, FileHashFollowsTheFilesVersion) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("cudalint-file-hash-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string f = (dir / "common.cuh").string();
  auto write = [&](const std::string& text) { std::ofstream(f, std::ios::binary | std::ios::trunc) << text; };
  PreludeCache cache;
  write("#define A 1\n");
  auto h1 = cache.file_hash(f);
  ASSERT_TRUE(h1.has_value());
  EXPECT_EQ(cache.file_hash(f), h1);
  write("#define A 2\n");  // same size
  auto h2 = cache.file_hash(f);
  ASSERT_TRUE(h2.has_value());
  EXPECT_NE(*h2, *h1);
  write("#define A 1\n");  // the first bytes again: the first hash
  EXPECT_EQ(cache.file_hash(f), h1);
  PreludeCache fresh;  // and a cache that never saw the file agrees
  EXPECT_EQ(fresh.file_hash(f), h1);
  EXPECT_FALSE(cache.file_hash(dir.string()).has_value());
  EXPECT_FALSE(cache.file_hash((dir / "missing.cuh").string()).has_value());
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(cache.file_hash(f).has_value());  // gone since
}

}  // namespace
}  // namespace cudalint::cuda
