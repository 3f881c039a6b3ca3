// The explicit, sorted rule registry and the embedded rule docs.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "rules/rule.h"

namespace cudalint::rules {

struct RegistryEntry {
  std::string_view id;
  RuleFactory make;
};

// Every rule, sorted by id (registry_test checks order, uniqueness, docs and fixtures).
std::span<const RegistryEntry> registry();

struct RuleDoc {
  std::string_view name;      // kebab-case rule name (the .md file stem)
  std::string_view markdown;
  std::string_view path;      // in the source tree: "rules/arch/arch_unsupported_by_cuda.md"
};
const std::vector<RuleDoc>& all_rule_docs();  // generated from rules/**/*.md
std::string_view doc_for(std::string_view rule_name);  // "" when missing
std::string_view doc_path_for(std::string_view rule_name);  // the .md's path in the repository; "" when missing

// Rules the engine reports itself.
const RuleInfo& parse_syntax_error_info();
const RuleInfo& parse_unreadable_info();
const RuleInfo& parse_binary_info();
const RuleInfo& parse_invalid_utf8_info();
const RuleInfo& parse_too_large_info();
const RuleInfo& parse_analysis_failed_info();
const RuleInfo& config_error_info();
const RuleInfo& unused_suppression_info();
const RuleInfo& invalid_suppression_info();

}  // namespace cudalint::rules
