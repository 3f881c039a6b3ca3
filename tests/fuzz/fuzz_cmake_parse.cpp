// CMake listfile parser: any bytes; spans inside the text, names lower-cased.
#include "analyzer/frontends/cmake/cmake.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(cmake_parse) {
  using namespace cudalint;
  std::string_view text = fuzz::as_text(data, size);
  cmake::ParseResult pr = cmake::parse(text);
  for (const auto& e : pr.errors) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.span, size));
    CUDALINT_FUZZ_CHECK(!e.message.empty());
  }
  for (const auto& c : pr.file.commands) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(c.span, size));
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(c.name_span, size));
    for (char ch : c.name) CUDALINT_FUZZ_CHECK(!(ch >= 'A' && ch <= 'Z'));
    for (const auto& a : c.args) CUDALINT_FUZZ_CHECK(fuzz::span_ok(a.span, size));
  }
  return 0;
}
