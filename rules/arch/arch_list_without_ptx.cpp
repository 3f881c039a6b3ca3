// ARCH012 arch-list-without-ptx — doc: arch_list_without_ptx.md
#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH012", .name = "arch-list-without-ptx", .family = "ARCH",
    .default_severity = Severity::Info, .fix = FixAvailability::Sometimes,
    .summary = "TORCH_CUDA_ARCH_LIST has no `+PTX` entry, so the extension fails on GPUs of a newer generation",
    // Opt-in: a list for exactly the GPUs a build will meet is a valid choice.
    .default_enabled = false};

// `+PTX` after the newest entry without an `a`/`f` suffix (their PTX runs on that arch only),
// where the entry is written in place.
std::optional<Fix> add_ptx(const model::ArchSetting& s, const domain::ArchEntry& e) {
  if (e.arch.suffix != 0 || !stages::entry_offset(s, e)) return std::nullopt;
  return Fix{fmt::format("Embed PTX for the newest arch: `{}+PTX`", e.text), Applicability::Safe,
             {Edit{Span{e.span.end, e.span.end}, "+PTX"}}};
}

class ArchListWithoutPtx final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      std::vector<Origin> seen;
      for (const auto& stage : unit.build.stages)
        for (const model::ArchSetting* s : stages::arch_settings_of(stage)) {
          if (!s->value_known || std::find(seen.begin(), seen.end(), s->origin) != seen.end()) continue;
          seen.push_back(s->origin);
          const domain::ArchList l = s->parsed();
          // Spellings torch rejects are ARCH004's; `native` and empty lists name no archs.
          if (l.kind != domain::ArchListKind::Explicit || l.entries.empty() || !l.issues.empty()) continue;
          if (std::any_of(l.entries.begin(), l.entries.end(), [](const domain::ArchEntry& e) { return e.arch.ptx; }))
            continue;
          // The newest entry; of equal archs the generic one (its PTX is the portable one).
          const domain::ArchEntry* newest = &l.entries.front();
          for (const auto& e : l.entries)
            if (e.arch.sm() > newest->arch.sm() || (e.arch.sm() == newest->arch.sm() && e.arch.suffix == 0))
              newest = &e;
          const domain::Arch& n = newest->arch;
          auto& d = out.report(
              kInfo, s->origin,
              fmt::format("TORCH_CUDA_ARCH_LIST `{}` has no `+PTX` entry: the newest machine code is {}, which runs "
                          "on {} only, so on a newer GPU (compute capability {}.0 and later) the extension fails with "
                          "`no kernel image is available for execution on the device`; `{}+PTX` also embeds PTX that "
                          "the driver compiles for newer GPUs",
                          s->value, n.sm_name(),
                          n.suffix != 0 ? n.sm_name() : fmt::format("{}.x GPUs from {}.{}", n.major, n.major, n.minor),
                          n.major + 1, n.suffix != 0 ? domain::Arch{n.major, n.minor, 0, false}.torch_name() : n.torch_name()));
          d.fix = add_ptx(*s, *newest);
        }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch012() { return std::make_unique<ArchListWithoutPtx>(); }

}  // namespace cudalint::rules
