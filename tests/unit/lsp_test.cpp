// Protocol-level tests of `cudalint lsp` (analyzer/lsp): framing, positions, and the server
// driven through in-memory messages against temporary workspaces on disk.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/lsp/positions.h"
#include "analyzer/lsp/server.h"
#include "analyzer/lsp/transport.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace cudalint::lsp {
namespace {

namespace json = llvm::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string to_text(const json::Value& v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  return s;
}

json::Value parse(std::string_view s) {
  auto v = json::parse(s);
  if (!v) {
    ADD_FAILURE() << llvm::toString(v.takeError()) << " in " << s;
    return nullptr;
  }
  return std::move(*v);
}

// ---- transport ----

TEST(LspTransport, ReadsFramedMessagesAndSkipsMalformedHeaders) {
  std::string in = frame(R"({"a":1})") + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" +
                   "Content-Length: 7\r\n\r\n{\"b\":2}" + "garbage without colon\r\n\r\n" +
                   "Content-Length: x12\r\n\r\n" + "Content-Length: 5\n\n{\"c\"}" + frame("{}");
  std::istringstream is(in);
  MessageReader r(is);
  auto m1 = r.next();
  EXPECT_EQ(m1.status, ReadStatus::Message);
  EXPECT_EQ(m1.body, R"({"a":1})");
  auto m2 = r.next();
  EXPECT_EQ(m2.status, ReadStatus::Message);
  EXPECT_EQ(m2.body, R"({"b":2})");
  auto m3 = r.next();
  EXPECT_EQ(m3.status, ReadStatus::Malformed);
  EXPECT_NE(m3.error.find("malformed header line `garbage without colon`"), std::string::npos) << m3.error;
  auto m4 = r.next();
  EXPECT_EQ(m4.status, ReadStatus::Malformed);
  EXPECT_NE(m4.error.find("Content-Length `x12` is not a number"), std::string::npos) << m4.error;
  auto m5 = r.next();  // bare \n line ends are tolerated; the body is handed over as is
  EXPECT_EQ(m5.status, ReadStatus::Message);
  EXPECT_EQ(m5.body, R"({"c"})");
  auto m6 = r.next();
  EXPECT_EQ(m6.status, ReadStatus::Message);
  EXPECT_EQ(m6.body, "{}");
  EXPECT_EQ(r.next().status, ReadStatus::Eof);
}

TEST(LspTransport, OversizedAndTruncatedBodies) {
  // An oversized body is skipped whole and reported; the next message is read normally.
  std::string in = "Content-Length: 20\r\n\r\n01234567890123456789" + frame("{}") + "Content-Length: 50\r\n\r\n{\"x\"";
  std::istringstream is(in);
  MessageReader r(is, 10);
  auto big = r.next();
  EXPECT_EQ(big.status, ReadStatus::Malformed);
  EXPECT_NE(big.error.find("exceeds the 10-byte limit"), std::string::npos) << big.error;
  auto small = r.next();
  EXPECT_EQ(small.status, ReadStatus::Message);
  EXPECT_EQ(small.body, "{}");
  // Oversized and cut short by the end of input: that is the end, not another malformed message.
  EXPECT_EQ(r.next().status, ReadStatus::Eof);

  // Truncated within the limit: end of input, no partial body.
  std::istringstream is2(frame("{}") + "Content-Length: 50\r\n\r\n{\"x\"");
  MessageReader r2(is2);
  EXPECT_EQ(r2.next().body, "{}");
  auto cut = r2.next();
  EXPECT_EQ(cut.status, ReadStatus::Eof);
  EXPECT_TRUE(cut.body.empty());

  // A length beyond any stream size must not wrap around into a small (or negative) skip.
  std::istringstream is3("Content-Length: 18446744073709551615\r\n\r\n" + frame("{}"));
  MessageReader r3(is3, 10);
  EXPECT_EQ(r3.next().status, ReadStatus::Eof);
}

// ---- positions ----

// "é" is 2 bytes / 1 UTF-16 unit; "🚀" 4 bytes / 2 units / 1 code point.
const std::string kMixed = "a\xC3\xA9\xF0\x9F\x9A\x80z\r\nsecond\rthird\n";

TEST(LspPositions, OffsetsInEachEncoding) {
  EXPECT_EQ(offset_at(kMixed, {0, 2}, Encoding::Utf16), 3u);  // after é
  EXPECT_EQ(offset_at(kMixed, {0, 4}, Encoding::Utf16), 7u);  // after 🚀
  EXPECT_EQ(offset_at(kMixed, {0, 3}, Encoding::Utf16), 3u);  // inside 🚀: rounds down
  EXPECT_EQ(offset_at(kMixed, {0, 3}, Encoding::Utf8), 3u);
  EXPECT_EQ(offset_at(kMixed, {0, 7}, Encoding::Utf8), 7u);
  EXPECT_EQ(offset_at(kMixed, {0, 3}, Encoding::Utf32), 7u);
  EXPECT_EQ(offset_at(kMixed, {0, 99}, Encoding::Utf16), 8u);  // clamps before \r\n
  EXPECT_EQ(offset_at(kMixed, {1, 0}, Encoding::Utf16), 10u);
  EXPECT_EQ(offset_at(kMixed, {2, 2}, Encoding::Utf16), 19u);  // lone \r ends a line
  EXPECT_EQ(offset_at(kMixed, {9, 0}, Encoding::Utf16), kMixed.size());
  EXPECT_EQ(position_at(kMixed, 7, Encoding::Utf16), (Position{0, 4}));
  EXPECT_EQ(position_at(kMixed, 7, Encoding::Utf8), (Position{0, 7}));
  EXPECT_EQ(position_at(kMixed, 7, Encoding::Utf32), (Position{0, 3}));
  EXPECT_EQ(position_at(kMixed, 19, Encoding::Utf16), (Position{2, 2}));
  // A cudalint Region (1-based, UTF-16 columns) around "z".
  Region z{1, 5, 1, 6};
  EXPECT_EQ(to_range(kMixed, z, Encoding::Utf16), (Range{{0, 4}, {0, 5}}));
  EXPECT_EQ(to_range(kMixed, z, Encoding::Utf8), (Range{{0, 7}, {0, 8}}));
}

TEST(LspPositions, IncrementalEdits) {
  std::string t = kMixed;
  apply_change(t, {{0, 1}, {0, 4}}, "-", Encoding::Utf16);  // replace "é🚀"
  EXPECT_EQ(t, "a-z\r\nsecond\rthird\n");
  apply_change(t, {{1, 6}, {2, 0}}, " ", Encoding::Utf16);  // join lines across the lone \r
  EXPECT_EQ(t, "a-z\r\nsecond third\n");
  apply_change(t, {{3, 0}, {3, 0}}, "end", Encoding::Utf8);  // at the very end
  EXPECT_EQ(t, "a-z\r\nsecond third\nend");
}

// ---- server ----

std::string make_temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "cudalint-lsp-XXXXXX").string();
  char* d = ::mkdtemp(tmpl.data());
  EXPECT_NE(d, nullptr);
  return fs::canonical(tmpl).string();
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string uri(const std::string& path) { return "file://" + path; }

// An in-memory client: collects what the server sends and waits for it.
class Client {
 public:
  explicit Client(ServerOptions opts = quick())
      : server_(std::move(opts), [this](const std::string& body) {
          std::lock_guard lk(mu_);
          received_.push_back(parse(body));
          cv_.notify_all();
        }) {}

  static ServerOptions quick() {
    ServerOptions o;
    o.debounce = 20ms;
    o.jobs = 2;
    o.version = "9.9.9";
    o.docs_base = "https://github.com/cudalint/cudalint/blob/v9.9.9/";
    return o;
  }

  ~Client() { server_.handle(R"({"jsonrpc":"2.0","method":"exit"})"); }

  Server& server() { return server_; }

  void raw(std::string_view body) { server_.handle(body); }

  json::Value request(const std::string& method, json::Value params) {
    int64_t id = next_id_++;
    server_.handle(to_text(json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}));
    return wait_for([&](const json::Object& m) { return m.getInteger("id") == id && !m.get("method"); });
  }

  void notify(const std::string& method, json::Value params) {
    server_.handle(to_text(json::Object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}}));
  }

  json::Value initialize(const std::string& root, json::Object caps = {}, json::Value init = nullptr) {
    json::Object p{{"processId", nullptr}, {"rootUri", uri(root)}, {"capabilities", std::move(caps)}};
    if (init.kind() != json::Value::Null) p["initializationOptions"] = std::move(init);
    json::Value r = request("initialize", std::move(p));
    notify("initialized", json::Object{});
    return r;
  }

  void open(const std::string& path, const std::string& text, int64_t version = 1) {
    notify("textDocument/didOpen",
           json::Object{{"textDocument",
                         json::Object{{"uri", uri(path)}, {"languageId", "plaintext"}, {"version", version}, {"text", text}}}});
  }

  void change(const std::string& path, int64_t version, json::Array changes) {
    notify("textDocument/didChange",
           json::Object{{"textDocument", json::Object{{"uri", uri(path)}, {"version", version}}},
                        {"contentChanges", std::move(changes)}});
  }

  // The first message (not yet consumed) satisfying `pred`; consumes it.
  json::Value wait_for(const std::function<bool(const json::Object&)>& pred, std::chrono::milliseconds timeout = 60s) {
    std::unique_lock lk(mu_);
    json::Value found = nullptr;
    bool ok = cv_.wait_for(lk, timeout, [&] {
      for (size_t i = 0; i < received_.size(); ++i)
        if (auto* o = received_[i].getAsObject(); o && pred(*o)) {
          found = std::move(received_[i]);
          received_.erase(received_.begin() + static_cast<long>(i));
          return true;
        }
      return false;
    });
    if (!ok) ADD_FAILURE() << "timed out waiting for a message; received: " << dump_locked();
    return found;
  }

  // The next publishDiagnostics for `path` (its params); with `version`, the next one for that
  // document version (earlier ones stay queued; they are not skipped silently).
  json::Object wait_publish(const std::string& path, std::optional<int64_t> version = std::nullopt) {
    json::Value m = wait_for([&](const json::Object& o) {
      if (o.getString("method") != "textDocument/publishDiagnostics") return false;
      auto p = o.getObject("params");
      return p && p->getString("uri") == uri(path) && (!version || p->getInteger("version") == *version);
    });
    auto* o = m.getAsObject();
    return o && o->getObject("params") ? *o->getObject("params") : json::Object{};
  }

  // All messages received so far (not consumed).
  std::vector<json::Value> drain() {
    std::lock_guard lk(mu_);
    return std::exchange(received_, {});
  }

  // Once the server is idle: nothing was published since the last wait (for `path` only, when
  // given). Consumes what was received.
  void expect_no_publish(std::optional<std::string> path = std::nullopt) {
    server_.wait_idle();
    for (const auto& m : drain()) {
      const json::Object* o = m.getAsObject();
      if (o->getString("method") != "textDocument/publishDiagnostics") continue;
      const json::Object* params = o->getObject("params");
      EXPECT_TRUE(path && params && params->getString("uri") != uri(*path)) << to_text(m);
    }
  }

 private:
  std::string dump_locked() {
    std::string s;
    for (const auto& v : received_) s += to_text(v) + "\n";
    return s;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<json::Value> received_;
  int64_t next_id_ = 1;
  Server server_;  // last: destroyed first, so its worker stops before the queue goes
};

const json::Array& diags_of(const json::Object& publish) {
  static const json::Array empty;
  auto* a = publish.getArray("diagnostics");
  return a ? *a : empty;
}

std::vector<std::string> codes(const json::Array& diags) {
  std::vector<std::string> out;
  for (const auto& d : diags)
    if (auto* o = d.getAsObject()) out.push_back(o->getString("code").value_or("?").str());
  return out;
}

json::Object range_obj(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
  return json::Object{{"start", json::Object{{"line", l1}, {"character", c1}}},
                      {"end", json::Object{{"line", l2}, {"character", c2}}}};
}

const std::string kBadArchDocker =
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
    "ENV TORCH_CUDA_ARCH_LIST=\"sm_80\"\n";
const std::string kGoodArchDocker =
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
    "ENV TORCH_CUDA_ARCH_LIST=\"8.0\"\n";

TEST(LspServer, InitializeAdvertisesWhatIsImplemented) {
  std::string root = make_temp_dir();
  {
    Client c;
    json::Value r = c.initialize(root);
    auto* res = r.getAsObject()->getObject("result");
    ASSERT_TRUE(res);
    auto* caps = res->getObject("capabilities");
    EXPECT_EQ(caps->getString("positionEncoding"), "utf-16");
    EXPECT_EQ(caps->getObject("textDocumentSync")->getInteger("change"), 2);
    EXPECT_EQ(caps->getObject("textDocumentSync")->getBoolean("openClose"), true);
    EXPECT_EQ(caps->getBoolean("hoverProvider"), true);
    EXPECT_EQ(to_text(*caps->get("codeActionProvider")), R"({"codeActionKinds":["quickfix","source.fixAll.cudalint"]})");
    EXPECT_FALSE(caps->get("diagnosticProvider")) << "push-only client must not see diagnosticProvider";
    EXPECT_FALSE(caps->get("completionProvider"));
    EXPECT_EQ(res->getObject("serverInfo")->getString("name"), "cudalint");
    EXPECT_EQ(res->getObject("serverInfo")->getString("version"), "9.9.9");
  }
  {
    Client c;
    json::Value r = c.initialize(root, json::Object{{"general", json::Object{{"positionEncodings", json::Array{"utf-8", "utf-16"}}}},
                                                    {"textDocument", json::Object{{"diagnostic", json::Object{}}}}});
    auto* caps = r.getAsObject()->getObject("result")->getObject("capabilities");
    EXPECT_EQ(caps->getString("positionEncoding"), "utf-8");
    ASSERT_TRUE(caps->getObject("diagnosticProvider"));
    EXPECT_EQ(caps->getObject("diagnosticProvider")->getBoolean("interFileDependencies"), true);
  }
  // Position encoding: utf-8 whenever offered (wherever in the list), else the mandatory utf-16.
  auto negotiated = [&](json::Array offered) {
    Client c;
    json::Value r = c.initialize(root, json::Object{{"general", json::Object{{"positionEncodings", std::move(offered)}}}});
    return r.getAsObject()->getObject("result")->getObject("capabilities")->getString("positionEncoding").value_or("").str();
  };
  EXPECT_EQ(negotiated(json::Array{"utf-16", "utf-8"}), "utf-8");
  EXPECT_EQ(negotiated(json::Array{"utf-32", "utf-8", "utf-16"}), "utf-8");
  EXPECT_EQ(negotiated(json::Array{"utf-32"}), "utf-16");
  EXPECT_EQ(negotiated(json::Array{}), "utf-16");
  fs::remove_all(root);
}

TEST(LspServer, MalformedInputGetsErrorsAndTheServerKeepsRunning) {
  std::string root = make_temp_dir();
  Client c;
  // Before initialize.
  json::Value early = c.request("textDocument/hover", json::Object{});
  EXPECT_EQ(early.getAsObject()->getObject("error")->getInteger("code"), -32002);
  c.raw("{not json");
  json::Value e1 = c.wait_for([](const json::Object& o) { return o.get("error") != nullptr; });
  EXPECT_EQ(e1.getAsObject()->getObject("error")->getInteger("code"), -32700);
  EXPECT_EQ(e1.getAsObject()->get("id")->kind(), json::Value::Null);
  c.raw("[1,2]");
  EXPECT_EQ(c.wait_for([](const json::Object& o) { return o.get("error") != nullptr; })
                .getAsObject()->getObject("error")->getInteger("code"),
            -32600);
  c.raw(R"({"jsonrpc":"2.0","id":{"x":1},"method":"initialize"})");
  EXPECT_EQ(c.wait_for([](const json::Object& o) { return o.get("error") != nullptr; })
                .getAsObject()->getObject("error")->getInteger("code"),
            -32600);
  c.server().handle_malformed("message without a Content-Length header");
  EXPECT_EQ(c.wait_for([](const json::Object& o) { return o.get("error") != nullptr; })
                .getAsObject()->getObject("error")->getString("message"),
            "message without a Content-Length header");

  json::Value init = c.initialize(root);
  EXPECT_TRUE(init.getAsObject()->getObject("result"));
  EXPECT_EQ(c.request("initialize", json::Object{}).getAsObject()->getObject("error")->getInteger("code"), -32600);
  EXPECT_EQ(c.request("textDocument/definition", json::Object{}).getAsObject()->getObject("error")->getInteger("code"),
            -32601);
  // Pull diagnostics were not negotiated: the method does not exist for this client.
  EXPECT_EQ(c.request("textDocument/diagnostic", json::Object{}).getAsObject()->getObject("error")->getInteger("code"),
            -32601);
  EXPECT_EQ(c.request("textDocument/hover", json::Object{{"textDocument", 3}}).getAsObject()->getObject("error")->getInteger("code"),
            -32602);
  c.raw(R"({"jsonrpc":"2.0","id":77,"method":"textDocument/codeAction","params":[1]})");
  EXPECT_EQ(c.wait_for([](const json::Object& o) { return o.getInteger("id") == 77; })
                .getAsObject()->getObject("error")->getInteger("code"),
            -32602);
  c.notify("$/setTrace", json::Object{{"value", "off"}});        // ignored
  c.notify("textDocument/didChange", json::Object{{"x", 1}});    // logged, not fatal
  json::Value log = c.wait_for([](const json::Object& o) { return o.getString("method") == "window/logMessage"; });
  EXPECT_NE(to_text(log).find("textDocument/didChange"), std::string::npos);
  // Still alive and analysing.
  write(root + "/Dockerfile", kBadArchDocker);
  c.open(root + "/Dockerfile", kBadArchDocker);
  EXPECT_EQ(codes(diags_of(c.wait_publish(root + "/Dockerfile"))), std::vector<std::string>{"ARCH004"});

  json::Value sd = c.request("shutdown", nullptr);
  EXPECT_EQ(sd.getAsObject()->get("result")->kind(), json::Value::Null);
  EXPECT_EQ(c.request("textDocument/hover", json::Object{}).getAsObject()->getObject("error")->getInteger("code"), -32600);
  EXPECT_FALSE(c.server().exit_requested());
  c.notify("exit", nullptr);
  EXPECT_TRUE(c.server().exit_requested());
  EXPECT_EQ(c.server().exit_code(), 0);
  fs::remove_all(root);
}

TEST(LspServer, ServeOverStreamsExitsCleanly) {
  std::string root = make_temp_dir();
  auto msg = [](const std::string& s) { return frame(s); };
  std::string in = msg(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":")" + uri(root) +
                       R"(","capabilities":{}}})") +
                   "Content-Length: 3\r\n\r\n{x}" + msg(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})") +
                   msg(R"({"jsonrpc":"2.0","method":"exit"})") + msg(R"({"jsonrpc":"2.0","id":3,"method":"never-read"})");
  std::istringstream is(in);
  std::ostringstream os;
  EXPECT_EQ(serve(is, os, Client::quick()), 0);
  std::string out = os.str();
  EXPECT_NE(out.find(R"("id":1,"jsonrpc":"2.0","result":{"capabilities")"), std::string::npos) << out;
  EXPECT_NE(out.find(R"("code":-32700)"), std::string::npos) << out;
  EXPECT_NE(out.find(R"({"id":2,"jsonrpc":"2.0","result":null})"), std::string::npos) << out;
  EXPECT_EQ(out.find(R"("id":3)"), std::string::npos) << "nothing is read after exit";
  // Every byte on stdout is a framed message.
  std::istringstream back(out);
  MessageReader r(back);
  int n = 0;
  for (auto m = r.next(); m.status != ReadStatus::Eof; m = r.next()) {
    EXPECT_EQ(m.status, ReadStatus::Message);
    ++n;
  }
  EXPECT_EQ(n, 3);

  // exit without shutdown, and end of input without exit: status 1.
  std::istringstream is2(msg(R"({"jsonrpc":"2.0","method":"exit"})"));
  std::ostringstream os2;
  EXPECT_EQ(serve(is2, os2, Client::quick()), 1);
  std::istringstream is3("");
  EXPECT_EQ(serve(is3, os2, Client::quick()), 1);
  fs::remove_all(root);
}

TEST(LspServer, UnsavedBufferIsAnalysedAndIncrementalChangesUpdateIt) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kGoodArchDocker);  // the disk is clean; the buffer is not
  Client c;
  c.initialize(root, json::Object{{"textDocument", json::Object{{"publishDiagnostics", json::Object{{"relatedInformation", true}}}}}});
  // A comment with non-BMP characters before the finding's line: columns are UTF-16.
  std::string text = "# \xF0\x9F\x9A\x80 rockets\n" + kBadArchDocker;
  c.open(docker, text, 3);
  json::Object p = c.wait_publish(docker);
  EXPECT_EQ(p.getInteger("version"), 3);
  ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
  auto* d = diags_of(p)[0].getAsObject();
  EXPECT_EQ(d->getString("source"), "cudalint");
  EXPECT_EQ(d->getInteger("severity"), 1);
  EXPECT_EQ(d->getObject("codeDescription")->getString("href"),
            "https://github.com/cudalint/cudalint/blob/v9.9.9/rules/arch/arch_list_spelling_rejected_by_torch.md");
  EXPECT_NE(d->getString("message")->find("`sm_80`"), llvm::StringRef::npos);
  EXPECT_EQ(to_text(*d->get("range")), to_text(range_obj(2, 26, 2, 31)));

  // Line 0 becomes "# 🚀🚀 rockets": UTF-16 character 4 is after the first rocket.
  c.change(docker, 4, json::Array{json::Object{{"range", range_obj(0, 4, 0, 4)}, {"text", "\xF0\x9F\x9A\x80"}}});
  p = c.wait_publish(docker);
  EXPECT_EQ(p.getInteger("version"), 4);
  EXPECT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
  // Replace `sm_80` (line 2, characters 26..31) with `8.0`: the finding goes away.
  c.change(docker, 5, json::Array{json::Object{{"range", range_obj(2, 26, 2, 31)}, {"text", "8.0"}}});
  p = c.wait_publish(docker);
  EXPECT_EQ(p.getInteger("version"), 5);
  EXPECT_TRUE(diags_of(p).empty()) << to_text(json::Value(json::Object(p)));
  // A full-text change (no range) works too.
  c.change(docker, 6, json::Array{json::Object{{"text", kBadArchDocker}}});
  EXPECT_EQ(codes(diags_of(c.wait_publish(docker))), std::vector<std::string>{"ARCH004"});
  // Closing clears what the editor shows.
  c.notify("textDocument/didClose", json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}}});
  EXPECT_TRUE(diags_of(c.wait_publish(docker)).empty());
  fs::remove_all(root);
}

TEST(LspServer, Utf8PositionEncoding) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kBadArchDocker);
  std::string line2 = "ENV A=\"\xC3\xA9\" TORCH_CUDA_ARCH_LIST=\"sm_80\"";
  std::string text = "# \xC3\xA9\xC3\xA9\n" "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n" + line2 + "\n";
  // `ENV A="` is 7 bytes, é 2 bytes but 1 UTF-16 unit, `" TORCH_CUDA_ARCH_LIST="` 24 bytes:
  // `sm_80` starts at character 33 in UTF-8 (bytes) and at 32 in UTF-16.
  ASSERT_EQ(line2.find("sm_80"), 33u);
  {
    Client c;
    json::Value init = c.initialize(root, json::Object{{"general", json::Object{{"positionEncodings", json::Array{"utf-8"}}}}});
    EXPECT_EQ(init.getAsObject()->getObject("result")->getObject("capabilities")->getString("positionEncoding"), "utf-8");
    c.open(docker, text);
    json::Object p = c.wait_publish(docker, 1);
    ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
    EXPECT_EQ(to_text(*diags_of(p)[0].getAsObject()->get("range")), to_text(range_obj(2, 33, 2, 38)));
    // Edits arrive in UTF-8 too: replace the two-byte é (bytes 7..9 of line 2) with "x".
    c.change(docker, 2, json::Array{json::Object{{"range", range_obj(2, 7, 2, 9)}, {"text", "x"}}});
    p = c.wait_publish(docker, 2);
    ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
    EXPECT_EQ(to_text(*diags_of(p)[0].getAsObject()->get("range")), to_text(range_obj(2, 32, 2, 37)));
    // A code action's edit is in the negotiated encoding as well.
    json::Value r = c.request("textDocument/codeAction",
                              json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}},
                                           {"range", range_obj(2, 32, 2, 32)},
                                           {"context", json::Object{{"diagnostics", json::Array{diags_of(p)[0]}}}}});
    EXPECT_NE(to_text(r).find(R"({"newText":"8.0","range":{"end":{"character":37,"line":2},"start":{"character":32,"line":2}}})"),
              std::string::npos)
        << to_text(r);
  }
  {
    // The same text for a UTF-16 client (no positionEncodings): é counts one unit.
    Client c;
    c.initialize(root);
    c.open(docker, text);
    json::Object p = c.wait_publish(docker, 1);
    ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
    EXPECT_EQ(to_text(*diags_of(p)[0].getAsObject()->get("range")), to_text(range_obj(2, 32, 2, 37)));
    // In UTF-16 the é is characters 7..8.
    c.change(docker, 2, json::Array{json::Object{{"range", range_obj(2, 7, 2, 8)}, {"text", "x"}}});
    p = c.wait_publish(docker, 2);
    ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
    EXPECT_EQ(to_text(*diags_of(p)[0].getAsObject()->get("range")), to_text(range_obj(2, 32, 2, 37)));
  }
  fs::remove_all(root);
}

// After a burst of edits of `docker` ending with `last` (its bad arch list): the next publish is
// that version's ARCH004. Only when the burst took longer than the debounce (this thread was
// descheduled: a loaded sanitizer run) may an earlier version have been published first; then
// the publish of `last` is waited for.
void expect_burst_published_last(Client& c, const std::string& docker, int64_t last, bool within_debounce) {
  json::Object p = c.wait_publish(docker, within_debounce ? std::nullopt : std::optional<int64_t>(last));
  EXPECT_EQ(p.getInteger("version"), last);
  EXPECT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
}

TEST(LspServer, DebounceSupersedesPendingAnalyses) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kGoodArchDocker);
  ServerOptions o = Client::quick();
  o.debounce = 400ms;
  Client c(o);
  c.initialize(root);
  auto first = std::chrono::steady_clock::now();
  c.open(docker, kGoodArchDocker, 1);
  EXPECT_TRUE(diags_of(c.wait_publish(docker)).empty());
  // Five quick edits, the first within the debounce of the open: only the last version is
  // analysed and published.
  for (int v = 2; v <= 6; ++v)
    c.change(docker, v, json::Array{json::Object{{"text", v % 2 ? kGoodArchDocker : kBadArchDocker}}});
  auto sent = std::chrono::steady_clock::now() - first;
  bool within_debounce = sent < o.debounce;
  expect_burst_published_last(c, docker, 6, within_debounce);
  if (within_debounce) c.expect_no_publish();
  else c.server().wait_idle();
  fs::remove_all(root);
}

// An edit after a quiet spell is analysed at once; the edits that follow it within the debounce
// wait for the last.
TEST(LspServer, AnEditAfterAQuietSpellIsAnalysedAtOnce) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kGoodArchDocker);
  ServerOptions o = Client::quick();
  o.debounce = 1500ms;
  Client c(o);
  c.initialize(root);
  c.open(docker, kGoodArchDocker, 1);
  EXPECT_TRUE(diags_of(c.wait_publish(docker, 1)).empty());
  std::this_thread::sleep_for(o.debounce + 100ms);
  auto edited = std::chrono::steady_clock::now();
  c.change(docker, 2, json::Array{json::Object{{"text", kBadArchDocker}}});
  EXPECT_EQ(codes(diags_of(c.wait_publish(docker, 2))), std::vector<std::string>{"ARCH004"});
  EXPECT_LT(std::chrono::steady_clock::now() - edited, o.debounce);
  // Right after it, two more: the first of them is not analysed on its own.
  c.change(docker, 3, json::Array{json::Object{{"text", kGoodArchDocker}}});
  c.change(docker, 4, json::Array{json::Object{{"text", kBadArchDocker}}});
  expect_burst_published_last(c, docker, 4, std::chrono::steady_clock::now() - edited < o.debounce);
  fs::remove_all(root);
}

TEST(LspServer, DebounceSetting) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kGoodArchDocker);
  ServerOptions o = Client::quick();
  o.debounce = std::chrono::minutes(10);  // only the setting can make the change land in time
  Client c(o);
  c.initialize(root, json::Object{}, json::Object{{"cudalint", json::Object{{"debounceMs", 0}}}});
  c.open(docker, kGoodArchDocker, 1);
  EXPECT_TRUE(diags_of(c.wait_publish(docker, 1)).empty());
  c.change(docker, 2, json::Array{json::Object{{"text", kBadArchDocker}}});
  EXPECT_EQ(codes(diags_of(c.wait_publish(docker, 2))), std::vector<std::string>{"ARCH004"});
  // Out of range: reported and ignored (the server default applies again).
  c.notify("workspace/didChangeConfiguration",
           json::Object{{"settings", json::Object{{"cudalint", json::Object{{"debounceMs", -5}}}}}});
  json::Value warn = c.wait_for([](const json::Object& m) { return m.getString("method") == "window/showMessage"; });
  EXPECT_NE(to_text(warn).find("debounceMs"), std::string::npos) << to_text(warn);
  fs::remove_all(root);
}

TEST(LspServer, QuickFixSuppressionAndHover) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kBadArchDocker);
  Client c;
  c.initialize(root);
  c.open(docker, kBadArchDocker);
  json::Object p = c.wait_publish(docker);
  ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH004"});
  json::Value diag = diags_of(p)[0];
  json::Value r = c.request("textDocument/codeAction",
                            json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}},
                                         {"range", range_obj(1, 26, 1, 26)},
                                         {"context", json::Object{{"diagnostics", json::Array{diag}}}}});
  auto* actions = r.getAsObject()->getArray("result");
  ASSERT_TRUE(actions);
  ASSERT_EQ(actions->size(), 2u) << to_text(r);
  auto* fix = (*actions)[0].getAsObject();
  EXPECT_EQ(fix->getString("kind"), "quickfix");
  EXPECT_EQ(fix->getBoolean("isPreferred"), true);
  EXPECT_EQ(to_text(*fix->getObject("edit")->getObject("changes")->get(uri(docker))),
            R"([{"newText":"8.0","range":{"end":{"character":31,"line":1},"start":{"character":26,"line":1}}}])");
  auto* sup = (*actions)[1].getAsObject();
  EXPECT_EQ(sup->getString("title"), "Suppress ARCH004 on this line");
  EXPECT_EQ(to_text(*sup->getObject("edit")->getObject("changes")->get(uri(docker))),
            R"([{"newText":"# cudalint: ignore[ARCH004]\n","range":{"end":{"character":0,"line":1},"start":{"character":0,"line":1}}}])");
  // Applying the suppression silences the finding (and SUP001 stays quiet: it is used).
  c.change(docker, 2, json::Array{json::Object{{"range", range_obj(1, 0, 1, 0)}, {"text", "# cudalint: ignore[ARCH004]\n"}}});
  EXPECT_TRUE(diags_of(c.wait_publish(docker)).empty());
  // `only` filters kinds; source.fixAll gathers every safe fix of the file.
  c.change(docker, 3, json::Array{json::Object{{"text", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"sm_80;sm_90\"\n"}}});
  p = c.wait_publish(docker);
  ASSERT_EQ(codes(diags_of(p)), (std::vector<std::string>{"ARCH004", "ARCH004"}));
  r = c.request("textDocument/codeAction",
                json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}},
                             {"range", range_obj(0, 0, 0, 0)},
                             {"context", json::Object{{"diagnostics", json::Array{}}, {"only", json::Array{"source.fixAll"}}}}});
  actions = r.getAsObject()->getArray("result");
  ASSERT_EQ(actions->size(), 1u) << to_text(r);
  EXPECT_EQ((*actions)[0].getAsObject()->getString("kind"), "source.fixAll.cudalint");
  EXPECT_EQ(to_text(*(*actions)[0].getAsObject()->getObject("edit")->getObject("changes")->get(uri(docker))),
            R"([{"newText":"8.0","range":{"end":{"character":31,"line":1},"start":{"character":26,"line":1}}},)"
            R"({"newText":"9.0","range":{"end":{"character":37,"line":1},"start":{"character":32,"line":1}}}])");

  // Hover on the finding shows the rule's documentation; elsewhere nothing.
  json::Value h = c.request("textDocument/hover", json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}},
                                                               {"position", json::Object{{"line", 1}, {"character", 28}}}});
  auto* hc = h.getAsObject()->getObject("result")->getObject("contents");
  EXPECT_EQ(hc->getString("kind"), "markdown");
  EXPECT_NE(hc->getString("value")->find("# arch-list-spelling-rejected-by-torch (ARCH004)"), llvm::StringRef::npos);
  EXPECT_NE(hc->getString("value")->find("## What it does"), llvm::StringRef::npos);
  EXPECT_NE(hc->getString("value")->find("Severity: error."), llvm::StringRef::npos);
  h = c.request("textDocument/hover", json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}},
                                                   {"position", json::Object{{"line", 0}, {"character", 1}}}});
  EXPECT_EQ(h.getAsObject()->get("result")->kind(), json::Value::Null);
  fs::remove_all(root);
}

TEST(LspServer, SuppressionMergesIntoAnExistingCommentAndUsesTheFilesSyntax) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  std::string text = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                     "  # cudalint: ignore[ARCH003]\n"
                     "  ENV TORCH_CUDA_ARCH_LIST=\"sm_80\"\n";
  write(docker, text);
  Client c;
  c.initialize(root);
  c.open(docker, text);
  json::Object p = c.wait_publish(docker);
  // ARCH003 is not there, so the suppression is unused (SUP001) and ARCH004 fires.
  ASSERT_EQ(codes(diags_of(p)), (std::vector<std::string>{"SUP001", "ARCH004"}));
  json::Value diag = diags_of(p)[1];
  json::Value r = c.request("textDocument/codeAction",
                            json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}},
                                         {"range", range_obj(2, 0, 2, 0)},
                                         {"context", json::Object{{"diagnostics", json::Array{diag}}}}});
  std::string all = to_text(r);
  EXPECT_NE(all.find(R"({"newText":",ARCH004","range":{"end":{"character":28,"line":1},"start":{"character":28,"line":1}}})"),
            std::string::npos)
      << all;

  // CUDA sources take `//` comments, indented like the flagged line.
  std::string cu = root + "/k.cu";
  std::string cu_text = "__global__ void k() {\n    // cudalint: ignore[ARCH001]\n}\n";
  write(cu, cu_text);
  c.open(cu, cu_text);
  p = c.wait_publish(cu);
  ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"SUP001"});
  r = c.request("textDocument/codeAction", json::Object{{"textDocument", json::Object{{"uri", uri(cu)}}},
                                                        {"range", range_obj(1, 0, 1, 0)},
                                                        {"context", json::Object{{"diagnostics", json::Array(diags_of(p))}}}});
  all = to_text(r);
  EXPECT_NE(all.find(R"("newText":"    // cudalint: ignore[SUP001]\n")"), std::string::npos) << all;
  // SUP001's own fix removes the comment.
  EXPECT_NE(all.find(R"("isPreferred":true)"), std::string::npos) << all;
  // Hovering a rule id inside a suppression comment explains that rule.
  json::Value h = c.request("textDocument/hover", json::Object{{"textDocument", json::Object{{"uri", uri(cu)}}},
                                                               {"position", json::Object{{"line", 1}, {"character", 25}}}});
  EXPECT_NE(to_text(h).find("arch-list-missing-in-gpuless-build (ARCH001)"), std::string::npos) << to_text(h);
  fs::remove_all(root);
}

TEST(LspServer, BuildFileChangesReDiagnoseOtherOpenFiles) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile", setup = root + "/setup.py", cu = root + "/ext.cu";
  std::string docker_text = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY . /src\nRUN pip install /src\n";
  std::string setup_text =
      "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
      "setup(name=\"ext\", ext_modules=[CUDAExtension(\"ext\", [\"ext.cu\"])], cmdclass={\"build_ext\": BuildExtension})\n";
  write(docker, docker_text);
  write(setup, setup_text);
  write(cu, "__global__ void k() {}\n");
  Client c;
  c.initialize(root);
  c.open(docker, docker_text);
  json::Object p = c.wait_publish(docker);
  ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"ARCH001"});
  // The evidence in another file comes as relatedInformation.
  auto* rel = diags_of(p)[0].getAsObject()->getArray("relatedInformation");
  ASSERT_TRUE(rel) << to_text(diags_of(p)[0]);
  EXPECT_NE(to_text(json::Array(*rel)).find(uri(cu)), std::string::npos) << to_text(json::Array(*rel));
  c.open(setup, setup_text);
  c.wait_publish(setup, 1);
  // Opening setup.py (same text as on disk) changed nothing for the Dockerfile: it is not
  // re-sent, so the next Dockerfile publish below can only come from the edit.
  c.expect_no_publish();
  // Choosing an arch list in the unsaved setup.py clears the Dockerfile's finding.
  c.change(setup, 2, json::Array{json::Object{{"range", range_obj(2, 0, 2, 0)},
                                              {"text", "import os\nos.environ.setdefault(\"TORCH_CUDA_ARCH_LIST\", \"8.0;9.0\")\n"}}});
  c.wait_publish(setup, 2);
  p = c.wait_publish(docker, 1);
  EXPECT_TRUE(diags_of(p).empty()) << to_text(json::Value(json::Object(p)));
  fs::remove_all(root);
}

// A Dockerfile that builds the tree for sm_75 and sm_80, and a kernel with an intrinsic sm_80 has
// and sm_75 lacks: the newest arch finds nothing, the full run INTR001.
constexpr std::string_view kTwoArchDockerfile =
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install torch==2.5.1\nENV TORCH_CUDA_ARCH_LIST=\"7.5;8.0\"\n"
    "COPY . /src\nRUN pip install --no-build-isolation /src\n";
constexpr std::string_view kWarpSumKernel =
    "__device__ unsigned warp_sum(unsigned v) { return __reduce_add_sync(0xffffffffu, v); }\n"
    "__global__ void sum(const unsigned* in, unsigned* out) { out[blockIdx.x] = warp_sum(in[threadIdx.x]); }\n";

TEST(LspServer, DockerfileArchListReDiagnosesOpenCudaSources) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile", cu = root + "/sum.cu";
  std::string docker_text(kTwoArchDockerfile);
  std::string cu_text(kWarpSumKernel);
  write(docker, docker_text);
  write(cu, cu_text);
  Client c;
  c.initialize(root);
  c.open(cu, cu_text);
  // The newest arch's findings first (sm_80 has the intrinsic), then every arch's.
  json::Object p = c.wait_publish(cu, 1);
  EXPECT_TRUE(diags_of(p).empty()) << to_text(json::Value(json::Object(p)));
  p = c.wait_publish(cu, 1);
  ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"INTR001"});
  c.open(docker, docker_text);
  c.wait_publish(docker);
  // Opening the Dockerfile (as on disk) changed nothing for sum.cu: it is not re-sent.
  c.expect_no_publish();
  // Dropping 7.5 from the (unsaved) Dockerfile re-diagnoses the open .cu file: one arch, one pass.
  c.change(docker, 2, json::Array{json::Object{{"range", range_obj(2, 26, 2, 30)}, {"text", ""}}});
  p = c.wait_publish(cu);
  EXPECT_TRUE(diags_of(p).empty()) << to_text(json::Value(json::Object(p)));
  c.expect_no_publish(cu);
  fs::remove_all(root);
}

// The first pass (the newest arch) does not call a suppression unused that an older arch's
// finding uses; the full run finds it used.
TEST(LspServer, FirstPassLeavesSuppressionsToTheFullRun) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile", cu = root + "/sum.cu";
  write(docker, std::string(kTwoArchDockerfile));
  write(root + "/cudalint.toml", "extend-select = [\"SUP\"]\n");
  std::string cu_text = "// cudalint: ignore[INTR001]\n" + std::string(kWarpSumKernel);
  write(cu, cu_text);
  Client c;
  c.initialize(root);
  c.open(cu, cu_text);
  json::Object first = c.wait_publish(cu, 1);
  EXPECT_TRUE(diags_of(first).empty()) << to_text(json::Value(json::Object(first)));
  json::Object full = c.wait_publish(cu, 1);
  EXPECT_TRUE(diags_of(full).empty()) << to_text(json::Value(json::Object(full)));
  // Without the suppression the full run has the sm_75 finding. (Whether this edit gets a first
  // pass depends on how long the last full run took: the last publish is the full run's.)
  c.change(cu, 2, json::Array{json::Object{{"range", range_obj(0, 0, 1, 0)}, {"text", ""}}});
  json::Object last = c.wait_publish(cu, 2);
  c.server().wait_idle();
  for (const auto& m : c.drain())
    if (auto* params = m.getAsObject()->getObject("params"); params && params->getString("uri") == uri(cu))
      last = *params;
  EXPECT_EQ(codes(diags_of(last)), std::vector<std::string>{"INTR001"});
  fs::remove_all(root);
}

// Once the server is idle: the last publish of each document since the last wait (consumed).
std::map<std::string, json::Object> settle(Client& c) {
  c.server().wait_idle();
  std::map<std::string, json::Object> last;
  for (const auto& m : c.drain())
    if (auto* params = m.getAsObject()->getObject("params"))
      if (auto u = params->getString("uri")) last[u->str()] = *params;
  return last;
}

// A use in an open header that only an includer's instantiation makes device code: shown in the
// header, whose own parse does not see it, and at the includer's `#include` line while the header
// is not open.
TEST(LspServer, OpenHeadersShowTheirIncludersFindings) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile", h = root + "/include/warp.cuh", cu = root + "/kernels/sum.cu";
  write(docker, std::string(kTwoArchDockerfile));
  std::string h_text = "template <class T> __device__ T warp_sum(T v) { return __reduce_add_sync(0xffffffffu, v); }\n";
  std::string cu_text =
      "#include \"../include/warp.cuh\"\n"
      "__global__ void sum(const unsigned* in, unsigned* out) { out[blockIdx.x] = warp_sum(in[threadIdx.x]); }\n";
  write(h, h_text);
  write(cu, cu_text);
  Client c;
  c.initialize(root);
  auto line_of = [](const json::Object& publish) -> int64_t {
    const json::Array& d = diags_of(publish);
    return d.empty() ? -1 : *d[0].getAsObject()->getObject("range")->getObject("start")->getInteger("line");
  };
  // The header is not open: the source shows the finding at its `#include` line.
  c.open(cu, cu_text);
  auto last = settle(c);
  ASSERT_EQ(codes(diags_of(last[uri(cu)])), std::vector<std::string>{"INTR001"});
  EXPECT_EQ(line_of(last[uri(cu)]), 0);
  EXPECT_NE(to_text(diags_of(last[uri(cu)])[0]).find("in `warp.cuh`, included here"), std::string::npos);
  // Opened, the header shows it where it is, and the source no longer does.
  c.open(h, h_text);
  last = settle(c);
  EXPECT_EQ(codes(diags_of(last[uri(h)])), std::vector<std::string>{"INTR001"});
  EXPECT_EQ(line_of(last[uri(h)]), 0);
  ASSERT_TRUE(last.count(uri(cu)));
  EXPECT_TRUE(diags_of(last[uri(cu)]).empty()) << to_text(json::Value(json::Object(last[uri(cu)])));
  // Editing the header checks the source with it: the finding moves with the line.
  c.change(h, 2, json::Array{json::Object{{"range", range_obj(0, 0, 0, 0)}, {"text", "#pragma once\n"}}});
  last = settle(c);
  EXPECT_EQ(codes(diags_of(last[uri(h)])), std::vector<std::string>{"INTR001"});
  EXPECT_EQ(line_of(last[uri(h)]), 1);
  EXPECT_FALSE(last.count(uri(cu)));  // unchanged: not sent again
  // A source that stops instantiating the template clears the header's finding.
  c.change(cu, 2, json::Array{json::Object{{"range", range_obj(1, 75, 1, 84)}, {"text", "("}}});
  last = settle(c);
  ASSERT_TRUE(last.count(uri(h)));
  EXPECT_TRUE(diags_of(last[uri(h)]).empty()) << to_text(json::Value(json::Object(last[uri(h)])));
  EXPECT_TRUE(diags_of(last[uri(cu)]).empty()) << to_text(json::Value(json::Object(last[uri(cu)])));
  // Back: the header shows it again; closed, the source shows it at its `#include` line.
  c.change(cu, 3, json::Array{json::Object{{"range", range_obj(1, 75, 1, 76)}, {"text", "warp_sum("}}});
  last = settle(c);
  EXPECT_EQ(codes(diags_of(last[uri(h)])), std::vector<std::string>{"INTR001"});
  EXPECT_TRUE(diags_of(last[uri(cu)]).empty()) << to_text(json::Value(json::Object(last[uri(cu)])));
  c.notify("textDocument/didClose", json::Object{{"textDocument", json::Object{{"uri", uri(h)}}}});
  last = settle(c);
  EXPECT_EQ(codes(diags_of(last[uri(cu)])), std::vector<std::string>{"INTR001"});
  EXPECT_EQ(line_of(last[uri(cu)]), 0);
  fs::remove_all(root);
}

TEST(LspServer, ConfigurationEditsAndSettingsReLint) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile", toml = root + "/cudalint.toml";
  write(docker, kBadArchDocker);
  write(toml, "");
  Client c;
  c.initialize(root);
  c.open(docker, kBadArchDocker);
  ASSERT_EQ(codes(diags_of(c.wait_publish(docker))), std::vector<std::string>{"ARCH004"});
  // An unsaved edit of cudalint.toml applies at once.
  c.open(toml, "");
  EXPECT_TRUE(diags_of(c.wait_publish(toml, 1)).empty());
  c.change(toml, 2, json::Array{json::Object{{"text", "ignore = [\"ARCH004\"]\n"}}});
  EXPECT_TRUE(diags_of(c.wait_publish(docker)).empty());
  EXPECT_TRUE(diags_of(c.wait_publish(toml, 2)).empty());
  // A broken config is reported on the config file itself; its valid selectors still apply.
  c.change(toml, 3, json::Array{json::Object{{"text", "ignore = [\"ARCH004\", \"NOPE999\"]\n"}}});
  json::Object p = c.wait_publish(toml, 3);
  ASSERT_EQ(codes(diags_of(p)), std::vector<std::string>{"CONF001"});
  EXPECT_EQ(to_text(*diags_of(p)[0].getAsObject()->get("range")), to_text(range_obj(0, 21, 0, 30)));
  // The Dockerfile's (empty) diagnostics did not change: nothing is re-sent for it.
  c.expect_no_publish();
  // Closing the buffer puts the file on disk (empty) back into effect.
  c.notify("textDocument/didClose", json::Object{{"textDocument", json::Object{{"uri", uri(toml)}}}});
  EXPECT_TRUE(diags_of(c.wait_publish(toml)).empty());
  EXPECT_EQ(codes(diags_of(c.wait_publish(docker))), std::vector<std::string>{"ARCH004"});

  // Editor settings: didChangeConfiguration with the cudalint section.
  c.notify("workspace/didChangeConfiguration",
           json::Object{{"settings", json::Object{{"cudalint", json::Object{{"ignore", json::Array{"ARCH004", "BOGUS"}}}}}}});
  json::Value warn = c.wait_for([](const json::Object& o) { return o.getString("method") == "window/showMessage"; });
  EXPECT_NE(to_text(warn).find("unknown rule selector `BOGUS`"), std::string::npos);
  EXPECT_TRUE(diags_of(c.wait_publish(docker)).empty());
  c.notify("workspace/didChangeConfiguration", json::Object{{"settings", json::Object{{"cudalint", json::Object{}}}}});
  EXPECT_EQ(codes(diags_of(c.wait_publish(docker))), std::vector<std::string>{"ARCH004"});
  fs::remove_all(root);
}

TEST(LspServer, ConfigFromInitializationOptionsAndWorkspaceConfigurationRequests) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kBadArchDocker);
  write(root + "/lint/strict.toml", "ignore = [\"ARCH\"]\n");
  Client c;
  c.initialize(root, json::Object{{"workspace", json::Object{{"configuration", true}}}},
               json::Object{{"config", "lint/strict.toml"}});
  c.open(docker, kBadArchDocker);
  EXPECT_TRUE(diags_of(c.wait_publish(docker)).empty());
  // A bare didChangeConfiguration makes the server ask for the `cudalint` section.
  c.notify("workspace/didChangeConfiguration", json::Object{{"settings", nullptr}});
  json::Value ask = c.wait_for([](const json::Object& o) { return o.getString("method") == "workspace/configuration"; });
  EXPECT_NE(to_text(ask).find(R"("section":"cudalint")"), std::string::npos);
  c.raw(to_text(json::Object{{"jsonrpc", "2.0"}, {"id", *ask.getAsObject()->get("id")}, {"result", json::Array{json::Object{{"select", "ARCH"}}}}}));
  EXPECT_EQ(codes(diags_of(c.wait_publish(docker))), std::vector<std::string>{"ARCH004"});
  fs::remove_all(root);
}

TEST(LspServer, PullDiagnosticsAndCancellation) {
  std::string root = make_temp_dir();
  std::string docker = root + "/Dockerfile";
  write(docker, kBadArchDocker);
  ServerOptions o = Client::quick();
  o.debounce = 1500ms;
  Client c(o);
  c.initialize(root, json::Object{{"textDocument", json::Object{{"diagnostic", json::Object{}}}}});
  c.open(docker, kBadArchDocker);
  auto pull = [&](const std::string& prev) {
    json::Object p{{"textDocument", json::Object{{"uri", uri(docker)}}}};
    if (!prev.empty()) p["previousResultId"] = prev;
    return c.request("textDocument/diagnostic", std::move(p));
  };
  json::Value r1 = pull("");
  auto* rep = r1.getAsObject()->getObject("result");
  ASSERT_TRUE(rep) << to_text(r1);
  EXPECT_EQ(rep->getString("kind"), "full");
  EXPECT_EQ(codes(*rep->getArray("items")), std::vector<std::string>{"ARCH004"});
  std::string id1 = rep->getString("resultId")->str();
  json::Value r2 = pull(id1);
  EXPECT_EQ(to_text(*r2.getAsObject()->get("result")), R"({"kind":"unchanged","resultId":")" + id1 + "\"}");
  // A pull while a change is pending waits for it; $/cancelRequest answers it with -32800.
  c.change(docker, 2, json::Array{json::Object{{"text", kGoodArchDocker}}});
  c.raw(to_text(json::Object{{"jsonrpc", "2.0"}, {"id", 500}, {"method", "textDocument/diagnostic"},
                             {"params", json::Object{{"textDocument", json::Object{{"uri", uri(docker)}}}}}}));
  c.notify("$/cancelRequest", json::Object{{"id", 500}});
  json::Value cancelled = c.wait_for([](const json::Object& m) { return m.getInteger("id") == 500; });
  EXPECT_EQ(cancelled.getAsObject()->getObject("error")->getInteger("code"), -32800);
  json::Value r3 = pull(id1);
  EXPECT_EQ(r3.getAsObject()->getObject("result")->getString("kind"), "full");
  EXPECT_TRUE(r3.getAsObject()->getObject("result")->getArray("items")->empty());
  // No pushes to a pull client.
  c.expect_no_publish();
  fs::remove_all(root);
}

TEST(LspServer, ReadsNothingOutsideTheWorkspaceRoot) {
  std::string outer = make_temp_dir();
  std::string root = outer + "/project";
  // A config above the root would silence ARCH004: it must not be read.
  write(outer + "/cudalint.toml", "ignore = [\"ARCH004\"]\n");
  write(root + "/Dockerfile", kBadArchDocker);
  write(outer + "/other/Dockerfile", kBadArchDocker);
  Client c;
  c.initialize(root);
  c.open(root + "/Dockerfile", kBadArchDocker);
  EXPECT_EQ(codes(diags_of(c.wait_publish(root + "/Dockerfile"))), std::vector<std::string>{"ARCH004"});
  // A document outside the root gets an empty list, not an analysis.
  c.open(outer + "/other/Dockerfile", kBadArchDocker);
  EXPECT_TRUE(diags_of(c.wait_publish(outer + "/other/Dockerfile")).empty());
  // ".." cannot climb out either.
  c.open(root + "/../other/Dockerfile", kBadArchDocker);
  EXPECT_TRUE(diags_of(c.wait_publish(root + "/../other/Dockerfile")).empty());
  fs::remove_all(outer);
}

}  // namespace
}  // namespace cudalint::lsp
