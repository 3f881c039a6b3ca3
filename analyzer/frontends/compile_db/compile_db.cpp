// compile_commands.json: an entry's nvcc (or clang, gcc) command line as the CUDA front-end's
// flags (nvcc_flags), and the database's entries by file (CompileDb). Declared in compile_db.h.
#include <algorithm>
#include <string>
#include <vector>

#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Path.h>

#include "analyzer/frontends/compile_db/compile_db.h"

namespace cudalint::cuda {

namespace {

// Splits a shell command line (the `command` form of an entry): quotes and backslashes as
// POSIX shells treat them.
std::vector<std::string> shell_split(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else cur += c;
    } else if (quote == '"') {
      if (c == '"') quote = 0;
      else if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\' || s[i + 1] == '$')) cur += s[++i];
      else cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      have = true;
    } else if (c == '\\' && i + 1 < s.size()) {
      cur += s[++i];
      have = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (have || !cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      have = false;
    } else {
      cur += c;
    }
  }
  if (have || !cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::string join_path(std::string_view dir, std::string_view p) {
  if (p.empty() || llvm::sys::path::is_absolute(p) || dir.empty()) return std::string(p);
  llvm::SmallString<256> s(dir.begin(), dir.end());
  llvm::sys::path::append(s, p);
  llvm::sys::path::remove_dots(s, true);
  return s.str().str();
}

// Include directories the prelude replaces (the CUDA toolkit's) or that kernels do not need and
// that would cost seconds to parse (torch, pybind11, Python).
bool dropped_include_dir(const std::string& d) {
  llvm::SmallString<256> probe(d);
  llvm::sys::path::append(probe, "cuda_runtime_api.h");
  if (llvm::sys::fs::exists(probe)) return true;
  for (std::string_view s : {"/torch/include", "/torch/csrc/api/include", "pybind11", "/include/python3", "/cuda/include",
                             "/targets/x86_64-linux/include", "/targets/sbsa-linux/include"})
    if (d.find(s) != std::string::npos) return true;
  return false;
}

// A macro set (-D) or unset (-U) on an nvcc command line: the later of the two wins.
void set_macro(CompileFlags& f, std::string m, bool define) {
  const std::string name = m.substr(0, m.find_first_of("=("));
  auto drop = [&](std::vector<std::string>& v) {
    std::erase_if(v, [&](const std::string& x) { return x.substr(0, x.find_first_of("=(")) == name; });
  };
  drop(f.defines);
  drop(f.undefines);
  (define ? f.defines : f.undefines).push_back(std::move(m));
}

}  // namespace

CompileFlags nvcc_flags(const std::vector<std::string>& command, const std::string& dir) {
  // nvcc preprocesses device code with the host compiler, which gets -Xcompiler's options too:
  // their -D/-U/-I count (checked with nvcc 13). Other tools' options do not.
  std::vector<std::pair<std::string, bool>> argv;  // (argument, from -Xcompiler)
  for (size_t i = 0; i < command.size(); ++i) {
    std::string_view a = command[i];
    std::string_view opt = a.starts_with("--") ? a.substr(1) : a;  // nvcc takes long options with one dash too
    std::optional<std::string_view> host;
    for (std::string_view x : {"-Xcompiler", "-compiler-options"})
      if (opt == x && i + 1 < command.size()) host = command[++i];
      else if (opt.starts_with(x) && opt.size() > x.size() && opt[x.size()] == '=') host = opt.substr(x.size() + 1);
    if (host) {
      for (size_t at = 0; at <= host->size();) {
        size_t comma = std::min(host->find(',', at), host->size());
        if (comma > at) argv.emplace_back(std::string(host->substr(at, comma - at)), true);
        at = comma + 1;
      }
      continue;
    }
    if (opt == "-Xptxas" || opt == "-ptxas-options" || opt == "-Xlinker" || opt == "-linker-options" ||
        opt == "-Xnvlink" || opt == "-nvlink-options" || opt == "-Xarchive" || opt == "-archive-options" ||
        opt == "-Xcudafe") {
      ++i;  // another tool's argument
      continue;
    }
    argv.emplace_back(command[i], false);
  }
  CompileFlags f;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string_view a = argv[i].first;
    const bool host_only = argv[i].second;
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (a == flag) {
        if (i + 1 < argv.size()) return argv[++i].first;
        return std::nullopt;
      }
      if (a.starts_with(flag)) {
        std::string_view v = a.substr(flag.size());
        if (v.starts_with("=")) v.remove_prefix(1);
        return std::string(v);
      }
      return std::nullopt;
    };
    std::string_view opt = a.starts_with("--") ? a.substr(1) : a;
    // The arch each device pass compiles for is the virtual one (`arch=compute_80`), whatever
    // `code=` embeds: __CUDA_ARCH__ is its number.
    // With the option as written (and its value when that is the next argument).
    const size_t at_option = i;
    auto add_arch = [&](std::string_view token) {
      if (auto arch = domain::parse_arch_token(token))
        if (std::find(f.archs.begin(), f.archs.end(), *arch) == f.archs.end()) {
          f.archs.push_back(*arch);
          f.arch_flags.push_back(i == at_option ? std::string(a) : std::string(a) + " " + argv[i].first);
        }
    };
    if (!host_only && (opt.starts_with("-gencode") || opt.starts_with("-generate-code"))) {
      f.arch_options = true;
      if (auto v = value(a.starts_with("--generate-code") ? "--generate-code"
                         : a.starts_with("-generate-code") ? "-generate-code"
                         : a.starts_with("--gencode")      ? "--gencode"
                                                           : "-gencode")) {
        std::string_view spec = *v;
        if (auto at = spec.find("arch="); at != std::string_view::npos) {
          spec.remove_prefix(at + 5);
          add_arch(spec.substr(0, spec.find(',')));
        }
      }
      continue;
    }
    if (!host_only && (opt == "-arch" || opt.starts_with("-arch=") || opt == "-gpu-architecture" ||
                       opt.starts_with("-gpu-architecture="))) {
      f.arch_options = true;
      if (auto v = value(a.starts_with("--gpu-architecture") ? "--gpu-architecture"
                         : a.starts_with("-gpu-architecture") ? "-gpu-architecture"
                         : a.starts_with("--arch")            ? "--arch"
                                                              : "-arch"))
        add_arch(*v);
      continue;
    }
    // A database written for clang's CUDA mode: each `--cuda-gpu-arch`/`--offload-arch` is a
    // device pass (`sm_80`: __CUDA_ARCH__ 800).
    if (!host_only && (a.starts_with("--cuda-gpu-arch=") || a.starts_with("--offload-arch="))) {
      f.arch_options = true;
      std::string_view list = a.substr(a.find('=') + 1);  // --offload-arch takes a list
      for (size_t at = 0; at <= list.size();) {
        size_t comma = std::min(list.find(',', at), list.size());
        add_arch(list.substr(at, comma - at));
        at = comma + 1;
      }
      continue;
    }
    if (!host_only && (opt == "-expt-extended-lambda" || opt == "-extended-lambda")) {
      f.extended_lambda = true;
      set_macro(f, "__CUDACC_EXTENDED_LAMBDA__", true);
    } else if (!host_only && opt == "-expt-relaxed-constexpr") {
      set_macro(f, "__CUDACC_RELAXED_CONSTEXPR__", true);
    } else if (!host_only &&
               (opt == "-rdc=true" || opt == "-relocatable-device-code=true" || opt == "-dc" || opt == "-device-c")) {
      set_macro(f, "__CUDACC_RDC__", true);
    } else if (!host_only && (opt == "-G" || opt == "-device-debug")) {
      set_macro(f, "__CUDACC_DEBUG__", true);
    } else if (a.starts_with("-I") || a.starts_with("-isystem") || a.starts_with("-iquote") || a == "--include-path" ||
               a.starts_with("--include-path=")) {
      std::optional<std::string> v = a.starts_with("-isystem") ? value("-isystem")
                                     : a.starts_with("-iquote") ? value("-iquote")
                                     : a.starts_with("--include-path") ? value("--include-path")
                                                                        : value("-I");
      if (v && !v->empty()) {
        std::string p = join_path(dir, *v);
        if (!dropped_include_dir(p) && std::find(f.include_dirs.begin(), f.include_dirs.end(), p) == f.include_dirs.end())
          f.include_dirs.push_back(p);
      }
    } else if (a.starts_with("-D") || a == "--define-macro" || a.starts_with("--define-macro=")) {
      if (auto v = a.starts_with("-D") ? value("-D") : value("--define-macro"); v && !v->empty()) set_macro(f, *v, true);
    } else if (a.starts_with("-U") || a == "--undefine-macro" || a.starts_with("--undefine-macro=")) {
      if (auto v = a.starts_with("-U") ? value("-U") : value("--undefine-macro"); v && !v->empty()) set_macro(f, *v, false);
    } else if (!host_only && (a.starts_with("-std=") || a.starts_with("--std=") || a == "-std" || a == "--std")) {
      if (auto v = a.starts_with("--std") ? value("--std") : value("-std"); v && !v->empty()) f.std = *v;
    }
  }
  return f;
}

namespace {

// Where each entry of a compile database (a JSON array of objects) writes its command: the
// `command`/`arguments` key, else the entry's `{`. llvm::json keeps no offsets; the text is
// valid JSON by now, so strings and nesting are all there is to follow.
std::vector<std::pair<size_t, size_t>> entry_spans(std::string_view json) {
  std::vector<std::pair<size_t, size_t>> out;
  int depth = 0;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (c == '"') {
      size_t b = i++;
      while (i < json.size() && json[i] != '"') i += json[i] == '\\' ? 2 : 1;
      std::string_view key = json.substr(b + 1, std::min(i, json.size()) - b - 1);
      if (depth == 2 && !out.empty() && (key == "command" || key == "arguments")) {
        size_t k = i + 1;
        while (k < json.size() && (json[k] == ' ' || json[k] == '\t' || json[k] == '\n' || json[k] == '\r')) ++k;
        if (k < json.size() && json[k] == ':') out.back() = {b, std::min(i + 1, json.size())};
      }
    } else if (c == '{' || c == '[') {
      if (c == '{' && depth == 1) out.emplace_back(i, i + 1);
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return out;
}

}  // namespace

std::optional<CompileDb> CompileDb::parse(std::string_view json, std::string_view db_dir, std::string* error) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(llvm::StringRef(json.data(), json.size()));
  if (!v) {
    std::string msg = llvm::toString(v.takeError());
    if (error) *error = msg;
    return std::nullopt;
  }
  const llvm::json::Array* arr = v->getAsArray();
  if (!arr) {
    if (error) *error = "compile_commands.json is not an array of entries";
    return std::nullopt;
  }
  CompileDb db;
  const auto spans = entry_spans(json);
  size_t object = 0;
  for (const llvm::json::Value& ev : *arr) {
    const llvm::json::Object* o = ev.getAsObject();
    if (!o) continue;
    Entry e;
    if (object < spans.size()) std::tie(e.begin, e.end) = spans[object];
    ++object;
    if (auto d = o->getString("directory")) e.dir = join_path(db_dir, d->str());
    else e.dir = std::string(db_dir);
    if (auto f = o->getString("file")) e.file = join_path(e.dir, f->str());
    if (const llvm::json::Array* args = o->getArray("arguments")) {
      for (const auto& a : *args)
        if (auto s = a.getAsString()) e.argv.push_back(s->str());
    } else if (auto cmd = o->getString("command")) {
      e.argv = shell_split(std::string_view(cmd->data(), cmd->size()));
    }
    if (!e.file.empty()) db.entries_.push_back(std::move(e));
  }
  return db;
}

std::optional<CompileFlags> CompileDb::flags_for(std::string_view file) const {
  auto parent = [](std::string_view p) { return llvm::sys::path::parent_path(p); };
  const Entry* pick = nullptr;
  for (const auto& e : entries_)
    if (e.file == file) { pick = &e; break; }
  if (!pick)
    for (const auto& e : entries_)
      if (parent(e.file) == parent(file)) { pick = &e; break; }
  if (!pick)
    for (const auto& e : entries_)
      if (e.file.ends_with(".cu")) { pick = &e; break; }
  if (!pick) return std::nullopt;
  return nvcc_flags(pick->argv, pick->dir);
}

std::optional<CompileDb::OwnEntry> CompileDb::own_entry(std::string_view file) const {
  for (const auto& e : entries_)
    if (e.file == file) return OwnEntry{nvcc_flags(e.argv, e.dir), e.begin, e.end};
  return std::nullopt;
}


}  // namespace cudalint::cuda
