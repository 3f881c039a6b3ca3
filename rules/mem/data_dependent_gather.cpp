// MEM004 data-dependent-gather — doc: data_dependent_gather.md
#include "rules/mem/mem_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "MEM004", .name = "data-dependent-gather", .family = "MEM",
    .default_severity = Severity::Info,
    .summary = "a global load or store whose index is read from memory (gather/scatter)",
    .default_enabled = false};

class DataDependentGather final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units)
      for (const auto& a : u.accesses) {
        if (!a.data_dependent) continue;
        out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                   fmt::format("{} `{}` in kernel `{}` goes through an index read from memory: coalescing depends "
                               "on the data (sorted indices coalesce, random ones touch up to 32 sectors per "
                               "request)",
                               a.store ? "scatter to" : "gather from", a.pointer, a.kernel));
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem004() { return std::make_unique<DataDependentGather>(); }

}  // namespace cudalint::rules
