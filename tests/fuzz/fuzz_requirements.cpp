// requirements*.txt front-end: any bytes, spans inside the text, names normalised.
#include "analyzer/frontends/requirements/requirements.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(requirements) {
  using namespace cudalint;
  std::string_view text = fuzz::as_text(data, size);
  requirements::File f = requirements::parse(text);
  for (const auto& r : f.requirements) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(r.span, size));
    // URL and path requirements keep the URL as their name; only PEP 503 names are normalised.
    if (!r.url) CUDALINT_FUZZ_CHECK(requirements::normalise_name(r.name) == r.name);
  }
  for (const auto& i : f.indexes) CUDALINT_FUZZ_CHECK(fuzz::span_ok(i.span, size));
  for (const auto& [path, span] : f.includes) CUDALINT_FUZZ_CHECK(fuzz::span_ok(span, size));
  return 0;
}
