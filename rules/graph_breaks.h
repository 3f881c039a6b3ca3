// Shared shape of the GB rules: each reports the model's graph breaks of one rule id
// (analyzer/model/compiled_regions.h), as an error when a region reaching the break is compiled
// with fullgraph=True (torch.compile raises there) and as a warning elsewhere; a break Dynamo meets
// only under a condition on a Python value is info and names the condition.
// A rule whose breaks are calls declares them as rows (python::gb::CallPattern) in its own file;
// graph_break_calls() gathers every rule's rows for the summarizer.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "analyzer/frontends/python/gb_call_patterns.h"
#include "analyzer/model/compiled_regions.h"
#include "rules/rule.h"

namespace cudalint::rules {

using GraphBreakMessage = std::string (*)(const model::GraphBreak&);

std::unique_ptr<Rule> make_graph_break_rule(const RuleInfo& info, GraphBreakMessage message,
                                            std::span<const python::gb::CallPattern> calls = {});

// Every registered GB rule's call patterns, in registry order.
const python::gb::CallPatterns& graph_break_calls();

// Short names for the rows of a rule's call-pattern table:
// {F, "builtins.print", A::Any, G::Always, "GB0059", "print"}.
namespace gb_rows {
using A = python::gb::ArgTest;
using G = python::gb::Gate;
inline constexpr python::gb::Callee F = python::gb::Callee::Function;
inline constexpr python::gb::Callee TM = python::gb::Callee::TensorMethod;
inline constexpr python::gb::Callee LM = python::gb::Callee::LoggerMethod;
}  // namespace gb_rows

}  // namespace cudalint::rules
