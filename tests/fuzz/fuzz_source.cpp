// Loading and indexing a file: UTF-8/binary validation, the line index (byte offset <->
// line/UTF-16 column both ways), GitHub line hashes, and inline suppressions. The first byte
// picks the file kind (the comment leader: `#` or `//`).
#include "analyzer/core/fingerprint.h"
#include "analyzer/core/source_file.h"
#include "analyzer/engine/suppress.h"
#include "rules/registry.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(source) {
  using namespace cudalint;
  if (size == 0) return 0;
  static constexpr FileKind kKinds[] = {FileKind::Dockerfile, FileKind::CMake, FileKind::SetupPy,
                                        FileKind::Requirements, FileKind::CudaSource, FileKind::PyProject};
  FileKind kind = kKinds[data[0] % std::size(kKinds)];
  std::string text(fuzz::as_text(data + 1, size - 1));
  LoadResult lr = make_source("f", text);
  if (!lr.file) {
    CUDALINT_FUZZ_CHECK(lr.problem != LoadProblem::None && !lr.message.empty());
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(lr.span, text.size()));
    return 0;
  }
  SourceFile sf = std::move(*lr.file);
  sf.kind = kind;
  const LineIndex& li = sf.lines;
  CUDALINT_FUZZ_CHECK(li.line_count() >= 1);
  bool utf8 = lr.problem == LoadProblem::None;
  for (uint32_t line = 1; line <= li.line_count(); ++line) {
    uint32_t start = li.line_start(line);
    CUDALINT_FUZZ_CHECK(start <= sf.text.size());
    CUDALINT_FUZZ_CHECK(li.line_of(start) == line);
    std::string_view lt = li.line_text(sf.text, line);
    CUDALINT_FUZZ_CHECK(lt.find('\n') == std::string_view::npos);
    if (!utf8) continue;
    // Every character boundary maps to a position and back.
    for (uint32_t off = start; off <= start + lt.size() && off < start + 256; ++off) {
      if (off < sf.text.size() && (static_cast<unsigned char>(sf.text[off]) & 0xC0) == 0x80) continue;
      uint32_t l = 0, c = 0;
      li.position(sf.text, off, l, c);
      CUDALINT_FUZZ_CHECK(l == line);
      CUDALINT_FUZZ_CHECK(li.offset_of(sf.text, l, c) == off);
    }
  }
  if (!utf8) return 0;
  std::vector<std::string> hashes = line_hashes(sf.text);
  CUDALINT_FUZZ_CHECK(hashes.size() == li.line_count());
  std::vector<Suppression> sups = parse_suppressions(sf);
  for (const auto& s : sups) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(s.directive, sf.text.size()));
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(s.removal, sf.text.size()));
    for (const auto& id : s.ids) CUDALINT_FUZZ_CHECK(fuzz::span_ok(id.span, sf.text.size()));
  }
  // One diagnostic per line, so that some suppressions are used and some are not.
  std::vector<Diagnostic> diags;
  const RuleInfo& some = rules::parse_syntax_error_info();
  for (uint32_t line = 1; line <= li.line_count() && line <= 64; ++line) {
    uint32_t b = li.line_start(line);
    diags.push_back({&some, some.default_severity, {sf.path, {b, b}}, "d", {}, std::nullopt});
  }
  auto known = [](std::string_view id) { return id == "PARSE001" || id == "ARCH001"; };
  apply_suppressions(sf, sups, diags, known, known, rules::unused_suppression_info(),
                     rules::invalid_suppression_info());
  for (const auto& d : diags) {
    CUDALINT_FUZZ_CHECK(fuzz::span_ok(d.where.span, sf.text.size()));
    if (d.fix)
      for (const auto& e : d.fix->edits) CUDALINT_FUZZ_CHECK(fuzz::span_ok(e.span, sf.text.size()));
  }
  return 0;
}
