// Shared by the MEM rules: the message parts every coalescing finding states.
#pragma once

#include <string>

#include <fmt/format.h>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::mem {

// "adjacent lanes of a warp are 32 bytes apart: 32 sectors per request where 4 would do"
inline std::string pattern(const cuda::GlobalAccess& a) {
  return fmt::format("adjacent lanes of a warp are {} bytes apart ({}-byte {}s): about {:g} 32-byte sectors per "
                     "request where {:g} would do",
                     *a.lane_stride, a.width, a.store ? "store" : "load", a.sectors, a.ideal);
}

inline const char* verb(const cuda::GlobalAccess& a) { return a.store ? "store to" : "load from"; }

}  // namespace cudalint::rules::mem
