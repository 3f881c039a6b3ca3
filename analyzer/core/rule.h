// Rule metadata shared by rules, the engine and the reporters.
#pragma once

#include <string_view>

namespace cudalint {

// Ordered so that `a >= b` means "at least as severe".
enum class Severity { Info = 0, Warning = 1, Error = 2 };

enum class FixAvailability { None, Sometimes, Always };

// How safe it is to apply a fix without review (ruff's Applicability).
enum class Applicability { DisplayOnly, Unsafe, Safe };

enum class RuleStatus { Preview, Stable, Deprecated };

// Declared once per rule as a constexpr; tests check behaviour against it.
struct RuleInfo {
  std::string_view id;       // "ARCH001": family prefix + 3 digits, never reused
  std::string_view name;     // "arch-unsupported-by-cuda"
  std::string_view family;   // "ARCH"
  Severity default_severity = Severity::Warning;
  FixAvailability fix = FixAvailability::None;
  RuleStatus status = RuleStatus::Stable;
  std::string_view summary;  // one line, used as SARIF shortDescription
  bool default_enabled = true;
};

std::string_view to_string(Severity s);
std::string_view to_string(Applicability a);
std::string_view to_string(FixAvailability f);
std::string_view to_string(RuleStatus s);
// Accepts "info" | "warning" | "error" (and "note" as an alias of info).
bool parse_severity(std::string_view text, Severity& out);

}  // namespace cudalint
