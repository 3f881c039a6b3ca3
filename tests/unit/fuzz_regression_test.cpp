// Replays every input in tests/fuzz/regressions/<target>/ through the fuzz target's entry point
// (tests/fuzz/fuzz_<target>.cpp, compiled here without libFuzzer), so crashes, hangs and
// failed properties that fuzzing found stay fixed in the normal (gcc) test suite. A failure
// aborts, which ctest reports for that target's test alone.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace cudalint::fuzz {
int target_cmake_eval(const uint8_t*, size_t);
int target_cmake_parse(const uint8_t*, size_t);
int target_config(const uint8_t*, size_t);
int target_dockerfile(const uint8_t*, size_t);
int target_engine(const uint8_t*, size_t);
int target_glob(const uint8_t*, size_t);
int target_lsp_positions(const uint8_t*, size_t);
int target_lsp_server(const uint8_t*, size_t);
int target_lsp_transport(const uint8_t*, size_t);
int target_pp_condition(const uint8_t*, size_t);
int target_ptx(const uint8_t*, size_t);
int target_pyproject(const uint8_t*, size_t);
int target_report(const uint8_t*, size_t);
int target_python_summary(const uint8_t*, size_t);
int target_requirements(const uint8_t*, size_t);
int target_setup_py(const uint8_t*, size_t);
int target_source(const uint8_t*, size_t);
}  // namespace cudalint::fuzz

namespace {

namespace fs = std::filesystem;
using Entry = int (*)(const uint8_t*, size_t);

struct Target {
  const char* name;
  Entry entry;
};

constexpr Target kTargets[] = {
    {"cmake_eval", &cudalint::fuzz::target_cmake_eval},
    {"cmake_parse", &cudalint::fuzz::target_cmake_parse},
    {"config", &cudalint::fuzz::target_config},
    {"dockerfile", &cudalint::fuzz::target_dockerfile},
    {"engine", &cudalint::fuzz::target_engine},
    {"glob", &cudalint::fuzz::target_glob},
    {"lsp_positions", &cudalint::fuzz::target_lsp_positions},
    {"lsp_server", &cudalint::fuzz::target_lsp_server},
    {"lsp_transport", &cudalint::fuzz::target_lsp_transport},
    {"pp_condition", &cudalint::fuzz::target_pp_condition},
    {"ptx", &cudalint::fuzz::target_ptx},
    {"pyproject", &cudalint::fuzz::target_pyproject},
    {"python_summary", &cudalint::fuzz::target_python_summary},
    {"report", &cudalint::fuzz::target_report},
    {"requirements", &cudalint::fuzz::target_requirements},
    {"setup_py", &cudalint::fuzz::target_setup_py},
    {"source", &cudalint::fuzz::target_source},
};

class FuzzRegression : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzRegression, ReplaysSavedInputs) {
  const Target& t = GetParam();
  fs::path dir = fs::path(CUDALINT_SOURCE_DIR) / "tests/fuzz/regressions" / t.name;
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no saved inputs in " << dir;
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(e.path().string());
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(t.entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
    // Hangs found by fuzzing must now be quick (generous for sanitizer builds).
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    ++n;
  }
  EXPECT_GT(n, 0u) << "empty regression directory " << dir;
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegression, ::testing::ValuesIn(kTargets),
                         [](const ::testing::TestParamInfo<Target>& i) { return std::string(i.param.name); });

}  // namespace
