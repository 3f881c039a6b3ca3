// MEM001 strided-global-access — doc: strided_global_access.md
#include <tuple>

#include "rules/mem/mem_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "MEM001", .name = "strided-global-access", .family = "MEM",
    .default_severity = Severity::Warning,
    .summary = "a global load or store whose lanes are a stride apart, so each warp request touches many more "
               "sectors than it uses"};

std::string remedy(const cuda::GlobalAccess& a) {
  if (a.run_merged)
    return fmt::format("; each thread {} a contiguous {}-byte run, which L1/L2 merge (use vector {}s, such as "
                       "float4, or stage the run through shared memory)",
                       a.store ? "writes" : "reads", std::llabs(*a.lane_stride), a.store ? "store" : "load");
  return " (make the lane index the unit-stride one, or stage through shared memory)";
}

class StridedGlobalAccess final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units) {
      // One finding per kernel, pointer, direction and stride: a run of accesses such as
      // `s[9*i+0]`, `s[9*i+1]`, ... (or one store in each branch of an if) is one pattern.
      auto groups = mem::grouped(
          u.accesses, [](const cuda::GlobalAccess& a) { return a.uncoalesced() && !a.field_of_struct && !a.row_position; },
          [](const cuda::GlobalAccess& a) {
            return std::make_tuple(a.kernel, a.pointer, a.store,
                                   a.stride_symbol.empty() ? distance_key(a) : a.stride_symbol);
          });
      for (const auto& g : groups) {
        const cuda::GlobalAccess& a = *g.front();
        std::string more = g.size() > 1 ? fmt::format("; {} more {}{} of `{}` in this kernel {} the same stride",
                                                      g.size() - 1, a.store ? "store" : "load", g.size() > 2 ? "s" : "",
                                                      a.pointer, g.size() > 2 ? "have" : "has")
                                        : std::string();
        auto& d = out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                             fmt::format("uncoalesced {} `{}` in kernel `{}`: {}{}{}{}", mem::verb(a), a.pointer,
                                         a.kernel, mem::pattern(a), mem::neighbour_note(a), more, remedy(a)));
        // The caches merge a thread's run and sectors other warps use; a runtime stride is
        // uncoalesced only when it is not 1, which only its name suggests: all are worth
        // knowing, none is certain waste.
        if (a.run_merged || !a.neighbour.empty() || (!a.stride_symbol.empty() && !a.symbol_certain))
          d.severity = Severity::Info;
        for (size_t i = 1; i < g.size() && i <= mem::kMaxRelated; ++i)
          d.related.push_back({Origin{u.file->path, {g[i]->begin, g[i]->end}}, "the same strided access pattern"});
      }
    }
  }

 private:
  static std::string distance_key(const cuda::GlobalAccess& a) {
    return fmt::format("{}/{}", a.lane_stride.value_or(0), a.group_lanes);
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem001() { return std::make_unique<StridedGlobalAccess>(); }

}  // namespace cudalint::rules
