// CUDA front-end: one Clang parse of the analysed file for one arch, with its flags, the
// precompiled prelude and driver job it can use, and what it found. Private to
// analyzer/frontends/cuda.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/domain/arch.h"
#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/cuda/use_collector.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda::detail {

// What one parse needs besides the arch.
struct ParseInput {
  std::string_view text;
  const Options& opts;
  const FeatureTable& table;
  const std::string& prelude;  // prelude_text(table), generated once by the caller
  const std::string& arch_text;  // prelude_arch_text()
  std::string file;            // the analysed file's absolute path
  bool features = true;        // may_use_features(text)
  std::string std_includes;    // leading_std_includes(text), when a PCH may hold them
};

// One Clang parse of the analysed file for one arch, and what it found.
struct ArchParse {
  ArchResult ar;
  ArchTrace trace;
  std::vector<std::string> errors, missing;
  std::vector<SyntaxError> syntax;     // at most one: the first
  std::vector<GlobalAccess> accesses;  // when asked for (`first`)
  bool used_pch = false;               // the prelude came precompiled
  bool reused_driver = false;          // the cc1 command line came from a driver job
  bool used_std_pch = false;           // that PCH held the file's standard headers
  bool used_preamble = false;          // a precompiled preamble held the file's leading includes
  std::shared_ptr<const BodyReuse> bodies;  // what a later arch's parse may reuse (Collector::bodies)
  size_t skipped_bodies = 0;                // bodies this parse took from an earlier one
  size_t std_skipped = 0;                   // standard library bodies it skipped (skip_std_bodies)
  std::shared_ptr<const Derivation> derivation;  // what derives other archs from it (Collector::derivation)
  std::vector<std::string> unanalysed_kernels;   // Collector::unanalysed_kernels
};

// `own_stack`: the calling thread has kParseStackBytes of stack. `record`: where the parse's
// file system probes go (not shared with a parse running at the same time).
// `reuse`: bodies an earlier parse recorded, which this one skips when it can (a parse that
// finds it could not is run again without). `need_bodies`: whether a later arch will need a
// parse of its own after this one (given this parse's preprocessing).
ArchParse parse_arch(const ParseInput& in, const domain::Arch& arch, bool first, bool own_stack, Manifest* record,
                     const BodyReuse* reuse = nullptr,
                     const std::function<bool(const ArchTrace&)>& need_bodies = nullptr);

}  // namespace cudalint::cuda::detail
