#include "analyzer/core/finding.h"

#include <tuple>

namespace cudalint {

bool finding_less(const Finding& a, const Finding& b) {
  const auto& ra = a.location.region;
  const auto& rb = b.location.region;
  std::string_view ida = a.rule ? a.rule->id : std::string_view{};
  std::string_view idb = b.rule ? b.rule->id : std::string_view{};
  return std::tie(a.location.path, ra.start_line, ra.start_column, ida, a.message) <
         std::tie(b.location.path, rb.start_line, rb.start_column, idb, b.message);
}

}  // namespace cudalint
