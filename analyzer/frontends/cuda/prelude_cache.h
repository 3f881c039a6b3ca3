// CUDA front-end: precompiled preludes (PreludeCache keeps them) and their keys.
// Private to analyzer/frontends/cuda.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/cuda/cuda_frontend.h"

namespace cudalint::cuda::detail {

// PCH bytes owned by the result: `bytes` from `offset` on (what comes before is not the PCH).
PchBytes own_pch(std::string bytes, size_t offset = 0);

// The prelude text `prelude` precompiled (nullptr: Clang could not build it, or it did not load).
// `args`: the parse's flags up to (not including) the prelude and the analysed file.
PchBytes build_prelude_pch(const std::vector<std::string>& args, const std::string& prelude, const Options& opts);

// A PCH's key: the prelude's text, the flags it is built with (the resource directory among
// them), and whether its standard headers keep their bodies.
std::string pch_key(const std::string& prelude, const std::vector<std::string>& args, const Options& opts);

// The content hash of a file's bytes, as cached results record it.
std::string content_hash(std::string_view bytes);

}  // namespace cudalint::cuda::detail
