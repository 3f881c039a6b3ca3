#include "analyzer/core/text.h"

#include <fmt/format.h>

#include "analyzer/core/source_file.h"

namespace cudalint::text {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_upper(c);
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  return true;
}

std::string printable(std::string_view s, size_t max_bytes) {
  std::string out;
  size_t i = 0;
  while (i < s.size() && out.size() < max_bytes) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    std::string_view seq = s.substr(i, len);
    if (seq.size() == len && !first_invalid_utf8(seq)) {
      out.append(seq);
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  if (i < s.size()) out += "...";
  return out;
}

std::string escaped(std::string_view s, size_t max_bytes) {
  std::string out;
  size_t i = 0;
  for (; i < s.size() && out.size() < max_bytes; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F) out += fmt::format("\\x{:02X}", c);
    else out += static_cast<char>(c);
  }
  // Finish a UTF-8 sequence cut by the limit rather than leave half a character.
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) out += s[i++];
  if (i < s.size()) out += "…";
  return out;
}

}  // namespace cudalint::text
