#include "analyzer/frontends/requirements/requirements.h"

#include <cctype>

namespace cudalint::requirements {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

// One logical line (continuations joined) with a map back to file offsets.
struct Logical {
  std::string text;
  std::vector<uint32_t> offsets;  // offsets[i] = file offset of text[i]
};

std::vector<Logical> logical_lines(std::string_view t) {
  std::vector<Logical> out;
  Logical cur;
  size_t i = 0;
  if (t.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  auto flush = [&] {
    out.push_back(std::move(cur));
    cur = Logical{};
  };
  while (i < t.size()) {
    char c = t[i];
    if (c == '\\' && (i + 1 == t.size() || t[i + 1] == '\n' || t[i + 1] == '\r')) {
      // pip joins a line ending in a backslash with the next one.
      ++i;
      if (i < t.size() && t[i] == '\r') ++i;
      if (i < t.size() && t[i] == '\n') ++i;
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < t.size() && t[i + 1] == '\n') ++i;
      ++i;
      flush();
      continue;
    }
    cur.text += c;
    cur.offsets.push_back(static_cast<uint32_t>(i));
    ++i;
  }
  if (!cur.text.empty()) flush();
  return out;
}

Span span_of(const Logical& l, size_t b, size_t e) {
  if (b >= l.offsets.size()) return {};
  uint32_t end = e == 0 ? l.offsets[b] : l.offsets[std::min(e, l.offsets.size()) - 1] + 1;
  return {l.offsets[b], end};
}

}  // namespace

std::string normalise_name(std::string_view name) {
  std::string s;
  for (char c : name) {
    if (c == '_' || c == '.') c = '-';
    s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

File parse(std::string_view text) {
  File f;
  for (const Logical& l : logical_lines(text)) {
    std::string_view s = l.text;
    // A comment starts at `#` at line start or after whitespace (pip's rule).
    size_t end = s.size();
    for (size_t k = 0; k < s.size(); ++k)
      if (s[k] == '#' && (k == 0 || is_space(s[k - 1]))) { end = k; break; }
    // Split into whitespace-separated tokens with positions.
    std::vector<std::pair<size_t, size_t>> toks;
    size_t k = 0;
    while (k < end) {
      while (k < end && is_space(s[k])) ++k;
      size_t b = k;
      while (k < end && !is_space(s[k])) ++k;
      if (k > b) toks.emplace_back(b, k);
    }
    if (toks.empty()) continue;
    auto tok = [&](size_t i) { return s.substr(toks[i].first, toks[i].second - toks[i].first); };
    bool editable = false;
    for (size_t i = 0; i < toks.size(); ++i) {
      std::string_view t = tok(i);
      auto value_of = [&](std::string_view flag, std::string_view& v, size_t& vb, size_t& ve) {
        if (t == flag && i + 1 < toks.size()) {
          ++i;
          v = tok(i);
          vb = toks[i].first;
          ve = toks[i].second;
          return true;
        }
        if (t.size() > flag.size() + 1 && t.starts_with(flag) && t[flag.size()] == '=') {
          v = t.substr(flag.size() + 1);
          vb = toks[i].first + flag.size() + 1;
          ve = toks[i].second;
          return true;
        }
        return false;
      };
      std::string_view v;
      size_t vb = 0, ve = 0;
      if (value_of("--index-url", v, vb, ve) || value_of("-i", v, vb, ve)) {
        f.indexes.push_back({std::string(v), span_of(l, vb, ve), false});
        continue;
      }
      if (value_of("--extra-index-url", v, vb, ve)) {
        f.indexes.push_back({std::string(v), span_of(l, vb, ve), true});
        continue;
      }
      if (value_of("-r", v, vb, ve) || value_of("--requirement", v, vb, ve) || value_of("-c", v, vb, ve) ||
          value_of("--constraint", v, vb, ve)) {
        f.includes.emplace_back(std::string(v), span_of(l, vb, ve));
        continue;
      }
      if (value_of("-f", v, vb, ve) || value_of("--find-links", v, vb, ve)) continue;
      if (t == "-e" || t == "--editable") { editable = true; continue; }
      if (t.starts_with("-")) continue;  // --hash=..., --pre, --no-binary ...
      // A requirement: the rest of the tokens up to an option belong to its marker.
      size_t rb = toks[i].first;
      std::string_view req = t;
      Requirement r;
      r.editable = editable;
      size_t semi = req.find(';');
      if (semi != std::string_view::npos) req = req.substr(0, semi);
      if (req.find("://") != std::string_view::npos || req.starts_with(".") || req.starts_with("/")) {
        r.url = true;
        r.name = std::string(req);
      } else {
        size_t ne = 0;
        while (ne < req.size() && (std::isalnum(static_cast<unsigned char>(req[ne])) || req[ne] == '-' ||
                                   req[ne] == '_' || req[ne] == '.'))
          ++ne;
        r.name = normalise_name(req.substr(0, ne));
        if (auto eq = req.find("=="); eq != std::string_view::npos && req.find('*', eq) == std::string_view::npos &&
                                      req.find(',', eq) == std::string_view::npos)
          r.exact = std::string(req.substr(eq + 2));
        if (auto at = req.find(" @ "); at != std::string_view::npos) r.url = true;
      }
      r.text = std::string(req);
      r.span = span_of(l, rb, rb + req.size());
      if (!r.name.empty()) f.requirements.push_back(std::move(r));
      // Everything after a requirement on the same line is markers or per-requirement options.
      break;
    }
  }
  return f;
}

}  // namespace cudalint::requirements
