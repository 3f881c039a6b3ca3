// The on-disk cache (analyzer/core/disk_cache.h) and what is kept in it: entries round-trip,
// damaged entries are misses, concurrent writers never expose a partial entry, graph-break
// summaries survive serialization exactly, and a run with a cold or warm cache reports exactly
// what a run without one reports.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "analyzer/core/disk_cache.h"
#include "analyzer/core/source_file.h"
#include "analyzer/engine/run.h"
#include "analyzer/frontends/python/gb_serialize.h"
#include "analyzer/report/report.h"
#include "tests/unit/temp_dir.h"
#include "rules/graph_breaks.h"

namespace cudalint {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using test_support::TempDir;

// The single pack under dir/v1/<kind>/.
fs::path only_entry(const fs::path& dir, const std::string& kind) {
  std::vector<fs::path> found;
  for (const auto& e : fs::recursive_directory_iterator(dir / "v1" / kind))
    if (e.is_regular_file()) found.push_back(e.path());
  EXPECT_EQ(found.size(), 1u);
  return found.empty() ? fs::path() : found[0];
}

// The reader behind cache loads (and discovery's small reads): exact bytes, sizes around its
// growth step, files that report no size (/proc), the byte bound, and what is not a file.
TEST(ReadRegularFile, ExactBytesBoundsAndNonFiles) {
  TempDir dir;
  for (size_t n : {size_t{0}, size_t{1}, size_t{65535}, size_t{65536}, size_t{65537}, size_t{800000}}) {
    std::string bytes(n, '\0');
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>((i * 131 + n) & 0xff);
    fs::path p = dir.path() / fmt::format("f{}", n);
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(n));
    auto got = read_regular_file(p.string());
    ASSERT_TRUE(got.has_value()) << n;
    EXPECT_EQ(*got, bytes) << n;
    if (n > 0) EXPECT_FALSE(read_regular_file(p.string(), n - 1).has_value()) << n;
    EXPECT_TRUE(read_regular_file(p.string(), n).has_value()) << n;
  }
  // st_size is 0 for /proc files: the content is still read whole.
  auto status = read_regular_file("/proc/self/status");
  ASSERT_TRUE(status.has_value());
  EXPECT_NE(status->find("Name:"), std::string::npos);
  EXPECT_FALSE(read_regular_file("/proc/self/status", 4).has_value());
  EXPECT_FALSE(read_regular_file(dir.path().string()).has_value());
  EXPECT_FALSE(read_regular_file((dir.path() / "missing").string()).has_value());
  fs::path fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(read_regular_file(fifo.string()).has_value());  // and does not block
}

TEST(DiskCache, BuildIdIsKnown) {
  // Without it nothing could be cached safely: Debian's toolchain always emits one.
  EXPECT_GE(DiskCache::build_id().size(), 16u);
  EXPECT_TRUE(std::all_of(DiskCache::build_id().begin(), DiskCache::build_id().end(),
                          [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }));
}

TEST(DiskCache, KeysSeparateKindsAndPartBoundaries) {
  EXPECT_EQ(DiskCache::key("k", {"ab", "c"}), DiskCache::key("k", {"ab", "c"}));
  EXPECT_NE(DiskCache::key("k", {"ab", "c"}), DiskCache::key("k", {"a", "bc"}));
  EXPECT_NE(DiskCache::key("k", {"ab"}), DiskCache::key("j", {"ab"}));
  EXPECT_EQ(DiskCache::key("k", {"x"}).size(), 64u);
}

TEST(DiskCache, RoundTripAndMisses) {
  TempDir t;
  DiskCache c((t.path() / "cache").string());
  const std::string key = DiskCache::key("test", {"one"});
  EXPECT_FALSE(c.load("test", key));
  EXPECT_FALSE(fs::exists(t.path() / "cache"));  // nothing is created before a store
  std::string bytes("a\0b\xff", 4);
  ASSERT_TRUE(c.store("test", key, bytes));
  EXPECT_EQ(c.load("test", key), bytes);  // not flushed yet
  EXPECT_EQ(c.entries_on_disk("test"), 0u);
  ASSERT_TRUE(c.flush());
  EXPECT_EQ(c.entries_on_disk("test"), 1u);
  EXPECT_EQ(DiskCache((t.path() / "cache").string()).load("test", key), bytes);  // another run
  EXPECT_FALSE(c.load("other", key));
  EXPECT_FALSE(c.load("test", DiskCache::key("test", {"two"})));
  ASSERT_TRUE(c.store("test", key, ""));  // an empty product is a product
  EXPECT_EQ(c.load("test", key), "");
  ASSERT_TRUE(c.flush());
  EXPECT_EQ(DiskCache((t.path() / "cache").string()).load("test", key), "");  // the newer pack wins
  EXPECT_EQ(c.entries_on_disk("test"), 1u);
  // Marked as a cache and ignored by git.
  EXPECT_TRUE(read(t.path() / "cache/CACHEDIR.TAG").starts_with("Signature: 8a477f597d28d172789f06886806bc55"));
  EXPECT_EQ(read(t.path() / "cache/.gitignore"), "*\n");
  // No temporary files are left behind.
  for (const auto& e : fs::recursive_directory_iterator(t.path()))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(DiskCache, DamagedEntriesAreMisses) {
  TempDir t;
  DiskCache c(t.path().string());
  const std::string key = DiskCache::key("test", {"damage"});
  const std::string payload(1000, 'x');
  ASSERT_TRUE(c.store("test", key, payload));
  ASSERT_TRUE(c.flush());
  fs::path entry = only_entry(t.path(), "test");
  const std::string good = read(entry);
  auto write = [&](const std::string& s) { std::ofstream(entry, std::ios::binary | std::ios::trunc) << s; };
  // Each load is another run's (a run reads a pack's index once).
  struct Fresh {
    const TempDir& t;
    std::optional<std::string> load(std::string_view kind, const std::string& key) const {
      return DiskCache(t.path().string()).load(kind, key);
    }
  } fresh{t};
  EXPECT_EQ(fresh.load("test", key), payload);

  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 1;  // a payload byte
  write(flipped);
  EXPECT_FALSE(fresh.load("test", key));
  flipped = good;
  flipped[flipped.size() - 60] ^= 1;  // an index byte
  write(flipped);
  EXPECT_FALSE(fresh.load("test", key));
  write(good.substr(0, good.size() - 1));  // truncated
  EXPECT_FALSE(fresh.load("test", key));
  write(good + "y");  // trailing bytes
  EXPECT_FALSE(fresh.load("test", key));
  write("CLPACK02" + good.substr(8));  // another format
  EXPECT_FALSE(fresh.load("test", key));
  write("");
  EXPECT_FALSE(fresh.load("test", key));
  fs::remove(entry);
  fs::create_directory(entry);  // not a regular file
  EXPECT_FALSE(fresh.load("test", key));
  fs::remove(entry);
  write(good);
  EXPECT_EQ(fresh.load("test", key), payload);
}

// Large entries: one file each, written at once, damaged ones are misses, and a kind keeps at
// most the given number, the least recently used (stored or loaded) going first.
TEST(DiskCache, LargeEntriesKeepTheMostRecentlyUsed) {
  TempDir t;
  DiskCache c((t.path() / "cache").string());
  auto key = [](const char* name) { return DiskCache::key("big", {name}); };
  auto path = [&](const char* name) { return t.path() / "cache/v1/big" / (key(name) + ".entry"); };
  // Modification times a second apart, whatever the file system's resolution.
  auto age = [&](const char* name, int seconds) {
    fs::last_write_time(path(name), fs::file_time_type::clock::now() - std::chrono::seconds(seconds));
  };
  EXPECT_FALSE(c.load_large("big", key("a")));
  const std::string a(200000, 'a'), b("b\0b", 3);
  ASSERT_TRUE(c.store_large("big", key("a"), a, 2));
  ASSERT_TRUE(c.store_large("big", key("b"), b, 2));
  EXPECT_EQ(DiskCache((t.path() / "cache").string()).load_large("big", key("a")), a);  // another run
  EXPECT_EQ(c.load_large("big", key("b")), b);
  EXPECT_EQ(c.large_entries_on_disk("big"), 2u);
  EXPECT_EQ(c.entries_on_disk("big"), 0u);  // not packs
  // `a` is the older; loading it makes it the most recent, so storing `c` removes `b`.
  age("a", 20);
  age("b", 10);
  ASSERT_TRUE(c.load_large("big", key("a")));
  ASSERT_TRUE(c.store_large("big", key("c"), "c", 2));
  EXPECT_EQ(c.large_entries_on_disk("big"), 2u);
  EXPECT_TRUE(c.load_large("big", key("a")));
  EXPECT_FALSE(c.load_large("big", key("b")));
  EXPECT_EQ(c.load_large("big", key("c")), "c");
  // Damage: a flipped payload byte, a truncation, another format.
  const std::string good = read(path("a"));
  auto write = [&](const std::string& bytes) { std::ofstream(path("a"), std::ios::binary | std::ios::trunc) << bytes; };
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 1;
  write(flipped);
  EXPECT_FALSE(c.load_large("big", key("a")));
  write(good.substr(0, good.size() - 1));
  EXPECT_FALSE(c.load_large("big", key("a")));
  write("CLLARGE2" + good.substr(8));
  EXPECT_FALSE(c.load_large("big", key("a")));
  write(good);
  EXPECT_EQ(c.load_large("big", key("a")), a);
  // A key that is not a file name is refused; no temporary files are left behind.
  EXPECT_FALSE(c.store_large("big", "../escape", "x", 2));
  for (const auto& e : fs::recursive_directory_iterator(t.path()))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  EXPECT_FALSE(DiskCache("/proc/cudalint-cache-test/cache").store_large("big", key("a"), "x", 2));
}

TEST(DiskCache, UnwritableDirectoryIsNotAnError) {
  // /proc refuses new directories even to root; elsewhere permissions do it for other users.
  std::vector<std::string> dirs = {"/proc/cudalint-cache-test/cache"};
  TempDir t;
  if (geteuid() != 0) {
    fs::permissions(t.path(), fs::perms::owner_read | fs::perms::owner_exec);
    dirs.push_back((t.path() / "cache").string());
  }
  for (const auto& dir : dirs) {
    DiskCache c(dir);
    EXPECT_FALSE(c.store("test", DiskCache::key("test", {"x"}), "bytes")) << dir;
    EXPECT_FALSE(c.load("test", DiskCache::key("test", {"x"}))) << dir;
  }
}

TEST(DiskCache, DirectoryThatIsAFileIsNotAnError) {
  TempDir t;
  std::ofstream(t.path() / "file") << "x";
  DiskCache c((t.path() / "file").string());
  EXPECT_FALSE(c.store("test", DiskCache::key("test", {"x"}), "bytes"));
  EXPECT_FALSE(c.load("test", DiskCache::key("test", {"x"})));
}

TEST(DiskCache, ConcurrentWritersNeverExposeAPartialEntry) {
  TempDir t;
  const std::string key = DiskCache::key("test", {"race"});
  // Writers (each its own run) store different sizes under one key and flush each time, which
  // also merges packs while others read them; readers (each load a new run) must see one value
  // whole, or nothing.
  std::vector<std::string> values;
  for (int i = 0; i < 4; ++i) values.push_back(std::string(size_t{1} << (14 + i), static_cast<char>('a' + i)));
  std::atomic<int> bad{0}, seen{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 4; ++w)
    threads.emplace_back([&, w] {
      DiskCache mine(t.path().string());
      for (int i = 0; i < 30; ++i) {
        mine.store("test", key, values[w]);
        mine.store("test", DiskCache::key("test", {std::to_string(w), std::to_string(i)}), values[w]);
        mine.flush();
      }
    });
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i)
        if (auto v = DiskCache(t.path().string()).load("test", key)) {
          ++seen;
          if (std::find(values.begin(), values.end(), *v) == values.end()) ++bad;
        }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad, 0);
  DiskCache after(t.path().string());
  EXPECT_TRUE(after.load("test", key));
  // Nothing was lost to the merges, and they kept the packs few.
  EXPECT_EQ(after.entries_on_disk("test"), 1u + 4 * 30);
  for (int w = 0; w < 4; ++w)
    for (int i = 0; i < 30; ++i)
      EXPECT_EQ(after.load("test", DiskCache::key("test", {std::to_string(w), std::to_string(i)})), values[w]);
  int temps = 0, packs = 0;
  for (const auto& e : fs::recursive_directory_iterator(t.path())) {
    if (e.path().string().find(".tmp.") != std::string::npos) ++temps;
    packs += e.path().extension() == ".pack";
  }
  EXPECT_EQ(temps, 0);
  EXPECT_LE(packs, static_cast<int>(DiskCache::kMaxPacks) + 4);
}

std::vector<fs::path> python_files() {
  const fs::path root(CUDALINT_SOURCE_DIR);
  std::vector<fs::path> files;
  for (const fs::path dir : {root / "fixtures", root / "tests/oracle/gb/corpus"})
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(GraphBreakSummaryBytes, RoundTripIsExact) {
  auto files = python_files();
  ASSERT_GT(files.size(), 100u);
  size_t with_breaks = 0, with_elided = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    python::gb::Summary s = python::gb::summarize(read(f), rules::graph_break_calls());
    std::string bytes = python::gb::serialize(s);
    auto back = python::gb::deserialize(bytes);
    ASSERT_TRUE(back);
    EXPECT_EQ(python::gb::serialize(*back), bytes);
    // Spot checks that the bytes carry the fields, not only a fixed point of the encoding.
    ASSERT_EQ(back->functions.size(), s.functions.size());
    for (size_t i = 0; i < s.functions.size(); ++i) {
      EXPECT_EQ(back->functions[i].qualname, s.functions[i].qualname);
      ASSERT_EQ(back->functions[i].breaks.size(), s.functions[i].breaks.size());
      for (size_t j = 0; j < s.functions[i].breaks.size(); ++j) {
        EXPECT_EQ(back->functions[i].breaks[j].span, s.functions[i].breaks[j].span);
        EXPECT_EQ(back->functions[i].breaks[j].rule, s.functions[i].breaks[j].rule);
        EXPECT_EQ(back->functions[i].breaks[j].what, s.functions[i].breaks[j].what);
      }
      with_breaks += !s.functions[i].breaks.empty();
    }
    EXPECT_EQ(back->imports, s.imports);
    EXPECT_EQ(back->compile_sites.size(), s.compile_sites.size());
    EXPECT_EQ(back->globals.size(), s.globals.size());
    // The lazy summary's left-out names travel too.
    python::gb::Summary lazy = python::gb::summarize_lazy(read(f), rules::graph_break_calls());
    auto lazy_back = python::gb::deserialize(python::gb::serialize(lazy));
    ASSERT_TRUE(lazy_back);
    EXPECT_EQ(lazy_back->elided, lazy.elided);
    with_elided += !lazy.elided.empty();
  }
  EXPECT_GT(with_elided, 10u);
  EXPECT_GT(with_breaks, 50u);
}

TEST(GraphBreakSummaryBytes, DamagedBytesAreRejectedNotTrusted) {
  auto files = python_files();
  ASSERT_FALSE(files.empty());
  size_t checked = 0;
  for (const auto& f : files) {
    std::string bytes = python::gb::serialize(python::gb::summarize(read(f), rules::graph_break_calls()));
    if (bytes.size() < 64) continue;
    // Every strict prefix is incomplete, and trailing bytes are not a summary either.
    for (size_t n = 0; n < bytes.size(); n += std::max<size_t>(1, bytes.size() / 97))
      EXPECT_FALSE(python::gb::deserialize(std::string_view(bytes).substr(0, n))) << f << " prefix " << n;
    EXPECT_FALSE(python::gb::deserialize(bytes + '\0'));
    // Huge counts must not allocate what the input cannot hold.
    std::string huge = bytes;
    huge[0] = huge[1] = huge[2] = huge[3] = '\xff';
    EXPECT_FALSE(python::gb::deserialize(huge));
    if (++checked == 25) break;
  }
  EXPECT_EQ(checked, 25u);
}

// What a run reports, in full (the JSON report: locations, messages, related locations, fixes).
std::string report_of(const RunOptions& o) {
  RunOutput out = run_analysis(o);
  std::ostringstream ss;
  report::RunInfo info;
  report::write_json(ss, out.findings, info);
  return ss.str();
}

TEST(DiskCache, RunsReportTheSameWithAColdAndAWarmCache) {
  // Every graph-break fixture case (each is its own project), CUDA cases, and the demo.
  const fs::path root(CUDALINT_SOURCE_DIR);
  std::vector<fs::path> cases = {root / "examples/demo"};
  for (const auto& fam : fs::directory_iterator(root / "fixtures")) {
    std::string id = fam.path().filename().string();
    if (!id.starts_with("GB") && id != "INTR001" && id != "MEM001") continue;
    for (const auto& c : fs::directory_iterator(fam.path()))
      if (c.is_directory()) cases.push_back(c.path());
  }
  std::sort(cases.begin(), cases.end());
  ASSERT_GT(cases.size(), 60u);
  TempDir t;
  DiskCache c((t.path() / "cache").string());
  size_t with_findings = 0;
  for (const auto& dir : cases) {
    SCOPED_TRACE(dir.string());
    RunOptions o;
    o.root = dir.string();
    o.paths = {o.root};
    o.jobs = 2;
    o.cli.select = std::vector<std::string>{"ALL"};
    const std::string plain = report_of(o);
    o.disk_cache = &c;
    const std::string cold = report_of(o);
    c.flush();
    DiskCache next((t.path() / "cache").string());  // the next run reads what this one wrote
    o.disk_cache = &next;
    const std::string warm = report_of(o);
    EXPECT_EQ(cold, plain);
    EXPECT_EQ(warm, plain);
    with_findings += plain.find("\"rule\"") != std::string::npos;
  }
  EXPECT_GE(with_findings, 35u);
  // The warm runs were served from the cache.
  EXPECT_GT(c.entries_on_disk("gb"), 50u);
  // The fixtures use the default flags, whose precompiled prelude is built into cudalint, except
  // INTR001/setup_py_nvcc_flags, whose extension's --expt-extended-lambda puts <functional>
  // after the prelude, and INTR001/torch_at_dispatch, whose leading torch includes put
  // cudalint's stand-in for torch after it: one PCH for each of those sets.
  const size_t fixture_pchs = c.entries_on_disk("pch");
  EXPECT_EQ(fixture_pchs, 2u);
  // Other flags (C++20 from a compilation database): the PCH is built once, kept and reused.
  fs::create_directories(t.path() / "cpp20");
  std::ofstream(t.path() / "cpp20/k.cu") << "__global__ void k(int* p) { p[0] = __reduce_add_sync(0xffffffffu, p[0]); }\n";
  std::ofstream(t.path() / "cpp20/compile_commands.json")
      << "[{\"directory\": \"" << (t.path() / "cpp20").string()
      << "\", \"file\": \"k.cu\", \"arguments\": [\"nvcc\", \"-std=c++20\", \"-c\", \"k.cu\"]}]";
  RunOptions o;
  o.root = (t.path() / "cpp20").string();
  o.paths = {o.root};
  o.target_archs = "7.5";
  const std::string plain = report_of(o);
  EXPECT_NE(plain.find("INTR001"), std::string::npos) << plain;
  o.disk_cache = &c;
  EXPECT_EQ(report_of(o), plain);
  c.flush();
  EXPECT_EQ(c.entries_on_disk("pch"), fixture_pchs + 1);
  DiskCache next((t.path() / "cache").string());
  o.disk_cache = &next;
  EXPECT_EQ(report_of(o), plain);
  next.flush();
  EXPECT_EQ(c.entries_on_disk("pch"), fixture_pchs + 1);  // read, not built again
}

TEST(DiskCache, AChangedFileIsNotServedFromTheCache) {
  TempDir t;
  DiskCache c((t.path() / "cache").string());
  fs::create_directories(t.path() / "src");
  const fs::path py = t.path() / "src/m.py";
  std::ofstream(py) << "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n";
  RunOptions o;
  o.root = (t.path() / "src").string();
  o.paths = {o.root};
  o.disk_cache = &c;
  std::string first = report_of(o);
  EXPECT_NE(first.find("GB001"), std::string::npos) << first;
  std::ofstream(py, std::ios::trunc) << "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum()\n";
  std::string second = report_of(o);
  EXPECT_EQ(second.find("GB001"), std::string::npos) << second;
}

}  // namespace
}  // namespace cudalint

namespace cudalint {
namespace {

// A cached CUDA result is only reused while every header the parse found, and every header it
// looked for and did not find, is as it was.
TEST(DiskCache, CudaResultsFollowTheHeadersTheyRead) {
  TempDir t;
  DiskCache c((t.path() / "cache").string());
  const fs::path src = t.path() / "src";
  fs::create_directories(src / "inc");
  std::ofstream(src / "k.cu") << "#include \"inc/ops.cuh\"\n#include \"inc/generated.cuh\"\n"
                                 "__global__ void k(int* p) { p[threadIdx.x] = reduce(p[threadIdx.x]); }\n";
  auto write_ops = [&](const char* body) {
    std::ofstream(src / "inc/ops.cuh", std::ios::trunc) << "#pragma once\n__device__ int reduce(int v) { " << body
                                                        << " }\n";
  };
  write_ops("return __reduce_add_sync(0xffffffffu, v);");  // sm_80+
  RunOptions o;
  o.root = src.string();
  o.paths = {(src / "k.cu").string()};  // the headers are not analysed themselves
  o.target_archs = "7.5";
  o.jobs = 1;
  auto both = [&] {
    RunOptions plain = o;
    std::string expected = report_of(plain);
    RunOptions cached = o;
    for (int run = 0; run < 2; ++run) {  // cold or warm, whichever this is; then warm
      DiskCache cache((t.path() / "cache").string());  // each run its own; flushed when it ends
      cached.disk_cache = &cache;
      EXPECT_EQ(report_of(cached), expected);
    }
    return expected;
  };
  const std::string with_use = both();
  EXPECT_NE(with_use.find("__reduce_add_sync"), std::string::npos) << with_use;
  write_ops("return v + 1;");  // the header changes: the cached result must not be used
  const std::string without = both();
  EXPECT_EQ(without.find("__reduce_add_sync"), std::string::npos) << without;
  // The missing header appears, and brings a use with it.
  std::ofstream(src / "inc/generated.cuh") << "#pragma once\n__device__ int twice(int v) { return "
                                              "__reduce_max_sync(0xffffffffu, v); }\n"
                                              "__global__ void k2(int* p) { p[0] = twice(p[0]); }\n";
  const std::string appeared = both();
  EXPECT_NE(appeared.find("__reduce_max_sync"), std::string::npos) << appeared;
  // One key (file, text, flags): an entry stored again is read from the newest pack.
  EXPECT_EQ(c.entries_on_disk("cuda"), 1u);
  // A run on the file (a pre-commit hook's) kept its preamble for the next: one key (file,
  // arch, flags, leading directives), built again after each header change above, which the
  // reports compared show was seen.
  EXPECT_EQ(c.large_entries_on_disk("preamble"), 1u);
  // A run on the directory keeps none: its files are not the ones being edited.
  TempDir other;
  DiskCache dir_cache((other.path() / "cache").string());
  RunOptions whole = o;
  whole.paths = {src.string()};
  const std::string whole_plain = report_of(whole);
  whole.disk_cache = &dir_cache;
  EXPECT_EQ(report_of(whole), whole_plain);
  EXPECT_EQ(dir_cache.large_entries_on_disk("preamble"), 0u);
}

}  // namespace
}  // namespace cudalint

namespace cudalint {
namespace {

// The global-access analysis runs only for files some MEM rule is enabled for; a result cached
// without it never answers a run that needs it (nor the reverse).
TEST(DiskCache, MemAnalysisFollowsTheSelectionAndKeepsItsOwnEntries) {
  TempDir t;
  fs::create_directories(t.path() / "src");
  std::ofstream(t.path() / "src/k.cu")
      << "__global__ void k(float* out, const float* in, int n) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) out[8 * i] = __shfl(in[i], 0);\n"
         "}\n";
  RunOptions o;
  o.root = (t.path() / "src").string();
  o.paths = {o.root};
  o.target_archs = "8.0";
  auto run = [&](std::string_view select, const DiskCache* cache) {
    std::vector<std::string> ids;  // "INTR,MEM" as the CLI splits it
    for (size_t at = 0; at <= select.size();) {
      size_t comma = std::min(select.find(',', at), select.size());
      ids.emplace_back(select.substr(at, comma - at));
      at = comma + 1;
    }
    o.cli.select = ids;
    o.disk_cache = cache;
    return report_of(o);
  };
  const std::string both = run("INTR,MEM", nullptr), intr = run("INTR", nullptr), mem = run("MEM", nullptr);
  ASSERT_NE(both.find("MEM001"), std::string::npos) << both;
  ASSERT_NE(both.find("INTR"), std::string::npos) << both;
  EXPECT_EQ(intr.find("MEM001"), std::string::npos) << intr;
  EXPECT_NE(intr.find("INTR"), std::string::npos) << intr;
  EXPECT_NE(mem.find("MEM001"), std::string::npos) << mem;
  // One cache, the selections in turn, each run reading what the earlier ones wrote.
  for (const char* order : {"INTR", "MEM", "INTR,MEM", "INTR", "MEM"}) {
    DiskCache c((t.path() / "cache").string());
    const std::string want = std::string(order) == "INTR" ? intr : std::string(order) == "MEM" ? mem : both;
    EXPECT_EQ(run(order, &c), want) << order;
    c.flush();
  }
  DiskCache c((t.path() / "cache").string());
  EXPECT_EQ(c.entries_on_disk("cuda"), 2u);  // with and without the accesses
}

}  // namespace
}  // namespace cudalint
