#include "analyzer/engine/cuda_units.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
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

// The groups of a directory run's CUDA sources that share one precompiled preamble per arch
// (cuda::Options::preamble_group): three or more files of one directory whose leading directives
// have the same tokens and that are parsed for the same archs with the same flags (`any` false:
// none).
// TransformerEngine's activation kernels are a dozen such files, each of whose parses is mostly
// the same heavy headers.
struct PreambleGroups {
  static constexpr size_t kNone = SIZE_MAX;
  // Building a preamble costs more than a parse, and a parse that reads it a fraction of one:
  // a group of two files costs more than their parses.
  static constexpr size_t kMinFiles = 3;
  std::vector<size_t> of;          // per file: its group, or kNone
  std::vector<std::string> names;  // per group
};

PreambleGroups preamble_groups(const std::vector<CudaSourcesPlan::File>& cu,
                               const std::vector<std::vector<domain::Arch>>& archs, bool any) {
  PreambleGroups out;
  out.of.assign(cu.size(), PreambleGroups::kNone);
  if (!any || cu.size() < PreambleGroups::kMinFiles) return out;
  std::map<std::string, std::vector<size_t>> by_key;
  for (size_t i = 0; i < cu.size(); ++i) {
    std::string signature = cuda::preamble_group_signature(cu[i].file->text);
    if (signature.empty()) continue;
    std::string key = dir_of(cu[i].abs);
    (key += '\0') += signature;
    for (const auto& a : archs[i]) (key += '\0') += a.sm_name();
    if (cu[i].cuda) (key += '\0') += fmt::format("{}.{}", cu[i].cuda->value.major, cu[i].cuda->value.minor);
    if (const auto& f = cu[i].flags) {
      for (const auto* list : {&f->include_dirs, &f->defines, &f->undefines})
        for (const auto& x : *list) (key += '\x01') += x;
      (key += '\0') += f->std.value_or("");
      key += f->extended_lambda ? "+lambda" : "";
    }
    by_key[std::move(key)].push_back(i);
  }
  for (const auto& [key, files] : by_key) {
    if (files.size() < PreambleGroups::kMinFiles) continue;
    const size_t g = out.names.size();
    out.names.push_back(fmt::format("{}/\x1agroup {}", dir_of(cu[files.front()].abs), g));
    for (size_t i : files) out.of[i] = g;
  }
  return out;
}

// The order the workers take the files in: the run's, each preamble group's files together
// where its first one is. That first file builds the group's preambles, one arch after another;
// the group's other files wait until it is done, and the workers take the files after them
// meanwhile (rather than wait for a preamble another is building).
class FileQueue {
 public:
  static constexpr size_t kNone = SIZE_MAX;
  explicit FileQueue(const PreambleGroups& groups) : groups_(groups), left_(groups.names.size(), 0) {
    std::vector<char> placed(groups.of.size(), 0);
    for (size_t i = 0; i < groups.of.size(); ++i) {
      if (placed[i]) continue;
      const size_t g = groups.of[i];
      for (size_t j = i; j < groups.of.size(); ++j)
        if (j == i || (g != PreambleGroups::kNone && groups.of[j] == g)) {
          pending_.push_back(j);
          placed[j] = 1;
          if (g != PreambleGroups::kNone) ++left_[g];
        }
    }
    ready_.assign(groups.names.size(), 0);
    first_of_.assign(groups.names.size(), kNone);
    for (size_t i : pending_)
      if (const size_t g = groups.of[i]; g != PreambleGroups::kNone && first_of_[g] == kNone) first_of_[g] = i;
  }
  // The next file to analyse; kNone when none is left. Waits while only files of groups whose
  // first file is being analysed are.
  size_t take() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      for (auto it = pending_.begin(); it != pending_.end(); ++it) {
        const size_t g = groups_.of[*it];
        if (g == PreambleGroups::kNone || ready_[g] || first_of_[g] == *it) {
          const size_t i = *it;
          pending_.erase(it);
          return i;
        }
      }
      if (pending_.empty()) return kNone;
      cv_.wait(lock);
    }
  }
  // File `i` is done; true when it was its group's last (its preambles can go).
  bool done(size_t i) {
    const size_t g = groups_.of[i];
    if (g == PreambleGroups::kNone) return false;
    std::lock_guard<std::mutex> lock(mu_);
    if (first_of_[g] == i) {
      ready_[g] = 1;
      cv_.notify_all();
    }
    return --left_[g] == 0;
  }

 private:
  const PreambleGroups& groups_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<size_t> pending_;
  std::vector<size_t> left_, first_of_;
  std::vector<char> ready_;
};

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
  std::vector<std::vector<domain::Arch>> archs(cu.size());
  for (size_t i = 0; i < cu.size(); ++i) {
    for (const auto& t : cu[i].targets)
      if (std::find(archs[i].begin(), archs[i].end(), t.arch) == archs[i].end()) archs[i].push_back(t.arch);
    if (archs[i].empty()) archs[i].push_back(domain::Arch{7, 5});
  }
  // A directory run's files (the others keep their own preambles, or none).
  const bool shared_preambles = !in.newest_arch_only && !few_files && !disk_preambles;
  const PreambleGroups groups = preamble_groups(cu, archs, shared_preambles);
  FileQueue queue(groups);
  std::atomic<bool> archs_left{false};
  auto worker = [&] {
    prefer_huge_pages_in_thread();
    for (size_t i = queue.take(); i != FileQueue::kNone; i = queue.take()) {
      cuda::Options opts = base;
      opts.want_accesses = accesses[i];
      opts.archs = archs[i];
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
      if (const size_t g = groups.of[i]; g != PreambleGroups::kNone) {
        opts.preamble = true;
        opts.preamble_group = groups.names[g];
      }
      results[i] = cuda::analyze(cu[i].abs, cu[i].file->text, opts, cuda::FeatureTable::builtin());
      if (queue.done(i)) base.prelude_cache->drop_preambles(groups.names[groups.of[i]] + '\x1f');
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
