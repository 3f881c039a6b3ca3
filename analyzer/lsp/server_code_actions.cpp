// `cudalint lsp`: code actions: a finding's fix, a suppression comment, and every safe fix of a file.
#include <fmt/format.h>

#include "analyzer/engine/suppress.h"
#include "analyzer/lsp/server_impl.h"

namespace cudalint::lsp {

using namespace detail;

// The finding behind a diagnostic the client sent back, in the current analysis of `path`.
const Finding* Server::Impl::match(const DocResult& r, const json::Object& diag) {
  auto code = diag.getString("code");
  auto range = parse_range(diag.get("range"));
  if (!code || !range) return nullptr;
  const Finding* line_match = nullptr;
  for (const auto& f : r.findings) {
    if (f.rule->id != code->str()) continue;
    Range fr = to_range(r.text, f.location.region, encoding);
    if (fr == *range) return &f;
    // Clients that rebuild diagnostics from byte columns (Neovim 0.7) can be off in the column.
    if (fr.start.line == range->start.line && !line_match) line_match = &f;
  }
  return line_match;
}

bool Server::Impl::kind_wanted(const json::Array* only, std::string_view kind) {
  if (!only) return true;
  for (const auto& o : *only)
    if (auto s = o.getAsString())
      if (kind == s->str() || (kind.starts_with(s->str()) && kind.size() > s->size() && kind[s->size()] == '.'))
        return true;
  return false;
}

json::Array Server::Impl::text_edits(const DocResult& r, const FindingFix& fix) {
  json::Array edits;
  for (const auto& e : fix.edits)
    edits.push_back(json::Object{{"range", range_json(to_range(r.text, e.region, encoding))}, {"newText", e.replacement}});
  return edits;
}

json::Object Server::Impl::workspace_edit(const std::string& uri, json::Array edits) {
  json::Object changes;
  changes[uri] = std::move(edits);
  return json::Object{{"changes", std::move(changes)}};
}

// "Suppress ID on this line": a comment line above the flagged line (or the id added to a
// suppression that already targets it), in the file's comment syntax.
std::optional<json::Object> Server::Impl::suppression_edit(const std::string& path, const Doc& d, std::string_view id,
                                                           uint32_t line0) {
  std::string_view leader = comment_leader(d.kind);
  if (leader.empty() || d.kind == FileKind::Unknown) return std::nullopt;
  SourceFile sf(path, d.kind, d.text);
  if (line0 + 1 > sf.lines.line_count()) return std::nullopt;
  for (const auto& s : parse_suppressions(sf)) {
    if (s.file_wide || s.target_line != line0 + 1 || s.ids.empty()) continue;
    for (const auto& sid : s.ids)
      if (sid.id == id) return std::nullopt;  // already there (and evidently not matching)
    Position at = position_at(d.text, s.ids.back().span.end, encoding);
    return json::Object{{"range", range_json({at, at})}, {"newText", fmt::format(",{}", id)}};
  }
  std::string_view line = sf.lines.line_text(d.text, line0 + 1);
  std::string indent(line.substr(0, line.find_first_not_of(" \t") == std::string_view::npos
                                        ? line.size()
                                        : line.find_first_not_of(" \t")));
  std::string_view eol = "\n";
  uint32_t start = sf.lines.line_start(line0 + 1);
  if (start + line.size() + 1 < d.text.size() && d.text[start + line.size()] == '\r') eol = "\r\n";
  Position at{line0, 0};
  return json::Object{{"range", range_json({at, at})},
                      {"newText", fmt::format("{}{} cudalint: ignore[{}]{}", indent, leader, id, eol)}};
}

void Server::Impl::code_action(const json::Value& id, const json::Object& params) {
  auto path = doc_path(text_document(params));
  const json::Object* ctx = params.getObject("context");
  if (!path || !ctx) return respond_error(id, kInvalidParams, "textDocument/codeAction needs textDocument and context");
  json::Array actions;
  auto dit = docs.find(*path);
  auto rit = results.find(*path);
  if (dit == docs.end() || rit == results.end() || !dit->second.analysable) return respond(id, std::move(actions));
  const Doc& d = dit->second;
  const DocResult& r = rit->second;
  bool fresh = r.version == d.version;  // edits are computed on the analysed text
  const json::Array* only = ctx->getArray("only");
  if (kind_wanted(only, "quickfix"))
    if (const json::Array* diags = ctx->getArray("diagnostics"))
      for (const auto& dv : *diags) {
        const json::Object* diag = dv.getAsObject();
        if (!diag || diag->getString("source").value_or("") != "cudalint") continue;
        auto code = diag->getString("code");
        auto range = parse_range(diag->get("range"));
        if (!code || !range) continue;
        if (const Finding* f = fresh ? match(r, *diag) : nullptr;
            f && f->fix && f->fix->applicability != Applicability::DisplayOnly && !f->fix->edits.empty()) {
          bool safe = f->fix->applicability == Applicability::Safe;
          actions.push_back(json::Object{
              {"title", safe ? f->fix->title : f->fix->title + " (unsafe)"},
              {"kind", "quickfix"},
              {"diagnostics", json::Array{dv}},
              {"isPreferred", safe},
              {"edit", workspace_edit(d.uri, text_edits(r, *f->fix))}});
        }
        if (auto edit = suppression_edit(*path, d, *code, range->start.line))
          actions.push_back(json::Object{{"title", fmt::format("Suppress {} on this line", code->str())},
                                         {"kind", "quickfix"},
                                         {"diagnostics", json::Array{dv}},
                                         {"edit", workspace_edit(d.uri, json::Array{std::move(*edit)})}});
      }
  // Every safe fix of the file (editors run this on save). Only explicitly requested, as
  // ruff does, so that it does not crowd the light bulb.
  if (fresh && only && kind_wanted(only, "source.fixAll.cudalint")) {
    std::vector<std::pair<size_t, size_t>> taken;
    json::Array edits;
    std::vector<const FindingFix*> fixes;
    for (const auto& f : r.findings)
      if (f.fix && f.fix->applicability == Applicability::Safe) fixes.push_back(&*f.fix);
    for (const FindingFix* fx : fixes) {
      std::vector<std::pair<size_t, size_t>> spans;
      for (const auto& e : fx->edits) {
        Range rr = to_range(r.text, e.region, Encoding::Utf16);
        spans.emplace_back(offset_at(r.text, rr.start, Encoding::Utf16), offset_at(r.text, rr.end, Encoding::Utf16));
      }
      bool clash = false;
      for (const auto& s : spans)
        for (const auto& t : taken)
          if ((s.first < t.second && t.first < s.second) || s.first == t.first) clash = true;
      if (clash) continue;
      taken.insert(taken.end(), spans.begin(), spans.end());
      for (auto& e : text_edits(r, *fx)) edits.push_back(std::move(e));
    }
    if (!edits.empty())
      actions.push_back(json::Object{{"title", "Fix all safely fixable cudalint problems"},
                                     {"kind", "source.fixAll.cudalint"},
                                     {"edit", workspace_edit(d.uri, std::move(edits))}});
  }
  respond(id, std::move(actions));
}

}  // namespace cudalint::lsp
