// `cudalint check --statistics`: one row per rule with how many findings it has.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/core/finding.h"
#include "analyzer/core/rule.h"

namespace cudalint::report {

struct RuleCount {
  const RuleInfo* rule = nullptr;
  size_t count = 0;
  bool fixable = false;  // at least one of the findings has a fix that --fix would apply
};

// Counts findings per rule, sorted by count (descending), then rule id. `unsafe_fixes`: unsafe
// fixes count as fixable (as --fix --unsafe-fixes would apply them).
std::vector<RuleCount> count_by_rule(const std::vector<Finding>& findings, bool unsafe_fixes);

// Text: `   3 GB001 [*] tensor-item-in-compiled-code` per rule (counts right-aligned, ids padded;
// the `[*]` column, marking rules with an applicable fix, only when some rule has one);
// nothing when there are no findings.
void write_statistics_text(std::ostream& out, const std::vector<RuleCount>& counts);
// JSON: an array of {"code", "name", "count", "fixable"} objects, in the same order.
void write_statistics_json(std::ostream& out, const std::vector<RuleCount>& counts);

}  // namespace cudalint::report
