// `cudalint lsp`: hover, a rule's documentation over its findings and its id in a suppression.
#include <algorithm>

#include <fmt/format.h>

#include "analyzer/engine/suppress.h"
#include "analyzer/lsp/server_impl.h"
#include "rules/registry.h"

namespace cudalint::lsp {

using namespace detail;

namespace {

const RuleInfo* rule_by_id(std::string_view id) {
  for (const auto& e : rules::registry())
    if (e.id == id) return &e.make()->info();
  return nullptr;
}

std::string rule_hover_text(const RuleInfo& r) {
  std::string doc(rules::doc_for(r.name));
  if (doc.empty()) doc = fmt::format("# {} ({})\n\n{}\n", r.name, r.id, r.summary);
  while (!doc.empty() && doc.back() == '\n') doc.pop_back();
  return fmt::format("{}\n\nSeverity: {}. Fix: {}. Status: {}.", doc, to_string(r.default_severity),
                     to_string(r.fix), to_string(r.status));
}

}  // namespace

void Server::Impl::hover(const json::Value& id, const json::Object& params) {
  auto path = doc_path(text_document(params));
  auto pos = parse_position(params.get("position"));
  if (!path || !pos) return respond_error(id, kInvalidParams, "textDocument/hover needs textDocument and position");
  auto dit = docs.find(*path);
  if (dit == docs.end() || !dit->second.analysable) return respond(id, nullptr);
  const Doc& d = dit->second;
  std::vector<const RuleInfo*> shown;
  std::optional<Range> where;
  auto add = [&](const RuleInfo* r, Range range) {
    if (!r || std::find(shown.begin(), shown.end(), r) != shown.end()) return;
    shown.push_back(r);
    if (!where) where = range;
  };
  if (auto rit = results.find(*path); rit != results.end() && rit->second.version == d.version)
    for (const auto& f : rit->second.findings) {
      Range fr = to_range(rit->second.text, f.location.region, encoding);
      if (contains(fr, *pos)) add(f.rule, fr);
    }
  // A rule id inside a suppression comment explains itself too.
  if (d.kind != FileKind::Unknown) {
    SourceFile sf(*path, d.kind, d.text);
    size_t off = offset_at(d.text, *pos, encoding);
    for (const auto& s : parse_suppressions(sf))
      for (const auto& sid : s.ids)
        if (off >= sid.span.begin && off <= sid.span.end)
          add(rule_by_id(sid.id), {position_at(d.text, sid.span.begin, encoding), position_at(d.text, sid.span.end, encoding)});
  }
  if (shown.empty()) return respond(id, nullptr);
  std::string text;
  for (const RuleInfo* r : shown) {
    if (!text.empty()) text += "\n\n---\n\n";
    text += rule_hover_text(*r);
  }
  respond(id, json::Object{{"contents", json::Object{{"kind", markdown_hover ? "markdown" : "plaintext"}, {"value", text}}},
                           {"range", range_json(*where)}});
}

}  // namespace cudalint::lsp
