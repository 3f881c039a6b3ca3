// Shared by the INTR rules: which uses nvcc sees, which target archs they are wrong for, and how
// to name the archs and where they come from.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "analyzer/model/project_model.h"

namespace cudalint::rules::intr {

// Whether nvcc's device compilation for an arch trips over a use in its context. Emitted code
// always; names (functions, types) also where they are only parsed — a declaration the headers
// lack for that arch is an error wherever device code names it — but inline PTX and the
// cuda::ptx wrappers (whose stubs fail only at link time) only where code is generated. Host-only
// code is never device code, and neither is a template pattern: nvcc 13 (EDG) accepts an
// uninstantiated template that names an undeclared function or type even non-dependently
// (tests/oracle/intr/cases/tmpl_not_instantiated_nondependent.cu); each instantiation is walked
// on its own and its uses carry its context.
// Removed warp intrinsics follow the same split: the PTX forms (`vote.all`) and the functions the
// headers still declare, deprecated, for every arch (`__any`, `__all`, `__ballot`: ptxas rejects
// what they lower to) fail only where emitted; `__shfl` & co., declared only below sm_70, fail
// wherever device code names them (nvcc 13 on the generated oracle's unreached helpers).
inline bool fails_only_when_emitted(const cuda::Feature& f) {
  if (f.kind == cuda::FeatureKind::Ptx || f.name.starts_with("cuda::ptx::")) return true;
  return f.kind == cuda::FeatureKind::Deprecated &&
         (f.name.find('.') != std::string::npos || f.source.find("__DEPRECATED__") != std::string::npos);
}

inline bool nvcc_sees(const cuda::FeatureUse& u) {
  switch (u.context) {
    case cuda::UseContext::Emitted: return true;
    case cuda::UseContext::Device:
      return !fails_only_when_emitted(*u.feature);
    case cuda::UseContext::Template:
    case cuda::UseContext::Host: return false;
  }
  return false;
}

// The file a use is reported in: the header when it was found there, else the unit's file.
inline const std::string& use_path(const model::CudaUnit& u, const cuda::FeatureUse& use) {
  return use.file.empty() ? u.file->path : use.file;
}

// "`__hmax2`", or "`__hmax2` (in `helpers.h`, included here)".
inline std::string named(const cuda::FeatureUse& use) {
  if (use.via_header.empty()) return fmt::format("`{}`", use.spelled);
  return fmt::format("`{}` (in `{}`, included here)", use.spelled, use.via_header);
}

struct Offence {
  const model::CudaUnit* unit = nullptr;
  const cuda::FeatureUse* use = nullptr;
  std::vector<const model::TargetArch*> archs;  // offending target archs, in target order
};

// The toolkit a unit's builds use, when one names it.
inline std::optional<domain::CudaVersion> cuda_of(const model::CudaUnit& u) {
  return u.cuda ? std::optional(u.cuda->value) : std::nullopt;
}

// Every use nvcc sees that `bad(feature, arch, unit)` selects for an arch the unit's builds
// compile it for (build graph: never another build's archs), one per place (a header reached from several files counts once), in path and source order.
template <class Bad>
std::vector<Offence> offences(const model::ProjectModel& m, Bad bad) {
  std::vector<Offence> out;
  std::map<std::tuple<std::string, uint32_t, const cuda::Feature*>, size_t> at;
  for (const auto& u : m.cuda_units) {
    if (u.targets_unknown) continue;
    const auto& targets = u.targets;
    for (const auto& ar : u.per_arch) {
      const model::TargetArch* t = nullptr;
      for (const auto& ta : targets)
        if (ta.arch == ar.arch) t = &ta;
      if (!t) continue;  // the default parse when no arch list is known
      for (const auto& use : ar.uses) {
        if (!nvcc_sees(use) || !bad(*use.feature, ar.arch, u)) continue;
        auto key = std::make_tuple(use_path(u, use), use.begin, use.feature);
        auto it = at.find(key);
        if (it == at.end()) {
          it = at.emplace(key, out.size()).first;
          out.push_back({&u, &use, {}});
        }
        // A header reached from several units: their targets are distinct objects that may say
        // the same (one arch from one build line).
        auto& archs = out[it->second].archs;
        if (std::none_of(archs.begin(), archs.end(), [&](const model::TargetArch* a) {
              return a->arch == t->arch && a->origin == t->origin && a->via == t->via;
            }))
          archs.push_back(t);
      }
    }
  }
  for (auto& o : out)
    std::sort(o.archs.begin(), o.archs.end(), [&](const model::TargetArch* a, const model::TargetArch* b) {
      return std::make_tuple(a->arch.sm(), a->arch.suffix) < std::make_tuple(b->arch.sm(), b->arch.suffix);
    });
  std::sort(out.begin(), out.end(), [](const Offence& a, const Offence& b) {
    return std::make_tuple(use_path(*a.unit, *a.use), a.use->begin, a.use->feature->name) <
           std::make_tuple(use_path(*b.unit, *b.use), b.use->begin, b.use->feature->name);
  });
  return out;
}

// Where an arch comes from: "TORCH_CUDA_ARCH_LIST at Dockerfile:12".
inline std::string origin_text(const model::TargetArch& t) {
  if (t.origin.path == "<command line>") return "--target-archs";
  if (t.line) return fmt::format("{} at {}:{}", t.via, t.origin.path, t.line);
  return fmt::format("{} in {}", t.via, t.origin.path);
}

// "sm_75 (TORCH_CUDA_ARCH_LIST at Dockerfile:12)", "sm_75 and sm_70 (…)" for messages.
inline std::string arch_names(const std::vector<const model::TargetArch*>& a) {
  std::vector<std::string> names;  // an arch set by two builds is named once
  for (const auto* t : a)
    if (std::find(names.begin(), names.end(), t->arch.sm_name()) == names.end()) names.push_back(t->arch.sm_name());
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  std::set<std::string> origins;
  for (const auto* t : a) origins.insert(origin_text(*t));
  s += " (";
  bool first = true;
  for (const auto& o : origins) {
    s += (first ? "" : "; ") + o;
    first = false;
  }
  return s + ")";
}

inline void relate_archs(Diagnostic& d, const std::vector<const model::TargetArch*>& archs) {
  std::vector<Origin> seen;
  for (const auto* t : archs) {
    if (t->origin.path == "<command line>" ||
        std::find(seen.begin(), seen.end(), t->origin) != seen.end())
      continue;
    seen.push_back(t->origin);
    d.related.push_back({t->origin, fmt::format("{} sets {} here", t->via, t->arch.sm_name())});
  }
}

}  // namespace cudalint::rules::intr
