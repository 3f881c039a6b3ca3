// The interface every rule implements.
#pragma once

#include <memory>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/rule.h"
#include "analyzer/model/project_model.h"

namespace cudalint::rules {

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // Checks the whole project model. Rules that the engine itself reports (PARSE, CONF, SUP)
  // leave this empty.
  virtual void check(const model::ProjectModel& model, DiagnosticSink& out) const {}
};

using RuleFactory = std::unique_ptr<Rule> (*)();

}  // namespace cudalint::rules
