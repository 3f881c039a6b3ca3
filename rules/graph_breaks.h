// Shared shape of the GB rules: each reports the model's graph breaks of one kind
// (analyzer/model/compiled_regions.h), as an error when a region reaching the break is compiled
// with fullgraph=True (torch.compile raises there) and as a warning elsewhere; a break Dynamo meets
// only under a condition on a Python value is info and names the condition.
#pragma once

#include <memory>
#include <string>

#include "analyzer/model/compiled_regions.h"
#include "rules/rule.h"

namespace cudalint::rules {

using GraphBreakMessage = std::string (*)(const model::GraphBreak&);

std::unique_ptr<Rule> make_graph_break_rule(const RuleInfo& info, python::gb::BreakKind kind,
                                            GraphBreakMessage message);

}  // namespace cudalint::rules
