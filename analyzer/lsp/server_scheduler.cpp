// `cudalint lsp`: the debounced worker thread that runs the engine on a snapshot of the documents.
#include <algorithm>
#include <exception>

#include "analyzer/lsp/server_impl.h"

namespace cudalint::lsp {

using namespace detail;

// Called with `mu` held. A newer event moves the deadline, superseding the pending analysis.
void Server::Impl::schedule(std::set<std::string> paths, bool all, std::chrono::milliseconds delay) {
  pending.insert(paths.begin(), paths.end());
  if (all) pending_all = true;
  deadline = Clock::now() + delay;
  work_cv.notify_all();
}

void Server::Impl::work_loop() {
  std::unique_lock lk(mu);
  while (true) {
    work_cv.wait(lk, [&] { return stop || has_pending(); });
    if (stop) return;
    while (!stop && has_pending() && Clock::now() < deadline) work_cv.wait_until(lk, deadline);
    if (stop) return;
    if (!has_pending()) continue;
    Snapshot snap = take_snapshot();
    running = true;
    lk.unlock();
    std::optional<RunOutput> out;
    std::string error;
    auto analyse = [&](const RunOptions& run) {
      out.reset();
      try {
        out = run_analysis(run);
      } catch (const std::exception& e) {
        error = e.what();
      } catch (...) {
        error = "unknown error";
      }
    };
    // Edited CUDA sources built for several archs: their newest arch's findings first (one
    // parse), then every arch's. A first pass that left no arch out is the whole answer.
    const bool edited_cuda = std::any_of(snap.cuda_targets.begin(), snap.cuda_targets.end(),
                                         [&](const std::string& p) { return snap.explicit_targets.count(p) > 0; });
    if (!pull_mode && edited_cuda) {
      RunOptions first = snap.run;
      first.cuda_newest_arch_only = true;
      analyse(first);
      if (out && out->archs_left) {
        lk.lock();
        publish_first_pass(snap, *out);
        const bool newer = has_pending();
        // A newer edit supersedes the rest of this run; the sources it leaves half-checked
        // are checked again with it.
        if (newer) {
          pending.insert(snap.cuda_targets.begin(), snap.cuda_targets.end());
          running = false;
          continue;
        }
        lk.unlock();
        analyse(snap.run);
      }
    } else {
      analyse(snap.run);
    }
    lk.lock();
    running = false;
    if (out) apply_results(snap, *out);
    else log(1, "cudalint: analysis failed: " + error);
    answer_pulls();
    // What the run stored reaches the disk now (after the diagnostics), not when the session ends.
    if (disk) {
      lk.unlock();
      disk->flush();
      lk.lock();
    }
    if (!has_pending()) idle_cv.notify_all();
  }
}

Server::Impl::Snapshot Server::Impl::take_snapshot() {
  Snapshot s;
  s.all = pending_all;
  s.explicit_targets = pending;
  s.run.root = root;
  s.run.paths = {root};
  s.run.config_file = settings.config;
  s.run.cli.select = settings.select;
  s.run.cli.extend_select = settings.extend_select;
  s.run.cli.ignore = settings.ignore;
  s.run.target_archs = settings.target_archs;
  s.run.jobs = opts.jobs;
  s.run.confine_to_root = true;
  s.run.prelude_cache = &prelude_cache;
  s.run.disk_cache = disk.get();
  for (const auto& [path, d] : docs) {
    if (!d.analysable) continue;
    s.run.overlays[path] = d.text;
    s.versions[path] = d.version;
    if (d.kind == FileKind::CudaSource && (s.all || pending.count(path))) s.cuda_targets.insert(path);
  }
  s.run.cuda_sources = s.cuda_targets;
  pending.clear();
  pending_all = false;
  return s;
}

}  // namespace cudalint::lsp
