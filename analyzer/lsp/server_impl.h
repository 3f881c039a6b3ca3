// `cudalint lsp` internals: the server's state, Server::Impl, whose members are defined by
// concern in server.cpp and server_*.cpp (each section below names its file), and the protocol
// helpers they share (server_protocol.cpp). Private to analyzer/lsp.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "analyzer/core/disk_cache.h"
#include "analyzer/core/source_file.h"
#include "analyzer/engine/run.h"
#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/lsp/positions.h"
#include "analyzer/lsp/server.h"
#include "llvm/Support/JSON.h"

namespace cudalint::lsp {

namespace json = llvm::json;
using Clock = std::chrono::steady_clock;

namespace detail {

// JSON-RPC and LSP error codes.
constexpr int64_t kParseError = -32700;
constexpr int64_t kInvalidRequest = -32600;
constexpr int64_t kMethodNotFound = -32601;
constexpr int64_t kInvalidParams = -32602;
constexpr int64_t kServerNotInitialized = -32002;
constexpr int64_t kRequestCancelled = -32800;

std::string serialize(const json::Value& v);
// file:///a%20b/c → /a b/c; nullopt for other schemes (untitled:, …) or a remote authority.
std::optional<std::string> uri_to_path(std::string_view uri);
std::string path_to_uri(std::string_view path);
// Resolves symlinks in the directory part (not the file itself: discovery names files by
// the path it walked), so that paths compare with the real workspace root.
std::string canonical_path(const std::string& p);
bool is_under(const std::string& path, const std::string& root);
// A setting's list: an array of strings, or one string of comma-separated items.
std::vector<std::string> string_list(const json::Value* v);
json::Value position_json(Position p);
json::Value range_json(const Range& r);
std::optional<Position> parse_position(const json::Value* v);
std::optional<Range> parse_range(const json::Value* v);
bool contains(const Range& r, Position p);

}  // namespace detail

struct Server::Impl {
  // The on-disk cache (null: none): a new session loads the preludes an earlier one built.
  std::unique_ptr<DiskCache> disk;
  // Precompiled CUDA preludes for the session: after the first analysis of an arch, an edit
  // re-parses only the buffer.
  cuda::PreludeCache prelude_cache;
  struct Settings {
    std::optional<std::string> config;
    std::optional<std::vector<std::string>> select;
    std::vector<std::string> extend_select, ignore;
    std::optional<std::string> target_archs;
    std::optional<std::chrono::milliseconds> debounce;  // `debounceMs`, else ServerOptions::debounce
  };

  struct Doc {
    std::string uri;
    std::string text;
    int64_t version = 0;
    FileKind kind = FileKind::Unknown;
    bool analysable = false;  // a file under the workspace root
  };

  // What the last analysis said about one open document.
  struct DocResult {
    int64_t version = 0;       // the document version analysed
    std::string text;          // the text analysed
    std::vector<Finding> findings;
    json::Array items;         // LSP diagnostics
    std::string result_id;
    std::string serialized;    // `items` as sent last (push de-duplication)
  };

  struct Snapshot {
    RunOptions run;
    std::map<std::string, int64_t> versions;  // path → version of every open analysable doc
    std::set<std::string> cuda_targets;       // .cu/.cuh documents Clang parses this time
    std::set<std::string> explicit_targets;   // documents whose change triggered the analysis
    bool all = false;
  };

  struct PendingPull {
    json::Value id;
    std::string path;
    std::string previous_result_id;
  };

  ServerOptions opts;
  Sender sender;

  mutable std::mutex mu;        // guards everything below
  std::mutex send_mu;           // serialises writes; taken after `mu`, never before
  std::condition_variable work_cv, idle_cv;
  std::thread worker;
  bool stop = false;

  bool initialized = false, shutdown = false, exited = false;
  std::string root;
  Encoding encoding = Encoding::Utf16;
  bool pull_mode = false, refresh_support = false, watch_registration = false, config_request_support = false;
  bool markdown_hover = true;
  Settings settings;
  std::map<std::string, Doc> docs;            // by absolute path
  std::map<std::string, DocResult> results;   // by absolute path
  std::set<std::string> pending;              // documents to re-diagnose
  bool pending_all = false;
  Clock::time_point deadline{};
  Clock::time_point last_event{};  // of the last schedule(): a quiet spell is measured from it
  bool running = false;
  // How long the last full run took, per edited CUDA source: a source whose full run is quick
  // gets no first pass (two runs of a cheap file cost more than one).
  std::map<std::string, std::chrono::milliseconds> full_run_time;
  static constexpr std::chrono::milliseconds kFirstPassAbove{300};
  // Each parsed CUDA source's headers that its last full run found uses in (absolute paths,
  // RunOutput::cuda_header_uses): an open header's findings come from its own parse and from
  // those of the open sources that use it, so they are parsed together.
  std::map<std::string, std::set<std::string>> header_uses;
  std::vector<PendingPull> pulls;
  int64_t next_request_id = 1;
  std::set<int64_t> config_requests;          // our workspace/configuration request ids
  uint64_t next_result_id = 1;

  Impl(ServerOptions o, Sender s);
  ~Impl();

  // ---- output (server.cpp) ----
  void send(const json::Value& v);
  void respond(const json::Value& id, json::Value result);
  void respond_error(const json::Value& id, int64_t code, std::string message);
  void notify(std::string method, json::Value params);
  int64_t request(std::string method, json::Value params);
  void log(int type, std::string message);

  // ---- dispatch, on the reader thread (server.cpp) ----
  void handle(std::string_view body);
  void handle_request(const json::Value& id, llvm::StringRef method, const json::Object& params);
  void handle_notification(llvm::StringRef method, const json::Object& params);
  void handle_response(const json::Value& id, const json::Value* result);

  // ---- lifecycle (server.cpp) ----
  void initialize(const json::Value& id, const json::Object& params);
  void on_initialized();
  void apply_settings(const json::Object& in);
  void did_change_configuration(const json::Object& params);

  // ---- documents (server_documents.cpp) ----
  const json::Object* text_document(const json::Object& params) { return params.getObject("textDocument"); }
  std::optional<std::string> doc_path(const json::Object* td);
  void invalid_notification(llvm::StringRef method, std::string_view why);
  void did_open(const json::Object& params);
  void did_change(const json::Object& params);
  void did_save(const json::Object& params);
  void did_close(const json::Object& params);
  void cancel(const json::Object& params);

  // ---- scheduling (server_scheduler.cpp) ----
  void schedule(std::set<std::string> paths, bool all, std::chrono::milliseconds delay);
  bool has_pending() const { return pending_all || !pending.empty(); }
  std::chrono::milliseconds debounce() const { return settings.debounce.value_or(opts.debounce); }
  void work_loop();
  Snapshot take_snapshot();
  // `paths` with the open CUDA documents connected to them through header_uses (the headers
  // they use, the sources that use them), transitively.
  std::set<std::string> with_related(std::set<std::string> paths) const;

  // ---- diagnostics, pushed and pulled (server_diagnostics.cpp) ----
  std::string abs_of(const std::string& display) const;
  std::string new_result_id() { return std::to_string(next_result_id++); }
  json::Object to_diagnostic(const Finding& f, const std::string& text, const RunOutput& out);
  void apply_results(const Snapshot& snap, const RunOutput& out);
  // A first pass's findings (each CUDA source's newest arch) for the edited CUDA sources,
  // published before the full run's; nothing is stored.
  void publish_first_pass(const Snapshot& snap, const RunOutput& out);
  void publish(const Doc& d, const DocResult& r);
  bool result_current(const std::string& path) const;
  json::Value pull_report(const std::string& path, const std::string& previous);
  void pull_diagnostics(const json::Value& id, const json::Object& params);
  void answer_pulls();

  // ---- code actions (server_code_actions.cpp) ----
  const Finding* match(const DocResult& r, const json::Object& diag);
  static bool kind_wanted(const json::Array* only, std::string_view kind);
  json::Array text_edits(const DocResult& r, const FindingFix& fix);
  json::Object workspace_edit(const std::string& uri, json::Array edits);
  std::optional<json::Object> suppression_edit(const std::string& path, const Doc& d, std::string_view id,
                                               uint32_t line0);
  void code_action(const json::Value& id, const json::Object& params);

  // ---- hover (server_hover.cpp) ----
  void hover(const json::Value& id, const json::Object& params);
};

}  // namespace cudalint::lsp
