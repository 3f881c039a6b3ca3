// pyproject.toml front-end (toml++): any bytes, never throws, spans inside the text.
#include "analyzer/frontends/pyproject/pyproject.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(pyproject) {
  using namespace cudalint;
  pyproject::File f = pyproject::parse(fuzz::as_text(data, size));
  CUDALINT_FUZZ_CHECK(fuzz::span_ok(f.build_system_span, size));
  if (f.requires_span) CUDALINT_FUZZ_CHECK(fuzz::span_ok(*f.requires_span, size));
  for (const auto& r : f.build_requires) CUDALINT_FUZZ_CHECK(fuzz::span_ok(r.span, size));
  for (const auto& r : f.dependencies) CUDALINT_FUZZ_CHECK(fuzz::span_ok(r.span, size));
  return 0;
}
