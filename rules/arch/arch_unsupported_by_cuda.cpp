// ARCH003 arch-unsupported-by-cuda — doc: arch_unsupported_by_cuda.md
#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analyzer/domain/cuda_support.h"
#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH003", .name = "arch-unsupported-by-cuda", .family = "ARCH",
    .default_severity = Severity::Error, .fix = FixAvailability::Sometimes,
    .summary = "A target architecture cannot be built by the build's CUDA toolkit"};

// Removes one entry of a list written byte for byte in the file, with the separators after it
// (before it, for the last entry). None when nothing the toolkit supports would be left: an
// empty list makes torch detect the build machine's GPU, which is not what was asked.
std::optional<Fix> drop_entry(const model::ArchSetting& s, const domain::ArchEntry& e, bool others_supported) {
  const std::optional<size_t> at = stages::entry_offset(s, e);
  if (!at || !others_supported) return std::nullopt;
  const std::string& v = s.value;
  const uint32_t base = s.origin.span.begin;
  size_t b = *at, en = *at + (e.span.end - e.span.begin);
  auto sep = [&](size_t i) { return v[i] == ' ' || v[i] == ';' || v[i] == '\t'; };
  if (en < v.size() && sep(en)) {
    while (en < v.size() && sep(en)) ++en;
  } else if (b > 0 && sep(b - 1)) {
    while (b > 0 && sep(b - 1)) --b;
  } else {
    return std::nullopt;
  }
  return Fix{fmt::format("Remove `{}` from the list", e.text), Applicability::Unsafe,
             {Edit{Span{static_cast<uint32_t>(base + b), static_cast<uint32_t>(base + en)}, ""}}};
}

class ArchUnsupportedByCuda final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      for (const auto& stage : unit.build.stages) {
        const auto toolkit = model::effective_cuda(stage);
        if (!toolkit) continue;  // unknown toolkit: stay silent
        const domain::CudaVersion& cuda = toolkit->value;
        for (const model::ArchSetting* s : stages::arch_settings_of(stage)) {
          if (!s->value_known) continue;
          const auto entries = s->parsed().entries;
          bool some_supported = std::any_of(entries.begin(), entries.end(), [&](const domain::ArchEntry& x) {
            return domain::cuda_supports(cuda, x.arch).verdict != domain::Support::Unsupported;
          });
          for (const auto& e : entries) {
            auto sup = domain::cuda_supports(cuda, e.arch);
            if (sup.verdict != domain::Support::Unsupported) continue;
            auto& d = out.report(kInfo, Origin{s->origin.path, e.span},
                                 fmt::format("{} is not supported by CUDA {} ({}; supported: {}): nvcc fails "
                                             "with `Unsupported gpu architecture 'compute_{}'`",
                                             e.arch.sm_name(), cuda.str(), sup.reason,
                                             domain::supported_range(cuda), e.arch.sm()));
            d.related.push_back({toolkit->origin, stages::toolkit_note(stage, *toolkit)});
            d.fix = drop_entry(*s, e, some_supported);
          }
        }
      }
    }
    // Lists in build files (CMake's CMAKE_CUDA_ARCHITECTURES, -gencode flags) reach the toolkit
    // of the Dockerfile and CI steps that build them (build graph), as do a CI job's own
    // TORCH_CUDA_ARCH_LIST: reported once per arch and place.
    const model::BuildGraph& g = model.graph;
    std::set<std::tuple<std::string, uint32_t, int, char>> seen;
    for (const auto& [path, builds] : g.sources)
      for (const auto& b : builds) {
        const auto& inv = g.invocations[b.invocation];
        if (inv.kind == model::Invocation::Kind::Local || !b.cuda) continue;
        for (const auto& t : b.archs) {
          if (t.origin.path.empty() || t.origin.path == "<command line>" ||
              (t.via == "TORCH_CUDA_ARCH_LIST" && inv.kind == model::Invocation::Kind::Dockerfile) ||
              t.via.ends_with("target-archs"))
            continue;  // the Dockerfile's own lists are reported above; cudalint's config is no build
          auto sup = domain::cuda_supports(b.cuda->value, t.arch);
          if (sup.verdict != domain::Support::Unsupported) continue;
          if (!seen.emplace(t.origin.path, t.origin.span.begin, t.arch.sm(), t.arch.suffix).second) continue;
          auto& d = out.report(kInfo, t.origin,
                               fmt::format("{} ({}) is not supported by CUDA {} ({}; supported: {}), the toolkit "
                                           "`{}`{} builds it with: nvcc fails with `Unsupported gpu architecture "
                                           "'compute_{}'`",
                                           t.arch.sm_name(), t.via, b.cuda->value.str(), sup.reason,
                                           domain::supported_range(b.cuda->value), inv.command,
                                           inv.kind == model::Invocation::Kind::CiStep
                                               ? fmt::format(" of CI job `{}`", inv.stage) : std::string(),
                                           t.arch.sm()));
          d.related.push_back({inv.where, "this step builds it"});
          d.related.push_back({b.cuda->origin, fmt::format("CUDA {} comes from here", b.cuda->value.str())});
        }
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch003() { return std::make_unique<ArchUnsupportedByCuda>(); }

}  // namespace cudalint::rules
