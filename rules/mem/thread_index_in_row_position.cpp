// MEM002 thread-index-in-row-position — doc: thread_index_in_row_position.md
#include "rules/mem/mem_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "MEM002", .name = "thread-index-in-row-position", .family = "MEM",
    .default_severity = Severity::Warning,
    .summary = "a 2-D index puts threadIdx.x in the row position (`p[x * W + y]`), so a warp walks a column"};

class ThreadIndexInRowPosition final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units)
      for (const auto& a : u.accesses) {
        if (!a.uncoalesced() || a.field_of_struct || !a.row_position) continue;
        auto& d = out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                   fmt::format("{} `{}` in kernel `{}` indexes rows with the x thread index: {}{} (swap the roles "
                               "of x and y, or transpose through shared memory)",
                               a.store ? "store to" : "load from", a.pointer, a.kernel, mem::pattern(a),
                               mem::neighbour_note(a)));
        // A row length known only by name may be 1 (the last dimension of a contiguous tensor);
        // sectors other warps or blocks use are merged by the caches.
        if ((!a.stride_symbol.empty() && !a.symbol_certain) || !a.neighbour.empty()) d.severity = Severity::Info;
      }
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem002() { return std::make_unique<ThreadIndexInRowPosition>(); }

}  // namespace cudalint::rules
