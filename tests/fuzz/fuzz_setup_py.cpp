// setup.py front-end (tree-sitter-python + the static evaluator): any bytes, no hang, spans
// inside the text.
#include "analyzer/frontends/python/setup_py.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

void check_list(const cudalint::python::StrList& l, size_t size) {
  CUDALINT_FUZZ_CHECK(cudalint::fuzz::span_ok(l.span, size));
  for (const auto& s : l.items) CUDALINT_FUZZ_CHECK(cudalint::fuzz::span_ok(s.span, size));
}

}  // namespace

CUDALINT_FUZZ_TARGET(setup_py) {
  using namespace cudalint;
  python::ParseResult pr = python::parse_setup_py(fuzz::as_text(data, size));
  for (const auto& e : pr.errors) CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.span, size));
  for (const auto& x : pr.setup.extensions) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(x.call_span, size));
    if (x.name) CUDALINT_FUZZ_CHECK(fuzz::span_ok(x.name->span, size));
    check_list(x.sources, size);
    check_list(x.cxx_args, size);
    check_list(x.nvcc_args, size);
    for (const auto& [k, v] : x.define_macros) {
      CUDALINT_FUZZ_CHECK(fuzz::span_ok(k.span, size));
      if (v) CUDALINT_FUZZ_CHECK(fuzz::span_ok(v->span, size));
    }
  }
  for (const auto& e : pr.setup.env) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.span, size));
    if (e.value) CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.value->span, size));
  }
  if (pr.setup.ext_modules) CUDALINT_FUZZ_CHECK(fuzz::span_ok(*pr.setup.ext_modules, size));
  return 0;
}
