// A diagnostic resolved to lines and columns: the only thing reporters see.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/rule.h"

namespace cudalint {

// 1-based lines; 1-based columns counted in UTF-16 code units (as SARIF's
// utf16CodeUnits and LSP's default). end_column is exclusive.
struct Region {
  uint32_t start_line = 1;
  uint32_t start_column = 1;
  uint32_t end_line = 1;
  uint32_t end_column = 1;
  friend bool operator==(const Region&, const Region&) = default;
};

struct Location {
  std::string path;  // relative to the run root when inside it, else absolute
  Region region;
};

struct FindingEdit {
  Region region;
  std::string replacement;
};

struct FindingFix {
  std::string title;
  Applicability applicability = Applicability::Unsafe;
  std::vector<FindingEdit> edits;
};

struct FindingRelated {
  Location location;
  std::string message;
};

struct Finding {
  const RuleInfo* rule = nullptr;
  Severity severity = Severity::Warning;
  Location location;
  std::string message;
  std::vector<FindingRelated> related;
  std::optional<FindingFix> fix;
  // codeql-action primaryLocationLineHash of the start line, "" when unknown.
  std::string line_hash;
  // The text of the start line (no line terminator), for carets; may be empty.
  std::string source_line;
};

// Deterministic output order: path, line, column, rule id, message.
bool finding_less(const Finding& a, const Finding& b);

}  // namespace cudalint
