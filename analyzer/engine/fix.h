// Applying fixes to file text.
#pragma once

#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint {

// Applies the edits of `fixes` (all for one file) to `text`, skipping any fix that overlaps an
// earlier-applied one. Returns the number of fixes applied.
size_t apply_fixes(std::string& text, const std::vector<const Fix*>& fixes);

}  // namespace cudalint
