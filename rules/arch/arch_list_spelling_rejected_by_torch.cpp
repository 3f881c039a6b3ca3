// ARCH004 arch-list-spelling-rejected-by-torch — doc: arch_list_spelling_rejected_by_torch.md
#include <algorithm>

#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "ARCH004", .name = "arch-list-spelling-rejected-by-torch", .family = "ARCH",
    .default_severity = Severity::Error, .fix = FixAvailability::Sometimes,
    .summary = "TORCH_CUDA_ARCH_LIST uses a spelling torch's cpp_extension rejects"};

class ArchListSpellingRejectedByTorch final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles) {
      std::vector<Origin> seen;
      for (const auto& stage : unit.build.stages) {
        // The torch the stage installs decides which entries its cpp_extension knows.
        model::MaybeFact<domain::TorchVersion> torch = model::stage_torch(unit.build, stage);
        for (const model::ArchSetting* s : stages::arch_settings_of(stage)) {
          if (!s->value_known) continue;
          if (std::find(seen.begin(), seen.end(), s->origin) != seen.end()) continue;
          seen.push_back(s->origin);
          for (const auto& issue : s->parsed(torch ? &torch->value : nullptr).issues) {
            auto& d = out.report(kInfo, Origin{s->origin.path, issue.span},
                                 fmt::format("TORCH_CUDA_ARCH_LIST entry `{}`: {}", issue.text, issue.reason));
            if (torch && issue.reason.starts_with(fmt::format("torch {}.", torch->value.major)))
              d.related.push_back({torch->origin, fmt::format("torch {} is installed here", torch->value.str())});
            if (!issue.replacement || !s->contiguous) continue;
            Edit edit{issue.span, *issue.replacement};
            // In a shell command an unquoted `;` or space would split the command: quote the value.
            bool splits = issue.replacement->find_first_of("; ") != std::string::npos;
            if (s->kind == model::ArchSetting::Kind::Inline && !s->quoted && splits) {
              std::string v = s->value;
              v.replace(issue.span.begin - s->origin.span.begin, issue.span.end - issue.span.begin, *issue.replacement);
              edit = Edit{s->origin.span, "\"" + v + "\""};
            }
            d.fix = Fix{fmt::format("Replace `{}` with `{}`", issue.text, *issue.replacement),
                        issue.safe ? Applicability::Safe : Applicability::Unsafe, {edit}};
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_arch004() { return std::make_unique<ArchListSpellingRejectedByTorch>(); }

}  // namespace cudalint::rules
