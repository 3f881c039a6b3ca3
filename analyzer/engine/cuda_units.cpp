#include "analyzer/engine/cuda_units.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "rules/registry.h"

namespace cudalint {

namespace {

std::string dir_of(const std::string& abs) {
  auto s = abs.find_last_of('/');
  return s == std::string::npos || s == 0 ? "/" : abs.substr(0, s);
}

}  // namespace

CudaSourcesOutput analyze_cuda_sources(const model::ProjectModel& model, const CudaSourcesInput& in) {
  CudaSourcesOutput out;
  if (!in.loaded) return out;
  cuda::Options base;
  for (const auto& t : model.device_targets)
    if (std::none_of(base.archs.begin(), base.archs.end(), [&](const model::Arch& a) { return a == t.arch; }))
      base.archs.push_back(t.arch);
  // Without a known arch list: one parse for sm_75 (the oldest arch nvcc 13 builds), so that
  // arch-independent checks (deprecated intrinsics, syntax errors) still run.
  if (base.archs.empty()) base.archs.push_back(model::Arch{7, 5});
  if (model.build_cuda) base.cuda = model.build_cuda->value;
  base.unsaved = in.overlays;

  std::vector<std::pair<const SourceFile*, std::string>> cu;
  std::map<std::string, const SourceFile*> by_abs;
  std::vector<std::pair<std::string, cuda::CompileDb>> dbs;  // directory → database
  for (const auto& [sf, abs] : *in.loaded) {
    by_abs[abs] = sf;
    if (sf->kind == FileKind::CudaSource && (!in.only || in.only->count(abs))) cu.emplace_back(sf, abs);
    if (sf->kind == FileKind::CompileCommands)
      if (auto db = cuda::CompileDb::parse(sf->text, dir_of(abs)); db && !db->empty())
        dbs.emplace_back(dir_of(abs), std::move(*db));
  }
  // The nearest database above a file (else the first one): a project's build directory's
  // database is usually linked to its root.
  auto db_for = [&](const std::string& abs) -> const cuda::CompileDb* {
    const cuda::CompileDb* best = nullptr;
    size_t best_len = 0;
    for (const auto& [dir, db] : dbs)
      if (abs.starts_with(dir + "/") && dir.size() + 1 > best_len) {
        best = &db;
        best_len = dir.size() + 1;
      }
    return best ? best : dbs.empty() ? nullptr : &dbs.front().second;
  };

  out.units.resize(cu.size());
  std::vector<std::vector<Diagnostic>> diags(cu.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < cu.size(); i = next++) {
      const SourceFile* sf = cu[i].first;
      cuda::Options opts = base;
      if (const cuda::CompileDb* db = db_for(cu[i].second))
        if (auto f = db->flags_for(cu[i].second)) {
          opts.include_dirs = f->include_dirs;
          opts.defines = f->defines;
          opts.undefines = f->undefines;
          if (f->std) opts.std = *f->std;
        }
      cuda::Result r = cuda::analyze(cu[i].second, sf->text, opts, cuda::FeatureTable::builtin());
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
      for (const auto& e : r.syntax_errors)
        diags[i].push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf->path, {e.begin, e.end}},
                            fmt::format("syntax error: {}; the CUDA analysis of this file is partial", e.message),
                            {}, std::nullopt});
      out.units[i] = {sf, std::move(r.per_arch), std::move(r.accesses)};
    }
  };
  unsigned jobs = std::max(1u, std::min<unsigned>(in.jobs, static_cast<unsigned>(cu.size())));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (auto& d : diags)
    for (auto& x : d) out.diags.push_back(std::move(x));
  return out;
}

}  // namespace cudalint
