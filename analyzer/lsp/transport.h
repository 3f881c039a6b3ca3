// JSON-RPC framing for the language server: `Content-Length: N\r\n\r\n<N bytes of JSON>`.
// Reading never throws; a malformed header is reported and skipped so that the server can
// answer with an error and keep reading.
#pragma once

#include <cstddef>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

namespace cudalint::lsp {

enum class ReadStatus {
  Message,    // `body` holds one message (not yet validated as JSON)
  Malformed,  // a header block that could not be used; `error` says why; keep reading
  Eof,        // end of input (possibly in the middle of a message)
};

struct ReadResult {
  ReadStatus status = ReadStatus::Eof;
  std::string body;
  std::string error;
};

class MessageReader {
 public:
  // Bodies larger than `max_body` bytes are skipped (and reported as Malformed).
  explicit MessageReader(std::istream& in, size_t max_body = size_t{256} << 20) : in_(in), max_body_(max_body) {}
  ReadResult next();

 private:
  std::istream& in_;
  size_t max_body_;
};

// Writes one framed message and flushes.
void write_message(std::ostream& out, std::string_view body);

// Frames a body (for tests and in-memory transports).
std::string frame(std::string_view body);

}  // namespace cudalint::lsp
