#include "analyzer/core/rule.h"

namespace cudalint {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "warning";
}

std::string_view to_string(Applicability a) {
  switch (a) {
    case Applicability::DisplayOnly: return "display-only";
    case Applicability::Unsafe: return "unsafe";
    case Applicability::Safe: return "safe";
  }
  return "unsafe";
}

std::string_view to_string(FixAvailability f) {
  switch (f) {
    case FixAvailability::None: return "none";
    case FixAvailability::Sometimes: return "sometimes";
    case FixAvailability::Always: return "always";
  }
  return "none";
}

std::string_view to_string(RuleStatus s) {
  switch (s) {
    case RuleStatus::Preview: return "preview";
    case RuleStatus::Stable: return "stable";
    case RuleStatus::Deprecated: return "deprecated";
  }
  return "stable";
}

bool parse_severity(std::string_view text, Severity& out) {
  if (text == "info" || text == "note") { out = Severity::Info; return true; }
  if (text == "warning") { out = Severity::Warning; return true; }
  if (text == "error") { out = Severity::Error; return true; }
  return false;
}

}  // namespace cudalint
