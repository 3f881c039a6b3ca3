#include <cstdlib>
#include <map>
#include <tuple>

#include "analyzer/frontends/cuda/coalescing_internal.h"

namespace cudalint::cuda::coalescing {

// A thread's run over adjacent elements: accesses of one kernel to one pointer in one direction
// with the same lane stride whose constant offsets fill (three quarters of) the gap between
// lanes. Each thread then reads a contiguous run that L1/L2 merge.
void mark_runs(std::vector<GlobalAccess>& all) {
  std::map<std::tuple<std::string, std::string, bool, int64_t>, std::vector<GlobalAccess*>> groups;
  for (auto& a : all)
    if (a.lane_stride && a.group_lanes == 1 && a.stride_symbol.empty() && std::llabs(*a.lane_stride) > a.width &&
        !a.field_of_struct)
      groups[{a.kernel, a.pointer, a.store, *a.lane_stride}].push_back(&a);
  for (auto& [key, g] : groups) {
    int64_t span = std::llabs(std::get<3>(key));
    std::vector<bool> covered(static_cast<size_t>(std::min<int64_t>(span, 4096)));
    if (static_cast<int64_t>(covered.size()) != span) continue;
    for (const GlobalAccess* a : g)
      for (int64_t at = 0; at <= a->offset_span && at < span; at += a->offset_step)
        for (int64_t i = 0; i < a->width && i < span; ++i)
          covered[static_cast<size_t>((((a->offset + at + i) % span) + span) % span)] = true;
    size_t n = 0;
    for (bool c : covered) n += c;
    if (4 * n >= 3 * covered.size())
      for (GlobalAccess* a : g) a->run_merged = true;
  }
}

// A kernel that touches (three quarters of) every struct's bytes through its fields: each thread
// reads or writes its whole struct, a run the caches merge.
void mark_struct_runs(std::vector<GlobalAccess>& all) {
  std::map<std::tuple<std::string, std::string, bool, uint32_t>, std::vector<GlobalAccess*>> groups;
  for (auto& a : all)
    if (a.field_of_struct && a.element > 0 && a.element <= 4096) groups[{a.kernel, a.pointer, a.store, a.element}].push_back(&a);
  for (auto& [key, g] : groups) {
    uint32_t size = std::get<3>(key);
    std::vector<bool> covered(size);
    for (const GlobalAccess* a : g)
      for (uint32_t i = 0; i < a->width; ++i) covered[static_cast<size_t>((((a->offset + i) % size) + size) % size)] = true;
    size_t n = 0;
    for (bool c : covered) n += c;
    if (4 * n >= 3 * size)
      for (GlobalAccess* a : g) a->run_merged = true;
  }
}

}  // namespace cudalint::cuda::coalescing
