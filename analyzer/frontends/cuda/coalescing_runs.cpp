#include <cstdlib>
#include <map>
#include <tuple>

#include "analyzer/frontends/cuda/coalescing_internal.h"

namespace cudalint::cuda::coalescing {

namespace {

// Marks a group's accesses `run_merged` when, folded onto one period (the gap between lanes, or a
// struct), their bytes (with a loop counter's range and step) cover three quarters of it or more.
void mark_if_filled(const std::vector<GlobalAccess*>& g, int64_t period) {
  if (period <= 0 || period > 4096) return;
  std::vector<bool> covered(static_cast<size_t>(period));
  for (const GlobalAccess* a : g)
    for (int64_t at = 0; at <= a->offset_span && at < period; at += a->offset_step)
      for (int64_t i = 0; i < a->width && i < period; ++i)
        covered[static_cast<size_t>((((a->offset + at + i) % period) + period) % period)] = true;
  size_t n = 0;
  for (bool c : covered) n += c;
  if (4 * n >= 3 * covered.size())
    for (GlobalAccess* a : g) a->run_merged = true;
}

}  // namespace

// A thread's run over adjacent elements: accesses of one kernel to one pointer in one direction
// with the same lane stride whose offsets fill the gap between lanes. Each thread then reads a
// contiguous run that L1/L2 merge.
void mark_runs(std::vector<GlobalAccess>& all) {
  std::map<std::tuple<std::string, std::string, bool, int64_t>, std::vector<GlobalAccess*>> groups;
  for (auto& a : all)
    if (a.lane_stride && a.group_lanes == 1 && a.stride_symbol.empty() && std::llabs(*a.lane_stride) > a.width &&
        !a.field_of_struct)
      groups[{a.kernel, a.pointer, a.store, *a.lane_stride}].push_back(&a);
  for (auto& [key, g] : groups) mark_if_filled(g, std::llabs(std::get<3>(key)));
}

// A kernel that touches (three quarters of) every struct's bytes through its fields: each thread
// reads or writes its whole struct, a run the caches merge.
void mark_struct_runs(std::vector<GlobalAccess>& all) {
  std::map<std::tuple<std::string, std::string, bool, uint32_t>, std::vector<GlobalAccess*>> groups;
  for (auto& a : all)
    if (a.field_of_struct && a.element > 0) groups[{a.kernel, a.pointer, a.store, a.element}].push_back(&a);
  for (auto& [key, g] : groups) mark_if_filled(g, std::get<3>(key));
}

}  // namespace cudalint::cuda::coalescing
