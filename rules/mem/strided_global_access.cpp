// MEM001 strided-global-access — doc: strided_global_access.md
#include <map>
#include <tuple>

#include "rules/mem/mem_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr size_t kMaxRelated = 8;  // places listed with a grouped finding

constexpr RuleInfo kInfo{
    .id = "MEM001", .name = "strided-global-access", .family = "MEM",
    .default_severity = Severity::Warning,
    .summary = "a global load or store whose lanes are a constant stride apart, so each warp request "
               "touches many more sectors than it uses"};

class StridedGlobalAccess final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.cuda_units) {
      // One finding per kernel, pointer, direction and stride: a run of accesses such as
      // `s[9*i+0]`, `s[9*i+1]`, ... (or one store in each branch of an if) is one pattern.
      std::map<std::tuple<std::string, std::string, bool, int64_t>, std::vector<const cuda::GlobalAccess*>> groups;
      std::vector<std::tuple<std::string, std::string, bool, int64_t>> order;
      for (const auto& a : u.accesses) {
        if (!a.uncoalesced() || a.field_of_struct || a.row_position) continue;
        auto key = std::make_tuple(a.kernel, a.pointer, a.store, *a.lane_stride);
        auto& g = groups[key];
        if (g.empty()) order.push_back(key);
        g.push_back(&a);
      }
      for (const auto& key : order) {
        const auto& g = groups[key];
        const cuda::GlobalAccess& a = *g.front();
        std::string more = g.size() > 1 ? fmt::format("; {} more {}{} of `{}` in this kernel {} the same stride",
                                                      g.size() - 1, a.store ? "store" : "load", g.size() > 2 ? "s" : "",
                                                      a.pointer, g.size() > 2 ? "have" : "has")
                                        : std::string();
        auto& d = out.report(kInfo, Origin{u.file->path, {a.begin, a.end}},
                             fmt::format("uncoalesced {} `{}` in kernel `{}`: {}{} (make the lane index the "
                                         "unit-stride one, or stage through shared memory)",
                                         mem::verb(a), a.pointer, a.kernel, mem::pattern(a), more));
        for (size_t i = 1; i < g.size() && i <= kMaxRelated; ++i)
          d.related.push_back({Origin{u.file->path, {g[i]->begin, g[i]->end}}, "the same strided access pattern"});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_mem001() { return std::make_unique<StridedGlobalAccess>(); }

}  // namespace cudalint::rules
