// CMake evaluator on an in-memory project: the input is split at "\n#---\n" into the top-level
// CMakeLists.txt, cmake/a.cmake, sub/CMakeLists.txt and sub/b.cmake, so include(),
// add_subdirectory() and loops between files are reachable. The work bounds must hold: no
// hang, no stack overflow, no unbounded memory.
#include <map>

#include "analyzer/frontends/cmake/cmake.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(cmake_eval) {
  using namespace cudalint;
  static constexpr const char* kFiles[] = {"/p/CMakeLists.txt", "/p/cmake/a.cmake", "/p/sub/CMakeLists.txt",
                                           "/p/sub/b.cmake"};
  std::map<std::string, std::string, std::less<>> files;
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), "\n#---\n", 4);
  for (size_t i = 0; i < parts.size(); ++i) files[kFiles[i]] = std::string(parts[i]);
  size_t loads = 0;
  cmake::FileLoader load = [&](const std::string& abs) -> std::optional<std::string_view> {
    ++loads;
    auto it = files.find(abs);
    if (it == files.end()) return std::nullopt;
    return std::string_view(it->second);
  };
  cmake::DisplayPath display = [](const std::string& abs) {
    return abs.starts_with("/p/") ? abs.substr(3) : abs;
  };
  cmake::EvalResult r = cmake::evaluate(kFiles[0], load, display);
  auto origin_ok = [&](const Origin& o) {
    if (o.path.empty()) return true;
    auto it = files.find("/p/" + o.path);
    if (it == files.end()) return true;  // a path that names no text (command line, a missing file)
    return fuzz::span_ok(o.span, it->second.size());
  };
  for (const auto& v : r.facts.cmake_cuda_architectures) CUDALINT_FUZZ_CHECK(origin_ok(v.origin));
  for (const auto& v : r.facts.torch_cuda_arch_list) CUDALINT_FUZZ_CHECK(origin_ok(v.origin));
  for (const auto& v : r.facts.cuda_arch_flags) CUDALINT_FUZZ_CHECK(origin_ok(v.origin));
  for (const auto& v : r.facts.target_cuda_architectures) CUDALINT_FUZZ_CHECK(origin_ok(v.value.origin));
  for (const auto& v : r.facts.abi_defines) CUDALINT_FUZZ_CHECK(origin_ok(v.value.origin));
  for (const auto& e : r.errors) CUDALINT_FUZZ_CHECK(origin_ok(e.where));
  // Loading is cached per project: files are not re-read once per command.
  CUDALINT_FUZZ_CHECK(r.files_read.size() <= 100000);
  return 0;
}
