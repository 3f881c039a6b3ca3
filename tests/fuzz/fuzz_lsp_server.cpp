// The language server's message handling: after a fixed `initialize` for a small workspace in
// /tmp/cudalint-fuzz-lsp (Dockerfile, setup.py, CMakeLists.txt, cudalint.toml), the input is
// split at "\n#---\n" into message bodies, each handed to Server::handle (any bytes: invalid
// JSON, wrong types, unknown methods, documents in and outside the workspace). Every outgoing
// message must be a JSON object, and the server must go idle (no hang) after the last one.
#include <sys/stat.h>

#include <fstream>

#include "analyzer/lsp/server.h"
#include "llvm/Support/JSON.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

constexpr const char* kRoot = "/tmp/cudalint-fuzz-lsp";

void make_workspace() {
  static const bool done = [] {
    ::mkdir(kRoot, 0755);
    std::ofstream(std::string(kRoot) + "/Dockerfile") << "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                                                         "ENV TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"\n";
    std::ofstream(std::string(kRoot) + "/setup.py") << "from setuptools import setup\nsetup(name='x')\n";
    std::ofstream(std::string(kRoot) + "/CMakeLists.txt") << "project(x LANGUAGES CXX CUDA)\n";
    std::ofstream(std::string(kRoot) + "/cudalint.toml") << "select = [\"ALL\"]\n";
    return true;
  }();
  (void)done;
}

}  // namespace

CUDALINT_FUZZ_TARGET(lsp_server) {
  using namespace cudalint;
  make_workspace();
  size_t sent = 0;
  lsp::ServerOptions so;
  so.debounce = std::chrono::milliseconds(0);
  so.fallback_root = kRoot;
  so.jobs = 1;
  lsp::Server server(so, [&](const std::string& body) {
    auto v = llvm::json::parse(body);
    CUDALINT_FUZZ_CHECK(static_cast<bool>(v) && v->getAsObject());
    ++sent;
  });
  server.handle(std::string(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"rootUri":"file://)") +
                kRoot + R"(","capabilities":{}}})");
  server.handle(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  size_t n = 0;
  for (std::string_view body : fuzz::split_parts(fuzz::as_text(data, size), "\n#---\n", 64)) {
    if (server.exit_requested()) break;
    server.handle(body);
    ++n;
  }
  if (size & 1) server.handle_malformed("fuzz");
  server.wait_idle();
  CUDALINT_FUZZ_CHECK(sent >= 1);  // at least the initialize response
  return 0;
}
