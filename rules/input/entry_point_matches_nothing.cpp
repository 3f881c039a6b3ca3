// CONF002 entry-point-matches-nothing — doc: entry_point_matches_nothing.md
#include <fmt/format.h>

#include "rules/rule.h"

namespace cudalint::rules {

namespace {

constexpr RuleInfo kInfo{
    .id = "CONF002", .name = "entry-point-matches-nothing", .family = "CONF",
    .default_severity = Severity::Warning,
    .summary = "A `[graph-breaks] entry-points` pattern names no function of the tree"};

class EntryPointMatchesNothing final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const model::ProjectModel& model, DiagnosticSink& out) const override {
    for (const auto& u : model.unmatched_entry_points) {
      std::string near;
      for (const auto& n : u.nearest) near += (near.empty() ? "`" : "`, `") + n;
      if (!near.empty()) near += "`";
      out.report(kInfo, u.origin,
                 near.empty() ? fmt::format("entry-points pattern `{}` matches no function: no Python file of the "
                                            "tree defines one, so it starts no compiled region", u.glob)
                              : fmt::format("entry-points pattern `{}` matches no function, so it starts no compiled "
                                            "region; a pattern names `module.qualname` (`pkg.mod.Class.forward`); "
                                            "closest: {}", u.glob, near));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_conf002() { return std::make_unique<EntryPointMatchesNothing>(); }

}  // namespace cudalint::rules
