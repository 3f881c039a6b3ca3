// The configuration loader: the first byte picks cudalint.toml or pyproject.toml
// ([tool.cudalint]); the rest is the file. Never throws; every error has a location inside
// the file and a message.
#include "analyzer/config/config.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(config) {
  using namespace cudalint;
  if (size == 0) return 0;
  bool py = data[0] & 1;
  std::string_view text = fuzz::as_text(data + 1, size - 1);
  SourceFile sf(py ? "pyproject.toml" : "cudalint.toml", py ? FileKind::PyProject : FileKind::CudalintToml,
                std::string(text));
  auto is_selector = [](std::string_view s) { return s == "ALL" || s.starts_with("ARCH") || s.starts_with("BLD"); };
  config::LoadResult r = config::load_config(sf, "/p", is_selector);
  for (const auto& e : r.errors) {
    CUDALINT_FUZZ_CHECK(!e.message.empty());
    CUDALINT_FUZZ_CHECK(e.where.path == sf.path);
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.where.span, text.size()));
    (void)sf.region(e.where.span);
  }
  if (r.config) {
    for (const auto& s : r.config->extend_select) CUDALINT_FUZZ_CHECK(fuzz::span_ok(s.origin.span, text.size()));
    for (const auto& s : r.config->ignore) CUDALINT_FUZZ_CHECK(fuzz::span_ok(s.origin.span, text.size()));
    for (const auto& s : r.config->exclude) CUDALINT_FUZZ_CHECK(fuzz::span_ok(s.origin.span, text.size()));
  }
  return 0;
}
