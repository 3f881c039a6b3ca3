// BLD102 arch-keyword-needs-newer-cmake — doc: arch_keyword_needs_newer_cmake.md
#include <fmt/format.h>

#include <algorithm>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD102", .name = "arch-keyword-needs-newer-cmake", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "CMAKE_CUDA_ARCHITECTURES uses `native`/`all`/`all-major` with a cmake_minimum_required that predates them"};

// "3.18" → 318; -1 when it does not start with a version. Components are capped (a fuzzed
// "VERSION 0000…4643711615777578096.18" must not overflow), which keeps the order of real ones.
int version_key(std::string_view v) {
  auto component = [&](int& out) {
    size_t i = 0;
    long long n = 0;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') {
      n = std::min<long long>(n * 10 + (v[i] - '0'), 9999);
      ++i;
    }
    out = static_cast<int>(std::min<long long>(n, 99));
    v.remove_prefix(i);
    return i > 0;
  };
  int major = 0, minor = 0;
  if (!component(major)) return -1;
  if (v.starts_with('.')) {
    v.remove_prefix(1);
    component(minor);
  }
  return major * 100 + minor;
}

class ArchKeywordNeedsNewerCmake final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& p : model.cmake_projects) {
      const auto& f = p.facts;
      if (!f.cmake_minimum_required) continue;
      int have = version_key(f.cmake_minimum_required->value);
      if (have < 0) continue;
      std::vector<const cmake::Value*> values;
      for (const auto& v : f.cmake_cuda_architectures) values.push_back(&v);
      for (const auto& t : f.target_cuda_architectures) values.push_back(&t.value);
      for (const auto* v : values) {
        // `native` arrived in CMake 3.24, `all` and `all-major` in 3.23.
        int need = v->value == "native" ? 324 : (v->value == "all" || v->value == "all-major") ? 323 : 0;
        if (!need || have >= need) continue;
        auto& d = out.report(kInfo, v->origin,
                             fmt::format("CUDA_ARCHITECTURES `{}` needs CMake {}.{}, but the project allows CMake "
                                         "{}: older CMake passes it to nvcc as an arch name and fails", v->value,
                                         need / 100, need % 100, f.cmake_minimum_required->value));
        d.related.push_back({f.cmake_minimum_required->origin, "minimum CMake version"});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld102() { return std::make_unique<ArchKeywordNeedsNewerCmake>(); }

}  // namespace cudalint::rules
