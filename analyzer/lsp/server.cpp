// `cudalint lsp` (see server.h): the server's output, message dispatch, lifecycle and settings,
// and the Server facade. Documents, scheduling, diagnostics, code actions and hover are in
// server_*.cpp (server_impl.h).
#include "analyzer/lsp/server.h"

#include <utility>

#include <fmt/format.h>

#include "analyzer/engine/run.h"
#include "analyzer/lsp/server_impl.h"
#include "analyzer/lsp/transport.h"

namespace cudalint::lsp {

using namespace detail;

Server::Impl::Impl(ServerOptions o, Sender s)
    : disk(o.cache_dir.empty() ? nullptr : std::make_unique<DiskCache>(o.cache_dir)),
      prelude_cache(disk.get(), cuda::embedded_prelude_pch()),
      opts(std::move(o)),
      sender(std::move(s)) {
  worker = std::thread([this] { work_loop(); });
}

Server::Impl::~Impl() {
  {
    std::lock_guard lk(mu);
    stop = true;
  }
  work_cv.notify_all();
  worker.join();
}

void Server::Impl::send(const json::Value& v) {
  std::lock_guard lk(send_mu);
  sender(serialize(v));
}

void Server::Impl::respond(const json::Value& id, json::Value result) {
  send(json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::Impl::respond_error(const json::Value& id, int64_t code, std::string message) {
  send(json::Object{{"jsonrpc", "2.0"},
                    {"id", id},
                    {"error", json::Object{{"code", code}, {"message", std::move(message)}}}});
}

void Server::Impl::notify(std::string method, json::Value params) {
  send(json::Object{{"jsonrpc", "2.0"}, {"method", std::move(method)}, {"params", std::move(params)}});
}

int64_t Server::Impl::request(std::string method, json::Value params) {
  int64_t id = next_request_id++;
  send(json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"method", std::move(method)}, {"params", std::move(params)}});
  return id;
}

void Server::Impl::log(int type, std::string message) {
  notify("window/logMessage", json::Object{{"type", type}, {"message", std::move(message)}});
}

void Server::Impl::handle(std::string_view body) {
  auto parsed = json::parse(body);
  if (!parsed) {
    std::string why = llvm::toString(parsed.takeError());
    respond_error(nullptr, kParseError, "invalid JSON: " + why);
    return;
  }
  json::Object* msg = parsed->getAsObject();
  if (!msg) {
    respond_error(nullptr, kInvalidRequest, "a JSON-RPC message must be an object");
    return;
  }
  const json::Value* id = msg->get("id");
  if (id && !(id->kind() == json::Value::Number || id->kind() == json::Value::String)) {
    respond_error(nullptr, kInvalidRequest, "`id` must be a number or a string");
    return;
  }
  auto method = msg->getString("method");
  if (!method) {
    if (id && (msg->get("result") || msg->get("error"))) {
      handle_response(*id, msg->get("result"));
      return;
    }
    respond_error(id ? *id : json::Value(nullptr), kInvalidRequest, "message has no `method`");
    return;
  }
  const json::Value* params_v = msg->get("params");
  json::Object empty;
  const json::Object* params = params_v ? params_v->getAsObject() : &empty;
  if (params_v && !params && params_v->kind() != json::Value::Null) {
    if (id) respond_error(*id, kInvalidParams, fmt::format("`params` of {} must be an object", method->str()));
    return;
  }
  if (!params) params = &empty;
  std::lock_guard lk(mu);
  if (id) handle_request(*id, *method, *params);
  else handle_notification(*method, *params);
}

void Server::Impl::handle_request(const json::Value& id, llvm::StringRef method, const json::Object& params) {
  if (method == "initialize") {
    if (initialized) return respond_error(id, kInvalidRequest, "initialize was already called");
    return initialize(id, params);
  }
  if (!initialized) return respond_error(id, kServerNotInitialized, "the server is not initialized yet");
  if (shutdown) return respond_error(id, kInvalidRequest, fmt::format("{} after shutdown", method.str()));
  if (method == "shutdown") {
    shutdown = true;
    pending.clear();
    pending_all = false;
    for (auto& p : pulls) respond_error(p.id, kRequestCancelled, "the server is shutting down");
    pulls.clear();
    return respond(id, nullptr);
  }
  if (method == "textDocument/codeAction") return code_action(id, params);
  if (method == "textDocument/hover") return hover(id, params);
  if (method == "textDocument/diagnostic" && pull_mode) return pull_diagnostics(id, params);
  respond_error(id, kMethodNotFound, fmt::format("method {} is not supported", method.str()));
}

void Server::Impl::handle_notification(llvm::StringRef method, const json::Object& params) {
  if (method == "exit") {
    exited = true;
    return;
  }
  if (!initialized || shutdown) return;  // notifications before initialize are dropped
  if (method == "initialized") return on_initialized();
  if (method == "textDocument/didOpen") return did_open(params);
  if (method == "textDocument/didChange") return did_change(params);
  if (method == "textDocument/didSave") return did_save(params);
  if (method == "textDocument/didClose") return did_close(params);
  if (method == "workspace/didChangeConfiguration") return did_change_configuration(params);
  if (method == "workspace/didChangeWatchedFiles") return schedule({}, true, debounce());
  if (method == "$/cancelRequest") return cancel(params);
  // Other notifications ($/setTrace, $/progress, …) need nothing.
}

void Server::Impl::handle_response(const json::Value& id, const json::Value* result) {
  std::lock_guard lk(mu);
  auto n = id.getAsInteger();
  if (!n || !config_requests.erase(*n)) return;
  const json::Array* a = result ? result->getAsArray() : nullptr;
  if (a && !a->empty())
    if (const json::Object* o = (*a)[0].getAsObject()) {
      apply_settings(*o);
      schedule({}, true, std::chrono::milliseconds(0));
    }
}

void Server::Impl::initialize(const json::Value& id, const json::Object& params) {
  // Workspace root: rootUri, else the first workspace folder, else rootPath, else the cwd.
  std::optional<std::string> r;
  if (auto u = params.getString("rootUri")) r = uri_to_path(*u);
  if (!r)
    if (auto folders = params.getArray("workspaceFolders"))
      for (const auto& f : *folders)
        if (auto o = f.getAsObject())
          if (auto u = o->getString("uri"))
            if ((r = uri_to_path(*u))) break;
  if (!r)
    if (auto p = params.getString("rootPath")) r = p->str();
  root = canonical_path(r ? *r : (opts.fallback_root.empty() ? "." : opts.fallback_root));

  const json::Object* caps = params.getObject("capabilities");
  json::Object none;
  if (!caps) caps = &none;
  // Position encoding (LSP 3.17): utf-8 whenever the client offers it (the text is UTF-8,
  // so no conversion), otherwise utf-16, which every client must support.
  const json::Object* general = caps->getObject("general");
  encoding = Encoding::Utf16;
  if (general)
    if (auto encs = general->getArray("positionEncodings"))
      for (const auto& e : *encs)
        if (auto s = e.getAsString(); s && *s == "utf-8") encoding = Encoding::Utf8;
  const json::Object* td = caps->getObject("textDocument");
  const json::Object* ws = caps->getObject("workspace");
  pull_mode = td && td->getObject("diagnostic");
  if (ws) {
    if (auto d = ws->getObject("diagnostics")) refresh_support = d->getBoolean("refreshSupport").value_or(false);
    if (auto w = ws->getObject("didChangeWatchedFiles"))
      watch_registration = w->getBoolean("dynamicRegistration").value_or(false);
    config_request_support = ws->getBoolean("configuration").value_or(false);
  }
  if (td)
    if (auto h = td->getObject("hover"))
      if (auto fmts = h->getArray("contentFormat")) {
        markdown_hover = false;
        for (const auto& f : *fmts)
          if (f.getAsString() && *f.getAsString() == "markdown") markdown_hover = true;
      }
  if (auto init = params.getObject("initializationOptions")) apply_settings(*init);

  json::Object capabilities{
      {"positionEncoding", std::string(to_string(encoding))},
      {"textDocumentSync",
       json::Object{{"openClose", true}, {"change", 2}, {"save", json::Object{{"includeText", false}}}}},
      {"codeActionProvider", json::Object{{"codeActionKinds", json::Array{"quickfix", "source.fixAll.cudalint"}}}},
      {"hoverProvider", true},
  };
  if (pull_mode)
    capabilities["diagnosticProvider"] = json::Object{
        {"identifier", "cudalint"}, {"interFileDependencies", true}, {"workspaceDiagnostics", false}};
  initialized = true;
  respond(id, json::Object{{"capabilities", std::move(capabilities)},
                           {"serverInfo", json::Object{{"name", "cudalint"}, {"version", opts.version}}}});
}

void Server::Impl::on_initialized() {
  if (watch_registration) {
    json::Array watchers;
    for (const char* g : {"**/cudalint.toml", "**/pyproject.toml", "**/setup.py", "**/requirements*.txt",
                          "**/CMakeLists.txt", "**/*.cmake", "**/Dockerfile", "**/Dockerfile.*",
                          "**/*.dockerfile", "**/*.Dockerfile", "**/Containerfile", "**/compile_commands.json",
                          "**/*.cu", "**/*.cuh", "**/.gitignore"})
      watchers.push_back(json::Object{{"globPattern", g}});
    request("client/registerCapability",
            json::Object{{"registrations",
                          json::Array{json::Object{{"id", "cudalint-watch"},
                                                   {"method", "workspace/didChangeWatchedFiles"},
                                                   {"registerOptions", json::Object{{"watchers", std::move(watchers)}}}}}}});
  }
}

// Editor settings: {"cudalint": {...}} or the section itself. Keys: config, select,
// extendSelect, ignore, targetArchs (as the command-line options), and debounceMs (how long a
// didChange in a burst of them waits for the next, 0 to 10000).
void Server::Impl::apply_settings(const json::Object& in) {
  const json::Object* s = in.getObject("cudalint");
  if (!s) s = &in;
  Settings out;
  if (auto c = s->getString("config"); c && !c->empty()) {
    std::string p = c->str();
    out.config = p.starts_with("/") ? p : root + "/" + p;
  }
  auto selectors = [&](const char* key) {
    std::vector<std::string> ids = string_list(s->get(key)), ok;
    for (auto& id : ids) {
      if (is_rule_selector(id)) ok.push_back(std::move(id));
      else notify("window/showMessage", json::Object{{"type", 2},
                                                     {"message", fmt::format("cudalint: unknown rule selector `{}` in "
                                                                             "setting `{}` (ignored)", id, key)}});
    }
    return ok;
  };
  if (s->get("select") && s->get("select")->kind() != json::Value::Null) out.select = selectors("select");
  out.extend_select = selectors("extendSelect");
  out.ignore = selectors("ignore");
  if (auto t = s->getString("targetArchs"); t && !t->empty()) out.target_archs = t->str();
  if (const json::Value* d = s->get("debounceMs"); d && d->kind() != json::Value::Null) {
    auto n = d->getAsInteger();
    if (n && *n >= 0 && *n <= 10000) out.debounce = std::chrono::milliseconds(*n);
    else notify("window/showMessage", json::Object{{"type", 2},
                                                   {"message", "cudalint: setting `debounceMs` must be an integer "
                                                               "from 0 to 10000 (ignored)"}});
  }
  settings = std::move(out);
}

void Server::Impl::did_change_configuration(const json::Object& params) {
  const json::Value* s = params.get("settings");
  const json::Object* o = s ? s->getAsObject() : nullptr;
  if (o && !o->empty()) {
    apply_settings(*o);
  } else if (config_request_support) {
    // VS Code-style clients send an empty notification and expect the server to ask.
    config_requests.insert(
        request("workspace/configuration",
                json::Object{{"items", json::Array{json::Object{{"section", "cudalint"}}}}}));
    return;
  }
  schedule({}, true, std::chrono::milliseconds(0));
}

Server::Server(ServerOptions opts, Sender send) : impl_(std::make_unique<Impl>(std::move(opts), std::move(send))) {}
Server::~Server() = default;

void Server::handle(std::string_view body) { impl_->handle(body); }

void Server::handle_malformed(std::string_view why) {
  impl_->respond_error(nullptr, kParseError, std::string(why));
}

bool Server::exit_requested() const {
  std::lock_guard lk(impl_->mu);
  return impl_->exited;
}

bool Server::shutdown_requested() const {
  std::lock_guard lk(impl_->mu);
  return impl_->shutdown;
}

int Server::exit_code() const {
  std::lock_guard lk(impl_->mu);
  return impl_->shutdown ? 0 : 1;
}

void Server::wait_idle() {
  std::unique_lock lk(impl_->mu);
  impl_->idle_cv.wait(lk, [&] { return !impl_->has_pending() && !impl_->running; });
}

int serve(std::istream& in, std::ostream& out, ServerOptions opts) {
  Server server(std::move(opts), [&out](const std::string& body) { write_message(out, body); });
  MessageReader reader(in);
  while (!server.exit_requested()) {
    ReadResult r = reader.next();
    if (r.status == ReadStatus::Eof) break;
    if (r.status == ReadStatus::Malformed) server.handle_malformed(r.error);
    else server.handle(r.body);
  }
  return server.exit_code();
}

}  // namespace cudalint::lsp
