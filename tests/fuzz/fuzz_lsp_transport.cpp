// LSP JSON-RPC framing: any byte stream is read to its end without a hang (every call consumes
// input), bodies are exactly Content-Length bytes, and frame() round-trips through the reader.
#include <sstream>

#include "analyzer/lsp/transport.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(lsp_transport) {
  using namespace cudalint;
  std::string input(fuzz::as_text(data, size));
  std::istringstream in(input);
  // A 1 MiB limit keeps a fuzzed `Content-Length: 99999999` cheap; the logic is the same.
  lsp::MessageReader reader(in, size_t{1} << 20);
  std::vector<std::string> bodies;
  for (size_t calls = 0;; ++calls) {
    CUDALINT_FUZZ_CHECK(calls <= size + 1);
    lsp::ReadResult r = reader.next();
    if (r.status == lsp::ReadStatus::Eof) break;
    if (r.status == lsp::ReadStatus::Malformed) {
      CUDALINT_FUZZ_CHECK(!r.error.empty() && r.body.empty());
      continue;
    }
    bodies.push_back(std::move(r.body));
  }
  // Re-framing what was read yields the same messages.
  std::string again;
  for (const auto& b : bodies) again += lsp::frame(b);
  std::istringstream in2(again);
  lsp::MessageReader reader2(in2, size_t{1} << 20);
  for (const auto& b : bodies) {
    lsp::ReadResult r = reader2.next();
    CUDALINT_FUZZ_CHECK(r.status == lsp::ReadStatus::Message && r.body == b);
  }
  CUDALINT_FUZZ_CHECK(reader2.next().status == lsp::ReadStatus::Eof);
  return 0;
}
