// Applying fixes to file text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint {

// Applies the edits of `fixes` (all for one file) to `text`, skipping any fix that overlaps an
// earlier-applied one. Returns the number of fixes applied.
size_t apply_fixes(std::string& text, const std::vector<const Fix*>& fixes);

// A unified diff (`--- a/path`, `+++ b/path`, `@@ -l,n +l,n @@` hunks with `context` lines
// around each change; `\ No newline at end of file` where a side lacks one), as `diff -u` and
// `git diff` print it, for `cudalint check --diff`. "" when the texts are equal.
std::string unified_diff(std::string_view old_text, std::string_view new_text, std::string_view path,
                         int context = 3);

}  // namespace cudalint
