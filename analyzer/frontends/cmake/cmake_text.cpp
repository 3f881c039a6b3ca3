// CMake front-end, evaluator internals: string, list, constant and path helpers (cmake_text.h).
#include "analyzer/frontends/cmake/cmake_text.h"

#include <algorithm>
#include <cstdlib>

#include "analyzer/core/source_file.h"

namespace cudalint::cmake::detail {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(is_alpha(s[0]) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return is_alpha(c) || is_digit(c) || c == '_'; });
}

void append_escape(char d, std::string& out) {
  switch (d) {
    case 't': out += '\t'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case ';': out += "\\;"; break;  // encodes itself; stops list splitting
    default:
      if (is_alpha(d) || is_digit(d)) out += '\\';
      out += d;
  }
}

std::vector<std::string> split_list(std::string_view s, bool keep_empty) {
  std::vector<std::string> out;
  std::string cur;
  int square = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size() && s[i + 1] == ';') {
      if (square == 0) {
        cur += ';';
      } else {
        cur += "\\;";
      }
      ++i;
      continue;
    }
    if (c == '[') ++square;
    if (c == ']' && square > 0) --square;
    if (c == ';' && square == 0) {
      if (keep_empty || !cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  // An empty string is the empty list; otherwise the last element counts like the others.
  if (keep_empty ? !s.empty() : !cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

std::optional<double> as_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string tmp(s);
  char* end = nullptr;
  double d = std::strtod(tmp.c_str(), &end);
  if (end == tmp.c_str() || *end != '\0') return std::nullopt;
  for (char c : tmp)  // strtod also takes "inf", "nan" and hex, which CMake users never mean
    if (!(is_digit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return std::nullopt;
  return d;
}

bool is_true_constant(std::string_view s) {
  std::string u = upper(s);
  if (u == "1" || u == "ON" || u == "YES" || u == "TRUE" || u == "Y") return true;
  auto d = as_number(s);
  return d && *d != 0;
}

bool is_false_constant(std::string_view s) {
  std::string u = upper(s);
  return u.empty() || u == "0" || u == "OFF" || u == "NO" || u == "FALSE" || u == "N" || u == "IGNORE" ||
         u == "NOTFOUND" || u.ends_with("-NOTFOUND");
}

int version_compare(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    unsigned long long x = 0, y = 0;
    while (i < a.size() && is_digit(a[i])) x = std::min<unsigned long long>(x * 10 + (a[i++] - '0'), 1ull << 60);
    while (j < b.size() && is_digit(b[j])) y = std::min<unsigned long long>(y * 10 + (b[j++] - '0'), 1ull << 60);
    if (x != y) return x < y ? -1 : 1;
    while (i < a.size() && a[i] != '.') ++i;
    while (j < b.size() && b[j] != '.') ++j;
    if (i < a.size()) ++i;
    if (j < b.size()) ++j;
  }
  return 0;
}

std::string dirname(std::string_view p) {
  auto s = p.find_last_of('/');
  if (s == std::string_view::npos) return ".";
  return s == 0 ? "/" : std::string(p.substr(0, s));
}

std::string normalize(std::string_view p) {
  bool abs = p.starts_with('/');
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view part = p.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!abs) parts.push_back(part);
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out = abs ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k) out += '/';
    out += parts[k];
  }
  return out.empty() ? "." : out;
}

std::string join_path(std::string_view dir, std::string_view rel) {
  if (rel.starts_with('/')) return normalize(rel);
  return normalize(std::string(dir) + "/" + std::string(rel));
}

}  // namespace cudalint::cmake::detail
