// `cudalint lsp`: findings as LSP diagnostics, published (push) or answered (pull).
#include <algorithm>

#include "analyzer/lsp/server_impl.h"
#include "rules/registry.h"

namespace cudalint::lsp {

using namespace detail;

namespace {

int severity_code(Severity s) {
  switch (s) {
    case Severity::Error: return 1;
    case Severity::Warning: return 2;
    case Severity::Info: return 3;
  }
  return 2;
}

// The rule's doc where it really lives in the repository (PARSE/SUP/CONF docs are under
// rules/input/); "" when there is no base or no doc.
std::string rule_doc_url(const std::string& base, const RuleInfo& r) {
  std::string_view path = rules::doc_path_for(r.name);
  if (base.empty() || path.empty()) return {};
  return base + std::string(path);
}

}  // namespace

std::string Server::Impl::abs_of(const std::string& display) const {
  return display.starts_with("/") ? display : root + "/" + display;
}

json::Object Server::Impl::to_diagnostic(const Finding& f, const std::string& text, const RunOutput& out) {
  json::Object d{
      {"range", range_json(to_range(text, f.location.region, encoding))},
      {"severity", severity_code(f.severity)},
      {"code", std::string(f.rule->id)},
      {"source", "cudalint"},
      {"message", f.message},
  };
  if (std::string href = rule_doc_url(opts.docs_base, *f.rule); !href.empty())
    d["codeDescription"] = json::Object{{"href", href}};
  if (!f.related.empty()) {
    json::Array rel;
    for (const auto& r : f.related) {
      auto sit = out.sources.find(r.location.path);
      std::string_view rtext = sit != out.sources.end() ? std::string_view(sit->second->text) : std::string_view();
      Range range = sit != out.sources.end() ? to_range(rtext, r.location.region, encoding)
                                             : to_range("", r.location.region, Encoding::Utf16);
      rel.push_back(json::Object{
          {"location", json::Object{{"uri", path_to_uri(abs_of(r.location.path))}, {"range", range_json(range)}}},
          {"message", r.message}});
    }
    d["relatedInformation"] = std::move(rel);
  }
  if (f.fix && f.fix->applicability != Applicability::DisplayOnly)
    d["data"] = json::Object{{"fix", f.fix->title}};
  return d;
}

void Server::Impl::apply_results(const Snapshot& snap, const RunOutput& out) {
  for (const auto& p : snap.cuda_targets) {
    auto it = out.cuda_header_uses.find(p);
    if (it == out.cuda_header_uses.end()) header_uses.erase(p);
    else header_uses[p] = it->second;
  }
  // A source that now uses an open header this run did not publish (its uses went to the
  // source's `#include` line): both are checked again together.
  std::set<std::string> related = with_related(snap.cuda_targets);
  for (const auto& p : snap.cuda_targets) related.erase(p);
  if (!related.empty()) {
    related.insert(snap.cuda_targets.begin(), snap.cuda_targets.end());
    schedule(std::move(related), false, std::chrono::milliseconds(0));
  }
  std::map<std::string, std::vector<const Finding*>> by_path;
  for (const auto& f : out.findings) by_path[abs_of(f.location.path)].push_back(&f);
  bool changed_elsewhere = false;
  for (auto& [path, d] : docs) {
    if (!d.analysable) continue;
    auto v = snap.versions.find(path);
    if (v == snap.versions.end() || v->second != d.version) continue;  // newer text: re-queued
    if (d.kind == FileKind::CudaSource && !snap.cuda_targets.count(path)) continue;  // not parsed this time
    DocResult r;
    r.version = d.version;
    r.text = snap.run.overlays.at(path);
    if (auto it = by_path.find(path); it != by_path.end())
      for (const Finding* f : it->second) {
        r.findings.push_back(*f);
        r.items.push_back(to_diagnostic(*f, r.text, out));
      }
    std::string serialized = serialize(json::Value(json::Array(r.items)));
    DocResult& old = results[path];
    bool same = !old.result_id.empty() && old.serialized == serialized;
    r.serialized = std::move(serialized);
    r.result_id = same ? old.result_id : new_result_id();
    bool must_publish = snap.explicit_targets.count(path) || !same;
    if (!same && !snap.explicit_targets.count(path)) changed_elsewhere = true;
    old = std::move(r);
    if (!pull_mode && must_publish) publish(d, old);
  }
  // Pull clients re-ask for documents whose diagnostics moved because of another file.
  if (pull_mode && refresh_support && changed_elsewhere) request("workspace/diagnostic/refresh", nullptr);
}

void Server::Impl::publish_first_pass(const Snapshot& snap, const RunOutput& out) {
  std::map<std::string, std::vector<const Finding*>> by_path;
  for (const auto& f : out.findings) by_path[abs_of(f.location.path)].push_back(&f);
  // Only the sources being edited: one re-checked because another file changed keeps what it
  // showed until the full run says otherwise.
  for (const auto& path : snap.cuda_targets) {
    if (!snap.explicit_targets.count(path)) continue;
    auto d = docs.find(path);
    auto v = snap.versions.find(path);
    if (d == docs.end() || v == snap.versions.end() || v->second != d->second.version) continue;
    const std::string& text = snap.run.overlays.at(path);
    json::Array items;
    if (auto it = by_path.find(path); it != by_path.end())
      for (const Finding* f : it->second)
        // A suppression may be for an arch this pass left out: said unused only by the full run.
        if (f->rule != &rules::unused_suppression_info()) items.push_back(to_diagnostic(*f, text, out));
    DocResult r;
    r.items = std::move(items);
    publish(d->second, r);
    // What the client shows now: the full run publishes when it says otherwise.
    results[path].serialized = serialize(json::Value(json::Array(r.items)));
  }
}

void Server::Impl::publish(const Doc& d, const DocResult& r) {
  if (shutdown) return;
  notify("textDocument/publishDiagnostics",
         json::Object{{"uri", d.uri}, {"version", d.version}, {"diagnostics", json::Array(r.items)}});
}

bool Server::Impl::result_current(const std::string& path) const {
  auto d = docs.find(path);
  auto r = results.find(path);
  if (d == docs.end() || r == results.end()) return false;
  if (r->second.version != d->second.version || r->second.result_id.empty()) return false;
  if (!d->second.analysable) return true;
  return !pending.count(path) && !(pending_all && d->second.kind == FileKind::CudaSource);
}

json::Value Server::Impl::pull_report(const std::string& path, const std::string& previous) {
  const DocResult& r = results.at(path);
  if (!previous.empty() && previous == r.result_id)
    return json::Object{{"kind", "unchanged"}, {"resultId", r.result_id}};
  return json::Object{{"kind", "full"}, {"resultId", r.result_id}, {"items", json::Array(r.items)}};
}

void Server::Impl::pull_diagnostics(const json::Value& id, const json::Object& params) {
  auto path = doc_path(text_document(params));
  if (!path) return respond_error(id, kInvalidParams, "textDocument/diagnostic needs textDocument.uri");
  std::string prev = params.getString("previousResultId").value_or("").str();
  if (!docs.count(*path))  // not open: nothing is analysed for it
    return respond(id, json::Object{{"kind", "full"}, {"items", json::Array{}}});
  if (result_current(*path)) return respond(id, pull_report(*path, prev));
  pulls.push_back({id, *path, prev});  // answered when the analysis lands
}

void Server::Impl::answer_pulls() {
  std::vector<PendingPull> keep;
  for (auto& p : pulls) {
    if (!docs.count(p.path)) respond(p.id, json::Object{{"kind", "full"}, {"items", json::Array{}}});
    else if (result_current(p.path)) respond(p.id, pull_report(p.path, p.previous_result_id));
    else keep.push_back(std::move(p));
  }
  pulls = std::move(keep);
}

}  // namespace cudalint::lsp
