// Inline suppressions: `# cudalint: ignore[ID,...]`, `// cudalint: ignore[ID]` (this line,
// or the next line when the comment stands alone), `cudalint: ignore-file[ID]`.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/source_file.h"

namespace cudalint {

struct SuppressionId {
  std::string id;
  Span span;          // the id inside the brackets
  bool used = false;
};

struct Suppression {
  bool file_wide = false;
  uint32_t target_line = 0;   // 1-based line it applies to (unused when file_wide)
  Span directive;             // `cudalint: ignore[...]`
  Span removal;               // what to delete to drop the whole comment
  std::vector<SuppressionId> ids;
  bool ids_missing = false;   // `cudalint: ignore` with no [...] or empty []
};

std::vector<Suppression> parse_suppressions(const SourceFile& file);

// Removes suppressed diagnostics of `file` from `diags` (marking ids used), then appends
// SUP001/SUP002 diagnostics. `rule_known(id)` and `rule_enabled(id)` come from the registry
// and the file's selection; `is_enabled_sup(rule)` decides whether SUP rules report.
void apply_suppressions(const SourceFile& file, std::vector<Suppression>& sups, std::vector<Diagnostic>& diags,
                        const std::function<bool(std::string_view)>& rule_known,
                        const std::function<bool(std::string_view)>& rule_enabled,
                        const RuleInfo& unused_info, const RuleInfo& invalid_info);

}  // namespace cudalint
