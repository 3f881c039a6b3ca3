// `cudalint lsp`: the debounced worker thread that runs the engine on a snapshot of the documents.
#include <algorithm>
#include <exception>

#include "analyzer/lsp/server_impl.h"

namespace cudalint::lsp {

using namespace detail;

// Called with `mu` held. A newer event moves the deadline, superseding the pending analysis.
// The first event after a quiet spell (nothing running or waiting, no event within `delay`) is
// analysed at once: an isolated edit costs no wait, and typing costs one extra analysis per burst
// (a newer edit supersedes the rest of it), after which the edits wait until typing pauses.
void Server::Impl::schedule(std::set<std::string> paths, bool all, std::chrono::milliseconds delay) {
  const Clock::time_point now = Clock::now();
  if (!running && !has_pending() && now - last_event >= delay) delay = std::chrono::milliseconds(0);
  last_event = now;
  pending.insert(paths.begin(), paths.end());
  if (all) pending_all = true;
  deadline = now + delay;
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
    // parse), then every arch's. A first pass that left no arch out is the whole answer. Only
    // sources whose last full run was slow (or that had none yet) get a first pass.
    std::vector<std::string> edited;
    bool slow = false;
    for (const auto& p : snap.cuda_targets) {
      if (!snap.explicit_targets.count(p)) continue;
      edited.push_back(p);
      auto t = full_run_time.find(p);
      slow = slow || t == full_run_time.end() || t->second > kFirstPassAbove;
    }
    lk.unlock();
    auto full = [&] {
      const auto t0 = Clock::now();
      analyse(snap.run);
      const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
      std::lock_guard g(mu);
      for (const auto& p : edited) full_run_time[p] = took;
    };
    if (!pull_mode && slow) {
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
        full();
      } else {
        std::lock_guard g(mu);
        for (const auto& p : edited) full_run_time[p] = kFirstPassAbove;  // one arch: no first pass next time
      }
    } else {
      full();
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
  s.cuda_targets = with_related(std::move(s.cuda_targets));
  s.run.cuda_sources = s.cuda_targets;
  // Uses in a header this run does not publish go to the parsed source's `#include` line
  // (apply_results leaves such a header's diagnostics as they are).
  s.run.headers_in_place = s.cuda_targets;
  pending.clear();
  pending_all = false;
  return s;
}

std::set<std::string> Server::Impl::with_related(std::set<std::string> paths) const {
  std::vector<std::string> work(paths.begin(), paths.end());
  auto add = [&](const std::string& p) {
    auto d = docs.find(p);
    if (d == docs.end() || !d->second.analysable || d->second.kind != FileKind::CudaSource) return;
    if (paths.insert(p).second) work.push_back(p);
  };
  while (!work.empty()) {
    const std::string p = std::move(work.back());
    work.pop_back();
    if (auto it = header_uses.find(p); it != header_uses.end())
      for (const auto& h : it->second) add(h);
    for (const auto& [source, headers] : header_uses)
      if (headers.count(p)) add(source);
  }
  return paths;
}

}  // namespace cudalint::lsp
