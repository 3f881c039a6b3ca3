// `cudalint lsp`: open documents (didOpen/didChange/didSave/didClose) and request cancellation.
#include <fmt/format.h>

#include "analyzer/lsp/server_impl.h"

namespace cudalint::lsp {

using namespace detail;

namespace {

// Kinds whose text feeds the build model or the configuration: changing one re-diagnoses
// every open document.
bool affects_model(FileKind k) {
  switch (k) {
    case FileKind::Dockerfile:
    case FileKind::CMake:
    case FileKind::SetupPy:
    case FileKind::PyProject:
    case FileKind::Requirements:
    case FileKind::CompileCommands:
    case FileKind::CudalintToml:
    case FileKind::CiWorkflow:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<std::string> Server::Impl::doc_path(const json::Object* td) {
  if (!td) return std::nullopt;
  auto uri = td->getString("uri");
  if (!uri) return std::nullopt;
  auto p = uri_to_path(*uri);
  if (!p) return std::string("\x01") + uri->str();  // a non-file document: tracked, never analysed
  return canonical_path(*p);
}

void Server::Impl::invalid_notification(llvm::StringRef method, std::string_view why) {
  log(1, fmt::format("cudalint: ignored {}: {}", method.str(), why));
}

void Server::Impl::did_open(const json::Object& params) {
  const json::Object* td = text_document(params);
  auto path = doc_path(td);
  auto text = td ? td->getString("text") : std::nullopt;
  if (!path || !text) return invalid_notification("textDocument/didOpen", "needs textDocument.uri and .text");
  Doc d;
  d.uri = td->getString("uri")->str();
  d.text = text->str();
  d.version = td->getInteger("version").value_or(0);
  d.kind = path->starts_with("\x01") ? FileKind::Unknown : classify_path(*path);
  d.analysable = !path->starts_with("\x01") && is_under(*path, root);
  FileKind kind = d.kind;
  bool analysable = d.analysable;
  docs[*path] = std::move(d);
  if (!analysable) {
    // Outside the workspace (or not a file): nothing is read, nothing is reported.
    results[*path] = DocResult{docs[*path].version, docs[*path].text, {}, {}, new_result_id(), ""};
    if (!pull_mode) publish(docs[*path], results[*path]);
    return;
  }
  schedule({*path}, affects_model(kind), std::chrono::milliseconds(0));
}

void Server::Impl::did_change(const json::Object& params) {
  const json::Object* td = text_document(params);
  auto path = doc_path(td);
  const json::Array* changes = params.getArray("contentChanges");
  if (!path || !changes) return invalid_notification("textDocument/didChange", "needs textDocument and contentChanges");
  auto it = docs.find(*path);
  if (it == docs.end()) return invalid_notification("textDocument/didChange", "the document is not open");
  Doc& d = it->second;
  for (const auto& c : *changes) {
    const json::Object* co = c.getAsObject();
    auto text = co ? co->getString("text") : std::nullopt;
    if (!text) return invalid_notification("textDocument/didChange", "a content change has no text");
    if (const json::Value* rv = co->get("range")) {
      auto range = parse_range(rv);
      if (!range) return invalid_notification("textDocument/didChange", "invalid range");
      apply_change(d.text, *range, *text, encoding);
    } else {
      d.text = text->str();
    }
  }
  if (auto v = td->getInteger("version")) d.version = *v;
  else ++d.version;
  if (d.analysable) schedule({*path}, affects_model(d.kind), debounce());
}

void Server::Impl::did_save(const json::Object& params) {
  auto path = doc_path(text_document(params));
  if (!path) return invalid_notification("textDocument/didSave", "needs textDocument.uri");
  auto it = docs.find(*path);
  if (it == docs.end() || !it->second.analysable) return;
  // The buffer is what is analysed, but a save can create a file discovery did not see.
  schedule({*path}, affects_model(it->second.kind), std::chrono::milliseconds(0));
}

void Server::Impl::did_close(const json::Object& params) {
  auto path = doc_path(text_document(params));
  if (!path) return invalid_notification("textDocument/didClose", "needs textDocument.uri");
  auto it = docs.find(*path);
  if (it == docs.end()) return;
  bool model = it->second.analysable && affects_model(it->second.kind);
  std::string uri = it->second.uri;
  // The open sources that use this file and the open headers it uses showed what its buffer
  // gave them: checked again with the file on disk.
  std::set<std::string> related = with_related({*path});
  related.erase(*path);
  header_uses.erase(*path);
  docs.erase(it);
  results.erase(*path);
  pending.erase(*path);
  // Clear what the editor shows; in pull mode the client forgets closed documents itself.
  if (!pull_mode) notify("textDocument/publishDiagnostics", json::Object{{"uri", uri}, {"diagnostics", json::Array{}}});
  // The file on disk replaces the buffer in the model.
  if (model) schedule({}, true, debounce());
  else if (!related.empty()) schedule(std::move(related), false, debounce());
}

void Server::Impl::cancel(const json::Object& params) {
  const json::Value* id = params.get("id");
  if (!id) return;
  for (auto it = pulls.begin(); it != pulls.end(); ++it)
    if (it->id == *id) {
      respond_error(it->id, kRequestCancelled, "request cancelled");
      pulls.erase(it);
      return;
    }
  // Other requests are answered synchronously: nothing is in flight to cancel.
}

}  // namespace cudalint::lsp
