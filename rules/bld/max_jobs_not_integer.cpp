// BLD002 max-jobs-not-integer — doc: max_jobs_not_integer.md
#include <fmt/format.h>

#include "rules/docker_stages.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "BLD002", .name = "max-jobs-not-integer", .family = "BLD",
    .default_severity = Severity::Warning,
    .summary = "MAX_JOBS is not a plain integer, so torch's cpp_extension silently ignores it"};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

class MaxJobsNotInteger final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& unit : model.dockerfiles)
      for (const auto& stage : unit.build.stages)
        for (const auto& mj : stage.max_jobs_settings) {
          // A value from an unset build arg (empty) is decided at build time: stay silent.
          if (mj.value.empty() || all_digits(mj.value)) continue;
          out.report(kInfo, mj.origin,
                     fmt::format("MAX_JOBS=`{}` is not a plain integer: cpp_extension only honours values where "
                                 "`str.isdigit()` holds and otherwise lets ninja run one job per core", mj.value));
        }
  }
};

}  // namespace

std::unique_ptr<Rule> make_bld002() { return std::make_unique<MaxJobsNotInteger>(); }

}  // namespace cudalint::rules
