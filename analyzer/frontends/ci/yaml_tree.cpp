#include "analyzer/frontends/ci/yaml_tree.h"

#include <algorithm>
#include <memory>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/YAMLParser.h>

namespace cudalint::ci {

namespace {

// Nesting deeper than this is refused before LLVM's parser, which recurses per level.
constexpr int kMaxDepth = 200;
// Our own tree stops descending here, and holds at most this many nodes.
constexpr int kMaxTreeDepth = 64;
constexpr size_t kMaxNodes = 200000;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  uint32_t offset_of(const char* p) const {
    if (p < text_.data() || p > text_.data() + text_.size()) return 0;
    return static_cast<uint32_t>(p - text_.data());
  }
  Span span_of(llvm::SMRange r) const {
    uint32_t b = offset_of(r.Start.getPointer()), e = offset_of(r.End.getPointer());
    return {b, std::max(b, e)};
  }

  // Every byte of `value` mapped to `base` + i when the value is the file's text byte for
  // byte from `base`, else to `fallback`.
  docker::MappedText mapped(std::string_view value, uint32_t base, uint32_t fallback) const {
    docker::MappedText m;
    m.text = std::string(value);
    bool exact = base + value.size() <= text_.size() && text_.substr(base, value.size()) == value;
    m.offsets.reserve(value.size() + 1);
    for (size_t i = 0; i <= value.size(); ++i)
      m.offsets.push_back(exact ? base + static_cast<uint32_t>(i) : fallback);
    return m;
  }

  // A literal block scalar (`|`, `|-`, `|+`): the content lines without their indentation.
  docker::MappedText block_mapped(std::string_view value, Span raw) const {
    docker::MappedText m;
    m.text = std::string(value);
    // LLVM's range starts at the first content line; the header (`|`, `|-`, `>`) is on the
    // line before. Only literal scalars keep their lines as written.
    if (raw.begin == 0 || raw.begin > text_.size()) return mapped(value, ~0u, raw.begin);
    size_t header_end = text_.rfind('\n', raw.begin - 1);
    if (header_end == std::string_view::npos) return mapped(value, ~0u, raw.begin);
    size_t header_begin = header_end == 0 ? 0 : text_.rfind('\n', header_end - 1);
    header_begin = header_begin == std::string_view::npos ? 0 : header_begin + 1;
    std::string_view header = text_.substr(header_begin, header_end - header_begin);
    if (size_t hash = header.find(" #"); hash != std::string_view::npos) header = header.substr(0, hash);
    while (!header.empty() && (header.back() == ' ' || header.back() == '\r')) header.remove_suffix(1);
    size_t last_space = header.find_last_of(" \t");
    std::string_view indicator = last_space == std::string_view::npos ? header : header.substr(last_space + 1);
    if (indicator.empty() || indicator[0] != '|') return mapped(value, ~0u, raw.begin);
    // Content from the start of the range's line, as one "header line" before it.
    std::string_view src = text_.substr(header_end, raw.end - header_end);
    size_t nl = 0;
    raw.begin = static_cast<uint32_t>(header_end);
    // The indentation of the first non-blank content line.
    size_t indent = std::string_view::npos;
    for (size_t p = nl + 1; p < src.size();) {
      size_t e = src.find('\n', p);
      if (e == std::string_view::npos) e = src.size();
      std::string_view line = src.substr(p, e - p);
      size_t ws = line.find_first_not_of(' ');
      if (ws != std::string_view::npos && line[ws] != '\r') {
        indent = ws;
        break;
      }
      p = e + 1;
    }
    if (indent == std::string_view::npos) return mapped(value, ~0u, raw.begin);
    std::vector<uint32_t> offs;
    std::string rebuilt;
    for (size_t p = nl + 1; p < src.size() && rebuilt.size() < value.size();) {
      size_t e = src.find('\n', p);
      if (e == std::string_view::npos) e = src.size();
      std::string_view line = src.substr(p, e - p);
      size_t skip = std::min(indent, line.find_first_not_of(' ') == std::string_view::npos ? line.size() : indent);
      for (size_t i = skip; i < line.size(); ++i) {
        rebuilt.push_back(line[i]);
        offs.push_back(raw.begin + static_cast<uint32_t>(p + i));
      }
      rebuilt.push_back('\n');
      offs.push_back(raw.begin + static_cast<uint32_t>(e));
      p = e + 1;
    }
    if (rebuilt.size() < value.size() || rebuilt.compare(0, value.size(), value) != 0)
      return mapped(value, ~0u, raw.begin);
    offs.resize(value.size());
    offs.push_back(value.empty() ? raw.begin : offs.back() + 1);
    m.offsets = std::move(offs);
    return m;
  }

  std::optional<Scalar> scalar_of(llvm::yaml::Node* n) {
    if (auto* s = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(n)) {
      llvm::SmallString<64> storage;
      llvm::StringRef v = s->getValue(storage);
      Scalar out;
      out.span = span_of(s->getSourceRange());
      llvm::StringRef raw = s->getRawValue();
      uint32_t base = offset_of(raw.data());
      if (!raw.empty() && (raw[0] == '"' || raw[0] == '\'')) ++base;
      out.text = mapped(std::string_view(v.data(), v.size()), base, out.span.begin);
      return out;
    }
    if (auto* b = llvm::dyn_cast_or_null<llvm::yaml::BlockScalarNode>(n)) {
      Scalar out;
      out.span = span_of(b->getSourceRange());
      llvm::StringRef v = b->getValue();
      out.text = block_mapped(std::string_view(v.data(), v.size()), out.span);
      return out;
    }
    return std::nullopt;
  }

  YNode convert(llvm::yaml::Node* n, int depth) {
    YNode y;
    if (!n || ++nodes_ > kMaxNodes) return y;
    y.span = span_of(n->getSourceRange());
    if (auto s = scalar_of(n)) {
      y.kind = YNode::Kind::Scalar;
      y.scalar = std::move(*s);
      return y;
    }
    if (depth >= kMaxTreeDepth) return y;  // LLVM skips what is left unread
    if (auto* m = llvm::dyn_cast<llvm::yaml::MappingNode>(n)) {
      y.kind = YNode::Kind::Map;
      for (auto& kv : *m) {
        auto key = scalar_of(kv.getKey());
        llvm::yaml::Node* value = kv.getValue();
        if (!key) continue;
        y.map.push_back(YEntry{std::move(*key), convert(value, depth + 1)});
      }
      return y;
    }
    if (auto* s = llvm::dyn_cast<llvm::yaml::SequenceNode>(n)) {
      y.kind = YNode::Kind::Seq;
      for (auto& item : *s) y.seq.push_back(convert(&item, depth + 1));
      return y;
    }
    return y;
  }

 private:
  std::string_view text_;
  size_t nodes_ = 0;
};

// The deepest flow nesting or indentation-implied block nesting, bounded: enough to refuse
// a file that would make a recursive parser run out of stack.
std::optional<uint32_t> too_deep_at(std::string_view text) {
  int flow = 0;
  bool line_start = true;
  size_t indent = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      line_start = true;
      indent = 0;
      continue;
    }
    if (line_start && (c == ' ' || c == '-')) {
      if (++indent > 2 * kMaxDepth) return static_cast<uint32_t>(i);
      continue;
    }
    line_start = false;
    if (c == '[' || c == '{') {
      if (++flow > kMaxDepth) return static_cast<uint32_t>(i);
    } else if ((c == ']' || c == '}') && flow > 0) {
      --flow;
    }
  }
  return std::nullopt;
}

}  // namespace

YamlResult read_yaml(std::string_view text) {
  YamlResult out;
  if (auto at = too_deep_at(text)) {
    out.errors.push_back({{*at, std::min<uint32_t>(*at + 1, static_cast<uint32_t>(text.size()))},
                          "YAML nested more than 200 levels deep: not read"});
    return out;
  }
  llvm::SourceMgr sm;
  struct Sink {
    std::vector<ParseError>* errors;
    std::string_view text;
  } sink{&out.errors, text};
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic& d, void* ctx) {
        auto* s = static_cast<Sink*>(ctx);
        if (!s->errors->empty()) return;  // the first error; the rest follow from it
        const char* p = d.getLoc().getPointer();
        uint32_t at = p >= s->text.data() && p <= s->text.data() + s->text.size()
                          ? static_cast<uint32_t>(p - s->text.data()) : 0;
        uint32_t end = std::min<uint32_t>(at + 1, static_cast<uint32_t>(s->text.size()));
        s->errors->push_back({{at, std::max(at, end)}, d.getMessage().str()});
      },
      &sink);
  llvm::yaml::Stream stream(llvm::StringRef(text.data(), text.size()), sm, false);
  Reader reader(text);
  auto doc = stream.begin();
  if (doc != stream.end()) out.root = reader.convert(doc->getRoot(), 0);
  if (stream.failed() && out.errors.empty()) out.errors.push_back({{0, text.empty() ? 0u : 1u}, "invalid YAML"});
  if (!out.errors.empty()) out.root = YNode{};
  return out;
}

const YNode* get(const YNode& map, std::string_view key) {
  if (map.kind != YNode::Kind::Map) return nullptr;
  for (const auto& [k, v] : map.map)
    if (k.value() == key) return &v;
  return nullptr;
}

std::optional<Scalar> scalar(const YNode* n) {
  if (!n || n->kind != YNode::Kind::Scalar) return std::nullopt;
  return n->scalar;
}

std::vector<Entry> entries(const YNode* n) {
  std::vector<Entry> out;
  if (!n || n->kind != YNode::Kind::Map) return out;
  for (const auto& [k, v] : n->map)
    if (v.kind == YNode::Kind::Scalar) out.push_back({k, v.scalar});
  return out;
}

}  // namespace cudalint::ci
