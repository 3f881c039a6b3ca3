// `cudalint lsp`: protocol helpers shared by the server's files: file URIs, workspace paths,
// settings lists and the JSON of positions and ranges.
#include <limits.h>
#include <stdlib.h>

#include <sstream>

#include <fmt/format.h>

#include "analyzer/engine/discover.h"
#include "analyzer/lsp/server_impl.h"
#include "llvm/Support/raw_ostream.h"

namespace cudalint::lsp::detail {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string serialize(const json::Value& v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  os.flush();
  return s;
}

std::optional<std::string> uri_to_path(std::string_view uri) {
  if (!uri.starts_with("file://")) return std::nullopt;
  std::string_view rest = uri.substr(7);
  if (rest.starts_with("localhost/")) rest.remove_prefix(9);
  if (!rest.starts_with("/")) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '?' || rest[i] == '#') break;
    if (rest[i] == '%' && i + 2 < rest.size()) {
      int h = hex_value(rest[i + 1]), l = hex_value(rest[i + 2]);
      if (h >= 0 && l >= 0) {
        out.push_back(static_cast<char>(h * 16 + l));
        i += 2;
        continue;
      }
    }
    out.push_back(rest[i]);
  }
  if (out.find('\0') != std::string::npos) return std::nullopt;
  return out;
}

std::string path_to_uri(std::string_view path) {
  std::string out = "file://";
  for (unsigned char c : path) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                 c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) out.push_back(static_cast<char>(c));
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string canonical_path(const std::string& p) {
  std::string abs = make_absolute(p);
  char buf[PATH_MAX];
  if (::realpath(abs.c_str(), buf)) return buf;
  auto slash = abs.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return abs;
  std::string dir = abs.substr(0, slash);
  if (::realpath(dir.c_str(), buf)) return std::string(buf) + abs.substr(slash);
  return abs;
}

bool is_under(const std::string& path, const std::string& root) {
  if (root == "/") return path.starts_with("/");
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/';
}

std::vector<std::string> string_list(const json::Value* v) {
  std::vector<std::string> out;
  if (!v) return out;
  if (auto s = v->getAsString()) {
    std::stringstream ss{std::string(*s)};
    std::string item;
    while (std::getline(ss, item, ',')) {
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (!item.empty()) out.push_back(item);
    }
  } else if (auto a = v->getAsArray()) {
    for (const auto& e : *a)
      if (auto s = e.getAsString()) out.emplace_back(*s);
  }
  return out;
}

json::Value position_json(Position p) { return json::Object{{"line", p.line}, {"character", p.character}}; }
json::Value range_json(const Range& r) {
  return json::Object{{"start", position_json(r.start)}, {"end", position_json(r.end)}};
}

std::optional<Position> parse_position(const json::Value* v) {
  const json::Object* o = v ? v->getAsObject() : nullptr;
  if (!o) return std::nullopt;
  auto l = o->getInteger("line");
  auto c = o->getInteger("character");
  if (!l || !c || *l < 0 || *c < 0 || *l > UINT32_MAX || *c > UINT32_MAX) return std::nullopt;
  return Position{static_cast<uint32_t>(*l), static_cast<uint32_t>(*c)};
}

std::optional<Range> parse_range(const json::Value* v) {
  const json::Object* o = v ? v->getAsObject() : nullptr;
  if (!o) return std::nullopt;
  auto s = parse_position(o->get("start"));
  auto e = parse_position(o->get("end"));
  if (!s || !e) return std::nullopt;
  return Range{*s, *e};
}

bool contains(const Range& r, Position p) {
  auto le = [](Position a, Position b) { return a.line < b.line || (a.line == b.line && a.character <= b.character); };
  return le(r.start, p) && le(p, r.end);
}

}  // namespace cudalint::lsp::detail
