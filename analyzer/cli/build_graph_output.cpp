// `cudalint build-graph`: each CUDA source with the builds that compile it, their archs and
// toolkit, every value with the file:line it comes from. Text for people, JSON for tools.
#include "analyzer/cli/build_graph_output.h"

#include <fmt/format.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace cudalint {

namespace {

const char* kind_name(model::BuildTarget::Kind k) {
  switch (k) {
    case model::BuildTarget::Kind::SetupExtension: return "setup.py extension";
    case model::BuildTarget::Kind::CMakeTarget: return "cmake target";
    case model::BuildTarget::Kind::JitLoad: return "jit load";
    case model::BuildTarget::Kind::CompileDbEntry: return "compile_commands.json entry";
    case model::BuildTarget::Kind::Project: return "project";
  }
  return "project";
}

const char* kind_name(model::Invocation::Kind k) {
  switch (k) {
    case model::Invocation::Kind::Local: return "local";
    case model::Invocation::Kind::Dockerfile: return "dockerfile";
    case model::Invocation::Kind::CiStep: return "ci";
  }
  return "local";
}

class Lines {
 public:
  explicit Lines(const std::map<std::string, std::shared_ptr<const SourceFile>>& files) : files_(files) {}
  // 0 when the file is not loaded or the origin has no position.
  uint32_t line(const Origin& o) const {
    auto it = files_.find(o.path);
    if (it == files_.end() || o.path.empty()) return 0;
    return it->second->lines.line_of(o.span.begin);
  }
  std::string where(const Origin& o) const {
    if (o.path.empty()) return "";
    uint32_t l = line(o);
    return l ? fmt::format("{}:{}", o.path, l) : o.path;
  }

 private:
  const std::map<std::string, std::shared_ptr<const SourceFile>>& files_;
};

llvm::json::Value origin_json(const Origin& o, const Lines& lines) {
  if (o.path.empty() || o.path == "<command line>") return nullptr;
  uint32_t l = lines.line(o);
  return llvm::json::Object{{"path", o.path}, {"line", l ? llvm::json::Value(l) : llvm::json::Value(nullptr)}};
}

std::string render_json(const model::BuildGraph& g, const std::set<std::string>* only, const Lines& lines) {
  llvm::json::Array targets, invocations, sources;
  for (size_t i = 0; i < g.targets.size(); ++i) {
    const auto& t = g.targets[i];
    targets.push_back(llvm::json::Object{{"id", static_cast<int64_t>(i)},
                                         {"kind", kind_name(t.kind)},
                                         {"name", t.name},
                                         {"origin", origin_json(t.where, lines)}});
  }
  for (size_t i = 0; i < g.invocations.size(); ++i) {
    const auto& inv = g.invocations[i];
    llvm::json::Value torch = nullptr;
    if (inv.torch) {
      llvm::json::Object o{{"version", inv.torch->value.str()}, {"origin", origin_json(inv.torch->origin, lines)}};
      if (inv.torch_cuda_variant) o["cuda_variant"] = inv.torch_cuda_variant->str();
      torch = std::move(o);
    }
    invocations.push_back(llvm::json::Object{{"id", static_cast<int64_t>(i)},
                                             {"kind", kind_name(inv.kind)},
                                             {"origin", origin_json(inv.where, lines)},
                                             {"command", inv.command},
                                             {"stage", inv.stage},
                                             {"torch", std::move(torch)}});
  }
  for (const auto& [path, builds] : g.sources) {
    if (only && !only->count(path)) continue;
    llvm::json::Array bs;
    for (const auto& b : builds) {
      llvm::json::Array archs;
      for (const auto& a : b.archs) {
        auto entry = [&](const std::string& name, bool ptx) {
          return llvm::json::Object{
              {"name", name}, {"ptx", ptx}, {"origin", origin_json(a.origin, lines)}, {"via", a.via}};
        };
        if (a.sass) archs.push_back(entry(a.arch.sm_name(), false));
        if (a.arch.ptx || !a.sass) archs.push_back(entry("compute_" + a.arch.sm_name().substr(3), true));
      }
      llvm::json::Value cuda = nullptr;
      if (b.cuda) cuda = llvm::json::Object{{"version", b.cuda->value.str()}, {"origin", origin_json(b.cuda->origin, lines)}};
      bs.push_back(llvm::json::Object{{"target", static_cast<int64_t>(b.target)},
                                      {"invocation", static_cast<int64_t>(b.invocation)},
                                      {"archs_known", !b.archs_unknown},
                                      {"archs", std::move(archs)},
                                      {"unknown_reason", b.archs_unknown ? llvm::json::Value(*b.archs_unknown)
                                                                         : llvm::json::Value(nullptr)},
                                      {"cuda", std::move(cuda)}});
    }
    sources.push_back(llvm::json::Object{{"path", path}, {"builds", std::move(bs)}});
  }
  llvm::json::Object root{{"version", 1},
                          {"targets", std::move(targets)},
                          {"invocations", std::move(invocations)},
                          {"sources", std::move(sources)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  os.flush();
  return out + "\n";
}

std::string render_text(const model::BuildGraph& g, const std::set<std::string>* only, const Lines& lines) {
  std::string out;
  for (const auto& [path, builds] : g.sources) {
    if (only && !only->count(path)) continue;
    out += path + "\n";
    for (const auto& b : builds) {
      const auto& t = g.targets[b.target];
      const auto& inv = g.invocations[b.invocation];
      std::string by = inv.kind == model::Invocation::Kind::Local
                           ? std::string("on the developer's machine")
                       : inv.kind == model::Invocation::Kind::CiStep
                           ? fmt::format("by `{}` at {} (job `{}`)", inv.command, lines.where(inv.where), inv.stage)
                           : fmt::format("by `{}` at {}", inv.command, lines.where(inv.where));
      out += fmt::format("  {} `{}` ({}), {}\n", kind_name(t.kind), t.name, lines.where(t.where), by);
      if (b.archs_unknown) {
        out += fmt::format("    archs: decided at build time: {}\n", *b.archs_unknown);
      } else {
        for (const auto& a : b.archs)
          out += fmt::format("    arch {}{}: {} at {}\n", model::arch_name(a), a.arch.ptx && a.sass ? " +PTX" : "",
                             a.via, a.origin.path == "<command line>" ? "the command line" : lines.where(a.origin));
      }
      if (b.cuda) out += fmt::format("    CUDA {}: {}\n", b.cuda->value.str(), lines.where(b.cuda->origin));
      else out += "    CUDA: unknown (no build file names the toolkit)\n";
      if (inv.torch) out += fmt::format("    torch {}: {}\n", inv.torch->value.str(), lines.where(inv.torch->origin));
    }
  }
  return out;
}

}  // namespace

std::string render_build_graph(const model::BuildGraph& g, const std::string& format, const std::set<std::string>* only,
                               const std::map<std::string, std::shared_ptr<const SourceFile>>& files) {
  Lines lines(files);
  return format == "json" ? render_json(g, only, lines) : render_text(g, only, lines);
}

}  // namespace cudalint
