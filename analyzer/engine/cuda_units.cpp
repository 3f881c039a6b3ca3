#include "analyzer/engine/cuda_units.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/thread.h>

#include "analyzer/core/huge_pages.h"
#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/domain/torch_support.h"
#include "rules/registry.h"

namespace cudalint {

namespace {

std::string dir_of(const std::string& abs) {
  auto s = abs.find_last_of('/');
  return s == std::string::npos || s == 0 ? "/" : abs.substr(0, s);
}

// An arch a file's own flags compile it for, with the option that names it and where that is
// written (the origin the finding points at).
model::TargetArch flag_target(const domain::Arch& arch, const std::string& flag, const SourceFile& file, Span at) {
  const bool clang = flag.starts_with("--cuda-gpu-arch") || flag.starts_with("--offload-arch");
  return {arch, Origin{file.path, at}, fmt::format("{} flag `{}`", clang ? "clang" : "nvcc", flag),
          file.lines.line_of(at.begin)};
}

}  // namespace

CudaSourcesOutput analyze_cuda_sources(const model::ProjectModel& model, const CudaSourcesInput& in) {
  CudaSourcesOutput out;
  if (!in.loaded) return out;
  cuda::Options base;
  for (const auto& t : model.device_targets)
    if (std::none_of(base.archs.begin(), base.archs.end(), [&](const domain::Arch& a) { return a == t.arch; }))
      base.archs.push_back(t.arch);
  // Without a known arch list: one parse for sm_75 (the oldest arch nvcc 13 builds), so that
  // arch-independent checks (deprecated intrinsics, syntax errors) still run.
  if (base.archs.empty()) base.archs.push_back(domain::Arch{7, 5});
  if (model.build_cuda) base.cuda = model.build_cuda->value;
  base.unsaved = in.overlays;
  // One precompiled prelude per flag set (the same for every arch), shared by this run's
  // threads; the default flags' is embedded in the program. Building one costs about two parses
  // of a small file, so a run of one or two files with other flags parses the prelude text
  // instead (unless the caller keeps the cache across runs, as the editor does, or an on-disk
  // cache keeps them for the next run).
  cuda::PreludeCache own_cache(in.disk_cache, cuda::embedded_prelude_pch());
  base.prelude_cache = in.prelude_cache;
  base.disk_cache = in.disk_cache;

  std::vector<std::pair<const SourceFile*, std::string>> cu;
  std::map<std::string, const SourceFile*> by_abs;
  struct Database {
    std::string dir;
    const SourceFile* file;
    cuda::CompileDb db;
  };
  std::vector<Database> dbs;
  for (const auto& [sf, abs] : *in.loaded) {
    by_abs[abs] = sf;
    if (sf->kind == FileKind::CudaSource && (!in.only || in.only->count(abs))) cu.emplace_back(sf, abs);
    if (sf->kind == FileKind::CompileCommands)
      if (auto db = cuda::CompileDb::parse(sf->text, dir_of(abs)); db && !db->empty())
        dbs.push_back({dir_of(abs), sf, std::move(*db)});
  }
  // The flags (and, when they choose them, the archs) a file's own build compiles it with: its
  // compile_commands.json entry, else the setup.py extension that lists it.
  struct ExtensionFlags {
    cuda::CompileFlags flags;
    std::vector<model::TargetArch> targets;  // its own archs, when its flags choose them
    bool targets_unknown = false;
  };
  // The CUDA sources that setup.py extensions list, with the flags torch's extension builder
  // compiles them with. Sources are relative to setup.py's directory, where it runs.
  std::map<std::string, ExtensionFlags> setup_flags;
  for (const auto& unit : model.setup_pys) {
    auto it = std::find_if(in.loaded->begin(), in.loaded->end(), [&](const auto& l) { return l.first == unit.file; });
    if (it == in.loaded->end()) continue;
    const std::string dir = dir_of(it->second);
    for (const auto& ext : unit.setup.extensions) {
      if (!ext.kind.ends_with("CUDAExtension")) continue;
      std::vector<std::string> macros, nvcc;
      for (const auto& [name, value] : ext.define_macros) macros.push_back(name.value + (value ? "=" + value->value : ""));
      for (const auto& a : ext.nvcc_args.items) nvcc.push_back(a.value);
      ExtensionFlags ef;
      ef.flags =
          cuda::nvcc_flags(domain::torch_extension_nvcc_command(ext.name ? ext.name->value : "", macros, nvcc), dir);
      // torch adds the arch flags of TORCH_CUDA_ARCH_LIST only when no flag of the extension's
      // names an arch (any flag containing `arch`, as _get_cuda_arch_flags tests); then the
      // extension's own are all there is. `--target-archs` still overrides every build file.
      auto own = std::find_if(ext.nvcc_args.items.begin(), ext.nvcc_args.items.end(), [](const python::Str& a) {
        return a.value.find("arch") != std::string::npos && a.value.find("TORCH_EXTENSION_NAME") == std::string::npos;
      });
      if (own != ext.nvcc_args.items.end() && !model.target_archs_override) {
        ef.targets_unknown = ef.flags.archs.empty();
        // Each arch at the item that names it (`-gencode` and its value may be two items).
        const auto& items = ext.nvcc_args.items;
        for (size_t k = 0; k < ef.flags.archs.size(); ++k) {
          const std::string& flag = ef.flags.arch_flags[k];
          for (size_t j = 0; j < items.size(); ++j)
            if (items[j].value == flag || (j + 1 < items.size() && items[j].value + " " + items[j + 1].value == flag)) {
              ef.targets.push_back(flag_target(ef.flags.archs[k], flag, *unit.file, items[j].span));
              break;
            }
        }
      } else if (!ext.nvcc_args.complete && !model.target_archs_override) {
        // A list partly computed (`["-O3"] + arch_flags`): the part not read may name archs, and
        // then torch adds none of TORCH_CUDA_ARCH_LIST's. Which archs it is compiled for is unknown.
        ef.targets_unknown = true;
      }
      for (const auto& src : ext.sources.items) {
        llvm::SmallString<256> p(src.value);
        llvm::sys::fs::make_absolute(dir, p);
        llvm::sys::path::remove_dots(p, true);
        setup_flags.emplace(p.str().str(), ef);  // the first extension that lists it
      }
    }
  }

  // The nearest database above a file (else the first one): a project's build directory's
  // database is usually linked to its root.
  auto db_for = [&](const std::string& abs) -> const Database* {
    const Database* best = nullptr;
    size_t best_len = 0;
    for (const auto& d : dbs)
      if (abs.starts_with(d.dir + "/") && d.dir.size() + 1 > best_len) {
        best = &d;
        best_len = d.dir.size() + 1;
      }
    return best ? best : dbs.empty() ? nullptr : &dbs.front();
  };

  // The sources with a database entry of their own. An entry whose arch options name other archs
  // than the project's list is what the build compiles that file for; one naming the same archs
  // leaves the project's list (its origin is a file the user edits, not a generated one).
  std::map<std::string, ExtensionFlags> entry_flags;
  for (const auto& [sf, abs] : cu) {
    const Database* d = db_for(abs);
    if (!d) continue;
    auto entry = d->db.own_entry(abs);
    if (!entry) continue;
    ExtensionFlags ef;
    ef.flags = std::move(entry->flags);
    const auto& archs = ef.flags.archs;
    auto in_project = [&](const domain::Arch& a) {
      return std::any_of(model.device_targets.begin(), model.device_targets.end(),
                         [&](const model::TargetArch& t) { return t.arch == a; });
    };
    const bool same = !archs.empty() && std::all_of(archs.begin(), archs.end(), in_project) &&
                      std::all_of(model.device_targets.begin(), model.device_targets.end(), [&](const auto& t) {
                        return std::find(archs.begin(), archs.end(), t.arch) != archs.end();
                      });
    if (ef.flags.arch_options && !model.target_archs_override && !same) {
      ef.targets_unknown = archs.empty();
      const Span at{static_cast<uint32_t>(entry->begin), static_cast<uint32_t>(entry->end)};
      for (size_t k = 0; k < archs.size(); ++k) ef.targets.push_back(flag_target(archs[k], ef.flags.arch_flags[k], *d->file, at));
    }
    entry_flags.emplace(abs, std::move(ef));
  }

  // What a file's own build gives: its database entry, else its setup.py extension, else nothing.
  auto extension_of = [&](const std::string& abs) -> const ExtensionFlags* {
    if (auto e = entry_flags.find(abs); e != entry_flags.end()) return &e->second;
    auto e = setup_flags.find(abs);
    return e == setup_flags.end() ? nullptr : &e->second;
  };

  // The embedded PCH (default flags) is always used; other flags get one built when that pays.
  base.precompile_prelude = base.prelude_cache || cu.size() >= 3 || (in.disk_cache && !cu.empty());
  if (!base.prelude_cache) base.prelude_cache = &own_cache;
  out.units.resize(cu.size());
  std::vector<std::vector<Diagnostic>> diags(cu.size());
  // When there are fewer files than threads (a pre-commit run on a few files, an editor
  // re-diagnosing one buffer), each file parses two of its archs at once.
  base.parallel_archs = base.archs.size() > 1 && cu.size() < in.jobs;
  // Every worker is a thread with a parse-sized stack (the main thread's is smaller), so that
  // the front-end parses on it instead of starting a thread per parse.
  base.caller_has_parse_stack = true;
  std::vector<cuda::Result> results(cu.size());
  std::vector<char> accesses(cu.size(), 1);
  if (in.wants_accesses)
    for (size_t i = 0; i < cu.size(); ++i) accesses[i] = in.wants_accesses(cu[i].first->path, cu[i].second);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    prefer_huge_pages_in_thread();
    for (size_t i = next++; i < cu.size(); i = next++) {
      cuda::Options opts = base;
      opts.want_accesses = accesses[i];
      // The file's own compile_commands.json entry, else the setup.py extension that lists it,
      // else another entry of the database (from the same directory, or the first).
      std::optional<cuda::CompileFlags> f;
      if (const ExtensionFlags* ext = extension_of(cu[i].second)) {
        f = ext->flags;
        if (!ext->targets.empty()) {
          opts.archs.clear();
          for (const auto& t : ext->targets) opts.archs.push_back(t.arch);
        }
      } else if (const Database* d = db_for(cu[i].second)) {
        f = d->db.flags_for(cu[i].second);
      }
      if (f) {
        opts.include_dirs = f->include_dirs;
        opts.defines = f->defines;
        opts.undefines = f->undefines;
        opts.extended_lambda = f->extended_lambda;
        if (f->std) opts.std = *f->std;
      }
      results[i] = cuda::analyze(cu[i].second, cu[i].first->text, opts, cuda::FeatureTable::builtin());
    }
  };
  unsigned jobs = std::max(1u, std::min<unsigned>(in.jobs, static_cast<unsigned>(cu.size())));
  std::vector<llvm::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(std::optional<unsigned>(cuda::kParseStackBytes), worker);
  for (auto& t : threads) t.join();

  for (size_t i = 0; i < cu.size(); ++i) {
    const SourceFile* sf = cu[i].first;
    cuda::Result& r = results[i];
    // Uses in headers: at the header when it is analysed too, else at the `#include` line.
    for (auto& ar : r.per_arch)
      for (auto& u : ar.uses) {
        if (u.file.empty()) continue;
        if (auto it = by_abs.find(u.file); it != by_abs.end()) {
          u.file = it->second->path;
        } else {
          std::string shown = u.file.substr(u.file.find_last_of('/') + 1);
          u.via_header = std::move(shown);
          u.file.clear();
          u.begin = u.include_begin;
          u.end = u.include_end;
        }
      }
    // Failures of the front-end itself are said, never dropped: the file looks clean otherwise.
    std::set<std::string> failures(r.errors.begin(), r.errors.end());
    for (const auto& e : failures)
      diags[i].push_back({&rules::parse_analysis_failed_info(), rules::parse_analysis_failed_info().default_severity,
                          {sf->path, {0, 0}}, fmt::format("{}; its INTR and MEM checks are incomplete", e), {},
                          std::nullopt});
    for (const auto& e : r.syntax_errors)
      diags[i].push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf->path, {e.begin, e.end}},
                          fmt::format("syntax error: {}; the CUDA analysis of this file is partial", e.message),
                          {}, std::nullopt});
    out.units[i] = {sf, std::move(r.per_arch), std::move(r.accesses), {}, false};
    if (const ExtensionFlags* ext = extension_of(cu[i].second)) {
      out.units[i].own_targets = ext->targets;
      out.units[i].targets_unknown = ext->targets_unknown;
    }
  }
  for (auto& d : diags)
    for (auto& x : d) out.diags.push_back(std::move(x));
  return out;
}

}  // namespace cudalint
