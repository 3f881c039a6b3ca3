// `cudalint lsp`: a Language Server Protocol 3.17 server over stdio.
//
// The reader thread decodes messages and updates documents; one worker thread runs the engine
// (debounced: a newer change supersedes a pending analysis, and results for a document that
// changed meanwhile are dropped). Each analysis covers the whole workspace root, with open
// buffers overlaid on the files on disk, so cross-file findings (a Dockerfile's arch list
// against a setup.py) match `cudalint check`; Clang parses only the open `.cu` files that need
// it. Only files under the workspace root are analysed.
#pragma once

#include <chrono>
#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace cudalint::lsp {

struct ServerOptions {
  // How long a didChange waits for the next before its analysis starts, when it comes within
  // this long of the previous event or while an analysis runs or waits; one after a quiet spell
  // is analysed at once, as are didOpen/didSave. The client's `debounceMs` setting overrides it.
  std::chrono::milliseconds debounce{150};
  std::string fallback_root;   // used when the client names no workspace (the cwd)
  unsigned jobs = 0;           // engine threads (0 = all cores)
  std::string version = "0.0.0";
  std::string cache_dir;       // on-disk cache (precompiled preludes, summaries); "" = none
  // Rule doc links (codeDescription.href): docs_base + the rule's .md path in the repository
  // ("rules/arch/x.md"); `cudalint lsp` passes "<repository>/blob/<tag or commit>/". "" = none.
  std::string docs_base;
};

class Server {
 public:
  // `send` receives each outgoing JSON body; it is called from the reader thread and the
  // worker thread, never concurrently.
  using Sender = std::function<void(const std::string& body)>;

  Server(ServerOptions opts, Sender send);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // One incoming message body (anything: it is validated here).
  void handle(std::string_view body);
  // A framing error from the transport: answered with a JSON-RPC parse error.
  void handle_malformed(std::string_view why);

  bool exit_requested() const;      // `exit` was received
  bool shutdown_requested() const;  // `shutdown` was received
  int exit_code() const;            // 0 after shutdown+exit, else 1

  // Blocks until no analysis is pending or running (tests only; not part of the protocol).
  void wait_idle();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads framed messages from `in` until `exit` or end of input; returns the exit status.
int serve(std::istream& in, std::ostream& out, ServerOptions opts);

}  // namespace cudalint::lsp
