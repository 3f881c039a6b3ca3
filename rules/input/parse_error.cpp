// PARSE001..PARSE006: input the analyser could not read; reported by the engine.
// Docs: syntax_error.md, unreadable_file.md, binary_file.md, invalid_utf8.md, file_too_large.md,
// analysis_failed.md.
#include "rules/registry.h"

namespace cudalint::rules {

namespace {

class EngineRule final : public Rule {
 public:
  explicit EngineRule(const RuleInfo& info) : info_(info) {}
  const RuleInfo& info() const override { return info_; }

 private:
  const RuleInfo& info_;
};

constexpr RuleInfo kSyntax{.id = "PARSE001", .name = "syntax-error", .family = "PARSE",
                           .default_severity = Severity::Error,
                           .summary = "A file has a syntax error; the analysis of that file is partial"};
constexpr RuleInfo kUnreadable{.id = "PARSE002", .name = "unreadable-file", .family = "PARSE",
                               .default_severity = Severity::Error,
                               .summary = "A path could not be read"};
constexpr RuleInfo kBinary{.id = "PARSE003", .name = "binary-file", .family = "PARSE",
                           .default_severity = Severity::Warning,
                           .summary = "A file with a source-file name is binary and was not analysed"};
constexpr RuleInfo kUtf8{.id = "PARSE004", .name = "invalid-utf8", .family = "PARSE",
                         .default_severity = Severity::Error,
                         .summary = "A file is not valid UTF-8 and was not analysed"};
constexpr RuleInfo kTooLarge{.id = "PARSE005", .name = "file-too-large", .family = "PARSE",
                             .default_severity = Severity::Warning,
                             .summary = "A file is over the size limit and was not analysed"};
constexpr RuleInfo kFailed{.id = "PARSE006", .name = "analysis-failed", .family = "PARSE",
                           .default_severity = Severity::Warning,
                           .summary = "The CUDA front-end could not analyse a file for an arch; its INTR and MEM "
                                      "checks are incomplete"};

}  // namespace

const RuleInfo& parse_syntax_error_info() { return kSyntax; }
const RuleInfo& parse_unreadable_info() { return kUnreadable; }
const RuleInfo& parse_binary_info() { return kBinary; }
const RuleInfo& parse_invalid_utf8_info() { return kUtf8; }
const RuleInfo& parse_too_large_info() { return kTooLarge; }
const RuleInfo& parse_analysis_failed_info() { return kFailed; }

std::unique_ptr<Rule> make_parse001() { return std::make_unique<EngineRule>(kSyntax); }
std::unique_ptr<Rule> make_parse002() { return std::make_unique<EngineRule>(kUnreadable); }
std::unique_ptr<Rule> make_parse003() { return std::make_unique<EngineRule>(kBinary); }
std::unique_ptr<Rule> make_parse004() { return std::make_unique<EngineRule>(kUtf8); }
std::unique_ptr<Rule> make_parse005() { return std::make_unique<EngineRule>(kTooLarge); }
std::unique_ptr<Rule> make_parse006() { return std::make_unique<EngineRule>(kFailed); }

// Shared by the other engine-reported rule files.
std::unique_ptr<Rule> make_engine_rule(const RuleInfo& info) { return std::make_unique<EngineRule>(info); }

}  // namespace cudalint::rules
