// Which rules are on for a file, and at what severity (ruff-style selectors).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/config/config.h"
#include "analyzer/core/rule.h"
#include "analyzer/engine/glob.h"

namespace cudalint {

// Command-line selection, applied on top of the config file (like ruff: `--select` replaces
// the config's select, `--extend-select` and `--ignore` add).
struct CliSelection {
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
};

// "ALL", a family ("ARCH"), a prefix ("ARCH0") or an id ("ARCH001").
bool selector_matches(std::string_view selector, std::string_view rule_id);

class RuleSelection {
 public:
  RuleSelection(const config::Config* cfg, const CliSelection& cli);
  // `rel_to_config`: the file's path relative to the config's directory ('/' separators).
  bool enabled(const RuleInfo& rule, std::string_view rel_to_config) const;
  // The configured severity, else `reported` (a rule may report some findings above its
  // default, e.g. graph breaks that raise under fullgraph=True), else the rule's default.
  Severity severity(const RuleInfo& rule, std::optional<Severity> reported = std::nullopt) const;

 private:
  std::vector<std::string> on_;   // select (or the default "ALL") + extend-select
  bool default_set_ = true;       // no explicit select anywhere
  std::vector<std::string> off_;  // ignore
  struct PerFile {
    GlobPattern glob;
    std::vector<std::string> selectors;
  };
  std::vector<PerFile> per_file_;
  std::vector<std::pair<std::string, Severity>> severity_;
};

}  // namespace cudalint
