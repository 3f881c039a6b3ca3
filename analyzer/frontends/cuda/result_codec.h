// CUDA front-end: the on-disk cache's entries of results (DiskCache, namespace "cuda"): the
// paths the parse looked up, with what it found, then the result, in binary.
// Private to analyzer/frontends/cuda.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda::detail {

// The entry: the manifest (path, what was found, content hash of files), then the result.
std::optional<std::string> encode_entry(const Manifest& m, const Result& r, const FeatureTable& table,
                                        PreludeCache* cache);

// The cached result, when every path the parse looked up is still as it found it.
std::optional<Result> decode_entry(std::string_view entry, const FeatureTable& table, PreludeCache* cache);

}  // namespace cudalint::cuda::detail
