// A diagnostic as rules produce it: byte spans in a file, not yet lines/columns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/rule.h"

namespace cudalint {

// Half-open byte range [begin, end) in a file's text.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

// A place in some file (path as displayed, relative to the run's root when possible).
struct Origin {
  std::string path;
  Span span;
  friend bool operator==(const Origin&, const Origin&) = default;
};

struct Edit {
  Span span;                // bytes replaced in the diagnostic's file
  std::string replacement;  // new text
};

struct Fix {
  std::string title;  // "Replace `sm_80` with `8.0`"
  Applicability applicability = Applicability::Unsafe;
  std::vector<Edit> edits;  // non-overlapping, same file as the diagnostic
};

struct RelatedLocation {
  Origin where;
  std::string message;  // "TORCH_CUDA_ARCH_LIST is set here"
};

struct Diagnostic {
  const RuleInfo* rule = nullptr;
  Severity severity = Severity::Warning;  // after config overrides
  Origin where;
  std::string message;
  std::vector<RelatedLocation> related;
  std::optional<Fix> fix;
};

// Collects diagnostics from rules; the engine applies severity overrides later.
class DiagnosticSink {
 public:
  // Returns the new diagnostic so callers can add related locations and fixes.
  Diagnostic& report(const RuleInfo& rule, Origin where, std::string message) {
    Diagnostic d;
    d.rule = &rule;
    d.severity = rule.default_severity;
    d.where = std::move(where);
    d.message = std::move(message);
    items_.push_back(std::move(d));
    return items_.back();
  }
  std::vector<Diagnostic>& items() { return items_; }
  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic> take() { return std::move(items_); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace cudalint
