// INTR003 deprecated-warp-intrinsic — doc: deprecated_warp_intrinsic.md
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "rules/intr/intr_common.h"
#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "INTR003", .name = "deprecated-warp-intrinsic", .family = "INTR",
    // An error: every target nvcc 13 builds is sm_75 or newer, where nvcc rejects these forms.
    .default_severity = Severity::Error, .fix = FixAvailability::Sometimes,
    .summary = "a warp shuffle or vote without `_sync` (removed from sm_70 on)"};

// `__shfl_down(v, o)` -> `__shfl_down_sync(0xffffffff, v, o)`, for a call written in the analysed
// file as a name and its parenthesis (not through a macro, not in a header). Unsafe: the full
// mask is right only when the whole warp reaches the call, as the legacy form assumed.
std::optional<Fix> sync_fix(const model::CudaUnit& u, const cuda::FeatureUse& use) {
  const std::string& t = u.file->text;
  if (!use.file.empty() || !use.via_header.empty() || use.begin >= use.end || use.end > t.size()) return std::nullopt;
  if (std::string_view(t).substr(use.begin, use.end - use.begin) != use.spelled) return std::nullopt;
  size_t p = use.end;
  while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
  if (p >= t.size() || t[p] != '(') return std::nullopt;
  size_t q = p + 1;
  while (q < t.size() && (t[q] == ' ' || t[q] == '\t')) ++q;
  if (q < t.size() && t[q] == ')') return std::nullopt;  // no argument: not a call nvcc would take
  return Fix{fmt::format("Replace `{}(` with `{}_sync(0xffffffff, `", use.spelled, use.spelled), Applicability::Unsafe,
             {Edit{Span{use.begin, static_cast<uint32_t>(p + 1)}, use.spelled + "_sync(0xffffffff, "}}};
}

class DeprecatedWarpIntrinsic final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    // Every parsed arch counts, the default one too when no arch list is known: nvcc 13 builds
    // nothing older than sm_75, so the removed forms never compile with it.
    std::set<std::tuple<std::string, uint32_t, const cuda::Feature*>> done;
    for (const auto& u : model.cuda_units)
      for (const auto& ar : u.per_arch)
        for (const auto& use : ar.uses) {
          const cuda::Feature& f = *use.feature;
          if (f.kind != cuda::FeatureKind::Deprecated || f.available_on(ar.arch) || !intr::nvcc_sees(use)) continue;
          if (!done.emplace(intr::use_path(u, use), use.begin, &f).second) continue;
          if (f.name.find('.') != std::string::npos) {  // inline PTX: `vote.ballot.b32`, `shfl.down.b32`
            const std::string op = f.name.substr(0, f.name.find('.'));
            out.report(kInfo, Origin{intr::use_path(u, use), {use.begin, use.end}},
                       fmt::format("inline PTX `{}` has no `.sync` and member mask; ptxas rejects `{}` without "
                                   "`.sync` from sm_{} on (independent thread scheduling), so nvcc fails for {}: use "
                                   "`{}.sync` with a member mask (e.g. `{}.sync{} ..., 0xffffffff`)",
                                   use.spelled, op, f.min_sm, ar.arch.sm_name(), op, op,
                                   f.name.substr(op.size())));
            continue;
          }
          const std::string why = intr::fails_only_when_emitted(f)
                                      ? fmt::format("the CUDA headers mark it deprecated, and ptxas rejects the "
                                                    "warp vote it lowers to from sm_{} on",
                                                    f.min_sm)
                                      : fmt::format("the CUDA headers only declare it below sm_{}", f.min_sm);
          auto& d = out.report(kInfo, Origin{intr::use_path(u, use), {use.begin, use.end}},
                     fmt::format("{} has no mask and assumes the whole warp runs in lockstep, which is not true "
                                 "from sm_{} on (independent thread scheduling); {}, so nvcc rejects it for {}: use "
                                 "`{}_sync(0xffffffff, ...)`",
                                 intr::named(use), f.min_sm, why, ar.arch.sm_name(), use.spelled));
          d.fix = sync_fix(u, use);
        }
  }
};

}  // namespace

std::unique_ptr<Rule> make_intr003() { return std::make_unique<DeprecatedWarpIntrinsic>(); }

}  // namespace cudalint::rules
