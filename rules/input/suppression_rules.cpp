// SUP001 unused-suppression, SUP002 invalid-suppression — docs: unused_suppression.md,
// invalid_suppression.md. Reported by the engine after suppressions are applied.
#include "rules/registry.h"

namespace cudalint::rules {

std::unique_ptr<Rule> make_engine_rule(const RuleInfo& info);

namespace {
constexpr RuleInfo kUnused{.id = "SUP001", .name = "unused-suppression", .family = "SUP",
                           .default_severity = Severity::Warning, .fix = FixAvailability::Always,
                           .summary = "A `cudalint: ignore[...]` comment suppressed nothing"};
constexpr RuleInfo kInvalid{.id = "SUP002", .name = "invalid-suppression", .family = "SUP",
                            .default_severity = Severity::Warning,
                            .summary = "A suppression comment has no rule ids or names an unknown rule"};
}  // namespace

const RuleInfo& unused_suppression_info() { return kUnused; }
const RuleInfo& invalid_suppression_info() { return kInvalid; }
std::unique_ptr<Rule> make_sup001() { return make_engine_rule(kUnused); }
std::unique_ptr<Rule> make_sup002() { return make_engine_rule(kInvalid); }

}  // namespace cudalint::rules
