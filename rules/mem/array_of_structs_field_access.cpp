// MEM003 array-of-structs-field-access — doc: array_of_structs_field_access.md
#include <tuple>

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
    for (const auto& u : model.cuda_units) {
      // One finding per kernel, pointer, direction and struct: `p[i].x`, `p[i].y`, `p[i].z` are
      // one pattern (the others are related locations).
      auto groups = mem::grouped(
          u.accesses, [](const cuda::GlobalAccess& a) { return a.uncoalesced() && a.field_of_struct; },
          [](const cuda::GlobalAccess& a) { return std::make_tuple(a.kernel, a.pointer, a.store, a.element); });
      for (const auto& g : groups) {
        const cuda::GlobalAccess& a = *g.front();
        std::string fields = g.size() > 1 ? fmt::format(" (and {} more field access{})", g.size() - 1, g.size() > 2 ? "es" : "")
                                          : std::string();
        std::string remedy =
            a.run_merged
                ? fmt::format("; the kernel {} every field, so L1/L2 merge the struct's sectors (load or store the "
                              "whole struct with aligned vector accesses, or use a struct of arrays)",
                              a.store ? "writes" : "reads")
                : std::string(" (use a struct of arrays, or load the whole struct with one aligned vector access)");
        auto& d = out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                             fmt::format("{} one {}-byte field of `{}`'s {}-byte structs in kernel `{}`{}: {}{}",
                                         a.store ? "store to" : "load from", a.width, a.pointer, a.element, a.kernel,
                                         fields, mem::pattern(a), remedy));
        if (a.run_merged) d.severity = Severity::Info;
        for (size_t i = 1; i < g.size() && i <= mem::kMaxRelated; ++i)
          d.related.push_back({Origin{u.file->path, {g[i]->begin, g[i]->end}}, "another field of the same structs"});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem003() { return std::make_unique<ArrayOfStructsFieldAccess>(); }

}  // namespace cudalint::rules
