// Shared by the MEM rules: the message parts every coalescing finding states.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::mem {

// How far apart adjacent lanes are: "36 bytes apart", "`stride` elements apart", "in groups of 4
// lanes 64 bytes apart".
inline std::string distance(const cuda::GlobalAccess& a) {
  if (!a.stride_symbol.empty())
    return fmt::format("{}`{}` elements apart", a.group_lanes > 1 ? fmt::format("in groups of {} lanes ", a.group_lanes) : "",
                       a.stride_symbol);
  if (!a.lane_stride) return "scattered";
  if (a.group_lanes > 1) return fmt::format("in groups of {} lanes {} bytes apart", a.group_lanes, *a.lane_stride);
  return fmt::format("{} bytes apart", *a.lane_stride);
}

// "adjacent lanes of a warp are 32 bytes apart (4-byte loads): about 32 32-byte sectors per
// request where 4 would do"
inline std::string pattern(const cuda::GlobalAccess& a) {
  return fmt::format("adjacent lanes of a warp are {} ({}-byte {}s): about {:g} 32-byte sectors per request where {:g} "
                     "would do{}",
                     distance(a), a.width, a.store ? "store" : "load", a.sectors, a.ideal,
                     a.stride_symbol.empty() ? "" : fmt::format(" unless `{}` is 1", a.stride_symbol));
}

inline const char* verb(const cuda::GlobalAccess& a) { return a.store ? "store to" : "load from"; }

// Why the caches absorb the waste when another warp or block uses the rest of each sector.
inline std::string neighbour_note(const cuda::GlobalAccess& a) {
  if (a.neighbour.empty()) return {};
  const bool index = a.neighbour.starts_with("threadIdx.") || a.neighbour.starts_with("blockIdx.");
  if (!index)
    return fmt::format("; the loop counter `{}` moves the address by {} byte{}, so the thread's next iterations {} the "
                       "rest of each sector, which L1 merges while the lines stay cached (DRAM traffic stays near the "
                       "ideal; the extra sectors cost L1 bandwidth)",
                       a.neighbour, a.neighbour_step, a.neighbour_step == 1 ? "" : "s", a.store ? "write" : "read");
  return fmt::format("; `{}` moves the address by {} byte{}, so other {} {} the rest of each sector, which L1/L2 merge "
                     "(DRAM traffic stays near the ideal; the extra sectors cost L1/L2 bandwidth)",
                     a.neighbour, a.neighbour_step, a.neighbour_step == 1 ? "" : "s",
                     a.neighbour.starts_with("blockIdx.") ? "blocks" : "warps of the block", a.store ? "write" : "read");
}

constexpr size_t kMaxRelated = 8;  // places listed with a grouped finding

// The accesses `keep` selects, grouped by `key_of` in the order each group first appears: one
// finding per group (a run of accesses, the fields of one struct), the others related.
template <class Keep, class KeyOf>
std::vector<std::vector<const cuda::GlobalAccess*>> grouped(const std::vector<cuda::GlobalAccess>& accesses, Keep keep,
                                                            KeyOf key_of) {
  using Key = decltype(key_of(accesses.front()));
  std::map<Key, size_t> index;
  std::vector<std::vector<const cuda::GlobalAccess*>> groups;
  for (const auto& a : accesses) {
    if (!keep(a)) continue;
    auto [it, fresh] = index.try_emplace(key_of(a), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(&a);
  }
  return groups;
}

}  // namespace cudalint::rules::mem
