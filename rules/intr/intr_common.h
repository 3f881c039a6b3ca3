// Shared by the INTR rules: which target archs a feature use is wrong for.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::intr {

// Reports nothing unless `pick` returns true for some (use, arch); then one finding per use
// site, naming the lowest offending arch and, as related location, where that arch comes from.
struct Offence {
  const cuda::FeatureUse* use = nullptr;
  std::vector<const model::TargetArch*> archs;  // offending archs, in target order
};

// Per file: every use site with the archs `bad` selects, in source order.
template <class Bad>
std::vector<Offence> offences(const model::ProjectModel& m, const model::CudaUnit& u, Bad bad) {
  std::vector<Offence> out;
  for (const auto& ar : u.per_arch) {
    const model::TargetArch* t = nullptr;
    for (const auto& ta : m.device_targets)
      if (ta.arch == ar.arch) t = &ta;
    for (const auto& use : ar.uses) {
      if (!bad(*use.feature, ar.arch)) continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const Offence& o) {
        return o.use->begin == use.begin && o.use->feature == use.feature;
      });
      if (it == out.end()) {
        out.push_back({&use, {}});
        it = out.end() - 1;
      }
      if (t) it->archs.push_back(t);
    }
  }
  std::sort(out.begin(), out.end(), [](const Offence& a, const Offence& b) { return a.use->begin < b.use->begin; });
  return out;
}

// "sm_75 (and sm_70)" for messages.
inline std::string arch_names(const std::vector<const model::TargetArch*>& a) {
  std::string s = a.front()->arch.sm_name();
  if (a.size() > 1) {
    s += " (and";
    for (size_t i = 1; i < a.size(); ++i) s += (i > 1 ? ", " : " ") + a[i]->arch.sm_name();
    s += ")";
  }
  return s;
}

}  // namespace cudalint::rules::intr
