// INTR004 feature-needs-newer-cuda — doc: feature_needs_newer_cuda.md
#include <fmt/format.h>

#include "rules/intr/intr_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "INTR004", .name = "feature-needs-newer-cuda", .family = "INTR",
    .default_severity = Severity::Error,
    .summary = "device code uses an intrinsic, type or PTX instruction that the build's CUDA toolkit predates"};

// "Dockerfile:1", or the path alone when the line is unknown.
std::string where(const model::ProjectModel& m, const Origin& o) {
  for (const auto& u : m.dockerfiles)
    if (u.file->path == o.path) return fmt::format("{}:{}", o.path, u.file->lines.line_of(o.span.begin));
  return o.path;
}

class FeatureNeedsNewerCuda final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    // Arch-independent: any parse that sees the use counts (the default one too).
    std::set<std::tuple<std::string, uint32_t, const cuda::Feature*>> done;
    for (const auto& u : model.cuda_units) {
      if (!u.cuda) continue;  // toolkit unknown: nothing to compare against
      const domain::CudaVersion cuda = u.cuda->value;
      for (const auto& ar : u.per_arch)
        for (const auto& use : ar.uses) {
          const cuda::Feature& f = *use.feature;
          if (!f.cuda_from || !(cuda < *f.cuda_from) || !intr::nvcc_sees(use)) continue;
          if (!done.emplace(intr::use_path(u, use), use.begin, &f).second) continue;
          auto& d = out.report(kInfo, Origin{intr::use_path(u, use), {use.begin, use.end}},
                               fmt::format("{} needs CUDA {} or newer, but the build uses CUDA {} ({}): its "
                                           "headers or ptxas do not know it; upgrade the toolkit or drop the use",
                                           intr::named(use), f.cuda_from->str(), cuda.str(),
                                           where(model, u.cuda->origin)));
          d.related.push_back({u.cuda->origin, fmt::format("CUDA {} comes from here", cuda.str())});
        }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr004() { return std::make_unique<FeatureNeedsNewerCuda>(); }

}  // namespace cudalint::rules
