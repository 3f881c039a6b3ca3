// CONF001 invalid-config — doc: invalid_config.md. Reported by the engine.
#include "rules/registry.h"

namespace cudalint::rules {

std::unique_ptr<Rule> make_engine_rule(const RuleInfo& info);

namespace {
constexpr RuleInfo kInfo{.id = "CONF001", .name = "invalid-config", .family = "CONF",
                         .default_severity = Severity::Error,
                         .summary = "The cudalint configuration has a syntax error, an unknown key or a bad value"};
}  // namespace

const RuleInfo& config_error_info() { return kInfo; }
std::unique_ptr<Rule> make_conf001() { return make_engine_rule(kInfo); }

}  // namespace cudalint::rules
