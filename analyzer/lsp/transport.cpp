#include "analyzer/lsp/transport.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "analyzer/core/text.h"

namespace cudalint::lsp {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

using text::iequals;

}  // namespace

ReadResult MessageReader::next() {
  ReadResult r;
  std::string line;
  bool have_length = false, saw_header = false;
  size_t length = 0;
  std::string problem;
  // Header lines end with \r\n (a bare \n is tolerated); an empty line ends the block.
  while (true) {
    if (!std::getline(in_, line)) {
      r.status = ReadStatus::Eof;
      return r;
    }
    std::string_view l = line;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.empty()) {
      if (!saw_header) continue;  // stray blank lines between messages
      break;
    }
    saw_header = true;
    auto colon = l.find(':');
    if (colon == std::string_view::npos) {
      if (problem.empty()) problem = fmt::format("malformed header line `{}`", l.substr(0, 80));
      continue;
    }
    std::string_view name = trim(l.substr(0, colon)), value = trim(l.substr(colon + 1));
    if (iequals(name, "Content-Length")) {
      size_t n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || p != value.data() + value.size()) {
        if (problem.empty()) problem = fmt::format("Content-Length `{}` is not a number", value.substr(0, 40));
        continue;
      }
      have_length = true;
      length = n;
    }
    // Content-Type and unknown headers are ignored (the spec only defines utf-8 JSON).
  }
  if (!have_length) {
    r.status = ReadStatus::Malformed;
    r.error = problem.empty() ? "message without a Content-Length header" : problem;
    return r;
  }
  if (length > max_body_) {
    // Skip the body in chunks (a length beyond streamsize must not wrap); input that ends
    // before the announced length is a truncated message, i.e. end of input.
    size_t left = length;
    while (left > 0) {
      auto chunk = static_cast<std::streamsize>(std::min<size_t>(left, size_t{1} << 30));
      in_.ignore(chunk);
      if (in_.gcount() != chunk) {
        r.status = ReadStatus::Eof;
        return r;
      }
      left -= static_cast<size_t>(chunk);
    }
    r.status = ReadStatus::Malformed;
    r.error = fmt::format("message of {} bytes exceeds the {}-byte limit", length, max_body_);
    return r;
  }
  r.body.resize(length);
  in_.read(r.body.data(), static_cast<std::streamsize>(length));
  if (static_cast<size_t>(in_.gcount()) != length) {
    r.status = ReadStatus::Eof;
    r.body.clear();
    return r;
  }
  if (!problem.empty()) {
    r.status = ReadStatus::Malformed;
    r.error = problem;
    r.body.clear();
    return r;
  }
  r.status = ReadStatus::Message;
  return r;
}

std::string frame(std::string_view body) {
  return fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
}

void write_message(std::ostream& out, std::string_view body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

}  // namespace cudalint::lsp
