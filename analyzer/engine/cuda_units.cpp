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

}  // namespace

std::string grouped_failures(const std::vector<std::string>& errors) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // text with "{}" for the arch
  for (const auto& e : errors) {
    std::string key = e, arch;
    size_t at = e.find(" for sm_");
    if (at == std::string::npos) at = e.find(" for compute_");
    if (at != std::string::npos) {
      size_t b = at + 5, end = e.find_first_of(": ;", b);
      if (end == std::string::npos) end = e.size();
      arch = e.substr(b, end - b);
      key = e.substr(0, b) + "{}" + e.substr(end);
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
    if (!arch.empty() && std::find(it->second.begin(), it->second.end(), arch) == it->second.end())
      it->second.push_back(arch);
  }
  std::string out;
  for (const auto& [key, archs] : groups) {
    std::string text = key;
    if (size_t p = text.find("{}"); p != std::string::npos) {
      std::string list;
      for (const auto& a : archs) list += (list.empty() ? "" : ", ") + a;
      text.replace(p, 2, list);
    }
    out += (out.empty() ? "" : "; ") + text;
  }
  return out;
}

CudaSourcesPlan plan_cuda_sources(const model::ProjectModel& model, const CudaSourcesInput& in) {
  if (!in.loaded) return {};
  CudaSourcesPlan plan;
  struct Database {
    std::string dir;
    const SourceFile* file;
    cuda::CompileDb db;
  };
  std::vector<Database> dbs;
  for (const auto& [sf, abs] : *in.loaded) {
    plan.by_abs[abs] = sf;
    if (sf->kind == FileKind::CudaSource && (!in.only || in.only->count(abs))) {
      plan.files.emplace_back();
      plan.files.back().file = sf;
      plan.files.back().abs = abs;
    }
    if (sf->kind == FileKind::CompileCommands)
      if (auto db = cuda::CompileDb::parse(sf->text, dir_of(abs)); db && !db->empty())
        dbs.push_back({dir_of(abs), sf, std::move(*db)});
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

  // The flags a file's build compiles it with: its compile_commands.json entry's, else its
  // setup.py extension's (build graph), else another entry of the nearest database.
  auto flags_of = [&](const SourceFile& sf, const std::string& abs) -> std::optional<cuda::CompileFlags> {
    const model::BuildTarget* best = nullptr;
    if (const auto* builds = model.graph.builds_of(sf.path))
      for (const auto& b : *builds) {
        const auto& t = model.graph.targets[b.target];
        if (t.flags && (!best || t.kind == model::BuildTarget::Kind::CompileDbEntry)) best = &t;
      }
    if (best) return *best->flags;
    if (const Database* d = db_for(abs)) return d->db.flags_for(abs);
    return std::nullopt;
  };
  // Each file is parsed for its own archs: those its builds compile it for. Without any (every
  // build decides at build time), one parse for sm_75 (the oldest arch nvcc 13 builds), so that
  // arch-independent checks (deprecated intrinsics, syntax errors) still run.
  for (auto& f : plan.files) {
    f.targets = model::archs_of(model.graph, f.file->path, f.unknown);
    f.cuda = model::oldest_cuda(model.graph, f.file->path);
    f.flags = flags_of(*f.file, f.abs);
  }
  return plan;
}

CudaSourcesOutput analyze_cuda_sources(const model::ProjectModel& model, const CudaSourcesInput& in) {
  return analyze_cuda_sources(plan_cuda_sources(model, in), in);
}

CudaSourcesOutput analyze_cuda_sources(CudaSourcesPlan plan, const CudaSourcesInput& in) {
  CudaSourcesOutput out;
  if (!in.loaded) return out;
  cuda::Options base;
  base.unsaved = in.overlays;
  // One precompiled prelude per flag set (the same for every arch), shared by this run's
  // threads; the default flags' is embedded in the program. Building one costs about two parses
  // of a small file, so a run of one or two files with other flags parses the prelude text
  // instead (unless the caller keeps the cache across runs, as the editor does, or an on-disk
  // cache keeps them for the next run).
  cuda::PreludeCache own_cache(in.disk_cache, cuda::embedded_prelude_pch());
  base.prelude_cache = in.prelude_cache;
  base.disk_cache = in.disk_cache;

  std::vector<CudaSourcesPlan::File>& cu = plan.files;
  // The embedded PCH (default flags) is always used; other flags get one built when that pays.
  base.precompile_prelude = base.prelude_cache || cu.size() >= 3 || (in.disk_cache && !cu.empty());
  if (!base.prelude_cache) base.prelude_cache = &own_cache;
  out.units.resize(cu.size());
  std::vector<std::vector<Diagnostic>> diags(cu.size());
  // When there are fewer files than threads (a pre-commit run on a few files, an editor
  // re-diagnosing one buffer), each file parses two of its archs at once.
  const bool few_files = cu.size() < in.jobs;
  // A file a pre-commit run checks is one being edited: the next commit will likely check it
  // again, and its preambles (leading includes precompiled, per arch) spare that run most of
  // its parses. Building them costs this run more than parsing, and each is ~10 MB on disk.
  constexpr size_t kMaxPreambleFiles = 4;
  const bool disk_preambles = in.disk_cache && in.files_only && cu.size() <= kMaxPreambleFiles;
  // Every worker is a thread with a parse-sized stack (the main thread's is smaller), so that
  // the front-end parses on it instead of starting a thread per parse.
  base.caller_has_parse_stack = true;
  std::vector<cuda::Result> results(cu.size());
  std::vector<char> accesses(cu.size(), 1);
  if (in.wants_accesses)
    for (size_t i = 0; i < cu.size(); ++i) accesses[i] = in.wants_accesses(cu[i].file->path, cu[i].abs);
  std::atomic<size_t> next{0};
  std::atomic<bool> archs_left{false};
  auto worker = [&] {
    prefer_huge_pages_in_thread();
    for (size_t i = next++; i < cu.size(); i = next++) {
      cuda::Options opts = base;
      opts.want_accesses = accesses[i];
      opts.archs.clear();
      for (const auto& t : cu[i].targets)
        if (std::find(opts.archs.begin(), opts.archs.end(), t.arch) == opts.archs.end()) opts.archs.push_back(t.arch);
      if (opts.archs.empty()) opts.archs.push_back(domain::Arch{7, 5});
      // The newest arch alone, parsed as the run over every arch will parse it first (which
      // then takes that parse instead of making it again).
      if (in.newest_arch_only && opts.archs.size() > 1) {
        opts.newest_arch_only = true;
        archs_left = true;
      }
      opts.parallel_archs = opts.archs.size() > 1 && few_files;
      // A cache that outlives this run (an editor's, or the disk's) keeps the files' preambles
      // for the next.
      opts.preamble = (in.prelude_cache != nullptr && few_files) || disk_preambles;
      if (cu[i].cuda) opts.cuda = cu[i].cuda->value;
      if (const std::optional<cuda::CompileFlags>& f = cu[i].flags) {
        opts.include_dirs = f->include_dirs;
        opts.defines = f->defines;
        opts.undefines = f->undefines;
        opts.extended_lambda = f->extended_lambda;
        if (f->std) opts.std = *f->std;
      }
      results[i] = cuda::analyze(cu[i].abs, cu[i].file->text, opts, cuda::FeatureTable::builtin());
    }
  };
  unsigned jobs = std::max(1u, std::min<unsigned>(in.jobs, static_cast<unsigned>(cu.size())));
  std::vector<llvm::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(std::optional<unsigned>(cuda::kParseStackBytes), worker);
  for (auto& t : threads) t.join();
  out.archs_left = archs_left;

  for (size_t i = 0; i < cu.size(); ++i) {
    const SourceFile* sf = cu[i].file;
    cuda::Result& r = results[i];
    // Uses in headers: at the header when it is analysed too, else at the `#include` line.
    std::set<std::string>* header_uses = nullptr;
    for (auto& ar : r.per_arch)
      for (auto& u : ar.uses) {
        if (u.file.empty()) continue;
        auto it = plan.by_abs.find(u.file);
        if (it != plan.by_abs.end()) {
          if (!header_uses) header_uses = &out.header_uses[cu[i].abs];
          header_uses->insert(it->first);
        }
        if (it != plan.by_abs.end() && (!in.headers_in_place || in.headers_in_place->count(it->first))) {
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
    // One finding per file, naming the archs each reason held for.
    if (std::string failures = grouped_failures(r.errors); !failures.empty())
      diags[i].push_back({&rules::parse_analysis_failed_info(), rules::parse_analysis_failed_info().default_severity,
                          {sf->path, {0, 0}}, fmt::format("{}; its INTR and MEM checks are incomplete", failures), {},
                          std::nullopt});
    for (const auto& e : r.syntax_errors)
      diags[i].push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf->path, {e.begin, e.end}},
                          fmt::format("syntax error: {}; the CUDA analysis of this file is partial", e.message),
                          {}, std::nullopt});
    if (!r.unanalysed_kernels.empty()) {
      std::string names;
      for (const auto& k : r.unanalysed_kernels) names += (names.empty() ? "`" : ", `") + k + "`";
      out.notes.emplace_back(
          sf->path, fmt::format("kernel template{} {} {} never instantiated in this file (launched from another file, "
                                "or through a macro cudalint cannot expand): the calls that depend on {} template "
                                "parameters were checked for no arch",
                                r.unanalysed_kernels.size() > 1 ? "s" : "", names,
                                r.unanalysed_kernels.size() > 1 ? "are" : "is",
                                r.unanalysed_kernels.size() > 1 ? "their" : "its"));
    }
    out.units[i] = {sf, std::move(r.per_arch), std::move(r.accesses), std::move(cu[i].targets), cu[i].unknown,
                    std::move(cu[i].cuda)};
  }
  for (auto& d : diags)
    for (auto& x : d) out.diags.push_back(std::move(x));
  return out;
}

}  // namespace cudalint
