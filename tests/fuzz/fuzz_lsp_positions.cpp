// LSP positions against UTF-8 text in all three encodings: offsets stay inside the text,
// character boundaries round-trip, and incremental edits never read or write out of bounds.
// Input: encoding byte, then four position numbers, then "\n#---\n"-separated text and
// replacement.
#include "analyzer/lsp/positions.h"
#include "llvm/Support/JSON.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(lsp_positions) {
  using namespace cudalint;
  fuzz::Bytes b(data, size);
  auto enc = static_cast<lsp::Encoding>(b.small(2));
  lsp::Range range{{b.small(255), b.small(255)}, {b.small(255), b.small(255)}};
  auto parts = fuzz::split_parts(b.rest(), "\n#---\n", 2);
  // Documents arrive as JSON strings, so they are valid UTF-8.
  std::string text = llvm::json::isUTF8(parts[0]) ? std::string(parts[0]) : llvm::json::fixUTF8(parts[0]);
  std::string repl = parts.size() > 1 ? std::string(parts[1]) : std::string();
  if (!llvm::json::isUTF8(repl)) repl = llvm::json::fixUTF8(repl);

  for (size_t off = 0; off <= text.size() && off < 512; ++off) {
    lsp::Position p = lsp::position_at(text, off, enc);
    size_t back = lsp::offset_at(text, p, enc);
    CUDALINT_FUZZ_CHECK(back <= text.size());
    bool boundary = off == text.size() || (static_cast<unsigned char>(text[off]) & 0xC0) != 0x80;
    // Offsets between \r and \n (inside one terminator) are not positions of their own.
    bool in_crlf = off > 0 && off < text.size() && text[off - 1] == '\r' && text[off] == '\n';
    if (boundary && !in_crlf) CUDALINT_FUZZ_CHECK(back == off);
  }
  size_t a = lsp::offset_at(text, range.start, enc);
  CUDALINT_FUZZ_CHECK(a <= text.size());
  Region r{range.start.line + 1, range.start.character + 1, range.end.line + 1, range.end.character + 1};
  (void)lsp::to_range(text, r, enc);
  std::string edited = text;
  lsp::apply_change(edited, range, repl, enc);
  CUDALINT_FUZZ_CHECK(edited.size() <= text.size() + repl.size());
  CUDALINT_FUZZ_CHECK(llvm::json::isUTF8(edited));
  return 0;
}
