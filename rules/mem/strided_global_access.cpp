// MEM001 strided-global-access — doc: strided_global_access.md
#include "rules/mem/mem_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "MEM001", .name = "strided-global-access", .family = "MEM",
    .default_severity = Severity::Warning,
    .summary = "a global load or store whose lanes are a constant stride apart, so each warp request "
               "touches many more sectors than it uses"};

class StridedGlobalAccess final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units)
      for (const auto& a : u.accesses) {
        if (!a.uncoalesced() || a.field_of_struct || a.row_position) continue;
        out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                   fmt::format("uncoalesced {} `{}` in kernel `{}`: {} (make the lane index the unit-stride one, "
                               "or stage through shared memory)",
                               mem::verb(a), a.pointer, a.kernel, mem::pattern(a)));
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem001() { return std::make_unique<StridedGlobalAccess>(); }

}  // namespace cudalint::rules
