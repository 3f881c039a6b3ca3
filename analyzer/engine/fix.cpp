#include "analyzer/engine/fix.h"

#include <algorithm>

namespace cudalint {

size_t apply_fixes(std::string& text, const std::vector<const Fix*>& fixes) {
  // Accept fixes in order of their first edit; a fix is all-or-nothing.
  std::vector<const Fix*> order = fixes;
  auto first = [](const Fix* f) {
    uint32_t b = UINT32_MAX;
    for (const auto& e : f->edits) b = std::min(b, e.span.begin);
    return b;
  };
  std::stable_sort(order.begin(), order.end(), [&](const Fix* a, const Fix* b) { return first(a) < first(b); });
  std::vector<Edit> accepted;
  size_t applied = 0;
  for (const Fix* f : order) {
    bool clash = false;
    for (const auto& e : f->edits) {
      if (e.span.end > text.size() || e.span.begin > e.span.end) { clash = true; break; }
      for (const auto& a : accepted) {
        bool overlap = e.span.begin < a.span.end && a.span.begin < e.span.end;
        bool same_point = e.span.begin == a.span.begin && (e.span.begin == e.span.end || a.span.begin == a.span.end);
        if (overlap || same_point) { clash = true; break; }
      }
      if (clash) break;
    }
    if (clash) continue;
    accepted.insert(accepted.end(), f->edits.begin(), f->edits.end());
    ++applied;
  }
  std::sort(accepted.begin(), accepted.end(), [](const Edit& a, const Edit& b) { return a.span.begin > b.span.begin; });
  for (const auto& e : accepted) text.replace(e.span.begin, e.span.end - e.span.begin, e.replacement);
  return applied;
}

}  // namespace cudalint
