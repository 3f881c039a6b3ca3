// Graph-break summaries of any bytes (whole and lazy) and the top-level statement splitter:
// no crash or hang; the statements are in order, inside the text and cover it from the first
// one to the end; a lazy summary lists what it left out once, sorted, and asking for those names
// leaves nothing out; both summaries survive the cache encoding.
#include <algorithm>

#include "analyzer/frontends/python/gb_serialize.h"
#include "analyzer/frontends/python/graph_breaks.h"
#include "analyzer/frontends/python/top_level.h"
#include "tests/fuzz/fuzz_target.h"
#include "rules/graph_breaks.h"

CUDALINT_FUZZ_TARGET(python_summary) {
  using namespace cudalint;
  std::string_view text = fuzz::as_text(data, size);
  if (auto st = python::top_level_statements(text)) {
    for (size_t k = 0; k < st->size(); ++k) {
      const auto& s = (*st)[k];
      CUDALINT_FUZZ_CHECK(s.begin < s.end && s.end <= size);
      CUDALINT_FUZZ_CHECK(s.row <= s.end_row);
      CUDALINT_FUZZ_CHECK(k + 1 == st->size() ? s.end == size : s.end == (*st)[k + 1].begin);
      CUDALINT_FUZZ_CHECK(s.begin == 0 || text[s.begin - 1] == '\n');
      CUDALINT_FUZZ_CHECK((s.kind == python::TopLevelStatement::Kind::Other) == s.name.empty());
    }
  }
  python::gb::Summary whole = python::gb::summarize(text, rules::graph_break_calls());
  python::gb::Summary lazy = python::gb::summarize_lazy(text, rules::graph_break_calls());
  CUDALINT_FUZZ_CHECK(std::is_sorted(lazy.elided.begin(), lazy.elided.end()));
  CUDALINT_FUZZ_CHECK(std::adjacent_find(lazy.elided.begin(), lazy.elided.end()) == lazy.elided.end());
  // Asking for what was left out leaves nothing out (the analysis's rounds rely on it). A lazy
  // summary may hold more functions than the whole one: a syntax error in code it leaves out
  // can make tree-sitter's recovery drop functions from the whole parse.
  if (!lazy.elided.empty()) CUDALINT_FUZZ_CHECK(python::gb::summarize_lazy(text, rules::graph_break_calls(), lazy.elided).elided.empty());
  for (const auto& f : lazy.functions) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(f.name_span, size));
    for (const auto& b : f.breaks) CUDALINT_FUZZ_CHECK(fuzz::span_ok(b.span, size));
    for (const auto& c : f.calls) CUDALINT_FUZZ_CHECK(fuzz::span_ok(c.span, size));
  }
  for (const auto* s : {&whole, &lazy}) {
    auto back = python::gb::deserialize(python::gb::serialize(*s));
    CUDALINT_FUZZ_CHECK(back && back->elided == s->elided && back->functions.size() == s->functions.size());
  }
  return 0;
}
