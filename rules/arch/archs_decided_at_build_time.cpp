// ARCH011 archs-decided-at-build-time — doc: archs_decided_at_build_time.md
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH011", .name = "archs-decided-at-build-time", .family = "ARCH",
    .default_severity = Severity::Info,
    .summary = "A build's target archs are decided at build time, so arch checks of its sources are off"};

class ArchsDecidedAtBuildTime final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    const model::BuildGraph& g = model.graph;
    // Per target (one declaration: a CMake project configured again with a Dockerfile's -D
    // values makes the same targets): the analysed sources it compiles, whether any build of it
    // names archs, and the first reason given for one that does not.
    struct Seen {
      std::set<std::string> sources;
      bool known = false;
      std::string reason;
      size_t first = 0;
    };
    std::map<std::tuple<std::string, uint32_t, std::string>, Seen> seen;
    auto key = [&](size_t t) {
      const auto& bt = g.targets[t];
      return std::make_tuple(bt.where.path, bt.where.span.begin, bt.name);
    };
    for (const auto& [path, builds] : g.sources) {
      for (const auto& b : builds) {
        auto [it, fresh] = seen.try_emplace(key(b.target));
        Seen& s = it->second;
        if (fresh) s.first = b.target;
        s.sources.insert(path);
        if (!b.archs_unknown) s.known = true;
        else if (s.reason.empty()) s.reason = *b.archs_unknown;
      }
    }
    for (const auto& [k, s] : seen) {
      const model::BuildTarget& t = g.targets[s.first];
      const size_t n = s.sources.size();
      if (s.known || t.kind == model::BuildTarget::Kind::CompileDbEntry) continue;
      const bool torch = t.reads_torch_arch_list;
      out.report(kInfo, t.where,
                 fmt::format("the archs of `{}` are decided at build time ({}), so its {} CUDA source{} {} checked "
                             "only for what fails on every arch; {}",
                             t.name, s.reason, n, n == 1 ? "" : "s", n == 1 ? "is" : "are",
                             torch ? "pin them with TORCH_CUDA_ARCH_LIST where it is built, or `target-archs` in "
                                     "cudalint.toml"
                                   : "name them in the build (CMAKE_CUDA_ARCHITECTURES, -gencode), or set "
                                     "`target-archs` in cudalint.toml"));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch011() { return std::make_unique<ArchsDecidedAtBuildTime>(); }

}  // namespace cudalint::rules
