// Graph-break summaries: the table of the rules' call patterns (gb_call_patterns.h).
#include "analyzer/frontends/python/gb_call_patterns.h"

namespace cudalint::python::gb {

void CallPatterns::add(std::string_view rule, std::span<const CallPattern> rows) {
  for (const CallPattern& p : rows) {
    CallRow row{&p, rule};
    all_.push_back(row);
    if (p.callee == Callee::Function && p.name.ends_with(".*"))
      module_[p.name.substr(0, p.name.size() - 2)].push_back(row);
    else
      exact_[static_cast<size_t>(p.callee)][p.name].push_back(row);
  }
}

std::span<const CallRow> CallPatterns::rows(Callee callee, std::string_view key, bool module) const {
  const Rows& rows = module ? module_ : exact_[static_cast<size_t>(callee)];
  auto it = rows.find(key);
  if (it == rows.end()) return {};
  return it->second;
}

}  // namespace cudalint::python::gb
