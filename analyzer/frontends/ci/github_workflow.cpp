#include "analyzer/frontends/ci/github_workflow.h"

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

// A YAML node reduced to what a workflow needs.
struct YNode {
  enum class Kind { Scalar, Map, Seq, Other } kind = Kind::Other;
  Scalar scalar;                                // Kind::Scalar
  std::vector<std::pair<Scalar, YNode>> map;    // Kind::Map (scalar keys only)
  std::vector<YNode> seq;                       // Kind::Seq
  Span span;
};

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
        y.map.emplace_back(std::move(*key), convert(value, depth + 1));
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

bool matches(const MatrixCombo& c, const std::vector<Entry>& partial, const std::vector<std::string>* only_keys) {
  for (const auto& e : partial) {
    if (only_keys && std::find(only_keys->begin(), only_keys->end(), e.key.value()) == only_keys->end()) continue;
    auto it = std::find_if(c.values.begin(), c.values.end(), [&](const Entry& v) { return v.key.value() == e.key.value(); });
    if (it == c.values.end() || it->value.value() != e.value.value()) return false;
  }
  return true;
}

// GitHub's matrix expansion: the product of the list-valued keys, minus `exclude`, then each
// `include` entry extends the combinations it matches on the original keys, or is added.
void expand_matrix(const YNode& matrix, Job& job) {
  if (matrix.kind != YNode::Kind::Map) {
    job.matrix_unknown = true;  // `matrix: ${{ fromJSON(...) }}`
    return;
  }
  std::vector<std::string> keys;
  std::vector<MatrixCombo> combos{MatrixCombo{}};
  const YNode* include = nullptr;
  const YNode* exclude = nullptr;
  for (const auto& [k, v] : matrix.map) {
    if (k.value() == "include") { include = &v; continue; }
    if (k.value() == "exclude") { exclude = &v; continue; }
    if (v.kind != YNode::Kind::Seq) {
      job.matrix_unknown = true;
      return;
    }
    keys.push_back(k.value());
    std::vector<MatrixCombo> next;
    for (const auto& c : combos)
      for (const auto& item : v.seq) {
        if (item.kind != YNode::Kind::Scalar) {
          job.matrix_unknown = true;
          return;
        }
        MatrixCombo n = c;
        n.values.push_back({k, item.scalar});
        next.push_back(std::move(n));
        if (next.size() > kMaxCombos) {
          job.matrix_unknown = true;
          return;
        }
      }
    combos = std::move(next);
  }
  if (keys.empty()) combos.clear();
  if (exclude && exclude->kind == YNode::Kind::Seq)
    for (const auto& ex : exclude->seq) {
      auto partial = entries(&ex);
      if (partial.empty()) continue;
      std::erase_if(combos, [&](const MatrixCombo& c) { return matches(c, partial, nullptr); });
    }
  if (include && include->kind == YNode::Kind::Seq)
    for (const auto& in : include->seq) {
      auto partial = entries(&in);
      if (partial.empty()) continue;
      bool extended = false;
      for (auto& c : combos) {
        if (!matches(c, partial, &keys)) continue;
        extended = true;
        for (const auto& e : partial)
          if (std::find(keys.begin(), keys.end(), e.key.value()) == keys.end()) c.values.push_back(e);
      }
      if (!extended) combos.push_back(MatrixCombo{partial});
      if (combos.size() > kMaxCombos) {
        job.matrix_unknown = true;
        return;
      }
    }
  job.combos = std::move(combos);
}

Step read_step(const YNode& n) {
  Step s;
  s.span = n.span;
  s.name = scalar(get(n, "name"));
  s.uses = scalar(get(n, "uses"));
  s.with = entries(get(n, "with"));
  s.run = scalar(get(n, "run"));
  s.shell = scalar(get(n, "shell"));
  s.env = entries(get(n, "env"));
  s.working_directory = scalar(get(n, "working-directory"));
  return s;
}

}  // namespace

ParseResult parse_github_workflow(std::string_view text) {
  ParseResult out;
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
  YNode root;
  auto doc = stream.begin();
  if (doc != stream.end()) root = reader.convert(doc->getRoot(), 0);
  if (stream.failed() && out.errors.empty()) out.errors.push_back({{0, text.empty() ? 0u : 1u}, "invalid YAML"});
  if (!out.errors.empty()) return out;

  Workflow& wf = out.workflow;
  wf.env = entries(get(root, "env"));
  if (const YNode* d = get(root, "defaults"))
    if (const YNode* r = get(*d, "run")) wf.working_directory = scalar(get(*r, "working-directory"));
  const YNode* jobs = get(root, "jobs");
  if (!jobs || jobs->kind != YNode::Kind::Map) return out;
  for (const auto& [id, jn] : jobs->map) {
    if (jn.kind != YNode::Kind::Map) continue;
    Job job;
    job.id = id;
    if (const YNode* c = get(jn, "container")) job.container_image = c->kind == YNode::Kind::Scalar ? scalar(c) : scalar(get(*c, "image"));
    job.env = entries(get(jn, "env"));
    if (const YNode* d = get(jn, "defaults"))
      if (const YNode* r = get(*d, "run")) {
        job.working_directory = scalar(get(*r, "working-directory"));
        job.shell = scalar(get(*r, "shell"));
      }
    if (const YNode* st = get(jn, "strategy"))
      if (const YNode* m = get(*st, "matrix")) expand_matrix(*m, job);
    if (const YNode* steps = get(jn, "steps"); steps && steps->kind == YNode::Kind::Seq)
      for (const auto& sn : steps->seq)
        if (sn.kind == YNode::Kind::Map) job.steps.push_back(read_step(sn));
    wf.jobs.push_back(std::move(job));
  }
  return out;
}

}  // namespace cudalint::ci
