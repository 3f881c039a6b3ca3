// MEM003 array-of-structs-field-access — doc: array_of_structs_field_access.md
#include "rules/mem/mem_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "MEM003", .name = "array-of-structs-field-access", .family = "MEM",
    .default_severity = Severity::Warning,
    .summary = "one field of an array of structs per lane: the warp reads whole structs to use a few bytes"};

class ArrayOfStructsFieldAccess final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units)
      for (const auto& a : u.accesses) {
        if (!a.uncoalesced() || !a.field_of_struct) continue;
        out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                   fmt::format("{} one {}-byte field of `{}`'s {}-byte structs in kernel `{}`: {} (use a "
                               "struct of arrays, or load the whole struct with one aligned vector access)",
                               a.store ? "store to" : "load from", a.width, a.pointer, a.element, a.kernel,
                               mem::pattern(a)));
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem003() { return std::make_unique<ArrayOfStructsFieldAccess>(); }

}  // namespace cudalint::rules
